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


def test_graded_is_silent_outside_nbgrader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    assert graded("1.1", None) is None
    monkeypatch.setenv("NBGRADER_EXECUTION", "validate")
    with pytest.raises(AssertionError, match="no answer given"):
        graded("1.1", None)
    with pytest.raises(AssertionError):
        grade("1.1", 3)
