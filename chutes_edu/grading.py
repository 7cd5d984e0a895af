"""Grading for teachers (nbgrader): the exercises' verifiers, run where a notebook cannot reach.

:func:`chutes_edu.check` is the student's self-check: it runs in the student's kernel, with
whatever the notebook has done to it. Grading must not trust that kernel: a student may redefine
``check``, the library, ``runpy``, ``sys.modules``, numpy's tests or IPython itself. So under
``nbgrader autograde`` nothing in the kernel decides a grade. Every autograded test cell ends with
hidden tests (nbgrader restores them from its gradebook when it grades) that only *record* the
answer as plain data::

    ### BEGIN HIDDEN TESTS
    from chutes_edu.grading import record
    record("3.6", answer_3_6)
    ### END HIDDEN TESTS

:func:`record` shows the answer as JSON with tagged types (:func:`answer_record`; for a function,
what it returned on each input its check tries). After the notebook has run,
:func:`decide_notebook` (the ``DecideGrades`` step of ``nbgrader_config.py``) hands the records to a
fresh ``python -I`` that never ran student code; :func:`judge` decodes each one (no pickle, no
``eval``) and runs the exercise's verifier there, and the verdict replaces the test cell's outputs.

For ``nbgrader validate`` (a student's own feedback) the older path remains:
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

:func:`chutes_edu.checks.graded` is what the visible part of a test cell calls: it grades while
``nbgrader validate`` runs the notebook and does nothing otherwise (under autograde the verdict
comes after the run), so a student's "Run All" shows only the friendly self-checks.

Neither is a sandbox: autograde runs the student's code as the teacher's user, which can reach any
file the teacher can (TEACHING.md says how to run it in a container or a throwaway account).

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
import json
import os
import pickle
import re
import struct
import subprocess
import sys
import types
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from chutes_edu.variants import variant

__all__ = ["grade", "graded", "record", "judge", "decide_notebook", "answer_record", "variant",
           "ANSWER_MIME", "HIDDEN_TESTS", "GradingError"]

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


def _claim_stdout(mode: str) -> IO[Any]:
    """The process's real stdout, for the protocol alone; fd 1 (``print``) now goes to stderr."""
    outbox = os.fdopen(os.dup(1), mode)
    os.dup2(2, 1)                     # anything the library prints goes to stderr, not the protocol
    return outbox


def _serve() -> None:
    """The grader process: verify answers sent on stdin, reply on stdout, until stdin closes."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)   # interrupting the kernel must not stop it
    inbox = sys.stdin.buffer
    outbox = _claim_stdout("wb")
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
def _fresh_python(function: str, python: str | None = None) -> tuple[list[str], dict[str, str]]:
    """The command and environment of a new ``python -I`` that imports this package from its own
    files (not from the notebook's folder) and runs ``chutes_edu.grading.<function>()``."""
    package_parent = str(Path(__file__).resolve().parent.parent)
    code = (f"import sys; sys.path.insert(0, {package_parent!r}); "
            f"from chutes_edu.grading import {function}; {function}()")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PYTHON") and k != "NBGRADER_EXECUTION"}
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    return [python or sys.executable, "-I", "-c", code], env


class _Server:
    """A running grader process and the kernel's end of its pipes."""

    def __init__(self) -> None:
        command, env = _fresh_python("_serve")
        try:
            self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         env=env, start_new_session=True)
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



# --------------------------------------------------------------------------- record and verdict
# nbgrader's autograde runs the student's notebook in the student's kernel, where anything can be
# patched. So the hidden tests decide nothing: :func:`record` shows each answer as plain data (an
# output of MIME type ANSWER_MIME), and after the notebook has run, :func:`decide_notebook` (an
# nbgrader step, ``nbgrader_config.py``) hands those records to a fresh Python that never ran the
# student's code: it decodes them (JSON with tagged types: no pickle, no eval) and runs each
# exercise's verifier there. Its verdict replaces whatever the kernel wrote in the test cell.
ANSWER_MIME = "application/vnd.chutes-edu.answer+json"
# A hidden-tests block, markers and all: what a release, an exercise page or a site leaves out.
HIDDEN_TESTS = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS.*?### END HIDDEN TESTS[ \t]*\n?",
                          re.MULTILINE | re.DOTALL)
_RECORD_CALL = re.compile(r'^\s*record\("(?P<exercise>\d+\.\d+)",', re.MULTILINE)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER_TEXT = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")
_MAX_RECORD = 2_000_000         # characters of JSON per answer: a bigger one is not graded


class _Unsupported(TypeError):
    """An answer (or a part of one) of a type the record does not carry."""


def _encode(x: Any) -> Any:
    """Plain JSON for an answer: exact, tagged by type, built from the value (not its methods)."""
    import numpy as np

    if x is None or type(x) is bool or isinstance(x, np.bool_):
        return None if x is None else bool(x)
    if isinstance(x, str):
        return {"str": str.__str__(x)}
    if isinstance(x, int):
        return {"int": str(int.__index__(x))}
    if isinstance(x, float):
        return {"float": float.__repr__(float(x))}
    if isinstance(x, complex):
        return {"complex": [_encode(x.real), _encode(x.imag)]}
    if isinstance(x, Fraction):
        return {"fraction": [str(int(x.numerator)), str(int(x.denominator))]}
    if isinstance(x, np.generic):
        return _encode(x.item())
    if isinstance(x, np.ndarray):
        if x.dtype.kind not in "biufc" and x.dtype != object:
            raise _Unsupported(f"an array of {x.dtype}")
        return {"ndarray": [list(x.shape), [_encode(v) for v in x.ravel().tolist()]]}
    if isinstance(x, (set, frozenset)):
        return {"set": [_encode(v) for v in x]}
    if isinstance(x, tuple):
        return {"tuple": [_encode(v) for v in x]}
    if isinstance(x, list):
        return {"list": [_encode(v) for v in x]}
    if isinstance(x, dict):
        return {"dict": [[_encode(k), _encode(v)] for k, v in x.items()]}
    if isinstance(x, range):
        return {"range": [x.start, x.stop, x.step]}
    module = type(x).__module__.split(".")[0]
    if module == "chutes_edu":
        from .board import Board

        if isinstance(x, Board):
            return {"board": [_encode(arg) for arg in x.__reduce__()[1]]}
    if module == "flint":
        if type(x).__name__ == "fmpz":
            return _encode(int(x))
        if type(x).__name__ == "fmpq":
            return _encode(Fraction(int(x.p), int(x.q)))
    if module == "sympy":
        import sympy

        if isinstance(x, (sympy.Basic, sympy.MatrixBase)):
            return {"sympy": sympy.srepr(x)}
    raise _Unsupported(f"a {type(x).__name__}")


def _decode(data: Any) -> Any:
    """The answer back from :func:`_encode`'s JSON (raises ``ValueError`` on anything else)."""
    if data is None or type(data) is bool:
        return data
    if not isinstance(data, dict) or len(data) != 1:
        raise ValueError("not an encoded answer")
    (tag, value), = data.items()
    if tag == "str" and isinstance(value, str):
        return value
    if tag == "int" and isinstance(value, str) and len(value) < 5000:
        return int(value)
    if tag == "float" and isinstance(value, str):
        return float(value)
    if tag == "complex":
        return complex(_decode(value[0]), _decode(value[1]))
    if tag == "fraction":
        return Fraction(int(value[0]), int(value[1]))
    if tag in ("list", "tuple", "set") and isinstance(value, list):
        items = [_decode(v) for v in value]
        return {"list": list, "tuple": tuple, "set": set}[tag](items)
    if tag == "dict" and isinstance(value, list):
        return {_decode(k): _decode(v) for k, v in value}
    if tag == "range":
        return range(*(int(v) for v in value))
    if tag == "ndarray":
        import numpy as np

        shape, flat = value
        items = [_decode(v) for v in flat]
        kinds = {type(v) for v in items}
        array = np.array(items, dtype=object if kinds - {int, float, complex, bool} else None)
        return array.reshape([int(n) for n in shape])
    if tag == "board":
        from .board import _rebuild

        return _rebuild(*(_decode(v) for v in value))
    if tag == "sympy" and isinstance(value, str):
        return _sympy_from_srepr(value)
    raise ValueError(f"an answer of an unknown kind ({tag})")


def _sympy_from_srepr(text: str) -> Any:
    """A sympy object from its ``srepr``, built by walking the syntax tree: sympy's own classes,
    numbers, and names of symbols only (``sympify`` would ``eval`` the text)."""
    import ast

    import sympy

    def build(node: ast.AST) -> Any:
        if isinstance(node, ast.Constant) and type(node.value) in (int, float, bool, type(None)):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = build(node.operand)
            if type(inner) in (int, float):
                return -inner
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [build(e) for e in node.elts]
            return items if isinstance(node, ast.List) else tuple(items)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            cls = getattr(sympy, node.func.id, None)
            if not (isinstance(cls, type) and issubclass(cls, (sympy.Basic, sympy.MatrixBase))):
                raise ValueError(f"{node.func.id} is not a sympy class")
            args = []
            for i, arg in enumerate(node.args):
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    # a string only as the name of a symbol, or a Float's digits
                    named = i == 0 and node.func.id in ("Symbol", "Dummy", "Wild", "Function")
                    digits = i == 0 and node.func.id == "Float"
                    if not ((named and _NAME.fullmatch(arg.value))
                            or (digits and _NUMBER_TEXT.fullmatch(arg.value))):
                        raise ValueError("text inside a formula")
                    args.append(arg.value)
                else:
                    args.append(build(arg))
            kwargs = {}
            for kw in node.keywords:
                value = build(kw.value)
                if kw.arg is None or type(value) not in (bool, int):
                    raise ValueError("an unexpected keyword in a formula")
                kwargs[kw.arg] = value
            return cls(*args, **kwargs)
        raise ValueError("not a sympy formula")

    return build(ast.parse(text, mode="eval").body)


def _key(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    return json.dumps(_encode([list(args), sorted(kwargs.items())]), sort_keys=True)


def answer_record(exercise: str, answer: Any) -> dict[str, Any]:
    """What :func:`record` shows for an answer: plain data, for the grading step to judge.

    A value is encoded as it is. A function is called on the inputs its check chooses (run here,
    in the kernel), and the record holds each input and what the function returned or raised; the
    grading step replays those calls and judges the outputs.

    Parameters
    ----------
    exercise : str
        The exercise number, e.g. ``"3.6"``.
    answer : object
        The student's answer.

    Returns
    -------
    dict
        JSON-ready: ``{"exercise", "kind", ...}`` with kind ``"none"``, ``"value"``,
        ``"function"`` or ``"unsupported"``; in a library without the answer checks (the
        grading sandbox), ``"pending"`` for a function, which the sandbox's grader then calls
        through :func:`probe_call` and records as ``"function"``.
    """
    from .checks import check, exercise_ids, is_function_exercise

    head: dict[str, Any] = {"exercise": str(exercise)}
    if answer is None or answer is Ellipsis:
        return {**head, "kind": "none"}
    if str(exercise) not in exercise_ids():
        # A library without the answer checks (the grading sandbox of chutes_teacher.sandbox):
        # a function waits in the kernel for the grader, which runs the check outside and calls
        # it through probe_call; anything else is recorded as a value.
        if callable(answer) and not _is_data(answer):
            _PENDING[str(exercise)] = answer
            return {**head, "kind": "pending", "name": getattr(answer, "__name__", "")}
        try:
            return {**head, "kind": "value", "value": _encode(answer)}
        except _Unsupported as err:
            return {**head, "kind": "unsupported", "type": str(err)}
    if is_function_exercise(exercise) and callable(answer) and not _is_data(answer):
        calls: list[dict[str, Any]] = []

        def probe(*args: Any, **kwargs: Any) -> Any:
            key = _key(args, kwargs)
            try:
                out = answer(*args, **kwargs)
            except Exception as err:
                calls.append({"in": key, "raise": [type(err).__name__, str(err)[:200]]})
                raise
            try:
                calls.append({"in": key, "out": _encode(out)})
            except _Unsupported as err:
                calls.append({"in": key, "unsupported": str(err)})
            return out

        probe.__name__ = getattr(answer, "__name__", "your function")
        check(exercise, probe)
        return {**head, "kind": "function", "name": probe.__name__, "calls": calls}
    try:
        return {**head, "kind": "value", "value": _encode(answer)}
    except _Unsupported as err:
        return {**head, "kind": "unsupported", "type": str(err)}


_PENDING: dict[str, Callable[..., Any]] = {}
PROBE_MARK = "chutes-edu-probe-result: "
"""What starts the line :func:`probe_call` prints."""


def probe_call(exercise: str, key: str) -> None:
    """Call a function that :func:`answer_record` left pending on one input; print the outcome.

    The grading sandbox (``chutes_teacher.sandbox``) runs a function exercise's check outside the
    kernel, where the answer checks are, and calls the student's function through this: one line
    ``PROBE_MARK`` + JSON, the call as :func:`answer_record` records it (``in`` and ``out``,
    ``raise`` or ``unsupported``).

    Parameters
    ----------
    exercise : str
        The exercise whose pending function to call.
    key : str
        The input, as :func:`_key` writes it (JSON).
    """
    args, pairs = _decode(json.loads(key))
    function = _PENDING[exercise]
    try:
        out = function(*args, **dict(pairs))
    except Exception as err:
        call: dict[str, Any] = {"in": key, "raise": [type(err).__name__, str(err)[:200]]}
    else:
        try:
            call = {"in": key, "out": _encode(out)}
        except _Unsupported as err:
            call = {"in": key, "unsupported": str(err)}
    print(PROBE_MARK + json.dumps(call), flush=True)


def record(exercise: str, answer: Any) -> None:
    """The hidden tests of a graded cell: show the answer as plain data for the grading step.

    Nothing is decided here (this runs in the student's kernel): under ``nbgrader autograde`` the
    answer is shown as an output of type :data:`ANSWER_MIME`, which :func:`decide_notebook` judges
    after the notebook has run, and an ``AssertionError`` follows it, which that verdict replaces
    (without the grading step, no points). Elsewhere it does nothing.

    Parameters
    ----------
    exercise : str
        The exercise number, e.g. ``"3.6"``.
    answer : object
        The student's answer.
    """
    if os.environ.get("NBGRADER_EXECUTION") != "autograde":
        return
    from IPython.display import display

    display({ANSWER_MIME: answer_record(exercise, answer),
             "text/plain": f"{exercise}: answer recorded for grading"}, raw=True)
    # Fail closed: this error (no points) stands unless the grading step replaces it with its
    # verdict, so an nbgrader whose configuration did not load gives nothing rather than everything.
    raise AssertionError(f"{exercise}: no verdict yet: the grading step of the course's "
                         "nbgrader_config.py (DecideGrades) did not run")


def _replay(entry: dict[str, Any]) -> Callable[..., Any]:
    """A stand-in for a student's function that answers from the calls recorded in the kernel."""
    from .checks import NotYet

    table = {call["in"]: call for call in entry.get("calls", []) if isinstance(call, dict)}

    def replay(*args: Any, **kwargs: Any) -> Any:
        call = table.get(_key(args, kwargs))
        if call is None:
            raise NotYet("your function was not run on every input the check tries")
        if "raise" in call:
            name, text = call["raise"]
            if name == "NotImplementedError":
                raise NotImplementedError(text)
            raise RuntimeError(f"{name}: {text}")
        if "unsupported" in call:
            raise NotYet(f"your function returned {call['unsupported']}, which cannot be graded")
        return _decode(call["out"])

    replay.__name__ = str(entry.get("name", "your function"))
    return replay


def judge(entry: dict[str, Any], student: str | None = None) -> tuple[bool, str]:
    """The verdict on one recorded answer (run where no student code has run).

    Parameters
    ----------
    entry : dict
        A record from :func:`answer_record`.
    student : str, optional
        Whose answer it is: it is judged against that student's numbers
        (:func:`chutes_edu.variants.variant`; the course's own without a student or a secret).

    Returns
    -------
    (bool, str)
        Whether it is right, and the reason when it is not (never the expected value).
    """
    from .checks import check, exercise_ids

    exercise = entry.get("exercise")
    if exercise not in exercise_ids():
        return False, "not an exercise of this course"
    kind = entry.get("kind")
    if kind == "none":
        return False, "no answer given"
    if kind == "unsupported":
        return False, f"the answer cannot be graded: it is {entry.get('type')}"
    try:
        answer = _replay(entry) if kind == "function" else _decode(entry["value"])
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as err:
        return False, f"the answer cannot be graded ({type(err).__name__})"
    result = check(exercise, answer, variant(student, int(exercise.split(".")[0])))
    return result.ok, result.problem or ("" if result.ok else "not right")


def _judge_stdin() -> None:
    """The grading step's process: one job per line on stdin (a notebook's records, as JSON), its
    verdicts as one line of JSON on stdout, until stdin closes."""
    outbox = _claim_stdout("w")
    for line in sys.stdin:
        job = json.loads(line)
        verdicts = []
        for entry in job["entries"]:
            try:
                verdicts.append(judge(entry, job["student"]))
            except Exception as err:       # a verifier that fails on a strange answer: not right
                verdicts.append((False, f"the answer cannot be graded ({type(err).__name__})"))
        outbox.write(json.dumps(verdicts) + "\n")
        outbox.flush()


_JUDGE_TIMEOUT = 1800                   # seconds for one notebook's verdicts


class _Judge:
    """A grading process for every notebook one nbgrader run grades: a ``python -I`` that never
    runs student code (it reads records as data), started once (about 1.4 s) rather than once per
    notebook, like the validate grader (:class:`_Server`)."""

    def __init__(self, python: str | None) -> None:
        import tempfile

        command, env = _fresh_python("_judge_stdin", python)
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115 - open as long as the process
        self.proc = subprocess.Popen(command, env=env, text=True, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.errors)

    def verdicts(self, job: str) -> list[tuple[bool, str]]:
        import select

        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(job + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass                       # it has stopped: said below, with its error output
        if not select.select([self.proc.stdout], [], [], _JUDGE_TIMEOUT)[0]:
            self.proc.kill()
            raise GradingError(f"the grading step gave no verdict in {_JUDGE_TIMEOUT} s")
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            self.errors.seek(0)
            text = self.errors.read().decode(errors="replace").strip()
            raise GradingError(f"the grading step failed: {text[-2000:]}")
        return [(bool(ok), str(reason)) for ok, reason in json.loads(line)]


_JUDGES: dict[str | None, _Judge] = {}


def _judge_for(python: str | None) -> _Judge:
    found = _JUDGES.get(python)
    if found is None or found.proc.poll() is not None:
        found = _JUDGES[python] = _Judge(python)
    return found


def _records_of(cell: Any, exercise: str) -> list[dict[str, Any]]:
    found = []
    for out in cell.get("outputs", []):
        data = out.get("data", {}) if isinstance(out, dict) else {}
        entry = data.get(ANSWER_MIME)
        if isinstance(entry, str):
            try:
                entry = json.loads(entry)
            except ValueError:
                continue
        if isinstance(entry, dict) and entry.get("exercise") == exercise:
            found.append(entry)
    return found


def decide_notebook(nb: Any, python: str | None = None, student: str | None = None) -> Any:
    """Grade an executed notebook's test cells from their recorded answers, in a fresh process.

    For every autograded test cell (nbgrader's ``grade`` and not ``solution``) whose hidden tests
    call :func:`record`, the last record of that exercise in the cell is judged by :func:`judge`
    in a ``python -I`` that imports the library from its installed files and never runs student
    code (started with the first notebook and kept for the next ones). The cell's outputs
    are replaced by the verdict: a line saying it is right, or an ``AssertionError`` with the
    reason (which nbgrader counts as no points). A cell without a record earns nothing.

    Parameters
    ----------
    nb : NotebookNode
        The notebook, executed (changed in place and returned).
    python : str, optional
        The interpreter to judge with; default this one.
    student : str, optional
        Whose notebook it is (nbgrader's student id): answers are judged against that student's
        variant of the set's numbers (:func:`chutes_edu.variants.variant`).

    Returns
    -------
    NotebookNode
        ``nb``.
    """
    import nbformat

    cells, entries = [], []
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.get("cell_type") != "code" or not meta.get("grade") or meta.get("solution"):
            continue
        m = _RECORD_CALL.search(cell.source)
        if m is None:
            continue
        found = [e for e in _records_of(cell, m["exercise"])
                 if len(json.dumps(e)) <= _MAX_RECORD]
        cells.append((cell, m["exercise"]))
        entries.append(found[-1] if found else {"exercise": m["exercise"], "kind": "missing"})
    if not cells:
        return nb
    verdicts = _judge_for(python).verdicts(json.dumps({"student": student, "entries": entries}))
    for (cell, exercise), entry, (ok, reason) in zip(cells, entries, verdicts, strict=True):
        if entry.get("kind") == "missing":
            ok, reason = False, "no answer was recorded (the cell did not run to its end)"
        if ok:
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout",
                                                   text=f"✔ {exercise} right\n")]
        else:
            message = f"{exercise}: not right yet" + (f": {reason}" if reason else "")
            cell.outputs = [nbformat.v4.new_output("error", ename="AssertionError",
                                                   evalue=message,
                                                   traceback=[f"AssertionError: {message}"])]
    return nb


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
