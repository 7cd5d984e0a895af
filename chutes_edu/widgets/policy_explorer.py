r"""PolicyExplorer: aim each move; sliders for the aim's accuracy and the discount factor, the
values and the best targets redrawn on the board, computed in the page.

The aimed game (LosAlfajores, 2021): instead of rolling, the player picks a target :math:`t` and
moves :math:`t - 1`, :math:`t` or :math:`t + 1` squares with the chances
:math:`a = (a_-, a_0, a_+)`. The explorer's sliders set :math:`a_0` (``exact``) and the share of
the misses that go one too far (``lean``): :math:`a_- = (1 - a_0)(1 - \text{lean})`,
:math:`a_+ = (1 - a_0)\,\text{lean}`. Discounted value iteration
(:func:`~chutes_edu.control.value_iteration`) repeats

.. math:: V(s) \leftarrow \gamma \max_t \sum_k a_k V(\ell(s, t, k))

from :math:`V = 0`, with the reward on the final square, until the values settle; its best
targets are the policy. Next to it the explorer shows the expected turns of that policy
(:func:`~chutes_edu.control.policy_expected_turns`) and the fewest possible, by policy iteration
(:func:`~chutes_edu.control.optimal_policy`).

The explorer is an anywidget whose front end (``js/explorers/policy_explorer/policy_explorer.js``,
bundled with the modules it imports by esbuild (``npm run build``)) computes in the page with
``js/maths/policy_math.js``, the library's maths in JavaScript held equal to it by
``tests/js/policy_math.test.mjs``, in slices that never hold the page: so it runs live in
JupyterLab, in Voila and on the course website alike, with no kernel behind the page. Python holds
the state (the board as ``board_json``, and ``aim_exact``, ``aim_lean`` and ``discount_factor``,
synced both ways and checked) and gives a reader in the kernel the numbers through the library
(:attr:`PolicyExplorer.result`, :attr:`PolicyExplorer.best`).

The explorer speaks the student's language (:mod:`chutes_edu.i18n`): its ``language`` trait, set
when it is made, tells the page which catalog to read its words from (``js/core/i18n.js``).
"""

from __future__ import annotations

import math
from typing import Any

import anywidget
import traitlets

from .. import control
from ..board import Board, board_to_json
from ..boards import AIMING_GAME_2021
from ..i18n import language, say
from ._base import _FixedBoard, _Offline, _Refusals
from ._front_end import front_end

__all__ = ["FRONT_END", "PolicyExplorer",
           "SLIDERS"]

SLIDERS: dict[str, tuple[str, float, float, float]] = {
    "exact": ("aim_exact", 0.0, 1.0, 0.05),
    "lean": ("aim_lean", 0.0, 1.0, 0.05),
    "discount": ("discount_factor", 0.1, 0.99, 0.01),
}
"""Each slider's trait and (min, max, step), as the page draws them (``SLIDERS`` of
explorers/policy_explorer/policy_explorer.js)."""

FRONT_END = front_end("policy_explorer")
"""The explorer's front end as esbuild builds it (:mod:`chutes_edu.widgets._front_end`):
its ES module is the widget's ``_esm``, its stylesheet the ``_css``; the course website loads
it with every other front end as one script."""


def _setting(name: str, value: Any) -> float:
    """A slider's value checked: a finite number within its slider's range."""
    _, low, high, _ = SLIDERS[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(say("{what} must be a number, not {value}", what=name, value=repr(value)))
    if not math.isfinite(value) or not low <= value <= high:
        raise ValueError(say("{what} must be from {low} to {high}, not {value}", what=name,
                             low=f"{low:g}", high=f"{high:g}", value=repr(value)))
    return float(value)


class _Slider:
    """One setting, as the slider that set it before: ``value``, ``min``, ``max``, ``step``."""

    def __init__(self, explorer: PolicyExplorer, name: str) -> None:
        self._explorer = explorer
        self._trait, self.min, self.max, self.step = SLIDERS[name]

    @property
    def value(self) -> float:
        return float(getattr(self._explorer, self._trait))

    @value.setter
    def value(self, value: float) -> None:
        setattr(self._explorer, self._trait, value)


class PolicyExplorer(_Offline, _Refusals, _FixedBoard, anywidget.AnyWidget):
    """Sliders for the aim and the discount factor; the value map and the policy redraw.

    The aim: ``exact`` is the chance of moving exactly the target; the rest is split between one
    short and one too far, ``lean`` of it going too far (0.5: evenly, as in LosAlfajores (2021)).
    The page shows the three sliders (each named, all from the keyboard), the readout (sweeps, the
    value of square 0, the expected turns of the policy next to the fewest possible), the board
    with each square's value and target beside the value and target along the board, as a
    picture with its description, and a polite announcement after each change.

    Parameters
    ----------
    board : Board, default AIMING_GAME_2021
        The board (by default the one of LosAlfajores (2021)); one with traps is refused.

    Attributes
    ----------
    board : Board
        The board.
    board_json, board_name, aim_exact, aim_lean, discount_factor
        The state shared with the page: the board in the editor's JSON form, its name, and the
        three settings (a slider there sets them; setting one here redraws the page).
    exact, lean, discount : objects with ``value``, ``min``, ``max``, ``step``
        The three settings as the sliders that set them; set ``.value`` to change them from code.
    accuracy : tuple of float
        (under, exact, over) from the settings.
    result : chutes_edu.control.ValueIterationResult or None
        The library's value iteration for the current settings (None if they cannot be solved).
    best : chutes_edu.control.OptimalPolicyResult or None
        The library's fewest-turns policy for the current aim (None if no aim finishes).
    problem : str
        Why the current settings cannot be solved (the library's words), "" if they can.
    last_error : str
        The last refusal of a value set here, "" if none.

    Raises
    ------
    ValueError
        For an argument that is not a Board, or a board with traps (the library's words).

    Examples
    --------
    >>> explorer = PolicyExplorer()
    >>> explorer.discount.value = 0.5
    >>> explorer.get_state()["discount_factor"]
    0.5
    >>> explorer.result.iterations == control.value_iteration(AIMING_GAME_2021,
    ...                                                       discount=0.5).iterations
    True
    """

    offline_summary = ("Aiming explorer: set how accurately the token moves and see the best "
                       "target from every square")

    _esm = FRONT_END.module_path
    _css = FRONT_END.style_path

    board_json = traitlets.Dict(help="The board in the editor's JSON form.").tag(sync=True)
    board_name = traitlets.Unicode("", help="The board's name.").tag(sync=True)
    language = traitlets.Unicode("en", help="The language of the page's words.").tag(sync=True)
    aim_exact = traitlets.Float(0.5, help="The chance of moving exactly the target.").tag(
        sync=True)
    aim_lean = traitlets.Float(0.5, help="The share of misses that go one too far.").tag(
        sync=True)
    discount_factor = traitlets.Float(0.9, help="The discount factor gamma.").tag(sync=True)

    def __init__(self, board: Board = AIMING_GAME_2021, **kwargs: Any) -> None:
        if not isinstance(board, Board):
            raise ValueError(say("{function} needs a Board, not {kind}", function="PolicyExplorer",
                                 kind=type(board).__name__))
        control.aim_landings(board, 0, 1)         # the library's refusal of a board with traps
        self.board = board
        self.last_error = ""
        kwargs.setdefault("language", language())
        super().__init__(board_json=board_to_json(board), board_name=board.name or "", **kwargs)
        self.exact = _Slider(self, "exact")
        self.lean = _Slider(self, "lean")
        self.discount = _Slider(self, "discount")

    @traitlets.validate("aim_exact", "aim_lean", "discount_factor")
    def _valid_setting(self, proposal: Any) -> float:
        name = {trait: name for name, (trait, *_) in SLIDERS.items()}[proposal["trait"].name]
        return self._checked(lambda: _setting(name, proposal["value"]))

    @property
    def accuracy(self) -> tuple[float, float, float]:
        """(under, exact, over) from the settings."""
        exact, lean = self.aim_exact, self.aim_lean
        miss = 1.0 - exact
        return (miss * (1.0 - lean), exact, miss * lean)

    def _solve(self) -> tuple[control.ValueIterationResult | None, Any, str]:
        try:
            result = control.value_iteration(self.board, self.accuracy,
                                             discount=self.discount_factor)
            best = control.optimal_policy(self.board, self.accuracy)
        except (ValueError, RuntimeError) as error:
            return None, None, str(error)
        return result, best, ""

    @property
    def result(self) -> control.ValueIterationResult | None:
        """The library's value iteration for the current settings, or None if they cannot be
        solved (:attr:`problem` says why)."""
        return self._solve()[0]

    @property
    def best(self) -> Any:
        """The library's fewest-turns policy for the current aim
        (:func:`~chutes_edu.control.optimal_policy`), or None if the settings cannot be solved."""
        return self._solve()[1]

    @property
    def problem(self) -> str:
        """Why the current settings cannot be solved, in the library's words; "" if they can."""
        return self._solve()[2]
