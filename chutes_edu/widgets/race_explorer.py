"""RaceExplorer: 2 to 6 players on any squares, who wins, seat by seat."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import numpy as np

from ..board import Board
from ..boards import MILTON_BRADLEY_1943
from ..markov import (
    win_probabilities,
)
from ..plots._style import _PAINTER
from ..plots.board import draw_board
from ..plots.charts import (
    plot_win_probabilities,
)
from ._base import _Explorer, _FigureView
from .controls import IntSlider


class RaceExplorer(_Explorer):
    """A race of 2 to 6 players on any squares: each seat's chance of winning (seat 1 moves first).

    Parameters
    ----------
    board : Board, default MILTON_BRADLEY_1943
        The board.
    players : int, default 2
        The initial number of players.

    Attributes
    ----------
    players : chutes_edu.widgets.controls.IntSlider (a labelled native slider)
        The number of players (2..6).
    squares : list of chutes_edu.widgets.controls.IntSlider
        One slider per player (``len(squares) == players.value``), their squares in seat order.
    readout, message : ipywidgets.HTML
    probabilities : numpy.ndarray
        The last result of :func:`~chutes_edu.win_probabilities`.
    image, board_image : chutes_edu.widgets.controls.Picture (a PNG with its alt text)
        The bars and the board with the tokens.
    """

    offline_summary = ("Race explorer: put the players anywhere and see who is most likely to "
                       "win")

    def __init__(self, board: Board = MILTON_BRADLEY_1943, players: int = 2) -> None:
        super().__init__()
        self.add_class("chutes-race-explorer")
        self.board = board
        self._pool = [IntSlider(0, 0, board.size - 1, description=f"seat {i + 1} starts on square")
                      for i in range(6)]
        for i, slider in enumerate(self._pool):
            slider.add_class(f"chutes-player-{i + 1}")
        self.players = IntSlider(min(max(players, 2), 6), 2, 6, description="players",
                                 unit="players")
        self.players.add_class("chutes-players")
        self.squares: list[IntSlider] = []
        self.readout = widgets.HTML("")
        self.readout.add_class("chutes-readout")
        self.probabilities = np.zeros(0)
        self._bars: Any = None
        self.view = _FigureView((448, 320), dynamic=lambda: (self._bars.dynamic_artists()
                                                            if self._bars else []),
                                css="chutes-race-image")
        self.image = self.view.image
        self._bar_ax = self.view.figure.add_subplot()
        self.board_view = _FigureView((448, 496), dynamic=lambda: list(self._tokens.tokens),
                                      css="chutes-race-board-image")
        self.board_image = self.board_view.image
        draw_board(board, ax=self.board_view.figure.add_subplot(), tokens=[0] * 6,
                   title=board.name or None)
        self._tokens = getattr(self.board_view.figure.axes[0], _PAINTER)
        self.board_view.render()          # lay out room for the legend of six players, once
        self._box = widgets.VBox()
        for slider in self._pool:
            self._observe(slider, self._refresh)
        self._observe(self.players, self._on_players)
        self._on_players()
        self.children = [
            widgets.HTML("<b>Race</b>: put the players anywhere; who is most likely to win? "
                         "Seat 1 moves first."),
            self.players, self._box, self.readout, self.message,
            widgets.HBox([self.image, self.board_image],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start")),
            self.live]

    def _on_players(self) -> None:
        self.squares = self._pool[: self.players.value]
        self._box.children = tuple(self.squares)
        self._refresh()

    def _refresh(self) -> None:
        positions = [s.value for s in self.squares]
        self.probabilities = win_probabilities(self.board, positions)
        if self._bars is None:
            plot_win_probabilities(self.probabilities, ax=self._bar_ax)
            self._bars = getattr(self._bar_ax, _PAINTER)
        ymax = self._bars.ymax
        self._bars.update(self.probabilities, sticky=True)
        # one background per number of players; a new probability scale redraws them all
        self.view.render(full=self._bars.ymax != ymax, relayout=False, key=len(positions))
        self._tokens.set_tokens(positions)
        self.board_view.render(key=len(positions))          # the legend lists the players
        self._clear_error()
        best = int(np.argmax(self.probabilities))
        self._announce("Chance to win: " + ", ".join(
            f"seat {i + 1} {p:.1%}" for i, p in enumerate(self.probabilities)))
        self.readout.value = ("<br>".join(f"seat {i + 1} (square {s}): <b>{p:.4f}</b>"
                                          for i, (s, p) in
                                          enumerate(zip(positions, self.probabilities,
                                                        strict=True)))
                              + f"<br>favourite: seat {best + 1}")
