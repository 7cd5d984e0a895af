"""The widgets, headless: set ``.value`` on controls, check readouts, messages and pictures."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import chutes_edu.widgets.board_explorer as board_explorer  # noqa: E402
from chutes_edu import (  # noqa: E402
    MILTON_BRADLEY_1943,
    MILTON_BRADLEY_1943_CHUTE_48,
    NOORDENBOS_2023,
    OVERSHOOT_RULES,
    PRESETS,
    Board,
    BoardExplorer,
    CoinFlipExplorer,
    JumpExplorer,
    RaceExplorer,
    SimulationExplorer,
    capped_mean,
    expected_turns,
    flips_until_heads,
    jump_effects,
    running_mean,
    simulate,
    win_probabilities,
)

PNG = b"\x89PNG"


def _turns(board: Board) -> str:
    return f"{float(expected_turns(board)[0]):.4f}"


@pytest.fixture(scope="module")
def explorer():
    return BoardExplorer()


@pytest.fixture
def fresh():
    return BoardExplorer()


# --------------------------------------------------------------------------- board explorer
def test_board_explorer_defaults(explorer):
    """The explorer computes and draws in the page (tests/test_board_explorer_browser.py,
    tests/js/board_math.test.mjs and board_explorer_math.test.mjs); Python holds the board and
    the view as synced traits, checked by the library, and gives its numbers."""
    import anywidget

    from chutes_edu.widgets.board_editor import board_to_json, presets_json

    ex = explorer
    assert isinstance(ex, anywidget.AnyWidget)
    state = ex.get_state()
    assert state["board_json"] == board_to_json(MILTON_BRADLEY_1943)
    assert state["board_name"] == state["preset_name"] == MILTON_BRADLEY_1943.name
    assert state["presets_json"] == presets_json()
    assert (state["heat_map"], state["turns_played"], state["exact_shown"]) == ("turns", 10, False)
    assert ex.board == MILTON_BRADLEY_1943
    assert "39.2251" in ex.readout.value
    assert ex.message.value == ""
    assert list(ex.preset.options) == list(PRESETS)
    assert (ex.die.min, ex.die.max, ex.die.value) == (2, 20, 6)
    assert tuple(ex.overshoot.options) == OVERSHOOT_RULES
    assert ex.bonus.value is None and None in [v for _, v in ex.bonus.options]
    assert (ex.jump_from.value, ex.jump_from.min, ex.jump_from.max) == (2, 1, 99)
    assert (ex.jump_to.value, ex.jump_to.min, ex.jump_to.max) == (12, 0, 100)
    assert len(ex.jump_list.options) == 19


def test_die_size_changes_the_readout(fresh):
    ex = fresh
    ex.die.value = 2
    assert "60.7626" in ex.readout.value
    assert ex.board.faces == 2 and ex.message.value == ""
    assert ex.get_state()["board_json"]["die"] == 2          # the page follows
    ex.die.value = 7
    assert "34.6966" in ex.readout.value
    ex.die.value = 3
    assert "65.9008" in ex.readout.value           # seed 002: a 3-sided die is slower than 2
    ex.die.value = 6
    assert "39.2251" in ex.readout.value
    assert ex.board == MILTON_BRADLEY_1943


def test_invalid_jump_shows_the_message_and_keeps_the_board(fresh):
    from chutes_edu.board import board_to_json

    ex = fresh
    ex.die.value = 5
    readout, board = ex.readout.value, ex.board
    ex.jump_from.value, ex.jump_to.value = 30, 1       # 1 is the source of the ladder 1->38
    ex.add_jump.click()
    assert "chained jumps" in ex.message.value and "30->1" in ex.message.value
    assert "chained jumps" in ex.last_error
    assert ex.board == board and ex.readout.value == readout
    assert ex.get_state()["board_json"] == board_to_json(board)
    assert "Traceback" not in ex.message.value
    ex.jump_from.value, ex.jump_to.value = 47, 10      # 47 already has a chute
    ex.add_jump.click()
    assert "already has the jump 47->26" in ex.message.value
    assert ex.board == board


def test_a_valid_edit_clears_the_message(fresh):
    ex = fresh
    ex.jump_from.value, ex.jump_to.value = 30, 1
    ex.add_jump.click()
    assert ex.message.value
    ex.jump_from.value, ex.jump_to.value = 30, 35
    ex.add_jump.click()
    assert ex.message.value == ""
    assert ex.board == MILTON_BRADLEY_1943.with_jump(30, 35)
    assert _turns(ex.board) in ex.readout.value
    assert any(value == 30 for _, value in ex.jump_list.options)


def test_remove_a_jump(fresh):
    ex = fresh
    ex.jump_from.value = 47
    ex.remove_jump.click()
    assert ex.board == MILTON_BRADLEY_1943.without_jump(47)
    assert _turns(MILTON_BRADLEY_1943.without_jump(47)) in ex.readout.value
    assert len(ex.jump_list.options) == 18
    ex.jump_from.value = 47
    ex.remove_jump.click()                             # nothing left to remove
    assert "no jump starts on square 47" in ex.message.value


def test_unfinishable_board_is_refused():
    ex = BoardExplorer(Board({}, size=10, die=2, name="tiny"))
    assert list(ex.preset.options)[0] == "tiny"
    ex.jump_from.value, ex.jump_to.value = 9, 1
    ex.add_jump.click()
    assert ex.message.value == ""
    board = ex.board
    ex.jump_from.value, ex.jump_to.value = 8, 1        # 10 is now out of reach
    ex.add_jump.click()
    assert "unfinishable board" in ex.message.value
    assert ex.board == board and _turns(board) in ex.readout.value


def test_invalid_rule_change_puts_the_control_back(fresh):
    ex = fresh
    ex.preset.value = NOORDENBOS_2023.name
    assert ex.board == NOORDENBOS_2023
    assert (ex.overshoot.value, ex.bonus.value, ex.die.value) == ("bounce", 6, 6)
    ex.die.value = 5                                   # no face 6 for the bonus roll
    assert "bonus_roll=6" in ex.message.value
    assert ex.die.value == 6 and ex.board == NOORDENBOS_2023
    ex.bonus.value = None
    assert ex.message.value == "" and ex.board.bonus_roll is None
    ex.die.value = 5
    assert ex.board.faces == 5 and _turns(ex.board) in ex.readout.value
    assert [v for _, v in ex.bonus.options] == [None, 1, 2, 3, 4, 5]


def test_overshoot_rule_and_presets(fresh):
    ex = fresh
    ex.preset.value = MILTON_BRADLEY_1943_CHUTE_48.name
    assert "39.5984" in ex.readout.value               # seed 000
    ex.overshoot.value = "win"
    assert "36.1931" in ex.readout.value               # seed 000's house rule
    assert ex.board.overshoot == "win"
    ex.preset.value = MILTON_BRADLEY_1943.name
    assert ex.overshoot.value == "stay" and "39.2251" in ex.readout.value


def test_exact_fraction_on_request(fresh):
    ex = fresh
    assert "exactly" not in ex.readout.value
    ex.show_exact.value = True
    exact = expected_turns(MILTON_BRADLEY_1943, exact=True)[0]
    assert f"{exact.p}/{exact.q}" in ex.readout.value
    assert "39.2251" in ex.readout.value
    ex.die.value = 2
    exact2 = expected_turns(MILTON_BRADLEY_1943.replace(die=2), exact=True)[0]
    assert f"{exact2.p}/{exact2.q}" in ex.readout.value
    ex.show_exact.value = False
    assert "exactly" not in ex.readout.value


def test_pick_a_jump_from_the_list(fresh):
    ex = fresh
    ex.jump_list.value = 87
    assert (ex.jump_from.value, ex.jump_to.value) == (87, 24)


def test_heat_map_choice(fresh):
    # (the heat maps and their words are the library's: tests/js/board_explorer_math.test.mjs;
    # the page draws them: tests/test_board_explorer_browser.py)
    import traitlets

    ex = fresh
    assert [v for _, v in ex.heat.options] == ["turns", "visits", "after"]
    ex.heat.value = "visits"
    assert ex.get_state()["heat_map"] == "visits"
    assert "39.2251" in ex.readout.value
    with pytest.raises(traitlets.TraitError, match="not 'colour'"):
        ex.heat.value = "colour"
    assert ex.heat_map == "visits"


def test_heat_map_after_k_turns(fresh):
    import traitlets

    ex = fresh
    ex.heat.value = "after"
    ex.after_turns.value = 3
    assert ex.get_state()["turns_played"] == 3
    assert (ex.after_turns.min, ex.after_turns.max) == (0, 100)
    with pytest.raises(traitlets.TraitError, match="0 to 100, not 101"):
        ex.after_turns.value = 101
    assert "39.2251" in ex.readout.value


def test_the_page_edits_are_checked_by_the_library(fresh):
    """A board the page sends is the library's Board, or refused in its words."""
    import traitlets

    from chutes_edu.board import board_to_json

    ex = fresh
    ex.board_json = {**board_to_json(MILTON_BRADLEY_1943), "die": 4}
    assert ex.board == MILTON_BRADLEY_1943.replace(die=4)
    assert _turns(ex.board) in ex.readout.value
    with pytest.raises(traitlets.TraitError, match="chained jumps"):
        ex.board_json = {**board_to_json(MILTON_BRADLEY_1943), "jumps": [[30, 1], [1, 38]]}
    assert ex.board == MILTON_BRADLEY_1943.replace(die=4)
    with pytest.raises(traitlets.TraitError, match="no preset board named 'Monopoly'"):
        ex.preset_name = "Monopoly"


def test_going_back_to_a_board_reuses_the_cached_results(fresh):
    ex = fresh
    ex.die.value = 4
    first = ex.board
    ex.die.value = 6
    ex.die.value = 4
    assert ex.board is first                           # the same instance: its caches reused


def test_unexpected_errors_never_escape(fresh, monkeypatch):
    ex = fresh

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(Board, "with_jump", broken)
    ex.add_jump.click()                                 # must not raise
    assert "unexpected error" in ex.message.value and "boom" in ex.message.value
    monkeypatch.setattr(board_explorer, "expected_turns", broken)
    ex.die.value = 9                                    # must not raise
    assert "unexpected error" in ex.readout.value and "boom" in ex.readout.value


# --------------------------------------------------------------------------- coin flips
def test_coin_flip_explorer_holds_its_state_and_gives_the_library_numbers():
    """The explorer draws and computes in the page (tests/test_coin_explorer_browser.py,
    tests/js/coin_math.test.mjs); Python holds p, n_trials and seed, synced to the page, checks
    them with the library and gives its numbers."""
    import anywidget
    import traitlets

    from chutes_edu.widgets import coin_explorer

    ex = CoinFlipExplorer()
    assert isinstance(ex, anywidget.AnyWidget)
    state = ex.get_state()
    assert (state["p"], state["n_trials"], state["seed"]) == (0.5, 1000, 0)
    assert ex.summary()["exact"] == 2.0
    ex.p = 0.2
    assert ex.get_state()["p"] == 0.2 and ex.summary()["exact"] == 5.0
    ex.n_trials = 5000
    assert ex.flips.size == 5000
    np.testing.assert_array_equal(ex.flips, flips_until_heads(0.2, 5000, seed=0))
    numbers = ex.summary()
    mean, half = running_mean(ex.flips)
    assert (numbers["mean"], numbers["half_width"]) == (mean[-1], half[-1])
    ex.seed = 1
    np.testing.assert_array_equal(ex.flips, flips_until_heads(0.2, 5000, seed=1))
    # a value out of range is refused in the library's words, and the state is kept
    with pytest.raises(traitlets.TraitError, match=r"p must satisfy 0 < p <= 1"):
        ex.p = 0
    assert ex.p == 0.2 and "p must satisfy" in ex.last_error
    with pytest.raises(traitlets.TraitError, match="n_trials must be from 1 to 100,000"):
        ex.n_trials = coin_explorer.MAX_TRIALS + 1
    with pytest.raises(ValueError, match=r"got 1.5"):
        CoinFlipExplorer(p=1.5)
    with pytest.raises(ValueError, match="seed must be a whole number"):
        CoinFlipExplorer(seed=0.5)
    explorer = CoinFlipExplorer(p=0.25, n_trials=2000, seed=3)     # the exercise's arguments
    assert (explorer.p, explorer.n_trials, explorer.seed) == (0.25, 2000, 3)


# --------------------------------------------------------------------------- simulation
def test_simulation_explorer_runs_headless():
    """The explorer plays and draws in the page (tests/test_simulation_explorer_browser.py,
    tests/js/simulation_math.test.mjs); Python holds the board, the number of games, the seed and
    the cap, synced to the page, checks them, and gives the library's numbers."""
    import anywidget

    from chutes_edu.board import board_to_json

    ex = SimulationExplorer(n_games=2000)
    assert isinstance(ex, anywidget.AnyWidget)
    state = ex.get_state()
    assert (state["games"], state["random_seed"], state["turn_cap"]) == (2000, 0, 0)
    assert state["board_json"] == board_to_json(MILTON_BRADLEY_1943)
    assert ex.turns.size == 2000
    assert f"{ex.exact:.4f}" == "39.2251"
    assert np.array_equal(ex.turns, simulate(MILTON_BRADLEY_1943, 2000, seed=0))
    ex.n_games.value = 5000
    ex.seed.value = 3
    assert ex.get_state()["games"] == 5000 and ex.get_state()["random_seed"] == 3
    turns = ex.run_simulation()
    assert turns.size == 5000
    assert ex.summary()["mean"] == pytest.approx(turns.mean())
    # the same seed plays the same games
    assert np.array_equal(turns, ex.run_simulation())


def test_simulation_button_and_cap():
    import traitlets

    ex = SimulationExplorer(n_games=3000)
    ex.n_games.value = 4000
    ex.run.click()
    assert ex.turns.size == 4000
    assert "capped" not in ex.summary()
    assert ex.cap.min == 0 and ex.cap.max == 300
    ex.cap.value = 60
    assert ex.get_state()["turn_cap"] == 60
    assert ex.summary()["capped"] == pytest.approx(capped_mean(ex.turns, 60))
    assert ex.summary()["cut"] == (ex.turns > 60).sum()
    assert ex.turns.size == 4000                       # the cap does not re-simulate
    ex.cap.value = 0
    assert "capped" not in ex.summary()
    # a value out of range is refused in words and the state kept
    with pytest.raises(traitlets.TraitError, match="cap must be from 0 to 300, not 301"):
        ex.cap.value = 301
    assert ex.cap.value == 0 and "not 301" in ex.last_error
    with pytest.raises(traitlets.TraitError, match="n_games must be from 1 to 1,000,000, not 0"):
        ex.n_games.value = 0
    with pytest.raises(traitlets.TraitError, match="seed must be from 0 to"):
        ex.seed.value = -1
    assert ex.n_games.value == 4000
    with pytest.raises(ValueError, match="n_games must be from 1"):
        SimulationExplorer(n_games=2_000_000)
    with pytest.raises(traitlets.TraitError, match="board is set when it is made"):
        ex.board_json = {"size": 50}


def test_simulation_on_another_board():
    ex = SimulationExplorer(NOORDENBOS_2023, n_games=1000)
    assert f"{ex.exact:.4f}" == _turns(NOORDENBOS_2023)
    assert ex.get_state()["board_name"] == NOORDENBOS_2023.name
    assert ex.turns.min() >= 1
    assert simulate(NOORDENBOS_2023, 10, seed=0).dtype == ex.turns.dtype


# --------------------------------------------------------------------------- add a jump
def test_jump_explorer_reads_jump_effects():
    """The explorer computes and draws in the page (tests/test_jump_explorer_browser.py,
    tests/js/jump_math.test.mjs); Python holds the board and the jump, synced to the page,
    checks them with the library and gives its numbers."""
    import anywidget

    from chutes_edu.board import board_to_json

    ex = JumpExplorer()
    assert isinstance(ex, anywidget.AnyWidget)
    state = ex.get_state()
    assert state["board_json"] == board_to_json(MILTON_BRADLEY_1943)
    assert state["min_length"] == 1 and state["jump"] == [27, 29]
    effects = jump_effects(MILTON_BRADLEY_1943)
    ex.jump_from.value, ex.jump_to.value = 30, 35
    assert ex.get_state()["jump"] == [30, 35]
    assert ex.expected == effects[30, 35] and f"{effects[30, 35]:.4f}" in ex.readout
    assert "surprise" not in ex.readout.lower() and not ex.surprise
    assert ex.last_error == ""


def test_jump_explorer_flags_surprises():
    ex = JumpExplorer()
    assert (ex.jump_from.value, ex.jump_to.value) == (27, 29)  # seed 002: this ladder lengthens
    assert "40.20" in ex.readout and ex.surprise
    assert "surprise" in ex.readout.lower() and "longer" in ex.readout
    effects, base = ex.effects, ex.baseline
    a, b = next((a, b) for a, b in np.argwhere(effects < base - 1e-9) if b < a)
    ex.jump_from.value, ex.jump_to.value = int(a), int(b)   # a chute that shortens it
    assert "surprise" in ex.readout.lower() and "shorter" in ex.readout


@pytest.mark.parametrize("min_length", [1, 10])
def test_jump_explorer_opens_valid_and_reaches_only_allowed_jumps(min_length):
    import traitlets

    ex = JumpExplorer(min_length=min_length)     # lesson 9 uses min_length=10
    assert ex.last_error == ""
    a, b = ex.jump_from.value, ex.jump_to.value
    assert np.isfinite(ex.effects[a, b]) and abs(a - b) >= min_length
    allowed = np.isfinite(ex.effects)
    # the source slider offers exactly the squares where some jump may start
    assert [v for _, v in ex.jump_from.options] == [int(s) for s in
                                                    np.flatnonzero(allowed.any(axis=1))]
    for source in [v for _, v in ex.jump_from.options]:
        ex.jump_from.value = source
        # ... and the destination slider exactly the allowed destinations from there
        assert [v for _, v in ex.jump_to.options] == [int(d) for d in
                                                      np.flatnonzero(allowed[source])]
        assert ex.jump_to.value in dict(ex.jump_to.options).values()
        assert ex.last_error == ""
    ex.jump_from.value = 30
    for _, destination in ex.jump_to.options:      # every step of the arrow keys is accepted
        ex.jump_to.value = destination
        assert ex.last_error == "" and ex.jump == [30, destination]
        assert f"{ex.effects[30, destination]:.4f}" in ex.readout
    # a jump the rules refuse is refused in words, and the state kept
    with pytest.raises(traitlets.TraitError, match="the jump 30 -> 47 cannot be added"):
        ex.jump_to.value = 47                                  # 47 starts a chute
    assert ex.jump[0] == 30 and "47" in ex.last_error
    with pytest.raises(traitlets.TraitError, match="jump destination 101 is off the board"):
        ex.jump = [30, 101]
    with pytest.raises(traitlets.TraitError, match="min_length is set when it is made"):
        ex.min_length = 3


def test_jump_explorer_explains_what_the_sliders_skip():
    from chutes_edu.widgets import jump_explorer

    ex = JumpExplorer()
    options = [v for _, v in ex.jump_from.options]
    assert 47 not in options and 26 not in options and 0 not in options  # the chute 47->26
    ex.jump_from.value = 33
    assert 47 not in [v for _, v in ex.jump_to.options]      # 47 starts a chute
    assert "33 \u2192" in ex.readout
    note = jump_explorer._skipped(100, 1)                      # the page's line (maths/jump_math.js)
    assert "skip" in note and "shorter" not in note
    short = JumpExplorer(min_length=5)
    short.jump_from.value = 30
    assert 32 not in [v for _, v in short.jump_to.options]
    assert "shorter than 5 squares" in jump_explorer._skipped(100, 5)
    with pytest.raises(ValueError, match="min_length=200"):
        JumpExplorer(min_length=200)
    with pytest.raises(ValueError, match="min_length must be a whole number"):
        JumpExplorer(min_length=2.5)


# --------------------------------------------------------------------------- race
def test_race_explorer():
    """The explorer computes and draws in the page (tests/test_race_explorer_browser.py,
    tests/js/race_math.test.mjs); Python holds the board and the squares, synced to the page,
    checks them with the library and gives its numbers."""
    import anywidget
    import traitlets

    from chutes_edu.board import board_to_json
    from chutes_edu.widgets import race_explorer

    ex = RaceExplorer()
    assert isinstance(ex, anywidget.AnyWidget)
    state = ex.get_state()
    assert state["positions"] == [0, 0]
    assert state["board_json"] == board_to_json(MILTON_BRADLEY_1943)
    assert ex.players.min == 2 and ex.players.max == 6
    assert len(ex.squares) == 2
    assert np.allclose(ex.probabilities, win_probabilities(MILTON_BRADLEY_1943, [0, 0]))
    ex.players.value = 4
    assert len(ex.squares) == 4
    ex.squares[2].value = 30
    ex.squares[3].value = 50
    assert ex.get_state()["positions"] == [0, 0, 30, 50]
    expected = win_probabilities(MILTON_BRADLEY_1943, [0, 0, 30, 50])
    assert np.allclose(ex.probabilities, expected)
    ex.players.value = 2
    assert len(ex.squares) == 2 and ex.probabilities.size == 2
    ex.players.value = 4                                  # seats come back on their squares
    assert ex.positions == [0, 0, 30, 50]
    # a square off the board, or too many players, is refused in words and the state kept
    with pytest.raises(traitlets.TraitError, match=r"position of player 1 101 is off the board"):
        ex.squares[1].value = 101
    assert ex.positions == [0, 0, 30, 50] and "off the board" in ex.last_error
    with pytest.raises(traitlets.TraitError, match="a race has 2 to 6 players, not 7"):
        ex.positions = [0] * 7
    with pytest.raises(ValueError, match="a race has 2 to 6 players, not 1"):
        ex.players.value = 1
    with pytest.raises(ValueError, match="does not handle traps"):
        RaceExplorer(Board({1: 38}, traps=(5,)))
    assert RaceExplorer(players=9).players.value == race_explorer.MAX_PLAYERS


def test_race_reproduces_seed_004():
    ex = RaceExplorer(NOORDENBOS_2023, players=6)
    for slider, square in zip(ex.squares, (14, 60, 31, 26, 48, 48), strict=True):
        slider.value = square
    chances = [f"{p:.4f}" for p in ex.probabilities]
    assert "0.1328" in chances and "0.2318" in chances


# --------------------------------------------------------------------------- every explorer
# (every explorer draws its pictures in the page: their size, words and legends are checked in
# Chromium by tests/test_<name>_explorer_browser.py and tests/test_browser.py)


@pytest.mark.parametrize("explorer", ["BoardExplorer", "CoinFlipExplorer", "SimulationExplorer",
                                      "JumpExplorer", "RaceExplorer", "PolicyExplorer",
                                      "DesignExplorer"])
def test_an_explorer_that_cannot_be_drawn_says_what_it_is_not_its_repr(explorer):
    import chutes_edu

    widget = getattr(chutes_edu, explorer)()
    bundle = widget._repr_mimebundle_()
    if isinstance(bundle, tuple):                   # an anywidget's (data, metadata)
        bundle = bundle[0]
    text = bundle["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in bundle      # still a live widget
    assert text.endswith("run this cell to use it.") and "explorer" in text.lower()
    assert "children=" not in text and "(" not in text.split(":")[0]
