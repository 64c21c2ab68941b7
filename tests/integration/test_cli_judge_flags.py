"""Every judge flag a subcommand documents takes effect there, seen at the local model server:
a reply schema in the request (``--structured-replies on``), a control statement among the
statements (``--control-statements on``), calls in flight (``--max-calls-in-flight``). Each is
checked against the same run without the flag, so that a flag that is ignored fails; a judge
flag the offline judge cannot take is refused, naming the flag."""

from __future__ import annotations

import json

import pytest
from conftest import REPO, ScriptedJudge, model_flags

from provenance_guard import cli

SOURCE = REPO / "examples/eiffel_history.txt"
TEXT = ("The Eiffel Tower was finished in 1889. It was built for the World's Fair. "
        "It is made of iron. It was painted gold in 2024.")


def run_check(tmp_path, server, *flags: str) -> int:
    answer = tmp_path / "answer.txt"
    answer.write_text(TEXT)
    return cli.main(["check", "--source", str(SOURCE), "--text", str(answer), "--json",
                     *model_flags(server), *flags])


def run_eval(tmp_path, server, *flags: str) -> int:
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps({"id": f"s{n}", "output": f"{TEXT} It has {n} floors.",
                                        "sources": [SOURCE.read_text()]}) + "\n"
                            for n in range(4)))
    out = tmp_path / f"out-{len(list(tmp_path.iterdir()))}.jsonl"
    return cli.main(["eval", str(data), "--out", str(out), "--no-cache", "--concurrency", "4",
                     "--json", *model_flags(server), *flags])


RUNS = {"check": run_check, "eval": run_eval}


@pytest.fixture
def judged(chat_server, tmp_path, capsys):
    """``judged(command, *flags)``: the scripted judge behind a local server, after the command
    ran with those flags, and the requests the server received."""

    def judge_with(command: str, *flags: str):
        judge = ScriptedJudge(latency=0.2)
        server = chat_server(judge)
        RUNS[command](tmp_path, server, *flags)
        capsys.readouterr()
        return judge, server.requests

    return judge_with


@pytest.mark.parametrize("command", list(RUNS))
def test_structured_replies_on_sends_the_reply_schema(judged, command):
    _, plain = judged(command, "--structured-replies", "off")
    _, structured = judged(command, "--structured-replies", "on", "--control-statements", "off")
    assert plain and all("response_format" not in r["body"] for r in plain)
    assert structured and all(r["body"]["response_format"]["type"] == "json_schema"
                              for r in structured)


@pytest.mark.parametrize("command", list(RUNS))
def test_control_statements_on_puts_a_control_among_the_statements(judged, command):
    plain, _ = judged(command, "--control-statements", "off")
    controlled, _ = judged(command, "--control-statements", "on")
    sentences = 4 if command == "check" else 5  # each text in one call
    assert plain.batches and {len(batch) for batch in plain.batches} == {sentences}
    assert controlled.batches and {len(batch) for batch in controlled.batches} == {sentences + 1}


@pytest.mark.parametrize("command", list(RUNS))
def test_max_calls_in_flight_bounds_the_calls_the_server_sees_at_once(judged, command):
    one_a_call = ("--batch-size", "1")  # four calls a text
    free, _ = judged(command, *one_a_call)
    held, _ = judged(command, *one_a_call, "--max-calls-in-flight", "1")
    assert free.max_in_flight > 1 and held.max_in_flight == 1


@pytest.mark.parametrize("command", list(RUNS))
@pytest.mark.parametrize("flags, names", [
    (("--structured-replies", "on"), "--structured-replies on"),
    (("--max-calls-in-flight", "4"), "--max-calls-in-flight 4"),
])
def test_a_judge_flag_the_offline_judge_cannot_take_is_refused(tmp_path, capsys, command, flags,
                                                                names):
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"id": "s", "output": TEXT, "sources": ["x"]}) + "\n")
    argv = (["check", "--source", str(SOURCE), "--text", str(data), *flags] if command == "check"
            else ["eval", str(data), "--out", str(tmp_path / "out.jsonl"), *flags])
    assert cli.main(argv) == 2
    said = capsys.readouterr().err
    assert f"{names} cannot take effect" in said and "offline rule checker" in said, said
