"""The rule checker's comparison: a claim's facts against its evidence's, sentence by
sentence, giving *findings*: how much of the claim the evidence covers, which of its facts the
evidence lacks, whether one evidence sentence states the same fact differently (a *clear
contradiction*: it covers the rest of the claim and gives another value of the same kind and
unit, names another entity in the same slot, or negates it), and whether a chunk states the
claim verbatim. The local judge turns findings into verdicts; the validator's cascade uses the
two clear cases to skip an LLM call.

One claim's walk: ``read_facts`` (``facts``, which reads clauses with ``clauses``) for the
claim and each evidence sentence, then the comparisons below, then ``Findings``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..storage import MiB, memoize
from ..text.sentences import split_sentences
from ..text.word_forms import MONTHS
from ..types import Evidence
from . import clauses
from .facts import Facts, normalise, read_facts, union

CONTRADICTION_COVERAGE = 0.6  # share of the claim's other words a chunk must state to conflict
NEGATION_COVERAGE = 0.8  # ... and to count as its negation
VERBATIM_MIN_WORDS = 4


@dataclass(frozen=True)
class Findings:
    coverage: float  # share of the claim's content words found in the evidence
    best_similarity: float  # the retriever's best cosine similarity, 0 when unknown
    missing_values: tuple[str, ...]  # quantities and dates of the claim the evidence lacks
    missing_names: tuple[str, ...]
    contradiction: str | None  # why a chunk clearly states otherwise, or None
    contradiction_kind: str | None  # "value" (a number or date), "name", "negation",
    # "antonym" (an opposite word) or "roles" ("from A to B" against "from B to A")
    verbatim: bool  # a chunk states the claim word for word
    gaps: tuple[str, ...] = ()  # what the claim adds: a list item, "all" for "some"

    @property
    def clear_contradiction(self) -> bool:
        """Another number or date for the same thing: the one kind of conflict the rules
        decide without an LLM (a different name may be a synonym or a part of the whole)."""
        return self.contradiction_kind == "value"

    @property
    def problems(self) -> list[str]:
        found = []
        if self.missing_values:
            found.append(f"values not in the evidence: {list(self.missing_values)}")
        if self.missing_names:
            found.append(f"names not in the evidence: {list(self.missing_names)}")
        return found + list(self.gaps)


def check(claim: str, evidence: Sequence[Evidence]) -> Findings:
    """Compare ``claim`` with its evidence chunks, sentence by sentence."""
    said = read_facts(claim)
    parts = [facts for e in evidence for facts in _sentence_facts(e.text)]
    everything = union(parts)
    coverage = len(said.words & everything.words) / len(said.words) if said.words else 1.0
    similarity = max((e.similarity or 0.0 for e in evidence), default=0.0)

    missing_values = [q.text for q in said.quantities
                      if not any(q.matches(other) for other in everything.quantities)]
    missing_values += [str(y) for y in sorted(said.years - everything.years)]
    missing_values += [MONTHS[m - 1].title() for m in sorted(said.months - everything.months)]
    missing_values += [f"{MONTHS[m - 1].title()} {d}" for m, d in sorted(said.days - everything.days)
                       if m in everything.months]
    missing_names = sorted(said.names[s] for s in said.names.keys() - everything.words
                           - everything.names.keys())

    contradiction = None
    ranked = sorted(((_overlap(said, part), n) for n, part in enumerate(parts)), reverse=True)
    agreed = False  # a passage states the claim's words the same way round
    for overlap, n in ranked:
        # A value or name conflict needs most of the claim's words; the polarity checks
        # count an opposite as the same word ("cheaper" / "more expensive"), so they look at
        # every sentence.
        if overlap >= CONTRADICTION_COVERAGE:
            contradiction = _conflict(said, parts[n], everything)
        if contradiction is None and not agreed:
            contradiction = _polarity(said, parts[n])
            agreed = contradiction is None and (
                clauses.overlap(said.clauses, parts[n].clauses) >= NEGATION_COVERAGE)
        if contradiction:
            break
    gaps = [f"list items not in the evidence: {items}"
            for items in [clauses.missing_items(claim, everything.words)] if items]
    if ranked and ranked[0][0] >= CONTRADICTION_COVERAGE:
        gaps += filter(None, [clauses.quantifier_gap(said.clauses, parts[ranked[0][1]].clauses)])
    target = normalise(claim)
    verbatim = len(target.split()) >= VERBATIM_MIN_WORDS and any(
        f" {target} " in f" {normalise(e.text)} " for e in evidence
    )
    kind, why = contradiction or (None, None)
    return Findings(round(coverage, 4), similarity, tuple(missing_values), tuple(missing_names),
                    why, kind, verbatim and contradiction is None, tuple(gaps))


@memoize(1024, 16 * MiB, bytes_per_char=56)
def _sentence_facts(chunk: str) -> tuple[Facts, ...]:
    return tuple(read_facts(s.text) for s in split_sentences(chunk))


def keeps_facts(sentence: str, claims: Sequence[str]) -> bool:
    """Whether ``claims`` together keep every number, date and name of ``sentence``: claims
    that drop one cannot stand for it (a manipulated sentence may ask the claim extractor to
    leave its false part out)."""
    said = read_facts(sentence)
    kept = union([read_facts(claim) for claim in claims])
    values = all(any(q.matches(k) for k in kept.quantities) for q in said.quantities)
    names = said.names.keys() <= kept.names.keys() | kept.words
    return (values and names and said.years <= kept.years and said.months <= kept.months
            and said.days <= kept.days)


def _overlap(said: Facts, part: Facts) -> float:
    """Share of the claim's words that ``part`` states, leaving out names it has no word for
    (so "in Berlin" against "in Paris" still counts as the same statement)."""
    absent_names = said.names.keys() - part.words - part.names.keys()
    considered = said.words - absent_names
    return len(said.words & part.words) / len(considered) if considered else 0.0


def _conflict(said: Facts, chunk: Facts, everything: Facts) -> tuple[str, str] | None:
    """How ``chunk`` (one evidence sentence that states most of the claim) gives another
    value or name. A value or name the evidence states anywhere is not in conflict."""
    for q in said.quantities:
        rivals = [o for o in chunk.quantities if q.comparable(o)]
        if rivals and not any(q.same_value(o) and q.unit == o.unit for o in everything.quantities):
            return "value", f"the evidence gives {rivals[0].text} where the claim says {q.text}"
    if said.years and chunk.years and not said.years & everything.years:
        return "value", (f"the evidence gives the year {min(chunk.years)} where the claim says "
                         f"{min(said.years)}")
    if said.months and chunk.months and not said.months & everything.months:
        return "value", (f"the evidence gives {MONTHS[min(chunk.months) - 1].title()} where the "
                         f"claim says {MONTHS[min(said.months) - 1].title()}")
    for (month, day) in said.days:
        rivals = sorted(d for m, d in chunk.days if m == month)
        if rivals and (month, day) not in everything.days:
            return "value", (f"the evidence gives {MONTHS[month - 1].title()} {rivals[0]} where "
                             f"the claim says {MONTHS[month - 1].title()} {day}")
    for name_stem, before in said.name_slots.items():
        if name_stem in everything.names or name_stem in everything.words:
            continue
        rivals = [chunk.names[s] for s, b in chunk.name_slots.items()
                  if b == before and s not in said.names]
        if rivals:
            return "name", (f"the evidence names {rivals[0]} where the claim names "
                            f"{said.names[name_stem]}")
    return None


def _polarity(said: Facts, chunk: Facts) -> tuple[str, str] | None:
    """How ``chunk`` states the claim the other way round (negated, an opposite word, roles
    swapped), when it states nearly all of it: see ``clauses``."""
    if clauses.overlap(said.clauses, chunk.clauses) < NEGATION_COVERAGE:
        return None
    return clauses.polarity_conflict(said.clauses, chunk.clauses)
