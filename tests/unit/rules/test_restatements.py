"""Restatements the rules can prove: each kind with the true sentences it lets pass and, next
to them, the traps that share its words and must not pass."""

import pytest

from provenance_guard import LocalJudge
from provenance_guard.types import CONTRADICTED, SUPPORTED, Evidence


def verdict(claim, source):
    return LocalJudge().judge(claim, [Evidence(source, 0.7)])


KINDS = {
    "a verb of place": (
        "The museum is in the old town. The bakery is on the corner.",
        ["The museum lies in the old town.", "The bakery sits on the corner.",
         "The museum is located in the old town.", "The museum stands in the old town."],
        ["The museum lies in the new town.", "The bakery sits behind the corner.",
         "The museum does not lie in the old town.", "The bakery lies on the square."],
    ),
    "a noun said again, the claim held to the stretch that says it": (
        "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris.",
        ["The tower is on the Champ de Mars in Paris.", "The tower is on the Champ de Mars."],
        ["The tower is on the Champ de Mars in Lyon.", "The tower is not on the Champ de Mars.",
         "The tower is on the Champ de Mars in Paris in 1889.",
         "The Eiffel Tower is a steel tower on the Champ de Mars."],
    ),
    "the passive with its agent, after what the thing is said to be": (
        "Brightwell Ltd is a software company founded by Ann Lee. Nestwise is a company "
        "acquired by Google in 2014.",
        ["Ann Lee founded Brightwell Ltd.", "Brightwell Ltd was founded by Ann Lee.",
         "Brightwell Ltd is a software company.", "Google acquired Nestwise in 2014.",
         "Nestwise was acquired by Google in 2014."],
        ["Brightwell Ltd founded Ann Lee.", "Ann Lee founded a software company.",
         "Google acquired Nestwise in 2015.", "Nestwise acquired Google in 2014.",
         "Brightwell Ltd was founded by Google."],
    ),
    "a month, stated by a date in it": (
        "Order 5521 shipped on 3 May 2024 from the Leeds warehouse. Prices may rise in June.",
        ["Order 5521 shipped in May.", "Order 5521 shipped in May 2024.",
         "Order 5521 shipped on May 3."],
        ["Order 5521 shipped in June.", "Order 5521 shipped in May 2023.",
         "Order 5522 shipped in May.", "Order 5521 did not ship in May.",
         "Prices rise in June.", "Prices rise in May."],
    ),
    "an event that took place, said as one that was": (
        "The launch took place on 5 March 2024 in Houston.",
        ["The launch was on March 5, 2024.", "The launch was in Houston.",
         "The launch was on 5 March 2024 in Houston."],
        ["The launch was on March 6, 2024.", "The launch was not on March 5, 2024.",
         "The launch was in Dallas.", "The landing was on March 5, 2024."],
    ),
    "a title before a name, left out": (
        "The bridge was designed by the engineer Anna Berg in 1931.",
        ["The bridge was designed by Anna Berg in 1931.", "Anna Berg designed the bridge in 1931."],
        ["The bridge was designed by the architect Anna Berg in 1931.",
         "The bridge was designed by Anna Berg in 1932.", "Anna Berg built the bridge in 1931.",
         "The bridge was designed by Anna Lind in 1931."],
    ),
    "an event that a date ends, read as the date": (
        "The hall was the largest in the city until the stadium was finished in 1962.",
        ["The hall was the largest in the city until 1962."],
        ["The hall was the largest in the city until 1963.",
         "The hall was the largest in the city after 1962.",
         "The hall was the smallest in the city until 1962.",
         "The hall was the largest in the country until 1962.",
         "The hall is the largest in the city."],  # the bound left out (tense is not read)
    ),
    "a passive with its agent": (
        "The mill was bought and restored by the family of the miller Piet Vos in 1990.",
        ["The family of Piet Vos restored the mill in 1990.",
         "The mill was restored by Piet Vos's family in 1990."],
        ["Piet Vos restored the mill in 1990.", "The mill restored the family of Piet Vos in 1990.",
         "The mill was sold by the family of Piet Vos in 1990.",
         "The family of Piet Vos restored the mill in 1980."],
    ),
    "a range": (
        "The canal was dug between 1820 and 1825.",
        ["The canal was dug from 1820 to 1825.", "The canal was dug in 1820-1825.",
         "The canal was dug between 1820 and 1825."],
        ["The canal was dug in 1822.", "The canal was dug between 1820 and 1826.",
         "The canal was dug from 1825 to 1830.", "The canal was dug in 1820."],
    ),
    "a fronted date or adverb": (
        "The firm moved its offices to Leeds in 2019. Updates are installed automatically "
        "overnight.",
        ["In 2019 the firm moved its offices to Leeds.",
         "In 2019, the firm moved its offices to Leeds.",
         "Overnight, updates are installed automatically."],
        ["In 2018 the firm moved its offices to Leeds.", "In 2019 the firm moved its offices to York.",
         "Overnight, updates are not installed automatically.",
         "In 2019 Leeds moved its offices to the firm."],
    ),
    "a condition, said first or last": (
        "The pump stops when the lid is open. The match is cancelled if it rains.",
        ["When the lid is open, the pump stops.", "If it rains, the match is cancelled.",
         "The pump stops when the lid is open."],
        ["The pump stops.", "The match is cancelled.",  # the condition dropped
         "When the lid is closed, the pump stops.", "If it snows, the match is cancelled.",
         "When it rains, the match is cancelled.",  # "when" is not "if"
         "The pump starts when the lid is open."],
    ),
    "a comparison from the other side": (
        "The annual plan is cheaper than the monthly plan. The steel frame is heavier than the "
        "aluminium frame.",
        ["The monthly plan is more expensive than the annual plan.",
         "The aluminium frame is lighter than the steel frame.",
         "The monthly plan is less cheap than the annual plan."],
        ["The monthly plan is cheaper than the annual plan.",
         "The annual plan is more expensive than the monthly plan.",
         "The aluminium frame is heavier than the steel frame.", "The annual plan is cheap.",
         "The steel frame is heavy."],
    ),
    "a passive with a negation or a modal": (
        "The warranty does not cover damage caused by floods. The tenant must give notice in "
        "writing. Every node has 64 GB of memory.",
        ["Damage caused by floods is not covered by the warranty.",
         "Notice must be given by the tenant in writing.", "Each node has 64 GB of memory."],
        ["Damage caused by floods is covered by the warranty.",
         "Notice may be given by the tenant in writing.",
         "Notice must be given by the landlord in writing.",
         "The tenant must be given notice in writing.",  # the tenant receives it: roles swap
         "Most nodes have 64 GB of memory."],
    ),
    "an identity said the other way round": (
        "The capital of Australia is Canberra. Jane Doe is the chief executive of Acme. Cats are "
        "mammals.",
        ["Canberra is the capital of Australia.", "The chief executive of Acme is Jane Doe.",
         "The capital of Australia is Canberra."],
        ["Australia is the capital of Canberra.", "Acme is the chief executive of Jane Doe.",
         "Mammals are cats.",  # "are": a generic, not an identity
         "The capital of Australia is Sydney.", "Canberra is not the capital of Australia.",
         "Canberra may be the capital of Australia.",
         "Canberra is the largest city of Australia.", "The chief executive of Jane Doe is Acme."],
    ),
    "a narrower subject under every, each or all": (
        "The cluster has 16 worker nodes and two spare nodes. Each node has 64 GB of memory. "
        "All staff receive a badge, new staff in their first week. Former staff keep their "
        "pension. Every senior nurse works nights.",
        ["Every worker node has 64 GB of memory.", "All new staff receive a badge.",
         "Each spare node has 64 GB of memory."],
        ["Some worker nodes have 64 GB of memory.",  # not a universal
         "Every worker node has 64 GB of fast memory.",  # narrower what it has: not stated
         "Every worker node has 32 GB of memory.",
         "All new staff receive two badges.",
         "All former staff receive a badge.",  # former staff are no staff
         "Each backup node has 64 GB of memory.",  # a kind the source does not speak of
         "Every nurse works nights.",  # broader than the source's senior nurses
         "Not every worker node has 64 GB of memory."],
    ),
    "an 'all' left out": (
        "Smoking is prohibited in all common areas. Not all rooms have a balcony. All guests "
        "must show a ticket.",
        ["Smoking is prohibited in the common areas.", "Smoking is prohibited in common areas.",
         "Guests must show a ticket."],
        ["The rooms have a balcony.", "Rooms have a balcony.",  # "not all" says nothing of them
         "Smoking is prohibited in most common areas.", "Smoking is allowed in the common areas.",
         "Smoking is prohibited in the areas.",  # "common" left out: broader
         "Guests may show a ticket.", "Smoking is prohibited in the common rooms."],
    ),
    "a synonym (one first sense in Open English WordNet)": (
        "The bridge was constructed in 1932. The film won an award. A big crowd watched. "
        "The doctor found an error. The dog chased a green ball.",
        ["The bridge was built in 1932.", "The movie won an award.", "A large crowd watched.",
         "The physician found a mistake."],
        ["The bridge was made in 1932.",  # "make" first means something else
         "The animal chased a green ball.",  # a hypernym
         "The dog chased a brown ball.",  # a co-hyponym
         "A small crowd watched.",  # an antonym
         "The bridge was destroyed in 1932.", "The documentary won an award."],
    ),
    "a passive that leaves its agent out": (
        "The board fired Smith in 2019. Jones hired two assistants. The bank pays interest "
        "monthly. The museum opened in 1889. The driver hit a cyclist. The company was sued in "
        "2020. The landlord must give the tenant notice.",
        ["Smith was fired in 2019.", "Interest is paid monthly.", "Smith was fired by the board.",
         "The museum was opened in 1889.",  # "open" reads alike in both voices
         "The tenant must be given notice."],
        ["The board was fired in 2019.", "Jones was hired.",  # the doer made the one done to
         "The driver was hit.", "The company sued in 2020.",  # and the other way round
         "Interest is paid yearly.", "The bank is paid monthly.", "Smith was hired in 2019.",
         "The tenant must give notice.", "The museum was opened in 1890."],
    ),
    "a thing that has its part somewhere": (
        "The serial number label is on the right side of the outdoor unit. The fuse is in the "
        "base of the plug.",
        ["The outdoor unit has its serial number label on the right side.",
         "The plug has its fuse in the base."],
        ["The outdoor unit has its serial number label on the left side.",
         "The indoor unit has its serial number label on the right side.",
         "The outdoor unit has its power switch on the right side.",
         "The outdoor unit does not have its serial number label on the right side.",
         "The base has its fuse in the plug."],  # the roles swapped
    ),
    "a possessive read as 'of'": (
        "Acme's chief executive is Jane Doe. The population of Lyon grew.",
        ["The chief executive of Acme is Jane Doe.", "Lyon's population grew."],
        ["Jane Doe's chief executive is Acme.", "Lyon grew.", "Acme is Jane Doe.",
         "The chief executive of Jane Doe is Acme."],
    ),
}


@pytest.mark.parametrize("kind", KINDS)
def test_a_restatement_passes_and_its_traps_do_not(kind):
    source, true, traps = KINDS[kind]
    for claim in true:
        found = verdict(claim, source)
        assert found.label == SUPPORTED, (kind, claim, found)
    for claim in traps:
        found = verdict(claim, source)
        assert found.label != SUPPORTED, (kind, claim, found)


@pytest.mark.parametrize("claim,source", [
    ("The king won the race.", "The son of the king won the race."),
    ("Paris grew.", "Paris's population grew."),
    ("Gustave Eiffel built it.", "The company of the engineer Gustave Eiffel built it."),
    ("The king died in 1500.", "The son of the king died in 1500."),
    ("Jones won the award.", "A film about Jones won the award."),
    ("Jones won the award.", "The film directed by Jones won the award."),
    ("Paris is the capital.", "The city near Paris is the capital."),
    ("Acme went bankrupt.", "The company that bought Acme went bankrupt."),  # a relative
    ("Smith died.", "The man who shot Smith died."),
    # a verb of four letters ("sued", "owed") is a verb, and the check reads it in either voice
    ("The singer sued the label.", "The ex-husband of the singer sued the label."),
    ("The label was sued by the singer.", "The manager of the singer sued the label."),
    ("The tenant owed the rent.", "The son of the tenant owed the rent."),
    # a count of the group: three of them, not the group
    ("The bridges were closed.", "Three of the five bridges were closed."),
])
def test_what_something_else_is_of_is_not_the_thing_itself(claim, source):
    found = verdict(claim, source)
    assert found.label != SUPPORTED and "which the sentence leaves out" in found.reason, found


def test_what_a_source_says_of_the_thing_itself_still_passes():
    assert verdict("The museum opened in 1889.",
                   "The survey found that the museum opened in 1889.").label == SUPPORTED
    assert verdict("Smith moved to Paris.",
                   "After the war in 1945, Smith moved to Paris.").label == SUPPORTED
    named = LocalJudge().judge("Academy of Motion Picture Arts and Sciences", [Evidence(
        "The Oscars are presented by the Academy of Motion Picture Arts and Sciences.", 0.7)],
        "Who presents the Oscars?")
    assert named.label == SUPPORTED, named  # a name is named, whatever it is the object of


def test_a_bare_number_is_named_by_a_range_a_statement_is_not():
    source = "Anna Berg (1892-1961) designed the bridge. She was born on 14 November 1892 - 1 day early."
    judge = LocalJudge()
    assert judge.judge("1892", [Evidence(source, 0.7)], "When was she born?").label == SUPPORTED
    assert judge.judge("1893", [Evidence(source, 0.7)], "When was she born?").label != SUPPORTED
    assert verdict("Anna Berg designed the bridge in 1892.", source).label != SUPPORTED
    # a falling pair is two numbers, not a range: "1892 - 1 day" keeps the year and the count
    assert verdict("She was born on 14 November 1892.", source).label == SUPPORTED
    # a decade is a range of its own: named by itself, never a year inside it
    decade = [Evidence("The band formed in the 1990s.", 0.7)]
    assert judge.judge("1990s", decade, "When did it form?").label == SUPPORTED
    assert judge.judge("1980s", decade, "When did it form?").label != SUPPORTED
    assert judge.judge("The band formed in 1990.", decade).label != SUPPORTED


def test_a_range_that_changed_is_a_contradiction():
    found = verdict("The canal was dug between 1820 and 1826.", "The canal was dug from 1820 to 1825.")
    assert found.label == CONTRADICTED and "'from 1820 to 1825'" in found.reason, found


def test_the_readme_example_passes_its_true_paraphrases():
    history = ("The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, "
               "France. It was designed and built by the company of the engineer Gustave Eiffel "
               "between 1887 and 1889. When it opened, the tower was 300 metres tall, and it "
               "remained the tallest man-made structure in the world until the Chrysler "
               "Building in New York was finished in 1930.")
    for claim in ("The Eiffel Tower was built by Gustave Eiffel's company between 1887 and 1889.",
                  "It was the tallest man-made structure in the world until 1930."):
        assert verdict(claim, history).label == SUPPORTED, claim
    for claim in ("The Eiffel Tower was built by Gustave Eiffel's company between 1887 and 1899.",
                  "It was the tallest man-made structure in the world until 1940."):
        assert verdict(claim, history).label == CONTRADICTED, claim


def test_synonyms_are_symmetric_and_never_an_opposite_or_a_marked_form():
    from provenance_guard.rules.word_lists import synonyms

    assert synonyms("construct", "build") and synonyms("build", "construct")
    assert not synonyms("~open", "~open") and not synonyms("build", "make")
    assert not synonyms("give/passive", "give")


@pytest.mark.parametrize("claim,source,label", [
    # one attribution in three orders
    ("According to police, the driver was not wearing a seatbelt.",
     "Police said the driver was not wearing a seatbelt.", SUPPORTED),
    ("The driver was not wearing a seatbelt, according to police.",
     "Police said the driver was not wearing a seatbelt.", SUPPORTED),
    ("The WHO says measles cases rose sharply in 2023.",
     "According to the WHO, measles cases rose sharply in 2023.", SUPPORTED),
    # traps: the attribution left out, another speaker, a denial
    ("The driver was not wearing a seatbelt.",
     "According to police, the driver was not wearing a seatbelt.", "unsupported"),
    ("According to his lawyer, the driver was wearing a seatbelt.",
     "Police said the driver was wearing a seatbelt.", "unsupported"),
    ("According to police, the driver was wearing a seatbelt.",
     "Police denied that the driver was wearing a seatbelt.", "unsupported"),
])
def test_an_attribution_is_one_whichever_side_it_is_said_on(claim, source, label):
    assert verdict(claim, source).label == label


@pytest.mark.parametrize("claim,source,label", [
    ("The old train is slower than the new one.", "The new train is faster than the old one.",
     SUPPORTED),
    ("The old train is faster than the new one.", "The new train is faster than the old one.",
     CONTRADICTED),
    ("The old bus is slower than the new one.", "The new train is faster than the old one.",
     "unsupported"),
])
def test_a_comparison_with_one_for_its_noun_reads_from_either_side(claim, source, label):
    """"the old one" stands for "the old train": the comparison turned round meets it."""
    assert verdict(claim, source).label == label


@pytest.mark.parametrize("claim,source,label", [
    ("Tickets cost from €20 to €45.", "Tickets cost between €20 and €45.", SUPPORTED),
    ("Tickets cost €20-€45.", "Tickets cost between €20 and €45.", SUPPORTED),
    ("The course lasts between ten and twelve weeks.", "The course lasts 10 to 12 weeks.",
     SUPPORTED),
    ("The festival runs from 10 to 12 June.", "The festival runs 10-12 June.", SUPPORTED),
    # traps: another currency, another end
    ("Tickets cost from $20 to $45.", "Tickets cost between €20 and €45.", CONTRADICTED),
    ("Tickets cost from €20 to €50.", "Tickets cost between €20 and €45.", CONTRADICTED),
    # a change is no range: where it began is not by how much
    ("The tax rate rose by 20 percent.", "The tax rate rose from 20 percent to 25 percent.",
     "unsupported"),
])
def test_a_range_of_money_or_a_measure_is_one_range_however_written(claim, source, label):
    assert verdict(claim, source).label == label


@pytest.mark.parametrize("claim,source,label", [
    ("The drug might help slow memory loss.", "The drug may help slow memory loss.", SUPPORTED),
    ("The skull is likely about 300,000 years old.",
     "The skull is probably around 300,000 years old.", SUPPORTED),
    # traps: the hedge left out, another modal
    ("The skull is about 300,000 years old.", "The skull is probably around 300,000 years old.",
     "unsupported"),
    ("The drug must help slow memory loss.", "The drug may help slow memory loss.",
     "unsupported"),
])
def test_a_hedge_kept_in_other_words_is_the_same_hedge(claim, source, label):
    assert verdict(claim, source).label == label


@pytest.mark.parametrize("claim,source,label", [
    ("The salad contains feta cheese, cucumbers and tomatoes.",
     "The salad contains tomatoes, cucumbers and feta cheese.", SUPPORTED),
    ("Germany signed the agreement.", "France, Germany and Italy signed the agreement.",
     SUPPORTED),
    ("The salad contains goat cheese, cucumbers and tomatoes.",
     "The salad contains tomatoes, cucumbers and feta cheese.", "unsupported"),
])
def test_a_list_is_sorted_by_its_items_heads_and_ends_before_the_verb(claim, source, label):
    assert verdict(claim, source).label == label


@pytest.mark.parametrize("claim,source", [
    # an end of a range is no value of its own
    ("Tickets cost $20 million.", "Tickets cost from $20 million to $45 million."),
    ("The walk is 20 km.", "The walk is from 20 km to 25 km."),
    ("The tax rate is 25 percent.", "The tax rate is from 20 percent to 25 percent."),
    # a weekday before a time, not a date, is not left out
    ("The office is open 9 to 5.", "The office is open Monday 9 to 5."),
    # a range's ends are read exactly
    ("The grant is between 1,234,561 and 2,000,000 euros.",
     "The grant is between 1,234,558 and 2,000,000 euros."),
])
def test_what_looks_like_a_restatement_but_changes_a_value_is_not_stated(claim, source):
    assert verdict(claim, source).label != SUPPORTED


@pytest.mark.parametrize("text,roles", [
    ("aged 8-12", ["range", "range"]),
    ("aged 8 to 12", ["range", "range"]),
    ("cost between €20 and €45", ["range", "range"]),
    ("fell from 25% to 20%", ["from", "to"]),  # a change: where it began and ended
    ("on 2026-03-09", ["", ""]),  # a date's parts are no range
    ("at 2026-03-09T14:30:00Z", ["", ""]),  # the clock's digits are no numbers of their own
])
def test_the_ends_of_a_range_and_nothing_else_have_the_role_of_one(text, roles):
    from provenance_guard.rules import read_facts

    assert [q.role for q in read_facts(text).quantities] == roles


@pytest.mark.parametrize("claim,source", [
    ("Y founded X.", "X is a subsidiary of a company founded by Y."),
    ("Y founded X.", "X is a so-called company founded by Y."),
    ("Y killed X.", "X is the daughter of a man killed by Y."),
    ("Google acquired Nestwise.", "Nestwise is a company formerly owned by Google."),
])
def test_a_passive_after_another_noun_or_a_word_that_changes_it_is_not_turned(claim, source):
    assert verdict(claim, source).label != SUPPORTED
