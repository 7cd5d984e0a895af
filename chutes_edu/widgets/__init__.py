"""Interactive explorers: anywidgets whose front ends compute and draw in the page.

Every explorer's maths runs in the page, in JavaScript (``js/maths/<name>_math.js``, held equal to
the library by the Node tests in ``tests/js/``), so an explorer works in JupyterLab, in Voila and on
the course website alike, with no kernel behind the page. Its Python class holds the state as synced
traits, checked by the library (a value the library refuses raises its ``ValueError``), and gives a
reader in the kernel the library's numbers for that state.

- :class:`BoardExplorer` -- change the board and its rules, watch the expected game length, the
  distribution of game lengths and a heat map of the board.
- :class:`CoinFlipExplorer` -- the warm-up: waiting for heads, the running average against 1/p.
- :class:`SimulationExplorer` -- Monte Carlo converging to the exact answer; the bias of a turn cap.
- :class:`JumpExplorer` -- add one ladder or chute anywhere; the surprising ones are flagged.
- :class:`RaceExplorer` -- 2 to 6 players on any squares: who wins, seat by seat.
- :class:`PolicyExplorer` -- aim each move: values and best targets as the aim changes.
- :class:`DesignExplorer` -- design a board to a goal by adding ladders and chutes.
- :class:`BoardEditor` -- draw ladders, chutes and traps on the board; the answers follow each
  edit at once.

In the page, an invalid edit (a chained jump, a board that can never be finished, ...) shows the
library's refusal in words and keeps the last valid board: no traceback.

One module per explorer (``board_explorer``, ``coin_explorer``, ...); ``_base`` holds the Python
they share (a cache of library results, the sentence shown where an explorer cannot be drawn);
``_front_end`` reads the front ends' registry (``front_ends.json``) and their builds by esbuild
(``static/``, from the ES modules of ``js/``, whose folders are the front end's layers: ``core/``,
``maths/``, ``ui/``, ``explorers/<name>/`` and ``site/``). This layer imports the pictures and the
mathematics below it; nothing below imports it."""

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
