r"""SimulationExplorer: Monte Carlo games converging to the exact expected length, and the bias of a
turn cap, played and drawn in the page.

After :math:`k` games of lengths :math:`T_1, \dots, T_k` the running mean is
:math:`\bar T_k = (T_1 + \dots + T_k)/k`, with the 95% band
:math:`\bar T_k \pm 1.96\, s_k/\sqrt k` (:func:`~chutes_edu.running_mean`); by the law of large
numbers it settles on the exact :math:`E[T]` (:func:`~chutes_edu.expected_turns`). A loop that
stops every game after ``cap`` turns reports the mean of :math:`\min(T_i, \mathrm{cap})`, which
settles on :math:`E[\min(T, \mathrm{cap})] < E[T]` however many games are played
(:func:`~chutes_edu.capped_mean`): the bias of a cap.

The explorer is an anywidget whose front end
(``js/explorers/simulation_explorer/simulation_explorer.js``, bundled with the modules it imports by
esbuild (``npm run build``)) plays the games with its own seeded generator, a few milliseconds at a
time, and computes in the page with ``js/maths/simulation_math.js`` (held to the library by
``tests/js/simulation_math.test.mjs``): so it runs live in JupyterLab, in Voila and on the course
website alike, with no kernel behind the page. Python holds the state (the board as ``board_json``,
``n_games``, ``seed`` and ``cap``, synced both ways and checked here) and gives a reader in the
kernel the numbers through the library (:attr:`SimulationExplorer.turns`,
:meth:`SimulationExplorer.summary`): numpy's games for the same arguments, a different sample of the
same game than the page's.

The explorer speaks the student's language (:mod:`chutes_edu.i18n`): its ``language`` trait, set
when it is made, tells the page which catalog to read its words from (``js/core/i18n.js``).
"""

from __future__ import annotations

from typing import Any

import anywidget
import numpy as np
import traitlets

from ..board import Board, board_to_json
from ..boards import MILTON_BRADLEY_1943
from ..i18n import language, say
from ..markov import expected_turns
from ..simulation import capped_mean, running_mean, simulate
from ._base import _FixedBoard, _Offline, _Refusals
from ._front_end import front_end
from .coin_explorer import _whole

__all__ = ["FRONT_END",
           "SimulationExplorer", "MAX_GAMES",
           "MAX_SEED", "MAX_CAP"]

MAX_GAMES = 1_000_000
"""The most games the explorer plays (``MAX_GAMES`` of maths/simulation_math.js)."""

MAX_SEED = 2**32 - 1
"""The largest seed (``MAX_SEED`` of maths/coin_math.js): seeds are whole numbers from 0 to
2^32 - 1."""

MAX_CAP = 300
"""The longest turn cap the explorer offers (``MAX_CAP`` of
explorers/simulation_explorer/simulation_explorer.js); 0 is none."""

FRONT_END = front_end("simulation_explorer")
"""The explorer's front end as esbuild builds it (:mod:`chutes_edu.widgets._front_end`):
its ES module is the widget's ``_esm``, its stylesheet the ``_css``; the course website loads
it with every other front end as one script."""


_LIMITS = {"games": ("n_games", 1, MAX_GAMES), "random_seed": ("seed", 0, MAX_SEED),
           "turn_cap": ("cap", 0, MAX_CAP)}
"""Each shared number's trait -> its name in words and its least and largest values."""


class _Setting:
    """One of the state's numbers, as the control that set it before: ``value``, ``min``,
    ``max`` (setting ``value`` sets the shared trait, checked)."""

    def __init__(self, explorer: SimulationExplorer, trait: str) -> None:
        self._explorer = explorer
        self._trait = trait
        _, self.min, self.max = _LIMITS[trait]

    @property
    def value(self) -> int:
        return int(getattr(self._explorer, self._trait))

    @value.setter
    def value(self, value: int) -> None:
        setattr(self._explorer, self._trait, value)


class _Run:
    """The run button, as before: ``click()`` plays the games (:meth:`run_simulation`)."""

    description = "run"

    def __init__(self, explorer: SimulationExplorer) -> None:
        self._explorer = explorer

    def click(self) -> None:
        self._explorer.run_simulation()


class SimulationExplorer(_Offline, _Refusals, _FixedBoard, anywidget.AnyWidget):
    """Monte Carlo games converging to the exact expected length; the bias of a turn cap.

    The page shows number boxes for the games and the seed, a run button (each press draws a new
    seed, shows it in the seed box and plays new games; typing a seed plays its games again) and
    a progress bar, a slider for the cap (each named, all from the keyboard), the readout, the
    running mean with its 95% band against the exact value (and, with a cap, the capped mean) as
    a picture with its description, and a polite announcement of the new mean after each change.
    It plays the games itself, a few milliseconds at a time: 10^5 games never hold the page.

    Parameters
    ----------
    board : Board, default MILTON_BRADLEY_1943
        The board to simulate.
    n_games : int, default 10_000
        The number of games, 1 to :data:`MAX_GAMES`.
    seed : int, default 0
        The random seed, 0 to :data:`MAX_SEED`; the same seed plays the same games.

    Attributes
    ----------
    board : Board
        The board.
    board_json, board_name, games, random_seed, turn_cap
        The state shared with the page: the board in the editor's JSON form, its name, the
        number of games, the seed and the cap on a game's length in turns (0: no cap; up to
        :data:`MAX_CAP`). A control there sets them; setting one here redraws the page (new
        games or a new seed play the games anew; a new cap redraws the games played).
    n_games, seed, cap : objects with ``value``, ``min``, ``max``
        The same three numbers, as the controls that set them before.
    run : object with ``click()``
        Calls :meth:`run_simulation`.
    exact : float
        The library's expected number of turns from square 0 (:func:`~chutes_edu.expected_turns`).
    turns : numpy.ndarray
        The library's game lengths for the current state (:func:`~chutes_edu.simulate`).
    last_error : str
        The last refusal of a value set here, "" if none.

    Raises
    ------
    ValueError
        If ``board`` is not a Board or a number is out of range.

    Examples
    --------
    >>> explorer = SimulationExplorer(n_games=2000)
    >>> round(explorer.exact, 4)
    39.2251
    >>> explorer.cap.value = 60
    >>> explorer.summary()["capped"] < explorer.exact
    True
    """

    offline_summary = ("Simulation explorer: play many games and watch the running mean "
                       "approach the exact value")

    _esm = FRONT_END.module_path
    _css = FRONT_END.style_path

    board_json = traitlets.Dict(help="The board in the editor's JSON form.").tag(sync=True)
    board_name = traitlets.Unicode("", help="The board's name.").tag(sync=True)
    language = traitlets.Unicode("en", help="The language of the page's words.").tag(sync=True)
    games = traitlets.Int(10_000, help="The number of games.").tag(sync=True)
    random_seed = traitlets.Int(0, help="The random seed.").tag(sync=True)
    turn_cap = traitlets.Int(0, help="The cap on a game's length (0: no cap).").tag(sync=True)

    def __init__(self, board: Board = MILTON_BRADLEY_1943, n_games: int = 10_000,
                 seed: int = 0, **kwargs: Any) -> None:
        if not isinstance(board, Board):
            raise ValueError(say("board must be a Board, not {kind}", kind=type(board).__name__))
        _whole(n_games, "n_games", 1, MAX_GAMES)
        _whole(seed, "seed", 0, MAX_SEED)
        self.board = board
        self.exact = float(expected_turns(board)[0])
        self.last_error = ""
        self._played: tuple[int, int, np.ndarray] | None = None
        kwargs.setdefault("language", language())
        super().__init__(board_json=board_to_json(board), board_name=board.name or "",
                         games=int(n_games), random_seed=int(seed), **kwargs)
        self.n_games = _Setting(self, "games")
        self.seed = _Setting(self, "random_seed")
        self.cap = _Setting(self, "turn_cap")
        self.run = _Run(self)

    @traitlets.validate("games", "random_seed", "turn_cap")
    def _valid_number(self, proposal: Any) -> int:
        name, low, high = _LIMITS[proposal["trait"].name]
        return self._checked(lambda: _whole(proposal["value"], name, low, high))

    @property
    def turns(self) -> np.ndarray:
        """The library's game lengths for ``n_games`` and ``seed``
        (:func:`~chutes_edu.simulate`; kept until either changes)."""
        if self._played is None or self._played[:2] != (self.games, self.random_seed):
            lengths = simulate(self.board, self.games, seed=self.random_seed)
            self._played = (self.games, self.random_seed, lengths)
        return self._played[2]

    def run_simulation(self) -> np.ndarray:
        """Play ``n_games`` games with ``seed`` through the library (the page plays its own).

        Returns
        -------
        numpy.ndarray
            The game lengths (also :attr:`turns`); the same seed plays the same games.
        """
        return self.turns

    def summary(self) -> dict[str, float]:
        """The library's numbers for the current state: the mean of :attr:`turns`, its 95%
        half-width (:func:`~chutes_edu.running_mean`), the exact answer, and, with a cap, the
        capped mean (:func:`~chutes_edu.capped_mean`) and the games it cuts short.

        Returns
        -------
        dict
            ``{"mean", "half_width", "exact", "n_games"}``, with ``"capped"`` and ``"cut"`` when
            ``cap.value`` is not 0.
        """
        turns = self.turns
        mean, half = running_mean(turns)
        out = {"mean": float(mean[-1]), "half_width": float(half[-1]), "exact": self.exact,
               "n_games": float(turns.size)}
        if self.turn_cap:
            out["capped"] = capped_mean(turns, self.turn_cap)
            out["cut"] = float((turns > self.turn_cap).sum())
        return out
