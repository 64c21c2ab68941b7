"""on_fail="reask" through a real Guard: the reask message names each failing sentence with
its verdict, the judge's reason and the evidence retrieved for it, so the regeneration has what
it needs; the other policies keep the short message."""

from conftest import SOURCES, ScriptedJudge, toy_metadata
from guardrails import Guard

from provenance_guard import ProvenanceLLM

TRUE = "The Eiffel Tower is in Paris."
WRONG = "It is 300 metres tall."


def test_the_reask_carries_each_failing_sentences_evidence():
    asked = []

    def llm(*, messages, **kwargs):
        asked.append(messages[-1]["content"])
        return f"{TRUE} {WRONG}" if len(asked) == 1 else f"{TRUE} It is 330 metres tall."

    guard = Guard().use(ProvenanceLLM(llm_callable=ScriptedJudge(), on_fail="reask"))
    outcome = guard(llm, messages=[{"role": "user", "content": "Describe the tower."}],
                    metadata=toy_metadata(), num_reasks=1)
    assert outcome.validation_passed and outcome.validated_output.endswith("330 metres tall.")
    reask = asked[1]
    # what the judge was asked is named: "It" read as the tower of the sentence before
    assert (f"- {WRONG} [unsupported: scripted; read as '[The Eiffel Tower] is 300 metres "
            "tall.']") in reask
    assert ("evidence (source 1): The Eiffel Tower is in Paris. It was finished in 1889. It is 330 "
            "metres tall.") in reask
    assert "State only what each sentence's evidence states" in reask
    assert TRUE + " [" not in reask  # the supported sentence is not named


def test_other_policies_keep_the_short_message():
    guard = Guard().use(ProvenanceLLM(llm_callable=ScriptedJudge(), on_fail="noop"))
    guard.validate(f"{TRUE} {WRONG}", metadata=toy_metadata())
    [log] = guard.history.last.iterations.last.outputs.validator_logs
    message = log.validation_result.error_message
    assert WRONG in message and "evidence (" not in message and SOURCES[1] not in message
