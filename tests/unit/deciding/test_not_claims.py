"""Sentences that assert nothing, through a real Guard: not judged (no judge call), marked in
the metadata, never failing the text; a claim dressed as one is judged; the setting that turns
it off."""

import pytest
from conftest import ScriptedJudge, toy_metadata, validate_in_guard
from guardrails import Guard

from provenance_guard import ProvenanceLLM, Report

CHAT = "Great question! The Eiffel Tower is in Paris. I hope this helps!"


def test_pleasantries_are_not_judged_and_do_not_count():
    judge = ScriptedJudge()
    outcome, metadata = validate_in_guard(CHAT, judge)
    assert judge.statements == ["The Eiffel Tower is in Paris."]
    assert outcome.validation_passed
    first, claim, last = metadata["sentences"]
    assert (first["not_a_claim"], first["verdict"], first["evidence"]) == ("feeling", None, [])
    assert (last["not_a_claim"], last["verdict"]) == ("offer of help", None)
    assert (claim["not_a_claim"], claim["verdict"]) == (None, "supported")
    summary = metadata["groundedness"]
    assert (summary["sentences"], summary["not_claims"], summary["faithfulness"]) == (3, 2, 1.0)
    assert summary["counts"]["supported"] == 1 and sum(summary["counts"].values()) == 1


def test_a_failing_claim_still_fails_and_the_fix_keeps_the_pleasantries():
    text = "Thanks for asking! The Eiffel Tower was painted gold in 2024. I hope this helps!"
    guard = Guard().use(ProvenanceLLM(llm_callable=ScriptedJudge(), on_fail="fix"))
    outcome = guard.validate(text, metadata=toy_metadata())
    assert outcome.validated_output == "Thanks for asking! I hope this helps!"
    report = Report.from_guard(guard)
    assert [r.sentence.text for r in report.failing] == [
        "The Eiffel Tower was painted gold in 2024."]
    assert "Thanks" not in report.message


@pytest.mark.parametrize("text", [
    "Thanks, the Eiffel Tower was painted gold in 2024!",
    "I hope this helps: the Eiffel Tower was painted gold in 2024.",
    "I love that the Eiffel Tower was painted gold!",
    "I hope this helps [1].",  # cites a source: the writer says a source backs it
])
def test_a_claim_dressed_as_a_pleasantry_is_judged(text):
    judge = ScriptedJudge()
    outcome, metadata = validate_in_guard(text, judge)
    assert not outcome.validation_passed
    assert judge.statements  # judged (a cited one again against the other sources)
    assert metadata["sentences"][0]["not_a_claim"] is None


def test_the_setting_turns_it_off():
    judge = ScriptedJudge()
    outcome, metadata = validate_in_guard(CHAT, judge, skip_non_claims=False)
    assert len(judge.statements) == 3
    assert not outcome.validation_passed  # the pleasantries are judged, and unsupported
    assert metadata["groundedness"]["not_claims"] == 0


def test_an_acknowledgment_depends_on_the_question():
    text = "Sure! The Eiffel Tower is in Paris."
    judge = ScriptedJudge()
    outcome, _ = validate_in_guard(text, judge, metadata=toy_metadata(
        question="Where is the Eiffel Tower?"))
    assert outcome.validation_passed and judge.statements == ["The Eiffel Tower is in Paris."]
    judge = ScriptedJudge()
    outcome, _ = validate_in_guard(text, judge, metadata=toy_metadata(
        question="Is the Eiffel Tower in Paris?"))  # "Sure!" is a yes, and it is judged
    assert not outcome.validation_passed and len(judge.statements) == 2


def test_without_sources_a_pleasantry_passes_and_a_claim_fails():
    judge = ScriptedJudge()
    outcome, _ = validate_in_guard("Hi there! I hope this helps.", judge,
                                   metadata={"sources": []})
    assert outcome.validation_passed
    outcome, _ = validate_in_guard("Hi there! The Eiffel Tower is in Paris.", judge,
                                   metadata={"sources": []})
    assert not outcome.validation_passed


def test_claim_mode_asks_for_no_claims_of_a_pleasantry():
    judge = ScriptedJudge()
    outcome, metadata = validate_in_guard(CHAT, judge, validation_method="claim")
    assert judge.sentences == ["The Eiffel Tower is in Paris."]
    assert outcome.validation_passed
    assert metadata["groundedness"]["claim_counts"]["supported"] == 1


def test_a_not_a_claim_result_reads_back_and_a_forged_form_is_refused():
    _, metadata = validate_in_guard(CHAT, ScriptedJudge())
    report = Report.from_metadata(metadata)
    assert [r.not_a_claim for r in report.sentences] == ["feeling", None, "offer of help"]
    assert report.metadata() == {k: metadata[k] for k in ("sentences", "groundedness", "usage")}
    metadata["sentences"][0]["not_a_claim"] = "anything I like"
    with pytest.raises(ValueError, match=r"\['not_a_claim'\]: input should be 'greeting'"):
        Report.from_metadata(metadata)


@pytest.mark.parametrize("text", [
    "The Eiffel Tower was painted gold in 2024. It has a ski slope.",
    "Great question! The Eiffel Tower was painted gold in 2024. I hope this helps!",
])
def test_a_fix_that_leaves_no_claim_is_visible(text):
    """Through a Guard with on_fail="fix", a text whose every claim fails "passes" with what is
    left (nothing, or only pleasantries): the metadata, the message and a warning say so."""
    guard = Guard().use(ProvenanceLLM(llm_callable=ScriptedJudge(), on_fail="fix"))
    with pytest.warns(UserWarning, match="states nothing"):
        outcome = guard.validate(text, metadata=toy_metadata())
    assert outcome.validation_passed  # Guardrails' reading of a fix; hence the signals below
    assert "2024" not in outcome.validated_output
    report = Report.from_guard(guard)
    assert report.summary.fix_empty is True
    assert "No claim is left" in report.message


def test_a_fix_that_keeps_a_claim_is_not_flagged():
    guard = Guard().use(ProvenanceLLM(llm_callable=ScriptedJudge(), on_fail="fix"))
    guard.validate("The Eiffel Tower is in Paris. It was painted gold in 2024.",
                   metadata=toy_metadata())
    report = Report.from_guard(guard)
    assert report.summary.fix_empty is False and "No claim" not in report.message
