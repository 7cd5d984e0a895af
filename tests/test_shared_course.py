"""The course folder generated once per run (tests/shared_course.py): generated once for equal
inputs, again for other inputs or after a generation that died half-way, and every caller's copy
its own (what one module writes into its course never reaches another's)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests import shared_course


@pytest.fixture
def generations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """``make_course`` replaced by a stand-in that records where it generated (no nbgrader)."""
    made: list[Path] = []

    def fake_make_course(root: Path, assignment: str, solutions: list[Path]) -> Path:
        made.append(root)
        (root / "release" / assignment).mkdir(parents=True)
        (root / "release" / assignment / "set.ipynb").write_text("released")
        (root / "nbgrader_config.py").write_text("# the course's\n")
        return root

    monkeypatch.setattr(shared_course, "make_course", fake_make_course)
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    return made


def _factory(base: Path) -> Any:
    return SimpleNamespace(getbasetemp=lambda: base)


def _solution(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_equal_inputs_are_generated_once_and_each_caller_gets_its_own_copy(
        tmp_path: Path, generations: list[Path]) -> None:
    runs, solution = _factory(tmp_path / "run"), _solution(tmp_path, "01.ipynb", "solved")
    one = shared_course.released_course(runs, tmp_path / "one", "set1", [solution])
    two = shared_course.released_course(runs, tmp_path / "two", "set1", [solution],
                                        config="c.Limit = 1\n")
    assert len(generations) == 1
    assert (one / "release" / "set1" / "set.ipynb").read_text() == "released"
    assert (two / "release" / "set1" / "set.ipynb").read_text() == "released"
    assert (one / "nbgrader_config.py").read_text() == "# the course's\n"
    assert (two / "nbgrader_config.py").read_text() == "# the course's\nc.Limit = 1\n"
    (one / "release" / "set1" / "set.ipynb").write_text("graded by module one")
    (one / "submitted").mkdir()
    assert (two / "release" / "set1" / "set.ipynb").read_text() == "released"
    assert not (generations[0] / "submitted").exists()
    assert (generations[0] / "release" / "set1" / "set.ipynb").read_text() == "released"


def test_other_solutions_or_another_assignment_are_generated_apart(
        tmp_path: Path, generations: list[Path]) -> None:
    runs = _factory(tmp_path / "run")
    solution = _solution(tmp_path, "01.ipynb", "v1")
    shared_course.released_course(runs, tmp_path / "c1", "set1", [solution])
    shared_course.released_course(runs, tmp_path / "c2", "set2", [solution])
    solution.write_text("v2")                                  # the same file, edited
    shared_course.released_course(runs, tmp_path / "c3", "set1", [solution])
    shared_course.released_course(runs, tmp_path / "c4", "set1", [solution])
    assert len(generations) == 3 and len(set(generations)) == 3


def test_a_generation_that_died_half_way_is_made_again(
        tmp_path: Path, generations: list[Path]) -> None:
    runs, solution = _factory(tmp_path / "run"), _solution(tmp_path, "01.ipynb", "solved")
    shared_course.released_course(runs, tmp_path / "c1", "set1", [solution])
    (generations[0].parent / shared_course.READY).unlink()       # as if it had died before
    (generations[0] / "half-made").write_text("")
    again = shared_course.released_course(runs, tmp_path / "c2", "set1", [solution])
    assert len(generations) == 2
    assert not (again / "half-made").exists()
