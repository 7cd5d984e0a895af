"""A teacher's nbgrader round on every exercise set, with the repository's nbgrader_config.py:
generate_assignment, then autograde five students in a class where every student has their own
numbers (a course secret): one who hands in the solutions (every autograded point, on every set),
and four on half the sets each (HALF_THE_SETS): one who hands in the untouched release (no
points), one who cheats by redefining ``check``, the grader's entry points (``runpy``, the
recorder in ``sys.modules``) and the library and answering 1 everywhere (no points), one who
answers with objects equal to everything after patching numpy's and math's closeness tests, the
visible test and IPython's tracebacks (no points): the verdict is decided after the run, outside
the kernel; and one who hands in the worked solutions computed with another student's numbers
(less than half of the points of the exercises whose answers are values).
``nbgrader validate`` fails an unfinished notebook and passes a finished one.

The whole round takes a few minutes on two cores; its stages' times are printed (``pytest -s``)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

from tests.shared_course import released_course
from tests.support import nbgrader, released_name

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow
BIN = Path(sys.executable).parent
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
ASSIGNMENT = "chutes_edu"


_released = released_name


sys.path.insert(0, str(ROOT / "tools"))
import make_exercises  # noqa: E402

CHEAT = '''# a student who would rather not do the work
import chutes_edu
import chutes_edu.checks
import chutes_edu.grading
import chutes_edu.markov
from chutes_edu.checks import CheckResult


def check(exercise, answer):
    return CheckResult(exercise, True, f"✔ {exercise} right")


chutes_edu.check = chutes_edu.checks.check = check
chutes_edu.grading.grade = chutes_edu.grading.graded = lambda *args: None
chutes_edu.expected_turns = chutes_edu.markov.expected_turns = lambda *a, **k: [1.0] * 201
chutes_edu.checks._REGISTRY.clear()

# the two lines that earned full marks when the hidden tests decided in the kernel
import runpy
runpy.run_module = lambda *a, **k: {'grade': lambda *a, **k: None}

# and the recorder itself, swapped for one that records nothing
import sys
import types
_fake = types.ModuleType("chutes_edu.grading")
_fake.record = _fake.grade = _fake.graded = lambda *a, **k: None
sys.modules["chutes_edu.grading"] = _fake
'''

# A student who answers every exercise with an object equal to everything and patches every test a
# grader might make, the verdict's display and IPython's tracebacks; the recorder is left to run.
PATCHER = '''# a student who would rather not do the work
import math

import numpy as np

import chutes_edu.checks


class Anything(float):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = float.__hash__


np.isclose = np.allclose = math.isclose = lambda *a, **k: True
np.array_equal = lambda *a, **k: True
chutes_edu.checks.graded = lambda exercise, answer: print(f"✔ {exercise} right")
get_ipython().showtraceback = lambda *a, **k: None
get_ipython()._showtraceback = lambda *a, **k: None
'''


# The class has its own numbers per student (chutes_edu.variants): the teacher grades with the same
# course secret the students' hub gives their kernels.
SECRET = "a class with a variant per student"
FRIEND = "solutions"


# Besides the worked solutions (every set), the four other students share the 12 sets, two to a
# set: the cheat and the copier the even ones, the patcher and the untouched release the odd ones
# (a missing notebook scores 0, so the tests also count the notebooks each had graded). The grader
# and every kind of check (values, functions, formulas, arrays, boards) still meet each of them, at
# half the cost; what they show on each set is also checked on every set without nbgrader:
# tests/test_exercises.py runs each untouched set ("not yet: no answer given" everywhere) and
# tests/test_variants.py judges each set's answers with other students' numbers.
HALF_THE_SETS = {"cheat": 0, "copier": 0, "patcher": 1, "untouched": 1}


def _copier(solution: nbformat.NotebookNode, set_number: int) -> nbformat.NotebookNode:
    """The worked solutions, computed with the numbers of the student FRIEND instead of one's own:
    what typing a friend's answers gives (nbgrader restores the locked numbers cell itself, so the
    copier re-runs it after it, with the friend's numbers)."""
    nb = nbformat.from_dict(solution)
    at, cell = next((i, c) for i, c in enumerate(nb.cells) if "my_numbers(" in c.source)
    again = "\n".join(line for line in cell.source.splitlines()
                      if not line.startswith(("from ", "import ")))
    nb.cells.insert(at + 1, nbformat.v4.new_code_cell(
        "# my friend's numbers, not mine\n"
        "from chutes_edu.variants import variant\n\n"
        f"friend = variant({FRIEND!r}, {set_number}, secret={SECRET!r})\n"
        "my_numbers = lambda *args, **kwargs: friend\n" + again))
    return nb


def _nbgrader(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return nbgrader(*args, cwd=cwd, env={"CHUTES_COURSE_SECRET": SECRET})


def _cheat(release: nbformat.NotebookNode, patches: str = CHEAT,
           answer: str = "1") -> nbformat.NotebookNode:
    """Answer ``answer`` everywhere (functions return it), after the ``patches`` cell."""
    nb = nbformat.from_dict(release)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.source = re.sub(r"^(\w+) = None\n(\s*)# YOUR CODE HERE", rf"\1 = {answer}",
                             cell.source, flags=re.M)
        cell.source = re.sub(r"^(\s+)# YOUR CODE HERE", rf"\1return {answer}", cell.source,
                             flags=re.M)
    setup = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code")
    nb.cells.insert(setup + 1, nbformat.v4.new_code_cell(patches))
    return nb


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A course folder after generate_assignment and autograde of the five students."""
    if not (BIN / "nbgrader").exists():
        pytest.skip("nbgrader is not installed (pip install -e '.[teacher]')")
    times: dict[str, float] = {}
    start = time.perf_counter()
    root = released_course(tmp_path_factory, tmp_path_factory.mktemp("course"), ASSIGNMENT,
                           SOLUTIONS)
    times["generate_assignment"] = time.perf_counter() - start

    release = root / "release" / ASSIGNMENT
    for student in ("solutions", "untouched", "cheat", "patcher", "copier"):
        folder = root / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        for nb in SOLUTIONS:
            name = _released(nb)
            if student in HALF_THE_SETS and int(nb.name[:2]) % 2 != HALF_THE_SETS[student]:
                continue    # two students to a set (see HALF_THE_SETS)
            if student == "solutions":
                shutil.copy(nb, folder / name)
            elif student == "copier":
                nbformat.write(_copier(nbformat.read(nb, as_version=4), int(nb.name[:2])),
                               folder / name)
            elif student == "untouched":
                shutil.copy(release / name, folder)
            elif student == "cheat":
                nbformat.write(_cheat(nbformat.read(release / name, as_version=4)),
                               folder / name)
            else:
                patched = _cheat(nbformat.read(release / name, as_version=4), PATCHER,
                                 "Anything(1.0)")
                test_cell = next(c for c in patched.cells if 'graded("' in c.source)
                test_cell.source += "\nprint('right')  # an edit of a locked test cell"
                nbformat.write(patched, folder / name)
    start = time.perf_counter()
    done = _nbgrader("autograde", ASSIGNMENT, "--create", "--force", cwd=root)
    assert done.returncode == 0, done.stderr[-4000:]
    (root / "autograde.log").write_text(done.stderr)
    times["autograde (the solutions x 12 sets, 4 students x 6)"] = time.perf_counter() - start
    print("\nnbgrader round: " + ", ".join(f"{k} {v:.0f} s" for k, v in times.items()))
    yield root


def _scores(root: Path, student: str) -> dict[str, tuple[float, float]]:
    """(autograded score, autograded maximum) of each notebook of a student."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        return {nb.name: (nb.code_score, nb.max_code_score)
                for nb in gb.find_submission(ASSIGNMENT, student).notebooks}


def _failures(root: Path, student: str, name: str) -> str:
    """The graded cells that failed in a student's autograded notebook, with their errors."""
    nb = nbformat.read(root / "autograded" / student / ASSIGNMENT / f"{name}.ipynb", as_version=4)
    lines = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
                lines.append(f"{grade_id}: {out['ename']}: {out['evalue']}")
    return "\n".join(lines)


def test_release_is_the_exercises_without_hidden_tests_widgets_or_broken_links(
        course: Path) -> None:
    for solution in SOLUTIONS:
        released = nbformat.read(course / "release" / ASSIGNMENT / _released(solution),
                                 as_version=4)
        exercise = nbformat.read(ROOT / "exercises" / _released(solution), as_version=4)
        assert "widgets" not in released.metadata
        text = "\n".join(cell.source for cell in released.cells)
        assert "### BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text
        assert "Rubric" not in text
        assert not re.search(r"\]\((?!https?:)[^)]*\)", text), "a relative link in a release"
        # the same stubs and cells as exercises/ (which links back to its lesson)
        assert [c.source for c in released.cells] == [
            re.sub(r"\[(lessons/[\w-]+\.ipynb)\]\(\.\./\1\)", r"`\1`", c.source)
            for c in exercise.cells]
        for cell in released.cells:
            if cell.cell_type == "code":
                assert not cell.outputs and "execution" not in cell.metadata


def test_solutions_earn_every_autograded_point(course: Path) -> None:
    scores = _scores(course, "solutions")
    assert sorted(scores) == sorted(Path(_released(p)).stem for p in SOLUTIONS)
    for name, (score, maximum) in scores.items():
        assert maximum >= 7, name
        assert score == maximum, f"{name}: {score} of {maximum}\n" + _failures(
            course, "solutions", name)


def test_a_friends_numbers_earn_less_than_half_of_the_value_points(course: Path) -> None:
    """Each submission is graded against its own student's numbers: the worked solutions computed
    with another student's numbers earn less than half of the points of the exercises whose answers
    are values (a function's code, copied, is as right for anyone: those points are left out)."""
    from nbgrader.api import Gradebook

    from chutes_edu.checks import is_function_exercise

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        graded = {Path(name).stem for name in _graded(course, "copier")}
        notebooks = [nb for nb in gb.find_submission(ASSIGNMENT, "copier").notebooks
                     if nb.name in graded]
        assert len(notebooks) == len(SOLUTIONS) // 2, sorted(graded)
        for nb in notebooks:
            earned = possible = 0.0
            for grade in nb.grades:
                if grade.cell.cell_type != "code":
                    continue
                exercise = grade.name.removeprefix("ex").split("-")[0].replace("_", ".")
                if is_function_exercise(exercise):
                    continue
                earned += grade.score
                possible += grade.max_score
            if possible:
                assert earned < possible / 2, f"{nb.name}: {earned} of {possible}\n" + _failures(
                    course, "copier", nb.name)


def test_untouched_release_earns_nothing(course: Path) -> None:
    scores = _scores(course, "untouched")
    assert {f"{name}.ipynb" for name in scores} >= set(_graded(course, "untouched"))
    for name, (score, _) in scores.items():
        assert score == 0, name


def _graded(root: Path, student: str) -> list[str]:
    return sorted(p.name for p in (root / "autograded" / student / ASSIGNMENT).glob("*.ipynb"))


def test_each_student_but_the_solutions_had_half_the_sets_graded(course: Path) -> None:
    every_set = sorted(_released(nb) for nb in SOLUTIONS)
    assert _graded(course, "solutions") == every_set
    graded = {student: _graded(course, student) for student in HALF_THE_SETS}
    assert all(len(sets) == len(SOLUTIONS) // 2 for sets in graded.values()), graded
    assert sorted(graded["cheat"] + graded["patcher"]) == every_set
    assert sorted(graded["copier"] + graded["untouched"]) == every_set


def test_a_cheat_earns_nothing(course: Path) -> None:
    scores = _scores(course, "cheat")
    assert sum(s for s, _ in scores.values()) == 0, scores


def test_patching_the_kernel_and_answers_equal_to_everything_earn_nothing(course: Path) -> None:
    scores = _scores(course, "patcher")
    assert sum(s for s, _ in scores.values()) == 0, scores
    # the verdict is the grader's, whatever the kernel printed or hid
    failures = _failures(course, "patcher", "01_exercises_waiting_for_heads")
    assert "1.1: not right yet" in failures, failures


def test_every_exercise_is_graded_and_written_answers_have_rubrics() -> None:
    for path in SOLUTIONS:
        nb = nbformat.read(path, as_version=4)
        for ex in make_exercises.exercises_of(nb):
            assert ex.auto >= 1, f"{path.name}: exercise {ex.number} is not autograded"
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            if cell.cell_type == "markdown" and meta.get("grade"):
                rubric = re.search(r"\*\*Rubric \((\d+) points?\)\.\*\*(.*)### END SOLUTION",
                                   cell.source, re.S)
                assert rubric, f"{path.name}: {meta['grade_id']} has no rubric"
                assert int(rubric.group(1)) == meta["points"]
                for mark in range(int(rubric.group(1)) + 1):
                    assert f"{mark}:" in rubric.group(2), (meta["grade_id"], mark)


def test_validate_fails_unfinished_work_and_passes_finished_work(course: Path) -> None:
    """One ``nbgrader validate`` of both (it reports each notebook in turn, in the order named):
    the release first, then the worked solutions."""
    name = "03_exercises_markov_chains.ipynb"
    done = _nbgrader("validate", str(course / "release" / ASSIGNMENT / name),
                     str(course / "submitted" / "solutions" / ASSIGNMENT / name), cwd=course)
    success = "Success! Your notebook passes all the tests."
    unfinished, _, finished = done.stdout.partition(success)
    assert "VALIDATION FAILED" in unfinished, done.stdout[-3000:]
    assert "no answer given" in unfinished
    assert success in done.stdout and "VALIDATION FAILED" not in finished, done.stdout[-3000:]


def test_nbgrader_config_stub_matches_the_generator() -> None:
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(ROOT)).load_config()
    assert config.ClearSolutions.code_stub == {"python": "\n".join(make_exercises.STUB)}


def _load_config(python_setup: str) -> subprocess.CompletedProcess[str]:
    code = (f"{python_setup}\n"
            "from traitlets.config import Config\n"
            f"exec(open({str(ROOT / 'nbgrader_config.py')!r}).read(), {{'get_config': Config}})\n"
            "print('loaded')")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)


def test_grading_stops_before_any_notebook_without_the_course_library() -> None:
    done = _load_config("import sys; sys.modules['chutes_edu'] = None")
    assert done.returncode != 0 and "loaded" not in done.stdout
    assert "the course library chutes_edu cannot be imported" in done.stderr, done.stderr
    done = _load_config("import importlib.metadata as m; m.version = lambda name: '0.0.1'")
    assert done.returncode != 0 and "this Python has chutes_edu 0.0.1" in done.stderr
    assert "loaded" in _load_config("").stdout


def test_the_grading_version_is_the_repositorys() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert f'COURSE_VERSION = "{project}"' in (ROOT / "nbgrader_config.py").read_text()


def test_autograde_warns_about_edited_cells_only(course: Path) -> None:
    """No warning for the test cells whose hidden tests the release left out (nbgrader would warn
    for every one of them); one for each locked cell a student really edited."""
    log = (course / "autograde.log").read_text()
    assert "has changed" not in log, [line for line in log.splitlines() if "has changed" in line][:5]
    edited = [line for line in log.splitlines() if "was edited by the student" in line]
    assert len(edited) == len(_graded(course, "patcher")), edited   # one edit per patched set
