"""The grounded-QA grading prompts (GroUSE's relevancy, completeness and usefulness), written
for this project, each a kind of prompt (``judges.kinds``) beside the typed reply it asks for.
Untrusted text (question, answer, references) sits between content-tagged markers, as in the
judge's prompts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field, StrictBool, StrictInt, model_validator

from ..judges.kinds import Ask, Kind, Reply
from ..judges.outputs import Output, as_text
from ..judges.prompts import DATA_RULE, tag_of
from ..judges.replies import final_object
from ..text.sentences import safe_text

ROOM = 1024  # tokens a grading reply is given (its reason and its score)

_QA_INTRO = """You grade an answer that a question-answering system wrote from numbered \
reference documents. It was told to cite them as [1], [2], ... and, when no document answers \
the question, to say so and give whatever related information they hold.

{data_rule}

<<{tag}:BEGIN QUESTION>>
{question}
<<{tag}:END QUESTION>>
{references_block}
<<{tag}:BEGIN ANSWER>>
{answer}
<<{tag}:END ANSWER>>
{expected_block}"""

REFERENCES_BLOCK = """
<<{tag}:BEGIN REFERENCES>>
{references}
<<{tag}:END REFERENCES>>
"""

EXPECTED_BLOCK = """
A person wrote this answer as the one to aim for:
<<{tag}:BEGIN EXPECTED ANSWER>>
{expected}
<<{tag}:END EXPECTED ANSWER>>
"""

RELEVANCY_TASK = """First decide whether the answer declares that the documents do not answer the \
question ("refuses"). If it does, relevancy is not rated: give null.
Otherwise rate, from 1 to 5, how much of what the answer says bears on the question, whether \
or not it is true or complete:
5 - every part of it serves the question;
4 - it answers the question with a little that does not;
3 - it answers, but much of it is beside the point;
2 - it mostly talks about something else;
1 - it does not address the question.
"""

COMPLETENESS_TASK = """First decide whether the references hold information that answers the \
question, in full or in part. If none of them does, completeness is not rated: give null.
Otherwise rate, from 1 to 5, how much of that information the answer gives:
5 - all of it;
4 - everything important, a minor detail missing;
3 - about half of it;
2 - a small part of it;
1 - none of it (also when the answer wrongly says that no document answers).
"""

USEFULNESS_TASK = """The answer says that the documents do not answer the question. Decide \
whether it also gives other information. If it gives nothing else, usefulness is not rated: \
give null. Otherwise give 1 if that information would help the person who asked (it is on \
their topic and worth knowing), and 0 if it would not.
"""


def build_qa_prompt(task: str, question: str, answer: str, references: Sequence[str] | None,
                    expected: str | None) -> str:
    """A grounded-QA grading prompt: ``task`` is a grading's instruction and its reply's form;
    ``references`` None leaves them out (relevancy and usefulness are judged without them)."""
    tag = tag_of(question, answer, expected, *(references or ()))
    references_block = "" if references is None else REFERENCES_BLOCK.format(
        tag=tag, references="\n".join(f"[{i}] {safe_text(r)}" for i, r in enumerate(references, 1))
        or "(none)")
    expected_block = "" if not expected else EXPECTED_BLOCK.format(tag=tag, expected=safe_text(expected))
    return _QA_INTRO.format(
        tag=tag, data_rule=DATA_RULE.format(tag=tag), question=safe_text(question),
        references_block=references_block, answer=safe_text(answer), expected_block=expected_block,
    ) + "\n" + task


class Grade(Output):
    """A grading reply: its reason, a yes or no (``flag``) that says whether the metric
    applies, and its score (``field``) where it does: null exactly when the flag is
    ``null_when`` (GroUSE's null rule). A score where null is due is settled by the flag; a
    due score that is missing or out of ``allowed`` makes the reply unreadable."""

    flag: ClassVar[str]
    field: ClassVar[str]
    allowed: ClassVar[range]
    null_when: ClassVar[bool]
    if TYPE_CHECKING:
        reason: str  # each grade declares its fields, in the order its reply gives them

    @model_validator(mode="before")
    @classmethod
    def _lenient(cls, value: Any) -> Any:
        """A reason that is not text is read as its JSON (``as_text``); a whole number written
        4.0 as 4; a score where null is due as null."""
        if not isinstance(value, dict):
            return value
        score, reason = value.get(cls.field), value.get("reason", "")
        if value.get(cls.flag) is cls.null_when:
            score = None  # null is due: the flag settles it, whatever score was given
        elif isinstance(score, float) and score.is_integer():
            score = int(score)
        return {**value, cls.field: score, "reason": as_text(reason)}

    @model_validator(mode="after")
    def _null_rule(self) -> Grade:
        """A due score (the flag is not ``null_when``) is one of ``allowed``."""
        if getattr(self, self.flag) != self.null_when and (
                getattr(self, self.field) not in self.allowed):
            raise ValueError(f"{self.field} must be one of {list(self.allowed)}")
        return self

    @property
    def graded(self) -> tuple[int | None, str]:
        return getattr(self, self.field), self.reason


class Relevancy(Grade):
    flag, field, allowed, null_when = "refuses", "relevancy", range(1, 6), True
    reason: str = Field(description="one or two sentences")
    refuses: StrictBool
    relevancy: StrictInt | None = Field(description="1 to 5, or null")


class Completeness(Grade):
    flag, field, allowed, null_when = "references_answer", "completeness", range(1, 6), False
    reason: str = Field(description="one or two sentences")
    references_answer: StrictBool
    completeness: StrictInt | None = Field(description="1 to 5, or null")


class Usefulness(Grade):
    flag, field, allowed, null_when = "adds_information", "usefulness", range(0, 2), False
    reason: str = Field(description="one or two sentences")
    adds_information: StrictBool
    usefulness: StrictInt | None = Field(description="0, 1, or null")


class Grading(Kind[tuple[int | None, str]]):
    """One grading prompt: its task, its typed reply, asked as a free reply."""

    room = ROOM

    def __init__(self, name: str, instruction: str, output: type[Grade], free_lead: str):
        self.name, self.instruction, self.output, self.free_lead = (
            name, instruction, output, free_lead)

    def ask(self, question: str, answer: str, references: Sequence[str] | None,
            expected: str | None, untrusted: Sequence[str | None]
            ) -> Ask[tuple[int | None, str]]:
        prompt = build_qa_prompt(self.instruction + self.ending(False)[0], question, answer,
                                 references, expected)
        output = self.output

        def read(reply: Reply) -> tuple[int | None, str] | None:
            grade = final_object(reply.text, output.read, untrusted)
            return grade.graded if isinstance(grade, Grade) else None

        return Ask(prompt, read, self.room)


_THEN = "then finish with one line of JSON and nothing after it:"
RELEVANCY = Grading("relevancy", RELEVANCY_TASK, Relevancy, f"Reason step by step, {_THEN}")
COMPLETENESS = Grading("completeness", COMPLETENESS_TASK, Completeness,
                       f"Reason step by step, naming what is missing, {_THEN}")
USEFULNESS = Grading("usefulness", USEFULNESS_TASK, Usefulness, f"Reason step by step, {_THEN}")
