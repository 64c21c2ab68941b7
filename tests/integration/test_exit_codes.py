"""The command's exit codes tell a failure of the system from a verdict on the text: 0 passes,
1 the text fails, 2 usage or configuration, 3 verdicts could not be obtained (the judge
unreachable, credentials refused, every failing verdict a fallback), 4 some samples of a data
set were bad. The result metadata says how many verdicts were fallbacks and why. Input files
that are not UTF-8 are named with the fix."""

import json

import pytest
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


def test_an_unreachable_judge_is_no_verdict_on_the_text(tmp_path, capsys, chat_server):
    """A server that is not running is said before the text is read; one that stops answering
    once the command is under way leaves every sentence without a verdict: 3 either way."""
    flags = ["--model", "openai/judge", "--api-base", closed_port_url(), "--api-key", "sk-test",
             "--deadline", "3", "--json"]
    assert check(tmp_path, f"{TRUE} {FALSE}", *flags) == 3
    captured = capsys.readouterr()
    assert captured.out == "" and "cannot reach the judge's server" in captured.err

    server = chat_server(lambda prompt: '{"reason": "ok", "verdict": "supported"}')
    server.faults = [("slow", 10)] * 4  # answers its model list, then no call in time
    assert check(tmp_path, f"{TRUE} {FALSE}", *model_flags(server), "--deadline", "2",
                 "--json") == 3
    captured = capsys.readouterr()
    summary = json.loads(captured.out)["groundedness"]
    assert sum(summary["fallbacks"].values()) == 2
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


@pytest.mark.parametrize("start,kind", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a PNG image"),
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "a PDF document"),
    (b"The tower is tall.\x00\x00\x01\x02", "a NUL byte at offset 18"),
], ids=["png", "pdf", "nul"])
@pytest.mark.parametrize("flag", ["--text", "--source"])
def test_a_binary_file_is_called_binary_not_told_to_change_encoding(tmp_path, usage_error, start,
                                                                     kind, flag):
    binary = tmp_path / "file.bin"
    binary.write_bytes(start + bytes(range(256)))
    answer = tmp_path / "answer.txt"
    answer.write_text(TRUE)
    files = {"--source": str(answer), "--text": str(answer), flag: str(binary)}
    for encoding in ([], ["--encoding", "latin-1"]):  # an encoding that reads any byte
        err = usage_error(["check", "--source", files["--source"], "--text", files["--text"],
                           *encoding])
        assert err.splitlines()[-1] == (
            f"provenance check: error: {binary} is a binary file ({kind}), not text: give a "
            "text file (for a PDF or Word document, extract its text first).")


def test_utf16_text_with_its_nul_bytes_is_text(tmp_path, capsys):
    answer = tmp_path / "answer.txt"
    answer.write_bytes(TRUE.encode("utf-16"))
    source = tmp_path / "source.txt"
    source.write_bytes(TRUE.encode("utf-16"))
    assert cli.main(["check", "--source", str(source), "--text", str(answer),
                     "--encoding", "utf-16"]) == 0
