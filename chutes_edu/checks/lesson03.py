"""Self-checks for exercise set 3 (lessons/03_markov_chains.ipynb)."""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy

from chutes_edu import MILTON_BRADLEY_1943, Board, transition_matrix, turn_distribution
from chutes_edu.checks import (
    close,
    exactly,
    one_of,
    register,
    same_array,
    same_expression,
    whole_number,
)

# The chains of the lesson, as data (Hochman, Chutes and Ladders, section 3): meals H, P, C, F
# and a 3-station loop.
_R = sympy.Rational
EATER = sympy.Matrix([[_R(1, 3), 0, _R(1, 3), _R(1, 3)],
                      [_R(1, 4), _R(1, 4), _R(1, 4), _R(1, 4)],
                      [0, 0, 1, 0],
                      [_R(1, 10), _R(1, 5), _R(1, 2), _R(1, 5)]])
MONORAIL = sympy.Matrix([[0, _R(1, 2), _R(1, 2)],
                         [_R(1, 2), 0, _R(1, 2)],
                         [_R(1, 2), _R(1, 2), 0]])

# Small boards the student's matrix builder of exercise 3.3 is tried on.
_TEST_BOARDS = (
    Board({3: 7, 8: 2}, size=10, die=3),
    Board({2: 9, 6: 1}, size=12, die=[1, 2, 3], overshoot="win"),
    Board({5: 0, 7: 13}, size=15, die=4, overshoot="bounce"),
    MILTON_BRADLEY_1943,
)


@register("3.1", hint="Tonight is night 0. Three nights later is three steps of the chain: take "
                      "the right entry of a power of the transition matrix (sympy keeps it exact).")
def _ex_3_1(answer: Any) -> bool:
    return exactly((EATER ** 3)[0, 2])(answer)


@register("3.2", hint="sympy can raise a matrix to a symbolic power: make k an integer symbol and "
                      "look at an entry of P**k (simplify it). Your answer should be an expression "
                      "in k alone.")
def _ex_3_2(answer: Any) -> bool:
    return same_expression(lambda n: (MONORAIL ** n)[0, 0], range(13))(answer)


@register("3.3", hint="Make a (size + 1) x (size + 1) array of zeros; for every square s and face "
                      "r add the face's probability (board.probabilities) to P[s, board.landing(s, "
                      "r)]. Several faces can lead to the same square, so add, do not overwrite.",
          function=True)
def _ex_3_3(answer: Any) -> bool:
    return all(same_array(transition_matrix(b), rel=1e-9)(answer(b)) for b in _TEST_BOARDS)


@register("3.4", hint="A finished token stays on square 100, so 'over within k turns' is 'on "
                      "square 100 after k turns': one entry of a matrix power.")
def _ex_3_4(answer: Any) -> bool:
    within = float(np.cumsum(turn_distribution(MILTON_BRADLEY_1943))[20])
    return close(within, rel=1e-6)(answer)


@register("3.5", hint="Row 0 of P^k is where a token that starts off the board is after k turns; "
                      "leave out square 100 and ask np.argmax.")
def _ex_3_5(answer: Any) -> bool:
    row = np.linalg.matrix_power(transition_matrix(MILTON_BRADLEY_1943), 5)[0]
    return whole_number(int(np.argmax(row[:MILTON_BRADLEY_1943.size])))(answer)


@register("3.6", hint="Having an absorbing state is not enough: an absorbing chain must be able "
                      "to reach an absorbing state from every state. Check each state.")
def _ex_3_6(answer: Any) -> bool:
    return one_of("c")(answer)


@register("3.7", hint="P(T <= k) is the entry [0, 100] of P^k. Step k up one turn at a time "
                      "(multiply by P again) until it reaches one half.")
def _ex_3_7(answer: Any) -> bool:
    cdf = np.cumsum(turn_distribution(MILTON_BRADLEY_1943))
    return whole_number(int(np.flatnonzero(cdf >= 0.5)[0]))(answer)
