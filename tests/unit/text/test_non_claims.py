"""Sentences that assert nothing (non_claims.py): the closed list of forms, and the claims
dressed as pleasantries that must still be judged."""

import pytest

from provenance_guard.text.non_claims import (
    ACKNOWLEDGMENT,
    FEELING,
    FORMS,
    GREETING,
    OFFER,
    QUESTION,
    THANKS,
    form_of,
)


@pytest.mark.parametrize("sentence,form", [
    ("Hi!", GREETING),
    ("Hello there!", GREETING),
    ("Good morning, everyone.", GREETING),
    ("Nice to meet you!", GREETING),
    ("Have a great day!", GREETING),
    ("Enjoy reading it!", GREETING),
    ("Thanks!", THANKS),
    ("Thank you for your question.", THANKS),
    ("Thanks so much for asking!", THANKS),
    ("You're welcome!", THANKS),
    ("No problem!", THANKS),
    ("I hope this helps!", OFFER),
    ("I hope this helps! 🙂", OFFER),
    ("Hope that helps :)", OFFER),
    ("**I hope this helps.**", OFFER),
    ("Let me know if you have any other questions.", OFFER),
    ("Feel free to ask if you need anything else!", OFFER),
    ("Don't hesitate to reach out.", OFFER),
    ("I’m happy to help.", OFFER),  # a curly apostrophe
    ("Is there anything else I can help you with?", QUESTION),
    ("Would you like to know more?", QUESTION),
    ("Would you like me to explain further?", QUESTION),
    ("Do you have any other questions?", QUESTION),
    ("Does that answer your question?", QUESTION),
    ("What else can I help you with?", QUESTION),
    ("I love that film!", FEELING),
    ("I really like this idea.", FEELING),
    ("Great question!", FEELING),
    ("What a great question!", FEELING),
    ("I'm sorry to hear that.", FEELING),
    ("That sounds fun!", FEELING),
    ("Great question, thanks for asking!", FEELING),  # two forms: the first names it
])
def test_a_sentence_that_asserts_nothing_is_not_a_claim(sentence, form):
    assert form_of(sentence) == form


@pytest.mark.parametrize("sentence", [
    # a claim after a pleasantry, in the same sentence
    "Thanks, the drug is safe for children!",
    "Thanks for asking, it helps a lot.",
    "I hope this helps: take 500 mg twice a day.",
    "Great question, and the answer is yes.",
    # a number, a date, a name
    "Let me know if you need the 2019 figures.",
    "Hi, John!",
    "Happy to help, Dr Smith.",
    "I love Paris!",
    "Good morning from May.",
    # a statement about the world inside a pleasantry's frame
    "I love that the drug is safe!",
    "I'm glad the drug is safe.",
    "I'm sorry to hear that the trial failed.",
    "Would you like to know why the drug is safe?",
    "Let me know if you have questions about the side effects.",
    "I hope this helps you stop smoking.",
    "I think the drug is safe.",
    "It helps.",
    "That's correct!",
    "It's great.",
    "Enjoy the new drug!",
    "Have a safe trip!",
    # a question form that is not asked
    "Would you like to know more",
    # a yes or a no
    "Yes.",
    "No.",
    # look-alike and hidden characters (Cyrillic a; a zero-width space; full-width letters)
    "Thаnks!",
    "Thanks!\u200bThe drug is safe.",
    "Ｔｈａｎｋｓ!",
    # other languages are judged
    "Merci beaucoup !",
    # long, and nothing but its form's words
    "Thanks " * 40,
])
def test_a_claim_dressed_as_a_pleasantry_is_still_a_claim(sentence):
    assert form_of(sentence) is None
    assert form_of(sentence, question="What is the drug for?") is None


@pytest.mark.parametrize("question,form", [
    ("What is aspirin used for?", ACKNOWLEDGMENT),
    ("Tell me about aspirin.", ACKNOWLEDGMENT),
    ("Can you summarise the leaflet?", ACKNOWLEDGMENT),
    # to a yes/no question, "Sure!" is a yes: a claim
    ("Is aspirin safe for children?", None),
    ("Does it interact with alcohol?", None),
    ("What is aspirin? Is it safe?", None),  # one of the questions is yes/no
    ("", None),
    (None, None),
])
def test_an_acknowledgment_is_no_claim_only_to_an_open_question(question, form):
    assert form_of("Sure!", question) == form
    assert form_of("Absolutely!", question) == form
    assert form_of("Of course, happy to help!", question) == (OFFER if form else None)


def test_the_forms_are_a_closed_list():
    assert set(FORMS) == {GREETING, THANKS, OFFER, QUESTION, FEELING, ACKNOWLEDGMENT}
