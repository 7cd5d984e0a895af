"""The teacher's modules whose own tests start nbgrader rounds or servers (all ``slow``), each met
once in `make test-fast` with known answers: the LMS collectors' file names (Canvas, Moodle), the
command formgrader's Autograde button runs, and the late penalty wired into formgrader's data."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from chutes_teacher.lms import CanvasCollector, MoodleCollector
from chutes_teacher.penalised_scores import show_penalised_scores
from chutes_teacher.server_extension import autograde_command


def test_canvas_and_moodle_names_give_the_file_and_the_prefix_their_upload_reads_back() -> None:
    canvas = CanvasCollector()
    groups, prefix = canvas.parse(Path("lovelaceada_LATE_1001_555001_01_exercises.ipynb"))
    assert (groups["lms_user_id"], groups["file_name"]) == ("1001", "01_exercises.ipynb")
    assert prefix == "lovelaceada_LATE_1001_555001"
    assert canvas.parse(Path("lovelaceada_1001_555001_x.ipynb"))[1] == "lovelaceada_1001_555001"
    assert canvas.parse(Path("notes.txt")) is None
    groups, prefix = MoodleCollector().parse(
        Path("Ada Lovelace_2001_assignsubmission_file_01_exercises.ipynb"))
    assert (groups["participant_id"], groups["file_name"]) == ("2001", "01_exercises.ipynb")
    assert prefix == "Ada Lovelace_2001"


def test_formgraders_autograde_button_grades_one_submission_again_in_the_servers_python() -> None:
    assert autograde_command(Path("/course"), "01_exercises", "ada") == [
        sys.executable, "-m", "chutes_teacher.autograde", "01_exercises", "--student", "ada",
        "--force", "--jobs", "1", "--course", "/course"]


def test_penalised_scores_wrap_formgraders_four_readers_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    api = pytest.importorskip("nbgrader.apps.api").NbGraderAPI
    readers = ("get_submissions", "get_submission", "get_notebook_submissions",
               "get_student_notebook_submissions")
    for name in readers:                    # put back as they were when the test ends
        monkeypatch.setattr(api, name, getattr(api, name))
    before = {name: getattr(api, name) for name in readers}
    show_penalised_scores()
    wrapped = {name: getattr(api, name) for name in readers}
    assert all(wrapped[name] is not before[name] for name in readers)
    show_penalised_scores()                 # a second call changes nothing
    assert {name: getattr(api, name) for name in readers} == wrapped
