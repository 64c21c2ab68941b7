"""The HTML report (``provenance check --html``, ``provenance eval --html``): one self-contained
file, no network, that shows each output with its sentences highlighted by verdict; clicking a
sentence opens its verdict, reason, citation check, claims and evidence. A batch report starts
with a summary chart.

Every text in the page (outputs, sources, the judge's reasons) came from a model or a user and
is escaped: the report shows it, never runs it. The page's own script only opens the sentence
named in the address (``report.html#o1-s2``); without it, every sentence still opens on click.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from ..types import CONTRADICTORY, FULLY, INVALID, LABELS, LEVELS, NONE, PARTIALLY, UNGROUNDED
from .grounded_qa import TOP_SCORE

VERDICTS = LABELS
CHART_LEVELS = (*LEVELS, "None")  # "None": nothing was judged

_STYLE = """
body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; color: #222;
       padding: 0 1rem; overflow-wrap: anywhere; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
.meta { color: #555; }
.legend span { margin-right: 1rem; padding: 0 .3rem; }
.text { white-space: pre-wrap; border: 1px solid #ddd; padding: .8rem; border-radius: 4px; }
a.s { color: inherit; text-decoration: none; border-radius: 3px; padding: 0 1px; }
a.s:hover, a.s:focus { outline: 2px solid #333; }
.v-supported { background: #c8ecc9; }
.v-unsupported { background: #ffe08a; }
.v-contradicted { background: #ffb3b3; }
.v-invalid { background: #ddd; }
details { margin: .3rem 0; padding: .2rem .5rem; border-left: 4px solid #ccc; }
details.v-supported { border-color: #3a3; background: none; }
details.v-unsupported { border-color: #d90; background: none; }
details.v-contradicted { border-color: #d22; background: none; }
details[open] { background: #fafafa; }
summary { cursor: pointer; }
.label { font-weight: 600; text-transform: uppercase; font-size: .8rem; }
.evidence { margin: .3rem 0 .3rem 1rem; font-size: .93rem; }
.evidence q { display: block; color: #333; }
.evidence .where { color: #666; font-size: .85rem; }
.charts { display: flex; flex-wrap: wrap; gap: 1rem 2rem; }
table { border-collapse: collapse; } td, th { padding: .2rem .6rem; text-align: left; }
.error { color: #a00; }
"""

# Opens the sentence named by the address: a click on a highlighted sentence sets it.
_SCRIPT = """
function openNamed() {
  var id = decodeURIComponent(location.hash.slice(1));
  var target = id && document.getElementById(id);
  if (target && target.tagName === "DETAILS") { target.open = true; target.scrollIntoView(); }
}
window.addEventListener("hashchange", openNamed);
window.addEventListener("DOMContentLoaded", openNamed);
"""


@dataclass(frozen=True)
class Output:
    """One checked output: its text, the validator's per-sentence results, its summary."""

    key: str  # unique in the page: ids are built from it
    title: str
    text: str
    sentences: Sequence[dict]
    groundedness: dict | None
    source_names: Sequence[str]
    question: str | None = None
    error: str | None = None
    grounded_qa: dict | None = None  # the GroUSE metrics, as in the eval results


def render_check(output: Output, judge: str) -> str:
    """The page for one ``provenance check``."""
    return _page("Provenance check", f"<p class=meta>judge: {escape(judge)}</p>" + _legend()
                 + _output(output))


def render_eval(outputs: Sequence[Output], summary: dict, judge: str, data: str) -> str:
    """The page for a ``provenance eval`` run: the summary chart, then every sample."""
    head = (f"<p class=meta>data: {escape(data)} · judge: {escape(judge)} · "
            f"{summary['samples']} samples validated, {summary.get('errors', 0)} errors</p>")
    return _page("Provenance evaluation", head + _summary(summary) + _legend()
                 + "".join(_output(o) for o in outputs))


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
            f"<meta name=viewport content='width=device-width, initial-scale=1'>"
            f"<title>{escape(title)}</title><style>{_STYLE}</style><script>{_SCRIPT}</script>"
            f"</head><body><h1>{escape(title)}</h1>{body}</body></html>\n")


def _legend() -> str:
    return ("<p class=legend>" + "".join(f"<span class=v-{v}>{v}</span>" for v in VERDICTS)
            + " · click a sentence for its evidence</p>")


def _output(output: Output) -> str:
    parts = [f"<section class=output id='{_id(output.key)}'><h2>{escape(output.title)}</h2>"]
    if output.question:
        parts.append(f"<p class=meta>question: {escape(output.question)}</p>")
    if output.error:
        parts.append(f"<p class=error>not validated: {escape(output.error)}</p></section>")
        return "".join(parts)
    if output.groundedness:
        g = output.groundedness
        counts = ", ".join(f"{g['counts'].get(v, 0)} {v}" for v in VERDICTS)
        score = "n/a" if g["faithfulness"] is None else f"{g['faithfulness']:.2f}"
        parts.append(f"<p class=meta>faithfulness {score} · groundedness {escape(str(g['level']))}"
                     f" · {counts}</p>")
    if output.grounded_qa:
        parts.append(_qa_table(output.grounded_qa))
    sentences = sorted(output.sentences, key=lambda s: s["start"])
    parts.append("<div class=text>" + _highlighted(output, sentences) + "</div>")
    parts.append("<div class=sentences>" + "".join(
        _sentence(output, n, s) for n, s in enumerate(sentences, 1)) + "</div></section>")
    return "".join(parts)


def _highlighted(output: Output, sentences: Sequence[dict]) -> str:
    html, at = [], 0
    for n, sentence in enumerate(sentences, 1):
        start, end = max(sentence["start"], at), sentence["end"]
        html.append(escape(output.text[at:start]))
        html.append(f"<a class='s v-{_verdict(sentence)}' href='#{_id(output.key, n)}' "
                    f"title='{_verdict(sentence)}'>{escape(output.text[start:end])}</a>")
        at = max(at, end)
    html.append(escape(output.text[at:]))
    return "".join(html)


def _sentence(output: Output, n: int, sentence: dict) -> str:
    verdict = _verdict(sentence)
    rows = [f"<details id='{_id(output.key, n)}' class='v-{verdict}'><summary>"
            f"<span class=label>{verdict}</span> {escape(sentence['text'])}</summary>"]
    if sentence.get("reason"):
        rows.append(f"<p>why: {escape(sentence['reason'])}</p>")
    score, how = sentence.get("score"), sentence.get("decided_by")
    rows.append(f"<p class=meta>score {'n/a' if score is None else f'{score:.2f}'}"
                f"{f' · decided by {escape(how)}' if how else ''}</p>")
    citation = sentence.get("citation") or {}
    if citation.get("status") not in (None, NONE):
        status = escape(str(citation["status"]).replace("_", " "))
        cited = ", ".join(_source(output, n - 1) for n in citation.get("cited") or [])
        other = ", ".join(_source(output, n - 1) for n in citation.get("uncited_support") or [])
        rows.append(f"<p>citation: {status}" + (f" (cites {escape(cited)})" if cited else "")
                    + (f"; {escape(other)} would support it" if other else "") + "</p>")
    for claim in sentence.get("claims") or []:
        rows.append(f"<p>claim <span class='label v-{escape(claim['verdict'])}'>"
                    f"{escape(claim['verdict'])}</span> {escape(claim['text'])}</p>")
    evidence = sentence.get("evidence") or []
    if not evidence:
        rows.append("<p class=evidence>no evidence retrieved</p>")
    for item in evidence:
        similarity = item.get("similarity")
        where = _source(output, item.get("source")) + (
            "" if similarity is None else f", similarity {similarity:.2f}")
        rows.append(f"<div class=evidence><span class=where>{escape(where)}</span>"
                    f"<q>{escape(item['text'])}</q></div>")
    return "".join(rows) + "</details>"


def _qa_table(metrics: dict) -> str:
    rows = []
    for name, metric in metrics.items():
        shown = metric["status"] if metric["score"] is None else str(metric["score"])
        rows.append(f"<tr><th>{escape(name.replace('_', ' '))}</th><td>{escape(shown)}</td>"
                    f"<td>{escape(metric['reason'])}</td></tr>")
    return f"<table class=qa>{''.join(rows)}</table>"


def _summary(summary: dict) -> str:
    samples = summary["samples"] or 1
    failing = summary.get("failing_share")
    charts = [_bars("Outcome", [
        ("pass", round((1 - failing) * summary["samples"]) if failing is not None else 0,
         samples, "v-supported"),
        ("fail", round(failing * summary["samples"]) if failing is not None else 0, samples,
         "v-contradicted")])]
    levels = summary.get("levels", {})
    charts.append(_bars("Groundedness level", [
        (level, levels.get(level, 0), samples, _LEVEL_CLASS.get(level, "v-invalid"))
        for level in CHART_LEVELS if level in levels or level != "None"]))
    qa = summary.get("grounded_qa")
    if qa:
        charts.append(_bars("Grounded QA (GroUSE), mean", [
            (name.replace("_", " "), row["mean"] or 0.0,
             float(TOP_SCORE.get(name, 1)), "v-supported")
            for name, row in qa.items()], decimals=2))
    table = ""
    labelled = summary.get("labelled")
    if labelled:
        cells = "".join(f"<tr><th>{escape(k.replace('_', ' '))}</th><td>{_number(v)}</td></tr>"
                        for k, v in labelled.items())
        table = f"<h2>Against the labels (detecting ungrounded outputs)</h2><table>{cells}</table>"
    mean = summary.get("mean_faithfulness")
    return (f"<h2>Summary</h2><p class=meta>mean faithfulness {_number(mean)}</p>"
            f"<div class=charts>{''.join(charts)}</div>{table}")


_LEVEL_CLASS = {FULLY: "v-supported", PARTIALLY: "v-unsupported",
                UNGROUNDED: "v-unsupported", CONTRADICTORY: "v-contradicted"}
_FILL = {"v-supported": "#5cb85f", "v-unsupported": "#e0a800", "v-contradicted": "#d9534f",
         "v-invalid": "#999"}


def _bars(title: str, rows: Sequence[tuple[str, float, float, str]], decimals: int = 0) -> str:
    """A horizontal bar chart as inline SVG: (label, value, full scale, class) per bar."""
    width, bar_height, label_width = 440, 22, 170
    height = bar_height * len(rows) + 30
    body = [f"<svg class=chart role=img aria-label='{escape(title)}' width={width} "
            f"height={height}>"
            f"<text x=0 y=16 font-weight=600>{escape(title)}</text>"]
    for i, (label, value, scale, css) in enumerate(rows):
        y = 26 + i * bar_height
        length = 0 if not scale else (width - label_width - 60) * min(1.0, value / scale)
        shown = f"{value:.{decimals}f}"
        body.append(f"<text x=0 y={y + 15}>{escape(label)}</text>"
                    f"<rect class='bar {css}' data-label='{escape(label)}' data-value='{shown}' "
                    f"x={label_width} y={y + 3} width={length:.1f} height={bar_height - 6} "
                    f"fill='{_FILL[css]}'/>"
                    f"<text x={label_width + length + 6:.1f} y={y + 15}>{shown}</text>")
    return "".join(body) + "</svg>"


def _verdict(sentence: dict) -> str:
    verdict = sentence.get("verdict")
    return verdict if verdict in VERDICTS else INVALID


def _source(output: Output, index: int | None) -> str:
    if index is None:
        return "source"
    if 0 <= index < len(output.source_names):
        return output.source_names[index]
    return f"source {index + 1}"


def _id(key: str, sentence: int | None = None) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in key)
    return f"o{safe}" if sentence is None else f"o{safe}-s{sentence}"


def _number(value) -> str:
    if value is None:
        return "n/a"
    return f"{value:.3f}" if isinstance(value, float) else escape(str(value))
