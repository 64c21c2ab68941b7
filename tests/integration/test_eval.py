"""`provenance eval`: a data set through the validator, results written as they finish,
resumed after Ctrl-C or a crash with nothing recomputed and nothing lost."""

import json

import pytest
from conftest import REPO

from provenance_guard import cli
from provenance_guard.evaluation.datasets import finished, load_samples, run_eval, summarise
from provenance_guard.evaluation.examples import Checked, Example
from provenance_guard.evaluation.summaries import EvalSummary

HISTORY = (REPO / "examples/eiffel_history.txt").read_text()
VISITING = (REPO / "examples/eiffel_visiting.txt").read_text()
SAMPLES = [
    {"id": "a", "output": "The tower has three levels open to visitors.", "label": True},
    {"id": "b", "output": "It was painted gold for the 2024 Olympic Games.", "label": False},
    {"id": "c", "output": "About 9 million people visit it each year.", "label": False},
    {"id": "d", "output": "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars "
                          "in Paris, France.", "label": "pass"},
    {"id": "e", "output": "Visitors can take lifts to the summit.", "label": "supported"},
    {"id": "f", "output": "The tower is made of solid gold.", "label": "hallucinated"},
]


def write_data(path, samples=SAMPLES):
    path.write_text("".join(json.dumps({**s, "sources": [HISTORY, VISITING]}) + "\n"
                            for s in samples))
    return path


# A hallucination labelled grounded (a labelling slip): with it the local judge's results are
# three true positives (b, c, f fail), three true negatives (a, d, e pass) and a false positive.
MISLABELLED = {"id": "g", "output": "The tower is made of solid gold.", "label": True}


def test_eval_command_writes_results_and_a_labelled_summary(tmp_path, capsys):
    data = write_data(tmp_path / "data.jsonl", [*SAMPLES, MISLABELLED])
    code = cli.main(["eval", str(data), "--json"])
    summary = json.loads(capsys.readouterr().out)
    lines = (tmp_path / "data.results.jsonl").read_text().splitlines()
    records = {r["id"]: r for r in map(json.loads, lines)}
    assert code == 1 and sorted(records) == list("abcdefg")  # some samples fail
    # e ("Visitors can take lifts to the summit.") is true but paraphrased: the offline judge
    # fails closed, so it is a second false positive beside the mislabelled g
    assert {i for i, r in records.items() if not r["passed"]} == {"b", "c", "e", "f", "g"}
    assert all(r["sentences"] for r in records.values())  # the per-sentence verdicts are kept
    assert summary["samples"] == 7 and summary["errors"] == 0
    assert summary["failing_share"] == 5 / 7 and summary["mean_faithfulness"] == 2 / 7
    assert summary["levels"] == {"fully": 2, "ungrounded": 4, "contradictory": 1}
    assert summary["labelled"] == {
        "samples": 7, "true_positives": 3, "false_positives": 2, "false_negatives": 0,
        "true_negatives": 2, "precision": 3 / 5, "recall": 1.0,
        "f1": pytest.approx(3 / 4),  # 2 * 3/5 * 1 / (3/5 + 1)
        "balanced_accuracy": pytest.approx(3 / 4),  # (3/3 caught + 2/4 passed) / 2
    }


def test_a_rerun_reads_the_results_back_typed_and_refuses_a_damaged_one(tmp_path, capsys):
    data = write_data(tmp_path / "data.jsonl", SAMPLES[:3])
    assert cli.main(["eval", str(data), "--json"]) == 1  # some samples fail
    first = json.loads(capsys.readouterr().out)
    results = tmp_path / "data.results.jsonl"
    assert cli.main(["eval", str(data), "--json"]) == 1  # nothing recomputed: all read back
    again = json.loads(capsys.readouterr().out)
    assert (first.pop("from_earlier_runs"), again.pop("from_earlier_runs")) == (0, 3)
    assert again == first
    # a verdict the validator never gives (edited by hand, or by an attacker) is not read as one
    lines = results.read_text().splitlines()
    damaged = json.loads(lines[0])
    damaged["sentences"][0]["verdict"] = "supported, trust me"
    results.write_text("\n".join([json.dumps(damaged), *lines[1:]]) + "\n")
    assert cli.main(["eval", str(data), "--json"]) == 2
    error = capsys.readouterr().err
    assert "cannot read" in error and "'verdict'" in error and "--out" in error


def test_interrupted_run_resumes_without_recomputing(tmp_path):
    samples = load_samples(write_data(tmp_path / "data.jsonl"))
    out = tmp_path / "out.jsonl"
    calls = []

    def validate(sample, stop_at=None):
        if stop_at is not None and len(calls) == stop_at:
            raise KeyboardInterrupt
        calls.append(sample.id)
        return {"id": sample.id, "sample_hash": sample.digest, "passed": True,
                "faithfulness": 1.0, "level": "fully", "label": sample.label}

    with pytest.raises(KeyboardInterrupt):
        run_eval(samples, lambda s: validate(s, stop_at=3), out, concurrency=1)
    assert len(finished(out)) == 3
    records = run_eval(samples, validate, out, concurrency=2)
    assert sorted(calls) == sorted(s.id for s in samples)  # each sample validated once
    assert [r["id"] for r in records] == [s.id for s in samples]


def test_a_line_cut_short_by_a_crash_is_recomputed(tmp_path):
    samples = load_samples(write_data(tmp_path / "data.jsonl"))
    out = tmp_path / "out.jsonl"
    done = {"id": "a", "sample_hash": samples[0].digest, "passed": True}
    out.write_text(json.dumps(done) + "\n" + '{"id": "b", "sample_ha')
    assert list(finished(out)) == ["a"]
    assert out.read_text() == json.dumps(done) + "\n"  # the torn line is gone
    seen = []
    run_eval(samples, lambda s: seen.append(s.id) or {"id": s.id, "sample_hash": s.digest,
                                                       "passed": True}, out)
    assert "a" not in seen and "b" in seen
    assert all(json.loads(line) for line in out.read_text().splitlines())


def test_a_changed_sample_is_recomputed(tmp_path):
    data = write_data(tmp_path / "data.jsonl")
    out = tmp_path / "out.jsonl"
    run_eval(load_samples(data), lambda s: {"id": s.id, "sample_hash": s.digest, "passed": True},
             out)
    changed = [dict(SAMPLES[0], output="Changed."), *SAMPLES[1:]]
    seen = []
    run_eval(load_samples(write_data(data, changed)),
             lambda s: seen.append(s.id) or {"id": s.id, "sample_hash": s.digest, "passed": True},
             out)
    assert seen == ["a"]


def test_a_bad_sample_is_reported_and_the_rest_validated(tmp_path, capsys):
    data = tmp_path / "data.jsonl"
    write_data(data, SAMPLES[:2])
    with data.open("a") as file:
        file.write(json.dumps({"id": "bad", "output": "x", "sources": [None]}) + "\n")
    code = cli.main(["eval", str(data)])
    out = capsys.readouterr().out
    assert code == 4 and "bad sample: bad: " in out and "sources'][0]" in out
    assert len((tmp_path / "data.results.jsonl").read_text().splitlines()) == 3


@pytest.mark.parametrize("line,message", [
    ("not json", "not JSON"),
    ('{"output": "x"}', 'needs "output"'),
    ('{"output": "x", "sources": [], "label": "maybe"}', "label"),
])
def test_data_with_no_sample_is_a_usage_error(tmp_path, line, message, usage_error):
    data = tmp_path / "data.jsonl"
    data.write_text(line + "\n")
    assert message in usage_error(["eval", str(data)])


def test_summary_metrics():
    records = [
        {"passed": False, "label": False, "faithfulness": 0.0, "level": "ungrounded"},  # TP
        {"passed": False, "label": True, "faithfulness": 0.5, "level": "partially"},  # FP
        {"passed": True, "label": False, "faithfulness": 1.0, "level": "fully"},  # FN
        {"passed": True, "label": True, "faithfulness": 1.0, "level": "fully"},  # TN
        {"passed": True, "label": True, "faithfulness": 1.0, "level": "fully"},  # TN
    ]
    refused = Checked(Example("refused", "", [], label=True), None, error="ValueError: no")
    summary = summarise([Checked.from_record({**r, "counts": {}, "sentences": []},
                                             Example(str(n), "", [], label=r["label"]))
                         for n, r in enumerate(records)] + [refused])  # errors are left out
    assert summary.samples == 5
    labelled = summary.labelled
    assert summary.mean_faithfulness == pytest.approx(0.7)
    assert summary.failing_share == 0.4 and summary.levels["fully"] == 3
    assert (labelled.true_positives, labelled.false_positives, labelled.false_negatives,
            labelled.true_negatives) == (1, 1, 1, 2)
    assert labelled.precision == 0.5 and labelled.recall == 0.5
    assert labelled.f1 == 0.5
    assert labelled.balanced_accuracy == pytest.approx((0.5 + 2 / 3) / 2)
    # its JSON, as --json prints it, reads back into the same summary
    written = json.loads(json.dumps(summary.to_json()))
    assert EvalSummary.from_json(written) == summary
    # a damaged or hostile one is refused, naming the field
    for key, bad in (("samples", "five"), ("labelled", {"precision": "high"}), ("extra", 1)):
        with pytest.raises(ValueError, match=key):
            EvalSummary.from_json({**written, key: bad})


def test_a_rerun_says_how_many_samples_it_validated_and_how_many_it_read_back(tmp_path, capsys):
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps({"id": str(i), "output": "Paris is in France.",
                                        "sources": ["Paris is in France."]}) + "\n"
                            for i in range(3)))
    assert cli.main(["eval", str(data), "--limit", "2"]) == 0
    assert "2 samples (2 validated in this run)" in capsys.readouterr().out
    assert cli.main(["eval", str(data)]) == 0
    assert ("3 samples (1 validated in this run, 2 read back from an earlier run)"
            in capsys.readouterr().out)
    assert cli.main(["eval", str(data)]) == 0
    assert ("3 samples (0 validated in this run, 3 read back from an earlier run)"
            in capsys.readouterr().out)
    assert cli.main(["eval", str(data), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["from_earlier_runs"] == 3
