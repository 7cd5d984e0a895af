"""The design explorer's search in the page (``chutes_edu/widgets/js/maths/design_math.js``) against the
library.

``tools/design_math_fixtures.py`` writes at least 300 small random boards for each goal the
explorer offers (a target length, the shortest and the longest game, the smallest spread, the
fairest race), each designed by :func:`chutes_edu.design.design_board` with ``"greedy"`` or
``"local search"``, a few designs on the 1943 board, designs with a candidate exactly on a
smallest-spread band's edge (decided exactly on both sides: issue 37's board among them), and the
library's refusals; Node's test
runner checks the JavaScript against them (``tests/js/design_math.test.mjs``): the same jumps,
the same steps, the values to 1e-9 relative and the same count of designs priced.
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
GOALS = {"target", "short", "long", "spread", "race"}

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not on PATH (CI installs it: .ci/run)")


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("design_math") / "fixtures.json"
    subprocess.run([sys.executable, str(ROOT / "tools" / "design_math_fixtures.py"), "--out",
                    str(path)], cwd=ROOT, check=True, capture_output=True, text=True,
                   env={**os.environ, "MPLBACKEND": "Agg"})
    return path


def test_the_fixtures_hold_at_least_300_designs_per_goal(fixtures: Path) -> None:
    data = json.loads(fixtures.read_text())
    for goal in GOALS:
        designs = [d for d in data["designs"] if d["goal"]["kind"] == goal]
        assert len(designs) >= 300, goal
        assert {d["method"] for d in designs} == {"greedy", "local search"}, goal
        assert {d["max_jumps"] for d in designs} >= {1, 2, 3}, goal
    assert len(data["refusals"]) >= 10
    edges = data["edges"]
    assert len(edges) >= 41
    assert edges[0]["board"]["jumps"] == [[4, 5]] and edges[0]["added"] == [[1, 5]]
    assert {e["goal"]["mean"] is None for e in edges} == {True, False}


def test_node_suite(fixtures: Path) -> None:
    assert NODE is not None
    run = subprocess.run([NODE, "--test", "tests/js/design_math.test.mjs"], cwd=ROOT,
                         env={**os.environ, "DESIGN_MATH_FIXTURES": str(fixtures)},
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-3000:]
    tests = re.search(r"^# tests (\d+)$", run.stdout, re.MULTILINE)
    assert tests is not None and int(tests.group(1)) >= 13, run.stdout[-2000:]
    assert "# fail 0" in run.stdout and "# skipped 0" in run.stdout, run.stdout[-2000:]
