"""A class without a hub, end to end (issue 48.2 and 48.4): LMS uploads in, feedback and grades out.

Three students upload set 1 to the LMS (the worked solutions; the same, resubmitted and late; the
untouched release under a browser's "(1)" name) and a stranger's file and a note come with them.
The teacher downloads everything as Canvas names it, imports it with nbgrader's ``zip_collect``
and ``chutes_teacher.lms.CanvasCollector`` (matched through the roster's ``lms_user_id``),
autogrades with the batch command (a line per submission as it finishes, with lateness and
penalty; a second run without ``--force`` skips them and says so), generates the feedback and
packs it for Canvas's bulk re-upload (each file read back by Canvas's own rule: the first two
numbers of its name are the user and the attachment), and exports the Canvas grades file. Then
the same download as Moodle names it (a folder per student, a flat file, a stranger) goes through
``MoodleCollector`` and the feedback is packed for Moodle's "Upload multiple feedback files in a
zip" (its rule: ``<full name>_<participant id>_assignfeedback_file_<file>``); a blind-marking
download ("Participant_<id>") is matched through the grading worksheet's e-mail addresses.
"""

from __future__ import annotations

import csv
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

from chutes_teacher.sandbox import sandbox_problem
from tests.shared_course import released_course
from tests.support import NBGRADER_BIN, ROOT, nbgrader, released_name

pytestmark = pytest.mark.slow

SOLUTION = ROOT / "solutions" / "01_solutions_waiting_for_heads.ipynb"
SET = Path(released_name(SOLUTION)).stem
ROSTER = ("id,first_name,last_name,email,lms_user_id\n"
          "s1,Ada,Lovelace,ada@example.edu,1001\n"
          "s2,Alan,Turing,alan@example.edu,1002\n"
          "s3,Grace,Hopper,grace@example.edu,1003\n")
# Canvas's "Download Submissions": <name>_[LATE_]<user id>_<attachment id>_<the student's file>
CANVAS = {"lovelaceada_1001_555001_{set}.ipynb": "solution",
          "turingalan_LATE_1002_555002_{set}-1.ipynb": "solution",
          "hoppergrace_1003_555003_my notebook (1).ipynb": "release",
          "strangerjo_9999_555009_{set}.ipynb": "solution",
          "lovelaceada_1001_555004_notes.txt": "text"}
# Moodle's "Download all submissions": a folder per student (its default), or flat files
MOODLE = {"Ada Lovelace_2001_assignsubmission_file/{set}.ipynb": "solution",
          "Alan Turing_2002_assignsubmission_file_{set}.ipynb": "solution",
          "Grace Hopper_2003_assignsubmission_file/Copy of {set}.ipynb": "release",
          "Jo Stranger_2009_assignsubmission_file/{set}.ipynb": "solution"}


def _archive(course: Path, files: dict[str, str], zip_name: str) -> None:
    """The LMS's zip, as downloaded, where zip_collect looks for it."""
    archive = course / "downloaded" / SET / "archive"
    shutil.rmtree(archive, ignore_errors=True)
    archive.mkdir(parents=True)
    release = course / "release" / SET / f"{SET}.ipynb"
    contents = {"solution": SOLUTION.read_bytes(), "release": release.read_bytes(),
                "text": b"my notes\n"}
    with zipfile.ZipFile(archive / zip_name, "w") as zf:
        for name, what in files.items():
            zf.writestr(name.format(set=SET), contents[what])


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": f"{NBGRADER_BIN}:/usr/bin:/bin", "OPENBLAS_NUM_THREADS": "1",
           "HOME": str(cwd)}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=1800, check=False)


def _canvas_reads(name: str) -> tuple[str, str]:
    """Canvas's re-upload rule: the first two all-digit parts of the name, split at "_"."""
    user, attachment = [part for part in Path(name).name.split("_") if part.isdigit()][:2]
    return user, attachment


def _moodle_reads(name: str) -> tuple[str, str, str]:
    """Moodle's feedback zip rule: fullname_participantid_plugintype_pluginname_file."""
    parts = name.split("_", 4)
    assert len(parts) == 5 and parts[1].isdigit(), name
    return parts[1], f"{parts[2]}_{parts[3]}", parts[4]


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if sandbox_problem("bwrap"):
        pytest.skip(f"no sandbox here: {sandbox_problem('bwrap')}")
    root = tmp_path_factory.mktemp("lms") / "course"
    released_course(tmp_path_factory, root, SET, [SOLUTION])
    (root / "roster.csv").write_text(ROSTER)
    (root / "schedule.csv").write_text(f"set,due\n{SET},2026-02-06 12:00+00:00\n")
    for step in (["roster", "roster.csv"], ["schedule", "schedule.csv"]):
        done = _run("-m", "chutes_teacher.gradebook", *step, "--course", ".", cwd=root)
        assert done.returncode == 0, done.stderr
    return root


@pytest.fixture(scope="module")
def canvas_round(course: Path) -> dict[str, str]:
    _archive(course, CANVAS, "submissions.zip")
    collect = nbgrader("zip_collect", SET, "--collector", "chutes_teacher.lms.CanvasCollector",
                       cwd=course)
    # a hub-style collected time for s2: 25 hours after the due date (two started days: 20%)
    (course / "submitted" / "s2" / SET / "timestamp.txt").write_text(
        "2026-02-07 13:00:00.000000 UTC")
    first = _run("-m", "chutes_teacher.autograde", SET, "--jobs", "2", cwd=course)
    again = _run("-m", "chutes_teacher.autograde", SET, "--jobs", "2", cwd=course)
    feedback = nbgrader("generate_feedback", SET, cwd=course)
    pack = _run("-m", "chutes_teacher.lms", "feedback", SET, "--lms", "canvas", cwd=course)
    export = nbgrader("export", "--exporter", "chutes_teacher.gradebook.CanvasExport", "--to",
                      "canvas.csv", cwd=course)
    return {"collect": collect.stderr, "first": first.stdout + first.stderr,
            "again": again.stdout + again.stderr, "feedback": feedback.stderr,
            "pack": pack.stdout + pack.stderr, "export": export.stderr,
            "codes": repr((collect.returncode, first.returncode, again.returncode,
                           feedback.returncode, pack.returncode, export.returncode))}


def test_canvas_downloads_are_collected_for_the_rosters_students(
        course: Path, canvas_round: dict[str, str]) -> None:
    assert canvas_round["codes"] == repr((0,) * 6), canvas_round
    for student in ("s1", "s2", "s3"):     # the set's notebook, whatever the student named it
        assert (course / "submitted" / student / SET / f"{SET}.ipynb").is_file()
    assert sorted(p.name for p in (course / "submitted").iterdir()) == ["s1", "s2", "s3"]
    log = canvas_round["collect"]
    assert "strangerjo_9999_555009" in log and "no student of the roster has lms_user_id 9999" \
        in log
    assert "notes.txt: not a notebook" in log
    assert "s2: Canvas marked it late" in log


def test_the_batch_autograde_says_each_submission_as_it_finishes(
        canvas_round: dict[str, str]) -> None:
    lines = canvas_round["first"].splitlines()
    done = [line for line in lines if re.search(r"  \[\d/3\]$", line)]
    assert sorted(line[-5:] for line in done) == ["[1/3]", "[2/3]", "[3/3]"], lines
    by = {line.split()[0]: line for line in done}
    points = re.search(r"graded\s+(\S+) of (\S+) points\s+on time", by["s1"])
    assert points and float(points.group(1)) > 0, by["s1"]     # the worked solutions (their
    # written answers wait for hand grading)
    assert re.search(r"graded\s+0 of \S+ points\s+on time", by["s3"]), by["s3"]
    late = re.search(r"graded\s+(\S+) of (\S+) points\s+late by 1 day 1 h, penalty (\S+)",
                     by["s2"])
    assert late, by["s2"]
    raw = float(points.group(1))             # the same notebook as s1's, 25 hours late: 20% off
    assert float(late.group(3)) == pytest.approx(0.2 * raw)
    assert float(late.group(1)) == pytest.approx(0.8 * raw)
    assert re.search(r"^3 graded, 0 failed, 0 skipped \(already graded\), in \d+ s \(.* a "
                     r"submission; \d+ CPU seconds", canvas_round["first"], re.M)
    again = canvas_round["again"]
    assert again.count("skipped (already graded)") == 4, again        # 3 lines and the total
    assert re.search(r"^0 graded, 0 failed, 3 skipped \(already graded\)", again, re.M)


def test_feedback_is_packed_for_canvas_re_upload_and_grades_match(
        course: Path, canvas_round: dict[str, str]) -> None:
    pack = course / f"feedback_canvas_{SET}.zip"
    with zipfile.ZipFile(pack) as zf:
        names = zf.namelist()
    assert {_canvas_reads(name) for name in names} == {("1001", "555001"), ("1002", "555002"),
                                                       ("1003", "555003")}, names
    assert all(name.endswith(f"_{SET}.html") for name in names)
    assert "display_data_priority" not in canvas_round["feedback"], canvas_round["feedback"]
    assert canvas_round["feedback"].count("Late submission penalty") <= 1, canvas_round["feedback"]
    with (course / "canvas.csv").open(newline="") as fh:
        rows = {row["ID"]: row[SET] for row in csv.DictReader(fh) if row["ID"]}
    late = re.search(r"s2 .*?graded\s+(\S+) of", canvas_round["first"])
    assert late and rows["1002"] == late.group(1)            # the autograde line's number
    feedback = (course / "feedback" / "s2" / SET / f"{SET}.html").read_text()
    assert f"(Score: {round(float(late.group(1)), 2)} / " in feedback          # the same number


def test_moodle_downloads_are_collected_and_feedback_packed_for_moodle(
        course: Path, canvas_round: dict[str, str], tmp_path: Path) -> None:
    _archive(course, MOODLE, "moodle-download.zip")
    collect = nbgrader("zip_collect", SET, "--force", "--collector",
                       "chutes_teacher.lms.MoodleCollector", cwd=course)
    assert collect.returncode == 0, collect.stderr[-3000:]
    assert "Jo Stranger" in collect.stderr and "no student of the roster matches" in collect.stderr
    for student in ("s1", "s2", "s3"):
        assert (course / "submitted" / student / SET / f"{SET}.ipynb").is_file()
    pack = _run("-m", "chutes_teacher.lms", "feedback", SET, "--lms", "moodle", "--to",
                str(tmp_path / "moodle.zip"), cwd=course)
    assert pack.returncode == 0, pack.stderr
    with zipfile.ZipFile(tmp_path / "moodle.zip") as zf:
        read = {_moodle_reads(name) for name in zf.namelist()}
    assert read == {(p, "assignfeedback_file", f"{SET}.html") for p in ("2001", "2002", "2003")}

    # blind marking: Moodle names everyone "Participant"; the grading worksheet says who
    blind = {"Participant_2001_assignsubmission_file/{set}.ipynb": "solution"}
    _archive(course, blind, "blind.zip")
    (course / "worksheet.csv").write_text(
        "Identifier,Full name,Email address,Status,Grade\n"
        "Participant 2001,Ada Lovelace,ada@example.edu,Submitted,\n")
    collect = nbgrader("zip_collect", SET, "--force", "--collector",
                       "chutes_teacher.lms.MoodleCollector",
                       "--MoodleCollector.worksheet=worksheet.csv", cwd=course)
    assert collect.returncode == 0, collect.stderr[-3000:]
    assert nbformat.read(course / "submitted" / "s1" / SET / f"{SET}.ipynb", as_version=4)
