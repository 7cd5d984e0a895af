"""Alt text (issue 11) and traps on the board picture.

Every picture says what it shows, in a sentence computed from what it draws; IPython attaches it to
the figure's output as ``{"image/png": {"alt": ...}}`` (checked with a shell here, and end to end
with a kernel run by nbclient); the widgets put it on their pictures' alt text.
"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import chutes_edu  # noqa: E402
from chutes_edu import (  # noqa: E402
    AIMING_GAME_2021,
    MILTON_BRADLEY_1943,
    Board,
    BoardExplorer,
    control,
    describe,
    draw_board,
    draw_policy,
    expected_turns,
    jump_effects,
    plot_convergence,
    plot_distribution,
    plot_jump_effects,
    plot_policy_profile,
    plot_win_probabilities,
    simulate,
    turn_distribution,
    win_probabilities,
)
from chutes_edu.plots import TRAP_COLOR, description, register_alt_text  # noqa: E402

MB = MILTON_BRADLEY_1943
VOLCANO = Board({3: 7}, size=10, die=3, traps=[6, 8], name="volcano")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# --------------------------------------------------------------------------- describe
def test_describe_a_hand_made_figure():
    fig, ax = plt.subplots()
    assert description(fig) == ""                       # nothing said until described
    describe(ax, "  A parabola.  ")
    assert description(fig) == description(ax) == "A parabola."
    describe(ax, "A line.")                              # the last description of an axes wins
    assert description(fig) == "A line."
    describe(ax, "")
    assert description(fig) == ""


def test_a_figure_joins_its_axes_descriptions_unless_described_itself():
    fig, (left, right) = plt.subplots(1, 2)
    describe(right, "Right.")
    describe(left, "Left.")
    assert description(fig) == "Left. Right."           # in drawing order, not call order
    describe(fig, "Both panels.")
    assert description(fig) == "Both panels."
    assert description(left) == "Left."


def test_describe_checks_its_arguments():
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="figure or axes"):
        describe("not a figure", "text")  # the wrong type, on purpose
    with pytest.raises(ValueError, match="str"):
        describe(ax, 3)  # the wrong type, on purpose


def test_describe_is_exported():
    assert "describe" in chutes_edu.__all__ and chutes_edu.describe is describe


# --------------------------------------------------------------------------- every picture
def test_board_description_counts_jumps_and_the_colour_range():
    turns = expected_turns(MB)
    ax = draw_board(MB, turns, label="expected turns to finish", tokens=[0, 5])
    text = description(ax.figure)
    assert text.startswith("The 100-square board 'Milton Bradley 1943'")
    assert "9 ladders (solid blue arrows) and 10 chutes (dashed orange arrows)" in text
    assert f"from 0 to {turns.max():.3g}" in text and f"{turns[0]:.3g} at the start" in text
    assert "player 1 on square 0, player 2 on square 5" in text
    assert "trap" not in text


def test_board_description_follows_the_painter():
    ax = draw_board(MB, expected_turns(MB))
    painter = ax._chutes_edu_painter
    painter.set_values(expected_turns(MB.replace(die=7)))
    assert f"{expected_turns(MB.replace(die=7))[0]:.3g} at the start" in description(ax.figure)


def test_distribution_description_has_mean_median_mode():
    pmf = turn_distribution(MB)
    k = np.arange(pmf.size)
    text = description(plot_distribution(pmf).figure)
    mean, median = k @ pmf / pmf.sum(), int(np.searchsorted(np.cumsum(pmf), 0.5 * pmf.sum()))
    assert (median, int(np.argmax(pmf))) == (32, 22)
    assert text.startswith("Game length distribution: bars show the probability P(T = k)")
    assert f"mean {mean:.2f} turns" in text and "median 32 turns" in text
    assert "mode 22 turns" in text and "P(T ≤ k)" in text
    assert "P(T ≤ k)" not in description(plot_distribution(pmf, cumulative=False).figure)


def test_convergence_description_has_the_samples_and_the_means():
    turns = simulate(MB, 2000, seed=1)
    exact = float(expected_turns(MB)[0])
    text = description(plot_convergence(turns, exact, cap=50).figure)
    assert "2,000 games" in text and f"{turns.mean():.3f} turns" in text
    assert f"exact value {exact:.4f} turns" in text
    assert f"capped at 50 turns (dash-dotted line) the mean ends at " \
           f"{np.minimum(turns, 50).mean():.3f}" in text


def test_jump_effects_description_names_the_best_and_worst_jump():
    effects, baseline = jump_effects(MB), float(expected_turns(MB)[0])
    text = description(plot_jump_effects(effects, baseline).figure)
    change = effects - baseline
    a, b = np.unravel_index(np.nanargmin(change), change.shape)
    assert f"{np.nanmin(change):+.2f} turns (the ladder {a} -> {b})" in text
    assert f"{np.nanmax(change):+.2f} turns" in text
    from chutes_edu.plots import surprising_jumps
    assert f"{int(surprising_jumps(effects, baseline).sum())} hatched squares" in text


def test_win_description_lists_every_seat():
    p = win_probabilities(MB, [0, 0, 0])
    text = description(plot_win_probabilities(p).figure)
    assert all(f"seat {i + 1} {p[i]:.3f}" in text for i in range(3))
    assert "fair share 1/3" in text


def test_policy_pictures_are_described():
    accuracy = (0.25, 0.5, 0.25)
    result = control.value_iteration(AIMING_GAME_2021, accuracy, discount=0.9)
    best = control.optimal_policy(AIMING_GAME_2021, accuracy)
    ax = draw_policy(AIMING_GAME_2021, result.policy, result.values)
    text = description(ax.figure)
    assert "ladders" in text and "target the policy aims at" in text
    top, _ = plot_policy_profile(result.values, result.policy, best.policy)
    differ = int(np.sum(result.policy != best.policy))
    assert f"differ on {differ} square" in description(top.figure)


# --------------------------------------------------------------------------- traps
def test_traps_are_marked_without_relying_on_colour():
    ax = draw_board(VOLCANO)
    traps = [c for c in ax.collections if isinstance(c, PolyCollection) and c.get_gid() == "traps"]
    assert len(traps) == 1 and len(traps[0].get_paths()) == 2
    assert traps[0].get_hatch() == "xx"                  # a pattern, not only a colour
    centres = [p.vertices[:4].mean(axis=0) for p in traps[0].get_paths()]
    from chutes_edu.plots import square_center
    assert np.allclose(centres, [square_center(6, 10), square_center(8, 10)])
    assert np.allclose(traps[0].get_facecolor()[0, :3], matplotlib.colors.to_rgb(TRAP_COLOR))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "trap (game ends)" in labels
    assert "2 traps where the game ends on squares 6 and 8" in description(ax.figure)


def test_numbers_on_traps_are_light_on_dark():
    ax = draw_board(VOLCANO, expected_turns(VOLCANO))
    painter = ax._chutes_edu_painter
    assert not painter.light[5] and not painter.light[7]      # squares 6 and 8
    assert np.allclose(painter.numbers.get_facecolor()[5, :3], 1.0)


def test_a_board_without_traps_has_no_trap_marks():
    ax = draw_board(MB)
    traps = [c for c in ax.collections if c.get_gid() == "traps"]
    assert len(traps[0].get_paths()) == 0
    assert "trap (game ends)" not in [t.get_text() for t in ax.get_legend().get_texts()]


def test_board_explorer_shows_traps():
    # (the page draws the traps and says "squares 6 and 8" in the library's words:
    # tests/js/board_explorer_math.test.mjs holds describeBoard equal to draw_board's alt text)
    ex = BoardExplorer(VOLCANO)
    assert ex.get_state()["board_json"]["traps"] == [6, 8]
    ex.die.value = 4
    assert ex.get_state()["board_json"]["traps"] == [6, 8] and ex.board.faces == 4


# --------------------------------------------------------------------------- IPython
@pytest.fixture
def shell():
    pytest.importorskip("IPython")
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.core.pylabtools import select_figure_formats
    shell = InteractiveShell.instance()
    select_figure_formats(shell, {"png"})
    assert register_alt_text(shell)
    yield shell
    InteractiveShell.clear_instance()


def _fig_with_text() -> Figure:
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([0, 1])
    describe(ax, "A rising line.")
    return fig


def test_the_formatter_attaches_the_alt_text_and_keeps_the_png(shell):
    data, metadata = shell.display_formatter.format(_fig_with_text())
    assert data["image/png"]
    assert metadata["image/png"]["alt"] == "A rising line."


def test_jupyterlab_gets_an_img_with_the_alt_text_and_the_same_picture(shell, monkeypatch):
    """JupyterLab and Voila draw the HTML (they ignore a PNG's metadata): an <img alt>."""
    import base64
    import re

    from chutes_edu.plots import alt_text
    drawn = []
    printer = alt_text._wrap_png_printer(shell)
    original = printer.printer
    monkeypatch.setattr(printer, "printer", lambda fig: drawn.append(fig) or original(fig))
    fig = _fig_with_text()
    describe(fig, 'A line "up" & <right>.')
    data, _ = shell.display_formatter.format(fig)
    tag = data["text/html"]
    assert re.fullmatch(r'<img alt="[^"]*" src="data:image/png;base64,[A-Za-z0-9+/=]+">', tag)
    assert 'alt="A line &quot;up&quot; &amp; &lt;right&gt;."' in tag
    png = data["image/png"]
    png = png if isinstance(png, bytes) else base64.b64decode(png)
    assert base64.b64decode(tag.split("base64,")[1].rstrip('">')) == png   # one picture ...
    assert len(drawn) == 1                                                   # ... drawn once


def test_a_figure_without_a_description_is_unchanged(shell):
    fig, ax = plt.subplots(figsize=(2, 2))
    data, metadata = shell.display_formatter.format(fig)
    assert data["image/png"] and "image/png" not in metadata and "text/html" not in data


def test_retina_figures_keep_size_and_alt_text(shell):
    from IPython.core.pylabtools import select_figure_formats
    select_figure_formats(shell, {"retina"})              # a new PNG formatter, after ours
    data, metadata = shell.display_formatter.format(_fig_with_text())
    assert data["image/png"]
    assert metadata["image/png"]["alt"] == "A rising line."
    assert metadata["image/png"]["width"] > 0             # the retina formatter's own metadata
    width = metadata["image/png"]["width"]
    assert f'width="{width}"' in data["text/html"]        # shown at its size, not doubled


def test_a_notebook_output_carries_alt_text_and_the_picture(tmp_path):
    """End to end: a kernel (inline backend) runs a small notebook; nbclient reads its outputs."""
    import html

    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    cells = ["import matplotlib.pyplot as plt\n"
             "from chutes_edu import MILTON_BRADLEY_1943, describe, draw_board",
             "draw_board(MILTON_BRADLEY_1943)\nplt.show()",
             "fig, ax = plt.subplots()\nax.plot([1, 2])\nplt.show()",
             "fig, ax = plt.subplots()\nax.plot([1, 2])\ndescribe(ax, 'A line.')\n"
             "plt.close(fig)\nfig",
             "draw_board(MILTON_BRADLEY_1943);"]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nbclient.NotebookClient(nb, timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    images = [[o for o in cell.outputs if "image/png" in o.get("data", {})] for cell in nb.cells]
    assert [len(i) for i in images] == [0, 1, 1, 1, 1]
    board = "The 100-square board 'Milton Bradley 1943' with 9 ladders"
    for i, alt in ((1, board), (3, "A line."), (4, board)):
        output = images[i][0]
        assert output.metadata["image/png"]["alt"].startswith(alt)
        assert len(output.data["image/png"]) > 1000           # the picture is still there
        assert output.data["text/html"].startswith(                        # what JupyterLab shows
            f'<img alt="{html.escape(alt, quote=True)}')
    assert "image/png" not in images[2][0].get("metadata", {})   # no description: unchanged


# --------------------------------------------------------------------------- widgets
def test_a_matrix_is_typeset_in_a_region_the_keyboard_reaches(shell):
    """JupyterLab's LaTeX box scrolls without being focusable (axe: scrollable-region-focusable)."""
    import sympy as sp

    from chutes_edu.plots.matrices import register_matrix_display
    assert register_matrix_display(shell)
    data, _ = shell.display_formatter.format(sp.Matrix([[sp.Rational(1, 3), 0], [1, 2]]))
    tag = data["text/html"]
    assert 'role="region" tabindex="0"' in tag and "mathjax_process" in tag
    assert 'aria-label="a 2 by 2 matrix; its rows: 1/3, 0; 1, 2"' in tag
    assert "$$\\left[\\begin{matrix}\\frac{1}{3} &amp; 0" in tag
    assert data["text/latex"] and data["text/plain"]          # still there for other readers
    big = shell.display_formatter.format(sp.zeros(10, 10))[0]["text/html"]
    assert 'aria-label="a 10 by 10 matrix"' in big
