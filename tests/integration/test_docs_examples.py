"""The docs' Python examples, run as written: every block of a page in order, in one
namespace, with a real Guard and the real default embedder, offline judges only (the page on
your own judge or corrector answers by hand). What each block prints is what the page says."""

import contextlib
import io
import re

import pytest
from conftest import REPO, caught_warnings, said

# Each page whose examples are run, with how many Python blocks it has.
PAGES = {"custom-judges.md": 9, "getting-started.md": 1, "judges.md": 1, "serving.md": 1}

pytestmark = pytest.mark.slow  # the real default embedder


def blocks(page: str) -> list[str]:
    text = (REPO / "docs" / page).read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.DOTALL)


@pytest.mark.parametrize("page", PAGES)
def test_every_example_prints_what_the_page_says(page):
    assert len(blocks(page)) == PAGES[page]
    namespace: dict = {}
    for block in blocks(page):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), caught_warnings():
            exec(compile(block, page, "exec"), namespace)
        assert said(block), block  # every example shows what it prints
        assert out.getvalue().splitlines() == said(block), block


def test_the_reply_forms_the_page_lists_are_the_ones_read():
    from provenance_guard.judges.replies import EXPECTED_REWRITE, parse_reply, parse_rewrite

    page = (REPO / "docs" / "custom-judges.md").read_text(encoding="utf-8")

    for reply, label in (('{"reason": "[1] gives 330 metres.", "verdict": "contradicted", '
                          '"score": 0.0}', "contradicted"),
                         ("<supported>[YES]</supported>", "supported"), ("[NO]", None),
                         ("yes", "supported"), ("supported", "supported"),
                         ("no", "unsupported"), ("unsupported", "unsupported"),
                         ("contradicted", "contradicted")):
        assert reply in page
        if label is not None:
            assert parse_reply(reply).label == label
    assert '{"rewrite": "the sentence, rewritten"}' in page and '{"rewrite": null}' in page
    assert '{"rewrite": "the sentence, rewritten"}' in EXPECTED_REWRITE
    assert parse_rewrite('{"rewrite": "the sentence, rewritten"}') == "the sentence, rewritten"


@pytest.mark.parametrize("marker", ['"sources": sources, "messages": messages',
                                    '{"messages": messages}'])
def test_the_usage_pages_chat_and_agent_examples_print_what_they_say(marker):
    [block] = [b for b in blocks("usage.md") if marker in b]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), caught_warnings():
        exec(compile(block, "usage.md", "exec"), {})
    assert out.getvalue().splitlines() == said(block)
