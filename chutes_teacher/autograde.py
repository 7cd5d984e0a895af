"""Autograde every collected submission of a set, N at a time, outside the teacher's Lab server.

Usage, in the nbgrader course folder (the one with ``nbgrader_config.py`` and ``submitted/``)::

    python -m chutes_teacher.autograde 01_exercises_waiting_for_heads --jobs 2

It runs nbgrader's own ``nbgrader autograde <set> --student <id> --create`` once per student who
has a collected submission (``submitted/<id>/<set>/``), ``--jobs`` of them at once (default: the
number of cores), each submission in its own sandbox (:mod:`chutes_teacher.sandbox`, configured in
``nbgrader_config.py``). A teacher of 120 watches it: a line as each submission finishes (how many
are done, the student, graded / skipped / FAILED, the points after the late penalty, how late and
the penalty, the seconds it took), then the total with the time it took (wall-clock and CPU
seconds, each also per submission). Without ``--force`` a submission autograded already (and not
collected again since) is skipped, as nbgrader skips it, and said so: "skipped (already graded)".
It exits 1 when any failed.

The points and the penalty are the ones the feedback and every export give (the course's late
rule applied to the score as it is now: :func:`chutes_teacher.gradebook.submission_penalty`).

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
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chutes_teacher.sandbox import OPT_OUT, sandbox_problem

__all__ = ["Outcome", "Standing", "autograde_class", "describe_late", "main", "students_of"]

_LOCKED = "database is locked"
_SKIPPED = "Skipping existing assignment"       # nbgrader's words when it leaves one as it is


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
    skipped : bool
        nbgrader left it as it was: autograded already, not collected again since, no
        ``--force``.
    """

    student: str
    ok: bool
    seconds: float
    attempts: int
    message: str = ""
    skipped: bool = False


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
        skipped = not failed and _SKIPPED in done.stderr
        return Outcome(student, not failed, seconds, attempts, message, skipped)


def autograde_class(course: Path, assignment: str, students: Sequence[str], jobs: int,
                    force: bool = False, retries: int = 2,
                    each: Callable[[Outcome], None] | None = None) -> list[Outcome]:
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
    each : callable, optional
        Called with each outcome as soon as that submission is done (in the order they finish),
        in the calling thread.

    Returns
    -------
    list of Outcome
        One per student, in the order given.
    """
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(_grade_one, course, assignment, s, force, retries): s
                   for s in students}
        done: dict[str, Outcome] = {}
        for future in as_completed(futures):
            outcome = future.result()
            done[futures[future]] = outcome
            if each is not None:
                each(outcome)
    return [done[s] for s in students]


@dataclass(frozen=True)
class Standing:
    """A submission's grade as the feedback and every export give it.

    Attributes
    ----------
    raw, max_score : float
        The score before the late penalty, and the set's maximum.
    penalty : float
        The late penalty in points (the course's rule on the score as it is now).
    seconds_late : float
        Seconds past the due date and the student's extension (0 when on time).
    """

    raw: float
    max_score: float
    penalty: float
    seconds_late: float

    @property
    def score(self) -> float:
        """The score after the late penalty."""
        return max(0.0, self.raw - self.penalty)


def describe_late(seconds: float) -> str:
    """How late, in words a teacher reads at a glance: ``"on time"``, ``"late by 3 h 5 min"``,
    ``"late by 2 days 4 h"``.

    Parameters
    ----------
    seconds : float
        Seconds past the due date (0 or less: on time).

    Returns
    -------
    str
    """
    if seconds <= 0:
        return "on time"
    minutes = max(1, round(seconds / 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"late by {days} day{'s' if days > 1 else ''} {hours} h"
    return f"late by {hours} h {minutes} min" if hours else f"late by {minutes} min"


class _Standings:
    """Reads each submission's standing from the gradebook as submissions finish."""

    def __init__(self, course: Path, assignment: str) -> None:
        self.course, self.assignment = course, assignment
        self.plugin: Any = None

    def late_plugin(self) -> Any:
        from nbgrader.preprocessors import AssignLatePenalties  # type: ignore[import-untyped]

        if self.plugin is None:
            step = AssignLatePenalties(config=_settings(self.course))
            step.init_plugin()
            self.plugin = step.plugin_inst
        return self.plugin

    def of(self, student: str) -> Standing | None:
        """The student's standing, or None when the gradebook has no submission."""
        from nbgrader.api import Gradebook, MissingEntry  # type: ignore[import-untyped]

        from chutes_teacher.gradebook import submission_penalty

        try:
            with Gradebook(f"sqlite:///{self.course / 'gradebook.db'}") as gb:
                sub = gb.find_submission(self.assignment, student)
                late = float(sub.total_seconds_late or 0)
                return Standing(float(sub.score), float(sub.max_score),
                                submission_penalty(self.late_plugin(), sub), late)
        except MissingEntry:
            return None


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
    again = "" if args.force else " (already graded ones skipped: --force grades them again)"
    print(f"Autograding {len(students)} submissions of {args.assignment}, {args.jobs} at a "
          f"time, each in a sandbox{again}...", flush=True)
    standings = _Standings(course, args.assignment)
    width = len(str(len(students)))
    finished: list[Outcome] = []

    def report(outcome: Outcome) -> None:
        finished.append(outcome)
        print(_line(outcome, standings, f"[{len(finished):>{width}}/{len(students)}]"),
              flush=True)

    start, cpu = time.perf_counter(), _children_cpu()
    outcomes = autograde_class(course, args.assignment, students, args.jobs, args.force,
                               args.retries, each=report)
    wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
    failed = [o.student for o in outcomes if not o.ok]
    skipped = sum(o.skipped for o in outcomes)
    graded = len(outcomes) - len(failed) - skipped
    print(f"{graded} graded, {len(failed)} failed, {skipped} skipped (already graded), in "
          f"{wall:.0f} s ({wall / len(outcomes):.1f} s a submission; {cpu:.0f} CPU seconds, "
          f"{cpu / len(outcomes):.1f} a submission) with {args.jobs} at a time"
          + (f"; failed: {', '.join(failed)}" if failed else ""), flush=True)
    return 1 if failed else 0


def _children_cpu() -> float:
    """CPU seconds (user + system) of this process's finished children, grandchildren included."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _line(outcome: Outcome, standings: _Standings, done: str) -> str:
    """One submission's line: the student, what happened, the points after the late penalty, how
    late and the penalty, the seconds it took, and how many are done."""
    again = f", {outcome.attempts} runs" if outcome.attempts > 1 else ""
    if not outcome.ok:
        return (f"{outcome.student:<24} FAILED {outcome.seconds:6.1f} s{again}  {done}\n    "
                + outcome.message.replace("\n", "\n    "))
    state = "skipped (already graded)" if outcome.skipped else "graded"
    standing = standings.of(outcome.student)
    if standing is None:
        return f"{outcome.student:<24} {state}  {outcome.seconds:6.1f} s{again}  {done}"
    from chutes_teacher.gradebook import format_points as pts

    points = f"{pts(standing.score)} of {pts(standing.max_score)} points"
    late = describe_late(standing.seconds_late)
    if standing.seconds_late > 0:
        late += f", penalty {pts(standing.penalty)}"
    return (f"{outcome.student:<24} {state:<24} {points:<20} {late:<34} "
            f"{outcome.seconds:6.1f} s{again}  {done}")


if __name__ == "__main__":
    sys.exit(main())
