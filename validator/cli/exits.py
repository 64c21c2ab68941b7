"""The exit statuses of ``provenance``: a failure of the system is never read as a verdict on
the text, so a CI gate can tell them apart."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..settings import in_flags

if TYPE_CHECKING:
    from ..deciding.results import Report

PASSED = 0  # every sentence (of every sample) is supported
FAILED = 1  # the text (a sample) fails on a verdict about it
USAGE = 2  # a usage error, or a setting or judge set up wrong
NO_VERDICTS = 3  # verdicts could not be obtained: the judge unreachable, credentials refused,
#                  every failing verdict a fallback
BAD_SAMPLES = 4  # eval: some samples could not be read, or the validator refused them
INTERRUPTED = 130

TEXT = (f"Exit status: {PASSED} when every sentence is supported, {FAILED} when the text fails, "
        f"{USAGE} on a usage or configuration error, {NO_VERDICTS} when verdicts could not be "
        "obtained (the judge unreachable, its credentials refused, or every failing verdict a "
        "fallback).")


def of_error(error: Exception) -> int:
    """The status of a judge or setting error: no verdict can be had (credentials refused), or
    set up wrong (no key set, an unknown model, a setting refused)."""
    from ..errors import JudgeAuthError, NoKeyError

    return NO_VERDICTS if isinstance(error, JudgeAuthError) and not isinstance(
        error, NoKeyError) else USAGE


def of_report(report: Report) -> int:
    if report.passed:
        return PASSED
    return NO_VERDICTS if report.judge_failed else FAILED


def no_verdicts_message(report: Report) -> str:
    reasons = report.summary.fallbacks
    top = max(reasons, key=lambda why: reasons[why]).rstrip(".") if reasons else "no reason given"
    count = sum(reasons.values())
    return in_flags(f"provenance: no verdict could be obtained for {count} claim(s) ({top}); the "
                    "text was not judged. Check the judge (--model, --api-base, --api-key) and "
                    "try again.")
