"""The README's Python examples, run as a newcomer would paste them: a real Guard, the real
default embedder; the LLM of the quick start is a LiteLLM model served over real HTTP by a
local OpenAI-compatible server. What each example prints is what the README says it prints."""

import contextlib
import io
import re

import pytest
from conftest import REPO, ScriptedJudge

README = (REPO / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, re.DOTALL)

pytestmark = pytest.mark.slow  # the real default embedder


def run(code: str, namespace: dict) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), namespace)
    return out.getvalue()


def said(code: str) -> list[str]:
    """What the README says a block prints: the ``# ...`` comments after a ``print(...)``
    line and the comment lines that follow it."""
    lines, shown = code.splitlines(), []
    for n, line in enumerate(lines):
        if line.lstrip().startswith("print(") and "#" in line:
            shown.append(line.split("#", 1)[1].strip())
        elif line.startswith("# ") and n and (lines[n - 1].startswith("    print(")
                                                or lines[n - 1].startswith("# ")):
            shown.append(line[2:])
    return shown


def test_the_readme_has_the_examples_this_test_runs():
    assert len(BLOCKS) == 4
    assert "Guard().use(ProvenanceLLM(" in BLOCKS[0] and "Guard.for_pydantic" in BLOCKS[1]
    assert "Report.from_guard(guard)" in BLOCKS[2] and "fix_empty" in BLOCKS[3]


def test_the_quick_start_with_an_llm_judge_over_http(chat_server):
    server = chat_server(ScriptedJudge())
    code = BLOCKS[0].replace(
        'llm_callable="gpt-4o-mini"',
        f'llm_callable="openai/judge", llm_kwargs={{"api_base": "{server.url}", '
        '"api_key": "sk-test"}')
    assert code != BLOCKS[0]
    out = run(code, {})
    assert out.splitlines() == said(BLOCKS[0]) == ["The Eiffel Tower was finished in 1889."]
    assert len(server.requests) == 2  # one judge call per sentence


def test_the_pydantic_example_passes_one_answer_and_fails_the_other_then_reads_the_results():
    namespace: dict = {}
    out = run(BLOCKS[1], namespace).splitlines()
    expected = said(BLOCKS[1])
    assert expected[0] == "True" and expected[1].startswith("Validation failed for field")
    assert out[:len(expected)] == expected
    out = run(BLOCKS[2], namespace).splitlines()
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
    run(BLOCKS[3], namespace)
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
