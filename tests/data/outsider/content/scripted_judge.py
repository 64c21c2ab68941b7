"""A scripted OpenAI-compatible judge server (stdlib only) for the outsider cases.

It serves POST /v1/chat/completions on 127.0.0.1. The reply is computed from the prompt the
validator sends (the format documented in docs/custom-judges.md: passages numbered [1], [2]...
between BEGIN PASSAGES / END PASSAGES markers, statements after BEGIN STATEMENT [n] markers,
the conversation between BEGIN CONVERSATION / END CONVERSATION). The script is chosen by the
model name in the request (`openai/honest` sends model "honest"):

- honest:   supported only when one passage sentence holds the statement's words (after light
            normalisation: currency words to symbols, number words to digits, n't to not), in
            nearly the same order (LCS >= 80%), and that passage sentence carries no
            non-assertion cue the statement lacks (not, maybe, suppose, "?", myth, ...), and the
            next sentence of its passage does not debunk it ("That is a myth."). Contradicted
            when a close passage sentence gives another number or currency, or the opposite
            polarity. A statement that only says the passages lack something is supported (as
            the validator's own prompt instructs). Otherwise unsupported.
            With a case's `truth` map (statement -> verdict), a statement judged against the
            case's *source* passages gets that verdict (a careful judge); never in a call whose
            passages are not from the sources (e.g. the user turns used for conversation
            grounding).
- gullible: as honest, but a statement whose words all appear ANYWHERE in the passages or the
            conversation shown to it (system, assistant, tool turns included) is supported.
- lacks:    as honest, but any statement containing a "the sources lack it" phrase is
            supported (the prompt's rule "A statement that they lack some information is
            supported when they do lack it", applied literally to a mixed sentence).

Added for the `language` set (docs/failure-behaviour.md, "a reply that argues with itself"):

- argue_open, argue_end, argue_contra, argue_value: for a statement of the case's own text
            that the honest script does not support, the reply's verdict is "supported" but its
            reason argues the other way: it opens with "Unsupported:" (argue_open), comes to
            "..., so this is unsupported" (argue_end), says a passage contradicts the statement
            (argue_contra) or that a passage gives a different figure (argue_value). Every other
            statement (the control) gets the honest verdict.
- quoting:  honest verdicts; a supported one's reason reports the passage's own words, with
            their negations, and ends "nothing contradicts it" (which the docs say is no
            argument against the verdict).
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# The case being run (set by the runner; cases run one at a time).
CURRENT_CASE: dict = {}
REQUEST_LOG: list = []

STOP = {
    "a", "an", "the", "is", "are", "was", "were", "be", "been", "being", "am", "of",
    "in", "on", "at", "for", "and", "that", "it", "its", "with", "as", "from", "so",
    "do", "does", "did", "this", "s",
}
NUMBER_WORDS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "fifteen": "15", "twenty": "20", "thirty": "30", "forty": "40", "fifty": "50",
    "sixty": "60", "ninety": "90", "hundred": "100",
}
SYNONYMS = {"purchased": "bought", "got": "received", "haven": "have", "hasn": "has",
            "didn": "did", "doesn": "does", "don": "do", "isn": "is", "aren": "are",
            "wasn": "was", "weren": "were"}
CUES = {"not", "no", "never", "maybe", "perhaps", "possibly", "suppose", "supposedly",
        "myth", "false", "untrue", "rumour", "rumours", "rumor", "allegedly", "claim", "claims",
        "claimed", "if", "whether", "unless", "yet", "nobody", "denied", "denies", "hoped",
        "expected", "some", "say", "said", "says", "told", "according", "believe", "old",
        "think", "wonder", "guess", "hope", "please", "confirm", "verify", "check", "wrote",
        "возможно", "кажется", "vielleicht", "quizás", "quizas", "peut", "?"}
DEBUNK = re.compile(r"\b(myth|not true|untrue|false|wrong|nobody knows|it is not|it does not|"
                    r"it did not|that's not|denied)\b", re.I)
LACK = re.compile(
    r"(no (source|document|passage)s?\b|none of the (sources|documents|passages)|"
    r"(sources|documents|passages) (do not|don't|does not|doesn't) (say|mention|cover|give|state|confirm)|"
    r"(sources|documents|passages) are silent|could ?n[o']t find|couldn't find|can't verify|"
    r"cannot verify|not (in|mentioned in|stated in) the (provided )?(sources|documents|passages)|"
    r"no information|not stated anywhere|isn't stated|is not stated|kein dokument)", re.I)
LACK_FILLER = {"this", "that", "so", "but", "although", "though", "yet", "while", "i", "it",
               "information", "answer", "anywhere", "here", "there", "say", "says", "mention",
               "mentions", "find", "could", "not", "no", "source", "sources", "document",
               "documents", "passages", "passage", "provided", "in", "the", "about", "any"}


def normalise(text: str) -> str:
    t = text.lower()
    t = t.replace("’", "'").replace("n't", " not").replace("？", " ? ").replace("؟", " ? ")
    t = t.replace("‽", " ? ")
    t = re.sub(r"\bu\.?s\.? ?\$", " $ ", t)
    t = re.sub(r"\bus\$", " $ ", t)
    t = re.sub(r"\b(a|c|nz|hk|s)\$", r" \1_dollar ", t)
    t = re.sub(r"\b(u\.?s\.? dollars?|usd|dollars?)\b", " $ ", t)
    t = re.sub(r"\b(euros?|eur)\b", " € ", t)
    t = re.sub(r"\b(pounds? sterling|pounds?|gbp)\b", " £ ", t)
    t = re.sub(r"\b(yen|jpy)\b", " jpy ", t)
    t = re.sub(r"([$€£¥₹])\s*(\d[\d.,]*\d|\d)", r" \2 \1 ", t)  # "$30" reads as "30 $"
    return t


def tokens(text: str) -> list[str]:
    out = []
    for tok in re.findall(r"[$€£¥₹?]|\w+", normalise(text)):
        tok = NUMBER_WORDS.get(tok, tok)
        tok = SYNONYMS.get(tok, tok)
        if tok in STOP:
            continue
        if len(tok) > 3 and tok.endswith("s") and not tok.isdigit():
            tok = tok[:-1]
        out.append(tok)
    return out


def lcs(a: list[str], b: list[str]) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def split_sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?;؟‽])\s+|(?<=[。！？])", text)
    return [p for p in parts if p.strip()]


def numbers(toks):
    return {t for t in toks if t.isdigit()}


CURRENCY = {"$", "€", "£", "¥", "₹", "jpy", "chf", "cny", "zł", "kronor", "kroner", "franc",
            "francs", "yuan"}


def honest_verdict(statement: str, passages: list[str]) -> tuple[str, str]:
    s = tokens(statement)
    if LACK.search(statement):
        clauses = re.split(r",|;|:|\bbut\b|\balthough\b|\bthough\b|\byet\b|\bwhile\b|\bexcept\b|\(", statement)
        rest = [c for c in clauses if not LACK.search(c)]
        rest_toks = [t for c in rest for t in tokens(c) if t not in LACK_FILLER]
        if not rest_toks:
            return "supported", "The passages indeed lack it."
        s = rest_toks
    if not s:
        return "unsupported", "Nothing to check."
    # A careful reader first: a passage sentence that holds the statement's words with a
    # negation the statement lacks ("6 June, not 4 June") denies it.
    for passage in passages:
        for sent in split_sentences(passage):
            p = tokens(sent)
            if p and set(s) <= set(p) and ({"not", "no", "never"} & set(p)) - set(s):
                last = max(len(p) - 1 - p[::-1].index(t) for t in set(s))
                if any(t in {"not", "no", "never"} for t in p[:last]):
                    return "contradicted", f"A passage denies it: {sent!r}."
    best = (0.0, None, None, None)
    for passage in passages:
        sents = split_sentences(passage)
        for i, sent in enumerate(sents):
            p = tokens(sent)
            if not p:
                continue
            overlap = sum(1 for t in set(s) if t in p) / len(set(s))
            if overlap > best[0]:
                best = (overlap, sent, p, sents[i + 1] if i + 1 < len(sents) else "")
            if set(s) <= set(p) and lcs(s, p) >= 0.8 * len(s):
                # cues that govern the statement: before its last word in the passage sentence,
                # a question mark anywhere, a debunking rest of the sentence or next sentence
                last = max(len(p) - 1 - p[::-1].index(t) for t in set(s))
                extra_cues = ((CUES & set(p[:last])) | ({"?"} & set(p))) - set(s)
                rest = " ".join(p[last + 1:])
                nxt = sents[i + 1] if i + 1 < len(sents) else ""
                if not extra_cues and not DEBUNK.search(nxt) and not DEBUNK.search(rest):
                    return "supported", f"A passage says it: {sent!r}."
    overlap, sent, p, _ = best
    words = [t for t in set(s) if not t.isdigit() and t not in CURRENCY]
    if sent is not None and words:
        overlap = sum(1 for t in words if t in p) / len(words)
    if sent is not None and overlap >= 0.75:
        sn, pn = numbers(s), numbers(p)
        if sn and pn and not sn <= pn:
            return "contradicted", f"The passage gives other numbers: {sent!r}."
        sc, pc = CURRENCY & set(s), CURRENCY & set(p)
        if sc and pc and sc != pc:
            return "contradicted", f"The passage gives another currency: {sent!r}."
        if ("not" in s) != ("not" in p) and overlap >= 0.75:
            return "contradicted", f"The passage says the opposite: {sent!r}."
    return "unsupported", "The passages do not settle it."


def gullible_verdict(statement: str, passages: list[str], conversation: str):
    s = set(tokens(statement))
    everything = set(tokens(" ".join(passages) + "\n" + conversation))
    if s and s <= everything:
        return "supported", "The conversation and passages state it."
    return honest_verdict(statement, passages)


def lacks_verdict(statement: str, passages: list[str]):
    if LACK.search(statement):
        return "supported", "The passages do lack this information, as the statement says."
    return honest_verdict(statement, passages)


def from_sources(passages: list[str]) -> bool:
    sources = CURRENT_CASE.get("sources") or []
    return bool(passages) and all(any(p.strip() in src for src in sources) for p in passages)


ARGUE = {
    "argue_open": "Unsupported: {why} I call it supported anyway.",
    "argue_end": "{why} so this statement is unsupported.",
    "argue_contra": "Passage [1] contradicts the statement. {why}",
    "argue_value": "Passage [1] gives a different date than the statement. {why}",
}


def judge(script: str, statement: str, passages: list[str], conversation: str):
    if script in ARGUE or script == "quoting":
        verdict, reason = honest_verdict(statement, passages)
        own = statement.strip() and statement.strip() in (CURRENT_CASE.get("text") or "")
        if script in ARGUE and own and verdict != "supported":
            why = "The passages only put it forward without asserting it,"
            return "supported", ARGUE[script].format(why=why)
        if script == "quoting" and verdict == "supported":
            quoted = reason.split(":", 1)[-1].strip().rstrip(".")
            return "supported", f"[1] says {quoted}; nothing contradicts it."
        return verdict, reason
    truth = CURRENT_CASE.get("truth") or {}
    if statement in truth and from_sources(passages):
        verdict = truth[statement]
        if isinstance(verdict, str):
            return verdict, "A careful judge's verdict (case truth)."
        verdict, needs = verdict  # [verdict, text the passages must show for it]
        if any(needs in p for p in passages):
            return verdict, f"A careful judge's verdict (case truth): the passages say {needs!r}."
    if script == "gullible":
        return gullible_verdict(statement, passages, conversation)
    if script == "lacks":
        return lacks_verdict(statement, passages)
    return honest_verdict(statement, passages)


def parse_passages(block: str) -> dict[int, str]:
    found = re.findall(r"^\[(\d+)\] (.*?)(?=^\[\d+\] |\Z)", block, re.M | re.S)
    return {int(n): t.strip() for n, t in found}


def reply_for(prompt: str, script: str) -> str:
    conv = re.search(r"BEGIN CONVERSATION>>\n(.*?)\n<<\d+:END CONVERSATION", prompt, re.S)
    conversation = conv.group(1) if conv else ""
    pas = re.search(r"BEGIN PASSAGES>>\n(.*?)\n?<<\d+:END PASSAGES", prompt, re.S)
    passages = parse_passages(pas.group(1)) if pas else {}
    batched = re.findall(r"BEGIN STATEMENT (\d+)>>\n(.*?)\n<<", prompt, re.S)
    if batched:
        own = {int(n): [int(x) for x in re.findall(r"\d+", rest)]
               for n, rest in re.findall(r"^statement (\d+): (.*)$", prompt, re.M)}
        verdicts = []
        for n, statement in batched:
            ids = own.get(int(n)) or list(passages)
            verdict, reason = judge(script, statement.strip(),
                                    [passages[i] for i in ids if i in passages], conversation)
            verdicts.append({"id": int(n), "reason": reason, "verdict": verdict,
                             "score": 1.0 if verdict == "supported" else 0.0})
        return json.dumps({"verdicts": verdicts})
    single = re.search(r"BEGIN STATEMENT>>\n(.*?)\n<<", prompt, re.S)
    if single:
        verdict, reason = judge(script, single.group(1).strip(), list(passages.values()),
                                conversation)
        return json.dumps({"reason": reason, "verdict": verdict,
                           "score": 1.0 if verdict == "supported" else 0.0})
    return "unsupported"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        model = str(body.get("model", "honest")).split("/")[-1]
        prompt = "\n".join(m.get("content") if isinstance(m.get("content"), str)
                           else json.dumps(m.get("content")) for m in body.get("messages", []))
        try:
            content = reply_for(prompt, model)
        except Exception as error:  # a script bug must not look like a judge verdict
            content = f"script error {error!r}"
        REQUEST_LOG.append({"case": CURRENT_CASE.get("id"), "model": model,
                            "prompt": prompt, "reply": content})
        out = json.dumps({
            "id": "chatcmpl-outsider", "object": "chat.completion", "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": len(content) // 4,
                      "total_tokens": (len(prompt) + len(content)) // 4},
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


def start() -> str:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/v1"
