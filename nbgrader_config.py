"""nbgrader's configuration for a course built from this repository (see TEACHING.md).

``make teacher`` (or ``python -m chutes_teacher.gradebook setup``) copies this file into your
nbgrader course folder (the folder that holds ``source/``) and each exercise set from
``solutions/`` into ``source/<set>/``:

    source/01_exercises_waiting_for_heads/01_exercises_waiting_for_heads.ipynb

The course's settings (the sandbox, the judge, the late penalty, inert student HTML ...) are
:func:`chutes_teacher.nbgrader_setup.configure`, which the teacher's Jupyter server applies too,
whether or not this folder existed when it started. Below it, the numbers that are yours to
change. ``tests/test_nbgrader.py`` runs nbgrader with this very file.
"""

import sys
from importlib.metadata import PackageNotFoundError, version

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

from chutes_teacher.nbgrader_setup import configure  # noqa: E402 - after the checks above

configure(c)

# ---------------------------------------------------------------- the numbers that are yours
# Your course's name: nbgrader's database and the exchange file submissions under it (on a hub, the
# same as the students' config: hub/config.yaml).
c.CourseDirectory.course_id = "chutes_edu"

# Students see each set's due date at the top of its notebooks, in this time zone (an IANA name
# such as "Europe/Berlin").
c.DueDateInRelease.timezone = "UTC"

# Seconds a cell may run, and a whole notebook (the cells left after that score nothing), in each
# submission's sandbox, with its memory (bytes) and processes.
c.Execute.timeout = 120
c.SandboxedExecute.notebook_timeout = 300
c.SandboxedExecute.memory_limit = 2 * 1024 ** 3
c.SandboxedExecute.process_limit = 64
# Where no sandbox can be made (no bubblewrap, no user namespaces) autograde refuses. To grade
# unconfined anyway, knowingly (TEACHING.md, "What the sandbox protects"):
# c.SandboxedExecute.allow_unsandboxed = True

# Late work (TEACHING.md, "Roster, due dates, extensions and late work"): a set handed in after its
# due date, or after the student's extension, loses 10% of its score per started day late (one
# hour late: 10%; three days: 30%), at most 100%, never below 0, to the hundredth of a point
# (halves up). Change the two numbers (e.g. 5 and 50); 0 grades late work in full.
c.LatePenaltyPerDay.percent_per_day = 10.0
c.LatePenaltyPerDay.max_percent = 100.0
