"""The race explorer's maths in the page (``chutes_edu/widgets/js/maths/race_math.js``) against the
library.

``tools/race_math_fixtures.py`` writes at least 300 races (random boards with no traps and the
named boards, 1 to 6 players on random squares) with :func:`chutes_edu.win_probabilities`, and the
library's refusals; Node's test runner checks the JavaScript against them
(``tests/js/race_math.test.mjs``) to 1e-9 relative.
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
    path = tmp_path_factory.mktemp("race_math") / "fixtures.json"
    subprocess.run([sys.executable, str(ROOT / "tools" / "race_math_fixtures.py"), "--out",
                    str(path)], cwd=ROOT, check=True, capture_output=True, text=True,
                   env={**os.environ, "MPLBACKEND": "Agg"})
    return path


def test_the_fixtures_hold_at_least_300_races(fixtures: Path) -> None:
    data = json.loads(fixtures.read_text())
    assert len(data["races"]) >= 300 and len(data["refusals"]) >= 10
    assert {len(r["positions"]) for r in data["races"]} == {1, 2, 3, 4, 5, 6}


def test_node_suite(fixtures: Path) -> None:
    assert NODE is not None
    run = subprocess.run([NODE, "--test", "tests/js/race_math.test.mjs"], cwd=ROOT,
                         env={**os.environ, "RACE_MATH_FIXTURES": str(fixtures)},
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-3000:]
    tests = re.search(r"^# tests (\d+)$", run.stdout, re.MULTILINE)
    assert tests is not None and int(tests.group(1)) >= 7, run.stdout[-2000:]
    assert "# fail 0" in run.stdout and "# skipped 0" in run.stdout, run.stdout[-2000:]
