"""Engines side by side: `provenance eval` on HaluEval samples with the threads engine (native
threads capped, the default, and uncapped) and the Ray engine (a local Ray), each a whole
process timed from outside; then each engine's fixed cost and cost per sample, the per-sample
work measured in one process, and a projection of throughput and cost on N machines.

    python benchmarks/bench_engines.py [--samples 200] [--small 40] [--repeats 3]
        [--engines threads,threads-uncapped,ray] [--judge-latency 0.8] [--rpm 10000]
        [--sentences-per-call 1] [--machine-hour 0.10] [--cost-per-call 0.0002]
    python benchmarks/bench_engines.py --write-data data.jsonl --samples 200   # the data only

Each sample is a HaluEval question's knowledge text as the source, with its right answer
(labelled grounded) or its hallucinated answer (labelled not), alternately. The judge is the
local one (no LLM): what is timed is the engine and the embedding, not a provider. An engine's
fixed cost and cost per sample come from two sizes: per sample = (T(large) - T(small)) /
(large - small), fixed = T(large) - large * per sample.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "tests/data/halueval-qa-sample/qa_one-turn_data.jsonl"
BIN = Path(sys.executable).parent
ENGINES = {  # name -> extra `provenance eval` flags
    "threads": [],
    "threads-uncapped": ["--native-threads", "0"],
    "ray": ["--engine", "ray"],
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=200, help="the large run's samples")
    parser.add_argument("--small", type=int, default=40, help="the small run's samples")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each engine and size")
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--halueval", type=Path, default=DATA)
    parser.add_argument("--write-data", type=Path, metavar="FILE",
                        help="only write --samples samples to FILE and exit")
    parser.add_argument("--projection-only", action="store_true",
                        help="skip the engine runs: measure one sample's work on --small "
                        "samples and print the projection")
    projection = parser.add_argument_group("projection (assumptions, printed with the result)")
    projection.add_argument("--judge-latency", type=float, default=0.8,
                            help="seconds per LLM judge call (a hosted small model)")
    projection.add_argument("--sentences-per-call", type=float, default=1.0,
                            help="sentences judged per call (--batch-size)")
    projection.add_argument("--rpm", type=float, default=10_000,
                            help="the provider's requests per minute for the whole run")
    projection.add_argument("--calls-in-flight", type=int, default=32,
                            help="judge calls in flight per machine (concurrency x max_concurrency)")
    projection.add_argument("--cores", type=int, default=2, help="cores per machine")
    projection.add_argument("--machine-hour", type=float, default=0.10,
                            help="dollars per machine-hour (a 2-core cloud VM)")
    projection.add_argument("--cost-per-call", type=float, default=0.0002,
                            help="dollars per judge call (tokens of one prompt and reply)")
    projection.add_argument("--machines", default="1,2,4,8,16,32,64")
    return parser


def write_samples(source: Path, count: int, path: Path) -> None:
    rows = [json.loads(line) for line in source.read_text().splitlines() if line.strip()]
    with path.open("w") as file:
        for i in range(count):
            row, right = rows[(i // 2) % len(rows)], i % 2 == 0
            file.write(json.dumps({
                "id": f"halueval-{i // 2}-{'right' if right else 'hallucinated'}",
                "output": row["right_answer"] if right else row["hallucinated_answer"],
                "sources": [row["knowledge"]], "question": row["question"], "label": right,
            }) + "\n")


def run_once(data: Path, flags: list[str], concurrency: int) -> float:
    with tempfile.TemporaryDirectory() as temp:
        command = [str(BIN / "provenance"), "eval", str(data), "--out", f"{temp}/out.jsonl",
                   "--concurrency", str(concurrency), "--json", *flags]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return seconds


def per_sample_work(data: Path, count: int) -> dict:
    """Seconds of work one sample costs, one at a time in this process, model loaded: the
    whole validation with the local judge, and the embedding part of it."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from provenance_guard.evaluation.datasets import load_samples
    from provenance_guard.evaluation.sample_check import Plan
    from provenance_guard.evaluation.worker_threads import capped_native_threads

    samples = load_samples(data)[:count]
    check = Plan("local", metadata={"chunk_strategy": "sentence", "chunk_size": 3,
                                    "chunk_overlap": 1}).checker()
    check(samples[0])  # loads the model
    from provenance_guard.retrieval.embedding import SentenceTransformerEmbedder

    # each distinct text once, as the validation embeds it (a question's two answers share
    # their source's index); whole texts, where the validation embeds chunks of 3 sentences
    texts = list(dict.fromkeys([s.output for s in samples]
                               + [source for s in samples for source in s.sources]))
    embedder = SentenceTransformerEmbedder()
    with capped_native_threads(1):
        started = time.perf_counter()
        for sample in samples:
            check(sample)
        whole = (time.perf_counter() - started) / len(samples)
        started = time.perf_counter()
        embedder.embed(texts)
        embedding = (time.perf_counter() - started) / len(samples)
    return {"validation_s": whole, "embedding_s": embedding}


def project(args: argparse.Namespace, cpu_per_sample: float) -> list[dict]:
    """Throughput and cost on N machines, each sample one judge call per sentence (HaluEval's
    answers are one sentence). A machine is bound by its cores (cpu_per_sample each) or by its
    calls in flight (each sample waits judge_latency per call); the cluster by the rate limit."""
    calls = 1 / args.sentences_per_call
    per_machine = min(args.cores / cpu_per_sample,
                      args.calls_in_flight / (calls * args.judge_latency + cpu_per_sample))
    limit = args.rpm / 60 / calls
    rows = []
    for machines in map(int, args.machines.split(",")):
        rate = min(machines * per_machine, limit)
        hours_per_million = 1e6 / rate / 3600
        rows.append({
            "machines": machines, "samples_per_s": rate,
            "bound": "rate limit" if machines * per_machine >= limit else (
                "cores" if args.cores / cpu_per_sample <= per_machine else "calls in flight"),
            "hours_per_million": hours_per_million,
            "machine_cost_per_million": machines * hours_per_million * args.machine_hour,
            "judge_cost_per_million": 1e6 * calls * args.cost_per_call,
        })
    return rows


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.write_data:
        write_samples(args.halueval, args.samples, args.write_data)
        return 0
    engines = args.engines.split(",")
    unknown = [e for e in engines if e not in ENGINES]
    if unknown:
        raise SystemExit(f"unknown engine(s) {unknown}; choose from {', '.join(ENGINES)}")
    if args.projection_only:
        with tempfile.TemporaryDirectory() as temp:
            data = Path(temp, "small.jsonl")
            write_samples(args.halueval, args.small, data)
            work = per_sample_work(data, args.small)
        print_projection(args, work)
        return 0
    with tempfile.TemporaryDirectory() as temp:
        sizes = {"small": args.small, "large": args.samples}
        data = {}
        for name, count in sizes.items():
            data[name] = Path(temp, f"{name}.jsonl")
            write_samples(args.halueval, count, data[name])
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.repeats):  # engines in turn, so drift in the machine's load is shared
            for engine in engines:
                for size in sizes:
                    times.setdefault((engine, size), []).append(
                        run_once(data[size], ENGINES[engine], args.concurrency))
        work = per_sample_work(data["small"], args.small)
    print(f"machine: {os.cpu_count()} cores; {args.repeats} runs each, medians; concurrency "
          f"{args.concurrency}; local judge; samples {args.small} and {args.samples}")
    print(f"{'engine':<18}{'T(small) s':>11}{'T(large) s':>11}{'samples/s':>10}"
          f"{'per sample s':>13}{'fixed s':>9}{'large vs threads':>17}")
    base = statistics.median(times[(engines[0], "large")])
    rows = []
    for engine in engines:
        small, large = (statistics.median(times[(engine, size)]) for size in sizes)
        slope = (large - small) / (args.samples - args.small)
        rows.append({"engine": engine, "small_s": small, "large_s": large, "per_sample_s": slope,
                     "fixed_s": large - args.samples * slope,
                     "runs": {size: times[(engine, size)] for size in sizes}})
        print(f"{engine:<18}{small:>11.1f}{large:>11.1f}{args.samples / large:>10.2f}"
              f"{slope:>13.3f}{large - args.samples * slope:>9.1f}{large / base:>16.2f}x")
    print_projection(args, work, rows)
    return 0


def print_projection(args: argparse.Namespace, work: dict, rows: list | None = None) -> None:
    print(f"one sample's work, one at a time, in one process: validation "
          f"{work['validation_s'] * 1000:.1f} ms; embedding its distinct texts alone "
          f"{work['embedding_s'] * 1000:.1f} ms")
    print(f"projection: judge {args.judge_latency} s per call, {args.sentences_per_call} sentence(s) "
          f"per call, {args.calls_in_flight} calls in flight per machine, {args.cores} cores per "
          f"machine, limit {args.rpm:.0f} requests/min, ${args.machine_hour}/machine-hour, "
          f"${args.cost_per_call}/call")
    projection = project(args, work["validation_s"])
    for row in projection:
        print(f"  {row['machines']:>3} machines: {row['samples_per_s']:>7.1f} samples/s "
              f"({row['bound']}), 1M samples in {row['hours_per_million']:.1f} h, machines "
              f"${row['machine_cost_per_million']:.2f} + judge ${row['judge_cost_per_million']:.0f}")
    print(json.dumps({"engines": rows, "work": work, "projection": projection}))


if __name__ == "__main__":
    sys.exit(main())
