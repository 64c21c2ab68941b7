"""`provenance_guard.evaluate`: the eval command's per-sample function from Python, over dicts
and pandas DataFrames. Also the threads engine's native-thread cap and the requests-per-minute
pacer. The Spark recipe of docs/evaluation.md runs on a real Spark in `tests/system/test_spark.py`."""

from __future__ import annotations

import json
import math
import threading
import time

import pytest
from conftest import ScriptedJudge, outcome, rows

from provenance_guard import ConfigurationError, cli, evaluate
from provenance_guard.evaluation.worker_threads import imap, native_threads_for
from provenance_guard.judges.limits import Pacer
from provenance_guard.request import COMMAND_CHUNKING


def test_evaluate_gives_what_the_command_writes(tmp_path, capsys):
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in rows()))
    assert cli.main(["eval", str(data), "--json"]) == 1  # some samples fail
    capsys.readouterr()
    written = {r["id"]: r for r in map(json.loads, (tmp_path / "data.results.jsonl").open())}

    records = evaluate(rows(), llm_callable="local", metadata=COMMAND_CHUNKING.as_metadata())
    assert [r["id"] for r in records] == ["ok", "gold", "visits", "lifts"]
    # "lifts" is true but paraphrased: the offline judge fails closed
    assert [r["passed"] for r in records] == [True, False, False, False]
    assert records[2]["level"] == "contradictory"  # 9 million against the source's 6
    assert {r["id"]: outcome(r) for r in records} == {i: outcome(r) for i, r in written.items()}


def test_a_data_frame_in_gives_a_data_frame_out(tmp_path):
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame(rows() + [{"id": "bad", "output": "x", "sources": [None]}])
    assert math.isnan(frame.loc[4, "label"])  # a DataFrame's gap: absent, not a label
    results = evaluate(frame, llm_callable="local")
    assert list(results.columns) == ["id", "sample_hash", "label", "passed", "faithfulness",
                                     "level", "counts", "kinds", "sentences", "usage", "error"]
    assert list(results["id"]) == ["ok", "gold", "visits", "lifts", "bad"]
    assert list(results["passed"][:4]) == [True, False, False, False]
    # what each failing sentence gets wrong, a column to count by
    assert results["kinds"][0] == [] and all(results["kinds"][n] for n in (1, 2, 3))
    assert results["label"][4] is None and "sources'][0]" in results["error"][4]
    assert evaluate(frame.head(1), llm_callable="local", as_frame=False)[0]["passed"] is True


def test_results_file_is_resumed_and_nothing_is_judged_twice(tmp_path):
    judge = ScriptedJudge()
    out = tmp_path / "results.jsonl"
    first = evaluate(rows(), llm_callable=judge, out=out, concurrency=2)
    calls = len(judge.statements)
    assert calls == 4 and len(out.read_text().splitlines()) == 4
    again = evaluate(rows(), llm_callable=judge, out=out)
    assert len(judge.statements) == calls and again == first


@pytest.mark.parametrize("call,message", [
    (lambda: evaluate(rows(), llm_callable="local", engine="spark"), "'threads', 'ray'"),
    (lambda: evaluate(rows(), llm_callable="local", rpm=60), "sends none"),
    (lambda: evaluate(rows(), llm_callable="local", concurrency=0), "concurrency"),
    (lambda: evaluate(rows(), llm_callable="local", address="127.0.0.1:1"), "engine='ray'"),
    (lambda: evaluate(rows(), llm_callable="local", top_kk=2), "did you mean 'top_k'"),
    (lambda: evaluate(rows()[0], llm_callable="local"), "iterable of dicts"),
    (lambda: evaluate([{"output": "x"}], llm_callable="local"), 'needs "output"'),
    (lambda: evaluate(rows() + rows(), llm_callable="local"), "appears twice"),
])
def test_bad_settings_and_samples_are_refused_before_any_work(call, message):
    with pytest.raises(ValueError, match=None) as raised:
        call()
    assert message in str(raised.value)


def test_the_threads_engine_caps_native_threads_while_it_runs():
    import torch

    before = torch.get_num_threads()
    seen = list(imap(lambda _: torch.get_num_threads(), range(4), concurrency=4,
                     native_threads=1))
    assert seen == [1, 1, 1, 1] and torch.get_num_threads() == before
    assert native_threads_for(4, cpus=2) == 1 and native_threads_for(2, cpus=8) == 4
    assert native_threads_for(1, cpus=0.5) == 1


def test_the_pacer_spaces_requests_from_every_thread():
    judge = ScriptedJudge()
    times, lock = [], threading.Lock()

    def timed(prompt):
        with lock:
            times.append(time.monotonic())
        return judge(prompt)

    evaluate(rows(), llm_callable=timed, rpm=600, concurrency=4)  # 0.1 s apart
    times.sort()
    assert len(times) == 4
    # measured where the calls arrive: a thread a busy machine wakes late shortens the gap
    # after it, never the span (unpaced, four threads arrive within milliseconds)
    assert times[-1] - times[0] >= 3 * 0.1 - 0.02, times
    assert min(b - a for a, b in zip(times, times[1:], strict=False)) >= 0.05, times
    pacer = Pacer(60)
    assert pacer.reserve() == 0 and 0.99 < pacer.reserve() <= 1.0
    with pytest.raises(ConfigurationError, match="positive"):
        Pacer(0)
