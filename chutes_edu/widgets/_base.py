"""What the explorers share on the Python side: a small cache of library results per board, the
HTML escape of a line of words, the sentence a notebook shows where a saved explorer cannot be
drawn, the one way a refused value is kept in ``last_error`` (:class:`_Refusals`), and the one
validator of a board set when the explorer is made (:class:`_FixedBoard`).

The sentence a notebook shows offline is said in the student's language (:mod:`chutes_edu.i18n`),
as every explorer's words are: each explorer's ``language`` trait, set when it is made, tells its
page which catalog to read (``js/core/i18n.js``).

Every explorer computes and draws in the page (its front end and maths in ``widgets/js``); its
Python class holds the state as synced traits, checked by the library, and reads the library's
numbers for a reader in the kernel.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

import traitlets

from ..board import Board, board_to_json
from ..i18n import gettext

_T = TypeVar("_T")


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
        data["text/plain"] = gettext("{summary}. This is an interactive explorer: run this cell "
                                     "to use it.").format(summary=gettext(self.offline_summary))
        return bundle


class _Refusals:
    """The explorers' one pattern for a value the library refuses: its words in ``last_error``
    (what a reader in the kernel sees; the page shows its own), and a TraitError for traitlets.

    A validator returns ``self._checked(lambda: check(value))``: the check's ValueError becomes
    the TraitError, and a value taken clears the last refusal.
    """

    #: The last refusal of a value set here, "" if none.
    last_error: str = ""

    def _refused(self, error: ValueError | str) -> traitlets.TraitError:
        """Keep ``error``'s words in ``last_error``; the TraitError to raise with them."""
        self.last_error = str(error)
        return traitlets.TraitError(self.last_error)

    def _checked(self, check: Callable[[], _T]) -> _T:
        try:
            value = check()
        except ValueError as error:
            raise self._refused(error) from None
        self.last_error = ""
        return value


class _FixedBoard:
    """An explorer whose board is set when it is made: a ``board`` attribute, set before
    ``super().__init__``, and its ``board_json`` trait, which then refuses any other board (the
    page never sends one; code that tries is told to make a new explorer).

    ``_fixed`` names each fixed trait as the constructor calls it; an explorer with more than the
    board fixed lists them and registers :meth:`_keep_fixed` for the others too
    (``traitlets.validate("min_length")(_FixedBoard._keep_fixed)``).
    """

    board: Board
    _fixed: ClassVar[dict[str, str]] = {"board_json": "board"}

    def _keep_fixed(self, proposal: Any) -> Any:
        name = proposal["trait"].name
        if hasattr(self, "board") and proposal["value"] != self._fixed_value(name):
            words = re.sub(r"(?<!^)(?=[A-Z])", " ", type(self).__name__).lower()
            noun = self._fixed[name]
            raise traitlets.TraitError(
                f"the {words}'s {noun} is set when it is made: make a new "
                f"{type(self).__name__}({', '.join(self._fixed.values())}) for another {noun}")
        value = proposal["value"]
        return dict(value) if name == "board_json" else value

    def _fixed_value(self, name: str) -> Any:
        """The value the fixed trait ``name`` was made with."""
        return board_to_json(self.board) if name == "board_json" else getattr(self, name)

    _fixed_board = traitlets.validate("board_json")(_keep_fixed)
