"""Memory over a long-running process: 2,000 validations with distinct sources, after the
caches have filled towards their budgets, grow resident memory by less than 100 MB (every cache
of the package is bounded in bytes)."""

from pathlib import Path

import pytest
from conftest import ToyEmbedder, words_judge

from provenance_guard import ProvenanceLLM


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    pytest.skip("no /proc/self/status here")


def test_memory_stays_bounded_over_2000_validations_with_distinct_sources():
    validator = ProvenanceLLM(llm_callable=words_judge, cascade_verbatim=True)
    embed = ToyEmbedder(64)

    def once(n):
        source = f"Record {n}. " + " ".join(f"word{n}x{i}" for i in range(2500))  # ~20 KB
        validator.validate(f"Record {n} has word{n}x7.", {"sources": [source],
                                                           "embed_function": embed})

    for n in range(300):  # warm-up: the caches fill towards their budgets
        once(n)
    before = _rss_mb()
    for n in range(300, 2300):
        once(n)
    grown = _rss_mb() - before
    print(f"resident memory grew {grown:.1f} MB over 2,000 validations after warm-up")
    assert grown < 100
