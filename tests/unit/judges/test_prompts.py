"""The batched judge prompt: every passage once, each statement naming its own."""

from conftest import batch_items

from provenance_guard.judges.prompts import batch_passage_chars, build_batch_prompt
from provenance_guard.types import Evidence

HOUSES = Evidence("The Louvre houses the Mona Lisa.")
PARIS = Evidence("The Louvre is in Paris.")
EVEREST = Evidence("Everest is in the Himalayas.")


def test_a_batch_prompt_carries_each_passage_once_and_each_statement_names_its_own():
    items = [("It houses the Mona Lisa.", [HOUSES, PARIS]), ("It is in Paris.", [PARIS, HOUSES]),
             ("Everest is in Nepal.", [EVEREST])]
    prompt = build_batch_prompt(items)
    assert [prompt.count(p.text) for p in (HOUSES, PARIS, EVEREST)] == [1, 1, 1]
    assert "statement 1: [1], [2]\n" in prompt
    assert "statement 2: [2], [1]\n" in prompt  # its own order, best first
    assert batch_items(prompt) == [
        (1, f"[1] {HOUSES.text}\n[2] {PARIS.text}", "It houses the Mona Lisa."),
        (2, f"[2] {PARIS.text}\n[1] {HOUSES.text}", "It is in Paris."),
        (3, f"[3] {EVEREST.text}", "Everest is in Nepal.")]
    assert batch_passage_chars(items) == sum(len(p.text) for p in (HOUSES, PARIS, EVEREST))


def test_a_statement_with_no_passage_says_so_and_the_passages_come_before_the_statements():
    prompt = build_batch_prompt([("Mars has two moons.", []), ("It is in Paris.", [PARIS])])
    assert "statement 1: none\n" in prompt
    assert prompt.index("BEGIN PASSAGES>>") < prompt.index("BEGIN STATEMENT 1>>")


def test_chunks_of_one_source_that_overlap_or_touch_are_sent_as_one_stretch():
    from provenance_guard.types import Chunk

    source = "One. Two. Three. Four. Five."

    def chunk(start, end, source_number=0):
        return Evidence.of(Chunk(source[start:end], start, end, source_number))

    first, second, touching, apart = chunk(0, 9), chunk(5, 16), chunk(16, 22), chunk(5, 9, 1)
    items = [("A.", [first]), ("B.", [second, apart]), ("C.", [touching])]
    prompt = build_batch_prompt(items)
    assert f"[1] {source[:22]}\n" in prompt  # one stretch: no character of source 0 twice
    assert prompt.count("Two.") == 2  # once in the stretch, once as source 1's own passage
    assert "statement 2: [1], [2]\n" in prompt
    assert "statement 3: [1]\n" in prompt
    assert batch_passage_chars(items) == 22 + 4


def test_every_prompt_of_a_kind_begins_with_the_same_instructions_and_the_data_comes_after():
    """A prompt cache reuses a shared beginning: the verdict definitions come before anything
    that changes from call to call (the tag, the question, the passages, the statements)."""
    import os
    import re

    from provenance_guard.judges.prompts import build_prompt
    from provenance_guard.types import Context

    for build in (lambda s, e, q: build_prompt(s, e, Context(q)),
                  lambda s, e, q: build_batch_prompt([(s, e), ("Another.", e)], Context(q))):
        one = build("It houses the Mona Lisa.", [HOUSES], None)
        other = build("Everest is in Nepal.", [EVEREST, PARIS], "Where is Everest?")
        shared = os.path.commonprefix([one, other])
        assert "unsupported: they do not settle it." in shared
        assert re.search(r"<<(\d{15}):", one).group(1) not in shared
        assert "Everest" not in shared and "Louvre" not in shared
