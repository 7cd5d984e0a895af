"""Autograde every collected submission of a set, N at a time, outside the teacher's Lab server.

Usage, in the nbgrader course folder (the one with ``nbgrader_config.py`` and ``submitted/``)::

    python -m chutes_teacher.autograde 01_exercises_waiting_for_heads --jobs 2

It runs nbgrader's own ``nbgrader autograde <set> --student <id> --create`` once per student who
has a collected submission (``submitted/<id>/<set>/``), ``--jobs`` of them at once (default: the
number of cores), each submission in its own sandbox (:mod:`chutes_teacher.sandbox`, configured in
``nbgrader_config.py``). Then it prints one line per student (graded or failed, the autograded
score, the time) and a summary, and exits 1 when any failed.

nbgrader's gradebook is one SQLite file that every process writes. SQLite lets one writer in at a
time and makes the others wait (nbgrader's connection waits up to 5 s); a process that still meets
"database is locked" is run again (``--retries``, default 2), so that no submission is lost to a
busy database. Before anything runs it checks that a sandbox can be made here (unless
``nbgrader_config.py`` opts out with ``c.SandboxedExecute.allow_unsandboxed = True``), so that a
machine without one refuses once, in words, instead of once per student.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chutes_teacher.sandbox import OPT_OUT, sandbox_problem

__all__ = ["Outcome", "autograde_class", "main", "students_of"]

_LOCKED = "database is locked"


@dataclass(frozen=True)
class Outcome:
    """How one student's autograde went.

    Attributes
    ----------
    student : str
        nbgrader's student id.
    ok : bool
        Whether nbgrader graded the submission without an error.
    seconds : float
        Wall-clock time of the (last) nbgrader run.
    attempts : int
        How many times nbgrader ran (more than 1 after a locked database).
    message : str
        The end of nbgrader's error output when it failed, else empty.
    """

    student: str
    ok: bool
    seconds: float
    attempts: int
    message: str = ""


def students_of(course: Path, assignment: str) -> list[str]:
    """The students with a collected submission of ``assignment`` in the course folder.

    Parameters
    ----------
    course : Path
        The nbgrader course folder.
    assignment : str
        The set's name, as in ``source/``.

    Returns
    -------
    list of str
        Sorted student ids: the folders ``submitted/<id>/<assignment>/``.
    """
    return sorted(p.parent.name for p in (course / "submitted").glob(f"*/{assignment}")
                  if p.is_dir())


def _nbgrader_env() -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)       # nbgrader runs alembic from there
    return {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", os.defpath)}


def _grade_one(course: Path, assignment: str, student: str, force: bool,
               retries: int) -> Outcome:
    command = [sys.executable, "-m", "nbgrader", "autograde", assignment, "--student", student,
               "--create"]
    if force:
        command.append("--force")
    attempts = 0
    while True:
        attempts += 1
        start = time.perf_counter()
        done = subprocess.run(command, cwd=course, env=_nbgrader_env(), capture_output=True,
                              text=True, check=False)
        seconds = time.perf_counter() - start
        failed = done.returncode != 0 or "There was an error processing assignment" in done.stderr
        if failed and _LOCKED in done.stderr and attempts <= retries:
            continue
        message = "" if not failed else "\n".join(done.stderr.strip().splitlines()[-12:])
        return Outcome(student, not failed, seconds, attempts, message)


def autograde_class(course: Path, assignment: str, students: Sequence[str], jobs: int,
                    force: bool = False, retries: int = 2) -> list[Outcome]:
    """Autograde the students' submissions of a set, ``jobs`` nbgrader processes at a time.

    Parameters
    ----------
    course : Path
        The nbgrader course folder.
    assignment : str
        The set's name.
    students : sequence of str
        The students to grade (see :func:`students_of`).
    jobs : int
        How many nbgrader processes run at once (at least 1).
    force : bool
        Grade again a submission that is already autograded (nbgrader's ``--force``).
    retries : int
        How many times a run that met a locked database is repeated.

    Returns
    -------
    list of Outcome
        One per student, in the order given.
    """
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(lambda s: _grade_one(course, assignment, s, force, retries),
                             students))


def _scores(course: Path, assignment: str) -> dict[str, tuple[float, float]]:
    """(autograded score, its maximum) of each student's submission, from the gradebook."""
    from nbgrader.api import Gradebook, MissingEntry  # type: ignore[import-untyped]

    scores: dict[str, tuple[float, float]] = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        try:
            submissions = gb.assignment_submissions(assignment)
        except MissingEntry:
            return scores
        for sub in submissions:
            scores[sub.student_id] = (float(sub.code_score), float(sub.max_code_score))
    return scores


def _settings(course: Path) -> Any:
    """nbgrader's settings for the course folder, as an ``nbgrader`` command there reads them: the
    ``nbgrader_config.py`` files of Jupyter's config path (lowest priority first), then the
    course folder's own."""
    from jupyter_core.paths import jupyter_config_path
    from traitlets.config import Config
    from traitlets.config.loader import PyFileConfigLoader

    config = Config()
    for folder in [*reversed(jupyter_config_path()), str(course)]:
        if (Path(folder) / "nbgrader_config.py").is_file():
            config.merge(PyFileConfigLoader("nbgrader_config.py", path=folder).load_config())
    return config


def _refusal(course: Path) -> str | None:
    """Why autograde would refuse here (no sandbox and no opt-out), or None."""
    from chutes_teacher.sandbox import SandboxedExecute

    config = _settings(course)
    settings = config.get("SandboxedExecute", {})
    if settings.get("allow_unsandboxed", False):
        return None
    steps = config.get("Autograde", {}).get("autograde_preprocessors", [])
    if SandboxedExecute not in steps:
        return ("this course's nbgrader settings do not run submissions in the sandbox (no "
                "SandboxedExecute among Autograde.autograde_preprocessors): every submission would "
                "run unconfined, as you; it refuses. Use the course's own nbgrader_config.py (make "
                "teacher copies it), which calls chutes_teacher.nbgrader_setup.configure(c).")
    problem = sandbox_problem(str(settings.get("bwrap", "bwrap")))
    if problem is None:
        return None
    return (f"no sandbox can be made here: {problem}. Autograde would run every submission "
            f"unconfined, as you; it refuses. To do that knowingly, set {OPT_OUT} in "
            "nbgrader_config.py (TEACHING.md, 'What the sandbox protects').")


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: ``python -m chutes_teacher.autograde <set> [--jobs N]``.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 when every submission was graded, 1 when one failed, 2 when nothing could run.
    """
    parser = argparse.ArgumentParser(
        prog="python -m chutes_teacher.autograde",
        description="Autograde every collected submission of a set, N at a time, each in a "
                    "sandbox.")
    parser.add_argument("assignment", help="the set, e.g. 01_exercises_waiting_for_heads")
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                        help="nbgrader processes at once (default: the number of cores)")
    parser.add_argument("--course", type=Path, default=Path.cwd(),
                        help="the nbgrader course folder (default: here)")
    parser.add_argument("--student", action="append", default=None,
                        help="grade only this student (repeatable)")
    parser.add_argument("--force", action="store_true",
                        help="grade again submissions already autograded")
    parser.add_argument("--retries", type=int, default=2,
                        help="runs repeated after 'database is locked' (default 2)")
    args = parser.parse_args(argv)
    course = args.course.resolve()
    if not (course / "nbgrader_config.py").is_file():
        print(f"error: {course} has no nbgrader_config.py: run this in the course folder "
              "(or give --course)", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("error: --jobs must be 1 or more", file=sys.stderr)
        return 2
    students = args.student or students_of(course, args.assignment)
    if not students:
        print(f"error: no collected submissions of {args.assignment} in "
              f"{course / 'submitted'} (nbgrader collect {args.assignment} first)",
              file=sys.stderr)
        return 2
    refusal = _refusal(course)
    if refusal is not None:
        print(f"error: {refusal}", file=sys.stderr)
        return 2
    print(f"Autograding {len(students)} submissions of {args.assignment}, {args.jobs} at a "
          "time, each in a sandbox...", flush=True)
    start = time.perf_counter()
    outcomes = autograde_class(course, args.assignment, students, args.jobs, args.force,
                               args.retries)
    wall = time.perf_counter() - start
    scores = _scores(course, args.assignment)
    for outcome in outcomes:
        score = scores.get(outcome.student)
        points = f"{score[0]:g} of {score[1]:g} points" if score and outcome.ok else "-"
        state = "graded" if outcome.ok else "FAILED"
        again = f", {outcome.attempts} runs" if outcome.attempts > 1 else ""
        print(f"{outcome.student:<24} {state:<7} {points:<20} {outcome.seconds:6.1f} s{again}")
        if not outcome.ok:
            print("    " + outcome.message.replace("\n", "\n    "))
    failed = [o.student for o in outcomes if not o.ok]
    print(f"{len(outcomes) - len(failed)} graded, {len(failed)} failed, in {wall:.0f} s "
          f"with {args.jobs} at a time" + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
