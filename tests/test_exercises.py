"""exercises/ is generated from solutions/; every exercise notebook runs, failing only at its stubs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import make_exercises  # noqa: E402

SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))


def test_every_lesson_has_an_exercise_set() -> None:
    lessons = {p.name for p in (ROOT / "lessons").glob("*.ipynb")}
    solutions = {p.name for p in SOLUTIONS}
    exercises = {p.name for p in (ROOT / "exercises").glob("*.ipynb")}
    assert solutions == exercises
    assert lessons <= solutions, f"lessons without an exercise set: {sorted(lessons - solutions)}"


def test_exercises_match_solutions() -> None:
    """Regenerating would change nothing (run `make exercises` after editing solutions/)."""
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "make_exercises.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("solution", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_exercise_runs_and_fails_only_at_stubs(solution: Path) -> None:
    exercise = ROOT / "exercises" / solution.name
    nb = nbformat.read(exercise, as_version=4)
    allowed_names = make_exercises.solution_names(nbformat.read(solution, as_version=4))
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(exercise.parent)}}).execute()
    stubs = 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") != "error":
                continue
            if out["ename"] == "NotImplementedError":
                stubs += 1
                continue
            missing = out["evalue"].split("'")[1] if out["ename"] == "NameError" else None
            assert missing in allowed_names, (
                f"{exercise.name}: cell failed with {out['ename']}: {out['evalue']}\n{cell.source}")
    assert stubs >= 1, f"{exercise.name} has no exercise stubs"


@pytest.mark.parametrize("solution", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_exercise_shows_no_answers(solution: Path) -> None:
    """Generated exercises carry no outputs and no solution code."""
    nb = nbformat.read(ROOT / "exercises" / solution.name, as_version=4)
    assert "widgets" not in nb.metadata, "saved widget state (outputs) in an exercise"
    for cell in nb.cells:
        assert make_exercises.BEGIN not in cell.source
        if cell.cell_type == "code":
            assert not cell.outputs
