"""The typed results (results.py) and their edges: a report written as result metadata and read
back is the same report; what a Guard returns reads back typed; a hostile or damaged dict is
refused naming the key, never read as a verdict."""

import copy
import json

import pytest
from conftest import BAD, GOOD, ScriptedJudge, toy_metadata

from provenance_guard import ProvenanceLLM, Report, SentenceResult
from provenance_guard.deciding.results import ClaimResult, Groundedness
from provenance_guard.types import (
    BY_LLM,
    CONTRADICTED,
    MISCITED,
    SUPPORTED,
    UNSUPPORTED,
    Chunk,
    Citation,
    Evidence,
    Sentence,
    Verdict,
)

EVIDENCE = [Evidence.of(Chunk("It is 330 m tall.", 4, 21, 1), 0.81234567),
            Evidence("a passage a query_function returned", None, None, True)]


NO_CITATION = Citation()


def sentence(*labels, citation=NO_CITATION):
    text = "The tower is 300 m tall."
    claims = [ClaimResult(f"claim {i}", Verdict(label, f"why {i}", 0.5, BY_LLM), EVIDENCE)
              for i, label in enumerate(labels)]
    return SentenceResult(Sentence(text, 10, 10 + len(text)), claims, citation, len(labels) > 1)


@pytest.mark.parametrize("result", [
    sentence(SUPPORTED),
    sentence(SUPPORTED, CONTRADICTED),  # split into claims: the sentence's verdict is derived
    sentence(UNSUPPORTED, citation=Citation((2,), MISCITED, (1,), ())),
])
def test_a_sentence_reads_back_as_it_was_written(result):
    written = json.loads(json.dumps(result.as_dict()))  # through JSON, as a file holds it
    again = SentenceResult.from_dict(written)
    assert again.as_dict() == result.as_dict()
    assert again.verdict.label == result.verdict.label and again.passes(False) == result.passes(False)
    assert again.evidence[0].chunk == Chunk("It is 330 m tall.", 4, 21, 1)


def test_a_report_reads_back_from_its_metadata_with_the_same_outcome_and_message():
    results = [sentence(SUPPORTED), sentence(CONTRADICTED)]
    report = Report(results, Groundedness.of(results, pass_on_invalid=True, unit="sentence"))
    caller = {"sources": ["s"], "nested": {"keep": 1}}
    metadata = report.metadata(caller)
    assert caller == {"sources": ["s"], "nested": {"keep": 1}} and metadata["nested"] == {"keep": 1}
    again = Report.from_metadata(json.loads(json.dumps(metadata)))
    assert again.summary == report.summary
    assert (again.passed, again.message) == (False, report.message)
    assert [r.sentence for r in again.failing] == [results[1].sentence]


def test_a_guard_call_reads_back_typed():
    from guardrails import Guard

    validator = ProvenanceLLM(llm_callable=ScriptedJudge(), on_fail="noop")
    guard = Guard().use(validator)
    text = f"{GOOD} {BAD}"
    guard.validate(text, metadata=toy_metadata())
    report = Report.from_guard(guard)
    assert [r.verdict.label for r in report.sentences] == [SUPPORTED, UNSUPPORTED]
    assert [text[r.sentence.start:r.sentence.end] for r in report.sentences] == [GOOD, BAD]
    # the same, without Guardrails (a new validator: the first one's reply cache would answer)
    direct = ProvenanceLLM(llm_callable=ScriptedJudge()).check(text, toy_metadata())
    assert direct.metadata() == report.metadata() and not direct.passed
    assert direct.fixed == GOOD


def test_a_guard_that_has_not_run_has_no_report():
    from guardrails import Guard

    with pytest.raises(ValueError, match="validated nothing yet: call guard.validate first"):
        Report.from_guard(Guard())


def _damaged(change):
    metadata = Report([sentence(SUPPORTED)], Groundedness.of([sentence(SUPPORTED)])).metadata()
    metadata = copy.deepcopy(metadata)
    change(metadata)
    return metadata


@pytest.mark.parametrize("change,named", [
    (lambda m: m["sentences"][0].update(verdict="supported!"), "['verdict']"),
    (lambda m: m["sentences"][0].update(decided_by="me"), "['decided_by']"),
    (lambda m: m["sentences"][0].update(start=-1), "['start']"),
    (lambda m: m["sentences"][0].update(score="high"), "['score']"),
    (lambda m: m["sentences"][0].update(evidence="all of it"), "['evidence']"),
    (lambda m: m["sentences"][0]["evidence"][0].update(similarity=True), "['similarity']"),
    (lambda m: m["sentences"][0]["citation"].update(cited=["1"]), "['cited']"),
    (lambda m: m["sentences"][0].update(claims=[]), "['claims']"),
    (lambda m: m["groundedness"].update(faithfulness=7), "['faithfulness']"),
    (lambda m: m["groundedness"]["counts"].update(maybe=1), "['counts']"),
    (lambda m: m.pop("groundedness"), "not the metadata of a ProvenanceLLM result"),
    (lambda m: m.update(sentences={"0": {}}), "['sentences']"),
    (lambda m: m["sentences"][0].update(verdict=None), "a claim has a 'verdict'"),
    (lambda m: m["groundedness"].update(deadline="soon"), "['deadline']"),
    (lambda m: m["groundedness"]["counts"].update(supported=-1), "['counts']"),
])
def test_a_damaged_report_is_refused_naming_the_key(change, named):
    with pytest.raises(ValueError) as raised:
        Report.from_metadata(_damaged(change))
    assert named in str(raised.value)
