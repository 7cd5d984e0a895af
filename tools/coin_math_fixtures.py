"""Write inputs and the library's answers as JSON, for the JavaScript coin-flip maths.

The coin-flip explorer computes in the page with ``chutes_edu/widgets/js/maths/coin_math.js`` (and
draws its picture with ``ui/convergence_chart.js``); the Python library stays the reference. This
tool writes, for ``tests/js/coin_math.test.mjs``:

- ``expected``: probabilities ``p`` (uniform on (0, 1], log-uniform down to 1e-6, and 1) with
  :func:`chutes_edu.expected_flips`;
- ``running``: samples (the library's waits for heads, real numbers of several scales, constant
  runs, single values) with :func:`chutes_edu.running_mean`'s mean and half-width at every index
  (an infinite half-width written as null);
- ``refusals``: values of ``p`` the library refuses, with its exact ``ValueError`` message;
- ``descriptions``: waits with the text alternative of the library's picture of them
  (:func:`chutes_edu.plot_convergence` as the explorer drew it, :func:`chutes_edu.description`).

Usage: ``python tools/coin_math_fixtures.py --out PATH [--count N] [--seed S]``
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np

from chutes_edu import (
    expected_flips,
    flips_until_heads,
    plot_convergence,
    running_mean,
)
from chutes_edu.plots import description

REFUSED: list[Any] = [0, -1, -0.5, 1.5, 2, 1.0000001, -1e-300, 3.25, "half", None, True, [0.5]]
"""Values of p the library refuses. A JSON reader gives a whole number back as an integer (0.0 as
0, 1e300 as a 301-digit integer), so the list has none written as a float."""


def _json_half(half: np.ndarray) -> list[float | None]:
    return [float(h) if math.isfinite(h) else None for h in half]


def _sample(rng: np.random.Generator) -> list[float]:
    kind = int(rng.integers(5))
    n = int(rng.integers(1, 400))
    if kind == 0:                                      # the explorer's own kind of samples
        p = float(rng.uniform(0.01, 1.0))
        return [float(v) for v in flips_until_heads(p, n, seed=int(rng.integers(2**31)))]
    if kind == 1:
        return [float(v) for v in rng.normal(rng.uniform(-50, 50), rng.uniform(0.01, 20), n)]
    if kind == 2:
        return [float(v) for v in rng.uniform(0, 1e6, n)]
    if kind == 3:
        return [float(rng.integers(1, 50))] * n
    return [float(rng.integers(1, 10**6))]


def make_fixtures(count: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    ps = [*rng.uniform(0.0, 1.0, count).tolist(), *(10.0 ** rng.uniform(-6, 0, count // 3)),
          1.0, 0.5, 0.01]
    expected = [{"p": float(p), "exact": expected_flips(float(p))} for p in ps if p > 0]
    running = []
    for _ in range(count):
        x = _sample(rng)
        mean, half = running_mean(np.array(x))
        running.append({"x": x, "mean": mean.tolist(), "half": _json_half(half)})
    refusals = []
    for p in REFUSED:
        try:
            expected_flips(p)
        except ValueError as error:
            refusals.append({"p": p, "message": str(error)})
        else:                                           # pragma: no cover - a broken list
            raise AssertionError(f"the library took p = {p!r}")
    descriptions = []
    for _ in range(max(20, count // 15)):
        p = round(float(rng.uniform(0.01, 1.0)), 2)
        n = int(rng.integers(1, 5000))
        flips = flips_until_heads(p, n, seed=int(rng.integers(2**31)))
        ax = plot_convergence(flips, expected_flips(p), unit="flips", what="trials",
                              exact_label="1/p, the first-step answer",
                              title="Waiting for heads", legend_values=False)
        descriptions.append({"p": p, "x": flips.tolist(), "alt": description(ax)})
        plt.close("all")
    return {"expected": expected, "running": running, "refusals": refusals,
            "descriptions": descriptions}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=320)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args(argv)
    data = make_fixtures(args.count, args.seed)
    args.out.write_text(json.dumps(data), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
