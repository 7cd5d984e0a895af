"""Grading for teachers (nbgrader): the exercises' verifiers, run where a notebook cannot reach.

:func:`chutes_edu.check` is the student's self-check: it runs in the student's kernel, with
whatever the notebook has done to it. Grading must not trust that kernel: a student may redefine
``check``, ``chutes_edu.check`` or the library's functions. So every autograded test cell of an
exercise set ends with hidden tests (nbgrader restores them from its gradebook when it grades) that
call :func:`grade` from a *fresh copy* of this module::

    ### BEGIN HIDDEN TESTS
    import runpy  # a fresh copy of chutes_edu.grading: nothing the notebook changed reaches it
    runpy.run_module("chutes_edu.grading")["grade"]("3.6", answer_3_6)
    ### END HIDDEN TESTS

:func:`grade` sends the answer to a grader process, a separate Python that imports the library
afresh from the files it was installed from (``python -I``, so the notebook's folder cannot shadow
it) and runs the exercise's verifier there: the expected value is computed in that process only.
A value is sent pickled (and unpickled there with a list of allowed types: numbers, strings,
arrays, sympy objects ...). A function cannot be sent, so the verifier gets a stand-in: every call
of the stand-in is sent back to the kernel, which calls the student's function and returns the
result. One grader process serves a kernel (it starts in about two seconds, then answers at once)
and stops with it. :func:`grade` raises ``AssertionError`` with a one-line reason when the answer is
not right yet: what nbgrader needs to give no points, and the line the student sees in the
feedback (never the expected value).

:func:`chutes_edu.checks.graded` is what the visible part of a test cell calls: it grades under
nbgrader (while ``nbgrader validate`` or ``nbgrader autograde`` runs the notebook) and does nothing
otherwise, so a student's "Run All" shows only the friendly self-checks. It loads this module the
same fresh way, so that the notebook never imports it (``runpy`` warns when it runs a module that
is already imported).

This protects grading against the notebook redefining things; it is not a sandbox. A student who
writes code to attack the grader itself (its process, or pickle) can; nbgrader keeps every
submission for the teacher to read.

Command line: ``python -m chutes_edu.grading --serve`` is the grader process (it speaks the protocol
below on stdin/stdout); ``python -m chutes_edu.grading 3.6 "Fraction(18, 5)"`` grades one value
from the command line, for a quick test.

Protocol: messages are pickled tuples, each preceded by its length (8 bytes, big-endian).
Kernel to grader: ``("verify", exercise, kind, payload)`` with ``kind`` "value" (``payload`` the
pickled answer) or "function". Grader to kernel: ``("call", payload)`` (pickled ``(args,
kwargs)``), answered by ``("return", payload)`` or ``("raise", exception name, message)``; and at
the end ``("result", ok, message)``.
"""

from __future__ import annotations

import builtins
import io
import os
import pickle
import struct
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

__all__ = ["grade", "graded", "GradingError"]

_HOLDER = "_chutes_edu_grading_server"          # where a kernel keeps its grader process
_ALLOWED_MODULES = ("numpy", "sympy", "mpmath", "fractions", "decimal", "collections", "copyreg",
                    "_codecs", "chutes_edu.board", "flint")
_ALLOWED_BUILTINS = {"complex", "set", "frozenset", "slice", "range", "bytearray", "list",
                     "dict", "tuple", "int", "float", "str", "bytes", "bool", "object"}


class GradingError(RuntimeError):
    """The grader process could not be started or stopped answering."""


# --------------------------------------------------------------------------- framing
def _send(stream: IO[bytes], message: tuple[Any, ...]) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack(">Q", len(data)) + data)
    stream.flush()


def _read_exactly(stream: IO[bytes], n: int) -> bytes | None:
    chunks, got = [], 0
    while got < n:
        chunk = stream.read(n - got)
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _receive_bytes(stream: IO[bytes]) -> bytes | None:
    head = _read_exactly(stream, 8)
    if head is None:
        return None
    return _read_exactly(stream, struct.unpack(">Q", head)[0])


class _SafeUnpickler(pickle.Unpickler):
    """Unpickles answers: numbers, strings, containers, numpy and sympy objects, boards."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name in _ALLOWED_BUILTINS:
            return getattr(builtins, name)
        if module.split(".")[0] in _ALLOWED_MODULES or module.startswith(_ALLOWED_MODULES):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"an answer may not contain {module}.{name}")


def _safe_loads(data: bytes) -> Any:
    return _SafeUnpickler(io.BytesIO(data)).load()


# --------------------------------------------------------------------------- the grader process
class _RemoteFunction:
    """Stands in for the student's function in the grader: each call is made in the kernel."""

    def __init__(self, name: str, inbox: IO[bytes], outbox: IO[bytes]) -> None:
        self.__name__ = name
        self._inbox, self._outbox = inbox, outbox

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        _send(self._outbox, ("call", pickle.dumps((args, kwargs))))
        data = _receive_bytes(self._inbox)
        if data is None:
            raise SystemExit(0)                  # the kernel went away
        reply = _safe_loads(data)
        if reply[0] == "return":
            return _safe_loads(reply[1])
        _, name, text = reply
        error = getattr(builtins, name, None)
        if isinstance(error, type) and issubclass(error, Exception):
            raise error(text)
        raise RuntimeError(f"{name}: {text}")


def _serve() -> None:
    """The grader process: verify answers sent on stdin, reply on stdout, until stdin closes."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)   # interrupting the kernel must not stop it
    inbox = sys.stdin.buffer
    outbox = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)                     # anything the library prints goes to stderr, not the protocol
    from chutes_edu.checks import check

    while True:
        data = _receive_bytes(inbox)
        if data is None:
            return
        try:
            _, exercise, kind, payload = _safe_loads(data)
            if kind == "function":
                answer: Any = _RemoteFunction(payload, inbox, outbox)
            else:
                answer = _safe_loads(payload)
        except Exception as err:           # e.g. a type the grader does not accept
            _send(outbox, ("result", False, f"the answer cannot be graded ({err})"))
            continue
        result = check(exercise, answer)
        _send(outbox, ("result", result.ok, result.problem or ("right" if result.ok else "")))


# --------------------------------------------------------------------------- the kernel's side
class _Server:
    """A running grader process and the kernel's end of its pipes."""

    def __init__(self) -> None:
        package_parent = str(Path(__file__).resolve().parent.parent)
        code = (f"import sys; sys.path.insert(0, {package_parent!r}); "
                "from chutes_edu.grading import _serve; _serve()")
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        env.setdefault("OPENBLAS_NUM_THREADS", "1")
        try:
            self.proc = subprocess.Popen([sys.executable, "-I", "-c", code],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                                         start_new_session=True)
        except OSError as err:
            raise GradingError(f"could not start the grader: {err}") from err

    def verify(self, exercise: str, answer: Any) -> tuple[bool, str]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if callable(answer) and not _is_data(answer):
            message: tuple[Any, ...] = ("verify", exercise, "function",
                                        getattr(answer, "__name__", "your function"))
        else:
            try:
                payload = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as err:
                return False, (f"the answer cannot be graded: it is a {type(answer).__name__} "
                               f"({type(err).__name__})")
            message = ("verify", exercise, "value", payload)
        _send(self.proc.stdin, message)
        while True:
            data = _receive_bytes(self.proc.stdout)
            if data is None:
                raise GradingError("the grader process stopped")
            reply = pickle.loads(data)
            if reply[0] == "result":
                return bool(reply[1]), str(reply[2])
            self._call(answer, reply[1])

    def _call(self, function: Callable[..., Any], payload: bytes) -> None:
        assert self.proc.stdin is not None
        args, kwargs = pickle.loads(payload)
        try:
            out = pickle.dumps(("return", pickle.dumps(function(*args, **kwargs))))
        except Exception as err:
            out = pickle.dumps(("raise", type(err).__name__, str(err)[:200]))
        self.proc.stdin.write(struct.pack(">Q", len(out)) + out)
        self.proc.stdin.flush()

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


def _is_data(answer: Any) -> bool:
    """Some answers are callable but are values (a sympy expression, a numpy ufunc result ...)."""
    return type(answer).__module__.split(".")[0] in ("sympy", "numpy")


def _server() -> _Server:
    holder = sys.modules.get(_HOLDER)
    if holder is None:
        holder = sys.modules[_HOLDER] = types.ModuleType(_HOLDER)
    server = getattr(holder, "server", None)
    if server is None or server.proc.poll() is not None:
        server = _Server()
        holder.server = server  # type: ignore[attr-defined]  # a plain module as a namespace
    return server


def grade(exercise: str, answer: Any) -> None:
    """Grade an answer in a fresh grader process; raise AssertionError unless it is right.

    Parameters
    ----------
    exercise : str
        The exercise number, e.g. ``"3.6"``.
    answer : object
        The student's answer: a value, or a function (called in this kernel, on inputs the
        grader chooses).

    Raises
    ------
    AssertionError
        When the answer is missing or not right, with a one-line reason (never the expected value).
    GradingError
        When the grader process cannot be started or stops.
    """
    if answer is None or answer is Ellipsis:
        raise AssertionError(f"{exercise}: no answer given")
    server = _server()
    try:
        ok, reason = server.verify(exercise, answer)
    except BaseException:                  # e.g. interrupted mid-conversation: start afresh
        server.stop()
        raise
    if not ok:
        raise AssertionError(f"{exercise}: not right yet" + (f": {reason}" if reason else ""))


def graded(exercise: str, answer: Any) -> None:
    """The visible part of a test cell: :func:`grade` under nbgrader, nothing otherwise.

    Parameters
    ----------
    exercise : str
        The exercise number, e.g. ``"3.6"``.
    answer : object
        The student's answer.
    """
    from chutes_edu.checks import graded as visible_part

    visible_part(exercise, answer)


def _main(argv: list[str]) -> int:
    if argv == ["--serve"]:
        _serve()
        return 0
    if len(argv) != 2:
        print(__doc__)
        return 2
    from fractions import Fraction

    import sympy

    answer = eval(argv[1], {"Fraction": Fraction, "sympy": sympy})  # a teacher's own input
    try:
        grade(argv[0], answer)
    except AssertionError as err:
        print(f"not right: {err}")
        return 1
    print("right")
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
