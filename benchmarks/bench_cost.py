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

Failure kinds' cost is the change in characters sent per judged sentence with
``failure_kinds=False`` ("no kinds"), on the per-text path and on the default LiteLLM one.

The control statement's cost is the change in prompt and reply tokens per text (the reply at
one entry per statement, each with a one-sentence reason) with ``control_statements="on"``.

"per text + 10 turns": the default path with the question replaced by a conversation of ten
turns (``metadata["messages"]``: nine turns of the dialogue sample's tuning half, then the
question as the user's last turn); a prompt carries the newest turns that fit in 2,000
characters. Its judge calls everything supported, so no claim is asked again against what the
user said: what it measures is the context a call carries.

"default LiteLLM" is what a user gets from ``llm_callable="gpt-4o-mini"`` with nothing else set:
LiteLLM says the model takes a reply schema, so replies are structured and every call that can
carry a control statement does. It talks over HTTP to a server started here on 127.0.0.1 that
records each request; what it sends is the prompt and the reply schema (both counted), and it
answers each statement "supported", or "contradicted" for a control (a judge that reads its
passages), with a one-sentence reason.
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
from local_chat import serve

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
        self.statements = 0  # statements asked (a control statement is one more)
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
            self.statements += len(ids) or 1
        return reply


class ChatRecorder(Recorder):
    """An OpenAI-compatible chat server on 127.0.0.1 that records what each request sends (the
    prompt and the reply schema) and answers in the schema asked for: "supported" for every
    statement, "contradicted" for one its passages contradict (a control statement), as a judge
    that reads them would."""

    def __init__(self):
        super().__init__()
        self.url = serve(self.answer)

    def answer(self, body: dict) -> str:
        import litellm

        prompt = "\n".join(m["content"] for m in body["messages"])
        schema = json.dumps(body.get("response_format") or "")
        items = re.findall(r"BEGIN STATEMENT (\d+)>>\n(.*?)\n<<", prompt, re.DOTALL)

        def verdict(statement: str) -> str:
            return "contradicted" if statement.strip() in CONTROLS else "supported"

        reply = (json.dumps({"verdicts": [{"id": int(n), "reason": REASON,
                                           "verdict": verdict(statement), "score": 1.0}
                                          for n, statement in items]}) if items
                 else json.dumps({"reason": REASON, "verdict": "supported", "score": 1.0}))
        sent = prompt + (schema if body.get("response_format") else "")
        with self._lock:
            self.calls, self.chars = self.calls + 1, self.chars + len(sent)
            self.tokens += litellm.token_counter(model="gpt-4o-mini", text=sent)
            self.reply_tokens += litellm.token_counter(model="gpt-4o-mini", text=reply)
            self.statements += len(items) or 1
        return reply


CONTROLS: set[str] = set()  # every control statement the run has made


def record_controls() -> None:
    """Every control statement the run makes goes to ``CONTROLS`` as it is made (so that the
    server can answer it as a judge that reads its passages would)."""
    from provenance_guard.judges import policies

    original = policies.control_for

    def recorded(items):
        found = original(items)
        if found is not None:
            CONTROLS.add(found.statement.strip())
        return found

    policies.control_for = recorded


def chat_turns() -> list[dict]:
    """The turns of the dialogue sample's tuning half, in order: real chat to make the
    ten-turn conversations of."""
    from bench_chat import turns_of

    return [turn for record in records("dialogue", "tune")
            for turn in turns_of(record[SETS["dialogue"].question])]


def ten_turns(question: str | None, n: int, pool: list[dict]) -> list[dict]:
    """A conversation of ten turns for the ``n``th text: nine turns of real chat, then the
    text's question as the user's last turn (for a summary, a request for one)."""
    start = (n * 9) % (len(pool) - 9)
    return [*pool[start:start + 9],
            {"role": "user", "content": question or "Summarise the article, please."}]


# The judge paths whose control statement is priced: each, the run without and with one.
CONTROL_PAIRS = {"a callable": ("per text", "per text + control"),
                 "default LiteLLM": ("default, no control", "default LiteLLM")}


def _control(without: Recorder, with_control: Recorder, texts: int) -> dict:
    return {"sent": [round(r.tokens / texts, 1) for r in (without, with_control)],
            "with reply": [round((r.tokens + r.reply_tokens) / texts, 1)
                           for r in (without, with_control)],
            "carried": round((with_control.statements - without.statements)
                             / with_control.calls, 3)}


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
    control: dict  # per judge path: tokens per text without and with a control, prompt and
    # prompt + reply, and the share of calls that carry one
    conversation: list  # prompt tokens per text: the question alone, and a ten-turn chat




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
    record_controls()
    hub_class = None if args.skip_hub else _hub_validator(split_sentences)
    rows = []
    pool = chat_turns()
    for name, kind in SETS.items():
        texts = []
        for record in list(records(name, "report"))[:args.records]:
            question = record.get(kind.question) if kind.question else None
            for key in (kind.right, kind.wrong):
                texts.append((record[key], record[kind.source], question))
        recorders = {"per text": Recorder(), "per sentence": Recorder(),
                     "per text + control": Recorder(), "default LiteLLM": ChatRecorder(),
                     "default, no control": ChatRecorder(), "per text + 10 turns": Recorder(),
                     "per text, no kinds": Recorder(), "default, no kinds": ChatRecorder()}
        for mode, options in (
                ("per text", {}), ("per sentence", {"batch_size": 1}),
                ("per text + control", {"control_statements": "on"}),
                ("default LiteLLM", {}), ("default, no control", {"control_statements": "off"}),
                ("per text + 10 turns", {}), ("per text, no kinds", {"failure_kinds": False}),
                ("default, no kinds", {"failure_kinds": False})):
            judge = recorders[mode]
            if isinstance(judge, ChatRecorder):
                options = {**options, "llm_callable": "gpt-4o-mini",
                           "llm_kwargs": {"api_base": judge.url, "api_key": "none"}}
            else:
                options = {**options, "llm_callable": judge}
            ours = ProvenanceLLM(on_fail="noop", cache_size=0, **options)
            for n, (text, source, question) in enumerate(texts):
                asked = ({"messages": ten_turns(question, n, pool)}
                         if mode == "per text + 10 turns" else {"question": question})
                ours.validate(text, {"sources": [source], "embed_function": model.embed,
                                     **asked})
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
            {path: _control(per[without], per[with_control], len(texts))
             for path, (without, with_control) in CONTROL_PAIRS.items()},
            [round(per[m].tokens / len(texts), 1) for m in ("per text", "per text + 10 turns")]))
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
        for kinds, without in (("per text", "per text, no kinds"),
                               ("default LiteLLM", "default, no kinds")):
            on, off = r.chars_per_judged[kinds], r.chars_per_judged[without]
            print(f"  failure kinds, {kinds}: {off:,} -> {on:,} chars per judged sentence "
                  f"({on / off - 1:+.1%})")
        alone, chat = r.conversation
        print(f"  a ten-turn conversation instead of the question: {alone:,.1f} -> {chat:,.1f} "
              f"prompt tokens per text ({chat / alone - 1:+.1%})")
        for path, c in r.control.items():
            print(f"  control statement, {path} ({c['carried']:.0%} of calls carry one): "
                  f"{c['sent'][0]:,.1f} -> {c['sent'][1]:,.1f} tokens sent per text "
                  f"({c['sent'][1] / c['sent'][0] - 1:+.1%}); {c['with reply'][0]:,.1f} -> "
                  f"{c['with reply'][1]:,.1f} with the reply "
                  f"({c['with reply'][1] / c['with reply'][0] - 1:+.1%})")


if __name__ == "__main__":
    sys.exit(main())
