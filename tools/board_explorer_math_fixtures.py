"""Write test boards and the library's answers as JSON, for the board explorer's maths in the page.

The board explorer (Lessons 2, 4, 5, 6 and 11) computes in the page with
``chutes_edu/widgets/js/maths/board_explorer_math.js`` (beside the board editor's
``maths/board_math.js``);
the Python library stays the reference. This tool draws boards as
``tools/board_math_fixtures.py`` does (the named boards and its hand-made edge cases, then random
boards of every overshoot rule, weighted dice, bonus rolls and traps) and writes, for
``tests/js/board_explorer_math.test.mjs``:

- ``boards``: each board as JSON with :func:`chutes_edu.fundamental_matrix` row 0 (the expected
  visits from the start) and :func:`chutes_edu.square_distribution` after a random number of
  turns (0 to 100, the explorer's slider) from square 0;
- ``exact``: boards of up to ``EXACT_MAX`` squares with ``expected_turns(board, exact=True)[0]``
  as numerator and denominator (decimal strings);
- ``pictures``: runs of a few boards shown one after another in one explorer picture, each with
  the numbers of :func:`chutes_edu.plot_distribution` (mean, median, mode, the x-axis end, kept
  "sticky" from one board to the next as the explorer keeps it) and the picture's description;
- ``heat_maps``: boards drawn as the explorer draws them (``BoardExplorer._draw_board``: the
  heat map of expected turns, of expected visits, or of where the token is after k turns, with
  its title and colour bar's label), each with the picture's description
  (:func:`chutes_edu.draw_board`, :func:`chutes_edu.plots.description`);
- ``refusals``: arguments of ``square_distribution`` that the library refuses, with its message.

Usage: ``python tools/board_explorer_math_fixtures.py --out PATH [--count N] [--seed S]``
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

from board_math_fixtures import _named_and_edge_boards, _random_fields

from chutes_edu import (
    MILTON_BRADLEY_1943,
    Board,
    draw_board,
    expected_turns,
    fundamental_matrix,
    plot_distribution,
    square_distribution,
    turn_distribution,
)
from chutes_edu.board import board_from_json, board_to_json
from chutes_edu.plots import description
from chutes_edu.plots._style import _PAINTER

EXACT_MAX = 120
"""Boards up to this size get the exact expected length (the explorer's boards have 100)."""

PMF_MAX = 30_000
"""Boards whose distribution would be longer than this are left out of the pictures."""

TITLE = "How long is a one-player game?"
"""The explorer's title of its game-length picture."""


def _boards(count: int, rng: np.random.Generator) -> list[dict[str, Any]]:
    """The named and hand-made boards, then ``count`` random valid boards, as JSON fields."""
    out = [json.loads(json.dumps(fields)) for _, fields in _named_and_edge_boards()]
    while len(out) < count + len(_named_and_edge_boards()):
        fields = _random_fields(rng)
        if fields is None:
            continue
        fields = json.loads(json.dumps(fields))
        try:
            board_from_json(fields)
        except ValueError:
            continue
        out.append(fields)
    return out


def _picture_run(boards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The explorer's picture shown for each board in turn (see the module docstring)."""
    shown = []
    painter: Any = None
    ax = plt.figure().add_subplot()
    for fields in boards:
        pmf = turn_distribution(board_from_json(fields))
        if painter is None:                   # as BoardExplorer._refresh draws it
            plot_distribution(pmf, ax=ax, title=TITLE)
            painter = getattr(ax, _PAINTER)
        painter.update(pmf, sticky=True)
        mean, median, mode, xmax = painter.stats
        shown.append({"pmf": pmf.tolist(), "mean": mean, "median": median, "mode": mode,
                      "xmax": xmax, "alt": description(ax)})
    plt.close("all")
    return shown


HEAT_MAP_BOARDS = 90
"""How many boards' pictures are drawn for their descriptions (each heat map on about 30)."""

HEAT_LABELS = {"turns": "expected turns to finish (turns)",
               "visits": "expected visits from the start (turns begun there)",
               "after": "probability of being on the square after k turns"}
"""The explorer's heat maps and their colour bars' labels."""


def _heat_map(board: Board, heat: str, turns: int, title: str) -> dict[str, Any]:
    """One board picture as ``BoardExplorer._draw_board`` makes it, with its description."""
    if heat == "visits":
        # Where no turn is ever begun, the page's solve gives 0; the library gives exact zeros
        # at a square entered from no other (a jump's source), and may leave rounding noise
        # (-0.0) at one out of reach. The words are compared on the library's visits with such
        # noise (below 1e-12 of the largest) set to 0; the numbers themselves are compared raw
        # (``boards``).
        values = fundamental_matrix(board)[0]
        values = np.where(np.abs(values) <= 1e-12 * values.max(), 0.0, values)
    elif heat == "after":
        values = square_distribution(board, turns).copy()
        finished, values[board.size] = float(values[board.size]), np.nan
        title += (f"\nafter {turns} turn{'' if turns == 1 else 's'}: {finished:.3f} finished "
                  f"(square {board.size}, grey)")
    else:
        values = expected_turns(board)
    ax = draw_board(board, values, label=HEAT_LABELS[heat], title=title,
                    ax=plt.figure(figsize=(3, 3)).add_subplot())
    alt = description(ax)
    plt.close("all")
    return {"heat": heat, "turns": turns, "title": title, "alt": alt}


def _heat_maps(boards: list[dict[str, Any]], rng: np.random.Generator) -> list[dict[str, Any]]:
    out = []
    for fields in boards:
        name = str(rng.choice(["", "", "Milton Bradley 1943", "a board 'of mine'"]))
        heat = str(rng.choice(list(HEAT_LABELS)))
        turns = int(rng.choice([0, 1, 10, int(rng.integers(0, 101))]))
        title = name or "custom board (edited)"
        board = board_from_json(fields).replace(name=name)
        out.append({"board": fields, "name": name, "base_title": title,
                    **_heat_map(board, heat, turns, title)})
    return out


def _refusals() -> list[dict[str, Any]]:
    board = board_to_json(MILTON_BRADLEY_1943)
    big = {"size": 1000, "die": 6, "overshoot": "stay", "bonus_roll": None, "jumps": [],
           "traps": []}
    out = []
    for fields, turns, start in [(board, -1, 0), (board, 2.5, 0), (board, True, 0),
                                 (board, "3", 0), (board, 3, 101), (board, 3, -1),
                                 (board, 3, 1.5), (big, 60_000_000, 0)]:
        try:
            square_distribution(board_from_json(fields), turns, start)  # type: ignore[arg-type]
        except ValueError as error:
            out.append({"board": fields, "turns": turns, "start": start, "message": str(error)})
        else:                                              # pragma: no cover - a broken list
            raise AssertionError(f"the library took turns={turns!r}, start={start!r}")
    return out


def make_fixtures(count: int, seed: int) -> dict[str, Any]:
    """The fixtures (see the module docstring); the same seed gives the same file."""
    rng = np.random.default_rng(seed)
    boards = []
    for fields in _boards(count, rng):
        board = board_from_json(fields)
        turns = int(rng.integers(0, 101))
        boards.append({"board": fields, "visits": fundamental_matrix(board)[0].tolist(),
                       "turns": turns, "after": square_distribution(board, turns).tolist()})
    exact = []
    small = [fields for fields in _boards(3 * count, rng) if fields["size"] <= EXACT_MAX]
    for fields in small[:count]:
        value = expected_turns(board_from_json(fields), exact=True)[0]
        exact.append({"board": fields, "numerator": str(value.p), "denominator": str(value.q)})
    quick = [item["board"] for item in boards
             if float(expected_turns(board_from_json(item["board"])).max()) * 40 < PMF_MAX]
    pictures = [_picture_run([quick[int(i)] for i in rng.choice(len(quick), size=4)])
                for _ in range(max(20, count // 8))]
    # The heat maps' numbers are the boards' above (all of them); their pictures' words take a
    # matplotlib figure each (0.12 s), so a sample of boards of every kind says enough.
    heat_maps = _heat_maps([item["board"] for item in boards[:HEAT_MAP_BOARDS]], rng)
    return {"seed": seed, "boards": boards, "exact": exact, "pictures": pictures,
            "title": TITLE, "heat_maps": heat_maps, "refusals": _refusals()}


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
