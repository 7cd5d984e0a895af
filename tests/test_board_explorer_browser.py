"""BoardExplorer in a real browser (tests/browser.py: Voila on 127.0.0.1, Debian's Chromium).

Through Voila (tests/notebooks/board_explorer_demo.ipynb, which also shows what Python sees): the
explorer draws in the page; the die slider moves from the keyboard, and the readout, both
pictures' text alternatives and the polite live region follow, with the library's numbers;
Python's board follows the page; an overshoot rule pressed from the keyboard too; axe-core finds
no serious or critical WCAG 2.1 A/AA violation; no page errors.

With no kernel at all (what the course website does): a page served from memory by Playwright
(every other request refused; each module served as its own file, as a browser imports them)
mounts the explorer with ``mount(el, traits)``. There every control is used from the keyboard
(a refused edit says why in the library's words and keeps the board; the exact fraction equals
the library's), and the issue's budget is measured on the 1943 board (issue 28: a control change
on a settled page under 16 ms median, no task over 50 ms on the page's thread): key presses on
the die slider, each timed from the key press to the readout's change, and Chromium's
'longtask' entries meanwhile, also while the exact fraction is being computed; and on k and the
choice of heat map, each timed to the board picture's new description. A shared machine
can stretch a task, so the best of a few runs counts; all runs are written to
tests/artifacts/board_explorer_timings.txt.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import pytest

from chutes_edu import MILTON_BRADLEY_1943, NOORDENBOS_2023, expected_turns
from chutes_edu.widgets.board_editor import board_to_json, presets_json
from chutes_edu.widgets.board_explorer import FRONT_END

from . import browser

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "tests" / "notebooks" / "board_explorer_demo.ipynb"
JS = ROOT / "chutes_edu" / "widgets" / "js"
ARTIFACTS = ROOT / "tests" / "artifacts"
PAGE_TIMEOUT = 180_000   # ms for the kernel to start and the widget to appear
UPDATE_TIMEOUT = 30_000  # ms for the page (and, for the mirror, the kernel) to follow a change
BUDGET_MS = 16           # the median for a control change ...
LONG_TASK_MS = 50        # ... and no task longer than this
ATTEMPTS = 3             # best of: a starved CPU can stretch a task past 50 ms
START = {"board_json": board_to_json(MILTON_BRADLEY_1943), "board_name": MILTON_BRADLEY_1943.name,
         "preset_name": MILTON_BRADLEY_1943.name, "presets_json": presets_json(),
         "heat_map": "turns", "turns_played": 10, "exact_shown": False}

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))]


def _turns(board: Any = MILTON_BRADLEY_1943) -> float:
    return float(expected_turns(board)[0])


def _refusal(edit: Any) -> str:
    """The library's words for an edit it refuses."""
    with pytest.raises(ValueError) as refused:
        edit()
    return str(refused.value)


@pytest.fixture(scope="module")
def voila_url():
    with browser.voila(NOTEBOOK) as url:
        yield url


def test_the_explorer_answers_the_keyboard_in_voila(voila_url):
    from playwright.sync_api import expect

    ARTIFACTS.mkdir(exist_ok=True)
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1200, "height": 1100})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.set_default_timeout(PAGE_TIMEOUT)
        page.goto(voila_url, timeout=PAGE_TIMEOUT)
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
        violations = browser.axe_violations(
            page, context="document.querySelector('.chutes-board-explorer')")
        assert not violations, browser.describe_violations(violations)
        root.screenshot(path=str(ARTIFACTS / "browser_board_explorer_live.png"))
        assert "Traceback" not in page.content()
        assert not errors, errors


def _contains(words: str) -> Any:
    import re

    return re.compile(re.escape(words))


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Board explorer, no kernel</title>
<link rel="stylesheet" href="/board_explorer.css"></head>
<body><main><h1>Boards</h1><div id="explorer"></div></main>
<script type="module">
import { mount } from "/board_explorer.js";
window.explorer = mount(document.getElementById("explorer"), %s);
</script></body></html>"""


def _serve(page: Any, refused: list[str], start: dict[str, Any]) -> None:
    """The explorer's modules (one file each), its styles and a page that mounts it, at
    http://board.test/; every other URL refused and noted."""
    files = {f"/{path.name}": (path.read_text(encoding="utf-8"), "text/javascript")
             for path in JS.glob("*.js")}
    files["/"] = (_PAGE % json.dumps(start), "text/html")
    files["/board_explorer.css"] = (FRONT_END.style_source(), "text/css")
    browser.serve_files(page, "board.test", files, refused)


def _time_the_controls(chromium: Any, *, exact: bool,
                       presses: int = 12) -> dict[str, tuple[list[float], list[int]]]:
    """Open the no-kernel page on the 1943 board (with the exact fraction shown, or not); press
    ArrowRight ``presses`` times on the die slider, then ArrowLeft as many: the milliseconds
    from each key press to the readout's change, and the durations of the page's tasks over
    50 ms meanwhile."""
    page = chromium.new_page(viewport={"width": 1200, "height": 1000})
    refused: list[str] = []
    _serve(page, refused, {**START, "exact_shown": exact})
    page.goto("http://board.test/", timeout=60_000)
    page.locator(".chutes-board-explorer .chutes-readout").wait_for()
    browser.settle(page, quiet=500)
    browser.watch_key_presses(page, ".chutes-board-explorer")
    keys = ["ArrowRight"] * presses + ["ArrowLeft"] * presses
    name = "die, with the exact fraction" if exact else "die"
    out = {name: browser.time_key_presses(page, ".chutes-board-explorer .chutes-die input", keys)}
    page.close()
    assert not [u for u in refused if "favicon" not in u], refused
    return out


def _best_of_runs(measure: Any) -> None:
    """Up to ATTEMPTS runs of ``measure(chromium)`` ({control: (times, long tasks)}), each
    written to the timings file, until one keeps the budget; the least bad run must keep it."""
    runs = []
    ARTIFACTS.mkdir(exist_ok=True)
    with browser.chromium() as chromium:
        for _ in range(ATTEMPTS):
            run = {name: (statistics.median(times), max(times), long)
                   for name, (times, long) in measure(chromium).items()}
            runs.append(run)
            with (ARTIFACTS / "board_explorer_timings.txt").open("a", encoding="utf-8") as out:
                for name, (median, slowest, long) in run.items():
                    out.write(f"{name}, on the 1943 board: median {median:.1f} ms, "
                              f"slowest {slowest:.1f} ms; tasks over 50 ms: {long}\n")
            if all(median < BUDGET_MS and not long for median, _, long in run.values()):
                break
    best = browser.least_bad_run(runs)
    for name, (median, _, long) in best.items():
        assert median < BUDGET_MS, f"{name}: median ms per change, each run: {runs}"
        assert not long, f"{name}: tasks over {LONG_TASK_MS} ms in every run: {runs}"


def test_a_control_change_takes_under_a_frame_and_never_holds_the_page():
    _best_of_runs(lambda chromium: {**_time_the_controls(chromium, exact=False),
                                    **_time_the_controls(chromium, exact=True)})


# A key press on a control of the heat map, timed to the change of the board picture's
# description (these controls leave the readout as it is), and the tasks over 50 ms meanwhile.
_WATCH_THE_PICTURE = """() => {
  window.__long = []; window.__times = []; let t0 = null;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push(Math.round(e.duration));
  }).observe({type: "longtask", buffered: false});
  const root = document.querySelector(".chutes-board-explorer");
  for (const el of root.querySelectorAll("input, select")) {
    el.addEventListener("keydown", () => { t0 = performance.now(); }, true);
  }
  new MutationObserver(() => {
    if (t0 !== null) { window.__times.push(performance.now() - t0); t0 = null; }
  }).observe(root.querySelector(".chutes-board-heat-board"),
             {attributes: true, attributeFilter: ["aria-label"]});
}"""


def _time_the_heat_map(chromium: Any) -> dict[str, tuple[list[float], list[int]]]:
    """Open the no-kernel page on the 1943 board showing where the token is after k turns; press
    keys on k and on the choice of heat map: per control, the milliseconds from each key press to
    the board picture's new description, and the tasks over 50 ms meanwhile."""
    page = chromium.new_page(viewport={"width": 1200, "height": 1000})
    refused: list[str] = []
    _serve(page, refused, {**START, "heat_map": "after"})
    page.goto("http://board.test/", timeout=60_000)
    page.locator(".chutes-board-explorer .chutes-readout").wait_for()
    browser.settle(page, quiet=500)
    page.evaluate(_WATCH_THE_PICTURE)
    out = {}
    for name, selector, keys in [
            ("k, the turns played", ".chutes-after input", ["ArrowRight"] * 20),
            ("heat map", ".chutes-heat select", ["ArrowUp", "ArrowUp", "ArrowDown",
                                                 "ArrowDown"] * 3)]:
        page.evaluate("window.__times = []; window.__long = []")
        control = page.locator(f".chutes-board-explorer {selector}")
        control.focus()
        for key in keys:
            control.press(key)
            page.wait_for_timeout(60)
        times = page.evaluate("window.__times")
        assert len(times) == len(keys), (name, times)            # every press redrew it
        out[name] = ([float(x) for x in times], [int(x) for x in page.evaluate("window.__long")])
    page.close()
    assert not [u for u in refused if "favicon" not in u], refused
    return out


def test_the_heat_map_controls_take_under_a_frame():
    """k, the turns played (every press a new distribution over the squares), and the choice of
    heat map, on the 1943 board: key press to the board picture's new description."""
    _best_of_runs(_time_the_heat_map)


def test_with_no_kernel_every_control_works_from_the_keyboard():
    from playwright.sync_api import expect

    refused: list[str] = []
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1200, "height": 1100})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        _serve(page, refused, START)
        page.goto("http://board.test/", timeout=60_000)
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
