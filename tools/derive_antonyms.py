"""Derive the rule checker's table of opposites from a checkout of Open English WordNet (CC BY
4.0), as ``derive_synonyms.py`` derives its synonyms.

Two words are listed as opposites where a sense of one names a sense of the other as its
antonym ("lengthen" and "shorten", "praise" and "criticize", "soluble" and "insoluble"). Only
single lower-case words of three letters or more are kept, and none that is a quantity or an
ordinal ("all" and "some", "first" and "second": kinds of their own). The table names what a claim gets
wrong (``FailureKind.OPPOSITE``), never whether it is supported: the verdict's opposites are
the concepts of ``validator/rules/word_lists.py``, chosen for the documents the rules read.

    python tools/derive_antonyms.py PATH/TO/english-wordnet [--write]

prints how many pairs it found; ``--write`` writes ``validator/rules/antonyms.txt`` (one pair a
line: the Snowball stems of its two words), which the package reads at run time. The
attribution travels with it in ``validator/rules/SYNONYMS-LICENSE.txt``.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "validator" / "rules" / "antonyms.txt"
_WORD = re.compile(r"[a-z]{3,}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wordnet", type=Path, help="a checkout of Open English WordNet")
    parser.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(REPO)}")
    args = parser.parse_args(argv)
    import yaml  # a development dependency (PyYAML, installed with the dev extra)

    from provenance_guard.rules.tokens import FUNCTION_WORDS
    from provenance_guard.text.grammar import MODALS, NEGATIONS, ORDINALS, QUANTIFIERS
    from provenance_guard.text.word_forms import snowball

    # words whose change is another kind than an opposite ("first" for "second" is a number,
    # "all" for "some" how much of a group), or no content word at all
    apart = FUNCTION_WORDS | MODALS | NEGATIONS | ORDINALS | QUANTIFIERS

    source = args.wordnet / "src" / "yaml"
    if not source.is_dir():
        parser.error(f"{source} is not a folder: give the root of an Open English WordNet checkout")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    pairs: set[tuple[str, str]] = set()
    for path in sorted(source.glob("entries-*.yaml")):
        for lemma, by_pos in yaml.load(path.read_text(encoding="utf-8"), Loader=loader).items():
            if not isinstance(lemma, str) or not _WORD.fullmatch(lemma) or lemma in apart:
                continue
            for entry in by_pos.values():
                for sense in entry.get("sense") or []:
                    for other in sense.get("antonym") or []:
                        word = other.split("%")[0]
                        if _WORD.fullmatch(word) and word != lemma and word not in apart:
                            a, b = sorted((snowball(lemma), snowball(word)))
                            if a != b:
                                pairs.add((a, b))
    print(f"{len(pairs)} pairs of opposites")
    if args.write:
        OUT.write_text("".join(f"{a} {b}\n" for a, b in sorted(pairs)), encoding="utf-8")
        print(f"wrote {OUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
