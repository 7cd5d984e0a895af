"""An nbgrader course folder after ``generate_assignment``, generated once per test run and copied.

Several modules grade in a course folder of their own (tests/test_nbgrader.py every set;
tests/test_grading_sandbox.py, tests/test_lms_class.py and others set 1): each used to make it with
``tests.support.make_course``, a new gradebook and ``nbgrader generate_assignment`` (a few seconds of
CPU each, more on a loaded machine; two Pythons loading nbgrader). :func:`released_course` makes
each (assignment, solutions) course once for every pytest-xdist worker of a run, the first to need
it while holding its lock (``tests.support.folder_lock``, as tests/site_build.py does for the
website), and hands every caller a copy of its own: a module's submissions, autograde rounds and
settings never reach another's.

A copy with ``config`` appended to its ``nbgrader_config.py`` is what ``make_course(target, ...,
config)`` makes as long as ``config`` sets what ``generate_assignment`` does not read (the
sandbox's limits, the exchange's folder, the course's guards for autograde and feedback): the
released notebooks and the gradebook's assignment are the same. The generated folder's name is a
digest of what ``generate_assignment`` reads (the assignment's name, the solutions' bytes, the
repository's ``nbgrader_config.py`` and ``chutes_teacher``'s code it imports), so a run never hands
out a course generated from other files.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from tests.support import ROOT, folder_lock, make_course

READY = "generated"       # written last in the shared folder: the course in it is complete


def shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This run's folder that every pytest-xdist worker shares (pytest's base folder of the run)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    return base / "shared-courses"


def _digest(assignment: str, solutions: list[Path]) -> str:
    """What ``generate_assignment`` reads, as a short digest (the shared course's folder name)."""
    digest = hashlib.sha256(assignment.encode())
    for path in [*solutions, ROOT / "nbgrader_config.py",
                 *sorted((ROOT / "chutes_teacher").rglob("*.py"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def released_course(tmp_path_factory: pytest.TempPathFactory, target: Path, assignment: str,
                    solutions: list[Path], config: str = "") -> Path:
    """A course folder of one's own at ``target``: ``solutions`` as the source of ``assignment``,
    generated (once per run, shared) and copied, ``config`` appended to its nbgrader_config.py.

    Parameters
    ----------
    tmp_path_factory : pytest.TempPathFactory
        The run's temporary folders (the shared course is kept in :func:`shared_folder`).
    target : Path
        The course folder to make (empty, or not there yet).
    assignment : str
        nbgrader's assignment name (the folder under ``source/`` and ``release/``).
    solutions : list of Path
        The solutions notebooks to release (:func:`tests.support.released_name` names them).
    config : str
        Python appended to the copy's ``nbgrader_config.py``: settings ``generate_assignment`` does
        not read.

    Returns
    -------
    Path
        ``target``, holding ``source``, ``release``, ``gradebook.db`` and ``nbgrader_config.py``
        as :func:`tests.support.make_course` leaves them.
    """
    folder = shared_folder(tmp_path_factory) / _digest(assignment, solutions)
    with folder_lock(folder):
        if not (folder / READY).exists():
            shutil.rmtree(folder, ignore_errors=True)      # a generation that died half-way
            make_course(folder / "course", assignment, solutions)
            (folder / READY).write_text("", encoding="utf-8")
    shutil.copytree(folder / "course", target, dirs_exist_ok=True)
    if config:
        with (target / "nbgrader_config.py").open("a", encoding="utf-8") as settings:
            settings.write(config)
    return target
