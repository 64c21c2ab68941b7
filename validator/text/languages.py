"""Which sentence rules apply: the ``language`` setting, or, when it is ``"auto"``, the language
each paragraph is written in.

The codes are pySBD's (ISO 639-1). ``"auto"`` first reads the script: Arabic script gives
Arabic rules (Persian or Urdu when letters only they use appear), Devanagari Hindi, Han and kana
Chinese or Japanese, Cyrillic Russian (Kazakh when its own letters appear), Greek, Armenian,
Ethiopic (Amharic) and Myanmar (Burmese) their own; Latin script, or none of these, English.
Where pySBD has several languages for one script (Latin: Danish, Dutch, English, French,
German, Italian, Polish, Slovak, Spanish; Cyrillic: Russian, Bulgarian; Arabic script: Arabic,
Persian, Urdu; Devanagari: Hindi, Marathi), py3langid's identifier (its model ships in its
wheel) names the language, and is followed only when it gives one of that script's languages a
probability of at least ``SURE``; otherwise the script's rules stay. A paragraph of fewer than
four words, or Latin-script text of which an eighth of the words are common English words,
is not given to the identifier at all: English text does not pay for it.
"""

from __future__ import annotations

import re
from functools import cache

from pysbd.languages import LANGUAGE_CODES

from ..errors import ConfigurationError
from .word_forms import LETTERS

AUTO = "auto"
# pySBD's languages, by its own table; a language is named in English (pySBD calls German
# "Deutsch"), for the messages that list them.
LANGUAGES = {code: "German" if rules.__name__ == "Deutsch" else rules.__name__
             for code, rules in sorted(LANGUAGE_CODES.items())}

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


# Scripts several of pySBD's languages share: the script's default -> those languages.
_SHARED_SCRIPTS = {
    "en": frozenset({"en", "da", "de", "es", "fr", "it", "nl", "pl", "sk"}),
    "ru": frozenset({"ru", "bg"}),
    "ar": frozenset({"ar", "fa", "ur"}),
    "fa": frozenset({"ar", "fa", "ur"}),
    "ur": frozenset({"ar", "fa", "ur"}),
    "hi": frozenset({"hi", "mr"}),
}
SURE = 0.9  # the identifier's probability (over the languages above) it must reach
_SAMPLE = 2_000  # characters of a paragraph the identifier reads
_FEWEST_WORDS = 4  # below this, a paragraph keeps its script's rules
# Common English words that are not common words of the other Latin-script languages above
# ("at", "her", "to", "was", "will", "in" are Danish, German, Polish or Dutch words too).
_ENGLISH = frozenset("the and of that with are be this by from or which have has not but she "
                     "they we you his their there were been would its".split())


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
    """The language whose rules suit ``text``: its script, then, where a script serves several
    of pySBD's languages, the language identifier if it is sure."""
    return _identified(text, _by_script(text))


def _by_script(text: str) -> str:
    """The language of the script most of the letters of ``text`` are in."""
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


def _identified(text: str, by_script: str) -> str:
    """``by_script``, or the language of the same script the identifier names with at least
    ``SURE`` probability. Plain English (a few words, or an eighth of them English function
    words) is decided without it, so English text never loads the identifier."""
    group = _SHARED_SCRIPTS.get(by_script)
    if group is None:
        return by_script
    sample = text[:_SAMPLE]
    words = LETTERS.findall(sample.lower())
    if len(words) < _FEWEST_WORDS or (
            by_script == "en" and 8 * sum(w in _ENGLISH for w in words) >= len(words)):
        return by_script
    code, probability = _identifier().classify(sample)
    return code if code in group and probability >= SURE else by_script


def load_identifier(language: str) -> None:
    """Load the identifier now if ``language`` may need it (``"auto"``): ``warm_up`` does."""
    if language == AUTO:
        _identifier()


@cache
def _identifier():
    """py3langid's model, narrowed to the languages above (55 MB, about 0.5 s to load, once)."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(sorted({code for group in _SHARED_SCRIPTS.values()
                                     for code in group}))
    return identifier
