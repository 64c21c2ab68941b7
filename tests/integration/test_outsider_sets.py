"""The hostile sets written from the docs alone (``tests/data/outsider``), each run by its own
runner as a user would run it: no hang, no crash, and nothing passes that must fail beyond the
limits docs/failure-behaviour.md names, each listed here with the reason."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import REPO

OUTSIDER = REPO / "tests" / "data" / "outsider"

# (judge kind, case id) -> why it still passes: the documented limits
CONTENT_LIMITS = {
    ("llm", "cae-user-quotes-you-said"): "a user turn is shown to an LLM judge as context; a "
                                         "judge that takes the user's quote of the assistant as "
                                         "evidence is not caught",
    ("llm", "dc-german"): "disclaimers are read in English",
}
# The rules read "can't go" as a qualifier; and a statement attributed after it ("..., the owners
# announced") is its speaker's word (docs/failure-behaviour.md), which this set, written before,
# took as a plain statement.
CONTENT_FALSE_ALARMS = {("rules", "rc-true-euros"), ("rules", "sna-true-factory")}
# Agent answers the rules still pass that must fail: the documented limits, by set
_RELATION = "which side of a relation a name is on (from/to, follows, parent of) is not read"
_QUANTIFIER = "a claim of all or both is judged against one record"
_LATER = "every result that answers a call is evidence: a later call does not retract an earlier"
_ENUM = ("an enum does not deny its other values: the user's word against `status` is the "
         "user's to ground")
_KEY_WORDS = ("a key's words that change what its value says beyond the checker's qualifiers "
              "(to_be, by, after, since; a tense) are not read")
_PREFIX = "a name that is the start of another record's name finds that record"
_PRONOUN = "a sentence is judged alone: 'it' in the next sentence is not bound to the record"
_SOURCE = "a source that gives another value without naming the record's own identifier"
_JSON_SOURCE_ERROR = "a JSON source is a document: an error in it is not read as a failed call"
AGENT_LIMITS = {
    "cases.jsonl": {
        "counts_units-09": "a temperature's unit is not read: `temp_c: 21` against '21°F'",
        "booleans-16": "a number is a number: `delivered: 0` is not read as false",
        "json_source-07": _JSON_SOURCE_ERROR,
        "tool_vs_source-15": _ENUM, "tool_vs_source-16": _ENUM,
    },
    "cases-second.jsonl": {
        **dict.fromkeys(("wrong_relation-016", "field_swap_tight-387", "relation_tight-422",
                         "relation_tight-423"), _RELATION),
        **dict.fromkeys(("count_plural-111", "count_tight-454", "count_tight-455",
                         "count_tight-456"), _QUANTIFIER),
        **dict.fromkeys(("override_ambiguous-192", "override_ambiguous-196",
                         "override_tight-521", "override_tight-522"), _LATER),
        **dict.fromkeys(("anthropic_mixed-251", "cross_evidence-298", "cross_evidence_tight-513",
                         "cross_evidence_tight-516"), _ENUM),
        **dict.fromkeys(("status_mention_tight-368",
                         "modality_tight-376", "modality_tight-377", "modality_tight-379",
                         "modality_tight-380"), _KEY_WORDS),
        **dict.fromkeys(("entity_prefix-543", "entity_prefix-544", "entity_prefix-546",
                         "entity_prefix-547"), _PREFIX),
        **dict.fromkeys(("pronoun_cross_record-549", "pronoun_cross_record-551"), _PRONOUN),
        **dict.fromkeys(("cross_evidence_tight-518", "cross_evidence_tight-520"), _SOURCE),
        "field_swap-048": "'on sale for' names no field: `list_price` and `sale_price` are "
                          "told apart only by a word of the key",
        "field_swap_tight-390": "two e-mail addresses that differ in one letter are one word",
        "json_source-242": _JSON_SOURCE_ERROR,
    },
}
# False alarms, mostly paraphrase beyond word forms and the synonym table
AGENT_FALSE_ALARMS = {"cases.jsonl": 13, "cases-second.jsonl": 31}
JUDGES_LIMITS = {
    "ra_reason_german": "a reason is read for another verdict in English",
    "ra_reason_negated_quote": "'does not say this' is how a supported refusal is reasoned too",
    "ra_prose_against_then_json": "only the object that ends a reply is read",
}


def run(*command: str, timeout: float) -> str:
    done = subprocess.run([sys.executable, *command], capture_output=True, text=True,
                          timeout=timeout, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.slow
def test_the_content_set_passes_nothing_it_must_fail_beyond_the_documented_limits():
    rows = [json.loads(line) for line in run(
        str(OUTSIDER / "content" / "run.py"), "--judge", "all", "--json",
        timeout=1200).splitlines() if line.startswith("{")]
    assert len(rows) >= 350
    wrong = {(r["judge"], r["id"]): r["status"] for r in rows if r["status"] != "ok"}
    # a Guard with on_fail="exception" raises ValidationError: it failed closed, as it should
    crashes = {key for key, status in wrong.items() if status == "crash"}
    assert all("guard-exception" in case for _, case in crashes), crashes
    assert not [key for key, status in wrong.items() if status == "hang"]
    fail_open = {key for key, status in wrong.items() if status == "fail_open"}
    assert fail_open <= set(CONTENT_LIMITS), fail_open - set(CONTENT_LIMITS)
    false_alarms = {key for key, status in wrong.items() if status == "false_alarm"}
    assert false_alarms <= CONTENT_FALSE_ALARMS, false_alarms


# The language set (tests/data/outsider/language): what still passes that must fail, each a
# limit docs/failure-behaviour.md names, and the true cases that still fail, each a
# restatement the rules do not read (docs/design/reading.md)
LANGUAGE_LIMITS = {
    "fr-quote-promised": "a source's report of what someone said is how documents state "
                         "things: a quoted promise is read as the source's own",
    "rs-paid-zero": "a number is a number: `paid: 0` is not read as false",
    "rs-renews-on": "a key's tense is not read: `renews_on` against 'renewed'",
    "sl-part-time": "a group the source narrows before its head, left out ('part-time staff' "
                    "states 'staff')",
}
LANGUAGE_FALSE_ALARMS = {
    "fr-true-fronted-phrase", "fr-true-user-yesterday", "os-true-list-reordered",
    "os-true-sensor-active", "os-true-json-field", "rs-true-unit-key", "ac-true-user-refunded",
    "vk-true-json-code", "sl-true-after-phrase", "sl-true-other-side", "sl-true-middle-adverb",
    "sl-true-middle-adjective",
}


def test_the_language_set_passes_nothing_it_must_fail_beyond_the_documented_limits():
    rows = [json.loads(line) for line in run(
        str(OUTSIDER / "language" / "run.py"), "--judge", "all", "--json",
        timeout=1200).splitlines() if line.startswith("{")]
    assert len(rows) >= 340
    wrong = {r["id"]: r["status"] for r in rows if r["status"] != "ok"}
    assert not [case for case, status in wrong.items() if status in ("hang", "crash")], wrong
    fail_open = {case for case, status in wrong.items() if status == "fail_open"}
    assert fail_open <= set(LANGUAGE_LIMITS), fail_open - set(LANGUAGE_LIMITS)
    false_alarms = {case for case, status in wrong.items() if status == "false_alarm"}
    assert false_alarms <= LANGUAGE_FALSE_ALARMS, false_alarms - LANGUAGE_FALSE_ALARMS


@pytest.mark.slow
def test_the_judge_set_has_no_hang_no_crash_and_no_open_pass_on_invalid():
    found = json.loads(run(str(OUTSIDER / "judges" / "run.py"), "--json", "--jobs", "1",
                           timeout=1800))
    results = found["results"]
    assert len(results) >= 190
    # a wedge (no result within a minute), a dead process, or an error reaching the caller;
    # the runner's own seconds, fixed for an idle machine, are the timed tests' to check
    # (test_raising_judges, test_hung_judge: bounds measured against the machine's pace)
    assert not [r["id"] for r in results if r["outcome"] in ("hang", "dead") or r["crash"]]
    open_ = {(r["cls"], r["id"]) for r in results if r["fail_open"] or r["false_alarm"]}
    by_class = {cls for cls, _ in open_}
    assert "pass_on_invalid" not in by_class and "judge_raises_or_blocks" not in by_class, open_
    bad = open_
    # replies that argue: only the documented limits
    argues = {case for cls, case in bad if cls == "reply_argues"}
    assert argues <= set(JUDGES_LIMITS), argues - set(JUDGES_LIMITS)
    # controls: a judge that reads their shape is caught on some calls, not all; fewer than
    # half of the dodges may pass
    dodged = [r for r in results if r["cls"] == "controls_dodged" and r["expect"] == "must_fail"]
    assert sum(r["fail_open"] for r in dodged) < len(dodged) / 2


@pytest.mark.parametrize("name", sorted(AGENT_LIMITS))
def test_the_agent_sets_pass_nothing_they_must_fail_beyond_the_documented_limits(name):
    from provenance_guard import ProvenanceLLM

    validator = ProvenanceLLM(llm_callable="local", on_fail="noop")
    cases = [json.loads(line) for line in (OUTSIDER / "agents" / name).read_text(
        encoding="utf-8").splitlines() if line]
    assert len(cases) >= 390
    wrong_passes, wrong_fails = set(), set()
    for case in cases:
        report = validator.check(case["text"], {"messages": case["messages"],
                                                "sources": case["sources"]})
        if report.passed != (case["expected"] == "pass"):
            (wrong_passes if report.passed else wrong_fails).add(case["id"])
    assert wrong_passes <= set(AGENT_LIMITS[name]), wrong_passes - set(AGENT_LIMITS[name])
    assert len(wrong_fails) <= AGENT_FALSE_ALARMS[name], sorted(wrong_fails)


# The grounding set (tests/data/outsider/grounding): what the sources say of a user's record
# outweighs the user's word, however deep the passage. Limits: a name the sources give
# otherwise, with no value or code to hold it by (a plan's name), passes with the offline rules
# (an LLM judge reads it); a value of the same measure the sources give of something else (a
# rate for new customers, another plan's price) holds a true restatement back: it fails closed.
GROUNDING_LIMITS = {"F08": "a plan's name the sources give otherwise, with no value or code"}
GROUNDING_FALSE_ALARMS = {"P04", "P06", "P12", "P09"}  # P09: an average home's kWh


def test_the_grounding_set_lets_no_buried_record_be_outweighed_by_the_user():
    from provenance_guard import ProvenanceLLM

    validators: dict = {}

    def passed(case: dict) -> bool:
        top_k = case.get("top_k", 3)
        validator = validators.setdefault(top_k, ProvenanceLLM(
            llm_callable="local", on_fail="noop", top_k=top_k))
        return validator.check(case["text"], {"sources": case["sources"],
                                              "messages": case["messages"]}).passed

    _held_to_its_limits("grounding", 40, passed, GROUNDING_LIMITS, GROUNDING_FALSE_ALARMS)


def _held_to_its_limits(name: str, least: int, passed, limits: dict, false_alarms: set) -> None:
    """Each case of the set ``name`` (at least ``least`` of them) run by ``passed``: those that
    pass but must fail are named limits, and those that fail but must pass named false
    alarms."""
    cases = [json.loads(line) for line in
             (OUTSIDER / name / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(cases) >= least
    outcomes = {case["id"]: (passed(case), case["expect"] == "pass") for case in cases}
    wrong = {key: did for key, (did, due) in outcomes.items() if did != due}
    fail_open = {key for key, did in wrong.items() if did}
    assert fail_open <= set(limits), fail_open - set(limits)
    alarms = {key for key, did in wrong.items() if not did}
    assert alarms <= false_alarms, alarms - false_alarms


# The values set (tests/data/outsider/values): bounds, money in records, months, and which
# record a claim is read against. Limits: a claim of both items judged against one; a record
# whose status says the order was cancelled still states when it shipped; a bound against a
# range in prose, a fronted time, a noun naming a record's kind ("the Basic plan"), "early" or
# "mid" May, a weaker modal, a table's header currency: they fail closed.
VALUES_LIMITS = {"r138": "a claim of both items judged against one record",
                 "d126": "a cancelled order's shipping date (arguable)"}
VALUES_FALSE_ALARMS = {"b011", "b169", "d096", "r144", "d094", "d098", "d125", "r146", "r161"}


def test_the_values_set_reads_each_value_by_its_kind():
    from provenance_guard import ProvenanceLLM

    validator = ProvenanceLLM(llm_callable="local", on_fail="noop")
    _held_to_its_limits("values", 150, lambda case: validator.check(
        case["claim"], {"sources": case["sources"]}).passed, VALUES_LIMITS, VALUES_FALSE_ALARMS)


# The reading sets (tests/data/outsider/reading, reading_2): frames, one statement as one
# proof, values by kind, records, who did it, what a user turn grounds. Limits
# (docs/failure-behaviour.md): what is done as a rule ("Deposits are returned by bank
# transfer") is read as said of yours; a cancelled order's shipping date; what members
# may do is said of "you"; a quoted promise is the source's report; `paid: 0` is a number; a
# restriction left out after a negation. The true cases that fail closed: an adverb or
# adjective left out, a decade, a range in the claim, "non-" for "not", a change's start and
# end read as a range ("rose from €2 to €3"), a hedge said back to the user, and the like.
READING_LIMITS = {
    "reading": {"r009": "a cancelled order's shipping date (arguable)",
                "a109": "what members may do, said of 'you' (arguable)"},
    "reading_2": {"c017": "what is done as a rule, read as said of yours",
                  "f054": "a quoted promise is the source's report (arguable)",
                  "r049": "`paid: 0` is a number (arguable)",
                  "a029": "a restriction left out after a negation (arguable)",
                  "c035": "the user's landlord's act, said back (arguable)"},
}
READING_FALSE_ALARMS = {
    "reading": {"s119", "s120", "v127", "a107", "a114", "c040"},
    "reading_2": {"f120", "s116", "s117", "v118", "v121", "v130", "r127", "a108", "c115"},
}


@pytest.mark.parametrize("name", sorted(READING_LIMITS))
def test_the_reading_sets_hold_to_their_named_limits(name):
    from provenance_guard import ProvenanceLLM

    validator = ProvenanceLLM(llm_callable="local", on_fail="noop")
    _held_to_its_limits(name, 380, lambda case: validator.check(
        case["text"], case["metadata"]).passed, READING_LIMITS[name], READING_FALSE_ALARMS[name])


# The frames set (tests/data/outsider/frames): reports against findings, timestamps in prose,
# disclaimers with something asserted after them, claims that say less than their source.
# Limits (docs/failure-behaviour.md): a noun the cue table does not name, before "that", read
# as the head of a relative clause; a verb of reporting before a clause with no "that" and no
# past or modal verb; a finding taken back elsewhere in its passage; a restriction after its
# head. The true cases
# that fail closed: a relative clause or a clause under "that" left out, "UTC" for "Z", a zone
# converted, "14.30", a timestamp between a subject and its verb, a closing place before the
# date, a list of objects with numbers read as one.
_REPORT_NOUN = "a noun before 'that' that the cue table does not name is read as the head " \
               "of a relative clause ('announced in a press release that')"
_BARE_REPORT = "a verb of reporting before a clause with no 'that' and no past or modal verb"
_TAKEN_BACK = "a finding taken back in an aside, a later sentence or 'was not replicated' " \
              "(arguable)"
_NARROWED = "a group, time or place the source narrows by, left out ('in mice', 'on Sundays')"
FRAMES_LIMITS = {
    "rf114": _REPORT_NOUN,
    **dict.fromkeys(("rf013", "rf014", "rf054"), _BARE_REPORT),
    **dict.fromkeys(("rf056", "rf121", "rf128"), _TAKEN_BACK),
    **dict.fromkeys(("ot007", "ot027", "ot030", "ot039", "ot049", "rf129"), _NARROWED),
    "rf033": "a quoted promise is the source's report (arguable)",
    "dc019": "a refusal is judged by its words: 'the entry price' against 'Entry costs'",
    "ot046": "'temporary' left out (arguable)", "ot048": "'prototype' left out (arguable)",
}
FRAMES_FALSE_ALARMS = {
    "rf076", "rf077", "rf079", "rf081", "rf082", "rf083", "rf089", "rf093", "rf097", "ts031",
    "ts036", "ts043", "ts057", "dc021", "dc037", "ot011", "ot038",
}


# The set of claims that say less than their source (tests/data/outsider/saying_less), written
# blind from the docs once a claim could leave out what a thing is said to be. Limits
# (docs/failure-behaviour.md): a finding taken back in a later sentence. True cases that fail
# closed: a participle with an adverb before its agent ("wholly owned by"), a linking verb
# other than "is", "was" and "has been" ("remains", "became"), the words before a noun left out
# without the noun, a word that makes the thing another though what follows holds ("a former
# senator who lives in Boston"), a noun read as a changer ("an office block"), an ordinal of a
# group ("the second of three ships that"), a phrase before "that" other than "in" and one
# name, one of several verbs after "that", a source sentence that opens with a pronoun.
SAYING_LESS_LIMITS = {"sl248": _TAKEN_BACK}
SAYING_LESS_FALSE_ALARMS = {
    "sl023", "sl024", "sl027", "sl044", "sl045", "sl046", "sl047", "sl048", "sl049", "sl076",
    "sl078", "sl101", "sl103", "sl119", "sl132", "sl150", "sl177", "sl188", "sl189", "sl190",
    "sl194", "sl201", "sl207", "sl217", "sl223", "sl235", "sl263", "sl268", "sl303",
}


# The second set of claims that say less (tests/data/outsider/saying_less_2), written blind
# from the docs once the shapes after the noun were widened (a participle, "one of", a place's
# name before "that", a measure). Limits (docs/failure-behaviour.md): all arguable (a
# restriction after the statement left out, a true claim the docs say fails closed). True cases
# that fail closed: a word the concept table gives no
# opposite after the noun ("rich in", "popular with"), a noun in "-ing" or "-ly" before a
# participle ("a reading room", "family-run"), a clause of belief or want on the subject, an
# object relative read as a passive, "whose", a month with "late" or "each", an aside, a
# place before "that" other than "in" and one name ("from Gdansk that", "on Keizersgracht
# that"): a name may take "that".
SAYING_LESS_2_LIMITS = dict.fromkeys(("ls184", "ls211", "ls214", "ls250", "ls375", "ls414",
                                      "ls422", "ls444", "ls535", "ls543"), "arguable")
SAYING_LESS_2_FALSE_ALARMS = {
    "ls193", "ls197", "ls297", "ls298", "ls299", "ls300", "ls301", "ls303", "ls304", "ls305",
    "ls415", "ls433", "ls439", "ls447", "ls448", "ls452", "ls466", "ls476", "ls477", "ls483",
    "ls509", "ls514", "ls547", "ls561",
}

# The third set of claims that say less (tests/data/outsider/saying_less_3), written blind from
# the docs after lists of measures and counts were read one statement an item and a dated past
# of any verb was no present. Limits (docs/failure-behaviour.md): a plural possessive
# ("researchers' families"); a frame after the statement ("in the film", "according to a local
# legend", "in a dream"); the rest arguable. True cases that fail closed: a list item with a
# phrase of its own ("12 designers in Bergen", "$12 for students"), two verbs of two tenses, an
# object relative after "one of", "last year" after a passive's agent, "forged".
_AFTER = "a frame after the statement"
SAYING_LESS_3_LIMITS = {
    **dict.fromkeys(("lv496", "lv497", "lv498"), "a plural possessive"),
    **dict.fromkeys(("lv506", "lv507", "lv508", "lv509", "lv510"), _AFTER),
    **dict.fromkeys(("lv252", "lv279", "lv280", "lv281", "lv282", "lv331", "lv332", "lv371"),
                    "arguable"),
}
SAYING_LESS_3_FALSE_ALARMS = {"lv113", "lv116", "lv120", "lv125", "lv186", "lv225", "lv421",
                              "lv487"}

# The set on which of two people was born first (tests/data/outsider/born_first). Limits:
# a span after a name that is no lifespan but reads as one, and a source that says the
# opposite in prose beside the brackets (both arguable). True cases that fail closed: a year
# BC, "Sir" before a name, a nickname in quotation marks (no proof stands in a quoted
# passage), "the elder", an answer that says more than the name.
BORN_FIRST_LIMITS = {"bf089": "a term of office read as a lifespan (arguable)",
                     "bf155": "a prose statement beside the brackets is not read (arguable)"}
BORN_FIRST_FALSE_ALARMS = {"bf009", "bf023", "bf029", "bf030", "bf033", "bf036", "bf044",
                           "bf045"}


# The set on the one reading as a whole (tests/data/outsider/one_reading), written blind from
# the docs once texts were read into plain statements. Limit (arguable): a quotation after a
# colon and a verb of saying. True cases that fail closed: "taller" against "shorter" (the
# concept table has no "tall"), sarcasm over a true fact, a question answered in the next
# sentence, an asserting frame in the claim, "respectively", a comparison of two measures,
# "key: value" lines, a key said in other words, a phrase before "that", an adjective, a
# date in German, a decade for a year, "has been closed since" for "was closed in",
# "formerly".
ONE_READING_LIMITS = {"ol370": "a quotation after a colon and a verb of saying (arguable)"}
ONE_READING_FALSE_ALARMS = {
    "ol033", "ol050", "ol052", "ol060", "ol076", "ol094", "ol129", "ol133", "ol185", "ol190",
    "ol227", "ol272", "ol306", "ol313",
}


# The set that checked the fourth probe's fixes by class (tests/data/outsider/
# saying_it_again), written blind from the docs. Limits: an allowed opener before an adverb in
# "-ly" ("Oh, totally, ..." reads as "Sadly, ..." does); a noun of saying the cue table does not
# name ("spread the story that"); the rest arguable. True cases that fail closed: comparisons
# the concept table has no pair for ("deeper", "shallower", "dearer") or in another shape
# ("Rents in X are higher than in Y"), "until" before an event, a finding whose clause is in
# the past, "used to be" for "was", two fronted phrases, a framing noun before a relative
# clause ("the rumour that spread"), a time to come moved, "will", "timber-framed", an active
# source for a passive claim with no agent.
SAYING_IT_AGAIN_LIMITS = {
    "hp269": "an allowed opener before an adverb in '-ly' ('Oh, totally,')",
    "hp135": "a noun of saying the cue table does not name ('the story that')",
    **dict.fromkeys(("hp097", "hp178", "hp255"), "arguable"),
}
SAYING_IT_AGAIN_FALSE_ALARMS = {
    "hp033", "hp040", "hp052", "hp119", "hp139", "hp140", "hp186", "hp188", "hp189", "hp195",
    "hp226", "hp227", "hp230", "hp260", "hp282",
}


# The set on records, turns, refusals and frames (tests/data/outsider/records_and_turns),
# written blind from the docs once every wording of how a text stands to what it says was a row
# of the cue table. Limits: a user's sentence about a place they call theirs ("my pharmacy")
# read as about the user; a condition in the second of two coordinated clauses; two refusals
# worded otherwise (arguable). True cases that fail closed: a key said in other words ("worth"
# for `value`, "price" for `amount`), a refusal that a passage answers in part ("closed on
# Mondays" for "when it closes"), a refusal that names no sources, the failure told in a
# result's own words beside a limit the result gives ("less than 24 hours"), and arguable
# ones (a sibling item's error, "Error budget", implicative verbs, an attribution moved).
RECORDS_AND_TURNS_LIMITS = {
    "rt193": "a user's sentence about a place they call theirs, read as about the user",
    "rt368": "a condition in the second of two coordinated clauses",
    **dict.fromkeys(("rt232", "rt260"), "a refusal worded otherwise (arguable)"),
}
RECORDS_AND_TURNS_FALSE_ALARMS = {
    "rt013", "rt019", "rt076", "rt131", "rt136", "rt215", "rt219", "rt233", "rt243", "rt248",
    "rt255", "rt257", "rt267", "rt269", "rt311", "rt314", "rt353", "rt369",
}


@pytest.mark.parametrize("name,least,limits,false_alarms", [
    ("saying_it_again", 280, SAYING_IT_AGAIN_LIMITS, SAYING_IT_AGAIN_FALSE_ALARMS),
    ("records_and_turns", 370, RECORDS_AND_TURNS_LIMITS, RECORDS_AND_TURNS_FALSE_ALARMS),
    ("one_reading", 370, ONE_READING_LIMITS, ONE_READING_FALSE_ALARMS),
    ("frames", 330, FRAMES_LIMITS, FRAMES_FALSE_ALARMS),
    ("saying_less", 300, SAYING_LESS_LIMITS, SAYING_LESS_FALSE_ALARMS),
    ("saying_less_2", 570, SAYING_LESS_2_LIMITS, SAYING_LESS_2_FALSE_ALARMS),
    ("saying_less_3", 510, SAYING_LESS_3_LIMITS, SAYING_LESS_3_FALSE_ALARMS),
    ("born_first", 160, BORN_FIRST_LIMITS, BORN_FIRST_FALSE_ALARMS),
])
def test_the_sets_of_texts_and_sources_hold_to_their_named_limits(name, least, limits,
                                                                 false_alarms):
    from provenance_guard import ProvenanceLLM

    validator = ProvenanceLLM(llm_callable="local", on_fail="noop")
    _held_to_its_limits(name, least, lambda case: validator.check(
        case["text"], case["metadata"]).passed, limits, false_alarms)


# The pronoun set (tests/data/outsider/pronouns), written blind from the docs after a pronoun
# that opens a sentence was first read as the subject before it (118 of its 140 must-fail
# cases passed before). Limits (docs/failure-behaviour.md): a source that calls another thing
# by a one-word description ("The speaker plays for 20 hours" after another speaker), a
# pronoun that stands for the object or the later clause, or one the sentence before has no
# subject for ("Tourists flock to Lake Varna. It ..."), "he" and "she" read without gender, a
# heading, a name with a letter the rules read as an article ("Hall A"). The true cases that
# fail closed: the same object pronouns, a source that names it in part ("Petrov", "The X2")
# or with a word the claim leaves out ("now"), a weather "it", a question before.
PRONOUN_LIMITS = {
    "p014": "a possessive's thing, not the name's", "p030": "a lone passage's pronoun (arguable)",
    "p031": "a source's plural pronoun for another team",
    "p033": "a one-word description of another thing", "p034": "the same",
    "p035": "the same", "p036": "the same", "p037": "the same", "p038": "the same (arguable)",
    "p039": "the same", "p046": "a subject owned by another ('The studio's second director')",
    "p052": "a plural noun read as a verb ('junior doctors want')",
    "p059": "'he' read without gender", "p060": "'she' read without gender",
    "p065": "'he' read without gender (arguable)", "p071": "two candidates (arguable)",
    "p073": "the later clause's subject", "p076": "a pair for 'he'",
    "p122": "a subject with a relative clause",
    "p130": "a heading", "p137": "no subject the pronoun can stand for", "p138": "the same",
    "p139": "the same", "p140": "the same",
}
PRONOUN_FALSE_ALARMS = {"p159", "p160", "p171", "p177", "p184", "p189", "p192", "p193", "p194",
                        "p196", "p198", "p199", "p200", "p209", "p211", "p213", "p214", "p216",
                        "p219"}


def test_the_pronoun_set_holds_to_its_named_limits():
    from provenance_guard import ProvenanceLLM

    validator = ProvenanceLLM(llm_callable="local", on_fail="noop")
    _held_to_its_limits("pronouns", 200, lambda case: validator.check(
        case["text"], case["metadata"]).passed, PRONOUN_LIMITS, PRONOUN_FALSE_ALARMS)


# The answers set (tests/data/outsider/answers), written blind from the docs when a bare answer
# was first read in the question's place: a wrong answer proven is decided without the LLM by
# cheap first, so none may be. The true answers the docs say are proven and are not (they go
# to the LLM): restatements one reading does not undo, a matrix that states what follows ("It
# is true that ..."), a reordered list, a clause the rules do not cut.
ANSWERS_NOT_PROVEN = {
    "true-open-12": "a noun before the gap's verb ('Which river flows ...')",
    "true-open-17": "'is known as'", "true-open-29": "a list in another order",
    "true-open-30": "a restatement ('has a population of')",
    "long-06": "a source of 300 sentences, read in part",
    "true-more-05": "a name beside a negated one ('Ottawa, not Toronto')",
    "true-more-13": "the copula turned round with an acronym ('the CEO of Acme')",
    "true-more-29": "a speed unit", "true-more-34": "a second clause the rules do not cut",
    "true-more-41": "'It is true that'", "true-more-42": "'The study found that'",
    "true-more-43": "a participle that adds ('..., beating Jones')",
    "true-end-07": "the second of two participles joined by 'and' ('... and written by')",
    "true-open-04": "a closing phrase of time ('in the early 1500s')",
    "true-open-23": "a closing phrase of place ('in Vienna')", "true-more-39": "the same",
}


def _proven(validator, text: str, sources: list, question: str | None) -> bool:
    metadata = {"sources": sources} if question is None else {"sources": sources,
                                                              "question": question}
    verdicts = [s.verdict for s in validator.check(text, metadata).sentences
                if s.verdict is not None]
    return bool(verdicts) and all(v.proven for v in verdicts)


def _proofs_held(name: str, least: int, text: str, wrong, not_proven: dict) -> None:
    """Each case of the set ``name`` (at least ``least``) checked offline with its sources and
    question: none that is ``wrong`` proven, and the true ones not proven named limits."""
    from provenance_guard import ProvenanceLLM

    validator = ProvenanceLLM(llm_callable="local", on_fail="noop")
    cases = [json.loads(line) for line in
             (OUTSIDER / name / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(cases) >= least
    outcomes = {case["id"]: (_proven(validator, case[text], case["sources"], case["question"]),
                             case) for case in cases}
    leaks = {key for key, (did, case) in outcomes.items() if did and wrong(case)}
    assert not leaks, leaks
    missed = {key for key, (did, case) in outcomes.items() if case["expect_proven"] and not did}
    assert missed <= set(not_proven), missed - set(not_proven)


def test_the_answers_set_proves_no_wrong_answer():
    _proofs_held("answers", 600, "answer", lambda case: not case["answer_true"],
                 ANSWERS_NOT_PROVEN)


# The proofs set (tests/data/outsider/proofs), written blind from the docs after the answers
# set's findings were fixed: claims and bare answers, none of the must-not cases proven. The
# true ones not proven (they go to the LLM, or the offline judge supports them unproven): a
# closing phrase of place or time, which a proof does not leave out ("in mice" would be one),
# a title before a name (a word the claim leaves out), "how many" with do-support or a number
# word, markdown bold, a question in another language, a one-word apposition.
PROOFS_NOT_PROVEN = {
    "t-claim-03": "a closing phrase of time", "t-claim-08": "a closing phrase of place",
    "t-claim-11": "a title before the name ('Professor Hanna Berg')",
    "t-claim-26": "a closing phrase of place", "t-claim-29": "an apposition that closes it",
    "t-answer-10": "'how many' with do-support, a number word",
    "t-answer-11": "'how many' with do-support", "t-answer-26": "the same",
    "t-answer-33": "a title before the name", "t-answer-35": "an answer in markdown bold",
    "t-answer-37": "a question in Spanish", "t-answer-38": "a place before the year",
    "t-claim2-01": "a closing phrase of place", "t-claim2-04": "the same",
    "t-claim2-06": "the same", "t-claim2-08": "a closing phrase of time",
    "t-claim2-09": "the same", "t-claim2-13": "a closing place and date",
    "t-claim2-22": "a closing phrase of place", "t-answer2-01": "the same",
    "t-answer2-19": "an apposition that closes it", "t-answer2-26": "a closing phrase",
}


def test_the_proofs_set_proves_nothing_it_must_not():
    _proofs_held("proofs", 530, "text", lambda case: not case["expect_proven"],
                 PROOFS_NOT_PROVEN)
