"""A failed judge call's reason, repeated in every sentence of the call: scrubbed of the key,
then cut, so that a server answering with megabytes does not fill every result."""

from provenance_guard.judges.calls import FAILURE_CHARS, failure
from provenance_guard.runtime.credentials import keep_secret_values


def test_a_long_failure_is_cut_and_says_how_much_was_left_out():
    reason = failure(RuntimeError("x" * 1_000_000))
    assert reason.startswith("the judge failed: RuntimeError: xxx")
    assert reason.endswith(f"... ({1_000_000 + len('RuntimeError: ') - FAILURE_CHARS:,} more "
                           "characters)")
    assert len(reason) < FAILURE_CHARS + 100


def test_a_key_across_the_cut_is_scrubbed_whole_first():
    key = "sk-across-the-cut-0123456789abcdef"
    keep_secret_values([key])
    padding = "y" * (FAILURE_CHARS - len("RuntimeError: ") - 10)
    reason = failure(RuntimeError(padding + key + "z" * 100))
    assert key[:10] not in reason and "sk-across" not in reason


def test_a_short_failure_is_kept_whole():
    assert failure(ValueError("no such model")) == "the judge failed: ValueError: no such model"
