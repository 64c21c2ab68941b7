"""Citations: reading ``[n]`` markers, the sources a cited sentence is judged against, and its
status (citations.py, pure); then the same through a Guard, where retrieval and the judge decide
what a citation is worth."""

import pytest
from conftest import GOOD, ScriptedJudge, validate_in_guard

from provenance_guard.text.citations import check, is_factual, problem, read, within
from provenance_guard.types import MISCITED, MISSING, NONE, OK, OUT_OF_RANGE, UNCHECKED, Citation

# Reading the markers


@pytest.mark.parametrize("sentence,cited,text", [
    ("It is in Paris [1].", (1,), "It is in Paris."),
    ("It is in Paris [2, 3].", (2, 3), "It is in Paris."),
    ("It is in Paris [2;3].", (2, 3), "It is in Paris."),
    ("It is in Paris [1-3].", (1, 2, 3), "It is in Paris."),
    ("It is in Paris [2–4].", (2, 3, 4), "It is in Paris."),  # an en dash
    ("It is in Paris [1][2].", (1, 2), "It is in Paris."),
    ("It is [2] in Paris [1, 2].", (2, 1), "It is in Paris."),  # in order written, once each
    ("It is in Paris [3-1].", (3, 1), "It is in Paris."),  # backwards: not a range
    ("It is in Paris [1-500].", (1, 500), "It is in Paris."),  # too long to be a range
    ("It is in Paris.", (), "It is in Paris."),
    ("It is in Paris [a].", (), "It is in Paris [a]."),  # not a marker
    ("Read `items[1]` first.", (), "Read `items[1]` first."),  # inline code, not a marker
    ("Read ``a[2]`` and `b` [1].", (1,), "Read ``a[2]`` and `b`."),  # code kept, marker read
])
def test_markers_are_read_and_removed_from_what_the_judge_sees(sentence, cited, text):
    assert read(sentence) == (Citation(cited), text)


def test_a_sentence_of_markers_only_is_judged_as_written():
    assert read("[2]") == (Citation((2,)), "[2]")
    assert read(" [1][3] ") == (Citation((1, 3)), " [1][3] ")


def test_with_citations_off_markers_are_plain_text():
    assert read("It is in Paris [1].", "off") == (Citation(), "It is in Paris [1].")


# The sources a cited sentence's evidence must come from


@pytest.mark.parametrize("cited,count,expected", [
    ((), 3, None),  # cites nothing: any source
    ((1, 3), 3, frozenset({0, 2})),  # 1-based markers, 0-based sources
    ((2, 7), 3, frozenset({1})),  # a number that is no source limits nothing
    ((7,), 3, frozenset()),  # only such numbers: no source at all
    ((1,), None, None),  # query_function evidence has no source numbers
])
def test_within(cited, count, expected):
    assert within(Citation(cited), count) == expected


# The status of a citation


@pytest.mark.parametrize("cited,text,mode,count,support,status", [
    ((), "The Eiffel Tower is in Paris.", "auto", 3, (), NONE),
    ((), "The Eiffel Tower is in Paris.", "required", 3, (), MISSING),
    ((), "It opened in 1889.", "required", 3, (), MISSING),  # a number makes it factual
    ((), "Here is what I found:", "required", 3, (), NONE),  # a lead-in
    ((), "I hope this helps!", "required", 3, (), NONE),  # asserts nothing
    # "Sure" can be a yes to the question; what follows a courtesy is a statement like any
    ((), "Sure!", "required", 3, (), NONE),  # too short to be factual
    ((), "Sure, the drug is safe for children.", "required", 3, (), MISSING),
    ((), "Thanks for asking! The drug is safe for children.", "required", 3, (), MISSING),
    ((), "When did it open?", "required", 3, (), NONE),
    ((), "The sources do not mention the architect.", "required", 3, (), NONE),  # a refusal
    ((1,), "The Eiffel Tower is in Paris.", "auto", None, (), UNCHECKED),
    ((1, 7), "The Eiffel Tower is in Paris.", "auto", 3, (2,), OUT_OF_RANGE),  # before miscited
    ((3,), "The Eiffel Tower is in Paris.", "auto", 3, (1,), MISCITED),
    ((1,), "The Eiffel Tower is in Paris.", "required", 3, (), OK),
    ((1,), "The Eiffel Tower is in Paris.", "off", 3, (2,), NONE),
])
def test_check(cited, text, mode, count, support, status):
    checked = check(Citation(cited), text, mode, count, support)
    assert checked.status == status
    assert checked.fails is (status in (MISSING, OUT_OF_RANGE, MISCITED))


def test_check_records_what_is_wrong():
    assert check(Citation((1, 7, 9)), "x", "auto", 3).out_of_range == (7, 9)
    miscited = check(Citation((3,)), "x", "auto", 3, (1, 2))
    assert (miscited.cited, miscited.uncited_support) == ((3,), (1, 2))
    assert check(Citation((1,)), "x", "off", 3) == Citation()  # nothing kept with citations off


@pytest.mark.parametrize("citation,text", [
    (Citation((3,), MISCITED, (2,)), "cites [3], which do not support it; [2] would"),
    (Citation((2, 3), MISCITED, (1,)), "cites [2][3], which do not support it; [1] would"),
    (Citation((), MISSING), "cites no source"),
    (Citation((1, 7), OUT_OF_RANGE, out_of_range=(7,)), "cites [7], which is not a source"),
    (Citation((1,), OK), None), (Citation(), None), (Citation((1,), UNCHECKED), None),
])
def test_problem_says_what_is_wrong_in_words(citation, text):
    assert problem(citation) == text


@pytest.mark.parametrize("sentence,factual", [
    ("The Eiffel Tower is in Paris.", True), ("It is 330 m.", True), ("Paris.", False),
    ("", False), ("Is it in Paris?", False), ("Key points:", False), ("Thank you!", False),
    ("I hope this helps.", False), ("None of the documents says when it closed.", False),
])
def test_is_factual(sentence, factual):
    assert is_factual(sentence) is factual


# Through a Guard


def test_a_cited_sentence_is_judged_against_its_cited_source_only():
    judge = ScriptedJudge()
    outcome, result = validate_in_guard(f"{GOOD} [1] The Louvre houses the Mona Lisa [2].", judge)
    assert outcome.validation_passed is True
    sentences = result["sentences"]
    assert {e["source"] for e in sentences[0]["evidence"]} == {0}
    assert {e["source"] for e in sentences[1]["evidence"]} == {1}
    assert [s["citation"]["status"] for s in sentences] == ["ok", "ok"]
    assert sorted(judge.statements) == sorted([GOOD, "The Louvre houses the Mona Lisa."])  # no markers


def test_a_sentence_supported_only_by_a_source_it_does_not_cite_is_miscited():
    outcome, result = validate_in_guard("It houses the Mona Lisa [3].", ScriptedJudge())
    assert outcome.validation_passed is False
    [sentence] = result["sentences"]
    assert sentence["citation"] == {"cited": [3], "status": "miscited",
                                    "uncited_support": [2], "out_of_range": []}
    assert result["groundedness"]["citations"]["miscited"] == 1
    assert "cites [3], which do not support it; [2] would" in \
        outcome.validation_summaries[0].failure_reason


def test_a_citation_to_no_source_fails():
    outcome, result = validate_in_guard(f"{GOOD} [7]", ScriptedJudge())
    assert outcome.validation_passed is False
    assert result["sentences"][0]["citation"]["status"] == "out_of_range"


def test_required_citations():
    text = f"Here is what I found:\n\n{GOOD} [1] It houses the Mona Lisa. I hope this helps!"
    outcome, result = validate_in_guard(text, ScriptedJudge(), citations="required")
    statuses = [s["citation"]["status"] for s in result["sentences"]]
    assert statuses == ["none", "ok", "missing", "none"]
    assert outcome.validation_passed is False
    outcome, _ = validate_in_guard(text, ScriptedJudge(), citations="auto")
    assert outcome.validation_passed is False  # "Here is what I found:" is unsupported


def test_citations_off_keeps_the_markers_as_text():
    judge = ScriptedJudge(lambda s, p: True)
    _, result = validate_in_guard(f"{GOOD} [1]", judge, citations="off")
    assert judge.statements == [f"{GOOD} [1]"]
    assert result["sentences"][0]["citation"]["status"] == "none"


def test_citations_of_query_function_passages_are_unchecked():
    def query_function(text, k):
        return ["The Eiffel Tower is in Paris."]

    outcome, result = validate_in_guard(f"{GOOD} [4]", ScriptedJudge(),
                                        {"query_function": query_function})
    assert outcome.validation_passed is True  # no source numbers to hold [4] against
    assert result["sentences"][0]["citation"]["status"] == "unchecked"
