"""A pronoun that opens a sentence is read as the subject of the sentence before it, in the
validated text as in a source: "Hall B opened in 2005. It seats 800." claims that Hall B seats
800, and is checked as that. Where the sentence before names nothing the pronoun can stand
for, the sentence is read as it is written."""

import pytest

from provenance_guard import ProvenanceLLM
from provenance_guard.rules import check, in_context
from provenance_guard.types import Evidence


@pytest.mark.parametrize("before,sentence,read_as", [
    ("Hall B opened in 2005.", "It seats 800.", "[Hall B] seats 800."),
    # the subject as the sentence before writes it, article and all, its aside left out
    ("The museum opened in 1990.", "It is free on Sundays.", "[The museum] is free on Sundays."),
    ("The old tower, built in 1890, fell in 1990.", "It was rebuilt.",
     "[The old tower] was rebuilt."),
    ("The Grand Hotel in Paris never reopened.", "It was sold.",
     "[The Grand Hotel in Paris] was sold."),
    ("The tickets sold out quickly.", "They cost €5.", "[The tickets] cost €5."),
    ("Acme and Beta are firms.", "They were founded in 1990.",
     "[Acme and Beta] were founded in 1990."),
    ("Albert Einstein moved to Berlin in 1914.", "He won the Nobel Prize in 1921.",
     "[Albert Einstein] won the Nobel Prize in 1921."),
    ("The patient was discharged on Friday.", "She must return next month.",
     "[The patient] must return next month."),
    # the sentence before has no subject the pronoun can stand for
    ("I visited Hall B.", "It seats 800.", "It seats 800."),
    ("Is Hall B open?", "It seats 800.", "It seats 800."),
    ("Hall B opened in 2005.", "This hall seats 800.", "This hall seats 800."),
    # an "it" that stands for what follows, not for a thing
    ("The mine closed in 1990.", "It is unlikely that it will reopen.",
     "It is unlikely that it will reopen."),
    ("The bridge opened in 1990.", "It took ten years to build.", "It took ten years to build."),
    ("The mine closed in 1990.", "It is true that it closed.", "It is true that it closed."),
    # a contraction is read as it is written; "it" is no plural, no number of things
    ("The museum opened in 1990.", "It's free.", "It's free."),
    ("About 9 million people visit it each year.", "It was painted gold.",
     "It was painted gold."),
])
def test_a_pronoun_that_opens_a_sentence_is_read_as_the_subject_before(before, sentence,
                                                                      read_as):
    assert in_context(sentence, before) == read_as


def passes(text, *sources):
    return ProvenanceLLM(llm_callable="local", on_fail="noop").check(
        text, {"sources": list(sources)}).passed


def test_a_pronoun_is_not_given_what_the_sources_say_of_another():
    """"It" is Hall B: the seats of Hall A are not Hall B's."""
    assert not passes("Hall B opened in 2005. It seats 800.",
                      "Hall A opened in 1990 and seats 800. Hall B opened in 2005 and seats 1,200.")
    assert passes("Hall B opened in 2005. It seats 1,200.",
                  "Hall A opened in 1990 and seats 800. Hall B opened in 2005 and seats 1,200.")


def test_a_source_pronoun_is_read_the_same_way():
    source = ("The Hill Street branch was renovated in 2021. It has a reading garden. The Orchard "
              "Road branch has a café.")
    assert not passes("The Orchard Road branch has a café. It has a reading garden.", source)
    assert passes("The Hill Street branch has a reading garden.", source)
    assert passes("The Hill Street branch was renovated in 2021. It has a reading garden.",
                  source)


@pytest.mark.parametrize("text", [
    "The Eiffel Tower is in Paris. It houses the Mona Lisa.",
    "- The Eiffel Tower is in Paris.\n- It houses the Mona Lisa.",  # a list's next item
    "The Eiffel Tower is in Paris.\n\n**It houses the Mona Lisa.**",  # a paragraph, emphasis
    "The Eiffel Tower is in Paris. Thanks for asking! It houses the Mona Lisa.",
])
def test_a_pronoun_reads_back_to_the_last_sentence_that_asserts(text):
    """"It" is the Eiffel Tower, past a new line and past what asserts nothing."""
    assert not passes(text, "The Eiffel Tower is in Paris.", "The Louvre houses the Mona Lisa.")


@pytest.mark.parametrize("source", [
    "Hall B opened in 2005 and seats 800.",  # "and" before a verb of another tense
    "Hall B opened in 2005. It seats 800.",
])
def test_a_claim_with_the_name_is_supported_by_a_statement_with_the_pronoun(source):
    assert check("Hall B seats 800.", [Evidence(source)]).supported


def test_the_result_says_what_the_sentence_was_read_as():
    """The reason names what was judged, and so does the metadata, read back whole."""
    from provenance_guard import Report

    validator = ProvenanceLLM(llm_callable="local", on_fail="noop")
    result = validator.check("Hall B opened in 2005. It seats 800.",
                             {"sources": ["Hall B opened in 2005.", "Hall A seats 800."]})
    first, second = result.sentences
    assert first.read_as is None and second.read_as == "[Hall B] seats 800."
    assert second.summary().endswith("read as '[Hall B] seats 800.'")
    metadata = validator.validate("Hall B opened in 2005. It seats 800.", {
        "sources": ["Hall B opened in 2005.", "Hall A seats 800."]}).metadata
    assert metadata["sentences"][1]["read_as"] == "[Hall B] seats 800."
    again = Report.from_metadata(metadata).sentences[1]
    assert again.read_as == again.claims[0].text == "[Hall B] seats 800."


@pytest.mark.parametrize("claim,source,held", [
    # a source that speaks of it otherwise ("the tower", "it") holds the rest
    ("[The Eiffel Tower] remained the tallest structure in the world until 1930.",
     "When it opened, the tower was 300 metres tall, and it remained the tallest structure in "
     "the world until 1930.", True),
    # one that speaks of another does not
    ("[Hall B] seats 800.", "Hall A seats 800.", False),
    ("[The Eiffel Tower] houses the Mona Lisa.", "The Louvre houses the Mona Lisa.", False),
    ("[The Orchard Road branch] has a reading garden.",
     "The Hill Street branch was renovated. It has a reading garden.", False),
])
def test_the_subject_read_for_a_pronoun_holds_back_what_is_said_of_another(claim, source, held):
    assert check(claim, [Evidence(source)]).supported is held


@pytest.mark.parametrize("before,sentence,read_as", [
    # a number that labels a thing is part of its name; one that counts them is a plural
    ("Your order A-1 was placed on May 2.", "It was cancelled.",
     "[Your order A-1] was cancelled."),
    ("Hall 5 opened in 2005.", "It seats 800.", "[Hall 5] seats 800."),
    ("Two firms bid for it.", "It was sold.", "It was sold."),
    ("Her mother moved to Lyon.", "She opened a bakery.", "[Her mother] opened a bakery."),
])
def test_what_a_subject_holds_decides_what_it_can_stand_for(before, sentence, read_as):
    assert in_context(sentence, before) == read_as
