"""Self-checks for the exercise sets: *right* or *not yet*, with a hint, never the answer.

Every exercise ends with ``check("3.2", answer)``. The expected value is computed here, live, with the
library (nothing is typed into a notebook), compared with the student's ``answer`` and reported as

    ✔ 3.2 right
    ✘ 3.2 not yet — hint: ...

The message never contains the expected value. Lesson modules ``chutes_edu/checks/lessonNN.py``
register their exercises with :func:`register`; :func:`check` loads them all on first use.

Verifier helpers turn common kinds of answer into a yes/no: :func:`close` (a number within a relative
tolerance), :func:`exactly` (an exact rational), :func:`same_array` (an array of numbers),
:func:`same_expression` (a formula in one symbol) and :func:`one_of` (a multiple-choice string).
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["check", "register", "CheckResult", "close", "exactly", "same_array", "one_of",
           "same_expression", "exercise_ids"]

Verifier = Callable[[Any], bool]


@dataclass(frozen=True)
class _Exercise:
    exercise: str
    hint: str
    verify: Verifier


_REGISTRY: dict[str, _Exercise] = {}
_LOADED = False


@dataclass(frozen=True)
class CheckResult:
    """The outcome of :func:`check`: true when right; shows as one line of text."""

    exercise: str
    ok: bool
    message: str

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return self.message


def register(exercise: str, hint: str) -> Callable[[Verifier], Verifier]:
    """Decorator: register ``verify(answer) -> bool`` as the check for ``exercise`` (e.g. "3.2").

    Parameters
    ----------
    exercise : str
        The exercise number, "lesson.exercise".
    hint : str
        Shown when the answer is not right yet. It must not give the answer away.
    """
    def wrap(verify: Verifier) -> Verifier:
        if exercise in _REGISTRY:
            raise ValueError(f"exercise {exercise} is registered twice")
        _REGISTRY[exercise] = _Exercise(exercise, hint, verify)
        return verify
    return wrap


def _load_all() -> None:
    global _LOADED
    if _LOADED:
        return
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("lesson"):
            importlib.import_module(f"{__name__}.{info.name}")
    _LOADED = True


def exercise_ids() -> list[str]:
    """All registered exercise numbers, in lesson order."""
    _load_all()
    return sorted(_REGISTRY, key=lambda e: tuple(int(x) for x in e.split(".")))


def check(exercise: str, answer: Any) -> CheckResult:
    """Check an exercise's answer: right, or not yet with a hint (the answer is never shown).

    Parameters
    ----------
    exercise : str
        The exercise number shown in the notebook, e.g. ``"3.2"``.
    answer : object
        Your answer: a number, an array, a function, ... as the exercise asks.

    Returns
    -------
    CheckResult
        Truthy when right; displays as a one-line message.
    """
    _load_all()
    if exercise not in _REGISTRY:
        known = ", ".join(exercise_ids())
        raise ValueError(f"there is no exercise {exercise!r}; known exercises: {known}")
    ex = _REGISTRY[exercise]
    if answer is None or answer is Ellipsis:
        return CheckResult(exercise, False, f"✘ {exercise} not yet — no answer given. Hint: {ex.hint}")
    try:
        ok = bool(ex.verify(answer))
        problem = ""
    except NotImplementedError:
        ok, problem = False, "your code still raises NotImplementedError. "
    except Exception as err:  # the student's code or answer failed: say so, without a traceback
        ok, problem = False, f"checking it raised {type(err).__name__}. "
    if ok:
        return CheckResult(exercise, True, f"✔ {exercise} right")
    return CheckResult(exercise, False, f"✘ {exercise} not yet — {problem}Hint: {ex.hint}")


# --------------------------------------------------------------------------- verifier helpers
def close(expected: float, rel: float = 1e-6, abs_tol: float = 0.0) -> Verifier:
    """A verifier: the answer is a real number within ``rel`` (relative) of ``expected``."""
    def verify(answer: Any) -> bool:
        value = float(answer)
        return math.isfinite(value) and math.isclose(value, float(expected), rel_tol=rel,
                                                     abs_tol=abs_tol)
    return verify


def exactly(expected: Any) -> Verifier:
    """A verifier: the answer equals ``expected`` exactly as a rational (sympy, Fraction, int)."""
    target = Fraction(str(expected))

    def verify(answer: Any) -> bool:
        if isinstance(answer, float):
            return False        # a float is not an exact answer
        return Fraction(str(answer)) == target
    return verify


def same_array(expected: Sequence[float] | np.ndarray, rel: float = 1e-6,
               abs_tol: float = 1e-9) -> Verifier:
    """A verifier: the answer is an array of the same shape, element-wise close to ``expected``."""
    target = np.asarray(expected, dtype=float)

    def verify(answer: Any) -> bool:
        value = np.asarray(answer, dtype=float)
        return value.shape == target.shape and bool(np.allclose(value, target, rtol=rel,
                                                                atol=abs_tol, equal_nan=True))
    return verify


def one_of(expected: str) -> Verifier:
    """A verifier: a multiple-choice answer, compared without case or surrounding spaces."""
    def verify(answer: Any) -> bool:
        return str(answer).strip().lower() == expected.strip().lower()
    return verify


def same_expression(expected: Callable[[Any], Any], values: Sequence[Any],
                    rel: float | None = None) -> Verifier:
    """A verifier: the answer is a sympy expression in one symbol (whatever its name) that equals
    ``expected(v)`` at every ``v`` in ``values``: exactly, or within ``rel`` if it is given."""
    def verify(answer: Any) -> bool:
        import sympy

        expr = sympy.sympify(answer)
        symbols = sorted(expr.free_symbols, key=str)
        if len(symbols) != 1:
            return False
        x = symbols[0]
        for v in values:
            at = expr.subs(x, sympy.Rational(v.numerator, v.denominator)
                           if isinstance(v, Fraction) else v)
            if rel is None:
                if sympy.simplify(at - expected(v)) != 0:
                    return False
            elif not math.isclose(float(at), float(expected(v)), rel_tol=rel):
                return False
        return True
    return verify
