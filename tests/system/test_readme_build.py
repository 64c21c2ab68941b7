"""A new user building the README's local model server on a small machine: the README's
llama.cpp lines run as written in a fresh virtual environment with an empty pip cache
(``tools/readme_build.py``: once per machine, kept; ``.ci/run`` runs it before the tests and
installs what it built for the real-model tests), with the time and the peak memory of the
whole build printed; then the README's line that starts the server, as written, serves.

The build's figures are the README's: it states them, and this test fails when they drift
from what the build took here."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
import urllib.request

import pytest
from conftest import REPO
from readme_build import build, readme_block

README = (REPO / "README.md").read_text(encoding="utf-8")
MEMORY_MB = 8 * 1024  # what the build may use at its peak on a small machine: a third of 24 GB


@pytest.fixture(scope="module")
def built():
    if os.environ.get("PROVENANCE_LLAMA_REQUIRED") is None and not os.environ.get("CI"):
        pytest.skip("builds llama.cpp (several minutes): set PROVENANCE_LLAMA_REQUIRED=1")
    done = build()
    print(done.line())
    return done


def test_the_readme_build_finishes_with_bounded_jobs_and_memory(built):
    block = readme_block()
    assert 'LLAMA_CPP_BUILD_JOBS="$(nproc)"' in block  # no more compiler jobs than cores
    for off in ("TESTS", "EXAMPLES", "APP", "UI"):  # only what the server needs
        assert f"-DLLAMA_BUILD_{off}=OFF" in block
    assert (built.venv / "bin" / "llama-cpp-server").exists()
    assert built.peak_mb < MEMORY_MB, built.line()


def test_the_readme_states_the_measured_build(built):
    """The README's "N minutes on 2 cores, at most M GB" is what the build took here, within
    a factor a busy machine explains."""
    said = re.search(r"(\d+) to (\d+)\s+minutes\s+on\s+2\s+cores,\s+at\s+most\s+([\d.]+)\s+GB",
                     README)
    assert said, "the README states the build's time and memory"
    low, high, memory = int(said[1]), int(said[2]), float(said[3])
    assert built.seconds / 60 <= 2 * high, built.line()
    assert built.peak_mb / 1024 <= memory, built.line()
    assert low <= high


def test_the_readmes_server_line_serves(built):
    [line] = [line for line in readme_block().splitlines() if line.startswith("llama-cpp-server")]
    env = {**os.environ, "VIRTUAL_ENV": str(built.venv),
           "PATH": f"{built.venv / 'bin'}:{os.environ['PATH']}"}
    server = subprocess.Popen(["bash", "-c", f"{line}\nwait"], env=env, start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        ready = None
        for _ in range(240):
            try:
                with urllib.request.urlopen("http://127.0.0.1:8080/health", timeout=2) as answer:
                    ready = json.load(answer)
                    break
            except OSError:
                assert server.poll() is None, "the README's server line exited"
                time.sleep(0.5)
        assert ready == {"status": "ok"}, ready
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
