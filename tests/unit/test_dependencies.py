"""What the installed package asks pip for: no release of a dependency known to be malicious."""

from importlib.metadata import requires

from packaging.requirements import Requirement

# Releases published with code that steals credentials (LiteLLM, March 2026).
MALICIOUS = {"litellm": ["1.82.7", "1.82.8"]}


def test_no_known_malicious_release_can_be_installed():
    wanted = {r.name: r for r in map(Requirement, requires("provenance-guard")) if not r.marker}
    for name, releases in MALICIOUS.items():
        assert not any(wanted[name].specifier.contains(r) for r in releases), wanted[name]
        assert wanted[name].specifier.contains("1.82.9")  # the releases around them still are
