"""Property tests: on random boards (with and without traps), independent methods agree.

solve (I - Q) t = 1  ==  row sums of N  ==  mean of the length distribution  ==  exact rationals
==  re-solving a board with one more jump (vs the rank-one jump_effects)  ~  simulation.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from chutes_edu import (
    OVERSHOOT_RULES,
    Board,
    expected_turns,
    fundamental_matrix,
    jump_effects,
    simulate,
    transition_matrix,
    turn_distribution,
    win_probabilities,
)

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


@st.composite
def boards(draw: st.DrawFn, max_size: int = 24, traps: bool = True) -> Board:
    size = draw(st.integers(3, max_size))
    die = draw(st.one_of(st.integers(1, 7),
                         st.lists(st.integers(0, 4), min_size=1, max_size=6)
                         .filter(lambda w: sum(w) > 0)))
    faces = die if isinstance(die, int) else len(die)
    overshoot = draw(st.sampled_from(OVERSHOOT_RULES))
    sources = draw(st.lists(st.integers(1, size - 1), unique=True, max_size=min(5, size - 1)))
    jumps = {a: draw(st.integers(0, size).filter(lambda b, a=a: b != a and b not in sources))
             for a in sources}
    bonus = draw(st.one_of(st.none(), st.integers(1, faces)))
    free = [s for s in range(1, size) if s not in sources]
    holes = (draw(st.lists(st.sampled_from(free), unique=True, min_size=1, max_size=3))
             if traps and free and draw(st.integers(0, 2)) else [])     # traps on 2 boards in 3
    try:
        board = Board(jumps, size=size, die=die, overshoot=overshoot, bonus_roll=bonus,
                      traps=holes)
    except ValueError:
        assume(False)
    assume(expected_turns(board).max() < 5_000)       # keep distributions and simulations short
    return board


@SETTINGS
@given(boards())
def test_transition_matrix_is_stochastic_and_absorbing(board: Board) -> None:
    P = transition_matrix(board)
    n = board.size
    assert P.shape == (n + 1, n + 1)
    assert np.all(P >= 0) and np.allclose(P.sum(axis=1), 1.0)
    assert P[n, n] == 1.0
    for v in board.traps:
        assert P[v, v] == 1.0


@SETTINGS
@given(boards())
def test_solve_equals_fundamental_row_sums_and_distribution_mean(board: Board) -> None:
    t = expected_turns(board)
    N = fundamental_matrix(board)
    assert np.allclose(N.sum(axis=1), t[:-1], rtol=1e-8)
    for start in {0, board.size // 2, board.size - 1}:
        pmf = turn_distribution(board, start)
        assert 1 - pmf.sum() < 1e-11
        mean = (np.arange(pmf.size) * pmf).sum()
        assert np.isclose(mean, t[start], rtol=1e-7, atol=1e-9)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(boards(max_size=14))
def test_exact_and_float_agree(board: Board) -> None:
    exact = expected_turns(board, exact=True)
    assert exact[board.size] == 0
    assert np.allclose(np.array(exact, dtype=float).ravel(), expected_turns(board), rtol=1e-9)
    N = fundamental_matrix(board, exact=True)
    assert all(sum(N.row(i)) == exact[i] for i in range(board.size))   # exactly, as rationals


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(boards(max_size=12), st.integers(1, 4))
def test_jump_effects_equal_resolving_every_changed_board(board: Board, min_length: int) -> None:
    effects = jump_effects(board, min_length=min_length)
    n = board.size
    for a in range(n + 1):
        for b in range(n + 1):
            try:
                changed = board.with_jump(a, b)
            except ValueError:
                allowed = False
            else:
                allowed = (abs(a - b) >= min_length and a not in board.jumps.values())
            if allowed:
                assert np.isclose(effects[a, b], expected_turns(changed)[0], rtol=1e-7), (a, b)
            else:
                assert np.isnan(effects[a, b]), (a, b)


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(boards(max_size=16), st.integers(0, 2**32 - 1))
def test_simulation_agrees_with_the_exact_mean(board: Board, seed: int) -> None:
    t0 = expected_turns(board)[0]
    assume(t0 < 300)
    turns = simulate(board, 20_000, seed=seed)
    se = turns.std(ddof=1) / np.sqrt(turns.size)
    # 5 standard errors (plus a hair for boards that always take the same number of turns)
    assert abs(turns.mean() - t0) <= 5 * se + 1e-9


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(boards(max_size=16, traps=False), st.lists(st.integers(0, 15), min_size=2, max_size=4))
def test_win_probabilities_sum_to_one(board: Board, positions: list[int]) -> None:
    positions = [p % (board.size + 1) for p in positions]
    wins = win_probabilities(board, positions)
    assert np.all(wins >= -1e-15) and np.isclose(wins.sum(), 1.0, atol=1e-10)


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(boards(max_size=12, traps=False), st.integers(0, 2**32 - 1))
def test_win_probabilities_agree_with_simulated_races(board: Board, seed: int) -> None:
    assume(expected_turns(board)[0] < 200)
    games = 20_000
    rng = np.random.default_rng(seed)
    lengths = np.stack([simulate(board, games, seed=rng) for _ in range(3)])
    winners = np.argmin(lengths, axis=0)              # argmin picks the earliest seat on ties
    observed = np.bincount(winners, minlength=3) / games
    expected = win_probabilities(board, [0, 0, 0])
    assert np.all(np.abs(observed - expected) <= 5 * np.sqrt(expected * (1 - expected) / games) + 1e-9)
