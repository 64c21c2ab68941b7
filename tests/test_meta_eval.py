"""`provenance meta-eval`: a judge measured on labelled cases, with its prompt template,
tokens, cost and latency; LiteLLM over real HTTP to the local server."""

import json

import pytest

from provenance_guard import cli
from provenance_guard.evaluation.suite import (
    SUITE,  # noqa: E402
    load_cases,
)


def small_suite(tmp_path, n=4):
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(SUITE.read_text().splitlines(keepends=True)[:n]))
    return path


def test_the_local_judge_on_the_whole_suite(capsys):
    assert cli.main(["meta-eval", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    cases = load_cases(SUITE)
    assert report["cases"] == len(cases) and report["judge"] == "local"
    assert set(report["by_type"]) == {c.type for c in cases} | {"all"}
    sentences = sum(len(c.sentences) for c in cases)
    assert sum(sum(row.values()) for row in report["confusion"].values()) == sentences
    right = sum(report["confusion"][label].get(label, 0) for label in report["confusion"])
    assert right / sentences >= report["by_type"]["all"]["sentence_accuracy"] - 1e-9
    assert report["judge_calls"] == 0 and report["prompt_tokens"] == 0


def test_a_model_judge_with_tokens_latency_and_an_edited_template(tmp_path, chat_server, capsys):
    prompts = []

    def reply(prompt):
        prompts.append(prompt)
        return '{"reason": "ok", "verdict": "supported"}'

    server = chat_server(reply)
    template = tmp_path / "judge.txt"
    assert cli.main(["meta-eval", "--write-template", str(template)]) == 0
    capsys.readouterr()
    text = template.read_text()
    assert "{statement}" in text and "{passages}" in text
    template.write_text("CUSTOM-TEMPLATE-MARK\n" + text)
    code = cli.main(["meta-eval", "--cases", str(small_suite(tmp_path)), "--model", "openai/judge",
                     "--api-base", server.url, "--api-key", "sk-test", "--template",
                     str(template), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and prompts and all(p.startswith("CUSTOM-TEMPLATE-MARK") for p in prompts)
    calls = report["judge_calls"]
    assert calls == len(server.requests) > 0
    assert (report["prompt_tokens"], report["completion_tokens"]) == (10 * calls, 5 * calls)
    assert report["cost_usd"] is None or report["cost_usd"] >= 0
    assert report["median_call_latency_s"] > 0
    # an always-"supported" judge passes the paraphrases and misses every changed number
    assert report["by_type"]["paraphrase"]["outcome_accuracy"] == 1.0


@pytest.mark.parametrize("template,message", [
    ("Judge this: {passages}", "lacks ['statement']"),
    ("{statement} {passages} {secret}", "unknown fields ['secret']"),
    ("{statement} {passages} {", "not a valid format string"),
])
def test_a_broken_template_is_a_usage_error(tmp_path, template, message, capsys):
    path = tmp_path / "judge.txt"
    path.write_text(template)
    with pytest.raises(SystemExit) as raised:
        cli.main(["meta-eval", "--cases", str(small_suite(tmp_path)), "--model", "openai/judge",
                  "--template", str(path)])
    assert raised.value.code == 2 and message in capsys.readouterr().err
