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
CONTENT_FALSE_ALARMS = {("rules", "rc-true-euros")}  # the rules read "can't go" as a qualifier
# Agent answers the rules still pass that must fail: the documented limits
AGENT_LIMITS = {
    "counts_units-09": "a temperature's unit is not read: `temp_c: 21` against '21°F'",
    "booleans-16": "a number is a number: `delivered: 0` is not read as false",
    "json_source-07": "a JSON source is a document: an error in it is not read as a failed call",
    "injection-21": "'Answer: ...' is how a FAQ states things: not read as an instruction",
    "tool_vs_source-15": "an enum does not deny its other values: the user's 'it was delivered' "
                         "against `status: shipped` is the user's to ground",
    "tool_vs_source-16": "the same, for 'cancelled' against `status: shipped`",
}
AGENT_FALSE_ALARMS = 14  # paraphrase beyond word forms and the synonym table, most of them
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


def test_the_agent_set_passes_nothing_it_must_fail_beyond_the_documented_limits():
    from provenance_guard import ProvenanceLLM

    validator = ProvenanceLLM(llm_callable="local", on_fail="noop")
    cases = [json.loads(line) for line in (OUTSIDER / "agents" / "cases.jsonl").read_text(
        encoding="utf-8").splitlines() if line]
    assert len(cases) >= 390
    wrong_passes, wrong_fails = set(), set()
    for case in cases:
        report = validator.check(case["text"], {"messages": case["messages"],
                                                "sources": case["sources"]})
        if report.passed != (case["expected"] == "pass"):
            (wrong_passes if report.passed else wrong_fails).add(case["id"])
    assert wrong_passes <= set(AGENT_LIMITS), wrong_passes - set(AGENT_LIMITS)
    assert len(wrong_fails) <= AGENT_FALSE_ALARMS, sorted(wrong_fails)
