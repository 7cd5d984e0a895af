"""Teachers can run nbgrader on solutions/: generate_assignment accepts every notebook and releases
it with the solutions removed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def test_nbgrader_generates_the_assignments(tmp_path: Path) -> None:
    if not (BIN / "nbgrader").exists():
        pytest.skip("nbgrader is not installed (pip install -e '.[test]')")
    source = tmp_path / "source" / "chutes_edu"
    source.mkdir(parents=True)
    solutions = sorted((ROOT / "solutions").glob("*.ipynb"))
    for nb in solutions:
        shutil.copy(nb, source)
    (tmp_path / "nbgrader_config.py").write_text(
        'c = get_config()\nc.CourseDirectory.course_id = "chutes_edu"\n')
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}  # it runs alembic
    done = subprocess.run([str(BIN / "nbgrader"), "generate_assignment", "chutes_edu", "--force"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "ERROR" not in done.stderr, done.stderr[-4000:]
    for nb in solutions:
        released = nbformat.read(tmp_path / "release" / "chutes_edu" / nb.name, as_version=4)
        text = "\n".join(cell.source for cell in released.cells)
        assert "### BEGIN SOLUTION" not in text
        blocks = nb.read_text().count("### BEGIN SOLUTION")
        stubs = text.count("raise NotImplementedError()") + text.count("YOUR ANSWER HERE")
        assert stubs == blocks, nb.name
