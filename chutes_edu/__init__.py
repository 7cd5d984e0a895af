"""chutes_edu: Chutes and Ladders as a course in absorbing Markov chains.

The maths lives here; lessons and widgets only call it.

- :class:`Board` — an immutable, validated board and its rules (:mod:`chutes_edu.board`).
- Named boards from the sources: :data:`MILTON_BRADLEY_1943` and friends (:mod:`chutes_edu.boards`).
- The Markov chain: :func:`transition_matrix`, :func:`fundamental_matrix`, :func:`expected_turns`,
  :func:`turn_distribution`, :func:`square_distribution`, :func:`win_probabilities`,
  :func:`jump_effects`
  (:mod:`chutes_edu.markov`).
- Monte Carlo: :func:`simulate`, :func:`running_mean`, :func:`capped_mean`
  (:mod:`chutes_edu.simulation`).
"""

from .board import OVERSHOOT_RULES, Board
from .boards import (AIMING_GAME_2021, MILTON_BRADLEY_1943, MILTON_BRADLEY_1943_CHUTE_48,
                     NOORDENBOS_2023, PRESETS)
from .markov import (expected_turns, fundamental_matrix, jump_effects, square_distribution,
                     transition_matrix, turn_distribution, win_probabilities)
from .simulation import capped_mean, running_mean, simulate
from .checks import check

__version__ = "0.1.0"

__all__ = [
    "Board", "OVERSHOOT_RULES",
    "MILTON_BRADLEY_1943", "MILTON_BRADLEY_1943_CHUTE_48", "NOORDENBOS_2023", "AIMING_GAME_2021",
    "PRESETS",
    "transition_matrix", "fundamental_matrix", "expected_turns", "turn_distribution",
    "square_distribution", "win_probabilities", "jump_effects",
    "simulate", "running_mean", "capped_mean",
    "check",
]

# optimal control
from . import control  # noqa: E402
from .control_widgets import PolicyExplorer, draw_policy, plot_policy_profile  # noqa: E402

__all__ += ["control", "PolicyExplorer", "draw_policy", "plot_policy_profile"]

# pictures and widgets
from .coin import expected_flips, flips_until_heads  # noqa: E402
from .plots import (draw_board, plot_convergence, plot_distribution,  # noqa: E402
                    plot_jump_effects, plot_win_probabilities)
from .widgets import (BoardExplorer, CoinFlipExplorer, JumpExplorer,  # noqa: E402
                      RaceExplorer, SimulationExplorer)

__all__ += ["flips_until_heads", "expected_flips",
            "draw_board", "plot_distribution", "plot_convergence", "plot_jump_effects",
            "plot_win_probabilities",
            "BoardExplorer", "CoinFlipExplorer", "SimulationExplorer", "JumpExplorer",
            "RaceExplorer"]
