"""A class on one hub: the course on a real JupyterHub, followed by many students at once.

The test starts a real JupyterHub on 127.0.0.1 (`jupyterhub` from PyPI, `configurable-http-proxy`
from npm, installed at test time into a cache under the developers' venv unless it is on PATH),
with SimpleLocalProcessSpawner (each student has a home folder under a temp dir) starting each
server in a pod of its own, as Zero to JupyterHub does (`pod_command`: bubblewrap, /usr/bin/bwrap;
its own mount and PID namespace, uid 1000, its home, a private /tmp), and a shared password. The teacher pushes the course to a bare git repository; STUDENTS students then, all at
once, do what a class does with the teacher's nbgitpuller link:

1. follow the link, log in, launch their server; nbgitpuller clones the course into their home
   (`chutes-course`, not the package's name) and sends them to lesson 1;
2. run lesson 1 and exercise set 1 on their server's kernel (REST + kernel websocket), with both
   notebooks' kernels alive at once as in a Lab with both open; the unattempted set says "not yet";
3. start a kernel in their home folder and import the library from there;
4. save an edit to the exercise set (PUT /api/contents);
5. after the teacher pushes a fix, follow the link again: the fix arrives and their edit stays.

It records, per student, the time to first open and the peak memory and CPU time of their server
plus kernels (psutil), writes them to tests/artifacts/hub_*.json|txt and prints a summary;
hub/README.md turns them into a sizing table. Everything the hub started is stopped by process id.
The single-user servers run from this venv, where chutes_edu is installed editable from the
checkout under test (a real hub image installs it with repo2docker + binder/postBuild).

Skipped, with the reason, only where npm/node, bubblewrap or a free port on 127.0.0.1 is unavailable.
"""

from __future__ import annotations

import html
import inspect
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.hub_ports import PORTS_PER_SERVER, USERS_PER_HUB, PortSlot, PortSquatter, ephemeral_range
from tests.support import folder_lock

psutil = pytest.importorskip("psutil")
requests = pytest.importorskip("requests")
websocket = pytest.importorskip("websocket")  # websocket-client
pytest.importorskip("jupyterhub")
pytest.importorskip("nbgitpuller")

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow
ARTIFACTS = ROOT / "tests" / "artifacts"
STUDENTS = int(os.environ.get("CHUTES_HUB_STUDENTS", "10"))
TARGET = "chutes-course"  # nbgitpuller's targetpath: deliberately not the package's name
LESSON = f"lessons/{next((ROOT / 'lessons').glob('01_*.ipynb')).name}"
EXERCISE = f"exercises/{next((ROOT / 'exercises').glob('01_*.ipynb')).name}"
CHP_VERSION = "5.3.0"
PASSWORD = "chutes-and-ladders-" + uuid.uuid4().hex[:8]
BRANCH = "main"
DEADLINE = 1800  # seconds for the whole class, hub start to hub stop: a hang guard (a loaded machine)
REQUEST_TIMEOUT = 120
CELL_TIMEOUT = 180
TEACHER_FIX = "Errata from your teacher"


# ---------------------------------------------------------------- the pieces we start
# A pod has a network of its own; these servers share one. So each server listens on a port of its
# own and its kernels take theirs from the rest of its block (tests/hub_ports.py, which tells why:
# a port chosen by port 0 sent a student to another process's 404; tests/kernel_ports.py).
ONE_MACHINE_CONFIG = f'''"""tests/test_hub.py: this server's kernels take ports from its own block."""
import importlib.util
import os

_spec = importlib.util.spec_from_file_location("kernel_ports", {str(ROOT / "tests" / "kernel_ports.py")!r})
_kernel_ports = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_kernel_ports)
_kernel_ports.use_port_block(*(int(n) for n in os.environ["CHUTES_TEST_KERNEL_PORTS"].split("+")))
'''


# A pod of Zero to JupyterHub: each server in a mount and PID namespace of its own (bubblewrap), as
# one shared uid (jovyan, 1000; here mapped to the test's own user, with no capabilities). It sees
# the system, the venv and the checkout read-only, its own home read-write, a private /tmp, and
# nothing else of the hub's folder (no other home, no hub database or cookie secret); /proc shows
# only its own processes (no other server's token in anyone's environment). The network is
# shared, so it reaches the hub on 127.0.0.1 (a pod reaches it through the cluster's network).
BWRAP = shutil.which("bwrap") or "/usr/bin/bwrap"
POD_UID, POD_GID = 1000, 100


def pod_command(home: Path | str, hidden: list[Path | str], visible: list[Path | str],
                command: list[str], image: list[Path | str]) -> list[str]:
    """The bubblewrap command line that runs `command` as a pod would (see BWRAP above).

    `hidden` are folders replaced by empty ones (besides /tmp); `visible` are paths inside them
    the pod may read; `home` is the one folder it may write (besides its private /tmp); `image`
    are the folders of the pod's image (the Python and the course), read-only even where they lie
    under /tmp (a clone of the course in /tmp)."""
    argv = [BWRAP, "--unshare-user", "--uid", str(POD_UID), "--gid", str(POD_GID),
            "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--hostname", "jupyter",
            "--die-with-parent", "--new-session",
            "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for folder in image:
        argv += ["--ro-bind", str(folder), str(folder)]
    for folder in hidden:
        argv += ["--tmpfs", str(folder)]
    for path in visible:
        argv += ["--ro-bind", str(path), str(path)]
    argv += ["--bind", str(home), str(home), "--chdir", str(home), "--", *command]
    return argv


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def install_cache(cache: Path, ready: Path, what: str,
                  commands: Callable[[Path], list[list[str]]]) -> None:
    """Install ``what`` into the cache folder ``cache`` unless ``ready`` (a file in it) exists:
    ``commands(partial)`` run into a folder of this process's own, renamed to ``cache`` once they
    all succeed, so that no one ever sees half an install; one installer at a time
    (``tests.support.folder_lock``). Where they fail or time out, the test is skipped with the
    reason."""
    with folder_lock(cache):
        if ready.exists():
            return
        partial = cache.with_name(cache.name + f".partial-{os.getpid()}")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        try:
            for command in commands(partial):
                done = subprocess.run(command, capture_output=True, text=True, timeout=600)
                if done.returncode != 0:
                    shutil.rmtree(partial, ignore_errors=True)
                    pytest.skip(f"could not install {what}:\n{done.stderr[-1500:]}")
        except subprocess.TimeoutExpired:
            shutil.rmtree(partial, ignore_errors=True)
            pytest.skip(f"installing {what} timed out (is its registry reachable?)")
        if not cache.exists():
            partial.rename(cache)
        else:
            shutil.rmtree(partial, ignore_errors=True)


def _configurable_http_proxy() -> str:
    """configurable-http-proxy from PATH, or from npm into a cache folder under the venv."""
    found = shutil.which("configurable-http-proxy")
    if found:
        return found
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("npm/node not found: configurable-http-proxy cannot be installed")
    cache = Path(sys.prefix) / "share" / "chutes-hub-test" / f"configurable-http-proxy-{CHP_VERSION}"
    binary = cache / "node_modules" / ".bin" / "configurable-http-proxy"
    install_cache(cache, binary, "configurable-http-proxy (npm)", lambda partial: [
        [npm, "install", "--prefix", str(partial), "--no-audit", "--no-fund", "--no-save",
         "--loglevel=error", f"configurable-http-proxy@{CHP_VERSION}"]])
    return str(binary)


def _git(*args: str, cwd: Path) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "Teacher", "GIT_AUTHOR_EMAIL": "teacher@example.edu",
           "GIT_COMMITTER_NAME": "Teacher", "GIT_COMMITTER_EMAIL": "teacher@example.edu"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          check=True, timeout=120).stdout


@dataclass
class Upstream:
    bare: Path
    teacher: Path

    @property
    def url(self) -> str:
        return self.bare.as_uri()


def _teacher_pushes_the_course(base: Path) -> Upstream:
    """The course as it is in this checkout (tracked files, as the working tree has them)."""
    bare, teacher = base / "upstream.git", base / "teacher"
    _git("init", "--quiet", "--bare", "-b", BRANCH, str(bare), cwd=base)
    _git("init", "--quiet", "-b", BRANCH, str(teacher), cwd=base)
    for name in _git("ls-files", "-z", cwd=ROOT).split("\0"):
        source = ROOT / name
        if name and source.is_file():
            (teacher / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, teacher / name)
    _git("add", "-A", cwd=teacher)
    _git("commit", "--quiet", "-m", "The course", cwd=teacher)
    _git("remote", "add", "origin", str(bare), cwd=teacher)
    _git("push", "--quiet", "origin", BRANCH, cwd=teacher)
    return Upstream(bare, teacher)


def _teacher_pushes_a_fix(upstream: Upstream) -> None:
    """A fix in lesson 1, in the exercise set's title (a file the students edit), and a new file."""
    teacher = upstream.teacher
    for name in (LESSON, EXERCISE):
        path = teacher / name
        text = path.read_text()
        nb = json.loads(text)
        first = nb["cells"][0]["source"][0]  # the title line: far from the answer cells
        assert first.startswith("# "), first
        fixed = first.rstrip("\n") + f" ({TEACHER_FIX})" + ("\n" if first.endswith("\n") else "")
        changed = text.replace(json.dumps(first, ensure_ascii=False),
                               json.dumps(fixed, ensure_ascii=False), 1)
        assert changed != text
        path.write_text(changed)
    (teacher / "ANNOUNCEMENTS.md").write_text(f"# {TEACHER_FIX}\n\nLesson 1's title was fixed.\n")
    _git("add", "-A", cwd=teacher)
    _git("commit", "--quiet", "-m", "A fix from the teacher", cwd=teacher)
    _git("push", "--quiet", "origin", BRANCH, cwd=teacher)


def git_pull_link(hub_url: str, repo: str, branch: str = BRANCH, targetpath: str = TARGET,
                  open_path: str = LESSON) -> str:
    """The course's nbgitpuller link (hub/README.md): works for any fork, since targetpath is fixed."""
    query = urllib.parse.urlencode({"repo": repo, "branch": branch, "targetpath": targetpath,
                                    "urlpath": f"lab/tree/{targetpath}/{open_path}"})
    return f"{hub_url}/hub/user-redirect/git-pull?{query}"


class Hub:
    """A JupyterHub on 127.0.0.1 with its proxy, and a record of every process it started."""

    def __init__(self, base: Path, chp: str, extra_config: str = "",
                 visible: list[Path] | None = None) -> None:
        """Start the hub. `extra_config` (Python) is appended to its jupyterhub_config.py: later
        settings win, so another test can add users, a pre-spawn hook or a service. Every server
        runs in a pod of its own (`pod_command`): of the hub's folder `base` it sees its own home,
        the one-machine config folder and the paths in `visible` (read-only), nothing else."""
        if not Path(BWRAP).exists():
            pytest.skip("bubblewrap (bwrap) is not installed: the hub's pods need it")
        self.base = base
        self.homes = base / "homes"
        self.homes.mkdir()
        self.one_machine = base / "one-machine"  # a Jupyter config folder of every server
        self.one_machine.mkdir()
        (self.one_machine / "jupyter_server_config.py").write_text(ONE_MACHINE_CONFIG)
        self.port, self.hub_port, self.api_port = _free_port(), _free_port(), _free_port()
        self.ports = PortSlot()  # the servers' ports, held until stop()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = base / "jupyterhub.log"
        self.seen: dict[int, Any] = {}  # pid -> psutil.Process of everything the hub started
        self.samples: dict[str, dict[str, float]] = {}
        self.cpu_series: dict[str, list[tuple[float, float]]] = {}
        self.hub_peak = self.proxy_peak = 0
        self._stop_sampling = threading.Event()
        bin_dir = Path(sys.executable).parent
        config = f"""
c = get_config()  # noqa
c.JupyterHub.bind_url = "{self.url}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{self.hub_port}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{self.api_port}"
c.ConfigurableHTTPProxy.command = [{chp!r}]
c.ConfigurableHTTPProxy.should_start = True
c.JupyterHub.db_url = "sqlite:///{base / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = "{base / 'jupyterhub_cookie_secret'}"
c.JupyterHub.pid_file = "{base / 'jupyterhub.pid'}"
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True
from pathlib import Path
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = {PASSWORD!r}
c.Authenticator.allowed_users = {{f"student{{i:02d}}" for i in range(1, {STUDENTS} + 1)}}

from jupyterhub.spawner import SimpleLocalProcessSpawner

BWRAP, POD_UID, POD_GID = {BWRAP!r}, {POD_UID}, {POD_GID}
{inspect.getsource(pod_command)}

def _port_block(spawner):  # this server's own port, then its kernels' (tests/hub_ports.py)
    assert 0 < spawner.user.id < {USERS_PER_HUB}, f"user id {{spawner.user.id}}: too many users"
    return {self.ports.first} + {PORTS_PER_SERVER} * spawner.user.id


class PodSpawner(SimpleLocalProcessSpawner):  # each server in a pod of its own (bubblewrap)
    async def start(self):
        # not port 0's choice (jupyterhub.utils.random_port), which another process can be handed
        # before the server binds it: the hub then takes that process's 404 for this server
        self.port = _port_block(self)
        self.cmd = pod_command(self.home_dir, {[str(base)]!r},
                               {[str(self.one_machine), *(str(v) for v in (visible or []))]!r},
                               [{str(bin_dir / 'jupyterhub-singleuser')!r}],
                               {[sys.prefix, str(ROOT)]!r})
        return await super().start()

    def user_env(self, env):
        env = super().user_env(env)
        env["USER"] = "jovyan"  # the image's user, as in every Zero to JupyterHub pod
        return env


c.JupyterHub.spawner_class = PodSpawner
c.SimpleLocalProcessSpawner.home_dir_template = "{self.homes}/{{username}}"
c.Spawner.args = ["--ServerApp.allow_root=True"]
c.Spawner.default_url = "/lab"


def _kernel_ports(spawner):  # the rest of this server's block, for its kernels (ONE_MACHINE_CONFIG)
    return f"{{_port_block(spawner) + 1}}+{PORTS_PER_SERVER - 1}"


c.Spawner.environment = {{"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
                         "CHUTES_TEST_KERNEL_PORTS": _kernel_ports,
                         "JUPYTER_CONFIG_PATH": {str(self.one_machine)!r}}}
# {STUDENTS} servers start at once on a 2-core machine: give them time
c.Spawner.start_timeout = 600
c.Spawner.http_timeout = 600
c.JupyterHub.tornado_settings = {{"slow_spawn_timeout": 1}}
"""
        (base / "jupyterhub_config.py").write_text(config + extra_config)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "JPY_"))}
        env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
        env.pop("VIRTUAL_ENV", None)
        with self.log.open("w") as out:
            self.process = subprocess.Popen([str(bin_dir / "jupyterhub"), "-f",
                                             str(base / "jupyterhub_config.py")], cwd=base,
                                            stdout=out, stderr=subprocess.STDOUT, env=env,
                                            start_new_session=True)
        self.proc = psutil.Process(self.process.pid)
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"jupyterhub exited:\n{self.tail()}")
            try:
                if requests.get(f"{self.url}/hub/health", timeout=5).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.5)
        raise AssertionError(f"jupyterhub did not answer in 120 s:\n{self.tail()}")

    def tail(self, n: int = 6000) -> str:
        return self.log.read_text(errors="replace")[-n:]

    # ---- measuring: every 0.5 s, every process under the hub, by student
    def _sample(self) -> None:
        while not self._stop_sampling.is_set():
            try:
                self._sample_once()
            except psutil.Error:
                pass
            self._stop_sampling.wait(0.5)

    def _sample_once(self) -> None:
        try:
            children = self.proc.children(recursive=True)
        except psutil.Error:
            return
        for p in children:
            self.seen.setdefault(p.pid, p)
        self.hub_peak = max(self.hub_peak, self.proc.memory_info().rss)
        for child in self.proc.children():
            try:
                cmd = " ".join(child.cmdline())
                if "configurable-http-proxy" in cmd:
                    self.proxy_peak = max(self.proxy_peak, child.memory_info().rss)
                    continue
                if "jupyterhub-singleuser" not in cmd:
                    continue
                server = _server_in_pod(child)
                if server is None:
                    continue
                user = server.environ().get("JUPYTERHUB_USER", "?")
                rss_server = server.memory_info().rss
                kernels = [k for k in server.children(recursive=True) if "ipykernel" in " ".join(k.cmdline())]
                rss_kernels = sum(k.memory_info().rss for k in kernels)
                times = server.cpu_times()
            except psutil.Error:
                continue
            s = self.samples.setdefault(user, {"peak_rss": 0, "peak_server_rss": 0,
                                               "peak_kernels_rss": 0, "peak_kernels": 0,
                                               "cpu_s": 0.0, "last_rss": 0, "pid": server.pid})
            total = rss_server + rss_kernels
            # the kernel's own record of each process's peak (VmHWM): nothing between samples is missed
            s["server_hwm"] = max(s.get("server_hwm", 0), _hwm(server.pid))
            s["kernel_hwm"] = max([s.get("kernel_hwm", 0), *(_hwm(k.pid) for k in kernels)])
            s["peak_rss"] = max(s["peak_rss"], total)
            s["peak_server_rss"] = max(s["peak_server_rss"], rss_server)
            s["peak_kernels_rss"] = max(s["peak_kernels_rss"], rss_kernels)
            s["peak_kernels"] = max(s["peak_kernels"], len(kernels))
            s["last_rss"] = total
            # the server's own CPU plus that of its finished (reaped) kernels and git commands
            cpu = times.user + times.system + times.children_user + times.children_system
            cpu += sum(sum(k.cpu_times()[:2]) for k in kernels if k.is_running())
            s["cpu_s"] = max(s["cpu_s"], cpu)
            self.cpu_series.setdefault(user, []).append((time.monotonic(), s["cpu_s"]))

    def stop(self) -> list[str]:
        """Stop the hub (which stops the servers and the proxy); then whatever is left, by pid.

        Returns what was still running after the hub's own shutdown (should be nothing)."""
        self._stop_sampling.set()
        self._sampler.join(timeout=10)
        try:
            for p in self.proc.children(recursive=True):
                self.seen.setdefault(p.pid, p)
        except psutil.Error:
            pass
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=90)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        left = [p for p in self.seen.values() if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        names = [f"{p.pid} {' '.join(p.cmdline())[:120]}" for p in left if _alive(p)]
        for p in left:
            try:
                p.terminate()
            except psutil.Error:
                pass
        _gone, alive = psutil.wait_procs(left, timeout=15)
        for p in alive:
            try:
                p.kill()
            except psutil.Error:
                pass
        self.ports.release()
        return names


def _server_in_pod(pod: Any) -> Any:
    """The jupyterhub-singleuser process inside a pod (bubblewrap and its init process above it)."""
    for p in [pod, *pod.children(recursive=True)]:
        line = p.cmdline()
        if line and Path(line[0]).name != "bwrap" and any("jupyterhub-singleuser" in a for a in line):
            return p
    return None


def _hwm(pid: int) -> int:
    """Peak resident memory of a process in bytes (VmHWM), 0 if unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def _alive(p: Any) -> bool:
    try:
        return bool(p.is_running())
    except psutil.Error:
        return False


# ---------------------------------------------------------------- one student
@dataclass
class Student:
    name: str
    hub: str
    timings: dict[str, float] = field(default_factory=dict)
    landed_on: str = ""
    lesson_cells: int = 0
    exercise_cells: int = 0
    not_yet: int = 0
    errors: list[str] = field(default_factory=list)
    home_import: str = ""
    edit: str = ""
    failure: str = ""
    t0: float = 0.0

    def __post_init__(self) -> None:
        self.s = requests.Session()
        self.base = f"{self.hub}/user/{self.name}/"

    # ---- the browser's part
    def _get(self, url: str, **kw: Any) -> Any:
        r = self.s.get(url, timeout=REQUEST_TIMEOUT, **kw)
        if r.status_code >= 500:
            raise AssertionError(f"{self.name}: GET {url} -> {r.status_code}\n{r.text[-800:]}")
        return r

    def _xsrf(self) -> str:
        value = self.s.cookies.get("_xsrf", path=f"/user/{self.name}/")
        assert value, f"{self.name}: no _xsrf cookie from the single-user server"
        return str(value)

    def _api(self, method: str, path: str, **kw: Any) -> Any:
        r = self.s.request(method, self.base + path, timeout=REQUEST_TIMEOUT,
                           headers={"X-XSRFToken": self._xsrf()}, **kw)
        assert r.status_code < 400, f"{self.name}: {method} {path} -> {r.status_code} {r.text[-500:]}"
        return r.json() if r.content else None

    def follow_link(self, link: str, deadline: float) -> str:
        """Click the link: log in if asked, launch the server if asked, let nbgitpuller pull,
        then follow its redirect. Returns the path the student lands on."""
        r = self._get(link)
        if "/hub/login" in r.url:
            xsrf = re.search(r'name="_xsrf" value="([^"]+)"', r.text)
            assert xsrf, f"{self.name}: no login form at {r.url}"
            r = self.s.post(r.url, data={"username": self.name, "password": PASSWORD,
                                         "_xsrf": html.unescape(xsrf.group(1))},
                            timeout=REQUEST_TIMEOUT)
            self.timings.setdefault("logged_in", time.monotonic())
        start = re.search(r'id="start"[^>]*?href="([^"]+)"', r.text, re.S)
        if r.status_code == 424 and start:  # "Server not running": the student clicks "Launch"
            r = self._get(urllib.parse.urljoin(r.url, html.unescape(start.group(1))))
        if urllib.parse.urlparse(r.url).path.startswith("/hub/spawn"):
            # the hub is starting the server (spawn-pending); the page's script waits, so do we
            while urllib.parse.urlparse(r.url).path.startswith("/hub/spawn"):
                assert time.monotonic() < deadline, f"{self.name}: server not started in time"
                assert "Spawn failed" not in r.text, f"{self.name}: spawn failed: {r.text[-1000:]}"
                time.sleep(1)
                r = self._get(r.url)
            self.timings.setdefault("server_ready", time.monotonic())
        assert r.status_code == 200 and "/git-pull" in r.url, (
            f"{self.name}: expected nbgitpuller's page, got {r.status_code} {r.url}\n{r.text[-800:]}")
        data = {k: urllib.parse.unquote(html.unescape(v))
                for k, v in re.findall(r'data-([a-z-]+)="([^"]*)"', r.text)}
        # what nbgitpuller's page does in the browser: an event stream, then a redirect
        params = {"_xsrf": data["xsrf"], "repo": data["repo"], "targetpath": data["targetpath"]}
        if "branch" in data:
            params["branch"] = data["branch"]
        phases = []
        with self.s.get(f"{self.hub}{data['base-url']}git-pull/api", params=params, stream=True,
                        timeout=REQUEST_TIMEOUT) as events:
            assert events.status_code == 200, f"{self.name}: git-pull/api -> {events.status_code}"
            for line in events.iter_lines(decode_unicode=True):
                if line and line.startswith("data:"):
                    event = json.loads(line[5:])
                    phases.append(event)
                    if event.get("phase") in ("finished", "error"):
                        break
        assert phases and phases[-1].get("phase") == "finished", (
            f"{self.name}: nbgitpuller did not finish: {phases[-3:]}")
        self.timings.setdefault("pulled", time.monotonic())
        landing = f"{self.hub}{data['base-url']}{data['path']}"
        r = self._get(landing)
        assert r.status_code == 200, f"{self.name}: {landing} -> {r.status_code}"
        return urllib.parse.urlparse(r.url).path

    # ---- the kernel's part: what JupyterLab does when a notebook runs
    def run_notebook(self, path: str, keep: list[str] | None = None) -> tuple[int, str]:
        """Open a session on the notebook, run its code cells in order; returns (cells, all text).

        The session's kernel is shut down unless `keep` is given (then its id is appended)."""
        model = self._api("GET", f"api/contents/{urllib.parse.quote(path)}")
        session = self._api("POST", "api/sessions", json={"path": path, "type": "notebook", "name": "",
                                                          "kernel": {"name": "python3"}})
        try:
            cells = [c for c in model["content"]["cells"] if c["cell_type"] == "code"]
            text = self._execute(session["kernel"]["id"], [c["source"] for c in cells], path)
            return len(cells), text
        finally:
            if keep is None:
                self._api("DELETE", f"api/sessions/{session['id']}")
            else:
                keep.append(session["id"])

    def run_in_home(self, code: str) -> str:
        kernel = self._api("POST", "api/kernels", json={"name": "python3", "path": ""})
        try:
            return self._execute(kernel["id"], [code], "(home folder)")
        finally:
            self._api("DELETE", f"api/kernels/{kernel['id']}")

    def _execute(self, kernel_id: str, sources: list[str], where: str) -> str:
        prepared = self.s.prepare_request(requests.Request("GET", self.base))
        ws_url = self.base.replace("http://", "ws://", 1)
        ws = websocket.create_connection(
            f"{ws_url}api/kernels/{kernel_id}/channels?session_id={uuid.uuid4().hex}",
            cookie=prepared.headers.get("Cookie", ""), timeout=CELL_TIMEOUT,
            header=[f"X-XSRFToken: {self._xsrf()}"])
        out: list[str] = []
        try:
            session = uuid.uuid4().hex
            for number, source in enumerate(sources, 1):
                msg_id = uuid.uuid4().hex
                ws.send(json.dumps({
                    "header": {"msg_id": msg_id, "username": self.name, "session": session,
                               "msg_type": "execute_request", "version": "5.3",
                               "date": datetime.now(UTC).isoformat()},
                    "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                    "content": {"code": source, "silent": False, "store_history": True,
                                "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))
                replied = idle = False
                while not (replied and idle):
                    msg = _decode(ws.recv())
                    if msg.get("parent_header", {}).get("msg_id") != msg_id:
                        continue
                    kind, content = msg["msg_type"], msg["content"]
                    if kind == "execute_reply":
                        replied = True
                        if content.get("status") != "ok":
                            self.errors.append(f"{where} cell {number}: {content.get('ename')}: "
                                               f"{content.get('evalue')}")
                    elif kind == "status" and content.get("execution_state") == "idle":
                        idle = True
                    elif kind == "stream":
                        out.append(content["text"])
                    elif kind in ("execute_result", "display_data"):
                        out.append(str(content.get("data", {}).get("text/plain", "")))
                    elif kind == "error":
                        out.append("\n".join(content.get("traceback", [])))
        finally:
            ws.close()
        return "".join(out)

    def save_an_edit(self) -> str:
        """The student writes in the first answer cell of the exercise set and saves (Ctrl-S)."""
        path = f"{TARGET}/{EXERCISE}"
        model = self._api("GET", f"api/contents/{urllib.parse.quote(path)}")
        nb = model["content"]
        line = f"# {self.name} worked on this: {uuid.uuid4().hex[:8]}"
        cell = next(c for c in nb["cells"] if c["cell_type"] == "code" and "answer_" in c["source"])
        cell["source"] = cell["source"].rstrip("\n") + "\n" + line
        self._api("PUT", f"api/contents/{urllib.parse.quote(path)}",
                  json={"type": "notebook", "format": "json", "content": nb})
        return line

    def read(self, path: str) -> str:
        model = self._api("GET", f"api/contents/{urllib.parse.quote(path)}",
                          params={"type": "file", "format": "text"})
        return str(model["content"])


def _decode(frame: str | bytes) -> dict[str, Any]:
    """A kernel message from the websocket: text, or binary when it carries buffers (widgets)."""
    if isinstance(frame, str):
        return dict(json.loads(frame))
    count = int.from_bytes(frame[:4], "big")
    offsets = [int.from_bytes(frame[4 + 4 * i: 8 + 4 * i], "big") for i in range(count)]
    end = offsets[1] if count > 1 else len(frame)
    return dict(json.loads(frame[offsets[0]:end].decode()))


# ---------------------------------------------------------------- the class
HOME_CODE = (
    "import os, chutes_edu\n"
    "from chutes_edu import MILTON_BRADLEY_1943, expected_turns\n"
    "print('cwd', os.getcwd())\n"
    "print('file', chutes_edu.__file__)\n"
    "print('turns', round(float(expected_turns(MILTON_BRADLEY_1943)[0]), 4))\n"
    "import ipykernel, json\n"
    "info = json.loads(ipykernel.get_connection_info())\n"
    "print('ports', *sorted(v for k, v in info.items() if k.endswith('_port')))\n"
)


def _first_session(student: Student, link: str, go: threading.Barrier, deadline: float) -> None:
    go.wait(timeout=120)
    t0 = student.t0 = time.monotonic()
    student.timings["clicked"] = t0
    try:
        student.landed_on = student.follow_link(link, deadline)
        student.timings["opened"] = time.monotonic()
        assert student._api("GET", f"api/contents/{urllib.parse.quote(f'{TARGET}/{LESSON}')}"
                            )["type"] == "notebook"
        kept: list[str] = []  # lesson 1 stays open while the student works on the exercise set
        student.lesson_cells, _ = student.run_notebook(f"{TARGET}/{LESSON}", keep=kept)
        student.timings["lesson_ran"] = time.monotonic()
        student.exercise_cells, text = student.run_notebook(f"{TARGET}/{EXERCISE}", keep=kept)
        student.not_yet = text.count("not yet")
        student.timings["exercises_ran"] = time.monotonic()
        time.sleep(1.5)  # one more memory sample with both kernels alive
        for sid in kept:
            student._api("DELETE", f"api/sessions/{sid}")
        student.home_import = student.run_in_home(HOME_CODE)
        student.edit = student.save_an_edit()
        student.timings["saved"] = time.monotonic()
    except Exception as e:  # recorded, asserted on by the tests below
        student.failure = f"{type(e).__name__}: {e}"
    finally:
        student.timings = {k: round(v - t0, 2) for k, v in student.timings.items()}


@dataclass
class Classroom:
    hub: Hub
    upstream: Upstream
    link: str
    students: list[Student]
    squatter: PortSquatter
    second: dict[str, str] = field(default_factory=dict)
    second_failures: dict[str, str] = field(default_factory=dict)
    second_timings: dict[str, float] = field(default_factory=dict)
    wall_s: float = 0.0


@pytest.fixture(scope="module")
def classroom(tmp_path_factory: pytest.TempPathFactory) -> Any:
    try:
        _free_port()
    except OSError as e:
        pytest.skip(f"no free port on 127.0.0.1: {e}")
    chp = _configurable_http_proxy()
    base = tmp_path_factory.mktemp("hub")
    upstream = _teacher_pushes_the_course(base)
    started = time.monotonic()
    deadline = started + DEADLINE
    hub = Hub(base, chp, visible=[upstream.bare])
    # another process, handed by port 0 every server's port it could be handed (tests/hub_ports.py)
    squatter = PortSquatter(hub.proc)
    try:
        link = git_pull_link(hub.url, upstream.url)
        students = [Student(f"student{i:02d}", hub.url) for i in range(1, STUDENTS + 1)]
        go = threading.Barrier(STUDENTS)
        with ThreadPoolExecutor(STUDENTS) as pool:
            futures = [pool.submit(_first_session, s, link, go, deadline) for s in students]
            for f in futures:
                f.result(timeout=max(1.0, deadline - time.monotonic()))
        squatter.stop()
        room = Classroom(hub, upstream, link, students, squatter)
        if not any(s.failure for s in students):
            _teacher_pushes_a_fix(upstream)

            def second_pull(s: Student) -> None:
                t0 = time.monotonic()
                try:
                    room.second[s.name] = s.follow_link(link, deadline)
                    room.second_timings[s.name] = round(time.monotonic() - t0, 2)
                except Exception as e:
                    room.second_failures[s.name] = f"{type(e).__name__}: {e}"

            with ThreadPoolExecutor(STUDENTS) as pool:
                for f in [pool.submit(second_pull, s) for s in students]:
                    f.result(timeout=max(1.0, deadline - time.monotonic()))
        time.sleep(1)  # a last sample of the idle servers
        hub._sample_once()
        room.wall_s = round(time.monotonic() - started, 1)
        yield room
    finally:
        squatter.stop()
        hub.stop()


def _failures(room: Classroom) -> str:
    lines = [f"{s.name}: {s.failure}" for s in room.students if s.failure]
    return "\n".join(lines) + ("\n--- hub log ---\n" + room.hub.tail() if lines else "")


def test_each_student_gets_their_own_copy_and_lands_on_lesson_one(classroom: Classroom) -> None:
    assert not _failures(classroom), _failures(classroom)
    expected = [f"/user/{s.name}/lab/tree/{TARGET}/{LESSON}" for s in classroom.students]
    assert [s.landed_on for s in classroom.students] == expected
    for s in classroom.students:
        clone = classroom.hub.homes / s.name / TARGET
        assert (clone / ".git").is_dir() and (clone / LESSON).is_file(), clone
        assert _git("remote", "get-url", "origin", cwd=clone).strip() == classroom.upstream.url
        # each in their own home, nobody else's
        assert not (classroom.hub.homes / s.name / "chutes_edu").exists()
    assert len({s.name for s in classroom.students}) == STUDENTS >= 10


def test_lesson_and_exercises_run_on_every_students_kernel(classroom: Classroom) -> None:
    assert not _failures(classroom), _failures(classroom)
    lesson_cells = sum(c["cell_type"] == "code" for c in json.loads((ROOT / LESSON).read_text())["cells"])
    for s in classroom.students:
        assert s.errors == [], (s.name, s.errors)
        assert s.lesson_cells == lesson_cells and s.exercise_cells > 0, s
        assert s.not_yet > 0, f"{s.name}: the unattempted exercise set said no 'not yet'"


def test_the_library_imports_in_a_kernel_started_in_the_home_folder(classroom: Classroom) -> None:
    assert not _failures(classroom), _failures(classroom)
    blocks = {}
    for s in classroom.students:
        out = s.home_import
        assert f"cwd {classroom.hub.homes / s.name}\n" in out, (s.name, out)
        assert f"file {ROOT / 'chutes_edu' / '__init__.py'}\n" in out, (s.name, out)
        assert "turns 39.2251" in out, (s.name, out)
        # the kernel's ports come from its server's own block, after the server's port
        ports = [int(p) for p in re.search(r"^ports (.*)$", out, re.M)[1].split()]
        server = classroom.squatter.seen[s.name]
        assert len(ports) == 5 and all(server < p < server + PORTS_PER_SERVER for p in ports), (
            s.name, server, ports)
        blocks[s.name] = server
    assert len(set(blocks.values())) == len(blocks), blocks  # a block for each server


def test_a_second_pull_brings_the_teachers_fix_and_keeps_every_edit(classroom: Classroom) -> None:
    assert not _failures(classroom), _failures(classroom)
    assert not classroom.second_failures, (classroom.second_failures, classroom.hub.tail())
    for s in classroom.students:
        assert classroom.second[s.name] == f"/user/{s.name}/lab/tree/{TARGET}/{LESSON}"
        clone = classroom.hub.homes / s.name / TARGET
        exercise = (clone / EXERCISE).read_text()
        assert s.edit and s.edit in exercise, f"{s.name} lost their edit"
        assert TEACHER_FIX in exercise, f"{s.name}: the teacher's fix to the exercise set is missing"
        assert TEACHER_FIX in (clone / LESSON).read_text()
        assert (clone / "ANNOUNCEMENTS.md").is_file()
        json.loads(exercise)  # still a notebook
        others = [o.edit for o in classroom.students if o is not s]
        assert not any(edit in exercise for edit in others), f"{s.name} got someone else's edit"
        assert not _git("status", "--porcelain", "--untracked-files=no", cwd=clone).strip()


def test_no_other_process_can_be_handed_a_servers_port(classroom: Classroom) -> None:
    """The flake of issue 51: a student sent to another process's 404 (tests/hub_ports.py). The
    squatter took every server's port that port 0 could have handed it; there was none."""
    assert not _failures(classroom), _failures(classroom)
    seen = classroom.squatter.seen
    assert sorted(seen) == sorted(s.name for s in classroom.students), seen  # it saw every server
    assert classroom.squatter.taken == [], classroom.squatter.taken
    low, _high = ephemeral_range()
    assert len(set(seen.values())) == len(seen) and max(seen.values()) < low, seen
    for s in classroom.students:     # each server listens on the port the hub routes to
        server = psutil.Process(int(classroom.hub.samples[s.name]["pid"]))
        listening = {c.laddr.port for c in server.net_connections("tcp") if c.status == psutil.CONN_LISTEN}
        assert seen[s.name] in listening, (s.name, seen[s.name], listening)


def test_port_0_hands_out_a_port_it_handed_out_before() -> None:
    """Why a port chosen by port 0 (jupyterhub.utils.random_port, the hub's own choice) is not the
    server's to keep: the next requests for port 0, from anyone, can be handed it again."""
    from jupyterhub.utils import random_port

    chosen, tries = random_port(), 0
    while tries < 500_000:
        tries += 1
        if random_port() == chosen:
            break
    assert tries < 500_000, f"port 0 never handed out {chosen} again"
    low, _high = ephemeral_range()
    assert chosen >= low


def test_records_time_to_first_open_and_memory_per_student(classroom: Classroom,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert not _failures(classroom), _failures(classroom)
    mib = 1024 * 1024
    rows = []
    for s in classroom.students:
        sample = classroom.hub.samples.get(s.name, {})
        t = s.timings
        rows.append({"student": s.name, **{f"t_{k}_s": v for k, v in t.items()},
                     "t_run_lesson_and_exercises_s": round(t["exercises_ran"] - t["opened"], 2),
                     "t_second_pull_s": classroom.second_timings.get(s.name),
                     "peak_rss_mib": round(sample.get("peak_rss", 0) / mib, 1),
                     "peak_server_rss_mib": round(sample.get("peak_server_rss", 0) / mib, 1),
                     "peak_kernels_rss_mib": round(sample.get("peak_kernels_rss", 0) / mib, 1),
                     "peak_kernels": sample.get("peak_kernels", 0),
                     "server_vmhwm_mib": round(sample.get("server_hwm", 0) / mib, 1),
                     "largest_kernel_vmhwm_mib": round(sample.get("kernel_hwm", 0) / mib, 1),
                     "idle_rss_mib": round(sample.get("last_rss", 0) / mib, 1),
                     "cpu_to_first_open_s": round(max([c for when, c in classroom.hub.cpu_series.get(s.name, [])
                                                       if when <= s.t0 + t["opened"]], default=0.0), 1),
                     "cpu_s": round(sample.get("cpu_s", 0.0), 1)})
    for row in rows:
        assert row["peak_rss_mib"] > 0 and row["t_opened_s"] > 0, row

    def stats(key: str) -> str:
        values = sorted(float(r[key]) for r in rows if r.get(key) is not None)
        return (f"median {values[len(values) // 2]:.1f}, max {values[-1]:.1f}" if values else "-")

    summary = "\n".join([
        f"hub test: {STUDENTS} students at once on {os.cpu_count()} cores "
        f"(jupyterhub {_version('jupyterhub')}, nbgitpuller {_version('nbgitpuller')}, "
        f"configurable-http-proxy {CHP_VERSION})",
        f"  time to first open (click -> lesson 1 in Lab), s:  {stats('t_opened_s')}",
        f"  then running lesson 1 + exercise set 1, s:         {stats('t_run_lesson_and_exercises_s')}",
        f"  second pull (teacher's fix), s:                    {stats('t_second_pull_s')}",
        f"  peak memory, server + kernels, MiB:                {stats('peak_rss_mib')}",
        f"    of which server alone, MiB:                      {stats('peak_server_rss_mib')}",
        f"    of which kernels (2 open), MiB:                  {stats('peak_kernels_rss_mib')}",
        f"  peak of the server process (VmHWM), MiB:           {stats('server_vmhwm_mib')}",
        f"  peak of the largest kernel (VmHWM), MiB:           {stats('largest_kernel_vmhwm_mib')}",
        f"  idle server after the session, MiB:                {stats('idle_rss_mib')}",
        f"  CPU time to first open (server start + pull), s:   {stats('cpu_to_first_open_s')}",
        f"  CPU time per student (server + kernels + git), s:  {stats('cpu_s')}",
        f"  hub {classroom.hub.hub_peak / mib:.0f} MiB, proxy {classroom.hub.proxy_peak / mib:.0f} MiB peak; "
        f"the whole class took {classroom.wall_s:.0f} s",
    ])
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "hub_students.json").write_text(json.dumps({
        "students": STUDENTS, "cores": os.cpu_count(), "class_wall_s": classroom.wall_s, "rows": rows,
        "hub_peak_rss_mib": round(classroom.hub.hub_peak / mib, 1),
        "proxy_peak_rss_mib": round(classroom.hub.proxy_peak / mib, 1),
        "measured": "psutil RSS of jupyterhub-singleuser + its ipykernel children, sampled every "
                    "0.5 s; VmHWM = each process's own peak RSS from /proc; CPU = user+system of "
                    "the server, its reaped children and live kernels",
    }, indent=1))
    (ARTIFACTS / "hub_summary.txt").write_text(summary + "\n")
    with capsys.disabled():
        print("\n" + summary)


def test_everything_the_hub_started_is_stopped(classroom: Classroom) -> None:
    # runs last: stop the hub now (the fixture's teardown then has nothing left to do)
    left = classroom.hub.stop()
    assert classroom.hub.process.poll() is not None
    assert left == [], f"still running after the hub stopped: {left}"
    assert classroom.hub.seen, "the hub started no process?"
    assert not [p.pid for p in classroom.hub.seen.values() if _alive(p)
                and p.status() != psutil.STATUS_ZOMBIE]


def _version(name: str) -> str:
    from importlib.metadata import version
    return version(name)



def test_the_documented_link_and_config_match_what_the_test_uses() -> None:
    """hub/README.md's link is the one the students follow here; hub/config.yaml says what it must."""
    import yaml

    readme = (ROOT / "hub" / "README.md").read_text()
    link = git_pull_link("https://<your hub>", "<URL-encoded repository>")
    documented = link.replace("%3Cyour+hub%3E", "<your hub>").replace(
        "repo=%3CURL-encoded+repository%3E", "repo=<URL-encoded repository>")
    assert documented in readme, documented
    assert "targetpath=chutes-course" in documented and TARGET != "chutes_edu"
    config = yaml.safe_load((ROOT / "hub" / "config.yaml").read_text())
    single = config["singleuser"]
    assert single["memory"]["guarantee"] and single["memory"]["limit"]
    assert single["defaultUrl"] == "/lab" and config["cull"]["enabled"] is True
    assert single["image"]["tag"] != "latest"
    # the image is the one environment of binder/, which carries nbgitpuller and pins Python
    requirements = (ROOT / "binder" / "requirements.txt").read_text()
    assert re.search(r"^nbgitpuller==", requirements, re.M)
    assert (ROOT / "binder" / "runtime.txt").read_text().strip().startswith("python-3.")


# What a student's code can find of other servers: their hub tokens (in any process's environment)
# and their homes. Run with the student's own token; prints what it found.
PROBE = r"""
import glob, os, sys
tokens = set()
for environ in glob.glob("/proc/[0-9]*/environ"):
    try:
        data = open(environ, "rb").read()
    except OSError:
        continue
    tokens |= {item.split(b"=", 1)[1].decode() for item in data.split(b"\0")
               if item.startswith(b"JUPYTERHUB_API_TOKEN=")}
print("tokens", *sorted(tokens))
print("classmate's home", os.path.exists(sys.argv[1]))
print("uid", os.getuid())
"""


def test_a_pod_hides_other_servers_tokens_and_homes(tmp_path: Path) -> None:
    """The hub test's pods (pod_command) against a student reading another server's token or
    home; without the pod (the test hub before: every server a process of one machine, one uid)
    the same code finds both."""
    if not Path(BWRAP).exists():
        pytest.skip("bubblewrap (bwrap) is not installed")
    homes = tmp_path / "homes"
    ada, mallory = homes / "ada", homes / "mallory"
    for home in (ada, mallory):
        home.mkdir(parents=True)
    (ada / "work.txt").write_text("ada's work")
    theirs, mine = uuid.uuid4().hex, uuid.uuid4().hex
    base_env = {k: v for k, v in os.environ.items() if k != "JUPYTERHUB_API_TOKEN"}
    ada_server = subprocess.Popen(["sleep", "120"], env={**base_env, "JUPYTERHUB_API_TOKEN": theirs})
    try:
        probe = [sys.executable, "-c", PROBE, str(ada / "work.txt")]
        env = {**base_env, "JUPYTERHUB_API_TOKEN": mine}
        before = subprocess.run(probe, env=env, capture_output=True, text=True, timeout=60, cwd=mallory)
        assert before.returncode == 0, before.stderr
        assert theirs in before.stdout and "classmate's home True" in before.stdout, before.stdout
        after = subprocess.run(pod_command(mallory, [tmp_path], [], probe, [sys.prefix, ROOT]),
                               env=env,
                               capture_output=True, text=True, timeout=60)
        assert after.returncode == 0, after.stderr
        assert mine in after.stdout, after.stdout  # the probe works: it finds its own token
        assert theirs not in after.stdout and "classmate's home False" in after.stdout, after.stdout
        assert f"uid {POD_UID}" in after.stdout
    finally:
        ada_server.kill()
        ada_server.wait(timeout=30)


HOLDER = """import fcntl, pathlib, sys, time
lock = open(sys.argv[1], "w")
fcntl.flock(lock, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(1)                          # an install under way
pathlib.Path(sys.argv[2]).write_text("installed")
"""


def test_a_cache_waits_for_the_install_under_way(tmp_path: Path) -> None:
    """`make test` installs the caches in the background (tests/hub_caches.py): a hub test that
    starts meanwhile must wait for that install (folder_lock), not install again beside it."""
    cache = tmp_path / "share" / "some-cache"
    cache.parent.mkdir(parents=True)
    done = tmp_path / "installed"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(cache.parent / f".{cache.name}.lock"),
                               str(done)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with folder_lock(cache):
            assert done.read_text() == "installed"     # we got in only after the install
    finally:
        holder.kill()
        holder.wait(timeout=60)
