"""The closed classes of English every reader shares: articles and determiners, the personal
pronouns by person and case, the auxiliaries and modals, the negations, and the words that open
a clause of their own.

These are grammar, not wordings: what marks how a sentence stands to what it says is a row of
``cues``, and what a word means (opposites, synonyms) is the rules' word lists. Every reader
takes its function words from here, so no reader keeps a copy that drifts from the others'.
"""

from __future__ import annotations

ARTICLES = frozenset(("a", "an", "the"))
DEMONSTRATIVES = frozenset(("this", "that", "these", "those"))

# The personal pronouns, one row a person: subject, object, possessive, possessive pronoun,
# reflexive. "it" is a thing, not a person, and stands apart.
FIRST_SINGULAR = ("i", "me", "my", "mine", "myself")
SECOND = ("you", "you", "your", "yours", "yourself")
FIRST_PLURAL = ("we", "us", "our", "ours", "ourselves")
PERSONAL = (FIRST_SINGULAR, SECOND, ("he", "him", "his", "his", "himself"),
            ("she", "her", "her", "hers", "herself"), FIRST_PLURAL,
            ("they", "them", "their", "theirs", "themselves"))
THING = ("it", "it", "its", "its", "itself")
POSSESSIVE = 2  # the column of the possessive determiner ("my", "your")

# Which person each personal pronoun names: "you", "your" and "yourselves" one, "my" another.
PERSON_OF = {word: person for person, forms in enumerate(PERSONAL) for word in forms} | {
    "yourselves": PERSONAL.index(SECOND)}
POSSESSIVES = frozenset(forms[POSSESSIVE] for forms in (*PERSONAL, THING))
SUBJECT_PRONOUNS = frozenset(forms[0] for forms in (*PERSONAL, THING))
# Who speaks and who is spoken to: never a name.
SPEAKERS = frozenset(forms[0] for forms in (FIRST_SINGULAR, FIRST_PLURAL, SECOND))
# Who is spoken of, as a subject: "it", "they", "he", "she" (a pronoun the rules read as a name).
THIRD_PERSON = SUBJECT_PRONOUNS - SPEAKERS
OBJECT_PRONOUNS = frozenset(forms[1] for forms in (*PERSONAL, THING))

FINITE_BE = frozenset("am is are was were".split())
BE = FINITE_BE | frozenset(("be", "been", "being"))
DO = frozenset(("do", "does", "did"))  # do-support: "Did it ship?", "do not say"
HAVE = frozenset(("has", "have", "had"))
AUXILIARIES = BE | HAVE | DO
# The tense a finite "be" or "have" carries: "is" and "has" the present, "was" and "had" the past.
PAST_BE_HAVE = frozenset(("was", "were", "had"))
PRESENT_BE_HAVE = (FINITE_BE | HAVE) - PAST_BE_HAVE
# Words that carry no claim of their own: the rules skip them where the evidence has them and
# do not require them where the claim has them; a user's words are compared without them.
# Negations, qualifiers and opposites are read apart.
FUNCTION_WORDS = ARTICLES | DEMONSTRATIVES | AUXILIARIES | frozenset(
    """it its they them their he him his she her we our you your i me my having doing of to in
    on at by for with from as into onto upon there here which who whom whose what also just very
    and or nor then than too located situated""".split())

MODALS = frozenset("can could will would shall should may might must".split())
NEGATIVE_AUXILIARIES = frozenset("""isn't aren't wasn't weren't doesn't don't didn't can't
    cannot won't wouldn't couldn't shouldn't hasn't haven't hadn't mustn't""".split())
# The verbs that open a question ("Did it ship?") or carry a clause's tense and mood.
FINITE_AUXILIARIES = FINITE_BE | HAVE | DO | MODALS \
    | NEGATIVE_AUXILIARIES

NEGATIONS = frozenset(
    "not no never none neither nor without cannot nobody nothing nowhere".split())

# Determiners that say how many or how much without a number ("most", "a few", "half"):
# a claim that changes one changes a quantity.
QUANTIFIERS = frozenset("""all every each both most many much some several few half none any
    more less fewer enough whole entire full partly""".split())
ORDINALS = frozenset("""first second third fourth fifth sixth seventh eighth ninth tenth last
    next previous""".split())

# The words that open a clause under another ("when the lid is open", "if it rains").
SUBORDINATORS = frozenset("if when whenever unless where wherever once whether".split())

# The relative pronouns: they open a clause about the noun before them ("the firm that ...").
RELATIVES = frozenset(("that", "who", "which", "whom", "whose"))

# The wh-words: they ask, or (most of them) open a relative clause ("the firm that ...").
INTERROGATIVES = frozenset("what which who whom whose when where why how".split())

# The words that open a clause of its own after another ("..., but it reopened").
CLAUSE_OPENERS = frozenset("but whereas while although though however yet because".split())
# The words that join two words or clauses of one rank ("Anna and Ben", "..., so it closed").
COORDINATORS = frozenset("and or nor but yet so".split())
# The particles of a phrasal verb ("sent off", "struck down"), which also end a noun made of one
# ("a start-up", "a spin-off").
PARTICLES = frozenset("off out up down away back over".split())

# Adverbs of time, which may stand before a verb ("She later moved") or open a sentence
# ("Overnight, the river rose") without being its subject.
TIME_ADVERBS = frozenset("""now then today yesterday tomorrow tonight overnight later earlier
    afterwards meanwhile recently subsequently eventually finally soon once already also still
    often""".split())

# Nouns of time: after "this" they make a phrase of time ("this year"), so the word before
# them is a noun ("Turnout this year was lower"), not a verb.
TIME_NOUNS = frozenset("""year years month months week weeks quarter quarters day days season
    seasons time morning afternoon evening night weekend summer winter spring autumn fall decade
    century term semester""".split())

# Numbers written out that text2num leaves so ("with_digits"), with their values.
NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "hundred": 100,
                "dozen": 12}

# Titles before a person's name ("Dr Ines Holt"): the word before one is no part of the name.
HONORIFICS = frozenset("mr mrs ms mx dr prof sir dame".split())

# The prepositions: a sentence that opens with one opens with a phrase, not with its subject.
PREPOSITIONS = frozenset("""about above across after against along amid among around as at
    before behind below beneath beside besides between beyond by despite down during except
    for from in inside into like near of off on onto opposite out outside over past per since through
    throughout till to toward towards under until up upon via with within without""".split())
