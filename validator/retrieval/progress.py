"""Progress of long work (embedding a large source into its index), told once the work has run
a couple of seconds, so that short work stays silent:

- as log records of the ``provenance_guard`` logger at INFO, one every few seconds and one at
  the end, for a server's or a notebook's logging (``logging.basicConfig(level=logging.INFO)``
  shows them);
- as a tqdm bar on standard error where it is a terminal (``TQDM_DISABLE=1`` turns it off, as
  for every tqdm bar).

The command line shows the log records on standard error where no terminal shows the bar. A
server avoids the wait in a request by building its indexes at start-up:
``validator.warm_up(sources)``, or ``index_dir`` to embed a corpus once across processes."""

from __future__ import annotations

import logging
import os
import shutil
import sys
import time
from typing import Any

LOG = logging.getLogger("provenance_guard")
AFTER = 2.0  # seconds of work before anything is told
EVERY = 5.0  # seconds between two log records


class Progress:
    """``done`` of ``total`` ``unit`` of ``what``, told as the module says. Call ``advance``
    as the work goes, ``close`` at its end (whether it finished or not)."""

    def __init__(self, what: str, total: int, unit: str):
        self.what, self.total, self.unit = what, total, unit
        self.started = time.monotonic()
        self.logged: float | None = None  # when the last record was logged
        self.done = 0
        self._bar: Any = None

    def advance(self, done: int) -> None:
        self.done = done
        now = time.monotonic()
        if now - self.started < AFTER:
            return
        if self._bar is None and self.logged is None and bar_shown():
            from tqdm import tqdm

            sized = shutil.get_terminal_size((0, 0)).columns > 0  # a pty may report 0 columns
            # from what is done already, so that its rate is not that of a jump from zero
            self._bar = tqdm(total=self.total, initial=done, desc=self.what, unit=self.unit,
                             file=getattr(sys.stderr, "raw", sys.stderr), leave=False,
                             dynamic_ncols=sized, ncols=None if sized else 80, mininterval=0)
        elif self._bar is not None:
            self._bar.update(done - self._bar.n)
        if self.logged is None or now - self.logged >= EVERY:
            self.logged = now
            LOG.info("%s: %s of %s %s, %.0f s", self.what, f"{done:,}", f"{self.total:,}",
                     self.unit, now - self.started)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        if self.logged is not None:  # something was told: say it ended
            LOG.info("%s: %s of %s %s in %.1f s", self.what, f"{self.done:,}",
                     f"{self.total:,}", self.unit, time.monotonic() - self.started)


def bar_shown() -> bool:
    """Whether a bar is drawn: standard error is a terminal, and tqdm is not turned off."""
    if os.environ.get("TQDM_DISABLE", "").strip().lower() in ("1", "true", "yes"):
        return False
    stream = getattr(sys.stderr, "raw", sys.stderr)
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no stream, or a closed one
        return False


def to_stderr() -> None:
    """Show this package's progress records on standard error, where no bar is drawn (no
    terminal, or ``TQDM_DISABLE``): the command line's set-up."""
    if bar_shown() or any(isinstance(h, _ToStderr) for h in LOG.handlers):
        return
    handler = _ToStderr()
    handler.setFormatter(logging.Formatter("provenance: %(message)s"))
    handler.setLevel(logging.INFO)
    LOG.addHandler(handler)
    LOG.propagate = False  # the command's own line, not a second one by a library's root handler
    if LOG.level == logging.NOTSET or LOG.level > logging.INFO:
        LOG.setLevel(logging.INFO)


class _ToStderr(logging.Handler):
    """The command line's handler of progress records: to whatever ``sys.stderr`` is when a
    record is written (a command run in-process, as tests do, may have replaced it since)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
            sys.stderr.flush()
        except Exception:  # noqa: BLE001 - logging's own way: report, never raise
            self.handleError(record)
