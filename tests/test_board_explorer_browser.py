"""BoardExplorer in a real browser (tests/browser.py: Voila on 127.0.0.1, Debian's Chromium).

Through Voila (tests/notebooks/board_explorer_demo.ipynb, which also shows what Python sees): the
explorer draws in the page; the die slider moves from the keyboard, and the readout, both
pictures' text alternatives and the polite live region follow, with the library's numbers;
Python's board follows the page; an overshoot rule pressed from the keyboard too; axe-core finds
no serious or critical WCAG 2.1 A/AA violation; no page errors.

With no kernel at all (what the course website does): a page served from memory by Playwright
(every other request refused; each module served as its own file, as a browser imports them)
mounts the explorer with ``mount(el, traits)`` (tests/browser.py ``explorer``). There every control
is used from the keyboard (a refused edit says why in the library's words and keeps the board; the
exact fraction equals the library's); on the 1943 board every key press on the die slider changes
the readout, also while the exact fraction is being computed, and every press on k and on the
choice of heat map renews the board picture's description. The exact fraction is computed in
slices: held between two of them (tests/browser.py ``hold_slices``), the page still answers the
die slider, and let go, it gives the library's fraction. No test here times anything: the issue's
budget (issue 28: a control change under 16 ms median, no task over 50 ms) is measured by
``make bench`` (benchmarks/bench_widgets.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chutes_edu import MILTON_BRADLEY_1943, NOORDENBOS_2023, expected_turns
from chutes_edu.widgets.board_editor import board_to_json, presets_json

from . import browser

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "tests" / "notebooks" / "board_explorer_demo.ipynb"
ARTIFACTS = ROOT / "tests" / "artifacts"
PAGE_TIMEOUT = 180_000   # ms for the kernel to start and the widget to appear
UPDATE_TIMEOUT = 120_000  # ms, a hang guard: the page (and the kernel's mirror) follow a change
START = {"board_json": board_to_json(MILTON_BRADLEY_1943), "board_name": MILTON_BRADLEY_1943.name,
         "preset_name": MILTON_BRADLEY_1943.name, "presets_json": presets_json(),
         "heat_map": "turns", "turns_played": 10, "exact_shown": False}

EXPLORER = browser.explorer("board")

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))]


def _turns(board: Any = MILTON_BRADLEY_1943) -> float:
    return float(expected_turns(board)[0])


def _refusal(edit: Any) -> str:
    """The library's words for an edit it refuses."""
    with pytest.raises(ValueError) as refused:
        edit()
    return str(refused.value)


voila_url = browser.voila_fixture(NOTEBOOK)


def test_the_explorer_answers_the_keyboard_in_voila(voila_url):
    from playwright.sync_api import expect

    ARTIFACTS.mkdir(exist_ok=True)
    with browser.chromium() as chromium:
        errors: list[str] = []
        page = browser.open_voila(chromium, voila_url, errors, viewport=(1200, 1100))
        root = page.locator(".chutes-board-explorer")
        readout = root.locator(".chutes-readout")
        board_picture = root.locator(".chutes-board-heat-board")
        chart = root.locator(".chutes-distribution-chart")
        live = root.locator("[role=status][aria-live=polite]")
        mirror = page.locator(".python-mirror")
        six, seven = _turns(), _turns(MILTON_BRADLEY_1943.replace(die=7))
        expect(readout).to_contain_text(f"{six:.4f}", timeout=PAGE_TIMEOUT)
        expect(mirror).to_contain_text(f"die 6, overshoot stay, heat map turns; expected "
                                       f"turns {six:.4f}")
        before = {"board": board_picture.get_attribute("aria-label"),
                  "chart": chart.get_attribute("aria-label")}
        assert (before["board"] or "").startswith("The 100-square board 'Milton Bradley 1943'")
        assert (before["chart"] or "").startswith("How long is a one-player game? Bars show")
        die = root.get_by_role("slider", name="die faces")
        assert die.get_attribute("aria-valuetext") == "6 faces"
        die.focus()
        die.press("ArrowRight")
        expect(readout).to_contain_text(f"{seven:.4f}", timeout=UPDATE_TIMEOUT)
        assert die.get_attribute("aria-valuetext") == "7 faces"
        expect(live).to_have_text(f"Expected length {seven:.1f} turns, was {six:.1f}")
        alt = board_picture.get_attribute("aria-label") or ""
        assert alt != before["board"] and f"{seven:.3g} at the start" in alt
        assert chart.get_attribute("aria-label") != before["chart"]
        expect(mirror).to_contain_text(f"die 7, overshoot stay, heat map turns; expected "
                                       f"turns {seven:.4f}", timeout=UPDATE_TIMEOUT)
        win = _turns(MILTON_BRADLEY_1943.replace(die=7, overshoot="win"))
        root.get_by_role("button", name="win").focus()
        page.keyboard.press("Space")
        expect(readout).to_contain_text(f"{win:.4f}", timeout=UPDATE_TIMEOUT)
        expect(root.get_by_role("button", name="win")).to_have_attribute("aria-pressed", "true")
        expect(mirror).to_contain_text("die 7, overshoot win", timeout=UPDATE_TIMEOUT)
        root.get_by_label("heat map").select_option("visits")
        expect(board_picture).to_have_attribute("aria-label", _contains("expected visits"))
        expect(mirror).to_contain_text("heat map visits", timeout=UPDATE_TIMEOUT)
        browser.check_voila_page(page, ".chutes-board-explorer", errors, ARTIFACTS / "browser_board_explorer_live.png")


def _contains(words: str) -> Any:
    import re

    return re.compile(re.escape(words))


def test_every_die_press_is_answered_and_the_exact_fraction_comes_in_slices():
    """On the 1943 board with the exact fraction shown: 12 presses up and 12 down on the die
    slider, each answered by a new readout with the library's expected turns; the exact fraction
    (a BigInt solve) comes in slices, the page given back between them (tests/browser.py
    ``pauses``), and is the library's. No clock: the times are make bench's."""
    from playwright.sync_api import expect

    refused: list[str] = []
    errors: list[str] = []
    exact = expected_turns(MILTON_BRADLEY_1943, exact=True)[0]
    with browser.chromium() as chromium:
        page = EXPLORER.open(chromium, {**START, "exact_shown": True}, refused=refused,
                             errors=errors, viewport=(1200, 1000), hold=False)
        readout = page.locator(f"{EXPLORER.root} .chutes-readout")
        expect(readout).to_contain_text(f"exactly {exact.p}/{exact.q}", timeout=browser.HANG_MS)
        assert browser.pauses(page) >= 2              # the solve gave the thread back
        browser.follow_key_presses(page, EXPLORER.root, ".chutes-die input", ["ArrowRight"] * 12)
        expect(readout).to_contain_text(f"{_turns(MILTON_BRADLEY_1943.replace(die=18)):.4f}")
        browser.follow_key_presses(page, EXPLORER.root, ".chutes-die input", ["ArrowLeft"] * 12)
        expect(readout).to_contain_text(f"{_turns():.4f}")
        expect(readout).to_contain_text(f"exactly {exact.p}/{exact.q}", timeout=browser.HANG_MS)
    assert not errors, errors
    assert not [u for u in refused if "favicon" not in u], refused


def test_every_press_on_the_heat_map_controls_renews_the_board_picture():
    """On the 1943 board showing where the token is after k turns: 20 presses on k (each a new
    distribution over the squares) and 12 on the choice of heat map, each answered by a new
    description of the board picture."""
    from playwright.sync_api import expect

    refused: list[str] = []
    errors: list[str] = []
    with browser.chromium() as chromium:
        page = EXPLORER.open(chromium, {**START, "heat_map": "after"}, refused=refused,
                             errors=errors, viewport=(1200, 1000))
        picture = ".chutes-board-heat-board"
        browser.follow_key_presses(page, EXPLORER.root, ".chutes-after input",
                                   ["ArrowRight"] * 20, target=picture, attribute="aria-label")
        expect(page.locator(f"{EXPLORER.root} {picture}")).to_have_attribute(
            "aria-label", _contains("after 30 turns: "))
        browser.follow_key_presses(page, EXPLORER.root, ".chutes-heat select",
                                   ["ArrowUp", "ArrowUp", "ArrowDown", "ArrowDown"] * 3,
                                   target=picture, attribute="aria-label")
    assert not errors, errors
    assert not [u for u in refused if "favicon" not in u], refused


def test_with_no_kernel_every_control_works_from_the_keyboard():
    from playwright.sync_api import expect

    refused: list[str] = []
    with browser.chromium() as chromium:
        errors: list[str] = []
        page = EXPLORER.open(chromium, START, refused=refused, errors=errors,
                             viewport=(1200, 1100))
        root = page.locator(".chutes-board-explorer")
        readout = root.locator(".chutes-readout")
        message = root.locator(".chutes-message")
        live = root.locator("[role=status]")
        board_picture = root.locator(".chutes-board-heat-board")
        expect(readout).to_contain_text(f"{_turns():.4f}")
        # Tab from the heading: the preset, the bonus roll, the die, the four overshoot rules
        page.locator("h1").click()
        page.keyboard.press("Tab")
        expect(root.get_by_label("board", exact=True)).to_be_focused()
        page.keyboard.press("Tab")
        expect(root.get_by_label("roll again on")).to_be_focused()
        page.keyboard.press("Tab")
        expect(root.get_by_role("slider", name="die faces")).to_be_focused()
        page.keyboard.press("Home")                                 # a two-sided die
        two = MILTON_BRADLEY_1943.replace(die=2)
        expect(readout).to_contain_text(f"{_turns(two):.4f}")
        page.keyboard.press("Tab")
        expect(root.get_by_role("button", name="stay")).to_be_focused()
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")                                # "win"
        expect(readout).to_contain_text(f"{_turns(two.replace(overshoot='win')):.4f}")
        for _ in range(2):
            page.keyboard.press("Tab")
        expect(root.get_by_role("button", name="stop_short")).to_be_focused()
        # the jump editor: 30 -> 1 would chain onto the ladder 1->38, refused in the library's
        # words; the board stays
        page.keyboard.press("Tab")
        expect(root.get_by_label("jump from square")).to_be_focused()
        page.keyboard.press("Control+a")
        page.keyboard.type("30")
        page.keyboard.press("Tab")
        page.keyboard.press("Control+a")
        page.keyboard.type("1")
        page.keyboard.press("Tab")
        expect(root.get_by_role("button", name="add jump")).to_be_focused()
        shown = readout.text_content()
        page.keyboard.press("Enter")
        win = two.replace(overshoot="win")
        expect(message).to_have_text(_refusal(lambda: win.with_jump(30, 1)))
        assert "chained jumps" in (message.text_content() or "")
        assert readout.text_content() == shown
        root.get_by_label("to square").fill("35")
        root.get_by_role("button", name="add jump").focus()
        page.keyboard.press("Enter")
        edited = win.with_jump(30, 35)
        expect(readout).to_contain_text(f"{_turns(edited):.4f}")
        expect(message).to_have_text("")
        expect(live).to_contain_text(f"Expected length {_turns(edited):.1f} turns, was")
        page.keyboard.press("Enter")                                # 30 already has a jump
        expect(message).to_have_text(_refusal(lambda: edited.with_jump(30, 10)))
        assert "square 30 already has the jump 30->35" in (message.text_content() or "")
        page.keyboard.press("Tab")
        expect(root.get_by_role("button", name="remove jump")).to_be_focused()
        page.keyboard.press("Enter")
        expect(readout).to_contain_text(f"{_turns(win):.4f}")
        page.keyboard.press("Enter")                                # nothing left on 30
        expect(message).to_have_text(_refusal(lambda: win.without_jump(30)))
        # the jumps list fills both fields
        page.keyboard.press("Tab")
        expect(root.get_by_label("jumps", exact=True)).to_be_focused()
        page.keyboard.press("ArrowDown")
        expect(root.get_by_label("jump from square")).to_have_value("1")
        expect(root.get_by_label("to square")).to_have_value("38")
        # the exact fraction, the library's
        page.keyboard.press("Tab")
        expect(root.get_by_label("show the exact fraction")).to_be_focused()
        page.keyboard.press("Space")
        exact = expected_turns(win, exact=True)[0]
        expect(readout).to_contain_text(f"exactly {exact.p}/{exact.q}", timeout=UPDATE_TIMEOUT)
        # the heat map, and k for "after"
        page.keyboard.press("Tab")
        expect(root.get_by_label("heat map")).to_be_focused()
        after = root.get_by_role("slider", name="k, the turns played")
        expect(after).to_be_hidden()
        root.get_by_label("heat map").select_option("after")
        expect(after).to_be_visible()
        expect(board_picture).to_have_attribute("aria-label", _contains("after 10 turns: "))
        expect(live).to_contain_text("Heat map: probability of being on the square after k turns")
        page.keyboard.press("Tab")
        expect(after).to_be_focused()
        page.keyboard.press("ArrowRight")
        expect(board_picture).to_have_attribute("aria-label", _contains("after 11 turns: "))
        expect(after).to_have_attribute("aria-valuetext", "11 turns")
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        expect(board_picture).to_have_attribute("aria-label", _contains("after 1 turn: "))
        expect(after).to_have_attribute("aria-valuetext", "1 turn")          # not "1 turns"
        # a preset from the keyboard: the Noordenbos board, its rules in the controls
        root.get_by_label("board", exact=True).select_option(NOORDENBOS_2023.name)
        expect(readout).to_contain_text(f"{_turns(NOORDENBOS_2023):.4f}")
        expect(root.get_by_role("button", name="bounce")).to_have_attribute("aria-pressed",
                                                                             "true")
        expect(root.get_by_label("roll again on")).to_have_value("6")
        # a die with no face 6 for the bonus roll is refused, and the slider goes back
        die = root.get_by_role("slider", name="die faces")
        die.focus()
        page.keyboard.press("ArrowLeft")
        expect(message).to_have_text(_refusal(lambda: NOORDENBOS_2023.replace(die=5)))
        expect(die).to_have_attribute("aria-valuetext", "6 faces")
        state = page.evaluate("window.explorer.model.get('board_json')")
        assert state == board_to_json(NOORDENBOS_2023)
        violations = browser.axe_violations(page)
        assert not violations, browser.describe_violations(violations)
        page.screenshot(path=str(ARTIFACTS / "browser_board_explorer_mount.png"), full_page=True)
    assert not errors, errors
    assert not [u for u in refused if "favicon" not in u], refused
