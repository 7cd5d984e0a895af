r"""The course's charts: game lengths, Monte Carlo convergence, added jumps, races.

Each reads its summaries straight off what it is given: for a game-length distribution
:math:`p_k = \Pr(T = k)` the mean :math:`\sum_k k\,p_k`, the median (the first :math:`k` with
:math:`\Pr(T \le k) \ge 1/2`) and the mode (:math:`\arg\max_k p_k`); for a running mean
:math:`\bar T_k` the band :math:`\bar T_k \pm z\,s_k/\sqrt k` from
:func:`~chutes_edu.simulation.running_mean`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import matplotlib.colors as mcolors
import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import PolyCollection
from matplotlib.patches import Patch

from ..design import Design
from ..i18n import say
from ..markov import surprising_jumps, turn_distribution
from ..simulation import running_mean
from ._style import (
    _PAINTER,
    HATCHES,
    SMALL_TEXT,
    TOKEN_COLORS,
    _count,
    _legend_below,
    _log_indices,
    _new_axes,
    _sticky,
    _titled,
)
from .alt_text import _set_alt, describe


class _DistributionPainter:
    def __init__(self, ax: Axes, cumulative: bool) -> None:
        self.ax = ax
        self.bars = ax.stairs([0.0], [0.5, 1.5], fill=True, color="#56B4E9", alpha=0.85,
                              label="P(T = k)")
        self.edge, = ax.plot([], [], color="#0072B2", lw=0.8, drawstyle="steps-mid")
        self.mean = ax.axvline(0, color="black", lw=1.6, ls="-")
        self.median = ax.axvline(0, color="black", lw=1.4, ls="--")
        self.mode = ax.axvline(0, color="black", lw=1.4, ls=":")
        self.twin = None
        self.cdf = None
        if cumulative:
            self.twin = ax.twinx()
            self.cdf, = self.twin.plot([], [], color="#D55E00", lw=1.8, ls="-.",
                                       label="P(T ≤ k)")
            self.twin.set_ylim(0, 1.02)
            self.twin.set_ylabel("cumulative probability P(T ≤ k)", color="#D55E00")
        ax.set_xlabel("game length k (turns)")
        ax.set_ylabel("probability P(T = k)")
        self.mean.set_label("mean")
        self.median.set_label("median")
        self.mode.set_label("mode")
        handles = [self.bars] + ([self.cdf] if self.cdf else []) + [self.mean, self.median,
                                                                    self.mode]
        # The legend never changes; the values sit in one text box below it (cheaper to redraw).
        legend_ax = self.twin or ax
        legend_ax.legend(handles=handles, loc="center right", bbox_to_anchor=(1.0, 0.6),
                         fontsize=SMALL_TEXT, framealpha=0.9).set_zorder(5)
        self.summary = legend_ax.text(0.985, 0.33, "", transform=ax.transAxes, ha="right",
                                      va="top", ma="left", fontsize=SMALL_TEXT, zorder=5,
                                      gid="summary",
                                      bbox={"boxstyle": "round", "facecolor": "white",
                                            "edgecolor": "0.8", "alpha": 0.9})
        self.frame: tuple[float, float] | None = None
        self.sticky_ok = False
        self.stats: tuple[float, int, int, float] = (np.nan, 0, 0, 0.0)

    def alt_text(self) -> str:
        """The picture in words: what the bars and the line show, the mean, median and mode."""
        mean, median, mode, xmax = self.stats
        text = _titled(self.ax.get_title() or "Distribution of the game length T",
                       "bars show the probability P(T = k) that a game takes k turns")
        if self.cdf is not None:
            text += ", the dash-dotted line the cumulative probability P(T ≤ k)"
        return (text + f", for k up to {xmax:.0f}; mean {mean:.2f} turns (solid line), median "
                f"{median} turns (dashed), mode {mode} turns (dotted).")

    def update(self, pmf: Any, xmax: float | None = None, *, sticky: bool = False) -> bool:
        """Show ``pmf``; return True if the axes limits changed."""
        p = np.asarray(pmf, dtype=float).ravel()
        if p.size == 0 or not np.all(np.isfinite(p)) or (p < 0).any():
            raise ValueError(say("pmf must be a non-empty array of probabilities"))
        k = np.arange(p.size)
        cdf = np.cumsum(p)
        mean = float(k @ p / p.sum())
        median = int(np.searchsorted(cdf, 0.5 * cdf[-1]))
        mode = int(np.argmax(p))
        self.bars.set_data(p, np.arange(p.size + 1) - 0.5)
        self.edge.set_data(k, p)
        for line, x in ((self.mean, mean), (self.median, median), (self.mode, mode)):
            line.set_xdata([x, x])
        self.summary.set_text(f"mean {mean:.2f} turns\nmedian {median} turns\n"
                              f"mode {mode} turns")
        if self.cdf is not None:
            self.cdf.set_data(k, cdf)
        if xmax is None:
            needed = max(float(np.searchsorted(cdf, 0.999 * cdf[-1])) * 1.05 + 1, 5.0)
            xmax = _sticky(self.frame[0] if self.frame and self.sticky_ok else None, needed,
                           sticky)
        ymax = _sticky(self.frame[1] if self.frame and self.sticky_ok else None,
                       float(p.max()) * 1.08 or 1.0, sticky)
        self.sticky_ok = sticky
        frame = (float(xmax), ymax)
        self.stats = (mean, median, mode, frame[0])
        if frame == self.frame:
            return False
        self.frame = frame
        self.ax.set_xlim(-0.5, frame[0])
        self.ax.set_ylim(0, frame[1])
        return True

    def dynamic_artists(self) -> list[Any]:
        parts = [self.bars, self.edge, self.mean, self.median, self.mode]
        return parts + ([self.cdf] if self.cdf else []) + [*self.ax.spines.values(), self.summary]


def plot_distribution(pmf: Any, *, ax: Axes | None = None, cumulative: bool = True,
                      title: str | None = None, xmax: float | None = None) -> Axes:
    """Plot a game-length distribution: the pmf as bars, the cdf on a twin axis, and the mean,
    median and mode marked.

    Parameters
    ----------
    pmf : array_like
        ``pmf[k] = P(T = k)``, e.g. from :func:`~chutes_edu.turn_distribution`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure if None.
    cumulative : bool, default True
        Also draw :math:`P(T \\le k)` on a twin y-axis (``ax.right_ax``-style: see Returns).
    title : str, optional
        Defaults to "Game length distribution".
    xmax : float, optional
        The right end of the x-axis; by default just past the 99.9th percentile.

    Returns
    -------
    matplotlib.axes.Axes
        The pmf axes. The mean (solid), median (dashed) and mode (dotted) are vertical lines,
        their values in a text box (gid ``"summary"``); the cdf line lives on the twin axes that
        share its x-axis. Described (see :func:`describe`) with the mean, median and mode.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from chutes_edu import MILTON_BRADLEY_1943, turn_distribution, plot_distribution
    >>> ax = plot_distribution(turn_distribution(MILTON_BRADLEY_1943))
    >>> ax.get_xlabel()
    'game length k (turns)'
    """
    if ax is None:
        ax = _new_axes((7.0, 4.0))
    painter = _DistributionPainter(ax, cumulative)
    painter.update(pmf, xmax)
    ax.set_title("Game length distribution" if title is None else title)
    setattr(ax, _PAINTER, painter)
    _set_alt(ax, painter.alt_text)
    return ax


class _ConvergencePainter:
    def __init__(self, ax: Axes, *, unit: str, what: str, legend_values: bool = True) -> None:
        self.ax, self.unit, self.what = ax, unit, what
        self.legend_values = legend_values
        self.relayout = True          # after an update: True if the legend needs a new layout
        self.line, = ax.plot([], [], color="#0072B2", lw=1.6, label="running mean", zorder=3)
        self.band: Any = None
        self.exact = ax.axhline(np.nan, color="black", lw=1.4, ls="--", label="exact", zorder=4)
        self.capped, = ax.plot([], [], color="#D55E00", lw=1.6, ls="-.", label="capped",
                               zorder=3)
        ax.set_xscale("log")
        ax.set_xlabel(f"number of {what} (log scale)")
        ax.set_ylabel(f"mean so far ({unit})")
        ax.grid(True, which="major", alpha=0.3)
        self.legend: Any = None
        self.frame: tuple[float, float, float] | None = None
        self.summary = ""

    def alt_text(self) -> str:
        """The picture in words: the number of samples, where the running mean ends, the lines."""
        return _titled(self.ax.get_title(), self.summary)

    def update(self, turns: Any, exact: float | None = None, *, z: float = 1.96,
               cap: int | None = None, exact_label: str | None = None,
               sticky: bool = False) -> bool:
        """Show the running mean of ``turns``; return True if the axes limits changed."""
        x = np.asarray(turns, dtype=float).ravel()
        if x.size == 0:
            raise ValueError(say("plot_convergence needs at least one sample"))
        mean, half = running_mean(x, z=z)
        half = np.where(np.isfinite(half), half, np.nan)
        # On a log axis a few thousand log-spaced points look the same as a million.
        idx = _log_indices(x.size)
        k = idx + 1
        mean, half = mean[idx], half[idx]
        self.line.set_data(k, mean)
        if self.band is not None:
            self.band.remove()
        conf = math.erf(z / math.sqrt(2))
        summary = (f"the running mean of {x.size:,} {self.what} (log x-axis, solid line) with "
                   f"its {100 * conf:.0f}% confidence band ends at {mean[-1]:.3f} {self.unit}")
        self.band = self.ax.fill_between(k, mean - half, mean + half, color="#56B4E9", alpha=0.35,
                                         lw=0, label=f"{100 * conf:.0f}% confidence band",
                                         zorder=2)
        handles: list[Any] = [self.line, self.band]
        first = int(np.searchsorted(k, min(x.size, 10)))
        parts = [mean[first:]]
        if exact is not None and np.isfinite(exact):
            self.exact.set_ydata([exact, exact])
            default = f"exact {exact:.4f} {self.unit}" if self.legend_values else "exact value"
            self.exact.set_label(exact_label or default)
            self.exact.set_visible(True)
            handles.append(self.exact)
            parts.append(np.array([exact]))
            summary += f"; the dashed line is the exact value {exact:.4f} {self.unit}"
        else:
            self.exact.set_visible(False)
        if cap is not None:
            cmean = running_mean(np.minimum(x, cap), z=z)[0][idx]
            self.capped.set_data(k, cmean)
            self.capped.set_label(f"capped at {cap}: {cmean[-1]:.2f} {self.unit}"
                                  if self.legend_values else "mean with the turn cap")
            self.capped.set_visible(True)
            handles.append(self.capped)
            parts.append(cmean[first:])
            summary += (f"; with each capped at {cap} {self.unit} (dash-dotted line) the mean "
                        f"ends at {cmean[-1]:.3f} {self.unit}")
        else:
            self.capped.set_visible(False)
        self.summary = summary + "."
        # y range: the curves after the first ten samples, and the band once it has settled
        start = int(np.searchsorted(k, min(x.size, max(10, x.size // 50))))
        band = np.concatenate([(mean - half)[start:], (mean + half)[start:]])
        vals = np.concatenate([*parts, band[np.isfinite(band)]])
        lo, hi = float(np.nanmin(vals)), float(np.nanmax(vals))
        pad = 0.08 * (hi - lo) or 0.5
        lo, hi = lo - pad, hi + pad
        if (sticky and self.frame is not None and self.frame[2] == x.size
                and self.frame[0] <= lo and hi <= self.frame[1]
                and hi - lo >= 0.5 * (self.frame[1] - self.frame[0])):
            lo, hi = self.frame[0], self.frame[1]
        # Below the axes, two columns: the legend never covers the converged end of the curves.
        # A new number of rows needs a new layout; a new entry in the same rows does not.
        labels = [h.get_label() for h in handles]
        old = [] if self.legend is None else [t.get_text() for t in self.legend.get_texts()]
        self.relayout = self.legend is None or (len(old) + 1) // 2 != (len(labels) + 1) // 2
        if labels != old:
            if self.legend is not None:
                self.legend.remove()
            self.legend = _legend_below(self.ax, handles, ncol=2)
        frame = (lo, hi, float(x.size))
        if frame == self.frame and labels == old:
            return False
        self.frame = frame
        self.ax.set_ylim(lo, hi)
        self.ax.set_xlim(1, max(10, x.size))
        return True

    def dynamic_artists(self) -> list[Any]:
        """The curves; the legend (outside the axes) is background, redrawn when it changes."""
        return [self.band, self.line, self.capped, self.exact]


def plot_convergence(turns: Any, exact: float | None = None, *, ax: Axes | None = None,
                     z: float = 1.96, cap: int | None = None, title: str | None = None,
                     unit: str = "turns", what: str = "games",
                     exact_label: str | None = None, legend_values: bool = True) -> Axes:
    """Plot the running mean of simulated game lengths converging to the exact value.

    Parameters
    ----------
    turns : array_like
        Simulated game lengths, e.g. from :func:`~chutes_edu.simulate`, in the order played.
    exact : float, optional
        The exact expected value (e.g. ``expected_turns(board)[0]``): a dashed horizontal line.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure if None.
    z : float, default 1.96
        Normal quantile of the confidence band (see :func:`~chutes_edu.running_mean`).
    cap : int, optional
        Also draw the running mean that a loop capped at ``cap`` turns would report (each game
        counted as ``min(T, cap)``), to show the downward bias of a cap.
    title : str, optional
        Defaults to "Monte Carlo convergence".
    unit : str, default "turns"
        The unit of the samples (the coin-flip warm-up uses "flips").
    what : str, default "games"
        What one sample is, for the x label.
    exact_label : str, optional
        Legend text of the exact line (default "exact <value> <unit>").
    legend_values : bool, default True
        Write the values (exact, capped mean) into the legend. The widgets turn it off: their
        readout shows the values, and a legend that stays the same is drawn once, not per change.

    Returns
    -------
    matplotlib.axes.Axes
        With a log x-axis; lines for the running mean (and capped mean), a band, the exact line.
        Described (see :func:`describe`) with the number of samples and where the means end.
    """
    if ax is None:
        ax = _new_axes((7.0, 4.0))
    painter = _ConvergencePainter(ax, unit=unit, what=what, legend_values=legend_values)
    painter.update(turns, exact, z=z, cap=cap, exact_label=exact_label)
    ax.set_title("Monte Carlo convergence" if title is None else title)
    setattr(ax, _PAINTER, painter)
    _set_alt(ax, painter.alt_text)
    return ax


def plot_jump_effects(effects: Any, baseline: float, *, ax: Axes | None = None,
                      title: str | None = None, highlight: bool = True,
                      cmap: str = "PuOr_r") -> Axes:
    """Heat map of the change in expected turns from adding one jump ``a -> b``.

    Parameters
    ----------
    effects : array_like
        ``effects[a, b]`` = expected turns with the jump added, from
        :func:`~chutes_edu.jump_effects` (NaN where not allowed: left blank).
    baseline : float
        The board's expected turns without the jump; the map shows ``effects - baseline``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure if None.
    title : str, optional
        Defaults to "Adding one jump a -> b".
    highlight : bool, default True
        Hatch the surprising jumps (see :func:`surprising_jumps`) and outline them.
    cmap : str, default "PuOr_r"
        A diverging colour map, centred at 0 (orange: longer game, purple: shorter).

    Returns
    -------
    matplotlib.axes.Axes
        x is the destination b, y the source a; an ``AxesImage`` of shape ``effects.shape``
        and a colour bar in turns. Described (see :func:`describe`) with the range of changes,
        the jumps that shorten and lengthen the game most and the number of surprises.
    """
    e = np.asarray(effects, dtype=float)
    if e.ndim != 2 or e.shape[0] != e.shape[1]:
        raise ValueError(say("effects must be a square matrix, got shape {shape}", shape=e.shape))
    if ax is None:
        ax = _new_axes((7.4, 6.2))
    change = e - float(baseline)
    finite = change[np.isfinite(change)]
    lim = float(np.abs(finite).max()) if finite.size else 1.0
    lim = lim or 1.0
    image = ax.imshow(np.ma.masked_invalid(change), origin="lower", cmap=cmap,
                      norm=mcolors.TwoSlopeNorm(0.0, -lim, lim), interpolation="nearest",
                      aspect="equal")
    ax.figure.colorbar(image, ax=ax, shrink=0.85, pad=0.02,
                       label="change in expected turns (turns)")
    n = e.shape[0] - 1
    diagonal, = ax.plot([0, n], [0, n], color="0.4", lw=0.8, ls=":",
                        label="diagonal a = b: ladders (b > a) lie below it, chutes (b < a) above")
    handles: list[Any] = [diagonal]
    if highlight:
        cells = np.argwhere(surprising_jumps(e, baseline))
        if cells.size:
            square = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
            ax.add_collection(PolyCollection(cells[:, ::-1, None].transpose(0, 2, 1) + square,
                                             facecolors="none", edgecolors="black",
                                             linewidths=0.0, hatch="////", gid="surprises"))
            handles.append(Patch(facecolor="white", edgecolor="black", hatch="////",
                                 label="surprise: ladder lengthens / chute shortens"))
    ax.set_xlabel("destination square b")
    ax.set_ylabel("source square a")
    _legend_below(ax, handles, ncol=1)
    ax.set_xlim(-0.5, n + 0.5)
    ax.set_ylim(-0.5, n + 0.5)
    ax.set_title("Adding one jump a -> b" if title is None else title)
    describe(ax, _jump_effects_alt(e, float(baseline), ax.get_title(), highlight))
    return ax


def _jump_effects_alt(effects: np.ndarray, baseline: float, title: str, highlight: bool) -> str:
    """The heat map of added jumps in words: its axes, the range, the best and worst jump."""
    change = effects - baseline
    text = _titled(title, f"a heat map of the change in expected turns when one jump a -> b is "
                          f"added to a board of squares 0 to {effects.shape[0] - 1} (source a up "
                          "the side, destination b along the bottom, blank where no jump may be "
                          "added)")
    if np.isfinite(change).any():
        best = np.unravel_index(np.nanargmin(change), change.shape)
        worst = np.unravel_index(np.nanargmax(change), change.shape)

        def jump(a: Any, b: Any) -> str:
            return f"the {'ladder' if b > a else 'chute'} {int(a)} -> {int(b)}"
        text += (f"; from {change[best]:+.2f} turns ({jump(*best)}) to {change[worst]:+.2f} "
                 f"turns ({jump(*worst)})")
    if highlight:
        count = int(surprising_jumps(effects, baseline).sum())
        text += (f"; {_count(count, 'hatched square')} mark surprises, a ladder that lengthens "
                 "the game or a chute that shortens it")
    return text + "."


class _WinPainter:
    def __init__(self, ax: Axes) -> None:
        self.ax = ax
        self.bars: Any = None
        self.texts: list[Any] = []
        self.fair = ax.axhline(np.nan, color="0.3", lw=1.2, ls="--", zorder=3)
        ax.set_ylabel("probability of winning")
        ax.set_xlabel("seat (order of play)")
        self.legend: Any = None
        self.ymax: float | None = None
        self.sticky_ok = False
        self.summary = ""

    def alt_text(self) -> str:
        """The picture in words: each seat's probability and the fair share."""
        return _titled(self.ax.get_title(), self.summary)

    def update(self, probs: Any, labels: Sequence[str] | None = None, *,
               sticky: bool = False) -> bool:
        """Show ``probs``; return True if anything but the bars and their values changed."""
        p = np.asarray(probs, dtype=float).ravel()
        if p.size == 0:
            raise ValueError(say("plot_win_probabilities needs at least one probability"))
        if labels is not None and len(labels) != p.size:
            raise ValueError(say("{labels} labels for {players} players", labels=len(labels),
                                 players=p.size))
        names = list(labels) if labels is not None else [f"seat {i + 1}" for i in range(p.size)]
        changed = False
        if self.bars is None or len(self.bars) != p.size:
            if self.bars is not None:
                self.bars.remove()
                for t in self.texts:
                    t.remove()
            self.bars = self.ax.bar(np.arange(p.size), p, width=0.7,
                                    color=[TOKEN_COLORS[i % 6] for i in range(p.size)],
                                    edgecolor="black", linewidth=1.0)
            for i, bar in enumerate(self.bars):
                bar.set_hatch(HATCHES[i % 6])
            self.texts = [self.ax.text(i, 0, "", ha="center", va="bottom", fontsize=SMALL_TEXT)
                          for i in range(p.size)]
            self.ax.set_xticks(np.arange(p.size))
            self.ax.set_xlim(-0.6, p.size - 0.4)
            self.fair.set_ydata([1 / p.size, 1 / p.size])
            self.fair.set_label(f"fair share 1/{p.size}")
            changed = True
        self.summary = ("bars show each seat's probability of winning, "
                        + ", ".join(f"{n} {v:.3f}" for n, v in zip(names, p, strict=True))
                        + f"; the dashed line is the fair share 1/{p.size}.")
        for bar, text, value in zip(self.bars, self.texts, p, strict=True):
            bar.set_height(value)
            text.set_position((bar.get_x() + bar.get_width() / 2, value))
            text.set_text(f"{value:.3f}")
        if [t.get_text() for t in self.ax.get_xticklabels()] != names:
            self.ax.set_xticks(np.arange(p.size), names)
            changed = True
        if changed:                     # below the tick labels as named now (lines they take)
            if self.legend is not None:
                self.legend.remove()
            self.legend = _legend_below(self.ax, [self.fair], ncol=1)
        ymax = _sticky(self.ymax if self.sticky_ok else None,
                       max(float(p.max()), 1 / p.size) * 1.18, sticky)
        self.sticky_ok = sticky
        if ymax != self.ymax:
            self.ymax = ymax
            self.ax.set_ylim(0, ymax)
            changed = True
        return changed

    def dynamic_artists(self) -> list[Any]:
        return [*self.bars, *self.texts, self.fair]


def plot_win_probabilities(probs: Any, *, ax: Axes | None = None,
                           labels: Sequence[str] | None = None, title: str | None = None) -> Axes:
    """Bar chart of each seat's probability of winning, with the fair share ``1/players``.

    Parameters
    ----------
    probs : array_like
        One probability per seat, e.g. from :func:`~chutes_edu.win_probabilities`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure if None.
    labels : sequence of str, optional
        One x label per seat (default "seat 1", "seat 2", ...).
    title : str, optional
        Defaults to "Who wins? (seat 1 moves first)".

    Returns
    -------
    matplotlib.axes.Axes
        One bar per seat (colours and hatching differ), its value written on top. Described
        (see :func:`describe`) with each seat's probability.
    """
    if ax is None:
        ax = _new_axes((6.0, 4.0))
    painter = _WinPainter(ax)
    painter.update(probs, labels)
    ax.set_title("Who wins? (seat 1 moves first)" if title is None else title)
    setattr(ax, _PAINTER, painter)
    _set_alt(ax, painter.alt_text)
    return ax


# --------------------------------------------------------------------------- designs
def plot_design(design: Design, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Compare the game-length distributions of the starting and the designed board.

    The starting board's :math:`\\Pr(T = k)` is a filled step curve (sky blue), the designed
    board's a thick dashed step line (vermillion), each with its mean as a vertical line of the
    same style; the legend, below the axes, names the added jumps and both means.

    Parameters
    ----------
    design : Design
        From :func:`design_board`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure if None.
    title : str, optional
        Defaults to the goal.

    Returns
    -------
    matplotlib.axes.Axes
        With two step artists (gids ``"original"`` and ``"designed"``) and two mean lines, and
        a description (alt text, :func:`~chutes_edu.plots.describe`).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from chutes_edu import Board, LongestGame, design_board
    >>> d = design_board(Board({4: 1}, size=8, die=3), LongestGame(), max_jumps=1)
    >>> [a.get_gid() for a in plot_design(d).patches]
    ['original', 'designed']
    """
    if not isinstance(design, Design):
        raise ValueError(say("plot_design needs a Design, not {kind}",
                             kind=type(design).__name__))
    if ax is None:
        ax = _new_axes((7.0, 4.2))
    before = turn_distribution(design.original)
    after = turn_distribution(design.board)
    reach = max(int(np.searchsorted(np.cumsum(p), 0.999)) for p in (before, after)) + 2
    k = np.arange(reach + 1)
    old = ax.stairs(np.pad(before, (0, max(0, reach + 1 - before.size)))[: reach + 1],
                    np.append(k, reach + 1) - 0.5, fill=True, color="#56B4E9", alpha=0.6,
                    gid="original", label=f"starting board (mean {design.original_mean:.2f})")
    new = ax.stairs(np.pad(after, (0, max(0, reach + 1 - after.size)))[: reach + 1],
                    np.append(k, reach + 1) - 0.5, color="#D55E00", lw=2.2, ls="--",
                    gid="designed",
                    label=f"with {_jump_list(design.added)} (mean {design.mean:.2f})")
    m_old = ax.axvline(design.original_mean, color="#0072B2", lw=1.6, ls="-",
                       label="mean, starting board")
    m_new = ax.axvline(design.mean, color="#D55E00", lw=1.6, ls=":", label="mean, designed")
    ax.set_xlim(-0.5, reach + 0.5)
    ax.set_ylim(0, max(before.max(), after.max()) * 1.1)
    ax.set_xlabel("game length k (turns)")
    ax.set_ylabel("probability P(T = k)")
    ax.tick_params(labelsize=SMALL_TEXT)
    ax.set_title(f"Designed for {design.goal.describe()}" if title is None else title)
    _legend_below(ax, [old, new, m_old, m_new], ncol=2)
    describe(ax, f"The distribution of the game length before and after adding "
                 f"{_jump_list(design.added)}: the mean goes from {design.original_mean:.1f} to "
                 f"{design.mean:.1f} turns, the most likely length from "
                 f"{int(np.argmax(before))} to {int(np.argmax(after))} turns.")
    return ax


def _jump_list(jumps: Sequence[tuple[int, int]]) -> str:
    return ", ".join(f"{a}->{b}" for a, b in jumps) or "none"
