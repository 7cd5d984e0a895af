"""The widgets, headless: set ``.value`` on controls, check readouts, messages and pictures."""

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
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
from chutes_edu.widgets.controls import IntSlider  # noqa: E402

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
    ex = explorer
    assert isinstance(ex, widgets.VBox)
    assert ex.board == MILTON_BRADLEY_1943
    assert "39.2251" in ex.readout.value
    assert ex.message.value == ""
    assert list(ex.preset.options) == list(PRESETS)
    assert (ex.die.min, ex.die.max, ex.die.value) == (2, 20, 6)
    assert tuple(ex.overshoot.options) == OVERSHOOT_RULES
    assert ex.bonus.value is None and None in [v for _, v in ex.bonus.options]
    assert isinstance(ex.jump_from, widgets.BoundedIntText)
    assert isinstance(ex.jump_to, widgets.BoundedIntText)
    assert isinstance(ex.add_jump, widgets.Button) and isinstance(ex.remove_jump, widgets.Button)
    assert len(ex.jump_list.options) == 19
    assert bytes(ex.board_image.value).startswith(PNG)
    assert bytes(ex.distribution_image.value).startswith(PNG)


def test_die_size_changes_the_readout(fresh):
    ex = fresh
    before = bytes(ex.board_image.value), bytes(ex.distribution_image.value)
    ex.die.value = 2
    assert "60.7626" in ex.readout.value
    assert ex.board.faces == 2 and ex.message.value == ""
    assert bytes(ex.board_image.value) != before[0]
    assert bytes(ex.distribution_image.value) != before[1]
    ex.die.value = 7
    assert "34.6966" in ex.readout.value
    ex.die.value = 3
    assert "65.9008" in ex.readout.value           # seed 002: a 3-sided die is slower than 2
    ex.die.value = 6
    assert "39.2251" in ex.readout.value
    assert ex.board == MILTON_BRADLEY_1943


def test_invalid_jump_shows_the_message_and_keeps_the_board(fresh):
    ex = fresh
    ex.die.value = 5
    readout, board = ex.readout.value, ex.board
    ex.jump_from.value, ex.jump_to.value = 30, 1       # 1 is the source of the ladder 1->38
    ex.add_jump.click()
    assert "chained jumps" in ex.message.value and "30->1" in ex.message.value
    assert "chained jumps" in ex.last_error
    assert ex.board == board and ex.readout.value == readout
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
    ex = fresh
    before = bytes(ex.board_image.value)
    ex.heat.value = "visits"
    assert "visits" in ex._board_painter.colorbar.ax.get_ylabel()
    assert bytes(ex.board_image.value) != before
    assert "39.2251" in ex.readout.value


def test_heat_map_after_k_turns(fresh):
    ex = fresh
    assert ex.after_turns.layout.display == "none"          # only shown for this heat map
    ex.heat.value = "after"
    assert ex.after_turns.layout.display != "none"
    assert "after k turns" in ex._board_painter.colorbar.ax.get_ylabel()
    before = bytes(ex.board_image.value)
    ex.after_turns.value = 3
    assert bytes(ex.board_image.value) != before
    assert "39.2251" in ex.readout.value


def test_going_back_to_a_board_reuses_the_cached_results(fresh):
    ex = fresh
    ex.die.value = 4
    first = ex.board
    ex.die.value = 6
    ex.die.value = 4
    assert ex.board is first                           # the same instance: its caches reused


def test_unexpected_errors_never_escape(fresh, monkeypatch):
    ex = fresh

    def broken(board):
        raise RuntimeError("boom")

    monkeypatch.setattr(board_explorer, "turn_distribution", broken)
    ex.die.value = 9                                    # must not raise
    assert "unexpected error" in ex.message.value and "boom" in ex.message.value


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


def test_coin_flip_explorer_front_end_is_one_module_with_its_maths():
    from chutes_edu.widgets import coin_explorer

    source = coin_explorer.module_source()
    assert CoinFlipExplorer._esm == source
    for module in ("coin_math.js", "convergence_chart.js", "explorer_ui.js", "board_math.js",
                   "coin_explorer.js"):
        assert source.count(f"// {module}, bundled by") == 1, module
    assert "window.ChutesCoinExplorer = { mount:" in coin_explorer.script_source()
    assert ".chutes-coin-explorer" in coin_explorer.style_source()


# --------------------------------------------------------------------------- simulation
def test_simulation_explorer_runs_headless():
    ex = SimulationExplorer(n_games=2000)
    assert ex.turns.size == 2000 and ex.progress.value == 100
    assert "39.2251" in ex.readout.value
    assert isinstance(ex.progress, (widgets.IntProgress, widgets.FloatProgress))
    ex.n_games.value = 5000
    ex.seed.value = 3
    turns = ex.run_simulation()
    assert turns.size == 5000 and ex.progress.value == 100
    assert f"{turns.mean():.4f}" in ex.readout.value
    # the same seed plays the same games
    assert np.array_equal(turns, ex.run_simulation())


def test_simulation_button_and_cap():
    ex = SimulationExplorer(n_games=3000)
    ex.n_games.value = 4000
    ex.run.click()
    assert ex.turns.size == 4000
    assert "capped" not in ex.readout.value
    assert isinstance(ex.cap, IntSlider) and ex.cap.min == 0
    ex.cap.value = 60
    assert f"{capped_mean(ex.turns, 60):.4f}" in ex.readout.value
    assert ex.turns.size == 4000                       # the cap does not re-simulate
    ex.cap.value = 0
    assert "capped" not in ex.readout.value


def test_simulation_on_another_board():
    ex = SimulationExplorer(NOORDENBOS_2023, n_games=1000)
    assert _turns(NOORDENBOS_2023) in ex.readout.value
    assert ex.turns.min() >= 1
    assert simulate(NOORDENBOS_2023, 10, seed=0).dtype == ex.turns.dtype


# --------------------------------------------------------------------------- add a jump
def test_jump_explorer_reads_jump_effects():
    """The explorer computes and draws in the page (tests/test_jump_explorer_browser.py,
    tests/js/jump_math.test.mjs); Python holds the board and the jump, synced to the page,
    checks them with the library and gives its numbers."""
    import anywidget

    from chutes_edu.widgets.board_editor import board_to_json

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
    note = jump_explorer._skipped(100, 1)                      # the page's line (jump_math.js)
    assert "skip" in note and "shorter" not in note
    short = JumpExplorer(min_length=5)
    short.jump_from.value = 30
    assert 32 not in [v for _, v in short.jump_to.options]
    assert "shorter than 5 squares" in jump_explorer._skipped(100, 5)
    with pytest.raises(ValueError, match="min_length=200"):
        JumpExplorer(min_length=200)
    with pytest.raises(ValueError, match="min_length must be a whole number"):
        JumpExplorer(min_length=2.5)


def test_jump_explorer_front_end_is_one_module_with_its_maths():
    from chutes_edu.widgets import jump_explorer

    source = jump_explorer.module_source()
    assert JumpExplorer._esm == source
    for module in ("jump_math.js", "jump_chart.js", "explorer_ui.js", "board_math.js",
                   "editor_runner.js", "jump_explorer.js"):
        assert source.count(f"// {module}, bundled by") == 1, module
    assert "window.ChutesJumpExplorer = { mount:" in jump_explorer.script_source()
    assert ".chutes-jump-explorer" in jump_explorer.style_source()


# --------------------------------------------------------------------------- race
def test_race_explorer():
    """The explorer computes and draws in the page (tests/test_race_explorer_browser.py,
    tests/js/race_math.test.mjs); Python holds the board and the squares, synced to the page,
    checks them with the library and gives its numbers."""
    import anywidget
    import traitlets

    from chutes_edu.widgets import race_explorer
    from chutes_edu.widgets.board_editor import board_to_json

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


def test_race_explorer_front_end_is_one_module_with_its_maths():
    from chutes_edu.widgets import race_explorer

    source = race_explorer.module_source()
    assert RaceExplorer._esm == source
    for module in ("race_math.js", "race_chart.js", "explorer_ui.js", "board_math.js",
                   "race_explorer.js"):
        assert source.count(f"// {module}, bundled by") == 1, module
    assert "window.ChutesRaceExplorer = { mount:" in race_explorer.script_source()
    assert ".chutes-race-explorer" in race_explorer.style_source()


# --------------------------------------------------------------------------- every explorer
from matplotlib.collections import PathCollection  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from chutes_edu import PolicyExplorer, square_distribution  # noqa: E402

DIGIT_HEIGHT = 0.729      # DejaVu Sans digits are 0.729 em high


def _views(ex):
    """(FigureView, image) pairs of an explorer."""
    if isinstance(ex, BoardExplorer):
        return [ex.board_view, ex.distribution_view]
    return [ex.view]


def _png_size(data):
    data = bytes(data)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def _explorers():
    # (CoinFlipExplorer, RaceExplorer and JumpExplorer draw in the page, with no PNG:
    # tests/test_coin_explorer_browser.py, tests/test_race_explorer_browser.py,
    # tests/test_jump_explorer_browser.py)
    return {"board": BoardExplorer(),
            "simulation": SimulationExplorer(n_games=3000), "policy": PolicyExplorer()}


@pytest.fixture(scope="module")
def every():
    return _explorers()


def test_every_explorer_opens_valid(every):
    for name, ex in every.items():
        assert ex.message.value == "", name
        assert getattr(ex, "last_error", "") == "", name
        assert ex.readout.value, name


def test_images_are_shown_at_their_pixel_size(every):
    for name, ex in every.items():
        for view in _views(ex):
            image = view.image
            width, height = _png_size(image.value)
            assert (width, height) == view.size, name
            assert (image.width, image.height) == (width, height), name
            assert image.layout.width == f"{width}px"
            # never stretched by a flex container; shrunk only, keeping the aspect ratio (the
            # <img> itself: max-width 100%, height auto, in controls.css; the browser test sees it)
            assert image.layout.flex == "0 0 auto" and image.layout.align_self == "flex-start"
            assert image.layout.max_width == "100%"


def test_images_keep_their_size_after_a_change():
    policy = PolicyExplorer()
    policy.discount.value = 0.5
    assert _png_size(policy.image.value) == policy.view.size


def _glyph_font_px(collection):
    """The font size in pixels of glyph outlines in a PathCollection (from digit heights)."""
    if collection.get_offsets().size and collection.get_offset_transform() is not None \
            and len(collection.get_offsets()) == len(collection.get_paths()):
        scale = collection.get_transform().get_matrix()[1, 1]   # points -> pixels
        heights = [p.get_extents().height * scale for p in collection.get_paths()]
    else:
        to_px = collection.get_transform()
        heights = [p.get_extents(to_px).height for p in collection.get_paths()]
    return min(heights) / DIGIT_HEIGHT


def _smallest_text_px(figure):
    figure.canvas.draw()
    px = figure.dpi / 72
    sizes = [t.get_fontsize() * px for t in figure.findobj(Text)
             if t.get_visible() and t.get_text().strip()]
    glyphs = [_glyph_font_px(c) for c in figure.findobj(PathCollection)
              if c.get_gid() in ("numbers", "policy targets") and len(c.get_paths())]
    return min(sizes), glyphs


def test_smallest_text_is_11_px_at_display_size(every):
    every["board"].heat.value = "after"
    for name, ex in every.items():
        for view in _views(ex):
            # display size = PNG size (tested above), so figure pixels are page pixels
            smallest, glyphs = _smallest_text_px(view.figure)
            assert smallest >= 11.0, (name, smallest)
            assert all(g >= 11.0 for g in glyphs), (name, glyphs)
            if name in ("board", "policy") and view is _views(ex)[0]:
                assert glyphs, name                        # the square numbers were measured
    every["board"].heat.value = "turns"


def _points_inside(bbox, xy):
    return (bbox.x0 < xy[:, 0]) & (xy[:, 0] < bbox.x1) & (bbox.y0 < xy[:, 1]) & (xy[:, 1] < bbox.y1)


def test_convergence_legends_stay_off_the_data():
    sim = SimulationExplorer(n_games=5000)      # (the coin-flip explorer draws in the page)
    sim.cap.value = 60
    for ex in (sim,):
        figure = ex.view.figure
        figure.canvas.draw()
        ax = figure.axes[0]
        legend = ax.get_legend().get_window_extent()
        assert not legend.overlaps(ax.get_window_extent())       # below the axes: covers nothing
        for line in ax.get_lines():
            if line.get_visible() and len(line.get_xdata()):
                xy = line.get_transform().transform(line.get_xydata())
                assert not _points_inside(legend, xy[-50:]).any()   # the converged end
        assert not legend.overlaps(ax.xaxis.label.get_window_extent())


def test_distribution_legend_and_summary_stay_off_the_curves():
    ex = BoardExplorer()
    for die in (6, 2, 20):
        ex.die.value = die
        figure = ex.distribution_view.figure
        figure.canvas.draw()
        ax, twin = figure.axes[0], figure.axes[1]
        boxes = [twin.get_legend().get_window_extent(),
                 next(t for t in twin.texts if t.get_gid() == "summary").get_window_extent()]
        for box in boxes:
            for line in [*ax.get_lines()[:1], *twin.get_lines()]:          # pmf edge and cdf
                x, y = line.get_xdata(), line.get_ydata()
                keep = x <= ax.get_xlim()[1]
                xy = line.get_transform().transform(np.column_stack([x[keep], y[keep]]))
                assert not _points_inside(box, xy).any(), (die, line.get_label())


def test_jump_and_policy_legends_sit_below_their_axes(every):
    # (the race's and the jump's charts are drawn in the page: tests/test_race_explorer_browser.py,
    # tests/test_jump_explorer_browser.py)
    for figure in (every["policy"].view.figure,):
        figure.canvas.draw()
        for ax in figure.axes:
            legend = ax.get_legend()
            if legend is not None:
                assert not legend.get_window_extent().overlaps(ax.get_window_extent())


def test_square_numbers_are_drawn_after_the_arrows(every):
    """Blitting draws the dynamic artists in list order: the numbers must come after arrows."""
    # both draw the numbers as one picture (_NumberLayer), after the arrows
    policy, board = every["policy"]._painter, every["board"]
    for artists, painter, layer in ((policy.dynamic_artists(), policy.cells, policy._numbers),
                                    (board._board_artists(), board._board_painter,
                                     board._numbers)):
        order = {id(a): i for i, a in enumerate(artists)}
        assert painter.arrows
        assert max(order[id(a)] for a in painter.arrows) < order[id(layer)]
        assert id(painter.halo) not in order and id(painter.numbers) not in order
        assert painter.halo.get_animated() and painter.numbers.get_animated()  # not background


def test_the_number_picture_matches_drawing_the_numbers(fresh):
    """The board explorer's cached numbers give the picture drawing them gives (up to rounding)."""
    ex = fresh
    for die in (7, 3):
        ex.die.value = die
        fast = np.asarray(ex.board_view.canvas.buffer_rgba()).copy()
        painter, view = ex._board_painter, ex.board_view
        view.canvas.restore_region(view._backgrounds[None])   # as render does, but drawing
        for artist in [ex._board_ax.title, *painter.dynamic_artists()]:   # the numbers directly
            view.figure.draw_artist(artist)
        slow = np.asarray(view.canvas.buffer_rgba()).copy()
        difference = np.abs(fast.astype(int) - slow.astype(int))
        assert difference.max() <= 6                   # blending rounds twice: a few levels
        assert (difference.max(axis=2) > 0).mean() < 0.05
        assert not painter.light.all()                 # both shades are on the board


def test_after_k_turns_greys_the_final_square(fresh):
    ex = fresh
    ex.heat.value = "after"
    ex.after_turns.value = 30
    cells = ex._board_painter.cells.get_array()
    assert np.ma.is_masked(cells[-1])                  # square 100: grey, off the colour scale
    expected = square_distribution(MILTON_BRADLEY_1943, 30)
    assert np.allclose(cells[:-1], expected[1:-1])
    title = ex._board_ax.get_title()
    assert f"{expected[-1]:.3f} finished" in title and "100, grey" in title
    assert ex._board_painter.cells.get_clim()[1] < expected[-1]    # the scale ignores square 100


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
