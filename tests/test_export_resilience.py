"""One bad submission never blocks the class's grade export (issue 47, part 5), tested by attack.

The attack: a student hands in a notebook whose nbgrader metadata is tampered with (a grade id
renamed, a solution cell locked, a duplicated grade id, metadata that is not a dict ...), so its
autograde fails; or the autograded notebook is deleted, truncated or replaced by a link after
autograde; or ``timestamp.txt`` is not a time. Before, ``nbgrader export`` (and the Canvas and
Moodle exports) then wrote nothing for anybody, or stopped with a traceback, until the teacher
found the submission. Now every export writes the good submissions' grades exactly as before,
leaves the bad ones' cells blank (not 0, not the gradebook's old grade), names each (student,
set, why) and exits with status 3; ``--<Exporter>.strict=True`` refuses as before (status 1, no
file).

The fast tests drive the export plugins on nbgrader's gradebook API with files laid out as
autograde leaves them (the helpers of tests/test_gradebook.py); the slow one runs the real
commands on a four-student class: perfect, blank, tampered after a good first autograde, and an
autograded notebook deleted afterwards.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("nbgrader")

from nbgrader.api import Gradebook  # noqa: E402
from traitlets.config import Config  # noqa: E402

from chutes_teacher.gradebook import (  # noqa: E402
    CANVAS_COLUMNS,
    EXIT_LEFT_BLANK,
    EXIT_REFUSED,
    MOODLE_COLUMNS,
    CanvasExport,
    GradesCsvExport,
    MoodleExport,
)
from tests.support import blank_gradebook, nbgrader  # noqa: E402
from tests.test_gradebook import (  # noqa: E402,F401  (_tools_on_path: the autouse fixture)
    DUE,
    ROOT,
    SET,
    _course,
    _exported,
    _graded,
    _hand_in,
    _late_config,
    _tiny_notebook,
    _tools_on_path,
)

pytestmark = pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")
EXPORTERS = (GradesCsvExport, CanvasExport, MoodleExport)
NOTEBOOK = json.dumps(nbformat.v4.new_notebook())


def _on_disk(course: Path, step: str, student: str, when: str) -> Path:
    """``step/student/SET`` as collect or autograde leaves it: timestamp.txt and the notebook."""
    _hand_in(course, step, student, when)
    notebook = course / step / student / SET / f"{SET}.ipynb"
    notebook.write_text(NOTEBOOK)
    return notebook


def _class(tmp_path: Path) -> tuple[Path, str, Config]:
    """test_gradebook's class (s1 graded 9, on time; s2 graded 10 - 1, late; s3 nothing) and s4,
    Emmy Noether, graded 7; s1 and s4 autograded and on disk, s2's latest autograde failed
    (handed in, no autograded copy: the gradebook keeps its old grades)."""
    course, db = _course(tmp_path)
    _graded(db)
    with Gradebook(db, "chutes_edu") as gb:
        gb.add_student("s4", first_name="Emmy", last_name="Noether", email="emmy@example.edu")
        gb.add_submission(SET, "s4", timestamp=DUE - timedelta(hours=2))
        gb.find_grade("ex3_1-tests", SET, SET, "s4").auto_score = 3.0
        grade = gb.find_grade("ex3_2-written", SET, SET, "s4")
        grade.manual_score, grade.needs_manual_grade = 4.0, False
        gb.db.commit()
    for student in ("s1", "s4"):
        _on_disk(course, "submitted", student, "2026-02-06 10:00:00")
        _on_disk(course, "autograded", student, "2026-02-06 10:00:00")
    _on_disk(course, "submitted", "s2", "2026-02-06 13:00:00")
    config = _late_config()
    config.CourseDirectory.root = str(course)
    return course, db, config


def _left_blank(plugin: type, db: str, to: Path, config: Config,
                caplog: pytest.LogCaptureFixture) -> tuple[list[list[str]], str]:
    """The rows an export wrote and its log, having checked that it exited with status 3."""
    caplog.clear()
    with pytest.raises(SystemExit) as stop:
        _exported(plugin, db, to, config)
    assert stop.value.code == EXIT_LEFT_BLANK, caplog.text
    with to.open(encoding="utf-8", newline="") as fh:
        return list(csv.reader(fh)), caplog.text


def test_a_bad_submission_is_left_blank_and_named_and_the_class_exported(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Attack: s2's latest autograde failed (the gradebook still says 9), s4's autograded
    notebook was deleted afterwards (the gradebook says 7). Every export writes s1 and s3 as it
    always did and leaves s2 and s4 blank."""
    course, db, config = _class(tmp_path)
    (course / "autograded" / "s4" / SET / f"{SET}.ipynb").unlink()
    named = [f"s2, {SET}: its latest autograde failed (autograded/ has no copy of it)",
             f"s4, {SET}: its autograded {SET}.ipynb is missing"]

    rows, log = _left_blank(CanvasExport, db, tmp_path / "canvas.csv", config, caplog)
    assert rows[:2] == [[*CANVAS_COLUMNS, SET], ["Points Possible", "", "", "", "", "10"]]
    assert rows[2:] == [["Hopper, Grace", "", "s3", "", "", ""],        # nothing handed in: blank
                        ["Lovelace, Ada", "1001", "s1", "", "", "9"],    # as before
                        ["Noether, Emmy", "", "s4", "", "", ""],         # not 7
                        ["Turing, Alan", "", "s2", "", "", ""]]          # not 9
    assert "2 submission(s) left blank" in log and "--CanvasExport.strict=True" in log
    assert all(line in log for line in named) and "Traceback" not in log, log

    rows, log = _left_blank(MoodleExport, db, tmp_path / "moodle.csv", config, caplog)
    assert rows == [[*MOODLE_COLUMNS, SET],
                    ["Grace", "Hopper", "s3", "grace@example.edu", ""],
                    ["Ada", "Lovelace", "s1", "ada@example.edu", "9"],
                    ["Emmy", "Noether", "s4", "emmy@example.edu", ""],
                    ["Alan", "Turing", "s2", "alan@example.edu", ""]]
    assert all(line in log for line in named), log

    rows, log = _left_blank(GradesCsvExport, db, tmp_path / "grades.csv", config, caplog)
    assert rows[0] == list(GradesCsvExport.COLUMNS)
    assert [(r[3], r[2], r[7], r[8], r[9], r[10]) for r in rows[1:]] == [
        ("s3", "", "", "", "", "10"),
        ("s1", "2026-02-06 11:00:00", "9", "0", "9", "10"),
        ("s4", "", "", "", "", "10"),
        ("s2", "", "", "", "", "10")]
    assert all(line in log for line in named) and "--GradesCsvExport.strict" in log, log

    # one column per graded cell: every cell of a blank submission is blank; s2's stale late
    # penalty makes no penalty column of its own
    config.CanvasExport.questions = True
    rows, _ = _left_blank(CanvasExport, db, tmp_path / "questions.csv", config, caplog)
    assert rows[0] == [*CANVAS_COLUMNS, f"{SET} 3.1", f"{SET} 3.2 written"]
    assert [row[5:] for row in rows[2:]] == [["", ""], ["4", "5"], ["", ""], ["", ""]]


@pytest.mark.parametrize("exporter", EXPORTERS, ids=lambda e: e.__name__)
def test_strict_refuses_and_names_them_as_before(
        exporter: type, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    course, db, config = _class(tmp_path)
    (course / "autograded" / "s4" / SET / f"{SET}.ipynb").unlink()
    config[exporter.__name__].strict = True
    with pytest.raises(SystemExit) as stop:
        _exported(exporter, db, tmp_path / "out.csv", config)
    assert stop.value.code == EXIT_REFUSED and not (tmp_path / "out.csv").exists()
    assert "nothing exported" in caplog.text and "Traceback" not in caplog.text
    assert f"s2, {SET}: its latest autograde failed" in caplog.text
    assert f"s4, {SET}: its autograded {SET}.ipynb is missing" in caplog.text
    config[exporter.__name__].student = ["s1", "s3"]     # leaving them out still works
    assert len(_exported(exporter, db, tmp_path / "some.csv", config)) >= 3


def _truncate(notebook: Path) -> None:
    notebook.write_text(NOTEBOOK[:40])


def _link(notebook: Path) -> None:
    notebook.unlink()
    os.symlink(notebook.parents[4] / "gradebook.db", notebook)


def _not_a_notebook(notebook: Path) -> None:
    notebook.write_text("[1, 2, 3]")


def _bad_timestamp(notebook: Path) -> None:
    (notebook.parent / "timestamp.txt").write_text("the day after tomorrow, at noon or so")


@pytest.mark.parametrize("corrupt, why", [
    (_truncate, f"its autograded {SET}.ipynb cannot be read (JSONDecodeError)"),
    (_link, f"its autograded {SET}.ipynb is not a regular file"),
    (_not_a_notebook, f"its autograded {SET}.ipynb is not a notebook"),
    (_bad_timestamp, "its timestamp.txt in autograded/ cannot be read as a time"),
], ids=["truncated", "a link", "not a notebook", "timestamp not a time"])
def test_an_unreadable_autograded_submission_is_named_not_exported_and_stops_nobody(
        corrupt: Callable[[Path], None], why: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Attack: s4's autograded files are corrupted after autograde (before, its old grade was
    exported, or nbgrader's timestamp reader stopped the whole export with a traceback)."""
    course, db, config = _class(tmp_path)
    corrupt(course / "autograded" / "s4" / SET / f"{SET}.ipynb")
    config.MoodleExport.student = ["s1", "s3", "s4"]      # s4 the only bad one
    rows, log = _left_blank(MoodleExport, db, tmp_path / "moodle.csv", config, caplog)
    assert [row[2:] for row in rows[1:]] == [["s3", "grace@example.edu", ""],
                                             ["s1", "ada@example.edu", "9"],
                                             ["s4", "emmy@example.edu", ""]]
    assert "1 submission(s) left blank" in log and f"s4, {SET}: {why}" in log, log
    assert "Traceback" not in log


def test_good_submissions_export_as_before_with_status_0(tmp_path: Path) -> None:
    """Nothing to leave blank: no error, no exit, the rows test_gradebook.py expects."""
    _, db, config = _class(tmp_path)
    config.CanvasExport.student = ["s1", "s3", "s4"]
    rows = _exported(CanvasExport, db, tmp_path / "canvas.csv", config)
    assert [row[2:] for row in rows[2:]] == [["s3", "", "", ""], ["s1", "", "", "9"],
                                             ["s4", "", "", "7"]]


# ------------------------------------------------------------------ the real commands, slow

def _tampered(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The student's attack on the tests cell's nbgrader metadata: its grade id given to the
    answer cell too (a duplicate), its points raised, and the answer cell locked."""
    nb.cells[0].metadata.nbgrader.update(grade_id="ex1_1-tests", locked=True)
    nb.cells[1].metadata.nbgrader["points"] = 1000
    return nb


@pytest.mark.slow
def test_a_class_with_a_tampered_and_a_deleted_submission_is_exported(tmp_path: Path) -> None:
    """A one-cell set (10 points) with the course's nbgrader_config.py: ada right, bob blank,
    eve right and autograded, then handing in tampered metadata whose autograde fails (the
    gradebook keeps her 10), dan right with his autograded notebook deleted afterwards."""
    course = tmp_path / "course"
    (course / "source" / "tiny").mkdir(parents=True)
    (course / "nbgrader_config.py").write_text((ROOT / "nbgrader_config.py").read_text())
    blank_gradebook(course)
    nbformat.write(_tiny_notebook(), course / "source" / "tiny" / "tiny.ipynb")

    def run(*args: str, status: int = 0) -> str:
        done = nbgrader(*args, cwd=course, timeout=900)
        assert done.returncode == status, done.stdout[-3000:] + done.stderr[-3000:]
        return done.stderr

    run("generate_assignment", "tiny")
    release = nbformat.read(course / "release" / "tiny" / "tiny.ipynb", as_version=4)
    right = nbformat.from_dict(json.loads(json.dumps(release)))
    right.cells[0].source = "x = 1"

    def hand_in(student: str, nb: nbformat.NotebookNode, when: str) -> None:
        folder = course / "submitted" / student / "tiny"
        folder.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, folder / "tiny.ipynb")
        (folder / "timestamp.txt").write_text(f"2026-02-06 {when}.000000 UTC")

    for student, nb in [("ada", right), ("bob", release), ("eve", right), ("dan", right)]:
        hand_in(student, nb, "10:00:00")
    run("autograde", "tiny")
    hand_in("eve", _tampered(nbformat.from_dict(json.loads(json.dumps(right)))), "11:00:00")
    run("autograde", "tiny", "--student", "eve", "--force", status=1)
    (course / "autograded" / "dan" / "tiny" / "tiny.ipynb").unlink()
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", "chutes_edu") as gb:
        assert gb.find_submission("tiny", "eve").score == 10     # the old grade is still there

    named = ["eve, tiny: its latest autograde failed (autograded/ has no copy of it)",
             "dan, tiny: its autograded tiny.ipynb is missing"]
    log = run("export", status=EXIT_LEFT_BLANK)
    assert all(line in log for line in named) and "Traceback" not in log, log
    with (course / "grades.csv").open(encoding="utf-8", newline="") as fh:
        grades = {row["student_id"]: row["score"] for row in csv.DictReader(fh)}
    assert grades == {"ada": "10", "bob": "0", "dan": "", "eve": ""}
    for exporter, column in [("CanvasExport", 2), ("MoodleExport", 2)]:
        log = run("export", "--exporter", f"chutes_teacher.gradebook.{exporter}", "--to",
                  f"{exporter}.csv", status=EXIT_LEFT_BLANK)
        assert all(line in log for line in named), log
        with (course / f"{exporter}.csv").open(encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh))
        assert {row[column]: row[-1] for row in rows if row[column] in grades} == grades, rows

    for exporter in ("GradesCsvExport", "CanvasExport"):
        (course / "strict.csv").unlink(missing_ok=True)
        log = run("export", "--exporter", f"chutes_teacher.gradebook.{exporter}", "--to",
                  "strict.csv", f"--{exporter}.strict=True", status=EXIT_REFUSED)
        assert "nothing exported" in log and all(line in log for line in named), log
        assert not (course / "strict.csv").exists()
