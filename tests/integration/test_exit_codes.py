"""The command's exit codes tell a failure of the system from a verdict on the text: 0 passes,
1 the text fails, 2 usage or configuration, 3 verdicts could not be obtained (the judge
unreachable, credentials refused, every failing verdict a fallback), 4 some samples of a data
set were bad. The result metadata says how many verdicts were fallbacks and why. Input files
that are not UTF-8 are named with the fix."""

import json

from conftest import REPO, closed_port_url, model_flags

from provenance_guard import cli

SOURCES = ["--source", str(REPO / "examples/eiffel_history.txt"),
           "--source", str(REPO / "examples/eiffel_visiting.txt")]
TRUE = "The tower has three levels open to visitors."
FALSE = "The tower was painted gold in 2024."


def check(tmp_path, text, *flags):
    answer = tmp_path / "answer.txt"
    answer.write_text(text)
    return cli.main(["check", *SOURCES, "--text", str(answer), *flags])


def test_an_unreachable_judge_is_no_verdict_on_the_text(tmp_path, capsys):
    flags = ["--model", "openai/judge", "--api-base", closed_port_url(), "--api-key", "sk-test",
             "--deadline", "3", "--json"]
    assert check(tmp_path, f"{TRUE} {FALSE}", *flags) == 3
    captured = capsys.readouterr()
    summary = json.loads(captured.out)["groundedness"]
    assert sum(summary["fallbacks"].values()) == 2
    assert any("cannot reach the judge's server" in reason or "deadline" in reason
               for reason in summary["fallbacks"])
    assert "no verdict could be obtained" in captured.err.splitlines()[-1]


def test_refused_credentials_are_no_verdict_on_the_text(tmp_path, capsys, chat_server):
    server = chat_server(lambda prompt: '{"reason": "ok", "verdict": "supported"}')
    server.faults = [(401, {})] * 4
    assert check(tmp_path, TRUE, *model_flags(server)) == 3
    assert capsys.readouterr().err.splitlines()[-1] == (
        "provenance: the judge's provider refused the API key for 'openai/judge' (HTTP 401): "
        "check --api-key.")


def test_a_real_failure_beside_a_fallback_is_a_failure_of_the_text(tmp_path, capsys,
                                                                   chat_server):
    def reply(prompt):
        return "no verdict here" if "levels" in prompt.split("BEGIN STATEMENT")[-1] else (
            '{"reason": "no passage says so", "verdict": "unsupported"}')

    server = chat_server(reply)
    assert check(tmp_path, f"{TRUE} {FALSE}", *model_flags(server), "--json") == 1
    summary = json.loads(capsys.readouterr().out)["groundedness"]
    assert list(summary["fallbacks"].values()) == [1]
    assert next(iter(summary["fallbacks"])).startswith(
        "the judge's reply has no readable verdict (expected a reply ending in a JSON object")


def test_passing_and_failing_texts_keep_0_and_1(tmp_path, capsys, chat_server):
    server = chat_server(lambda prompt: '{"reason": "ok", "verdict": "supported"}')
    assert check(tmp_path, TRUE, *model_flags(server)) == 0
    capsys.readouterr()
    server = chat_server(lambda prompt: '{"reason": "no", "verdict": "unsupported"}')
    assert check(tmp_path, TRUE, *model_flags(server), "--json") == 1
    assert json.loads(capsys.readouterr().out)["groundedness"]["fallbacks"] == {}


def test_a_file_that_is_not_utf8_is_named_with_the_fix(tmp_path, usage_error, capsys):
    latin = tmp_path / "latin.txt"
    latin.write_bytes("Die Straße ist lang. The tower has three levels open to visitors."
                      .encode("latin-1"))
    answer = tmp_path / "answer.txt"
    answer.write_text(TRUE)
    err = usage_error(["check", "--source", str(latin), "--text", str(answer)])
    assert str(latin) in err and "UTF-8" in err and "iconv" in err and "--encoding" in err
    assert cli.main(["check", "--source", str(latin), "--text", str(answer),
                     "--encoding", "latin-1"]) == 0


def test_eval_reports_bad_samples_by_line_and_runs_the_rest(tmp_path, capsys):
    good = {"output": TRUE, "sources": [(REPO / "examples/eiffel_visiting.txt").read_text()]}
    data = tmp_path / "data.jsonl"
    data.write_bytes(b"\n".join([
        json.dumps({"id": "a", **good}).encode(),
        b"{not json",
        json.dumps({"id": "b", "sources": []}).encode(),  # no output
        json.dumps({"id": "c", **good, "output": "Stra\u00dfe"}, ensure_ascii=False).encode().replace(
            b"\xc3\x9f", b"\xdf"),  # a line that is not UTF-8
        json.dumps({"id": "a", **good}).encode(),  # the id again
        json.dumps({"id": "d", **good}).encode(),
    ]) + b"\n")
    code = cli.main(["eval", str(data), "--json"])
    captured = capsys.readouterr()
    assert code == 4
    summary = json.loads(captured.out)
    assert summary["samples"] == 2 and len(summary["bad_samples"]) == 4
    for line in (2, 3, 4, 5):
        assert any(f"line {line}" in bad for bad in summary["bad_samples"]), line
    results = [json.loads(line) for line in (tmp_path / "data.results.jsonl").read_text()
               .splitlines()]
    assert sorted(r["id"] for r in results) == ["a", "d"]
