"""What the process keeps per user object: the shared limits of a callable or a judge object
and the threads of a query function are keyed by the object, forgotten when it is gone (a
process that builds validators over new callables keeps nothing per callable, and a new object
that gets an old one's id starts afresh); a query function's calls are bounded per function,
and a refusal names the function, not a judge."""

from __future__ import annotations

import gc
import threading

from conftest import GOOD, ScriptedJudge, toy_metadata

from provenance_guard import ProvenanceLLM, Verdict
from provenance_guard.judges.limits import _GATES
from provenance_guard.runtime.waiting import _identities, _waitings, sweep


class ByHand:
    def judge(self, claim, evidence, question=None) -> Verdict:
        return Verdict("supported", "by hand", 1.0)


def _kept() -> tuple[int, int, int]:
    """What the registries hold, once they have swept what is gone (each look-up sweeps)."""
    gc.collect()
    sweep()
    return len(_identities), len(_waitings), len(_GATES)


def test_the_limits_of_callables_and_judge_objects_are_forgotten_with_them():
    ProvenanceLLM(llm_callable=ScriptedJudge()).check(GOOD, toy_metadata())  # set up once
    before = _kept()
    for n in range(40):  # a validator per request, over a new callable or object each time
        judge = ScriptedJudge() if n % 2 else ByHand()
        assert ProvenanceLLM(llm_callable=judge).check(GOOD, toy_metadata()).passed
        del judge
    # none more than before: what earlier tests left may be released meanwhile, never 40 more
    assert all(now <= then for now, then in zip(_kept(), before, strict=True)), (_kept(), before)


def test_a_query_function_that_hangs_is_bounded_alone_and_its_refusal_names_it():
    never = threading.Event()

    def hangs(text, k):
        never.wait()
        return []

    def answers(text, k):
        return [GOOD]

    text = " ".join(f"Fact number {n} is written here." for n in range(70))
    try:
        validator = ProvenanceLLM(llm_callable=ScriptedJudge(), deadline=2, max_sentences=None)
        report = validator.check(text, {"query_function": hangs})
        reasons = {r.verdict.reason for r in report.sentences}
        refused = [r for r in reasons if r.startswith("its evidence was not fetched: 64 calls "
                                                      "to metadata['query_function'] are still "
                                                      "running")]
        assert refused and not any("judge" in r for r in refused), reasons
        assert all(str(r.label) == "invalid" for r in report.sentences)
        # another function has threads of its own
        assert validator.check(GOOD, {"query_function": answers}).passed
    finally:
        never.set()
