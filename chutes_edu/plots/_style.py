"""What every picture shares: the colour-blind-safe palette, the smallest text, new axes, legends
below the data, and the words and number formats of the descriptions."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import matplotlib
import numpy as np
from matplotlib import transforms
from matplotlib.axes import Axes

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


def _new_axes(figsize: tuple[float, float]) -> Axes:
    import matplotlib.pyplot as plt  # only when the caller gave no axes (notebooks)
    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def _legend_below(ax: Axes, handles: Sequence[Any], *, ncol: int, **kwargs: Any) -> Any:
    """A frameless legend centred under the axes, below the tick labels (each as many lines high
    as the tallest) and the x label: call it after the ticks are named.

    The offset is in points (tick, tick label and x label heights), so it holds at any figure size;
    constrained layout then makes room for the legend instead of letting it cover the data.
    """
    rc = matplotlib.rcParams
    drop = 2.0
    if ax.xaxis.get_visible() and ax.get_xticks().size:
        drop += rc["xtick.major.size"] + rc["xtick.major.pad"]
        # a tick label of several lines ("seat 1\nsquare 14") is as many lines high
        lines = max((label.get_text().count("\n") + 1 for label in ax.get_xticklabels()),
                    default=1)
        drop += 1.3 * _points(rc["xtick.labelsize"]) * lines
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
