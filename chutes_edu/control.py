r"""Optimal control: Chutes and Ladders as a decision problem (LosAlfajores, 2021).

**The aimed move.** Instead of rolling, the player picks a *target* :math:`t \in \{1, \dots, m\}`
(:math:`m` = the board's number of die faces) and then moves :math:`t - 1`, :math:`t` or
:math:`t + 1` squares with probabilities ``accuracy`` :math:`= (a_-, a_0, a_+)`
(LosAlfajores, 2021, uses :math:`(\tfrac14, \tfrac12, \tfrac14)`: two coin flips). A move of
:math:`d > 0` from square :math:`s` follows the board's rules: its overshoot rule when
:math:`s + d > n`, then one jump. A move of 0 (aiming at 1 and falling short) leaves the token where
it is; as in the aiming article's table, a token that stays on the foot of a jump (only possible if
it was put there: play never rests on one) then takes the jump. We write :math:`\ell(s, t, k)` for
the square reached with outcome :math:`k \in \{-, 0, +\}`. Only the *number* of faces matters: the
die's weights and any bonus roll take no part in the aimed game. Boards with traps are refused
(``ValueError``): a trap would end the game as fast as the final square, so "fewest turns" would
aim into it.

A *policy* :math:`\pi` maps each square :math:`0..n-1` to a target. Under a fixed policy the game
is again an absorbing Markov chain, with :math:`P^\pi_{su} = \sum_k a_k [\ell(s, \pi(s), k) = u]`.

**Discounted value (LosAlfajores, 2021).** The final square, and any square whose jump leads to it,
is worth a reward :math:`R`; every other square is worth the discounted best average of where it
leads:

.. math:: V(s) = \gamma \max_t \sum_k a_k\, V(\ell(s, t, k)), \qquad 0 < \gamma \le 1 .

*Value iteration* starts from :math:`V_0 = 0` and applies the right-hand side to every square at
once (a synchronous sweep) until the values stop changing. A square :math:`j` turns from the
finish is worth about :math:`\gamma^j R` times its chance of getting there, so a small
:math:`\gamma` prizes speed over safety and a :math:`\gamma` near 1 prizes safety. This is *not*
the same goal as finishing in the fewest turns on average: maximising
:math:`\mathbb E[\gamma^T]` and minimising :math:`\mathbb E[T]` weigh long games differently.

**Fewest expected turns.** The undiscounted goal is the Bellman equation of a stochastic
shortest-path problem,

.. math:: E(n) = 0, \qquad E(s) = 1 + \min_t \sum_k a_k\, E(\ell(s, t, k)),

solved exactly by *policy iteration*: start from a policy that surely finishes, *evaluate* it by
solving the linear system :math:`(I - Q^\pi) E^\pi = \mathbf 1`, *improve* it by choosing in each
square the target with the smallest :math:`1 + \sum_k a_k E^\pi(\ell(s, t, k))`, and repeat until
no square improves. Every step is again a policy that surely finishes and never takes longer, so
the loop ends, after a handful of rounds, on the optimal policy.

**The race.** With two players, each wants to finish *first*, not fast. Let :math:`W(x, y)` be
the chance that the player to move, on :math:`x`, wins against an opponent on :math:`y` when
both play their best. After the move the roles swap, so

.. math:: W(x, y) = \max_t \sum_k a_k \Big( [\ell = n] + [\ell \ne n]\,\big(1 - W(y, \ell)\big)
          \Big), \qquad \ell = \ell(x, t, k),

a fixed point over all :math:`n^2` pairs of squares, found by value iteration on the whole array
at once.

Functions: :func:`aim_landings` (the rules of one aimed move), :func:`value_iteration`
(LosAlfajores, 2021), :func:`optimal_policy` (fewest turns), :func:`policy_expected_turns`,
:func:`policy_turn_distribution` and :func:`simulate_policy` (any fixed way of aiming),
:func:`race` (two players).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .board import Board, _landings, _on_board, _ranges, _square, _weight_problems
from .i18n import say

__all__ = ["ValueIterationResult", "OptimalPolicyResult", "RaceResult", "aim_landings",
           "value_iteration", "optimal_policy", "policy_expected_turns", "policy_turn_distribution",
           "simulate_policy", "race", "DEFAULT_ACCURACY"]

DEFAULT_ACCURACY: tuple[float, float, float] = (0.25, 0.5, 0.25)
"""The aiming article's aim: one short, on target or one too far with chances 1/4, 1/2, 1/4."""

_TIE = 1e-12
"""Relative gap below which two targets count as equally good (ties go to the smallest)."""


# --------------------------------------------------------------------------- the aimed move
def _accuracy(accuracy: Any) -> np.ndarray:
    """Check ``accuracy`` and return it as a float array (under, exact, over) summing to 1."""
    if isinstance(accuracy, (str, bytes)) or not isinstance(accuracy, (Sequence, np.ndarray)):
        raise ValueError(say("accuracy must be three probabilities (under, exact, over), "
                             "not {accuracy}", accuracy=repr(accuracy)))
    values = list(np.asarray(accuracy, dtype=object).ravel()) if isinstance(
        accuracy, np.ndarray) else list(accuracy)
    if len(values) != 3:
        raise ValueError(say("accuracy must be three probabilities (under, exact, over), got "
                             "{count} values: {values}", count=len(values), values=repr(values)))
    named = zip(("under", "exact", "over"), values, strict=True)      # three values, checked above
    bad = _weight_problems((f"{name}=", v) for name, v in named)
    if bad:
        raise ValueError(say("bad accuracy ({problems})", problems="; ".join(bad)))
    acc = np.array([float(v) for v in values])
    total = float(acc.sum())
    if abs(total - 1.0) > 1e-9:
        raise ValueError(say("accuracy {accuracy} must sum to 1, but sums to {total}",
                             accuracy=repr(tuple(values)), total=f"{total:.12g}"))
    acc /= total
    acc.setflags(write=False)
    return acc


def _aim_table(board: Board) -> np.ndarray:
    """``table[s, t-1, k]``: the square reached from ``s`` aiming at ``t`` with outcome ``k``.

    ``k`` = 0, 1, 2 for a move of ``t-1``, ``t``, ``t+1`` squares. Rows ``0..size``; the final
    square's row is all ``size``. Built once per board (the board is immutable) and read-only.
    """
    if board.traps:
        raise ValueError(say("aimed moves (chutes_edu.control) do not handle traps (this board has "
                             "traps on {squares}): remove them with replace(traps=())",
                             squares=_ranges(board.traps)))
    cache = board._cache
    if "aim_table" in cache:
        return cache["aim_table"]
    n, m = board.size, board.faces
    s = np.arange(n + 1)[:, None, None]
    d = np.arange(1, m + 1)[None, :, None] + np.arange(-1, 2)[None, None, :]   # the move t+k-1
    target = np.broadcast_to(s + d, (n + 1, m, 3))
    if board.overshoot == "bounce" and (2 * n - target < 0).any():
        raise ValueError(say("overshoot='bounce' cannot walk back an aimed move of up to "
                             "{move} squares on a board of size {size}", move=m + 1, size=n))
    # A move of 0 (target == s) counts as landing on s, so on a jump's foot it takes the jump, as
    # in the aiming article's table; play never rests there, so no other square's value needs it.
    table = _landings(s, target, n, board.overshoot, board.jumps)
    table[n] = n
    table.setflags(write=False)
    cache["aim_table"] = table
    return table


def _action_values(table: np.ndarray, acc: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``q[s, t-1] = sum_k acc[k] * values[table[s, t-1, k]]`` for the squares 0..n-1."""
    n = table.shape[0] - 1
    rows = table[:n]
    return (acc[0] * values[rows[..., 0]] + acc[1] * values[rows[..., 1]]
            + acc[2] * values[rows[..., 2]])


def _first_best(q: np.ndarray, largest: bool) -> np.ndarray:
    """0-based index of the best entry in each row of ``q``, the smallest index among ties."""
    best = q.max(axis=-1, keepdims=True) if largest else q.min(axis=-1, keepdims=True)
    slack = _TIE * np.maximum(1.0, np.abs(best))
    good = q >= best - slack if largest else q <= best + slack
    return np.argmax(good, axis=-1)


def _sure_policy(table: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """A policy (0-based targets for squares 0..n-1) that finishes with probability 1.

    Squares are added backwards from the final square: a square joins once some target gives a
    positive chance of reaching a square already in. Every square then has a positive chance of
    stepping to a square that joined earlier, so the token reaches the final square with
    probability 1 (in at most ``n`` such steps, each with a chance bounded away from zero).
    """
    n = table.shape[0] - 1
    possible = table[:n][..., acc > 0]                      # (n, m, outcomes with weight)
    joined = np.zeros(n + 1, dtype=bool)
    joined[n] = True
    policy = np.zeros(n, dtype=np.int64)
    while True:
        hits = joined[possible].any(axis=-1)                # (n, m): this target may reach `joined`
        new = hits.any(axis=1) & ~joined[:n]
        if not new.any():
            break
        policy[new] = np.argmax(hits[new], axis=1)
        joined[:n] |= new
    stuck = np.flatnonzero(~joined[:n])
    if stuck.size:
        raise ValueError(say("no way of aiming can finish the game from squares "
                             "{squares} with accuracy {accuracy}",
                             squares=_ranges(stuck.tolist()), accuracy=tuple(acc.tolist())))
    return policy


def _policy_matrix(board: Board, policy: Any) -> np.ndarray:
    """A policy as an ``(size, m)`` matrix of target probabilities."""
    n, m = board.size, board.faces
    if isinstance(policy, numbers.Integral) and not isinstance(policy, (bool, np.bool_)):
        t = int(policy)
        if not 1 <= t <= m:
            raise ValueError(say("target {target} is not one of 1..{faces}", target=t, faces=m))
        mix = np.zeros((n, m))
        mix[:, t - 1] = 1.0
        return mix
    arr = np.asarray(policy)
    if arr.ndim == 1:
        if arr.shape[0] != n:
            raise ValueError(say("a policy needs one target for each square 0..{last} "
                                 "({size} targets), got {count}",
                                 last=n - 1, size=n, count=arr.shape[0]))
        whole = arr.dtype.kind in "iu" or (arr.dtype.kind == "f" and np.all(arr == np.round(arr)))
        if not whole:
            raise ValueError(say("policy targets must be whole numbers 1..{faces}", faces=m))
        targets = arr.astype(np.int64)
        off = np.flatnonzero((targets < 1) | (targets > m))
        if off.size:
            raise ValueError(say("policy targets must be 1..{faces}: squares {squares} "
                                 "aim at {targets}", faces=m, squares=_ranges(off.tolist()),
                                 targets=sorted(set(targets[off].tolist()))))
        mix = np.zeros((n, m))
        mix[np.arange(n), targets - 1] = 1.0
        return mix
    if arr.ndim == 2:
        if arr.shape != (n, m):
            raise ValueError(say("a mixed policy must be a ({size}, {faces}) matrix of "
                                 "probabilities, got shape {shape}", size=n, faces=m,
                                 shape=arr.shape))
        mix = arr.astype(float)
        if not np.isfinite(mix).all() or (mix < 0).any():
            raise ValueError(say("a mixed policy's probabilities must be finite and non-negative"))
        sums = mix.sum(axis=1)
        off = np.flatnonzero(np.abs(sums - 1.0) > 1e-9)
        if off.size:
            raise ValueError(say("each row of a mixed policy must sum to 1: squares "
                                 "{squares} do not", squares=_ranges(off.tolist())))
        return mix / sums[:, None]
    raise ValueError(say("policy must be a target, one target per square, or a matrix of "
                         "probabilities; got an array of shape {shape}", shape=arr.shape))


def _transition(table: np.ndarray, acc: np.ndarray, mix: np.ndarray) -> np.ndarray:
    """The one-turn matrix (squares 0..n) when square s aims at t with probability mix[s, t-1]."""
    n, m = mix.shape
    P = np.zeros((n + 1, n + 1))
    rows = np.repeat(np.arange(n), m)
    for k in range(3):
        np.add.at(P, (rows, table[:n, :, k].ravel()), (mix * acc[k]).ravel())
    P[n, n] = 1.0
    return P


def _expected(P: np.ndarray) -> np.ndarray:
    """Expected turns to absorption in the last state; ``inf`` where that is not certain."""
    n = P.shape[0] - 1
    edge = P > 0
    reach = np.zeros(n + 1, dtype=bool)          # squares with some chance of finishing
    reach[n] = True
    while True:
        more = reach | (edge & reach[None, :]).any(axis=1)
        if (more == reach).all():
            break
        reach = more
    doomed = ~reach                               # squares that may get stuck forever ...
    while True:
        more = doomed | (edge & doomed[None, :]).any(axis=1)
        if (more == doomed).all():
            break
        doomed = more                             # ... and squares that may lead to them
    out = np.full(n + 1, np.inf)
    out[n] = 0.0
    ok = np.flatnonzero(~doomed[:n])
    if ok.size:
        Q = P[np.ix_(ok, ok)]
        out[ok] = np.linalg.solve(np.eye(ok.size) - Q, np.ones(ok.size))
    return out


def aim_landings(board: Board, square: int, target: int) -> tuple[int, int, int]:
    r"""Where aiming at ``target`` from ``square`` ends: one short, on target, one too far.

    Parameters
    ----------
    board : Board
        The board and its rules (overshoot rule, jumps).
    square : int
        A square in ``0..size``.
    target : int
        A target in ``1..m`` (``m`` = the board's number of die faces).

    Returns
    -------
    (under, exact, over) : tuple of int
        The squares :math:`\ell(s, t, k)` reached by moves of ``target - 1``, ``target`` and
        ``target + 1`` squares, jumps included (a move of 0 stays put).

    Examples
    --------
    >>> from chutes_edu import AIMING_GAME_2021
    >>> aim_landings(AIMING_GAME_2021, 14, 3)     # 16, 17 or 18: 17 is nothing special here
    (16, 17, 18)
    >>> aim_landings(AIMING_GAME_2021, 0, 1)      # stay, climb 1->38, or land on 2
    (0, 38, 2)
    """
    square = _on_board(board, square, "square")
    target = _square(target, "target")
    if not 1 <= target <= board.faces:
        raise ValueError(say("target {target} is not one of 1..{faces}", target=target,
                             faces=board.faces))
    row = _aim_table(board)[square, target - 1]
    return int(row[0]), int(row[1]), int(row[2])


# --------------------------------------------------------------------------- results
@dataclass(frozen=True, eq=False)
class ValueIterationResult:
    """What :func:`value_iteration` found.

    Attributes
    ----------
    values : numpy.ndarray
        The value of each square ``0..size`` (read-only).
    policy : numpy.ndarray
        The target 1..m chosen on each square ``0..size-1`` (read-only).
    iterations : int
        The number of sweeps made.
    accuracy, discount, reward, tol
        The settings used.
    """

    values: np.ndarray = field(repr=False)
    policy: np.ndarray = field(repr=False)
    iterations: int
    accuracy: tuple[float, float, float]
    discount: float
    reward: float
    tol: float


@dataclass(frozen=True, eq=False)
class OptimalPolicyResult:
    """What :func:`optimal_policy` found.

    Attributes
    ----------
    policy : numpy.ndarray
        The target 1..m on each square ``0..size-1`` that minimises the expected number of turns
        (the smallest such target where several tie); read-only.
    expected_turns : numpy.ndarray
        The expected number of turns to finish from each square ``0..size`` under that policy
        (entry ``size`` is 0); read-only.
    iterations : int
        The number of policy-improvement rounds.
    accuracy : tuple of float
        The accuracy used.
    """

    policy: np.ndarray = field(repr=False)
    expected_turns: np.ndarray = field(repr=False)
    iterations: int
    accuracy: tuple[float, float, float]


@dataclass(frozen=True, eq=False)
class RaceResult:
    """What :func:`race` found.

    Attributes
    ----------
    win_probability : numpy.ndarray
        ``[me, opp]``: the chance that the player to move, on square ``me``, finishes before the
        opponent on square ``opp``, both playing their best (squares ``0..size-1``); read-only.
    policy : numpy.ndarray
        ``[me, opp]``: the best target for the player to move (smallest among ties); read-only.
    first_mover : float
        ``win_probability[0, 0]``: the first player's chance when both start off the board.
    fewest_turns_policy : numpy.ndarray
        The one-player policy of :func:`optimal_policy`, for comparison.
    sweeps : int
        The number of value-iteration sweeps made.
    accuracy : tuple of float
        The accuracy used.
    """

    win_probability: np.ndarray = field(repr=False)
    policy: np.ndarray = field(repr=False)
    first_mover: float
    fewest_turns_policy: np.ndarray = field(repr=False)
    sweeps: int
    accuracy: tuple[float, float, float]
    _gain: np.ndarray = field(repr=False)

    def differences(self, min_gain: float = 1e-9) -> list[tuple[int, int, int, int, float]]:
        """Where racing calls for a different target than finishing fast.

        Parameters
        ----------
        min_gain : float, default 1e-9
            Report a position only if the race target wins with a chance at least this much
            higher than the fewest-turns target (so that mere ties are not listed).

        Returns
        -------
        list of (me, opp, race_target, fewest_turns_target, gain)
            One tuple per position ``(me, opp)``, in order of ``me`` then ``opp``; ``gain`` is how
            much the race target adds to the mover's chance of winning.
        """
        me, opp = np.nonzero(self._gain > min_gain)
        return [(int(x), int(y), int(self.policy[x, y]), int(self.fewest_turns_policy[x]),
                 float(self._gain[x, y])) for x, y in zip(me, opp, strict=True)]


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.array(a)
    a.setflags(write=False)
    return a


# ---------------------------------------------------------------------- the aiming article's method
def value_iteration(board: Board, accuracy: Sequence[float] = DEFAULT_ACCURACY,
                    discount: float = 0.9, reward: float = 100.0, tol: float = 1e-3,
                    max_iter: int = 10_000) -> ValueIterationResult:
    r"""The aiming article's discounted value iteration for the aimed game.

    Values start at 0 on every square (the final square too). Each sweep computes, for every
    square :math:`s = 0..n-1` from the previous sweep's values,

    .. math:: V_{\text{new}}(s) = \gamma \max_t \sum_k a_k\, V(\ell(s, t, k)),

    then sets the final square and every square whose jump leads to it to ``reward``. It stops
    after the first sweep whose *total change* :math:`\sum_{s=0}^{n} |V_{\text{new}}(s) - V(s)|`
    is at most ``tol``. The policy is the best target of that last sweep, the smallest among
    targets that tie (within a relative :math:`10^{-12}`).

    One detail differs from the aiming article's code without changing its answer: its array also
    holds ``m`` slots past the final square, copies of square ``n-1``, whose change it adds to the
    total; their change dies out within a few sweeps and we count squares ``0..n`` only (the
    number of sweeps agrees on its board for every discount and accuracy we tried). And as in its
    code, a move of 0 from the foot of a jump takes the jump (see the module docstring), so the
    policy agrees with the aiming article's on every square.

    Parameters
    ----------
    board : Board
        The board; its overshoot rule and jumps apply, its die gives the targets ``1..m``.
    accuracy : sequence of 3 float, default (0.25, 0.5, 0.25)
        The chances of moving ``t-1``, ``t`` and ``t+1`` squares when aiming at ``t``.
    discount : float, default 0.9
        :math:`\gamma` in ``(0, 1]``.
    reward : float, default 100.0
        The value of the final square.
    tol : float, default 1e-3
        Stop once a sweep changes the values by at most this much in total.
    max_iter : int, default 10000
        Give up (``RuntimeError``) after this many sweeps.

    Returns
    -------
    ValueIterationResult
        ``.values`` (squares ``0..size``), ``.policy`` (targets on squares ``0..size-1``) and
        ``.iterations`` (sweeps).

    Raises
    ------
    ValueError
        For a bad accuracy, discount, reward or tolerance.
    RuntimeError
        If the values have not settled after ``max_iter`` sweeps.

    Examples
    --------
    >>> from chutes_edu import AIMING_GAME_2021
    >>> result = value_iteration(AIMING_GAME_2021)
    >>> result.iterations, round(float(result.values[0]), 4), int(result.policy[0])
    (35, 34.8567, 1)
    """
    acc = _accuracy(accuracy)
    discount = _real(discount, "discount")
    if not 0 < discount <= 1:
        raise ValueError(say("discount must be in (0, 1], got {discount}", discount=discount))
    reward = _real(reward, "reward")
    tol = _real(tol, "tol")
    if not tol > 0:
        raise ValueError(say("tol must be positive, got {tol}", tol=tol))
    max_iter = _square(max_iter, "max_iter")
    if max_iter < 1:
        raise ValueError(say("max_iter must be at least 1, got {maxIter}", maxIter=max_iter))
    table = _aim_table(board)
    n = board.size
    goal = [n] + [a for a, b in board.jumps.items() if b == n]
    values = np.zeros(n + 1)
    for sweep in range(1, max_iter + 1):  # noqa: B007 - the count is reported after the loop
        q = _action_values(table, acc, values)
        new = np.empty(n + 1)
        new[:n] = discount * q.max(axis=1)
        new[goal] = reward
        change = float(np.abs(new - values).sum())
        values = new
        if change <= tol:
            break
    else:
        raise RuntimeError(say("value iteration did not settle in {maxIter} sweeps "
                               "(last total change {change} > tol={tol})",
                               maxIter=max_iter, change=f"{change:.3g}", tol=tol))
    policy = _first_best(q, largest=True) + 1
    return ValueIterationResult(_frozen(values), _frozen(policy), sweep,
                                tuple(acc.tolist()), discount, reward, tol)


def _real(value: Any, what: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(say("{what} must be a number, not {value}", what=what, value=repr(value)))
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(say("{what} must be finite, got {value}", what=what, value=value))
    return value


# --------------------------------------------------------------------------- fewest turns
def policy_expected_turns(board: Board, policy: Any,
                          accuracy: Sequence[float] = DEFAULT_ACCURACY) -> np.ndarray:
    r"""Expected number of turns to finish from each square under a fixed way of aiming.

    Solves :math:`(I - Q^\pi) E = \mathbf 1` over the squares from which the policy finishes with
    probability 1; the others get ``inf``.

    Parameters
    ----------
    board : Board
        The board and its rules.
    policy : int, sequence of int or 2-D array
        A single target ``t`` (always aim at ``t``); one target ``1..m`` for each square
        ``0..size-1``; or a ``(size, m)`` matrix whose row ``s`` gives the chance of aiming at each
        target from square ``s`` (e.g. ``np.full((size, m), 1/m)`` aims at random).
    accuracy : sequence of 3 float, default (0.25, 0.5, 0.25)
        The chances of moving ``t-1``, ``t`` and ``t+1`` squares when aiming at ``t``.

    Returns
    -------
    numpy.ndarray
        Length ``size + 1``; entry ``size`` is 0, ``inf`` where the game may never end.

    Examples
    --------
    >>> from chutes_edu import AIMING_GAME_2021
    >>> always_2 = policy_expected_turns(AIMING_GAME_2021, 2)
    >>> always_6 = policy_expected_turns(AIMING_GAME_2021, 6)   # never gets past square 99
    >>> round(float(always_2[0]), 2), float(always_6[0])
    (67.18, inf)
    """
    acc = _accuracy(accuracy)
    mix = _policy_matrix(board, policy)
    return _expected(_transition(_aim_table(board), acc, mix))


def policy_turn_distribution(board: Board, policy: Any,
                             accuracy: Sequence[float] = DEFAULT_ACCURACY, start: int = 0,
                             tail: float = 1e-12, max_turns: int = 1_000_000) -> np.ndarray:
    r"""The distribution of the game's length under a fixed way of aiming.

    ``pmf[k]`` :math:`= \Pr(T = k) = (Q^{k-1} R)_{\text{start}}` for the chain of the policy,
    as long as needed for the unfinished probability to fall below ``tail``.

    Parameters
    ----------
    board : Board
        The board and its rules.
    policy : int, sequence of int or 2-D array
        As for :func:`policy_expected_turns`.
    accuracy : sequence of 3 float, default (0.25, 0.5, 0.25)
        The chances of moving ``t-1``, ``t`` and ``t+1`` squares when aiming at ``t``.
    start : int, default 0
        The square the token starts on.
    tail : float, default 1e-12
        The unfinished probability that may be left out.
    max_turns : int, default 1000000
        Refuse (``ValueError``) to build a longer array.

    Returns
    -------
    numpy.ndarray
        ``pmf`` with ``pmf[0] = 0`` (unless ``start`` is the final square).

    Raises
    ------
    ValueError
        If the policy may never finish from ``start`` (see :func:`policy_expected_turns`).

    Examples
    --------
    >>> from chutes_edu import AIMING_GAME_2021
    >>> pmf = policy_turn_distribution(AIMING_GAME_2021, optimal_policy(AIMING_GAME_2021).policy)
    >>> round(float((pmf * range(len(pmf))).sum()), 4)
    10.6075
    """
    acc = _accuracy(accuracy)
    mix = _policy_matrix(board, policy)
    n = board.size
    start = _on_board(board, start, "start")
    if not 0 < tail < 1:
        raise ValueError(say("tail must be between 0 and 1, got {tail}", tail=tail))
    P = _transition(_aim_table(board), acc, mix)
    if start == n:
        return np.array([1.0])
    if not math.isfinite(_expected(P)[start]):
        raise ValueError(say("this policy may never finish from square {start}", start=start))
    Q, finish = P[:n, :n], P[:n, n]
    pieces = [0.0]
    row = np.zeros(n)
    row[start] = 1.0
    while row.sum() >= tail:
        if len(pieces) > max_turns:
            raise ValueError(say("the distribution needs more than max_turns={maxTurns} terms",
                                 maxTurns=max_turns))
        pieces.append(float(row @ finish))
        row = row @ Q
    return np.array(pieces)


def optimal_policy(board: Board, accuracy: Sequence[float] = DEFAULT_ACCURACY,
                   max_rounds: int = 1000) -> OptimalPolicyResult:
    r"""The way of aiming that finishes in the fewest turns on average, by policy iteration.

    Starts from a policy that surely finishes (squares are taken backwards from the final square,
    each aiming where it has a chance to reach one already taken), then alternates exact
    evaluation (``numpy.linalg.solve``) and improvement. A square switches target only when that
    shortens its expected game by more than a relative :math:`10^{-12}`, so the loop ends. Last,
    each square takes the smallest target among those that are optimal.

    Parameters
    ----------
    board : Board
        The board and its rules.
    accuracy : sequence of 3 float, default (0.25, 0.5, 0.25)
        The chances of moving ``t-1``, ``t`` and ``t+1`` squares when aiming at ``t``.
    max_rounds : int, default 1000
        Give up (``RuntimeError``) after this many improvement rounds.

    Returns
    -------
    OptimalPolicyResult
        ``.policy`` (targets on squares ``0..size-1``), ``.expected_turns`` (squares ``0..size``)
        and ``.iterations`` (improvement rounds).

    Raises
    ------
    ValueError
        For a bad accuracy, or if no way of aiming can finish from some square.

    Examples
    --------
    >>> from chutes_edu import AIMING_GAME_2021
    >>> best = optimal_policy(AIMING_GAME_2021)
    >>> round(float(best.expected_turns[0]), 4), best.iterations
    (10.6075, 5)
    """
    acc = _accuracy(accuracy)
    table = _aim_table(board)
    n, m = board.size, board.faces
    policy = _sure_policy(table, acc)
    rows = np.arange(n)

    def evaluate(targets: np.ndarray) -> np.ndarray:
        mix = np.zeros((n, m))
        mix[rows, targets] = 1.0
        return _expected(_transition(table, acc, mix))

    for rounds in range(1, max_rounds + 1):  # noqa: B007 - the count is reported after the loop
        turns = evaluate(policy)
        if not np.isfinite(turns).all():           # cannot happen: improvement keeps it sure
            raise RuntimeError(say("policy iteration reached a policy that may never finish"))
        q = 1.0 + _action_values(table, acc, turns)
        current = q[rows, policy]
        best = _first_best(q, largest=False)
        better = q[rows, best] < current - _TIE * np.maximum(1.0, current)
        if not better.any():
            break
        policy = np.where(better, best, policy)
    else:
        raise RuntimeError(say("policy iteration did not settle in {rounds} rounds",
                               rounds=max_rounds))
    canonical = best                                # the smallest optimal target everywhere
    if not np.array_equal(canonical, policy):
        again = evaluate(canonical)
        if np.all(again <= turns + 1e-9 * np.maximum(1.0, turns)):
            policy, turns = canonical, again
    return OptimalPolicyResult(_frozen(policy + 1), _frozen(turns), rounds, tuple(acc.tolist()))


def simulate_policy(board: Board, policy: Any, n_games: int,
                    accuracy: Sequence[float] = DEFAULT_ACCURACY, start: int = 0,
                    seed: int | np.random.Generator | None = None,
                    max_turns: int = 100_000) -> np.ndarray:
    """Play ``n_games`` one-player aimed games and return how many turns each took.

    Parameters
    ----------
    board : Board
        The board and its rules.
    policy : int, sequence of int or 2-D array
        As for :func:`policy_expected_turns`.
    n_games : int
        How many games to play.
    accuracy : sequence of 3 float, default (0.25, 0.5, 0.25)
        The chances of moving ``t-1``, ``t`` and ``t+1`` squares when aiming at ``t``.
    start : int, default 0
        The square every token starts on.
    seed : int, numpy.random.Generator or None
        The source of randomness.
    max_turns : int, default 100000
        Refuse (``ValueError``) to play a game that has gone on this long (a policy that may
        never finish); check with :func:`policy_expected_turns` first.

    Returns
    -------
    numpy.ndarray
        ``int64`` array of length ``n_games``.
    """
    acc = _accuracy(accuracy)
    mix = _policy_matrix(board, policy)
    table = _aim_table(board)
    n, m = board.size, board.faces
    n_games = _square(n_games, "n_games")
    if n_games < 0:
        raise ValueError(say("n_games must be 0 or more, got {nGames}", nGames=n_games))
    start = _on_board(board, start, "start")
    rng = np.random.default_rng(seed)
    cum_mix = np.cumsum(mix, axis=1)
    cum_mix[:, -1] = 1.0
    cum_acc = np.cumsum(acc)
    cum_acc[-1] = 1.0
    result = np.zeros(n_games, dtype=np.int64)
    pos = np.full(n_games, start, dtype=np.int64)
    alive = np.arange(n_games)
    keep = pos != n
    pos, alive = pos[keep], alive[keep]
    turn = 0
    while pos.size:
        turn += 1
        if turn > max_turns:
            raise ValueError(say("a game has gone on for {maxTurns} turns: does this policy "
                                 "finish?", maxTurns=max_turns))
        t = (rng.random(pos.size)[:, None] > cum_mix[pos]).sum(axis=1)
        k = np.searchsorted(cum_acc, rng.random(pos.size), side="right")
        pos = table[pos, np.minimum(t, m - 1), np.minimum(k, 2)]
        done = pos == n
        result[alive[done]] = turn
        pos, alive = pos[~done], alive[~done]
    return result


# --------------------------------------------------------------------------- the race
def race(board: Board, accuracy: Sequence[float] = DEFAULT_ACCURACY, tol: float = 1e-12,
         max_sweeps: int = 100_000) -> RaceResult:
    r"""Two players race with aimed moves, each maximising the chance of finishing first.

    Value iteration on :math:`W(x, y)` (see the module docstring) over all pairs of squares
    ``0..size-1`` at once, starting from :math:`W = 0`, until a sweep changes no entry by more
    than ``tol``.

    Parameters
    ----------
    board : Board
        The board and its rules.
    accuracy : sequence of 3 float, default (0.25, 0.5, 0.25)
        The chances of moving ``t-1``, ``t`` and ``t+1`` squares when aiming at ``t``.
    tol : float, default 1e-12
        Stop once no winning chance changes by more than this in a sweep.
    max_sweeps : int, default 100000
        Give up (``RuntimeError``) after this many sweeps.

    Returns
    -------
    RaceResult
        ``.win_probability[me, opp]``, ``.policy[me, opp]``, ``.first_mover`` and
        ``.differences()`` (where racing and finishing fast call for different targets).

    Raises
    ------
    ValueError
        For a bad accuracy, or if no way of aiming can finish from some square.
    RuntimeError
        If the chances have not settled after ``max_sweeps`` sweeps.

    Examples
    --------
    >>> from chutes_edu import AIMING_GAME_2021
    >>> r = race(AIMING_GAME_2021)
    >>> bool(0.5 < r.first_mover < 0.6)
    True
    """
    acc = _accuracy(accuracy)
    tol = _real(tol, "tol")
    if not tol > 0:
        raise ValueError(say("tol must be positive, got {tol}", tol=tol))
    max_sweeps = _square(max_sweeps, "max_sweeps")
    table = _aim_table(board)
    _sure_policy(table, acc)                          # raises if the game cannot be finished
    n = board.size
    moves = table[:n]                                 # (x, t, k)
    lose = np.empty((n, n + 1))                       # lose[y, l]: 1 - W(y, l), and 1 at l = n
    lose[:, n] = 1.0
    win = np.zeros((n, n))

    def q_values(w: np.ndarray) -> np.ndarray:
        """q[y, x, t] = chance that the mover on x, aiming at t, beats an opponent on y."""
        lose[:, :n] = 1.0 - w
        return (acc[0] * lose[:, moves[..., 0]] + acc[1] * lose[:, moves[..., 1]]
                + acc[2] * lose[:, moves[..., 2]])

    for sweep in range(1, max_sweeps + 1):  # noqa: B007 - the count is reported after the loop
        new = q_values(win).max(axis=2).T
        change = float(np.abs(new - win).max())
        win = new
        if change <= tol:
            break
    else:
        raise RuntimeError(say("the race did not settle in {sweeps} sweeps "
                               "(last change {change} > tol={tol})",
                               sweeps=max_sweeps, change=f"{change:.3g}", tol=tol))
    q = q_values(win).transpose(1, 0, 2)              # (x, y, t)
    policy = _first_best(q, largest=True)
    solo = optimal_policy(board, tuple(acc.tolist())).policy
    gain = q.max(axis=2) - np.take_along_axis(q, np.broadcast_to((solo - 1)[:, None, None],
                                                                 (n, n, 1)), axis=2)[..., 0]
    return RaceResult(_frozen(win), _frozen(policy + 1), float(win[0, 0]), solo, sweep,
                      tuple(acc.tolist()), _frozen(gain))
