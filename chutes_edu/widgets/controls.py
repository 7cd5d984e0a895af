"""Accessible controls for the explorers, as anywidgets (one small ES module, ``js/controls.js``).

ipywidgets' sliders give their handle no accessible name (ipywidgets issue 2650), its ``Image``
puts a description only in a tooltip, and it has no live region. These few widgets fill the gaps
with native HTML, so a screen reader and the keyboard get what a mouse user gets:

- :class:`IntSlider`, :class:`FloatSlider`, :class:`SelectionSlider`: an ``<input type="range">``
  with a ``<label>`` (its ``description``: the accessible name, which says what it sets) and
  ``aria-valuetext``, the value with its ``unit`` ("7 faces"); the
  arrows, Page Up/Down, Home and End move it. They keep ipywidgets' Python interface (``value``,
  ``min``, ``max``, ``step``, ``options``, ``description``, ``continuous_update``, ``observe``),
  so explorers and tests use them as before.
- :class:`Picture`: an ``<img>`` with ``alt`` text, sent with each new picture in one message.
- :class:`LiveRegion`: a polite live region (``role="status"``); an explorer puts its headline
  numbers there after a change ("Expected length 34.7 turns, was 39.2"), which a screen reader
  reads once, without the rest of the page. It is visually hidden unless ``visible``.

The shared stylesheet (``js/controls.css``) also gives every explorer a focus ring that meets the
3:1 contrast of WCAG 2.1 (a 3 px dark-blue outline with a white gap).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

__all__ = ["IntSlider", "FloatSlider", "SelectionSlider", "Picture", "LiveRegion"]

_JS = Path(__file__).parent / "js"


class _Control(anywidget.AnyWidget):
    _esm = _JS / "controls.js"
    _css = _JS / "controls.css"
    _kind = traitlets.Unicode().tag(sync=True)


class _Slider(_Control):
    _kind = traitlets.Unicode("slider").tag(sync=True)
    description = traitlets.Unicode("", help="What it sets: the label and accessible name."
                                    ).tag(sync=True)
    unit = traitlets.Unicode("", help="The unit of the value, e.g. 'faces'.").tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)
    continuous_update = traitlets.Bool(True, help="Send every step while the value moves "
                                             "(else only when it settles).").tag(sync=True)
    # a SelectionSlider's option labels; empty for a numeric slider
    labels = traitlets.List(traitlets.Unicode()).tag(sync=True)
    index = traitlets.Int(0).tag(sync=True)
    decimals = traitlets.Int(0).tag(sync=True)


class _NumberSlider(_Slider):
    value: Any
    min: Any
    max: Any

    @traitlets.validate("value")
    def _clamp(self, proposal: Any) -> Any:
        return min(max(proposal["value"], self.min), self.max)

    @traitlets.observe("min", "max")
    def _keep_inside(self, change: Any) -> None:
        if self.max < self.min:
            raise traitlets.TraitError(f"{self.description}: max {self.max} < min {self.min}")
        self.value = min(max(self.value, self.min), self.max)


class IntSlider(_NumberSlider):
    """A slider for a whole number, e.g. ``IntSlider(6, 2, 20, description="die faces",
    unit="faces")``."""

    value = traitlets.Int(0).tag(sync=True)
    min = traitlets.Int(0).tag(sync=True)
    max = traitlets.Int(100).tag(sync=True)
    step = traitlets.Int(1).tag(sync=True)

    def __init__(self, value: int = 0, min: int = 0, max: int = 100, step: int = 1,
                 **kwargs: Any) -> None:
        super().__init__(min=min, max=max, step=step, **kwargs)
        self.value = value


class FloatSlider(_NumberSlider):
    """A slider for a real number shown with ``decimals`` decimals."""

    value = traitlets.Float(0.0).tag(sync=True)
    min = traitlets.Float(0.0).tag(sync=True)
    max = traitlets.Float(1.0).tag(sync=True)
    step = traitlets.Float(0.1).tag(sync=True)

    def __init__(self, value: float = 0.0, min: float = 0.0, max: float = 1.0,
                 step: float = 0.1, decimals: int = 2, **kwargs: Any) -> None:
        super().__init__(min=min, max=max, step=step, decimals=decimals, **kwargs)
        self.value = value


class SelectionSlider(_Slider):
    """A slider over a list of ``(label, value)`` options, e.g. the squares a jump may start on.

    ``value`` is the chosen option's value (kept in Python); the page works with its position
    ``index`` and shows its label, which is also what a screen reader reads.
    """

    value = traitlets.Any(None)
    options: traitlets.List[Any] = traitlets.List()

    def __init__(self, options: list[tuple[str, Any]], value: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.options = list(options)
        if value is not None:
            self.value = value

    @traitlets.observe("options")
    def _on_options(self, change: Any) -> None:
        pairs = [(str(label), v) for label, v in change["new"]]
        if not pairs:
            raise traitlets.TraitError(f"{self.description}: a SelectionSlider needs options")
        values = [v for _, v in pairs]
        keep = self.value if self.value in values else values[0]
        with self.hold_sync():
            self.labels = [label for label, _ in pairs]
            self.index = values.index(keep)
        self.value = keep

    @traitlets.validate("value")
    def _known(self, proposal: Any) -> Any:
        values = [v for _, v in self.options]
        if values and proposal["value"] not in values:
            raise traitlets.TraitError(f"{self.description}: {proposal['value']!r} is not one "
                                       "of the options")
        return proposal["value"]

    @traitlets.observe("value")
    def _to_index(self, change: Any) -> None:
        values = [v for _, v in self.options]
        if change["new"] in values:
            self.index = values.index(change["new"])

    @traitlets.observe("index")
    def _from_index(self, change: Any) -> None:
        if 0 <= change["new"] < len(self.options):
            self.value = self.options[change["new"]][1]


class Picture(_Control):
    """A PNG picture with its alt text: ``show(png_bytes, "what it shows")``."""

    _kind = traitlets.Unicode("picture").tag(sync=True)
    value = traitlets.Bytes(b"").tag(sync=True)
    alt = traitlets.Unicode("", help="What the picture shows.").tag(sync=True)
    format = traitlets.Unicode("png").tag(sync=True)
    width = traitlets.Int(0).tag(sync=True)
    height = traitlets.Int(0).tag(sync=True)

    def show(self, png: bytes, alt: str) -> None:
        """A new picture and its description, in one message to the page."""
        with self.hold_sync():
            self.value = png
            self.alt = alt


class LiveRegion(_Control):
    """A polite live region: set ``text`` after a change and a screen reader reads it once."""

    _kind = traitlets.Unicode("live").tag(sync=True)
    text = traitlets.Unicode("").tag(sync=True)
    visible = traitlets.Bool(False, help="Show the text too (else only screen readers get it)."
                             ).tag(sync=True)
