r"""Pictures for the course: the board, game lengths, Monte Carlo convergence, added jumps, races.

Every function draws on an optional matplotlib ``ax`` (a new figure when it is None) and returns
the axes, so pictures can be combined and tested by their artists. The pictures only *show*
numbers computed by the core (:mod:`chutes_edu.markov`, :mod:`chutes_edu.simulation`); the few
summaries they mark are read straight off what they are given:

- the board is a serpentine grid: square 1 bottom left, each row reversing direction, so on a
  100-square board square 100 is top left, as on the printed board. Other sizes use a near-square
  grid of :math:`\lceil\sqrt n\,\rceil` columns. Square 0 (off the board, where tokens start) sits
  left of square 1;
- for a game-length distribution :math:`p_k = \Pr(T = k)`: the mean :math:`\sum_k k\,p_k`, the
  median (the first :math:`k` with :math:`\Pr(T \le k) \ge 1/2`) and the mode
  (:math:`\arg\max_k p_k`);
- a running mean :math:`\bar T_k` with the band :math:`\bar T_k \pm z\,s_k/\sqrt k` from
  :func:`~chutes_edu.simulation.running_mean`.

Colours are colour-blind safe (Okabe-Ito for categories, viridis for sequential values, PuOr for
changes around zero) and never carry meaning alone: ladders are solid arrows with filled heads,
chutes dashed arrows with open heads; players' tokens differ in marker shape; win bars in hatching;
surprising added jumps are hatched.

Text is never smaller than ``SMALL_TEXT`` points (11 px in the widgets, which draw at 80 dpi) and
legends sit outside the data they explain (below the axes, or where the data leave room). Square
numbers are drawn above the ladders and chutes, with a halo that keeps them readable.

Every picture says what it shows: :func:`describe` gives a figure (or one of its axes) a sentence
of *alt text*, and every function here describes its axes with a sentence computed from what it
draws (counts, ranges, the mean ...). When a notebook shows a figure, the description becomes the
output's ``{"image/png": {"alt": ...}}`` metadata (an IPython formatter registered on import), which
the course website turns into ``<img alt=...>``; the widgets show it as their picture's title.
A figure's description is its own if :func:`describe` was given the figure, otherwise its axes'
descriptions in drawing order, so side-by-side pictures are all described; drawing twice on the same
axes keeps the last description.

Each picture keeps a small private *painter* on its axes (``ax._chutes_edu_painter``) whose
``update`` method redraws it in place; the widgets use it to stay fast.

The rooms: :mod:`~chutes_edu.plots.alt_text` (describing pictures), :mod:`~chutes_edu.plots.board`
(the board painter, :func:`draw_board`), :mod:`~chutes_edu.plots.charts` (game lengths,
convergence, added jumps, races, designs), :mod:`~chutes_edu.plots.policy` (the aiming game's
pictures), :mod:`~chutes_edu.plots.matrices` (sympy matrices as maths the keyboard reaches);
``_style`` holds what they share. This layer imports matplotlib and the mathematics
below it, never the explorers.
"""

from __future__ import annotations

from ..markov import surprising_jumps
from ._style import (
    CHUTE_COLOR,
    HATCHES,
    LADDER_COLOR,
    OKABE_ITO,
    SMALL_TEXT,
    TOKEN_COLORS,
    TOKEN_MARKERS,
    TRAP_COLOR,
)
from .alt_text import describe, description, register_alt_text
from .board import board_grid, draw_board, square_center
from .charts import (
    plot_convergence,
    plot_design,
    plot_distribution,
    plot_jump_effects,
    plot_win_probabilities,
)
from .matrices import register_matrix_display
from .policy import draw_policy, plot_policy_profile

__all__ = ["draw_board", "plot_distribution", "plot_convergence", "plot_jump_effects",
           "plot_win_probabilities", "plot_design", "draw_policy", "plot_policy_profile",
           "board_grid",
           "square_center", "surprising_jumps", "describe", "description", "register_alt_text",
           "OKABE_ITO", "LADDER_COLOR", "CHUTE_COLOR", "TOKEN_COLORS", "TOKEN_MARKERS", "HATCHES",
           "SMALL_TEXT", "TRAP_COLOR"]

register_alt_text()
register_matrix_display()
