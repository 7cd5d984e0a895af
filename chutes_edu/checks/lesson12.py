"""Self-checks for exercise set 12 (lessons/12_design_a_board.ipynb).

The set's numbers ``n`` (:mod:`chutes_edu.variants`) are declared at the top of the set: the
shortest jump of 12.1, the coin and chute of 12.2, the board of 12.4, the die of 12.5, the square
the jump of 12.6 starts on and the target length of 12.7.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Any

import numpy as np

from chutes_edu import (
    MILTON_BRADLEY_1943,
    Board,
    ShortestGame,
    design_board,
    expected_turns,
    game_variance,
    jump_effects,
    win_probabilities,
)
from chutes_edu.checks import NotYet, Numbers, _describe, close, exactly, register, whole_number


def _variance_board(n: Numbers) -> Board:
    """The board of exercise 12.2: squares 0..6, a coin moving 2 squares with probability
    n.heads% (else 1), a chute from 5 back to n.bottom."""
    return Board({5: n.bottom}, size=6, die=(100 - n.heads, n.heads),
                 name="coin board of exercise 12.2")


GREEDY_TRAPS: dict[int, tuple[dict[int, int], int]] = {
    7: ({5: 2}, 2), 8: ({7: 2}, 2), 9: ({7: 3}, 3), 10: ({9: 5}, 4), 11: ({10: 3}, 3),
    12: ({11: 4}, 3), 13: ({10: 3}, 3), 14: ({9: 3}, 3), 15: ({13: 4}, 4)}
"""Exercise 12.4: for each size, the chute and the die of a board on which greedy misses the best
pair of ladders (the same table as the exercise's cell). The best pairs of two sizes never beat
greedy on each other's boards."""


def _greedy_trap(n: Numbers) -> Board:
    """The board of exercise 12.4 (for 9 squares: a three-sided die, a chute from 7 back to 3)."""
    jumps, die = GREEDY_TRAPS[n.trap_size]
    return Board(jumps, size=n.trap_size, die=die, name="board of exercise 12.4")

FAIR_EDGE = 0.006
"""Exercise 12.6: the first seat's edge in a two-player race must get below this with one jump."""

HOUSE_RULES = MILTON_BRADLEY_1943.replace(overshoot="bounce", bonus_roll=6,
                                          name="1943 board, bounce and six again")
"""The board of exercise 12.7: the 1943 jumps under bounce-back and "a six rolls again"."""

HOUSE_BAND = Fraction(1, 20)
"""Exercise 12.7: the exact expected length must be within HOUSE_BAND of the target n.target."""

# (board, k) pairs the student's greedy_shortest of exercise 12.3 is tried on
_GREEDY_CASES = (
    (Board({5: 3}, size=9, die=2), 2),
    (Board({7: 3}, size=9, die=3), 2),
    (Board({3: 7, 8: 2}, size=10, die=3), 3),
    (Board({5: 0, 7: 13}, size=15, die=4, overshoot="bounce"), 2),
    (Board({4: 1}, size=8, die=3, overshoot="win"), 1),
)


def _added_jumps(answer: Any, board: Board, most: int) -> Board:
    """The board with the answer's jumps added, or NotYet saying what is wrong with its form.

    The answer is one jump ``(a, b)`` or a list of them; each must start on a square that is not
    already a jump's source, and together with the board's jumps obey the rules of ``Board``.
    """
    if isinstance(answer, str) or not isinstance(answer, list | tuple | np.ndarray):
        raise NotYet("a list of jumps (a, b) is wanted, such as [(3, 9)], and your answer is "
                     + _describe(answer))
    items = list(answer)
    if len(items) == 2 and all(_is_square(x) for x in items):
        items = [tuple(items)]                    # one jump (a, b) on its own
    jumps = []
    for item in items:
        try:
            a, b = item
        except (TypeError, ValueError):
            raise NotYet("each jump is a pair of squares (a, b), such as (3, 9)") from None
        if not (_is_square(a) and _is_square(b)):
            raise NotYet("each jump is a pair of whole numbers (a, b), such as (3, 9)")
        jumps.append((int(a), int(b)))
    if len(jumps) > most:
        raise NotYet(f"at most {most} jump{'s' if most > 1 else ''} may be added, and you gave "
                     f"{len(jumps)}")
    sources = [a for a, _ in jumps]
    if len(set(sources)) < len(sources) or any(a in board.jumps for a in sources):
        raise NotYet("each added jump needs a square of its own: two of yours start on the same "
                     "square, or one starts where the board already has a jump")
    try:
        return board.replace(jumps={**board.jumps, **dict(jumps)})
    except ValueError as err:
        raise NotYet(f"the rules of the board do not allow these jumps ({err})") from None


def _is_square(x: Any) -> bool:
    if isinstance(x, bool | np.bool_):
        return False
    if isinstance(x, numbers.Integral):
        return True
    return isinstance(x, numbers.Real) and float(x).is_integer()


def _exact_mean(board: Board) -> Fraction:
    return Fraction(str(expected_turns(board, exact=True)[0]))


def _edge(board: Board) -> float:
    """The first seat's edge in a two-player race: P(seat 1 wins) - 1/2."""
    return float(win_probabilities(board, [0, 0])[0]) - 0.5


# --------------------------------------------------------------------------- 12.1
@register("12.1", hint="Count the finite entries of jump_effects(board, min_length=n.min_length): "
                       "that is C. Then add math.comb(C, j) for j = 0, 1, 2 (the empty set "
                       "counts too).")
def _ex_12_1(answer: Any, n: Numbers) -> bool:
    count = int(np.isfinite(jump_effects(MILTON_BRADLEY_1943, min_length=n.min_length)).sum())
    return whole_number(sum(math.comb(count, j) for j in range(3)))(answer)


# --------------------------------------------------------------------------- 12.2
@register("12.2", hint="Q is the top-left 6 x 6 block of transition_matrix(board, exact=True); "
                       "N = (I - Q)^-1, t = N times a column of ones, and the variance is entry 0 "
                       "of (2N - I)t minus t_0 squared. The answer is an exact fraction.")
def _ex_12_2(answer: Any, n: Numbers) -> bool:
    return exactly(game_variance(_variance_board(n), exact=True))(answer)


# --------------------------------------------------------------------------- 12.3
@register("12.3", hint="Repeat up to k times: price every jump with jump_effects(current "
                       "board), take the smallest finite entry (np.nanargmin and "
                       "np.unravel_index), stop if it does not beat the current expected_turns, "
                       "else add it with with_jump. Return the list of added jumps.",
          function=True)
def _ex_12_3(answer: Any) -> bool:
    for board, k in _GREEDY_CASES:
        want = design_board(board, ShortestGame(), max_jumps=k, method="greedy").exact_value
        if _exact_mean(_added_jumps(answer(board, k), board, k)) != want:
            return False
    return True


# --------------------------------------------------------------------------- 12.4
@register("12.4", hint="Greedy's pair is design_board(board, ShortestGame(), max_jumps=2, "
                       "method='greedy').added. The rules allow few enough pairs on this board "
                       "to try them all: loop over pairs of finite entries of jump_effects, or "
                       "ask for method='exhaustive'.")
def _ex_12_4(answer: Any, n: Numbers) -> bool:
    trap = _greedy_trap(n)
    greedy = design_board(trap, ShortestGame(), max_jumps=2, method="greedy")
    return _exact_mean(_added_jumps(answer, trap, 2)) < greedy.exact_mean


# --------------------------------------------------------------------------- 12.5
@register("12.5", hint="Take pmf = turn_distribution(board) of the board with die=n.die and "
                       "compute half the chance of a tie, 0.5 * sum(pmf**2).")
def _ex_12_5(answer: Any, n: Numbers) -> bool:
    return close(_edge(MILTON_BRADLEY_1943.replace(die=n.die)), rel=1e-6)(answer)


# --------------------------------------------------------------------------- 12.6
@register("12.6", hint="The jump starts on your square n.foot. A more spread-out game is usually a "
                       "fairer one: try where a jump from n.foot should lead (jump_effects, "
                       "variance_effects), or design_board with FairestRace(2), max_jumps=1 and "
                       "candidates=[(n.foot, b) for every b], and check the edge with "
                       "win_probabilities.")
def _ex_12_6(answer: Any, n: Numbers) -> bool:
    designed = _added_jumps(answer, MILTON_BRADLEY_1943, 1)
    added = set(designed.jumps) - set(MILTON_BRADLEY_1943.jumps)
    if added != {n.foot}:
        raise NotYet("one jump that starts on your square n.foot is wanted, (n.foot, b)")
    return _edge(designed) < FAIR_EDGE


# --------------------------------------------------------------------------- 12.7
@register("12.7", hint="Build the board with .replace(overshoot='bounce', bonus_roll=6) and search "
                       "with design_board(board, TargetLength(n.target), max_jumps=2), or look for "
                       "a finite entry of its jump_effects within 0.05 of n.target; confirm with "
                       "expected_turns(..., exact=True).")
def _ex_12_7(answer: Any, n: Numbers) -> bool:
    designed = _added_jumps(answer, HOUSE_RULES, 2)
    return abs(_exact_mean(designed) - n.target) < HOUSE_BAND
