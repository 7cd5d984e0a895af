"""JupyterLab's and Jupyter Server's defaults for the course, written into an environment's prefix.

binder/postBuild runs it for `make lab`, Binder and a hub image alike (the prefix: sys.prefix);
tests/test_hub_grading.py runs it into a folder of its own, to give the test hub's servers the very
settings of the image. Usage: python binder/student_settings.py [PREFIX]

- no "fetch Jupyter news?" prompt on a student's first screen (and no request to the internet);
- explorers saved with their notebook as they were drawn, so that a notebook reopened after a save
  shows them instead of "model not found" (jupyter-widgets' saveState);
- build artefacts (chutes_edu.egg-info from the editable install) hidden from the file browser;
  jupyter_server reads ContentsManager settings from jupyter_server_config.json only (not from
  jupyter_server_config.d/), and the list replaces its defaults, so they are repeated;
- no warnings in the terminal that a student cannot act on: the kernel's messages are encrypted
  (ipykernel 7 warns about plain TCP); Jupyter Server pings each kernel websocket every 30 s
  and closes it when no pong came for ``ws_ping_timeout``, which must be longer than the
  interval: the first ping finds the socket silent for just over one interval, so a timeout
  equal to it closed every kernel connection after 30 s (:data:`WS_PING_TIMEOUT_MS`, 3 intervals,
  the server's own default). Tornado reads the same two numbers as seconds and warns, once, that
  such a timeout is longer than the interval; that line, which nobody can act on, is silenced
  (``tornado.general`` at ERROR);
- nbgrader's student views only: the "Assignments" tab (fetch, validate, submit, fetch feedback)
  stays; the teacher's views (formgrader, create assignment, course list) are turned off, their
  server extensions in jupyter_server_config.json (read after nbgrader's own
  jupyter_server_config.d/nbgrader.json, which turns everything on) and their Lab plugins in
  labconfig/page_config.json, locked so that Lab's plugin manager cannot turn them back on. A
  teacher's server turns them on again with a config folder of higher priority (hub/README.md,
  section 6);
- on the student copy (the ``student`` branch, ``make student``: no answer checks), Validate says
  what it checked: that the notebook runs to the end without an error, not that the answers are
  right. nbgrader's Lab extension has its success message written into its bundle ("Success!
  Your notebook passes all the tests.", with no setting for it), so the installed bundle's text
  is replaced (:func:`validate_message`); a bundle without that text is reported, not changed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

# nbgrader 0.9's server extensions and Lab plugins that only a teacher uses.
# Jupyter Server's kernel websockets: pinged every 30,000 ms, closed after this long without a pong.
WS_PING_INTERVAL_MS = 30_000
WS_PING_TIMEOUT_MS = 3 * WS_PING_INTERVAL_MS

TEACHER_SERVER_EXTENSIONS = ("nbgrader.server_extensions.formgrader",
                             "nbgrader.server_extensions.course_list")
TEACHER_LAB_PLUGINS = ("@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment",
                       "@jupyter/nbgrader:course-list")
# and the ones a student uses: the Assignments tab and its Validate button
STUDENT_SERVER_EXTENSIONS = ("nbgrader.server_extensions.assignment_list",
                             "nbgrader.server_extensions.validate_assignment")


# nbgrader's Lab extension (0.9): the words of its Validate dialog when no cell failed, and what a
# student copy says instead (the bundle is JavaScript: no double quotes or backslashes here).
NBGRADER_SUCCESS = "Success! Your notebook passes all the tests."
STUDENT_COPY_SUCCESS = ("Your notebook runs from top to bottom without an error. Validate does not "
                        "check your answers: your teacher grades them after you submit.")
ROOT = Path(__file__).resolve().parent.parent


def has_answer_checks(root: Path = ROOT) -> bool:
    """Whether this copy of the course has its answer checks (main) or not (the student copy)."""
    return any((root / "chutes_edu" / "checks").glob("lesson*.py"))


def validate_message(prefix: Path, answer_checks: bool) -> str:
    """Make the Validate dialog of the Lab under `prefix` say what Validate checked.

    Returns what was done, in words: on a student copy (no answer checks) nbgrader's "passes all
    the tests" becomes :data:`STUDENT_COPY_SUCCESS`; with answer checks nothing changes.
    """
    static = prefix / "share" / "jupyter" / "labextensions" / "@jupyter" / "nbgrader" / "static"
    bundles = sorted(static.glob("*.js")) if static.is_dir() else []
    if not bundles:
        return "no nbgrader Lab extension here"
    old, new = ((STUDENT_COPY_SUCCESS, NBGRADER_SUCCESS) if answer_checks
                else (NBGRADER_SUCCESS, STUDENT_COPY_SUCCESS))
    changed = done = 0
    for bundle in bundles:
        text = bundle.read_text(encoding="utf-8")
        done += new in text
        if old in text:
            bundle.write_text(text.replace(old, new), encoding="utf-8")
            changed += 1
    if answer_checks and (changed or done):
        # not nbgrader's sentence itself: `make lab` and `make teacher` print this line, and
        # "Success! Your notebook passes all the tests." there read as if something was checked
        return "Validate's message: nbgrader's own (this copy has answer checks)"
    if changed or done:
        return f"Validate's message: {new!r}"
    return (f"warning: nbgrader's Lab extension has no {NBGRADER_SUCCESS!r} (another nbgrader "
            "version?): its Validate message is left as it is")


def merge(path: Path, settings: dict[str, Any]) -> None:
    """Merge `settings` (section -> values) into the JSON file at `path`, creating it if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    current = json.loads(path.read_text()) if path.exists() else {}
    for section, values in settings.items():
        current.setdefault(section, {}).update(values)
    path.write_text(json.dumps(current, indent=2) + "\n")


def write(prefix: Path) -> None:
    """Write the course's settings under `prefix` (share/jupyter/... and etc/jupyter/...)."""
    merge(prefix / "share" / "jupyter" / "lab" / "settings" / "overrides.json", {
        "@jupyterlab/apputils-extension:notification": {"fetchNews": "false",
                                                        "checkForUpdates": False},
        "@jupyter-widgets/jupyterlab-manager:plugin": {"saveState": True},
    })
    etc = prefix / "etc" / "jupyter"
    merge(etc / "jupyter_server_config.json", {
        "ContentsManager": {"hide_globs": ["__pycache__", "*.pyc", "*.pyo", ".DS_Store", "*~",
                                           "*.egg-info", ".ipynb_checkpoints"]},
        "MappingKernelManager": {"transport_encryption": "auto"},
        "ServerApp": {"tornado_settings": {"ws_ping_timeout": WS_PING_TIMEOUT_MS},
                      "logging_config": {"loggers": {"tornado.general": {"level": "ERROR"}}},
                      "jpserver_extensions": {**dict.fromkeys(STUDENT_SERVER_EXTENSIONS, True),
                                              **dict.fromkeys(TEACHER_SERVER_EXTENSIONS, False)}},
    })
    merge(etc / "labconfig" / "page_config.json", {
        "disabledExtensions": dict.fromkeys(TEACHER_LAB_PLUGINS, True),
        "lockedExtensions": dict.fromkeys(TEACHER_LAB_PLUGINS, True),
    })


if __name__ == "__main__":
    where = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(sys.prefix)
    write(where)
    print(validate_message(where, has_answer_checks()))
