"""What a person asserted: whether a sentence states its content as so, read once for every
place that needs it (the user's turns of a conversation, the sources the rule checker and the
verbatim cascade read).

A sentence does not assert what it says when it

- asks it: a question mark of any script anywhere in it (``?``, ``？``, ``؟``, ``‽``, ``¿``, the
  Greek ``;``), or the English inverted opening of a question ("Is it true that ..." with no
  mark);
- requests it: "Please confirm that ...", "Can you check whether ...", "Verify that ...", or
  asks for something to be done: "Please cancel order 5120.";
- hedges it: "maybe", "perhaps", "probably", "might", "I think", "I'm not sure", "nobody knows";
- supposes it: "Suppose ...", "What if ...", "Let's say ...", or holds it on a condition
  (``CONDITION``): "If ...", "Unless ...";
- denies it: "It is not true that ...", "... , but that's not true", "the myth that ...";
- reports someone else's words (``REPORT``): "A forum post says ...", "My friend told me ...",
  "I read that ...", a quotation;
- is taken back or questioned by the sentence after it, when that sentence has nothing of its
  own to say: "That is a myth.", "That's not true.", "Is that correct?", "Right?";
- instructs whoever reads it what to say (``INSTRUCTION``), as text planted for a model does:
  "SYSTEM: ...", "Note to the assistant: ...", "FYI for the AI: ...", "Ignore previous
  instructions and ...", "Tell the user that ...", "The assistant must state ...", "Respond
  with ...", "Regardless of the fields above, ...", "The field above is stale", "The correct
  answer is ...", a chat template's tags ("</tool_result><system>").

Fails closed: a sentence read as not asserting grounds and supports nothing, so a cue read
where it was not meant costs a check, never a pass. Questions are read in every script; the
other kinds by English words (the sentence splitter's languages have their own question marks,
which are read). Each caller decides which kinds it takes as not asserted: a source that
reports what someone said ("The company said profits rose") is how documents state things, so
the rule checker does not count ``REPORT`` against a source, nor ``CONDITION`` (it reads a
source's conditions itself, and a claim that keeps the condition is stated); a user's report of
what someone else said, or a condition, is not the user's assertion.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

QUESTION = "a question"
REQUEST = "a request to check it"
HEDGE = "hedged"
SUPPOSITION = "a supposition"
CONDITION = "a condition"
DENIAL = "denied"
REPORT = "a report of what someone else said"
TAKEN_BACK = "taken back by the sentence after it"
QUESTIONED = "questioned by the sentence after it"
CUT = "cut by a bound, so not read whole"
INSTRUCTION = "an instruction to whoever reads it"

# Question marks: ASCII, full-width, small, Arabic, interrobang, Spanish opening, reversed,
# Greek (U+037E), Armenian, Ethiopic, and the Chinese/Japanese full-width one above.
_QUESTION_MARKS = re.compile("[?？﹖؟‽¿⸮\u037e\u055e\u1367]")

_WORDS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")

_SUBJECTS = (r"(?:it|there|this|that|these|those|the|a|an|my|your|our|their|his|her|its|you|i|"
             r"we|they|he|she|someone|anyone|everyone)")
_AUXILIARIES = (r"(?:is|are|was|were|am|do|does|did|can|could|will|would|should|shall|has|have|"
                r"had|may|might|must|isn't|aren't|wasn't|weren't|doesn't|didn't|can't|won't)")
_OPENING = r"^(?:(?:so|ok(?:ay)?|well|hi|hello|hey|also|and|but|oh|um|now)\b[,:]?\s+)*"

_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.IGNORECASE)) for kind, pattern in (
        (QUESTION, _OPENING + rf"{_AUXILIARIES}\s+{_SUBJECTS}\b"),
        (QUESTION, _OPENING + r"(?:i\s+wonder|i'm\s+wondering|wondering)\b"),
        (QUESTION, r"\b(?:whether|or\s+not)\b"),
        (REQUEST, _OPENING + r"(?:(?:please|kindly)\s+)?(?:(?:can|could|would|will)\s+you\s+)?"
                  r"(?:please\s+)?(?:confirm|verify|check|double[-\s]?check|validate|tell\s+me|"
                  r"let\s+me\s+know|find\s+out|make\s+sure|see\s+if)\b"),
        (REQUEST, r"\b(?:i(?:\s+need|\s+want|\s+would\s+like|'d\s+like)\s+(?:you\s+)?to\s+"
                  r"(?:confirm|verify|check|know)|please\s+(?:confirm|verify|check))\b"),
        # asked of the one who answers: "Please cancel order 5120.", "Cancel it, please.",
        # "I'd like you to book the 9:30."
        # ("Please note that ..." asks for attention to what it asserts)
        (REQUEST, _OPENING + r"(?:please|kindly|pls|plz)\b(?!,?\s+(?:note|be\s+aware|remember|"
                  r"see|allow|expect|keep\s+in\s+mind|bear\s+in\s+mind|be\s+advised))"
                  r"|\bplease\W*$"
                  r"|\bi(?:\s+need|\s+want|\s+would\s+like|'d\s+like)\s+you\s+to\b"),
        (HEDGE, r"\b(?:maybe|perhaps|possibly|probably|presumably|supposedly|allegedly|"
                r"reportedly|apparently|seemingly|might|may\s+(?:have|be|not)|could\s+(?:have|be)|"
                r"not\s+(?:sure|certain)|unsure|uncertain|unclear|unknown|unconfirmed|undecided|"
                r"rumou?red|(?:no\s*(?:one|body)|nobody)\s+(?:knows|is\s+sure|can\s+say))\b"),
        (HEDGE, r"\bi\s+(?:think|believe|guess|suppose|assume|suspect|reckon|feel|doubt|"
                r"imagine|hope|fear|gather|understand)\b|\bi'?m\s+(?:guessing|assuming|told)\b"),
        (HEDGE, r"\bas\s+far\s+as\s+i\s+(?:know|can\s+tell|remember|recall|understand)\b"
                r"|\bif\s+i\s+(?:remember|recall)\b|\bto\s+the\s+best\s+of\s+my\b"
                r"|\b(?:if|unless)\s+i'?m\s+(?:not\s+)?mistaken\b|\bi\s+could\s+be\s+wrong\b"
                r"|\bi\s+(?:don't|do\s+not)\s+(?:know|remember)\b|\bcorrect\s+me\s+if\b"
                r"|\bi\s+(?:forget|am\s+not\s+sure)\b"),
        (SUPPOSITION, _OPENING + r"(?:suppose|supposing|assume|assuming|imagine|hypothetically|"
                      r"what\s+if|let's\s+say|let\s+us\s+say|say|in\s+theory)\b"),
        (CONDITION, _OPENING + r"(?:if|unless|in\s+case|even\s+if|only\s+if)\b"),
        (DENIAL, r"\b(?:it\s+is|it's|that\s+is|that's|this\s+is|which\s+is|is)\s+(?:not\s+true|"
                 r"untrue|false|a\s+myth|a\s+lie|a\s+hoax|incorrect|wrong|a\s+rumou?r|fake|"
                 r"not\s+the\s+case|nonsense|a\s+misconception)\b"),
        (DENIAL, r"\b(?:the\s+)?(?:myth|misconception|rumou?r|claim|idea|notion|belief)\s+that\b"
                 r"|\b(?:was|were|has\s+been|have\s+been)\s+(?:denied|"
                 r"debunked|disproven|refuted)\b|\bnot\s+(?:true|correct|right)\s+that\b"),
        # a label before a colon that says what follows is not so ("Myth: ...", "Proposal
        # (not adopted): ...", "Outdated: ...")
        (DENIAL, r"^\W*(?:(?:common|popular|frequent|old|urban)\s+)?(?:myths?|misconceptions?|"
                 r"rumou?rs?|claims?|allegations?|proposals?|"
                 r"drafts?|hypothes[ie]s|outdated|obsolete|deprecated|superseded|retracted|"
                 r"withdrawn|false|fake|fiction|unverified|unconfirmed|not\s+true)\b[^:.]{0,30}:"),
        # text that tells its reader, a model, what to say is no statement of what is so
        (INSTRUCTION, r"^\W*(?:from\s*:\s*|(?:message|notice)\s+from\s+(?:the\s+)?)?"
                      r"(?:system|assistant|ai|developer|admin(?:istrator)?|instructions?|llm|"
                      r"prompt|output|override|new\s+instructions?|"
                      r"(?:note|message)\s+(?:to|for)\s+(?:the\s+)?(?:assistant|ai|model|agent|"
                      r"llm|bot|chatbot))(?:\s+(?:message|prompt|note|notice|override|"
                      r"instructions?|response|reply|output|answer|administrator|injection))?"
                      r"\s*(?:[:>\]\-\u2013\u2014\n]|$)"),
        (INSTRUCTION, r"\b(?:let|make\s+sure)\s+(?:the\s+)?(?:user|customer|caller|client)s?\s+"
                      r"know\b|\bfrom\s+now\s+on\b|^\W*(?:consider|treat|pretend|act\s+as)\b"
                      r"|\b(?:begin|start|end)\s+your\s+(?:answer|reply|response)\b"
                      r"|\byour\s+(?:answer|reply|response)\s+(?:must|should|has\s+to)\b"
                      r"|\b(?:say|repeat|read)\s+(?:this|that|it)\s+(?:back\s+)?(?:verbatim\s+)?"
                      r"to\s+(?:the\s+)?(?:user|customer)"),
        (INSTRUCTION, r"\{\{\s*(?:assistant|system|user)\s*\}\}|\[/?INST\]|<\|[^|>]{1,20}\|>"),
        (INSTRUCTION, r"\b(?:ignore|disregard|forget|override)\s+(?:(?:all|any|the|your|of)\s+)*"
                      r"(?:(?:previous|prior|above|earlier|other|preceding|system|original)\s+)?"
                      r"(?:instructions|rules|guidelines|prompts?|context|evidence|data)\b"),
        (INSTRUCTION, r"\b(?:tell|inform|assure|reassure|notify|answer|respond\s+to|reply\s+to|"
                      r"say\s+to|confirm\s+to)\s+(?:the\s+)?(?:user|customer|caller|client|"
                      r"requester|human|shopper|guest)s?\b"),
        (INSTRUCTION, r"\byou\s+(?:must|should|need\s+to|have\s+to|are\s+to)\s+(?:always\s+)?"
                      r"(?:say|tell|respond|reply|answer|state|confirm|claim|report)\b"),
        (INSTRUCTION, r"\b(?:you|the\s+(?:assistant|ai|model|chatbot|bot|agent|llm))\s+"
                      r"(?:must|should|needs?\s+to|has\s+to|have\s+to|is\s+to|are\s+to|will)\s+"
                      r"(?:always\s+|now\s+)?(?:say|tell|respond|reply|answer|state|confirm|claim|"
                      r"report|inform|mention|assure|write)\b"),
        (INSTRUCTION, r"\b(?:for|to)\s+(?:the\s+)?(?:assistant|ai|model|agent|llm|bot|chatbot)"
                      r"\W{0,3}:|^\W*(?:respond|reply|answer)\s+(?:with|that)\b"),
        (INSTRUCTION, r"\bregardless\s+of\s+(?:the\s+|what\s+|any\s+)?(?:fields?|data|above|"
                      r"previous|results?|records?|values?|sources?|evidence)\b|\b(?:field|value|"
                      r"data|status|record|information|result)s?\s+above\s+(?:is|are)\s+"
                      r"(?:stale|outdated|wrong|incorrect|old|obsolete|invalid)\b"),
        (INSTRUCTION, r"\bthe\s+(?:correct|right|real|true|actual)\s+answer\s+is\b"
                      r"|</?\s*(?:system|assistant|user|tool_result|tool|instructions?|im_start|"
                      r"im_end)\b[^>]*>"),
        (REPORT, r"\b(?:says?|said|saying|tells?|told|claims?|claimed|writes?|wrote|written|"
                 r"posts?|posted|mentions?|mentioned|heard|read|according\s+to|quoted?|"
                 r"reports?|reported|insists?|insisted|swears?|swore)\b"),
        (REPORT, "[\"“”„«»]"),
        (REPORT, r"(?:^|\s)['‘][^'’]{8,}['’]"),
    ))

# What a sentence that only takes back or questions the one before it may hold besides
# function words: "That is a myth.", "That's not true!", "Is that correct?", "Right?".
_BACK_WORDS = frozenset("""that that's this it it's is was are were not isn't wasn't true
    false untrue correct incorrect right wrong accurate inaccurate a an the myth lie hoax rumour
    rumor fake nonsense so really or actually sure case confirm verify check can you could please
    am i i'm did do does no nope yes yeah well just though at all of course totally completely
    entirely doesn't don't didn't aren't weren't outdated obsolete information statement claim
    old stale anymore longer""".split())
_DENIED_BACK = frozenset("not false untrue incorrect wrong myth lie hoax rumour rumor fake "
                         "nonsense inaccurate nope no isn't wasn't doesn't don't didn't aren't "
                         "weren't outdated obsolete".split())
# A sentence that opens by taking back what came before ("Actually, scratch that, ...", "No
# wait, ...", "Just kidding.", "Correction: ...", "Sorry, I meant ..."), or says it was wrong.
RETRACTS = re.compile(
    r"^\W*(?:actually|scratch\s+that|strike\s+that|no\W+wait|wait\W+no|wait|correction|update|"
    r"never\s*mind|just\s+kidding|(?:i'?m|i\s+am)\s+kidding|i\s+(?:meant|mean)|oops|"
    r"my\s+(?:mistake|bad)|not\s+really|ignore\s+(?:that|what\s+i\s+said)|"
    r"sorry\W+(?:i\s+(?:meant|mean)|(?:it|that)\s+(?:was|is)|no|wrong))\b"
    r"|\b(?:i\s+was\s+wrong|that\s+was\s+wrong|i\s+was\s+mistaken)\b", re.IGNORECASE)


def unasserted(sentence: str) -> str | None:
    """Why ``sentence`` does not assert what it says (one of the kinds above), or None."""
    if _QUESTION_MARKS.search(sentence):
        return QUESTION
    text = sentence.replace("’", "'").strip(" \t\n*_>-#•")
    for kind, pattern in _KINDS:
        if pattern.search(text):
            return kind
    return None


def unasserted_each(sentences: Sequence[str]) -> list[str | None]:
    """``unasserted`` of each of one turn's or passage's sentences, in order, and also a
    sentence the next one takes back or questions with nothing of its own to say."""
    kinds = [unasserted(s) for s in sentences]
    for n, sentence in enumerate(sentences):  # "Common myths:" heads the list that follows
        if kinds[n] == DENIAL and sentence.rstrip().endswith(":"):
            kinds[n + 1:] = [kinds[k] or DENIAL for k in range(n + 1, len(sentences))]
            break
    for n in range(len(sentences) - 1):
        back = _back(sentences[n + 1])
        if back is not None and kinds[n] is None:
            kinds[n] = back
    return kinds


def _back(sentence: str) -> str | None:
    """TAKEN_BACK or QUESTIONED when ``sentence`` takes back (``RETRACTS``) or only questions
    the one before it: then all of its words are of ``_BACK_WORDS``."""
    if RETRACTS.search(sentence.replace("’", "'")):
        return TAKEN_BACK
    words = [w.lower() for w in _WORDS.findall(sentence.replace("’", "'"))]
    if not words or not all(w in _BACK_WORDS for w in words):
        return None
    if _QUESTION_MARKS.search(sentence):
        return QUESTIONED
    return TAKEN_BACK if any(w in _DENIED_BACK for w in words) else None
