"""JSON read as records of fields with paths (text.records)."""

import json

import pytest

from provenance_guard.text import records
from provenance_guard.types import Field

ORDER = {"order_id": 7731, "carrier": "DHL", "shipped_on": "2026-05-02",
         "items": [{"name": "Lamp", "price": 30}, {"name": "Desk", "price": 210}]}


@pytest.mark.parametrize("text", ["Order 7731 shipped.", '"a string"', "42", "[]", "{}",
                                  "{not json", "[" * 100_000])
def test_only_an_object_or_array_with_something_in_it_is_structured(text):
    assert records.parse(text) is None


def test_an_object_and_an_array_of_records_are_structured():
    assert records.parse(f"  {json.dumps(ORDER)}\n") == ORDER
    assert records.parse('[{"a": 1}]') == [{"a": 1}]


def test_an_item_is_read_with_the_fields_of_what_holds_it_and_never_with_its_siblings():
    found = {r.path: r.fields for r in records.records(ORDER)}
    assert set(found) == {"", "items[0]", "items[1]"}
    assert found[""] == (Field("order_id", 7731), Field("carrier", "DHL"),
                         Field("shipped_on", "2026-05-02"))
    lamp = found["items[0]"]
    assert Field("items[0].name", "Lamp") in lamp and Field("order_id", 7731) in lamp
    assert not any(f.path.startswith("items[1]") for f in lamp)


def test_paths_name_nested_keys_indexes_and_odd_keys():
    data = {"order": {"shipping": {"address": {"city": "Leeds"}}}, "odd key": True,
            "tags": ["a", "b"], "empty": []}
    paths = [f.path for r in records.records(data) for f in r.fields]
    assert paths == ["order.shipping.address.city", '["odd key"]', "tags[0]", "tags[1]",
                     "empty"]


def test_a_document_past_the_field_bound_says_it_was_cut():
    data = {"values": list(range(records.MAX_FIELDS + 10))}
    (record,) = records.records(data)
    assert record.cut and len(record.fields) == records.MAX_FIELDS


@pytest.mark.parametrize(("path", "words"), [
    ("shipped_on", ["shipped", "on"]), ("order.shippedOn", ["shipped", "on"]),
    ("items[0].unitPriceUSD", ["unit", "price", "usd"]), ('["odd key"]', ["odd", "key"])])
def test_a_key_is_read_as_words(path, words):
    assert records.key_words(path) == words


@pytest.mark.parametrize(("value", "spoken"), [
    ("2026-05-02", "May 2, 2026"), ("2026-03-09T14:30:00+01:00", "March 9, 2026 14:30"),
    ("2026-04-22T10:00:00Z", "April 22, 2026 10:00 UTC"), ("2026-02-30", "2026-02-30"),
    (True, "true"), (None, "null"), (89.0, "89"), (89.5, "89.5"), ("DHL", "DHL")])
def test_a_value_is_spoken_as_a_sentence_writes_it(value, spoken):
    assert records.spoken(value) == spoken


def test_a_judge_reads_a_line_per_field_and_how_many_were_left_out():
    text = records.shown((Field("a.b", "x\n  y"), Field("c", 1.5)), left_out=3)
    assert text == "a.b: x y\nc: 1.5\n(3 more fields of this record not shown)"


@pytest.mark.parametrize("data", [
    {"ok": False}, {"success": False}, {"status": "failed"}, {"result": "failure"},
    {"status": "not_found"}, {"status_code": 404}, {"code": 500}, {"Error": "x"},
    {"errorMessage": "x"}, {"ERR": "x"}, {"results": [{"error": "x"}]},
    {"data": None, "errors": [{"message": "not allowed"}]}, {"detail": "Not Found"},
])
def test_a_result_that_says_its_call_failed_is_read_so(data):
    assert records.failed(data)


@pytest.mark.parametrize("data", [
    {"ok": True}, {"status": "shipped"}, {"status": 200}, {"error": None}, {"errors": []},
    {"error_count": 3}, {"code": "A-500"}, {"order_id": 404},
])
def test_a_result_that_went_through_is_not_read_as_failed(data):
    assert not records.failed(data)


def test_a_row_of_a_table_is_a_record_of_its_own():
    data = {"columns": ["id", "status"], "rows": [["A-1", "shipped"], ["A-2", "cancelled"]]}
    found = {r.path: [f.value for f in r.fields] for r in records.records(data)}
    assert found["rows[0]"][:2] == ["A-1", "shipped"] and "cancelled" not in found["rows[0]"]


def test_nan_and_infinity_are_read_not_raised():
    data = records.parse('{"a": NaN, "b": Infinity, "c": 1e309}')
    assert data == {"a": "NaN", "b": "Infinity", "c": float("inf")}
    assert records.spoken(float("inf")) == "inf"


@pytest.mark.parametrize(("words", "at", "month"), [
    ("shipped in May".split(), 2, 5),
    ("on 3 May 2024".split(), 2, 5),
    ("May 3 was sunny".split(), 0, 5),
    ("prices may rise".split(), 1, None),  # the modal
    ("May I help".split(), 0, None),
    ("founded by May Smith".split(), 2, None),  # a first name
    ("founded by June Smith".split(), 2, None),
    ("in June".split(), 1, 6),
    ("This may cause cancer".split(), 1, None),  # a word of time before it, still the modal
    ("last may".split(), 1, None),
    ("the end of may".split(), 3, 5),  # nothing after it: no modal
    # another language's month, only beside its day or year
    ("am 2. Mai 2024".split(), 2, 5), ("le 3 juin".split(), 2, 6),
    ("il 4 settembre".split(), 2, 9), ("Mai ist schön".split(), 0, None),
    ("Please set 5 alarms".split(), 1, None),
    ("In August Paris hosted".split(), 1, 8),  # after a word of time, a month before a name
    ("shipped in May I think".split(), 2, 5),
    ("in May the prices rose".split(), 1, 5),
    ("in may cause".split(), 1, None),
    ([], 0, None),
])
def test_a_months_name_is_read_by_where_it_stands(words, at, month):
    from provenance_guard.text.word_forms import month_at

    assert month_at(words, at) == month
