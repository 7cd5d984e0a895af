"""PolicyExplorer: aim each move; sliders for the aim's accuracy and the discount factor, the values
and the best targets redrawn on the board."""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from .. import control
from ..board import Board
from ..boards import AIMING_GAME_2021
from ..plots.policy import _PolicyPainter
from ._base import _Explorer, _FigureView
from .controls import FloatSlider


class PolicyExplorer(_Explorer):
    """Sliders for the aim and the discount factor; the value map and policy redraw.

    The aim: ``exact`` is the chance of moving exactly the target; the rest is split between one
    short and one too far, ``lean`` of it going too far (0.5: evenly, as in LosAlfajores (2021)).

    Parameters
    ----------
    board : Board, default AIMING_GAME_2021
        The board (by default the one of LosAlfajores (2021)).

    Attributes
    ----------
    exact, lean, discount : chutes_edu.widgets.controls.FloatSlider (a labelled native slider)
        The controls; set ``.value`` to change them from code.
    readout : ipywidgets.HTML
        Sweeps, the value of square 0, and the expected turns of the resulting policy next to the
        fewest possible.
    message : ipywidgets.HTML
        Empty, or why the current settings cannot be solved.
    image : chutes_edu.widgets.controls.Picture (a PNG with its alt text)
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
        super().__init__()
        self.board = board
        self.exact = FloatSlider(0.5, 0.0, 1.0, 0.05, description="P(exact move), the chance of "
                                 "moving exactly the target", continuous_update=False)
        self.lean = FloatSlider(0.5, 0.0, 1.0, 0.05, description="share of misses that go too "
                                "far", continuous_update=False)
        self.discount = FloatSlider(0.9, 0.1, 0.99, 0.01, description="discount factor γ",
                                    continuous_update=False)
        for slider, css in ((self.exact, "chutes-exact"), (self.lean, "chutes-lean"),
                            (self.discount, "chutes-discount")):
            slider.add_class(css)
        self.readout = widgets.HTML()
        self.readout.add_class("chutes-readout")
        self._painter: _PolicyPainter | None = None
        self.view = _FigureView((960, 448), css="chutes-policy-image",
                                dynamic=lambda: (self._painter.dynamic_artists()
                                                 if self._painter else []))
        self.image = self.view.image
        self.result: control.ValueIterationResult | None = None
        for slider in (self.exact, self.lean, self.discount):
            self._observe(slider, self._redraw)
        self.children = [self.exact, self.lean, self.discount, self.readout, self.message,
                         self.image, self.live]
        self.add_class("chutes-policy-explorer")
        self._redraw()

    @property
    def accuracy(self) -> tuple[float, float, float]:
        """(under, exact, over) from the sliders."""
        miss = 1.0 - self.exact.value
        return (miss * (1.0 - self.lean.value), self.exact.value, miss * self.lean.value)

    def _redraw(self) -> None:
        accuracy = self.accuracy
        gamma = self.discount.value
        try:
            result = control.value_iteration(self.board, accuracy, discount=gamma)
            turns = control.policy_expected_turns(self.board, result.policy, accuracy)
            best = control.optimal_policy(self.board, accuracy)
        except (ValueError, RuntimeError) as err:
            self._show_error(str(err))
            self.readout.value = ""
            return
        self._clear_error()
        self.result = result
        if self._painter is None:
            self._painter = _PolicyPainter(self.view.figure, self.board, result, best)
        changed = self._painter.update(result, best)
        self.view.render(full=changed)
        under, exact, over = accuracy
        differ = int(np.sum(result.policy != best.policy))
        self._announce(f"This policy takes {_turns(turns[0])} turns on average; the fewest "
                       f"possible is {_turns(best.expected_turns[0])}; targets differ on "
                       f"{differ} squares")
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
