"""Exact game-length arithmetic for the checks whose answer is a threshold, a count or a rounding.

A check such as "the smallest K whose partial sum is within 1e-9 of E[T]" or "the first k with
P(T <= k) >= 0.95" must not be decided by float sums whose rounding is as large as the margin the
question turns on. Here everything is exact, in integers (python-flint):

- one turn of a board without bonus rolls moves the integer vector :math:`v_k` of weights on the
  squares where play goes on to :math:`v_{k+1} = v_k W`, where :math:`W = D\\,Q` with :math:`D` the
  least common denominator of the die's probabilities; so
  :math:`\\Pr(X_k = s,\\ T > k) = v_k[s] / D^k` exactly, from :math:`v_0 = e_{\\text{start}}`;
- :math:`\\Pr(T > k) = \\sum_s v_k[s] / D^k`;
- the remainder of the partial sum of the tail probabilities is
  :math:`\\mathbb E[T] - \\sum_{j < K} \\Pr(T > j) = \\sum_{j \\ge K} \\Pr(T > j)
  = (v_K \\cdot t) / D^K`, with :math:`t` the exact expected turns of every square (first
  step: the game from :math:`X_K` still needs :math:`t_{X_K}` turns on average);
- the second moment is :math:`\\mathbb E[T^2] = (N(2t - 1))_{\\text{start}}`, from
  :math:`T = 1 + T'`, so :math:`\\operatorname{Var} T = (N(2t - 1))_s - t_s^2`.

Comparisons with a rational level are made between integers (no rounding at all).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache

import flint

from chutes_edu import Board, expected_turns

__all__ = ["survival_weights", "first_remainder_below", "first_cdf_at_least", "variance_from"]


def _weights(board: Board) -> tuple[flint.fmpz_mat, int]:
    """W = D Q over squares 0..size-1 (integers) and D; a board without traps or bonus rolls."""
    if board.bonus_roll is not None or len(board.absorbing) != 1:
        raise ValueError("exact survival weights are for boards without bonus rolls or traps")
    probs = board.probabilities
    scale = math.lcm(*[p.denominator for p in probs])
    n = board.size
    W = flint.fmpz_mat(n, n)
    for s in range(n):
        for r, p in enumerate(probs, start=1):
            t = board.landing(s, r)
            if p and t < n:
                W[s, t] += int(p * scale)
    return W, scale


def survival_weights(board: Board, start: int = 0) -> Iterator[tuple[int, flint.fmpz_mat, int]]:
    """The exact distribution of the squares of a game still going on, turn after turn.

    Parameters
    ----------
    board : Board
        A board without bonus rolls or traps.
    start : int
        The square the game starts on.

    Yields
    ------
    (int, flint.fmpz_mat, int)
        ``(k, v, scale)``: ``v[0, s] / scale`` is :math:`\\Pr(X_k = s,\\ T > k)` for
        ``k = 0, 1, 2, ...`` (``scale`` is :math:`D^k`).
    """
    W, D = _weights(board)
    v = flint.fmpz_mat(1, board.size)
    if start < board.size:
        v[0, start] = 1
    k, scale = 0, 1
    while True:
        yield k, v, scale
        v, k, scale = v * W, k + 1, scale * D


def _exact_turns(board: Board) -> tuple[flint.fmpz_mat, int]:
    """The expected turns of squares 0..size-1 as integers over one common denominator."""
    t = [Fraction(int(x.p), int(x.q)) for x in expected_turns(board, exact=True)[:board.size]]
    den = math.lcm(*[x.denominator for x in t])
    return flint.fmpz_mat([[int(x * den)] for x in t]), den


def first_remainder_below(board: Board, level: Fraction, first: int = 0) -> int:
    """The smallest K >= ``first`` with :math:`\\sum_{j \\ge K} \\Pr(T > j) <` ``level``, exactly.

    That remainder is :math:`\\mathbb E[T]` minus the K-term partial sum
    :math:`\\Pr(T > 0) + \\dots + \\Pr(T > K - 1)`, and also the bias
    :math:`\\mathbb E[T] - \\mathbb E[\\min(T, K)]` of capping games at K turns.

    Parameters
    ----------
    board : Board
        A board without bonus rolls or traps; the game starts on square 0.
    level : Fraction
        The level, positive.
    first : int
        The smallest K allowed.

    Returns
    -------
    int
        K.
    """
    if level <= 0:
        raise ValueError("the level must be positive")
    t, den = _exact_turns(board)
    for k, v, scale in survival_weights(board):
        if k >= first and int((v * t)[0, 0]) * level.denominator < level.numerator * scale * den:
            return k
    raise AssertionError("unreachable: the remainder tends to 0")   # pragma: no cover


def first_cdf_at_least(board: Board, level: Fraction, start: int = 0) -> int:
    """The smallest k with :math:`\\Pr(T \\le k) \\ge` ``level``, exactly.

    Parameters
    ----------
    board : Board
        A board without bonus rolls or traps.
    level : Fraction
        The level, in (0, 1].
    start : int
        The square the game starts on.

    Returns
    -------
    int
        k.
    """
    if not 0 < level <= 1:
        raise ValueError("the level must be in (0, 1]")
    for k, v, scale in survival_weights(board, start):
        going_on = sum(int(v[0, s]) for s in range(board.size))
        if (scale - going_on) * level.denominator >= level.numerator * scale:
            return k
    raise AssertionError("unreachable: every game ends")   # pragma: no cover


def variance_from(board: Board, start: int = 0) -> Fraction:
    """The exact variance of the game length from ``start``: :math:`(N(2t - 1))_s - t_s^2`.

    Parameters
    ----------
    board : Board
        A board without bonus rolls or traps.
    start : int
        The square the game starts on (below the final square).

    Returns
    -------
    Fraction
        Var T.
    """
    t, second = _moments(board)
    mean = Fraction(int(t[start, 0].p), int(t[start, 0].q))
    return Fraction(int(second[start, 0].p), int(second[start, 0].q)) - mean * mean


@lru_cache(maxsize=8)
def _moments(board: Board) -> tuple[flint.fmpq_mat, flint.fmpq_mat]:
    """E[T] and E[T^2] from every square below the final one (one board, solved once)."""
    W, D = _weights(board)
    n = board.size
    A = flint.fmpq_mat(n, n)
    for i in range(n):
        for j in range(n):
            A[i, j] = flint.fmpq(int(i == j) * D - int(W[i, j]), D)
    ones = flint.fmpq_mat([[1] for _ in range(n)])
    t = A.solve(ones)
    return t, A.solve(2 * t - ones)
