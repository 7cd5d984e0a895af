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


def test_the_design_searchs_steps_and_summary_speak_spanish() -> None:
    """design_board's steps (start, add, swap, stop, the exhaustive search's best, a restart) and
    Design.summary() are said in the student's language, in the templates the explorers' page
    uses; in English they are the library's English."""
    from chutes_edu.design import ShortestGame, design_board

    funnel = Board({5: 3}, size=9, die=2)

    def said() -> list[str]:
        designs = [design_board(funnel, ShortestGame(), max_jumps=2, method=method)
                   for method in ("greedy", "local search", "exhaustive")]
        designs.append(design_board(funnel, ShortestGame(), max_jumps=2, method="local search",
                                    seed=1))
        actions = dict.fromkeys(s.action for d in designs for s in d.steps)   # in search order
        # the steps these searches do not take, as design.py says them
        rare = [i18n.say("restart from random jumps {jumps}", jumps="1->9, 4->9"),
                i18n.say("start from {jumps}", jumps="1->9"), i18n.say("drop {jump}", jump="2->9"),
                i18n.say("drop {jumps}: no game reaches square {squares} (the same score)",
                         jumps="3->9", squares="3"),
                i18n.say("drop {jumps}: no game reaches squares {squares} (the same score)",
                         jumps="3->9, 6->2", squares="3, 6")]
        return [d.summary() for d in designs] + list(actions) + rare

    english, spanish = _in_both_languages(said)
    assert {"start", "add 4->9", "swap 4->9 for 2->9",
            "the best of every set of at most 2: 1->9, 2->9"} <= set(english), english
    assert {"inicio", "añadir 4->9", "cambiar 4->9 por 2->9"} <= set(spanish), spanish
    assert spanish[2].split("\n")[3] == ("búsqueda: exhaustiva, 474 diseños evaluados, óptimo "
                                         "demostrado entre los candidatos"), spanish[2]
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
    sentences = T.sentences(k for k, v in catalog.items() if k != v)
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


def test_the_design_maths_refusals_speak_spanish() -> None:
    """Every refusal of chutes_edu.design (a goal that is no number, not finite or not
    positive, a spread goal not yet resolved, a race of a wrong number of seats, a candidate that
    is no jump or off the board, an argument of the wrong kind, a race on a board with traps, no
    candidate left, an exhaustive search over the budget, its durations said back) is Spanish
    under ``set_language("es")``: none of the catalog's English sentences, the same numbers, the
    code names kept."""
    from chutes_edu.boards import MILTON_BRADLEY_1943
    from chutes_edu.design import (
        FairestRace,
        ShortestGame,
        SmallestSpread,
        TargetLength,
        design_board,
    )

    funnel = Board(size=9, die=2, jumps={5: 1})
    refusals = [lambda: TargetLength("25"), lambda: TargetLength(float("nan")),
                lambda: TargetLength(-3), lambda: SmallestSpread(0),
                lambda: SmallestSpread(30, -1), lambda: SmallestSpread().score(1, 2),
                lambda: FairestRace(2.5), lambda: FairestRace(7),
                lambda: design_board(funnel, ShortestGame(), candidates=[3]),
                lambda: design_board(funnel, ShortestGame(), candidates=[(1, 99)]),
                lambda: design_board("board", ShortestGame()),
                lambda: design_board(funnel, "short"),
                lambda: design_board(funnel, ShortestGame(), max_jumps=0),
                lambda: design_board(funnel, ShortestGame(), method="genetic"),
                lambda: design_board(funnel, ShortestGame(), seed=1.5),
                lambda: design_board(Board(size=10, traps=[5]), FairestRace(2), max_jumps=1),
                lambda: design_board(funnel, ShortestGame(), candidates=[(5, 9)]),
                lambda: design_board(Board(size=3, jumps={1: 2}), ShortestGame()),
                lambda: design_board(MILTON_BRADLEY_1943, ShortestGame(), max_jumps=3,
                                     method="exhaustive")]

    english, spanish = _in_both_languages(lambda: _refusals(refusals))
    assert english[0] == "target length must be a number, not '25'", english
    assert spanish[0] == "la duración objetivo debe ser un número, no '25'", spanish
    assert "take about 1.6 hours (estimated), more than the budget of 2 minutes" in english[-1]
    assert "tardaría unas 1.6 horas (estimado), más que el límite de 2 minutos" in spanish[-1]
    _assert_said_in_spanish(english, spanish)


def test_the_coin_simulation_and_course_refusals_speak_spanish() -> None:
    """The refusals of chutes_edu.coin (a p that is no probability or out of (0, 1], a bad
    number of trials), chutes_edu.simulation (a negative number of games, a cap below 1) and
    chutes_edu.course (a name that is no lesson's or no exercise set's, an unknown kind) are
    Spanish under ``set_language("es")``."""
    from chutes_edu.coin import expected_flips, flips_until_heads
    from chutes_edu.course import lesson_stem, set_stem
    from chutes_edu.simulation import capped_mean, simulate

    board = Board(size=12, die=4, overshoot="stay", jumps={3: 9, 10: 2})
    refusals = [lambda: expected_flips("half"), lambda: expected_flips(0),
                lambda: flips_until_heads(0.5, 2.5),
                lambda: flips_until_heads(0.5, -1),
                lambda: simulate(board, n_games=-3), lambda: capped_mean([3, 4], 0),
                lambda: set_stem("lesson", "solutions"),
                lambda: set_stem("02_board_as_equations", "answers"),
                lambda: lesson_stem("02_board_as_equations")]

    english, spanish = _in_both_languages(lambda: _refusals(refusals))
    assert english[1] == ("p must satisfy 0 < p <= 1 (with p = 0 heads never comes), got 0"), english
    assert spanish[1] == "p debe cumplir 0 < p <= 1 (con p = 0 la cara no sale nunca); has dado 0"
    _assert_said_in_spanish(english, spanish)


def test_the_pictures_refusals_speak_spanish() -> None:
    """The refusals of chutes_edu.plots (a board grid of no squares, a square, trap or token off
    the board, values of the wrong length, values on a board drawn without them, something that
    is no Board or Design, an empty or malformed pmf, sample, matrix or probabilities, labels
    that do not match, a description of no figure or no text, a policy of the wrong length) are
    Spanish under ``set_language("es")``."""
    import matplotlib.pyplot as plt
    import numpy as np

    from chutes_edu.plots import (
        board_grid,
        describe,
        draw_board,
        draw_policy,
        plot_convergence,
        plot_design,
        plot_distribution,
        plot_jump_effects,
        plot_win_probabilities,
        square_center,
    )
    from chutes_edu.plots.board import _BoardPainter, _square_values

    board = Board(size=12, die=4, overshoot="stay", jumps={3: 9, 10: 2})
    fig, ax = plt.subplots()
    try:
        def painter() -> _BoardPainter:
            return _BoardPainter(ax, 12, heat=False, cmap="viridis", label="")

        refusals = [lambda: board_grid(0), lambda: square_center(13, 12),
                    lambda: _square_values([1, 2, 3], 12), lambda: painter().set_traps([12]),
                    lambda: painter().set_values([0] * 13),
                    lambda: draw_board("board"),
                    lambda: draw_board(board, tokens=[1, 40]),
                    lambda: plot_distribution([]), lambda: plot_convergence([]),
                    lambda: plot_jump_effects(np.zeros((2, 3)), 0),
                    lambda: plot_win_probabilities([]),
                    lambda: plot_win_probabilities([0.5, 0.5], labels=["a"]),
                    lambda: plot_design("not a design"),
                    lambda: describe("fig", "x"),
                    lambda: describe(ax, 3),
                    lambda: draw_policy(board, [1, 2])]
        english, spanish = _in_both_languages(lambda: _refusals(refusals))
    finally:
        plt.close("all")
    assert english[6] == "token 2 is on square 40, off the board (squares 0..12)", english
    assert spanish[6] == "la ficha 2 está en la casilla 40, fuera del tablero (casillas 0..12)"
    _assert_said_in_spanish(english, spanish)


def test_the_explorers_refusals_speak_spanish() -> None:
    """The refusals of the explorers and the board editor (no Board, a min_length that leaves
    no jump, a jump that is no pair, off the board or against the rules, positions and players
    out of range, a setting out of its slider's range, a board too big to edit) are Spanish
    under ``set_language("es")``, the squares of a jump named in Spanish too."""
    from chutes_edu import widgets
    from chutes_edu.widgets.coin_explorer import _whole
    from chutes_edu.widgets.policy_explorer import _setting
    from chutes_edu.widgets.race_explorer import _positions

    board = Board(size=12, die=4, overshoot="stay", jumps={3: 9, 10: 2})
    refusals = [lambda: widgets.JumpExplorer("b"),
                lambda: widgets.JumpExplorer(board, min_length=50),
                lambda: widgets.JumpExplorer(board)._jump("ab"),
                lambda: widgets.JumpExplorer(board)._jump([13, 5]),
                lambda: widgets.JumpExplorer(board)._jump([1.5, 5]),
                lambda: widgets.JumpExplorer(board)._jump([3, 5]),
                lambda: widgets.JumpExplorer(board, min_length=2)._jump([3, 5]),
                lambda: widgets.RaceExplorer("b"),
                lambda: _positions(board, 5), lambda: _positions(board, [1]),
                lambda: _positions(board, [1, 40]),
                lambda: widgets.RaceExplorer(board)._set_players(2.5),
                lambda: widgets.RaceExplorer(board)._set_players(9),
                lambda: _setting("discount", "a"), lambda: _setting("discount", 2.0),
                lambda: widgets.PolicyExplorer("b"),
                lambda: widgets.BoardExplorer("b"),
                lambda: _whole(1.5, "n_trials", 1, 100_000),
                lambda: _whole(10**6, "n_trials", 1, 100_000),
                lambda: widgets.SimulationExplorer("b"),
                lambda: widgets.DesignExplorer("b"),
                lambda: widgets.BoardEditor("b"),
                lambda: widgets.BoardEditor(Board(size=5000)),
                lambda: widgets.BoardEditor(board, presets={"big": Board(size=5000)}),
                lambda: widgets.BoardEditor(board, presets={"odd": 3})]

    english, spanish = _in_both_languages(lambda: _refusals(refusals))
    assert english[3] == "jump source 13 is off the board (squares 0..12)", english
    assert spanish[3] == "el origen del salto 13 está fuera del tablero (casillas 0..12)", spanish
    _assert_said_in_spanish(english, spanish)


def test_the_checks_and_the_language_refusals_speak_spanish() -> None:
    """What a student meets who types an exercise's number wrong (``check("3,4", ...)``), names
    an exercise that is not there, or asks for a language the course does not speak."""
    from chutes_edu import check

    refusals = [lambda: check("3,4", 1), lambda: check("3.99", 1),
                lambda: i18n.set_language("fr")]
    english, spanish = _in_both_languages(lambda: _refusals(refusals))
    assert english[0] == "'3,4' is not an exercise number such as \"3.4\"", english
    assert spanish[0] == "'3,4' no es un número de ejercicio como \"3.4\"", spanish
    assert spanish[2] == "idioma desconocido 'fr'; el curso habla en, es", spanish
    _assert_said_in_spanish(english, spanish)


def test_a_language_the_course_does_not_speak_in_the_environment_is_passed_over(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A hub that sets CHUTES_EDU_LANGUAGE=fr: the library speaks English, and a refusal of a
    language is said (no endless loop between choosing the language and saying the refusal)."""
    monkeypatch.setenv("CHUTES_EDU_LANGUAGE", "fr")
    assert i18n.language() == "en"
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        i18n.set_language("xx")
