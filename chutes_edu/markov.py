r"""Chutes and Ladders as an absorbing Markov chain: exact and fast answers for any board.

States are the squares :math:`0..n`. One **turn** moves the token with the transition matrix

.. math:: P_{st} = \Pr(\text{a turn that starts on } s \text{ ends on } t),

which is row-stochastic; the final square :math:`n` is the only absorbing state (unless the board
has traps, below). Ordering the squares :math:`0..n-1` first,

.. math:: P = \begin{pmatrix} Q & R \\ 0 & 1 \end{pmatrix}, \qquad
          N = (I - Q)^{-1} = I + Q + Q^2 + \cdots,

where :math:`N_{ij}` is the expected number of turns that a game starting on :math:`i` begins on
:math:`j` (the *fundamental matrix*; Sierakowski; Hochman).

**Traps** are absorbing too. Then :math:`Q` is :math:`P` restricted to the *transient* squares
(``0..n-1`` without the traps), :math:`R` has one column per absorbing square, and every formula
here holds with "the game ends" for "the token reaches :math:`n`". :func:`fundamental_matrix` keeps
its shape ``(n, n)`` and gives a trap's row and column as zeros (no turn is ever begun on a trap),
so that still :math:`t = N\mathbf 1` with :math:`t_v = 0` on a trap :math:`v`. Where the game ends,
:math:`B = NR`, is in :mod:`chutes_edu.absorption`. The expected number of turns to finish is

.. math:: t = N\mathbf 1, \quad\text{i.e. the solution of}\quad (I - Q)\,t = \mathbf 1,

the first-step equations :math:`t_s = 1 + \sum_u P_{su} t_u` of the blog post. The game length
:math:`T` from a start :math:`s` has :math:`\Pr(T = k) = (Q^{k-1} R)_s` for :math:`k \ge 1`.

**Bonus rolls** (Noordenbos's "a six rolls again"). With one roll's matrix :math:`B` split by face
into :math:`B = B_{\text{other}} + B_f`, and :math:`B_f = F_{\text{end}} + F_{\text{on}}` (the rolls
of :math:`f` that end the game, and those that go on), a turn is :math:`P = (I - F_{\text{on}})^{-1}
(B_{\text{other}} + F_{\text{end}})`: a geometric series over the repeats, exact with no depth cut.
For expected turns the same game can be counted roll by roll: a roll costs a turn unless it follows
a bonus face, so :math:`t_s = c_s + \sum_u B_{su} t_u` with
:math:`c_s = 1 - p_f\,[\ell(s, f) \text{ does not end the game}]` (the expected number of turns
*ended* by that roll: every roll ends its turn, except a bonus face after which play goes on).

**Adding a jump** :math:`a \to b` moves column :math:`a` of the one-roll matrix to column :math:`b`:
a rank-one change :math:`I - B'_Q = (I - B_Q) + k u^\top` with :math:`k = B_{\cdot a}` and
:math:`u = e_a - e_b`. Sherman-Morrison gives every such board's answer from one :math:`N`:

.. math:: t'_0 = t_0 - y_0 \frac{t_a - t_b}{1 + y_a - y_b}, \qquad y = N_B k.

A jump is *surprising* when it works against its kind: a ladder (:math:`b > a`) with
:math:`t'_0 > t_0` or a chute (:math:`b < a`) with :math:`t'_0 < t_0`;
:func:`surprising_jumps` marks them in the table that :func:`jump_effects` returns.

**Big boards.** A row of :math:`I - Q` has at most ``faces + 1`` entries (one per face, plus the
diagonal), so the system is sparse, and nearly banded: without jumps every move goes at most
``faces`` squares forward, and each jump adds one entry far from the diagonal. Up to
``DENSE_MAX`` squares everything is dense LAPACK, as fast there and unchanged to the last bit.
Above it, nothing of size :math:`n^2` is formed: :math:`t` comes from a sparse LU (SuperLU, in
``scipy.sparse.linalg``) of the roll-by-roll system :math:`(I - B_Q)\,t = c` (which is the
first-step system itself when there is no bonus face); the game-length distribution from one
sparse product :math:`v \mapsto vP` per turn, with :math:`P` applied as
:math:`(I - F_{\text{on}})^{-1}(B_{\text{other}} + F_{\text{end}})` through a sparse solve, never
formed; and :func:`jump_effects` from the columns of :math:`N_B` that it needs, solved with the same
LU. On a 4,000-square board with 400 jumps the sparse solve is about a hundred times faster than a
dense one (``make bench``). The exact solver stays dense: each doubling of the board costs it
about 5 to 7 times more from a few hundred squares on (measured: about 0.01 s at 100 squares, 1 s at
800, 6 s at 1,600, as the fractions' digits grow with the board), and
``expected_turns(exact=True)`` refuses boards above ``EXACT_MAX`` squares.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ._lazy import sp, spla, sympy
from .board import Board, _can_finish, _on_board, _ranges, _square
from .i18n import say

__all__ = ["transition_matrix", "fundamental_matrix", "expected_turns", "turn_distribution",
           "square_distribution", "win_probabilities", "jump_effects", "surprising_jumps"]

TAIL = 1e-12
"""``turn_distribution`` stops once the unfinished probability left is below this."""

MAX_TURNS = 10_000_000
"""The longest distribution ``turn_distribution`` will build (80 MB of floats)."""

DENSE_MAX = 200
"""Boards up to this size are solved with dense LAPACK; bigger ones with a sparse LU (scipy).

Each row of :math:`I - Q` has at most ``faces + 1`` entries, so on a big board a sparse LU
(SuperLU) solves it in time and memory that grow about linearly with the size, where a dense
solve grows like :math:`n^3` and :math:`n^2`. Small boards keep the dense path, which is as fast
there and gives the same numbers as ever, to the last bit."""

JUMP_EFFECTS_MAX = 25_000_000
"""The most prices ``jump_effects`` returns at once (200 MB of floats): the whole sweep up to a
board of 4,999 squares; bigger boards ask for ``sources=`` and/or ``destinations=``."""

DISTRIBUTION_WORK = 5e10
"""On a big board ``turn_distribution`` and ``square_distribution`` cost about (turns) x (squares)
operations; they refuse (``ValueError``) beyond this, about a minute of work."""

EXACT_MAX = 2_000
"""The largest board ``expected_turns(exact=True)`` solves; the time of the exact solve grows 5 to 7
times with each doubling of the board (about ten seconds at 2,000 squares), so bigger boards raise
``ValueError``."""


# --------------------------------------------------------------------------- one roll, one turn
def _cached(board: Board, key: Any, build: Any) -> Any:
    cache = board._cache
    if key not in cache:
        cache[key] = build()
    return cache[key]


def _absorbing_mask(board: Board) -> np.ndarray:
    """``mask[s]`` is True where the game ends: the traps and the final square."""
    def build() -> np.ndarray:
        mask = np.zeros(board.size + 1, dtype=bool)
        mask[list(board.absorbing)] = True
        mask.setflags(write=False)
        return mask
    return _cached(board, "absorbing_mask", build)


def _transient(board: Board) -> np.ndarray:
    """The transient squares (where the game goes on), in increasing order."""
    def build() -> np.ndarray:
        live = np.flatnonzero(~_absorbing_mask(board))
        live.setflags(write=False)
        return live
    return _cached(board, "transient", build)


def _q_and_ends(board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The transient squares, :math:`Q` over them and each one's chance of ending the game in one
    turn (the row sums of :math:`R`)."""
    P, n = _turn_matrix(board), board.size
    if not board.traps:
        return _transient(board), P[:n, :n], P[:n, n]
    live = _transient(board)
    return live, P[np.ix_(live, live)], P[live][:, list(board.absorbing)].sum(axis=1)


def _roll_matrix(board: Board) -> np.ndarray:
    """The one-roll matrix B (bonus rolls not applied), float, read-only."""
    def build() -> np.ndarray:
        n = board.size
        probs = np.array([float(p) for p in board.probabilities])
        B = np.zeros((n + 1, n + 1))
        rows = np.repeat(np.arange(n + 1), board.faces)
        np.add.at(B, (rows, board._roll_table.ravel()), np.tile(probs, n + 1))
        for a in board.absorbing:                    # the traps and the final square absorb,
            B[a] = 0.0
            B[a, a] = 1.0                            # exactly, not six sixths
        B.setflags(write=False)
        return B
    return _cached(board, "roll_matrix", build)


def _turn_matrix(board: Board) -> np.ndarray:
    """The one-turn matrix P, float, read-only (shared; callers must not modify it)."""
    def build() -> np.ndarray:
        B = _roll_matrix(board)
        f = board.bonus_roll
        if f is None:
            return B
        n = board.size
        pf = float(board.probabilities[f - 1])
        dest = board._roll_table[:, f - 1]
        on = np.zeros_like(B)                  # F_on: a bonus face after which the game goes on
        live = ~_absorbing_mask(board)
        src = np.flatnonzero(live & live[dest])
        on[src, dest[src]] = pf
        P = np.linalg.solve(np.eye(n + 1) - on, B - on)   # (I - F_on)^{-1} (B_other + F_end)
        for a in board.absorbing:
            P[a] = 0.0
            P[a, a] = 1.0
        np.clip(P, 0.0, None, out=P)
        P /= P.sum(axis=1, keepdims=True)
        P.setflags(write=False)
        return P
    return _cached(board, "turn_matrix", build)


def _roll_entries(board: Board,
                  squares: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The one-roll moves from squares ``0..squares-1``: (from, to, probability, face), faces of
    weight zero left out, one entry per face (a square reached by two faces has two entries)."""
    probs = np.array([float(p) for p in board.probabilities])
    rows = np.repeat(np.arange(squares), board.faces)
    cols = board._roll_table[:squares].ravel()
    data = np.tile(probs, squares)
    faces = np.tile(np.arange(1, board.faces + 1), squares)
    keep = data > 0
    return rows[keep], cols[keep], data[keep], faces[keep]


def _roll_system(board: Board) -> tuple[Any, np.ndarray]:
    r"""The roll-by-roll system :math:`(I - B_Q)\,t = c` over the squares ``0..size-1``, sparse.

    ``A`` is CSC; a trap's row and column hold only its diagonal 1, and its :math:`c` is 0, so that
    :math:`t_v = 0` (as in the exact solver). With no bonus face :math:`B = P` and :math:`c = 1`
    on the other squares, the first-step equations themselves.
    """
    def build() -> tuple[Any, np.ndarray]:
        n = board.size
        end = _absorbing_mask(board)
        rows, cols, data, _ = _roll_entries(board, n)
        inner = ~end[rows] & ~end[cols]
        diag = np.arange(n)
        A = sp.csc_matrix((np.concatenate([np.ones(n), -data[inner]]),
                           (np.concatenate([diag, rows[inner]]),
                            np.concatenate([diag, cols[inner]]))), shape=(n, n))
        # as in the dense solve: where 1 - B_ss has lost its digits, the chance of leaving
        moves = ~end[rows] & (rows != cols)
        leave = np.bincount(rows[moves], weights=data[moves], minlength=n)[:n]
        live = np.flatnonzero(~end[:n])
        diagonal = A.diagonal()
        trusted = _trusted_diagonal(diagonal[live], leave[live])
        if trusted is not None:
            diagonal[live] = trusted
            A.setdiag(diagonal)
        c = np.where(end[:n], 0.0, 1.0)
        f = board.bonus_roll
        if f is not None:
            dest = board._roll_table[:n, f - 1]
            c[~end[:n] & ~end[dest]] = float(1 - board.probabilities[f - 1])
        return A, c
    return _cached(board, "roll_system", build)


def _roll_lu(board: Board) -> Any:
    """SuperLU factors of the sparse :math:`I - B_Q` of :func:`_roll_system` (cached)."""
    return _cached(board, "roll_lu", lambda: spla.splu(_roll_system(board)[0]))


def _stepper(board: Board) -> Callable[[np.ndarray], np.ndarray]:
    r"""A sparse ``v -> v P`` over all the squares ``0..size`` (one turn), for big boards.

    With a bonus face :math:`P = (I - F_{\text{on}})^{-1}(B_{\text{other}} + F_{\text{end}})`, so
    :math:`vP` is one sparse triangular-like solve with :math:`(I - F_{\text{on}})^\top` (at most
    two entries a row, factored once) and one sparse product: :math:`P` itself is never formed.
    """
    def build() -> Callable[[np.ndarray], np.ndarray]:
        n = board.size
        end = _absorbing_mask(board)
        rows, cols, data, faces = _roll_entries(board, n + 1)
        f = board.bonus_roll
        rest = ~end[rows]                     # an absorbing square's row is its unit vector
        on = rest & ~end[cols] & (faces == f)         # F_on: a bonus face and the game goes on
        rest &= ~on                                   # B_other + F_end
        ends = np.flatnonzero(end)
        moveT = sp.csr_matrix((np.concatenate([data[rest], np.ones(ends.size)]),
                               (np.concatenate([cols[rest], ends]),
                                np.concatenate([rows[rest], ends]))), shape=(n + 1, n + 1))
        if f is None:
            return lambda v: np.asarray(moveT @ v)
        diag = np.arange(n + 1)
        bonusT = sp.csc_matrix((np.concatenate([np.ones(n + 1), -data[on]]),
                                (np.concatenate([diag, cols[on]]),
                                 np.concatenate([diag, rows[on]]))), shape=(n + 1, n + 1))
        lu = spla.splu(bonusT)
        return lambda v: np.asarray(moveT @ lu.solve(v))
    return _cached(board, "stepper", build)


def _exact_turn_rows(board: Board) -> list[dict[int, Fraction]]:
    """Exact rows of P as ``{square: probability}``, following each chain of bonus rolls."""
    def build() -> list[dict[int, Fraction]]:
        n, probs, table, f = board.size, board.probabilities, board._roll_table, board.bonus_roll
        ends = set(board.absorbing)

        def one_roll(s: int) -> dict[int, Fraction]:
            row: dict[int, Fraction] = {}
            for r, p in enumerate(probs, start=1):
                t = int(table[s, r - 1])
                if p and (r != f or t in ends):
                    row[t] = row.get(t, Fraction(0)) + p
            return row

        rows = []
        for s in range(n + 1):
            if s in ends or f is None:
                rows.append({s: Fraction(1)} if s in ends else one_roll(s))
                continue
            pf = probs[f - 1]
            chain: list[int] = []                    # s, then where each bonus roll leaves us
            seen: dict[int, int] = {}
            u = s
            while u not in ends and u not in seen:
                seen[u] = len(chain)
                chain.append(u)
                u = int(table[u, f - 1])
            loop_from = seen.get(u) if u not in ends else None
            row: dict[int, Fraction] = {}
            for i, sq in enumerate(chain):
                weight = pf ** i
                if loop_from is not None and i >= loop_from:
                    weight /= 1 - pf ** (len(chain) - loop_from)   # the loop repeats forever
                for t, p in one_roll(sq).items():
                    row[t] = row.get(t, Fraction(0)) + weight * p
            rows.append(row)
        return rows
    return _cached(board, "exact_turn_rows", build)


def _roll_costs(board: Board) -> list[Fraction]:
    """Exact c_s: the expected number of turns ended by the roll made on square s (s < n); 0 on
    a trap, where no roll is made."""
    f, n, ends = board.bonus_roll, board.size, set(board.absorbing)
    if f is None:
        return [Fraction(0) if s in ends else Fraction(1) for s in range(n)]
    pf = board.probabilities[f - 1]
    return [Fraction(0) if s in ends else 1 - pf if board._roll_table[s, f - 1] not in ends
            else Fraction(1) for s in range(n)]


def _integer_system(board: Board) -> tuple[list[list[int]], list[int]]:
    """The roll-by-roll system (I - B_Q) t = c scaled to integers: D (I - B_Q) and D c.

    A trap's equation is t_v = 0 (scaled: D t_v = 0)."""
    n, probs, f = board.size, board.probabilities, board.bonus_roll
    end = _absorbing_mask(board).tolist()
    scale = math.lcm(*[p.denominator for p in probs])
    weights = [int(p * scale) for p in probs]
    table = board._roll_table.tolist()
    A = [[0] * n for _ in range(n)]
    rhs = [scale] * n
    for s in range(n):
        row = A[s]
        row[s] += scale
        if end[s]:
            rhs[s] = 0
            continue
        for t, w in zip(table[s], weights, strict=True):    # one weight per face
            if w and not end[t]:
                row[t] -= w
        if f is not None and not end[table[s][f - 1]]:
            rhs[s] -= weights[f - 1]           # D c_s = D (1 - p_f)
    return A, rhs


def _solve_integer(A: list[list[int]], rhs: list[int]) -> list[sympy.Rational]:
    """Solve A x = rhs exactly for an invertible integer matrix A."""
    n = len(A)
    try:
        import flint
    except ImportError:  # pragma: no cover - python-flint is a dependency; sympy alone also works
        from sympy.polys.domains import ZZ
        from sympy.polys.matrices import DomainMatrix
        x, den = DomainMatrix([[ZZ(v) for v in row] for row in A], (n, n), ZZ).solve_den(
            DomainMatrix([[ZZ(v)] for v in rhs], (n, 1), ZZ))
        return [sympy.Rational(int(v), int(den)) for v in x.to_list_flat()]
    x = flint.fmpz_mat(A).solve(flint.fmpz_mat([[v] for v in rhs]))
    return [sympy.Rational(int(x[i, 0].p), int(x[i, 0].q)) for i in range(n)]


# --------------------------------------------------------------------------- public API
def transition_matrix(board: Board, exact: bool = False) -> np.ndarray | sympy.Matrix:
    r"""The one-turn transition matrix :math:`P` of a board.

    Parameters
    ----------
    board : Board
        The board and its rules.
    exact : bool, default False
        If True, return a sympy ``Matrix`` of ``Rational`` probabilities.

    Returns
    -------
    numpy.ndarray or sympy.Matrix
        Shape ``(size + 1, size + 1)``; row :math:`s` is the distribution of the square a turn that
        starts on :math:`s` ends on, so every row sums to 1 and ``P[size, size] == 1``. With a bonus
        face the repeats are summed exactly (see the module docstring).

    Examples
    --------
    >>> from chutes_edu import MILTON_BRADLEY_1943, transition_matrix
    >>> P = transition_matrix(MILTON_BRADLEY_1943)
    >>> [int(j) for j in P[0].nonzero()[0]]      # square 1 climbs to 38, square 4 to 14
    [2, 3, 5, 6, 14, 38]
    """
    if exact:
        rows = _exact_turn_rows(board)
        size = board.size + 1
        P = sympy.zeros(size, size)
        for i, row in enumerate(rows):
            for j, p in row.items():
                P[i, j] = sympy.Rational(p.numerator, p.denominator)
        return P
    return _turn_matrix(board).copy()


def fundamental_matrix(board: Board, exact: bool = False) -> np.ndarray | sympy.Matrix:
    r"""The fundamental matrix :math:`N = (I - Q)^{-1}` over the squares ``0..size-1``.

    :math:`N_{ij}` is the expected number of turns that a game starting on square :math:`i` begins
    on square :math:`j` (counting the start itself), and :math:`N = \sum_{k \ge 0} Q^k`. Its row
    sums are the expected game lengths: ``N.sum(axis=1) == expected_turns(board)[:-1]``. On a board
    with traps, :math:`N = (I - Q)^{-1}` over the transient squares, and a trap's row and column
    are zero: no turn is ever begun on a trap.

    Parameters
    ----------
    board : Board
        The board and its rules.
    exact : bool, default False
        If True, return a sympy ``Matrix`` of ``Rational`` entries (exact arithmetic).

    Returns
    -------
    numpy.ndarray or sympy.Matrix
        Shape ``(size, size)``.
    """
    n = board.size
    if not exact:
        if not board.traps:
            return _exact_unentered(np.linalg.inv(np.eye(n) - _turn_matrix(board)[:n, :n]),
                                    _turn_matrix(board)[:n, :n])
        live, Q, _ = _q_and_ends(board)
        N = np.zeros((n, n))
        N[np.ix_(live, live)] = _exact_unentered(np.linalg.inv(np.eye(live.size) - Q), Q)
        return N
    live = _transient(board).tolist()
    where = {s: i for i, s in enumerate(live)}
    rows = [_exact_turn_rows(board)[s] for s in live]
    scale = math.lcm(*[p.denominator for row in rows for p in row.values()])
    k = len(live)
    dense = [[0] * k for _ in range(k)]
    for i, row in enumerate(rows):
        dense[i][i] += scale
        for j, p in row.items():
            if j in where:
                dense[i][where[j]] -= int(p * scale)
    from sympy.polys.domains import QQ
    from sympy.polys.matrices import DomainMatrix
    A = DomainMatrix([[QQ(x) for x in r] for r in dense], (k, k), QQ)
    inverse = (A.inv() * QQ(scale)).to_Matrix()
    if k == n:
        return inverse
    N = sympy.zeros(n, n)
    for i, s in enumerate(live):
        for j, u in enumerate(live):
            N[s, u] = inverse[i, j]
    return N


def _exact_unentered(N: np.ndarray, Q: np.ndarray) -> np.ndarray:
    r"""``N`` with exact zeros where a square is entered from no other square (a jump's source,
    where a token only ever stays): from :math:`N = I + NQ`, such a column :math:`j` is
    :math:`N_{ij} = 0` for :math:`i \ne j`, where the solve leaves rounding noise such as -3e-16
    visits. Its diagonal entry is left as solved."""
    others = Q.copy()
    np.fill_diagonal(others, 0.0)
    alone = np.flatnonzero(~others.any(axis=0))
    if alone.size:
        diagonal = N[alone, alone].copy()
        N[:, alone] = 0.0
        N[alone, alone] = diagonal
    return N


def expected_turns(board: Board, exact: bool = False) -> np.ndarray | sympy.Matrix:
    r"""Expected number of turns to finish from each square, :math:`t = N\mathbf 1`.

    Solves the first-step equations :math:`t_s = 1 + \sum_u P_{su} t_u`, :math:`t_n = 0`. On a
    board with traps it counts the turns until the game ends either way (:math:`t_v = 0` on a
    trap :math:`v`).

    At a jump source the value is for a token *standing* there, which rolls from that square
    (a jump fires only when a move ends on its source, so play never rests on one). A token that
    *arrives* on a jump source goes on at once: its expected turns are those of the destination.

    Parameters
    ----------
    board : Board
        The board and its rules.
    exact : bool, default False
        If True, solve over the rationals and return a sympy column ``Matrix`` of ``Rational``
        (on the 1943 board the answer from square 0 is a fraction of 60 and 58 digits).

    Returns
    -------
    numpy.ndarray or sympy.Matrix
        Length ``size + 1``; entry ``size`` (and a trap's entry) is 0.

    Raises
    ------
    ValueError
        With ``exact=True`` on a board of more than ``EXACT_MAX`` squares.

    Notes
    -----
    Boards of more than ``DENSE_MAX`` squares are solved with a sparse LU (see the module
    docstring): 10,000 squares take a fraction of a second. The answers agree with a dense solve
    to about 1e-13.

    Examples
    --------
    >>> from chutes_edu import MILTON_BRADLEY_1943, expected_turns
    >>> round(float(expected_turns(MILTON_BRADLEY_1943)[0]), 7)
    39.2251223
    """
    if exact:
        if board.size > EXACT_MAX:
            raise ValueError(say("an exact solve of a board of {size} squares would take many "
                                 "minutes (the cost grows 5 to 7 times with each doubling of the "
                                 "board; the limit is EXACT_MAX = {most} squares): use "
                                 "expected_turns(board) for floats, which agree with the exact "
                                 "answer to about 1e-12", size=board.size, most=EXACT_MAX))
        def build() -> sympy.Matrix:
            return sympy.Matrix([*_solve_integer(*_integer_system(board)), sympy.Integer(0)])
        return _cached(board, "expected_exact", build).copy()
    return _expected_float(board).copy()


def _leaving_on_the_diagonal(A: np.ndarray, rows: np.ndarray, live: np.ndarray) -> None:
    """Where ``1 - Q[s, s]`` on the diagonal of ``A`` (= I - Q) has lost its digits, put there the
    chance of leaving s, summed from the other entries of its row of ``rows`` (P's rows ``live``).

    Staying put can be nearly certain (a face of weight 1e-17 the only way on): then
    ``1 - Q[s, s]`` cancels to 0, or keeps a few wrong digits, and a solvable system looks
    singular. Where the two agree (every usual board) the diagonal is left as it is, so that the
    answers stay the same to the last bit.
    """
    near = np.flatnonzero(rows[np.arange(live.size), live] > 0.5)
    if near.size == 0:
        return
    others = rows[near].copy()
    others[np.arange(near.size), live[near]] = 0.0
    trusted = _trusted_diagonal(A[near, near], others.sum(axis=1))
    if trusted is not None:
        A[near, near] = trusted


def _trusted_diagonal(diagonal: np.ndarray, leave: np.ndarray) -> np.ndarray | None:
    """The entries ``1 - Q[s, s]`` of ``diagonal``, each replaced by ``leave[s]`` (the chance of
    leaving s, summed from the rest of its row) where the two differ by more than 1e-9 relative;
    ``None`` where none does (the dense and the sparse solve share this rule)."""
    lost = np.abs(diagonal - leave) > 1e-9 * leave
    return np.where(lost, leave, diagonal) if lost.any() else None


def _expected_float(board: Board) -> np.ndarray:
    def build() -> np.ndarray:
        n = board.size
        t = np.zeros(n + 1)
        if n > DENSE_MAX:                      # sparse LU of the roll-by-roll system
            t[:n] = _roll_lu(board).solve(_roll_system(board)[1])
            t[list(board.traps)] = 0.0
        elif board.traps:
            live, Q, _ = _q_and_ends(board)
            A = np.eye(live.size) - Q
            _leaving_on_the_diagonal(A, _turn_matrix(board)[live], live)
            t[live] = np.linalg.solve(A, np.ones(live.size))
        else:
            A = np.eye(n) - _turn_matrix(board)[:n, :n]
            _leaving_on_the_diagonal(A, _turn_matrix(board)[:n], np.arange(n))
            t[:n] = np.linalg.solve(A, np.ones(n))
        t.setflags(write=False)
        return t
    return _cached(board, "expected_float", build)


def turn_distribution(board: Board, start: int = 0, *, tail: float = TAIL,
                      max_turns: int = MAX_TURNS) -> np.ndarray:
    r"""The distribution of the game's length: ``pmf[k]`` = P(the game takes exactly k turns).

    On a board with traps the game ends on the final square or on a trap, whichever comes.

    :math:`\Pr(T = k) = (Q^{k-1} R)_{\text{start}}`. The array is long enough that the
    probability of a game longer than ``len(pmf) - 1`` turns is below ``tail``, however slow the
    board: no fixed cut-off (Noordenbos stops at 1000 turns).

    Parameters
    ----------
    board : Board
        The board and its rules.
    start : int, default 0
        The square the token starts on (the final square, or a trap, gives ``[1.0]``).
    tail : float, default 1e-12
        The unfinished probability that may be left out.
    max_turns : int, default 10_000_000
        Refuse (``ValueError``) a board so slow that the array would be longer than this. On a
        board of more than ``DENSE_MAX`` squares, where each term is one sparse product
        :math:`vP`, also refuse one that needs more than ``DISTRIBUTION_WORK`` square-turns.

    Returns
    -------
    numpy.ndarray
        ``pmf`` with ``pmf[0] == 0`` (unless starting on the final square) and
        ``1 - pmf.sum() < tail``.

    Examples
    --------
    >>> from chutes_edu import MILTON_BRADLEY_1943, turn_distribution
    >>> pmf = turn_distribution(MILTON_BRADLEY_1943)
    >>> int(pmf.nonzero()[0][0])     # the shortest game
    7
    """
    start = _on_board(board, start, "start")
    if not 0 < tail < 1:
        raise ValueError(say("tail must be between 0 and 1, got {tail}", tail=tail))
    max_turns = _square(max_turns, "max_turns")
    pmf = _cached(board, ("turn_distribution", start, float(tail), max_turns),
                  lambda: _distribution(board, start, tail, max_turns))
    return pmf.copy()


def _too_slow(board: Board, tail: float, max_turns: int) -> None:
    """Raise ``ValueError`` if the pmf of a big board needs more than ``max_turns`` terms, or more
    than ``DISTRIBUTION_WORK`` square-turns (sparse path)."""
    worst = float(_expected_float(board).max())
    squares = board.size + 1
    bound = 2 * worst * math.ceil(math.log2(1 / tail))   # P(T > bound) < tail (Markov, doubling)
    if bound <= max_turns and bound * squares <= DISTRIBUTION_WORK:
        return
    live = _transient(board)
    step = _stepper(board)

    def left(x: np.ndarray) -> np.ndarray:           # x Q on the transient squares
        full = np.zeros(squares)
        full[live] = x
        return step(full)[live]

    # The decay rate: the Perron root of Q (ARPACK, on the sparse operator), from a fixed positive
    # start (ARPACK's own is random, and near a root of 1 the terms named below moved by 2%).
    try:
        operator = spla.LinearOperator((live.size, live.size), matvec=left, dtype=float)
        values = spla.eigs(operator, k=1, which="LM", return_eigenvectors=False, tol=1e-8,
                           maxiter=5000, v0=np.full(live.size, 1.0 / live.size))
        radius = float(np.abs(values).max())
        needed = math.log(tail) / math.log(radius) if radius < 1 else math.inf
    except (spla.ArpackNoConvergence, spla.ArpackError):         # keep the bound
        needed = bound
    if needed > max_turns or needed * squares > DISTRIBUTION_WORK:
        raise ValueError(say("this board is too slow for an exact distribution: games take "
                             "{worst} turns on average from the slowest square, so about "
                             "{needed} terms of {squares} squares each would be needed "
                             "(max_turns={maxTurns}, DISTRIBUTION_WORK={work}); "
                             "use simulate() instead", worst=f"{worst:.4g}",
                             needed=f"{needed:.3g}", squares=squares, maxTurns=max_turns,
                             work=f"{DISTRIBUTION_WORK:g}"))


def _distribution_sparse(board: Board, start: int, tail: float, max_turns: int) -> np.ndarray:
    """``turn_distribution`` for a big board: one sparse ``v -> v P`` per turn."""
    _too_slow(board, tail, max_turns)
    step = _stepper(board)
    ends = list(board.absorbing)
    v = np.zeros(board.size + 1)
    v[start] = 1.0
    pmf = [0.0]
    total = 0.0                                       # probability of the games finished so far
    while True:
        v = step(v)
        finish = float(v[ends].sum())                 # P(T = k + 1)
        v[ends] = 0.0
        after = float(v.sum())                        # P(T > k + 1)
        total += finish
        pmf.append(finish)
        # The same stopping rule as the dense path (both counts of what is left below `tail`).
        if (after < tail and 1.0 - total < tail) or after < tail * 1e-3:
            break
        if len(pmf) > max_turns:
            raise ValueError(say("the distribution needs more than max_turns={maxTurns} terms",
                                 maxTurns=max_turns))
    out = np.array(pmf)
    np.clip(out, 0.0, None, out=out)
    return out


def _distribution(board: Board, start: int, tail: float, max_turns: int) -> np.ndarray:
    if start in board.absorbing:
        return np.array([1.0])
    if board.size > DENSE_MAX:
        return _distribution_sparse(board, start, tail, max_turns)
    live, Q, absorb = _q_and_ends(board)
    n = live.size
    start = int(np.searchsorted(live, start))          # its index among the transient squares
    worst = float(_expected_float(board).max())
    # From any square P(T > 2 t_max) <= 1/2 (Markov), so P(T > 2 t_max j) <= 2^-j.
    if 2 * worst * math.ceil(math.log2(1 / tail)) > max_turns:
        radius = float(np.abs(np.linalg.eigvals(Q)).max())
        needed = math.log(tail) / math.log(radius) if radius < 1 else math.inf
        if needed > max_turns:
            raise ValueError(say("this board is too slow for an exact distribution: games take "
                                 "{worst} turns on average from the slowest square, so about "
                                 "{needed} terms would be needed (max_turns={maxTurns}); "
                                 "use simulate() instead", worst=f"{worst:.4g}",
                                 needed=f"{needed:.3g}", maxTurns=max_turns))
    # Rows of `block` are v Q^k for consecutive k; doubling builds the first block, then each
    # block is the previous one times Q^len(block): one BLAS call per block, not per turn.
    block = np.zeros((1, n))
    block[0, start] = 1.0
    power = Q
    while block.shape[0] < 256:
        block = np.vstack([block, block @ power])
        power = power @ power
    if block.shape[0] < 4096 and worst > 200:     # slow boards: longer blocks, fewer calls
        while block.shape[0] < 4096:
            block = np.vstack([block, block @ power])
            power = power @ power
    pieces = [np.zeros(1)]
    total = 0.0                                       # probability of the games finished so far
    done = 0
    while True:
        left = block.sum(axis=1)                      # P(T > k) for the block's k
        finish = block @ absorb                       # P(T = k + 1)
        cumulative = total + np.cumsum(finish)
        after = np.append(left[1:], (block[-1] @ Q).sum())   # P(T > k + 1)
        # Stop when both ways of counting what is left agree it is below `tail` (they differ by
        # rounding); the second test alone ends it if rounding keeps 1 - sum above `tail`.
        good = ((after < tail) & (1.0 - cumulative < tail)) | (after < tail * 1e-3)
        if good.any():
            pieces.append(finish[: int(np.argmax(good)) + 1])
            break
        pieces.append(finish)
        total = float(cumulative[-1])
        done += block.shape[0]
        if done > max_turns:
            raise ValueError(say("the distribution needs more than max_turns={maxTurns} terms",
                                 maxTurns=max_turns))
        block = block @ power
    pmf = np.concatenate(pieces)
    np.clip(pmf, 0.0, None, out=pmf)
    return pmf


def square_distribution(board: Board, turns: int, start: int = 0) -> np.ndarray:
    r"""Where the token is after a number of turns: row ``start`` of :math:`P^k`.

    Entry ``j`` is the probability that after ``turns`` turns the token is on square ``j``; the last
    entry is the probability that the game is over by then, :math:`\Pr(T \le k)` (on a board with
    traps, that it has ended on the final square; a trap's entry is the chance that it has ended
    there).

    Parameters
    ----------
    board : Board
        The board and its rules.
    turns : int
        The number of turns :math:`k \ge 0`.
    start : int, default 0
        The square the token starts on.

    Returns
    -------
    numpy.ndarray
        Length ``size + 1``, summing to 1.

    Raises
    ------
    ValueError
        For negative ``turns``, a start off the board, or on a board of more than ``DENSE_MAX``
        squares (one sparse product per turn) more than ``DISTRIBUTION_WORK`` square-turns.

    Examples
    --------
    >>> from chutes_edu import MILTON_BRADLEY_1943, square_distribution
    >>> after_one = square_distribution(MILTON_BRADLEY_1943, 1)
    >>> [int(j) for j in after_one.nonzero()[0]]
    [2, 3, 5, 6, 14, 38]
    """
    start = _on_board(board, start, "start")
    turns = _square(turns, "turns")
    if turns < 0:
        raise ValueError(say("turns must be 0 or more, got {turns}", turns=turns))
    row = np.zeros(board.size + 1)
    row[start] = 1.0
    if board.size <= DENSE_MAX:
        return row @ np.linalg.matrix_power(_turn_matrix(board), turns)
    if turns * (board.size + 1) > DISTRIBUTION_WORK:
        raise ValueError(say("{turns} turns on a board of {size} squares is too much work for "
                             "sparse products (turns x squares > {work}); the game is almost "
                             "surely over long before: use turn_distribution or simulate",
                             turns=turns, size=board.size, work=f"{DISTRIBUTION_WORK:g}"))
    step = _stepper(board)
    for _ in range(turns):
        row = step(row)
    return row


def win_probabilities(board: Board, positions: Sequence[int]) -> np.ndarray:
    r"""The probability that each player finishes first, seat 0 moving first (Noordenbos).

    With :math:`T_i` the turns player :math:`i` needs from their square, players moving in seat
    order, player :math:`i` wins if they finish on some turn :math:`k` before every earlier seat
    has finished (:math:`T_j > k`, :math:`j < i`) and no later seat has finished before
    (:math:`T_j \ge k`, :math:`j > i`):

    .. math:: \Pr(i \text{ wins}) = \sum_{k \ge 0} \Pr(T_i = k)
              \prod_{j < i} \Pr(T_j > k) \prod_{j > i} \Pr(T_j \ge k).

    Players move independently (tokens do not interact), so each :math:`T_i` comes from
    :func:`turn_distribution`.

    Parameters
    ----------
    board : Board
        The board and its rules.
    positions : sequence of int
        The square of each player, in seat order (at least one player).

    Returns
    -------
    numpy.ndarray
        One probability per player; they sum to 1 (within 1e-10).

    Raises
    ------
    ValueError
        For a board with traps (whether a player in a trap is out, or loses at once, is a house
        rule the race does not model), or a position off the board.

    Examples
    --------
    >>> from chutes_edu import MILTON_BRADLEY_1943, win_probabilities
    >>> p = win_probabilities(MILTON_BRADLEY_1943, [0, 0])
    >>> bool(p[0] > p[1])        # moving first is an advantage
    True
    """
    if board.traps:
        raise ValueError(say("win_probabilities does not handle traps (this board has traps on "
                             "{traps}): what a trap does to a race is a house rule",
                             traps=_ranges(board.traps)))
    squares = [_on_board(board, p, say("position of player {i}", i=i))
               for i, p in enumerate(positions)]
    if not squares:
        raise ValueError(say("win_probabilities needs at least one player"))
    pmfs = {s: turn_distribution(board, s) for s in set(squares)}
    length = max(len(p) for p in pmfs.values())
    pmf = np.zeros((len(squares), length))
    for i, s in enumerate(squares):
        pmf[i, : len(pmfs[s])] = pmfs[s]
    later = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1]   # P(T >= k), summed from the tail (accuracy)
    after = later - pmf                                  # P(T > k)
    wins = np.empty(len(squares))
    for i in range(len(squares)):
        factor = pmf[i].copy()
        for j in range(len(squares)):
            if j != i:
                factor *= after[j] if j < i else later[j]
        wins[i] = factor.sum()
    return wins


def jump_effects(board: Board, min_length: int = 1, *, sources: Iterable[int] | None = None,
                 destinations: Iterable[int] | None = None) -> np.ndarray:
    r"""Expected turns from square 0 after adding each possible jump ``a -> b``, all at once.

    Hochman's experiment over every allowed jump: entry ``[a, b]`` is ``expected_turns`` from
    square 0 of ``board.with_jump(a, b)``. Each added jump is a rank-one change of :math:`I - B_Q`
    (see the module docstring), so one factorisation serves all of them.

    Up to ``DENSE_MAX`` squares the prices come from one dense inverse :math:`N_B`. On a bigger
    board no dense inverse is formed: the price of :math:`a \to b` needs only column :math:`a`
    of :math:`N_B` (:math:`y = N_B k_a = N_B e_a - e_a`), its row 0, and :math:`t`, so the columns
    for the asked sources are solved with the sparse LU of :math:`I - B_Q`, a block at a time:
    the time grows like (sources) x (size) and the memory is the result's plus one block.
    The whole sweep returns :math:`(n+1)^2` prices, 800 MB at 10,000 squares, so beyond
    ``JUMP_EFFECTS_MAX`` entries (the whole sweep up to 4,999 squares) ask for a part of it with
    ``sources`` and/or ``destinations``.

    Parameters
    ----------
    board : Board
        The board and its rules.
    min_length : int, default 1
        Only jumps with ``abs(a - b) >= min_length``.
    sources, destinations : iterable of int, optional
        Price only the jumps from these squares and/or to these squares (each defaults to every
        square ``0..size``). With either given the result has one row per source and one column
        per destination, in the order given.

    Returns
    -------
    numpy.ndarray
        Shape ``(size + 1, size + 1)`` (or ``(len(sources), len(destinations))``), NaN where the
        jump is not allowed: ``a`` is 0, the final square, a trap, or an existing jump's source
        or destination; ``b`` is an existing source; ``a == b``; ``abs(a - b) < min_length``; or
        the new board could never be finished.

    Raises
    ------
    ValueError
        For a source or destination off the board, or a result of more than
        ``JUMP_EFFECTS_MAX`` entries (the message suggests ``sources=`` / ``destinations=``).

    Examples
    --------
    >>> from chutes_edu import MILTON_BRADLEY_1943, jump_effects
    >>> effects = jump_effects(MILTON_BRADLEY_1943)
    >>> round(float(effects[27, 29]), 2), round(float(effects[29, 27]), 2)
    (40.2, 38.05)
    >>> jump_effects(MILTON_BRADLEY_1943, sources=[27, 29], destinations=[29, 27]).round(2)
    array([[40.2 ,   nan],
           [  nan, 38.05]])
    """
    min_length = _square(min_length, "min_length")
    n = board.size
    rows = _square_list(board, sources, "source")
    cols = _square_list(board, destinations, "destination")
    if rows.size * cols.size > JUMP_EFFECTS_MAX:
        raise ValueError(say("jump_effects would return {rows} x {cols} = {prices} prices "
                             "({mb} MB), more than JUMP_EFFECTS_MAX = {most}: ask for a part with "
                             "sources=... and/or destinations=..., e.g. "
                             "jump_effects(board, sources=range(1, {stop}))", rows=rows.size,
                             cols=cols.size, prices=f"{rows.size * cols.size:,}",
                             mb=f"{rows.size * cols.size * 8 / 1e6:,.0f}",
                             most=f"{JUMP_EFFECTS_MAX:,}", stop=min(n, 1001)))
    if n > DENSE_MAX:
        return _jump_effects_sparse(board, min_length, rows, cols)
    out = _jump_effects_dense(board, min_length)
    if sources is None and destinations is None:
        return out
    return out[np.ix_(rows, cols)]


def surprising_jumps(effects: Any, baseline: float) -> np.ndarray:
    """Where an added jump works against its kind: a ladder that lengthens the game or a chute
    that shortens it.

    Parameters
    ----------
    effects : array_like
        ``effects[a, b]`` from :func:`jump_effects`.
    baseline : float
        The board's own expected turns.

    Returns
    -------
    numpy.ndarray of bool
        Same shape; True at ``[a, b]`` when ``b > a`` and the game gets longer, or ``b < a``
        and it gets shorter (by more than 1e-9 turns).
    """
    e = np.asarray(effects, dtype=float)
    a, b = np.indices(e.shape)
    with np.errstate(invalid="ignore"):
        change = e - baseline
        return ((b > a) & (change > 1e-9)) | ((b < a) & (change < -1e-9))


def _square_list(board: Board, squares: Iterable[int] | None, what: str) -> np.ndarray:
    """``squares`` as an int array of squares on the board (every square for None)."""
    if squares is None:
        return np.arange(board.size + 1)
    if isinstance(squares, (str, bytes)) or not isinstance(squares, Iterable):
        raise ValueError(say("{what} must be a collection of squares, not {squares}",
                             what=f"{what}s", squares=repr(squares)))
    items = squares.tolist() if isinstance(squares, np.ndarray) else list(squares)
    return np.array([_on_board(board, a, what) for a in items], dtype=np.int64)


def _bad_ends(board: Board, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sources ``a`` that can take no new jump, and destinations ``b`` that no jump may lead to
    (see :func:`jump_effects`)."""
    n = board.size
    sources = np.array(list(board.jumps.keys()), dtype=np.int64)
    dests = np.array(list(board.jumps.values()), dtype=np.int64)
    bad_a = (a == 0) | (a == n) | np.isin(a, sources) | np.isin(a, dests)
    bad_a |= np.isin(a, np.array(board.traps, dtype=np.int64))
    return bad_a, np.isin(b, sources)


def _jump_effects_sparse(board: Board, min_length: int, rows: np.ndarray,
                         cols: np.ndarray) -> np.ndarray:
    """:func:`jump_effects` on a big board: sparse solves for the columns of :math:`N_B` it needs,
    a block of sources at a time (memory: the result and one block)."""
    n = board.size
    out = np.full((rows.size, cols.size), np.nan)
    bad_a, bad_b = _bad_ends(board, rows, cols)
    todo = np.unique(rows[~bad_a])                    # the sources that can take a jump
    if todo.size == 0:
        return out
    lu = _roll_lu(board)
    end = _absorbing_mask(board)
    t = _expected_float(board)[:n]
    e0 = np.zeros(n)
    e0[0] = 1.0
    row0 = lu.solve(e0, trans="T")                    # N_B[0, :]
    low = np.flatnonzero(~end[cols])                  # destinations b < n, not a trap
    high = np.flatnonzero(end[cols])                  # the final square or a trap
    bl = cols[low]
    shortest = max(min_length, 1)                     # a -> a is never a jump
    f = board.bonus_roll
    if f is not None:          # W[s, a] = [l(s, f) == a], the rolls that a jump a -> n finishes
        pf = float(board.probabilities[f - 1])
        dest = board._roll_table[:n, f - 1]
        inside = np.flatnonzero(~end[:n] & ~end[dest])
        W = sp.csc_matrix((np.ones(inside.size), (inside, dest[inside])), shape=(n, n))
    where = np.searchsorted(todo, rows)               # rows[p] is todo[where[p]] when computed
    block = max(1, (1 << 20) // n)                    # about 8 MB of solved columns at a time
    suspects: dict[int, list[tuple[int, int]]] = {}   # source a -> cells (row, column) to settle
    for first in range(0, todo.size, block):
        a = todo[first: first + block]
        k = np.arange(a.size)
        E = np.zeros((n, a.size))
        E[a, k] = 1.0
        X = lu.solve(E)                               # X[:, i] = N_B[:, a_i]
        naa = X[a, k]                                 # N_B[a, a] = 1 + y_a
        y0 = row0[a]                                  # y_0 = N_B[0, a] (a is never 0)
        denom = naa[:, None] - X[bl, :].T             # 1 + y_a - y_b = N_B[a, a] - N_B[b, a]
        with np.errstate(divide="ignore", invalid="ignore"):
            prices = t[0] - y0[:, None] * (t[a][:, None] - t[bl][None, :]) / denom
            if f is None:
                finished = t[0] - y0 * t[a] / naa
            else:                                     # c' = c + p_f w_a: N c' = t + p_f N w_a
                Z = lu.solve(W[:, a].toarray())
                finished = (t[0] + pf * Z[0]) - y0 * (t[a] + pf * Z[a, k]) / naa
        mine = np.flatnonzero((rows >= a[0]) & (rows <= a[-1]) & ~bad_a)
        local = where[mine] - first
        part = np.empty((mine.size, cols.size))
        part[:, low] = prices[local]
        part[:, high] = finished[local][:, None]
        banned = bad_b[None, :] | (np.abs(rows[mine][:, None] - cols[None, :]) < shortest)
        part[banned] = np.nan
        near = np.abs(denom[local]) < 1e-9 * np.maximum(1.0, naa[local])[:, None]
        near &= ~banned[:, low]
        for i, j in zip(*np.nonzero(near), strict=True):
            suspects.setdefault(int(rows[mine[i]]), []).append((int(mine[i]), int(low[j])))
        out[mine] = part
    # A jump a -> b (b < n) makes the board unfinishable exactly when every way from b to the end
    # passes a; then the denominator is 0. Rounding blurs 0: settle the near-zero ones by a graph
    # search from the absorbing squares that avoids a (one search per such a).
    for a_sq, cells in suspects.items():
        ok = _can_finish(board._roll_table, board.probabilities, board.absorbing, avoid=a_sq)
        for p, j in cells:
            if not ok[cols[j]]:
                out[p, j] = np.nan
    return out


def _jump_effects_dense(board: Board, min_length: int) -> np.ndarray:
    """:func:`jump_effects` on a small board: the whole sweep from one dense inverse."""
    n = board.size
    B = _roll_matrix(board)
    BQ = B[:n, :n]
    traps = list(board.traps)
    if traps:                           # B_Q is over the transient squares: a trap's row and
        BQ = BQ.copy()                  # column leave it (I - B_Q is the identity there)
        BQ[traps, :] = 0.0
        BQ[:, traps] = 0.0
    costs = np.array([float(c) for c in _roll_costs(board)])
    Nb = np.linalg.inv(np.eye(n) - BQ)
    t = Nb @ costs
    Y = Nb @ BQ                         # column a: y = N k for k = column a of B_Q
    ya = np.diag(Y)                     # y_a for each a
    out = np.full((n + 1, n + 1), np.nan)
    # b < n:  t0' = t0 - y0 (t_a - t_b) / (1 + y_a - y_b)
    denom = 1.0 + ya[:, None] - Y.T     # [a, b] = 1 + Y[a, a] - Y[b, a]
    with np.errstate(divide="ignore", invalid="ignore"):
        out[:n, :n] = t[0] - Y[0][:, None] * (t[:, None] - t[None, :]) / denom
    # b = n: column a leaves the chain; with a bonus face the turns counted on rolls that now
    # finish change too: c' = c + p_f w_a with w_a = [l(s, f) == a].
    tn = t.copy()
    if board.bonus_roll is not None:
        pf = float(board.probabilities[board.bonus_roll - 1])
        W = np.zeros((n, n))
        dest = board._roll_table[:n, board.bonus_roll - 1]
        inside = ~_absorbing_mask(board)[dest]        # (on a trap, dest is the trap itself)
        W[np.flatnonzero(inside), dest[inside]] = 1.0   # W[s, a] = [l(s, f) == a]
        Z = Nb @ W
        shifted = t[:, None] + pf * Z                   # column a: N c' for jump a -> n
        out[:n, n] = shifted[0] - Y[0] * np.diag(shifted) / (1.0 + ya)
    else:
        out[:n, n] = t[0] - Y[0] * tn / (1.0 + ya)
    # b a trap: the game ends on b as it ends on n.
    out[:n, traps] = out[:n, [n]]

    a_idx, b_idx = np.indices(out.shape)
    sources = np.array(list(board.jumps.keys()), dtype=int)
    dests = np.array(list(board.jumps.values()), dtype=int)
    banned = (a_idx == 0) | (a_idx == n) | (a_idx == b_idx) | (np.abs(a_idx - b_idx) < min_length)
    banned |= np.isin(a_idx, sources) | np.isin(a_idx, dests) | np.isin(b_idx, sources)
    banned |= np.isin(a_idx, traps)
    out[banned] = np.nan
    # A jump a -> b with b < n makes the board unfinishable exactly when every path from b to the
    # end passes a; then the denominator is 0. Rounding blurs 0, so the near-zero ones are settled
    # by the board's own check.
    suspect = np.argwhere((np.abs(denom) < 1e-9 * np.maximum(1.0, ya[:, None] + 1.0))
                          & ~banned[:n, :n])
    for a, b in suspect.tolist():
        try:
            board.with_jump(a, b)
        except ValueError:
            out[a, b] = np.nan
    return out
