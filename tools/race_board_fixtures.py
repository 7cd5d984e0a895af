"""Write boards with tokens and the library's description of them as JSON, for the race board.

The race explorer draws the board with each seat's token in the page
(``chutes_edu/widgets/js/explorers/race_explorer/board.js``), whose text alternative must be the
library's:
:func:`chutes_edu.draw_board` with ``tokens`` and ``title=board.name or None``, as the explorer
drew it in Python, described by :func:`chutes_edu.plots.description`. This tool writes, for
``tests/js/race_board.test.mjs``, ``pictures``: the named boards, hand-made boards with traps,
and random boards (:func:`tools.race_math_fixtures._random_fields`), each named or not (names
ending in a question mark included), with 0 to 6 tokens on random squares (ties, the start and
the final square included), and the library's description.

Usage: ``python tools/race_board_fixtures.py --out PATH [--count N] [--seed S]``
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

from race_math_fixtures import _positions, _random_fields

from chutes_edu import (
    MILTON_BRADLEY_1943,
    MILTON_BRADLEY_1943_CHUTE_48,
    NOORDENBOS_2023,
    Board,
    draw_board,
)
from chutes_edu.board import board_from_json, board_to_json
from chutes_edu.plots import description

NAMES = ("", "", "my board", "Who wins?", "Lesson 8: a short board")
"""Names given to the random boards ("" for none, as a board the explorer is given unnamed)."""


def _picture(fields: dict[str, Any], name: str, tokens: list[int]) -> dict[str, Any]:
    """The library's description of the race explorer's board picture for these tokens."""
    board = board_from_json(json.loads(json.dumps(fields)))
    board = board.replace(name=name)
    ax = draw_board(board, tokens=tokens, title=board.name or None)
    alt = description(ax)
    plt.close("all")
    return {"board": fields, "name": name, "tokens": tokens, "alt": alt}


def make_fixtures(count: int, seed: int) -> dict[str, Any]:
    """The named and hand-made boards, then random ones, to ``count`` pictures in all."""
    rng = np.random.default_rng(seed)
    pictures = []
    for board in (MILTON_BRADLEY_1943, MILTON_BRADLEY_1943_CHUTE_48, NOORDENBOS_2023):
        fields = board_to_json(board)
        for tokens in ([0, 0], [0] * 6, [0, 50], [99, 0, 100], [80, 1, 28, 100, 4, 0], []):
            pictures.append(_picture(fields, board.name, tokens))
    for board in (Board({3: 7, 8: 2}, size=10, die=3, traps=[7]),
                  Board({12: 4}, size=15, die=4, traps=[4, 9, 11])):
        pictures.append(_picture(board_to_json(board), "", [0, 7, 7]))
        pictures.append(_picture(board_to_json(board), "with traps", [1, 2]))
    while len(pictures) < count:
        drawn = _random_fields(rng)
        if drawn is None:
            continue
        name = NAMES[int(rng.integers(len(NAMES)))]
        pictures.append(_picture(drawn, name, _positions(rng, int(drawn["size"]))))
    return {"pictures": pictures}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    args.out.write_text(json.dumps(make_fixtures(args.count, args.seed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
