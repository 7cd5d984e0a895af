"""The jump explorer's maths in the page (``chutes_edu/widgets/js/maths/jump_math.js``) against the
library.

``tools/jump_math_fixtures.py`` writes at least 300 boards (the named and hand-made ones, then
random boards of every rule, with traps and bonus rolls, on both of the library's paths) with
:func:`chutes_edu.jump_effects` for a ``min_length`` each, the explorer's words on 100 of them, and
the library's refusals; Node's test runner checks the JavaScript against them
(``tests/js/jump_math.test.mjs``): the same candidates, and every price to 1e-9 relative.
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
    path = tmp_path_factory.mktemp("jump_math") / "fixtures.json"
    subprocess.run([sys.executable, str(ROOT / "tools" / "jump_math_fixtures.py"), "--out",
                    str(path)], cwd=ROOT, check=True, capture_output=True, text=True,
                   env={**os.environ, "MPLBACKEND": "Agg"})
    return path


def test_the_fixtures_hold_at_least_300_boards(fixtures: Path) -> None:
    data = json.loads(fixtures.read_text())
    assert len(data["sweeps"]) >= 300 and len(data["words"]) >= 40 and len(data["refusals"]) >= 5
    sizes = [s["board"]["size"] for s in data["sweeps"]]
    assert min(sizes) == 2 and max(sizes) > 200          # the library's dense and sparse paths
    assert any(s["board"]["traps"] for s in data["sweeps"])
    assert any(s["board"]["bonus_roll"] for s in data["sweeps"])
    assert any(s["min_length"] > 1 for s in data["sweeps"])


def test_node_suite(fixtures: Path) -> None:
    assert NODE is not None
    run = subprocess.run([NODE, "--test", "tests/js/jump_math.test.mjs"], cwd=ROOT,
                         env={**os.environ, "JUMP_MATH_FIXTURES": str(fixtures)},
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-3000:]
    tests = re.search(r"^# tests (\d+)$", run.stdout, re.MULTILINE)
    assert tests is not None and int(tests.group(1)) >= 8, run.stdout[-2000:]
    assert "# fail 0" in run.stdout and "# skipped 0" in run.stdout, run.stdout[-2000:]
