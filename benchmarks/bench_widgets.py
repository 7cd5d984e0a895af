"""How long one widget interaction takes, headless: set a control's ``.value`` and time until the
handlers have re-computed and re-drawn every output (they run synchronously, so the assignment
returns only when the readout and the pictures, PNG bytes included, are updated).

Goal (issue 3): under 100 ms per control change on the standard board. ``widget_timings()``
returns the median of several changes per interaction; ``benchmarks/bench.py`` prints them, and
``python benchmarks/bench_widgets.py`` runs them alone. Nothing here is asserted: timings on shared
machines are noisy.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from typing import Any  # noqa: E402

from chutes_edu import (  # noqa: E402
    BoardExplorer,
    CoinFlipExplorer,
    JumpExplorer,
    RaceExplorer,
    SimulationExplorer,
)


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


def _median_call(action: Callable[[], None], repeat: int,
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


def widget_timings(repeat: int = 15) -> list[tuple[str, float]]:
    """Median seconds per interaction for each widget on the 1943 board.

    Parameters
    ----------
    repeat : int, default 15
        Changes timed per interaction (after one warm-up change).

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

    coin = CoinFlipExplorer()
    out.append(("CoinFlipExplorer p 0.50->0.51 (1,000 trials)",
                _median_change(coin.p, [0.51, 0.5], repeat)))

    sim = SimulationExplorer()
    out.append(("SimulationExplorer cap 0->60", _median_change(sim.cap, [60, 0], repeat)))
    out.append(("SimulationExplorer run 10,000 games (button)",
                _median_call(sim.run.click, max(3, repeat // 3))))

    jump = JumpExplorer()
    out.append(("JumpExplorer from 27->28", _median_change(jump.jump_from, [28, 27], repeat)))

    race = RaceExplorer()
    out.append(("RaceExplorer seat 2 square 0->10",
                _median_change(race.squares[1], [10, 0], repeat)))
    out.append(("RaceExplorer players 2->3", _median_change(race.players, [3, 2], repeat)))
    return out


if __name__ == "__main__":
    for name, seconds in widget_timings():
        flag = "ok" if seconds < 0.1 else "SLOW"
        print(f"{name:50s} {1000 * seconds:7.1f} ms  {flag}")
