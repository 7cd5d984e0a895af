"""Tests for chutes_edu.control: seed 003's value iteration, fewest turns, the race."""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from chutes_edu import AIMING_GAME_2021, MILTON_BRADLEY_1943, Board, control, expected_turns
from chutes_edu.control import (
    _aim_table,
    optimal_policy,
    policy_expected_turns,
    race,
    simulate_policy,
    value_iteration,
)

# Seed 003's own code (run outside the repo), discount 0.9, accuracy (1/4, 1/2, 1/4), reward 100:
# the target printed for each square 0..99 after its 35 sweeps.
SEED_003_POLICY = [
    1, 3, 2, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 6, 6, 6, 6, 5, 4,
    3, 6, 6, 5, 4, 3, 2, 1, 1, 6, 6, 5, 4, 6, 6, 6, 5, 6, 6, 6,
    6, 5, 4, 3, 6, 6, 5, 4, 3, 2, 1, 1, 6, 6, 6, 5, 4, 3, 6, 6,
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 4, 3, 6, 6, 5, 4, 3, 2, 1,
    1, 4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 4, 6, 6, 5, 4, 3, 2, 1,
]
SEED_003_VALUES = {0: 34.85667733480863, 50: 51.68450033784868, 99: 81.81818181804937}

FAST = settings(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# --------------------------------------------------------------------------- the aimed move
@pytest.mark.parametrize("rule", ["stay", "win", "bounce", "stop_short"])
def test_aim_table_agrees_with_the_board_for_die_sized_moves(rule):
    board = Board({2: 7, 9: 3, 11: 12}, size=12, die=4, overshoot=rule)
    table = _aim_table(board)
    assert table.shape == (13, 4, 3)
    for s in range(13):
        for t in range(1, 5):
            for k in range(3):
                d = t - 1 + k
                if 1 <= d <= 4:
                    assert table[s, t - 1, k] == board.landing(s, d), (s, t, k)


def test_a_move_of_zero_stays_put_and_a_jump_foot_takes_its_jump():
    board = Board({2: 7, 5: 1}, size=8, die=3)
    table = _aim_table(board)
    assert table[0, 0, 0] == 0 and table[3, 0, 0] == 3
    assert table[2, 0, 0] == 7 and table[5, 0, 0] == 1    # as in seed 003's table
    assert table[1, 0, 1] == 7          # a move of 1 onto the ladder's foot climbs it


def test_moves_past_the_die_follow_the_overshoot_rule_then_one_jump():
    jumps = {9: 4}
    # a move of 4 (aim 3, one too far) from square 8 of a 10-square board
    assert _aim_table(Board(jumps, size=10, die=3, overshoot="stay"))[8, 2, 2] == 8
    assert _aim_table(Board(jumps, size=10, die=3, overshoot="win"))[8, 2, 2] == 10
    assert _aim_table(Board(jumps, size=10, die=3, overshoot="bounce"))[8, 2, 2] == 8   # 12 -> 8
    assert _aim_table(Board({8: 4}, size=10, die=3, overshoot="bounce"))[8, 2, 2] == 4  # 8 -> 4
    assert _aim_table(Board(jumps, size=10, die=3, overshoot="stop_short"))[8, 2, 2] == 4
    assert (_aim_table(Board(jumps, size=10, die=3))[10] == 10).all()


# --------------------------------------------------------------------------- seed 003
def test_seed_003_value_iteration_takes_35_sweeps():
    result = value_iteration(AIMING_GAME_2021)
    assert result.iterations == 35
    for square, value in SEED_003_VALUES.items():
        assert result.values[square] == pytest.approx(value, abs=1e-9)
    assert result.values.shape == (101,) and result.policy.shape == (100,)
    assert result.values[100] == result.values[80] == 100.0


def test_seed_003_policy():
    policy = value_iteration(AIMING_GAME_2021).policy.tolist()
    differ = {s: (policy[s], SEED_003_POLICY[s]) for s in range(100)
              if policy[s] != SEED_003_POLICY[s]}
    assert differ == {}


def test_value_iteration_by_hand():
    # Squares 0, 1, 2; one target (move 0, 1 or 2); past the end stops on square 1.
    board = Board(size=2, die=1, overshoot="stop_short")
    # sweep 1: (0, 0, 100); sweep 2: (22.5, 45, 100), change 67.5;
    # sweep 3: 0.9 (25/4 * 0.9 ... ) = (47.8125, 65.25, 100), change 45.5625 <= 50
    result = value_iteration(board, tol=50)
    assert result.iterations == 3
    np.testing.assert_allclose(result.values, [47.8125, 65.25, 100.0])
    # the fixed point: v1 = 0.9 (v1/2 + 50), v0 = 0.9 (v0/4 + v1/2 + 25)
    v1 = 45 / 0.55
    v0 = (0.45 * v1 + 22.5) / 0.775
    np.testing.assert_allclose(value_iteration(board, tol=1e-10).values, [v0, v1, 100], rtol=1e-9)


def test_value_iteration_deterministic_ties_go_to_the_smallest_target():
    board = Board(size=3, die=2)
    result = value_iteration(board, accuracy=(0, 1, 0), discount=0.5, reward=80)
    # sweeps: (0,0,0,80) -> (0,40,40,80) -> (20,40,40,80) -> unchanged
    assert result.iterations == 4
    np.testing.assert_allclose(result.values, [20, 40, 40, 80])
    assert result.policy.tolist() == [1, 2, 1]      # from 0, aiming 1 and 2 are equally good


def test_jump_to_the_final_square_is_worth_the_reward():
    board = Board({3: 6}, size=6, die=2)
    result = value_iteration(board)
    assert result.values[3] == result.values[6] == 100.0


def test_a_smaller_discount_lowers_every_value():
    low = value_iteration(AIMING_GAME_2021, discount=0.5).values
    high = value_iteration(AIMING_GAME_2021, discount=0.99).values
    assert (low[:100] <= high[:100]).all()


def test_results_are_frozen():
    result = value_iteration(AIMING_GAME_2021)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.iterations = 3  # type: ignore[misc]
    with pytest.raises(ValueError):
        result.values[0] = 1.0


# --------------------------------------------------------------------------- fewest turns
def test_optimal_policy_on_the_standard_boards():
    for board in (AIMING_GAME_2021, MILTON_BRADLEY_1943):
        best = optimal_policy(board)
        turns = best.expected_turns
        assert turns.shape == (101,) and turns[100] == 0 and best.policy.shape == (100,)
        assert turns[0] < 11 < expected_turns(board)[0]
        # Bellman: no square can do better with another target
        q = 1 + sum(a * turns[_aim_table(board)[:100, :, k]]
                    for k, a in enumerate((0.25, 0.5, 0.25)))
        np.testing.assert_allclose(turns[:100], q.min(axis=1), rtol=1e-10)
        np.testing.assert_allclose(turns[:100], q[np.arange(100), best.policy - 1], rtol=1e-10)
        randomly = policy_expected_turns(board, np.full((100, 6), 1 / 6))[0]
        assert turns[0] < randomly


def test_value_iteration_policy_is_not_the_fewest_turns_policy():
    vi = value_iteration(AIMING_GAME_2021).policy
    best = optimal_policy(AIMING_GAME_2021)
    assert policy_expected_turns(AIMING_GAME_2021, vi)[0] > best.expected_turns[0] + 0.01


def test_optimal_policy_matches_brute_force():
    board = Board({2: 5, 6: 1}, size=7, die=3, overshoot="stay")
    acc = (0.2, 0.6, 0.2)
    best = optimal_policy(board, acc)
    every = np.array([policy_expected_turns(board, list(p), acc)
                      for p in itertools.product(range(1, 4), repeat=7)])
    np.testing.assert_allclose(best.expected_turns, every.min(axis=0), rtol=1e-10)
    assert np.isinf(every).any()         # some ways of aiming never finish


def test_policy_expected_turns_forms_agree():
    board = AIMING_GAME_2021
    as_int = policy_expected_turns(board, 2)
    as_list = policy_expected_turns(board, [2] * 100)
    as_matrix = policy_expected_turns(board, np.eye(6)[np.full(100, 1)])
    np.testing.assert_allclose(as_int, as_list)
    np.testing.assert_allclose(as_int, as_matrix)
    assert np.isinf(policy_expected_turns(board, 6)[99])   # 5, 6 or 7 past 99 all stop on 99


def test_simulated_policy_matches_expected_turns():
    best = optimal_policy(AIMING_GAME_2021)
    turns = simulate_policy(AIMING_GAME_2021, best.policy, 20_000, seed=3)
    se = turns.std() / math.sqrt(turns.size)
    assert abs(turns.mean() - best.expected_turns[0]) < 4 * se


@st.composite
def small_games(draw):
    size = draw(st.integers(4, 14))
    die = draw(st.integers(1, 4))
    rule = draw(st.sampled_from(["stay", "win", "bounce", "stop_short"]))
    if rule == "bounce":
        die = min(die, size - 1)
    pairs = draw(st.lists(st.tuples(st.integers(1, size - 1), st.integers(0, size)),
                          max_size=4, unique_by=lambda p: p[0]))
    try:
        board = Board(dict(pairs), size=size, die=die, overshoot=rule)
    except ValueError:
        assume(False)
    weights = draw(st.tuples(*[st.integers(1, 10)] * 3))
    accuracy = tuple(w / sum(weights) for w in weights)
    return board, accuracy


@FAST
@given(small_games())
def test_optimal_never_loses_to_a_fixed_aim(game):
    board, acc = game
    best = optimal_policy(board, acc).expected_turns
    slack = 1e-9 * np.maximum(1, best)
    for t in range(1, board.faces + 1):
        assert (best <= policy_expected_turns(board, t, acc) + slack).all()
    uniform = np.full((board.size, board.faces), 1 / board.faces)
    assert (best <= policy_expected_turns(board, uniform, acc) + slack).all()
    assert np.isfinite(best).all()


# --------------------------------------------------------------------------- the race
def _race_q(board, acc, win):
    n = board.size
    table = _aim_table(board)[:n]
    lose = np.hstack([1 - win, np.ones((n, 1))])
    return sum(a * lose[:, table[..., k]] for k, a in enumerate(acc)).transpose(1, 0, 2)


def test_race_on_the_standard_board():
    result = race(AIMING_GAME_2021)
    w = result.win_probability
    assert w.shape == (100, 100) and result.policy.shape == (100, 100)
    assert ((w >= 0) & (w <= 1)).all()
    assert 0.5 < result.first_mover < 0.6 and result.first_mover == w[0, 0]
    q = _race_q(AIMING_GAME_2021, (0.25, 0.5, 0.25), w)
    np.testing.assert_allclose(w, q.max(axis=2), atol=1e-10)
    chosen = np.take_along_axis(q, (result.policy - 1)[..., None], axis=2)[..., 0]
    np.testing.assert_allclose(w, chosen, atol=1e-10)
    diffs = result.differences()
    assert diffs and all(gain > 1e-9 and race_t != solo_t for _, _, race_t, solo_t, gain in diffs)
    np.testing.assert_array_equal(result.fewest_turns_policy,
                                  optimal_policy(AIMING_GAME_2021).policy)


def test_deterministic_race_by_hand():
    # Always moving exactly the target, up to 3 a turn, past the end wins: a player on x needs
    # ceil((10 - x) / 3) turns, and the mover wins unless the opponent needs fewer.
    board = Board(size=10, die=3, overshoot="win")
    result = race(board, accuracy=(0, 1, 0))
    need = np.array([math.ceil((10 - x) / 3) for x in range(10)])
    np.testing.assert_array_equal(result.win_probability, (need[:, None] <= need[None, :]) * 1.0)


def _play_races(board, policy, acc, me, opp, n_games, seed):
    """Monte Carlo: the fraction of races the player to move on ``me`` wins."""
    rng = np.random.default_rng(seed)
    table = _aim_table(board)
    n = board.size
    mover = np.full(n_games, me)
    other = np.full(n_games, opp)
    first = np.ones(n_games, dtype=bool)        # is the mover the player who moved first?
    first_won = np.zeros(n_games, dtype=bool)
    live = np.arange(n_games)
    while live.size:
        t = policy[mover, other] - 1
        k = rng.choice(3, size=live.size, p=acc)
        landed = table[mover, t, k]
        done = landed == n
        first_won[live[done]] = first[done]
        keep = ~done
        mover, other = other[keep], landed[keep]
        first, live = ~first[keep], live[keep]
    return first_won.mean()


def test_race_agrees_with_monte_carlo():
    board = Board({2: 6, 5: 1, 8: 3}, size=10, die=3, overshoot="stay")
    acc = (0.3, 0.4, 0.3)
    result = race(board, acc)
    for (me, opp), seed in (((0, 0), 1), ((3, 7), 2)):
        p = result.win_probability[me, opp]
        est = _play_races(board, result.policy, acc, me, opp, 40_000, seed)
        assert abs(est - p) < 4 * math.sqrt(p * (1 - p) / 40_000) + 1e-3


def test_race_targets_never_do_worse_than_fewest_turns():
    result = race(MILTON_BRADLEY_1943)
    q = _race_q(MILTON_BRADLEY_1943, (0.25, 0.5, 0.25), result.win_probability)
    solo = result.fewest_turns_policy - 1
    solo_q = np.take_along_axis(q, np.broadcast_to(solo[:, None, None], (100, 100, 1)), axis=2)
    assert (result.win_probability >= solo_q[..., 0] - 1e-10).all()
    for me, opp, race_t, solo_t, gain in result.differences():
        assert gain == pytest.approx(q[me, opp, race_t - 1] - q[me, opp, solo_t - 1], abs=1e-12)


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("accuracy, words", [
    ((0.5, 0.5, 0.5), "sums to 1.5"),
    ((-0.1, 0.6, 0.5), "under=-0.1 is negative"),
    ((float("nan"), 0.5, 0.5), "not finite"),
    ((0.5, 0.5), "2 values"),
    ("abc", "three probabilities"),
    ((0.25, "a", 0.75), "exact='a' is not a number"),
])
def test_bad_accuracy(accuracy, words):
    for solver in (value_iteration, optimal_policy, race):
        with pytest.raises(ValueError, match=words):
            solver(AIMING_GAME_2021, accuracy)


def test_unfinishable_accuracy():
    board = Board(size=10, die=3, overshoot="stay")
    with pytest.raises(ValueError, match="no way of aiming can finish .* squares 9"):
        optimal_policy(board, (0, 0, 1))      # every move is 2 or more: square 9 is stuck
    with pytest.raises(ValueError, match="no way of aiming"):
        race(board, (0, 0, 1))
    assert np.isfinite(value_iteration(board, (0, 0, 1)).values).all()


@pytest.mark.parametrize("kwargs, words", [
    (dict(discount=0), "discount"), (dict(discount=1.5), "discount"),
    (dict(tol=0), "tol"), (dict(reward=float("inf")), "reward"),
])
def test_bad_value_iteration_settings(kwargs, words):
    with pytest.raises(ValueError, match=words):
        value_iteration(AIMING_GAME_2021, **kwargs)


def test_value_iteration_gives_up():
    with pytest.raises(RuntimeError, match="did not settle"):
        value_iteration(AIMING_GAME_2021, max_iter=5)


@pytest.mark.parametrize("policy, words", [
    (7, "1..6"), ([1] * 99, "100 targets"), ([0] + [1] * 99, "squares 0 aim at"),
    (np.ones((100, 6)), "sum to 1"), (np.ones((3, 3, 3)), "shape"),
])
def test_bad_policy(policy, words):
    with pytest.raises(ValueError, match=words):
        policy_expected_turns(AIMING_GAME_2021, policy)


def test_public_names():
    for name in control.__all__:
        assert hasattr(control, name)
