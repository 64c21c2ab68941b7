"""The grounded-QA grading prompts (GroUSE's relevancy, completeness and usefulness), written
for this project. Untrusted text (question, answer, references) sits between content-tagged
markers, as in the judge's prompts."""

from __future__ import annotations

from collections.abc import Sequence

from ..judges.prompts import DATA_RULE, tag_of
from ..text.sentences import safe_text

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
Reason step by step, then finish with one line of JSON and nothing after it:
{"reason": "<one or two sentences>", "refuses": true | false, "relevancy": <1 to 5, or null>}"""

COMPLETENESS_TASK = """First decide whether the references hold information that answers the \
question, in full or in part. If none of them does, completeness is not rated: give null.
Otherwise rate, from 1 to 5, how much of that information the answer gives:
5 - all of it;
4 - everything important, a minor detail missing;
3 - about half of it;
2 - a small part of it;
1 - none of it (also when the answer wrongly says that no document answers).
Reason step by step, naming what is missing, then finish with one line of JSON and nothing \
after it:
{"reason": "<one or two sentences>", "references_answer": true | false, "completeness": \
<1 to 5, or null>}"""

USEFULNESS_TASK = """The answer says that the documents do not answer the question. Decide \
whether it also gives other information. If it gives nothing else, usefulness is not rated: \
give null. Otherwise give 1 if that information would help the person who asked (it is on \
their topic and worth knowing), and 0 if it would not.
Reason step by step, then finish with one line of JSON and nothing after it:
{"reason": "<one or two sentences>", "adds_information": true | false, "usefulness": <0, 1, \
or null>}"""


def build_qa_prompt(task: str, question: str, answer: str, references: Sequence[str] | None,
                    expected: str | None) -> str:
    """A grounded-QA grading prompt: ``task`` is one of the *_TASK texts; ``references`` None
    leaves them out (relevancy and usefulness are judged without them)."""
    tag = tag_of(question, answer, expected, *(references or ()))
    references_block = "" if references is None else REFERENCES_BLOCK.format(
        tag=tag, references="\n".join(f"[{i}] {safe_text(r)}" for i, r in enumerate(references, 1))
        or "(none)")
    expected_block = "" if not expected else EXPECTED_BLOCK.format(tag=tag, expected=safe_text(expected))
    return _QA_INTRO.format(
        tag=tag, data_rule=DATA_RULE.format(tag=tag), question=safe_text(question),
        references_block=references_block, answer=safe_text(answer), expected_block=expected_block,
    ) + "\n" + task
