"""Write test boards and the library's add-a-jump sweep as JSON, for the jump explorer's maths.

The jump explorer (Lesson 9) computes in the page with ``chutes_edu/widgets/js/maths/jump_math.js``;
the Python library stays the reference. This tool draws boards as ``tools/board_math_fixtures.py``
does (the named boards and its hand-made edge cases, then random boards of every overshoot rule,
weighted dice, bonus rolls and traps, sizes 2 to 400: both the library's dense path, up to
``DENSE_MAX`` squares, and its sparse one) and writes, for ``tests/js/jump_math.test.mjs``:

- ``sweeps``: each board as JSON with a ``min_length`` (mostly 1, some longer, some 0 or
  negative), the board's expected turns from square 0 (``baseline``) and
  :func:`chutes_edu.jump_effects`: ``allowed``, one character per entry ``[a, b]`` in row-major
  order ("1" where the jump is priced, "0" where it is NaN), and the prices: every one on a board
  of up to ``FULL_MAX`` squares, else a random sample of ``SAMPLE`` (index, price) pairs;
- ``words``: boards shown in the explorer with a jump on them: the library's heat-map
  description (:func:`chutes_edu.plot_jump_effects`, with the explorer's title; ``near_tie`` when
  its best or worst jump has a rival within 1e-9 turns, which the page may name, or a change of
  0 up to rounding, whose sign the page may write otherwise), the squares the
  sliders offer, the jump the explorer picks nearest to one asked for, and the explorer's readout,
  announcement and line of skipped squares (``chutes_edu.widgets.jump_explorer``'s words);
- ``refusals``: arguments of ``jump_effects`` that the library refuses, with its message.

Usage: ``python tools/jump_math_fixtures.py --out PATH [--count N] [--seed S]``
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from board_explorer_math_fixtures import _boards

from chutes_edu import MILTON_BRADLEY_1943, expected_turns, jump_effects, plot_jump_effects
from chutes_edu.board import board_from_json, board_to_json
from chutes_edu.plots import description
from chutes_edu.widgets import jump_explorer

FULL_MAX = 60
"""Boards up to this size are written with every price; bigger ones with a sample."""

SAMPLE = 400
"""How many prices of a bigger board are written."""

WORDS = 100
"""How many boards are drawn as the explorer draws them, for its words."""


def _min_length(rng: np.random.Generator, size: int) -> int:
    roll = rng.random()
    if roll < 0.6:
        return 1
    if roll < 0.7:
        return int(rng.choice([0, -3]))
    return int(rng.integers(2, max(3, size // 2 + 2)))


def _sweep(fields: dict[str, Any], min_length: int, rng: np.random.Generator) -> dict[str, Any]:
    board = board_from_json(fields)
    effects = jump_effects(board, min_length).ravel()
    finite = np.isfinite(effects)
    out: dict[str, Any] = {"board": fields, "min_length": min_length,
                           "baseline": float(expected_turns(board)[0]),
                           "allowed": "".join("1" if f else "0" for f in finite.tolist())}
    where = np.flatnonzero(finite)
    if board.size > FULL_MAX and where.size > SAMPLE:
        where = np.sort(rng.choice(where, size=SAMPLE, replace=False))
    out["prices"] = [[int(i), float(effects[i])] for i in where]
    return out


def _words(fields: dict[str, Any], min_length: int, name: str,
           rng: np.random.Generator) -> dict[str, Any] | None:
    """The explorer's words for one board and a jump on it (None if no jump can be added)."""
    board = board_from_json(fields).replace(name=name)
    effects = jump_effects(board, min_length)
    baseline = float(expected_turns(board)[0])
    allowed = np.isfinite(effects)
    sources = [int(a) for a in np.flatnonzero(allowed.any(axis=1))]
    if not sources:
        return None
    asked = [int(rng.integers(0, board.size + 1)), int(rng.integers(0, board.size + 1))]
    a, b = jump_explorer._nearest(allowed, *asked)
    title = jump_explorer._title(board)
    ax = plot_jump_effects(effects, baseline, ax=plt.figure().add_subplot(), title=title)
    alt = description(ax)
    plt.close("all")
    readout, announcement = jump_explorer._words(effects, baseline, a, b)
    # Whether the heat map's best or worst jump has a rival within rounding, or a change of 0 up
    # to rounding (the page's prices differ from the library's in the last bits, so it may name
    # the other jump, or write -0.00 for +0.00).
    change = np.sort((effects - baseline)[allowed])
    near_tie = bool(min(abs(change[0]), abs(change[-1])) < 1e-9) or (
        change.size > 1 and bool(change[1] - change[0] < 1e-9 or change[-1] - change[-2] < 1e-9))
    return {"board": fields, "name": name, "min_length": min_length, "title": title,
            "alt": alt, "near_tie": near_tie, "sources": sources,
            "destinations": [int(d) for d in np.flatnonzero(allowed[a])],
            "asked": asked, "jump": [a, b], "readout": readout, "announcement": announcement,
            "skipped": jump_explorer._skipped(board.size, min_length)}


def _refusals() -> list[dict[str, Any]]:
    board = board_to_json(MILTON_BRADLEY_1943)
    out = []
    for min_length in [2.5, True, "3", None, [1]]:
        try:
            jump_effects(board_from_json(board), min_length)  # type: ignore[arg-type]
        except ValueError as error:
            out.append({"board": board, "min_length": min_length, "message": str(error)})
        else:                                              # pragma: no cover - a broken list
            raise AssertionError(f"the library took min_length={min_length!r}")
    return out


def make_fixtures(count: int, seed: int) -> dict[str, Any]:
    """The fixtures (see the module docstring); the same seed gives the same file."""
    rng = np.random.default_rng(seed)
    boards = _boards(count, rng)
    sweeps = [_sweep(fields, _min_length(rng, int(fields["size"])) if i else 1, rng)
              for i, fields in enumerate(boards)]
    sweeps.append(_sweep(board_to_json(MILTON_BRADLEY_1943), 10, rng))    # Lesson 9's
    words: list[dict[str, Any]] = []
    for fields in [board_to_json(MILTON_BRADLEY_1943), *boards[1:]]:
        if len(words) >= WORDS:
            break
        if int(fields["size"]) > 150:
            continue
        name = str(rng.choice(["", "", "Milton Bradley 1943", "a board 'of mine'"]))
        min_length = 1 if not words else _min_length(rng, int(fields["size"]))
        shown = _words(fields, min_length, name, rng)
        if shown is not None:
            words.append(shown)
    return {"seed": seed, "sweeps": sweeps, "words": words, "refusals": _refusals()}


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
