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

import sys

from derive_synonyms import REPO, WORD, read_wordnet

OUT = REPO / "validator" / "rules" / "antonyms.txt"


def main(argv: list[str] | None = None) -> int:
    args, entries = read_wordnet(__doc__, OUT, argv)
    from provenance_guard.rules.tokens import FUNCTION_WORDS
    from provenance_guard.text.grammar import MODALS, NEGATIONS, ORDINALS, QUANTIFIERS
    from provenance_guard.text.word_forms import snowball

    # words whose change is another kind than an opposite ("first" for "second" is a number,
    # "all" for "some" how much of a group), or no content word at all
    apart = FUNCTION_WORDS | MODALS | NEGATIONS | ORDINALS | QUANTIFIERS
    pairs: set[tuple[str, str]] = set()
    for lemma, by_pos in entries:
        if lemma in apart:
            continue
        for entry in by_pos.values():
            for sense in entry.get("sense") or []:
                for other in sense.get("antonym") or []:
                    word = other.split("%")[0]
                    if WORD.fullmatch(word) and word != lemma and word not in apart:
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
