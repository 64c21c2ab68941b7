"""What a user's turn grounds, by the one reader of assertions: only a faithful restatement of
what the user asserted about themselves. A question, request, hedge, supposition, report of
someone else's words, retraction or later correction grounds nothing; nor does what the user
says of the world (the sources decide it), nor a restatement that changes who did what. The
rules judge and an LLM judge over real HTTP decide alike."""

from __future__ import annotations

import pytest
from conftest import words_judge

from provenance_guard import ProvenanceLLM

SOURCES = ["Orders ship within three days of payment. The store is closed on Sundays. "
           "The warranty lasts five years."]


def check(text: str, *user: str, judge: str = "local", url: str | None = None):
    options: dict = {"llm_callable": "local"} if judge == "local" else {
        "llm_callable": "openai/judge", "structured_replies": "off", "cache_size": 0,
        "control_statements": "off", "llm_kwargs": {"api_base": url, "api_key": "none"}}
    messages = [{"role": "user", "content": turn} for turn in user]
    return ProvenanceLLM(on_fail="noop", **options).check(
        text, {"sources": SOURCES, "messages": messages})


NOT_ASSERTED = [
    ("Your order 7731 shipped on Monday.", ["My order 7731 shipped on Monday?"]),
    ("Your order 7731 shipped on Monday.", ["My order 7731 shipped on Monday？"]),
    ("Your order 7731 shipped on Monday.", ["My order 7731 shipped on Monday (right?)"]),
    ("Your order 7731 shipped on Monday.", ["My order 7731 shipped on Monday. Is that correct?"]),
    ("Your order 7731 shipped on Monday.", ["Please confirm that my order 7731 shipped on Monday."]),
    ("Your order 7731 shipped on Monday.", ["Maybe my order 7731 shipped on Monday."]),
    ("Your order 7731 shipped on Monday.", ["I think my order 7731 shipped on Monday."]),
    ("Your order 7731 shipped on Monday.", ["Suppose my order 7731 shipped on Monday."]),
    ("Your order 7731 shipped on Monday.",
     ["My friend said my order 7731 shipped on Monday."]),
    ("Your order 7731 shipped on Monday.",
     ["My order 7731 shipped on Monday, but that's not true."]),
    ("Your order 7731 shipped on Monday.",
     ["My order 7731 shipped on Monday.", "Update: sorry, my order 7731 shipped on Friday."]),
    ("Your order 7731 shipped on Monday.", ["You wrote: 'your order 7731 shipped on Monday'."]),
]
# found by a second writer from the docs alone, after the first set was closed
SECOND_WRITER = [
    ("Your password was reset without your consent.",
     ["My password was reset without my consent, as far as I know."]),
    ("Your order shipped to your old address.",
     ["My order, if I remember correctly, shipped to my old address."]),
    ("Your parcel was lost in Rotterdam.",
     ["My parcel was lost in Rotterdam, to the best of my knowledge."]),
    ("Your order arrived damaged.",
     ["My order arrived damaged. Actually, scratch that, it arrived fine."]),
    ("Your order arrived damaged.",
     ["My order arrived damaged. No wait, that was my previous order."]),
    ("You were charged 40 dollars for delivery.",
     ["I was charged 40 dollars for delivery. Just kidding."]),
    ("Your order shipped on Friday.",
     ["My order shipped on Friday. That's what I assumed anyway, but I was wrong."]),
    ("Your flight to Oslo is on the 12th.",
     ["My flight to Oslo is on the 12th.", "Sorry, I meant the 14th."]),
    ("You ordered 3 chairs.", ["I ordered 3 chairs and a table.",
                              "Correction: it was 4 chairs, not 3."]),
    ("You renewed your passport in 2021.",
     ["I renewed my passport in 2021.", "Wait, no, I never renewed it."]),
    ("You paid the invoice on time.", ["I failed to pay the invoice on time."]),
    ("You cancelled your subscription before the renewal.",
     ["I forgot to cancel my subscription before the renewal."]),
    ("You returned the shoes to the store.", ["I tried to return the shoes to the store."]),
    ("You signed the lease in April.", ["I refused to sign the lease in April."]),
    ("You live in Denver, where the sales tax is 8.81%.",
     ["I live in Denver, where the sales tax is 8.81%."]),
    ("Your doctor prescribed amoxicillin, which treats viral infections.",
     ["My doctor prescribed amoxicillin, which treats viral infections."]),
    ("Your bank, Monzo, charges no foreign transaction fees.",
     ["My bank, Monzo, charges no foreign transaction fees."]),
    ("You were charged twice for order 7781 [1].", ["I was charged twice for order 7781."]),
]
CHANGED = [
    ("You have paid the March invoice.", ["I have not yet paid the March invoice."]),
    ("We owe you $200.", ["I owe you $200."]),
    ("You paid $45 for the lamp.", ["I paid €45 for the lamp."]),
]
OF_THE_WORLD = [
    ("The store is open every day.", ["The store is open every day, so I'll come on Sunday."]),
    ("The warranty lasts two years.", ["The warranty lasts two years."]),
    ("Gift cards never expire.", ["Gift cards never expire."]),
]
ASSERTED = [
    ("Your order 7731 shipped on Monday.", ["My order 7731 shipped on Monday. Where is it?"]),
    ("We owe you $200.", ["You owe me $200."]),
    ("You have not yet paid the March invoice.", ["I have not yet paid the March invoice."]),
    ("It was paid on May 3.", ["My order 5521 is stuck. It was paid on May 3."]),
]


@pytest.fixture(scope="module")
def url():
    from conftest import ChatServer

    server = ChatServer(words_judge)
    yield server.url
    server.close()


@pytest.mark.parametrize("judge", ["local", "http"])
@pytest.mark.parametrize("text,user", NOT_ASSERTED + CHANGED + OF_THE_WORLD + SECOND_WRITER)
def test_what_the_user_did_not_assert_of_themselves_grounds_nothing(text, user, judge, url):
    report = check(text, *user, judge=judge, url=url)
    assert not report.passed, report.sentences[0].verdict
    assert "the user said it" not in report.sentences[0].verdict.reason


@pytest.mark.parametrize("judge", ["local", "http"])
@pytest.mark.parametrize("text,user", ASSERTED)
def test_a_faithful_restatement_of_what_the_user_asserted_is_grounded(text, user, judge, url):
    report = check(text, *user, judge=judge, url=url)
    assert report.passed, report.sentences[0].verdict
    assert report.sentences[0].verdict.reason.startswith("the user said it (turn 1")
