"""What a user reads when a verdict or a run goes wrong: the reply behind a verdict the judge
gave nothing readable for, and the one-line errors and summaries of the usual mistakes."""

import html

import pytest
from conftest import BAD, GOOD, REPO, SOURCES, toy_metadata, validate_in_guard

from provenance_guard import ProvenanceLLM, Report, cli

CHECK = ["check", "--source", str(REPO / "examples/eiffel_history.txt"),
         "--source", str(REPO / "examples/eiffel_visiting.txt")]
PROSE = ["Yes, it is supported.", "No, the passages do not say that."]


@pytest.mark.parametrize("reply", PROSE)
def test_the_reply_behind_an_invalid_verdict_is_in_the_result_and_the_report(reply):
    """A weak model answers in prose: every sentence fails closed as invalid, and what it said
    is kept, as written, beside the verdict."""
    outcome, metadata = validate_in_guard(GOOD, lambda prompt: reply)
    [sentence] = metadata["sentences"]
    assert not outcome.validation_passed and sentence["verdict"] == "invalid"
    assert sentence["judge_reply"] == reply
    report = ProvenanceLLM(llm_callable=lambda prompt: reply).check(GOOD, toy_metadata())
    assert report.sentences[0].verdict.reply == reply


def test_a_long_or_hostile_reply_is_cut_and_never_read_for_a_verdict():
    reply = "<script>alert(1)</script> " + "I think so. " * 100
    report = ProvenanceLLM(llm_callable=lambda prompt: reply).check(GOOD, toy_metadata())
    [sentence] = report.sentences
    assert sentence.verdict.label == "invalid" and len(sentence.verdict.reply) <= 300
    assert sentence.verdict.reply.startswith("<script>") and sentence.verdict.reply.endswith("...")


def test_a_readable_verdict_keeps_no_reply():
    report = ProvenanceLLM(llm_callable="local").check(GOOD, toy_metadata())
    assert report.sentences[0].verdict.reply is None


def test_the_command_line_and_the_html_show_the_reply(chat_server, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    server = chat_server(lambda prompt: "Yes, it is <b>supported</b>.")
    page = tmp_path / "report.html"
    code = cli.main(CHECK + ["--text", str(REPO / "examples/answer.txt"), "--model",
                             "openai/local", "--api-base", server.url, "--html", str(page)])
    out = capsys.readouterr().out
    assert code == 3  # no verdict: not a verdict on the text
    assert out.count("the judge's reply: 'Yes, it is <b>supported</b>.'") == 5
    shown = page.read_text()
    assert html.escape("Yes, it is <b>supported</b>.", quote=False) in shown
    assert "<b>supported</b>" not in shown


@pytest.mark.parametrize("text", [BAD, f"{BAD} It was painted blue in 2025."])
def test_the_fix_empty_line_only_when_the_fix_is_applied(text):
    """Under on_fail="exception" nothing is fixed: the message does not speak of the fix."""
    from guardrails import Guard
    from guardrails.errors import ValidationError

    guard = Guard().use(ProvenanceLLM(llm_callable="local", on_fail="exception"))
    with pytest.raises(ValidationError) as raised:
        guard.validate(text, metadata={"sources": SOURCES})
    assert "on_fail=\"fix\"" not in str(raised.value) and "No claim is left" not in str(
        raised.value)


def test_report_from_guard_says_what_the_last_call_ended_with():
    from guardrails import Guard

    guard = Guard().use(ProvenanceLLM(llm_callable="local", on_fail="noop"))
    with pytest.raises(ValueError, match="validated nothing yet"):
        Report.from_guard(guard)
    with pytest.raises(ValueError, match="must be a list of strings"):
        guard.validate(GOOD, metadata={"sources": 5})
    with pytest.raises(ValueError) as raised:
        Report.from_guard(guard)
    message = str(raised.value)
    assert message.startswith("the guard's last call ended with an error, before any result: "
                              "metadata['sources'] must be a list of strings")
    assert "guard.validate first" not in message and "\n" not in message


@pytest.mark.parametrize("text, passes", [("", False), ("   ", True)])
def test_an_empty_text_has_one_outcome_in_the_guard_and_the_report(text, passes):
    """Guardrails fails an empty text itself, after ProvenanceLLM passed it: the report says
    so too rather than pass it; a whitespace-only text passes in both."""
    from guardrails import Guard

    validator = ProvenanceLLM(llm_callable="local", on_fail="noop")
    guard = Guard().use(validator)
    assert guard.validate(text, metadata={"sources": SOURCES}).validation_passed is passes
    if passes:
        assert Report.from_guard(guard).passed
    else:
        with pytest.raises(ValueError, match="ended with an error: Empty response received"):
            Report.from_guard(guard)


def test_an_unknown_flag_is_named_with_the_closest_real_one(capsys):
    with pytest.raises(SystemExit) as raised:
        cli.main(["check", "--souce", "a.txt", "--text", "b.txt"])
    assert raised.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == "provenance check: error: unknown flag --souce: did you mean --source?"


def test_missing_credentials_are_said_when_the_validator_is_built(monkeypatch):
    from provenance_guard import JudgeAuthError

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(JudgeAuthError) as raised:
        ProvenanceLLM(llm_callable="anthropic/claude-3-5-haiku-latest")
    assert "set ANTHROPIC_API_KEY" in str(raised.value) and raised.value.__context__ is None


def test_the_command_line_and_the_html_show_what_a_sentence_was_read_as(capsys, tmp_path):
    """"It" after a sentence about the tower is judged as the tower: both views say so, and
    the report marks the evidence against what was judged."""
    text, page = tmp_path / "answer.txt", tmp_path / "report.html"
    text.write_text("The Eiffel Tower is in Paris. It was designed by Gustave Eiffel.",
                    encoding="utf-8")
    cli.main(CHECK + ["--text", str(text), "--html", str(page)])
    out = capsys.readouterr().out
    assert "read as: [The Eiffel Tower] was designed by Gustave Eiffel." in out
    assert "read as: [The Eiffel Tower] was designed by Gustave Eiffel." in page.read_text()
