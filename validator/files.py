"""Reading and writing files: the one atomic write and the one JSONL reader."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple


def atomic_write(path: str | os.PathLike, data: bytes, durable: bool = False) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory renamed into
    place: a reader sees the old file or the new one, never half of one. ``durable`` also
    syncs the data to disk before the rename (it survives a power cut, at a cost)."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            if durable:
                file.flush()
                os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class Line(NamedTuple):
    number: int  # 1-based
    where: str  # "FILE, line N", for error messages
    text: str
    value: Any  # the parsed JSON


def read_jsonl(path: str | os.PathLike) -> Iterator[Line]:
    """Each non-blank line of a JSONL file, parsed. A line that is not JSON raises
    ``ValueError`` saying where. A UTF-8 byte-order mark at the start is accepted."""
    text = Path(path).read_text(encoding="utf-8-sig")
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}, line {number}"
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"{where}: not JSON ({error}).") from None
        yield Line(number, where, line, value)
