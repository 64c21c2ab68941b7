"""Agent answers: the labelled agent cases (``tests/data/agent-cases``), each a conversation with
tool calls and their results (OpenAI's or Anthropic's format), sometimes sources, and a
one-sentence answer, judged by each judge kind: the offline rules (``local``) and a scripted
LLM judge over HTTP (LiteLLM to a server started here on 127.0.0.1 that answers by the words of
each statement and of the passages it is shown: for the mechanics of what a judge is shown, not
a model's reading), alone and with ``cascade_contradictions=True`` (the rules decide the
conflicts they find, a changed value, before the judge is asked).

For each category it prints how many answers got the outcome the case expects (pass or fail),
the wrong passes (an answer passed that should fail) and the wrong fails.

``--cost``: what a judge call carries with and without a tool result of a few hundred fields
(an order history of 60 orders, 6 fields each), for an answer of three sentences about it: the
characters and tokens (LiteLLM's tokenizer for gpt-4o-mini, offline) of each prompt sent, beside
the floor of a judge shown the whole result once (the prompt without it, plus the result).

    python benchmarks/bench_agents.py [--cost] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from bench_chat import answer
from local_chat import serve

CASES = Path(__file__).resolve().parents[1] / "tests" / "data" / "agent-cases" / "cases.jsonl"


def cases() -> list[dict]:
    return [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines() if line]


def validator_for(judge: str, url: str):
    from provenance_guard import ProvenanceLLM

    options = ({"llm_callable": "local"} if judge == "rules" else
               {"llm_callable": "openai/scripted", "structured_replies": "off", "cache_size": 0,
                "control_statements": "off", "cascade_contradictions": "contradictions" in judge,
                "llm_kwargs": {"api_base": url, "api_key": "none"}})
    return ProvenanceLLM(on_fail="noop", **options)


def run(judge: str, url: str) -> dict:
    validator = validator_for(judge, url)
    right, total, calls = Counter(), Counter(), Counter()
    wrong_pass: dict[str, list[str]] = defaultdict(list)
    wrong_fail: dict[str, list[str]] = defaultdict(list)
    for case in cases():
        report = validator.check(case["text"], {"messages": case["messages"],
                                                "sources": case["sources"]})
        kind, should_pass = case["category"], case["expected"] == "pass"
        total[kind] += 1
        calls[kind] += report.usage.calls
        right[kind] += report.passed == should_pass
        if report.passed and not should_pass:
            wrong_pass[kind].append(case["id"])
        if should_pass and not report.passed:
            wrong_fail[kind].append(case["id"])
    return {kind: {"right": right[kind], "of": total[kind], "wrong passes": wrong_pass[kind],
                   "wrong fails": wrong_fail[kind], "judge calls": calls[kind]}
            for kind in total}


ORDERS = 60


def order_history() -> str:
    """A tool result of 360 fields: 60 orders of 6 fields each."""
    carriers = ("DHL", "UPS", "PostNord", "GLS")
    return json.dumps({"customer_id": "C-20931", "orders": [
        {"order_id": 7000 + n, "placed": f"2026-{1 + n % 12:02d}-{1 + n % 27:02d}",
         "status": ("delivered", "shipped", "cancelled")[n % 3],
         "carrier": carriers[n % 4], "total": round(20 + n * 3.75, 2), "currency": "EUR"}
        for n in range(ORDERS)]})


COST_TEXT = ("Your order 7031 shipped with GLS. It was placed on August 5, 2026. "
             "Its total was €136.25.")
COST_SOURCE = "Orders ship within two working days. Returns are free for 30 days."


def cost(url_of) -> dict:
    """Prompts sent for ``COST_TEXT``: with no tool result (the source alone), and with the
    order history as a tool result; and the whole result shown once."""
    import litellm

    history = order_history()
    call = [{"role": "user", "content": "Where is order 7031?"},
            {"role": "assistant", "content": None, "tool_calls": [{
                "id": "call_1", "type": "function",
                "function": {"name": "list_orders", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": history}]
    ways = {
        "no tool result": {"sources": [COST_SOURCE], "messages": call[:1]},
        "tool result (read as fields)": {"sources": [COST_SOURCE], "messages": call},
    }
    found = {}
    for way, metadata in ways.items():
        prompts: list[str] = []
        validator = validator_for("scripted LLM", url_of(prompts))
        report = validator.check(COST_TEXT, metadata)
        found[way] = {
            "calls": len(prompts), "prompt characters": sum(map(len, prompts)),
            "prompt tokens": sum(litellm.token_counter(model="gpt-4o-mini", text=p)
                                 for p in prompts),
            "passed": report.passed,
            "labels": [str(s.label) for s in report.sentences],
            "rule judge": [str(s.label) for s in validator_for("rules", "").check(
                COST_TEXT, metadata).sentences]}
    alone = found["no tool result"]
    found["the whole result shown once"] = {
        "calls": 1, "prompt characters": alone["prompt characters"] + len(history),
        "prompt tokens": alone["prompt tokens"] + litellm.token_counter(model="gpt-4o-mini",
                                                                        text=history),
        "passed": None, "labels": [], "rule judge": []}
    found["tool result size"] = {"characters": len(history), "fields": 1 + ORDERS * 6}
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cost", action="store_true",
                        help="also the prompts sent with and without a large tool result")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    import provenance_guard  # noqa: F401 - before guardrails: no network at import

    url = serve(lambda body: answer(body["messages"][-1]["content"]))
    results = {judge: run(judge, url) for judge in (
        "rules", "scripted LLM", "scripted LLM, the rules' contradictions first")}
    spent = {}
    if args.cost:
        def url_of(prompts: list[str]) -> str:
            def recorded(body: dict) -> str:
                prompts.append(body["messages"][-1]["content"])
                return answer(body["messages"][-1]["content"])
            return serve(recorded)
        spent = cost(url_of)
    if args.json:
        print(json.dumps({"cases": results, "cost": spent}, indent=2))
        return 0
    for judge, kinds in results.items():
        print(f"\n{judge}:")
        for kind, r in kinds.items():
            print(f"  {kind:<20} {r['right']:>2}/{r['of']:<2} as labelled   wrong passes "
                  f"{len(r['wrong passes'])}   wrong fails {len(r['wrong fails'])}")
        print(f"  {'all':<20} {sum(r['right'] for r in kinds.values()):>2}/"
              f"{sum(r['of'] for r in kinds.values())}   wrong passes "
              f"{sum(len(r['wrong passes']) for r in kinds.values())}   judge calls "
              f"{sum(r['judge calls'] for r in kinds.values())}")
    if spent:
        size = spent.pop("tool result size")
        print(f"\nA judge's prompts for a 3-sentence answer, beside a tool result of "
              f"{size['fields']} fields ({size['characters']:,} characters):")
        for way, r in spent.items():
            print(f"  {way:<30} {r['calls']} call(s)  {r['prompt characters']:>7,} characters  "
                  f"{r['prompt tokens']:>6,} tokens   rule judge: "
                  f"{', '.join(r['rule judge']) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
