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
    "Francis Nethersole (1587–1659) was an English diplomat. Elizabeth Stuart (19 August "
    "1596 – 13 February 1662) was Electress of the Palatinate.",
    "Francis Nethersole (born 1587 in Kent – 1659) was an English diplomat. Elizabeth Stuart "
    "(born 19 August 1596 in Falkland) was Electress of the Palatinate.",
    "Francis Nethersole (1587-11-05 – 1659) was an English diplomat. Elizabeth Stuart (born "
    "1596-08-19) was Electress of the Palatinate.",
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
    # brackets that give no plain date of birth: a span that is no lifespan, an unsure date,
    # a date of someone else, a date said to be disputed, a year before Christ
    ("Anna Berg", "Who was born first, Anna Berg or Tove Renner?",
     "Anna Berg (reigned 1509–1547) was a queen. Tove Renner (born 1500) was a poet."),
    ("Anna Berg", "Who was born first, Anna Berg or Tove Renner?",
     "Anna Berg (born 1490 or 1491) was a queen. Tove Renner (born 1500) was a poet."),
    ("Anna Berg", "Who was born first, Anna Berg or Tove Renner?",
     "Anna Berg (born 1490?) was a queen. Tove Renner (born 1500) was a poet."),
    ("Anna Berg", "Who was born first, Anna Berg or Tove Renner?",
     "Anna Berg (birth date disputed; born 1490) was a queen. Tove Renner (born 1500) was a "
     "poet."),
    ("Anna Berg", "Who was born first, Anna Berg or Tove Renner?",
     "Anna Berg (mother of Erik, born 1520) was a queen. Tove Renner (born 1500) was a poet."),
    ("Anna Berg", "Who was born first, Anna Berg or Tove Renner?",
     "Anna Berg (not to be confused with the singer born 1520) was a queen. Tove Renner (born "
     "1500) was a poet."),
    ("Anna Berg", "Who was born first, Anna Berg or Tove Renner?",
     "Anna Berg (born 384 BC) was a queen. Tove Renner (born 356 BC) was a poet."),
    # a name that is the end of another, or a source that is not plain prose
    ("Tove Renner", "Who was born first, Anna Berg or Tove Renner?",
     "Maria Anna Berg (born 1520) was a queen. Tove Renner (born 1500) was a poet."),
    ("Tove Renner", "Who was born first, Anna Berg or Tove Renner?",
     "A blog claims that Anna Berg (born 1520) was a queen. Tove Renner (born 1500) was a poet."),
    ("Tove Renner", "Who was born first, Anna Berg or Tove Renner?",
     "A reader wrote: Anna Berg (born 1520) was a queen. Tove Renner (born 1500) was a poet."),
    ("Tove Renner", "Who was born first, Anna Berg or Tove Renner?",
     "Anna Berg (born 1520) was a queen. (This is false.) Tove Renner (born 1500) was a poet."),
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


@pytest.mark.parametrize("answer,question", [
    ("ALEKSANDER FORD.", BORN_FIRST), ("aleksander ford", BORN_FIRST),
    ("Aleksander Ford", BORN_FIRST.lower()),
])
def test_the_names_are_read_in_any_case(answer, question):
    assert compare(answer, [Evidence(SOURCE)], question).holds


def test_a_date_of_death_beside_the_date_of_birth_is_not_read_as_it():
    source = ("Mara Lindqvist (born 3 March 1950; died 2020) is a painter. Tobias Renner (born "
              "4 March 1950) is an architect.")
    question = "Who was born first, Mara Lindqvist or Tobias Renner?"
    assert compare("Mara Lindqvist", [Evidence(source)], question).holds


def test_a_bare_name_the_sources_only_name_does_not_answer_a_choice():
    source = "Mara Lindqvist (born 1940) is a painter. Tove Renner (born 1950) is a poet."
    judge = LocalJudge()
    for answer, question in [("Lindqvist.", "Who was born first, Mara Lindqvist or Tove Renner?"),
                             ("Tove Renner.", "Who died first, Mara Lindqvist or Tove Renner?")]:
        assert judge.judge(answer, [Evidence(source)], question).label != SUPPORTED


def test_a_hostile_name_and_source_end_in_time():
    name = "A " * 2000 + "B"
    source = ("A " * 5000 + "(born 1 May 1900) ") * 3
    assert compare(name, [Evidence(source)], f"Who was born first, {name} or C D?") is None


HUGHES = ("Glenn Hughes (born 21 August 1951) is an English bassist. Ross Lynch (born December "
          "29, 1995) is an American singer.")


@pytest.mark.parametrize("answer,question", [
    # the order said the other way round
    ("Glenn Hughes is younger.", "Who is older, Glenn Hughes or Ross Lynch?"),
    ("Glenn Hughes was born last.", "Who was born first, Glenn Hughes or Ross Lynch?"),
    # a question that asks something else of the two
    ("Glenn Hughes", "Whose mother was born first, Glenn Hughes or Ross Lynch?"),
    ("Glenn Hughes", "Who has the older brother, Glenn Hughes or Ross Lynch?"),
    ("Glenn Hughes", "Who was first born in Canada, Glenn Hughes or Ross Lynch?"),
    ("Glenn Hughes", "Who was born first in his family, Glenn Hughes or Ross Lynch?"),
    ("Glenn Hughes", "Who was born first, the father of Glenn Hughes or Ross Lynch?"),
    ("Ross Lynch", "Who wasn't born first, Glenn Hughes or Ross Lynch?"),
])
def test_no_decision_where_the_question_or_the_answer_says_more_than_the_order(answer,
                                                                               question):
    assert compare(answer, [Evidence(HUGHES)], question) is None


@pytest.mark.parametrize("source,answer", [
    ("Paul praised Adam Smith (1723–1790). Ross Lynch (born 1995) sings.", "Paul Smith"),
    ("In 1990 Glenn met Ann Hughes (born 1930). Ross Lynch (born 1995) sings.", "Glenn Hughes"),
])
def test_words_between_a_first_and_a_last_name_are_names_too(source, answer):
    question = f"Who was born first, {answer} or Ross Lynch?"
    assert compare(answer, [Evidence(source)], question) is None


def test_which_and_its_noun_ask_who():
    question = "Which bassist was born first, Glenn Hughes or Ross Lynch?"
    assert compare("Glenn Hughes", [Evidence(HUGHES)], question).holds
