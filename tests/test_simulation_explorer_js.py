"""The simulation explorer's words in the page (``js/explorers/simulation_explorer/simulation_explorer.js`` and
``js/ui/convergence_chart.js``) against the library's, in Node.

For game lengths drawn by the library, the page's description of its picture equals the alt text
of :func:`chutes_edu.plot_convergence` (with and without a cap) word for word, its capped running
mean and the games cut short equal :func:`chutes_edu.capped_mean`'s and numpy's, and its readout
says what the explorer said before it ran in the page.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from chutes_edu import (  # noqa: E402
    MILTON_BRADLEY_1943,
    NOORDENBOS_2023,
    capped_mean,
    expected_turns,
    plot_convergence,
    running_mean,
    simulate,
)
from chutes_edu.plots import description  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "chutes_edu" / "widgets" / "js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not on PATH")

_SCRIPT = """
import { readFileSync } from "node:fs";
import { logIndices, runningMeanAt } from "%(js)s/maths/coin_math.js";
import { describeConvergence } from "%(js)s/ui/convergence_chart.js";
import { cappedMean } from "%(js)s/maths/simulation_math.js";
import { cappedRunning, simulationWords } from "%(js)s/explorers/simulation_explorer/simulation_explorer.js";

const cases = JSON.parse(readFileSync(0, "utf-8"));
const out = cases.map(({ turns: list, exact, cap }) => {
  const turns = Int32Array.from(list);
  const at = logIndices(turns.length);
  const { mean, half } = runningMeanAt(turns, at);
  const last = mean.length - 1;
  const capped = cap ? cappedRunning(turns, at, cap) : null;
  const words = simulationWords({ n: turns.length, mean: mean[last], half: half[last], exact,
    cap, capped: cap ? cappedMean(turns, cap) : NaN, cut: capped ? capped.cut : 0 });
  return {
    alt: describeConvergence({ title: "Monte Carlo convergence", n: turns.length, what: "games",
      unit: "turns", last: mean[last], exact,
      ...(capped ? { cap, cappedLast: capped.mean[last] } : {}) }),
    cappedLast: capped ? capped.mean[last] : null,
    cut: capped ? capped.cut : null,
    readout: words.readout.map((p) => (p === "\\n" ? "<br>" : typeof p === "string" ? p
      : p.bold)).join(""),
    announcement: words.announcement,
  };
});
process.stdout.write(JSON.stringify(out));
"""


def _cases() -> list[dict]:
    cases = []
    for board, n, seed, cap in [(MILTON_BRADLEY_1943, 2000, 0, 0), (MILTON_BRADLEY_1943, 2000, 0, 60),
                                (MILTON_BRADLEY_1943, 2, 4, 30), (MILTON_BRADLEY_1943, 3, 5, 0),
                                (MILTON_BRADLEY_1943, 12_345, 9, 300),
                                (NOORDENBOS_2023, 5000, 1, 25), (NOORDENBOS_2023, 800, 2, 0)]:
        turns = simulate(board, n, seed=seed)
        cases.append({"turns": turns.tolist(), "exact": float(expected_turns(board)[0]),
                      "cap": cap})
    return cases


def _readout(turns: np.ndarray, exact: float, cap: int) -> str:
    """What the explorer's readout said when Python drew it (its words, without the bold)."""
    mean, half = running_mean(turns)
    band = f" ± {half[-1]:.3f}" if np.isfinite(half[-1]) else ""
    text = (f"mean of {turns.size:,} games: {mean[-1]:.4f}{band} turns (95%); "
            f"exact: {exact:.4f} turns")
    if cap:
        capped = capped_mean(turns, cap)
        text += (f"<br>capped at {cap} turns: {capped:.4f} turns, off by {capped - exact:+.4f} "
                 f"turns ({int((turns > cap).sum()):,} games cut short)")
    return text


def test_the_page_says_what_the_library_says() -> None:
    import matplotlib.pyplot as plt

    cases = _cases()
    script = _SCRIPT % {"js": JS.as_posix()}
    run = subprocess.run([str(NODE), "--input-type=module", "-e", script],
                         input=json.dumps(cases), capture_output=True, text=True, timeout=120,
                         check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    answers = json.loads(run.stdout)
    assert len(answers) == len(cases)
    for case, answer in zip(cases, answers, strict=True):
        turns = np.asarray(case["turns"])
        cap = case["cap"]
        ax = plot_convergence(turns, case["exact"], cap=cap or None,
                              title="Monte Carlo convergence", legend_values=False)
        assert answer["alt"] == description(ax.figure), (turns.size, cap)
        plt.close(ax.figure)
        if cap:
            assert answer["cappedLast"] == pytest.approx(capped_mean(turns, cap), rel=1e-12)
            assert answer["cut"] == int((turns > cap).sum())
        assert answer["readout"] == _readout(turns, case["exact"], cap), (turns.size, cap)
        assert answer["announcement"].startswith(f"Mean of {turns.size:,} games ")


_SEED_SCRIPT = """
import { newSeed } from "%(js)s/explorers/simulation_explorer/simulation_explorer.js";
import { MAX_SEED } from "%(js)s/maths/coin_math.js";
const at = (x) => () => x;                 // a source that always gives x
const below1 = 1 - Number.EPSILON / 2;     // the largest number Math.random can give
const out = { max: MAX_SEED, cases: [] };
for (const previous of [0, 1, 7, 2 ** 31, MAX_SEED - 1, MAX_SEED]) {
  for (const r of [0, 1e-12, 0.25, 0.5, 0.999999, below1]) {
    out.cases.push([previous, r, newSeed(previous, at(r))]);
  }
}
// An attack: a source that gives the seed in use every time.
out.stuck = [3, 4, 5].map((p) => newSeed(p, at(p / MAX_SEED)));
out.refused = [];
for (const bad of [-1, MAX_SEED + 1, 0.5, NaN]) {
  try { newSeed(bad, at(0.5)); out.refused.push(null); } catch (e) { out.refused.push(e.message); }
}
// The page's own source, many presses: seeds differ from the one before.
let seed = 0;
out.presses = [];
for (let i = 0; i < 1000; i++) { seed = newSeed(seed); out.presses.push(seed); }
console.log(JSON.stringify(out));
"""


def test_the_run_button_draws_a_new_seed_each_press() -> None:
    """``newSeed`` (the "run" button's): a whole number 0..MAX_SEED, never the seed in use, the
    known ends of its range, and a refusal in words for a seed that is none."""
    script = _SEED_SCRIPT % {"js": JS.as_posix()}
    run = subprocess.run([str(NODE), "--input-type=module", "-e", script],
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout)
    top = out["max"]
    assert top == 2**32 - 1
    for previous, r, seed in out["cases"]:
        assert isinstance(seed, int) and 0 <= seed <= top and seed != previous, (previous, r)
    known = {(p, r): s for p, r, s in out["cases"]}
    assert known[(0, 0)] == 1 and known[(7, 0)] == 0 and known[(top, 0)] == 0
    assert known[(0, 1 - 2**-53)] == top and known[(top, 1 - 2**-53)] == top - 1
    assert all(s != p for p, s in zip((3, 4, 5), out["stuck"], strict=True)), out["stuck"]
    assert all(m and "random seed" in m for m in out["refused"])
    presses = [0, *out["presses"]]
    assert all(a != b for a, b in zip(presses, presses[1:], strict=False))
    assert len(set(out["presses"])) > 990              # not a fixed cycle
