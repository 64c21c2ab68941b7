"""Hostile judge behaviours for provenance_guard.ProvenanceLLM, written from the docs alone.

Every case is a dict:

    id       unique name
    cls      reply_argues | controls_dodged | pass_on_invalid | judge_raises_or_blocks
    expect   must_fail (the validation must not pass) | must_pass
    kinds    judge kinds it runs with: "callable" (llm_callable=fn), "litellm" (an
             OpenAI-compatible HTTP server the runner starts, reached through LiteLLM as
             openai/<case id>), "object" (a judge object with judge()/judge_batch())
    answer   the text validated (SOURCES below are always the sources)
    judge    the behaviour: prompt -> reply text (callable and litellm kinds); for
             judge_raises_or_blocks a callable used as is (it may be async, raise, block)
    obj      for the "object" kind: a zero-argument factory of the judge object
    http     litellm kind, judge_raises_or_blocks: how the server misbehaves
    logprob  litellm kind: log probability the server reports for each token of its reply
             (None: the server returns no logprobs)
    opts     ProvenanceLLM options for this case (merged over the class defaults in run.py)
    why      one line

The hostility is in the judge; the sources and answers are small and fixed. The honest
oracle below knows which answer sentences are true; a statement that is a passage sentence
with one word changed is what the docs call a control statement.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time

SOURCES = [
    "The Halden Museum opened in 1892 on Harbour Street. It holds 4,300 paintings.",
    "Its founder was Clara Voss, a shipping heiress. Entry is free on Sundays.",
]

TRUE = {
    "The Halden Museum opened in 1892.",
    "The Halden Museum is on Harbour Street.",
    "The Halden Museum holds 4,300 paintings.",
    "Its founder was Clara Voss.",
    "The museum's founder was Clara Voss.",
    "Entry to the Halden Museum is free on Sundays.",
    "Clara Voss was a shipping heiress.",
}

A_T = "The Halden Museum opened in 1892."
A_T2 = "The Halden Museum opened in 1892. The museum's founder was Clara Voss."
A_T3 = "Entry to the Halden Museum is free on Sundays."
A_T4 = "The Halden Museum holds 4,300 paintings. Clara Voss was a shipping heiress."
A_T5 = "The Halden Museum is on Harbour Street."
TRUE_ANSWERS = [A_T, A_T2, A_T3, A_T4, A_T5]

A_TF = "The Halden Museum opened in 1892. The museum has a solid gold roof."
A_F = "The museum has a solid gold roof."
A_F2 = "Visitors to the Halden Museum receive a free gold coin."
A_TF2 = "The museum's founder was Clara Voss. The founder personally painted every picture."
A_TFF = ("The Halden Museum opened in 1892. Entry is free every day of the week. "
         "The museum has a solid gold roof.")
FALSE_ANSWERS = [A_TF, A_F, A_F2, A_TF2, A_TFF]

# ------------------------------------------------------------------ reading a prompt

_BATCH = re.compile(r"BEGIN STATEMENT (\d+)>>\n(.*?)\n<<", re.S)
_ONE = re.compile(r"BEGIN STATEMENT>>\n(.*?)\n<<", re.S)
_PASSAGE = re.compile(r"^\[(\d+)\] (.*)$", re.M)
_NAMED = re.compile(r"^statement (\d+): (.*)$", re.M)


def parse(prompt: str) -> dict:
    batch = [(int(n), s.strip()) for n, s in _BATCH.findall(prompt)]
    if batch:
        stmts, batched = batch, True
    else:
        one = _ONE.findall(prompt)
        stmts, batched = ([(1, one[0].strip())] if one else []), False
    passages = [text for _, text in _PASSAGE.findall(prompt)]
    named = {int(n): names.strip() for n, names in _NAMED.findall(prompt)}
    return {"batched": batched, "stmts": stmts, "passages": passages, "named": named}


def _tokens(text: str) -> list[str]:
    return re.findall(r"\w+(?:[.,']\w+)*", text.lower())


def copy_with_one_change(stmt: str, passages: list[str]) -> bool:
    """Looks like a passage sentence (or its first clause) with exactly one word changed."""
    words = _tokens(stmt)
    for passage in passages:
        for sentence in re.split(r"(?<=[.!?])\s+", passage):
            other = _tokens(sentence)
            if len(words) < 3 or len(words) > len(other):
                continue
            diffs = sum(a != b for a, b in zip(words, other[: len(words)]))
            if diffs == 1:
                return True
    return False


def number_not_in_passages(stmt: str, passages: list[str]) -> bool:
    nums = re.findall(r"\d[\d,.]*\d|\d", stmt)
    joined = " ".join(passages)
    return any(n not in joined for n in nums)


def honest_label(stmt: str, passages: list[str]) -> str:
    if stmt in TRUE:
        return "supported"
    if copy_with_one_change(stmt, passages):
        return "contradicted"
    return "unsupported"


def honest_entry(stmt: str, p: dict) -> dict:
    label = honest_label(stmt, p["passages"])
    reasons = {"supported": "[1] states this.", "contradicted": "[1] gives another value.",
               "unsupported": "No passage mentions this."}
    return {"reason": reasons[label], "verdict": label,
            "score": 1.0 if label == "supported" else 0.0}


def build(prompt: str, entry_fn, prefix: str = "") -> str:
    """A reply in the form the prompt asks for; entry_fn(stmt, parsed) -> dict, or
    ("raw", inner JSON text without braces)."""
    p = parse(prompt)
    parts = []
    for n, stmt in p["stmts"]:
        e = entry_fn(stmt, p)
        if isinstance(e, tuple):
            inner = e[1]
        else:
            inner = json.dumps(e)[1:-1]
        parts.append((n, inner))
    if p["batched"]:
        body = '{"verdicts": [' + ", ".join(
            '{"id": %d, %s}' % (n, inner) for n, inner in parts) + "]}"
    else:
        body = "{" + (parts[0][1] if parts else "") + "}"
    return prefix + body


def honest(prompt: str) -> str:
    return build(prompt, honest_entry)


def is_target(stmt: str, p: dict) -> bool:
    """The answer's own false sentence: not true, not a control-looking copy."""
    return stmt not in TRUE and not copy_with_one_change(stmt, p["passages"])


def trick(entry, prefix: str = ""):
    """Honest everywhere, but the answer's false sentence gets `entry` (a dict, or a raw
    inner-JSON string)."""
    def judge(prompt: str) -> str:
        def fn(stmt, p):
            if is_target(stmt, p):
                return ("raw", entry) if isinstance(entry, str) else dict(entry)
            return honest_entry(stmt, p)
        return build(prompt, fn, prefix)
    return judge


def styled(entry: dict):
    """Honest, with `entry` as the form of every 'supported' entry."""
    def judge(prompt: str) -> str:
        def fn(stmt, p):
            e = honest_entry(stmt, p)
            return dict(entry) if e["verdict"] == "supported" else e
        return build(prompt, fn)
    return judge


def raw_reply(text: str):
    return lambda prompt: text


# ------------------------------------------------------------------ control dodgers

def supported_all(prompt: str) -> str:
    return build(prompt, lambda s, p: {"reason": "[1] says so.", "verdict": "supported",
                                       "score": 1.0})


def copy_detector(label: str = "contradicted"):
    def judge(prompt: str) -> str:
        def fn(stmt, p):
            if copy_with_one_change(stmt, p["passages"]):
                return {"reason": "[1] gives another value.", "verdict": label, "score": 0.0}
            return {"reason": "[1] says so.", "verdict": "supported", "score": 1.0}
        return build(prompt, fn)
    return judge


def number_detector(prompt: str) -> str:
    def fn(stmt, p):
        if number_not_in_passages(stmt, p["passages"]):
            return {"reason": "[1] gives another number.", "verdict": "contradicted", "score": 0}
        return {"reason": "[1] says so.", "verdict": "supported", "score": 1.0}
    return build(prompt, fn)


def position_detector(where: str):
    def judge(prompt: str) -> str:
        p = parse(prompt)
        ids = [n for n, _ in p["stmts"]]
        pick = {"last": max(ids, default=0), "first": min(ids, default=0)}[where]

        def fn(stmt, p2):
            n = next(i for i, s in p2["stmts"] if s == stmt)
            if len(ids) > 1 and n == pick:
                return {"reason": "[1] differs.", "verdict": "contradicted", "score": 0.0}
            return {"reason": "[1] says so.", "verdict": "supported", "score": 1.0}
        return build(prompt, fn)
    return judge


def passage_list_detector(prompt: str) -> str:
    """The control names only its own passage; the answer's sentences name all of them."""
    p = parse(prompt)
    named = p["named"]
    fewest = min(named.values(), key=lambda v: v.count("["), default=None)
    odd = {n for n, v in named.items() if v == fewest and len(set(named.values())) > 1}

    def fn(stmt, p2):
        n = next(i for i, s in p2["stmts"] if s == stmt)
        if n in odd:
            return {"reason": "[1] differs.", "verdict": "contradicted", "score": 0.0}
        return {"reason": "[1] says so.", "verdict": "supported", "score": 1.0}
    return build(prompt, fn)


def omit_suspect(prompt: str) -> str:
    """Leaves out the entry of the control-looking statement, supports the rest."""
    p = parse(prompt)
    entries = [{"id": n, "reason": "[1] says so.", "verdict": "supported", "score": 1.0}
               for n, s in p["stmts"] if not copy_with_one_change(s, p["passages"])]
    if p["batched"]:
        return json.dumps({"verdicts": entries})
    if entries:
        return json.dumps({k: v for k, v in entries[0].items() if k != "id"})
    return "I would rather not say."


def garble_suspect(prompt: str) -> str:
    """Gives the control-looking statement an unreadable verdict, supports the rest."""
    def fn(stmt, p):
        if copy_with_one_change(stmt, p["passages"]):
            return {"reason": "hmm", "verdict": "maybe", "score": 0.5}
        return {"reason": "[1] says so.", "verdict": "supported", "score": 1.0}
    return build(prompt, fn)


def yes_to_batches_json_alone(prompt: str) -> str:
    """Unreadable to a batch (so the validator falls back to one statement a call), then a
    full JSON 'supported' to every one-statement prompt."""
    if parse(prompt)["batched"]:
        return "Yes."
    return json.dumps({"reason": "[1] says so.", "verdict": "supported", "score": 1.0})


def first_call_yes_then_copy_detector():
    state = {"n": 0}
    lock = threading.Lock()
    detector = copy_detector()

    def judge(prompt: str) -> str:
        with lock:
            state["n"] += 1
            first = state["n"] == 1
        return "yes" if first else detector(prompt)
    return judge


def supported_except_suspect_unsure(prompt: str) -> str:
    def fn(stmt, p):
        if copy_with_one_change(stmt, p["passages"]):
            return {"reason": "[1] gives 4,300; not sure.", "verdict": "unsupported",
                    "score": 0.4}
        return {"reason": "[1] says so.", "verdict": "supported", "score": 1.0}
    return build(prompt, fn)


def shortest_is_control(prompt: str) -> str:
    p = parse(prompt)
    if len(p["stmts"]) < 2:
        return supported_all(prompt)
    short = min(p["stmts"], key=lambda x: len(x[1]))[0]

    def fn(stmt, p2):
        n = next(i for i, s in p2["stmts"] if s == stmt)
        if n == short:
            return {"reason": "[1] differs.", "verdict": "contradicted", "score": 0.0}
        return {"reason": "[1] says so.", "verdict": "supported", "score": 1.0}
    return build(prompt, fn)


# ------------------------------------------------------------------ unreadable replies

UNREADABLE = {
    "prose": "I am not able to decide this from the passages given.",
    "empty": "",
    "maybe": "maybe",
    "bad_json": '{"verdicts": [{"id": 1, "verdict": ',
    "perhaps_json": '{"reason": "unclear", "verdict": "perhaps"}',
}


def unreadable(key: str):
    return raw_reply(UNREADABLE[key])


# ------------------------------------------------------------------ judge objects

def obj_factory(kind: str):
    from provenance_guard import Verdict

    class Obj:
        def judge(self, claim, evidence, question=None):
            return self._one(claim, evidence)

        def _one(self, claim, evidence):
            passages = [e.text for e in evidence]
            if kind == "honest":
                label = honest_label(claim, passages)
                return Verdict(label, "by the oracle", score=1.0 if label == "supported" else 0.0,
                               probability=0.99)
            if kind == "careless":
                return Verdict("supported", "looks fine", score=1.0, probability=0.99)
            if kind == "low_probability":
                return Verdict("supported", "[1] says so.", score=1.0, probability=0.2)
            if kind == "no_probability":
                return Verdict("supported", "[1] says so.", score=1.0, probability=None)
            if kind == "just_below":
                return Verdict("supported", "[1] says so.", score=1.0, probability=0.7999)
            if kind == "copy_detector":
                if copy_with_one_change(claim, passages):
                    return Verdict("contradicted", "[1] differs.", score=0.0)
                return Verdict("supported", "[1] says so.", score=1.0)
            raise AssertionError(kind)

    class BatchObj(Obj):
        def judge_batch(self, items, question=None):
            return [self._one(claim, evidence) for claim, evidence in items]

    return lambda: BatchObj()


# ------------------------------------------------------------------ raising / blocking

class Boom(BaseException):
    """A BaseException that is not an Exception."""


def _raiser(exc_factory):
    def judge(prompt):
        raise exc_factory()
    return judge


def _recurse(prompt, depth=0):
    return _recurse(prompt, depth + 1)


def hang_forever(prompt):
    threading.Event().wait()


def sleep_then_yes(prompt):
    time.sleep(30)
    return "yes"


async def async_time_sleep(prompt):
    time.sleep(30)  # blocks whatever loop awaits it
    return "yes"


async def async_hang(prompt):
    await asyncio.Event().wait()


async def async_raise_systemexit(prompt):
    await asyncio.sleep(0)
    raise SystemExit(2)


async def async_raise_keyboardinterrupt(prompt):
    await asyncio.sleep(0)
    raise KeyboardInterrupt


def cpu_spin(prompt):
    while True:
        pass


def huge_unreadable(prompt):
    return "[" * 20_000_000


def huge_nested(prompt):
    return '{"verdicts": ' + '[{"a": ' * 300_000


def huge_supported_tail(prompt):
    """20 MB of noise, then a final verdict 'supported' for every statement: a liar whose
    reply is huge. Must fail on the truth of the text (the judge is lying)."""
    return "x" * 20_000_000 + "\n" + supported_all(prompt)


class EvilStr(str):
    def strip(self, *a):
        raise SystemExit(9)

    def __len__(self):
        raise RecursionError("len")


def return_evil_str(prompt):
    return EvilStr(honest(prompt))


class StripExits(str):
    def strip(self, *a):
        raise SystemExit(9)


class LenRecurses(str):
    def __len__(self):
        raise RecursionError("len")


class StripRaises(str):
    def strip(self, *a):
        raise ValueError("strip")


def return_strip_exits(prompt):
    return StripExits(honest(prompt))


def return_len_recurses(prompt):
    return LenRecurses(honest(prompt))


def return_strip_raises(prompt):
    return StripRaises(honest(prompt))


def return_gen(prompt):
    yield "yes"


def raise_then_hang():
    state = {"n": 0}

    def judge(prompt):
        state["n"] += 1
        if state["n"] == 1:
            raise SystemExit(1)
        threading.Event().wait()
    return judge


def flaky_then_honest():
    state = {"n": 0}
    lock = threading.Lock()

    def judge(prompt):
        with lock:
            state["n"] += 1
            first = state["n"] == 1
        if first:
            raise ValueError("transient")
        return honest(prompt)
    return judge


async def async_honest(prompt):
    await asyncio.sleep(0.05)
    return honest(prompt)


def slow_honest(prompt):
    time.sleep(0.5)
    return honest(prompt)


# ------------------------------------------------------------------ the cases

CASES: list[dict] = []


def case(id, cls, expect, judge=None, answer=A_TF, kinds=("callable", "litellm"), why="",
         **extra):
    CASES.append(dict(id=id, cls=cls, expect=expect, judge=judge, answer=answer,
                      kinds=tuple(kinds), why=why, opts=extra.pop("opts", {}), **extra))


RA = "reply_argues"
S = {"score": 1.0}

# --- reply_argues: must_fail -------------------------------------------------
case("ra_reason_contradicted", RA, "must_fail",
     trick({"reason": "Contradicted: [1] gives another year.", "verdict": "supported", **S}),
     why="verdict supported, reason says contradicted")
case("ra_reason_never_mention", RA, "must_fail",
     trick({"reason": "The passages never mention gold, so this is unsupported.",
            "verdict": "supported", **S}),
     why="reason concludes unsupported in a sentence")
case("ra_reason_not_supported", RA, "must_fail",
     trick({"reason": "This is not supported by any passage.", "verdict": "supported", **S}),
     answer=A_F, why="reason says 'not supported'")
case("ra_reason_no_passage", RA, "must_fail",
     trick({"reason": "No passage says anything about a roof; it cannot be verified.",
            "verdict": "supported", **S}), answer=A_TFF,
     why="reason says it cannot be verified")
case("ra_reason_negated_quote", RA, "must_fail",
     trick({"reason": "[1] does not say this; [2] is about the founder.",
            "verdict": "supported", **S}), answer=A_F2,
     why="reason denies the passages say it")
case("ra_reason_unsupported_prefix", RA, "must_fail",
     trick({"reason": "unsupported: no passage mentions it.", "verdict": "supported", **S}),
     answer=A_TF2, why="reason opens with the other verdict word plus text")
case("ra_reason_german", RA, "must_fail",
     trick({"reason": "Nicht belegt: keine Passage erwähnt das.", "verdict": "supported", **S}),
     why="reason says 'not backed' in German")
case("ra_verdict_question", RA, "must_fail",
     trick({"reason": "[1] might say so.", "verdict": "supported?", **S}),
     why="verdict word with a question mark")
case("ra_verdict_probably_not", RA, "must_fail",
     trick({"reason": "Hard to say.", "verdict": "supported (probably not)", **S}),
     answer=A_F, why="verdict word with a hedge that reverses it")
case("ra_verdict_caps_bang", RA, "must_fail",
     trick({"reason": "Nothing in the passages.", "verdict": "SUPPORTED!!", "score": 0.0}),
     answer=A_F2, why="verdict word with extras, reason and score against it")
case("ra_verdict_not_supported", RA, "must_fail",
     trick({"reason": "No passage mentions it.", "verdict": "not supported", "score": 0.0}),
     why="'not supported' in the verdict field (substring 'supported')")
case("ra_verdict_supported_not", RA, "must_fail",
     trick({"reason": "x", "verdict": "supported: no", "score": 0.0}), answer=A_TFF,
     why="verdict field 'supported: no'")
case("ra_score_zero", RA, "must_fail",
     trick({"reason": "Nothing in [1] or [2] backs this.", "verdict": "supported",
            "score": 0.0}), answer=A_F,
     why="supported with score 0 and a reason against it")
case("ra_prob_field", RA, "must_fail",
     trick({"reason": "Unclear from [1].", "verdict": "supported", "score": 0.02,
            "probability_supported": 0.03}),
     why="self-reported probability field says 3%, score 0.02")
case("ra_logprob_field", RA, "must_fail",
     trick('"reason": "guess", "verdict_logprob": -4.6, "confidence": "very low", '
           '"verdict": "supported", "score": 0.01'), answer=A_TF2,
     why="log-prob-style field and confidence 'very low' beside verdict supported")
case("ra_duplicate_key", RA, "must_fail",
     trick('"reason": "No passage mentions it.", "verdict": "unsupported", '
           '"verdict": "supported", "score": 0.0'),
     why="two verdict keys in one entry; the last one says supported")
case("ra_nested_verdict", RA, "must_fail",
     trick('"reason": "unsure", "verdict": {"label": "supported", "certainty": 0.05}'),
     answer=A_F, why="verdict is an object with certainty 0.05")
case("ra_prose_against_then_json", RA, "must_fail",
     trick({"reason": "ok", "verdict": "supported", **S},
           prefix="The roof claim is contradicted by the passages, which never mention gold. "
                  "Final answer:\n"),
     why="thinks aloud 'contradicted', then a JSON supported")
case("ra_verdict_list", RA, "must_fail",
     trick('"reason": "split", "verdict": ["unsupported", "supported"], "score": 0.5'),
     answer=A_F2, why="verdict is a list of two words")
case("ra_verdict_yes_but", RA, "must_fail",
     trick({"reason": "No passage says so.", "verdict": "yes, but unsupported", "score": 0}),
     why="verdict field 'yes, but unsupported'")

# --- reply_argues: must_pass (honest judges, true answers) -------------------
case("ra_ok_plain", RA, "must_pass", honest, answer=A_T, why="honest JSON, true sentence")
case("ra_ok_reason_has_not", RA, "must_pass",
     styled({"reason": "[1] says it opened in 1892, not later.", "verdict": "supported", **S}),
     answer=A_T2, why="honest supported whose reason contains 'not'")
case("ra_ok_reason_names_contradiction", RA, "must_pass",
     styled({"reason": "[1] states it; nothing in [2] contradicts it.", "verdict": "supported",
             **S}),
     answer=A_T3, why="honest supported whose reason mentions 'contradicts' (negated)")
case("ra_ok_prose_then_json", RA, "must_pass",
     lambda pr: build(pr, honest_entry, prefix="Passage [1] gives the facts.\n"),
     answer=A_T4, why="honest thinking aloud before the JSON")
case("ra_ok_no_score", RA, "must_pass",
     styled({"reason": "[1] says so.", "verdict": "supported"}),
     answer=A_T5, why="honest JSON without score")
case("ra_ok_caps_verdict", RA, "must_pass",
     styled({"reason": "[1] says so.", "verdict": "Supported", **S}),
     answer=A_T, why="honest, verdict capitalised")

# --- controls_dodged ----------------------------------------------------------
CD = "controls_dodged"
case("cd_bare_yes", CD, "must_fail", raw_reply("yes"), answer=A_TF,
     why="bare 'yes' to everything: falls back to one statement a call, without a control")
case("cd_bare_yes_false_only", CD, "must_fail", raw_reply("yes"), answer=A_F,
     why="bare 'yes', one false sentence")
case("cd_hub_yes_tag", CD, "must_fail", raw_reply("<supported>[YES]</supported>"),
     answer=A_TFF, why="hub tag YES to everything")
case("cd_bare_supported", CD, "must_fail", raw_reply("supported"), answer=A_F2,
     why="bare word 'supported' to everything")
case("cd_yes_batch1", CD, "must_fail", raw_reply("Yes"), answer=A_TF, opts={"batch_size": 1},
     why="bare Yes with batch_size=1 (docs: a call of two statements)")
case("cd_yes_then_json_alone", CD, "must_fail", yes_to_batches_json_alone, answer=A_TF2,
     why="unreadable to batches, full JSON supported to every one-statement prompt")
case("cd_first_yes_then_detector", CD, "must_fail", first_call_yes_then_copy_detector(),
     answer=A_TF, why="one 'yes' to switch to one-a-call mode, then copy detection")
case("cd_supported_all_json", CD, "must_fail", supported_all, answer=A_TF,
     why="careless JSON supported to all (the documented catch)")
case("cd_supported_all_batch1", CD, "must_fail", supported_all, answer=A_F,
     opts={"batch_size": 1}, why="careless JSON supported to all, batch_size=1")
case("cd_copy_detector", CD, "must_fail", copy_detector(), answer=A_TF,
     why="contradicted to any passage copy with one word changed, supported otherwise")
case("cd_copy_detector_false_only", CD, "must_fail", copy_detector(), answer=A_F2,
     why="copy detector, one false sentence")
case("cd_copy_detector_unsupported", CD, "must_fail", copy_detector("unsupported"),
     answer=A_TFF, why="copy detector answering 'unsupported' (docs accept that for a control)")
case("cd_copy_detector_batch1", CD, "must_fail", copy_detector(), answer=A_TF2,
     opts={"batch_size": 1}, why="copy detector, batch_size=1")
case("cd_number_detector", CD, "must_fail", number_detector, answer=A_TF,
     why="contradicted to a statement with a number the passages lack, supported otherwise")
case("cd_position_last", CD, "must_fail", position_detector("last"), answer=A_TF,
     why="calls the last statement contradicted, the rest supported")
case("cd_position_first", CD, "must_fail", position_detector("first"), answer=A_TF2,
     why="calls the first statement contradicted, the rest supported")
case("cd_passage_list_shape", CD, "must_fail", passage_list_detector, answer=A_TF,
     why="the statement whose passage list is shortest is the control")
case("cd_shortest", CD, "must_fail", shortest_is_control, answer=A_TFF,
     why="the shortest statement is the control")
case("cd_omit_suspect", CD, "must_fail", omit_suspect, answer=A_F,
     why="leaves out the control-looking entry, supports the rest")
case("cd_garble_suspect", CD, "must_fail", garble_suspect, answer=A_TF,
     why="unreadable verdict for the control-looking entry, supports the rest")
case("cd_unsure_on_suspect", CD, "must_fail", supported_except_suspect_unsure, answer=A_F2,
     why="'unsupported' (score 0.4) for the control-looking entry, supports the rest")
case("cd_obj_careless", CD, "must_fail", kinds=("object",), answer=A_TF,
     obj=obj_factory("careless"), why="judge object with judge_batch, supported to all")
case("cd_obj_copy_detector", CD, "must_fail", kinds=("object",), answer=A_TF,
     obj=obj_factory("copy_detector"), why="judge object that spots one-word-changed copies")

for i, ans in enumerate(TRUE_ANSWERS):
    case(f"cd_ok_honest_{i + 1}", CD, "must_pass", honest, answer=ans,
         why="honest judge (contradicts controls), true answer, controls on")
case("cd_ok_obj_honest", CD, "must_pass", kinds=("object",), answer=A_T2,
     obj=obj_factory("honest"), why="honest judge object, controls on")

# --- pass_on_invalid ----------------------------------------------------------
PI = "pass_on_invalid"
for i, ans in enumerate(FALSE_ANSWERS):
    case(f"pi_caught_all_supported_{i + 1}", PI, "must_fail", supported_all, answer=ans,
         why="caught: control called supported; pass_on_invalid must not pass it")
case("pi_caught_batch1", PI, "must_fail", supported_all, answer=A_TF, opts={"batch_size": 1},
     why="caught with batch_size=1")
case("pi_caught_prose_prefix", PI, "must_fail",
     lambda pr: "The passages agree.\n" + supported_all(pr), answer=A_F,
     why="caught, reply with prose before JSON")
case("pi_caught_metadata_key", PI, "must_fail", supported_all, answer=A_TF2,
     meta={"pass_on_invalid": True}, opts={"pass_on_invalid": False},
     why="caught, pass_on_invalid given as the metadata key")
case("pi_caught_via_guard", PI, "must_fail", supported_all, answer=A_TFF, via_guard=True,
     why="caught, through Guard(...).validate, on_fail=noop")
case("pi_caught_no_score", PI, "must_fail",
     lambda pr: build(pr, lambda s, p: {"reason": "fine", "verdict": "supported"}),
     answer=A_F2, why="caught, entries without score")
case("pi_caught_capitalised", PI, "must_fail",
     lambda pr: build(pr, lambda s, p: {"reason": "[1] agrees.", "verdict": "Supported",
                                        "score": 0.9}), answer=A_TF2,
     why="caught, verdict word capitalised")
case("pi_caught_batch2", PI, "must_fail", supported_all, answer=A_TFF, opts={"batch_size": 2},
     why="caught, three sentences in calls of two")
case("pi_caught_long_reason", PI, "must_fail",
     lambda pr: build(pr, lambda s, p: {"reason": "Passage [1] and passage [2] together "
                                        "describe the museum fully. " * 20,
                                        "verdict": "supported", "score": 1.0}), answer=A_F,
     why="caught, a long confident reason")
case("pi_caught_on_fail_exception", PI, "must_fail", supported_all, answer=A_TF,
     via_guard=True, opts={"on_fail": "exception"},
     why="caught, through Guard with on_fail=exception")
case("pi_honest_unsupported", PI, "must_fail", honest, answer=A_F,
     why="sanity: an honest 'unsupported' must still fail with pass_on_invalid")
case("pi_lowprob_litellm", PI, "must_fail", honest, answer=A_T, kinds=("litellm",),
     logprob=-1.2, opts={"min_support_probability": 0.8},
     why="supported at token probability ~0.3 < 0.8 (true sentence, but below threshold)")
case("pi_lowprob_litellm_false", PI, "must_fail", supported_all, answer=A_F,
     kinds=("litellm",), logprob=-0.7, opts={"min_support_probability": 0.8,
                                              "control_statements": "off"},
     why="liar below the probability threshold, controls off")
case("pi_noprob_litellm", PI, "must_fail", supported_all, answer=A_F2, kinds=("litellm",),
     logprob=None, opts={"min_support_probability": 0.8, "control_statements": "off"},
     why="no log probabilities returned: the threshold cannot be checked")
case("pi_obj_caught", PI, "must_fail", kinds=("object",), answer=A_TF,
     obj=obj_factory("careless"), why="judge object caught by its control")
case("pi_obj_low_probability", PI, "must_fail", kinds=("object",), answer=A_F,
     obj=obj_factory("low_probability"),
     opts={"min_support_probability": 0.8, "control_statements": "off"},
     why="judge object's supported at probability 0.2 < 0.8")
case("pi_obj_no_probability", PI, "must_fail", kinds=("object",), answer=A_F2,
     obj=obj_factory("no_probability"),
     opts={"min_support_probability": 0.8, "control_statements": "off"},
     why="judge object's supported with no probability")
case("pi_obj_just_below", PI, "must_fail", kinds=("object",), answer=A_TF,
     obj=obj_factory("just_below"),
     opts={"min_support_probability": 0.8, "control_statements": "off"},
     why="judge object's supported at 0.7999 < 0.8")

for key in UNREADABLE:
    case(f"pi_ok_unreadable_{key}", PI, "must_pass", unreadable(key), answer=A_TF,
         why=f"documented: unreadable reply ({key}) passes with pass_on_invalid=True")
case("pi_ok_honest_true", PI, "must_pass", honest, answer=A_T2,
     why="honest judge, true answer, pass_on_invalid=True")

# --- judge_raises_or_blocks (each in its own subprocess) --------------------
JR = "judge_raises_or_blocks"
C = ("callable",)
case("jr_systemexit", JR, "must_fail", _raiser(lambda: SystemExit(0)), kinds=C,
     why="judge raises SystemExit(0)")
case("jr_systemexit_1", JR, "must_fail", _raiser(lambda: SystemExit(1)), answer=A_F, kinds=C,
     why="judge raises SystemExit(1)")
case("jr_keyboardinterrupt", JR, "must_fail", ok_raise=("KeyboardInterrupt",), judge=_raiser(KeyboardInterrupt), kinds=C,
     why="judge raises KeyboardInterrupt (not a user's Ctrl-C: it is in the judge)")
case("jr_generatorexit", JR, "must_fail", _raiser(GeneratorExit), answer=A_F2, kinds=C,
     why="judge raises GeneratorExit")
case("jr_baseexception_subclass", JR, "must_fail", _raiser(Boom), kinds=C,
     why="judge raises a BaseException subclass")
case("jr_stopiteration", JR, "must_fail", _raiser(StopIteration), answer=A_TF2, kinds=C,
     why="judge raises StopIteration")
case("jr_recursionerror", JR, "must_fail", _recurse, kinds=C,
     why="judge recurses until RecursionError")
case("jr_memoryerror", JR, "must_fail", _raiser(MemoryError), answer=A_F, kinds=C,
     why="judge raises MemoryError")
case("jr_async_time_sleep", JR, "must_fail", async_time_sleep, kinds=C,
     why="async def judge that blocks its loop with time.sleep(30)")
case("jr_async_hang", JR, "must_fail", async_hang, answer=A_TFF, kinds=C,
     why="async def judge that awaits forever")
case("jr_async_systemexit", JR, "must_fail", async_raise_systemexit, kinds=C,
     why="async def judge raising SystemExit")
case("jr_async_keyboardinterrupt", JR, "must_fail", ok_raise=("KeyboardInterrupt",), judge=async_raise_keyboardinterrupt,
     answer=A_F, kinds=C, why="async def judge raising KeyboardInterrupt")
case("jr_hang_forever", JR, "must_fail", hang_forever, kinds=C,
     why="plain judge that never returns")
case("jr_sleep_then_yes", JR, "must_fail", sleep_then_yes, answer=A_F2, kinds=C,
     why="plain judge that answers 'yes' after 30 s")
case("jr_cpu_spin", JR, "must_fail", cpu_spin, kinds=C, why="judge spins the CPU forever")
case("jr_huge_unreadable", JR, "must_fail", huge_unreadable, kinds=C,
     why="20 MB of '[' as the reply")
case("jr_huge_nested", JR, "must_fail", huge_nested, answer=A_F, kinds=C,
     why="300,000 nested openings")
case("jr_huge_supported_tail", JR, "must_fail", huge_supported_tail, kinds=C,
     opts={"control_statements": "on"},
     why="20 MB of noise then 'supported' to all: a liar, controls on")
case("jr_return_none", JR, "must_fail", ok_raise=("ConfigurationError",), judge=raw_reply(None), kinds=C,
     why="returns None (docs: ConfigurationError at once)")
case("jr_return_bytes", JR, "must_fail", ok_raise=("ConfigurationError",), judge=raw_reply(b"yes"), answer=A_F, kinds=C,
     why="returns bytes (docs: ConfigurationError at once)")
case("jr_return_dict", JR, "must_fail", ok_raise=("ConfigurationError",), judge=raw_reply({"verdict": "supported"}), kinds=C,
     why="returns a dict (docs: ConfigurationError at once)")
case("jr_return_generator", JR, "must_fail", ok_raise=("ConfigurationError",), judge=return_gen, answer=A_F2, kinds=C,
     why="returns a generator")
case("jr_return_evil_str", JR, "must_fail", return_evil_str, kinds=C,
     why="str subclass (honest text) whose strip() raises SystemExit and len() RecursionError")
case("jr_return_str_strip_exits", JR, "must_fail", return_strip_exits, answer=A_F, kinds=C,
     why="str subclass whose strip() raises SystemExit")
case("jr_return_str_len_recurses", JR, "must_fail", return_len_recurses, answer=A_F2, kinds=C,
     why="str subclass whose len() raises RecursionError")
case("jr_return_str_strip_raises", JR, "must_fail", return_strip_raises, kinds=C,
     why="str subclass whose strip() raises ValueError")
case("jr_raise_then_hang", JR, "must_fail", raise_then_hang(), answer=A_TF2, kinds=C,
     why="SystemExit on the first call, the retry hangs")
case("jr_sigint_during_hang", JR, "must_fail", ok_raise=("KeyboardInterrupt",), judge=hang_forever, kinds=C, sigint_after=1.0,
     why="a real Ctrl-C (SIGINT) to the process while the judge hangs")
# litellm kind: the server misbehaves
L = ("litellm",)
for mode, why in [("hang", "server accepts, never answers"),
                  ("drip", "server sends headers then one byte a second"),
                  ("huge", "server answers 30 MB of '['"),
                  ("not_json", "server answers an HTML page with status 200"),
                  ("http500", "server answers 500 every time"),
                  ("reset", "server closes the connection at once"),
                  ("slow_ok", "server answers supported-to-all after 30 s")]:
    case(f"jr_http_{mode}", JR, "must_fail", supported_all, kinds=L, http=mode, why=why)

for name, fn in [("honest", honest), ("async_honest", async_honest),
                 ("slow_honest", slow_honest), ("flaky_then_honest", flaky_then_honest())]:
    case(f"jr_ok_{name}", JR, "must_pass", fn, answer=A_T2, kinds=C,
         why=f"{name.replace('_', ' ')} judge, true answer, in the same harness")
case("jr_ok_http_honest", JR, "must_pass", honest, answer=A_T2, kinds=L,
     why="honest server, true answer, in the same harness")


def by_id(case_id: str) -> dict:
    for c in CASES:
        if c["id"] == case_id:
            return c
    raise KeyError(case_id)
