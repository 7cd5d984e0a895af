"""Self-checks for the exercise sets: *right* or *not yet*, with a hint, never the answer.

Every exercise ends with ``check("3.2", answer_3_2)``. The expected value is computed here, live,
with the library (nothing is typed into a notebook), compared with the student's answer and
reported as

    ✔ 3.2 right
    ✘ 3.2 not yet: no answer given. Hint: ... (the hint under exercise 3.2 may help)
    ✘ 3.2 not yet: right value, but as a float (a decimal number): give it exactly ... Hint: ...

The message never contains the expected value. It ends by pointing to the longer hint that every
exercise of a set has right under its text, hidden until it is opened (:data:`HINT_POINTER`).
Lesson modules ``chutes_edu/checks/lessonNN.py`` register their exercises with :func:`register`;
:func:`check` loads them all on first use.

A set whose lesson module is missing has no answer checks: that is the student copy of the course
(``tools/student_copy.py`` leaves the lesson modules out, since they compute every expected
answer). There :func:`check` is no oracle: it says only whether an answer is given,

    ✘ 3.4 not yet: no answer given
    ✔ 3.4 answered: your teacher grades it after you submit (this copy of the course has no
      answer checks)

the second line the same for every answer that is not empty, and :func:`graded` does nothing.
:func:`check` is the student's self-check; grading for a teacher (nbgrader) uses the same verifiers
from a fresh process, see :mod:`chutes_edu.grading`.

Verifier helpers turn common kinds of answer into a yes/no: :func:`close` (a number within a
tolerance), :func:`exactly` (an exact rational), :func:`whole_number` (an integer),
:func:`same_array` (an array of numbers), :func:`same_whole_numbers` (a set of whole numbers, in
any order), :func:`same_words` (a list of words), :func:`same_expression` (a formula in one symbol)
and :func:`one_of` (a multiple-choice letter). When the value is right but its form is not (a float
for an exact fraction, a string for a number ...), they raise :class:`NotYet` with a message
that says so.

:func:`answer_spec` tells what an exercise's check expects when its answer is a value that a web
page can check with no Python behind it: the helper its verifier uses, the expected value the
helper was given (computed here, with the set's numbers) and the helper's tolerance. It runs the
verifier once on a probe while the helpers, instead of verifying, record how they were called; an
exercise whose verifier does anything else with the answer (calls it, reads its entries, uses two
helpers) has no spec: its answer is code.

Every sentence a student reads is looked up in the student's language (:mod:`chutes_edu.i18n`) when
it is shown: the verdicts, hints and form messages here and the hints the lesson modules register.
``CheckResult.problem`` stays in English where the teacher's grading reads it (no answer, a check
that raised): the grader compares those words.
"""

from __future__ import annotations

import html
import importlib
import inspect
import math
import numbers
import os
import pkgutil
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from chutes_edu.i18n import gettext
from chutes_edu.variants import Numbers, numbers_of

__all__ = ["check", "graded", "register", "CheckResult", "Numbers", "NotYet", "close", "exactly",
           "whole_number", "same_array", "same_whole_numbers", "same_words", "one_of",
           "same_expression", "exercise_ids",
           "is_function_exercise", "tolerance_text", "has_answer_checks", "AnswerSpec",
           "answer_spec"]

Verifier = Callable[[Any], bool]


_NO_ANSWER = "no answer given"
_NOT_A_FUNCTION = ("this exercise wants the function itself: write its name, without brackets or "
                   "quotes")
_NOT_IMPLEMENTED = "no answer given (your code still raises NotImplementedError)"


def _say(message: str, **values: Any) -> str:
    """``message`` in the student's language, its ``{placeholders}`` filled in."""
    return gettext(message).format(**values)

HINT_POINTER = "(the hint under exercise {exercise} may help)"
"""How a "not yet" ends: a pointer to the hint cell under the exercise ("Hint for exercise 3.2",
a ``<details>`` block that stays closed until the student opens it)."""


class NotYet(Exception):
    """Raised by a verifier to say what is wrong with an answer's *form* (never its value)."""


class _NoAnswer(NotYet):
    """The exercise has not been attempted (a stub)."""


@dataclass(frozen=True)
class _Exercise:
    exercise: str
    hint: str
    verify: Callable[..., bool]
    function: bool
    takes_numbers: bool

    def run(self, answer: Any, numbers: Numbers | None = None) -> bool:
        """The verifier on ``answer``, with the set's numbers when it takes them."""
        if not self.takes_numbers:
            return bool(self.verify(answer))
        if numbers is None:
            numbers = numbers_of(int(self.exercise.split(".")[0]))
        return bool(self.verify(answer, numbers))


_REGISTRY: dict[str, _Exercise] = {}
_LOADED = False


@dataclass(frozen=True)
class CheckResult:
    """The outcome of :func:`check`: true when right; shows as one line of text."""

    exercise: str
    ok: bool
    message: str
    problem: str = ""
    checked: bool = True
    """False when this copy of the course has no answer check for the exercise's set (the student
    copy): then ``ok`` is always False and the message says only whether an answer is given."""

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        # Notebooks show text/plain output in a monospace block that breaks lines inside words;
        # a hint is prose, so it is shown as prose, wrapping between words.
        return f'<p class="chutes-edu-check">{html.escape(self.message)}</p>'


def register(exercise: str, hint: str,
             function: bool = False) -> Callable[[Callable[..., bool]], Callable[..., bool]]:
    """Decorator: register ``verify(answer) -> bool`` as the check for ``exercise`` (e.g. "3.2").

    A verifier that takes a second argument gets the set's numbers
    (:class:`chutes_edu.variants.Numbers`: the student's variant, or the course's own), so its
    expected value follows the numbers the notebook declares.

    Parameters
    ----------
    exercise : str
        The exercise number, "lesson.exercise".
    hint : str
        Shown when the answer is not right yet. It must not give the answer away.
    function : bool
        True when the answer is a function that the verifier calls.

    Returns
    -------
    callable
        The decorator; it returns ``verify`` unchanged.
    """
    def wrap(verify: Callable[..., bool]) -> Callable[..., bool]:
        if exercise in _REGISTRY:
            raise ValueError(f"exercise {exercise} is registered twice")
        takes_numbers = len(inspect.signature(verify).parameters) >= 2
        _REGISTRY[exercise] = _Exercise(exercise, hint, verify, function, takes_numbers)
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
    """All registered exercise numbers, in lesson order.

    Returns
    -------
    list of str
        ``["1.1", "1.2", ...]``.
    """
    _load_all()
    return sorted(_REGISTRY, key=lambda e: tuple(int(x) for x in e.split(".")))


def is_function_exercise(exercise: str) -> bool:
    """Whether the answer to ``exercise`` is a function (which the check calls).

    Parameters
    ----------
    exercise : str
        The exercise number, e.g. ``"1.3"``.

    Returns
    -------
    bool
        True for a function exercise.
    """
    return _lookup(exercise).function


_NUMBER = re.compile(r"(\d+)\.(\d+)")


def has_answer_checks(exercise: str) -> bool:
    """Whether this copy of the course can check answers to ``exercise``'s set.

    The checks of lesson ``N``'s set live in ``chutes_edu/checks/lessonNN.py``; the student copy of
    the course leaves those modules out.

    Parameters
    ----------
    exercise : str
        The exercise number, e.g. ``"3.4"``.

    Returns
    -------
    bool
        True when some exercise of the same set is registered (an unknown exercise of such a set is
        still an error for :func:`check`).
    """
    match = _NUMBER.fullmatch(exercise) if isinstance(exercise, str) else None
    if match is None:
        raise ValueError(_say('{exercise} is not an exercise number such as "3.4"',
                              exercise=repr(exercise)))
    _load_all()
    lesson = int(match.group(1))
    return any(int(known.split(".")[0]) == lesson for known in _REGISTRY)


def _empty_body() -> None:
    pass


def _docstring_body() -> None:
    """A docstring and nothing else: an exercise's stub."""


_STUBS = (_empty_body.__code__, _docstring_body.__code__)


def _is_empty(answer: Any) -> bool:
    """No answer: None, ``...``, or a function whose body is still the stub (docstring only)."""
    if answer is None or answer is Ellipsis:
        return True
    code = getattr(answer, "__code__", None)
    if code is None or code.co_names:
        return False
    # the bytecode of an empty body, with the same constants but for the docstring (``return 5``
    # and ``lambda: 5`` have the bytecode of a stub, and another constant)
    return any(code.co_code == stub.co_code and len(code.co_consts) == len(stub.co_consts)
               and all(mine == theirs or (isinstance(mine, str) and isinstance(theirs, str))
                       for mine, theirs in zip(code.co_consts, stub.co_consts, strict=True))
               for stub in _STUBS)


def _unchecked(exercise: str, answer: Any) -> CheckResult:
    """The self-check of a set with no answer checks: whether an answer is given, nothing more."""
    if _is_empty(answer):
        return CheckResult(exercise, False, _say("✘ {exercise} not yet: no answer given",
                                                 exercise=exercise),
                           "no answer given", checked=False)
    return CheckResult(exercise, False, _say("✔ {exercise} answered: your teacher grades it after "
                                             "you submit (this copy of the course has no answer "
                                             "checks)", exercise=exercise), checked=False)


def _lookup(exercise: str) -> _Exercise:
    _load_all()
    if exercise not in _REGISTRY:
        known = ", ".join(exercise_ids())
        raise ValueError(_say("there is no exercise {exercise}; known exercises: {known}",
                              exercise=repr(exercise), known=known))
    return _REGISTRY[exercise]


def _finished(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function``, but a call that returns None (an unfinished stub) raises :class:`_NoAnswer`."""
    name = getattr(function, "__name__", "your function")

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            out = function(*args, **kwargs)
        except NotImplementedError:
            raise _NoAnswer(_say("no answer given ({name} is not written yet)",
                                 name=name)) from None
        if out is None:
            raise _NoAnswer(_say("no answer given ({name} returns None: write its body)",
                                 name=name))
        return out
    return call


def check(exercise: str, answer: Any, numbers: Numbers | None = None) -> CheckResult:
    """Check an exercise's answer: right, or not yet with a hint (the answer is never shown).

    Parameters
    ----------
    exercise : str
        The exercise number shown in the notebook, e.g. ``"3.2"``.
    answer : object
        Your answer: a number, an array, a function, ... as the exercise asks. ``None`` (what an
        exercise holds before you answer it) is "no answer given".
    numbers : Numbers, optional
        The set's numbers; default those the set's top cell gave in this kernel
        (:func:`chutes_edu.variants.numbers_of`).

    Returns
    -------
    CheckResult
        Truthy when right; displays as a one-line message. Where this copy of the course has no
        answer checks for the set (:func:`has_answer_checks`), it is never truthy and says only
        whether an answer is given, in the same words for every answer that is not empty.
    """
    if not has_answer_checks(exercise):
        return _unchecked(exercise, answer)
    ex = _lookup(exercise)
    problem = said = ""
    if answer is None or answer is Ellipsis:
        problem, said = _NO_ANSWER, _say(_NO_ANSWER)
    elif ex.function and not callable(answer):
        problem, said = _NOT_A_FUNCTION, _say(_NOT_A_FUNCTION)
    else:
        try:
            ok = ex.run(_finished(answer) if ex.function else answer, numbers)
        except NotYet as err:
            problem = said = str(err)
        except NotImplementedError:
            problem, said = _NOT_IMPLEMENTED, _say(_NOT_IMPLEMENTED)
        except Exception as err:  # the student's code or answer failed: say so, without a traceback
            problem = f"checking it raised {type(err).__name__}"
            said = _say("checking it raised {error}", error=type(err).__name__)
        else:
            if ok:
                return CheckResult(exercise, True, _say("✔ {exercise} right", exercise=exercise))
    verdict = (_say("✘ {exercise} not yet: {problem}", exercise=exercise, problem=said) if said
               else _say("✘ {exercise} not yet", exercise=exercise))
    message = (verdict + _say(". Hint: {hint} ", hint=gettext(ex.hint))
               + _say(HINT_POINTER, exercise=exercise))
    return CheckResult(exercise, False, message, problem)


def graded(exercise: str, answer: Any) -> None:
    """The visible part of a graded test cell: silent when you run it, a grade under nbgrader.

    While ``nbgrader validate`` runs the notebook, this grades the answer with
    :func:`chutes_edu.grading.grade` (loaded afresh, in a grader process) and raises
    ``AssertionError`` when it is not right yet; otherwise it does nothing (:func:`check` is the
    self-check). Under ``nbgrader autograde`` the grade is decided after the notebook has run, in a
    fresh process, from the answers the hidden tests record (:func:`chutes_edu.grading.record`).
    Where this copy of the course has no answer checks for the set (the student copy), it does
    nothing at all: ``nbgrader validate`` then tells only whether the notebook runs.

    Parameters
    ----------
    exercise : str
        The exercise number, e.g. ``"3.6"``.
    answer : object
        The answer, as for :func:`check`.
    """
    # Under autograde the verdict comes after the run, from the recorded answers (the hidden tests
    # call chutes_edu.grading.record): nothing decided in this kernel counts.
    if os.environ.get("NBGRADER_EXECUTION") == "validate" and has_answer_checks(exercise):
        import runpy
        import warnings

        with warnings.catch_warnings():
            # a notebook that holds the hidden tests (a teacher's copy) has imported the module
            warnings.filterwarnings("ignore", "'chutes_edu.grading' found in sys.modules",
                                    RuntimeWarning)
            runpy.run_module("chutes_edu.grading")["grade"](exercise, answer)


# --------------------------------------------------------------------------- answer specs
@dataclass(frozen=True)
class AnswerSpec:
    """What the check of a value exercise expects, in plain data (see :func:`answer_spec`).

    ``kind`` names the verifier helper: ``"close"``, ``"exactly"``, ``"whole_number"``,
    ``"one_of"``, ``"same_array"``, ``"same_whole_numbers"``, ``"same_words"`` or
    ``"same_expression"``. ``expected`` is JSON-ready: a float (close), a fraction ``"p/q"``
    (exactly), an int (whole_number), a letter (one_of), a nested list of floats (same_array), a
    sorted list of ints (same_whole_numbers), a list of lower-case words (same_words), or for
    same_expression a list of ``[value, expected value]`` pairs
    (``"p/q"`` strings; the expected values floats when ``rel`` is given). ``rel`` and ``abs_tol``
    are the helper's tolerances (None for an exact same_expression); ``hint`` is the check's hint.
    ``exact`` is, for a ``close`` whose check computed its value exactly (a fraction), that value
    as ``"p/q"`` (``expected`` is then that fraction rounded once to a float, the same on every
    machine); ``""`` when the value is a float the check computed in floating point.
    """

    exercise: str
    kind: str
    expected: Any
    rel: float | None = 0.0
    abs_tol: float = 0.0
    hint: str = ""
    exact: str = ""


class _Unrepresentable(Exception):
    """A helper's expected value that plain data cannot hold exactly (e.g. a sqrt)."""


_PROBING: ContextVar[list[AnswerSpec] | None] = ContextVar("_PROBING", default=None)


@contextmanager
def _probing() -> Iterator[list[AnswerSpec]]:
    specs: list[AnswerSpec] = []
    token = _PROBING.set(specs)
    try:
        yield specs
    finally:
        _PROBING.reset(token)


def _probe(kind: str, expected: Any, rel: float | None = 0.0,
           abs_tol: float = 0.0, exact: str = "") -> Verifier | None:
    """While :func:`answer_spec` probes: a verifier that records the helper's call and says yes.
    Otherwise None (the helper verifies as usual)."""
    specs = _PROBING.get()
    if specs is None:
        return None

    def record(answer: Any) -> bool:
        specs.append(AnswerSpec("", kind, expected, rel, abs_tol, exact=exact))
        return True
    return record


def _fraction_text(value: Any) -> str:
    try:
        exact = Fraction(str(value))
    except (ValueError, TypeError):
        raise _Unrepresentable(str(value)) from None
    return f"{exact.numerator}/{exact.denominator}"


class _Probe:
    """The answer :func:`answer_spec` gives a verifier: anything that uses it fails."""


def answer_spec(exercise: str, numbers: Numbers | None = None) -> AnswerSpec | None:
    """What ``exercise``'s check expects, when its answer is a value a web page can check.

    Parameters
    ----------
    exercise : str
        The exercise number, e.g. ``"3.4"``.
    numbers : Numbers, optional
        The set's numbers; default the course's own (those the website's pages show) unless the
        kernel has declared others (:func:`chutes_edu.variants.numbers_of`).

    Returns
    -------
    AnswerSpec or None
        The helper, expected value and tolerance of the check; None when the answer is code (a
        function, or anything the verifier handles other than through exactly one helper call).
    """
    ex = _lookup(exercise)
    if ex.function:
        return None
    with _probing() as specs:
        try:
            ok = ex.run(_Probe(), numbers)
        except Exception:      # the verifier used the answer itself: no plain-data spec
            return None
    if not ok or len(specs) != 1:
        return None
    spec = specs[0]
    return AnswerSpec(exercise, spec.kind, spec.expected, spec.rel, spec.abs_tol, ex.hint,
                      spec.exact)


# --------------------------------------------------------------------------- verifier helpers
def tolerance_text(rel: float = 0.0, abs_tol: float = 0.0) -> str:
    """How an exercise states its tolerance, e.g. ``"to within a relative error of 1e-06"``.

    Parameters
    ----------
    rel : float
        The relative tolerance of :func:`close`.
    abs_tol : float
        The absolute tolerance of :func:`close`.

    Returns
    -------
    str
        The phrase the exercise text uses (a test keeps text and check in step).
    """
    parts = []
    if rel:
        parts.append(f"a relative error of {rel:g} ({100 * rel:g}%)")
    if abs_tol:
        parts.append(f"an absolute error of {abs_tol:g}")
    return "to within " + " or ".join(parts) if parts else "exactly"


def _is_number(x: Any) -> bool:
    if isinstance(x, bool | np.bool_):
        return False
    if isinstance(x, numbers.Number | np.number):
        return True
    if isinstance(x, np.ndarray):
        return x.ndim == 0 and np.issubdtype(x.dtype, np.number)
    return bool(getattr(x, "is_number", False))          # a sympy number


def _describe(x: Any) -> str:
    if isinstance(x, str):
        return _say("a string (text in quotes)")
    if isinstance(x, bool | np.bool_):
        return _say("True/False")
    if callable(x):
        return _say("a function")
    if isinstance(x, np.ndarray | list | tuple):
        return _say("a list or array")
    if getattr(x, "free_symbols", None):
        symbols = ", ".join(sorted(str(s) for s in x.free_symbols))
        return _say("an expression in {symbols}", symbols=symbols)
    name = type(x).__name__
    return _say("an {name}" if name[0] in "aeiou" else "a {name}", name=name)


def _number(answer: Any, wanted: str) -> float:
    """``answer`` as a float, or :class:`NotYet` saying what kind of answer it is instead."""
    if _is_number(answer):
        return float(answer)
    if isinstance(answer, np.ndarray | list | tuple) and np.size(answer) == 1:
        raise NotYet(_say("{wanted} is wanted, and your answer is an array holding one: take the "
                          "number out of it (e.g. with float(...) or [0])", wanted=wanted))
    raise NotYet(_say("{wanted} is wanted, and your answer is {kind}", wanted=wanted,
                      kind=_describe(answer)))


def _string_value(answer: str, right: Callable[[Any], bool], wanted: str) -> bool:
    """A string answer is never right; say so, and whether its value would have been."""
    try:
        value: Any = Fraction(answer.strip())
    except ValueError:
        raise NotYet(_say("{wanted} is wanted, and your answer is a string (text in quotes)",
                          wanted=wanted)) from None
    if right(value):
        raise NotYet(_say("right value, but as a string (text in quotes): give the number "
                          "itself"))
    return False


def close(expected: float | Fraction | Any, rel: float = 1e-6, abs_tol: float = 0.0) -> Verifier:
    """A verifier: the answer is a real number within ``rel`` (relative) of ``expected``.

    Parameters
    ----------
    expected : float, Fraction or sympy Rational
        The right value. An exact one (a fraction, from an exact computation) is rounded once to
        the nearest float, so that the value is the same on every machine (a float solve's last
        digits depend on the BLAS kernel), and the answer spec keeps it (``AnswerSpec.exact``).
    rel, abs_tol : float
        Relative and absolute tolerance (:func:`math.isclose`).

    Returns
    -------
    callable
        ``verify(answer) -> bool``.
    """
    exact = ""
    if isinstance(expected, Fraction) or getattr(expected, "is_Rational", False):   # sympy's too
        value = Fraction(str(expected))
        exact = f"{value.numerator}/{value.denominator}"
        expected = float(value)                 # correctly rounded, once
    expected = float(expected)
    probe = _probe("close", expected, rel, abs_tol, exact)
    if probe is not None:
        return probe

    def right(value: Any) -> bool:
        v = float(value)
        return math.isfinite(v) and math.isclose(v, float(expected), rel_tol=rel, abs_tol=abs_tol)

    def verify(answer: Any) -> bool:
        if isinstance(answer, str):
            return _string_value(answer, right, _say("a number"))
        return right(_number(answer, _say("a number")))
    return verify


def exactly(expected: Any) -> Verifier:
    """A verifier: the answer equals ``expected`` exactly as a rational (sympy, Fraction, int).

    Parameters
    ----------
    expected : object
        The right value: anything ``Fraction(str(expected))`` reads.

    Returns
    -------
    callable
        ``verify(answer) -> bool``; a float with the right value raises :class:`NotYet`.
    """
    probe = _probe("exactly", _fraction_text(expected))
    if probe is not None:
        return probe
    target = Fraction(str(expected))

    def right(value: Any) -> bool:
        return Fraction(str(value)) == target

    def verify(answer: Any) -> bool:
        if isinstance(answer, str):
            return _string_value(answer, right, _say("an exact fraction"))
        value = _number(answer, _say("an exact fraction"))
        inexact = isinstance(answer, float | np.floating) or (
            getattr(answer, "is_Float", False) is True)
        if inexact or not getattr(answer, "is_Rational", True):
            if math.isclose(value, float(target), rel_tol=1e-9, abs_tol=1e-15):
                raise NotYet(_say("right value, but as a float (a decimal number): give it "
                                  "exactly, as a Fraction or sympy.Rational"))
            return False
        try:
            return right(answer)
        except ValueError:              # e.g. sqrt(2): a number, but not a fraction
            raise NotYet(_say("an exact fraction is wanted (Fraction or sympy.Rational)")) from None
    return verify


def whole_number(expected: int) -> Verifier:
    """A verifier: the answer is the whole number ``expected`` (a float like 12.0 counts).

    Parameters
    ----------
    expected : int
        The right value.

    Returns
    -------
    callable
        ``verify(answer) -> bool``.
    """
    probe = _probe("whole_number", int(expected))
    if probe is not None:
        return probe

    def right(value: Any) -> bool:
        v = float(value)
        return v.is_integer() and int(v) == int(expected)

    def verify(answer: Any) -> bool:
        if isinstance(answer, str):
            return _string_value(answer, right, _say("a whole number"))
        value = _number(answer, _say("a whole number"))
        if not value.is_integer():
            raise NotYet(_say("a whole number is wanted, and your answer has a fractional part"))
        return right(value)
    return verify


def same_array(expected: Sequence[float] | np.ndarray, rel: float = 1e-6,
               abs_tol: float = 1e-9) -> Verifier:
    """A verifier: the answer is an array of the same shape, element-wise close to ``expected``.

    Parameters
    ----------
    expected : array_like
        The right values.
    rel, abs_tol : float
        Relative and absolute tolerance (:func:`numpy.allclose`).

    Returns
    -------
    callable
        ``verify(answer) -> bool``; the wrong shape raises :class:`NotYet` naming both shapes.
    """
    target = np.asarray(expected, dtype=float)
    probe = _probe("same_array", target.tolist(), rel, abs_tol)
    if probe is not None:
        return probe

    def verify(answer: Any) -> bool:
        if isinstance(answer, str) or callable(answer):
            raise NotYet(_say("an array is wanted, and your answer is {kind}",
                              kind=_describe(answer)))
        value = np.asarray(answer, dtype=float)
        if value.shape != target.shape:
            raise NotYet(_say("an array of shape {wanted} is wanted, and yours has shape {shape}",
                              wanted=target.shape, shape=value.shape))
        return bool(np.allclose(value, target, rtol=rel, atol=abs_tol, equal_nan=True))
    return verify


def same_whole_numbers(expected: Iterable[int]) -> Verifier:
    """A verifier: a list (tuple, set, array) of whole numbers that, as a set, is ``expected``.

    Parameters
    ----------
    expected : iterable of int
        The right numbers; their order and repeats do not count.

    Returns
    -------
    callable
        ``verify(answer) -> bool``; an answer that is no list of whole numbers raises
        :class:`NotYet` saying what it is instead.
    """
    target = {int(x) for x in expected}
    probe = _probe("same_whole_numbers", sorted(target))
    if probe is not None:
        return probe

    def verify(answer: Any) -> bool:
        if isinstance(answer, str) or not isinstance(answer, list | tuple | set | frozenset | range
                                                     | np.ndarray):
            raise NotYet(_say("a list of whole numbers is wanted, such as [2, 5], and your answer "
                              "is {kind}", kind=_describe(answer)))
        out = set()
        for item in np.asarray(list(answer), dtype=object).ravel():
            if isinstance(item, str | bool | np.bool_):
                raise NotYet(_say("the list should hold whole numbers, not strings or "
                                  "True/False"))
            try:
                value = float(item)
            except (TypeError, ValueError):
                raise NotYet(_say("the list should hold whole numbers, and one of its entries "
                                  "is {kind}", kind=_describe(item))) from None
            if not value.is_integer():
                raise NotYet(_say("the list should hold whole numbers, and one of its entries "
                                  "has a fractional part"))
            out.add(int(value))
        return out == target
    return verify


def same_words(expected: Sequence[str]) -> Verifier:
    """A verifier: a list of words, in order, each compared without case or surrounding spaces.

    Parameters
    ----------
    expected : sequence of str
        The right words.

    Returns
    -------
    callable
        ``verify(answer) -> bool``.
    """
    target = [str(w).strip().lower() for w in expected]
    probe = _probe("same_words", target)
    if probe is not None:
        return probe

    def verify(answer: Any) -> bool:
        return [str(w).strip().lower() for w in answer] == target
    return verify


_LETTER = re.compile(r"[(\[]?\s*([a-z])\s*[)\].:]?")


def one_of(expected: str) -> Verifier:
    """A verifier: a multiple-choice letter, as printed or not: "b", "(b)", "b)", "B", "b.".

    Parameters
    ----------
    expected : str
        The right letter.

    Returns
    -------
    callable
        ``verify(answer) -> bool``.
    """
    probe = _probe("one_of", expected.strip().lower())
    if probe is not None:
        return probe

    def verify(answer: Any) -> bool:
        if not isinstance(answer, str):
            raise NotYet(_say('the answer is a letter in quotes, like "a", and yours is {kind}',
                              kind=_describe(answer)))
        match = _LETTER.fullmatch(answer.strip().lower())
        if match is None:
            raise NotYet(_say('the answer is one letter in quotes, like "a"'))
        return match.group(1) == expected.strip().lower()
    return verify


def same_expression(expected: Callable[[Any], Any], values: Sequence[Any],
                    rel: float | None = None) -> Verifier:
    """A verifier: the answer is a sympy expression in one symbol (whatever its name) that equals
    ``expected(v)`` at every ``v`` in ``values``: exactly, or within ``rel`` if it is given.

    Parameters
    ----------
    expected : callable
        The right formula, as a function of the symbol's value.
    values : sequence
        The values at which the answer is compared with ``expected``.
    rel : float, optional
        Relative tolerance; exact comparison when None.

    Returns
    -------
    callable
        ``verify(answer) -> bool``.
    """
    if _PROBING.get() is not None:
        points = [[_fraction_text(v), float(expected(v)) if rel is not None
                   else _fraction_text(expected(v))] for v in values]
        probe = _probe("same_expression", points, rel)
        assert probe is not None
        return probe

    def verify(answer: Any) -> bool:
        import sympy

        if callable(answer) and not isinstance(answer, sympy.Basic):
            raise NotYet(_say("an expression is wanted, and your answer is a function"))
        expr = sympy.sympify(answer)
        symbols = sorted(expr.free_symbols, key=str)
        if not symbols:
            raise NotYet(_say("an expression in one symbol is wanted, and your answer is a plain "
                              "number"))
        if len(symbols) != 1:
            names = ", ".join(str(s) for s in symbols)
            raise NotYet(_say("an expression in one symbol is wanted, and yours has {names}",
                              names=names))
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
