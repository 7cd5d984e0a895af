"""CoinFlipExplorer in a real browser (tests/browser.py: Voila on 127.0.0.1, Debian's Chromium).

Through Voila (tests/notebooks/coin_explorer_demo.ipynb, which also shows what Python sees): the
explorer draws in the page; the slider for p moves from the keyboard, and the readout, the
picture's text alternative and the polite live region follow, with the library's 1/p; Python's
``p`` follows the page; a number of trials typed into its box counts on Enter, a refused one is
said in words; axe-core finds no serious or critical WCAG 2.1 A/AA violation; no page errors.

With no kernel at all (what the course website does): a page served from memory by Playwright
(every other request refused; each module served as its own file, as a browser imports them)
mounts the explorer with ``mount(el, {p, n_trials, seed})``. There the issue's budget is measured
(issue 28: a control change on a settled page under 16 ms median, no task over 50 ms on the
page's thread): at the most trials the page draws, key presses on the slider for p and in the
seed's box (a new seed draws every wait anew), each timed from the key press to the readout's
change, and Chromium's 'longtask' entries meanwhile. A shared
machine can stretch a task, so the best of a few runs counts; all runs are written to
tests/artifacts/coin_explorer_timings.txt.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import pytest

from chutes_edu import expected_flips
from chutes_edu.widgets.coin_explorer import FRONT_END, MAX_TRIALS

from . import browser

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "tests" / "notebooks" / "coin_explorer_demo.ipynb"
JS = ROOT / "chutes_edu" / "widgets" / "js"
ARTIFACTS = ROOT / "tests" / "artifacts"
PAGE_TIMEOUT = 180_000   # ms for the kernel to start and the widget to appear
UPDATE_TIMEOUT = 30_000  # ms for the page (and, for the mirror, the kernel) to follow a change
BUDGET_MS = 16           # the median for a control change ...
LONG_TASK_MS = 50        # ... and no task longer than this
ATTEMPTS = 3             # best of: a starved CPU can stretch a task past 50 ms

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))]


def _exact(p: float) -> str:
    return f"{expected_flips(p):.4f}"


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
        root = page.locator(".chutes-coin-explorer")
        readout = root.locator(".chutes-readout")
        picture = root.locator("svg[role=img]")
        live = root.locator("[role=status][aria-live=polite]")
        mirror = page.locator(".python-mirror")
        expect(readout).to_contain_text(f"1/p = {_exact(0.5)}", timeout=PAGE_TIMEOUT)
        expect(mirror).to_contain_text("p = 0.50, n_trials = 1000, seed = 0")
        before = {"readout": readout.text_content(), "alt": picture.get_attribute("aria-label"),
                  "live": live.text_content()}
        assert before["alt"].startswith("Waiting for heads: the running mean of 1,000 trials")
        slider = root.get_by_role("slider", name="P(heads), the chance of heads p")
        assert slider.get_attribute("aria-valuetext") == "0.50"
        slider.focus()
        slider.press("ArrowRight")
        expect(readout).to_contain_text(f"1/p = {_exact(0.51)}", timeout=UPDATE_TIMEOUT)
        assert slider.get_attribute("aria-valuetext") == "0.51"
        assert picture.get_attribute("aria-label") not in ("", before["alt"])
        assert "the exact value 1.9608 flips" in (picture.get_attribute("aria-label") or "")
        expect(live).to_contain_text("1/p = 1.96 flips")
        assert live.text_content() != before["live"]
        expect(mirror).to_contain_text("p = 0.51", timeout=UPDATE_TIMEOUT)   # Python follows
        # the number of trials: typed, then Enter
        trials = root.get_by_role("spinbutton", name="trials (waits)")
        trials.fill("5000")
        trials.press("Enter")
        expect(readout).to_contain_text("average of 5,000 trials", timeout=UPDATE_TIMEOUT)
        expect(mirror).to_contain_text("n_trials = 5000", timeout=UPDATE_TIMEOUT)
        trials.fill(str(MAX_TRIALS + 1))
        trials.press("Enter")
        expect(root.locator(".chutes-message")).to_contain_text(
            f"from 1 to {MAX_TRIALS:,}, not {MAX_TRIALS + 1}")
        assert trials.input_value() == "5000"
        expect(readout).to_contain_text("average of 5,000 trials")
        violations = browser.axe_violations(
            page, context="document.querySelector('.chutes-coin-explorer')")
        assert not violations, browser.describe_violations(violations)
        root.screenshot(path=str(ARTIFACTS / "browser_coin_explorer.png"))
        assert "Traceback" not in page.content()
        assert not errors, errors


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Coin-flip explorer, no kernel</title>
<link rel="stylesheet" href="/coin_explorer.css"></head>
<body><main><h1>Waiting for heads</h1><div id="explorer"></div></main>
<script type="module">
import { mount } from "/coin_explorer.js";
window.explorer = mount(document.getElementById("explorer"), %s);
</script></body></html>"""


def _serve(page: Any, refused: list[str], start: dict[str, Any]) -> None:
    """The explorer's modules (one file each), its styles and a page that mounts it, at
    http://coin.test/; every other URL refused and noted."""
    files = {f"/{path.name}": (path.read_text(encoding="utf-8"), "text/javascript")
             for path in JS.glob("*.js")}
    files["/"] = (_PAGE % json.dumps(start), "text/html")
    files["/coin_explorer.css"] = (FRONT_END.style_source(), "text/css")
    browser.serve_files(page, "coin.test", files, refused)


def _time_the_controls(chromium: Any, presses: int = 30) -> dict[str, tuple[list[float], list[int]]]:
    """Open the no-kernel page at the most trials; press ArrowRight ``presses`` times on the
    slider for p, then ArrowUp ``presses // 3`` times in the seed's box (each seed draws every
    wait anew): per control, the milliseconds from each key press to the readout's change, and
    the durations of the page's tasks over 50 ms meanwhile."""
    page = chromium.new_page(viewport={"width": 1100, "height": 900})
    refused: list[str] = []
    _serve(page, refused, {"p": 0.3, "n_trials": MAX_TRIALS, "seed": 11})
    page.goto("http://coin.test/", timeout=60_000)
    page.locator(".chutes-coin-explorer .chutes-readout").wait_for()
    browser.settle(page, quiet=500)
    browser.watch_key_presses(page, ".chutes-coin-explorer")
    out = {}
    for name, selector, key, count in [("p", "input[type=range]", "ArrowRight", presses),
                                       ("seed", ".chutes-seed input", "ArrowUp", presses // 3)]:
        out[name] = browser.time_key_presses(page, f".chutes-coin-explorer {selector}",
                                             [key] * count)
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
            with (ARTIFACTS / "coin_explorer_timings.txt").open("a", encoding="utf-8") as out:
                for name, (median, slowest, long) in run.items():
                    out.write(f"{name} at {MAX_TRIALS:,} trials: median {median:.1f} ms, "
                              f"slowest {slowest:.1f} ms; tasks over 50 ms: {long}\n")
            if all(median < BUDGET_MS and not long for median, _, long in run.values()):
                break

    best = browser.least_bad_run(runs)
    for name, (median, _, long) in best.items():
        assert median < BUDGET_MS, f"{name}: median ms per change, each run: {runs}"
        assert not long, f"{name}: tasks over {LONG_TASK_MS} ms in every run: {runs}"


def test_with_no_kernel_every_control_works_from_the_keyboard():
    from playwright.sync_api import expect

    refused: list[str] = []
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1100, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        _serve(page, refused, {"p": 0.25, "n_trials": 2000, "seed": 0})
        page.goto("http://coin.test/", timeout=60_000)
        root = page.locator(".chutes-coin-explorer")
        readout = root.locator(".chutes-readout")
        expect(readout).to_contain_text(f"1/p = {_exact(0.25)}")
        expect(readout).to_contain_text("average of 2,000 trials")
        # Tab from the heading: the slider, the trials, the seed, in that order
        page.locator("h1").click()
        page.keyboard.press("Tab")
        expect(root.get_by_role("slider", name="P(heads), the chance of heads p")).to_be_focused()
        page.keyboard.press("End")
        expect(readout).to_contain_text(f"1/p = {_exact(1.0)}")
        expect(readout).to_contain_text("average of 2,000 trials: 1.000 ± 0.000 flips")
        page.keyboard.press("Home")
        expect(readout).to_contain_text(f"1/p = {_exact(0.01)}")
        page.keyboard.press("Tab")
        expect(root.get_by_role("spinbutton", name="trials (waits)")).to_be_focused()
        page.keyboard.press("ArrowUp")                  # 2001 trials
        expect(readout).to_contain_text("average of 2,001 trials")
        page.keyboard.press("Tab")
        seed = root.get_by_role("spinbutton", name="random seed")
        expect(seed).to_be_focused()
        alt = root.locator("svg[role=img]").get_attribute("aria-label")
        before = readout.text_content()
        page.keyboard.press("ArrowUp")                  # seed 1: other waits, same 1/p
        expect(readout).not_to_have_text(before or "")
        assert root.locator("svg[role=img]").get_attribute("aria-label") != alt
        # the same seed again gives the same waits
        page.keyboard.press("ArrowDown")
        expect(readout).to_have_text(before or "")
        assert page.evaluate("window.explorer.model.get('seed')") == 0
        seed.fill("-3")
        seed.press("Enter")
        expect(root.locator(".chutes-message")).to_contain_text("the random seed must be a whole "
                                                                "number from 0 to 4294967295")
        assert seed.input_value() == "0"
        violations = browser.axe_violations(page)
        assert not violations, browser.describe_violations(violations)
        page.screenshot(path=str(ARTIFACTS / "browser_coin_explorer_mount.png"), full_page=True)
    assert not errors, errors
    assert not [u for u in refused if "favicon" not in u], refused
