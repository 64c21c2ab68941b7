"""Nothing reaches the network at import or during validation with a callable judge, with the
real default embedder, whichever of guardrails and provenance_guard is imported first, in an
editable install and in the installed wheel (group-writable too). Child processes record every
connection attempt with an audit hook."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from check_wheel import build_wheel, install_wheel
from conftest import REPO

# The start of every child: an audit hook records each connection attempt in `attempts`.
AUDIT = textwrap.dedent("""
    import json, sys
    attempts = []
    def hook(event, args):
        if event in ("socket.connect", "socket.getaddrinfo", "urllib.Request"):
            attempts.append(f"{event} {args!r}"[:200])
    sys.addaudithook(hook)
""")

CHILD = AUDIT + textwrap.dedent("""
    import provenance_guard
    from guardrails import Guard
    from provenance_guard import ProvenanceLLM
    after_import = list(attempts)

    sources = ["The Eiffel Tower is in Paris. It was finished in 1889.", "The Louvre holds the Mona Lisa."]
    text = "The Eiffel Tower is in Paris. It was painted gold."
    judge = lambda prompt: "yes" if "Paris" in prompt.split("BEGIN STATEMENT")[1] else "no"
    direct = ProvenanceLLM(llm_callable=judge, on_fail="noop", top_k=1).validate(text, {"sources": sources})
    guard = Guard().use(ProvenanceLLM(llm_callable=judge, on_fail="fix"))
    outcome = guard.validate(text, metadata={"sources": sources})
    print(json.dumps({"after_import": after_import, "all": attempts,
                      "direct": direct.outcome, "fixed": outcome.validated_output,
                      "similarity": direct.metadata["sentences"][0]["evidence"][0]["similarity"],
                      "litellm_env": __import__("os").environ["LITELLM_LOCAL_MODEL_COST_MAP"]}))
""")


def test_no_connection_attempts(tmp_path):
    (tmp_path / ".guardrailsrc").write_text("enable_metrics=false\n")  # Guardrails' switch
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                          env=env, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["after_import"] == []
    assert report["all"] == []
    assert report["direct"] == "fail"
    assert report["fixed"] == "The Eiffel Tower is in Paris."
    assert report["similarity"] > 0.5  # the real default model embedded the sources
    assert report["litellm_env"] == "True"
    assert "nltk_data" not in done.stderr  # Guardrails did not try to download punkt


# Guardrails looks for nltk's punkt data when imported and downloads it when missing. Whichever is
# imported first, no connection may be attempted and nothing about nltk printed; importing leaves
# nltk as it was (download function, warning filters, search path) and starts no thread.
IMPORTS = AUDIT + textwrap.dedent("""
    import threading, warnings
    import nltk
    download, search_path = nltk.download, list(nltk.data.path)
    for name in sys.argv[1:]:
        __import__(name)
    import provenance_guard
    print(json.dumps({
        "attempts": attempts, "package": provenance_guard.__file__,
        "download_restored": nltk.download is download, "path_unchanged": nltk.data.path == search_path,
        "filters_left": [f[1].pattern for f in warnings.filters if f[1] and "NLTK" in f[1].pattern],
        "threads": threading.active_count()}))
""")
GUARDRAILS_FIRST = ("guardrails", "provenance_guard")
OURS_FIRST = ("provenance_guard", "guardrails")


def _import_offline(python, order, tmp_path) -> dict:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    (home / ".guardrailsrc").write_text("enable_metrics=false\n")
    done = subprocess.run([str(python), "-c", IMPORTS, *order], capture_output=True, text=True,
                          env={"HOME": str(home), "PATH": "/usr/bin:/bin"}, timeout=300, cwd=home)
    assert done.returncode == 0, done.stderr
    assert "nltk" not in done.stderr.lower(), done.stderr  # no download error, no refused-dir warning
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["attempts"] == []
    assert report["download_restored"] and report["path_unchanged"] and report["filters_left"] == []
    assert report["threads"] == 1
    return report


@pytest.mark.parametrize("order", [GUARDRAILS_FIRST, OURS_FIRST],
                         ids=["guardrails first", "ours first"])
def test_editable_install_either_import_order(tmp_path, order):
    # The development environment is an editable install: setup.py has it install the
    # placeholder as a wheel does (setuptools alone skips data files there).
    report = _import_offline(sys.executable, order, tmp_path)
    assert report["package"] == str(REPO / "validator" / "__init__.py")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    built, _ = build_wheel(tmp_path_factory.mktemp("wheel"), isolated=False)
    return built


# Group-writable as under a umask of 002: nltk refuses such data directories. With the whole
# environment group-writable and guardrails imported first, nothing of ours has run before the
# download, and no case is claimed for it (docs/offline.md).
@pytest.mark.parametrize("order, writable", [
    (GUARDRAILS_FIRST, None), (OURS_FIRST, None),
    (GUARDRAILS_FIRST, "package folder"), (OURS_FIRST, "package folder"),
    (OURS_FIRST, "environment"),
], ids=["guardrails first", "ours first", "guardrails first, package folder group-writable",
        "ours first, package folder group-writable", "ours first, environment group-writable"])
def test_installed_wheel_either_import_order(wheel, tmp_path, order, writable):
    python = install_wheel(tmp_path / "venv", wheel)
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                                "['purelib'])"], capture_output=True, text=True, check=True).stdout.strip())
    if writable:
        target = site / "provenance_guard" if writable == "package folder" else tmp_path / "venv"
        subprocess.run(["chmod", "-R", "g+w", str(target)], check=True)
    report = _import_offline(python, order, tmp_path)
    assert report["package"] == str(site / "provenance_guard" / "__init__.py")
