r"""RaceExplorer: 2 to 6 players on any squares, who wins, seat by seat, computed in the page.

Players move in seat order, seat 1 first; tokens do not interact, so the turns :math:`T_i` that
player :math:`i` needs from their square are independent, each distributed as the game length
from that square (:func:`~chutes_edu.turn_distribution`). Player :math:`i` wins if they finish on
turn :math:`k` while every earlier seat needs more than :math:`k` turns and every later seat at
least :math:`k` (Noordenbos):

.. math:: \Pr(i \text{ wins}) = \sum_{k \ge 0} \Pr(T_i = k)
          \prod_{j < i} \Pr(T_j > k) \prod_{j > i} \Pr(T_j \ge k)

(:func:`~chutes_edu.win_probabilities`).

The explorer is an anywidget whose front end (``js/explorers/race_explorer/race_explorer.js``,
bundled with the modules it imports by esbuild (``npm run build``)) computes in the page with
``js/maths/race_math.js``, the library's maths in JavaScript held equal to it by
``tests/js/race_math.test.mjs``, and draws the bars and the board with the seats' tokens there
(their descriptions the library's, the board's held equal to :func:`~chutes_edu.draw_board`'s by
``tests/js/race_board.test.mjs``): so it runs live in JupyterLab, in Voila and on the course website
alike, with no kernel behind the page. Python holds the state (the board as ``board_json``, the
players' squares as ``positions``, synced both ways and checked by the library) and gives a reader
in the kernel the numbers through the library (:attr:`RaceExplorer.probabilities`).

The explorer speaks the student's language (:mod:`chutes_edu.i18n`): its ``language`` trait, set
when it is made, tells the page which catalog to read its words from (``js/core/i18n.js``).
"""

from __future__ import annotations

from typing import Any

import anywidget
import numpy as np
import traitlets

from ..board import Board, _on_board, board_to_json
from ..boards import MILTON_BRADLEY_1943
from ..i18n import language, say
from ..markov import win_probabilities
from ._base import _FixedBoard, _Offline, _Refusals
from ._front_end import front_end

__all__ = ["FRONT_END",
           "RaceExplorer", "MIN_PLAYERS",
           "MAX_PLAYERS"]

MIN_PLAYERS = 2
"""The fewest players of the explorer (``MIN_PLAYERS`` of maths/race_math.js)."""

MAX_PLAYERS = 6
"""The most players of the explorer (``MAX_PLAYERS`` of maths/race_math.js)."""

FRONT_END = front_end("race_explorer")
"""The explorer's front end as esbuild builds it (:mod:`chutes_edu.widgets._front_end`):
its ES module is the widget's ``_esm``, its stylesheet the ``_css``; the course website loads
it with every other front end as one script."""


def _positions(board: Board, value: Any) -> list[int]:
    """The players' squares checked on ``board`` (the library's words), 2 to 6 of them."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        raise ValueError(say("positions must be a list of squares, not {value}", value=repr(value)))
    if not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        raise ValueError(say("a race has {low} to {high} players, not {count}", low=MIN_PLAYERS,
                             high=MAX_PLAYERS, count=len(value)))
    return [_on_board(board, square, say("position of player {player}", player=i))
            for i, square in enumerate(value)]


class _Players:
    """The number of players, as the slider that set it before: ``value``, ``min``, ``max``."""

    min = MIN_PLAYERS
    max = MAX_PLAYERS

    def __init__(self, explorer: RaceExplorer) -> None:
        self._explorer = explorer

    @property
    def value(self) -> int:
        return len(self._explorer.positions)

    @value.setter
    def value(self, players: int) -> None:
        self._explorer._set_players(players)


class _Seat:
    """One player's square, as the slider that set it before: ``value``, ``min``, ``max``."""

    min = 0

    def __init__(self, explorer: RaceExplorer, seat: int) -> None:
        self._explorer = explorer
        self._seat = seat
        self.max = explorer.board.size

    @property
    def value(self) -> int:
        return int(self._explorer.positions[self._seat])

    @value.setter
    def value(self, square: int) -> None:
        squares = list(self._explorer.positions)
        squares[self._seat] = square
        self._explorer.positions = squares


class RaceExplorer(_Offline, _Refusals, _FixedBoard, anywidget.AnyWidget):
    """A race of 2 to 6 players on any squares: each seat's chance of winning (seat 1 moves first).

    The page shows a slider for the number of players and one per seat for its square (each
    named, all from the keyboard), the readout, the chances as a bar chart and, beside it, the
    board with a numbered token per seat (``js/explorers/race_explorer/board.js``: what
    :func:`~chutes_edu.draw_board` draws with ``tokens``), each with its description in the
    library's words, and a polite announcement of the chances after each change.

    Parameters
    ----------
    board : Board, default MILTON_BRADLEY_1943
        The board (with no traps: the library's race does not model them).
    players : int, default 2
        The initial number of players (2..6; outside, the nearest), all on square 0.

    Attributes
    ----------
    board : Board
        The board.
    board_json, board_name, positions
        The state shared with the page: the board in the editor's JSON form, its name, and the
        players' squares in seat order (a control there sets ``positions``; setting it here
        redraws the page).
    players : object with ``value``, ``min``, ``max``
        The number of players (2..6); setting ``players.value`` seats or unseats players, a
        returning seat on the square it had.
    squares : list of objects with ``value``, ``min``, ``max``
        One per player (``len(squares) == players.value``): its square, in seat order.
    probabilities : numpy.ndarray
        The library's chances for the current state (:func:`~chutes_edu.win_probabilities`).
    last_error : str
        The last refusal of a value set here, "" if none.

    Raises
    ------
    ValueError
        For a board with traps, in the library's words.

    Examples
    --------
    >>> race = RaceExplorer(players=3)
    >>> race.squares[2].value = 30
    >>> race.positions
    [0, 0, 30]
    """

    offline_summary = ("Race explorer: put the players anywhere and see who is most likely to "
                       "win")

    _esm = FRONT_END.module_path
    _css = FRONT_END.style_path

    board_json = traitlets.Dict(help="The board in the editor's JSON form.").tag(sync=True)
    board_name = traitlets.Unicode("", help="The board's name.").tag(sync=True)
    language = traitlets.Unicode("en", help="The language of the page's words.").tag(sync=True)
    positions = traitlets.List(traitlets.Int(), [0, 0],
                               help="The players' squares, in seat order.").tag(sync=True)

    def __init__(self, board: Board = MILTON_BRADLEY_1943, players: int = 2,
                 **kwargs: Any) -> None:
        if not isinstance(board, Board):
            raise ValueError(say("board must be a Board, not {kind}", kind=type(board).__name__))
        count = min(max(int(players), MIN_PLAYERS), MAX_PLAYERS)
        win_probabilities(board, [0])             # the library's refusal of a board with traps
        self.board = board
        self.last_error = ""
        self._pool = [0] * MAX_PLAYERS
        kwargs.setdefault("language", language())
        super().__init__(board_json=board_to_json(board), board_name=board.name or "",
                         positions=[0] * count, **kwargs)
        self.players = _Players(self)

    @traitlets.validate("positions")
    def _valid_positions(self, proposal: Any) -> list[int]:
        squares = self._checked(lambda: _positions(self.board, proposal["value"]))
        self._pool[: len(squares)] = squares
        return squares

    def _set_players(self, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
            raise ValueError(say("players must be a whole number, not {value}",
                                 value=repr(players)))
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(say("a race has {low} to {high} players, not {count}", low=MIN_PLAYERS,
                                 high=MAX_PLAYERS, count=players))
        self.positions = self._pool[: int(players)]

    @property
    def squares(self) -> list[_Seat]:
        """One object per player whose ``value`` is its square (setting it moves the player)."""
        return [_Seat(self, i) for i in range(len(self.positions))]

    @property
    def probabilities(self) -> np.ndarray:
        """The library's chances of each seat for the current squares
        (:func:`~chutes_edu.win_probabilities`)."""
        return win_probabilities(self.board, self.positions)
