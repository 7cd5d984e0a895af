"""Graded work on a real JupyterHub: one nbgrader round, teacher and ten students, end to end.

The test starts a real JupyterHub on 127.0.0.1 (tests/test_hub.py's `Hub`: every server in a pod of
its own, bubblewrap; configurable-http-proxy from npm), with a teacher (an admin) and STUDENTS
students, set up the way hub/config.yaml sets up Zero to JupyterHub, and read from that very file:

- every server gets the image's settings (binder/student_settings.py, which binder/postBuild runs:
  nbgrader's "Assignments" tab on, formgrader, create assignment and course list off) and the
  students' nbgrader_config.py of `singleuser.extraFiles` (ngshare_exchange, the course id), with
  ngshare's client installed as the image installs it (`_ngshare_exchange`);
- ngshare, the exchange, runs as the hub service of `hub.services.ngshare` (here started by the hub,
  in an environment of its own as in its chart's image; its admin from hub/ngshare.yaml);
- the pre-spawn hook of `hub.extraConfig` puts the teacher's config folder (the `/etc/jupyter/teacher`
  files of `singleuser.extraFiles`) first in the teacher's config path: formgrader (which Lab may
  frame), the course's guard over it (chutes_teacher.server_extension) and the course's grading
  settings for the course folder `~/course`.

Then one round, each step through the REST endpoints Lab's buttons call:

0. in the teacher's running server, in hub/README.md's order: the course folder `~/course` (which
   did not exist when the server started), the course and the roster in ngshare
   (ngshare-course-management) and in the gradebook; no restart;
1. the teacher generates and releases set 1 (`01_exercises_waiting_for_heads`) with formgrader;
2. every student, at once, lists and fetches it on their own server (the Assignments tab), works
   (odd-numbered students write the worked solutions into the answer cells, even-numbered ones leave
   it blank; the notebook is saved through the contents API), validates and submits; then the last
   student tries every exchange attack of issue 35 from a kernel of their own (`ATTACK`);
3. the teacher collects, autogrades each submission (asking the server for its status meanwhile,
   as Lab does), generates and releases feedback (formgrader);
4. every student fetches their feedback: an HTML file in their home.

It asserts that students cannot reach formgrader or the gradebook (404 on their own server, 403 on
the teacher's) and the teacher can; that the gradebook holds every autograded point of set 1 for the
worked solutions and 0 for a blank notebook; that feedback arrives; that each attack is blocked,
by its effect (what the teacher collected, the recorded time, the grades, the tokens found); and that
the teacher's formgrader may be framed by their Lab and a student's pages by nobody. One test shows
the same attacks succeeding on the shared-folder exchange used before. Each phase is timed; the
times go to tests/artifacts/hub_grading.json and a printed summary (hub/README.md, section 6, quotes
them). They are recorded, never asserted; only a generous deadline bounds the test. Everything the
hub started is stopped by process id.

Users reach their servers with API tokens the hub issues them (the test's service asks for them)
instead of the browser's cookie: the same endpoints, the same hub permissions.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from chutes_edu.variants import SECRET_VARIABLE
from tests.test_hub import (
    Hub,
    _alive,
    _configurable_http_proxy,
    _decode,
    _failures,
    _free_port,
    _version,
    install_cache,
)

psutil = pytest.importorskip("psutil")
requests = pytest.importorskip("requests")
yaml = pytest.importorskip("yaml")
websocket = pytest.importorskip("websocket")  # websocket-client
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
# A hang guard, not a budget: the whole round, hub start to hub stop, takes 3-10 minutes on 2 cores
# (more under load); only a round that hangs reaches this.
DEADLINE = 2400
REQUEST_TIMEOUT = 300  # autograde of one submission blocks the teacher's server that long at most
SERVICE_TOKEN = uuid.uuid4().hex
# hub/config.yaml's addresses and paths inside a pod, and where this test puts them
NGSHARE_IN_POD = "http://proxy-public/services/ngshare"
TEACHER_CONFIG_IN_POD = "/etc/jupyter/teacher"
ATTACKER_NUMBER = STUDENTS  # the last student tries every attack of issue 35 (all blocked)
FORGED_TIME = "2000-01-01 00:00:00.000000 UTC"


def _right(number: int) -> bool:
    """Odd-numbered students hand in the worked solutions, even-numbered ones a blank notebook."""
    return number % 2 == 1


# ---------------------------------------------------------------- the configuration, from hub/config.yaml
def _write_configs(base: Path) -> tuple[Path, Path, Path, str]:
    """The config folders of the test's servers, from the image's settings and hub/config.yaml.

    Returns (image, everyone, teacher, hook): the Jupyter config folders standing for the image's
    sys.prefix, for /etc/jupyter and for /etc/jupyter/teacher, and the Python of hub.extraConfig's
    pre-spawn hook with the test's paths in it. The exchange's address (the hub's proxy) is
    written in when the hub runs (`_point_at_hub`)."""
    config = yaml.safe_load((ROOT / "hub" / "config.yaml").read_text())
    files = config["singleuser"]["extraFiles"]
    image = base / "image"
    done = subprocess.run(
        [sys.executable, str(ROOT / "binder" / "student_settings.py"), str(image)],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    image_etc = image / "etc" / "jupyter"
    everyone, teacher = base / "etc-jupyter", base / "etc-jupyter-teacher"
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
        target.write_text(text)
    assert NGSHARE_IN_POD in (everyone / "nbgrader_config.py").read_text()
    assert (teacher / "nbgrader_config.py").is_file()
    hook = config["hub"]["extraConfig"]["nbgrader-teacher"]
    assert TEACHER_CONFIG_IN_POD in hook
    hook = hook.replace(f'"{TEACHER_CONFIG_IN_POD}"', repr(str(teacher)))
    return image_etc, everyone, teacher, hook


def _point_at_hub(everyone: Path, hub: Hub) -> None:
    """The students' nbgrader config reaches ngshare through this hub's proxy (a pod: proxy-public)."""
    path = everyone / "nbgrader_config.py"
    path.write_text(path.read_text().replace(NGSHARE_IN_POD, f"{hub.url}/services/ngshare"))


NGSHARE_ENVIRONMENT = ["ngshare==0.6.0", "SQLAlchemy==1.4.54"]
# ngshare 0.6.0 ignores SIGINT and SIGTERM: the hub, stopping its services, waited out its
# interrupt and terminate timeouts (31 s) before killing it. The hub runs it through this, which
# kills it at the hub's first signal (as the hub did last).
NGSHARE_STOPS = """import signal, subprocess, sys
ngshare = subprocess.Popen([sys.executable, "-m", "ngshare", *sys.argv[1:]])
signal.signal(signal.SIGINT, lambda *_: ngshare.kill())
signal.signal(signal.SIGTERM, lambda *_: ngshare.kill())
sys.exit(ngshare.wait())
"""


def _ngshare_python() -> str:
    """The Python of ngshare's own environment, as in its chart's image: ngshare 0.6.0 needs
    SQLAlchemy 1.4 (with 2.x a release is never saved: "Object of type <Assignment> not in
    session"), and JupyterHub needs 2.x; ngshare runs in a pod of its own, so it has its own
    environment. Installed from PyPI at test time into a cache under the venv, like
    configurable-http-proxy."""
    from importlib.metadata import version

    cache = Path(sys.prefix) / "share" / "chutes-hub-test" / "ngshare-0.6.0"
    python = cache / "bin" / "python"
    # uv: the same install as pip's, in 9 s of `make test`'s set-up where pip took 40 s
    install_cache(cache, python, "ngshare's environment (uv)", lambda partial: [
        [sys.executable, "-m", "venv", "--without-pip", str(partial)],
        [sys.executable, "-m", "uv", "pip", "install", "--quiet", "--compile-bytecode",
         "--python", str(partial / "bin" / "python"), *NGSHARE_ENVIRONMENT,
         f"jupyterhub=={version('jupyterhub')}"]])
    return str(python)


NGSHARE_CLIENT = ["ngshare-exchange==0.5.3"]  # rapidfuzz and traitlets come with nbgrader


def _ngshare_exchange() -> Path:
    """ngshare's nbgrader client for the servers, installed as a hub image installs it: without
    its dependencies (its metadata asks for jupyter_core<4.11.2, which JupyterLab 4 cannot have;
    hub/README.md, section 6), into a cache folder under the venv that the servers put first on
    their PYTHONPATH (and its bin/, with ngshare-course-management, on their PATH)."""
    cache = Path(sys.prefix) / "share" / "chutes-hub-test" / "ngshare-exchange-0.5.3"
    # (the console script's shebang names this venv's Python, not the folder: safe to move)
    install_cache(cache, cache / "ngshare_exchange" / "__init__.py", "ngshare-exchange (pip)",
                  lambda partial: [[sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                                    "--disable-pip-version-check", "--target", str(partial),
                                    *NGSHARE_CLIENT]])
    return cache


def _ngshare_service(base: Path) -> tuple[dict[str, Any], list[str]]:
    """hub/config.yaml's hub.services.ngshare, run by this hub as a managed service (on a cluster
    ngshare's own chart runs it, with the admins of hub/ngshare.yaml), and those admins."""
    service = yaml.safe_load((ROOT / "hub" / "config.yaml").read_text())["hub"]["services"]["ngshare"]
    chart = yaml.safe_load((ROOT / "hub" / "ngshare.yaml").read_text())["ngshare"]
    assert set(service) == {"url", "api_token"} and set(chart) >= {"hub_api_token", "admins"}
    admins = [TEACHER if a == "teacher@example.edu" else a for a in chart["admins"]]
    assert admins == [TEACHER]
    store = base / "ngshare"
    store.mkdir()
    port = _free_port()
    return {"name": "ngshare", "url": f"http://127.0.0.1:{port}", "api_token": uuid.uuid4().hex,
            "command": [_ngshare_python(), "-c", NGSHARE_STOPS, "--admins", ",".join(admins),
                        "--database", f"sqlite:///{store / 'ngshare.db'}",
                        "--storage", f"{store / 'files'}/"]}, admins


def _hub_config(image_etc: Path, everyone: Path, teacher: Path, hook: str,
                ngshare: dict[str, Any], client: Path) -> str:
    """What this test adds to test_hub's jupyterhub_config.py (later settings win)."""
    students = {f"student{i:02d}" for i in range(1, STUDENTS + 1)}
    environment = yaml.safe_load((ROOT / "hub" / "config.yaml").read_text())["singleuser"]["extraEnv"]
    assert environment.get(SECRET_VARIABLE), "hub/config.yaml gives every server a course secret"
    return f'''
# ---- tests/test_hub_grading.py: a teacher, {STUDENTS} students, nbgrader as in hub/config.yaml
import os
c.Authenticator.allowed_users = {sorted(students | {TEACHER})!r}
c.Authenticator.admin_users = {{{TEACHER!r}}}
# The image's settings (sys.prefix) and /etc/jupyter of a pod: below a teacher's folder in priority.
# singleuser.extraEnv of hub/config.yaml (the course secret: every student has their own numbers)
# (test_hub's one-machine folder last: it only keeps kernels' ports apart)
# ngshare's client as the image has it (`_ngshare_exchange`)
c.Spawner.environment = {{**c.Spawner.environment, **{environment!r},
                          "JUPYTER_CONFIG_PATH": {os.pathsep.join([str(everyone), str(image_etc)])!r}
                                                 + {os.pathsep!r} + c.Spawner.environment["JUPYTER_CONFIG_PATH"],
                          "PYTHONPATH": {str(client)!r},
                          "PATH": {str(client / "bin")!r} + {os.pathsep!r} + os.environ["PATH"]}}
# hub.services of hub/config.yaml: ngshare, the exchange. And the test, which drives the hub as a
# service: it starts servers and gives each user a token of their own.
c.JupyterHub.services = [{ngshare!r},
                         {{"name": "grading-test", "api_token": {SERVICE_TOKEN!r}}}]
c.JupyterHub.load_roles = [{{"name": "grading-test", "services": ["grading-test"],
                            "scopes": ["admin:users", "admin:servers", "tokens", "access:servers"]}}]

# hub/config.yaml's hub.extraConfig, with this test's paths:
{hook}
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

    def run(self, code: str) -> str:
        """Run `code` in a new kernel on one's own server (what a student types in a notebook or,
        with `!`, in a terminal) and return what it printed (tracebacks included)."""
        kernel = self.call("POST", "api/kernels", json={"name": "python3"})
        try:
            ws = websocket.create_connection(
                f"{self.hub.replace('http://', 'ws://', 1)}/user/{self.name}/api/kernels/"
                f"{kernel['id']}/channels", timeout=REQUEST_TIMEOUT,
                header=[f"Authorization: token {self.token}"])
            try:
                msg_id = uuid.uuid4().hex
                ws.send(json.dumps({
                    "header": {"msg_id": msg_id, "username": self.name, "session": uuid.uuid4().hex,
                               "msg_type": "execute_request", "version": "5.3"},
                    "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                    "content": {"code": code, "silent": False, "store_history": False,
                                "user_expressions": {}, "allow_stdin": False,
                                "stop_on_error": True}}))
                out: list[str] = []
                while True:
                    msg = _decode(ws.recv())
                    if msg.get("parent_header", {}).get("msg_id") != msg_id:
                        continue
                    kind, content = msg["msg_type"], msg["content"]
                    if kind == "stream":
                        out.append(content["text"])
                    elif kind == "error":
                        out.append("\n".join(content.get("traceback", [])))
                    elif kind == "status" and content.get("execution_state") == "idle":
                        return "".join(out)
            finally:
                ws.close()
        finally:
            self.call("DELETE", f"api/kernels/{kernel['id']}")

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
        go.wait(timeout=900)                # a hang guard: every student's server is up by then
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
    base: Path
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


def _formgrader(teacher: User, action: str, student: str | None = None) -> Any:
    path = (f"formgrader/api/submission/{ASSIGNMENT}/{student}/{action}" if student
            else f"formgrader/api/assignment/{ASSIGNMENT}/{action}")
    answer = teacher.call("POST", path)
    assert answer.get("success"), f"{action} {student or ''}: {answer.get('error', answer)}"
    return answer


STATUS_AFTER = 3.0   # seconds after Autograde was pressed: the server is surely grading by then


def _autograde_watching_the_server(teacher: User, student: str) -> dict[str, Any]:
    """Press formgrader's Autograde for one submission and, while it runs, ask the teacher's
    server for `/api/status` every quarter second (as Lab does all the time). Returns how long
    each answer took and how many answers came while the autograde was still running, counting
    only requests sent STATUS_AFTER seconds or more after the button: nbgrader 0.9.6 autogrades
    inside the server's request handler, so there a request sent then waits until the autograde
    ends, and none counts."""
    with ThreadPoolExecutor(1) as pool:
        pressed = time.monotonic()
        grading = pool.submit(teacher.timed, f"autograde {student}",
                              lambda: _formgrader(teacher, "autograde", student))
        waits: list[float] = []
        during = 0
        while not grading.done():
            sent = time.monotonic()
            teacher.call("GET", "api/status")
            waits.append(round(time.monotonic() - sent, 3))
            if not grading.done() and sent - pressed >= STATUS_AFTER:
                during += 1
            time.sleep(0.25)
        grading.result()
    return {"student": student, "answered while grading": during, "waits": waits}


def _set_up_ngshare_course(teacher: User, students: list[Student]) -> str:
    """What the teacher types once in a terminal of their **running** server, in hub/README.md's
    order (section 6): the course folder `~/course` (the image's course is ROOT here), the roster
    put into it, the course in ngshare with them as its instructor and the class from the roster
    (ngshare-course-management; `--no-gb`: it would run nbgrader once per student, 27 s each
    here), then the same roster into nbgrader's gradebook in one go. No restart follows: the
    teacher's server must grade in the sandbox with the course's settings although the course
    folder did not exist when it started (it read none of `~/course/nbgrader_config.py`)."""
    roster = "student_id,first_name,last_name,email\n" + "".join(
        f"{s.name},First{s.number},Last{s.number},{s.name}@example.edu\n" for s in students)
    return teacher.run(f"""
import os, subprocess, sys
course = os.path.expanduser("~/course")
assert not os.path.exists(course), "the course folder must not exist before the server starts"
def run(command):
    done = subprocess.run(command, capture_output=True, text=True)
    print("exit", done.returncode, done.stdout, done.stderr)
run([sys.executable, "-m", "chutes_teacher.gradebook", "setup", "--repo", {str(ROOT)!r},
     "--course", course, "--no-generate"])
os.chdir(course)
with open("roster.csv", "w") as f:      # the teacher uploads it with Lab's file browser
    f.write({roster!r})
for command in (["ngshare-course-management", "create_course", {COURSE_ID!r}, {TEACHER!r}],
                ["ngshare-course-management", "add_students", {COURSE_ID!r}, "roster.csv", "--no-gb"],
                [sys.executable, "-m", "chutes_teacher.gradebook", "roster", "roster.csv"]):
    run(command)
""")


# What the attacker (a student) runs in a notebook of their own server. Every attack of issue 35
# on the exchange, as far as ngshare goes: ngshare's REST API with the attacker's own hub token
# (what `nbgrader list/fetch/submit` call, without the client's politeness), the old exchange's
# folder and classmates' homes on disk, and every process's environment.
ATTACK = r"""
import base64, glob, json, os, subprocess, requests
NGSHARE = {ngshare!r}
ME, VICTIM, SET, COURSE = os.environ["JUPYTERHUB_USER"], {victim!r}, {assignment!r}, {course!r}
HEADERS = {{"Authorization": "token " + os.environ["JUPYTERHUB_API_TOKEN"]}}
out = {{}}

def api(method, path, **kw):
    r = requests.request(method, NGSHARE + path, headers=HEADERS, timeout=120, **kw)
    try:
        answer = r.json()
    except ValueError:
        answer = {{}}
    return {{"status": r.status_code, "success": answer.get("success"),
             "files": [f.get("path") for f in answer.get("files") or []],
             "submissions": answer.get("submissions"), "message": answer.get("message")}}

# list and read a classmate's submission (and every submission)
out["list all submissions"] = api("GET", f"/submissions/{{COURSE}}/{{SET}}")
out["list the victim's submissions"] = api("GET", f"/submissions/{{COURSE}}/{{SET}}/{{VICTIM}}")
out["read the victim's submission"] = api("GET", f"/submission/{{COURSE}}/{{SET}}/{{VICTIM}}")
# read the victim's feedback; write into the victim's submission's feedback (an instructor's call)
out["read the victim's feedback"] = api("GET", f"/feedback/{{COURSE}}/{{SET}}/{{VICTIM}}",
                                        params={{"timestamp": {victim_time!r}}})
marker = base64.b64encode(("written by " + ME).encode()).decode()
out["write into the victim's feedback"] = api(
    "POST", f"/feedback/{{COURSE}}/{{SET}}/{{VICTIM}}",
    data={{"timestamp": {victim_time!r}, "files": json.dumps([{{"path": SET + ".html", "content": marker}}])}})
# on disk: the old shared exchange, a classmate's home, the hub's and ngshare's files
out["paths"] = {{p: os.path.exists(p) for p in {paths!r}}}
# every server's hub token in any process's environment
tokens = set()
for environ in glob.glob("/proc/[0-9]*/environ"):
    try:
        data = open(environ, "rb").read()
    except OSError:
        continue
    tokens |= {{item.split(b"=", 1)[1].decode() for item in data.split(b"\0")
               if item.startswith(b"JUPYTERHUB_API_TOKEN=")}}
out["tokens"] = sorted(tokens)
out["processes"] = len(glob.glob("/proc/[0-9]*"))
# submit as the victim with a forged time (timestamp.txt in the submitted folder) and a file
# that says who wrote it
with open(f"{{SET}}/timestamp.txt", "w") as f:
    f.write({forged!r})
with open(f"{{SET}}/written-by-{{ME}}.txt", "w") as f:
    f.write(ME)
# by hand: the victim's name in every field of the request, the forged time in a field too
# (then the same with nbgrader, whose submission stays the attacker's latest)
files = []
for name in sorted(os.listdir(SET)):
    if os.path.isfile(os.path.join(SET, name)):
        with open(os.path.join(SET, name), "rb") as f:
            files.append({{"path": name, "content": base64.b64encode(f.read()).decode()}})
out["post a submission as the victim"] = api(
    "POST", f"/submission/{{COURSE}}/{{SET}}",
    data={{"user": VICTIM, "student_id": VICTIM, "timestamp": {forged!r}, "files": json.dumps(files)}})
# and with nbgrader, the victim's name in the environment (where nbgrader reads it)
env = {{**os.environ, "JUPYTERHUB_USER": VICTIM, "USER": VICTIM}}
done = subprocess.run(["nbgrader", "submit", SET], env=env, capture_output=True, text=True)
out["nbgrader submit as the victim"] = {{"exit": done.returncode, "log": done.stderr[-800:]}}
print("ATTACK" + json.dumps(out))
"""


FEEDBACK_ATTACK = """
import os, requests
r = requests.get({ngshare!r} + {path!r}, params={{"timestamp": {timestamp!r}}}, timeout=120,
                 headers={{"Authorization": "token " + os.environ["JUPYTERHUB_API_TOKEN"]}})
print("status", r.status_code)
print("answer", r.text[:300])
"""


def _attack(attacker: Student, victim: Student, victim_time: str, paths: list[str]) -> dict[str, Any]:
    text = attacker.run(ATTACK.format(
        ngshare=f"{attacker.hub}/services/ngshare", victim=victim.name, assignment=ASSIGNMENT,
        course=COURSE_ID, victim_time=victim_time, paths=paths, forged=FORGED_TIME))
    found = re.search(r"^ATTACK(.*)$", text, re.M)
    assert found, f"the attack code did not finish:\n{text[-3000:]}"
    return dict(json.loads(found.group(1)))


def _ngshare_submissions(teacher: User) -> list[dict[str, str]]:
    """ngshare's own record of every submission (the teacher's view: student, server time)."""
    r = teacher.s.get(f"{teacher.hub}/services/ngshare/submissions/{COURSE_ID}/{ASSIGNMENT}",
                      headers={"Authorization": f"token {teacher.token}"}, timeout=REQUEST_TIMEOUT)
    answer = r.json()
    assert answer["success"], answer
    return list(answer["submissions"])


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Round]:
    try:
        _free_port()
    except OSError as e:
        pytest.skip(f"no free port on 127.0.0.1: {e}")
    chp = _configurable_http_proxy()
    base = tmp_path_factory.mktemp("hub-grading")
    image_etc, everyone, teacher_etc, hook = _write_configs(base)
    ngshare, _admins = _ngshare_service(base)
    client = _ngshare_exchange()
    started = time.monotonic()
    deadline = started + DEADLINE
    phases: dict[str, float] = {}

    def phase(name: str, t0: float) -> None:
        phases[name] = round(time.monotonic() - t0, 2)

    t0 = time.monotonic()
    hub = Hub(base, chp, extra_config=_hub_config(image_etc, everyone, teacher_etc, hook, ngshare,
                                                  client),
              visible=[image_etc.parent.parent, everyone, teacher_etc])
    _point_at_hub(everyone, hub)
    phase("hub start", t0)
    try:
        teacher = User(TEACHER, hub.url)
        students = [Student(f"student{i:02d}", hub.url, number=i) for i in range(1, STUDENTS + 1)]
        t0 = time.monotonic()
        _start_servers(hub, [teacher, *students], deadline)
        phase(f"start {STUDENTS + 1} servers", t0)
        room = Round(hub, base, teacher, students, phases)
        t0 = time.monotonic()
        room.results["course set-up"] = _set_up_ngshare_course(teacher, students)
        phase("teacher: the course and roster in ngshare", t0)

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
            # 2b. the last student tries every attack of issue 35 on the exchange
            attacker, victim = students[ATTACKER_NUMBER - 1], students[0]
            victim_time = next(r["timestamp"] for r in _ngshare_submissions(teacher)
                               if r["student_id"] == victim.name)
            room.results["attack started"] = datetime.now(UTC)
            t0 = time.monotonic()
            room.results["attack"] = _attack(attacker, victim, victim_time, [
                "/srv/nbgrader/exchange", str(hub.homes / victim.name), str(hub.homes / TEACHER),
                str(base / "jupyterhub_cookie_secret"), str(base / "jupyterhub.sqlite"),
                str(base / "ngshare" / "ngshare.db")])
            phase("a student: the exchange attacks", t0)
            # 3. the teacher collects, autogrades each submission, generates and releases feedback
            t0 = time.monotonic()
            room.results["ngshare submissions"] = _ngshare_submissions(teacher)
            _formgrader(teacher, "collect")
            phase("teacher: collect", t0)
            t0 = time.monotonic()
            room.results["status during autograde"] = [
                _autograde_watching_the_server(teacher, s.name) for s in students]
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
            # the attacker asks for the victim's feedback, now that it exists
            victim_time = next(r["timestamp"] for r in _ngshare_submissions(teacher)
                               if r["student_id"] == victim.name)
            room.results["feedback attack"] = attacker.run(FEEDBACK_ATTACK.format(
                ngshare=f"{hub.url}/services/ngshare", path=f"/feedback/{COURSE_ID}/{ASSIGNMENT}/"
                f"{victim.name}", timestamp=victim_time))
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
    # ngshare's record: one submission each (the attacker's two attempts are theirs, below)
    counts: dict[str, int] = {}
    for row in graded.results["ngshare submissions"]:
        counts[row["student_id"]] = counts.get(row["student_id"], 0) + 1
    assert counts == {s.name: 3 if s.number == ATTACKER_NUMBER else 1 for s in graded.students}
    setup = graded.results["course set-up"]
    assert setup.count("exit 0") == 4, setup


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
            # the roster's names, imported at set-up
            assert gb.find_student(s.name).first_name == f"First{s.number}", s.name


def test_the_teachers_server_answers_while_formgrader_autogrades(graded: Round) -> None:
    """Formgrader's Autograde runs outside the server's process (chutes_teacher.server_extension):
    the server keeps answering while a submission is graded (issue 47: 95.6 s without an answer)."""
    watched = graded.results["status during autograde"]
    assert len(watched) == STUDENTS
    assert sum(w["answered while grading"] for w in watched) >= STUDENTS, watched


def test_feedback_arrives_in_every_students_home(graded: Round) -> None:
    assert not _failures(graded), _failures(graded)
    for s in graded.students:
        html_files = [p for p in s.feedback if p.endswith(f"/{ASSIGNMENT}.html")]
        assert len(html_files) == 1, (s.name, s.feedback)
        text = (graded.hub.homes / s.name / html_files[0]).read_text()
        assert "Score:" in text or "score" in text.lower(), s.name
        assert s.name not in {o.name for o in graded.students if o is not s}


# ---------------------------------------------------------------- the attacks of issue 35, blocked
# (test_the_shared_folder_exchange_lets_a_student_do_all_of_it, below, shows them succeeding on the
# shared-folder exchange this hub used before)
def _attacker(graded: Round) -> tuple[Student, Student, dict[str, Any]]:
    assert not _failures(graded), _failures(graded)
    return graded.students[ATTACKER_NUMBER - 1], graded.students[0], graded.results["attack"]


def _collected(graded: Round, student: Student) -> Path:
    return graded.hub.homes / TEACHER / "course" / "submitted" / student.name / ASSIGNMENT


def test_a_student_cannot_list_or_read_a_classmates_submission_or_feedback(graded: Round) -> None:
    _attacker_, _victim, attack = _attacker(graded)
    for what in ("list all submissions", "list the victim's submissions",
                 "read the victim's submission", "read the victim's feedback"):
        answer = attack[what]
        assert answer["status"] == 403 and answer["success"] is False, (what, answer)
        assert answer["files"] == [] and not answer["submissions"], (what, answer)
    # and once the feedback exists
    after = graded.results["feedback attack"]
    assert "status 403" in after and "<html" not in after.lower() and "Score" not in after, after
    # nothing of the old exchange or of anyone else on the attacker's disk
    assert attack["paths"] and not any(attack["paths"].values()), attack["paths"]


def test_a_student_cannot_write_into_a_classmates_submission_or_feedback(graded: Round) -> None:
    attacker, victim, attack = _attacker(graded)
    answer = attack["write into the victim's feedback"]
    assert answer["status"] == 403 and answer["success"] is False, answer
    # what the teacher collected from the victim is the victim's own notebook, and their feedback
    # is the teacher's
    assert sorted(p.name for p in _collected(graded, victim).iterdir()
                  if not p.name.startswith(".")) == [NOTEBOOK, "timestamp.txt"]
    feedback = next(p for p in victim.feedback if p.endswith(".html"))
    assert f"written by {attacker.name}" not in (graded.hub.homes / victim.name / feedback).read_text()


def test_a_student_cannot_submit_as_someone_else_or_forge_the_time(graded: Round) -> None:
    attacker, victim, attack = _attacker(graded)
    # both attempts were taken... as the attacker's own submissions (ngshare's record, checked in
    # test_every_student_fetched_validated_and_submitted: the victim has one, the attacker three)
    assert attack["nbgrader submit as the victim"]["exit"] == 0, attack["nbgrader submit as the victim"]
    assert attack["post a submission as the victim"]["success"] is True, attack
    mine = _collected(graded, attacker)
    assert (mine / f"written-by-{attacker.name}.txt").is_file()
    assert not list(_collected(graded, victim).glob("written-by-*"))
    # the time on the attacker's submission is ngshare's, not the forged one in timestamp.txt
    from nbgrader.api import Gradebook
    from nbgrader.utils import parse_utc

    started = graded.results["attack started"]
    recorded = (mine / "timestamp.txt").read_text().strip()
    assert recorded != FORGED_TIME and parse_utc(recorded).replace(tzinfo=UTC) >= started, (
        recorded, started)
    db = graded.hub.homes / TEACHER / "course" / "gradebook.db"
    with Gradebook(f"sqlite:///{db}") as gb:
        stamp = gb.find_submission(ASSIGNMENT, attacker.name).timestamp
        assert stamp.replace(tzinfo=UTC) >= started, stamp
        assert gb.find_submission(ASSIGNMENT, victim.name).timestamp.replace(tzinfo=UTC) < started


def test_a_student_cannot_read_another_servers_token(graded: Round) -> None:
    attacker, _victim, attack = _attacker(graded)
    # the attacker's pod shows their own processes only: the tokens there are their own server's
    assert attack["tokens"], "the probe found no token at all: it would miss another's too"
    for token in attack["tokens"]:
        r = requests.get(f"{graded.hub.url}/hub/api/user", timeout=REQUEST_TIMEOUT,
                         headers={"Authorization": f"token {token}"})
        assert r.status_code == 200 and r.json()["name"] == attacker.name, r.text[:300]


def test_formgrader_may_be_framed_by_the_teachers_lab_only(graded: Round) -> None:
    """The header that lets formgrader open inside the teacher's Lab (nbgrader #1870, #1947);
    formgrader's own pages add a script policy of their own (chutes_teacher.inert)."""
    teacher, student = graded.teacher, graded.students[0]
    for path in ("formgrader/manage_assignments", "lab"):
        r = teacher.call("GET", path, ok=False)
        assert r.status_code == 200, (path, r.status_code)
        policy = [d.strip() for d in r.headers["Content-Security-Policy"].split(";")]
        assert "frame-ancestors 'self'" in policy, (path, policy)
        assert (path == "lab") == ("script-src" not in r.headers["Content-Security-Policy"])
    r = student.call("GET", "lab", ok=False)
    assert r.status_code == 200 and "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]


def test_formgraders_links_in_its_own_tab_miss_the_servers_address(graded: Round) -> None:
    """Why formgrader's assignment and Preview links give 404 in a tab of its own: nbgrader's
    utils.js (linkTo) makes them `/tree/<path>` from the site's root, without the server's
    `/user/<name>/`; inside Lab it opens them through Lab instead (hub/README.md, section 6)."""
    import nbgrader

    utils = (Path(nbgrader.__file__).parent / "server_extensions" / "formgrader" / "static" / "js"
             / "utils.js").read_text()
    assert 'directory: "/tree/"' in utils and '.attr("href", prefix + path)' in utils
    assert "window.parent.postMessage" in utils  # in Lab's iframe: Lab opens the path
    teacher = graded.teacher
    source = f"course/source/{ASSIGNMENT}"
    where_the_link_goes = teacher.s.get(f"{teacher.hub}/tree/{source}", timeout=REQUEST_TIMEOUT,
                                        headers={"Authorization": f"token {teacher.token}"})
    assert where_the_link_goes.status_code == 404
    workaround = teacher.call("GET", f"tree/{source}", ok=False)  # /user/teacher/tree/...
    assert workaround.status_code == 200, workaround.status_code


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
        "exchange_bytes": _bytes(graded.base / "ngshare"),
        "teacher_course_bytes": _bytes(graded.hub.homes / TEACHER / "course"),
        "attacks": graded.results.get("attack"),
        "status_during_autograde": graded.results.get("status during autograde"),
        "measured": "wall seconds (time.monotonic) of each REST call; memory: psutil RSS of the "
                    "teacher's jupyterhub-singleuser + its kernels every 0.5 s, VmHWM from /proc",
    }
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "hub_grading.json").write_text(json.dumps(record, indent=1) + "\n")
    lines = [f"hub grading test: a teacher and {STUDENTS} students on {os.cpu_count()} cores, "
             f"{ASSIGNMENT} (nbgrader {record['versions']['nbgrader']}, "
             f"jupyterhub {record['versions']['jupyterhub']})"]
    lines += [f"  {name:<58} {seconds:7.1f} s" for name, seconds in graded.phases.items()]
    waits = sorted(w for watched in graded.results.get("status during autograde", [])
                   for w in watched["waits"]) or [0.0]
    lines += [f"  autograde per submission: median {autograde[len(autograde) // 2]:.1f} s, "
              f"max {autograde[-1]:.1f} s",
              f"  the teacher's server during autograde: {len(waits)} /api/status answered, "
              f"median {waits[len(waits) // 2]:.2f} s, max {waits[-1]:.2f} s",
              "  student steps (median / max, s): " + ", ".join(
                  f"{p} {v['median']:.1f}/{v['max']:.1f}"
                  for p, v in record["student_steps_s"].items() if v),
              f"  teacher's server + kernels peak {record['teacher_server_peak_rss_mib']:.0f} MiB "
              f"(server VmHWM {record['teacher_server_vmhwm_mib']:.0f} MiB, largest kernel "
              f"{record['teacher_largest_kernel_vmhwm_mib']:.0f} MiB); "
              f"exchange (ngshare's database and files) {record['exchange_bytes'] / mib:.1f} MiB, teacher's course folder "
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


# ---------------------------------------------------------------- the same attacks, before
def test_the_shared_folder_exchange_lets_a_student_do_all_of_it(tmp_path: Path) -> None:
    """The exchange this hub had before ngshare (one shared folder, every pod as one uid): each
    attack of issue 35 succeeds. So the blocked attacks above are tested against a hole that was
    real. nbgrader names a student by $JUPYTERHUB_USER on a pod (its Unix user is jovyan); here
    a config line does the same."""
    import nbformat

    exchange, course, etc = tmp_path / "exchange", tmp_path / "course", tmp_path / "etc"
    for folder in (exchange, course / "release" / "set1", etc, tmp_path / "no-user-config"):
        folder.mkdir(parents=True)
    exchange.chmod(0o777)
    (etc / "nbgrader_config.py").write_text(
        "import os\nc = get_config()  # noqa: F821\n"
        f"c.Exchange.root = {str(exchange)!r}\nc.CourseDirectory.course_id = 'shared'\n"
        "c.CourseDirectory.student_id = os.environ.get('JUPYTERHUB_USER', '*')\n")
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("answer = None")]),
                   course / "release" / "set1" / "set1.ipynb")

    def nbgrader(*args: str, user: str | None = None, cwd: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "JPY_"))}
        env.update(JUPYTER_CONFIG_DIR=str(tmp_path / "no-user-config"), JUPYTER_CONFIG_PATH=str(etc),
                   JUPYTER_DATA_DIR=str(cwd / ".jupyter-data"),
                   PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
        if user:
            env["JUPYTERHUB_USER"] = user
        done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (args, done.stderr[-2000:])

    nbgrader("release_assignment", "set1", "--force", cwd=course)
    homes = {name: tmp_path / name for name in ("ada", "mallory")}
    for name, home in homes.items():
        home.mkdir()
        nbgrader("fetch_assignment", "set1", user=name, cwd=home)
        notebook = home / "set1" / "set1.ipynb"
        notebook.write_text(notebook.read_text().replace("answer = None", f"answer = {name!r}"))
        nbgrader("submit", "set1", user=name, cwd=home)
    inbound = exchange / "shared" / "inbound"
    # mallory lists and reads ada's submission
    ada_folder = next(inbound.glob("ada+set1+*"))
    assert "answer = 'ada'" in (ada_folder / "set1.ipynb").read_text()
    # mallory writes into ada's submission
    (ada_folder / "written-by-mallory.txt").write_text("mallory")
    # mallory forges the time of her own submission
    mine = next(inbound.glob("mallory+set1+*"))
    (mine / "timestamp.txt").write_text(FORGED_TIME)
    # mallory submits as ada: her own notebook, under ada's name
    time.sleep(1.1)  # a later timestamp than ada's own submission
    nbgrader("submit", "set1", user="ada", cwd=homes["mallory"])
    # the teacher collects: ada's latest submission is mallory's notebook, mallory was on time
    nbgrader("collect", "set1", cwd=course)
    submitted = course / "submitted"
    assert "answer = 'mallory'" in (submitted / "ada" / "set1" / "set1.ipynb").read_text()
    assert (submitted / "mallory" / "set1" / "timestamp.txt").read_text() == FORGED_TIME
    assert (ada_folder / "written-by-mallory.txt").read_text() == "mallory"
