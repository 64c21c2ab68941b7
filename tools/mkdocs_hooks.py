"""MkDocs hooks for the documentation site: the repository's CONTRIBUTING.md and CHANGELOG.md
(kept at the root, where GitHub and PyPI readers look for them) become the site's
``contributing.md`` and ``changelog.md`` pages, their links to docs/ pages rewritten to site
links. Nothing is copied into docs/, so there is one text of each."""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
PAGES = {"CONTRIBUTING.md": "contributing.md", "CHANGELOG.md": "changelog.md"}


def on_files(files: Files, config) -> Files:
    for name, page in PAGES.items():
        text = (ROOT / name).read_text(encoding="utf-8").replace("](docs/", "](")
        files.append(File.generated(config, page, content=text))
    return files
