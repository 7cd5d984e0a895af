"""The front end's maths in the page (``chutes_edu/widgets/js/``) against the library: every Node
suite ``tests/js/*.test.mjs``, with the library's answers.

``tools/fixtures/<name>.py`` writes, for the suite ``tests/js/<name>.test.mjs``, hundreds of inputs
with the library's answers (numbers, words, refusals in its exact messages); the suite checks the
JavaScript against them (``tests/js/support.mjs``: one loader, one ``assertClose``), with known
answers and properties besides. Here each suite runs under Node's test runner with the answers in
``CHUTES_FIXTURES``, and must pass with nothing skipped and at least its number of tests (a suite
that lost its tests, or its fixtures, fails). Suites with no fixture tool (the board editor, the
answer boxes, the support module's own) run the same way.

Then what only Python can check: that the fixtures hold enough inputs of every kind, that the line
``boardToPython`` writes builds the same ``Board`` (or raises the same message), and that ``pyRepr``
writes every code point as ``repr`` does.

Each suite's fixtures are written once per worker (in a subprocess, into the session's temporary
folder), and a suite's tests share an xdist group, so the suites spread over the workers.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chutes_edu import Board
from tools.fixtures import NAMES

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "tests" / "js"
NODE = shutil.which("node")
SUITES = sorted(path.name.removesuffix(".test.mjs") for path in JS.glob("*.test.mjs"))
FIXTURES = {path.stem for path in (ROOT / "tools" / "fixtures").glob("*.py")} - {"__init__",
                                                                                  "__main__"}

# The fewest tests each suite must report (the old wrappers' minimums; the board editor, the
# answer boxes and the support module: their counts when this file was written). board_math makes
# a test per fixture board: it must also report more than its valid and invalid boards.
MIN_TESTS = {
    "answers": 20,
    "board_editor": 58,
    "board_explorer_math": 15,
    "board_math": 1,
    "coin_math": 11,
    "design_math": 13,
    "i18n": 9,
    "jump_math": 8,
    "policy_math": 10,
    "race_board": 5,
    "race_math": 7,
    "simulation_math": 7,
    "support": 8,
}
TIMEOUT = {"design_math": 900}         # seconds; 600 for the others

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not on PATH (CI installs it: .ci/run)")


def _env(**extra: str) -> dict[str, str]:
    # One BLAS thread: the library's small solves are faster so on a shared machine.
    return {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
            "MPLBACKEND": "Agg", **extra}


@functools.cache
def _written(name: str, folder: Path) -> Path:
    """Write one suite's fixtures into ``folder`` (once per worker) and return the folder."""
    run = subprocess.run([sys.executable, "-m", "tools.fixtures", name, "--out-dir", str(folder)],
                         cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, f"tools.fixtures {name} failed:\n{run.stderr[-5000:]}"
    return folder


def _folder(name: str, tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """The folder with the fixtures of the suite ``name`` (None for a suite without any)."""
    if name not in FIXTURES:
        return None
    return _written(name, tmp_path_factory.getbasetemp() / "chutes-fixtures")


def _data(name: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = _folder(name, tmp_path_factory)
    assert folder is not None
    data: dict[str, Any] = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    return data


def _node(*args: str, timeout: float = 600, **env: str) -> subprocess.CompletedProcess[str]:
    assert NODE is not None
    return subprocess.run([NODE, *args], cwd=ROOT, env=_env(**env), capture_output=True,
                          text=True, timeout=timeout)


def _failures(tap: str, most: int = 10) -> str:
    """The first failing tests of node's TAP output, each with its YAML block (the error)."""
    blocks: list[list[str]] = []
    inside = False
    for line in tap.splitlines():
        if line.lstrip().startswith("not ok") and len(blocks) < most:
            blocks.append([line])
            inside = True
        elif inside:
            blocks[-1].append(line)
            inside = line.strip() != "..."
    return "\n".join("\n".join(block) for block in blocks) + "\n"


def _suite(name: str) -> Any:
    """A parameter for one suite: its id, and its xdist group (its fixtures are written once)."""
    return pytest.param(name, id=name, marks=pytest.mark.xdist_group(f"js-{name}"))


def test_every_suite_has_a_minimum_and_every_fixture_tool_a_suite() -> None:
    assert set(SUITES) == set(MIN_TESTS), "a suite without a minimum count, or a minimum for none"
    assert set(FIXTURES) <= set(SUITES), "fixtures for a suite that is not there"
    assert set(NAMES) == FIXTURES, "tools/fixtures/__init__.py's NAMES are not its modules"


@pytest.mark.parametrize("suite", [_suite(name) for name in SUITES])
def test_node_suite(suite: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = _folder(suite, tmp_path_factory)
    env = {"CHUTES_FIXTURES": str(folder)} if folder is not None else {}
    run = _node("--test", f"tests/js/{suite}.test.mjs", timeout=TIMEOUT.get(suite, 600), **env)
    if run.returncode != 0:
        pytest.fail(f"node --test tests/js/{suite}.test.mjs failed:\n" + _failures(run.stdout)
                    + run.stdout[-3000:] + run.stderr[-3000:], pytrace=False)
    tests = re.search(r"^# tests (\d+)$", run.stdout, re.MULTILINE)
    assert tests is not None, run.stdout[-3000:]
    assert "# fail 0" in run.stdout and "# skipped 0" in run.stdout, run.stdout[-3000:]
    assert int(tests.group(1)) >= MIN_TESTS[suite], run.stdout[-3000:]
    if suite == "board_math":
        data = _data(suite, tmp_path_factory)
        assert int(tests.group(1)) > len(data["valid"]) + len(data["invalid"]), run.stdout[-3000:]


# What the fixtures hold: enough inputs of every kind (the old wrappers' checks, one a suite).

@pytest.mark.xdist_group("js-board_explorer_math")
def test_board_explorer_math_fixtures_hold_at_least_300_boards_per_function(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    data = _data("board_explorer_math", tmp_path_factory)
    assert len(data["boards"]) >= 300 and len(data["exact"]) >= 300
    assert sum(len(run) for run in data["pictures"]) >= 80 and len(data["refusals"]) >= 8
    assert len(data["heat_maps"]) >= 80
    assert {item["heat"] for item in data["heat_maps"]} == {"turns", "visits", "after"}
    assert {item["board"]["overshoot"] for item in data["boards"]} == {
        "stay", "win", "bounce", "stop_short"}
    assert any(item["board"]["traps"] for item in data["exact"])
    assert any(item["board"]["bonus_roll"] for item in data["exact"])


@pytest.mark.xdist_group("js-coin_math")
def test_coin_math_fixtures_hold_at_least_300_inputs_per_function(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    data = _data("coin_math", tmp_path_factory)
    assert len(data["expected"]) >= 300 and len(data["running"]) >= 300
    assert len(data["refusals"]) >= 10 and len(data["descriptions"]) >= 20


@pytest.mark.xdist_group("js-design_math")
def test_design_math_fixtures_hold_at_least_300_designs_per_goal(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    data = _data("design_math", tmp_path_factory)
    for goal in ("target", "short", "long", "spread", "race"):
        designs = [d for d in data["designs"] if d["goal"]["kind"] == goal]
        assert len(designs) >= 300, goal
        assert {d["method"] for d in designs} == {"greedy", "local search"}, goal
        assert {d["max_jumps"] for d in designs} >= {1, 2, 3}, goal
    assert len(data["refusals"]) >= 10
    edges = data["edges"]
    assert len(edges) >= 41
    assert edges[0]["board"]["jumps"] == [[4, 5]] and edges[0]["added"] == [[1, 5]]
    assert {e["goal"]["mean"] is None for e in edges} == {True, False}


@pytest.mark.xdist_group("js-jump_math")
def test_jump_math_fixtures_hold_at_least_300_boards(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    data = _data("jump_math", tmp_path_factory)
    assert len(data["sweeps"]) >= 300 and len(data["words"]) >= 40 and len(data["refusals"]) >= 5
    sizes = [s["board"]["size"] for s in data["sweeps"]]
    assert min(sizes) == 2 and max(sizes) > 200          # the library's dense and sparse paths
    assert any(s["board"]["traps"] for s in data["sweeps"])
    assert any(s["board"]["bonus_roll"] for s in data["sweeps"])
    assert any(s["min_length"] > 1 for s in data["sweeps"])


@pytest.mark.xdist_group("js-policy_math")
def test_policy_math_fixtures_hold_at_least_300_inputs_per_function(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    data = _data("policy_math", tmp_path_factory)
    for key in ("value", "expected", "optimal", "landings"):
        assert len(data[key]) >= 300, key
    assert any(None in item["turns"] for item in data["expected"])     # policies that never end
    assert len(data["refusals"]) >= 25
    # the tie band's edge, both ways: rivals inside it (the first wins) and outside (the best wins)
    assert len(data["ties"]) >= 200 and {t["best"] for t in data["ties"]} == {0, 1, 2}


@pytest.mark.xdist_group("js-race_board")
def test_race_board_fixtures_hold_boards_with_every_number_of_tokens(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    pictures = _data("race_board", tmp_path_factory)["pictures"]
    assert len(pictures) >= 40
    assert {len(p["tokens"]) for p in pictures} == {0, 1, 2, 3, 4, 5, 6}
    assert any(p["board"]["traps"] for p in pictures)
    assert any(p["name"] for p in pictures) and any(not p["name"] for p in pictures)
    assert all(("player 1 on square" in p["alt"]) == bool(p["tokens"]) for p in pictures)


@pytest.mark.xdist_group("js-race_math")
def test_race_math_fixtures_hold_at_least_300_races(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    data = _data("race_math", tmp_path_factory)
    assert len(data["races"]) >= 300 and len(data["refusals"]) >= 10
    assert {len(r["positions"]) for r in data["races"]} == {1, 2, 3, 4, 5, 6}


@pytest.mark.xdist_group("js-simulation_math")
def test_simulation_math_fixtures_hold_enough_inputs(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    data = _data("simulation_math", tmp_path_factory)
    assert len(data["boards"]) >= 20 and len(data["capped"]) >= 300
    assert len(data["refusals"]) >= 5


# What only Python can check of the board maths (tests/test_board_math_js.py's, moved here).

def test_board_math_module_parses() -> None:
    run = _node("--check", str(ROOT / "chutes_edu" / "widgets" / "js" / "maths" / "board_math.js"))
    assert run.returncode == 0, run.stderr


_EMIT = """
import { readFileSync } from "node:fs";
import { boardToPython } from "./chutes_edu/widgets/js/maths/board_math.js";
const fixtures = JSON.parse(readFileSync(process.env.BOARD_MATH_JSON, "utf8"));
const line = (board) => { try { return boardToPython(board); } catch { return null; } };
console.log(JSON.stringify({
  valid: fixtures.valid.map((item) => line(item.board)),
  invalid: fixtures.invalid.map((item) => line(item.board)),
}));
"""


@pytest.mark.xdist_group("js-board_math")
def test_board_to_python(tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = _folder("board_math", tmp_path_factory)
    assert folder is not None
    run = _node("--input-type=module", "-e", _EMIT,
                BOARD_MATH_JSON=str(folder / "board_math.json"))
    assert run.returncode == 0, run.stderr
    lines = json.loads(run.stdout)
    data = _data("board_math", tmp_path_factory)
    names = {"Board": Board}
    for item, line in zip(data["valid"], lines["valid"], strict=True):
        fields: dict[str, Any] = item["board"]
        assert line is not None, item["label"]
        built = eval(line, names)
        assert built == Board(**fields), (item["label"], line)
        assert repr(built) == item["repr"], (item["label"], line)
    written = 0
    for item, line in zip(data["invalid"], lines["invalid"], strict=True):
        if line is None:                               # fields of the wrong types: no line
            continue
        written += 1
        with pytest.raises(ValueError) as error:
            eval(line, names)
        assert str(error.value) == item["message"], (item["label"], line)
    assert written >= len(data["invalid"]) // 2


_REPR_ALL = """
import { createHash } from "node:crypto";
import { pyRepr } from "./chutes_edu/widgets/js/core/format.js";
const hash = createHash("sha256");
const escaped = [];
for (let code = 0; code < 0x110000; code += 1) {
  const ch = String.fromCodePoint(code);
  const repr = pyRepr(ch);
  hash.update(`${repr}\\n`);
  if (repr.slice(1, -1) !== ch) {
    const last = escaped.at(-1);
    if (last && last[1] === code - 1) last[1] = code;
    else escaped.push([code, code]);
  }
}
console.log(JSON.stringify({ sha256: hash.digest("hex"), escaped }));
"""


def test_repr_of_every_code_point() -> None:
    """``pyRepr`` writes every code point as Python's ``repr`` does (its rules and Python 3.11's
    Unicode 14.0 data, whatever Unicode the JavaScript engine knows: Node 20.20's is 17.0)."""
    run = _node("--input-type=module", "-e", _REPR_ALL)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    reprs = [repr(chr(code)) for code in range(0x110000)]
    digest = hashlib.sha256("".join(f"{r}\n" for r in reprs).encode()).hexdigest()
    escaped: list[list[int]] = []
    for code, text in enumerate(reprs):
        if text[1:-1] != chr(code):
            if escaped and escaped[-1][1] == code - 1:
                escaped[-1][1] = code
            else:
                escaped.append([code, code])
    wrong = [[hex(a), hex(b)] for a, b in out["escaped"] if [a, b] not in escaped]
    missing = [[hex(a), hex(b)] for a, b in escaped if [a, b] not in out["escaped"]]
    assert (wrong, missing) == ([], []), "escaped only by JavaScript / only by Python"
    assert out["sha256"] == digest
