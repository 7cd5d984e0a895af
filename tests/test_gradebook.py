"""Course administration with nbgrader (chutes_teacher.gradebook): the roster, due dates, extensions,
the late penalty and the Canvas and Moodle grade exports.

Most tests use nbgrader's gradebook API on a throwaway course folder (no notebook runs). Two slow
ones drive the real commands: a tiny one-cell assignment autograded for three students (late,
within an extension, three days late) and exported, and ``make teacher`` run twice on a temporary
course folder.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import nbformat
import pytest

pytest.importorskip("nbgrader")

from nbgrader.api import Gradebook  # noqa: E402
from traitlets.config import Config  # noqa: E402
from traitlets.config.loader import PyFileConfigLoader  # noqa: E402

from chutes_edu.checks import exercise_ids  # noqa: E402
from chutes_teacher import gradebook as admin  # noqa: E402
from chutes_teacher.gradebook import (  # noqa: E402
    CANVAS_COLUMNS,
    MOODLE_COLUMNS,
    CanvasExport,
    LatePenaltyPerDay,
    MoodleExport,
)
from chutes_teacher.nbgrader_setup import DecideGrades  # noqa: E402
from tests.support import blank_gradebook  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# nbgrader's add_submission trips SQLAlchemy's autoflush warnings (harmless; autograde does too)
pytestmark = pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")
BIN = Path(sys.executable).parent
SET = "03_exercises_markov_chains"
SETS = ["01_exercises_waiting_for_heads", SET]
DUE = datetime(2026, 2, 6, 12, 0)          # naive UTC, as nbgrader keeps it
HOUR, DAY = 3600, 86400


@pytest.fixture(autouse=True)
def _tools_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new gradebook runs nbgrader's migrations with ``alembic``, from this Python's folder."""
    monkeypatch.setenv("PATH", f"{BIN}{os.pathsep}{os.environ['PATH']}")


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------ the roster

def test_roster_reads_first_and_last_names_or_one_name(tmp_path: Path) -> None:
    split = _write(tmp_path / "a.csv", "\ufeffid,first_name,last_name,email,lms_user_id\n"
                   "s1,Ada,Lovelace,ada@example.edu,1001\n\ns2,Alan,Turing,alan@example.edu,\n")
    assert admin.read_roster(split) == [
        admin.Student("s1", "Ada", "Lovelace", "ada@example.edu", "1001"),
        admin.Student("s2", "Alan", "Turing", "alan@example.edu", "")]
    single = _write(tmp_path / "b.csv", 'student_id,name,email,section\n'
                    's1,Ada Lovelace,ada@example.edu,A\n"s2","Turing, Alan",alan@example.edu,B\n')
    assert [(s.first_name, s.last_name) for s in admin.read_roster(single)] == [
        ("Ada", "Lovelace"), ("Alan", "Turing")]


def test_roster_names_every_bad_row(tmp_path: Path) -> None:
    roster = _write(tmp_path / "r.csv", "id,first_name,last_name,email\n"
                    "s1,Ada,Lovelace,ada@example.edu\n"         # line 2: fine
                    ",Nobody,Here,nobody@example.edu\n"         # 3: no id
                    "s1,Ada,Again,ada2@example.edu\n"           # 4: duplicate id
                    "s3,Alan,Turing,alan-at-example.edu\n"      # 5: bad e-mail
                    "s4,Grace,Hopper,\n"                        # 6: no e-mail
                    "a/b,Kurt,Goedel,kurt@example.edu\n"        # 7: id no folder can have
                    "s6,Emmy,Noether,ADA@example.edu\n")        # 8: duplicate e-mail
    with pytest.raises(ValueError) as err:
        admin.read_roster(roster)
    text = str(err.value)
    assert "6 bad row(s), nothing imported" in text
    for expected in ["line 3: missing id", "line 4: duplicate id 's1' (first on line 2)",
                     "line 5: bad e-mail address 'alan-at-example.edu'",
                     "line 6: missing e-mail address", "line 7: id 'a/b' is not usable",
                     "line 8: duplicate e-mail address 'ADA@example.edu' (first on line 2)"]:
        assert expected in text, text
    assert "line 2" not in text.replace("first on line 2", "")


def test_roster_without_the_needed_columns_says_which(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="lacks the column.*first_name and last_name.*email"):
        admin.read_roster(_write(tmp_path / "r.csv", "id,surname\ns1,Lovelace\n"))


# ------------------------------------------------------------------------ due dates, extensions

def test_schedule_in_a_stated_time_zone_from_csv_or_toml(tmp_path: Path) -> None:
    table = _write(tmp_path / "s.csv", "set,due\n1,2026-02-06 23:59\n"
                   f"{SET},2026-02-20T23:59:00+00:00\n")
    due = admin.read_schedule(table, SETS, timezone="Europe/Berlin")
    assert due == {SETS[0]: datetime(2026, 2, 6, 22, 59, tzinfo=UTC),
                   SET: datetime(2026, 2, 20, 23, 59, tzinfo=UTC)}
    toml = _write(tmp_path / "s.toml", 'timezone = "America/New_York"\n[due]\n'
                  '"01_exercises_waiting_for_heads" = 2026-02-06T23:59:00\n"3" = "2026-02-20"\n')
    due = admin.read_schedule(toml, SETS)
    assert due[SETS[0]] == datetime(2026, 2, 7, 4, 59, tzinfo=UTC)
    assert due[SET] == datetime(2026, 2, 21, 4, 59, 59, tzinfo=UTC)     # a date: its last second


def test_schedule_names_every_bad_entry(tmp_path: Path) -> None:
    table = _write(tmp_path / "s.csv", "set,due\n1,2026-02-06 23:59\n"
                   "13,2026-02-06 23:59\n3,next friday\n01_exercises_waiting_for_heads,2026-03-01\n")
    with pytest.raises(ValueError) as err:
        admin.read_schedule(table, SETS, timezone="UTC")
    text = str(err.value)
    assert "line 3: unknown set '13'" in text and "line 4: 'next friday' is not a date" in text
    assert "line 5: 01_exercises_waiting_for_heads has a due date already" in text
    with pytest.raises(ValueError, match="line 2: 2026-02-06 23:59 has no time zone"):
        admin.read_schedule(table, SETS)
    with pytest.raises(ValueError, match="unknown time zone 'Mars/Olympus'"):
        admin.read_schedule(table, SETS, timezone="Mars/Olympus")


def test_extensions_names_every_bad_row(tmp_path: Path) -> None:
    table = _write(tmp_path / "e.csv", "student,set,due,hours\n"
                   "s1,3,,48\n"                     # 2: fine
                   "s2,3,2026-02-10 12:00,\n"       # 3: fine
                   ",3,,24\n"                       # 4: no student
                   "s3,3,,\n"                       # 5: neither
                   "s4,3,2026-02-10 12:00,24\n"     # 6: both
                   "s5,3,,-2\n"                     # 7: not positive
                   "s1,3,,72\n"                     # 8: twice
                   "s6,9,,24\n")                    # 9: unknown set
    with pytest.raises(ValueError) as err:
        admin.read_extensions(table, SETS, timezone="UTC")
    text = str(err.value)
    for expected in ["line 4: no student", "line 5: give either due or hours",
                     "line 6: give either due or hours", "line 7: hours '-2' is not a positive",
                     "line 8: s1 has an extension for 03_exercises_markov_chains already (line 2)",
                     "line 9: unknown set '9'"]:
        assert expected in text, text
    good = _write(tmp_path / "g.csv", "student,set,due,hours\ns1,3,,48\ns2,3,2026-02-10 12:00,\n")
    assert admin.read_extensions(good, SETS, timezone="UTC") == [
        admin.Extension("s1", SET, hours=48.0),
        admin.Extension("s2", SET, due=datetime(2026, 2, 10, 12, tzinfo=UTC))]


# ------------------------------------------------------------------------------ the late penalty

@pytest.mark.parametrize("seconds, penalty", [
    (0, 0.0), (-5, 0.0),            # on time
    (1, 1.0), (HOUR, 1.0),          # one second or one hour late: a started day, 10%
    (DAY, 1.0), (DAY + 1, 2.0),     # the second day starts after 24 hours
    (3 * DAY, 3.0),                 # three days: 30%
    (30 * DAY, 10.0),               # never more than the score
])
def test_late_penalty_is_ten_percent_per_started_day(seconds: float, penalty: float) -> None:
    assert LatePenaltyPerDay().late_submission_penalty("s1", 10.0, seconds) == penalty


def test_late_penalty_is_configurable_and_never_negative() -> None:
    config = Config()
    config.LatePenaltyPerDay.percent_per_day = 5.0
    config.LatePenaltyPerDay.max_percent = 20.0
    plugin = LatePenaltyPerDay(config=config)
    assert plugin.late_submission_penalty("s1", 8.0, HOUR) == pytest.approx(0.4)
    assert plugin.late_submission_penalty("s1", 8.0, 10 * DAY) == pytest.approx(1.6)
    assert plugin.late_submission_penalty("s1", 0.0, 10 * DAY) == 0.0


def test_nbgrader_config_wires_the_late_penalty() -> None:
    config = PyFileConfigLoader("nbgrader_config.py", path=str(ROOT)).load_config()
    assert config.AssignLatePenalties.plugin_class is LatePenaltyPerDay
    assert config.LatePenaltyPerDay.percent_per_day == 10.0
    assert config.LatePenaltyPerDay.max_percent == 100.0
    # the checks the grading relies on are still there
    assert "COURSE_VERSION" in (ROOT / "nbgrader_config.py").read_text()
    assert DecideGrades in config.Autograde.autograde_preprocessors


# ------------------------------------------------- extensions and exports on nbgrader's gradebook

def test_a_blank_gradebook_is_the_one_nbgrader_makes(tmp_path: Path) -> None:
    """The tests' new gradebooks are copies (tests.support.blank_gradebook): each is the same
    database, row for row, as the one nbgrader's Gradebook makes, its schema's version too."""
    made = tmp_path / "made" / "gradebook.db"
    made.parent.mkdir()
    with Gradebook(f"sqlite:///{made}", "chutes_edu"):
        pass
    copied = tmp_path / "copied"
    assert blank_gradebook(copied) == f"sqlite:///{copied / 'gradebook.db'}"

    def dump(path: Path) -> list[str]:
        with sqlite3.connect(path) as db:
            return list(db.iterdump())

    assert dump(copied / "gradebook.db") == dump(made)
    assert any("alembic_version" in line for line in dump(made))
    with pytest.raises(FileExistsError):
        blank_gradebook(copied)


def _course(tmp_path: Path) -> tuple[Path, str]:
    """A course folder whose gradebook has set 3 (generated: one notebook, two graded cells, due
    DUE) and set 1 (not generated), and three students; nothing submitted yet."""
    course = tmp_path / "course"
    for name in SETS:
        (course / "source" / name).mkdir(parents=True)
    shutil.copy(ROOT / "nbgrader_config.py", course)
    db = blank_gradebook(course)
    with Gradebook(db, "chutes_edu") as gb:
        gb.add_assignment(SET, duedate=DUE)
        gb.add_assignment(SETS[0], duedate=DUE)
        gb.add_notebook(SET, SET)
        gb.add_grade_cell("ex3_1-tests", SET, SET, max_score=4, cell_type="code")
        gb.add_grade_cell("ex3_2-written", SET, SET, max_score=6, cell_type="markdown")
        gb.add_student("s1", first_name="Ada", last_name="Lovelace", email="ada@example.edu",
                       lms_user_id="1001")
        gb.add_student("s2", first_name="Alan", last_name="Turing", email="alan@example.edu")
        gb.add_student("s3", first_name="Grace", last_name="Hopper", email="grace@example.edu")
    return course, db


def test_an_extension_before_the_submission_holds_through_autograde(tmp_path: Path) -> None:
    course, db = _course(tmp_path)
    table = _write(tmp_path / "e.csv", "student,set,due,hours\ns1,3,,48\n"
                   "s2,03_exercises_markov_chains,2026-02-07 13:00,\n")
    admin.grant_extensions(table, course, timezone="Europe/Berlin")
    with Gradebook(db, "chutes_edu") as gb:
        s1, s2 = gb.find_submission(SET, "s1"), gb.find_submission(SET, "s2")
        assert s1.extension == timedelta(hours=48)
        assert s2.extension == timedelta(hours=24)          # 13:00 in Berlin is 12:00 UTC
        # an unsubmitted record neither scores nor waits for hand grading
        assert s1.score == 0 and not any(g.needs_manual_grade for nb in s1.notebooks
                                         for g in nb.grades)
        # what autograde does with a submission's timestamp: update the record, extension kept
        gb.update_or_create_submission(SET, "s1", timestamp=DUE + timedelta(hours=47))
        s1 = gb.find_submission(SET, "s1")
        assert s1.extension == timedelta(hours=48) and s1.total_seconds_late == 0
        gb.update_or_create_submission(SET, "s1", timestamp=DUE + timedelta(hours=49))
        assert gb.find_submission(SET, "s1").total_seconds_late == HOUR
    # a second file replaces an extension (nbgrader's grant_extension does the same)
    admin.grant_extensions(_write(tmp_path / "f.csv", "student,set,hours\ns1,3,2\n"), course)
    with Gradebook(db, "chutes_edu") as gb:
        assert gb.find_submission(SET, "s1").extension == timedelta(hours=2)


def test_extensions_that_cannot_be_given_are_named_and_nothing_is_written(tmp_path: Path) -> None:
    course, db = _course(tmp_path)
    table = _write(tmp_path / "e.csv", "student,set,due,hours\ns1,3,,48\n"
                   "nobody,3,,24\ns2,1,,24\ns3,3,2026-02-06 11:00,\n")
    with pytest.raises(ValueError) as err:
        admin.grant_extensions(table, course, timezone="UTC")
    text = str(err.value)
    assert "3 extension(s) cannot be given, nothing granted" in text
    assert "nobody, 03_exercises_markov_chains: no student 'nobody'" in text
    assert "s2, 01_exercises_waiting_for_heads: 01_exercises_waiting_for_heads is not generated" \
        in text
    assert "s3, 03_exercises_markov_chains: the new due date 2026-02-06 11:00 UTC is not after" \
        in text
    with Gradebook(db, "chutes_edu") as gb:
        assert gb.find_assignment(SET).num_submissions == 0


def _graded(db: str) -> None:
    """s1 on time with 4 + 5 points; s2 one hour late with 4 + 6 (the written answer graded by
    hand after autograde, whose penalty, 10% of the 4 points it saw, is stored); s3 nothing."""
    with Gradebook(db, "chutes_edu") as gb:
        for student, late, written in [("s1", -HOUR, 5.0), ("s2", HOUR, 6.0)]:
            gb.add_submission(SET, student, timestamp=DUE + timedelta(seconds=late))
            gb.find_grade("ex3_1-tests", SET, SET, student).auto_score = 4.0
            grade = gb.find_grade("ex3_2-written", SET, SET, student)
            grade.manual_score, grade.needs_manual_grade = written, False
            notebook = gb.find_submission_notebook(SET, SET, student)
            notebook.late_submission_penalty = 0.4 if late > 0 else None
        gb.db.commit()


def _exported(plugin_class: type, db: str, to: Path, config: Config | None = None) -> list[list[str]]:
    plugin = plugin_class(config=config or Config())
    plugin.to = str(to)
    with Gradebook(db, "chutes_edu") as gb:
        plugin.export(gb)
    with to.open(encoding="utf-8", newline="") as fh:
        return list(csv.reader(fh))


def _late_config() -> Config:
    config = Config()
    config.AssignLatePenalties.plugin_class = LatePenaltyPerDay
    return config


def test_canvas_export_has_canvas_columns_points_possible_and_one_column_per_set(
        tmp_path: Path) -> None:
    _, db = _course(tmp_path)
    _graded(db)
    rows = _exported(CanvasExport, db, tmp_path / "canvas.csv", _late_config())
    # The header of Canvas's own gradebook export, which its import reads (chutes_teacher.gradebook)
    assert CANVAS_COLUMNS == ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
    assert rows[0] == [*CANVAS_COLUMNS, SET]
    assert rows[1] == ["Points Possible", "", "", "", "", "10"]
    # sorted by last name; the late student's penalty is 10% of the final 10 points, not the
    # 0.4 autograde stored; a student who submitted nothing is blank (missing is not 0)
    assert rows[2:] == [["Hopper, Grace", "", "s3", "", "", ""],
                        ["Lovelace, Ada", "1001", "s1", "", "", "9"],
                        ["Turing, Alan", "", "s2", "", "", "9"]]


def test_lms_columns_per_question_only_as_an_option_and_never_with_the_set_total(
        tmp_path: Path) -> None:
    """Per-question columns replace the set's column (an LMS adds up every column it imports):
    the questions plus the late-penalty column add up to the set's grade."""
    _, db = _course(tmp_path)
    _graded(db)
    config = _late_config()
    config.CanvasExport.questions = True
    rows = _exported(CanvasExport, db, tmp_path / "canvas.csv", config)
    assert rows[0] == [*CANVAS_COLUMNS, f"{SET} 3.1", f"{SET} 3.2 written", f"{SET} late penalty"]
    assert SET not in rows[0]
    assert rows[1] == ["Points Possible", "", "", "", "", "4", "6", "0"]
    assert [row[5:] for row in rows[2:]] == [["", "", ""], ["4", "5", "0"], ["4", "6", "-1"]]
    per_set = _exported(CanvasExport, db, tmp_path / "per_set.csv", _late_config())
    for detailed, total in zip(rows[3:], per_set[3:], strict=True):
        assert sum(float(x) for x in detailed[5:]) == float(total[5])
    # without a late submission there is no penalty column
    config.CanvasExport.student = ["s1", "s3"]
    assert _exported(CanvasExport, db, tmp_path / "b.csv", config)[0][-1] == f"{SET} 3.2 written"


def test_moodle_export_has_an_identifier_column_and_one_per_grade_item(tmp_path: Path) -> None:
    _, db = _course(tmp_path)
    _graded(db)
    rows = _exported(MoodleExport, db, tmp_path / "moodle.csv", _late_config())
    assert MOODLE_COLUMNS == ("First name", "Last name", "ID number", "Email address")
    assert rows == [[*MOODLE_COLUMNS, SET],
                    ["Grace", "Hopper", "s3", "grace@example.edu", ""],
                    ["Ada", "Lovelace", "s1", "ada@example.edu", "9"],
                    ["Alan", "Turing", "s2", "alan@example.edu", "9"]]


def test_penalty_rounding_is_one_rule_to_the_hundredth_halves_up() -> None:
    assert admin.penalty_points(8.05, 10) == 0.81          # binary floats would give 0.80
    assert admin.penalty_points(9.0, 10) == 0.9
    assert admin.penalty_points(0.125, 100) == 0.13
    assert admin.penalty_points(7.0, 0) == 0.0
    plugin = LatePenaltyPerDay()
    for cents in range(0, 2001, 7):                         # every score with two decimals
        score = cents / 100
        for days in range(1, 12):
            penalty = plugin.late_submission_penalty("s1", score, days * DAY)
            assert 0 <= penalty <= score
            assert penalty == round(penalty, 2)             # at most two decimals, so the score
            final = score - penalty                         # after it prints the same everywhere
            assert abs(final - round(final, 2)) < 1e-9


def test_one_late_penalty_in_grades_csv_canvas_moodle_and_the_gradebook(tmp_path: Path) -> None:
    course, db = _course(tmp_path)
    with Gradebook(db, "chutes_edu") as gb:
        gb.find_grade_cell("ex3_1-tests", SET, SET).max_score = 8
        gb.find_grade_cell("ex3_2-written", SET, SET).max_score = 2
        gb.db.commit()
    with Gradebook(db, "chutes_edu") as gb:
        gb.add_submission(SET, "s2", timestamp=DUE + timedelta(hours=20))
        gb.find_grade("ex3_1-tests", SET, SET, "s2").auto_score = 8.0
        grade = gb.find_grade("ex3_2-written", SET, SET, "s2")
        grade.manual_score, grade.needs_manual_grade = 1.0, False
        gb.find_submission_notebook(SET, SET, "s2").late_submission_penalty = 0.8
        gb.db.commit()
    config = _late_config()
    config.ExportPlugin.student = ["s2"]
    grades = _exported(admin.GradesCsvExport, db, tmp_path / "grades.csv", config)
    assert grades[0] == list(admin.GradesCsvExport.COLUMNS)
    row = dict(zip(grades[0], grades[1], strict=True))
    assert (row["raw_score"], row["late_submission_penalty"], row["score"]) == ("9", "0.9", "8.1")
    assert _exported(CanvasExport, db, tmp_path / "c.csv", config)[2][-1] == "8.1"
    assert _exported(MoodleExport, db, tmp_path / "m.csv", config)[1][-1] == "8.1"
    with Gradebook(db, "chutes_edu") as gb:       # what formgrader and the feedback read now
        assert gb.find_submission(SET, "s2").late_submission_penalty == pytest.approx(0.9)


def test_sets_nobody_handed_in_are_left_out_unless_asked_for(tmp_path: Path) -> None:
    _, db = _course(tmp_path)
    _graded(db)
    with Gradebook(db, "chutes_edu") as gb:       # an extension's empty record is no submission
        gb.add_submission(SETS[0], "s1")
        gb.db.commit()
    assert SETS[0] not in _exported(MoodleExport, db, tmp_path / "a.csv")[0]
    assert {row[0] for row in _exported(admin.GradesCsvExport, db, tmp_path / "g.csv")[1:]} \
        == {SET}
    config = Config()
    config.ExportPlugin.assignment = [SETS[0]]
    assert _exported(MoodleExport, db, tmp_path / "b.csv", config)[0] == [*MOODLE_COLUMNS,
                                                                         SETS[0]]
    assert {row[0] for row in _exported(admin.GradesCsvExport, db, tmp_path / "h.csv",
                                        config)[1:]} == {SETS[0]}


def _hand_in(course: Path, step: str, student: str, when: str) -> None:
    folder = course / step / student / SET
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "timestamp.txt").write_text(f"{when}.000000 UTC")


def test_a_strict_export_refuses_grades_not_of_the_work_handed_in(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Attack: a resubmission whose autograde failed (nbgrader deletes its autograded copy and
    leaves the old grades), one collected again after its autograde, one never autograded.
    Without strict they are left blank instead (tests/test_export_resilience.py)."""
    course, db = _course(tmp_path)
    _graded(db)
    config = _late_config()
    config.CourseDirectory.root = str(course)
    config.ExportPlugin.strict = True
    _hand_in(course, "submitted", "s1", "2026-02-06 11:00:00")
    _hand_in(course, "autograded", "s1", "2026-02-06 11:00:00")
    _exported(CanvasExport, db, tmp_path / "ok.csv", config)          # up to date: exported
    _hand_in(course, "submitted", "s2", "2026-02-06 13:00:00")        # s2: autograde failed
    _hand_in(course, "submitted", "s3", "2026-02-06 10:00:00")        # s3: never autograded
    _hand_in(course, "submitted", "s1", "2026-02-06 11:30:00")        # s1: collected again
    for plugin in (CanvasExport, MoodleExport, admin.GradesCsvExport):
        caplog.clear()
        with pytest.raises(SystemExit) as stop:
            _exported(plugin, db, tmp_path / f"{plugin.__name__}.csv", config)
        assert stop.value.code == 1 and not (tmp_path / f"{plugin.__name__}.csv").exists()
        text = caplog.text
        assert "nothing exported" in text and "Traceback" not in text
        assert f"s2, {SET}: its latest autograde failed" in text
        assert f"s3, {SET}: it is not autograded yet" in text
        assert f"s1, {SET}: it was collected again after its autograde" in text
    config.ExportPlugin.student = ["s1"]       # the teacher may leave the others out
    _hand_in(course, "autograded", "s1", "2026-02-06 11:30:00")
    assert _exported(CanvasExport, db, tmp_path / "s1.csv", config)[2][2] == "s1"


def _written_cell(grade_id: str, points: int, source: str = "my answer") -> Any:
    return nbformat.v4.new_markdown_cell(source, metadata={"nbgrader": {
        "schema_version": 3, "solution": True, "grade": True, "locked": False, "task": False,
        "grade_id": grade_id, "points": points}})


def test_a_hand_grade_stays_graded_through_a_re_autograde(tmp_path: Path) -> None:
    """What autograde --force does to a written answer graded by hand in formgrader, with
    nbgrader's SaveAutoGrades (it reopens it: the attack) and with the course's step."""
    from nbgrader.preprocessors import SaveAutoGrades

    _, db = _course(tmp_path)
    with Gradebook(db, "chutes_edu") as gb:
        gb.add_grade_cell("ex3_3-written", SET, SET, max_score=2, cell_type="markdown")
        for cell in ("ex3_2-written", "ex3_3-written"):      # written answers take comments
            gb.add_solution_cell(cell, SET, SET)
        gb.add_submission(SET, "s1", timestamp=DUE)
        graded = gb.find_grade("ex3_2-written", SET, SET, "s1")
        graded.manual_score, graded.needs_manual_grade = 5.0, False
        gb.find_comment("ex3_2-written", SET, SET, "s1").manual_comment = "clear argument"
        gb.db.commit()
    nb = nbformat.v4.new_notebook()
    nb.cells = [_written_cell("ex3_2-written", 6), _written_cell("ex3_3-written", 2)]
    resources = {"nbgrader": {"notebook": SET, "assignment": SET, "student": "s1",
                              "db_url": db}}

    def state() -> list[tuple[float | None, bool, str | None]]:
        with Gradebook(db, "chutes_edu") as gb:
            out = []
            for cell in ("ex3_2-written", "ex3_3-written"):
                grade = gb.find_grade(cell, SET, SET, "s1")
                comment = gb.find_comment(cell, SET, SET, "s1")
                out.append((grade.manual_score, grade.needs_manual_grade, comment.manual_comment))
            return out

    before = state()
    assert before == [(5.0, False, "clear argument"), (None, True, None)]
    admin.SaveAutoGradesKeepingHandGrades().preprocess(nbformat.from_dict(nb), dict(resources))
    assert state() == before                 # graded stays graded, ungraded stays ungraded
    SaveAutoGrades().preprocess(nbformat.from_dict(nb), dict(resources))
    assert state()[0] == (5.0, True, "clear argument")     # nbgrader's own step reopens it


def test_nbgrader_config_uses_the_course_steps_for_feedback_export_and_re_autograde() -> None:
    from nbgrader.preprocessors import AssignLatePenalties, GetGrades, SaveAutoGrades

    config = PyFileConfigLoader("nbgrader_config.py", path=str(ROOT)).load_config()
    steps = config.Autograde.autograde_preprocessors
    assert admin.SaveAutoGradesKeepingHandGrades in steps and SaveAutoGrades not in steps
    feedback = config.GenerateFeedback.preprocessors
    assert feedback.index(AssignLatePenalties) < feedback.index(GetGrades)
    assert config.ExportApp.plugin_class is admin.GradesCsvExport


# ------------------------------------------------------------------------ the real commands, slow

def _env() -> dict[str, str]:
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
            "OPENBLAS_NUM_THREADS": "1"}


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


def _tiny_notebook() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    meta = {"schema_version": 3, "task": False}
    nb.cells = [
        nbformat.v4.new_code_cell("### BEGIN SOLUTION\nx = 1\n### END SOLUTION", metadata={
            "nbgrader": {**meta, "solution": True, "grade": False, "locked": False,
                         "grade_id": "ex1_1-answer"}}),
        nbformat.v4.new_code_cell("assert x == 1", metadata={
            "nbgrader": {**meta, "solution": False, "grade": True, "locked": True,
                         "grade_id": "ex1_1-tests", "points": 10}}),
    ]
    return nb


@pytest.mark.slow
def test_roster_due_date_extension_autograde_and_canvas_export(tmp_path: Path) -> None:
    """A one-cell set with the course's nbgrader_config.py: three students hand in right answers,
    one an hour late (10% off), one two days late within a three-day extension (nothing off),
    one three days late (30% off)."""
    course = tmp_path / "course"
    (course / "source" / "tiny").mkdir(parents=True)
    shutil.copy(ROOT / "nbgrader_config.py", course)
    blank_gradebook(course)
    nbformat.write(_tiny_notebook(), course / "source" / "tiny" / "tiny.ipynb")
    _run([str(BIN / "nbgrader"), "generate_assignment", "tiny"], course)
    cli = [sys.executable, "-m", "chutes_teacher.gradebook"]
    _write(tmp_path / "roster.csv", "id,name,email\ns1,Ada Lovelace,ada@example.edu\n"
           's2,"Turing, Alan",alan@example.edu\ns3,Grace Hopper,grace@example.edu\n')
    assert "3 students imported" in _run([*cli, "roster", str(tmp_path / "roster.csv")],
                                          course).stdout
    _write(tmp_path / "due.csv", "set,due\ntiny,2026-02-06 13:00\n")
    _run([*cli, "schedule", str(tmp_path / "due.csv"), "--timezone", "Europe/Berlin"], course)
    _write(tmp_path / "ext.csv", "student,set,hours\ns2,tiny,72\n")
    _run([*cli, "extensions", str(tmp_path / "ext.csv")], course)
    bad = subprocess.run([*cli, "extensions", str(tmp_path / "roster.csv")], cwd=course,
                         env=_env(), capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "needs the columns student, set" in bad.stderr

    release = nbformat.read(course / "release" / "tiny" / "tiny.ipynb", as_version=4)
    release.cells[0].source = "x = 1"
    for student, handed_in in [("s1", "2026-02-06 13:00:00"), ("s2", "2026-02-08 12:00:00"),
                               ("s3", "2026-02-09 11:00:00")]:
        folder = course / "submitted" / student / "tiny"
        folder.mkdir(parents=True)
        nbformat.write(release, folder / "tiny.ipynb")
        (folder / "timestamp.txt").write_text(f"{handed_in}.000000 UTC")
    log = _run([str(BIN / "nbgrader"), "autograde", "tiny"], course).stderr
    assert "Late submission penalty: 1.0" in log and "Late submission penalty: 3.0" in log
    _run([str(BIN / "nbgrader"), "export", "--exporter", "chutes_teacher.gradebook.CanvasExport",
          "--to", "canvas.csv"], course)
    with (course / "canvas.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == [*CANVAS_COLUMNS, "tiny"]
    assert rows[1] == ["Points Possible", "", "", "", "", "10"]
    assert {row[2]: row[-1] for row in rows[2:]} == {"s1": "9", "s2": "10", "s3": "7"}


@pytest.mark.slow
def test_make_teacher_sets_up_a_course_folder_and_runs_twice(tmp_path: Path) -> None:
    """`make teacher` with the test's own Python as the teacher's environment (the stamp stands in
    for the installation): the folder, every set generated, the roster and the due dates; a
    second run changes nothing and says so."""
    stamp = tmp_path / "installed"
    stamp.touch()
    course = tmp_path / "grading"
    _write(tmp_path / "roster.csv", "id,first_name,last_name,email\n"
           "s1,Ada,Lovelace,ada@example.edu\ns2,Alan,Turing,alan@example.edu\n")
    _write(tmp_path / "due.toml", '[due]\n"1" = 2026-02-06T23:59:00\n"12" = 2026-05-01T23:59:00\n')
    make = ["make", "--no-print-directory", "teacher", f"TEACHER_VENV={BIN.parent}",
            f"TEACHER_STAMP={stamp}", f"COURSE_DIR={course}", f"ROSTER={tmp_path / 'roster.csv'}",
            f"SCHEDULE={tmp_path / 'due.toml'}", "TIMEZONE=Europe/Berlin"]
    first = _run(make, ROOT).stdout
    sets = sorted(p.name for p in (ROOT / "solutions").glob("*.ipynb"))
    assert len(sets) == len({n.split(".")[0] for n in exercise_ids()}) and \
        f"generated {len(sets)} set(s)" in first, first
    assert "imported 2 students" in first and "set 2 due dates" in first
    assert "Next, in" in first and "nbgrader release_assignment" in first
    assert "set course_id" not in first and "the course id is 'chutes_edu'" in first
    # next steps: the batch autograde, not plain `nbgrader autograde` (issue 48.8)
    assert "make autograde SET=01_exercises_waiting_for_heads" in first
    assert "nbgrader autograde" not in first, first
    # TIMEZONE is the zone students see (issue 48.3): the course folder's config says it, and
    # each release names it
    assert "set the time zone of the due dates students see to Europe/Berlin" in first
    text = (course / "nbgrader_config.py").read_text()
    assert text == (ROOT / "nbgrader_config.py").read_text().replace(
        'c.DueDateInRelease.timezone = "UTC"', 'c.DueDateInRelease.timezone = "Europe/Berlin"')
    release = nbformat.read(course / "release" / SETS[0] / f"{SETS[0]}.ipynb", as_version=4)
    assert release.cells[0].source.startswith(
        "**Due: Friday 6 February 2026, 23:59** (Europe/Berlin time).")
    for name in sets:
        name = name.replace("_solutions_", "_exercises_").removesuffix(".ipynb")
        assert (course / "source" / name / f"{name}.ipynb").is_file()
        assert (course / "release" / name / f"{name}.ipynb").is_file()
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", "chutes_edu") as gb:
        assert [s.id for s in gb.students] == ["s1", "s2"]
        assert gb.find_assignment("01_exercises_waiting_for_heads").duedate == \
            datetime(2026, 2, 6, 22, 59)
        assert gb.find_assignment("12_exercises_design_a_board").duedate == \
            datetime(2026, 5, 1, 21, 59)
        assert len(gb.assignments) == len(sets)
    config = course / "nbgrader_config.py"
    config.write_text(config.read_text() + "# the teacher's own edit\n")
    second = _run(make[:-3], ROOT).stdout
    assert "copied" not in second and "generated 0 set(s)" in second, second
    assert "kept nbgrader_config.py" in second


def test_the_release_says_when_the_set_is_due_in_the_classs_time_zone(tmp_path: Path) -> None:
    _, db = _course(tmp_path)
    assert admin.due_line(DUE, "Europe/Berlin").startswith(
        "**Due: Friday 6 February 2026, 13:00** (Europe/Berlin time).")
    assert admin.due_line(datetime(2026, 7, 1, 21, 30), "America/New_York").startswith(
        "**Due: Wednesday 1 July 2026, 17:30** (America/New_York time).")   # summer time
    # the course's configuration, as generate_assignment calls its steps
    config = PyFileConfigLoader("nbgrader_config.py", path=str(ROOT)).load_config()
    assert admin.DueDateInRelease in config.GenerateAssignment.preprocessors
    config.DueDateInRelease.timezone = "Europe/Berlin"
    step = admin.DueDateInRelease(config=config)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Set 3")])
    released, _ = step(nb, {"nbgrader": {"db_url": db, "assignment": SET}})
    assert [c.source[:38] for c in released.cells] == ["**Due: Friday 6 February 2026, 13:00**",
                                                       "# Set 3"]
    with Gradebook(db, "chutes_edu") as gb:          # a set without a due date: no line
        gb.add_assignment("undated")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Set 4")])
    assert len(step(nb, {"nbgrader": {"db_url": db, "assignment": "undated"}})[0].cells) == 1


def test_make_teacher_asks_for_a_course_id_only_when_there_is_none(tmp_path: Path) -> None:
    course = tmp_path / "course"
    course.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", course)
    assert admin._course_id_step(course).startswith("the course id is 'chutes_edu'")
    config = course / "nbgrader_config.py"
    config.write_text(config.read_text() + "\nc.CourseDirectory.course_id = ''\n")
    assert admin._course_id_step(course).startswith("set course_id")


def test_teacher_logs_have_no_empty_lines_and_no_debug_flood() -> None:
    """In a fresh Python (the record factory is global): nbgrader's dedented warning block (the
    one collect writes for a submission owned by someone else) and a DEBUG record from an
    application whose log_level is INFO."""
    code = '''if True:
        import logging, sys
        from textwrap import dedent
        from traitlets.config import Application
        app = Application.instance(log_level="INFO")
        handler = logging.StreamHandler(sys.stdout)       # what formgrader's pop-up captures
        handler.setFormatter(logging.Formatter("[%(levelname)s] %(message)s"))
        app.log.addHandler(handler)
        from chutes_teacher.gradebook import tidy_teacher_logs
        tidy_teacher_logs()
        tidy_teacher_logs()
        app.log.warning(dedent("""
            {} claims to be submitted by {} but is owned by {}; cheating attempt?
            you may disable this warning by unsetting the option CollectApp.check_owner
            """).format("inbound/s1+tiny", "s1", "s2"))
        app.log.debug("msg_type: status")
        app.log.info("done")
        '''
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    lines = done.stdout.splitlines()
    assert lines == ["[WARNING] inbound/s1+tiny claims to be submitted by s1 but is owned by s2; "
                     "cheating attempt?",
                     "you may disable this warning by unsetting the option "
                     "CollectApp.check_owner",
                     "[INFO] done"], lines


# ------------------------------------------------------ a teacher's round with real commands, slow

STUDENT = "zq7blind"     # an id no notebook, library or template contains by chance

# What formgrader's "autograde" button does (nbgrader's formgrader BaseHandler.api and
# NbGraderAPI.autograde), in a Jupyter server process: prints the log its pop-up shows.
FORMGRADER_AUTOGRADE = """
import sys
from jupyter_server.serverapp import ServerApp
from nbgrader.apps.api import NbGraderAPI
from nbgrader.coursedir import CourseDirectory
from nbgrader.server_extensions.formgrader.formgrader import FormgradeExtension

server = ServerApp.instance()
formgrader = FormgradeExtension(parent=server)
formgrader.log = server.log
formgrader.initialize([])
coursedir = CourseDirectory(parent=formgrader)
level = server.log.level
coursedir.parent.load_config_file()
api = NbGraderAPI(coursedir, None, parent=coursedir.parent)
api.log_level = level
result = api.autograde(sys.argv[1], sys.argv[2], force=True, create=True)
print(result.get("log", ""))
print("SUCCESS" if result["success"] else result.get("error"))
"""


def _numbers_notebook() -> nbformat.NotebookNode:
    """The tiny set with the numbers line at its top (the student's own, under a course secret),
    8 points autograded and a written answer worth 2 graded by hand."""
    nb = _tiny_notebook()
    meta = {"schema_version": 3, "task": False}
    nb.cells[1].metadata.nbgrader["points"] = 8
    nb.cells.insert(0, nbformat.v4.new_code_cell(
        "from chutes_edu.variants import my_numbers\n\n"
        "n = my_numbers(3, turns=(20, list(range(12, 31))))\nn", metadata={"nbgrader": {
            **meta, "solution": False, "grade": False, "locked": True, "grade_id": "numbers"}}))
    nb.cells.append(nbformat.v4.new_markdown_cell("YOUR ANSWER HERE", metadata={"nbgrader": {
        **meta, "solution": True, "grade": True, "locked": False, "grade_id": "ex1_2-written",
        "points": 2}}))
    return nb


@pytest.mark.slow
def test_a_teachers_round_blind_grading_one_penalty_hand_grades_kept_stale_grades_refused(
        tmp_path: Path) -> None:
    """Release, submit (20 hours late), collect, autograde, grade the written answer by hand,
    autograde again from formgrader, feedback, export; then a resubmission whose autograde
    fails. Each step is checked against what the teacher's issue found wrong."""
    course, exchange, home = tmp_path / "course", tmp_path / "exchange", tmp_path / "home"
    for name in ("tiny", "never"):
        (course / "source" / name).mkdir(parents=True)
    home.mkdir()
    exchange.mkdir()
    _write(course / "nbgrader_config.py", (ROOT / "nbgrader_config.py").read_text()
           + f"\nc.Exchange.root = {str(exchange)!r}\n")
    blank_gradebook(course)
    nbformat.write(_numbers_notebook(), course / "source" / "tiny" / "tiny.ipynb")
    nbformat.write(_tiny_notebook(), course / "source" / "never" / "never.ipynb")
    nbgrader = str(BIN / "nbgrader")
    secret = {"CHUTES_COURSE_SECRET": "a class with a variant per student"}

    def run(args: list[str], cwd: Path = course, ok: bool = True,
            **env: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(args, cwd=cwd, env={**_env(), **secret, **env},
                              capture_output=True, text=True, timeout=600)
        assert (done.returncode == 0) == ok, done.stdout[-3000:] + done.stderr[-3000:]
        return done

    _write(tmp_path / "roster.csv", f"id,name,email\n{STUDENT},Ada Lovelace,ada@example.edu\n")
    run([sys.executable, "-m", "chutes_teacher.gradebook", "roster", str(tmp_path / "roster.csv")])
    due = datetime.now(UTC) - timedelta(hours=20)                  # one started day late: 10%
    _write(tmp_path / "due.csv", f"set,due\ntiny,{due.isoformat()}\nnever,{due.isoformat()}\n")
    run([sys.executable, "-m", "chutes_teacher.gradebook", "schedule", str(tmp_path / "due.csv")])
    run([nbgrader, "generate_assignment", "tiny"])
    run([nbgrader, "generate_assignment", "never"])                  # generated, never released
    run([nbgrader, "release_assignment", "tiny"])
    release = nbformat.read(course / "release" / "tiny" / "tiny.ipynb", as_version=4)
    assert release.cells[0].source.startswith(f"**Due: {admin.due_line(due)[7:30]}")

    run([nbgrader, "fetch_assignment", "tiny", "--course", "chutes_edu",
         f"--Exchange.root={exchange}"], cwd=home)
    handed = nbformat.read(home / "tiny" / "tiny.ipynb", as_version=4)
    handed.cells[2].source = "x = 1"                      # after the due date and the numbers
    handed.cells[4].source = "Because the chain forgets."
    nbformat.write(handed, home / "tiny" / "tiny.ipynb")
    run([nbgrader, "submit", "tiny", "--course", "chutes_edu", f"--Exchange.root={exchange}"],
        cwd=home)
    # nbgrader submits under this process's user name: the submission becomes the student's
    (handed_in,) = (exchange / "chutes_edu" / "inbound").iterdir()
    handed_in.rename(handed_in.with_name(STUDENT + "+" + handed_in.name.split("+", 1)[1]))

    # collect: the submission is owned by this test's user, not the student: nbgrader warns
    # (the protection stays), on lines with words on them
    log = run([nbgrader, "collect", "tiny"]).stderr
    assert f"claims to be submitted by {STUDENT}" in log, log
    assert not [line for line in log.splitlines() if re.fullmatch(r".*WARNING\]\s*", line)], log

    log = run([nbgrader, "autograde", "tiny"]).stderr       # the first: nbgrader makes records
    assert "SAWarning" not in log and "Traceback" not in log, log
    autograded = course / "autograded" / STUDENT / "tiny" / "tiny.ipynb"
    assert "your own numbers" in autograded.read_text()
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", "chutes_edu") as gb:
        assert gb.find_submission("tiny", STUDENT).late_submission_penalty == pytest.approx(0.8)
        grade = gb.find_grade("ex1_2-written", "tiny", "tiny", STUDENT)   # formgrader's save
        grade.manual_score, grade.needs_manual_grade = 1.0, False
        gb.find_comment("ex1_2-written", "tiny", "tiny", STUDENT).manual_comment = "Why?"
        gb.db.commit()

    # formgrader's autograde button: no DEBUG lines in its pop-up; the hand grade stays graded
    popup = run([sys.executable, "-c", FORMGRADER_AUTOGRADE, "tiny", STUDENT]).stdout
    assert popup.rstrip().endswith("SUCCESS") and "DEBUG" not in popup, popup
    assert len(popup.splitlines()) < 40, popup
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", "chutes_edu") as gb:
        grade = gb.find_grade("ex1_2-written", "tiny", "tiny", STUDENT)
        assert (grade.manual_score, grade.needs_manual_grade) == (1.0, False)
        assert gb.find_comment("ex1_2-written", "tiny", "tiny", STUDENT).manual_comment == "Why?"

    # one penalty: 10% of the final 9 points, in the feedback, grades.csv, Canvas and Moodle
    run([nbgrader, "generate_feedback", "tiny"])
    feedback = (course / "feedback" / STUDENT / "tiny" / "tiny.html").read_text()
    assert "Score: 8.1 / 10.0" in feedback and "Late submission penalty (Score: -0.9)" in feedback
    for text in (autograded.read_text(), feedback):                # blind grading
        assert STUDENT not in text
    run([nbgrader, "export"])
    with (course / "grades.csv").open(encoding="utf-8", newline="") as fh:
        grades = list(csv.DictReader(fh))
    assert [(g["assignment"], g["late_submission_penalty"], g["score"]) for g in grades] == [
        ("tiny", "0.9", "8.1")]                                      # "never" is left out
    for exporter, column in [("CanvasExport", 2), ("MoodleExport", 1)]:
        run([nbgrader, "export", "--exporter", f"chutes_teacher.gradebook.{exporter}", "--to",
             f"{exporter}.csv"])
        with (course / f"{exporter}.csv").open(encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh))
        assert rows[0][-1] == "tiny" and rows[column][-1] == "8.1", rows

    # a resubmission whose autograde fails: the strict export names it and writes nothing
    submitted = course / "submitted" / STUDENT / "tiny"
    (submitted / "tiny.ipynb").write_text("{ not a notebook")
    (submitted / "timestamp.txt").write_text(f"{datetime.now(UTC):%Y-%m-%d %H:%M:%S.%f} UTC")
    run([nbgrader, "autograde", "tiny"], ok=False)
    assert not autograded.exists()
    (course / "grades.csv").unlink()
    refused = run([nbgrader, "export", "--GradesCsvExport.strict=True"], ok=False).stderr
    assert f"{STUDENT}, tiny: its latest autograde failed" in refused, refused
    assert "Traceback" not in refused and not (course / "grades.csv").exists()


# ------------------------------------------------------------------------------ issue 48, 3 and 6

def test_the_class_time_zone_goes_into_the_course_folders_config(tmp_path: Path) -> None:
    course = tmp_path / "course"
    course.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", course)
    assert admin.set_class_timezone(course, "Europe/Berlin") == [
        "set the time zone of the due dates students see to Europe/Berlin (nbgrader_config.py)"]
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    assert config.DueDateInRelease.timezone == "Europe/Berlin"
    assert admin.set_class_timezone(course, "Europe/Berlin") == []          # said once
    with pytest.raises(ValueError, match="unknown time zone 'Mars/Olympus'"):
        admin.set_class_timezone(course, "Mars/Olympus")
    (course / "release" / SET).mkdir(parents=True)       # a set generated with the old zone
    done = admin.set_class_timezone(course, "America/New_York")
    assert "keep their old due-date line" in done[1] and SET in done[1]
    assert (course / "nbgrader_config.py").read_text().count("c.DueDateInRelease.timezone") == 1


def test_sets_not_due_yet_are_left_out_and_missing_is_blank_not_zero(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Attack on an LMS import: a set due next year exported as 0 for everyone who has not handed
    in yet, and a missing submission that reads as a 0."""
    _, db = _course(tmp_path)
    _graded(db)
    with Gradebook(db, "chutes_edu") as gb:
        gb.update_or_create_assignment(SETS[0], duedate=datetime.now(UTC).replace(tzinfo=None)
                                       + timedelta(days=365))
        gb.add_notebook(SETS[0], SETS[0])
        gb.add_submission(SETS[0], "s1", timestamp=DUE)          # an early bird
        gb.db.commit()
    for plugin in (admin.GradesCsvExport, CanvasExport, MoodleExport):
        caplog.clear()
        rows = _exported(plugin, db, tmp_path / f"{plugin.__name__}.csv", _late_config())
        assert not any(SETS[0] in cell for row in rows for cell in row), rows
        assert f"Left out, as they are not due yet: {SETS[0]}" in caplog.text
        assert "1 submission(s) missing (nothing handed in): left blank" in caplog.text
    grades = _exported(admin.GradesCsvExport, db, tmp_path / "g.csv", _late_config())
    s3 = dict(zip(grades[0], next(r for r in grades if r[3] == "s3"), strict=True))
    assert (s3["raw_score"], s3["score"], s3["max_score"]) == ("", "", "10")
    config = _late_config()
    config.ExportPlugin.assignment = [SETS[0]]                  # asked for by name: exported
    assert SETS[0] in _exported(MoodleExport, db, tmp_path / "asked.csv", config)[0]


def test_every_format_warns_about_answers_still_to_grade_by_hand(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    _, db = _course(tmp_path)
    _graded(db)
    with Gradebook(db, "chutes_edu") as gb:
        grade = gb.find_grade("ex3_2-written", SET, SET, "s1")
        grade.needs_manual_grade = True
        gb.db.commit()
    said = []
    for plugin in (admin.GradesCsvExport, CanvasExport, MoodleExport):
        caplog.clear()
        _exported(plugin, db, tmp_path / f"{plugin.__name__}.csv", _late_config())
        said.append([r.getMessage() for r in caplog.records if "grade by hand" in r.getMessage()])
    assert said[0] and said[0] == said[1] == said[2], said       # the same words in each format


def test_lateness_in_words() -> None:
    from chutes_teacher.autograde import describe_late

    assert describe_late(0) == "on time"
    assert describe_late(59) == "late by 1 min"
    assert describe_late(3 * HOUR + 300) == "late by 3 h 5 min"
    assert describe_late(DAY + HOUR) == "late by 1 day 1 h"
    assert describe_late(3 * DAY) == "late by 3 days 0 h"
