"""The exercise generator: stubs, markdown answers, hidden tests, nbgrader metadata and points,
running is not editing, edited notebooks left alone, --check advice, --force backups."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import make_exercises as mx
import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

ROOT = Path(__file__).resolve().parent.parent


def _solution() -> nbformat.NotebookNode:
    title = new_markdown_cell("# Exercises 1 — Demo\n\nGoes with `lessons/01_demo.ipynb`.")
    header = new_markdown_cell("### Exercise 1.1 — Twice\n\nStore it in `answer_1_1`.")
    code = new_code_cell("from chutes_edu import check\n"
                         "def f(x):\n    \"\"\"Twice x.\"\"\"\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION\n"
                         "answer_1_1 = None\n### BEGIN SOLUTION\nanswer_1_1 = f(21)\n"
                         "### END SOLUTION")
    code.outputs = [new_output("stream", name="stdout", text="42\n")]
    code.execution_count = 3
    code.metadata["execution"] = {"iopub.execute_input": "2026-01-01T00:00:00Z"}
    checker = new_code_cell('check("1.1", answer_1_1)')
    checker.metadata["tags"] = ["nbval-check-output"]
    tests = new_code_cell("# graded\n### BEGIN HIDDEN TESTS\nassert answer_1_1 == 42\n"
                          "### END HIDDEN TESTS")
    tests.metadata["nbgrader"] = {"points": 3}
    prose = new_markdown_cell("Why?\n\n### BEGIN SOLUTION\nBecause the ladder.\n"
                              "**Rubric.** 1: ...\n### END SOLUTION")
    secret = new_code_cell("print(answer_1_1)")
    secret.metadata["tags"] = ["solution-only"]
    nb = new_notebook(cells=[title, header, code, checker, tests, prose, secret])
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    return nb


def _header(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    return next(c for c in nb.cells if c.source.startswith("### Exercise"))


def _code(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    return next(c for c in nb.cells if c.source.startswith("from chutes_edu"))


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "solutions").mkdir()
    monkeypatch.setattr(mx, "SOLUTIONS", tmp_path / "solutions")
    monkeypatch.setattr(mx, "EXERCISES", tmp_path / "exercises")
    monkeypatch.setattr(mx, "NUMBERS", tmp_path / "numbers")
    nbformat.write(_solution(), tmp_path / "solutions" / "01_solutions_demo.ipynb")
    return tmp_path


def _marked() -> nbformat.NotebookNode:
    nb = _solution()
    mx._mark_cells(nb)
    return nb


def test_solution_blocks_become_stubs_that_do_not_raise() -> None:
    ex = mx.build_exercise(_marked(), "01_solutions_demo")
    code = next(c for c in ex.cells if c.source.startswith("from chutes_edu")).source
    assert '    """Twice x."""\n    # YOUR CODE HERE\nanswer_1_1 = None\n# YOUR CODE HERE' in code
    assert "return 2 * x" not in code and "f(21)" not in code and "NotImplementedError" not in code
    namespace: dict[str, Any] = {}
    exec(code.replace("from chutes_edu import check\n", ""), namespace)  # the stubs never raise
    assert namespace["answer_1_1"] is None and namespace["f"](21) is None


def test_a_function_that_would_not_parse_is_an_error() -> None:
    nb = _solution()
    nb.cells[2].source = "def f(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION"
    with pytest.raises(ValueError, match="docstring"):
        mx.build_exercise(nb, "01_solutions_demo")


def test_outputs_tags_hidden_tests_widgets_and_solution_only_cells_are_dropped() -> None:
    ex = mx.build_exercise(_marked(), "01_solutions_demo")
    for cell in ex.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
            assert "execution" not in cell.metadata
        assert "HIDDEN" not in cell.source and "assert answer_1_1 == 42" not in cell.source
        assert "Rubric" not in cell.source and "ladder" not in cell.source
        assert "print(answer_1_1)" not in cell.source
    checker = next(c for c in ex.cells if c.source.startswith("check("))
    assert "tags" not in checker.metadata                # nbval's tags are test plumbing
    assert any(c.source.strip() == "YOUR ANSWER HERE" or "YOUR ANSWER HERE" in c.source
               for c in ex.cells)
    assert "widgets" not in ex.metadata


def test_nbgrader_metadata_and_points() -> None:
    nb = _marked()
    tests = next(c for c in nb.cells if "HIDDEN" in c.source)
    assert tests.metadata.nbgrader == {"grade": True, "solution": False, "locked": True,
                                       "task": False, "schema_version": 3, "points": 3,
                                       "grade_id": "ex1_1-tests"}
    prose = next(c for c in nb.cells if "Rubric" in c.source)
    assert prose.metadata.nbgrader["grade"] and prose.metadata.nbgrader["points"] == 1
    assert prose.metadata.nbgrader["grade_id"] == "ex1_1-written"
    points = next(c for c in nb.cells if c.get("id") == mx.POINTS_CELL_ID)
    assert nb.cells.index(points) == 1
    assert points.source.startswith("**Points: 4** (3 checked automatically")
    assert "1.1: 3 checked + 1 written" in points.source


def test_the_lesson_link_exists_only_in_exercises() -> None:
    nb = _marked()
    assert "](../" not in nb.cells[0].source
    ex = mx.build_exercise(nb, "01_solutions_demo")
    assert "[lessons/01_demo.ipynb](../lessons/01_demo.ipynb)" in ex.cells[0].source


def test_solution_names_lists_what_a_stub_leaves_unset() -> None:
    assert mx.solution_names(_solution()) == {"answer_1_1"}


def test_unbalanced_markers_are_an_error() -> None:
    with pytest.raises(ValueError, match="without"):
        mx._strip_blocks("### BEGIN SOLUTION\nx = 1", markdown=False)
    with pytest.raises(ValueError, match="without"):
        mx._strip_blocks("### END HIDDEN TESTS", markdown=False)


def test_running_a_notebook_is_not_an_edit(tree: Path) -> None:
    target = tree / "exercises" / "01_exercises_demo.ipynb"
    assert mx.main([]) == 0
    nb = nbformat.read(target, as_version=4)
    ran_cell = _code(nb)
    ran_cell.outputs = [new_output("stream", name="stdout", text="✘ 1.1 not yet\n")]
    ran_cell.execution_count = 1
    ran_cell.metadata["execution"] = {"shell.execute_reply": "now"}
    nb.metadata["widgets"] = {"state": {}}
    nb.metadata["language_info"] = {"version": "3.12.1"}
    nbformat.write(nb, target)
    ran = target.read_text()
    assert mx.main(["--check"]) == 0
    assert mx.main([]) == 0 and target.read_text() == ran      # left alone, outputs kept


def test_check_tells_drift_from_edits_and_force_keeps_a_backup(
        tree: Path, capsys: pytest.CaptureFixture) -> None:
    target = tree / "exercises" / "01_exercises_demo.ipynb"
    solution = tree / "solutions" / "01_solutions_demo.ipynb"
    assert mx.main(["--check"]) == 1                          # nothing generated yet
    assert "missing" in capsys.readouterr().out
    assert mx.main([]) == 0 and target.exists()
    assert mx.main(["--check"]) == 0

    changed = nbformat.read(solution, as_version=4)           # real drift: solutions changed
    _header(changed).source += "\n\nMore words."
    nbformat.write(changed, solution)
    capsys.readouterr()
    assert mx.main(["--check"]) == 1
    out = capsys.readouterr().out
    assert "out of date" in out and "run `make exercises`" in out and "edits" not in out
    assert mx.main([]) == 0 and mx.main(["--check"]) == 0

    edited = nbformat.read(target, as_version=4)              # a student works in the notebook
    _code(edited).source += "\nprint('my work')"
    nbformat.write(edited, target)
    student = target.read_text()
    capsys.readouterr()
    assert mx.main(["--check"]) == 1
    out = capsys.readouterr().out
    assert "edits of its own" in out and "did not change" in out and "--force" in out
    assert mx.main([]) == 0 and target.read_text() == student  # not overwritten
    assert "edits of its own" in capsys.readouterr().out

    changed = nbformat.read(solution, as_version=4)           # both: edited and out of date
    _header(changed).source += "\n\nEven more words."
    nbformat.write(changed, solution)
    assert mx.main(["--check"]) == 1
    out = capsys.readouterr().out
    assert "edits of its own" in out and "changed since it was generated" in out
    assert mx.main([]) == 0 and target.read_text() == student

    assert mx.main(["--force"]) == 0
    assert "Even more words." in target.read_text()
    backup = target.with_name("01_exercises_demo.ipynb.bak")
    assert backup.read_text() == student
    assert mx.main(["--check"]) == 0
    edited = nbformat.read(target, as_version=4)              # a second forced overwrite
    _code(edited).source += "\nprint('again')"
    nbformat.write(edited, target)
    assert mx.main(["--force"]) == 0
    assert backup.read_text() == student
    assert "again" in target.with_name("01_exercises_demo.ipynb.bak1").read_text()


def test_points_table_lists_every_set(tree: Path) -> None:
    mx.main([])
    table = mx.points_table([tree / "solutions" / "01_solutions_demo.ipynb"])
    assert "| `01_exercises_demo` | 1 | 4 | 3 | 1 |" in table


def test_teaching_guide_shows_the_current_points_table() -> None:
    """TEACHING.md's table is what `make_exercises.py --points` computes from the notebooks."""
    guide = (ROOT / "TEACHING.md").read_text()
    table = mx.points_table(sorted((ROOT / "solutions").glob("*.ipynb")))
    start = guide.index("<!-- points table")
    end = guide.index("<!-- end of points table -->")
    assert guide[start:end].split("\n", 1)[1].strip() == table, (
        "run `make exercises`: it writes the table into TEACHING.md")


def test_make_exercises_writes_the_points_table_into_the_teaching_guide(tree: Path) -> None:
    """No hand paste (issue 51): `make exercises` writes the table between TEACHING.md's markers
    and leaves the rest; `--check` fails while the table there is not the notebooks'."""
    guide = tree / "TEACHING.md"
    before = "# Guide\n\n<!-- points table: generated -->\n"
    after = "<!-- end of points table -->\nrest\n"
    guide.write_text(before + "| an old table |\n" + after)
    assert mx.main(["--check"]) == 1
    assert mx.main([]) == 0
    table = mx.points_table([tree / "solutions" / "01_solutions_demo.ipynb"])
    assert guide.read_text() == before + table + "\n" + after
    assert mx.main(["--check"]) == 0
    nb = nbformat.read(tree / "solutions" / "01_solutions_demo.ipynb", as_version=4)
    next(c for c in nb.cells if "HIDDEN TESTS" in c.source).metadata.nbgrader["points"] = 5
    nbformat.write(nb, tree / "solutions" / "01_solutions_demo.ipynb")
    assert mx.main(["--check"]) == 1
    assert mx.main([]) == 0 and "| `01_exercises_demo` | 1 | 6 | 5 | 1 |" in guide.read_text()
    with pytest.raises(ValueError, match="no lines"):
        mx.with_points_table("no markers", table)


def test_teaching_guide_link_is_what_the_link_maker_prints() -> None:
    from chutes_teacher.hub import nbgitpuller_link

    guide = (ROOT / "TEACHING.md").read_text()
    assert nbgitpuller_link("https://hub.example.edu", "https://github.com/you/fork") in guide


# ---------------------------------------------------------------- a set's numbers follow its solution
SET_3 = ROOT / "solutions" / "03_solutions_markov_chains.ipynb"


def _set_3(change: str, to: str) -> nbformat.NotebookNode:
    nb = nbformat.read(SET_3, as_version=4)
    cells = [c for c in nb.cells if change in c.source]
    assert len(cells) == 1, change
    cells[0].source = cells[0].source.replace(change, to)
    return nb


def test_the_numbers_file_is_what_the_solution_declares() -> None:
    nb = _set_3("die=(6, range(4, 9))", "die=(4, range(4, 9))")
    name, text = mx.numbers_text(nb, SET_3.stem)
    assert name == "set03.json" and text is not None
    import json

    numbers = json.loads(text)["numbers"]
    assert numbers["die"] == {"course": 4, "values": [4, 5, 6, 7, 8]}
    with pytest.raises(ValueError, match="is not among its values"):
        mx.numbers_text(_set_3("die=(6, range(4, 9))", "die=(3, range(4, 9))"), SET_3.stem)


@pytest.mark.slow
def test_a_changed_die_changes_the_expected_answer_and_a_contradiction_is_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Exercise 3.4 with a four-sided die: its worked solution is right by its check. A worked
    solution that ignores the set's die (the 1943 board's six faces) contradicts its check: `make exercises --verify` names 3.4
    and writes nothing."""
    four = tmp_path / "four" / SET_3.name
    wrong = tmp_path / "wrong" / SET_3.name
    for path in (four, wrong):
        path.parent.mkdir()
    nbformat.write(_set_3("die=(6, range(4, 9))", "die=(4, range(4, 9))"), four)
    nb = _set_3("die=(6, range(4, 9))", "die=(4, range(4, 9))")
    cell = next(c for c in nb.cells if "answer_3_4 = np.linalg" in c.source)
    cell.source = cell.source.replace(
        "answer_3_4 = np.linalg.matrix_power(P, n.turns)[0, board.size]",
        "answer_3_4 = np.linalg.matrix_power(transition_matrix(MILTON_BRADLEY_1943), "
        "n.turns)[0, 100]")
    nbformat.write(nb, wrong)
    assert mx.verify_solutions([four]) == []
    found = mx.verify_solutions([wrong])
    assert len(found) == 1 and "exercise 3.4" in found[0], found
    monkeypatch.setattr(mx, "EXERCISES", tmp_path / "exercises")
    monkeypatch.setattr(mx, "NUMBERS", tmp_path / "numbers")
    assert mx.main(["--verify", str(wrong)]) == 1
    assert not (tmp_path / "exercises").exists() and not (tmp_path / "numbers").exists()
