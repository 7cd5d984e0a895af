"""Interactive explorers (ipywidgets 8) that wire the library to controls and pictures.

The widgets do no mathematics of their own: every number they show comes from a library call
(:func:`~chutes_edu.expected_turns`, :func:`~chutes_edu.turn_distribution`,
:func:`~chutes_edu.jump_effects`, :func:`~chutes_edu.win_probabilities`,
:func:`~chutes_edu.simulate`, :func:`~chutes_edu.running_mean`, :func:`~chutes_edu.capped_mean`,
:mod:`chutes_edu.coin`), and every picture from :mod:`chutes_edu.plots`.

- :class:`BoardExplorer` -- change the board and its rules, watch the expected game length, the
  distribution of game lengths and a heat map of the board.
- :class:`CoinFlipExplorer` -- the warm-up: waiting for heads, the running average against 1/p.
- :class:`SimulationExplorer` -- Monte Carlo converging to the exact answer; the bias of a turn cap.
- :class:`JumpExplorer` -- add one ladder or chute anywhere; the surprising ones are flagged.
- :class:`RaceExplorer` -- 2 to 6 players on any squares: who wins, seat by seat.

An invalid edit (a chained jump, a board that can never be finished, ...) shows the library's
``ValueError`` message in the widget's ``message`` and keeps the last valid board: no traceback.

Pictures are persistent matplotlib figures on the Agg canvas, shown as PNG in an
``ipywidgets.Image``: they work headless (tests), in JupyterLab and in Voila alike. An image is
shown at exactly its pixel size (never stretched or upscaled; a narrow page shrinks it keeping its
aspect ratio), and its smallest text is 11 px (:data:`~chutes_edu.plots.SMALL_TEXT` points at
80 dpi). A change re-draws only the artists that change (blitting over a cached background) to
stay well under 100 ms per interaction on the standard board (``make bench`` measures it, from key
press to settled page in Chromium through Voila).

Every picture says what it shows: with each new picture the image's ``tooltip`` (its ``title`` in
the page, which the course website also copies into ``alt``) is set to the figure's description
(:func:`~chutes_edu.plots.describe`), computed from what was drawn.
"""

from __future__ import annotations

import io
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import ipywidgets as widgets
import numpy as np
import traitlets
from matplotlib import patheffects
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure
from PIL import Image

from .board import OVERSHOOT_RULES, Board
from .boards import MILTON_BRADLEY_1943, PRESETS
from .coin import expected_flips, flips_until_heads
from .markov import (
    expected_turns,
    fundamental_matrix,
    jump_effects,
    square_distribution,
    turn_distribution,
    win_probabilities,
)
from .plots import (
    _PAINTER,
    _set_alt,
    description,
    draw_board,
    plot_convergence,
    plot_distribution,
    plot_jump_effects,
    plot_win_probabilities,
    surprising_jumps,
)
from .simulation import capped_mean, running_mean, simulate

__all__ = ["BoardExplorer", "CoinFlipExplorer", "SimulationExplorer", "JumpExplorer",
           "RaceExplorer"]

DPI = 80
"""The resolution of every explorer's pictures: one PNG pixel per CSS pixel at this many dots per
inch, so ``SMALL_TEXT`` (10 pt) is 11 px on the page."""

_OVERSHOOT_HELP = {
    "stay": "a roll past the last square is lost",
    "win": "a roll past the last square wins",
    "bounce": "walk back the excess from the last square",
    "stop_short": "a roll past the last square stops one short",
}
_ERROR_STYLE = "color:#b2182b"


# --------------------------------------------------------------------------- plumbing
class _DescribedImage(widgets.Image):
    """An ``ipywidgets.Image`` whose ``tooltip`` (the ``<img>``'s ``title``) says what it shows.

    ipywidgets 8's front end shows a widget's tooltip only when its ``description`` is empty, and
    reads that description's length: an Image has no ``description``, so a tooltip alone raises
    a TypeError in the page (jupyter-widgets/ipywidgets pull request 3921). The empty
    ``description`` synced here makes the tooltip the image's title.
    """

    description = traitlets.Unicode("", help="Always empty: lets the tooltip show.").tag(sync=True)


class _FigureView:
    """A persistent Agg figure shown as a PNG in an ``ipywidgets.Image``.

    The first render lays the figure out (constrained layout) and freezes that layout. If
    ``dynamic`` returns artists, later renders restore a cached background drawn without them and
    draw only them on top (blitting); ``render(full=True)`` redraws everything.

    The figure is ``size`` pixels (width, height) and the image widget shows it at exactly that
    size: its ``width``/``height`` and layout are the PNG's, it never grows (flex items stretch
    otherwise), and ``max_width`` with ``object_fit="contain"`` only ever shrinks it, keeping its
    aspect ratio.
    """

    def __init__(self, size: tuple[int, int], *, dynamic: Callable[[], list[Artist]] | None = None,
                 css: str = "") -> None:
        width, height = size
        self.size = (int(width), int(height))
        self.figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, layout="constrained")
        self.canvas = FigureCanvasAgg(self.figure)
        self.dynamic = dynamic or list
        self.image = _DescribedImage(format="png", width=str(width), height=str(height),
                                   layout=widgets.Layout(width=f"{width}px", height=f"{height}px",
                                                         max_width="100%", object_fit="contain",
                                                         flex="0 0 auto", align_self="flex-start"))
        if css:
            self.image.add_class(css)
        self._backgrounds: dict[Any, Any] = {}
        self._engine: Any = None
        self._margins: tuple[Any, ...] = ()

    def _margin_setters(self) -> tuple[Any, ...]:
        """What the constrained layout's margins depend on, per axes (cheap: no drawing)."""
        out: list[Any] = []
        for ax in self.figure.axes:
            lo, hi = ax.yaxis.get_view_interval()
            ticks = ax.yaxis.get_major_locator().tick_values(lo, hi)
            labels = ax.yaxis.get_major_formatter().format_ticks(list(ticks))
            out.append((ax.get_title().count("\n"), ax.get_xlabel(), ax.get_ylabel(),
                        max((len(label) for label in labels), default=0)))
        return tuple(out)

    def render(self, full: bool = False, relayout: bool | None = None, key: Any = None) -> None:
        """Draw the figure and publish it to the ``image`` widget.

        ``full`` redraws the background too (needed when anything outside ``dynamic`` changed) and
        forgets every cached background; ``relayout`` lays the figure out again first (default:
        on a full redraw when what sets the margins changed: a title's number of lines, an axis
        label, the widest tick label). A background is cached per ``key``, for figures that
        switch between a few states.
        """
        canvas = self.canvas
        dynamic = self.dynamic()
        if full:
            self._backgrounds.clear()
        background = self._backgrounds.get(key) if dynamic else None
        if background is None:
            for artist in dynamic:
                artist.set_animated(True)
            if self._engine is None:        # the first draw lays out; later ones keep it ...
                canvas.draw()
                self._engine = self.figure.get_layout_engine()
                self.figure.set_layout_engine("none")
                self._margins = self._margin_setters()
            else:                           # ... unless the margins need to change
                if relayout is None:
                    relayout = full and self._margin_setters() != self._margins
                if relayout:
                    self._engine.execute(self.figure)
                    self._margins = self._margin_setters()
                canvas.draw()
            if dynamic:
                self._backgrounds[key] = canvas.copy_from_bbox(self.figure.bbox)
        else:
            canvas.restore_region(background)
        for artist in dynamic:
            self.figure.draw_artist(artist)
        # Picture and words in one message: the page's Image view redraws on any change, so a
        # tooltip sent alone would make it decode the old picture once more.
        png = _png(np.asarray(canvas.buffer_rgba()))
        with self.image.hold_sync():
            self.image.tooltip = description(self.figure) or None
            self.image.value = png


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


def _png(rgba: np.ndarray) -> bytes:
    """Encode an RGBA pixel buffer (e.g. an Agg canvas's ``buffer_rgba()``) as an RGB PNG.

    Parameters
    ----------
    rgba : numpy.ndarray
        Shape ``(height, width, 4)``, dtype uint8; the alpha channel is dropped (figures are
        opaque).

    Returns
    -------
    bytes
        The PNG file.

    Notes
    -----
    Pillow writes the file (zlib level 1: plots are flat colour, so it is nearly as small as
    level 6 and faster). ``FigureCanvasAgg.print_png`` is not an option here: it draws the figure
    again, without the blitted artists. The hand-written struct/zlib encoder this replaced is
    faster on its own: ``make bench`` (2 shared cores, load average about 5) measured Pillow
    16.6 ms against 8.0 ms for the 480x480 board and 27.2 ms against 14.8 ms for the 960x448
    policy picture. From key press to settled page in Chromium the difference was lost in the
    noise (BoardExplorer 94 and 85 ms with Pillow, 101 and 102 ms with the old encoder, runs
    alternated; PolicyExplorer 80 and 64 against 127 and 52 ms), so the library it is.
    """
    if rgba.ndim != 3 or rgba.shape[2] != 4 or rgba.dtype != np.uint8:
        raise ValueError(f"png needs a (height, width, 4) uint8 array, got shape {rgba.shape} "
                         f"and dtype {rgba.dtype}")
    rgb = np.ascontiguousarray(rgba[:, :, :3])
    buffer = io.BytesIO()
    Image.fromarray(rgb).save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


class _Results:
    """Per-board results of library calls, least recently used first out.

    Equal boards share one entry (boards are hashable), so the core's own per-instance caches
    are reused when a student goes back to a board seen before.
    """

    def __init__(self, size: int = 32) -> None:
        self._data: OrderedDict[Board, dict[str, Any]] = OrderedDict()
        self._size = size

    def board(self, board: Board) -> Board:
        """The first-seen instance equal to ``board``."""
        return self._entry(board)["board"]

    def get(self, board: Board, key: str, compute: Callable[[Board], Any]) -> Any:
        entry = self._entry(board)
        if key not in entry:
            entry[key] = compute(entry["board"])
        return entry[key]

    def clear(self) -> None:
        self._data.clear()

    def _entry(self, board: Board) -> dict[str, Any]:
        entry = self._data.get(board)
        if entry is None:
            entry = self._data[board] = {"board": board}
            while len(self._data) > self._size:
                self._data.popitem(last=False)
        else:
            self._data.move_to_end(board)
        return entry


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;")


class _Offline:
    """What a notebook shows where a saved explorer cannot be drawn: a sentence, not a repr.

    An untrusted notebook in JupyterLab, or any viewer without the widget manager (GitHub, a
    text export), shows a widget output's ``text/plain``; ipywidgets puts the widget's repr there.
    """

    #: The explorer in a few words, e.g. "Board explorer: change the board and its rules".
    offline_summary = "an interactive explorer"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle: dict[str, Any] = super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]
        bundle["text/plain"] = (f"{self.offline_summary}. This is an interactive explorer: "
                                "run this cell to use it.")
        return bundle


class _Explorer(_Offline, widgets.VBox):
    """Shared behaviour: the message line, guarded control updates, library errors caught."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.message = widgets.HTML("")
        self.message.add_class("chutes-message")
        self.last_error: str = ""
        self._syncing = False

    @contextmanager
    def _sync(self) -> Iterator[None]:
        """Set controls from code without firing their handlers."""
        before, self._syncing = self._syncing, True
        try:
            yield
        finally:
            self._syncing = before

    def _show_error(self, text: str) -> None:
        self.last_error = text
        self.message.value = f'<span style="{_ERROR_STYLE}">&#9888; {_escape(text)}</span>'

    def _clear_error(self) -> None:
        self.last_error = ""
        self.message.value = ""

    def _handler(self, action: Callable[..., Any]) -> Callable[..., None]:
        """Wrap a control callback: skip it while syncing, turn exceptions into the message."""
        def run(*args: Any) -> None:
            if self._syncing:
                return
            try:
                action(*args)
            except ValueError as error:           # the library's own explanation
                self._show_error(str(error))
            except Exception as error:            # never a traceback in the page
                self._show_error(f"unexpected error ({type(error).__name__}): {error}")
        return run

    def _observe(self, control: widgets.Widget, action: Callable[[], Any]) -> None:
        control.observe(self._handler(lambda change: action()), names="value")


# --------------------------------------------------------------------------- 1. board explorer
class BoardExplorer(_Explorer):
    """Explore a board: preset, die, overshoot rule, bonus roll, jumps; live expected turns, the
    game-length distribution and a heat map of the board.

    Parameters
    ----------
    board : Board, default MILTON_BRADLEY_1943
        The board to start from.

    Attributes
    ----------
    preset, die, overshoot, bonus, heat, after_turns : ipywidgets controls
        The preset board (``PRESETS`` names), the number of faces (2..20), the overshoot rule,
        the face that rolls again (None for no bonus roll), what the heat map shows (expected
        turns, expected visits, or where the token is after ``after_turns`` turns).
    jump_from, jump_to, add_jump, remove_jump, jump_list : ipywidgets controls
        Edit the jumps: ``add_jump`` adds ``jump_from -> jump_to``, ``remove_jump`` removes the jump
        that starts on ``jump_from``; picking a jump in ``jump_list`` fills both fields.
    show_exact : ipywidgets.Checkbox
        Also show the expected turns as an exact fraction.
    readout, message : ipywidgets.HTML
        Expected turns from square 0 (4 decimals); the last invalid edit's message, or empty.
    board : Board
        The current (always valid) board.
    board_image, distribution_image : ipywidgets.Image
        The pictures.
    """

    offline_summary = ("Board explorer: change the board and its rules and watch the expected "
                       "length of a game")

    def __init__(self, board: Board = MILTON_BRADLEY_1943) -> None:
        super().__init__()
        self.add_class("chutes-board-explorer")
        if not isinstance(board, Board):
            raise ValueError(f"BoardExplorer needs a Board, not {type(board).__name__}")
        self._results = _Results()
        self.board = self._results.board(board)
        self._origin = self._preset_name(board)
        names = list(PRESETS)
        self._presets = dict(PRESETS)
        if self._origin not in self._presets:
            self._presets = {self._origin: board, **self._presets}
            names.insert(0, self._origin)
        self.preset = widgets.Dropdown(options=names, value=self._origin, description="board",
                                       layout=widgets.Layout(width="340px"))
        self.die = widgets.IntSlider(value=min(max(board.faces, 2), 20), min=2, max=20,
                                     description="die faces")
        self.die.add_class("chutes-die")
        self.overshoot = widgets.ToggleButtons(
            options=list(OVERSHOOT_RULES), value=board.overshoot, description="overshoot",
            tooltips=[_OVERSHOOT_HELP.get(r, r) for r in OVERSHOOT_RULES],
            style={"button_width": "92px"})
        self.bonus = widgets.Dropdown(options=self._bonus_options(board.faces),
                                      value=board.bonus_roll, description="roll again on",
                                      style={"description_width": "initial"},
                                      layout=widgets.Layout(width="170px"))
        self.heat = widgets.Dropdown(options=[("expected turns to finish", "turns"),
                                              ("expected visits from the start", "visits"),
                                              ("where the token is after k turns", "after")],
                                     value="turns", description="heat map",
                                     layout=widgets.Layout(width="340px"))
        self.after_turns = widgets.IntSlider(value=10, min=0, max=100, description="k turns",
                                             continuous_update=False,
                                             layout=widgets.Layout(width="340px",
                                                                   display="none"))
        self.jump_from = widgets.BoundedIntText(value=2, min=1, max=board.size - 1,
                                                description="from",
                                                layout=widgets.Layout(width="150px"))
        self.jump_to = widgets.BoundedIntText(value=12, min=0, max=board.size, description="to",
                                              layout=widgets.Layout(width="150px"))
        self.add_jump = widgets.Button(description="add jump", icon="plus",
                                       tooltip="add the jump from -> to")
        self.remove_jump = widgets.Button(description="remove jump", icon="minus",
                                          tooltip="remove the jump that starts on 'from'")
        self.jump_list = widgets.Select(options=[], rows=7, description="jumps",
                                        layout=widgets.Layout(width="260px"))
        self.show_exact = widgets.Checkbox(value=False, description="show the exact fraction",
                                           indent=False)
        self.readout = widgets.HTML("")
        self.readout.add_class("chutes-readout")

        self.board_view = _FigureView((480, 480), dynamic=self._board_artists,
                                      css="chutes-board-image")
        self.distribution_view = _FigureView((544, 304), dynamic=self._distribution_artists,
                                             css="chutes-distribution-image")
        self.board_image = self.board_view.image
        self.distribution_image = self.distribution_view.image
        self._board_ax = self.board_view.figure.add_subplot()
        self._dist_ax = self.distribution_view.figure.add_subplot()
        self._board_painter: Any = None
        self._dist_painter: Any = None
        self._numbers: _NumberLayer | None = None

        self._observe(self.preset, self._on_preset)
        self._observe(self.die, lambda: self._edit(lambda b: b.replace(die=self.die.value)))
        self._observe(self.overshoot,
                      lambda: self._edit(lambda b: b.replace(overshoot=self.overshoot.value)))
        self._observe(self.bonus,
                      lambda: self._edit(lambda b: b.replace(bonus_roll=self.bonus.value)))
        self._observe(self.heat, self._on_heat)
        self._observe(self.after_turns, lambda: self._refresh(readout=False, distribution=False))
        self._observe(self.show_exact, lambda: self._refresh(pictures=False))
        self._observe(self.jump_list, self._on_pick)
        self.add_jump.on_click(self._handler(lambda _: self._edit(
            lambda b: b.with_jump(self.jump_from.value, self.jump_to.value))))
        self.remove_jump.on_click(self._handler(lambda _: self._edit(
            lambda b: b.without_jump(self.jump_from.value))))

        self._sync_controls()
        self._refresh(full=True)
        editor = widgets.HBox([widgets.VBox([self.jump_from, self.jump_to,
                                             widgets.HBox([self.add_jump]),
                                             widgets.HBox([self.remove_jump])]),
                               self.jump_list])
        self.children = [
            widgets.HTML("<b>Board explorer</b>: change the board and its rules."),
            widgets.HBox([self.preset, self.bonus]),
            self.die, self.overshoot, editor,
            widgets.HBox([self.readout, self.show_exact],
                         layout=widgets.Layout(justify_content="space-between")),
            self.message,
            widgets.HBox([self.board_image, widgets.VBox([self.distribution_image, self.heat,
                                                          self.after_turns])],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start")),
        ]

    # -- helpers
    @staticmethod
    def _preset_name(board: Board) -> str:
        for name, preset in PRESETS.items():
            if preset == board:
                return name
        return board.name or "custom board"

    @staticmethod
    def _bonus_options(faces: int) -> list[tuple[str, int | None]]:
        return [("none", None)] + [(str(f), f) for f in range(1, faces + 1)]

    def _board_artists(self) -> list[Artist]:
        if self._board_painter is None:
            return []
        painter = self._board_painter
        if self._numbers is None:
            self._numbers = _NumberLayer(painter)
        return [self._board_ax.title, *(self._numbers if a is painter.halo else a
                                        for a in painter.dynamic_artists()
                                        if a is not painter.numbers)]

    def _distribution_artists(self) -> list[Artist]:
        return self._dist_painter.dynamic_artists() if self._dist_painter else []

    def _sync_controls(self) -> None:
        """Show the current board in the controls (without firing their handlers)."""
        b = self.board
        with self._sync():
            self.die.value = min(max(b.faces, 2), 20)
            self.overshoot.value = b.overshoot
            options = self._bonus_options(max(b.faces, self.die.value))
            if list(self.bonus.options) != options:
                self.bonus.options = options
            self.bonus.value = b.bonus_roll
            if b.bonus_roll is None:
                self.bonus.index = 0            # show "none" (value None alone selects nothing)
            self.jump_from.max, self.jump_to.max = b.size - 1, b.size
            self.jump_list.options = [(f"{a} \u2192 {d}  {'ladder' if d > a else 'chute'}", a)
                                      for a, d in b.jumps.items()]
            self.jump_list.value = None

    # -- events
    def _edit(self, change: Callable[[Board], Board]) -> None:
        """Apply one edit; on a ValueError keep the board and show the library's message."""
        try:
            new = change(self.board)
        except ValueError as error:
            self._show_error(str(error))
            self._sync_controls()             # the controls go back to the board shown
            return
        self._clear_error()
        self.board = self._results.board(new)
        self._sync_controls()
        self._refresh()

    def _on_preset(self) -> None:
        self._edit(lambda _: self._presets[self.preset.value])

    def _on_pick(self) -> None:
        source = self.jump_list.value
        if source is not None:
            with self._sync():
                self.jump_from.value = source
                self.jump_to.value = self.board.jumps[source]

    def _on_heat(self) -> None:
        self.after_turns.layout.display = "" if self.heat.value == "after" else "none"
        self._refresh(readout=False, distribution=False)

    # -- outputs
    def _refresh(self, *, full: bool = False, readout: bool = True, pictures: bool = True,
                 distribution: bool = True) -> None:
        """Redraw the pictures, then the readout (so a readout shows only when all is done)."""
        board, results = self.board, self._results
        turns = results.get(board, "turns", expected_turns)
        if pictures:
            self._draw_board(board, turns, full)
            if distribution:
                pmf = results.get(board, "pmf", turn_distribution)
                if self._dist_painter is None:
                    plot_distribution(pmf, ax=self._dist_ax,
                                      title="How long is a one-player game?")
                    self._dist_painter = getattr(self._dist_ax, _PAINTER)
                changed = self._dist_painter.update(pmf, sticky=True)
                self.distribution_view.render(full=changed)
        if readout:
            text = f"Expected turns from the start: <b>{float(turns[0]):.4f}</b> turns"
            if self.show_exact.value:
                exact = results.get(board, "exact", lambda b: expected_turns(b, exact=True)[0])
                text += (f'<br><span style="word-break:break-all">exactly '
                         f'<code>{exact.p}/{exact.q}</code></span>')
            self.readout.value = text

    def _draw_board(self, board: Board, turns: np.ndarray, full: bool) -> None:
        title = board.name or f"{self.preset.value} (edited)"
        if self.heat.value == "visits":
            values = self._results.get(board, "visits", lambda b: fundamental_matrix(b)[0])
            label = "expected visits from the start (turns begun there)"
        elif self.heat.value == "after":
            # The final square collects the finished games and would swamp the colour scale (as
            # in lesson 3): it is grey, and its probability is in the title.
            k = self.after_turns.value
            values = square_distribution(board, k).copy()
            finished, values[board.size] = float(values[board.size]), np.nan
            label = "probability of being on the square after k turns"
            title += (f"\nafter {k} turn{'' if k == 1 else 's'}: {finished:.3f} finished "
                      f"(square {board.size}, grey)")
        else:
            values, label = turns, "expected turns to finish (turns)"
        # Colour scale and axes stay put while the data fit them ("sticky"), so that most changes
        # redraw only the data over a cached background, and pictures are easy to compare.
        if self._board_painter is None:
            draw_board(board, values, ax=self._board_ax, label=label, title=title)
            self._board_painter = getattr(self._board_ax, _PAINTER)
            full = True
        else:
            self._board_painter.name = board.name
            self._board_painter.set_jumps(dict(board.jumps))
            full |= self._board_painter.set_traps(board.traps)      # a new legend
            if self._board_painter.colorbar.ax.get_ylabel() != label:
                self._board_painter.colorbar.set_label(label)
                self._board_painter.label = label
                full = True
            self._board_ax.set_title(title)         # drawn with the data: no full redraw
        full |= self._board_painter.set_values(values, sticky=True)
        self.board_view.render(full=full)


# --------------------------------------------------------------------------- 2. coin flips
class CoinFlipExplorer(_Explorer):
    """The warm-up: flip until heads, many times; the running average against ``1/p``.

    Attributes
    ----------
    p : ipywidgets.FloatSlider
        The probability of heads.
    n : ipywidgets.BoundedIntText
        The number of trials (runs of flips until heads).
    seed : ipywidgets.IntText
        The random seed.
    readout, message : ipywidgets.HTML
    image : ipywidgets.Image
        The running average with its 95% band and the line ``1/p``.
    """

    offline_summary = ("Waiting for heads: flip a coin until heads and watch the average "
                       "number of flips")

    def __init__(self, p: float = 0.5, n_trials: int = 1000, seed: int = 0) -> None:
        super().__init__()
        self.add_class("chutes-coin-explorer")
        self.p = widgets.FloatSlider(value=p, min=0.01, max=1.0, step=0.01,
                                     description="P(heads) p", readout_format=".2f",
                                     style={"description_width": "initial"})
        self.p.add_class("chutes-p")
        self.n = widgets.BoundedIntText(value=n_trials, min=1, max=1_000_000, step=100,
                                        description="trials", layout=widgets.Layout(width="200px"))
        self.seed = widgets.IntText(value=seed, description="seed",
                                    layout=widgets.Layout(width="160px"))
        self.readout = widgets.HTML("")
        self.readout.add_class("chutes-readout")
        self._painter: Any = None
        self.view = _FigureView((512, 320), dynamic=lambda: (self._painter.dynamic_artists()
                                                            if self._painter else []),
                                css="chutes-coin-image")
        self.image = self.view.image
        self._ax = self.view.figure.add_subplot()
        self.flips: np.ndarray = np.zeros(0, dtype=np.int64)
        for control in (self.p, self.n, self.seed):
            self._observe(control, self._refresh)
        self._refresh()
        self.children = [
            widgets.HTML("<b>Waiting for heads</b>: flip a coin until it shows heads; how many "
                         "flips does that take on average?"),
            widgets.HBox([self.p, self.n, self.seed]), self.readout, self.message, self.image]

    def _refresh(self) -> None:
        p = self.p.value
        self.flips = flips_until_heads(p, self.n.value, seed=self.seed.value)
        exact = expected_flips(p)
        mean, half = running_mean(self.flips)
        label = "1/p, the first-step answer"
        if self._painter is None:
            plot_convergence(self.flips, exact, ax=self._ax, unit="flips", what="trials",
                             exact_label=label, title="Waiting for heads", legend_values=False)
            self._painter = getattr(self._ax, _PAINTER)
        changed = self._painter.update(self.flips, exact, exact_label=label, sticky=True)
        self.view.render(full=changed, relayout=self._painter.relayout or None)
        self._clear_error()
        band = f" &plusmn; {half[-1]:.3f}" if np.isfinite(half[-1]) else ""
        self.readout.value = (f"average of {self.flips.size:,} trials: "
                              f"<b>{mean[-1]:.3f}</b>{band} flips (95%); "
                              f"first-step answer 1/p = <b>{exact:.4f}</b> flips")


# --------------------------------------------------------------------------- 3. simulation
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
    cap : ipywidgets.IntSlider
        Count every game as at most this many turns (0 = no cap; up to 300), to show the bias.
    seed : ipywidgets.IntText
    run : ipywidgets.Button
        Calls :meth:`run_simulation`.
    progress : ipywidgets.IntProgress
        Games played so far, in percent, while a simulation runs.
    readout, message : ipywidgets.HTML
    image : ipywidgets.Image
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
        self.n_games = widgets.BoundedIntText(value=n_games, min=1, max=5_000_000, step=1000,
                                              description="games",
                                              layout=widgets.Layout(width="200px"))
        self.cap = widgets.IntSlider(value=0, min=0, max=300, description="cap turns at",
                                     style={"description_width": "initial"},
                                     layout=widgets.Layout(width="340px"))
        self.cap.add_class("chutes-cap")
        self.seed = widgets.IntText(value=seed, description="seed",
                                    layout=widgets.Layout(width="160px"))
        self.run = widgets.Button(description="run", icon="play", button_style="primary")
        self.progress = widgets.IntProgress(value=0, min=0, max=100, description="played",
                                            layout=widgets.Layout(width="300px"))
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
            widgets.HBox([self.cap, widgets.HTML("<small>(0 = no cap)</small>")]),
            self.readout, self.message, self.image]

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
        self.readout.value = text


# --------------------------------------------------------------------------- 4. add a jump
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
    jump_from, jump_to : ipywidgets.SelectionSlider
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
    image : ipywidgets.Image
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
        self.jump_from = widgets.SelectionSlider(options=[(str(s), s) for s in sources], value=a,
                                                 description="from a")
        self.jump_to = widgets.SelectionSlider(options=self._destinations(a), value=b,
                                               description="to b")
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
            self.jump_from, self.jump_to, self.note, self.readout, self.message, self.image]

    def _destinations(self, a: int) -> list[tuple[str, int]]:
        return [(str(b), int(b)) for b in np.flatnonzero(self._allowed[a])]

    def _nearest(self, a: int, b: int) -> tuple[int, int]:
        """The allowed jump nearest to ``a -> b`` (first the source, then the destination)."""
        sources = np.flatnonzero(self._allowed.any(axis=1))
        a = int(sources[np.argmin(np.abs(sources - a) + 0.5 * (sources < a))])
        targets = np.flatnonzero(self._allowed[a])
        return a, int(targets[np.argmin(np.abs(targets - b) + 0.5 * (targets < b))])

    def _skipped(self) -> str:
        text = (f"The sliders skip the jumps the rules refuse: none starts on 0, "
                f"{self.board.size} or an end of a jump already there, none ends where one starts")
        if self.min_length > 1:
            text += f", none is shorter than {self.min_length} squares"
        return f"<small>{text}.</small>"

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
        self.readout.value = text


# --------------------------------------------------------------------------- 5. race
class RaceExplorer(_Explorer):
    """A race of 2 to 6 players on any squares: each seat's chance of winning (seat 1 moves first).

    Parameters
    ----------
    board : Board, default MILTON_BRADLEY_1943
        The board.
    players : int, default 2
        The initial number of players.

    Attributes
    ----------
    players : ipywidgets.IntSlider
        The number of players (2..6).
    squares : list of ipywidgets.IntSlider
        One slider per player (``len(squares) == players.value``), their squares in seat order.
    readout, message : ipywidgets.HTML
    probabilities : numpy.ndarray
        The last result of :func:`~chutes_edu.win_probabilities`.
    image, board_image : ipywidgets.Image
        The bars and the board with the tokens.
    """

    offline_summary = ("Race explorer: put the players anywhere and see who is most likely to "
                       "win")

    def __init__(self, board: Board = MILTON_BRADLEY_1943, players: int = 2) -> None:
        super().__init__()
        self.add_class("chutes-race-explorer")
        self.board = board
        self._pool = [widgets.IntSlider(value=0, min=0, max=board.size - 1,
                                        description=f"player {i + 1}") for i in range(6)]
        for i, slider in enumerate(self._pool):
            slider.add_class(f"chutes-player-{i + 1}")
        self.players = widgets.IntSlider(value=min(max(players, 2), 6), min=2, max=6,
                                         description="players")
        self.players.add_class("chutes-players")
        self.squares: list[widgets.IntSlider] = []
        self.readout = widgets.HTML("")
        self.readout.add_class("chutes-readout")
        self.probabilities = np.zeros(0)
        self._bars: Any = None
        self.view = _FigureView((448, 320), dynamic=lambda: (self._bars.dynamic_artists()
                                                            if self._bars else []),
                                css="chutes-race-image")
        self.image = self.view.image
        self._bar_ax = self.view.figure.add_subplot()
        self.board_view = _FigureView((448, 496), dynamic=lambda: list(self._tokens.tokens),
                                      css="chutes-race-board-image")
        self.board_image = self.board_view.image
        draw_board(board, ax=self.board_view.figure.add_subplot(), tokens=[0] * 6,
                   title=board.name or None)
        self._tokens = getattr(self.board_view.figure.axes[0], _PAINTER)
        self.board_view.render()          # lay out room for the legend of six players, once
        self._box = widgets.VBox()
        for slider in self._pool:
            self._observe(slider, self._refresh)
        self._observe(self.players, self._on_players)
        self._on_players()
        self.children = [
            widgets.HTML("<b>Race</b>: put the players anywhere; who is most likely to win? "
                         "Seat 1 moves first."),
            self.players, self._box, self.readout, self.message,
            widgets.HBox([self.image, self.board_image],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))]

    def _on_players(self) -> None:
        self.squares = self._pool[: self.players.value]
        self._box.children = tuple(self.squares)
        self._refresh()

    def _refresh(self) -> None:
        positions = [s.value for s in self.squares]
        self.probabilities = win_probabilities(self.board, positions)
        if self._bars is None:
            plot_win_probabilities(self.probabilities, ax=self._bar_ax)
            self._bars = getattr(self._bar_ax, _PAINTER)
        ymax = self._bars.ymax
        self._bars.update(self.probabilities, sticky=True)
        # one background per number of players; a new probability scale redraws them all
        self.view.render(full=self._bars.ymax != ymax, relayout=False, key=len(positions))
        self._tokens.set_tokens(positions)
        self.board_view.render(key=len(positions))          # the legend lists the players
        self._clear_error()
        best = int(np.argmax(self.probabilities))
        self.readout.value = ("<br>".join(f"seat {i + 1} (square {s}): <b>{p:.4f}</b>"
                                          for i, (s, p) in
                                          enumerate(zip(positions, self.probabilities,
                                                        strict=True)))
                              + f"<br>favourite: seat {best + 1}")
