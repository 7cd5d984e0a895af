"""Named boards from the source documents, with where each comes from and its headline figure.

Every board is a :class:`~chutes_edu.board.Board`: squares ``0..100``, square 0 off the board.
The figures quoted here are reproduced by the test suite, never typed into a lesson.
"""

from __future__ import annotations

from .board import Board

__all__ = ["MILTON_BRADLEY_1943", "MILTON_BRADLEY_1943_CHUTE_48", "NOORDENBOS_2023",
           "AIMING_GAME_2021", "PRESETS"]

_LADDERS_1943 = {1: 38, 4: 14, 9: 31, 21: 42, 28: 84, 36: 44, 51: 67, 71: 91, 80: 100}
_CHUTES_1943 = {16: 6, 47: 26, 49: 11, 56: 53, 62: 19, 64: 60, 87: 24, 93: 73, 95: 75, 98: 78}

MILTON_BRADLEY_1943 = Board({**_LADDERS_1943, **_CHUTES_1943}, size=100, die=6, overshoot="stay",
                            name="Milton Bradley 1943")
"""The 1943 Milton Bradley *Chutes and Ladders* board, as listed by Sierakowski
(section 1) and Hochman (Remark 4.2, the board **T**): 9 ladders, 10 chutes (one of them
47->26), a fair six-sided spinner, and a move past square 100 is lost. Expected length of a
one-player game: 39.2251223 turns (Hochman, Remark 4.8; Sierakowski prints 39.225122308234916)."""

MILTON_BRADLEY_1943_CHUTE_48 = Board(
    {**_LADDERS_1943, **{(48 if a == 47 else a): b for a, b in _CHUTES_1943.items()}},
    size=100, die=6, overshoot="stay", name="1943 board, chute 48->26")
"""The 1943 board with the chute drawn from square 48 (not 47) to 26, as in the blog post's code.
Expected length 39.5984 turns; with the house rule that overshooting square 100 wins
(``overshoot="win"``) it drops to 36.1931 (the blog post, Results)."""

NOORDENBOS_2023 = Board(
    {4: 14, 9: 31, 20: 38, 28: 84, 40: 59, 51: 67, 63: 81, 71: 91,       # ladders
     17: 7, 54: 34, 62: 19, 64: 60, 87: 24, 93: 73, 95: 75, 99: 78},     # snakes
    size=100, die=6, overshoot="bounce", bonus_roll=6, name="Noordenbos 2023 (six again, bounce)")
"""Noordenbos's board (D. Noordenbos, *Snakes and Ladders Markov chain analysis*, 2023): 8 ladders
and 8 snakes, a six gives another roll in the same turn, and a roll past square 100 walks back the
excess. Its tokens start *on* square 1 (his ``sampleGame(start = 1)``), so pass ``start=1``
to compare game lengths. Headline figure: six players on squares (14, 60, 31, 26, 48, 48), the first
moving first, win with probabilities 0.1328226, 0.2318284, 0.1391085, 0.1554380, 0.1718596,
0.1689429."""

AIMING_GAME_2021 = Board(
    {1: 38, 4: 14, 9: 31, 21: 42, 28: 84, 36: 44, 48: 26, 49: 11, 51: 67, 56: 53, 62: 18, 64: 60,
     71: 91, 80: 100, 87: 24, 93: 73, 95: 76, 98: 78},
    size=100, die=6, overshoot="stop_short", name="Aiming game 2021 (stop short)")
"""The board of LosAlfajores, *Applying Optimal Control Theory to Chutes and Ladders* (2021): the
1943 layout as that article codes it (chutes 48->26, 62->18, 95->76; no chute 16->6) and a move past
square 100 ends on square 99. The article plays it with an *aimed* move (see
:mod:`chutes_edu.control`); its value iteration with discount 0.9 converges in 35 sweeps."""

PRESETS: dict[str, Board] = {b.name: b for b in (MILTON_BRADLEY_1943, MILTON_BRADLEY_1943_CHUTE_48,
                                                 NOORDENBOS_2023, AIMING_GAME_2021)}
"""The named boards by display name, in the order a preset menu lists them."""
