"""Print what is made from the tables of settings: the arguments table of the reference page
(docs/reference.md) and the typed ``__init__`` editors and type checkers see (validator/main.py),
from ``provenance_guard.settings``; the engine table of the evaluation page
(docs/evaluation.md), from ``provenance_guard.evaluation.engine_options``. ``--write`` puts
each between its markers; tests keep them equal."""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "reference.md"
START = "<!-- arguments table: made by `python tools/arguments_table.py --write` -->"
END = "<!-- end of the arguments table -->"
MAIN = ROOT / "validator" / "main.py"
INIT_START = ("        # typed __init__: made from settings.Settings by "
              "`python tools/arguments_table.py --write`")
INIT_END = "        # end of the typed __init__"
INIT_INDENT = " " * 8
EVALUATION = ROOT / "docs" / "evaluation.md"
ENGINE_START = "<!-- engine table: made by `python tools/arguments_table.py --write` -->"
ENGINE_END = "<!-- end of the engine table -->"


def _between(start: str, end: str) -> re.Pattern[str]:
    return re.compile(re.escape(start) + r"\n(.*?)\n?" + re.escape(end), re.DOTALL)


def page_table(text: str) -> str | None:
    """The table between the reference page's markers, or None when they are missing."""
    found = _between(START, END).search(text)
    return None if found is None else found.group(1)


def engine_table(text: str) -> str | None:
    """The table between the evaluation page's markers, or None when they are missing."""
    found = _between(ENGINE_START, ENGINE_END).search(text)
    return None if found is None else found.group(1)


def main_init(text: str) -> str | None:
    """The typed ``__init__`` between main.py's markers, dedented ('' when there is none yet),
    or None when the markers are missing."""
    found = _between(INIT_START, INIT_END).search(text)
    return None if found is None else textwrap.dedent(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true",
                        help="write them into docs/reference.md, validator/main.py and "
                        "docs/evaluation.md")
    args = parser.parse_args(argv)

    from provenance_guard.evaluation.engine_options import options_table
    from provenance_guard.settings import arguments_table, typed_init

    made = [(REFERENCE, START, END, arguments_table()),
            (MAIN, INIT_START, INIT_END, textwrap.indent(typed_init(), INIT_INDENT)),
            (EVALUATION, ENGINE_START, ENGINE_END, options_table())]
    if not args.write:
        for _, _, _, text in made:
            print(text, end="\n\n")
        return 0
    for path, start, end, new in made:
        text = path.read_text(encoding="utf-8")
        between = _between(start, end)
        if between.search(text) is None:
            parser.error(f"{path.relative_to(ROOT)} has no {start.strip()!r} ... "
                         f"{end.strip()!r} markers")
        path.write_text(between.sub(lambda _, s=start, e=end, n=new: f"{s}\n{n}\n{e}", text),
                        encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
