"""The race explorer's board with the seats' tokens, drawn in the page
(``chutes_edu/widgets/js/explorers/race_explorer/board.js``), described in the library's words.

``tools/race_board_fixtures.py`` writes boards (named, hand-made with traps and random, named or
not) with 0 to 6 tokens and :func:`chutes_edu.draw_board`'s description of them, as the race
explorer drew its board in Python; Node's test runner checks the page's description against them
(``tests/js/race_board.test.mjs``).
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
    path = tmp_path_factory.mktemp("race_board") / "fixtures.json"
    subprocess.run([sys.executable, str(ROOT / "tools" / "race_board_fixtures.py"), "--out",
                    str(path)], cwd=ROOT, check=True, capture_output=True, text=True,
                   env={**os.environ, "MPLBACKEND": "Agg"})
    return path


def test_the_fixtures_hold_boards_with_every_number_of_tokens(fixtures: Path) -> None:
    data = json.loads(fixtures.read_text())
    pictures = data["pictures"]
    assert len(pictures) >= 40
    assert {len(p["tokens"]) for p in pictures} == {0, 1, 2, 3, 4, 5, 6}
    assert any(p["board"]["traps"] for p in pictures)
    assert any(p["name"] for p in pictures) and any(not p["name"] for p in pictures)
    assert all(("player 1 on square" in p["alt"]) == bool(p["tokens"]) for p in pictures)


def test_node_suite(fixtures: Path) -> None:
    assert NODE is not None
    run = subprocess.run([NODE, "--test", "tests/js/race_board.test.mjs"], cwd=ROOT,
                         env={**os.environ, "RACE_BOARD_FIXTURES": str(fixtures)},
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-3000:]
    tests = re.search(r"^# tests (\d+)$", run.stdout, re.MULTILINE)
    assert tests is not None and int(tests.group(1)) >= 4, run.stdout[-2000:]
    assert "# fail 0" in run.stdout and "# skipped 0" in run.stdout, run.stdout[-2000:]
