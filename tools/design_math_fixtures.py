"""Write design searches and the library's answers as JSON, for the JavaScript design maths.

The design explorer searches in the page with ``chutes_edu/widgets/js/maths/design_math.js``; the
Python library (:func:`chutes_edu.design.design_board`) stays the reference. This tool writes,
for ``tests/js/design_math.test.mjs``:

- ``designs``: for each goal the explorer offers (a target length, the shortest game, the longest
  game, the smallest spread, the fairest race) at least ``--count`` small random boards
  (:func:`chutes_edu.random_board` with every overshoot rule, dice of 2 to 6 faces, some weighted,
  some bonus rolls, some traps; no traps for a race), each designed by ``"greedy"`` or
  ``"local search"`` with 1 to 3 jumps, and three designs of two jumps on the 1943 board: the
  jumps chosen, every step, the values, the count of designs priced and the summary;
- ``edges``: smallest-spread designs where a candidate's exact mean lies exactly on the band's
  edge (|E T - m| = tol), with the board's own mean (solved exactly) and with a
  mean typed as a decimal, among them the board that split the page and the library on one
  machine (``Board({4: 5}, size=5, die=5, overshoot="stay")``, ``SmallestSpread(None, 0.5)``):
  membership of the band must be decided exactly on both sides;
- ``refusals``: designs the library refuses (a bad goal, ``max_jumps`` or method, a race on a
  board with traps, no candidate), with its exact ``ValueError`` message.

Every board is built from the JSON it is written as (``board_from_json``), so the library sees
exactly what the JavaScript test reads.

Usage: ``python tools/design_math_fixtures.py --out PATH [--count N] [--seed S]``
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import numpy as np

from chutes_edu import MILTON_BRADLEY_1943, OVERSHOOT_RULES, random_board
from chutes_edu.board import board_from_json, board_to_json
from chutes_edu.design import (
    FairestRace,
    Goal,
    LongestGame,
    ShortestGame,
    SmallestSpread,
    TargetLength,
    design_board,
)
from chutes_edu.markov import expected_turns, jump_effects

GOALS = ("target", "short", "long", "spread", "race")
"""The goals of the explorer, as maths/design_math.js names them."""


def _random_fields(rng: np.random.Generator, race: bool) -> dict[str, Any] | None:
    """A small random board (None when the draw cannot be finished)."""
    size = int(rng.integers(4, 17))
    overshoot = OVERSHOOT_RULES[int(rng.integers(len(OVERSHOOT_RULES)))]
    faces = int(rng.integers(2, 7))
    if overshoot == "bounce":
        faces = min(faces, size)
    die: int | list[float] = faces
    if rng.random() < 0.2:
        weights = rng.integers(0, 4, size=faces).astype(float)
        if rng.random() < 0.5:
            weights += rng.choice([0.25, 0.5, 0.1])
        weights[int(rng.integers(faces))] += 1
        die = [int(w) if w.is_integer() else float(w) for w in weights]
    jumps = int(rng.integers(0, max(1, size // 4 + 1)))
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
    if not race and rng.random() < 0.2:
        used = set(board.jumps) | set(board.jumps.values()) | {0, size}
        free = [s for s in range(1, size) if s not in used]
        if free:
            fields["traps"] = [int(rng.choice(free))]
    try:
        board_from_json(json.loads(json.dumps(fields)))
    except ValueError:
        return None
    return fields


def _goal(kind: str, rng: np.random.Generator, mean: float) -> tuple[Goal, dict[str, Any]]:
    """A goal of this kind for a board whose mean is ``mean``: the library's and the page's."""
    if kind == "target":
        turns = float(round(float(rng.uniform(0.5, 2.0)) * mean, 1)) or 1.0
        return TargetLength(turns), {"kind": kind, "turns": turns}
    if kind == "short":
        return ShortestGame(), {"kind": kind}
    if kind == "long":
        return LongestGame(), {"kind": kind}
    if kind == "spread":
        tolerance = float(rng.choice([0.0, 0.5, 1.0, 2.0]))
        if rng.random() < 0.5:
            return SmallestSpread(None, tolerance), {"kind": kind, "mean": None,
                                                     "tolerance": tolerance}
        centre = float(round(mean * float(rng.uniform(0.7, 1.3)), 1)) or 1.0
        return SmallestSpread(centre, tolerance), {"kind": kind, "mean": centre,
                                                   "tolerance": tolerance}
    seats = int(rng.integers(2, 5))
    return FairestRace(seats), {"kind": kind, "seats": seats}


def _design(fields: dict[str, Any], goal: Goal, page_goal: dict[str, Any], method: str,
            max_jumps: int) -> dict[str, Any]:
    board = board_from_json(json.loads(json.dumps(fields)))
    d = design_board(board, goal, max_jumps=max_jumps, method=method)
    return {"board": fields, "goal": page_goal, "method": method, "max_jumps": max_jumps,
            "added": [list(j) for j in d.added], "value": d.value, "mean": d.mean,
            "exact_value": None if d.exact_value is None else float(d.exact_value),
            "exact_mean": float(d.exact_mean), "original_value": d.original_value,
            "original_mean": d.original_mean, "proven_optimal": d.proven_optimal,
            "priced": d.priced,
            "steps": [{"action": s.action, "added": [list(j) for j in s.added],
                       "value": s.value, "mean": s.mean} for s in d.steps],
            "summary": d.summary().split("\n")[:-1]}      # all but "confirmed by ..."


def _decimal(x: Fraction) -> float | None:
    """``x`` as the float whose decimal is exactly ``x`` (at most 4 decimals), else None."""
    scaled = x * 10_000
    if scaled.denominator != 1 or abs(x) > 10_000:
        return None
    value = float(x)
    return value if Fraction(repr(value)) == x else None


AMD_CASE = {"size": 5, "die": 5, "overshoot": "stay", "bonus_roll": None, "jumps": [[4, 5]],
            "traps": []}
"""The board on which the page and the library chose differently on one machine (issue 37):
``SmallestSpread(None, 0.5)`` by local search; the jump 1->5 gives a mean of exactly 2, on the
edge of the band 2.5 ± 0.5."""


def _edges(rng: np.random.Generator, count: int) -> list[dict[str, Any]]:
    """The known case and at least ``count`` smallest-spread designs on random boards in which
    some one-jump candidate's exact mean lies exactly on the band's edge: with the board's own
    mean, when the distance is a short decimal, and with a typed mean, when the candidate's mean
    is one."""
    out = [{**_design(AMD_CASE, SmallestSpread(None, 0.5),
                      {"kind": "spread", "mean": None, "tolerance": 0.5}, "local search", 3),
            "edge": [1, 5]}]
    tries = 0
    while len(out) <= count and tries < 4000:
        tries += 1
        fields = _random_fields(rng, race=False)
        if fields is None or fields["size"] > 10:
            continue
        board = board_from_json(json.loads(json.dumps(fields)))
        own = expected_turns(board, exact=True)[0]
        own_mean = Fraction(int(own.p), int(own.q))
        effects = jump_effects(board)
        for a, b in np.argwhere(np.isfinite(effects)).tolist():
            exact = expected_turns(board.with_jump(int(a), int(b)), exact=True)[0]
            mean = Fraction(int(exact.p), int(exact.q))
            goals: list[tuple[Goal, dict[str, Any]]] = []
            tolerance = _decimal(abs(mean - own_mean))
            if tolerance is not None and tolerance > 0:
                goals.append((SmallestSpread(None, tolerance),
                              {"kind": "spread", "mean": None, "tolerance": tolerance}))
            for tol in (0.5, 1.0):
                centre = _decimal(mean + Fraction(repr(tol)))
                if _decimal(mean) is not None and centre is not None:
                    goals.append((SmallestSpread(centre, tol),
                                  {"kind": "spread", "mean": centre, "tolerance": tol}))
            if not goals:
                continue
            goal, page_goal = goals[int(rng.integers(len(goals)))]
            method = "greedy" if rng.random() < 0.4 else "local search"
            try:
                design = _design(fields, goal, page_goal, method, int(rng.integers(1, 3)))
            except ValueError:
                continue
            out.append({**design, "edge": [int(a), int(b)]})
            break
    return out


def _refusals() -> list[dict[str, Any]]:
    small = {"size": 10, "die": 6, "overshoot": "stay", "bonus_roll": None, "jumps": [[3, 7]],
             "traps": []}
    trapped = {**small, "traps": [5]}
    stuck = {"size": 2, "die": 2, "overshoot": "stay", "bonus_roll": None, "jumps": [[1, 2]],
             "traps": []}
    cases: list[tuple[dict[str, Any], Any, dict[str, Any], Any, Any]] = [
        (small, lambda: TargetLength(-3), {"kind": "target", "turns": -3}, 2, "greedy"),
        (small, lambda: TargetLength(0), {"kind": "target", "turns": 0}, 2, "greedy"),
        (small, lambda: SmallestSpread(-1.5), {"kind": "spread", "mean": -1.5}, 2, "greedy"),
        (small, lambda: SmallestSpread(20, -1), {"kind": "spread", "mean": 20, "tolerance": -1},
         2, "greedy"),
        (small, lambda: FairestRace(7), {"kind": "race", "seats": 7}, 2, "greedy"),
        (small, lambda: FairestRace(1), {"kind": "race", "seats": 1}, 2, "greedy"),
        (small, lambda: FairestRace(cast(int, 2.5)), {"kind": "race", "seats": 2.5}, 2, "greedy"),
        (small, ShortestGame, {"kind": "short"}, 0, "greedy"),
        (small, ShortestGame, {"kind": "short"}, 7, "local search"),
        (small, ShortestGame, {"kind": "short"}, 2.5, "greedy"),
        (small, ShortestGame, {"kind": "short"}, 2, "fast"),
        (trapped, FairestRace, {"kind": "race", "seats": 2}, 2, "greedy"),
        (stuck, ShortestGame, {"kind": "short"}, 1, "greedy"),
    ]
    out = []
    for fields, make, page_goal, max_jumps, method in cases:
        try:
            design_board(board_from_json(fields), make(), max_jumps=max_jumps, method=method)
        except ValueError as error:
            out.append({"board": fields, "goal": page_goal, "max_jumps": max_jumps,
                        "method": method, "message": str(error)})
        else:                                                  # pragma: no cover
            raise AssertionError(f"the library took {page_goal!r}, {max_jumps!r}, {method!r}")
    return out


def make_fixtures(count: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    designs = []
    named = board_to_json(MILTON_BRADLEY_1943)             # the explorer's board, a few quick ones
    quick: list[tuple[Goal, dict[str, Any], str]] = [
        (TargetLength(25), {"kind": "target", "turns": 25}, "greedy"),
        (LongestGame(), {"kind": "long"}, "local search"),
        (SmallestSpread(), {"kind": "spread", "mean": None, "tolerance": 1.0}, "greedy")]
    for goal, page_goal, method in quick:
        designs.append(_design(named, goal, page_goal, method, 2))
    for kind in GOALS:
        made = 0
        while made < count:
            fields = _random_fields(rng, race=kind == "race")
            if fields is None:
                continue
            board = board_from_json(json.loads(json.dumps(fields)))
            goal, page_goal = _goal(kind, rng, float(expected_turns(board)[0]))
            method = "greedy" if rng.random() < 0.4 else "local search"
            try:
                designs.append(_design(fields, goal, page_goal, method,
                                       int(rng.integers(1, 4))))
            except ValueError:
                continue                   # no candidate on this board: a refusal, not a design
            made += 1
    return {"designs": designs, "edges": _edges(rng, max(40, count // 5)),
            "refusals": _refusals()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args(argv)
    args.out.write_text(json.dumps(make_fixtures(args.count, args.seed)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
