"""Every student's variant exactly right: each check's expected answer against an exact reference.

For each exercise whose answer is a value (:func:`chutes_edu.checks.answer_spec`), a recording
proxy of the set's numbers says which numbers its check reads; the sweep then runs over the full
product of the values of *those* numbers (not of all the set's numbers) and compares the value the
check is built around with an exact reference written here, independently of the checks' helpers
(integer weights of the board's turns from ``Board.landing``, Fractions, python-flint):

- a threshold, count or rounding must agree exactly, and the question must be *well separated*:
  the quantity it turns on is at least a stated margin away from the threshold on both sides
  (else a student's correct float computation may land on the other side; the set must then
  drop the value from its ``my_numbers(...)`` declaration);
- an argmax that a text asks about must be unique;
- a float answer checked within a tolerance must agree with the exact value to well within it
  (WITHIN, a hundredth of the tolerance). Where the exact value is an infinite sum or irrational
  (6.6, 8.1, 8.5, 10.5, 12.5) the reference is a certified interval instead: an exact partial sum
  plus a proven bound on its tail, Arb balls (8.5), or Collatz-Wielandt bounds on a Perron root
  (6.6); the interval must be at most a tenth of WITHIN x the tolerance wide, and the check's
  value within WITHIN x the tolerance of both its ends.

The margins, and why:

- 1.5 and 4.7 (partial sums of :math:`\\Pr(T > k)` against a level): 2e-12, ten times the worst
  float error of the worked solution's own loop measured over K <= 1300 on the 1943 board with
  dice 3..8 (1.9e-13: ``expected_turns``' float value plus the rounding of the running sum);
- 3.7 and 6.2 (the first k with :math:`\\Pr(T \\le k) \\ge` a level): 1e-12 (a cumulative sum of a
  few hundred floats is off by about 1e-15);
- 7.2 (round up :math:`x = (1.96\\,\\sigma/w)^2`): ``x`` at least 1e-11 x from a whole number,
  75 times the largest relative error of :math:`\\sigma^2` from ``turn_distribution(..., tail=1e-16)``
  over every die and start (1.3e-13), the way exercise 7.1 asks for it;
- 3.5 (the most likely square): the largest probability beats the second by 1e-9 of itself.

The exercises whose answer is a threshold, count, argmax or rounding but that this sweep does not
cover yet are listed in :data:`NOT_SWEPT` with the reason (a test fails when a new one appears
unlisted), and the float answers it does not compare yet in :data:`FLOATS_NOT_SWEPT`. Exact
answers (``exactly``, ``same_expression``, ``same_words``) are exact by construction; code answers
are tried on fixed boards.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from itertools import product
from typing import Any

import flint
import numpy as np
import pytest

from chutes_edu import (
    MILTON_BRADLEY_1943,
    MILTON_BRADLEY_1943_CHUTE_48,
    Board,
    ShortestGame,
    design_board,
    transition_matrix,
)
from chutes_edu.checks import answer_spec, exercise_ids
from chutes_edu.checks.lesson12 import GREEDY_TRAPS
from chutes_edu.variants import Numbers, declared_numbers

REMAINDER_MARGIN = Fraction(2, 10**12)
CDF_MARGIN = Fraction(1, 10**12)
ROUNDING_MARGIN = Fraction(1, 10**11)
ARGMAX_MARGIN = Fraction(1, 10**9)
WITHIN = 1e-2
"""A float answer's expected value must agree with the exact one to WITHIN times its tolerance."""


class Sweep(AssertionError):
    """An exercise whose check and the exact reference disagree, or whose question is ambiguous."""


# ---------------------------------------------------------------- which numbers a check reads
class _Recording(Numbers):
    """A set's numbers that remember which of them were read."""

    def __init__(self, set_number: int, values: dict[str, Any]) -> None:
        super().__init__(set_number, values)
        object.__setattr__(self, "read", set())

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name == "read":
            raise AttributeError(name)
        self.read.add(name)
        return super().__getattr__(name)

    def __getitem__(self, name: str) -> Any:
        self.read.add(name)
        return super().__getitem__(name)


def numbers_read(exercise: str) -> list[str]:
    """The numbers of the set that ``exercise``'s check reads (course's values and two others)."""
    s = int(exercise.split(".")[0])
    declared = declared_numbers(s)
    read: set[str] = set()
    for pick in (0, 1, -1):
        values = {name: (d if pick == 0 else vals[pick]) for name, (d, vals) in declared.items()}
        recording = _Recording(s, values)
        answer_spec(exercise, recording)
        read |= recording.read
    return sorted(read)


def variants_of(exercise: str) -> Iterator[dict[str, Any]]:
    """Every combination of the values of the numbers ``exercise``'s check reads."""
    declared = declared_numbers(int(exercise.split(".")[0]))
    names = numbers_read(exercise)
    for combo in product(*(declared[name][1] for name in names)):
        yield dict(zip(names, combo, strict=True))


def expected_of(exercise: str, values: dict[str, Any]) -> Any:
    """The value ``exercise``'s check is built around, for these values of its numbers."""
    s = int(exercise.split(".")[0])
    full = {name: d for name, (d, _) in declared_numbers(s).items()} | values
    spec = answer_spec(exercise, Numbers(s, full))
    assert spec is not None, f"{exercise} has no answer spec"
    return spec


# ---------------------------------------------------------------- exact references (the test's own)
def _turns(board: Board) -> tuple[list[dict[int, int]], int]:
    """One turn as integer weights over D: rows[s][t] for squares s < size (no bonus rolls)."""
    assert board.bonus_roll is None and len(board.absorbing) == 1
    D = math.lcm(*[p.denominator for p in board.probabilities])
    rows = []
    for s in range(board.size):
        row: dict[int, int] = {}
        for face, p in enumerate(board.probabilities, start=1):
            if p:
                t = board.landing(s, face)
                row[t] = row.get(t, 0) + int(p * D)
        rows.append(row)
    return rows, D


def _alive(board: Board, starts: list[int]) -> Iterator[tuple[int, list[list[int]], int]]:
    """(k, masses, D^k): masses[i][s] / D^k = P(X_k = s, T > k) for a game from starts[i]."""
    rows, D = _turns(board)
    return _alive_rows(rows, D, board.size, starts)


def _alive_rows(rows: list[dict[int, int]], D: int, n: int,
                starts: list[int]) -> Iterator[tuple[int, list[list[int]], int]]:
    """:func:`_alive` for any integer turn weights ``rows`` over ``D`` on squares 0..n-1."""
    W = flint.fmpz_mat(n, n)
    for s, row in enumerate(rows):
        for t, w in row.items():
            if t < n:
                W[s, t] = w
    v = flint.fmpz_mat(len(starts), n)
    for i, s in enumerate(starts):
        v[i, s] = 1
    k, scale = 0, 1
    while True:
        yield k, [[int(v[i, s]) for s in range(n)] for i in range(len(starts))], scale
        v, k, scale = v * W, k + 1, scale * D


def _i_minus_q(board: Board) -> Any:
    """I - Q over the squares below the final one, exactly (a flint fmpq_mat)."""
    rows, D = _turns(board)
    n = board.size
    A = flint.fmpq_mat(n, n)
    for s, row in enumerate(rows):
        A[s, s] = 1
        for t, w in row.items():
            if t < n:
                A[s, t] = A[s, t] - flint.fmpq(w, D)
    return A


def _moments(board: Board) -> tuple[list[Fraction], list[Fraction]]:
    """Exact E[T] and E[T^2] from every square below the final one (first-step equations)."""
    n = board.size
    A = _i_minus_q(board)
    ones = flint.fmpq_mat([[1] for _ in range(n)])
    t = A.solve(ones)
    t2 = A.solve(2 * t - ones)            # E[T^2] = 1 + sum Q (2 t + E[T^2])
    frac = lambda m, i: Fraction(int(m[i, 0].p), int(m[i, 0].q))  # noqa: E731
    return [frac(t, i) for i in range(n)], [frac(t2, i) for i in range(n)]


def _remainder_crossing(board: Board, level: Fraction, first: int, margin: Fraction) -> int:
    """Smallest K >= first with E[T] - (P(T>0) + ... + P(T>K-1)) < level; well separated."""
    mean = _moments(board)[0][0]
    partial, before = Fraction(0), None
    for k, (mass,), scale in _alive(board, [0]):
        gap = mean - partial
        if k >= first:
            if gap < level:
                if before is not None and before - level < margin or level - gap < margin:
                    raise Sweep(f"not well separated: remainders {float(before or 0)!r} and "
                                f"{float(gap)!r} around {float(level)!r} at K = {k}")
                return k
            before = gap
        partial += Fraction(sum(mass), scale)
    raise AssertionError("unreachable")


def _cdf_crossings(board: Board, starts: list[int], level: Fraction,
                   margin: Fraction) -> dict[int, int]:
    """For each start, the smallest k with P(T <= k) >= level; well separated."""
    found: dict[int, int] = {}
    for k, masses, scale in _alive(board, starts):
        for start, mass in zip(starts, masses, strict=True):
            cdf = 1 - Fraction(sum(mass), scale)
            if start not in found and cdf >= level:
                if cdf - level < margin:
                    raise Sweep(f"start {start}: P(T <= {k}) = {float(cdf)!r} is at the level")
                found[start] = k
            elif start not in found and level - cdf < margin:
                raise Sweep(f"start {start}: P(T <= {k}) = {float(cdf)!r} just below the level")
        if len(found) == len(starts):
            return found
    raise AssertionError("unreachable")


def _close(exercise: str, spec: Any, exact: Fraction, values: dict[str, Any]) -> None:
    tolerance = max(spec.rel * abs(float(exact)), spec.abs_tol)
    if abs(Fraction(spec.expected) - exact) > WITHIN * tolerance:
        raise Sweep(f"{exercise} with {values}: the check expects {spec.expected!r}, the exact "
                    f"value is {float(exact)!r}")


# ---------------------------------------------------------------- the references, exercise by one
def _die_board(die: int) -> Board:
    return MILTON_BRADLEY_1943.replace(die=die)


def sweep_1_5() -> None:
    for values in variants_of("1.5"):
        want = _remainder_crossing(_die_board(values["die"]), Fraction(str(values["bias"])),
                                   1, REMAINDER_MARGIN)
        _agree("1.5", values, want)


def sweep_3_4() -> None:
    by_die: dict[int, dict[int, Fraction]] = {}
    for values in variants_of("3.4"):
        if values["die"] not in by_die:
            by_die[values["die"]] = {k: 1 - Fraction(sum(mass), scale) for k, (mass,), scale
                                     in _turn_range(_die_board(values["die"]), 31)}
        _close("3.4", expected_of("3.4", values), by_die[values["die"]][values["turns"]], values)


def _turn_range(board: Board, turns: int) -> Iterator[tuple[int, list[list[int]], int]]:
    for k, masses, scale in _alive(board, [0]):
        if k >= turns:
            return
        yield k, masses, scale


def sweep_3_5() -> None:
    for values in variants_of("3.5"):
        board = _die_board(values["die"])
        for k, (mass,), scale in _turn_range(board, values["after"] + 1):
            if k == values["after"]:
                top = max(mass)
                second = max((m for m in mass if m != top), default=0)
                if mass.count(top) > 1 or top - second < ARGMAX_MARGIN * top:
                    squares = [s for s, m in enumerate(mass) if m == top]
                    raise Sweep(f"3.5 with {values}: the most likely square is not unique "
                                f"({squares})")
                _close("3.5", expected_of("3.5", values), Fraction(top, scale), values)


def sweep_3_7() -> None:
    for die in declared_numbers(3)["die"][1]:
        for share in declared_numbers(3)["share"][1]:
            values = {"die": die, "share": share}
            want = _cdf_crossings(_die_board(die), [0], Fraction(share, 100), CDF_MARGIN)[0]
            _agree("3.7", values, want)


def sweep_4_7() -> None:
    for values in variants_of("4.7"):
        want = _remainder_crossing(_die_board(values["sides"]), Fraction(1, 10 ** values["digits"]),
                                   0, REMAINDER_MARGIN)
        _agree("4.7", values, want)


def sweep_6_2() -> None:
    starts = list(declared_numbers(6)["start"][1])
    for die in declared_numbers(6)["die"][1]:
        want = _cdf_crossings(MILTON_BRADLEY_1943_CHUTE_48.replace(die=die), starts,
                              Fraction(95, 100), CDF_MARGIN)
        for start in starts:
            _agree("6.2", {"die": die, "start": start}, want[start])


def sweep_7_1_and_7_2() -> None:
    declared = declared_numbers(7)
    for die in declared["die"][1]:
        t, t2 = _moments(_die_board(die))
        for start in declared["start"][1]:
            variance = t2[start] - t[start] ** 2
            spec = expected_of("7.1", {"die": die, "start": start})
            sigma = spec.expected
            if abs(sigma * sigma - variance) > 2 * sigma * WITHIN * spec.rel * sigma:
                raise Sweep(f"7.1 with die {die}, start {start}: sigma {sigma!r} against the "
                            f"exact variance {float(variance)!r}")
            for width in declared["width"][1]:
                x = Fraction(196, 100) ** 2 * variance / Fraction(str(width)) ** 2
                if min(x - math.floor(x), math.ceil(x) - x) < ROUNDING_MARGIN * x:
                    raise Sweep(f"7.2 with die {die}, start {start}, width {width}: "
                                f"(1.96 sigma / width)^2 = {float(x)!r} is at a whole number")
                _agree("7.2", {"die": die, "start": start, "width": width}, math.ceil(x))


def sweep_4_2() -> None:
    for values in variants_of("4.2"):
        board = _die_board(values["die"])
        rows, _ = _turns(board)
        # squares that can finish within m turns grow by one backward step per turn
        done, m = {board.size}, 0
        while not all(s in done for s in range(board.size)):
            done = done | {s for s in range(board.size) if any(t in done for t in rows[s])}
            m += 1
        _agree("4.2", values, m)


def sweep_12_1() -> None:
    board = MILTON_BRADLEY_1943
    lengths = []
    for a in range(board.size):
        for b in range(board.size + 1):
            if a == b:
                continue
            try:
                board.with_jump(a, b)
            except ValueError:
                continue
            lengths.append(abs(a - b))
    for values in variants_of("12.1"):
        C = sum(1 for d in lengths if d >= values["min_length"])
        _agree("12.1", values, math.comb(C, 0) + math.comb(C, 1) + math.comb(C, 2))


def _float_alive(board: Board, start: int, tail: float = 1e-16) -> np.ndarray:
    """P(T > k) for k = 0, 1, ... until below ``tail``, by float steps of the test's own weights."""
    rows, D = _turns(board)
    n = board.size
    Q = np.zeros((n, n))
    for s, row in enumerate(rows):
        for t, w in row.items():
            if t < n:
                Q[s, t] += w / D
    v = np.zeros(n)
    v[start] = 1.0
    out = []
    while v.sum() >= tail:
        out.append(v.sum())
        v = v @ Q
    return np.array(out)


def sweep_8_7() -> None:
    """The first square after player 1's (not a jump's start) where seat 2's chance is above 1/2:
    P(seat 2 wins) = sum_k P(T2 = k) P(T1 > k), from float survival curves of the test's own
    (error far below 1e-12); every chance compared with 1/2 must be 1e-9 away from it."""
    declared = declared_numbers(8)
    for die in declared["die"][1]:
        board = _die_board(die)
        alive = {s: _float_alive(board, s) for s in range(board.size)}
        for first in declared["first"][1]:
            one = alive[first]
            for square in range(first + 1, board.size):
                if square in board.jumps:
                    continue
                two = alive[square]
                ended = np.concatenate([[0.0], two[:-1] - two[1:], [two[-1]]])  # P(T2 = k)
                one_long = np.concatenate([one, np.zeros(max(0, ended.size - one.size))])
                chance = float(np.dot(ended, one_long[:ended.size]))
                if abs(chance - 0.5) < float(ARGMAX_MARGIN):
                    raise Sweep(f"8.7 with die {die}, first {first}: square {square} gives seat 2 "
                                f"a chance of {chance!r}, at 1/2")
                if chance > 0.5:
                    _close("8.7", expected_of("8.7", {"die": die, "first": first}),
                           Fraction(chance), {"die": die, "first": first})
                    break


def _exact_price(board: Board, jump: tuple[int, int]) -> Fraction:
    return _moments(board.with_jump(*jump))[0][0]


def _priced(board: Board) -> dict[tuple[int, int], float]:
    """Float price of every allowed jump (jump_effects, min_length 1), read by the test itself."""
    from chutes_edu import jump_effects

    effects = jump_effects(board)
    return {(int(a), int(b)): float(effects[a, b]) for a, b in zip(*np.nonzero(np.isfinite(effects)),
                                                                    strict=True)}


def sweep_9_3_and_9_4() -> None:
    """The best jump (9.3) and best chute (9.4) of a shortest length: the float prices find the
    candidates within 1e-6 of the best, and the exact prices of those decide; unique, and the
    check's pair."""
    declared = declared_numbers(9)
    for die in declared["die"][1]:
        board = _die_board(die)
        prices = _priced(board)
        for exercise, name, chutes in (("9.3", "jump_length", False), ("9.4", "chute_length", True)):
            for length in declared[name][1]:
                allowed = {j: p for j, p in prices.items() if abs(j[0] - j[1]) >= length
                           and (not chutes or j[1] < j[0])}
                low = min(allowed.values())
                near = [j for j, p in allowed.items() if p <= low * (1 + 1e-6)]
                exact = {j: _exact_price(board, j) for j in near}
                best = min(exact.values())
                winners = [j for j, p in exact.items() if p == best]
                values = {"die": die, name: length}
                if len(winners) > 1:
                    raise Sweep(f"{exercise} with {values}: the best jumps tie: {winners}")
                got = expected_of(exercise, values).expected
                if [int(x) for x in got] != list(winners[0]):
                    raise Sweep(f"{exercise} with {values}: the check expects {got}, the exact "
                                f"best is {winners[0]}")


def sweep_9_7() -> None:
    """Ladders that lengthen the house game and chutes that shorten it: counted from the float
    prices, every one of which must be 1e-9 (relative) away from the baseline; the nearest is
    priced exactly and must fall on the same side."""
    declared = declared_numbers(9)
    for die in declared["die"][1]:
        house = _die_board(die).replace(overshoot="win")
        base = _moments(house)[0][0]
        shortest = min(declared["house_length"][1])
        prices = {j: p for j, p in _priced(house).items() if abs(j[0] - j[1]) >= shortest}
        nearest = min(prices, key=lambda j: abs(prices[j] - float(base)))
        if abs(prices[nearest] - float(base)) < float(ARGMAX_MARGIN) * float(base) or (
                (prices[nearest] > float(base)) != (_exact_price(house, nearest) > base)):
            raise Sweep(f"9.7 with die {die}: the jump {nearest} prices at the baseline")
        for length in declared["house_length"][1]:
            count = sum(1 for (a, b), p in prices.items() if abs(a - b) >= length
                        and ((b > a and p > float(base)) or (b < a and p < float(base))))
            _agree("9.7", {"die": die, "house_length": length}, count)


def sweep_11_7() -> None:
    """The fewest players whose expected rounds sum_k P(T > k)^m drop below n.rounds; every
    expected number of rounds compared must be 1e-6 away from the value (P(T > k) from
    turn_distribution, its tail below 1e-16)."""
    from chutes_edu import NOORDENBOS_2023, turn_distribution

    pmf = turn_distribution(NOORDENBOS_2023, tail=1e-16)
    alive = 1.0 - np.cumsum(pmf)                               # P(T > k), k = 0, 1, ...
    for rounds in declared_numbers(11)["rounds"][1]:
        players = 1
        while True:
            expected = float(np.sum(alive ** players))
            if abs(expected - rounds) < 1e-6:
                raise Sweep(f"11.7 with rounds {rounds}: {players} players play {expected!r}")
            if expected < rounds:
                break
            players += 1
        _agree("11.7", {"rounds": rounds}, players)


def _exact_alive(board: Board, starts: list[int], turns: int) -> list[list[Fraction]]:
    """P(T > k) for k = 0..turns, exactly, for a game from each of ``starts``."""
    out: list[list[Fraction]] = [[] for _ in starts]
    for k, masses, scale in _alive(board, starts):
        for i, mass in enumerate(masses):
            out[i].append(Fraction(sum(mass), scale))
        if k == turns:
            return out
    raise AssertionError("unreachable")


def sweep_6_1() -> None:
    declared = declared_numbers(6)
    longest = max(declared["long"][1])
    for die in declared["house_die"][1]:
        house = MILTON_BRADLEY_1943.replace(overshoot="win", die=die)
        (alive,) = _exact_alive(house, [0], longest)
        for long in declared["long"][1]:
            values = {"house_die": die, "long": long}
            _close("6.1", expected_of("6.1", values), alive[long], values)


def sweep_6_7() -> None:
    declared = declared_numbers(6)
    longest = max(declared["tail"][1])
    for rule in declared["tail_rule"][1]:
        curves = [_exact_alive(MILTON_BRADLEY_1943.replace(die=d, overshoot=rule), [0],
                               longest)[0] for d in range(2, 11)]
        for tail in declared["tail"][1]:
            values = {"tail": tail, "tail_rule": rule}
            _close("6.7", expected_of("6.7", values), max(c[tail] for c in curves), values)


def sweep_7_3() -> None:
    declared = declared_numbers(7)
    starts = list(declared["start"][1])
    for die in declared["die"][1]:
        curves = _exact_alive(_die_board(die), starts, 99)
        for start, alive in zip(starts, curves, strict=True):
            values = {"die": die, "start": start}
            _close("7.3", expected_of("7.3", values), sum(alive[:100]), values)


def sweep_5_7() -> None:
    """The die 2..10 whose exact expected length from n.square has the longest denominator: that
    die must be unique (the question names no tie rule), and the check's fraction its length."""
    declared = declared_numbers(5)
    for rule in declared["rule"][1]:
        means = {d: _moments(MILTON_BRADLEY_1943.replace(die=d, overshoot=rule))[0]
                 for d in range(2, 11)}
        for square in declared["square"][1]:
            digits = {d: len(str(means[d][square].denominator)) for d in means}
            longest = [d for d in digits if digits[d] == max(digits.values())]
            values = {"rule": rule, "square": square}
            if len(longest) > 1:
                raise Sweep(f"5.7 with {values}: the dice {longest} tie")
            want = means[longest[0]][square]
            _agree("5.7", values, f"{want.numerator}/{want.denominator}")


def sweep_12_6() -> None:
    """Every foot a student may get has a jump that makes the race fair enough (12.6 accepts any
    such jump): the fairest jump from the foot beats FAIR_EDGE by far more than float rounding
    (by 2e-4 to 6e-4 for every foot: a hard question, but one with answers)."""
    from chutes_edu import win_probabilities
    from chutes_edu.checks.lesson12 import FAIR_EDGE

    for foot in declared_numbers(12)["foot"][1]:
        edges = []
        for b in range(MILTON_BRADLEY_1943.size + 1):
            try:
                board = MILTON_BRADLEY_1943.with_jump(foot, b)
            except ValueError:
                continue
            edges.append(float(win_probabilities(board, [0, 0])[0]) - 0.5)
        if not edges or min(edges) > FAIR_EDGE - 1e-6:
            raise Sweep(f"12.6 with foot {foot}: no jump gets the edge below {FAIR_EDGE}")


def sweep_10_6() -> None:
    """Squares where the value-iteration policy and the fewest-turns policy aim differently, each
    taking the smallest of equally good targets (the text says so): every target's value is
    either tied with the best (relative 1e-12: an exact tie, the same landing values) or clearly
    worse (1e-8), so no count rests on rounding; and the count is the check's."""
    from chutes_edu import AIMING_GAME_2021 as board
    from chutes_edu.control import (
        _aim_table,
        optimal_policy,
        policy_expected_turns,
        value_iteration,
    )

    table = _aim_table(board)[: board.size]

    def choice(q: np.ndarray, what: str) -> np.ndarray:
        gap = np.abs(q - q.min(axis=1, keepdims=True)) / np.abs(q.min(axis=1, keepdims=True))
        if np.any((gap > 1e-12) & (gap < 1e-8)):
            raise Sweep(f"10.6: a near tie between targets of {what}")
        return np.argmax(gap <= 1e-12, axis=1) + 1            # the smallest of the best

    declared = declared_numbers(10)
    for exact in declared["widget_exact"][1]:
        miss = 1 - exact / 100
        accuracy = (miss / 2, exact / 100, miss / 2)
        fewest = policy_expected_turns(board, optimal_policy(board, accuracy).policy, accuracy)
        best = choice(1.0 + sum(a * fewest[table[..., k]] for k, a in enumerate(accuracy)),
                      "the fewest-turns policy")
        for discount in declared["widget_discount"][1]:
            values = value_iteration(board, accuracy, discount=discount / 100).values
            vi = choice(-sum(a * values[table[..., k]] for k, a in enumerate(accuracy)),
                        f"value iteration, discount {discount}")
            _agree("10.6", {"widget_exact": exact, "widget_discount": discount},
                   int(np.sum(vi != best)))


def _visits(board: Board, start: int) -> list[Fraction]:
    """Row ``start`` of N = (I - Q)^-1 exactly: the expected turns begun on each square."""
    rows, D = _turns(board)
    n = board.size
    A = flint.fmpq_mat(n, n)                     # (I - Q)^T
    for s, row in enumerate(rows):
        A[s, s] = 1
        for t, w in row.items():
            if t < n:
                A[t, s] = A[t, s] - flint.fmpq(w, D)
    e = flint.fmpq_mat([[int(i == start)] for i in range(n)])
    x = A.solve(e)
    return [Fraction(int(x[i, 0].p), int(x[i, 0].q)) for i in range(n)]


def sweep_values() -> None:
    """Float answers of sets 1, 2, 4, 7, 9 and 11 against exact values (first-step equations,
    rows of N) to within a hundredth of their tolerance."""
    for values in variants_of("1.7"):
        p = values["percent"] / 100
        _close("1.7", expected_of("1.7", values), Fraction(math.sqrt(1 - p) / p), values)
    bounce = _moments(MILTON_BRADLEY_1943.replace(overshoot="bounce"))[0]
    for values in variants_of("2.1"):
        _close("2.1", expected_of("2.1", values), bounce[values["start"]], values)
    declared = declared_numbers(2)
    for die in declared["die"][1]:
        board = _die_board(die)
        stay, win = _moments(board)[0], _moments(board.replace(overshoot="win"))[0]
        for start in declared["start"][1]:
            values = {"die": die, "start": start}
            _close("2.5", expected_of("2.5", values), stay[start] - win[start], values)
        for rule in declared["rule"][1]:
            ruled = board.replace(overshoot=rule)
            t = _moments(ruled)[0]
            worst = max(t[s] for s in range(ruled.size) if s not in ruled.jumps)
            _close("2.6", expected_of("2.6", {"die": die, "rule": rule}), worst,
                   {"die": die, "rule": rule})
    row = _visits(MILTON_BRADLEY_1943, 0)
    for values in variants_of("4.1"):
        _close("4.1", expected_of("4.1", values), sum(row[values["low"]:values["high"] + 1]),
               values)
    for values in variants_of("4.6"):
        board = MILTON_BRADLEY_1943.without_jump(80).replace(die=values["faces"])
        _close("4.6", expected_of("4.6", values), _visits(board, 0)[99], values)
    sigma = math.sqrt(float(_moments(MILTON_BRADLEY_1943)[1][0]
                            - _moments(MILTON_BRADLEY_1943)[0][0] ** 2))
    runs = (39.225808, 39.251338, 39.221559, 39.295085, 39.211283)  # Hochman's five runs
    for values in variants_of("7.5"):
        pooled = [runs[int(r) - 1] for r in values["runs"].split(",")]
        z = ((Fraction(sum(Fraction(str(x)) for x in pooled), len(pooled))
              - _moments(MILTON_BRADLEY_1943)[0][0])
             / Fraction(sigma / math.sqrt(1_000_000 * len(pooled))))
        _close("7.5", expected_of("7.5", values), z, values)
    house = MILTON_BRADLEY_1943.replace(overshoot="win")
    t0 = {d: _moments(house.replace(die=d))[0][0] for d in range(2, 13)}
    for values in variants_of("9.1"):
        small, more = values["small_die"], values["more_faces"]
        _close("9.1", expected_of("9.1", values), t0[small + more] - t0[small], values)
    for die in declared_numbers(11)["die"][1]:
        board = MILTON_BRADLEY_1943.replace(die=die, overshoot="bounce")
        row, mean = _visits(board, 0), _moments(board)[0][0]
        for square in declared_numbers(11)["square"][1]:
            values = {"die": die, "square": square}
            _close("11.4", expected_of("11.4", values), mean / row[square], values)


def _long_game_period(board: Board) -> int:
    """The period of the long games: the gcd of the closed-walk lengths of the one transient class
    with a cycle (BFS levels from one square of it; every edge u -> v inside the class adds
    level(u) + 1 - level(v) to the gcd: the classic algorithm). The boards of 11.5 have one such
    class (one chute); a board with several would need their Perron roots compared, so it is
    refused here."""
    rows, _ = _turns(board)
    n = board.size
    succ = {s: {t for t in rows[s] if t < n} for s in range(n)}

    def reach(s: int) -> set[int]:
        seen, todo = {s}, [s]
        while todo:
            for t in succ[todo.pop()]:
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        return seen

    down = {s: reach(s) for s in range(n)}
    classes = {frozenset(t for t in down[s] if s in down[t]) for s in range(n)}
    cyclic = [c for c in classes if len(c) > 1 or any(s in succ[s] for s in c)]
    assert len(cyclic) == 1, f"{board.name}: {len(cyclic)} classes with cycles"
    (cls,) = cyclic
    root = min(cls)
    level, todo, g = {root: 0}, [root], 0
    while todo:
        u = todo.pop(0)
        for v in succ[u] & cls:
            if v not in level:
                level[v] = level[u] + 1
                todo.append(v)
    for u in cls:
        for v in succ[u] & cls:
            g = math.gcd(g, level[u] + 1 - level[v])
    return g


def sweep_11_5() -> None:
    """The bottoms b in 1..7 of a chute from n.top whose long games cycle (period > 1) on the
    twelve-square board with a die showing 1 or 4 and a roll past the end winning."""
    for values in variants_of("11.5"):
        want = sorted(b for b in range(1, 8) if _long_game_period(
            Board({values["top"]: b}, size=12, die=(1, 0, 0, 1), overshoot="win")) > 1)
        _agree("11.5", values, want)


def _close_bounded(exercise: str, spec: Any, low: Fraction, high: Fraction,
                   values: dict[str, Any]) -> None:
    """:func:`_close` for an exact value known to lie in [low, high] (a partial sum and a proven
    bound on its tail): the check's value must be within WITHIN times the tolerance of both ends,
    and the interval itself a tenth of that wide (else the reference is not tight enough)."""
    tolerance = Fraction(max(spec.rel * abs(float(low)), spec.abs_tol))
    assert high - low <= WITHIN * tolerance / 10, f"{exercise}: the reference is too loose"
    got = Fraction(spec.expected)
    if max(abs(got - low), abs(got - high)) > WITHIN * tolerance:
        raise Sweep(f"{exercise} with {values}: the check expects {spec.expected!r}, the exact "
                    f"value is in [{float(low)!r}, {float(high)!r}]")


def _survival(rows: list[dict[int, int]], D: int, n: int, starts: list[int],
              below: Fraction) -> list[list[int]]:
    """a[i][k] with P(T > k) = a[i][k] / D^k from starts[i], for k = 0..K, the first K where every
    start's P(T > K) < below (exact integers)."""
    out: list[list[int]] = [[] for _ in starts]
    for _k, masses, scale in _alive_rows(rows, D, n, starts):
        for i, mass in enumerate(masses):
            out[i].append(sum(mass))
        if all(Fraction(a[-1], scale) < below for a in out):
            return out
    raise AssertionError("unreachable")


def sweep_8_1() -> None:
    """Seat 2's chance among m players from square 0: seat 2 wins on its k-th turn when its game
    ends then, seat 1's lasts more than k turns and seats 3..m's more than k - 1, so
    P = sum_k P(T = k) P(T > k) P(T > k - 1)^(m - 2), exactly up to K with P(T > K) < 1e-13 (the
    terms after K add at most P(T > K): a certified interval)."""
    declared = declared_numbers(8)
    for die in declared["die"][1]:
        board = _die_board(die)
        rows, D = _turns(board)
        (a,) = _survival(rows, D, board.size, [0], Fraction(1, 10**13))
        K = len(a) - 1
        for m in declared["players"][1]:
            total = sum((D * a[k - 1] - a[k]) * a[k] * (D * a[k - 1]) ** (m - 2) * D ** (m * (K - k))
                        for k in range(1, K + 1))
            low = Fraction(total, D ** (m * K))
            values = {"die": die, "players": m}
            _close_bounded("8.1", expected_of("8.1", values), low, low + Fraction(a[K], D**K),
                           values)


def sweep_12_5() -> None:
    """Seat 1's edge in a two-player race, sum_k P(T = k)^2 / 2, exactly up to K with
    P(T > K) < 1e-6; the terms after K add at most P(T > K)^2 / 2 (a sum of squares of
    non-negative numbers is at most the square of their sum)."""
    for values in variants_of("12.5"):
        board = _die_board(values["die"])
        rows, D = _turns(board)
        (a,) = _survival(rows, D, board.size, [0], Fraction(1, 10**6))
        K = len(a) - 1
        low = Fraction(sum((D * a[k - 1] - a[k]) ** 2 * D ** (2 * (K - k)) for k in range(1, K + 1)),
                       2 * D ** (2 * K))
        _close_bounded("12.5", expected_of("12.5", values), low,
                       low + Fraction(a[K], D**K) ** 2 / 2, values)


def _aimed_rows(board: Board, policy: Any, accuracy: tuple[Fraction, Fraction, Fraction]
                ) -> tuple[list[dict[int, int]], int]:
    """One aimed turn under ``policy`` (a target 1..faces per square) as integer weights over D:
    aiming at t moves t - 1, t or t + 1 squares with the chances ``accuracy``; a move of 0 stays
    (a jump's foot takes its jump; play never rests there), longer moves land by
    ``Board.landing`` of the same board with a die one face larger."""
    D = math.lcm(*[p.denominator for p in accuracy])
    wider = board.replace(die=board.faces + 1)
    rows = []
    for s in range(board.size):
        row: dict[int, int] = {}
        for k, p in enumerate(accuracy):
            move = int(policy[s]) + k - 1
            t = (board.jumps.get(s, s) if move == 0 else wider.landing(s, move))
            row[t] = row.get(t, 0) + int(p * D)
        rows.append(row)
    return rows, D


def _solve(rows: list[dict[int, int]], D: int, n: int, gamma: Fraction,
           rhs: list[Fraction]) -> list[Fraction]:
    """x with x_s - gamma sum_t Q[s, t] x_t = rhs_s over squares 0..n-1, exactly (python-flint)."""
    A = flint.fmpq_mat(n, n)
    for s, row in enumerate(rows):
        A[s, s] = 1
        for t, w in row.items():
            if t < n:
                A[s, t] = A[s, t] - flint.fmpq(w * gamma.numerator, D * gamma.denominator)
    b = flint.fmpq_mat([[flint.fmpq(r.numerator, r.denominator)] for r in rhs])
    x = A.solve(b)
    return [Fraction(int(x[i, 0].p), int(x[i, 0].q)) for i in range(n)]


def _aim_of(percent: int) -> tuple[Fraction, Fraction, Fraction]:
    miss = Fraction(100 - percent, 200)
    return (miss, Fraction(percent, 100), miss)


def sweep_10_1_10_3_10_5() -> None:
    """The aimed game's answers by exact policy evaluation of the policy each check uses (the
    library's policy is read, its value is not): 10.1 passive over aimed expected turns from
    first-step equations; 10.3 the reward times E[gamma^T], from g = gamma (Q g + r) with r the
    chance of finishing in one turn; 10.5 sum_k P(T1 = k) P(T2 >= k) exactly up to K with
    P(T > K) < 1e-13, plus at most P(T > K)."""
    from chutes_edu import AIMING_GAME_2021 as aiming
    from chutes_edu.control import DEFAULT_ACCURACY, optimal_policy, value_iteration

    for values in variants_of("10.1"):
        spun = MILTON_BRADLEY_1943.replace(die=values["die"])
        aim = _aim_of(values["exact"])
        policy = optimal_policy(spun, tuple(float(x) for x in aim)).policy
        rows, D = _aimed_rows(spun, policy, aim)
        aimed = _solve(rows, D, spun.size, Fraction(1), [Fraction(1)] * spun.size)[0]
        _close("10.1", expected_of("10.1", values), _moments(spun)[0][0] / aimed, values)
    default = tuple(Fraction(x) for x in DEFAULT_ACCURACY)
    assert tuple(float(x) for x in default) == DEFAULT_ACCURACY and sum(default) == 1
    n = aiming.size
    for values in variants_of("10.3"):
        gamma = Fraction(values["gamma"], 100)
        policy = value_iteration(aiming, discount=float(gamma), reward=values["reward"]).policy
        rows, D = _aimed_rows(aiming, policy, default)  # type: ignore[arg-type]
        finish = [Fraction(row.get(n, 0), D) * gamma for row in rows]
        g = _solve(rows, D, n, gamma, finish)[0]
        _close("10.3", expected_of("10.3", values), values["reward"] * g, values)
    declared = declared_numbers(10)
    starts = list(declared["start"][1])
    for exact in declared["exact"][1]:
        aim = _aim_of(exact)
        policy = optimal_policy(aiming, tuple(float(x) for x in aim)).policy
        rows, D = _aimed_rows(aiming, policy, aim)
        curves = _survival(rows, D, n, starts, Fraction(1, 10**13))
        for start, a in zip(starts, curves, strict=True):
            K = len(a) - 1
            total = sum((D * a[k - 1] - a[k]) * a[k - 1] * D ** (2 * (K - k)) for k in range(1, K + 1))
            low = Fraction(total, D ** (2 * K - 1))
            values = {"exact": exact, "start": start}
            _close_bounded("10.5", expected_of("10.5", values), low,
                           low + Fraction(a[K], D**K), values)


def _max_norm(M: Any) -> Fraction:
    """The largest absolute row sum of an exact matrix."""
    top = max(sum((abs(M[i, j]) for j in range(M.ncols())), flint.fmpq(0))
              for i in range(M.nrows()))
    return Fraction(int(top.p), int(top.q))


def sweep_5_3() -> None:
    """The max-norm condition number ||I - Q|| ||(I - Q)^-1|| of the small boards, with the inverse
    exact (python-flint) and both norms the largest absolute row sum."""
    for values in variants_of("5.3"):
        base = MILTON_BRADLEY_1943 if values["small_board"] == "1943" else MILTON_BRADLEY_1943_CHUTE_48
        board = base.replace(die=values["small_die"], overshoot=values["small_rule"])
        A = _i_minus_q(board)
        _close("5.3", expected_of("5.3", values), _max_norm(A) * _max_norm(A.inv()), values)


def sweep_11_1() -> None:
    """The chance that a game from square 0 of the 1943 board with traps on n.low and n.high ends
    in the trap on n.high: x_s = sum_r p_r [l(s, r) = high] + sum over non-absorbing landings
    p_r x_l(s, r), first-step equations over the squares 0..99, solved exactly (a trap's own row
    is x = 0 and no other row reads it)."""
    for values in variants_of("11.1"):
        low, high = values["low"], values["high"]
        board = MILTON_BRADLEY_1943.replace(traps=(low, high))
        n = board.size
        A = flint.fmpq_mat(n, n)
        rhs = [flint.fmpq(0)] * n
        for s in range(n):
            A[s, s] = 1
            if s in (low, high):
                continue
            for face, p in enumerate(board.probabilities, start=1):
                t = board.landing(s, face)
                if t == high:
                    rhs[s] += flint.fmpq(p.numerator, p.denominator)
                elif t not in (low, n):
                    A[s, t] = A[s, t] - flint.fmpq(p.numerator, p.denominator)
        x = A.solve(flint.fmpq_mat([[r] for r in rhs]))
        _close("11.1", expected_of("11.1", values), Fraction(int(x[0, 0].p), int(x[0, 0].q)),
               values)


def _bonus_turns(board: Board) -> tuple[list[dict[int, int]], int]:
    """One turn with bonus rolls as integer weights over D (rows for squares 0..size-1): the
    turn's end square from s is l(s, r) for a face r that gives no bonus roll, and for the bonus
    face the end of a further turn from l(s, r) unless that is absorbing, so the turn matrix is
    (I - B)^-1 R, B the bonus face's moves between squares below the final one, solved exactly."""
    n, bonus = board.size, board.bonus_roll
    assert not board.traps
    A, R = flint.fmpq_mat(n, n), flint.fmpq_mat(n, n + 1)
    for s in range(n):
        A[s, s] = 1
        for face, p in enumerate(board.probabilities, start=1):
            t, q = board.landing(s, face), flint.fmpq(p.numerator, p.denominator)
            if face == bonus and t < n:
                A[s, t] = A[s, t] - q
            else:
                R[s, t] = R[s, t] + q
    M = A.solve(R)
    D = math.lcm(*[int(M[s, t].q) for s in range(n) for t in range(n + 1)])
    rows = [{t: int(M[s, t] * D) for t in range(n + 1) if M[s, t] != 0} for s in range(n)]
    assert all(sum(row.values()) == D for row in rows)
    return rows, D


def _arb_bounds(x: Any) -> tuple[Fraction, Fraction]:
    """The ends of an arb ball as exact Fractions."""
    def exact(y: Any) -> Fraction:
        man, exp = y.man_exp()
        return Fraction(int(man)) * Fraction(2) ** int(exp)
    mid, rad = exact(x.mid()), exact(x.rad())
    return mid - rad, mid + rad


def sweep_8_5() -> None:
    """The first seat's edge on Noordenbos's board (a six rolls again) from n.start: half the sum
    of P(T = k)^2 up to K with P(T > K) < 1e-7, in ball arithmetic (Arb, 256 bits: every
    rounding enclosed, so the sum lies in the ball), plus at most P(T > K)^2 / 2 (as 12.5).
    Exact integers would be slow here: the turn's weights are over a 55-bit D, and K is 800."""
    from chutes_edu import NOORDENBOS_2023

    rows, D = _bonus_turns(NOORDENBOS_2023)
    n = NOORDENBOS_2023.size
    starts = list(declared_numbers(8)["start"][1])
    prec, flint.ctx.prec = flint.ctx.prec, 256
    try:
        W = flint.arb_mat(n, n)
        for s, row in enumerate(rows):
            for t, w in row.items():
                if t < n:
                    W[s, t] = flint.arb(w) / D
        v = flint.arb_mat(len(starts), n)
        for i, start in enumerate(starts):
            v[i, start] = 1
        before = [flint.arb(1)] * len(starts)
        squares = [flint.arb(0)] * len(starts)
        while not all(_arb_bounds(a)[1] < Fraction(1, 10**7) for a in before):
            v = v * W
            alive = [sum((v[i, j] for j in range(n)), flint.arb(0)) for i in range(len(starts))]
            squares = [q + (b - a) ** 2 for q, b, a in zip(squares, before, alive, strict=True)]
            before = alive
        for start, q, a in zip(starts, squares, before, strict=True):
            low, high = _arb_bounds(q / 2)
            values = {"start": start}
            _close_bounded("8.5", expected_of("8.5", values), low,
                           high + _arb_bounds(a)[1] ** 2 / 2, values)
    finally:
        flint.ctx.prec = prec


def _perron_bounds(board: Board) -> tuple[Fraction, Fraction]:
    """Certified bounds on the largest eigenvalue of Q on the squares a game from 0 can stand on
    (Collatz-Wielandt: for a non-negative matrix and any x > 0, min_s (Qx)_s / x_s <= rho <=
    max_s (Qx)_s / x_s), with x numpy's Perron vector (a float guess; the bounds are exact
    arithmetic on it, so a poor guess only widens them)."""
    rows, D = _turns(board)
    n = board.size
    seen, todo = {0}, [0]
    while todo:
        for t in rows[todo.pop()]:
            if t < n and t not in seen:
                seen.add(t)
                todo.append(t)
    squares = sorted(seen)
    index = {s: i for i, s in enumerate(squares)}
    Q = np.zeros((len(squares), len(squares)))
    for s in squares:
        for t, w in rows[s].items():
            if t < n:
                Q[index[s], index[t]] += w / D
    eigenvalues, vectors = np.linalg.eig(Q)
    x = np.abs(np.real(vectors[:, np.argmax(np.abs(eigenvalues))]))
    assert x.min() > 0, f"{board.name}: the Perron vector guess is not positive"
    X = [Fraction(float(v)) for v in x]
    ratios = [sum((w * X[index[t]] for t, w in rows[s].items() if t < n), Fraction(0))
              / (D * X[index[s]]) for s in squares]
    return min(ratios), max(ratios)


def sweep_6_6() -> None:
    """The decay rate of the bounce boards: the check's value inside certified bounds."""
    for values in variants_of("6.6"):
        base = (MILTON_BRADLEY_1943 if values["bounce_board"] == "1943"
                else MILTON_BRADLEY_1943_CHUTE_48)
        low, high = _perron_bounds(base.replace(overshoot="bounce", die=values["bounce_die"]))
        _close_bounded("6.6", expected_of("6.6", values), low, high, values)


def _agree(exercise: str, values: dict[str, Any], want: Any) -> None:
    got = expected_of(exercise, values).expected
    if got != want:
        raise Sweep(f"{exercise} with {values}: the check expects {got!r}, the exact answer is "
                    f"{want!r}")


SWEPT: dict[str, Callable[[], None]] = {
    "1.5": sweep_1_5, "3.4": sweep_3_4, "3.5": sweep_3_5, "3.7": sweep_3_7, "4.2": sweep_4_2,
    "4.7": sweep_4_7, "5.3": sweep_5_3, "5.7": sweep_5_7, "6.1": sweep_6_1, "6.2": sweep_6_2, "6.6": sweep_6_6, "6.7": sweep_6_7,
    "7.3": sweep_7_3, "7.1": sweep_7_1_and_7_2, "8.7": sweep_8_7,
    "9.3": sweep_9_3_and_9_4, "9.7": sweep_9_7, "10.1": sweep_10_1_10_3_10_5,
    "10.6": sweep_10_6, "11.1": sweep_11_1, "11.5": sweep_11_5, "8.1": sweep_8_1, "8.5": sweep_8_5, "12.5": sweep_12_5,
    "11.7": sweep_11_7, "12.1": sweep_12_1,
    "12.6": sweep_12_6, "values": sweep_values}
"""Each swept exercise and its sweep (7.1's sweep also sweeps 7.2)."""

ALSO_SWEPT = {"7.2": "7.1", "9.4": "9.3", "10.3": "10.1", "10.5": "10.1",
              **{e: "values" for e in ("1.7", "2.1", "2.5", "2.6", "4.1", "4.6", "7.5", "9.1",
                                       "11.4")}}

NOT_SWEPT: dict[str, str] = {}
"""Exercises whose answer is a threshold, count, argmax or set that this sweep leaves out, and why."""

FLOATS_NOT_SWEPT = {
    "7.7": "a share of 200 simulated runs, within 0.016: the reference is a simulation",
}
"""Float answers within a tolerance that the sweep does not compare with an exact value yet."""


# ---------------------------------------------------------------- the tests
@pytest.mark.parametrize("exercise", sorted(SWEPT))
def test_every_variant_is_exactly_right_and_well_separated(exercise: str) -> None:
    start = time.perf_counter()
    SWEPT[exercise]()
    print(f"{exercise}: {time.perf_counter() - start:.1f} s")


def test_every_threshold_count_or_argmax_exercise_is_swept_or_listed() -> None:
    decided = {"whole_number", "same_whole_numbers", "same_array", "one_of", "same_words"}
    for exercise in exercise_ids():
        spec = answer_spec(exercise)
        if spec is None or spec.kind not in decided or spec.kind in {"one_of", "same_words"}:
            continue            # code, a float within a tolerance, a fixed letter, exact words
        assert exercise in SWEPT or exercise in ALSO_SWEPT or exercise in NOT_SWEPT, \
            f"{exercise} ({spec.kind}) is neither swept nor listed in NOT_SWEPT"


def test_every_float_answer_is_swept_or_listed() -> None:
    for exercise in exercise_ids():
        spec = answer_spec(exercise)
        if spec is not None and spec.kind == "close":
            assert (exercise in SWEPT or exercise in ALSO_SWEPT
                    or exercise in FLOATS_NOT_SWEPT), f"{exercise} is neither swept nor listed"


def test_the_recording_proxy_sees_only_the_numbers_a_check_reads() -> None:
    assert numbers_read("4.7") == ["digits", "sides"]
    assert numbers_read("7.2") == ["die", "start", "width"]
    assert numbers_read("12.1") == ["min_length"]


def test_the_sweep_catches_the_old_float_rule_of_4_7() -> None:
    """The check of 4.7 before it was exact (float partial sums): on sides 3 and 12 digits it
    stops at K = 1572, and the exact answer is 1576. The reference says so; and even with its
    margin switched off, 12 digits is not a question floats can answer."""
    def old_rule(board: Board, tol: float) -> int:
        Q = transition_matrix(board)[:board.size, :board.size]
        target = float(_moments(board)[0][0])
        v = np.zeros(board.size)
        v[0] = 1.0
        total, K = 0.0, 0
        while target - total >= tol:
            total += v.sum()
            v = v @ Q
            K += 1
        return K

    board = _die_board(3)
    exact = _remainder_crossing(board, Fraction(1, 10**12), 0, Fraction(0))
    assert exact == 1576 and old_rule(board, 1e-12) != exact
    with pytest.raises(Sweep, match="not well separated"):
        _remainder_crossing(board, Fraction(1, 10**12), 0, REMAINDER_MARGIN)


def test_the_sweep_catches_a_tie_and_a_wrong_expected_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """3.5 with die 4 after 3 turns: squares 6, 7, 8 and 31 tie; 3.7 against a check off by one."""
    import chutes_edu.checks.lesson03 as lesson03

    monkeypatch.setattr(lesson03, "first_cdf_at_least", lambda *args: 1 + _first_cdf(*args))
    with pytest.raises(Sweep, match="3.7 with"):
        sweep_3_7()
    board = _die_board(4)
    mass = next(m for k, (m,), _ in _alive(board, [0]) if k == 3)
    assert [s for s, x in enumerate(mass) if x == max(mass)] == [6, 7, 8, 31]


def _first_cdf(board: Board, level: Fraction, start: int = 0) -> int:
    return _cdf_crossings(board, [start], level, Fraction(0))[start]


def _greedy_outcomes(board: Board, steps: int) -> set[Fraction]:
    """The exact expected lengths greedy can end with, following every tie both ways."""
    mean = _moments(board)[0][0]
    if steps == 0:
        return {mean}
    prices = {}
    for a in range(board.size):
        for b in range(board.size + 1):
            try:
                prices[(a, b)] = _moments(board.with_jump(a, b))[0][0]
            except ValueError:
                continue
    best = min(prices.values())
    if best >= mean:
        return {mean}                        # greedy stops: no jump helps
    return set().union(*(_greedy_outcomes(board.with_jump(*jump), steps - 1)
                         for jump, price in prices.items() if price == best))


def test_greedy_never_rests_on_a_tie_in_12_4() -> None:
    """12.4: whichever way greedy breaks a tie between equally good jumps (on 7 squares 3 -> 7 and
    4 -> 7 tie, and the second reaches the best pair), it ends with the same expected length, and
    some pair beats it: the question does not rest on the library's tie rule."""
    for size in declared_numbers(12)["trap_size"][1]:
        jumps, die = GREEDY_TRAPS[size]
        board = Board(jumps, size=size, die=die)
        outcomes = _greedy_outcomes(board, 2)
        assert len(outcomes) == 1, f"12.4, {size} squares: greedy ends with {outcomes}"
        best_pair = design_board(board, ShortestGame(), max_jumps=2, method="exhaustive")
        assert best_pair.exact_mean < min(outcomes), f"12.4, {size} squares: nothing beats greedy"


def test_the_tie_of_12_4_on_seven_squares_is_caught() -> None:
    jumps, die = GREEDY_TRAPS[7]
    assert len(_greedy_outcomes(Board(jumps, size=7, die=die), 2)) > 1


def test_a_float_answer_off_by_a_tenth_of_its_tolerance_is_caught() -> None:
    """4.1 (tolerance 1e-6, relative): the exact value moved by 1e-7 no longer passes the sweep."""
    spec = expected_of("4.1", {"low": 90, "high": 99})
    exact = sum(_visits(MILTON_BRADLEY_1943, 0)[90:100])
    _close("4.1", spec, exact, {})
    with pytest.raises(Sweep, match="4.1"):
        _close("4.1", spec, exact * (1 + Fraction(1, 10**7)), {})


def test_the_period_reference_of_11_5_knows_its_answers_and_bites(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The periods by hand (Lesson 11's argument): a trip of t - b >= 4 squares takes t - b - 3j
    turns, so the period is gcd(t - b, 3); a shorter trip has the one length t - b. And the sweep
    fails when the check of 11.5 drops one bottom."""
    import chutes_edu.checks.lesson11 as lesson11

    for top in range(8, 12):
        for b in range(1, 8):
            d = top - b
            board = Board({top: b}, size=12, die=(1, 0, 0, 1), overshoot="win")
            assert _long_game_period(board) == (d if d < 4 else math.gcd(d, 3)), (top, b)
    assert expected_of("11.5", {"top": 10}).expected == [1, 4, 7]
    real = lesson11._cycling_bottoms
    monkeypatch.setattr(lesson11, "_cycling_bottoms", lambda top=10: real(top) - {min(real(top))})
    with pytest.raises(Sweep, match="11.5 with"):
        sweep_11_5()


def _nudged(real: Callable[..., Any], factor: float) -> Callable[..., Any]:
    if real.__name__ == "close":                 # the helper: nudge the value it is given
        return lambda value, **kwargs: real(value * factor, **kwargs)
    return lambda *args, **kwargs: real(*args, **kwargs) * factor


@pytest.mark.parametrize(("exercise", "module", "name", "factor"), [
    ("8.1", "lesson08", "win_probabilities", 1 + 1e-8),        # rel 1e-7: a tenth of it
    ("12.5", "lesson12", "_edge", 1 + 1e-7),                   # rel 1e-6
    ("10.1", "lesson10", "expected_turns", 1 + 1e-7),          # rel 1e-6 (passive play)
    ("10.3", "lesson10", "policy_turn_distribution", 1 + 1e-10),   # rel 1e-9
    ("5.3", "lesson05", "close", 1 + 1e-7),                    # rel 1e-6
    ("11.1", "lesson11", "close", 1 + 1e-7),                   # rel 1e-6
    ("8.5", "lesson08", "close", 1 + 1e-8),                    # rel 1e-7
    ("6.6", "lesson06", "close", 1 + 1e-7),                    # rel 1e-6
])
def test_the_new_float_sweeps_catch_a_tenth_of_the_tolerance(
        monkeypatch: pytest.MonkeyPatch, exercise: str, module: str, name: str,
        factor: float) -> None:
    """Each new exact reference fails the check's value moved by a tenth of its tolerance."""
    import importlib

    lesson = importlib.import_module(f"chutes_edu.checks.{module}")
    monkeypatch.setattr(lesson, name, _nudged(getattr(lesson, name), factor))
    with pytest.raises(Sweep, match=f"{exercise} with"):
        SWEPT[exercise.replace("10.3", "10.1")]()
