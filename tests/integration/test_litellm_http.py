"""The model-string path end to end: LiteLLM over real HTTP to a local OpenAI-compatible
server on 127.0.0.1 with scripted replies. (Faults on that path: test_judge_faults.py.)"""

from conftest import BAD, GOOD, ScriptedJudge, litellm_validator, toy_metadata
from guardrails import Guard
from guardrails.validator_base import PassResult


def test_model_string_judges_over_http(chat_server):
    server = chat_server(ScriptedJudge())
    guard = Guard().use(litellm_validator(server.url, on_fail="fix"))
    outcome = guard.validate(f"{GOOD} {BAD}", metadata=toy_metadata())
    assert outcome.validated_output == GOOD
    [request] = server.requests  # the text's two sentences in one call
    assert request["path"].endswith("/chat/completions")
    assert request["body"]["model"] == "judge"
    assert request["auth"] == "Bearer sk-test"
    assert "BEGIN STATEMENT 2>>" in request["body"]["messages"][0]["content"]


def test_hub_style_replies_are_read(chat_server):
    server = chat_server(lambda prompt: "<analysis>fine</analysis>\n<supported>[YES]</supported>")
    result = litellm_validator(server.url).validate(GOOD, toy_metadata())
    assert isinstance(result, PassResult)
    assert result.metadata["sentences"][0]["reason"] == "fine"


def test_claims_and_batched_verdicts_over_http(chat_server):
    scripted = ScriptedJudge(claims=lambda s: [s.replace("It ", "The Eiffel Tower ")])
    server = chat_server(scripted)  # the same replies, now sent over HTTP
    guard = Guard().use(litellm_validator(server.url, validation_method="claim", batch_size=8,
                                          on_fail="noop"))
    outcome = guard.validate(f"{GOOD} It is 330 metres tall. {BAD}", metadata=toy_metadata())
    assert outcome.validation_passed is False
    kinds = ["claims" if "BEGIN SENTENCE>>" in r["body"]["messages"][0]["content"] else "batch"
             for r in server.requests]
    assert kinds == ["claims"] * 3 + ["batch"]  # 3 extractions, then one call for 3 claims
    assert scripted.batches == [[GOOD, "The Eiffel Tower is 330 metres tall.", BAD]]


def test_corrections_over_http_by_the_judges_model_and_by_a_named_one(chat_server):
    """fix_mode="correct" on the LiteLLM path: the rewrite prompt goes over HTTP, the rewrite
    is judged by another call, and a named corrector model is the one asked to rewrite."""
    wrong = "It is 300 metres tall."
    scripted = ScriptedJudge(rewrite=lambda sentence, passages: "It is 330 metres tall.")
    server = chat_server(scripted)
    for corrector, model in [(None, "judge"), ("openai/rewriter", "rewriter")]:
        server.requests.clear()
        guard = Guard().use(litellm_validator(server.url, on_fail="fix", fix_mode="correct",
                                              corrector=corrector))
        outcome = guard.validate(f"{GOOD} {wrong}", metadata=toy_metadata())
        assert outcome.validated_output == f"{GOOD} It is 330 metres tall."
        asked = [(r["body"]["model"], "FAILING SENTENCE" in r["body"]["messages"][0]["content"])
                 for r in server.requests]
        assert asked.count((model, True)) == 1  # one rewrite, by the corrector's model
        assert asked.count(("judge", False)) == 2  # the two sentences, then the rewrite


def test_an_inventive_rewrite_over_http_is_not_used(chat_server):
    server = chat_server(ScriptedJudge(
        rewrite=lambda sentence, passages: "It is 330 metres tall and cost 7 million francs."))
    guard = Guard().use(litellm_validator(server.url, on_fail="fix", fix_mode="correct"))
    outcome = guard.validate(f"{GOOD} It is 300 metres tall.", metadata=toy_metadata())
    assert outcome.validated_output == GOOD
    prompts = [r["body"]["messages"][0]["content"] for r in server.requests]
    assert not any("7 million" in p for p in prompts if "BEGIN STATEMENT" in p)
