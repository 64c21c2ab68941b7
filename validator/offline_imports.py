"""Import-time set-up, so that importing provenance_guard (and Guardrails after it) reaches no
network, writes no file, starts no thread and prints nothing.

Two libraries would otherwise reach the network:
- LiteLLM fetches its model cost map from the internet when first imported; the package's
  ``__init__`` defaults ``LITELLM_LOCAL_MODEL_COST_MAP`` to ``True`` so it uses the copy it
  ships (set the variable to ``False`` yourself to get the fetch back). This only works when
  this package is imported before ``litellm``.
- Guardrails, when imported, calls ``nltk.download("punkt")`` if nltk cannot find that data.
  The wheel installs a placeholder that answers the check into ``<sys.prefix>/share/nltk_data``
  (for when ``guardrails`` is imported first). If ``guardrails`` is not imported yet, the
  package's ``__init__`` installs ``GuardrailsOffline``: whenever Guardrails is first imported
  (by ``main``, or by the caller), it runs with that download turned off.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
import warnings
from contextlib import contextmanager


def _download_nothing(*args: object, **kwargs: object) -> bool:
    return False


@contextmanager
def _nltk_downloads_off():
    """``nltk.download`` a no-op and nltk's warning about data directories it refuses silenced,
    for the import inside only.

    nltk refuses the placeholder in an environment that is group- or world-writable: it warns,
    and Guardrails would then try the download. The patch and the filter are undone at once, so
    nltk behaves as usual for everything else in the process.
    """
    import nltk

    real_download = nltk.download
    nltk.download = _download_nothing
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="NLTK will not read data from",
                                    category=RuntimeWarning)
            yield
    finally:
        nltk.download = real_download


class GuardrailsOffline(importlib.abc.MetaPathFinder):
    """Finds ``guardrails`` the usual way, once, and has it executed with nltk's download off.
    Removes itself on first use."""

    def find_spec(self, name, path=None, target=None):
        if name != "guardrails":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            spec.loader = _Offline(spec.loader)
        return spec


class _Offline(importlib.abc.Loader):
    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        with _nltk_downloads_off():
            self.loader.exec_module(module)


def install() -> None:
    """Guardrails imported offline whenever it is first imported, unless it already is."""
    if "guardrails" not in sys.modules and not any(
            isinstance(finder, GuardrailsOffline) for finder in sys.meta_path):
        sys.meta_path.insert(0, GuardrailsOffline())
