"""The docs' page on writing your own judge or corrector, run as written: every Python block
in order, in one namespace, with a real Guard and the real default embedder. What each block
prints is what the page says it prints."""

import contextlib
import io
import re

import pytest
from conftest import REPO, caught_warnings, said

PAGE = (REPO / "docs" / "custom-judges.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE, re.DOTALL)

pytestmark = pytest.mark.slow  # the real default embedder


def test_every_example_prints_what_the_page_says():
    assert len(BLOCKS) == 6
    namespace: dict = {}
    for block in BLOCKS:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), caught_warnings():
            exec(compile(block, "custom-judges.md", "exec"), namespace)
        assert said(block), block  # every example shows what it prints
        assert out.getvalue().splitlines() == said(block), block


def test_the_reply_forms_the_page_lists_are_the_ones_read():
    from provenance_guard.judges.replies import EXPECTED_REWRITE, parse_reply, parse_rewrite

    for reply, label in (('{"reason": "[1] gives 330 metres.", "verdict": "contradicted", '
                          '"score": 0.0}', "contradicted"),
                         ("<supported>[YES]</supported>", "supported"), ("[NO]", None),
                         ("yes", "supported"), ("supported", "supported"),
                         ("no", "unsupported"), ("unsupported", "unsupported"),
                         ("contradicted", "contradicted")):
        assert reply in PAGE
        if label is not None:
            assert parse_reply(reply).label == label
    assert '{"rewrite": "the sentence, rewritten"}' in PAGE and '{"rewrite": null}' in PAGE
    assert '{"rewrite": "the sentence, rewritten"}' in EXPECTED_REWRITE
    assert parse_rewrite('{"rewrite": "the sentence, rewritten"}') == "the sentence, rewritten"
