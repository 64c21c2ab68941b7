"""`provenance meta-eval`: a judge measured on labelled cases, with its prompt template,
tokens, cost and latency; LiteLLM over real HTTP to the local server."""

import json

import pytest
from conftest import SOURCES, agrees, model_flags

from provenance_guard import cli
from provenance_guard.evaluation.suite import SUITE, load_cases


def small_suite(tmp_path, n=4):
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(SUITE.read_text().splitlines(keepends=True)[:n]))
    return path


def case(case_id, kind, output, passes, verdict):
    return {"id": case_id, "type": kind, "sources": [SOURCES[0]], "output": output,
            "expected": {"passes": passes, "sentences": [{"verdict": verdict, "evidence": []}]}}


# What the local judge decides of each is certain: a verbatim statement, a changed number, a
# missing year, a changed year. The last two are labelled wrongly on purpose.
CASES = [
    case("stated", "paraphrase", "It is 330 metres tall.", True, "supported"),
    case("changed", "changed_number", "It is 300 metres tall.", False, "contradicted"),
    case("a gap labelled a contradiction", "unsupported_addition",
         "The Eiffel Tower was painted gold in 2024.", False, "contradicted"),
    case("a contradiction labelled supported", "paraphrase", "It was finished in 1899.", True,
         "supported"),
]


def test_the_report_on_labelled_cases_by_hand(tmp_path, capsys):
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in CASES))
    assert cli.main(["meta-eval", "--cases", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["by_type"] == {
        "paraphrase": {"cases": 2, "outcome_accuracy": 0.5, "sentence_accuracy": 0.5},
        "changed_number": {"cases": 1, "outcome_accuracy": 1.0, "sentence_accuracy": 1.0},
        # failed as it should, but called unsupported, not contradicted
        "unsupported_addition": {"cases": 1, "outcome_accuracy": 1.0, "sentence_accuracy": 0.0},
        "all": {"cases": 4, "outcome_accuracy": 0.75, "sentence_accuracy": 0.5},
    }
    assert report["balanced_accuracy"] == 0.75  # should fail: 2 of 2; should pass: 1 of 2
    assert report["confusion"] == {  # expected -> got; rows with nothing expected are left out
        "supported": {"supported": 1, "unsupported": 0, "contradicted": 1, "invalid": 0,
                      "not_a_claim": 0},
        "contradicted": {"supported": 0, "unsupported": 1, "contradicted": 1, "invalid": 0,
                         "not_a_claim": 0},
    }
    assert report["wrong"] == ["a contradiction labelled supported"]
    assert (report["judge"], report["judge_calls"], report["prompt_tokens"]) == ("local", 0, 0)
    assert (report["cost_usd"], report["median_call_latency_s"]) == (0.0, None)


def test_the_local_judge_on_the_whole_suite(capsys):
    assert cli.main(["meta-eval", "--json"]) == 0  # the suite the package ships
    report = json.loads(capsys.readouterr().out)
    cases = load_cases(SUITE)
    assert report["cases"] == len(cases) and report["judge"] == "local"
    assert set(report["by_type"]) == {c.type for c in cases} | {"all"}
    sentences = sum(len(c.sentences) for c in cases)
    assert sum(sum(row.values()) for row in report["confusion"].values()) == sentences
    for kind in ("changed_number", "changed_date", "negation"):  # what the rules are for
        assert report["by_type"][kind]["outcome_accuracy"] == 1.0, kind


@pytest.mark.parametrize("model,priced", [("openai/gpt-4o-mini", True), ("openai/judge", False)])
def test_cost_is_litellms_price_per_call_summed_or_none_without_a_price(tmp_path, chat_server,
                                                                         capsys, model, priced):
    import litellm

    server = chat_server(agrees)
    flags = model_flags(server)
    flags[flags.index("--model") + 1] = model
    assert cli.main(["meta-eval", "--cases", str(small_suite(tmp_path, 2)), *flags, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    calls = report["judge_calls"]
    assert calls == len(server.requests) > 0
    if not priced:
        assert report["cost_usd"] is None  # unknown, not free
        return
    price = litellm.model_cost["gpt-4o-mini"]  # each local reply: 10 prompt, 5 completion tokens
    per_call = 10 * price["input_cost_per_token"] + 5 * price["output_cost_per_token"]
    assert per_call > 0 and report["cost_usd"] == pytest.approx(calls * per_call)


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
    code = cli.main(["meta-eval", "--cases", str(small_suite(tmp_path)), *model_flags(server),
                     "--template", str(template), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and prompts and all(p.startswith("CUSTOM-TEMPLATE-MARK") for p in prompts)
    calls = report["judge_calls"]
    assert calls == len(server.requests) > 0
    assert (report["prompt_tokens"], report["completion_tokens"]) == (10 * calls, 5 * calls)
    assert report["median_call_latency_s"] > 0
    # an always-"supported" judge passes the paraphrases and misses every changed number
    assert report["by_type"]["paraphrase"]["outcome_accuracy"] == 1.0


@pytest.mark.parametrize("template,message", [
    ("Judge this: {passages}", "lacks ['statement']"),
    ("{statement} {passages} {secret}", "unknown fields ['secret']"),
    ("{statement} {passages} {", "not a valid format string"),
])
def test_a_broken_template_is_a_usage_error(tmp_path, template, message, usage_error):
    path = tmp_path / "judge.txt"
    path.write_text(template)
    assert message in usage_error(["meta-eval", "--cases", str(small_suite(tmp_path)), "--model",
                                   "openai/judge", "--template", str(path)])
