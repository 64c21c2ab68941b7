"""Aggregation (aggregation.py, results.py): a sentence's result from its claims' verdicts,
when it passes, the groundedness summary, the result metadata, the failure message and the fixed
value; then the metadata schema through a Guard."""

import copy
import json

import pytest
from conftest import BAD, GOOD, SOURCES, ScriptedJudge, statement_of, validate_in_guard

from provenance_guard.deciding.aggregation import fix_value
from provenance_guard.deciding.results import ClaimResult, Groundedness, Report, SentenceResult
from provenance_guard.types import (
    BY_CACHE,
    BY_FALLBACK,
    BY_LLM,
    BY_LOCAL,
    CONTRADICTED,
    INVALID,
    MISCITED,
    MISSING,
    NONE,
    OK,
    OUT_OF_RANGE,
    SUPPORTED,
    UNCHECKED,
    UNSUPPORTED,
    Chunk,
    Citation,
    Evidence,
    Sentence,
    Verdict,
)

V = {  # one verdict of each label, with the scores and deciders a judge would give
    SUPPORTED: Verdict(SUPPORTED, "p1 says so", 0.9, BY_LLM),
    UNSUPPORTED: Verdict(UNSUPPORTED, "no passage says so", 0.2, BY_CACHE),
    CONTRADICTED: Verdict(CONTRADICTED, "p1 says 330", 0.0, BY_LOCAL),
    INVALID: Verdict(INVALID, "unreadable", None, BY_FALLBACK),
}
NO_CITATION = Citation()


def result(*labels, citation=NO_CITATION, text="The tower is tall.", evidence=()):
    """A sentence whose claims got ``labels`` (split into claims when there are several)."""
    claims = [ClaimResult(f"claim {i}", V[label], list(evidence)) for i, label in enumerate(labels)]
    return SentenceResult(Sentence(text, 0, len(text)), claims, citation, len(labels) > 1)


# A sentence's verdict: the worst of its claims'


@pytest.mark.parametrize("labels,worst", [
    ((SUPPORTED,), SUPPORTED),
    ((SUPPORTED, INVALID), INVALID),
    ((INVALID, UNSUPPORTED, SUPPORTED), UNSUPPORTED),
    ((SUPPORTED, UNSUPPORTED, CONTRADICTED, INVALID), CONTRADICTED),
])
def test_the_worst_label_of_the_claims_wins(labels, worst):
    verdict = result(*labels).verdict
    assert verdict.label == worst and verdict.decided_by == V[worst].decided_by


def test_a_single_claims_verdict_is_the_sentences():
    assert result(UNSUPPORTED).verdict == V[UNSUPPORTED]


def test_the_score_is_the_lowest_and_the_reason_names_each_failing_claim():
    verdict = result(SUPPORTED, UNSUPPORTED, INVALID).verdict
    assert verdict.score == 0.2  # the invalid claim has none
    assert verdict.reason == ("'claim 1': unsupported (no passage says so); "
                              "'claim 2': invalid (unreadable)")
    assert result(SUPPORTED, SUPPORTED).verdict.reason == "every claim is supported"


def test_evidence_of_the_claims_is_merged_in_the_order_the_judge_saw_it():
    """Each claim's passages once, the first claim's first: a claim's "[1]" is renumbered to
    where its passage stands in the sentence's list, as the CLI and the HTML number it."""
    near, far = Chunk("It is 330 m tall.", 0, 17, 0), Chunk("It is in Paris.", 18, 33, 0)
    cites = Verdict(UNSUPPORTED, "[1] gives another height", 0.1, BY_LLM)
    claims = [ClaimResult("a", V[SUPPORTED], [Evidence.of(far, 0.3), Evidence.of(near, 0.5)]),
              ClaimResult("b", cites, [Evidence.of(near, 0.8)])]
    sentence = SentenceResult(Sentence("x", 0, 1), claims, Citation(), True)
    assert [e.text for e in sentence.evidence] == [far.text, near.text]
    assert sentence.verdict.reason == "'b': unsupported ([2] gives another height)"
    assert sentence.shown_evidence == [1, 2]


# When a sentence passes


@pytest.mark.parametrize("label,pass_on_invalid,fail_on_unsupported,passes", [
    (SUPPORTED, False, True, True),
    (UNSUPPORTED, False, True, False),
    (UNSUPPORTED, False, False, True),  # gaps allowed
    (CONTRADICTED, True, False, False),  # never, whatever the policies
    (INVALID, False, True, False),
    (INVALID, True, True, True),  # pass_on_invalid
    (INVALID, False, False, False),  # allowing gaps does not pass the unreadable
])
def test_passes_follows_the_label_and_the_policies(label, pass_on_invalid, fail_on_unsupported,
                                                   passes):
    assert result(label).passes(pass_on_invalid, fail_on_unsupported) is passes


@pytest.mark.parametrize("status,fails", [(MISCITED, True), (MISSING, True), (OUT_OF_RANGE, True),
                                          (OK, False), (NONE, False), (UNCHECKED, False)])
def test_a_failing_citation_fails_even_a_supported_sentence(status, fails):
    sentence = result(SUPPORTED, citation=Citation((1,), status))
    assert sentence.passes(pass_on_invalid=True, fail_on_unsupported=False) is not fails


def test_the_summary_puts_the_citation_problem_first():
    miscited = result(SUPPORTED, citation=Citation((3,), MISCITED, (2,)))
    assert miscited.summary() == ("miscited: cites [3], which do not support it; [2] would; "
                                  "p1 says so")
    assert result(UNSUPPORTED).summary() == "unsupported: no passage says so"
    silent = SentenceResult(Sentence("x", 0, 1), [ClaimResult("x", Verdict(UNSUPPORTED), [])],
                            Citation())
    assert silent.summary() == "unsupported"


# The groundedness summary


@pytest.mark.parametrize("labels,faithfulness,level", [
    ([SUPPORTED, SUPPORTED], 1.0, "fully"),
    ([SUPPORTED, UNSUPPORTED], 0.5, "partially"),  # half is partially grounded
    ([SUPPORTED, UNSUPPORTED, UNSUPPORTED], 1 / 3, "ungrounded"),
    ([SUPPORTED, SUPPORTED, SUPPORTED, CONTRADICTED], 0.75, "contradictory"),  # any contradiction
    ([SUPPORTED, INVALID], 1.0, "fully"),  # the unreadable are not judged
    ([INVALID], None, None),
    ([], None, None),
])
def test_groundedness_levels_by_sentence(labels, faithfulness, level):
    summary = Groundedness.of([result(label) for label in labels])
    assert (summary.faithfulness, summary.level) == (faithfulness, level)
    assert summary.sentences == len(labels) and summary.claim_counts is None
    assert summary.counts == {label: labels.count(label)
                                 for label in (SUPPORTED, UNSUPPORTED, CONTRADICTED, INVALID)}


def test_faithfulness_by_claim_counts_claims_as_ragas_does():
    results = [result(SUPPORTED, SUPPORTED), result(UNSUPPORTED)]
    assert Groundedness.of(results).faithfulness == 0.5  # by sentence: 1 of 2
    summary = Groundedness.of(results, by_claim=True)
    assert summary.faithfulness == 2 / 3 and summary.level == "partially"
    assert summary.claim_counts == {SUPPORTED: 2, UNSUPPORTED: 1, CONTRADICTED: 0, INVALID: 0}
    assert summary.counts[SUPPORTED] == 1  # sentences are still counted as sentences
    ungrounded = Groundedness.of([result(SUPPORTED, UNSUPPORTED, UNSUPPORTED)], by_claim=True)
    assert (ungrounded.faithfulness, ungrounded.level) == (1 / 3, "ungrounded")


# The result metadata


def build_metadata(caller, results, **facts):
    by_claim = any(r.split_into_claims for r in results)
    return Report(results, Groundedness.of(results, by_claim, **facts)).metadata(caller)


def failure_message(failing, no_sources):
    return Report(failing, Groundedness.of(failing, sources_given=not no_sources)).message


def test_build_metadata_never_changes_the_callers_dict():
    caller = {"sources": ["a source"], "nested": {"keep": [1, 2]}, "sentences": "the caller's"}
    before = copy.deepcopy(caller)
    results = [result(SUPPORTED), result(UNSUPPORTED, citation=Citation((1,), OK))]
    metadata = build_metadata(caller, results, pass_on_invalid=False, unit="sentence")
    assert caller == before
    assert metadata is not caller and metadata["nested"] == caller["nested"]
    assert [s["verdict"] for s in metadata["sentences"]] == ["supported", "unsupported"]
    summary = metadata["groundedness"]
    assert (summary["pass_on_invalid"], summary["unit"]) == (False, "sentence")  # the facts
    assert summary["decided_by"] == {BY_LLM: 1, BY_CACHE: 1}
    assert summary["citations"] == {OK: 1, MISCITED: 0, MISSING: 0, OUT_OF_RANGE: 0}
    json.dumps(metadata)  # plain data


def test_claims_are_in_the_metadata_only_when_sentences_were_split():
    assert build_metadata({}, [result(SUPPORTED)])["sentences"][0]["claims"] is None
    split = build_metadata({}, [result(SUPPORTED, CONTRADICTED)])
    assert [c["verdict"] for c in split["sentences"][0]["claims"]] == ["supported", "contradicted"]
    assert split["groundedness"]["decided_by"] == {BY_LLM: 1, BY_LOCAL: 1}  # per claim
    assert split["groundedness"]["claim_counts"][CONTRADICTED] == 1


def test_the_failure_message_names_each_failing_sentence_and_why():
    failing = [result(UNSUPPORTED, text="It is gold."),
               result(SUPPORTED, text="It is tall.", citation=Citation((), MISSING))]
    assert failure_message(failing, no_sources=False) == (
        "The following sentences are not supported by the sources:\n"
        "- It is gold. [unsupported: no passage says so]\n"
        "- It is tall. [missing: cites no source; p1 says so]")
    assert failure_message(failing[:1], no_sources=True).startswith(
        "No sources were given (nor a tool result that answers a call), so nothing in the "
        "response can be grounded:\n- It is gold.")


@pytest.mark.parametrize("item", ["- ", "* ", "2. ", "> ", "> - "])
def test_a_list_items_own_marker_is_not_doubled_in_the_message(item):
    failing = [result(CONTRADICTED, text=f"{item}About 9 million visit it.")]
    message = failure_message(failing, no_sources=False)
    assert "\n- About 9 million visit it. [contradicted" in message


# The fixed value


def spans(text, *parts):
    return [Sentence(part, text.index(part), text.index(part) + len(part)) for part in parts]


@pytest.mark.parametrize("text,remove,fixed", [
    ("One. Two. Three.", ["Two."], "One. Three."),
    ("One. Two. Three.", ["One."], "Two. Three."),
    ("One. Two. Three.", ["Three."], "One. Two."),
    ("One. Two. Three.", ["One.", "Three."], "Two."),
    ("One. Two.", ["One.", "Two."], ""),
    ("One.\tTwo.  Three.", ["Two."], "One.\tThree."),
    ("One. Two.\nThree.", ["Two."], "One.\nThree."),  # no space left at the end of a line
    ("Intro:\n- first item\n- bad item\n- third item", ["bad item"],
     "Intro:\n- first item\n- third item"),  # the whole list line goes, marker and all
    ("1. One.\n2. Two.\n3. Three.", ["Two."], "1. One.\n3. Three."),
    ("a) One.\n b) Two.\nc) Three.", ["Two."], "a) One.\nc) Three."),
    ("• One.\n• Two.", ["Two."], "• One."),  # the last line: no line break left behind
    ("- Good. Bad.\n- Next.", ["Bad."], "- Good.\n- Next."),  # the item keeps its good part
    ("First.\n\nBad.\n\nLast.", ["Bad."], "First.\n\nLast."),  # no gap of three lines
    ("Bad.\n\nGood.", ["Bad."], "Good."),
])
def test_fix_value_removes_sentences_and_emptied_lines_cleanly(text, remove, fixed):
    assert fix_value(text, spans(text, *remove)) == fixed


@pytest.mark.parametrize("text,remove,fixed", [
    # units as the splitter gives them: list markers inside, unpaired emphasis outside
    ("- One.\n- Two.\n- Three.", ["- Two."], "- One.\n- Three."),
    ("- Two. Three.", ["- Two."], "- Three."),  # the item keeps its marker
    ("Intro.\n  - Two. Three.", ["- Two."], "Intro.\n  - Three."),
    ("* **Two. Three.**", ["Two."], "* **Three.**"),  # and its emphasis, paired again
    ("* **Two. Three.**", ["Three."], "* **Two.**"),
    ("* **Two. Three.**\n* Four.", ["Two.", "Three."], "* Four."),  # no "* ****" line left
    ("1. One.\n2. Two.", ["2. Two."], "1. One."),
    ("# Bad title\nGood.", ["Bad title"], "Good."),  # no stray "# "
    ("> Bad. Good.", ["> Bad."], "> Good."),
    ("> Bad.\nGood.", ["> Bad."], "Good."),
    ("**Bad.** Good.", ["**Bad.**"], "Good."),
    ("| a | b |\n|---|---|\n| bad | x |\n| good | y |", ["| bad | x |"],
     "| a | b |\n|---|---|\n| good | y |"),  # the separator row is kept
    ("Run:\n```\nbad()\n```\nGood.", ["```\nbad()\n```"], "Run:\nGood."),
])
def test_fix_value_leaves_no_stray_markdown(text, remove, fixed):
    assert fix_value(text, spans(text, *remove)) == fixed


def test_fix_through_a_guard_leaves_no_stray_markers():
    """A real Guard with on_fail="fix": the unsupported sentences go, the list, emphasis and
    heading of what stays are whole, nothing else changes."""
    from guardrails import Guard

    from provenance_guard import ProvenanceLLM
    from provenance_guard.text.sentences import split_sentences

    text = (f"# {BAD}\n"
            f"- **{GOOD} {BAD}**\n"
            f"- {BAD}\n"
            f"1. The Louvre houses the Mona Lisa.\n"
            f"> {BAD} Everest is in the Himalayas.")
    assert len(split_sentences(text)) == 7
    guard = Guard().use(ProvenanceLLM(llm_callable=ScriptedJudge(), on_fail="fix"))
    from conftest import toy_metadata

    outcome = guard.validate(text, metadata=toy_metadata())
    assert outcome.validated_output == (f"- **{GOOD}**\n"
                                        "1. The Louvre houses the Mona Lisa.\n"
                                        "> Everest is in the Himalayas.")


@pytest.mark.parametrize("text,fixed", [
    (f"**{BAD}** {GOOD}", GOOD),
    (f"{GOOD}[1] {BAD}[1] It is 330 metres tall.[1]", f"{GOOD}[1] It is 330 metres tall.[1]"),
    (f"It was finished in 1889.{BAD}", "It was finished in 1889."),
    (f"{GOOD}\n[1]\n{BAD}\n[1]", f"{GOOD}\n[1]"),
])
def test_fix_keeps_a_supported_sentence_written_against_an_unsupported_one(text, fixed):
    """Bold runs, markers after a stop, a missing space, a marker on its own line: the fix
    takes the unsupported sentence (with its marks) and leaves the supported one."""
    from conftest import toy_metadata
    from guardrails import Guard

    from provenance_guard import ProvenanceLLM

    guard = Guard().use(ProvenanceLLM(llm_callable=ScriptedJudge(), on_fail="fix"))
    assert guard.validate(text, metadata=toy_metadata()).validated_output == fixed


# Through a Guard


def test_metadata_schema_evidence_offsets_and_scores():
    reply = ('Passage 1 says so.\n{"reason": "passage [1] says it", "verdict": "supported", '
             '"score": 0.9}')
    judge = ScriptedJudge(reply=lambda p: reply if "Paris" in statement_of(p) else
                          '{"reason": "nothing about paint", "verdict": "unsupported"}')
    # one statement per call: the reply of each is read whole (its score, its reason)
    _, result_metadata = validate_in_guard(f"{GOOD} {BAD}", judge, batch_size=1)
    first, second = result_metadata["sentences"]
    assert set(first) == {"text", "start", "end", "verdict", "score", "reason", "decided_by",
                          "confidence", "judge_reply", "probability", "control", "kind",
                          "basis", "evidence", "evidence_cut", "citation", "claims",
                          "not_a_claim", "correction", "read_as", "proven"}
    assert first["proven"] is False  # an LLM's verdict is weighed, never proven
    assert (first["score"], first["reason"], first["decided_by"]) == (0.9, "passage [1] says it",
                                                                     "llm")
    assert second["reason"] == "nothing about paint" and second["score"] == 0.0
    # a supported sentence has no kind; a failing one whose judge gave none, "unspecified"
    assert (first["kind"], second["kind"]) == (None, "unspecified")
    assert first["basis"] is None  # an LLM's verdict names no one passage that decided
    for sentence in result_metadata["sentences"]:
        assert sentence["evidence"], sentence
        for e in sentence["evidence"]:
            assert SOURCES[e["source"]][e["start"]:e["end"]] == e["text"]
            assert -1.0 <= e["similarity"] <= 1.0
            assert set(e) == {"text", "source", "start", "end", "similarity", "cut", "said", "tool",
                              "fields"}
            assert e["said"] is None  # a passage of a source, not what the user said
            assert e["cut"] is False  # short sources: every chunk shown whole
        assert sentence["evidence_cut"] is False
    summary = result_metadata["groundedness"]
    assert summary["evidence_cut"] == 0 and summary["max_evidence_chars"] == 12_000
    assert summary["faithfulness"] == 0.5 and summary["level"] == "partially"
    assert summary["counts"] == {"supported": 1, "unsupported": 1, "contradicted": 0,
                                 "invalid": 0}
    assert {k: summary[k] for k in ("sources_given", "pass_on_invalid", "fail_on_unsupported",
                                    "citation_mode", "unit", "judge_calls_saved")} == {
        "sources_given": True, "pass_on_invalid": False, "fail_on_unsupported": True,
        "citation_mode": "auto", "unit": "sentence", "judge_calls_saved": 0}
    json.dumps(result_metadata["sentences"])  # plain data, ready to log
