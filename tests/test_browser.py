"""A real browser: Voila serves tests/notebooks/widgets_demo.ipynb on 127.0.0.1 and Debian's
Chromium, driven by Playwright, moves a slider of every explorer with the keyboard.

The test needs /usr/bin/chromium (``.ci/run`` installs it with apt), Playwright for Python and
Voila; without them it is skipped with the reason. ``playwright install`` is never used: the
browser is Debian's, passed as ``executable_path``. Screenshots of the page and of each explorer
are kept in tests/artifacts/. Timings are not tested here: ``make bench`` measures them.

Every picture must say what it shows: each explorer's ``<img>`` has a non-empty ``alt`` (sent with
the picture by chutes_edu.widgets.controls.Picture), and a new picture comes with a new one.
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


@pytest.fixture(scope="module")
def voila_url():
    with browser.voila(NOTEBOOK) as url:
        yield url


def test_die_slider_moves_the_readout_in_a_real_browser(voila_url):
    from playwright.sync_api import expect

    seven = f"{float(expected_turns(MILTON_BRADLEY_1943.replace(die=7))[0]):.4f}"
    six = f"{float(expected_turns(MILTON_BRADLEY_1943)[0]):.4f}"
    assert (six, seven) == ("39.2251", "34.6966")
    ARTIFACTS.mkdir(exist_ok=True)
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1300, "height": 1100})
        page.set_default_timeout(PAGE_TIMEOUT)
        page.goto(voila_url, timeout=PAGE_TIMEOUT)
        readout = page.locator(".chutes-readout").first      # the board explorer's
        expect(readout).to_contain_text(six, timeout=PAGE_TIMEOUT)
        # the notebook shows every explorer; each with a slider has drawn its readout
        expect(page.locator(".chutes-readout")).to_have_count(len(EXPLORERS) + len(LIVE) + 1,
                                                              timeout=PAGE_TIMEOUT)
        for root_class, _ in EXPLORERS:
            expect(page.locator(f".{root_class} .chutes-readout").first).not_to_have_text("")
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


# (explorer's CSS class, the CSS class of one of its sliders)
EXPLORERS = [("chutes-jump-explorer", "chutes-jump-to")]
# Explorers that draw in the page (an SVG picture, no PNG), with a readout too: their own browser
# tests (tests/test_<name>_explorer_browser.py) move their sliders.
LIVE = ["chutes-coin-explorer", "chutes-race-explorer", "chutes-policy-explorer",
        "chutes-simulation-explorer", "chutes-board-explorer"]

# every picture of an explorer: shown at its PNG's own size (not stretched, not upscaled)
_IMAGE_SIZES = """root => [...root.querySelectorAll('img')].map(img => {
  const box = img.getBoundingClientRect();
  return [img.naturalWidth, img.naturalHeight, box.width, box.height];
})"""


def _alt(picture) -> str:
    """What a picture says it shows: its alt text."""
    return (picture.get_attribute("alt") or "").strip()


def test_every_explorer_answers_its_slider_in_a_real_browser(voila_url):
    from playwright.sync_api import expect

    ARTIFACTS.mkdir(exist_ok=True)
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1300, "height": 1100})
        page.set_default_timeout(PAGE_TIMEOUT)
        page.goto(voila_url, timeout=PAGE_TIMEOUT)
        expect(page.locator(".chutes-readout")).to_have_count(len(EXPLORERS) + len(LIVE) + 1,  # + design
                                                              timeout=PAGE_TIMEOUT)
        for root_class, slider_class in EXPLORERS:
            root = page.locator(f".{root_class}")
            expect(root).to_have_count(1)
            readout = root.locator(".chutes-readout").first
            expect(readout).not_to_have_text("")
            expect(root.locator(".chutes-message").first).to_have_text("")  # opens valid
            pictures = root.locator("img")
            page.wait_for_function("r => [...r.querySelectorAll('img')].every("
                                   "i => i.complete && i.naturalWidth > 0)",
                                   arg=root.element_handle())
            for natural_w, natural_h, shown_w, shown_h in root.evaluate(_IMAGE_SIZES):
                assert (shown_w, shown_h) == (natural_w, natural_h), root_class
            text = readout.text_content() or ""       # what to_have_text compares
            sources = [pictures.nth(i).get_attribute("src") for i in range(pictures.count())]
            words = [_alt(pictures.nth(i)) for i in range(pictures.count())]
            assert all(len(w) > 40 for w in words), (root_class, words)
            handle = root.locator(f".{slider_class} input[type=range]")
            expect(handle).to_have_count(1)
            handle.press("ArrowRight")
            expect(readout).not_to_have_text(text, timeout=UPDATE_TIMEOUT)
            # the pictures are sent before the readout: at least one is new by now
            assert any(pictures.nth(i).get_attribute("src") != before
                       for i, before in enumerate(sources)), root_class
            for i, before in enumerate(sources):        # a new picture, new words
                if pictures.nth(i).get_attribute("src") != before:
                    assert _alt(pictures.nth(i)) not in ("", words[i]), (root_class, i)
            expect(root.locator(".chutes-message").first).to_have_text("")
            root.screenshot(path=str(ARTIFACTS / f"browser_{root_class}.png"))
        assert "Traceback" not in page.content()
