"""grade(): the verdict comes from a fresh grader process that nothing in the kernel can change."""

from __future__ import annotations

import runpy
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import chutes_edu
import chutes_edu.checks
import chutes_edu.grading
import chutes_edu.markov
from chutes_edu.checks import graded
from chutes_edu.grading import grade
from tests.support import exits_tidily

# this test imports chutes_edu.grading itself, which notebooks never do
pytestmark = pytest.mark.filterwarnings("ignore:.*found in sys.modules:RuntimeWarning")


def _verdict(exercise: str, answer: Any) -> str:
    fresh = runpy.run_module("chutes_edu.grading")["grade"]
    try:
        fresh(exercise, answer)
    except AssertionError as err:
        return str(err)
    return "right"


def _my_transition_matrix(board: Any) -> np.ndarray:
    P = np.zeros((board.size + 1, board.size + 1))
    for s in range(board.size + 1):
        for r, prob in enumerate(board.probabilities, start=1):
            P[s, board.landing(s, r)] += float(prob)
    return P


def test_values_functions_and_missing_answers() -> None:
    assert _verdict("1.1", Fraction(18, 5)) == "right"
    assert "right value, but as a float" in _verdict("1.1", 3.6)
    assert _verdict("1.1", None) == "1.1: no answer given"
    assert _verdict("1.6", "(b)") == "right"
    assert _verdict("3.3", _my_transition_matrix) == "right"
    assert "not right yet" in _verdict("3.3", lambda board: np.eye(board.size + 1))

    def stub(board: Any) -> None:
        """Not written yet."""

    assert "no answer given" in _verdict("3.3", stub)
    assert "wants the function itself" in _verdict("3.3", 1)
    assert "cannot be graded" in _verdict("1.1", (x for x in [1]))  # a generator: not picklable


def test_an_error_in_the_students_function_is_not_right() -> None:
    def broken(board: Any) -> np.ndarray:
        raise ZeroDivisionError("oops")

    assert "raised ZeroDivisionError" in _verdict("3.3", broken)


def test_redefining_check_grader_or_library_in_the_kernel_changes_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    always = chutes_edu.checks.CheckResult("x", True, "✔ right")
    monkeypatch.setattr(chutes_edu, "check", lambda *a: always)
    monkeypatch.setattr(chutes_edu.checks, "check", lambda *a: always)
    monkeypatch.setattr(chutes_edu.checks, "_REGISTRY", {})
    monkeypatch.setattr(chutes_edu.markov, "expected_turns", lambda *a, **k: [1.0] * 201)
    monkeypatch.setattr(chutes_edu, "expected_turns", lambda *a, **k: [1.0] * 201)
    monkeypatch.setattr(chutes_edu.grading, "grade", lambda *a: None)
    assert "not right yet" in _verdict("2.1", 1.0)
    assert "not right yet" in _verdict("2.1", 1)


def test_the_grader_process_ends_with_the_kernel() -> None:
    """A kernel that graded answers (each ``graded`` loads this module afresh) stops its grader
    process as it exits: reaped, its pipes closed (Python's development mode reports a child still
    running, or a pipe never closed, as a ResourceWarning), with one exit hook however many."""
    code = ("import atexit, runpy, sys\n"
            "from fractions import Fraction\n"
            "hooks = []\n"
            "for _ in range(3):\n"
            "    runpy.run_module('chutes_edu.grading')['grade']('1.1', Fraction(18, 5))\n"
            "    hooks.append(atexit._ncallbacks())\n"
            "print(sys.modules['_chutes_edu_grading_server'].server.proc.pid, *hooks)\n")
    hooks = exits_tidily(code)
    assert hooks[0] == hooks[-1], hooks


def test_graded_is_silent_outside_nbgrader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    assert graded("1.1", None) is None
    monkeypatch.setenv("NBGRADER_EXECUTION", "validate")
    with pytest.raises(AssertionError, match="no answer given"):
        graded("1.1", None)
    with pytest.raises(AssertionError):
        grade("1.1", 3)


# ------------------------------------------------------------------ recorded answers, judged apart
def _judged(exercise: str, answer: Any) -> tuple[bool, str]:
    """Record in this process (as the kernel does), then judge the JSON alone, as a fresh one."""
    import json

    from chutes_edu.grading import answer_record, judge

    return judge(json.loads(json.dumps(answer_record(exercise, answer))))


def test_a_record_is_plain_json_that_comes_back_exactly() -> None:
    import sympy

    from chutes_edu import MILTON_BRADLEY_1943, Board
    from chutes_edu.grading import _decode, _encode

    p = sympy.Symbol("p", positive=True)
    values = [None, True, 3, -2**80, 0.1, float("inf"), complex(1, -2), Fraction(18, 5), "(b)",
              [1, (2, 3)], {"a": 1, 2: [0.5]}, {1, 2}, range(3), np.arange(6).reshape(2, 3) / 7,
              np.int64(7), MILTON_BRADLEY_1943, Board({2: 6}, size=10, die=(1, 2, 3)),
              1 / (1 - p) + p**2, sympy.Matrix([[1, sympy.Rational(1, 3)]]), sympy.Float("0.25")]
    for value in values:
        back = _decode(__import__("json").loads(__import__("json").dumps(_encode(value))))
        if isinstance(value, np.ndarray):
            assert np.array_equal(back, value)
        else:
            assert back == value and type(back) in (type(value), int, float), (value, back)


def test_a_record_never_runs_code_when_it_is_read() -> None:
    from chutes_edu.grading import _decode

    for text in ["__import__('os').system('echo hacked')", "Symbol('x').__class__",
                 "Matrix([['__import__(1)']])", "sympify('1+1')", "Symbol('x y')",
                 "Function('f')(Symbol('x'))", "Lambda(Symbol('x'), open)"]:
        with pytest.raises(ValueError):
            _decode({"sympy": text})
    for bad in [{"pickle": "gASV"}, {"int": "1", "str": "x"}, [1, 2], "1", 1.5]:
        with pytest.raises(ValueError):
            _decode(bad)


def test_judged_records_grade_like_the_check() -> None:
    assert _judged("1.1", Fraction(18, 5)) == (True, "")
    assert not _judged("1.1", 3.6)[0]
    assert _judged("1.1", None) == (False, "no answer given")
    assert _judged("1.6", "(b)")[0]
    assert _judged("3.3", _my_transition_matrix)[0]
    assert not _judged("3.3", lambda board: np.eye(board.size + 1))[0]


class _EqualToEverything(float):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = float.__hash__


class _AnythingGoes:
    def __eq__(self, other: object) -> bool:
        return True

    def __float__(self) -> float:
        return 3.6


def test_objects_that_claim_to_be_right_are_judged_by_their_value() -> None:
    assert not _judged("1.1", _EqualToEverything(1.0))[0]
    ok, reason = _judged("1.1", _AnythingGoes())
    assert not ok and "cannot be graded" in reason


def test_a_function_is_judged_by_what_it_returned_in_the_kernel() -> None:
    from chutes_edu.grading import answer_record, judge

    entry = answer_record("3.3", _my_transition_matrix)
    assert entry["kind"] == "function" and entry["calls"]
    entry["calls"] = entry["calls"][:-1]           # one input the check tries was never run
    ok, reason = judge(entry)
    assert not ok and "every input" in reason


def test_under_autograde_a_record_fails_closed(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Without the grading step that replaces it, a test cell shows an error: no points."""
    from chutes_edu.grading import record

    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    assert record("1.1", Fraction(18, 5)) is None
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(AssertionError, match="no verdict yet"):
        record("1.1", Fraction(18, 5))
