"""Alt text: every picture says what it shows.

:func:`describe` gives a figure (or one of its axes) a sentence of *alt text*; every plotting
function of the course describes its axes with a sentence computed from what it draws. When a
notebook shows a figure, the description becomes the output's ``{"image/png": {"alt": ...}}``
metadata (an IPython formatter registered when :mod:`chutes_edu.plots` is imported), and the
output also gets the ``<img alt=...>`` that JupyterLab and Voila show; the explorers show it on
their pictures. A saved notebook keeps only that ``<img>`` (``tools/slim_notebook.py``), which the
course website reads back into a PNG with its alt text.

A figure's description is its own if :func:`describe` was given the figure, otherwise its axes'
descriptions in drawing order, so side-by-side pictures are all described; drawing twice on the
same axes keeps the last description.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure, FigureBase

from ..i18n import say

_ALT = "_chutes_edu_alt"
"""The attribute that holds a figure's or an axes' description: a ``str``, or for the pictures
that widgets redraw in place, a callable returning the current one (see :func:`_set_alt`)."""


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
        raise ValueError(say("describe needs a matplotlib figure or axes, not {kind}",
                             kind=type(fig_or_ax).__name__))
    if not isinstance(text, str):
        raise ValueError(say("the description must be a str, not {kind}",
                             kind=type(text).__name__))
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


def _img_tag(png: Any, metadata: dict[str, Any] | None, alt: str) -> str:
    """``<img alt=... src="data:image/png;base64,...">`` for a PNG formatter's output."""
    data = png if isinstance(png, str) else base64.b64encode(png).decode("ascii")
    size = "".join(f' {key}="{int(metadata[key])}"' for key in ("width", "height")
                   if metadata and key in metadata)
    return (f'<img alt="{html.escape(alt, quote=True)}"{size} '
            f'src="data:image/png;base64,{data}">')


_IMG_TAG = re.compile(r'<img alt="(?P<alt>[^"]*)"(?P<size>(?: (?:width|height)="\d+")*) '
                      r'src="data:image/png;base64,(?P<data>[A-Za-z0-9+/=\s]+)">')
"""What :func:`_img_tag` writes."""


def _read_img_tag(text: str) -> tuple[str, str, dict[str, int]] | None:
    """``(alt text, base64 PNG, {"width": ..., "height": ...})`` of an ``<img>`` that
    :func:`_img_tag` wrote (a figure's ``text/html``), or None if ``text`` is no such tag.

    A saved notebook keeps only this copy of a figure (``tools/slim_notebook.py``); the course
    website reads it back into a PNG with its alt text (``book/build.py``).
    """
    tag = _IMG_TAG.fullmatch(text.strip())
    if tag is None:
        return None
    size = {key: int(value) for key, value in re.findall(r'(width|height)="(\d+)"', tag["size"])}
    return html.unescape(tag["alt"]), "".join(tag["data"].split()), size


class _PngWithAlt:
    """The PNG formatter of figures, wrapped to add the alt text to its own metadata.

    IPython lets a PNG formatter's metadata replace the mime bundle's: the inline backend's
    ``figure_format = "retina"`` returns the picture's width and height, which would drop the alt
    text. Wrapped, it keeps both. It also remembers its last picture for one call, so that the
    HTML ``<img>`` made just before (:func:`register_alt_text`) and the PNG come from one drawing.
    """

    def __init__(self, printer: Callable[[Figure], Any]) -> None:
        self.printer = printer
        self._last: tuple[Figure, Any] | None = None

    def draw(self, figure: Figure) -> Any:
        """The printer's output for ``figure``, kept for the next call on the same figure."""
        out = self.printer(figure)
        self._last = (figure, out)
        return out

    def __call__(self, figure: Figure) -> Any:
        last, self._last = self._last, None
        out = last[1] if last is not None and last[0] is figure else self.printer(figure)
        text = description(figure)
        if not text or out is None:
            return out
        data, metadata = out if isinstance(out, tuple) else (out, None)
        return data, {**(metadata or {}), "alt": text}


def _wrap_png_printer(shell: Any) -> _PngWithAlt | None:
    """Wrap the PNG formatter of figures (again, after the inline backend registered a new one)."""
    formatter = shell.display_formatter.formatters.get("image/png")
    try:
        printer = formatter.lookup_by_type(Figure)
    except (KeyError, AttributeError):
        return None
    if not isinstance(printer, _PngWithAlt):
        printer = _PngWithAlt(printer)
        formatter.for_type(Figure, printer)
    return printer


def _alt_bundle(figure: Figure, printer: _PngWithAlt | None
                ) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """IPython's mime-bundle formatter for figures: the picture as an HTML ``<img>`` with its alt
    text, and the alt text as the PNG's metadata.

    JupyterLab and Voila ignore an output's metadata when they draw a PNG, and prefer HTML to a
    PNG: the ``<img alt>`` is what they show. The PNG itself (the inline backend's formatter,
    :class:`_PngWithAlt`) stays in the output for other readers (the course website, exports).
    A figure without a description gets None: its output is unchanged.
    """
    text = description(figure)
    if not text:
        return None
    metadata: dict[str, Any] = {"image/png": {"alt": text}}
    if printer is None:
        return {}, metadata
    out = printer.draw(figure)
    if out is None:
        return {}, metadata
    png, size = out if isinstance(out, tuple) else (out, None)
    return {"text/html": _img_tag(png, size, text)}, metadata


def _shell(shell: Any = None) -> Any:
    """``shell``, else the running IPython shell, else None (outside IPython nothing is shown)."""
    if shell is not None:
        return shell
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def register_alt_text(shell: Any = None) -> bool:
    """Give every figure a notebook shows its description as alt text (done on import).

    The figure's output gets an HTML ``<img alt="description" src="data:...">`` (what JupyterLab
    and Voila show) beside its PNG, and the metadata ``{"image/png": {"alt": description}}`` (what
    the course website reads); a figure without a description is shown as before.

    Parameters
    ----------
    shell : IPython.core.interactiveshell.InteractiveShell, optional
        The shell to register with; default the running one (none outside IPython).

    Returns
    -------
    bool
        True if a shell was found and the formatter registered.
    """
    shell = _shell(shell)
    if shell is None:
        return False

    def bundle(figure: Figure) -> tuple[dict[str, Any], dict[str, Any]] | None:
        # runs before the PNG formatter, in the same display
        return _alt_bundle(figure, _wrap_png_printer(shell))

    shell.display_formatter.mimebundle_formatter.for_type(Figure, bundle)
    return True
