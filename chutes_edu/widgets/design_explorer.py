r"""DesignExplorer: choose a goal and a search, press Design, see the jumps found; computed in the
page.

A design adds a set :math:`S` of at most :math:`k` jumps to a board so that the board
:math:`B \cup S` scores best for a goal (:mod:`chutes_edu.design`): a target length
:math:`|\mathbb E[T] - L|`, the shortest or the longest game :math:`\pm\mathbb E[T]`, the smallest
spread :math:`\operatorname{Var} T` for a mean :math:`m \pm tol`, or the fairest race
:math:`|\Pr(\text{seat 1 wins}) - 1/m|`. Every candidate jump is priced from one inverse
:math:`N = (I - B_Q)^{-1}` by rank-one (Sherman-Morrison) updates; greedy adds the best single
jump until none improves, local search then swaps, drops or adds one jump at a time
(:func:`~chutes_edu.design.design_board`).

The explorer is an anywidget whose front end (``js/explorers/design_explorer/design_explorer.js``,
bundled with the modules it imports by esbuild (``npm run build``)) searches in the page with
``js/maths/design_math.js``, the library's greedy and local search in JavaScript held equal to it by
``tests/js/design_math.test.mjs``, in slices that never hold the page: so it runs live in
JupyterLab, in Voila and on the course website alike, with no kernel behind the page. The exhaustive
search stays in Python (:func:`~chutes_edu.design.design_board` with ``method="exhaustive"``).
Python holds the state (the board as ``board_json``, the goal, its parameter, the tolerance, the
most jumps, the search and how many times Design was pressed, synced both ways and checked) and
gives a reader in the kernel the library's design for the last press
(:attr:`DesignExplorer.design`).

The explorer speaks the student's language (:mod:`chutes_edu.i18n`): its ``language`` trait, set
when it is made, tells the page which catalog to read its words from (``js/core/i18n.js``).
"""

from __future__ import annotations

import math
from typing import Any

import anywidget
import traitlets

from ..board import Board, board_to_json
from ..boards import MILTON_BRADLEY_1943
from ..design import (
    Design,
    FairestRace,
    Goal,
    LongestGame,
    ShortestGame,
    SmallestSpread,
    TargetLength,
    design_board,
)
from ..i18n import language, say, say_back
from ..markov import expected_turns
from ._base import _escape, _FixedBoard, _Offline, _Refusals
from ._front_end import front_end

__all__ = ["FRONT_END", "DesignExplorer",
           "GOALS", "PAGE_METHODS"]

GOALS = (("a target length", "target"), ("the shortest game", "short"),
         ("the longest game", "long"), ("the smallest spread", "spread"),
         ("the fairest race", "race"))
"""The goals: (words, value), as the page lists them (``GOALS`` of
explorers/design_explorer/design_explorer.js)."""

PAGE_METHODS = ("greedy", "local search")
"""The searches the page runs (``PAGE_METHODS`` of maths/design_math.js)."""

_PARAMETER = {"target": ("target turns", 25.0), "spread": ("mean (turns)", None),
              "race": ("seats", 2.0)}
MOST_JUMPS = 4

FRONT_END = front_end("design_explorer")
"""The explorer's front end as esbuild builds it (:mod:`chutes_edu.widgets._front_end`):
its ES module is the widget's ``_esm``, its stylesheet the ``_css``; the course website loads
it with every other front end as one script."""


class _Control:
    """A control as Python sees it: ``value`` (reading and setting it goes through the
    explorer's trait), and what else the page's control has (``options``, ``min``, ``max``)."""

    def __init__(self, explorer: DesignExplorer, trait: str, **fixed: Any) -> None:
        self._explorer = explorer
        self._trait = trait
        for name, value in fixed.items():
            setattr(self, name, value)

    @property
    def value(self) -> Any:
        return getattr(self._explorer, self._trait)

    @value.setter
    def value(self, value: Any) -> None:
        self._explorer._set(self._trait, value)


class _Parameter(_Control):
    """The goal's parameter: also its label (``description``) and whether the goal has one
    (``disabled``), as the page shows them."""

    @property
    def description(self) -> str:
        return _PARAMETER.get(self._explorer.goal_kind, ("(no parameter)", None))[0]

    @property
    def disabled(self) -> bool:
        return self._explorer.goal_kind not in _PARAMETER


class _Tolerance(_Control):
    """The tolerance: ``disabled`` but for the smallest spread, as the page shows it."""

    @property
    def disabled(self) -> bool:
        return self._explorer.goal_kind != "spread"


class _Button:
    """The Design button: ``click()`` presses it (the page searches; :attr:`design` follows)."""

    def __init__(self, explorer: DesignExplorer) -> None:
        self._explorer = explorer
        self.description = "Design"

    def click(self) -> None:
        self._explorer.runs += 1
        _ = self._explorer.design


class _Text:
    """A line the page shows, as Python reads it: ``value``."""

    def __init__(self, read: Any) -> None:
        self._read = read

    @property
    def value(self) -> str:
        return str(self._read())


class DesignExplorer(_Offline, _Refusals, _FixedBoard, anywidget.AnyWidget):
    """Design a board to a goal: the goal, its parameter, the most jumps, the search; a button.

    The page shows the goal (a list), its parameter and the tolerance (number boxes), the most
    jumps to add (a slider), the search (greedy or local search, radio buttons) and the Design
    button, each named and all from the keyboard; after a search, the library's summary, the
    search's steps, the designed board (coloured by the expected turns to finish) and the game
    lengths before and after, as pictures with their descriptions, and a polite announcement.

    Parameters
    ----------
    board : Board, default MILTON_BRADLEY_1943
        The board to add jumps to (its rules are kept).

    Attributes
    ----------
    board : Board
        The board.
    board_json, board_name, goal, parameter, tolerance, max_jumps, method, runs
        The state shared with the page: the board in the editor's JSON form, its name, the goal
        (``"target"``, ``"short"``, ``"long"``, ``"spread"`` or ``"race"``), its parameter (the
        target turns, the mean, or the seats), the tolerance of the mean, the most jumps (1..4),
        the search (``"greedy"`` or ``"local search"``) and how many times Design was pressed
        (a new count starts a search in the page).
    run : object with ``click()``
        Presses Design.
    design : Design or None
        The library's design (:func:`~chutes_edu.design.design_board`) for the last press, or the
        one before it if the last was refused; None before the first.
    goal, parameter, tolerance, max_jumps, method : objects with ``value``
        The settings as the page's controls: set ``.value`` to change one from code (choosing a
        goal sets its parameter, as the page does); ``parameter.description`` and
        ``.disabled``, ``tolerance.disabled``, ``max_jumps.min`` and ``.max``,
        ``goal.options`` and ``method.options`` as the page shows them.
    message, readout, steps : objects with ``value``
        The last refusal (the library's words, "" if none); the last design's summary; its
        steps.
    last_error : str
        The last refusal, "" if none.

    Examples
    --------
    >>> from chutes_edu import Board
    >>> explorer = DesignExplorer(Board({5: 3}, size=9, die=2))
    >>> explorer.goal.value = "short"
    >>> explorer.method.value = "greedy"
    >>> explorer.run.click()
    >>> explorer.design.added
    ((1, 9), (4, 9))
    """

    offline_summary = ("Design explorer: choose a goal and let a search add ladders and "
                       "chutes to the board")

    _esm = FRONT_END.module_path
    _css = FRONT_END.style_path

    board_json = traitlets.Dict(help="The board in the editor's JSON form.").tag(sync=True)
    board_name = traitlets.Unicode("", help="The board's name.").tag(sync=True)
    language = traitlets.Unicode("en", help="The language of the page's words.").tag(sync=True)
    goal_kind = traitlets.Unicode("target", help="The goal.").tag(sync=True)
    goal_parameter = traitlets.Float(25.0, help="The target turns, the mean, or the seats.").tag(
        sync=True)
    goal_tolerance = traitlets.Float(1.0, help="How far the mean may stray (turns).").tag(
        sync=True)
    most_jumps = traitlets.Int(2, help="The most jumps to add.").tag(sync=True)
    search_method = traitlets.Unicode("local search", help="The search.").tag(sync=True)
    runs = traitlets.Int(0, help="How many times Design was pressed.").tag(sync=True)

    def __init__(self, board: Board = MILTON_BRADLEY_1943, **kwargs: Any) -> None:
        if not isinstance(board, Board):
            raise ValueError(say("{function} needs a Board, not {kind}", function="DesignExplorer",
                                 kind=type(board).__name__))
        self.board = board
        self.last_error = ""
        self._design: Design | None = None
        self._designed = 0
        self._mean = float(expected_turns(board)[0])
        kwargs.setdefault("language", language())
        super().__init__(board_json=board_to_json(board), board_name=board.name or "", **kwargs)
        self.goal = _Control(self, "goal_kind", options=[value for _, value in GOALS])
        self.parameter = _Parameter(self, "goal_parameter")
        self.tolerance = _Tolerance(self, "goal_tolerance")
        self.max_jumps = _Control(self, "most_jumps", min=1, max=MOST_JUMPS)
        self.method = _Control(self, "search_method", options=list(PAGE_METHODS))
        self.run = _Button(self)
        self.message = _Text(lambda: self.last_error)
        # the library says a design's summary and steps in the student's language already
        self.readout = _Text(lambda: "" if self._design is None else "<br>".join(
            _escape(line) for line in self._design.summary().split("\n")))
        self.steps = _Text(self._steps_html)

    def _steps_html(self) -> str:
        """The last design's steps as the page lists them."""
        design = self._design
        if design is None:
            return ""
        english = design.goal.quantity
        quantity = say_back(english)
        return (f"<b>{_escape(say('Steps'))}</b><ol>" + "".join(
            f"<li>{_escape(s.action)}: {_escape(quantity)} {s.value:.4f}"
            + _escape("" if english == "expected turns"
                      else say(", expected turns {mean}", mean=f"{s.mean:.4f}"))
            + "</li>" for s in design.steps) + "</ol>")

    @traitlets.validate("goal_kind")
    def _valid_goal(self, proposal: Any) -> str:
        kinds = [value for _, value in GOALS]
        if proposal["value"] not in kinds:
            raise self._refused(f"goal must be one of {', '.join(map(repr, kinds))}, not "
                               f"{proposal['value']!r}")
        return str(proposal["value"])

    @traitlets.validate("goal_parameter", "goal_tolerance")
    def _valid_number(self, proposal: Any) -> float:
        value = proposal["value"]
        if not math.isfinite(value):
            raise self._refused(f"{proposal['trait'].name.removeprefix('goal_')} must be a "
                               f"finite number, not {value!r}")
        return float(value)

    @traitlets.validate("most_jumps")
    def _valid_jumps(self, proposal: Any) -> int:
        value = proposal["value"]
        if not 1 <= value <= MOST_JUMPS:
            raise self._refused(f"the explorer adds 1 to {MOST_JUMPS} jumps, not {value!r}")
        return int(value)

    @traitlets.validate("search_method")
    def _valid_method(self, proposal: Any) -> str:
        if proposal["value"] not in PAGE_METHODS:
            raise self._refused(f"the explorer searches by {' or '.join(map(repr, PAGE_METHODS))}"
                               f", not {proposal['value']!r} (design_board runs the others)")
        return str(proposal["value"])

    def _set(self, trait: str, value: Any) -> None:
        """Set a setting from code; choosing a goal sets its parameter as the page does."""
        setattr(self, trait, value)
        if trait == "goal_kind":
            label, default = _PARAMETER.get(value, ("", 0.0))
            if value == "spread":
                self.goal_parameter = round(self._mean, 2)
            elif default is not None and label:
                self.goal_parameter = default
        self.last_error = ""

    def _goal(self) -> Goal:
        kind, x = self.goal_kind, self.goal_parameter
        if kind == "target":
            return TargetLength(x)
        if kind == "spread":
            return SmallestSpread(x, self.goal_tolerance)
        if kind == "race":
            return FairestRace(int(x) if float(x).is_integer() else x)  # type: ignore[arg-type]
        return ShortestGame() if kind == "short" else LongestGame()

    @property
    def design(self) -> Design | None:
        """The library's design for the last press of Design (the page's answer, found again by
        :func:`~chutes_edu.design.design_board`); the one before if the last was refused."""
        if self._designed != self.runs:
            self._designed = self.runs
            try:
                self._design = design_board(self.board, self._goal(), max_jumps=self.most_jumps,
                                            method=self.search_method)
                self.last_error = ""
            except ValueError as error:
                self.last_error = str(error)
        return self._design
