"""Boards of any size: the sparse path (above ``DENSE_MAX`` squares) against known answers, against
the dense path on the same boards, and against simulation; ``random_board``; the size limits.

No wall-clock assertions: speed is measured side by side in ``make bench``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
import sympy
from hypothesis import given

import chutes_edu.board as board_module
import chutes_edu.markov as markov
from chutes_edu import (
    Board,
    expected_turns,
    jump_effects,
    random_board,
    simulate,
    square_distribution,
    turn_distribution,
)
from tests.test_properties import SETTINGS, boards


@contextmanager
def dense_max(limit: int) -> Iterator[None]:
    """Solve with the dense path up to ``limit`` squares (0: always sparse), then restore."""
    saved = markov.DENSE_MAX
    markov.DENSE_MAX = limit
    try:
        yield
    finally:
        markov.DENSE_MAX = saved


def fresh(board: Board, **changes: object) -> Board:
    """An equal board with empty caches (results are cached per Board object)."""
    return board.replace(**changes) if changes else board.replace(name=board.name)


def recursion(size: int, faces: int, overshoot: str) -> np.ndarray:
    """Expected turns of a board with no jumps and a fair die, by the first-step recursion run
    backwards from the final square (plain Python, no linear algebra)."""
    t = [0.0] * (size + 1)
    for s in range(size - 1, -1, -1):
        inside = [t[s + r] for r in range(1, faces + 1) if s + r <= size]
        over = faces - len(inside)
        if overshoot == "win":                  # an overshoot finishes: t = 0 there
            t[s] = 1.0 + sum(inside) / faces
        else:                                   # "stay": t_s (1 - over/d) = 1 + sum/d
            t[s] = (1.0 + sum(inside) / faces) / (1.0 - over / faces)
    return np.array(t)


# --------------------------------------------------------------------------- known answers
@pytest.mark.parametrize("faces, overshoot", [(6, "win"), (6, "stay"), (4, "win"), (10, "stay")])
def test_ten_thousand_squares_without_jumps_match_the_recursion(faces: int,
                                                                overshoot: str) -> None:
    board = Board(size=10_000, die=faces, overshoot=overshoot)
    assert board.size > markov.DENSE_MAX                 # the sparse path
    t = expected_turns(board)
    np.testing.assert_allclose(t, recursion(10_000, faces, overshoot), rtol=1e-9, atol=0)


def test_one_faced_die_walks_one_square_a_turn() -> None:
    t = expected_turns(Board(size=12_000, die=1))
    np.testing.assert_allclose(t, np.arange(12_000, -1, -1, dtype=float), rtol=1e-12)


def test_big_board_mean_of_distribution_is_expected_turns() -> None:
    board = Board(size=5_000, die=6, overshoot="win")
    pmf = turn_distribution(board)
    assert 1.0 - pmf.sum() < 1e-12
    assert not pmf[:834].any()              # a game needs ceil(5000 / 6) = 834 turns at least
    k = np.arange(pmf.size)
    assert abs(k @ pmf - expected_turns(board)[0]) < 1e-9 * expected_turns(board)[0]


def test_big_board_simulation_agrees_with_expected_turns() -> None:
    board = random_board(10_000, 200, seed=3)
    turns = simulate(board, 3_000, seed=11)
    se = turns.std(ddof=1) / np.sqrt(turns.size)
    assert abs(turns.mean() - expected_turns(board)[0]) < 4 * se


def test_simulation_of_a_big_board_is_seeded() -> None:
    board = random_board(10_000, 100, seed=4)
    np.testing.assert_array_equal(simulate(board, 50, seed=2), simulate(board, 50, seed=2))


# --------------------------------------------------------------------------- sparse == dense
@pytest.mark.parametrize("size, jumps, seed, changes", [
    (300, 30, 1, {}),
    (450, 60, 2, {"overshoot": "bounce"}),
    (700, 70, 3, {"bonus_roll": 6}),
    (1_000, 100, 4, {"overshoot": "win", "die": [1, 2, 3, 0, 1]}),
    (2_000, 200, 5, {"overshoot": "stop_short"}),
])
def test_sparse_and_dense_expected_turns_agree(size: int, jumps: int, seed: int,
                                               changes: dict[str, object]) -> None:
    board = random_board(size, jumps, seed=seed)
    board = board.replace(**changes)
    with dense_max(0):
        sparse = expected_turns(fresh(board))
    with dense_max(10**9):
        dense = expected_turns(fresh(board))
    np.testing.assert_allclose(sparse, dense, rtol=1e-9, atol=1e-9)


def with_traps(board: Board, count: int) -> Board:
    used = set(board.jumps) | set(board.jumps.values())
    free = [s for s in range(2, board.size - 1) if s not in used]
    return board.replace(traps=free[len(free) // (count + 1):: len(free) // (count + 1)][:count])


@pytest.mark.parametrize("changes", [{}, {"bonus_roll": 6}, {"traps": 3},
                                     {"bonus_roll": 3, "traps": 2, "overshoot": "bounce"}])
def test_sparse_and_dense_agree_on_everything(changes: dict[str, object]) -> None:
    base = random_board(320, 25, seed=7)
    changes = dict(changes)
    if "traps" in changes:
        base = with_traps(base, int(changes.pop("traps")))
    board = base.replace(**changes)
    results = {}
    for name, limit in [("sparse", 0), ("dense", 10**9)]:
        with dense_max(limit):
            b = fresh(board)
            results[name] = (expected_turns(b), turn_distribution(b, start=5),
                             square_distribution(b, 40, start=3),
                             jump_effects(b, 2, sources=range(0, 321, 7),
                                          destinations=[*range(0, 321, 5), *b.traps, 320]))
    sparse, dense = results["sparse"], results["dense"]
    np.testing.assert_allclose(sparse[0], dense[0], rtol=1e-9, atol=1e-12)
    length = max(sparse[1].size, dense[1].size)             # the cut may differ by one term
    np.testing.assert_allclose(np.pad(sparse[1], (0, length - sparse[1].size)),
                               np.pad(dense[1], (0, length - dense[1].size)), rtol=0, atol=1e-12)
    np.testing.assert_allclose(sparse[2], dense[2], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(np.isnan(sparse[3]), np.isnan(dense[3]))
    np.testing.assert_allclose(sparse[3], dense[3], rtol=1e-9)


@SETTINGS
@given(boards())
def test_sparse_path_equals_dense_path_on_random_small_boards(board: Board) -> None:
    with dense_max(0):
        b = fresh(board)
        sparse = (expected_turns(b), jump_effects(b), turn_distribution(b))
    with dense_max(10**9):
        b = fresh(board)
        dense = (expected_turns(b), jump_effects(b), turn_distribution(b))
    np.testing.assert_allclose(sparse[0], dense[0], rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(np.isnan(sparse[1]), np.isnan(dense[1]))
    np.testing.assert_allclose(sparse[1], dense[1], rtol=1e-7)
    length = max(sparse[2].size, dense[2].size)
    np.testing.assert_allclose(np.pad(sparse[2], (0, length - sparse[2].size)),
                               np.pad(dense[2], (0, length - dense[2].size)), atol=1e-12)


def test_unfinishable_jumps_are_nan_on_the_sparse_path() -> None:
    # With a two-faced die, a chute a -> b with every square from b on reaching the end only
    # through a makes the board unfinishable; the graph search settles it (as the dense path).
    board = Board({100: 50}, size=260, die=[1, 0, 1], overshoot="bounce")
    with dense_max(0):
        sparse = jump_effects(fresh(board))
    with dense_max(10**9):
        dense = jump_effects(fresh(board))
    np.testing.assert_array_equal(np.isnan(sparse), np.isnan(dense))
    np.testing.assert_allclose(sparse, dense, rtol=1e-9)


# --------------------------------------------------------------------------- jump_effects
def test_big_jump_effects_match_re_solving_the_changed_boards() -> None:
    board = random_board(1_500, 80, seed=8).replace(bonus_roll=6)
    board = with_traps(board, 2)
    free = [s for s in range(1, 1_500) if s not in board.jumps
            and s not in board.jumps.values() and s not in board.traps]
    sources = free[5:1_500:300]
    destinations = [0, 17, 700, 1_499, *board.traps, 1_500]
    effects = jump_effects(board, sources=sources, destinations=destinations)
    assert effects.shape == (len(sources), len(destinations))
    for i, a in enumerate(sources):
        for j, b in enumerate(destinations):
            if b in board.jumps or a == b:
                assert np.isnan(effects[i, j])
                continue
            truth = expected_turns(board.with_jump(a, b))[0]
            assert abs(effects[i, j] - truth) <= 1e-9 * truth


def test_small_board_subsets_are_slices_of_the_whole_sweep() -> None:
    board = random_board(100, 10, seed=9)
    whole = jump_effects(board)
    part = jump_effects(board, 3, sources=[50, 20, 20], destinations=range(0, 101, 10))
    np.testing.assert_array_equal(part, jump_effects(board, 3)[np.ix_([50, 20, 20],
                                                                       range(0, 101, 10))])
    np.testing.assert_array_equal(jump_effects(board, sources=range(101)), whole)


def test_jump_effects_refuses_a_whole_sweep_that_is_too_big() -> None:
    board = Board(size=10_000)
    with pytest.raises(ValueError, match=r"sources=\.\.\. and/or destinations=") as error:
        jump_effects(board)
    assert "100,020,001" in str(error.value)
    row = jump_effects(board, sources=[5_000], destinations=[5_001, 10_000, 4_000])
    assert row.shape == (1, 3)
    assert abs(row[0, 1] - expected_turns(board.with_jump(5_000, 10_000))[0]) < 1e-9 * row[0, 1]


@pytest.mark.parametrize("kwargs, message", [
    ({"sources": [3, 101]}, "source 101 is off the board"),
    ({"destinations": [-1]}, "destination -1 is off the board"),
    ({"sources": 7}, "sources must be a collection"),
    ({"destinations": "12"}, "destinations must be a collection"),
])
def test_jump_effects_names_bad_sources_and_destinations(kwargs: dict[str, object],
                                                         message: str) -> None:
    with pytest.raises(ValueError, match=message):
        jump_effects(Board(size=100), **kwargs)


# --------------------------------------------------------------------------- limits
def test_exact_solve_is_refused_above_exact_max(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(markov, "EXACT_MAX", 40)
    assert isinstance(expected_turns(Board(size=40, die=2), exact=True)[0], sympy.Rational)
    with pytest.raises(ValueError, match="EXACT_MAX = 40"):
        expected_turns(Board(size=41, die=2), exact=True)


def test_exact_and_sparse_agree_on_a_mid_size_board() -> None:
    board = random_board(400, 40, seed=10)
    exact = expected_turns(board, exact=True)
    with dense_max(0):
        approx = expected_turns(fresh(board))
    assert abs(float(exact[0]) - approx[0]) < 1e-9 * approx[0]


def test_distribution_of_a_hopeless_big_board_is_refused() -> None:
    # Square 9,999 needs face 1 of a 1-in-a-million spinner: about 10^6 turns per game there.
    board = Board(size=10_000, die=[1, *([999_999] * 1)], overshoot="stay")
    with pytest.raises(ValueError, match="too slow for an exact distribution"):
        turn_distribution(board, start=9_999)


def test_a_refusal_names_the_same_number_of_terms_every_time() -> None:
    # The decay rate comes from ARPACK, whose own start vector is random (it gave 2.76e+07 and
    # 2.77e+07 terms for this board within one process): the refusal must not depend on it.
    messages = set()
    for _ in range(6):
        with pytest.raises(ValueError, match="too slow for an exact distribution") as refused:
            turn_distribution(Board(size=250, die=[1e-6, 1]))
        messages.add(str(refused.value))
    assert len(messages) == 1, messages


def test_square_distribution_of_too_many_turns_is_refused() -> None:
    with pytest.raises(ValueError, match="too much work"):
        square_distribution(Board(size=10_000), 10**7)


# --------------------------------------------------------------------------- random_board
def test_random_board_is_reproducible_and_valid() -> None:
    one = random_board(4_000, 400, seed=1)
    assert one == random_board(4_000, 400, seed=1)
    assert one != random_board(4_000, 400, seed=2)
    assert one.size == 4_000 and len(one.jumps) == 400
    assert not set(one.jumps) & set(one.jumps.values())          # no chained jumps
    assert all(1 <= a < 4_000 and 0 <= b <= 4_000 for a, b in one.jumps.items())
    assert one.name == "random board: 4000 squares, 400 jumps, seed 1"
    rng = np.random.default_rng(5)
    assert random_board(300, 10, seed=rng).size == 300
    other = random_board(500, 20, seed=3, die=4, overshoot="bounce")
    assert other.faces == 4 and other.overshoot == "bounce"
    assert random_board(50, 0, seed=0).jumps == {}


@pytest.mark.parametrize("args, kwargs, message", [
    ((1, 0), {}, "size must be at least 2"),
    ((100, 100), {}, "jumps must be between 0 and size - 1 = 99"),
    ((100, -1), {}, "jumps must be between"),
    ((100, 2.5), {}, "jumps must be a whole number"),
    ((100, 5), {"die": 0}, "die must have at least 1 face"),
    ((100, 5), {"overshoot": "wrap"}, "unknown overshoot rule"),
])
def test_random_board_names_bad_arguments(args: tuple[object, ...], kwargs: dict[str, object],
                                          message: str) -> None:
    with pytest.raises(ValueError, match=message):
        random_board(*args, **kwargs)


def test_random_board_gives_up_with_a_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    # Size 2 with one jump and a one-faced die: 1 -> 0 can never be finished, 1 -> 2 can.
    monkeypatch.setattr(board_module, "RANDOM_BOARD_TRIES", 1)
    outcomes = set()
    for seed in range(30):
        try:
            outcomes.add(random_board(2, 1, seed=seed, die=1).jumps[1])
        except ValueError as error:
            assert "ask for fewer jumps" in str(error)
            outcomes.add("refused")
    assert outcomes == {2, "refused"}


@pytest.mark.parametrize("seed", range(6))
def test_sweeps_and_graph_search_agree(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(seed)
    size = int(rng.integers(20, 120))
    board = random_board(size, size // 4, seed=seed, die=int(rng.integers(1, 4)))
    table, probs, ends = board._roll_table, board.probabilities, board.absorbing
    for avoid in [None, *rng.integers(1, size, 5).tolist()]:
        monkeypatch.setattr(board_module, "SWEEP_MAX", 10**9)
        swept = board_module._can_finish(table, probs, ends, avoid=avoid)
        monkeypatch.setattr(board_module, "SWEEP_MAX", 0)
        searched = board_module._can_finish(table, probs, ends, avoid=avoid)
        np.testing.assert_array_equal(swept, searched)
        if avoid is None:
            assert swept.all()
        else:
            assert not swept[avoid]


def test_finishability_of_a_big_board_names_the_stuck_squares() -> None:
    # Two chutes side by side that a two-faced die cannot jump over: nothing below them finishes.
    with pytest.raises(ValueError, match=r"can never be reached from squares 0-8999$"):
        Board({9_000: 0, 9_001: 0}, size=10_000, die=2)
    assert Board({9_000: 0, 9_001: 0}, size=10_000, die=3).size == 10_000
