"""Monte Carlo: reproducible, uncapped, faithful to every rule."""

from __future__ import annotations

import numpy as np
import pytest

from chutes_edu import (
    MILTON_BRADLEY_1943,
    NOORDENBOS_2023,
    Board,
    capped_mean,
    expected_turns,
    running_mean,
    simulate,
    simulate_endings,
    turn_distribution,
)


def test_same_seed_same_games_and_generators_accepted() -> None:
    a = simulate(MILTON_BRADLEY_1943, 5000, seed=7)
    assert np.array_equal(a, simulate(MILTON_BRADLEY_1943, 5000, seed=7))
    assert not np.array_equal(a, simulate(MILTON_BRADLEY_1943, 5000, seed=8))
    g1, g2 = np.random.default_rng(3), np.random.default_rng(3)
    assert np.array_equal(simulate(MILTON_BRADLEY_1943, 100, seed=g1),
                          simulate(MILTON_BRADLEY_1943, 100, seed=g2))
    assert a.dtype == np.int64 and a.shape == (5000,)


def test_edge_cases_and_bad_input() -> None:
    assert simulate(MILTON_BRADLEY_1943, 0, seed=1).shape == (0,)
    assert simulate(MILTON_BRADLEY_1943, 10, start=100, seed=1).tolist() == [0] * 10
    with pytest.raises(ValueError, match="n_games must be 0 or more"):
        simulate(MILTON_BRADLEY_1943, -1)
    with pytest.raises(ValueError, match="start 101 is off the board"):
        simulate(MILTON_BRADLEY_1943, 1, start=101)


def test_no_turn_cap_on_a_slow_board() -> None:
    slow = Board(size=3, die=[0.01, 1])          # from square 2 only a rare 1 finishes
    turns = simulate(slow, 2000, seed=5)
    assert turns.max() > 500                     # long games are played out, not cut
    se = turns.std(ddof=1) / np.sqrt(turns.size)
    assert abs(turns.mean() - expected_turns(slow)[0]) < 5 * se


def test_bonus_rolls_and_bounce_match_the_exact_distribution() -> None:
    turns = simulate(NOORDENBOS_2023, 200_000, start=1, seed=11)
    pmf = turn_distribution(NOORDENBOS_2023, start=1)
    observed = np.bincount(turns, minlength=pmf.size)[: pmf.size] / turns.size
    # every frequency within 5 binomial standard errors (plus a floor for tiny cells)
    tol = 5 * np.sqrt(pmf * (1 - pmf) / turns.size) + 5e-5
    assert np.all(np.abs(observed - pmf) <= tol)


@pytest.mark.parametrize("rule", ["stay", "win", "bounce", "stop_short"])
def test_every_overshoot_rule_matches_expected_turns(rule: str) -> None:
    board = MILTON_BRADLEY_1943.replace(overshoot=rule)
    turns = simulate(board, 100_000, seed=2)
    se = turns.std(ddof=1) / np.sqrt(turns.size)
    assert abs(turns.mean() - expected_turns(board)[0]) < 5 * se


def test_weighted_spinner() -> None:
    board = MILTON_BRADLEY_1943.replace(die=[3, 1, 1, 1, 1, 3])
    turns = simulate(board, 100_000, seed=4)
    se = turns.std(ddof=1) / np.sqrt(turns.size)
    assert abs(turns.mean() - expected_turns(board)[0]) < 5 * se


def test_running_mean_and_confidence_band() -> None:
    mean, half = running_mean(np.array([2, 4, 6, 8]))
    assert mean.tolist() == [2, 3, 4, 5]
    assert np.isinf(half[0])
    assert half[-1] == pytest.approx(1.96 * np.std([2, 4, 6, 8], ddof=1) / 2)


def test_a_turn_cap_biases_the_mean_down() -> None:
    turns = simulate(MILTON_BRADLEY_1943, 100_000, seed=9)
    assert capped_mean(turns, 50) < capped_mean(turns, 100) < turns.mean()
    assert capped_mean(turns, 10_000) == turns.mean()
    with pytest.raises(ValueError, match="cap must be at least 1"):
        capped_mean(turns, 0)


def test_traps_end_the_game_where_they_are() -> None:
    board = Board({3: 8}, size=10, die=3, traps=[6, 8], bonus_roll=3)
    turns, squares = simulate_endings(board, 50_000, seed=6)
    assert set(squares.tolist()) == {6, 8, 10}
    assert np.array_equal(turns, simulate(board, 50_000, seed=6))
    se = turns.std(ddof=1) / np.sqrt(turns.size)
    assert abs(turns.mean() - expected_turns(board)[0]) < 5 * se
    assert simulate_endings(board, 3, start=6, seed=1)[1].tolist() == [6, 6, 6]
    assert simulate(board, 3, start=8, seed=1).tolist() == [0, 0, 0]
