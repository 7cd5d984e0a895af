"""Board construction: every bad board is refused at once, with a message that names the problem."""

from __future__ import annotations

import pickle
from fractions import Fraction

import numpy as np
import pytest

from chutes_edu import MILTON_BRADLEY_1943, OVERSHOOT_RULES, PRESETS, Board


@pytest.mark.parametrize("kwargs, message", [
    (dict(jumps={0: 5}), r"start on square 0 or the final square 10: 0->5"),
    (dict(jumps={10: 3}), r"start on square 0 or the final square 10: 10->3"),
    (dict(jumps={4: 11}), r"off the board \(squares are 0..10\): 4->11"),
    (dict(jumps={-1: 3}), r"off the board .*-1->3"),
    (dict(jumps={4: 4}), r"onto their own square: 4->4"),
    (dict(jumps={2: 5, 5: 8}), r"chained jumps: 2->5 lands on the source of 5->8"),
    (dict(jumps={3: 7, 7: 3}), r"3->7 lands on the source of 7->3 \(a loop\)"),
    (dict(jumps={2.5: 7}), r"jump source 2.5 must be a whole number"),
    (dict(jumps={2: "7"}), r"must be a whole number, not '7'"),
    (dict(jumps={True: 7}), r"whole number, not True"),
    (dict(jumps=[(2, 5), (2, 6)]), r"square 2 has two jumps \(2->5 and 2->6\)"),
    (dict(die=0), r"at least 1 face, got 0"),
    (dict(die=[]), r"at least 1 face"),
    (dict(die=[1, -1, 1]), r"face 2: -1 is negative"),
    (dict(die=[1, float("nan")]), r"face 2: nan is not finite"),
    (dict(die=[0, 0, 0]), r"all zero"),
    (dict(die="six"), r"number of faces or a sequence of weights"),
    (dict(size=1), r"size must be at least 2"),
    (dict(size=10.0), r"size must be a whole number"),
    (dict(overshoot="wrap"), r"unknown overshoot rule 'wrap'"),
    (dict(bonus_roll=7), r"bonus_roll=7: the die has no face 7"),
    (dict(die=[1, 0, 1], bonus_roll=2), r"no face 2"),
    (dict(die=[0, 0, 1], bonus_roll=3), r"every roll shows 3, so a turn would never end"),
    (dict(size=4, die=6, overshoot="bounce"), r"faces larger than the board \(size 4\): faces 5-6"),
])
def test_bad_boards_raise_value_error_naming_the_problem(kwargs: dict, message: str) -> None:
    kwargs = {"size": 10, **kwargs}
    with pytest.raises(ValueError, match=message):
        Board(**kwargs)


def test_unfinishable_board_names_the_stuck_squares() -> None:
    # Chutes on 7, 8 and 9 back to 1 and a three-sided die: nothing below 7 can jump the wall.
    with pytest.raises(ValueError, match=r"unfinishable board: the final square 10 can never be "
                                         r"reached from squares 0-6"):
        Board({7: 1, 8: 1, 9: 1}, size=10, die=3)


def test_unfinishable_spinner_with_only_even_moves() -> None:
    # Only 2s: odd squares can never land exactly on 10 (a move past 10 is lost).
    with pytest.raises(ValueError, match=r"from squares 1, 3, 5, 7, 9"):
        Board(size=10, die=[0, 1])


def test_unfinishable_loop_of_jumps_names_squares() -> None:
    # With a one-face die, 3 -> 1 sends the token round 1, 2, 3 forever.
    with pytest.raises(ValueError, match=r"from squares 0-2"):
        Board({3: 1}, size=5, die=1)


def test_no_error_for_a_good_board_with_a_chute_to_square_zero() -> None:
    board = Board({9: 0}, size=10, die=4)
    assert board.chutes == {9: 0}


def test_board_is_immutable_hashable_and_a_value() -> None:
    b = MILTON_BRADLEY_1943
    with pytest.raises(AttributeError):
        b.size = 50  # type: ignore[misc]
    with pytest.raises(TypeError):
        b.jumps[2] = 40  # type: ignore[index]
    same = Board(dict(b.jumps), size=100, die=6)
    assert same == b and hash(same) == hash(b)
    assert b.with_jump(27, 29) != b
    assert pickle.loads(pickle.dumps(b)) == b
    assert eval(repr(b), {"Board": Board}) == b


def test_with_and_without_jump_return_new_boards() -> None:
    b = MILTON_BRADLEY_1943
    more = b.with_jump(27, 29)
    assert more.jumps[27] == 29 and 27 not in b.jumps
    assert more.without_jump(27) == b
    with pytest.raises(ValueError, match="already has the jump 1->38"):
        b.with_jump(1, 20)
    with pytest.raises(ValueError, match="no jump starts on square 2"):
        b.without_jump(2)
    with pytest.raises(ValueError, match="chained jumps: 27->28 lands on the source of 28->84"):
        b.with_jump(27, 28)


def test_die_weights_are_exact_and_normalised() -> None:
    b = Board(size=10, die=[0.1, 0.2, 0.7])
    assert b.probabilities == (Fraction(1, 10), Fraction(1, 5), Fraction(7, 10))
    assert Board(size=10, die=np.array([1, 1, 2])).probabilities == (
        Fraction(1, 4), Fraction(1, 4), Fraction(1, 2))
    assert Board(size=10, die=4).probabilities == (Fraction(1, 4),) * 4


@pytest.mark.parametrize("rule, expected", [("stay", 97), ("win", 100), ("bounce", 99),
                                            ("stop_short", 99)])
def test_overshoot_rules(rule: str, expected: int) -> None:
    board = Board(size=100, die=6, overshoot=rule)
    assert board.landing(97, 4) == expected           # 97 + 4 = 101 overshoots by one
    assert board.landing(97, 3) == 100


def test_overshoot_then_jump() -> None:
    # seed 004: bouncing back onto a snake's head slides down it
    board = Board({99: 78}, size=100, die=6, overshoot="bounce")
    assert board.landing(98, 3) == 78
    assert Board({99: 78}, size=100, overshoot="stop_short").landing(98, 3) == 78


def test_landing_follows_one_jump() -> None:
    b = MILTON_BRADLEY_1943
    assert b.landing(0, 1) == 38 and b.landing(0, 4) == 14 and b.landing(77, 3) == 100
    assert b.landing(96, 5) == 96                         # a move past 100 is lost
    with pytest.raises(ValueError, match="face 7 is not on the die"):
        b.landing(0, 7)


def test_presets_are_named_boards() -> None:
    assert set(OVERSHOOT_RULES) == {"stay", "win", "bounce", "stop_short"}
    for name, board in PRESETS.items():
        assert board.name == name and isinstance(board, Board)


@pytest.mark.parametrize("traps, message", [
    ([0], r"square 0 \(where every token starts\) cannot be a trap"),
    ([10], r"the final square 10 cannot be a trap"),
    ([11, -2], r"traps off the board \(squares are 0..10\): -2, 11"),
    ([3], r"a trap cannot be a jump's source: 3 \(the jump 3->7\)"),
    ([2.5], r"trap 2.5 must be a whole number"),
    ([True], r"trap True must be a whole number"),
    (5, r"traps must be a collection of squares, e.g. traps=\(5,\), not 5"),
    ("5", r"traps must be a collection of squares"),
])
def test_bad_traps_raise_value_error_naming_the_value(traps: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Board({3: 7}, size=10, die=3, traps=traps)  # type: ignore[arg-type]


def test_traps_are_part_of_the_board_value() -> None:
    b = Board({3: 7}, size=10, die=3, traps=[8, 6, 8])
    assert b.traps == (6, 8) and b.absorbing == (6, 8, 10)
    assert b != b.replace(traps=()) and hash(b) != hash(b.replace(traps=()))
    assert b.replace(traps=[8, 6]) == b
    assert pickle.loads(pickle.dumps(b)) == b and pickle.loads(pickle.dumps(b)).traps == (6, 8)
    assert "traps=(6, 8)" in repr(b) and eval(repr(b), {"Board": Board}) == b
    assert b.with_jump(2, 6).traps == (6, 8) and b.with_jump(2, 6).landing(0, 2) == 6
    assert b.without_jump(3).traps == (6, 8)
    with pytest.raises(ValueError, match=r"a trap cannot be a jump's source: 6"):
        b.with_jump(6, 2)
    assert "traps" not in repr(MILTON_BRADLEY_1943) and MILTON_BRADLEY_1943.absorbing == (100,)
