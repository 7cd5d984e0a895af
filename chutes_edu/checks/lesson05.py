"""Self-checks for exercise set 5 (lessons/05_exact_answers.ipynb).

The set's numbers ``n`` (:mod:`chutes_edu.variants`) are declared at the top of the set: the die and
start square of 5.1, the chute, size and overshoot rule of the coin board of 5.2, the board, die
and overshoot rule of 5.3, the three pairs of 5.6 and the overshoot rule and start square of 5.7.
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
    transition_matrix,
)
from chutes_edu._lazy import sympy
from chutes_edu.checks import (
    Numbers,
    close,
    exactly,
    one_of,
    register,
    same_expression,
    same_words,
)


def _coin_board(n: Numbers) -> Board:
    """The small board of exercise 5.2: squares 0..size, a two-faced die, one chute."""
    return Board({n.chute_top: n.chute_bottom}, size=n.coin_size, die=2,
                 overshoot=n.coin_rule, name="coin board of exercise 5.2")


# Small boards the student's exact solver of exercise 5.4 is tried on (no bonus rolls).
_TEST_BOARDS = (
    Board({3: 7, 8: 2}, size=10, die=3),
    Board({2: 9, 6: 1}, size=12, die=[1, 2, 3], overshoot="win"),
    Board({5: 0, 7: 13}, size=15, die=4, overshoot="bounce"),
    Board({4: 1}, size=6, die=[Fraction(1, 3), Fraction(2, 3)], overshoot="stop_short"),
    Board({}, size=5, die=6),
)

# The pairs of one-jump boards of exercise 5.6: (a, b) adds the jump a -> b to the 1943 board.
# The numbers pair1, pair2 and pair3 pick one pair from each list (the first is the course's own);
# each list has two pairs of each verdict: "equal", "first" and "second".
CHOICES = (
    (((8, 14), (7, 14)), ((13, 7), (13, 6)), ((23, 17), (43, 17)), ((70, 79), (70, 67)),
     ((66, 88), (85, 66)), ((7, 34), (33, 25))),
    (((17, 39), (15, 17)), ((5, 6), (68, 70)), ((69, 59), (27, 10)), ((20, 43), (90, 91)),
     ((25, 18), (25, 19)), ((2, 24), (3, 25))),
    (((99, 96), (99, 97)), ((57, 53), (58, 54)), ((50, 74), (17, 63)), ((58, 63), (77, 91)),
     ((70, 84), (69, 84)), ((25, 17), (70, 85))),
)


def _pairs(n: Numbers) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    return [options[i] for options, i in zip(CHOICES, (n.pair1, n.pair2, n.pair3), strict=True)]


def _which_shorter(first: Board, second: Board) -> str:
    a = expected_turns(first, exact=True)[0]
    b = expected_turns(second, exact=True)[0]
    return "equal" if a == b else ("first" if a < b else "second")


# --------------------------------------------------------------------------- 5.1
@register("5.1", hint="Change the overshoot rule and the die of the blog post's board "
                      "(MILTON_BRADLEY_1943_CHUTE_48) with .replace(...) and ask "
                      "expected_turns for the exact answer (exact=True) from your start square; "
                      "a float is not accepted.")
def _ex_5_1(answer: Any, n: Numbers) -> bool:
    house = MILTON_BRADLEY_1943_CHUTE_48.replace(overshoot="win", die=n.house_die)
    return exactly(expected_turns(house, exact=True)[n.house_start])(answer)


# --------------------------------------------------------------------------- 5.2
@register("5.2", hint="Write one first-step equation for each square below the last: a roll of 1 "
                      "has probability 1 - p, a roll of 2 has probability p; follow the chute, and "
                      "remember what a roll past the last square does (your overshoot rule). Let "
                      "sympy.solve do the algebra and give t0 as an expression in p alone.")
def _ex_5_2(answer: Any, n: Numbers) -> bool:
    coin = _coin_board(n)

    def t0(p: Fraction) -> sympy.Rational:
        """Exact expected turns from square 0 of the coin board when face 2 has probability p."""
        return expected_turns(coin.replace(die=(1 - p, p)), exact=True)[0]

    values = (Fraction(1, 2), Fraction(1, 3), Fraction(3, 4), Fraction(1, 5))
    return same_expression(t0, values)(answer)


# --------------------------------------------------------------------------- 5.3
@register("5.3", hint="In the max norm the condition number is ||I - Q|| times the largest row sum "
                      "of N, which is the longest expected game over all squares 0..size-1 of the "
                      "board with the new die and rule. numpy.linalg.cond(..., p=np.inf) should "
                      "agree.")
def _ex_5_3(answer: Any, n: Numbers) -> bool:
    base = MILTON_BRADLEY_1943 if n.small_board == "1943" else MILTON_BRADLEY_1943_CHUTE_48
    board = base.replace(die=n.small_die, overshoot=n.small_rule)
    size = board.size
    Q = transition_matrix(board)[:size, :size]
    return close(np.linalg.cond(np.eye(size) - Q, p=np.inf), rel=1e-6)(answer)


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
def _ex_5_6(answer: Any, n: Numbers) -> bool:
    board = MILTON_BRADLEY_1943
    want = [_which_shorter(board.with_jump(*a), board.with_jump(*b)) for a, b in _pairs(n)]
    return same_words(want)(answer)


# --------------------------------------------------------------------------- 5.7
def _longest_denominator(n: Numbers) -> sympy.Rational:
    """The exact expected length, from the set's square, with the most digits below the line."""
    lengths = {d: expected_turns(MILTON_BRADLEY_1943.replace(die=d, overshoot=n.rule),
                                 exact=True)[n.square] for d in range(2, 11)}
    die = max(lengths, key=lambda d: (len(str(lengths[d].q)), -d))
    return lengths[die]


@register("5.7", hint="Loop over the die sizes 2..10, solve each board (with your overshoot rule) "
                      "exactly, and compare len(str(x.q)) for the answers x from your square. The "
                      "answer is that die's exact expected length, a fraction.")
def _ex_5_7(answer: Any, n: Numbers) -> bool:
    return exactly(_longest_denominator(n))(answer)
