"""Each setting is declared once, in ``Settings``: the constructor's signature, checks and
docstring, the command's flags and the reference page's arguments table all come from it and agree."""

import inspect
from dataclasses import fields

import pytest
from arguments_table import MAIN, REFERENCE, main_init, page_table

from provenance_guard import ProvenanceLLM
from provenance_guard.cli import build_parser
from provenance_guard.errors import ConfigurationError
from provenance_guard.settings import DEFAULTS, Settings, arguments_table, typed_init

ROWS = {row.name: row for row in fields(Settings)}


def test_the_constructor_signature_is_the_table_with_the_hubs_order_first():
    parameters = list(inspect.signature(ProvenanceLLM).parameters.values())
    assert [p.name for p in parameters] == list(ROWS)
    assert [p.name for p in parameters[:4]] == ["validation_method", "llm_callable", "top_k",
                                                "on_fail"]
    assert all(p.default == ROWS[p.name].default for p in parameters)


def test_editors_and_type_checkers_see_the_tables_arguments():
    # main.py's __init__ under TYPE_CHECKING (the runtime one takes *args, **kwargs)
    written = main_init(MAIN.read_text(encoding="utf-8"))
    assert written is not None, "validator/main.py lost its typed __init__ markers"
    assert written == typed_init(), "run: python tools/arguments_table.py --write"
    for name, row in ROWS.items():
        assert f"    {name}: {row.type} = {row.default!r},\n" in written


def test_every_setting_is_in_the_docstring_with_its_default():
    for name, row in ROWS.items():
        assert f"{name} ({row.type}, default {row.default!r})" in ProvenanceLLM.__doc__


def test_the_validator_keeps_the_tables_defaults_and_hands_them_to_guardrails():
    validator = ProvenanceLLM(llm_callable="local")
    expected = {name: row.default for name, row in ROWS.items() if name != "on_fail"}
    assert validator.get_args() == {**expected, "llm_callable": "local"}
    assert validator.settings == Settings(llm_callable="local")


def test_positional_arguments_follow_the_hub():
    validator = ProvenanceLLM("full", "local", 5, "noop")
    assert (validator.settings.validation_method, validator.settings.top_k) == ("full", 5)
    assert validator.settings.on_fail == "noop"
    with pytest.raises(TypeError, match="both by position and by name"):
        ProvenanceLLM("full", validation_method="sentence", llm_callable="local")


@pytest.mark.parametrize("name,bad", [
    ("validation_method", "paragraph"), ("top_k", 0), ("top_k", 2.5), ("max_retries", 21),
    ("pass_on_invalid", "false"), ("deadline", 0), ("max_sentences", 0),
    ("max_evidence_chars", 10), ("confidence_band", (0.9, 0.1)), ("language", "xx"),
    ("retrieval", "sparse"), ("citations", "yes"), ("index_dir", 3), ("embedding_model", ""),
    ("on_fail", "explode"), ("max_requests_per_minute", 0), ("max_tokens_per_minute", -5),
])
def test_each_checked_setting_refuses_a_bad_value_by_name(name, bad):
    with pytest.raises(ValueError, match=name if name != "language" else "language"):
        ProvenanceLLM(llm_callable="local", **{name: bad})


def test_a_mistyped_setting_is_refused_with_the_closest_name():
    with pytest.raises(ConfigurationError, match="did you mean 'citations'"):
        ProvenanceLLM(llm_callable="local", citation="required")


def test_the_command_flags_have_the_tables_defaults_and_show_them():
    parser = build_parser()
    check = parser._subparsers._group_actions[0].choices["check"]
    flagged = {row.name: row for row in ROWS.values() if row.metadata["flag"]}
    actions = {action.dest: action for action in check._actions}
    assert flagged, "no setting has a flag"
    for name, row in flagged.items():
        assert actions[name].default == row.default
        assert row.metadata["flag"] in actions[name].option_strings
    shown = check.format_help()
    assert "(default: 3)" in shown and "(default: 1000" in shown


def test_the_command_gives_the_validator_the_table_defaults():
    from provenance_guard.cli.from_args import validator_options

    args = build_parser().parse_args(["check", "--source", "s.txt", "--text", "t.txt"])
    options = validator_options(args)
    assert all(options[name] == getattr(DEFAULTS, name) for name in options)
    lifted = build_parser().parse_args(["check", "--source", "s", "--text", "t",
                                        "--deadline", "none", "--allow-unsupported"])
    assert validator_options(lifted)["deadline"] is None
    assert validator_options(lifted)["fail_on_unsupported"] is False


def test_the_reference_pages_arguments_table_is_made_from_the_settings():
    table = page_table(REFERENCE.read_text(encoding="utf-8"))
    assert table is not None, "docs/reference.md lost its arguments table markers"
    assert table == arguments_table(), "run: python tools/arguments_table.py --write"
    for name in ROWS:
        assert f"| `{name}` |" in table
