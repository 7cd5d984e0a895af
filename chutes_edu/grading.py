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

The judge is bounded, because it runs outside the submission's sandbox, in nbgrader's process
tree (through formgrader, the teacher's server's): a 60-character record,
``Pow(Integer(7), Integer(30000000))``, once cost it about 115 s of CPU. So (:class:`JudgeBounds`,
defaults :data:`JUDGE_BOUNDS`, each chosen from what the worked solutions record and need,
measured, times a wide margin):

* **sizes, before anything is built**: :func:`judge` walks a record's JSON, and each formula's
  syntax tree, and refuses it as "not judged: too large" when it is over a bound: its text, the
  number and nesting of its values, the digits of an integer, the entries of an array or a range,
  a board's numbers, and what sympy would compute while building a formula (a power or product
  of numbers, a power of a symbol, factorial, binomial and other functions of a big number, a
  matrix given by a huge shape, a Float's precision). The worked solutions' largest: 60-digit
  numerators, 20,000-entry arrays, 86,183 values in one record.
* **costs, while judging**: the judge process runs under a memory limit (``RLIMIT_AS``, 1 GiB:
  it peaks at 340 MiB) and a CPU limit per record (10 s) within one per notebook (30 s), both as
  ``RLIMIT_CPU``, which stops it even inside one long C-level big-integer operation that no Python
  signal could interrupt; the parent also waits for each verdict only so long (60 s per record,
  180 s per notebook, wall clock). A record over a limit is "not judged: too large" or "not
  judged: took too long"; the judge is killed if need be and a fresh one judges the records left.
  The heaviest worked solution needs 0.75 s of CPU, its heaviest record 0.42 s.

Such a record earns nothing, its test cell says why, and nbgrader's log gets a warning naming the
exercise (and the student).

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

Neither is a sandbox: under autograde the course's configuration runs each submission's kernel in
one (``chutes_teacher.sandbox``, TEACHING.md "What the sandbox protects"); ``nbgrader validate``
runs in the student's own server, on their own work.

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

import atexit
import builtins
import io
import json
import math
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
from typing import IO, Any, NamedTuple

from chutes_edu.variants import variant

__all__ = ["grade", "graded", "record", "judge", "decide_notebook", "answer_record", "variant",
           "ANSWER_MIME", "HIDDEN_TESTS", "GradingError", "JudgeBounds", "JUDGE_BOUNDS"]

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
        _end(self.proc)


def _end(proc: subprocess.Popen[bytes]) -> None:
    """Kill and reap a grading process and close our ends of its pipes (one it broke is closed
    all the same)."""
    import contextlib

    proc.kill()
    proc.wait()
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()


def _stop_server(holder: types.ModuleType) -> None:
    server = getattr(holder, "server", None)
    if server is not None:
        server.stop()


def _is_data(answer: Any) -> bool:
    """Some answers are callable but are values (a sympy expression, a numpy ufunc result ...)."""
    return type(answer).__module__.split(".")[0] in ("sympy", "numpy")


def _server() -> _Server:
    holder = sys.modules.get(_HOLDER)
    if holder is None:                   # once per kernel: each grade() loads this module afresh
        holder = sys.modules[_HOLDER] = types.ModuleType(_HOLDER)
        atexit.register(_stop_server, holder)     # the grader ends with the kernel, reaped
    server = getattr(holder, "server", None)
    if server is None or server.proc.poll() is not None:
        if server is not None:           # it stopped by itself: reap it, close its pipes
            server.stop()
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


class JudgeBounds(NamedTuple):
    """How much a recorded answer may be and cost before the judge refuses it.

    A NamedTuple, not a dataclass: a student's kernel may load this module with ``runpy`` under a
    name that is not in ``sys.modules`` (:func:`chutes_edu.checks.graded` under ``nbgrader
    validate``), where ``@dataclass`` fails on its string annotations.

    The sizes are checked on the record's JSON before anything is built from it
    (:func:`_size_problem`); the costs are limits on the judge process (:func:`_judge_stdin`,
    :func:`decide_notebook`). The defaults (:data:`JUDGE_BOUNDS`) are far above what the worked
    solutions record (measured on ``solutions/*.ipynb``, noted beside each) and far below what
    holds a teacher's machine: an answer over a bound is "not judged: too large" or "not judged:
    took too long", and earns nothing.
    """

    # ---- sizes, checked before anything is built
    record_chars: int = _MAX_RECORD   # JSON text of one record (largest real: 610,457, set 1's 1.3)
    nodes: int = 250_000              # JSON values in one record (largest real: 86,183)
    depth: int = 32                   # nesting of lists, dicts, tags or a formula (real: 8)
    text: int = 20_000                # characters of one string or formula (real: 2,232)
    digits: int = 1_000               # digits of an integer literal (real: 60, in 1943's fractions)
    items: int = 100_000              # entries of an array, or of a range (real: 20,000)
    board_number: int = 20_000        # a board's size, faces or squares (the library tests 12,000)
    result_digits: int = 10_000       # digits a power or product of numbers would have (real: 120)
    exponent: int = 1_000             # a power of a symbol, e.g. p**n (real: under 100)
    function_argument: int = 1_000    # a number given to factorial, binomial, fibonacci ...
    matrix_side: int = 1_000          # rows or columns of a matrix given by its shape (real: 101)
    float_bits: int = 1_000           # precision of a sympy Float (real: 53)
    # ---- costs, limits on the judge process
    # CPU seconds. Measured (tests/test_judge_bounds.py runs the same records): judging every
    # record of the 12 worked solutions took 1.9 s of CPU in all; the heaviest record 0.42 s
    # (set 7's 7.7), the heaviest notebook 0.75 s (set 1, the first one a fresh judge sees; it
    # loads sympy's printing then). The limits are about 25 and 40 times those: a slower machine,
    # a student's clumsier but right formula and a student's own numbers (variants) still fit,
    # and a class of 30 cannot hold the grader for more than 15 minutes with every notebook
    # using its whole limit (it was 1,800 s per notebook).
    record_cpu: int = 10
    notebook_cpu: int = 30
    # Wall-clock seconds, only against a judge that is stuck without using CPU: six times the
    # CPU limits, so a busy machine does not cut a right answer.
    record_wall: int = 60
    notebook_wall: int = 180
    # Address space of the judge (RLIMIT_AS). Measured: 340 MiB (VmPeak) after judging every
    # worked solution, sympy and numpy loaded, and 125 MiB resident; a record that needs more
    # than three times that is refused.
    memory: int = 1024 ** 3


JUDGE_BOUNDS = JudgeBounds()
"""The bounds :func:`judge` and :func:`decide_notebook` use unless told otherwise."""


class _TooLarge(ValueError):
    """A record over the judge's bounds (a ValueError, so callers that catch those fail closed)."""


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
    """The answer back from :func:`_encode`'s JSON (raises ``ValueError`` on anything else, and
    on an answer over :data:`JUDGE_BOUNDS`, before building any of it)."""
    problem = _size_problem(data, JUDGE_BOUNDS)
    if problem:
        raise _TooLarge(problem)
    return _decode_value(data)


def _decode_value(data: Any) -> Any:
    """:func:`_decode` without the size check: for JSON that passed it."""
    if data is None or type(data) is bool:
        return data
    if not isinstance(data, dict) or len(data) != 1:
        raise ValueError("not an encoded answer")
    (tag, value), = data.items()
    if tag == "str" and isinstance(value, str):
        return value
    if tag == "int" and isinstance(value, str):
        return int(value)
    if tag == "float" and isinstance(value, str):
        return float(value)
    if tag == "complex":
        return complex(_decode_value(value[0]), _decode_value(value[1]))
    if tag == "fraction":
        return Fraction(int(value[0]), int(value[1]))
    if tag in ("list", "tuple", "set") and isinstance(value, list):
        items = [_decode_value(v) for v in value]
        return {"list": list, "tuple": tuple, "set": set}[tag](items)
    if tag == "dict" and isinstance(value, list):
        return {_decode_value(k): _decode_value(v) for k, v in value}
    if tag == "range":
        return range(*(int(v) for v in value))
    if tag == "ndarray":
        import numpy as np

        shape, flat = value
        items = [_decode_value(v) for v in flat]
        kinds = {type(v) for v in items}
        array = np.array(items, dtype=object if kinds - {int, float, complex, bool} else None)
        return array.reshape([int(n) for n in shape])
    if tag == "board":
        from .board import _rebuild

        return _rebuild(*(_decode_value(v) for v in value))
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


# --------------------------------------------------------------------------- a record's size
# A record is plain data, but building it can cost without limit: sympy evaluates
# Pow(Integer(7), Integer(30000000)) as it builds it (60 characters, minutes of CPU), a board of
# 10**9 faces or a range of 10**9 numbers fills the memory when a check reads it. So every record
# is measured on its JSON, and each formula on its syntax tree, before anything is built.
_RECORD_TAGS = ("str", "int", "float", "complex", "fraction", "list", "tuple", "set", "dict",
                "range", "ndarray", "board", "sympy")
_FLOAT_CHARS = 40               # a float's repr has at most 24


def _digits(n: int) -> int:
    """Decimal digits of an integer, from its bit length (writing it out would cost)."""
    return int(abs(n).bit_length() * math.log10(2)) + 1


def _size_problem(data: Any, bounds: JudgeBounds) -> str | None:
    """Why a record (or an encoded answer) is over ``bounds``, or ``None`` when it is not.

    Walks the JSON without recursion (a deep one cannot overflow the stack), counting values and
    depth, and checks each tagged value: the digits of integers and fractions, the length of
    strings, floats and formulas, the entries of arrays and ranges, the numbers of a board, and
    each formula's syntax tree (:func:`_formula_problem`); then the length of its text.
    """
    stack: list[tuple[Any, int, bool]] = [(data, 0, False)]
    count = 0
    while stack:
        x, depth, board = stack.pop()
        count += 1
        if count > bounds.nodes:
            return f"more than {bounds.nodes:,} values"
        if depth > bounds.depth:
            return f"nested more than {bounds.depth} deep"
        if isinstance(x, str):
            if len(x) > bounds.text:
                return f"a text of more than {bounds.text:,} characters"
        elif isinstance(x, int) and not isinstance(x, bool):
            problem = _integer_problem(x, board, bounds)
            if problem:
                return problem
        elif isinstance(x, list):
            stack.extend((v, depth + 1, board) for v in x)
        elif isinstance(x, dict):
            if len(x) == 1 and next(iter(x)) in _RECORD_TAGS:
                (tag, value), = x.items()
                problem = _tag_problem(tag, value, board, bounds)
                if problem:
                    return problem
                board = board or tag == "board"
            stack.extend((v, depth + 1, board) for v in x.values())
    if _json_chars(data) > bounds.record_chars:
        return f"its record has more than {bounds.record_chars:,} characters"
    return None


def _json_chars(data: Any) -> int:
    """The length of a record's JSON; a very deep one counts as endless (``json`` recurses)."""
    try:
        return len(json.dumps(data))
    except RecursionError:
        return sys.maxsize


def _integer_problem(n: int, board: bool, bounds: JudgeBounds) -> str | None:
    if _digits(n) > bounds.digits:
        return f"an integer of more than {bounds.digits:,} digits"
    if board and abs(n) > bounds.board_number:
        return f"a board with a number over {bounds.board_number:,}"
    return None


def _tag_problem(tag: str, value: Any, board: bool, bounds: JudgeBounds) -> str | None:
    """What is over ``bounds`` in one tagged value of a record (its parts are walked apart)."""
    if tag == "int" and isinstance(value, str):
        if len(value.lstrip("+-")) > bounds.digits:
            return f"an integer of more than {bounds.digits:,} digits"
        if board and len(value) < 20 and abs(int(value)) > bounds.board_number:
            return f"a board with a number over {bounds.board_number:,}"
    if tag == "fraction" and isinstance(value, list) and any(
            isinstance(v, str) and len(v.lstrip("+-")) > bounds.digits for v in value):
        return f"a fraction with more than {bounds.digits:,} digits"
    if tag == "float" and isinstance(value, str) and len(value) > _FLOAT_CHARS:
        return f"a float of more than {_FLOAT_CHARS} characters"
    if tag == "ndarray" and isinstance(value, list) and value and isinstance(value[0], list):
        shape = value[0]
        if len(shape) > bounds.depth or not all(type(n) is int and n >= 0 for n in shape):
            return None                              # not an array: the decoder refuses it
        if math.prod(shape) > bounds.items or (len(value) > 1 and isinstance(value[1], list)
                                              and len(value[1]) > bounds.items):
            return f"an array of more than {bounds.items:,} entries"
    if tag == "range" and isinstance(value, list) and len(value) == 3 and all(
            type(v) is int for v in value):
        start, stop, step = value
        if max(_digits(v) for v in value) <= bounds.digits and step and len(
                range(start, stop, step)[:bounds.items + 1]) > bounds.items:
            return f"a range of more than {bounds.items:,} numbers"
    if tag == "sympy" and isinstance(value, str):
        if len(value) > bounds.text:
            return f"a formula of more than {bounds.text:,} characters"
        return _formula_problem(value, bounds)
    return None


def _formula_problem(text: str, bounds: JudgeBounds) -> str | None:
    """What is over ``bounds`` in a formula (a sympy ``srepr``), read as a syntax tree only.

    Besides its depth and the digits of its integers, this estimates what sympy would compute as
    it builds the formula: the digits of a power of numbers (``Pow(Integer(7),
    Integer(30000000))``, built by sympy at once), the exponent of a power of a symbol, the
    argument of a function of a number (``factorial(Integer(10**7))``, ``binomial``,
    ``fibonacci`` ...), the shape of a matrix given by its shape, a range's length and a Float's
    precision.
    """
    import ast

    try:
        tree = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None                                  # not a formula: the decoder refuses it
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > bounds.depth:
            return f"a formula nested more than {bounds.depth} deep"
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    try:
        _estimate(tree, bounds)
    except _TooLarge as err:
        return str(err)
    return None


# (estimated decimal digits, the exact value when the formula is a plain number)
_Number = tuple[float, Fraction | None]


def _estimate(node: Any, bounds: JudgeBounds) -> _Number | None:
    """The size of the number a formula's node would be built into (``None``: not a number, e.g.
    a symbol, a float or a matrix); raises ``_TooLarge`` when it, or a part of it, is too large."""
    import ast

    import sympy

    if isinstance(node, ast.Constant):
        if type(node.value) is not int:
            return None
        if _digits(node.value) > bounds.digits:
            raise _TooLarge(f"an integer of more than {bounds.digits:,} digits")
        return float(_digits(node.value)), Fraction(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _estimate(node.operand, bounds)
        return inner and (inner[0], None if inner[1] is None else -inner[1])
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        for child in ast.iter_child_nodes(node):
            _estimate(child, bounds)
        return None
    name = node.func.id
    args = [_estimate(arg, bounds) for arg in node.args]
    for kw in node.keywords:
        value = _estimate(kw.value, bounds)
        if name == "Float" and value and (value[1] is None or abs(value[1]) > bounds.float_bits):
            raise _TooLarge(f"a Float of more than {bounds.float_bits:,} bits")
    cls = getattr(sympy, name, None)
    numbers = [a for a in args if a is not None]
    if name == "Integer" and len(args) == 1:
        return args[0]
    if name == "Rational" and len(args) in (2, 3) and args[0] and args[1]:
        p, q = args[0][1], args[1][1]
        return args[0][0] + args[1][0], (p / q if p is not None and q else None)
    if name == "Float":
        _float_problem(node, bounds)
        return None
    if name in ("Add", "Mul") and args and len(numbers) == len(args):
        digits = sum(a[0] for a in numbers)
        if digits > bounds.result_digits:
            raise _TooLarge(f"a {name} of numbers with more than {bounds.result_digits:,} digits")
        return digits, None
    if name == "Pow" and len(args) == 2 and args[1] is not None:
        base, (power_digits, power) = args[0], args[1]
        size = float(abs(power)) if power is not None else 10.0 ** min(power_digits, 300)
        if base is None:
            if size > bounds.exponent:
                raise _TooLarge(f"a power with an exponent over {bounds.exponent:,}")
            return None
        if base[0] * size > bounds.result_digits:
            raise _TooLarge(f"a power of numbers with more than {bounds.result_digits:,} digits")
        return base[0] * size, None
    if not isinstance(cls, type):
        return None
    if issubclass(cls, (sympy.MatrixBase, sympy.MatrixExpr)):
        if any(a[1] is None or abs(a[1]) > bounds.matrix_side for a in numbers):
            raise _TooLarge(f"a matrix with more than {bounds.matrix_side:,} rows or columns")
        return None
    if issubclass(cls, (sympy.Function, sympy.Range)) and numbers:
        if any(a[1] is None or abs(a[1]) > bounds.function_argument for a in numbers):
            raise _TooLarge(f"{name} of a number over {bounds.function_argument:,}")
        if len(numbers) < len(args) or not issubclass(cls, sympy.Function):
            return None
        n = max(float(abs(a[1])) for a in numbers if a[1] is not None)
        return n * math.log10(n + 1) + 1, None           # n! has fewer digits than that
    return None


def _float_problem(node: Any, bounds: JudgeBounds) -> None:
    """Raise ``_TooLarge`` for a sympy Float whose digits, exponent or precision are too large."""
    import ast

    for i, arg in enumerate(node.args):
        if i == 0 and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            mantissa, _, exponent = arg.value.lower().partition("e")
            if len(mantissa) > bounds.digits or (exponent and (
                    len(exponent) > 12 or abs(int(exponent)) > bounds.result_digits)):
                raise _TooLarge(f"a Float of more than {bounds.result_digits:,} digits")
        if i == 1 and isinstance(arg, ast.Constant) and type(arg.value) is int and (
                abs(arg.value) > bounds.float_bits // 3):
            raise _TooLarge(f"a Float of more than {bounds.float_bits // 3:,} digits")


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
        return _decode_value(call["out"])

    replay.__name__ = str(entry.get("name", "your function"))
    return replay


def judge(entry: dict[str, Any], student: str | None = None,
          bounds: JudgeBounds = JUDGE_BOUNDS) -> tuple[bool, str]:
    """The verdict on one recorded answer (run where no student code has run).

    Parameters
    ----------
    entry : dict
        A record from :func:`answer_record`.
    student : str, optional
        Whose answer it is: it is judged against that student's numbers
        (:func:`chutes_edu.variants.variant`; the course's own without a student or a secret).
    bounds : JudgeBounds, optional
        The sizes over which the record is refused before anything is built from it ("not
        judged: too large").

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
        problem = _size_problem(entry, bounds)
        if problem:
            return False, f"{_TOO_LARGE} ({problem})"
        answer = _replay(entry) if kind == "function" else _decode_value(entry["value"])
    except (MemoryError, RecursionError):
        return False, _out_of_memory(bounds)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, SyntaxError) as err:
        return False, f"the answer cannot be graded ({type(err).__name__})"
    result = check(exercise, answer, variant(student, int(exercise.split(".")[0])))
    if result.problem in _CHECK_RAN_OUT:     # check() turns any exception into a problem
        return False, _out_of_memory(bounds)
    return result.ok, result.problem or ("" if result.ok else "not right")


# --------------------------------------------------------------------------- the judge process
# The verdicts come from a child process with limits of its own: its address space (RLIMIT_AS:
# a record that needs more raises MemoryError, or stops the judge) and its CPU time per record
# and per notebook (RLIMIT_CPU, renewed before each record: the kernel stops the judge with
# SIGXCPU even inside one long C-level big-integer operation, which no Python signal handler
# could interrupt). The parent reads one verdict per record with a wall-clock limit; when the
# judge stops or does not answer in time, that record is "not judged", the judge is killed and a
# fresh one judges the records left.
_TOO_LARGE = "not judged: too large"
_TOO_LONG = "not judged: took too long"
_CHECK_RAN_OUT = ("checking it raised MemoryError", "checking it raised RecursionError")
_JUDGE_START = 120                  # wall-clock seconds for the judge to start (it takes about 2)


def _out_of_memory(bounds: JudgeBounds) -> str:
    return f"{_TOO_LARGE} (it needs more than the judge's {bounds.memory // 2 ** 20:,} MiB)"


def _notebook_time_up(bounds: JudgeBounds) -> str:
    return f"{_TOO_LONG} (this notebook's {bounds.notebook_wall} s for judging were used up)"


def _cpu_seconds() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _limit(which: int, soft: float | None) -> None:
    """Set a soft resource limit of this process (``None``: as high as the hard limit)."""
    import resource

    _, hard = resource.getrlimit(which)
    if soft is None:
        value = hard
    else:
        value = math.ceil(soft) if hard == resource.RLIM_INFINITY else min(math.ceil(soft), hard)
    resource.setrlimit(which, (value, hard))


def _judge_stdin() -> None:
    """The grading step's process: one job per line on stdin (a notebook's records and the
    bounds, as JSON), one line of JSON per record on stdout (its verdict and the CPU seconds it
    took), until stdin closes. Each job runs under the bounds' memory limit, each record under
    its CPU limit, within what is left of the notebook's."""
    import resource

    outbox = _claim_stdout("w")
    _limit(resource.RLIMIT_CORE, 0)          # a judge stopped by its CPU limit leaves no core file
    from .checks import exercise_ids

    exercise_ids()                           # load the checks now: not on the first record's CPU
    outbox.write(json.dumps({"ready": True}) + "\n")
    outbox.flush()
    for line in sys.stdin:
        job = json.loads(line)
        bounds = JudgeBounds(**job["bounds"])
        left = float(job["cpu"])
        _limit(resource.RLIMIT_AS, bounds.memory)
        for entry in job["entries"]:
            spent = 0.0
            if left <= 0:
                verdict = (False, f"{_TOO_LONG} (this notebook's {bounds.notebook_cpu} s of CPU "
                                  "for judging were used up)")
            else:
                start = _cpu_seconds()
                _limit(resource.RLIMIT_CPU, start + min(bounds.record_cpu, left))
                try:
                    verdict = judge(entry, job["student"], bounds)
                except (MemoryError, RecursionError):
                    verdict = (False, _out_of_memory(bounds))
                except Exception as err:   # a verifier that fails on a strange answer: not right
                    verdict = (False, f"the answer cannot be graded ({type(err).__name__})")
                spent = _cpu_seconds() - start
                left -= spent
            outbox.write(json.dumps({"verdict": verdict, "cpu": spent}) + "\n")
            outbox.flush()
        _limit(resource.RLIMIT_CPU, None)
        _limit(resource.RLIMIT_AS, None)


class _Judge:
    """A grading process for every notebook one nbgrader run grades: a ``python -I`` that never
    runs student code (it reads records as data), started once (about 1.4 s) rather than once per
    notebook, like the validate grader (:class:`_Server`); started again after a record stopped
    it, and stopped when the process that grades exits."""

    def __init__(self, python: str | None) -> None:
        import tempfile

        command, env = _fresh_python("_judge_stdin", python)
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115 - open as long as the process
        self.proc = subprocess.Popen(command, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.errors)
        self._buffer = b""
        self._stderr_text = ""
        if not self.line(_JUDGE_START):
            self.stop()
            raise GradingError(f"the grading step did not start: {self.error_text()}")

    def send(self, job: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(job).encode() + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass                       # it has stopped: line() says so

    def line(self, timeout: float) -> str | None:
        """The judge's next line; ``""`` when it has stopped, ``None`` when none came in time."""
        import select
        import time

        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            wait = deadline - time.monotonic()
            if wait <= 0 or not select.select([self.proc.stdout], [], [], wait)[0]:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not chunk:
                self.proc.wait()
                return ""
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode()

    def error_text(self) -> str:
        """The end of what the judge wrote on stderr (still there once it is stopped)."""
        if not self.errors.closed:
            self.errors.seek(0)
            self._stderr_text = self.errors.read().decode(errors="replace").strip()[-2000:]
        return self._stderr_text

    def stop(self) -> None:
        """Stop the process, reap it, close its pipes; keep what it wrote on stderr."""
        _end(self.proc)
        self.error_text()
        self.errors.close()


_JUDGES: dict[str | None, _Judge] = {}


def _judge_for(python: str | None) -> _Judge:
    found = _JUDGES.get(python)
    if found is None or found.proc.poll() is not None:
        if found is not None:                # it stopped by itself: reap it, close its pipes
            found.stop()
        found = _JUDGES[python] = _Judge(python)
        atexit.unregister(_stop_judges)      # (once: the dictionary empties and fills again)
        atexit.register(_stop_judges)        # no judge outlives the process that grades
    return found


def _stop_judges() -> None:
    """Stop every judge this process started (the next notebook starts a fresh one)."""
    while _JUDGES:
        _JUDGES.popitem()[1].stop()


def _verdicts(entries: list[dict[str, Any]], python: str | None, student: str | None,
              bounds: JudgeBounds) -> tuple[list[tuple[bool, str]], list[str]]:
    """Each record's verdict from the judge process, within the bounds' time limits; and what
    the judge said on stderr before any record that stopped it."""
    import signal
    import time

    verdicts: list[tuple[bool, str]] = []
    notes: list[str] = []
    cpu_left = float(bounds.notebook_cpu)
    _judge_for(python)                       # its start is not the notebook's time (a restart is)
    deadline = time.monotonic() + bounds.notebook_wall
    while len(verdicts) < len(entries):
        judge_process = _judge_for(python)
        judge_process.send({"student": student, "entries": entries[len(verdicts):],
                            "bounds": bounds._asdict(), "cpu": cpu_left})
        while len(verdicts) < len(entries):
            notebook_left = deadline - time.monotonic()
            line = judge_process.line(min(bounds.record_wall, notebook_left))
            if line:
                reply = json.loads(line)
                verdicts.append((bool(reply["verdict"][0]), str(reply["verdict"][1])))
                cpu_left -= float(reply["cpu"])
                continue
            # No verdict in time, or the judge stopped (its CPU limit, or out of memory where
            # a library aborts rather than raise): this record is not judged, the next ones go
            # to a fresh judge.
            judge_process.stop()
            _JUDGES.pop(python, None)
            cpu_left -= min(bounds.record_cpu, cpu_left)
            if line is None and notebook_left < bounds.record_wall:
                reason = _notebook_time_up(bounds)
            elif line is None:
                reason = f"{_TOO_LONG} (more than {bounds.record_wall} s)"
            elif judge_process.proc.returncode == -signal.SIGXCPU:
                reason = f"{_TOO_LONG} (more than {bounds.record_cpu} s of CPU)"
            else:
                reason = _out_of_memory(bounds)
                notes.append(judge_process.error_text())
            verdicts.append((False, reason))
            if time.monotonic() >= deadline:
                verdicts += [(False, _notebook_time_up(bounds))] * (len(entries) - len(verdicts))
            break
    return verdicts, notes


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


def decide_notebook(nb: Any, python: str | None = None, student: str | None = None,
                    bounds: JudgeBounds = JUDGE_BOUNDS, log: Any = None) -> Any:
    """Grade an executed notebook's test cells from their recorded answers, in a fresh process.

    For every autograded test cell (nbgrader's ``grade`` and not ``solution``) whose hidden tests
    call :func:`record`, the last record of that exercise in the cell is judged by :func:`judge`
    in a ``python -I`` that imports the library from its installed files and never runs student
    code (started with the first notebook and kept for the next ones), within ``bounds``. The
    cell's outputs are replaced by the verdict: a line saying it is right, or an
    ``AssertionError`` with the reason (which nbgrader counts as no points). A cell without a
    record earns nothing; so does a record over the bounds ("not judged: too large" or "not
    judged: took too long"), with a warning in the log that names the exercise.

    Parameters
    ----------
    nb : NotebookNode
        The notebook, executed (changed in place and returned).
    python : str, optional
        The interpreter to judge with; default this one.
    student : str, optional
        Whose notebook it is (nbgrader's student id): answers are judged against that student's
        variant of the set's numbers (:func:`chutes_edu.variants.variant`).
    bounds : JudgeBounds, optional
        The judge's limits: sizes, CPU and wall-clock time per record and per notebook, memory.
    log : logging.Logger, optional
        Where a record that was not judged is reported; default the running traitlets
        application's log (nbgrader's), else the ``traitlets`` logger.

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
        found = _records_of(cell, m["exercise"])
        chars = _json_chars(found[-1]) if found else 0
        if not found:
            verdict: tuple[bool, str] | None = (
                False, "no answer was recorded (the cell did not run to its end)")
        elif chars == sys.maxsize:
            verdict = (False, f"{_TOO_LARGE} (nested more than {bounds.depth} deep)")
        elif chars > bounds.record_chars:
            verdict = (False, f"{_TOO_LARGE} (its record has more than "
                              f"{bounds.record_chars:,} characters)")
        else:
            verdict = None
            entries.append(found[-1])
        cells.append((cell, m["exercise"], verdict))
    if not cells:
        return nb
    judged, notes = _verdicts(entries, python, student, bounds) if entries else ([], [])
    if log is None:
        from traitlets.log import get_logger

        log = get_logger()
    for cell, exercise, preset in cells:
        ok, reason = preset or judged.pop(0)
        if ok:
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout",
                                                   text=f"✔ {exercise} right\n")]
            continue
        if reason.startswith("not judged"):
            message = f"{exercise}: {reason}"
            log.warning("Exercise %s of %s %s: 0 points", exercise,
                        f"student {student}" if student else "this notebook", reason)
        else:
            message = f"{exercise}: not right yet" + (f": {reason}" if reason else "")
        cell.outputs = [nbformat.v4.new_output("error", ename="AssertionError", evalue=message,
                                               traceback=[f"AssertionError: {message}"])]
    for note in notes:
        if note:
            log.warning("The judge stopped on a record; it said: %s", note)
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
