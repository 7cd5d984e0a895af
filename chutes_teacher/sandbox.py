"""Autograde each submission in a bubblewrap sandbox: nbgrader's Execute step, confined.

nbgrader runs a submission's code in a Jupyter kernel started as the teacher. Here that kernel is
started inside ``bwrap`` (bubblewrap, the sandbox Flatpak uses), one sandbox per notebook, which
sees only:

- a copy of the notebook's folder (writable scratch, thrown away afterwards) as its working folder;
- the course library **without the answer checks** (``chutes_edu`` minus
  ``chutes_edu/checks/lessonNN.py``, as in the student copy of the course), read-only, mounted where
  the grader's own ``chutes_edu`` is, so that no other copy can be found;
- the Python installation and the system's programs and libraries (``/usr``), read-only, and a
  small ``/tmp``;
- an environment made from an allowlist (``PATH``, ``LANG``, the BLAS thread counts, nbgrader's
  ``NBGRADER_EXECUTION`` (the hidden tests record answers only under autograde), the student's
  id and the course secret that :mod:`chutes_edu.variants` needs for the student's own numbers;
  every student's own server has that secret anyway), so no hub token or other secret;
- no network (a network namespace of its own: the kernel talks to the grader over Unix sockets in
  a folder bound into the sandbox, jupyter_client's ``ipc`` transport), its own PID namespace (it
  sees only its own processes; ``/proc/1`` is the sandbox's own init), no capabilities.

A function answer's check needs the answer checks, so it runs in the grader: the kernel keeps the
student's function (:func:`chutes_edu.grading.answer_record` marks it ``pending``), and
:class:`SandboxedExecute` calls it once per input the check tries, in the kernel, reading each
result back as JSON data (:func:`chutes_edu.grading.probe_call`), then writes the calls into the
cell's record; ``DecideGrades`` judges them as always.

It is held by limits: memory and processes (cgroup v1 ``memory`` and ``pids`` when this machine lets
the grader make cgroups, else ``RLIMIT_AS`` and ``RLIMIT_NPROC``), CPU seconds per process
(``RLIMIT_CPU``), file size (``RLIMIT_FSIZE``), a time limit per cell (nbgrader's
``Execute.timeout``) and one per notebook (:attr:`SandboxedExecute.notebook_timeout`: once it is
used up, the cells left are not run and score nothing; a kernel that does not answer is killed).
Nothing it starts outlives it: bubblewrap's ``--die-with-parent`` and the PID namespace end every
process of the sandbox with the kernel, and the cgroup is emptied and removed. A grader killed
outright (SIGKILL, the out-of-memory killer) cannot remove its sandbox's folder and cgroups; they
are named after its process, and the next grader on the machine removes those whose grader is gone.

Its output is capped (:class:`OutputBudget`): at :data:`OUTPUT_PER_CELL` bytes per cell and
:data:`OUTPUT_PER_NOTEBOOK` per notebook (the answer records the hidden tests make, and the probes
of a function answer, have :data:`RECORDS_PER_NOTEBOOK` of their own, so that a flood never costs
a later cell its points), the rest cut with a note in the notebook ("output cut at 2 MB"). It is
cut twice: inside the sandbox, by an IPython extension the kernel loads before any cell runs
(stdout and stderr as they are written, so a 400 MiB print is never buffered, and every other
output as it is sent), and in the grader as the messages arrive, since the kernel runs the
student's code and could undo its own cap. The grader's sockets take no message over
:attr:`SandboxedExecute.message_limit` bytes (ZeroMQ's ``MAXMSGSIZE``: a bigger one ends the
connection before it is read; the grader connects again, that cell says its output was lost, and
the next cells run as usual) and queue at most :data:`RECEIVE_QUEUE` messages, so whatever the
kernel sends, the grader holds a bounded amount.

The notebook's folder is copied into the sandbox by
:func:`chutes_teacher.submissions.copy_submission`: no symbolic link is followed (a link is left
out, named in the log) and the submission limits hold.

Without a working sandbox (no ``bwrap``, or no namespaces allowed) autograde **refuses**, naming the
setting that grades unconfined on purpose: ``c.SandboxedExecute.allow_unsandboxed = True``.
"""

from __future__ import annotations

import contextlib
import inspect
import math
import os
import re
import resource
import shutil
import signal
import site
import stat
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import IO, Any

import nbformat
import zmq
from jupyter_client.manager import AsyncKernelManager
from nbclient.exceptions import CellTimeoutError
from nbclient.util import run_sync
from nbgrader.preprocessors import Execute  # type: ignore[import-untyped]
from traitlets import Bool, Integer, List, Unicode

from chutes_edu.variants import SECRET_VARIABLE, STUDENT_ID_VARIABLES
from chutes_teacher.submissions import MAX_BYTES, MAX_FILES, copy_submission

__all__ = ["ENVIRONMENT", "MESSAGE_BYTES", "OPT_OUT", "OUTPUT_PER_CELL", "OUTPUT_PER_NOTEBOOK",
           "RECEIVE_QUEUE", "RECORDS_PER_NOTEBOOK", "Limits", "OutputBudget", "Sandbox",
           "SandboxUnavailable", "SandboxedExecute", "SandboxedKernelManager", "answer_module",
           "sandbox_problem", "student_library"]

OPT_OUT = "c.SandboxedExecute.allow_unsandboxed = True"
"""The setting (in ``nbgrader_config.py``) that grades without a sandbox, knowingly."""

ENVIRONMENT = ("PATH", "LANG", "LC_ALL", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
               "MKL_NUM_THREADS", "OPENBLAS_CORETYPE", "NBGRADER_EXECUTION",
               "NBGRADER_VALIDATING", SECRET_VARIABLE)
"""The grader's environment variables a sandboxed kernel gets (when set); nothing else."""

_ANSWER_MODULE = re.compile(r"^lesson[^/]*\.py$")
# The read-only system folders every program needs; /etc only by the files Python and its
# libraries read (no shadow, no keys, no host names).
_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime", "fonts",
        "passwd", "group", "nsswitch.conf", "mime.types", "matplotlibrc")
_CGROUP_V1 = Path("/sys/fs/cgroup")
_HEADROOM = 1024 ** 3
_MAX_CALLS = 2000               # calls of a student's function per check, at most

OUTPUT_PER_CELL = 2_000_000
"""Bytes of output a cell keeps (text, images, HTML, errors, widget messages); the rest is cut."""
OUTPUT_PER_NOTEBOOK = 10_000_000
"""Bytes of output a whole notebook keeps, besides its answer records."""
RECORDS_PER_NOTEBOOK = 4_000_000
"""Bytes of answer records (hidden tests, function probes) a notebook keeps, apart from its
output, so that a flood of output never costs a later answer its points."""
MESSAGE_BYTES = 8_000_000
"""The largest message the grader reads from a sandboxed kernel (ZeroMQ ``MAXMSGSIZE``)."""
RECEIVE_QUEUE = 64
"""Messages from a sandboxed kernel the grader queues at most (ZeroMQ ``RCVHWM``): with
:data:`MESSAGE_BYTES`, what a kernel that undid its own cap can make the grader hold."""
_ERROR_TEXT = 10_000            # characters kept of an error's value and of each traceback line
_ERROR_LINES = 60
_COUNTED = frozenset({"stream", "display_data", "execute_result", "error", "update_display_data",
                      "comm_open", "comm_msg"})
_EXTENSION = "chutes_output_cap"
# A sandbox's folder and cgroups are named after the grading process that made them (its PID
# namespace and its pid in it), so that a grader killed outright (SIGKILL, the out-of-memory
# killer), which cannot remove them, leaves them to the next grader to remove (_sweep).
_PREFIX = "chutes-sandbox-"
_STALE = re.compile(rf"^{_PREFIX}(\d+)-(\d+)-\w+$")
_swept = False


def _content_size(value: object, depth: int = 0) -> int:
    """About how many bytes a message's content takes as JSON (text at 4 bytes a character
    unless it is ASCII); nesting deeper than 64 counts as too big."""
    if depth > 64:
        return 1 << 60
    if isinstance(value, str):
        return len(value) if value.isascii() else 4 * len(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return len(value)
    if isinstance(value, dict):
        return 2 + sum(_content_size(k, depth + 1) + _content_size(v, depth + 1)
                       for k, v in value.items())
    if isinstance(value, list | tuple):
        return 2 + sum(_content_size(v, depth + 1) for v in value)
    return 8


class OutputBudget:
    """The output one notebook may keep: bytes per cell and in all, answer records apart.

    The same class counts in the sandboxed kernel (its source is written into the kernel's
    extension) and in the grader.

    Parameters
    ----------
    cell, notebook, records : int
        Bytes per cell, per notebook, and of answer records per notebook.
    answer_mime : str
        The MIME type of an answer record (``chutes_edu.grading.ANSWER_MIME``).
    probe_mark : str
        How a function probe's result line starts (``chutes_edu.grading.PROBE_MARK``).
    """

    def __init__(self, cell: int, notebook: int, records: int, answer_mime: str,
                 probe_mark: str) -> None:
        self.cell, self.notebook, self.records = cell, notebook, records
        self.answer_mime, self.probe_mark = answer_mime, probe_mark
        self.cell_used = self.notebook_used = self.records_used = 0
        self.noted = False
        self.probing = False

    def new_cell(self) -> None:
        """A cell starts: its own count begins again, and its note may be given once."""
        self.cell_used = 0
        self.noted = False

    def is_record(self, kind: str, content: Any) -> bool:
        """Whether a message is an answer record or a probe's result."""
        if not isinstance(content, dict):
            return False
        if kind == "display_data":
            data = content.get("data")
            return isinstance(data, dict) and self.answer_mime in data
        if kind == "stream":
            text = content.get("text")
            return self.probing or (isinstance(text, str) and text.startswith(self.probe_mark))
        return False

    def room(self) -> int:
        """Bytes of output the current cell may still keep."""
        return max(0, min(self.cell - self.cell_used, self.notebook - self.notebook_used))

    def take(self, size: int) -> int:
        """Count up to ``size`` bytes of output; how many fit."""
        kept = min(size, self.room())
        self.cell_used += kept
        self.notebook_used += kept
        return kept

    def admit(self, kind: str, content: Any, size: int) -> bool:
        """Count a whole message of ``size`` bytes if it fits; whether it did."""
        if self.is_record(kind, content):
            if self.records_used + size > self.records:
                return False
            self.records_used += size
            return True
        if size > self.room():
            return False
        self.take(size)
        return True

    def note(self) -> str | None:
        """The line that says output was cut, once per cell (None after the first)."""
        if self.noted:
            return None
        self.noted = True
        return (f"\n[output cut at {self.cell / 1e6:g} MB: a cell keeps at most "
                f"{self.cell / 1e6:g} MB of output and a notebook {self.notebook / 1e6:g} MB; "
                "the rest of this cell's output was not kept]\n")


_KERNEL_SIDE = '''
def load_ipython_extension(ip):
    """Cap this kernel's output: stdout and stderr as written, other outputs as sent."""
    import sys
    import threading

    budget = OutputBudget({cell}, {notebook}, {records}, {answer!r}, {probe!r})
    lock = threading.Lock()

    def new_cell(*args, **kwargs):
        with lock:
            budget.new_cell()

    ip.events.register("pre_execute", new_cell)

    def capped(write):
        def write_capped(text):
            if not isinstance(text, str):
                return write(text)
            with lock:
                if budget.is_record("stream", {{"text": text}}):
                    if budget.admit("stream", {{"text": text}}, len(text)):
                        return write(text)
                    return len(text)
                size = _content_size(text)
                if size <= budget.room():
                    budget.take(size)
                    return write(text)
                room = budget.take(size)
                kept = text[:room] if text.isascii() else text[:room // 4]
                note = budget.note()
            if kept or note:
                write(kept + (note or ""))
            return len(text)
        return write_capped

    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "session"):
            stream.write = capped(stream.write)

    session = ip.kernel.session
    send = session.send

    def send_capped(stream, msg_or_type, content=None, parent=None, ident=None, buffers=None,
                    track=False, header=None, metadata=None):
        if isinstance(msg_or_type, dict):
            kind, body = msg_or_type.get("msg_type"), msg_or_type.get("content")
            parent = msg_or_type.get("parent_header") if parent is None else parent
        else:
            kind, body = msg_or_type, content
        if kind in _COUNTED and kind != "stream":
            size = _content_size(body) + sum(len(b) for b in buffers or ())
            with lock:
                admitted = budget.admit(kind, body, size)
                note = None if admitted else budget.note()
            if not admitted:
                if note is not None:
                    send(stream, "stream", {{"name": "stderr", "text": note}}, parent=parent,
                         ident=ident)
                return None
        return send(stream, msg_or_type, content=content, parent=parent, ident=ident,
                    buffers=buffers, track=track, header=header, metadata=metadata)

    session.send = send_capped
'''


def _kernel_extension(cell: int, notebook: int, records: int) -> str:
    """The source of the IPython extension that caps a sandboxed kernel's output."""
    from chutes_edu.grading import ANSWER_MIME, PROBE_MARK

    head = ('"""Output caps of a sandboxed kernel (written by chutes_teacher.sandbox)."""\n'
            f"from typing import Any\n\n_COUNTED = {sorted(_COUNTED)!r}\n")
    side = _KERNEL_SIDE.format(cell=cell, notebook=notebook, records=records,
                               answer=ANSWER_MIME, probe=PROBE_MARK)
    return "\n\n".join([head, inspect.getsource(_content_size), inspect.getsource(OutputBudget),
                        side])


@cache
def _proc_mount(bwrap: str) -> tuple[str, str]:
    """How the sandbox gets ``/proc``: a new one of its own PID namespace (``--proc``), or, where
    this machine refuses to mount one (inside a container or a hub pod whose ``/proc`` has masked
    paths, the kernel's "mount too revealing" rule), an empty folder (``--tmpfs``): the kernel
    then sees no process at all, never the grader's. bubblewrap is asked once."""
    probe = [bwrap, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc",
             "--dev", "/dev", "--", "true"]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ("--proc", "/proc")                 # sandbox_problem says what is wrong
    return ("--proc", "/proc") if done.returncode == 0 else ("--tmpfs", "/proc")


class SandboxUnavailable(RuntimeError):
    """No sandbox can be made here, or a notebook's sandbox would not be safe."""


def answer_module(relative: str) -> bool:
    """Whether a file of the library (a path relative to ``chutes_edu/checks``) computes answers.

    Parameters
    ----------
    relative : str
        The file's path relative to the folder ``chutes_edu/checks``.

    Returns
    -------
    bool
        True for the answer modules ``lessonNN.py`` that the student copy leaves out
        (``tools/student_copy.py``, ``ANSWER_MODULE``).
    """
    return bool(_ANSWER_MODULE.match(relative))


def student_library(source: Path, destination: Path) -> Path:
    """Copy the course library without its answer checks: what a sandboxed kernel imports.

    Parameters
    ----------
    source : Path
        The folder of the grader's ``chutes_edu`` package.
    destination : Path
        An existing folder; the copy is made in ``destination / "chutes_edu"``.

    Returns
    -------
    Path
        The copy's folder. It has no ``checks/lessonNN.py`` and no compiled ``__pycache__``.
    """
    target = destination / "chutes_edu"

    def ignore(folder: str, names: list[str]) -> set[str]:
        checks = Path(folder) == source / "checks"
        return {name for name in names
                if name == "__pycache__" or name.endswith(".pyc")
                or (checks and answer_module(name))}

    shutil.copytree(source, target, ignore=ignore)
    return target


@dataclass(frozen=True)
class Limits:
    """What one sandbox may use.

    Attributes
    ----------
    memory_bytes : int
        Memory of all its processes together (cgroup; each process's address space is then held
        at this plus 1 GiB, so that a big allocation fails in the cell), or else the address
        space per process (rlimit).
    processes : int
        Processes and threads at once.
    cpu_seconds : int
        CPU seconds per process (``RLIMIT_CPU``).
    file_bytes : int
        Size of any file it writes (``RLIMIT_FSIZE``).
    tmp_bytes : int
        Size of its ``/tmp`` (a tmpfs, counted in its memory when cgroups are used).
    use_cgroups : bool
        Try cgroup v1 ``memory`` and ``pids`` first; rlimits when they cannot be made.
    output_cell, output_notebook, output_records : int
        Bytes of output the kernel keeps per cell, per notebook, and of answer records
        (:class:`OutputBudget`); 0 for ``output_cell``: no cap inside the kernel.
    folder_files, folder_bytes : int
        Files and bytes of the notebook's folder the sandbox copies at most
        (:mod:`chutes_teacher.submissions`).
    """

    memory_bytes: int = 2 * 1024 ** 3
    processes: int = 64
    cpu_seconds: int = 600
    file_bytes: int = 1024 ** 3
    tmp_bytes: int = 256 * 1024 ** 2
    use_cgroups: bool = True
    output_cell: int = OUTPUT_PER_CELL
    output_notebook: int = OUTPUT_PER_NOTEBOOK
    output_records: int = RECORDS_PER_NOTEBOOK
    folder_files: int = MAX_FILES
    folder_bytes: int = MAX_BYTES


def _cgroups(limits: Limits) -> list[Path]:
    """Make a cgroup v1 ``memory`` and ``pids`` group with the limits, or none if either fails."""
    if not limits.use_cgroups:
        return []
    name = f"{_owner()}{uuid.uuid4().hex[:12]}"
    made: list[Path] = []
    try:
        memory = _CGROUP_V1 / "memory" / name
        memory.mkdir()
        made.append(memory)
        (memory / "memory.limit_in_bytes").write_text(str(limits.memory_bytes))
        swap = memory / "memory.memsw.limit_in_bytes"
        if swap.exists():
            swap.write_text(str(limits.memory_bytes))
        pids = _CGROUP_V1 / "pids" / name
        pids.mkdir()
        made.append(pids)
        (pids / "pids.max").write_text(str(limits.processes))
    except OSError:
        _remove_cgroups(made)
        return []
    return made


def _pid_namespace() -> str:
    """This process's PID namespace (its inode), or ``x`` where /proc does not say."""
    try:
        return re.sub(r"\D", "", os.readlink("/proc/self/ns/pid")) or "x"
    except OSError:
        return "x"


def _owner() -> str:
    """The start of the name of a sandbox's folder or cgroup: the prefix, then the grading
    process's PID namespace and pid (a pid means nothing in another namespace; ``x``, never
    swept, where the namespace is unknown)."""
    return f"{_PREFIX}{_pid_namespace()}-{os.getpid()}-"


def _gone(pid: int) -> bool:
    """Whether no process ``pid`` is running (one of another user's still counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def _stale(path: Path) -> bool:
    """Whether ``path`` is a sandbox's folder or cgroup whose grader is gone: named by
    :data:`_STALE` after a process of this PID namespace that is not running, a real folder (not
    a link) of this user."""
    match = _STALE.match(path.name)
    if match is None or match.group(1) != _pid_namespace() or not _gone(int(match.group(2))):
        return False
    try:
        info = path.lstat()
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid()


def _sweep(tmp: Path, cgroups: Path) -> list[Path]:
    """Remove the folders under ``tmp`` and the cgroups under ``cgroups`` (v1 ``memory`` and
    ``pids``) left by graders that were killed outright; returns what was removed. A folder of a
    grader still running or of another PID namespace, another user's, or a link named like one is
    left alone."""
    removed: list[Path] = []
    for folder, remove in [(tmp, lambda p: shutil.rmtree(p, ignore_errors=True)),
                           (cgroups / "memory", lambda p: _remove_cgroups([p])),
                           (cgroups / "pids", lambda p: _remove_cgroups([p]))]:
        try:
            found = sorted(folder.glob(f"{_PREFIX}*"))
        except OSError:
            continue
        for path in filter(_stale, found):
            remove(path)
            if not path.exists():
                removed.append(path)
    return removed


def _sweep_once() -> None:
    """:func:`_sweep` the machine's temporary folder and cgroups, once per grading process."""
    global _swept
    if not _swept:
        _swept = True
        _sweep(Path(tempfile.gettempdir()), _CGROUP_V1)


def _remove_cgroups(groups: Iterable[Path]) -> None:
    """Kill whatever is left in the groups, then remove them."""
    for group in groups:
        for _ in range(50):
            try:
                pids = [int(p) for p in (group / "cgroup.procs").read_text().split()]
            except OSError:
                break
            if not pids:
                break
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.02)
        with contextlib.suppress(OSError):
            group.rmdir()


def _processes_of(uid: int) -> int:
    """How many processes the user ``uid`` has now (RLIMIT_NPROC counts them all)."""
    count = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                count += entry.stat().st_uid == uid
    return count


_THREADS = ("import threading; ts = [threading.Thread(target=int) for _ in range(8)]; "
            "[t.start() for t in ts]; [t.join() for t in ts]; print('ok')")


@cache
def _nproc_limit_holds(extra: int) -> bool:
    """Whether ``RLIMIT_NPROC`` at this user's visible processes plus ``extra`` still lets a
    process start threads. False where the user has processes that this ``/proc`` does not show
    (a hub pod: one uid for every pod of a node, or a user namespace mapping it to another):
    there the limit would stop the kernel itself, so the sandbox goes without it (the pod's own
    process limit and the notebook's time limit remain)."""
    limit = _processes_of(os.getuid()) + extra

    def lower() -> None:
        resource.setrlimit(resource.RLIMIT_NPROC, (limit, limit))

    try:
        done = subprocess.run([sys.executable, "-c", _THREADS], preexec_fn=lower,
                              capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and done.stdout.strip() == "ok"


def _python_folders() -> list[Path]:
    """The folders of the Python that grades (and so runs the kernel), to bind read-only."""
    folders = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix,
                                           sys.base_exec_prefix)}
    folders.add(Path(sys.executable).resolve().parent.parent)
    user_site = site.getusersitepackages()
    if site.ENABLE_USER_SITE and os.path.isdir(user_site):
        folders.add(Path(user_site).resolve())
    return sorted(folders)


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


@dataclass
class Sandbox:
    """One notebook's sandbox: its folders on the grader's side, its command and its limits.

    Make one with :meth:`create`; :meth:`command` wraps a kernel's command line, and
    :meth:`close` ends every process in it and removes its folders.
    """

    bwrap: str
    root: Path
    work: Path
    run: Path
    library: Path
    library_target: Path
    readonly: list[Path]
    env: dict[str, str]
    limits: Limits
    cgroups: list[Path] = field(default_factory=list)
    pid: int | None = None
    log: IO[bytes] | None = None
    startup: Path | None = None
    links_left_out: list[str] = field(default_factory=list)

    @classmethod
    def create(cls, bwrap: str, folder: Path | None, env: dict[str, str], limits: Limits,
               protected: Iterable[Path] = (), student: str = "") -> Sandbox:
        """Make the folders of a sandbox for the notebook in ``folder``.

        Parameters
        ----------
        bwrap : str
            The bubblewrap program.
        folder : Path or None
            The notebook's folder, copied as the sandbox's working folder (None: an empty one).
        env : dict of str to str
            The kernel's whole environment.
        limits : Limits
            What the sandbox may use.
        protected : iterable of Path
            Folders the sandbox must not see (the course folder): a read-only folder that holds
            one of them is refused.
        student : str, optional
            Whose notebook it is, for the messages.

        Returns
        -------
        Sandbox
            Its folders are made (the notebook's folder copied without its symbolic links:
            :attr:`links_left_out`); nothing runs yet.

        Raises
        ------
        SandboxUnavailable
            When a folder the kernel needs (the Python installation) holds a protected one.
        chutes_teacher.submissions.SubmissionRefused
            When the notebook's folder is over the limits (``folder_files``, ``folder_bytes``)
            or holds a special file.
        """
        import chutes_edu

        readonly = _python_folders()
        for guarded in (Path(p).resolve() for p in protected):
            for path in readonly:
                if _inside(guarded, path):
                    raise SandboxUnavailable(
                        f"the Python that grades ({path}) holds the course folder ({guarded}): a "
                        "sandboxed kernel would see the course. Grade with a Python installed "
                        "outside the course folder.")
        _sweep_once()
        root = Path(tempfile.mkdtemp(prefix=_owner()))
        work, run = root / "work", root / "run"
        left_out: list[str] = []
        try:
            if folder is not None:
                copied = copy_submission(folder, work, student or "?", limits.folder_files,
                                         limits.folder_bytes, what=f"sandbox copy of {folder}",
                                         links="skip")
                left_out = list(copied.links or [])
            else:
                work.mkdir()
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise
        run.mkdir()
        source = Path(chutes_edu.__file__).resolve().parent
        (root / "lib").mkdir()
        library = student_library(source, root / "lib")
        env = {**env, "HOME": str(work), "TMPDIR": "/tmp", "MPLCONFIGDIR": "/tmp/matplotlib"}
        startup = None
        if limits.output_cell > 0:
            startup = root / "startup"
            startup.mkdir()
            (startup / f"{_EXTENSION}.py").write_text(_kernel_extension(
                limits.output_cell, limits.output_notebook, limits.output_records))
            env["PYTHONPATH"] = str(startup)
        return cls(bwrap=bwrap, root=root, work=work, run=run, library=library,
                   library_target=source, readonly=readonly, env=env, limits=limits,
                   startup=startup, links_left_out=left_out)

    def command(self, kernel: list[str]) -> list[str]:
        """The command line that runs ``kernel`` inside the sandbox.

        Parameters
        ----------
        kernel : list of str
            The kernel's own command line (its program must be in a read-only folder).

        Returns
        -------
        list of str
            ``bwrap`` and its options, then ``--`` and the kernel's command line.
        """
        args = [self.bwrap, "--unshare-all", "--die-with-parent", "--cap-drop", "ALL",
                "--hostname", "sandbox"]
        for name in _SYSTEM:
            path = Path(name)
            if path.is_symlink():
                args += ["--symlink", os.readlink(path), name]
            elif path.is_dir():
                args += ["--ro-bind", name, name]
        for name in _ETC:
            args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
        # /proc, /dev and a small /tmp first: the folders bound after them may lie under /tmp
        # (a clone in /tmp with its venv), and bubblewrap mounts in order
        args += [*_proc_mount(self.bwrap), "--dev", "/dev",
                 "--size", str(self.limits.tmp_bytes), "--tmpfs", "/tmp"]
        for folder in self.readonly:
            args += ["--ro-bind", str(folder), str(folder)]
        program = Path(kernel[0])
        if program.is_absolute() and not any(_inside(program.resolve(), f) for f in
                                             [*self.readonly, Path("/usr")]):
            prefix = program.resolve().parent.parent
            args += ["--ro-bind", str(prefix), str(prefix)]
        if self.startup is not None:
            args += ["--ro-bind", str(self.startup), str(self.startup)]
        args += ["--ro-bind", str(self.library), str(self.library_target),
                 "--bind", str(self.work), str(self.work),
                 "--bind", str(self.run), str(self.run),
                 "--chdir", str(self.work), "--clearenv"]
        for name, value in sorted(self.env.items()):
            args += ["--setenv", name, value]
        return [*args, "--", *kernel]

    def applied(self) -> list[str]:
        """Which limits hold the sandbox, in words (for the log and the docs)."""
        mib = self.limits.memory_bytes // 1024 ** 2
        if self.cgroups:
            held = [f"memory {mib} MiB (cgroup memory; address space {mib + 1024} MiB per "
                    "process, RLIMIT_AS)", f"{self.limits.processes} processes (cgroup pids)"]
        else:
            held = [f"memory {mib} MiB per process (RLIMIT_AS)"]
            held.append("no process limit (the grader is root and has no cgroups)"
                        if not os.geteuid() else
                        f"{self.limits.processes} processes (RLIMIT_NPROC)"
                        if _nproc_limit_holds(self.limits.processes) else
                        "no process limit of its own (this user's processes are not all visible "
                        "here, as in a hub pod: the pod's own limit holds)")
        proc = ("its own /proc" if _proc_mount(self.bwrap)[0] == "--proc" else
                "an empty /proc (this machine refuses a new one: no process is visible)")
        return [*held, f"{self.limits.cpu_seconds} CPU seconds per process (RLIMIT_CPU)",
                f"files up to {self.limits.file_bytes // 1024 ** 2} MiB (RLIMIT_FSIZE)", proc]

    def start_limits(self) -> None:
        """Make the sandbox's cgroups (when it can); call before the kernel starts."""
        self.cgroups = _cgroups(self.limits)

    def preexec(self) -> Callable[[], None]:
        """What the sandbox's first process runs before ``bwrap``: join the cgroups, set rlimits."""
        procs = [str(group / "cgroup.procs") for group in self.cgroups]
        limits = self.limits
        nproc = (_processes_of(os.getuid()) + limits.processes
                 if not self.cgroups and os.geteuid() and _nproc_limit_holds(limits.processes)
                 else None)

        def limit() -> None:
            for path in procs:
                with open(path, "w") as f:
                    f.write(str(os.getpid()))
            resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds))
            resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            # Per process, a big allocation fails with MemoryError (the cell's error) instead of
            # a kill by the cgroup (the kernel's death); the headroom is for what Python, numpy
            # and the threads reserve without using (about 1.1 GiB for a course kernel).
            space = limits.memory_bytes + (_HEADROOM if procs else 0)
            resource.setrlimit(resource.RLIMIT_AS, (space, space))
            if nproc is not None:
                resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))

        return limit

    def kill(self) -> None:
        """End the sandbox now: bubblewrap's death takes every process in it along."""
        if self.pid is not None:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)

    def close(self) -> None:
        """Kill what is left in it and remove its cgroups and folders."""
        self.kill()
        _remove_cgroups(self.cgroups)
        if self.log is not None:
            self.log.close()
        shutil.rmtree(self.root, ignore_errors=True)

    def log_tail(self, size: int = 2000) -> str:
        """The end of what the kernel wrote to its standard output and error."""
        path = self.root / "kernel.log"
        try:
            with path.open("rb") as log:           # it may be as big as the file limit
                log.seek(max(0, log.seek(0, os.SEEK_END) - size))
                return log.read(size).decode("utf-8", "replace")
        except OSError:
            return ""


@cache
def sandbox_problem(bwrap: str) -> str | None:
    """Why no sandbox can be made with this ``bwrap`` here, or None when one can.

    Parameters
    ----------
    bwrap : str
        The bubblewrap program (a name on PATH or a path).

    Returns
    -------
    str or None
        A sentence saying what failed, or None when a sandbox with every namespace this module
        uses starts and runs Python.
    """
    found = shutil.which(bwrap)
    if found is None:
        return (f"the sandbox program bwrap ({bwrap!r}) is not installed "
                "(Debian/Ubuntu: apt-get install bubblewrap)")
    probe = Sandbox.create(found, None, {"PATH": os.environ.get("PATH", os.defpath)}, Limits(
        use_cgroups=False))
    try:
        done = subprocess.run(probe.command([sys.executable, "-c", "print('ok')"]),
                              capture_output=True, text=True, timeout=60, check=False,
                              env={"PATH": os.environ.get("PATH", os.defpath)})
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"bwrap ({found}) could not be run: {err}"
    finally:
        probe.close()
    if done.returncode != 0 or done.stdout.strip() != "ok":
        return (f"bwrap ({found}) cannot make a sandbox here: "
                f"{(done.stderr.strip() or done.stdout.strip())[-500:]}")
    return None


class SandboxedKernelManager(AsyncKernelManager):
    """jupyter_client's kernel manager, starting the kernel inside a :class:`Sandbox`.

    With ``sandbox`` None it is jupyter_client's own. Set ``sandbox`` (and the ``ipc`` transport,
    with its sockets in ``sandbox.run``) before the kernel starts: :class:`SandboxedExecute` does.
    """

    sandbox: Sandbox | None = None
    message_limit = 0
    receive_queue = 0

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        """The kernel's command line, loading the output cap, wrapped in ``bwrap``."""
        kernel: list[str] = super().format_kernel_cmd(extra_arguments)
        if self.sandbox is None:
            return kernel
        if self.sandbox.startup is not None:
            kernel = [*kernel, f"--InteractiveShellApp.extra_extensions={_EXTENSION}"]
        return self.sandbox.command(kernel)

    def client(self, **kwargs: Any) -> Any:
        """The kernel's client, its sockets taking no message over :attr:`message_limit` bytes
        and queueing at most :attr:`receive_queue` (for a sandboxed kernel; 0: ZeroMQ's own)."""
        kc = super().client(**kwargs)
        if self.sandbox is not None:
            if self.message_limit > 0:
                kc.context.setsockopt(zmq.MAXMSGSIZE, self.message_limit)
            if self.receive_queue > 0:
                kc.context.setsockopt(zmq.RCVHWM, self.receive_queue)
        return kc

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
        sandbox = self.sandbox
        if sandbox is not None:
            sandbox.log = open(sandbox.root / "kernel.log", "wb")  # noqa: SIM115 - closed by close()
            kw.update(env=dict(sandbox.env), cwd=str(sandbox.work), preexec_fn=sandbox.preexec(),
                      stdout=sandbox.log, stderr=sandbox.log)
        await super()._async_launch_kernel(kernel_cmd, **kw)
        if sandbox is not None and self.provisioner is not None:
            sandbox.pid = getattr(self.provisioner, "pid", None)


def _error(ename: str, evalue: str) -> Any:
    return nbformat.v4.new_output("error", ename=ename, evalue=evalue,
                                  traceback=[f"{ename}: {evalue}"])


class SandboxedExecute(Execute):
    """nbgrader's Execute, each notebook's kernel in its own sandbox (module docstring).

    The kernel gets the submission's student id (``CHUTES_STUDENT_ID``), so that
    :mod:`chutes_edu.variants` gives it that student's numbers.
    """

    bwrap = Unicode("bwrap", help="The bubblewrap program (a name on PATH or a path).").tag(
        config=True)
    allow_unsandboxed = Bool(False, help=(
        "Grade without a sandbox when none can be made: the submission's code then runs as you, "
        "with your files, secrets and network. Off: autograde refuses instead.")).tag(config=True)
    notebook_timeout = Integer(300, help=(
        "Seconds a whole notebook may run (0: no limit); the cells left are not run.")).tag(
        config=True)
    memory_limit = Integer(2 * 1024 ** 3, help="Bytes of memory per sandbox.").tag(config=True)
    process_limit = Integer(64, help="Processes and threads per sandbox.").tag(config=True)
    cpu_time_limit = Integer(600, help="CPU seconds per process in a sandbox.").tag(config=True)
    file_size_limit = Integer(1024 ** 3, help="Bytes per file a sandbox writes.").tag(config=True)
    use_cgroups = Bool(True, help="Hold memory and processes with cgroup v1 when possible.").tag(
        config=True)
    environment = List(Unicode(), list(ENVIRONMENT), help=(
        "The grader's environment variables a sandboxed kernel gets; no other.")).tag(config=True)
    kill_grace = Integer(30, help=(
        "Seconds after the notebook's time limit before an unanswering kernel is killed.")).tag(
        config=True)
    output_limit_cell = Integer(OUTPUT_PER_CELL, help=(
        "Bytes of output a cell keeps (the rest is cut with a note), in the sandboxed kernel and "
        "in the grader; 0: no cap.")).tag(config=True)
    output_limit_notebook = Integer(OUTPUT_PER_NOTEBOOK, help=(
        "Bytes of output a notebook keeps, besides its answer records.")).tag(config=True)
    record_limit = Integer(RECORDS_PER_NOTEBOOK, help=(
        "Bytes of answer records (hidden tests, function probes) a notebook keeps.")).tag(
        config=True)
    message_limit = Integer(MESSAGE_BYTES, help=(
        "Bytes of the largest message the grader reads from a sandboxed kernel (ZeroMQ "
        "MAXMSGSIZE; a bigger one is dropped unread); 0: no limit.")).tag(config=True)
    receive_queue = Integer(RECEIVE_QUEUE, help=(
        "Messages from a sandboxed kernel the grader queues at most (ZeroMQ RCVHWM).")).tag(
        config=True)

    _deadline: float | None = None
    _said_limits = False
    _student = ""
    _sandbox: Sandbox | None = None
    _budget: OutputBudget | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("kernel_manager_class", SandboxedKernelManager)
        super().__init__(*args, **kwargs)

    def kernel_environment(self, student: str) -> dict[str, str]:
        """The sandboxed kernel's environment: the allowlisted variables and the student's id.

        Parameters
        ----------
        student : str
            nbgrader's id of the submission's student.

        Returns
        -------
        dict of str to str
            Only the names in :attr:`environment` that are set here, and ``CHUTES_STUDENT_ID``.
        """
        env = {name: os.environ[name] for name in self.environment if name in os.environ}
        env.setdefault("PATH", os.defpath)
        env[STUDENT_ID_VARIABLES[0]] = student
        return env

    def preprocess(self, nb: Any, resources: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """Run the notebook in a new sandbox, or refuse when none can be made."""
        student = str(resources.get("nbgrader", {}).get("student", ""))
        self._student = student
        problem = sandbox_problem(self.bwrap)
        self._deadline = (time.monotonic() + self.notebook_timeout
                          if self.notebook_timeout > 0 else None)
        if problem is not None:
            if not self.allow_unsandboxed:
                raise SandboxUnavailable(
                    f"autograde refuses to run the submission unconfined: {problem}. A "
                    "submission's code would run as you, with your files, secrets and network "
                    "(TEACHING.md, 'What the sandbox protects'). Install bubblewrap, or grade "
                    f"unconfined knowingly with {OPT_OUT} in nbgrader_config.py.")
            self.log.warning("Grading WITHOUT a sandbox (%s): %s", OPT_OUT, problem)
            return self._unsandboxed(nb, resources, student)
        folder = resources.get("metadata", {}).get("path") or None
        from chutes_teacher.submissions import SubmissionLimits

        files = SubmissionLimits(parent=self)
        limits = Limits(memory_bytes=self.memory_limit, processes=self.process_limit,
                        cpu_seconds=self.cpu_time_limit, file_bytes=self.file_size_limit,
                        use_cgroups=self.use_cgroups, output_cell=self.output_limit_cell,
                        output_notebook=self.output_limit_notebook,
                        output_records=self.record_limit, folder_files=files.max_files,
                        folder_bytes=files.max_bytes)
        protected = [Path.cwd(), *([Path(folder)] if folder else [])]
        root = self.config.get("CourseDirectory", {}).get("root")
        if isinstance(root, str) and root:
            protected.append(Path(root))
        sandbox = Sandbox.create(str(shutil.which(self.bwrap)), Path(folder) if folder else None,
                                 self.kernel_environment(student), limits, protected=protected,
                                 student=student)
        for link in sandbox.links_left_out:
            self.log.warning("%s's submission: the symbolic link %s was left out of the sandbox "
                             "(links are never followed)", student or "?", link)
        self._sandbox = sandbox
        self._budget = self._new_budget()
        sandbox.start_limits()
        if not self._said_limits:
            self.log.info("Sandbox limits: %s; %s s per cell, %s s per notebook",
                          ", ".join(sandbox.applied()), self.timeout,
                          self.notebook_timeout or "no limit")
            SandboxedExecute._said_limits = True
        watchdog = None
        if self._deadline is not None:
            watchdog = threading.Timer(self.notebook_timeout + self.kill_grace, sandbox.kill)
            watchdog.daemon = True
            watchdog.start()
        try:
            result: tuple[Any, dict[str, Any]] = super().preprocess(nb, resources)
            return result
        except Exception:
            tail = sandbox.log_tail()
            if tail:
                self.log.error("The sandboxed kernel's last words:\n%s", tail)
            raise
        finally:
            if watchdog is not None:
                watchdog.cancel()
            sandbox.close()
            self._sandbox = None
            self._budget = None

    def _unsandboxed(self, nb: Any, resources: dict[str, Any],
                     student: str) -> tuple[Any, dict[str, Any]]:
        name = STUDENT_ID_VARIABLES[0]
        before = os.environ.get(name)
        os.environ[name] = student
        self._budget = self._new_budget()      # the grader's own cap holds even here
        try:
            result: tuple[Any, dict[str, Any]] = super().preprocess(nb, resources)
            return result
        finally:
            self._budget = None
            if before is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = before

    def create_kernel_manager(self) -> Any:
        """jupyter_client's kernel manager, made to start the kernel in this notebook's sandbox."""
        km = super().create_kernel_manager()
        sandbox = self._sandbox
        if isinstance(km, SandboxedKernelManager) and sandbox is not None and (
                sandbox.root.exists()):
            km.sandbox = sandbox
            km.message_limit = self.message_limit
            km.receive_queue = self.receive_queue
            km.transport = "ipc"
            km.ip = str(sandbox.run / "kernel")
            km.connection_file = str(sandbox.run / "kernel.json")
            # Interrupt with a message on the control channel: a signal would meet bwrap first.
            if km.kernel_spec is not None:
                km.kernel_spec.interrupt_mode = "message"
        return km

    def _get_timeout(self, cell: Any) -> int | None:
        timeout: int | None = super()._get_timeout(cell)
        if self._deadline is None:
            return timeout
        left = max(1, math.ceil(self._deadline - time.monotonic()))
        return left if timeout is None else min(timeout, left)

    def preprocess_cell(self, cell: Any, resources: dict[str, Any],
                        index: int) -> tuple[Any, dict[str, Any]]:
        """Run a cell, or, once the notebook's time is used up, mark it as not run."""
        if (cell.cell_type == "code" and self._deadline is not None
                and time.monotonic() >= self._deadline and cell.source.strip()):
            cell.outputs = [_error("NotebookTimeLimit", (
                f"not run: the notebook used up its {self.notebook_timeout} s "
                "(c.SandboxedExecute.notebook_timeout)"))]
            return cell, resources
        if self._budget is not None:
            self._budget.new_cell()
        try:
            result: tuple[Any, dict[str, Any]] = super().preprocess_cell(cell, resources, index)
        except CellTimeoutError as lost:
            if self._sandbox is None or "IOPub" not in str(lost):
                raise
            # A message over the grader's limit ended the connection (connected again below):
            # what the cell sent meanwhile is lost, the rest of the notebook is graded as usual.
            self.log.warning("%s's submission, cell %s: output lost (a message over %s bytes, "
                             "or none within %s s); the next cells are graded as usual",
                             self._student or "?", index, self.message_limit, self.iopub_timeout)
            cell.outputs.append(_error("OutputLost", (
                "the rest of this cell's output did not arrive: a message over "
                f"{self.message_limit / 1e6:g} MB (c.SandboxedExecute.message_limit) was "
                "dropped")))
            self.nb.cells[index] = cell
            if not run_sync(self._async_reopen_iopub)():
                raise
            return cell, resources
        if self._sandbox is not None:
            self._probe_pending(cell, resources, index)
        return result

    async def _async_reopen_iopub(self) -> bool:
        """Connect the output channel again (ZeroMQ does not, after a message over its size) and
        wait until a kernel-info request's status comes through it; whether it did."""
        from queue import Empty

        kc = self.kc
        if kc is None:
            return False
        kc.iopub_channel.close()
        kc._iopub_channel = None
        kc.iopub_channel.start()
        for _ in range(30):
            asked = kc.kernel_info()
            until = time.monotonic() + 1
            while (left := until - time.monotonic()) > 0:
                try:
                    msg = await kc.iopub_channel.get_msg(timeout=left)
                except Empty:
                    break
                if msg.get("parent_header", {}).get("msg_id") == asked:
                    return True
        return False

    def _new_budget(self) -> OutputBudget | None:
        if self.output_limit_cell <= 0:
            return None
        from chutes_edu.grading import ANSWER_MIME, PROBE_MARK

        return OutputBudget(self.output_limit_cell, self.output_limit_notebook,
                            self.record_limit, ANSWER_MIME, PROBE_MARK)

    def process_message(self, msg: dict[str, Any], cell: Any, cell_index: int) -> Any:
        """Keep a message's output only within the cell's and the notebook's budget.

        A stream over the budget is cut to what fits, anything else over it is dropped, and the
        cell gets one note saying so; an ``update_display_data`` counts once per output it would
        change. Status and the other messages pass as in nbclient.
        """
        budget = self._budget
        kind = msg.get("msg_type", "")
        if budget is None or kind not in _COUNTED:
            return super().process_message(msg, cell, cell_index)
        content = msg.get("content")
        size = _content_size(content)
        if kind == "update_display_data" and isinstance(content, dict):
            display = (content.get("transient") or {}).get("display_id")
            shown = self._display_id_map.get(display, {}) if display else {}
            size *= max(1, sum(len(indices) for indices in shown.values()))
        if budget.admit(kind, content, size):
            return super().process_message(msg, cell, cell_index)
        if (kind == "stream" and isinstance(content, dict)
                and isinstance(content.get("text"), str) and budget.room() > 0):
            text = content["text"]
            room = budget.take(size)
            cut = text[:room] if text.isascii() else text[:room // 4]
            msg = {**msg, "content": {**content, "text": cut + (budget.note() or "")}}
            return super().process_message(msg, cell, cell_index)
        note = budget.note()
        if note is not None:
            cell.outputs.append(nbformat.v4.new_output("stream", name="stderr", text=note))
        return None

    def on_cell_executed(self, **kwargs: Any) -> None:
        """nbgrader's step (the reply's error when no output showed one), its size bounded."""
        reply = kwargs.get("execute_reply") or {}
        content = reply.get("content") if isinstance(reply, dict) else None
        if isinstance(content, dict) and content.get("status") == "error":
            content["evalue"] = str(content.get("evalue", ""))[:_ERROR_TEXT]
            lines = content.get("traceback")
            if isinstance(lines, list):
                content["traceback"] = [str(line)[:_ERROR_TEXT]
                                        for line in lines[-_ERROR_LINES:]]
        super().on_cell_executed(**kwargs)

    def _call_in_kernel(self, exercise: str, key: str, resources: dict[str, Any],
                        index: int) -> dict[str, Any] | None:
        """Call the kernel's pending function of ``exercise`` on one input; the call's record."""
        import json

        from chutes_edu.grading import PROBE_MARK

        probe = nbformat.v4.new_code_cell(
            "from chutes_edu.grading import probe_call as _chutes_probe\n"
            f"_chutes_probe({exercise!r}, {key!r})")
        graded = self.nb.cells[index]
        budget = self._budget
        if budget is not None:
            budget.new_cell()
            budget.probing = True
        try:
            super().preprocess_cell(probe, resources, index)
        finally:
            self.nb.cells[index] = graded          # nbclient puts the cell it ran at ``index``
            if budget is not None:
                budget.probing = False
        text = "".join(out.get("text", "") for out in probe.outputs
                       if out.get("output_type") == "stream")
        lines = [line for line in text.split("\n") if line.startswith(PROBE_MARK)]
        if not lines:
            return None
        try:
            call = json.loads(lines[-1][len(PROBE_MARK):])
        except ValueError:
            return None
        return call if isinstance(call, dict) and call.get("in") == key else None

    def _probe_pending(self, cell: Any, resources: dict[str, Any], index: int) -> None:
        """Record a function answer by running its check here and the function in the kernel.

        The sandboxed kernel has no answer checks, so its hidden tests leave a function answer
        pending (:func:`chutes_edu.grading.answer_record`). This runs the exercise's check in
        the grader, where the checks are, and each call of the student's function in the kernel
        (:func:`chutes_edu.grading.probe_call`, one cell run per call, its result read back as
        JSON data), then writes the calls into the cell's record, as the kernel would have: the
        grading step (``DecideGrades``) then replays and judges them as always.
        """
        from chutes_edu.checks import NotYet, check, exercise_ids, is_function_exercise
        from chutes_edu.grading import _RECORD_CALL, ANSWER_MIME, _decode, _key
        from chutes_edu.variants import variant

        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.cell_type != "code" or not meta.get("grade") or meta.get("solution"):
            return
        found = _RECORD_CALL.search(cell.source)
        if found is None:
            return
        exercise = found["exercise"]
        if exercise not in exercise_ids() or not is_function_exercise(exercise):
            return
        pending = [out for out in cell.get("outputs", [])
                   if isinstance(out.get("data", {}).get(ANSWER_MIME), dict)
                   and out["data"][ANSWER_MIME].get("exercise") == exercise
                   and out["data"][ANSWER_MIME].get("kind") == "pending"]
        if not pending:
            return
        name = str(pending[-1]["data"][ANSWER_MIME].get("name") or "your function")[:80]
        calls: list[dict[str, Any]] = []

        def forward(*args: Any, **kwargs: Any) -> Any:
            if len(calls) >= _MAX_CALLS or (self._deadline is not None
                                             and time.monotonic() >= self._deadline):
                raise NotYet("your function was not run on every input the check tries")
            key = _key(args, kwargs)
            call = self._call_in_kernel(exercise, key, resources, index)
            if call is None:
                raise NotYet("your function did not answer")
            calls.append(call)
            if "raise" in call:
                raise RuntimeError(f"{call['raise'][0]}: {call['raise'][1]}")
            if "unsupported" in call:
                raise NotYet(f"your function returned {call['unsupported']}")
            return _decode(call["out"])

        forward.__name__ = name
        check(exercise, forward, variant(self._student or None, int(exercise.split(".")[0])))
        pending[-1]["data"][ANSWER_MIME] = {"exercise": exercise, "kind": "function",
                                            "name": name, "calls": calls}
