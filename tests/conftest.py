"""What several test modules share, built once per test run, and which tests are slow.

``site``: the course website (``book/build.py``) with the worked solutions and launch links on.
tests/test_site.py checks its pages, tests/test_site_wcag.py its reflow, focus and forced colours,
tests/test_pdf.py prints it. It is built once for all pytest-xdist workers (tests/site_build.py: the
first to need it builds it, the others wait for it), or ahead of the tests by `make test`, which
names its folder in ``CHUTES_TEST_SITE``; so the tests that use it run on either worker.

``SLOW``, and every notebook nbval runs: the tests `make test-fast` leaves to `make test` besides
those marked ``slow`` where they are written (browsers, servers, nbgrader rounds). Each costs
seconds of CPU that a change being worked on rarely needs (the notebooks: a Jupyter kernel each,
about half of the fast tier's CPU before; run the one you change with
``pytest lessons/NN_....ipynb``),
and each library module keeps cheaper tests of its own in the fast tier (`make coverage` shows it).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from nbval.plugin import IPyNbFile

from tests.site_build import BINDER_URL, BUILD_LOG, HUB_URL, REPO_URL, built_site

__all__ = ["BINDER_URL", "BUILD_LOG", "HUB_URL", "REPO_URL", "SLOW", "site_pages"]

# Node id patterns (``*`` stands for any text; no other character is special), without xdist's
# "@group", of the tests marked slow here, with what makes each costly; measured in CPU seconds of the tests themselves and the processes they start
# (`pytest -n 0 -p ...` on 2 cores, see CONTRIBUTING.md, "Running the tests"). A pattern that
# matches no test stops a full run: a renamed test would otherwise slip back into the fast tier.
SLOW: dict[str, str] = {
    # the Node suites against the library's answers: hundreds of inputs solved by the library
    # (tools/fixtures), then checked in Node; the suites without fixtures stay fast
    "tests/test_js_parity.py::test_node_suite[*_math]": "fixtures of hundreds of boards",
    "tests/test_js_parity.py::test_node_suite[race_board]": "fixtures of hundreds of races",
    "tests/test_js_parity.py::test_*_fixtures_hold_*": "the same fixtures, counted",
    "tests/test_js_parity.py::test_board_to_python": "the board fixtures, rebuilt in Python",
    "tests/test_js_parity.py::test_repr_of_every_code_point": "every code point through Node",
    # every student's variant of every value exercise against an exact reference
    "tests/test_variant_sweep.py::test_every_variant_is_exactly_right_and_well_separated[*]":
        "the full product of each exercise's numbers",
    "tests/test_variant_sweep.py::test_the_new_float_sweeps_catch_a_tenth_of_the_tolerance[*]":
        "a sweep each, with a skewed check",
    # brute force over every set of three jumps, the long-run sweep of issue 49
    "tests/test_design.py::test_exhaustive_is_the_exact_brute_force_optimum_over_every_set_of_"
    "three[*]": "every set of three jumps, solved exactly",
    "tests/test_long_run_ties.py::*": "boards of 100-400 squares at 50 digits",
    "tests/test_absorption.py::test_tied_classes_of_different_shapes_are_compared_exactly[400-*]":
        "a 400-square board, exactly",
    "tests/test_absorption.py::test_no_crash_on_thousands_of_small_boards_with_dice_of_zeros":
        "thousands of boards",
    "tests/test_big_boards.py::test_simulation_of_a_big_board_is_seeded": "long simulations",
    # a kernel or a clone each: the exercise sets run untouched, the student copy built
    "tests/test_exercises.py::test_untouched_exercise_runs_without_error_and_says_not_yet[*]":
        "a Jupyter kernel per exercise set",
    "tests/test_student_copy.py::test_the_student_tree_holds_no_answers": "a clone and a build",
    "tests/test_student_copy.py::test_the_build_is_reproducible_*": "two clones and builds",
    "tests/test_student_copy.py::test_check_finds_drift_*": "a clone and two builds",
    "tests/test_student_copy.py::test_the_student_checks_are_no_oracle": "a clone and a build",
    "tests/test_student_copy.py::test_an_exercise_set_runs_in_the_student_copy": "and a kernel",
    "tests/test_student_copy.py::test_nbgrader_config_refuses_*": "two Pythons loading nbgrader",
    "tests/test_student_copy.py::test_validate_on_the_student_copy_*": "a clone and a build",
    "tests/test_student_copy.py::test_the_student_copy_installs_*": "a wheel built by pip",
    # the page's answer boxes in Node against every exercise's check, at each tolerance's edge
    "tests/test_answer_specs.py::test_the_page_says_right_exactly_when_the_check_does":
        "every value exercise, in Node",
    # nbgrader's gradebook and exports on a course folder (a database and a release each)
    "tests/test_export_resilience.py::*": "an nbgrader course, autograded, per test",
    "tests/test_gradebook.py::test_an_extension_before_the_submission_holds_*": "autograde",
    "tests/test_gradebook.py::test_canvas_export_*": "a gradebook and an export",
    "tests/test_gradebook.py::test_lms_columns_per_question_*": "a gradebook and an export",
    "tests/test_gradebook.py::test_moodle_export_*": "a gradebook and an export",
    "tests/test_gradebook.py::test_one_late_penalty_in_grades_csv_*": "four exports",
    "tests/test_gradebook.py::test_sets_nobody_handed_in_*": "a gradebook and exports",
    "tests/test_gradebook.py::test_a_strict_export_refuses_*": "a gradebook and exports",
    "tests/test_gradebook.py::test_a_hand_grade_stays_graded_*": "autograde twice",
    "tests/test_gradebook.py::test_the_release_says_when_*": "a release",
    "tests/test_gradebook.py::test_teacher_logs_have_no_empty_lines_*": "the teacher's commands",
    "tests/test_gradebook.py::test_sets_not_due_yet_*": "a gradebook and an export",
    "tests/test_gradebook.py::test_every_format_warns_*": "a gradebook and exports",
    # the judge's and the sandbox's limits, met by spending the CPU they allow
    "tests/test_judge_bounds.py::test_a_notebook_over_its_cpu_limit_*": "its CPU limit, spent",
    "tests/test_judge_bounds.py::test_a_record_over_its_cpu_limit_*": "its CPU limit, spent",
    "tests/test_grading_sandbox.py::test_the_sandbox_dies_with_the_grader": "a sandboxed kernel",
    "tests/test_teacher_lab.py::*": "the teacher's set-up, run twice",
    "tests/test_openblas_kernels.py::test_a_notebook_copy_runs_*": "a notebook, two kernels",
}


_SLOW_RE = {pattern: re.compile(".*".join(map(re.escape, pattern.split("*"))))
            for pattern in SLOW}


def _slow_pattern(nodeid: str) -> str | None:
    """The pattern of ``SLOW`` that names this test (its node id without xdist's group), if any."""
    plain = nodeid.split("@", 1)[0]
    return next((p for p, regex in _SLOW_RE.items() if regex.fullmatch(plain)), None)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the notebooks' cells and the tests ``SLOW`` names (before ``-m "not slow"`` leaves
    them out)."""
    used = set()
    for item in items:
        if isinstance(item.parent, IPyNbFile):
            item.add_marker(pytest.mark.slow)
            continue
        pattern = _slow_pattern(item.nodeid)
        if pattern is not None:
            item.add_marker(pytest.mark.slow)
            used.add(pattern)
    if config.args_source is pytest.Config.ArgsSource.TESTPATHS and not config.option.keyword:
        stale = sorted(set(SLOW) - used)
        if stale:
            raise pytest.UsageError("tests/conftest.py's SLOW names no test for "
                                    + ", ".join(stale) + ": renamed? (name it again there)")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The website, worked solutions and launch links included: its folder (``index.html``)."""
    ahead = os.environ.get("CHUTES_TEST_SITE")
    if ahead:
        return built_site(Path(ahead))
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):    # this run's folder, which every worker shares
        base = base.parent
    return built_site(base / "site")


def site_missing() -> str | None:
    """Why the website's browser tests cannot run here (Chromium, Jupyter Book, npm), or None."""
    import importlib.util
    import shutil

    from tests import browser

    why = browser.missing(voila=False)
    if why is not None:
        return why
    if importlib.util.find_spec("jupyter_book") is None:
        return "jupyter-book is not installed (pip install -e '.[test]')"
    book = Path(__file__).resolve().parent.parent / "book"
    if not (book / "node_modules" / "mathjax").exists() and shutil.which("npm") is None:
        return "npm is not installed, and book/node_modules is missing (apt-get install npm)"
    return None


def site_pages(site: Path) -> list[Path]:
    """Every HTML page of a built website (not its assets' folders)."""
    return sorted(p for p in site.rglob("*.html")
                  if not {"_static", "_sources", "_images", "_print"} & set(p.relative_to(site).parts))
