"""How long an edit takes in the board editor, in a real browser, side by side with BoardExplorer.

Voila serves one notebook (written to a temporary folder) with a BoardExplorer on the 1943 board,
a BoardEditor on the 1943 board and a BoardEditor on a 400-square board (``random_board(400, 40,
seed=BIG_SEED)``), all on one page in Debian's Chromium. As in ``bench_widgets.browser_timings``,
the page notes the key press (``performance.now()`` at keydown) and every DOM mutation of the
widget, and an interaction has *settled* when the widget's readout has changed and no mutation
came for ``QUIET_MS`` (tests/browser.py); the time is key press to last mutation. Measured,
in one run:

- BoardExplorer: an arrow key on its die slider (it computes and draws in the page, as the
  editor does, with the same maths module);
- each editor: an arrow key on its die slider, rightwards from 6 to 12 faces (each a board the
  page has not seen, so nothing comes from its cache), and Enter ending a ladder drawn with the
  keyboard (Home, arrows to a square of the bottom row, Enter, up one to three rows; only the
  second Enter is timed; each ladder is undone, untimed, before the next, so each is new).

Goal (the board editor's issue): an edit settles within one frame, a median under 16 ms, on the
100-square board, and under 100 ms on the 400-square board. ``make bench`` prints the medians
(``benchmarks/bench.py`` calls :func:`editor_timings`); ``python benchmarks/bench_editor.py``
runs them alone. Nothing here is asserted: timings on shared machines are noisy.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import nbformat  # noqa: E402

from chutes_edu import MILTON_BRADLEY_1943, Board, random_board  # noqa: E402
from chutes_edu.plots.board import board_grid, square_center  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))          # the browser harness the tests use: tests/browser.py
from tests import browser  # noqa: E402

PRESSES = 8               # BoardExplorer's die slider: presses each way, as browser_timings
LADDERS = 12              # keyboard ladders timed per editor
BIG_SEED = 1              # the seed of the 400-square board
SETTLE_TIMEOUT = 60_000   # ms



def _notebook(folder: Path) -> Path:
    """The page: BoardExplorer, then the editor on the 1943 board, then on 400 squares."""
    nb = nbformat.v4.new_notebook()
    sources = ["from chutes_edu import BoardExplorer\n\nBoardExplorer()",
               "from chutes_edu import BoardEditor\n\nBoardEditor()",
               "from chutes_edu import BoardEditor, random_board\n\n"
               f"BoardEditor(random_board(400, 40, seed={BIG_SEED}))"]
    nb.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python",
                                 "name": "python3"}
    path = folder / "bench_editor.ipynb"
    nbformat.write(nb, path)
    return path


def _ladders(board: Board, count: int) -> list[tuple[int, int, int]]:
    """``(source, rows up, destination)`` for ladders from the bottom row that the board takes."""
    out = []
    _, cols = board_grid(board.size)
    for up in (1, 2, 3):
        for source in range(1, min(cols, board.size) + 1):
            x, y = square_center(source, board.size)
            above = [s for s in range(1, board.size + 1)
                     if square_center(s, board.size) == (x, y + up)]
            if not above:
                continue
            try:
                board.with_jump(source, above[0])
            except ValueError:
                continue
            out.append((source, up, above[0]))
    return out[:count]


def _settle(page: Any) -> float:
    """Seconds from the last key press to the last mutation, once the page has settled."""
    page.wait_for_function(browser.SETTLED, timeout=SETTLE_TIMEOUT, polling=20)
    t0, last = page.evaluate("[window.__chutes.t0, window.__chutes.last]")
    return float(last - t0) / 1000


def _explorer_die(page: Any, presses: int) -> list[float]:
    root = page.locator(".chutes-board-explorer").first
    handle = root.locator(".chutes-die input[type=range]").first
    handle.scroll_into_view_if_needed()
    root.evaluate(browser.WATCH)
    times = []
    for i, key in enumerate(["ArrowRight"] * presses + ["ArrowLeft"] * presses):
        handle.press(key)
        elapsed = _settle(page)
        if i not in (0, presses):                     # the first move each way warms up
            times.append(elapsed)
    return times


def _editor_die(root: Any, page: Any) -> list[float]:
    handle = root.locator(".chutes-editor-die input[type=range]").first
    handle.scroll_into_view_if_needed()
    root.evaluate(browser.WATCH)
    times = []
    for i in range(6):                                # 6 -> 12 faces: new boards only
        handle.press("ArrowRight")
        elapsed = _settle(page)
        if i:
            times.append(elapsed)
    for _ in range(6):                                # back to 6, untimed
        handle.press("ArrowLeft")
        _settle(page)
    return times


def _editor_ladders(root: Any, page: Any, board: Board) -> list[float]:
    svg = root.locator("svg.chutes-editor-board").first
    svg.scroll_into_view_if_needed()
    root.evaluate(browser.WATCH)
    times = []
    for i, (source, up, _) in enumerate(_ladders(board, LADDERS + 1)):
        svg.focus()
        for key in ["Home", *["ArrowRight"] * source, "Enter", *["ArrowUp"] * up]:
            svg.press(key)
        svg.press("Enter")                            # the edit: the ladder is added
        elapsed = _settle(page)
        if i:                                         # the first one warms up
            times.append(elapsed)
        svg.press("Control+z")                        # untimed: back to the board
        _settle(page)
    return times


def editor_timings(screenshots: Path | None = None) -> list[tuple[str, float]]:
    """Median seconds from a key press to the settled page, BoardExplorer and BoardEditor.

    Parameters
    ----------
    screenshots : pathlib.Path, optional
        A folder for one screenshot of each editor after its edits.

    Returns
    -------
    list of (str, float)
        ``("browser: <widget> <interaction>", median seconds)``; empty, with the reason on
        stderr, when Chromium, Playwright or Voila is missing.
    """
    missing = browser.missing()
    if missing is not None:
        print(f"(board editor timings skipped: {missing})", file=sys.stderr)
        return []
    big = random_board(400, 40, seed=BIG_SEED)
    out: list[tuple[str, float]] = []
    with (tempfile.TemporaryDirectory() as folder, browser.voila(_notebook(Path(folder))) as url,
          browser.chromium() as chromium):
        page = chromium.new_page(viewport={"width": 1300, "height": 1000})
        page.goto(url, timeout=240_000)
        page.wait_for_function("document.querySelectorAll('.chutes-editor-readout').length >= 2"
                               " && document.querySelectorAll('.chutes-readout').length >= 1",
                               timeout=240_000)
        times = _explorer_die(page, PRESSES)
        out.append(("browser: BoardExplorer die slider (in the page)",
                    statistics.median(times)))
        for index, (label, board) in enumerate([("1943 board", MILTON_BRADLEY_1943),
                                                 ("400 squares", big)]):
            root = page.locator(".chutes-editor").nth(index)
            out.append((f"browser: BoardEditor {label}, die slider",
                        statistics.median(_editor_die(root, page))))
            out.append((f"browser: BoardEditor {label}, add a ladder (Enter)",
                        statistics.median(_editor_ladders(root, page, board))))
            if screenshots is not None:
                screenshots.mkdir(parents=True, exist_ok=True)
                root.screenshot(path=str(screenshots / f"bench_board_editor_{index}.png"))
    return out


GOALS = {"1943 board": 0.016, "400 squares": 0.100}
"""The issue's goals per editor board, in seconds."""


def goal_of(name: str) -> float | None:
    """The goal for a timing's name (the explorers' 16 ms for BoardExplorer)."""
    if "BoardEditor" not in name:
        return 0.016
    return next((goal for board, goal in GOALS.items() if board in name), None)


if __name__ == "__main__":
    for name, seconds in editor_timings():
        goal = goal_of(name)
        flag = "" if goal is None else ("ok" if seconds < goal else f"OVER {goal * 1e3:.0f} ms")
        print(f"{name:60s} {1000 * seconds:7.1f} ms  {flag}")
