"""Self-checks for exercise set 3 (lessons/03_markov_chains.ipynb).

The set's numbers ``n`` (:mod:`chutes_edu.variants`) are declared at the top of the set: the
meal and night of 3.1, how often the monorail of 3.2 stays, the die of the board of 3.4, 3.5 and
3.7, the turns of 3.4 and 3.5 and the share of games over of 3.7.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from chutes_edu import MILTON_BRADLEY_1943, Board, transition_matrix, turn_distribution
from chutes_edu._lazy import sympy
from chutes_edu.checks import (
    Numbers,
    close,
    exactly,
    one_of,
    register,
    same_array,
    same_expression,
    whole_number,
)
from chutes_edu.checks.exact import first_cdf_at_least


# The picky eater's chain of the lesson, as data (Hochman, Chutes and Ladders, section 3): meals
# H, P, C, F. (The monorail of 3.2 is built from the set's numbers.)
def _eater() -> sympy.Matrix:
    R = sympy.Rational
    return sympy.Matrix([[R(1, 3), 0, R(1, 3), R(1, 3)],
                         [R(1, 4), R(1, 4), R(1, 4), R(1, 4)],
                         [0, 0, 1, 0],
                         [R(1, 10), R(1, 5), R(1, 2), R(1, 5)]])


def _board(n: Numbers) -> Board:
    """The board of 3.4, 3.5 and 3.7: the 1943 board with the set's die."""
    return MILTON_BRADLEY_1943.replace(die=n.die)


_MEALS = ("H", "P", "C", "F")


# Small boards the student's matrix builder of exercise 3.3 is tried on.
_TEST_BOARDS = (
    Board({3: 7, 8: 2}, size=10, die=3),
    Board({2: 9, 6: 1}, size=12, die=[1, 2, 3], overshoot="win"),
    Board({5: 0, 7: 13}, size=15, die=4, overshoot="bounce"),
    MILTON_BRADLEY_1943,
)


@register("3.1", hint="Tonight is night 0. Night n.night is that many steps of the chain: take "
                      "the right entry of a power of the transition matrix (sympy keeps it exact).")
def _ex_3_1(answer: Any, n: Numbers) -> bool:
    return exactly((_eater() ** n.night)[_MEALS.index(n.start), 2])(answer)


@register("3.2", hint="sympy can raise a matrix to a symbolic power: make k an integer symbol and "
                      "look at an entry of P**k (simplify it). Your answer should be an expression "
                      "in k alone.")
def _ex_3_2(answer: Any, n: Numbers) -> bool:
    stay = sympy.Rational(n.stay, 100)
    chain = sympy.Matrix(3, 3, lambda i, j: stay if i == j else (1 - stay) / 2)
    return same_expression(lambda k: (chain ** k)[0, 0], range(13))(answer)


@register("3.3", hint="Make a (size + 1) x (size + 1) array of zeros; for every square s and face "
                      "r add the face's probability (board.probabilities) to P[s, board.landing(s, "
                      "r)]. Several faces can lead to the same square, so add, do not overwrite.",
          function=True)
def _ex_3_3(answer: Any) -> bool:
    return all(same_array(transition_matrix(b), rel=1e-9)(answer(b)) for b in _TEST_BOARDS)


@register("3.4", hint="A finished token stays on square 100, so 'over within k turns' is 'on "
                      "square 100 after k turns': one entry of a matrix power.")
def _ex_3_4(answer: Any, n: Numbers) -> bool:
    within = float(np.cumsum(turn_distribution(_board(n)))[n.turns])
    return close(within, rel=1e-6)(answer)


@register("3.5", hint="Row 0 of P^k is where a token that starts off the board is after k turns; "
                      "leave out square 100, ask np.argmax for the square, and give that square's "
                      "probability.")
def _ex_3_5(answer: Any, n: Numbers) -> bool:
    board = _board(n)
    row = np.linalg.matrix_power(transition_matrix(board), n.after)[0]
    return close(float(np.max(row[:board.size])), rel=1e-6)(answer)


@register("3.6", hint="Having an absorbing state is not enough: an absorbing chain must be able "
                      "to reach an absorbing state from every state. Check each state.")
def _ex_3_6(answer: Any) -> bool:
    return one_of("c")(answer)


@register("3.7", hint="P(T <= k) is the entry [0, 100] of P^k. Step k up one turn at a time "
                      "(multiply by P again) until it reaches the share asked for.")
def _ex_3_7(answer: Any, n: Numbers) -> bool:
    # exact: the first k with P(T <= k) >= share/100, in integers (no rounding at the threshold)
    return whole_number(first_cdf_at_least(_board(n), Fraction(n.share, 100)))(answer)
