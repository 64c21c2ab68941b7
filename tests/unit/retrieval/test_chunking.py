import pytest

from provenance_guard.request import Chunking, check_chunking
from provenance_guard.retrieval.chunking import chunk_sources

TEXT = "One two three. Four five six. Seven eight nine. Ten eleven."


@pytest.mark.parametrize("strategy", ["full", "sentence", "word", "char", "token"])
def test_chunks_are_slices_of_their_source(strategy):
    sources = [TEXT, "Another source here."]
    chunks = chunk_sources(sources, Chunking(strategy, 3, 1))
    assert chunks
    for chunk in chunks:
        assert sources[chunk.source][chunk.start:chunk.end] == chunk.text


def test_sentence_windows_overlap():
    chunks = chunk_sources([TEXT], Chunking("sentence", 2, 1))
    assert [c.text for c in chunks] == [
        "One two three. Four five six.",
        "Four five six. Seven eight nine.",
        "Seven eight nine. Ten eleven.",
    ]


def test_full_is_the_hub_default_and_keeps_each_source_whole():
    chunks = chunk_sources([TEXT, "B."])
    assert [c.text for c in chunks] == [TEXT, "B."]
    assert [c.source for c in chunks] == [0, 1]


def test_word_and_token_units_differ_on_punctuation():
    assert [c.text for c in chunk_sources(["a,b c"], Chunking("word", 1, 0))] == ["a,b", "c"]
    assert [c.text for c in chunk_sources(["a,b c"], Chunking("token", 1, 0))] == ["a", ",", "b", "c"]


@pytest.mark.parametrize("strategy,size,overlap,key", [
    ("paragraph", 5, 2, "chunk_strategy"), ("word", 0, 0, "chunk_size"),
    ("word", 3, 3, "chunk_overlap"), ("word", "5", 2, "chunk_size"),
])
def test_bad_settings_name_the_key(strategy, size, overlap, key):
    with pytest.raises(ValueError, match=key):
        check_chunking(strategy, size, overlap)


def test_unknown_strategy_lists_the_valid_ones():
    with pytest.raises(ValueError) as error:
        check_chunking("paragraph", 5, 2)
    for name in ("full", "sentence", "word", "char", "token"):
        assert name in str(error.value)
