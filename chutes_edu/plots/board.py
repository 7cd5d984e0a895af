r"""The board as a picture: a serpentine grid with ladders, chutes, traps, tokens and a heat map.

Square 1 is bottom left and each row reverses direction, so on a 100-square board square 100 is top
left, as on the printed board; other sizes use a near-square grid of :math:`\lceil\sqrt n\,\rceil`
columns. Square 0 (off the board, where tokens start) sits left of square 1. Ladders are solid
blue arrows with filled heads, chutes dashed vermillion arrows with open heads, traps dark red
squares with white crosses; square numbers are drawn above the arrows on a halo.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import matplotlib
import matplotlib.patheffects as patheffects
import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.collections import PathCollection, PolyCollection
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Patch
from matplotlib.textpath import TextPath

from ..board import Board
from ..i18n import say
from ._style import (
    _PAINTER,
    CHUTE_COLOR,
    LADDER_COLOR,
    SMALL_TEXT,
    TOKEN_COLORS,
    TOKEN_MARKERS,
    TRAP_COLOR,
    _count,
    _fmt,
    _kind,
    _legend_below,
    _new_axes,
    _squares,
    _sticky,
    _titled,
)
from .alt_text import _set_alt


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
        raise ValueError(say("size must be at least 1, got {size}", size=size))
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
        raise ValueError(say("{what} {square} is off the board (squares 0..{size})", what="square",
                             square=square, size=size))
    if square == 0:
        return -0.75, 0.5
    _, cols = board_grid(size)
    row, col = divmod(square - 1, cols)
    if row % 2:
        col = cols - 1 - col
    return col + 0.5, row + 0.5


def _shared_offsets(k: int) -> list[tuple[float, float]]:
    """Where ``k`` tokens that share a square sit, from its centre, in seat order.

    Below the square's number (the top 0.34 of the cell), in one row of up to three, else in two
    rows, the second centred under the first; the race explorer's board places them so too
    (``sharedOffsets`` in ``widgets/js/explorers/race_explorer/board.js``, its y downwards). The
    start has no number here: :meth:`_BoardPainter.set_tokens` centres the rows in its place.
    """
    columns = k if k <= 3 else math.ceil(k / 2)
    step = 0.44 if columns == 2 else 0.33
    rows = [-0.17] if k <= 3 else [-0.005, -0.335]
    places = []
    for i in range(k):
        row = i // columns
        in_row = min(k, columns) if row == 0 else k - columns
        places.append(((i - row * columns - (in_row - 1) / 2) * step, rows[row]))
    return places


def _square_values(values: Any, size: int) -> np.ndarray:
    """Values for squares 0..size (NaN where none was given)."""
    v = np.asarray(values, dtype=float).ravel()
    if v.size == size + 1:
        return v.copy()
    if v.size == size:      # squares 0..size-1, e.g. a row of the fundamental matrix
        return np.append(v, np.nan)
    raise ValueError(say("values must have one entry per square: length {length} (squares "
                         "0..{size}) or {size} (squares 0..{last}), got {count}",
                         length=size + 1, size=size, last=size - 1, count=v.size))


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
                raise ValueError(say("trap {trap} is not on a square 1..{last}", trap=t,
                                     last=self.size - 1))
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
            raise ValueError(say("this board was drawn without values"))
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
                raise ValueError(say("token {token} is on square {square}, off the board "
                                     "(squares 0..{size})", token=i + 1, square=sq,
                                     size=self.size))
            k, j = counts[sq], seen.get(sq, 0)
            seen[sq] = j + 1
            x, y = self.centers[sq]
            if k > 1:                                  # share the cell: in rows below its number
                dx, dy = _shared_offsets(k)[j]
                x, y = x + dx, y + dy + (0.17 if sq == 0 else 0.0)   # the start: no number
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
        Players who share a square sit side by side below its number, player 1 first.
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
        raise ValueError(say("{function} needs a Board, not {kind}", function="draw_board",
                             kind=type(board).__name__))
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


class _NumberLayer(Artist):
    """A board's square numbers and their halo, drawn as one picture.

    Stroking the halo around a hundred numbers takes most of a board's redraw, yet the numbers
    never move: only each one's shade flips (black on white over a light cell, white on black over
    a dark one). So both shades of all the numbers are drawn once, off screen, and each redraw
    copies each square's shade into one RGBA picture and lays it over the cells. That is the
    picture drawing the numbers gives (pixels differ by at most 4 of 255 levels, the rounding of
    blending twice), in a fraction of the time: drawing the halo took 12 ms of a die change, the
    picture 0.4 ms; the whole change took 40.6 against 48.9 ms (medians of 24, alternated in one
    process, load average 2.2). The pictures are drawn again when the axes move (a new layout).
    """

    def __init__(self, painter: Any) -> None:
        super().__init__()
        self.set_figure(painter.ax.figure)
        self.painter = painter
        self._picture: np.ndarray | None = None
        for artist in (painter.halo, painter.numbers):
            artist.set_animated(True)               # never drawn with the background
        self._key: Any = None
        self._shades: tuple[np.ndarray, np.ndarray] | None = None
        self._cells: list[tuple[slice, slice]] = []
        self._light: np.ndarray | None = None

    def _draw_shades(self, renderer: Any) -> tuple[np.ndarray, np.ndarray]:
        """Both shades of every number on transparent pictures, and each square's pixels."""
        p = self.painter
        faces, edges = p.numbers.get_facecolor().copy(), p.halo.get_edgecolor().copy()
        shades = []
        for digit, halo in (("black", "white"), ("white", "black")):
            p.numbers.set_facecolor(digit)
            p.halo.set_edgecolor(halo)
            off = RendererAgg(renderer.width, renderer.height, renderer.dpi)
            off.clear()
            p.halo.draw(off)
            p.numbers.draw(off)
            shades.append(np.asarray(off.buffer_rgba()).copy())
        p.numbers.set_facecolor(faces)
        p.halo.set_edgecolor(edges)
        # Each square's pixels: its cell, moved up and left by the halo's reach, as a number and
        # its halo stick out of the cell's top left corner only. The cells tile the board.
        reach = int(np.ceil(float(p.halo.get_linewidth()[0]) * renderer.dpi / 144.0)) + 1
        height = renderer.height
        corners = p.ax.transData.transform(
            np.concatenate([p.centers[1:] - 0.5, p.centers[1:] + 0.5]))
        lo, hi = corners[: p.size], corners[p.size:]
        self._cells = [(slice(max(round(height - y1) - reach, 0),
                              max(round(height - y0) - reach, 0)),
                        slice(max(round(x0) - reach, 0), max(round(x1) - reach, 0)))
                       for (x0, y0), (x1, y1) in zip(lo, hi, strict=True)]
        return shades[0], shades[1]

    def draw(self, renderer: Any) -> None:
        key = (renderer.width, renderer.height, self.painter.ax.transData.get_matrix().tobytes())
        if key != self._key or self._shades is None:
            self._shades = self._draw_shades(renderer)
            self._key, self._light = key, None
        light = np.asarray(self.painter.light, dtype=bool)
        if self._light is None or not np.array_equal(light, self._light):
            lit_shade, dark_shade = self._shades
            picture = lit_shade.copy()
            for (rows, cols), lit in zip(self._cells, light, strict=True):
                if not lit:
                    picture[rows, cols] = dark_shade[rows, cols]
            self._picture = np.ascontiguousarray(picture[::-1])     # Agg: bottom row first
            self._light = light.copy()
        gc = renderer.new_gc()
        renderer.draw_image(gc, 0, 0, self._picture)
        gc.restore()
