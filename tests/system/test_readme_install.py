"""A new user following the README from a checkout: its install lines run as written (a fresh
virtual environment, PyTorch's CPU build, the package), its telemetry line, then every Python
block it shows, in order, in one script, and its command line example. What they print is what
the README says they print; the offline quick start and the command run with the network cut
off (``unshare -n``); nothing prints an ``[nltk_data]`` line. The LLM block talks to a local
OpenAI-compatible server, reached through OpenAI's own base-address variable.

Slow (about three minutes here): pip installs every dependency into the new environment (from
its cache when it has one).
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from check_wheel import copy_checkout
from conftest import REPO, USER_HOME, ScriptedJudge, said

README = (REPO / "README.md").read_text(encoding="utf-8")
PYTHON = re.findall(r"```python\n(.*?)```", README, re.DOTALL)
BASH = re.findall(r"```bash\n(.*?)```", README, re.DOTALL)



def _offline() -> list[str]:
    """A command prefix that cuts the network off: a new network namespace."""
    if shutil.which("unshare") is None:
        pytest.fail("unshare (util-linux) is needed to run the README's examples offline")
    return ["unshare", "-n"] if os.geteuid() == 0 else ["unshare", "-rn"]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A checkout with the README's install block run in it as written (pip with the user's
    configuration and cache); then HOME is a fresh folder for what follows."""
    [install] = [block for block in BASH if "python3 -m venv" in block]
    checkout = copy_checkout(tmp_path_factory.mktemp("readme") / "checkout")
    outside = {key: value for key, value in os.environ.items()
               if key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    done = subprocess.run(["bash", "-e", "-c", install], cwd=checkout,
                          env={**outside, "HOME": USER_HOME},
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
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
