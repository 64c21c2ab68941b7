"""Chat answers: the labelled chat cases (``tests/data/chat-cases``), each a conversation, its
sources and a one-sentence reply, judged with the conversation (``metadata["messages"]``) and
without it, by each judge kind: the offline rules (``local``), and a scripted LLM judge over
HTTP (LiteLLM to a server started here on 127.0.0.1, answering by the words of each statement
and its passages: for the mechanics, not a model's reading).

For each case type it prints how many replies got the verdict the case expects, and the wrong
passes (a reply passed that should not) and wrong fails.

``--halueval N``: the first N records of the HaluEval dialogue sample's tuning half, each
record's right and hallucinated response, with the dialogue history given as the question
string (before) and as a conversation (after), by the offline rules and by the cheap-first
path (the rules as ``first_judge``, deciding what they are sure of, before a scripted LLM that
answers every claim of a text with that text's label): right and hallucinated responses passed,
and the hallucinated ones the conversation newly passes (there must be none).

    python benchmarks/bench_chat.py [--halueval 250] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

from local_chat import serve

CASES = Path(__file__).resolve().parents[1] / "tests" / "data" / "chat-cases" / "cases.jsonl"
NUMBER = re.compile(r"\d+(?:[.:,]\d+)*")
WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
SMALL = frozenset("a an the is are was were be it its they he she you your i my of to in on at "
                  "by for with and or".split())


def cases() -> list[dict]:
    return [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines() if line]


def scripted_verdict(statement: str, passages: str) -> str:
    """A judge that reads words: "supported" when the passages hold every word of the
    statement, "contradicted" when they hold most of them but another number, else
    "unsupported"."""
    passages = re.sub(r"(?m)^\[\d+\] ", "", passages).lower()
    mine = {w for w in WORD.findall(statement.lower()) if w not in SMALL}
    theirs = set(WORD.findall(passages))
    numbers, their_numbers = set(NUMBER.findall(statement)), set(NUMBER.findall(passages))
    if mine <= theirs:
        return "supported"
    words = mine - numbers
    if (numbers - their_numbers and their_numbers
            and len(words & theirs) >= 0.6 * max(1, len(words))):
        return "contradicted"
    return "unsupported"


def answer(prompt: str) -> str:
    items = re.findall(r"BEGIN STATEMENT (\d+)>>\n(.*?)\n<<", prompt, re.DOTALL)
    block = prompt.split("BEGIN PASSAGES>>")[1].split(":END PASSAGES>>")[0].rpartition("<<")[0]
    # a passage runs to the next number: a user's sentence or a tool's result opens with a line
    # that says what it is
    shared = dict(re.findall(r"(?ms)^\[(\d+)\] (.*?)(?=^\[\d+\] |\Z)", block))
    named = dict(re.findall(r"(?m)^statement (\d+): (.*)$", prompt.rpartition(
        ":END STATEMENTS>>")[2]))

    def passages_of(n: str) -> str:
        numbers = re.findall(r"\[(\d+)\]", named.get(n, " ".join(f"[{k}]" for k in shared)))
        return "\n".join(shared[k] for k in numbers if k in shared)

    if items:
        return json.dumps({"verdicts": [{"id": int(n), "reason": "by its words",
                                         "verdict": scripted_verdict(s, passages_of(n))}
                                        for n, s in items]})
    statement = re.search(r"BEGIN STATEMENT>>\n(.*?)\n<<", prompt, re.DOTALL).group(1)
    return json.dumps({"reason": "by its words",
                       "verdict": scripted_verdict(statement, "\n".join(shared.values()))})


def run(judge: str, with_conversation: bool, url: str) -> dict:
    from provenance_guard import ProvenanceLLM

    options = ({"llm_callable": "local"} if judge == "rules" else
               {"llm_callable": "openai/scripted", "structured_replies": "off", "cache_size": 0,
                "control_statements": "off",
                "llm_kwargs": {"api_base": url, "api_key": "none"}})
    validator = ProvenanceLLM(on_fail="noop", **options)
    right, total, calls = Counter(), Counter(), Counter()
    wrong_pass, wrong_fail = Counter(), Counter()
    for case in cases():
        metadata = {"sources": case["sources"], "chunk_strategy": "sentence", "chunk_size": 1,
                    "chunk_overlap": 0}
        if with_conversation:
            metadata["messages"] = case["messages"]
        else:  # before: the last user turn as the question
            metadata["question"] = next(m["content"] for m in reversed(case["messages"])
                                        if m["role"] == "user")
        report = validator.check(case["output"], metadata)
        label = str(report.sentences[0].label)
        kind = case["type"]
        total[kind] += 1
        calls[kind] += report.usage.calls
        right[kind] += label == case["expected"]
        should_pass = case["expected"] == "supported"
        wrong_pass[kind] += report.passed and not should_pass
        wrong_fail[kind] += should_pass and not report.passed
    return {kind: {"right": right[kind], "of": total[kind], "wrong passes": wrong_pass[kind],
                   "wrong fails": wrong_fail[kind], "judge calls": calls[kind]}
            for kind in total}


def turns_of(history: str) -> list[dict]:
    """HaluEval's dialogue history ("[Human]: ... [Assistant]: ...") as chat messages."""
    parts = re.split(r"\[(Human|Assistant)\]:\s*", history)
    return [{"role": "user" if who == "Human" else "assistant", "content": said.strip()}
            for who, said in zip(parts[1::2], parts[2::2], strict=True) if said.strip()]


class LabelJudge:
    """The scripted LLM of the cheap-first path: every claim of a text gets that text's label
    (supported for a right response, unsupported for a hallucinated one)."""

    def __init__(self):
        self.label = "unsupported"

    def judge(self, claim, evidence, question=None):
        from provenance_guard import Verdict

        return Verdict(self.label, "scripted: the text's label",
                       1.0 if self.label == "supported" else 0.0, "llm")


def halueval_dialogue(count: int) -> dict:
    """Right and hallucinated responses passed, before and after, by each path."""
    import halueval

    from provenance_guard import ProvenanceLLM

    kind = halueval.SETS["dialogue"]
    chosen = list(halueval.records("dialogue", "tune"))[:count]
    results = {}
    for path in ("offline rules", "cheap first"):
        llm = LabelJudge()
        options = ({"llm_callable": "local"} if path == "offline rules"
                   else {"llm_callable": llm, "first_judge": "local", "max_concurrency": 1})
        validator = ProvenanceLLM(on_fail="noop", **options)
        passed: dict = {"before": defaultdict(list), "after": defaultdict(list)}
        for n, record in enumerate(chosen):
            history = record[kind.question]
            for key, label in ((kind.right, "right"), (kind.wrong, "hallucinated")):
                llm.label = "supported" if label == "right" else "unsupported"
                base = {"sources": [record[kind.source]], "chunk_strategy": "sentence",
                        "chunk_size": 1, "chunk_overlap": 0}
                for when, extra in (("before", {"question": history}),
                                    ("after", {"messages": turns_of(history)})):
                    if validator.check(record[key], {**base, **extra}).passed:
                        passed[when][label].append(n)
        newly = sorted(set(passed["after"]["hallucinated"]) - set(passed["before"]["hallucinated"]))
        results[path] = {when: {label: len(passed[when][label])
                                for label in ("right", "hallucinated")}
                         for when in ("before", "after")} | {
            "records": len(chosen), "hallucinated newly passed": newly}
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--halueval", type=int, default=0, metavar="N",
                        help="also the first N records of the dialogue sample's tuning half")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    import provenance_guard  # noqa: F401 - before guardrails: no network at import

    url = serve(lambda body: answer(body["messages"][-1]["content"]))
    results: dict = defaultdict(dict)
    for judge in ("rules", "scripted LLM"):
        for with_conversation in (False, True):
            way = "with the conversation" if with_conversation else "question only"
            results[judge][way] = run(judge, with_conversation, url)
    dialogue = halueval_dialogue(args.halueval) if args.halueval else {}
    if args.json:
        print(json.dumps({"cases": results, "halueval dialogue": dialogue}, indent=2))
        return 0
    for path, r in dialogue.items():
        print(f"\nHaluEval dialogue, tuning half, {r['records']} records, {path}: passed "
              f"right / hallucinated: question string {r['before']['right']} / "
              f"{r['before']['hallucinated']}; conversation {r['after']['right']} / "
              f"{r['after']['hallucinated']}; hallucinated newly passed: "
              f"{r['hallucinated newly passed'] or 'none'}")
    for judge, ways in results.items():
        for way, kinds in ways.items():
            print(f"\n{judge}, {way}:")
            for kind, r in kinds.items():
                print(f"  {kind:<18} {r['right']:>2}/{r['of']:<2} as labelled   wrong passes "
                      f"{r['wrong passes']}   wrong fails {r['wrong fails']}")
            print(f"  {'all':<18} {sum(r['right'] for r in kinds.values()):>2}/"
                  f"{sum(r['of'] for r in kinds.values())}   judge calls "
                  f"{sum(r['judge calls'] for r in kinds.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
