"""What the explorers share on the Python side: a small cache of library results per board, the
HTML escape of a line of words, and the sentence a notebook shows where a saved explorer cannot be
drawn.

Every explorer computes and draws in the page (its front end and maths in ``widgets/js``); its
Python class holds the state as synced traits, checked by the library, and reads the library's
numbers for a reader in the kernel.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ..board import Board


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
