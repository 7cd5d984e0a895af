"""nbgrader's configuration for a course built from this repository (see TEACHING.md).

Copy this file into your nbgrader course folder (the folder that holds ``source/``), set
``course_id`` (and, on a shared JupyterHub, the exchange settings your hub administrator gives
you), and copy each exercise set from ``solutions/`` into ``source/<assignment>/``:

    source/01_waiting_for_heads/01_waiting_for_heads.ipynb

``tests/test_nbgrader.py`` runs nbgrader with this very file: generate_assignment, autograde,
validate.
"""

import sys
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from nbconvert.preprocessors import Preprocessor
from nbgrader.api import MissingEntry  # type: ignore[import-untyped]
from nbgrader.converters import Autograde, GenerateAssignment  # type: ignore[import-untyped]
from nbgrader.preprocessors import Execute, OverwriteCells  # type: ignore[import-untyped]

# The course library this file grades with: the version of the repository it came from. Grading
# without it, or with another version, would judge every answer wrongly, so nbgrader stops here
# with the reason before any notebook runs (an exception would only be logged, and nbgrader would
# go on without this file; SystemExit is not caught).
COURSE_VERSION = "0.1.0"
try:
    INSTALLED = version("chutes_edu")
    import chutes_edu.grading  # noqa: F401 - the grading step below needs it
except (PackageNotFoundError, ImportError) as err:
    sys.exit(f"nbgrader_config.py: the course library chutes_edu cannot be imported by this Python "
             f"({sys.executable}): {err}. Install the course here before grading: "
             "pip install -e '<the course repository>[teacher]' (TEACHING.md).")
if INSTALLED != COURSE_VERSION:
    sys.exit(f"nbgrader_config.py: this Python has chutes_edu {INSTALLED}, and this file grades "
             f"with chutes_edu {COURSE_VERSION}. Install the course's version, or copy the "
             "nbgrader_config.py of the version you have (TEACHING.md).")
# The student copy of the course (the `student` branch, `make student`) has no answer checks: a
# hub image built from it would give every answer 0.
from chutes_edu.checks import exercise_ids  # noqa: E402 - only once the library is known to be there

if not exercise_ids():
    sys.exit("nbgrader_config.py: this Python's chutes_edu has no answer checks "
             "(chutes_edu/checks/lessonNN.py): it is the student copy of the course. Grade with "
             "the course installed from main: pip install -e '<a clone of main>[teacher]' "
             "(TEACHING.md).")

c = get_config()  # type: ignore[name-defined]  # noqa: F821 - nbgrader provides get_config()

# What the teacher reads (collect's log, formgrader's autograde pop-up) says only what one can act
# on: no empty warning lines, no DEBUG flood, no SQLAlchemy warnings (chutes_teacher.gradebook).
from chutes_teacher.gradebook import tidy_teacher_logs  # noqa: E402

tidy_teacher_logs()

# Your course's name: nbgrader's database and the exchange file submissions under it.
c.CourseDirectory.course_id = "chutes_edu"

# The stub that replaces a solution: the same as tools/make_exercises.py writes into exercises/
# (a test keeps them equal). It never raises, so "Run All" on an untouched notebook runs to the
# end: every self-check says "not yet: no answer given" and no cell shows a traceback.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# Released notebooks carry no outputs (nbgrader clears them: the solutions are saved executed) and
# no saved widget state or execution timings either (nbgrader keeps those; this step drops them).
class ClearWidgetState(Preprocessor):
    """Drop the notebook's saved widget state and the cells' execution timings."""

    def preprocess(self, nb: Any, resources: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        nb.metadata.pop("widgets", None)
        for cell in nb.cells:
            cell.metadata.pop("execution", None)
        return nb, resources


# Students see each set's due date at the top of its notebooks (nbgrader's Assignments tab shows
# none): the gradebook's due date when the set is generated, in the time zone below (an IANA name
# such as "Europe/Berlin"; `make teacher` imports the schedule before it generates).
from chutes_teacher.gradebook import DueDateInRelease  # noqa: E402

c.DueDateInRelease.enabled = True
c.DueDateInRelease.timezone = "UTC"
c.ClearWidgetState.enabled = True
c.GenerateAssignment.preprocessors = [
    *GenerateAssignment.class_traits()["preprocessors"].default(), ClearWidgetState,
    DueDateInRelease]

# The hidden tests start one grader process per notebook (about two seconds); some checks simulate
# thousands of games. A cell may take up to two minutes when 30 notebooks are graded on a small
# machine.
c.Execute.timeout = 120


# The grade is decided outside the student's kernel. The hidden tests only record each answer as
# plain data (chutes_edu.grading.record); right after the notebook has run, this step judges the
# records in a fresh Python that never ran the student's code and writes the verdict into each test
# cell: a line when right, an error (no points) when not or when no answer was recorded. Nothing a
# notebook patches (runpy, sys.modules, numpy, IPython's tracebacks ...) reaches the verdict.
class DecideGrades(Preprocessor):
    """Judge the answers the hidden tests recorded, in a fresh process (chutes_edu.grading)."""

    def preprocess(self, nb: Any, resources: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        from chutes_edu.grading import decide_notebook

        student = resources.get("nbgrader", {}).get("student")
        return decide_notebook(nb, student=student), resources


# Each submission runs in a sandbox of its own (chutes_teacher.sandbox, TEACHING.md "What the
# sandbox protects"): a copy of its folder, the course library without the answer checks, no
# course folder, gradebook, other submission, home folder, secret or network, limits on memory,
# processes and CPU, and a time limit per notebook besides the one per cell above. With no
# sandbox (bubblewrap missing or not allowed here) autograde refuses; to grade unconfined anyway,
# knowingly: c.SandboxedExecute.allow_unsandboxed = True.
# With a course secret (CHUTES_COURSE_SECRET, the same as on the students' hub) every student has
# their own numbers (chutes_edu.variants). A submission is re-run with its student's numbers (its
# kernel, and only that kernel, is told whose it is: CHUTES_STUDENT_ID), and DecideGrades judges
# it against that student's numbers, whatever the kernel used.
from chutes_teacher.sandbox import SandboxedExecute  # noqa: E402 - after the version check above

c.SandboxedExecute.notebook_timeout = 300     # seconds for a whole notebook; 0: no limit
c.SandboxedExecute.memory_limit = 2 * 1024 ** 3
c.SandboxedExecute.process_limit = 64

c.DecideGrades.enabled = True
_steps = list(Autograde.class_traits()["autograde_preprocessors"].default())
_run = _steps.index(Execute)
c.Autograde.autograde_preprocessors = [
    *_steps[:_run], SandboxedExecute, DecideGrades, *_steps[_run + 1:]]


# Late work (TEACHING.md, "Roster, due dates, extensions and late work"): a set handed in after its
# due date, or after the student's extension, loses 10% of its score per started day late (one
# hour late: 10%; three days: 30%), at most 100%, never below 0, to the hundredth of a point
# (halves up). Change the two numbers below to change the rule (e.g. 5 and 50); to grade late work
# in full, delete the four lines below. Due dates and extensions: python -m chutes_teacher.gradebook
# schedule / extensions.
from chutes_teacher.gradebook import (  # noqa: E402 - after the version check above
    GradesCsvExport,
    LatePenaltyPerDay,
    SaveAutoGradesKeepingHandGrades,
)

c.AssignLatePenalties.plugin_class = LatePenaltyPerDay
c.LatePenaltyPerDay.percent_per_day = 10.0
c.LatePenaltyPerDay.max_percent = 100.0

# One penalty everywhere. Autograde computes it from the score it sees, before any hand grading;
# the feedback computes it again from the final score (the same step, AssignLatePenalties, before
# nbgrader reads the grades) and so does every export (grades.csv, Canvas, Moodle), each storing
# it in the gradebook: formgrader, the feedback and the files show the same number.
from nbgrader.converters import GenerateFeedback  # noqa: E402
from nbgrader.preprocessors import AssignLatePenalties, SaveAutoGrades  # noqa: E402

c.GenerateFeedback.preprocessors = [
    AssignLatePenalties, *GenerateFeedback.class_traits()["preprocessors"].default()]
# `nbgrader export` writes grades.csv with the course's checks: it refuses (naming them) when a
# submission's latest autograde failed or is missing, and leaves out the sets nobody handed in.
c.ExportApp.plugin_class = GradesCsvExport

# A hand grade stays a hand grade: nbgrader keeps a grade and a comment given in formgrader through
# a re-autograde (nbgrader autograde --force, formgrader's autograde button) but marks the answer
# "needs manual grade" again; this step leaves it graded. (It replaces SaveAutoGrades in whatever
# list of autograde steps the lines above chose.)
c.Autograde.autograde_preprocessors = [
    SaveAutoGradesKeepingHandGrades if step is SaveAutoGrades else step
    for step in c.Autograde.autograde_preprocessors]


# nbgrader restores every locked cell from its gradebook and warns when a submitted one differs.
# The released test cells lack their hidden tests, so it warned for every test cell of every
# student and real tampering drowned in the noise. This step warns only when a locked cell differs
# from what was released (the source without its hidden tests), which only an edit can cause.
def _released_text(source: str) -> str:
    from chutes_edu.grading import HIDDEN_TESTS

    lines = [line.rstrip() for line in HIDDEN_TESTS.sub("", source).splitlines()]
    return "\n".join(lines).strip()


class OverwriteCellsWarnOnEdits(OverwriteCells):
    """nbgrader's OverwriteCells, warning about a locked cell only when a student changed it."""

    as_released = False

    def preprocess_cell(self, cell: Any, resources: dict[str, Any],
                        cell_index: int) -> tuple[Any, dict[str, Any]]:
        self.as_released = False
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id is not None:
            try:
                source = self.gradebook.find_source_cell(grade_id, self.notebook_id,
                                                         self.assignment_id)
                self.as_released = (source.locked and _released_text(source.source)
                                    == _released_text(cell.source))
            except MissingEntry:
                pass
        return super().preprocess_cell(cell, resources, cell_index)

    def report_change(self, name: str, attr: str, old: Any, new: Any) -> None:
        if attr == "checksum" and self.as_released:
            return                  # the release left out the hidden tests: not an edit
        if attr == "checksum":
            self.log.warning("Cell %s was edited by the student: it is graded as released "
                             "(nbgrader restores it)", name)
            return
        super().report_change(name, attr, old, new)


_sanitize = list(Autograde.class_traits()["sanitize_preprocessors"].default())
c.Autograde.sanitize_preprocessors = [
    OverwriteCellsWarnOnEdits if step is OverwriteCells else step for step in _sanitize]
