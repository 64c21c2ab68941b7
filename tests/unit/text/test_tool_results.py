"""Which tool results of a conversation are evidence (text.conversation.tool_results), and
which say their call failed (read with their content, in retrieval.structured)."""

import json

import pytest

from provenance_guard.retrieval.structured import Structured
from provenance_guard.text.conversation import check_messages, tool_results
from provenance_guard.types import Claim


def openai_call(call_id="call_1", name="get_order", arguments='{"order_id": 7731}'):
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}]}


def result(content, call_id="call_1"):
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def found(messages):
    return [(t.name, t.call_id, t.turn, t.error, text)
            for t, text in tool_results(check_messages(messages))]


def test_a_result_answering_a_call_is_evidence_with_its_tool_and_turn():
    messages = [{"role": "user", "content": "Where is 7731?"}, openai_call(),
                result('{"carrier": "DHL"}')]
    assert found(messages) == [("get_order", "call_1", 3, False, '{"carrier": "DHL"}')]


def test_results_that_answer_no_call_are_not_evidence():
    messages = [result("before any call"), openai_call(), result("ok"),
                result("answered twice"), result("another id", "call_9"),
                {"role": "tool", "content": "no id"}]
    assert [text for *_, text in found(messages)] == ["ok"]


def test_anthropic_tool_use_and_tool_result_parts_are_read_the_same_way():
    messages = [
        {"role": "user", "content": "Cancel 5120, please."},
        {"role": "assistant", "content": [
            {"type": "text", "text": "Let me try."},
            {"type": "tool_use", "id": "toolu_1", "name": "cancel_order",
             "input": {"order_id": 5120}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True,
             "content": [{"type": "text", "text": "order already shipped"}]},
            {"type": "text", "text": "What happened?"}]}]
    turns = check_messages(messages)
    assert turns[2].content == "What happened?"  # the user's own words, not the result
    assert found(messages) == [("cancel_order", "toolu_1", 3, True, "order already shipped")]


@pytest.mark.parametrize(("content", "error"), [
    (json.dumps({"error": "order already shipped"}), True),
    (json.dumps({"errors": ["bad id"]}), True), ("Error: no such order", True),
    ("Traceback (most recent call last): ...", True), (json.dumps({"error": None}), False),
    (json.dumps({"status": "ok", "error_count": 0}), False), ("No errors found.", False)])
def test_an_error_result_is_marked_as_one(content, error):
    """Marked where its content is read, once: the evidence retrieval gives the judges."""
    tools = tool_results(check_messages([openai_call(), result(content)]))
    shown = Structured(tools, [], 3).find(Claim("The order shipped.", 0), "order")
    assert shown and all(e.tool.error is error for e in shown)


def test_the_arguments_of_a_call_are_never_read():
    messages = [openai_call(arguments="not even json"), result("ok")]
    assert found(messages) == [("get_order", "call_1", 2, False, "ok")]


@pytest.mark.parametrize(("message", "named"), [
    ({"role": "assistant", "content": None, "tool_calls": "get_order"}, "['tool_calls']"),
    ({"role": "assistant", "content": None, "tool_calls": [{"id": "c"}]}, "['tool_calls'][0]"),
    ({"role": "assistant", "content": None, "tool_calls": [{"id": 3, "function": {"name": "f"}}]},
     "['tool_calls'][0]['id']"),
    ({"role": "tool", "tool_call_id": 7, "content": "x"}, "['tool_call_id']"),
    ({"role": "user", "content": [{"type": "tool_result", "content": "x"}]},
     "['content'][0]['tool_use_id']"),
    ({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x",
                                   "is_error": "yes"}]}, "['content'][0]['is_error']"),
    ({"role": "assistant", "content": [{"type": "tool_use", "id": "t"}]},
     "['content'][0]['name']")])
def test_a_malformed_call_or_result_is_refused_naming_where(message, named):
    with pytest.raises(ValueError) as raised:
        check_messages([message])
    assert f"metadata['messages'][0]{named}" in str(raised.value)
