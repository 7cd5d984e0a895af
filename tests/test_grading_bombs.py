"""Output and file bombs in submissions, and symbolic links in them, tested by attack (issue 47).

One course folder with set 1 (tests/shared_course.released_course, the repository's
nbgrader_config.py and the lines below, which the course's configuration gets) serves every test
here:

- **output**: a submission prints 400 MiB in one cell, writes 150 MB without a newline, and shows
  200 HTML outputs of 100 kB, before its answers. nbgrader autograde (in a process that writes its
  own peak memory, ``RUSAGE_SELF``, when it ends) must stay under 1 GiB, the autograded notebook
  under 20 MB with a note where output was cut, and every later answer must earn its points;
- **files at collect**: 20,000 small files, one 150 MB file (sparse: no disk used) and a link to
  the course's ``gradebook.db``, each in its own student's folder of the exchange's ``inbound/``,
  beside an honest submission: collect refuses each, naming the student, and collects the honest
  one;
- **past the kernel's cap**: a cell sends 400 MiB through the kernel's own ``Session.send``, as a
  kernel that undid its cap would: the grader (driven directly) stays under 1 GiB and the next cell
  still runs;
- **links after collect**: a link to ``gradebook.db`` planted in ``submitted/`` (as a hand copy or
  ``zip_collect`` would leave it) and one planted in ``autograded/`` before feedback: no copy of
  the gradebook reaches ``autograded/`` or ``feedback/``.

The direct tests of :mod:`chutes_teacher.submissions` and of the sandbox's copy take a second.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from chutes_teacher.sandbox import Limits, Sandbox, sandbox_problem
from chutes_teacher.submissions import (
    SubmissionRefused,
    check_submission,
    copy_submission,
)
from tests.shared_course import released_course
from tests.support import NBGRADER_BIN, ROOT, released_name

SOLUTION = ROOT / "solutions" / "01_solutions_waiting_for_heads.ipynb"
SET = Path(released_name(SOLUTION)).stem
STAMP = "2026-01-05 10:00:00.000000 UTC"
GIB = 1024 ** 3


FLOOD = [
    "print('x' * (400 * 1024 ** 2))",
    "import sys\nfor _ in range(1500):\n    sys.stdout.write('y' * 100_000)",
    "from IPython.display import HTML, display\n"
    "for _ in range(200):\n    display(HTML('<b>' + 'z' * 100_000 + '</b>'))",
]


def _with_cells(nb: nbformat.NotebookNode, *sources: str) -> nbformat.NotebookNode:
    """The notebook with ``sources`` as new code cells after its first code cell (before every
    graded one)."""
    nb = nbformat.from_dict(nb)
    first = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code")
    for offset, source in enumerate(sources, start=1):
        nb.cells.insert(first + offset, nbformat.v4.new_code_cell(source))
    return nb


def _env() -> dict[str, str]:
    return {**os.environ, "OPENBLAS_NUM_THREADS": "1",
            "PATH": f"{NBGRADER_BIN}{os.pathsep}{os.environ['PATH']}"}       # alembic


def _nbgrader_measured(course: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], int]:
    """Run nbgrader in ``course``; its output and its own peak resident memory in bytes."""
    rss = course.parent / "grader-maxrss.txt"
    rss.unlink(missing_ok=True)
    script = ("import atexit, resource\n"
              f"atexit.register(lambda: open({str(rss)!r}, 'w').write(str("
              "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)))\n"
              "from nbgrader.apps.nbgraderapp import main\nmain()\n")
    done = subprocess.run([sys.executable, "-c", script, *args], cwd=course, env=_env(),
                          capture_output=True, text=True, timeout=1800, check=False)
    return done, int(rss.read_text()) * 1024


def _copies_of(folder: Path, data: bytes) -> list[Path]:
    """Files under ``folder`` named like the gradebook or holding its bytes."""
    found = []
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink() and (path.name == "gradebook.db" or (
                path.stat().st_size == len(data) and path.read_bytes() == data)):
            found.append(path)
    return found


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Set 1 generated in a course folder with the guards and an exchange of its own."""
    if not (NBGRADER_BIN / "nbgrader").exists():
        pytest.skip("nbgrader is not installed (pip install -e '.[teacher]')")
    tmp = tmp_path_factory.mktemp("bombs")
    exchange = tmp / "exchange"
    (exchange / "chutes_edu" / "inbound").mkdir(parents=True)
    exchange.chmod(0o777)
    config = f"c.Exchange.root = {str(exchange)!r}\n"   # the course's own guards, nothing added
    return released_course(tmp_path_factory, tmp / "course", SET, [SOLUTION], config)


def _inbound(course: Path, student: str) -> Path:
    exchange = course.parent / "exchange" / "chutes_edu" / "inbound"
    folder = exchange / f"{student}+{SET}+{STAMP}+0a1b2c"
    folder.mkdir()
    shutil.copy(SOLUTION, folder / f"{SET}.ipynb")
    (folder / "timestamp.txt").write_text(STAMP)
    return folder


@pytest.fixture(scope="module")
def collected(course: Path) -> subprocess.CompletedProcess[str]:
    """``nbgrader collect`` of four submissions: three bombs and an honest one."""
    crowd = _inbound(course, "crowd")
    for i in range(20_000):
        (crowd / f"f{i:05d}.txt").write_text("x")
    with (_inbound(course, "whale") / "data.bin").open("wb") as whale:
        whale.truncate(150_000_000)                  # sparse: no disk used
    (_inbound(course, "sly") / "gradebook.db").symlink_to(course / "gradebook.db")
    _inbound(course, "honest")
    done = subprocess.run([str(NBGRADER_BIN / "nbgrader"), "collect", SET], cwd=course,
                          env=_env(), capture_output=True, text=True, timeout=1800, check=False)
    return done


@pytest.mark.slow
def test_collect_refuses_file_bombs_and_links_naming_the_student(
        course: Path, collected: subprocess.CompletedProcess[str]) -> None:
    log = collected.stderr + collected.stdout
    submitted = course / "submitted"
    assert (submitted / "honest" / SET / f"{SET}.ipynb").is_file(), log[-3000:]
    for student, reason in (("crowd", "more than 200 files"), ("whale", "more than 50 MB"),
                            ("sly", "symbolic link")):
        assert not (submitted / student).exists(), (student, log[-3000:])
        refusal = [line for line in log.splitlines() if f"refused {student}'s submission" in line]
        assert refusal and reason in refusal[0], (student, log[-3000:])
    assert _copies_of(submitted, (course / "gradebook.db").read_bytes()) == []


@pytest.fixture(scope="module")
def graded(course: Path, collected: subprocess.CompletedProcess[str]
           ) -> tuple[subprocess.CompletedProcess[str], int]:
    """One autograde of three submissions, in a process that reports its own peak memory: the
    flood, a link to the gradebook planted in ``submitted/`` after collect, and the honest one
    (collected above)."""
    if sandbox_problem("bwrap"):
        pytest.skip(f"no sandbox here: {sandbox_problem('bwrap')}")
    solution = nbformat.read(SOLUTION, as_version=4)
    for student, nb in (("flood", _with_cells(solution, *FLOOD)), ("linker", solution)):
        folder = course / "submitted" / student / SET
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / f"{SET}.ipynb")
    (course / "submitted" / "linker" / SET / "gradebook.db").symlink_to(course / "gradebook.db")
    (course / "submitted" / "linker" / SET / "notes.txt").symlink_to(
        course / "nbgrader_config.py")
    return _nbgrader_measured(course, "autograde", SET, "--create")


def _score(course: Path, student: str) -> tuple[float, float]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        sub = gb.find_submission(SET, student)
        return float(sub.code_score), float(sub.max_code_score)


@pytest.mark.slow
def test_an_output_flood_is_cut_and_the_grader_stays_small(
        course: Path, graded: tuple[subprocess.CompletedProcess[str], int]) -> None:
    done, peak = graded
    notebook = course / "autograded" / "flood" / SET / f"{SET}.ipynb"
    assert peak < GIB, f"the grader peaked at {peak / 2 ** 20:.0f} MiB"
    assert notebook.is_file(), done.stderr[-4000:]
    assert notebook.stat().st_size < 20_000_000, notebook.stat().st_size
    nb = nbformat.read(notebook, as_version=4)
    text = [out.get("text", "") for cell in nb.cells for out in cell.get("outputs", [])]
    assert sum("output cut at 2 MB" in t for t in text) == 3, [t[-200:] for t in text if t]
    score, maximum = _score(course, "flood")
    assert maximum >= 7 and score == maximum              # every later answer still counts


@pytest.mark.slow
def test_a_link_in_a_submission_never_reaches_autograded_or_feedback(
        course: Path, graded: tuple[subprocess.CompletedProcess[str], int]) -> None:
    done, _ = graded
    gradebook = (course / "gradebook.db").read_bytes()
    assert "refused linker's submission" in done.stderr, done.stderr[-4000:]
    assert "symbolic link" in done.stderr
    # a link planted in autograded/ (the teacher's own folder) before feedback is refused too
    honest = course / "autograded" / "honest" / SET
    assert (honest / f"{SET}.ipynb").is_file(), done.stderr[-4000:]
    (honest / "gradebook.db").symlink_to(course / "gradebook.db")
    feedback, _ = _nbgrader_measured(course, "generate_feedback", SET)
    assert "refused honest's submission" in feedback.stderr, feedback.stderr[-4000:]
    for folder in ("autograded", "feedback"):
        if (course / folder).exists():
            assert _copies_of(course / folder, gradebook) == [], folder
    assert not any((course / "autograded").rglob("notes.txt"))


UNDO = """import jupyter_client.session as s
k = get_ipython().kernel           # past the kernel's own cap: the Session class's send itself
s.Session.send(k.session, k.iopub_socket, "stream",
               {"name": "stdout", "text": "u" * (400 * 1024 ** 2)}, parent=k.get_parent())
"""

GRADE_DIRECTLY = """import json, resource, sys
import nbformat
from chutes_teacher.sandbox import SandboxedExecute
cells = [sys.argv[1], "print('after', 6 * 7)"]
nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
done, _ = SandboxedExecute(timeout=300).preprocess(nb, {"metadata": {"path": sys.argv[2]},
                                                        "nbgrader": {"student": "ada"}})
print(json.dumps({"rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                  "last": done.cells[-1].outputs}))
"""


@pytest.mark.slow
def test_a_kernel_that_undoes_its_cap_cannot_swamp_the_grader(tmp_path: Path) -> None:
    """400 MiB sent past the kernel's cap: the grader reads no message over its limit, stays
    under 1 GiB, and the next cell is graded."""
    if sandbox_problem("bwrap"):
        pytest.skip(f"no sandbox here: {sandbox_problem('bwrap')}")
    done = subprocess.run([sys.executable, "-c", GRADE_DIRECTLY, UNDO, str(tmp_path)],
                          env=_env(), capture_output=True, text=True, timeout=1800, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["rss"] < GIB, f"the grader peaked at {result['rss'] / 2 ** 20:.0f} MiB"
    assert [out.get("text") for out in result["last"]] == ["after 42\n"]


# ---------------------------------------------------------------- the copies, directly
def test_a_link_or_a_special_file_refuses_the_submission(tmp_path: Path) -> None:
    secret = tmp_path / "gradebook.db"
    secret.write_text("grades")
    for name, plant in (("link", lambda p: p.symlink_to(secret)),
                        ("fifo", lambda p: os.mkfifo(p))):
        folder = tmp_path / name
        (folder / "sub").mkdir(parents=True)
        (folder / "a.ipynb").write_text("{}")
        plant(folder / "sub" / "x")
        with pytest.raises(SubmissionRefused, match="refused ada's submission.*sub/x"):
            check_submission(folder, "ada")
        with pytest.raises(SubmissionRefused, match="refused ada's"):
            copy_submission(folder, tmp_path / f"{name}-copy", "ada")
        assert not (tmp_path / f"{name}-copy").exists()
    top = tmp_path / "top"
    top.symlink_to(tmp_path / "link")
    with pytest.raises(SubmissionRefused, match="is a symbolic link"):
        check_submission(top, "ada")


def test_the_limits_stop_the_walk_early(tmp_path: Path) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(30):
        (folder / f"{i}.txt").write_text("0123456789")
    with pytest.raises(SubmissionRefused, match="more than 20 files"):
        check_submission(folder, "ada", max_files=20)
    with pytest.raises(SubmissionRefused, match="more than 0.0001 MB"):
        copy_submission(folder, tmp_path / "copy", "ada", max_bytes=100)
    done = copy_submission(folder, tmp_path / "copy", "ada")
    assert done.entries == 30 and done.size == 300


def test_the_sandbox_copy_leaves_links_out(tmp_path: Path) -> None:
    folder = tmp_path / "nb"
    folder.mkdir()
    (folder / "data.txt").write_text("mine")
    (folder / "gradebook.db").symlink_to(ROOT / "pyproject.toml")
    sandbox = Sandbox.create("bwrap", folder, {"PATH": "/usr/bin"}, Limits(use_cgroups=False),
                             student="ada")
    try:
        assert sorted(p.name for p in sandbox.work.iterdir()) == ["data.txt"]
        assert sandbox.links_left_out == [f"gradebook.db -> {ROOT / 'pyproject.toml'}"]
    finally:
        sandbox.close()
