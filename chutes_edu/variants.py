"""Each student's own numbers for an exercise set: a variant, the same every time, for grading.

An exercise set declares its numbers once, in the cell at its top::

    n = my_numbers(3, turns=(20, range(12, 31)), after=(5, range(5, 9)))

Each number has the course's own value (20) and the values a student's variant is drawn from
(12, ..., 30). The exercises use ``n.turns`` rather than 20, and the checks take the same
numbers, so a changed number changes the expected answers with it (``make exercises`` copies the
declarations into ``chutes_edu/numbers/setNN.json``, which the graders read).

The maths of a variant. With a course secret :math:`k` (a teacher's string), a student id
:math:`u` and a set :math:`s`, the number called ``name`` with values :math:`v_0, \\dots, v_{m-1}`
is :math:`v_i` with

.. math:: i = \\mathrm{HMAC\\text{-}SHA256}_k(\\texttt{"s|u|name"}) \\bmod m,

the 256-bit digest read as a big-endian integer. So a variant is a pure function of
:math:`(k, u, s)`; each number is drawn independently of the others (adding a number to a set
leaves the others' draws as they were); the index is uniform on :math:`\\{0, \\dots, m-1\\}` up to
:math:`m / 2^{256}`; two students share a number's value with probability :math:`1/m`; and without
:math:`k` nobody can tell which student gets which numbers.

Without a student id, or without a course secret, every set keeps the course's own numbers: the
lessons, the website, the tests and a self-learner see the course as it is. A student id is
``CHUTES_STUDENT_ID`` if set (what the grading step sets for each submission), else
``JUPYTERHUB_USER`` (a hub sets it in every student's server); the secret is
``CHUTES_COURSE_SECRET``.

A set's numbers show themselves in the student's language (:mod:`chutes_edu.i18n`); their names
(``turns``) are the code's and stay.
"""

from __future__ import annotations

import ast
import hashlib
import hmac
import json
import os
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources
from typing import Any

from .i18n import gettext

__all__ = ["Numbers", "variant", "my_numbers", "numbers_of", "declared_numbers",
           "student_id", "course_secret", "declarations_in", "STUDENT_ID_VARIABLES",
           "SECRET_VARIABLE"]

STUDENT_ID_VARIABLES = ("CHUTES_STUDENT_ID", "JUPYTERHUB_USER")
SECRET_VARIABLE = "CHUTES_COURSE_SECRET"
_NUMBER = (int, float, str)

Declaration = tuple[Any, tuple[Any, ...]]          # (the course's value, the values to draw from)


class Numbers(Mapping[str, Any]):
    """A set's numbers, read as attributes (``n.turns``) or as a mapping (``n["turns"]``).

    Parameters
    ----------
    set_number : int
        The exercise set.
    values : mapping
        Each number's value.
    student : str or None
        Whose variant these are; None for the course's own numbers.
    """

    def __init__(self, set_number: int, values: Mapping[str, Any], student: str | None = None):
        object.__setattr__(self, "_values", dict(values))
        object.__setattr__(self, "set_number", set_number)
        object.__setattr__(self, "student", student)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"set {self.set_number} has no number called {name!r}; it has "
                                 f"{', '.join(self._values) or 'none'}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a set's numbers cannot be changed")

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Numbers):
            return (self.set_number, self._values) == (other.set_number, other._values)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.set_number, tuple(sorted(self._values.items()))))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k} = {v!r}" for k, v in self._values.items())
        # Never the student's id: the autograded copy and its feedback show this line, and blind
        # grading (formgrader) must not learn whose work it is from it.
        whose = (gettext("your own numbers") if self.student is not None
                 else gettext("the course's own numbers"))
        return gettext("Set {set_number}: {shown} ({whose})").format(
            set_number=self.set_number, shown=shown, whose=whose)


def student_id() -> str | None:
    """The student this kernel works for: ``CHUTES_STUDENT_ID``, else ``JUPYTERHUB_USER``.

    Returns
    -------
    str or None
        The id, or None when neither is set (a laptop, Binder, the website, the tests).
    """
    for name in STUDENT_ID_VARIABLES:
        value = os.environ.get(name, "").strip()
        if value:
            return value
    return None


def course_secret() -> str | None:
    """The course secret from ``CHUTES_COURSE_SECRET``; None (variants off) when unset or empty.

    Returns
    -------
    str or None
        The secret.
    """
    return os.environ.get(SECRET_VARIABLE, "").strip() or None


def _check_declarations(set_number: int, declarations: Mapping[str, Declaration]) -> None:
    problems = []
    for name, (default, values) in declarations.items():
        if not values:
            problems.append(f"{name} has no values to draw from")
        elif default not in values:
            problems.append(f"{name} = {default!r} is not among its values {list(values)!r}")
        if not all(isinstance(v, _NUMBER) and not isinstance(v, bool) for v in (default, *values)):
            problems.append(f"{name}: values must be numbers or strings")
    if problems:
        raise ValueError(f"set {set_number}: " + "; ".join(problems))


def _draw(secret: str, student: str, set_number: int, name: str, values: tuple[Any, ...]) -> Any:
    message = f"{set_number}|{student}|{name}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return values[int.from_bytes(digest, "big") % len(values)]


def _numbers(set_number: int, declarations: Mapping[str, Declaration], student: str | None,
             secret: str | None) -> Numbers:
    _check_declarations(set_number, declarations)
    if student is None or secret is None:
        return Numbers(set_number, {name: d for name, (d, _) in declarations.items()})
    return Numbers(set_number, {name: _draw(secret, student, set_number, name, tuple(values))
                                for name, (_, values) in declarations.items()}, student)


@cache
def declared_numbers(set_number: int) -> dict[str, Declaration]:
    """The numbers a set declares, as ``make exercises`` copied them from its solutions.

    Parameters
    ----------
    set_number : int
        The exercise set, 1 to 12.

    Returns
    -------
    dict
        ``{name: (the course's value, (the values a variant draws from, ...))}``; empty for a set
        without numbers.
    """
    path = resources.files("chutes_edu") / "numbers" / f"set{set_number:02d}.json"
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {name: (d["course"], tuple(d["values"])) for name, d in data["numbers"].items()}


def variant(student_id: str | None, set_number: int, *, secret: str | None = None) -> Numbers:
    """A student's own numbers for a set: a pure function of the course secret, student and set.

    Parameters
    ----------
    student_id : str or None
        The student (their hub user name, as nbgrader knows them). None gives the course's own
        numbers.
    set_number : int
        The exercise set, 1 to 12.
    secret : str, optional
        The course secret; default ``CHUTES_COURSE_SECRET``. Without one, the course's own numbers.

    Returns
    -------
    Numbers
        The set's numbers (empty for a set that declares none).

    Examples
    --------
    >>> variant(None, 3).turns
    20
    >>> variant("ada", 3, secret="fall 2026") == variant("ada", 3, secret="fall 2026")
    True
    """
    return _numbers(set_number, declared_numbers(set_number), student_id,
                    secret if secret is not None else course_secret())


_IN_THIS_KERNEL: dict[int, Numbers] = {}


def my_numbers(set_number: int, **declarations: tuple[Any, Any]) -> Numbers:
    """The numbers at the top of an exercise set: the course's own, or your variant.

    Parameters
    ----------
    set_number : int
        The exercise set.
    **declarations : (value, values)
        Each number's course value and the values a student's variant draws from (a list or a
        ``range``).

    Returns
    -------
    Numbers
        Your variant when your teacher has set a course secret and you have a student id (your hub
        user name), else the course's own values. The self-checks of the set use these numbers.
    """
    parsed = {name: (d[0], tuple(d[1])) for name, d in declarations.items()}
    numbers = _numbers(set_number, parsed, student_id(), course_secret())
    _IN_THIS_KERNEL[set_number] = numbers
    return numbers


def numbers_of(set_number: int) -> Numbers:
    """The numbers a self-check of this set uses: those its notebook's top cell gave, if it ran.

    Parameters
    ----------
    set_number : int
        The exercise set.

    Returns
    -------
    Numbers
        The numbers of the last :func:`my_numbers` call for the set in this Python, else
        ``variant(student_id(), set_number)``.
    """
    if set_number in _IN_THIS_KERNEL:
        return _IN_THIS_KERNEL[set_number]
    return variant(student_id(), set_number)


# ---------------------------------------------------------------- reading a notebook's declaration
def _literal(node: ast.expr) -> Any:
    """A declared value: a literal, a list or tuple of literals, or range(...) of integers."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"
            and not node.keywords):
        return list(range(*(int(ast.literal_eval(a)) for a in node.args)))
    return ast.literal_eval(node)


def declarations_in(source: str) -> tuple[int, dict[str, Declaration]] | None:
    """The set number and declarations of the ``my_numbers(...)`` call in a cell's source.

    Parameters
    ----------
    source : str
        Python source (a notebook cell).

    Returns
    -------
    (int, dict) or None
        None when the source calls no ``my_numbers``.

    Raises
    ------
    ValueError
        When the call is not written with literals (``name=(value, [values...])`` or ``range``).
    """
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "my_numbers"):
            try:
                set_number = int(ast.literal_eval(node.args[0]))
                found: dict[str, Declaration] = {}
                for kw in node.keywords:
                    if kw.arg is None or not isinstance(kw.value, ast.Tuple) \
                            or len(kw.value.elts) != 2:
                        raise ValueError(f"write each number as name=(value, values): {kw.arg}")
                    found[kw.arg] = (_literal(kw.value.elts[0]),
                                     tuple(_literal(kw.value.elts[1])))
            except (ValueError, TypeError, IndexError, SyntaxError) as err:
                raise ValueError(f"my_numbers(...) must be written with literal values: {err}") \
                    from None
            _check_declarations(set_number, found)
            return set_number, found
    return None
