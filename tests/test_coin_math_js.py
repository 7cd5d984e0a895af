"""The coin-flip explorer's maths in the page (``chutes_edu/widgets/js/maths/coin_math.js``) against the
library.

``tools/coin_math_fixtures.py`` writes hundreds of inputs with the library's answers (1/p, the
running mean and its half-width, its refusals of p, its picture's description); Node's test runner
checks the JavaScript against them (``tests/js/coin_math.test.mjs``), and checks the page's own
simulation (same seed, same waits; the mean of 10^5 waits within 4 standard errors of 1/p).
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
    path = tmp_path_factory.mktemp("coin_math") / "fixtures.json"
    subprocess.run([sys.executable, str(ROOT / "tools" / "coin_math_fixtures.py"), "--out",
                    str(path)], cwd=ROOT, check=True, capture_output=True, text=True,
                   env={**os.environ, "MPLBACKEND": "Agg"})
    return path


def test_the_fixtures_hold_at_least_300_inputs_per_function(fixtures: Path) -> None:
    data = json.loads(fixtures.read_text())
    assert len(data["expected"]) >= 300 and len(data["running"]) >= 300
    assert len(data["refusals"]) >= 10 and len(data["descriptions"]) >= 20


def test_node_suite(fixtures: Path) -> None:
    assert NODE is not None
    run = subprocess.run([NODE, "--test", "tests/js/coin_math.test.mjs"], cwd=ROOT,
                         env={**os.environ, "COIN_MATH_FIXTURES": str(fixtures)},
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-3000:]
    tests = re.search(r"^# tests (\d+)$", run.stdout, re.MULTILINE)
    assert tests is not None and int(tests.group(1)) >= 11, run.stdout[-2000:]
    assert "# fail 0" in run.stdout and "# skipped 0" in run.stdout, run.stdout[-2000:]
