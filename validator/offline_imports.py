"""Import-time set-up, run before Guardrails is imported (by ``main``), so that importing
provenance_guard reaches no network, writes no file, starts no thread and prints nothing.

Two libraries it imports would otherwise reach the network:
- LiteLLM fetches its model cost map from the internet when first imported; the package's
  ``__init__`` defaults ``LITELLM_LOCAL_MODEL_COST_MAP`` to ``True`` so it uses the copy it
  ships (set the variable to ``False`` yourself to get the fetch back). This only works when
  this package is imported before ``litellm``.
- Guardrails, when imported, calls ``nltk.download("punkt")`` if nltk cannot find that data.
  The wheel installs a placeholder that answers the check into ``<sys.prefix>/share/nltk_data``
  (for when ``guardrails`` is imported first). If ``guardrails`` is not imported yet, we import
  it here with that download turned off (see ``_import_guardrails_offline``).
"""

from __future__ import annotations


def _download_nothing(*args: object, **kwargs: object) -> bool:
    return False


def _import_guardrails_offline() -> None:
    """Import guardrails with ``nltk.download`` a no-op and nltk's warning about data directories
    it refuses silenced, for that import only.

    nltk refuses the placeholder in an environment that is group- or world-writable: it warns,
    and Guardrails would then try the download. The patch and the filter are undone at once, so
    nltk behaves as usual for everything else in the process.
    """
    import sys

    if "guardrails" in sys.modules:
        return  # imported before us: its check has run
    import warnings

    import nltk

    real_download = nltk.download
    nltk.download = _download_nothing
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="NLTK will not read data from",
                                    category=RuntimeWarning)
            import guardrails  # noqa: F401
    finally:
        nltk.download = real_download


_import_guardrails_offline()
