"""The local judge: a deterministic heuristic for when no LLM is configured.

It is not an LLM and does not understand paraphrase deeply. It looks at the evidence itself:
how much of the sentence's content the evidence covers (words, and the retrieval similarity),
and whether the numbers, dates and names in the sentence appear in the evidence. A number or
name that the evidence states differently makes the sentence *contradicted*; content the
evidence lacks makes it *unsupported*.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..index import Evidence
from ..verdicts import BY_LOCAL, CONTRADICTED, SUPPORTED, UNSUPPORTED, Verdict

_STOPWORDS = frozenset(
    """a an the and or but if then of to in on at by for with from as is are was were be been
    being it its this that these those he she they them his her their there here which who whom
    whose what when where why how not no yes do does did has have had will would can could
    should may might must shall about into over under than so such also very just only more most
    some any all each both either neither one i you we our your my me us our""".split()
)
_NUMBER = re.compile(r"(?<![\w.])[-+]?\$?\d[\d,]*(?:\.\d+)?%?")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*(?:\s+(?:of|de|von|van|the)?\s*[A-Z][\w'’-]*)*")


def _stem(word: str) -> str:
    word = word.lower().replace("’", "'")
    for suffix in ("'s", "ies", "es", "s", "ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _content_words(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text) if w.lower() not in _STOPWORDS and len(w) > 1}


def _numbers(text: str) -> set[str]:
    found = set()
    for match in _NUMBER.finditer(text):
        value = match.group().replace(",", "").replace("$", "").lstrip("+")
        found.add(value.rstrip("%").rstrip(".") or value)
    return found


def _months(text: str) -> set[str]:
    words = {w.lower() for w in _WORD.findall(text)}
    return {m for m in _MONTHS if m in words or m[:3] in words}


def _names(text: str) -> dict[str, str]:
    """Capitalised words that are not the first word of the sentence and not stopwords,
    by stem."""
    names = {}
    for match in _CAPITALISED.finditer(text):
        if match.start() == 0 or text[: match.start()].rstrip().endswith((".", "!", "?", ":")):
            words = match.group().split()[1:]  # the first word is capitalised by grammar
        else:
            words = match.group().split()
        for word in words:
            if word.lower() not in _STOPWORDS and word.lower() not in _MONTHS:
                names[_stem(word)] = word
    return names


class LocalJudge:
    """A heuristic judge: no model, no network, the same answer every time.

    ``support_threshold``: share of the sentence's content words the evidence must cover.
    ``similarity_threshold``: retrieval cosine similarity that also counts as covered.
    """

    is_heuristic = True

    def __init__(self, support_threshold: float = 0.75, similarity_threshold: float = 0.85):
        self.support_threshold = support_threshold
        self.similarity_threshold = similarity_threshold

    def judge(
        self, claim: str, evidence: Sequence[Evidence], question: str | None = None
    ) -> Verdict:
        if not evidence:
            return Verdict(UNSUPPORTED, "no evidence was retrieved", 0.0, BY_LOCAL)
        context = " ".join(e.text for e in evidence)
        claim_words = _content_words(claim)
        if question:  # a short answer is read with its question: the question's words are given
            claim_words -= _content_words(question)
        context_words = _content_words(context)
        coverage = len(claim_words & context_words) / len(claim_words) if claim_words else 1.0
        similarity = max((e.similarity or 0.0) for e in evidence)

        claim_numbers, context_numbers = _numbers(claim), _numbers(context)
        missing_numbers = claim_numbers - context_numbers
        missing_months = _months(claim) - _months(context)
        claim_names = _names(claim)
        missing_names = sorted(
            claim_names[stem] for stem in claim_names.keys() - context_words - _names(context).keys()
        )
        about_the_same = coverage >= 0.5 or similarity >= 0.6

        if about_the_same and (missing_numbers and context_numbers or missing_months
                               and _months(context)):
            values = sorted(missing_numbers | missing_months)
            return Verdict(
                CONTRADICTED,
                f"the evidence covers this sentence but states other values than {values}",
                round(min(coverage, 0.2), 3),
                BY_LOCAL,
            )
        problems = []
        if missing_numbers or missing_months:
            problems.append(f"values not in the evidence: {sorted(missing_numbers | missing_months)}")
        if missing_names:
            problems.append(f"names not in the evidence: {missing_names}")
        covered = coverage >= self.support_threshold or similarity >= self.similarity_threshold
        score = round(max(coverage, similarity) if not problems else min(coverage, 0.4), 3)
        if covered and not problems:
            return Verdict(
                SUPPORTED,
                f"the evidence covers {coverage:.0%} of the sentence's content words "
                f"(best similarity {similarity:.2f}) and every number, date and name in it",
                score,
                BY_LOCAL,
            )
        if not covered:
            problems.insert(0, f"the evidence covers only {coverage:.0%} of its content words")
        return Verdict(UNSUPPORTED, "; ".join(problems), score, BY_LOCAL)
