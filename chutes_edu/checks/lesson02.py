"""Self-checks for exercise set 2 (lessons/02_board_as_equations.ipynb).

The set's numbers ``n`` (:mod:`chutes_edu.variants`) are declared at the top of the set: the start
square of 2.1 and 2.5, the size and the chute of the tiny board of 2.3, the die of 2.5 and 2.6 and
the overshoot rule of 2.6. (2.2 is a question of ideas, the same for everyone.)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from chutes_edu import MILTON_BRADLEY_1943, Board, expected_turns
from chutes_edu.checks import Numbers, close, exactly, one_of, register, same_array


def _tiny(n: Numbers) -> Board:
    """The small board of exercise 2.3: squares 0..n.size, a three-sided die, one chute."""
    return Board({n.top: n.foot}, size=n.size, die=3, name="tiny board of exercise 2.3")


# Small boards the student's solver of exercise 2.4 is tried on: different sizes, dice and rules.
_TEST_BOARDS = (
    Board({3: 7, 8: 2}, size=10, die=3),
    Board({2: 9, 6: 1}, size=12, die=[1, 2, 3], overshoot="win"),
    Board({5: 0, 7: 13}, size=15, die=4, overshoot="bounce"),
    Board({4: 1}, size=6, die=3, overshoot="stop_short"),
    MILTON_BRADLEY_1943,
)


@register("2.1", hint="Change the overshoot rule of the board with .replace(...) and ask "
                      "expected_turns for the value of your square n.start.")
def _ex_2_1(answer: Any, n: Numbers) -> bool:
    board = MILTON_BRADLEY_1943.replace(overshoot="bounce")
    return close(expected_turns(board, exact=True)[n.start], rel=1e-6)(answer)


@register("2.2", hint="On the bouncing board, ask .landing(s, r) for s = 95..99 and every face: "
                      "where do those rolls end, and what happens to a token there?")
def _ex_2_2(answer: Any) -> bool:
    return one_of("b")(answer)


@register("2.3", hint="Write one equation E_i = 1 + (1/3)(E_a + E_b + E_c) for each square "
                      "i = 0, ..., n.size - 1 (with E = 0 on square n.size), using the rules "
                      "for the chute and for a roll past the last square; solve with sympy and "
                      "give E_0 as a Rational.")
def _ex_2_3(answer: Any, n: Numbers) -> bool:
    return exactly(expected_turns(_tiny(n), exact=True)[0])(answer)


@register("2.4", hint="Start from the identity matrix and a vector of ones for squares "
                      "0..size-1; for every square i and face r subtract the probability of r "
                      "from A[i, board.landing(i, r)] when that square is not the final one. "
                      "Use board.probabilities (the die need not be fair) and return size + 1 "
                      "values, the last one 0.",
          function=True)
def _ex_2_4(answer: Any) -> bool:
    return all(same_array(expected_turns(b), rel=1e-8)(answer(b)) for b in _TEST_BOARDS)


@register("2.5", hint="Two boards (the 1943 board with your die), one rule apart: solve both with "
                      "expected_turns, read both at square n.start and subtract (the answer is a "
                      "positive number of turns).")
def _ex_2_5(answer: Any, n: Numbers) -> bool:
    board = MILTON_BRADLEY_1943.replace(die=n.die)
    saved = (expected_turns(board, exact=True)[n.start]
             - expected_turns(board.replace(overshoot="win"), exact=True)[n.start])
    return close(saved, rel=1e-6)(answer)


def _worst_value(board: Board) -> Fraction:
    """The most expected turns of a square (not a jump source, not the final one), exactly: a
    float solve's last digit depends on the machine's BLAS kernel, and so would the value the
    website shows and checks against."""
    values = expected_turns(board, exact=True)
    return max(Fraction(str(values[s])) for s in range(board.size) if s not in board.jumps)


@register("2.6", hint="Read the expected turns of every square off expected_turns (or the heat "
                      "map); leave out the squares where a chute or ladder starts, since play "
                      "never rests there. The answer is the largest expected number of turns, "
                      "not the square.")
def _ex_2_6(answer: Any, n: Numbers) -> bool:
    board = MILTON_BRADLEY_1943.replace(die=n.die, overshoot=n.rule)
    return close(_worst_value(board), rel=1e-6)(answer)
