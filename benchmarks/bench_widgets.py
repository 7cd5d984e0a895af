"""How long one explorer interaction takes in a real browser: key press to settled page.

Every explorer computes in the page (its front end and its maths in ``chutes_edu/widgets/js``):
a control change costs Python a trait's sync only, so the only timing that says what a student
waits for is the page's. Voila serves ``tests/notebooks/widgets_demo.ipynb`` on 127.0.0.1,
Debian's Chromium (``/usr/bin/chromium``, driven by Playwright) presses an arrow key on one
slider (an ``input[type=range]``) of each explorer, and the page measures, with
``performance.now()``, from the key press to the page *settled*: the explorer's picture or readout
has changed and no further DOM mutation came for ``QUIET_MS`` (tests/browser.py). The median per
explorer is reported.

Goal (issue 28): under 16 ms median per control change on the 1943 board, and no task over
50 ms on the page's thread. Those budgets are measured here, not in the tests (a test asserts no
wall-clock time: the browser tests check that every press is answered, with the library's
numbers, and that long computations come in slices). :func:`explorer_budgets` opens each explorer
on a page with no kernel (as the course website does; tests/browser.py ``explorer``), presses keys
on its controls at a student's pace, and reports per control the median and slowest milliseconds
from a key press to the readout's change and the page's tasks over 50 ms meanwhile (Chromium's
'longtask' entries): for the jump explorer the sweep of its 5,022 jumps after the page is drawn,
for the simulation explorer a new seed's 10^5 games, for the design explorer a local search for
the smallest spread, each from its start to its end.

``make bench`` prints both (``benchmarks/bench.py`` calls ``widget_timings``: the settled-page
medians, then the no-kernel key-press medians with their long tasks in the name) when Chromium,
Playwright and Voila are there; ``python benchmarks/bench_widgets.py`` runs them alone, with the
whole computations too and a verdict on each budget (``--no-kernel``: the no-kernel page only).
Nothing here is asserted: timings on shared machines are noisy.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import statistics  # noqa: E402
import sys  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))          # the browser harness the tests use: tests/browser.py
from tests import browser  # noqa: E402

NOTEBOOK = ROOT / "tests" / "notebooks" / "widgets_demo.ipynb"
PRESSES = 8               # arrow presses each way (right, then back left) per explorer
# (explorer, its root's CSS class, the slider's CSS class): one slider per explorer
SLIDERS = [("BoardExplorer die faces", "chutes-board-explorer", "chutes-die"),
           ("CoinFlipExplorer P(heads)", "chutes-coin-explorer", "chutes-p"),
           ("SimulationExplorer cap", "chutes-simulation-explorer", "chutes-cap"),
           ("JumpExplorer to b", "chutes-jump-explorer", "chutes-jump-to"),
           ("RaceExplorer player 2", "chutes-race-explorer", "chutes-player-2"),
           ("PolicyExplorer P(exact move)", "chutes-policy-explorer", "chutes-exact")]
# (DesignExplorer searches only when its button is pressed: tests/test_design_explorer_browser.py
# times a whole search, in slices.)


def widget_timings(repeat: int = 15, browser: bool = True) -> list[tuple[str, float]]:
    """Median seconds from a key press to the settled page, per explorer on the 1943 board.

    Parameters
    ----------
    repeat : int, default 15
        Key presses each way per explorer (the first of each way is a warm-up).
    browser : bool, default True
        Measure in Chromium through Voila (:func:`browser_timings`); False gives nothing, since
        no explorer computes in Python any more.

    Returns
    -------
    list of (str, float)
        ``("browser: <explorer> <slider> (key to settled page)", median seconds)``, then
        ``("no kernel: <explorer> <control> (<n> tasks over 50 ms)", median seconds)`` per
        control of :func:`explorer_budgets`.
    """
    if not browser:
        return []
    rows = browser_timings(presses=max(2, repeat // 2))
    for row in explorer_budgets():
        if row.computation:             # no median budget: python benchmarks/bench_widgets.py
            continue
        rows.append((f"no kernel: {row.explorer} {row.control} ({len(row.long)} tasks over "
                     f"50 ms)", row.median / 1000))
    return rows


# --------------------------------------------------------------------------- in a browser
def browser_timings(presses: int = PRESSES,
                    screenshots: Path | None = None) -> list[tuple[str, float]]:
    """Median seconds from an arrow key on a slider to the settled page, per explorer.

    Parameters
    ----------
    presses : int, default PRESSES
        Arrow presses to the right, then as many back to the left, per explorer (the first
        of each is a warm-up and not counted).
    screenshots : pathlib.Path, optional
        A folder for one screenshot of each explorer after its presses.

    Returns
    -------
    list of (str, float)
        ``("browser: <explorer> <slider>", median seconds)``; empty, with the reason on stderr,
        when Chromium, Playwright or Voila is missing.
    """
    missing = browser.missing()
    if missing is not None:
        print(f"(browser timings skipped: {missing})", file=sys.stderr)
        return []
    out: list[tuple[str, float]] = []
    with browser.voila(NOTEBOOK) as url, browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1300, "height": 1000})
        page.goto(url, timeout=240_000)
        page.locator(".chutes-readout").nth(len(SLIDERS) - 1).wait_for(timeout=240_000)
        page.wait_for_function(f"document.querySelectorAll('.chutes-readout').length "
                               f">= {len(SLIDERS)}", timeout=240_000)
        for name, root_class, slider_class in SLIDERS:
            root = page.locator(f".{root_class}").first
            handle = root.locator(f".{slider_class} input[type=range]").first
            handle.scroll_into_view_if_needed()
            root.evaluate(browser.WATCH)
            out.append((f"browser: {name} (key to settled page)", _presses(page, handle, presses)))
            if screenshots is not None:
                screenshots.mkdir(parents=True, exist_ok=True)
                root.screenshot(path=str(screenshots / f"bench_{root_class}.png"))
    return out


def _presses(page: Any, handle: Any, presses: int) -> float:
    """Median seconds from an arrow key on ``handle`` to the settled page (after browser.WATCH)."""
    times = []
    for i, key in enumerate(["ArrowRight"] * presses + ["ArrowLeft"] * presses):
        handle.press(key)
        page.wait_for_function(browser.SETTLED, timeout=60_000, polling=20)
        t0, last = page.evaluate("[window.__chutes.t0, window.__chutes.last]")
        if i not in (0, presses):            # the first move each way warms up
            times.append((last - t0) / 1000)
    return statistics.median(times)


# --------------------------------------------------------------------------- no kernel
BUDGET_MS = 16.0          # the median for a control change ...
LONG_TASK_MS = 50         # ... and no task on the page's thread longer than this


@dataclass(frozen=True)
class Budget:
    """One control of one explorer on the page with no kernel: key press to readout change."""

    explorer: str
    control: str
    median: float          # ms
    slowest: float         # ms
    long: list[int]        # durations (ms) of the page's tasks over 50 ms meanwhile
    computation: bool = False   # a whole computation (no median budget), not key presses

    @property
    def verdict(self) -> str:
        over = ([] if self.computation or self.median < BUDGET_MS
                else [f"median over {BUDGET_MS:g} ms"])
        if self.long:
            over.append(f"{len(self.long)} tasks over {LONG_TASK_MS} ms")
        return "ok" if not over else "OVER: " + ", ".join(over)


def _scenarios() -> list[tuple[str, dict[str, Any], list[tuple[str, str, list[str]]]]]:
    """(explorer, its start, [(control, selector, keys)]) on the 1943 board (coin: the most
    trials), as the browser tests press them."""
    from chutes_edu import MILTON_BRADLEY_1943
    from chutes_edu.widgets.board_editor import board_to_json, presets_json
    from chutes_edu.widgets.coin_explorer import MAX_TRIALS

    board, name = board_to_json(MILTON_BRADLEY_1943), MILTON_BRADLEY_1943.name or ""
    there_and_back = ["ArrowLeft", "ArrowLeft", "ArrowRight", "ArrowRight"] * 3
    explorer = {"board_json": board, "board_name": name, "preset_name": name,
                "presets_json": presets_json(), "heat_map": "turns", "turns_played": 10}
    return [
        ("coin", {"p": 0.3, "n_trials": MAX_TRIALS, "seed": 11},
         [("p", "input[type=range]", ["ArrowRight"] * 30),
          ("seed", ".chutes-seed input", ["ArrowUp"] * 10)]),
        ("board", {**explorer, "exact_shown": False},
         [("die", ".chutes-die input", ["ArrowRight"] * 12 + ["ArrowLeft"] * 12)]),
        ("board", {**explorer, "exact_shown": True},
         [("die, with the exact fraction", ".chutes-die input",
           ["ArrowRight"] * 12 + ["ArrowLeft"] * 12)]),
        ("simulation", {"board_json": board, "board_name": name, "games": 100_000,
                        "random_seed": 0, "turn_cap": 40},
         [("cap", ".chutes-cap input", ["ArrowRight"] * 15 + ["ArrowLeft"] * 15)]),
        ("jump", {"board_json": board, "board_name": name, "min_length": 1, "jump": [30, 35]},
         [("destination", ".chutes-jump-to input", ["ArrowRight"] * 20),
          ("source", ".chutes-jump-from input", there_and_back)]),
        ("race", {"board_json": board, "board_name": name,
                  "positions": [0, 10, 20, 30, 40, 50]},
         [("seat 6", ".chutes-player-6 input", ["ArrowRight"] * 30),
          ("players", ".chutes-players input", there_and_back)]),
        ("policy", {"board_json": board, "board_name": name, "aim_exact": 0.2, "aim_lean": 0.5,
                    "discount_factor": 0.85},
         [("exact move", ".chutes-exact input", ["ArrowRight"] * 12),
          ("discount", ".chutes-discount input", ["ArrowRight"] * 12)]),
        ("design", {"board_json": board, "board_name": name, "goal_kind": "target",
                    "goal_parameter": 25, "goal_tolerance": 1, "most_jumps": 2,
                    "search_method": "local search", "runs": 0},
         [("most jumps", ".chutes-design-jumps input",
           ["ArrowRight", "ArrowRight", "ArrowLeft", "ArrowLeft"] * 5)]),
    ]


_LONG_TASKS = """window.__long = []; window.__allLong = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    window.__allLong.push([Math.round(e.startTime), Math.round(e.duration)]);
  }
}).observe({type: "longtask", buffered: true});"""
_LONG_SINCE = "t => window.__allLong.filter(([s]) => s >= t).map(([, d]) => d)"


def _computation(page: Any, start: Any, done: str) -> tuple[float, list[int]]:
    """Milliseconds from ``start()`` (an action on the page) until ``done`` (a JavaScript
    predicate) holds, and the page's tasks over 50 ms meanwhile."""
    t0 = page.evaluate("performance.now()")
    start()
    page.wait_for_function(done, timeout=240_000, polling=20)
    took = page.evaluate("performance.now()") - t0
    page.wait_for_timeout(200)                      # the last task's entry to arrive
    return float(took), [int(d) for d in page.evaluate(_LONG_SINCE, t0)]


def _measure(chromium: Any, name: str, start: dict[str, Any],
             controls: list[tuple[str, str, list[str]]]) -> list[Budget]:
    """One explorer's rows of :func:`explorer_budgets`."""
    out: list[Budget] = []
    refused: list[str] = []
    shown = browser.explorer(name)
    page = chromium.new_page(viewport={"width": 1200, "height": 1000})
    page.add_init_script(_LONG_TASKS)
    shown.serve(page, refused, start)
    page.goto(shown.url, timeout=240_000)
    if name == "jump":          # the sweep of every jump, from the page's start to its end
        page.wait_for_function(f"() => /expected turns/.test(document.querySelector("
                               f"'{shown.root} .chutes-readout')?.textContent || '')",
                               timeout=240_000, polling=20)
        took = float(page.evaluate("performance.now()"))
        page.wait_for_timeout(200)
        long = [int(d) for d in page.evaluate(_LONG_SINCE, 0)]
        out.append(Budget(name, "opening: page load and the sweep of every jump", took, took,
                          long, computation=True))
    page.locator(f"{shown.root} .chutes-readout").first.wait_for(timeout=240_000)
    browser.settle(page, quiet=500)
    browser.watch_key_presses(page, shown.root)
    for control, selector, keys in controls:
        times, long = browser.time_key_presses(page, f"{shown.root} {selector}", keys)
        out.append(Budget(name, control, statistics.median(times) if times else
                          float("nan"), max(times, default=float("nan")), long))
    if name == "simulation":
        box = page.locator(f"{shown.root} .chutes-seed input")
        box.fill("11")
        took, long = _computation(page, lambda: box.press("Enter"), f"""() => {{
            const p = document.querySelector('{shown.root} progress');
            return p && Number(p.value) === 100 && !document.querySelector(
              '{shown.root} .chutes-readout[aria-busy]'); }}""")
        out.append(Budget(name, "seed: 10^5 games", took, took, long, computation=True))
    if name == "design":
        page.evaluate("""() => { const m = window.explorer.model;
            m.set('goal_kind', 'spread'); m.set('goal_parameter', 39.6);
            m.save_changes(); }""")
        page.wait_for_timeout(200)
        took, long = _computation(
            page, lambda: page.locator(f"{shown.root} .chutes-design-run").click(),
            f"() => /added jumps/.test(document.querySelector("
            f"'{shown.root} .chutes-design-result')?.textContent || '')")
        out.append(Budget(name, "search: smallest spread, local search", took, took,
                          long, computation=True))
    page.close()
    if [u for u in refused if "favicon" not in u]:
        print(f"({name}: refused {refused})", file=sys.stderr)
    return out


def explorer_budgets() -> list[Budget]:
    """Each explorer's controls on the page with no kernel, against the budgets (module
    docstring): per control the median and slowest ms from a key press to the readout's change,
    and the page's tasks over 50 ms meanwhile; also the jump explorer's sweep, a new seed's 10^5
    games and a design search, each from start to end. Empty, with the reason on stderr, when
    Chromium or Playwright is missing."""
    missing = browser.missing(voila=False)
    if missing is not None:
        print(f"(no-kernel timings skipped: {missing})", file=sys.stderr)
        return []
    out: list[Budget] = []
    with browser.chromium() as chromium:
        for name, start, controls in _scenarios():
            out.extend(_measure(chromium, name, start, controls))
    return out


if __name__ == "__main__":
    if "--no-kernel" not in sys.argv:
        for name, seconds in browser_timings():
            flag = "ok" if seconds < 0.016 else "SLOW"
            print(f"{name:60s} {1000 * seconds:7.1f} ms  {flag}")
    print(f"\nno kernel: key press to readout (median, slowest; goal: median < {BUDGET_MS:g} ms, "
          f"no task over {LONG_TASK_MS} ms)")
    for row in explorer_budgets():
        print(f"{row.explorer + ' ' + row.control:50s} {row.median:7.1f} ms {row.slowest:7.1f} ms"
              f"  tasks over {LONG_TASK_MS} ms: {row.long}  {row.verdict}")
