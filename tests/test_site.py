"""The course website (``make site``, book/build.py): built without internet, then every page opened
from disk in Debian's Chromium with every non-file request refused.

One build (worked solutions included, so that their pages are checked too, and launch links on)
into a temporary folder, shared with tests/test_site_wcag.py and tests/test_pdf.py (conftest.py);
then, page by page: no request leaves the disk, no file is missing, no
script error, every formula comes drawn (MathJax at build time), every picture has alt text (not
a file name), headings go down one level at a time, saved widgets are drawn with a note on how to
run them live, and no test or solution plumbing is visible. Internal links are checked in the HTML files.
The default build (no solutions, no launch links) is checked on the staged sources, without Sphinx.

Needs /usr/bin/chromium, Playwright for Python, jupyter-book and the npm assets (book/node_modules,
or npm to install them); without them the test is skipped with the reason. A screenshot of a lesson
page is kept in tests/artifacts/.
"""

from __future__ import annotations

import base64
import html.parser
import importlib.util
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import nbformat
import pytest

from chutes_edu.checks import exercise_ids
from chutes_edu.course import GLOSSARY, SOURCES, TOOLBOX, course_lessons

from . import browser
from .conftest import BINDER_URL, BUILD_LOG, HUB_URL, REPO_URL, site_missing, site_pages
from .test_course import TOOLBOX_SECTIONS

# A white pixel: a picture a saved widget holds.
_ONE_PIXEL_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC")

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
ARTIFACTS = ROOT / "tests" / "artifacts"
PAGE_TIMEOUT = 180_000    # ms, a hang guard for a page, its maths and its widgets on a busy machine
# The pages IBM's engine audits too (it takes seconds per long page, axe a fraction of one): the
# front page, a lesson with a live board editor, an exercise set, its worked solutions, the
# playground and the accessibility page; a Spanish lesson and exercise set.
SECOND_AUDIT = {"index.html", "lessons/02_board_as_equations.html",
                "exercises/02_exercises_board_as_equations.html",
                "solutions/02_solutions_board_as_equations.html", "playground.html",
                "accessibility.html", "es/lessons/02_board_as_equations.html",
                "es/exercises/02_exercises_board_as_equations.html"}
# What a reader must never see: nbval's markers and nbgrader's solution and hidden-test markers.
MARKERS = re.compile(r"nbval|BEGIN SOLUTION|END SOLUTION|BEGIN HIDDEN TESTS|END HIDDEN TESTS", re.I)
# The course's internal names of its source documents (CONTRIBUTING.md: cite them by title).
JARGON = re.compile(r"\bseed 00\d", re.I)
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(site_missing() is not None, reason=str(site_missing()))]


def _load_build():
    spec = importlib.util.spec_from_file_location("book_build", BOOK / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------------------ the build
# `site`, the website built once for this module, tests/test_site_wcag.py and tests/test_pdf.py
# (worked solutions and launch links on), comes from tests/conftest.py.


def _pages(site: Path) -> list[Path]:
    return site_pages(site)


def _sources() -> list[str]:
    """Every lesson, its exercise set and its solutions (without .ipynb), in the course's order."""
    return [path.with_suffix("").as_posix() for lesson in course_lessons(ROOT)
            for path in (lesson.lesson, lesson.exercises, lesson.solutions)
            if (ROOT / path).exists()]


def test_every_lesson_exercise_set_and_solution_is_a_page(site):
    sources = _sources()
    assert len(sources) >= 30
    for source in sources:
        assert (site / f"{source}.html").exists(), f"{source} has no page"
    assert (site / "search.html").exists() and (site / "searchindex.js").exists()


def test_a_solutions_page_is_titled_as_solutions(site):
    """In the navigation a set's worked solutions are told apart from the set itself."""
    for source in _sources():
        if source.startswith("solutions/"):
            title = re.search(r"<title>(.*?)</title>", (site / f"{source}.html").read_text())
            assert title and title[1].startswith("Solutions "), (source, title)


def test_pages_follow_the_course_order(site):
    """Previous/next: the front page, lesson 1, its exercises, its solutions, lesson 2, ...; the
    toolbox is no page between the front page and Lesson 1 (a self-learner reaches it from each
    lesson's What you need), it comes after the course with the glossary and the sources."""
    expected = ["index", *_sources(), "playground",
                *(page.with_suffix("").as_posix() for page in (TOOLBOX, GLOSSARY, SOURCES)),
                "accessibility"]
    for here, there in zip(expected, expected[1:], strict=False):
        text = (site / f"{here}.html").read_text(encoding="utf-8")
        nxt = re.search(r'<a class="right-next"\s+href="([^"]+)"', text)
        assert nxt, f"{here} has no 'next' link"
        target = (site / here).parent / nxt[1]
        assert target.resolve() == (site / f"{there}.html").resolve(), f"{here} -> {nxt[1]}"


# ------------------------------------------------------------------------------ a self-learner's aids
def _article(page: Path) -> str:
    text = page.read_text(encoding="utf-8")
    match = re.search(r"<article.*?</article>", text, re.S)
    return match.group(0) if match else text


def test_the_toolbox_is_a_page_with_its_sections(site):
    page = _article(site / TOOLBOX.with_suffix(".html"))
    headings = [re.sub(r"<[^>]+>", "", h).replace("’", "'").rstrip("#")
                for h in re.findall(r"<h2>(.*?)</h2>", page, re.S)]
    assert [h for h in headings if h != "References"] == TOOLBOX_SECTIONS
    assert page.count("cell_output") >= len(TOOLBOX_SECTIONS), "the worked examples' outputs"


def test_every_lesson_page_opens_with_what_it_needs(site):
    for lesson in course_lessons(ROOT):
        page = _article(site / lesson.lesson.with_suffix(".html"))
        first = page[:page.find("</p>", page.find("What you need")) + 4]
        assert "What you need" in first and 'href="toolbox.html#' in first, lesson.name


def test_the_glossary_has_its_terms_and_every_term_link_resolves(site):
    terms = re.findall(r"^### ", (ROOT / GLOSSARY).read_text(encoding="utf-8"), re.M)
    glossary = _article(site / GLOSSARY.with_suffix(".html"))
    assert len(re.findall(r'<dt id="term-', glossary)) == len(terms) >= 30
    roles = resolved = 0
    for page in _pages(site):
        text = page.read_text(encoding="utf-8")
        roles += text.count('class="xref std std-term"')
        resolved += len(re.findall(r'<a class="reference internal" href="[^"]*glossary\.html#term-'
                                   r'[^"]*"><span class="xref std std-term">', text))
    assert roles >= 80 and resolved == roles, f"{roles} term links, {resolved} resolved"
    log = (site.parent / BUILD_LOG).read_text(encoding="utf-8")
    assert not re.search(r"term not in glossary|xref_missing|undefined label", log), log[-3000:]


def test_the_index_has_entries_and_the_front_page_links_it(site):
    index = _article(site / "genindex.html")
    entries = re.findall(r"<li><a href=", index)
    assert len(entries) >= 30, f"the index has {len(entries)} entries"
    front = (site / "index.html").read_text(encoding="utf-8")
    for target in ("genindex.html", "lessons/glossary.html", "lessons/sources.html",
                   "lessons/toolbox.html"):
        assert f'href="{target}' in front, f"the front page does not link {target}"


def test_every_source_on_the_sources_page_has_a_link(site):
    page = _article(site / "lessons" / "sources.html")
    items = re.findall(r"<li>(.*?)</li>", page, re.S)
    assert len(items) >= 10
    for item in items:
        assert 'class="reference external" href="http' in item, item[:200]
    assert not re.search(r"not given|undated", page)


def test_every_exercise_has_a_closed_hint_on_its_page(site):
    hints = []
    for lesson in course_lessons(ROOT):
        page = _article(site / lesson.exercises.with_suffix(".html"))
        found = re.findall(r"<details>\s*<summary>Hint for exercise (\d+\.\d+)</summary>", page)
        assert found, f"{lesson.exercises}: no hints"
        assert "<details open" not in page
        hints += found
    assert len(hints) == len(set(hints)) == len(exercise_ids())


# ------------------------------------------------------------------------------ internal links
class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        for key in ("href", "src"):
            if attrs.get(key) and tag in ("a", "link", "img", "script", "source", "iframe"):
                self.refs.append(attrs[key])


def test_internal_links_resolve(site):
    parsed = {}
    for page in _pages(site):
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        parsed[page.resolve()] = parser
    broken = []
    for page, parser in parsed.items():
        for ref in parser.refs:
            parts = urlsplit(ref)
            if parts.scheme or ref.startswith("//"):
                # a picture embedded in the page (an explorer's still picture) is no link
                if parts.scheme not in ("http", "https", "mailto", "data"):
                    broken.append(f"{page.name}: {ref} (not a relative link)")
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not target.exists():
                broken.append(f"{page.relative_to(site.resolve())}: {ref}")
            elif parts.fragment and target in parsed and parts.fragment not in parsed[target].ids:
                broken.append(f"{page.relative_to(site.resolve())}: {ref} (no such anchor)")
    assert not broken, "broken internal links:\n" + "\n".join(broken[:40])


def test_no_page_names_a_cdn(site):
    """No <script>, <link> or <img> points off the site (links to Binder or a hub are fine)."""
    offsite = re.compile(r'<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)="(?:https?:)?//', re.I)
    bad = [p.name for p in _pages(site) if offsite.search(p.read_text(encoding="utf-8"))]
    assert not bad, f"pages load something from the network: {bad}"


# ------------------------------------------------------------------------------ in the browser
_PAGE_REPORT = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  await new Promise(r => setTimeout(r, 300));
  const article = document.querySelector('article') || document.body;
  const prose = [...article.querySelectorAll('p, li, td, th, h1, h2, h3, h4, h5, h6')]
    .filter(e => !e.closest('pre, code, .cell_output, .highlight, mjx-container'))
    .map(e => e.innerText);
  return {
    text: document.body.innerText,
    prose: prose,
    math: document.querySelectorAll('.math').length,
    mathDone: [...document.querySelectorAll('.math')].filter(
      e => e.querySelector('mjx-container') || e.tagName === 'MJX-CONTAINER').length,
    mathErrors: document.querySelectorAll('mjx-merror').length,
    views: document.querySelectorAll('script[type="WIDGET_VIEW"]').length,
    controls: document.querySelectorAll('.jupyter-widgets, .widget-subarea').length,
    snapshots: [...document.querySelectorAll('.explorer-snapshot')].map(
      s => [...s.querySelectorAll('img')].map(i => (i.getAttribute('alt') || '').trim())),
    matrices: document.querySelectorAll('.chutes-math').length,
    matricesDone: [...document.querySelectorAll('.chutes-math')].filter(
      e => e.querySelector('mjx-container')).length,
    notes: document.querySelectorAll('.widget-note').length,
    noteLinks: [...document.querySelectorAll('.widget-note a')].map(a => a.href),
    images: [...document.images].map(i => ({src: i.getAttribute('src') || '',
      alt: (i.getAttribute('alt') || '').trim(), loaded: i.complete && i.naturalWidth > 0,
      hidden: !i.offsetParent})),
    headings: [...article.querySelectorAll('h1, h2, h3, h4, h5, h6')].map(
      h => [Number(h.tagName[1]), h.innerText.trim()]),
    languageLinks: [...document.querySelectorAll('a.course-language')].filter(a => a.offsetParent)
      .map(a => [a.innerText.trim(), a.lang]),
  };
}""".replace("WIDGET_VIEW", WIDGET_VIEW)


def _alt_problem(image: dict) -> str | None:
    alt, src = image["alt"], image["src"]
    name = src.rsplit("/", 1)[-1]
    if not alt:
        return f"no alt text: {src[:80]}"
    if alt == src or alt == name or re.search(r"\.(png|jpe?g|svg|gif)$", alt, re.I):
        return f"alt text is a file name: {alt[:80]}"
    return None


# The outermost elements past the window's right edge that no box of theirs clips or scrolls.
_PAST_THE_EDGE = """async () => {
  // the page reflows, and its scripts answer the new width: course.js, 150 ms after a change of
  // width, looks again at which boxes scroll (data-course-measured until it has seen them all)
  await new Promise(r => setTimeout(r, 300));
  const course = document.querySelector('script[src*="_static/course.js"]');
  while (course && !document.documentElement.hasAttribute('data-course-measured')) {
    await new Promise(r => setTimeout(r, 50));
  }
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const width = document.documentElement.clientWidth;
  const found = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 0.5) continue;
    let held = false;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== 'visible') { held = true; break; }
    }
    const parent = el.parentElement;
    if (held || (parent && parent !== document.body
                 && parent.getBoundingClientRect().right > width + 0.5)) continue;
    found.push(`${el.localName}.${el.getAttribute('class') || ''} ` +
               `"${(el.textContent || '').trim().slice(0, 50)}"`);
  }
  return {width: document.documentElement.scrollWidth, found: found.slice(0, 4)};
}"""


# Reflow (WCAG 1.4.10) as a reader meets it: a window of 1280 px zoomed to 400%, 320 px wide.
REFLOW = {"width": 320, "height": 700}
WINDOW = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def reports(site):
    """Every page, opened from disk with the network refused: what it shows."""
    results = {}
    with browser.chromium() as chromium:
        context = chromium.new_context(viewport=WINDOW)
        offsite = browser.refuse_network(context)
        page = context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT)
        for path in _pages(site):
            rel = path.relative_to(site).as_posix()
            missing: list[str] = []
            errors: list[str] = []
            def on_fail(r, missing=missing):  # bound now: each page has its own lists
                missing.append(r.url)

            def on_error(e, errors=errors):
                errors.append(str(e))

            page.on("requestfailed", on_fail)
            page.on("pageerror", on_error)
            page.goto(path.as_uri(), wait_until="load")
            browser.draw_every_explorer(page)
            report = page.evaluate(_PAGE_REPORT)
            report["axe"] = browser.axe_violations(page)
            if rel in SECOND_AUDIT:
                report["ace"] = browser.ace_violations(page)
            page.set_viewport_size(REFLOW)
            report["reflow"] = page.evaluate(_PAST_THE_EDGE)
            page.set_viewport_size(WINDOW)
            report["missing"] = [u for u in missing if u.startswith("file:")]
            report["errors"] = errors
            if rel == "lessons/01_waiting_for_heads.html":
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "site_lesson01.png"), full_page=False)
                page.keyboard.press("Tab")
                report["first_tab"] = page.evaluate(
                    "() => document.activeElement && document.activeElement.innerText")
            page.remove_listener("requestfailed", on_fail)
            page.remove_listener("pageerror", on_error)
            results[rel] = report
    results["__offsite__"] = offsite
    return results


def _each(reports):
    return {k: v for k, v in reports.items() if not k.startswith("__")}


def test_nothing_is_fetched_from_the_network(reports):
    assert reports["__offsite__"] == [], f"requests off the disk: {reports['__offsite__'][:10]}"


def test_nothing_is_missing_and_no_script_fails(reports):
    bad = {k: (v["missing"], v["errors"]) for k, v in _each(reports).items()
           if v["missing"] or v["errors"]}
    assert not bad, f"missing files or script errors: {bad}"


def test_maths_is_typeset(reports):
    pages = _each(reports)
    assert sum(v["math"] for v in pages.values()) > 100, "the lessons' maths did not reach the pages"
    bad = {k: f"{v['mathDone']}/{v['math']} typeset, {v['mathErrors']} errors"
           for k, v in pages.items() if v["mathDone"] < v["math"] or v["mathErrors"]}
    assert not bad, f"maths left raw or in error: {bad}"
    raw = re.compile(r"(?<!\\)\$[^$\s][^$]*\$|\\\(|\\\[|\$\$")
    leftover = {k: [t[:80] for t in v["prose"] if raw.search(t)] for k, v in pages.items()}
    leftover = {k: t for k, t in leftover.items() if t}
    assert not leftover, f"raw TeX in the text: {leftover}"


def test_every_image_has_alt_text(reports):
    bad = {}
    for rel, report in _each(reports).items():
        problems = [p for p in map(_alt_problem, report["images"]) if p]
        unloaded = [i["src"][:80] for i in report["images"] if not i["loaded"] and not i["hidden"]]
        if problems or unloaded:
            bad[rel] = problems + [f"not loaded: {u}" for u in unloaded]
    assert not bad, "images without a description (or not loaded):\n" + "\n".join(
        f"{k}: {len(v)}: {v[0]}" for k, v in bad.items())


def test_every_saved_explorer_is_live_on_the_site(reports):
    """No dead controls on a page without Python: every explorer of the lessons and worked
    solutions runs in the page (the tests of each lesson's below), none is left a still picture."""
    pages = _each(reports)
    for rel, report in pages.items():
        assert report["views"] == 0 and report["controls"] == 0, f"{rel}: dead widget controls"
    still = {rel: len(v["snapshots"]) for rel, v in pages.items() if v["snapshots"]}
    assert not still, f"explorers left as still pictures: {still}"


def test_a_widget_that_needs_python_becomes_a_still_picture_with_a_note(tmp_path, monkeypatch):
    """Any other saved widget (a teacher's own ipywidgets, say) has no program for the page: it
    becomes its words and its described pictures, then a note that says how to run it live, with
    exactly the launch links book/build.py makes for the page's notebook (an "&" escaped twice
    once sent the hub a parameter "amp;urlpath")."""
    for name in ("SOLUTIONS", "BINDER_URL", "HUB_URL", "REPO_URL", "BRANCH"):
        monkeypatch.delenv(name, raising=False)
    build = _load_build()
    monkeypatch.setattr(build, "ROOT", tmp_path)
    png = base64.b64encode(_ONE_PIXEL_PNG).decode("ascii")
    alt = "A picture of the board: 100 squares, 9 ladders and 10 chutes, made by the teacher."
    state = {"root": {"model_name": "VBoxModel",
                      "state": {"children": ["IPY_MODEL_words", "IPY_MODEL_picture"]}},
             "words": {"model_name": "HTMLModel", "state": {"value": "expected turns 39.2251"}},
             "picture": {"model_name": "ImageModel", "state": {"value": png, "alt": alt}}}
    view = {"model_id": "root", "version_major": 2, "version_minor": 0}
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("TeachersWidget()", outputs=[
        nbformat.v4.new_output("display_data", data={build.WIDGET_VIEW: view,
                                                     "text/plain": "TeachersWidget()"})])])
    nb.metadata["widgets"] = {build.WIDGET_STATE: {"state": state, "version_major": 2,
                                                   "version_minor": 0}}
    source = tmp_path / "lessons" / "01_teachers.ipynb"
    source.parent.mkdir()
    nbformat.write(nb, source)
    for argv, links in (([], False), (["--binder-url", BINDER_URL, "--hub-url", HUB_URL,
                                       "--repo-url", REPO_URL], True)):
        args = build.parse_args(["--out", str(tmp_path / "html"), *argv])
        target = tmp_path / "site-src" / "01_teachers.ipynb"
        build.stage_notebook(source, target, args)
        cells = nbformat.read(target, as_version=4).cells
        shown = cells[0].outputs[0]["data"]["text/html"]
        assert "explorer-snapshot" in shown and "expected turns 39.2251" in shown
        assert f'alt="{alt}"' in shown and f"data:image/png;base64,{png}" in shown
        assert "widgets" not in nbformat.read(target, as_version=4).metadata
        note = cells[1].source
        assert "widget-note" in note and "make lab" in note
        made = build.launch_links(args, "lessons/01_teachers.ipynb")
        if links:
            assert made and all(url in note for _, url in made), (made, note)
        else:
            assert not made and "](http" not in note, note


def test_no_serious_or_critical_accessibility_violation(reports):
    """axe-core (pinned in tests/js/package.json), WCAG 2.1 A and AA, on every page."""
    bad = {rel: browser.describe_violations(v["axe"]) for rel, v in _each(reports).items()
           if v["axe"]}
    assert not bad, "\n".join(f"{rel}:\n{text}" for rel, text in bad.items())


def test_no_wcag21_aa_failure_by_the_second_auditor(reports):
    """IBM's Equal Access engine (pinned in tests/js/package.json), WCAG 2.1 A and AA, on a
    sample of pages (SECOND_AUDIT): none of its definite failures (ACCESSIBILITY.md)."""
    audited = {rel: v["ace"] for rel, v in _each(reports).items() if "ace" in v}
    assert set(audited) == SECOND_AUDIT, f"not audited: {SECOND_AUDIT - set(audited)}"
    bad = {rel: browser.describe_violations(v) for rel, v in audited.items() if v}
    assert not bad, "\n".join(f"{rel}:\n{text}" for rel, text in bad.items())


def test_matrices_are_typeset_in_regions_the_keyboard_reaches(reports):
    pages = _each(reports)
    assert sum(v["matrices"] for v in pages.values()) >= 3
    bad = {k: f"{v['matricesDone']}/{v['matrices']}" for k, v in pages.items()
           if v["matricesDone"] < v["matrices"]}
    assert not bad, f"matrices left in raw TeX: {bad}"


def test_no_test_or_solution_markers_are_visible(reports):
    bad = {k: sorted(set(MARKERS.findall(v["text"]))) for k, v in _each(reports).items()}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, f"test plumbing on the pages: {bad}"


def test_no_source_jargon_is_visible(reports):
    """Students never read 'seed 000'...: the sources are cited by their titles."""
    bad = {k: sorted(set(JARGON.findall(v["text"]))) for k, v in _each(reports).items()}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, f"'seed 00N' on the pages: {bad}"


def test_headings_are_in_order(reports):
    bad = {}
    for rel, report in _each(reports).items():
        levels = [level for level, _ in report["headings"]]
        if rel in ("search.html", "genindex.html"):
            continue
        jumps = [f"h{a} -> h{b}" for a, b in zip(levels, levels[1:], strict=False) if b > a + 1]
        if not levels or levels[0] != 1 or levels.count(1) != 1 or jumps:
            bad[rel] = (levels[:3], jumps)
    assert not bad, f"headings out of order: {bad}"


def test_every_page_shows_one_link_to_itself_in_the_other_language(reports):
    """A visible link named in the other language, in that language (a screen reader says
    "Español" in Spanish): tests/test_site_es.py checks where each leads."""
    bad = {}
    for rel, report in _each(reports).items():
        wanted = [["English", "en"]] if rel.startswith("es/") else [["Español", "es"]]
        if report["languageLinks"] != wanted:
            bad[rel] = report["languageLinks"]
    assert not bad, f"no single visible link to the other language: {bad}"


def test_no_page_is_wider_than_a_320px_window(reports):
    """Reflow (WCAG 1.4.10): every page, its explorers drawn, narrowed to 320 px as a reader's
    400% zoom narrows it, is no wider than the window."""
    wide = {rel: v["reflow"] for rel, v in _each(reports).items()
            if v["reflow"]["width"] > REFLOW["width"]}
    assert not wide, "pages wider than 320 px:\n" + "\n".join(
        f"{rel}: {r['width']} px: {r['found']}" for rel, r in wide.items())


def test_the_keyboard_reaches_the_text_first(reports):
    first = reports["lessons/01_waiting_for_heads.html"]["first_tab"] or ""
    assert "skip" in first.lower(), f"the first Tab lands on {first!r}, not a skip link"


# ------------------------------------------------------------------------------ the default build
def test_default_build_leaves_solutions_and_launch_links_out(tmp_path, monkeypatch):
    """A teacher's default: no worked solutions anywhere, no launch links (staged sources only)."""
    for name in ("SOLUTIONS", "BINDER_URL", "HUB_URL", "REPO_URL", "BRANCH"):
        monkeypatch.delenv(name, raising=False)
    build = _load_build()
    monkeypatch.setattr(build, "_origin_url", lambda: "")    # a clone whose address is unknown
    args = build.parse_args(["--out", str(tmp_path / "html")])
    src = tmp_path / "site-src"
    build.stage(args, src)
    assert not (src / "solutions").exists()
    staged = "\n".join(p.read_text(encoding="utf-8") for p in src.rglob("*")
                       if p.suffix in (".md", ".yml", ".ipynb"))
    assert not re.search(r"\]\((\.\./)?solutions/", staged), "a link to the worked solutions"
    assert "mybinder.org/v2" not in staged and "git-pull" not in staged
    # ... and no page promises a link that is not there (issue 28; a still picture's note:
    # test_a_widget_that_needs_python_becomes_a_still_picture_with_a_note)
    notes = [c for p in src.rglob("*.ipynb")
             for c in nbformat.read(p, as_version=4).cells if "widget-note" in c.source]
    assert not [c.source for c in notes if "](http" in c.source], "a note links somewhere"
    front = (src / "index.md").read_text(encoding="utf-8")
    assert "mybinder" not in front.lower() and "Binder" not in front and "JupyterHub" not in front
    assert "make lab" in front
    statement = (src / "accessibility.md").read_text(encoding="utf-8")
    assert not re.search(r"links? to a live copy", statement), "the statement promises a link"
    config = (src / "_config.yml").read_text(encoding="utf-8")
    assert '"binderhub_url": ""' in config and '"jupyterhub_url": ""' in config
    # ... yet every exercise page and code exercise says how to open its notebook (issue 38)
    assert "clone the course" not in front and "get the course's folder" in front
    for lesson in course_lessons(ROOT):
        path = lesson.exercises.as_posix()
        cells = nbformat.read(src / lesson.exercises, as_version=4).cells
        assert "make lab" in cells[0].source and f"`{path}`" in cells[0].source, path
        assert "Run the setup cell first" not in cells[0].source, path
        notes = [c.source for c in cells if 'class="answer-code"' in c.source]
        assert all(f"<code>{path}</code>" in n and "<code>make lab</code>" in n
                   for n in notes), path


def test_a_known_repository_gives_launch_links_and_a_credential_never_reaches_a_page(
        tmp_path, monkeypatch):
    """REPO_URL alone (or an https origin remote): Binder launch links (mybinder.org) under every
    code exercise; BINDER_URL=none turns them off. An origin remote with a user name or token in
    it is never used, and such a REPO_URL is refused (attack)."""
    for name in ("SOLUTIONS", "BINDER_URL", "HUB_URL", "REPO_URL", "BRANCH"):
        monkeypatch.delenv(name, raising=False)
    build = _load_build()
    monkeypatch.setattr(build, "_origin_url", lambda: "")
    args = build.parse_args(["--repo-url", REPO_URL])
    assert args.binder_url == "https://mybinder.org"
    path = "exercises/02_exercises_board_as_equations.ipynb"
    assert dict(build.launch_links(args, path))["Binder"].startswith(
        "https://mybinder.org/v2/gh/example-org/chutes_edu/main?urlpath=lab/tree/exercises/")
    staged = tmp_path / "site-src"
    build.stage_notebook(ROOT / path, staged / path, args, numbers=build.set_numbers(2))
    build._answer_boxes(args, staged, "02_board_as_equations")
    text = "\n".join(c.source for c in nbformat.read(staged / path, as_version=4).cells)
    assert text.count("mybinder.org/v2/gh/example-org/chutes_edu") >= 2   # intro and code notes
    assert build.parse_args(["--repo-url", REPO_URL, "--binder-url", "none"]).binder_url == ""
    assert build.parse_args(["--repo-url", REPO_URL, "--hub-url", HUB_URL]).binder_url == ""
    # an origin cloned with credentials: not a public address, no link, no page names it
    for secret in ("https://ada:ghp_token@github.com/example-org/chutes_edu.git",
                   "https://ghp_token@github.com/example-org/chutes_edu"):
        assert not build.public_https(secret)
        monkeypatch.setattr(build, "_origin_url", lambda secret=secret: (
            secret.removesuffix(".git") if build.public_https(secret) else ""))
        args = build.parse_args([])
        assert args.repo_url == "" and args.binder_url == ""
        with pytest.raises(build.SiteError, match="no user name or token"):
            build.parse_args(["--repo-url", secret])
    for bad in ("http://github.com/x/y", "https://", "https://github.com", "file:///srv/course",
                "https://github.com/x/y?token=1"):
        assert not build.public_https(bad), bad
    monkeypatch.setattr(build, "ROOT", tmp_path)           # no git repository: no origin
    assert build._origin_url() == ""


def test_exercise_pages_show_their_numbers_beside_their_names():
    """The staged text: a name alone gets its value in brackets, a longer code span the values of
    the names in it; fenced code and undeclared names are left alone."""
    build = _load_build()
    numbers = {"size": 6, "rule": "stay"}
    text = ("squares 0 to `n.size`, rule `n.rule`, `board.replace(overshoot=n.rule)[n.size]`, "
            "`n.other`, `size`\n```python\nn.size\n```\nand `n.size\n` too")
    shown = build.show_numbers(text, numbers)

    def value(name: str, text: str) -> str:   # a value the page can change (new numbers)
        return f'<span class="chutes-n" data-n="{name}">{text}</span>'

    size, rule = value("size", "6"), value("rule", '"stay"')
    assert shown.startswith(f'squares 0 to `n.size` ({size}), rule `n.rule` ({rule}), '
                            f'`board.replace(overshoot=n.rule)[n.size]` (`n.rule` = {rule}, '
                            f'`n.size` = {size}), `n.other`, `size`\n```python\nn.size\n```\n')
    assert shown.endswith(f"and `n.size\n` ({size}) too")
    assert build.set_numbers(2)["size"] == 6           # chutes_edu/numbers/set02.json
    table = build.numbers_table(build.set_numbers(2))
    assert f"| `n.size` | {size} |" in table and f"| `n.rule` | {rule} |" in table


@pytest.mark.parametrize(("repo", "spec"), [
    ("https://github.com/example-org/chutes_edu", "gh/example-org/chutes_edu"),
    ("https://gitlab.com/example-org/chutes_edu", "gl/example-org%2Fchutes_edu"),
    ("https://git.example.edu/course/chutes_edu", "git/https%3A%2F%2Fgit.example.edu%2Fcourse"
                                                  "%2Fchutes_edu")])
def test_launch_links_open_the_notebook_in_the_repository(repo, spec, monkeypatch):
    """With addresses, Binder opens the repository at the page's notebook (never Binder's home
    page), the hub pulls the repository and opens the same notebook; checked without a build."""
    for name in ("SOLUTIONS", "BINDER_URL", "HUB_URL", "REPO_URL", "BRANCH"):
        monkeypatch.delenv(name, raising=False)
    build = _load_build()
    args = build.parse_args(["--binder-url", "https://mybinder.org/", "--hub-url", HUB_URL,
                             "--repo-url", repo + ".git", "--branch", "fall"])
    path = "lessons/02_board_as_equations.ipynb"
    links = dict(build.launch_links(args, path))
    assert links["Binder"] == f"https://mybinder.org/v2/{spec}/fall?urlpath=lab/tree/{path}"
    name = repo.rsplit("/", 1)[-1]
    assert links["your JupyterHub"] == (
        f"{HUB_URL}/hub/user-redirect/git-pull?repo={repo.replace(':', '%3A')}"
        f"&urlpath=lab/tree/{name}/{path}&branch=fall")
    front = build.front_page(args)
    start = dict(build.launch_links(args, "start_here.ipynb"))
    assert f"[open the course on Binder]({start['Binder']})" in front
    assert f"[open the course on the hub]({start['your JupyterHub']})" in front
    assert f"clone [the course]({repo})" in front
    sentence = build._run_live_sentence(args, path)
    assert f"[on Binder]({links['Binder']})" in sentence
    assert f"[on your JupyterHub]({links['your JupyterHub']})" in sentence
    # only the address given gets a link
    args = build.parse_args(["--binder-url", "https://mybinder.org", "--repo-url", repo])
    front = build.front_page(args)
    assert "on Binder" in front and "JupyterHub" not in front
    with pytest.raises(build.SiteError, match="REPO_URL"):
        build.parse_args(["--binder-url", "https://mybinder.org", "--repo-url", "git@host:x.git"])


def test_solutions_are_staged_without_markers(tmp_path, monkeypatch):
    monkeypatch.delenv("SOLUTIONS", raising=False)
    build = _load_build()
    args = build.parse_args(["--out", str(tmp_path / "html"), "--solutions"])
    for source in sorted((ROOT / "solutions").glob("*.ipynb")):
        target = tmp_path / source.name
        build.stage_notebook(source, target, args, strip_solutions=True)
        text = "\n".join(c.source for c in nbformat.read(target, as_version=4).cells)
        assert not MARKERS.search(text), f"{source.name}: markers left in the staged solutions"


def test_glossary_links_become_term_roles_with_index_entries():
    """In a notebook a glossary link is a plain link to lessons/glossary.md (it works in
    JupyterLab); the site makes it Sphinx's {term} role and files the cell in the index."""
    build = _load_build()
    terms = build.glossary_terms("# Glossary\n\n## M\n\n### Markov chain\n\nA chain.\n")
    assert terms == {"Markov-chain": "Markov chain"}
    cell = "## 3. Chains\n\nA *[Markov chain](glossary.md#Markov-chain)* has states."
    staged = build.glossary_roles(cell, terms)
    assert staged.startswith("## 3. Chains\n\n```{index} Markov chain\n```\n")
    assert "*{term}`Markov chain <Markov chain>`* has states" in staged
    assert build.glossary_roles("No link here.", terms) == "No link here."
    with pytest.raises(build.SiteError, match="Markov-chains"):
        build.glossary_roles("[chains](glossary.md#Markov-chains)", terms)
    page = build.glossary_page((ROOT / GLOSSARY).read_text(encoding="utf-8"))
    assert page.count("```{glossary}") == len(re.findall(r"^## ", page, re.M))
    assert "### " not in page


# ------------------------------------------------------------------------------ the live editor



def test_the_playground_edits_a_board_offline_and_a_link_opens_it(site):
    """The board editor on a page opened from disk, with every request off the disk refused and
    no kernel: an edit's numbers are the library's, the address keeps the board, and a link
    with that address opens it."""
    from playwright.sync_api import expect

    from chutes_edu import MILTON_BRADLEY_1943, expected_turns

    edited = MILTON_BRADLEY_1943.with_jump(30, 35)
    before = f"{float(expected_turns(MILTON_BRADLEY_1943)[0]):.4f}"
    after = f"{float(expected_turns(edited)[0]):.4f}"
    with browser.chromium() as chromium:
        context = chromium.new_context(viewport={"width": 1280, "height": 1000})
        offsite = browser.refuse_network(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((site / "playground.html").as_uri())
        readout = page.locator(".chutes-editor-readout")
        expect(readout).to_contain_text(before)
        for square in (30, 35):
            page.mouse.click(*browser.square_point(page, square))
        expect(readout).to_contain_text(after)
        address = page.url
        assert "#board=" in address
        page.close()
        again = context.new_page()
        again.goto(address)
        expect(again.locator(".chutes-editor-readout")).to_contain_text(after)
        again.close()
    assert not errors and not offsite, (errors, offsite)


@contextmanager
def _live_explorer(site: Path, rel: str, explorer: str, kind: str) -> Iterator[tuple[Any, Any]]:
    """A site page opened from disk in Chromium with every request off the disk refused: its one
    live explorer ``kind`` (its class ``.explorer``), as (page, explorer); on leaving, axe-core
    finds nothing serious or critical in the explorer, its screenshot is kept, and the page had
    no errors and fetched nothing from the network."""
    from playwright.sync_api import expect

    page_html = (site / rel).read_text(encoding="utf-8")
    assert page_html.count(f'data-explorer="{kind}"') == 1
    with browser.chromium() as chromium:
        context = chromium.new_context(viewport={"width": 1280, "height": 1000})
        offsite = browser.refuse_network(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((site / rel).as_uri())
        browser.draw_every_explorer(page)
        root = page.locator(f".{explorer}")
        expect(root).to_have_count(1)
        yield page, root
        violations = browser.axe_violations(
            page, context=f"document.querySelector('.{explorer}')")
        assert not violations, browser.describe_violations(violations)
        picture = f"site_lesson{Path(rel).stem[:2]}_{explorer.removeprefix('chutes-')}.png"
        # an explorer taller than the window is captured scrolled in pieces, the page's sticky
        # header over it: a window as tall as the explorer takes it whole
        height = root.evaluate("e => Math.ceil(e.getBoundingClientRect().height)")
        window = page.viewport_size
        page.set_viewport_size({**window, "height": max(window["height"], height + 100)})
        root.screenshot(path=str(ARTIFACTS / picture.replace("-", "_")))
    assert not errors and not offsite, (errors, offsite)


def test_lesson_one_holds_a_live_coin_explorer(site):
    """Issue 28: Lesson 1's coin-flip explorer runs in the page opened from disk, with no kernel
    and every request off the disk refused: the slider moves from the keyboard, and the readout
    (with the library's 1/p), the picture's text alternative and the polite live region follow;
    no page errors; axe-core finds nothing serious or critical in it."""
    from playwright.sync_api import expect

    from chutes_edu import expected_flips

    with _live_explorer(site, "lessons/01_waiting_for_heads.html", "chutes-coin-explorer",
                        "CoinFlipExplorer") as (_, root):
        readout = root.locator(".chutes-readout")
        picture = root.locator("svg[role=img]")
        live = root.locator("[role=status][aria-live=polite]")
        expect(readout).to_contain_text(f"1/p = {expected_flips(0.5):.4f} flips")
        before = (picture.get_attribute("aria-label") or "", live.text_content() or "")
        assert before[0].startswith("Waiting for heads: the running mean of 1,000 trials")
        slider = root.get_by_role("slider", name="P(heads), the chance of heads p")
        slider.focus()
        slider.press("ArrowLeft")
        expect(readout).to_contain_text(f"1/p = {expected_flips(0.49):.4f} flips")
        expect(slider).to_have_attribute("aria-valuetext", "0.49")
        after = (picture.get_attribute("aria-label") or "", live.text_content() or "")
        assert after[0] != before[0] and f"{expected_flips(0.49):.4f} flips." in after[0]
        assert after[1] != before[1] and "1/p = 2.04 flips" in after[1]


def test_lessons_two_and_twelve_hold_a_live_editor(site):
    for lesson in ("02_board_as_equations", "12_design_a_board"):
        page = (site / "lessons" / f"{lesson}.html").read_text(encoding="utf-8")
        assert "chutes-board-editor-mount" in page, lesson
    assert "chutes-board-editor-mount" in (site / "playground.html").read_text(encoding="utf-8")


def test_lesson_eight_holds_a_live_race_explorer(site):
    """Issue 28: Lesson 8's race explorer runs in the page opened from disk, with no kernel and
    every request off the disk refused: a seat's slider moves from the keyboard, and the readout
    (with the library's chances), the picture's text alternative and the polite live region
    follow; no page errors; axe-core finds nothing serious or critical in it."""
    from playwright.sync_api import expect

    from chutes_edu import NOORDENBOS_2023, win_probabilities

    squares = [14, 60, 31, 26, 48, 48]                   # the lesson's six players
    with _live_explorer(site, "lessons/08_races.html", "chutes-race-explorer",
                        "RaceExplorer") as (_, root):
        readout = root.locator(".chutes-readout")
        picture = root.locator("svg.chutes-race-chart[role=img]")
        board = root.locator("svg.chutes-race-board[role=img]")     # the tokens on the board
        live = root.locator("[role=status][aria-live=polite]")
        chances = win_probabilities(NOORDENBOS_2023, squares)
        expect(readout).to_contain_text(f"seat 2 (square 60): {chances[1]:.4f}")
        before = (picture.get_attribute("aria-label") or "", live.text_content() or "")
        assert before[0].startswith("Who wins? (seat 1 moves first): bars show")
        seat = root.get_by_role("slider", name="seat 1 starts on square")
        seat.focus()
        seat.press("ArrowRight")
        moved = win_probabilities(NOORDENBOS_2023, [15, *squares[1:]])
        expect(readout).to_contain_text(f"seat 1 (square 15): {moved[0]:.4f}")
        expect(seat).to_have_attribute("aria-valuetext", "15")
        after = (picture.get_attribute("aria-label") or "", live.text_content() or "")
        assert after[0] != before[0] and f"seat 1 {moved[0]:.3f}" in after[0]
        assert after[1] != before[1] and f"seat 1 {100 * moved[0]:.1f}%" in after[1]
        expect(board).to_have_attribute("aria-label", re.compile(
            r"player 1 on square 15, player 2 on square 60, .*player 6 on square 48\.$"))
        expect(board.locator(".token")).to_have_count(6)


def test_each_front_end_is_a_script_of_its_own_as_built(site: Path) -> None:
    """The site loads each front end (an explorer, the editor, the calculator) as a classic script
    of its own, as esbuild built it (chutes_edu/widgets/static/site-<name>.js), fetched by the
    runtime that draws them (site.js, its ``data-front-ends``) after the named boards (data)."""
    from chutes_edu.widgets._front_end import STATIC

    static = site / "_static"
    for built in STATIC.glob("site*.js"):
        assert (static / built.name).read_bytes() == built.read_bytes(), built.name
    assert (static / "board_presets.js").read_text(encoding="utf-8").startswith(
        "window.ChutesBoardPresets = {")
    page = (site / "lessons" / "02_board_as_equations.html").read_text(encoding="utf-8")
    runtime = re.search(r'<script defer src="\.\./_static/site\.js\?v=[0-9a-f]+" '
                        r'data-front-ends="([^"]+)"></script>', page)
    assert runtime, "the runtime does not name the front ends' scripts"
    assert [ref.split("?")[0] for ref in runtime[1].split()][:2] == [
        "../_static/board_presets.js", "../_static/site-board_editor.js"]
    assert "board_presets.js" not in page.replace(runtime[0], "")
    assert not (static / "board_editor_site.js").exists()

def test_lesson_ten_holds_a_live_policy_explorer(site):
    """Issue 28: Lesson 10's policy explorer runs in the page opened from disk, with no kernel and
    every request off the disk refused: the discount's slider moves from the keyboard, and the
    readout (with the library's sweeps and expected turns), the picture's text alternative and
    the polite live region follow; no page errors; axe-core finds nothing serious or critical."""
    from playwright.sync_api import expect

    from chutes_edu import AIMING_GAME_2021, control

    def sweeps(discount: float) -> str:
        result = control.value_iteration(AIMING_GAME_2021, discount=discount)
        return f"value iteration: {result.iterations} sweeps; value of square 0: " \
               f"{result.values[0]:.4g}"

    fewest = control.optimal_policy(AIMING_GAME_2021).expected_turns[0]
    with _live_explorer(site, "lessons/10_optimal_control.html", "chutes-policy-explorer",
                        "PolicyExplorer") as (_, root):
        readout = root.locator(".chutes-readout")
        picture = root.locator("svg[role=img]")
        live = root.locator("[role=status][aria-live=polite]")
        expect(readout).to_contain_text(sweeps(0.9))
        expect(readout).to_contain_text(f"the fewest possible is {fewest:.3f}")
        before = (picture.get_attribute("aria-label") or "", live.text_content() or "")
        assert before[0].startswith("value map and targets (number = target), discount 0.90: "
                                    "the 100-square board 'Aiming game 2021 (stop short)'")
        slider = root.get_by_role("slider", name="discount factor γ")
        slider.focus()
        slider.press("ArrowLeft")
        expect(readout).to_contain_text(sweeps(0.89))
        expect(slider).to_have_attribute("aria-valuetext", "0.89")
        after = (picture.get_attribute("aria-label") or "", live.text_content() or "")
        assert after[0] != before[0] and "discount 0.89" in after[0]
        assert after[1].startswith("This policy takes ") and f"{fewest:.3f}" in after[1]


def test_lessons_one_and_seven_hold_a_live_simulation_explorer(site):
    """Issue 28: Lesson 7's simulation explorer plays its games in the page opened from disk,
    with no kernel and every request off the disk refused: the readout gives the library's exact
    mean; the cap's slider moves from the keyboard, and the readout, the picture's text
    alternative and the polite live region follow; no page errors; axe-core finds nothing serious
    or critical in it. Lesson 1 mounts one too, beside its coin-flip explorer."""
    from playwright.sync_api import expect

    from chutes_edu import MILTON_BRADLEY_1943, expected_turns

    lesson_one = (site / "lessons" / "01_waiting_for_heads.html").read_text(encoding="utf-8")
    assert lesson_one.count('data-explorer="SimulationExplorer"') == 1
    exact = f"{float(expected_turns(MILTON_BRADLEY_1943)[0]):.4f}"
    with _live_explorer(site, "lessons/07_simulation.html", "chutes-simulation-explorer",
                        "SimulationExplorer") as (_, root):
        readout = root.locator(".chutes-readout")
        picture = root.locator("svg[role=img]")
        live = root.locator("[role=status][aria-live=polite]")
        expect(readout).to_contain_text("mean of 10,000 games: ")
        expect(readout).to_contain_text(f"exact: {exact} turns")
        before = (picture.get_attribute("aria-label") or "", live.text_content() or "")
        assert before[0].startswith("Monte Carlo convergence: the running mean of 10,000 games")
        cap = root.get_by_role("slider", name="cap on a game's length (0: no cap)")
        cap.focus()
        cap.press("PageUp")
        turns = int(cap.input_value())
        assert turns > 0
        expect(readout).to_contain_text(f"capped at {turns} turns: ")
        expect(cap).to_have_attribute("aria-valuetext", f"{turns} turns")
        after = (picture.get_attribute("aria-label") or "", live.text_content() or "")
        assert after[0] != before[0] and f"with each capped at {turns} turns" in after[0]
        assert after[1] != before[1] and f"capped at {turns} turns" in after[1]


def test_lesson_four_holds_a_live_board_explorer(site):
    """Issue 28: the board explorer (Lessons 2, 4, 5, 6 and 11) runs in the page opened from
    disk, with no kernel and every request off the disk refused: the die slider moves from the
    keyboard, and the readout (with the library's expected length), both pictures' text
    alternatives and the polite live region follow; the heat map shows the expected visits on
    request; no page errors; axe-core finds nothing serious or critical in it."""
    from playwright.sync_api import expect

    from chutes_edu import MILTON_BRADLEY_1943, expected_turns

    six = float(expected_turns(MILTON_BRADLEY_1943)[0])
    seven = float(expected_turns(MILTON_BRADLEY_1943.replace(die=7))[0])
    with _live_explorer(site, "lessons/04_fundamental_matrix.html", "chutes-board-explorer",
                        "BoardExplorer") as (_, root):
        readout = root.locator(".chutes-readout")
        board_picture = root.locator(".chutes-board-heat-board")
        chart = root.locator(".chutes-distribution-chart")
        live = root.locator("[role=status][aria-live=polite]")
        expect(readout).to_contain_text(f"Expected turns from the start: {six:.4f} turns")
        before = (board_picture.get_attribute("aria-label") or "",
                  chart.get_attribute("aria-label") or "")
        assert before[0].startswith("The 100-square board 'Milton Bradley 1943'")
        assert before[1].startswith("How long is a one-player game? Bars show")
        die = root.get_by_role("slider", name="die faces")
        die.focus()
        die.press("ArrowRight")
        expect(readout).to_contain_text(f"{seven:.4f}")
        expect(die).to_have_attribute("aria-valuetext", "7 faces")
        expect(live).to_have_text(f"Expected length {seven:.1f} turns, was {six:.1f}")
        after = (board_picture.get_attribute("aria-label") or "",
                 chart.get_attribute("aria-label") or "")
        assert after[0] != before[0] and f"{seven:.3g} at the start" in after[0]
        assert after[1] != before[1] and f"mean {seven:.2f} turns" in after[1]
        root.get_by_label("heat map").select_option("visits")
        expect(board_picture).to_have_attribute(
            "aria-label", re.compile("colour shows expected visits from the start"))


def test_lesson_nine_holds_a_live_jump_explorer(site):
    """Issue 28: Lesson 9's jump explorer runs in the page opened from disk, with no kernel and
    every request off the disk refused: it prices every jump of at least 10 squares in the page,
    the destination's slider moves from the keyboard, and the readout (with the library's expected
    turns), the picture's text alternative and the polite live region follow; no page errors;
    axe-core finds nothing serious or critical in it."""
    from playwright.sync_api import expect

    from chutes_edu import MILTON_BRADLEY_1943, jump_effects

    effects = jump_effects(MILTON_BRADLEY_1943, 10)        # the lesson's min_length=10
    with _live_explorer(site, "lessons/09_experiments.html", "chutes-jump-explorer",
                        "JumpExplorer") as (_, root):
        readout = root.locator(".chutes-readout")
        picture = root.locator("svg[role=img]")
        live = root.locator("[role=status][aria-live=polite]")
        expect(readout).to_contain_text(f"27 \u2192 37: expected turns {effects[27, 37]:.4f}")
        before = (picture.get_attribute("aria-label") or "", live.text_content() or "")
        assert before[0].startswith("Adding one jump a -> b to Milton Bradley 1943: a heat map")
        slider = root.get_by_role("slider", name="to square b")
        slider.focus()
        slider.press("ArrowRight")
        expect(readout).to_contain_text(f"27 \u2192 38: expected turns {effects[27, 38]:.4f}")
        expect(slider).to_have_attribute("aria-valuetext", "square 38")
        after = (picture.get_attribute("aria-label") or "", live.text_content() or "")
        assert after[0] != before[0] and f"27 -> 38: expected turns {effects[27, 38]:.4f}." \
            in after[0]
        assert after[1] != before[1] and f"expected length {effects[27, 38]:.1f} turns" in after[1]


def test_lesson_twelve_holds_a_live_design_explorer(site):
    """Issue 28: Lesson 12's design explorer searches in the page opened from disk, with no
    kernel and every request off the disk refused: the slider for the most jumps moves from the
    keyboard and the plan line follows; Design, pressed from the keyboard, finds the library's
    design (its summary, word for word but the page's way of confirming), and both pictures'
    text alternatives and the polite live region follow; no page errors; axe-core finds nothing
    serious or critical in it."""
    from playwright.sync_api import expect

    from chutes_edu import MILTON_BRADLEY_1943
    from chutes_edu.design import TargetLength, design_board

    expected = design_board(MILTON_BRADLEY_1943, TargetLength(25), max_jumps=1,
                            method="local search")
    added = ", ".join(f"{a}->{b}" for a, b in expected.added)
    with _live_explorer(site, "lessons/12_design_a_board.html", "chutes-design-explorer",
                        "DesignExplorer") as (_, root):
        plan = root.locator(".chutes-readout")
        result = root.locator(".chutes-design-result")
        chart = root.locator(".chutes-design-chart")
        live = root.locator("[role=status][aria-live=polite]")
        expect(plan).to_have_text("Design will look for an expected game of 25 turns, adding at "
                                  "most 2 jumps, by local search.")
        before = chart.get_attribute("aria-label") or ""
        assert before.startswith("Before a design: the distribution of the game length")
        # the search's legend in the explorer's text, not as the site's theme sets legends
        legend, label = (root.locator(f"fieldset > {tag}").first for tag in ("legend", "label"))
        style = "e => [getComputedStyle(e).fontSize, getComputedStyle(e).float]"
        assert legend.evaluate(style) == [label.evaluate(style)[0], "none"]
        jumps = root.get_by_role("slider", name="most jumps to add")
        jumps.focus()
        jumps.press("ArrowLeft")
        expect(plan).to_contain_text("adding at most 1 jump, by local search.")
        expect(jumps).to_have_attribute("aria-valuetext", "1 jump")
        root.get_by_role("button", name="Design").press("Enter")
        expect(result).to_contain_text(f"added jumps: {added}", timeout=120_000)
        for line in expected.summary().split("\n")[:-1]:
            expect(result).to_contain_text(line)
        after = chart.get_attribute("aria-label") or ""
        assert after != before and f"before and after adding {added}" in after
        expect(live).to_contain_text(f"Designed: adds {added.replace('->', ' to ')}")


def test_exercise_pages_hold_their_explorers_live(site):
    """Issue 28: an exercise set's explorer cell (Exercise 1.7's coin flips, 10.6's "Open the
    widget below", ...) is live on its page, as the worked solutions saved it: each page mounts
    exactly the explorers its notebook's cells make, and Exercise 10.6's answers its slider in
    the page opened from disk, with no kernel."""
    from playwright.sync_api import expect

    made = re.compile(r"\b([A-Z]\w*Explorer)\(")
    for notebook in sorted((ROOT / "exercises").glob("[0-9][0-9]_*.ipynb")):
        cells = nbformat.read(notebook, as_version=4).cells
        wanted = sorted(m[1] for c in cells if c.cell_type == "code"
                        for m in made.finditer(c.source))
        page = (site / "exercises" / f"{notebook.stem}.html").read_text(encoding="utf-8")
        assert sorted(re.findall(r'data-explorer="(\w+)"', page)) == wanted, notebook.name
    with _live_explorer(site, "exercises/10_exercises_optimal_control.html",
                        "chutes-policy-explorer", "PolicyExplorer") as (_, root):
        readout = root.locator(".chutes-readout")
        expect(readout).to_contain_text("value iteration: ")
        before = readout.text_content()
        slider = root.get_by_role("slider", name="discount factor γ")
        slider.focus()
        slider.press("ArrowLeft")
        expect(readout).not_to_have_text(before or "")


# ------------------------------------------------------------------------------ loading and phones
_FORMULAS_AT_390 = """async () => {
  await new Promise((r) => setTimeout(r, 400));
  const boxes = [...document.querySelectorAll('div.math > mjx-container')];
  return {
    count: boxes.length,
    sideways: boxes.filter((e) => e.scrollWidth > e.clientWidth + 1).map(
      (e) => (e.querySelector('mjx-assistive-mml') || e).textContent.slice(0, 60)),
    // a TeX em (1000 units of the formula's SVG) in pixels: the size of its letters
    smallest: Math.min(...boxes.map((e) => {
      const svg = e.querySelector('svg');
      return svg ? svg.getBoundingClientRect().width / (svg.viewBox.baseVal.width / 1000)
                 : parseFloat(getComputedStyle(e).fontSize);
    })),
    text: parseFloat(getComputedStyle(document.querySelector('article p')).fontSize),
  };
}"""


def test_display_formulas_fit_a_phone(site):
    """At 390 px no display formula of any lesson page (the twelve lessons and the toolbox)
    scrolls sideways (most of Lessons 1 and 12 did, and one each of Lessons 4, 5, 6, 9, 10, 11
    and the toolbox after that): MathJax 3 cannot break a line, so course.js draws a formula too
    wide for its box smaller, down to 70% (no smaller than 0.7 of the text, anywhere), and the
    long ones are written on several lines (``aligned``)."""
    pages = sorted((site / "lessons").glob("*.html"))
    assert len(pages) >= len(course_lessons(ROOT)) + 1          # and the toolbox
    with browser.chromium() as chromium:
        context = chromium.new_context(viewport={"width": 390, "height": 844})
        browser.refuse_network(context)
        page = context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT)
        seen = {}
        for path in pages:
            page.goto(path.as_uri())
            seen[path.stem] = page.evaluate(_FORMULAS_AT_390)
        context.close()
    for name in ("01_waiting_for_heads", "12_design_a_board", "toolbox"):
        assert seen[name]["count"] >= 3, (name, seen[name])
    assert sum(report["count"] for report in seen.values()) >= 40
    sideways = {name: report["sideways"] for name, report in seen.items() if report["sideways"]}
    assert not sideways, sideways
    for name, report in seen.items():
        if report["count"]:
            assert report["smallest"] >= 0.7 * report["text"] - 0.01, (name, report)


_EDITOR_UNDER_HEADER = """async () => {
  const summary = document.querySelector('.chutes-editor-summary');
  const board = document.querySelector('.chutes-editor svg');
  const covered = [];
  let checked = 0;
  const end = document.documentElement.scrollHeight;
  for (let y = 0; y < end; y += 60) {
    window.scrollTo(0, y);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const b = board.getBoundingClientRect();
    if (b.bottom <= 0 || b.top >= window.innerHeight) continue;
    const s = summary.getBoundingClientRect();
    checked += 1;
    if (s.top < 0 || s.bottom > window.innerHeight) {
      covered.push([y, "out of the window", Math.round(s.top)]);
      continue;
    }
    const x = s.left + s.width / 2;
    for (const fy of [0.25, 0.5, 0.75]) {
      const hit = document.elementFromPoint(x, s.top + fy * s.height);
      if (!hit || !summary.contains(hit)) {
        covered.push([y, fy, hit ? `${hit.tagName}.${hit.className}` : null]);
        break;
      }
    }
  }
  return { checked, covered };
}"""


def test_the_editors_length_stays_in_view_below_the_sites_header_on_a_phone(site):
    """On the playground at 390 x 844 the editor's "Expected length" sticks to the top while the
    board is in view: below the site's own sticky header, not under it (it slid under it)."""
    with browser.chromium() as chromium:
        context, page, _ = browser.open_from_disk(
            chromium, site / "playground.html", width=390, height=844, timeout=PAGE_TIMEOUT)
        page.locator(".chutes-editor-summary").wait_for()
        browser.settle(page, quiet=500)
        seen = page.evaluate(_EDITOR_UNDER_HEADER)
        context.close()
    assert seen["checked"] >= 5, seen
    assert not seen["covered"], seen["covered"]


def test_index_entries_on_several_pages_are_named_by_page(site):
    """The index names the pages of an entry filed on several ("Markov chain: Lesson 3 — ...,
    Lesson 6 — ..."), never "[1], [2]"."""
    index = _article(site / "genindex.html")
    assert not re.search(r">\s*\[\d+\]\s*<", index), "bare [1], [2] links in the index"
    places = re.findall(r'<a href="([^"]+)" class="course-index-place">(.*?)</a>', index, re.S)
    assert len(places) >= 10, "no entry of the index is on several pages"
    for href, name in places:
        assert re.sub(r"<[^>]+>", "", name).strip(), href
    assert any("Lesson" in name for _, name in places)


def test_an_exercise_states_the_numbers_it_reasons_from_instead_of_a_printed_value():
    """An exercise page shows no cell's output (the set is a notebook to run: exercises/ keeps
    none), so an exercise's words never point at a value "printed below"; 12.6 states the 1943
    board's first-seat edge itself, the number the library computes (it said "the value printed
    below", and the page had none)."""
    from chutes_edu import MILTON_BRADLEY_1943, win_probabilities

    texts = {}
    for lesson in course_lessons(ROOT):
        if not (ROOT / lesson.exercises).exists():
            continue
        for cell in nbformat.read(ROOT / lesson.exercises, as_version=4).cells:
            if cell.cell_type != "markdown":
                continue
            assert not re.search(r"printed (below|above)|(shown|value) below", cell.source), \
                (lesson.exercises.name, cell.source[:200])
            title = re.match(r"#+ Exercise (\d+\.\d+)", cell.source)
            if title:
                texts[title[1]] = cell.source
    assert set(texts) == set(exercise_ids()), sorted(set(exercise_ids()) ^ set(texts))
    edge = win_probabilities(MILTON_BRADLEY_1943, [0, 0])[0] - 0.5
    assert f"edge is {edge:.5f}" in texts["12.6"], texts["12.6"]


def test_search_results_show_excerpts_when_the_site_is_opened_from_disk(site):
    """The search page, opened from disk, shows under every result an excerpt of its page that
    holds a word searched for, with nothing in the console: Sphinx's searchtools.js fetched each
    result's page for it, which file:// refuses (a CORS error and "Failed to fetch" per result);
    the words come with the search index now (book/search_text.py, _static/search_offline.js)."""
    query = ["fundamental", "matrix"]
    with browser.chromium() as chromium:
        context = chromium.new_context(viewport={"width": 1280, "height": 900})
        offsite = browser.refuse_network(context)
        page = context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT)
        said: list[str] = []
        page.on("console", lambda m: said.append(f"{m.type}: {m.text}")
                if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: said.append(f"pageerror: {e}"))
        page.on("requestfailed", lambda r: said.append(f"failed: {r.url}"))
        page.goto((site / "search.html").as_uri() + "?q=" + "+".join(query))
        page.wait_for_function("() => /found \\d+ page/.test("
                               "document.querySelector('#search-results .search-summary')"
                               "?.textContent || '')")
        # the excerpts arrive one result after another, each after its page's words
        page.wait_for_function("() => { const items = document.querySelectorAll("
                               "'#search-results li'); return items.length > 0 && [...items]"
                               ".every(li => li.querySelector('p.context')); }")
        results = page.evaluate("() => [...document.querySelectorAll('#search-results li')]"
                                ".map(li => [li.querySelector('a').getAttribute('href'), "
                                "li.querySelector('p.context').textContent])")
        context.close()
    assert len(results) >= 10, results
    for href, excerpt in results:
        assert any(word in excerpt.lower() for word in query), (href, excerpt)
    assert not said, said[:5]
    assert not offsite, offsite[:5]
