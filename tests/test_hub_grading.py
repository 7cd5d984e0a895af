"""Graded work on a real JupyterHub: one nbgrader round, teacher and ten students, end to end.

The test starts a real JupyterHub on 127.0.0.1 (tests/test_hub.py's `Hub`: SimpleLocalProcessSpawner,
configurable-http-proxy from npm), with a teacher (an admin) and STUDENTS students, set up the way
hub/config.yaml sets up Zero to JupyterHub, and read from that very file:

- every server gets the image's settings (binder/student_settings.py, which binder/postBuild runs:
  nbgrader's "Assignments" tab on, formgrader, create assignment and course list off) and the
  students' nbgrader_config.py of `singleuser.extraFiles` (the shared exchange, the course id);
- one folder on disk is the exchange, shared by every server (the ReadWriteMany volume of
  `singleuser.storage.extraVolumes`);
- the pre-spawn hook of `hub.extraConfig` puts the teacher's config folder (the `/etc/jupyter/teacher`
  files of `singleuser.extraFiles`) first in the teacher's config path: formgrader and the course
  folder `~/course` (the repository's nbgrader_config.py and set 1 in `source/`, TEACHING.md).

Then one round, each step through the REST endpoints Lab's buttons call:

1. the teacher generates and releases set 1 (`01_exercises_waiting_for_heads`) with formgrader;
2. every student, at once, lists and fetches it on their own server (the Assignments tab), works
   (odd-numbered students write the worked solutions into the answer cells, even-numbered ones leave
   it blank; the notebook is saved through the contents API), validates and submits;
3. the teacher collects, autogrades each submission, generates and releases feedback (formgrader);
4. every student fetches their feedback: an HTML file in their home.

It asserts that students cannot reach formgrader or the gradebook (404 on their own server, 403 on
the teacher's) and the teacher can; that the gradebook holds every autograded point of set 1 for the
worked solutions and 0 for a blank notebook; and that feedback arrives. Each phase is timed; the
times go to tests/artifacts/hub_grading.json and a printed summary (hub/README.md, section 6, quotes
them). They are recorded, never asserted; only a generous deadline bounds the test. Everything the
hub started is stopped by process id.

Not realistic here: SimpleLocalProcessSpawner runs every server as root, so the exchange's Unix
permissions keep nobody out, and nbgrader, which names a student by their Unix user (or by
$JUPYTERHUB_USER when that user is jovyan, as on Zero to JupyterHub), would call every student
"root". A test-only nbgrader_config.py therefore names each student by $JUPYTERHUB_USER, which is
what nbgrader does on a Zero to JupyterHub pod. Users reach their servers with API tokens the hub
issues them (the test's service asks for them) instead of the browser's cookie: the same endpoints,
the same hub permissions.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from chutes_edu.variants import SECRET_VARIABLE
from tests.test_hub import (
    Hub,
    _alive,
    _configurable_http_proxy,
    _failures,
    _free_port,
    _version,
)

psutil = pytest.importorskip("psutil")
requests = pytest.importorskip("requests")
yaml = pytest.importorskip("yaml")
pytest.importorskip("jupyterhub")
pytest.importorskip("nbgrader")

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow
ARTIFACTS = ROOT / "tests" / "artifacts"
STUDENTS = int(os.environ.get("CHUTES_HUB_STUDENTS", "10"))
TEACHER = "teacher"
SOLUTION = next((ROOT / "solutions").glob("01_*.ipynb"))
ASSIGNMENT = next((ROOT / "exercises").glob("01_*.ipynb")).stem  # one assignment per set
NOTEBOOK = f"{ASSIGNMENT}.ipynb"
COURSE_ID = "chutes_edu"
DEADLINE = 600  # seconds for the whole round, hub start to hub stop (the round takes 2-3 minutes)
REQUEST_TIMEOUT = 300  # autograde of one submission blocks the teacher's server that long at most
SERVICE_TOKEN = uuid.uuid4().hex
# hub/config.yaml's paths inside a pod, and where this test puts them
EXCHANGE_IN_POD = "/srv/nbgrader/exchange"
TEACHER_CONFIG_IN_POD = "/etc/jupyter/teacher"


def _right(number: int) -> bool:
    """Odd-numbered students hand in the worked solutions, even-numbered ones a blank notebook."""
    return number % 2 == 1


# ---------------------------------------------------------------- the configuration, from hub/config.yaml
def _write_configs(base: Path, exchange: Path) -> tuple[Path, Path, Path, Path, str]:
    """The config folders of the test's servers, from the image's settings and hub/config.yaml.

    Returns (image, everyone, teacher, as_root, hook): the Jupyter config folders standing for the
    image's sys.prefix, for /etc/jupyter, for /etc/jupyter/teacher and for this test's student
    names, and the Python of hub.extraConfig's pre-spawn hook with the test's paths in it."""
    config = yaml.safe_load((ROOT / "hub" / "config.yaml").read_text())
    files = config["singleuser"]["extraFiles"]
    image = base / "image"
    done = subprocess.run(
        [sys.executable, str(ROOT / "binder" / "student_settings.py"), str(image)],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    image_etc = image / "etc" / "jupyter"
    everyone, teacher, as_root = base / "etc-jupyter", base / "etc-jupyter-teacher", base / "as-root"
    for spec in files.values():
        mount = spec["mountPath"]
        if mount.startswith(TEACHER_CONFIG_IN_POD + "/"):
            target = teacher / mount.removeprefix(TEACHER_CONFIG_IN_POD + "/")
        elif mount == "/etc/jupyter/nbgrader_config.py":
            target = everyone / "nbgrader_config.py"
        else:
            continue  # kernel culling: not what this test is about
        target.parent.mkdir(parents=True, exist_ok=True)
        text = spec["stringData"] if "stringData" in spec else json.dumps(spec["data"], indent=1)
        target.write_text(text.replace(EXCHANGE_IN_POD, str(exchange)))
    assert (everyone / "nbgrader_config.py").is_file() and (teacher / "nbgrader_config.py").is_file()
    as_root.mkdir()
    # SimpleLocalProcessSpawner runs everyone as root: name students as nbgrader does for jovyan
    (as_root / "nbgrader_config.py").write_text(
        "import os\nc = get_config()  # noqa: F821\n"
        "c.CourseDirectory.student_id = os.environ['JUPYTERHUB_USER']\n")
    hook = config["hub"]["extraConfig"]["nbgrader-teacher"]
    assert TEACHER_CONFIG_IN_POD in hook
    hook = hook.replace(f'"{TEACHER_CONFIG_IN_POD}"', repr(str(teacher)))
    return image_etc, everyone, teacher, as_root, hook


def _hub_config(image_etc: Path, everyone: Path, teacher: Path, as_root: Path, hook: str) -> str:
    """What this test adds to test_hub's jupyterhub_config.py (later settings win)."""
    students = {f"student{i:02d}" for i in range(1, STUDENTS + 1)}
    environment = yaml.safe_load((ROOT / "hub" / "config.yaml").read_text())["singleuser"]["extraEnv"]
    assert environment.get(SECRET_VARIABLE), "hub/config.yaml gives every server a course secret"
    return f'''
# ---- tests/test_hub_grading.py: a teacher, {STUDENTS} students, nbgrader as in hub/config.yaml
c.Authenticator.allowed_users = {sorted(students | {TEACHER})!r}
c.Authenticator.admin_users = {{{TEACHER!r}}}
# The image's settings (sys.prefix) and /etc/jupyter of a pod: below a teacher's folder in priority.
# singleuser.extraEnv of hub/config.yaml (the course secret: every student has their own numbers)
# (test_hub's one-machine folder last: it only keeps kernels' ports apart)
c.Spawner.environment = {{**c.Spawner.environment, **{environment!r},
                          "JUPYTER_CONFIG_PATH": {os.pathsep.join([str(everyone), str(image_etc)])!r}
                                                 + {os.pathsep!r} + c.Spawner.environment["JUPYTER_CONFIG_PATH"]}}
# The test drives the hub as a service: it starts servers and gives each user a token of their own.
c.JupyterHub.services = [{{"name": "grading-test", "api_token": {SERVICE_TOKEN!r}}}]
c.JupyterHub.load_roles = [{{"name": "grading-test", "services": ["grading-test"],
                            "scopes": ["admin:users", "admin:servers", "tokens", "access:servers"]}}]

# hub/config.yaml's hub.extraConfig, with this test's paths:
{hook}

_teacher_view = c.Spawner.pre_spawn_hook


def _as_root_too(spawner):
    """hub.extraConfig's hook, then (students only) the test's student names (see the docstring)."""
    _teacher_view(spawner)
    if not spawner.user.admin:
        path = spawner.environment["JUPYTER_CONFIG_PATH"]
        spawner.environment = {{**spawner.environment,
                               "JUPYTER_CONFIG_PATH": {str(as_root)!r} + {os.pathsep!r} + path}}


c.Spawner.pre_spawn_hook = _as_root_too
'''


# ---------------------------------------------------------------- the people
@dataclass
class User:
    """A hub user with their own API token, talking to their own server (or trying another's)."""

    name: str
    hub: str
    token: str = ""
    timings: dict[str, float] = field(default_factory=dict)
    failure: str = ""

    def __post_init__(self) -> None:
        self.s = requests.Session()

    def call(self, method: str, path: str, owner: str | None = None, ok: bool = True,
             **kw: Any) -> Any:
        """`method` on `/user/<owner>/<path>` (one's own server by default) with one's token."""
        url = f"{self.hub}/user/{owner or self.name}/{path}"
        r = self.s.request(method, url, timeout=REQUEST_TIMEOUT, allow_redirects=False,
                           headers={"Authorization": f"token {self.token}"}, **kw)
        if not ok:
            return r
        assert r.status_code < 400, f"{self.name}: {method} {path} -> {r.status_code} {r.text[-800:]}"
        try:  # nbgrader's handlers answer JSON as text/html
            return r.json()
        except ValueError:
            return r.text

    def timed(self, phase: str, step: Callable[[], Any]) -> Any:
        t0 = time.monotonic()
        try:
            return step()
        finally:
            self.timings[phase] = round(time.monotonic() - t0, 2)


@dataclass
class Student(User):
    number: int = 0
    listed: list[dict[str, Any]] = field(default_factory=list)
    validation: dict[str, Any] = field(default_factory=dict)
    submitted: list[dict[str, Any]] = field(default_factory=list)
    feedback: list[str] = field(default_factory=list)

    @property
    def right(self) -> bool:
        return _right(self.number)

    def assignments(self) -> list[dict[str, Any]]:
        answer = self.call("GET", "assignments", params={"course_id": COURSE_ID})
        assert answer["success"], (self.name, answer)
        return list(answer["value"])

    def action(self, action: str) -> Any:
        answer = self.call("POST", f"assignments/{action}",
                           data={"course_id": COURSE_ID, "assignment_id": ASSIGNMENT})
        assert answer.get("success", True), (self.name, action, answer)
        return answer

    def work(self) -> None:
        """Write the worked solutions into the answer cells (or nothing) and save the notebook."""
        path = f"{ASSIGNMENT}/{NOTEBOOK}"
        nb = self.call("GET", f"api/contents/{urllib.parse.quote(path)}")["content"]
        if self.right:
            answers = _worked_answers()
            for cell in nb["cells"]:
                grade_id = cell["metadata"].get("nbgrader", {}).get("grade_id")
                if grade_id in answers:
                    cell["source"] = answers[grade_id]
        self.call("PUT", f"api/contents/{urllib.parse.quote(path)}",
                  json={"type": "notebook", "format": "json", "content": nb})

    def round(self, go: Any) -> None:
        go.wait(timeout=120)
        try:
            self.listed = self.timed("list", self.assignments)
            self.timed("fetch", lambda: self.action("fetch"))
            self.timed("work", self.work)
            self.validation = self.timed("validate", lambda: self.call(
                "POST", "assignments/validate", data={"path": f"{ASSIGNMENT}/{NOTEBOOK}"}))
            self.timed("submit", lambda: self.action("submit"))
            self.submitted = self.assignments()
        except Exception as e:  # recorded, asserted on by the tests below
            self.failure = f"{type(e).__name__}: {e}"


def _worked_answers() -> dict[str, str]:
    """grade_id -> what a student who knows the answers types: the solution without its markers
    (and a written answer without its rubric)."""
    nb = json.loads(SOLUTION.read_text())
    answers = {}
    for cell in nb["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if not meta.get("solution"):
            continue
        text = "".join(cell["source"])
        text = text.split("**Rubric")[0]
        lines = [line for line in text.splitlines()
                 if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION")]
        answers[meta["grade_id"]] = "\n".join(lines).rstrip() + "\n"
    return answers


def _autograded_points() -> float:
    """The autograded points of set 1, from the source notebook's nbgrader metadata."""
    nb = json.loads(SOLUTION.read_text())
    return float(sum(c["metadata"]["nbgrader"].get("points", 0) for c in nb["cells"]
                     if c["cell_type"] == "code" and c["metadata"].get("nbgrader", {}).get("grade")))


# ---------------------------------------------------------------- the round
@dataclass
class Round:
    hub: Hub
    exchange: Path
    teacher: User
    students: list[Student]
    phases: dict[str, float] = field(default_factory=dict)
    results: dict[str, Any] = field(default_factory=dict)
    wall_s: float = 0.0


def _hub_api(hub: Hub, method: str, path: str, **kw: Any) -> Any:
    r = requests.request(method, f"{hub.url}/hub/api/{path}", timeout=REQUEST_TIMEOUT,
                         headers={"Authorization": f"token {SERVICE_TOKEN}"}, **kw)
    assert r.status_code < 400, f"{method} /hub/api/{path} -> {r.status_code} {r.text[-800:]}\n{hub.tail()}"
    return r.json() if r.content else None


def _start_servers(hub: Hub, users: list[User], deadline: float) -> None:
    for user in users:
        user.token = _hub_api(hub, "POST", f"users/{user.name}/tokens",
                              json={"note": "tests/test_hub_grading.py"})["token"]
        _hub_api(hub, "POST", f"users/{user.name}/server")
    waiting = {u.name for u in users}
    while waiting:
        assert time.monotonic() < deadline, f"servers not ready in time: {waiting}\n{hub.tail()}"
        for name in sorted(waiting):
            server = _hub_api(hub, "GET", f"users/{name}")["servers"].get("", {})
            if server.get("ready"):
                waiting.discard(name)
        time.sleep(1)


def _prepare_course(home: Path) -> None:
    """The teacher's course folder (TEACHING.md, "Running the course with nbgrader", step 1)."""
    course = home / "course"
    (course / "source" / ASSIGNMENT).mkdir(parents=True)
    shutil.copy(ROOT / "nbgrader_config.py", course / "nbgrader_config.py")
    shutil.copy(SOLUTION, course / "source" / ASSIGNMENT / NOTEBOOK)


def _formgrader(teacher: User, action: str, student: str | None = None) -> Any:
    path = (f"formgrader/api/submission/{ASSIGNMENT}/{student}/{action}" if student
            else f"formgrader/api/assignment/{ASSIGNMENT}/{action}")
    answer = teacher.call("POST", path)
    assert answer.get("success"), f"{action} {student or ''}: {answer.get('error', answer)}"
    return answer


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Round]:
    try:
        _free_port()
    except OSError as e:
        pytest.skip(f"no free port on 127.0.0.1: {e}")
    chp = _configurable_http_proxy()
    base = tmp_path_factory.mktemp("hub-grading")
    # The shared volume. Here everyone is root; on a hub every pod is uid 1000 (see the docstring).
    exchange = base / "exchange"
    exchange.mkdir(mode=0o777)
    configs = _write_configs(base, exchange)
    started = time.monotonic()
    deadline = started + DEADLINE
    phases: dict[str, float] = {}

    def phase(name: str, t0: float) -> None:
        phases[name] = round(time.monotonic() - t0, 2)

    t0 = time.monotonic()
    hub = Hub(base, chp, extra_config=_hub_config(*configs))
    phase("hub start", t0)
    try:
        teacher = User(TEACHER, hub.url)
        students = [Student(f"student{i:02d}", hub.url, number=i) for i in range(1, STUDENTS + 1)]
        _prepare_course(hub.homes / TEACHER)
        t0 = time.monotonic()
        _start_servers(hub, [teacher, *students], deadline)
        phase(f"start {STUDENTS + 1} servers", t0)
        room = Round(hub, exchange, teacher, students, phases)

        # 1. the teacher releases set 1 (formgrader: "Generate", then "Release")
        t0 = time.monotonic()
        _formgrader(teacher, "assign")
        _formgrader(teacher, "release")
        phase("teacher: generate + release", t0)

        # 2. the students, all at once: list, fetch, work, validate, submit
        t0 = time.monotonic()
        go = threading.Barrier(STUDENTS)
        with ThreadPoolExecutor(STUDENTS) as pool:
            for f in [pool.submit(s.round, go) for s in students]:
                f.result(timeout=max(1.0, deadline - time.monotonic()))
        phase(f"{STUDENTS} students: fetch, work, validate, submit (at once)", t0)

        if not any(s.failure for s in students):
            # 3. the teacher collects, autogrades each submission, generates and releases feedback
            t0 = time.monotonic()
            _formgrader(teacher, "collect")
            phase("teacher: collect", t0)
            t0 = time.monotonic()
            for s in students:
                teacher.timed(f"autograde {s.name}", lambda s=s: _formgrader(teacher, "autograde", s.name))
                assert time.monotonic() < deadline, "autograde did not finish in time"
            phase(f"teacher: autograde {STUDENTS} submissions", t0)
            t0 = time.monotonic()
            _formgrader(teacher, "generate_feedback")
            phase("teacher: generate feedback", t0)
            t0 = time.monotonic()
            _formgrader(teacher, "release_feedback")
            phase("teacher: release feedback", t0)
            room.results["submissions"] = teacher.call(
                "GET", f"formgrader/api/submissions/{ASSIGNMENT}")

            # 4. the students fetch their feedback, at once
            t0 = time.monotonic()

            def fetch_feedback(s: Student) -> None:
                try:
                    s.timed("fetch_feedback", lambda: s.action("fetch_feedback"))
                    listing = s.call("GET", f"api/contents/{ASSIGNMENT}/feedback")["content"]
                    for stamp in listing:
                        files = s.call("GET", f"api/contents/{urllib.parse.quote(stamp['path'])}")
                        s.feedback += [f["path"] for f in files["content"]]
                except Exception as e:
                    s.failure = f"{type(e).__name__}: {e}"

            with ThreadPoolExecutor(STUDENTS) as pool:
                for f in [pool.submit(fetch_feedback, s) for s in students]:
                    f.result(timeout=max(1.0, deadline - time.monotonic()))
            phase(f"{STUDENTS} students: fetch feedback (at once)", t0)
        room.wall_s = round(time.monotonic() - started, 1)
        hub._sample_once()
        yield room
    finally:
        hub.stop()


# ---------------------------------------------------------------- what must hold
def test_students_see_the_assignments_tab_and_not_the_teachers_views(graded: Round) -> None:
    teacher, student = graded.teacher, graded.students[0]
    # nbgrader's teacher endpoints: missing on a student's server, forbidden on the teacher's
    for path in ("formgrader", "formgrader/gradebook", f"formgrader/api/submissions/{ASSIGNMENT}",
                 "formgraders"):
        mine = student.call("GET", path, ok=False)
        assert mine.status_code == 404, (path, mine.status_code)
        theirs = student.call("GET", path, owner=TEACHER, ok=False)
        assert theirs.status_code == 403, (path, theirs.status_code)
        mine = teacher.call("GET", path, ok=False)
        # formgrader's front page sends the teacher on to "Manage Assignments"
        assert mine.status_code == 200 or (mine.status_code == 302 and mine.headers[
            "Location"].startswith(f"/user/{TEACHER}/formgrader/")), (path, mine.status_code)
    # a student's own work is theirs: nobody else's server opens to them
    assert student.call("GET", "api/contents", owner=graded.students[1].name,
                        ok=False).status_code == 403
    # and Lab's page: the teacher's plugins are off and locked for students, on for the teacher
    hidden = {"@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment",
              "@jupyter/nbgrader:course-list"}
    for user, off in ((student, True), (teacher, False)):
        page = user.call("GET", "lab")
        data = json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">'
                                    r"(.*?)</script>", page, re.S).group(1))  # type: ignore[union-attr]
        disabled = set(data.get("disabledExtensions", []))
        assert (hidden <= disabled) if off else not (hidden & disabled), (user.name, disabled)
        assert "@jupyter/nbgrader:assignment-list" not in disabled


def test_every_student_fetched_validated_and_submitted(graded: Round) -> None:
    assert not _failures(graded), _failures(graded)
    for s in graded.students:
        assert [(a["course_id"], a["assignment_id"], a["status"]) for a in s.listed] == [
            (COURSE_ID, ASSIGNMENT, "released")], (s.name, s.listed)
        assert (graded.hub.homes / s.name / ASSIGNMENT / NOTEBOOK).is_file()
        assert s.validation.get("success"), (s.name, s.validation)
        failed = s.validation["value"].get("failed", [])
        # Validate lists what is not right yet: nothing for the worked solutions, every exercise else
        assert (not failed) if s.right else len(failed) >= 7, (s.name, s.validation["value"])
        assert any(a["status"] == "submitted" for a in s.submitted), (s.name, s.submitted)
        inbound = list((graded.exchange / COURSE_ID / "inbound").glob(f"{s.name}+{ASSIGNMENT}+*"))
        assert len(inbound) == 1, (s.name, inbound)


def test_the_gradebook_has_every_point_for_right_answers_and_none_for_blank(graded: Round) -> None:
    assert not _failures(graded), _failures(graded)
    points = _autograded_points()
    assert points == 8  # TEACHING.md's table: set 1, 8 points checked automatically
    rows = {row["student"]: row for row in graded.results["submissions"]}
    assert sorted(rows) == sorted(s.name for s in graded.students)
    for s in graded.students:
        row = rows[s.name]
        assert row["autograded"] and row["max_code_score"] == points, row
        assert row["code_score"] == (points if s.right else 0), (s.name, row)
    # the same from nbgrader's own database
    from nbgrader.api import Gradebook

    db = graded.hub.homes / TEACHER / "course" / "gradebook.db"
    with Gradebook(f"sqlite:///{db}") as gb:
        for s in graded.students:
            submission = gb.find_submission(ASSIGNMENT, s.name)
            assert submission.code_score == (points if s.right else 0), s.name


def test_feedback_arrives_in_every_students_home(graded: Round) -> None:
    assert not _failures(graded), _failures(graded)
    for s in graded.students:
        html_files = [p for p in s.feedback if p.endswith(f"/{ASSIGNMENT}.html")]
        assert len(html_files) == 1, (s.name, s.feedback)
        text = (graded.hub.homes / s.name / html_files[0]).read_text()
        assert "Score:" in text or "score" in text.lower(), s.name
        assert s.name not in {o.name for o in graded.students if o is not s}


def _bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def test_records_the_time_of_each_phase(graded: Round, capsys: pytest.CaptureFixture[str]) -> None:
    assert not _failures(graded), _failures(graded)
    mib = 1024 * 1024
    sample = graded.hub.samples.get(TEACHER, {})
    per_student = {k.removeprefix("autograde "): v for k, v in graded.teacher.timings.items()}
    autograde = sorted(per_student.values())

    def spread(phase: str) -> dict[str, float]:
        values = sorted(s.timings[phase] for s in graded.students if phase in s.timings)
        return {"median": values[len(values) // 2], "max": values[-1]} if values else {}

    record = {
        "students": STUDENTS, "cores": os.cpu_count(), "assignment": ASSIGNMENT,
        "versions": {name: _version(name) for name in ("jupyterhub", "nbgrader", "jupyterlab")},
        "round_wall_s": graded.wall_s, "phases_s": graded.phases,
        "autograde_per_submission_s": per_student,
        "student_steps_s": {p: spread(p) for p in ("list", "fetch", "work", "validate", "submit",
                                                   "fetch_feedback")},
        "teacher_server_peak_rss_mib": round(sample.get("peak_rss", 0) / mib, 1),
        "teacher_server_vmhwm_mib": round(sample.get("server_hwm", 0) / mib, 1),
        "teacher_largest_kernel_vmhwm_mib": round(sample.get("kernel_hwm", 0) / mib, 1),
        "exchange_bytes": _bytes(graded.exchange),
        "teacher_course_bytes": _bytes(graded.hub.homes / TEACHER / "course"),
        "measured": "wall seconds (time.monotonic) of each REST call; memory: psutil RSS of the "
                    "teacher's jupyterhub-singleuser + its kernels every 0.5 s, VmHWM from /proc",
    }
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "hub_grading.json").write_text(json.dumps(record, indent=1) + "\n")
    lines = [f"hub grading test: a teacher and {STUDENTS} students on {os.cpu_count()} cores, "
             f"{ASSIGNMENT} (nbgrader {record['versions']['nbgrader']}, "
             f"jupyterhub {record['versions']['jupyterhub']})"]
    lines += [f"  {name:<58} {seconds:7.1f} s" for name, seconds in graded.phases.items()]
    lines += [f"  autograde per submission: median {autograde[len(autograde) // 2]:.1f} s, "
              f"max {autograde[-1]:.1f} s",
              "  student steps (median / max, s): " + ", ".join(
                  f"{p} {v['median']:.1f}/{v['max']:.1f}"
                  for p, v in record["student_steps_s"].items() if v),
              f"  teacher's server + kernels peak {record['teacher_server_peak_rss_mib']:.0f} MiB "
              f"(server VmHWM {record['teacher_server_vmhwm_mib']:.0f} MiB, largest kernel "
              f"{record['teacher_largest_kernel_vmhwm_mib']:.0f} MiB); "
              f"exchange {record['exchange_bytes'] / mib:.1f} MiB, teacher's course folder "
              f"{record['teacher_course_bytes'] / mib:.1f} MiB",
              f"  the whole round, hub start to feedback: {graded.wall_s:.0f} s"]
    with capsys.disabled():
        print("\n" + "\n".join(lines))


def test_everything_the_hub_started_is_stopped(graded: Round) -> None:
    # runs last: stop the hub now (the fixture's teardown then has nothing left to do)
    left = graded.hub.stop()
    assert graded.hub.process.poll() is not None
    assert left == [], f"still running after the hub stopped: {left}"
    assert not [p.pid for p in graded.hub.seen.values() if _alive(p)
                and p.status() != psutil.STATUS_ZOMBIE]
