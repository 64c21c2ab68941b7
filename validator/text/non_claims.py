"""Sentences that assert nothing a source could back: greetings, thanks, offers of help,
questions back to the user, the writer's own feelings, and (to a question that is not a yes/no
question) an acknowledgment such as "Sure!".

Such a sentence is *not a claim*: it is marked so in the result, not judged (no judge call),
and it never fails the text. The list is closed and strict, because a sentence wrongly read as
a pleasantry would pass unchecked. A sentence is one only when the whole of it is one of the
forms below, word for word but for the optional words each form allows; so a sentence is
judged, however it opens, when it holds anything else: a number, a capitalised word (a name, a
month) other than the first word and "I", a negation, or any word about the world ("Thanks, the
drug is safe!", "Let me know if you need the 2019 figures.", "I love that the drug is safe!").
The one open slot is the noun after "I love that/this" ("I love that film!"), one lower-case
word and nothing after it.

English only: a pleasantry in another language is judged like any sentence.
"""

from __future__ import annotations

import re
import unicodedata

from .word_forms import fold

GREETING = "greeting"
THANKS = "thanks"
OFFER = "offer of help"
QUESTION = "question back"
FEELING = "feeling"
ACKNOWLEDGMENT = "acknowledgment"
FORMS = (GREETING, THANKS, OFFER, QUESTION, FEELING, ACKNOWLEDGMENT)

_GOOD = (r"(?:great|good|excellent|wonderful|lovely|fun|fantastic|awesome|nice|interesting"
         r"|fascinating|amazing|exciting)")
_SO = r"(?:(?:so|very|really|truly|just|always|more than|most) )?"
_THIS = r"(?:this|that|it)"
_WANTED = (r"(?:(?:any|some) )?(?:(?:more|other|further|additional) )?(?:questions?|help|information"
           r"|details)|anything(?: else)?|something(?: else)?|more")

# Each form: the sentence in lower case, its words joined by single spaces, without the
# punctuation around its words (see ``_words``). A question back must end with "?".
_TABLE: tuple[tuple[str, str], ...] = (
    (GREETING, r"(?:hi|hello|hey|greetings|good (?:morning|afternoon|evening|day)|welcome)"
               r"(?: (?:there|everyone|everybody|all|again|back|friends?|folks))?"
               r"|everyone|everybody|all|friends?|folks"),
    (GREETING, rf"(?:it's |it is )?{_SO}(?:nice|great|good|lovely) to (?:meet|see|hear from) you"
               r"(?: again)?"),
    (GREETING, r"(?:i )?hope you(?:'re| are) (?:doing )?(?:well|good|great)"),
    # farewells and wishes
    (GREETING, rf"(?:have|enjoy) (?:a |the rest of your )?{_SO}{_GOOD} (?:day|evening|weekend|"
               r"night|one|time)|take care|bye|goodbye|cheers|best wishes|all the best"),
    (GREETING, r"(?:(?:i )?hope you (?:enjoy|like)|enjoy)(?: (?:it|this|that|them|reading|watching|"
               r"listening)(?: (?:it|this|that|them))?)?"),
    (THANKS, r"(?:thanks|thank you|many thanks)(?: (?:so|very) much| a lot| again)?"
             r"(?: for (?:asking|your (?:question|patience|message|interest|time)|the question|"
             rf"reaching out|sharing(?: {_THIS})?|{_THIS}))?"),
    (THANKS, rf"(?:you're|you are) {_SO}welcome|my pleasure|anytime|any time|no problem|no worries"),
    (OFFER, rf"(?:i )?{_SO}hope {_THIS} (?:helps|helped|was helpful|is helpful|"
            r"answers your question|clears (?:things|it) up)"),
    (OFFER, rf"(?:i'm |i am |i'd be |i would be )?{_SO}(?:happy|glad) to help(?: (?:further|more))?"
            r"|glad i could help|here to help"),
    (OFFER, r"(?:please )?(?:do )?(?:let me know|feel free to (?:ask|reach out|let me know)|"
            r"(?:don't|do not) hesitate to (?:ask|reach out|let me know))"
            rf"(?: if (?:you (?:have|need|want|would like)|there (?:is|are)) (?:{_WANTED}))?"),
    (QUESTION, r"(?:would|do) you (?:like|want|need) (?:to know (?:more|anything else)|me to "
               rf"(?:explain|go on|continue|elaborate)(?: (?:more|further))?|{_WANTED})"),
    (QUESTION, r"(?:do|does) (?:you|anyone) have (?:any )?(?:other |more |further )?questions?"),
    (QUESTION, r"(?:is there )?anything else(?: i (?:can|could) (?:help(?: you)? with|do for you))?"),
    (QUESTION, r"(?:what|how) else can i (?:help(?: you)?(?: with)?|do for you)"
               r"|any (?:other|more|further) questions(?: i can help(?: you)? with)?"),
    (QUESTION, r"(?:can|could|may|shall) i help(?: you)?(?: with anything else)?"),
    (QUESTION, rf"(?:does|did) {_THIS} (?:help|answer your question|make sense)"),
    (QUESTION, r"what else would you like to know|(?:shall|should) i (?:go on|continue|"
               r"explain(?: more| further)?)"),
    (FEELING, rf"i {_SO}(?:love|like|adore|enjoy) (?:it|(?:that|this|those|these)(?: [a-z]{{2,20}})?)"),
    (FEELING, rf"(?:(?:what|that's|that is|such) )?(?:a |an )?{_SO}{_GOOD} (?:question|idea|"
              r"choice|topic)"),
    (FEELING, rf"(?:i'm|i am) {_SO}(?:glad|happy|pleased|delighted) (?:you asked|to hear {_THIS})"),
    (FEELING, rf"(?:i'm|i am) {_SO}sorry to hear {_THIS}"),
    (FEELING, rf"(?:this|that) (?:sounds|looks) {_SO}{_GOOD}|how {_GOOD}"),
    (ACKNOWLEDGMENT, r"(?:sure|certainly|of course|absolutely|okay|ok|alright|gladly|great)"
                     r"(?: thing)?"),
)
_FORMS = [(name, re.compile(pattern)) for name, pattern in _TABLE]

# Questions to which "Sure!" is no answer: they ask what, who, how... or ask for something.
_OPEN_QUESTION = re.compile(
    r"(?:what|who|whom|whose|which|when|where|why|how|tell|explain|describe|summari[sz]e|list|"
    r"give|write|show|help|please|compare|find|can you|could you|would you|will you)\b")
_CAPITAL_OR_DIGIT = re.compile(r"\d|(?<=\s)(?!I\b|I'|I’)\w*[^\W\d_a-z]")
_SPACES = re.compile(r"[ \t\r\n]+")
_EDGE = "*_~\"“”'‘’()"  # emphasis and quotes around the whole sentence
_EMOTICON = re.compile(r"(?:\s*(?:[:;]-?[)D(P]|<3))+$")
MAX_WORDS = 16


def form_of(sentence: str, question: str | None = None) -> str | None:
    """The form of a sentence that asserts nothing (one of ``FORMS``), or None: a claim. An
    acknowledgment is one only when ``question`` is given and every sentence of it is an open
    question or a request: to "Is the drug safe?", "Sure!" is a yes."""
    text = sentence.strip()
    if len(text) > 200 or _CAPITAL_OR_DIGIT.search(text):
        return None
    text = _EMOTICON.sub("", fold(text))
    text = _strip_symbols(text).strip(_EDGE + " ")
    asks = text.endswith("?")
    text = text.rstrip("!?.…").strip(_EDGE + " ")
    parts = [part for part in re.split(r"\s*[,!—–]\s*|\s+-\s+", text) if part]
    if not parts or len(text.split()) > MAX_WORDS:
        return None
    forms = [_form_of_part(_SPACES.sub(" ", part).lower()) for part in parts]
    if None in forms or (QUESTION in forms and not asks):
        return None
    if ACKNOWLEDGMENT in forms and not _open(question):
        return None
    return next((f for f in forms if f != ACKNOWLEDGMENT), ACKNOWLEDGMENT)


def _form_of_part(part: str) -> str | None:
    return next((name for name, pattern in _FORMS if pattern.fullmatch(part)), None)


def _strip_symbols(text: str) -> str:
    """``text`` without emoji and other symbols at its edges ("Hope this helps! 🙂")."""
    def symbol(ch: str) -> bool:
        return unicodedata.category(ch) in ("So", "Sk") or ch in "\ufe0f\u200d"

    start, end = 0, len(text)
    while start < end and (symbol(text[start]) or text[start].isspace()):
        start += 1
    while end > start and (symbol(text[end - 1]) or text[end - 1].isspace()):
        end -= 1
    return text[start:end]


def _open(question: str | None) -> bool:
    if not question or not question.strip():
        return False
    asked = [q.strip().lower() for q in re.split(r"[?.!]+", question) if q.strip()]
    return bool(asked) and all(_OPEN_QUESTION.match(q) for q in asked)
