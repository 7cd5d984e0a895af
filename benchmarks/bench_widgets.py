"""How long one widget interaction takes: headless in Python, and in a real browser.

Headless (``widget_timings``): set a control's ``.value`` and time until the handlers have
re-computed and re-drawn every output (they run synchronously, so the assignment returns only when
the readout and the pictures, PNG bytes included, are updated); plus the PNG encoder on its own.

In a browser (``browser_timings``): Voila serves ``tests/notebooks/widgets_demo.ipynb`` on
127.0.0.1, Debian's Chromium (``/usr/bin/chromium``, driven by Playwright) presses an arrow key on
one slider (an ``input[type=range]``) of each explorer, and the page measures, with
``performance.now()``, from the key press to the page *settled*: the explorer's picture or readout
has changed and no further DOM mutation came for ``QUIET_MS`` (tests/browser.py). The median
per explorer is reported.

Goal (issue 3, issue 8): under 100 ms per slider change on the standard board. ``make bench``
prints both (``benchmarks/bench.py`` calls ``widget_timings``, which appends the browser medians
when Chromium, Playwright and Voila are there); ``python benchmarks/bench_widgets.py`` runs them
alone. Nothing here is asserted: timings on shared machines are noisy.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

# BLAS reads its thread count once, when numpy is imported: these imports come after the setting.
import functools  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from chutes_edu import (  # noqa: E402
    BoardExplorer,
    JumpExplorer,
    PolicyExplorer,
    RaceExplorer,
    SimulationExplorer,
)
from chutes_edu.widgets._base import _png  # noqa: E402

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



def _median_change(control: Any, values: Sequence[Any], repeat: int,
                   before: Callable[[], None] | None = None) -> float:
    """Median seconds of ``control.value = v``, cycling through ``values`` (each a real change)."""
    times = []
    for i in range(repeat + 1):
        value = values[i % len(values)]
        if before is not None:
            before()
        start = time.perf_counter()
        control.value = value
        elapsed = time.perf_counter() - start
        if i:                                   # the first change warms up caches and fonts
            times.append(elapsed)
    return statistics.median(times)


def _median_call(action: Callable[[], object], repeat: int,
                 before: Callable[[], None] | None = None) -> float:
    times = []
    for i in range(repeat + 1):
        if before is not None:
            before()
        start = time.perf_counter()
        action()
        elapsed = time.perf_counter() - start
        if i:
            times.append(elapsed)
    return statistics.median(times)


def widget_timings(repeat: int = 15, browser: bool = True) -> list[tuple[str, float]]:
    """Median seconds per interaction for each widget on the 1943 board.

    Parameters
    ----------
    repeat : int, default 15
        Changes timed per interaction (after one warm-up change).
    browser : bool, default True
        Also measure in Chromium through Voila (:func:`browser_timings`), when available.

    Returns
    -------
    list of (str, float)
        ``(interaction, median seconds)``, e.g. ``("BoardExplorer die 6->7", 0.045)``.
    """
    out: list[tuple[str, float]] = []

    board = BoardExplorer()
    out.append(("BoardExplorer die 6->7 (new board)",
                _median_change(board.die, [7, 6], repeat, before=board._results.clear)))
    out.append(("BoardExplorer die 6->7 (board seen before)",
                _median_change(board.die, [7, 6], repeat)))
    out.append(("BoardExplorer overshoot stay->win",
                _median_change(board.overshoot, ["win", "stay"], repeat,
                               before=board._results.clear)))

    def toggle_jump() -> None:
        if 30 in board.board.jumps:
            board.jump_from.value = 30
            board.remove_jump.click()
        else:
            board.jump_from.value, board.jump_to.value = 30, 35
            board.add_jump.click()

    out.append(("BoardExplorer add/remove jump 30->35",
                _median_call(toggle_jump, repeat, before=board._results.clear)))

    def invalid_jump() -> None:
        board.jump_from.value, board.jump_to.value = 30, 1
        board.add_jump.click()

    out.append(("BoardExplorer invalid jump 30->1 (message)", _median_call(invalid_jump, repeat)))
    board.show_exact.value = True
    out.append(("BoardExplorer die 6->7 with the exact fraction",
                _median_change(board.die, [7, 6], repeat, before=board._results.clear)))

    # CoinFlipExplorer computes and draws in the page: a change of p costs Python a trait's sync
    # only (its page timing: the browser part below, and tests/test_coin_explorer_browser.py).

    # SimulationExplorer plays its games and draws in the page: a change of the cap costs Python
    # a trait's sync only (its page timing: the browser part below, and
    # tests/test_simulation_explorer_browser.py).
    sim = SimulationExplorer()
    out.append(("SimulationExplorer cap 0->60", _median_change(sim.cap, [60, 0], repeat)))

    jump = JumpExplorer()
    sources = [v for _, v in jump.jump_from.options]
    after = sources[sources.index(jump.jump_from.value) + 1]     # the next allowed source
    out.append((f"JumpExplorer from {jump.jump_from.value}->{after}",
                _median_change(jump.jump_from, [after, jump.jump_from.value], repeat)))
    targets = [v for _, v in jump.jump_to.options]
    after = targets[targets.index(jump.jump_to.value) + 1]
    out.append((f"JumpExplorer to {jump.jump_to.value}->{after}",
                _median_change(jump.jump_to, [after, jump.jump_to.value], repeat)))

    race = RaceExplorer()
    out.append(("RaceExplorer seat 2 square 0->10",
                _median_change(race.squares[1], [10, 0], repeat)))
    out.append(("RaceExplorer players 2->3", _median_change(race.players, [3, 2], repeat)))

    policy = PolicyExplorer()
    out.append(("PolicyExplorer P(exact) 0.50->0.55",
                _median_change(policy.exact, [0.55, 0.5], repeat)))
    out.append(("PolicyExplorer discount 0.90->0.80",
                _median_change(policy.discount, [0.8, 0.9], repeat)))

    # The PNG encoder: Pillow (what the widgets use) against the struct/zlib writer it replaced.
    for name, view in (("board 480x480", board.board_view),):
        pixels = np.asarray(view.canvas.buffer_rgba())
        for encoder, label in ((_png, "Pillow"), (_zlib_png, "struct/zlib baseline")):
            out.append((f"PNG of the {name} picture: {label}",
                        _median_call(functools.partial(encoder, pixels), repeat)))
    if browser:
        out.extend(browser_timings())
    return out


def _zlib_png(rgba: np.ndarray) -> bytes:
    """The hand-written encoder the widgets used before Pillow: no row filters, zlib level 1."""
    import struct
    import zlib
    height, width, _ = rgba.shape
    rows = np.empty((height, 1 + 3 * width), dtype=np.uint8)
    rows[:, 0] = 0
    rows[:, 1:] = rgba[:, :, :3].reshape(height, -1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows.tobytes(), 1)) + chunk(b"IEND", b""))


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
    out.extend(slider_comparison(presses))
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


# The board explorer twice in one page: its own die slider (a native range input, the accessible
# one) and, beside it, ipywidgets' IntSlider (what the explorers had before) driving the same
# explorer. Same kernel, same work per change: only the control differs.
_SIDE_BY_SIDE = """\
import ipywidgets as widgets
from IPython.display import display

from chutes_edu import BoardExplorer

explorer = BoardExplorer()
legacy = widgets.IntSlider(value=6, min=2, max=20, description="die faces")
legacy.add_class("legacy-die")
legacy.observe(lambda change: setattr(explorer.die, "value", change["new"]), names="value")
display(legacy, explorer)
"""


def slider_comparison(presses: int = PRESSES) -> list[tuple[str, float]]:
    """Key press to settled page: the accessible slider against ipywidgets' own, one explorer.

    Returns
    -------
    list of (str, float)
        Two rows, ``(slider, median seconds)``, measured alternately in one page; empty when
        Chromium, Playwright or Voila is missing.
    """
    if browser.missing() is not None:
        return []
    import nbformat

    with tempfile.TemporaryDirectory() as folder:
        notebook = Path(folder) / "sliders.ipynb"
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(_SIDE_BY_SIDE)])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                     "language": "python"}
        nbformat.write(nb, notebook)
        with browser.voila(notebook) as url, browser.chromium() as chromium:
            page = chromium.new_page(viewport={"width": 1300, "height": 1000})
            page.goto(url, timeout=240_000)
            root = page.locator(".chutes-board-explorer").first
            root.locator(".chutes-readout").first.wait_for(timeout=240_000)
            handles = {"accessible range input": root.locator(".chutes-die input[type=range]"),
                       "ipywidgets IntSlider": page.locator(".legacy-die .noUi-handle")}
            times: dict[str, list[float]] = {name: [] for name in handles}
            for _ in range(3):                    # alternate, so a drifting machine hits both
                for name, handle in handles.items():
                    root.evaluate(browser.WATCH, page.locator("body").element_handle())
                    times[name].append(_presses(page, handle, presses))
    return [(f"browser: BoardExplorer die slider, {name} (key to settled page)",
             statistics.median(values)) for name, values in times.items()]


if __name__ == "__main__":
    for name, seconds in widget_timings():
        flag = "ok" if seconds < 0.1 else "SLOW"
        print(f"{name:60s} {1000 * seconds:7.1f} ms  {flag}")
