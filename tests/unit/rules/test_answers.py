"""A bare answer read in the place of its question's gap (``text.questions``) and proven by one
statement of the sources (the local judge's kind "answered"): each shape of question the reader
knows, each it leaves alone, and the answers that must not be proven, though the source names
them."""

import pytest

from provenance_guard import LocalJudge, rules
from provenance_guard.text.questions import in_its_place
from provenance_guard.types import SUPPORTED, Evidence

# (question, answer, the statement the answer makes in the question's place)
PLACES = [
    # a gap that ends the question, after a preposition or a verb
    ("Beowulf is a 2007 film directed by who?", "Robert Zemeckis",
     "Beowulf is a 2007 film directed by Robert Zemeckis."),
    ("The Thoen Stone is on display in what county?", "Lawrence County",
     "The Thoen Stone is on display in Lawrence County."),
    ("Milhouse, who Matt Groening named after who?", "Richard Nixon",
     "Matt Groening named after Richard Nixon."),
    ("The plaintiff was born in which year ?", "1948.", "The plaintiff was born in 1948."),
    # a gap that opens it: the answer is the subject
    ("Who directed Beowulf?", "Robert Zemeckis", "Robert Zemeckis directed Beowulf."),
    ("Who was inducted into the Hall of Fame, David Lee Roth or Cia Berg?", "David Lee Roth",
     "David Lee Roth was inducted into the Hall of Fame."),
    ("Which director is American, Mark Lester or Ken Loach?", "Mark Lester",
     "Mark Lester is American."),
    ("How many people did Acme hire?", "300", "Acme did hire 300 people."),
    # ... or the question is inverted, and the inversion is undone
    ("What is the capital of Peru?", "Lima", "the capital of Peru is Lima."),
    ("What year did the chairman of the commission die?", "2003",
     "the chairman of the commission die in 2003."),
    ("What year was the winner of the race born?", "1988", "the winner of the race was born in 1988."),
    ("In which game was Malcolm Smith named Most Valuable Player?", "Super Bowl XLVIII",
     "Malcolm Smith was named Most Valuable Player in Super Bowl XLVIII."),
    ("Where is the Acme head office?", "Delhi", "the Acme head office is in Delhi."),
    # after "are" and its subject, the verb is the participle, not a noun in "-s"
    ("What are the plants of the genus called?", "mums", "the plants of the genus are called mums."),
    ("Which film is about rock groups, Nanook or The Saimaa Gesture?", "The Saimaa Gesture",
     "The Saimaa Gesture is about rock groups."),
    # a choice of two names the question ends with is no part of what it asks
    ("Who is older Glenn Hughes or Ross Lynch?", "Glenn Hughes", "Glenn Hughes is older."),
    ("Who is younger Mary Ramsey or Lee Ranaldo ?", "Lee Ranaldo", "Lee Ranaldo is younger."),
    ("Which magazine was started first Arthur's Magazine or First for Women?",
     "Arthur's Magazine", "Arthur's Magazine was started first."),
]

# (question, answer): no gap this reads, so the answer is judged as written
NO_PLACE = [
    ("Why did the hall close?", "Fire"),  # a reason
    ("How did the hall close?", "Quickly"),  # a manner
    ("Is Lima the capital of Peru?", "Yes"),  # yes or no
    ("According to the census what is the population of Oslo?", "700,000"),  # mid-question
    ("The Oberoi family is part of a hotel company that has a head office in what city?",
     "Delhi"),  # which company is a second statement
    ("Cadmium chloride is soluble in this chemical, it is also called what?",
     "alcohol"),  # "it" stands for what another clause says
    ("The actress, who received a star in what year?", "2006"),  # no subject of its own
    ("What American singer, born in 1942, sang a duet?", "Tammy Wynette"),  # no verb in its clause
    ("Who directed Beowulf?", "Robert Zemeckis, who also directed Back to the Future and Forrest "
     "Gump in the 1980s and 1990s"),  # more than a bare answer
    ("Who directed Beowulf?", "Who knows?"),
    ("", "Lima"),
    ("What is the capital of Peru?", ""),
]


@pytest.mark.parametrize("question, answer, statement", PLACES)
def test_an_answer_reads_in_the_place_of_the_questions_gap(question, answer, statement):
    assert in_its_place(question, answer) == statement


@pytest.mark.parametrize("question, answer", NO_PLACE)
def test_a_question_without_a_gap_it_reads_gives_no_statement(question, answer):
    assert in_its_place(question, answer) is None


def judged(answer, question, *sources):
    return LocalJudge().judge(answer, [Evidence(s, 1.0) for s in sources], question)


@pytest.mark.parametrize("question, answer, source", [
    ("Who directed Beowulf?", "Robert Zemeckis", "Beowulf was directed by Robert Zemeckis."),
    ("Beowulf was directed by whom?", "Robert Zemeckis.",
     "Beowulf was directed by Robert Zemeckis and written by Neil Gaiman."),
    ("What is the capital of Peru?", "Lima", "Lima, a city of ten million, is the capital of Peru."),
    ("What year did Mozart die?", "1791.", "Mozart, the Austrian composer, died in 1791."),
    ("Where was Marie Curie born?", "In Warsaw.", "In 1867, Marie Curie was born in Warsaw."),
    ("When did the hall open?", "1980", "The hall opened in 1980."),
    ("How many people did Acme hire?", "300", "Acme hired 300 people in 2020."),
])
def test_an_answer_one_statement_holds_in_the_questions_place_is_proven(question, answer,
                                                                         source):
    verdict = judged(answer, question, source)
    assert verdict.label == SUPPORTED and verdict.proven, verdict.reason
    assert verdict.reason.startswith("in the question's place it says '"), verdict.reason


@pytest.mark.parametrize("question, answer, source", [
    # the source names it, in another place than the gap's
    ("Beowulf was directed by whom?", "Neil Gaiman",
     "Beowulf was directed by Robert Zemeckis and written by Neil Gaiman."),
    ("Who directed Beowulf?", "Neil Gaiman",
     "Neil Gaiman directed a short film. Beowulf was directed by Robert Zemeckis."),
    ("Who did Ann marry?", "Carl", "Ann married Ben. Carl married Dana."),
    ("How many people did Acme hire?", "300", "Acme fired 300 people."),
    ("Who won the 2010 final?", "Spain", "Spain won the 2014 final."),
    ("What is the capital of Peru?", "Cusco", "Cusco was the capital of the Inca Empire."),
    # the one done to read as the doer
    ("Who did Ann marry?", "Ben", "Ben's sister married Ann."),
    # the source does not assert it
    ("Who founded Acme?", "Ann Lee", "Acme was not founded by Ann Lee."),
    ("Who founded Acme?", "Ann Lee", "Ann Lee may have founded Acme."),
    ("Who founded Acme?", "Ann Lee", "Was Acme founded by Ann Lee?"),
    ("Who founded Acme?", "Ann Lee", "Critics claim that Acme was founded by Ann Lee."),
    # a comparison one statement does not make
    ("Who is older, Ann or Ben?", "Ben", "Ann is older than Ben."),
    # a name cut short names another
    ("Who founded Acme?", "Ann Lee", "Ann Lee founded Acme Labs."),
    ("Which country tested a missile in 2017?", "Korea",
     "North Korea tested a missile in 2017."),
    # a word before the noun, or after the name, that makes it another thing
    ("What is the capital of France?", "Lyon", "The gastronomic capital of France is Lyon."),
    ("Who is the tallest player?", "Tom", "The second tallest player is Tom."),
    ("Who directed the film?", "Sofia Coppola", "The film was directed by Sofia Coppola's cousin."),
    ("Beowulf was directed by whom?", "Neil Gaiman",
     "Beowulf was directed by Neil Gaiman lookalike Robert Zemeckis."),
    ("Who won the World Cup?", "The Netherlands", "Spain beat the Netherlands to win the World Cup."),
    ("Who founded Microsoft?", "Bill Allen", "Bill Gates and Paul Allen founded Microsoft."),
    # a pronoun of the source read for the subject before it, or a quotation, proves nothing
    ("Who directed Beowulf?", "Jane Campion", "Jane Campion admired Robert Zemeckis. He directed "
     "Beowulf."),
    ("What is the capital of Chile?", "Lima", 'He shouted, "The capital of Chile is Lima!"'),
    ("What is the capital of Chile?", "Lima", "Lima is the capital of Chile, says a blog."),
    # an answer of another kind than the question asks for
    ("When was Marie Curie born?", "Warsaw", "Marie Curie was born in Warsaw in 1867."),
    ("Where did Mozart die?", "1791", "Mozart died in 1791 in Vienna."),
    ("In which year did the Berlin Wall fall?", "November", "The Berlin Wall fell in November 1989."),
    ("On which day does the shop open?", "9 am", "The shop opens at 9 am on Monday."),
    # a closing phrase that narrows it, or an aside that takes it back
    ("What does the drug cure?", "Cancer", "The drug cures cancer in mice."),
    ("Who won the 2016 final?", "Hartley", "Hartley won the 2016 final in the simulation."),
    ("Who resigned in March?", "The mayor", "The mayor (allegedly) resigned in March."),
    ("Who directed Ashen Sky?", "Carl Berg", "Ashen Sky was to be directed by Carl Berg."),
    # a passage that frames it: a heading, a quoted block, a lead-in, a sentence that denies it
    ("Who resigned in March?", "The mayor", "## Rumours\n- The mayor resigned in March."),
    ("Who resigned in March?", "The mayor", "A reader wrote:\n> The mayor resigned in March."),
    ("Who resigned in March?", "The mayor", "The mayor resigned in March. (This is false.)"),
    ("Who resigned in March?", "The mayor", "~~The mayor resigned in March.~~ (retracted)"),
])
def test_an_answer_the_source_names_elsewhere_is_not_proven(question, answer, source):
    verdict = judged(answer, question, source)
    assert not verdict.proven, verdict.reason


@pytest.mark.parametrize("claim, source, whole", [
    ("Ann Lee founded Acme.", "Ann Lee founded Acme Labs.", "Acme Labs"),
    ("Korea tested a missile in 2017.", "North Korea tested a missile in 2017.", "North Korea"),
])
def test_a_name_cut_short_is_another_name_word_for_word_or_aligned(claim, source, whole):
    found = rules.check(claim, [Evidence(source, 1.0)])
    assert not found.supported and whole in found.reason, found.reason
    assert rules.check(claim, [Evidence(claim, 1.0)]).kind == "verbatim"


def test_without_a_question_a_bare_answer_is_only_named():
    verdict = judged("Robert Zemeckis", None, "Beowulf was directed by Robert Zemeckis.")
    assert verdict.label == SUPPORTED and not verdict.proven


@pytest.mark.parametrize("source", [
    "The race took 30:00 minutes.", "observed_at: 2024-05-01T14:30:00Z"])
def test_a_time_that_is_no_time_of_day_is_read_as_a_word(source):
    # "30:00" is no time of day: read as it is written, not as a number that fails to parse
    found = rules.check("The race took 30:00 minutes.", [Evidence(source, 1.0)])
    assert found.supported is (source.startswith("The race"))
    assert rules.proves("The race took 30:00 minutes.", [Evidence(source, 1.0)]) == (
        0 if found.supported else None)


@pytest.mark.parametrize("claim, source", [
    ("The tower opened in 1889.", "The Eiffel Tower opened in 1889."),  # a description
    ("Hanna Berg discovered the enzyme.", "Professor Hanna Berg discovered the enzyme."),
    ("Joe Biden signed the bill.", "President Joe Biden signed the bill."),
])
def test_a_description_or_a_name_without_its_title_is_no_name_cut_short(claim, source):
    assert rules.check(claim, [Evidence(source, 1.0)]).supported
