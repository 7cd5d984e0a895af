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

A **design** is a set :math:`S` whose board is valid: chain-free (one jump per source, no jump
from another jump's destination or onto another's source) and finishable from every square. A
subset of a design need not be one: two chutes may shut the token in where a third jump lets it
out, so a search that only grows valid sets misses designs.

**Every added jump at once.** Adding :math:`a \to b` moves column :math:`a` of the one-roll
matrix to column :math:`b`, a rank-one change of :math:`I - B_Q`, so one inverse
:math:`N = (I - B_Q)^{-1}` prices every candidate by the Sherman-Morrison formula
(:func:`~chutes_edu.jump_effects` for :math:`\mathbb E[T]`). The **second moment** has
rank-one updates too, so the variance of every candidate is priced the same way; the algebra and
its notation (:math:`N`, :math:`Y = NB_Q`, :math:`Z = NF`, :math:`H`, :math:`W`, :math:`t`,
:math:`g`, :math:`D`) are in :mod:`chutes_edu.moments`.

A race has no such update: the edge needs the whole distribution of :math:`T`. For :math:`m`
players who all start off the board, seat 1 wins when :math:`T_1 \le \min_{j>1} T_j`, so its
edge is never negative; for two seats it is :math:`\tfrac12\sum_k \Pr(T = k)^2`, the chance of a
tie, halved. A long, spread-out game is usually a fair one, but not always: a variance can be
large while the length still piles up on a few values (lesson 12 shows when).

**Extending a set, and its cost.** As :math:`Y = N - I`, the denominator is
:math:`D = 1 + Y_{aa} - Y_{ba} = N_{aa} - N_{ba} = N_{aa}(1 - h_{ba})`, with :math:`h_{ba}` the
chance that a game from :math:`b` ever ends a move on :math:`a`: it is 0 exactly when the new
board cannot be finished. A denominator below ``1e-9`` :math:`N_{aa}` is settled by a graph
search over the board's moves, and a valid board there is solved in full. The
board of :math:`S \cup \{a \to b\}` gets its own :math:`N` from its parent's by one
Sherman-Morrison update,

.. math:: N' = N - \frac{(N_{\cdot a} - e_a)(N_{a\cdot} - N_{b\cdot})}{D}
          \qquad (N_{a\cdot} \text{ alone when } b \text{ is absorbing}),

:math:`O(n^2)` work instead of an :math:`O(n^3)` inverse (a fresh inverse when
:math:`D < 10^{-4} N_{aa}`, or when the goal needs the moments, whose :math:`H` and :math:`W` take
matrix products anyway); then :math:`t' = N'c'`, :math:`Z' = N'F'`. Pricing every extension of a
set is a few vectorised gathers from :math:`N` and :math:`t`. A set whose board cannot be finished
has no :math:`N` (:math:`I - B_Q` is singular): its extensions are checked by graph search and
solved in full, and only a jump from a square that its stuck squares move onto can free them, so
there are few. No ``Board`` is built for a set before it is known to be valid.

**Searches** (``method``):

- ``"exhaustive"``: every design of at most :math:`k` candidates, depth first over the sets in
  the candidates' order, extending every chain-free set, finishable or not. For :math:`C`
  candidates it extends :math:`\sum_{j<k}\binom{C}{j}` sets (:math:`O(n^2)` each; :math:`O(n^3)`
  for the variance) and prices :math:`\sum_{1\le j\le k}\binom{C}{j}` at :math:`O(1)` each, all of
  a set's extensions at once with numpy; two jumps on a 100-square board are one update per
  first jump and one vectorised pricing of every second jump. A race needs
  :math:`\sum_{j\le k}\binom{C}{j}` full solves. The time is estimated first, from a cost model
  fitted on the project's machine; above :data:`WORK_BUDGET` seconds the search is refused
  (``ValueError``, with the estimate). Optimal among the candidates (``proven_optimal``) when
  every near-tie was decided exactly (below).
- ``"greedy"``: add the best single jump, :math:`k` times or until none improves: :math:`k`
  pricings. A heuristic: it can miss the best set (Lesson 12 shows a board where it does).
- ``"local search"``: greedy, then swap one added jump for another, drop or add one, taking the
  best improving move until none is left (at most :data:`MAX_ROUNDS` rounds of :math:`k + 1`
  pricings); with a ``seed``, also from a few random starting sets. A drop that leaves a board
  that cannot be finished is not a move; the swaps from there are priced by full solves. A
  heuristic: a local optimum.
- ``"auto"``: exhaustive when its estimate is at most :data:`AUTO_BUDGET` seconds, else local
  search.

For a race the greedy and local searches *screen* each pricing: the rank-one variance ranks the
candidates (more spread is usually fairer), and the :data:`SCREEN` most spread-out are solved in
full.

**Near-ties are decided exactly.** A float price is trusted to a relative error of ``1e-9``, so
each design's (penalty, objective) lies in a known interval. A design stays a *contender* unless
another is surely better: its penalty's low end is above some design's high end, or some design
surely meets the constraint (its penalty's high end is 0) with an objective whose high end is
below this one's low end. So a mean a hair outside a ``SmallestSpread`` band is never taken for
one inside. The contenders (usually one; a few at a near-tie or a band edge) are solved exactly
(:func:`~chutes_edu.expected_turns` with ``exact=True``, or the exact moments), and the best exact
score wins; equal scores go by the tie rule of :func:`design_board` (no useless jump, fewer
jumps, sorted order). The exhaustive search first merges designs that differ only by useless
jumps (the same game, the same score), and claims ``proven_optimal`` only when it decided all
its contenders exactly (at most ``_MAX_TIES``). Greedy and local search choose each move, and
decide whether it improves, the same way. A race has no exact solver: of its near-ties, one
without a useless jump goes first, then the better float price.

**Confirmation.** The reported design is solved again from scratch: exactly for
:math:`\mathbb E[T]` (:func:`~chutes_edu.expected_turns` with ``exact=True``) and
:math:`\operatorname{Var} T` (exact rational linear algebra with python-flint); a race with
:func:`~chutes_edu.win_probabilities` in floating point.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from .board import Board, _can_finish, _english, _landings
from .i18n import gettext, say
from .markov import DENSE_MAX, expected_turns, jump_effects
from .markov import win_probabilities as _win_probabilities
from .moments import (
    _bonus_and_costs,
    _ends,
    _exact_moments,
    _mean_prices,
    _moment_effects,
    _parts,
    _second_moment_effects,
    _system,
    game_variance,
)

__all__ = ["Goal", "TargetLength", "ShortestGame", "LongestGame", "SmallestSpread", "FairestRace",
           "Design", "Step", "design_board", "METHODS"]

METHODS: tuple[str, ...] = ("auto", "exhaustive", "greedy", "local search")
"""The search methods of :func:`design_board`."""

WORK_BUDGET = 120.0
"""The longest exhaustive search :func:`design_board` runs, in seconds as estimated before it
starts (the cost model of the module docstring): above it, ``method="exhaustive"`` raises
``ValueError`` with the estimate."""

AUTO_BUDGET = 1.0
"""``method="auto"`` searches exhaustively when the estimate is at most this many seconds, and
runs a local search otherwise, so that a widget or a notebook cell stays quick."""

MAX_ROUNDS = 30
"""The most rounds of improving moves a local search makes from one starting set."""

SCREEN = 24
"""How many candidates a race's greedy or local search solves in full at each step."""

RESTARTS = 3
"""Random starting sets a local search adds when it is given a ``seed``."""

_TIE = 1e-9          # relative: prices closer than this are decided exactly
_MAX_TIES = 32       # the most near-tied designs decided by exact solves
_SUSPECT = 1e-9      # relative: a smaller rank-one denominator is settled by a graph search
_UPDATE = 1e-4       # relative: below this denominator N is inverted afresh, not updated
# The cost model of an exhaustive search, in seconds of one core of the project's machine (fitted
# to measurements on boards of 8 to 100 squares): per set extended, a fixed cost and terms in n^2
# (the prices and the rank-one update) and n^3 (an inverse), for the mean and for the moments;
# per set priced; per full solve of a race, a fixed cost and a term in n^2.
_COST_SET = {"mean": (1.0e-4, 1.5e-8, 1.0e-10), "moments": (3.0e-4, 1.0e-7, 2.0e-10)}
_COST_PRICE = 6.0e-8
_COST_RACE = (5.0e-4, 2.0e-7)


def _as_fraction(x: Any, what: str) -> Fraction:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise ValueError(say("{what} must be a number, not {value}", what=what, value=repr(x)))
    if not math.isfinite(float(x)):
        raise ValueError(say("{what} must be finite, not {value}", what=what, value=repr(x)))
    if isinstance(x, numbers.Rational):
        return Fraction(int(x.numerator), int(x.denominator))
    return Fraction(repr(float(x)))          # 24.5 means the decimal typed, not its binary twin


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
        target = _as_fraction(self.turns, gettext("target length"))
        if target <= 0:
            raise ValueError(say("the target length must be positive, got {value} turns",
                                 value=repr(self.turns)))

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
    mean : float or fractions.Fraction, optional
        The mean :math:`m` in turns; by default the starting board's own (same mean, less
        spread), solved exactly (:meth:`resolved`).
    tolerance : float, default 1.0
        How far the mean may stray, in turns (non-negative).

    Notes
    -----
    Membership of the band is decided exactly: a float is read as the decimal it is written as
    (``0.5`` is :math:`1/2`), a design's mean is solved exactly (its float price only picks the
    contenders), so a mean on the band's edge (:math:`|\\mathbb E T - m| = tol`) is inside it on
    every machine.

    Examples
    --------
    >>> SmallestSpread(30, 0.5).describe()
    'the smallest variance for a mean of 30 ± 0.5 turns'
    """

    mean: float | Fraction | None = None
    tolerance: float = 1.0
    quantity = "variance (turns²)"
    uses = "moments"

    def __post_init__(self) -> None:
        if self.mean is not None and _as_fraction(self.mean, "mean") <= 0:
            raise ValueError(say("the mean must be positive, got {value} turns",
                                 value=repr(self.mean)))
        if _as_fraction(self.tolerance, "tolerance") < 0:
            raise ValueError(say("the tolerance must be 0 or more, got {value} turns",
                                 value=repr(self.tolerance)))

    def describe(self) -> str:
        where = "the board's own mean" if self.mean is None else f"a mean of {float(self.mean):g}"
        return f"the smallest variance for {where} ± {float(self.tolerance):g} turns"

    def resolved(self, board: Board) -> Goal:
        """The goal with the board's own mean, solved exactly (a Fraction), when none is given:
        a float solve can land a hair either side of a design on the band's edge, differently on
        different machines."""
        if self.mean is not None:
            return self
        return replace(self, mean=_exact_moments(board)[0])

    def value(self, board: Board) -> float:
        return float(game_variance(board))

    def exact_value(self, board: Board) -> Fraction | None:
        return _exact_moments(board)[2]

    def score(self, value: Any, mean: Any) -> tuple[Any, Any]:
        if self.mean is None:
            raise ValueError(say("resolve the goal on a board first (SmallestSpread.resolved)"))
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
            raise ValueError(say("{what} must be a whole number, not {value}", what="seats",
                                 value=repr(self.seats)))
        if not 2 <= self.seats <= 6:
            raise ValueError(say("a race needs 2 to 6 seats, got {value}", value=self.seats))

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
        E.g. ``"start"``, ``"add 27->29"``, ``"swap 27->29 for 30->12"``, ``"stop: ..."``, in
        the student's language (:func:`chutes_edu.i18n.say`).
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
        True when the design is known to be the best among the candidates: an exhaustive search
        that decided every near-tie exactly (a race: in floating point), or a target length hit
        exactly.
    steps : tuple of Step
        The search's history, for displays.
    priced : int
        How many designs the search priced.
    confirmation : str
        How ``value`` was confirmed (in the student's language, as the steps are).
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
        """A few lines for people: the goal, the jumps added, the value, the search (in the
        student's language: the explorers' page says the same lines, maths/design_math.js)."""
        change = {"quantity": self.goal.quantity, "before": f"{self.original_value:.4f}",
                  "after": f"{self.value:.4f}"}
        proof = (say("proven optimal among the candidates") if self.proven_optimal
                 else say("a heuristic: not proven optimal"))
        method = say("exhaustive") if self.method == "exhaustive" else self.method
        lines = [say("goal: {goal}", goal=self.goal.describe()),
                 say("added jumps: {jumps}", jumps=_label(self.added)),
                 say("{quantity}: {before} -> {after}", **change) if self.exact_value is None
                 else say("{quantity}: {before} -> {after} (exactly {exact})", **change,
                          exact=f"{float(self.exact_value):.6f}")]
        if self.goal.quantity != "expected turns":
            lines.append(say("{quantity}: {before} -> {after}", quantity="expected turns",
                             before=f"{self.original_mean:.4f}", after=f"{self.mean:.4f}"))
        lines += [say("search: {method}, {priced} designs priced, {proof}", method=method,
                      priced=self.priced, proof=proof),
                  say("confirmed by {confirmation}", confirmation=self.confirmation)]
        return "\n".join(lines)


# --------------------------------------------------------------------------- the search
Bounds = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
Option = tuple[list[Jump], float, float]          # (added jumps, value, mean)


class _Search:
    """Shared state of one search: the goal, the pool of candidates, the board's rules as arrays
    (so that a set of jumps can be checked and solved before any ``Board`` is built), pricing,
    and the decisions of near-ties."""

    def __init__(self, board: Board, goal: Goal, pool: np.ndarray) -> None:
        self.board, self.goal, self.pool = board, goal, pool
        self.priced = 0
        self.race = goal.uses == "race"
        self.moments = goal.uses == "moments"
        n = board.size
        self.probs = np.array([float(p) for p in board.probabilities])
        self.faces = np.flatnonzero(self.probs > 0)
        self.ends = _ends(board)
        self._squares = np.arange(n + 1)[:, None]
        self._targets = self._squares + np.arange(1, board.faces + 1)[None, :]
        self._exact: dict[tuple[Jump, ...], tuple[Fraction, Fraction]] = {}

    # -- a set of added jumps as a roll table, checked without building a Board
    def table(self, added: Iterable[Jump]) -> np.ndarray:
        """The roll table of the starting board with ``added`` (chain-free: not checked)."""
        extra = dict(added)
        if not extra:
            return self.board._roll_table
        board = self.board
        table = _landings(self._squares, self._targets, board.size, board.overshoot,
                          {**board.jumps, **extra})
        table[list(board.absorbing)] = np.asarray(board.absorbing)[:, None]
        return table

    def can_finish(self, table: np.ndarray) -> np.ndarray:
        return _can_finish(table, self.board.probabilities, self.board.absorbing)

    def finishable(self, table: np.ndarray) -> bool:
        return bool(self.can_finish(table).all())

    def board_of(self, added: Iterable[Jump]) -> Board:
        """The starting board with ``added`` (a valid set: chain-free and finishable)."""
        return self.board.replace(jumps={**self.board.jumps, **dict(added)})

    def compatible(self, added: Iterable[Jump], a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Which jumps a[i] -> b[i] can join ``added`` without chaining (one jump per source, no
        jump from another's destination, none onto another's source)."""
        jumps = list(added)
        if not jumps:
            return np.ones(a.shape, dtype=bool)
        ok = np.ones(a.shape, dtype=bool)
        for source, destination in jumps:
            ok &= (a != source) & (a != destination) & (b != source)
        return ok

    def landed(self, table: np.ndarray) -> np.ndarray:
        """``landed[s]``: some move of a game from square 0 ends on square s before any jump."""
        board = self.board
        seen = np.zeros(board.size + 1, dtype=bool)
        seen[0] = True
        frontier = np.array([0])
        while frontier.size:
            reached = np.unique(table[frontier][:, self.faces])
            reached = reached[~seen[reached]]
            seen[reached] = True
            frontier = reached[~self.ends[reached]]
        resting = np.flatnonzero(seen & ~self.ends)[:, None]
        before = _landings(resting, resting + self.faces[None, :] + 1, board.size,
                           board.overshoot, {})
        out = np.zeros(board.size + 1, dtype=bool)
        out[before.ravel()] = True
        return out

    def useless(self, added: Iterable[Jump]) -> list[Jump]:
        """The added jumps whose source no game from square 0 ever lands on (see design_board)."""
        jumps = sorted(added)
        if not jumps:
            return []
        landed = self.landed(self.table(jumps))
        return [j for j in jumps if not landed[j[0]]]

    def canonical(self, added: Iterable[Jump]) -> tuple[Jump, ...]:
        """``added`` without its useless jumps: the same game from square 0, the same score.

        A useless jump is kept if the board could not be finished without it (from squares that
        no game from square 0 reaches); dropping a useless jump changes no other's use.
        """
        keep = sorted(added)
        for jump in self.useless(keep):
            rest = [j for j in keep if j != jump]
            if self.finishable(self.table(rest)):
                keep = rest
        return tuple(keep)

    # -- one board
    def evaluate(self, board: Board) -> tuple[float, float]:
        """(value, mean) of one board by full float solves."""
        self.priced += 1
        mean = float(expected_turns(board)[0])
        value = mean if self.goal.uses == "mean" else self.goal.value(board)
        return value, mean

    def solve(self, table: np.ndarray) -> tuple[float, float]:
        """(value, mean) of a finishable roll table by full float solves (not a race)."""
        self.priced += 1
        BQ, F, costs = _system(table, self.probs, self.ends, self.board.bonus_roll)
        A = np.eye(self.board.size) - BQ
        t = np.linalg.solve(A, costs)
        if not self.moments:
            return float(t[0]), float(t[0])
        g = np.linalg.solve(A, t if F is None else t - F @ t)
        return float(2.0 * g[0] - t[0] - t[0] ** 2), float(t[0])

    def key(self, value: float, mean: float) -> tuple[float, float]:
        penalty, objective = self.goal.score(value, mean)
        return float(penalty), float(objective)

    def bounds(self, value: Any, mean: Any) -> Bounds:
        """(penalty low, penalty high, objective low, objective high) that the exact scores of
        designs priced (value, mean) in floating point lie in, allowing a relative error of
        ``_TIE`` in each price. A penalty of exactly 0 is known exactly when its high end is 0."""
        value = np.atleast_1d(np.asarray(value, dtype=float))
        mean = np.atleast_1d(np.asarray(mean, dtype=float))
        goal = self.goal
        if isinstance(goal, (TargetLength, ShortestGame, LongestGame)):     # no penalty
            objective = (np.abs(mean - float(goal.turns)) if isinstance(goal, TargetLength)
                         else mean if isinstance(goal, ShortestGame) else -mean)
            err = _TIE * np.maximum(1.0, np.abs(mean))
            zero = np.zeros_like(mean)
            return zero, zero, objective - err, objective + err
        if isinstance(goal, SmallestSpread) and goal.mean is not None:
            middle, tolerance = float(goal.mean), float(goal.tolerance)
            err = _TIE * np.maximum(np.abs(mean), max(1.0, abs(middle), tolerance))
            miss = np.abs(mean - middle) - tolerance
            spread = _TIE * np.maximum(1.0, np.abs(value) + mean**2)   # the second moment's size
            return (np.maximum(miss - err, 0.0), np.maximum(miss + err, 0.0),
                    value - spread, value + spread)
        penalty, objective = goal.score(value, mean)
        penalty = np.broadcast_to(np.asarray(penalty, dtype=float), value.shape)
        objective = np.broadcast_to(np.asarray(objective, dtype=float), value.shape)
        err_p = np.where(penalty == 0, 0.0, _TIE * np.maximum(1.0, np.abs(penalty)))
        err_o = _TIE * np.maximum(1.0, np.abs(mean if goal.uses == "mean" else objective))
        return (np.maximum(penalty - err_p, 0.0), penalty + err_p, objective - err_o,
                objective + err_o)

    @staticmethod
    def maybe(bounds: Bounds, best_penalty: float, best_zero: float) -> np.ndarray:
        """Which designs may still be the best, given the lowest penalty high end of all designs
        seen and the lowest objective high end of those whose penalty is surely 0 (inf if none)."""
        p_lo, _, o_lo, _ = bounds
        keep = p_lo <= best_penalty
        if best_zero < np.inf:                    # the best design surely meets the constraint
            keep &= (p_lo <= 0.0) & (o_lo <= best_zero)
        return keep

    @staticmethod
    def levels(bounds: Bounds) -> tuple[float, float]:
        """(lowest penalty high end, lowest objective high end where the penalty is surely 0)."""
        _, p_hi, _, o_hi = bounds
        zero = p_hi == 0.0
        return float(p_hi.min()), float(o_hi[zero].min()) if zero.any() else np.inf

    def contenders(self, value: np.ndarray, mean: np.ndarray) -> np.ndarray:
        """Which of these priced designs may be the best of them (near-ties included)."""
        bounds = self.bounds(value, mean)
        return self.maybe(bounds, *self.levels(bounds))

    # -- exact decisions
    def exact_key(self, added: Iterable[Jump]) -> tuple[Fraction, Fraction]:
        """The exact (penalty, objective) of the starting board with ``added`` (not a race)."""
        jumps = tuple(sorted(added))
        if jumps not in self._exact:
            board = self.board_of(jumps)
            if self.moments:
                mean, _, value = _exact_moments(board)
            else:
                exact = expected_turns(board, exact=True)[0]
                mean = value = Fraction(int(exact.p), int(exact.q))
            self._exact[jumps] = self.goal.exact_score(value, mean)
        return self._exact[jumps]

    def improves(self, new: Option, old: Option) -> bool:
        """Is ``new`` better than ``old``? Decided exactly when the float prices cannot tell
        (a race, with no exact solver, counts a near-tie as no improvement)."""
        (np_lo, np_hi, no_lo, no_hi), (op_lo, op_hi, oo_lo, oo_hi) = (
            tuple(float(x[0]) for x in self.bounds(v, m)) for _, v, m in (new, old))
        if np_hi < op_lo:
            return True
        if np_lo > op_hi:
            return False
        if np_hi == 0.0 and op_hi == 0.0:          # both surely meet the constraint
            if no_hi < oo_lo:
                return True
            if no_lo > oo_hi:
                return False
        if self.race:
            return False
        return self.exact_key(new[0]) < self.exact_key(old[0])

    def choose(self, options: list[Option]) -> tuple[int, bool]:
        """The best of ``options`` and whether every near-tie was decided exactly.

        The options that may be best by their float prices are ranked by exact score (at most
        ``_MAX_TIES`` of them, the best priced first), then by the tie rule of design_board: no
        useless jump, fewer jumps, the jumps in sorted order. A race ranks its near-ties by the
        tie rule, then its float price.
        """
        if len(options) == 1:
            return 0, True
        keep = self.contenders(np.array([o[1] for o in options]),
                               np.array([o[2] for o in options]))
        ties = sorted(np.flatnonzero(keep).tolist(),
                      key=lambda i: (self.key(options[i][1], options[i][2]),
                                     len(options[i][0]), sorted(options[i][0])))
        if self.race:
            return min(ties, key=lambda i: (bool(self.useless(options[i][0])),
                                            self.key(options[i][1], options[i][2]),
                                            len(options[i][0]), sorted(options[i][0]))), True
        decided = ties[:_MAX_TIES]
        best = min(decided, key=lambda i: (self.exact_key(options[i][0]),
                                           bool(self.useless(options[i][0])),
                                           len(options[i][0]), sorted(options[i][0])))
        return best, len(ties) <= _MAX_TIES

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

    def parts(self, table: np.ndarray) -> dict[str, Any]:
        """N = (I - B_Q)^-1 of a finishable roll table by one inverse, with t and Z (and the
        moment parts for a spread goal)."""
        BQ, F, costs = _system(table, self.probs, self.ends, self.board.bonus_roll)
        N = np.linalg.inv(np.eye(self.board.size) - BQ)
        return _parts(N, F, costs, self.moments)

    def update(self, parts: dict[str, Any], jumps: tuple[Jump, ...], D: float
               ) -> dict[str, Any] | None:
        """The mean parts (N, t, Z) after the last of ``jumps`` is added to the set of ``parts``,
        by the rank-one update of N (Sherman-Morrison), or None when that is ill-conditioned
        (``D / N_aa`` below ``_UPDATE``) or the goal needs moments: then invert afresh.

        Rows of N for the source a itself are left as the update makes them (a game never rests
        on a again); no later price reads them.
        """
        a, b = jumps[-1]
        N = parts["N"]
        if self.moments or D / N[a, a] < _UPDATE:
            return None
        column = N[:, a].copy()
        column[a] -= 1.0                               # N k = N B_Q e_a = N e_a - e_a
        final = bool(self.ends[b])
        row = N[a] if final else N[a] - N[b]           # u^T N with u = e_a (- e_b)
        updated = N - np.outer(column, row / D)
        if self.board.bonus_roll is None:
            t = parts["t"]
            t = t - column * ((t[a] if final else t[a] - t[b]) / D)
            return {"N": updated, "t": t, "Z": None}
        F, costs = _bonus_and_costs(self.table(jumps), self.probs, self.ends,
                                    self.board.bonus_roll)
        return {"N": updated, "t": updated @ costs, "Z": None if F is None else updated @ F}

    def extend(self, added: tuple[Jump, ...], finishable: bool, a: np.ndarray, b: np.ndarray,
               parts: dict[str, Any] | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any] | None]:
        """(value, mean, valid, D, parts) for ``added`` plus each jump a[i] -> b[i] (chain-free:
        checked by the caller); ``valid[i]`` is False where that board cannot be finished, D
        holds the rank-one denominators (NaN where not used), ``parts`` those of ``added``.

        From a finishable set (not a race): its N (``parts``, or one inverse) and the rank-one
        prices of the module docstring, all at once; a denominator near 0 is settled by a graph
        search, and a valid board there is solved in full. From a set that cannot be finished,
        or for a race: a graph search and a full solve of each valid board; only a jump from a
        square that the stuck squares move onto can make the set finishable.
        """
        value = np.full(a.shape, np.nan)
        mean = np.full(a.shape, np.nan)
        D = np.full(a.shape, np.nan)
        valid = np.zeros(a.shape, dtype=bool)
        if finishable and not self.race:
            if parts is None:
                parts = self.parts(self.table(added))
            if not a.size:
                return value, mean, valid, D, parts
            mean, D = _mean_prices(parts, a, b, self.ends)
            value = mean
            if self.moments:
                means, seconds = _moment_effects(parts, self.board.absorbing)
                mean = means[a, b]
                value = seconds[a, b] - mean**2
            suspect = np.abs(D) < _SUSPECT * np.maximum(1.0, parts["N"][a, a])
            valid = ~suspect & np.isfinite(value)
            self.priced += int(np.count_nonzero(valid))
            todo = np.flatnonzero(suspect)
        else:
            todo = np.arange(a.size)
            if not finishable:
                table = self.table(added)
                stuck = np.flatnonzero(~self.can_finish(table))
                todo = todo[np.isin(a, table[stuck][:, self.faces])]
        for i in todo.tolist():
            jumps = (*added, (int(a[i]), int(b[i])))
            child = self.table(jumps)
            if self.finishable(child):
                valid[i] = True
                value[i], mean[i] = (self.evaluate(self.board_of(jumps)) if self.race
                                     else self.solve(child))
        return value, mean, valid, D, parts

    def best(self, added: list[Jump], value: np.ndarray, mean: np.ndarray
             ) -> tuple[Jump, list[Jump], float, float] | None:
        """The best one-jump extension of ``added`` in priced arrays (near-ties decided exactly):
        (the jump, the new set, value, mean), or None if none is priced."""
        ok = np.isfinite(value)
        if not ok.any():
            return None
        pairs = np.argwhere(ok)                       # row-major, as value[ok]
        v, m = value[ok], mean[ok]
        keep = np.flatnonzero(self.contenders(v, m))
        jumps = [(int(pairs[i, 0]), int(pairs[i, 1])) for i in keep]
        options = [(sorted([*added, j]), float(v[i]), float(m[i]))
                   for j, i in zip(jumps, keep, strict=True)]
        choice, _ = self.choose(options)
        return (jumps[choice], *options[choice])

    def best_without(self, added: list[Jump], old: Jump
                     ) -> tuple[tuple[Jump, list[Jump], float, float] | None, Option | None]:
        """The best swap of ``old`` in ``added`` for another candidate (as :meth:`best`), and
        the drop of ``old`` (None when it leaves a board that cannot be finished: not a move;
        the swaps from there are priced by full solves)."""
        rest = [j for j in added if j != old]
        table = self.table(rest)
        allowed = self.pool.copy()
        allowed[old] = False
        if self.finishable(table):
            base = self.board_of(rest)
            dropped: Option | None = (rest, *self.evaluate(base))
            return self.best(rest, *self.price(base, allowed)), dropped
        pairs = np.argwhere(allowed)
        pairs = pairs[self.compatible(rest, pairs[:, 0], pairs[:, 1])]
        a, b = pairs[:, 0], pairs[:, 1]
        value, mean, valid, _, _ = self.extend(tuple(rest), False, a, b)
        values = np.full(allowed.shape, np.nan)
        means = np.full(allowed.shape, np.nan)
        values[a[valid], b[valid]] = value[valid]
        means[a[valid], b[valid]] = mean[valid]
        return self.best(rest, values, means), None


class _Tracker:
    """The designs of an exhaustive search that may still be the best, kept as they are priced
    (a batch of one-jump extensions of a set at a time), with the two levels of
    :meth:`_Search.maybe`, which only fall as designs come in."""

    def __init__(self, search: _Search) -> None:
        self.search = search
        self.best_penalty = np.inf
        self.best_zero = np.inf
        self.kept: list[tuple[tuple[Jump, ...], float, float, float, float]] = []
        self.limit = 1024

    def offer(self, added: tuple[Jump, ...], a: np.ndarray, b: np.ndarray, value: np.ndarray,
              mean: np.ndarray) -> None:
        """Designs ``added`` plus a[i] -> b[i], priced (value[i], mean[i]); or ``added`` itself
        when a and b are empty and value and mean hold one price."""
        if not value.size:
            return
        bounds = self.search.bounds(value, mean)
        penalty, zero = self.search.levels(bounds)
        self.best_penalty = min(self.best_penalty, penalty)
        self.best_zero = min(self.best_zero, zero)
        p_lo, _, o_lo, _ = bounds
        for i in np.flatnonzero(self.search.maybe(bounds, self.best_penalty,
                                                  self.best_zero)).tolist():
            jumps = added if not a.size else tuple(sorted((*added, (int(a[i]), int(b[i])))))
            self.kept.append((jumps, float(value[i]), float(mean[i]), float(p_lo[i]),
                              float(o_lo[i])))
        if len(self.kept) > self.limit:
            self.kept = self.final()
            self.limit = max(1024, 2 * len(self.kept))

    def final(self) -> list[tuple[tuple[Jump, ...], float, float, float, float]]:
        """The kept designs that may still be the best."""
        if not self.kept:
            return []
        p_lo = np.array([k[3] for k in self.kept])
        o_lo = np.array([k[4] for k in self.kept])
        keep = self.search.maybe((p_lo, p_lo, o_lo, o_lo), self.best_penalty, self.best_zero)
        return [k for k, ok in zip(self.kept, keep, strict=True) if ok]


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
            raise ValueError(say("a candidate must be a jump (a, b), not {pair}",
                                 pair=repr(pair))) from None
        if (isinstance(a, (bool, np.bool_)) or isinstance(b, (bool, np.bool_))
                or not isinstance(a, numbers.Integral) or not isinstance(b, numbers.Integral)
                or not (0 <= int(a) <= n and 0 <= int(b) <= n)):
            bad.append(repr(pair))
            continue
        mask[int(a), int(b)] = True
    if bad:
        raise ValueError(say("candidates off the board (squares 0..{size}): {candidates}",
                             size=n, candidates=", ".join(bad[:10])))
    return mask


def _label(jumps: Iterable[Jump]) -> str:
    return ", ".join(f"{a}->{b}" for a, b in jumps) or say("none")


def _greedy(search: _Search, added: list[Jump], max_jumps: int,
            steps: list[Step]) -> tuple[list[Jump], float, float]:
    board = search.board_of(added)
    value, mean = search.evaluate(board)
    steps.append(Step(say("start") if not added else say("start from {jumps}", jumps=_label(added)),
                      tuple(added), value, mean))
    while len(added) < max_jumps:
        found = search.best(added, *search.price(board, search.pool))
        if found is None or not search.improves(found[1:], (added, value, mean)):
            steps.append(Step(say("stop: no added jump improves the design"), tuple(added),
                              value, mean))
            break
        (a, b), added, value, mean = found
        board = board.with_jump(a, b)
        steps.append(Step(say("add {jump}", jump=f"{a}->{b}"), tuple(added), value, mean))
    return added, value, mean


def _local(search: _Search, added: list[Jump], value: float, mean: float,
           max_jumps: int, steps: list[Step]) -> tuple[list[Jump], float, float]:
    """Best-improvement local search over add / drop / swap one jump. A drop that leaves a board
    that cannot be finished is not a move; the swaps from there are priced by full solves."""
    for _ in range(MAX_ROUNDS):
        here: Option = (added, value, mean)
        moves: list[tuple[str, Option]] = []
        if len(added) < max_jumps:
            found = search.best(added, *search.price(search.board_of(added), search.pool))
            if found is not None:
                (a, b), grown, v, m = found
                moves.append((say("add {jump}", jump=f"{a}->{b}"), (grown, v, m)))
        for old in added:
            found, dropped = search.best_without(added, old)
            if dropped is not None:
                moves.append((say("drop {jump}", jump=f"{old[0]}->{old[1]}"), dropped))
            if found is not None:
                (a, b), swapped, v, m = found
                moves.append((say("swap {old} for {new}", old=f"{old[0]}->{old[1]}",
                                  new=f"{a}->{b}"), (swapped, v, m)))
        improving = [mv for mv in moves if search.improves(mv[1], here)]
        if not improving:
            steps.append(Step(say("stop: a local optimum (no add, drop or swap improves it)"),
                              tuple(added), value, mean))
            break
        choice, _ = search.choose([mv[1] for mv in improving])
        action, (added, value, mean) = improving[choice]
        steps.append(Step(action, tuple(added), value, mean))
    return added, value, mean


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


def _exhaustive_seconds(goal: Goal, size: int, count: int, max_jumps: int) -> float:
    """The estimated time of an exhaustive search over ``count`` candidates (see the module
    docstring): a cost per set extended and per set priced, or per full solve of a race."""
    sets = [math.comb(count, j) for j in range(max_jumps + 1)]
    n = float(size)
    if goal.uses == "race":
        fixed, square = _COST_RACE
        return sum(sets) * (fixed + square * n * n)
    fixed, square, cube = _COST_SET["moments" if goal.uses == "moments" else "mean"]
    return sum(sets[:-1]) * (fixed + square * n * n + cube * n**3) + sum(sets[1:]) * _COST_PRICE


def _duration(seconds: float, about: bool = True) -> str:
    """``seconds`` in words for people: "about 40 seconds", "about 3 hours" (with ``about=False``
    "40 seconds", "3 hours"). English, one catalog entry per unit: a refusal quoting it says it
    back in the student's language."""
    for unit, length in (("years", 365.25 * 86400), ("days", 86400.0), ("hours", 3600.0),
                         ("minutes", 60.0)):
        if seconds >= 1.5 * length:
            amount = seconds / length
            words = f"{amount:.2g}" if amount < 1e3 else f"{amount:.1e}"
            if unit == "years":
                return _english("about {amount} years" if about else "{amount} years",
                                amount=words)
            if unit == "days":
                return _english("about {amount} days" if about else "{amount} days", amount=words)
            if unit == "hours":
                return _english("about {amount} hours" if about else "{amount} hours",
                                amount=words)
            return _english("about {amount} minutes" if about else "{amount} minutes",
                            amount=words)
    if seconds < 2:
        return _english("under 2 seconds")
    return _english("about {amount} seconds" if about else "{amount} seconds",
                    amount=f"{seconds:.2g}")


def _exhaustive(search: _Search, max_jumps: int, steps: list[Step]
                ) -> tuple[list[Jump], float, float, bool]:
    """Every valid set of at most ``max_jumps`` candidates, depth first in the order of the
    candidates; returns (added, value, mean, every near-tie decided exactly)."""
    original = search.board
    pairs = np.argwhere(search.pool)                          # sorted by (a, b)
    A, B = pairs[:, 0], pairs[:, 1]
    tracker = _Tracker(search)
    value, mean = search.evaluate(original)
    steps.append(Step(say("start"), (), value, mean))
    tracker.offer((), A[:0], B[:0], np.array([value]), np.array([mean]))
    big = original.size > DENSE_MAX and max_jumps == 1 and not search.race

    def visit(added: tuple[Jump, ...], last: int, finishable: bool,
              parts: dict[str, Any] | None) -> None:
        index = np.arange(last + 1, len(pairs))
        index = index[search.compatible(added, A[index], B[index])]
        a, b = A[index], B[index]
        if big:                              # one pricing of a big board: jump_effects, sparse
            values, means = search.price(original, search.pool)
            value, mean, valid = values[a, b], means[a, b], np.ones(index.size, dtype=bool)
        else:
            value, mean, valid, D, parts = search.extend(added, finishable, a, b, parts)
        tracker.offer(added, a[valid], b[valid], value[valid], mean[valid])
        if len(added) + 1 < max_jumps:
            for k, i in enumerate(index.tolist()):
                jumps = (*added, (int(A[i]), int(B[i])))
                ok = bool(valid[k])
                visit(jumps, i, ok, search.update(parts, jumps, float(D[k]))
                      if ok and parts is not None and np.isfinite(D[k]) else None)

    visit((), -1, True, None)
    groups: dict[tuple[Jump, ...], tuple[float, float]] = {}
    for jumps, v, m, _, _ in tracker.final():      # the same game, the same score: one each
        canon = search.canonical(jumps)
        if canon not in groups or search.key(v, m) < search.key(*groups[canon]):
            groups[canon] = (v, m)
    options = [(list(jumps), v, m) for jumps, (v, m) in groups.items()]
    choice, decided = search.choose(options)
    added, value, mean = options[choice]
    steps.append(Step(say("the best of every set of at most {count}: {jumps}", count=max_jumps,
                          jumps=_label(added)), tuple(added), value, mean))
    return added, value, mean, decided


def design_board(board: Board, goal: Goal, max_jumps: int = 3, method: str = "auto",
                 candidates: Iterable[tuple[int, int]] | None = None,
                 seed: int | None = None) -> Design:
    r"""Add at most ``max_jumps`` jumps to ``board`` to reach ``goal``, and confirm the result.

    See the module docstring for the goals, the searches and their costs.

    A *design* is a set of candidates whose board is valid: no two jumps from one square, no jump
    from another jump's destination or onto another's source, and the game can be finished from
    every square. An added jump is *useless* when no game from square 0 on the designed board ever
    ends a move on its source (before jumps), so that it never fires; dropping it leaves the same
    game from square 0 and the same score. **Ties**: of designs whose exact scores are equal
    (for a race, whose float scores agree to rounding), the search prefers one without a useless
    jump, then fewer jumps, then the first in sorted order. Every search drops the useless jumps
    of the design it found (a step of its history says so), each unless the board could not be
    finished without it.

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
        The search. "exhaustive" considers every design of at most ``max_jumps`` candidates,
        whatever its subsets (a set that cannot be finished on its own may still be completed by
        a later jump); it is refused when its estimated time is above :data:`WORK_BUDGET`
        seconds. "auto" is exhaustive when the estimate is at most :data:`AUTO_BUDGET` seconds,
        else local search.
    candidates : iterable of (int, int), optional
        The jumps the search may add; by default every jump the board's rules allow. Each must
        be allowed on ``board`` on its own (others are dropped, as ``jump_effects`` refuses them),
        so a jump that only a second added jump would make finishable is never a candidate.
    seed : int, optional
        For a local search: also start from ``RESTARTS`` random sets drawn with this seed.

    Returns
    -------
    Design
        The designed board, its value confirmed by a full solve (exact for the expected length
        and the variance), how it was found and whether it is proven optimal: an exhaustive
        search whose near-ties were all decided exactly (a race: in floating point), or a target
        length hit exactly.

    Raises
    ------
    ValueError
        For a bad goal, method, ``max_jumps`` or candidate, an exhaustive search whose estimated
        time is above the budget (the message gives the estimate; try ``method="greedy"`` or
        fewer candidates), no candidate the rules allow, or a race on a board with traps.

    Examples
    --------
    >>> from chutes_edu import Board
    >>> funnel = Board({5: 3}, size=9, die=2)       # a coin, a chute from 5 back to 3
    >>> d = design_board(funnel, ShortestGame(), max_jumps=2)
    >>> d.added, d.method, d.proven_optimal, d.exact_mean
    (((1, 9), (2, 9)), 'exhaustive', True, Fraction(1, 1))
    >>> design_board(funnel, ShortestGame(), max_jumps=2, method="greedy").added
    ((1, 9), (4, 9))

    With three jumps allowed, every third jump is useless (no game gets past square 2), so the
    best design stays the pair:

    >>> design_board(funnel, ShortestGame(), max_jumps=3, method="exhaustive").added
    ((1, 9), (2, 9))
    """
    if not isinstance(board, Board):
        raise ValueError(say("{function} needs a Board, not {kind}", function="design_board",
                             kind=type(board).__name__))
    if not isinstance(goal, Goal) or type(goal) is Goal:
        raise ValueError(say("goal must be TargetLength, ShortestGame, LongestGame, SmallestSpread "
                             "or FairestRace, not {goal}", goal=repr(goal)))
    if (isinstance(max_jumps, (bool, np.bool_)) or not isinstance(max_jumps, numbers.Integral)
            or not 1 <= max_jumps <= 6):
        raise ValueError(say("max_jumps must be a whole number from 1 to 6, not {value}",
                             value=repr(max_jumps)))
    max_jumps = int(max_jumps)
    if method not in METHODS:
        raise ValueError(say("unknown method {method}; choose one of {methods}",
                             method=repr(method), methods=", ".join(repr(m) for m in METHODS)))
    if seed is not None and (isinstance(seed, (bool, np.bool_))
                             or not isinstance(seed, numbers.Integral)):
        raise ValueError(say("seed must be a whole number or None, not {value}",
                             value=repr(seed)))
    if goal.uses == "race" and board.traps:
        raise ValueError(say("a race is not defined on a board with traps (traps on {traps}): what "
                             "a trap does to a race is a house rule",
                             traps=", ".join(map(str, board.traps))))
    goal = goal.resolved(board)
    pool = _candidate_mask(board, candidates) & np.isfinite(jump_effects(board))
    if not pool.any():
        raise ValueError(say("no candidate jump can be added to this board" if candidates is None
                             else "no candidate jump can be added to this board (every candidate "
                             "given is refused by the rules)"))
    search = _Search(board, goal, pool)
    count = int(pool.sum())
    seconds = _exhaustive_seconds(goal, board.size, count, max_jumps)
    if method == "exhaustive" and seconds > WORK_BUDGET:
        sets = sum(math.comb(count, j) for j in range(1, max_jumps + 1))
        raise ValueError(say("an exhaustive search over {count} candidate jumps with up to "
                             "{max_jumps} added would try about {sets} sets of jumps and take "
                             "{duration} (estimated), more than the budget of {budget}; use "
                             "method='greedy' or 'local search', fewer candidates, or a smaller "
                             "max_jumps", count=count, max_jumps=max_jumps, sets=f"{sets:.3g}",
                             duration=_duration(seconds),
                             budget=_duration(WORK_BUDGET, about=False)))
    if method == "auto":
        method = "exhaustive" if seconds <= AUTO_BUDGET else "local search"
    steps: list[Step] = []
    proven = False
    if method == "exhaustive":
        added, value, mean, proven = _exhaustive(search, max_jumps, steps)
    else:
        added, value, mean = _greedy(search, [], max_jumps, steps)
        if method == "local search":
            added, value, mean = _local(search, added, value, mean, max_jumps, steps)
            if seed is not None:
                rng = np.random.default_rng(seed)
                for _ in range(RESTARTS):
                    start = _random_start(search, rng, max_jumps)
                    trail = [Step(say("restart from random jumps {jumps}", jumps=_label(start)),
                                  tuple(start), *search.evaluate(search.board_of(start)))]
                    other = _local(search, start, trail[0].value, trail[0].mean, max_jumps,
                                   trail)
                    if search.improves(other, (added, value, mean)):
                        steps.extend(trail)
                        added, value, mean = other
    canon = search.canonical(added)
    if len(canon) < len(added):
        dropped = [j for j in added if j not in canon]
        squares = ", ".join(str(a) for a, _ in dropped)
        steps.append(Step(say("drop {jumps}: no game reaches square {squares} (the same score)"
                              if len(dropped) == 1 else
                              "drop {jumps}: no game reaches squares {squares} (the same score)",
                              jumps=_label(dropped), squares=squares), canon, value, mean))
        added = list(canon)
    return _confirm(goal, board, search.board_of(added), tuple(sorted(added)), method, steps,
                    search.priced, proven)


def _confirm(goal: Goal, original: Board, designed: Board, added: tuple[Jump, ...], method: str,
             steps: list[Step], priced: int, proven: bool) -> Design:
    """Solve the designed board again from scratch; exactly where the goal allows it."""
    exact_mean, _, exact_variance = _exact_moments(designed)
    if goal.uses == "race":
        exact_value: Fraction | None = None
        confirmation = say("a full float solve with win_probabilities (no exact race solver)")
    elif goal.uses == "moments":
        exact_value = exact_variance
        confirmation = say("exact rational solves of the mean and second moment "
                           "(python-flint)")
    else:
        exact_value = exact_mean
        confirmation = "expected_turns(board, exact=True)"
    value = goal.value(designed)
    if isinstance(goal, TargetLength) and exact_value == _as_fraction(goal.turns, "target"):
        proven = True                          # nothing beats a distance of exactly 0
    return Design(goal=goal, original=original, board=designed, added=added, value=value,
                  mean=float(expected_turns(designed)[0]), exact_value=exact_value,
                  exact_mean=exact_mean, original_value=goal.value(original),
                  original_mean=float(expected_turns(original)[0]), method=method,
                  proven_optimal=proven, steps=tuple(steps), priced=priced,
                  confirmation=confirmation)
