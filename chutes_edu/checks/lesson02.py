"""Self-checks for exercise set 2 (lessons/02_board_as_equations.ipynb)."""

from __future__ import annotations

from typing import Any

import numpy as np

from chutes_edu import MILTON_BRADLEY_1943, Board, expected_turns
from chutes_edu.checks import close, exactly, one_of, register, same_array, whole_number

TINY = Board({4: 1}, size=6, die=3, name="tiny board of exercise 2.3")
"""The small board of exercise 2.3: squares 0..6, a three-sided die, one chute 4 -> 1."""

# Small boards the student's solver of exercise 2.4 is tried on: different sizes, dice and rules.
_TEST_BOARDS = (
    Board({3: 7, 8: 2}, size=10, die=3),
    Board({2: 9, 6: 1}, size=12, die=[1, 2, 3], overshoot="win"),
    Board({5: 0, 7: 13}, size=15, die=4, overshoot="bounce"),
    Board({4: 1}, size=6, die=3, overshoot="stop_short"),
    MILTON_BRADLEY_1943,
)


@register("2.1", hint="Change the overshoot rule of the board with .replace(...) and ask "
                      "expected_turns for the value of square 0.")
def _ex_2_1(answer: Any) -> bool:
    return close(expected_turns(MILTON_BRADLEY_1943.replace(overshoot="bounce"))[0],
                 rel=1e-6)(answer)


@register("2.2", hint="On the bouncing board, ask .landing(s, r) for s = 95..99 and every face: "
                      "where do those rolls end, and what happens to a token there?")
def _ex_2_2(answer: Any) -> bool:
    return one_of("b")(answer)


@register("2.3", hint="Write one equation E_i = 1 + (1/3)(E_a + E_b + E_c) for each square "
                      "i = 0..5 (with E_6 = 0), using the rules for the chute and for a roll "
                      "past square 6; solve with sympy and give E_0 as a Rational.")
def _ex_2_3(answer: Any) -> bool:
    return exactly(expected_turns(TINY, exact=True)[0])(answer)


@register("2.4", hint="Start from the identity matrix and a vector of ones for squares "
                      "0..size-1; for every square i and face r subtract the probability of r "
                      "from A[i, board.landing(i, r)] when that square is not the final one. "
                      "Use board.probabilities (the die need not be fair) and return size + 1 "
                      "values, the last one 0.",
          function=True)
def _ex_2_4(answer: Any) -> bool:
    return all(same_array(expected_turns(b), rel=1e-8)(answer(b)) for b in _TEST_BOARDS)


@register("2.5", hint="Two boards, one rule apart: solve both with expected_turns and subtract "
                      "(the answer is a positive number of turns).")
def _ex_2_5(answer: Any) -> bool:
    saved = (expected_turns(MILTON_BRADLEY_1943)[0]
             - expected_turns(MILTON_BRADLEY_1943.replace(overshoot="win"))[0])
    return close(saved, rel=1e-6)(answer)


def _worst_square(board: Board) -> int:
    """The square (not a jump source, not the final one) with the most expected turns."""
    values = np.asarray(expected_turns(board), dtype=float).copy()
    values[list(board.jumps)] = -np.inf
    values[board.size] = -np.inf
    return int(np.argmax(values))


@register("2.6", hint="Read the expected turns of every square off expected_turns (or the heat "
                      "map); leave out the squares where a chute or ladder starts, since play "
                      "never rests there.")
def _ex_2_6(answer: Any) -> bool:
    return whole_number(_worst_square(MILTON_BRADLEY_1943))(answer)
