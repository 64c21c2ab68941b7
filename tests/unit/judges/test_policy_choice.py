"""The policies a judge wears, on their own: each is chosen by what a backend declares it can
do (``Abilities``) and the settings, from one table, and does what it says to the verdicts of
a backend written here."""

import asyncio
from dataclasses import replace

import pytest

from provenance_guard.judges.base import Abilities, Backend, JudgeSettings, Unread
from provenance_guard.judges.control import ANSWERED, CAUGHT
from provenance_guard.judges.factory import POLICIES, dress
from provenance_guard.judges.policies import AskAlone, Controlled, Remembered, Threshold
from provenance_guard.types import INVALID, SUPPORTED, UNSUPPORTED, Context, Evidence, Verdict

EVIDENCE = [Evidence("The hall opened in 1900.")]


class Declared(Backend):
    """A backend that declares what it is told and answers ``answer`` for every statement,
    counting what it was asked."""

    def __init__(self, abilities: Abilities, answer: Verdict | None = None):
        self._abilities = abilities
        self.answer = answer or Verdict(SUPPORTED, "says so", 1.0, probability=0.9)
        self.asked: list[list[str]] = []

    @property
    def abilities(self) -> Abilities:
        return self._abilities

    async def verdicts(self, items, context):
        self.asked.append([claim for claim, _ in items])
        return [self.answer for _ in items]


def layers(judge) -> list[str]:
    names, inner = [], judge.inner
    while hasattr(inner, "inner"):
        names.append(type(inner).__name__)
        inner = inner.inner
    return names


@pytest.mark.parametrize("abilities, settings, worn", [
    (Abilities(), JudgeSettings(), []),
    (Abilities(gives_probabilities=True), JudgeSettings(min_support_probability=0.5),
     ["Threshold"]),
    (Abilities(gives_probabilities=False), JudgeSettings(min_support_probability=0.5), []),
    (Abilities(remembered=True), JudgeSettings(), ["Remembered"]),
    (Abilities(remembered=True), JudgeSettings(cache_size=0), []),
    (Abilities(asks_again=True), JudgeSettings(), ["AskAlone"]),
    (Abilities(controls=True, asks_again=True, remembered=True), JudgeSettings(),
     ["Remembered", "AskAlone", "Controlled"]),
    (Abilities(group_size=None), JudgeSettings(control_statements="on"),
     ["AskAlone", "Controlled"]),
    (Abilities(group_size=1), JudgeSettings(control_statements="on"), []),
    (Abilities(controls=False, group_size=None), JudgeSettings(control_statements="on"), []),
], ids=["nothing", "threshold", "no probabilities", "cache", "cache off", "ask alone",
        "a prompt judge", "a batching object, controls on", "one a call", "controls off"])
def test_the_policies_worn_are_chosen_by_the_abilities_and_settings(abilities, settings, worn):
    dressed = dress(Declared(abilities), settings)
    assert layers(dressed) == worn  # outermost first: the table's order, reversed
    assert [p.__name__ for p in POLICIES] == ["Controlled", "AskAlone", "Remembered",
                                              "Threshold"]


def test_a_setting_nothing_takes_is_named_with_the_backends_own_reason():
    backend = Declared(Abilities(what="is a test backend", takes=frozenset(("max_retries",)),
                                 cannot=(("cache_size", "keeps nothing"),)))
    unused = dress(backend, JudgeSettings(max_retries=5, cache_size=9,
                                          min_support_probability=0.5)).unused
    assert unused == {"cache_size": "keeps nothing",
                      "min_support_probability": "is a test backend"}
    # a policy the backend can wear takes its setting
    taking = Declared(Abilities(gives_probabilities=True, remembered=True))
    assert dress(taking, JudgeSettings(cache_size=9, min_support_probability=0.5)).unused == {}


def judged(backend, items):
    return asyncio.run(backend.verdicts(items, Context()))


def test_the_threshold_holds_back_an_unsure_supported_verdict_and_says_why():
    unsure = Declared(Abilities(gives_probabilities=True),
                      Verdict(SUPPORTED, "says so", 1.0, probability=0.4))
    [verdict] = judged(Threshold(unsure, 0.6), [("It opened in 1900.", EVIDENCE)])
    assert verdict.label == INVALID and verdict.withheld
    assert "probability 0.40, below min_support_probability=0.6" in verdict.reason
    none = Declared(Abilities(), Verdict(SUPPORTED, "says so", 1.0))
    [verdict] = judged(Threshold(none, 0.6), [("It opened in 1900.", EVIDENCE)])
    assert verdict.label == INVALID and "gave no probability" in verdict.reason
    failing = Declared(Abilities(), Verdict(UNSUPPORTED, "no", 0.0))
    assert judged(Threshold(failing, 0.6), [("X.", EVIDENCE)])[0].label == UNSUPPORTED


def test_remembered_asks_once_per_statement_evidence_and_context_and_keeps_no_invalid():
    backend = Declared(Abilities(remembered=True))
    remembered = Remembered(backend, 16)
    judged(remembered, [("A.", EVIDENCE), ("B.", EVIDENCE)])
    again = judged(remembered, [("A.", EVIDENCE), ("C.", EVIDENCE)])
    assert backend.asked == [["A.", "B."], ["C."]]
    assert again[0].decided_by == "cache"
    invalid = Declared(Abilities(remembered=True), Verdict(INVALID, "nothing read"))
    kept = Remembered(invalid, 16)
    judged(kept, [("A.", EVIDENCE)])
    judged(kept, [("A.", EVIDENCE)])
    assert invalid.asked == [["A."], ["A."]]  # an invalid verdict is asked again


def test_ask_alone_asks_an_unread_statement_again_in_a_call_of_its_own():
    class OnceUnread(Declared):
        async def verdicts(self, items, context):
            self.asked.append([claim for claim, _ in items])
            if len(items) > 1:
                return [Unread(INVALID, "unread")] + [self.answer] * (len(items) - 1)
            return [self.answer]

    backend = OnceUnread(Abilities(asks_again=True))
    found = judged(AskAlone(backend), [("A.", EVIDENCE), ("B.", EVIDENCE)])
    assert backend.asked == [["A.", "B."], ["A."]]
    assert [v.label for v in found] == [SUPPORTED, SUPPORTED]
    assert not any(isinstance(v, Unread) for v in found)


def test_a_control_called_supported_fails_every_statement_of_its_call():
    careless = Declared(Abilities(group_size=None))  # calls everything supported
    controlled = Controlled(careless)
    evidence = [Evidence("The hall opened in 1900 and seats 2,000 people.")]
    found = judged(controlled, [("The hall opened in 1900.", evidence),
                                ("It seats 2,000 people.", evidence)])
    assert len(careless.asked[0]) == 3  # the control rode along
    assert all(v.label == INVALID and v.control == CAUGHT for v in found), found
    careful = Declared(Abilities(group_size=None), Verdict(UNSUPPORTED, "no", 0.0))
    found = judged(Controlled(careful), [("The hall opened in 1900.", evidence),
                                         ("It seats 2,000 people.", evidence)])
    assert all(v.label == UNSUPPORTED and v.control == ANSWERED for v in found)


def test_a_policy_forwards_what_the_backend_declares():
    abilities = Abilities(group_size=4, extracts_claims=True, one_per_call_because="why")
    worn = Remembered(Threshold(Declared(abilities), 0.5), 8)
    assert worn.abilities == abilities
    assert replace(worn.abilities, group_size=1) != abilities


def test_a_setting_a_judge_says_it_cannot_take_is_refused_even_where_a_policy_takes_it():
    """MiniCheck reads only its own prompt: control_statements="on" cannot apply to it, though
    the control policy takes that setting for judges that can carry one."""
    from provenance_guard.judges.factory import build

    built = build("minicheck:ollama/bespoke-minicheck", None,
                  JudgeSettings(control_statements="on"))
    assert "reads only its own prompt" in built.unused["control_statements"]


def test_a_prompt_judge_built_with_kinds_refuses_failure_kinds_off_beside_it():
    from provenance_guard.judges.factory import build
    from provenance_guard.judges.litellm_judge import LiteLLMJudge

    judge = LiteLLMJudge("openai/judge", {"api_base": "http://127.0.0.1:9", "api_key": "none"})
    built = build(judge, None, JudgeSettings(failure_kinds=False))
    assert "was built with failure_kinds=True" in built.unused["failure_kinds"]
