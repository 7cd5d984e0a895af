"""Write boards, aims and the library's answers as JSON, for the JavaScript aimed-game maths.

The policy explorer (Lesson 10) computes in the page with
``chutes_edu/widgets/js/maths/policy_math.js``;
the library (:mod:`chutes_edu.control`) stays the reference. This tool draws random boards without
traps (:func:`chutes_edu.random_board`: every overshoot rule, dice of 2 to 12 faces, some weighted,
sizes 3 to 200) and the named boards, each with a random accuracy (sometimes with a zero chance,
sometimes the sliders' ``exact``/``lean`` form) and discount, and writes for
``tests/js/policy_math.test.mjs``:

- ``value``: :func:`~chutes_edu.control.value_iteration`'s values, policy and sweeps;
- ``expected``: :func:`~chutes_edu.control.policy_expected_turns` for a random policy (one
  target per square, or one target for all; ``null`` for an infinite entry), drawn again while
  its expected game is longer than :data:`LONGEST` turns (see there);
- ``optimal``: :func:`~chutes_edu.control.optimal_policy`'s policy, expected turns and rounds;
- ``landings``: :func:`~chutes_edu.control.aim_landings` for a few squares and targets per board;
- ``refusals``: calls the library refuses (traps, a "bounce" board too small, bad accuracies,
  discounts, tolerances and policies, accuracies from which no way of aiming finishes), with its
  exact message.

Every board is built from the JSON it is written as, so the library sees what the test reads.

Usage: ``python tools/policy_math_fixtures.py --out PATH [--count N] [--seed S]``
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

from chutes_edu import (
    AIMING_GAME_2021,
    MILTON_BRADLEY_1943,
    MILTON_BRADLEY_1943_CHUTE_48,
    NOORDENBOS_2023,
    OVERSHOOT_RULES,
    Board,
    random_board,
)
from chutes_edu.board import board_from_json, board_to_json
from chutes_edu.control import (
    aim_landings,
    optimal_policy,
    policy_expected_turns,
    value_iteration,
)

LONGEST = 1e6
"""Policies whose expected game from some square is longer than this many turns are left out:
the condition number of :math:`I - Q^\\pi` is about that length, so the library's own float
answer (and any other) has fewer than 9 correct digits there, and no comparison to 1e-9 means
anything (a random policy on a board of 102 squares once took 1.2e8 turns)."""

DRAWS = 20
"""Random policies drawn per board until one is within :data:`LONGEST`."""


def _well_posed(turns: np.ndarray) -> bool:
    finite = turns[np.isfinite(turns)]
    return bool(finite.size == 0 or finite.max() <= LONGEST)


def _json_numbers(values: np.ndarray) -> list[float | None]:
    return [float(v) if math.isfinite(v) else None for v in values]


def _roundtrip(fields: dict[str, Any]) -> dict[str, Any]:
    return dict(json.loads(json.dumps(fields)))


def _random_board(rng: np.random.Generator) -> Board | None:
    size = int(rng.integers(3, 121) if rng.random() < 0.8 else rng.integers(121, 201))
    overshoot = OVERSHOOT_RULES[int(rng.integers(len(OVERSHOOT_RULES)))]
    faces = int(rng.integers(2, 13))
    if overshoot == "bounce":
        faces = min(faces, size - 1)
    die: int | list[float] = faces
    if rng.random() < 0.12:
        weights = rng.integers(0, 6, size=faces).astype(float)
        weights[int(rng.integers(faces))] += 1
        die = [int(w) for w in weights]
    jumps = int(rng.integers(0, max(1, min(size - 1, size // 4 + 2))))
    try:
        board = random_board(size, jumps, seed=int(rng.integers(2**31)), die=die,
                             overshoot=overshoot)
    except ValueError:
        return None
    return board_from_json(_roundtrip(board_to_json(board)))


def _accuracy(rng: np.random.Generator) -> list[float]:
    kind = rng.random()
    if kind < 0.4:                                    # the sliders' form: exact and lean
        exact = round(float(rng.uniform(0.05, 1.0)) / 0.05) * 0.05
        lean = round(float(rng.uniform(0.0, 1.0)) / 0.05) * 0.05
        miss = 1.0 - exact
        return [miss * (1.0 - lean), exact, miss * lean]
    if kind < 0.5:
        return [0.25, 0.5, 0.25]
    acc = rng.dirichlet([1.0, 2.0, 1.0])
    if kind < 0.6:                                    # one outcome that never happens
        acc[int(rng.integers(3))] = 0.0
        acc /= acc.sum()
    return [float(a) for a in acc]


def _refusals() -> list[dict[str, Any]]:
    """Calls the library refuses, with its message: ``{"call", "board", "args", "message"}``."""
    plain = board_to_json(MILTON_BRADLEY_1943)
    trapped = {**plain, "traps": [5, 7, 8, 40]}
    tiny_bounce = {"size": 5, "die": 6, "overshoot": "bounce", "bonus_roll": None,
                   "jumps": [], "traps": []}
    cases: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
        ("value", trapped, {}),
        ("optimal", trapped, {}),
        ("value", tiny_bounce, {}),
        ("value", {**plain, "size": 1}, {}),
        ("optimal", {**plain, "jumps": [[1, 0], [1, 2]]}, {}),
        ("value", {**plain, "overshoot": "stay"}, {"accuracy": [0.5, 0.5]}),
        ("value", plain, {"accuracy": "half"}),
        ("value", plain, {"accuracy": None}),
        ("value", plain, {"accuracy": [0.5, 0.5, 0.5]}),
        ("value", plain, {"accuracy": [0.1, 0.2, 0.3]}),
        ("value", plain, {"accuracy": [0.5, -0.25, 0.75]}),
        ("value", plain, {"accuracy": [0.5, "x", None]}),
        ("value", plain, {"accuracy": [True, 0, 0]}),
        ("value", plain, {"accuracy": [0.25, 0.5, 0.25, 0]}),
        ("value", plain, {"discount": 0}),
        ("value", plain, {"discount": 1.5}),
        ("value", plain, {"discount": -0.25}),
        ("value", plain, {"discount": "0.9"}),
        ("value", plain, {"reward": None}),
        ("value", plain, {"tol": 0}),
        ("value", plain, {"tol": -0.001}),
        ("value", plain, {"max_iter": 0}),
        ("value", plain, {"max_iter": 3}),
        ("value", plain, {"discount": 1.0, "max_iter": 20}),
        ("optimal", plain, {"accuracy": [0, 0, 1]}),
        ("expected", plain, {"policy": 0}),
        ("expected", plain, {"policy": 7}),
        ("expected", plain, {"policy": [1, 2, 3]}),
        ("expected", plain, {"policy": [2] * 50 + [0, 7, 9] + [2] * 47}),
        ("expected", plain, {"policy": [2] * 99 + [1.5]}),
        ("expected", plain, {"policy": 2, "accuracy": [1, 1, 1]}),
        ("expected", plain, {"policy": None}),
        ("expected", plain, {"policy": "aim"}),
        ("expected", plain, {"policy": True}),
    ]
    out = []
    for call, fields, args in cases:
        fields = _roundtrip(fields)
        try:
            board = board_from_json(fields)
            if call == "value":
                value_iteration(board, **args)
            elif call == "optimal":
                optimal_policy(board, **args)
            else:
                policy_expected_turns(board, **args)
        except (ValueError, RuntimeError) as error:
            out.append({"call": call, "board": fields, "args": args, "message": str(error)})
        else:                                           # pragma: no cover - a broken list
            raise AssertionError(f"the library took {call} {args!r}")
    return out


def make_fixtures(count: int, seed: int) -> dict[str, Any]:
    """``count`` random boards (and the named ones) with the library's answers on each.

    Parameters
    ----------
    count : int
        How many random boards to draw.
    seed : int
        The seed of every random draw: the same seed gives the same file.

    Returns
    -------
    dict
        ``value``, ``expected``, ``optimal``, ``landings`` and ``refusals`` (see the module
        docstring), and ``seed``.
    """
    rng = np.random.default_rng(seed)
    boards: list[Board] = [AIMING_GAME_2021, MILTON_BRADLEY_1943, MILTON_BRADLEY_1943_CHUTE_48,
                           NOORDENBOS_2023]
    boards = [b for b in boards if not b.traps]
    while len(boards) < count + 4:
        board = _random_board(rng)
        if board is not None:
            boards.append(board)
    value: list[dict[str, Any]] = []
    expected: list[dict[str, Any]] = []
    optimal: list[dict[str, Any]] = []
    landings: list[dict[str, Any]] = []
    for board in boards:
        fields = board_to_json(board)
        accuracy = _accuracy(rng)
        discount = float(rng.choice([0.9, 0.5, 0.99, float(rng.uniform(0.1, 1.0))]))
        vi = value_iteration(board, accuracy, discount=discount)
        value.append({"board": fields, "accuracy": accuracy, "discount": discount,
                      "values": vi.values.tolist(), "policy": vi.policy.tolist(),
                      "iterations": vi.iterations})
        for _ in range(DRAWS):
            policy: int | list[int] = (int(rng.integers(1, board.faces + 1)) if rng.random() < 0.2
                                       else rng.integers(1, board.faces + 1, board.size).tolist())
            turns = policy_expected_turns(board, policy, accuracy)
            if _well_posed(turns):
                expected.append({"board": fields, "accuracy": accuracy, "policy": policy,
                                 "turns": _json_numbers(turns)})
                break
        try:
            best = optimal_policy(board, accuracy)
        except ValueError as error:
            optimal.append({"board": fields, "accuracy": accuracy, "message": str(error)})
        else:
            if _well_posed(best.expected_turns):          # (so far, always)
                optimal.append({"board": fields, "accuracy": accuracy,
                                "policy": best.policy.tolist(),
                                "turns": best.expected_turns.tolist(),
                                "iterations": best.iterations})
        for _ in range(3):
            square = int(rng.integers(0, board.size + 1))
            target = int(rng.integers(1, board.faces + 1))
            landings.append({"board": fields, "square": square, "target": target,
                             "landings": list(aim_landings(board, square, target))})
    return {"seed": seed, "value": value, "expected": expected, "optimal": optimal,
            "landings": landings, "refusals": _refusals()}


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
