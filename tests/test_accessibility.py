"""Every explorer, used as a keyboard and screen-reader user uses it, in a real browser.

Voila serves tests/notebooks/widgets_demo.ipynb (every explorer) on 127.0.0.1 and Debian's
Chromium drives it with the keyboard alone:

- axe-core (pinned in tests/js/package.json) finds no serious or critical violation of WCAG 2.1 A
  and AA on the page;
- every control has an accessible name that says what it sets, every picture an ``alt``;
- no label or button is cut short (its text fits its box);
- two keyboard walks (the board explorer, the jump explorer): Tab reaches the controls in order,
  each with a visible focus ring (3 px), arrows and Space change them, and the explorer's live
  region then says the headline numbers ("Expected length 34.7 turns, was 39.2").

The lessons, exercise sets and start page are audited by tests/test_accessibility_course.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chutes_edu import MILTON_BRADLEY_1943, expected_turns

from . import browser

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "tests" / "notebooks" / "widgets_demo.ipynb"
ARTIFACTS = ROOT / "tests" / "artifacts"
PAGE_TIMEOUT = 180_000
UPDATE_TIMEOUT = 60_000
EXPLORERS = 7

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))]


@pytest.fixture(scope="module")
def page():
    with browser.voila(NOTEBOOK) as url, browser.chromium() as chromium:
        page = browser.open_voila(chromium, url, [], viewport=(1300, 1100))
        page.wait_for_function(f"document.querySelectorAll('.chutes-explorer').length >= "
                               f"{EXPLORERS} && [...document.querySelectorAll('.chutes-explorer "
                               f"img')].every(i => i.complete && i.naturalWidth > 0)",
                               timeout=PAGE_TIMEOUT)
        page.wait_for_timeout(500)
        yield page


# What a screen reader calls a control: its <label>, aria-label, or (a button) its text.
_NAMES = """() => [...document.querySelectorAll(
    '.chutes-explorer input, .chutes-explorer select, .chutes-explorer button')]
  .filter(e => e.offsetParent !== null)
  .map(e => ({tag: e.tagName, type: e.type || '',
             name: ((e.labels && e.labels.length ? [...e.labels].map(l => l.innerText).join(' ')
                     : '') || e.getAttribute('aria-label') || e.innerText || e.title || '').trim(),
             value: e.getAttribute('aria-valuetext') || ''}))"""

# Text that does not fit its box: a label, a button, a slider's value.
_CLIPPED = """() => [...document.querySelectorAll('.chutes-explorer label, .chutes-explorer '
  + '.widget-label, .chutes-explorer button, .chutes-explorer .chutes-slider-value')]
  .filter(e => e.offsetParent !== null && e.innerText.trim()
               && e.scrollWidth > e.clientWidth + 1)
  .map(e => `${e.innerText.trim()} (${e.scrollWidth} px of text in ${e.clientWidth} px)`)"""

_FOCUSED = """() => { const e = document.activeElement; const s = getComputedStyle(e);
  return {tag: e.tagName, type: e.type || '', text: (e.labels && e.labels.length
    ? e.labels[0].innerText : e.innerText || '').trim(), outline: s.outlineStyle,
    width: parseFloat(s.outlineWidth), root: e.closest('.chutes-explorer')?.className || ''}; }"""


def test_no_serious_or_critical_axe_violation(page) -> None:
    violations = browser.axe_violations(page)
    assert not violations, browser.describe_violations(violations)


def test_every_control_says_what_it_sets(page) -> None:
    controls = page.evaluate(_NAMES)
    assert len(controls) > 30
    unnamed = [c for c in controls if len(c["name"]) < 2]
    assert not unnamed, unnamed
    ranges = [c for c in controls if c["type"] == "range"]
    assert len(ranges) >= 10 and all(c["value"] for c in ranges), ranges
    die = next(c for c in ranges if c["name"] == "die faces")
    assert die["value"] == "6 faces"                              # the value with its unit


def test_every_picture_has_alt_text(page) -> None:
    alts = page.evaluate("() => [...document.querySelectorAll('.chutes-explorer img')]"
                         ".map(i => i.getAttribute('alt') || '')")
    assert all(len(a) > 40 for a in alts), alts
    # pictures drawn in the page (the coin-flip, race, policy, simulation, board, jump and design
    # explorers' SVG) are named by their description
    drawn = page.evaluate("() => [...document.querySelectorAll('.chutes-explorer svg[role=img]')]"
                          ".map(s => s.getAttribute('aria-label') || '')")
    assert len(drawn) >= 4 and all(len(a) > 40 for a in drawn), drawn
    assert len(alts) + len(drawn) >= 9, (alts, drawn)         # every explorer's pictures


def test_no_label_or_button_is_cut_short(page) -> None:
    assert page.evaluate(_CLIPPED) == []


def _tab_to(page, predicate, limit: int = 40) -> list[dict]:
    """Press Tab until the focused element satisfies ``predicate``; every stop on the way."""
    stops = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(_FOCUSED)
        stops.append(focused)
        if predicate(focused):
            return stops
    raise AssertionError(f"Tab never reached it; stops: {stops}")


def _assert_visible_focus(stops: list[dict]) -> None:
    for stop in stops:
        if stop["root"]:
            assert stop["outline"] != "none" and stop["width"] >= 2, stop


def test_keyboard_walk_board_explorer(page) -> None:
    from playwright.sync_api import expect

    root = page.locator(".chutes-board-explorer")
    live = root.locator(".chutes-live")
    readout = root.locator(".chutes-readout").first
    six = float(expected_turns(MILTON_BRADLEY_1943)[0])
    seven = float(expected_turns(MILTON_BRADLEY_1943.replace(die=7))[0])
    win = float(expected_turns(MILTON_BRADLEY_1943.replace(die=7, overshoot="win"))[0])
    expect(readout).to_contain_text(f"{six:.4f}")
    root.locator("select").first.focus()                    # the explorer's first control
    stops = _tab_to(page, lambda f: f["type"] == "range" and f["text"] == "die faces")
    page.keyboard.press("ArrowRight")
    expect(readout).to_contain_text(f"{seven:.4f}", timeout=UPDATE_TIMEOUT)
    expect(live).to_have_text(f"Expected length {seven:.1f} turns, was {six:.1f}",
                              timeout=UPDATE_TIMEOUT)
    stops += _tab_to(page, lambda f: f["tag"] == "BUTTON" and f["text"] == "win")
    page.keyboard.press("Space")
    expect(readout).to_contain_text(f"{win:.4f}", timeout=UPDATE_TIMEOUT)
    expect(live).to_have_text(f"Expected length {win:.1f} turns, was {seven:.1f}",
                              timeout=UPDATE_TIMEOUT)
    assert live.get_attribute("aria-live") == "polite" and live.get_attribute("role") == "status"
    _assert_visible_focus(stops)
    ARTIFACTS.mkdir(exist_ok=True)
    root.screenshot(path=str(ARTIFACTS / "keyboard_board_explorer.png"))


def test_keyboard_walk_jump_explorer(page) -> None:
    from playwright.sync_api import expect

    root = page.locator(".chutes-jump-explorer")
    live = root.locator(".chutes-live")
    slider = root.locator(".chutes-jump-to input[type=range]")
    root.locator(".chutes-jump-from input[type=range]").focus()
    stops = _tab_to(page, lambda f: f["type"] == "range" and f["text"] == "to square b")
    before = slider.get_attribute("aria-valuetext")
    page.keyboard.press("End")                               # the last square it may go to
    expect(slider).not_to_have_attribute("aria-valuetext", before or "", timeout=UPDATE_TIMEOUT)
    to = int((slider.get_attribute("aria-valuetext") or "").removeprefix("square "))
    source = int((root.locator(".chutes-jump-from input[type=range]")
                  .get_attribute("aria-valuetext") or "").removeprefix("square "))
    board = MILTON_BRADLEY_1943.with_jump(source, to)
    turns = float(expected_turns(board)[0])
    expect(live).to_contain_text(f"to {to}: expected length {turns:.1f} turns",
                                 timeout=UPDATE_TIMEOUT)
    _assert_visible_focus(stops)
