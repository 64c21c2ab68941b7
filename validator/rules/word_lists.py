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
from importlib.resources import files

from ..text.word_forms import NEGATIVE_PREFIXES, stem
from ..types import FailureKind

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
     "exclude excludes excluded excluding omit omits omitted"),
    ("enable enables enabled enabling", "disable disables disabled disabling"),
    ("allow allows allowed allowing permit permits permitted",
     "forbid forbids forbidden prohibit prohibits prohibited ban bans banned"),
    ("accept accepts accepted accepting approve approves approved ratify ratifies ratified",
     "reject rejects rejected rejecting refuse refuses refused defeat defeated"),
    ("worsen worsens worsened worsening", "ease eases eased easing"),
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
    ("older oldest", "younger youngest"),
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
    ("follow follows followed following", "precede precedes preceded preceding"),
    ("uphold upholds upheld", "overturn overturns overturned"),
    ("convict convicts convicted", "acquit acquits acquitted"),
    ("improve improves improved improving", "worsen worsens worsened worsening deteriorate "
     "deteriorates deteriorated"),
    ("accelerate accelerates accelerated accelerating", "slow slows slowed slowing decelerate "
     "decelerated"),
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


# Words that change what the statement holding them says of its other words, one row each way
# they change it: (what a claim gets wrong that leaves them out, or puts another word in their
# place; the words, read by their stem; a claim and a source with one of them, the example a
# test in tests/unit/rules/test_kinds.py). A word the source says that says the opposite of
# what it governs ("lacked a control group", "barely campaigned", "stopped selling"); a step
# before an outcome, which does not assert the outcome ("proposed a bill", "was arrested on
# suspicion of", "either Geneva or Vienna", "allows employers to", "called for"); a part for
# the whole
# ("partly destroyed") or one measure of a middle for another ("median", "average"); a role
# short of the title it names ("the nominee for attorney general", "runner-up"); how long it
# holds, a time that is over, or what it leaves out ("temporarily", "used to", "apart from").
CHANGERS = (
    (FailureKind.OPPOSITE, """lack lacked absent absence cease ceased stop stopped quit halt
        halted fail failed deny denied reject rejected refuse refused decline declined block
        blocked avoid avoided prevent prevented barely hardly scarcely unaware abandon
        abandoned dismiss dismissed""",
     "The study included a control group.", "The study lacked a control group."),
    (FailureKind.UNASSERTED, """propose proposed nominate nominated shortlist shortlisted
        arrest arrested submit submitted apply applied seek sought signal signaled signalled
        consider considered plan planned draft drafted intend intended either offer offered
        accuse accused allow allows allowed permit permits permitted call_for called_for
        calls_for called_up came_within await awaits awaiting request requested requests
        so_called called""",
     "The House passed a bill to raise the minimum wage.",
     "The House proposed a bill to raise the minimum wage."),
    (FailureKind.CIRCUMSTANCE, """used_to formerly previously temporary temporarily permanent
        permanently indefinitely apart except excepting excluding defunct sometimes occasionally
        usually seldom typically""",
     "The factory employs 3,000 workers.", "The factory formerly employed 3,000 workers."),
    (FailureKind.NUMBER, "partly partially mostly largely average median mean",
     "The building was destroyed by the fire.", "The building was partly destroyed by the fire."),
    (FailureKind.ENTITY, """candidate candidates nominee nominees finalist finalists emeritus
        runner runner-up came_second finished_second""",
     "Carla Diaz, the attorney general, toured the prison.",
     "Carla Diaz, the nominee for attorney general, toured the prison."),
)
_CHANGES = {spelling: kind for kind, words, _, _ in CHANGERS for word in words.split()
            for spelling in (word, stem(word))}  # a phrase's words are joined by "_"


def changes(word: str, following: str = "") -> FailureKind | None:
    """What a claim gets wrong that leaves out ``word`` (lower case) of a source's statement,
    or says another word in its place, where the word, or the phrase it makes with the word
    ``following`` it ("called for"), is one of ``CHANGERS``; else None."""
    word = word.replace(" ", "_")  # a phrase read as one token ("used to")
    phrase = f"{word}_{following.lower()}"
    return (_CHANGES.get(phrase) if following else None) or _CHANGES.get(word) or \
        _CHANGES.get(stem(word))


@lru_cache(maxsize=1 << 16)
def opposed(a: str, b: str) -> bool:
    """Whether two words (lower case) name the two poles of one concept ("increased" and
    "declined", "present" and "absent"), are antonyms in Open English WordNet
    (``antonyms.txt``, made by ``tools/derive_antonyms.py``: "lengthen" and "shorten"), or one is
    the other with a prefix that negates it ("soluble" and "insoluble"). For the kind of what a
    claim gets wrong only: whether a claim is supported never turns on the WordNet table."""
    if a == b:
        return False
    if any((key, not pole) in concepts(b) for key, pole in concepts(a)):
        return True
    short, long = sorted((a, b), key=len)
    prefix = long[:-len(short)].rstrip("-")  # "insoluble", "non-smoking"
    if len(short) > 3 and long.endswith(short) and prefix in NEGATIVE_PREFIXES:
        return True
    return tuple(sorted((stem(a), stem(b)))) in _antonyms()


@lru_cache(maxsize=1)
def _antonyms() -> frozenset[tuple[str, ...]]:
    """The pairs of ``antonyms.txt`` beside this module (Snowball stems, sorted in each pair)."""
    table = files(__package__).joinpath("antonyms.txt").read_text(encoding="utf-8")
    return frozenset(tuple(line.split()) for line in table.splitlines() if line.strip())






# Verbs whose active without an object says what their passive says ("The museum opened in
# 1889", "The museum was opened in 1889"). Of any other verb, the active names the doer and the
# passive what was done to it: "Smith fired" is not "Smith was fired".
BOTH_VOICES = frozenset("""open close start begin end finish stop change increase decrease
    grow break move shut sink melt freeze expand shrink improve double triple halve reopen
    split burn""".split())


def synonyms(a: str, b: str) -> bool:
    """Whether two word forms (stems) are synonyms: one synset is the first sense of both in
    Open English WordNet (``synonyms.txt``, made by ``tools/derive_synonyms.py``). Opposites,
    marked forms ("~open", a passive) and anything but plain words never are."""
    if a.startswith(_MARKED) or b.startswith(_MARKED) or "/" in a or "/" in b:
        return False
    groups = _synonym_groups()
    mine, theirs = groups.get(a), groups.get(b)
    return mine is not None and theirs is not None and not set(mine).isdisjoint(theirs)


_MARKED = ("~", "#", "unit:", "date:", "month:", "range:")


@lru_cache(maxsize=1)
def _synonym_groups() -> dict[str, tuple[int, ...]]:
    """Each stem's synonym groups, read once from the table beside this module (its lines are
    groups of Snowball stems)."""
    found: dict[str, list[int]] = {}
    table = files(__package__).joinpath("synonyms.txt").read_text(encoding="utf-8")
    for number, line in enumerate(table.splitlines()):
        for word in line.split():
            found.setdefault(word, []).append(number)
    return {word: tuple(groups) for word, groups in found.items()}  # tuples of ints: light
