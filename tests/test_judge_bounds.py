"""The judge outside the sandbox is bounded (issue 47, part 3), tested by attack.

The grading step (``DecideGrades``: :func:`chutes_edu.grading.decide_notebook`) judges the answers a
notebook recorded in a child process of nbgrader, outside the submission's sandbox. A 60-character
record, ``Pow(Integer(7), Integer(30000000))``, cost that judge about 115 s of CPU, and through
formgrader it held the teacher's server. Each test here hands the judge one such record among right
answers and shows: the record is refused ("not judged: too large" or "took too long", 0 points,
named in the log), the other records of the notebook are still judged right, and the judge's CPU
time stays small (the CPU seconds of the child processes, measured with ``getrusage``, never the
wall clock). The size checks are tested on their own (default bounds) and the process limits
behind them with the size checks lifted (``_NO_SIZE_CHECKS``): a record past the first line of
defence meets the second. Every legitimate record passes: those the 12 worked solutions make, and
any value from a property test.
"""

from __future__ import annotations

import json
import logging
import resource
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import nbformat
import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chutes_edu import grading
from chutes_edu.grading import (
    ANSWER_MIME,
    JUDGE_BOUNDS,
    JudgeBounds,
    _decode,
    _encode,
    _size_problem,
    answer_record,
    decide_notebook,
    judge,
)
from tests.support import exits_tidily
from tests.test_grading import _my_transition_matrix

ROOT = Path(__file__).resolve().parent.parent

# Every size check lifted, so that a record reaches the judge process's own limits.
_NO_SIZE_CHECKS = JUDGE_BOUNDS._replace(
    nodes=10**9, depth=10**6, text=10**9, digits=10**9, items=10**12,
    board_number=10**12, result_digits=10**15, exponent=10**15, function_argument=10**15,
    matrix_side=10**9, float_bits=10**9)
# CPU seconds the judge may use for a test's notebook: it starts (imports sympy, numpy and the
# checks: about 1.5 s) and judges three right answers (0.1 s); a refused record adds nothing.
# Before the bounds the attacks below cost from 6 s (a range of 3*10**8) to minutes.
_CPU_ONE_JUDGE = 5.0

_RIGHT: dict[str, Any] = {"1.1": Fraction(18, 5), "1.6": "(b)", "3.3": _my_transition_matrix}


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.fixture
def judge_cpu() -> Iterator[Callable[[], float]]:
    """A function that says how many CPU seconds the judges started since the test began used
    (it stops them: a child's CPU is counted once it is reaped)."""
    grading._stop_judges()
    start = _child_cpu()

    def spent() -> float:
        grading._stop_judges()
        return _child_cpu() - start

    yield spent
    grading._stop_judges()


def _notebook(entries: list[dict[str, Any]]) -> nbformat.NotebookNode:
    """An executed submission: one graded test cell per record, as the hidden tests leave it."""
    nb = nbformat.v4.new_notebook()
    for i, entry in enumerate(entries):
        exercise = entry["exercise"]
        cell = nbformat.v4.new_code_cell(
            f'graded("{exercise}", answer)\n### BEGIN HIDDEN TESTS\n'
            f'record("{exercise}", answer)\n### END HIDDEN TESTS')
        cell.metadata["nbgrader"] = {"grade": True, "solution": False, "locked": True,
                                     "grade_id": f"test_{i}", "points": 1, "schema_version": 3}
        # (not nbformat.from_dict, which recurses: a record nested deeper than nbformat reads)
        cell.outputs = [nbformat.NotebookNode(output_type="display_data", metadata={}, data={
            ANSWER_MIME: entry, "text/plain": "recorded"})]
        nb.cells.append(cell)
    return nb


def _outcomes(nb: nbformat.NotebookNode) -> list[str]:
    """Each test cell's verdict: "right" or the error's message."""
    found = []
    for cell in nb.cells:
        out = cell.outputs[0]
        found.append("right" if out.output_type == "stream" else out.evalue)
    return found


def _right_records() -> list[dict[str, Any]]:
    return [answer_record(exercise, answer) for exercise, answer in _RIGHT.items()]


def _value(exercise: str, value: Any) -> dict[str, Any]:
    return {"exercise": exercise, "kind": "value", "value": value}


def _judged_among_right_answers(attack: dict[str, Any], caplog: pytest.LogCaptureFixture,
                                **bounds: Any) -> str:
    """Judge a notebook of right answers with ``attack`` in the middle; the attack's verdict,
    once the right answers are seen right and the log names the attack's exercise."""
    right = _right_records()
    nb = _notebook([right[0], attack, *right[1:]])
    kwargs: dict[str, Any] = (
        {"bounds": _NO_SIZE_CHECKS._replace(**bounds)} if bounds else {})
    with caplog.at_level(logging.WARNING):
        decide_notebook(nb, **kwargs)
    outcomes = _outcomes(nb)
    assert [outcomes[0], *outcomes[2:]] == ["right"] * len(right), outcomes
    verdict = outcomes[1]
    assert verdict.startswith(f"{attack['exercise']}: not judged: "), verdict
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(f"Exercise {attack['exercise']} " in m and "not judged" in m for m in warned), warned
    return verdict


# ---------------------------------------------------------------- the attacks, by size
def test_a_power_of_numbers_is_refused_before_sympy_builds_it(
        judge_cpu: Callable[[], float], caplog: pytest.LogCaptureFixture) -> None:
    """Issue 47's record: 60 characters, 115 s of CPU."""
    attack = _value("1.2", {"sympy": "Pow(Integer(7), Integer(30000000))"})
    assert len(json.dumps(attack["value"])) < 60
    assert "too large (a power of numbers" in _judged_among_right_answers(attack, caplog)
    assert judge_cpu() < _CPU_ONE_JUDGE


def test_a_huge_factorial_is_refused(judge_cpu: Callable[[], float],
                                     caplog: pytest.LogCaptureFixture) -> None:
    attack = _value("1.2", {"sympy": "factorial(Integer(10000000))"})
    assert "too large (factorial of a number over" in _judged_among_right_answers(attack, caplog)
    assert judge_cpu() < _CPU_ONE_JUDGE


@pytest.mark.parametrize("value", [
    {"int": "9" * 10**7},                                       # 10**7 digits
    {"sympy": "Integer(0x" + "f" * 1_900_000 + ")"},            # 2.3 million digits, in hex
    {"fraction": ["7" * 4000, "3"]},
    {"sympy": "Float('1.5', precision=100000000)"},
    {"sympy": "Pow(Symbol('p'), Integer(100000000))"},
    {"sympy": "ZeroMatrix(Integer(100000), Integer(100000))"},
    {"sympy": f"Pow(Integer(2), Integer({3 * 2**33}))"},            # a 3 GiB integer
], ids=["int-1e7-digits", "hex-literal", "fraction", "float-precision", "symbol-power",
        "matrix-shape", "pow-3-gib"])
def test_huge_numbers_and_shapes_are_refused(value: dict[str, Any], judge_cpu: Callable[[], float],
                                             caplog: pytest.LogCaptureFixture) -> None:
    assert "not judged: too large" in _judged_among_right_answers(_value("1.2", value), caplog)
    assert judge_cpu() < _CPU_ONE_JUDGE


def test_deeply_nested_lists_are_refused(judge_cpu: Callable[[], float],
                                         caplog: pytest.LogCaptureFixture) -> None:
    """As deep as a notebook read by nbformat can hold (its reader recurses), and far deeper."""
    readable: Any = {"int": "1"}
    for _ in range(150):
        readable = {"list": [readable]}
    nbformat.from_dict(json.loads(json.dumps({"data": readable})))   # what nbformat.read does
    endless: Any = {"int": "1"}
    for _ in range(5000):
        endless = {"list": [endless]}
    for value in (readable, endless):
        assert "too large (nested more than" in _judged_among_right_answers(
            _value("1.1", value), caplog)
    assert judge_cpu() < _CPU_ONE_JUDGE


def test_a_functions_huge_results_are_refused(judge_cpu: Callable[[], float],
                                              caplog: pytest.LogCaptureFixture) -> None:
    """A function exercise (3.3) whose recorded call results are ranges of 3*10**8 numbers:
    before the bounds the check turned one into an array (6 s of CPU and 4 GB, then more)."""
    attack = answer_record("3.3", _my_transition_matrix)
    for call in attack["calls"]:
        call["out"] = {"range": [0, 300_000_000, 1]}
    assert "too large (a range of more than" in _judged_among_right_answers(attack, caplog)
    assert judge_cpu() < _CPU_ONE_JUDGE


def test_allocating_3_gib_is_refused(judge_cpu: Callable[[], float],
                                     caplog: pytest.LogCaptureFixture) -> None:
    """Function results that the check turns into a 3 GiB array (a range of 3 * 2**27 numbers, as
    floats). Refused by their size; with the size checks lifted, by the judge's memory limit
    (RLIMIT_AS), and the records after it are judged."""
    attack = answer_record("3.3", _my_transition_matrix)
    for call in attack["calls"]:
        call["out"] = {"range": [0, 3 * 2**27, 1]}
    assert "too large (a range of more than" in _judged_among_right_answers(attack, caplog)
    verdict = _judged_among_right_answers(attack, caplog, record_cpu=5)
    assert "too large (it needs more than the judge's 1,024 MiB)" in verdict, verdict
    assert judge_cpu() < 2 * _CPU_ONE_JUDGE


# ---------------------------------------------------------------- the judge process's limits
def test_a_record_over_its_cpu_limit_is_cut_and_the_next_ones_judged(
        judge_cpu: Callable[[], float], caplog: pytest.LogCaptureFixture) -> None:
    """With the size checks lifted, issue 47's record runs until the judge's CPU limit stops it
    (SIGXCPU, inside one long big-integer operation) and a fresh judge goes on."""
    attack = _value("1.2", {"sympy": "Pow(Integer(7), Integer(30000000))"})
    verdict = _judged_among_right_answers(attack, caplog, record_cpu=1)
    assert verdict == "1.2: not judged: took too long (more than 1 s of CPU)", verdict
    # two judges started (1.5 s each), the cut record's 1 s, and the right answers
    assert judge_cpu() < 2 * _CPU_ONE_JUDGE + 1


def test_a_notebook_over_its_cpu_limit_judges_nothing_more(
        judge_cpu: Callable[[], float], caplog: pytest.LogCaptureFixture) -> None:
    attack = _value("1.2", {"sympy": "Pow(Integer(7), Integer(30000000))"})
    nb = _notebook([*_right_records(), attack, attack, attack, *_right_records()])
    bounds = _NO_SIZE_CHECKS._replace(record_cpu=1, notebook_cpu=2)
    with caplog.at_level(logging.WARNING):
        decide_notebook(nb, bounds=bounds)
    outcomes = _outcomes(nb)
    assert outcomes[:3] == ["right"] * 3, outcomes
    assert all(o.split(": ", 1)[1].startswith("not judged: took too long") for o in outcomes[3:])
    assert sum("this notebook's 2 s of CPU" in o for o in outcomes) >= 4, outcomes
    assert judge_cpu() < 3 * _CPU_ONE_JUDGE + 2


def test_a_judge_that_does_not_answer_in_time_is_cut() -> None:
    """The wall-clock limits, against a judge held without its CPU limit reached: per record, and
    per notebook (the records after it are not judged either)."""
    attack = _value("1.2", {"sympy": "Pow(Integer(7), Integer(30000000))"})
    nb = _notebook([attack])
    decide_notebook(nb, bounds=_NO_SIZE_CHECKS._replace(record_cpu=600,
                                                   record_wall=1))
    assert _outcomes(nb) == ["1.2: not judged: took too long (more than 1 s)"]
    nb = _notebook([attack, answer_record("1.1", Fraction(18, 5))])
    decide_notebook(nb, bounds=_NO_SIZE_CHECKS._replace(record_cpu=600,
                                                   notebook_wall=1))
    grading._stop_judges()
    assert _outcomes(nb) == [
        f"{exercise}: not judged: took too long (this notebook's 1 s for judging were used up)"
        for exercise in ("1.2", "1.1")]


def test_no_judge_outlives_the_process_that_grades() -> None:
    """An ``nbgrader autograde`` or a formgrader server that judged notebooks stops its judges as
    it exits: each is reaped, its pipes closed (Python's development mode reports a child still
    running, or a pipe never closed, as a ResourceWarning; a make test run showed both)."""
    code = ("from chutes_edu import grading\n"
            "from tests.test_judge_bounds import _notebook, _right_records\n"
            "grading.decide_notebook(_notebook(_right_records()[:1]))\n"
            "print(*(judge.proc.pid for judge in grading._JUDGES.values()))\n")
    assert exits_tidily(code) == []


def test_the_judge_is_named_by_the_size_check_too() -> None:
    """``judge`` itself (used by tests and tools) and ``_decode`` (the sandbox's function calls)
    refuse a record over the bounds before building it."""
    attack = _value("1.2", {"sympy": "Pow(Integer(7), Integer(30000000))"})
    ok, reason = judge(attack)
    assert not ok and reason.startswith("not judged: too large")
    with pytest.raises(ValueError, match="a power of numbers"):
        _decode(attack["value"])


# ---------------------------------------------------------------- legitimate answers pass
_SYMBOL = sympy.Symbol("p", positive=True)
_numbers = st.one_of(
    st.integers(min_value=-10**60, max_value=10**60),
    st.fractions(max_denominator=10**60),
    st.floats(allow_nan=False),
    st.complex_numbers(allow_nan=False, allow_infinity=False, max_magnitude=1e300))
_formulas = st.builds(lambda a, b, n: sympy.Rational(a, b) * _SYMBOL ** n / (1 - _SYMBOL) + a,
                      st.integers(-10**60, 10**60), st.integers(1, 10**60), st.integers(0, 200))
_arrays = st.builds(lambda n, m, seed: np.random.default_rng(seed).random((n, m)),
                    st.integers(1, 101), st.integers(1, 101), st.integers(0, 2**32))
_values = st.recursive(
    st.one_of(_numbers, st.text(max_size=200), st.booleans(), st.none(), _formulas, _arrays),
    lambda inner: st.one_of(st.lists(inner, max_size=8),
                            st.tuples(inner, inner),
                            st.dictionaries(st.text(max_size=8), inner, max_size=5)),
    max_leaves=30)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_values)
def test_legitimate_values_pass_round_trip_and_are_judged_as_before(value: Any) -> None:
    encoded = json.loads(json.dumps(_encode(value)))
    assert _size_problem(encoded, JUDGE_BOUNDS) is None
    back = _decode(encoded)
    if isinstance(value, np.ndarray):
        assert np.array_equal(back, value)
    else:
        assert json.dumps(_encode(back)) == json.dumps(_encode(value))
    for exercise in ("1.1", "1.2"):
        entry = _value(exercise, encoded)
        assert judge(entry) == judge(entry, bounds=_NO_SIZE_CHECKS)


def test_the_bounds_are_far_above_the_worked_solutions() -> None:
    """The numbers the defaults were chosen from (JudgeBounds' comments) still hold."""
    bounds = JudgeBounds()
    assert bounds.record_cpu <= 10 and bounds.notebook_cpu <= 60 < grading._JUDGE_START * 10
    assert bounds.memory <= 2**30


@pytest.mark.slow
def test_every_record_of_the_worked_solutions_passes_and_is_right(
        judge_cpu: Callable[[], float]) -> None:
    """Each set's worked solution is run as the hidden tests run it (its exact fractions of the
    1943 board with 60-digit numerators, its 20,000-entry arrays ...); every record passes the
    size checks, and the judge, within its limits, finds each one right."""
    from tests.test_variants import SOLUTIONS, answers_of

    for solution in SOLUTIONS:
        entries = [entry for entry, _ in answers_of(solution, None).values()]
        for entry in entries:
            assert _size_problem(entry, JUDGE_BOUNDS) is None, (solution.name, entry["exercise"])
        nb = _notebook(entries)
        decide_notebook(nb)
        assert _outcomes(nb) == ["right"] * len(entries), (solution.name, _outcomes(nb))
