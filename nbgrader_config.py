"""nbgrader's configuration for a course built from this repository (see TEACHING.md).

Copy this file into your nbgrader course folder (the folder that holds ``source/``), set
``course_id`` (and, on a shared JupyterHub, the exchange settings your hub administrator gives
you), and copy each exercise set from ``solutions/`` into ``source/<assignment>/``:

    source/01_waiting_for_heads/01_waiting_for_heads.ipynb

``tests/test_nbgrader.py`` runs nbgrader with this very file: generate_assignment, autograde,
validate.
"""

from typing import Any

from nbconvert.preprocessors import Preprocessor
from nbgrader.converters import Autograde, GenerateAssignment  # type: ignore[import-untyped]
from nbgrader.preprocessors import Execute  # type: ignore[import-untyped]  # no stubs

c = get_config()  # type: ignore[name-defined]  # noqa: F821 - nbgrader provides get_config()

# Your course's name: nbgrader's database and the exchange file submissions under it.
c.CourseDirectory.course_id = "chutes_edu"

# The stub that replaces a solution: the same as tools/make_exercises.py writes into exercises/
# (a test keeps them equal). It never raises, so "Run All" on an untouched notebook runs to the
# end: every self-check says "not yet: no answer given" and no cell shows a traceback.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# Released notebooks carry no outputs (nbgrader clears them: the solutions are saved executed) and
# no saved widget state or execution timings either (nbgrader keeps those; this step drops them).
class ClearWidgetState(Preprocessor):
    """Drop the notebook's saved widget state and the cells' execution timings."""

    def preprocess(self, nb: Any, resources: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        nb.metadata.pop("widgets", None)
        for cell in nb.cells:
            cell.metadata.pop("execution", None)
        return nb, resources


c.ClearWidgetState.enabled = True
c.GenerateAssignment.preprocessors = [
    *GenerateAssignment.class_traits()["preprocessors"].default(), ClearWidgetState]

# The hidden tests start one grader process per notebook (about two seconds); some checks simulate
# thousands of games. A cell may take up to two minutes when 30 notebooks are graded on a small
# machine.
c.Execute.timeout = 120


# The grade is decided outside the student's kernel. The hidden tests only record each answer as
# plain data (chutes_edu.grading.record); right after the notebook has run, this step judges the
# records in a fresh Python that never ran the student's code and writes the verdict into each test
# cell: a line when right, an error (no points) when not or when no answer was recorded. Nothing a
# notebook patches (runpy, sys.modules, numpy, IPython's tracebacks ...) reaches the verdict.
class DecideGrades(Preprocessor):
    """Judge the answers the hidden tests recorded, in a fresh process (chutes_edu.grading)."""

    def preprocess(self, nb: Any, resources: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        from chutes_edu.grading import decide_notebook

        return decide_notebook(nb), resources


c.DecideGrades.enabled = True
_steps = list(Autograde.class_traits()["autograde_preprocessors"].default())
c.Autograde.autograde_preprocessors = [
    *_steps[:_steps.index(Execute) + 1], DecideGrades, *_steps[_steps.index(Execute) + 1:]]
