"""The exercise generator: stubs, markdown answers, nbgrader metadata, edited notebooks left alone."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import make_exercises as mx  # noqa: E402


def _solution() -> nbformat.NotebookNode:
    code = new_code_cell("from chutes_edu import check\n"
                         "def f(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION\n"
                         "### BEGIN SOLUTION\nanswer = f(21)\n### END SOLUTION")
    code.outputs = [new_output("stream", name="stdout", text="42\n")]
    code.execution_count = 3
    checker = new_code_cell('check("1.1", answer)')
    checker.metadata["tags"] = ["nbval-check-output"]
    prose = new_markdown_cell("Why?\n\n### BEGIN SOLUTION\nBecause the ladder.\n### END SOLUTION")
    secret = new_code_cell("print(answer)")
    secret.metadata["tags"] = ["solution-only"]
    return new_notebook(cells=[code, checker, prose, secret])


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "solutions").mkdir()
    monkeypatch.setattr(mx, "SOLUTIONS", tmp_path / "solutions")
    monkeypatch.setattr(mx, "EXERCISES", tmp_path / "exercises")
    nbformat.write(_solution(), tmp_path / "solutions" / "01_demo.ipynb")
    return tmp_path


def test_solution_blocks_become_stubs() -> None:
    ex = mx.build_exercise(_solution(), "01_demo")
    code = ex.cells[0].source
    assert "    # YOUR CODE HERE\n    raise NotImplementedError()" in code
    assert "return 2 * x" not in code and "answer = f(21)" not in code
    assert ex.cells[0].outputs == [] and ex.cells[0].execution_count is None
    assert ex.cells[1].source == 'check("1.1", answer)'
    assert "tags" not in ex.cells[1].metadata       # nbval's tags are test plumbing
    assert "YOUR ANSWER HERE" in ex.cells[2].source and "ladder" not in ex.cells[2].source
    assert len(ex.cells) == 3                      # the solution-only cell is gone


def test_solution_names_lists_what_a_stub_leaves_undefined() -> None:
    assert mx.solution_names(_solution()) == {"answer"}


def test_unbalanced_markers_are_an_error() -> None:
    with pytest.raises(ValueError, match="without"):
        mx._strip_solutions("### BEGIN SOLUTION\nx = 1", markdown=False)


def test_generate_check_and_leave_edited_work_alone(tree: Path, capsys: pytest.CaptureFixture) -> None:
    target = tree / "exercises" / "01_demo.ipynb"
    assert mx.main(["--check"]) == 1                      # nothing generated yet
    assert mx.main([]) == 0 and target.exists()
    solution = nbformat.read(tree / "solutions" / "01_demo.ipynb", as_version=4)
    assert solution.cells[0].metadata["nbgrader"]["solution"] is True
    assert mx.main(["--check"]) == 0

    edited = nbformat.read(target, as_version=4)          # a student works in the notebook
    edited.cells[0].source += "\nprint('my work')"
    nbformat.write(edited, target)
    student = target.read_text()
    changed = nbformat.read(tree / "solutions" / "01_demo.ipynb", as_version=4)
    changed.cells[2].source = "Why, really?\n\n### BEGIN SOLUTION\nLadders.\n### END SOLUTION"
    nbformat.write(changed, tree / "solutions" / "01_demo.ipynb")
    assert mx.main([]) == 0
    assert "left as it is" in capsys.readouterr().out
    assert target.read_text() == student                  # not overwritten
    assert mx.main(["--check"]) == 1
    assert mx.main(["--force"]) == 0
    assert "Why, really?" in target.read_text()
    assert mx.main(["--check"]) == 0
