"""SimulationExplorer: Monte Carlo games converging to the exact expected length, and the bias of a
turn cap."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import numpy as np

from ..board import Board
from ..boards import MILTON_BRADLEY_1943
from ..markov import (
    expected_turns,
)
from ..plots._style import _PAINTER
from ..plots.charts import (
    plot_convergence,
)
from ..simulation import capped_mean, running_mean, simulate
from ._base import _Explorer, _FigureView
from .controls import IntSlider


class SimulationExplorer(_Explorer):
    """Monte Carlo games converging to the exact expected length; the bias of a turn cap.

    Parameters
    ----------
    board : Board, default MILTON_BRADLEY_1943
        The board to simulate.
    n_games : int, default 10_000
        The initial number of games.

    Attributes
    ----------
    n_games : ipywidgets.BoundedIntText
    cap : chutes_edu.widgets.controls.IntSlider (a labelled native slider)
        Count every game as at most this many turns (0 = no cap; up to 300), to show the bias.
    seed : ipywidgets.IntText
    run : ipywidgets.Button
        Calls :meth:`run_simulation`.
    progress : ipywidgets.IntProgress
        Games played so far, in percent, while a simulation runs.
    readout, message : ipywidgets.HTML
    image : chutes_edu.widgets.controls.Picture (a PNG with its alt text)
    turns : numpy.ndarray
        The game lengths of the last run.
    """

    offline_summary = ("Simulation explorer: play many games and watch the running mean "
                       "approach the exact value")

    def __init__(self, board: Board = MILTON_BRADLEY_1943, n_games: int = 10_000,
                 seed: int = 0) -> None:
        super().__init__()
        self.add_class("chutes-simulation-explorer")
        self.board = board
        wide = {"description_width": "initial"}
        self.n_games = widgets.BoundedIntText(value=n_games, min=1, max=5_000_000, step=1000,
                                              description="games to play", style=wide,
                                              layout=widgets.Layout(width="240px"))
        self.cap = IntSlider(0, 0, 300, description="cap on a game's length (0: no cap)",
                             unit="turns")
        self.cap.add_class("chutes-cap")
        self.seed = widgets.IntText(value=seed, description="random seed", style=wide,
                                    layout=widgets.Layout(width="200px"))
        self.run = widgets.Button(description="run", icon="play", button_style="primary",
                                  tooltip="play the games")
        self.progress = widgets.IntProgress(value=0, min=0, max=100, description="played",
                                            style=wide, layout=widgets.Layout(width="300px"))
        self.readout = widgets.HTML("")
        self.readout.add_class("chutes-readout")
        self._painter: Any = None
        self.view = _FigureView((544, 336), dynamic=lambda: (self._painter.dynamic_artists()
                                                            if self._painter else []),
                                css="chutes-simulation-image")
        self.image = self.view.image
        self._ax = self.view.figure.add_subplot()
        self.turns: np.ndarray = np.zeros(0, dtype=np.int64)
        self.exact = float(expected_turns(board)[0])
        self.run.on_click(self._handler(lambda _: self.run_simulation()))
        self._observe(self.cap, self._redraw)
        self.run_simulation()
        self.children = [
            widgets.HTML(f"<b>Simulation</b> on {board.name or 'the board'}: play many games "
                         "and watch the average settle on the exact answer."),
            widgets.HBox([self.n_games, self.seed]), widgets.HBox([self.run, self.progress]),
            self.cap, self.readout, self.message, self.image, self.live]

    def run_simulation(self) -> np.ndarray:
        """Play ``n_games`` games (in chunks, moving the progress bar) and redraw.

        Returns
        -------
        numpy.ndarray
            The game lengths (also kept as ``turns``).
        """
        total = self.n_games.value
        rng = np.random.default_rng(self.seed.value)
        chunk = max(20_000, -(-total // 20))     # up to 20 steps of the progress bar
        pieces: list[np.ndarray] = []
        done = 0
        self.progress.value = 0
        self.progress.bar_style = ""
        while done < total:
            k = min(chunk, total - done)
            pieces.append(simulate(self.board, k, seed=rng))
            done += k
            self.progress.value = done * 100 // total
        self.progress.bar_style = "success"
        self.turns = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)
        self._redraw()
        return self.turns

    def _redraw(self) -> None:
        if self.turns.size == 0:
            return
        cap = self.cap.value or None
        mean, half = running_mean(self.turns)
        band = f" &plusmn; {half[-1]:.3f}" if np.isfinite(half[-1]) else ""
        text = (f"mean of {self.turns.size:,} games: <b>{mean[-1]:.4f}</b>{band} turns (95%); "
                f"exact: <b>{self.exact:.4f}</b> turns")
        if cap is not None:
            capped = capped_mean(self.turns, cap)
            text += (f"<br>capped at {cap} turns: <b>{capped:.4f}</b> turns, off by "
                     f"<b>{capped - self.exact:+.4f}</b> turns "
                     f"({int((self.turns > cap).sum()):,} games cut short)")
        if self._painter is None:
            plot_convergence(self.turns, self.exact, ax=self._ax, cap=cap,
                             title="Monte Carlo convergence", legend_values=False)
            self._painter = getattr(self._ax, _PAINTER)
        changed = self._painter.update(self.turns, self.exact, cap=cap, sticky=True)
        self.view.render(full=changed, relayout=self._painter.relayout or None)
        self._clear_error()
        self._announce(f"Mean of {self.turns.size:,} games {mean[-1]:.2f} turns, exact "
                       f"{self.exact:.2f}" + ("" if cap is None else
                                              f"; capped at {cap} turns {capped:.2f}"))
        self.readout.value = text
