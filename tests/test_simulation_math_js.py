"""The page's simulation of the game (``chutes_edu/widgets/js/maths/simulation_math.js``) against the
library.

``tools/simulation_math_fixtures.py`` writes boards with their exact expected turns, game lengths
with :func:`chutes_edu.capped_mean`, and the library's refusals of a cap; Node's test runner checks
the JavaScript against them (``tests/js/simulation_math.test.mjs``): the mean of 10^5 games played
in the page within 4 standard errors of the exact answer on every board, the capped mean to 1e-9
on at least 300 samples.
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
    path = tmp_path_factory.mktemp("simulation_math") / "fixtures.json"
    subprocess.run([sys.executable, str(ROOT / "tools" / "simulation_math_fixtures.py"), "--out",
                    str(path)], cwd=ROOT, check=True, capture_output=True, text=True,
                   env={**os.environ, "MPLBACKEND": "Agg"})
    return path


def test_the_fixtures_hold_enough_inputs(fixtures: Path) -> None:
    data = json.loads(fixtures.read_text())
    assert len(data["boards"]) >= 20 and len(data["capped"]) >= 300
    assert len(data["refusals"]) >= 5


def test_node_suite(fixtures: Path) -> None:
    assert NODE is not None
    run = subprocess.run([NODE, "--test", "tests/js/simulation_math.test.mjs"], cwd=ROOT,
                         env={**os.environ, "SIMULATION_MATH_FIXTURES": str(fixtures)},
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-3000:]
    tests = re.search(r"^# tests (\d+)$", run.stdout, re.MULTILINE)
    assert tests is not None and int(tests.group(1)) >= 7, run.stdout[-2000:]
    assert "# fail 0" in run.stdout and "# skipped 0" in run.stdout, run.stdout[-2000:]
