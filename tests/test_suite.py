"""The labelled groundedness suite (the suite the package ships) through the validator,
with the real default embedder and a real FAISS index.

An *oracle* judge stands in for a perfect LLM: it gives a sentence its labelled verdict only
when the passages it was sent hold the labelled evidence (else "unsupported"), and it quotes
the statement before its verdict, as real judges do. So these tests check the plumbing:
retrieval finds the evidence, citations narrow it to the cited sources, mis-citations are found
by judging again against the others, required citations are enforced, and nothing in a hostile
statement is read as a verdict. How good a *real* judge is on the suite is measured by
benchmarks/bench_accuracy.py.
"""

from collections import Counter

import pytest
from conftest import ScriptedJudge, passages_of, statement_of

from provenance_guard import ProvenanceLLM, citations
from provenance_guard.evaluation.suite import (
    SUITE,  # noqa: E402
    accuracy_by_type,
    load_cases,
    run_case,
)
from provenance_guard.splitting import split_sentences

CASES = load_cases(SUITE)
TYPES = ("paraphrase", "changed_number", "changed_date", "swapped_entity", "negation",
         "unsupported_addition", "partly_supported", "synthesis", "pronoun_reference",
         "wrong_citation", "missing_citation", "refusal", "injection")


def oracle(case):
    expected = {citations.read(s.text)[1]: e
                for s, e in zip(split_sentences(case.output), case.sentences, strict=True)}

    def reply(prompt):
        statement = statement_of(prompt)
        label = expected[statement]
        # a mis-cited sentence is one the right passages support
        truth = "supported" if label.get("citation") == "miscited" else label["verdict"]
        needed = label["evidence"] if truth != "unsupported" else []
        if not all(snippet in passages_of(prompt) for snippet in needed):
            truth = "unsupported"
        return f'The statement reads: "{statement}"\n{{"reason": "oracle", "verdict": "{truth}"}}'

    return ScriptedJudge(reply=reply)


def test_the_suite_covers_every_case_type_three_times():
    counts = Counter(case.type for case in CASES)
    assert set(counts) == set(TYPES)
    assert min(counts.values()) >= 3
    for case in CASES:
        assert len(split_sentences(case.output)) == len(case.sentences), case.id
        for sentence in case.sentences:
            for snippet in sentence["evidence"]:
                assert any(snippet in source for source in case.sources), (case.id, snippet)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_case_through_the_validator_with_an_oracle_judge(case):
    judge = oracle(case)
    outcome = run_case(lambda options: ProvenanceLLM(llm_callable=judge, **options), case)
    assert outcome.verdicts == [s["verdict"] for s in case.sentences]
    for status, expected in zip(outcome.citations, case.sentences, strict=True):
        assert status == expected.get("citation", "none")
    assert outcome.passed is case.passes


def test_scores_per_type_are_computed_from_outcomes():
    judge_everything_supported = ScriptedJudge(reply='{"verdict": "supported"}')
    outcomes = [run_case(lambda options: ProvenanceLLM(llm_callable=judge_everything_supported,
                                                       **options), case)
                for case in CASES if case.type in ("paraphrase", "changed_number")]
    table = accuracy_by_type(outcomes)
    assert table["paraphrase"]["outcome_accuracy"] == 1.0
    assert table["changed_number"]["outcome_accuracy"] == 0.0
    assert table["all"]["cases"] == len(outcomes)
