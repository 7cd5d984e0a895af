"""BoardExplorer: change the board and its rules, watch the expected game length, the distribution
of game lengths and a heat map of the board."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.artist import Artist

from ..board import OVERSHOOT_RULES, Board
from ..boards import MILTON_BRADLEY_1943, PRESETS
from ..markov import (
    expected_turns,
    fundamental_matrix,
    square_distribution,
    turn_distribution,
)
from ..plots._style import _PAINTER
from ..plots.board import _NumberLayer, draw_board
from ..plots.charts import (
    plot_distribution,
)
from ._base import _OVERSHOOT_HELP, _Explorer, _FigureView, _Results
from .controls import IntSlider


class BoardExplorer(_Explorer):
    """Explore a board: preset, die, overshoot rule, bonus roll, jumps; live expected turns, the
    game-length distribution and a heat map of the board.

    Parameters
    ----------
    board : Board, default MILTON_BRADLEY_1943
        The board to start from.

    Attributes
    ----------
    preset, die, overshoot, bonus, heat, after_turns : controls
        ``die`` and ``after_turns`` are labelled native sliders
        (:class:`~chutes_edu.widgets.controls.IntSlider`), the others ipywidgets controls.
        The preset board (``PRESETS`` names), the number of faces (2..20), the overshoot rule,
        the face that rolls again (None for no bonus roll), what the heat map shows (expected
        turns, expected visits, or where the token is after ``after_turns`` turns).
    jump_from, jump_to, add_jump, remove_jump, jump_list : ipywidgets controls
        Edit the jumps: ``add_jump`` adds ``jump_from -> jump_to``, ``remove_jump`` removes the jump
        that starts on ``jump_from``; picking a jump in ``jump_list`` fills both fields.
    show_exact : ipywidgets.Checkbox
        Also show the expected turns as an exact fraction.
    readout, message : ipywidgets.HTML
        Expected turns from square 0 (4 decimals); the last invalid edit's message, or empty.
    board : Board
        The current (always valid) board.
    board_image, distribution_image : chutes_edu.widgets.controls.Picture (a PNG with its alt text)
        The pictures.
    """

    offline_summary = ("Board explorer: change the board and its rules and watch the expected "
                       "length of a game")

    def __init__(self, board: Board = MILTON_BRADLEY_1943) -> None:
        super().__init__()
        self.add_class("chutes-board-explorer")
        if not isinstance(board, Board):
            raise ValueError(f"BoardExplorer needs a Board, not {type(board).__name__}")
        self._results = _Results()
        self.board = self._results.board(board)
        self._origin = self._preset_name(board)
        names = list(PRESETS)
        self._presets = dict(PRESETS)
        if self._origin not in self._presets:
            self._presets = {self._origin: board, **self._presets}
            names.insert(0, self._origin)
        wide = {"description_width": "initial"}          # labels never cut short
        self.preset = widgets.Dropdown(options=names, value=self._origin, description="board",
                                       style=wide, layout=widgets.Layout(width="340px"))
        self.die = IntSlider(min(max(board.faces, 2), 20), 2, 20, description="die faces",
                             unit="faces")
        self.die.add_class("chutes-die")
        self.overshoot = widgets.ToggleButtons(
            options=list(OVERSHOOT_RULES), value=board.overshoot,
            description="a roll past the end", style={**wide, "button_width": "auto"},
            tooltips=[_OVERSHOOT_HELP.get(r, r) for r in OVERSHOOT_RULES])
        self.bonus = widgets.Dropdown(options=self._bonus_options(board.faces),
                                      value=board.bonus_roll, description="roll again on",
                                      style=wide, layout=widgets.Layout(width="190px"))
        self.heat = widgets.Dropdown(options=[("expected turns to finish", "turns"),
                                              ("expected visits from the start", "visits"),
                                              ("where the token is after k turns", "after")],
                                     value="turns", description="heat map", style=wide,
                                     layout=widgets.Layout(width="340px"))
        self.after_turns = IntSlider(10, 0, 100, description="k, the turns played", unit="turns",
                                     continuous_update=False,
                                     layout=widgets.Layout(display="none"))
        self.jump_from = widgets.BoundedIntText(value=2, min=1, max=board.size - 1,
                                                description="jump from square", style=wide,
                                                layout=widgets.Layout(width="200px"))
        self.jump_to = widgets.BoundedIntText(value=12, min=0, max=board.size,
                                              description="to square", style=wide,
                                              layout=widgets.Layout(width="200px"))
        self.add_jump = widgets.Button(description="add jump", icon="plus",
                                       tooltip="add the jump from -> to")
        self.remove_jump = widgets.Button(description="remove jump", icon="minus",
                                          tooltip="remove the jump that starts on 'from'")
        self.jump_list = widgets.Select(options=[], rows=7, description="jumps", style=wide,
                                        layout=widgets.Layout(width="260px"))
        self.show_exact = widgets.Checkbox(value=False, description="show the exact fraction",
                                           indent=False)
        self.readout = widgets.HTML("")
        self.readout.add_class("chutes-readout")

        self.board_view = _FigureView((480, 480), dynamic=self._board_artists,
                                      css="chutes-board-image")
        self.distribution_view = _FigureView((544, 304), dynamic=self._distribution_artists,
                                             css="chutes-distribution-image")
        self.board_image = self.board_view.image
        self.distribution_image = self.distribution_view.image
        self._board_ax = self.board_view.figure.add_subplot()
        self._dist_ax = self.distribution_view.figure.add_subplot()
        self._board_painter: Any = None
        self._dist_painter: Any = None
        self._numbers: _NumberLayer | None = None
        self._shown: float | None = None           # the expected length last announced

        self._observe(self.preset, self._on_preset)
        self._observe(self.die, lambda: self._edit(lambda b: b.replace(die=self.die.value)))
        self._observe(self.overshoot,
                      lambda: self._edit(lambda b: b.replace(overshoot=self.overshoot.value)))
        self._observe(self.bonus,
                      lambda: self._edit(lambda b: b.replace(bonus_roll=self.bonus.value)))
        self._observe(self.heat, self._on_heat)
        self._observe(self.after_turns, lambda: self._refresh(readout=False, distribution=False))
        self._observe(self.show_exact, lambda: self._refresh(pictures=False))
        self._observe(self.jump_list, self._on_pick)
        self.add_jump.on_click(self._handler(lambda _: self._edit(
            lambda b: b.with_jump(self.jump_from.value, self.jump_to.value))))
        self.remove_jump.on_click(self._handler(lambda _: self._edit(
            lambda b: b.without_jump(self.jump_from.value))))

        self._sync_controls()
        self._refresh(full=True)
        editor = widgets.HBox([widgets.VBox([self.jump_from, self.jump_to,
                                             widgets.HBox([self.add_jump]),
                                             widgets.HBox([self.remove_jump])]),
                               self.jump_list])
        self.children = [
            widgets.HTML("<b>Board explorer</b>: change the board and its rules."),
            widgets.HBox([self.preset, self.bonus]),
            self.die, self.overshoot, editor,
            widgets.HBox([self.readout, self.show_exact],
                         layout=widgets.Layout(justify_content="space-between")),
            self.message,
            widgets.HBox([self.board_image, widgets.VBox([self.distribution_image, self.heat,
                                                          self.after_turns])],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start")),
            self.live,
        ]

    # -- helpers
    @staticmethod
    def _preset_name(board: Board) -> str:
        for name, preset in PRESETS.items():
            if preset == board:
                return name
        return board.name or "custom board"

    @staticmethod
    def _bonus_options(faces: int) -> list[tuple[str, int | None]]:
        return [("none", None)] + [(str(f), f) for f in range(1, faces + 1)]

    def _board_artists(self) -> list[Artist]:
        if self._board_painter is None:
            return []
        painter = self._board_painter
        if self._numbers is None:
            self._numbers = _NumberLayer(painter)
        return [self._board_ax.title, *(self._numbers if a is painter.halo else a
                                        for a in painter.dynamic_artists()
                                        if a is not painter.numbers)]

    def _distribution_artists(self) -> list[Artist]:
        return self._dist_painter.dynamic_artists() if self._dist_painter else []

    def _sync_controls(self) -> None:
        """Show the current board in the controls (without firing their handlers)."""
        b = self.board
        with self._sync():
            self.die.value = min(max(b.faces, 2), 20)
            self.overshoot.value = b.overshoot
            options = self._bonus_options(max(b.faces, self.die.value))
            if list(self.bonus.options) != options:
                self.bonus.options = options
            self.bonus.value = b.bonus_roll
            if b.bonus_roll is None:
                self.bonus.index = 0            # show "none" (value None alone selects nothing)
            self.jump_from.max, self.jump_to.max = b.size - 1, b.size
            self.jump_list.options = [(f"{a} \u2192 {d}  {'ladder' if d > a else 'chute'}", a)
                                      for a, d in b.jumps.items()]
            self.jump_list.value = None

    # -- events
    def _edit(self, change: Callable[[Board], Board]) -> None:
        """Apply one edit; on a ValueError keep the board and show the library's message."""
        try:
            new = change(self.board)
        except ValueError as error:
            self._show_error(str(error))
            self._sync_controls()             # the controls go back to the board shown
            return
        self._clear_error()
        self.board = self._results.board(new)
        self._sync_controls()
        self._refresh()

    def _on_preset(self) -> None:
        self._edit(lambda _: self._presets[self.preset.value])

    def _on_pick(self) -> None:
        source = self.jump_list.value
        if source is not None:
            with self._sync():
                self.jump_from.value = source
                self.jump_to.value = self.board.jumps[source]

    def _on_heat(self) -> None:
        self.after_turns.layout.display = "" if self.heat.value == "after" else "none"
        self._refresh(readout=False, distribution=False)

    # -- outputs
    def _refresh(self, *, full: bool = False, readout: bool = True, pictures: bool = True,
                 distribution: bool = True) -> None:
        """Redraw the pictures, then the readout (so a readout shows only when all is done)."""
        board, results = self.board, self._results
        turns = results.get(board, "turns", expected_turns)
        if pictures:
            self._draw_board(board, turns, full)
            if distribution:
                pmf = results.get(board, "pmf", turn_distribution)
                if self._dist_painter is None:
                    plot_distribution(pmf, ax=self._dist_ax,
                                      title="How long is a one-player game?")
                    self._dist_painter = getattr(self._dist_ax, _PAINTER)
                changed = self._dist_painter.update(pmf, sticky=True)
                self.distribution_view.render(full=changed)
        if readout:
            now = float(turns[0])
            was, self._shown = self._shown, now
            self._announce(f"Expected length {now:.1f} turns"
                           + ("" if was is None or (round(was, 1) == round(now, 1) and was == now)
                              else f", was {was:.1f}"))
            text = f"Expected turns from the start: <b>{now:.4f}</b> turns"
            if self.show_exact.value:
                exact = results.get(board, "exact", lambda b: expected_turns(b, exact=True)[0])
                text += (f'<br><span style="word-break:break-all">exactly '
                         f'<code>{exact.p}/{exact.q}</code></span>')
            self.readout.value = text

    def _draw_board(self, board: Board, turns: np.ndarray, full: bool) -> None:
        title = board.name or f"{self.preset.value} (edited)"
        if self.heat.value == "visits":
            values = self._results.get(board, "visits", lambda b: fundamental_matrix(b)[0])
            label = "expected visits from the start (turns begun there)"
        elif self.heat.value == "after":
            # The final square collects the finished games and would swamp the colour scale (as
            # in lesson 3): it is grey, and its probability is in the title.
            k = self.after_turns.value
            values = square_distribution(board, k).copy()
            finished, values[board.size] = float(values[board.size]), np.nan
            label = "probability of being on the square after k turns"
            title += (f"\nafter {k} turn{'' if k == 1 else 's'}: {finished:.3f} finished "
                      f"(square {board.size}, grey)")
        else:
            values, label = turns, "expected turns to finish (turns)"
        # Colour scale and axes stay put while the data fit them ("sticky"), so that most changes
        # redraw only the data over a cached background, and pictures are easy to compare.
        if self._board_painter is None:
            draw_board(board, values, ax=self._board_ax, label=label, title=title)
            self._board_painter = getattr(self._board_ax, _PAINTER)
            full = True
        else:
            self._board_painter.name = board.name
            self._board_painter.set_jumps(dict(board.jumps))
            full |= self._board_painter.set_traps(board.traps)      # a new legend
            if self._board_painter.colorbar.ax.get_ylabel() != label:
                self._board_painter.colorbar.set_label(label)
                self._board_painter.label = label
                full = True
            self._board_ax.set_title(title)         # drawn with the data: no full redraw
        full |= self._board_painter.set_values(values, sticky=True)
        self.board_view.render(full=full)
