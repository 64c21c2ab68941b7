"""What one validation sends to the judge: calls per text, and characters and tokens per judged
sentence, for this validator one call per text (the default, ``batch_size=16``) and one sentence
per call (``batch_size=1``), the hub's ProvenanceLLM, and the floor: one call per text that
carries a 600-character instruction block, the text and its source once each; where the texts
answer a question (QA, dialogue), also that floor with the question carried once, which a judge
needs to read a short answer.

All run with their default settings on the same texts (HaluEval answers, the report half of each
shared sample: its right and its hallucinated answer), with the same embedder (the default
all-MiniLM-L6-v2) and a judge that records each prompt and answers "supported" in the form asked
for. Tokens are counted with LiteLLM's tokenizer for gpt-4o-mini (offline). The hub validator
splits sentences with our splitter here (nltk's punkt cannot be downloaded), as in
bench_speed.py.

    pip install --no-deps guardrails-ai-provenance-llm   # the hub validator, beside ours
    python benchmarks/bench_cost.py [--records 40] [--skip-hub] [--json]

The control statement's cost is the change in prompt and reply tokens per text (the reply at
one entry per statement, each with a one-sentence reason) with ``control_statements="on"``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
from dataclasses import asdict, dataclass

from bench_speed import _hub_validator
from halueval import SETS, records

FLOOR_INSTRUCTIONS = 600  # characters of instructions a one-call-per-text judge needs


# A reason of the length the batched prompt asks for ("one sentence citing passage numbers"):
# what a model writes per statement, for the reply tokens a control statement adds.
REASON = "Passage [1] states this in the same words, with the same name and date, so it holds."


class Recorder:
    """A judge callable: records each prompt's characters and tokens and its reply's tokens,
    answers "supported" (one JSON entry per statement of a batch, or one JSON verdict, each with
    a one-sentence reason; the hub's tag to the hub's prompt)."""

    def __init__(self):
        self.calls, self.chars, self.tokens, self.reply_tokens = 0, 0, 0, 0
        self._lock = threading.Lock()

    def __call__(self, prompt: str) -> str:
        import litellm

        ids = re.findall(r"BEGIN STATEMENT (\d+)>>", prompt)
        reply = (json.dumps({"verdicts": [{"id": int(n), "reason": REASON, "verdict": "supported",
                                           "score": 1.0} for n in ids]}) if ids
                 else json.dumps({"reason": REASON, "verdict": "supported", "score": 1.0})
                 if "BEGIN STATEMENT>>" in prompt else "<supported>[YES]</supported>")
        tokens = litellm.token_counter(model="gpt-4o-mini", text=prompt)
        written = litellm.token_counter(model="gpt-4o-mini", text=reply)
        with self._lock:
            self.calls, self.chars, self.tokens = (self.calls + 1, self.chars + len(prompt),
                                                   self.tokens + tokens)
            self.reply_tokens += written
        return reply


@dataclass
class Row:
    data: str
    texts: int
    judged: int  # sentences judged (our per-sentence run's calls)
    calls_per_text: dict
    chars_per_judged: dict
    tokens_per_judged: dict
    over_floor: dict
    over_floor_with_question: dict
    hub_share: dict
    control_tokens: dict  # prompt + reply tokens per text, without and with a control




def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=40,
                        help="records of each set's report half (two texts each)")
    parser.add_argument("--skip-hub", action="store_true")
    parser.add_argument("--json", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    import provenance_guard  # noqa: F401 - before guardrails: no network at import
    from provenance_guard import ProvenanceLLM, split_sentences
    from provenance_guard.retrieval.embedding import SentenceTransformerEmbedder

    model = SentenceTransformerEmbedder()
    hub_class = None if args.skip_hub else _hub_validator(split_sentences)
    rows = []
    for name, kind in SETS.items():
        texts = []
        for record in list(records(name, "report"))[:args.records]:
            question = record.get(kind.question) if kind.question else None
            for key in (kind.right, kind.wrong):
                texts.append((record[key], record[kind.source], question))
        recorders = {"per text": Recorder(), "per sentence": Recorder(),
                     "per text + control": Recorder()}
        for mode, options in (("per text", {}), ("per sentence", {"batch_size": 1}),
                              ("per text + control", {"control_statements": "on"})):
            ours = ProvenanceLLM(llm_callable=recorders[mode], on_fail="noop", cache_size=0,
                                 **options)
            for text, source, question in texts:
                ours.validate(text, {"sources": [source], "question": question,
                                     "embed_function": model.embed})
        if hub_class is not None:
            recorders["hub"] = Recorder()
            hub = hub_class(llm_callable=recorders["hub"], on_fail="noop")
            for text, source, _ in texts:
                hub.validate(text, {"sources": [source], "embed_function": lambda t: model.embed(
                    [t] if isinstance(t, str) else t)})
        judged = recorders["per sentence"].calls
        floor_chars = sum(FLOOR_INSTRUCTIONS + len(text) + len(source) for text, source, _ in texts)
        asked = sum(len(question or "") for _, _, question in texts)
        per = {mode: r for mode, r in recorders.items()}
        rows.append(Row(
            name, len(texts), judged,
            {m: round(r.calls / len(texts), 2) for m, r in per.items()}
            | {"floor": 1.0, "floor + question": 1.0},
            {m: round(r.chars / judged) for m, r in per.items()}
            | {"floor": round(floor_chars / judged)}
            | ({"floor + question": round((floor_chars + asked) / judged)} if asked else {}),
            {m: round(r.tokens / judged) for m, r in per.items()},
            {m: round(r.chars / floor_chars, 2) for m, r in per.items()},
            {m: round(r.chars / (floor_chars + asked), 2) for m, r in per.items()} if asked
            else {},
            {m: round(r.chars / per["hub"].chars, 2) for m, r in per.items()} if "hub" in per
            else {},
            {m: round((per[m].tokens + per[m].reply_tokens) / len(texts), 1)
             for m in ("per text", "per text + control")}))
    _print(rows, args.json)
    return 0


def _print(rows: list[Row], as_json: bool) -> None:
    if as_json:
        print(json.dumps([asdict(r) for r in rows], indent=2))
        return
    print("characters sent to the judge per judged sentence (x the floor; x the hub's), "
          "calls per text")
    for r in rows:
        print(f"\n{r.data}: {r.texts} texts, {r.judged} sentences judged")
        for mode in r.chars_per_judged:
            over = r.over_floor.get(mode)
            share = r.hub_share.get(mode)
            with_question = r.over_floor_with_question.get(mode)
            print(f"  {mode:<16} {r.chars_per_judged[mode]:>7,} chars"
                  + (f"  {r.tokens_per_judged[mode]:>6,} tokens" if mode in r.tokens_per_judged
                     else " " * 14)
                  + (f"  {over:>5.2f}x floor" if over is not None else " " * 13)
                  + (f" ({with_question:.2f}x with the question)" if with_question else "")
                  + (f"  {share:>5.2f}x hub" if share is not None else "")
                  + f"  {r.calls_per_text[mode]:>5.2f} calls per text")
        without, with_control = r.control_tokens.values()
        print(f"  control statement: {without:,.1f} -> {with_control:,.1f} prompt + reply tokens "
              f"per text ({with_control / without - 1:+.1%})")


if __name__ == "__main__":
    sys.exit(main())
