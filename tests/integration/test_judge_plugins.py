"""A judge as a plugin: a package that declares an entry point in ``provenance_guard.judges``
adds its prefix to ``llm_callable``. The example package the docs show is installed for real
(pip, into a folder of its own) and used from a fresh process; a broken plugin is refused
naming itself."""

import json
import re
import shutil
import subprocess
import sys
import textwrap

import pytest
from conftest import REPO

pytestmark = pytest.mark.slow  # a package built and installed, processes started

EXAMPLE = REPO / "examples" / "judge-plugin"


def install(source, target) -> None:
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--no-build-isolation", "--no-index", "--target", str(target),
                           str(source)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def run(code: str, *paths) -> subprocess.CompletedProcess:
    env_path = ":".join(str(p) for p in paths)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=paths[0],
                          env={"PYTHONPATH": env_path, "HF_HUB_OFFLINE": "1",
                               "PATH": "/usr/bin:/bin"})


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    target = tmp_path_factory.mktemp("plugins")
    source = tmp_path_factory.mktemp("source") / "judge-plugin"
    shutil.copytree(EXAMPLE, source)
    install(source, target)
    return target


def test_the_documented_plugin_installed_is_a_judge_name(installed):
    page = (REPO / "docs" / "custom-judges.md").read_text(encoding="utf-8")
    snippet = next(block for block in re.findall(r"```py\n(.*?)```", page, re.DOTALL)
                   if "wordy:exact" in block)
    done = run(snippet, installed)
    assert done.returncode == 0, done.stderr[-3000:]
    printed = [line[2:] for line in snippet.splitlines() if line.startswith("# ")]
    assert done.stdout.splitlines() == printed
    # the factory the page shows is the package's own
    factory = re.search(r"```py\n# examples/judge-plugin/provenance_judge_wordy.py.*?\n(def "
                        r"make.*?)```", page, re.DOTALL).group(1)
    assert factory.strip().splitlines()[-1].split("#")[0].strip() in (
        EXAMPLE / "provenance_judge_wordy.py").read_text(encoding="utf-8")


def test_a_plugin_judge_wears_the_validators_policies_and_its_name_is_listed(installed):
    code = textwrap.dedent("""
        import json
        from provenance_guard import ProvenanceLLM, ConfigurationError
        from provenance_guard.judges.factory import names
        v = ProvenanceLLM(llm_callable="wordy:any-case", min_support_probability=0.5)
        report = v.check("the eiffel tower was finished in 1889.",
                         {"sources": ["The Eiffel Tower was finished in 1889."]})
        try:
            ProvenanceLLM(llm_callable="wordy:loud")
            refused = None
        except ValueError as error:
            refused = str(error)
        from provenance_guard.judges import make_judge
        try:
            make_judge("wordy:exact", template="{passages} {statement}")
            templated = None
        except ConfigurationError as error:
            templated = str(error)
        five = ProvenanceLLM(llm_callable="wordy:exact").check(
            "The fee is 5.", {"sources": ["The fee is 50 dollars."]})
        print(json.dumps({"label": str(report.sentences[0].label),
                          "reason": report.sentences[0].verdict.reason,
                          "usage": report.usage.calls, "names": names(),
                          "refused": refused, "templated": templated,
                          "five": five.passed}))
    """)
    done = run(code, installed)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    # a judge object's verdict carries no probability: the threshold the settings ask for holds
    # it back, as for any judge object
    assert found["label"] == "invalid" and "min_support_probability" in found["reason"]
    assert found["usage"] == 1  # its call went through the call layer and was counted
    assert "'wordy:...'" in found["names"]
    assert found["refused"] == "wordy: takes 'exact' or 'any-case'; got 'loud'."
    assert found["templated"] == ("template is for a LiteLLM model's prompts and replies, and "
                                  "'wordy:exact' is a plugin's judge: leave it out.")
    assert found["five"] is False  # the example judge reads whole words: "5" is not "50"


def test_a_broken_plugin_is_refused_naming_the_plugin_and_its_package(tmp_path):
    source = tmp_path / "broken"
    source.mkdir()
    (source / "pyproject.toml").write_text(textwrap.dedent("""
        [build-system]
        requires = ["setuptools>=61"]
        build-backend = "setuptools.build_meta"
        [project]
        name = "broken-judges"
        version = "0.1.0"
        [project.entry-points."provenance_guard.judges"]
        gone = "broken_judges:missing"
        none = "broken_judges:makes_none"
        raising = "broken_judges:raises"
        local = "broken_judges:makes_none"
        [tool.setuptools]
        py-modules = ["broken_judges"]
    """), encoding="utf-8")
    (source / "broken_judges.py").write_text(textwrap.dedent("""
        def makes_none(rest, llm_kwargs, settings):
            return None
        def raises(rest, llm_kwargs, settings):
            raise KeyError("no such model")
    """), encoding="utf-8")
    target = tmp_path / "site"
    install(source, target)
    code = textwrap.dedent("""
        import json
        from provenance_guard import ProvenanceLLM
        said = {}
        for name in ("gone:x", "none:x", "raising:x", "local"):
            try:
                said[name] = type(ProvenanceLLM(llm_callable=name).judge).__name__
            except Exception as error:
                said[name] = f"{type(error).__name__}: {error}"
        print(json.dumps(said))
    """)
    done = run(code, target)
    assert done.returncode == 0, done.stderr[-3000:]
    said = json.loads(done.stdout.splitlines()[-1])
    where = "the judge plugin '{}:' (broken_judges:{}, from broken-judges)"
    assert said["gone:x"].startswith("ConfigurationError: " + where.format("gone", "missing")
                                     + " could not be loaded (AttributeError")
    assert said["none:x"].startswith("ConfigurationError: " + where.format("none", "makes_none")
                                     + " returned None, not a judge")
    assert said["raising:x"].startswith("ConfigurationError: " + where.format("raising", "raises")
                                        + " raised KeyError")
    assert said["local"] == "LocalJudge"  # a built-in name wins over a plugin's
