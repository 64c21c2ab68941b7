"""The HTML report (``provenance check --html``, ``provenance eval --html``): one self-contained
file, no network. It opens with the verdict (the text passes or fails, and why; for a batch, how
many samples pass, then a summary chart), then shows each output with its sentences highlighted
by verdict and its sources listed; clicking a sentence opens its verdict, reason, citation
check, claims and evidence, with the clause that lines up with the sentence and its deciding
numbers and names marked (``highlight``), and, for a sentence ``fix_mode="correct"`` rewrote,
the correction as a word diff.

The page is a Jinja2 template (``templates/report.html``) with autoescaping on: every text in it
(outputs, sources, the judge's reasons) came from a model or a user, and the page shows it,
never runs it. This module only turns the typed results into what the template shows. The
page's own script only opens the sentence named in the address (``report.html#o1-s2``); without
it, every sentence still opens on click.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from types import SimpleNamespace as View

from ..deciding.results import Report, SentenceResult, from_conversation
from ..types import (
    CONTRADICTORY,
    FULLY,
    LABELS,
    LEVELS,
    NONE,
    PARTIALLY,
    UNGROUNDED,
    Correction,
)
from .examples import Checked
from .grounded_qa import TOP_SCORE
from .highlight import marked
from .summaries import EvalSummary

TEMPLATES = Path(__file__).resolve().parent / "templates"
CHART_LEVELS = (*LEVELS, "None")  # "None": nothing was judged


def render_check(checked: Checked, source_names: Sequence[str], judge: str) -> str:
    """The page for one ``provenance check``; ``source_names`` name the sources (file paths).
    It opens with the verdict on the text."""
    output = _output("1", "Checked text", checked, source_names)
    return _page("Provenance check", [f"judge: {judge}"], None, [output], output.verdict)


def render_eval(checked: Sequence[Checked], summary: EvalSummary, judge: str, data: str,
                skipped: Sequence[str] = ()) -> str:
    """The page for a ``provenance eval`` run: the summary chart, the lines of the data set
    that were ``skipped`` (each with why), then every sample."""
    head = [f"data: {data}", f"judge: {judge}",
            f"{summary.samples} samples validated, {summary.errors} errors"
            + (f", {len(skipped)} lines skipped" if skipped else "")]
    outputs = []
    for number, item in enumerate(checked, 1):
        example = item.example
        label = ("" if example.label is None else
                 "labelled grounded" if example.label else "labelled ungrounded")
        outcome = "" if item.report is None else ("passes" if item.passed else "fails")
        title = " · ".join(part for part in (example.id, outcome, label) if part)
        names = [f"source {i}" for i in range(1, len(example.sources) + 1)]
        outputs.append(_output(str(number), title, item, names))
    failing = sum(1 for item in checked if item.report is not None and not item.passed)
    unchecked = sum(1 for item in checked if item.report is None)
    verdict = View(passed=not failing and not unchecked and not skipped, text=(
        f"{len(checked) - failing - unchecked} of {len(checked)} samples pass"
        + (f", {failing} fail" if failing else "")
        + (f", {unchecked} could not be validated" if unchecked else "")
        + (f"; {len(skipped)} lines of the data set were skipped (listed below)"
           if skipped else "")))
    return _page("Provenance evaluation", head, _summary(summary), outputs, verdict, skipped)


@cache
def _template():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    environment = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True,
                              undefined=StrictUndefined, keep_trailing_newline=True)
    return environment.get_template("report.html")


def _page(title: str, head: list[str], summary: View | None, outputs: list[View],
          verdict: View, skipped: Sequence[str] = ()) -> str:
    kinds = Counter(s.kind for output in outputs for s in output.sentences if s.kind)
    return _template().render(title=title, head=head, summary=summary, outputs=outputs,
                              verdicts=LABELS, verdict=verdict, skipped=list(skipped),
                              kinds=kinds.most_common())


def _output(key: str, title: str, checked: Checked, source_names: Sequence[str]) -> View:
    """What the template shows of one checked output."""
    example, report = checked.example, checked.report
    output = View(id=_id(key), title=title, question=example.question, error=checked.error,
                  grounded_qa=None, sentences=[], pieces=[], sources=[])
    if report is None:
        output.error = output.error or "no result"
        output.verdict = View(passed=False, text=f"not validated: {output.error}")
        return output
    output.verdict = _verdict(report)
    output.sources = _sources(example.sources, source_names, report.sentences)
    summary = report.summary
    output.faithfulness = _score(summary.faithfulness)
    output.level = str(summary.level)
    output.counts = ", ".join(f"{summary.counts.get(v, 0)} {v}" for v in LABELS) + (
        f", {summary.not_claims} not a claim" if summary.not_claims else "")
    if checked.grounded_qa:
        output.grounded_qa = [
            (name.replace("_", " "), metric.status if metric.score is None else str(metric.score),
             metric.reason) for name, metric in checked.grounded_qa.items()]
    ordered = sorted(report.sentences, key=lambda r: r.sentence.start)
    output.pieces = _pieces(example.output, ordered, key)
    output.sentences = [_sentence(_id(key, n), result, source_names)
                        for n, result in enumerate(ordered, 1)]
    return output


def _verdict(report: Report) -> View:
    """The text's outcome in one line: passes or fails, and why."""
    failing, judged = report.failing, report.summary.judged
    if not failing:
        text = ("passes: nothing in it asserts anything to check" if not judged else
                f"passes: {'the' if judged == 1 else 'all'} {judged} judged sentence"
                f"{'' if judged == 1 else 's'} {'is' if judged == 1 else 'are'} supported")
        return View(passed=True, text=text)
    why = Counter(str(r.citation.status if r.citation.fails else r.label).replace("_", " ")
                  for r in failing)
    reasons = ", ".join(f"{count} {reason}" for reason, count in why.items())
    return View(passed=False, text=f"fails: {len(failing)} of {judged} judged sentence"
                f"{'' if judged == 1 else 's'} fail ({reasons})")


SOURCE_SHOWN = 20_000  # characters of each source the page holds; the rest is summed up


def _sources(texts: Sequence[str], names: Sequence[str], results: Sequence[SentenceResult]
             ) -> list[View]:
    """Each source with its name, size, the sentences whose best evidence it gave, and its
    text (cut to ``SOURCE_SHOWN`` characters)."""
    used = Counter(r.evidence[0].source for r in results if r.evidence)
    shown = []
    for n, text in enumerate(texts):
        rest = len(text) - SOURCE_SHOWN
        shown.append(View(name=_source(names, n), size=f"{len(text):,} characters",
                          used=used.get(n, 0), text=text[:SOURCE_SHOWN],
                          rest=f"… {rest:,} more characters" if rest > 0 else ""))
    return shown


def _pieces(text: str, ordered: Sequence[SentenceResult], key: str) -> list[View]:
    """The text cut into plain runs and highlighted sentences; every character once, even
    when offsets overlap or run past the end."""
    pieces, at = [], 0
    for n, result in enumerate(ordered, 1):
        start, end = max(result.sentence.start, at), result.sentence.end
        pieces.append(View(text=text[at:start], anchor=None))
        pieces.append(View(text=text[start:end], anchor=_id(key, n), verdict=result.label,
                           kind=_kind(result)))
        at = max(at, end)
    pieces.append(View(text=text[at:], anchor=None))
    return pieces


def _sentence(anchor: str, result: SentenceResult, source_names: Sequence[str]) -> View:
    verdict, citation = result.verdict, result.citation
    if verdict is None:
        return View(id=anchor, verdict=result.label, text=result.sentence.text, kind=None,
                    read_as=None, reason=f"not a claim ({result.not_a_claim}): not judged",
                    score=_score(None), reply=None, decided_by=None, citation=None, claims=[], evidence=[],
                    correction=None)
    shown_citation = None
    if citation.status != NONE:
        cited = ", ".join(_source(source_names, n - 1) for n in citation.cited)
        other = ", ".join(_source(source_names, n - 1) for n in citation.uncited_support)
        shown_citation = (str(citation.status).replace("_", " ")
                          + (f" (cites {cited})" if cited else "")
                          + (f"; {other} would support it" if other else ""))
    judged = result.read_as or result.sentence.text  # what the evidence is marked against
    evidence = [View(runs=marked(judged, e.text, verdict.label), number=n,
                     where=_source(source_names, e.source) + (
                         "" if e.similarity is None else f", similarity {e.similarity:.2f}"))
                if e.said is None and e.tool is None else
                View(runs=marked(judged, e.text if e.said is None else e.said.text,
                                 verdict.label), number=n,
                     where=f"{from_conversation(e)} of the conversation")
                for n, e in enumerate(result.evidence, 1)]
    claims = ([View(text=c.text, verdict=c.verdict.label) for c in result.claims]
              if result.split_into_claims else [])
    return View(id=anchor, verdict=verdict.label, text=result.sentence.text, kind=_kind(result),
                read_as=result.read_as, reason=verdict.reason, reply=verdict.reply,
                score=_score(verdict.score),
                decided_by=verdict.decided_by, citation=shown_citation, claims=claims,
                evidence=evidence, correction=_correction(result.correction))


def _kind(result: SentenceResult) -> str | None:
    """What a failing sentence gets wrong, as the page names it ("failed tool"); None for one
    that passes, or whose judge did not say."""
    kind = result.named_kind
    return None if kind is None else str(kind).replace("_", " ")


def _correction(correction: Correction | None) -> View | None:
    """A correction as the page shows it: whether the fix uses it (or why not), and the words
    the rewrite removes and adds."""
    if correction is None:
        return None
    rewrite = correction.text or correction.rewrite
    if correction.used:
        status = "used in the fix"
    else:
        status = f"not used, the sentence is removed: {correction.reason}"
    return View(status=status, used=correction.used,
                diff=_diff(correction.original, rewrite) if rewrite else [])


def _diff(before: str, after: str) -> list[View]:
    """Word runs of ``before`` and ``after``: kept (``same``), removed (``del``), added
    (``ins``), in reading order."""
    old, new = _WORDS.findall(before), _WORDS.findall(after)
    runs = []
    for op, a, b, c, d in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            runs.append(View(kind="same", text="".join(old[a:b])))
            continue
        if a < b:
            runs.append(View(kind="del", text="".join(old[a:b])))
        if c < d:
            runs.append(View(kind="ins", text="".join(new[c:d])))
    return runs


_WORDS = re.compile(r"\S+\s*")


_LEVEL_CLASS: dict[str, str] = {FULLY: "v-supported", PARTIALLY: "v-unsupported",
                                UNGROUNDED: "v-unsupported", CONTRADICTORY: "v-contradicted"}
_FILL = {"v-supported": "#5cb85f", "v-unsupported": "#e0a800", "v-contradicted": "#d9534f",
         "v-invalid": "#999"}


def _summary(summary: EvalSummary) -> View:
    samples = summary.samples or 1
    failing = summary.failing_share
    charts = [_chart("Outcome", [
        ("pass", round((1 - failing) * summary.samples) if failing is not None else 0,
         samples, "v-supported"),
        ("fail", round(failing * summary.samples) if failing is not None else 0, samples,
         "v-contradicted")])]
    levels = summary.levels
    charts.append(_chart("Groundedness level", [
        (level, levels.get(level, 0), samples, _LEVEL_CLASS.get(level, "v-invalid"))
        for level in CHART_LEVELS if level in levels or level != "None"]))
    if summary.grounded_qa:
        charts.append(_chart("Grounded QA (GroUSE), mean", [
            (name.replace("_", " "), row.mean or 0.0, float(TOP_SCORE.get(name, 1)),
             "v-supported") for name, row in summary.grounded_qa.items()], decimals=2))
    labelled = ([] if summary.labelled is None else
                [(name.replace("_", " "), _number(value, 3))
                 for name, value in summary.labelled.to_json().items()])
    return View(mean=_number(summary.mean_faithfulness, 3), charts=charts, labelled=labelled,
                cost=summary.usage.line())


def _chart(title: str, rows: Sequence[tuple[str, float, float, str]], decimals: int = 0) -> View:
    """A horizontal bar chart (inline SVG): (label, value, full scale, class) per bar."""
    width, bar_height, label_width = 440, 22, 170
    bars = [View(label=label, shown=f"{value:.{decimals}f}", css=css, fill=_FILL[css],
                 y=26 + i * bar_height,
                 length=0 if not scale else (width - label_width - 60) * min(1.0, value / scale))
            for i, (label, value, scale, css) in enumerate(rows)]
    return View(title=title, width=width, height=bar_height * len(rows) + 30,
                bar_height=bar_height, label_width=label_width, bars=bars)


def _source(names: Sequence[str], index: int | None) -> str:
    if index is None:
        return "source"
    if 0 <= index < len(names):
        return names[index]
    return f"source {index + 1}"


def _id(key: str, sentence: int | None = None) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in key)
    return f"o{safe}" if sentence is None else f"o{safe}-s{sentence}"


def _score(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _number(value, decimals: int) -> str:
    if value is None:
        return "n/a"
    return f"{value:.{decimals}f}" if isinstance(value, float) else str(value)
