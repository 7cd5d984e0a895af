"""BoardEditor (chutes_edu/widgets/board_editor.py) without a browser.

Python's side: the board both ways between ``board`` and the synced JSON (a page edit is simulated
with ``set_state``, what a message from the page calls), observers, refusals, presets, every named
board, the JSON form. The page's side through Node: its refusals word for word against
``Board(...)``'s ValueError, its boards against ``with_jump``/``without_jump``/``replace``, its line
of Python against ``eval``, its geometry against ``square_center``, and the single module anywidget
loads. The page's state logic alone is tested by tests/js/board_editor.test.mjs.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import traitlets
from hypothesis import given, settings
from hypothesis import strategies as st

from chutes_edu import (
    AIMING_GAME_2021,
    MILTON_BRADLEY_1943,
    MILTON_BRADLEY_1943_CHUTE_48,
    NOORDENBOS_2023,
    OVERSHOOT_RULES,
    PRESETS,
    Board,
    BoardEditor,
    random_board,
)
from chutes_edu.plots.board import square_center
from chutes_edu.widgets.board_editor import (
    MAX_SIZE,
    board_from_json,
    board_to_json,
    presets_json,
)

ROOT = Path(__file__).resolve().parent.parent
EDITOR_JS = ROOT / "chutes_edu" / "widgets" / "js" / "explorers/board_editor/board_editor.js"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not on PATH (CI installs it)")
NAMED = [MILTON_BRADLEY_1943, MILTON_BRADLEY_1943_CHUTE_48, NOORDENBOS_2023, AIMING_GAME_2021]


def _page_edit(editor: BoardEditor, board: dict[str, Any], name: str = "") -> None:
    """What a message from the page does: set the synced traits together."""
    editor.set_state({"board_json": board, "board_name": name})


def _node(script: str, payload: Any) -> Any:
    """Run an ES module script with ``payload`` (JSON) on stdin; its stdout as JSON."""
    assert NODE is not None
    run = subprocess.run([NODE, "--input-type=module", "-e", script], cwd=ROOT, text=True,
                         input=json.dumps(payload), capture_output=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


_READ = """
const input = JSON.parse(await new Promise((resolve) => {
  let text = ""; process.stdin.on("data", (c) => { text += c; });
  process.stdin.on("end", () => resolve(text)); }));
"""


# --------------------------------------------------------------------------- the JSON form
@pytest.mark.parametrize("board", NAMED, ids=[b.name for b in NAMED])
def test_named_boards_round_trip_through_json(board: Board) -> None:
    data = json.loads(json.dumps(board_to_json(board)))
    assert board_from_json(data, name=board.name) == board
    assert repr(board_from_json(data, name=board.name)) == repr(board)
    assert data["jumps"] == [[a, b] for a, b in sorted(board.jumps.items())]


@settings(max_examples=40, deadline=None)
@given(size=st.integers(2, 150), jumps=st.integers(0, 20), seed=st.integers(0, 2**31 - 1),
       rule=st.sampled_from(OVERSHOOT_RULES), faces=st.integers(2, 12),
       bonus=st.booleans(), traps=st.integers(0, 3))
def test_random_boards_round_trip_through_json(size: int, jumps: int, seed: int, rule: str,
                                               faces: int, bonus: bool, traps: int) -> None:
    try:
        board = random_board(size, min(jumps, size - 1), seed=seed, die=min(faces, size)
                             if rule == "bounce" else faces, overshoot=rule)
    except ValueError:
        return                                        # no finishable board with these jumps
    free = [s for s in range(1, size) if s not in board.jumps][:traps]
    try:
        board = board.replace(bonus_roll=board.faces if bonus else None, traps=free)
    except ValueError:
        pass                                          # keep the board without them
    data = json.loads(json.dumps(board_to_json(board)))
    assert board_from_json(data) == board
    assert board_to_json(board_from_json(data)) == data


def test_die_weights_in_json() -> None:
    thirds = Board(size=10, die=[Fraction(1, 3), Fraction(1, 2), 1])
    data = board_to_json(thirds)
    assert data["die"] == [2, 3, 6]                   # the same probabilities, exactly
    assert board_from_json(data) == thirds
    floats = Board(size=10, die=[0.5, 1.25, 0])
    assert board_to_json(floats)["die"] == [0.5, 1.25, 0]
    assert board_from_json(board_to_json(floats)) == floats


def test_board_from_json_refuses_what_board_refuses() -> None:
    with pytest.raises(ValueError) as caught:
        board_from_json({"size": 10, "jumps": [[3, 7], [7, 2]]})
    with pytest.raises(ValueError) as library:
        Board([(3, 7), (7, 2)], size=10)
    assert str(caught.value) == str(library.value)
    with pytest.raises(ValueError, match=r"unknown board field\(s\) \['colour'\]"):
        board_from_json({"size": 10, "colour": "red"})
    with pytest.raises(ValueError, match="mapping"):
        board_from_json([10])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs a Board"):
        board_to_json({"size": 10})  # type: ignore[arg-type]


def test_presets_json() -> None:
    data = presets_json()
    assert list(data) == list(PRESETS)
    assert all(board_from_json(data[name]) == PRESETS[name] for name in PRESETS)


# --------------------------------------------------------------------------- the widget
def test_editor_starts_on_the_1943_board() -> None:
    editor = BoardEditor()
    assert editor.board == MILTON_BRADLEY_1943
    assert editor.board_json == board_to_json(MILTON_BRADLEY_1943)
    assert editor.board_name == MILTON_BRADLEY_1943.name
    assert editor.presets == presets_json()
    assert editor.message == "" and editor.last_error == ""


@pytest.mark.parametrize("board", NAMED, ids=[b.name for b in NAMED])
def test_every_named_board(board: Board) -> None:
    editor = BoardEditor(board)
    assert editor.board == board and editor.board.name == board.name
    assert board_from_json(editor.board_json) == board
    assert list(editor.presets) == list(PRESETS)            # already a preset: not added twice


def test_a_board_that_is_not_a_preset_joins_the_presets() -> None:
    big = random_board(400, 40, seed=7)
    editor = BoardEditor(big)
    assert list(editor.presets) == [big.name, *PRESETS]
    assert board_from_json(editor.presets[big.name]) == big
    plain = BoardEditor(Board({3: 7}, size=10))
    assert list(plain.presets)[0] == "starting board"
    mine = BoardEditor(Board({3: 7}, size=10), presets={"tiny": Board(size=5)})
    assert list(mine.presets) == ["starting board", "tiny"]


def test_setting_the_board_from_python_reaches_the_page_and_observers() -> None:
    editor = BoardEditor()
    seen: list[Board] = []
    editor.observe(lambda change: seen.append(change["new"]), "board")
    new = NOORDENBOS_2023
    editor.board = new
    assert editor.board_json == board_to_json(new)
    assert editor.board_name == new.name
    assert seen == [new]
    with pytest.raises(traitlets.TraitError, match="expected a Board"):
        editor.board = "a board"  # type: ignore[assignment]
    with pytest.raises(traitlets.TraitError, match=f"up to {MAX_SIZE} squares"):
        editor.board = Board(size=MAX_SIZE + 1)
    assert editor.board == new and len(seen) == 1


def test_a_page_edit_sets_the_board_and_tells_observers() -> None:
    editor = BoardEditor()
    seen: list[Board] = []
    editor.observe(lambda change: seen.append(change["new"]), "board")
    edited = board_to_json(MILTON_BRADLEY_1943)
    edited["jumps"] = sorted([*edited["jumps"], [30, 35]])
    _page_edit(editor, edited)
    expected = MILTON_BRADLEY_1943.with_jump(30, 35)
    assert editor.board == expected and editor.board.name == ""
    assert seen == [expected]
    assert editor.board_json == edited                     # no echo changes it
    _page_edit(editor, edited)                             # the same board: no news
    assert len(seen) == 1
    _page_edit(editor, board_to_json(MILTON_BRADLEY_1943), MILTON_BRADLEY_1943.name)   # undo
    assert editor.board == MILTON_BRADLEY_1943 and editor.board.name == MILTON_BRADLEY_1943.name
    assert len(seen) == 2


def test_a_board_python_refuses_is_not_raised_into_the_page() -> None:
    editor = BoardEditor()
    bad = board_to_json(MILTON_BRADLEY_1943)
    bad["jumps"] = [*bad["jumps"], [31, 36]]               # 9->31 then 31->36: chained
    _page_edit(editor, bad)                                # no exception
    with pytest.raises(ValueError) as library:
        Board(bad["jumps"], size=100)
    assert editor.last_error == str(library.value)
    assert editor.message == f"Python's Board refused the board: {library.value}"
    assert editor.board == MILTON_BRADLEY_1943
    assert editor.board_json == board_to_json(MILTON_BRADLEY_1943)   # the page gets it back
    _page_edit(editor, {**bad, "jumps": bad["jumps"][:-1] + [[30, 35]]})
    assert editor.message == "" and editor.last_error == ""
    _page_edit(editor, {**bad, "jumps": 5})                # Python's TypeError: still no raise
    assert editor.last_error


def test_size_limit_and_wrong_types() -> None:
    with pytest.raises(ValueError, match="needs a Board"):
        BoardEditor({"size": 10})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=f"up to {MAX_SIZE} squares"):
        BoardEditor(Board(size=MAX_SIZE + 1))
    with pytest.raises(ValueError, match="preset 'x'"):
        BoardEditor(presets={"x": 3})  # type: ignore[dict-item]


def test_an_untrusted_notebook_shows_a_sentence() -> None:
    bundle = BoardEditor()._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["text/plain"].startswith("Board editor: ")
    assert "run this cell to use it" in data["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in data


# --------------------------------------------------------------------------- the page, in Node
_ACTIONS = _READ + """
import { createState, update, pythonLine } from %s;
const out = input.map(({ board, actions }) => {
  let state = createState(board);
  const steps = [];
  for (const action of actions) {
    state = update(state, action);
    steps.push({ board: state.board, message: state.message, python: pythonLine(state) });
  }
  return steps;
});
console.log(JSON.stringify(out));
"""


def _refusal(build: Any) -> str:
    with pytest.raises(ValueError) as error:
        build()
    return str(error.value)


@needs_node
def test_the_pages_edits_are_the_librarys() -> None:
    """Each edit in the page gives the library's board, or Board's ValueError text word for word
    (the Board built with the new jump last, as ``with_jump`` adds it)."""
    mb = MILTON_BRADLEY_1943
    small = Board({9: 1}, size=10, die=2)
    jumps = list(mb.jumps.items())
    cases: list[tuple[Board, list[dict[str, Any]], list[Any]]] = [
        (mb, [{"type": "pick", "square": 30}, {"type": "pick", "square": 35}],
         [None, lambda: mb.with_jump(30, 35)]),
        (mb, [{"type": "pick", "square": 3}, {"type": "pick", "square": 4}],      # onto a source
         [None, lambda: Board([*jumps, (3, 4)])]),
        (mb, [{"type": "pick", "square": 4}, {"type": "pick", "square": 20}],     # from a source
         [None, lambda: Board([*jumps, (4, 20)])]),
        (mb, [{"type": "pick", "square": 0}, {"type": "pick", "square": 20}],
         [None, lambda: mb.with_jump(0, 20)]),
        (mb, [{"type": "pick", "square": 100}, {"type": "pick", "square": 20}],
         [None, lambda: mb.with_jump(100, 20)]),
        (small, [{"type": "pick", "square": 8}, {"type": "pick", "square": 1}],   # unfinishable
         [None, lambda: small.with_jump(8, 1)]),
        (mb, [{"type": "remove", "source": 28}], [lambda: mb.without_jump(28)]),
        (mb, [{"type": "remove", "source": 30}], [lambda: mb.without_jump(30)]),
        (mb, [{"type": "move", "source": 28, "end": "destination", "square": 76}],
         [lambda: mb.without_jump(28).with_jump(28, 76)]),
        (mb, [{"type": "move", "source": 28, "end": "destination", "square": 80}],
         [lambda: mb.without_jump(28).with_jump(28, 80)]),
        (mb, [{"type": "trap", "square": 50}, {"type": "trap", "square": 47}],
         [lambda: mb.replace(traps=[50]), lambda: mb.replace(traps=[50, 47])]),
        (mb, [{"type": "die", "faces": 12}, {"type": "overshoot", "rule": "bounce"},
              {"type": "bonus", "face": 12}],
         [lambda: mb.replace(die=12), lambda: mb.replace(die=12, overshoot="bounce"),
          lambda: mb.replace(die=12, overshoot="bounce", bonus_roll=12)]),
        (NOORDENBOS_2023, [{"type": "die", "faces": 4}],
         [lambda: NOORDENBOS_2023.replace(die=4)]),
    ]
    payload = [{"board": board_to_json(board), "actions": actions} for board, actions, _ in cases]
    results = _node(_ACTIONS % json.dumps(EDITOR_JS.as_uri()), payload)
    names = {"Board": Board}
    for (board, actions, expected), steps in zip(cases, results, strict=True):
        current = board
        for action, want, step in zip(actions, expected, steps, strict=True):
            label = f"{board.name or board!r}: {action}"
            if want is None:                                       # picking a start only
                assert step["message"] == "", label
                continue
            try:
                new = want()
            except ValueError as error:
                assert step["message"] == str(error), label
                assert board_from_json(step["board"]) == current, label
                continue
            assert step["message"] == "", label
            assert board_from_json(step["board"]) == new, label
            assert eval(step["python"], names) == new, label      # the line of Python
            current = new


_GEOMETRY = _READ + """
import { place } from %s;
console.log(JSON.stringify(input.map((n) => Array.from({ length: n + 1 }, (_, s) => place(s, n)))));
"""


@needs_node
def test_the_pages_serpentine_is_draw_boards() -> None:
    sizes = [2, 3, 10, 30, 99, 100, 101, 400]
    places = _node(_GEOMETRY % json.dumps(EDITOR_JS.as_uri()), sizes)
    for n, squares in zip(sizes, places, strict=True):
        for s, where in enumerate(squares):
            x, y = square_center(s, n)
            if s == 0:
                assert (where["row"], where["col"]) == (0, -1)
                continue
            assert (where["col"] + 0.5, where["row"] + 0.5) == (x, y), (n, s)


@needs_node
def test_python_lines_of_the_page_build_equal_boards() -> None:
    boards = [*NAMED, random_board(400, 40, seed=3),
              Board({3: 7}, size=10, die=3, traps=[5], bonus_roll=2)]
    script = _READ + """
      import { createState, pythonLine } from %s;
      console.log(JSON.stringify(input.map((b) => pythonLine(createState(b)))));"""
    lines = _node(script % json.dumps(EDITOR_JS.as_uri()), [board_to_json(b) for b in boards])
    for board, line in zip(boards, lines, strict=True):
        assert eval(line, {"Board": Board}) == board, line


# --------------------------------------------------------------------------- the bundler
def test_the_editor_modules_have_no_function_over_100_lines() -> None:
    """The editor as rooms (issue 27): no function (a declaration, to its closing brace at the
    same indent) of more than 100 lines in the editor's own modules."""
    long = []
    for path in sorted(EDITOR_JS.parent.glob("*.js")):
        if path.name == "maths/board_math.js":                     # the maths has its own tests
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            found = re.match(r"^(\s*)(?:export\s+)?(?:async\s+)?function\*?\s*(\w+)", line)
            if not found:
                continue
            indent = found[1]
            end = next(j for j in range(i + 1, len(lines))
                       if lines[j].startswith(indent + "}") and lines[j].strip() in ("}", "};"))
            if end - i + 1 > 100:
                long.append(f"{path.name}: {found[2]} has {end - i + 1} lines")
    assert not long, long
