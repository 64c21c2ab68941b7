"""Progress of a long index build (provenance_guard.progress): silent for short work, then log
records every few seconds and at the end, and a bar where standard error is a terminal."""

import io
import logging
import sys

import pytest
from conftest import ToyEmbedder

from provenance_guard.retrieval import progress
from provenance_guard.retrieval.embedding import FunctionEmbedder
from provenance_guard.retrieval.index.cache import BUILD_SLICE, _embedded


@pytest.fixture(autouse=True)
def logger_as_new(monkeypatch):
    """The package's logger as a process starts with it: a command run in-process earlier in
    this worker may have given it the command line's handler and stopped its propagation."""
    monkeypatch.setattr(progress.LOG, "handlers", [])
    monkeypatch.setattr(progress.LOG, "propagate", True)
    monkeypatch.setattr(progress.LOG, "level", logging.NOTSET)


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(progress.time, "monotonic", clock)
    return clock


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def told(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "provenance_guard"]


def test_short_work_is_silent(clock, caplog, monkeypatch):
    monkeypatch.setattr(sys, "stderr", Terminal())
    caplog.set_level(logging.INFO, logger="provenance_guard")
    work = progress.Progress("embedding the sources", 10, "passages")
    clock.now += progress.AFTER - 0.5
    work.advance(10)
    work.close()
    assert told(caplog) == [] and sys.stderr.getvalue() == ""


def test_long_work_is_logged_every_few_seconds_and_at_its_end(clock, caplog, monkeypatch):
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # no terminal: no bar
    caplog.set_level(logging.INFO, logger="provenance_guard")
    work = progress.Progress("embedding the sources", 1_000, "passages")
    for done in range(100, 1_001, 100):
        clock.now += 1.5
        work.advance(done)
    work.close()
    assert told(caplog) == [
        "embedding the sources: 200 of 1,000 passages, 3 s",  # the first past 2 s
        "embedding the sources: 600 of 1,000 passages, 9 s",  # 5 s later
        "embedding the sources: 1,000 of 1,000 passages, 15 s",
        "embedding the sources: 1,000 of 1,000 passages in 15.0 s"]
    assert sys.stderr.getvalue() == ""


def test_a_terminal_gets_a_bar_that_is_cleared_at_the_end(clock, monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    work = progress.Progress("embedding the sources", 300, "passages")
    clock.now += 3
    work.advance(64)
    assert "embedding the sources" in terminal.getvalue() and "64/300" in terminal.getvalue()
    work.close()


def test_an_index_build_reports_each_slice(monkeypatch, caplog):
    monkeypatch.setattr(progress, "AFTER", 0.0)
    monkeypatch.setattr(progress, "EVERY", 0.0)
    caplog.set_level(logging.INFO, logger="provenance_guard")
    texts = [f"passage {n} about the mill of Vell{n}" for n in range(2 * BUILD_SLICE + 5)]
    vectors = _embedded(texts, FunctionEmbedder(ToyEmbedder()))
    assert vectors.shape[0] == len(texts)
    assert told(caplog)[:3] == [
        f"embedding the sources: {n:,} of {len(texts):,} passages, 0 s"
        for n in (BUILD_SLICE, 2 * BUILD_SLICE, len(texts))]
    assert told(caplog)[-1].startswith(f"embedding the sources: {len(texts)} of {len(texts)} "
                                       "passages in ")


def test_the_command_line_shows_the_records_once_where_no_terminal_shows_the_bar(monkeypatch):
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(progress.LOG, "handlers", [])
    monkeypatch.setattr(progress.LOG, "propagate", True)
    progress.to_stderr()
    progress.to_stderr()  # a second command in the same process adds no second handler
    assert len(progress.LOG.handlers) == 1 and not progress.LOG.propagate
    progress.LOG.info("embedding the sources: 64 of 300 passages, 2 s")
    assert stream.getvalue() == "provenance: embedding the sources: 64 of 300 passages, 2 s\n"
    monkeypatch.setattr(progress.LOG, "handlers", [])
    monkeypatch.setattr(sys, "stderr", Terminal())
    progress.to_stderr()
    assert progress.LOG.handlers == []  # the bar tells it there


def test_tqdm_disable_turns_the_bar_into_the_lines(monkeypatch):
    stream = Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(progress.LOG, "handlers", [])
    monkeypatch.setattr(progress.LOG, "propagate", True)
    assert progress.bar_shown()
    monkeypatch.setenv("TQDM_DISABLE", "1")
    assert not progress.bar_shown()
    progress.to_stderr()  # the command line then prints the records, even on a terminal
    progress.LOG.info("embedding the sources: 64 of 300 passages, 2 s")
    assert stream.getvalue() == "provenance: embedding the sources: 64 of 300 passages, 2 s\n"
