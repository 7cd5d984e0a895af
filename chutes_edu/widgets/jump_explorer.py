r"""JumpExplorer: add one ladder or chute anywhere and see how the expected game length changes; the
surprising jumps (a ladder that lengthens the game, a chute that shortens it) are flagged.

Adding a jump :math:`a \to b` moves column :math:`a` of the one-roll matrix to column :math:`b`, a
rank-one change of :math:`I - B_Q`; Sherman-Morrison gives the new expected turns from square 0
for every jump from one factorisation,

.. math:: t'_0 = t_0 - y_0 \frac{t_a - t_b}{1 + y_a - y_b}, \qquad y = (I - B_Q)^{-1} B_Q e_a

(:func:`~chutes_edu.jump_effects`; Hochman's experiment). A jump is a surprise when it works
against its kind: a ladder that lengthens the game or a chute that shortens it
(:func:`~chutes_edu.markov.surprising_jumps`).

The explorer is an anywidget whose front end (``js/explorers/jump_explorer/jump_explorer.js``,
bundled with the modules it imports by esbuild (``npm run build``)) computes in the page with
``js/maths/jump_math.js``, the library's sweep in JavaScript held equal to it by
``tests/js/jump_math.test.mjs``: so it runs live in JupyterLab, in Voila and on the course website
alike, with no kernel behind the page. Python holds the state (the board as ``board_json``,
``min_length``, and the jump shown as ``jump``, synced both ways and checked by the library) and
gives a reader in the kernel the numbers through the library (:attr:`JumpExplorer.effects`,
:attr:`JumpExplorer.expected`).

The explorer speaks the student's language (:mod:`chutes_edu.i18n`): its ``language`` trait, set
when it is made, tells the page which catalog to read its words from (``js/core/i18n.js``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import anywidget
import numpy as np
import traitlets

from ..board import Board, _square, board_to_json
from ..boards import MILTON_BRADLEY_1943
from ..i18n import gettext, language, say
from ..markov import expected_turns, jump_effects, surprising_jumps
from ._base import _FixedBoard, _Offline, _Refusals
from ._front_end import front_end

__all__ = ["FRONT_END", "JumpExplorer"]

FRONT_END = front_end("jump_explorer")
"""The explorer's front end as esbuild builds it (:mod:`chutes_edu.widgets._front_end`):
its ES module is the widget's ``_esm``, its stylesheet the ``_css``; the course website loads
it with every other front end as one script."""


def _title(board: Board) -> str:
    """The heat map's title in the explorer."""
    return f"Adding one jump a -> b to {board.name or 'the board'}"


def _nearest(allowed: np.ndarray, a: int, b: int) -> tuple[int, int]:
    """The allowed jump nearest to ``a -> b`` (first the source, then the destination from it; a
    square above the one asked for wins a tie)."""
    sources = np.flatnonzero(allowed.any(axis=1))
    a = int(sources[np.argmin(np.abs(sources - a) + 0.5 * (sources < a))])
    targets = np.flatnonzero(allowed[a])
    return a, int(targets[np.argmin(np.abs(targets - b) + 0.5 * (targets < b))])


def _skipped(size: int, min_length: int) -> str:
    """The line under the sliders: which jumps they skip, and why."""
    text = (f"The sliders skip the jumps the rules refuse: none starts on 0, "
            f"{size} or an end of a jump already there, none ends where one starts")
    if min_length > 1:
        text += f", none is shorter than {min_length} squares"
    return f"{text}."


def _words(effects: np.ndarray, baseline: float, a: int, b: int) -> tuple[str, str]:
    """The readout and the announcement for the jump ``a -> b``."""
    new = float(effects[a, b])
    kind = "ladder" if b > a else "chute"
    change = new - baseline
    surprise = bool(surprising_jumps(effects, baseline)[a, b])
    # A change that rounds to nothing is said so, never with the sign of its rounding noise.
    shown = f"{change:+.4f}".replace("-0.0000", "+0.0000")
    text = (f"Adding the {kind} {a} \u2192 {b}: expected turns {new:.4f} "
            f"(board: {baseline:.4f}), change {shown} turns.")
    if surprise:
        text += f" Surprise! This {kind} makes the game {'longer' if b > a else 'shorter'}."
    size = f"{abs(change):.1f}"
    than = ("about as long as now" if size == "0.0" else
            f"{size} {'more' if change > 0 else 'fewer'} than now")
    said = (f"The {kind} {a} to {b}: expected length {new:.1f} turns, {than}"
            + (". A surprise." if surprise else ""))
    return text, said


class _Source:
    """The source of the jump shown, as the slider that set it before: ``value`` and
    ``options`` (``(label, square)`` pairs: the squares where some jump may start)."""

    def __init__(self, explorer: JumpExplorer) -> None:
        self._explorer = explorer

    @property
    def options(self) -> list[tuple[str, int]]:
        return [(f"square {a}", a) for a in self._explorer._sources]

    @property
    def value(self) -> int:
        return int(self._explorer.jump[0])

    @value.setter
    def value(self, square: int) -> None:
        ex = self._explorer
        ex.jump = list(_nearest(ex._allowed, square, int(ex.jump[1])))


class _Destination:
    """The destination of the jump shown, as the slider that set it before: ``value`` and
    ``options`` (the allowed destinations from the source)."""

    def __init__(self, explorer: JumpExplorer) -> None:
        self._explorer = explorer

    @property
    def options(self) -> list[tuple[str, int]]:
        ex = self._explorer
        return [(f"square {b}", int(b)) for b in np.flatnonzero(ex._allowed[ex.jump[0]])]

    @property
    def value(self) -> int:
        return int(self._explorer.jump[1])

    @value.setter
    def value(self, square: int) -> None:
        ex = self._explorer
        ex.jump = [int(ex.jump[0]), square]


class JumpExplorer(_Offline, _Refusals, _FixedBoard, anywidget.AnyWidget):
    """Add one ladder or chute anywhere: the heat map of every choice and a closer look at one.

    The page shows two sliders (the source ``a`` and the destination ``b`` of the added jump, each
    named, both from the keyboard) that offer only the jumps the board allows (the finite entries
    of :func:`~chutes_edu.jump_effects`): their arrow keys step from one allowed square to the
    next, and a line under them says which squares are left out and why. Then the readout (the new
    expected turns and the change; "surprise" when a ladder lengthens the game or a chute shortens
    it), the heat map of every jump with the chosen one outlined and its description, and a polite
    announcement after each change.

    Parameters
    ----------
    board : Board, default MILTON_BRADLEY_1943
        The board to add a jump to.
    min_length : int, default 1
        Only jumps at least this long (passed to :func:`~chutes_edu.jump_effects`).

    Attributes
    ----------
    board : Board
        The board.
    board_json, board_name, min_length, jump
        The state shared with the page: the board in the editor's JSON form, its name, the
        shortest jump offered, and the jump shown as ``[a, b]`` (a control there sets ``jump``;
        setting it here redraws the page). It starts on the allowed jump nearest to the surprising
        ladder 27 -> 29 of Hochman's paper.
    jump_from, jump_to : objects with ``value`` and ``options``
        The source ``a`` and the destination ``b`` of the jump shown (``.value`` is the square;
        ``.options`` the ``("square N", N)`` pairs the sliders offer). Setting
        ``jump_from.value`` keeps the destination when it is allowed from there, else takes the
        nearest allowed one.
    effects : numpy.ndarray
        ``jump_effects(board, min_length)``.
    baseline : float
        The board's own expected turns.
    expected : float
        The library's expected turns with the jump shown added (``effects[a, b]``).
    surprise : bool
        Whether the jump shown works against its kind.
    readout : str
        The page's readout for the jump shown, in words, from the library's numbers.
    last_error : str
        The last refusal of a value set here, "" if none.

    Raises
    ------
    ValueError
        For a ``min_length`` that is not a whole number (the library's words), or one that
        leaves no jump to add.

    Examples
    --------
    >>> ex = JumpExplorer()
    >>> ex.jump
    [27, 29]
    >>> round(ex.expected, 2), ex.surprise
    (40.2, True)
    """

    offline_summary = ("Jump explorer: add a ladder or chute anywhere and see how the "
                       "expected length changes")

    _esm = FRONT_END.module_path
    _css = FRONT_END.style_path

    board_json = traitlets.Dict(help="The board in the editor's JSON form.").tag(sync=True)
    board_name = traitlets.Unicode("", help="The board's name.").tag(sync=True)
    language = traitlets.Unicode("en", help="The language of the page's words.").tag(sync=True)
    min_length = traitlets.Int(1, help="The shortest jump offered.").tag(sync=True)
    jump = traitlets.List(traitlets.Int(), [27, 29],
                          help="The jump shown, [source, destination].").tag(sync=True)
    _fixed: ClassVar[dict[str, str]] = {"board_json": "board", "min_length": "min_length"}
    _fixed_length = traitlets.validate("min_length")(_FixedBoard._keep_fixed)

    def __init__(self, board: Board = MILTON_BRADLEY_1943, min_length: int = 1,
                 **kwargs: Any) -> None:
        if not isinstance(board, Board):
            raise ValueError(say("board must be a Board, not {kind}", kind=type(board).__name__))
        self.board = board
        self.last_error = ""
        self.effects = jump_effects(board, min_length)   # the library's refusal of min_length
        self.baseline = float(expected_turns(board)[0])
        self._allowed = np.isfinite(self.effects)
        self._sources = [int(a) for a in np.flatnonzero(self._allowed.any(axis=1))]
        if not self._sources:
            raise ValueError(say("no jump of at least min_length={length} squares can be added to "
                                 "{name}", length=min_length, name=board.name or "this board"))
        kwargs.setdefault("language", language())
        super().__init__(board_json=board_to_json(board), board_name=board.name or "",
                         min_length=_square(min_length, "min_length"),
                         jump=list(_nearest(self._allowed, 27, 29)), **kwargs)
        self.jump_from = _Source(self)
        self.jump_to = _Destination(self)

    @traitlets.validate("jump")
    def _valid_jump(self, proposal: Any) -> list[int]:
        return self._checked(lambda: self._jump(proposal["value"]))

    def _jump(self, value: Any) -> list[int]:
        """``value`` as a jump the heat map offers, or the library's ValueError."""
        if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or len(value) != 2:
            raise ValueError(say("jump must be a pair [source, destination], not {value}",
                                 value=repr(value)))
        source, destination = gettext("jump source"), gettext("jump destination")
        a = _square(value[0], source)
        b = _square(value[1], destination)
        n = self.board.size
        for square, what in ((a, source), (b, destination)):
            if not 0 <= square <= n:
                raise ValueError(say("{what} {square} is off the board (squares 0..{size})",
                                     what=what, square=square, size=n))
        if not self._allowed[a, b]:
            raise ValueError(say("the jump {a} -> {b} cannot be added: no jump starts on 0, {size} "
                                 "or an end of a jump already there, none ends where one starts, "
                                 "none is shorter than {length} squares, and none may leave the "
                                 "board unfinishable" if self.min_length > 1 else
                                 "the jump {a} -> {b} cannot be added: no jump starts on 0, {size} "
                                 "or an end of a jump already there, none ends where one starts, "
                                 "and none may leave the board unfinishable",
                                 a=a, b=b, size=n, length=self.min_length))
        return [a, b]

    @property
    def expected(self) -> float:
        """The library's expected turns with the jump shown added."""
        a, b = self.jump
        return float(self.effects[a, b])

    @property
    def surprise(self) -> bool:
        """Whether the jump shown is a ladder that lengthens the game or a chute that shortens
        it (:func:`~chutes_edu.markov.surprising_jumps`)."""
        a, b = self.jump
        return bool(surprising_jumps(self.effects, self.baseline)[a, b])

    @property
    def readout(self) -> str:
        """The page's readout for the jump shown, from the library's numbers."""
        return _words(self.effects, self.baseline, *self.jump)[0]
