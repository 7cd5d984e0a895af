"""Known answers: every figure the seeds print, reproduced by the library."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy

from chutes_edu import (
    MILTON_BRADLEY_1943,
    MILTON_BRADLEY_1943_CHUTE_48,
    NOORDENBOS_2023,
    Board,
    expected_turns,
    fundamental_matrix,
    jump_effects,
    simulate,
    square_distribution,
    transition_matrix,
    turn_distribution,
    win_probabilities,
)

T = MILTON_BRADLEY_1943

# seed 002, section 6.1: expected turns on the 1943 board with a die of n faces
DIE_TABLE = {2: 60.7625788, 3: 65.9007753, 4: 54.4937116, 5: 45.5619456, 6: 39.2251223,
             7: 34.6965984, 8: 31.8532909, 9: 30.2952849, 10: 28.768692, 11: 27.427206,
             12: 27.017742, 13: 26.221553, 14: 25.980534, 15: 25.805895}


def test_1943_board_expected_turns() -> None:
    t = expected_turns(T)
    assert t.shape == (101,) and t[100] == 0
    assert round(t[0], 7) == 39.2251223                       # seed 002, Remark 4.8
    assert t[0] == pytest.approx(39.225122308234916, abs=1e-11)  # seed 001's printout


def test_exact_answer_is_a_fraction_of_60_and_58_digits() -> None:
    t = expected_turns(T, exact=True)
    assert isinstance(t, sympy.Matrix) and t.shape == (101, 1)
    t0 = t[0]
    assert isinstance(t0, sympy.Rational)
    assert (len(str(t0.p)), len(str(t0.q))) == (60, 58)
    assert float(t0) == pytest.approx(expected_turns(T)[0], rel=1e-14)
    # it solves the first-step equations exactly on every square
    P = transition_matrix(T)
    for s in (0, 47, 96, 99):
        row = {int(j): Fraction(P[s, j]).limit_denominator(6) for j in np.flatnonzero(P[s])}
        assert t[s] == 1 + sum(sympy.Rational(p.numerator, p.denominator) * t[j] for j, p in row.items())


def test_seed_000_board_and_house_rule() -> None:
    assert round(expected_turns(MILTON_BRADLEY_1943_CHUTE_48)[0], 4) == 39.5984
    win = MILTON_BRADLEY_1943_CHUTE_48.replace(overshoot="win")
    assert round(expected_turns(win)[0], 4) == 36.1931


@pytest.mark.parametrize("faces, expected", sorted(DIE_TABLE.items()))
def test_seed_002_die_size_table(faces: int, expected: float) -> None:
    digits = len(str(expected).split(".")[1])
    assert round(expected_turns(T.replace(die=faces))[0], digits) == expected


def test_seed_002_added_ladder_and_chute() -> None:
    assert round(expected_turns(T.with_jump(27, 29))[0], 2) == 40.20
    assert round(expected_turns(T.with_jump(29, 27))[0], 2) == 38.05
    effects = jump_effects(T)
    assert effects[27, 29] == pytest.approx(expected_turns(T.with_jump(27, 29))[0], rel=1e-12)
    assert effects[29, 27] == pytest.approx(expected_turns(T.with_jump(29, 27))[0], rel=1e-12)


@pytest.mark.parametrize("start, expected", [(2, 39.6964061), (5, 39.2950265), (29, 36.8911770)])
def test_seed_002_starting_squares(start: int, expected: float) -> None:
    assert round(expected_turns(T)[start], 7) == expected


def test_seed_004_six_player_win_probabilities() -> None:
    p = win_probabilities(NOORDENBOS_2023, (14, 60, 31, 26, 48, 48))
    seed = [0.1328226, 0.2318284, 0.1391085, 0.1554380, 0.1718596, 0.1689429]
    assert np.round(p, 7).tolist() == seed
    assert p.sum() == pytest.approx(1.0, abs=1e-10)


def test_seed_001_rows_of_q() -> None:
    P = transition_matrix(T)
    assert np.flatnonzero(P[0]).tolist() == [2, 3, 5, 6, 14, 38]
    assert np.allclose(P[0, [2, 3, 5, 6, 14, 38]], 1 / 6)
    assert np.flatnonzero(P[96]).tolist() == [78, 96, 97, 99, 100]
    assert np.allclose(P[96, [78, 96, 97, 99, 100]], [1 / 6, 2 / 6, 1 / 6, 1 / 6, 1 / 6])
    assert np.allclose(P.sum(axis=1), 1) and P[100, 100] == 1


def test_fundamental_matrix_three_ways() -> None:
    """seed 001: solve, inverse and the power series agree."""
    P = transition_matrix(T)
    Q = P[:100, :100]
    N = fundamental_matrix(T)
    series = np.zeros_like(Q)
    term = np.eye(100)
    for _ in range(2000):
        series += term
        term = term @ Q
    assert np.allclose(N, series, atol=1e-9)
    assert np.allclose(N.sum(axis=1), expected_turns(T)[:100])
    assert np.all(np.diag(N) >= 1)                           # the start counts as a visit


def test_exact_fundamental_matrix_matches_float() -> None:
    board = Board({3: 9, 11: 2, 7: 12}, size=14, die=4, bonus_roll=4)
    N = fundamental_matrix(board, exact=True)
    assert isinstance(N, sympy.Matrix) and N.shape == (14, 14)
    assert np.allclose(np.array(N, dtype=float), fundamental_matrix(board), atol=1e-12)
    row_sums = [sum(N.row(i)) for i in range(14)]
    assert row_sums == list(expected_turns(board, exact=True))[:14]


def test_turn_distribution_of_the_1943_board() -> None:
    pmf = turn_distribution(T)
    assert 1 - pmf.sum() < 1e-12
    assert int(np.flatnonzero(pmf)[0]) == 7                   # the shortest game
    assert (np.arange(pmf.size) * pmf).sum() == pytest.approx(expected_turns(T)[0], abs=1e-8)
    assert turn_distribution(T, start=100).tolist() == [1.0]
    assert turn_distribution(T, start=99)[1] == pytest.approx(1 / 6)


def test_turn_distribution_of_a_slow_board_is_long_enough() -> None:
    slow = Board({9: 0}, size=10, die=[1, 0.02])              # a long wait for the rare face
    pmf = turn_distribution(slow)
    assert 1 - pmf.sum() < 1e-12 and pmf.size > 1000
    assert (np.arange(pmf.size) * pmf).sum() == pytest.approx(expected_turns(slow)[0], rel=1e-9)


def test_turn_distribution_refuses_a_hopelessly_slow_board() -> None:
    hopeless = Board(size=3, die=[1e-15, 1])                 # from 2 only a face-1 roll finishes
    with pytest.raises(ValueError, match="too slow for an exact distribution"):
        turn_distribution(hopeless)


def test_bonus_roll_turn_matrix_exact_and_float_agree() -> None:
    from chutes_edu.markov import _exact_turn_rows
    rows = _exact_turn_rows(NOORDENBOS_2023)
    P = transition_matrix(NOORDENBOS_2023)
    dense = np.zeros_like(P)
    for s, row in enumerate(rows):
        for t, p in row.items():
            dense[s, t] = float(p)
    assert np.allclose(dense, P, atol=1e-14)
    assert all(sum(row.values()) == 1 for row in rows)


def test_bonus_face_that_overshoots_repeats_exactly() -> None:
    # On square 9 of 10 with a fair 2-sided die and bonus 2: a 2 overshoots (stay) and rolls again,
    # so the turn ends on 10 with probability 1/2 + 1/4 + ... = 1.
    board = Board(size=10, die=2, bonus_roll=2)
    assert transition_matrix(board)[9, 10] == pytest.approx(1.0)
    assert expected_turns(board, exact=True)[9] == 1


def test_win_probabilities_basic_facts() -> None:
    assert win_probabilities(T, [0]).tolist() == pytest.approx([1.0])
    two = win_probabilities(T, [0, 0])
    assert two[0] > 0.5 > two[1] and two.sum() == pytest.approx(1, abs=1e-10)
    assert win_probabilities(T, [50, 100]).tolist() == pytest.approx([0.0, 1.0])
    with pytest.raises(ValueError, match="position of player 1 101 is off the board"):
        win_probabilities(T, [0, 101])
    with pytest.raises(ValueError, match="at least one player"):
        win_probabilities(T, [])


def test_jump_effects_marks_forbidden_jumps() -> None:
    effects = jump_effects(T, min_length=3)
    assert effects.shape == (101, 101)
    assert np.isnan(effects[0]).all() and np.isnan(effects[100]).all()   # from 0 or the end
    assert np.isnan(effects[1]).all()                                     # an existing source
    assert np.isnan(effects[38]).all()                                    # an existing destination
    assert np.isnan(effects[:, 28]).all()                                 # onto a source
    assert np.isnan(effects[30, 31]) and np.isnan(effects[30, 30])        # too short; itself
    assert not np.isnan(effects[30, 33]) and not np.isnan(effects[30, 26])  # onto a destination is fine
    assert effects[30, 100] == pytest.approx(expected_turns(T.with_jump(30, 100))[0])


def test_jump_effects_with_bonus_rolls_match_resolving() -> None:
    board = NOORDENBOS_2023
    effects = jump_effects(board)
    for a, b in [(30, 100), (45, 2), (5, 97), (98, 100), (97, 50), (2, 3)]:
        assert effects[a, b] == pytest.approx(expected_turns(board.with_jump(a, b))[0], rel=1e-9)


def test_jump_effects_nan_for_a_jump_that_makes_the_game_endless() -> None:
    board = Board(size=6, die=1)                  # a one-face die walks 0, 1, 2, ...
    effects = jump_effects(board)
    assert np.isnan(effects[4, 2])                # 4 -> 2 would loop 2, 3, 4 for ever
    assert effects[4, 5] == pytest.approx(expected_turns(board.with_jump(4, 5))[0])


def test_million_games_agree_with_the_exact_mean() -> None:
    turns = simulate(T, 1_000_000, seed=20231)
    se = turns.std(ddof=1) / np.sqrt(turns.size)
    assert abs(turns.mean() - expected_turns(T)[0]) < 4 * se
    assert turns.min() >= 7


def test_exact_transition_matrix() -> None:
    P = transition_matrix(NOORDENBOS_2023, exact=True)
    assert isinstance(P, sympy.Matrix) and P.shape == (101, 101)
    assert all(sum(P.row(i)) == 1 for i in range(101))
    assert np.allclose(np.array(P, dtype=float), transition_matrix(NOORDENBOS_2023), atol=1e-15)
    # from 97 a six bounces back to 97 and rolls again: 1/6 (a 3) summed over the repeats
    assert P[97, 100] == sympy.Rational(1, 5)


def test_cached_results_are_returned_as_copies() -> None:
    board = Board({5: 2}, size=12, die=3)
    pmf = turn_distribution(board)
    pmf[:] = 0.0
    assert turn_distribution(board).sum() == pytest.approx(1.0)
    t = expected_turns(board)
    t[0] = -1.0
    assert expected_turns(board)[0] > 0
    P = transition_matrix(board)
    P[0, 0] = 5.0
    assert transition_matrix(board)[0, 0] == 0.0


def test_square_distribution_after_k_turns() -> None:
    assert square_distribution(T, 0).tolist() == [1.0] + [0.0] * 100
    after_one = square_distribution(T, 1)
    assert np.flatnonzero(after_one).tolist() == [2, 3, 5, 6, 14, 38]
    cdf = np.cumsum(turn_distribution(T))
    for k in (7, 20, 60):
        v = square_distribution(T, k)
        assert v.sum() == pytest.approx(1.0) and v[100] == pytest.approx(cdf[k], abs=1e-12)
    assert square_distribution(T, 3, start=99)[100] == pytest.approx(1 - (5 / 6) ** 3)
    with pytest.raises(ValueError, match="turns must be 0 or more"):
        square_distribution(T, -1)


@pytest.mark.parametrize("size", [2, 3, 250])          # dense and sparse solves
@pytest.mark.parametrize("traps", [(), (1,)])
def test_nearly_certain_staying_is_solved_not_called_singular(size: int, traps: tuple) -> None:
    """A face of weight 1e-17 the only way on from the odd squares: 1 - Q[s, s] rounds to 0, yet
    the system is solvable; the answers against the exact ones (Board keeps exact weights)."""
    board = Board(size=size, die=[1e-17, 1], traps=traps if size > 2 else ())
    exact = expected_turns(board, exact=True) if size <= 3 else None
    t = expected_turns(board)
    assert np.isfinite(t).all()
    if exact is not None:
        assert t == pytest.approx([float(x) for x in exact], rel=1e-12)
    # square size-1 needs the 1 (a roll of 2 overshoots and stays): 1e17 turns on average
    assert t[size - 1] == pytest.approx(1e17, rel=1e-9)


def test_bounce_with_unused_big_faces() -> None:
    """Faces of weight 0 bigger than the board are no move at all, under "bounce" too."""
    board = Board(size=100, die=[1] * 100 + [0] * 900, overshoot="bounce")
    assert expected_turns(board)[0] == pytest.approx(expected_turns(
        Board(size=100, die=100, overshoot="bounce"))[0], rel=1e-12)


def test_no_expected_visit_is_negative_where_a_square_is_entered_from_nowhere_else() -> None:
    """A jump's source is never entered (a token only stays there once it stands on it): its
    column of N is exactly zero off the diagonal, not rounding noise such as -3e-16 visits (seed
    160 of these boards gave one before)."""
    from chutes_edu import random_board

    for seed in range(200):
        board = random_board(100, 12, seed=seed)
        N = fundamental_matrix(board)
        assert (N >= 0).all(), (seed, N.min())
        for source in board.jumps:
            column = np.delete(N[:, source], source)
            assert (column == 0).all(), (seed, source)
