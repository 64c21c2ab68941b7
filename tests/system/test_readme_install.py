"""A new user following the README from a checkout: its first command, ``make demo``, run as
written (a fresh virtual environment, PyTorch's CPU build, the package, then the example check,
which prints its report and writes report.html), its telemetry line, then every Python block it
shows, in order, in one script, and its command line example. What they print is what the
README says they print; the offline quick start and the command run with the network cut off
(``unshare -n``); nothing prints an ``[nltk_data]`` line. The LLM block talks to a local
OpenAI-compatible server, reached through OpenAI's own base-address variable. (Its second
command, ``make test``, is the one ``.ci/run`` runs.)

Slow the first time (about three minutes here): pip installs every dependency into the new
environment. The environment is then kept, beside pip's cache, for the next run with the same
Makefile, project file and Python: that run copies the checkout again, removes the package and
make's marks of its installs from the environment and runs ``make demo``, which installs it
again (a changed dependency list means a new environment).
"""

import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from check_wheel import copy_checkout
from conftest import REPO, USER_HOME, ScriptedJudge, said

README = (REPO / "README.md").read_text(encoding="utf-8")
# the local-model block needs llama.cpp's server: tests/system/test_real_model.py runs it
PYTHON = [block for block in re.findall(r"```python\n(.*?)```", README, re.DOTALL)
          if "openai/smollm2" not in block]
BASH = re.findall(r"```bash\n(.*?)```", README, re.DOTALL)



def _offline() -> list[str]:
    """A command prefix that cuts the network off: a new network namespace."""
    if shutil.which("unshare") is None:
        pytest.fail("unshare (util-linux) is needed to run the README's examples offline")
    return ["unshare", "-n"] if os.geteuid() == 0 else ["unshare", "-rn"]


def _checkout(install: str) -> Path:
    """The checkout the install lines run in: a fresh copy, holding the environment an earlier
    run made from the same install lines, project file and Python (without the package), or
    none."""
    key = hashlib.sha256("\0".join([install, (REPO / "pyproject.toml").read_text(encoding="utf-8"),
                                    sys.version, platform.machine()]).encode()).hexdigest()[:16]
    kept = Path(USER_HOME or Path.home(), ".cache", "provenance-guard-tests")
    folder = kept / f"readme-{key}"
    for other in kept.glob("readme-*"):  # one environment kept, not one per change
        if other != folder:
            shutil.rmtree(other, ignore_errors=True)
    checkout, venv = folder / "checkout", folder / "checkout" / ".venv"
    if not (folder / "installed").exists():
        shutil.rmtree(folder, ignore_errors=True)
    for entry in (checkout.iterdir() if checkout.is_dir() else ()):
        if entry.is_dir() and entry != venv:
            shutil.rmtree(entry)
        elif not entry.is_dir():
            entry.unlink()
    if venv.is_dir():
        subprocess.run([venv / "bin" / "python", "-m", "pip", "uninstall", "-q", "-y",
                        "provenance-guard"], check=True, capture_output=True)
        for mark in venv.glob(".installed*"):  # make installs again, as on a first run
            mark.unlink()
    checkout.mkdir(parents=True, exist_ok=True)
    return copy_checkout(checkout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A checkout with the README's first command run in it as written (pip with the user's
    configuration and cache), its output checked; then HOME is a fresh folder for what
    follows."""
    [first] = [block for block in BASH if block.startswith("make demo")]
    command = first.splitlines()[0].split("#")[0].strip()
    assert command == "make demo"
    checkout = _checkout(first + (REPO / "Makefile").read_text(encoding="utf-8"))
    # a new user's shell: not the one of a make that runs these tests (`make test`), whose
    # command-line variables (VENV=...) it exports to every command it runs
    outside = {key: value for key, value in os.environ.items()
               if key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "VENV", "PYTHON",
                              "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    done = subprocess.run(["bash", "-e", "-c", command], cwd=checkout,
                          env={**outside, "HOME": USER_HOME},
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (checkout.parent / "installed").touch()
    # what the README says it shows: the report, its summary, the page, the verdict's status
    assert "2 of 5 judged sentences supported (2 unsupported, 1 contradicted)" in done.stdout
    assert "contradicted" in done.stdout and "unsupported" in done.stdout
    assert (checkout / "report.html").stat().st_size > 0
    assert "exit status 1" in done.stdout.splitlines()[-1]
    assert "[nltk_data]" not in done.stdout + done.stderr
    for noise in ("Retrying", "Failed to export", "Transient error"):  # pip's, OpenTelemetry's
        assert noise not in done.stdout + done.stderr, done.stderr[-3000:]
    home = tmp_path_factory.mktemp("home")
    return checkout, {**outside, "HOME": str(home), "VIRTUAL_ENV": str(checkout / ".venv"),
                      "PATH": f"{checkout / '.venv' / 'bin'}:{os.environ['PATH']}"}


def test_the_telemetry_line_writes_the_guardrails_setting(installed):
    checkout, env = installed
    [line] = [block for block in BASH if ".guardrailsrc" in block]
    subprocess.run(["bash", "-e", "-c", line], cwd=checkout, env=env, check=True)
    assert "enable_metrics=false" in (Path(env["HOME"]) / ".guardrailsrc").read_text()


def test_every_python_block_in_order_prints_what_the_readme_says(installed, chat_server):
    checkout, env = installed
    server = chat_server(ScriptedJudge())
    (checkout / "readme_blocks.py").write_text("\n".join(PYTHON), encoding="utf-8")
    done = subprocess.run(["python", "readme_blocks.py"], cwd=checkout, capture_output=True,
                          text=True, timeout=600,
                          env={**env, "OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": server.url})
    assert done.returncode == 0, done.stderr[-3000:]
    printed = iter(done.stdout.splitlines())
    for line in (line for block in PYTHON for line in said(block)):
        assert line in printed, f"{line!r} not printed (in order):\n{done.stdout}"
    assert len(server.requests) == 1  # the LLM block: one judge call for its two sentences
    assert "[nltk_data]" not in done.stdout + done.stderr


def test_the_offline_quick_start_runs_with_no_network(installed):
    checkout, env = installed
    [quick_start] = [block for block in PYTHON if 'llm_callable="local"' in block
                     and "Guard()" in block]
    done = subprocess.run([*_offline(), "python", "-c", quick_start], cwd=checkout, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines() == said(quick_start)
    assert "[nltk_data]" not in done.stderr


def test_the_command_line_example_runs_with_no_network(installed):
    checkout, env = installed
    [command] = [block for block in BASH if block.startswith("provenance check")]
    done = subprocess.run([*_offline(), "bash", "-c", command], cwd=checkout, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stderr[-3000:]  # "exits with status 1": the text fails
    assert "2 of 5 judged sentences supported (2 unsupported, 1 contradicted)" in done.stdout
    assert (checkout / "report.html").stat().st_size > 0
    assert "[nltk_data]" not in done.stdout + done.stderr
