"""Memory over a long-running process: 2,000 validations with distinct sources, after the
caches have filled towards their budgets, grow resident memory by less than 150 MB, and the
second thousand by less than 60 MB: nothing grows without bound (every cache of the package is
bounded in bytes).

Measured in a process of its own: the test runner's process carries what every earlier test left
in its heap (their validators, servers, and the allocator's fragments of them), which is not
this validator's growth."""

import json
import subprocess
import sys
import textwrap

import pytest
from conftest import REPO

LONG_RUN = textwrap.dedent("""
    import json, sys
    from pathlib import Path

    sys.path.insert(0, sys.argv[1])
    from conftest import ToyEmbedder, words_judge

    from provenance_guard import ProvenanceLLM


    def rss_mb():
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return None


    validator = ProvenanceLLM(llm_callable=words_judge, cascade_verbatim=True)
    embed = ToyEmbedder(64)


    def once(n):
        source = f"Record {n}. " + " ".join(f"word{n}x{i}" for i in range(2500))  # ~20 KB
        validator.validate(f"Record {n} has word{n}x7.", {"sources": [source],
                                                           "embed_function": embed})


    for n in range(300):  # warm-up: the caches fill towards their budgets
        once(n)
    before = rss_mb()
    for n in range(300, 1300):
        once(n)
    middle = rss_mb()
    for n in range(1300, 2300):
        once(n)
    after = rss_mb()
    print(json.dumps(None if before is None else [middle - before, after - middle]))
""")


def test_memory_stays_bounded_over_2000_validations_with_distinct_sources():
    done = subprocess.run([sys.executable, "-c", LONG_RUN, str(REPO / "tests")],
                          capture_output=True, text=True, timeout=1200, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    grown = json.loads(done.stdout.strip().splitlines()[-1])
    if grown is None:
        pytest.skip("no /proc/self/status here")
    first, second = grown
    print(f"resident memory grew {first:.1f} MB over the first 1,000 validations after warm-up "
          f"and {second:.1f} MB over the next 1,000")
    # what grows without bound grows in both thousands alike; the allocator's fragments, which
    # the machine's load changes (threads' arenas), settle in the first
    assert first + second < 150 and second < 60
