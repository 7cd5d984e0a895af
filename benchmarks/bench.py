"""Speed ratios, measured side by side in one run (`make bench`).

These machines are noisy, so we never assert wall-clock times in tests. Instead each library call is
timed against a plain baseline in the same process, alternating runs and keeping the median, and
the *ratio* is compared with the goal from the core issue:

- simulate: >= 30x faster per game than a plain Python loop playing one game at a time;
- expected_turns(exact=True): >= 100x faster than sympy ``Matrix.LUsolve`` on the same system;
- jump_effects: >= 100x faster than re-solving every changed board;
- expected_turns and turn_distribution: no slower (ratio >= 1) than a straightforward numpy version;
- explorers (with Chromium): one control change settles the page in < 16 ms;
- the board editor (``bench_editor.py``, with Chromium): an edit settles the page in < 16 ms on
  the 100-square board and < 100 ms on a 400-square one, printed beside BoardExplorer's die
  slider, measured in the same page;
- big boards (issue 13): on ``random_board(4000, 400, seed=1)`` expected_turns >= 50x faster than a
  dense ``np.linalg.solve`` of the same system (and equal to 1e-9); a 10,000-square board faster
  than that dense solve at 4,000 squares. Then times (no goal) for building and validating boards,
  the length distribution, simulation and a slice of jump_effects on big boards, and how the
  exact solve grows with the size;
- long games (issue 36): quasi_stationary_distribution on random_board(n, n // 10, seed=6) at
  1,000 and 3,000 squares against np.linalg.eigvals of the same board's dense Q (>= 1x and >=
  10x), and at 10,000 squares against that dense eigvals at 3,000 (>= 1x);
- the website (``bench_site.py``, with Chromium): the longest task of the main thread while each
  lesson page loads and typesets its maths, goal: none over 200 ms on an idle machine;
- design_board (the audit of the design module): the exhaustive search over every valid pair of
  added jumps on the 1943 board for a 25-turn game, in under 60 s (its time against that goal,
  the design it finds, and its cost in units of one expected_turns solve);
- the website at phone speed (``bench_lighthouse.py``, issue 52): Lighthouse's mobile preset on
  every page of ``_build/html`` (``make site``), served compressed; performance, LCP, TBT, CLS,
  bytes, longest task, console errors and accessibility per page against the issue's goals
  (``BENCH_LIGHTHOUSE=0`` skips it);
- autograde of a class (``bench_autograde.py``): 120 submissions of set 1, each in its sandbox,
  graded by ``python -m chutes_teacher.autograde --jobs 2`` (a time, no goal; ``BENCH_AUTOGRADE=N``
  submissions, 0 skips it; ``BENCH_JOBS``).

Exit status 0 whatever the numbers (a benchmark reports; the tests decide correctness).
"""

from __future__ import annotations

import functools
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# 100x100 matrices are faster on one BLAS thread, and a second thread only adds noise when the
# two cores are busy; library and baselines share the setting. OpenBLAS reads it once, when numpy
# is imported, so the imports of numpy (and of what imports numpy) must come after it.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402 - after the BLAS thread setting above
import sympy  # noqa: E402 - imports numpy

from chutes_edu import (  # noqa: E402 - imports numpy
    MILTON_BRADLEY_1943,
    Board,
    TargetLength,
    design_board,
    expected_turns,
    jump_effects,
    quasi_stationary_distribution,
    random_board,
    simulate,
    transition_matrix,
    turn_distribution,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))      # bench_widgets, run from anywhere

BOARD = MILTON_BRADLEY_1943
JUMPS = dict(BOARD.jumps)
N = BOARD.size


def _median_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _side_by_side(ours: Callable[[], object], base: Callable[[], object],
                  repeat: int) -> tuple[float, float]:
    """Alternate the two so that both see the same machine load; medians of each."""
    a, b = [], []
    for _ in range(repeat):
        a.append(_median_time(ours, 1))
        b.append(_median_time(base, 1))
    return statistics.median(a), statistics.median(b)


# --------------------------------------------------------------------------- baselines
def python_loop_games(n_games: int, seed: int = 0) -> list[int]:
    """The plain way: one game at a time, one roll at a time, rules written out."""
    rng = random.Random(seed)
    lengths = []
    for _ in range(n_games):
        square, turns = 0, 0
        while square != N:
            turns += 1
            target = square + rng.randint(1, 6)
            if target <= N:
                square = JUMPS.get(target, target)
        lengths.append(turns)
    return lengths


def plain_q() -> np.ndarray:
    """Q built with loops from the jump dictionary (the blog post style)."""
    Q = np.zeros((N, N))
    for i in range(N):
        for r in range(1, 7):
            target = i if i + r > N else JUMPS.get(i + r, i + r)
            if target < N:
                Q[i, target] += 1 / 6
    return Q


def plain_expected() -> np.ndarray:
    return np.linalg.solve(np.eye(N) - plain_q(), np.ones(N))


def plain_distribution() -> np.ndarray:
    Q = plain_q()
    finish = 1 - Q.sum(axis=1)
    v = np.zeros(N)
    v[0] = 1.0
    pmf = [0.0]
    while v.sum() >= 1e-12:
        pmf.append(v @ finish)
        v = v @ Q
    return np.array(pmf)


def fresh_board() -> Board:
    """A new Board each time, so no cached matrices help the library."""
    return Board(JUMPS, size=N, die=6)


def _cold(fn: Callable[[Board], object]) -> Callable[[], object]:
    """Call ``fn`` on a board built outside the timing whose caches are empty."""
    def call() -> object:
        return fn(boards.pop())
    boards = [fresh_board() for _ in range(200)]
    return call


def sympy_lusolve() -> sympy.Matrix:
    Q = plain_q()
    A = sympy.Matrix(N, N, lambda i, j: (1 if i == j else 0)
                     - sympy.Rational(round(float(Q[i, j]) * 6), 6))
    return A.LUsolve(sympy.Matrix([1] * N))


def resolve_every_jump(with_library: bool) -> int:
    """Re-solve each board with one more jump a -> b (the brute-force sweep)."""
    count = 0
    Q0 = plain_q()
    dests = set(JUMPS.values())
    for a in range(1, N):
        if a in JUMPS or a in dests:
            continue
        for b in range(N + 1):
            if b == a or b in JUMPS:
                continue
            if with_library:
                expected_turns(BOARD.with_jump(a, b))
            else:
                Q = Q0.copy()
                if b < N:
                    Q[:, b] += Q[:, a]
                Q[:, a] = 0.0
                np.linalg.solve(np.eye(N) - Q, np.ones(N))
            count += 1
    return count


def dense_system(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """The first-step system (I - Q) t = 1 of a board without traps or bonus rolls, as a dense
    matrix built from its landing table (what a dense solver would be handed)."""
    n, faces = board.size, board.faces
    A = np.eye(n)
    table = board._roll_table[:n]
    inside = table < n
    rows = np.repeat(np.arange(n), faces).reshape(n, faces)
    np.add.at(A, (rows[inside], table[inside]), -1.0 / faces)
    return A, np.ones(n)


def cold_copy(board: Board) -> Board:
    """An equal board with empty caches."""
    return board.replace(name=board.name)


def exact_growth(sizes: tuple[int, ...] = (100, 200, 400, 800)) -> list[tuple[int, float]]:
    """Seconds for expected_turns(exact=True) on random boards (size // 10 jumps) of each size."""
    def solve_exact(size: int) -> Callable[[], object]:
        boards = [random_board(size, size // 10, seed=1) for _ in range(3)]   # caches empty

        def call() -> object:
            return expected_turns(boards.pop(), exact=True)
        return call

    return [(size, _median_time(solve_exact(size), 1 if size >= 400 else 3)) for size in sizes]


def big_boards(add: Callable[[str, float, float, float], None]) -> None:
    """Issue 13: boards of 4,000 and 10,000 squares."""
    print("\nbig boards (issue 13)")
    big = random_board(4_000, 400, seed=1)
    huge = random_board(10_000, 1_000, seed=1)
    A, ones = dense_system(big)
    dense = np.linalg.solve(A, ones)
    ours = expected_turns(cold_copy(big))[:-1]
    error = float(np.abs(ours - dense).max() / np.abs(dense).max())
    copies = [cold_copy(big) for _ in range(3)]
    fast, slow = _side_by_side(lambda: expected_turns(copies.pop()),
                               lambda: np.linalg.solve(A, ones), repeat=3)
    add(f"expected_turns 4,000 sq. vs dense solve (err {error:.0e})", fast, slow, 50)
    copies = [cold_copy(huge) for _ in range(3)]
    ours_huge = _median_time(lambda: expected_turns(copies.pop()), 3)
    add("expected_turns 10,000 sq. vs dense solve at 4,000", ours_huge, slow, 1)
    timings = [
        ("Board validation, 10,000 squares, 1,000 jumps",
         _median_time(lambda: huge.replace(name="again"), 5)),
        ("random_board(10_000, 1_000)", _median_time(lambda: random_board(10_000, 1_000,
                                                                          seed=2), 3)),
        ("simulate 1,000 games, 4,000 squares", _median_time(lambda: simulate(big, 1_000,
                                                                              seed=1), 3)),
        ("jump_effects 4,000 sq., 40 sources x all", _median_time(
            lambda: jump_effects(cold_copy(big), sources=range(1, 4_000, 100)), 3)),
        ("turn_distribution 4,000 squares", _median_time(lambda: turn_distribution(
            cold_copy(big)), 1)),
    ]
    for name, seconds in timings:
        print(f"{'(' + name + ')':<46} {seconds * 1e3:10.1f} ms", flush=True)
    print("expected_turns(exact=True) on random_board(n, n // 10), by size n (no goal):")
    for size, seconds in exact_growth():
        print(f"{'  n = ' + str(size):<46} {seconds * 1e3:10.1f} ms", flush=True)


def _qsd_of_next(boards: list[Board]) -> object:
    return quasi_stationary_distribution(boards.pop())


def long_games(add: Callable[[str, float, float, float], None]) -> None:
    """Issue 36: quasi_stationary_distribution on boards of 1,000, 3,000 and 10,000 squares
    (random_board(n, n // 10, seed=6)), against np.linalg.eigvals of the dense Q of the same board
    (what the decay rate alone cost before: it grows like n^3, 15 s at 3,000 squares)."""
    print("\nlong games: quasi_stationary_distribution (issue 36)")

    def dense_q(board: Board) -> np.ndarray:
        live = [s for s in range(board.size) if s not in board.jumps]
        return transition_matrix(board)[np.ix_(live, live)]

    slowest = 0.0
    for size, goal in ((1_000, 1), (3_000, 10)):
        board = random_board(size, size // 10, seed=6)
        Q = dense_q(board)
        copies = [cold_copy(board) for _ in range(3)]
        ours, base = _side_by_side(functools.partial(_qsd_of_next, copies),
                                   functools.partial(np.linalg.eigvals, Q),
                                   repeat=1 if size > 1_000 else 3)
        add(f"qsd {size:,} sq. vs dense eigvals of Q", ours, base, goal)
        slowest = base
    huge = random_board(10_000, 1_000, seed=6)
    ours = _median_time(functools.partial(_qsd_of_next, [cold_copy(huge) for _ in range(3)]), 3)
    add("qsd 10,000 sq. vs dense eigvals at 3,000", ours, slowest, 1)


def design_search(add: Callable[[str, float, float, float], None]) -> None:
    """The exhaustive search over every valid pair of added jumps on the 1943 board, for a
    25-turn game: its wall time against the 60 s goal (reported as goal / time, >= 1x)."""
    print("\ndesign_board: exhaustive search, 2 added jumps, 1943 board, TargetLength(25)")
    start = time.perf_counter()
    design = design_board(BOARD, TargetLength(25), max_jumps=2, method="exhaustive")
    seconds = time.perf_counter() - start
    add("design_board 2-jump exhaustive vs 60 s goal", seconds, 60.0, 1)
    solve = _median_time(_cold(expected_turns), 20)
    jumps = ", ".join(f"{a}->{b}" for a, b in design.added)
    print(f"{'(the same, in expected_turns solves)':<46} {seconds / solve:10.0f} solves "
          f"for {design.priced:,} designs priced", flush=True)
    print(f"{'(found)':<46} {jumps}: exactly {float(design.exact_mean):.9f} turns, "
          f"off by {float(abs(design.exact_mean - 25)):.2e}, proven optimal: "
          f"{design.proven_optimal}", flush=True)


# --------------------------------------------------------------------------- report
def main() -> int:
    rows: list[tuple[str, float, float, str, bool]] = []

    def add(name: str, ours: float, base: float, goal: float) -> None:
        ratio = base / ours
        rows.append((name, ours, base, f">= {goal:g}x", ratio >= goal))
        verdict = "ok" if ratio >= goal else "BELOW GOAL"
        print(f"{name:<46} ours {ours * 1e3:10.3f} ms   baseline {base * 1e3:10.3f} ms   "
              f"ratio {ratio:8.1f}x   goal >= {goal:g}x   {verdict}", flush=True)

    print("chutes_edu benchmark: medians, library vs baseline in the same run\n")
    simulate(BOARD, 1000, seed=0)                 # warm-up (imports, caches of numpy)
    games_fast, games_slow = 400_000, 10_000
    ours, base = _side_by_side(lambda: simulate(BOARD, games_fast, seed=1),
                               lambda: python_loop_games(games_slow, seed=1), repeat=3)
    add(f"simulate, per game ({games_fast} vs {games_slow} games)", ours / games_fast,
        base / games_slow, 30)

    ours = _median_time(_cold(lambda b: expected_turns(b, exact=True)), 5)
    base = _median_time(sympy_lusolve, 1)
    add("expected_turns(exact=True) vs sympy LUsolve", ours, base, 100)

    ours = _median_time(lambda: jump_effects(fresh_board()), 5)
    count = resolve_every_jump(with_library=False)
    bare = _median_time(lambda: resolve_every_jump(with_library=False), 1)
    lib = _median_time(lambda: resolve_every_jump(with_library=True), 1)
    add(f"jump_effects vs {count} library re-solves", ours, lib, 100)
    add(f"jump_effects vs {count} bare numpy re-solves", ours, bare, 100)

    # The baseline builds its matrix from the jump list and solves; so does the library, from a
    # Board built beforehand (caches empty). Board validation is reported on its own line.
    ours, base = _side_by_side(_cold(expected_turns), plain_expected, repeat=50)
    add("expected_turns vs loops + np.linalg.solve", ours, base, 1)
    ours, base = _side_by_side(_cold(turn_distribution), plain_distribution, repeat=30)
    add("turn_distribution vs v @ Q loop", ours, base, 1)
    build = _median_time(fresh_board, 50)
    print(f"{'(Board construction and validation)':<46} {build * 1e3:10.3f} ms")
    big_boards(add)
    long_games(add)
    design_search(add)

    timings: Callable[[], list[tuple[str, float]]] | None
    try:
        from bench_widgets import widget_timings
    except ImportError:
        timings = None
    else:
        timings = widget_timings
    if timings is not None:
        print("\nexplorers: one control change, key press to settled page (goal < 16 ms)")
        for name, seconds in timings():
            verdict = "ok" if seconds < 0.016 else "OVER 16 ms"
            print(f"{name:<46} {seconds * 1e3:10.1f} ms   {verdict}")
    try:
        from bench_editor import editor_timings, goal_of
    except ImportError:
        pass
    else:
        print("\nboard editor: key press to settled page in Chromium, beside BoardExplorer's "
              "die slider (goals: 16 ms on 100 squares, 100 ms on 400)")
        for name, seconds in editor_timings():
            goal = goal_of(name) or 0.1
            verdict = "ok" if seconds < goal else f"OVER {goal * 1e3:.0f} ms"
            print(f"{name:<46} {seconds * 1e3:10.1f} ms   {verdict}")

    try:
        from bench_site import GOAL_MS, browser, print_table, site_timings
    except ImportError:
        pass
    else:
        why = browser.missing(voila=False)
        if why is not None:
            print(f"\n(website timings skipped: {why})")
        else:
            print(f"\nwebsite: each lesson page loaded in Chromium, its longest task (goal: none "
                  f"over {GOAL_MS:.0f} ms; bench_site.py)")
            print_table(site_timings())
    site = Path(__file__).resolve().parent.parent / "_build" / "html"
    if os.environ.get("BENCH_LIGHTHOUSE", "1") == "0":
        pass
    elif not (site / "index.html").exists():
        print("\n(Lighthouse skipped: no website in _build/html; make site)")
    else:
        from bench_lighthouse import CHROMIUM, HEADER, lighthouse_rows, print_row

        print("\nwebsite at phone speed: Lighthouse's mobile preset on every page, served "
              "compressed (goals: performance >= 90, LCP <= 2.5 s, TBT <= 200 ms, CLS <= 0.1, "
              "<= 600 KiB, no task over 200 ms, no console error, accessibility 100; "
              "bench_lighthouse.py; BENCH_LIGHTHOUSE=0 skips it)")
        if not Path(CHROMIUM).exists():
            print(f"(skipped: no Chromium at {CHROMIUM})")
        else:
            print(HEADER, flush=True)
            lighthouse_rows(site, each=print_row)
    if os.environ.get("BENCH_AUTOGRADE", "120") != "0":
        from bench_autograde import autograde_timing

        count = int(os.environ.get("BENCH_AUTOGRADE", "120"))
        print(f"\nautograde of a class (chutes_teacher.autograde, each submission in a sandbox; "
              f"BENCH_AUTOGRADE={count} submissions, 0 skips it)")
        for name, seconds in autograde_timing(count, int(os.environ.get("BENCH_JOBS", "2"))):
            print(f"{name:<46} {seconds:10.1f} s")

    below = [r[0] for r in rows if not r[4]]
    print("\nall ratios at or above their goals" if not below else f"\nbelow goal: {below}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
