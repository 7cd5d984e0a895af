"""How long one explorer interaction takes in a real browser: key press to settled page.

Every explorer computes in the page (its front end and its maths in ``chutes_edu/widgets/js``):
a control change costs Python a trait's sync only, so the only timing that says what a student
waits for is the page's. Voila serves ``tests/notebooks/widgets_demo.ipynb`` on 127.0.0.1,
Debian's Chromium (``/usr/bin/chromium``, driven by Playwright) presses an arrow key on one
slider (an ``input[type=range]``) of each explorer, and the page measures, with
``performance.now()``, from the key press to the page *settled*: the explorer's picture or readout
has changed and no further DOM mutation came for ``QUIET_MS`` (tests/browser.py). The median per
explorer is reported.

Goal (issue 28): under 16 ms per control change on the 1943 board (each explorer's browser test,
``tests/test_<name>_explorer_browser.py``, measures its own on the page with no kernel, and counts
long tasks). ``make bench`` prints these (``benchmarks/bench.py`` calls ``widget_timings``) when
Chromium, Playwright and Voila are there; ``python benchmarks/bench_widgets.py`` runs them alone.
Nothing here is asserted: timings on shared machines are noisy.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import statistics  # noqa: E402
import sys  # noqa: E402
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
        ``("browser: <explorer> <slider> (key to settled page)", median seconds)``.
    """
    return browser_timings(presses=max(2, repeat // 2)) if browser else []


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


if __name__ == "__main__":
    for name, seconds in widget_timings():
        flag = "ok" if seconds < 0.016 else "SLOW"
        print(f"{name:60s} {1000 * seconds:7.1f} ms  {flag}")
