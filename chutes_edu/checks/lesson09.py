"""Self-checks for exercise set 9 (lessons/09_experiments.ipynb).

The set's numbers ``n`` (:mod:`chutes_edu.variants`) are declared at the top of the set: the two
dice of 9.1, the die and start square of 9.2, the die of the board of 9.3, 9.4 and 9.7, and the
shortest jump each of 9.3, 9.4 and 9.7 looks at.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from chutes_edu import (
    AIMING_GAME_2021,
    MILTON_BRADLEY_1943,
    Board,
    expected_turns,
    fundamental_matrix,
    jump_effects,
)
from chutes_edu.checks import (
    Numbers,
    close,
    exactly,
    one_of,
    register,
    same_array,
    whole_number,
)


def _t0(board: Board) -> float:
    return float(expected_turns(board)[0])


def _board(n: Numbers) -> Board:
    """The board of 9.3, 9.4 and 9.7: the 1943 board with the set's die."""
    return MILTON_BRADLEY_1943.replace(die=n.die)


# --------------------------------------------------------------------------- 9.1
@register("9.1", hint="Build the house-rule board with .replace(overshoot=...), then give it a "
                      "die of n.small_die faces and one of n.small_die + n.more_faces faces with "
                      ".replace(die=...) and subtract the expected turns from square 0 (more "
                      "faces minus fewer).")
def _ex_9_1(answer: Any, n: Numbers) -> bool:
    house = MILTON_BRADLEY_1943.replace(overshoot="win")
    more, fewer = house.replace(die=n.small_die + n.more_faces), house.replace(die=n.small_die)
    return close(_t0(more) - _t0(fewer), rel=1e-7)(answer)


# --------------------------------------------------------------------------- 9.2
@register("9.2", hint="A game ends by the ladder when a roll lands on its foot. With m faces only "
                      "the m squares below it can do that; weight the expected number of turns "
                      "begun on each (row n.start of fundamental_matrix(..., exact=True)) by the "
                      "chance of the right face. Keep it exact.")
def _ex_9_2(answer: Any, n: Numbers) -> bool:
    board = MILTON_BRADLEY_1943.replace(die=n.faces)
    N = fundamental_matrix(board, exact=True)
    m = board.faces
    expected = sum(N[n.start, s] for s in range(80 - m, 80)) / m
    return exactly(expected)(answer)


# --------------------------------------------------------------------------- 9.3 and 9.4
def _best(board: Board, min_length: int, chutes_only: bool) -> tuple[int, int]:
    effects = jump_effects(board, min_length=min_length)
    if chutes_only:
        a, b = np.indices(effects.shape)
        effects = np.where(b < a, effects, np.nan)
    a, b = np.unravel_index(np.nanargmin(effects), effects.shape)
    return int(a), int(b)


@register("9.3", hint="jump_effects(mine, min_length=n.jump_length) holds the new expected length "
                      "for every allowed jump (NaN where not allowed); np.nanargmin and "
                      "np.unravel_index find the smallest. Answer with the pair (a, b).")
def _ex_9_3(answer: Any, n: Numbers) -> bool:
    best = _best(_board(n), n.jump_length, chutes_only=False)
    return same_array(best, rel=0.0, abs_tol=0.0)(answer)       # the same two squares


@register("9.4", hint="Make the table as in 9.3 (with the chutes' shortest length), but keep only "
                      "the entries [a, b] with b < a (np.indices helps) before looking for the "
                      "smallest. Answer with (a, b).")
def _ex_9_4(answer: Any, n: Numbers) -> bool:
    best = _best(_board(n), n.chute_length, chutes_only=True)
    return same_array(best, rel=0.0, abs_tol=0.0)(answer)       # the same two squares


# --------------------------------------------------------------------------- 9.5
def _reference_uses(board: Board) -> dict[int, float]:
    """Expected uses of each jump from square 0, following each overshoot rule by hand."""
    n = board.size
    N0 = fundamental_matrix(board)[0]
    uses = dict.fromkeys(board.jumps, 0.0)
    for s in range(n):
        for r, p in enumerate(board.probabilities, start=1):
            target = s + r
            if target > n:
                if board.overshoot == "stay":
                    continue                      # the move is lost: no jump fires
                target = {"win": n, "bounce": 2 * n - target, "stop_short": n - 1}[board.overshoot]
            if target in uses:
                uses[target] += N0[s] * float(p)
    return uses


_USE_BOARDS = (MILTON_BRADLEY_1943.replace(overshoot="bounce"),
               AIMING_GAME_2021,
               MILTON_BRADLEY_1943.replace(die=[1, 2, 3], overshoot="win"))


@register("9.5", hint="For each square s below the end, each face r with probability p: find the "
                      "square the roll reaches *before* any jump (a copy of the board without "
                      "jumps, board.replace(jumps={}), has a landing method that does exactly "
                      "that) and, if a jump starts there, add N[0, s] * p to its count.",
          function=True)
def _ex_9_5(jump_uses_any: Any) -> bool:
    for board in _USE_BOARDS:
        got = dict(jump_uses_any(board))
        want = _reference_uses(board)
        if set(map(int, got)) != set(want):
            return False
        if not all(math.isclose(float(got[a]), want[a], rel_tol=1e-9, abs_tol=1e-12)
                   for a in want):
            return False
    return True


# --------------------------------------------------------------------------- 9.6
@register("9.6", hint="Which existing jump lies between squares 27 and 29, and what happens to a "
                      "token that is sent back in front of it?")
def _ex_9_6(answer: Any) -> bool:
    return one_of("b")(answer)


# --------------------------------------------------------------------------- 9.7
@register("9.7", hint="Take effects = jump_effects(house, min_length=n.house_length) and "
                      "baseline = the house board's own expected turns from 0; count the allowed "
                      "ladders (b > a) that raise it and the allowed chutes (b < a) that lower it.")
def _ex_9_7(answer: Any, n: Numbers) -> bool:
    house = _board(n).replace(overshoot="win")
    effects = jump_effects(house, min_length=n.house_length)
    base = _t0(house)
    a, b = np.indices(effects.shape)
    with np.errstate(invalid="ignore"):
        count = int((((b > a) & (effects > base)) | ((b < a) & (effects < base))).sum())
    return whole_number(count)(answer)
