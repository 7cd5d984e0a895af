"""Write race inputs and the library's answers as JSON, for the JavaScript race maths.

The race explorer computes in the page with ``chutes_edu/widgets/js/maths/race_math.js``; the Python
library stays the reference. This tool writes, for ``tests/js/race_math.test.mjs``:

- ``races``: random boards with no traps (:func:`chutes_edu.random_board` with every overshoot
  rule, dice of 2 to 12 faces, some weighted, some bonus rolls; sizes 2 to 150), and the named
  boards, each with 1 to 6 players on random squares (ties and the final square included), and
  :func:`chutes_edu.win_probabilities` for them;
- ``refusals``: races the library refuses (a board with traps, a square off the board or not a
  whole number, no players), with its exact ``ValueError`` message.

Every board is built from the JSON it is written as (the board editor's
:func:`~chutes_edu.widgets.board_editor.board_to_json` and ``board_from_json``), so the library
sees exactly what the JavaScript test reads.

Usage: ``python tools/race_math_fixtures.py --out PATH [--count N] [--seed S]``
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
    random_board,
    turn_distribution,
    win_probabilities,
)
from chutes_edu.board import board_from_json, board_to_json

MAX_PMF = 20_000
"""Random boards whose pmf from square 0 is longer than this are skipped (only a big file)."""


def _random_fields(rng: np.random.Generator) -> dict[str, Any] | None:
    """A random board with no traps (None if the die and rule alone cannot finish)."""
    size = int(rng.integers(2, 121) if rng.random() < 0.85 else rng.integers(121, 151))
    overshoot = OVERSHOOT_RULES[int(rng.integers(len(OVERSHOOT_RULES)))]
    faces = int(rng.integers(2, 13))
    if overshoot == "bounce":
        faces = min(faces, size)
    die: int | list[float] = faces
    if rng.random() < 0.15:
        weights = rng.integers(0, 6, size=faces).astype(float)
        if rng.random() < 0.5:
            weights += rng.choice([0.25, 0.5, 0.125])
        weights[int(rng.integers(faces))] += 1
        die = [int(w) if w.is_integer() else float(w) for w in weights]
    jumps = int(rng.integers(0, max(1, min(size - 1, size // 4 + 2))))
    try:
        board = random_board(size, jumps, seed=int(rng.integers(2**31)), die=die,
                             overshoot=overshoot)
    except ValueError:
        return None
    fields = board_to_json(board)
    if rng.random() < 0.25:
        faces_with_weight = [r for r, p in enumerate(board.probabilities, start=1) if p > 0]
        if len(faces_with_weight) > 1:
            fields["bonus_roll"] = int(rng.choice(faces_with_weight))
    return fields


def _positions(rng: np.random.Generator, size: int) -> list[int]:
    players = int(rng.integers(1, 7))
    roll = rng.random()
    if roll < 0.2:
        return [0] * players                                   # the usual start: all tied
    if roll < 0.3:
        square = int(rng.integers(0, size + 1))
        return [square] * players
    squares = rng.integers(0, size + 1, size=players).tolist()
    if rng.random() < 0.1:
        squares[int(rng.integers(players))] = size             # one has finished already
    return [int(s) for s in squares]


def _race(fields: dict[str, Any], positions: list[int], label: str) -> dict[str, Any]:
    board = board_from_json(json.loads(json.dumps(fields)))
    wins = win_probabilities(board, positions)
    return {"label": label, "board": fields, "positions": positions,
            "wins": [float(w) for w in wins]}


def _refusals() -> list[dict[str, Any]]:
    base = board_to_json(MILTON_BRADLEY_1943)
    trapped = {**base, "traps": [5, 6, 7, 50]}
    small = {"size": 10, "die": 6, "overshoot": "stay", "bonus_roll": None, "jumps": [[3, 7]],
             "traps": []}
    cases: list[tuple[dict[str, Any], Any]] = [
        (trapped, [0, 0]), ({**small, "traps": [4]}, [0]),
        (base, [0, 101]), (base, [0, -1]), (base, [101]), (small, [0, 3, 11]),
        (small, [0, 1.5]), (small, ["3"]), (small, [True, 0]), (small, [None]), (small, [[1]]),
        (small, []),
    ]
    out = []
    for fields, positions in cases:
        try:
            win_probabilities(board_from_json(fields), positions)
        except ValueError as error:
            out.append({"board": fields, "positions": positions, "message": str(error)})
        else:                                                  # pragma: no cover
            raise AssertionError(f"the library took {positions!r} on {fields!r}")
    return out


def make_fixtures(count: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    races = []
    for name, board in [("1943", MILTON_BRADLEY_1943),
                        ("1943 chute 48", MILTON_BRADLEY_1943_CHUTE_48),
                        ("Noordenbos 2023", NOORDENBOS_2023)]:
        fields = board_to_json(board)
        for positions in ([0, 0], [0, 0, 0], [0] * 6, [0, 50], [99, 0], [80, 1, 28, 100, 4, 0]):
            races.append(_race(fields, positions, name))
    while len(races) < count:
        drawn = _random_fields(rng)
        if drawn is None:
            continue
        board = board_from_json(drawn)
        if len(turn_distribution(board)) > MAX_PMF:
            continue
        for _ in range(2):
            races.append(_race(drawn, _positions(rng, board.size), "random"))
    return {"races": races, "refusals": _refusals()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=340)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args(argv)
    args.out.write_text(json.dumps(make_fixtures(args.count, args.seed)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
