"""formgrader's scores after the late penalty: the number the feedback and every export give.

nbgrader's formgrader (0.9) shows a submission's score before its late penalty: a late
submission worth 9 of 10 showed "9 / 10" in Manage Submissions while its feedback, ``grades.csv``
and the Canvas and Moodle files said 8.1. A teacher who read one number in formgrader and saw
another in the LMS could not tell which one was right.

:func:`show_penalised_scores` makes formgrader's data (its REST API, ``NbGraderAPI``, which its
pages draw) give the score after the penalty in ``score``, and both numbers beside it, labelled:
``raw_score`` (before) and ``late_submission_penalty``. The penalty is the one every other place
computes (:func:`chutes_teacher.gradebook.submission_penalty`: the course's late rule, on the
score as it is now, hand grades included), with the plugin the server's nbgrader settings give
``AssignLatePenalties``. Nothing is written to the gradebook.

The pages it changes: Manage Submissions (each student's score for a set), Manage Students (a
student's sets and their notebooks) and the gradebook's per-notebook list. The lead's server
extension calls :func:`show_penalised_scores` from its ``_load_jupyter_server_extension``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from chutes_teacher.gradebook import late_penalty, submission_penalty

__all__ = ["show_penalised_scores"]

_MARK = "chutes_teacher_penalised"


def _plugin(api: Any) -> Any:
    """The late-submission plugin of the settings formgrader's request loaded."""
    from nbgrader.preprocessors import AssignLatePenalties  # type: ignore[import-untyped]

    step = AssignLatePenalties(parent=api)
    step.init_plugin()
    return step.plugin_inst


def _penalise_set(api: Any, assignment_id: str, rows: list[dict[str, Any]]) -> None:
    """Set ``score`` (after the penalty), ``raw_score`` and ``late_submission_penalty`` of each
    autograded set-level row of ``assignment_id`` (one per student)."""
    from nbgrader.api import MissingEntry  # type: ignore[import-untyped]

    plugin = None
    with api.gradebook as gb:
        for row in rows:
            row.setdefault("raw_score", row.get("score", 0.0))
            row.setdefault("late_submission_penalty", 0.0)
            if not row.get("autograded"):
                continue
            try:
                sub = gb.find_submission(assignment_id, row["student"])
            except MissingEntry:
                continue
            plugin = plugin or _plugin(api)
            raw = float(sub.score)
            penalty = submission_penalty(plugin, sub)
            row.update(raw_score=raw, late_submission_penalty=penalty,
                       score=max(0.0, raw - penalty))


def _penalise_notebooks(api: Any, rows: list[dict[str, Any]]) -> None:
    """The same for notebook-level rows (one student's notebooks, or one notebook's submissions,
    which blind grading lists without names): each found by its id."""
    from nbgrader.api import MissingEntry

    plugin = None
    with api.gradebook as gb:
        for row in rows:
            row.setdefault("raw_score", row.get("score", 0.0))
            row.setdefault("late_submission_penalty", 0.0)
            if row.get("id") is None:                  # not autograded (or its file is gone)
                continue
            try:
                notebook = gb.find_submission_notebook_by_id(row["id"])
            except MissingEntry:
                continue
            plugin = plugin or _plugin(api)
            raw = float(notebook.score)
            late = float(notebook.assignment.total_seconds_late or 0)
            penalty = late_penalty(plugin, notebook.student.id, raw, late)
            row.update(raw_score=raw, late_submission_penalty=penalty,
                       score=max(0.0, raw - penalty))


def _wrap(method: Callable[..., Any],
          adjust: Callable[[Any, tuple[Any, ...], Any], None]) -> Callable[..., Any]:
    @functools.wraps(method)
    def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = method(self, *args, **kwargs)
        if result:
            adjust(self, args, result)
        return result

    setattr(wrapped, _MARK, True)
    return wrapped


def show_penalised_scores() -> None:
    """Make formgrader's data give every score after the late penalty (once per process).

    Wraps ``NbGraderAPI.get_submissions``, ``get_submission``, ``get_notebook_submissions`` and
    ``get_student_notebook_submissions``: ``score`` is the score after the penalty, and each
    row also has ``raw_score`` and ``late_submission_penalty``. Calling it again changes
    nothing.
    """
    from nbgrader.apps.api import NbGraderAPI  # type: ignore[import-untyped]

    if getattr(NbGraderAPI.get_submissions, _MARK, False):
        return
    NbGraderAPI.get_submissions = _wrap(
        NbGraderAPI.get_submissions,
        lambda api, args, rows: _penalise_set(api, args[0], rows))
    NbGraderAPI.get_submission = _wrap(
        NbGraderAPI.get_submission,
        lambda api, args, row: _penalise_set(api, args[0], [row]))
    NbGraderAPI.get_notebook_submissions = _wrap(
        NbGraderAPI.get_notebook_submissions,
        lambda api, args, rows: _penalise_notebooks(api, rows))
    NbGraderAPI.get_student_notebook_submissions = _wrap(
        NbGraderAPI.get_student_notebook_submissions,
        lambda api, args, rows: _penalise_notebooks(api, rows))


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "chutes_teacher.penalised_scores"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """On its own, as ``chutes_teacher.penalised_scores`` in ``jpserver_extensions`` (the course's
    server extension may call :func:`show_penalised_scores` instead: either is enough)."""
    show_penalised_scores()
    serverapp.log.info("chutes_teacher: formgrader shows scores after the late penalty")
