"""What the installed package asks pip for: no release of a dependency known to be malicious.
(CI's environment is made anew whenever pyproject.toml changes, so its metadata is the file's.)"""

from importlib.metadata import requires

from packaging.requirements import Requirement

# Releases published with code that steals credentials (LiteLLM: 1.82.7 and 1.82.8 in March
# 2026; 1.107.0 later, after which the index served no 1.107 release: the series is excluded).
MALICIOUS = {"litellm": ["1.82.7", "1.82.8", "1.107.0", "1.107.1", "1.107.12"]}
SAFE_NEIGHBOURS = {"litellm": ["1.82.6", "1.82.9", "1.106.9", "1.108.0"]}


def test_no_known_malicious_release_can_be_installed():
    wanted = {r.name: r for r in map(Requirement, requires("provenance-guard")) if not r.marker}
    for name, releases in MALICIOUS.items():
        allowed = [r for r in releases if wanted[name].specifier.contains(r)]
        assert not allowed, f"{name} {allowed} can be installed: {wanted[name]}"
        # the releases around them still can
        assert all(wanted[name].specifier.contains(r) for r in SAFE_NEIGHBOURS[name])
