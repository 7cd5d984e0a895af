"""Write test boards and the library's answers as JSON, for the JavaScript board maths.

The board editor computes its answers in the page with
``chutes_edu/widgets/js/maths/board_math.js``;
the Python library stays the reference. This tool draws boards (random ones from
:func:`chutes_edu.random_board` with every overshoot rule, dice of 2 to 12 faces and some weighted
dice, bonus rolls and traps, sizes 2 to 400; the named boards; hand-made edge cases) and writes
for each one what the library answers:

- ``valid``: the board as JSON, its ``repr``, ``expected_turns``, ``turn_distribution`` from
  square 0 (and from one other square), its mean, median (the first :math:`k` with
  :math:`\\Pr(T \\le k) \\ge 1/2`), mode (the first :math:`k` where :math:`\\Pr(T = k)` is
  largest), the shortest game, and the first mover's edge ``win_probabilities(board, [0, 0])[0]
  - 0.5`` (null on a board with traps);
- ``invalid``: boards that ``Board(...)`` refuses, with its exact ``ValueError`` message (every
  check the constructor makes, and random boards that break the rules);
- ``expected_only``: valid boards whose distribution takes the library minutes (a die of 1,000
  faces on 1,000 squares), with ``expected_turns`` only;
- ``refused``: valid boards whose distribution the library refuses (games of millions of turns,
  e.g. a die of two faces and the chutes 3->0, 5->0, ..., 41->0), with ``expected_turns`` and the
  refusal's exact words;
- ``reprs``: a few hundred strings (control, format, private-use, unassigned and astral
  characters, lone surrogates, lone combining marks, quotes) with Python's ``repr`` of each, and
  ``unicode_messages``: boards that put such strings in the library's messages, with the message.

The audits of the board editor (issue 27) add their boards to these lists: weights whose sum
overflows (``[1e308, 1e308]``), dice of 1,000 faces on 100 and 1,000 squares, the slow boards.

The shortest game is found by exact reachability, not read off the float pmf: the squares a turn
can reach from :math:`s` are those one roll reaches from any square of the bonus chain of
:math:`s` (the squares that rolls of the bonus face reach while the game goes on), and the
shortest game is the first turn whose reachable set holds an absorbing square.

Every board is built from the JSON it is written as (``json.loads(json.dumps(...))``), so the
library sees exactly what the JavaScript test reads. The JSON form and its conversions are the
board editor's (:func:`chutes_edu.widgets.board_editor.board_to_json` and ``board_from_json``), the
one place where a Board and its JSON meet.

Usage: ``python tools/board_math_fixtures.py --out PATH [--count N] [--seed S]``
"""

from __future__ import annotations

import argparse
import json
import re
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
    expected_turns,
    random_board,
    turn_distribution,
    win_probabilities,
)
from chutes_edu.board import board_from_json, board_to_json

TAIL = 1e-12
"""The tail the pmfs are computed with (the library's default)."""

MAX_PMF = 30_000
"""Random boards whose pmf would be longer than this are skipped (a slow board only makes the
fixture file big; a few slow ones stay among the hand-made boards)."""

OTHER_START_MAX = 200
"""Boards up to this size also get the pmf from a second start square (bigger ones cost more)."""

def shortest_game(board: Board, start: int = 0) -> int:
    r"""The fewest turns from ``start`` to an absorbing square, by exact reachability.

    Level sets of turns (see the module docstring), so no float rounding decides it.

    Parameters
    ----------
    board : Board
        A valid board.
    start : int, default 0
        The square the token starts on.

    Returns
    -------
    int
        The smallest :math:`k` with :math:`\Pr(T = k) > 0` in exact arithmetic (0 from an
        absorbing square).
    """
    f = board.bonus_roll
    ends = set(board.absorbing)
    faces = [r for r, p in enumerate(board.probabilities, start=1) if p > 0]
    table: dict[tuple[int, int], int] = {}          # landings, looked up as the search needs them

    def landing(s: int, r: int) -> int:
        if (s, r) not in table:
            table[s, r] = board.landing(s, r)
        return table[s, r]

    frontier = {start}
    seen = set(frontier)
    turns = 0
    while not frontier & ends:
        reached: set[int] = set()
        for s in frontier:
            chain, u = [s], s                        # the bonus chain of s, while the game goes on
            while f is not None:
                u = landing(u, f)
                if u in ends or u in chain:
                    break
                chain.append(u)
            for u in chain:
                for r in faces:
                    t = landing(u, r)
                    if r != f or t in ends:          # a roll that ends the turn
                        reached.add(t)
        frontier = reached - seen
        seen |= reached
        turns += 1
        if not frontier:                             # pragma: no cover - a valid board finishes
            raise ValueError(f"no game from {start} ever ends on {board!r}")
    return turns


def _answers(board: Board, rng: np.random.Generator) -> dict[str, Any]:
    """What the library answers for a valid board (see the module docstring)."""
    pmf = turn_distribution(board, tail=TAIL)
    k = np.arange(pmf.size)
    cdf = np.cumsum(pmf)
    live = [s for s in range(board.size) if s not in board.absorbing]
    other = int(rng.choice([*live, *board.absorbing]))
    result = {
        "board": board_to_json(board),
        "repr": repr(board.replace(name="")),
        "expected": expected_turns(board).tolist(),
        "pmf": pmf.tolist(),
        "mean": float(k @ pmf),
        "median": int(np.flatnonzero(cdf >= 0.5)[0]),
        "mode": int(np.argmax(pmf)),
        "shortest": shortest_game(board),
        "first_nonzero": int(np.flatnonzero(pmf)[0]),
        "edge": None if board.traps else float(win_probabilities(board, [0, 0])[0] - 0.5),
    }
    if board.size <= OTHER_START_MAX:
        result["other_start"] = {"start": other, "shortest": shortest_game(board, other),
                                 "pmf": turn_distribution(board, other, tail=TAIL).tolist()}
    return result


def _roundtrip(fields: dict[str, Any]) -> dict[str, Any]:
    return dict(json.loads(json.dumps(fields)))


def _named_and_edge_boards() -> list[tuple[str, dict[str, Any]]]:
    """The named boards and hand-made valid edge cases, as (label, JSON fields)."""
    boards: list[tuple[str, Board]] = [
        ("Milton Bradley 1943", MILTON_BRADLEY_1943),
        ("1943, chute 48->26", MILTON_BRADLEY_1943_CHUTE_48),
        ("Noordenbos 2023", NOORDENBOS_2023),
        ("aiming game 2021", AIMING_GAME_2021),
        ("a jump into a trap", Board({3: 7, 8: 2}, size=10, die=3, traps=[7])),
        ("a chute into a trap, bonus", Board({12: 4}, size=15, die=4, bonus_roll=4, traps=[4])),
        ("a bonus cycle through a chute (length 1)", Board({7: 1}, size=20, bonus_roll=6)),
        ("a bonus cycle through a chute (length 3)", Board({13: 1}, size=30, bonus_roll=6)),
        ("two bonus cycles and a tree", Board({13: 1, 26: 20}, size=40, bonus_roll=6)),
        ("stay with the bonus face", Board(size=10, bonus_roll=6)),
        ("stay with the bonus face, weighted", Board(size=9, die=[1, 0, 2.5], bonus_roll=3)),
        ("bounce with bonus and a chute", Board({9: 2}, size=10, overshoot="bounce", bonus_roll=6)),
        ("stop short onto a chute", Board({9: 2}, size=10, overshoot="stop_short")),
        ("stop short onto a trap", Board(size=10, overshoot="stop_short", traps=[9])),
        ("win onto a ladder to the end", Board({5: 12}, size=12, overshoot="win", die=4)),
        ("size 2, stay", Board(size=2)),
        ("size 2, win", Board(size=2, overshoot="win")),
        ("size 2, bounce", Board(size=2, die=2, overshoot="bounce")),
        ("size 2, stop short", Board(size=2, overshoot="stop_short")),
        ("12 faces on 5 squares", Board({2: 4}, size=5, die=12)),
        ("bounce, big faces of weight zero", Board(size=3, die=[1, 1, 0, 0, 0],
                                                   overshoot="bounce")),
        ("one face", Board({3: 5}, size=8, die=1, overshoot="win", traps=[6])),
        ("one weight", Board(size=6, die=[3])),
        ("weighted, zero first face", Board({4: 9}, size=20, die=[0, 1, 1], bonus_roll=3,
                                                            overshoot="win")),
        ("weighted floats", Board({3: 11, 10: 1}, size=15, die=[0.5, 1.25, 0.125])),
        ("a chute to square 0", Board({5: 0, 9: 0}, size=12, die=3)),
        ("traps and bonus", Board({6: 14, 17: 3}, size=25, bonus_roll=5, die=5, traps=[11, 20])),
        ("slow: two faces, bounce, chutes", Board({7: 1, 15: 2, 19: 10}, size=20, die=2,
                                                  overshoot="bounce")),
    ]
    return [(label, board_to_json(board)) for label, board in boards]


def _audit_boards() -> list[tuple[str, dict[str, Any]]]:
    """The audits' boards that the library answers in full, as (label, JSON fields)."""
    return [
        ("weights 1e308, 1e308 (the sum overflows)", {"size": 10, "die": [1e308, 1e308]}),
        ("six weights 1e308, chutes", {"size": 30, "die": [1e308] * 6, "jumps": [[17, 3]]}),
        ("weights 1e-300, 3e-300", {"size": 12, "die": [1e-300, 3e-300], "overshoot": "win"}),
        ("die 1000 on 100 squares", {"size": 100, "die": 1000}),
        ("die of 200 faces (100 of weight 0) on 100 squares, bounce",
         {"size": 100, "die": [1] * 100 + [0] * 100, "overshoot": "bounce"}),
        ("die 20 on 60 squares, bonus 7, chutes", {"size": 60, "die": 20, "bonus_roll": 7,
                                                    "jumps": [[30, 2], [45, 10], [12, 40]]}),
        ("13 weighted faces, stop short, traps", {"size": 80, "overshoot": "stop_short",
                                                   "die": [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 4],
                                                   "jumps": [[50, 5], [20, 70]], "traps": [60]}),
    ]


def _expected_only_boards() -> list[tuple[str, Board]]:
    """Valid boards whose distribution takes the library minutes (a sparse product of 500,000
    entries per turn for some 27,600 turns): their expected turns only."""
    return [
        ("die 1000 on 1000 squares", Board(size=1000, die=1000)),
        ("die 1000 on 1000 squares, bounce", Board(size=1000, die=1000, overshoot="bounce")),
        ("die 1000 on 1000 squares, 200 jumps", random_board(1000, 200, seed=3, die=1000)),
        ("die 1000 on 1000 squares, 200 jumps, bonus 7",
         random_board(1000, 200, seed=4, die=1000).replace(bonus_roll=7)),
    ]


def _refused_boards() -> list[tuple[str, Board]]:
    """Valid boards whose distribution the library refuses, before stepping, in words."""
    chutes = dict.fromkeys(range(3, 42, 2), 0)
    return [
        ("die 2, chutes 3->0, 5->0, ..., 41->0", Board(chutes, die=2)),
        ("the same on 300 squares", Board(chutes, size=300, die=2)),
        ("the same on 1000 squares", Board(chutes, size=1000, die=2)),
        ("the same with a trap", Board(chutes, die=2, traps=[90])),
        ("the same with a bonus face", Board(chutes, die=[1, 1, 0.001], bonus_roll=3)),
        ("weights 1e-7, 1 on 10 squares", Board(size=10, die=[1e-7, 1])),
        ("weights 1e-6, 1 on 250 squares", Board(size=250, die=[1e-6, 1])),
    ]


REPR_CHARACTERS = (
    "aZ09 ~'\"\\"                                        # ASCII, both quotes, a backslash
    "\t\n\r\x00\x07\x1b\x1f\x7f"                          # control characters
    "\x80\x85\x9f\xa0\xa1\xad\xe9\xff"                    # C1, no-break space, soft hyphen
    "\u0301\u0378\u0600\u061c\u1680\u180e\u2000\u200b\u200d\u200e\u2028\u2029\u202e"
    "\u2060\u2066\u3000\u4e2d\ufeff\ufff9\ufffd\uffff"   # combining, unassigned, format, spaces
    "\ud800\udbff\udc00\udfff"                              # lone surrogates
    "\ue000\uf8ff"                                          # private use
    "\U0001f600\U0001d400\U000e0001\U000e0080\U000f0000\U0010ffff\U0001fae8\U00031350"
    "\u1acf\u0c5c\U00013460"                                 # assigned after Unicode 14.0
)
"""The characters the generated strings are drawn from (see ``_reprs``)."""


def _reprs(rng: np.random.Generator, count: int = 300) -> list[dict[str, str]]:
    """``count`` strings drawn from REPR_CHARACTERS (and every one of them alone), each with
    Python's repr."""
    pool = list(REPR_CHARACTERS)
    texts = [*pool, "", "'", '"', "'\"", "it's", 'say "hi"']
    while len(texts) < count:
        size = int(rng.integers(1, 12))
        text = "".join(pool[int(i)] for i in rng.integers(len(pool), size=size))
        # JSON (and JavaScript) read a lone high surrogate before a lone low one as one pair.
        if not re.search("[\ud800-\udbff][\udc00-\udfff]", text):
            texts.append(text)
    return [{"text": text, "repr": repr(text)} for text in texts]


def _unicode_messages(texts: list[str]) -> list[dict[str, Any]]:
    """Boards that put each text into one of the library's messages, with the message."""
    out = []
    for i, text in enumerate(texts):
        changes: list[dict[str, Any]] = [{"overshoot": text}, {"jumps": {text: 3}},
                                         {"traps": [text]}, {"die": [1, text]}]
        change = changes[i % 4]
        fields = _roundtrip({"size": 10, "die": 6, "overshoot": "stay", "bonus_roll": None,
                             "jumps": [], "traps": [], **change})
        try:
            board_from_json(fields)
        except ValueError as error:
            out.append({"board": fields, "message": str(error)})
        else:                                              # pragma: no cover - a tool bug
            raise AssertionError(f"{fields} should be refused")
    return out


def _invalid_boards() -> list[tuple[str, dict[str, Any]]]:
    """Boards that break each rule the constructor checks, as (label, JSON fields)."""
    plain: dict[str, Any] = {"size": 10, "die": 6, "overshoot": "stay", "bonus_roll": None,
                             "jumps": [], "traps": []}
    changes: list[tuple[str, dict[str, Any]]] = [
        ("size a string", {"size": "ten"}), ("size a float", {"size": 10.5}),
        ("size a bool", {"size": True}), ("size null", {"size": None}), ("size 1", {"size": 1}),
        ("size 0", {"size": 0}), ("size negative", {"size": -5}),
        ("unknown rule", {"overshoot": "jump"}), ("rule null", {"overshoot": None}),
        ("rule a number", {"overshoot": 3}), ("rule a quote", {"overshoot": "it's"}),
        ("die a bool", {"die": True}), ("die 0", {"die": 0}), ("die negative", {"die": -2}),
        ("die a string", {"die": "six"}), ("die null", {"die": None}),
        ("die a float", {"die": 2.5}),
        ("die empty", {"die": []}), ("die weights not numbers", {"die": [1, "a", None, True]}),
        ("die weights negative", {"die": [1, -2, -0.5, -1e-05, -1.25e-07]}),
        ("die weights zero", {"die": [0, 0, 0]}),
        ("die an object", {"die": {"a": 1}}), ("die weights lists", {"die": [[1], 2]}),
        ("jumps a string", {"jumps": "ab"}), ("jump of one", {"jumps": [[1]]}),
        ("jump of three", {"jumps": [[1, 2, 3]]}), ("jump a number", {"jumps": [5]}),
        ("jump null", {"jumps": [None]}), ("jump source float", {"jumps": [[1.5, 3]]}),
        ("jump destination string", {"jumps": [[1, "x"]]}),
        ("jump source bool", {"jumps": [[True, 3]]}), ("jump source string", {"jumps": {"1": 5}}),
        ("jump a pair string", {"jumps": ["12"]}),
        ("duplicate jumps", {"jumps": [[3, 5], [3, 7], [3, 8]]}),
        ("jumps off the board", {"jumps": [[-1, 5], [3, 11], [4, -2], [12, 13]]}),
        ("jumps from the ends", {"jumps": [[0, 5], [10, 3]]}),
        ("jump onto itself", {"jumps": [[4, 4]]}),
        ("chained jumps", {"jumps": [[2, 5], [5, 8]]}),
        ("a jump loop", {"jumps": [[2, 5], [5, 2], [6, 7], [7, 9]]}),
        ("many jump problems", {"jumps": [[0, 0], [3, 5], [3, 6], [6, 3], [11, 2], [8, 8]]}),
        ("traps a number", {"traps": 5}), ("traps a string", {"traps": "5"}),
        ("traps null", {"traps": None}), ("traps a bool", {"traps": True}),
        ("trap a float", {"traps": [1.5]}), ("trap a string", {"traps": [3, "4"]}),
        ("trap on 0", {"traps": [0]}), ("trap on the final square", {"traps": [10]}),
        ("traps off the board", {"traps": [-1, 11, 12]}),
        ("trap on a jump source", {"traps": [3, 6], "jumps": [[3, 7], [6, 1]]}),
        ("every trap problem", {"traps": [0, 3, 10, 14, 3], "jumps": [[3, 7]]}),
        ("traps an object", {"traps": {"a": 1}}),
        ("bonus not a face", {"bonus_roll": 7}), ("bonus 0", {"bonus_roll": 0}),
        ("bonus a float", {"bonus_roll": 2.5}), ("bonus a string", {"bonus_roll": "6"}),
        ("bonus a bool", {"bonus_roll": True}),
        ("bonus on a face of weight zero", {"die": [1, 0, 1, 0, 0, 1], "bonus_roll": 2}),
        ("bonus on the only face", {"die": [0, 3], "bonus_roll": 2}),
        ("bounce with big faces", {"size": 5, "die": 12, "overshoot": "bounce"}),
        ("bounce with big weighted faces", {"size": 3, "die": [1, 1, 0, 0, 1, 1, 0],
                                            "overshoot": "bounce"}),
        ("unfinishable, die of 2s", {"size": 3, "die": [0, 2]}),
        ("unfinishable with traps", {"size": 5, "die": [0, 2], "traps": [2]}),
        ("unfinishable loop", {"size": 10, "die": 1, "jumps": [[9, 1]]}),
        ("unfinishable gaps", {"size": 12, "die": [0, 0, 1], "jumps": [[3, 1], [7, 8]]}),
        ("several problems: size first", {"size": 1, "die": 0, "jumps": [[4, 4]]}),
        ("several problems: die before jumps", {"die": [-1], "jumps": [[4, 4]]}),
        ("several problems: jumps before traps", {"jumps": [[4, 4]], "traps": [0]}),
        ("several problems: traps before bonus", {"traps": [0], "bonus_roll": 9}),
    ]
    return [(label, {**plain, **change}) for label, change in changes]


def _random_fields(rng: np.random.Generator) -> dict[str, Any] | None:
    """A random board from random_board plus maybe a bonus roll and traps (None if the die and
    rule alone cannot finish, e.g. a weighted die with no face 1 under "stay")."""
    roll = rng.random()
    size = int(rng.integers(2, 121) if roll < 0.7 else rng.integers(121, 201) if roll < 0.9
               else rng.integers(201, 401))
    overshoot = OVERSHOOT_RULES[int(rng.integers(len(OVERSHOOT_RULES)))]
    faces = int(rng.integers(2, 13))
    if overshoot == "bounce":
        faces = min(faces, size)
    die: int | list[float] = faces
    if rng.random() < 0.12:
        weights = rng.integers(0, 6, size=faces).astype(float)
        if rng.random() < 0.5:
            weights += rng.choice([0.25, 0.5, 0.125])        # not whole: JSON keeps them floats
        weights[int(rng.integers(faces))] += 1
        die = [int(w) if w.is_integer() else float(w) for w in weights]
    jumps = int(rng.integers(0, max(1, min(size - 1, size // 4 + 2))))
    try:
        board = random_board(size, jumps, seed=int(rng.integers(2**31)), die=die,
                             overshoot=overshoot)
    except ValueError:
        return None
    fields = board_to_json(board)
    weights_now = [float(p) for p in board.probabilities]
    if rng.random() < 0.3:
        faces_with_weight = [r for r, p in enumerate(weights_now, start=1) if p > 0]
        if len(faces_with_weight) > 1:
            fields["bonus_roll"] = int(rng.choice(faces_with_weight))
    if rng.random() < 0.2 and size > 3:
        free = [s for s in range(1, size) if s not in board.jumps]
        count = min(len(free), int(rng.integers(1, 4)))
        fields["traps"] = sorted(int(v) for v in rng.choice(free, size=count, replace=False))
    return fields


def _raw_fields(rng: np.random.Generator) -> dict[str, Any]:
    """A random board with no care for the rules (most break one)."""
    size = int(rng.integers(2, 40))
    faces = int(rng.integers(1, 9))
    die: int | list[int] = faces
    if rng.random() < 0.3:                                     # zeros: some rolls never happen
        die = rng.integers(0, 3, size=faces).tolist()
    pairs = rng.integers(-1, size + 2, size=(int(rng.integers(0, 6)), 2)).tolist()
    traps = rng.integers(-1, size + 2, size=int(rng.integers(0, 3))).tolist()
    return {"size": size, "die": die, "bonus_roll": None if rng.random() < 0.6 else
            int(rng.integers(0, faces + 2)),
            "overshoot": OVERSHOOT_RULES[int(rng.integers(len(OVERSHOOT_RULES)))],
            "jumps": pairs, "traps": traps}


def make_fixtures(count: int, seed: int) -> dict[str, Any]:
    """The fixtures: boards with the library's answers, and invalid boards with its messages.

    Parameters
    ----------
    count : int
        How many random valid boards to draw (besides the named and hand-made ones, and the
        ``count // 2`` careless random boards, most of which break a rule).
    seed : int
        The seed of every random draw: the same seed gives the same file.

    Returns
    -------
    dict
        ``valid``, ``invalid``, ``expected_only``, ``refused``, ``reprs`` and
        ``unicode_messages`` lists (see the module docstring), ``argument_errors``
        (``turn_distribution`` with a bad start or tail, and its message), ``tail``, ``seed`` and
        ``skipped_slow`` (random boards left out because their pmf would be longer than
        ``MAX_PMF``).
    """
    rng = np.random.default_rng(seed)
    valid: list[dict[str, Any]] = []
    invalid: list[dict[str, Any]] = []
    skipped = 0

    def record(label: str, fields: dict[str, Any], slow_ok: bool) -> bool:
        nonlocal skipped
        fields = _roundtrip(fields)
        try:
            board = board_from_json(fields)
        except ValueError as error:
            invalid.append({"label": label, "board": fields, "message": str(error)})
            return False
        if not slow_ok and float(expected_turns(board).max()) * 40 > MAX_PMF:
            skipped += 1
            return False
        valid.append({"label": label, **_answers(board, rng)})
        return True

    for label, fields in _named_and_edge_boards():
        if not record(label, fields, slow_ok=True):         # pragma: no cover - a tool bug
            raise AssertionError(f"{label} should be a valid board")
    for label, fields in _audit_boards():
        plain = {"size": 100, "die": 6, "overshoot": "stay", "bonus_roll": None, "jumps": [],
                 "traps": []}
        if not record(label, {**plain, **fields}, slow_ok=True):   # pragma: no cover
            raise AssertionError(f"{label} should be a valid board")
    for label, fields in _invalid_boards():
        if record(label, fields, slow_ok=True):             # pragma: no cover - a tool bug
            raise AssertionError(f"{label} should be an invalid board")
    expected_only = [{"label": label, "board": board_to_json(board),
                      "expected": expected_turns(board).tolist()}
                     for label, board in _expected_only_boards()]
    refused = []
    for label, board in _refused_boards():
        try:
            turn_distribution(board, tail=TAIL)
        except ValueError as error:
            refused.append({"label": label, "board": board_to_json(board),
                            "expected": expected_turns(board).tolist(), "message": str(error)})
        else:                                              # pragma: no cover - a tool bug
            raise AssertionError(f"{label}: the library should refuse its distribution")
    reprs = _reprs(rng)
    made = 0
    while made < count:
        drawn = _random_fields(rng)
        if drawn is not None:
            made += record(f"random board {made}", drawn, slow_ok=False)
    for i in range(count // 2):
        record(f"raw board {i}", _raw_fields(rng), slow_ok=False)
    return {"tail": TAIL, "seed": seed, "skipped_slow": skipped, "valid": valid,
            "invalid": invalid, "argument_errors": _argument_errors(),
            "expected_only": expected_only, "refused": refused, "reprs": reprs,
            "unicode_messages": _unicode_messages([item["text"] for item in reprs])}


def _argument_errors() -> list[dict[str, Any]]:
    """``turn_distribution`` called with a bad start or tail, and its ``ValueError`` message."""
    board = Board({3: 7, 8: 2}, size=10, die=3)
    calls: list[dict[str, Any]] = [{"start": s} for s in (-1, 11, 1.5, "a", None, True)]
    calls += [{"tail": t} for t in (0, 1, 1.5, -0.25, True, -1e-05, -3.5e-300)]
    out = []
    for call in calls:
        try:
            turn_distribution(board, **call)
        except ValueError as error:
            out.append({"board": board_to_json(board), **call, "message": str(error)})
        else:                                              # pragma: no cover - a tool bug
            raise AssertionError(f"turn_distribution accepted {call}")
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the fixtures file (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the JSON file to write")
    parser.add_argument("--count", type=int, default=300, help="random valid boards (300)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the random boards")
    args = parser.parse_args(argv)
    if args.count < 0:
        parser.error(f"--count must be 0 or more, got {args.count}")
    fixtures = make_fixtures(args.count, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(fixtures))
    print(f"{args.out}: {len(fixtures['valid'])} valid boards, {len(fixtures['invalid'])} invalid "
          f"boards ({fixtures['skipped_slow']} slow random boards skipped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
