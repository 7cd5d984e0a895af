"""The board explorer's maths in the page (``chutes_edu/widgets/js/maths/board_explorer_math.js``)
against the library.

``tools/board_explorer_math_fixtures.py`` writes hundreds of boards with the library's answers
(the expected visits from the start, where the token is after k turns, the exact expected length,
the game-length picture's numbers and description, the board picture's heat maps and description,
its refusals); Node's test runner checks the
JavaScript against them (``tests/js/board_explorer_math.test.mjs``), with known answers and
properties besides.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not on PATH (CI installs it: .ci/run)")


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("board_explorer_math") / "fixtures.json"
    subprocess.run([sys.executable, str(ROOT / "tools" / "board_explorer_math_fixtures.py"),
                    "--out", str(path)], cwd=ROOT, check=True, capture_output=True, text=True,
                   env={**os.environ, "MPLBACKEND": "Agg"})
    return path


def test_the_fixtures_hold_at_least_300_boards_per_function(fixtures: Path) -> None:
    data = json.loads(fixtures.read_text())
    assert len(data["boards"]) >= 300 and len(data["exact"]) >= 300
    assert sum(len(run) for run in data["pictures"]) >= 80 and len(data["refusals"]) >= 8
    assert len(data["heat_maps"]) >= 80
    assert {item["heat"] for item in data["heat_maps"]} == {"turns", "visits", "after"}
    assert {item["board"]["overshoot"] for item in data["boards"]} == {
        "stay", "win", "bounce", "stop_short"}
    assert any(item["board"]["traps"] for item in data["exact"])
    assert any(item["board"]["bonus_roll"] for item in data["exact"])


def test_node_suite(fixtures: Path) -> None:
    assert NODE is not None
    run = subprocess.run([NODE, "--test", "tests/js/board_explorer_math.test.mjs"], cwd=ROOT,
                         env={**os.environ, "BOARD_EXPLORER_MATH_FIXTURES": str(fixtures)},
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-3000:]
    tests = re.search(r"^# tests (\d+)$", run.stdout, re.MULTILINE)
    assert tests is not None and int(tests.group(1)) >= 15, run.stdout[-2000:]
    assert "# fail 0" in run.stdout and "# skipped 0" in run.stdout, run.stdout[-2000:]
