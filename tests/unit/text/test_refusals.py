"""A sentence is a refusal only when all of it says the sources hold no answer; a disclaimer
beside a claim excuses nothing: the claim is what is judged."""

import pytest

from provenance_guard import ProvenanceLLM
from provenance_guard.text.refusals import claim_part, is_refusal, refusal_topic

EIFFEL = ["The Eiffel Tower was finished in 1889. It is 330 metres tall."]


@pytest.mark.parametrize("sentence,claim", [
    ("It was painted gold in 2024, although no source mentions this.",
     "It was painted gold in 2024."),
    ("No document says so, but it closes at 6 pm.", "It closes at 6 pm."),
    ("The documents don't cover pricing; the premium tier costs $49 a month.",
     "The premium tier costs $49 a month."),
    ("Not mentioned in the passages: the CEO resigned in March.", "The CEO resigned in March."),
    ("The plant employs 400 people (this is not in the provided documents).",
     "The plant employs 400 people."),
    ("There is no information about this in the sources, except that the ferry runs hourly.",
     "The ferry runs hourly."),
])
def test_a_disclaimer_beside_a_claim_is_taken_off_and_the_claim_judged(sentence, claim):
    assert not is_refusal(sentence)
    assert claim_part(sentence) == claim


@pytest.mark.parametrize("sentence", [
    "No document says how tall it is.", "I could not find this in the documents.",
    "No source says when it opens and closes.", "This is not in the documents.",
    "The sources are silent on the price.",
    "Nothing in the sources says the museum was painted blue.",
])
def test_a_refusal_through_and_through_stays_one(sentence):
    assert is_refusal(sentence) and claim_part(sentence) == sentence


@pytest.mark.parametrize("sentence", [
    "The sources do not say the pool is heated, which it is.",
    "No source says whether it opened, which it did.",
])
def test_a_trailing_clause_of_a_verb_and_a_pronoun_still_asserts(sentence):
    # "which it is" says what the disclaimer says is not in the sources: no refusal
    assert not is_refusal(sentence)


@pytest.mark.parametrize("text", [
    "It was painted gold in 2024, although no source mentions this.",
    "No source says so, but the tower is 350 metres tall.",
])
@pytest.mark.parametrize("citations", ["auto", "required"])
def test_a_claim_with_a_disclaimer_fails_like_the_claim_alone(text, citations):
    validator = ProvenanceLLM(llm_callable="local", on_fail="noop", citations=citations)
    report = validator.check(text, {"sources": EIFFEL})
    assert not report.passed
    [result] = report.sentences
    assert str(result.verdict.label) in ("unsupported", "contradicted")
    assert "do not answer" not in result.verdict.reason


MUSEUM = ["The Harbour Museum opened in 1932. It has three floors and a café.",
          "The museum opens at 10 am and is open on Mondays. The mayor did not attend the "
          "opening."]


@pytest.mark.parametrize("text,question,passed", [
    # what a refusal asks about is its words but those that only ask ("when", "how many"):
    # a passage that holds them answers it, and the refusal is false
    ("No source says when the museum opened.", None, False),
    ("The sources do not say how many floors the museum has.", None, False),
    ("The documents do not say.", "When did the museum open?", False),
    ("No source says who designed the museum.", None, True),
    ("The documents do not say.", "Who designed the museum?", True),
    # the opposite answers whether, not when: opening hours say nothing of closing ones
    ("No source says when the museum closes.", None, True),
    ("No source says whether the museum is closed on Mondays.", None, False),
    # a negation in what is asked is kept: the passage that says it answers it
    ("No source says who did not attend the opening.", None, False),
    ("The documents do not say.", "Who did not attend the opening?", False),
])
def test_a_refusal_is_judged_by_what_it_asks_about(text, question, passed):
    metadata = {"sources": MUSEUM} | ({"question": question} if question else {})
    report = ProvenanceLLM(llm_callable="local", on_fail="noop").check(text, metadata)
    assert report.passed is passed, report.sentences[0].verdict.reason


def test_a_claim_about_a_text_that_opens_with_nothing_is_no_refusal():
    assert not is_refusal("Nothing in the text of the treaty gives Spain the right to leave.")


@pytest.mark.parametrize(("text", "topic"), [
    ("The documents don't say when the Corran Bridge opened.", "Corran Bridge opened"),
    ("The sources do not mention how much a ferry ticket costs.", "a ferry ticket costs"),
    ("The passages didn't give the fare.", "fare"),
])
def test_a_refusal_asks_about_what_it_names_not_its_own_denial(text, topic):
    assert refusal_topic(text).rstrip(".").endswith(topic)
    assert "n't" not in refusal_topic(text) and " not " not in refusal_topic(text)


@pytest.mark.parametrize("text", [
    "The sources don't give the crossing time, and the ferry leaves at 7:15 am.",
    "I can't find the operator in the documents; the ferry carries 1,200 people.",
])
def test_a_claim_beside_a_refusal_keeps_its_times_and_numbers_whole(text):
    kept = claim_part(text)
    assert ("7:15 am" in kept) or ("1,200 people" in kept), kept
