"""The errors this package raises on purpose (besides ``ValueError`` for bad input)."""

from __future__ import annotations


class ConfigurationError(ValueError):
    """The validator or its judge is set up wrong (a model that does not exist, a judge that
    returns something else than a verdict, ...). Raised at once, never turned into verdicts
    that an on_fail policy could let through: nothing can be validated until it is fixed."""


class JudgeAuthError(ConfigurationError, RuntimeError):
    """The judge's credentials were refused: retrying cannot help, so validation stops."""
