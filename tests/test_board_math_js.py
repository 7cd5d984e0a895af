"""The JavaScript board maths (``chutes_edu/widgets/js/maths/board_math.js``) against the library.

``tools/board_math_fixtures.py`` writes hundreds of boards with the library's answers (and invalid
boards with its exact messages); Node's test runner checks ``maths/board_math.js`` against them
(``tests/js/board_math.test.mjs``). Here, what only Python can check: that the line
``boardToPython`` writes builds the same ``Board`` (or, for an invalid board, raises the same
message).
"""

from __future__ import annotations

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

ROOT = Path(__file__).resolve().parent.parent
MODULE = ROOT / "chutes_edu" / "widgets" / "js" / "maths/board_math.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not on PATH (CI installs it: .ci/run)")


def _env(**extra: str) -> dict[str, str]:
    # One BLAS thread: the library's small solves are faster so on a shared machine.
    return {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", **extra}


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("board_math") / "fixtures.json"
    subprocess.run([sys.executable, str(ROOT / "tools" / "board_math_fixtures.py"),
                    "--out", str(path), "--count", "250"], cwd=ROOT, env=_env(), check=True,
                   capture_output=True, text=True)
    return path


def _node(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    assert NODE is not None
    return subprocess.run([NODE, *args], cwd=ROOT, env=_env(**env), capture_output=True,
                          text=True, timeout=600)


def test_module_parses() -> None:
    run = _node("--check", str(MODULE))
    assert run.returncode == 0, run.stderr


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


def test_node_suite(fixtures: Path) -> None:
    run = _node("--test", "tests/js/", BOARD_MATH_FIXTURES=str(fixtures))
    if run.returncode != 0:
        pytest.fail("node --test tests/js/ failed:\n" + _failures(run.stdout)
                    + run.stderr[-5000:], pytrace=False)
    data = json.loads(fixtures.read_text())
    tests = re.search(r"^# tests (\d+)$", run.stdout, re.MULTILINE)
    assert tests is not None and "# fail 0" in run.stdout, run.stdout[-3000:]
    assert int(tests.group(1)) > len(data["valid"]) + len(data["invalid"]), run.stdout[-3000:]


_EMIT = """
import { readFileSync } from "node:fs";
import { boardToPython } from "./chutes_edu/widgets/js/maths/board_math.js";
const fixtures = JSON.parse(readFileSync(process.env.BOARD_MATH_FIXTURES, "utf8"));
const line = (board) => { try { return boardToPython(board); } catch { return null; } };
console.log(JSON.stringify({
  valid: fixtures.valid.map((item) => line(item.board)),
  invalid: fixtures.invalid.map((item) => line(item.board)),
}));
"""


def test_board_to_python(fixtures: Path) -> None:
    run = _node("--input-type=module", "-e", _EMIT, BOARD_MATH_FIXTURES=str(fixtures))
    assert run.returncode == 0, run.stderr
    lines = json.loads(run.stdout)
    data = json.loads(fixtures.read_text())
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
