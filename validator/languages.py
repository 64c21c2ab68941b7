"""Which sentence rules apply: the ``language`` setting, and the script of a text when it is
``"auto"``.

The codes are pySBD's (ISO 639-1). ``"auto"`` reads the script each paragraph is written in:
Arabic script gives Arabic rules (Persian or Urdu when letters only they use appear),
Devanagari Hindi, Han and kana Chinese or Japanese, Cyrillic Russian (Kazakh when its own
letters appear), Greek, Armenian, Ethiopic (Amharic) and Myanmar (Burmese) their own; Latin
script, or none of these, English. Latin-script languages cannot be told apart from their
script: name one (``language="de"``) to get its abbreviations.
"""

from __future__ import annotations

import re

from .errors import ConfigurationError

AUTO = "auto"
# pySBD's languages (tests/test_languages.py checks this list against the installed pySBD).
LANGUAGES = {
    "am": "Amharic", "ar": "Arabic", "bg": "Bulgarian", "da": "Danish", "de": "German",
    "el": "Greek", "en": "English", "es": "Spanish", "fa": "Persian", "fr": "French",
    "hi": "Hindi", "hy": "Armenian", "it": "Italian", "ja": "Japanese", "kk": "Kazakh",
    "mr": "Marathi", "my": "Burmese", "nl": "Dutch", "pl": "Polish", "ru": "Russian",
    "sk": "Slovak", "ur": "Urdu", "zh": "Chinese",
}

# Each script's main blocks -> the language whose rules it gets.
_SCRIPTS = {
    "ar": "\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff",
    "hi": "\u0900-\u097f",
    "ja": "\u3040-\u30ff",  # hiragana and katakana
    "zh": "\u3400-\u9fff\uf900-\ufaff",
    "ru": "\u0400-\u04ff",
    "el": "\u0370-\u03ff\u1f00-\u1fff",
    "hy": "\u0530-\u058f",
    "am": "\u1200-\u139f",
    "my": "\u1000-\u109f",
}
_SCRIPT_PATTERNS = {code: re.compile(f"[{chars}]") for code, chars in _SCRIPTS.items()}
_NOT_LATIN = re.compile("[\u0370-\uffff]")
_LATIN_LETTER = re.compile("[A-Za-z\u00c0-\u024f]")
_PERSIAN = frozenset("پچژگ")
_URDU = frozenset("ٹڈڑںےھۓ۔")
_KAZAKH = frozenset("әғқңөұүһіӘҒҚҢӨҰҮҺІ")


def check_language(language: object) -> str:
    """``language`` if it is ``"auto"`` or a known code, else ``ConfigurationError``."""
    if language == AUTO or (isinstance(language, str) and language in LANGUAGES):
        return language
    known = ", ".join(f"{code!r} ({name})" for code, name in LANGUAGES.items())
    raise ConfigurationError(
        f"language must be 'auto' (rules chosen from each paragraph's script) or one of {known}; "
        f"got {language!r}."
    )


def detect(text: str) -> str:
    """The language whose rules suit ``text``, from the script most of its letters are in."""
    if _NOT_LATIN.search(text) is None:  # the common case, decided in one scan
        return "en"
    counts = {code: len(pattern.findall(text)) for code, pattern in _SCRIPT_PATTERNS.items()}
    code = max(counts, key=counts.__getitem__)
    if counts[code] == 0 or counts[code] <= len(_LATIN_LETTER.findall(text)):
        return "en"
    if code == "zh" and counts["ja"]:
        return "ja"
    letters = set(text)
    if code == "ar":
        return "ur" if letters & _URDU else "fa" if letters & _PERSIAN else "ar"
    if code == "ru" and letters & _KAZAKH:
        return "kk"
    return code
