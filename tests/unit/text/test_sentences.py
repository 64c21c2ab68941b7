import pytest

from provenance_guard.text.sentences import split_sentences, stream_chunks

CASES = [
    ("abbreviations", "Dr. Smith met Mrs. Jones at 3 p.m. on Monday. They talked.",
     ["Dr. Smith met Mrs. Jones at 3 p.m. on Monday.", "They talked."]),
    ("country abbreviation", "The U.S. economy grew. Exports rose.",
     ["The U.S. economy grew.", "Exports rose."]),
    ("e.g.", "Use a tool, e.g. a hammer. Then stop.", ["Use a tool, e.g. a hammer.", "Then stop."]),
    ("decimals and versions", "Pi is 3.14 here. Version v2.1 shipped.",
     ["Pi is 3.14 here.", "Version v2.1 shipped."]),
    ("initials", "J. R. R. Tolkien wrote it. It sold well.",
     ["J. R. R. Tolkien wrote it.", "It sold well."]),
    ("quotes", 'He said "Stop." Then he left.', ['He said "Stop."', "Then he left."]),
    ("ellipsis before a capital", "Wait... What happened?", ["Wait...", "What happened?"]),
    ("ellipsis mid-sentence", "I think... maybe not.", ["I think... maybe not."]),
    ("glued sentences", "It was the 19th century.First for Women is a magazine.",
     ["It was the 19th century.", "First for Women is a magazine."]),
    ("bullets and newlines", "Key points\n- first item\n- second item\n1. Numbered one.\n\nDone.",
     ["Key points", "- first item", "- second item", "1. Numbered one.", "Done."]),
    ("wrapped line", "This sentence is\nwrapped over lines. Next one.",
     ["This sentence is\nwrapped over lines.", "Next one."]),
    ("CJK", "东京是日本的首都。它很大！真的吗？", ["东京是日本的首都。", "它很大！", "真的吗？"]),
    ("CJK quote", "「こんにちは。」と彼は言った。次だ。", ["「こんにちは。」と彼は言った。", "次だ。"]),
    ("no final stop", "No terminal punctuation", ["No terminal punctuation"]),
]


@pytest.mark.parametrize("name,text,expected", CASES, ids=[c[0] for c in CASES])
def test_tricky_cases(name, text, expected):
    sentences = split_sentences(text)
    assert [s.text for s in sentences] == expected
    for s in sentences:  # offsets point at the sentence in the original text
        assert text[s.start:s.end] == s.text


@pytest.mark.parametrize("text", ["", "   \n\t", "---", "- \n* "])
def test_nothing_to_split(text):
    assert split_sentences(text) == []


def test_streaming_waits_for_the_next_sentence_to_start():
    assert stream_chunks("The doctor is Dr.") == []
    assert stream_chunks("The doctor is Dr. Smith") == []  # "Dr." did not end a sentence
    assert stream_chunks("It costs 3.5 euros. Then") == []  # "Then" may still join it
    first, rest = stream_chunks("It costs 3.5 euros. Then it fell. And")
    assert first == "It costs 3.5 euros. " and rest == "Then it fell. And"


# -- Failures seen in real answers, the Golden Rules, languages ------------------------------

import json  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402

from conftest import DATA  # noqa: E402

from provenance_guard import ProvenanceLLM  # noqa: E402
from provenance_guard.errors import ConfigurationError  # noqa: E402
from provenance_guard.text import languages  # noqa: E402
from provenance_guard.text.languages import LANGUAGES, detect  # noqa: E402

GOLDEN = DATA / "golden-rules" / "golden_rules.jsonl"
CODES = {**{name.lower(): code for code, name in LANGUAGES.items()}, "deutsch": "de"}


def texts(text, language="auto"):
    sentences = split_sentences(text, language)
    for s in sentences:
        assert text[s.start:s.end] == s.text
    return [s.text for s in sentences]


@pytest.mark.parametrize("text,expected", [
    ("The tower glows gold in the sun. The Eiffel Tower is in Paris.",
     ["The tower glows gold in the sun.", "The Eiffel Tower is in Paris."]),
    ("I live in the U.S. He works there.", ["I live in the U.S.", "He works there."]),
    ("هل هذا صحيح؟ نعم هو كذلك.", ["هل هذا صحيح؟", "نعم هو كذلك."]),
    ("यह सच है। वह भी सच है।", ["यह सच है।", "वह भी सच है।"]),
    ("First paragraph\u2029second one.", ["First paragraph", "second one."]),
    ("Call System.Console.WriteLine to print. Then stop.",
     ["Call System.Console.WriteLine to print.", "Then stop."]),
    ("Москва — столица России. Она большая.", ["Москва — столица России.", "Она большая."]),
])
def test_failures_seen_in_real_answers(text, expected):
    assert texts(text) == expected


# -- Two claims never in one unit, one claim never cut -----------------------------------------
# A unit that holds a supported and an unsupported sentence fails whole, so on_fail="fix" would
# delete the supported one with it; a sentence cut in two is judged in pieces. One class of text
# per group, each with more than one case, so a rule for the example alone fails.

@pytest.mark.parametrize("text,expected", [
    # Emphasis marks around a sentence belong to it and do not hide its end.
    ("**The tower was painted gold in 2024.** The Eiffel Tower is in Paris.",
     ["**The tower was painted gold in 2024.**", "The Eiffel Tower is in Paris."]),
    ("__It opened in 1889.__ __It is 330 metres tall.__",
     ["__It opened in 1889.__", "__It is 330 metres tall.__"]),
    ("*It opened in 1889.* *It is tall.* It is in Paris.",
     ["*It opened in 1889.*", "*It is tall.*", "It is in Paris."]),
    ("It is tall!**It opened in 1889.**", ["It is tall!", "**It opened in 1889.**"]),
    ("~~It opened in 1890.~~ It opened in 1889.", ["~~It opened in 1890.~~", "It opened in 1889."]),
    ("Use snake_case names. They read well.", ["Use snake_case names.", "They read well."]),
    # Citation markers after a full stop belong to the sentence before them.
    ("Paris.[1] It was painted gold in 2024.[1] It is 330 metres tall.[1]",
     ["Paris.[1]", "It was painted gold in 2024.[1]", "It is 330 metres tall.[1]"]),
    ("Sales rose 10%. [2][3] Costs fell in 2023.[4, 5] Profit rose.",
     ["Sales rose 10%. [2][3]", "Costs fell in 2023.[4, 5]", "Profit rose."]),
    ("It opened in 1889.[^1] It is tall.", ["It opened in 1889.[^1]", "It is tall."]),
    # A missing space after a full stop, after a word or a number.
    ("The magazine ran from 1844 to 1846.The weekly edition sold well.",
     ["The magazine ran from 1844 to 1846.", "The weekly edition sold well."]),
    ("Doses were approved in 2021.Shipments began in May.",
     ["Doses were approved in 2021.", "Shipments began in May."]),
    # A single letter that ends a sentence is no initial when no name follows it.
    ("He took vitamin C. It helped.", ["He took vitamin C.", "It helped."]),
    ("Take vitamin D. Then rest, and drink plan B. The rest is water.",
     ["Take vitamin D.", "Then rest, and drink plan B.", "The rest is water."]),
    ("The book is by J. Smith and sold well.", ["The book is by J. Smith and sold well."]),
    ("It was written by J. K. Rowling in 1997.", ["It was written by J. K. Rowling in 1997."]),
    # A dotted name is one word.
    ("Use java.util.List for it. It is an interface.",
     ["Use java.util.List for it.", "It is an interface."]),
    ("Import os.path.Join first. Then call it.", ["Import os.path.Join first.", "Then call it."]),
    # A hard-wrapped line goes on, even when the next line starts with a name.
    ("The report was written by\nMarie Curie in 1903. It won a prize.",
     ["The report was written by\nMarie Curie in 1903.", "It won a prize."]),
    ("The tower is a lattice of wrought iron. It is named after the engineer\n"
     "Gustave Eiffel, whose firm built it.",
     ["The tower is a lattice of wrought iron.",
      "It is named after the engineer\nGustave Eiffel, whose firm built it."]),
    ("It was designed by the firm of\nGustave Eiffel.", ["It was designed by the firm of\n"
                                                         "Gustave Eiffel."]),
    ("Key points\nParis is the capital.", ["Key points", "Paris is the capital."]),  # a title
    # A citation marker alone on its line belongs to the sentence before it.
    ("The capital is Paris.\n[1]\nIt has 2 million people.",
     ["The capital is Paris.\n[1]", "It has 2 million people."]),
    ("- It opened in 1889.\n  [2] [3]\n- It is tall.", ["- It opened in 1889.\n  [2] [3]",
                                                     "- It is tall."]),
    ("[1]\nIt is tall.", ["[1]", "It is tall."]),  # nothing before it: judged, and fails
])
def test_one_unit_is_one_sentence(text, expected):
    assert texts(text) == expected


def golden_cases():
    return [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]


def test_golden_rules_with_the_language_given():
    passed = {}
    for case in golden_cases():
        got = texts(case["text"], CODES[case["lang"]])
        passed.setdefault(case["lang"], []).append(got == case["sentences"])
    english = sum(passed["english"])
    overall = sum(sum(v) for v in passed.values()) / sum(len(v) for v in passed.values())
    assert english >= 47, english
    assert overall >= 0.9, overall


def test_golden_rules_of_non_latin_scripts_with_language_auto():
    """The script picks the rules: Arabic, Devanagari, CJK, Cyrillic, Greek, Armenian..."""
    cases = [c for c in golden_cases() if c["lang"] in
             ("arabic", "urdu", "hindi", "chinese", "japanese", "russian", "kazakh", "greek",
              "armenian", "amharic", "burmese")]
    passed = sum(texts(c["text"]) == c["sentences"] for c in cases)
    assert passed >= 0.9 * len(cases), (passed, len(cases))


def test_golden_rules_with_language_auto():
    """Nothing given: the script, then the language identifier where a script is shared."""
    passed = {}
    for case in golden_cases():
        passed.setdefault(case["lang"], []).append(texts(case["text"]) == case["sentences"])
    overall = sum(sum(v) for v in passed.values()) / sum(len(v) for v in passed.values())
    assert sum(passed["english"]) >= 47 and overall >= 0.9, (sum(passed["english"]), overall)


def test_auto_gives_a_german_paragraph_german_rules():
    text = "Er kam am 3. Mai nach Berlin, wo er z. B. das Museum besuchte. Dann ging er heim."
    assert texts(text) == texts(text, "de") == [
        "Er kam am 3. Mai nach Berlin, wo er z. B. das Museum besuchte.", "Dann ging er heim."]
    assert texts(text, "en") != texts(text, "de")  # English rules cut it after "3."


def test_each_paragraph_of_a_mixed_text_gets_its_own_rules():
    english = "The tower opened in 1889. It was built for the fair, and it is made of iron."
    german = "Er kam am 3. Mai nach Berlin, wo er z. B. das Museum besuchte. Dann ging er heim."
    assert texts(f"{english}\n\n{german}") == texts(english) + texts(german, "de")
    assert texts(f"{german}\n\n{english}") == texts(german, "de") + texts(english, "en")


def test_english_is_decided_without_the_identifier(monkeypatch):
    def refuse():
        raise AssertionError("the identifier was loaded for plain English")

    monkeypatch.setattr(languages, "_identifier", refuse)
    assert detect("The tower was built for the fair and it opened in 1889.") == "en"
    assert detect("Paris, France") == "en"  # too few words


def test_text_the_identifier_is_unsure_of_keeps_the_scripts_rules(monkeypatch):
    class Unsure:
        def classify(self, text):
            return "de", 0.6

    monkeypatch.setattr(languages, "_identifier", lambda: Unsure())
    assert detect("Lorem ipsum dolor sit amet, consectetur adipiscing elit.") == "en"


@pytest.mark.parametrize("text,code", [
    ("مرحبا بالعالم", "ar"), ("یہ ایک کتاب ہے۔", "ur"), ("این یک کتاب است که پدر خرید", "fa"),
    ("यह एक किताब है", "hi"), ("这是一本书", "zh"), ("これは本です", "ja"),
    ("Это книга", "ru"), ("Бұл кітап әдемі", "kk"), ("Αυτό είναι βιβλίο", "el"),
    ("Սա գիրք է", "hy"), ("ይህ መጽሐፍ ነው", "am"), ("ဒါဟာစာအုပ်ပါ", "my"),
    ("This is a book", "en"), ("Das ist ein Buch", "de"), ("12345 !!!", "en"),
    ("Ein Buch", "en"),  # too few words to tell: the script's rules
    ("Това е книга, която баща ми купи вчера.", "bg"),
    ("Ce livre est sur la table de la cuisine.", "fr"),
    ("The word Москва in an English sentence about the city.", "en"),
])
def test_auto_reads_the_script(text, code):
    assert detect(text) == code


def test_every_offered_language_has_pysbd_rules_and_an_english_name():
    import pysbd

    assert len(LANGUAGES) >= 22 and LANGUAGES["de"] == "German" and LANGUAGES["en"] == "English"
    for code, name in LANGUAGES.items():
        assert name.isascii() and name.istitle(), name
        pysbd.Segmenter(language=code, clean=False)  # raises for a code pySBD has no rules for


def test_an_unknown_language_is_refused_with_the_valid_ones():
    with pytest.raises(ConfigurationError) as error:
        ProvenanceLLM(llm_callable="local", language="english")
    for code in ["auto", *LANGUAGES]:
        assert repr(code) in str(error.value)
    with pytest.raises(ConfigurationError):
        ProvenanceLLM(llm_callable="local", language=None)
    validator = ProvenanceLLM(llm_callable="local", language="de")
    assert validator.settings.language == "de"
    assert validator.get_args()["language"] == "de"  # Guardrails serialises it


def test_the_language_changes_the_rules():
    text = "Er kam am 3. Mai. Dann ging er."
    assert texts(text, "de") == ["Er kam am 3. Mai.", "Dann ging er."]
    assert texts(text, "en") == ["Er kam am 3.", "Mai.", "Dann ging er."]  # English rules


# -- Markdown ---------------------------------------------------------------------------------

MARKDOWN = """# The Eiffel Tower

It is in Paris. It opened in 1889.

- It is 330 m tall.
- It was painted
  brown. It is iron.
1. First step.

| year | event |
|------|:-----:|
| 1889 | it opened. It was tall. |

Run this:
```python
print("a. b. c.")
x = 1. + 2.
```
> A quote. Another one.
"""


def test_markdown_structure_makes_units():
    assert texts(MARKDOWN) == [
        "The Eiffel Tower",
        "It is in Paris.", "It opened in 1889.",
        "- It is 330 m tall.",
        "- It was painted\n  brown.", "It is iron.",
        "1. First step.",
        "| year | event |",  # the separator row is no unit
        "| 1889 | it opened. It was tall. |",  # a row is one unit
        "Run this:",  # not glued to the code
        '```python\nprint("a. b. c.")\nx = 1. + 2.\n```',  # judged whole, never split
        "> A quote.", "Another one.",
    ]


def test_an_unclosed_fence_runs_to_the_end():
    assert texts("Code:\n```\na. b.\nc. d.") == ["Code:", "```\na. b.\nc. d."]


# -- Offsets under hostile text ---------------------------------------------------------------

HOSTILE = [
    "The tower \ud800 is tall. It \udfff opened.",
    "One.\u2029Two.\u2028Three.\r\nFour.\x0bFive.\x85Six.",
    "\u202eThe tower is tall.\u202c \u200fIt opened.\u200e \u2066Here.\u2069",
    "word " * 20_000,  # 100k characters, no stop
    "(" * 5_000 + "deep. Deeper." + ")" * 5_000,
    "[" * 3_000 + "1" + "]" * 3_000 + " It. Is.",
    "\"" * 999 + "Quoted. Not." + "“" * 500,
    "**" * 1000 + "Bold. Text." + "__" * 777,
    "- \n* \n1. \n# \n> \n|---|\n```",
    "\t\t  \n\n\n  ",
]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_offsets_are_exact_and_every_letter_is_in_a_unit(text):
    sentences = split_sentences(text)
    covered = set()
    for s in sentences:
        assert text[s.start:s.end] == s.text and s.text == s.text.strip()
        covered.update(range(s.start, s.end))
    assert all(i in covered for i, char in enumerate(text) if char.isalpha())


def test_random_text_keeps_offsets_and_loses_no_letter():
    pieces = ["The", "tower", "U.S.", "Dr.", "3.5", ".", "!", "?", "…", "\n", "\n\n", "- ", "1. ",
              "# ", "| a |", "|---|", "```", "[1]", "[", "]", "\"", "(", ")", "**", "。", "؟",
              "।", "\u2029", "\ud800", "  ", "e.g.", "Москва", "東京", " "]
    rng = random.Random(12)
    for _ in range(300):
        text = "".join(rng.choice(pieces) + rng.choice(["", " "]) for _ in range(rng.randint(1, 40)))
        sentences = split_sentences(text)
        covered = set()
        for s in sentences:
            assert text[s.start:s.end] == s.text, text
            covered.update(range(s.start, s.end))
        assert all(i in covered for i, char in enumerate(text) if char.isalpha()), text
        starts = [s.start for s in sentences]
        assert starts == sorted(starts) and len(set(starts)) == len(starts)


def test_repeated_text_gets_the_offsets_of_each_copy():
    text = "Same. Same. Same. Same."
    assert [(s.start, s.end) for s in split_sentences(text)] == [(0, 5), (6, 11), (12, 17),
                                                                  (18, 23)]


# -- The speed-ups change nothing -------------------------------------------------------------

HALUEVAL = DATA / "halueval-qa-sample" / "qa_one-turn_data.jsonl"


def real_texts():
    return [json.loads(line)["knowledge"] for line in HALUEVAL.read_text().splitlines()][:200]


def test_pysbd_with_the_narrowed_abbreviation_list_gives_pysbds_sentences():
    import pysbd

    from provenance_guard.text.sentences import pysbd_sentences

    cases = [("en", t) for t in real_texts()]
    cases += [(CODES[c["lang"]], c["text"]) for c in golden_cases()]
    for code, text in cases:
        full = pysbd.Segmenter(language=code, clean=False).processor(text).process()
        assert [s.strip() for s in pysbd_sentences(code, text)] == [s.strip() for s in full]


def test_batched_pieces_give_what_each_piece_gives_alone(monkeypatch):
    from provenance_guard.storage import LRU
    from provenance_guard.text import sentences as splitting

    texts_ = real_texts() + [c["text"] for c in golden_cases()]
    monkeypatch.setattr(splitting, "_PIECES", LRU(0))
    batched = [split_sentences(t) for t in texts_]
    monkeypatch.setattr(splitting, "BATCH_CHARS", 1)  # every piece alone
    assert [split_sentences(t) for t in texts_] == batched


def test_the_fast_path_gives_pysbds_sentences():
    """Where the fast path decides without pySBD, pySBD agrees. HaluEval's texts glue many
    sentences with no space ("century.First"), which pySBD leaves joined and the fast path
    cuts (as before pySBD came in): with a space after each glued stop, the two agree on at
    least 99% of the texts."""
    from provenance_guard.text.sentences import pysbd_sentences

    texts_ = [re.sub(r"(\w[.!?][\"”)]?)(?=[A-Z0-9])", r"\1 ", t) for t in real_texts()]
    same = sum([s.text for s in split_sentences(t)]
               == [s.strip() for s in pysbd_sentences("en", t) if s.strip()] for t in texts_)
    assert same >= 0.99 * len(texts_), same


@pytest.mark.parametrize("text, sentences", [
    ("36.", ["36."]),  # an answer, not the marker of an item with no text
    ("The answer is:\n\n3.", ["The answer is:", "3."]),
    ("1. The hall seats 800.\n2. It opened in 1990.", ["1. The hall seats 800.",
                                                       "2. It opened in 1990."]),
])
def test_a_list_number_that_ends_its_block_is_a_sentence(text, sentences):
    assert [s.text for s in split_sentences(text)] == sentences
