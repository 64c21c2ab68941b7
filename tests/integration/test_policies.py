"""The policies a judge wears apply to every backend where they make sense, not only to prompt
judges: an NLI checkpoint's supported verdicts held to ``min_support_probability``; a user's
judge object under ``max_calls_in_flight``, the deadline and usage, and (one that takes batches)
under control statements. A judge setting that cannot apply is refused in one line."""

from __future__ import annotations

import threading
import time

import pytest
from conftest import GOOD, toy_metadata
from test_nli import build

from provenance_guard import ConfigurationError, LiteLLMJudge, ProvenanceLLM, Verdict
from provenance_guard.judges import JudgeSettings
from provenance_guard.judges.control import CAUGHT
from provenance_guard.types import INVALID, SUPPORTED

TEXT = ("The Eiffel Tower is in Paris. It was finished in 1889. The Louvre is the most visited "
        "museum in the world. It houses the Mona Lisa.")


@pytest.fixture(scope="module")
def leaning(tmp_path_factory):
    """A two-way checkpoint whose head gives every claim P(supported) = 0.73."""
    return build(tmp_path_factory.mktemp("nli"), {0: "not_entailment", 1: "entailment"},
                 bias=[0.0, 1.0])


@pytest.mark.parametrize("floor, stands", [(0.7, True), (0.8, False)])
def test_an_nli_judges_supported_verdicts_are_held_to_the_threshold(leaning, floor, stands):
    report = ProvenanceLLM(llm_callable=f"nli:{leaning}", min_support_probability=floor).check(
        GOOD, toy_metadata())
    verdict = report.sentences[0].verdict
    assert verdict.probability == pytest.approx(0.731, abs=0.001)
    if stands:
        assert verdict.label == SUPPORTED and report.passed
    else:
        assert verdict.label == INVALID and not report.passed
        assert verdict.reason == ("the judge called it supported, with probability 0.73, below "
                                  "min_support_probability=0.8")


class Counting:
    """A judge object that waits on its model (here a sleep), counting its calls in flight."""

    def __init__(self, seconds: float = 0.1, label: str = SUPPORTED):
        self.seconds, self.label = seconds, label
        self.lock, self.now, self.most, self.calls = threading.Lock(), 0, 0, 0

    def judge(self, claim, evidence, question=None) -> Verdict:
        with self.lock:
            self.now += 1
            self.calls += 1
            self.most = max(self.most, self.now)
        time.sleep(self.seconds)
        with self.lock:
            self.now -= 1
        return Verdict(self.label, "by hand", 1.0, probability=0.6)


def test_a_judge_object_is_held_to_max_calls_in_flight_and_counted_in_usage():
    free, held = Counting(), Counting()
    ProvenanceLLM(llm_callable=free).check(TEXT, toy_metadata())
    report = ProvenanceLLM(llm_callable=held, max_calls_in_flight=2).check(TEXT, toy_metadata())
    assert free.most == 4 and held.most == 2  # four sentences, a call each
    assert report.usage.calls == held.calls == 4
    assert report.usage.cost_usd is None and "its own" in report.usage.unpriced


def test_a_judge_object_that_is_slow_is_cut_off_at_the_deadline():
    # the machine's pace first: the same validation with a judge that answers at once
    started = time.monotonic()
    ProvenanceLLM(llm_callable=Counting(), deadline=1).check(TEXT, toy_metadata())
    own_work = time.monotonic() - started
    slow = Counting(seconds=30)
    started = time.monotonic()
    report = ProvenanceLLM(llm_callable=slow, deadline=1).check(TEXT, toy_metadata())
    assert time.monotonic() - started < 1 + 1.0 + own_work  # the deadline, its margin, the work
    assert all(r.verdict.label == INVALID and r.verdict.reason.startswith(
        "no verdict before the validation's deadline") for r in report.sentences)


def test_a_judge_objects_supported_verdicts_are_held_to_the_threshold():
    report = ProvenanceLLM(llm_callable=Counting(0), min_support_probability=0.9).check(
        GOOD, toy_metadata())
    assert report.sentences[0].verdict.label == INVALID
    assert "probability 0.60, below min_support_probability=0.9" in (
        report.sentences[0].verdict.reason)


class Overconfident(Counting):
    def judge(self, claim, evidence, question=None) -> Verdict:
        return Verdict(SUPPORTED, "sure", 1.0, probability=5.0)


def test_a_judge_objects_probability_out_of_range_is_refused_not_held_to_the_threshold():
    with pytest.raises(ConfigurationError, match="a probability each from 0 to 1"):
        ProvenanceLLM(llm_callable=Overconfident(), min_support_probability=0.9).check(
            GOOD, toy_metadata())


class Careless:
    """A judge object that takes batches and calls every statement supported."""

    def __init__(self):
        self.batches: list[list[str]] = []

    def judge(self, claim, evidence, question=None) -> Verdict:
        return self.judge_batch([(claim, evidence)])[0]

    def judge_batch(self, items, question=None) -> list[Verdict]:
        self.batches.append([claim for claim, _ in items])
        return [Verdict(SUPPORTED, "looks fine", 1.0) for _ in items]


def test_a_careless_judge_object_that_takes_batches_is_caught_by_control_statements():
    text = "The Eiffel Tower is in Paris. It was finished in 1890."  # the second is wrong
    careless = Careless()
    assert ProvenanceLLM(llm_callable=careless).check(text, toy_metadata()).passed
    report = ProvenanceLLM(llm_callable=careless, control_statements="on").check(
        text, toy_metadata())
    assert not report.passed and report.usage.caught_calls == 1
    assert all(r.verdict.reason.startswith(CAUGHT) for r in report.sentences)
    assert len(careless.batches[-1]) == 3  # the two sentences and the control among them


class SkipsTheControlOnce:
    """A judge object that takes batches: in its first batch it gives the control statement
    (the one that is none of the text's sentences) no readable verdict; then it reads the
    passages, as a judge asked again should."""

    def __init__(self, sentences):
        self.sentences, self.batches = set(sentences), []

    def judge(self, claim, evidence, question=None) -> Verdict:
        return self.judge_batch([(claim, evidence)])[0]

    def judge_batch(self, items, question=None) -> list[Verdict]:
        self.batches.append([claim for claim, _ in items])
        return [Verdict(INVALID, "garbled") if len(self.batches) == 1
                and claim not in self.sentences else
                Verdict(SUPPORTED if claim in " ".join(e.text for e in evidence)
                        else "unsupported", "read it", 1.0)
                for claim, evidence in items]


def test_a_judge_objects_call_whose_control_went_unanswered_has_its_statements_asked_again():
    sentences = [GOOD, "It is made of gold."]
    judge = SkipsTheControlOnce(sentences)
    report = ProvenanceLLM(llm_callable=judge, control_statements="on").check(
        " ".join(sentences), toy_metadata())
    assert [str(r.label) for r in report.sentences] == ["supported", "unsupported"], [
        r.verdict.reason for r in report.sentences]
    assert len(judge.batches) == 3  # the batch, then each statement again (with a control)


class OneAtATime:
    def judge(self, claim, evidence, question=None) -> Verdict:
        return Verdict(SUPPORTED, "by hand", 1.0)


@pytest.mark.parametrize("judge, setting, why", [
    ("local", {"structured_replies": "on"}, "offline rule checker"),
    ("local", {"max_calls_in_flight": 4}, "offline rule checker"),
    ("local", {"min_support_probability": 0.9}, "gives no probabilities"),
    (lambda prompt: "yes", {"min_support_probability": 0.9}, "no token probabilities"),
    (OneAtATime(), {"max_retries": 5}, "judge object of yours"),
    (OneAtATime(), {"control_statements": "on"}, "one statement a call"),
    (OneAtATime(), {"cache_size": 10}, "judge object of yours"),
])
def test_a_judge_setting_that_cannot_apply_is_refused_in_one_line(judge, setting, why):
    with pytest.raises(ConfigurationError) as refused:
        ProvenanceLLM(llm_callable=judge, **setting)
    message = str(refused.value)
    name, value = next(iter(setting.items()))
    assert message.startswith(f"{name}={value!r} cannot take effect") and why in message
    assert "\n" not in message


def test_a_setting_another_judge_of_the_validator_takes_is_not_refused():
    """max_calls_in_flight means nothing to the offline first judge, but the main judge (a
    judge object of the user's) takes it."""
    ProvenanceLLM(llm_callable=Counting(), first_judge="local", max_calls_in_flight=4)


def test_a_prompt_judge_built_with_its_own_settings_refuses_others_beside_it(chat_server):
    server = chat_server(lambda prompt: "yes")
    judge = LiteLLMJudge("openai/judge", {"api_base": server.url, "api_key": "sk-test"},
                         settings=JudgeSettings(max_calls_in_flight=8))
    ProvenanceLLM(llm_callable=judge, max_calls_in_flight=8)  # the same: taken
    with pytest.raises(ConfigurationError, match=r"max_calls_in_flight=2 cannot take effect: "
                       r"the judge object LiteLLMJudge was built with max_calls_in_flight=8"):
        ProvenanceLLM(llm_callable=judge, max_calls_in_flight=2)


def test_off_asks_for_nothing_and_is_taken_everywhere():
    validator = ProvenanceLLM(llm_callable="local", structured_replies="off",
                              control_statements="off")
    assert validator.check(GOOD, toy_metadata()).passed
