"""The engine options of an evaluation run, declared once (``EngineOptions``): the flags of
``provenance eval``, the parameters of ``evaluate()`` and the docs' table all come from it, and a
bad value is refused by name before anything runs."""

import inspect
from dataclasses import fields

import pytest
from arguments_table import EVALUATION, engine_table

from provenance_guard import evaluate
from provenance_guard.cli import build_parser
from provenance_guard.errors import ConfigurationError
from provenance_guard.evaluation.engine_options import EngineOptions, options_table

ROWS = {row.name: row for row in fields(EngineOptions)}


def test_evaluate_takes_every_option_by_name_with_the_tables_default():
    parameters = inspect.signature(evaluate).parameters
    for name, row in ROWS.items():
        assert name in parameters, name
        assert parameters[name].kind is inspect.Parameter.KEYWORD_ONLY
        assert parameters[name].default == row.default, name


def test_the_commands_flags_are_the_table_and_read_back_into_it():
    parser = build_parser()
    assert EngineOptions.from_flags(parser.parse_args(["eval", "data.jsonl"])) == EngineOptions()
    given = parser.parse_args(["eval", "data.jsonl", "--engine", "ray", "--concurrency", "2",
                               "--native-threads", "0", "--rpm", "90.5", "--address", "h:6379",
                               "--actors", "3", "--actor-cpus", "0.25"])
    assert EngineOptions.from_flags(given) == EngineOptions(
        engine="ray", concurrency=2, native_threads=0, rpm=90.5, address="h:6379", actors=3,
        actor_cpus=0.25)


def test_the_evaluation_pages_engine_table_is_made_from_the_table():
    table = engine_table(EVALUATION.read_text(encoding="utf-8"))
    assert table is not None, "docs/evaluation.md lost its engine table markers"
    assert table == options_table(), "run: python tools/arguments_table.py --write"
    for name in ROWS:
        assert f"| `{name}` | `--{name.replace('_', '-')}" in table


@pytest.mark.parametrize("options,named", [
    ({"engine": "spark"}, "engine must be one of 'threads', 'ray'; got 'spark'"),
    ({"concurrency": 0}, "concurrency must be a whole number of at least 1; got 0"),
    ({"concurrency": True}, "concurrency must be a whole number"),
    ({"native_threads": -1}, "native_threads must be a whole number of at least 0"),
    ({"actor_cpus": 0}, "actor_cpus must be a positive number of CPUs"),
    ({"actors": 4}, "address and actors are settings of the Ray engine"),
], ids=["engine", "concurrency", "a bool", "native threads", "actor cpus", "actors, threads"])
def test_a_bad_option_is_refused_by_name_before_any_sample_is_validated(options, named):
    validated = []
    with pytest.raises(ConfigurationError, match=named):
        evaluate([{"output": "It is tall.", "sources": ["It is tall."]}],
                 llm_callable=lambda prompt: validated.append(prompt) or "supported", **options)
    assert validated == []
