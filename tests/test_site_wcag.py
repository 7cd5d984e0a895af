"""The website against the WCAG 2.1 AA failures a second audit found beyond axe-core, in Chromium.

The website built once for the site's tests (tests/conftest.py), opened from disk:

- **Reflow** (1.4.10): tests/test_site.py's audit of every page narrows its window to 320 px.
- **Phones**: at 390 px every display formula, inline formula longer than its line, matrix, code
  cell and output on a few long pages either fits or scrolls inside its own box, which then shows a
  shadow on the side that has more, is a Tab stop and has a name (axe's scrollable-region-focusable);
  nothing is cut by a box that clips without scrolling.
- **Focus visible** (2.4.7): on a sample of pages, every kind of element Tab reaches (tag and class)
  looks different when it has the focus: a screenshot of it and a margin around it, focused and not,
  must differ. The first four of each kind on each page are compared (every matrix box); the
  header's and sidebar's, the same on every page, the first four of each kind at each width.
- **Formulas are no Tab stops** (MathJax's inTabOrder off), and keep their MathML for screen readers.
- **Contrast** (1.4.3) of the "+" in the search field's shortcut.
- **Forced colours** (1.4.11, Windows' contrast themes): the board editor's key, chart and start
  label take the system's colours, legible on its background; every picture of the site is opaque,
  so that a dark contrast theme cannot show through it.
"""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path
from typing import Any

import pytest

from . import browser
from .conftest import site_missing, site_pages

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(site_missing() is not None, reason=str(site_missing()))]

PAGE_TIMEOUT = 180_000    # ms, a hang guard: long pages on a busy machine
# Long pages with many formulas and outputs (a phone's width).
PHONE_PAGES = ["lessons/04_fundamental_matrix.html", "lessons/06_game_length.html",
               "lessons/11_long_run.html", "lessons/12_design_a_board.html",
               "exercises/11_exercises_long_run.html"]
# (page, window width): a long lesson with a matrix, the other matrix lesson, an exercise set, the
# playground's editor, and the playground on a phone (the header's buttons differ there).
FOCUS_PAGES = [("lessons/11_long_run.html", 1280), ("lessons/03_markov_chains.html", 1280),
               ("exercises/06_exercises_game_length.html", 1280), ("playground.html", 1280),
               ("playground.html", 390)]
MARGIN = 6            # px around an element in which its focus ring must show
OF_A_KIND = 4         # elements of one kind compared per page (the first ones Tab reaches)

_TYPESET = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  if (document.fonts) await document.fonts.ready;
  // course.js measures the boxes near the screen first, the others when the page is idle
  while (!document.documentElement.hasAttribute('data-course-measured')) {
    await new Promise(r => setTimeout(r, 50));
  }
}"""


def _open(page: Any, site: Path, rel: str) -> None:
    page.goto((site / rel).as_uri(), wait_until="load")
    browser.draw_every_explorer(page)
    page.evaluate(_TYPESET)


# ------------------------------------------------------------------------------ phones
_BOXES = """() => {
  const WHERE = 'div.math > mjx-container, span.math, .chutes-math, .cell_output pre, '
              + '.cell_output > .output, div.highlight pre';
  const line = box => {
    for (let up = box.parentElement; up; up = up.parentElement) {
      if (!getComputedStyle(up).display.startsWith('inline')) return up.clientWidth;
    }
    return innerWidth;
  };
  const article = document.querySelector('article');
  const counts = {boxes: 0, scrolling: 0, display: 0, outputs: 0};
  const bad = [];
  for (const box of article.querySelectorAll(WHERE)) {
    counts.boxes += 1;
    const room = box.matches('span.math') ? line(box) : box.clientWidth;
    if (box.scrollWidth <= room + 1) continue;
    counts.scrolling += 1;
    if (box.matches('div.math > mjx-container')) counts.display += 1;
    if (box.matches('.cell_output *')) counts.outputs += 1;
    const style = getComputedStyle(box);
    const problems = [];
    if (!['auto', 'scroll'].includes(style.overflowX)) problems.push(`overflow ${style.overflowX}`);
    if (box.tabIndex < 0) problems.push('no Tab stop');
    if (!(box.getAttribute('aria-label') || '').trim()) problems.push('no name');
    if (!style.backgroundImage.includes('gradient')) problems.push('no shadow on its edge');
    if (box.getBoundingClientRect().right > document.documentElement.clientWidth + 1) {
      problems.push('past the window');
    }
    if (problems.length) {
      bad.push(`${box.localName}.${box.getAttribute('class')} "${box.textContent.slice(0, 40)}":`
               + ` ${problems.join(', ')}`);
    }
  }
  // a box that clips what it holds without scrolling it: cut
  for (const el of article.querySelectorAll('*')) {
    if (el.matches('input, textarea') || el.closest('mjx-assistive-mml')) continue;
    const style = getComputedStyle(el);
    // (a box of 1 px is the visually hidden pattern of text for screen readers: not a cut)
    if (['hidden', 'clip'].includes(style.overflowX) && el.clientWidth > 1
        && el.scrollWidth > el.clientWidth + 1) {
      bad.push(`cut: ${el.localName}.${el.getAttribute('class')} (${el.scrollWidth} px in `
               + `${el.clientWidth})`);
    }
  }
  return {counts, bad: bad.slice(0, 6)};
}"""


def test_on_a_phone_every_wide_formula_and_output_scrolls_in_its_own_box(site: Path) -> None:
    bad, totals = {}, {"display": 0, "outputs": 0}
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 390, "height": 844})
        page.set_default_timeout(PAGE_TIMEOUT)
        for rel in PHONE_PAGES:
            _open(page, site, rel)
            result = page.evaluate(_BOXES)
            for key in totals:
                totals[key] += result["counts"][key]
            if result["bad"]:
                bad[rel] = result["bad"]
    # the outputs the audit found cut on a phone are there, and now scroll (the test can fail).
    # A display formula is first drawn smaller to fit, down to 70% (course.js), and none is wider
    # than a phone even then since the widest were written on aligned lines
    # (test_site.py's test_display_formulas_fit_a_phone); one that were would have to scroll here.
    assert totals["outputs"] >= 30, totals
    assert not bad, "\n".join(f"{rel}: {lines}" for rel, lines in bad.items())


# ------------------------------------------------------------------------------ focus visible
# Every element Tab reaches (tabindex >= 0, shown), numbered; its name, whether it belongs to the
# page's own text (article), and a signature to recognise the header's and sidebar's on other pages.
_FOCUSABLE = """() => {
  const all = [...document.querySelectorAll(
      'a[href], button, input, select, textarea, summary, iframe, [tabindex]')]
    .filter(e => e.tabIndex >= 0 && !e.disabled
                 && e.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true}));
  return all.map((e, i) => {
    e.dataset.focusProbe = String(i);
    const name = (e.getAttribute('aria-label') || e.title || e.textContent || '').trim();
    return {i, tag: e.localName, name: name.slice(0, 60),
            own: !!e.closest('article'), matrix: e.matches('.chutes-math'),
            signature: `${e.localName}|${e.getAttribute('class')}|${e.getAttribute('href')}|${name}`};
  });
}"""
# Scroll it to the middle; the box (in the window) holding it and what it draws.
_PLACE = """i => {
  document.activeElement && document.activeElement.blur && document.activeElement.blur();
  const e = document.querySelector(`[data-focus-probe="${i}"]`);
  e.scrollIntoView({block: 'center', inline: 'nearest'});
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const n of [e, ...e.querySelectorAll('*')]) {
    const r = n.getBoundingClientRect();
    if (r.width * r.height === 0) continue;
    x0 = Math.min(x0, r.left); y0 = Math.min(y0, r.top);
    x1 = Math.max(x1, r.right); y1 = Math.max(y1, r.bottom);
  }
  return [x0, y0, x1, y1];
}"""
# No tooltips (they would change pixels for a button that draws no ring), no transitions or caret.
_STILL = """.tooltip { display: none !important; }
* { transition: none !important; animation: none !important; caret-color: transparent !important; }"""


def _focus_changes(page: Any, index: int, width: int, height: int) -> bool | None:
    """Does the element look different focused? None if it cannot be seen in the window."""
    x0, y0, x1, y1 = page.evaluate(_PLACE, index)
    if x1 <= x0 or y1 <= y0:
        return None
    left, top = max(0, int(x0) - MARGIN), max(0, int(y0) - MARGIN)
    right, bottom = min(width, int(x1) + MARGIN + 1), min(height, int(y1) + MARGIN + 1)
    if right <= left or bottom <= top:
        return None
    clip = {"x": left, "y": top, "width": right - left, "height": bottom - top}
    before = page.screenshot(clip=clip)
    page.evaluate("i => document.querySelector(`[data-focus-probe=\"${i}\"]`)"
                  ".focus({preventScroll: true})", index)
    after = page.screenshot(clip=clip)
    return before != after


def test_focus_is_visible_on_everything_the_keyboard_reaches(site: Path) -> None:
    unseen: dict[str, list[str]] = {}
    compared: dict[str, int] = {}
    seen_chrome: dict[int, dict[str, int]] = {}
    matrices = 0
    header_buttons: set[str] = set()
    with browser.chromium() as chromium:
        for rel, width in FOCUS_PAGES:
            context = chromium.new_context(viewport={"width": width, "height": 900})
            page = context.new_page()
            page.set_default_timeout(PAGE_TIMEOUT)
            _open(page, site, rel)
            page.add_style_tag(content=_STILL)
            if rel.startswith("lessons/11"):
                # an inline formula, as MathJax's menu puts it in the Tab order when asked: its
                # ring must not be cut by its box
                page.evaluate("() => document.querySelector('p span.math mjx-container')"
                              ".setAttribute('tabindex', '0')")
            elements = page.evaluate(_FOCUSABLE)
            page.mouse.move(width - 1, 899)
            page.keyboard.press("Tab")             # the keyboard's focus: :focus-visible
            chrome = seen_chrome.setdefault(width, {})
            kinds: dict[str, int] = {}
            for element in elements:
                # Elements of one kind (tag and class: 59 copy buttons on Lesson 11, 33 scroll
                # boxes, 45 links of the sidebar) share their focus style: the first few of each
                # kind on each page, and of the header's and sidebar's at each width.
                tag, css_class, _ = element["signature"].split("|", 2)
                counts = kinds if element["own"] else chrome
                kind = f"{tag}|{css_class}"
                counts[kind] = counts.get(kind, 0) + 1
                if counts[kind] > OF_A_KIND and not element["matrix"]:
                    continue
                changed = _focus_changes(page, element["i"], width, 900)
                if changed is None:
                    continue
                compared[f"{rel}@{width}"] = compared.get(f"{rel}@{width}", 0) + 1
                matrices += element["matrix"]
                if element["name"] in ("Toggle primary sidebar", "Download this page"):
                    header_buttons.add(element["name"])
                if not changed:
                    unseen.setdefault(f"{rel}@{width}", []).append(
                        f"{element['tag']} {element['name']!r}")
            context.close()
    assert matrices == 3, f"the three matrix boxes of Lessons 3 and 11 were not all reached: {matrices}"
    assert header_buttons == {"Toggle primary sidebar", "Download this page"}, header_buttons
    assert sum(compared.values()) > 120, compared
    assert not unseen, "no visible change on focus:\n" + "\n".join(
        f"{where}: {len(names)}: {names[:8]}" for where, names in unseen.items())


def test_formulas_are_no_tab_stops_and_keep_their_mathml(site: Path) -> None:
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1280, "height": 900})
        _open(page, site, "lessons/11_long_run.html")
        found = page.evaluate("""() => {
          const stops = [...document.querySelectorAll('*')].filter(e => e.tabIndex >= 0
              && e.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true}));
          const formulas = document.querySelectorAll('mjx-container');
          return {stops: stops.length, formulas: formulas.length,
                  formulaStops: stops.filter(e => e.localName === 'mjx-container'
                                              && !e.classList.contains('course-scrolls')).length,
                  mathml: document.querySelectorAll('mjx-container mjx-assistive-mml math').length};
        }""")
    assert found["formulas"] > 200, found             # the audit counted 293 formula stops
    assert found["formulaStops"] == 0, found
    assert found["mathml"] == found["formulas"], found
    assert found["stops"] < 200, found                # 433 before, 141 now


# ------------------------------------------------------------------------------ contrast
_LUMINANCE = """
  const rgb = text => (text.match(/[\\d.]+/g) || []).slice(0, 4).map(Number);
  const lum = ([r, g, b]) => {
    const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => q - p);
                            return (x + 0.05) / (y + 0.05); };
  const background = el => {
    for (let up = el; up; up = up.parentElement) {
      const c = rgb(getComputedStyle(up).backgroundColor);
      if (c.length === 3 || c[3] > 0.99) return getComputedStyle(up).backgroundColor;
    }
    return 'rgb(255, 255, 255)';
  };
"""


def test_the_search_shortcuts_plus_is_legible(site: Path) -> None:
    """The "+" of "Ctrl+K" in the search field and in the search box Ctrl+K opens."""
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1280, "height": 900})
        _open(page, site, "index.html")
        page.keyboard.press("Control+k")
        page.wait_for_selector(".bd-search .search-button__kbd-shortcut", state="visible")
        ratios = page.evaluate("() => {" + _LUMINANCE + """
          return [...document.querySelectorAll('.search-button__kbd-shortcut')]
            .filter(e => e.checkVisibility())
            .map(e => [e.closest('.bd-search') ? 'search box' : 'search field',
                       ratio(getComputedStyle(e).color, background(e))]);
        }""")
    assert {where for where, _ in ratios} == {"search box", "search field"}, ratios
    assert min(r for _, r in ratios) >= 4.5, ratios     # 1.47:1 in the search box before


def test_in_forced_colours_the_editor_is_legible(site: Path) -> None:
    with browser.chromium() as chromium:
        context = chromium.new_context(viewport={"width": 1280, "height": 1000},
                                       forced_colors="active", color_scheme="dark")
        page = context.new_page()
        page.emulate_media(forced_colors="active", color_scheme="dark")
        _open(page, site, "playground.html")
        page.wait_for_selector(".chutes-editor-readout:not(:empty)")
        found = page.evaluate("() => {" + _LUMINANCE + """
          const editor = document.querySelector('.chutes-editor');
          const ground = background(editor);
          const words = [...editor.querySelectorAll(
              'svg.chutes-editor-legend text, svg.chutes-editor-chart text, svg .start-label')]
            .map(t => [t.textContent, ratio(getComputedStyle(t).fill, ground)]);
          const lines = [...editor.querySelectorAll(
              'svg.chutes-editor-chart line:not([stroke="#d0d0d0"]), svg.chutes-editor-chart .cdf')]
            .map(l => ratio(getComputedStyle(l).stroke, ground));
          return {ground, forced: matchMedia('(forced-colors: active)').matches, words, lines};
        }""")
        context.close()
    assert found["forced"], "forced colours were not emulated"
    assert len(found["words"]) >= 10, found
    faint = [(w, round(r, 2)) for w, r in found["words"] if r < 4.5]
    assert not faint, f"text near the background {found['ground']}: {faint}"
    assert found["lines"] and min(found["lines"]) >= 3, found["lines"]


# A lesson page of each live explorer (the editor has its own test above).
EXPLORER_PAGES = {"lessons/01_waiting_for_heads.html": 2, "lessons/04_fundamental_matrix.html": 2,
                  "lessons/08_races.html": 2, "lessons/09_experiments.html": 1,
                  "lessons/10_optimal_control.html": 1, "lessons/12_design_a_board.html": 2}


def test_in_forced_colours_every_explorers_picture_keeps_its_white_ground(site: Path) -> None:
    """In a dark contrast theme the page's white becomes black: an explorer's SVG picture keeps
    its own white ground and colours (its dark ink, its colour scales), as an image does."""
    found = {}
    with browser.chromium() as chromium:
        context = chromium.new_context(viewport={"width": 1280, "height": 1000},
                                       forced_colors="active", color_scheme="dark")
        page = context.new_page()
        page.emulate_media(forced_colors="active", color_scheme="dark")
        for rel, least in EXPLORER_PAGES.items():
            _open(page, site, rel)
            page.wait_for_selector(".chutes-explorer:not(.chutes-editor) svg[role=img]")
            found[rel] = (least, page.evaluate("""() => {
              if (!matchMedia('(forced-colors: active)').matches) return null;
              return [...document.querySelectorAll(
                  '.chutes-explorer:not(.chutes-editor) svg[role=img]')].map(svg => {
                const style = getComputedStyle(svg);
                return [svg.getAttribute('aria-label').slice(0, 40), style.backgroundColor,
                        style.forcedColorAdjust];
              });
            }"""))
        context.close()
    for rel, (least, pictures) in found.items():
        assert pictures is not None, "forced colours were not emulated"
        assert len(pictures) >= least, (rel, pictures)
        bad = [p for p in pictures if p[1:] != ["rgb(255, 255, 255)", "none"]]
        assert not bad, (rel, bad)


def _png_is_opaque(data: bytes) -> bool:
    import matplotlib.image

    pixels = matplotlib.image.imread(io.BytesIO(data), format="png")
    return not (pixels.ndim == 3 and pixels.shape[2] == 4 and float(pixels[..., 3].min()) < 1.0)


def test_every_picture_is_opaque(site: Path) -> None:
    """A picture drawn on a transparent ground would show a dark contrast theme through it: its
    black text and lines would vanish. The course's pictures (files, and any still picture of a
    widget embedded in a page) all have their own white ground; the explorers' SVG pictures
    keep theirs (test_in_forced_colours_every_explorers_picture_keeps_its_white_ground)."""
    files = list((site / "_images").glob("*.png"))
    transparent = [p.name for p in files if not _png_is_opaque(p.read_bytes())]
    embedded = 0
    for page in site_pages(site):
        for data in re.findall(r'src="data:image/png;base64,([^"]+)"',
                               page.read_text(encoding="utf-8")):
            embedded += 1
            if not _png_is_opaque(base64.b64decode(data)):
                transparent.append(f"{page.name}: an explorer's picture")
    assert len(files) >= 30, len(files)       # the lessons' figures (explorers draw SVG)
    assert not transparent, transparent


# ------------------------------------------------------------------------------ explorers on screens
# In each explorer at a 320 px window: the labels and legends reaching past the box the explorer
# sits in (its output, which would scroll sideways), and its words (not its pictures' SVG text,
# which is part of a picture described by its alt text) drawn under 12 px.
_EXPLORER_TEXT = """() => {
  const out = {explorers: 0, past: [], small: []};
  for (const m of document.querySelectorAll('.chutes-explorer-mount')) {
    out.explorers += 1;
    const box = (m.closest('.output') || m.parentElement).getBoundingClientRect();
    for (const el of m.querySelectorAll('label, legend')) {
      const b = el.getBoundingClientRect();
      if (b.width && (b.right > box.right + 0.5 || b.left < box.left - 0.5)) {
        out.past.push(`${m.dataset.explorer}: "${el.textContent.trim().slice(0, 40)}"`);
      }
    }
    for (const el of m.querySelectorAll('*')) {
      if (el.closest('svg, .chutes-visually-hidden') || !el.checkVisibility()) continue;
      if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < 12) {
        out.small.push(`${m.dataset.explorer}: ${el.localName} ${size} px "${el.textContent.trim()}"`);
      }
    }
  }
  return out;
}"""


def test_at_320px_every_explorers_labels_fit_and_no_word_is_under_12px(site: Path) -> None:
    """At a 320 px window each explorer's labels stay inside its box (the policy explorer's first
    label was cut at 390 px; the board explorer's menu made Lesson 11 scroll sideways at 320 px),
    and none of its words is drawn under 12 px (an exponent in a readout was 9.75 px)."""
    pages = [p for p in site_pages(site) if p.relative_to(site).parts[0] == "lessons"
             and "chutes-explorer-mount" in p.read_text(encoding="utf-8")]
    found: dict[str, Any] = {}
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 320, "height": 700})
        page.set_default_timeout(PAGE_TIMEOUT)
        for path in pages:
            rel = path.relative_to(site).as_posix()
            _open(page, site, rel)
            browser.settle(page, quiet=500)
            found[rel] = page.evaluate(_EXPLORER_TEXT)
    assert len(pages) >= 5 and all(r["explorers"] for r in found.values()), found
    bad = {rel: r["past"] + r["small"] for rel, r in found.items() if r["past"] or r["small"]}
    assert not bad, bad


_READOUT_SEEN = """() => {
  const summary = document.querySelector('.chutes-editor-summary');
  const readout = document.querySelector('.chutes-editor-readout');
  const r = readout.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + Math.min(20, r.width / 2), r.top + r.height / 2);
  return {top: Math.round(r.top), bottom: Math.round(r.bottom), text: readout.textContent,
          seen: r.top >= 0 && r.bottom <= innerHeight && !!hit && summary.contains(hit)};
}"""


def test_the_playgrounds_result_is_in_view_after_an_edit_on_a_laptop(site: Path) -> None:
    """At 1280 x 720, a jump drawn on the playground's board (two clicks) shows its result: the
    editor's expected length is in the window and nothing covers it (it was 236 px above the
    window: the board does not fit in the window with the controls above it)."""
    with browser.chromium() as chromium:
        context, page, _ = browser.open_from_disk(
            chromium, site / "playground.html", width=1280, height=720, timeout=PAGE_TIMEOUT)
        page.locator(".chutes-editor-summary").wait_for()
        browser.settle(page, quiet=500)
        before = page.evaluate(_READOUT_SEEN)["text"]
        for square in (20, 38):
            page.mouse.click(*browser.square_point(page, square))
        page.wait_for_function(
            "was => document.querySelector('.chutes-editor-readout').textContent !== was",
            arg=before)
        browser.settle(page, quiet=500)
        seen = page.evaluate(_READOUT_SEEN)
        context.close()
    assert "was" in seen["text"], seen      # the edit's result: "... (was 39.2251, change ...)"
    assert seen["seen"], seen


def test_no_back_to_top_pill_floats_over_the_text(site: Path) -> None:
    """The theme's "Back to top" pill, shown on narrow screens when the page scrolls up, floated
    over the middle of the text and covered an answer box's verdict: it is never shown."""
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 390, "height": 844})
        page.set_default_timeout(PAGE_TIMEOUT)
        _open(page, site, "exercises/06_exercises_game_length.html")
        page.mouse.wheel(0, 3000)
        page.wait_for_timeout(300)
        page.mouse.wheel(0, -600)       # the theme shows the pill on a scroll up
        page.wait_for_timeout(600)
        shown = page.evaluate("() => !!document.querySelector('#pst-back-to-top')"
                              "?.checkVisibility()")
        exists = page.evaluate("() => !!document.querySelector('#pst-back-to-top')")
    assert exists and not shown
