"""The pictures: each function returns its axes with the expected artists (not pixels)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import PathCollection, PolyCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.image import AxesImage  # noqa: E402
from matplotlib.patches import FancyArrowPatch, Rectangle  # noqa: E402

from chutes_edu import (  # noqa: E402
    MILTON_BRADLEY_1943,
    NOORDENBOS_2023,
    Board,
    draw_board,
    expected_turns,
    fundamental_matrix,
    jump_effects,
    plot_convergence,
    plot_distribution,
    plot_jump_effects,
    plot_win_probabilities,
    simulate,
    turn_distribution,
    win_probabilities,
)
from chutes_edu.plots import board_grid, square_center, surprising_jumps  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _axes():
    return Figure().add_subplot()


def _cells(ax):
    found = [c for c in ax.collections if c.get_gid() == "cells"]
    assert len(found) == 1
    return found[0]


def _arrows(ax):
    return [p for p in ax.patches if isinstance(p, FancyArrowPatch)]


# --------------------------------------------------------------------------- geometry
def test_grid_is_ten_by_ten_for_a_hundred_squares():
    assert board_grid(100) == (10, 10)
    assert board_grid(30) == (5, 6)
    assert board_grid(2) == (1, 2)


def test_serpentine_numbering_as_on_the_printed_board():
    assert square_center(1, 100) == (0.5, 0.5)        # bottom left
    assert square_center(10, 100) == (9.5, 0.5)
    assert square_center(11, 100) == (9.5, 1.5)       # the second row runs right to left
    assert square_center(20, 100) == (0.5, 1.5)
    assert square_center(100, 100) == (0.5, 9.5)      # top left
    assert square_center(0, 100)[0] < 0               # square 0 is off the board
    with pytest.raises(ValueError):
        square_center(101, 100)


# --------------------------------------------------------------------------- the board
def test_board_has_one_cell_per_square_and_one_arrow_per_jump():
    board = MILTON_BRADLEY_1943
    ax = draw_board(board, ax=_axes())
    cells = _cells(ax)
    assert isinstance(cells, PolyCollection)
    assert len(cells.get_paths()) == board.size
    numbers = [c for c in ax.collections if c.get_gid() == "numbers"]
    assert len(numbers) == 1 and len(numbers[0].get_paths()) == board.size
    arrows = _arrows(ax)
    assert len(arrows) == len(board.jumps) == 19
    assert ax.get_title() == board.name
    assert ax.figure.axes == [ax]                     # no values, no colour bar


def test_ladders_and_chutes_differ_without_colour():
    ax = draw_board(MILTON_BRADLEY_1943, ax=_axes())
    ladders = [a for a in _arrows(ax) if a.get_gid().startswith("ladder")]
    chutes = [a for a in _arrows(ax) if a.get_gid().startswith("chute")]
    assert len(ladders) == 9 and len(chutes) == 10
    assert {a.get_linestyle() for a in ladders} == {"-"}
    assert "-" not in {a.get_linestyle() for a in chutes}               # dashed
    assert {type(a.get_arrowstyle()) for a in ladders}.isdisjoint(
        {type(a.get_arrowstyle()) for a in chutes})                     # different heads
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("ladder" in t for t in labels) and any("chute" in t for t in labels)


def test_arrows_join_source_and_destination():
    ax = draw_board(Board({3: 12, 9: 2}, size=16, die=3), ax=_axes())
    ladder = next(a for a in _arrows(ax) if a.get_gid() == "ladder 3->12")
    (x0, y0), (x1, y1) = ladder._posA_posB
    assert np.hypot(x0 - square_center(3, 16)[0], y0 - square_center(3, 16)[1]) < 0.2
    assert np.hypot(x1 - square_center(12, 16)[0], y1 - square_center(12, 16)[1]) < 0.2


def test_heat_map_has_a_colour_bar_and_values_per_square():
    board = MILTON_BRADLEY_1943
    turns = expected_turns(board)
    ax = draw_board(board, turns, ax=_axes(), label="expected turns (turns)")
    cells = _cells(ax)
    assert np.allclose(cells.get_array(), turns[1:])
    assert len(ax.figure.axes) == 2                     # the colour bar
    assert ax.figure.axes[1].get_ylabel() == "expected turns (turns)"


def test_heat_map_accepts_a_row_of_the_fundamental_matrix():
    board = MILTON_BRADLEY_1943
    visits = fundamental_matrix(board)[0]               # squares 0..99
    ax = draw_board(board, visits, ax=_axes(), label="expected visits")
    arr = _cells(ax).get_array()
    assert arr.size == 100 and np.ma.is_masked(arr[-1])  # square 100: no value
    with pytest.raises(ValueError, match="one entry per square"):
        draw_board(board, np.ones(7), ax=_axes())


def test_tokens_one_distinct_marker_per_player():
    ax = draw_board(MILTON_BRADLEY_1943, ax=_axes(), tokens=[0, 38, 38, 99])
    tokens = [line for line in ax.lines if (line.get_gid() or "").startswith("token")]
    assert len(tokens) == 4
    assert len({t.get_marker() for t in tokens}) == 4
    # two players on square 38 do not hide each other
    assert tokens[1].get_xydata().tolist() != tokens[2].get_xydata().tolist()
    with pytest.raises(ValueError, match="off the board"):
        draw_board(MILTON_BRADLEY_1943, ax=_axes(), tokens=[101])


@pytest.mark.parametrize("square", [48, 0])
@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_tokens_that_share_a_square_leave_its_number_and_each_other_clear(k, square):
    """As the lesson draws it (draw_board's own figure): two to six tokens on one square sit
    below its number (on the start, above the word "start"), in seat order, none over another."""
    ax = draw_board(NOORDENBOS_2023, tokens=[square] * k)
    ax.figure.canvas.draw()                             # the constrained layout's places
    renderer = ax.figure.canvas.get_renderer()
    boxes = [line.get_window_extent(renderer) for line in ax.lines
             if (line.get_gid() or "").startswith("token")]
    assert len(boxes) == k
    for a in range(k):
        for b in range(a + 1, k):
            assert not boxes[a].overlaps(boxes[b]), (a + 1, b + 1)
    if square:
        numbers = next(c for c in ax.collections if c.get_gid() == "numbers")
        words = numbers.get_paths()[square - 1].get_extents(ax.transData)
    else:
        words = next(text for text in ax.texts if text.get_text() == "start").get_window_extent(renderer)
    assert not [i + 1 for i, box in enumerate(boxes) if box.overlaps(words)]
    rows = sorted({round(box.y0) for box in boxes}, reverse=True)
    order = sorted(range(k), key=lambda i: (rows.index(round(boxes[i].y0)), boxes[i].x0))
    assert order == list(range(k))                      # reading order: seat 1 top left
    plt.close(ax.figure)


def test_other_sizes_use_a_near_square_grid():
    board = Board({3: 22, 27: 5}, size=30, die=4)
    ax = draw_board(board, expected_turns(board), ax=_axes())
    assert len(_cells(ax).get_paths()) == 30
    assert len(_arrows(ax)) == 2


def test_draw_board_without_axes_makes_a_figure():
    ax = draw_board(MILTON_BRADLEY_1943, title="my board")
    assert ax.get_title() == "my board"


def test_painter_updates_in_place():
    ax = draw_board(MILTON_BRADLEY_1943, expected_turns(MILTON_BRADLEY_1943), ax=_axes())
    painter = ax._chutes_edu_painter
    smaller = MILTON_BRADLEY_1943.without_jump(47)
    painter.set_jumps(dict(smaller.jumps))
    assert len(_arrows(ax)) == 18
    painter.set_values(expected_turns(smaller))
    assert np.allclose(_cells(ax).get_array(), expected_turns(smaller)[1:])


# --------------------------------------------------------------------------- game length
def test_distribution_marks_mean_median_mode():
    pmf = turn_distribution(MILTON_BRADLEY_1943)
    ax = plot_distribution(pmf, ax=_axes())
    assert "turns" in ax.get_xlabel()
    assert ax.get_title()
    labels = [t.get_text() for t in ax.figure.axes[1].get_legend().get_texts()]
    assert labels == ["P(T = k)", "P(T ≤ k)", "mean", "median", "mode"]
    summary = next(t for t in ax.figure.axes[1].texts if t.get_gid() == "summary").get_text()
    mean = float(np.arange(pmf.size) @ pmf)
    assert f"mean {mean:.2f} turns" in summary
    assert "median 32 turns" in summary and "mode 22 turns" in summary
    lines = {line.get_label(): line.get_xdata()[0] for line in ax.lines}
    assert lines["mean"] == pytest.approx(mean) and lines["mode"] == 22
    assert len(ax.figure.axes) == 2                     # the twin axis with the cdf
    cdf_line = ax.figure.axes[1].lines[0]
    assert cdf_line.get_ydata()[-1] == pytest.approx(1.0, abs=1e-9)


def test_distribution_without_cdf():
    ax = plot_distribution(turn_distribution(MILTON_BRADLEY_1943), ax=_axes(), cumulative=False,
                           title="pmf")
    assert len(ax.figure.axes) == 1 and ax.get_title() == "pmf"
    with pytest.raises(ValueError):
        plot_distribution([], ax=_axes())


# --------------------------------------------------------------------------- Monte Carlo
def test_convergence_has_mean_band_and_exact_line():
    turns = simulate(MILTON_BRADLEY_1943, 3000, seed=1)
    exact = float(expected_turns(MILTON_BRADLEY_1943)[0])
    ax = plot_convergence(turns, exact, ax=_axes())
    assert ax.get_xscale() == "log"
    assert "turns" in ax.get_ylabel()
    assert len(ax.collections) == 1                     # the confidence band
    exact_line = next(line for line in ax.lines if line.get_label().startswith("exact"))
    assert exact_line.get_ydata()[0] == pytest.approx(exact)
    assert np.isclose(ax.lines[0].get_ydata()[-1], turns.mean())
    assert not any(line.get_visible() and line.get_label().startswith("capped")
                   for line in ax.lines)


def test_convergence_with_a_cap_shows_the_biased_mean():
    turns = simulate(MILTON_BRADLEY_1943, 2000, seed=2)
    ax = plot_convergence(turns, 39.2, ax=_axes(), cap=50)
    capped = next(line for line in ax.lines if line.get_label().startswith("capped"))
    assert capped.get_visible()
    assert capped.get_ydata()[-1] == pytest.approx(np.minimum(turns, 50).mean())


def test_convergence_thins_long_runs_but_ends_on_the_last_sample():
    turns = simulate(MILTON_BRADLEY_1943, 200_000, seed=3)
    ax = plot_convergence(turns, ax=_axes())
    x = ax.lines[0].get_xdata()
    assert len(x) < 10_000 and x[-1] == 200_000
    assert ax.lines[0].get_ydata()[-1] == pytest.approx(turns.mean())


# --------------------------------------------------------------------------- added jumps
def test_jump_effects_heat_map():
    board = MILTON_BRADLEY_1943
    effects = jump_effects(board)
    baseline = float(expected_turns(board)[0])
    ax = plot_jump_effects(effects, baseline, ax=_axes())
    images = [im for im in ax.get_images() if isinstance(im, AxesImage)]
    assert len(images) == 1
    data = images[0].get_array()
    assert data.shape == effects.shape
    assert np.ma.is_masked(data[0, 5])                   # NaN (source 0) left blank
    assert data[29, 27] == pytest.approx(effects[29, 27] - baseline)   # row a, column b
    norm = images[0].norm
    assert norm.vcenter == 0                             # diverging, centred at zero
    assert ax.get_xlabel().startswith("destination") and ax.get_ylabel().startswith("source")
    assert len(ax.figure.axes) == 2                      # colour bar
    hatched = [c for c in ax.collections if c.get_gid() == "surprises"]
    assert len(hatched) == 1
    assert len(hatched[0].get_paths()) == int(surprising_jumps(effects, baseline).sum())


def test_surprising_jumps():
    effects = np.full((4, 4), np.nan)
    effects[1, 3] = 11.0    # a ladder that lengthens
    effects[2, 1] = 9.0     # a chute that shortens
    effects[1, 2] = 9.0     # a ladder that shortens: no surprise
    mask = surprising_jumps(effects, 10.0)
    assert mask.tolist() == [[False] * 4, [False, False, False, True],
                             [False, True, False, False], [False] * 4]


# --------------------------------------------------------------------------- races
def test_win_probabilities_bars():
    probs = win_probabilities(NOORDENBOS_2023, [14, 60, 31, 26, 48, 48])
    ax = plot_win_probabilities(probs, ax=_axes())
    bars = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert len(bars) == 6
    assert [b.get_height() for b in bars] == pytest.approx(list(probs))
    assert len({b.get_hatch() for b in bars}) == 6       # differ without colour
    assert [t.get_text() for t in ax.get_xticklabels()][0] == "seat 1"
    assert ax.get_ylabel() == "probability of winning"


def test_win_probabilities_labels_checked():
    ax = plot_win_probabilities([0.6, 0.4], ax=_axes(), labels=["Ann", "Bo"], title="t")
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Ann", "Bo"]
    with pytest.raises(ValueError):
        plot_win_probabilities([0.6, 0.4], ax=_axes(), labels=["one"])


@pytest.mark.parametrize("lines", [1, 2, 3])
def test_win_probabilities_legend_clears_the_axis_label(lines):
    """Lesson 8's race chart names each seat on two lines ("seat 1\nsquare 14"): the legend
    sits below those tick labels and the x label, overlapping neither (it overlapped the label)."""
    squares = [14, 60, 31, 26, 48, 48]
    labels = ["\n".join([f"seat {i}", *[f"square {sq}"] * (lines - 1)])
              for i, sq in enumerate(squares, start=1)]
    ax = plot_win_probabilities(win_probabilities(NOORDENBOS_2023, squares), labels=labels)
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legend = ax.get_legend().get_window_extent(renderer)
    label = ax.xaxis.label.get_window_extent(renderer)
    ticks = [t.get_window_extent(renderer) for t in ax.get_xticklabels()]
    assert not legend.overlaps(label), (legend, label)
    assert legend.y1 <= label.y0 + 0.5
    assert all(legend.y1 <= t.y0 for t in ticks)
    assert label.y1 <= min(t.y0 for t in ticks) + 0.5


def test_every_picture_returns_the_axes_it_was_given():
    board = MILTON_BRADLEY_1943
    for draw in (lambda ax: draw_board(board, ax=ax),
                 lambda ax: plot_distribution(turn_distribution(board), ax=ax),
                 lambda ax: plot_convergence(simulate(board, 100, seed=0), ax=ax),
                 lambda ax: plot_jump_effects(jump_effects(board), 39.2, ax=ax),
                 lambda ax: plot_win_probabilities([0.5, 0.5], ax=ax)):
        ax = _axes()
        assert draw(ax) is ax


def test_paths_are_rendered_without_error():
    """Render every picture once on Agg (catches drawing-time errors, not pixels)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    board = MILTON_BRADLEY_1943
    fig = Figure(figsize=(12, 8))
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, 3).ravel()
    draw_board(board, expected_turns(board), ax=axes[0], tokens=[0, 5])
    plot_distribution(turn_distribution(board), ax=axes[1])
    plot_convergence(simulate(board, 500, seed=0), 39.2, ax=axes[2], cap=40)
    plot_jump_effects(jump_effects(board), 39.2, ax=axes[3])
    plot_win_probabilities([0.5, 0.3, 0.2], ax=axes[4])
    fig.canvas.draw()
    assert isinstance(axes[0].collections[1], PathCollection)
