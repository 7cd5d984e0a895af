"""The teacher's Jupyter server extension: formgrader that a class cannot turn against its teacher.

nbgrader's formgrader runs inside the teacher's Jupyter server. As shipped (0.9.6) it lets a
submission reach the teacher in two ways that no nbgrader setting closes:

- **its Autograde button runs nbgrader in the server's own process**, in the request handler: while
  a submission is graded (seconds, or minutes for a costly one), the server answers nothing else
  (an outside tester's ``/api/status`` waited 95.6 s), and whatever settings the server read at its
  start decide how the submission runs. Here the button runs ``python -m chutes_teacher.autograde
  <set> --student <id> --force`` in a process of its own, in the course folder, and the handler
  waits for it without holding the server: that process reads the course folder's
  ``nbgrader_config.py`` as it is now, grades in the sandbox, and refuses in words where no
  sandbox can be made (:mod:`chutes_teacher.autograde`), whether or not the folder existed when
  the server started;
- **a submission's HTML and scripts run in the teacher's logged-in browser** on formgrader's pages:
  :func:`chutes_teacher.inert.protect_formgrader` makes them inert (a sanitizer and a
  Content-Security-Policy) and keeps blind grading blind.

And one that misleads the teacher: formgrader shows the score before the late penalty, where the
feedback and every export give it after;
:func:`chutes_teacher.penalised_scores.show_penalised_scores` makes formgrader give the same number.

Turned on by the teacher's server config only (``hub/config.yaml``'s teacher files; ``make teacher``
on a laptop): ``ServerApp.jpserver_extensions = {"chutes_teacher.server_extension": True}``. The
students' servers have no formgrader, and so nothing here to do.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

__all__ = ["AUTOGRADE_LOG_CHARS", "autograde_command"]

AUTOGRADE_LOG_CHARS = 20_000
"""The end of the autograde's output that formgrader's pop-up shows (a flood stays out of it)."""


def autograde_command(course: Path, assignment: str, student: str) -> list[str]:
    """The command formgrader's Autograde button runs for one submission.

    Parameters
    ----------
    course : Path
        The nbgrader course folder.
    assignment : str
        The set.
    student : str
        nbgrader's student id.

    Returns
    -------
    list of str
        ``python -m chutes_teacher.autograde <set> --student <id> --force --jobs 1 --course
        <folder>`` with the server's Python (formgrader's button always grades again).
    """
    return [sys.executable, "-m", "chutes_teacher.autograde", assignment, "--student", student,
            "--force", "--jobs", "1", "--course", str(course)]


async def _autograde_in_a_process(handler: Any, assignment_id: str, student_id: str) -> None:
    """formgrader's ``POST /formgrader/api/submission/<set>/<id>/autograde``, out of the server."""
    course = Path(handler.coursedir.root)
    bin_dir = str(Path(sys.executable).parent)          # nbgrader runs alembic from there
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", os.defpath)}
    process = await asyncio.create_subprocess_exec(
        *autograde_command(course, assignment_id, student_id), cwd=course, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    output, _ = await process.communicate()
    log = output.decode("utf-8", errors="replace")[-AUTOGRADE_LOG_CHARS:]
    answer: dict[str, Any] = {"success": process.returncode == 0, "log": log}
    if process.returncode != 0:
        answer["error"] = log
    handler.write(json.dumps(answer))


def _offload_autograde() -> None:
    """Make formgrader's Autograde handler run the autograde in a process of its own."""
    from nbgrader.server_extensions.formgrader import (  # type: ignore[import-untyped]
        apihandlers,
    )
    from nbgrader.server_extensions.formgrader.base import (  # type: ignore[import-untyped]
        check_notebook_dir,
        check_xsrf,
    )
    from tornado import web

    handler = apihandlers.AutogradeHandler
    if getattr(handler.post, "chutes_teacher", False):
        return

    @web.authenticated
    @check_xsrf
    @check_notebook_dir
    async def post(self: Any, assignment_id: str, student_id: str) -> None:
        await _autograde_in_a_process(self, assignment_id, student_id)

    post.chutes_teacher = True  # type: ignore[attr-defined]
    handler.post = post


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "chutes_teacher.server_extension"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    from chutes_teacher import inert
    from chutes_teacher.penalised_scores import show_penalised_scores

    _offload_autograde()
    inert.protect_formgrader(serverapp)
    show_penalised_scores()
    serverapp.log.info("chutes_teacher: formgrader's autograde runs in a process of its own; "
                       "student content is inert on its pages; scores after the late penalty")
