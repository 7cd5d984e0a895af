"""Pictures and a widget for the aimed game of :mod:`chutes_edu.control` (lesson 10).

- :func:`draw_policy`: a board with a value map as a heat map and each square's target written on
  it (built on :func:`chutes_edu.plots.draw_board`).
- :func:`plot_policy_profile`: the two plots of LosAlfajores (2021), value and target along the
  squares, with the fewest-turns targets for comparison.
- :class:`PolicyExplorer`: sliders for the aim's accuracy and the discount factor that redraw the
  value map and the policy. It only wires controls to :mod:`chutes_edu.control`; it computes
  nothing itself.

Every picture is described in words (alt text, see :func:`chutes_edu.plots.describe`), from what
it draws: the board's description, then the range of targets, then the profile's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets
import matplotlib.patheffects as patheffects
import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.path import Path
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D

from . import control
from .board import Board
from .boards import AIMING_GAME_2021
from .plots import (
    _PAINTER,
    SMALL_TEXT,
    _legend_below,
    _set_alt,
    _sticky,
    describe,
    draw_board,
    square_center,
)
from .widgets import _FigureView, _NumberLayer, _Offline

__all__ = ["draw_policy", "plot_policy_profile", "PolicyExplorer"]

_POLICY_GID = "policy targets"


def _targets(board: Board, policy: Any) -> np.ndarray:
    targets = np.asarray(policy).ravel()
    if targets.size != board.size:
        raise ValueError(f"a policy needs one target for each square 0..{board.size - 1}, "
                         f"got {targets.size}")
    return targets


def _targets_alt(board: Board, targets: Any) -> str:
    """The targets of a policy in words: their range, and where none is written."""
    shown = [int(t) for s, t in enumerate(targets) if s not in board.jumps]
    if not shown:
        return ""
    return (f" The bold number on each square is the target the policy aims at there, from "
            f"{min(shown)} to {max(shown)} (none at the foot of a ladder or chute).")


def _profile_alt(values: Any, policy: Any, compare: Any, compare_label: str) -> str:
    """The value and target profile in words."""
    v = np.asarray(values, dtype=float)
    finite = v[np.isfinite(v)]
    span = (f", from {finite.min():.3g} to {finite.max():.3g}" if finite.size else "")
    text = (f"Along the board, squares 0 to {v.size - 1}: the value of each square (top, solid "
            f"line{span}) and the target aimed at on each square (bottom, steps, "
            f"from {int(np.min(policy))} to {int(np.max(policy))})")
    if compare is not None:
        differ = int(np.sum(np.asarray(policy) != np.asarray(compare)))
        text += (f"; open circles show the targets of the {compare_label} policy, which "
                 f"differ on {differ} square{'' if differ == 1 else 's'}")
    return text + "."


def draw_policy(board: Board, policy: Sequence[int] | np.ndarray, values: Any = None, *,
                ax: Axes | None = None, label: str = "value", title: str | None = None,
                cmap: str = "viridis") -> Axes:
    """Draw a board with a value map and, on each square, the target a policy aims at.

    Parameters
    ----------
    board : Board
        The board.
    policy : sequence of int
        One target per square ``0..size-1`` (e.g. ``value_iteration(...).policy``). Squares at
        the foot of a jump get no number: play never rests there.
    values : array_like, optional
        A value per square for the heat map (length ``size + 1`` or ``size``); none if omitted.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure if None.
    label : str, default "value"
        The colour bar label.
    title : str, optional
        Defaults to the board's name.
    cmap : str, default "viridis"
        The colour map of the values.

    Returns
    -------
    matplotlib.axes.Axes
        The board of :func:`~chutes_edu.plots.draw_board`, plus one text per target
        (gid ``"policy targets"``). Described (see :func:`~chutes_edu.plots.describe`) as the
        board, then the range of its targets.
    """
    targets = _targets(board, policy)
    ax = draw_board(board, values, ax=ax, label=label, title=title, cmap=cmap)
    stroke = [patheffects.withStroke(linewidth=2.2, foreground="white")]
    feet = set(board.jumps)
    fontsize = SMALL_TEXT
    for s, t in enumerate(targets):
        if s in feet:
            continue
        x, y = square_center(s, board.size)
        ax.text(x + 0.12, y - 0.18, str(int(t)), ha="center", va="center", fontsize=fontsize,
                fontweight="bold", color="black", path_effects=stroke, zorder=5, gid=_POLICY_GID)
    painter = getattr(ax, _PAINTER)
    targets_text = _targets_alt(board, targets)
    _set_alt(ax, lambda: painter.alt_text() + targets_text)
    return ax


def plot_policy_profile(values: Any, policy: Sequence[int] | np.ndarray,
                        compare: Sequence[int] | np.ndarray | None = None, *,
                        axes: Sequence[Axes] | None = None,
                        compare_label: str = "fewest turns") -> Sequence[Axes]:
    """The view of LosAlfajores (2021): the value of each square (top) and the target chosen there
    (bottom).

    Parameters
    ----------
    values : array_like
        Values of squares ``0..size``.
    policy : sequence of int
        Targets on squares ``0..size-1``.
    compare : sequence of int, optional
        Another policy drawn as open markers, e.g. ``optimal_policy(...).policy``.
    axes : pair of matplotlib.axes.Axes, optional
        Where to draw; a new figure with two panels if None.
    compare_label : str, default "fewest turns"
        The legend label of ``compare``.

    Returns
    -------
    (value_axes, target_axes)
        The value axes carry the description of both panels (see
        :func:`~chutes_edu.plots.describe`).
    """
    if axes is None:
        import matplotlib.pyplot as plt
        _, axes = plt.subplots(2, 1, figsize=(8, 5), sharex=True, layout="constrained")
    top, bottom = axes
    v = np.asarray(values, dtype=float)
    top.plot(np.arange(v.size), v, color="#0072B2", lw=1.5)
    top.set_ylabel("value")
    squares = np.arange(len(policy))
    bottom.step(squares, policy, where="mid", color="#D55E00", lw=1.3, label="this policy")
    if compare is not None:
        bottom.plot(squares, compare, ls="none", marker="o", ms=3.5, mfc="none", mec="0.2",
                    label=compare_label)
    bottom.set_ylabel("target")
    bottom.set_xlabel("square")
    if compare is not None:                   # under the panel: it never covers the steps
        _legend_below(bottom, bottom.get_lines(), ncol=2)
    bottom.set_yticks(range(1, int(np.max(policy)) + 1))
    describe(top, _profile_alt(v, policy, compare, compare_label))
    return top, bottom


class _PolicyPainter:
    """The explorer's one figure: the value map with targets (left), value and target along the
    board (right); ``update`` changes the data in place and reports when the axes changed."""

    def __init__(self, figure: Figure, board: Board, result: control.ValueIterationResult,
                 best: Any) -> None:
        self.board = board
        grid = figure.add_gridspec(2, 2, width_ratios=[1.15, 1])
        self.board_ax = figure.add_subplot(grid[:, 0])
        draw_policy(board, result.policy, result.values, ax=self.board_ax,
                    label=f"value of the square (reward {result.reward:g}, discounted)",
                    title="value map and targets (number = target)")
        self.cells = getattr(self.board_ax, _PAINTER)
        self._numbers = _NumberLayer(self.cells)
        # draw_policy's targets are Text artists with a halo; a hundred of them take 150 ms to
        # draw. Here they become glyph outlines in two collections (halo, digits), like the
        # square numbers: one draw call each.
        texts = [t for t in self.board_ax.texts if t.get_gid() == _POLICY_GID]
        self.squares = [s for s in range(board.size) if s not in board.jumps]
        self._font = FontProperties(size=texts[0].get_fontsize(), weight="bold")
        anchors = [text.get_position() for text in texts]
        self._glyphs: dict[int, Path] = {}
        for text in texts:
            text.remove()
        # glyphs in points, placed at their squares (as a scatter plot places its markers)
        points = Affine2D().scale(figure.dpi / 72.0)
        self.halo = PathCollection([], facecolors="none", edgecolors="white", linewidths=2.2,
                                   joinstyle="round", zorder=5, offsets=anchors,
                                   offset_transform=self.board_ax.transData, transform=points,
                                   gid=_POLICY_GID)
        self.targets = PathCollection([], facecolors="black", edgecolors="none", zorder=5.1,
                                      offsets=anchors, offset_transform=self.board_ax.transData,
                                      transform=points, gid=_POLICY_GID)
        self.board_ax.add_collection(self.halo, autolim=False)
        self.board_ax.add_collection(self.targets, autolim=False)
        self.top = figure.add_subplot(grid[0, 1])
        self.bottom = figure.add_subplot(grid[1, 1], sharex=self.top)
        plot_policy_profile(result.values, result.policy, best.policy,
                            axes=(self.top, self.bottom))
        self.value_line, = self.top.get_lines()
        self.policy_line, self.compare_line = self.bottom.get_lines()[:2]
        faces = max(int(np.max(result.policy)), int(np.max(best.policy)), board.faces)
        self.bottom.set_yticks(range(1, faces + 1))
        self.bottom.set_ylim(0.5, faces + 0.5)
        self.ymax: float | None = None
        self.top.set_title("along the board")
        self.result, self.best = result, best
        _set_alt(self.board_ax, lambda: (self.cells.alt_text()
                                         + _targets_alt(self.board, self.result.policy)))
        _set_alt(self.top, lambda: _profile_alt(self.result.values, self.result.policy,
                                                self.best.policy, "fewest turns"))

    def update(self, result: control.ValueIterationResult, best: Any) -> bool:
        """Show ``result`` and the fewest-turns policy ``best``; True if a scale changed."""
        self.result, self.best = result, best
        changed = bool(self.cells.set_values(result.values, sticky=True))
        paths = [self._glyph(int(result.policy[s])) for s in self.squares]
        self.halo.set_paths(paths)
        self.targets.set_paths(paths)
        self.board_ax.set_title(f"value map and targets (number = target), "
                                f"discount {result.discount:.2f}")
        self.value_line.set_ydata(np.asarray(result.values, dtype=float))
        self.policy_line.set_ydata(result.policy)
        self.compare_line.set_ydata(best.policy)
        ymax = _sticky(self.ymax, float(np.max(result.values)) * 1.05, True)
        if ymax != self.ymax:
            self.ymax = ymax
            self.top.set_ylim(0, ymax)
            changed = True
        return changed

    def _glyph(self, target: int) -> Path:
        """The outline of ``target`` in points, centred on (0, 0) (cached)."""
        if target not in self._glyphs:
            path = TextPath((0, 0), str(target), prop=self._font)
            (x0, y0), (x1, y1) = path.get_extents().get_points()
            self._glyphs[target] = Affine2D().translate(-(x0 + x1) / 2,
                                                        -(y0 + y1) / 2).transform_path(path)
        return self._glyphs[target]

    def dynamic_artists(self) -> list[Artist]:
        """What a slider changes; the rest is a fixed background. The square numbers are one
        cached picture (a :class:`~chutes_edu.widgets._NumberLayer`), drawn after the arrows."""
        board = [self._numbers if a is self.cells.halo else a
                 for a in self.cells.dynamic_artists() if a is not self.cells.numbers]
        return [self.board_ax.title, *board, self.halo, self.targets,
                self.value_line, self.policy_line, self.compare_line]


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


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
