r"""The board: squares, jumps, the die and the rules of one turn.

A board has the squares :math:`0, 1, \dots, n` (``n = size``). Square 0 is off the board, where
every token starts, and square :math:`n` is the final square. ``jumps`` maps a source square
:math:`a` to a destination :math:`b`: a *ladder* when :math:`b > a`, a *chute* when :math:`b < a`.

The die has faces :math:`r = 1, \dots, m` with probabilities :math:`p_r = w_r / \sum_k w_k`
(a fair die has :math:`w_r = 1`; a spinner with unequal sectors has other weights).

One **roll** from square :math:`s` with face :math:`r` aims at :math:`s + r`. When :math:`s + r > n`
the ``overshoot`` rule decides where the token goes:

==============  ===========================  ==========================================
rule            square reached               source
==============  ===========================  ==========================================
``"stay"``      :math:`s` (the move is lost)  Sierakowski; Hochman (the 1943 rules)
``"win"``       :math:`n`                    the blog post's house rule
``"bounce"``    :math:`n - (s + r - n)`      Noordenbos (walk back the excess)
``"stop_short"`` :math:`n - 1`              LosAlfajores (aiming game)
==============  ===========================  ==========================================

Then, if the token moved onto the source of a jump, it follows that one jump (jumps never chain:
a destination is never another jump's source). We write :math:`\ell(s, r)` for the square the roll
ends on. Square :math:`n` absorbs: :math:`\ell(n, r) = n`.

**Traps** (``traps``, e.g. a volcano): squares other than the final one where the game also ends.
A move that ends on a trap, after its jump, ends the game there, so a chute or ladder whose
destination is a trap ends it too. Traps absorb like the final square, :math:`\ell(v, r) = v`;
the *absorbing* squares are the traps and :math:`n`. A trap is never a jump's source, square 0 or
the final square.

A **turn** is one roll, except that with ``bonus_roll = f`` rolling the face :math:`f` gives another
roll in the same turn, unless the game has ended (the token is on the final square or on a trap:
a bonus roll does not rescue a token from a trap) (Noordenbos's "roll a six again").

A token *standing* on a jump source :math:`a` (only possible if you put it there, since play never
rests on one) rolls from :math:`a` like from any other square: a jump fires only when a move ends on
its source. This keeps every square a proper state of the Markov chain (Sierakowski's 1943 matrix
is built the same way) and never changes the answers for squares that play can reach.

Every board is checked when it is built. A board that breaks a rule raises ``ValueError`` naming the
squares or values at fault, so that no later calculation can hang, fail inside linear algebra, or
return a number for a game that cannot end (from every square some absorbing square must be
reachable). That check is one breadth-first search backwards from the absorbing squares over the
``(size + 1) x faces`` moves, and the landing table is built with array operations, so boards of
10,000 squares and more are built in milliseconds. The refusals a student meets are said in the
student's language (:func:`chutes_edu.i18n.say`), in the same words as the explorers' page says
the board maths' English (a parity test holds the English equal, and the page says it back
through the same catalog: ``js/core/i18n.js``).

:func:`random_board` draws a board of any size with a given number of jumps from a seed, so that a
lesson and the benchmark build the same big boards.

A board's **JSON form** (:func:`board_to_json`, :func:`board_from_json`) is what the explorers'
pages compute from and what their Node tests read: ``size``, ``die`` (faces, or whole-number
weights with the same probabilities), ``overshoot``, ``bonus_roll``, ``jumps`` as ``[source,
destination]`` pairs and ``traps``; ``board_from_json(board_to_json(b)) == b``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np

from .i18n import say

__all__ = ["Board", "OVERSHOOT_RULES", "JSON_FIELDS", "board_from_json", "board_to_json",
           "random_board"]

OVERSHOOT_RULES: tuple[str, ...] = ("stay", "win", "bounce", "stop_short")


def _english(template: str, **values: Any) -> str:
    """One problem of a list, in English (a catalog entry: the whole refusal is said at once)."""
    return template.format(**values)


def _square(value: Any, what: str) -> int:
    """Return ``value`` as a Python int, or raise ``ValueError`` naming ``what``."""
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(say("{what} must be a whole number, not {value}", what=what,
                             value=repr(value)))
    if isinstance(value, numbers.Integral):
        return int(value)
    raise ValueError(say("{what} must be a whole number, not {value}", what=what,
                             value=repr(value)))


def _on_board(board: Board, square: Any, what: str) -> int:
    """Return ``square`` as an int on ``board`` (0..size); else ``ValueError`` naming ``what``."""
    square = _square(square, what)
    if not 0 <= square <= board.size:
        raise ValueError(say("{what} {square} is off the board (squares 0..{size})", what=what,
                             square=square, size=board.size))
    return square


def _exact(weight: Any) -> Fraction:
    """An exact rational for a die weight: ints and fractions as they are, floats as written."""
    if isinstance(weight, numbers.Rational):
        return Fraction(int(weight.numerator), int(weight.denominator))
    # A float such as 0.1 stands for the decimal the student typed, not its binary neighbour.
    return Fraction(repr(float(weight)))


def _ranges(squares: Iterable[int]) -> str:
    """Write sorted squares compactly: 3, 5-9, 12."""
    parts: list[str] = []
    items = sorted({int(sq) for sq in squares})
    i = 0
    while i < len(items):                # a run items[i..j] of consecutive squares
        j = i
        while j + 1 < len(items) and items[j + 1] == items[j] + 1:
            j += 1
        parts.append(str(items[i]) if i == j else f"{items[i]}-{items[j]}")
        i = j + 1
    return ", ".join(parts)


def _weight_problems(labelled: Iterable[tuple[str, Any]]) -> list[str]:
    """What is wrong with each ``(label, weight)`` that is not a finite, non-negative real."""
    bad = []
    for label, w in labelled:
        if isinstance(w, (bool, np.bool_)) or not isinstance(w, numbers.Real):
            bad.append(f"{label}{w!r} is not a number")
        elif not math.isfinite(float(w)):
            bad.append(f"{label}{w!r} is not finite")
        elif w < 0:
            bad.append(f"{label}{w!r} is negative")
    return bad


def _landings(square: np.ndarray, target: np.ndarray, size: int, overshoot: str,
              jumps: Mapping[int, int]) -> np.ndarray:
    """Where moves from ``square`` aimed at ``target`` end (arrays that broadcast together).

    The overshoot rule for targets past ``size``, then one jump from the square reached. A move
    lost under "stay" lands nowhere, so it fires no jump. A "bounce" back past square 0 (only a face
    of weight 0 can ask for one) is put on square 0.
    """
    over = target > size
    if overshoot == "stay":
        landed = np.where(over, square, target)
    elif overshoot == "win":
        landed = np.where(over, size, target)
    elif overshoot == "bounce":
        # past square 0 only with a face of weight 0 (Board refuses others): any square will do
        landed = np.where(over, np.maximum(2 * size - target, 0), target)
    else:  # stop_short
        landed = np.where(over, size - 1, target)
    jump = np.arange(size + 1)
    for a, b in jumps.items():
        jump[a] = b
    table = jump[landed]
    if overshoot == "stay":
        table = np.where(over, square, table)
    return table


def _parse_die(die: Any) -> tuple[int | tuple[Any, ...], tuple[Fraction, ...]]:
    """Check the die and return (the die as given, exact face probabilities)."""
    if isinstance(die, (bool, np.bool_)):
        raise ValueError(say("die must be a number of faces or a sequence of weights, not {die}",
                             die=repr(die)))
    if isinstance(die, numbers.Integral):
        faces = int(die)
        if faces < 1:
            raise ValueError(say("die must have at least 1 face, got {faces}", faces=faces))
        return faces, tuple(Fraction(1, faces) for _ in range(faces))
    if isinstance(die, (str, bytes)) or not isinstance(die, Iterable):
        raise ValueError(say("die must be a number of faces or a sequence of weights, not {die}",
                             die=repr(die)))
    weights = tuple(die.tolist() if isinstance(die, np.ndarray) else die)
    if len(weights) < 1:
        raise ValueError(say("die must have at least 1 face: the weight sequence is empty"))
    bad = _weight_problems((f"face {face}: ", w) for face, w in enumerate(weights, start=1))
    if bad:
        raise ValueError(say("bad die weights ({problems})", problems="; ".join(bad)))
    exact = [_exact(w) for w in weights]
    total = sum(exact, Fraction(0))
    if total == 0:
        raise ValueError(say("die weights are all zero: {weights}", weights=repr(list(weights))))
    return weights, tuple(w / total for w in exact)


SWEEP_MAX = 300
"""Boards up to this size are checked by sweeps of array operations, bigger ones by a graph
search (the sweeps are cheaper on small boards, the search on big ones)."""


def _can_finish(table: np.ndarray, probs: Iterable[Fraction | float],
                absorbing: Iterable[int], avoid: int | None = None) -> np.ndarray:
    """``ok[s]``: some absorbing square can be reached from square ``s`` by rolls of faces of
    positive weight (``table[s, r-1]`` is where face r leads), never passing square ``avoid``.

    Up to ``SWEEP_MAX`` squares: sweeps ``ok |= ok[moves].any(axis=1)`` until nothing changes
    (few, cheap array operations). Above: one breadth-first search backwards from the absorbing
    squares (scipy's csgraph, in C), linear in the number of moves however long the paths, so it
    stays fast on boards of 10,000 squares and more.
    """
    squares = table.shape[0]
    faces = [r for r, p in enumerate(probs) if p > 0]
    moves = table[:, faces]
    ends = np.asarray(list(absorbing), dtype=np.int64)
    if avoid is not None:                      # a move into ``avoid`` goes nowhere
        moves = np.where(moves == avoid, np.arange(squares)[:, None], moves)
        moves[avoid] = avoid
    if squares <= SWEEP_MAX:
        ok = np.zeros(squares, dtype=bool)
        ok[ends] = True
        while True:                            # at most `squares` sweeps: each adds or stops
            more = ok | ok[moves].any(axis=1)
            if (more == ok).all():
                return ok
            ok = more
    # scipy only here, for big boards: importing it takes longer than the sweep above
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import breadth_first_order

    source = np.repeat(np.arange(squares), len(faces))
    target = moves.ravel()
    keep = source != target                    # staying put never helps
    # Edges run backwards (target -> source); node ``squares`` is a root joined to every end.
    rows = np.concatenate([target[keep], np.full(ends.size, squares)])
    cols = np.concatenate([source[keep], ends])
    graph = csr_matrix((np.ones(rows.size, dtype=np.int8), (rows, cols)),
                       shape=(squares + 1, squares + 1))
    reached = np.zeros(squares + 1, dtype=bool)
    reached[breadth_first_order(graph, squares, directed=True, return_predecessors=False)] = True
    return reached[:squares]


class Board:
    """An immutable Chutes and Ladders board with its rules.

    Parameters
    ----------
    jumps : mapping of int to int, optional
        ``{source: destination}`` for every ladder (destination above the source) and chute
        (destination below). Sources lie in ``1..size-1``, destinations in ``0..size``.
    size : int, default 100
        The final square :math:`n`; squares are ``0..size`` with 0 off the board.
    die : int or sequence of float, default 6
        ``m`` for a fair die with faces ``1..m``, or non-negative weights for faces
        ``1..len(die)`` (normalised to probabilities).
    overshoot : {"stay", "win", "bounce", "stop_short"}, default "stay"
        What a roll past the final square does (see the module docstring).
    bonus_roll : int, optional
        A face that gives another roll in the same turn (e.g. 6), unless the token has finished.
    name : str, optional
        A label shown in widgets and reprs; it takes no part in equality.
    traps : iterable of int, optional
        Squares in ``1..size-1`` where the game ends when a move ends there (after its jump), e.g. a
        volcano. A trap cannot be a jump's source; a jump may lead into one.

    Raises
    ------
    ValueError
        For any board that breaks a rule, naming the squares or values at fault (see the module
        docstring), including boards from which the final square cannot be reached.

    Examples
    --------
    >>> b = Board({3: 7, 8: 2}, size=10, die=3)
    >>> b.ladders, b.chutes
    ({3: 7}, {8: 2})
    >>> b.with_jump(5, 9).jumps[5]
    9
    >>> volcano = Board({3: 7}, size=10, die=3, traps=[6, 8])
    >>> volcano.traps, volcano.absorbing, volcano.landing(5, 1)
    ((6, 8), (6, 8, 10), 6)
    """

    __slots__ = ("_bonus_roll", "_cache", "_die", "_jumps", "_name", "_overshoot",
                 "_probabilities", "_roll_table", "_size", "_traps")

    # The slots, declared for type checkers; each is set once in __init__ (with
    # object.__setattr__, since __setattr__ refuses) and never changed.
    _jumps: Mapping[int, int]
    _size: int
    _die: int | tuple[Any, ...]
    _probabilities: tuple[Fraction, ...]
    _overshoot: str
    _bonus_roll: int | None
    _name: str
    _traps: tuple[int, ...]
    _roll_table: np.ndarray
    _cache: dict[Any, Any]      # results computed from this board (markov, control), by key

    def __init__(
        self,
        jumps: Mapping[int, int] | Iterable[tuple[int, int]] | None = None,
        size: int = 100,
        die: int | Iterable[float | Fraction] = 6,
        overshoot: str = "stay",
        bonus_roll: int | None = None,
        name: str = "",
        *,
        traps: Iterable[int] = (),
    ) -> None:
        size = _square(size, "size")
        if size < 2:
            raise ValueError(say("size must be at least 2 (squares 0..size), got {size}",
                                 size=size))
        if overshoot not in OVERSHOOT_RULES:
            raise ValueError(say("unknown overshoot rule {rule}; choose one of {rules}",
                                 rule=repr(overshoot),
                                 rules=", ".join(repr(r) for r in OVERSHOOT_RULES)))
        die_spec, probs = _parse_die(die)
        clean = self._check_jumps(jumps, size)
        trap_squares = self._check_traps(traps, size, clean)
        faces = len(probs)
        if bonus_roll is not None:
            bonus_roll = _square(bonus_roll, "bonus_roll")
            if not 1 <= bonus_roll <= faces or probs[bonus_roll - 1] == 0:
                raise ValueError(say(
                    "bonus_roll={face}: the die has no face {face} (its faces with weight are "
                    "{faces})", face=bonus_roll,
                    faces=_ranges(r for r in range(1, faces + 1) if probs[r - 1] > 0)))
            if probs[bonus_roll - 1] == 1:
                raise ValueError(say("bonus_roll={face}: every roll shows {face}, so a turn would "
                                     "never end", face=bonus_roll))
        if overshoot == "bounce":
            too_big = [r for r in range(size + 1, faces + 1) if probs[r - 1] > 0]
            if too_big:
                raise ValueError(say("overshoot='bounce' cannot walk back faces larger than the "
                                     "board (size {size}): faces {faces}", size=size,
                                     faces=_ranges(too_big)))
        object.__setattr__(self, "_jumps", MappingProxyType(dict(sorted(clean.items()))))
        object.__setattr__(self, "_size", size)
        object.__setattr__(self, "_die", die_spec)
        object.__setattr__(self, "_probabilities", probs)
        object.__setattr__(self, "_overshoot", overshoot)
        object.__setattr__(self, "_bonus_roll", bonus_roll)
        object.__setattr__(self, "_name", str(name))
        object.__setattr__(self, "_traps", trap_squares)
        object.__setattr__(self, "_cache", {})
        object.__setattr__(self, "_roll_table", self._build_roll_table())
        self._check_finishable()

    # ----------------------------------------------------------------- validation
    @staticmethod
    def _check_jumps(jumps: Any, size: int) -> dict[int, int]:
        if jumps is None:
            return {}
        pairs = list(jumps.items()) if isinstance(jumps, Mapping) else list(jumps)
        clean: dict[int, int] = {}
        problems: list[str] = []
        for pair in pairs:
            try:
                a, b = pair
            except (TypeError, ValueError):
                raise ValueError(say("a jump must be a (source, destination) pair, not {pair}",
                                     pair=repr(pair))) from None
            a = _square(a, f"jump source {a!r}")
            b = _square(b, f"jump destination {b!r} (from {a})")
            if a in clean:
                problems.append(_english("square {a} has two jumps ({a}->{b} and {a}->{c})", a=a,
                                         b=clean[a], c=b))
            clean[a] = b
        off = [f"{a}->{b}" for a, b in clean.items() if not (0 <= a <= size and 0 <= b <= size)]
        if off:
            problems.append(_english("jumps off the board (squares are 0..{size}): {jumps}",
                                     size=size, jumps=", ".join(off)))
        ends = [f"{a}->{b}" for a, b in clean.items() if a in (0, size)]
        if ends:
            problems.append(_english("jumps cannot start on square 0 or the final square {size}: "
                                     "{jumps}", size=size, jumps=", ".join(ends)))
        selfs = [f"{a}->{b}" for a, b in clean.items() if a == b]
        if selfs:
            problems.append(_english("jumps onto their own square: {jumps}",
                                     jumps=", ".join(selfs)))
        chains = [f"{a}->{b} lands on the source of {b}->{clean[b]}"
                  + (" (a loop)" if clean[b] == a else "")
                  for a, b in clean.items() if b in clean and a != b]
        if chains:
            problems.append("chained jumps: " + "; ".join(chains))
        if problems:
            raise ValueError(say("invalid jumps: {problems}", problems="; ".join(problems)))
        return clean

    @staticmethod
    def _check_traps(traps: Any, size: int, jumps: Mapping[int, int]) -> tuple[int, ...]:
        if isinstance(traps, (str, bytes, numbers.Number)) or not isinstance(traps, Iterable):
            raise ValueError(say("traps must be a collection of squares, e.g. traps=(5,), not "
                                 "{traps}", traps=repr(traps)))
        squares = sorted({_square(v, f"trap {v!r}") for v in traps})
        problems: list[str] = []
        off = [v for v in squares if not 0 <= v <= size]
        if off:
            problems.append(_english("traps off the board (squares are 0..{size}): {traps}",
                                     size=size, traps=", ".join(map(str, off))))
        if 0 in squares:
            problems.append(_english("square 0 (where every token starts) cannot be a trap"))
        if size in squares:
            problems.append(_english("the final square {size} cannot be a trap (it ends the game "
                                     "anyway)", size=size))
        sources = [f"{v} (the jump {v}->{jumps[v]})" for v in squares if v in jumps]
        if sources:
            problems.append("a trap cannot be a jump's source: " + ", ".join(sources))
        if problems:
            raise ValueError(say("invalid traps: {problems}", problems="; ".join(problems)))
        return tuple(squares)

    def _build_roll_table(self) -> np.ndarray:
        """``table[s, r-1]`` = the square one roll of face r ends on from square s."""
        n, m = self._size, len(self._probabilities)
        s = np.arange(n + 1)[:, None]
        table = _landings(s, s + np.arange(1, m + 1)[None, :], n, self._overshoot, self._jumps)
        table[n, :] = n
        for v in self._traps:                      # a trap absorbs, like the final square
            table[v, :] = v
        table.setflags(write=False)
        return table

    def _check_finishable(self) -> None:
        stuck = np.flatnonzero(~_can_finish(self._roll_table, self._probabilities, self.absorbing))
        if stuck.size:
            n = self._size
            where = _ranges(stuck.tolist())
            raise ValueError(
                say("unfinishable board: the final square {n} can never be reached from squares "
                    "{squares}", n=n, squares=where) if not self._traps else
                say("unfinishable board: neither the final square {n} nor a trap can ever be "
                    "reached from squares {squares}", n=n, squares=where))

    # ----------------------------------------------------------------- properties
    @property
    def jumps(self) -> Mapping[int, int]:
        """Read-only ``{source: destination}`` of every jump, sorted by source."""
        return self._jumps

    @property
    def ladders(self) -> dict[int, int]:
        """The jumps that go up."""
        return {a: b for a, b in self._jumps.items() if b > a}

    @property
    def chutes(self) -> dict[int, int]:
        """The jumps that go down."""
        return {a: b for a, b in self._jumps.items() if b < a}

    @property
    def size(self) -> int:
        """The final square n."""
        return self._size

    @property
    def die(self) -> int | tuple[Any, ...]:
        """The die as given: a number of faces or a tuple of weights."""
        return self._die

    @property
    def faces(self) -> int:
        """The number of faces m (including faces of weight zero)."""
        return len(self._probabilities)

    @property
    def probabilities(self) -> tuple[Fraction, ...]:
        """Exact probabilities of faces 1..m."""
        return self._probabilities

    @property
    def overshoot(self) -> str:
        """The overshoot rule."""
        return self._overshoot

    @property
    def bonus_roll(self) -> int | None:
        """The face that gives another roll in the same turn, or None."""
        return self._bonus_roll

    @property
    def traps(self) -> tuple[int, ...]:
        """The trap squares, in increasing order (empty if the board has none)."""
        return self._traps

    @property
    def absorbing(self) -> tuple[int, ...]:
        """The squares where the game ends: the traps in increasing order, then the final square."""
        return (*self._traps, self._size)

    @property
    def name(self) -> str:
        """A label for displays (not part of equality)."""
        return self._name

    def landing(self, square: int, face: int) -> int:
        """The square that one roll of ``face`` from ``square`` ends on, jump included.

        Parameters
        ----------
        square : int
            A square in ``0..size``.
        face : int
            A face in ``1..faces``.

        Returns
        -------
        int
            :math:`\\ell(s, r)` of the module docstring (bonus rolls are not applied here). From an
            absorbing square (a trap or the final square) the token stays where it is.
        """
        square = _on_board(self, square, "square")
        face = _square(face, "face")
        if not 1 <= face <= self.faces:
            raise ValueError(say("face {face} is not on the die (1..{faces})", face=face,
                                 faces=self.faces))
        return int(self._roll_table[square, face - 1])

    # ----------------------------------------------------------------- new boards
    def _replace(self, **changes: Any) -> Board:
        fields: dict[str, Any] = {"jumps": dict(self._jumps), "size": self._size, "die": self._die,
                                  "overshoot": self._overshoot, "bonus_roll": self._bonus_roll,
                                  "name": "", "traps": self._traps}
        fields.update(changes)
        return Board(**fields)

    def with_jump(self, source: int, destination: int) -> Board:
        """A new board with the jump ``source -> destination`` added.

        Raises
        ------
        ValueError
            If ``source`` already has a jump, or the new board breaks a rule.
        """
        source = _square(source, "jump source")
        if source in self._jumps:
            raise ValueError(say("square {source} already has the jump {source}->{destination}; "
                                 "remove it first with without_jump", source=source,
                                 destination=self._jumps[source]))
        return self._replace(jumps={**self._jumps, source: destination})

    def without_jump(self, source: int) -> Board:
        """A new board without the jump that starts on ``source``.

        Raises
        ------
        ValueError
            If no jump starts on ``source``, or the new board is unfinishable.
        """
        source = _square(source, "jump source")
        if source not in self._jumps:
            raise ValueError(say("no jump starts on square {source}; the sources are {sources}",
                                 source=source, sources=_ranges(self._jumps) or "none"))
        return self._replace(jumps={a: b for a, b in self._jumps.items() if a != source})

    def replace(self, **changes: Any) -> Board:
        """A new board with some of ``size``, ``die``, ``overshoot``, ``bonus_roll``, ``jumps``,
        ``name``, ``traps`` changed (the others kept)."""
        unknown = set(changes) - {"jumps", "size", "die", "overshoot", "bonus_roll", "name",
                                  "traps"}
        if unknown:
            raise ValueError(f"Board has no field(s) {sorted(unknown)}")
        return self._replace(**changes)

    # ----------------------------------------------------------------- value semantics
    def _key(self) -> tuple[Any, ...]:
        return (tuple(self._jumps.items()), self._size, self._probabilities, self._overshoot,
                self._bonus_roll, self._traps)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Board is immutable: use with_jump, without_jump or replace")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Board is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (dict(self._jumps), self._size, self._die, self._overshoot,
                           self._bonus_roll, self._name, self._traps))

    def __repr__(self) -> str:
        extra = f", name={self._name!r}" if self._name else ""
        if self._traps:
            extra += f", traps={self._traps!r}"
        return (f"Board(jumps={dict(self._jumps)!r}, size={self._size}, die={self._die!r}, "
                f"overshoot={self._overshoot!r}, bonus_roll={self._bonus_roll!r}{extra})")


def _rebuild(jumps: dict[int, int], size: int, die: Any, overshoot: str, bonus_roll: int | None,
             name: str, traps: tuple[int, ...] = ()) -> Board:
    return Board(jumps, size=size, die=die, overshoot=overshoot, bonus_roll=bonus_roll, name=name,
                 traps=traps)


RANDOM_BOARD_TRIES = 100
"""How many draws :func:`random_board` makes before it gives up on finding a finishable board."""


def random_board(size: int, jumps: int, *, seed: int | np.random.Generator | None = None,
                 die: int | Iterable[float | Fraction] = 6, overshoot: str = "stay") -> Board:
    """A random board of any size with a given number of jumps, the same for the same seed.

    The sources are ``jumps`` distinct squares drawn uniformly from ``1..size-1``; each
    destination is drawn uniformly from the squares ``0..size`` that are not sources (so jumps
    never chain): a jump from square :math:`a` is a ladder with probability about
    :math:`(n - a)/n`. A draw whose board cannot be finished is thrown away and the next one is
    taken from the same generator, so the result still depends on the seed only.

    Parameters
    ----------
    size : int
        The final square :math:`n` (at least 2).
    jumps : int
        The number of jumps, ``0..size-1``.
    seed : int, numpy.random.Generator or None
        The source of randomness; the same int gives the same board on every machine.
    die : int or sequence of float, default 6
        As for :class:`Board`.
    overshoot : {"stay", "win", "bounce", "stop_short"}, default "stay"
        As for :class:`Board`.

    Returns
    -------
    Board
        A validated board named after its recipe.

    Raises
    ------
    ValueError
        For a bad size, number of jumps, die or rule, or if ``RANDOM_BOARD_TRIES`` draws in a row
        gave unfinishable boards (too many jumps for the board: ask for fewer).

    Examples
    --------
    >>> b = random_board(4000, 400, seed=1)
    >>> b.size, len(b.jumps), b == random_board(4000, 400, seed=1)
    (4000, 400, True)
    """
    plain = Board(size=size, die=die, overshoot=overshoot)     # checks size, die and the rule
    size = plain.size
    jumps = _square(jumps, "jumps")
    if not 0 <= jumps <= size - 1:
        raise ValueError(f"jumps must be between 0 and size - 1 = {size - 1} (one jump per "
                         f"square 1..{size - 1} at most), got {jumps}")
    rng = np.random.default_rng(seed)
    name = f"random board: {size} squares, {jumps} jumps"
    if isinstance(seed, numbers.Integral):
        name += f", seed {seed}"
    for _ in range(RANDOM_BOARD_TRIES):
        sources = rng.choice(np.arange(1, size), size=jumps, replace=False)
        allowed = np.setdiff1d(np.arange(size + 1), sources, assume_unique=True)
        destinations = allowed[rng.integers(0, allowed.size, size=jumps)]
        try:
            return plain._replace(jumps=dict(zip(sources.tolist(), destinations.tolist(),
                                                 strict=True)), name=name)
        except ValueError as error:
            if not str(error).startswith("unfinishable board"):
                raise                                                # pragma: no cover
    raise ValueError(f"random_board({size}, {jumps}): {RANDOM_BOARD_TRIES} draws in a row could "
                     f"not be finished (too many jumps for {size} squares); ask for fewer jumps")


# --------------------------------------------------------------------------- the JSON form
JSON_FIELDS: tuple[str, ...] = ("size", "die", "overshoot", "bonus_roll", "jumps", "traps")
"""The fields of a board's JSON form (what the explorers' pages and their Node tests read), in
order."""


def _weight(w: Any) -> int | float:
    """A die weight as a JSON number (ints stay ints)."""
    if isinstance(w, numbers.Integral):
        return int(w)
    return float(w)


def _die_json(die: int | tuple[Any, ...]) -> int | list[int | float]:
    """The die as JSON: a number of faces, or weights. Rational weights that are not whole
    (``Fraction(1, 3)``) are scaled to whole numbers by the least common multiple of their
    denominators: the same probabilities, written exactly."""
    if not isinstance(die, tuple):                  # a number of faces (Board keeps an int)
        return int(die)
    weights = list(die)
    if weights and all(isinstance(w, numbers.Rational) for w in weights):
        denominators = [int(Fraction(w).denominator) for w in weights]
        if any(d != 1 for d in denominators):
            scale = math.lcm(*denominators)
            return [int(Fraction(w) * scale) for w in weights]
    return [_weight(w) for w in weights]


def board_to_json(board: Board) -> dict[str, Any]:
    """The board in its JSON form, the one the explorers' pages and the Node tests read.

    Parameters
    ----------
    board : Board
        Any board.

    Returns
    -------
    dict
        ``size``; ``die`` (an int, or a list of weights: ints, floats, and fractions scaled to
        whole numbers with the same probabilities); ``overshoot``; ``bonus_roll`` (None for none);
        ``jumps`` (``[source, destination]`` pairs sorted by source); ``traps`` (sorted). The name
        is not part of it. ``board_from_json`` of it equals ``board``.

    Raises
    ------
    ValueError
        If ``board`` is not a Board.
    """
    if not isinstance(board, Board):
        raise ValueError(f"board_to_json needs a Board, not {type(board).__name__}")
    return {"size": board.size, "die": _die_json(board.die), "overshoot": board.overshoot,
            "bonus_roll": board.bonus_roll,
            "jumps": [[int(a), int(b)] for a, b in board.jumps.items()],
            "traps": [int(t) for t in board.traps]}


def board_from_json(data: Mapping[str, Any], name: str = "") -> Board:
    """Build a Board from its JSON form (a field left out takes Board's default).

    Parameters
    ----------
    data : mapping
        Some of ``size``, ``die``, ``overshoot``, ``bonus_roll``, ``jumps`` (``[source,
        destination]`` pairs) and ``traps``, as JSON gives them.
    name : str, default ""
        The board's name.

    Returns
    -------
    Board

    Raises
    ------
    ValueError
        If ``data`` is not a mapping or has other keys, or with Board's own message for a board
        that breaks a rule (the words the page shows for the same board).
    """
    if not isinstance(data, Mapping):
        raise ValueError(f"a board in JSON form is a mapping of {', '.join(JSON_FIELDS)}, "
                         f"not {type(data).__name__}")
    unknown = sorted(str(k) for k in data if k not in JSON_FIELDS)
    if unknown:
        raise ValueError(f"unknown board field(s) {unknown}; "
                         f"the fields are {', '.join(JSON_FIELDS)}")
    return Board(**{k: data[k] for k in JSON_FIELDS if k in data}, name=name)
