"""Self-checks for exercise set 10 (lessons/10_optimal_control.ipynb).

The set's numbers ``n`` (:mod:`chutes_edu.variants`) are declared at the top of the set: the
spinner and the aim of 10.1 (the aim also in 10.5), the discount and reward of 10.3 and the widget's
settings of 10.6, and the start square of 10.5.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chutes_edu import AIMING_GAME_2021, MILTON_BRADLEY_1943, Board, expected_turns
from chutes_edu.checks import Numbers, close, one_of, register, whole_number
from chutes_edu.control import (
    _aim_table,
    optimal_policy,
    policy_expected_turns,
    policy_turn_distribution,
    value_iteration,
)


def _aim(exact_percent: int) -> tuple[float, float, float]:
    """An aim that moves exactly with ``exact_percent``% and splits the misses evenly."""
    miss = (100 - exact_percent) / 200
    return (miss, exact_percent / 100, miss)


# --------------------------------------------------------------------------- 10.1
@register("10.1", hint="Passive play is the core expected_turns of the board with your spinner; "
                       "the best aiming is optimal_policy(board, aim).expected_turns. Both are "
                       "counted from square 0.")
def _ex_10_1(answer: Any, n: Numbers) -> bool:
    spun = MILTON_BRADLEY_1943.replace(die=n.die)
    passive = expected_turns(spun)[0]
    aimed = optimal_policy(spun, _aim(n.exact)).expected_turns[0]
    return close(passive / aimed, rel=1e-6)(answer)


# --------------------------------------------------------------------------- 10.2
_VI_CASES: tuple[tuple[Board, dict[str, Any]], ...] = (
    (Board(size=2, die=1, overshoot="stop_short"), {"tol": 1e-6}),
    (Board({2: 7, 5: 1, 6: 9}, size=9, die=3, overshoot="bounce"),
     {"accuracy": (0.2, 0.5, 0.3), "discount": 0.8}),
    (AIMING_GAME_2021, {}),
)


@register("10.2", hint="Each sweep reads only the previous sweep's values (build a new array), "
                       "takes the best target's probability-weighted value times the discount for "
                       "squares 0..size-1, and only then sets the goal squares to the reward. Stop "
                       "when the summed absolute change is at most tol; count every sweep.",
          function=True)
def _ex_10_2(answer: Any) -> bool:
    for board, kwargs in _VI_CASES:
        expected = value_iteration(board, **kwargs)
        values, sweeps = answer(board, **kwargs)
        values = np.asarray(values, dtype=float)
        if values.shape != expected.values.shape or int(sweeps) != expected.iterations:
            return False
        if not np.allclose(values, expected.values, rtol=1e-9, atol=1e-9):
            return False
    return True


# --------------------------------------------------------------------------- 10.3
@register("10.3", hint="policy_turn_distribution gives P(T = k) for k = 0, 1, 2, ... under the "
                       "value-iteration policy (with your discount and reward); weight each k by "
                       "gamma**k, add up and multiply by the reward.")
def _ex_10_3(answer: Any, n: Numbers) -> bool:
    gamma = n.gamma / 100
    policy = value_iteration(AIMING_GAME_2021, discount=gamma, reward=n.reward).policy
    pmf = policy_turn_distribution(AIMING_GAME_2021, policy)
    return close(n.reward * float(np.sum(pmf * gamma ** np.arange(pmf.size))), rel=1e-9)(answer)


# --------------------------------------------------------------------------- 10.4
@register("10.4", hint="Follow a token that has reached square 99 and always aims at 6: list the "
                       "three moves it can make and apply the board's overshoot rule to each.")
def _ex_10_4(answer: Any) -> bool:
    return one_of("b")(answer)


# --------------------------------------------------------------------------- 10.5
@register("10.5", hint="Both players' game lengths T1 and T2 have the distribution of "
                       "policy_turn_distribution under the fewest-turns policy (both with your "
                       "aim, from your start square), independently. The first mover wins when "
                       "T1 <= T2: add P(T1 = k) P(T2 >= k) over k.")
def _ex_10_5(answer: Any, n: Numbers) -> bool:
    aim = _aim(n.exact)
    pmf = policy_turn_distribution(AIMING_GAME_2021, optimal_policy(AIMING_GAME_2021, aim).policy,
                                   aim, start=n.start)
    at_least = np.cumsum(pmf[::-1])[::-1]
    return close(float(np.sum(pmf * at_least)), rel=1e-8)(answer)


# --------------------------------------------------------------------------- 10.6
@register("10.6", hint="Set the sliders (or call value_iteration and optimal_policy with the "
                       "same accuracy and discount) and count the squares 0..99 whose targets "
                       "differ.")
def _ex_10_6(answer: Any, n: Numbers) -> bool:
    exact, lean = n.widget_exact / 100, 0.5
    miss = 1.0 - exact
    accuracy = (miss * (1.0 - lean), exact, miss * lean)     # as PolicyExplorer builds it
    vi = value_iteration(AIMING_GAME_2021, accuracy, discount=n.widget_discount / 100)
    best = optimal_policy(AIMING_GAME_2021, accuracy)
    return whole_number(int(np.sum(vi.policy != best.policy)))(answer)


# --------------------------------------------------------------------------- 10.7
def _greedy_ok(board: Board, policy: Any, accuracy: tuple[float, float, float],
               improved: Any) -> bool:
    turns = policy_expected_turns(board, policy, accuracy)
    table = _aim_table(board)[: board.size]
    q = 1.0 + sum(a * turns[table[..., k]] for k, a in enumerate(accuracy))
    new = np.asarray(improved)
    if new.shape != (board.size,) or not np.all((new >= 1) & (new <= board.faces)):
        return False
    chosen = q[np.arange(board.size), new.astype(int) - 1]
    return bool(np.all(chosen <= q.min(axis=1) * (1 + 1e-9) + 1e-12))


@register("10.7", hint="Get E = policy_expected_turns(board, policy, accuracy); for every square "
                       "and target, 1 + the accuracy-weighted E of the three aim_landings; then "
                       "pick, square by square, a target with the smallest value.",
          function=True)
def _ex_10_7(answer: Any) -> bool:
    small = Board({2: 6, 5: 1}, size=8, die=3, overshoot="stay")
    cases = [
        (AIMING_GAME_2021, [1] * 100, (0.25, 0.5, 0.25)),
        (AIMING_GAME_2021, value_iteration(AIMING_GAME_2021).policy.tolist(), (0.25, 0.5, 0.25)),
        (small, [1] * 8, (0.3, 0.4, 0.3)),
    ]
    return all(_greedy_ok(board, policy, acc, answer(board, list(policy), acc))
               for board, policy, acc in cases)
