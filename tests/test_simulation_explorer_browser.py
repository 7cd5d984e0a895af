"""SimulationExplorer in a real browser (tests/browser.py: Voila on 127.0.0.1, Debian's Chromium).

Through Voila (tests/notebooks/simulation_explorer_demo.ipynb, which also shows what Python
sees): the explorer plays and draws in the page; the cap's slider moves from the keyboard, and
the readout, the picture's text alternative and the polite live region follow, with the library's
exact mean; Python's cap follows the page; a seed typed into its box counts on Enter and plays
the games anew, a refused number of games is said in words; axe-core finds no serious or
critical WCAG 2.1 A/AA violation; no page errors.

With no kernel at all (what the course website does): a page served from memory by Playwright
(every other request refused; each module served as its own file, as a browser imports them)
mounts the explorer with ``mount(el, {board_json, board_name, games, random_seed, turn_cap})``.
There the issue's budget is measured on the 1943 board (issue 28: a control change on a settled
page under 16 ms median, no task over 50 ms on the page's thread): with 10^5 games played, key
presses on the cap's slider, each timed from the key press to the readout's change; and a new
seed, which plays 10^5 games anew, with Chromium's 'longtask' entries meanwhile (none may last
over 50 ms: the page plays a few milliseconds at a time). A shared machine can stretch a task, so
the best of a few runs counts; all runs are written to tests/artifacts/simulation_explorer_timings.txt.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import pytest

from chutes_edu import MILTON_BRADLEY_1943, expected_turns
from chutes_edu.widgets.board_editor import board_to_json
from chutes_edu.widgets.simulation_explorer import style_source

from . import browser

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "tests" / "notebooks" / "simulation_explorer_demo.ipynb"
JS = ROOT / "chutes_edu" / "widgets" / "js"
ARTIFACTS = ROOT / "tests" / "artifacts"
PAGE_TIMEOUT = 180_000   # ms for the kernel to start and the widget to appear
UPDATE_TIMEOUT = 30_000  # ms for the page (and, for the mirror, the kernel) to follow a change
BUDGET_MS = 16           # the median for a control change ...
LONG_TASK_MS = 50        # ... and no task longer than this
ATTEMPTS = 3             # best of: a starved CPU can stretch a task past 50 ms
GAMES = 100_000          # the 10^5 games
BOARD = board_to_json(MILTON_BRADLEY_1943)
EXACT = f"{float(expected_turns(MILTON_BRADLEY_1943)[0]):.4f}"

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))]


@pytest.fixture(scope="module")
def voila_url():
    with browser.voila(NOTEBOOK) as url:
        yield url


def test_the_explorer_answers_the_keyboard_in_voila(voila_url):
    from playwright.sync_api import expect

    ARTIFACTS.mkdir(exist_ok=True)
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1200, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.set_default_timeout(PAGE_TIMEOUT)
        page.goto(voila_url, timeout=PAGE_TIMEOUT)
        root = page.locator(".chutes-simulation-explorer")
        readout = root.locator(".chutes-readout")
        picture = root.locator("svg[role=img]")
        live = root.locator("[role=status][aria-live=polite]")
        mirror = page.locator(".python-mirror")
        expect(readout).to_contain_text("mean of 2,000 games: ", timeout=PAGE_TIMEOUT)
        expect(readout).to_contain_text(f"exact: {EXACT} turns")
        expect(mirror).to_contain_text("n_games = 2000, seed = 0, cap = 0")
        before = {"alt": picture.get_attribute("aria-label") or "", "live": live.text_content()}
        assert before["alt"].startswith("Monte Carlo convergence: the running mean of 2,000 games")
        assert f"the dashed line is the exact value {EXACT} turns." in before["alt"]
        cap = root.get_by_role("slider", name="cap on a game's length (0: no cap)")
        assert cap.get_attribute("aria-valuetext") == "0 turns"
        cap.focus()
        cap.press("PageUp")
        capped = int(cap.input_value())
        assert capped > 0
        expect(readout).to_contain_text(f"capped at {capped} turns: ", timeout=UPDATE_TIMEOUT)
        assert cap.get_attribute("aria-valuetext") == f"{capped} turns"
        alt = picture.get_attribute("aria-label") or ""
        assert alt != before["alt"] and f"with each capped at {capped} turns (dash-dotted" in alt
        assert live.text_content() != before["live"]
        assert f"capped at {capped} turns" in (live.text_content() or "")
        expect(mirror).to_contain_text(f"cap = {capped}", timeout=UPDATE_TIMEOUT)
        expect(mirror).to_contain_text("capped mean")          # the library's, in Python
        # a new seed, typed and committed with Enter, plays the games anew
        shown = readout.text_content()
        seed = root.get_by_role("spinbutton", name="random seed")
        seed.fill("7")
        seed.press("Enter")
        expect(mirror).to_contain_text("seed = 7", timeout=UPDATE_TIMEOUT)
        expect(readout).not_to_have_text(shown or "", timeout=UPDATE_TIMEOUT)
        expect(root.locator("progress")).to_have_attribute("value", "100")
        # a number of games the page does not play is refused in words, the state kept
        games = root.get_by_role("spinbutton", name="games to play")
        games.fill("0")
        games.press("Enter")
        expect(root.locator(".chutes-message")).to_contain_text(
            "the number of games must be a whole number from 1 to 1,000,000, not 0")
        expect(mirror).to_contain_text("n_games = 2000")
        violations = browser.axe_violations(
            page, context="document.querySelector('.chutes-simulation-explorer')")
        assert not violations, browser.describe_violations(violations)
        root.screenshot(path=str(ARTIFACTS / "browser_simulation_explorer.png"))
        assert "Traceback" not in page.content()
        assert not errors, errors


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Simulation explorer, no kernel</title>
<link rel="stylesheet" href="/simulation_explorer.css"></head>
<body><main><h1>Simulation</h1><div id="explorer"></div></main>
<script type="module">
import { mount } from "/simulation_explorer.js";
window.explorer = mount(document.getElementById("explorer"), %s);
</script></body></html>"""


def _serve(page: Any, refused: list[str], start: dict[str, Any]) -> None:
    """The explorer's modules (one file each), its styles and a page that mounts it, at
    http://simulation.test/; every other URL refused and noted."""
    files = {f"/{path.name}": (path.read_text(encoding="utf-8"), "text/javascript")
             for path in JS.glob("*.js")}
    files["/"] = (_PAGE % json.dumps(start), "text/html")
    files["/simulation_explorer.css"] = (style_source(), "text/css")
    browser.serve_files(page, "simulation.test", files, refused)


_PLAYED = """() => {
  const p = document.querySelector('.chutes-simulation-explorer progress');
  return p && Number(p.value) === 100 && !document.querySelector(
    '.chutes-simulation-explorer .chutes-readout[aria-busy]');
}"""


def _time_the_controls(chromium: Any, presses: int = 30) -> dict[str, tuple[list[float], list[int]]]:
    """Open the no-kernel page on the 1943 board with 10^5 games; press ArrowRight and ArrowLeft
    on the cap's slider: the milliseconds from each key press to the readout's change, and the
    durations of the page's tasks over 50 ms meanwhile. Then a new seed: 10^5 games played anew,
    the milliseconds from Enter until they are drawn, and the tasks over 50 ms meanwhile."""
    page = chromium.new_page(viewport={"width": 1100, "height": 900})
    refused: list[str] = []
    _serve(page, refused, {"board_json": BOARD, "board_name": MILTON_BRADLEY_1943.name,
                           "games": GAMES, "random_seed": 0, "turn_cap": 40})
    page.goto("http://simulation.test/", timeout=60_000)
    page.wait_for_function(_PLAYED, timeout=60_000)
    browser.settle(page, quiet=500)
    browser.watch_key_presses(page, ".chutes-simulation-explorer")
    out = {"cap": browser.time_key_presses(
        page, ".chutes-simulation-explorer .chutes-cap input",
        ["ArrowRight"] * (presses // 2) + ["ArrowLeft"] * (presses // 2))}
    page.evaluate("window.__long = []")
    box = page.locator(".chutes-simulation-explorer .chutes-seed input")
    box.fill("11")
    start = page.evaluate("performance.now()")
    box.press("Enter")
    page.wait_for_function(_PLAYED, timeout=60_000)
    page.wait_for_timeout(200)                     # the last task's entry to arrive
    played = page.evaluate("performance.now()") - start
    out["seed: 10^5 games"] = ([float(played)], [int(t) for t in page.evaluate("window.__long")])
    page.close()
    assert not [u for u in refused if "favicon" not in u], refused
    return out


def test_a_control_change_takes_under_a_frame_and_never_holds_the_page():
    runs = []
    ARTIFACTS.mkdir(exist_ok=True)
    with browser.chromium() as chromium:
        for _ in range(ATTEMPTS):
            measured = _time_the_controls(chromium)
            run = {name: (statistics.median(times), max(times), long)
                   for name, (times, long) in measured.items()}
            runs.append(run)
            with (ARTIFACTS / "simulation_explorer_timings.txt").open("a", encoding="utf-8") as out:
                for name, (median, slowest, long) in run.items():
                    out.write(f"{name}, {GAMES:,} games on the 1943 board: median {median:.1f} "
                              f"ms, slowest {slowest:.1f} ms; tasks over 50 ms: {long}\n")
            if run["cap"][0] < BUDGET_MS and not any(long for _, _, long in run.values()):
                break

    best = min(runs, key=lambda run: (sum(len(long) for _, _, long in run.values()),
                                      run["cap"][0]))
    assert best["cap"][0] < BUDGET_MS, f"cap: median ms per change, each run: {runs}"
    for name, (_, _, long) in best.items():
        assert not long, f"{name}: tasks over {LONG_TASK_MS} ms in every run: {runs}"


def test_with_no_kernel_every_control_works_from_the_keyboard():
    from playwright.sync_api import expect

    refused: list[str] = []
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1100, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        _serve(page, refused, {"board_json": BOARD, "board_name": MILTON_BRADLEY_1943.name,
                               "games": 1000, "random_seed": 0, "turn_cap": 0})
        page.goto("http://simulation.test/", timeout=60_000)
        root = page.locator(".chutes-simulation-explorer")
        readout = root.locator(".chutes-readout")
        expect(readout).to_contain_text("mean of 1,000 games: ")
        expect(readout).to_contain_text(f"exact: {EXACT} turns")
        expect(root).to_contain_text("Simulation on Milton Bradley 1943")
        first = readout.text_content()
        # Tab from the heading: games, seed, run, then the cap
        page.locator("h1").click()
        page.keyboard.press("Tab")
        games = root.get_by_role("spinbutton", name="games to play")
        expect(games).to_be_focused()
        page.keyboard.press("Control+a")
        page.keyboard.type("5000")
        page.keyboard.press("Tab")                                 # leaving the box commits it
        seed = root.get_by_role("spinbutton", name="random seed")
        expect(seed).to_be_focused()
        expect(readout).to_contain_text("mean of 5,000 games: ")
        assert page.evaluate("window.explorer.model.get('games')") == 5000
        page.keyboard.press("Control+a")
        page.keyboard.type("3")
        page.keyboard.press("Tab")
        run = root.get_by_role("button", name="run")
        expect(run).to_be_focused()
        assert page.evaluate("window.explorer.model.get('random_seed')") == 3
        expect(root.get_by_role("progressbar", name="played")).to_have_attribute("value", "100")
        # "run" plays new games: a new seed each press, shown in the seed box and saved
        seeds = [3]
        for _ in range(2):
            shown = readout.text_content() or ""
            page.keyboard.press("Enter")
            expect(readout).not_to_have_text(shown)
            expect(readout).to_contain_text("mean of 5,000 games: ")
            seeds.append(page.evaluate("window.explorer.model.get('random_seed')"))
            assert seed.input_value() == str(seeds[-1])
        assert seeds[1] != seeds[0] and seeds[2] != seeds[1], seeds
        page.keyboard.press("Tab")
        cap = root.get_by_role("slider", name="cap on a game's length (0: no cap)")
        expect(cap).to_be_focused()
        alt = root.locator("svg[role=img]").get_attribute("aria-label")
        page.keyboard.press("End")                                 # the longest cap
        expect(readout).to_contain_text("capped at 300 turns: ")
        expect(readout).to_contain_text("games cut short)")
        assert root.locator("svg[role=img]").get_attribute("aria-label") != alt
        page.keyboard.press("Home")                                # no cap
        expect(readout).not_to_contain_text("capped")
        assert readout.text_content() != first
        page.keyboard.press("Tab")                                 # out of the explorer
        assert page.evaluate("document.activeElement.closest('.chutes-simulation-explorer')") \
            is None
        assert page.evaluate("window.explorer.model.get('turn_cap')") == 0
        # an invalid board is refused in the library's words
        page.evaluate("""() => { const m = window.explorer.model;
            m.set('board_json', {...m.get('board_json'), size: 1}); m.save_changes(); }""")
        expect(root.locator(".chutes-message")).not_to_be_empty()
        violations = browser.axe_violations(page)
        assert not violations, browser.describe_violations(violations)
        page.screenshot(path=str(ARTIFACTS / "browser_simulation_explorer_mount.png"),
                        full_page=True)
    assert not errors, errors
    assert not [u for u in refused if "favicon" not in u], refused
