"""One number everywhere: formgrader shows a late submission's score after its penalty (issue 48.5).

nbgrader's formgrader showed 10 / 10 for a submission one hour late whose feedback, grades.csv and
the Canvas and Moodle files gave 9. Here a real ``jupyter server`` with the teacher's settings
(tests/test_formgrader_server.py's, plus ``chutes_teacher.penalised_scores``) serves formgrader on
test_gradebook's class: s1 on time with 9 of 10, s2 an hour late with 10 of 10 (the written answer
graded by hand after autograde stored a smaller penalty), s3 nothing. Every formgrader view of a
score (Manage Submissions, a student's sets, a student's notebooks, a notebook's submissions) gives
9 for s2, labelled beside it as raw score 10 and penalty 1, the same as ``nbgrader export``'s
grades.csv and the Canvas file.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import nbformat
import pytest

from chutes_teacher.nbgrader_setup import TEACHER_SERVER_EXTENSIONS
from tests.support import NBGRADER_BIN, nbgrader
from tests.test_formgrader_server import Teacher, _teacher_config, running_server
from tests.test_gradebook import DUE, HOUR, SET, _course, _graded

requests = pytest.importorskip("requests")
# the class is built with nbgrader's add_submission (test_gradebook's _graded), which trips
# SQLAlchemy's autoflush warnings, harmless, as in tests/test_gradebook.py
pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")]

EXTENSION = "chutes_teacher.penalised_scores"


def _on_disk(course: Path, student: str, late: int) -> None:
    """The submission's folders as collect and autograde leave them (formgrader lists a student
    as autograded when both timestamps equal the gradebook's)."""
    stamp = (DUE + timedelta(seconds=late)).strftime("%Y-%m-%d %H:%M:%S.%f UTC")
    for step in ("submitted", "autograded"):
        folder = course / step / student / SET
        folder.mkdir(parents=True)
        nbformat.write(nbformat.v4.new_notebook(), folder / f"{SET}.ipynb")
        (folder / "timestamp.txt").write_text(stamp)


@pytest.fixture(scope="module")
def teacher(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Teacher]:
    if not (NBGRADER_BIN / "nbgrader").exists():
        pytest.skip("nbgrader is not installed (pip install -e '.[teacher]')")
    base = tmp_path_factory.mktemp("formgrader-scores")
    home = base / "home"
    with pytest.MonkeyPatch.context() as patch:   # a new gradebook runs alembic, from this venv
        patch.setenv("PATH", f"{NBGRADER_BIN}{os.pathsep}{os.environ['PATH']}")
        course, db = _course(home)              # ~/course, as hub/config.yaml's teacher file says
    _graded(db)
    _on_disk(course, "s1", -HOUR)
    _on_disk(course, "s2", HOUR)
    etc = _teacher_config(base / "prefix")
    server_config = etc / "jupyter_server_config.json"
    settings = json.loads(server_config.read_text())
    settings["ServerApp"]["jpserver_extensions"][EXTENSION] = True
    server_config.write_text(json.dumps(settings))
    assert set(TEACHER_SERVER_EXTENSIONS) <= set(settings["ServerApp"]["jpserver_extensions"])
    with running_server(base, home, etc) as (server, _):
        yield server


def _by_student(rows: list[dict[str, object]]) -> dict[object, tuple[object, ...]]:
    return {row["student"]: (row["score"], row.get("raw_score"),
                             row.get("late_submission_penalty")) for row in rows}


def test_formgrader_shows_the_score_after_the_late_penalty(teacher: Teacher) -> None:
    listed = _by_student(teacher.call("GET", f"formgrader/api/submissions/{SET}"))
    assert listed["s2"] == (9.0, 10.0, 1.0), listed          # not 10: the penalty is taken
    assert listed["s1"] == (9.0, 9.0, 0.0), listed
    one = teacher.call("GET", f"formgrader/api/submission/{SET}/s2")
    assert (one["score"], one["raw_score"], one["late_submission_penalty"]) == (9.0, 10.0, 1.0)
    sets = {row["name"]: row
            for row in teacher.call("GET", "formgrader/api/student_submissions/s2")}
    assert sets[SET]["score"] == 9.0
    notebooks = teacher.call("GET", f"formgrader/api/student_notebook_submissions/s2/{SET}")
    assert [row["score"] for row in notebooks] == [9.0]
    # the notebook's submissions, as blind grading lists them (no names)
    blind = teacher.call("GET", f"formgrader/api/submitted_notebooks/{SET}/{SET}")
    assert sorted((row["score"], row["raw_score"], row["late_submission_penalty"])
                  for row in blind) == [(9.0, 9.0, 0.0), (9.0, 10.0, 1.0)], blind


def test_formgrader_grades_csv_and_canvas_give_the_same_number(teacher: Teacher,
                                                               tmp_path: Path) -> None:
    course = teacher.home / "course"
    shown = _by_student(teacher.call("GET", f"formgrader/api/submissions/{SET}"))
    done = nbgrader("export", "--to", str(tmp_path / "grades.csv"), cwd=course)
    assert done.returncode == 0, done.stderr[-3000:]
    with (tmp_path / "grades.csv").open(newline="") as fh:
        grades = {row["student_id"]: row for row in csv.DictReader(fh)}
    done = nbgrader("export", "--exporter", "chutes_teacher.gradebook.CanvasExport", "--to",
                    str(tmp_path / "canvas.csv"), cwd=course)
    assert done.returncode == 0, done.stderr[-3000:]
    with (tmp_path / "canvas.csv").open(newline="") as fh:
        canvas = {row["SIS User ID"]: row[SET] for row in csv.DictReader(fh)}
    for student in ("s1", "s2"):
        assert float(grades[student]["score"]) == shown[student][0] == float(canvas[student])
