"""The policy explorer's maths in the page (``chutes_edu/widgets/js/maths/policy_math.js``) against the
library (:mod:`chutes_edu.control`).

``tools/policy_math_fixtures.py`` writes hundreds of boards and aims with the library's answers
(value iteration's values, policy and sweeps; expected turns under fixed policies; the
fewest-turns policy; where aimed moves land; the library's refusals); Node's test runner checks the
JavaScript against them (``tests/js/policy_math.test.mjs``), and checks known answers of
LosAlfajores (2021) and that the step-by-step form yields.
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
    path = tmp_path_factory.mktemp("policy_math") / "fixtures.json"
    subprocess.run([sys.executable, str(ROOT / "tools" / "policy_math_fixtures.py"), "--out",
                    str(path)], cwd=ROOT, check=True, capture_output=True, text=True)
    return path


def test_the_fixtures_hold_at_least_300_inputs_per_function(fixtures: Path) -> None:
    data = json.loads(fixtures.read_text())
    for key in ("value", "expected", "optimal", "landings"):
        assert len(data[key]) >= 300, key
    assert any(None in item["turns"] for item in data["expected"])     # policies that never end
    assert len(data["refusals"]) >= 25


def test_node_suite(fixtures: Path) -> None:
    assert NODE is not None
    run = subprocess.run([NODE, "--test", "tests/js/policy_math.test.mjs"], cwd=ROOT,
                         env={**os.environ, "POLICY_MATH_FIXTURES": str(fixtures)},
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-3000:]
    tests = re.search(r"^# tests (\d+)$", run.stdout, re.MULTILINE)
    assert tests is not None and int(tests.group(1)) >= 10, run.stdout[-2000:]
    assert "# fail 0" in run.stdout and "# skipped 0" in run.stdout, run.stdout[-2000:]
