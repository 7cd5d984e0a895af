r"""BoardExplorer: change the board and its rules, watch the expected game length, the distribution
of game lengths and a heat map of the board, computed in the page.

The maths (see :mod:`chutes_edu.markov`): with :math:`Q` the turn matrix over the squares
:math:`0..n-1` and :math:`N = (I - Q)^{-1}` the fundamental matrix, the expected turns to finish
are :math:`t = N \mathbf{1}` (:func:`~chutes_edu.expected_turns`, also as an exact fraction),
the expected visits from the start row 0 of :math:`N` (:func:`~chutes_edu.fundamental_matrix`),
the game length's distribution :math:`P(T = k)` turn by turn
(:func:`~chutes_edu.turn_distribution`), and where the token is after :math:`k` turns
:math:`e_0 P^k` (:func:`~chutes_edu.square_distribution`).

The explorer is an anywidget whose front end (``js/explorers/board_explorer/board_explorer.js``,
bundled with the modules it imports by esbuild (``npm run build``)) computes all of it in the page
with ``js/maths/board_math.js`` and ``js/maths/board_explorer_math.js``, the library's maths in
JavaScript held equal to it by ``tests/js/board_math.test.mjs`` and
``board_explorer_math.test.mjs``: so it runs live in JupyterLab, in Voila and on the course website
alike, with no kernel behind the page. Python holds the state as synced traits, checked by the
library (the board as ``board_json``, what the heat map shows, k, whether the exact fraction is
shown), and gives a reader in the kernel the numbers through the library
(:attr:`BoardExplorer.readout`).

The explorer speaks the student's language (:mod:`chutes_edu.i18n`): its ``language`` trait, set
when it is made, tells the page which catalog to read its words from (``js/core/i18n.js``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from ..board import OVERSHOOT_RULES, Board, board_from_json, board_to_json
from ..boards import MILTON_BRADLEY_1943, PRESETS
from ..i18n import language, say
from ..markov import expected_turns
from ._base import _Offline, _Refusals, _Results
from ._front_end import front_end
from .board_editor import presets_json

__all__ = ["FRONT_END", "BoardExplorer",
           "HEAT_MAPS", "DIE_MIN", "DIE_MAX", "TURNS_MAX"]

HEAT_MAPS = ("turns", "visits", "after")
"""What the heat map can show: the expected turns to finish, the expected visits from the start,
where the token is after k turns."""

DIE_MIN = 2
"""The fewest faces of the die slider (``DIE_MIN`` of
explorers/board_explorer/board_explorer.js)."""

DIE_MAX = 20
"""The most faces of the die slider (``DIE_MAX`` of explorers/board_explorer/board_explorer.js)."""

TURNS_MAX = 100
"""The most turns k of the slider for "where the token is after k turns" (``AFTER_MAX``)."""

_HEAT_OPTIONS = [("expected turns to finish", "turns"),
                 ("expected visits from the start", "visits"),
                 ("where the token is after k turns", "after")]

FRONT_END = front_end("board_explorer")
"""The explorer's front end as esbuild builds it (:mod:`chutes_edu.widgets._front_end`):
its ES module is the widget's ``_esm``, its stylesheet the ``_css``; the course website loads
it with every other front end as one script."""


class _Control:
    """A control as Python sees it: ``value`` (reading and setting it goes through the
    explorer), and what else the page's control has (``options``, ``min``, ``max``): fixed, or
    a function of the current board (given as a zero-argument callable)."""

    def __init__(self, get: Callable[[], Any], put: Callable[[Any], None],
                 **attributes: Any) -> None:
        self._get, self._put = get, put
        self._attributes = attributes

    def __getattr__(self, name: str) -> Any:
        attributes = self.__dict__.get("_attributes", {})
        if name not in attributes:
            raise AttributeError(name)
        found = attributes[name]
        return found() if callable(found) else found

    @property
    def value(self) -> Any:
        return self._get()

    @value.setter
    def value(self, value: Any) -> None:
        self._put(value)


class _Button:
    """A button as Python sees it: ``click()`` does what the page's button does."""

    def __init__(self, description: str, action: Callable[[], None]) -> None:
        self.description = description
        self._action = action

    def click(self) -> None:
        self._action()


class _Text:
    """A line of text as Python sees it: ``value``, read only, computed when asked."""

    def __init__(self, get: Callable[[], str]) -> None:
        self._get = get

    @property
    def value(self) -> str:
        return self._get()


class BoardExplorer(_Offline, _Refusals, anywidget.AnyWidget):
    """Explore a board: preset, die, overshoot rule, bonus roll, jumps; live expected turns, the
    game-length distribution and a heat map of the board, all computed in the page.

    The page shows each control named (all from the keyboard), the readout, the board's heat map
    and the game-length distribution as pictures whose descriptions are renewed with their
    numbers, and a polite announcement of the new expected length after each change; an edit the
    library refuses leaves the board and says why in the message line.

    Parameters
    ----------
    board : Board, default MILTON_BRADLEY_1943
        The board to start from.

    Attributes
    ----------
    board_json, board_name, preset_name, presets_json, heat_map, turns_played, exact_shown
        The state shared with the page: the board in the editor's JSON form and its name ("" once
        edited), the preset chosen last and the presets offered (name -> JSON board), what the
        heat map shows (one of :data:`HEAT_MAPS`), k for "after", and whether the readout gives
        the exact fraction too. A control in the page sets them; setting them here redraws it.
    preset, die, overshoot, bonus, heat, after_turns, show_exact : controls
        Python's view of the page's controls: each has ``value`` (setting it edits the board or
        the view, as the control does), and ``options`` or ``min`` and ``max``. The preset board
        (``PRESETS`` names), the number of faces (2..20), the overshoot rule, the face that rolls
        again (None for no bonus roll), what the heat map shows ("turns", "visits", "after"),
        k (0..100), the exact fraction.
    jump_from, jump_to, add_jump, remove_jump, jump_list : controls
        Edit the jumps: ``add_jump.click()`` adds ``jump_from -> jump_to``,
        ``remove_jump.click()`` removes the jump that starts on ``jump_from``; setting
        ``jump_list.value`` to a jump's source fills both fields.
    readout, message : objects with ``value``
        Expected turns from square 0 (4 decimals, and the exact fraction when ``show_exact``),
        by the library; the last refused edit's message, or empty.
    board : Board
        The current (always valid) board.
    last_error : str
        The last refusal, "" if none.

    Examples
    --------
    >>> ex = BoardExplorer()
    >>> ex.die.value = 7
    >>> ex.board.faces, ex.board_json["die"]
    (7, 7)
    """

    offline_summary = ("Board explorer: change the board and its rules and watch the expected "
                       "length of a game")

    _esm = FRONT_END.module_path
    _css = FRONT_END.style_path

    board_json = traitlets.Dict(help="The board in the editor's JSON form.").tag(sync=True)
    board_name = traitlets.Unicode("", help="The board's name, '' once edited.").tag(sync=True)
    language = traitlets.Unicode("en", help="The language of the page's words.").tag(sync=True)
    preset_name = traitlets.Unicode("", help="The preset chosen last.").tag(sync=True)
    presets_json = traitlets.Dict(help="The presets offered, name -> JSON board.").tag(sync=True)
    heat_map = traitlets.Unicode("turns", help="What the heat map shows.").tag(sync=True)
    turns_played = traitlets.Int(10, help="k, for the heat map 'after'.").tag(sync=True)
    exact_shown = traitlets.Bool(False, help="Whether the exact fraction is shown.").tag(sync=True)

    def __init__(self, board: Board = MILTON_BRADLEY_1943, **kwargs: Any) -> None:
        if not isinstance(board, Board):
            raise ValueError(say("{function} needs a Board, not {kind}", function="BoardExplorer",
                                 kind=type(board).__name__))
        self._results = _Results()
        self.board = self._results.board(board)
        self.last_error = ""
        origin = self._preset_name(board)
        self._presets = dict(PRESETS)
        if origin not in self._presets:
            self._presets = {origin: board, **self._presets}
        kwargs.setdefault("language", language())
        super().__init__(board_json=board_to_json(board), board_name=board.name or "",
                         preset_name=origin, presets_json=presets_json(self._presets), **kwargs)
        self._jump = {"from": 2, "to": 12}
        self.preset = _Control(lambda: self.preset_name, self._choose_preset,
                               options=list(self._presets))
        self.die = _Control(lambda: min(max(self.board.faces, DIE_MIN), DIE_MAX),
                            lambda v: self._edit(lambda b: b.replace(die=v)),
                            min=DIE_MIN, max=DIE_MAX)
        self.overshoot = _Control(lambda: self.board.overshoot,
                                  lambda v: self._edit(lambda b: b.replace(overshoot=v)),
                                  options=tuple(OVERSHOOT_RULES))
        self.bonus = _Control(lambda: self.board.bonus_roll,
                              lambda v: self._edit(lambda b: b.replace(bonus_roll=v)),
                              options=lambda: self._bonus_options(
                                  max(self.board.faces, self.die.value)))
        self.heat = _Control(lambda: self.heat_map, self._set_heat, options=list(_HEAT_OPTIONS))
        self.after_turns = _Control(lambda: self.turns_played, self._set_turns, min=0,
                                    max=TURNS_MAX)
        self.show_exact = _Control(lambda: self.exact_shown,
                                   lambda v: setattr(self, "exact_shown", bool(v)))
        self.jump_from = _Control(lambda: self._jump["from"],
                                  lambda v: self._jump.__setitem__("from", v), min=1,
                                  max=lambda: self.board.size - 1)
        self.jump_to = _Control(lambda: self._jump["to"],
                                lambda v: self._jump.__setitem__("to", v), min=0,
                                max=lambda: self.board.size)
        self.jump_list = _Control(lambda: None, self._pick, options=lambda: [
            (f"{a} \u2192 {d}  {'ladder' if d > a else 'chute'}", a)
            for a, d in self.board.jumps.items()])
        self.add_jump = _Button("add jump", lambda: self._edit(
            lambda b: b.with_jump(self._jump["from"], self._jump["to"])))
        self.remove_jump = _Button("remove jump", lambda: self._edit(
            lambda b: b.without_jump(self._jump["from"])))
        self.readout = _Text(self._readout)
        self.message = _Text(lambda: self.last_error)

    @staticmethod
    def _preset_name(board: Board) -> str:
        for name, preset in PRESETS.items():
            if preset == board:
                return name
        return board.name or "custom board"

    @staticmethod
    def _bonus_options(faces: int) -> list[tuple[str, int | None]]:
        return [("none", None)] + [(str(f), f) for f in range(1, faces + 1)]

    # -- the state, checked by the library
    @traitlets.validate("board_json")
    def _valid_board(self, proposal: Any) -> dict[str, Any]:
        try:
            board = board_from_json(proposal["value"])
        except ValueError as error:
            raise self._refused(error) from None
        return board_to_json(board)

    @traitlets.observe("board_json")
    def _board_changed(self, change: Any) -> None:
        board = board_from_json(change["new"])
        if board != getattr(self, "board", None):
            self.board = self._results.board(board)

    @traitlets.validate("heat_map")
    def _valid_heat(self, proposal: Any) -> str:
        if proposal["value"] not in HEAT_MAPS:
            raise traitlets.TraitError(f"the heat map shows {', '.join(map(repr, HEAT_MAPS))}, "
                                       f"not {proposal['value']!r}")
        return str(proposal["value"])

    @traitlets.validate("turns_played")
    def _valid_turns(self, proposal: Any) -> int:
        if not 0 <= proposal["value"] <= TURNS_MAX:
            raise traitlets.TraitError(f"k, the turns played, is 0 to {TURNS_MAX}, "
                                       f"not {proposal['value']}")
        return int(proposal["value"])

    @traitlets.validate("preset_name")
    def _valid_preset(self, proposal: Any) -> str:
        presets = getattr(self, "_presets", {})
        if presets and proposal["value"] not in presets:
            raise traitlets.TraitError(f"no preset board named {proposal['value']!r}; the presets "
                                       f"are {', '.join(map(repr, presets))}")
        return str(proposal["value"])

    # -- edits
    def _edit(self, change: Callable[[Board], Board]) -> None:
        """Apply one edit; on a ValueError keep the board and keep the library's message."""
        try:
            new = change(self.board)
        except ValueError as error:
            self.last_error = str(error)
            return
        except Exception as error:              # never a traceback for a student
            self.last_error = f"unexpected error ({type(error).__name__}): {error}"
            return
        self.last_error = ""
        self.board = self._results.board(new)
        with self.hold_sync():
            self.board_json = board_to_json(new)
            self.board_name = new.name or ""

    def _choose_preset(self, name: str) -> None:
        if name not in self._presets:
            self.last_error = (f"no preset board named {name!r}; the presets are "
                               f"{', '.join(map(repr, self._presets))}")
            return
        self._edit(lambda _: self._presets[name])
        if not self.last_error:
            self.preset_name = name

    def _set_heat(self, value: str) -> None:
        self.heat_map = value

    def _set_turns(self, value: int) -> None:
        self.turns_played = value

    def _pick(self, source: int | None) -> None:
        if source is not None and source in self.board.jumps:
            self._jump["from"], self._jump["to"] = source, self.board.jumps[source]

    # -- what a reader in the kernel sees
    def _readout(self) -> str:
        """The page's readout, by the library."""
        board = self.board
        try:
            now = float(self._results.get(board, "turns", expected_turns)[0])
            text = f"Expected turns from the start: <b>{now:.4f}</b> turns"
            if self.exact_shown:
                exact = self._results.get(board, "exact",
                                          lambda b: expected_turns(b, exact=True)[0])
                text += f"<br>exactly <code>{exact.p}/{exact.q}</code>"
        except Exception as error:              # never a traceback for a student
            return f"unexpected error ({type(error).__name__}): {error}"
        return text
