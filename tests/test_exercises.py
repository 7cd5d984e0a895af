"""exercises/ is generated from solutions/; an untouched exercise notebook runs without any error
and every check in it says "not yet"; the solutions' checks all say "right"."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from pathlib import Path

import make_exercises
import nbformat
import pytest
from nbclient import NotebookClient

from chutes_edu.checks import _REGISTRY, HINT_POINTER, check, exercise_ids, tolerance_text
from chutes_edu.course import course_lessons, lesson_stem, set_stem

ROOT = Path(__file__).resolve().parent.parent

SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
CHECK = re.compile(r'^check\("(\d+\.\d+)", (\w+)\)$')


def _check_cells(nb: nbformat.NotebookNode) -> list[tuple[str, str, nbformat.NotebookNode]]:
    out = []
    for cell in nb.cells:
        m = CHECK.match(cell.source.strip()) if cell.cell_type == "code" else None
        if m:
            out.append((m.group(1), m.group(2), cell))
    return out


def _text(cell: nbformat.NotebookNode) -> str:
    return "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "")
                   for o in cell.get("outputs", []))


def test_every_lesson_has_an_exercise_set() -> None:
    lessons = course_lessons(ROOT)
    solutions = {p.relative_to(ROOT) for p in SOLUTIONS}
    exercises = {p.relative_to(ROOT) for p in (ROOT / "exercises").glob("*.ipynb")}
    assert solutions == {lesson.solutions for lesson in lessons}
    assert exercises == {lesson.exercises for lesson in lessons}


def test_exercises_match_solutions() -> None:
    """Regenerating would change nothing (run `make exercises` after editing solutions/)."""
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "make_exercises.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_exercise_has_its_own_answer_name_and_one_check() -> None:
    seen: dict[str, str] = {}
    for path in SOLUTIONS:
        for exercise, name, _ in _check_cells(nbformat.read(path, as_version=4)):
            assert exercise not in seen, f"{exercise} is checked twice"
            assert name not in seen.values(), f"{exercise} reuses the answer name {name!r}"
            assert name != "answer", f"{exercise}: give the answer its own name (answer_N_k)"
            seen[exercise] = name
    assert sorted(seen) == sorted(exercise_ids())


@pytest.mark.parametrize("solution", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_solutions_check_right(solution: Path) -> None:
    """The saved outputs of the solutions: every check says right."""
    for exercise, _, cell in _check_cells(nbformat.read(solution, as_version=4)):
        assert _text(cell).strip() == f"✔ {exercise} right", (solution.name, _text(cell))


@pytest.mark.parametrize("solution", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_untouched_exercise_runs_without_error_and_says_not_yet(solution: Path) -> None:
    """Run All on an untouched set: no cell raises, and every check says "not yet: no answer"."""
    exercise = ROOT / "exercises" / f"{set_stem(lesson_stem(solution.stem), 'exercises')}.ipynb"
    nb = nbformat.read(exercise, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(exercise.parent)}}).execute()
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", (
                f"{exercise.name}: {out.get('ename')}: {out.get('evalue')}\n{cell.source}")
            assert out.get("name") != "stderr" or "Warning" in out.get("text", ""), (
                f"{exercise.name}: printed to stderr: {out.get('text')}\n{cell.source}")
    checks = _check_cells(nb)
    assert checks, f"{exercise.name} has no checks"
    for number, _, cell in checks:
        assert _text(cell).startswith(f"✘ {number} not yet: no answer given"), _text(cell)


@pytest.mark.parametrize("solution", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_exercise_shows_no_answers(solution: Path) -> None:
    """Generated exercises carry no outputs, no solution code and no hidden tests."""
    exercise = ROOT / "exercises" / f"{set_stem(lesson_stem(solution.stem), 'exercises')}.ipynb"
    nb = nbformat.read(exercise, as_version=4)
    assert "widgets" not in nb.metadata, "saved widget state (outputs) in an exercise"
    for cell in nb.cells:
        assert make_exercises.BEGIN not in cell.source
        assert "HIDDEN TESTS" not in cell.source
        if cell.cell_type == "code":
            assert not cell.outputs
            assert "execution" not in cell.metadata


def test_generated_exercises_have_no_undefined_names() -> None:
    ruff = Path(sys.executable).parent / "ruff"
    if not ruff.exists():
        pytest.skip("ruff is not installed")
    done = subprocess.run([str(ruff), "check", "--select", "F821", str(ROOT / "exercises")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def _stated_tolerance(exercise: str) -> str | None:
    """The tolerance of a check that uses close(...), read from its verifier's source."""
    source = inspect.getsource(_REGISTRY[exercise].verify)
    m = re.search(r"close\((.*)\)\(answer\)", source, re.S)
    if m is None:
        return None
    rel = re.search(r"rel=([0-9.e-]+)", m.group(1))
    abs_tol = re.search(r"abs_tol=([0-9.e-]+)", m.group(1))
    return tolerance_text(float(rel.group(1)) if rel else 1e-6,
                          float(abs_tol.group(1)) if abs_tol else 0.0)


def test_tolerances_are_stated_in_the_exercise_text() -> None:
    text = {}
    for path in SOLUTIONS:
        for cell in nbformat.read(path, as_version=4).cells:
            m = re.match(r"### Exercise (\d+\.\d+)", cell.source)
            if m and cell.cell_type == "markdown":
                text[m.group(1)] = cell.source
    stated = 0
    for exercise in exercise_ids():
        tolerance = _stated_tolerance(exercise)
        if tolerance is not None:
            stated += 1
            assert f"The check accepts your number {tolerance}." in text[exercise], exercise
    assert stated >= 10


# --------------------------------------------------------------------------- friendly messages
@pytest.mark.parametrize("answer", [3.6, "18/5"])
def test_right_value_in_the_wrong_form_says_so(answer: object) -> None:
    from fractions import Fraction

    from chutes_edu.checks import exactly, register

    exercise = "99.1"
    if exercise not in _REGISTRY:
        register(exercise, hint="a test exercise")(lambda a: exactly(Fraction(18, 5))(a))
    try:
        result = check(exercise, answer)
        assert not result and "right value" in result.message
        assert "18/5" not in result.message.replace(str(answer), "") and "3.6" not in (
            result.message.replace(str(answer), ""))
        assert check(exercise, Fraction(18, 5))
        assert not check(exercise, 3.5) and "right value" not in check(exercise, 3.5).message
    finally:
        _REGISTRY.pop(exercise, None)


@pytest.mark.parametrize("label", ["b", "(b)", "b)", "B", "b.", " (B) ", "[b]"])
def test_printed_option_labels_are_accepted(label: str) -> None:
    assert check("1.6", label), label
    assert not check("1.6", label.replace("b", "c").replace("B", "C"))


def test_an_unattempted_function_is_no_answer() -> None:
    def my_waits(p, n_trials, seed):  # noqa: ANN001 - a stub, as the exercise shows it
        pass

    result = check("1.3", my_waits)
    assert not result and "no answer given" in result.message
    assert "wants the function itself" in check("1.3", 1).message


def test_a_capped_simulator_is_caught() -> None:
    import numpy as np

    def capped(p: float, n_trials: int, seed: int, cap: int = 20) -> np.ndarray:
        rng = np.random.default_rng(seed)
        waits = np.empty(n_trials, dtype=np.int64)
        for trial in range(n_trials):
            flips = 1
            while rng.random() >= p and flips < cap:
                flips += 1
            waits[trial] = flips
        return waits

    def honest(p: float, n_trials: int, seed: int) -> np.ndarray:
        return capped(p, n_trials, seed, cap=10**9)

    assert check("1.3", honest)
    for cap in (20, 100, 300):
        assert not check("1.3", lambda p, n, s, cap=cap: capped(p, n, s, cap)), cap


# --------------------------------------------------------------------------- hints
HINT = re.compile(r"\A<details>\n<summary>Hint for exercise (?P<number>\d+\.\d+)</summary>\n\n"
                  r"(?P<body>(?:(?!</?details).)+?)\n\n</details>\Z", re.S)
_EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))


def _hints(path: Path) -> dict[str, str]:
    """Exercise number -> the text of the hint cell right under the exercise's heading."""
    nb = nbformat.read(path, as_version=4)
    found = {}
    for cell, after in zip(nb.cells, nb.cells[1:], strict=False):
        m = re.match(r"### Exercise (\d+\.\d+)", cell.source) if cell.cell_type == "markdown" else None
        if m:
            hint = HINT.match(after.source) if after.cell_type == "markdown" else None
            assert hint and hint["number"] == m.group(1), \
                f"{path.name}: exercise {m.group(1)} has no hint right under it:\n{after.source[:200]}"
            found[m.group(1)] = hint["body"]
    return found


@pytest.mark.parametrize("path", SOLUTIONS + _EXERCISES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_exercise_has_a_hint_hidden_until_asked_for(path: Path) -> None:
    """A closed <details> block (JupyterLab and the site both render it) right under each exercise:
    a first nudge of a few sentences, which never holds a solution nor a multiple choice's letter."""
    hints = _hints(path)
    assert hints, f"{path.name} has no exercises"
    exercise_ids()                                   # loads the checks into _REGISTRY
    for number, body in hints.items():
        assert 20 <= len(body.split()) <= 120, f"{number}: a hint of {len(body.split())} words"
        assert "SOLUTION" not in body and "Rubric" not in body, number
        if "one_of" in inspect.getsource(_REGISTRY[number].verify):
            assert not re.search(r"\([a-d]\)", body), f"{number}: the hint names an option"


def test_all_exercises_have_hints_and_the_exercise_sets_carry_them() -> None:
    from_solutions = {n: b for path in SOLUTIONS for n, b in _hints(path).items()}
    from_exercises = {n: b for path in _EXERCISES for n, b in _hints(path).items()}
    assert sorted(from_solutions) == sorted(exercise_ids())
    assert {n.split(".")[0] for n in from_solutions} == \
        {str(lesson.number) for lesson in course_lessons(ROOT)}, "a set without exercises"
    assert from_exercises == from_solutions


def test_a_not_yet_points_to_the_hint_under_the_exercise() -> None:
    pointer = HINT_POINTER.format(exercise="3.1")
    assert pointer == "(the hint under exercise 3.1 may help)"
    for answer in (None, 0.5, "b", sympy_rational(1, 7)):
        result = check("3.1", answer)
        assert not result and result.message.endswith(pointer), result.message
    right = check("1.6", "b")
    assert right and "hint under" not in right.message


def sympy_rational(p: int, q: int) -> object:
    import sympy

    return sympy.Rational(p, q)
