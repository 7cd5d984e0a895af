r"""BoardEditor: draw ladders, chutes and traps on a board and watch the absorbing-chain answers
change at once, computed in the page, with no kernel for the maths.

The editor is an anywidget whose front end is a few ES modules, each with one job (state and undo,
words, geometry, drawing, the readout, the controls, keys and the pointer, the page's address, and a
runner that computes in chunks of a few milliseconds, so that the page is never held up and the next
edit cancels the work of the last), put together by ``js/explorers/board_editor/board_editor.js``
and built into one module by esbuild (:mod:`chutes_edu.widgets._front_end`). On every edit the page
computes, with ``js/maths/board_math.js`` (the library's maths in JavaScript, held equal to it to
:math:`10^{-9}` by ``tests/js/board_math.test.mjs`` and ``tests/test_js_parity.py`` on hundreds of
boards):

- the expected number of turns :math:`t_s` to finish from every square, the solution of
  :math:`(I - Q)\,t = \mathbf 1` over the transient squares (bonus rolls folded into one turn, as
  :func:`~chutes_edu.expected_turns`): :math:`t_0` with the change the edit made, and every
  :math:`t_s` as a heat map on the board (a jump's source is grey: a token never stops there);
- the distribution of the game length :math:`T` (as :func:`~chutes_edu.turn_distribution`):
  :math:`\Pr(T \le k)` as a chart, the median (the first :math:`k` with
  :math:`\Pr(T \le k) \ge 1/2`) and the shortest game (by exact reachability);
- on a board without traps, the first player's edge in a two-player race from square 0,
  :math:`\tfrac12 \sum_k \Pr(T = k)^2` (``win_probabilities(board, [0, 0])[0] - 0.5``).

An edit that :class:`~chutes_edu.Board` would refuse (a jump from or onto another jump's source,
from square 0 or the final square, a board no game can finish, a trap on a jump's source, ...)
leaves the board as it was, and the page says why in one line: ``Board(...)``'s own
``ValueError`` message for that board, word for word (``validate`` in maths/board_math.js).

Python does no maths here: it keeps :attr:`BoardEditor.board`, a :class:`~chutes_edu.Board`, equal
to the page's board both ways (an edit in the page sets it, observably; setting it redraws the
page), so a lesson can go on with the library on the student's own board.

The board travels as JSON, ``{"size", "die", "overshoot", "bonus_roll", "jumps": [[a, b], ...],
"traps": [...]}`` (maths/board_math.js's format): :func:`board_to_json` and :func:`board_from_json`
are the one place where a :class:`~chutes_edu.Board` and that form meet (the fixtures tool of the
JavaScript tests uses them too).

>>> from chutes_edu import MILTON_BRADLEY_1943
>>> data = board_to_json(MILTON_BRADLEY_1943)
>>> data["size"], data["jumps"][:2], data["traps"]
(100, [[1, 38], [4, 14]], [])
>>> board_from_json(data) == MILTON_BRADLEY_1943
True

The explorer speaks the student's language (:mod:`chutes_edu.i18n`): its ``language`` trait, set
when it is made, tells the page which catalog to read its words from (``js/core/i18n.js``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import anywidget
import traitlets

from ..board import Board, board_from_json, board_to_json
from ..boards import MILTON_BRADLEY_1943, PRESETS
from ..i18n import gettext, language, say
from ._front_end import front_end

__all__ = ["FRONT_END",
           "BoardEditor", "board_to_json", "board_from_json", "presets_json",
           ]




MAX_SIZE = 1000
"""The largest board the editor takes; bigger boards are for the library. The page has the same
limit (``LIMITS.size`` of maths/board_math.js, ``MAX_SIZE`` in the editor's modules), checked before
anything is built, so that an address asking for 10^9 squares costs nothing."""

FRONT_END = front_end("board_editor")
"""The editor's front end as esbuild builds it (:mod:`chutes_edu.widgets._front_end`):
its ES module is the widget's ``_esm``, its stylesheet the ``_css``."""


def presets_json(presets: Mapping[str, Board] | None = None) -> dict[str, dict[str, Any]]:
    """Named boards in the editor's JSON form, for its "named board" menu (and the website's
    ``mount(el, {presets})``).

    Parameters
    ----------
    presets : mapping of str to Board, optional
        Default :data:`~chutes_edu.PRESETS`.

    Returns
    -------
    dict
        Name -> :func:`board_to_json`, in the order given.
    """
    chosen = PRESETS if presets is None else presets
    return {str(name): board_to_json(board) for name, board in chosen.items()}


class BoardEditor(anywidget.AnyWidget):
    """A live board editor: draw ladders, chutes and traps, and the page computes the answers.

    The board is drawn as in :func:`~chutes_edu.draw_board` (serpentine, square 1 bottom left,
    ladders solid blue with filled heads, chutes dashed vermillion with open heads, traps dark red
    with a white cross) with the expected turns from every square as a heat map. Add a ladder or
    chute by picking its two ends (click, or Enter on the keyboard cursor), drag an end to move
    it, select a jump by the dot at its start and delete it; set the die (2 to 12 faces), the
    board's size (2 to ``MAX_SIZE`` squares; a smaller board drops the jumps and traps past its
    end, and says which), the overshoot rule, the face that rolls again, traps; undo, redo,
    reset to a named board (the menu says "custom board" while the board is the student's own).
    Each edit is announced to a screen reader ("ladder 12 to 44 added: expected length 31.7
    turns, was 39.2"); an edit the library would refuse leaves the board as it was and says why
    in Board's words. The maths runs in the page (see the module docstring), so the answers
    follow each edit at once (on a big board, within a second, the old numbers marked as out of
    date meanwhile).

    Parameters
    ----------
    board : Board, default MILTON_BRADLEY_1943
        The board to start from (up to ``MAX_SIZE`` squares).
    presets : mapping of str to Board, optional
        The named boards the editor can reset to (default :data:`~chutes_edu.PRESETS`); the
        starting board is added under its name (or "starting board") if it is not one of them.

    Attributes
    ----------
    board : Board
        The board in the page, updated on every edit and observable
        (``editor.observe(f, "board")``); setting it redraws the editor.
    board_json : dict
        The same board in JSON form (:func:`board_to_json`), the trait the page and Python share.
    board_name : str
        Its name: a named board's (or the board given) while the board equals it, else "".
    presets : dict
        Name -> JSON form of the named boards.
    message : str
        A refusal by Python of a board the page sent (never expected: the maths is shared), shown
        in the page; "" otherwise.
    last_error : str
        The same message, kept on the Python side.

    Raises
    ------
    ValueError
        If ``board`` is not a Board, or is bigger than ``MAX_SIZE`` squares.

    Examples
    --------
    >>> from chutes_edu import BoardEditor, MILTON_BRADLEY_1943
    >>> editor = BoardEditor()
    >>> editor.board == MILTON_BRADLEY_1943
    True
    >>> editor.board = MILTON_BRADLEY_1943.with_jump(30, 35)    # the page redraws
    >>> editor.board_json["jumps"][8]
    [30, 35]
    """

    offline_summary = ("Board editor: draw ladders, chutes and traps on a board and watch the "
                       "expected length of a game change")

    _esm = FRONT_END.module_path
    _css = FRONT_END.style_path

    board_json = traitlets.Dict(help="The board in JSON form (board_to_json).").tag(sync=True)
    board_name = traitlets.Unicode("", help="The board's name, or ''.").tag(sync=True)
    language = traitlets.Unicode("en", help="The language of the page's words.").tag(sync=True)
    presets = traitlets.Dict(help="Name -> JSON form of the named boards.").tag(sync=True)
    message = traitlets.Unicode("", help="Python's refusal of a board from the page, or ''."
                                ).tag(sync=True)
    board = traitlets.Instance(Board, help="The board in the page (a chutes_edu.Board).")

    def __init__(self, board: Board = MILTON_BRADLEY_1943, *,
                 presets: Mapping[str, Board] | None = None, **kwargs: Any) -> None:
        self._checked(board)
        chosen = dict(PRESETS if presets is None else presets)
        for name, preset in chosen.items():
            self._checked(preset, repr(name))
        if not any(preset == board for preset in chosen.values()):
            name = board.name or "starting board"
            if name in chosen:
                name = f"{name} (starting board)"
            chosen = {name: board, **chosen}
        self.last_error = ""
        self._syncing = False
        kwargs.setdefault("language", language())
        super().__init__(presets=presets_json(chosen), **kwargs)
        self.board = board
        self.observe(self._to_page, names="board")
        self.observe(self._from_page, names=["board_json", "board_name"])
        self._to_page()

    @staticmethod
    def _checked(board: Any, preset: str | None = None) -> Board:
        """``board``, or the refusal of it as the editor's board (or as the preset named
        ``preset``, its name quoted)."""
        if not isinstance(board, Board):
            raise ValueError(say("BoardEditor needs a Board as its board, not {kind}",
                                 kind=type(board).__name__) if preset is None else
                             say("BoardEditor needs a Board as its preset {preset}, not {kind}",
                                 preset=preset, kind=type(board).__name__))
        if board.size > MAX_SIZE:
            raise ValueError(say("BoardEditor draws boards of up to {most} squares; the board "
                                 "has {size}: use the library's functions for it", most=MAX_SIZE,
                                 size=board.size) if preset is None else
                             say("BoardEditor draws boards of up to {most} squares; the preset "
                                 "{preset} has {size}: use the library's functions for it",
                                 most=MAX_SIZE, preset=preset, size=board.size))
        return board

    @traitlets.validate("board")
    def _valid_board(self, proposal: Any) -> Board:
        try:
            return self._checked(proposal["value"])
        except ValueError as error:
            raise traitlets.TraitError(str(error)) from None

    def _to_page(self, change: Any = None) -> None:
        """The board was set in Python: send it to the page."""
        if self._syncing:
            return
        self._syncing = True
        try:
            with self.hold_sync():
                self.board_json = board_to_json(self.board)
                self.board_name = self.board.name
                self.message = ""
        finally:
            self._syncing = False

    def _from_page(self, change: Any = None) -> None:
        """The page sent a board (an edit): make it the Board, or keep the last one and say why.

        The page refuses what Board refuses, with the same maths and words, so Python should never
        refuse a board the page sent; if it does, the page gets the last board back and the
        library's message, and nothing is raised into the page.
        """
        if self._syncing:
            return
        try:
            new = board_from_json(self.board_json, name=self.board_name)
            self._checked(new)
        except (ValueError, TypeError) as error:
            self.last_error = str(error)
            self._syncing = True
            try:
                with self.hold_sync():
                    self.board_json = board_to_json(self.board)
                    self.board_name = self.board.name
                    self.message = f"Python's Board refused the board: {error}"
            finally:
                self._syncing = False
            return
        if new == self.board and new.name == self.board.name:
            return
        self.last_error = ""
        self._syncing = True
        try:
            self.board = new
            if self.message:
                self.message = ""
        finally:
            self._syncing = False

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget's bundle, with a sentence (not a repr) for viewers that cannot draw it."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict):
            data["text/plain"] = gettext("{summary}. This is an interactive explorer: run this "
                                         "cell to use it.").format(
                                             summary=gettext(self.offline_summary))
        return bundle
