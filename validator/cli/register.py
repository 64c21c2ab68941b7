"""``provenance register``: make ``from guardrails.hub import ProvenanceLLM`` (the hub's README,
and NeMo Guardrails' ``provenance_llm`` rail, which imports it so) resolve to this package in a
project, with no ``guardrails_ai`` namespace package installed. Guardrails' hub module looks an
exported name up in the project's ``.guardrails/hub_registry.json`` (in the working directory)
first; this writes this package's entry there, under the hub validator's id, beside any other
entries, and ``--undo`` takes it out again."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from . import exits

HUB_ID = "guardrails/provenance_llm"  # the hub validator's id, which this package replaces
ENTRY = {"import_path": "provenance_guard", "exports": ["ProvenanceLLM"],
         "package_name": "provenance-guard"}


def registry_path(project: Path) -> Path:
    return project / ".guardrails" / "hub_registry.json"


def _read(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {"version": 1, "validators": {}}
    try:
        registry = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path} is not a readable registry ({error}); fix or remove it, "
                         "then run the command again.") from None
    if not isinstance(registry, dict) or not isinstance(registry.get("validators", {}), dict):
        raise ValueError(f"{path} is not a Guardrails hub registry (an object with "
                         "'validators'); fix or remove it, then run the command again.")
    registry.setdefault("version", 1)
    registry.setdefault("validators", {})
    return registry


def _write(path: Path, registry: dict[str, Any]) -> None:
    """Written whole or not at all (a temporary file renamed over it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".hub_registry.")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        json.dump(registry, out, indent=2)
        out.write("\n")
    os.replace(temporary, path)


def register(project: Path) -> str:
    """This package's entry in ``project``'s hub registry; what was done, in a line."""
    path = registry_path(project)
    registry = _read(path)
    theirs = [key for key, entry in registry["validators"].items() if key != HUB_ID
              and isinstance(entry, dict) and "ProvenanceLLM" in entry.get("exports", [])]
    if theirs:
        raise ValueError(f"{path} already has ProvenanceLLM from {theirs[0]!r}; remove that "
                         "entry (guardrails hub uninstall) first, so one import means one "
                         "validator.")
    registry["validators"][HUB_ID] = {
        **ENTRY, "installed_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    _write(path, registry)
    return (f"registered: `from guardrails.hub import ProvenanceLLM` in {project} now imports "
            f"provenance_guard ({path}); undo with `provenance register --undo`")


def unregister(project: Path) -> str:
    path = registry_path(project)
    registry = _read(path)
    entry = registry["validators"].get(HUB_ID)
    if not isinstance(entry, dict) or entry.get("import_path") != ENTRY["import_path"]:
        return f"nothing to undo: {path} has no entry of provenance_guard"
    del registry["validators"][HUB_ID]
    _write(path, registry)
    return f"unregistered: {path} no longer maps ProvenanceLLM to provenance_guard"


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    project = Path(args.project)
    if not project.is_dir():
        parser.error(f"--project {project}: not a folder")
    try:
        print(unregister(project) if args.undo else register(project))
    except ValueError as error:
        print(f"provenance: {error}", file=sys.stderr)
        return exits.USAGE
    return exits.PASSED
