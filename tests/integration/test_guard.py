"""Through a real Guard: use/validate/parse, Pydantic fields, every on_fail policy, reask,
streaming and AsyncGuard."""

import asyncio

import pytest
from conftest import BAD, GOOD, ScriptedJudge, toy_metadata
from guardrails import AsyncGuard, Guard, OnFailAction
from guardrails.errors import ValidationError
from pydantic import BaseModel, Field

from provenance_guard import ProvenanceLLM

TEXT = f"{GOOD} {BAD} The Louvre houses the Mona Lisa."


@pytest.fixture
def meta():
    return toy_metadata()


def guard_with(on_fail, judge=None):
    return Guard().use(ProvenanceLLM(llm_callable=judge or ScriptedJudge(), on_fail=on_fail))


def test_use_and_validate_pass(meta):
    outcome = guard_with("exception").validate(f"{GOOD} The Louvre houses the Mona Lisa.", metadata=meta)
    assert outcome.validation_passed is True


def test_parse_reports_the_failure(meta):
    guard = guard_with("noop")
    outcome = guard.parse(TEXT, metadata=meta)
    assert outcome.validation_passed is False
    assert outcome.validated_output == TEXT
    [summary] = outcome.validation_summaries
    assert BAD in summary.failure_reason
    assert [TEXT[s.start:s.end] for s in guard.error_spans_in_output()] == [BAD]


def test_exception_policy_raises_naming_the_sentence(meta):
    with pytest.raises(ValidationError, match="painted gold"):
        guard_with("exception").validate(TEXT, metadata=meta)


def test_fix_policy_removes_the_unsupported_sentence(meta):
    outcome = guard_with("fix").validate(TEXT, metadata=meta)
    assert outcome.validated_output == f"{GOOD} The Louvre houses the Mona Lisa."


def test_filter_and_refrain_policies(meta):
    assert guard_with("filter").validate(TEXT, metadata=meta).validated_output is None
    assert guard_with("refrain").validate(TEXT, metadata=meta).validated_output is None


def test_noop_policy_keeps_the_value(meta):
    outcome = guard_with("noop").validate(TEXT, metadata=meta)
    assert outcome.validated_output == TEXT and outcome.validation_passed is False


def test_custom_on_fail_function_gets_the_fail_result(meta):
    seen = []

    def on_fail(value, fail_result):
        seen.append(fail_result)
        return "custom: " + fail_result.fix_value

    outcome = guard_with(on_fail).validate(TEXT, metadata=meta)
    assert outcome.validated_output == f"custom: {GOOD} The Louvre houses the Mona Lisa."
    assert seen[0].metadata["groundedness"]["counts"]["unsupported"] == 1


def test_reask_asks_the_llm_again_and_validates_the_answer(meta):
    asked = []

    def llm_api(*, messages=None, **kwargs):
        asked.append(messages)
        return TEXT if len(asked) == 1 else f"{GOOD} The Louvre houses the Mona Lisa."

    guard = guard_with(OnFailAction.REASK)
    outcome = guard(llm_api, messages=[{"role": "user", "content": "Tell me about Paris."}],
                    metadata=meta, num_reasks=1)
    assert len(asked) == 2
    assert "painted gold" in str(asked[1])  # the reask prompt names the failing sentence
    assert outcome.validation_passed is True
    assert outcome.validated_output == f"{GOOD} The Louvre houses the Mona Lisa."


def test_pydantic_field_carries_the_validator(meta):
    class Answer(BaseModel):
        text: str = Field(json_schema_extra={"validators": [
            ProvenanceLLM(llm_callable=ScriptedJudge(), on_fail="fix")]})

    guard = Guard.for_pydantic(Answer)
    outcome = guard.parse(f'{{"text": "{TEXT}"}}', metadata=meta)
    assert outcome.validated_output == {"text": f"{GOOD} The Louvre houses the Mona Lisa."}


def test_streaming_validates_sentence_by_sentence(meta):
    judge = ScriptedJudge()

    def llm_api(*, messages=None, **kwargs):
        yield from ["The Eiffel ", "Tower is in Paris. The Eiffel Tower was ",
                    "painted gold in 2024. The Louvre houses ", "the Mona Lisa."]

    guard = guard_with("fix", judge)
    chunks = list(guard(llm_api, messages=[{"role": "user", "content": "Paris?"}],
                        metadata=meta, stream=True))
    streamed = "".join(c.validated_output or "" for c in chunks)
    # each sentence judged once; the last two complete together at the end of the stream
    assert sorted(judge.statements) == sorted([GOOD, BAD, "The Louvre houses the Mona Lisa."])
    assert "painted gold" not in streamed
    assert GOOD in streamed and "Mona Lisa" in streamed


async def test_async_guard(meta):
    judge = ScriptedJudge()
    guard = AsyncGuard().use(ProvenanceLLM(llm_callable=judge, on_fail="fix"))
    outcomes = await asyncio.gather(*[guard.validate(TEXT, metadata=meta) for _ in range(3)])
    for outcome in outcomes:
        assert outcome.validated_output == f"{GOOD} The Louvre houses the Mona Lisa."


@pytest.mark.parametrize("on_fail", ["exception", "fix", "noop"])
def test_an_empty_output_is_refused_by_guardrails_and_passes_the_validator(meta, on_fail):
    """As the reference page says: Guardrails fails "" before any validator runs (never a
    validated empty answer); the validator itself, and spaces through a Guard, pass."""
    judge = ScriptedJudge()
    outcome = guard_with(on_fail, judge).validate("", metadata=meta)
    assert (outcome.validation_passed, outcome.validated_output, outcome.error) == (
        False, None, "Empty response received.")
    assert guard_with(on_fail, judge).validate("   ", metadata=meta).validation_passed is True
    validator = ProvenanceLLM(llm_callable=judge, on_fail=on_fail)
    assert validator.validate("", meta).outcome == "pass"
    assert validator.check("", meta).passed and judge.prompts == []
