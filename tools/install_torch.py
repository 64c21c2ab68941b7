"""PyTorch's CPU build into a virtual environment, from the first source that has one for its
Python, each source asked once:

1. pip's own configuration (a wheel in its ``find-links`` or a local index, as on a machine
   prepared for offline work), asked with ``--no-index`` so that no index is contacted;
2. PyTorch's CPU index beside PyPI, asked first with one request and a short timeout: where it
   cannot be reached, pip is not sent there (pip would retry it for every package it installs);
3. none: said loudly, with what was tried. Then ``--else pypi`` (the default, for a user's
   set-up) installs PyPI's build, which works anywhere but on Linux is the CUDA build, several
   GB; ``--else none`` (CI) installs nothing and exits with status 3, so the caller can set the
   environment up without PyTorch and say what that leaves out.

    python tools/install_torch.py VENV_PYTHON [--else pypi|none]

Runs with any Python 3.8 or newer (it imports nothing of the package's); ``VENV_PYTHON`` is the
environment's interpreter. Nothing is done when the environment already has the version asked
for in a CPU build.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import urllib.error
import urllib.request

VERSION = "2.13.0"  # the README's; any PyTorch 2 works, this one is what is tested
CPU_INDEX = "https://download.pytorch.org/whl/cpu"
PROBE_SECONDS = 5.0
NONE = 3  # exit status: no CPU build could be had and --else none was asked


def installed(python: str) -> str | None:
    """The environment's PyTorch, as 'VERSION cpu' or 'VERSION cuda', or None."""
    done = subprocess.run(
        [python, "-c", "import torch; print(torch.__version__.split('+')[0], "
                       "'cuda' if torch.version.cuda else 'cpu')"],
        capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def pip(python: str, *args: str, capture: bool = False) -> subprocess.CompletedProcess:
    return subprocess.run([python, "-m", "pip", "install", "-q", *args], capture_output=capture,
                          text=True)


def from_configuration(python: str) -> bool:
    """Whether pip's configuration offers the CPU wheel without asking any index."""
    dry = pip(python, "--dry-run", "--ignore-installed", "--no-index", "--no-deps",
              f"torch=={VERSION}", capture=True)
    return dry.returncode == 0


def reachable(url: str, timeout: float = PROBE_SECONDS) -> str | None:
    """None where ``url`` answers; else why not, in a few words."""
    try:
        with urllib.request.urlopen(f"{url}/torch/", timeout=timeout) as response:
            response.read(1)
        return None
    except urllib.error.HTTPError as error:
        return f"it answered HTTP {error.code}"
    except (urllib.error.URLError, OSError) as error:
        return str(getattr(error, "reason", error))


def loudly(lines: list[str]) -> None:
    bar = "!" * 78
    print("\n".join([bar, *(f"!! {line}" for line in lines), bar]), file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("python", help="the virtual environment's interpreter")
    parser.add_argument("--else", dest="otherwise", choices=("pypi", "none"), default="pypi",
                        help="where no CPU build can be had: PyPI's build (default), or none")
    args = parser.parse_args(argv)
    python = args.python

    if installed(python) == f"{VERSION} cpu":
        return 0
    if from_configuration(python):
        done = pip(python, f"torch=={VERSION}")
        return done.returncode
    why = reachable(CPU_INDEX)
    if why is None:
        # pip retries a failing index for every package: a short timeout and one retry, since
        # the index just answered
        done = pip(python, "--retries", "1", "--timeout", "30", f"torch=={VERSION}",
                   "--extra-index-url", CPU_INDEX)
        return done.returncode
    version = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                             capture_output=True, text=True).stdout.strip()
    told = [f"No CPU build of PyTorch {VERSION} for Python {version} can be had here:",
            "  pip's configuration offers none, and PyTorch's CPU index",
            f"  ({CPU_INDEX}) cannot be reached: {why}."]
    if args.otherwise == "none":
        loudly([*told, "This environment is set up without PyTorch."])
        return NONE
    loudly([*told, "Installing PyPI's build instead: it works, but on Linux it is the CUDA build",
            "(several GB of NVIDIA packages). Where PyTorch's index can be reached, run this again."])
    return pip(python, f"torch=={VERSION}").returncode


if __name__ == "__main__":
    sys.exit(main())
