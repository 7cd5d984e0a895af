"""Each student's own numbers (chutes_edu.variants): a pure function, drawn fairly, graded with.

The slow part runs every set's worked solution as one student (a course secret and a student id
in its kernel's environment, as on a hub), records its answers as the hidden tests would, and
judges them as the grading step does: against that student's numbers every answer is right (the
solutions are written with the numbers, not with their values), and against four other students'
numbers the answers that are values earn less than half of their points (copying another
student's numbers does not pay). A function's code is not a number: copied, it is as right for
one student as for another, so those points are counted apart.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import make_exercises
import pytest

from chutes_edu.grading import HIDDEN_TESTS, judge
from chutes_edu.variants import (
    SECRET_VARIABLE,
    STUDENT_ID_VARIABLES,
    declarations_in,
    declared_numbers,
    my_numbers,
    numbers_of,
    variant,
)

ROOT = Path(__file__).resolve().parent.parent

SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
SECRET = "the course secret of a test class"
STUDENT, OTHERS = "ada", ("grace", "alan", "edsger", "barbara")
_RECORD = re.compile(r'record\("(?P<exercise>\d+\.\d+)", (?P<answer>[^\n]+)\)\s*$', re.MULTILINE)


def _set_of(path: Path) -> int:
    return int(path.name.split("_")[0])


@contextmanager
def _environment(**values: str | None) -> Iterator[None]:
    old = {k: os.environ.get(k) for k in values}
    try:
        for key, value in values.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        yield
    finally:
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


# ---------------------------------------------------------------- the function itself
def test_without_a_secret_or_a_student_every_set_keeps_the_course_numbers() -> None:
    for path in SOLUTIONS:
        s = _set_of(path)
        course = {name: d for name, (d, _) in declared_numbers(s).items()}
        assert dict(variant(None, s, secret=SECRET)) == course
        with _environment(**{SECRET_VARIABLE: None}):
            assert dict(variant("ada", s)) == course


def test_a_variant_is_a_pure_function_of_secret_student_and_set() -> None:
    a = variant("ada", 3, secret=SECRET)
    assert a == variant("ada", 3, secret=SECRET) and a.student == "ada"
    others = [variant(u, 3, secret=SECRET) for u in OTHERS]
    assert any(o != a for o in others)
    assert variant("ada", 3, secret="another term") != a or variant("ada", 3, secret="x") != a
    with pytest.raises(AttributeError, match="no number called 'dice'"):
        _ = a.dice
    with pytest.raises(AttributeError):
        a.turns = 3  # type: ignore[misc]


def test_each_value_is_drawn_about_equally_often() -> None:
    values = declared_numbers(3)["die"][1]
    counts = dict.fromkeys(values, 0)
    for i in range(2000):
        counts[variant(f"student{i}", 3, secret=SECRET).die] += 1
    expected = 2000 / len(values)
    assert all(abs(c - expected) < 5 * expected ** 0.5 for c in counts.values()), counts


def test_the_kernel_uses_the_notebooks_declaration_and_the_student_from_the_hub() -> None:
    with _environment(**{SECRET_VARIABLE: SECRET, STUDENT_ID_VARIABLES[0]: None,
                         "JUPYTERHUB_USER": "ada"}):
        n = my_numbers(3, **{k: (d, list(v)) for k, (d, v) in declared_numbers(3).items()})
        assert n == variant("ada", 3, secret=SECRET) and numbers_of(3) is n
        # the line a notebook prints names nobody: graders see it in the autograded copy
        assert "your own numbers" in repr(n) and "ada" not in repr(n)
    with _environment(**{SECRET_VARIABLE: None}):
        assert "course's own numbers" in repr(my_numbers(3, turns=(20, range(12, 31))))


@pytest.mark.parametrize("source, words", [
    ("n = my_numbers(3, die=(9, [4, 5]))", "is not among its values"),
    ("n = my_numbers(3, die=6)", "name=(value, values)"),
    ("n = my_numbers(3, die=(6, some_list))", "literal"),
    ("n = my_numbers(3, die=(6, []))", "no values"),
])
def test_a_bad_declaration_is_named(source: str, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        declarations_in(source)


def test_the_numbers_files_are_what_the_solutions_declare() -> None:
    """`make exercises` copies each set's declaration (`--check` also fails on drift)."""
    import nbformat

    for path in SOLUTIONS:
        nb = nbformat.read(path, as_version=4)
        found = [declarations_in(c.source) for c in nb.cells
                 if c.cell_type == "code" and "my_numbers(" in c.source]
        declared = found[0][1] if found and found[0] else {}
        assert declared == declared_numbers(_set_of(path)), path.name


# ---------------------------------------------------------------- graded with the numbers
def answers_of(solution: Path, student: str | None) -> dict[str, tuple[dict[str, Any], int]]:
    """Run a worked solution as ``student``; each exercise's recorded answer and its points."""
    import nbformat

    nb = nbformat.read(solution, as_version=4)
    graded: dict[str, tuple[str, int]] = {}
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        block = HIDDEN_TESTS.search(cell.source) if cell.cell_type == "code" else None
        if meta.get("grade") and block and (m := _RECORD.search(block.group(0))):
            graded[m["exercise"]] = (m["answer"], int(meta.get("points", 0)))
    code = ("import json as _json\nfrom chutes_edu.grading import answer_record as _record\n"
            "print(_json.dumps({" + ", ".join(f'"{ex}": _record("{ex}", {answer})'
                                            for ex, (answer, _) in graded.items()) + "}))")
    nb.cells.append(nbformat.v4.new_code_cell(code))
    make_exercises.run_notebook(nb, solution.parent, **{
        SECRET_VARIABLE: SECRET, STUDENT_ID_VARIABLES[0]: student, "NBGRADER_EXECUTION": None})
    records = json.loads("".join(o.get("text", "") for o in nb.cells[-1].outputs))
    return {ex: (records[ex], points) for ex, (_, points) in graded.items()}


def copied_points(solution: Path, others: tuple[str, ...] = OTHERS
                  ) -> tuple[dict[str, float], int, int]:
    """What ``STUDENT``'s value answers earn judged as each of ``others``; the value points;
    the function points (as right for anyone)."""
    answers = answers_of(solution, STUDENT)
    with _environment(**{SECRET_VARIABLE: SECRET}):
        wrong_own = [ex for ex, (entry, _) in answers.items() if not judge(entry, STUDENT)[0]]
        assert not wrong_own, f"{solution.name}: the worked solution run as {STUDENT} is not " \
                              f"right for {STUDENT}'s numbers in {wrong_own}"
        values = {ex: a for ex, a in answers.items() if a[0].get("kind") == "value"}
        earned = {other: sum(points for entry, points in values.values() if judge(entry, other)[0])
                  for other in others}
    value_points = sum(points for _, points in values.values())
    function_points = sum(p for ex, (_, p) in answers.items() if ex not in values)
    return earned, value_points, function_points


@pytest.mark.slow
@pytest.mark.parametrize("solution", [p for p in SOLUTIONS if declared_numbers(_set_of(p))],
                         ids=lambda p: f"set{_set_of(p):02d}")
def test_a_students_numbers_copied_into_another_notebook_earn_less_than_half(
        solution: Path) -> None:
    earned, value_points, _ = copied_points(solution)
    assert all(e < value_points / 2 for e in earned.values()), (
        f"{solution.name}: {STUDENT}'s answers judged as other students earn {earned} of "
        f"{value_points} points")


def test_every_set_whose_answers_are_numbers_declares_numbers() -> None:
    assert [_set_of(p) for p in SOLUTIONS if not declared_numbers(_set_of(p))] == []


if __name__ == "__main__":
    # A quick report for one set while writing its numbers: python tests/test_variants.py 3
    wanted = {int(a) for a in sys.argv[1:]}
    for path in SOLUTIONS:
        if _set_of(path) in wanted:
            earned, value_points, function_points = copied_points(path)
            print(f"{path.name}: worked solution right for its own numbers; copied value answers "
                  f"earn {earned} of {value_points} value points (+{function_points} points of "
                  f"function exercises, as right for anyone)")
