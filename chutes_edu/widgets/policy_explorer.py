"""PolicyExplorer: aim each move; sliders for the aim's accuracy and the discount factor, the values
and the best targets redrawn on the board."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import numpy as np

from .. import control
from ..board import Board
from ..boards import AIMING_GAME_2021
from ..plots.policy import _PolicyPainter
from ._base import _escape, _FigureView, _Offline


class PolicyExplorer(_Offline, widgets.VBox):
    """Sliders for the aim and the discount factor; the value map and policy redraw.

    The aim: ``exact`` is the chance of moving exactly the target; the rest is split between one
    short and one too far, ``lean`` of it going too far (0.5: evenly, as in LosAlfajores (2021)).

    Parameters
    ----------
    board : Board, default AIMING_GAME_2021
        The board (by default the one of LosAlfajores (2021)).

    Attributes
    ----------
    exact, lean, discount : ipywidgets.FloatSlider
        The controls; set ``.value`` to change them from code.
    readout : ipywidgets.HTML
        Sweeps, the value of square 0, and the expected turns of the resulting policy next to the
        fewest possible.
    message : ipywidgets.HTML
        Empty, or why the current settings cannot be solved.
    image : ipywidgets.Image
        The board with values and targets, and the value/target profile (PNG, shown at its own
        pixel size).
    result : chutes_edu.control.ValueIterationResult or None
        The last solution.
    """

    offline_summary = ("Aiming explorer: set how accurately the token moves and see the best "
                       "target from every square")

    def __init__(self, board: Board = AIMING_GAME_2021) -> None:
        if not isinstance(board, Board):
            raise ValueError(f"PolicyExplorer needs a Board, not {type(board).__name__}")
        self.board = board
        style = {"description_width": "130px"}
        layout = widgets.Layout(width="420px")
        self.exact = widgets.FloatSlider(value=0.5, min=0.0, max=1.0, step=0.05,
                                         description="P(exact move)", readout_format=".2f",
                                         continuous_update=False, style=style, layout=layout)
        self.lean = widgets.FloatSlider(value=0.5, min=0.0, max=1.0, step=0.05,
                                        description="misses too far", readout_format=".2f",
                                        continuous_update=False, style=style, layout=layout)
        self.discount = widgets.FloatSlider(value=0.9, min=0.1, max=0.99, step=0.01,
                                            description="discount γ", readout_format=".2f",
                                            continuous_update=False, style=style, layout=layout)
        for slider, css in ((self.exact, "chutes-exact"), (self.lean, "chutes-lean"),
                            (self.discount, "chutes-discount")):
            slider.add_class(css)
        self.readout = widgets.HTML()
        self.readout.add_class("chutes-readout")
        self.message = widgets.HTML()
        self.message.add_class("chutes-message")
        self._painter: _PolicyPainter | None = None
        self.view = _FigureView((960, 448), css="chutes-policy-image",
                                dynamic=lambda: (self._painter.dynamic_artists()
                                                 if self._painter else []))
        self.image = self.view.image
        self.result: control.ValueIterationResult | None = None
        for slider in (self.exact, self.lean, self.discount):
            slider.observe(self._redraw, names="value")
        super().__init__([widgets.HBox([self.exact, self.lean]), self.discount, self.readout,
                          self.message, self.image])
        self.add_class("chutes-policy-explorer")
        self._redraw()

    @property
    def accuracy(self) -> tuple[float, float, float]:
        """(under, exact, over) from the sliders."""
        miss = 1.0 - self.exact.value
        return (miss * (1.0 - self.lean.value), self.exact.value, miss * self.lean.value)

    def _redraw(self, change: Any = None) -> None:
        accuracy = self.accuracy
        gamma = self.discount.value
        try:
            result = control.value_iteration(self.board, accuracy, discount=gamma)
            turns = control.policy_expected_turns(self.board, result.policy, accuracy)
            best = control.optimal_policy(self.board, accuracy)
        except (ValueError, RuntimeError) as err:
            self.message.value = f"<span style='color:#D55E00'>⚠ {_escape(str(err))}</span>"
            self.readout.value = ""
            return
        self.message.value = ""
        self.result = result
        if self._painter is None:
            self._painter = _PolicyPainter(self.view.figure, self.board, result, best)
        changed = self._painter.update(result, best)
        self.view.render(full=changed)
        under, exact, over = accuracy
        differ = int(np.sum(result.policy != best.policy))
        self.readout.value = (
            f"aim: one short {under:.3f}, exact {exact:.3f}, one too far {over:.3f}<br>"
            f"value iteration: <b>{result.iterations}</b> sweeps; value of square 0: "
            f"<b>{result.values[0]:.4g}</b> "
            f"(≈ {result.reward:g} × E[γ<sup>T</sup>], T = turns to finish)<br>"
            f"this policy takes <b>{_turns(turns[0])}</b> turns on average from square 0; "
            f"the fewest possible is <b>{_turns(best.expected_turns[0])}</b> "
            f"(targets differ on {differ} squares)")


def _turns(x: float) -> str:
    return "never finishes" if not np.isfinite(x) else f"{x:.3f}"
