"""What several tests (and the benchmarks) share: the course's files and the Node tools."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE_TOOLS = ROOT / "tests" / "js"


def course_notebooks() -> list[Path]:
    """Every notebook a student opens: the start page, lessons, exercise sets and solutions."""
    return [ROOT / "start_here.ipynb",
            *sorted((ROOT / "lessons").glob("*.ipynb")),
            *sorted((ROOT / "exercises").glob("*.ipynb")),
            *sorted((ROOT / "solutions").glob("*.ipynb"))]


def node_tools() -> tuple[str, Path]:
    """(node, tests/js) with the pinned npm packages of tests/js/package.json installed.

    ``make test`` installs them first (``npm ci``); run alone, a test installs them here.
    """
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None:
        raise RuntimeError("node is not installed (.ci/run installs it: apt-get install nodejs npm)")
    if not (NODE_TOOLS / "node_modules" / ".package-lock.json").exists():
        if npm is None:
            raise RuntimeError("npm is not installed, and tests/js/node_modules is missing")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
                       cwd=NODE_TOOLS, check=True, capture_output=True, timeout=600)
    return node, NODE_TOOLS
