"""Correction as the fix (``fix_mode="correct"``): each failing sentence rewritten from its own
evidence, and the rewrite used only once it has passed the checks and the judge.

    failing sentences -> rewrite (the corrector) -> check the rewrite -> judge it -> Correction

The sentence, its evidence and the judge's reason are untrusted, and so is the rewrite: a
rewrite that is empty, far longer than the sentence, spread over lines or holding markup, that
repeats the prompt's instructions, states a number, date or name the evidence does not give, or
brings in more than a few words the evidence does not have, is not used and never judged. The
rest are judged like any claim (same judge, same evidence, the same cascade); only a supported
rewrite, decided by a judge rather than a fallback, replaces its sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import cast

from .. import rules
from ..errors import ConfigurationError, warn
from ..judges import Corrector, Judge, JudgeSettings, build
from ..judges.base import Backend
from ..judges.factory import Dressed, dress
from ..judges.kinds import REWRITE
from ..judges.prompts import CORRECTION_RULES
from ..judges.replies import EXPECTED_REWRITE, UnreadableReply
from ..request import Request
from ..runtime.deadline import TOO_LATE, Scope
from ..text import citations
from ..text.citations import MARKER
from ..text.word_forms import MONTHS
from ..types import (
    BY_FALLBACK,
    CONTRADICTED,
    SUPPORTED,
    UNSUPPORTED,
    Correction,
    Evidence,
    ReadSentence,
    Verdict,
)
from .decider import Decider, in_place, in_place_each
from .results import Report

# A rewrite longer than this many times the sentence, plus SLACK characters, is not a
# correction of it.
MAX_GROWTH, SLACK = 1.5, 40
# Content words a rewrite may have that its evidence lacks (joining words, the sentence's own
# subject: "The tower" where a passage says "It"), at most, and as a share of its words.
NEW_WORDS, NEW_SHARE = 3, 0.25
_RULE_RUN = 6  # words in a row of the prompt's instructions that a rewrite may not repeat
LATE = f"no rewrite {TOO_LATE}"
_LATE = object()  # what the runner gives for a sentence the deadline left unrewritten


def make_corrector(spec: object, judge: Dressed, llm_kwargs: dict | None,
                   settings: JudgeSettings) -> Dressed:
    """The corrector ``spec`` names (see the ``corrector`` setting); None: the judge's model."""
    if spec is None:
        if judge.abilities.corrects:
            return judge
        raise ConfigurationError(
            f"fix_mode=\"correct\" needs a model to rewrite failing sentences, and the judge "
            f"({judge.name}) is no language model. Pass corrector=\"<LiteLLM model>\" "
            "(or a callable prompt -> reply), or use fix_mode=\"remove\"; on the command line, "
            "judge with --model NAME.")
    try:
        made = (dress(cast(Backend, spec), settings)
                if isinstance(spec, Corrector) and not isinstance(spec, Judge)
                else build(spec, llm_kwargs if isinstance(spec, str) else None, settings))
    except (ValueError, ConfigurationError) as error:
        raise type(error)(f"corrector: {error}") from None
    if not made.abilities.corrects:
        raise ConfigurationError(
            f"corrector: {spec!r} gives a {made.name}, which cannot rewrite text. "
            "Pass a LiteLLM model name, a callable prompt -> reply, or an object with a "
            "correct(sentence, evidence, verdict, question) method.")
    return made


class Correcting:
    """The corrector, and the decider that judges its rewrites, for one validator."""

    def __init__(self, corrector: Dressed, decider: Decider):
        self.corrector, self.decider = corrector, decider

    async def corrections(self, report: Report, request: Request,
                          read: Sequence[ReadSentence], scope: Scope) -> dict[int, Correction]:
        """A Correction for each failing sentence whose verdict fails it (unsupported or
        contradicted), by its index; other failing sentences are removed by the fix. ``read``:
        the sentences as the text stage read them (the corrector is given their text without
        citation markers)."""
        todo = _Todo(report, request, read)

        async def rewrite(i: int) -> str | UnreadableReply | None:
            args = todo.arguments(i)
            try:
                return None if args is None else await self.corrector.rewrite(*args)
            except UnreadableReply as unreadable:
                return unreadable

        rewrites = todo.checked(await scope.map(rewrite, todo.indexes, lambda i: _LATE))
        return rewrites.corrections(await self.decider.judge_texts(*rewrites.to_judge(), request,
                                                                  scope))


class _Todo:
    """The failing sentences of one validation to rewrite, and what the corrector is given for
    each."""

    def __init__(self, report: Report, request: Request, read: Sequence[ReadSentence]):
        failing = {id(r) for r in report.failing}
        self.report, self.context = report, request.context
        self.indexes = [i for i, r in enumerate(report.sentences)
                        if id(r) in failing and r.verdict is not None
                        and r.verdict.label in (UNSUPPORTED, CONTRADICTED)]
        self.texts = {i: read[i].text for i in self.indexes}
        self.before = [before for _, before in in_place_each(read)]  # what each reads after

    def arguments(self, i: int) -> tuple | None:
        """What the corrector is given for sentence ``i``; None: it has nothing to rewrite
        from."""
        result = self.report.sentences[i]
        if not result.evidence or result.verdict is None:
            return None
        return self.texts[i], result.evidence, result.verdict, self.context

    def checked(self, written: Sequence[object]) -> _Rewrites:
        """The corrector's rewrites, in the order of ``indexes`` (``_LATE`` for one the
        deadline left unwritten), checked."""
        return _Rewrites(self, dict(zip(self.indexes, written, strict=True)))


class _Rewrites:
    """The rewrites of one validation's failing sentences: ``problems`` says why one cannot be
    judged; the others are judged (``to_judge``) and make the corrections."""

    def __init__(self, todo: _Todo, written: dict[int, object]):
        self.report, self.indexes = todo.report, todo.indexes
        sentences = self.report.sentences
        self.problems = {i: LATE if written[i] is _LATE
                         else str(written[i]) if isinstance(written[i], UnreadableReply)
                         else _problem(cast(str | None, written[i]), todo.texts[i],
                                       sentences[i].evidence)
                         for i in self.indexes}
        unreadable = sum(isinstance(text, UnreadableReply) for text in written.values())
        if unreadable:
            warn(f"the corrector's reply could not be read for {unreadable} sentence(s), which "
                 f"the fix removes: expected {EXPECTED_REWRITE}.")
        self.rewrites = {i: text if isinstance(text, str) else None
                         for i, text in written.items()}
        # the rewrite without markers a model may have put in: judged as a sentence is
        self.bare = {i: MARKER.sub("", text).strip() for i, text in self.rewrites.items()
                     if text}
        self.claimed = {i: in_place(text, todo.before[i]) for i, text in self.bare.items()}
        self.checked = [i for i in self.indexes if self.problems[i] is None]

    def to_judge(self) -> tuple[list[str], list[Sequence[Evidence]]]:
        """The rewrites to judge, each as what it claims in its place ("It is 330 metres
        tall." after "The Eiffel Tower is in Paris." claims "[The Eiffel Tower] is 330 metres
        tall."), and the evidence of the sentence each stands for."""
        return ([self.claimed[i] for i in self.checked],
                [self.report.sentences[i].evidence for i in self.checked])

    def corrections(self, verdicts: Sequence[Verdict]) -> dict[int, Correction]:
        """Each sentence's Correction, given the verdicts on the rewrites ``to_judge`` gave."""
        judged = dict(zip(self.checked, verdicts, strict=True))
        found = {}
        for i in self.indexes:
            result, verdict = self.report.sentences[i], judged.get(i)
            used = (verdict is not None and verdict.label == SUPPORTED
                    and verdict.decided_by != BY_FALLBACK)
            reason = (self.problems[i] or "" if verdict is None
                      else "" if used else f"the judge found the rewrite {verdict.label}")
            found[i] = Correction(
                result.sentence.text, self.rewrites[i] or None, used, verdict, reason,
                _with_markers(self.bare[i], result) if used else None)
        return found


def _problem(rewrite: str | None, sentence: str, evidence: Sequence[Evidence]) -> str | None:
    """Why ``rewrite`` cannot stand for ``sentence`` (None when it may be judged)."""
    if not evidence:
        return "no evidence was found to rewrite it from"
    text = MARKER.sub("", rewrite or "").strip()
    if not text:
        return "the corrector gave no rewrite"
    if len(text) > MAX_GROWTH * len(sentence) + SLACK:
        return (f"the rewrite is far longer than the sentence ({len(text)} characters for "
                f"{len(sentence)})")
    if any(mark in text for mark in ("\n", "\r", "<", ">", "```")):
        return "the rewrite holds line breaks or markup"
    words = rules.normalise(text).split()
    if any(f" {' '.join(words[n:n + _RULE_RUN])} " in _rules_text()
           for n in range(len(words) - _RULE_RUN + 1)):
        return "the rewrite repeats the instructions it was given"
    said = rules.read_facts(text)
    given = [rules.read_facts(e.text) for e in evidence]
    quantities = [q for facts in given for q in facts.quantities]
    # a number the evidence states, at most as rounded as the rules allow a claim: "about
    # 50,000" for 48,000, never "about 51,500"
    unknown = [q.text for q in said.quantities if not any(q.stated_by(k) for k in quantities)]
    unknown += [str(y) for y in sorted(said.years) if not any(y in f.years for f in given)]
    unknown += [f"{MONTHS[m - 1].title()} {d}" for m, d in sorted(said.days)
                if not any((m, d) in f.days for f in given)]
    unknown += [MONTHS[m - 1].title() for m in sorted(said.months)
                if not any(m in f.months for f in given)]
    if unknown:
        return f"the rewrite states what the evidence does not give: {', '.join(unknown)}"
    own = rules.read_facts(sentence)
    known = set().union(*(f.words | f.names.keys() for f in given))
    names = [name for stem, name in said.names.items()
             if stem not in known and stem not in own.names and stem not in own.words]
    if names:
        return f"the rewrite names what neither the sentence nor the evidence does: {', '.join(names)}"
    new = sorted(said.words - known)
    if len(new) > NEW_WORDS or (said.words and len(new) > NEW_SHARE * len(said.words)):
        return f"the rewrite brings in words the evidence does not have: {', '.join(new[:8])}"
    return None


@cache
def _rules_text() -> str:
    """The correction prompt's instructions, as normalised words between blanks."""
    return f" {rules.normalise(CORRECTION_RULES + REWRITE.ending(False)[0])} "


def _with_markers(text: str, result) -> str:
    """The rewrite (without markers) as the fix writes it: with the marker of the source of
    the passage it rests on (the one sharing most of its words) when the sentence had
    markers."""
    if not result.citation.cited:
        return text
    words = set(rules.normalise(text).split())
    best = max(result.evidence, key=lambda e: len(words & set(rules.normalise(e.text).split())))
    if best.source is None:
        return text
    marker = f"[{best.source + 1}]"
    after_stop = bool(_ENDS_WITH_MARKER_AFTER_STOP.search(result.sentence.text))
    if after_stop or not text or text[-1] not in ".!?":
        return f"{text}{marker}" if after_stop else f"{text} {marker}"
    return f"{text[:-1]} {marker}{text[-1]}"


_ENDS_WITH_MARKER_AFTER_STOP = re.compile(
    rf"[.!?]\s*(?:{citations.MARKER_PATTERN}\s*)+$")
