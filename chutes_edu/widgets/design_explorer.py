"""A widget to design a board: pick a goal and a search, press the button, see what it found.

:class:`DesignExplorer` only wires controls to :func:`~chutes_edu.design.design_board` (which does
the search and the exact confirmation) and to the pictures (:func:`~chutes_edu.draw_board` for the
designed board, :func:`~chutes_edu.plots.plot_design` for the game lengths before and after).
Nothing is computed here. An invalid choice (a negative target, seven seats, an exhaustive search
too big for the budget, ...) shows the library's one-line ``ValueError`` message, no traceback,
and keeps the last design on screen.
"""

from __future__ import annotations

import ipywidgets as widgets

from ..board import Board
from ..boards import MILTON_BRADLEY_1943
from ..design import (
    METHODS,
    Design,
    FairestRace,
    Goal,
    LongestGame,
    ShortestGame,
    SmallestSpread,
    TargetLength,
    design_board,
)
from ..markov import expected_turns, turn_distribution
from ..plots import draw_board, plot_design, plot_distribution
from ._base import _escape, _Explorer, _FigureView
from .controls import IntSlider

__all__ = ["DesignExplorer"]

_GOALS = (("a target length", "target"), ("the shortest game", "short"),
          ("the longest game", "long"), ("the smallest spread", "spread"),
          ("the fairest race", "race"))
_PARAMETER = {"target": ("target turns", 25.0), "spread": ("mean (turns)", None),
              "race": ("seats", 2.0)}


class DesignExplorer(_Explorer):
    """Design a board to a goal: the goal, its parameter, the most jumps, the search; a button.

    Parameters
    ----------
    board : Board, default MILTON_BRADLEY_1943
        The board to add jumps to (its rules are kept).

    Attributes
    ----------
    goal : ipywidgets.Dropdown
        ``"target"``, ``"short"``, ``"long"``, ``"spread"`` or ``"race"``.
    parameter : ipywidgets.FloatText
        The target length in turns, the mean for the smallest spread (the board's own to begin
        with), or the number of seats; disabled for the shortest and longest game.
    tolerance : ipywidgets.FloatText
        How far the mean may stray, for the smallest spread.
    max_jumps : chutes_edu.widgets.controls.IntSlider (a labelled native slider)
        The most jumps to add (1..4).
    method : ipywidgets.ToggleButtons
        ``"auto"``, ``"exhaustive"``, ``"greedy"`` or ``"local search"``.
    run : ipywidgets.Button
        Runs the search (``run.click()`` in tests).
    steps, readout, message : ipywidgets.HTML
        The search's steps; the result (:meth:`Design.summary`); the last error, or empty.
    design : Design or None
        The last design found.
    board_image, comparison_image : chutes_edu.widgets.controls.Picture (a PNG with its alt text)
        The designed board, and the game lengths before and after.
    """

    offline_summary = ("Design explorer: choose a goal and let a search add ladders and "
                       "chutes to the board")

    def __init__(self, board: Board = MILTON_BRADLEY_1943) -> None:
        super().__init__()
        self.add_class("chutes-design-explorer")
        if not isinstance(board, Board):
            raise ValueError(f"DesignExplorer needs a Board, not {type(board).__name__}")
        self.board = board
        self.design: Design | None = None
        self._mean = float(expected_turns(board)[0])
        wide = {"description_width": "initial"}          # labels never cut short
        self.goal = widgets.Dropdown(options=list(_GOALS), value="target", description="goal",
                                     style=wide)
        self.parameter = widgets.FloatText(value=25.0, description="target turns", style=wide,
                                           layout=widgets.Layout(width="240px"))
        self.tolerance = widgets.FloatText(value=1.0, description="± turns", disabled=True,
                                           style=wide, layout=widgets.Layout(width="200px"))
        self.max_jumps = IntSlider(2, 1, 4, description="most jumps to add", unit="jumps")
        self.method = widgets.ToggleButtons(options=list(METHODS), value="auto",
                                            description="search", style={**wide,
                                                                         "button_width": "auto"})
        self.run = widgets.Button(description="Design", button_style="primary",
                                  tooltip="search for the best jumps to add")
        self.run.add_class("chutes-design-run")
        self.steps = widgets.HTML("")
        self.readout = widgets.HTML("")
        self.readout.add_class("chutes-readout")
        self.board_view = _FigureView((448, 480), css="chutes-design-board-image")
        self.board_image = self.board_view.image
        self.comparison_view = _FigureView((480, 360), css="chutes-design-comparison-image")
        self.comparison_image = self.comparison_view.image
        draw_board(board, ax=self.board_view.figure.add_subplot(),
                   title=board.name or "the board")
        self.board_view.render()
        # Before the first search, the starting board's game length: the picture a design is
        # compared with (and never an empty picture without a description).
        plot_distribution(turn_distribution(board), ax=self.comparison_view.figure.add_subplot(),
                          cumulative=False, title="Before a design: the starting board")
        self.comparison_view.render()
        self._observe(self.goal, self._on_goal)
        self.run.on_click(self._handler(lambda _button: self._design()))
        self.children = [
            widgets.HTML("<b>Design a board</b>: choose a goal and press <i>Design</i>. The "
                         "search adds ladders and chutes; exhaustive search proves its answer "
                         "best, greedy and local search are quick but can miss it."),
            self.goal, widgets.HBox([self.parameter, self.tolerance]), self.max_jumps,
            self.method, self.run, self.message, self.readout, self.steps,
            widgets.HBox([self.board_image, self.comparison_image],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start")),
            self.live]

    def _on_goal(self) -> None:
        label, default = _PARAMETER.get(self.goal.value, ("(no parameter)", None))
        with self._sync():
            self.parameter.description = label
            self.parameter.disabled = self.goal.value in ("short", "long")
            self.tolerance.disabled = self.goal.value != "spread"
            if self.goal.value == "spread":
                self.parameter.value = round(self._mean, 2)
            elif default is not None:
                self.parameter.value = default
        self._clear_error()

    def _make_goal(self) -> Goal:
        kind, x = self.goal.value, self.parameter.value
        if kind == "target":
            return TargetLength(x)
        if kind == "spread":
            return SmallestSpread(x, self.tolerance.value)
        if kind == "race":
            return FairestRace(int(x) if float(x).is_integer() else x)
        return ShortestGame() if kind == "short" else LongestGame()

    def _design(self) -> None:
        design = design_board(self.board, self._make_goal(), max_jumps=self.max_jumps.value,
                              method=self.method.value)
        self.design = design
        self._clear_error()
        self.readout.value = "<br>".join(_escape(line) for line in design.summary().split("\n"))
        quantity = design.goal.quantity
        self.steps.value = ("<b>Steps</b><ol>" + "".join(
            f"<li>{_escape(s.action)}: {quantity} {s.value:.4f}"
            + ("" if quantity == "expected turns" else f", expected turns {s.mean:.4f}")
            + "</li>" for s in design.steps) + "</ol>")
        self._redraw(design)
        added = ", ".join(f"{a} to {b}" for a, b in design.added) or "no jumps"
        self._announce(f"Designed: adds {added}; {quantity} {design.original_value:.4g} to "
                       f"{design.value:.4g}" + ("; proven best" if design.proven_optimal else ""))

    def _redraw(self, design: Design) -> None:
        for view in (self.board_view, self.comparison_view):
            view.figure.clear()
        added = ", ".join(f"{a}->{b}" for a, b in design.added) or "no jumps"
        draw_board(design.board, ax=self.board_view.figure.add_subplot(),
                   title=f"Designed: added {added}")
        plot_design(design, ax=self.comparison_view.figure.add_subplot())
        self.board_view.render(full=True, relayout=True)
        self.comparison_view.render(full=True, relayout=True)
