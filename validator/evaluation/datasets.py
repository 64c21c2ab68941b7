"""Batch evaluation (``provenance eval``): a validator over a JSONL data set, resumable.

Input, one sample per line: ``{"id": ..., "output": "...", "sources": ["..."], "question":
"..." (optional), "messages": [{"role": "user", "content": "..."}, ...] (optional), "label": ...
(optional), "expected": "..." (optional), "kind": "..." (optional)}``. ``label`` says
whether the output is grounded: ``true``/``"pass"``/``"supported"`` (it should pass) or
``false``/``"fail"``/``"unsupported"``/``"hallucinated"`` (it should fail); ``kind``, for one
that should fail, what it gets wrong (a failure kind: ``number``, ``date``, ...). ``expected`` is a
reference answer, used by the grounded-QA metrics. GroUSE's field names are read too
(``actual_output``, ``references``, ``input``, ``expected_output``). A sample without ``id`` is
known by its line number.

Results go to a JSONL file, one line per sample, written and flushed as each sample finishes,
with a hash of the sample. Run again, samples whose result is there (same id, same hash) are
skipped; a last line cut short by a crash is dropped and recomputed. Ctrl-C stops cleanly:
what finished is kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

from ..storage import DEFAULT_ENCODING, read_jsonl
from ..text.conversation import check_messages
from ..types import FAILURE_KINDS, FailureKind, Usage
from .engine_options import DEFAULT_CONCURRENCY
from .examples import Checked, Example
from .suite import by_kind
from .summaries import Detection, EvalSummary

_TRUE = {"pass", "passes", "supported", "grounded", "faithful", "true", "yes", "1"}
_FALSE = {"fail", "fails", "unsupported", "hallucinated", "hallucination", "ungrounded",
          "false", "no", "0"}


_ALIASES = {"actual_output": "output", "references": "sources", "input": "question",
            "expected_output": "expected"}


def load_samples(path: str | Path, encoding: str = DEFAULT_ENCODING,
                 bad: list[str] | None = None) -> list[Example]:
    """The samples of a JSONL file, or of every ``*.jsonl`` file in a directory (in name
    order; ids must be unique across them). A bad line (not JSON, not text in ``encoding``, no
    sample, an id seen before) raises ``ValueError`` saying where; given a ``bad`` list, its
    message goes there instead and the other lines are read."""
    path = Path(path)
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    if not files:
        raise ValueError(f"{path} is a directory with no .jsonl file in it.")
    samples, seen = [], set()
    for file in files:
        for number, where, line, raw in read_jsonl(file, encoding,
                                                   None if bad is None else bad.append):
            default_id = f"line:{number}" if len(files) == 1 else f"{file.name}:{number}"
            try:
                sample = sample_of(raw, where, line, default_id)
                if sample.id in seen:
                    raise ValueError(f"{where}: id {sample.id!r} appears twice; ids must be "
                                     "unique.")
            except ValueError as error:
                if bad is None:
                    raise
                bad.append(str(error))
                continue
            seen.add(sample.id)
            samples.append(sample)
    return samples


def sample_of(raw: Any, where: str, text: str, default_id: str) -> Example:
    """One sample from its parsed JSON ``raw``; ``text`` is what its hash is taken of."""
    if isinstance(raw, dict):
        raw = {**{_ALIASES[k]: v for k, v in raw.items() if k in _ALIASES}, **raw}
    if not isinstance(raw, dict) or not isinstance(raw.get("output"), str) or not isinstance(
            raw.get("sources"), list):
        raise ValueError(f"{where}: a sample needs \"output\" (a string) and \"sources\" (a "
                         "list of strings).")
    question, expected, messages = raw.get("question"), raw.get("expected"), raw.get("messages")
    if messages is not None:
        check_messages(messages, f'{where}: "messages"')
    label = _label(raw.get("label"), where)
    return Example(str(raw.get("id", default_id)), raw["output"], raw["sources"],
                   question if isinstance(question, str) else None, label,
                   expected if isinstance(expected, str) and expected.strip() else None,
                   digest=hashlib.sha256(text.strip().encode("utf-8", "surrogatepass")).hexdigest(),
                   messages=None if messages is None else list(messages),
                   kind=_kind(raw.get("kind"), label, where))


def _kind(value: Any, label: bool | None, where: str) -> FailureKind | None:
    """A sample's ``kind``: what its output, labelled ungrounded, gets wrong."""
    if value is None:
        return None
    if label is not False:
        raise ValueError(f'{where}: "kind" says what an output labelled ungrounded gets wrong, '
                         'but its "label" is not false: give "label": false, or leave "kind" '
                         "out.")
    try:
        return FailureKind(str(value))
    except ValueError:
        raise ValueError(f'{where}: "kind" is {value!r}, not a failure kind: one of '
                         f"{', '.join(FAILURE_KINDS)}.") from None


def _label(value: Any, where: str) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(f"{where}: label {value!r} is neither grounded (true, \"pass\", "
                     "\"supported\") nor not (false, \"fail\", \"hallucinated\").")


def finished(results_path: Path) -> dict[str, dict]:
    """Results already written, by sample id. A last line cut short by a crash (no line end)
    is removed from the file, so that it is recomputed and the file stays one JSON object per
    line. Any other line that is not a result of ``provenance eval`` raises ``ValueError``
    and the file is left as it is: it may be someone else's file."""
    if not results_path.exists():
        return {}
    if not results_path.is_file():
        raise ValueError(f"{results_path} is not a file; pass --out a file path.")
    done, good_bytes = {}, 0
    with results_path.open("rb") as file:
        for number, raw in enumerate(file, 1):
            if not raw.endswith(b"\n"):
                break  # cut short by a crash: dropped and redone
            try:
                record = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError):
                record = None
            if not (isinstance(record, dict) and isinstance(record.get("id"), str)
                    and isinstance(record.get("sample_hash"), str)):
                raise ValueError(
                    f"{results_path}, line {number}, is not a result of provenance eval; this "
                    "file is not this command's results file. Nothing was changed: pass --out "
                    "another path."
                )
            done[record["id"]] = record
            good_bytes += len(raw)
    if good_bytes != results_path.stat().st_size:
        with results_path.open("r+b") as file:
            file.truncate(good_bytes)
    return done


def run_eval(
    samples: list[Example],
    validate: Callable[[Example], dict],
    results_path: Path,
    concurrency: int = DEFAULT_CONCURRENCY,
    progress: Callable[[int, int], None] | None = None,
    complete: Callable[[dict], bool] = lambda record: True,
    native_threads: int | None = None,
) -> list[dict]:
    """The threads engine over a results file: ``validate`` on every sample not already in
    ``results_path``, ``concurrency`` at a time (native threads capped, see ``threads.imap``)."""
    from .worker_threads import imap

    return collect(samples, results_path,
                   lambda todo: imap(validate, todo, concurrency, native_threads),
                   progress, complete)


def collect(
    samples: list[Example],
    results_path: Path | None,
    produce: Callable[[list[Example]], Generator[dict, None, None]],
    progress: Callable[[int, int], None] | None = None,
    complete: Callable[[dict], bool] = lambda record: True,
    limit: int | None = None,
) -> list[dict]:
    """Every engine's results, one way: the samples not already in ``results_path`` (same id
    and hash, and ``complete(record)``: a result lacking what this run adds is redone; at most
    ``limit`` of them) go to ``produce``, and each record it yields is appended to the file and
    synced before the next is taken, so an interruption loses only what was in flight. A record
    that is no result of this run's samples, or comes twice, stops the run (``RuntimeError``).
    ``results_path`` None keeps the records in memory only. Returns the results of all
    samples, in their order."""
    done = finished(results_path) if results_path is not None else {}
    todo = [s for s in samples
            if done.get(s.id, {}).get("sample_hash") != s.digest or not complete(done[s.id])]
    count, total = len(samples) - len(todo), len(samples)
    if limit is not None:
        todo = todo[:max(0, limit)]
    expected = {s.id for s in todo}
    if progress:
        progress(count, total)
    with _appender(results_path) as append, contextlib.closing(produce(todo)) as records:
        for record in records:
            if record.get("id") not in expected:
                raise RuntimeError(f"the engine returned a result for {record.get('id')!r}, "
                                   "which is not a sample of this run or came twice; stopped.")
            expected.discard(record["id"])
            append(record)
            done[record["id"]] = record
            count += 1
            if progress:
                progress(count, total)
    return [done[s.id] for s in samples if s.id in done]


@contextlib.contextmanager
def _appender(results_path: Path | None) -> Iterator[Callable[[dict], None]]:
    if results_path is None:
        yield lambda record: None
        return
    results_path.parent.mkdir(parents=True, exist_ok=True)
    # a lone surrogate becomes a \udxxx JSON escape
    with results_path.open("a", encoding="utf-8", errors="backslashreplace") as out:
        def append(record: dict) -> None:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            out.flush()
            os.fsync(out.fileno())

        yield append


def summarise(checked: list[Checked]) -> EvalSummary:
    """Over the examples validated (errors left out): mean faithfulness, share failing, level
    histogram; with labels, detection of ungrounded outputs (a failing validation is a
    positive): precision, recall, F1, balanced accuracy."""
    checked = [c for c in checked if c.report is not None]
    reports = [c.report for c in checked if c.report is not None]
    scores = [r.summary.faithfulness for r in reports if r.summary.faithfulness is not None]
    labelled = [c for c in checked if c.example.label is not None]
    return EvalSummary(
        samples=len(checked),
        mean_faithfulness=sum(scores) / len(scores) if scores else None,
        failing_share=sum(not c.passed for c in checked) / len(checked) if checked else None,
        levels=dict(Counter(str(r.summary.level) for r in reports)),
        # what the samples' model calls consumed (those of earlier runs when they were made)
        usage=sum((r.usage for r in reports if r.usage is not None), Usage()),
        labelled=_detection(labelled) if labelled else None,
        by_kind=by_kind(labelled) if labelled else None)


def _detection(labelled: list[Checked]) -> Detection:
    """Detection of ungrounded outputs (a failing validation is a positive)."""
    tp = sum(1 for c in labelled if not c.passed and c.example.label is False)
    fp = sum(1 for c in labelled if not c.passed and c.example.label is True)
    fn = sum(1 for c in labelled if c.passed and c.example.label is False)
    tn = sum(1 for c in labelled if c.passed and c.example.label is True)
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    specificity = tn / (tn + fp) if tn + fp else None
    f1 = (2 * precision * recall / (precision + recall)
          if precision and recall else (0.0 if precision == 0 or recall == 0 else None))
    rates = [x for x in (recall, specificity) if x is not None]
    return Detection(samples=len(labelled), true_positives=tp, false_positives=fp,
                     false_negatives=fn, true_negatives=tn, precision=precision, recall=recall,
                     f1=f1, balanced_accuracy=sum(rates) / len(rates) if rates else None)


def typed(examples: list[Example], records: list[dict]) -> list[Checked]:
    """The results file's records of ``examples``, typed again, in the examples' order."""
    by_id = {record["id"]: record for record in records}
    return [Checked.from_record(by_id[e.id], e) for e in examples if e.id in by_id]


def progress_bar(stream=None) -> Callable[[int, int], None]:
    """A one-line tqdm bar on ``stream`` (default: whatever ``sys.stderr`` is when it is made, or
    the stream under it when that is the command's neutralising wrapper: the bar's carriage
    returns are ours), shown from the first report, closed at the last."""
    from tqdm import tqdm

    stream = stream or getattr(sys.stderr, "raw", sys.stderr)
    bar = None

    def show(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = tqdm(total=total, file=stream, unit="sample", dynamic_ncols=True, leave=True)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return show
