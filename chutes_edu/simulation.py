r"""Monte Carlo: play many games at once, by the rules, with no turn cap.

Each game rolls the die, moves by the board's rules (overshoot, jumps, bonus rolls) and counts
turns until the game ends: the token reaches the final square, or a trap. Games are played side
by side as numpy arrays: one array operation moves every unfinished game one roll. The sample mean
:math:`\bar T_n = \frac1n \sum_i T_i` estimates :math:`\mathbb E[T]` with standard error
:math:`s/\sqrt n`; the law of large numbers makes it converge to the exact value of
:func:`chutes_edu.expected_turns`.

There is **no turn cap**. A game's length is unbounded (any number of turns has positive
probability) but it is finite with probability 1, since every board is checked to be finishable
(an absorbing square can be reached from every square); capping the loop would change the
distribution and bias the mean down (the blog post's point). The optional ``cap`` of
:func:`capped_mean` exists only to show that bias.

Randomness: every function takes ``seed`` (an int, a ``numpy.random.Generator``, or None), so a
fixed seed gives the same games on every machine.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .board import Board, _on_board, _square
from .i18n import say

__all__ = ["simulate", "simulate_endings", "running_mean", "capped_mean"]

Seed = int | np.random.Generator | np.random.SeedSequence | None


def _roller(board: Board, rng: np.random.Generator) -> Any:
    """A function k -> k random face indices (0-based) with the die's probabilities."""
    probs = np.array([float(p) for p in board.probabilities])
    m = probs.size
    if np.all(probs == probs[0]):
        dtype = np.uint8 if m <= 255 else np.int64
        return lambda k: rng.integers(0, m, size=k, dtype=dtype)
    cum = np.cumsum(probs)
    cum[-1] = 1.0
    return lambda k: np.searchsorted(cum, rng.random(k), side="right")


def simulate(board: Board, n_games: int, start: int = 0, seed: Seed = None) -> np.ndarray:
    """Play ``n_games`` independent one-player games and return how many turns each took.

    Parameters
    ----------
    board : Board
        The board and its rules.
    n_games : int
        How many games to play (0 or more).
    start : int, default 0
        The square every token starts on (a token put on a jump source rolls from there).
    seed : int, numpy.random.Generator or None
        The source of randomness; the same seed gives the same games.

    Returns
    -------
    numpy.ndarray
        ``int64`` array of length ``n_games``: the number of turns of each game. No cap.

    Examples
    --------
    >>> from chutes_edu import MILTON_BRADLEY_1943, simulate
    >>> turns = simulate(MILTON_BRADLEY_1943, 10_000, seed=1)
    >>> bool(36 < turns.mean() < 42), int(turns.min()) >= 7
    (True, True)
    """
    return _play(board, n_games, start, seed)[0]


def simulate_endings(board: Board, n_games: int, start: int = 0,
                     seed: Seed = None) -> tuple[np.ndarray, np.ndarray]:
    """Play ``n_games`` one-player games; return how many turns each took and where it ended.

    The same games as :func:`simulate` with the same arguments (the turns are equal); on a board
    with traps, ``np.bincount(squares, minlength=board.size + 1)[list(board.absorbing)] / n_games``
    estimates the chances of :func:`chutes_edu.absorption_probabilities`.

    Parameters
    ----------
    board : Board
        The board and its rules.
    n_games : int
        How many games to play (0 or more).
    start : int, default 0
        The square every token starts on.
    seed : int, numpy.random.Generator or None
        The source of randomness; the same seed gives the same games.

    Returns
    -------
    (turns, squares) : tuple of numpy.ndarray
        Two ``int64`` arrays of length ``n_games``: the number of turns of each game, and the
        square it ended on (the final square or a trap).

    Examples
    --------
    >>> from chutes_edu import Board, simulate_endings
    >>> volcano = Board(size=10, die=3, traps=[7])
    >>> turns, squares = simulate_endings(volcano, 10_000, seed=1)
    >>> sorted(set(squares.tolist()))
    [7, 10]
    """
    return _play(board, n_games, start, seed)


def _play(board: Board, n_games: int, start: int, seed: Seed) -> tuple[np.ndarray, np.ndarray]:
    n_games = _square(n_games, "n_games")
    if n_games < 0:
        raise ValueError(say("n_games must be 0 or more, got {nGames}", nGames=n_games))
    start = _on_board(board, start, "start")
    n = board.size
    rng = np.random.default_rng(seed)
    result = np.zeros(n_games, dtype=np.int64)
    where = np.full(n_games, start, dtype=np.int64)
    if start in board.absorbing or n_games == 0:
        return result, where
    ends = np.zeros(n + 1, dtype=bool)
    ends[list(board.absorbing)] = True
    m = board.faces
    flat = board._roll_table.astype(np.int32 if n < 2**31 else np.int64).ravel()
    roll = _roller(board, rng)
    bonus = board.bonus_roll - 1 if board.bonus_roll is not None else None

    pos = np.full(n_games, start, dtype=flat.dtype)
    alive = np.arange(n_games)
    turn = 0
    while pos.size:
        turn += 1
        face = roll(pos.size)
        pos = flat[pos * m + face]
        if bonus is not None:                       # the same turn goes on after a bonus face
            again = np.flatnonzero((face == bonus) & ~ends[pos])
            while again.size:
                face = roll(again.size)
                moved = flat[pos[again] * m + face]
                pos[again] = moved
                again = again[(face == bonus) & ~ends[moved]]
        finished = ends[pos]
        if finished.any():
            result[alive[finished]] = turn
            where[alive[finished]] = pos[finished]
            keep = ~finished
            pos, alive = pos[keep], alive[keep]
    return result, where


def running_mean(turns: np.ndarray, z: float = 1.96) -> tuple[np.ndarray, np.ndarray]:
    r"""The running mean of simulated game lengths and its confidence half-width.

    After :math:`k` games the mean is :math:`\bar T_k` and an approximate 95% confidence interval
    is :math:`\bar T_k \pm z\, s_k / \sqrt k`, with :math:`s_k` the sample standard deviation.

    Parameters
    ----------
    turns : numpy.ndarray
        Game lengths, e.g. from :func:`simulate`.
    z : float, default 1.96
        The normal quantile (1.96 for 95%).

    Returns
    -------
    (mean, half_width) : tuple of numpy.ndarray
        Both of the same length as ``turns``; ``half_width[0]`` is ``inf`` (one game says nothing
        about the spread).
    """
    x = np.asarray(turns, dtype=float)
    k = np.arange(1, x.size + 1)
    mean = np.cumsum(x) / k
    square_mean = np.cumsum(x * x) / k
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.clip(square_mean - mean**2, 0.0, None) * k / (k - 1)
        half = z * np.sqrt(var / k)
    if half.size:
        half[0] = np.inf
    return mean, half


def capped_mean(turns: np.ndarray, cap: int) -> float:
    """The mean game length a simulation with a turn cap would report.

    A capped loop stops every game at ``cap`` turns and records ``cap``: games longer than the cap
    are counted as shorter than they are, so the mean is biased down (the blog post's point).

    Parameters
    ----------
    turns : numpy.ndarray
        Uncapped game lengths from :func:`simulate`.
    cap : int
        The turn limit (at least 1).

    Returns
    -------
    float
        ``mean(min(turns, cap))``.
    """
    cap = _square(cap, "cap")
    if cap < 1:
        raise ValueError(say("cap must be at least 1, got {cap}", cap=cap))
    return float(np.minimum(np.asarray(turns), cap).mean())
