"""The README's examples, run as a newcomer would paste them: a real Guard, the real default
embedder; the LLM of the quick start is a LiteLLM model served over real HTTP by a local
OpenAI-compatible server; the command line example runs in a copy of the checkout's examples.
What each example prints is what the README says it prints. (tests/system/test_readme_install.py
runs them again in a fresh environment made by the README's install lines.)"""

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, ScriptedJudge, said

README = (REPO / "README.md").read_text(encoding="utf-8")
# the local-model block needs llama.cpp's server: tests/system/test_real_model.py runs it
BLOCKS = [block for block in re.findall(r"```python\n(.*?)```", README, re.DOTALL)
          if "openai/smollm2" not in block]

pytestmark = pytest.mark.slow  # the real default embedder


def run(code: str, namespace: dict) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), namespace)
    return out.getvalue()



def test_the_readme_has_the_examples_this_test_runs():
    assert len(BLOCKS) == 5
    assert 'llm_callable="local"' in BLOCKS[0] and 'llm_callable="gpt-4o-mini"' in BLOCKS[1]
    assert "Guard.for_pydantic" in BLOCKS[2] and "Report.from_guard(guard)" in BLOCKS[3]
    assert "fix_empty" in BLOCKS[4]


def test_the_quick_start_runs_offline_with_the_rule_judge():
    namespace: dict = {}
    assert run(BLOCKS[0], namespace).splitlines() == said(BLOCKS[0]) == [
        "The Eiffel Tower was finished in 1889."]


def test_the_quick_start_with_an_llm_judge_over_http(chat_server, monkeypatch):
    """The LLM variant as written: its model name, its key in the provider's variable; the
    provider's address pointed at a local server."""
    server = chat_server(ScriptedJudge())
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    namespace: dict = {}
    run(BLOCKS[0], namespace)
    assert run(BLOCKS[1], namespace).splitlines() == said(BLOCKS[1]) == [
        "The Eiffel Tower was finished in 1889."]
    assert len(server.requests) == 1  # one judge call for the text's two sentences
    assert all(request["body"]["model"] == "gpt-4o-mini" for request in server.requests)


def test_the_llm_quick_start_without_a_key_raises_what_the_readme_says(monkeypatch):
    from provenance_guard import JudgeAuthError

    for name in ("OPENAI_API_KEY", "OPENAI_ADMIN_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    namespace: dict = {}
    run(BLOCKS[0], namespace)
    shown = re.search(r"raises `JudgeAuthError: (.*?), \.\.\.`", README, re.DOTALL)
    with pytest.raises(JudgeAuthError) as raised:
        run(BLOCKS[1], namespace)
    assert str(raised.value).startswith(" ".join(shown.group(1).split()))


def test_the_command_line_example_as_written(tmp_path):
    """In a checkout (the examples/ folder), the command as the README shows it."""
    [command] = re.findall(r"```bash\n(provenance check .*?)```", README, re.DOTALL)
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    shutil.copy(REPO / ".gitignore", tmp_path / ".gitignore")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(tmp_path)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=600)
    shown = re.search(r"then a summary\s+\(`(.*?)\.\.\.`\)", README, re.DOTALL).group(1)
    summary = [line for line in done.stdout.splitlines() if "judged sentences supported" in line]
    assert summary and summary[0].startswith(" ".join(shown.split())), done.stdout
    assert done.returncode == 1 and "exits with status 1" in README
    assert "[nltk_data]" not in done.stderr + done.stdout
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "About 9 million people visit it each year." in page
    # what the example writes into a checkout, git does not show
    shown_by_git = subprocess.run([*git, "status", "--porcelain"], capture_output=True,
                                  text=True, check=True).stdout
    assert [line for line in shown_by_git.splitlines() if not line.startswith("A ")] == []


def test_the_pydantic_example_passes_one_answer_and_fails_the_other_then_reads_the_results():
    namespace: dict = {}
    out = run(BLOCKS[2], namespace).splitlines()
    expected = said(BLOCKS[2])
    assert expected[0] == "True" and expected[1].startswith("Validation failed for field")
    assert out[:len(expected)] == expected
    out = run(BLOCKS[3], namespace).splitlines()
    assert out[0] == ("contradicted It is 300 metres tall. the source gives '330 metres' where "
                      "the claim says '300 metres'")
    assert out[-1] == "False 0.0 contradictory"
    assert "330 metres tall" in "\n".join(out[1:-1])  # the evidence, with its offsets


def test_the_empty_fix_check_reads_the_report_of_an_emptied_text():
    from guardrails import Guard

    from provenance_guard import ProvenanceLLM, Report

    guard = Guard().use(ProvenanceLLM(llm_callable="local", on_fail="fix"))
    outcome = guard.validate("It was painted gold in 2024.",
                             metadata={"sources": ["The tower is 330 metres tall."]})
    assert outcome.validation_passed and not outcome.validated_output.strip()
    namespace = {"guard": guard, "answer": outcome.validated_output, "Report": Report}
    run(BLOCKS[4], namespace)
    assert namespace["answer"] == "I could not find this in the documents."


def test_the_readme_stays_a_short_package_description():
    """It is also the description on PyPI, where relative images break: a few hundred lines,
    and every image (if any) by an absolute address."""
    assert len(README.splitlines()) <= 300
    for image in re.findall(r"!\[[^\]]*\]\(([^)]+)\)|<img[^>]*src=['\"]?([^'\" >]+)", README):
        address = next(part for part in image if part)
        assert address.startswith("https://"), address
    for section in ("## Install", "## Quick start", "## Choosing a judge", "## What `on_fail` does"):
        assert section in README


def test_the_two_commands_are_the_makefile_s_and_ci_runs_the_test_one():
    """`make demo` and `make test`, as the README shows them, are targets of the Makefile, and
    .ci/run runs the README's test command (tests/system/test_readme_install.py runs the
    first in a copy of the checkout)."""
    [block] = [b for b in re.findall(r"```bash\n(.*?)```", README, re.DOTALL)
               if b.startswith("make demo")]
    assert [line.split("#")[0].strip() for line in block.splitlines()] == ["make demo",
                                                                            "make test"]
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    for target in ("demo", "test", "test-all"):
        assert re.search(rf"^{target}:", makefile, re.MULTILINE), target
    heavy = re.search(r"^HEAVY := (.*)$", makefile, re.MULTILINE).group(1)
    assert f'-m "not ({heavy})"' in README  # the command it shows is the one make runs
    assert "make --no-print-directory test " in (REPO / ".ci" / "run").read_text()
