"""Judge replies kept for reuse: in memory (what was read from them, by prompt) and on disk
(the replies themselves, for a rerun in another process)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ..errors import warn
from ..storage import LRU, MiB, atomic_write

MAX_BYTES = 32 * MiB  # of prompt and reply text kept in memory, per judge


class ReplyCache(LRU[str, object]):
    """A bounded, thread-safe LRU from prompt to what was read from its reply: at most
    ``max_entries`` prompts and ``max_bytes`` of their text."""

    def __init__(self, max_entries: int = 4096, max_bytes: int = MAX_BYTES):
        super().__init__(max_entries, max_bytes)


class ReplyStore:
    """Replies kept on disk, one small JSON file per (judge identity, prompt), so that a rerun
    (another process, another day) pays for no call it already made. Only replies something
    readable was found in are stored. Files are written to a temporary name and renamed; a
    file that cannot be read is ignored (the call is made again) and rewritten."""

    def __init__(self, directory: str | os.PathLike, identity: str):
        self.directory = Path(directory)
        self.identity = identity
        self._warned = False

    def _path(self, prompt: str) -> Path:
        key = hashlib.sha256(f"{self.identity}\x00{prompt}".encode("utf-8", "surrogatepass"))
        digest = key.hexdigest()
        return self.directory / digest[:2] / f"{digest}.json"

    def get(self, prompt: str) -> str | None:
        try:
            stored = json.loads(self._path(prompt).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        reply = stored.get("reply") if isinstance(stored, dict) else None
        return reply if isinstance(reply, str) else None

    def put(self, prompt: str, reply: str) -> None:
        path = self._path(prompt)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, json.dumps({"identity": self.identity, "reply": reply})
                         .encode("utf-8", "surrogatepass"))
        except OSError as error:
            if not self._warned:
                self._warned = True
                warn(f"cannot store judge replies in {self.directory} ({error}); "
                              "going on without the disk cache")
