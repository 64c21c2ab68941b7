"""A conversation's turns: what the user asserted, said back as a reply says it, and the
turns a prompt carries within its budget."""

import pytest

from provenance_guard.judges.prompts import build_prompt
from provenance_guard.request import Defaults, read_request
from provenance_guard.text.conversation import Turn, asserted, said_back, shown
from provenance_guard.types import Evidence


@pytest.mark.parametrize("said, back", [
    ("My order number is 5521.", "Your order number is 5521."),
    ("I am Ann and I was charged twice.", "You are Ann and you were charged twice."),
    ("I'm flying on Monday; it was booked in May.", "You're flying on Monday; it was booked in May."),
    ("We lost our keys.", "You lost your keys."),
    ("The parcel is mine.", "The parcel is yours."),
    ("I am sure the shop opens at 9 am.", "You are sure the shop opens at 9 am."),
])
def test_the_first_person_is_said_back_as_the_second(said, back):
    assert said_back(said) == back


def test_only_what_a_user_turn_asserts_is_evidence_and_it_points_at_the_turn():
    turns = [Turn("user", "My order is 5521. Is it late?", 1),
             Turn("assistant", "It ships today.", 2),
             Turn("system", "Refunds take 30 days.", 3),
             Turn("user", "Thanks! It's for my sister?!", 4)]
    evidence, thanks = asserted(turns)  # no question ("?!" too), nor another role's turn
    assert (evidence.text, thanks.text) == ("Your order is 5521.", "Thanks!")
    said = evidence.said
    assert (said.turn, said.role, said.text) == (1, "user", "My order is 5521.")
    assert turns[0].content[said.start:said.end] == said.text


def test_a_prompt_carries_the_newest_turns_within_the_budget_oldest_cut_first():
    turns = [Turn("user", f"Turn {n}: " + "x" * 300, n) for n in range(1, 11)]
    kept = shown(turns, 1_000)
    assert [t.number for t in kept] == [8, 9, 10]
    [alone] = shown([Turn("user", "a" * 50 + "THE END", 1)], 20)
    assert alone.content.endswith("THE END") and len(alone.content) == 23


def test_a_long_conversation_reaches_the_prompt_cut_to_its_budget():
    messages = [{"role": "user" if n % 2 else "assistant", "content": f"turn {n} " + "y" * 400}
                for n in range(1, 21)]
    request = read_request("x", {"sources": ["s"], "messages": messages}, Defaults(False, None))
    prompt = build_prompt("It is late.", [Evidence("s")], request.context)
    assert "turn 19 " in prompt and "turn 1 " not in prompt  # the user's newest turns
    assert "turn 20 " not in prompt  # the assistant's: never shown
    assert sum(len(text) for _, text in request.context.conversation) <= 2_000


@pytest.mark.parametrize("reply, claim", [
    ("I'm sorry your order is late.", "Your order is late."),
    ("Thanks for letting me know that your order number is 7730.", "Your order number is 7730."),
    ("As you said, the flight is LH 454.", "The flight is LH 454."),
    ("No, your card was not blocked.", "Your card was not blocked."),
    ("Right now the store is closed.", "Right now the store is closed."),  # no mark: a word
])
def test_a_replys_opening_is_set_aside_before_it_meets_what_the_user_said(reply, claim):
    from provenance_guard.text.said import unframed

    assert unframed(reply) == claim
