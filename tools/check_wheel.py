"""The wheel as a user meets it: build it, install it into a fresh virtual environment next to a
hub-template validator (which ships a top-level `validator` package), and run the package and its
command from outside the checkout, offline.

    python tests/check_wheel.py        (.ci/run calls it; exit status 1 on any failure)

The fresh environment borrows its dependencies from the running interpreter's site-packages
(a .pth file), so nothing but the two wheels is installed. `build_wheel` and `install_wheel` are
also used by tests/system/test_offline.py.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PLACEHOLDER = "share/nltk_data/tokenizers/punkt/provenance-guard-placeholder.txt"
SUITE = "provenance_guard/evaluation/data/groundedness_suite.jsonl"
THROWAWAY = "throwaway-hub-validator"


class CheckFailed(Exception):
    pass


def _run(command: list, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, **kwargs)


def _build_env() -> dict:
    # PYTHONDONTWRITEBYTECODE makes distutils log "byte-compiling is disabled" as a warning;
    # it comes from the caller's environment, not from our configuration.
    return {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def _pip_wheel(source: Path, dest: Path, isolated: bool) -> tuple[Path, str]:
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", dest, source]
    if not isolated:
        command.insert(-1, "--no-build-isolation")
    done = _run(command, env=_build_env())
    log = done.stdout + done.stderr
    if done.returncode != 0:
        raise CheckFailed(f"building {source.name} failed:\n{log[-3000:]}")
    return next(dest.glob("*.whl")), log


def build_wheel(dest: Path, isolated: bool = True) -> tuple[Path, list[str]]:
    """Build our wheel from a copy of the files git knows (tracked or not ignored), so nothing
    left in build/ or *.egg-info/ can slip into it. Returns the wheel and the build's warnings.
    `isolated=False` builds with the running environment's setuptools (no registry needed)."""
    source = copy_checkout(dest / "source")
    wheel, log = _pip_wheel(source, dest / "wheels", isolated)
    warnings = [line.strip() for line in log.splitlines() if re.search(r"warn", line, re.IGNORECASE)]
    return wheel, warnings


def copy_checkout(dest: Path) -> Path:
    """A copy of the files git knows in the checkout (tracked or not ignored) at ``dest``: what
    a fresh clone holds, plus work not yet committed."""
    listed = _run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO, check=True)
    for name in filter(None, listed.stdout.split("\0")):
        if (REPO / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, dest / name)
    return dest


def check_contents(wheel: Path) -> list[str]:
    """What the wheel must and must not hold; returns a line per finding for the summary."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    problems = []
    if any(name.startswith("validator/") for name in names):
        problems.append("a top-level validator/ package is in the wheel")
    expected = {SUITE, *(f"provenance_guard/{path.relative_to(REPO / 'validator')}"
                         for pattern in ("*.py", "py.typed", "templates/*.html", "rules/*.txt")
                         for path in (REPO / "validator").rglob(pattern))}
    problems += [f"missing: {name}" for name in sorted(expected - names)]
    if not any(name.endswith(".dist-info/licenses/LICENSE") for name in names):
        problems.append("missing: the LICENSE file in .dist-info/licenses/")
    if not any(name.endswith(f".data/data/{PLACEHOLDER}") for name in names):
        problems.append(f"missing: the data file {PLACEHOLDER}")
    if any("_nltk_data" in name for name in names):
        problems.append("the nltk placeholder is also inside the package")
    for field in ("License-Expression: MIT", "License-File: LICENSE"):
        if field not in metadata.splitlines():
            problems.append(f"METADATA lacks '{field}'")
    return problems


def install_wheel(venv: Path, *wheels: Path) -> Path:
    """A fresh virtual environment holding `wheels` (no dependencies of their own), whose other
    imports resolve to the running interpreter's site-packages. Returns its python."""
    _run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    python = venv / "bin" / "python"
    purelib = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                   check=True).stdout.strip()
    # A path line, not a site dir: .pth files there (our editable install's finder) are not run.
    Path(purelib, "_borrowed_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip(python, "install", "--no-deps", "--no-index", *wheels)
    return python


def pip(python: Path, *args) -> str:
    done = _run([sys.executable, "-m", "pip", "--python", python, *args])
    if done.returncode != 0:
        raise CheckFailed(f"pip {' '.join(map(str, args))} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def build_throwaway_validator(dest: Path) -> Path:
    """A wheel like every template-built hub validator: a top-level `validator` package."""
    project = dest / "throwaway"
    (project / "validator").mkdir(parents=True)
    (project / "pyproject.toml").write_text(textwrap.dedent(f"""\
        [build-system]
        requires = ["setuptools>=61"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "{THROWAWAY}"
        version = "0.0.1"

        [tool.setuptools]
        packages = ["validator"]
        """))
    (project / "validator" / "__init__.py").write_text('NAME = "throwaway"\n')
    return _pip_wheel(project, dest / "throwaway-wheels", isolated=False)[0]


def offline_prefix() -> list[str]:
    """`unshare -n` (no network at all) when the system allows it, as root or in a user
    namespace (`-r`), else nothing."""
    unshare = shutil.which("unshare")
    for flags in ("-n", "-rn"):
        if unshare and _run([unshare, flags, "true"]).returncode == 0:
            return [unshare, flags]
    return []


class UserSession:
    """Commands run as a user would: from a directory outside the checkout, a home of their own
    (Guardrails' metrics off), the environment's bin/ first on PATH, offline if possible."""

    def __init__(self, python: Path, workdir: Path):
        self.python = python
        self.workdir = workdir
        home = workdir / "home"
        home.mkdir()
        (home / ".guardrailsrc").write_text("enable_metrics=false\n")
        self.env = {"HOME": str(home), "PATH": f"{python.parent}:/usr/bin:/bin",
                    "LANG": os.environ.get("LANG", "C.UTF-8")}
        self.prefix = offline_prefix()

    def run(self, *command, expect: int) -> str:
        done = _run([*self.prefix, *command], cwd=self.workdir, env=self.env, timeout=900)
        if "Traceback" in done.stderr or done.returncode != expect:
            shown = " ".join(map(str, command))
            raise CheckFailed(f"`{shown}` exited {done.returncode} (expected {expect}):\n"
                              f"{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
        return done.stdout

    def python_says(self, code: str) -> str:
        return self.run(self.python, "-c", code, expect=0).strip()


def check_installed(python: Path, workdir: Path) -> list[str]:
    """Runs the user's commands; returns one line per step passed, raises CheckFailed on the first
    that fails."""
    user = UserSession(python, workdir)
    site = Path(user.python_says("import sysconfig; print(sysconfig.get_paths()['purelib'])"))
    prefix = Path(user.python_says("import sys; print(sys.prefix)"))
    steps = []

    def step(ok: bool, text: str) -> None:
        if not ok:
            raise CheckFailed(text)
        steps.append(text)

    step((prefix / PLACEHOLDER).is_file(), f"the nltk placeholder is installed at {PLACEHOLDER}")
    located = user.python_says("import provenance_guard, validator\n"
                               "print(provenance_guard.__file__); print(validator.NAME)")
    step(located.splitlines() == [str(site / "provenance_guard" / "__init__.py"), "throwaway"],
         "import provenance_guard: from the wheel, beside the throwaway top-level validator")
    examples = REPO / "examples"
    page = workdir / "report.html"
    report = user.run("provenance", "check", "--source", examples / "eiffel_history.txt",
                      "--source", examples / "eiffel_visiting.txt",
                      "--text", examples / "answer.txt", "--html", page, expect=1)
    step("2 of 5 judged sentences supported" in report,
         "provenance check on the example: exit 1, 2 of 5 judged sentences supported (fails closed)")
    shown = page.read_text(encoding="utf-8") if page.is_file() else ""
    step(shown.count("<details id=") == 5,
         "its HTML report, from the template in the wheel: 5 sentences")
    report = user.run("provenance", "meta-eval", expect=0)
    step(f"42 cases from {site / SUITE}" in report,
         "provenance meta-eval: exit 0, 42 cases from the suite in the wheel")
    pip(python, "uninstall", "-y", THROWAWAY)
    survived = user.python_says("import importlib.util, provenance_guard\n"
                                "from provenance_guard.evaluation.suite import SUITE\n"
                                "print(importlib.util.find_spec('validator') is None, SUITE.is_file())")
    step(survived == "True True", "throwaway uninstalled: provenance_guard still imports, suite intact")
    offline = f"unshare {user.prefix[1]}" if user.prefix else "no (unshare -n is not allowed here)"
    return [*steps, f"offline: {offline}"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="provenance-wheel-"))
    try:
        wheel, warnings = build_wheel(work)
        print(f"wheel: {wheel.name}")
        problems = [f"build warning: {line}" for line in warnings] + check_contents(wheel)
        if problems:
            raise CheckFailed("\n".join(problems))
        print("  ok  built without warnings; holds the suite, LICENSE (in METADATA too), every "
              "module, the nltk placeholder as a data file; no top-level validator/")
        throwaway = build_throwaway_validator(work)
        python = install_wheel(work / "venv", wheel, throwaway)
        elsewhere = work / "elsewhere"
        elsewhere.mkdir()
        for line in check_installed(python, elsewhere):
            print(f"  ok  {line}")
    except CheckFailed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print("wheel check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
