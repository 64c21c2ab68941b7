"""A kind for each failing sentence from an LLM judge, through LiteLLM over real HTTP to a
scripted server on 127.0.0.1: asked in the prompt and in the reply's schema, read from the
reply, refused where it contradicts the verdict, and carried to the result's metadata; the rule
judge's through a real Guard."""

from __future__ import annotations

import contextlib
import io
import json

import pytest
from conftest import BAD, GOOD, batch_items, litellm_validator, toy_metadata, validate_in_guard

from provenance_guard import LocalJudge
from provenance_guard.judges.replies import parse_reply
from provenance_guard.types import INVALID, SUPPORTED, UNSUPPORTED

WRONG = "The Eiffel Tower is 300 metres tall."  # the sources say 330


def kinds_judge(kind_of_wrong):
    """Calls GOOD supported and anything else contradicted with ``kind_of_wrong``, in the
    reply form the prompt asks for."""
    def entry(statement):
        if statement == GOOD:
            return {"reason": "[1] says so", "verdict": "supported", "kind": None}
        return {"reason": "[1] gives 330 metres", "verdict": "contradicted",
                "kind": kind_of_wrong}

    def reply(prompt):
        if "BEGIN STATEMENT 1>>" in prompt:
            return json.dumps({"verdicts": [{"id": n, **entry(statement)}
                                            for n, _, statement in batch_items(prompt)]})
        return json.dumps(entry(prompt.split("BEGIN STATEMENT>>")[1].split("<<")[0].strip()))
    return reply


def test_the_schema_asks_for_a_kind_and_the_result_carries_it(chat_server):
    server = chat_server(kinds_judge("number"))
    report = litellm_validator(server.url, on_fail="noop", structured_replies="on",
                               control_statements="off").check(f"{GOOD} {WRONG}",
                                                              toy_metadata())
    [request] = server.requests
    entry = request["body"]["response_format"]["json_schema"]["schema"]["properties"][
        "verdicts"]["items"]
    assert "kind" in entry["required"]
    assert entry["properties"]["kind"] == {"type": ["string", "null"]}
    assert '"kind": null | "<what is wrong' in request["body"]["messages"][0]["content"]
    good, wrong = report.metadata({})["sentences"]
    assert (good["kind"], wrong["verdict"], wrong["kind"]) == (None, "contradicted", "number")


def test_a_free_reply_is_asked_for_a_kind_too_and_off_asks_for_none(chat_server):
    server = chat_server(kinds_judge("number"))
    litellm_validator(server.url, on_fail="noop", structured_replies="off",
                      control_statements="off").check(WRONG, toy_metadata())
    off = litellm_validator(server.url, on_fail="noop", structured_replies="on",
                            control_statements="off", failure_kinds=False)
    report = off.check(WRONG, toy_metadata())
    free, without = server.requests
    assert '"kind": null | "<what is wrong' in free["body"]["messages"][0]["content"]
    assert "kind" not in without["body"]["messages"][0]["content"]
    assert "kind" not in json.dumps(without["body"]["response_format"])
    # the reply still gives one: not asked for, it is not read
    assert report.sentences[0].kind == "unspecified"


@pytest.mark.parametrize("kind", ["addition", "unasserted", "circumstance", "wrong_citation"])
def test_a_kind_that_contradicts_its_verdict_makes_the_reply_unreadable(chat_server, kind):
    server = chat_server(kinds_judge(kind))  # "contradicted", with a kind of the unsaid
    report = litellm_validator(server.url, on_fail="noop", structured_replies="on",
                               control_statements="off").check(WRONG, toy_metadata())
    [sentence] = report.sentences
    assert sentence.verdict.label == INVALID and not sentence.passes(pass_on_invalid=False)
    assert f"its kind {kind!r}" in sentence.verdict.reason


@pytest.mark.parametrize("reply,label,kind", [
    ('{"reason": "[1] says so", "verdict": "supported", "kind": "number"}', INVALID, None),
    ('{"reason": "[1] says so", "verdict": "supported", "kind": null}', SUPPORTED, None),
    ('{"reason": "[1] says so", "verdict": "supported", "kind": "none"}', SUPPORTED, None),
    ('{"reason": "not in [1]", "verdict": "unsupported", "kind": "Failed tool"}', UNSUPPORTED,
     "failed_tool"),
    ('{"reason": "not in [1]", "verdict": "unsupported", "kind": "made up"}', UNSUPPORTED,
     "addition"),
    ('{"reason": "[1] gives 1889", "verdict": "contradicted", "kind": "the year is wrong"}',
     "contradicted", "date"),
    ('{"reason": "not in [1]", "verdict": "unsupported", "kind": "vibes"}', UNSUPPORTED,
     "unspecified"),
    ('{"reason": "not in [1]", "verdict": "unsupported", "kind": 7}', UNSUPPORTED,
     "unspecified"),
    ('{"reason": "not in [1]", "verdict": "unsupported"}', UNSUPPORTED, None),
])
def test_the_reader_takes_a_kind_in_any_case_and_refuses_one_against_its_verdict(
        reply, label, kind):
    verdict = parse_reply(f"The passage is clear.\n{reply}")
    assert verdict.label == label, verdict
    assert verdict.kind == kind


def test_the_rule_judges_kinds_reach_a_guards_result():
    _, metadata = validate_in_guard(f"{GOOD} {WRONG} {BAD}", LocalJudge())
    kinds = [s["kind"] for s in metadata["sentences"]]
    assert kinds == [None, "number", "addition"], metadata["sentences"]


def test_a_failing_sentences_error_span_and_the_command_line_name_its_kind(tmp_path):
    from provenance_guard import ProvenanceLLM
    from provenance_guard.cli import main

    result = ProvenanceLLM(llm_callable="local", on_fail="noop").validate(
        f"{GOOD} {WRONG}", toy_metadata())
    [span] = result.error_spans
    assert span.reason.startswith("contradicted (number): "), span.reason
    source, text = tmp_path / "source.txt", tmp_path / "answer.txt"
    source.write_text("The Eiffel Tower is 330 metres tall.")
    text.write_text(WRONG)
    import contextlib
    import io

    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        main(["check", "--source", str(source), "--text", str(text)])
    assert "[CONTRADICTED] The Eiffel Tower is 300 metres tall.\n    kind: number" in \
        shown.getvalue()


def test_meta_eval_reports_recall_and_false_alarms_by_kind_on_the_labelled_suite():
    from provenance_guard import ProvenanceLLM
    from provenance_guard.evaluation.meta_eval import meta_evaluate
    from provenance_guard.evaluation.suite import SUITE, load_cases

    cases = load_cases(SUITE)
    labelled = {s.kind for c in cases for s in c.sentences if s.kind is not None}
    report = meta_evaluate(cases, lambda options: ProvenanceLLM(
        llm_callable="local", on_fail="noop", **options), judge="local")
    assert labelled <= set(report.by_kind)
    citation = report.by_kind["wrong_citation"]
    assert citation.sentences == citation.caught == citation.named == 5
    assert sum(row.sentences for row in report.by_kind.values()) == sum(
        s.kind is not None for c in cases for s in c.sentences)


def test_eval_reads_a_samples_kind_and_counts_it_and_refuses_one_it_does_not_know(tmp_path):
    from provenance_guard.evaluation.datasets import load_samples

    source = "The Eiffel Tower is 330 metres tall. It opened in 1889."
    data = tmp_path / "data.jsonl"
    data.write_text("\n".join(json.dumps(sample) for sample in (
        {"id": "wrong", "output": "The Eiffel Tower is 300 metres tall.", "sources": [source],
         "label": False, "kind": "number"},
        {"id": "alarm", "output": "It was painted gold.", "sources": [source], "label": True},
    )) + "\n")
    out = tmp_path / "results.jsonl"
    import contextlib
    import io

    from provenance_guard.cli import main

    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        main(["eval", str(data), "--out", str(out), "--json"])
    by_kind = json.loads(shown.getvalue())["by_kind"]
    assert by_kind["number"] == {"sentences": 1, "caught": 1, "named": 1, "false_alarms": 0,
                                 "recall": 1.0}
    assert by_kind["addition"]["false_alarms"] == 1
    data.write_text(json.dumps({"output": "x", "sources": ["y"], "label": False,
                                "kind": "typo"}) + "\n")
    with pytest.raises(ValueError, match='"kind" is \'typo\', not a failure kind'):
        load_samples(data)


# -- found by an outsider who read the docs only (each a case that went wrong) ---------------

@pytest.mark.parametrize("reply,label,kind", [
    # a contradicted verdict with a kind of the source saying otherwise stays readable
    ('{"reason": "[1] sums to 45", "verdict": "contradicted", "kind": "calculation"}',
     "contradicted", "calculation"),
    ('{"reason": "[1] says Paris", "verdict": "contradicted", "kind": "wrong place"}',
     "contradicted", "entity"),
    # a supported verdict with a word that names no kind keeps its verdict
    ('{"reason": "[1] says so", "verdict": "supported", "kind": "no error"}', SUPPORTED, None),
    ('{"reason": "[1] says so", "verdict": "supported", "kind": "ok"}', SUPPORTED, None),
    ('{"reason": "[1] says so", "verdict": "supported", "kind": false}', SUPPORTED, None),
    ('{"reason": "[1] says so", "verdict": "supported", "kind": []}', SUPPORTED, None),
    # a kind given twice is a reply that says two things
    ('{"reason": "[1] says so", "verdict": "supported", "kind": "number", "kind": null}',
     INVALID, None),
])
def test_kind_words_the_outsider_tried(reply, label, kind):
    verdict = parse_reply(reply)
    assert (verdict.label, verdict.kind) == (label, kind), verdict


def test_with_failure_kinds_off_a_replys_kind_is_neither_read_nor_held_against_it():
    reply = '{"reason": "[1] gives 330", "verdict": "contradicted", "kind": "addition"}'
    assert parse_reply(reply).label == INVALID
    off = parse_reply(reply, kinds=False)
    assert off.label == "contradicted" and off.kind is None and off.failure_kind == "unspecified"


def test_a_judge_objects_kind_must_be_a_kind_its_label_allows():
    from provenance_guard import ProvenanceLLM, Verdict
    from provenance_guard.errors import ConfigurationError

    class Judge:
        def __init__(self, kind):
            self.kind = kind

        def judge(self, claim, evidence, question=None):
            return Verdict("contradicted", "no", 0.0, kind=self.kind)

    for bad in ("the passage says: " + SOURCE_TEXT, "Number", "addition"):
        with pytest.raises(ConfigurationError, match="a kind that is None or a FailureKind"):
            ProvenanceLLM(llm_callable=Judge(bad), on_fail="noop").check(WRONG, toy_metadata())
    report = ProvenanceLLM(llm_callable=Judge("number"), on_fail="noop").check(
        WRONG, toy_metadata())
    assert report.sentences[0].kind == "number"


SOURCE_TEXT = "The Eiffel Tower is 330 metres tall."


def test_the_rule_judge_takes_failure_kinds_off_and_names_days_pending_records_and_bounds():
    from provenance_guard import ProvenanceLLM
    from provenance_guard.text import records
    from provenance_guard.types import Evidence

    ProvenanceLLM(llm_callable="local", failure_kinds=False, on_fail="noop")  # not refused
    judge = LocalJudge()
    assert judge.judge("The shop opens on Monday.",
                       [Evidence("The shop opens on Tuesday.")]).kind == "date"
    refund = [Evidence(records.shown(r.fields), fields=r.fields)
              for r in records.records({"refund": {"id": "R-1", "status": "pending"}})]
    assert judge.judge("Your refund has been issued.", refund).kind == "unasserted"
    bounded = judge.judge("The offer is valid.", [Evidence("The offer is valid until Friday.")])
    assert bounded.label != SUPPORTED and bounded.kind == "circumstance"


def test_a_data_frames_missing_kind_is_absent_and_a_kind_on_a_grounded_sample_is_refused(
        tmp_path):
    pandas = pytest.importorskip("pandas")
    from provenance_guard import evaluate
    from provenance_guard.evaluation.datasets import load_samples

    frame = pandas.DataFrame([
        {"id": "a", "output": WRONG, "sources": [SOURCE_TEXT], "label": False, "kind": "number"},
        {"id": "b", "output": GOOD, "sources": ["The Eiffel Tower is in Paris."], "label": True}])
    results = evaluate(frame, llm_callable="local")  # "kind" of b is NaN: absent
    assert list(results["passed"]) == [False, True]
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"output": GOOD, "sources": ["x"], "label": True,
                                "kind": "number"}) + "\n")
    with pytest.raises(ValueError, match='"label" is not false'):
        load_samples(data)


def test_a_sample_that_passes_is_no_false_alarm_whatever_its_sentences_kinds(tmp_path):
    from provenance_guard.cli import main

    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"id": "x", "output": "It was painted gold.",
                                "sources": [SOURCE_TEXT], "label": True}) + "\n")
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        main(["eval", str(data), "--out", str(tmp_path / "r.jsonl"), "--json",
              "--allow-unsupported"])
    assert not json.loads(shown.getvalue())["by_kind"]


# -- found by a review of the change --------------------------------------------------------

def test_a_failing_reply_whose_kind_clashes_fails_whatever_pass_on_invalid_says(chat_server):
    server = chat_server(kinds_judge("addition"))  # "contradicted", a kind of the unsaid
    report = litellm_validator(server.url, on_fail="noop", structured_replies="on",
                               control_statements="off", pass_on_invalid=True).check(
        WRONG, toy_metadata())
    [sentence] = report.sentences
    assert sentence.verdict.label == INVALID and sentence.verdict.withheld
    assert not report.passed
    # the word of a conflict is taken where the judge names one beside another
    assert parse_reply('{"reason": "x", "verdict": "contradicted", '
                       '"kind": "missing negation"}').kind == "opposite"
    assert parse_reply('{"reason": "x", "verdict": "supported", '
                       '"kind": "none, the number matches"}').label == SUPPORTED


def test_a_read_back_sentence_whose_citation_fails_keeps_no_verdict_kind():
    from provenance_guard import ProvenanceLLM, Report

    metadata = ProvenanceLLM(llm_callable="local", on_fail="noop").check(
        WRONG, toy_metadata()).metadata({})
    [row] = metadata["sentences"]
    assert row["kind"] == "number"
    row["citation"].update(cited=[2], status="miscited", uncited_support=[1])
    row["kind"] = "wrong_citation"  # as written for a sentence whose citation fails
    [sentence] = Report.from_metadata(metadata).sentences
    assert sentence.kind == "wrong_citation" and sentence.verdict.kind is None
