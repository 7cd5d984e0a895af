"""Self-checks for exercise set 7 (lessons/07_simulation.ipynb).

The set's numbers ``n`` (:mod:`chutes_edu.variants`) are declared at the top of the set: the die
and start square of the board of 7.1 to 7.3, the half-width of 7.2, the runs of Hochman's that 7.5
pools and the confidence level of 7.7.
"""

from __future__ import annotations

import math
from fractions import Fraction
from statistics import NormalDist
from typing import Any

import numpy as np

from chutes_edu import (
    MILTON_BRADLEY_1943,
    Board,
    expected_turns,
    running_mean,
    simulate,
    turn_distribution,
)
from chutes_edu.checks import Numbers, close, one_of, register, whole_number
from chutes_edu.checks.exact import variance_from

# Seed 002, section 5: its five reported runs of 1,000,000 games, in order (cited data).
_SEED_002_RUNS = (39.225808, 39.251338, 39.221559, 39.295085, 39.211283)


def _moments(board: Board, start: int = 0) -> tuple[float, float]:
    """Mean and standard deviation of the game length from ``start``, from its distribution (any
    board, bonus rolls included)."""
    pmf = turn_distribution(board, start=start)
    k = np.arange(pmf.size)
    mu = float((k * pmf).sum())
    return mu, math.sqrt(float((k**2 * pmf).sum()) - mu**2)


def _exact_moments(board: Board, start: int = 0) -> tuple[float, float]:
    """Mean and standard deviation of the game length from ``start``, from their exact values
    (a board without bonus rolls or traps, :func:`chutes_edu.checks.exact.variance_from`):
    the mean and the variance rounded once to floats, the deviation the square root of that float
    (IEEE's correctly rounded sqrt), so the same on every machine; sums over a truncated
    ``turn_distribution`` differ between BLAS kernels in the eleventh digit."""
    mu = Fraction(str(expected_turns(board, exact=True)[start]))
    return float(mu), math.sqrt(float(variance_from(board, start)))


def _board(n: Numbers) -> Board:
    """The board of 7.1 to 7.3: the 1943 board with the set's die."""
    return MILTON_BRADLEY_1943.replace(die=n.die)


# --------------------------------------------------------------------------- 7.1
@register("7.1", hint="Take pmf = turn_distribution(your_board, start=n.start); the variance is "
                      "the mean of k**2 minus the square of the mean of k, both weighted by "
                      "pmf[k].")
def _ex_7_1(answer: Any, n: Numbers) -> bool:
    return close(_exact_moments(_board(n), n.start)[1], rel=1e-6)(answer)


# --------------------------------------------------------------------------- 7.2
@register("7.2", hint="Solve 1.96 * sigma / sqrt(games) <= n.width for the number of games, where "
                      "sigma is the standard deviation you computed exactly in 7.1; then round up "
                      "to a whole number of games (math.ceil).")
def _ex_7_2(answer: Any, n: Numbers) -> bool:
    # exact: n >= (1.96 sigma / width)^2 with the exact variance (a float sigma from a truncated
    # distribution is off in its tenth digit, enough to move the rounding up for small widths)
    needed = math.ceil(Fraction(196, 100) ** 2 * variance_from(_board(n), n.start)
                       / Fraction(str(n.width)) ** 2)
    return whole_number(needed)(answer)


# --------------------------------------------------------------------------- 7.3
@register("7.3", hint="A capped game counts min(k, 100) turns when it really takes k. Weight "
                      "min(k, 100) by pmf[k] = P(T = k) from turn_distribution (your board, "
                      "your start square) and add up.")
def _ex_7_3(answer: Any, n: Numbers) -> bool:
    pmf = turn_distribution(_board(n), start=n.start)
    k = np.arange(pmf.size)
    return close(float((np.minimum(k, 100) * pmf).sum()), rel=1e-7)(answer)


# --------------------------------------------------------------------------- 7.4
_SMALL_BOARDS = (
    (Board({2: 6, 7: 3}, size=10, die=4), 11),
    (Board({2: 6, 7: 3}, size=10, die=4, overshoot="bounce", bonus_roll=4), 12),
)


def _looks_like_the_game(lengths: np.ndarray, board: Board, n: int) -> bool:
    """The simulated lengths agree with the exact distribution within 4.5 standard errors."""
    pmf = turn_distribution(board)
    mu, sigma = _moments(board)
    if abs(lengths.mean() - mu) > 4.5 * sigma / math.sqrt(n):
        return False
    shortest = int(np.flatnonzero(pmf)[0])
    if lengths.min() < shortest:
        return False
    p = float(pmf[shortest])
    return abs(np.mean(lengths == shortest) - p) <= 4.5 * math.sqrt(p * (1 - p) / n)


@register("7.4", hint="Use one rng = random.Random(seed) for all games. In each turn roll "
                      "rng.randint(1, board.faces) and move with board.landing(square, face); "
                      "if the face is board.bonus_roll and the game is not over, roll again in the "
                      "same turn. Return an integer numpy array of n_games lengths.",
          function=True)
def _ex_7_4(slow_simulate: Any) -> bool:
    n = 4000
    for board, seed in _SMALL_BOARDS:
        lengths = np.asarray(slow_simulate(board, n, seed))
        if lengths.shape != (n,) or not np.issubdtype(lengths.dtype, np.integer):
            return False
        if not np.array_equal(lengths, np.asarray(slow_simulate(board, n, seed))):
            return False            # the same seed must give the same games
        if not _looks_like_the_game(lengths, board, n):
            return False
    return True


# --------------------------------------------------------------------------- 7.5
@register("7.5", hint="Average the reported means of the runs you pool, subtract the exact "
                      "expected length of the 1943 board and divide by the standard error of a "
                      "mean of all their games, sigma / sqrt(1_000_000 * number of runs), "
                      "where sigma is the exact standard deviation of the 1943 board from square "
                      "0 (7.1's computation for Hochman's board). Keep the sign.")
def _ex_7_5(answer: Any, n: Numbers) -> bool:
    exact = float(expected_turns(MILTON_BRADLEY_1943)[0])
    sigma = _exact_moments(MILTON_BRADLEY_1943)[1]
    runs = [int(run) for run in n.runs.split(",")]
    pooled = sum(_SEED_002_RUNS[run - 1] for run in runs) / len(runs)
    return close((pooled - exact) / (sigma / math.sqrt(1_000_000 * len(runs))),
                 rel=1e-4)(answer)


# --------------------------------------------------------------------------- 7.6
@register("7.6", hint="Think of many people each running five honest simulations. How often "
                      "would one of their five runs be that far out? And what do all five runs "
                      "say together?")
def _ex_7_6(answer: Any) -> bool:
    return one_of("c")(answer)


# --------------------------------------------------------------------------- 7.7
@register("7.7", hint="For each seed 0..199 simulate 100 games with that seed; the run's "
                      "interval is its mean ± its last running_mean half-width, with the z of "
                      "your level (running_mean(..., z=z)). Count the runs whose interval "
                      "contains expected_turns(board)[0] and divide by 200.")
def _ex_7_7(answer: Any, n: Numbers) -> bool:
    exact = float(expected_turns(MILTON_BRADLEY_1943)[0])
    z = NormalDist().inv_cdf(0.5 + n.level / 200)
    hits = 0
    for seed in range(200):
        mean, half = running_mean(simulate(MILTON_BRADLEY_1943, 100, seed=seed), z=z)
        hits += abs(mean[-1] - exact) <= half[-1]
    return close(hits / 200, rel=0.0, abs_tol=0.016)(answer)
