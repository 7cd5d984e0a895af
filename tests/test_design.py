"""Designing a board: the variance and its rank-one updates, the goals, the searches, confirmation."""

import itertools
from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from chutes_edu import (  # noqa: E402
    MILTON_BRADLEY_1943,
    Board,
    expected_turns,
    jump_effects,
    simulate,
    turn_distribution,
    win_probabilities,
)
from chutes_edu.design import (  # noqa: E402
    Design,
    FairestRace,
    LongestGame,
    ShortestGame,
    SmallestSpread,
    TargetLength,
    design_board,
    game_variance,
    plot_design,
    variance_effects,
)

# A coin (1 or 2 squares a turn) on 9 squares with a chute 5 -> 3: the best single ladder is
# 4 -> 9, but the best pair is 1 -> 9 and 2 -> 9, which end every game on its first turn.
FUNNEL = Board({5: 3}, size=9, die=2)


def _variance_from_pmf(board: Board) -> float:
    pmf = turn_distribution(board, tail=1e-15)
    k = np.arange(pmf.size)
    mean = k @ pmf
    return float((k - mean) ** 2 @ pmf)


# --------------------------------------------------------------------------- the variance
def test_variance_known_answers():
    # a coin on 2 squares: T = 1 (first roll a 2) or 1 + a geometric wait for a 1 (mean 2, E G^2 = 6)
    coin = Board(size=2, die=2)
    assert game_variance(coin, exact=True) == Fraction(2)
    assert game_variance(coin) == pytest.approx(2.0, rel=1e-13)
    # one square, a die that always moves: T = 1 surely
    assert game_variance(Board(size=2, die=(0, 1), overshoot="win"), exact=True) == 0


@pytest.mark.parametrize("board", [
    MILTON_BRADLEY_1943,
    MILTON_BRADLEY_1943.replace(bonus_roll=6, overshoot="bounce"),
    Board({3: 7, 8: 2}, size=12, die=3, bonus_roll=3, traps=[6]),
], ids=["1943", "1943 bounce six-again", "small with trap and bonus"])
def test_variance_agrees_with_the_distribution_and_exact(board):
    v = game_variance(board)
    assert v == pytest.approx(_variance_from_pmf(board), rel=1e-8)
    exact = game_variance(board, exact=True)
    assert isinstance(exact, Fraction)
    assert float(exact) == pytest.approx(v, rel=1e-10)


def test_variance_agrees_with_simulation():
    games = simulate(MILTON_BRADLEY_1943, 200_000, seed=3)
    assert games.var(ddof=1) == pytest.approx(game_variance(MILTON_BRADLEY_1943), rel=0.03)


@st.composite
def boards(draw):
    size = draw(st.integers(4, 14))
    faces = draw(st.integers(2, 4))
    overshoot = draw(st.sampled_from(["stay", "win", "bounce", "stop_short"]))
    bonus = draw(st.one_of(st.none(), st.integers(1, faces)))
    jumps = draw(st.dictionaries(st.integers(1, size - 1), st.integers(0, size), max_size=3))
    traps = draw(st.lists(st.integers(1, size - 1), max_size=1))
    try:
        return Board(jumps, size=size, die=faces, overshoot=overshoot, bonus_roll=bonus,
                     traps=traps)
    except ValueError:
        return Board(size=size, die=faces, overshoot=overshoot, bonus_roll=bonus)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.data())
def test_variance_effects_match_a_solve_of_each_board(board, data):
    effects = variance_effects(board)
    means = jump_effects(board)
    assert np.array_equal(np.isnan(effects), np.isnan(means))
    allowed = np.argwhere(np.isfinite(effects))
    if not len(allowed):
        return
    for i in data.draw(st.lists(st.integers(0, len(allowed) - 1), min_size=1, max_size=4)):
        a, b = (int(x) for x in allowed[i])
        assert effects[a, b] == pytest.approx(game_variance(board.with_jump(a, b)),
                                              rel=1e-8, abs=1e-9), (a, b)


# --------------------------------------------------------------------------- goals
@pytest.mark.parametrize("make, text", [
    (lambda: TargetLength(-3), "-3"),
    (lambda: TargetLength(float("nan")), "nan"),
    (lambda: TargetLength("25"), "'25'"),
    (lambda: FairestRace(1), "1"),
    (lambda: FairestRace(2.5), "2.5"),
    (lambda: SmallestSpread(30, -1), "-1"),
    (lambda: SmallestSpread(0), "0"),
])
def test_bad_goals_are_refused_by_name(make, text):
    with pytest.raises(ValueError, match=text):
        make()


@pytest.mark.parametrize("kwargs, text", [
    ({"goal": "short"}, "short"),
    ({"max_jumps": 0}, "0"),
    ({"max_jumps": 7}, "7"),
    ({"max_jumps": True}, "True"),
    ({"method": "genetic"}, "genetic"),
    ({"candidates": [(1, 99)]}, r"\(1, 99\)"),
    ({"candidates": [3]}, "3"),
    ({"seed": 1.5}, "1.5"),
])
def test_bad_arguments_are_refused_by_name(kwargs, text):
    args = {"board": FUNNEL, "goal": ShortestGame(), **kwargs}
    with pytest.raises(ValueError, match=text):
        design_board(**args)


def test_a_race_on_a_board_with_traps_is_refused():
    with pytest.raises(ValueError, match="traps"):
        design_board(Board(size=10, traps=[5]), FairestRace(2), max_jumps=1)


def test_a_too_big_exhaustive_search_is_refused_with_advice():
    with pytest.raises(ValueError, match="greedy"):
        design_board(MILTON_BRADLEY_1943, ShortestGame(), max_jumps=2, method="exhaustive")


def test_no_allowed_candidate_is_refused():
    with pytest.raises(ValueError, match="refused by the rules"):
        design_board(FUNNEL, ShortestGame(), candidates=[(5, 9)])   # 5 is a chute's source


# --------------------------------------------------------------------------- searches
def test_greedy_is_not_optimal_on_the_funnel_board():
    greedy = design_board(FUNNEL, ShortestGame(), max_jumps=2, method="greedy")
    best = design_board(FUNNEL, ShortestGame(), max_jumps=2, method="exhaustive")
    assert [s.action for s in greedy.steps] == ["start", "add 4->9", "add 1->9"]
    assert greedy.added == ((1, 9), (4, 9)) and greedy.exact_value == 2
    assert (greedy.method, greedy.proven_optimal) == ("greedy", False)
    assert best.added == ((1, 9), (2, 9)) and best.exact_value == 1
    assert (best.method, best.proven_optimal) == ("exhaustive", True)
    # local search repairs it: swap 4->9 for 2->9
    local = design_board(FUNNEL, ShortestGame(), max_jumps=2, method="local search")
    assert local.added == best.added and local.method == "local search"
    assert not local.proven_optimal


def _all_designs(board, k, pool):
    """Every board with at most k jumps of pool added (brute force, one solve each)."""
    out = [((), board)]
    for j in range(1, k + 1):
        for combo in itertools.combinations(pool, j):
            try:
                out.append((combo, board.replace(jumps={**board.jumps, **dict(combo)})))
            except ValueError:
                pass
    return out


@pytest.mark.parametrize("goal", [ShortestGame(), LongestGame(), TargetLength(6),
                                  SmallestSpread(None, 0.5)], ids=repr)
def test_exhaustive_is_the_brute_force_optimum(goal):
    board = Board({6: 2}, size=8, die=3)
    pool = [(int(a), int(b)) for a, b in np.argwhere(np.isfinite(jump_effects(board)))]
    design = design_board(board, goal, max_jumps=2, method="exhaustive")
    goal = design.goal                                   # the mean filled in
    scores = []
    for _, b in _all_designs(board, 2, pool):
        mean = Fraction(str(expected_turns(b, exact=True)[0]))
        value = game_variance(b, exact=True) if isinstance(goal, SmallestSpread) else mean
        scores.append(goal.exact_score(value, mean))
    exact_mean = design.exact_mean
    assert goal.exact_score(design.exact_value, exact_mean) == min(scores)


def test_exhaustive_race_is_the_brute_force_optimum():
    board = Board({5: 1}, size=7, die=3)
    design = design_board(board, FairestRace(2), max_jumps=1, method="exhaustive")
    pool = [(int(a), int(b)) for a, b in np.argwhere(np.isfinite(jump_effects(board)))]
    edges = [win_probabilities(b, [0, 0])[0] - 0.5 for _, b in _all_designs(board, 1, pool)]
    assert design.value == pytest.approx(min(edges), abs=1e-12)
    assert design.proven_optimal and design.exact_value is None
    assert "win_probabilities" in design.confirmation


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.sampled_from(["short", "long", "target", "spread"]))
def test_search_order_exhaustive_le_local_le_greedy_le_start(board, which):
    goal = {"short": ShortestGame(), "long": LongestGame(), "target": TargetLength(3.5),
            "spread": SmallestSpread()}[which]
    if not np.isfinite(jump_effects(board)).any():
        return
    results = {m: design_board(board, goal, max_jumps=2, method=m)
               for m in ("greedy", "local search", "exhaustive")}
    g = results["greedy"].goal

    def key(d):
        return g.exact_score(d.exact_value, d.exact_mean)
    start_mean = Fraction(str(expected_turns(board, exact=True)[0]))
    start_value = game_variance(board, exact=True) if which == "spread" else start_mean
    start = g.exact_score(start_value, start_mean)
    tol = Fraction(1, 10**9)
    assert key(results["exhaustive"]) <= (key(results["local search"])[0] + tol,
                                          key(results["local search"])[1] + tol)
    assert key(results["local search"]) <= (key(results["greedy"])[0] + tol,
                                            key(results["greedy"])[1] + tol)
    assert key(results["greedy"]) <= (start[0] + tol, start[1] + tol)
    for d in results.values():
        assert len(d.added) <= 2
        assert d.board == board.replace(jumps={**board.jumps, **dict(d.added)})


def test_a_design_is_confirmed_by_a_fresh_exact_solve():
    d = design_board(MILTON_BRADLEY_1943, TargetLength(25), max_jumps=3, method="greedy")
    assert d.exact_mean == Fraction(str(expected_turns(d.board, exact=True)[0]))
    assert d.exact_value == d.exact_mean
    assert d.value == pytest.approx(float(d.exact_value), rel=1e-12)
    assert d.steps[-1].value == pytest.approx(d.value, rel=1e-9)    # the search's own price
    assert abs(d.value - 25) < abs(d.original_value - 25)
    assert "exact=True" in d.confirmation


def test_hitting_a_target_exactly_is_proven_optimal_even_for_greedy():
    d = design_board(FUNNEL, TargetLength(2), max_jumps=2, method="greedy")
    assert d.exact_value == 2 and d.proven_optimal and d.method == "greedy"


def test_smallest_spread_keeps_the_mean_in_its_band():
    goal = SmallestSpread(tolerance=1.0)
    d = design_board(MILTON_BRADLEY_1943, goal, max_jumps=2, method="local search")
    assert d.goal.mean == pytest.approx(float(expected_turns(MILTON_BRADLEY_1943)[0]))
    assert abs(d.mean - d.goal.mean) <= 1.0
    assert d.value < d.original_value
    assert d.exact_value == game_variance(d.board, exact=True)


def test_fairest_race_edge_is_half_the_tie_chance_for_two_seats():
    d = design_board(MILTON_BRADLEY_1943, FairestRace(2), max_jumps=1, method="greedy")
    pmf = turn_distribution(d.board)
    assert d.value == pytest.approx(0.5 * (pmf**2).sum(), abs=1e-10)
    assert d.value == pytest.approx(win_probabilities(d.board, [0, 0])[0] - 0.5, abs=1e-14)
    assert 0 < d.value < d.original_value


def test_candidates_limit_the_search():
    pool = [(3, 1), (4, 9), (7, 2)]
    d = design_board(FUNNEL, ShortestGame(), max_jumps=2, method="exhaustive", candidates=pool)
    assert set(d.added) <= set(pool)
    assert d.added == ((4, 9),) or (4, 9) in d.added


def test_house_rules_change_the_design():
    six_again = Board({5: 3}, size=9, die=2, bonus_roll=2)
    d = design_board(six_again, LongestGame(), max_jumps=1, method="exhaustive")
    assert d.exact_mean == Fraction(str(expected_turns(d.board, exact=True)[0]))
    single = jump_effects(six_again)
    assert d.mean == pytest.approx(np.nanmax(single), rel=1e-12)


def test_local_search_with_a_seed_is_reproducible():
    a = design_board(MILTON_BRADLEY_1943, LongestGame(), max_jumps=2, method="local search",
                     seed=7)
    b = design_board(MILTON_BRADLEY_1943, LongestGame(), max_jumps=2, method="local search",
                     seed=7)
    assert a.added == b.added and a.steps == b.steps


def test_auto_picks_exhaustive_when_small_and_local_search_when_big():
    assert design_board(FUNNEL, LongestGame(), max_jumps=2).method == "exhaustive"
    assert design_board(MILTON_BRADLEY_1943, LongestGame(), max_jumps=2).method == "local search"


def test_design_is_frozen_and_summarised():
    d = design_board(FUNNEL, ShortestGame(), max_jumps=2)
    assert isinstance(d, Design)
    with pytest.raises(AttributeError):
        d.value = 0.0
    text = d.summary()
    assert "1->9, 2->9" in text and "proven optimal" in text


def test_plot_design_draws_both_distributions():
    d = design_board(FUNNEL, ShortestGame(), max_jumps=2)
    ax = plot_design(d)
    assert [p.get_gid() for p in ax.patches] == ["original", "designed"]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("1->9, 2->9" in label for label in labels)
    assert ax.get_xlabel() == "game length k (turns)"
    with pytest.raises(ValueError, match="Design"):
        plot_design("not a design")
