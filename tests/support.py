"""What several tests (and the benchmarks) share: the course's files, the Node tools, an empty
nbgrader gradebook and an nbgrader course folder."""

from __future__ import annotations

import atexit
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE_TOOLS = ROOT / "tests" / "js"


def course_notebooks() -> list[Path]:
    """Every notebook a student opens: the start page, lessons, exercise sets and solutions."""
    return [ROOT / "start_here.ipynb",
            *sorted((ROOT / "lessons").glob("*.ipynb")),
            *sorted((ROOT / "exercises").glob("*.ipynb")),
            *sorted((ROOT / "solutions").glob("*.ipynb"))]


@contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """One process at a time making ``folder``: the others (on another pytest worker, or `make
    test`'s set-up in the background) wait here until it is made, instead of making it again
    beside it. The lock is ``.<name>.lock`` beside the folder, released when its holder ends,
    however it ends (flock)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f".{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def node_tools() -> tuple[str, Path]:
    """(node, tests/js) with the pinned npm packages of tests/js/package.json installed.

    ``make test`` installs them first (``npm ci``); run alone, a test installs them here.
    """
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None:
        raise RuntimeError("node is not installed (.ci/run installs it: apt-get install nodejs npm)")
    if not (NODE_TOOLS / "node_modules" / ".package-lock.json").exists():
        if npm is None:
            raise RuntimeError("npm is not installed, and tests/js/node_modules is missing")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
                       cwd=NODE_TOOLS, check=True, capture_output=True, timeout=600)
    return node, NODE_TOOLS


# ---------------------------------------------------------------- an nbgrader course folder
NBGRADER_BIN = Path(sys.executable).parent


def released_name(solution: Path) -> str:
    """The file name a set has in nbgrader's source, release and submissions (TEACHING.md)."""
    from chutes_edu.course import lesson_stem, set_stem

    return f"{set_stem(lesson_stem(solution.stem), 'exercises')}.ipynb"


def nbgrader(*args: str, cwd: Path, env: dict[str, str] | None = None,
             timeout: float = 1800) -> subprocess.CompletedProcess[str]:
    """Run ``nbgrader`` in a course folder, with one BLAS thread and ``env`` added."""
    full = {**os.environ, "PATH": f"{NBGRADER_BIN}{os.pathsep}{os.environ['PATH']}",  # alembic
            "OPENBLAS_NUM_THREADS": "1", **(env or {})}
    return subprocess.run([str(NBGRADER_BIN / "nbgrader"), *args], cwd=cwd, env=full,
                          capture_output=True, text=True, timeout=timeout, check=False)


def exits_tidily(code: str) -> list[int]:
    """Run ``code`` in a child Python in development mode and check that it left nothing behind.

    ``code`` starts a process of its own and prints that process's pid, then any other integers.
    The child must exit with 0, print no ResourceWarning (development mode reports a child process
    still running, or a pipe never closed, as one) and leave its process reaped: neither running
    nor a zombie. Returns the integers printed after the pid.
    """
    done = subprocess.run([sys.executable, "-X", "dev", "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    pid, *others = map(int, done.stdout.split())
    assert "ResourceWarning" not in done.stderr, done.stderr[-3000:]
    assert not Path(f"/proc/{pid}").exists(), f"process {pid} outlived the process that started it"
    return others


# nbgrader stamps each new gradebook with its schema's version, which it asks a new process for
# (`alembic heads`: about 2 CPU-seconds, as much as the rest of a small test). Each process makes one
# empty gradebook per course id, nbgrader's own way, and copies it wherever a test needs a new one.
_BLANK_GRADEBOOKS: dict[str, Path] = {}


def blank_gradebook(folder: Path, course_id: str = "chutes_edu") -> str:
    """An empty gradebook for ``course_id`` as ``folder/gradebook.db`` (where nbgrader looks for
    it in a course folder), the same as the one nbgrader's ``Gradebook`` makes there; its URL.

    Parameters
    ----------
    folder : Path
        The course folder (made if missing); it must not hold a gradebook yet.
    course_id : str
        The course the gradebook is for (nbgrader_config.py's ``CourseDirectory.course_id``).

    Returns
    -------
    str
        The gradebook's SQLAlchemy URL, ``sqlite:///<folder>/gradebook.db``.
    """
    from nbgrader.api import Gradebook  # type: ignore[import-untyped]

    blank = _BLANK_GRADEBOOKS.get(course_id)
    if blank is None:
        where = Path(tempfile.mkdtemp(prefix="chutes-gradebook-"))
        atexit.register(shutil.rmtree, where, ignore_errors=True)
        blank = where / "gradebook.db"
        path = os.environ["PATH"]
        os.environ["PATH"] = f"{NBGRADER_BIN}{os.pathsep}{path}"      # alembic
        try:
            with Gradebook(f"sqlite:///{blank}", course_id):
                pass
        finally:
            os.environ["PATH"] = path
        _BLANK_GRADEBOOKS[course_id] = blank
    target = folder / "gradebook.db"
    folder.mkdir(parents=True, exist_ok=True)
    if target.exists():
        raise FileExistsError(f"{target} exists already")
    shutil.copyfile(blank, target)
    return f"sqlite:///{target}"


def make_course(root: Path, assignment: str, solutions: list[Path],
                config: str = "") -> Path:
    """An nbgrader course folder with the repository's nbgrader_config.py (``config`` appended),
    a new gradebook (:func:`blank_gradebook`) and ``solutions`` as the source of ``assignment``,
    after ``generate_assignment``."""
    root.mkdir(parents=True, exist_ok=True)
    blank_gradebook(root)
    (root / "nbgrader_config.py").write_text(
        (ROOT / "nbgrader_config.py").read_text() + config)
    source = root / "source" / assignment
    source.mkdir(parents=True)
    for nb in solutions:
        shutil.copy(nb, source / released_name(nb))
    done = nbgrader("generate_assignment", assignment, "--force", cwd=root)
    assert done.returncode == 0 and "ERROR" not in done.stderr, done.stderr[-4000:]
    return root
