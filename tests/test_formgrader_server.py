"""formgrader in the teacher's own Jupyter server, the course folder made after the server started.

A Jupyter server reads a course folder's ``nbgrader_config.py`` once, when it starts: a teacher who
made the folder inside a running server (hub/README.md's order) autograded with nbgrader's plain
Execute — no sandbox, the server's hub token in the kernel, no DecideGrades (the worked solutions
scored 0) — and formgrader graded inside the server's request handler, so the server answered
nothing else meanwhile (issue 47). Here a real ``jupyter server`` starts with the teacher's settings
of ``hub/config.yaml`` (its ``/etc/jupyter/teacher/nbgrader_config.py``, word for word, and the
server extensions it turns on) and no course folder; then, as the teacher would in a terminal of
that server, ``python -m chutes_teacher.gradebook setup`` makes ``~/course``, formgrader generates
set 1, and three submissions are autograded with formgrader's button (its REST endpoint):

- the worked solutions earn every point (the course's judge ran) and the untouched release none;
- an attacker's cells find no hub token (one is planted in the server's environment), cannot
  append to ``nbgrader_config.py`` or the gradebook, and leave no process behind;
- while each is graded the server answers ``/api/status`` (Lab asks it all the time);
- with settings that would not sandbox (a course file that puts nbgrader's plain Execute back),
  the button refuses in words naming the fix, and nothing runs.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
import pytest

from chutes_teacher.nbgrader_setup import write_teacher_settings
from tests.support import NBGRADER_BIN, ROOT, released_name

requests = pytest.importorskip("requests")
yaml = pytest.importorskip("yaml")
pytestmark = pytest.mark.slow

SOLUTION = ROOT / "solutions" / "01_solutions_waiting_for_heads.ipynb"
SET = Path(released_name(SOLUTION)).stem
FAKE_TOKEN = "fake-hub-token-for-formgrader-9431"
TIMEOUT = 600                       # a hang guard for one request, not a budget
STATUS_AFTER = 3.0                  # seconds after Autograde was pressed: the server is grading
ATTACK = """
import os, subprocess
print("TOKEN", os.environ.get("JUPYTERHUB_API_TOKEN"))
for name in ("nbgrader_config.py", "gradebook.db"):
    try:
        with open(os.path.expanduser("~/course/" + name), "a") as f:
            f.write("# written by a submission\\n")
        print("WROTE", name)
    except OSError as e:
        print("REFUSED", name, type(e).__name__)
subprocess.Popen(["sleep", "600"], start_new_session=True)
"""


@dataclass
class Teacher:
    """The teacher's running server and what its formgrader did."""

    url: str
    token: str
    home: Path
    process: subprocess.Popen[str]
    results: dict[str, Any] = field(default_factory=dict)

    def call(self, method: str, path: str, **kw: Any) -> Any:
        r = requests.request(method, f"{self.url}/{path}", timeout=TIMEOUT,
                             headers={"Authorization": f"token {self.token}"}, **kw)
        assert r.status_code < 400, f"{method} {path} -> {r.status_code} {r.text[-800:]}"
        try:  # formgrader answers JSON as text/html
            return r.json()
        except ValueError:
            return r.text

    def autograde(self, student: str) -> dict[str, Any]:
        """Press Autograde for one submission; ask for /api/status every quarter second meanwhile
        and count the answers to requests sent STATUS_AFTER seconds or more after the button."""
        with ThreadPoolExecutor(1) as pool:
            pressed = time.monotonic()
            grading = pool.submit(self.call, "POST",
                                  f"formgrader/api/submission/{SET}/{student}/autograde")
            waits, during = [], 0
            while not grading.done():
                sent = time.monotonic()
                self.call("GET", "api/status")
                waits.append(time.monotonic() - sent)
                if not grading.done() and sent - pressed >= STATUS_AFTER:
                    during += 1
                time.sleep(0.25)
            answer = dict(grading.result())
        return {**answer, "answered while grading": during, "waits": waits}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _teacher_config(prefix: Path) -> Path:
    """The teacher's Jupyter config folder: the settings `make teacher` writes (formgrader and the
    course's server extension on), with hub/config.yaml's teacher nbgrader_config.py in it."""
    etc = prefix / "etc" / "jupyter"
    write_teacher_settings(prefix)
    files = yaml.safe_load((ROOT / "hub" / "config.yaml").read_text())["singleuser"]["extraFiles"]
    (etc / "nbgrader_config.py").write_text(files["nbgrader-teacher-course"]["stringData"])
    return etc


def _submit(course: Path, student: str, nb: nbformat.NotebookNode) -> None:
    folder = course / "submitted" / student / SET
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / f"{SET}.ipynb")
    (folder / "timestamp.txt").write_text("2026-01-01 10:00:00.000000 UTC")


@contextmanager
def running_server(base: Path, home: Path, etc: Path,
                   environment: dict[str, str] | None = None) -> Iterator[tuple[Teacher, dict[str, str]]]:
    """A teacher's `jupyter server` on 127.0.0.1 with `etc` as its Jupyter config path and `home`
    as its home and root, ready (it answers /api/status); stopped afterwards. Yields the server
    and the environment it runs in, for the commands a teacher types in its terminal."""
    token, port = uuid.uuid4().hex, _free_port()
    env = {**os.environ, "HOME": str(home), "JUPYTER_CONFIG_PATH": str(etc),
           "PATH": f"{NBGRADER_BIN}{os.pathsep}{os.environ['PATH']}", **(environment or {})}
    log = (base / "server.log").open("w")
    process = subprocess.Popen(
        [str(NBGRADER_BIN / "jupyter"), "server", "--no-browser", "--allow-root",
         "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={home}"],
        cwd=home, env=env, stdout=log, stderr=subprocess.STDOUT, text=True)
    server = Teacher(f"http://127.0.0.1:{port}", token, home, process)
    try:
        deadline = time.monotonic() + TIMEOUT
        while True:
            assert process.poll() is None, (base / "server.log").read_text()[-3000:]
            try:
                server.call("GET", "api/status")
                break
            except requests.ConnectionError:
                assert time.monotonic() < deadline, (base / "server.log").read_text()[-3000:]
                time.sleep(0.5)
        yield server, env
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture(scope="module")
def teacher(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Teacher]:
    if not (NBGRADER_BIN / "nbgrader").exists():
        pytest.skip("nbgrader is not installed (pip install -e '.[teacher]')")
    base = tmp_path_factory.mktemp("formgrader-server")
    home = base / "home"
    home.mkdir()
    etc = _teacher_config(base / "prefix")
    try:
        with running_server(base, home, etc, {"OPENBLAS_NUM_THREADS": "1",
                                              "JUPYTERHUB_API_TOKEN": FAKE_TOKEN}) as (server, env):
            course = home / "course"
            assert not course.exists()
            # in a terminal of the running server, as hub/README.md says (no restart afterwards)
            done = subprocess.run([sys.executable, "-m", "chutes_teacher.gradebook", "setup", "--repo",
                                   str(ROOT), "--course", str(course), "--no-generate"],
                                  cwd=home, env=env, capture_output=True, text=True, timeout=TIMEOUT)
            assert done.returncode == 0, done.stdout + done.stderr
            assert server.call("POST", f"formgrader/api/assignment/{SET}/assign")["success"]
            solution = nbformat.read(SOLUTION, as_version=4)
            _submit(course, "honest", solution)
            _submit(course, "untouched",
                    nbformat.read(course / "release" / SET / f"{SET}.ipynb", as_version=4))
            attacker = nbformat.read(SOLUTION, as_version=4)
            attacker.cells.insert(1, nbformat.v4.new_code_cell(ATTACK))
            _submit(course, "attacker", attacker)
            server.results["config before"] = (course / "nbgrader_config.py").read_text()
            server.results["gradebook before"] = (course / "gradebook.db").stat().st_mtime_ns
            server.results["graded"] = {s: server.autograde(s)
                                        for s in ("honest", "untouched", "attacker")}
            yield server
    finally:
        subprocess.run(["pkill", "-f", "sleep 600"], check=False)


def _scores(teacher: Teacher) -> dict[str, tuple[float, float]]:
    rows = teacher.call("GET", f"formgrader/api/submissions/{SET}")
    return {row["student"]: (row["code_score"], row["max_code_score"]) for row in rows}


def test_a_course_folder_made_after_the_server_started_is_graded_the_courses_way(
        teacher: Teacher) -> None:
    for student, answer in teacher.results["graded"].items():
        assert answer["success"], (student, answer.get("error"))
    scores = _scores(teacher)
    points = scores["honest"][1]
    assert points > 0
    assert scores["honest"] == (points, points)          # the course's judge decided them
    assert scores["untouched"][0] == 0
    assert scores["attacker"] == (points, points)        # its own right answers still count


def test_a_submissions_code_ran_in_the_sandbox(teacher: Teacher) -> None:
    course = teacher.home / "course"
    nb = nbformat.read(course / "autograded" / "attacker" / SET / f"{SET}.ipynb", as_version=4)
    printed = "".join(o.get("text", "") for o in nb.cells[1].outputs)
    assert "TOKEN None" in printed and FAKE_TOKEN not in printed, printed
    assert "WROTE" not in printed, printed
    assert (course / "nbgrader_config.py").read_text() == teacher.results["config before"]
    left = subprocess.run(["pgrep", "-f", "sleep 600"], capture_output=True, text=True)
    assert left.stdout.strip() == "", "a process of the submission outlived its autograde"


def test_the_server_answers_while_formgrader_autogrades(teacher: Teacher) -> None:
    graded = teacher.results["graded"]
    assert all(g["answered while grading"] >= 1 for g in graded.values()), {
        s: (g["answered while grading"], [round(w, 2) for w in g["waits"]])
        for s, g in graded.items()}


def test_autograde_refuses_settings_that_would_not_sandbox(teacher: Teacher) -> None:
    course = teacher.home / "course"
    config = course / "nbgrader_config.py"
    original = config.read_text()
    config.write_text(original + "\nfrom nbgrader.converters import Autograde\n"
                      "c.Autograde.autograde_preprocessors = "
                      "Autograde.class_traits()['autograde_preprocessors'].default()\n")
    try:
        answer = teacher.call("POST", f"formgrader/api/submission/{SET}/honest/autograde")
    finally:
        config.write_text(original)
    assert answer["success"] is False
    assert "SandboxedExecute" in answer["error"] and "it refuses" in answer["error"], answer
    assert json.dumps(_scores(teacher)["honest"])          # the earlier grade is still there
