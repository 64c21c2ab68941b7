"""The `provenance check` command on the bundled example, offline."""

import io
import json
import subprocess
import sys

import pytest
from conftest import REPO, agrees, model_flags

from provenance_guard import cli

EXAMPLE = [
    "check",
    "--source", str(REPO / "examples/eiffel_history.txt"),
    "--source", str(REPO / "examples/eiffel_visiting.txt"),
]


def test_text_report_and_exit_status(capsys):
    code = cli.main(EXAMPLE + ["--text", str(REPO / "examples/answer.txt")])
    out = capsys.readouterr().out
    assert code == 1
    assert "local heuristic" in out
    assert "[SUPPORTED] The tower has three levels open to visitors." in out
    assert "[CONTRADICTED] About 9 million people visit it each year." in out
    assert "[UNSUPPORTED] It was painted gold for the 2024 Olympic Games." in out
    assert "About 6 million people visit the tower" in out  # best evidence is shown


def test_json_report_from_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("The tower has three levels open to visitors."))
    code = cli.main(EXAMPLE + ["--text", "-", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["passed"] is True and report["heuristic"] is True
    [sentence] = report["sentences"]
    assert sentence["verdict"] == "supported"
    assert report["sources"][sentence["evidence"][0]["source"]].endswith("eiffel_visiting.txt")


def test_model_flag_uses_litellm(capsys, chat_server):
    server = chat_server(agrees)
    code = cli.main(EXAMPLE + ["--text", str(REPO / "examples/answer.txt"), "--json",
                               *model_flags(server)])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["heuristic"] is False
    # the five sentences of the answer, judged in one call
    assert len(report["sentences"]) == 5 and len(server.requests) == 1
    assert report["usage"]["calls"] == 1 and report["usage"]["prompt_tokens"] == 10
    assert report["usage"]["cost_usd"] is None  # the test server's model has no price
    cli.main(EXAMPLE + ["--text", str(REPO / "examples/answer.txt"), *model_flags(server)])
    assert capsys.readouterr().out.splitlines()[-1] == (
        "cost: 1 judge call, 10 prompt + 5 completion tokens, cost unknown: LiteLLM's price "
        "table has no price for 'openai/judge'")
    assert server.requests[0]["auth"] == "Bearer sk-test"


def test_fix_mode_correct_prints_each_correction_and_the_fixed_text(tmp_path, capsys,
                                                                     chat_server):
    from conftest import ScriptedJudge

    (tmp_path / "tower.txt").write_text("The Eiffel Tower is in Paris. It is 330 metres tall.")
    (tmp_path / "answer.txt").write_text("The Eiffel Tower is in Paris. It is 300 metres tall.")
    server = chat_server(ScriptedJudge(rewrite=lambda sentence, passages: "It is 330 metres tall."))
    argv = ["check", "--source", str(tmp_path / "tower.txt"), "--text",
            str(tmp_path / "answer.txt"), "--fix-mode", "correct", "--chunk-strategy", "sentence"]
    code = cli.main([*argv, *model_flags(server)])
    out = capsys.readouterr().out
    assert code == 1  # the text as given fails; the fix is what may be used instead
    assert "    correction (used): It is 330 metres tall." in out
    assert out.rstrip().endswith("the fix corrects 1 sentence(s) and removes 0:\n"
                                 "The Eiffel Tower is in Paris. It is 330 metres tall.")
    code = cli.main([*argv, "--json", *model_flags(server)])
    assert json.loads(capsys.readouterr().out)["fixed"].endswith("It is 330 metres tall.")
    assert cli.main(argv) == 2  # the offline judge cannot rewrite: a setup error, named
    assert "--model NAME" in capsys.readouterr().err


def test_missing_key_fails_fast_with_a_clear_message(chat_server, monkeypatch, capsys):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server = chat_server(lambda prompt: "yes")
    code = cli.main(EXAMPLE + ["--text", str(REPO / "examples/answer.txt"),
                               "--model", "openai/local", "--api-base", server.url])
    assert code == 2  # set up wrong, as docs/cli.md says: not a verdict on the text
    assert "API key" in capsys.readouterr().err


def test_missing_file_is_a_usage_error(usage_error):
    assert "cannot read input" in usage_error(["check", "--source", "nope.txt", "--text", "-"])


HEAVY = ("guardrails", "litellm", "torch", "sentence_transformers", "faiss", "transformers",
         "provenance_guard.main")


@pytest.mark.parametrize("argv", [["--help"], ["check", "--help"], ["eval", "--help"]])
def test_help_imports_nothing_heavy(argv):
    # what the command line loads before its arguments are parsed: the settings table, not the
    # validator (Guardrails, LiteLLM and PyTorch take seconds to import)
    probe = ("import sys; from provenance_guard import cli\n"
             f"try:\n    cli.main({argv!r})\nexcept SystemExit: pass\n"
             f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stderr[-2000:]


def test_the_package_names_load_on_first_use():
    probe = ("import sys, provenance_guard\n"
             "print('guardrails' in sys.modules)\n"
             "from provenance_guard import ProvenanceLLM, Report\n"
             "print('guardrails' in sys.modules, ProvenanceLLM.__module__, Report.__name__)\n"
             "print(sorted(set(provenance_guard.__all__) - set(dir(provenance_guard))))\n"
             "try:\n    provenance_guard.NoSuchName\n"
             "except AttributeError as error:\n    print(error)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    assert done.stdout.splitlines()[-4:] == [
        "False", "True provenance_guard.main Report", "[]",
        "module 'provenance_guard' has no attribute 'NoSuchName'"], done.stderr[-2000:]


def test_citations_and_allow_unsupported(capsys, monkeypatch):
    # [2] is eiffel_visiting.txt, which says nothing about 1889: the history file does
    text = "The tower was built as the centrepiece of the 1889 World's Fair [2]."
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = cli.main(EXAMPLE + ["--text", "-", "--allow-unsupported"])
    out = capsys.readouterr().out
    assert code == 1
    assert "citation: miscited; source [1] supports it" in out


def test_allow_unsupported_passes_gaps_but_not_contradictions(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("It was painted gold for the 2024 Olympic Games."))
    assert cli.main(EXAMPLE + ["--text", "-", "--allow-unsupported"]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("About 9 million people visit it each year."))
    assert cli.main(EXAMPLE + ["--text", "-", "--allow-unsupported"]) == 1


def test_language_option(capsys, monkeypatch, usage_error):
    assert "invalid choice: 'english'" in usage_error(EXAMPLE + ["--text", "-", "--language",
                                                                 "english"])
    # German rules: "3. Mai" does not end a sentence, so the text is one sentence, not two
    monkeypatch.setattr(sys, "stdin", io.StringIO("Er kam am 3. Mai nach Paris."))
    cli.main(EXAMPLE + ["--text", "-", "--json", "--language", "de"])
    assert len(json.loads(capsys.readouterr().out)["sentences"]) == 1
    monkeypatch.setattr(sys, "stdin", io.StringIO("Er kam am 3. Mai nach Paris."))
    cli.main(EXAMPLE + ["--text", "-", "--json", "--language", "en"])
    assert len(json.loads(capsys.readouterr().out)["sentences"]) == 2  # English rules cut it
    monkeypatch.setattr(sys, "stdin", io.StringIO("Er kam am 3. Mai nach Paris."))
    cli.main(EXAMPLE + ["--text", "-", "--json"])  # the default, auto, finds German
    assert len(json.loads(capsys.readouterr().out)["sentences"]) == 1


def test_a_check_writes_no_debug_lines():
    """Once the root logger has a handler (an application's ``logging.basicConfig()``; Guardrails
    itself logs on the root logger, which adds one) nothing below WARNING may reach it: bm25s set
    its logger to DEBUG, so every BM25 build printed a line to the user's terminal."""
    app = ("import logging, sys; logging.basicConfig()\n"
           "from provenance_guard import cli; sys.exit(cli.main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", app, *EXAMPLE, "--text", "-"],
                          input="The tower was built as the centrepiece of the 1889 World's Fair.",
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "DEBUG" not in done.stderr, done.stderr[-2000:]


def test_a_pleasantry_is_shown_as_not_a_claim_unless_asked_to_judge_it(capsys, monkeypatch):
    text = "Great question! The tower has three levels open to visitors. I hope this helps!"
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert cli.main(EXAMPLE + ["--text", "-"]) == 0
    out = capsys.readouterr().out
    assert "[NOT A CLAIM] Great question!" in out and "[NOT A CLAIM] I hope this helps!" in out
    assert "2 sentence(s) assert nothing" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert cli.main(EXAMPLE + ["--text", "-", "--judge-non-claims"]) == 1
    assert "[UNSUPPORTED] I hope this helps!" in capsys.readouterr().out


def test_the_version_is_the_installed_packages(capsys):
    from importlib.metadata import version

    import provenance_guard

    assert provenance_guard.__version__ == version("provenance-guard")
    with pytest.raises(SystemExit) as raised:
        cli.main(["--version"])
    assert raised.value.code == 0
    assert capsys.readouterr().out.strip() == f"provenance-guard {provenance_guard.__version__}"


# -- What the command says, in its own words -----------------------------------------------------

@pytest.mark.parametrize("command", ["check", "eval"])
def test_help_shows_every_options_default_in_the_commands_words(command, capsys):
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    shown = " ".join(capsys.readouterr().out.split()).split(" options: ", 1)[1]
    for flag, default in (("--top-k TOP_K", "(default: 3)"), ("--max-sentences", "(default: 1000; "
                          "none: no limit)"), ("--allow-unsupported", "(default: they fail too)"),
                          ("--judge-non-claims", "default: they are marked not a claim")):
        assert flag in shown and default in shown.split(flag, 1)[1][:700], flag
    # no Python name, exception or value where the command has its own
    for python in ("max_sentences", "fail_on_unsupported", "skip_non_claims", "ValueError",
                   "ConfigurationError", "pass_on_invalid", "on_fail", "None", "`"):
        assert python not in shown, python
    assert ("--source" not in shown) if command == "eval" else ("--source FILE" in shown)


def test_an_error_names_the_flag_and_prints_the_subcommands_usage(tmp_path, usage_error):
    text = tmp_path / "text.txt"
    text.write_text("The tower is tall. It is old. It is in Paris.")
    err = usage_error(EXAMPLE + ["--text", str(text), "--max-sentences", "2"])
    assert err.startswith("usage: provenance check ")
    assert "more than --max-sentences 2" in err and "raise --max-sentences (none: no limit)" in err
    assert "max_sentences" not in err and "None" not in err
    err = usage_error(["eval", str(tmp_path / "missing.jsonl")])
    assert err.startswith("usage: provenance eval ") and "cannot read the data set" in err


def test_fix_mode_correct_without_a_model_is_refused_in_flag_words(tmp_path, capsys):
    text = tmp_path / "text.txt"
    text.write_text("The tower is tall.")
    assert cli.main(EXAMPLE + ["--text", str(text), "--fix-mode", "correct"]) == 2
    err = capsys.readouterr().err
    assert "--fix-mode correct needs a model" in err and "--model NAME" in err
    assert "fix_mode" not in err


@pytest.mark.parametrize("text, says", [
    ("", "the text is empty: there is nothing to check, so it passes"),
    ("  \n\n ", "the text is empty: there is nothing to check, so it passes"),
    ("Thanks for asking!", "no sentence of the text asserts anything: nothing was judged"),
])
def test_a_text_with_nothing_to_judge_says_so(text, says, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert cli.main(EXAMPLE + ["--text", "-"]) == 0
    out = capsys.readouterr().out
    assert says in out
    assert "None" not in out and "n/a" not in out and "of 0" not in out


def test_the_count_leaves_out_sentences_that_assert_nothing(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(
        "Thanks for asking! The tower has three levels open to visitors."))
    assert cli.main(EXAMPLE + ["--text", "-"]) == 0
    assert "1 of 1 judged sentences supported" in capsys.readouterr().out
