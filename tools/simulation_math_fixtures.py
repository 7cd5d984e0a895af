"""Write boards, samples and the library's answers as JSON, for the JavaScript simulation maths.

The simulation explorer is to play its games in the page with
``chutes_edu/widgets/js/maths/simulation_math.js``; the Python library stays the reference. This
tool
writes, for ``tests/js/simulation_math.test.mjs``:

- ``boards``: the named boards and random ones (every overshoot rule, dice of 2 to 12 faces, some
  weighted, some bonus rolls and traps; sizes 2 to 120) with the exact expected turns from square
  0 (:func:`chutes_edu.expected_turns`), which the mean of the page's 10^5 games must meet within
  4 standard errors;
- ``capped``: game lengths (the library's :func:`chutes_edu.simulate`) and caps, with
  :func:`chutes_edu.capped_mean`;
- ``refusals``: caps the library refuses, with its exact ``ValueError`` message.

Usage: ``python tools/simulation_math_fixtures.py --out PATH [--count N] [--seed S]``
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from chutes_edu import (
    MILTON_BRADLEY_1943,
    MILTON_BRADLEY_1943_CHUTE_48,
    NOORDENBOS_2023,
    OVERSHOOT_RULES,
    capped_mean,
    expected_turns,
    random_board,
    simulate,
)
from chutes_edu.board import board_from_json, board_to_json

RANDOM_BOARDS = 24
"""Random boards for the simulation's check (each costs the Node test 10^5 games)."""


def _random_fields(rng: np.random.Generator) -> dict[str, Any] | None:
    """A random board, maybe with a bonus roll and traps (None if it cannot be finished)."""
    size = int(rng.integers(2, 121))
    overshoot = OVERSHOOT_RULES[int(rng.integers(len(OVERSHOOT_RULES)))]
    faces = int(rng.integers(2, 13))
    if overshoot == "bounce":
        faces = min(faces, size)
    die: int | list[float] = faces
    if rng.random() < 0.25:
        weights = rng.integers(0, 6, size=faces).astype(float)
        weights[int(rng.integers(faces))] += 1
        die = [int(w) for w in weights]
    jumps = int(rng.integers(0, max(1, min(size - 1, size // 4 + 2))))
    try:
        board = random_board(size, jumps, seed=int(rng.integers(2**31)), die=die,
                             overshoot=overshoot)
    except ValueError:
        return None
    fields = board_to_json(board)
    if rng.random() < 0.3:
        faces_with_weight = [r for r, p in enumerate(board.probabilities, start=1) if p > 0]
        if len(faces_with_weight) > 1:
            fields["bonus_roll"] = int(rng.choice(faces_with_weight))
    if rng.random() < 0.25 and size > 3:
        free = [s for s in range(1, size) if s not in board.jumps]
        fields["traps"] = sorted(int(v) for v in rng.choice(free, size=min(len(free), 2),
                                                            replace=False))
    try:
        board_from_json(fields)
    except ValueError:
        return None
    return fields


def make_fixtures(count: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    boards = [{"label": board.name, "board": board_to_json(board),
               "exact": float(expected_turns(board)[0])}
              for board in (MILTON_BRADLEY_1943, MILTON_BRADLEY_1943_CHUTE_48, NOORDENBOS_2023)]
    while len(boards) < 3 + RANDOM_BOARDS:
        fields = _random_fields(rng)
        if fields is None:
            continue
        exact = float(expected_turns(board_from_json(fields))[0])
        if exact > 500:                                  # slow to play 10^5 times
            continue
        boards.append({"label": "random", "board": fields, "exact": exact})
    capped = []
    for _ in range(count):
        board = (MILTON_BRADLEY_1943, NOORDENBOS_2023)[int(rng.integers(2))]
        turns = simulate(board, int(rng.integers(1, 400)), seed=int(rng.integers(2**31)))
        cap = int(rng.integers(1, 200))
        capped.append({"turns": turns.tolist(), "cap": cap,
                       "mean": capped_mean(turns, cap)})
    refusals = []
    refused: list[Any] = [0, -3, 1.5, "10", None, True]
    for cap in refused:
        try:
            capped_mean(np.array([3, 4]), cap)
        except ValueError as error:
            refusals.append({"cap": cap, "message": str(error)})
        else:                                            # pragma: no cover
            raise AssertionError(f"the library took cap = {cap!r}")
    return {"boards": boards, "capped": capped, "refusals": refusals}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=320)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args(argv)
    args.out.write_text(json.dumps(make_fixtures(args.count, args.seed)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
