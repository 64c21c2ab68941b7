"""``provenance register``: in a fresh project folder, ``from guardrails.hub import
ProvenanceLLM`` imports this package's validator (no ``guardrails_ai`` namespace needed) and a
real ``Guard`` validates with it; ``--undo`` takes the entry out; the registry's other entries
are kept; a registry that is not one, or that maps ProvenanceLLM elsewhere, is refused and left
as it was. Each import runs in a process of its own, in the project folder, as a user's would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
OTHER = {"import_path": "guardrails_ai.detect_pii", "exports": ["DetectPII"]}
IMPORTED = """
import importlib
import json
from guardrails import Guard
from guardrails.hub import ProvenanceLLM
import provenance_guard

# as NeMo Guardrails' provenance_llm rail loads it (its guardrails_ai registry: the module
# guardrails.hub, the class ProvenanceLLM)
assert getattr(importlib.import_module("guardrails.hub"), "ProvenanceLLM") is ProvenanceLLM

guard = Guard().use(ProvenanceLLM(llm_callable="local", on_fail="noop"))
outcome = guard.validate("The tower was finished in 1889. It was painted gold.",
                         metadata={"sources": ["The tower was finished in 1889."]})
print(json.dumps({"ours": ProvenanceLLM is provenance_guard.ProvenanceLLM,
                  "passed": outcome.validation_passed}))
"""


def provenance(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "provenance"), "register", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def imported(project: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", IMPORTED], cwd=project, capture_output=True,
                          text=True, timeout=300)


def test_the_hubs_import_reaches_this_package_after_register_and_not_after_undo(tmp_path):
    registry = tmp_path / ".guardrails" / "hub_registry.json"
    registry.parent.mkdir()
    registry.write_text(json.dumps({"version": 1, "validators": {"guardrails/detect_pii": OTHER}}))
    done = provenance(cwd=tmp_path)
    assert done.returncode == 0 and "provenance register --undo" in done.stdout, done.stderr
    ran = imported(tmp_path)
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert json.loads(ran.stdout.splitlines()[-1]) == {"ours": True, "passed": False}
    kept = json.loads(registry.read_text())["validators"]
    assert kept["guardrails/detect_pii"] == OTHER and kept["guardrails/provenance_llm"][
        "import_path"] == "provenance_guard"

    undone = provenance("--undo", cwd=tmp_path)
    assert undone.returncode == 0 and "unregistered" in undone.stdout
    assert json.loads(registry.read_text())["validators"] == {"guardrails/detect_pii": OTHER}
    again = imported(tmp_path)  # the hub's own package, if installed, or nothing
    assert again.returncode != 0 or '"ours": false' in again.stdout


def test_a_registry_that_is_not_one_or_maps_the_name_elsewhere_is_refused_untouched(tmp_path):
    registry = tmp_path / ".guardrails" / "hub_registry.json"
    registry.parent.mkdir()
    for text in ("{not json", json.dumps({"version": 1, "validators": {
            "someone/provenance": {"import_path": "theirs", "exports": ["ProvenanceLLM"]}}})):
        registry.write_text(text)
        done = provenance("--project", str(tmp_path), cwd=Path("/"))
        assert done.returncode == 2 and str(registry) in done.stderr, done.stderr
        assert registry.read_text() == text


def test_the_catalogue_metadata_names_what_the_code_registers():
    import tomllib

    from provenance_guard.cli.register import ENTRY, HUB_ID
    from provenance_guard.deciding.results import REGISTERED_NAME

    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    listed = project["tool"]["guardrails"]
    assert listed["validator_id"] == REGISTERED_NAME and listed["replaces"] == HUB_ID
    assert (listed["import_path"], listed["exports"]) == (ENTRY["import_path"], ENTRY["exports"])
    versions = {c.rsplit(" ", 1)[-1] for c in project["project"]["classifiers"]
                if c.startswith("Programming Language :: Python :: 3.")}
    assert versions == {"3.10", "3.11", "3.12", "3.13"}  # what .ci/run and requires-python say
