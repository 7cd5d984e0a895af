"""chutes_edu: Chutes and Ladders as a course in absorbing Markov chains.

The maths lives here; lessons and widgets only call it. Five layers, each importing only from the
layers below it (CONTRIBUTING.md maps them; ``tests/test_layers.py`` checks them):

1. The game: :class:`Board`, an immutable, validated board and its rules (:mod:`chutes_edu.board`),
   and named boards from the sources, :data:`MILTON_BRADLEY_1943` and friends
   (:mod:`chutes_edu.boards`).
2. The mathematics (no drawing, no widgets):

   - the chain: :func:`transition_matrix`, :func:`fundamental_matrix`, :func:`expected_turns`,
     :func:`turn_distribution`, :func:`square_distribution`, :func:`win_probabilities`,
     :func:`jump_effects` (:mod:`chutes_edu.markov`); the moments of the game length,
     :func:`game_variance` and :func:`variance_effects` (:mod:`chutes_edu.moments`);
   - where the game ends and the long run: :func:`absorption_probabilities`,
     :func:`hitting_probabilities`, :func:`stationary_distribution`,
     :func:`quasi_stationary_distribution`, :func:`expected_rounds` (:mod:`chutes_edu.absorption`);
   - Monte Carlo: :func:`simulate`, :func:`simulate_endings`, :func:`running_mean`,
     :func:`capped_mean` (:mod:`chutes_edu.simulation`); the coin-flip warm-up,
     :func:`flips_until_heads`, :func:`expected_flips` (:mod:`chutes_edu.coin`);
   - aiming, optimal control: :mod:`chutes_edu.control`; designing a board to a goal:
     :func:`design_board` (:mod:`chutes_edu.design`).
3. Pictures (matplotlib): :func:`draw_board`, :func:`plot_distribution`, ...,
   :func:`draw_policy`; :func:`describe` gives a hand-made figure its alt text (every course
   picture has one) (:mod:`chutes_edu.plots`).
4. Explorers (anywidgets that compute in the page): :class:`BoardExplorer` and the others, and
   :class:`BoardEditor` (:mod:`chutes_edu.widgets`).
5. Course tooling: the exercises' self-checks, :func:`check` (:mod:`chutes_edu.checks`),
   what a graded notebook records (:mod:`chutes_edu.grading`), each student's numbers
   (:mod:`chutes_edu.variants`), the course's file names (:mod:`chutes_edu.course`).

The teacher's tools (roster, due dates, late work, grade exports, hub links, the grading sandbox)
are the package ``chutes_teacher``, beside ``nbgrader_config.py``; this library never imports it.
"""

import importlib
from typing import TYPE_CHECKING, Any

from . import control
from .absorption import (
    QuasiStationary,
    absorption_probabilities,
    expected_rounds,
    hitting_probabilities,
    quasi_stationary_distribution,
    stationary_distribution,
)
from .board import OVERSHOOT_RULES, Board, random_board
from .boards import (
    AIMING_GAME_2021,
    MILTON_BRADLEY_1943,
    MILTON_BRADLEY_1943_CHUTE_48,
    NOORDENBOS_2023,
    PRESETS,
)
from .checks import check
from .coin import expected_flips, flips_until_heads
from .design import (
    Design,
    FairestRace,
    LongestGame,
    ShortestGame,
    SmallestSpread,
    TargetLength,
    design_board,
)
from .markov import (
    expected_turns,
    fundamental_matrix,
    jump_effects,
    square_distribution,
    transition_matrix,
    turn_distribution,
    win_probabilities,
)
from .moments import game_variance, variance_effects
from .simulation import capped_mean, running_mean, simulate, simulate_endings

# Pictures and explorers are imported when first used (PEP 562): matplotlib and the widget stack
# are over a third of what `import chutes_edu` costs, and most exercise sets draw nothing.
if TYPE_CHECKING:
    from .plots import (
        describe,
        draw_board,
        draw_policy,
        plot_convergence,
        plot_design,
        plot_distribution,
        plot_jump_effects,
        plot_policy_profile,
        plot_win_probabilities,
    )
    from .widgets import (
        BoardEditor,
        BoardExplorer,
        CoinFlipExplorer,
        DesignExplorer,
        JumpExplorer,
        PolicyExplorer,
        RaceExplorer,
        SimulationExplorer,
    )

_LAZY = dict.fromkeys(
    ("describe", "draw_board", "draw_policy", "plot_convergence", "plot_design",
     "plot_distribution", "plot_jump_effects", "plot_policy_profile", "plot_win_probabilities"),
    "plots",
) | dict.fromkeys(
    ("BoardEditor", "BoardExplorer", "CoinFlipExplorer", "DesignExplorer", "JumpExplorer",
     "PolicyExplorer", "RaceExplorer", "SimulationExplorer"),
    "widgets",
)


def __getattr__(name: str) -> Any:
    """A picture or an explorer, imported from its layer at its first use."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"

__all__ = [
    # the board
    "Board", "OVERSHOOT_RULES", "random_board",
    "MILTON_BRADLEY_1943", "MILTON_BRADLEY_1943_CHUTE_48", "NOORDENBOS_2023", "AIMING_GAME_2021",
    "PRESETS",
    # the Markov chain
    "transition_matrix", "fundamental_matrix", "expected_turns", "turn_distribution",
    "square_distribution", "win_probabilities", "jump_effects",
    # where the game ends, and the long run
    "absorption_probabilities", "hitting_probabilities", "stationary_distribution",
    "quasi_stationary_distribution", "QuasiStationary", "expected_rounds",
    # Monte Carlo
    "simulate", "simulate_endings", "running_mean", "capped_mean",
    # exercise self-checks
    "check",
    # optimal control
    "control", "PolicyExplorer", "draw_policy", "plot_policy_profile",
    # the coin-flip warm-up
    "flips_until_heads", "expected_flips",
    # designing a board
    "design_board", "Design", "TargetLength", "ShortestGame", "LongestGame", "SmallestSpread",
    "FairestRace", "game_variance", "variance_effects", "plot_design", "DesignExplorer",
    # pictures and widgets
    "draw_board", "plot_distribution", "plot_convergence", "plot_jump_effects",
    "plot_win_probabilities", "describe",
    "BoardExplorer", "CoinFlipExplorer", "SimulationExplorer", "JumpExplorer", "RaceExplorer",
    "BoardEditor",
]
