"""What a validation's model calls consume, in its report and result metadata: calls, tokens
(the provider's, or counted when it reports none), cached tokens, and the cost from LiteLLM's
price table (offline); a model without a price says so and is never $0. LiteLLM talks over real
HTTP to a local OpenAI-compatible server."""

import json
import threading

import litellm
import pytest
from conftest import BAD, GOOD, ScriptedJudge, agrees, toy_metadata
from guardrails import Guard
from markupsafe import escape

from provenance_guard import ProvenanceLLM, Report
from provenance_guard.types import Usage

PRICED = "openai/gpt-4o-mini"  # in LiteLLM's bundled table


def priced_validator(server, **options):
    return ProvenanceLLM(llm_callable=PRICED, llm_kwargs={"api_base": server.url,
                                                          "api_key": "sk-test"}, **options)


def per_token(kind: str) -> float:
    return litellm.model_cost["gpt-4o-mini"][f"{kind}_cost_per_token"]


def test_a_priced_model_reports_its_tokens_and_cost(chat_server):
    server = chat_server(ScriptedJudge())
    server.usage = {"prompt_tokens": 800, "completion_tokens": 60, "total_tokens": 860}
    guard = Guard().use(priced_validator(server, on_fail="noop"))
    guard.validate(f"{GOOD} {BAD}", metadata=toy_metadata())
    usage = Report.from_guard(guard).usage
    assert (usage.calls, usage.prompt_tokens, usage.completion_tokens) == (1, 800, 60)
    assert usage.counted_calls == 0 and usage.cached_tokens is None and usage.unpriced == ""
    assert usage.cost_usd == pytest.approx(800 * per_token("input") + 60 * per_token("output"))
    assert usage.line() == (f"1 judge call, 800 prompt + 60 completion tokens, "
                            f"${usage.cost_usd:.6f}")


def test_cached_prompt_tokens_are_reported_and_priced_lower(chat_server):
    server = chat_server(ScriptedJudge())
    server.usage = {"prompt_tokens": 800, "completion_tokens": 60, "total_tokens": 860,
                    "prompt_tokens_details": {"cached_tokens": 512}}
    usage = priced_validator(server).check(f"{GOOD} {BAD}", toy_metadata()).usage
    assert usage.cached_tokens == 512
    assert usage.cost_usd < 800 * per_token("input") + 60 * per_token("output")


def test_a_model_without_a_price_says_so_and_is_never_free(chat_server):
    server = chat_server(ScriptedJudge())
    validator = ProvenanceLLM(llm_callable="openai/our-own-model",
                              llm_kwargs={"api_base": server.url, "api_key": "sk-test"})
    usage = validator.check(f"{GOOD} {BAD}", toy_metadata()).usage
    assert usage.calls == 1 and usage.cost_usd is None
    assert "no price for 'openai/our-own-model'" in usage.unpriced
    assert "cost unknown" in usage.line() and "$0" not in usage.line()


def test_tokens_a_provider_does_not_report_are_counted(chat_server):
    server = chat_server(ScriptedJudge())
    server.usage = None
    usage = priced_validator(server).check(f"{GOOD} {BAD}", toy_metadata()).usage
    [request] = server.requests
    prompt = request["body"]["messages"][0]["content"]
    assert usage.counted_calls == usage.calls == 1
    # cl100k_base: a few characters a token in English, whatever the exact count
    assert len(prompt) / 6 < usage.prompt_tokens < len(prompt) / 2
    assert 0 < usage.completion_tokens < 200
    assert usage.cost_usd is not None and usage.cost_usd > 0  # the table prices counted tokens


def test_a_callable_is_counted_and_its_price_is_unknown():
    judge = ScriptedJudge()
    usage = ProvenanceLLM(llm_callable=judge).check(f"{GOOD} {BAD}", toy_metadata()).usage
    assert usage.calls == len(judge.prompts) == 1 and usage.counted_calls == 1
    assert usage.prompt_tokens > 100 and usage.cost_usd is None
    assert "callable" in usage.unpriced


def test_claims_corrections_and_retried_statements_count_and_cached_replies_do_not():
    judge = ScriptedJudge(claims=lambda sentence: [sentence],
                          rewrite=lambda sentence, passages: "It is 330 metres tall.")
    validator = ProvenanceLLM(llm_callable=judge, validation_method="claim", on_fail="fix",
                              fix_mode="correct")
    text = f"{GOOD} It is 300 metres tall."
    first = validator.check(text, toy_metadata()).usage
    assert first.calls == len(judge.prompts)  # two extractions, a batch, a rewrite, its verdict
    assert len(judge.prompts) == 5 and len(judge.sentences) == 2 and len(judge.rewritten) == 1
    again = validator.check(text, toy_metadata()).usage
    assert len(judge.prompts) == 5  # every reply from the cache
    assert again == Usage()  # no call, $0


def test_the_offline_judge_costs_nothing():
    usage = ProvenanceLLM(llm_callable="local").check(GOOD, toy_metadata()).usage
    assert usage == Usage() and usage.cost_usd == 0.0


def test_concurrent_validations_each_count_their_own_calls(chat_server):
    server = chat_server(agrees)
    validator = priced_validator(server)
    usages: dict[int, Usage] = {}

    def run(n):  # a text of n sentences: one call
        text = " ".join(f"Sentence {i} of text {n}." for i in range(n))
        usages[n] = validator.check(text, toy_metadata()).usage

    threads = [threading.Thread(target=run, args=(n,)) for n in (2, 3, 4, 5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(server.requests) == 4
    assert all((u.calls, u.prompt_tokens) == (1, 10) for u in usages.values())


def test_the_usage_survives_the_metadata_round_trip_and_a_damaged_one_is_named(chat_server):
    server = chat_server(ScriptedJudge())
    result = priced_validator(server).validate(f"{GOOD} {BAD}", toy_metadata())
    report = Report.from_metadata(result.metadata)
    assert report.usage.calls == 1 and report.usage.cost_usd > 0
    damaged = {**result.metadata, "usage": {**result.metadata["usage"], "cost_usd": "free"}}
    with pytest.raises(ValueError,
                       match=r"metadata\['usage'\]\['cost_usd'\]: input should be a valid number"):
        Report.from_metadata(damaged)
    older = {k: v for k, v in result.metadata.items() if k != "usage"}
    assert Report.from_metadata(older).usage is None


def test_a_run_totals_what_its_samples_cost(tmp_path, chat_server, capsys):
    from conftest import model_flags, rows

    from provenance_guard import cli, evaluate

    server = chat_server(agrees)
    records = evaluate(rows(), llm_callable="openai/judge", llm_kwargs={
        "api_base": server.url, "api_key": "sk-test"})
    assert sum(r["usage"]["calls"] for r in records) == len(server.requests) == len(records)
    assert all(r["usage"]["prompt_tokens"] == 10 for r in records)
    data = tmp_path / "samples.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows()))
    server.requests.clear()
    argv = ["eval", str(data), *model_flags(server), "--no-cache", "--out",
            str(tmp_path / "results.jsonl")]
    cli.main([*argv, "--json", "--html", str(tmp_path / "report.html")])
    summary = json.loads(capsys.readouterr().out)
    calls = len(server.requests)
    assert summary["usage"]["calls"] == calls == len(rows())
    assert summary["usage"]["prompt_tokens"] == 10 * calls and summary["usage"]["cost_usd"] is None
    line = Usage(**summary["usage"]).line()
    assert escape(f"cost: {line}") in (tmp_path / "report.html").read_text()
    cli.main([*argv[:-1], str(tmp_path / "again.jsonl")])
    assert f"cost: {line}" in capsys.readouterr().out.splitlines()
