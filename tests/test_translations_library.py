"""The library in Spanish everywhere a student reads it (issue 53, second round).

The explorers' offline sentence and their ``language`` trait, a set's numbers, the board's
refusals (the same Spanish from Python and from the page's catalog, js/core/i18n.js), and the
extraction rules that bring docstrings, joined strings and printed names into the catalogs.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import translations as T  # noqa: E402

from chutes_edu import i18n  # noqa: E402
from chutes_edu.board import Board  # noqa: E402

NODE = shutil.which("node")


@pytest.fixture()
def spanish():
    i18n.set_language("es")
    yield
    i18n.set_language(None)


def test_printed_names_joined_strings_and_docstrings_are_units() -> None:
    cell = ('def ends(i, r):\n    """Where a roll of r from square i ends."""\n\n'
            'for i in range(94, 100):\n'
            '    note = f"  (top of the chute to {jumps[i]})" if i in jumps else ""\n'
            '    print(f"E_{i} = {E[i]:.4f}{note}")\n'
            'key = "the expected turns"\n'
            'table[key] = 1\n'
            'print(key)\n'
            'lines = []\n'
            'lines.append(f"square {s}: still to go")\n'
            'print("the rows: " + ", ".join(f"row {r} of the matrix" for r in rows))\n'
            'print("\\n".join(lines))\n')
    texts = {u.text: u.kind for u in T.units_of("code", cell)}
    assert texts == {"Where a roll of r from square i ends.": "docstring",
                     "  (top of the chute to {jumps[i]})": "string",
                     "square {s}: still to go": "string",
                     "the rows: ": "string", "row {r} of the matrix": "string"}
    # "the expected turns" is also a key: never a unit. Long translations still parse.
    long = {t: "una traducción bastante larga, para que el texto no quepa en una sola línea: " + t
            for t in texts}
    out = T.translate_text("code", cell, long)
    ast.parse(out)
    assert 'note = (f"una traducción' in out and '"""una traducción' in out


def test_the_explorers_speak_spanish(spanish: None) -> None:
    from chutes_edu import widgets

    for name in ("BoardEditor", "BoardExplorer", "SimulationExplorer", "RaceExplorer",
                 "JumpExplorer", "PolicyExplorer", "DesignExplorer", "CoinFlipExplorer"):
        explorer = getattr(widgets, name)()
        assert explorer.language == "es", name
        said = explorer._repr_mimebundle_()
        plain = (said[0] if isinstance(said, tuple) else said)["text/plain"]
        assert plain.endswith("Es un explorador interactivo: ejecuta esta celda para usarlo."), plain
        assert "explorer" not in plain.lower().replace("explorador", ""), plain


def test_a_sets_numbers_speak_spanish(spanish: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from chutes_edu import variants

    # my_numbers() makes these set 3's numbers for the rest of the process: not past this test
    monkeypatch.setattr(variants, "_IN_THIS_KERNEL", {})
    assert repr(variants.my_numbers(3, turns=(20, range(12, 31)))).startswith("Hoja 3: turns = 20 (")


BAD_BOARDS = [
    dict(jumps={5: 5}), dict(jumps={3: 7, 7: 3}), dict(size=1), dict(die=0), dict(overshoot="up"),
    dict(bonus_roll=9), dict(traps=(0,)), dict(jumps={4: 2}, size=5, die=1),
    dict(jumps={0: 4}), dict(die=(0, 0)),
]


def _refusal(fields: dict) -> str:
    with pytest.raises(ValueError) as error:
        Board(**fields)
    return str(error.value)


@pytest.mark.skipif(NODE is None, reason="needs Node")
def test_the_page_says_the_boards_refusals_in_the_librarys_spanish() -> None:
    english = [_refusal(b) for b in BAD_BOARDS]
    i18n.set_language("es")
    try:
        spanish = [_refusal(b) for b in BAD_BOARDS]
        assert i18n.say_back(english[0]) == spanish[0]
    finally:
        i18n.set_language(None)
    assert all(e != s for e, s in zip(english, spanish, strict=True)), spanish
    module = (ROOT / "chutes_edu/widgets/js/core/i18n.js").as_uri()
    script = (f"const {{translator}} = await import({json.dumps(module)});"
              "const t = translator('es'); const said = [];"
              "for await (const line of (await import('node:readline')).createInterface("
              "{input: process.stdin})) said.push(t(JSON.parse(line)));"
              "console.log(JSON.stringify(said));")
    done = subprocess.run([NODE or "node", "--input-type=module", "-e", script],
                          input="\n".join(json.dumps(e) for e in english), capture_output=True,
                          text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == spanish


def test_the_design_explorers_readout_and_the_maths_refusals_speak_spanish() -> None:
    """The design explorer's readout and steps (the library's summary and steps, said back) and
    the refusals a student meets from chutes_edu.markov (a board too slow for an exact
    distribution, a tail out of range, an exact solve too big, a race of nobody) are Spanish
    under ``set_language("es")``, with none of the catalog's English sentences, the numbers and
    code names kept; in English they are the library's English."""
    from chutes_edu.markov import EXACT_MAX, expected_turns, turn_distribution, win_probabilities
    from chutes_edu.widgets import DesignExplorer

    board = Board(size=20, die=3, overshoot="stay", jumps={4: 11, 17: 6})
    refusals = [lambda: turn_distribution(Board(size=100, die=[1e-5, 1, 1]), max_turns=100),
                lambda: turn_distribution(board, tail=2),
                lambda: expected_turns(Board(size=EXACT_MAX + 1), exact=True),
                lambda: win_probabilities(board, [])]

    def said() -> list[str]:
        explorer = DesignExplorer(board, most_jumps=1, search_method="greedy")
        explorer.runs += 1
        assert explorer.design is not None
        return [explorer.readout.value, explorer.steps.value, *_refusals(refusals)]

    english, spanish = _in_both_languages(said)
    assert english[0].startswith("goal: ") and "<b>Steps</b>" in english[1], english
    assert english[2].startswith("this board is too slow for an exact distribution"), english
    assert spanish[0].startswith("objetivo: ") and "<b>Pasos</b>" in spanish[1], spanish
    _assert_said_in_spanish(english, spanish)


def _refusals(refusals: list[Callable[[], object]]) -> list[str]:
    """What each call refuses with (each must raise ValueError)."""
    words = []
    for refusal in refusals:
        with pytest.raises(ValueError) as error:
            refusal()
        words.append(str(error.value))
    return words


def _in_both_languages(said: Callable[[], list[str]]) -> tuple[list[str], list[str]]:
    """What ``said()`` returns in English, then under ``set_language("es")``."""
    english = said()
    i18n.set_language("es")
    try:
        return english, said()
    finally:
        i18n.set_language(None)


def _assert_said_in_spanish(english: list[str], spanish: list[str]) -> None:
    """Each Spanish line differs from its English, holds none of the catalog's English sentences
    and under 3% English function words, and the same numbers."""
    catalog = i18n.messages("es")
    sentences = {piece.strip() for k, v in catalog.items() if k != v
                 for piece in re.split(r"\{\w+\}", k)
                 if len(re.findall(r"[^\W\d_]{2,}", piece)) >= 3}
    numbers = r"\d+(?:\.\d+)?"
    for line, words in zip(english, spanish, strict=True):
        assert words != line, line
        assert not [s for s in sentences if s in words], words
        assert T.english_share(words) < 0.03, words
        assert re.findall(numbers, words) == re.findall(numbers, line), (line, words)


def test_the_librarys_refusals_speak_spanish() -> None:
    """The refusals a student meets from chutes_edu.control (an accuracy that does not sum to 1,
    a board with traps, targets off the die, a mixed policy whose rows do not sum to 1, a
    discount out of range, a number that is not one) and chutes_edu.absorption (a matrix whose
    rows do not sum to 1, an entry that is no probability, a state named twice, a board with
    traps, a game that is never long) are Spanish under ``set_language("es")``: none of the
    catalog's English sentences, the same numbers, the code names kept."""
    from chutes_edu.absorption import (
        absorption_probabilities,
        expected_rounds,
        quasi_stationary_distribution,
    )
    from chutes_edu.control import (
        optimal_policy,
        policy_expected_turns,
        race,
        simulate_policy,
        value_iteration,
    )

    board = Board(size=12, die=4, overshoot="stay", jumps={3: 9, 10: 2})
    refusals = [lambda: value_iteration(board, accuracy=(0.5, 0.6, 0.1)),
                lambda: optimal_policy(Board(size=12, die=4, traps=(5,))),
                lambda: policy_expected_turns(board, [7] * 12),
                lambda: policy_expected_turns(board, [[0.5] * 4] * 12),
                lambda: value_iteration(board, discount=1.5),
                lambda: race(board, tol="small"),
                lambda: simulate_policy(board, 2, n_games=-3),
                lambda: absorption_probabilities([[0.5, 0.6], [0, 1]]),
                lambda: absorption_probabilities([[0.5, -0.5, 1], [0, 1, 0], [0, 0, 1]]),
                lambda: absorption_probabilities([[1, 0], [0, 1]], absorbing=[1, 1]),
                lambda: expected_rounds(Board(size=12, die=4, traps=(5,)), players=2),
                lambda: quasi_stationary_distribution(Board(size=3, die=1))]

    english, spanish = _in_both_languages(lambda: _refusals(refusals))
    assert english[0] == "accuracy (0.5, 0.6, 0.1) must sum to 1, but sums to 1.2", english
    assert spanish[0] == "la precisión (0.5, 0.6, 0.1) debe sumar 1, pero suma 1.2", spanish
    _assert_said_in_spanish(english, spanish)
