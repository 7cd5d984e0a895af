r"""CoinFlipExplorer: the warm-up, waiting for heads; the running average of the flips against
:math:`1/p`, drawn and computed in the page.

Flip a coin that shows heads with probability :math:`p` until it does; the number of flips
:math:`F` is geometric, and first-step analysis gives :math:`E = 1 + (1 - p)E`, so
:math:`E = 1/p` (:func:`~chutes_edu.expected_flips`). The explorer repeats the wait ``n_trials``
times and shows the running mean :math:`\bar F_k` with its 95% band
:math:`\bar F_k \pm 1.96\, s_k/\sqrt k` (:func:`~chutes_edu.running_mean`) against the line
:math:`1/p`.

The explorer is an anywidget whose front end (``js/explorers/coin_explorer/coin_explorer.js``,
bundled with the modules it imports by esbuild (``npm run build``)) draws the waits with its own
seeded generator and computes in the page with ``js/maths/coin_math.js``, the library's maths in
JavaScript held equal to it by ``tests/js/coin_math.test.mjs``: so it runs live in JupyterLab, in
Voila and on the course website alike, with no kernel behind the page. Python holds the state
(``p``, ``n_trials``, ``seed``, synced both ways and checked by the library) and gives a reader in
the kernel the numbers through the library (:attr:`CoinFlipExplorer.flips`,
:meth:`CoinFlipExplorer.summary`): numpy's draws for the same arguments, a different sample of the
same waits than the page's.

The explorer speaks the student's language (:mod:`chutes_edu.i18n`): its ``language`` trait, set
when it is made, tells the page which catalog to read its words from (``js/core/i18n.js``).
"""

from __future__ import annotations

from typing import Any

import anywidget
import numpy as np
import traitlets

from ..coin import expected_flips, flips_until_heads
from ..i18n import gettext, language, say
from ..simulation import running_mean
from ._base import _Offline, _Refusals
from ._front_end import front_end

__all__ = ["FRONT_END",
           "CoinFlipExplorer", "MAX_TRIALS",
           "MAX_SEED"]

MAX_TRIALS = 100_000
"""The most trials the explorer draws (``MAX_TRIALS`` of maths/coin_math.js): a change of ``p`` then
stays within a frame in the page (10^6 waits took 40 to 70 ms on the course's 2-core machine)."""

MAX_SEED = 2**32 - 1
"""The largest seed (``MAX_SEED`` of maths/coin_math.js): seeds are whole numbers from 0 to 2^32 -
1."""

FRONT_END = front_end("coin_explorer")
"""The explorer's front end as esbuild builds it (:mod:`chutes_edu.widgets._front_end`):
its ES module is the widget's ``_esm``, its stylesheet the ``_css``; the course website loads
it with every other front end as one script."""


def _probability(p: Any) -> float:
    """``p`` as a float, checked by the library (its words for a bad ``p``)."""
    expected_flips(p)
    return float(p)


def _whole(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(say("{what} must be a whole number, not {value}", what=name,
                             value=repr(value)))
    if not low <= value <= high:
        raise ValueError(say("{what} must be from {low} to {high}, not {value}", what=name,
                             low=f"{low:,}", high=f"{high:,}", value=value))
    return int(value)


class CoinFlipExplorer(_Offline, _Refusals, anywidget.AnyWidget):
    """The warm-up: flip until heads, many times; the running average against ``1/p``.

    The page shows a slider for ``p`` and number boxes for the trials and the seed (each named,
    all from the keyboard), the running average with its 95% band and the line ``1/p`` as a
    picture with its description, the readout, and a polite announcement of the new average after
    each change.

    Parameters
    ----------
    p : float, default 0.5
        The probability of heads, ``0 < p <= 1``.
    n_trials : int, default 1000
        The number of waits (runs of flips until heads), 1 to :data:`MAX_TRIALS`.
    seed : int, default 0
        The random seed, 0 to :data:`MAX_SEED`; the same seed gives the same waits.

    Attributes
    ----------
    p, n_trials, seed
        The state, shared with the page (a control there sets them; setting one here redraws it).
    flips : numpy.ndarray
        The library's waits for the current state (:func:`~chutes_edu.flips_until_heads`).
    last_error : str
        The last refusal of a value set here, "" if none.

    Raises
    ------
    ValueError
        If an argument is out of range, with the library's words for ``p``.

    Examples
    --------
    >>> explorer = CoinFlipExplorer(p=0.2, n_trials=5000, seed=1)
    >>> explorer.summary()["exact"]
    5.0
    """

    offline_summary = ("Waiting for heads: flip a coin until heads and watch the average "
                       "number of flips")

    _esm = FRONT_END.module_path
    _css = FRONT_END.style_path

    p = traitlets.Float(0.5, help="The probability of heads.").tag(sync=True)
    n_trials = traitlets.Int(1000, help="The number of waits.").tag(sync=True)
    seed = traitlets.Int(0, help="The random seed.").tag(sync=True)
    language = traitlets.Unicode("en", help="The language of the page's words.").tag(sync=True)

    def __init__(self, p: float = 0.5, n_trials: int = 1000, seed: int = 0,
                 **kwargs: Any) -> None:
        _probability(p)                           # the library's own check of p, in its words
        _whole(n_trials, "n_trials", 1, MAX_TRIALS)
        _whole(seed, "seed", 0, MAX_SEED)
        self.last_error = ""
        self.offline_summary = gettext(type(self).offline_summary)
        kwargs.setdefault("language", language())
        super().__init__(p=float(p), n_trials=int(n_trials), seed=int(seed), **kwargs)

    @traitlets.validate("p")
    def _valid_p(self, proposal: Any) -> float:
        return self._checked(lambda: _probability(proposal["value"]))

    @traitlets.validate("n_trials")
    def _valid_trials(self, proposal: Any) -> int:
        return self._checked(lambda: _whole(proposal["value"], "n_trials", 1, MAX_TRIALS))

    @traitlets.validate("seed")
    def _valid_seed(self, proposal: Any) -> int:
        return self._checked(lambda: _whole(proposal["value"], "seed", 0, MAX_SEED))

    @property
    def flips(self) -> np.ndarray:
        """The library's waits for ``p``, ``n_trials`` and ``seed``
        (:func:`~chutes_edu.flips_until_heads`)."""
        return flips_until_heads(self.p, self.n_trials, seed=self.seed)

    def summary(self) -> dict[str, float]:
        """The library's numbers for the current state: the average wait of :attr:`flips`, its
        95% half-width (:func:`~chutes_edu.running_mean`) and the exact answer ``1/p``.

        Returns
        -------
        dict
            ``{"mean", "half_width", "exact", "n_trials"}``.
        """
        mean, half = running_mean(self.flips)
        return {"mean": float(mean[-1]), "half_width": float(half[-1]),
                "exact": expected_flips(self.p), "n_trials": float(self.n_trials)}
