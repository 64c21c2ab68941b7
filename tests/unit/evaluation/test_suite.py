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
from conftest import ScriptedJudge

from provenance_guard import ProvenanceLLM
from provenance_guard.deciding.results import ClaimResult, Groundedness, Report, SentenceResult
from provenance_guard.evaluation.examples import Checked, Example, Expected
from provenance_guard.evaluation.suite import (
    SUITE,
    accuracy_by_type,
    balanced_accuracy,
    load_cases,
    run_case,
)
from provenance_guard.rules import in_context
from provenance_guard.text import citations
from provenance_guard.text.sentences import split_sentences
from provenance_guard.types import Citation, CitationStatus, Label, Sentence, Verdict

CASES = load_cases(SUITE)
TYPES = ("paraphrase", "changed_number", "changed_date", "swapped_entity", "negation",
         "unsupported_addition", "partly_supported", "synthesis", "pronoun_reference",
         "wrong_citation", "missing_citation", "refusal", "injection")


def oracle(case):
    """A judge that knows each sentence's verdict, asked of it as written or as it reads after
    the sentence before ("She took over ..." as "Ilse Varga took over ...")."""
    texts = [citations.read(s.text)[1] for s in split_sentences(case.output)]
    read = texts[:1]
    for text in texts[1:]:
        read.append(in_context(text, read[-1]))
    expected = {form: e for *forms, e in zip(texts, read, case.sentences, strict=True)
                for form in forms}

    def truth(statement, passages):
        label = expected[statement]
        # a mis-cited sentence is one the right passages support
        truth = "supported" if label.citation == "miscited" else label.verdict
        needed = label.evidence if truth != "unsupported" else []
        if not all(snippet in passages for snippet in needed):
            truth = "unsupported"
        return truth

    return ScriptedJudge(truth)


def test_the_suite_covers_every_case_type_three_times():
    counts = Counter(case.type for case in CASES)
    assert set(counts) == set(TYPES)
    assert min(counts.values()) >= 3
    for case in CASES:
        assert len(split_sentences(case.output)) == len(case.sentences), case.id
        for sentence in case.sentences:
            for snippet in sentence.evidence:
                assert any(snippet in source for source in case.sources), (case.id, snippet)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_case_through_the_validator_with_an_oracle_judge(case):
    judge = oracle(case)
    outcome = run_case(lambda options: ProvenanceLLM(llm_callable=judge, **options), case)
    assert outcome.verdicts == [s.verdict for s in case.sentences]
    for status, expected in zip(outcome.citations, case.sentences, strict=True):
        assert status == (expected.citation or "none")
    assert outcome.passed is case.label


def outcome(kind, passes, passed, expected, verdicts, citations=None):
    sentences = tuple(Expected(Label(v), citation=c and CitationStatus(c)) for v, c in expected)
    case = Example(f"{kind}-{passes}-{passed}", "", [], label=passes, type=kind,
                   sentences=sentences)
    results = [SentenceResult(Sentence("s", 0, 1), [ClaimResult("s", Verdict(v), [])],
                              Citation(status=CitationStatus(c)))
               for v, c in zip(verdicts, citations or ["none"] * len(verdicts), strict=True)]
    return Checked(case, Report(results, Groundedness.of(results)), passed)


def test_accuracy_by_type_and_balanced_accuracy_by_hand():
    outcomes = [
        outcome("a", True, True, [("supported", None), ("supported", None)],
                ["supported", "supported"]),  # right: 2 of 2 sentences
        outcome("a", False, True, [("contradicted", None)], ["supported"]),  # wrong: 0 of 1
        outcome("b", False, False, [("supported", "miscited"), ("unsupported", None)],
                ["supported", "unsupported"], ["ok", "none"]),  # the citation is wrong: 1 of 2
        outcome("b", False, False, [("unsupported", None), ("unsupported", None)],
                ["unsupported"]),  # a verdict missing: 1 of 2
    ]
    table = accuracy_by_type(outcomes)
    assert {name: row.to_json() for name, row in table.items()} == {
        "a": {"cases": 2, "outcome_accuracy": 0.5, "sentence_accuracy": 2 / 3},
        "b": {"cases": 2, "outcome_accuracy": 1.0, "sentence_accuracy": 2 / 4},
        "all": {"cases": 4, "outcome_accuracy": 0.75, "sentence_accuracy": 4 / 7},
    }
    # should fail: 2 of 3 caught; should pass: 1 of 1
    assert balanced_accuracy(outcomes) == (2 / 3 + 1) / 2
    assert balanced_accuracy(outcomes[1:]) == 2 / 3  # nothing should pass: one recall only
    assert balanced_accuracy([]) is None


@pytest.mark.parametrize("line,message", [
    ('{"id": "x", "type": "t", "sources": [], "output": "o"}', "expected"),
    ('{"id": "x", "type": "t", "sources": 3, "output": "o", "expected": {"passes": true, '
     '"sentences": []}}', "TypeError"),
])
def test_a_line_that_is_not_a_case_says_where_and_what_a_case_needs(tmp_path, line, message):
    path = tmp_path / "cases.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(ValueError, match="line 1: not a case") as raised:
        load_cases(path)
    assert message in str(raised.value) and "expected.passes" in str(raised.value)
