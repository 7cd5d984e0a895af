"""Running a class with nbgrader: roster, due dates, extensions, late work and grades for the LMS.

The teacher's layer (it needs nbgrader, ``pip install -e ".[teacher]"``; ``chutes_edu`` itself never
imports it). Everything is stored in nbgrader's own gradebook, so formgrader, ``nbgrader autograde``
and ``nbgrader export`` see the same data:

- the **roster** (a CSV with ``id``, ``first_name``/``last_name`` or ``name``, ``email`` and
  optionally ``lms_user_id``) is checked here (every bad row is named) and imported by nbgrader's
  own ``nbgrader db student import``;
- the **due dates** (a CSV ``set,due`` or a TOML file, in a stated time zone) are imported by
  ``nbgrader db assignment import``, in UTC as nbgrader keeps them;
- **extensions** (a CSV ``student,set`` and either ``due`` or ``hours``) go into nbgrader's
  ``SubmittedAssignment.extension``, the field its lateness (``total_seconds_late``) already adds
  to the due date; nbgrader has no command for it, so this module writes it with nbgrader's API;
- **late work** costs what :class:`LatePenaltyPerDay` says (a ``LateSubmissionPlugin``, wired in
  the course's ``nbgrader_config.py``: 10% of the score per started day late, at most 100%, to
  the hundredth of a point, :func:`penalty_points`); autograde, the feedback and every export
  compute it with that one plugin from the score they see, and the feedback and exports store it
  (:func:`refresh_late_penalties`), so every place shows the final score's penalty;
- **grades** leave by CSV import: :class:`CanvasExport` and :class:`MoodleExport` are nbgrader
  export plugins, one column per set (or, as an option, per graded cell), in the shapes Canvas's
  and Moodle's grade imports read (``nbgrader export --exporter
  chutes_teacher.gradebook.CanvasExport``), and :class:`GradesCsvExport` writes ``grades.csv``. All
  three leave the cells of a submission whose grades cannot be trusted blank, name it and exit
  with status 3 (:func:`stale_submissions`; ``--GradesCsvExport.strict=True`` refuses instead),
  and leave out sets nobody handed in. There is no grade passback (LTI Assignment and Grade
  Services);
- **grading** steps for ``nbgrader_config.py``: :class:`SaveAutoGradesKeepingHandGrades` (a hand
  grade stays graded through a re-autograde), :class:`DueDateInRelease` (students see the due
  date), :func:`tidy_teacher_logs` (no empty warning lines, DEBUG floods or SQLAlchemy warnings).

The command line does the same from a terminal in the course folder (``make teacher`` runs
``setup``)::

    python -m chutes_teacher.gradebook setup --course ../chutes-course-grading --roster roster.csv
    python -m chutes_teacher.gradebook roster roster.csv
    python -m chutes_teacher.gradebook schedule schedule.toml
    python -m chutes_teacher.gradebook extensions extensions.csv --timezone Europe/Berlin

TEACHING.md ("Roster, due dates, extensions and late work", "Exporting grades") is the guide.
"""

from __future__ import annotations

import argparse
import csv
import filecmp
import json
import logging
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import tomllib
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from nbconvert.preprocessors import Preprocessor
from nbgrader.api import Gradebook, MissingEntry  # type: ignore[import-untyped]
from nbgrader.plugins import ExportPlugin, LateSubmissionPlugin  # type: ignore[import-untyped]
from nbgrader.preprocessors import SaveAutoGrades  # type: ignore[import-untyped]
from sqlalchemy.exc import SAWarning
from traitlets import Bool, Float, Unicode

__all__ = [
    "Student", "read_roster", "import_roster",
    "read_schedule", "import_schedule",
    "Extension", "read_extensions", "grant_extensions",
    "LatePenaltyPerDay", "penalty_points", "tidy_teacher_logs", "due_line", "DueDateInRelease",
    "SaveAutoGradesKeepingHandGrades",
    "ExportRefused", "EXIT_REFUSED", "EXIT_LEFT_BLANK", "stale_submissions",
    "refresh_late_penalties", "late_penalty", "submission_penalty", "format_points",
    "GradesCsvExport",
    "CanvasExport", "MoodleExport", "CANVAS_COLUMNS", "MOODLE_COLUMNS",
    "setup_course", "set_class_timezone", "main",
]

# ------------------------------------------------------------------------------------ the roster

_EMAIL = re.compile(r"^[^@\s,;<>]+@[^@\s,;<>]+\.[^@\s,;<>.]+$")
# nbgrader makes a folder per student id (submitted/<id>/...): no separators, spaces or dot-names.
_STUDENT_ID = re.compile(r"^[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]{0,127}$")


@dataclass(frozen=True)
class Student:
    """One row of the roster, as nbgrader's gradebook keeps a student."""

    id: str
    first_name: str
    last_name: str
    email: str
    lms_user_id: str = ""


def _open_csv(path: Path) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    """The header (lower-cased, stripped) and the non-blank rows of ``path``, with line numbers."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    # utf-8-sig: a spreadsheet's "CSV UTF-8" starts with a byte-order mark
    with path.open(encoding="utf-8-sig", newline="") as fh:
        reader = csv.reader(fh)
        try:
            header = [h.strip().lower() for h in next(reader)]
        except StopIteration:
            raise ValueError(f"{path}: the file is empty (it needs a header row)") from None
        rows = []
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            values = dict(zip(header, (cell.strip() for cell in row), strict=False))
            rows.append((reader.line_num, {h: values.get(h, "") for h in header}))
    return header, rows


def _split_name(name: str) -> tuple[str, str]:
    """``"Ada Lovelace"`` or ``"Lovelace, Ada"`` -> ``("Ada", "Lovelace")``."""
    if "," in name:
        last, first = (part.strip() for part in name.split(",", 1))
        return first, last
    first, _, last = name.rpartition(" ")
    return (first.strip(), last.strip()) if first else ("", name.strip())


def read_roster(path: str | Path) -> list[Student]:
    """Read and check a class roster.

    Parameters
    ----------
    path : str or pathlib.Path
        A UTF-8 CSV file with a header row: ``id`` (or ``student_id``), then either
        ``first_name`` and ``last_name`` or a single ``name`` (``"Ada Lovelace"`` or
        ``"Lovelace, Ada"``), then ``email``; ``lms_user_id`` (e.g. the Canvas user id) is
        optional. Other columns are ignored; blank lines are skipped.

    Returns
    -------
    list of Student
        In the file's order.

    Raises
    ------
    ValueError
        Naming every bad row by its line: a missing or unusable id (nbgrader makes a folder of
        it: letters, digits and ``_ . @ + -`` only), a duplicate id or e-mail address, a missing
        name, a missing or malformed e-mail address; or the missing columns.
    """
    path = Path(path)
    header, rows = _open_csv(path)
    id_column = next((c for c in ("id", "student_id") if c in header), None)
    missing = [] if id_column else ["id"]
    if not ({"first_name", "last_name"} <= set(header) or "name" in header):
        missing.append("first_name and last_name (or name)")
    if "email" not in header:
        missing.append("email")
    if missing:
        raise ValueError(f"{path}: the header {header} lacks the column(s) {', '.join(missing)}")
    assert id_column is not None
    students: list[Student] = []
    problems: list[str] = []
    seen_ids: dict[str, int] = {}
    seen_emails: dict[str, int] = {}
    for line, row in rows:
        sid, email = row[id_column], row["email"]
        if "first_name" in header and (row.get("first_name") or row.get("last_name")):
            first, last = row.get("first_name", ""), row.get("last_name", "")
        else:
            first, last = _split_name(row.get("name", ""))
        bad = []
        if not sid:
            bad.append("missing id")
        elif not _STUDENT_ID.match(sid):
            bad.append(f"id {sid!r} is not usable as nbgrader's folder name (letters, digits "
                       "and _ . @ + - only, at most 128, not starting with a dot)")
        elif sid in seen_ids:
            bad.append(f"duplicate id {sid!r} (first on line {seen_ids[sid]})")
        if not (first or last):
            bad.append("missing name")
        if not email:
            bad.append("missing e-mail address")
        elif not _EMAIL.match(email):
            bad.append(f"bad e-mail address {email!r}")
        elif email.lower() in seen_emails:
            bad.append(f"duplicate e-mail address {email!r} (first on line "
                       f"{seen_emails[email.lower()]})")
        if bad:
            problems.append(f"line {line}: {'; '.join(bad)}")
            continue
        seen_ids[sid] = line
        seen_emails[email.lower()] = line
        students.append(Student(sid, first, last, email, row.get("lms_user_id", "")))
    if problems:
        raise ValueError(f"{path}: {len(problems)} bad row(s), nothing imported:\n  "
                         + "\n  ".join(problems))
    if not students:
        raise ValueError(f"{path}: no students in the file")
    return students


def _nbgrader(args: Sequence[str], course: Path) -> subprocess.CompletedProcess[str]:
    """Run an ``nbgrader`` command in the course folder (with this Python's tools on PATH: nbgrader
    runs ``alembic``); fail with its log when it fails."""
    bin_dir = Path(sys.executable).parent
    exe = bin_dir / "nbgrader"
    command = [str(exe) if exe.exists() else "nbgrader", *args]
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "PYTHONUTF8": "1"}
    done = subprocess.run(command, cwd=course, env=env, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise RuntimeError(f"`nbgrader {' '.join(args)}` in {course} failed:\n"
                           + (done.stderr or done.stdout)[-3000:])
    return done


def import_roster(path: str | Path, course: str | Path = ".") -> list[Student]:
    """Check a roster (:func:`read_roster`) and import it into the course's nbgrader gradebook.

    The checked rows are written in the columns ``nbgrader db student import`` reads (``id``,
    ``first_name``, ``last_name``, ``email``, ``lms_user_id``) and nbgrader imports them: a
    student already in the gradebook is updated, nobody is removed.

    Parameters
    ----------
    path : str or pathlib.Path
        The roster (see :func:`read_roster`).
    course : str or pathlib.Path
        The nbgrader course folder (the one with ``nbgrader_config.py``).

    Returns
    -------
    list of Student
        The students imported.
    """
    students = read_roster(path)
    with tempfile.TemporaryDirectory() as tmp:
        normalized = Path(tmp, "students.csv")
        with normalized.open("w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(["id", "first_name", "last_name", "email", "lms_user_id"])
            for s in students:
                writer.writerow([s.id, s.first_name, s.last_name, s.email, s.lms_user_id])
        _nbgrader(["db", "student", "import", str(normalized)], Path(course))
    return students


# ------------------------------------------------------------------------------------- due dates

def _zone(timezone: str | None) -> ZoneInfo | None:
    if not timezone:
        return None
    try:
        return ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {timezone!r} (an IANA name such as "
                         "'Europe/Berlin', 'America/New_York' or 'UTC')") from None


def _when(value: Any, zone: ZoneInfo | None) -> datetime:
    """A due date in UTC, from an ISO date-time (with its own offset, or in ``zone``)."""
    if isinstance(value, datetime):
        moment = value
    else:
        text = str(value).strip()
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a date and time (write 2026-02-06 23:59)") from None
        if len(text) <= 10:                      # a date alone: the end of that day
            moment = moment.replace(hour=23, minute=59, second=59)
    if moment.tzinfo is None:
        if zone is None:
            raise ValueError(f"{value!s} has no time zone: give --timezone (or a timezone "
                             "column / key), or an offset such as +01:00")
        moment = moment.replace(tzinfo=zone)
    return moment.astimezone(UTC)


def _course_sets(course: Path) -> list[str]:
    """The assignments of a course folder: the folders of ``source/``."""
    return sorted(p.name for p in Path(course, "source").iterdir() if p.is_dir()) \
        if Path(course, "source").is_dir() else []


def _which_set(name: str, sets: Sequence[str]) -> str:
    """A set named in a file: its full name (``03_exercises_markov_chains``) or its number."""
    name = name.strip()
    if name in sets:
        return name
    if name.isdigit():
        found = [s for s in sets if s[:2].isdigit() and int(s[:2]) == int(name)]
        if len(found) == 1:
            return found[0]
    raise ValueError(f"unknown set {name!r} (the course's sets: {', '.join(sets) or 'none'})")


def read_schedule(path: str | Path, sets: Sequence[str],
                  timezone: str | None = None) -> dict[str, datetime]:
    """Read the due date of each set.

    Parameters
    ----------
    path : str or pathlib.Path
        Either a CSV file with the columns ``set`` and ``due`` (and optionally ``timezone``), e.g.
        ``03_exercises_markov_chains,2026-02-20 23:59``, or a TOML file::

            timezone = "Europe/Berlin"
            [due]
            "01_exercises_waiting_for_heads" = 2026-02-06T23:59:00
            "2" = "2026-02-13 23:59"

        A set is named in full or by its number; a date alone means 23:59:59 that day.
    sets : sequence of str
        The course's assignments (the folders of its ``source/``).
    timezone : str, optional
        The IANA time zone of the dates without an offset (a file's own ``timezone`` wins).

    Returns
    -------
    dict of str to datetime.datetime
        Each set's due date, timezone-aware, in UTC.

    Raises
    ------
    ValueError
        Naming every bad entry: an unknown or repeated set, a date that is not one, a date
        without a time zone.
    """
    path = Path(path)
    entries: list[tuple[str, str, Any, str | None]] = []   # (where, set, due, timezone)
    if path.suffix.lower() == ".toml":
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as err:
            raise ValueError(f"{path}: {err}") from None
        due = data.get("due")
        if not isinstance(due, dict) or not due:
            raise ValueError(f"{path}: no [due] table (set = date and time)")
        file_zone = data.get("timezone", timezone)
        entries = [(f"[due] {key!r}", str(key), value, file_zone) for key, value in due.items()]
    else:
        header, rows = _open_csv(path)
        if not {"set", "due"} <= set(header):
            raise ValueError(f"{path}: the header {header} needs the columns set and due")
        entries = [(f"line {line}", row["set"], row["due"], row.get("timezone") or timezone)
                   for line, row in rows]
    out: dict[str, datetime] = {}
    problems = []
    for where, name, value, zone in entries:
        try:
            which = _which_set(name, sets)
            if which in out:
                raise ValueError(f"{which} has a due date already")
            out[which] = _when(value, _zone(zone))
        except ValueError as err:
            problems.append(f"{where}: {err}")
    if problems:
        raise ValueError(f"{path}: {len(problems)} bad entr(y/ies), nothing imported:\n  "
                         + "\n  ".join(problems))
    return out


def import_schedule(path: str | Path, course: str | Path = ".",
                    timezone: str | None = None) -> dict[str, datetime]:
    """Check a schedule (:func:`read_schedule`) and set the due dates in the gradebook.

    nbgrader's ``nbgrader db assignment import`` writes them (in UTC, as nbgrader keeps them); an
    assignment not generated yet is created with its due date, and ``generate_assignment`` keeps
    it.

    Parameters
    ----------
    path : str or pathlib.Path
        The schedule (see :func:`read_schedule`).
    course : str or pathlib.Path
        The nbgrader course folder.
    timezone : str, optional
        The time zone of dates without an offset.

    Returns
    -------
    dict of str to datetime.datetime
        The due dates set, in UTC.
    """
    course = Path(course)
    due = read_schedule(path, _course_sets(course), timezone)
    with tempfile.TemporaryDirectory() as tmp:
        normalized = Path(tmp, "assignments.csv")
        with normalized.open("w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(["name", "duedate"])
            for name, when in due.items():
                writer.writerow([name, when.isoformat()])
        _nbgrader(["db", "assignment", "import", str(normalized)], course)
    return due


# ------------------------------------------------------------------------------------ extensions

@dataclass(frozen=True)
class Extension:
    """A student's later due date for one set: a new due date, or extra hours."""

    student: str
    set: str
    due: datetime | None = None
    hours: float | None = None


def read_extensions(path: str | Path, sets: Sequence[str],
                    timezone: str | None = None) -> list[Extension]:
    """Read per-student extensions.

    Parameters
    ----------
    path : str or pathlib.Path
        A CSV file with the columns ``student``, ``set`` and ``due`` (a new due date and time)
        and/or ``hours`` (extra hours after the set's due date); each row fills exactly one of
        the two. A set is named in full or by its number.
    sets : sequence of str
        The course's assignments.
    timezone : str, optional
        The IANA time zone of due dates without an offset.

    Returns
    -------
    list of Extension
        New due dates in UTC.

    Raises
    ------
    ValueError
        Naming every bad row: no student, an unknown set, neither or both of due and hours,
        hours that are not a positive number, the same student and set twice.
    """
    path = Path(path)
    header, rows = _open_csv(path)
    if not {"student", "set"} <= set(header) or not {"due", "hours"} & set(header):
        raise ValueError(f"{path}: the header {header} needs the columns student, set and due "
                         "or hours")
    out: list[Extension] = []
    problems = []
    seen: dict[tuple[str, str], int] = {}
    for line, row in rows:
        try:
            student = row["student"]
            if not student:
                raise ValueError("no student")
            which = _which_set(row["set"], sets)
            if (student, which) in seen:
                raise ValueError(f"{student} has an extension for {which} already (line "
                                 f"{seen[student, which]}); extensions do not add up: give one")
            due, hours = row.get("due", ""), row.get("hours", "")
            if bool(due) == bool(hours):
                raise ValueError("give either due or hours")
            if due:
                ext = Extension(student, which, due=_when(due, _zone(timezone)))
            else:
                try:
                    extra = float(hours)
                except ValueError:
                    raise ValueError(f"hours {hours!r} is not a number") from None
                if not extra > 0 or math.isinf(extra):
                    raise ValueError(f"hours {hours!r} is not a positive number")
                ext = Extension(student, which, hours=extra)
            seen[student, which] = line
            out.append(ext)
        except ValueError as err:
            problems.append(f"line {line}: {err}")
    if problems:
        raise ValueError(f"{path}: {len(problems)} bad row(s), nothing granted:\n  "
                         + "\n  ".join(problems))
    return out


def _course_config(course: Path) -> tuple[str, str]:
    """The gradebook's database URL and course id, from the course folder's nbgrader_config.py."""
    from nbgrader.coursedir import CourseDirectory  # type: ignore[import-untyped]
    from traitlets.config.loader import PyFileConfigLoader

    course = Path(course).resolve()
    if not (course / "nbgrader_config.py").is_file():
        raise ValueError(f"{course} has no nbgrader_config.py: is it the course folder?")
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    coursedir = CourseDirectory(config=config, root=str(course))
    return coursedir.db_url, coursedir.course_id


@contextmanager
def _gradebook(course: Path) -> Iterator[Any]:
    """nbgrader's gradebook of the course (opening one runs ``alembic``: this Python's tools go
    on PATH meanwhile, as for the nbgrader commands)."""
    db_url, course_id = _course_config(course)
    path = os.environ.get("PATH", "")
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{path}"
    try:
        with Gradebook(db_url, course_id) as gb:
            yield gb
    finally:
        os.environ["PATH"] = path


def _utc_naive(moment: datetime) -> datetime:
    """nbgrader keeps times as naive datetimes in UTC."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def grant_extensions(path: str | Path, course: str | Path = ".",
                     timezone: str | None = None) -> list[Extension]:
    """Give students extensions, in nbgrader's gradebook (``SubmittedAssignment.extension``).

    nbgrader's lateness (``SubmittedAssignment.total_seconds_late``, which ``autograde`` hands to
    the late-penalty plugin) counts from the set's due date plus this extension. The extension
    lives on the student's submission record. When the record does not exist yet (the student has
    not been autograded), it is created here, empty, as ``autograde`` would create it: its cells
    score 0 and need no hand grading until the student's work is autograded, which fills it in and
    keeps the extension (nbgrader updates an existing record's timestamp only). So the set must be
    generated first (``nbgrader generate_assignment``): the record mirrors its notebooks.

    nbgrader's ``Gradebook.grant_extension`` writes it: an extension replaces an earlier one for
    the same student and set. A new due date before the set's due date is refused.

    Parameters
    ----------
    path : str or pathlib.Path
        The extensions (see :func:`read_extensions`).
    course : str or pathlib.Path
        The nbgrader course folder.
    timezone : str, optional
        The time zone of due dates without an offset.

    Returns
    -------
    list of Extension
        The extensions given.

    Raises
    ------
    ValueError
        Naming every row that cannot be applied (an unknown student, a set without a due date or
        not generated yet, a new due date not after the set's); nothing is written then.
    """
    course = Path(course)
    extensions = read_extensions(path, _course_sets(course), timezone)
    with _gradebook(course) as gb:
        problems, plan = [], []
        for ext in extensions:
            where = f"{ext.student}, {ext.set}"
            try:
                gb.find_student(ext.student)
            except MissingEntry:
                problems.append(f"{where}: no student {ext.student!r} in the gradebook (import "
                                "the roster first)")
                continue
            try:
                assignment = gb.find_assignment(ext.set)
            except MissingEntry:
                assignment = None
            if assignment is None or not assignment.notebooks:
                problems.append(f"{where}: {ext.set} is not generated yet (nbgrader "
                                f"generate_assignment {ext.set})")
                continue
            if assignment.duedate is None:
                problems.append(f"{where}: {ext.set} has no due date (import the schedule first)")
                continue
            if ext.due is not None:
                delta = _utc_naive(ext.due) - assignment.duedate
                if delta <= timedelta(0):
                    problems.append(f"{where}: the new due date {ext.due:%Y-%m-%d %H:%M} UTC is "
                                    f"not after the set's, {assignment.duedate:%Y-%m-%d %H:%M} UTC")
                    continue
            else:
                delta = timedelta(hours=ext.hours or 0)
            plan.append((ext, delta))
        if problems:
            raise ValueError(f"{path}: {len(problems)} extension(s) cannot be given, nothing "
                             "granted:\n  " + "\n  ".join(problems))
        for ext, delta in plan:
            try:
                gb.find_submission(ext.set, ext.student)
            except MissingEntry:
                with warnings.catch_warnings():   # nbgrader's add_submission trips SQLAlchemy's
                    warnings.simplefilter("ignore", SAWarning)   # autoflush warnings; harmless
                    submission = gb.add_submission(ext.set, ext.student)
                for notebook in submission.notebooks:   # as autograde marks a missing notebook
                    for grade in notebook.grades:
                        grade.auto_score = 0
                        grade.needs_manual_grade = False
                gb.db.commit()
            # nbgrader's own call (it replaces an earlier extension)
            gb.grant_extension(ext.set, ext.student, minutes=delta.total_seconds() / 60)
    return extensions


# ------------------------------------------------------------------------------------- late work

def penalty_points(score: float, percent: float) -> float:
    """The course's one rounding rule: ``percent`` % of ``score``, to the hundredth of a point.

    Halves round up (0.125 -> 0.13), computed in decimal arithmetic from the numbers as printed,
    so that 10% of 8.05 is 0.81 and not the 0.80 binary floating point would give. A score with
    at most two decimals therefore keeps at most two decimals after the penalty, and the feedback
    (which prints two decimals), ``grades.csv`` and the Canvas and Moodle files all show the same
    number.

    Parameters
    ----------
    score : float
        The points the penalty is a share of (0 or more).
    percent : float
        The share, in percent (0 to 100).

    Returns
    -------
    float
        The penalty in points, 0 or more.

    Examples
    --------
    >>> penalty_points(8.05, 10)
    0.81
    >>> penalty_points(9.0, 10)
    0.9
    """
    exact = Decimal(repr(float(score))) * Decimal(repr(float(percent))) / 100
    return max(0.0, float(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)))


class LatePenaltyPerDay(LateSubmissionPlugin):
    """nbgrader's late-submission plugin for the course: a share of the score per started day late.

    ``autograde`` calls it for each late notebook (one per set) with the notebook's score and the
    seconds past the due date, the student's extension included. Configure it in
    ``nbgrader_config.py``::

        c.AssignLatePenalties.plugin_class = LatePenaltyPerDay
        c.LatePenaltyPerDay.percent_per_day = 10    # of the score, per started day late
        c.LatePenaltyPerDay.max_percent = 100       # never more than this share of the score
    """

    percent_per_day = Float(10.0, min=0.0, help="Percent of the score taken per started day "
                            "(24 hours) late.").tag(config=True)
    max_percent = Float(100.0, min=0.0, max=100.0, help="The most a late submission loses, in "
                        "percent of its score.").tag(config=True)

    def late_submission_penalty(self, student_id: str, score: float,
                                total_seconds_late: float) -> float:
        """The points taken from a notebook ``total_seconds_late`` seconds late.

        Parameters
        ----------
        student_id : str
            The student (the same rule for everyone).
        score : float
            The notebook's score before the penalty.
        total_seconds_late : float
            Seconds past the due date (plus extension); 0 or less is on time.

        Returns
        -------
        float
            ``score`` × min(``max_percent``, ``percent_per_day`` × started days) / 100, to the
            hundredth of a point (:func:`penalty_points`): 0 when on time, never below 0, never
            more than the score.

        Examples
        --------
        >>> plugin = LatePenaltyPerDay()
        >>> plugin.late_submission_penalty("s1", 10.0, 3600)       # 1 hour: a started day
        1.0
        >>> plugin.late_submission_penalty("s1", 10.0, 3 * 86400)  # 3 days
        3.0
        """
        if total_seconds_late <= 0 or score <= 0:
            return 0.0
        days = math.ceil(total_seconds_late / 86400)
        percent = min(self.max_percent, self.percent_per_day * days)
        return min(score, penalty_points(score, percent))


# ------------------------------------------------------------------------ due dates for students

def due_line(due: datetime, timezone: str = "UTC") -> str:
    """The line a released notebook opens with: its due date, in words, in the course's zone.

    Parameters
    ----------
    due : datetime.datetime
        The due date, naive in UTC (as nbgrader keeps it) or timezone-aware.
    timezone : str
        The IANA time zone the class lives in.

    Returns
    -------
    str
        Markdown, e.g. ``**Due: Friday 6 February 2026, 23:59** (Europe/Berlin time). ...``

    Examples
    --------
    >>> due_line(datetime(2026, 2, 6, 22, 59), "Europe/Berlin")[:40]
    '**Due: Friday 6 February 2026, 23:59** ('
    """
    zone = _zone(timezone) or ZoneInfo("UTC")
    moment = (due if due.tzinfo else due.replace(tzinfo=UTC)).astimezone(zone)
    return (f"**Due: {moment:%A} {moment.day} {moment:%B %Y, %H:%M}** ({timezone} time). "
            "Submit it from the Assignments tab before then; if your teacher gave you an "
            "extension, your own date holds.")


class DueDateInRelease(Preprocessor):
    """``generate_assignment``'s last step: the set's due date, in words, at the top of each
    released notebook (nbgrader's Assignments tab shows students no due date).

    The date is the gradebook's when the set is generated (``python -m chutes_teacher.gradebook
    schedule`` first; ``make teacher`` imports the schedule before it generates); a set without
    one gets no line. A cell of its own, outside nbgrader's cells, so grading ignores it.
    """

    timezone = Unicode("UTC", help="The IANA time zone the due date is written in, e.g. "
                       "'Europe/Berlin' (the students' own).").tag(config=True)

    def preprocess(self, nb: Any, resources: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """Insert the due-date cell when the set has a due date.

        Parameters
        ----------
        nb : nbformat.NotebookNode
            The notebook being released.
        resources : dict
            nbgrader's resources (``nbgrader.db_url``, ``nbgrader.assignment``).

        Returns
        -------
        nb, resources
        """
        import nbformat

        info = resources.get("nbgrader", {})
        try:
            with Gradebook(info["db_url"]) as gb:
                due = gb.find_assignment(info["assignment"]).duedate
        except (KeyError, MissingEntry):
            due = None
        if due is not None:
            nb.cells.insert(0, nbformat.v4.new_markdown_cell(
                due_line(due, self.timezone), metadata={"tags": ["due-date"]}))
        return nb, resources


# --------------------------------------------------------------------------- what a teacher reads

def _tidy_message(message: str) -> str:
    """A log message without the blank lines and indentation nbgrader's ``dedent`` leaves."""
    return textwrap.dedent(message).strip("\n").rstrip()


class _TeacherLogFilter(logging.Filter):
    """Drops what a teacher cannot act on from an nbgrader application's log (see
    :func:`tidy_teacher_logs`)."""

    def __init__(self) -> None:
        super().__init__()
        self.last = ""

    def filter(self, record: logging.LogRecord) -> bool:
        """False for the warning about ``display_data_priority`` and for a penalty said twice."""
        message = record.getMessage()
        if "`display_data_priority` not recognized by" in message:
            return False
        repeated = message.startswith("Late submission penalty:") and message == self.last
        self.last = message
        return not repeated


def tidy_teacher_logs() -> None:
    """Keep nbgrader's logs to what a teacher can act on (``nbgrader_config.py`` calls this).

    - No empty log lines: nbgrader writes some warnings (``collect``'s "claims to be submitted
      by ... owned by ...") as a ``dedent``-ed block that starts and ends with a blank line, so
      the log shows ``[CollectApp | WARNING]`` with nothing after it. Every log record's message
      is stripped of those blank lines and of the indentation.
    - No DEBUG flood in formgrader: its "autograde" button shows what the autograde logged at the
      level of the server's logger, and traitlets sets an application's logger to DEBUG (its
      handlers alone filter at ``log_level``), so the pop-up showed every kernel message. The
      running application's logger is raised to its ``log_level`` (INFO unless the server runs
      with ``--debug``), so what the pop-up shows is what the terminal shows.
    - No SQLAlchemy warnings from nbgrader's gradebook (``Object of type <SubmittedAssignment>
      not in session``): nbgrader trips them whenever it creates a submission; they are harmless
      and no teacher can act on them.
    - ``generate_feedback`` says a late submission's penalty once: nbgrader's
      ``AssignLatePenalties`` (which the course runs first, so that the feedback has the final
      score's penalty) and its ``GetGrades`` both log "Late submission penalty: 1.6", one after
      the other; the repeat is dropped. Nor does it warn "Config option
      `display_data_priority` not recognized by `AssignLatePenalties`" (nbconvert's HTML
      settings meeting a nbgrader step that has no use for them).

    Calling it again (formgrader loads ``nbgrader_config.py`` on every request) changes nothing.
    """
    factory = logging.getLogRecordFactory()
    if not getattr(factory, "chutes_edu_tidy", False):
        def tidy(*args: Any, **kwargs: Any) -> logging.LogRecord:
            record = factory(*args, **kwargs)
            if isinstance(record.msg, str) and "\n" in record.msg:
                record.msg = _tidy_message(record.msg)
            return record

        tidy.chutes_edu_tidy = True  # type: ignore[attr-defined]
        logging.setLogRecordFactory(tidy)
    from traitlets.config import Application

    if Application.initialized():
        app = Application.instance()
        wanted: Any = app.log_level
        level = int(getattr(logging, wanted) if isinstance(wanted, str) else wanted)
        if isinstance(app.log, logging.Logger) and app.log.level < level:
            app.log.setLevel(level)
        if isinstance(app.log, logging.Logger) and not any(
                isinstance(f, _TeacherLogFilter) for f in app.log.filters):
            app.log.addFilter(_TeacherLogFilter())
    warnings.filterwarnings("ignore", message=r"Object of type .* not in session",
                            category=SAWarning, module=r"nbgrader\.")


# ------------------------------------------------------------------- hand grades and re-autograde

class SaveAutoGradesKeepingHandGrades(SaveAutoGrades):
    """nbgrader's SaveAutoGrades, leaving an answer graded by hand graded through a re-autograde.

    nbgrader keeps a hand grade (``manual_score``) and a grader's comment (``manual_comment``)
    when a submission is autograded again (``nbgrader autograde --force``, formgrader's
    "autograde" button), but marks every hand-graded answer "needs manual grade" again, so a
    teacher's finished grading reopens and the exports warn about it. This step keeps the mark as
    it was for an answer that has a hand grade: graded stays graded, ungraded stays ungraded.
    When the autograder's own score of such an answer changed, it says so in the log (the hand
    grade still counts, as in nbgrader).
    """

    def _add_score(self, cell: Any, resources: Any) -> None:
        grade = self.gradebook.find_grade(cell.metadata["nbgrader"]["grade_id"],
                                          self.notebook_id, self.assignment_id, self.student_id)
        by_hand = grade.manual_score is not None
        before, was_open = grade.auto_score, grade.needs_manual_grade
        super()._add_score(cell, resources)
        if by_hand:
            grade.needs_manual_grade = was_open
            self.gradebook.db.commit()
            if grade.auto_score != before:
                self.log.info("%s of %s: the hand grade %s is kept (the autograder's score went "
                              "from %s to %s)", grade.name, self.student_id, grade.manual_score,
                              before, grade.auto_score)


# ----------------------------------------------------------------------------- grades to the LMS

# Canvas: Grades > Import reads a CSV shaped like its own gradebook export: the first columns
# identify the student, every further column is an assignment (a new name creates one), and a row
# whose first cell is "Points Possible" gives new assignments their points. Canvas Instructor Guide,
# "How do I import grades in the Gradebook?"
# (https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807)
# names these columns, paraphrased: the student name, Student ID, SIS User ID, SIS Login ID and
# Section, then the assignment columns; e.g. Ohio State's guide to the same import
# (https://teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades)
# lists "Student Name ... OR Student ID OR Student SIS User ID", "SIS Login ID", "Section",
# "Assignment Name". Canvas's export writes exactly this header:
CANVAS_COLUMNS: tuple[str, ...] = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
"""The student columns of a Canvas gradebook CSV, before the assignments' columns."""

# Moodle: Grades > Import > CSV file. The file's first row names the columns; at import the teacher
# maps one identifying column to a user field ("Map from" Email address -> "Map to" Email address,
# or ID number -> idnumber, or username) and each other column to a grade item or a new one.
# MoodleDocs, "Grade import" (https://docs.moodle.org/en/Grade_import, "CSV import": "By default
# 'Map from' is set to First Name, and 'Map to' to userid. Change both dropdowns to: 'Email
# Address' to 'useremail', or to 'Id Number' to 'useridnumber'"). The names are Moodle's own export
# headings (its language strings firstname, lastname, idnumber, email):
MOODLE_COLUMNS: tuple[str, ...] = ("First name", "Last name", "ID number", "Email address")
"""The student columns of the Moodle CSV, before the grade items' columns."""

_QUESTION = re.compile(r"^ex(\d+)_(\d+)-(tests|written)$")


def _question_label(grade_id: str) -> str:
    """``ex3_4-tests`` -> ``3.4``; ``ex3_6-written`` -> ``3.6 written``; else the grade id."""
    match = _QUESTION.match(grade_id)
    if not match:
        return grade_id
    lesson, number, kind = match.groups()
    return f"{int(lesson)}.{int(number)}" + (" written" if kind == "written" else "")


def _natural(text: str) -> list[Any]:
    return [(0, int(part), "") if part.isdigit() else (1, 0, part)
            for part in re.split(r"(\d+)", text)]


def format_points(value: float) -> str:
    """Points as every export (and the batch autograde) prints them: to the hundredth, no
    trailing zeros, never "-0".

    Parameters
    ----------
    value : float
        Points.

    Returns
    -------
    str
        E.g. ``"8.1"`` for 8.1000001, ``"9"`` for 9.0.
    """
    return f"{round(value, 2) + 0.0:g}"


_points = format_points


class ExportRefused(ValueError):
    """An export that would write wrong grades (the message names the submissions)."""


EXIT_REFUSED = 1
"""``nbgrader export``'s status when a strict export refuses: no file is written."""
EXIT_LEFT_BLANK = 3
"""``nbgrader export``'s status when the file is written with some submissions left blank."""


def _timestamp(folder: Path) -> datetime | None:
    """``folder/timestamp.txt`` as nbgrader reads it (naive UTC; None when missing or empty).

    nbgrader's own reader ends in an AttributeError on a timestamp it cannot parse (it calls a
    ``fail`` its CourseDirectory does not have): one student's file would stop the export.

    Raises
    ------
    ValueError
        When the file is there but cannot be read as a time.
    """
    from nbgrader.utils import parse_utc  # type: ignore[import-untyped]

    path = folder / "timestamp.txt"
    if not path.exists():
        return None
    try:
        text = path.read_text(encoding="utf-8").strip()
        return parse_utc(text) if text else None
    except (OSError, UnicodeDecodeError, ValueError, OverflowError, TypeError) as err:
        raise ValueError(f"its timestamp.txt in {folder.parent.parent.name}/ cannot be read as a "
                         f"time ({type(err).__name__})") from None


def _unreadable_notebook(path: Path) -> str | None:
    """Why the autograded notebook ``path`` cannot be read, or None when it reads as one."""
    if path.is_symlink() or (path.exists() and not path.is_file()):
        return f"its autograded {path.name} is not a regular file"
    if not path.exists():
        return f"its autograded {path.name} is missing"
    try:
        with path.open("rb") as fh:
            notebook = json.load(fh)
    except (OSError, ValueError, RecursionError) as err:
        return f"its autograded {path.name} cannot be read ({type(err).__name__})"
    if not (isinstance(notebook, dict) and isinstance(notebook.get("cells"), list)):
        return f"its autograded {path.name} is not a notebook"
    return None


def stale_submissions(coursedir: Any, gradebook: Any, sets: Sequence[str],
                      students: Sequence[str]) -> list[tuple[str, str, str]]:
    """The handed-in submissions whose grades in the gradebook are not those of the work handed in.

    nbgrader's ``autograde`` writes a submission's grades into the gradebook as it goes and, when
    the submission fails (a notebook that cannot run, a kernel that hangs, nbgrader metadata
    tampered with ...), deletes its ``autograded/<student>/<set>`` folder and leaves the gradebook
    as it was: the grades of the previous autograde, or empty ones. A submission collected again
    after its autograde has a newer ``timestamp.txt`` in ``submitted/`` than the one autograde
    copied into ``autograded/``. A handed-in notebook whose autograded copy is gone or is not a
    notebook any more (deleted, truncated, replaced by a link) has grades nobody can check, show
    in formgrader or give feedback on. A ``timestamp.txt`` that is not a time says nothing about
    which grades are whose. None of these raises: each is one entry, so one submission never
    stops the others.

    Parameters
    ----------
    coursedir : nbgrader.coursedir.CourseDirectory
        The course folder's layout.
    gradebook : nbgrader.api.Gradebook
        The course's gradebook.
    sets, students : sequence of str
        The sets and students to look at.

    Returns
    -------
    list of (student, set, reason)
        One per submission found in ``submitted/`` whose autograded copy is missing (its latest
        autograde failed, or never ran), older than it (collected again since) or unreadable, or
        whose timestamps cannot be read.
    """
    stale = []
    for name in sets:
        notebooks: list[str] | None = None
        for student in students:
            submitted = Path(coursedir.format_path(coursedir.submitted_directory, student, name))
            if not submitted.is_dir():
                continue
            graded = Path(coursedir.format_path(coursedir.autograded_directory, student, name))
            if not graded.is_dir():
                try:
                    gradebook.find_submission(name, student)
                    why = "its latest autograde failed (autograded/ has no copy of it)"
                except MissingEntry:
                    why = "it is not autograded yet"
                stale.append((student, name, why))
                continue
            try:
                handed_in, graded_at = _timestamp(submitted), _timestamp(graded)
            except ValueError as err:
                stale.append((student, name, str(err)))
                continue
            if handed_in is not None and (graded_at is None or handed_in > graded_at):
                stale.append((student, name, "it was collected again after its autograde"))
                continue
            if notebooks is None:
                try:
                    notebooks = [nb.name for nb in gradebook.find_assignment(name).notebooks]
                except MissingEntry:
                    notebooks = []
            unreadable = (_unreadable_notebook(graded / f"{nb}.ipynb") for nb in notebooks
                          if (submitted / f"{nb}.ipynb").exists())
            why_not = next((why for why in unreadable if why), None)
            if why_not:
                stale.append((student, name, why_not))
    return stale


def late_penalty(plugin: Any, student_id: str, score: float, seconds_late: float) -> float:
    """One notebook's late penalty as every place of the course computes it, from its score now.

    Parameters
    ----------
    plugin : nbgrader.plugins.LateSubmissionPlugin
        The configured plugin (``c.AssignLatePenalties.plugin_class``).
    student_id : str
        The student.
    score : float
        The notebook's score (hand grades included).
    seconds_late : float
        Seconds past the due date and extension.

    Returns
    -------
    float
        The plugin's penalty, clipped to 0 ... ``score``; 0 when on time.
    """
    if seconds_late <= 0:
        return 0.0
    penalty = plugin.late_submission_penalty(student_id, score, seconds_late)
    return 0.0 if penalty is None else min(max(float(penalty), 0.0), float(score))


def submission_penalty(plugin: Any, submission: Any) -> float:
    """A submitted set's late penalty: the sum of its notebooks' :func:`late_penalty`.

    Parameters
    ----------
    plugin : nbgrader.plugins.LateSubmissionPlugin
        The configured plugin.
    submission : nbgrader.api.SubmittedAssignment
        The submission (its notebooks' scores as they are now).

    Returns
    -------
    float
        Points; formgrader's pages, the batch autograde, the feedback and every export subtract
        this same number.
    """
    late = float(submission.total_seconds_late or 0)
    return sum(late_penalty(plugin, submission.student.id, nb.score, late)
               for nb in submission.notebooks)


def refresh_late_penalties(gradebook: Any, plugin: Any, submissions: Sequence[Any]) -> None:
    """Store each notebook's late penalty as nbgrader's ``autograde`` would, from its score now.

    ``autograde`` (AssignLatePenalties) computes a late notebook's penalty from the score it
    has then: hand-graded answers graded later are not in it. This computes it again, with the
    same plugin and the same rule (the penalty of a late notebook is the plugin's, clipped to
    0 ... score; an on-time notebook has none), from the final score, and stores it, so that
    the feedback, formgrader, ``grades.csv`` and the LMS files all read the same number.

    Parameters
    ----------
    gradebook : nbgrader.api.Gradebook
        The course's gradebook (committed once at the end).
    plugin : nbgrader.plugins.LateSubmissionPlugin
        The configured plugin (``c.AssignLatePenalties.plugin_class``).
    submissions : sequence of nbgrader.api.SubmittedAssignment
        The submissions to update.
    """
    for sub in submissions:
        late = sub.total_seconds_late
        for notebook in sub.notebooks:
            notebook.late_submission_penalty = (
                late_penalty(plugin, sub.student.id, notebook.score, late) if late > 0 else None)
    gradebook.db.commit()
    for sub in submissions:            # the set's sum of its notebooks' penalties is a query
        gradebook.db.refresh(sub)


class _CourseExport(ExportPlugin):
    """What every export of the course does before writing a row.

    - A handed-in submission whose grades are not those of its work (:func:`stale_submissions`:
      its autograde failed or is missing, its autograded notebook cannot be read ...) is left
      blank in the file (not 0, not the gradebook's old grade) and named, every other one is
      exported, and the export exits with :data:`EXIT_LEFT_BLANK`: one bad submission never
      stops the class. With ``strict`` the export refuses instead (:class:`ExportRefused`,
      naming them; no file, :data:`EXIT_REFUSED`);
    - it leaves out the sets nobody has handed in (never released, or not collected yet) unless
      asked for by name (``--assignment``);
    - it stores every late penalty again from the final score (:func:`refresh_late_penalties`),
      with the plugin ``nbgrader_config.py`` gives ``AssignLatePenalties``.
    """

    default_file = "grades.csv"
    strict = Bool(False, help=(
        "Refuse to write the file when a handed-in submission's grades are not those of its work "
        "(its autograde failed or is missing, its autograded notebook cannot be read), instead "
        "of leaving its cells blank and exiting with status 3.")).tag(config=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.left_blank: list[tuple[str, str, str]] = []
        self.missing: set[tuple[str, str]] = set()

    def is_blank(self, set_name: str, student_id: str) -> bool:
        """Whether this export leaves ``student_id``'s ``set_name`` blank (see :meth:`graded`).

        Parameters
        ----------
        set_name, student_id : str
            The set and the student.

        Returns
        -------
        bool
            True for a submission :func:`stale_submissions` named.
        """
        return any(s == student_id and a == set_name for s, a, _ in self.left_blank)

    def coursedir(self) -> Any:
        """The course folder's layout: nbgrader export's own, else one from this config."""
        from nbgrader.coursedir import CourseDirectory

        return getattr(self.parent, "coursedir", None) or CourseDirectory(config=self.config)

    def late_plugin(self) -> Any:
        """The late-submission plugin ``autograde`` uses, configured as it is."""
        from nbgrader.preprocessors import AssignLatePenalties

        step = AssignLatePenalties(parent=self)
        step.init_plugin()
        return step.plugin_inst

    def graded(self, gradebook: Any) -> tuple[list[Any], list[Any]]:
        """The sets and students to export, once the checks above have passed.

        Parameters
        ----------
        gradebook : nbgrader.api.Gradebook
            The course's gradebook.

        Returns
        -------
        sets, students : list, list
            nbgrader's ``Assignment`` and ``Student`` records, the students sorted by last name,
            first name and id. The submissions whose grades are stale are in ``left_blank``
            (:meth:`is_blank`).

        Raises
        ------
        ExportRefused
            With ``strict``, when a submission's grades are stale, naming each.
        """
        coursedir = self.coursedir()
        wanted_sets = [str(a) for a in self.assignment]
        wanted_students = [str(s) for s in self.student]
        students = sorted((s for s in gradebook.students
                           if not wanted_students or s.id in wanted_students),
                          key=lambda s: ((s.last_name or "").lower(), (s.first_name or "").lower(),
                                         s.id))
        submitted = Path(coursedir.root, coursedir.submitted_directory)

        def handed_in(a: Any) -> bool:
            # an extension creates an empty record without a timestamp: that is not a submission
            return (any(sub.timestamp is not None for sub in a.submissions)
                    or any(submitted.glob(f"*/{a.name}")))

        now = datetime.now(UTC).replace(tzinfo=None)      # nbgrader's due dates: naive UTC
        sets: list[Any] = []
        left_out: list[Any] = []
        not_due: list[Any] = []
        for a in gradebook.assignments:
            if wanted_sets and a.name not in wanted_sets:
                continue
            if not wanted_sets and a.duedate is not None and a.duedate > now:
                not_due.append(a)
                continue
            (sets if wanted_sets or handed_in(a) else left_out).append(a)
        if not_due:
            self.log.warning("Left out, as they are not due yet: %s (an LMS would take the "
                             "students who have not handed in yet for missing; name a set with "
                             "--assignment to export it anyway)",
                             ", ".join(a.name for a in not_due))
        if left_out:
            self.log.info("Left out, as nobody has handed them in: %s (name a set with "
                          "--assignment to export it anyway)", ", ".join(a.name for a in left_out))
        stale = stale_submissions(coursedir, gradebook, [a.name for a in sets],
                                  [s.id for s in students])
        self.left_blank = stale
        if stale and self.strict:
            raise ExportRefused(
                f"nothing exported: the gradebook's grades of {len(stale)} submission(s) are not "
                "those of the work handed in:\n  "
                + "\n  ".join(f"{student}, {name}: {why}" for student, name, why in stale)
                + "\nAutograde them (nbgrader autograde SET; formgrader's log says why one "
                "failed), or leave them out with --student.")
        found = []
        self.missing = set()
        for a in sets:
            for s in students:
                if self.is_blank(a.name, s.id):      # its stored grades are not its work's
                    continue
                try:
                    sub = gradebook.find_submission(a.name, s.id)
                except MissingEntry:
                    self.missing.add((a.name, s.id))
                    continue
                if not self._handed_in(coursedir, sub):   # an extension's empty record
                    self.missing.add((a.name, s.id))
                    continue
                found.append(sub)
        refresh_late_penalties(gradebook, self.late_plugin(), found)
        self._warn(found)
        return sets, students

    @staticmethod
    def _handed_in(coursedir: Any, sub: Any) -> bool:
        """Whether a gradebook record is a submission: it has a time, or its work is on disk
        (``zip_collect`` of LMS uploads gives no time). An extension's record has neither."""
        if sub.timestamp is not None:
            return True
        return any(Path(coursedir.format_path(folder, sub.student.id, sub.assignment.name)).is_dir()
                   for folder in (coursedir.submitted_directory, coursedir.autograded_directory))

    def is_missing(self, set_name: str, student_id: str) -> bool:
        """Whether ``student_id`` handed nothing in for ``set_name`` (left blank, not 0).

        Parameters
        ----------
        set_name, student_id : str
            The set and the student.

        Returns
        -------
        bool
        """
        return (set_name, student_id) in self.missing

    def _warn(self, submissions: Sequence[Any]) -> None:
        """The warnings every format gives, in the same words: answers still to grade by hand,
        and submissions that are missing (left blank)."""
        unfinished = sum(any(g.needs_manual_grade for nb in sub.notebooks for g in nb.grades)
                         for sub in submissions)
        if unfinished:
            self.log.warning("%d submission(s) still have answers to grade by hand (formgrader): "
                             "in this export those answers count what autograde gave them (0 for "
                             "a written answer)", unfinished)
        if self.missing:
            self.log.warning("%d submission(s) missing (nothing handed in): left blank in this "
                             "export, not 0; mark them missing (or 0) in your LMS when you mean "
                             "to", len(self.missing))

    def write(self, gradebook: Any) -> None:
        """Write the export (the subclass's file)."""
        raise NotImplementedError

    def export(self, gradebook: Any) -> None:
        """Write the file; name the submissions left blank in it (and exit with status 3), or,
        ``strict``, say in words why nothing is written (and exit with status 1).

        Parameters
        ----------
        gradebook : nbgrader.api.Gradebook
            The course's gradebook (nbgrader's ExportApp opens it).
        """
        self.left_blank = []
        try:
            self.write(gradebook)
        except ExportRefused as err:
            self.log.error("%s", err)
            raise SystemExit(EXIT_REFUSED) from None
        if self.left_blank:
            self.log.error(
                "%d submission(s) left blank in %s (not 0, not an old grade), as the "
                "gradebook's grades are not those of the work handed in; the others are "
                "exported:\n  %s\nAutograde them (nbgrader autograde SET; formgrader's log says "
                "why one failed) and export again; --%s.strict=True refuses to write the file "
                "while one is left.", len(self.left_blank), self.to or self.default_file,
                "\n  ".join(f"{student}, {name}: {why}"
                            for student, name, why in self.left_blank),
                type(self).__name__)
            raise SystemExit(EXIT_LEFT_BLANK)


class GradesCsvExport(_CourseExport):
    """``nbgrader export``'s ``grades.csv`` (the course's ``nbgrader_config.py`` makes it the
    default exporter): nbgrader's own columns, a row per set and student, after the checks of
    the course's exports (stale grades left blank and named, or refused with ``--strict``; sets
    nobody handed in left out; late penalties from the final score) and with points to the
    hundredth, as in the feedback. A blank submission's row keeps the set, its due date, the
    student and ``max_score``; its ``timestamp`` and scores are empty."""

    COLUMNS = ("assignment", "duedate", "timestamp", "student_id", "last_name", "first_name",
               "email", "raw_score", "late_submission_penalty", "score", "max_score")

    def write(self, gradebook: Any) -> None:
        """Write ``--to`` (default ``grades.csv``).

        Parameters
        ----------
        gradebook : nbgrader.api.Gradebook
            The course's gradebook.
        """
        dest = self.to or "grades.csv"
        sets, students = self.graded(gradebook)
        rows = []
        for a in sets:
            for s in students:
                if self.is_blank(a.name, s.id):
                    rows.append([a.name, a.duedate or "", "", s.id, s.last_name or "",
                                 s.first_name or "", s.email or "", "", "", "",
                                 _points(a.max_score)])
                    continue
                if self.is_missing(a.name, s.id):    # nothing handed in: blank, not 0
                    rows.append([a.name, a.duedate or "", "", s.id, s.last_name or "",
                                 s.first_name or "", s.email or "", "", "", "",
                                 _points(a.max_score)])
                    continue
                sub = gradebook.find_submission(a.name, s.id)
                timestamp, raw = sub.timestamp or "", sub.score
                penalty = sub.late_submission_penalty or 0.0
                rows.append([a.name, a.duedate or "", timestamp, s.id, s.last_name or "",
                             s.first_name or "", s.email or "", _points(raw), _points(penalty),
                             _points(max(0.0, raw - penalty)), _points(a.max_score)])
        self.log.info("Exporting grades to %s", dest)
        with open(dest, "w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(self.COLUMNS)
            writer.writerows(rows)


class _LmsExport(_CourseExport):
    """Grades as a table: a row per student and a column per set (or per graded cell)."""

    questions = Bool(False, help=(
        "One column per graded cell ('<set> 3.4') instead of one per set, and a '<set> late "
        "penalty' column (0 or less) for a set someone handed in late. Never both: an LMS would "
        "count each point twice.")).tag(config=True)
    default_file = "grades.csv"
    id_columns: tuple[str, ...] = ()

    def student_cells(self, student: Any) -> list[str]:
        """The identifying cells of a student's row, one per ``id_columns``."""
        raise NotImplementedError

    def extra_rows(self, maxima: list[str]) -> list[list[str]]:
        """Rows between the header and the students' (Canvas: the points possible)."""
        return []

    def table(self, gradebook: Any) -> tuple[list[str], list[str], list[list[str]]]:
        """The header, the maximum of each grade column, and one row per student.

        Parameters
        ----------
        gradebook : nbgrader.api.Gradebook
            The course's gradebook.

        Returns
        -------
        header, maxima, rows
            ``maxima`` has an entry per grade column (after the identifying columns). A student
            without a submission of a set gets empty cells there (missing is not 0: an LMS
            import takes 0 for a grade), and so does one whose submission's grades are stale
            (:func:`stale_submissions`).

        Raises
        ------
        ExportRefused
            With ``strict``, when a submission's grades are stale.
        """
        sets, students = self.graded(gradebook)
        header, maxima = list(self.id_columns), []
        columns: list[tuple[str, list[tuple[str, float]], bool]] = []
        for a in sets:
            grade_cells = sorted(((cell.name, cell.max_score) for nb in a.notebooks
                                  for cell in nb.grade_cells), key=lambda c: _natural(c[0]))
            if not self.questions:
                header.append(a.name)
                maxima.append(_points(a.max_score))
                columns.append((a.name, grade_cells, False))
                continue
            late = any((sub.late_submission_penalty or 0) > 0 for sub in a.submissions
                       if sub.student.id in {s.id for s in students}
                       and not self.is_blank(a.name, sub.student.id))
            header += [f"{a.name} {_question_label(name)}" for name, _ in grade_cells]
            maxima += [_points(m) for _, m in grade_cells]
            if late:
                header.append(f"{a.name} late penalty")
                maxima.append("0")
            columns.append((a.name, grade_cells, late))
        rows = []
        for s in students:
            row = self.student_cells(s)
            for name, grade_cells, late in columns:
                width = len(grade_cells) + late if self.questions else 1
                if self.is_blank(name, s.id) or self.is_missing(name, s.id):
                    row += [""] * width
                    continue
                sub = gradebook.find_submission(name, s.id)
                scores = {g.name: g for nb in sub.notebooks for g in nb.grades}
                penalty = sub.late_submission_penalty or 0.0
                if self.questions:
                    row += [_points(scores[c].score) if c in scores else "0"
                            for c, _ in grade_cells]
                    if late:
                        row.append(_points(-penalty))
                else:
                    row.append(_points(max(0.0, sub.score - penalty)))
            rows.append(row)
        return header, maxima, rows

    def write(self, gradebook: Any) -> None:
        """Write the table to ``--to`` (default: ``canvas_grades.csv`` / ``moodle_grades.csv``).

        Parameters
        ----------
        gradebook : nbgrader.api.Gradebook
            The course's gradebook.
        """
        dest = self.to or self.default_file
        header, maxima, rows = self.table(gradebook)
        self.log.info("Exporting %d students' grades in %d columns to %s", len(rows),
                      len(header) - len(self.id_columns), dest)
        with open(dest, "w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(header)
            writer.writerows(self.extra_rows(maxima))
            writer.writerows(rows)


class CanvasExport(_LmsExport):
    """Grades as a Canvas gradebook CSV (Grades > Import): ``nbgrader export --exporter
    chutes_teacher.gradebook.CanvasExport --to canvas.csv``.

    The columns :data:`CANVAS_COLUMNS`, then one per set (or, with
    ``--CanvasExport.questions=True``, one per graded cell and a late-penalty column instead),
    and a second row "Points Possible". ``Student`` is "Last, First"; ``ID`` is the roster's
    ``lms_user_id`` (Canvas's own user id, if you have it); ``SIS User ID`` is the nbgrader
    student id; ``SIS Login ID`` and ``Section`` are left empty (Canvas matches a student on any
    one of the ids). The CSV has no e-mail column: Canvas would take it for an assignment.
    """

    section = Unicode("", help="The Section column's value for every student.").tag(config=True)
    default_file = "canvas_grades.csv"
    id_columns = CANVAS_COLUMNS

    def student_cells(self, student: Any) -> list[str]:
        """Student, ID, SIS User ID, SIS Login ID, Section."""
        name = ", ".join(p for p in (student.last_name, student.first_name) if p) or student.id
        return [name, student.lms_user_id or "", student.id, "", self.section]

    def extra_rows(self, maxima: list[str]) -> list[list[str]]:
        """The "Points Possible" row Canvas's own export has (new assignments take it)."""
        return [["Points Possible", "", "", "", "", *maxima]]


class MoodleExport(_LmsExport):
    """Grades as a CSV for Moodle's "Import grades from CSV": ``nbgrader export --exporter
    chutes_teacher.gradebook.MoodleExport --to moodle.csv``.

    The columns :data:`MOODLE_COLUMNS` (``ID number`` is the nbgrader student id), then one per
    set (or, with ``--MoodleExport.questions=True``, one per graded cell and a late-penalty
    column instead). At import, map "Email address" to the users' e-mail address (or "ID number"
    to their ID number) and each column to a grade item.
    """

    default_file = "moodle_grades.csv"
    id_columns = MOODLE_COLUMNS

    def student_cells(self, student: Any) -> list[str]:
        """First name, Last name, ID number, Email address."""
        return [student.first_name or "", student.last_name or "", student.id,
                student.email or ""]


# ----------------------------------------------------------------------------- the course folder

def setup_course(course: str | Path, repo: str | Path, roster: str | Path | None = None,
                 schedule: str | Path | None = None, timezone: str | None = None,
                 generate: bool = True) -> list[str]:
    """Make (or bring up to date) an nbgrader course folder from the repository.

    Idempotent: the configuration and each set's source notebook are copied only when missing;
    a file that differs from the repository's is kept (it is reported: you may have edited it).

    Parameters
    ----------
    course : str or pathlib.Path
        The course folder to make, e.g. ``../chutes-course-grading``.
    repo : str or pathlib.Path
        The course repository (its ``nbgrader_config.py`` and ``solutions/``).
    roster, schedule : str or pathlib.Path, optional
        Imported when given (:func:`import_roster`, :func:`import_schedule`).
    timezone : str, optional
        The class's time zone (an IANA name): the schedule's dates without an offset are in it,
        and the course folder's ``nbgrader_config.py`` gets it as the zone of the due date
        students see (:func:`set_class_timezone`).
    generate : bool
        Run ``nbgrader generate_assignment`` for the sets (sets already generated are skipped;
        about 15 seconds for all twelve).

    Returns
    -------
    list of str
        What was done, one line each.
    """
    from chutes_edu.course import course_lessons, lesson_stem, set_stem

    course, repo = Path(course).resolve(), Path(repo).resolve()
    if not (repo / "nbgrader_config.py").is_file() or not (repo / "solutions").is_dir():
        raise ValueError(f"{repo} is not the course repository (no nbgrader_config.py or "
                         "solutions/)")
    done: list[str] = []

    def place(src: Path, dest: Path) -> None:
        if not dest.exists():
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
            done.append(f"copied {dest.relative_to(course)}")
        elif not filecmp.cmp(src, dest, shallow=False):
            done.append(f"kept {dest.relative_to(course)} (it differs from "
                        f"{src.relative_to(repo)}: yours is kept)")

    course.mkdir(parents=True, exist_ok=True)
    place(repo / "nbgrader_config.py", course / "nbgrader_config.py")
    if timezone:
        done += set_class_timezone(course, timezone)
    names = []
    for lesson in course_lessons(repo):
        name = set_stem(lesson_stem(lesson.solutions.stem), "exercises")
        names.append(name)
        place(repo / lesson.solutions, course / "source" / name / f"{name}.ipynb")
    if roster is not None:
        done.append(f"imported {len(import_roster(roster, course))} students from {roster}")
    if schedule is not None:            # before generating: the release shows each due date
        done.append(f"set {len(import_schedule(schedule, course, timezone))} due dates from "
                    f"{schedule}")
    if generate:
        log = _nbgrader(["generate_assignment", "[0-9][0-9]_exercises_*"], course).stderr
        made = log.count("Writing ")
        done.append(f"generated {made} set(s) into release/"
                    + (f"; {len(names) - made} already there" if made < len(names) else ""))
    return done


_TIMEZONE_LINE = re.compile(r"^c\.DueDateInRelease\.timezone\s*=.*$", re.M)


def set_class_timezone(course: str | Path, timezone: str) -> list[str]:
    """Make the due date students see use the class's time zone, in the course folder's config.

    Sets ``c.DueDateInRelease.timezone`` in ``<course>/nbgrader_config.py`` (the line the course's
    file has for it, or a new line at its end): every set generated from then on opens with its
    due date in that zone, the zone named ("... (Europe/Berlin time)").

    Parameters
    ----------
    course : str or Path
        The course folder (its ``nbgrader_config.py`` must exist).
    timezone : str
        An IANA name such as ``"Europe/Berlin"``.

    Returns
    -------
    list of str
        What was done, in words (nothing when the file says so already; a reminder when sets
        were generated before with another zone).

    Raises
    ------
    ValueError
        For a name that is not a time zone.
    """
    _zone(timezone)
    config = Path(course) / "nbgrader_config.py"
    text = config.read_text(encoding="utf-8")
    line = f"c.DueDateInRelease.timezone = {json.dumps(timezone)}"
    found = _TIMEZONE_LINE.findall(text)
    if found and found[-1] == line:
        return []
    if found:
        start = list(_TIMEZONE_LINE.finditer(text))[-1]
        text = text[:start.start()] + line + text[start.end():]
    else:
        text = (text.rstrip("\n") + "\n\n# Students see each set's due date in this time zone.\n"
                + line + "\n")
    config.write_text(text, encoding="utf-8")
    done = [f"set the time zone of the due dates students see to {timezone} (nbgrader_config.py)"]
    generated = sorted(p.name for p in (Path(course) / "release").glob("*") if p.is_dir())
    if generated:
        done.append(f"  sets generated before keep their old due-date line: nbgrader "
                    f"generate_assignment SET --force for each not yet released ("
                    f"{', '.join(generated[:3])}{' ...' if len(generated) > 3 else ''})")
    return done


_NEXT = """
Next, in {course}, with {bin} on your PATH:
  1. {course_id}
  2. release a set:     nbgrader release_assignment 01_exercises_waiting_for_heads
                        (or, without a hub, hand the notebook out through your LMS: TEACHING.md,
                        "A class without a hub")
  3. after the deadline: nbgrader collect 01_exercises_waiting_for_heads (or nbgrader zip_collect
                        for LMS uploads), then, in the repository:
                        make autograde SET=01_exercises_waiting_for_heads JOBS=2
                        (here: python -m chutes_teacher.autograde 01_exercises_waiting_for_heads)
  4. hand grading:      jupyter lab, then Nbgrader > Formgrader
  5. extensions:        python -m chutes_teacher.gradebook extensions extensions.csv --course .
  6. grades:            nbgrader export --exporter chutes_teacher.gradebook.CanvasExport
                        --to canvas.csv
                        (or chutes_teacher.gradebook.MoodleExport)
  Due dates and roster later: python -m chutes_teacher.gradebook schedule|roster FILE --course .
TEACHING.md, "Running the course with nbgrader", says more."""


def _course_id_step(course: Path) -> str:
    """The first step after ``setup``: set the course id only when nbgrader_config.py has none."""
    try:
        course_id = _course_config(course)[1]
    except Exception as err:      # any config error is reported, not raised, here
        return f"check nbgrader_config.py: it does not load ({err})"
    if not course_id:
        return "set course_id (and your exchange) in nbgrader_config.py"
    return (f"the course id is {course_id!r} (nbgrader_config.py); on a shared JupyterHub, add "
            "the exchange settings your hub administrator gives you")


def main(argv: list[str] | None = None) -> int:
    """The command line: ``python -m chutes_teacher.gradebook setup|roster|schedule|extensions``.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: the process's).

    Returns
    -------
    int
        0 on success, 2 when a file has bad rows (they are printed).
    """
    parser = argparse.ArgumentParser(prog="python -m chutes_teacher.gradebook",
                                     description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    setup = sub.add_parser("setup", help="make or update the nbgrader course folder")
    setup.add_argument("--course", default="../chutes-course-grading")
    setup.add_argument("--repo", default=".", help="the course repository (default: .)")
    setup.add_argument("--roster")
    setup.add_argument("--schedule")
    setup.add_argument("--timezone")
    setup.add_argument("--no-generate", action="store_true",
                       help="leave nbgrader generate_assignment to later")
    for command, helptext in [("roster", "check a roster CSV and import it"),
                              ("schedule", "set the sets' due dates (CSV or TOML)"),
                              ("extensions", "give students extensions (CSV)")]:
        cmd = sub.add_parser(command, help=helptext)
        cmd.add_argument("file")
        cmd.add_argument("--course", default=".", help="the course folder (default: .)")
        if command != "roster":
            cmd.add_argument("--timezone", help="IANA time zone of dates without an offset")
        else:
            cmd.add_argument("--check", action="store_true", help="only check the file")
    args = parser.parse_args(argv)
    try:
        if args.command == "setup":
            lines = setup_course(args.course, args.repo, args.roster, args.schedule,
                                 args.timezone, generate=not args.no_generate)
            print("\n".join(lines) if lines else "the course folder is up to date")
            print(_NEXT.format(course=Path(args.course).resolve(),
                               bin=Path(sys.executable).parent,
                               course_id=_course_id_step(Path(args.course))))
        elif args.command == "roster":
            students = read_roster(args.file) if args.check else import_roster(args.file,
                                                                               args.course)
            print(f"{len(students)} students {'checked' if args.check else 'imported'}")
        elif args.command == "schedule":
            due = import_schedule(args.file, args.course, args.timezone)
            for name, when in due.items():
                print(f"{name}: due {when:%Y-%m-%d %H:%M} UTC")
        else:
            granted = grant_extensions(args.file, args.course, args.timezone)
            print(f"{len(granted)} extension(s) granted")
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except RuntimeError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
