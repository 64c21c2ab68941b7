"""Print the arguments table of the reference page (docs/reference.md), made from
``provenance_guard.settings``; ``--write`` puts it into the page between its markers. A test
keeps the two equal."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REFERENCE = Path(__file__).resolve().parents[1] / "docs" / "reference.md"
START = "<!-- arguments table: made by `python tools/arguments_table.py --write` -->"
END = "<!-- end of the arguments table -->"
BETWEEN = re.compile(re.escape(START) + r"\n(.*?)\n" + re.escape(END), re.DOTALL)


def page_table(text: str) -> str | None:
    """The table between the page's markers, or None when they are missing."""
    found = BETWEEN.search(text)
    return None if found is None else found.group(1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="write it into docs/reference.md")
    args = parser.parse_args(argv)

    from provenance_guard.settings import arguments_table

    table = arguments_table()
    if not args.write:
        print(table)
        return 0
    text = REFERENCE.read_text(encoding="utf-8")
    if page_table(text) is None:
        parser.error(f"docs/reference.md has no {START!r} ... {END!r} markers")
    REFERENCE.write_text(BETWEEN.sub(lambda _: f"{START}\n{table}\n{END}", text), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
