"""A real browser: Voila serves tests/notebooks/widgets_demo.ipynb on 127.0.0.1 and Debian's
Chromium, driven by Playwright, moves a slider of every explorer with the keyboard.

The test needs /usr/bin/chromium (``.ci/run`` installs it with apt), Playwright for Python and
Voila; without them it is skipped with the reason. ``playwright install`` is never used: the
browser is Debian's, passed as ``executable_path``. Screenshots of the page and of each explorer
are kept in tests/artifacts/. Timings are not tested here: ``make bench`` measures them.

Every picture must say what it shows: each explorer draws its pictures in the page as SVG named by
their descriptions, and a new picture comes with new words.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chutes_edu import MILTON_BRADLEY_1943, expected_turns

from . import browser

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "tests" / "notebooks" / "widgets_demo.ipynb"
ARTIFACTS = ROOT / "tests" / "artifacts"
PAGE_TIMEOUT = 180_000   # ms for the kernel to start and the widget to appear
UPDATE_TIMEOUT = 60_000  # ms for the readout to follow the slider

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))]


voila_url = browser.voila_fixture(NOTEBOOK)


def test_die_slider_moves_the_readout_in_a_real_browser(voila_url):
    from playwright.sync_api import expect

    seven = f"{float(expected_turns(MILTON_BRADLEY_1943.replace(die=7))[0]):.4f}"
    six = f"{float(expected_turns(MILTON_BRADLEY_1943)[0]):.4f}"
    assert (six, seven) == ("39.2251", "34.6966")
    ARTIFACTS.mkdir(exist_ok=True)
    with browser.chromium() as chromium:
        page = browser.open_voila(chromium, voila_url, [], viewport=(1300, 1100))
        readout = page.locator(".chutes-readout").first      # the board explorer's
        expect(readout).to_contain_text(six, timeout=PAGE_TIMEOUT)
        # the notebook shows every explorer; each with a slider has drawn its readout
        expect(page.locator(".chutes-readout")).to_have_count(len(EXPLORERS) + 1,  # + design
                                                              timeout=PAGE_TIMEOUT)
        handle = page.locator(".chutes-die input[type=range]")
        expect(handle).to_have_count(1)
        # the board explorer draws its pictures in the page (tests/test_board_explorer_browser.py)
        picture = page.locator(".chutes-distribution-image svg[role=img]")
        expect(picture).to_have_count(1)
        before = picture.get_attribute("aria-label")
        handle.focus()
        handle.press("ArrowRight")
        expect(readout).to_contain_text(seven, timeout=UPDATE_TIMEOUT)
        # the page draws the pictures before the readout: they are new by now
        expect(picture).not_to_have_attribute("aria-label", before or "",
                                              timeout=UPDATE_TIMEOUT)
        expect(page.locator(".chutes-die")).to_contain_text("7")
        for message in page.locator(".chutes-message").all():
            expect(message).to_have_text("")
        page.screenshot(path=str(ARTIFACTS / "browser_board_explorer.png"), full_page=True)
        assert "Traceback" not in page.content()


# (explorer's CSS class, the CSS class of one of its sliders): every explorer draws in the page,
# its pictures SVG named by their descriptions (their own browser tests,
# tests/test_<name>_explorer_browser.py, time them and walk every control)
EXPLORERS = [("chutes-board-explorer", "chutes-die"), ("chutes-coin-explorer", "chutes-p"),
             ("chutes-simulation-explorer", "chutes-cap"),
             ("chutes-jump-explorer", "chutes-jump-to"),
             ("chutes-race-explorer", "chutes-player-2"),
             ("chutes-policy-explorer", "chutes-exact")]

# What an explorer shows: its words and its pictures' descriptions.
_SHOWN = """root => [root.querySelector('.chutes-readout')?.textContent ?? '',
  ...[...root.querySelectorAll('svg[role=img]')].map(s => s.getAttribute('aria-label') || '')]"""


def test_every_explorer_answers_its_slider_in_a_real_browser(voila_url):
    from playwright.sync_api import expect

    ARTIFACTS.mkdir(exist_ok=True)
    with browser.chromium() as chromium:
        page = browser.open_voila(chromium, voila_url, [], viewport=(1300, 1100))
        expect(page.locator(".chutes-readout")).to_have_count(len(EXPLORERS) + 1,  # + design
                                                              timeout=PAGE_TIMEOUT)
        for root_class, slider_class in EXPLORERS:
            root = page.locator(f".{root_class}")
            expect(root).to_have_count(1)
            expect(root.locator(".chutes-readout").first).not_to_have_text("")
            expect(root.locator(".chutes-message").first).to_have_text("")  # opens valid
            before = root.evaluate(_SHOWN)
            assert len(before) >= 2 and all(len(w) > 40 for w in before[1:]), (root_class, before)
            handle = root.locator(f".{slider_class} input[type=range]")
            expect(handle).to_have_count(1)
            handle.press("ArrowRight")
            page.wait_for_function(f"([root, before]) => JSON.stringify(({_SHOWN})(root))"
                                   " !== JSON.stringify(before)",
                                   arg=[root.element_handle(), before], timeout=UPDATE_TIMEOUT)
            after = root.evaluate(_SHOWN)
            # a new picture comes with new words
            assert after[1:] != before[1:] and all(len(w) > 40 for w in after[1:]), root_class
            expect(root.locator(".chutes-message").first).to_have_text("")
            root.screenshot(path=str(ARTIFACTS / f"browser_{root_class}.png"))
        # In JupyterLab a key pressed on a control that Lumino does not leave alone runs a
        # notebook shortcut: an arrow key on a slider moves the notebook's active cell
        explorers = page.locator(".chutes-explorer")
        expect(explorers).to_have_count(len(EXPLORERS) + 1)  # + design
        for explorer in explorers.all():
            assert explorer.evaluate(browser.OUTSIDE_LAB_KEYS) == [], explorer.get_attribute("class")
        assert "Traceback" not in page.content()


def test_each_use_of_the_shared_chromium_starts_from_fresh_contexts():
    """tests/browser.py shares one Chromium per process: what one use opens (a context with a
    cookie, a page) is closed when the use ends, and the next use starts with none of it."""
    with browser.chromium() as first:
        kept = list(first.contexts)
        context = first.new_context()
        context.add_cookies([{"name": "left", "value": "behind", "url": "http://127.0.0.1/"}])
        page = first.new_page()
        assert len(first.contexts) == len(kept) + 2
    assert context.pages == [] and page.is_closed()
    with browser.chromium() as second:
        assert second is first and second.is_connected()
        assert [c for c in second.contexts if c is context] == []
        assert second.new_context().cookies() == []
