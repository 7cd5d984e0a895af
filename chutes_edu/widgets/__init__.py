"""Interactive explorers (ipywidgets 8) that wire the library to controls and pictures.

The widgets do no mathematics of their own: every number they show comes from a library call
(:func:`~chutes_edu.expected_turns`, :func:`~chutes_edu.turn_distribution`,
:func:`~chutes_edu.jump_effects`, :func:`~chutes_edu.win_probabilities`,
:func:`~chutes_edu.simulate`, :func:`~chutes_edu.running_mean`, :func:`~chutes_edu.capped_mean`,
:mod:`chutes_edu.coin`), and every picture from :mod:`chutes_edu.plots`. The front ends that run
in the page (the board editor, the coin-flip explorer) compute with the library's maths in
JavaScript (``js/board_math.js``, ``js/coin_math.js``), held equal to it by tests, and Python
gives the library's numbers for their state.

- :class:`BoardExplorer` -- change the board and its rules, watch the expected game length, the
  distribution of game lengths and a heat map of the board. It computes in the page
  (``js/board_explorer.js``, its maths ``js/board_math.js`` and ``js/board_explorer_math.js``
  held equal to the library by tests), as the coin-flip explorer does.
- :class:`CoinFlipExplorer` -- the warm-up: waiting for heads, the running average against 1/p.
  It draws and computes in the page (``js/coin_explorer.js``, its maths ``js/coin_math.js`` held
  equal to the library by tests), so it works with no kernel too; Python holds its state and
  gives the library's numbers for it.
- :class:`SimulationExplorer` -- Monte Carlo converging to the exact answer; the bias of a turn cap.
  It plays the games in the page (``js/simulation_explorer.js``, its maths
  ``js/simulation_math.js`` held to the library by tests), as the coin-flip explorer does.
- :class:`JumpExplorer` -- add one ladder or chute anywhere; the surprising ones are flagged. It
  computes in the page (``js/jump_explorer.js``, its maths ``js/jump_math.js``: the add-a-jump
  sweep by rank-one updates, held equal to the library by tests), as the coin-flip explorer does.
- :class:`RaceExplorer` -- 2 to 6 players on any squares: who wins, seat by seat. It computes
  in the page (``js/race_explorer.js``, its maths ``js/race_math.js`` held equal to the library by
  tests), as the coin-flip explorer does.
- :class:`PolicyExplorer` -- aim each move: values and best targets as the aim changes. It
  computes in the page (``js/policy_explorer.js``, its maths ``js/policy_math.js`` held equal to
  the library by tests), as the race explorer does.
- :class:`DesignExplorer` -- design a board to a goal by adding ladders and chutes.
- :class:`BoardEditor` -- draw ladders, chutes and traps on the board; the answers follow each
  edit at once. Its maths runs in the page (``js/board_math.js``, held equal to the library by
  tests), not in the kernel, so it works with no kernel (the course website mounts it with
  ``js/board_editor.js``'s ``mount``), as the coin-flip explorer does (issue 28: the others are
  to follow).

An invalid edit (a chained jump, a board that can never be finished, ...) shows the library's
``ValueError`` message in the widget's ``message`` and keeps the last valid board: no traceback.

One module per explorer (``board_explorer``, ``coin_explorer``, ...); ``_base`` holds the view code
they share (pictures as PNG, the message line, a cache of results); ``_bundle`` puts a front end
that runs in the page (its ES modules in ``js/``) into the one module anywidget loads, or the
classic script the course website loads. This layer imports the
pictures and the mathematics below it; nothing below imports it.
"""

from __future__ import annotations

from .board_editor import BoardEditor
from .board_explorer import BoardExplorer
from .coin_explorer import CoinFlipExplorer
from .design_explorer import DesignExplorer
from .jump_explorer import JumpExplorer
from .policy_explorer import PolicyExplorer
from .race_explorer import RaceExplorer
from .simulation_explorer import SimulationExplorer

__all__ = ["BoardExplorer", "CoinFlipExplorer", "SimulationExplorer", "JumpExplorer",
           "RaceExplorer", "PolicyExplorer", "DesignExplorer", "BoardEditor"]
