"""The documentation site as a reader sees it: built with MkDocs as CI builds it, every page
opened in a real headless browser (Debian's chromium). No list flattened into a paragraph (a
nested list indented too little renders as text with dashes), no link to a page or anchor that
is not there, no image that is missing or not an image."""

import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from conftest import REPO, Page

pytestmark = pytest.mark.slow  # builds the site, then a browser per page

# A list marker at the start of a line of a paragraph's or list item's text: Markdown that did
# not become a list.
FLATTENED = re.compile(r"(?:^|\n)[ \t]*(?:[-*+]|\d{1,2}\.)[ \t]+\S")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                           "--site-dir", str(out)], cwd=REPO, capture_output=True, text=True,
                          env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


class Rendered(HTMLParser):
    """A page's paragraphs and list items with their text outside code, and how many list items
    sit inside another list item; on a site page (``whole_page``), those of its article only,
    not of the navigation."""

    def __init__(self, html: str, whole_page: bool = True):
        super().__init__()
        self.whole_page = whole_page
        self.open: list[tuple[str, list[str] | None]] = []
        self.prose: list[tuple[str, list[str]]] = []
        self.nested_items = 0
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag in ("meta", "link", "img", "br", "input", "hr", "rect", "path", "source"):
            return
        in_article = not self.whole_page or any(name == "article" for name, _ in self.open)
        if tag == "li" and in_article and any(name == "li" for name, _ in self.open):
            self.nested_items += 1
        text: list[str] | None = [] if tag in ("p", "li") and in_article else None
        if text is not None:
            self.prose.append((tag, text))
        self.open.append((tag, text))

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data):
        if any(name in ("code", "pre") for name, _ in self.open):
            return
        for _, text in self.open:
            if text is not None:
                text.append(data)


def _indented_items(markdown: str) -> int:
    """List items the Markdown source indents under another item (outside code fences)."""
    count, fenced = 0, False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r" {2,}(?:[-*+]|\d{1,2}\.) \S", line):
            count += 1
    return count


def _pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("index.html") if "assets" not in p.parts)


def _source(site: Path, page: Path) -> Path | None:
    """The Markdown file a built page comes from."""
    name = page.relative_to(site).parent.as_posix()
    root = {"contributing": REPO / "CONTRIBUTING.md", "changelog": REPO / "CHANGELOG.md"}
    if name in root:
        return root[name]
    for candidate in (REPO / "docs" / f"{name}.md", REPO / "docs" / name / "index.md",
                      REPO / "docs" / "index.md" if name == "." else None):
        if candidate is not None and candidate.is_file():
            return candidate
    return None


def test_every_page_renders_its_lists_links_and_images(site, browser):
    pages = _pages(site)
    assert len(pages) >= 20  # every page of the nav, not an empty build
    doms = {page: browser("--dump-dom", page.as_uri()) for page in pages}
    rendered = {page: Page(dom) for page, dom in doms.items()}
    ids = {page: {attrs["id"] for _, attrs, _ in dom.elements if "id" in attrs}
           for page, dom in rendered.items()}
    problems = []
    for page, dom in rendered.items():
        name = page.relative_to(site).parent.as_posix()
        prose = Rendered(doms[page])
        for tag, text in prose.prose:
            own = "".join(text).split("\n\n")[0]
            if FLATTENED.search(own):
                problems.append(f"{name}: a list rendered as text in a {tag}: {own[:100]!r}")
        source = _source(site, page)
        assert source is not None, name
        indented = _indented_items(source.read_text(encoding="utf-8"))
        if prose.nested_items < indented:
            problems.append(f"{name}: {indented} list items indented under another in "
                            f"{source.name}, {prose.nested_items} rendered nested")
        for attrs, _ in dom.all("a"):
            href = attrs.get("href", "")
            if not href or href.startswith(("http://", "https://", "mailto:")):
                continue
            target, anchor = _target(page, href)
            if target is None or not target.exists():
                problems.append(f"{name}: a link to a missing page: {href}")
            elif anchor and target in ids and anchor not in ids[target]:
                problems.append(f"{name}: a link to a missing anchor: {href}")
        for attrs, _ in dom.all("img"):
            image, _ = _target(page, attrs.get("src", ""))
            if image is None or not image.is_file():
                problems.append(f"{name}: a missing image: {attrs.get('src')}")
            elif image.suffix == ".png" and not image.read_bytes().startswith(b"\x89PNG"):
                problems.append(f"{name}: not a PNG image: {attrs.get('src')}")
    assert problems == []


def _target(page: Path, href: str) -> tuple[Path | None, str]:
    """The file ``href`` (relative to ``page``) points to, and its anchor."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return None, ""
    if not parts.path:
        return page, unquote(parts.fragment)
    target = (page.parent / unquote(parts.path)).resolve()
    if target.is_dir():
        target = target / "index.html"
    return target, unquote(parts.fragment)


def test_the_checks_find_a_list_indented_too_little_or_run_into_a_paragraph():
    """The cases the page check exists for. Python-Markdown needs four spaces for a nested list:
    two make the inner items peers of the outer one. A list with no blank line before it stays
    in the paragraph, as text."""
    import markdown

    def rendered(text: str) -> Rendered:
        return Rendered(markdown.markdown(text), whole_page=False)

    source = "Judges:\n\n- outer:\n  - inner one\n  - inner two\n"
    assert _indented_items(source) == 2
    assert rendered(source).nested_items == 0  # flattened: caught
    deeper = source.replace("  - ", "    - ")
    assert rendered(deeper).nested_items == _indented_items(deeper) == 2
    run_in = rendered("The judges:\n- a model\n- a callable\n")
    assert any(FLATTENED.search("".join(text)) for _, text in run_in.prose)
