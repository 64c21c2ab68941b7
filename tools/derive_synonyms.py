"""Derive the rule checker's synonym table from a checkout of Open English WordNet (CC BY 4.0).

Two words are listed as synonyms only when one synset is the *first* (most common) sense of
both in the same part of speech: "build" and "construct" (both first mean "make by combining
materials and parts"), not "make" (whose first sense is another). Members of one synset are
synonyms, so no antonym, co-hyponym ("green", "brown") or hypernym ("dog", "animal") is listed.
Only single lower-case words of three letters or more are kept, and none the rules already read
as an opposite, a negation, a qualifier or a function word.

    python tools/derive_synonyms.py PATH/TO/english-wordnet [--write]

prints how many groups it found; ``--write`` writes ``validator/rules/synonyms.txt`` (one
group a line: the Snowball stems of its words, space-separated, as the rules compare them), which
the package reads at run time. The attribution
travels with it in ``validator/rules/SYNONYMS-LICENSE.txt``. Reading the YAML takes PyYAML,
installed with the dev extra (MkDocs needs it).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "validator" / "rules" / "synonyms.txt"
WORD = re.compile(r"[a-z]{3,}")  # the words a table keeps: single, lower case, 3 letters or more


def read_wordnet(doc: str, out: Path, argv: list[str] | None
                 ) -> tuple[argparse.Namespace, Iterator[tuple[str, dict]]]:
    """The command line of a table derived from Open English WordNet (described by ``doc``,
    written to ``out``), and the WordNet entries it reads: each lemma ``WORD`` keeps, with its
    entries by part of speech."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("wordnet", type=Path, help="a checkout of Open English WordNet")
    parser.add_argument("--write", action="store_true", help=f"write {out.relative_to(REPO)}")
    args = parser.parse_args(argv)
    import yaml  # a development dependency (PyYAML, installed with the dev extra)

    source = args.wordnet / "src" / "yaml"
    if not source.is_dir():
        parser.error(f"{source} is not a folder: give the root of an Open English WordNet checkout")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    def entries() -> Iterator[tuple[str, dict]]:
        for path in sorted(source.glob("entries-*.yaml")):
            for lemma, by_pos in yaml.load(path.read_text(encoding="utf-8"), Loader=loader).items():
                if isinstance(lemma, str) and WORD.fullmatch(lemma):
                    yield lemma, by_pos

    return args, entries()


def main(argv: list[str] | None = None) -> int:
    args, entries = read_wordnet(__doc__, OUT, argv)
    from provenance_guard.rules.tokens import FUNCTION_WORDS, QUALIFIERS
    from provenance_guard.rules.word_lists import concepts
    from provenance_guard.text.grammar import NEGATIONS
    from provenance_guard.text.word_forms import snowball

    first: dict[str, list[str]] = defaultdict(list)  # synset -> words whose first sense it is
    for lemma, by_pos in entries:
        if lemma in FUNCTION_WORDS or lemma in QUALIFIERS or lemma in NEGATIONS or concepts(lemma):
            continue
        for entry in by_pos.values():
            senses = entry.get("sense") or []
            if senses:
                first[senses[0]["synset"]].append(lemma)
    stemmed = ({snowball(word) for word in words} for words in first.values())
    groups = sorted({tuple(sorted(stems)) for stems in stemmed if len(stems) > 1})
    print(f"{len(groups)} groups of synonyms, {sum(map(len, groups))} stems")
    if args.write:
        OUT.write_text("".join(" ".join(group) + "\n" for group in groups), encoding="utf-8")
        print(f"wrote {OUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
