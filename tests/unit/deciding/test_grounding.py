"""The grounding stage's weighing, on its own: a passage that speaks of the user's record
holds the user's word back, a correction of the user's among many restatements is seen, odd
text is read without raising, and a re-search the deadline cuts off grounds nothing."""

import asyncio
import time

import pytest

from provenance_guard.deciding.grounding import Grounding, _spoken_of, _weighed
from provenance_guard.runtime.deadline import Runner
from provenance_guard.text.conversation import check_messages
from provenance_guard.text.said import nearest
from provenance_guard.types import Claim, Evidence


@pytest.mark.parametrize("claim, passage, turn, speaks", [
    ("You paid $95 for order 5521.", "Order 5521: the card was charged $84.00.", "", True),
    ("You paid $95 for order 5521.", "Order 5522: the card was charged $84.00.", "", False),
    ("Your plan includes 50 GB a month.", "Basic: a 30 GB monthly allowance.",
     "I'm on the Basic plan.", True),
    ("Your plan includes 50 GB a month.", "Team: 1 TB pooled.", "I'm on the Basic plan.",
     False),
    ("It weighs 19 kg.", "Checked bags may weigh up to 23 kg.", "My suitcase is blue.", False),
    ("You have 3 free repairs left on CarePlus 771.", "CarePlus 771: 1 claim remaining.", "",
     True),
    ("You paid on Monday.", "Orders ship within three days of payment.", "", False),
], ids=["same order", "another order", "same unit, the user's plan", "another plan's unit",
        "a bound allows it", "a product and its number", "no value"])
def test_a_passage_that_speaks_of_the_users_record_holds_the_word_back(claim, passage, turn,
                                                                        speaks):
    assert _spoken_of(claim, [Evidence(passage)], turn) is speaks


@pytest.mark.parametrize("text", ["See section 4.2.1.", "192.168.1.1", "It takes 30 days.¹",
                                  "See note ³ below", "1" * 5000, "٣٤٥ items", "\ud800 9 GB"])
def test_odd_text_is_read_without_raising(text):
    _spoken_of("Your plan gives 50 GB a month.", [Evidence(text)], text)


def test_a_correction_among_many_restatements_is_weighed():
    turns = check_messages([{"role": "user", "content": "My plan gives 50 GB a month."}] * 4
                           + [{"role": "user", "content": "My plan gives 30 GB a month."}])
    claim = "Your plan gives 50 GB a month."
    [near] = nearest([claim], turns)
    assert len(near) == 5  # every one is weighed; a judge is shown the nearest three
    assert _weighed([claim], [near], [[]], [""]) == [False]
    assert _weighed([claim], [near[:4]], [[]], [""]) == [True]


class Slow:
    """A retriever whose deeper search never ends before the deadline."""

    source_count = None

    def find(self, claims, depth=1):
        return self

    async def get(self, i):
        await asyncio.sleep(5)
        return []


def test_a_deeper_search_the_deadline_cuts_off_grounds_nothing_and_ends_by_it():
    stage = Grounding(decider=None, on=True)

    async def search():
        async with Runner(4, 0.3).validation() as scope:
            started = time.monotonic()
            found = await stage._passages([Claim("A.", 0), Claim("B.", 1)], Slow(), scope)
            return found, time.monotonic() - started

    found, took = asyncio.run(search())
    assert found == [None, None] and took < 1.5
