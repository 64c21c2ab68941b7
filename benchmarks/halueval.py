"""The shared HaluEval samples (tests/data, MIT): where each set keeps its source, its right and
hallucinated answers and its question, and the halves the benchmarks tune and report on."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


class HaluEvalSet(NamedTuple):
    file: str
    source: str  # the key of the knowledge the answers are judged against
    right: str  # the key of the right answer (should pass)
    wrong: str  # the key of the hallucinated answer (should fail)
    question: str | None


SETS = {
    "qa": HaluEvalSet("halueval-qa-sample/qa_one-turn_data.jsonl", "knowledge", "right_answer",
                      "hallucinated_answer", "question"),
    "summarisation": HaluEvalSet("halueval-summarization-sample/summarization_data.jsonl",
                                 "document", "right_summary", "hallucinated_summary", None),
    "dialogue": HaluEvalSet("halueval-dialogue-sample/dialogue_data.jsonl", "knowledge",
                            "right_response", "hallucinated_response", "dialogue_history"),
}


def records(name: str, half: str = "all") -> Iterator[dict]:
    """The records of one set: its first half (``tune``), second half (``report``, held out
    from tuning) or ``all``."""
    lines = (DATA / SETS[name].file).read_text(encoding="utf-8").splitlines()
    cut = len(lines) // 2
    chosen = {"tune": lines[:cut], "report": lines[cut:], "all": lines}[half]
    return map(json.loads, chosen)
