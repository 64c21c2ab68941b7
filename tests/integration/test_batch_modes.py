"""One call per batch and one call per sentence decide alike: every case of the labelled
groundedness suite, with the scripted judge (it reads each statement's own passages from either
prompt), the real default embedder and a real FAISS index, gives the same outcome and the same
verdict per sentence both ways, in fewer calls."""

import pytest
from conftest import REPO, ScriptedJudge

from provenance_guard import ProvenanceLLM
from provenance_guard.evaluation.suite import SUITE_CHUNKING, load_cases

pytestmark = pytest.mark.slow  # the real default embedder

SUITE = REPO / "validator" / "evaluation" / "data" / "groundedness_suite.jsonl"


def verdicts(case, batch_size):
    judge = ScriptedJudge()
    validator = ProvenanceLLM(llm_callable=judge, on_fail="noop", batch_size=batch_size,
                              **case.options)
    meta = {"sources": case.sources, **SUITE_CHUNKING.as_metadata()}
    if case.question:
        meta["question"] = case.question
    report = validator.check(case.output, meta)
    return (report.passed, [str(r.label) for r in report.sentences]), len(judge.prompts)


def test_batched_and_single_calls_give_the_same_verdicts():
    cases = load_cases(SUITE)
    single_calls = batched_calls = 0
    for case in cases:
        single, calls = verdicts(case, 1)
        batched, fewer = verdicts(case, 64)
        assert batched == single, case.id
        single_calls, batched_calls = single_calls + calls, batched_calls + fewer
    assert batched_calls < single_calls
