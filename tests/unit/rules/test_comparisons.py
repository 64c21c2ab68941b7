"""Which of two named people was born first, proven by one statement of each
(``rules.comparisons``): decided only where both dates are read plainly."""

import pytest

from provenance_guard import LocalJudge
from provenance_guard.rules.comparisons import compare
from provenance_guard.types import CONTRADICTED, SUPPORTED, Evidence

SOURCE = ("Pablo Trapero (born 4 October 1971) is an Argentine film producer. Aleksander Ford "
          "(born Mosze Lifszyc; 24 November 1908 in Kiev – 4 April 1980 in Naples) was a Polish "
          "film director.")
BORN_FIRST = "Who was born first, Pablo Trapero or Aleksander Ford?"


@pytest.mark.parametrize("answer,question,holds", [
    ("Aleksander Ford", BORN_FIRST, True),
    ("Aleksander Ford was born first.", BORN_FIRST, True),
    ("Pablo Trapero", BORN_FIRST, False),
    ("Pablo Trapero was born first.", BORN_FIRST, False),
    ("Pablo Trapero", "Who is younger, Pablo Trapero or Aleksander Ford?", True),
    ("Aleksander Ford", "Who is older Pablo Trapero or Aleksander Ford?", True),
    ("Aleksander Ford", "Who was born later, Pablo Trapero or Aleksander Ford?", False),
])
def test_the_answer_is_held_by_the_two_dates_of_birth(answer, question, holds):
    found = compare(answer, [Evidence(SOURCE)], question)
    assert found is not None and found.holds is holds, found
    assert "24 November 1908" in found.reason and "4 October 1971" in found.reason


@pytest.mark.parametrize("source", [
    "Sir Francis Nethersole (1587–1659) was an English diplomat. Elizabeth Stuart (19 August "
    "1596 – 13 February 1662) was Electress of the Palatinate.",
    "Francis Nethersole (born 1587) was an English diplomat. Elizabeth Stuart (born 1596) was "
    "Electress of the Palatinate.",
])
def test_a_span_of_years_or_born_gives_the_date(source):
    question = "Who was born first, Francis Nethersole or Elizabeth Stuart?"
    assert compare("Francis Nethersole", [Evidence(source)], question).holds


@pytest.mark.parametrize("answer,question,source", [
    # a date not read plainly: approximate, or one year without months, or none
    ("Nick Cave", "Who is older, Anita Lane or Nick Cave?",
     "Anita Lane (born ca. 1959) is a singer. Nick Cave (born 22 September 1957) is a musician."),
    ("Anita Lane", "Who is older, Anita Lane or Nick Cave?",
     "Anita Lane (born 1957) is a singer. Nick Cave (born 1957) is a musician."),
    ("Anita Lane", "Who is older, Anita Lane or Nick Cave?",
     "Anita Lane is a singer born in 1957. Nick Cave (born 22 September 1958) is a musician."),
    # a name the source writes otherwise: the first name is not the question's
    ("Joe Manganiello", "Who was born first, Joe Manganiello or Kirk Kerkorian?",
     "Joseph Manganiello (born December 28, 1976) is an actor. Kirk Kerkorian (June 6, 1917 – "
     "June 15, 2015) was a businessman."),
    # two dates for one name
    ("Aleksander Ford", BORN_FIRST,
     SOURCE + " Aleksander Ford (born 1 May 1975) is a Canadian chef."),
    # an answer that says more, or names both, or neither
    ("Aleksander Ford was born first, in Kiev.", BORN_FIRST, SOURCE),
    ("Aleksander Ford was not born first.", BORN_FIRST, SOURCE),
    ("Both Pablo Trapero and Aleksander Ford", BORN_FIRST, SOURCE),
    ("Roman Polanski", BORN_FIRST, SOURCE),
    # a question that asks something else
    ("Aleksander Ford", "Who directed more films, Pablo Trapero or Aleksander Ford?", SOURCE),
    ("Aleksander Ford", "Who was not born first, Pablo Trapero or Aleksander Ford?", SOURCE),
    ("Aleksander Ford", "Who was born first?", SOURCE),
])
def test_no_decision_where_a_date_or_the_answer_is_not_read_plainly(answer, question, source):
    assert compare(answer, [Evidence(source)], question) is None


def test_the_local_judge_proves_a_right_answer_and_contradicts_the_other():
    judge = LocalJudge()
    right = judge.judge("Aleksander Ford", [Evidence(SOURCE)], BORN_FIRST)
    wrong = judge.judge("Pablo Trapero was born first.", [Evidence(SOURCE)], BORN_FIRST)
    assert right.label == SUPPORTED and right.proven
    assert wrong.label == CONTRADICTED and not wrong.proven
    assert "Aleksander Ford was born before Pablo Trapero" in wrong.reason


def test_a_hostile_name_and_source_end_in_time():
    name = "A " * 2000 + "B"
    source = ("A " * 5000 + "(born 1 May 1900) ") * 3
    assert compare(name, [Evidence(source)], f"Who was born first, {name} or C D?") is None
