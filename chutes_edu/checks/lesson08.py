"""Self-checks for exercise set 8 (lessons/08_races.ipynb).

The set's numbers ``n`` (:mod:`chutes_edu.variants`) are declared at the top of the set: the die of
the 1943 board of 8.1 and 8.7, the players of 8.1, the coin flippers of 8.2, the faces of the die of
8.3 (its top face rolls again), the start square of 8.5 and player 1's square of 8.7.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from chutes_edu import (
    MILTON_BRADLEY_1943,
    NOORDENBOS_2023,
    Board,
    transition_matrix,
    turn_distribution,
    win_probabilities,
)
from chutes_edu.checks import (
    Numbers,
    close,
    exactly,
    one_of,
    register,
    same_expression,
)


def _board(n: Numbers) -> Board:
    """The board of 8.1 and 8.7: the 1943 board with the set's die."""
    return MILTON_BRADLEY_1943.replace(die=n.die)


# --------------------------------------------------------------------------- 8.1
@register("8.1", hint="All players start on square 0 of the board; win_probabilities gives "
                      "one probability per seat, in seat order (index 0 is seat 1).")
def _ex_8_1(answer: Any, n: Numbers) -> bool:
    return close(win_probabilities(_board(n), [0] * n.players)[1], rel=1e-7)(answer)


# --------------------------------------------------------------------------- 8.2
def _coin_race(p: Fraction, players: int) -> float:
    """Seat 1's chance when each turn finishes with probability p (a board that does that)."""
    board = Board(size=2, die=[p, 1 - p])     # from square 1: face 1 finishes, face 2 is lost
    return float(win_probabilities(board, [1] * players)[0])


@register("8.2", hint="Let w be seat 1's chance. Seat 1 wins at once with probability p; if every "
                      "player misses, the race starts over. Write one equation for w, solve it "
                      "with sympy.solve and give w as an expression in the symbol p.")
def _ex_8_2(answer: Any, n: Numbers) -> bool:
    values = (Fraction(1, 2), Fraction(1, 3), Fraction(1, 6), Fraction(9, 10))
    return same_expression(lambda p: _coin_race(p, n.flippers), values, rel=1e-9)(answer)


# --------------------------------------------------------------------------- 8.3
@register("8.3", hint="List where each face takes the token (bounce back, then any snake). "
                      "One face, the top one, brings it back to the same square with another roll "
                      "to come, so the unknown probability appears on both sides of its equation. "
                      "Keep it exact (sympy.Rational or Fraction).")
def _ex_8_3(answer: Any, n: Numbers) -> bool:
    board = NOORDENBOS_2023.replace(die=n.faces, bonus_roll=n.faces)
    P = transition_matrix(board, exact=True)
    return exactly(P[100 - n.faces // 2, board.size])(answer)


# --------------------------------------------------------------------------- 8.4
_RACE_BOARD = Board({2: 5, 4: 1}, size=6, die=3)
_RACES = (([0, 0, 3], 21), ([2, 0], 22))


@register("8.4", hint="Simulate each seat separately, each with its own seed (e.g. derived from "
                      "seed and the seat number), with start=square. Stack the lengths one row per "
                      "seat; the winner of each race is the first row holding the column's minimum "
                      "(np.argmin). Return the share of races each seat wins.",
          function=True)
def _ex_8_4(race_frequencies: Any) -> bool:
    n = 20_000
    for positions, seed in _RACES:
        shares = np.asarray(race_frequencies(_RACE_BOARD, positions, n, seed), dtype=float)
        exact = win_probabilities(_RACE_BOARD, positions)
        if shares.shape != exact.shape or not math.isclose(shares.sum(), 1.0, abs_tol=1e-9):
            return False
        se = np.sqrt(exact * (1 - exact) / n)
        if np.any(np.abs(shares - exact) > 4.5 * se):
            return False
    return True


# --------------------------------------------------------------------------- 8.5
@register("8.5", hint="Take pmf = turn_distribution(NOORDENBOS_2023, start=n.start); the chance of "
                      "a tie is the sum of pmf**2, and the edge is half of it.")
def _ex_8_5(answer: Any, n: Numbers) -> bool:
    pmf = turn_distribution(NOORDENBOS_2023, start=n.start)
    return close(float((pmf**2).sum()) / 2, rel=1e-7)(answer)


# --------------------------------------------------------------------------- 8.6
@register("8.6", hint="Compare expected_turns(NOORDENBOS_2023) on the two squares, and look at the "
                      "board just above square 26.")
def _ex_8_6(answer: Any) -> bool:
    return one_of("b")(answer)


# --------------------------------------------------------------------------- 8.7
def _head_start(n: Numbers) -> float:
    """Player 2's chance from the smallest square after player 1's that makes them the favourite."""
    board = _board(n)
    for square in range(n.first + 1, board.size):
        if square in board.jumps:
            continue
        chance = float(win_probabilities(board, [n.first, square])[1])
        if chance > 0.5:
            return chance
    raise RuntimeError("no head start makes seat 2 the favourite")


@register("8.7", hint="Try the squares after player 1's for player 2 in turn (skip the foot of a "
                      "ladder or the top of a chute), stop at the first one where seat 2's "
                      "chance is above one half, and give that chance.")
def _ex_8_7(answer: Any, n: Numbers) -> bool:
    return close(_head_start(n), rel=1e-7)(answer)
