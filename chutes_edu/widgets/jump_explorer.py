"""JumpExplorer: add one ladder or chute anywhere and see how the expected game length changes; the
surprising jumps (a ladder that lengthens the game, a chute that shortens it) are flagged."""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np
from matplotlib import patheffects

from ..board import Board
from ..boards import MILTON_BRADLEY_1943
from ..markov import (
    expected_turns,
    jump_effects,
)
from ..plots.alt_text import _set_alt, description
from ..plots.charts import (
    plot_jump_effects,
    surprising_jumps,
)
from ._base import _Explorer, _FigureView
from .controls import SelectionSlider


def _title(board: Board) -> str:
    """The heat map's title in the explorer."""
    return f"Adding one jump a -> b to {board.name or 'the board'}"


def _nearest(allowed: np.ndarray, a: int, b: int) -> tuple[int, int]:
    """The allowed jump nearest to ``a -> b`` (first the source, then the destination from it; a
    square above the one asked for wins a tie)."""
    sources = np.flatnonzero(allowed.any(axis=1))
    a = int(sources[np.argmin(np.abs(sources - a) + 0.5 * (sources < a))])
    targets = np.flatnonzero(allowed[a])
    return a, int(targets[np.argmin(np.abs(targets - b) + 0.5 * (targets < b))])


def _skipped(size: int, min_length: int) -> str:
    """The line under the sliders: which jumps they skip, and why."""
    text = (f"The sliders skip the jumps the rules refuse: none starts on 0, "
            f"{size} or an end of a jump already there, none ends where one starts")
    if min_length > 1:
        text += f", none is shorter than {min_length} squares"
    return f"{text}."


def _words(effects: np.ndarray, baseline: float, a: int, b: int) -> tuple[str, str]:
    """The readout and the announcement for the jump ``a -> b``."""
    new = float(effects[a, b])
    kind = "ladder" if b > a else "chute"
    change = new - baseline
    surprise = bool(surprising_jumps(effects, baseline)[a, b])
    # A change that rounds to nothing is said so, never with the sign of its rounding noise.
    shown = f"{change:+.4f}".replace("-0.0000", "+0.0000")
    text = (f"Adding the {kind} {a} \u2192 {b}: expected turns {new:.4f} "
            f"(board: {baseline:.4f}), change {shown} turns.")
    if surprise:
        text += f" Surprise! This {kind} makes the game {'longer' if b > a else 'shorter'}."
    size = f"{abs(change):.1f}"
    than = ("about as long as now" if size == "0.0" else
            f"{size} {'more' if change > 0 else 'fewer'} than now")
    said = (f"The {kind} {a} to {b}: expected length {new:.1f} turns, {than}"
            + (". A surprise." if surprise else ""))
    return text, said


class JumpExplorer(_Explorer):
    """Add one ladder or chute anywhere: the heat map of every choice and a closer look at one.

    The sliders offer only the jumps the board allows (the finite entries of
    :func:`~chutes_edu.jump_effects`): their arrow keys step from one allowed square to the next,
    and a line under them says which squares are left out and why.

    Parameters
    ----------
    board : Board, default MILTON_BRADLEY_1943
        The board to add a jump to.
    min_length : int, default 1
        Only jumps at least this long (passed to :func:`~chutes_edu.jump_effects`).

    Attributes
    ----------
    jump_from, jump_to : chutes_edu.widgets.controls.SelectionSlider (a labelled native slider)
        The source ``a`` and destination ``b`` of the added jump (``.value`` is the square). The
        options of ``jump_from`` are the squares where some jump may start; those of ``jump_to``
        the allowed destinations from ``jump_from.value``. Both start on the allowed jump nearest
        to the surprising ladder 27 -> 29 of Hochman's paper.
    readout, message : ipywidgets.HTML
        The new expected turns and the change; "surprise" when a ladder lengthens the game or a
        chute shortens it. ``message`` stays empty (no refused jump can be picked).
    note : ipywidgets.HTML
        One line: which squares the sliders skip, and why.
    effects : numpy.ndarray
        ``jump_effects(board, min_length)``.
    baseline : float
        The board's own expected turns.
    image : chutes_edu.widgets.controls.Picture (a PNG with its alt text)
    """

    offline_summary = ("Jump explorer: add a ladder or chute anywhere and see how the "
                       "expected length changes")

    def __init__(self, board: Board = MILTON_BRADLEY_1943, min_length: int = 1) -> None:
        super().__init__()
        self.add_class("chutes-jump-explorer")
        self.board = board
        self.min_length = min_length
        self.effects = jump_effects(board, min_length)
        self.baseline = float(expected_turns(board)[0])
        self._surprise = surprising_jumps(self.effects, self.baseline)
        self._allowed = np.isfinite(self.effects)
        sources = [int(a) for a in np.flatnonzero(self._allowed.any(axis=1))]
        if not sources:
            raise ValueError(f"no jump of at least min_length={min_length} squares can be added "
                             f"to {board.name or 'this board'}")
        a, b = self._nearest(27, 29)
        self.jump_from = SelectionSlider([(f"square {s}", s) for s in sources], value=a,
                                         description="new jump from square a")
        self.jump_to = SelectionSlider(self._destinations(a), value=b,
                                       description="to square b")
        self.jump_from.add_class("chutes-jump-from")
        self.jump_to.add_class("chutes-jump-to")
        self.note = widgets.HTML(self._skipped())
        self.note.add_class("chutes-note")
        self.readout = widgets.HTML("")
        self.readout.add_class("chutes-readout")
        self.view = _FigureView((544, 512), dynamic=lambda: [self._marker],
                                css="chutes-jump-image")
        self.image = self.view.image
        ax = self.view.figure.add_subplot()
        plot_jump_effects(self.effects, self.baseline, ax=ax,
                          title=f"Adding one jump a -> b to {board.name or 'the board'}")
        self._marker, = ax.plot([], [], ls="none", marker="s", ms=12, mfc="none", mec="black",
                                mew=2.0, label="your jump",
                                path_effects=[patheffects.withStroke(linewidth=4,
                                                                     foreground="white")])
        effects_text = description(ax)
        _set_alt(ax, lambda: (f"{effects_text} The square outlined in black is your jump "
                              f"{self.jump_from.value} -> {self.jump_to.value}: expected turns "
                              f"{self.effects[self.jump_from.value, self.jump_to.value]:.4f}."))
        self._observe(self.jump_from, self._on_source)
        self._observe(self.jump_to, self._refresh)
        self._refresh(full=True)
        self.children = [
            widgets.HTML("<b>Add a ladder or chute</b>: colour shows how the expected game "
                         f"length ({self.baseline:.4f} turns now) changes; hatched squares are "
                         "surprises."),
            self.jump_from, self.jump_to, self.note, self.readout, self.message, self.image,
            self.live]

    def _destinations(self, a: int) -> list[tuple[str, int]]:
        return [(f"square {b}", int(b)) for b in np.flatnonzero(self._allowed[a])]

    def _nearest(self, a: int, b: int) -> tuple[int, int]:
        return _nearest(self._allowed, a, b)

    def _skipped(self) -> str:
        return f"<small>{_skipped(self.board.size, self.min_length)}</small>"

    def _on_source(self) -> None:
        a = self.jump_from.value
        _, b = self._nearest(a, self.jump_to.value)
        with self._sync():                       # new destinations, keeping b when allowed
            self.jump_to.options = self._destinations(a)
            self.jump_to.value = b
        self._refresh()

    def _refresh(self, full: bool = False) -> None:
        a, b = self.jump_from.value, self.jump_to.value
        self._marker.set_data([b], [a])
        self.view.render(full=full)
        new = float(self.effects[a, b])
        kind = "ladder" if b > a else "chute"
        change = new - self.baseline
        text = (f"Adding the {kind} {a} \u2192 {b}: expected turns <b>{new:.4f}</b> "
                f"(board: {self.baseline:.4f}), change <b>{change:+.4f}</b> turns.")
        if self._surprise[a, b]:
            what = "longer" if kind == "ladder" else "shorter"
            text += (f' <span style="color:#b35806"><b>Surprise!</b> This {kind} makes '
                     f"the game {what}.</span>")
        self._clear_error()
        self._announce(f"The {kind} {a} to {b}: expected length {new:.1f} turns, "
                       f"{abs(change):.1f} {'more' if change > 0 else 'fewer'} than now"
                       + (". A surprise." if self._surprise[a, b] else ""))
        self.readout.value = text
