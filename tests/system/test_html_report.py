"""The HTML report opened in a real headless browser (Debian's chromium): the highlighted
sentences, their evidence opened by the page's own script, the batch charts, hostile text shown
and never run, no network reference. A screenshot is saved (and checked for the highlight
colours); set PROVENANCE_SCREENSHOT_DIR to keep it.

Without chromium these tests skip, unless PROVENANCE_BROWSER_REQUIRED is set (``.ci/run`` sets
it and installs chromium), where a missing browser fails them."""

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from conftest import REPO, Page

from provenance_guard import cli

pytestmark = pytest.mark.slow  # the real default embedder, and a browser

EIFFEL = "The Eiffel Tower is in Paris. It was finished in 1889. It is 330 metres tall."
LOUVRE = "The Louvre is the most visited museum in the world. It houses the Mona Lisa."
HOSTILE = "<img src=x onerror=alert(1)>"


def _check_report(tmp_path) -> Path:
    (tmp_path / "eiffel.txt").write_text(EIFFEL)
    (tmp_path / "louvre.txt").write_text(LOUVRE)
    (tmp_path / "answer.txt").write_text(
        f"The Eiffel Tower is in Paris [1]. It was finished in 1899.\nIt is {HOSTILE} 300 metres "
        "tall. The Louvre houses the Mona Lisa [1]. I hope this helps!")
    report = tmp_path / "report.html"
    code = cli.main(["check", "--source", str(tmp_path / "eiffel.txt"), "--source",
                     str(tmp_path / "louvre.txt"), "--text", str(tmp_path / "answer.txt"),
                     "--html", str(report)])
    assert code == 1  # some sentences fail
    return report


def test_the_check_report_in_a_browser(tmp_path, browser, capsys):
    report = _check_report(tmp_path)
    source = report.read_text()
    for external in ("http://", "https://", "<link", "<img", "url(", "@import"):
        assert external not in source, external  # self-contained; hostile text is escaped
    assert not re.search(r"<[a-z]+[^>]*\ssrc=", source)  # no tag loads anything

    # the address names sentence 2: the page's script opens its evidence, as a click does
    page = Page(browser("--dump-dom", f"{report.as_uri()}#o1-s2"))
    marks = [(a["class"].split()[1], text) for a, text in page.all("a", "s")]
    assert marks == [
        ("v-supported", "The Eiffel Tower is in Paris [1]."),
        ("v-contradicted", "It was finished in 1899."),
        ("v-unsupported", f"It is {HOSTILE} 300 metres tall."),
        ("v-unsupported", "The Louvre houses the Mona Lisa [1]."),
        ("v-not_a_claim", "I hope this helps!"),
    ]
    assert page.all("img") == []  # shown as text, never made an element
    details = {a["id"]: (a, text) for a, text in page.all("details") if "id" in a}
    assert list(details) == ["o1-s1", "o1-s2", "o1-s3", "o1-s4", "o1-s5"]
    assert "not a claim (offer of help): not judged" in details["o1-s5"][1]
    assert "no evidence retrieved" not in details["o1-s5"][1]
    opened = [key for key, (attrs, _) in details.items() if "open" in attrs]
    assert opened == ["o1-s2"]
    contradicted = details["o1-s2"][1]
    assert "1889" in contradicted and "eiffel.txt" in contradicted  # reason and evidence
    assert "finished in 1889" in contradicted
    assert "miscited" in details["o1-s4"][1] and "louvre.txt would support it" in details["o1-s4"][1]

    shot = tmp_path / "report.png"
    browser(f"--screenshot={shot}", "--window-size=1000,900", f"{report.as_uri()}#o1-s4")
    _assert_colours(shot, {"supported": (0xC8, 0xEC, 0xC9), "contradicted": (0xFF, 0xB3, 0xB3),
                           "unsupported": (0xFF, 0xE0, 0x8A)})
    _keep(shot, "check-report-hostile.png")


def test_the_check_report_tells_the_story_at_a_glance(tmp_path, browser, capsys):
    """The verdict first, the sources listed, and in the evidence the clause that lines up with
    the sentence and the number that differs from the sentence's."""
    report = _check_report(tmp_path)
    page = Page(browser("--dump-dom", f"{report.as_uri()}#o1-s2"))
    order = [(tag, attrs.get("class") or attrs.get("id") or "") for tag, attrs, _ in page.elements
             if tag in ("h1", "section") or (tag == "p" and "verdict" in (attrs.get("class") or ""))]
    assert order[:3] == [("h1", ""), ("p", "verdict fail"), ("section", "output")]
    [(_, verdict)] = page.all("p", "verdict")
    # 1899 contradicted, 300 metres unsupported, the Louvre sentence miscited: three of four
    assert verdict == "fails: 3 of 4 judged sentences fail (1 contradicted, 1 unsupported, 1 miscited)"
    sources = [text for _, text in page.all("summary") if "characters" in text]
    assert [s.split(" · ")[0] for s in sources] == [str(tmp_path / "eiffel.txt"),
                                                    str(tmp_path / "louvre.txt")]
    assert sources[0].split(" · ")[1] == f"{len(EIFFEL)} characters"
    # evidence of "It was finished in 1899.": its clause, and 1889 marked as differing
    assert any("finished in 1889" in text for _, text in page.all("div", "evidence"))
    differs = [text for _, text in page.all("mark", "differs")]
    assert "1889" in differs and "1899" not in differs
    assert "It was finished in " in [text for _, text in page.all("span", "aligned")]

    shot = tmp_path / "glance.png"
    browser(f"--screenshot={shot}", "--window-size=1000,900", f"{report.as_uri()}#o1-s2")
    _assert_colours(shot, {"fail banner": (0xFF, 0xB3, 0xB3), "aligned clause": (0xEE, 0xF3, 0xFF)})
    _keep(shot, "check-report-glance.png")


def test_the_eval_report_with_its_charts_in_a_browser(tmp_path, browser, capsys):
    rows = [
        {"id": "grounded", "output": "The Eiffel Tower was finished in 1889 [1]. It is 330 "
         "metres tall.", "sources": [EIFFEL, LOUVRE], "question": "When?", "label": True},
        {"id": "wrong-year", "output": "The Eiffel Tower was finished in 1899. It is 330 metres "
         "tall.", "sources": [EIFFEL], "label": False},
        {"id": "</h2><script>alert(1)</script>", "output": "Mount Everest is in Nepal.",
         "sources": [LOUVRE], "label": False},
    ]
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    report = tmp_path / "eval.html"
    assert cli.main(["eval", str(data), "--html", str(report), "--json"]) == 1  # some fail
    summary = json.loads(capsys.readouterr().out)
    by_id = {r["id"]: r for r in map(json.loads, data.with_suffix(".results.jsonl").open())}
    results = [by_id[row["id"]] for row in rows]  # the file is in order of completion

    page = Page(browser("--dump-dom", report.as_uri()))
    assert len(page.all("script")) == 1  # ours; the hostile id is text
    bars = {(a["data-label"], a["data-value"]) for a, _ in page.all("rect", "bar")}
    failing = round(summary["failing_share"] * 3)
    assert {("pass", str(3 - failing)), ("fail", str(failing))} <= bars
    for level, count in summary["levels"].items():
        assert (level, str(count)) in bars
    titles = [text for _, text in page.all("h2")]
    assert [t.split(" · ")[0] for t in titles if " · " in t] == [r["id"] for r in rows]
    marks = page.all("a", "s")
    assert len(marks) == sum(len(r["sentences"]) for r in results)
    verdicts = [a["class"].split()[1] for a, _ in marks]
    assert verdicts == [f"v-{s['verdict']}" for r in results for s in
                        sorted(r["sentences"], key=lambda s: s["start"])]
    assert "v-contradicted" in verdicts and "v-supported" in verdicts
    banners = [text for _, text in page.all("p", "verdict")]
    passing = 3 - failing
    assert banners[0] == f"{passing} of 3 samples pass, {failing} fail"
    assert [b.split(":")[0] for b in banners[1:]] == ["passes" if r["passed"] else "fails"
                                                      for r in results]

    shot = tmp_path / "eval.png"
    browser(f"--screenshot={shot}", "--window-size=1000,1100", report.as_uri())
    _assert_colours(shot, {"chart green": (0x5C, 0xB8, 0x5F), "chart red": (0xD9, 0x53, 0x4F)})
    _keep(shot, "eval-report-hostile.png")


def test_the_eval_report_lists_the_lines_it_skipped_and_says_so_in_its_banner(tmp_path, browser,
                                                                              capsys):
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"id": "grounded", "output": "The Eiffel Tower is in Paris.",
                                "sources": [EIFFEL]}) + "\n{not json\n"
                    + json.dumps({"id": "no-sources", "output": "It is tall."}) + "\n")
    report = tmp_path / "eval.html"
    assert cli.main(["eval", str(data), "--html", str(report), "--no-cache"]) == 4  # bad lines
    said = capsys.readouterr().out
    page = Page(browser("--dump-dom", report.as_uri()))
    [(_, banner), *_] = page.all("p", "verdict")
    assert banner == "1 of 1 samples pass; 2 lines of the data set were skipped (listed below)"
    assert "fail" in page.all("p", "verdict")[0][0]["class"]  # not the green of a clean run
    assert "1 samples validated, 0 errors, 2 lines skipped" in page.all("p", "meta")[0][1]
    skipped = [text for _, text in page.all("li") if "line " in text]
    assert [line.split(":")[0] for line in skipped] == [f"{data}, line 2", f"{data}, line 3"]
    assert all(f"bad sample: {line}" in said for line in skipped)  # as the terminal says


def test_the_docs_screenshots_come_from_the_examples(tmp_path, browser, capsys, monkeypatch):
    """The reports the docs show (docs/check-report.png, docs/eval-report.png) are made from the
    files in examples/, named as a user in the checkout names them: no temporary path.
    PROVENANCE_SCREENSHOT_DIR=docs remakes the two images."""
    monkeypatch.chdir(REPO)
    check, evaluation = tmp_path / "check.html", tmp_path / "eval.html"
    assert cli.main(["check", "--source", "examples/eiffel_history.txt", "--source",
                     "examples/eiffel_visiting.txt", "--text", "examples/answer.txt",
                     "--html", str(check)]) == 1
    assert cli.main(["eval", "examples/samples.jsonl", "--out", str(tmp_path / "results.jsonl"),
                     "--no-cache", "--html", str(evaluation)]) == 1
    for page, name, anchor, names in (
            (check, "check-report.png", "#o1-s4", "examples/eiffel_visiting.txt"),
            (evaluation, "eval-report.png", "", "data: examples/samples.jsonl")):
        dom = browser("--dump-dom", page.as_uri())
        assert names in dom and str(tmp_path) not in dom and "/tmp" not in dom
        shot = tmp_path / name
        browser(f"--screenshot={shot}", "--window-size=1000,1000", page.as_uri() + anchor)
        _keep(shot, name)


def _assert_colours(png: Path, colours: dict[str, tuple[int, int, int]]) -> None:
    from PIL import Image

    with Image.open(png) as image:
        present = {pixel for _, pixel in image.convert("RGB").getcolors(maxcolors=1 << 20)}
    for name, rgb in colours.items():
        assert rgb in present, f"no {name} pixels in the screenshot"


def _keep(shot: Path, name: str) -> None:
    target = os.environ.get("PROVENANCE_SCREENSHOT_DIR")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(target) / name)


def test_offsets_that_overlap_or_run_past_the_text_still_render_every_character():
    from provenance_guard.deciding.results import (
        ClaimResult,
        Groundedness,
        Report,
        SentenceResult,
    )
    from provenance_guard.evaluation.examples import Checked, Example
    from provenance_guard.evaluation.html_report import render_check
    from provenance_guard.types import Citation, Sentence, Verdict

    text = "One. Two. Three <b>."
    spans = [("One.", 0, 4, "supported"), ("One. Two.", 0, 9, "contradicted"),
             ("Three <b>.", 10, 99, "unsupported")]
    results = [SentenceResult(Sentence(t, a, b), [ClaimResult(t, Verdict(v), [])], Citation())
               for t, a, b, v in spans]
    checked = Checked(Example("1", text, []), Report(results, Groundedness.of(results)))
    page = render_check(checked, [], "judge")
    body = re.sub(r"<[^>]+>", "", page.split("<div class=text>")[1].split("</div>")[0])
    assert body.replace("&lt;", "<").replace("&gt;", ">") == text
    assert "<b>" not in page  # the text is shown, never made an element


def test_corrections_show_as_a_word_diff_in_a_browser(tmp_path, browser):
    """fix_mode="correct": a used correction shows what it removes and adds; one that is not
    used says why, and its hostile rewrite is shown as text."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from conftest import ScriptedJudge

    from provenance_guard import ProvenanceLLM
    from provenance_guard.evaluation.examples import Checked, Example
    from provenance_guard.evaluation.html_report import render_check

    def rewrite(sentence, passages):
        return "It is 330 metres tall." if "300" in sentence else f"It opened in 1889 {HOSTILE}"

    text = "The Eiffel Tower is in Paris. It is 300 metres tall. It opened in 1999."
    validator = ProvenanceLLM(llm_callable=ScriptedJudge(rewrite=rewrite), fix_mode="correct")
    report = validator.check(text, {"sources": [EIFFEL, LOUVRE]})
    page_file = tmp_path / "corrections.html"
    page_file.write_text(render_check(Checked(Example("1", text, [EIFFEL, LOUVRE]), report),
                                      ["eiffel.txt", "louvre.txt"], "scripted"))
    page = Page(browser("--dump-dom", page_file.as_uri()))
    corrections = [text for _, text in page.all("div", "correction")]
    assert corrections[0].startswith("correction: used in the fix")
    assert [t for _, t in page.all("del")] == ["300 ", "1999."]
    assert [t for _, t in page.all("ins")] == ["330 ", f"1889 {HOSTILE}"]
    assert "not used, the sentence is removed: the rewrite holds line breaks or markup" in \
        corrections[1]
    assert page.all("img") == []  # the hostile rewrite is text, never an element


def test_the_readme_report_marks_only_what_decided(tmp_path, browser, capsys):
    """The README's example: nothing red in the evidence of a supported sentence, the clause
    marked under the 1887-1889 sentence is the one about 1887-1889, and the evidence is
    numbered as reasons cite it."""
    report = tmp_path / "report.html"
    examples = REPO / "examples"
    assert cli.main(["check", "--source", str(examples / "eiffel_history.txt"), "--source",
                     str(examples / "eiffel_visiting.txt"), "--text",
                     str(examples / "answer.txt"), "--html", str(report)]) == 1
    page = Page(browser("--dump-dom", report.as_uri()))
    within, label, differs, aligned, numbered = None, {}, {}, {}, {}
    for tag, attrs, text in page.elements:
        if tag == "details" and "id" in attrs:
            within = attrs["id"]
            label[within] = attrs["class"].removeprefix("v-")
        elif tag == "mark" and "differs" in (attrs.get("class") or ""):
            differs.setdefault(within, []).append("".join(text))
        elif tag == "span" and attrs.get("class") == "aligned":
            aligned.setdefault(within, []).append("".join(text))
        elif tag == "span" and attrs.get("class") == "where":
            numbered.setdefault(within, []).append("".join(text).split(" ")[0])
    assert list(label.values()).count("supported") == 2
    assert [key for key in differs if key and label[key] == "supported"] == []  # None: legend
    assert differs.get("o1-s4") == ["About 6 million people"]  # 9 million against 6 million
    first = " ".join(aligned["o1-s1"])
    assert "1887 and 1889" in first and "300 metres" not in first
    assert all(marks == [f"[{n}]" for n in range(1, len(marks) + 1)]
               for marks in numbered.values())
