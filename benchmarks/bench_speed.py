"""Side by side: this validator and the hub's ProvenanceLLM, in one process, same inputs.

Both get the same embedder (the default all-MiniLM-L6-v2, passed as ``embed_function``) and
the same judge: a callable that sleeps a fixed latency, like an API call, and answers
"supported" (a JSON entry per statement of our batched prompt, the hub's tag otherwise). Ours
runs with its defaults: a text's sentences judged in one call. The hub validator needs nltk's
punkt data, which cannot be downloaded here: it is given our splitter for the run (its
module's ``nltk`` is replaced by a shim), and the output says so.

Sources are real text: HaluEval ``knowledge`` passages (tests/data), four per source.
W1 builds our index of the sources (cold); W2 and W3 use the same sources, so ours finds the
index built: W2 measures a new long output on a warm index, W3 the same outputs again.

Two more runs, each its own workload: ``--judge hub-format``, a judge callable that answers
only in the hub's format (``<supported>[YES]</supported>``), as a user migrating from the hub
passes it: ours learns from its first batched reply that it reads one statement per prompt, and
asks the statements of a text one per call, at once. Its floor is the judge's latency once per
output plus the raw encoding of the sources and sentences. ``--judge minicheck``: MiniCheck
(one statement per call) through LiteLLM against a local Ollama-compatible server that answers
after the judge's latency; a 16-sentence text, in call latencies, with the calls seen at once.

    pip install --no-deps guardrails-ai-provenance-llm   # the hub validator, beside ours
    python benchmarks/bench_speed.py [--latency 0.2] [--outputs 20] [--skip-hub]
    python benchmarks/bench_speed.py --judge hub-format --latency 0.1 --outputs 6 --sources 30
    python benchmarks/bench_speed.py --judge minicheck --latency 0.2
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "tests/data/halueval-qa-sample/qa_one-turn_data.jsonl"


@dataclass
class Row:
    workload: str
    sentences: int
    ours_s: float
    hub_s: float | None
    speedup: float | None
    ours_judge_calls: int
    hub_judge_calls: int | None
    ours_embedded: int
    hub_embedded: int | None
    ours_source_embeddings: int
    floor_s: float
    ours_over_floor: float
    ours_overhead_ms_per_sentence: float


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.2, help="judge latency, seconds")
    parser.add_argument("--outputs", type=int, default=20, help="W1: outputs of 8 sentences")
    parser.add_argument("--long", type=int, default=40, help="W2: sentences in one output")
    parser.add_argument("--sources", type=int, default=50)
    parser.add_argument("--per-source", type=int, default=4, help="knowledge texts per source")
    parser.add_argument("--concurrency", type=int, default=8, help="our max_concurrency")
    parser.add_argument("--skip-hub", action="store_true", help="run ours only")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--judge", choices=("json", "hub-format", "minicheck"), default="json",
                        help="json: ours gets its batched format (W1-W3); hub-format: a judge "
                        "that only speaks the hub's format; minicheck: one statement per call")
    return parser


class Counter:
    """Wraps a function and counts calls (judge) or texts (embedder), thread-safely."""

    def __init__(self, function, count_texts=False):
        self.function, self.count_texts, self.count = function, count_texts, 0
        self._lock = threading.Lock()

    def __call__(self, arg):
        with self._lock:
            self.count += (1 if isinstance(arg, str) else len(arg)) if self.count_texts else 1
        return self.function(arg)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not args.data.exists():
        build_parser().error(f"no data at {args.data}")

    import provenance_guard  # noqa: F401 - before guardrails: no network at import
    from provenance_guard import ProvenanceLLM, split_sentences
    from provenance_guard.retrieval.embedding import SentenceTransformerEmbedder
    from provenance_guard.retrieval.index import INDEX_CACHE

    records = [json.loads(line) for line in args.data.read_text().splitlines()]
    per = args.per_source
    sources = [" ".join(r["knowledge"] for r in records[per * i:per * i + per])
               for i in range(args.sources)]
    pool = [s.text for source in sources for s in split_sentences(source)]
    outputs = [" ".join(pool[(o * 8 + j) * 7 % len(pool)] for j in range(8))
               for o in range(args.outputs)]
    long_output = " ".join(pool[(j * 11) % len(pool)] for j in range(args.long))

    model = SentenceTransformerEmbedder()
    model.embed(["warm up"])
    if args.judge == "hub-format":
        return _hub_format(args, sources, pool, model)
    if args.judge == "minicheck":
        return _minicheck(args, sources, pool, model)

    def judge(prompt):
        time.sleep(args.latency)
        ids = re.findall(r"BEGIN STATEMENT (\d+)>>", prompt)  # our batched prompt
        if ids:
            return json.dumps({"verdicts": [{"id": int(n), "verdict": "supported"} for n in ids]})
        return "<analysis>scripted</analysis>\n<supported>[YES]</supported>"

    meta = {"chunk_strategy": "sentence", "chunk_size": 1, "chunk_overlap": 0}
    hub_class = None if args.skip_hub else _hub_validator(split_sentences)
    print(f"sources: {len(sources)}, chunks: {len(pool)}; judge latency {args.latency:.3f} s; "
          f"our max_concurrency {args.concurrency}")
    if hub_class is not None:
        print("the hub validator splits sentences with our splitter (nltk punkt cannot be "
              "downloaded here)")

    rows = []
    # One embed function for all of ours: the index cache knows it by identity.
    ours_embed = Counter(model.embed, count_texts=True)
    INDEX_CACHE.clear()  # W1 starts cold: it builds the index of the 50 sources once
    for name, texts in (("W1", outputs), ("W2", [long_output]), ("W3", outputs)):
        # W2 (a new 40-sentence output) and W3 (W1's outputs again) find that index built;
        # the hub validator has no index to keep and starts from nothing every time
        ours_judge = Counter(judge)
        ours = ProvenanceLLM(llm_callable=ours_judge, on_fail="noop",
                             max_concurrency=args.concurrency, cache_size=0)
        source_embeds_before, embedded_before = INDEX_CACHE.embedded_chunks, ours_embed.count
        started = time.perf_counter()
        for text in texts:
            ours.validate(text, {**meta, "sources": sources, "embed_function": ours_embed})
        ours_s = time.perf_counter() - started
        sentences = sum(len(split_sentences(t)) for t in texts)
        # the judge floor: the calls our settings need (one per batch_size sentences of a
        # text), run max_concurrency at once, each taking the judge's latency
        batch = ours.settings.batch_size
        rounds = sum(math.ceil(math.ceil(len(split_sentences(t)) / batch) / args.concurrency)
                     for t in texts)
        floor = rounds * args.latency
        hub_s = hub_calls = hub_embedded = None
        if hub_class is not None and name != "W3":
            hub_s, hub_calls, hub_embedded = _hub_run(hub_class, judge, model, texts,
                                                      {**meta, "sources": sources})
        rows.append(Row(
            workload=name, sentences=sentences, ours_s=round(ours_s, 3),
            hub_s=None if hub_s is None else round(hub_s, 3),
            speedup=None if hub_s is None else round(hub_s / ours_s, 1),
            ours_judge_calls=ours_judge.count, hub_judge_calls=hub_calls,
            ours_embedded=ours_embed.count - embedded_before, hub_embedded=hub_embedded,
            ours_source_embeddings=INDEX_CACHE.embedded_chunks - source_embeds_before,
            floor_s=round(floor, 3), ours_over_floor=round(ours_s / floor, 2),
            ours_overhead_ms_per_sentence=round(1000 * (ours_s - floor) / sentences, 1),
        ))
    _print(rows, args.json)
    return 0


HUB_REPLY = "<analysis>scripted</analysis>\n<supported>[YES]</supported>"


def _hub_format(args, sources: list[str], pool: list[str], model) -> int:
    """Outputs of 6 sentences, judged by a callable that answers only in the hub's format."""
    from provenance_guard import ProvenanceLLM, split_sentences
    from provenance_guard.retrieval.index import INDEX_CACHE

    outputs = [" ".join(pool[(o * 6 + j) * 7 % len(pool)] for j in range(6))
               for o in range(args.outputs)]
    meta = {"chunk_strategy": "sentence", "chunk_size": 1, "chunk_overlap": 0}

    def judge(prompt: str) -> str:
        time.sleep(args.latency)
        return HUB_REPLY

    started = time.perf_counter()  # the floor's encoding: every chunk and sentence once, raw
    model.embed(pool + [s.text for text in outputs for s in split_sentences(text)])
    encode_s = time.perf_counter() - started
    floor = args.outputs * args.latency + encode_s
    embed = Counter(model.embed, count_texts=True)
    INDEX_CACHE.clear()
    ours_judge = Counter(judge)
    ours = ProvenanceLLM(llm_callable=ours_judge, on_fail="noop", cache_size=0,
                         max_concurrency=args.concurrency)
    started = time.perf_counter()
    for text in outputs:
        ours.validate(text, {**meta, "sources": sources, "embed_function": embed})
    ours_s = time.perf_counter() - started
    print(f"hub-format judge: {args.outputs} outputs of 6 sentences, {len(sources)} sources, "
          f"{args.latency:.3f} s a call")
    print(f"ours: {ours_s:.2f} s, {ours_judge.count} calls; floor {floor:.2f} s (raw encode "
          f"{encode_s:.2f} s); ours/floor {ours_s / floor:.2f}")
    if not args.skip_hub:
        hub_s, hub_calls, _ = _hub_run(_hub_validator(split_sentences), judge, model, outputs,
                                       {**meta, "sources": sources})
        print(f"hub: {hub_s:.2f} s, {hub_calls} calls; hub/ours {hub_s / ours_s:.1f}x")
    return 0


def _hub_run(hub_class, judge, model, texts: list[str], metadata: dict
             ) -> tuple[float, int, int]:
    """The hub validator over ``texts``: seconds, judge calls, texts embedded."""
    # The hub calls embed_function with a list for the chunks and a str for the query.
    hub_embed = Counter(lambda t: model.embed([t] if isinstance(t, str) else t), True)
    hub_judge = Counter(judge)
    hub = hub_class(llm_callable=hub_judge, on_fail="noop")
    started = time.perf_counter()
    for text in texts:
        hub.validate(text, {**metadata, "embed_function": hub_embed})
    return time.perf_counter() - started, hub_judge.count, hub_embed.count


def _minicheck(args, sources: list[str], pool: list[str], model) -> int:
    """A 16-sentence text through MiniCheck (one statement per call) over HTTP."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from provenance_guard import ProvenanceLLM

    seen = {"now": 0, "peak": 0, "calls": 0}
    lock = threading.Lock()

    class Ollama(BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with lock:
                seen["now"] += 1
                seen["calls"] += 1
                seen["peak"] = max(seen["peak"], seen["now"])
            time.sleep(args.latency)
            with lock:
                seen["now"] -= 1
            data = json.dumps({"model": body.get("model"), "created_at": "2026-01-01T00:00:00Z",
                               "done": True, "response": "Yes", "prompt_eval_count": 20,
                               "eval_count": 1}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Ollama)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    text = " ".join(pool[(j * 13) % len(pool)] for j in range(16))
    meta = {"chunk_strategy": "sentence", "chunk_size": 1, "chunk_overlap": 0,
            "sources": sources, "embed_function": model.embed}
    ours = ProvenanceLLM(llm_callable="minicheck:ollama/bespoke-minicheck",
                         llm_kwargs={"api_base": url}, on_fail="noop", cache_size=0,
                         max_concurrency=args.concurrency)
    ours.validate("Warm up.", meta)  # LiteLLM's first call sets it up; the index is built
    seen.update(calls=0, peak=0)
    started = time.perf_counter()
    sentences = len(ours.check(text, meta).sentences)
    took = time.perf_counter() - started
    server.shutdown()
    print(f"minicheck: {sentences} sentences, {seen['calls']} calls, at most {seen['peak']} at "
          f"once (max_concurrency {args.concurrency}); {took:.2f} s = "
          f"{took / args.latency:.1f} call latencies of {args.latency:.3f} s")
    return 0


def _hub_validator(split):
    import types

    try:
        import guardrails_ai.provenance_llm.main as hub_main
    except ImportError:
        print("the hub validator is not installed: pip install --no-deps "
              "guardrails-ai-provenance-llm (or pass --skip-hub)", file=sys.stderr)
        raise SystemExit(2) from None
    import guardrails.utils.docs_utils as docs_utils  # the hub chunks sources with it

    shim = types.SimpleNamespace(sent_tokenize=lambda text: [s.text for s in split(text)])
    hub_main.nltk = docs_utils.nltk = shim
    return hub_main.ProvenanceLLM


def _print(rows: list[Row], as_json: bool) -> None:
    if as_json:
        print(json.dumps([asdict(r) for r in rows], indent=2))
        return
    header = (f"{'load':4} {'sent':>5} {'ours s':>8} {'hub s':>8} {'ratio':>6} "
              f"{'calls o/h':>10} {'embedded o/h':>14} {'src emb':>7} {'floor s':>7} "
              f"{'x floor':>7} {'ms/sent':>7}")
    print(header)
    for r in rows:
        hub = "-" if r.hub_s is None else f"{r.hub_s:.2f}"
        ratio = "-" if r.speedup is None else f"{r.speedup:.1f}x"
        calls = f"{r.ours_judge_calls}/{'-' if r.hub_judge_calls is None else r.hub_judge_calls}"
        embedded = f"{r.ours_embedded}/{'-' if r.hub_embedded is None else r.hub_embedded}"
        print(f"{r.workload:4} {r.sentences:>5} {r.ours_s:>8.2f} {hub:>8} {ratio:>6} "
              f"{calls:>10} {embedded:>14} {r.ours_source_embeddings:>7} {r.floor_s:>7.2f} "
              f"{r.ours_over_floor:>7.2f} {r.ours_overhead_ms_per_sentence:>7.1f}")
    print(f"median ours/floor: {statistics.median(r.ours_over_floor for r in rows):.2f}")


if __name__ == "__main__":
    sys.exit(main())
