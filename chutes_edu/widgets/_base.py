"""What every explorer shares: a persistent matplotlib figure shown as a PNG (:class:`_FigureView`),
the PNG encoder, a small cache of library results, the message line with the library's errors, and
the sentence a notebook shows where a saved explorer cannot be drawn.

Pictures are persistent matplotlib figures on the Agg canvas, shown as PNG in an image widget: they
work headless (tests), in JupyterLab and in Voila alike. An image is shown at exactly its pixel size
(never stretched or upscaled; a narrow page shrinks it keeping its aspect ratio), and its smallest
text is 11 px (:data:`~chutes_edu.plots.SMALL_TEXT` points at 80 dpi). A change re-draws only the
artists that change (blitting over a cached background) to stay well under 100 ms per interaction
on the standard board (``make bench`` measures it, from key press to settled page in Chromium
through Voila). With each new picture the image says what it shows: its description
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
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from ..board import Board
from ..plots.alt_text import description
from .controls import LiveRegion, Picture

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


class _FigureView:
    """A persistent Agg figure shown as a PNG with its alt text (a :class:`Picture`).

    The first render lays the figure out (constrained layout) and freezes that layout. If
    ``dynamic`` returns artists, later renders restore a cached background drawn without them and
    draw only them on top (blitting); ``render(full=True)`` redraws everything.

    The figure is ``size`` pixels (width, height) and the picture shows it at exactly that size:
    its ``width``/``height`` and layout are the PNG's, it never grows (flex items stretch
    otherwise), and a narrow page only ever shrinks it, keeping its aspect ratio. Every render
    sends the picture with its description (:func:`~chutes_edu.plots.describe`), computed from
    what was drawn, as its ``alt`` text.
    """

    def __init__(self, size: tuple[int, int], *, dynamic: Callable[[], list[Artist]] | None = None,
                 css: str = "") -> None:
        width, height = size
        self.size = (int(width), int(height))
        self.figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, layout="constrained")
        self.canvas = FigureCanvasAgg(self.figure)
        self.dynamic = dynamic or list
        self.image = Picture(width=width, height=height,
                             layout=widgets.Layout(width=f"{width}px", max_width="100%",
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
        self.image.show(_png(np.asarray(canvas.buffer_rgba())), description(self.figure))


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

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]
        # ipywidgets gives the data; anywidget (data, metadata)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["text/plain"] = (f"{self.offline_summary}. This is an interactive explorer: "
                              "run this cell to use it.")
        return bundle


class _Explorer(_Offline, widgets.VBox):
    """Shared behaviour: the message line, guarded control updates, library errors caught, and
    what a screen reader hears.

    ``message`` shows the library's explanation of an invalid edit (an alert, read out at once);
    ``live`` is a polite live region for the headline numbers after a change (:meth:`_announce`).
    Every explorer's root has the CSS class ``chutes-explorer`` (its focus ring, controls.css).
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("chutes-explorer")
        self.message = widgets.HTML("")
        self.message.add_class("chutes-message")
        self.live = LiveRegion()
        self.last_error: str = ""
        self._syncing = False

    def _announce(self, text: str) -> None:
        """Say ``text`` to a screen reader (politely, once): the headline numbers of a change."""
        self.live.text = text

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
        self.message.value = (f'<span role="alert" style="{_ERROR_STYLE}">&#9888; '
                              f'{_escape(text)}</span>')

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
