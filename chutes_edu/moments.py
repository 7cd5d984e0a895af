r"""The moments of the game length, and how adding one jump changes them, all jumps at once.

:math:`T` is the number of turns of a one-player game from square 0 (until it ends either way on a
board with traps); :math:`t = \mathbb E_s[T]` and :math:`m = \mathbb E_s[T^2]` from every square
:math:`s` where play goes on. The first step (:math:`T = 1 + T'` after one turn) gives
:math:`(I - Q)t = \mathbf 1` and :math:`(I - Q)m = 2t - \mathbf 1`, so with the fundamental
matrix :math:`N = (I - Q)^{-1}`: :math:`t = N\mathbf 1`, :math:`m = (2N - I)\,t` and
:math:`\operatorname{Var} T = m_0 - t_0^2` (:func:`game_variance`, in floats or exactly).

**Adding a jump.** Adding :math:`a \to b` moves column :math:`a` of the one-roll matrix
:math:`B_Q` to column :math:`b`, a rank-one change of :math:`I - B_Q`, so the Sherman-Morrison
formula prices every candidate jump from one inverse :math:`N = (I - B_Q)^{-1}` (the mean is
:func:`~chutes_edu.jump_effects`). The **second moment** follows the same way. Counting the turns
roll by roll (a roll ends its turn, :math:`c = 1`, unless it shows the bonus face and the game
goes on, :math:`c = 0`), the first step gives
:math:`\mathbb E_s[T^2] = \sum_r p_r\,(c_r + 2c_r t_{\ell(s,r)} + m_{\ell(s,r)})`, that is

.. math:: m = 2N\,(t - Ft) - t, \qquad t = N\bar c,

with :math:`F` the bonus face's moves that keep the game going (:math:`F = 0` without a bonus
roll, and then :math:`m = (2N - I)\,t`, the formula of Lesson 6) and
:math:`\operatorname{Var} T = m_0 - t_0^2`. After the jump :math:`a \to b` (to a square where play
goes on), with :math:`Y = NB_Q = N - I`, :math:`Z = NF`, :math:`H = (Z - N)Y + Z`,
:math:`g = N(t - Ft)`, :math:`D = 1 + Y_{aa} - Y_{ba}` and :math:`\delta = (t_a - t_b)/D`:

.. math:: t'_0 = t_0 - Y_{0a}\delta, \qquad
          m'_0 = 2\Big(g_0 + \delta H_{0a} - Y_{0a}\,\frac{g_a - g_b + \delta(H_{aa} - H_{ba})}{D}
          \Big) - t'_0 .

A jump into an absorbing square (the final square or a trap) removes column :math:`a` instead
(:math:`u = e_a`) and turns the bonus face's landings on :math:`a` into turn-ending rolls; the same
algebra, with :math:`W = (N - Z)Z` and :math:`s_a = (t_a + Z_{aa})/(1 + Y_{aa})`, gives
:math:`t'_0 = t_0 + Z_{0a} - Y_{0a}s_a` and :math:`m'_0 = 2\big(x_0 - Y_{0a}x_a/(1 + Y_{aa})\big)
- t'_0` with :math:`x = g + W_{\cdot a} + s_a H_{\cdot a}`. One pricing costs
:math:`O(n^3)` (one inverse and a few products) for all :math:`O(n^2)` candidates.

:func:`variance_effects` returns the variance of every one-jump board; :mod:`chutes_edu.design`
builds its searches on these prices (and on :func:`_mean_prices`, the mean after each of a list
of jumps, from a board's :math:`N`, :math:`t` and :math:`Z`).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import numpy as np

from .board import Board
from .markov import _exact_turn_rows, jump_effects, transition_matrix

__all__ = ["game_variance", "variance_effects"]

def _bonus_and_costs(table: np.ndarray, probs: np.ndarray, ends: np.ndarray, bonus: int | None
                     ) -> tuple[np.ndarray | None, np.ndarray]:
    """(F, c) of the module docstring from a roll table: the bonus face's moves that keep the game
    going (None without a bonus roll) and the turns each roll ends, over the squares 0..n-1."""
    n = table.shape[0] - 1
    costs = (~ends[:n]).astype(float)
    if bonus is None:
        return None, costs
    pf = float(probs[bonus - 1])
    dest = table[:n, bonus - 1]
    on = np.flatnonzero(~ends[:n] & ~ends[dest])
    F = np.zeros((n, n))
    F[on, dest[on]] = pf
    costs[on] = 1.0 - pf
    return F, costs


def _system(table: np.ndarray, probs: np.ndarray, ends: np.ndarray, bonus: int | None
            ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """(B_Q, F, c) of the module docstring from a roll table ``table[s, r-1]`` (any jumps).

    B_Q is the one-roll matrix over the squares ``0..n-1`` with the rows and columns of the
    absorbing squares zero (``ends`` marks them); F and c as in :func:`_bonus_and_costs`.
    """
    n = table.shape[0] - 1
    live = ~ends[:n]
    faces = np.flatnonzero(probs > 0)
    cols = table[:n, faces]
    keep = live[:, None] & ~ends[cols]
    rows = np.broadcast_to(np.arange(n)[:, None], cols.shape)
    weights = np.broadcast_to(probs[faces][None, :], cols.shape)
    BQ = np.bincount((rows * n + cols)[keep], weights=weights[keep],
                     minlength=n * n).reshape(n, n)
    return (BQ, *_bonus_and_costs(table, probs, ends, bonus))


def _parts(N: np.ndarray, F: np.ndarray | None, costs: np.ndarray,
           moments: bool) -> dict[str, Any]:
    """t = Nc and Z = NF from N; with ``moments`` also Y, g, H, W of the module docstring."""
    t = N @ costs
    Z = None if F is None else N @ F
    parts: dict[str, Any] = {"N": N, "t": t, "Z": Z}
    if moments:
        Y = N - np.eye(N.shape[0])                 # N B_Q = N - I, as N (I - B_Q) = I
        if F is None:                              # no bonus roll: F = Z = W = 0
            Z = np.zeros_like(N)
            g = N @ t
            H = -(N @ Y)
            W = Z
        else:
            g = N @ (t - F @ t)
            H = (Z - N) @ Y + Z
            W = (N - Z) @ Z
        parts.update(Y=Y, Z=Z, g=g, H=H, W=W)
    return parts


def _ends(board: Board) -> np.ndarray:
    ends = np.zeros(board.size + 1, dtype=bool)
    ends[list(board.absorbing)] = True
    return ends


def _moment_parts(board: Board) -> dict[str, Any]:
    """The matrices of the module docstring for ``board``: N, Y, Z, H, W, t and g."""
    probs = np.array([float(p) for p in board.probabilities])
    BQ, F, costs = _system(board._roll_table, probs, _ends(board), board.bonus_roll)
    return _parts(np.linalg.inv(np.eye(board.size) - BQ), F, costs, moments=True)


def game_variance(board: Board, exact: bool = False) -> float | Fraction:
    r"""The variance of the game length :math:`T` from square 0, from the fundamental matrix.

    With :math:`N = (I - Q)^{-1}` over the squares where play goes on and :math:`t = N\mathbf 1`,
    the second moment is :math:`\mathbb E[T^2] = ((2N - I)\,t)_0` (first step:
    :math:`T = 1 + T'` after one turn), so :math:`\operatorname{Var} T = ((2N - I)t)_0 - t_0^2`.
    On a board with traps :math:`T` counts the turns until the game ends either way.

    Parameters
    ----------
    board : Board
        The board and its rules.
    exact : bool, default False
        If True, solve :math:`(I - Q)t = \mathbf 1` and :math:`(I - Q)m = 2t - \mathbf 1` over the
        rationals (python-flint) and return a ``Fraction``.

    Returns
    -------
    float or fractions.Fraction

    Examples
    --------
    >>> from chutes_edu import Board
    >>> coin = Board(size=2, die=2)     # a coin moves 1 or 2 squares; a roll past 2 is lost
    >>> game_variance(coin, exact=True) # T = 1 (a 2 first) or 1 + a wait for a 1 (mean 2)
    Fraction(2, 1)
    """
    if exact:
        return _exact_moments(board)[2]
    n = board.size
    P = transition_matrix(board)
    ends = np.zeros(n + 1, dtype=bool)
    ends[list(board.absorbing)] = True
    live = np.flatnonzero(~ends)
    A = np.eye(live.size) - P[np.ix_(live, live)]
    t = np.linalg.solve(A, np.ones(live.size))
    m = np.linalg.solve(A, 2 * t - 1)
    return float(m[0] - t[0] ** 2)


def _exact_moments(board: Board) -> tuple[Fraction, Fraction, Fraction]:
    """Exact (E T, E T^2, Var T) from square 0, by flint's rational solver."""
    import flint
    rows = _exact_turn_rows(board)          # the exact P, row by row (only its nonzero entries)
    ends = set(board.absorbing)
    live = [s for s in range(board.size + 1) if s not in ends]
    at = {s: i for i, s in enumerate(live)}
    k = len(live)
    A = flint.fmpq_mat(k, k)                # I - Q
    for i, s in enumerate(live):
        A[i, i] = 1
        for u, p in rows[s].items():
            j = at.get(u)
            if j is not None:
                A[i, j] -= flint.fmpq(p.numerator, p.denominator)
    t = A.solve(flint.fmpq_mat(k, 1, [1] * k))
    m = A.solve(flint.fmpq_mat(k, 1, [2 * t[i, 0] - 1 for i in range(k)]))

    def frac(x: Any) -> Fraction:
        return Fraction(int(x.p), int(x.q))
    mean, second = frac(t[0, 0]), frac(m[0, 0])
    return mean, second, second - mean * mean


def _moment_effects(parts: dict[str, Any], absorbing: Iterable[int]
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(E T', E T'^2) from square 0 for every added jump a -> b, from a board's moment parts
    (no mask: entries for jumps the rules refuse are meaningless)."""
    Y, Z, H, W, t, g = (parts[k] for k in ("Y", "Z", "H", "W", "t", "g"))
    n = t.size
    mean = np.full((n + 1, n + 1), np.nan)
    second = np.full((n + 1, n + 1), np.nan)
    ya = np.diag(Y)
    ha = np.diag(H)
    with np.errstate(divide="ignore", invalid="ignore"):
        # b where play goes on: [a, b] arrays
        D = 1.0 + ya[:, None] - Y.T
        delta = (t[:, None] - t[None, :]) / D
        t0 = t[0] - Y[0][:, None] * delta
        x0 = g[0] + delta * H[0][:, None]
        xa_minus_xb = g[:, None] - g[None, :] + delta * (ha[:, None] - H.T)
        mean[:n, :n] = t0
        second[:n, :n] = 2.0 * (x0 - Y[0][:, None] * xa_minus_xb / D) - t0
        # b absorbing (the final square or a trap)
        s_a = (t + np.diag(Z)) / (1.0 + ya)
        t0_end = t[0] + Z[0] - Y[0] * s_a
        x = g[:, None] + W + H * s_a[None, :]          # column a: x for the jump a -> end
        second_end = 2.0 * (x[0] - Y[0] * np.diag(x) / (1.0 + ya)) - t0_end
    for b in absorbing:
        mean[:n, b] = t0_end
        second[:n, b] = second_end
    return mean, second


def _second_moment_effects(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """(E T', E T'^2) from square 0 for every added jump a -> b, by rank-one updates (no mask)."""
    return _moment_effects(_moment_parts(board), board.absorbing)


def _mean_prices(parts: dict[str, Any], a: np.ndarray, b: np.ndarray,
                 ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""E T' from square 0 after each jump a[i] -> b[i], from a board's N, t and Z (vectors), and
    the denominators :math:`D = N_{aa} - N_{ba}` (:math:`N_{aa}` where b is absorbing)."""
    N, t, Z = parts["N"], parts["t"], parts["Z"]
    final = ends[b]
    inner = np.where(final, 0, b)                  # b where play goes on (0 stands in otherwise)
    naa, n0a, ta = N[a, a], N[0, a], t[a]
    D = np.where(final, naa, naa - N[inner, a])
    with np.errstate(divide="ignore", invalid="ignore"):
        if Z is None:
            mean = t[0] - n0a * (ta - np.where(final, 0.0, t[inner])) / D
        else:
            mean = np.where(final, t[0] + Z[0, a] - n0a * (ta + Z[a, a]) / naa,
                            t[0] - n0a * (ta - t[inner]) / D)
    return mean, D


def variance_effects(board: Board, min_length: int = 1) -> np.ndarray:
    r"""The variance of the game length from square 0 after adding each possible jump, all at once.

    The companion of :func:`~chutes_edu.jump_effects`: entry ``[a, b]`` is
    ``game_variance(board.with_jump(a, b))``, from one inverse by the rank-one updates of the
    module docstring (any rules: overshoot, bonus roll, traps).

    Parameters
    ----------
    board : Board
        The board and its rules.
    min_length : int, default 1
        Only jumps with ``abs(a - b) >= min_length``.

    Returns
    -------
    numpy.ndarray
        Shape ``(size + 1, size + 1)``, NaN exactly where ``jump_effects`` is NaN (a jump the rules
        refuse).

    Examples
    --------
    >>> from chutes_edu import MILTON_BRADLEY_1943
    >>> v = variance_effects(MILTON_BRADLEY_1943)
    >>> round(float(v[27, 29]), 4) == round(game_variance(MILTON_BRADLEY_1943.with_jump(27, 29)), 4)
    True
    """
    mean = jump_effects(board, min_length)
    _, second = _second_moment_effects(board)
    return np.where(np.isfinite(mean), second - mean**2, np.nan)
