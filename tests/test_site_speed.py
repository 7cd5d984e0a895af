"""The website at phone speed (issue 52), the work a page does while it loads, checked without a
clock (how long it takes is `make bench`'s, benchmarks/bench_lighthouse.py):

- no formula is measured while the page loads but those near the screen (book/static/course.js
  measures whether a box scrolls sideways as it nears the screen, the others when the page is
  idle): measuring Lesson 11's 300 formulas at once laid the whole page out in one long task;
  every box is measured in the end (``data-course-measured``), and a phone's display formulas are
  fitted by their style, not by a script;
- each glyph of a page's formulas is in the page once (MathJax's local font cache repeated it in
  every formula: 580 KB of Lesson 11's 1.26 MB), and every formula still finds its glyphs;
- a page's stylesheets come as one file, the same on every page (a dozen round trips before the
  first words on a phone's network);
- an explorer, board editor or calculator is drawn as its place nears the screen (js/site/site.js:
  each draw was a long task and a layout of the whole page while the page loaded), says what it
  is until then, draws when Tab reaches it, and every one is drawn when printing or when a test
  asks (``browser.draw_every_explorer``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from . import browser
from .conftest import site_pages

BOOK = Path(__file__).resolve().parent.parent / "book"
sys.path.insert(0, str(BOOK))
import lean_pages  # noqa: E402

PAGE_TIMEOUT = 180_000    # ms, a hang guard on a busy machine
WIDTH, HEIGHT = 390, 844  # a phone

# The elements whose width a script reads, grouped by the callback that reads them (a group ends
# with its task's microtasks): course.js's first look must measure only the boxes near the screen.
_COUNT_MEASURES = """
window.__groups = [];
let open = false;
for (const name of ['scrollWidth', 'clientWidth']) {
  const own = Object.getOwnPropertyDescriptor(Element.prototype, name);
  Object.defineProperty(Element.prototype, name, {
    configurable: true,
    get() {
      if (!open) {
        open = true;
        window.__groups.push(new Set());
        queueMicrotask(() => { open = false; });
      }
      window.__groups[window.__groups.length - 1].add(this);
      return own.get.call(this);
    },
  });
}
"""
_MEASURED = """() => {
  const boxes = new Set(document.querySelectorAll(
    'div.math > mjx-container, span.math, .chutes-math, .cell_output pre, .cell_input pre'));
  const groups = window.__groups.map((g) => [...g].filter((e) => boxes.has(e)))
    .filter((g) => g.length);
  const first = groups.length ? groups[0] : [];
  return {boxes: boxes.size, groups: groups.length, first: first.length,
          far: first.filter((b) => b.getBoundingClientRect().top > 3 * innerHeight).length};
}"""


# ------------------------------------------------------------------------------ no build needed
def test_a_display_formula_is_fitted_by_its_style() -> None:
    svg = ('<mjx-container class="MathJax" jax="SVG" display="true"><svg style="vertical-align: '
           '-2.036ex;" xmlns="http://www.w3.org/2000/svg" width="35.331ex" height="5.204ex" '
           'viewBox="0 -1400 15616.1 2300"><g></g></svg></mjx-container>')
    fitted = lean_pages.fitted(svg)
    # letters at least 0.7 of the text's: 0.7 em per 1000 units of width; never wider than drawn
    assert ('<svg style="vertical-align: -2.036ex; min-width: min(10.931em, 35.331ex);" '
            in fitted)
    assert fitted.replace(" min-width: min(10.931em, 35.331ex);", "") == svg
    assert ".bd-article" not in fitted


def test_each_glyph_of_a_page_is_defined_once() -> None:
    def formula(n: int, *glyphs: str) -> str:
        defs = "".join(f'<path id="MJX-{n}-TEX-{g}" d="M{g}"></path>' for g in glyphs)
        uses = "".join(f'<use data-c="1" xlink:href="#MJX-{n}-TEX-{g}"></use>' for g in glyphs)
        return f'<svg><defs>{defs}</defs><g>{uses}</g></svg>'

    # a formula before the article too (a title in the navigation)
    page = ('<html><body><nav>' + formula(3, "N-32") + '</nav><article class="bd-content '
            'bd-article" role="main">' + formula(1, "I-1D465", "N-32") + formula(2, "I-1D465")
            + "</article></body></html>")
    shared = lean_pages.shared_glyphs(page)
    assert re.findall(r'<path id="([^"]+)"', shared) == ["MJX-TEX-I-1D465", "MJX-TEX-N-32"]
    assert re.findall(r'xlink:href="#([^"]+)"', shared) == [
        "MJX-TEX-N-32", "MJX-TEX-I-1D465", "MJX-TEX-N-32", "MJX-TEX-I-1D465"]
    assert shared.count("<svg") == 4 and "<g><use" in shared
    # in the article (book/pdf.py prints the article), hidden, before its first formula
    assert re.search(r'<article[^>]*><svg class="course-glyphs" style="display: none;" '
                     r'aria-hidden="true"', shared)
    # one name with two shapes: the page is left as it was
    clash = page.replace('d="MI-1D465"', 'd="M0"', 1)
    assert lean_pages.shared_glyphs(clash) == clash


def test_a_pages_stylesheets_become_one_file(tmp_path: Path) -> None:
    static = tmp_path / "_static"
    (static / "styles").mkdir(parents=True)
    (static / "vendor").mkdir()
    (static / "basic.css").write_text('div{background:url("file.png")}')
    (static / "styles" / "theme.css").write_text('@import "../basic.css";\n'
                                                 'a{src:url(../vendor/f.woff2)}\n'
                                                 '/*# sourceMappingURL=theme.css.map */')
    (static / "course.css").write_text('p{background:url("data:image/svg+xml,(x)")}')
    (static / "site.css").write_text(".explorer{}")
    (static / lean_pages.MATH_CSS).write_text("mjx-container{}")
    head = ('<html><head><link href="../_static/styles/theme.css?digest=1" rel="stylesheet" />\n'
            '<link rel="stylesheet" type="text/css" href="../_static/course.css?v=2" />\n'
            '<link rel="stylesheet" type="text/css" href="../_static/site.css?v=3" />\n'
            '<link rel="icon" href="../_static/favicon.svg"/>\n</head><body>{}</body></html>')
    pages = lean_pages.bundle_stylesheets({"lessons/a.html": head.format("a"),
                                           "b.html": head.replace("../", "").format("b")},
                                          static)
    links = re.findall(r'<link [^>]*href="([^"]+)"', pages["lessons/a.html"])
    bundle = links[0].split("/")[-1]
    assert links == [f"../_static/{bundle}", "../_static/site.css?v=3", "../_static/favicon.svg"]
    assert re.findall(r'<link [^>]*href="([^"]+)"', pages["b.html"])[0] == f"_static/{bundle}"
    assert sorted(p.name for p in static.glob("styles-*.css")) == [bundle]
    css = (static / bundle).read_text()
    keep, kept = lean_pages._KEEP_WHOLE
    assert css.split("\n") == [
        f"/* {lean_pages.BUNDLE_NOTE}: styles/theme.css, course.css, {lean_pages.MATH_CSS} */",
        'div{background:url("file.png")}', 'a{src:url("vendor/f.woff2")}', "",
        keep, 'p{background:url("data:image/svg+xml,(x)")}', kept,
        keep, "mjx-container{}", kept]


@pytest.mark.slow   # book/node_modules: installed by the website's build, which the slow tier runs
def test_the_stylesheet_keeps_the_rules_a_page_or_script_can_use_and_the_courses_own(
        tmp_path: Path) -> None:
    if not (BOOK / "node_modules" / "purgecss").exists():
        pytest.skip("book/node_modules is missing: `make site` (or `npm ci --prefix book`)")
    static = tmp_path / "_static"
    static.mkdir()
    (static / "theme.css").write_text(
        ".used{color:red}.unused{color:blue}.shown-by-script{color:green}"
        "@keyframes spin{to{rotate:1turn}}@keyframes unused-spin{to{rotate:1turn}}"
        ".used{animation:spin 1s}div .nowhere{color:red}"
        "html[data-theme=dark] .used{color:white}")
    (static / "course.css").write_text(".course-only-later{color:red}")
    page = ('<html data-theme="light"><head><link rel="stylesheet" href="_static/theme.css" />'
            '<link rel="stylesheet" href="_static/course.css" /></head>'
            '<body><div class="used"></div></body></html>')
    script = "el.classList.add('shown-by-script'); root.dataset.theme = 'dark';"
    pages = lean_pages.bundle_stylesheets(
        {"a.html": page}, static,
        lambda sheets: lean_pages.pruned_css(sheets, [(page, "html"), (script, "js")],
                                             BOOK / "node_modules"))
    bundle = re.findall(r'href="_static/(styles-[0-9a-f]+\.css)"', pages["a.html"])
    css = (static / bundle[0]).read_text()
    for kept in (".used{color:red}", ".shown-by-script", "@keyframes spin",
                 "html[data-theme=dark] .used", ".course-only-later"):
        assert kept in css
    for cut in (".unused", "unused-spin", ".nowhere"):
        assert cut not in css


# ------------------------------------------------------------------------------ the built site
@pytest.mark.slow
def test_a_pages_glyphs_are_not_repeated_and_its_stylesheets_are_one(site: Path) -> None:
    bundles = set()
    for page in site_pages(site):
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(site).as_posix()
        ids = re.findall(r'<path id="(MJX-[^"]+)"', text)
        assert len(ids) == len(set(ids)), name
        assert not [i for i in ids if re.match(r"MJX-\d", i)], name
        if ids:   # all of them in one hidden SVG, first thing in the article
            assert len(re.findall(r'<article\b[^>]*><svg class="course-glyphs"[^>]*><defs>'
                                  r'(?:<path id="[^"]+" d="[^"]*"></path>)+</defs></svg>',
                                  text)) == 1, name
        head = text[:text.index("</head>")]
        sheets = re.findall(r'<link\b[^>]*rel="stylesheet"[^>]*href="[^"]*?([^"/]+)"', head)
        sheets += re.findall(r'<link\b[^>]*href="[^"]*?([^"/]+)"[^>]*rel="stylesheet"', head)
        # one per website: the English one and each translation (its own _static/, its own cut)
        language = name.split("/")[0] if (site / name.split("/")[0] / "_static").is_dir() else ""
        bundles |= {(language, s) for s in sheets if s.startswith("styles-")}
        assert [s for s in sheets if not s.startswith(("styles-", "site.css"))] == [], name
        for svg in re.findall(r'<mjx-container[^>]*display="true"[^>]*><svg [^>]*>', text):
            assert "min-width: min(" in svg, (name, svg[:200])
    assert len(bundles) == len({language for language, _ in bundles}), bundles


@pytest.mark.slow
def test_no_formula_far_from_the_screen_is_measured_while_a_page_loads(site: Path) -> None:
    """Lesson 11, the page of most formulas, on a phone: the first look measures the boxes within
    the first screens only (all 370 were measured at once, in one task, before); every box is
    measured once the page is idle, a few at a time."""
    path = site / "lessons" / "11_long_run.html"
    with browser.chromium() as chromium:
        context = chromium.new_context(viewport={"width": WIDTH, "height": HEIGHT})
        browser.refuse_network(context)
        page = context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT)
        page.add_init_script(_COUNT_MEASURES)
        page.goto(path.as_uri())
        page.wait_for_selector("html[data-course-measured]", state="attached")
        seen = page.evaluate(_MEASURED)
        scrolling = page.evaluate("document.querySelectorAll('.course-scrolls').length")
        context.close()
    assert seen["boxes"] > 200, seen
    assert seen["far"] == 0, seen
    assert 0 < seen["first"] < seen["boxes"] / 4, seen
    assert seen["groups"] > 1, seen
    assert scrolling > 0


# ------------------------------------------------------------------------------ drawn when near
# What the page's places hold: each explorer, editor or calculator, where it is (its top, in
# windows from the page's top) and whether it is drawn; a waiting one's words.
_PLACES = """() => [...document.querySelectorAll(
    '.chutes-explorer-mount, .chutes-calculator-mount, .chutes-board-editor-mount')].map(m => {
  const box = m.getBoundingClientRect();
  return {kind: m.dataset.explorer || m.className.split(' ')[0],
          top: box.top / innerHeight, bottom: box.bottom / innerHeight,
          waiting: m.classList.contains('chutes-waiting'),
          drawn: !m.classList.contains('chutes-waiting')
                 && !!m.querySelector(':scope > :not(.chutes-waiting-note)'),
          role: m.getAttribute('role'), label: m.getAttribute('aria-label'),
          words: m.textContent.trim()};
})"""
# The page idle: course.js's boxes all measured (it measures the far ones when idle), then two
# idle periods of the browser's own, with the tasks between them run.
_IDLE = """async () => {
  while (!document.documentElement.hasAttribute('data-course-measured')) {
    await new Promise(r => requestIdleCallback(r));
  }
  for (let i = 0; i < 2; i++) {
    await new Promise(r => setTimeout(r, 0));
    await new Promise(r => requestIdleCallback(r));
  }
}"""
# The controls Tab reaches in a place, and the last one before it / the first after it on the page.
_TABBABLE = """
const TABBABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';
const reached = (el) => el.tabIndex >= 0 && !el.disabled && el.getClientRects().length > 0
  && el.checkVisibility({visibilityProperty: true}) && !el.closest('[inert]');
"""
_AROUND = _TABBABLE + """
const place = document.querySelectorAll(arguments[0])[arguments[1]];
const all = [...document.querySelectorAll(TABBABLE)].filter(reached);
const before = all.filter(e => e !== place && !place.contains(e)
  && (e.compareDocumentPosition(place) & Node.DOCUMENT_POSITION_FOLLOWING)).pop();
const after = all.find(e => e !== place && !place.contains(e)
  && (place.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING));
(arguments[2] === 'before' ? before : after).focus();
return document.activeElement === (arguments[2] === 'before' ? before : after);
"""
_LANDED = _TABBABLE + """
const place = document.querySelectorAll(arguments[0])[arguments[1]];
const inside = [...place.querySelectorAll(TABBABLE)].filter(reached);
const at = document.activeElement;
return {inside: place.contains(at) && at !== place, first: at === inside[0],
        last: at === inside[inside.length - 1], controls: inside.length,
        drawn: !place.classList.contains('chutes-waiting'),
        what: at ? at.outerHTML.slice(0, 80) : null};
"""
_PLACE = ".chutes-explorer-mount, .chutes-calculator-mount, .chutes-board-editor-mount"
# A long lesson, the design lesson (an editor and the design explorer), and an exercise set with
# an explorer and with calculators.
NEAR_PAGES = ["lessons/11_long_run.html", "lessons/12_design_a_board.html",
              "exercises/04_exercises_fundamental_matrix.html",
              "exercises/12_exercises_design_a_board.html"]


def _call(script: str) -> str:
    return f"(args) => (function () {{ {script} }}).apply(null, args)"


def _phone_page(chromium: Any, site: Path, rel: str, errors: list[str]) -> tuple[Any, Any, list[str]]:
    """``rel`` opened from disk on a phone, drawing only what it draws itself, loaded and idle."""
    context, page, refused = browser.open_from_disk(chromium, site / rel, width=WIDTH,
                                                    height=HEIGHT, timeout=PAGE_TIMEOUT,
                                                    errors=errors, draw_all=False)
    page.evaluate(_IDLE)
    return context, page, refused


@pytest.mark.slow
@pytest.mark.parametrize("rel", NEAR_PAGES)
def test_a_phone_draws_the_explorers_near_the_screen_and_the_others_as_it_reaches_them(
        site: Path, rel: str) -> None:
    """Issue 52: on a phone, once the page has loaded and is idle, the explorers, editors and
    calculators on the screen or within a screen of it are drawn, and those farther down are not
    (each draw was a long task and a layout of the whole page while the page loaded); each
    waiting one says what it is (a named group with its line of words); scrolling to one draws
    it; ``ChutesSite.drawAll()`` (what printing does) draws every one."""
    errors: list[str] = []
    with browser.chromium() as chromium:
        context, page, refused = _phone_page(chromium, site, rel, errors)
        places = page.evaluate(_PLACES)
        assert places, rel
        far = [p for p in places if p["top"] > 2.05]
        near = [p for p in places if p["bottom"] > 0 and p["top"] < 1.95]
        assert far, (rel, places)          # the page has an explorer below its first screens
        # the page's one board editor (its skip link and address) is drawn wherever it is
        assert all(p["waiting"] and not p["drawn"] for p in far
                   if p["kind"] != "chutes-board-editor-mount"), (rel, places)
        assert all(p["drawn"] for p in near), (rel, places)
        for p in places:
            if p["waiting"]:
                assert p["role"] == "group" and p["label"] == p["words"], p
                assert p["words"].endswith(": it is drawn as you reach it."), p
        index = next(i for i, p in enumerate(places) if p["waiting"])
        page.locator(_PLACE).nth(index).scroll_into_view_if_needed()
        page.wait_for_function("([sel, i]) => !document.querySelectorAll(sel)[i]"
                               ".classList.contains('chutes-waiting')", arg=[_PLACE, index])
        scrolled = page.evaluate(_PLACES)
        assert scrolled[index]["drawn"], scrolled
        drawn = browser.draw_every_explorer(page)
        after = page.evaluate(_PLACES)
        context.close()
    assert drawn == sum(1 for p in scrolled if p["waiting"])
    assert all(p["drawn"] and p["role"] is None and p["label"] is None for p in after), after
    assert not errors and not refused, (errors, refused)


@pytest.mark.slow
@pytest.mark.parametrize("rel", ["lessons/11_long_run.html",
                                 "exercises/04_exercises_fundamental_matrix.html"])
def test_tab_from_the_text_before_an_explorer_not_yet_drawn_lands_on_its_first_control(
        site: Path, rel: str) -> None:
    """A keyboard reader never meets an explorer left undrawn: Tab from the last control before
    a waiting explorer lands on the explorer's first control (drawn then), Shift+Tab from the
    first control after another on its last."""
    errors: list[str] = []
    with browser.chromium() as chromium:
        context, page, refused = _phone_page(chromium, site, rel, errors)
        places = page.evaluate(_PLACES)
        index = next(i for i, p in enumerate(places) if p["waiting"])
        assert page.evaluate(_call(_AROUND), [_PLACE, index, "before"])
        page.keyboard.press("Tab")
        forward = page.evaluate(_call(_LANDED), [_PLACE, index])
        context.close()
        context, page, _ = _phone_page(chromium, site, rel, errors)
        assert page.evaluate(_PLACES)[index]["waiting"]
        assert page.evaluate(_call(_AROUND), [_PLACE, index, "after"])
        page.keyboard.press("Shift+Tab")
        back = page.evaluate(_call(_LANDED), [_PLACE, index])
        context.close()
    assert forward["drawn"] and forward["inside"] and forward["first"], forward
    assert forward["controls"] > 1, forward
    assert back["drawn"] and back["inside"] and back["last"], back
    assert not errors and not refused, (errors, refused)


# Each style rule of a stylesheet's text (inside @media, @supports and @layer too), by selector.
_SELECTORS = """(css) => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  const found = new Set();
  const walk = (rules) => { for (const rule of rules) {
    if (rule.selectorText !== undefined) {   // each selector of a list (a cut takes some)
      let depth = 0, at = 0;
      const text = rule.selectorText;
      for (let i = 0; i <= text.length; i++) {
        const c = text[i];
        if (c === '(' || c === '[') depth++;
        else if (c === ')' || c === ']') depth--;
        else if ((c === ',' && depth === 0) || i === text.length) {
          found.add(text.slice(at, i).trim());
          at = i + 1;
        }
      }
    }
    if (rule.cssRules) walk(rule.cssRules);
  } };
  walk(sheet.cssRules);
  return [...found];
}"""
# The selectors (the pseudo-elements and the states a reader's hand sets left out: they match the
# element itself) that match some element of the page; one that the page cannot parse is skipped.
_MATCHING = """(selectors) => selectors.filter((selector) => {
  const bare = selector.replace(/::?(before|after|marker|placeholder|selection|backdrop|-webkit-[\\w-]+|-moz-[\\w-]+|file-selector-button)\\b/g, '')
    .replace(/:(hover|focus|focus-visible|focus-within|active|visited|target|checked|disabled)\\b/g, '');
  try { return document.querySelector(bare || '*') !== null; } catch (e) { return false; }
})"""
# A lesson with explorers, the design lesson (an editor), exercise sets with calculators and answer
# boxes, the playground, the search page, the index and a Spanish exercise set.
PRUNED_PAGES = ["lessons/08_races.html", "lessons/12_design_a_board.html",
                "exercises/01_exercises_waiting_for_heads.html",
                "exercises/12_exercises_design_a_board.html", "playground.html", "search.html",
                "genindex.html", "es/exercises/06_exercises_game_length.html"]


@pytest.mark.slow
def test_no_rule_cut_from_the_stylesheet_styles_anything_a_page_shows(site: Path) -> None:
    """Issue 52: the website's one stylesheet is cut to the rules its pages and scripts can use
    (book/prune_css.mjs, PurgeCSS); no rule that the cut left out matches an element of a page
    with every explorer, editor, calculator and answer box drawn, in either colour theme. (The
    cut keeps a rule whose classes are in a script, as a class a script adds; a class a script
    builds from pieces would be missed, and this test is what finds it.)"""
    static = site / "_static"
    [bundle] = static.glob("styles-*.css")
    pruned = bundle.read_text(encoding="utf-8")
    note = re.match(r"/\* " + re.escape(lean_pages.BUNDLE_NOTE) + r": (.*?) \*/", pruned)
    assert note, "the stylesheet does not say what it is made of"
    whole = lean_pages._bundle_text(tuple((static / name).resolve()
                                          for name in note[1].split(", ")), static)
    with browser.chromium() as chromium:
        context = chromium.new_context()
        page = context.new_page()
        cut = sorted(set(page.evaluate(_SELECTORS, whole)) - set(page.evaluate(_SELECTORS, pruned)))
        context.close()
        assert len(cut) > 1000, "the stylesheet was not cut"    # Font Awesome's icons alone
        for rel in PRUNED_PAGES:
            context, page, _ = browser.open_from_disk(chromium, site / rel, width=WIDTH,
                                                      height=HEIGHT, timeout=PAGE_TIMEOUT)
            for theme in ("light", "dark"):
                page.evaluate("(theme) => { document.documentElement.dataset.theme = theme; }",
                              theme)
                assert page.evaluate(_MATCHING, cut) == [], (rel, theme)
            context.close()
