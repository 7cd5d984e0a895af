r"""The coin-flip warm-up: how long do you wait for the first heads?

Flip a coin that shows heads with probability :math:`p` until it does, and let :math:`F` be the
number of flips (the last one included). :math:`F` is geometric, :math:`\Pr(F = k) = (1-p)^{k-1} p`,
and its mean follows from one step of the same reasoning that solves Chutes and Ladders
(as in the blog post): the first flip is heads with probability :math:`p` (done after 1 flip), and
otherwise we are back where we started, one flip later,

.. math:: E = 1 + (1 - p)\,E \quad\Longrightarrow\quad E = \frac1p .

It is the smallest absorbing Markov chain: one transient state ("no heads yet") with
:math:`Q = (1 - p)` and fundamental matrix :math:`N = (1 - Q)^{-1} = 1/p`.
"""

from __future__ import annotations

import numbers

import numpy as np

from .i18n import say
from .simulation import Seed

__all__ = ["flips_until_heads", "expected_flips"]


def _probability(p: object) -> float:
    if isinstance(p, (bool, np.bool_)) or not isinstance(p, numbers.Real):
        raise ValueError(say("p must be a probability, not {p}", p=repr(p)))
    value = float(p)
    if not 0.0 < value <= 1.0:        # also rejects NaN
        raise ValueError(say("p must satisfy 0 < p <= 1 (with p = 0 heads never comes), got {p}",
                             p=repr(p)))
    return value


def flips_until_heads(p: float, n_trials: int, seed: Seed = None) -> np.ndarray:
    """Simulate ``n_trials`` runs of flipping a coin until the first heads.

    Parameters
    ----------
    p : float
        The probability of heads, ``0 < p <= 1``.
    n_trials : int
        How many independent runs (0 or more).
    seed : int, numpy.random.Generator or None
        The source of randomness (:func:`numpy.random.default_rng`); the same seed gives the
        same runs.

    Returns
    -------
    numpy.ndarray
        ``int64`` array of length ``n_trials``: the number of flips of each run, heads included
        (so every entry is at least 1). All runs are drawn at once (geometric variates).

    Raises
    ------
    ValueError
        If ``p`` is not in ``(0, 1]`` or ``n_trials`` is negative or not a whole number.

    Examples
    --------
    >>> flips = flips_until_heads(0.5, 100_000, seed=1)
    >>> int(flips.min()), round(float(flips.mean()), 1)
    (1, 2.0)
    """
    prob = _probability(p)
    if isinstance(n_trials, (bool, np.bool_)) or not isinstance(n_trials, numbers.Integral):
        raise ValueError(say("n_trials must be a whole number, not {value}", value=repr(n_trials)))
    if n_trials < 0:
        raise ValueError(say("n_trials must be 0 or more, got {value}", value=n_trials))
    rng = np.random.default_rng(seed)
    return rng.geometric(prob, size=int(n_trials)).astype(np.int64)


def expected_flips(p: float) -> float:
    r"""The expected number of flips until the first heads, :math:`E = 1/p`.

    First-step analysis: one flip is always made; with probability :math:`1 - p` it is tails and
    the wait starts afresh, so :math:`E = 1 + (1 - p)E`, whose solution is :math:`E = 1/p`.

    Parameters
    ----------
    p : float
        The probability of heads, ``0 < p <= 1``.

    Returns
    -------
    float
        ``1 / p``.

    Raises
    ------
    ValueError
        If ``p`` is not in ``(0, 1]``.

    Examples
    --------
    >>> expected_flips(0.5), expected_flips(1 / 6)
    (2.0, 6.0)
    """
    return 1.0 / _probability(p)
