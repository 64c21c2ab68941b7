"""Arize Phoenix, a trace viewer that takes OpenTelemetry's OTLP and answers a REST API, in an
environment of its own (its dependencies are not the package's), for the trace tests
(tests/system/test_traces.py).

    python tools/phoenix_server.py --install    # the environment, once (kept in the cache)
    python tools/phoenix_server.py --where      # its phoenix command, if installed

The environment is kept in ``$XDG_CACHE_HOME/provenance-guard-phoenix`` (else ``~/.cache``),
keyed by Phoenix's version and the Python that made it; an install cut short is never reused.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

PHOENIX = "arize-phoenix==20.26.1"


def home() -> Path:
    """Where the environment lives, keyed by what decides its contents."""
    # the user's home, also under the tests (which give each run a home of its own)
    user = Path(os.environ.get("PROVENANCE_USER_HOME") or Path.home())
    cache = Path(os.environ.get("XDG_CACHE_HOME") or user / ".cache")
    key = hashlib.sha256(f"{PHOENIX} {sys.version}".encode()).hexdigest()[:12]
    return cache / "provenance-guard-phoenix" / f"venv-{key}"


def command() -> Path | None:
    """The installed environment's ``phoenix`` command, or None."""
    venv = home()
    found = venv / "bin" / "phoenix"
    return found if (venv / "installed").exists() and found.exists() else None


def install() -> Path:
    venv = home()
    if command() is not None:
        return venv / "bin" / "phoenix"
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    subprocess.run([*pip, PHOENIX], check=True)
    (venv / "installed").touch()
    return venv / "bin" / "phoenix"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--install", action="store_true", help="install it if it is not")
    parser.add_argument("--where", action="store_true", help="print its phoenix command")
    args = parser.parse_args(argv)
    found = install() if args.install else command()
    if args.where or args.install:
        print(found if found is not None else "not installed (run with --install)")
    return 0 if found is not None else 1


if __name__ == "__main__":
    raise SystemExit(main())
