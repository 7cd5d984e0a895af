"""RaceExplorer in a real browser (tests/browser.py: Voila on 127.0.0.1, Debian's Chromium).

Through Voila (tests/notebooks/race_explorer_demo.ipynb, which also shows what Python sees): the
explorer draws in the page; a seat's slider moves from the keyboard, and the readout, the
pictures' text alternatives (the bars', and the board's with the seats' tokens, in the library's
words) and the polite live region follow, with the library's chances;
Python's ``positions`` follow the page; the slider for the players seats a third player; axe-core
finds no serious or critical WCAG 2.1 A/AA violation; no page errors.

With no kernel at all (what the course website does): a page served from memory by Playwright
(every other request refused; each module served as its own file, as a browser imports them)
mounts the explorer with ``mount(el, {board_json, board_name, positions})`` (tests/browser.py
``explorer``). There, on the 1943 board with six players, every key press on the last seat's
slider (every press a square whose distribution the page has not yet computed) and on the slider
for the players changes the readout and renews the board's description (drawn in the same task),
to the library's chances. No test here times anything: the issue's budget (issue 28: a control
change under 16 ms median, no task over 50 ms) is measured by ``make bench``
(benchmarks/bench_widgets.py).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pytest

from chutes_edu import MILTON_BRADLEY_1943, draw_board, win_probabilities
from chutes_edu.plots import description
from chutes_edu.widgets.board_editor import board_to_json

from . import browser

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "tests" / "notebooks" / "race_explorer_demo.ipynb"
ARTIFACTS = ROOT / "tests" / "artifacts"
PAGE_TIMEOUT = 180_000   # ms for the kernel to start and the widget to appear
UPDATE_TIMEOUT = 120_000  # ms, a hang guard: the page (and the kernel's mirror) follow a change
BOARD = board_to_json(MILTON_BRADLEY_1943)

EXPLORER = browser.explorer("race")

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))]


def _chances(positions: list[int]) -> list[str]:
    return [f"{p:.4f}" for p in win_probabilities(MILTON_BRADLEY_1943, positions)]


def _board_words(positions: list[int]) -> str:
    """The library's description of the 1943 board with these tokens, as the explorer drew it
    in Python (draw_board with ``title=board.name``)."""
    matplotlib.use("Agg")
    ax = draw_board(MILTON_BRADLEY_1943, tokens=positions, title=MILTON_BRADLEY_1943.name)
    words = description(ax)
    plt.close("all")
    return words


voila_url = browser.voila_fixture(NOTEBOOK)


def test_the_explorer_answers_the_keyboard_in_voila(voila_url):
    from playwright.sync_api import expect

    ARTIFACTS.mkdir(exist_ok=True)
    with browser.chromium() as chromium:
        errors: list[str] = []
        page = browser.open_voila(chromium, voila_url, errors, viewport=(1200, 1000))
        root = page.locator(".chutes-race-explorer")
        readout = root.locator(".chutes-readout")
        picture = root.locator("svg.chutes-race-chart[role=img]")
        board = root.locator("svg.chutes-race-board[role=img]")
        live = root.locator("[role=status][aria-live=polite]")
        mirror = page.locator(".python-mirror")
        first = _chances([0, 0])
        expect(readout).to_contain_text(f"seat 1 (square 0): {first[0]}", timeout=PAGE_TIMEOUT)
        expect(mirror).to_contain_text("positions = [0, 0]")
        before = {"alt": picture.get_attribute("aria-label"), "live": live.text_content()}
        assert (before["alt"] or "").startswith("Who wins? (seat 1 moves first): bars show")
        assert board.get_attribute("aria-label") == _board_words([0, 0])
        expect(board.locator(".token")).to_have_count(2)
        seat = root.get_by_role("slider", name="seat 2 starts on square")
        assert seat.get_attribute("aria-valuetext") == "0"
        seat.focus()
        seat.press("ArrowRight")
        moved = _chances([0, 1])
        expect(readout).to_contain_text(f"seat 2 (square 1): {moved[1]}", timeout=UPDATE_TIMEOUT)
        assert seat.get_attribute("aria-valuetext") == "1"
        alt = picture.get_attribute("aria-label") or ""
        assert alt != before["alt"] and f"seat 2 {float(moved[1]):.3f}" in alt
        assert live.text_content() != before["live"]
        assert board.get_attribute("aria-label") == _board_words([0, 1])
        expect(mirror).to_contain_text("positions = [0, 1]", timeout=UPDATE_TIMEOUT)
        expect(mirror).to_contain_text(moved[1])                  # the library's, in Python
        players = root.get_by_role("slider", name="players")
        players.focus()
        players.press("ArrowRight")
        expect(readout).to_contain_text("seat 3 (square 0)", timeout=UPDATE_TIMEOUT)
        expect(mirror).to_contain_text("positions = [0, 1, 0]", timeout=UPDATE_TIMEOUT)
        expect(root.get_by_role("slider", name="seat 3 starts on square")).to_be_visible()
        expect(board.locator(".token")).to_have_count(3)
        expect(board).to_have_attribute("aria-label", _board_words([0, 1, 0]))
        browser.check_voila_page(page, ".chutes-race-explorer", errors, ARTIFACTS / "browser_race_explorer.png")


# Counts the renewals of the board picture's description (its aria-label).
_WATCH_BOARD = """() => {
  window.__boardRenewed = 0;
  new MutationObserver(() => { window.__boardRenewed += 1; }).observe(
    document.querySelector(".chutes-race-explorer svg.chutes-race-board"),
    {attributes: true, attributeFilter: ["aria-label"]});
}"""


def test_with_six_players_every_key_press_is_answered():
    """On the 1943 board with six players: 30 presses on seat 6's slider (each a square not seen
    before) and 12 on the slider for the players, each answered by a new readout and a renewed
    board description (drawn in the same task, before the readout); the chances at the end are
    the library's. No clock: the times are make bench's."""
    from playwright.sync_api import expect

    refused: list[str] = []
    errors: list[str] = []
    positions = [0, 10, 20, 30, 40, 50]
    with browser.chromium() as chromium:
        page = EXPLORER.open(chromium, {"board_json": BOARD, "board_name": MILTON_BRADLEY_1943.name,
                                        "positions": positions}, refused=refused, errors=errors)
        page.evaluate(_WATCH_BOARD)
        for selector, keys in [(".chutes-player-6 input", ["ArrowRight"] * 30),
                               (".chutes-players input",
                                ["ArrowLeft", "ArrowLeft", "ArrowRight", "ArrowRight"] * 3)]:
            page.evaluate("window.__boardRenewed = 0")
            browser.follow_key_presses(page, EXPLORER.root, selector, keys)
            assert page.evaluate("window.__boardRenewed") == len(keys), selector
        final = page.evaluate("window.explorer.model.get('positions')")
        assert final == [*positions[:5], 80], final
        readout = page.locator(f"{EXPLORER.root} .chutes-readout")
        for chance in _chances(final):
            expect(readout).to_contain_text(chance)
    assert not errors, errors
    assert not [u for u in refused if "favicon" not in u], refused


def test_with_no_kernel_every_control_works_from_the_keyboard():
    from playwright.sync_api import expect

    refused: list[str] = []
    with browser.chromium() as chromium:
        errors: list[str] = []
        page = EXPLORER.open(chromium, {"board_json": BOARD, "board_name": MILTON_BRADLEY_1943.name,
                               "positions": [0, 0]}, refused=refused, errors=errors,
                             viewport=(1100, 900))
        root = page.locator(".chutes-race-explorer")
        readout = root.locator(".chutes-readout")
        expect(readout).to_contain_text(f"seat 1 (square 0): {_chances([0, 0])[0]}")
        expect(readout).to_contain_text("favourite: seat 1")
        # Tab from the heading: the players, then seat 1, seat 2; the unseated are skipped
        page.locator("h1").click()
        page.keyboard.press("Tab")
        expect(root.get_by_role("slider", name="players")).to_be_focused()
        page.keyboard.press("End")                                  # six players
        expect(readout).to_contain_text("seat 6 (square 0)")
        expect(readout).to_contain_text(f"seat 6 (square 0): {_chances([0] * 6)[5]}")
        page.keyboard.press("Home")                                 # two again
        expect(readout).not_to_contain_text("seat 3")
        page.keyboard.press("Tab")
        expect(root.get_by_role("slider", name="seat 1 starts on square")).to_be_focused()
        page.keyboard.press("End")                                  # seat 1 on square 100
        expect(readout).to_contain_text("seat 1 (square 100): 1.0000")
        page.keyboard.press("Home")
        page.keyboard.press("Tab")
        seat2 = root.get_by_role("slider", name="seat 2 starts on square")
        expect(seat2).to_be_focused()
        alt = root.locator("svg.chutes-race-chart[role=img]").get_attribute("aria-label")
        board = root.locator("svg.chutes-race-board[role=img]")
        page.keyboard.press("PageUp")
        square = int(seat2.input_value())
        assert square > 0
        expect(readout).to_contain_text(
            f"seat 2 (square {square}): {_chances([0, square])[1]}")
        assert root.locator("svg.chutes-race-chart[role=img]").get_attribute("aria-label") != alt
        # the board beside the bars: a numbered token per seat where the seat stands, described
        # in the library's words
        assert board.get_attribute("aria-label") == _board_words([0, square])
        tokens = board.locator(".token")
        expect(tokens).to_have_count(2)
        assert [tokens.nth(i).text_content() for i in range(2)] == ["1", "2"]
        assert tokens.nth(1).get_attribute("data-square") == str(square)
        page.keyboard.press("Tab")                                   # past the unseated seats
        assert page.evaluate("document.activeElement.closest('.chutes-race-explorer')") is None
        assert page.evaluate("window.explorer.model.get('positions')") == [0, square]
        # a board with traps is refused in the library's words
        page.evaluate("""() => { const m = window.explorer.model;
            m.set('board_json', {...m.get('board_json'), traps: [5]}); m.save_changes(); }""")
        expect(root.locator(".chutes-message")).to_contain_text(
            "win_probabilities does not handle traps (this board has traps on 5)")
        violations = browser.axe_violations(page)
        assert not violations, browser.describe_violations(violations)
        page.screenshot(path=str(ARTIFACTS / "browser_race_explorer_mount.png"), full_page=True)
    assert not errors, errors
    assert not [u for u in refused if "favicon" not in u], refused


# Each word of the bar chart as drawn (its text and its box on the page), and the chart's box.
_CHART_WORDS = """() => {
  const svg = document.querySelector(".chutes-race-explorer svg.chutes-race-chart");
  const box = (e) => { const r = e.getBoundingClientRect();
                       return [r.left, r.top, r.right, r.bottom]; };
  return {chart: box(svg), words: [...svg.querySelectorAll("text")]
    .filter((t) => t.textContent.trim()).map((t) => [t.textContent, ...box(t)])};
}"""


def test_no_two_words_of_the_chart_overlap():
    """With every seat on square 0 each bar stands near the fair share 1/k, where the dashed
    line's label once sat on the last bars' values ("0.171" under "fair share 1/6"). For six
    players down to two, every word of the chart is inside it and no two overlap."""
    from playwright.sync_api import expect

    refused: list[str] = []
    errors: list[str] = []
    with browser.chromium() as chromium:
        page = EXPLORER.open(chromium, {"board_json": BOARD, "board_name": MILTON_BRADLEY_1943.name,
                                        "positions": [0] * 6}, refused=refused, errors=errors,
                             viewport=(1100, 900))
        readout = page.locator(f"{EXPLORER.root} .chutes-readout")
        players = page.locator(f"{EXPLORER.root} .chutes-players input")
        for k in range(6, 1, -1):
            expect(readout).to_contain_text(f"seat {k} (square 0): {_chances([0] * k)[k - 1]}")
            drawn = page.evaluate(_CHART_WORDS)
            words = drawn["words"]
            assert f"fair share 1/{k}" in [text for text, *_ in words], words
            left, top, right, bottom = drawn["chart"]
            outside = [w for w in words if w[1] < left or w[2] < top or w[3] > right or w[4] > bottom]
            assert not outside, (k, outside)
            clashes = [(a[0], b[0]) for i, a in enumerate(words) for b in words[i + 1:]
                       if min(a[3], b[3]) - max(a[1], b[1]) > 0.5
                       and min(a[4], b[4]) - max(a[2], b[2]) > 0.5]
            assert not clashes, (k, clashes)
            players.focus()
            players.press("ArrowLeft")
    assert not errors, errors
    assert not [u for u in refused if "favicon" not in u], refused
