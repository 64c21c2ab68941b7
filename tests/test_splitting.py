import pytest

from provenance_guard.splitting import split_sentences, stream_chunks

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
