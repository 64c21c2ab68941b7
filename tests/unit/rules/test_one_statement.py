"""Support is proven by one statement that holds the whole claim: two clauses joined by "and"
are two statements, and a statement said of someone else is not said of "you"."""

import pytest

from provenance_guard.rules import check
from provenance_guard.types import Evidence


@pytest.mark.parametrize("claim,source", [
    ("Rome is the capital of France.",
     "Paris is the capital of France and Rome is the capital of Italy."),
    ("Lyon won the cup in 2012.", "Lyon won the cup in 2011 and Nice won it in 2012."),
    ("Profits fell by 8% in 2019.", "Profits rose by 8% in 2019 and fell by 3% in 2020."),
    ("Sales grew by 3% in 2020.", "Sales grew by 8% in 2019 and shrank by 3% in 2020."),
])
def test_a_claim_made_of_two_coordinated_statements_is_not_supported(claim, source):
    assert not check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source", [
    ("Rome is the capital of Italy.",
     "Paris is the capital of France and Rome is the capital of Italy."),
    ("Profits fell by 3% in 2020.", "Profits rose by 8% in 2019 and fell by 3% in 2020."),
    ("Paris and Rome are capitals.", "Paris and Rome are capitals."),
])
def test_one_of_two_coordinated_statements_supports_what_it_says(claim, source):
    assert check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source,named", [
    ("You bought a car.", "My brother bought a car.", "My brother"),
    ("Your account was closed.", "Her account was closed.", "Her account"),
    ("She founded the firm in 1990.", "He founded the firm in 1990.", "He"),
])
def test_who_did_it_is_kept(claim, source, named):
    found = check(claim, [Evidence(source)])
    assert not found.supported and repr(named) in found.reason, found


def test_a_claim_to_you_of_what_a_source_says_of_everyone_is_supported():
    assert check("You can return items within 30 days.",
                 [Evidence("Customers can return items within 30 days.")]).supported


@pytest.mark.parametrize("claim,source", [
    ("You repaired the boiler.", "The landlord repaired the boiler."),
    ("We closed the clinic in May.", "The health board closed the clinic in May."),
    ("You paid the fee.", "Your neighbour paid the fee."),  # a user's turn, said back
])
def test_a_past_act_of_someone_named_is_not_one_of_you_or_us(claim, source):
    assert not check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source", [
    ("You receive a receipt.", "Customers receive a receipt."),  # said of everyone
    ("He moved to Paris.", "In 1998, Smith moved to Paris."),  # "he" stands for a name
])
def test_what_is_said_of_everyone_or_of_a_name_is_said_of_a_pronoun(claim, source):
    assert check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source", [
    ("Diamonds were sold at the fair.", "Fake diamonds were sold at the fair."),
    ("The museum bought a Rolex.", "The museum bought a counterfeit Rolex."),
    ("The council passed a law on noise.", "The council passed a draft law on noise."),
])
def test_a_word_that_makes_a_thing_another_is_never_left_out(claim, source):
    assert not check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source,supported", [
    ("The bakery closes at 18:00.", "The bakery opens at 07:00 and closes at 18:00.", True),
    ("The bakery closes at 6 pm.", "The bakery opens at 07:00 and closes at 18:00.", True),
    ("The meeting starts at 15:00.", "The meeting starts at 3 pm.", True),
    ("The bakery closes at 7 pm.", "The bakery opens at 07:00 and closes at 18:00.", False),
])
def test_a_time_of_day_is_one_value_in_any_notation(claim, source, supported):
    assert check(claim, [Evidence(source)]).supported is supported



@pytest.mark.parametrize("claim,source,kind", [
    ("The strike began on 6 May 2024.", "The strike began on Monday, 6 May 2024.", "aligned"),
    ("The strike began on 6 May 2024.", "The strike began on Monday 6 May 2024.", "aligned"),
    ("The strike began on 7 May 2024.", "The strike began on Monday, 6 May 2024.", "value"),
    ("The strike began on Monday.", "The strike began on Tuesday, 6 May 2024.", "name"),
])
def test_the_weekday_of_a_date_may_be_left_out_but_never_changed(claim, source, kind):
    assert check(claim, [Evidence(source)]).kind == kind


@pytest.mark.parametrize("claim,source,kind", [
    ("The patch was released on 5 November 2024.", "The patch was released on 2024-11-05.",
     "aligned"),
    ("The patch was released on November 5, 2024.", "The patch was released on 2024-11-05.",
     "aligned"),
    ("The patch was released on 2024-11-05.", "The patch was released on 5 November 2024.",
     "aligned"),
    ("The patch was released on 6 November 2024.", "The patch was released on 2024-11-05.",
     "value"),
    ("The patch was released in 2023.", "The patch was released on 2024-11-05.", "value"),
])
def test_an_iso_date_in_prose_is_one_date_not_three_numbers(claim, source, kind):
    assert check(claim, [Evidence(source)]).kind == kind


@pytest.mark.parametrize("claim,kind", [
    ("The reading was taken at 14:30.", "aligned"),
    ("The reading was taken at 2:30 pm.", "aligned"),
    ("The reading was taken on November 5, 2024.", "aligned"),
    ("The reading was taken at 15:30.", "value"),
    ("The reading was taken on November 6, 2024.", "value"),
])
@pytest.mark.parametrize("stamp", ["2024-11-05T14:30Z", "2024-11-05 14:30", "2024-11-05T14:30:00+00:00"])
def test_a_timestamp_in_prose_is_a_date_and_a_time_of_day(claim, kind, stamp):
    assert check(claim, [Evidence(f"The reading was taken at {stamp}.")]).kind == kind


@pytest.mark.parametrize("claim,source,kind", [
    # one moment, said in either order
    ("The reading was taken at 2:30 p.m. on November 5, 2024.",
     "The reading was taken at 2024-11-05T14:30Z.", "aligned"),
    ("The reading was taken at 2024-11-05T14:30.",
     "The reading was taken at 2:30 pm on 5 November 2024.", "aligned"),
    ("The reading was taken at 3:30 p.m. on November 5, 2024.",
     "The reading was taken at 2024-11-05T14:30Z.", "value"),
    # seconds: a claim may leave them out, never give others
    ("The alarm sounded at 7:45 am.", "The alarm sounded at 2024-06-01T07:45:30Z.", "aligned"),
    ("The alarm sounded at 07:45:30.", "The alarm sounded at 2024-06-01T07:45:30Z.", "aligned"),
    ("The alarm sounded at 07:45:50.", "The alarm sounded at 2024-06-01T07:45:30Z.", "value"),
    ("The alarm sounded at 07:45:00.", "The alarm sounded at 2024-06-01T07:45:10Z.", "value"),
    ("The alarm sounded at 07:45.", "The alarm sounded at 2024-06-01T07:45:00Z.", "aligned"),
    ("The reading was taken at 14:30 on 2024-11-05.",
     "The reading was taken at 2:30 pm on November 5, 2024.", "aligned"),
    # a time and a date in two clauses are no moment
    ("The match starts on May 2.", "The match starts at 15:00; on May 2 the final is played.",
     "unaligned"),
    ("The ferry departs at 9:00 on May 2.",
     "The ferry departs at 9:00 on May 1; at 17:00 on May 2.", "value"),
])
def test_a_moment_is_its_day_year_and_time_in_any_order(claim, source, kind):
    assert check(claim, [Evidence(source)]).kind == kind


@pytest.mark.parametrize("claim,source,supported", [
    ("The first floor was flooded.", "Only the first floor was flooded.", True),
    ("Five people came.", "Only five people came.", True),
    ("The second floor was flooded.", "Only the first floor was flooded.", False),
    ("Only the first floor was flooded.", "The first floor was flooded.", False),
    ("The valve opens.", "Only if the pressure is high does the valve open.", False),
])
def test_a_statement_an_opening_only_narrows_is_stated(claim, source, supported):
    """"Only X did it" says X did it; the claim may not add "only", nor drop a condition."""
    assert check(claim, [Evidence(source)]).supported is supported


def test_a_claim_and_its_evidence_are_decided_once():
    """The cascade, a first judge and the local judge ask the same question of a claim: the
    second asking reads nothing again (the findings are the same object)."""
    evidence = [Evidence("The hall opened in 1900 in the old town.")]
    first = check("The hall opened in 1900.", evidence)
    assert check("The hall opened in 1900.", list(evidence)) is first
    assert check("The hall opened in 1901.", evidence) is not first


@pytest.mark.parametrize("claim,passages,basis", [
    # word for word, aligned, a changed value, a sentence put as a question: the passage
    # that holds it decided, wherever it stands among the rest
    ("The bridge opened to traffic in 1932.",
     ["The tunnel opened in 1927.", "The bridge opened to traffic in 1932."], 1),
    ("The bridge opened in 1932.",
     ["Ferries ran until 1930.", "After years of work, the bridge opened in 1932."], 1),
    ("The bridge opened in 1935.",
     ["The tunnel opened in 1927.", "Ferries ran until 1930.", "The bridge opened in 1932."], 2),
    ("The bridge opened in 1932.",
     ["Ferries ran until 1930.", "Did the bridge open in 1932?"], 1),
])
def test_the_findings_name_the_passage_that_decided(claim, passages, basis):
    assert check(claim, [Evidence(p) for p in passages]).basis == basis


def test_a_claim_no_passage_states_names_none():
    assert check("The bridge is painted red.",
                 [Evidence("The tunnel opened in 1927."), Evidence("Ferries ran.")]).basis is None


@pytest.mark.parametrize("claim,source", [
    # what holds of a kind does not say who is one of it
    ("You are a student.", "Students pay half price."),
    ("We are a charity.", "Charities pay no business rates."),
    # a clause of its own after "and", with a pronoun for its subject
    ("You work in Leeds.", "Your partner works in Leeds and you work in York."),
    # a condition in an aside qualifies its clause
    ("The bridge will reopen in May.", "The bridge, if repairs finish on time, will reopen in May."),
    # a relative clause is said of the item it follows, not of the next in the list
    ("Pears ripen in June.",
     "Cherries, which ripen in June, and pears, which ripen in September, grow here."),
])
def test_what_one_statement_does_not_hold_is_not_supported(claim, source):
    assert not check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source", [
    ("You are a student.", "You are a student at Leeds."),
    ("You work in York.", "Your partner works in Leeds and you work in York."),
    # a list keeps its items in any order, though a noun of it reads as a verb ("saw")
    ("A drill, a saw and a ladder were left in the van.",
     "A ladder, a saw and a drill were left in the van."),
    # the passive and the active, an agent with "from" a place
    ("The mural was painted by students from Lisbon.", "Students from Lisbon painted the mural."),
])
def test_one_statement_that_holds_it_supports_it(claim, source):
    found = check(claim, [Evidence(source)])
    assert found.supported, found.reason


@pytest.mark.parametrize("claim,source", [
    ("The reservoir runs dry by August.",
     "In a worst-case scenario, the reservoir runs dry by August."),
    ("The mayor resigns.", "In the film, the mayor resigns."),
    ("The bridge was never finished.", "As far as the archive can tell, the bridge was never finished."),
])
def test_a_sentence_set_outside_the_world_or_hedged_by_anyone_supports_nothing(claim, source):
    assert not check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source", [
    ("Budgets rose in the film industry.", "In the film industry, budgets rose."),
    ("In the story of the town, the mill closed in 1920.",
     "In the story of the town, the mill closed in 1920."),
])
def test_a_setting_that_only_names_a_field_or_a_topic_still_states(claim, source):
    assert check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source", [
    # what is done is not that it was
    ("The pool was closed on Mondays.", "The pool is closed on Mondays."),
    # lists paired in order: which is whose, the rules do not read (fail closed, no conflict)
    ("The red line runs every 8 minutes.",
     "The red and grey lines run every 8 and 12 minutes respectively."),
    # a sign touching a number, and a unit that is not the same
    ("The account balance is £120.", "The account balance is -£120."),
    ("Turnout rose by 4%.", "Turnout rose by 4 percentage points."),
    # a possessive's owner is the owner's, not yours
    ("Your cat scratched the sofa.", "Your sister's cat scratched the sofa."),
    # a framing verb with no "that"
    ("The leak began in the attic.", "The plumber suspects the leak began in the attic."),
])
def test_a_claim_is_held_to_the_statement_as_it_stands(claim, source):
    found = check(claim, [Evidence(source)])
    assert not found.supported and not found.contradiction or "'-£120'" in found.reason, found


@pytest.mark.parametrize("claim,source,supported", [
    # what holds of everyone of a kind holds of "you", never of "we"; what one does, of no one
    ("You cover the delivery fee.", "Buyers cover the delivery fee.", True),
    ("We cover the delivery fee.", "Buyers cover the delivery fee.", False),
    ("You cover the delivery fee.", "The shop covers the delivery fee.", False),
    ("You cover the delivery fee.", "Acme covers the delivery fee.", False),
])
def test_who_does_it_now_is_kept_too(claim, source, supported):
    assert check(claim, [Evidence(source)]).supported is supported


@pytest.mark.parametrize("claim,source", [
    # an attribution said after the statement ("S, X said") is "X said S"
    ("According to the council, the pool reopens in June.",
     "The pool reopens in June, the council said."),
    ("The council said the pool reopens in June.", "The pool reopens in June, said the council."),
    # where a thing is, and where a thing has it
    ("The fuse is on the back of the amplifier.", "The amplifier has its fuse on the back."),
])
def test_one_statement_said_another_way_supports_it(claim, source):
    found = check(claim, [Evidence(source)])
    assert found.supported, found.reason


def test_a_code_is_a_name_whatever_its_key_calls_it():
    from provenance_guard.text import records

    record = {"claim_id": "CL-77", "status": "approved"}
    evidence = [Evidence(records.shown(r.fields), fields=r.fields)
                for r in records.records(record)]
    assert check("Claim CL-77 was approved.", evidence).supported
    assert not check("Claim CL-78 was approved.", evidence).supported


@pytest.mark.parametrize("claim,source,supported", [
    # a sarcastic opening before a clause of its own grounds nothing
    ("The printer works again.", "Oh sure, the printer works again, as usual.", False),
    # a noun phrase between commas is an apposition, an adjective in -ed or not
    ("Ines Ruiz opened the bakery in 1998.",
     "Ines Ruiz, a retired teacher, opened the bakery in 1998.", True),
])
def test_an_opening_is_read_for_what_it_is(claim, source, supported):
    assert check(claim, [Evidence(source)]).supported is supported


@pytest.mark.parametrize("claim,source", [
    # none of these is what the rule it resembles holds back
    ("You are responsible for the return postage.",
     "Customers are responsible for the return postage."),  # the claim is no kind's member
    ("Buses run every 8 minutes.",
     "Buses run every 8 minutes, and vans and taxis leave from bays 2 and 3 respectively."),
    ("The mill reopened in May.", "The mill, which closed when the river flooded, reopened in May."),
    ("A woman was detained on Monday.", "The suspect, a 40-year-old woman, was detained on Monday."),
    ("The head baker opened the shop in 2011.", "The head baker and I opened the shop in 2011."),
    ("Portugal beat Spain 3-1.", "In the final game, Portugal beat Spain 3-1."),
    ("Refunds take 5 business days.", "Refunds take 5 business days."),
    ("Ibuprofen is sold over the counter.",
     "Ibuprofen, a drug-class analgesic, is sold over the counter."),  # "class" is no verb
])
def test_what_only_looks_like_a_frame_still_states(claim, source):
    found = check(claim, [Evidence(source)])
    assert found.supported, found.reason


@pytest.mark.parametrize("claim,source", [
    ("Refunds take 5 calendar days.", "Refunds take 5 business days."),
    ("Refunds take 5 days.", "Refunds take 5 business days."),
    ("The guarantee lasts 3 extra years.", "The guarantee lasts 3 years."),
])
def test_a_word_between_a_number_and_its_unit_is_a_word_of_the_claim(claim, source):
    assert not check(claim, [Evidence(source)]).supported


def test_a_conflict_names_the_passage_with_the_other_value():
    found = check("The dam opened in 1961.", [Evidence("The dam opened with a ceremony."),
                                             Evidence("The dam opened in 1959.")])
    assert found.contradiction and found.basis == 1


@pytest.mark.parametrize("claim,source", [
    ("The Eiffel Tower is on the Champ de Mars in Paris.",
     "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France."),
    ("Boston College is located in Chestnut Hill, Massachusetts.",
     "Boston College (BC) is a private Jesuit research university located in Chestnut Hill, "
     "Massachusetts, United States."),
    ("Fu Manchu formed in 1985.",
     "Fu Manchu is an American, Southern California-based stoner rock band that formed in 1985."),
    ("The drug is approved in Europe.", "The drug is a treatment approved in Europe."),
    ("Acme sued Brill.", "Acme is a company that sued Brill."),
    ("Acme was sued by Brill.", "Acme is a company that was sued by Brill."),
    ("The hall is in Leeds.", "The hall is the largest concert venue in Leeds."),
    ("Lyon lies on the Rhône.", "Lyon is a French city that lies on the Rhône."),
    ("Marie Duval was born in Paris.", "Marie Duval is a painter born in Paris in 1900."),
    ("The Aurelia is in Rome.", "The Aurelia is a 3-star hotel in Rome."),
    ("Nantry is near Paris.", "Nantry is a suburb near Paris."),
    ("The Cardo Café is opposite the station.", "The Cardo Café is a small bar opposite the "
                                                "station."),
])
def test_what_a_thing_is_may_be_left_out_before_what_is_said_of_it(claim, source):
    assert check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source", [
    ("Tom is Anna.", "Tom is the son of Anna."),
    ("Nantry is Paris.", "Nantry is a suburb near Paris."),
    ("Nantry is near Paris.", "Nantry is a suburb of a city near Paris."),
    ("Tom killed the guard.", "Tom is the brother of a man who killed the guard."),
    ("Acme is based in Ohio.", "Acme is a subsidiary of a company based in Ohio."),
    ("Acme owned Brill.", "Acme is a subsidiary owned by Brill."),
    ("Acme is in Paris.", "Acme is a company with offices in Paris."),
    ("Acme is near Paris.", "Acme is a suburb in Paris."),
    ("Anna is in Paris.", "Anna is a painter born in Paris."),
    ("The town is in Maine.", "The town is a fictional town in Maine."),
    ("The stadium is located in Leeds.", "The stadium is a proposed arena located in Leeds."),
    ("The stadium is in Leeds.", "The stadium is a planned arena in Leeds."),
    ("The band formed in 1985.", "The band is a group that reportedly formed in 1985."),
    ("The band released a single.", "The band is a group that never released a single."),
    ("The drug is approved in Europe.", "The drug is a treatment not approved in Europe."),
    ("The band split in 1990.", "The band is a group whose singer split in 1990."),
    ("The band formed in 1985.", "The band is a group that will form in 1985."),
    # the words before a noun alone are not left out: what they make of it is not read
    ("Pluto is a planet.", "Pluto is a dwarf planet."),
    ("The drug is a treatment.", "The drug is a possible treatment."),
    ("Mark Lester is a film director.", "Mark Lester is an American film director."),
    # what makes the thing another, or a time, or belongs to another phrase
    ("The pill reverses ageing.", "The pill is a so-called cure that reverses ageing."),
    ("The sword cuts stone.", "The sword is a legendary blade that cuts stone."),
    ("The port connects Asia and Europe.", "The port is becoming a hub that connects Asia and "
                                          "Europe."),
    ("The building holds 500 inmates.", "The building was once a jail that held 500 inmates."),
    ("Calmex is approved in Europe.", "Calmex is a drug conditionally approved in Europe."),
    ("The replica is on the Champ de Mars.",
     "The replica is a tower like the one on the Champ de Mars."),
    # the tense of what is said of it
    ("Calmex is approved in Europe.",
     "Calmex is a treatment approved in Europe in 2010 and withdrawn in 2015."),
    ("Ann Price is at Oxford.", "Ann Price was a professor at Oxford."),
    ("Acme employs 500 people.", "Acme is a company that employed 500 people in 2010."),
    ("Fu Manchu formed in 1985.", "Fu Manchu is a rock band that has formed in 1985."),
    # a measure of it is not what it is
    ("The fire was contained by Thursday evening.",
     "The fire was 60 percent contained by Thursday evening."),
    ("The fire was contained.", "The fire was 60 percent contained."),
])
def test_what_a_thing_is_is_left_out_only_before_what_is_said_of_the_thing_itself(claim, source):
    assert not check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source", [
    ("The tower is 330 metres tall.", "The tower that Eiffel built is 330 metres tall."),
    ("The report runs to 200 pages.",
     "The report that the committee published in March runs to 200 pages."),
    ("The breed is rare.", "The breed that the club recognised in 1990 is rare."),
    ("The man runs the shop.", "The man who owns the car runs the shop."),
])
def test_a_clause_on_the_noun_a_statement_opens_with_may_be_left_out(claim, source):
    assert check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source", [
    ("The members are exempt.", "The members who joined before 2010 are exempt."),
    ("The tallest tower is 330 metres tall.",
     "The tallest tower that Eiffel built is 330 metres tall."),
    ("No seed grew.", "No seed that the farmer planted grew."),
    ("Every seed grew.", "Every seed that the farmer planted grew."),
    ("The tower is tall.", "The tower that Eiffel built is not tall."),
    ("The tower is tall.", "The tower that Eiffel built may be tall."),
    ("The tower is 330 metres tall.", "The tower that Eiffel built is said to be 330 metres tall."),
    ("The drug is safe.", "The claim that the drug is safe is false."),
    ("Eiffel built the tower.", "The tower that Eiffel built is 330 metres tall."),
    ("The man owns the shop.", "The man who runs the shop owns the car."),
    ("The bridge was unsafe.", "The bridge that engineers said was unsafe collapsed in 2020."),
    ("The man runs the shop.", "The man who Anna says runs the shop owns the car."),
])
def test_a_clause_on_a_noun_is_left_out_only_where_what_follows_is_said_of_that_one(claim,
                                                                                    source):
    assert not check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("word,reporting", [
    ("alleged", True), ("wrote", True), ("agreed", True), ("concluded", True),
    ("found", False),  # states what follows
    ("seed", False), ("shed", False), ("creed", False), ("breed", False), ("sled", False),
])
def test_a_noun_in_ed_before_that_is_no_verb_that_reports(word, reporting):
    from provenance_guard.rules.tokens import reports

    assert reports(word, "that") is reporting


@pytest.mark.parametrize("claim,source", [
    ("Tigers live in groups.", "Lions, unlike tigers, live in groups."),
    ("Tigers live in groups.", "Lions are cats that, unlike tigers, live in groups."),
    ("Tigers live in groups.", "Lions, rather than tigers, live in groups."),
    ("Calmex is approved in Europe.", "Zarex is a drug that, unlike Calmex, is approved in Europe."),
    ("Acme spoke.", "Jane Doe, the CEO of Acme, spoke."),
])
def test_what_an_aside_names_is_not_what_the_clause_is_said_of(claim, source):
    found = check(claim, [Evidence(source)])
    assert not found.supported and found.kind != "verbatim", found


@pytest.mark.parametrize("claim,source", [
    ("BC is located in Chestnut Hill.", "Boston College (BC) is located in Chestnut Hill."),
    ("A woman was detained on Monday.", "The suspect, a 40-year-old woman, was detained on "
                                        "Monday."),
])
def test_a_second_name_in_an_aside_is_the_subjects(claim, source):
    assert check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("opening", ["If", "Unless"])
def test_a_condition_that_opens_a_sentence_before_a_name_is_no_part_of_the_name(opening):
    source = f"{opening} Fu Manchu formed in 1985, it is older than Kyuss."
    assert not check("Fu Manchu formed in 1985.", [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source,supported", [
    ("The reading was taken at 14:30 UTC.", "The reading was taken at 2024-11-05T14:30Z.", True),
    ("At 14:30 UTC the sensor recorded 30 alerts.",
     "At 2024-11-05T14:30:00+00:00 the sensor recorded 30 alerts.", True),
    ("At 14:30 the sensor recorded 30 alerts.", "At 2024-11-05T14:30Z the sensor recorded 30 "
                                                "alerts.", True),
    ("The log entry shows 7 failed logins.",
     "The log entry 2024-11-05T14:30:00Z shows 7 failed logins.", True),
    ("The reading was taken at 14:30 UTC.", "The reading was taken at 2024-11-05T14:30+02:00.",
     False),  # the zone is not read as a conversion
    ("The reading was taken at 14:30 GMT.", "The reading was taken at 2024-11-05T14:30Z.", False),
    ("In 2023 the sensor recorded 30 alerts.", "At 2024-11-05T14:30Z the sensor recorded 30 "
                                               "alerts.", False),
])
def test_a_timestamps_zone_and_year_may_be_left_out_never_changed(claim, source, supported):
    assert check(claim, [Evidence(source)]).supported is supported


@pytest.mark.parametrize("claim,source,supported", [
    ("The ferry sails to Dover.", "The ferry sails from Dover to Calais.", False),
    ("The ferry sails from Calais.", "The ferry sails from Dover to Calais.", False),
    ("The Spirit of Kent sails to Dover.",
     "The Spirit of Kent is a ferry that sails from Dover to Calais.", False),
    ("The ferry sails from Dover.", "The ferry sails from Dover to Calais.", True),
])
def test_where_it_goes_from_is_not_where_it_goes_to(claim, source, supported):
    assert check(claim, [Evidence(source)]).supported is supported


@pytest.mark.parametrize("claim,source,supported", [
    # what is left out is not the statement's tense, voice or polarity
    ("The rooms were closed on Mondays.", "The rooms are all closed on Mondays.", False),
    ("The critics were praised.", "The critics all praised the film.", False),
    ("The managers fired their assistants.", "The managers all fired their assistants.", True),
    ("The tower is 330 metres tall.", "The tower that Eiffel never finished is 330 metres tall.",
     True),
    ("The tower is not 330 metres tall.",
     "The tower that Eiffel never finished is 330 metres tall.", False),
    # a clause of belief or report is no clause to leave out
    ("The suspect is guilty.", "The suspect who police believe is guilty.", False),
    ("The patient has cancer.", "The patient who the doctor thought has cancer.", False),
    ("The company is profitable.", "The company that analysts expected is profitable.", False),
    # a noun that makes the thing another
    ("Bigfoot began in the 1950s.", "Bigfoot is a legend that began in the 1950s.", False),
    # a passive's agent that is someone's someone
    ("Ann Lee founded Brightwell.", "Brightwell was founded by Ann Lee's rival.", False),
    ("Ann Lee founded Brightwell.", "Brightwell is a company founded by Ann Lee's son.", False),
    ("Ann Lee founded Brightwell in 2001.",
     "Brightwell is a software company founded by Ann Lee in 2001.", True),
])
def test_what_the_claim_leaves_out_keeps_the_statement_as_it_stands(claim, source, supported):
    assert check(claim, [Evidence(source)]).supported is supported


@pytest.mark.parametrize("claim,source,supported", [
    # a participle of what a thing is reads as after "is"
    ("Rex is named after a king.", "Rex is a dog named after a king.", True),
    ("The Harbour Trust is run by volunteers.", "The Harbour Trust is a charity run by "
                                                "volunteers.", True),
    ("The Harbour Trust runs volunteers.", "The Harbour Trust is a charity run by volunteers.",
     False),
    # a period up to now is no event's date
    ("The Kestrel Festival is held in Bath.", "The Kestrel Festival is a music festival held in "
                                              "Bath since 1948.", True),
    ("The Kestrel Festival is held in Bath.", "The Kestrel Festival is a music festival held in "
                                              "Bath in 1948.", False),
    # "has been" as "has been"
    ("The Old Mill has been open to the public since 1990.",
     "The Old Mill has been a museum open to the public since 1990.", True),
    ("The Old Mill had been open to the public.",
     "The Old Mill has been a museum open to the public since 1990.", False),
    # a place between the noun and "that" may be what the clause is said of, save "in" and one
    # name, or names and "who", which no place is
    ("The Velmor Museum opened in 1932.", "The Velmor Museum is an art museum in Ghent that "
                                          "opened in 1932.", True),
    ("Ada won a Grammy.", "Ada is a singer from Lagos who won a Grammy.", True),
    ("Bo won the cup.", "Bo is a player from Leeds United that won the cup.", False),
    ("Bo won the World Cup.", "Bo is a player from Brazil that won the World Cup.", False),
    ("The Plaza opened in 1858.", "The Plaza is a hotel on Central Park that opened in 1858.",
     False),
    ("The house collapsed in 1990.", "The house is a cottage near the bridge that collapsed in "
                                     "1990.", False),
    # one of a group: what the group does, in the singular
    ("The Vale Bridge crosses the Tyne.", "The Vale Bridge is one of two bridges that cross the "
                                          "Tyne.", True),
    ("The Mora frog survived the flood.", "The Mora frog is one of the few species that "
                                          "survived the flood.", True),
    ("The Mora frog did not survive the flood.", "The Mora frog is one of the few species that "
                                                 "survived the flood.", False),
    ("Kelvo Bank is based in Ohio.", "Kelvo Bank is one of the largest banks based in Ohio.",
     True),
    ("Kelvo Bank is based in Ohio.", "Kelvo Bank is one of the former banks based in Ohio.",
     False),
    ("Tom robbed the bank.", "Tom is one of the suspects who robbed the bank.", False),
    # a measure or a word with an opposite after the noun, never the noun itself
    ("The Towerview is 3 km from Rome.", "The Towerview is a hotel 3 km from Rome.", True),
    ("The Towerview is 5 km from Rome.", "The Towerview is a hotel 3 km from Rome.", False),
    ("The Towerview was 3 km from Rome.", "The Towerview is a hotel 3 km from Rome.", False),
    ("Pluto is a planet in the solar system.", "Pluto is a dwarf planet in the solar system.",
     False),
    # a noun and another before "who": one noun phrase, not a clause after "and"
    ("Ada Nwosu was born in Lagos.", "Ada Nwosu is a singer and actress who was born in Lagos.",
     True),
    ("Paris hosts the Games.", "Paris is the capital of France and the city that hosts the "
                               "Games is Rome.", False),
    # the clause on a subject before a past verb, where the subject is one thing
    ("The seed grew into a tall tree.", "The seed that the farmer planted grew into a tall "
                                        "tree.", True),
    ("The sled won the race.", "The sled that the children built won the race.", True),
    ("The creed still guides the school.", "The creed that the founders wrote still guides the "
                                           "school.", True),
    ("The children passed.", "The children who stayed late passed.", False),
    ("The members passed.", "The members who stayed late passed.", False),
    ("The seed grew.", "Every seed that the farmer planted grew.", False),
    ("The bridge collapsed.", "The bridge that engineers feared was unsafe collapsed.", False),
    # a passive's agent with a clause of its own: the clause stays the agent's
    ("The Lark Fund founded Oxfam.", "The Lark Fund was owned by a man who founded Oxfam.",
     False),
    ("The Lark Fund founded Oxfam.", "The Lark Fund is a charity run by a man who founded "
                                     "Oxfam.", False),
])
def test_what_a_thing_is_said_to_be_may_be_left_out_in_more_shapes(claim, source, supported):
    assert check(claim, [Evidence(source)]).supported is supported


@pytest.mark.parametrize("claim,source,supported", [
    # a word that makes the thing another, in the noun or the participle
    ("Brakka cures migraines.", "Brakka is a sham remedy that cures migraines.", False),
    ("Brakka cures migraines.", "Brakka is a debunked remedy that cures migraines.", False),
    ("The engine runs on seawater.", "The engine is a theoretical engine that runs on "
                                     "seawater.", False),
    ("Juna is owned by Veltro.", "Juna is a mobile network part-owned by Veltro.", False),
    ("The Fenwick Gallery is open to the public.", "The Fenwick Gallery is called a gallery "
                                                   "open to the public.", False),
    ("The Corran Museum closed in 2003.", "The Corran Museum is a gallery opposite a cinema "
                                          "that closed in 2003.", False),
    # a participle dated to a time that may be over, however the time is said
    ("The Moth Festival is held in Ely.", "The Moth Festival is a music festival held in Ely "
                                          "from 1972 to 1990.", False),
    ("The Moth Festival is held in Ely.", "The Moth Festival is a music festival held in Ely "
                                          "during the 1970s.", False),
    ("The Moth Festival is held in Ely.", "The Moth Festival is a music festival held in Ely "
                                          "last year.", False),
    ("The Moth Festival was held in Ely.", "The Moth Festival is a music festival held in Ely "
                                           "from 1972 to 1990.", True),
    # a past, regular or not, is not the present: after "that", after "one of", or dated
    ("Ada Birk wins the Lenz Prize.", "Ada Birk was one of three poets who won the Lenz "
                                      "Prize.", False),
    ("Ada Birk won the Lenz Prize.", "Ada Birk was one of three poets who won the Lenz Prize.",
     True),
    ("Hesketh Rovers win the league.", "Hesketh Rovers are a club that won the league in "
                                       "1961.", False),
    ("Hesketh Rovers win the league.", "Hesketh Rovers won the league in 1961.", False),
    ("Barrow Lodge is owned by the Crown.", "Barrow Lodge used to be owned by the Crown.",
     False),
    # two measures of one thing: each keeps its own dimension
    ("The Broch is 12 metres tall.", "The Broch is 12 metres wide and 20 metres tall.", False),
    ("The Broch is 20 metres tall.", "The Broch is a stone tower 12 metres wide and 20 metres "
                                     "tall.", True),
    ("The Broch is 20 metres tall and 12 metres wide.", "The Broch is 12 metres wide and 20 "
                                                        "metres tall.", True),
    # a noun in "-ly" or with a particle is a noun
    ("The Gazette publishes on Sundays.", "The Gazette is a weekly newspaper that publishes "
                                          "on Sundays.", True),
    ("Tiber Labs employs 40 scientists.", "Tiber Labs is a start-up that employs 40 "
                                          "scientists.", True),
    ("Kelvo Ltd is owned by Acme.", "Kelvo Ltd is a company wholly owned by Acme.", False),
])
def test_what_a_probe_of_saying_less_found(claim, source, supported):
    assert check(claim, [Evidence(source)]).supported is supported


@pytest.mark.parametrize("claim,source,supported", [
    ("Ann Lee founded Acme in 1990.", "Ann Lee founded Acme in 1990. Cash is rarely used.", True),
    ("Lagos is many things.", "Lagos is one of many things.", False),
    ("Ann Lee won the prize.", "Ann Lee is a writer and the poet who won the prize lives in "
                               "Leeds.", False),
    ("The Broch is 20 metres wide.", "The Broch is 12 metres wide and 20 metres tall.", False),
    ("The Broch is 12 metres long.", "The Broch is 12 metres wide, 30 metres long and 20 metres "
                                     "tall.", False),
    ("The Broch is 30 metres long.", "The Broch is 12 metres wide, 30 metres long and 20 metres "
                                     "tall.", True),
    ("The firm employs 12 designers.", "The firm employs 30 engineers and 12 designers.", True),
    ("The firm employs 12 engineers.", "The firm employs 30 engineers and 12 designers.", False),
    ("Kelvo Bank is based in Ohio.", "Kelvo Bank had been one of the largest banks based in "
                                     "Ohio.", False),
    ("Acme cuts jobs.", "Acme is one of the firms that cut jobs in 2009.", False),
    ("Ada hits the target.", "Ada was one of the archers that hit the target in 1990.", False),
    ("The firemen died.", "The firemen who stayed died.", False),
    ("Volunteers run the trust.", "Volunteers ran the trust in 1990.", False),
    ("Ann Lee sets the record.", "Ann Lee set the record in 1990.", False),
    ("Rovers win the league.", "Rovers had won the league in 1961.", False),
    ("Rovers win the league.", "Rovers won the league two years ago.", False),
    ("Rovers have won the league.", "Rovers won the league in 1961.", True),
    ("Zeta was acquired by Acme.", "The big change was Acme acquired Zeta.", True),
    ("Ann Lee founded the firm.", "The firm was founded by Ann Lee, who died in 2001.", True),
    ("The Moth Festival is held in Ely.", "The Moth Festival is a music festival held in Ely "
                                          "since June 1948.", True),
    ("The Orchid Fair is held in Bath.", "The Orchid Fair was a flower show held in Bath since "
                                         "1951.", False),
    ("The hotel has 300 rooms.", "The hotel, which has 300 rooms, was sold to a fund last "
                                 "month.", True),
])
def test_what_a_review_of_saying_less_found(claim, source, supported):
    assert check(claim, [Evidence(source)]).supported is supported


@pytest.mark.parametrize("claim,source,supported", [
    ("The ship sank.", "The ship that the navy sold never sank.", False),
    ("Dunmore United win the cup.", "Dunmore United won the cup in 1950.", False),
    ("The lake is 60 m deep.", "The lake is 4 km long, 900 m wide, and 60 m deep.", True),
    ("The lake is 60 m wide.", "The lake is 4 km long, 900 m wide, and 60 m deep.", False),
    ("The firm employs 12 designers.", "The firm employs 30 software engineers and 12 "
                                       "designers.", True),
    ("The firm employs 12 software engineers.", "The firm employs 30 software engineers and 12 "
                                                "designers.", False),
    ("The farm has 20 pear trees.", "The farm has 50 to 60 apple trees and 20 pear trees.", True),
    ("The bell cracked.", "The bell that the monk cast cracked.", True),
    ("The statue is 1.5 metres tall.", "The statue weighs 2 tonnes and is 1.5 metres tall.", True),
    ("The statue is 2 metres tall.", "The statue weighs 2 tonnes and is 1.5 metres tall.", False),
    ("Ardle has 12 schools.", "Ardle and Brisk have 12 and 30 schools.", False),
    ("Ardle has 30 schools.", "Ardle and Brisk have 12 and 30 schools.", False),
    ("The canal was dug in 1820.", "The canal was dug between 1820 and 1825.", False),
    ("The hall is 40 metres tall.", "The hall is 20 metres wide and the tower 40 metres tall.",
     False),
    ("The hall is 40 metres tall.", "The hall is 20 metres wide, the tower 40 metres tall and "
                                    "the moat 5 metres deep.", False),
    ("The repair cost £2,100.", "The repair cost £400 and the new boiler £2,100.", False),
    ("Villa Corda is 5 km from Siena.", "Villa Corda is a hotel run by a firm 5 km from Siena.",
     False),
])
def test_what_a_second_probe_of_saying_less_found(claim, source, supported):
    assert check(claim, [Evidence(source)]).supported is supported


@pytest.mark.parametrize("claim,source,supported", [
    ("The Sorrel is run by Ann Lee.", "The Sorrel is run by Ann Lee's cousin.", False),
    ("The Sorrel is run by Ann Lee.", "The Sorrel is an inn run by Ann Lee's cousin.", False),
    ("Ann Lee's cousin runs the Sorrel.", "The Sorrel is run by Ann Lee's cousin.", True),
    ("The population of Paris is 2 million.", "Paris's population is 2 million.", True),
])
def test_an_owner_is_not_the_owned(claim, source, supported):
    assert check(claim, [Evidence(source)]).supported is supported


@pytest.mark.parametrize("claim,source,supported", [
    ("The company is profitable.", "The company was profitable.", False),
    ("The hotel has 300 rooms.", "The hotel had 300 rooms.", False),
    ("Petra Novak writes for the Herald.", "Petra Novak wrote for the Herald.", False),
    ("The Cairn mine employs 40 boys.", "The Cairn mine employed 300 men and 40 boys.", False),
    ("Mayor Fenn lives in Vale Street.", "Mayor Fenn had lived in Vale Street.", False),
    ("The bridge collapses.", "The bridge that the Romans built collapsed.", False),
    ("Acme owns Kelvo Ltd.", "Kelvo Ltd was owned by Acme.", False),
    ("Kelvo Ltd is owned by Acme.", "Acme owned Kelvo Ltd.", False),
    ("Kelvo Ltd is owned by Acme.", "Kelvo Ltd was owned by Acme.", False),
    ("The Sorrel is run by two sisters.", "The Sorrel is an inn run by two sisters in the "
     "1990s.", False),
    ("Grenmoor is owned by the Fane family.", "Grenmoor is an estate owned by the Fane family "
     "between 1800 and 1870.", False),
    ("Two sisters ran the Sorrel in the 1990s.", "The Sorrel is an inn run by two sisters in "
     "the 1990s.", True),
    ("The Sorrel is run by two sisters.", "The Sorrel is an inn run by two sisters since 1990.",
     True),
    ("The Sorrel is run by two sisters.", "The Sorrel is an inn run by two sisters in the 19th "
     "century.", False),
    ("The Sorrel is run by two sisters.", "The Sorrel is an inn run by two sisters since the "
     "19th century.", True),
    # the present as the source puts it, a present perfect, a finding: still stated
    ("Acme owns Kelvo Ltd.", "Kelvo Ltd is owned by Acme.", True),
    ("Acme owns Kelvo Ltd.", "Kelvo Ltd is a subsidiary owned by Acme.", True),
    ("The Orme Trust runs the lighthouse.", "The Orme Trust has run the lighthouse since 1995.",
     True),
    ("The Vale Bridge crosses the Tyne.", "The Vale Bridge is one of two bridges that cross "
     "the Tyne.", True),
    ("The study finds that sleep helps memory.", "The study found that sleep helps memory.",
     True),
    ("The company was profitable.", "The company was profitable.", True),
    ("The vaccine is given in two doses.", "The vaccine, which was developed at Oxford, is "
     "given in two doses.", True),
    ("The Berlin Wall falls in 1989.", "The Berlin Wall fell in 1989.", False),
    ("The garden opens in April.", "The garden opened in April.", False),
    ("The regatta takes place in June.", "The regatta took place in June.", False),
    # a question's "did" leaves a bare verb with the date: its answer is no present
    ("The Berlin Wall fall in 1989.", "The Berlin Wall fell in 1989.", True),
])
def test_a_past_the_source_does_not_date_is_no_present(claim, source, supported):
    found = check(claim, [Evidence(source)])
    assert found.supported is supported
    if not supported:
        assert "in the past" in found.reason


@pytest.mark.parametrize("claim,source,supported", [
    # two words before a comma and a clause with its own subject: no apposition, an opener
    ("The council fixed every pothole.", "Yeah, right, the council fixed every pothole.", False),
    ("The ferry always leaves on time.", "Sure, sure, the ferry always leaves on time.", False),
    ("Paris is the capital.", "Paris, the capital, is large.", True),
    ("The museum closed.", "Sadly, however, the museum closed.", True),
    # a noun that puts forward what follows "that", after a verb that rejects it
    ("Pilots will strike in July.", "The airline rejected reports that pilots will strike in "
     "July.", False),
    # a title in quotation marks states nothing; a claim that names it as a title is stated
    ("The lighthouse keeper drowned in 1998.", "Brenna Oduya wrote the novel 'The Lighthouse "
     "Keeper Drowned' in 1998.", False),
    ("Harbour Bank collapsed.", 'The film "Harbour Bank Collapsed" opened in 2004.', False),
    ("The mayor resigned in shame.", "Her memoir is called 'The Mayor Resigned in Shame'.",
     False),
    ("Brenna Oduya wrote 'The Lighthouse Keeper Drowned'.", "Brenna Oduya wrote the novel 'The "
     "Lighthouse Keeper Drowned' in 1998.", True),
    ("The students' union opened in 1990.", "The students' union opened in 1990 and the "
     "teachers' room in 1995.", True),
    # a time to come
    ("The shop closes at 6 pm.", "From next Monday, the shop closes at 6 pm.", False),
    ("The shop closes at 6 pm.", "The shop closes at 6 pm from next Monday.", False),
    ("The museum reopens next year.", "The museum reopens next year.", True),
    # an imperative: a number, a title or a verb the claim reads as one after its first word
    ("Two seats on the coach are reserved.", "Reserve two seats on the coach.", False),
    ("Dr. Ines Holt was called before Friday.", "Call Dr. Ines Holt before Friday.", False),
    ("300 boxes were moved to the depot by noon.", "Move 300 boxes to the depot by noon.",
     False),
    ("Apollo 11 landed on the moon in 1969.", "Apollo 11 landed on the moon in 1969.", True),
    ("48 volunteers cleaned the beach.", "Forty-eight volunteers cleaned the beach.", True),
    # a fifth probe, the same classes in other words
    ("The mayor kept her promise.", "Yeah, of course, the mayor kept her promise.", False),
    ("We found the keys.", "Yeah, right, we found the keys.", False),
    ("Acme and the bank merged.", "Acme, the retailer, the bank and the insurer merged.",
     True),
    ("Paris and Bern joined.", "Paris, Rome, Oslo and Bern joined.", True),
    ("The ferry sank.", "The captain played down reports that the ferry sank.", False),
    ("60 chairs are stacked in the hall.", "Stack 60 chairs in the hall.", False),
    ("Commander Ada Kwan was called.", "Call Commander Ada Kwan.", False),
    ("Lab 5 was sealed.", "Seal Lab 5.", False),
    ("Route 66 runs from Chicago.", "Route 66 runs from Chicago.", True),
    ("The chapel is near the harbour.", "The chapel is a small stone building near the "
     "harbour.", True),
    ("The pool reopened on 9 June 2022.", "On 9 June 2022 the pool reopened.", True),
    ("The pool reopened on 9 June 2021.", "On 9 June 2022 the pool reopened.", False),
    ("The members of the bowls club voted.", "The bowls club's members voted.", True),
    ("The members of the Harbour rowing club voted.", "The Harbour rowing club's members "
     "voted.", True),
    ("The bowls club voted.", "The bowls club's members voted.", False),
    ("The Harbour rowing club voted.", "The Harbour rowing club's members voted.", False),
    ("His bail was lowered.", "The judge lowered Knight's bail.", True),
    # true text it failed: a noun in "-ing" that ends what a thing is, a possessive of a
    # phrase, "our" before an agent, a past left out before a date, a description before its
    # name, a weekday before its date, "lower than" from the other side
    ("The Harlan museum is on Mill Street.", "The Harlan museum is a small brick building on "
     "Mill Street.", True),
    ("Agincourt Wall was fought in 1415.", "Agincourt Wall is a mural depicting a battle "
     "fought in 1415.", False),
    ("Members of the Orchard club voted.", "The Orchard club's members voted.", True),
    ("The Orchard club's members voted.", "Members of the Orchard club voted.", True),
    ("The Orchard club voted.", "The Orchard club's members voted.", False),
    ("Our driver delivered the parcel.", "The parcel was delivered by our driver.", True),
    ("You delivered the parcel.", "The parcel was delivered by our driver.", False),
    ("The contest was won by Kofi's daughter.", "Kofi's daughter won the contest.", True),
    ("The contest was won by Kofi.", "Kofi's daughter won the contest.", False),
    ("Rhea Lund was the principal of Kelby School.", "Rhea Lund was the principal of Kelby "
     "School until 2019.", True),
    ("Rhea Lund is the principal of Kelby School.", "Rhea Lund was the principal of Kelby "
     "School until 2019.", False),
    ("The ticket is valid.", "The ticket is valid until 2019.", False),
    ("Ines Garro sued Talbot Freight in 2021.", "Ines Garro sued her employer, Talbot "
     "Freight, in 2021.", True),
    ("The library reopened on 3 June 2024.", "On Monday, 3 June 2024, the library reopened.",
     True),
    ("The library reopened on 4 June 2024.", "On Monday, 3 June 2024, the library reopened.",
     False),
    ("The Birch tower is lower than the Alder tower.", "The Alder tower is higher than the "
     "Birch tower.", True),
    ("The Birch tower is higher than the Alder tower.", "The Alder tower is higher than the "
     "Birch tower.", False),
])
def test_what_a_probe_of_the_one_reading_found(claim, source, supported):
    assert check(claim, [Evidence(source)]).supported is supported


def test_a_word_in_a_title_is_named_as_one_in_the_reason():
    found = check("The lighthouse keeper drowned.", [Evidence(
        "She wrote the novel 'The Lighthouse Keeper Drowned' in 1998.")])
    assert "only in the name 'The Lighthouse Keeper Drowned'" in found.reason


def test_an_owner_of_several_words_is_named_as_written():
    found = check("The Orchard club voted.", [Evidence("The Orchard club's members voted.")])
    assert "\"Orchard club's members\", not of 'Orchard club' itself" in found.reason


def test_a_verb_with_no_subject_asks_for_it_to_be_done():
    found = check("300 boxes were moved to the depot.", [Evidence(
        "Move 300 boxes to the depot.")])
    assert found.reason == "the source asks for it to be done ('Move'); it does not say it was"


def test_a_first_name_that_reads_as_a_modal_is_still_a_name():
    found = check("Jaden Smith won the award.", [Evidence("Will Smith won the award.")])
    assert found.contradiction


@pytest.mark.parametrize("claim,source,named", [
    # someone else did it, whatever word names the doer
    ("You fixed the heater.", "The caretaker fixed the heater.",
     "the source says 'caretaker' did it, the claim 'You': someone else"),
    # word for word, the sentence as read: a pronoun's subject in brackets
    ("The Harbour Inn was renovated in 2012.", "The Harbour Inn has 40 rooms. It was "
     "renovated in 2012.", "'[The Harbour Inn] was renovated in 2012.'"),
])
def test_the_reason_names_what_decided(claim, source, named):
    assert named in check(claim, [Evidence(source)]).reason


@pytest.mark.parametrize("claim,source,verb", [
    # an attribution after the statement, whatever its verb: the statement is its subject's word
    ("Sales at Brennan Foods rose 8 percent in May.",
     "Sales at Brennan Foods rose 8 percent in May, the company reported.", "reported"),
    ("The tap water in Ormsby is safe to drink.",
     "The tap water in Ormsby is safe to drink, officials stated on Tuesday.", "stated"),
    ("Two wards will close next year.",
     "Two wards will close next year, managers told staff on Friday.", "told"),
    ("The new stand will be finished by August.",
     "The new stand will be finished by August, the club's chairman vowed.", "vowed"),
    ("The ferry will run all winter.", "The ferry will run all winter, its owner boasts.",
     "boasts"),
    ("Sales rose 8 percent in May.", "Sales rose 8 percent in May, local residents reported.",
     "reported"),  # a verb after a plural noun
])
def test_a_statement_a_source_attributes_after_it_is_not_stated(claim, source, verb):
    found = check(claim, [Evidence(source)])
    assert not found.supported and f"'{verb}'" in found.reason, found.reason


@pytest.mark.parametrize("claim,source", [
    # what follows the comma has no subject and verb of its own, or is a finding
    ("The Harbour Museum opened in 1932.", "The Harbour Museum opened in 1932, the year the war ended."),
    ("The bridge collapsed.", "The bridge collapsed, killing five people."),
    ("The team won the final.", "The team won the final, beating Leeds 2-1."),
    ("The firm moved to Oslo.", "The firm moved to Oslo, its home since 1990."),
    ("Trains run every hour.", "Trains run every hour, the timetable shows."),
    ("The museum opened in 1932.", "The museum opened in 1932, a study found."),
    # the clause after the comma is the sentence's own: after an opening phrase or an aside
    ("The bakery on Elm Street still sells bread daily.",
     "The bakery on Elm Street, opened by the Rossi family in 1978, still sells bread daily."),
    ("The ferry resumed service on 6 May 2024.", "On Monday, 6 May 2024, the ferry resumed service."),
    ("The bridge reopened.", "Finally, after two years, the bridge reopened."),
    ("The pump stops when the lid is open.", "When the lid is open, the pump stops."),
])
def test_a_stretch_after_a_comma_that_attributes_nothing_leaves_the_statement_stated(claim,
                                                                                     source):
    assert check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source", [
    # a condition said first, however it is worded, is read at the end of its clause
    ("The regatta starts at noon, provided the weather holds.",
     "Provided the weather holds, the regatta starts at noon."),
    ("Refunds are issued as long as the receipt is kept.",
     "As long as the receipt is kept, refunds are issued."),
    ("The final is played at 3 pm unless it rains.", "Unless it rains, the final is played at 3 pm."),
    ("The ferry will not run in the event of a strike.",
     "In the event of a strike, the ferry will not run."),
])
def test_a_condition_kept_in_another_order_is_stated(claim, source):
    assert check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source", [
    ("The final is played at 3 pm.", "Unless it rains, the final is played at 3 pm."),
    ("The regatta starts at noon.", "Provided the weather holds, the regatta starts at noon."),
])
def test_a_condition_said_first_is_never_left_out(claim, source):
    assert not check(claim, [Evidence(source)]).supported
