"""Self-checks for exercise set 6 (lessons/06_game_length.ipynb).

The set's numbers ``n`` (:mod:`chutes_edu.variants`) are declared at the top of the set: the
threshold and die of 6.1, the die and start square of 6.2, the coin board of 6.4, the board and die
of 6.6 and the threshold and overshoot rule of 6.7.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from chutes_edu import (
    MILTON_BRADLEY_1943,
    MILTON_BRADLEY_1943_CHUTE_48,
    Board,
    expected_turns,
    fundamental_matrix,
    quasi_stationary_distribution,
    turn_distribution,
)
from chutes_edu._lazy import sympy
from chutes_edu.checks import Numbers, close, exactly, one_of, register, whole_number
from chutes_edu.checks.exact import first_cdf_at_least


def _coin_board(n: Numbers) -> Board:
    """The small board of exercise 6.4: squares 0..size, a coin (faces 1 and 2), one chute."""
    two = Fraction(n.two, 100)
    return Board({n.chute_top: n.chute_bottom}, size=n.coin_size, die=(1 - two, two),
                 name="coin board of exercise 6.4")


# (board, start) pairs the student's shortest_game of exercise 6.3 is tried on (no bonus rolls).
_SHORTEST_CASES = (
    (MILTON_BRADLEY_1943, 0),
    (MILTON_BRADLEY_1943, 50),
    (MILTON_BRADLEY_1943_CHUTE_48, 0),
    (MILTON_BRADLEY_1943.replace(die=2), 0),
    (Board({3: 7, 8: 2}, size=10, die=3), 0),
    (Board({5: 0, 7: 13}, size=15, die=4, overshoot="bounce"), 2),
    (Board({2: 0}, size=4, die=2), 0),
)


def _exact_variance(board: Board, start: int) -> sympy.Rational:
    """Var T from ``start`` by Var = (2N - I) t - t*t, in exact arithmetic."""
    n = board.size
    N = fundamental_matrix(board, exact=True)
    t = expected_turns(board, exact=True)[:n, 0]
    second_moment = (2 * N - sympy.eye(n)) * t
    return second_moment[start] - t[start] ** 2


# --------------------------------------------------------------------------- 6.1
@register("6.1", hint="Build the house-rule board with .replace(...), take its turn_distribution "
                      "and add up P(T = k) for every k beyond your threshold (that is more "
                      "accurate than 1 minus the cdf).")
def _ex_6_1(answer: Any, n: Numbers) -> bool:
    pmf = turn_distribution(MILTON_BRADLEY_1943.replace(overshoot="win", die=n.house_die))
    return close(pmf[n.long + 1:].sum(), rel=1e-6)(answer)


# --------------------------------------------------------------------------- 6.2
@register("6.2", hint="Take the cumulative sum of the pmf of the blog post's board "
                      "(MILTON_BRADLEY_1943_CHUTE_48, with your die, from your start square) and "
                      "find the first k at which it reaches 0.95 (np.flatnonzero or "
                      "np.searchsorted). The answer is a number of turns.")
def _ex_6_2(answer: Any, n: Numbers) -> bool:
    board = MILTON_BRADLEY_1943_CHUTE_48.replace(die=n.die)
    # exact: the first k with P(T <= k) >= 0.95, in integers (no rounding at the threshold)
    return whole_number(first_cdf_at_least(board, Fraction(95, 100), n.start))(answer)


# --------------------------------------------------------------------------- 6.3
@register("6.3", hint="Breadth-first search: the squares reachable in one turn from the start, "
                      "then in two, and so on (board.landing for every face), until square "
                      "board.size is among them. Count the turns, not the squares.",
          function=True)
def _ex_6_3(answer: Any) -> bool:
    for board, start in _SHORTEST_CASES:
        want = int(np.flatnonzero(turn_distribution(board, start=start))[0])
        if not whole_number(want)(answer(board, start)):
            return False
    return True


# --------------------------------------------------------------------------- 6.4
@register("6.4", hint="Use fundamental_matrix(..., exact=True) and expected_turns(..., exact=True) "
                      "(drop the last entry of t, the final square) and the formula "
                      "Var T = (2N - I) t - t*t, entry 0. The answer is a fraction.")
def _ex_6_4(answer: Any, n: Numbers) -> bool:
    return exactly(_exact_variance(_coin_board(n), 0))(answer)


# --------------------------------------------------------------------------- 6.5
@register("6.5", hint="Picture the shape of the distribution: where are the rare games, and "
                      "which of the three statistics feels how long they are?")
def _ex_6_5(answer: Any) -> bool:
    return one_of("a")(answer)


# --------------------------------------------------------------------------- 6.6
@register("6.6", hint="Make your board with .replace(overshoot=..., die=...); Q is the "
                      "top-left 100 x 100 block of its transition_matrix. Keep only the squares a "
                      "game from square 0 can stand on (follow the positive entries of Q from 0), "
                      "and take the eigenvalue of largest absolute value of Q on them (it is real "
                      "and positive), as a float.")
def _ex_6_6(answer: Any, n: Numbers) -> bool:
    base = MILTON_BRADLEY_1943 if n.bounce_board == "1943" else MILTON_BRADLEY_1943_CHUTE_48
    bounce = base.replace(overshoot="bounce", die=n.bounce_die)
    return close(quasi_stationary_distribution(bounce).decay_rate, rel=1e-6)(answer)


# --------------------------------------------------------------------------- 6.7
def _heaviest_tail(n: Numbers) -> float:
    """The largest P(T > tail) over the dice 2..10, under the set's overshoot rule."""
    return max(float(turn_distribution(MILTON_BRADLEY_1943.replace(
        die=d, overshoot=n.tail_rule))[n.tail + 1:].sum()) for d in range(2, 11))


@register("6.7", hint="Loop over the die sizes 2..10 (with your overshoot rule) and compute "
                      "P(T > your threshold) for each with turn_distribution; the answer is the "
                      "largest of these probabilities, not the die.")
def _ex_6_7(answer: Any, n: Numbers) -> bool:
    return close(_heaviest_tail(n), rel=1e-6)(answer)
