"""Our own work beside the LLM client's: what a validation costs on top of the judge call it
makes, side by side with LiteLLM alone against the same local server.

A local OpenAI-compatible server (its own process) answers every call "supported". Printed:

1. One validation at a time (``check``: Guardrails' own work aside) of six-sentence texts over
   three short sources, every sentence new, the server answering at once, against one bare
   ``litellm.completion`` to the same server, interleaved: medians of wall time and of this
   process's CPU time, and the ratio (goal: at most 3x). ``--sources N`` gives the validation
   N sources of which a claim is shown ``top_k``: retrieval then embeds.
2. Each stage's share of a validation's time: reading (splitting, languages, non-claims), the
   source index, embedding the claims, the search, evidence windows, the judge's call
   (LiteLLM and the wire), aggregating; the rest (the event loop's hops, prompts, reading the
   reply) is what is left.
3. The first validation of a fresh process, by stage: importing provenance_guard, building the
   validator, its first validation, and with ``warm_up()`` called first; which heavy modules
   it loaded (torch, the rules' stemmer, the tokenizer).
4. Many at once (``--count``, 64 and 256 by default; the server answering after 0.5 s, 32 calls
   in flight): through ``AsyncGuard`` and through threads sharing one ``Guard``, against
   LiteLLM's own calls made at once, unbounded and at most 32 in flight as the validators are
   (goal: at most 1.5x the latter; threads at most 1.2x AsyncGuard). Each way is used once
   before it is timed, and then ``gc.freeze()`` is called, as the serving guide advises after
   ``warm_up()`` (``--no-freeze``: not).
   ``bench_load.py`` has the same runs under a 429 storm, memory over time and the Guardrails
   server.

    python benchmarks/bench_overhead.py [--runs 40] [--sources 3] [--count 64 256]
"""

from __future__ import annotations

import argparse
import atexit
import collections
import functools
import gc
import inspect
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_load import SERVER, all_at_once, harness

HERE = Path(__file__).resolve().parent
SOURCES = [
    "The Eiffel Tower is in Paris. It was finished in 1889. It is 330 metres tall.",
    "The Louvre is the most visited museum in the world. It holds the Mona Lisa.",
    "Notre-Dame is a medieval cathedral on the Île de la Cité. A fire damaged it in 2019.",
]
OTHER = "Source {n} is about the town of Vell{n}, its mill and its {n} bridges."


def text(n: int) -> str:
    """Six sentences, the first new in every text (no reply cache hit)."""
    return (f"The Eiffel Tower is in Paris, as note {n} says. It was finished in 1889. It is "
            "330 metres tall. The Louvre is the most visited museum in the world. It holds the "
            "Mona Lisa. A fire damaged Notre-Dame in 2019.")


def sources(count: int) -> list[str]:
    return (SOURCES + [OTHER.format(n=n) for n in range(count)])[:count]


@functools.cache
def server(latency: float) -> str:
    process = subprocess.Popen([sys.executable, "-c", SERVER, str(latency), "0"],
                               stdout=subprocess.PIPE, text=True)
    atexit.register(process.kill)
    return f"http://127.0.0.1:{process.stdout.readline().strip()}/v1"


STAGES: dict[str, float] = collections.defaultdict(float)


def _timed(owner, name: str, stage: str) -> None:
    """Add the wall time of every call of ``owner.name`` to ``STAGES[stage]``."""
    function = getattr(owner, name)
    if inspect.iscoroutinefunction(function):
        @functools.wraps(function)
        async def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return await function(*args, **kwargs)
            finally:
                STAGES[stage] += time.perf_counter() - started
    else:
        @functools.wraps(function)
        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                STAGES[stage] += time.perf_counter() - started
    setattr(owner, name, timed)


def instrument() -> None:
    """Time the stages where the pipeline calls them (the names it looks up at each call)."""
    from provenance_guard import main
    from provenance_guard.judges.litellm_judge import LiteLLMJudge
    from provenance_guard.retrieval import embedding, retriever
    from provenance_guard.retrieval.index import IndexCache, SourceIndex
    from provenance_guard.text import reader

    _timed(reader, "read", "read: sentences, languages, non-claims")
    _timed(IndexCache, "get", "the sources' index (cached)")
    _timed(embedding.SentenceTransformerEmbedder, "embed", "embedding the claims")
    _timed(SourceIndex, "hits", "search (dense, BM25)")
    _timed(retriever, "windows", "evidence windows")
    _timed(LiteLLMJudge, "_call", "the judge call (LiteLLM, the wire)")
    _timed(main, "aggregate", "aggregating")


def one_at_a_time(runs: int, count: int) -> dict:
    """Medians over ``runs`` validations and bare calls, interleaved."""
    import litellm

    from provenance_guard import ProvenanceLLM

    url = server(0.0)
    validator = ProvenanceLLM(llm_callable="openai/judge", on_fail="noop",
                              llm_kwargs={"api_base": url, "api_key": "sk-test"})
    given = sources(count)

    def bare(n: int) -> None:
        litellm.completion(model="openai/judge", api_base=url, api_key="sk-test",
                           messages=[{"role": "user", "content": text(n)}])

    validator.check(text(-1), {"sources": given})
    bare(-1)
    STAGES.clear()
    ours, ours_cpu, client, client_cpu = [], [], [], []
    for n in range(runs):
        for way, wall, cpu in (("ours", ours, ours_cpu), ("litellm", client, client_cpu)):
            started, used = time.perf_counter(), time.process_time()
            if way == "ours":
                validator.check(text(n), {"sources": given})
            else:
                bare(n)
            wall.append(time.perf_counter() - started)
            cpu.append(time.process_time() - used)
    total = sum(ours)
    return {"sources": count, "runs": runs,
            "ours_ms": _ms(statistics.median(ours)), "ours_cpu_ms": _ms(statistics.median(ours_cpu)),
            "litellm_ms": _ms(statistics.median(client)),
            "litellm_cpu_ms": _ms(statistics.median(client_cpu)),
            "ratio": round(statistics.median(ours) / statistics.median(client), 2),
            "stages": {stage: round(spent / total, 3) for stage, spent in
                       sorted(STAGES.items(), key=lambda item: -item[1])}
            | {"the rest": round(1 - sum(STAGES.values()) / total, 3)}}


FIRST = """
import json, sys, time
marks = [("start", time.perf_counter())]
import provenance_guard
from provenance_guard import ProvenanceLLM
marks.append(("import provenance_guard", time.perf_counter()))
validator = ProvenanceLLM(llm_callable=sys.argv[2] if sys.argv[2] != "callable" else
                          (lambda prompt: '{"verdicts": [' + ", ".join(
                              '{"id": %d, "verdict": "supported"}' % (n + 1)
                              for n in range(prompt.count("BEGIN STATEMENT "))) + ']}'),
                          on_fail="noop", **({} if sys.argv[2] == "callable" else {
                              "llm_kwargs": {"api_base": sys.argv[1], "api_key": "sk"}}))
marks.append(("build the validator", time.perf_counter()))
if sys.argv[4] == "warm":
    loaded = validator.warm_up()
    marks.append(("warm_up()", time.perf_counter()))
sources = json.loads(sys.argv[3])
validator.check("The Eiffel Tower is in Paris. It was finished in 1889.", {"sources": sources})
marks.append(("first validation", time.perf_counter()))
validator.check("The Louvre holds the Mona Lisa. It is in Paris.", {"sources": sources})
marks.append(("second validation", time.perf_counter()))
heavy = {"torch": "torch", "the rules' stemmer": "snowballstemmer", "the tokenizer": "tiktoken",
         "LiteLLM": "litellm"}
print(json.dumps({"marks": [(name, round(t - marks[i][1], 3))
                            for i, (name, t) in enumerate(marks[1:])],
                  "loaded": [name for name, module in heavy.items() if module in sys.modules]}))
"""


def first_validation(judge: str, count: int, warm: bool) -> dict:
    """A fresh process: seconds per step, and which heavy modules it loaded."""
    done = subprocess.run(
        [sys.executable, "-c", FIRST, server(0.0), judge, json.dumps(sources(count)),
         "warm" if warm else "cold"], capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    if done.returncode:
        raise RuntimeError(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def many_at_once(counts: list[int], freeze: bool) -> list[dict]:
    """``count`` validations at once, each way, against LiteLLM's own calls (0.5 s server)."""
    url = server(0.5)
    ways = ("AsyncGuard", "threads", "acompletion", "acompletion, bounded")
    for n, way in enumerate(ways):  # each way's first use in the process is not timed
        (harness if way.startswith("acompletion") else all_at_once)(way, url, [f"warm up {n}"])
    if freeze:
        gc.collect()
        gc.freeze()
    rows = []
    for count in counts:
        texts = [text(10_000 * count + n) for n in range(count)]
        walls = {}
        for way in ways:
            started = time.perf_counter()
            (harness if way.startswith("acompletion") else all_at_once)(way, url, texts)
            walls[way] = time.perf_counter() - started
        rows.append({"count": count, **{way: round(s, 2) for way, s in walls.items()},
                     "asyncguard_over_litellm": round(walls["AsyncGuard"] / walls["acompletion"], 2),
                     "asyncguard_over_bounded": round(
                         walls["AsyncGuard"] / walls["acompletion, bounded"], 2),
                     "threads_over_asyncguard": round(walls["threads"] / walls["AsyncGuard"], 2)})
    return rows


def _ms(seconds: float) -> float:
    return round(1000 * seconds, 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--sources", type=int, nargs="+", default=[3, 6],
                        help="sources per validation (top_k is 3: more are searched)")
    parser.add_argument("--count", type=int, nargs="*", default=[64, 256])
    parser.add_argument("--skip-first", action="store_true")
    parser.add_argument("--no-freeze", action="store_true",
                        help="many at once without gc.freeze() after the warm-up")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    import provenance_guard  # noqa: F401 - before litellm: offline settings

    report: dict = {"first": []}
    if not args.skip_first:
        for judge in ("openai/judge", "callable"):
            for count in args.sources:
                for warm in (False, True):
                    report["first"].append({"judge": judge, "sources": count, "warm_up": warm,
                                            **first_validation(judge, count, warm)})
    instrument()
    report["one"] = [one_at_a_time(args.runs, count) for count in args.sources]
    report["many"] = many_at_once(args.count, not args.no_freeze)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{os.cpu_count()} cores; a local server, its own process")
    print("\none validation (check) against one bare litellm.completion, medians")
    for row in report["one"]:
        print(f"  {row['sources']} sources: ours {row['ours_ms']} ms ({row['ours_cpu_ms']} ms CPU)"
              f", litellm {row['litellm_ms']} ms ({row['litellm_cpu_ms']} ms CPU): "
              f"{row['ratio']}x")
        for stage, share in row["stages"].items():
            print(f"      {share:>6.1%}  {stage}")
    if report["first"]:
        print("\na fresh process, seconds per step (and what it loaded)")
        for row in report["first"]:
            steps = ", ".join(f"{name} {seconds}" for name, seconds in row["marks"])
            print(f"  {row['judge']}, {row['sources']} sources"
                  f"{', warm_up() first' if row['warm_up'] else ''}: {steps}; loaded: "
                  f"{', '.join(row['loaded'])}")
    if report["many"]:
        print("\nmany at once, the server answering after 0.5 s, seconds")
        for row in report["many"]:
            print(f"  {row['count']}: AsyncGuard {row['AsyncGuard']}, threads {row['threads']}, "
                  f"litellm alone {row['acompletion']} (at most 32 in flight "
                  f"{row['acompletion, bounded']}): AsyncGuard/litellm "
                  f"{row['asyncguard_over_litellm']}x ({row['asyncguard_over_bounded']}x), "
                  f"threads/AsyncGuard {row['threads_over_asyncguard']}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
