"""`provenance meta-eval --judge SPEC` for every kind of judge (local, NLI checkpoint, MiniCheck
over an Ollama-speaking server, a LiteLLM model), and `--first-judge` (cheap first), with the
judge calls it saved."""

from __future__ import annotations

import json

from conftest import model_flags
from test_meta_eval import CASES
from test_minicheck import OllamaServer
from test_nli import build

from provenance_guard import cli


def run(capsys, *argv) -> dict:
    capsys.readouterr()
    assert cli.main(["meta-eval", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def cases_file(tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in CASES))
    return str(path)


def test_an_nli_checkpoint(tmp_path, capsys):
    # a head that always says contradiction: every case fails, each sentence contradicted
    folder = build(tmp_path / "nli", {0: "entailment", 1: "contradiction", 2: "neutral"}, [0, 5, 0])
    report = run(capsys, "--cases", cases_file(tmp_path), "--judge", f"nli:{folder}")
    assert report["judge"] == f"nli:{folder}"
    assert report["confusion"]["supported"] == {"supported": 0, "unsupported": 0,
                                                "contradicted": 2, "invalid": 0,
                                                "not_a_claim": 0}
    assert report["by_type"]["changed_number"]["sentence_accuracy"] == 1.0
    assert report["judge_calls"] == 0 and report["judge_calls_saved"] == 0


def test_minicheck_over_ollama(tmp_path, capsys):
    server = OllamaServer(lambda document, claim: "Yes" if "330" in claim else "No")
    try:
        report = run(capsys, "--cases", cases_file(tmp_path), "--judge",
                     "minicheck:ollama/bespoke-minicheck", "--api-base", server.url)
    finally:
        server.close()
    assert report["judge"] == "minicheck:ollama/bespoke-minicheck"
    assert report["judge_calls"] == len(server.prompts()) == 4
    assert all(p.startswith("Document: ") and "\nClaim: " in p for p in server.prompts())
    # Yes for the stated height only; No is never "contradicted"
    assert report["confusion"]["contradicted"]["contradicted"] == 0
    assert report["wrong"] == ["a contradiction labelled supported"]


def test_a_litellm_model_by_judge_and_cheap_first(tmp_path, chat_server, capsys):
    server = chat_server(lambda prompt: '{"reason": "ok", "verdict": "supported"}')
    flags = model_flags(server)
    flags[flags.index("--model")] = "--judge"
    alone = run(capsys, "--cases", cases_file(tmp_path), *flags)
    assert alone["judge"] == "openai/judge" and alone["judge_calls"] == 4 == len(server.requests)
    # the local judge first: it proves none of these ("It is 330 metres tall." names nothing
    # for "It"), and no kind of its verdicts has earned the 0.99 cheap first asks for, so every
    # sentence still reaches the model, whatever the band
    cheap = run(capsys, "--cases", cases_file(tmp_path), *flags, "--first-judge", "local")
    assert cheap["first_judge"] == "local" and cheap["confidence_band"] == [0.2, 0.8]
    assert cheap["judge_calls"] == 4 and cheap["judge_calls_saved"] == 0
    assert len(server.requests) == 4 + cheap["judge_calls"]
    wide = run(capsys, "--cases", cases_file(tmp_path), *flags, "--first-judge", "local",
               "--band", "0.5", "0.5")
    assert wide["judge_calls_saved"] == 0 and wide["judge_calls"] == 4


def test_judge_options_that_do_not_fit_are_usage_errors(tmp_path, usage_error):
    cases = cases_file(tmp_path)
    assert "give one" in usage_error(["meta-eval", "--cases", cases, "--judge", "local",
                                      "--model", "openai/judge"])
    template = tmp_path / "t.txt"
    template.write_text("{statement} {passages}")
    assert "--template needs a LiteLLM model" in usage_error(
        ["meta-eval", "--cases", cases, "--judge", "local", "--template", str(template)])
    assert "never downloads" in usage_error(["meta-eval", "--cases", cases, "--judge",
                                             f"nli:{tmp_path / 'nothing'}"])
    assert "llm_kwargs" in usage_error(["meta-eval", "--cases", cases, "--judge", "local",
                                        "--api-base", "http://127.0.0.1:9"])
