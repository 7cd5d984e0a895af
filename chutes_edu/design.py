r"""Design a board to a goal: choose up to k jumps to add, priced all at once by rank-one updates.

**The design problem.** Given a board (any rules: die, overshoot, bonus roll, traps) and a pool of
candidate jumps :math:`a \to b` (by default every jump the rules allow, each on its own, on the
starting board), choose a set :math:`S` of at most :math:`k` of them to add so that the board
:math:`B \cup S` scores best for a goal:

==========================  ==========================================  ========================
goal                        value :math:`v` of a board                  minimise
==========================  ==========================================  ========================
``TargetLength(L)``         :math:`\mathbb E[T]`                        :math:`|v - L|`
``ShortestGame()``          :math:`\mathbb E[T]`                        :math:`v`
``LongestGame()``           :math:`\mathbb E[T]`                        :math:`-v`
``SmallestSpread(m, tol)``  :math:`\operatorname{Var} T`                :math:`v`, subject to
                                                                        :math:`|\mathbb E T - m|
                                                                        \le tol`
``FairestRace(seats)``      the first seat's edge                       :math:`|v|`
                            :math:`\Pr(\text{seat 1 wins}) - 1/m`
==========================  ==========================================  ========================

:math:`T` is the length of a one-player game from square 0. A constraint is met first: designs
are compared by (how far outside the constraint, objective), lexicographically.

**Every added jump at once.** Adding :math:`a \to b` moves column :math:`a` of the one-roll
matrix to column :math:`b`, a rank-one change of :math:`I - B_Q`, so one inverse
:math:`N = (I - B_Q)^{-1}` prices every candidate by the Sherman-Morrison formula
(:func:`~chutes_edu.jump_effects` for :math:`\mathbb E[T]`). The **second moment** follows the
same way. Counting the turns roll by roll (a roll ends its turn, :math:`c = 1`, unless it shows
the bonus face and the game goes on, :math:`c = 0`), the first step gives
:math:`\mathbb E_s[T^2] = \sum_r p_r\,(c_r + 2c_r t_{\ell(s,r)} + m_{\ell(s,r)})`, that is

.. math:: m = 2N\,(t - Ft) - t, \qquad t = N\bar c,

with :math:`F` the bonus face's moves that keep the game going (:math:`F = 0` without a bonus
roll, and then :math:`m = (2N - I)\,t`, the formula of Lesson 6) and
:math:`\operatorname{Var} T = m_0 - t_0^2`. After the jump :math:`a \to b` (to a square where play
goes on), with :math:`Y = NB_Q`, :math:`Z = NF`, :math:`H = (Z - N)Y + Z`,
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
(:func:`game_variance` and :func:`variance_effects` could move to :mod:`chutes_edu.markov`.)

A race has no such update: the edge needs the whole distribution of :math:`T`. For :math:`m`
players who all start off the board, seat 1 wins when :math:`T_1 \le \min_{j>1} T_j`, so its
edge is never negative; for two seats it is :math:`\tfrac12\sum_k \Pr(T = k)^2`, the chance of a
tie, halved. A long, spread-out game is a fair one.

**Searches** (``method``):

- ``"exhaustive"``: every set of at most :math:`k` candidates, by depth-first search that prices
  all one-jump extensions of each set of fewer than :math:`k` jumps at once:
  :math:`\sum_{j<k}\binom{C}{j}` pricings of :math:`O(n^3)` for :math:`C` candidates (for a race,
  :math:`\sum_{j\le k}\binom{C}{j}` full solves). Optimal among the candidates
  (``proven_optimal``), up to floating-point rounding of the prices; near-ties are decided by exact
  solves. Refused (``ValueError``) above :data:`WORK_BUDGET`.
- ``"greedy"``: add the best single jump, :math:`k` times or until none improves: :math:`k`
  pricings. A heuristic: it can miss the best set (Lesson 12 shows a board where it does).
- ``"local search"``: greedy, then swap one added jump for another, drop or add one, taking the
  best improving move until none is left (at most :data:`MAX_ROUNDS` rounds of :math:`k + 1`
  pricings); with a ``seed``, also from a few random starting sets. A heuristic: a local optimum.
- ``"auto"``: exhaustive when within the budget, else local search.

For a race the greedy and local searches *screen* each pricing: the rank-one variance ranks the
candidates (more spread, fairer), and the :data:`SCREEN` most spread-out are solved in full.

**Confirmation.** The reported design is solved again from scratch: exactly for
:math:`\mathbb E[T]` (:func:`~chutes_edu.expected_turns` with ``exact=True``) and
:math:`\operatorname{Var} T` (exact rational linear algebra with python-flint); a race with
:func:`~chutes_edu.win_probabilities` in floating point.
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np
from matplotlib.axes import Axes

from .board import Board
from .markov import expected_turns, jump_effects, transition_matrix, turn_distribution
from .markov import win_probabilities as _win_probabilities

__all__ = ["Goal", "TargetLength", "ShortestGame", "LongestGame", "SmallestSpread", "FairestRace",
           "Design", "Step", "design_board", "game_variance", "variance_effects",
           "plot_design", "METHODS"]

METHODS: tuple[str, ...] = ("auto", "exhaustive", "greedy", "local search")
"""The search methods of :func:`design_board`."""

WORK_BUDGET = 3.0e8
"""The largest exhaustive search :func:`design_board` runs, in units of :math:`\\max(n, 40)^3`
per pricing (for a race, :math:`100\\max(n, 40)^2` per full solve): about 300 pricings of a
100-square board, 4700 of a board of up to 40 squares; a few seconds."""

MAX_ROUNDS = 30
"""The most rounds of improving moves a local search makes from one starting set."""

SCREEN = 24
"""How many candidates a race's greedy or local search solves in full at each step."""

RESTARTS = 3
"""Random starting sets a local search adds when it is given a ``seed``."""

_TIE = 1e-9          # relative: prices closer than this are decided exactly
_MAX_TIES = 8        # the most near-tied designs decided by exact solves


def _as_fraction(x: Any, what: str) -> Fraction:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise ValueError(f"{what} must be a number, not {x!r}")
    if not math.isfinite(float(x)):
        raise ValueError(f"{what} must be finite, not {x!r}")
    if isinstance(x, numbers.Rational):
        return Fraction(int(x.numerator), int(x.denominator))
    return Fraction(repr(float(x)))          # 24.5 means the decimal typed, not its binary twin


# --------------------------------------------------------------------------- moments
def _moment_parts(board: Board) -> dict[str, Any]:
    """The matrices of the module docstring for ``board``: N, Y, Z, H, W, t, g, and the masks."""
    n = board.size
    probs = np.array([float(p) for p in board.probabilities])
    ends = np.zeros(n + 1, dtype=bool)
    ends[list(board.absorbing)] = True
    live = ~ends[:n]
    BQ = np.zeros((n, n))
    F = np.zeros((n, n))
    f = board.bonus_roll
    for s in np.flatnonzero(live):
        for r, p in enumerate(probs, start=1):
            u = board.landing(int(s), r)
            if p and not ends[u]:
                BQ[s, u] += p
                if r == f:
                    F[s, u] += p
    costs = np.where(live, 1.0 - F.sum(axis=1), 0.0)
    N = np.linalg.inv(np.eye(n) - BQ)
    t = N @ costs
    Y = N @ BQ
    Z = N @ F
    g = N @ (t - F @ t)
    return {"N": N, "Y": Y, "Z": Z, "t": t, "g": g, "H": (Z - N) @ Y + Z, "W": (N - Z) @ Z}


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
    n = board.size
    P = transition_matrix(board, exact=True)
    ends = set(board.absorbing)
    live = [s for s in range(n + 1) if s not in ends]
    k = len(live)
    A = flint.fmpq_mat(k, k)
    for i, s in enumerate(live):
        for j, u in enumerate(live):
            value = (1 if i == j else 0) - P[s, u]
            if value != 0:
                A[i, j] = flint.fmpq(int(value.p), int(value.q))
    t = A.solve(flint.fmpq_mat(k, 1, [1] * k))
    m = A.solve(flint.fmpq_mat(k, 1, [2 * t[i, 0] - 1 for i in range(k)]))

    def frac(x: Any) -> Fraction:
        return Fraction(int(x.p), int(x.q))
    mean, second = frac(t[0, 0]), frac(m[0, 0])
    return mean, second, second - mean * mean


def _second_moment_effects(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """(E T', E T'^2) from square 0 for every added jump a -> b, by rank-one updates (no mask)."""
    n = board.size
    parts = _moment_parts(board)
    Y, Z, H, W, t, g = (parts[k] for k in ("Y", "Z", "H", "W", "t", "g"))
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
    for b in board.absorbing:
        mean[:n, b] = t0_end
        second[:n, b] = second_end
    return mean, second


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


# --------------------------------------------------------------------------- goals
@dataclass(frozen=True)
class Goal:
    """What a design aims at: the base of :class:`TargetLength`, :class:`ShortestGame`,
    :class:`LongestGame`, :class:`SmallestSpread` and :class:`FairestRace`.

    A goal says what its *value* is (``quantity``), and scores a board by a pair
    (penalty, objective): the penalty measures how far a constraint is missed (0 when met), and
    designs are compared by the pair, smallest first.

    Parameters
    ----------
    (none: use one of the subclasses)
    """

    quantity = "expected turns"          # what `value` is, for displays
    uses = "mean"                        # which prices it needs: "mean", "moments" or "race"

    def describe(self) -> str:
        """A short phrase for displays, e.g. "a 25-turn game"."""
        raise NotImplementedError

    def resolved(self, board: Board) -> Goal:
        """The goal with any defaults taken from the starting ``board`` (e.g. its mean)."""
        return self

    def value(self, board: Board) -> float:
        """The goal's value for one board, by a full float solve."""
        return float(expected_turns(board)[0])

    def score(self, value: Any, mean: Any) -> tuple[Any, Any]:
        """(penalty, objective) for arrays or numbers of values and means (smaller is better)."""
        raise NotImplementedError

    def exact_value(self, board: Board) -> Fraction | None:
        """The value exactly (a Fraction), or None when only a float solve is available."""
        return _exact_moments(board)[0]

    def exact_score(self, value: Fraction, mean: Fraction) -> tuple[Fraction, Fraction]:
        """(penalty, objective) from exact values."""
        penalty, objective = self.score(value, mean)
        return Fraction(penalty), Fraction(objective)


@dataclass(frozen=True)
class TargetLength(Goal):
    """A game of a given expected length: minimise :math:`|\\mathbb E[T] - L|`.

    Parameters
    ----------
    turns : float
        The target :math:`L > 0` (expected turns from square 0).

    Examples
    --------
    >>> TargetLength(25).describe()
    'an expected game of 25 turns'
    """

    turns: float

    def __post_init__(self) -> None:
        target = _as_fraction(self.turns, "target length")
        if target <= 0:
            raise ValueError(f"the target length must be positive, got {self.turns!r} turns")

    def describe(self) -> str:
        return f"an expected game of {float(self.turns):g} turns"

    def score(self, value: Any, mean: Any) -> tuple[Any, Any]:
        if isinstance(value, Fraction):
            return Fraction(0), abs(value - _as_fraction(self.turns, "target length"))
        return 0.0 * value, np.abs(value - float(self.turns))


@dataclass(frozen=True)
class ShortestGame(Goal):
    """The shortest expected game: minimise :math:`\\mathbb E[T]`.

    Parameters
    ----------
    (none)

    Examples
    --------
    >>> ShortestGame().describe()
    'the shortest expected game'
    """

    def describe(self) -> str:
        return "the shortest expected game"

    def score(self, value: Any, mean: Any) -> tuple[Any, Any]:
        return 0 * value, value


@dataclass(frozen=True)
class LongestGame(Goal):
    """The longest expected game: maximise :math:`\\mathbb E[T]`.

    Parameters
    ----------
    (none)

    Examples
    --------
    >>> LongestGame().describe()
    'the longest expected game'
    """

    def describe(self) -> str:
        return "the longest expected game"

    def score(self, value: Any, mean: Any) -> tuple[Any, Any]:
        return 0 * value, -value


@dataclass(frozen=True)
class SmallestSpread(Goal):
    """The smallest variance of the game length for a given mean.

    Minimise :math:`\\operatorname{Var} T` among designs with
    :math:`|\\mathbb E[T] - m| \\le` ``tolerance``; a design outside the band is worse than any
    inside it, and closer is better.

    Parameters
    ----------
    mean : float, optional
        The mean :math:`m` in turns; by default the starting board's own (same mean, less spread).
    tolerance : float, default 1.0
        How far the mean may stray, in turns (non-negative).

    Examples
    --------
    >>> SmallestSpread(30, 0.5).describe()
    'the smallest variance for a mean of 30 ± 0.5 turns'
    """

    mean: float | None = None
    tolerance: float = 1.0
    quantity = "variance (turns²)"
    uses = "moments"

    def __post_init__(self) -> None:
        if self.mean is not None and _as_fraction(self.mean, "mean") <= 0:
            raise ValueError(f"the mean must be positive, got {self.mean!r} turns")
        if _as_fraction(self.tolerance, "tolerance") < 0:
            raise ValueError(f"the tolerance must be 0 or more, got {self.tolerance!r} turns")

    def describe(self) -> str:
        where = "the board's own mean" if self.mean is None else f"a mean of {float(self.mean):g}"
        return f"the smallest variance for {where} ± {float(self.tolerance):g} turns"

    def resolved(self, board: Board) -> Goal:
        if self.mean is not None:
            return self
        return replace(self, mean=float(expected_turns(board)[0]))

    def value(self, board: Board) -> float:
        return float(game_variance(board))

    def exact_value(self, board: Board) -> Fraction | None:
        return _exact_moments(board)[2]

    def score(self, value: Any, mean: Any) -> tuple[Any, Any]:
        if self.mean is None:
            raise ValueError("resolve the goal on a board first (SmallestSpread.resolved)")
        if isinstance(mean, Fraction):
            miss = abs(mean - _as_fraction(self.mean, "mean")) - _as_fraction(self.tolerance,
                                                                               "tolerance")
            return max(miss, Fraction(0)), value
        miss = np.abs(mean - float(self.mean)) - float(self.tolerance)
        return np.maximum(miss, 0.0), value


@dataclass(frozen=True)
class FairestRace(Goal):
    """The fairest race: the first seat's edge :math:`\\Pr(\\text{seat 1 wins}) - 1/m` closest to 0.

    All :math:`m` players start off the board and move in seat order
    (:func:`~chutes_edu.win_probabilities`); the edge is never negative.

    Parameters
    ----------
    seats : int, default 2
        The number of players, 2 to 6.

    Examples
    --------
    >>> FairestRace(4).describe()
    'the fairest race of 4 players'
    """

    seats: int = 2
    quantity = "first seat's edge"
    uses = "race"

    def __post_init__(self) -> None:
        if isinstance(self.seats, (bool, np.bool_)) or not isinstance(self.seats,
                                                                       numbers.Integral):
            raise ValueError(f"seats must be a whole number, not {self.seats!r}")
        if not 2 <= self.seats <= 6:
            raise ValueError(f"a race needs 2 to 6 seats, got {self.seats}")

    def describe(self) -> str:
        return f"the fairest race of {self.seats} players"

    def value(self, board: Board) -> float:
        return float(_win_probabilities(board, [0] * int(self.seats))[0]) - 1.0 / int(self.seats)

    def exact_value(self, board: Board) -> Fraction | None:
        return None

    def score(self, value: Any, mean: Any) -> tuple[Any, Any]:
        return 0 * value, abs(value)


# --------------------------------------------------------------------------- results
Jump = tuple[int, int]


@dataclass(frozen=True)
class Step:
    """One step of a search, for displays: what was done and where it left the design.

    Parameters
    ----------
    action : str
        E.g. ``"start"``, ``"add 27->29"``, ``"swap 27->29 for 30->12"``, ``"stop: ..."``.
    added : tuple of (int, int)
        The added jumps after the step.
    value : float
        The goal's value after the step (as priced by the search).
    mean : float
        The expected game length after the step.
    """

    action: str
    added: tuple[Jump, ...]
    value: float
    mean: float


@dataclass(frozen=True)
class Design:
    """A designed board and how it was found (from :func:`design_board`).

    Parameters
    ----------
    goal : Goal
        The goal, with defaults filled in from the starting board.
    original : Board
        The starting board.
    board : Board
        The designed board: ``original`` with the jumps ``added``.
    added : tuple of (int, int)
        The added jumps ``(a, b)``, sorted.
    value : float
        The goal's value on the designed board, from a full float solve
        (:attr:`Goal.quantity`: expected turns, the variance, or the first seat's edge).
    mean : float
        The designed board's expected game length.
    exact_value : fractions.Fraction or None
        The value solved exactly (None for a race: confirmed in floating point only).
    exact_mean : fractions.Fraction
        The expected game length, exactly.
    original_value, original_mean : float
        The same for the starting board.
    method : str
        ``"exhaustive"``, ``"greedy"`` or ``"local search"``: the search that ran.
    proven_optimal : bool
        True when the design is known to be the best among the candidates: an exhaustive search,
        or a target length hit exactly.
    steps : tuple of Step
        The search's history, for displays.
    priced : int
        How many designs the search priced.
    confirmation : str
        How ``value`` was confirmed.
    """

    goal: Goal
    original: Board
    board: Board
    added: tuple[Jump, ...]
    value: float
    mean: float
    exact_value: Fraction | None
    exact_mean: Fraction
    original_value: float
    original_mean: float
    method: str
    proven_optimal: bool
    steps: tuple[Step, ...] = field(repr=False)
    priced: int
    confirmation: str

    def summary(self) -> str:
        """A few lines for people: the goal, the jumps added, the value, the search."""
        jumps = ", ".join(f"{a}->{b}" for a, b in self.added) or "none"
        exact = ("" if self.exact_value is None
                 else f" (exactly {float(self.exact_value):.6f})")
        proof = ("proven optimal among the candidates" if self.proven_optimal
                 else "a heuristic: not proven optimal")
        return (f"goal: {self.goal.describe()}\n"
                f"added jumps: {jumps}\n"
                f"{self.goal.quantity}: {self.original_value:.4f} -> {self.value:.4f}{exact}\n"
                + ("" if self.goal.quantity == "expected turns"
                   else f"expected turns: {self.original_mean:.4f} -> {self.mean:.4f}\n")
                + f"search: {self.method}, {self.priced} designs priced, {proof}\n"
                f"confirmed by {self.confirmation}")


# --------------------------------------------------------------------------- the search
class _Search:
    """Shared state of one search: the goal, the pool of candidates, pricing and tie-breaking."""

    def __init__(self, board: Board, goal: Goal, pool: np.ndarray) -> None:
        self.board, self.goal, self.pool = board, goal, pool
        self.priced = 0
        self._exact: dict[Board, tuple[Fraction, Fraction]] = {}

    # -- one board
    def evaluate(self, board: Board) -> tuple[float, float]:
        """(value, mean) of one board by full float solves."""
        self.priced += 1
        mean = float(expected_turns(board)[0])
        value = mean if self.goal.uses == "mean" else self.goal.value(board)
        return value, mean

    def key(self, value: float, mean: float) -> tuple[float, float]:
        penalty, objective = self.goal.score(value, mean)
        return float(penalty), float(objective)

    # -- every one-jump extension at once
    def price(self, board: Board, allowed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(value, mean) arrays for every jump of ``allowed`` added to ``board`` (NaN elsewhere)."""
        mean = jump_effects(board)
        ok = np.isfinite(mean) & allowed
        if self.goal.uses == "mean" or not ok.any():
            self.priced += int(ok.sum())
            return np.where(ok, mean, np.nan), np.where(ok, mean, np.nan)
        _, second = _second_moment_effects(board)
        variance = second - mean**2
        if self.goal.uses == "moments":
            self.priced += int(ok.sum())
            return np.where(ok, variance, np.nan), np.where(ok, mean, np.nan)
        # a race: rank by spread, solve the SCREEN most spread-out in full (evaluate counts them)
        value = np.full_like(mean, np.nan)
        spread = np.where(ok, variance, -np.inf)
        for flat in np.argsort(-spread, axis=None, kind="stable")[:SCREEN]:
            a, b = divmod(int(flat), mean.shape[1])
            if ok[a, b]:
                value[a, b], mean[a, b] = self.evaluate(board.with_jump(a, b))
        done = np.isfinite(value)
        return value, np.where(done, mean, np.nan)

    def best(self, board: Board, value: np.ndarray, mean: np.ndarray
             ) -> tuple[Jump, float, float] | None:
        """The best jump of priced arrays (near-ties decided exactly), or None if none is priced."""
        ok = np.isfinite(value)
        if not ok.any():
            return None
        penalty, objective = self.goal.score(np.where(ok, value, 0.0), np.where(ok, mean, 0.0))
        penalty = np.where(ok, penalty, np.inf)
        low = penalty.min()
        ok &= penalty <= low + _TIE * max(1.0, abs(low))
        objective = np.where(ok, objective, np.inf)
        top = objective.min()
        tied = np.argwhere(objective <= top + _TIE * max(1.0, abs(top)))
        jumps = [(int(a), int(b)) for a, b in tied]        # sorted by (a, b)
        choice = self.decide(board, jumps, lambda s, j: s.with_jump(*j))
        return choice, float(value[choice]), float(mean[choice])

    def decide(self, base: Any, options: list[Any], build: Callable[[Any, Any], Board]) -> Any:
        """Of near-tied options, the one whose board is best exactly (first in order on a tie)."""
        if len(options) == 1 or self.goal.uses == "race":
            return options[0]
        ranked = []
        for i, option in enumerate(options[:_MAX_TIES]):
            ranked.append((self.exact_key(build(base, option)), i))
        return options[min(ranked)[1]]

    def exact_key(self, board: Board) -> tuple[Fraction, Fraction]:
        if board not in self._exact:
            mean, _, variance = _exact_moments(board)
            value = variance if self.goal.uses == "moments" else mean
            self._exact[board] = self.goal.exact_score(value, mean)
        return self._exact[board]


def _candidate_mask(board: Board, candidates: Iterable[Any] | None) -> np.ndarray:
    n = board.size
    if candidates is None:
        return np.ones((n + 1, n + 1), dtype=bool)
    mask = np.zeros((n + 1, n + 1), dtype=bool)
    bad = []
    for pair in candidates:
        try:
            a, b = pair
        except (TypeError, ValueError):
            raise ValueError(f"a candidate must be a jump (a, b), not {pair!r}") from None
        if (isinstance(a, (bool, np.bool_)) or isinstance(b, (bool, np.bool_))
                or not isinstance(a, numbers.Integral) or not isinstance(b, numbers.Integral)
                or not (0 <= int(a) <= n and 0 <= int(b) <= n)):
            bad.append(repr(pair))
            continue
        mask[int(a), int(b)] = True
    if bad:
        raise ValueError(f"candidates off the board (squares 0..{n}): {', '.join(bad[:10])}")
    return mask


def _label(jumps: Iterable[Jump]) -> str:
    return ", ".join(f"{a}->{b}" for a, b in jumps) or "none"


def _greedy(search: _Search, start: Board, added: list[Jump], max_jumps: int,
            steps: list[Step]) -> tuple[Board, list[Jump], float, float]:
    board = start
    value, mean = search.evaluate(board)
    steps.append(Step("start" if not added else f"start from {_label(added)}", tuple(added),
                      value, mean))
    while len(added) < max_jumps:
        priced = search.price(board, search.pool)
        found = search.best(board, *priced)
        if found is None or not _improves(search.key(found[1], found[2]), search.key(value, mean)):
            steps.append(Step("stop: no added jump improves the design", tuple(added), value,
                              mean))
            break
        (a, b), value, mean = found
        board = board.with_jump(a, b)
        added = sorted([*added, (a, b)])
        steps.append(Step(f"add {a}->{b}", tuple(added), value, mean))
    return board, added, value, mean


def _local(search: _Search, board: Board, added: list[Jump], value: float, mean: float,
           max_jumps: int, steps: list[Step]) -> tuple[Board, list[Jump], float, float]:
    """Best-improvement local search over add / drop / swap one jump."""
    original = search.board
    for _ in range(MAX_ROUNDS):
        here = search.key(value, mean)
        moves: list[tuple[tuple[float, float], str, list[Jump], float, float]] = []
        if len(added) < max_jumps:
            found = search.best(board, *search.price(board, search.pool))
            if found is not None:
                (a, b), v, m = found
                moves.append((search.key(v, m), f"add {a}->{b}", sorted([*added, (a, b)]), v, m))
        for old in added:
            rest = [j for j in added if j != old]
            base = original.replace(jumps={**original.jumps, **dict(rest)})
            v, m = search.evaluate(base)
            moves.append((search.key(v, m), f"drop {old[0]}->{old[1]}", rest, v, m))
            allowed = search.pool.copy()
            allowed[old] = False
            found = search.best(base, *search.price(base, allowed))
            if found is not None:
                (a, b), v, m = found
                moves.append((search.key(v, m), f"swap {old[0]}->{old[1]} for {a}->{b}",
                              sorted([*rest, (a, b)]), v, m))
        improving = [mv for mv in moves if _improves(mv[0], here)]
        if not improving:
            steps.append(Step("stop: a local optimum (no add, drop or swap improves it)",
                              tuple(added), value, mean))
            break
        top = min(mv[0] for mv in improving)
        tied = sorted((mv for mv in improving if _close(mv[0], top)), key=lambda mv: mv[2])
        sets = [mv[2] for mv in tied]
        chosen = search.decide(original, sets, lambda base, jumps: base.replace(
            jumps={**base.jumps, **dict(jumps)}))
        _, action, added, value, mean = tied[sets.index(chosen)]
        board = original.replace(jumps={**original.jumps, **dict(added)})
        steps.append(Step(action, tuple(added), value, mean))
    return board, added, value, mean


def _random_start(search: _Search, rng: np.random.Generator, max_jumps: int) -> list[Jump]:
    board, added = search.board, []
    for _ in range(max_jumps):
        allowed = np.isfinite(jump_effects(board)) & search.pool
        options = np.argwhere(allowed)
        if not len(options):
            break
        a, b = (int(x) for x in options[rng.integers(len(options))])
        board = board.with_jump(a, b)
        added.append((a, b))
    return sorted(added)


def _exhaustive_work(search: _Search, count: int, max_jumps: int) -> tuple[int, float]:
    """(boards to price or solve, work units) of an exhaustive search over ``count`` candidates."""
    n = max(search.board.size, 40)
    if search.goal.uses == "race":
        boards = sum(math.comb(count, j) for j in range(max_jumps + 1))
        return boards, boards * 100.0 * n**2
    pricings = sum(math.comb(count, j) for j in range(max_jumps))
    return pricings, pricings * float(n) ** 3


def _exhaustive(search: _Search, max_jumps: int, steps: list[Step]
                ) -> tuple[Board, list[Jump], float, float]:
    original = search.board
    order = [(int(a), int(b)) for a, b in np.argwhere(search.pool)]
    index = {jump: i for i, jump in enumerate(order)}
    value, mean = search.evaluate(original)
    best: list[Any] = [search.key(value, mean), [], value, mean]
    near: list[list[Jump]] = [[]]
    steps.append(Step("start", (), value, mean))

    def consider(jumps: list[Jump], v: float, m: float) -> None:
        key = search.key(v, m)
        if _improves(key, best[0]):
            best[:] = [key, jumps, v, m]
            near[:] = [jumps]
        elif _close(key, best[0]):
            near.append(jumps)

    if search.goal.uses == "race":
        for k in range(1, max_jumps + 1):
            for combo in itertools.combinations(order, k):
                try:
                    board = original.replace(jumps={**original.jumps, **dict(combo)})
                except ValueError:
                    continue
                consider(list(combo), *search.evaluate(board))
    else:
        def visit(board: Board, jumps: list[Jump], last: int) -> None:
            allowed = search.pool.copy()
            for a, b in order[: last + 1]:
                allowed[a, b] = False
            value, mean = search.price(board, allowed)
            for a, b in np.argwhere(np.isfinite(value)):
                a, b = int(a), int(b)
                child = [*jumps, (a, b)]
                consider(child, float(value[a, b]), float(mean[a, b]))
                if len(child) < max_jumps:
                    visit(board.with_jump(a, b), child, index[(a, b)])
        visit(original, [], -1)

    def build(base: Board, jumps: list[Jump]) -> Board:
        return base.replace(jumps={**base.jumps, **dict(jumps)})
    choice = search.decide(original, near[: _MAX_TIES], build) if len(near) > 1 else best[1]
    board = build(original, choice)
    if choice != best[1]:
        value, mean = search.evaluate(board)
    else:
        value, mean = best[2], best[3]
    steps.append(Step(f"the best of every set of at most {max_jumps}: {_label(choice)}",
                      tuple(sorted(choice)), value, mean))
    return board, sorted(choice), value, mean


def _improves(new: tuple[float, float], old: tuple[float, float]) -> bool:
    """Is the (penalty, objective) ``new`` better than ``old`` by more than rounding?"""
    if not math.isclose(new[0], old[0], rel_tol=_TIE, abs_tol=_TIE):
        return new[0] < old[0]
    return new[1] < old[1] and not math.isclose(new[1], old[1], rel_tol=_TIE, abs_tol=_TIE)


def _close(key: tuple[float, float], other: tuple[float, float]) -> bool:
    return all(math.isclose(x, y, rel_tol=_TIE, abs_tol=_TIE)
               for x, y in zip(key, other, strict=True))


def design_board(board: Board, goal: Goal, max_jumps: int = 3, method: str = "auto",
                 candidates: Iterable[tuple[int, int]] | None = None,
                 seed: int | None = None) -> Design:
    r"""Add at most ``max_jumps`` jumps to ``board`` to reach ``goal``, and confirm the result.

    See the module docstring for the goals, the searches and their costs.

    Parameters
    ----------
    board : Board
        The starting board and its rules (any die, overshoot rule, bonus roll, traps).
    goal : Goal
        ``TargetLength(L)``, ``ShortestGame()``, ``LongestGame()``, ``SmallestSpread(m, tol)`` or
        ``FairestRace(seats)``.
    max_jumps : int, default 3
        The most jumps to add (1 to 6).
    method : {"auto", "exhaustive", "greedy", "local search"}, default "auto"
        The search; "auto" is exhaustive when that is within :data:`WORK_BUDGET`, else local
        search.
    candidates : iterable of (int, int), optional
        The jumps the search may add; by default every jump the board's rules allow. Each must
        be allowed on ``board`` on its own (others are dropped, as ``jump_effects`` refuses them).
    seed : int, optional
        For a local search: also start from ``RESTARTS`` random sets drawn with this seed.

    Returns
    -------
    Design
        The designed board, its value confirmed by a full solve (exact for the expected length
        and the variance), how it was found and whether it is proven optimal.

    Raises
    ------
    ValueError
        For a bad goal, method, ``max_jumps`` or candidate, an exhaustive search above the
        budget (try ``method="greedy"`` or fewer candidates), no candidate the rules allow, or a
        race on a board with traps.

    Examples
    --------
    >>> from chutes_edu import Board
    >>> funnel = Board({5: 3}, size=9, die=2)       # a coin, a chute from 5 back to 3
    >>> d = design_board(funnel, ShortestGame(), max_jumps=2)
    >>> d.added, d.method, d.proven_optimal, d.exact_mean
    (((1, 9), (2, 9)), 'exhaustive', True, Fraction(1, 1))
    >>> design_board(funnel, ShortestGame(), max_jumps=2, method="greedy").added
    ((1, 9), (4, 9))
    """
    if not isinstance(board, Board):
        raise ValueError(f"design_board needs a Board, not {type(board).__name__}")
    if not isinstance(goal, Goal) or type(goal) is Goal:
        raise ValueError(f"goal must be TargetLength, ShortestGame, LongestGame, SmallestSpread "
                         f"or FairestRace, not {goal!r}")
    if (isinstance(max_jumps, (bool, np.bool_)) or not isinstance(max_jumps, numbers.Integral)
            or not 1 <= max_jumps <= 6):
        raise ValueError(f"max_jumps must be a whole number from 1 to 6, not {max_jumps!r}")
    max_jumps = int(max_jumps)
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of "
                         + ", ".join(repr(m) for m in METHODS))
    if seed is not None and (isinstance(seed, (bool, np.bool_))
                             or not isinstance(seed, numbers.Integral)):
        raise ValueError(f"seed must be a whole number or None, not {seed!r}")
    if goal.uses == "race" and board.traps:
        raise ValueError(f"a race is not defined on a board with traps (traps on "
                         f"{', '.join(map(str, board.traps))}): what a trap does to a race is a "
                         "house rule")
    goal = goal.resolved(board)
    pool = _candidate_mask(board, candidates) & np.isfinite(jump_effects(board))
    if not pool.any():
        raise ValueError("no candidate jump can be added to this board"
                         + (" (every candidate given is refused by the rules)"
                            if candidates is not None else ""))
    search = _Search(board, goal, pool)
    count = int(pool.sum())
    boards, work = _exhaustive_work(search, count, max_jumps)
    if method == "exhaustive" and work > WORK_BUDGET:
        what = "full solves" if goal.uses == "race" else "pricings"
        raise ValueError(f"an exhaustive search over {count} candidate jumps with up to "
                         f"{max_jumps} added needs about {boards:.3g} {what}, more than the "
                         f"budget allows; use method='greedy' or 'local search', fewer "
                         f"candidates, or a smaller max_jumps")
    if method == "auto":
        method = "exhaustive" if work <= WORK_BUDGET else "local search"
    steps: list[Step] = []
    if method == "exhaustive":
        designed, added, value, mean = _exhaustive(search, max_jumps, steps)
    else:
        designed, added, value, mean = _greedy(search, board, [], max_jumps, steps)
        if method == "local search":
            designed, added, value, mean = _local(search, designed, added, value, mean,
                                                  max_jumps, steps)
            if seed is not None:
                rng = np.random.default_rng(seed)
                for _ in range(RESTARTS):
                    start = _random_start(search, rng, max_jumps)
                    begin = board.replace(jumps={**board.jumps, **dict(start)})
                    trail = [Step(f"restart from random jumps {_label(start)}", tuple(start),
                                  *search.evaluate(begin))]
                    other = _local(search, begin, start, trail[0].value, trail[0].mean,
                                   max_jumps, trail)
                    if _improves(search.key(other[2], other[3]), search.key(value, mean)):
                        steps.extend(trail)
                        designed, added, value, mean = other
    return _confirm(goal, board, designed, tuple(sorted(added)), method, steps, search.priced)


def _confirm(goal: Goal, original: Board, designed: Board, added: tuple[Jump, ...], method: str,
             steps: list[Step], priced: int) -> Design:
    """Solve the designed board again from scratch; exactly where the goal allows it."""
    exact_mean, _, exact_variance = _exact_moments(designed)
    if goal.uses == "race":
        exact_value: Fraction | None = None
        confirmation = "a full float solve with win_probabilities (no exact race solver)"
    elif goal.uses == "moments":
        exact_value = exact_variance
        confirmation = "exact rational solves of the mean and second moment (python-flint)"
    else:
        exact_value = exact_mean
        confirmation = "expected_turns(board, exact=True)"
    value = goal.value(designed)
    proven = method == "exhaustive"
    if isinstance(goal, TargetLength) and exact_value == _as_fraction(goal.turns, "target"):
        proven = True                          # nothing beats a distance of exactly 0
    return Design(goal=goal, original=original, board=designed, added=added, value=value,
                  mean=float(expected_turns(designed)[0]), exact_value=exact_value,
                  exact_mean=exact_mean, original_value=goal.value(original),
                  original_mean=float(expected_turns(original)[0]), method=method,
                  proven_optimal=proven, steps=tuple(steps), priced=priced,
                  confirmation=confirmation)


# --------------------------------------------------------------------------- picture
def plot_design(design: Design, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Compare the game-length distributions of the starting and the designed board.

    The starting board's :math:`\\Pr(T = k)` is a filled step curve (sky blue), the designed
    board's a thick dashed step line (vermillion), each with its mean as a vertical line of the
    same style; the legend, below the axes, names the added jumps and both means.

    Parameters
    ----------
    design : Design
        From :func:`design_board`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure if None.
    title : str, optional
        Defaults to the goal.

    Returns
    -------
    matplotlib.axes.Axes
        With two step artists (gids ``"original"`` and ``"designed"``) and two mean lines, and
        a description (alt text, :func:`~chutes_edu.plots.describe`).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from chutes_edu import Board
    >>> d = design_board(Board({4: 1}, size=8, die=3), LongestGame(), max_jumps=1)
    >>> [a.get_gid() for a in plot_design(d).patches]
    ['original', 'designed']
    """
    from .plots import SMALL_TEXT, _legend_below, _new_axes, describe
    if not isinstance(design, Design):
        raise ValueError(f"plot_design needs a Design, not {type(design).__name__}")
    if ax is None:
        ax = _new_axes((7.0, 4.2))
    before = turn_distribution(design.original)
    after = turn_distribution(design.board)
    reach = max(int(np.searchsorted(np.cumsum(p), 0.999)) for p in (before, after)) + 2
    k = np.arange(reach + 1)
    old = ax.stairs(np.pad(before, (0, max(0, reach + 1 - before.size)))[: reach + 1],
                    np.append(k, reach + 1) - 0.5, fill=True, color="#56B4E9", alpha=0.6,
                    gid="original", label=f"starting board (mean {design.original_mean:.2f})")
    new = ax.stairs(np.pad(after, (0, max(0, reach + 1 - after.size)))[: reach + 1],
                    np.append(k, reach + 1) - 0.5, color="#D55E00", lw=2.2, ls="--",
                    gid="designed",
                    label=f"with {_label(design.added)} (mean {design.mean:.2f})")
    m_old = ax.axvline(design.original_mean, color="#0072B2", lw=1.6, ls="-",
                       label="mean, starting board")
    m_new = ax.axvline(design.mean, color="#D55E00", lw=1.6, ls=":", label="mean, designed")
    ax.set_xlim(-0.5, reach + 0.5)
    ax.set_ylim(0, max(before.max(), after.max()) * 1.1)
    ax.set_xlabel("game length k (turns)")
    ax.set_ylabel("probability P(T = k)")
    ax.tick_params(labelsize=SMALL_TEXT)
    ax.set_title(f"Designed for {design.goal.describe()}" if title is None else title)
    _legend_below(ax, [old, new, m_old, m_new], ncol=2)
    describe(ax, f"The distribution of the game length before and after adding "
                 f"{_label(design.added)}: the mean goes from {design.original_mean:.1f} to "
                 f"{design.mean:.1f} turns, the most likely length from "
                 f"{int(np.argmax(before))} to {int(np.argmax(after))} turns.")
    return ax
