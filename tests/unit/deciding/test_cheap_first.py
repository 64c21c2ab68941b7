"""Cheap first (cheap_first.py, decider.py): the rule checks, then a first judge, and the main
judge only for the claims the first judge is unsure of, through a real Guard."""

from __future__ import annotations

import threading

import pytest
from conftest import BAD, GOOD, ScriptedJudge, toy_metadata, validate_in_guard

from provenance_guard import ConfigurationError, ProvenanceLLM, Verdict
from provenance_guard.types import BY_MODEL, SUPPORTED, UNSUPPORTED

TALL = "The Eiffel Tower is 330 metres tall."
WRONG_HEIGHT = "The Eiffel Tower is 300 metres tall."
LOUVRE = "The Louvre houses the Mona Lisa."


class ScoredJudge:
    """A first judge with a scripted score per claim: supported from 0.5 up. Records what it
    was asked, one by one or in batches."""

    def __init__(self, scores: dict[str, float | None], invalid: tuple[str, ...] = ()):
        self.scores, self.invalid = scores, invalid
        self.asked: list[str] = []
        self.batches: list[list[str]] = []
        self._lock = threading.Lock()

    def judge(self, claim, evidence, question=None):
        with self._lock:
            self.asked.append(claim)
        if claim in self.invalid:
            return Verdict("invalid", "scripted failure", None, "fallback")
        score = self.scores[claim]
        label = SUPPORTED if score is not None and score >= 0.5 else UNSUPPORTED
        return Verdict(label, "scripted", score, BY_MODEL)

    def judge_batch(self, items, question=None):
        with self._lock:
            self.batches.append([claim for claim, _ in items])
        return [self.judge(claim, evidence) for claim, evidence in items]


def test_the_llm_sees_only_what_the_first_judge_is_unsure_of():
    first = ScoredJudge({GOOD: 0.95, BAD: 0.05, TALL: 0.6})
    llm = ScriptedJudge()
    outcome, result = validate_in_guard(f"{GOOD} {BAD} {TALL}", llm, first_judge=first)
    assert llm.statements == [TALL]  # 0.6 is inside the default band (0.2, 0.8)
    assert sorted(first.asked) == sorted([GOOD, BAD, TALL])
    verdicts = [(s["verdict"], s["decided_by"]) for s in result["sentences"]]
    assert verdicts == [(SUPPORTED, BY_MODEL), (UNSUPPORTED, BY_MODEL), (SUPPORTED, "llm")]
    assert result["groundedness"]["judge_calls_saved"] == 2
    assert result["groundedness"]["first_judge_decided"] == 2
    assert outcome.validation_passed is False


def test_the_band_decides_what_is_sure():
    first = ScoredJudge({GOOD: 0.95, BAD: 0.05, TALL: 0.6})
    llm = ScriptedJudge()
    _, wide = validate_in_guard(f"{GOOD} {BAD} {TALL}", llm, first_judge=first,
                                confidence_band=(0.01, 0.99))
    assert sorted(llm.statements) == sorted([GOOD, BAD, TALL]) and wide["groundedness"][
        "judge_calls_saved"] == 0
    llm = ScriptedJudge()
    _, closed = validate_in_guard(f"{GOOD} {BAD} {TALL}", llm, first_judge=first,
                                  confidence_band=(0.5, 0.5))
    assert llm.statements == [] and closed["groundedness"]["first_judge_decided"] == 3


class CalibratedJudge:
    """A first judge whose verdicts carry a confidence (the chance a verdict of that kind is
    right): only 0.99 and up is sure, whatever the band says."""

    def __init__(self, confidence: dict[str, float]):
        self.confidence = confidence

    def judge(self, claim, evidence, question=None):
        return Verdict(SUPPORTED, "calibrated", 0.999, BY_MODEL, self.confidence[claim])


def test_a_calibrated_verdict_stands_only_when_its_kind_earned_099():
    first = CalibratedJudge({GOOD: 0.995, BAD: 0.98, TALL: 0.5})
    llm = ScriptedJudge()
    # the band would call every one of these sure (score 0.999): the confidence decides
    _, result = validate_in_guard(f"{GOOD} {BAD} {TALL}", llm, first_judge=first,
                                  confidence_band=(0.5, 0.5))
    assert sorted(llm.statements) == sorted([BAD, TALL])
    assert result["groundedness"]["first_judge_decided"] == 1
    [bad] = [s for s in result["sentences"] if s["text"] == BAD]
    assert bad["verdict"] == UNSUPPORTED and bad["decided_by"] == "llm"  # not the 0.98 pass


def test_unscored_and_invalid_first_verdicts_go_to_the_llm():
    first = ScoredJudge({GOOD: None, BAD: 0.0}, invalid=(BAD,))
    llm = ScriptedJudge()
    _, result = validate_in_guard(f"{GOOD} {BAD}", llm, first_judge=first)
    assert sorted(llm.statements) == sorted([GOOD, BAD])
    assert result["groundedness"]["judge_calls_saved"] == 0
    assert [s["decided_by"] for s in result["sentences"]] == ["llm", "llm"]


def test_rules_come_first_and_their_savings_are_told_apart():
    first = ScoredJudge({GOOD: 0.5, BAD: 0.1})
    llm = ScriptedJudge()
    _, result = validate_in_guard(f"{GOOD} {WRONG_HEIGHT} {BAD}", llm, first_judge=first,
                                  cascade_contradictions=True)
    assert WRONG_HEIGHT not in first.asked  # the rule check decided it
    assert llm.statements == [GOOD]
    summary = result["groundedness"]
    assert (summary["judge_calls_saved"], summary["first_judge_decided"]) == (2, 1)
    assert summary["decided_by"] == {"local": 1, "model": 1, "llm": 1}


def test_batches_reach_a_batching_first_judge_whole():
    first = ScoredJudge({GOOD: 0.9, BAD: 0.1, TALL: 0.9, LOUVRE: 0.5})
    llm = ScriptedJudge()
    _, result = validate_in_guard(f"{GOOD} {BAD} {TALL} {LOUVRE}", llm, first_judge=first,
                                  batch_size=4)
    assert first.batches == [[GOOD, BAD, TALL, LOUVRE]]
    assert llm.statements == [LOUVRE] and llm.batches == []
    assert result["groundedness"]["first_judge_decided"] == 3


def test_first_judge_by_string_serialises_and_bad_settings_are_refused():
    validator = ProvenanceLLM(llm_callable=ScriptedJudge(), first_judge="local",
                              confidence_band=[0.1, 0.9])
    assert validator.get_args()["first_judge"] == "local"
    assert validator.settings.confidence_band == (0.1, 0.9)
    for band in ((0.9, 0.1), (0.2,), (-0.1, 0.5), ("0.2", "0.8"), (True, 1), 0.5):
        with pytest.raises(ValueError, match="confidence_band"):
            ProvenanceLLM(llm_callable=ScriptedJudge(), first_judge="local", confidence_band=band)
    with pytest.raises(ValueError, match="first_judge: llm_callable must be"):
        ProvenanceLLM(llm_callable=ScriptedJudge(), first_judge=3)


def test_a_first_judge_that_returns_no_verdict_is_a_setup_error():
    class Broken:
        def judge(self, claim, evidence, question=None):
            return "supported"

    with pytest.raises(ConfigurationError, match="Broken.judge returned 'supported'"):
        validate_in_guard(GOOD, ScriptedJudge(), first_judge=Broken())


BEOWULF = ["Beowulf is a 2007 film directed by Robert Zemeckis and written by Neil Gaiman."]
DIRECTED_BY = "Beowulf is a 2007 film directed by who?"


@pytest.mark.parametrize("answer, llm_asked", [
    ("Robert Zemeckis.", []),  # proven in the question's place: no call
    ("Neil Gaiman.", ["Neil Gaiman."]),  # only named by the source: the LLM decides
])
def test_a_proven_answer_stands_without_the_llm_and_a_named_one_goes_on(answer, llm_asked):
    llm = ScriptedJudge(rule=lambda statement, passages: "Zemeckis" in statement)
    outcome, result = validate_in_guard(answer, llm, toy_metadata(
        sources=BEOWULF, question=DIRECTED_BY), first_judge="local")
    assert llm.statements == llm_asked
    assert result["groundedness"]["first_judge_decided"] == (0 if llm_asked else 1)
    assert outcome.validation_passed is not llm_asked  # the LLM fails the other name


def test_a_proof_stands_whatever_its_measured_confidence():
    class Proving:  # proven, at a confidence no kind has earned
        def judge(self, claim, evidence, question=None):
            return Verdict(SUPPORTED, "proven", 0.6, BY_MODEL, 0.6, proven=claim == GOOD)

    llm = ScriptedJudge()
    _, result = validate_in_guard(f"{GOOD} {TALL}", llm, first_judge=Proving(),
                                  confidence_band=(0.5, 0.5))
    assert llm.statements == [TALL]
    assert result["groundedness"]["first_judge_decided"] == 1
