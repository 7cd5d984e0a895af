"""The course's nbgrader configuration, in one function for every process that starts nbgrader.

nbgrader reads its settings from Jupyter's config path (``<prefix>/etc/jupyter``,
``/etc/jupyter``, ``JUPYTER_CONFIG_PATH``), from the working folder and from the course folder's
``nbgrader_config.py``. A Jupyter server reads that last file **once, when it starts**
(nbgrader's ``NbGrader.initialize``); the rest it reads again at every formgrader request. A
teacher who made the course folder inside a running server (hub/README.md's own order) therefore
autograded with nbgrader's plain ``Execute``: no sandbox, the teacher's hub token in the kernel,
no ``DecideGrades`` (so the worked solutions scored 0). Nothing refused.

So the course's settings live here, in :func:`configure`, and every place calls it:

- the course folder's ``nbgrader_config.py`` (every ``nbgrader`` command run there);
- the teacher's server, through its Jupyter config path: ``/etc/jupyter/teacher/nbgrader_config.py``
  on a hub (``hub/config.yaml``) and ``<.venv-teacher>/etc/jupyter/nbgrader_config.py`` on a
  laptop (``make teacher``), both calling :func:`configure_teacher_server`. That file is read
  again at every formgrader request, so autograde is sandboxed from the server's first second,
  whether or not the course folder existed when it started, and the course folder's own file
  (the teacher's numbers: penalty, time zone, time limits) is read with it each time, so an edit
  needs no restart.

What :func:`configure` sets, and why (TEACHING.md says it for teachers):

- each submission's kernel in a bubblewrap sandbox
  (:class:`chutes_teacher.sandbox.SandboxedExecute`), refusing where none can be made; the grade
  decided afterwards by :class:`DecideGrades` in a fresh Python that never ran student code
  (:mod:`chutes_edu.grading`);
- student HTML made inert wherever the teacher looks at it: formgrader's pages and every feedback
  file (:mod:`chutes_teacher.inert`);
- the release: the same stub as ``exercises/`` (``tools/make_exercises.py``), no saved widget
  state, the due date in the class's time zone;
- late work, one penalty everywhere (autograde, feedback, every export), hand grades kept through a
  re-autograde, locked cells restored with a warning only when a student edited one.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from nbconvert.preprocessors import Preprocessor
from nbgrader.api import MissingEntry  # type: ignore[import-untyped]
from nbgrader.converters import (  # type: ignore[import-untyped]
    Autograde,
    GenerateAssignment,
    GenerateFeedback,
)
from nbgrader.preprocessors import (  # type: ignore[import-untyped]
    AssignLatePenalties,
    Execute,
    OverwriteCells,
    SaveAutoGrades,
)

__all__ = ["CODE_STUB", "COURSE_ID", "TEACHER_LAB_PLUGINS", "TEACHER_SERVER_EXTENSIONS",
           "ClearWidgetState", "DecideGrades", "OverwriteCellsWarnOnEdits", "configure",
           "configure_teacher_server", "load_course_config", "write_teacher_settings"]

COURSE_ID = "chutes_edu"
"""The course's id in nbgrader's gradebook and exchange (the students' config names it too)."""

CODE_STUB = "# YOUR CODE HERE"
"""What replaces a solution in a released notebook: the same as ``tools/make_exercises.py``
writes into ``exercises/`` (a test keeps them equal). It never raises, so "Run All" on an untouched
notebook runs to the end: every self-check says "not yet: no answer given"."""


class ClearWidgetState(Preprocessor):
    """Drop the notebook's saved widget state and the cells' execution timings.

    Released notebooks carry no outputs (nbgrader clears them: the solutions are saved executed);
    nbgrader keeps the widget state and the timings, this step drops them.
    """

    def preprocess(self, nb: Any, resources: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """Drop ``nb.metadata.widgets`` and every cell's ``execution`` metadata."""
        nb.metadata.pop("widgets", None)
        for cell in nb.cells:
            cell.metadata.pop("execution", None)
        return nb, resources


class DecideGrades(Preprocessor):
    """Judge the answers the hidden tests recorded, in a fresh process (chutes_edu.grading).

    The hidden tests only record each answer as plain data; right after the notebook has run,
    this step judges the records in a fresh Python that never ran the student's code and writes
    the verdict into each test cell: a line when right, an error (no points) when not or when no
    answer was recorded. Nothing a notebook patches reaches the verdict.
    """

    def preprocess(self, nb: Any, resources: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """Replace each graded test cell's outputs by its verdict."""
        from chutes_edu.grading import decide_notebook

        student = resources.get("nbgrader", {}).get("student")
        return decide_notebook(nb, student=student), resources


def _released_text(source: str) -> str:
    """A test cell's source as released: without its hidden tests, trailing blanks ignored."""
    from chutes_edu.grading import HIDDEN_TESTS

    lines = [line.rstrip() for line in HIDDEN_TESTS.sub("", source).splitlines()]
    return "\n".join(lines).strip()


class OverwriteCellsWarnOnEdits(OverwriteCells):
    """nbgrader's OverwriteCells, warning about a locked cell only when a student changed it.

    nbgrader restores every locked cell from its gradebook and warns when a submitted one differs.
    The released test cells lack their hidden tests, so it warned for every test cell of every
    student and real tampering drowned in the noise.
    """

    as_released = False

    def preprocess_cell(self, cell: Any, resources: dict[str, Any],
                        cell_index: int) -> tuple[Any, dict[str, Any]]:
        """Note whether the cell is as released, then restore it as nbgrader does."""
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
        result: tuple[Any, dict[str, Any]] = super().preprocess_cell(cell, resources, cell_index)
        return result

    def report_change(self, name: str, attr: str, old: Any, new: Any) -> None:
        """Warn about an edited locked cell once, in words; other changes as nbgrader does."""
        if attr == "checksum" and self.as_released:
            return                  # the release left out the hidden tests: not an edit
        if attr == "checksum":
            self.log.warning("Cell %s was edited by the student: it is graded as released "
                             "(nbgrader restores it)", name)
            return
        super().report_change(name, attr, old, new)


def _replace(steps: list[Any], old: type, new: type) -> list[Any]:
    return [new if step is old else step for step in steps]


def configure(c: Any) -> None:
    """Apply the course's grading settings to an nbgrader config object.

    Parameters
    ----------
    c : traitlets.config.Config
        The ``c`` of an ``nbgrader_config.py`` (``get_config()``). The numbers a teacher may
        change (course id, time limits, late penalty, time zone) are set to the course's defaults
        here; set them again after this call to change them.
    """
    from chutes_teacher.gradebook import (
        DueDateInRelease,
        GradesCsvExport,
        LatePenaltyPerDay,
        SaveAutoGradesKeepingHandGrades,
        tidy_teacher_logs,
    )
    from chutes_teacher.inert import InertHTMLExporter, InertStudentContent
    from chutes_teacher.sandbox import SandboxedExecute
    from chutes_teacher.submissions import guard_converters, guard_default_collect

    # What the teacher reads (collect's log, formgrader's pop-up) says only what one can act on.
    tidy_teacher_logs()
    c.CourseDirectory.course_id = COURSE_ID

    # The release: the exercises' stub, no widget state, the due date (in the class's time zone,
    # an IANA name such as "Europe/Berlin"; nbgrader's Assignments tab shows none).
    c.ClearSolutions.code_stub = {"python": CODE_STUB}
    c.ClearSolutions.text_stub = "YOUR ANSWER HERE"
    c.ClearWidgetState.enabled = True
    c.DueDateInRelease.enabled = True
    c.DueDateInRelease.timezone = "UTC"
    c.GenerateAssignment.preprocessors = [
        *GenerateAssignment.class_traits()["preprocessors"].default(), ClearWidgetState,
        DueDateInRelease]

    # The hidden tests start one grader process per notebook (about two seconds); some checks
    # simulate thousands of games: a cell may take two minutes when 30 notebooks are graded on a
    # small machine. A whole notebook: five.
    c.Execute.timeout = 120
    # The wait for a cell's last output after its reply (nbclient's 4 s): a cell whose output does
    # not come in time is marked "OutputLost" and the notebook goes on (chutes_teacher.sandbox), so
    # a busy machine must not make an answer's record miss it.
    c.Execute.iopub_timeout = 20
    c.SandboxedExecute.notebook_timeout = 300
    c.SandboxedExecute.memory_limit = 2 * 1024 ** 3
    c.SandboxedExecute.process_limit = 64

    # Each submission in a sandbox of its own, then the grade decided outside it (module doc).
    c.DecideGrades.enabled = True
    steps = list(Autograde.class_traits()["autograde_preprocessors"].default())
    run = steps.index(Execute)
    steps[run:run + 1] = [SandboxedExecute, DecideGrades]
    # A hand grade stays a hand grade through a re-autograde (nbgrader alone would mark the
    # answer "needs manual grade" again).
    c.Autograde.autograde_preprocessors = _replace(steps, SaveAutoGrades,
                                                   SaveAutoGradesKeepingHandGrades)
    sanitize = list(Autograde.class_traits()["sanitize_preprocessors"].default())
    c.Autograde.sanitize_preprocessors = _replace(sanitize, OverwriteCells,
                                                  OverwriteCellsWarnOnEdits)

    # Late work: 10% of the score per started day late, at most 100%; one penalty everywhere:
    # the feedback and every export compute it again from the final score (AssignLatePenalties
    # before nbgrader reads the grades), so formgrader, the feedback and the files agree.
    c.AssignLatePenalties.plugin_class = LatePenaltyPerDay
    c.LatePenaltyPerDay.percent_per_day = 10.0
    c.LatePenaltyPerDay.max_percent = 100.0
    c.GenerateFeedback.preprocessors = [
        AssignLatePenalties, *GenerateFeedback.class_traits()["preprocessors"].default()]
    # grades.csv with the course's checks (chutes_teacher.gradebook.GradesCsvExport).
    c.ExportApp.plugin_class = GradesCsvExport

    # File bombs and links: collect (nbgrader's default exchange), autograde and feedback refuse a
    # submission over c.SubmissionLimits (200 files and folders, 50 MB) or holding a symbolic
    # link, naming the student; the others go on (chutes_teacher.submissions).
    guard_default_collect()
    guard_converters()

    # Student HTML made inert in formgrader's pages and in every feedback file: rendered markdown
    # and HTML outputs cleaned, scripts and widgets dropped, SVG shown as an image (nh3;
    # chutes_teacher.inert). The teacher's server also guards formgrader's pages (a CSP, blind
    # grading): chutes_teacher.server_extension.
    c.GenerateFeedback.exporter_class = InertHTMLExporter
    c.HTMLExporter.preprocessors = [InertStudentContent]
    c.HTMLExporter.filters = {"markdown2html": "chutes_teacher.inert.markdown2html",
                              "clean_html": "chutes_teacher.inert.clean_html"}


def load_course_config(c: Any, course: str | Path) -> str | None:
    """Merge the course folder's ``nbgrader_config.py`` into ``c``, as it is on disk now.

    Parameters
    ----------
    c : traitlets.config.Config
        The config being loaded (a Jupyter config path's ``nbgrader_config.py``).
    course : str or Path
        The course folder.

    Returns
    -------
    str or None
        Why the file could not be read (it stops with a reason, or fails), or None when it was
        merged or is not there yet. The file is never allowed to stop the server: its reason is
        logged by the caller, and a fresh ``nbgrader`` process (autograde) meets it again.
    """
    from traitlets.config.loader import PyFileConfigLoader

    path = Path(course)
    if not (path / "nbgrader_config.py").is_file():
        return None
    try:
        loaded = PyFileConfigLoader("nbgrader_config.py", path=str(path)).load_config()
    except SystemExit as stop:                        # the file's own version checks
        return str(stop.code)
    except Exception as error:                        # any error, said in words
        return f"{type(error).__name__}: {error}"
    c.merge(loaded)
    return None


def configure_teacher_server(c: Any, course: str | Path | None = None) -> None:
    """The teacher's server's nbgrader settings: the course's, whatever folder exists yet.

    Called from the ``nbgrader_config.py`` of the teacher's Jupyter config path (hub/config.yaml,
    ``make teacher``). Formgrader reads that file again at every request, so autograde is
    sandboxed and judged by the course's steps from the server's start on, and the course
    folder's own file is merged in as it is now (an edit needs no restart).

    Parameters
    ----------
    c : traitlets.config.Config
        The config being loaded.
    course : str or Path, optional
        The course folder (``~`` is the user's home), e.g. ``"~/course"`` on a hub. By default
        the folder nbgrader would take: ``$CHUTES_COURSE_DIR`` if set, else the working folder
        (on a laptop, Lab is started in the course folder).
    """
    import logging

    where = course or os.environ.get("CHUTES_COURSE_DIR")
    folder = Path(os.path.expanduser(str(where))) if where else Path.cwd()
    if where:
        c.CourseDirectory.root = str(folder)
    configure(c)
    problem = load_course_config(c, folder)
    if problem:
        logging.getLogger("chutes_teacher").warning(
            "%s/nbgrader_config.py was not read (%s); grading with the course's settings",
            folder, problem)


# nbgrader 0.9's teacher views, which the students' settings turn off (binder/student_settings.py)
# and a teacher's server turns on again, with the course's guard over formgrader.
TEACHER_SERVER_EXTENSIONS = ("nbgrader.server_extensions.formgrader",
                             "nbgrader.server_extensions.course_list",
                             "chutes_teacher.server_extension")
TEACHER_LAB_PLUGINS = ("@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment",
                       "@jupyter/nbgrader:course-list")
TEACHER_NBGRADER_CONFIG = """\
# The teacher's nbgrader settings (chutes_teacher.nbgrader_setup; `make teacher` writes this file):
# the course's grading settings from the server's start, the course folder's own file merged in.
from chutes_teacher.nbgrader_setup import configure_teacher_server

configure_teacher_server(get_config())  # noqa: F821 - nbgrader provides get_config()
"""


def _merge_json(path: Path, settings: dict[str, Any]) -> None:
    """Merge ``settings`` into the JSON file at ``path`` (nested dicts merged key by key)."""
    import json

    def merge(into: dict[str, Any], new: dict[str, Any]) -> None:
        for key, value in new.items():
            if isinstance(value, dict) and isinstance(into.get(key), dict):
                merge(into[key], value)
            else:
                into[key] = value

    current = json.loads(path.read_text()) if path.exists() else {}
    merge(current, settings)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(current, indent=2) + "\n")


def write_teacher_settings(prefix: str | Path) -> list[Path]:
    """Turn a course environment into a teacher's: formgrader on, graded the course's way.

    The students' settings (``binder/student_settings.py``, run by ``binder/postBuild``) turn
    nbgrader's teacher views off in the environment's prefix; ``make teacher`` runs this after
    them, in ``.venv-teacher``: formgrader, the course list and the course's guard over
    formgrader (:mod:`chutes_teacher.server_extension`) on, their Lab plugins unlocked and on,
    and an ``nbgrader_config.py`` that grades the course's way in every server and nbgrader
    command of that environment (:func:`configure_teacher_server`).

    Parameters
    ----------
    prefix : str or Path
        The environment's prefix (``sys.prefix`` of ``.venv-teacher``).

    Returns
    -------
    list of Path
        The files written.
    """
    etc = Path(prefix) / "etc" / "jupyter"
    server = etc / "jupyter_server_config.json"
    _merge_json(server, {"ServerApp": {"jpserver_extensions": dict.fromkeys(
        TEACHER_SERVER_EXTENSIONS, True)}})
    page = etc / "labconfig" / "page_config.json"
    _merge_json(page, {"disabledExtensions": dict.fromkeys(TEACHER_LAB_PLUGINS, False),
                       "lockedExtensions": dict.fromkeys(TEACHER_LAB_PLUGINS, False)})
    config = etc / "nbgrader_config.py"
    config.write_text(TEACHER_NBGRADER_CONFIG)
    return [server, page, config]


if __name__ == "__main__":
    import sys

    for written in write_teacher_settings(sys.argv[1] if len(sys.argv) > 1 else sys.prefix):
        print(f"teacher's settings: {written}")
