"""Each kind of prompt as one typed class (judges/outputs.py, judges/kinds.py): the schema a
provider is sent, the line of JSON the prompt shows and the reader all come from the kind's
output model, and the model's validators are the checks a reply is held to."""

import json
import re
from typing import Literal

import pytest
from pydantic import Field

from provenance_guard.evaluation.qa_prompts import COMPLETENESS, RELEVANCY, USEFULNESS
from provenance_guard.judges.kinds import BATCH, CLAIMS, ONE, REWRITE
from provenance_guard.judges.outputs import CONTRADICTS, Judgement, Output
from provenance_guard.judges.prompts import build_prompt
from provenance_guard.judges.replies import parse_reply
from provenance_guard.types import (
    INVALID,
    NO_CONTEXT,
    SUPPORTED,
    UNSUPPORTED,
    Evidence,
    FailureKind,
    Verdict,
)

KINDS = [(ONE, 1), (BATCH, 2), (CLAIMS, 1), (REWRITE, 1), (RELEVANCY, 1), (COMPLETENESS, 1),
         (USEFULNESS, 1)]


def _keys(schema: dict) -> list[list[str]]:
    """The keys of each object in a schema, outermost first."""
    found = []
    while True:
        found.append(list(schema["properties"]))
        inner = [p.get("items", {}) for p in schema["properties"].values()]
        objects = [i for i in inner if i.get("type") == "object"]
        if not objects:
            return found
        schema = objects[0]


@pytest.mark.parametrize("kinds", [False, True])
@pytest.mark.parametrize("kind, count", KINDS, ids=lambda k: getattr(k, "name", ""))
def test_the_prompts_line_of_json_and_the_schema_name_the_same_keys_in_the_same_order(
        kind, count, kinds):
    line = kind.ending(False, count, kinds)[0].splitlines()[-1]
    shown = [re.findall(r'"(\w+)": ', part) for part in re.split(r"\[\{", line)]
    assert shown == _keys(kind.schema(count, kinds))
    assert ("kind" in line) == (kinds and kind in (ONE, BATCH))


@pytest.mark.parametrize("kind, count", KINDS, ids=lambda k: getattr(k, "name", ""))
def test_the_structured_ending_shows_the_same_line_and_sends_its_schema(kind, count):
    free, no_form = kind.ending(False, count)
    structured, form = kind.ending(True, count)
    assert no_form is None and form["json_schema"]["schema"] == kind.schema(count)
    keys = re.compile(r'"(\w+)": ')  # the same keys; a text field "..." where its lead says it
    assert keys.findall(free.splitlines()[-1]) == keys.findall(structured.splitlines()[-1])


class Ticket(Output):
    """A made-up output: what the derivation makes of each type of field."""

    status: Literal["open", "closed"]
    note: str | None = Field(description="a line")
    urgent: bool
    hours: float = Field(description="hours spent")


def test_any_output_model_gives_a_strict_schema_and_a_line_of_json():
    assert Ticket.shape() == ('{"status": "open" | "closed", "note": null | "<a line>", '
                              '"urgent": true | false, "hours": <hours spent>}')
    schema = Ticket.strict_schema(leave_out=("hours",))
    assert list(schema["properties"]) == schema["required"] == ["status", "note", "urgent"]
    assert schema["additionalProperties"] is False and "title" not in json.dumps(schema)
    assert Ticket.read({"status": "shut", "urgent": True}) is None  # not a reply of this kind


def _judged(value: dict, untrusted=()) -> Verdict:
    read = Judgement.read(value, untrusted=untrusted, kinds=True)
    return read if isinstance(read, Verdict) else read.as_verdict()


def test_a_verdict_is_read_leniently_where_only_its_form_differs():
    assert _judged({"label": "Yes", "reason": "[1] says so"}).label == SUPPORTED
    assert _judged({"supported": False, "reason": {"why": "absent"}}).reason == '{"why": "absent"}'
    assert _judged({"verdict": "supported", "reason": "[1]", "score": 7}).score == 1.0


@pytest.mark.parametrize("value, says, withheld", [
    ({"verdict": "yes", "label": "no", "reason": "r"}, "under verdict and label", False),
    ({"verdict": "supported", "reason": "The claim is false: [1] gives 1887."}, "reason says",
     False),
    ({"verdict": "supported", "reason": "[1] says so", "confidence": "very low"},
     "confidence is 'very low'", False),
    ({"verdict": "unsupported", "reason": "supported"}, "its reason only 'supported'", False),
    ({"verdict": "contradicted", "reason": "[1] says nothing of a lift", "kind": "addition"},
     "not of what they say otherwise", True),  # it fails the sentence either way
])
def test_a_reply_that_argues_with_itself_is_refused_by_its_validators(value, says, withheld):
    verdict = _judged(value)
    assert verdict.label == INVALID and verdict.reason.startswith(CONTRADICTS)
    assert says in verdict.reason and verdict.withheld is withheld


def test_a_failing_verdicts_kind_is_read_onto_the_taxonomy():
    verdict = _judged({"verdict": "contradicted", "reason": "[1] gives 1887", "kind": "wrong year"})
    assert verdict.kind == FailureKind.DATE


def test_a_template_written_from_the_default_prompt_asks_what_the_default_asks():
    evidence = [Evidence("The tower was finished in 1889.")]
    default = ONE.ask(("It was finished in 1889.", evidence), NO_CONTEXT, False, None, True)
    own = ONE.ask(("It was finished in 1889.", evidence), NO_CONTEXT, False, ONE.template(), True)
    assert own.prompt == default.prompt and '"kind": null' in own.prompt
    assert build_prompt("S.", evidence, template=ONE.template()).count('"kind"') == 0


@pytest.mark.parametrize("grading, value, graded", [
    (RELEVANCY, {"reason": "r", "refuses": False, "relevancy": 4.0}, (4, "r")),
    (RELEVANCY, {"reason": "r", "refuses": True, "relevancy": 3}, (None, "r")),  # null is due
    (RELEVANCY, {"reason": "r", "refuses": True, "relevancy": "n/a"}, (None, "r")),
    (RELEVANCY, {"reason": "r", "refuses": False, "relevancy": None}, None),  # a score is due
    (RELEVANCY, {"reason": "r", "refuses": "false", "relevancy": 4}, None),  # not a yes or no
    (COMPLETENESS, {"reason": "r", "references_answer": True, "completeness": "5"}, None),
    (COMPLETENESS, {"reason": "r", "references_answer": True, "completeness": 6}, None),
    (USEFULNESS, {"reason": "r", "adds_information": True, "usefulness": 0}, (0, "r")),
    (USEFULNESS, {"reason": "r", "adds_information": True, "usefulness": True}, None),
])
def test_a_grading_reply_is_held_to_the_null_rule_by_its_model(grading, value, graded):
    from provenance_guard.judges.kinds import Reply

    ask = grading.ask("Q?", "A.", ["R."], None, [])
    assert ask.read(Reply("Reasoning first.\n" + json.dumps(value))) == graded


def test_a_reply_read_by_the_verdict_reader_and_by_its_model_agree():
    reply = json.dumps({"reason": "[1] gives 1887", "verdict": "contradicted", "score": 0})
    assert parse_reply(reply).label == _judged(json.loads(reply)).label != UNSUPPORTED
