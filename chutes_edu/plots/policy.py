"""The aiming game's pictures: the board with each square's value and aimed target, and the
value/target profile along the board (:mod:`chutes_edu.control` computes what they show)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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

from .. import control
from ..board import Board
from ..i18n import say
from ._style import _PAINTER, SMALL_TEXT, _legend_below, _sticky
from .alt_text import _set_alt, describe
from .board import _NumberLayer, draw_board, square_center

_POLICY_GID = "policy targets"


def _targets(board: Board, policy: Any) -> np.ndarray:
    targets = np.asarray(policy).ravel()
    if targets.size != board.size:
        raise ValueError(say("a policy needs one target for each square 0..{last}, got {count}",
                             last=board.size - 1, count=targets.size))
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
