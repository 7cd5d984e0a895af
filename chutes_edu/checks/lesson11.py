"""Self-checks for exercise set 11 (lessons/11_long_run.ipynb).

The set's numbers ``n`` (:mod:`chutes_edu.variants`) are declared at the top of the set: the two
volcanoes of 11.1, the gambler's chips and goal of 11.2, the die and square of 11.4, the chute's
top of 11.5, the small board of 11.6 and the rounds of 11.7.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from chutes_edu import (
    MILTON_BRADLEY_1943,
    NOORDENBOS_2023,
    Board,
    absorption_probabilities,
    expected_rounds,
    expected_turns,
    game_variance,
    quasi_stationary_distribution,
    stationary_distribution,
)
from chutes_edu._lazy import sympy
from chutes_edu.checks import (
    Numbers,
    close,
    exactly,
    register,
    same_array,
    same_expression,
    same_whole_numbers,
    whole_number,
)


def _volcanoes(n: Numbers) -> Board:
    """The board of exercise 11.1: the 1943 board with traps on squares n.low and n.high."""
    return MILTON_BRADLEY_1943.replace(traps=(n.low, n.high),
                                       name=f"1943 board, volcanoes on {n.low}, {n.high}")


def _gf_board(n: Numbers) -> Board:
    """The small board of exercise 11.6: squares 0..n.size, a coin moving 2 squares with
    probability n.heads% (else 1), a chute from 3 to 1."""
    return Board({3: 1}, size=n.size, die=(100 - n.heads, n.heads),
                 name="coin board of exercise 11.6")

PERIOD_BOTTOMS = range(1, 8)
"""Exercise 11.5: the bottoms b of the chute from square 10 that the exercise asks about."""


def _period_board(bottom: int, top: int = 10) -> Board:
    """The board of exercise 11.5: twelve squares, a die showing 1 or 4, a chute from top to b."""
    return Board({top: bottom}, size=12, die=(1, 0, 0, 1), overshoot="win",
                 name=f"exercise 11.5, chute from {top} to {bottom}")


# boards the student's stationary_from_n of exercise 11.3 is tried on
_STATIONARY_CASES = (
    MILTON_BRADLEY_1943,
    Board({2: 0}, size=3, die=2),
    Board({6: 2}, size=10, die=(1, 0, 1), overshoot="win"),
    Board({3: 7, 8: 2}, size=10, die=3, overshoot="bounce"),
    Board({4: 1}, size=8, die=3, traps=(6,)),
    NOORDENBOS_2023,
)


# --------------------------------------------------------------------------- 11.1
@register("11.1", hint="Make the board with board.replace(traps=(n.low, n.high)) and take "
                       "absorption_probabilities of it: row 0 is a game from square 0, and the "
                       "columns follow board.absorbing (the traps in increasing order, then 100).")
def _ex_11_1(answer: Any, n: Numbers) -> bool:
    volcanoes = _volcanoes(n)
    B = absorption_probabilities(volcanoes)
    column = list(volcanoes.absorbing).index(n.high)
    return close(float(B[0, column]), rel=1e-6)(answer)


# --------------------------------------------------------------------------- 11.2
def _reach_goal(p: Any, chips: int, goal: int) -> Any:
    """P(reach goal chips before 0 | chips), by B = NR in exact arithmetic, for a number p."""
    p = sympy.Rational(p.numerator, p.denominator) if isinstance(p, Fraction) else sympy.S(p)
    P = sympy.zeros(goal + 1, goal + 1)
    P[0, 0] = P[goal, goal] = 1
    for i in range(1, goal):
        P[i, i + 1] = p
        P[i, i - 1] = 1 - p
    return absorption_probabilities(P, absorbing=[goal, 0], exact=True)[chips, 0]


@register("11.2", hint="Build the matrix of the states 0..n.goal with a sympy symbol p, take Q "
                       "(states 1 to n.goal - 1) and R (columns n.goal and 0), solve "
                       "B = (I - Q)^-1 R and keep the entry for n.chips chips and the goal. The "
                       "answer is an expression in p.")
def _ex_11_2(answer: Any, n: Numbers) -> bool:
    values = (Fraction(1, 3), Fraction(1, 2), Fraction(2, 5), Fraction(3, 4), Fraction(9, 10))
    return same_expression(lambda p: _reach_goal(p, n.chips, n.goal), values)(answer)


# --------------------------------------------------------------------------- 11.3
@register("11.3", hint="Row 0 of fundamental_matrix(board) counts the turns a game from square 0 "
                       "begins on each square; divide it by its sum (t_0) and append a 0 for the "
                       "final square, so that the array has board.size + 1 entries.",
          function=True)
def _ex_11_3(answer: Any) -> bool:
    for board in _STATIONARY_CASES:
        if not same_array(stationary_distribution(board), rel=1e-9, abs_tol=1e-12)(
                answer(board)):
            return False
    return True


# --------------------------------------------------------------------------- 11.4
@register("11.4", hint="Kac: the mean return time of a square is 1 / pi_j, with pi from "
                       "stationary_distribution of the board with your die and "
                       "overshoot='bounce' "
                       "(or N_0j / t_0 from its fundamental matrix).")
def _ex_11_4(answer: Any, n: Numbers) -> bool:
    pi = stationary_distribution(MILTON_BRADLEY_1943.replace(die=n.die, overshoot="bounce"))
    return close(1.0 / float(pi[n.square]), rel=1e-6)(answer)


# --------------------------------------------------------------------------- 11.5
def _cycling_bottoms(top: int = 10) -> set[int]:
    """The bottoms b for which P(X_k = . | T > k) cycles instead of settling (period > 1)."""
    return {b for b in PERIOD_BOTTOMS
            if quasi_stationary_distribution(_period_board(b, top)).period > 1}


@register("11.5", hint="For each b from 1 to 7 build Board({n.top: b}, size=12, "
                       "die=(1, 0, 0, 1), overshoot='win') and keep b when "
                       "quasi_stationary_distribution(board).period is larger than 1. To predict "
                       "it: a roll of 4 is a roll of 1 and 3 more squares; count the turns of a "
                       "trip from b up to n.top.")
def _ex_11_5(answer: Any, n: Numbers) -> bool:
    return same_whole_numbers(_cycling_bottoms(n.top))(answer)


# --------------------------------------------------------------------------- 11.6
def _second_factorial_moment(board: Board) -> Fraction:
    """E[T(T - 1)] = Var T + E[T]^2 - E[T], exactly."""
    mean = Fraction(str(expected_turns(board, exact=True)[0]))
    variance = Fraction(game_variance(board, exact=True))
    return variance + mean * mean - mean


@register("11.6", hint="G(z) = z [(I - zQ)^-1 R]_0 with Q and R from transition_matrix(board, "
                       "exact=True); differentiate twice with sympy.diff and put z = 1. The answer "
                       "is an exact fraction.")
def _ex_11_6(answer: Any, n: Numbers) -> bool:
    return exactly(_second_factorial_moment(_gf_board(n)))(answer)


# --------------------------------------------------------------------------- 11.7
def _fewest_players(board: Board, rounds: float) -> int:
    players = 1
    while expected_rounds(board, players) >= rounds:
        players += 1
    return players


@register("11.7", hint="Loop over the number of players m = 1, 2, 3, ... and ask "
                       "expected_rounds(NOORDENBOS_2023, m) until it drops below n.rounds. The "
                       "answer is a number of players.")
def _ex_11_7(answer: Any, n: Numbers) -> bool:
    return whole_number(_fewest_players(NOORDENBOS_2023, float(n.rounds)))(answer)
