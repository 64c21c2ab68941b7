"""Word tables for reading what a clause asserts, without a model: negation words and opposites
(antonyms). Data and lookups only.

Opposites are grouped by *concept*: each pair of poles ("left" / "right", "automatic" /
"manual", "increase" / "decrease") gets one key, and each word says which pole it names. A word
on the second pole then reads as the first pole negated, so "excluded" and "not covered" agree,
and "left" against "right" is a flip like "is" against "is not". The pairs are general
English opposites of the kinds that manuals, contracts, medical leaflets, financial reports and
software documentation use; they are not tuned to any test sentence. A word may name more than
one concept ("lower": the opposite of "higher" and of "raise").
"""

from __future__ import annotations

from functools import lru_cache

from ..text.word_forms import stem

NEGATIONS = frozenset(
    "not no never none neither nor without cannot nobody nothing nowhere".split())

# (first pole, second pole): surface forms of each. Words shared with other senses ("light",
# "cover") are listed only where the opposite reading is the common one in documentation.
_PAIRS = (
    ("left", "right"),
    ("automatic automatically automated", "manual manually"),
    ("increase increases increased increasing rise rises rose risen rising raise raises raised "
     "raising grow grows grew grown growing gain gains gained",
     "decrease decreases decreased decreasing fall falls fell fallen falling lower lowers "
     "lowered lowering reduce reduces reduced reducing drop drops dropped dropping decline "
     "declines declined declining shrink shrinks shrank cut cuts"),
    ("open opens opened opening", "close closes closed closing shut shuts"),
    ("cheap cheaper cheapest inexpensive", "expensive costly costlier pricier"),
    ("before earlier early prior", "after later late"),
    ("include includes included including cover covers covered covering",
     "exclude excludes excluded excluding"),
    ("enable enables enabled enabling", "disable disables disabled disabling"),
    ("allow allows allowed allowing permit permits permitted",
     "forbid forbids forbidden prohibit prohibits prohibited ban bans banned"),
    ("accept accepts accepted accepting approve approves approved",
     "reject rejects rejected rejecting refuse refuses refused"),
    ("internal", "external"),
    ("inside indoor indoors interior", "outside outdoor outdoors exterior"),
    ("above over", "below under beneath"),
    ("maximum max", "minimum min"),
    ("high higher highest", "low lower lowest"),
    ("profit profits profitable surplus", "loss losses deficit"),
    ("win wins won winning", "lose loses lost losing"),
    ("fast faster fastest quick quicker quickly rapid rapidly", "slow slower slowest slowly"),
    ("large larger largest big bigger biggest", "small smaller smallest"),
    ("heavy heavier heaviest", "light lighter lightest"),
    ("long longer longest", "short shorter shortest"),
    ("more", "less fewer"),
    ("common frequent frequently often", "rare rarely uncommon infrequent"),
    ("hot hotter warm warmer", "cold colder cool cooler"),
    ("north northern", "south southern"),
    ("east eastern", "west western"),
    ("first", "last"),
    ("positive", "negative"),
    ("true", "false"),
    ("success successful successfully succeed succeeds succeeded",
     "failure fail fails failed unsuccessful"),
    ("add adds added adding", "remove removes removed removing delete deletes deleted"),
    ("buy buys bought purchase purchases purchased", "sell sells sold"),
    ("import imports imported importing", "export exports exported exporting"),
    ("arrive arrives arrived arrival", "depart departs departed departure"),
    ("connect connects connected", "disconnect disconnects disconnected"),
    ("lock locks locked", "unlock unlocks unlocked"),
    ("install installs installed", "uninstall uninstalls uninstalled"),
    ("start starts started begin begins began", "end ends ended finish finishes finished"),
    ("mandatory compulsory required", "optional"),
    ("public", "private"),
    ("legal lawful", "illegal unlawful"),
    ("present", "absent"),
    ("visible", "hidden invisible"),
    ("safe", "unsafe dangerous"),
    ("able", "unable"),
    ("available", "unavailable"),
    ("possible", "impossible"),
    ("suitable", "unsuitable"),
    ("likely", "unlikely"),
    ("valid", "invalid"),
    ("supported", "unsupported"),
    ("benign", "malignant"),
    ("acute", "chronic"),
    ("credit credits credited", "debit debits debited"),
    ("appreciate appreciates appreciated", "depreciate depreciates depreciated"),
    ("inflation", "deflation"),
    ("input inputs", "output outputs"),
    ("upload uploads uploaded", "download downloads downloaded"),
    ("horizontal horizontally", "vertical vertically"),
    ("clockwise", "anticlockwise counterclockwise"),
    ("ascending", "descending"),
    ("front", "back rear"),
    ("top", "bottom"),
    ("wet", "dry"),
    ("strong stronger strongest", "weak weaker weakest"),
    ("easy easier easiest", "hard harder hardest difficult"),
    ("wide wider", "narrow narrower"),
    ("full", "empty"),
    ("same identical", "different"),
    ("majority", "minority"),
    ("inbound incoming", "outbound outgoing"),
    ("upstream", "downstream"),
    ("senior", "junior"),
)


def _table() -> dict[str, tuple[tuple[str, bool], ...]]:
    table: dict[str, list[tuple[str, bool]]] = {}
    for first, second in _PAIRS:
        key = "~" + first.split()[0]
        for forms, negative in ((first, False), (second, True)):
            for form in forms.split():
                for spelling in {form, stem(form)}:
                    entry = table.setdefault(spelling, [])
                    if (key, negative) not in entry:
                        entry.append((key, negative))
    return {word: tuple(entries) for word, entries in table.items()}


_CONCEPTS = _table()


@lru_cache(maxsize=1 << 16)
def concepts(word: str) -> tuple[tuple[str, bool], ...]:
    """The concepts ``word`` (lower case) names, each with whether it is the second pole:
    "cheaper" -> (("~cheap", False),), "excluded" -> (("~include", True),)."""
    return _CONCEPTS.get(word) or _CONCEPTS.get(stem(word), ())
