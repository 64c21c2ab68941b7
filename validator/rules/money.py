"""What currency a money amount is in, from the words around its number: "$30", "US$30",
"USD 30", "30 US dollars", "30 euros", "€30", "₹500", "CHF 12", "30 Swiss francs".

The names, codes and symbols are CLDR's, read through Babel (the library Python projects use
for locale data) rather than a table of our own: every ISO 4217 currency, with its English
symbols (from the English locales, the first of them to use a symbol keeping it: "$" is the US
dollar, "A$" the Australian, "US$" the US dollar too) and its English names, singular and
plural. A bare plural ("dollars", "francs", "pounds") is the first currency of ``_FIRST`` named
so. A currency is its ISO code in lower case ("usd"), the unit the rules compare: two amounts in
different currencies are never the same value, however alike their numbers.
"""

from __future__ import annotations

import unicodedata
from functools import cache

# Which currency a bare name means when several are named so ("dollars": the US dollar).
_FIRST = ("USD", "EUR", "GBP", "JPY", "CHF", "CNY", "INR", "CAD", "AUD")
_ENGLISH = ("en", "en_CA", "en_AU", "en_GB", "en_IN", "en_NZ", "en_SG", "en_HK")

# Every character Unicode calls a currency symbol ("$", "€", "£", "¥", "₹", "₩", "₪", ...).
SIGNS = frozenset(chr(c) for c in range(0x20, 0x10000) if unicodedata.category(chr(c)) == "Sc")
SIGN_CLASS = "[" + "".join(sorted(SIGNS)).replace("\\", "\\\\").replace("]", "\\]") + "]"


@cache
def _tables() -> tuple[dict[str, str], dict[str, str], frozenset[str]]:
    """(symbol in lower case -> code, English name in lower case -> code, the ISO codes)."""
    from babel import Locale
    from babel.numbers import get_currency_name

    symbols: dict[str, str] = {}
    for name in _ENGLISH:
        for code, symbol in Locale.parse(name).currency_symbols.items():
            if any(c in SIGNS for c in symbol):  # a letter symbol ("ALL", "Rs") is a word too
                symbols.setdefault(symbol.lower(), code)
    english = Locale.parse("en")
    # ISO 4217's X codes name metals, drawing rights and units of account, but for a few
    # currencies (the CFA and CFP francs, the East Caribbean dollar, the Caribbean guilder)
    codes = frozenset(str(c) for c in english.currencies
                      if not str(c).startswith("X") or c in ("XAF", "XOF", "XPF", "XCD", "XCG"))
    names: dict[str, str] = {}
    for code in [*_FIRST, *sorted(codes - set(_FIRST))]:
        for count in (1, 2):
            full = get_currency_name(code, count, "en").lower()
            if "(" in full:  # a former currency: "Afghan afghanis (1927–2002)"
                continue
            names.setdefault(full, code)
            if code in _FIRST:  # "dollars", "pounds", "francs": the first named so
                names.setdefault(full.split()[-1], code)
    return symbols, names, codes


def sign(word: str) -> str | None:
    """The currency of a symbol written before a number ("$", "€", "us$", "a$", "chf")."""
    symbols, _, _ = _tables()
    code = symbols.get(word.lower())
    return None if code is None else code.lower()


def code(word: str) -> str | None:
    """The currency of an ISO code written in capitals ("USD", "EUR"); None for any other
    word ("all" is a word, "ALL" the Albanian lek)."""
    _, _, codes = _tables()
    return word.lower() if len(word) == 3 and word.isupper() and word in codes else None


def named(words: list[str]) -> tuple[str, int] | None:
    """The currency a name at the start of ``words`` gives ("US dollars", "euros", "yen") and
    how many words it takes: the longest name first."""
    _, names, _ = _tables()
    for size in (3, 2, 1):
        if len(words) >= size:
            found = names.get(" ".join(words[:size]).lower())
            if found is not None:
                return found.lower(), size
    return None


def is_currency(unit: str | None) -> bool:
    """Whether ``unit`` (a unit the rules read) is a currency."""
    _, _, codes = _tables()
    return unit is not None and unit.upper() in codes
