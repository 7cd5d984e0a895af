"""Where the game ends and the long run: known answers by hand, and properties on random boards
with traps (B = NR rows sum to 1, renewal = stationary equations, QSD = left eigenvector,
simulation agrees)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_properties import boards

from chutes_edu import (
    MILTON_BRADLEY_1943,
    NOORDENBOS_2023,
    Board,
    QuasiStationary,
    absorption_probabilities,
    expected_rounds,
    expected_turns,
    fundamental_matrix,
    hitting_probabilities,
    jump_effects,
    quasi_stationary_distribution,
    simulate,
    simulate_endings,
    stationary_distribution,
    transition_matrix,
    turn_distribution,
    win_probabilities,
)
from chutes_edu.control import optimal_policy

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])

VOLCANO = Board(size=4, die=2, traps=[2])
"""By hand: from 3 a 1 wins and a 2 is lost (stay); from 1 a 1 falls in, a 2 reaches 3; from 0 a 1
goes to 1, a 2 falls in. So B[0] = (1/2 + 1/4, 1/4), B[1] = (1/2, 1/2), B[3] = (0, 1)."""

GOLDEN = Board({2: 0}, size=3, die=2)
"""From 0 a 2 slides back to 0, from 1 a 1 slides back: Q on {0, 1} is [[1/2, 1/2], [1/2, 0]], with
Perron root phi/2 and left eigenvector (phi, 1); t = (6, 4); N[0] = (4, 2)."""

PHI = (1 + math.sqrt(5)) / 2


def ruin(N: int, p: float) -> np.ndarray:
    """The gambler's ruin on 0..N: win a unit with chance p, lose it with chance 1 - p."""
    P = np.zeros((N + 1, N + 1))
    P[0, 0] = P[N, N] = 1.0
    for i in range(1, N):
        P[i, i + 1], P[i, i - 1] = p, 1 - p
    return P


# --------------------------------------------------------------------------- traps on the board
def test_a_move_ending_on_a_trap_ends_the_game_and_a_jump_can_lead_into_one() -> None:
    b = Board({3: 8}, size=10, die=3, traps=[6, 8])
    assert b.traps == (6, 8) and b.absorbing == (6, 8, 10)
    assert b.landing(5, 1) == 6 and b.landing(0, 3) == 8 and b.landing(6, 2) == 6
    P = transition_matrix(b)
    assert P[6, 6] == 1.0 and P[8, 8] == 1.0 and P[0, 8] == pytest.approx(1 / 3)


def test_a_bonus_roll_does_not_rescue_a_token_from_a_trap() -> None:
    b = Board(size=6, die=2, bonus_roll=2, traps=[2])
    # from 0: a 2 falls into 2 and the turn ends there, with no bonus roll
    assert transition_matrix(b, exact=True)[0, 2] == sympy.Rational(1, 2)
    turns, squares = simulate_endings(b, 4000, seed=3)
    assert turns[squares == 2].min() >= 1
    assert np.all(turns[(squares == 2)] >= 1)


def test_expected_turns_counts_turns_until_the_game_ends_either_way() -> None:
    t = expected_turns(VOLCANO, exact=True)
    # t3 = 1 + t3/2 -> 2; t1 = 1 + t3/2 = 2; t0 = 1 + t1/2 = 2
    assert list(t) == [2, 2, 0, 2, 0]
    assert np.allclose(expected_turns(VOLCANO), [2, 2, 0, 2, 0])
    N = fundamental_matrix(VOLCANO)
    assert np.all(N[2] == 0) and np.all(N[:, 2] == 0)
    assert fundamental_matrix(VOLCANO, exact=True)[0, 1] == sympy.Rational(1, 2)


def test_turn_distribution_of_a_trap_board() -> None:
    # a 2 falls in (T = 1); else on 1 a 1 falls in (T = 2); else on 3 a 1 wins, a 2 waits
    pmf = turn_distribution(VOLCANO)
    assert np.allclose(pmf[1:12], 0.5 ** np.arange(1, 12)) and pmf[0] == 0
    assert turn_distribution(VOLCANO, start=2).tolist() == [1.0]


def test_functions_that_do_not_handle_traps_say_so() -> None:
    with pytest.raises(ValueError, match="win_probabilities does not handle traps"):
        win_probabilities(VOLCANO, [0, 0])
    with pytest.raises(ValueError, match="expected_rounds does not handle traps"):
        expected_rounds(VOLCANO, 2)
    with pytest.raises(ValueError, match=r"do not handle traps .* traps on 2"):
        optimal_policy(VOLCANO)


def test_unfinishable_detection_treats_traps_as_ends() -> None:
    # chutes 7, 8, 9 -> 1 and a three-sided die: nothing below 7 reaches 10, but 5 is a trap
    Board({7: 1, 8: 1, 9: 1}, size=10, die=3, traps=[5])
    with pytest.raises(ValueError, match="neither the final square 6 nor a trap can ever be "):
        Board({3: 1}, size=6, die=1, traps=[5])


def test_jump_effects_with_traps_equal_re_solving() -> None:
    b = Board({3: 8}, size=10, die=3, traps=[6, 8], bonus_roll=3)
    effects = jump_effects(b)
    for a, dest in [(1, 6), (2, 9), (4, 10), (5, 0), (7, 2)]:
        assert effects[a, dest] == pytest.approx(expected_turns(b.with_jump(a, dest))[0], rel=1e-10)
    assert np.isnan(effects[6, 2])                  # a trap cannot be a jump's source


# --------------------------------------------------------------------------- known answers
def test_volcano_absorption_by_hand() -> None:
    B = absorption_probabilities(VOLCANO, exact=True)
    half, quarter = sympy.Rational(1, 2), sympy.Rational(1, 4)
    assert B == sympy.Matrix([[3 * quarter, quarter], [half, half], [1, 0], [0, 1], [0, 1]])
    assert np.allclose(absorption_probabilities(VOLCANO), np.array(B, dtype=float))


def test_gamblers_ruin_closed_forms() -> None:
    fair = absorption_probabilities(ruin(6, 0.5), absorbing=[0, 6])
    assert np.allclose(fair[:, 1], np.arange(7) / 6) and np.allclose(fair.sum(axis=1), 1)
    p, N = 0.6, 5
    r = (1 - p) / p
    expected = [(1 - r**i) / (1 - r**N) for i in range(N + 1)]
    assert np.allclose(absorption_probabilities(ruin(N, p))[:, 1], expected)
    exact = absorption_probabilities([[1, 0, 0], [Fraction(1, 3), 0, Fraction(2, 3)], [0, 0, 1]],
                                     absorbing=[2, 0], exact=True)
    assert exact[1, 0] == sympy.Rational(2, 3)


def test_picky_eater_with_an_absorbing_state_named_by_the_student() -> None:
    # 0: pasta, 1: rice, 2: refuses dinner forever (absorbing)
    P = sympy.Matrix([[sympy.Rational(1, 2), sympy.Rational(1, 4), sympy.Rational(1, 4)],
                      [sympy.Rational(1, 2), 0, sympy.Rational(1, 2)], [0, 0, 1]])
    assert absorption_probabilities(P, exact=True) == sympy.Matrix([[1], [1], [1]])


@pytest.mark.parametrize("P, absorbing, message", [
    ([[1, 0], [0.5, 0.4]], None, r"rows 1 do not"),
    ([[1, 0], [0.5, 0.5]], [1], r"states 1 are named absorbing but can be left"),
    ([[0, 1], [1, 0]], None, r"no absorbing state"),
    ([[1, 0, 0], [0, 0, 1], [0, 1, 0]], None, r"from states 1-2 no absorbing state"),
    ([[1, 0], [-0.5, 1.5]], None, r"P\[1, 0\] = -0.5 is not a probability"),
    ([[1, 0, 0], [0, 1, 0]], None, r"must be square"),
    ([[1, 0], [0.5, 0.5]], [2], r"not states of this chain"),
])
def test_bad_matrices_raise_value_error_naming_the_problem(P: list, absorbing: list | None,
                                                           message: str) -> None:
    with pytest.raises(ValueError, match=message):
        absorption_probabilities(P, absorbing=absorbing)


def test_a_board_does_not_take_absorbing() -> None:
    with pytest.raises(ValueError, match=r"traps and final square: \[2, 4\]"):
        absorption_probabilities(VOLCANO, absorbing=[4])


def test_golden_board_stationary_and_quasi_stationary_by_hand() -> None:
    pi = stationary_distribution(GOLDEN)
    assert np.allclose(pi, [2 / 3, 1 / 3, 0, 0])       # N[0] / t0 = (4, 2) / 6
    assert 1 / pi[0] == pytest.approx(6 / 4)             # Kac: t0 / N00
    qsd = quasi_stationary_distribution(GOLDEN)
    assert isinstance(qsd, QuasiStationary)
    assert qsd.decay_rate == pytest.approx(PHI / 2, rel=1e-12)
    assert np.allclose(qsd.distribution, [1 / PHI, 1 / PHI**2, 0, 0], rtol=1e-9)
    # the tail of the length distribution decays at that rate
    pmf = turn_distribution(GOLDEN)
    tail = 1 - np.cumsum(pmf)
    assert tail[30] / tail[29] == pytest.approx(PHI / 2, rel=1e-6)


def test_the_1943_board_long_run() -> None:
    pi = stationary_distribution(MILTON_BRADLEY_1943)
    t0 = expected_turns(MILTON_BRADLEY_1943)[0]
    assert 1 / pi[0] == pytest.approx(t0, rel=1e-12)     # no chute leads to 0: N00 = 1
    qsd = quasi_stationary_distribution(MILTON_BRADLEY_1943)
    # P(X_k = . | T > k) by playing the chain on, renormalising each turn: the ratio of
    # survivals tends to the decay rate and the conditioned distribution to the QSD
    Q = transition_matrix(MILTON_BRADLEY_1943)[:100, :100]
    x = np.zeros(100)
    x[0] = 1.0
    for _ in range(3000):
        x = x @ Q
        ratio = x.sum()
        x /= ratio
    assert ratio == pytest.approx(qsd.decay_rate, rel=1e-10)
    assert np.allclose(x, qsd.distribution[:100], atol=1e-10)


def test_a_periodic_board_has_no_quasi_stationary_limit() -> None:
    # faces 1 and 3 with bounce: each turn flips the parity; long games swing between 8 and 9
    with pytest.raises(ValueError, match=r"squares 8-9, .* period 2"):
        quasi_stationary_distribution(Board(size=10, die=[1, 0, 1], overshoot="bounce"))


def test_bounded_games_have_no_quasi_stationary_distribution() -> None:
    with pytest.raises(ValueError, match="always ends within 5 turns"):
        quasi_stationary_distribution(Board(size=10, die=[0, 1], traps=[9]))


def test_tied_classes_the_later_one_carries_long_games() -> None:
    # faces 1 and 3, "stay": squares 8 and 9 each keep the token with chance exactly 1/2, and 8
    # leads to 9, so long games end up on 9 (the chance of still being on 8 falls like 1/k)
    qsd = quasi_stationary_distribution(Board(size=10, die=[1, 0, 1]))
    assert qsd.decay_rate == 0.5
    assert qsd.distribution.tolist() == [0.0] * 9 + [1.0, 0.0]


def test_hitting_probabilities_by_hand_and_on_the_diagonal() -> None:
    h = hitting_probabilities(VOLCANO)
    assert np.allclose(np.diag(h), 1)
    assert h[0, 1] == pytest.approx(0.5) and h[0, 3] == pytest.approx(0.25)
    assert np.allclose(h[:, [2, 4]], absorption_probabilities(VOLCANO))
    hg = hitting_probabilities(GOLDEN)
    assert hg[1, 0] == pytest.approx(0.5) and hg[0, 1] == pytest.approx(1.0)   # 1 is the way out


def test_expected_rounds_geometric_and_one_player() -> None:
    coin = Board(size=2, die=2)                 # T is geometric(1/2): P(T > k) = 2^-k
    for m in (1, 2, 3):
        assert expected_rounds(coin, m) == pytest.approx(1 / (1 - 2.0**-m), rel=1e-10)
    assert expected_rounds(MILTON_BRADLEY_1943, 1) == pytest.approx(
        expected_turns(MILTON_BRADLEY_1943)[0], rel=1e-9)
    with pytest.raises(ValueError, match="players must be at least 1"):
        expected_rounds(coin, 0)


def test_expected_rounds_agree_with_simulated_games() -> None:
    games = simulate(NOORDENBOS_2023, 3 * 40_000, seed=5).reshape(3, -1).min(axis=0)
    se = games.std(ddof=1) / np.sqrt(games.size)
    assert abs(games.mean() - expected_rounds(NOORDENBOS_2023, 3)) < 5 * se


# --------------------------------------------------------------------------- properties
@SETTINGS
@given(boards(max_size=16))
def test_absorption_rows_sum_to_one_and_equal_n_r(board: Board) -> None:
    B = absorption_probabilities(board)
    ends = list(board.absorbing)
    assert B.shape == (board.size + 1, len(ends))
    assert np.allclose(B.sum(axis=1), 1.0) and np.all(B >= -1e-12)
    assert np.array_equal(B[ends], np.eye(len(ends)))
    P = transition_matrix(board)
    N = fundamental_matrix(board)
    n = board.size
    live = [s for s in range(n) if s not in board.traps]
    assert np.allclose((N @ P[:n, ends])[live], B[live], atol=1e-9)


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(boards(max_size=10))
def test_exact_absorption_agrees_with_float_and_solves_the_first_step_equations(
        board: Board) -> None:
    B = absorption_probabilities(board, exact=True)
    assert np.allclose(np.array(B, dtype=float), absorption_probabilities(board), atol=1e-9)
    P = transition_matrix(board, exact=True)
    assert P * B == B                                   # B = R + QB, and absorbing rows stay
    assert all(sum(B.row(i)) == 1 for i in range(B.rows))


@SETTINGS
@given(boards(max_size=16))
def test_renewal_equals_the_stationary_equations(board: Board) -> None:
    pi = stationary_distribution(board)
    n = board.size
    assert np.isclose(pi.sum(), 1.0) and pi[n] == 0 and all(pi[v] == 0 for v in board.traps)
    P = transition_matrix(board)
    replay = P.copy()
    ends = list(board.absorbing)
    replay[:, 0] += replay[:, ends].sum(axis=1)         # a turn that ends a game restarts at 0
    replay[:, ends] = 0.0
    # solve pi (P' - I) = 0, sum(pi) = 1 directly (least squares on the stacked system)
    A = np.vstack([(replay - np.eye(n + 1)).T, np.ones(n + 1)])
    rhs = np.zeros(n + 2)
    rhs[-1] = 1.0
    direct = np.linalg.lstsq(A, rhs, rcond=None)[0]
    assert np.allclose(pi, direct, atol=1e-8)
    N = fundamental_matrix(board)
    assert np.allclose(pi[:n], N[0] / expected_turns(board)[0])


@SETTINGS
@given(boards(max_size=16))
def test_qsd_is_a_left_eigenvector_for_the_decay_rate(board: Board) -> None:
    try:
        qsd = quasi_stationary_distribution(board)
    except ValueError as error:                         # the two documented refusals only
        assert "does not settle" in str(error) or "lasts long" in str(error), error
        assume(False)
        return
    q, rho = qsd.distribution, qsd.decay_rate
    assert 0 < rho < 1 and np.isclose(q.sum(), 1.0) and np.all(q >= 0)
    assert all(q[a] == 0 for a in board.absorbing)
    P = transition_matrix(board)
    assert np.allclose(q @ P - rho * q, np.where(np.isin(np.arange(q.size), board.absorbing),
                                                 q @ P, 0.0), atol=1e-8)


@SETTINGS
@given(boards(max_size=16))
def test_hitting_probabilities_are_probabilities(board: Board) -> None:
    h = hitting_probabilities(board)
    assert np.all(h >= -1e-12) and np.all(h <= 1 + 1e-9) and np.allclose(np.diag(h), 1)


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(boards(max_size=16), st.integers(0, 2**32 - 1))
def test_simulated_endings_agree_with_absorption_and_expected_turns(board: Board,
                                                                     seed: int) -> None:
    assume(expected_turns(board)[0] < 300)
    games = 20_000
    turns, squares = simulate_endings(board, games, seed=seed)
    assert np.array_equal(turns, simulate(board, games, seed=seed))
    ends = list(board.absorbing)
    assert set(squares.tolist()) <= set(ends)
    observed = np.bincount(squares, minlength=board.size + 1)[ends] / games
    expected = absorption_probabilities(board)[0]
    assert np.all(np.abs(observed - expected)
                  <= 5 * np.sqrt(expected * (1 - expected) / games) + 1e-9)
    se = turns.std(ddof=1) / np.sqrt(games)
    assert abs(turns.mean() - expected_turns(board)[0]) <= 5 * se + 1e-9
