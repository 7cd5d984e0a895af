r"""Pictures for the course: the board, game lengths, Monte Carlo convergence, added jumps, races.

Every function draws on an optional matplotlib ``ax`` (a new figure when it is None) and returns
the axes, so pictures can be combined and tested by their artists. The pictures only *show*
numbers computed by the core (:mod:`chutes_edu.markov`, :mod:`chutes_edu.simulation`); the few
summaries they mark are read straight off what they are given:

- the board is a serpentine grid: square 1 bottom left, each row reversing direction, so on a
  100-square board square 100 is top left, as on the printed board. Other sizes use a near-square
  grid of :math:`\lceil\sqrt n\,\rceil` columns. Square 0 (off the board, where tokens start) sits
  left of square 1;
- for a game-length distribution :math:`p_k = \Pr(T = k)`: the mean :math:`\sum_k k\,p_k`, the
  median (the first :math:`k` with :math:`\Pr(T \le k) \ge 1/2`) and the mode
  (:math:`\arg\max_k p_k`);
- a running mean :math:`\bar T_k` with the band :math:`\bar T_k \pm z\,s_k/\sqrt k` from
  :func:`~chutes_edu.simulation.running_mean`.

Colours are colour-blind safe (Okabe-Ito for categories, viridis for sequential values, PuOr for
changes around zero) and never carry meaning alone: ladders are solid arrows with filled heads,
chutes dashed arrows with open heads; players' tokens differ in marker shape; win bars in hatching;
surprising added jumps are hatched.

Text is never smaller than ``SMALL_TEXT`` points (11 px in the widgets, which draw at 80 dpi) and
legends sit outside the data they explain (below the axes, or where the data leave room). Square
numbers are drawn above the ladders and chutes, with a halo that keeps them readable.

Every picture says what it shows: :func:`describe` gives a figure (or one of its axes) a sentence
of *alt text*, and every function here describes its axes with a sentence computed from what it
draws (counts, ranges, the mean ...). When a notebook shows a figure, the description becomes the
output's ``{"image/png": {"alt": ...}}`` metadata (an IPython formatter registered on import), which
the course website turns into ``<img alt=...>``; the widgets show it as their picture's title.
A figure's description is its own if :func:`describe` was given the figure, otherwise its axes'
descriptions in drawing order, so side-by-side pictures are all described; drawing twice on the same
axes keeps the last description.

Each picture keeps a small private *painter* on its axes (``ax._chutes_edu_painter``) whose
``update`` method redraws it in place; the widgets use it to stay fast.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import matplotlib
import matplotlib.colors as mcolors
import matplotlib.patheffects as patheffects
import numpy as np
from matplotlib import transforms
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection, PolyCollection
from matplotlib.figure import Figure, FigureBase
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Patch
from matplotlib.textpath import TextPath

from .board import Board
from .simulation import running_mean

__all__ = ["draw_board", "plot_distribution", "plot_convergence", "plot_jump_effects",
           "plot_win_probabilities", "board_grid", "square_center", "surprising_jumps",
           "describe", "description", "register_alt_text", "OKABE_ITO"]

OKABE_ITO: tuple[str, ...] = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00",
                              "#CC79A7", "#000000")
"""The Okabe-Ito colour-blind-safe palette: orange, sky blue, bluish green, yellow, blue,
vermillion, reddish purple, black."""

LADDER_COLOR = "#0072B2"
CHUTE_COLOR = "#D55E00"
TOKEN_COLORS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#F0E442", "#999999")
TOKEN_MARKERS = ("o", "s", "^", "D", "v", "P")
HATCHES = ("", "//", "..", "xx", "\\\\", "oo")
SMALL_TEXT = 10.0
"""The smallest text in any picture, in points: 11 px at the widgets' 80 dpi, 14 px at 100 dpi."""
TRAP_COLOR = "#8B0000"
"""Trap squares (the game ends there): dark red with white crosses (they show in greyscale too)."""
_PAINTER = "_chutes_edu_painter"
_ALT = "_chutes_edu_alt"
"""The attribute that holds a figure's or an axes' description: a ``str``, or for the pictures
that widgets redraw in place, a callable returning the current one (see :func:`_set_alt`)."""


# --------------------------------------------------------------------------- alt text
Describable = FigureBase | Axes
"""What :func:`describe` accepts: a figure (or subfigure) or an axes."""


def describe(fig_or_ax: Describable, text: str) -> None:
    """Say in one or two sentences what a picture shows: its alt text.

    Notebooks and the course website show the text to readers who cannot see the picture (the
    output's ``{"image/png": {"alt": text}}`` metadata becomes ``<img alt=...>``); the widgets
    show it as their picture's title. Every plotting function of the course describes its own
    axes; call this for a figure you draw by hand with matplotlib, after drawing it.

    Parameters
    ----------
    fig_or_ax : matplotlib.figure.Figure or matplotlib.axes.Axes
        The figure (the whole picture) or one of its axes (one panel).
    text : str
        What it shows, e.g. "The expected turns to finish from each square: 39.2 from the
        start, falling to 0 at square 100." An empty text removes the description.

    Notes
    -----
    A figure's description is the one given to the figure itself if any; otherwise the
    descriptions of its axes, joined in drawing order. Describing an axes again replaces its
    description (so the last plotting call on one axes wins); describing the figure overrides
    all of its axes'.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from chutes_edu import describe
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot([0, 1, 2], [0, 1, 4])
    >>> describe(ax, "A parabola through (0, 0), (1, 1) and (2, 4).")
    >>> from chutes_edu.plots import description
    >>> description(fig)
    'A parabola through (0, 0), (1, 1) and (2, 4).'
    """
    if not isinstance(fig_or_ax, (FigureBase, Axes)):
        raise ValueError(f"describe needs a matplotlib figure or axes, not "
                         f"{type(fig_or_ax).__name__}")
    if not isinstance(text, str):
        raise ValueError(f"the description must be a str, not {type(text).__name__}")
    _set_alt(fig_or_ax, text.strip())


def description(fig_or_ax: Describable) -> str:
    """The alt text of a figure (see :func:`describe`), or of one axes.

    Parameters
    ----------
    fig_or_ax : matplotlib.figure.Figure or matplotlib.axes.Axes
        A figure: its own description, else its axes' descriptions joined in drawing order.
        An axes: its own description.

    Returns
    -------
    str
        The description, "" if there is none.
    """
    own = _alt_text(fig_or_ax)
    if own or isinstance(fig_or_ax, Axes):
        return own
    return " ".join(part for ax in fig_or_ax.get_children()
                    if isinstance(ax, Axes) and (part := _alt_text(ax)))


def _set_alt(artist: Describable, alt: str | Callable[[], str]) -> None:
    """Keep ``alt`` (a text, or a callable giving the current text) on a figure or axes."""
    setattr(artist, _ALT, alt)


def _alt_text(artist: Describable) -> str:
    alt: str | Callable[[], str] | None = getattr(artist, _ALT, None)
    return (alt() if callable(alt) else alt or "").strip()


def _alt_bundle(figure: Figure) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """IPython's mime-bundle formatter for figures: only metadata, the alt text of the PNG.

    It returns no data, so IPython's PNG formatter (the inline backend's) still draws the
    picture; the metadata is merged into the output. A figure without a description gets None:
    its output is unchanged.
    """
    text = description(figure)
    return ({}, {"image/png": {"alt": text}}) if text else None


class _PngWithAlt:
    """The PNG formatter of figures, wrapped to add the alt text to its own metadata.

    IPython lets a PNG formatter's metadata replace the mime bundle's: the inline backend's
    ``figure_format = "retina"`` returns the picture's width and height, which would drop the alt
    text. Wrapped, it keeps both.
    """

    def __init__(self, printer: Callable[[Figure], Any]) -> None:
        self.printer = printer

    def __call__(self, figure: Figure) -> Any:
        out = self.printer(figure)
        text = description(figure)
        if not text or out is None:
            return out
        data, metadata = out if isinstance(out, tuple) else (out, None)
        return data, {**(metadata or {}), "alt": text}


def _wrap_png_printer(shell: Any) -> None:
    """Wrap the PNG formatter of figures (again, after the inline backend registered a new one)."""
    formatter = shell.display_formatter.formatters.get("image/png")
    try:
        printer = formatter.lookup_by_type(Figure)
    except (KeyError, AttributeError):
        return
    if not isinstance(printer, _PngWithAlt):
        formatter.for_type(Figure, _PngWithAlt(printer))


def register_alt_text(shell: Any = None) -> bool:
    """Give every figure a notebook shows its description as alt text (done on import).

    The figure's output gets the metadata ``{"image/png": {"alt": description}}``; a figure
    without a description is shown as before.

    Parameters
    ----------
    shell : IPython.core.interactiveshell.InteractiveShell, optional
        The shell to register with; default the running one (none outside IPython).

    Returns
    -------
    bool
        True if a shell was found and the formatter registered.
    """
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:                 # IPython is not installed: nothing shows figures
            return False
        shell = get_ipython()
    if shell is None:
        return False

    def bundle(figure: Figure) -> tuple[dict[str, Any], dict[str, Any]] | None:
        _wrap_png_printer(shell)        # runs before the PNG formatter, in the same display
        return _alt_bundle(figure)

    shell.display_formatter.mimebundle_formatter.for_type(Figure, bundle)
    return True


# --------------------------------------------------------------------------- helpers
def _new_axes(figsize: tuple[float, float]) -> Axes:
    import matplotlib.pyplot as plt  # only when the caller gave no axes (notebooks)
    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def _legend_below(ax: Axes, handles: Sequence[Any], *, ncol: int, **kwargs: Any) -> Any:
    """A frameless legend centred under the axes, below the tick labels and the x label.

    The offset is in points (tick, tick label and x label heights), so it holds at any figure size;
    constrained layout then makes room for the legend instead of letting it cover the data.
    """
    rc = matplotlib.rcParams
    drop = 2.0
    if ax.xaxis.get_visible() and ax.get_xticks().size:
        drop += rc["xtick.major.size"] + rc["xtick.major.pad"]
        drop += 1.3 * _points(rc["xtick.labelsize"])
    if ax.get_xlabel():
        drop += rc["axes.labelpad"] + 1.3 * _points(ax.xaxis.label.get_fontsize())
    # the axes' bottom edge, moved down by `drop` points
    anchor = ax.transAxes + transforms.ScaledTranslation(0.0, -drop / 72.0,
                                                         ax.figure.dpi_scale_trans)
    options: dict[str, Any] = {"fontsize": SMALL_TEXT, "frameon": False, "handlelength": 2.0,
                               "columnspacing": 1.2, "borderaxespad": 0.0, **kwargs}
    return ax.legend(handles=list(handles), loc="upper center", bbox_to_anchor=(0.5, 0.0),
                     bbox_transform=anchor, ncol=ncol, **options)


def _points(size: Any) -> float:
    """A matplotlib font size (points or a name such as "medium") in points."""
    from matplotlib.font_manager import FontProperties
    return float(FontProperties(size=size).get_size_in_points())


def board_grid(size: int) -> tuple[int, int]:
    r"""The grid ``(rows, columns)`` used to draw a board of ``size`` squares.

    Parameters
    ----------
    size : int
        The final square :math:`n`.

    Returns
    -------
    (rows, columns) : tuple of int
        :math:`c = \lceil\sqrt n\,\rceil` columns and :math:`\lceil n / c\rceil` rows
        (10 by 10 for 100 squares).
    """
    if size < 1:
        raise ValueError(f"size must be at least 1, got {size}")
    cols = math.isqrt(size - 1) + 1 if size > 1 else 1
    return -(-size // cols), cols


def square_center(square: int, size: int) -> tuple[float, float]:
    """The centre ``(x, y)`` of a square in the drawing of a board (one unit per cell).

    Parameters
    ----------
    square : int
        A square in ``0..size``; square 0 is drawn just left of square 1.
    size : int
        The final square.

    Returns
    -------
    (x, y) : tuple of float
    """
    if not 0 <= square <= size:
        raise ValueError(f"square {square} is off the board (squares 0..{size})")
    if square == 0:
        return -0.75, 0.5
    _, cols = board_grid(size)
    row, col = divmod(square - 1, cols)
    if row % 2:
        col = cols - 1 - col
    return col + 0.5, row + 0.5


def _square_values(values: Any, size: int) -> np.ndarray:
    """Values for squares 0..size (NaN where none was given)."""
    v = np.asarray(values, dtype=float).ravel()
    if v.size == size + 1:
        return v.copy()
    if v.size == size:      # squares 0..size-1, e.g. a row of the fundamental matrix
        return np.append(v, np.nan)
    raise ValueError(f"values must have one entry per square: length {size + 1} (squares "
                     f"0..{size}) or {size} (squares 0..{size - 1}), got {v.size}")


def _log_indices(n: int, dense: int = 1000, spread: int = 3000) -> np.ndarray:
    """Indices 0..n-1: all of the first ``dense``, then about ``spread`` log-spaced ones."""
    if n <= dense + spread:
        return np.arange(n)
    tail = np.geomspace(dense, n - 1, spread).astype(np.int64)
    return np.unique(np.concatenate([np.arange(dense), tail, [n - 1]]))


def _nice_ceiling(x: float) -> float:
    """The smallest 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten that is >= x."""
    if not np.isfinite(x) or x <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(x))
    for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if step * power >= x * (1 - 1e-12):
            return step * power
    return 10 * power


def _sticky(current: float | None, needed: float, sticky: bool) -> float:
    """An axis end: kept while ``needed`` fits and fills at least half of it (``sticky``)."""
    if sticky and current is not None and 0.5 * current <= needed <= current:
        return current
    return _nice_ceiling(needed) if sticky else needed


def _count(n: int, thing: str) -> str:
    """"1 ladder", "3 ladders", "no ladders"."""
    return f"{n} {thing}" if n == 1 else f"{n or 'no'} {thing}s"


def _titled(title: str, sentence: str) -> str:
    """A picture's title, then what it shows: "Title: sentence" ("Title? Sentence")."""
    if not title:
        return sentence[:1].upper() + sentence[1:]
    if title.rstrip()[-1:] in "?!.":
        return f"{title} {sentence[:1].upper()}{sentence[1:]}"
    return f"{title}: {sentence}"


def _kind(n: int, style: str) -> str:
    """" (solid blue arrows)" for n jumps drawn that way, nothing for none."""
    return "" if n == 0 else f" ({style} arrow{'' if n == 1 else 's'})"


def _squares(squares: Sequence[int]) -> str:
    """"square 5", "squares 5 and 8", "squares 5, 8 and 9"."""
    names = [str(s) for s in squares]
    if len(names) == 1:
        return f"square {names[0]}"
    return f"squares {', '.join(names[:-1])} and {names[-1]}"


def _fmt(x: float) -> str:
    return "" if not np.isfinite(x) else (f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}")


# --------------------------------------------------------------------------- the board
class _Arrow(FancyArrowPatch):
    """A ``FancyArrowPatch`` that remembers its outline while the axes stay the same.

    Bending and heading a curved arrow takes most of its drawing time; a board is redrawn far
    more often than it is moved or resized.
    """

    _memo: tuple[Any, Any] | None = None
    _posA_posB: Any          # set by FancyArrowPatch; matplotlib's type stubs omit them
    _dpi_cor: float

    def _get_path_in_displaycoord(self) -> Any:
        ends = self.get_transform().transform(self._posA_posB)
        key = (ends.round(3).tobytes(), self._dpi_cor)
        if self._memo is None or self._memo[0] != key:
            # a private matplotlib hook, absent from its type stubs (hence the ignore)
            self._memo = (key, super()._get_path_in_displaycoord())  # type: ignore[misc]
        return self._memo[1]


class _BoardPainter:
    """Draws one board on ``ax`` and updates its jumps, values and tokens in place."""

    def __init__(self, ax: Axes, size: int, *, heat: bool, cmap: str, label: str) -> None:
        self.ax, self.size, self.heat = ax, size, heat
        rows, cols = board_grid(size)
        self.rows, self.cols = rows, cols
        centers = np.array([square_center(s, size) for s in range(1, size + 1)])
        self.centers = np.vstack([[square_center(0, size)], centers])
        corners = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
        cells = centers[:, None, :] + corners[None, :, :]
        self.cells = PolyCollection(cells, edgecolors="0.35", linewidths=0.6, gid="cells")
        if heat:
            self.cells.set_cmap(matplotlib.colormaps[cmap].with_extremes(bad="0.85"))
            self.cells.set_array(np.zeros(size))
        else:
            light = ["#f4f1e8", "#e6e0cc"]
            self.cells.set_facecolor([light[(int(x) + int(y)) % 2] for x, y in centers])
        ax.add_collection(self.cells)
        # The numbers are glyph outlines in one collection: drawn in one go (a hundred Text
        # artists take most of a redraw), each recoloured for contrast with its cell. They lie
        # above the arrows, on a halo of the opposite shade, so an arrow never hides one.
        em = min(0.36, 3.6 / cols)                    # font size in cells (digits: 0.73 em high)
        glyphs = [TextPath((x - 0.44, y + 0.45 - 0.73 * em), str(s), size=em)
                  for s, (x, y) in enumerate(centers, start=1)]
        self.halo = PathCollection(glyphs, facecolors="none", edgecolors="white",
                                   linewidths=2.4, joinstyle="round", alpha=0.85,
                                   transform=ax.transData, zorder=4.4, gid="number halo")
        self.numbers = PathCollection(glyphs, facecolors="black", edgecolors="none",
                                      transform=ax.transData, zorder=4.5, gid="numbers")
        ax.add_collection(self.halo, autolim=False)
        ax.add_collection(self.numbers, autolim=False)
        sx, sy = self.centers[0]
        self.start = ax.text(sx, sy - 0.45, "start", fontsize=SMALL_TEXT, ha="center", va="top")
        self.start_value = ax.text(sx, sy + 0.45, "", fontsize=SMALL_TEXT, ha="center",
                                   va="bottom")
        self.colorbar = None
        self.clim: tuple[float, float] | None = None     # the colour scale, once set
        self.sticky_ok = False
        if heat:
            self.colorbar = ax.figure.colorbar(self.cells, ax=ax, shrink=0.8, pad=0.02,
                                               label=label)
        self.arrows: list[FancyArrowPatch] = []
        self.jumps: dict[int, int] | None = None
        self.tokens: list[Line2D] = []
        ax.set_xlim(-1.3, cols + 0.05)
        ax.set_ylim(-0.4, rows + 0.05)                  # room for "start" under square 0
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        for spine in ax.spines.values():
            spine.set_visible(False)
        handles = [Line2D([], [], color=LADDER_COLOR, lw=2, ls="-", marker=">", ms=6,
                          label="ladder (solid)"),
                   Line2D([], [], color=CHUTE_COLOR, lw=2, ls="--", marker=">", ms=6,
                          mfc="none", label="chute (dashed)")]
        self.jump_handles = handles
        self.legend = None
        # Traps: dark red cells with white crosses over the colour map (colour is not alone).
        with matplotlib.rc_context({"hatch.color": "white"}):   # read here, in any version
            self.trap_cells = PolyCollection([], facecolors=TRAP_COLOR, edgecolors="0.35",
                                             linewidths=0.6, hatch="xx", zorder=1.5, gid="traps")
        ax.add_collection(self.trap_cells, autolim=False)
        self.trap_handle = Patch(facecolor=TRAP_COLOR, edgecolor="white", hatch="xx",
                                 label="trap (game ends)")
        self.traps: tuple[int, ...] = ()
        self.values: np.ndarray | None = None
        self.token_squares: list[int] = []
        self.label = label          # what the colours show, and the board's name, for alt_text
        self.name = ""
        self.light = np.ones(size, dtype=bool)

    # -- pieces
    def set_jumps(self, jumps: dict[int, int]) -> None:
        jumps = dict(jumps)
        if jumps == self.jumps:
            return
        for arrow in self.arrows:
            arrow.remove()
        self.arrows = []
        stroke = [patheffects.withStroke(linewidth=4, foreground="white", alpha=0.8)]
        for a, b in jumps.items():
            ladder = b > a
            start, end = self.centers[a], self.centers[b]
            gap = 0.12 * (end - start) / max(float(np.hypot(*(end - start))), 1e-9)
            arrow = _Arrow(
                tuple(start + gap), tuple(end - gap),
                arrowstyle="-|>,head_length=6,head_width=3.5" if ladder
                else "->,head_length=6,head_width=4",
                connectionstyle="arc3,rad=0.15" if ladder else "arc3,rad=-0.2",
                linestyle="-" if ladder else (0, (4, 2)),
                color=LADDER_COLOR if ladder else CHUTE_COLOR, lw=1.8, shrinkA=0, shrinkB=0,
                zorder=4, path_effects=stroke, gid=f"{'ladder' if ladder else 'chute'} {a}->{b}")
            self.ax.add_patch(arrow)
            self.arrows.append(arrow)
        self.jumps = jumps

    def set_traps(self, traps: Sequence[int]) -> bool:
        """Mark the traps; return True if they changed (the legend changes too)."""
        traps = tuple(sorted(int(t) for t in traps))
        if traps == self.traps:
            return False
        for t in traps:
            if not 0 < t < self.size:
                raise ValueError(f"trap {t} is not on a square 1..{self.size - 1}")
        corners = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
        self.trap_cells.set_verts([self.centers[t] + corners for t in traps])
        self.traps = traps
        self._recolour_numbers()
        self._legend()
        return True

    def _recolour_numbers(self) -> None:
        """Black digits on a white halo on light cells, white on black on dark ones and traps."""
        if self.heat and self.values is not None:
            rgb = self.cells.to_rgba(np.ma.masked_invalid(self.values[1:]))[:, :3]
            light = (rgb @ np.array([0.299, 0.587, 0.114]) > 0.5) | ~np.isfinite(self.values[1:])
        else:
            light = np.ones(self.size, dtype=bool)
        light[[t - 1 for t in self.traps]] = False
        self.light = light                  # per square 1..size: black digits on a white halo
        self.numbers.set_facecolor(np.where(light[:, None], 0.0, 1.0).repeat(3, axis=1).tolist())
        self.halo.set_edgecolor(np.where(light[:, None], 1.0, 0.0).repeat(3, axis=1).tolist())

    def set_values(self, values: Any, *, vmin: float | None = None, vmax: float | None = None,
                   sticky: bool = False) -> bool:
        """Recolour the cells; return True if the colour scale changed."""
        if not self.heat:
            raise ValueError("this board was drawn without values")
        v = _square_values(values, self.size)
        board_v = np.ma.masked_invalid(v[1:])
        self.cells.set_array(board_v)
        finite = v[np.isfinite(v)]
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        if vmin is None:
            vmin = 0.0 if sticky and lo >= 0 else lo
        if vmax is None:
            vmax = _sticky(self.clim[1] if self.sticky_ok and self.clim else None, hi, sticky)
        if vmax <= vmin:
            vmax = vmin + 1.0
        changed = (vmin, vmax) != self.clim
        if changed:
            self.cells.set_clim(vmin, vmax)
            self.clim = (vmin, vmax)
        self.sticky_ok = sticky
        self.values = v
        self._recolour_numbers()
        self.start_value.set_text(_fmt(v[0]))
        return changed

    def dynamic_artists(self) -> list[Any]:
        """What changes with values, jumps and tokens (the rest is a fixed background)."""
        return [self.cells, self.trap_cells, *self.arrows, self.halo, self.numbers,
                self.start_value, *self.tokens]

    def alt_text(self) -> str:
        """What the board shows now, in words (its title, jumps, traps, colours and tokens)."""
        board = (f"the {self.size}-square board '{self.name}'" if self.name
                 else f"a {self.size}-square Chutes and Ladders board")
        title = self.ax.get_title().replace("\n", "; ")
        text = _titled("" if title == self.name else title, board)
        jumps = self.jumps or {}
        ladders = sum(b > a for a, b in jumps.items())
        chutes = len(jumps) - ladders
        text += (f" with {_count(ladders, 'ladder')}{_kind(ladders, 'solid blue')} and "
                 f"{_count(chutes, 'chute')}{_kind(chutes, 'dashed orange')}")
        if self.traps:
            text += (f", and {_count(len(self.traps), 'trap')} where the game ends on "
                     f"{_squares(self.traps)} (dark red with white crosses)")
        if self.values is not None:
            v = self.values
            finite = v[np.isfinite(v)]
            what = self.label or "a value per square"
            if finite.size:
                text += (f"; colour shows {what}, from {_fmt(float(finite.min()))} to "
                         f"{_fmt(float(finite.max()))}")
                if np.isfinite(v[0]):
                    text += f", {_fmt(float(v[0]))} at the start"
            if not np.isfinite(v[1:]).all():
                text += f" (grey: {_count(int((~np.isfinite(v[1:])).sum()), 'square')} "
                text += "without a value)"
        if self.token_squares:
            text += "; " + ", ".join(f"player {i + 1} on square {sq}"
                                     for i, sq in enumerate(self.token_squares))
        return text + "."

    def set_tokens(self, tokens: Sequence[int] | None) -> None:
        tokens = list(tokens or [])
        for line in self.tokens[len(tokens):]:
            line.remove()
        self.tokens = self.tokens[:len(tokens)]
        counts: dict[int, int] = {}
        for sq in tokens:
            counts[sq] = counts.get(sq, 0) + 1
        seen: dict[int, int] = {}
        for i, sq in enumerate(tokens):
            if not 0 <= sq <= self.size:
                raise ValueError(f"token {i + 1} is on square {sq}, off the board "
                                 f"(squares 0..{self.size})")
            k, j = counts[sq], seen.get(sq, 0)
            seen[sq] = j + 1
            x, y = self.centers[sq]
            if k > 1:                                  # share the cell: spread on a small circle
                angle = 2 * math.pi * j / k + math.pi / 2
                x, y = x + 0.25 * math.cos(angle), y - 0.05 + 0.25 * math.sin(angle)
            if i < len(self.tokens):
                self.tokens[i].set_data([x], [y])
            else:
                line, = self.ax.plot([x], [y], ls="none", marker=TOKEN_MARKERS[i % 6], ms=11,
                                     mfc=TOKEN_COLORS[i % 6], mec="black", mew=1.2, zorder=6,
                                     label=f"player {i + 1}", gid=f"token {i + 1}")
                self.tokens.append(line)
        self.token_squares = [int(t) for t in tokens]
        if self.legend is None or len(self.legend.legend_handles) != len(self._handles()):
            self._legend()

    def _handles(self) -> list[Any]:
        return [*self.jump_handles, *([self.trap_handle] if self.traps else []), *self.tokens]

    def _legend(self) -> None:
        if self.legend is not None:
            self.legend.remove()
        handles = self._handles()
        self.legend = _legend_below(self.ax, handles,
                                    ncol=len(handles) if len(handles) <= 4 else 4,
                                    columnspacing=1.0)


def draw_board(board: Board, values: Any = None, *, ax: Axes | None = None,
               tokens: Sequence[int] | None = None, cmap: str = "viridis", label: str = "",
               title: str | None = None, vmin: float | None = None,
               vmax: float | None = None) -> Axes:
    """Draw a board: numbered squares, ladders and chutes as arrows, traps, optional heat map and
    tokens.

    Traps (``board.traps``, squares where the game ends) are dark red cells with white crosses,
    with the legend entry "trap (game ends)": they show in greyscale and over any colour map.
    The axes are described (see :func:`describe`) by a sentence naming the board, its ladders,
    chutes and traps, the range of the colours and the tokens' squares.

    Parameters
    ----------
    board : Board
        The board to draw.
    values : array_like, optional
        One value per square for a heat map with a colour bar: length ``size + 1`` (squares
        ``0..size``, e.g. :func:`~chutes_edu.expected_turns`) or ``size`` (squares
        ``0..size-1``, e.g. a row of :func:`~chutes_edu.fundamental_matrix`). NaN cells are grey;
        the value of square 0 is written above "start".
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure if None.
    tokens : sequence of int, optional
        The square of each player; one marker per player, differing in shape and colour.
    cmap : str, default "viridis"
        A sequential colour map for ``values``.
    label : str, default ""
        The colour bar label (say what the values are and their unit, e.g. "expected turns").
    title : str, optional
        Defaults to the board's name.
    vmin, vmax : float, optional
        The ends of the colour scale (default: the smallest and largest value).

    Returns
    -------
    matplotlib.axes.Axes
        One cell per square in a ``PolyCollection`` (gid ``"cells"``), the traps in another
        (gid ``"traps"``), one ``FancyArrowPatch`` per jump, one ``Line2D`` per token.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from chutes_edu import MILTON_BRADLEY_1943, draw_board, expected_turns
    >>> ax = draw_board(MILTON_BRADLEY_1943, expected_turns(MILTON_BRADLEY_1943),
    ...                 label="expected turns to finish (turns)")
    >>> len(ax.patches)       # one arrow per jump
    19
    """
    if not isinstance(board, Board):
        raise ValueError(f"draw_board needs a Board, not {type(board).__name__}")
    if ax is None:
        ax = _new_axes((6.4, 6.4) if values is None else (7.4, 6.4))
    painter = _BoardPainter(ax, board.size, heat=values is not None, cmap=cmap, label=label)
    painter.name = board.name
    painter.set_jumps(dict(board.jumps))
    painter.set_traps(board.traps)
    if values is not None:
        painter.set_values(values, vmin=vmin, vmax=vmax)
    painter.set_tokens(tokens)
    ax.set_title((board.name or "Chutes and Ladders board") if title is None else title)
    setattr(ax, _PAINTER, painter)
    _set_alt(ax, painter.alt_text)
    return ax


# --------------------------------------------------------------------------- game length
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
            raise ValueError("pmf must be a non-empty array of probabilities")
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


# --------------------------------------------------------------------------- Monte Carlo
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
            raise ValueError("plot_convergence needs at least one sample")
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


# --------------------------------------------------------------------------- added jumps
def surprising_jumps(effects: Any, baseline: float) -> np.ndarray:
    """Where an added jump works against its kind: a ladder that lengthens the game or a chute
    that shortens it.

    Parameters
    ----------
    effects : array_like
        ``effects[a, b]`` from :func:`~chutes_edu.jump_effects`.
    baseline : float
        The board's own expected turns.

    Returns
    -------
    numpy.ndarray of bool
        Same shape; True at ``[a, b]`` when ``b > a`` and the game gets longer, or ``b < a``
        and it gets shorter (by more than 1e-9 turns).
    """
    e = np.asarray(effects, dtype=float)
    a, b = np.indices(e.shape)
    with np.errstate(invalid="ignore"):
        change = e - baseline
        return ((b > a) & (change > 1e-9)) | ((b < a) & (change < -1e-9))


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
        raise ValueError(f"effects must be a square matrix, got shape {e.shape}")
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


# --------------------------------------------------------------------------- races
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
            raise ValueError("plot_win_probabilities needs at least one probability")
        if labels is not None and len(labels) != p.size:
            raise ValueError(f"{len(labels)} labels for {p.size} players")
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
            if self.legend is not None:
                self.legend.remove()
            self.legend = _legend_below(self.ax, [self.fair], ncol=1)
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


register_alt_text()
