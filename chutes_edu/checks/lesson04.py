"""Self-checks for exercise set 4 (lessons/04_fundamental_matrix.ipynb).

The set's numbers ``n`` (:mod:`chutes_edu.variants`) are declared at the top of the set: the squares
of 4.1, the die of 4.2, the bent coin of the tiny board of 4.4, the die of 4.6 and the die and
tolerance of 4.7. (4.5 is a question of ideas, the same for everyone.)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from chutes_edu import (
    MILTON_BRADLEY_1943,
    Board,
    expected_turns,
    fundamental_matrix,
    transition_matrix,
)
from chutes_edu._lazy import sympy
from chutes_edu.checks import Numbers, close, one_of, register, whole_number
from chutes_edu.checks.exact import first_remainder_below


def _tiny(n: Numbers) -> Board:
    """The small board of exercise 4.4: squares 0..6, a bent coin (a move of 1 with probability
    n.one percent, else 2), ladder 2 -> 5 and chute 4 -> 1."""
    return Board({2: 5, 4: 1}, size=6, die=[n.one, 100 - n.one],
                 name="tiny board of exercise 4.4")

# Small boards (and the 1943 board) the student's series of exercise 4.3 is tried on.
_SERIES_CASES = (
    (Board({3: 7, 8: 2}, size=10, die=3), (1, 2, 5, 40)),
    (Board({2: 9, 6: 1}, size=12, die=[1, 2, 3], overshoot="win"), (3, 17)),
    (Board({5: 0, 7: 13}, size=15, die=4, overshoot="bounce"), (1, 8)),
    (MILTON_BRADLEY_1943, (1, 10, 60)),
)


def _series_reference(board: Board, K: int) -> np.ndarray:
    """Row sums of I + Q + ... + Q^(K-1), from the library's transition matrix."""
    n = board.size
    Q = transition_matrix(board)[:n, :n]
    total = np.zeros((n, n))
    power = np.eye(n)
    for _ in range(K):
        total += power
        power = power @ Q
    return total.sum(axis=1)


def _fewest_turns_everywhere(board: Board) -> int:
    """The smallest m such that every square 0..size-1 can finish within m turns."""
    n = board.size
    P = transition_matrix(board)
    power = np.eye(n + 1)
    m = 0
    while True:
        m += 1
        power = power @ P
        if (power[:n, n] > 0).all():
            return m


# --------------------------------------------------------------------------- 4.1
@register("4.1", hint="Row 0 of N says how many turns, on average, begin on each square; add up "
                      "the entries of the squares the question asks about (mind Python's "
                      "end-exclusive slices).")
def _ex_4_1(answer: Any, n: Numbers) -> bool:
    N = fundamental_matrix(MILTON_BRADLEY_1943)
    return close(N[0, n.low:n.high + 1].sum(), rel=1e-6)(answer)


# --------------------------------------------------------------------------- 4.2
@register("4.2", hint="Multiply by P one turn at a time and, after each turn, ask whether the "
                      "column of the final square is positive in every row 0..99. Your answer "
                      "is a whole number of turns.")
def _ex_4_2(answer: Any, n: Numbers) -> bool:
    return whole_number(_fewest_turns_everywhere(MILTON_BRADLEY_1943.replace(die=n.die)))(answer)


# --------------------------------------------------------------------------- 4.3
@register("4.3", hint="Keep a running power of Q that starts as the identity; add it to a total K "
                      "times (multiplying by Q after each addition) and return the row sums. "
                      "K = 1 gives a vector of ones.",
          function=True)
def _ex_4_3(answer: Any) -> bool:
    for board, Ks in _SERIES_CASES:
        for K in Ks:
            got = np.asarray(answer(board, K), dtype=float)
            want = _series_reference(board, K)
            if got.shape != want.shape or not np.allclose(got, want, rtol=1e-9, atol=1e-12):
                return False
    # Many terms: the series reaches the expected number of turns.
    small = _SERIES_CASES[0][0]
    got = np.asarray(answer(small, 2000), dtype=float)
    return bool(np.allclose(got, expected_turns(small)[:-1], rtol=1e-9))


# --------------------------------------------------------------------------- 4.4
@register("4.4", hint="Q is 6 x 6 (squares 0..5): a roll from square i lands on i + 1 (with "
                      "probability n.one / 100) or i + 2 (with the rest), follows a jump if it "
                      "lands on one, and stays put if it would pass square 6. Rolls that reach "
                      "square 6 are not in Q. Use exact fractions (sympy.Rational), not floats, "
                      "and invert with .inv().")
def _ex_4_4(answer: Any, n: Numbers) -> bool:
    got = sympy.Matrix(answer)
    want = fundamental_matrix(_tiny(n), exact=True)
    if got.shape != want.shape:
        return False
    if not all(sympy.sympify(x).is_Rational for x in got):
        return False          # an exact answer, please: no floats
    return (got - want).is_zero_matrix is True


# --------------------------------------------------------------------------- 4.5
@register("4.5", hint="Ask what happens, turn after turn, to a token standing on square 99: how "
                      "many of the six rolls move it, and where to?")
def _ex_4_5(answer: Any) -> bool:
    return one_of("b")(answer)


# --------------------------------------------------------------------------- 4.6
@register("4.6", hint="Build the new board with without_jump (the ladder starts on square 80) "
                      "and your die (.replace(die=...)), and read the right entry of its "
                      "fundamental matrix.")
def _ex_4_6(answer: Any, n: Numbers) -> bool:
    N = fundamental_matrix(MILTON_BRADLEY_1943.without_jump(80).replace(die=n.faces), exact=True)
    return close(N[0, 99], rel=1e-6)(answer)


# --------------------------------------------------------------------------- 4.7
def _terms_needed(board: Board, tol: Fraction) -> int:
    """The smallest K whose partial sum P(T > 0) + ... + P(T > K - 1) is within ``tol`` of E[T],
    in exact arithmetic (float partial sums carry rounding of 1e-13 to 1e-12)."""
    return first_remainder_below(board, tol)


@register("4.7", hint="The K-term partial sum for square 0 adds P(T > 0), ..., P(T > K-1); keep "
                      "adding terms (one vector-matrix product each) until the gap to "
                      "expected_turns is below the tolerance, and count the terms.")
def _ex_4_7(answer: Any, n: Numbers) -> bool:
    board = MILTON_BRADLEY_1943.replace(die=n.sides)
    return whole_number(_terms_needed(board, Fraction(1, 10 ** n.digits)))(answer)
