"""Self-checks for exercise set 6 (lessons/06_game_length.ipynb)."""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy

from chutes_edu import (
    MILTON_BRADLEY_1943,
    MILTON_BRADLEY_1943_CHUTE_48,
    Board,
    expected_turns,
    fundamental_matrix,
    quasi_stationary_distribution,
    turn_distribution,
)
from chutes_edu.checks import close, exactly, one_of, register, whole_number

COIN_BOARD = Board({2: 0}, size=4, die=2, name="coin board of exercise 6.4")
"""The small board of exercise 6.4: squares 0..4, a fair coin (faces 1 and 2), one chute 2 -> 0."""

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
                      "and add up P(T = k) for every k beyond 100 (that is more accurate than "
                      "1 minus the cdf).")
def _ex_6_1(answer: Any) -> bool:
    pmf = turn_distribution(MILTON_BRADLEY_1943.replace(overshoot="win"))
    return close(pmf[101:].sum(), rel=1e-6)(answer)


# --------------------------------------------------------------------------- 6.2
@register("6.2", hint="Take the cumulative sum of the pmf of the blog post's board "
                      "(MILTON_BRADLEY_1943_CHUTE_48) and find the first k at which it reaches "
                      "0.95 (np.flatnonzero or np.searchsorted). The answer is a number of turns.")
def _ex_6_2(answer: Any) -> bool:
    cdf = np.cumsum(turn_distribution(MILTON_BRADLEY_1943_CHUTE_48))
    return whole_number(int(np.flatnonzero(cdf >= 0.95)[0]))(answer)


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
def _ex_6_4(answer: Any) -> bool:
    return exactly(_exact_variance(COIN_BOARD, 0))(answer)


# --------------------------------------------------------------------------- 6.5
@register("6.5", hint="Picture the shape of the distribution: where are the rare games, and "
                      "which of the three statistics feels how long they are?")
def _ex_6_5(answer: Any) -> bool:
    return one_of("a")(answer)


# --------------------------------------------------------------------------- 6.6
@register("6.6", hint="Make the board with .replace(overshoot=...); Q is the top-left 100 x 100 "
                      "block of its transition_matrix. Keep only the squares a game from square 0 "
                      "can stand on (follow the positive entries of Q from 0), and take the "
                      "eigenvalue of largest absolute value of Q on them (it is real and "
                      "positive), as a float.")
def _ex_6_6(answer: Any) -> bool:
    bounce = MILTON_BRADLEY_1943.replace(overshoot="bounce")
    return close(quasi_stationary_distribution(bounce).decay_rate, rel=1e-6)(answer)


# --------------------------------------------------------------------------- 6.7
def _longest_tail_die() -> int:
    tails = {d: float(turn_distribution(MILTON_BRADLEY_1943.replace(die=d))[101:].sum())
             for d in range(2, 11)}
    return max(tails, key=lambda d: tails[d])


@register("6.7", hint="Loop over the die sizes 2..10 and compute P(T > 100) for each with "
                      "turn_distribution; the answer is a die size.")
def _ex_6_7(answer: Any) -> bool:
    return whole_number(_longest_tail_die())(answer)
