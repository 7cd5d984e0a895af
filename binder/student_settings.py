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
  (ipykernel 7 warns about plain TCP), and tornado's websocket ping timeout is set to the interval
  it would be clamped to anyway;
- nbgrader's student views only: the "Assignments" tab (fetch, validate, submit, fetch feedback)
  stays; the teacher's views (formgrader, create assignment, course list) are turned off, their
  server extensions in jupyter_server_config.json (read after nbgrader's own
  jupyter_server_config.d/nbgrader.json, which turns everything on) and their Lab plugins in
  labconfig/page_config.json, locked so that Lab's plugin manager cannot turn them back on. A
  teacher's server turns them on again with a config folder of higher priority (hub/README.md,
  section 6).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

# nbgrader 0.9's server extensions and Lab plugins that only a teacher uses.
TEACHER_SERVER_EXTENSIONS = ("nbgrader.server_extensions.formgrader",
                             "nbgrader.server_extensions.course_list")
TEACHER_LAB_PLUGINS = ("@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment",
                       "@jupyter/nbgrader:course-list")
# and the ones a student uses: the Assignments tab and its Validate button
STUDENT_SERVER_EXTENSIONS = ("nbgrader.server_extensions.assignment_list",
                             "nbgrader.server_extensions.validate_assignment")


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
        "ServerApp": {"tornado_settings": {"ws_ping_timeout": 30000},
                      "jpserver_extensions": {**dict.fromkeys(STUDENT_SERVER_EXTENSIONS, True),
                                              **dict.fromkeys(TEACHER_SERVER_EXTENSIONS, False)}},
    })
    merge(etc / "labconfig" / "page_config.json", {
        "disabledExtensions": dict.fromkeys(TEACHER_LAB_PLUGINS, True),
        "lockedExtensions": dict.fromkeys(TEACHER_LAB_PLUGINS, True),
    })


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(sys.prefix))
