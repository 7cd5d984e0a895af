"""Self-checks for exercise set 5 (lessons/05_exact_answers.ipynb)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from chutes_edu import (
    MILTON_BRADLEY_1943,
    MILTON_BRADLEY_1943_CHUTE_48,
    Board,
    expected_turns,
    transition_matrix,
)
from chutes_edu.checks import close, exactly, one_of, register, same_expression, whole_number

COIN_BOARD = Board({2: 0}, size=4, die=2, name="coin board of exercise 5.2")
"""The small board of exercise 5.2: squares 0..4, a two-faced die, one chute 2 -> 0."""

# Small boards the student's exact solver of exercise 5.4 is tried on (no bonus rolls).
_TEST_BOARDS = (
    Board({3: 7, 8: 2}, size=10, die=3),
    Board({2: 9, 6: 1}, size=12, die=[1, 2, 3], overshoot="win"),
    Board({5: 0, 7: 13}, size=15, die=4, overshoot="bounce"),
    Board({4: 1}, size=6, die=[Fraction(1, 3), Fraction(2, 3)], overshoot="stop_short"),
    Board({}, size=5, die=6),
)

# The pairs of one-jump boards of exercise 5.6: (a, b) adds the jump a -> b to the 1943 board.
PAIRS = (((8, 14), (7, 14)), ((17, 39), (15, 17)), ((99, 96), (99, 97)))


def _coin_board_answer(p: Fraction) -> sympy.Rational:
    """Exact expected turns from square 0 of the coin board when face 2 has probability p."""
    return expected_turns(COIN_BOARD.replace(die=(1 - p, p)), exact=True)[0]


def _which_shorter(first: Board, second: Board) -> str:
    a = expected_turns(first, exact=True)[0]
    b = expected_turns(second, exact=True)[0]
    return "equal" if a == b else ("first" if a < b else "second")


# --------------------------------------------------------------------------- 5.1
@register("5.1", hint="Change one rule of the blog post's board "
                      "(MILTON_BRADLEY_1943_CHUTE_48) with .replace(...) and ask "
                      "expected_turns for the exact answer (exact=True); a float is not accepted.")
def _ex_5_1(answer: Any) -> bool:
    house = MILTON_BRADLEY_1943_CHUTE_48.replace(overshoot="win")
    return exactly(expected_turns(house, exact=True)[0])(answer)


# --------------------------------------------------------------------------- 5.2
@register("5.2", hint="Write one first-step equation for each of the squares 0-3: a roll of 1 has "
                      "probability 1 - p, a roll of 2 has probability p; follow the chute, and "
                      "remember what a roll past square 4 does. Let sympy.solve do the algebra and "
                      "give t0 as an expression in p alone.")
def _ex_5_2(answer: Any) -> bool:
    values = (Fraction(1, 2), Fraction(1, 3), Fraction(3, 4), Fraction(1, 5))
    return same_expression(_coin_board_answer, values)(answer)


# --------------------------------------------------------------------------- 5.3
@register("5.3", hint="In the max norm the condition number is ||I - Q|| times the largest row sum "
                      "of N, which is the longest expected game over all squares 0..size-1 of the "
                      "board with the new die. numpy.linalg.cond(..., p=np.inf) should agree.")
def _ex_5_3(answer: Any) -> bool:
    board = MILTON_BRADLEY_1943.replace(die=3)
    n = board.size
    Q = transition_matrix(board)[:n, :n]
    return close(np.linalg.cond(np.eye(n) - Q, p=np.inf), rel=1e-6)(answer)


# --------------------------------------------------------------------------- 5.4
@register("5.4", hint="For each square s < size: t_s - sum_r p_r t_landing(s, r) = 1, with "
                      "t_size = 0. Take p_r from board.probabilities (already exact Fractions), "
                      "build a sympy Matrix and solve it with LUsolve; return t_0, not a float.",
          function=True)
def _ex_5_4(answer: Any) -> bool:
    return all(exactly(expected_turns(b, exact=True)[0])(answer(b)) for b in _TEST_BOARDS)


# --------------------------------------------------------------------------- 5.5
@register("5.5", hint="Both routes are correct mathematics. What does a computer do differently "
                      "when it adds the same numbers in a different order?")
def _ex_5_5(answer: Any) -> bool:
    return one_of("b")(answer)


# --------------------------------------------------------------------------- 5.6
@register("5.6", hint="Floats that differ in the 15th digit prove nothing: compare the exact "
                      "values (expected_turns(..., exact=True)) of each pair. Give a list of three "
                      "words, each 'first', 'second' or 'equal'.")
def _ex_5_6(answer: Any) -> bool:
    words = [str(w).strip().lower() for w in answer]
    if len(words) != len(PAIRS):
        return False
    board = MILTON_BRADLEY_1943
    want = [_which_shorter(board.with_jump(*a), board.with_jump(*b)) for a, b in PAIRS]
    return words == want


# --------------------------------------------------------------------------- 5.7
def _longest_denominator_die() -> int:
    lengths = {d: len(str(expected_turns(MILTON_BRADLEY_1943.replace(die=d), exact=True)[0].q))
               for d in range(2, 11)}
    return max(lengths, key=lambda d: (lengths[d], -d))


@register("5.7", hint="Loop over the die sizes 2..10, solve each board exactly, and compare "
                      "len(str(x.q)) for the answers x from square 0. The answer is a die size.")
def _ex_5_7(answer: Any) -> bool:
    return whole_number(_longest_denominator_die())(answer)
