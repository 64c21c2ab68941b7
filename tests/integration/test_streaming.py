"""Streaming gives the same sentences as the whole text, whatever the pieces.

Guardrails calls ``_chunking_function`` (``stream_chunks``) with the text accumulated so far;
when it returns ``[chunk, rest]`` it validates ``chunk`` alone and keeps ``rest``; at the end of
the stream it validates what is left. Each chunk is split again when it is validated, so the
sentences the judge sees are those of the chunks: they must be the whole text's.
"""

import pytest
from conftest import SOURCES, ScriptedJudge, toy_metadata
from guardrails import Guard

from provenance_guard import ProvenanceLLM
from provenance_guard.text.sentences import split_sentences, stream_chunks

TEXTS = {
    "citations": "The Eiffel Tower is in Paris. [1] It houses the Mona Lisa. [2] It is tall.[1][3]",
    "abbreviations": "I live in the U.S. He works there. Dr. Smith met Mrs. Jones at 3 p.m. on "
                     "Monday. Pi is 3.14 here. Wait... What happened?",
    "quotes": 'He said "Stop. Go. Now." Then he left. (See p. 5. It is there.) Done. '
              "She is the 'Iron Lady'. It isn't the students' book. Fine.",
    "markdown": "# Facts\nThe tower is tall. It is iron.\n- One item. Two.\n- **Bold. Text.**\n\n"
                "| a | b |\n|---|---|\n| 1. x | y. z |\n\nCode:\n```\na. b.\n```\nAfter it. End.",
    "multilingual": "هل هذا صحيح؟ نعم هو كذلك.\n\nयह सच है। वह भी।\n\n东京是日本的首都。它很大！\n\n"
                    "Москва — столица. Она большая.\u2029The end. Really.",
}


def stream(text: str, pieces: list[str], language: str = "auto") -> list[tuple[str, int, int]]:
    """The sentences Guardrails validates when ``text`` arrives as ``pieces``, with offsets
    into the whole text."""
    assert "".join(pieces) == text
    found, accumulated, offset = [], "", 0

    def validate(chunk):
        found.extend((s.text, offset + s.start, offset + s.end)
                     for s in split_sentences(chunk, language))

    for piece in pieces:
        accumulated += piece
        chunks = stream_chunks(accumulated, language)
        if chunks:
            chunk, accumulated = chunks
            assert chunk + accumulated == "".join([chunk, accumulated]) and chunk
            validate(chunk)
            offset += len(chunk)
    validate(accumulated)  # the end of the stream: the remainder
    return found


def whole(text: str, language: str = "auto") -> list[tuple[str, int, int]]:
    return [(s.text, s.start, s.end) for s in split_sentences(text, language)]


@pytest.mark.parametrize("name", TEXTS)
def test_pieces_of_every_size_give_the_whole_texts_sentences(name):
    text = TEXTS[name]
    expected = whole(text)
    for size in range(1, len(text) + 1):
        pieces = [text[i:i + size] for i in range(0, len(text), size)]
        assert stream(text, pieces) == expected, (name, size)


def test_a_citation_marker_in_three_tokens_stays_with_its_sentence():
    pieces = ["The Eiffel Tower is in Paris. [", "1", "] It houses", " the Mona Lisa. [", "2",
              "] It is tall."]
    text = "".join(pieces)
    assert stream(text, pieces) == whole(text)
    assert whole(text)[0][0] == "The Eiffel Tower is in Paris. [1]"


def test_streaming_waits_while_a_quote_is_open():
    assert stream_chunks('He said "Stop. Go. Now') == []
    assert stream_chunks("He said 'Stop. Go. Now") == []
    # a closed single quote, an apostrophe and a possessive plural hold nothing up
    assert stream_chunks("She is the 'Iron Lady'. It isn't the students' book. Then. And")[0] == (
        "She is the 'Iron Lady'. It isn't the students' book. ")
    assert stream_chunks('He said "Stop. Go." Then he left. And') == [
        'He said "Stop. Go." ', "Then he left. And"]


def test_a_cut_at_a_line_start_takes_the_lines_marker():
    chunk, rest = stream_chunks("Intro.\n- One. Two.\n- Three")
    assert chunk == "Intro.\n- One. " and rest == "Two.\n- Three"
    chunk, rest = stream_chunks("Intro. More.\n- One.\n- Two.\n- Three")
    assert chunk == "Intro. More.\n- One.\n" and rest == "- Two.\n- Three"


def test_a_real_guard_streaming_in_tokens_judges_what_the_whole_text_would():
    """Markers arrive in separate tokens ("[", "1", "]"). Whole or streamed, each
    citation is checked with its own sentence, nothing is miscited, nothing removed."""
    tokens = ["The Eiffel Tower is in Paris", ". [", "1", "] The Louvre houses the Mona Lisa",
              ". [", "2", "] Everest is in the Himalayas", ". [", "3", "]"]
    text = "".join(tokens)

    def run(stream_it):
        judge = ScriptedJudge()
        guard = Guard().use(ProvenanceLLM(llm_callable=judge, on_fail="fix"))
        if not stream_it:
            outcome = guard.validate(text, metadata=toy_metadata())
            return judge, outcome.validated_output, outcome.validation_passed

        def llm_api(*, messages=None, **kwargs):
            yield from tokens

        chunks = list(guard(llm_api, messages=[{"role": "user", "content": "Sights?"}],
                            metadata=toy_metadata(), stream=True))
        return (judge, "".join(c.validated_output or "" for c in chunks),
                all(c.validation_passed for c in chunks))

    whole_judge, whole_output, whole_passed = run(False)
    stream_judge, stream_output, stream_passed = run(True)
    assert whole_passed and stream_passed
    assert sorted(stream_judge.statements) == sorted(whole_judge.statements) == sorted(
        ["The Eiffel Tower is in Paris.", "The Louvre houses the Mona Lisa.",
         "Everest is in the Himalayas."])
    assert stream_output.strip() == whole_output == text
    assert SOURCES[2].startswith("Mount Everest")  # what [3] cites


def test_streaming_with_corrections_corrects_a_chunk_before_it_is_sent():
    """fix_mode="correct" while streaming: a chunk is validated (and corrected) before it is
    sent, so what was sent is never changed, and the corrected sentence is what arrives."""
    tokens = ["The Eiffel Tower is in Paris", ". It is 300", " metres tall", ". It was finished",
              " in 1889", "."]
    judge = ScriptedJudge(rewrite=lambda sentence, passages: "It is 330 metres tall.")
    guard = Guard().use(ProvenanceLLM(llm_callable=judge, on_fail="fix", fix_mode="correct"))

    def llm_api(*, messages=None, **kwargs):
        yield from tokens

    chunks = list(guard(llm_api, messages=[{"role": "user", "content": "Height?"}],
                        metadata=toy_metadata(), stream=True))
    sent = "".join(c.validated_output or "" for c in chunks)
    assert sent == "The Eiffel Tower is in Paris. It is 330 metres tall. It was finished in 1889."
    assert judge.rewritten == ["It is 300 metres tall."]
