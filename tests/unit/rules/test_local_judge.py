"""The local judge on the errors an LLM makes that keep the source's words: a negation in either
direction and only in its own clause, opposites, swapped roles, quantifiers, an item added to a
list, a changed value with its unit, and written-out numbers. It fails closed: none of these
passes, and the ones it can name (a value, a negation, an opposite in an aligned statement) are
contradicted. The sentences of the unit tests are not those of the labelled sets; the sets are
run whole, through the validator, at the end."""

import json
from collections import Counter

import pytest
from conftest import REPO

from provenance_guard import LocalJudge, ProvenanceLLM
from provenance_guard.deciding.decider import Cascade
from provenance_guard.evaluation.suite import load_cases, run_case
from provenance_guard.rules import alignment, check, checker, read_facts
from provenance_guard.rules.alignment import BLOCKS
from provenance_guard.rules.word_lists import _CONCEPTS, concepts
from provenance_guard.types import CONTRADICTED, SUPPORTED, Chunk, Evidence

DATA = REPO / "validator" / "evaluation" / "data"
PAIRS = REPO / "tests" / "unit" / "rules" / "pairs"  # claim/source pairs: benchmarks/bench_pairs.py


def evidence(*texts):
    return [Evidence.of(Chunk(text, 0, len(text), 0), 0.6) for text in texts]


def verdict(claim, *sources):
    return LocalJudge().judge(claim, evidence(*sources))


@pytest.mark.parametrize("claim,source", [
    ("The kettle switches itself off when the water boils.",
     "The kettle does not switch itself off when the water boils."),
    ("Visitors cannot bring food into the gallery.", "Visitors can bring food into the gallery."),
    ("The printer never jams on thick paper.", "The printer jams on thick paper."),
    ("Interest isn't charged on late payments.", "Interest is charged on late payments."),
])
def test_a_negation_flip_either_way_is_contradicted(claim, source):
    found = verdict(claim, source)
    assert found.label == CONTRADICTED and "opposite" in found.reason, found


@pytest.mark.parametrize("source", [
    "The scanner reads QR codes; it does not read barcodes printed on glossy film.",
    "The scanner reads QR codes, but barcodes printed on glossy film are not read.",
    "The scanner reads QR codes, although it cannot read barcodes printed on glossy film.",
])
def test_a_negation_belongs_to_its_own_clause(source):
    assert verdict("The scanner reads QR codes.", source).label == SUPPORTED
    # the negated clause never supports a claim that states it the other way
    assert verdict("The scanner reads barcodes printed on glossy film.", source).label != SUPPORTED


@pytest.mark.parametrize("source", [
    "The bakery, which does not deliver on Sundays, opens at seven.",
    "The bakery (which does not deliver on Sundays) opens at seven.",
    "The bakery opens at seven, which does not mean it delivers on Sundays.",
    "The bakery opens at seven, which is early for a bakery that never delivers on Sundays.",
])
def test_an_aside_is_skipped_unless_the_claim_is_in_it_and_then_its_negation_counts(source):
    # the main clause stands without its aside; the aside's words bring its "not" with them
    assert verdict("The bakery opens at seven.", source).label == SUPPORTED
    assert verdict("The bakery delivers on Sundays.", source).label != SUPPORTED


def test_a_trailing_relative_clause_qualifies_what_it_says_not_the_clause_before():
    source = ("About 6 million people visit the castle each year, which makes it one of the most "
              "visited sites in the region.")
    # not word for word ("it" for "the castle"): aligned, and the relative clause skipped
    assert verdict("About 6 million people visit it each year.", source).label == SUPPORTED
    # its own qualifier ("most") is kept when the claim is what the relative clause says
    assert verdict("It is one of the visited sites in the region.", source).label != SUPPORTED


def test_a_clause_that_starts_with_a_pronoun_takes_its_subject_from_the_clause_before():
    source = "The plan covers hardware repairs, but it does not cover data recovery."
    assert verdict("The plan does not cover data recovery.", source).label == SUPPORTED
    assert verdict("The plan covers data recovery.", source).label == CONTRADICTED


@pytest.mark.parametrize("claim,source,said", [
    ("The fuel tap is on the left of the engine.", "The fuel tap is on the right of the engine.",
     "right"),
    ("The blinds are lowered automatically at sunset.", "The blinds are lowered manually at sunset.",
     "manually"),
    ("Doses are increased each week.", "Doses are decreased each week.", "decreased"),
    ("The gate opens at dawn.", "The gate closes at dawn.", "closes"),
    ("Payment is due before delivery.", "Payment is due after delivery.", "after"),
    ("Remote access is enabled by default.", "Remote access is disabled by default.", "disabled"),
    ("The left door opens automatically.", "The right door opens manually.", "right"),
])
def test_an_opposite_word_is_contradicted_and_named(claim, source, said):
    found = verdict(claim, source)
    assert found.label == CONTRADICTED and f"'{said}'" in found.reason, found
    assert check(claim, evidence(source)).kind == "antonym"


@pytest.mark.parametrize("claim,source", [
    ("Flood damage is covered by the policy.", "Flood damage is excluded from the policy."),
    ("The new tariff is cheaper than the old one.",
     "The new tariff is more expensive than the old one."),
    ("The shuttle runs from the airport to the harbour.",
     "The shuttle runs from the harbour to the airport."),
    ("The fee rose from 20 euros to 25 euros.", "The fee rose from 25 euros to 20 euros."),
    ("Dublin is warmer than Lisbon in March.", "Lisbon is warmer than Dublin in March."),
    ("All of the rooms have a balcony.", "Some of the rooms have a balcony."),
    ("None of the rooms have a balcony.", "All of the rooms have a balcony."),
    ("Some of the rooms have a balcony.", "None of the rooms have a balcony."),
    ("Most trains stop at Kelby.", "All trains stop at Kelby."),
    ("The set includes a hammer, pliers, a saw and a spirit level.",
     "The set includes a hammer, pliers and a saw."),
])
def test_words_all_there_but_not_stated_together_never_pass(claim, source):
    found = verdict(claim, source)
    assert found.label != SUPPORTED and found.reason, found


@pytest.mark.parametrize("claim,source", [
    # a negation that covers part of what the source states, either way round
    ("The staff attended the meeting.", "Not all of the staff attended the meeting."),
    ("All of the staff attended the meeting.", "Not all of the staff attended the meeting."),
    ("None of the staff attended the meeting.", "Not all of the staff attended the meeting."),
    ("The staff did not attend the meeting.", "Not all of the staff attended the meeting."),
    ("Every student passed the exam.", "Not every student passed the exam."),
    ("No student passed the exam.", "Not every student passed the exam."),
    ("Not every student passed the exam.", "Every student passed the exam."),
    ("The bridge was repaired.", "The bridge was never fully repaired."),
    ("The bridge was never repaired.", "The bridge was never fully repaired."),
    ("The bridge was fully repaired.", "The bridge was never fully repaired."),
    ("The roof was not replaced.", "The roof was not completely replaced."),
    ("Flights were not cancelled.", "Not all flights were cancelled."),
    # words the source says after a word that turns or qualifies them, quoted whole
    ("The drug cures the infection in adults.", "It is not true that the drug cures the "
     "infection in adults."),
    ("7 million people visit the castle every year.",
     "About 7 million people visit the castle every year."),
    ("The rate rose to 3 in the spring.", "The rate rose to 3.5% in the spring."),
    # roles swapped through a possessive
    ("Alphabet's parent company is Google.", "Google's parent company is Alphabet."),
    ("Ford's chief executive praised Tesla.", "Tesla's chief executive praised Ford."),
    ("Mary's brother visited John.", "John's brother visited Mary."),
    ("The investor's founder met the company.", "The company's founder met the investor."),
    ("The owner's dog bit the neighbour.", "The dog's owner bit the neighbour."),
    ("Jane Doe's chief executive is Acme.", "The chief executive of Acme is Jane Doe."),
    ("The chief executive of Jane Doe is Acme.", "Acme's chief executive is Jane Doe."),
    ("Marie is Pierre's teacher.", "Pierre is Marie's teacher."),
])
def test_a_partial_negation_or_swapped_roles_never_pass(claim, source):
    found = verdict(claim, source)
    assert found.label != SUPPORTED, found


@pytest.mark.parametrize("claim,source", [
    # denied, claimed, believed, rumoured, doubted, asked: put forward, not asserted
    ("The minister resigned.", "The ministry denied that the minister resigned."),
    ("The minister resigned.", "Reports that the minister resigned are false."),
    ("The minister resigned.", "It is false that the minister resigned."),
    ("The drug causes cancer.", "Critics claim that the drug causes cancer."),
    ("The drug causes cancer.", "The drug causes cancer, critics claim."),
    ("The drug causes cancer.", "The drug, critics allege, causes cancer."),
    ("The drug causes cancer.", "A rumour says that the drug causes cancer."),
    ("The fire was set deliberately.", "Police believe the fire was set deliberately."),
    ("The fire was set deliberately.", "It is unclear whether the fire was set deliberately."),
    ("The fire was set deliberately.", "Investigators doubt the fire was set deliberately."),
    ("The company will post a loss.", "Analysts expect the company will post a loss."),
    ("He ran the cartel.", "He is the suspected head of the cartel and ran the cartel."),
    # reported speech and recommendations: a claim must keep who says so
    ("The fire was set deliberately.", "Police said the fire was set deliberately."),
    ("The money was a loan.", "According to the defendant, the money was a loan."),
    ("Shareholders accepted the offer.", "The board recommended that shareholders accept the offer."),
    # a question asserts nothing, whatever its words
    ("The minister resigned.", "Did the minister resign?"),
    ("The bridge is open.", "Is the bridge open?"),
    ("The bridge is open.", "Who says the bridge is open?"),
])
def test_a_statement_the_source_does_not_assert_never_passes(claim, source):
    found = verdict(claim, source)
    assert found.label != SUPPORTED, found
    assert "not as a fact" in found.reason or "as a question" in found.reason, found


@pytest.mark.parametrize("claim,source", [
    # one of alternatives is not the one
    ("Anna will win the election.", "Anna or Ben will win the election."),
    ("Ben will win the election.", "Anna or Ben will win the election."),
    ("Anna won the election.", "Either Anna or Ben won the election."),
    ("Anna and Ben will win the election.", "Anna or Ben will win the election."),
    ("Three people were hurt.", "Two or three people were hurt."),
    ("The museum opens on Saturdays.", "The museum opens on Saturdays or Sundays."),
    # a past that no longer holds, or that the source dates, is not the present
    ("He lives in Paris.", "He used to live in Paris."),
    ("The company is profitable.", "The company was profitable in 2010."),
    ("The company has 500 employees.", "The company had 500 employees in 2019."),
    ("The band formed in 1990.", "The band formed in the 1990s."),  # a decade is no year
    # a condition said without "if", or with other words
    ("The union will strike on Monday.", "Should the talks fail, the union will strike on Monday."),
    ("Tenants may keep pets.", "Tenants may keep pets as long as they pay a deposit."),
    ("The festival will go ahead.", "The festival will go ahead, weather permitting."),
    # what had not happened, was asked for or reported
    ("The bridge opened in 2020.", "The bridge was to have opened in 2020."),
    ("The company launched its phone.", "The company was about to launch its phone."),
    ("The museum opened in 1990.", "The museum was to open in 1990."),  # "be to": a plan
    # a month's name that is someone's first name is no month
    ("The firm was founded in May.", "The firm was founded by May Smith in 2019."),
    ("The firm was founded in June.", "The firm was founded by June Smith in 2019."),
    ("Visitors pay at the door.", "Visitors are to pay at the door."),
    ("The launch was on 5 March 2024.", "The launch was to take place on 5 March 2024."),
    ("The launch was on 5 March 2024.", "The launch will take place on 5 March 2024."),
    ("The council banned fireworks.", "The mayor asked the council to ban fireworks."),
    ("The accountant embezzled $3 million.", "Prosecutors alleged that the accountant embezzled $3 million."),
    ("The fire started in the kitchen.", "Local media reported that the fire started in the kitchen."),
    # a title another word makes another, before the statement
    ("Police Commissioner Tom Hale spoke.", "Acting Police Commissioner Tom Hale spoke."),
    # a restriction said first
    ("Smoking rates fell by a third.", "Among men, smoking rates fell by a third."),
    ("Trains run every four minutes.", "During rush hour, trains run every four minutes."),
    ("The treatment caused headaches.", "In some cases, the treatment caused headaches."),
    # a share is no count
    ("Women make up 40 of the engineers.", "Women make up 40 percent of the engineers."),
    ("The factory is the main employer.", "From 1990 to 1995, the factory was the main employer."),
    # a number's role: where a change ended or began is not its size, nor a point a percent
    ("The rate rose to 6%.", "The rate rose by 6%."),
    ("The rate rose by 6%.", "The rate rose to 6%."),
    ("The tax rate fell by 25 percent.", "The tax rate fell from 25 percent to 20 percent."),
    ("The company operated in 1990.", "The company operated from 1990."),
    ("The unemployment rate rose by 2 percent.",
     "The unemployment rate rose by 2 percentage points, from 4 percent to 6 percent."),
    # a title another word makes another: said inside an aside the claim aligns into
    ("Jane Doe, the CEO of Acme, spoke.", "Jane Doe, the former CEO of Acme, spoke."),
    ("Mark Lee, the company's president, spoke.", "Mark Lee, the company's vice president, spoke."),
    ("The robot collected data.", "The robot, set out to collect data, stalled."),
    # the subject inside another noun phrase
    ("The mayor owns the company.", "The mayor's brother owns the company."),
    ("The city where the king was born is polluted.",
     "The river that flows past the city where the king was born is polluted."),
])
def test_an_alternative_or_a_dated_past_is_not_stated_as_the_one_or_the_present(claim, source):
    assert verdict(claim, source).label != SUPPORTED


@pytest.mark.parametrize("claim,source", [
    ("Anna or Ben will win the election.", "Anna and Ben will win the election."),
    ("AQAP controls parts of eastern Yemen.",  # ", or AQAP,": a second name
     "Al Qaeda in the Arabian Peninsula, or AQAP, controls parts of eastern Yemen."),
    ("He used to live in Paris.", "He used to live in Paris."),
    ("The band formed in the 1990s.", "The band formed in the 1990s."),
    ("The company was profitable.", "The company was profitable in 2010."),
    ("The bridge is 2 km long.", "The bridge, completed in 1932, is 2 km long."),
    ("The group attacked the mall.", "The group, which claimed responsibility, attacked the mall."),
    ("The group attacked the mall.", "The group attacked the mall and claimed responsibility."),
    ("Police said the fire was set deliberately.", "Police say the fire was set deliberately."),
    ("The rate rose to 6%.", "The rate rose from 4% to 6%."),
    ("Sales grew 10%.", "Sales grew by 10%."),
    ("His bail was lowered.", "The judge lowered Knight's bail."),  # "his": the owner
    ("Jane Doe, the CEO of Acme, spoke.", "Jane Doe, the CEO of Acme, spoke."),
    ("The drug causes cancer.", "The study found that the drug causes cancer."),  # a finding
    ("Visitors can climb the stairs.", "Visitors can climb the stairs or take a lift."),
    ("Smith moved to Paris.", "After the war, Smith moved to Paris."),  # a time, then a past
    ("The firm moved to Leeds.", "For example, the firm moved to Leeds."),
    ("She says she will use a voice phone.",
     "In a series of tweets, she said she will use a voice phone."),
    ("Critics claim the drug causes cancer.", "Critics claimed that the drug causes cancer."),
    ("Is the bridge open?", "The bridge is open."),
    ("Edgar Valdez.", "Edgar Valdez is a suspected drug lord."),  # a name is there all the same
])
def test_what_the_source_asserts_still_passes_beside_those_traps(claim, source):
    assert verdict(claim, source).label == SUPPORTED


@pytest.mark.parametrize("claim,source", [
    ("The chief executive of Acme is Jane Doe.", "Acme's chief executive is Jane Doe."),
    ("Acme's chief executive is Jane Doe.", "The chief executive of Acme is Jane Doe."),
    ("The population of Lyon grew.", "Lyon's population grew."),
])
def test_a_possessive_restated_with_of_passes(claim, source):
    assert verdict(claim, source).label == SUPPORTED


def test_the_reasons_say_what_did_not_align():
    assert "'All' is not in the source" in verdict(
        "All of the rooms have a balcony.", "Some of the rooms have a balcony.").reason
    assert "'spirit' is not in the source" in verdict(
        "The set includes a hammer, pliers, a saw and a spirit level.",
        "The set includes a hammer, pliers and a saw.").reason
    assert verdict("Dublin is warmer than Lisbon in March.",
                   "Lisbon is warmer than Dublin in March.").reason == (
        "the source says 'Dublin' and 'warmer', but not with the rest of the sentence: "
        "'Lisbon is warmer than Dublin in March.'")
    # side by side: the word in the sentence and the source's word in its slot
    assert verdict("The bridge was painted in 1932.", "The bridge was repaired in 1932.").reason == (
        "the sentence says 'painted', the source says 'repaired': not known to mean the "
        "same here")
    # what the source says in between, which the sentence leaves out
    assert verdict("The museum opened a wing in 2004.",
                   "The museum opened a temporary wing in 2004.").reason == (
        "the source says 'temporary' between 'opened' and 'wing', which the sentence leaves "
        "out")
    # no dump of a clause's content words: the source's sentences are quoted as written
    reason = verdict("The bridge was painted red for the opening.",
                     "The bridge was painted in 1932. Red flags flew at the opening.").reason
    assert reason == ("the source says 'bridge' and 'painted', but not with the rest of the "
                      "sentence: 'The bridge was painted in 1932.'"), reason


@pytest.mark.parametrize("claim,source", [
    ("The set includes a saw, pliers and a hammer.", "The set includes a hammer, pliers and a saw."),
    ("The fee is two hundred and fifty euros.", "The fee is 250 euros."),  # no list: a number
    ("Some 300 staff work at the plant.", "About 300 staff work at the plant."),  # a hedge
    ("It comes with a 5-year guarantee.", "It comes with a 5 year guarantee."),
])
def test_restatements_pass(claim, source):
    assert verdict(claim, source).label == SUPPORTED


def test_a_changed_value_with_its_unit_is_a_clear_contradiction():
    claim, source = "The lease has a 12-month break clause.", "The lease has an 18-month break clause."
    found = check(claim, evidence(source))
    assert found.kind == "value" and "'18-month'" in found.reason, found
    ruled = Cascade(contradictions=True).decide(claim, evidence(source))
    assert ruled is not None and ruled.label == CONTRADICTED


@pytest.mark.parametrize("claim,source,label", [
    ("The pallet holds forty-eight boxes.", "The pallet holds 48 boxes.", SUPPORTED),
    ("The pallet holds 48 boxes.", "The pallet holds forty-eight boxes.", SUPPORTED),
    ("The pallet holds fifty boxes.", "The pallet holds 48 boxes.", CONTRADICTED),
    ("The loan is repaid over twenty years.", "The loan is repaid over 25 years.", CONTRADICTED),
    # a written-out count of four digits is a count, not a year
    ("The archive holds twelve hundred letters.", "The archive holds 1,200 letters.", SUPPORTED),
])
def test_written_out_numbers_are_numbers(claim, source, label):
    assert verdict(claim, source).label == label


def test_the_opposites_table_is_consistent():
    assert concepts("excluded") == (("~include", True),)
    assert concepts("cheaper") == (("~cheap", False),)
    assert ("~high", True) in concepts("lower") and ("~increase", True) in concepts("lower")
    poles: dict[str, set[bool]] = {}
    for word, named in _CONCEPTS.items():
        keys = [key for key, _ in named]
        assert len(keys) == len(set(keys)), word  # no word on both poles of one concept
        for key, second in named:
            poles.setdefault(key, set()).add(second)
    assert all(both == {False, True} for both in poles.values())


# The labelled sets: every case through the validator (real embedder, real FAISS) with the
# local judge. It fails closed: no ungrounded text passes, whatever its kind; the price is
# grounded texts it cannot align (paraphrase), which fail: at most half of them.
SETS = ("local_judge_suite.jsonl", "local_judge_heldout.jsonl", "local_judge_blind.jsonl")


def test_the_labelled_set_has_enough_cases_types_and_honest_controls():
    cases = load_cases(DATA / "local_judge_suite.jsonl")
    types = Counter(case.type for case in cases)
    assert len(cases) >= 120 and len(types) >= 15 and min(types.values()) >= 5
    assert 0.25 <= sum(case.label for case in cases) / len(cases) <= 0.75  # all-pass scores badly
    for case in cases:
        for sentence in case.sentences:
            assert all(any(s in source for source in case.sources) for s in sentence.evidence)


@pytest.mark.parametrize("name", SETS)
def test_the_labelled_set_meets_the_targets(name):
    cases = load_cases(DATA / name)
    judge = LocalJudge()
    outcomes = [run_case(lambda options: ProvenanceLLM(llm_callable=judge, **options), case)
                for case in cases]
    wrong_passes = [o.example.id for o in outcomes if o.passed and not o.example.label]
    assert wrong_passes == []
    grounded = [o for o in outcomes if o.example.label]
    wrong_fails = [o.example.id for o in grounded if not o.passed]
    assert len(wrong_fails) <= 0.5 * len(grounded), wrong_fails


def test_the_groundedness_suite_passes_nothing_ungrounded_with_the_local_judge():
    """The GroUSE-style suite written for LLM judges: paraphrase and synthesis are beyond the
    rules, but a changed value in any form (a bound, a hedge, a pronoun-led sentence) never
    passes."""
    judge = LocalJudge()
    outcomes = [run_case(lambda options: ProvenanceLLM(llm_callable=judge, **options), case)
                for case in load_cases(DATA / "groundedness_suite.jsonl")]
    assert [o.example.id for o in outcomes if o.passed and not o.example.label] == []


def test_a_supported_reason_quotes_the_source_sentence_as_written():
    first = "The museum opened in 1901."
    second = ("When it opened, the hall was 90 metres long, and it remained the longest hall in "
              "the city until the station was finished in 1932.")
    found = verdict("It was the longest hall in the city until 1932.", f"{first} {second}")
    assert found.label == SUPPORTED and found.reason == f"the source states it: {second!r}"


def test_a_quote_is_the_sentence_that_states_the_fact_with_its_pronoun_named():
    """"It opened in 1793" states the date; the sentence before only names the Louvre. Read
    so, it states "The Louvre opened in 1793." word for word."""
    source = ("The Louvre is in Paris. It opened in 1793. It is the world's most-visited "
              "museum.")
    assert check("The Louvre opened in 1793.", evidence(source)).kind == "verbatim"
    found = check("In 1793, the Louvre opened.", evidence(source))
    assert found.kind == "aligned" and found.quotes == ("[The Louvre] opened in 1793.",)
    assert found.reason == "the source states it: '[The Louvre] opened in 1793.'"


LONG = ("Gifts, purchases and the spoils of several campaigns had filled the rooms of the palace "
        "for two long centuries, and the state had taken them over after the revolution; in "
        "1803 the royal collection was moved to the Grand Gallery of the Louvre.")


def test_a_long_sentence_is_quoted_around_what_the_claim_matched():
    found = check("the Grand Gallery", evidence(LONG))
    assert found.kind == "mention" and len(found.quotes[0]) <= 200
    assert found.quotes[0].startswith("...") and "Grand Gallery" in found.quotes[0]


def test_a_word_said_elsewhere_is_quoted_around_where_it_is_said():
    found = check("The royal collection was moved to the Grand Gallery in 1803.", evidence(LONG))
    assert found.kind == "unaligned" and "'1803'" in found.reason
    quote = found.reason.split(": ", 1)[1]
    assert "1803" in quote and quote.startswith("'...")


@pytest.mark.parametrize("file", sorted(p.name for p in PAIRS.glob("*.jsonl")))
def test_every_supported_pair_quotes_a_sentence_holding_its_numbers_and_names(file):
    """The quote is what the verdict rests on: it holds the claim's numbers, dates and names
    (benchmarks/bench_explanations.py counts the same over the labelled sets and HaluEval)."""
    misses = []
    for line in (PAIRS / file).read_text(encoding="utf-8").splitlines():
        pair = json.loads(line)
        found = check(pair["claim"], evidence(pair["source"]))
        if found.supported and found.quotes:
            said, held = read_facts(pair["claim"]), [read_facts(q) for q in found.quotes]
            if not all(any(q.stated_by(k) for h in held for k in h.quantities)
                       for q in said.quantities) or not all(
                    any(y in h.years for h in held) for y in said.years) or not all(
                    any(n in h.names or n in h.words for h in held) for n in said.names):
                misses.append((pair["claim"], found.quotes))
    assert misses == []


@pytest.mark.parametrize("name,size,classes,widened", [
    ("traps.jsonl", 200, 36, {"scope_place_widened", "scope_group_widened"}),
    ("traps_2.jsonl", 160, 10, {"scope_widened"}),
])
def test_trap_sets_written_apart_from_the_rules_pass_nothing_but_a_widened_scope(
        name, size, classes, widened):
    """Claims that reuse their source's words but are not stated by it (roles, attribution,
    conditions, plans, modality, numbers' roles and units, dates, titles, alternatives, ...),
    written for this test without reading the rules (``pairs/``). What may still pass: a group
    or place the source restricts after the statement or before its head, left out."""
    traps = [json.loads(line) for line in (PAIRS / name).open()]
    assert len(traps) == size and len({t["class"] for t in traps}) == classes
    judge = LocalJudge()
    passed = [(t["class"], t["claim"]) for t in traps
              if judge.judge(t["claim"], evidence(t["source"])).label == SUPPORTED]
    assert {kind for kind, _ in passed} <= widened and len(passed) <= 3, passed


def test_true_restatements_written_apart_from_the_rules_mostly_pass():
    """150 claims a strict reader finds stated by their source, restated as an LLM answer
    would (24 kinds: details left out, voice, word order, synonyms, formats, ranges, lists,
    pronouns, ...), written for this test without reading the rules
    (``pairs/restatements.jsonl``).
    The rules fail closed on what they cannot prove, so not all pass; 111 do now (106 when this was
    written), and fewer means a restatement was lost."""
    pairs = [json.loads(line) for line in (PAIRS / "restatements.jsonl").open()]
    assert len(pairs) == 150
    judge = LocalJudge()
    passed = sum(judge.judge(p["claim"], evidence(p["source"])).label == SUPPORTED
                 for p in pairs)
    assert passed >= 111, passed


@pytest.mark.parametrize("block", [b for b in BLOCKS if "/" in b.shown_by[0]],
                         ids=lambda b: b.shown_by[0])
def test_each_check_that_blocks_a_statement_is_shown_by_the_trap_classes_it_names(
        block, monkeypatch):
    """Without the check, some trap of each class it names passes: the table says true."""
    named = {tuple(entry.split("/")) for entry in block.shown_by}
    traps = [pair for file in {f for f, _ in named}
             for pair in map(json.loads, (PAIRS / f"{file}.jsonl").read_text().splitlines())
             if (file, pair["class"]) in named]
    held = {(t["class"], t["claim"]) for t in traps
            if check(t["claim"], evidence(t["source"])).supported}
    monkeypatch.setattr(alignment, "BLOCKS", tuple(b for b in BLOCKS if b is not block))
    checker.CHECKED.clear()  # decided once a claim: forget what the table decided
    passed = {(t["class"], t["claim"]) for t in traps
              if check(t["claim"], evidence(t["source"])).supported} - held
    assert {kind for _, kind in named} <= {kind for kind, _ in passed}
