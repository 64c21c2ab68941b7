"""Reply schemas, the structured form of each prompt, a verdict's probability from its tokens,
and the control statement."""

from __future__ import annotations

import json
import math
import re

import pytest

from provenance_guard.judges.control import control_for
from provenance_guard.judges.kinds import BATCH, CLAIMS, ONE, REWRITE
from provenance_guard.judges.local import LocalJudge
from provenance_guard.judges.prompts import (
    build_batch_prompt,
    build_claims_prompt,
    build_correction_prompt,
    build_prompt,
)
from provenance_guard.judges.replies import (
    parse_batch_reply,
    parse_claims,
    parse_reply,
    parse_rewrite,
    with_probabilities,
    with_probability,
)
from provenance_guard.text.sentences import split_sentences
from provenance_guard.types import CONTRADICTED, SUPPORTED, UNSUPPORTED, Evidence

KINDS = {kind.name: kind for kind in (ONE, BATCH, CLAIMS, REWRITE)}
PARIS = Evidence("The Eiffel Tower is in Paris. It was finished in 1889 after two years of work.")
LOUVRE = Evidence("The Louvre opened in 1793. It houses the Mona Lisa and about 35,000 works.")


def masked_numbers(text: str) -> str:
    return re.sub(r"\d[\d,]*", "#", text)


def characters(text: str, logprob: float = -0.1) -> tuple[tuple[str, float], ...]:
    return tuple((ch, logprob) for ch in text)


@pytest.mark.parametrize("kind, build", [
    ("verdict", lambda ending: build_prompt("It is in Paris.", [PARIS], ending=ending)),
    ("batch", lambda ending: build_batch_prompt(
        [("It is in Paris.", [PARIS]), ("It opened in 1793.", [LOUVRE])], ending=ending)),
    ("claims", lambda ending: build_claims_prompt("It is in Paris and opened in 1889.",
                                                  "It is in Paris.", ending=ending)),
    ("rewrite", lambda ending: build_correction_prompt("It is in Rome.", [PARIS],
                                                       "contradicted", "Paris", ending=ending)),
])
def test_a_structured_prompt_keeps_the_data_and_asks_for_one_json_object(kind, build):
    free = build(KINDS[kind].ending(False)[0])
    ending, form = KINDS[kind].ending(True, 2)
    asked = build(ending)
    assert form is not None and KINDS[kind].ending(False)[1] is None
    data_end = free.rindex(">>") + 2
    assert asked[:data_end] == free[:data_end]  # instructions and data unchanged
    assert "Reply with one JSON object and nothing else" in asked[data_end:]
    assert "line of JSON" not in asked[data_end:]  # the free reply's instructions are gone
    assert "line of JSON" in free[data_end:]


def test_each_schema_is_strict_and_puts_the_reason_before_the_verdict():
    for kind in ("verdict", "batch", "claims", "rewrite"):
        form = KINDS[kind].form(3)
        assert form["type"] == "json_schema" and form["json_schema"]["strict"] is True
        schema = form["json_schema"]["schema"]
        assert schema["additionalProperties"] is False
        assert schema["required"] == list(schema["properties"])
    verdict = ONE.form()["json_schema"]["schema"]["properties"]
    assert list(verdict) == ["reason", "verdict", "score"]
    assert verdict["verdict"]["enum"] == ["supported", "unsupported", "contradicted"]
    entries = BATCH.form(3)["json_schema"]["schema"]["properties"]["verdicts"]
    assert entries["minItems"] == entries["maxItems"] == 3
    assert entries["items"]["properties"]["id"]["enum"] == [1, 2, 3]
    assert list(entries["items"]["properties"]) == ["id", "reason", "verdict", "score"]


def test_a_reply_in_each_schemas_form_is_read_by_the_same_readers():
    assert parse_reply(json.dumps({"reason": "[1] says so", "verdict": "supported",
                                   "score": 0.9})).label == SUPPORTED
    batch = parse_batch_reply(json.dumps({"verdicts": [
        {"id": 2, "reason": "r", "verdict": "contradicted", "score": 0},
        {"id": 1, "reason": "r", "verdict": "supported", "score": 1}]}), 2)
    assert [v.label for v in batch] == [SUPPORTED, CONTRADICTED]
    assert parse_claims(json.dumps({"claims": ["A.", "B."]})) == ["A.", "B."]
    assert parse_rewrite(json.dumps({"rewrite": None})) == ""


def test_a_verdicts_probability_is_the_product_of_its_words_tokens():
    text = '{"reason": "[1] says so", "verdict": "supported", "score": 0.9}'
    tokens = characters(text, -0.01)
    verdict = with_probability(parse_reply(text), text, tokens)
    assert verdict.probability == pytest.approx(math.exp(-0.01 * len("supported")), abs=1e-4)
    # the same reply inside a code fence the server took it out of: found at its offset
    fenced = characters("```json\n" + text + "\n```", -0.01)
    assert with_probability(parse_reply(text), text, fenced).probability == verdict.probability


@pytest.mark.parametrize("tokens", [
    None,  # the provider returned none
    characters('{"verdict": "supported"}'),  # another reply's tokens
    (("{", -0.1), ("x", float("nan"))),  # not probabilities
])
def test_no_probability_is_made_up(tokens):
    text = '{"reason": "r", "verdict": "supported"}'
    assert with_probability(parse_reply(text), text, tokens).probability is None


def test_a_probability_belongs_to_the_verdict_read_and_its_id():
    text = json.dumps({"verdicts": [{"id": 2, "reason": "r", "verdict": "contradicted"},
                                    {"id": 1, "reason": "r", "verdict": "supported"}]})
    tokens = tuple((ch, -0.5 if ch == "c" else -0.001) for ch in text)
    first, second = with_probabilities(parse_batch_reply(text, 2), text, tokens)
    assert first.probability == pytest.approx(math.exp(-0.001 * 9), abs=1e-4)
    # "contradicted": two c's at -0.5, ten other characters at -0.001
    assert second.probability == pytest.approx(math.exp(-1.0 - 0.01), abs=1e-4)
    twice = json.dumps({"verdicts": [{"id": 1, "verdict": "supported"},
                                     {"id": 1, "verdict": "supported"}]})
    parsed = parse_batch_reply(twice, 1)
    assert with_probabilities(parsed, twice, characters(twice)) == parsed  # no probability


def test_a_control_is_a_passage_sentence_with_a_number_changed_and_contradicted():
    items = [("It is in Paris.", [PARIS]), ("It houses the Mona Lisa.", [LOUVRE])]
    control = control_for(items)
    assert control is not None and 0 <= control.at <= len(items)
    assert control.evidence in (PARIS, LOUVRE)
    assert control.statement not in control.evidence.text
    # one of the passage's sentences, with a number (and nothing else) changed
    masked = [masked_numbers(s.text) for s in split_sentences(control.evidence.text)]
    assert masked_numbers(control.statement) in masked
    assert LocalJudge().decide(control.statement, [control.evidence])[0] == CONTRADICTED
    assert control_for(items) == control  # the same call, the same control (caches hold)


def test_a_name_is_changed_where_no_passage_has_a_number():
    passage = Evidence("The museum stands in Paris, beside the river. Its best known painting "
                       "was made by Leonardo in Florence.")
    control = control_for([("It is beside the river.", [passage])])
    assert control is not None and control.statement not in passage.text
    assert not re.search(r"\d", control.statement)
    assert LocalJudge().decide(control.statement, [passage])[0] == CONTRADICTED


def test_no_control_where_no_passage_has_a_number_date_or_name():
    words = Evidence("the museum houses many famous paintings, and it is open every day.")
    assert control_for([("It houses many paintings.", [words])]) is None
    assert control_for([("It is in Paris.", [])]) is None


@pytest.mark.parametrize("statement", ["It was finished in 1889.", "It has 35,000 works."])
def test_a_control_never_equals_what_the_passage_says(statement):
    found = {control_for([(statement + " " + str(n), [PARIS, LOUVRE])]) for n in range(12)}
    for control in found - {None}:
        assert control.statement not in PARIS.text + LOUVRE.text
        label = LocalJudge().decide(control.statement, [control.evidence])[0]
        assert label == CONTRADICTED and label != UNSUPPORTED


def test_a_control_is_cut_after_the_clause_that_holds_its_change():
    """A control's cost is mostly its own words: a long sentence is cut after the clause that
    holds the change, where what is kept still reads as a statement the passage contradicts."""
    passage = Evidence("The tower was finished in 1889, and it has been painted again and again "
                       "by the same family of painters ever since that year.")
    control = control_for([("It was finished in 1889.", [passage])])
    assert control is not None
    assert re.fullmatch(r"The tower was finished in \d{4}\.", control.statement)
    assert control.statement != "The tower was finished in 1889."
    assert LocalJudge().decide(control.statement, [passage])[0] == CONTRADICTED
    # a clause too short to read as a statement is not cut off alone
    short = Evidence("In 1889, the tower was finished by a large team of workers from the city.")
    control = control_for([("It was finished in 1889.", [short])])
    assert control is not None and control.statement.startswith("In ")
    assert len(control.statement.split()) > 2
