r"""Where the game ends, and the long run: absorption, hitting, replaying, long games, rounds.

Split the squares into the *transient* ones :math:`\mathcal T` (where the game goes on) and the
*absorbing* ones :math:`\mathcal A` (the traps in increasing order, then the final square
:math:`n`), so that the one-turn matrix is

.. math:: P = \begin{pmatrix} Q & R \\ 0 & I \end{pmatrix}, \qquad N = (I - Q)^{-1}.

**Absorption probabilities.** :math:`B_{ia} = \Pr(\text{the game from } i \text{ ends on } a)`.
The first turn either ends the game on :math:`a` (chance :math:`R_{ia}`) or moves to a transient
:math:`j` (chance :math:`Q_{ij}`), after which the game is a fresh one from :math:`j`:

.. math:: B = R + QB \iff (I - Q)B = R \iff B = NR .

Every row of :math:`B` sums to 1 (every board is finishable) and an absorbing square's row is its
unit vector. The same holds for any chain with named absorbing states: in the gambler's ruin with
a fair coin and target :math:`N`, :math:`B_{i,N} = i/N`.

**Hitting probabilities.** With :math:`X_k` the square after :math:`k` turns, let
:math:`h_{ij} = \Pr(X_k = j \text{ for some } k \ge 0 \mid X_0 = i)`. Once on a transient
:math:`j`, the expected number of turns begun on :math:`j` is :math:`N_{jj}`, whatever happened
before, so :math:`N_{ij} = h_{ij} N_{jj}` and :math:`h_{ij} = N_{ij} / N_{jj}`; for an absorbing
:math:`j`, :math:`h_{ij} = B_{ij}`.

**The replay chain.** Play game after game: a turn that ends a game puts the token back on
square 0 in the same turn, :math:`P'_{s0} = Q_{s0} + \sum_a R_{sa}`. The games are independent
cycles that all start on square 0 (a *renewal* argument): one cycle lasts :math:`t_0` turns on
average and begins :math:`N_{0j}` of them on :math:`j`, so the long-run share of turns begun on
:math:`j` is

.. math:: \pi_j = \frac{N_{0j}}{t_0}, \qquad t_0 = \sum_j N_{0j},

the unique solution of :math:`\pi P' = \pi`, :math:`\sum_j \pi_j = 1` (the squares a game from 0
can reach form the replay chain's only closed class). The argument is about those squares: the
others get :math:`\pi_j = 0`, namely the absorbing squares (no turn begins there), the foot of
every ladder and the top of every chute (a token never rests there) and the squares out of reach
from 0. Kac's formula holds on the squares with :math:`\pi_j > 0`: the mean number of turns
between two turns begun on :math:`j` is :math:`1/\pi_j`; for square 0 that is
:math:`t_0 / N_{00}`. Shares of turns are long-run averages, so they exist even when
:math:`P'^k` itself oscillates (a periodic replay chain).

**Long games.** Let :math:`X_k` be the square after :math:`k` turns of a game from square 0 and
:math:`T` its length. Only the transient squares that such a game can reach matter: let
:math:`Q_0` be :math:`Q` on them (a token never rests on the foot of a ladder or the top of a
chute, so those squares are never among them) and :math:`x_k` row 0 of :math:`Q_0^k`, so that
:math:`(x_k)_j = \Pr(X_k = j,\ T > k)` and :math:`\Pr(T > k) = x_k \mathbf 1`.

*The decay rate* is :math:`\lambda = \lim_k \Pr(T > k)^{1/k}`, the Perron root (spectral radius)
of :math:`Q_0`, which is the largest of the Perron roots of its communicating classes;
:math:`0 \le \lambda < 1`. When :math:`\Pr(T > k + 1)/\Pr(T > k)` converges its limit is
:math:`\lambda`; in general :math:`(\Pr(T > k + d)/\Pr(T > k))^{1/d} \to \lambda`, with :math:`d`
the period below. :math:`Q` on *all* the transient squares can have a larger Perron root, from
rows that no game uses: on ``Board({9: 10}, size=10)`` the ladder's foot 9 would keep a token put
there with chance 5/6 (five faces overshoot), while long games die out at rate 2/3, square 8's
chance of staying.

*The squares of long games.* Call a class of :math:`Q_0` *critical* when its own Perron root is
:math:`\lambda`, give each class :math:`C` the *depth* :math:`h(C)`, the largest number of
critical classes on a path of classes from square 0's class to :math:`C` (both ends included),
and let :math:`H` be the largest depth. Then :math:`\Pr(T > k)` is of the order of
:math:`k^{H-1}\lambda^k` (U. G. Rothblum, "Algebraic eigenspaces of nonnegative matrices", 1975).
The *carrying* classes are the critical classes of depth :math:`H` (none of them leads to
another); long games are spent on them and on the classes after them, the set :math:`S`: the share
of the other squares tends to 0, like :math:`k^{h(C)-H}` on a class :math:`C` of depth
:math:`h(C) \ge 1`, critical or not, and geometrically on the classes of depth 0 (those reached
from square 0 past no critical class). So a square on no critical class can fade as slowly as
:math:`1/k`: on ``Board({2: 1}, size=6, die=2)`` square 1 (a roll of 2 slides back to it) and
square 5 (a 2 overshoots) each keep the token with chance 1/2, :math:`H = 2`, and after
:math:`k \ge 3` turns squares 1, 3 and 4 each hold exactly :math:`1/(2(k-1))` of the surviving
games (after 2 turns square 4 holds none: no game reaches it that soon).

*The quasi-stationary distribution* (QSD) is the normalised Cesàro limit

.. math:: q = \lim_{K \to \infty} \frac{\sum_{k < K} \lambda^{-k} x_k}
                                   {\sum_{k < K} \lambda^{-k} \Pr(T > k)} .

It is a left eigenvector of :math:`Q_0` for :math:`\lambda`, non-negative, summing to 1, on
:math:`S`: multiplying the sum by :math:`Q_0/\lambda` shifts it by one term, and one term
(of order :math:`K^{H-1}`) is negligible against the sum (of order :math:`K^H`). A game started
from :math:`q` has :math:`\Pr(X_k = \cdot \mid T > k) = q` and :math:`\Pr(T > k) = \lambda^k` for
every :math:`k`: :math:`q` is quasi-stationary in the sense of J. N. Darroch and E. Seneta, "On
quasi-stationary distributions in absorbing discrete-time finite Markov chains" (1965). With one
carrying class :math:`q` is the only left eigenvector for :math:`\lambda` on :math:`S` that sums to
1. With several (classes whose roots tie exactly, none leading to another) the non-negative ones
form a cone spanned by one per carrying class, and :math:`q` is the member that the game from
square 0 is drawn to: its weights on the carrying classes depend on how a game reaches them. That
is why :math:`q` is defined as a limit and not as "the" eigenvector.

*The period.* A carrying class whose cycles all have lengths divisible by :math:`d_C` (its period)
has exactly :math:`d_C` eigenvalues of modulus :math:`\lambda`, namely
:math:`\lambda e^{2\pi i j/d_C}` (Perron–Frobenius). With :math:`p` the lcm of the carrying
classes' periods, the conditioned distribution :math:`\pi_k = \Pr(X_k = \cdot \mid T > k)`
converges along each residue :math:`k \equiv r \pmod p`, to :math:`\varphi_r` say. The *period*
:math:`d` is the least :math:`d \ge 1` with :math:`\varphi_{r + d} = \varphi_r` for every
:math:`r`, i.e. the least :math:`d` for which :math:`\pi_k` converges along every residue mod
:math:`d`. It divides :math:`p` and is usually :math:`p`; it is smaller when games enter the
cyclic subclasses in exactly balanced shares, or when tied classes on one path have different
periods (only the rotations :math:`e^{2\pi i j/d_C}` shared by a whole chain of :math:`H` critical
classes survive). :math:`d = 1` exactly when :math:`\pi_k \to q` (a *Yaglom limit*). When
:math:`d > 1`, :math:`\pi_k` cycles through :math:`d` shapes and :math:`q` is not their plain
average but their average weighted by the survivals:

.. math:: q \propto \lim_{k \to \infty} \sum_{s < d} \lambda^{-s} \Pr(X_{k+s} = \cdot,\ T > k + s),

because :math:`x_k \approx k^{H-1}\lambda^k \sum_{\omega^d = 1} \omega^k v_\omega` with
:math:`v_\omega Q_0 = \lambda\omega\, v_\omega` and :math:`v_1 \propto q`, and
:math:`\sum_{s<d} \omega^s = 0` for :math:`\omega \ne 1`. The one-turn ratio
:math:`\Pr(T > k + 1)/\Pr(T > k)` *may* cycle with the shapes (Lesson 11's odd board) but need
not: on
``Board({6: 2, 7: 3, 8: 4}, size=10, die=(2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1), overshoot="win")``
:math:`d = 2`, yet every square a game stands on ends it with chance 1/5 in one turn, so the ratio
is 4/5 for every :math:`k`. If :math:`\lambda = 0` every game ends within a fixed number of turns
and there is nothing to condition on: :func:`quasi_stationary_distribution` raises
``ValueError``.

*The leading term, ties included.* The generating function of the :math:`x_k` is the resolvent,
:math:`\sum_{k \ge 0} x_k z^{-k-1} = e_0 (zI - Q_0)^{-1}`, and a pole of order :math:`h` at
:math:`\mu` with coefficient :math:`w` (a term :math:`w\,(z - \mu)^{-h}`) is the term
:math:`\binom{k}{h-1} \mu^{k-h+1} w` of :math:`x_k`. The poles of modulus :math:`\lambda` are at
:math:`\mu = \lambda\omega` with :math:`\omega^p = 1`. Take the classes in an order where each comes
after the classes that lead to it; the part of the resolvent's row on the class :math:`C` is

.. math:: a_C(z) = \Big(e_0|_C + \sum_{B \to C} a_B(z)\, Q_{BC}\Big) (zI - Q_{CC})^{-1}

(:math:`e_0|_C = 0` unless :math:`C` is square 0's class). :math:`(zI - Q_{CC})^{-1}` is regular at
:math:`\mu` unless :math:`\mu` is an eigenvalue of :math:`Q_{CC}`, which for :math:`|\mu| = \lambda`
happens only on a critical class with :math:`\omega^{d_C} = 1`. Then :math:`\mu` is a simple
eigenvalue, with left and right eigenvectors :math:`\ell^\omega_C = \ell_C\, \omega^{-s}` and
:math:`r^\omega_C = r_C\, \omega^{s}` (:math:`\ell_C, r_C` the class's Perron vectors with
:math:`\ell_C r_C = 1`, :math:`s_j` the cyclic subclass of square :math:`j`: each turn leads from
subclass :math:`s` to :math:`s + 1` mod :math:`d_C`), and
:math:`(zI - Q_{CC})^{-1} = r^\omega_C \ell^\omega_C / (z - \mu) + O(1)`. So the pole of
:math:`a_C` at :math:`\mu` has order at most :math:`h_\omega(C)`, the largest number of such
classes on a path from square 0's class to :math:`C`, and its coefficient :math:`A_C` of
:math:`(z - \mu)^{-h_\omega(C)}` follows exactly from those before it: with :math:`b_C` the sum of
:math:`A_B Q_{BC}` over the :math:`B \to C` of the largest :math:`h_\omega(B)` (and
:math:`e_0|_C` if that largest order is 0),

.. math:: A_C = (b_C\, r^\omega_C)\, \ell^\omega_C \ \text{ if } \mu \text{ is an eigenvalue of }
          Q_{CC}, \qquad A_C = b_C\, (\mu I - Q_{CC})^{-1} \ \text{ otherwise.}

With :math:`w_\omega` made of the :math:`A_C` of the classes with :math:`h_\omega(C) = H` (and 0
elsewhere, or everywhere when no class reaches :math:`H`),

.. math:: x_k = \binom{k}{H-1} \lambda^{k-H+1} \sum_{\omega^p = 1} \omega^{k-H+1} w_\omega
          + O(k^{H-2} \lambda^k),

so :math:`q \propto w_1` (the rotating terms average out of the Cesàro sum),
:math:`\varphi_r \propto u_r = \sum_\omega \omega^{r-H+1} w_\omega`, and :math:`d` is the least
common multiple of the orders of the :math:`\omega` with :math:`w_\omega \ne 0`: since
:math:`u_{r+1} = u_r Q_0 / \lambda`, shapes with :math:`\varphi_{r+d} = \varphi_r` for every
:math:`r` have :math:`u_{r+d} = c\,u_r` with one :math:`c`, and :math:`c^{p/d} = 1`, so
:math:`u_{r+d} = u_r`, which is :math:`w_\omega = 0` unless :math:`\omega^d = 1`. Critical classes
that tie on one path (:math:`H > 1`) give :math:`Q_0` a Jordan block for :math:`\lambda`; the
recursion follows it and never divides by the difference of two nearly equal numbers, as iterating
:math:`(zI - Q_0)^{-1}` for a :math:`z` close to :math:`\lambda` would. Whether two classes tie is
decided exactly: two classes with the same block (their squares renumbered in increasing order:
two chutes of one length are shifted copies) have the same spectrum, whatever their size, and
otherwise Perron roots are equal if and only if they have the same minimal polynomial over the
integers (the factor of the characteristic polynomial that vanishes at the root, told from the
others by Descartes' rule of signs just below a certified lower bound of the root, since every
other eigenvalue has a real part at most the root's). For example, on
``Board({2: 1, 6: 3}, size=10, die=(1, 0, 0, 1), overshoot="win")`` square 1 keeps the token with
chance 1/2 and leads to the loop 3 → 4 → 5 → 3, whose three steps each have chance 1/2 (Perron root
:math:`(1/8)^{1/3} = 1/2`): :math:`\lambda = 1/2`, :math:`H = 2`, and :math:`q` is 1/9 on squares 3,
4, 5 and 7, 2/9 on 8 and 1/3 on 9. The loop has period 3, but square 1's class has period 1, so only
:math:`\omega = 1` reaches order 2 and :math:`d = 1`.

*The period, exactly.* Whether :math:`w_\omega = 0` is decided without rounding. Take one square
:math:`j` of each carrying class and :math:`\Lambda = \lambda^p`. The entries
:math:`(x_{r+pm})_j`, :math:`m = 0, 1, \dots`, have the generating function
:math:`A_r(Y) = N_r(Y)/D_p(Y)`, :math:`D_p(Y) = \det(YI - Q^p)` over the classes that lead to a
carrying class, a quotient of polynomials with rational coefficients; its coefficient :math:`L_r`
of :math:`(Y - \Lambda)^{-H}` lies in :math:`\mathbb Q(\Lambda)` and is computed exactly modulo
the minimal polynomial of :math:`\Lambda`. Since :math:`(u_r)_j \propto \lambda^{-r} L_r`, the
shapes repeat after :math:`d` turns on that class iff :math:`L_{r+d} = c\,L_r` for every
:math:`r` with :math:`c^{p/d} = \Lambda` (then :math:`c = \lambda^d`: all the :math:`L_r` have one
sign), with :math:`L_{r+p} = \Lambda L_r`. A tilt of a balanced loop by :math:`10^{-12}` is a
period of 2, however small. (Rotating terms that floating point finds far from 0, above
:math:`10^{-6}` of the fixed one, are taken as not 0 without this computation.)

**Rounds.** With :math:`m` players moving in turn, independently, the game is over in the first
round in which someone finishes: :math:`\Pr(\min_i T_i > k) = \Pr(T > k)^m`, so

.. math:: \mathbb E[\text{rounds}] = \mathbb E\big[\min_i T_i\big] = \sum_{k \ge 0} \Pr(T > k)^m .
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple, cast

import flint
import numpy as np

from ._lazy import loaded, sla, sp, spla, sympy
from .board import Board, _exact, _on_board, _ranges, _square
from .i18n import say
from .markov import (
    DENSE_MAX,
    _exact_turn_rows,
    _q_and_ends,
    _transient,
    _turn_matrix,
    turn_distribution,
)

__all__ = ["absorption_probabilities", "hitting_probabilities", "stationary_distribution",
           "QuasiStationary", "quasi_stationary_distribution", "expected_rounds"]

# --------------------------------------------------------------------------- absorption
def absorption_probabilities(chain: Board | Any, absorbing: Sequence[int] | None = None,
                             exact: bool = False) -> np.ndarray | sympy.Matrix:
    r"""Where the game ends: :math:`B = NR`, the chance of ending on each absorbing state.

    Parameters
    ----------
    chain : Board or square matrix
        A board, or the transition matrix :math:`P` of any chain (a numpy array, nested lists or
        a sympy ``Matrix``; rows sum to 1), e.g. the gambler's ruin or the picky eater.
    absorbing : sequence of int, optional
        For a matrix only: the absorbing states, in the order of the columns wanted (each must
        have :math:`P_{aa} = 1`). By default every state with :math:`P_{aa} = 1`, in increasing
        order. A board's absorbing squares are its traps and final square (``board.absorbing``).
    exact : bool, default False
        If True, compute over the rationals and return a sympy ``Matrix`` of ``Rational``
        (a float in a matrix stands for the decimal it prints as, e.g. ``0.1`` for 1/10).

    Returns
    -------
    numpy.ndarray or sympy.Matrix
        Shape ``(states, k)``: for a board ``(size + 1, k)``, rows the squares ``0..size``,
        columns ``board.absorbing`` (the traps in increasing order, then the final square).
        Row ``s`` is the chance that a game from ``s`` ends on each absorbing state; rows sum to
        1, and an absorbing state's row is its unit vector.

    Raises
    ------
    ValueError
        For a matrix that is not square, has negative entries or rows that do not sum to 1, an
        ``absorbing`` state that can be left, or states from which no absorbing state can be
        reached (naming them); for ``absorbing`` given with a board.

    Examples
    --------
    >>> from chutes_edu import Board, absorption_probabilities
    >>> volcano = Board(size=4, die=2, traps=[2])   # a 1 or 2 on each turn; square 2 is a trap
    >>> absorption_probabilities(volcano, exact=True)[0, :]
    Matrix([[3/4, 1/4]])
    >>> ruin = [[1, 0, 0, 0], [0.5, 0, 0.5, 0], [0, 0.5, 0, 0.5], [0, 0, 0, 1]]
    >>> absorption_probabilities(ruin, absorbing=[3, 0])[:, 0]   # reach 3 before 0: i/3
    array([0.        , 0.33333333, 0.66666667, 1.        ])
    """
    if isinstance(chain, Board):
        if absorbing is not None:
            raise ValueError(say("absorbing is for a transition matrix; a board's absorbing "
                                 "squares are its traps and final square: {squares}",
                                 squares=list(chain.absorbing)))
        return _board_absorption(chain, exact)
    return _matrix_absorption(chain, absorbing, exact)


def _board_absorption(board: Board, exact: bool) -> np.ndarray | sympy.Matrix:
    n, ends = board.size, list(board.absorbing)
    live = _transient(board)
    if exact:
        # The roll-by-roll chain ends on the same square as the turn-by-turn one (bonus rolls
        # only group rolls into turns), and its matrix scales to integers: D (I - B_Q) X = D B_R.
        scale = math.lcm(*[p.denominator for p in board.probabilities])
        weights = [int(p * scale) for p in board.probabilities]
        index = {s: i for i, s in enumerate(live.tolist())}
        column = {a: c for c, a in enumerate(ends)}
        A = [[0] * len(index) for _ in index]
        rhs = [[0] * len(ends) for _ in index]
        for s, i in index.items():
            A[i][i] += scale
            for t, w in zip(board._roll_table[s].tolist(), weights, strict=True):
                if t in column:
                    rhs[i][column[t]] += w
                else:
                    A[i][index[t]] -= w
        X = flint.fmpz_mat(A).solve(flint.fmpz_mat(rhs))
        out = sympy.zeros(n + 1, len(ends))
        for s, i in index.items():
            for c in range(len(ends)):
                out[s, c] = sympy.Rational(int(X[i, c].p), int(X[i, c].q))
        for c, a in enumerate(ends):
            out[a, c] = sympy.Integer(1)
        return out
    P = _turn_matrix(board)
    live, Q, _ = _q_and_ends(board)
    out = np.zeros((n + 1, len(ends)))
    out[live] = np.linalg.solve(np.eye(live.size) - Q, P[np.ix_(live, np.array(ends))])
    out[ends, np.arange(len(ends))] = 1.0
    np.clip(out, 0.0, 1.0, out=out)                      # probabilities, rounding aside
    return out


def _matrix_absorption(P: Any, absorbing: Sequence[int] | None,
                       exact: bool) -> np.ndarray | sympy.Matrix:
    rows = _matrix_rows(P)
    m = len(rows)
    if exact:
        try:
            values: list[list[Any]] = [[_exact(x) for x in row] for row in rows]
        except (TypeError, ValueError):
            raise ValueError(say("exact=True needs a matrix of numbers")) from None
        bad = [i for i, row in enumerate(values) if sum(row, Fraction(0)) != 1]
    else:
        values = [[float(x) for x in row] for row in rows]
        bad = [i for i, row in enumerate(values) if abs(math.fsum(row) - 1.0) > 1e-9]
    if bad:
        raise ValueError(say("every row of a transition matrix must sum to 1: rows {rows} do not",
                             rows=_ranges(bad)))
    if absorbing is None:
        ends = [i for i in range(m) if values[i][i] == 1]
        if not ends:
            raise ValueError(say("this chain has no absorbing state (no state i with P[i, i] = 1)"))
    else:
        if isinstance(absorbing, (str, bytes)) or not isinstance(absorbing, Sequence):
            raise ValueError(say("absorbing must be a sequence of states, not {absorbing}",
                                 absorbing=repr(absorbing)))
        ends = [_square(a, f"absorbing state {a!r}") for a in absorbing]
        off = [a for a in ends if not 0 <= a < m]
        if off:
            raise ValueError(say("absorbing states {states} are not states of this chain "
                                 "(0..{last})", states=off, last=m - 1))
        if len(set(ends)) != len(ends):
            raise ValueError(say("absorbing lists a state twice: {states}", states=ends))
        leaky = [a for a in ends if values[a][a] != 1]
        if leaky:
            raise ValueError(say("states {states} are named absorbing but can be left "
                                 "(P[a, a] is not 1)", states=_ranges(leaky)))
    live = [i for i in range(m) if i not in set(ends)]
    reach = set(ends)
    grew = True
    while grew:                                          # states from which an end is reachable
        grew = False
        for i in live:
            if i not in reach and any(values[i][j] != 0 for j in reach):
                reach.add(i)
                grew = True
    stuck = [i for i in live if i not in reach]
    if stuck:
        raise ValueError(say("from states {states} no absorbing state ({ends}) can ever be "
                             "reached", states=_ranges(stuck), ends=", ".join(map(str, ends))))
    k = len(ends)
    if exact:
        out = sympy.zeros(m, k)
        if live:
            A = flint.fmpq_mat(len(live), len(live),
                               [flint.fmpq(int(i == j)) - _fmpq(values[i][j])
                                for i in live for j in live])
            R = flint.fmpq_mat(len(live), k, [_fmpq(values[i][a]) for i in live for a in ends])
            X = A.solve(R)
            for r, i in enumerate(live):
                for c in range(k):
                    out[i, c] = sympy.Rational(int(X[r, c].p), int(X[r, c].q))
        for c, a in enumerate(ends):
            out[a, c] = sympy.Integer(1)
        return out
    arr = np.array(values)
    result = np.zeros((m, k))
    if live:
        result[live] = np.linalg.solve(np.eye(len(live)) - arr[np.ix_(live, live)],
                                       arr[np.ix_(live, ends)])
    result[ends, np.arange(k)] = 1.0
    np.clip(result, 0.0, 1.0, out=result)
    return result


def _fmpq(x: Fraction) -> Any:
    return flint.fmpq(x.numerator, x.denominator)


def _matrix_rows(P: Any) -> list[list[Any]]:
    """The rows of a square matrix of finite, non-negative numbers, or ``ValueError``."""
    symbolic = loaded("sympy")          # nothing is a sympy object before sympy is imported
    if symbolic is not None and isinstance(P, symbolic.MatrixBase):
        rows = [list(P.row(i)) for i in range(P.rows)]
    else:
        arr = np.asarray(P, dtype=object)
        if arr.ndim != 2:
            raise ValueError(say("a transition matrix must be 2-D, got an array of shape {shape}",
                                 shape=arr.shape))
        rows = [list(r) for r in arr]
    m = len(rows)
    if m == 0 or any(len(r) != m for r in rows):
        raise ValueError(say("a transition matrix must be square, got {rows} rows of lengths "
                             "{lengths}", rows=m, lengths=sorted({len(r) for r in rows})))
    problems = []
    for i, row in enumerate(rows):
        for j, x in enumerate(row):
            if symbolic is not None and isinstance(x, symbolic.Basic):
                x = symbolic.Rational(x) if x.is_Rational else float(x)
                row[j] = x
            if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
                problems.append(say("P[{i}, {j}] = {value} is not a number", i=i, j=j,
                                    value=repr(x)))
            elif not math.isfinite(float(x)) or x < 0:
                problems.append(say("P[{i}, {j}] = {value} is not a probability", i=i, j=j,
                                    value=repr(x)))
    if problems:
        raise ValueError(say("bad transition matrix: {problems}",
                             problems="; ".join(problems[:5])))
    return rows


# --------------------------------------------------------------------------- hitting
def hitting_probabilities(board: Board) -> np.ndarray:
    r"""The chance that a game from square :math:`i` is ever on square :math:`j` at a turn's end.

    :math:`h_{ij} = \Pr(X_k = j \text{ for some } k \ge 0 \mid X_0 = i)`, with :math:`X_k` the
    square after :math:`k` turns: :math:`N_{ij} / N_{jj}` for a transient :math:`j` and
    :math:`B_{ij}` (:func:`absorption_probabilities`) for an absorbing one (see the module
    docstring). A token
    never rests on a jump's source, so that column is 0 except :math:`h_{jj} = 1`.

    Parameters
    ----------
    board : Board
        The board and its rules.

    Returns
    -------
    numpy.ndarray
        Shape ``(size + 1, size + 1)``; ``h[i, i] == 1`` and ``h[i, size]`` is the chance of
        reaching the final square.

    Examples
    --------
    >>> from chutes_edu import MILTON_BRADLEY_1943, hitting_probabilities
    >>> h = hitting_probabilities(MILTON_BRADLEY_1943)
    >>> round(float(h[0, 26]), 4)          # slide down 47->26 (or land on 26) at least once
    0.5593
    """
    n = board.size
    live, Q, _ = _q_and_ends(board)
    N = np.linalg.inv(np.eye(live.size) - Q)
    h = np.zeros((n + 1, n + 1))
    h[np.ix_(live, live)] = N / np.diag(N)[None, :]
    ends = np.array(board.absorbing)
    # B = N R from the same inverse (absorption_probabilities would solve the system again)
    h[np.ix_(live, ends)] = np.clip(N @ _turn_matrix(board)[np.ix_(live, ends)], 0.0, 1.0)
    h[ends, ends] = 1.0
    return h


# --------------------------------------------------------------------------- the replay chain
def stationary_distribution(board: Board) -> np.ndarray:
    r"""The long-run share of turns begun on each square when games are played one after another.

    In the *replay chain* a turn that ends the game puts the token back on square 0 in the same
    turn. By the renewal argument of the module docstring :math:`\pi_j = N_{0j} / t_0`, which is
    the solution of :math:`\pi P' = \pi`, :math:`\sum_j \pi_j = 1`; :math:`1/\pi_0` is the mean
    number of turns from one game's start to the next (Kac), i.e. :math:`t_0 / N_{00}`, and
    :math:`1/\pi_j` the mean number of turns between two turns begun on any square :math:`j` that
    a game from square 0 can reach. The renewal argument is about those squares only; every other
    square gets :math:`\pi_j = 0`.

    Parameters
    ----------
    board : Board
        The board and its rules.

    Returns
    -------
    numpy.ndarray
        Length ``size + 1``, summing to 1; 0 on the final square, on traps, and on squares a game
        from square 0 never stands on: the foot of a ladder, the top of a chute, squares out of
        reach.

    Examples
    --------
    >>> from chutes_edu import Board, stationary_distribution
    >>> pi = stationary_distribution(Board({2: 0}, size=3, die=2))   # a 2 from 0 slides back
    >>> [round(float(p), 4) for p in pi]
    [0.6667, 0.3333, 0.0, 0.0]
    """
    n = board.size
    live, Q, _ = _q_and_ends(board)
    start = np.zeros(live.size)
    start[int(np.searchsorted(live, 0))] = 1.0
    visits = np.linalg.solve((np.eye(live.size) - Q).T, start)      # row 0 of N
    np.clip(visits, 0.0, None, out=visits)
    pi = np.zeros(n + 1)
    pi[live] = visits / visits.sum()
    return pi


# --------------------------------------------------------------------------- long games
class QuasiStationary(NamedTuple):
    r"""What :func:`quasi_stationary_distribution` found.

    A named tuple of three fields; the first two keep their places, so ``qsd[0]`` and ``qsd[1]``
    still work, but ``q, rate = qsd`` (unpacking two fields) does not.

    Attributes
    ----------
    distribution : numpy.ndarray
        The quasi-stationary distribution :math:`q` on the squares ``0..size`` (sums to 1): the
        normalised Cesàro limit of :math:`\lambda^{-k} \Pr(X_k = \cdot,\ T > k)`, a non-negative
        left eigenvector of :math:`Q` for :math:`\lambda` (see the module docstring). When
        ``period == 1`` it is also :math:`\lim_k \Pr(X_k = \cdot \mid T > k)`.
    decay_rate : float
        :math:`\lambda = \lim_k \Pr(T > k)^{1/k}`, the Perron root of :math:`Q` on the squares a
        game from square 0 can reach (not of the whole :math:`Q`).
    period : int
        The least :math:`d \ge 1` such that :math:`\Pr(X_k = \cdot \mid T > k)` converges along
        every residue :math:`k \equiv r \pmod d`: 1 when it converges (to ``distribution``),
        :math:`d > 1` when it cycles through :math:`d` shapes; then
        :math:`(\Pr(T > k + d) / \Pr(T > k))^{1/d} \to \lambda`, and the one-turn ratio
        :math:`\Pr(T > k + 1) / \Pr(T > k)` may cycle too, or may not (on
        ``Board({6: 2, 7: 3, 8: 4}, size=10, die=(2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1),
        overshoot="win")`` :math:`d = 2` and the ratio is 4/5 for every :math:`k`).
    """

    distribution: np.ndarray
    decay_rate: float
    period: int


def quasi_stationary_distribution(board: Board) -> QuasiStationary:
    r"""Where the token is in a long game, how fast long games die out, and whether they settle.

    With :math:`Q_0` the block of :math:`Q` on the transient squares a game from square 0 can
    reach (see the module docstring):

    - the decay rate :math:`\lambda = \lim_k \Pr(T > k)^{1/k}` is the Perron root of :math:`Q_0`;
      it equals :math:`\lim_k \Pr(T > k + 1)/\Pr(T > k)` when that limit exists. The Perron root
      of the whole :math:`Q` can be larger (``Board({9: 10}, size=10)``: 5/6, from a ladder's foot
      where no game stands, against the true 2/3);
    - the distribution :math:`q` is the quasi-stationary distribution, the normalised left Perron
      eigenvector of :math:`Q_0` that a game from square 0 is drawn to: the normalised Cesàro limit
      of :math:`\lambda^{-k}\Pr(X_k = \cdot,\ T > k)`, supported on the carrying classes and the
      classes after them. It exists whenever games can last arbitrarily long;
    - the period :math:`d` says what :math:`\Pr(X_k = \cdot \mid T > k)` does: it converges to
      :math:`q` when :math:`d = 1` and cycles through :math:`d` shapes when :math:`d > 1`, whose
      survival-weighted average is :math:`q`.

    The classes of :math:`Q_0` come from Tarjan's algorithm and their Perron roots from their
    eigenvalues (exactly, as a fraction, for a class of one square; for a class of more than 200
    squares from inverse iteration on a sparse LU, so that boards of thousands of squares take
    seconds). Classes whose roots are within a relative :math:`10^{-6}` of the largest in
    floating point get bounds that rounding cannot break (Collatz–Wielandt, in exact arithmetic);
    those whose bounds still overlap are compared exactly: classes with the same block (equal
    chutes) tie at once, whatever their size, and others tie when the minimal polynomials of
    their roots over the integers are equal (python-flint factors the characteristic
    polynomials; exact bisection finds the largest of unequal roots). No tolerance ever decides a
    tie: if a class of another shape has more than 400 squares, ``ValueError`` names the
    classes. Perron vectors are iterated until they stop changing and
    their residuals are checked; when the next eigenvalue is within a relative :math:`10^{-5}`
    of the root they are found again in high precision. :math:`q` and the limit shapes come from the
    leading coefficients of the resolvent :math:`e_0 (zI - Q_0)^{-1}` at
    :math:`z = \lambda\omega`, computed class by class from each critical class's Perron vectors
    and the other classes' blocks (module docstring), so tied classes (a Jordan block) cost no
    accuracy. The period is decided in exact arithmetic (module docstring), so a loop entered in
    shares off balance by :math:`10^{-12}` has period 2.

    Parameters
    ----------
    board : Board
        The board and its rules (traps allowed: conditioning on :math:`T > k` means the game has
        ended neither way).

    Returns
    -------
    QuasiStationary
        ``.distribution`` (length ``size + 1``, summing to 1, 0 on absorbing squares and on the
        squares a game from 0 never stands on), ``.decay_rate`` and ``.period``.

    Raises
    ------
    ValueError
        If every game from square 0 ends within a fixed number of turns (the message names it):
        there are no long games to describe. Also, naming the squares, if two groups of squares
        of different shapes, one of more than 400, keep games at rates too close to be told
        apart (no certified bound separates them and they are too big to compare exactly), if a
        group's Perron root is within about :math:`10^{-16}` of another of its eigenvalues where
        an exact comparison needs it, or if a group's Perron vectors cannot be found to full
        accuracy: a wrong distribution is never returned.

    Examples
    --------
    >>> from chutes_edu import Board, quasi_stationary_distribution
    >>> qsd = quasi_stationary_distribution(Board({2: 0}, size=3, die=2))
    >>> [round(float(q), 4) for q in qsd.distribution], round(qsd.decay_rate, 4)  # 1/phi, phi/2
    ([0.618, 0.382, 0.0, 0.0], 0.809)
    >>> odd = Board({6: 2}, size=10, die=(1, 0, 1), overshoot="win")   # faces 1 and 3
    >>> quasi_stationary_distribution(odd).period     # the token alternates odd and even squares
    2
    """
    n = board.size
    rows = _exact_turn_rows(board)
    live = _transient(board)
    index = {s: i for i, s in enumerate(live.tolist())}
    exact = [{index[t]: p for t, p in rows[s].items() if t in index and p}
             for s in live.tolist()]
    Q: Any
    if n > DENSE_MAX:        # sparse, from the exact rows: nothing of size n^2 is formed
        entries = [(i, j, float(p)) for i, row in enumerate(exact) for j, p in row.items()]
        i_, j_, p_ = zip(*entries, strict=True) if entries else ((), (), ())
        Q = sp.csr_matrix((p_, (i_, j_)), shape=(live.size, live.size))
    else:
        Q = _q_and_ends(board)[1]
    found = _long_games(Q, index[0], exact, live.tolist())
    q = np.zeros(n + 1)
    q[live[found.squares]] = found.distribution
    return QuasiStationary(q, found.decay_rate, found.period)


class _LongGames(NamedTuple):
    """What :func:`_long_games` finds, on the indices of the matrix it was given."""

    squares: np.ndarray             # the indices reachable from the start, increasing
    distribution: np.ndarray        # q on those indices
    decay_rate: float
    period: int
    phases: np.ndarray              # row r: the limit of P(X_k | T > k) along k = r mod p
    carrying: list[list[int]]       # the carrying classes (indices of the matrix)


_NEAR = 1e-6
"""Relative gap below which the Perron roots of two classes, found in floating point, are compared
with certified bounds (and exactly, by their minimal polynomials, if the bounds overlap)."""

_EXACT_SQUARES = 400
"""The largest class whose Perron root is compared exactly (by its minimal polynomial) with one of
another shape whose certified bounds overlap its own: the characteristic polynomial of a class of
400 squares takes about a second, and the time grows like the fourth power of the size. Above it,
such classes are refused in words (classes of one shape tie whatever their size)."""

_DYADIC = 64
"""Bits of the dyadic point just below a certified lower bound of a root at which
:func:`_above` counts sign changes (Descartes' rule of signs)."""

_BISECTIONS = 4000
"""The most halvings of an isolating interval of a root (:func:`_largest_root`)."""

_CLEARLY = 1e-6
"""Size of a rotating part of the leading term, relative to the fixed part, above which it is not
0 beyond doubt (the float leading terms are good to about 1e-12); a smaller one is compared with 0
in exact arithmetic (:func:`_exact_period`), never by a tolerance."""

_DENSE_CLASS = 200
"""Classes up to this size get their Perron root from all their eigenvalues (dense LAPACK); bigger
ones from the iteration of :func:`_perron` on a sparse LU, whose time grows about linearly."""

_SHIFT = 1e-12
"""How far above the certified upper bound of the Perron root (relatively) each shift of the
inverse iteration of :func:`_perron` is: far enough that rounding never puts it below the root."""

_STEPS = 200
"""The most inverse-iteration steps :func:`_perron` takes."""

_RESIDUAL = 1e-11
r"""The largest relative residual :math:`\lVert vA - \rho v\rVert / (\rho \lVert v\rVert)` of
a Perron vector that :func:`_perron` accepts (both vectors, in the maximum norm)."""

_GAP = 1e-5
"""Relative distance from the Perron root to the next eigenvalue below which a dense class's Perron
vectors are found again in high precision (:func:`_perron_precise`)."""

_MOVING = 1e-12
"""How much a sparse class's Perron vectors (largest entry 1) may still move between the last two
steps of :func:`_perron`; more, and ``ValueError``."""

def _long_games(Q: Any, start: int, exact: list[dict[int, Fraction]],
                labels: Sequence[int] | None = None) -> _LongGames:
    """The decay rate, quasi-stationary distribution and period of the chain ``Q`` (substochastic,
    dense or scipy.sparse CSR) from ``start``. ``exact[u]`` holds the nonzero ``Q[u, v]`` as
    fractions: it gives the graph, certified bounds of Perron roots and the exact Perron roots of
    classes whose bounds overlap (ties). ``labels[u]`` names index ``u`` in messages (the square;
    by default ``u``). Raises ``ValueError`` if every path from ``start`` ends within a fixed
    number of steps, or, naming the squares, if two classes of more than ``_EXACT_SQUARES``
    squares have Perron roots too close to be told apart or a Perron vector does not converge."""
    labels = list(range(len(exact))) if labels is None else list(labels)
    graph = [sorted(row) for row in exact]
    seen = {start}                                       # the indices reachable from the start
    todo = [start]
    while todo:
        u = todo.pop()
        for v in graph[u]:
            if v not in seen:
                seen.add(v)
                todo.append(v)
    reach = sorted(seen)
    classes = _classes(reach, graph)                     # in topological order, start's first
    where = {u: c for c, members in enumerate(classes) for u in members}
    # Q0 on each class (Q_CC) and from each class to the next (Q_BC); sparse on a big matrix.
    sparse = sp.issparse(Q)
    pieces = _pieces(Q, classes, where) if sparse else {}
    blocks = [pieces.pop((c, c), None) if sparse else _sub(Q, members, members)
              for c, members in enumerate(classes)]
    # Each class's Perron root in floating point: its chance of staying for a single square, the
    # largest modulus of its eigenvalues for a small class with a cycle through several squares,
    # the certified iteration of _perron (sparse) for a big one, whose vectors are kept.
    perron: dict[int, tuple[float, np.ndarray, np.ndarray]] = {}
    radii = []
    for c, members in enumerate(classes):
        if len(members) == 1:
            radii.append(float(exact[members[0]].get(members[0], 0)))
        elif len(members) <= _DENSE_CLASS:
            dense = blocks[c].toarray() if sp.issparse(blocks[c]) else blocks[c]
            radii.append(float(np.abs(np.linalg.eigvals(dense)).max()))
        else:
            perron[c] = _perron(blocks[c], _names(classes[c], labels), classes[c], exact)
            radii.append(perron[c][0])
    if max(radii) == 0.0:
        raise ValueError(say("no game from square 0 lasts long: it always ends within "
                             "{turns} turns, so there is no "
                             "long-game (quasi-stationary) distribution to find",
                             turns=_longest_path(classes, where, graph) + 1))
    critical, rho = _critical_classes(classes, radii, exact, blocks, perron, labels)
    preds: list[set[int]] = [set() for _ in classes]
    for c, members in enumerate(classes):
        for u in members:
            for v in graph[u]:
                if where[v] != c:
                    preds[where[v]].add(c)
    depth = [0] * len(classes)
    for c in range(len(classes)):                        # topological order: preds come first
        depth[c] = int(critical[c]) + max((depth[b] for b in preds[c]), default=0)
    top = max(depth)
    carrying = [c for c in range(len(classes)) if critical[c] and depth[c] == top]
    pos = {u: i for i, u in enumerate(reach)}
    local = [[pos[u] for u in members] for members in classes]
    links = pieces if sparse else {(b, c): _sub(Q, classes[b], classes[c])  # Q_BC, B -> C
                                   for c in range(len(classes)) for b in preds[c]}
    # Each critical class: its period, the cyclic subclass of each square and its Perron vectors.
    periods: dict[int, int] = {}
    shifts: dict[int, np.ndarray] = {}
    vectors: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for c in range(len(classes)):
        if critical[c]:
            periods[c], shifts[c] = _period_and_subclasses(classes[c], graph)
            if c not in perron:
                perron[c] = _perron(blocks[c], _names(classes[c], labels), classes[c], exact)
            vectors[c] = perron[c][1:]
    # The leading term w_omega of x_k along each rotation omega^k, omega^p = 1 (module docstring).
    p = math.lcm(*(periods[c] for c in carrying))
    terms: dict[int, np.ndarray] = {}
    for j in range(p):
        omega = complex(np.exp(2j * np.pi * j / p)) if j else 1.0
        turning = {}                                     # the classes with rho * omega a root
        for c, d in periods.items():
            if (j * d) % p == 0:
                left, right = vectors[c]
                twist = np.power(omega, shifts[c])
                turning[c] = (left / twist, right * twist)
        terms[j] = _leading_term(blocks, links, preds, local, pos[start], rho * omega, turning,
                                 top)
    # The period: the least d with w_omega = 0 unless omega^d = 1. A rotating term above
    # _CLEARLY of the fixed one is not 0 (rounding moves it by far less); whether the others are
    # 0 is decided exactly, and only if it matters.
    period = 1
    for j, term in terms.items():
        if j and np.abs(term).sum() > _CLEARLY * np.abs(terms[0]).sum():
            period = math.lcm(period, p // math.gcd(j, p))
    if any((j * period) % p for j in terms):
        head = carrying[0]
        if len(classes[head]) == 1:
            stay = exact[classes[head][0]].get(classes[head][0], Fraction(0))
            bounds = (stay, stay)
        else:
            bounds = _certified_bounds(classes[head], exact, *vectors[head])
        found = _exact_period(classes, preds, exact, start, carrying, top, p, bounds)
        if found is None:
            raise ValueError(say("cannot tell whether long games settle or cycle: the Perron root "
                                 "of {group} is too close to another eigenvalue to decide it "
                                 "exactly", group=_names(classes[head], labels)))
        period = found
    terms = {j: term for j, term in terms.items() if (j * period) % p == 0}
    fixed = terms[0].real
    q = np.clip(fixed, 0.0, None)
    q /= q.sum()
    # The limit shape along k = r (mod p) is the leading term sum_omega omega^(k - H + 1) w_omega,
    # normalised.
    shapes = np.tile(fixed, (p, 1))
    turns = np.arange(p) - (top - 1)
    for j, term in terms.items():
        if j:
            shapes += (np.exp(2j * np.pi * j * turns / p)[:, None] * term[None, :]).real
    np.clip(shapes, 0.0, None, out=shapes)
    shapes /= shapes.sum(axis=1, keepdims=True)
    return _LongGames(np.array(reach), q, rho, period, shapes, [classes[c] for c in carrying])


def _names(members: list[int], labels: list[int]) -> str:
    """The squares of a class, for a message: "squares 3-7, 9"."""
    return say("squares {squares}", squares=_ranges(sorted(labels[u] for u in members)))


def _pieces(Q: Any, classes: list[list[int]], where: dict[int, int]) -> dict[tuple[int, int], Any]:
    """A sparse ``Q`` cut into its blocks: ``(b, c)`` holds ``Q`` from class b to class c (the
    nonzero ones, and every class's own block), read from ``Q``'s CSR arrays in one pass (slicing
    scipy matrices class by class costs milliseconds each, seconds on a board of hundreds of
    classes). Dense arrays, but CSR for a block of a class of more than ``_DENSE_CLASS`` squares
    and for a link of more than ``_DENSE_CLASS ** 2`` entries."""
    csr: Any = Q.tocsr()
    at = {u: i for members in classes for i, u in enumerate(members)}
    entries: dict[tuple[int, int], tuple[list[int], list[int], list[float]]] = {
        (c, c): ([], [], []) for c in range(len(classes))}
    for u in where:
        b = where[u]
        for k in range(csr.indptr[u], csr.indptr[u + 1]):
            v = int(csr.indices[k])
            if v in where:
                rows, cols, values = entries.setdefault((b, where[v]), ([], [], []))
                rows.append(at[u])
                cols.append(at[v])
                values.append(float(csr.data[k]))
    out: dict[tuple[int, int], Any] = {}
    for (b, c), (rows, cols, values) in entries.items():
        shape = (len(classes[b]), len(classes[c]))
        big = shape[0] > _DENSE_CLASS if b == c else shape[0] * shape[1] > _DENSE_CLASS**2
        if big:
            out[b, c] = sp.csr_matrix((values, (rows, cols)), shape=shape)
        else:
            out[b, c] = np.zeros(shape)
            out[b, c][rows, cols] = values
    return out


def _sub(Q: Any, rows: list[int], cols: list[int]) -> Any:
    """``Q`` on ``rows`` x ``cols``: dense for a dense ``Q``, CSR for a sparse one."""
    matrix: Any = Q
    if sp.issparse(matrix):
        return Q[rows][:, cols].tocsr()
    return Q[np.ix_(rows, cols)]


def _critical_classes(classes: list[list[int]], radii: list[float],
                      exact: list[dict[int, Fraction]], blocks: list[Any],
                      perron: dict[int, tuple[float, np.ndarray, np.ndarray]],
                      labels: list[int]) -> tuple[list[bool], float]:
    """Which classes are critical (Perron root equal to the largest, exactly) and that root.

    Classes whose roots are within a relative ``_NEAR`` of the largest in floating point get
    certified bounds (:func:`_certified_bounds`, from their Perron vectors, in exact arithmetic):
    a class whose upper bound is below another's lower bound is not critical. Of those left,
    classes with the same block (:func:`_shape`: equal chutes, shifted copies) have the same
    spectrum and tie at once, whatever their size. Classes of different shapes are compared by
    the minimal polynomials of their roots over the integers (:func:`_minimal_polynomial`): equal
    polynomials, equal roots; of distinct ones the largest root is found by bisection with exact
    signs. ``ValueError`` names the classes if one of those has more than ``_EXACT_SQUARES``
    squares, or if its polynomial has another root too close to its Perron root to tell which is
    which: no tolerance decides, so no wrong distribution is returned."""
    largest = max(radii)
    near = [c for c, r in enumerate(radii) if r >= largest * (1.0 - _NEAR)]
    bounds: dict[int, tuple[Fraction, Fraction]] = {}
    if len(near) > 1:
        for c in near:
            if len(classes[c]) == 1:
                stay = exact[classes[c][0]].get(classes[c][0], Fraction(0))
                bounds[c] = (stay, stay)
            else:
                if c not in perron:
                    perron[c] = _perron(blocks[c], _names(classes[c], labels), classes[c], exact)
                _, left, right = perron[c]
                bounds[c] = _certified_bounds(classes[c], exact, left, right)
        floor = max(low for low, _ in bounds.values())
        near = [c for c in near if bounds[c][1] >= floor]     # the others are certainly smaller
    if len(near) == 1:
        return [c == near[0] for c in range(len(classes))], radii[near[0]]
    kinds: dict[Any, list[int]] = {}
    for c in near:
        kinds.setdefault(_shape(classes[c], exact), []).append(c)
    heads = [group[0] for group in kinds.values()]
    winners = heads
    root = _midpoint(bounds[heads[0]])
    if len(heads) > 1:

        tie = {"groups": "; ".join(_names(classes[c], labels) for c in near),
               "digits": f"{-math.log10(_certified_gap(bounds, near)):.0f}"}

        big = [c for c in heads if len(classes[c]) > _EXACT_SQUARES]
        if big:
            raise ValueError(say(
                "cannot tell whether long games settle on one group of squares or another: the "
                "chances of staying within {groups} agree to {digits} digits, and a group of "
                "more than {limit} squares is too big to compare exactly",
                limit=_EXACT_SQUARES, **tie))
        minimal: dict[int, tuple[flint.fmpz_poly, Fraction, Fraction]] = {}
        for c in heads:
            found = _minimal_polynomial(classes[c], exact, bounds[c])
            if found is None:
                raise ValueError(say(
                    "cannot tell whether long games settle on one group of squares or another: "
                    "the chances of staying within {groups} agree to {digits} digits, and "
                    "{group} have another eigenvalue too close to their Perron root to compare "
                    "exactly", group=_names(classes[c], labels), **tie))
            minimal[c] = found
        same: dict[str, list[int]] = {}
        for c in heads:
            same.setdefault(str(minimal[c][0]), []).append(c)
        order = _largest_root([minimal[group[0]] for group in same.values()])
        if order is None:
            raise ValueError(say(
                "cannot tell whether long games settle on one group of squares or another: the "
                "chances of staying within {groups} agree to {digits} digits, and their roots "
                "could not be told apart in 4000 bits", **tie))
        winners = list(same.values())[order[0]]
        root = order[1]
    critical = [False] * len(classes)
    for c in winners:
        for member in kinds[_shape(classes[c], exact)]:
            critical[member] = True
    single = [classes[c][0] for c in near if critical[c] and len(classes[c]) == 1]
    return critical, float(exact[single[0]][single[0]]) if single else root


def _shape(members: list[int], exact: list[dict[int, Fraction]]) -> tuple[Any, ...]:
    """The block of a class with its members renumbered 0, 1, ... in increasing order, exactly:
    two classes with the same shape have the same matrix after relabelling, hence the same
    spectrum (two chutes of one length on a board are shifted copies of each other)."""
    at = {u: i for i, u in enumerate(members)}
    return tuple(tuple(sorted((at[v], chance) for v, chance in exact[u].items() if v in at))
                 for u in members)


def _midpoint(bounds: tuple[Fraction, Fraction]) -> float:
    """The middle of certified bounds of a root, as a float (correctly rounded)."""
    return float((bounds[0] + bounds[1]) / 2)


def _certified_gap(bounds: dict[int, tuple[Fraction, Fraction]], near: list[int]) -> float:
    """The relative width of the union of the bounds of ``near`` (at least 1e-17)."""
    low = min(bounds[c][0] for c in near)
    high = max(bounds[c][1] for c in near)
    return max(float((high - low) / high), 1e-17) if high else 1e-17


def _certified_bounds(members: list[int], exact: list[dict[int, Fraction]], left: np.ndarray,
                      right: np.ndarray) -> tuple[Fraction, Fraction]:
    r"""Bounds on the Perron root of the class ``members`` that rounding cannot break.

    For an irreducible non-negative :math:`A` and any positive :math:`x`,
    :math:`\min_i (Ax)_i / x_i \le \rho \le \max_i (Ax)_i / x_i`, and likewise with
    :math:`yA` for a positive row vector :math:`y` (L. Collatz, "Einschließungssatz für die
    charakteristischen Zahlen von Matrizen", 1942; H. Wielandt, "Unzerlegbare, nicht negative
    Matrizen", 1950). The float Perron vectors are taken as exact binary fractions and the ratios
    computed with the exact entries of :math:`A` in integer arithmetic, so the bounds hold exactly;
    near the Perron vectors they are a few units of the last place apart. A vector with an entry
    that is not positive gives no bound (then 0 and infinity, as a huge number)."""
    at = {u: i for i, u in enumerate(members)}
    rows = [[(at[v], chance) for v, chance in exact[u].items() if v in at] for u in members]
    scale = math.lcm(*(chance.denominator for row in rows for _, chance in row))
    low, high = Fraction(0), Fraction(10**30)
    for vector, transpose in ((right, False), (left, True)):
        if not (vector > 0).all():
            continue
        ratios = [float(x).as_integer_ratio() for x in vector]
        denominator = max(d for _, d in ratios)              # a power of 2
        ints = [n * (denominator // d) for n, d in ratios]   # the vector times it, exactly
        image = [0] * len(members)
        for i, row in enumerate(rows):
            for j, chance in row:
                weight = chance.numerator * (scale // chance.denominator)
                if transpose:
                    image[j] += ints[i] * weight
                else:
                    image[i] += weight * ints[j]
        quotients = [Fraction(image[i], scale * ints[i]) for i in range(len(members))]
        low, high = max(low, min(quotients)), min(high, max(quotients))
    return low, high


def _minimal_polynomial(members: list[int], exact: list[dict[int, Fraction]],
                        bounds: tuple[Fraction, Fraction]
                        ) -> tuple[flint.fmpz_poly, Fraction, Fraction] | None:
    r"""The minimal polynomial over the integers (primitive, leading coefficient positive) of the
    Perron root :math:`\rho` of the class ``members``, and bounds ``low < rho <= high`` within
    which it has no other root; None if that cannot be certified.

    ``bounds`` are certified bounds of :math:`\rho` (:func:`_certified_bounds`). The
    characteristic polynomial of the block scaled to integers (python-flint, a fraction of a second
    at 400 squares) is factored; :math:`\rho` is a root of exactly one factor. Every other
    eigenvalue :math:`\alpha` has :math:`\operatorname{Re}\alpha \le |\alpha| \le \rho`, so with
    ``low`` a little below the lower bound every root of :math:`f(x + \text{low})` but
    :math:`\rho - \text{low}` has a real part :math:`\le 0` (unless an eigenvalue other than
    :math:`\rho` has a real part within :math:`10^{-16}` of it) and Descartes' rule of signs counts
    exactly one sign change in the coefficients of the factor of :math:`\rho` and none in the
    others'. Anything else (no factor, or more than one change) gives None."""
    low, high = bounds
    if len(members) == 1:
        stay = exact[members[0]].get(members[0], Fraction(0))
        return flint.fmpz_poly([-stay.numerator, stay.denominator]), stay, stay
    at = {u: i for i, u in enumerate(members)}
    scale = math.lcm(*(chance.denominator for u in members for v, chance in exact[u].items()
                       if v in at))
    block = flint.fmpz_mat(len(members), len(members))
    for u in members:
        for v, chance in exact[u].items():
            if v in at:
                block[at[u], at[v]] = chance.numerator * (scale // chance.denominator)
    _, factors = block.charpoly().factor()
    # scaled back: f(scale z) has the roots of f divided by scale
    found = _above([f(flint.fmpz_poly([0, scale])) for f, _ in factors], low)
    if found is None:
        return None
    if found.degree() == 1:
        root = Fraction(-int(found.coeffs()[0]), int(found.coeffs()[1]))
        return found, root, root
    return found, _below(low), high


def _below(low: Fraction) -> Fraction:
    """A multiple of 2^-_DYADIC strictly below ``low``."""
    return Fraction(math.floor(low * 2**_DYADIC) - 1, 2**_DYADIC)


def _above(polynomials: list[flint.fmpz_poly], low: Fraction) -> flint.fmpz_poly | None:
    """Of integer polynomials, the one (primitive, leading coefficient positive) with one root
    above ``low`` when the others have none there, by Descartes' rule of signs on
    :math:`f(x + \\text{low}')`, ``low'`` = :func:`_below` ``(low)``; None if that is not the case
    (two of them with sign changes, or one with more than one)."""
    cut = _below(low)
    shift = flint.fmpz_poly([cut.numerator, cut.denominator])
    found = []
    for f in polynomials:
        coeffs = [int(c) for c in f.coeffs()]
        content = math.gcd(*coeffs) * (1 if coeffs[-1] > 0 else -1)
        primitive = flint.fmpz_poly([c // content for c in coeffs])
        n = primitive.degree()
        # f(x + a/b) b^n = sum c_i (bx + a)^i b^(n-i), whose signs are those of f(y/b + a/b)
        terms = [int(c) * cut.denominator ** (n - i) for i, c in enumerate(primitive.coeffs())]
        moved = flint.fmpz_poly(terms)(shift)
        signs = [c > 0 for c in moved.coeffs() if c != 0]
        changes = sum(1 for s, t in itertools.pairwise(signs) if s != t)
        if changes:
            found.append((primitive, changes))
    if len(found) != 1 or found[0][1] != 1:
        return None
    return found[0][0]


def _perron_polynomial(members: list[int], exact: list[dict[int, Fraction]]) -> flint.fmpz_poly:
    """The minimal polynomial over the integers of the Perron root of the class ``members``
    (:func:`_minimal_polynomial`, with bounds from its Perron vectors); ``ValueError`` if it
    cannot be told from the other factors of the characteristic polynomial."""
    if len(members) == 1:
        stay = exact[members[0]].get(members[0], Fraction(0))
        return flint.fmpz_poly([-stay.numerator, stay.denominator])
    at = {u: i for i, u in enumerate(members)}
    block = np.zeros((len(members), len(members)))
    for u in members:
        for v, chance in exact[u].items():
            if v in at:
                block[at[u], at[v]] = float(chance)
    _, left, right = _perron(block, "the class", members, exact)
    found = _minimal_polynomial(members, exact, _certified_bounds(members, exact, left, right))
    if found is None:
        raise ValueError(say("the Perron root of the class is too close to another eigenvalue"))
    return found[0]


def _largest_root(isolated: list[tuple[flint.fmpz_poly, Fraction, Fraction]]
                  ) -> tuple[int, float] | None:
    """Of distinct irreducible polynomials, each with its largest real root isolated in
    ``(low, high]`` (:func:`_minimal_polynomial`), the index of the one whose root is the largest
    and that root as a float (correctly rounded). Each interval is halved (exact signs) until one
    lies above all the others; None after _BISECTIONS halvings."""
    intervals = [[low, high] for _, low, high in isolated]
    for _ in range(_BISECTIONS):
        for i, (low, high) in enumerate(intervals):
            if all(low >= other[1] for k, other in enumerate(intervals) if k != i):
                return i, _root_float(isolated[i][0], low, high)
        for (f, _, _), interval in zip(isolated, intervals, strict=True):
            _halve(f, interval)
    return None


def _halve(f: flint.fmpz_poly, interval: list[Fraction]) -> None:
    """One bisection step on ``[low, high]`` with f(low) < 0 <= f(high) (or low == high, a
    rational root): keeps the half where f changes sign, exactly."""
    low, high = interval
    if low == high:
        return
    middle = (low + high) / 2
    value = f(flint.fmpq(middle.numerator, middle.denominator))
    if value == 0:
        interval[:] = [middle, middle]
    elif value < 0:
        interval[0] = middle
    else:
        interval[1] = middle


def _root_float(f: flint.fmpz_poly, low: Fraction, high: Fraction) -> float:
    """The root of f in ``(low, high]`` (f(low) < 0 <= f(high)) rounded to the nearest float: the
    interval is halved until both ends round alike."""
    interval = [low, high]
    for _ in range(_BISECTIONS):
        if float(interval[0]) == float(interval[1]):
            break
        _halve(f, interval)
    return float(interval[1])


def _exact_period(classes: list[list[int]], preds: list[set[int]],
                  exact: list[dict[int, Fraction]], start: int, carrying: list[int], top: int,
                  p: int, bounds: tuple[Fraction, Fraction]) -> int | None:
    r"""The period :math:`d`, decided in exact arithmetic (module docstring, *the period*).

    With :math:`p` the lcm of the carrying classes' periods and :math:`\Lambda = \lambda^p`, the
    entry :math:`a_k = (x_k)_j` on one square :math:`j` of a carrying class, taken every
    :math:`p` turns from turn :math:`r`, has the generating function
    :math:`A_r(Y) = \sum_m a_{r+pm} Y^{-m-1} = N_r(Y) / D_p(Y)`, with
    :math:`D_p(Y) = \det(YI - Q^p)` over the classes that lead to a carrying class (exact
    rational polynomials) and :math:`N_r` its product with the first terms. Its coefficient
    :math:`L_r` of :math:`(Y - \Lambda)^{-H}` is an element of :math:`\mathbb Q(\Lambda)`, kept as
    a polynomial modulo the minimal polynomial :math:`M` of :math:`\Lambda`, and the limit shapes
    have :math:`(u_r)_j \propto \lambda^{-r} L_r`. So the shapes on that class repeat after
    :math:`d` turns iff :math:`L_{r+d} = c L_r` for every :math:`r` with one :math:`c` such
    that :math:`c^{p/d} = \Lambda` (with :math:`L_{r+p} = \Lambda L_r`); :math:`c > 0` holds by
    itself, since every :math:`L_r` has the sign of their common factor. :math:`d` is the lcm of
    the least such :math:`d` of each carrying class. ``bounds`` are certified bounds of
    :math:`\lambda`; None if :math:`M` cannot be certified (:func:`_above`)."""
    ancestors = set(carrying)
    todo = list(carrying)
    while todo:
        for b in preds[todo.pop()]:
            if b not in ancestors:
                ancestors.add(b)
                todo.append(b)
    squares = [u for c in sorted(ancestors) for u in classes[c]]
    inside = set(squares)
    scale = math.lcm(1, *(chance.denominator for u in squares for v, chance in exact[u].items()
                          if v in inside))
    weights = {u: [(v, chance.numerator * (scale // chance.denominator))
                   for v, chance in exact[u].items() if v in inside] for u in squares}
    power = flint.fmpq_poly([1])
    own = flint.fmpq_poly([1])
    for c in ancestors:
        members = classes[c]
        at = {u: i for i, u in enumerate(members)}
        block = flint.fmpq_mat(len(members), len(members))
        for u in members:
            for v, chance in exact[u].items():
                if v in at:
                    block[at[u], at[v]] = flint.fmpq(chance.numerator, chance.denominator)
        factor = (block ** p).charpoly()
        power *= factor
        if c == carrying[0]:
            own = factor
    _, pieces = own.factor()
    M = _above([f.numer() for f, _ in pieces], bounds[0] ** p)
    if M is None:
        return None
    modulus = flint.fmpq_poly([int(c) for c in M.coeffs()])
    n = power.degree()
    heads = [classes[c][0] for c in carrying]
    seen: dict[int, list[int]] = {j: [] for j in heads}
    x = {start: 1}
    for _ in range(p * n):                              # x_k scaled by scale^k, exactly
        for j in heads:
            seen[j].append(x.get(j, 0))
        step: dict[int, int] = {}
        for u, mass in x.items():
            for v, w in weights[u]:
                step[v] = step.get(v, 0) + mass * w
        x = step

    def multiplicity(f: flint.fmpq_poly) -> tuple[int, flint.fmpq_poly]:
        k = 0
        while not f.is_zero() and (f % modulus).is_zero():
            f, k = f // modulus, k + 1
        return k, f

    order, _ = multiplicity(power)
    Y = flint.fmpq_poly([0, 1]) % modulus
    period = 1
    for j in heads:
        shares = []
        for r in range(p):
            terms = [flint.fmpq(seen[j][r + p * m], scale ** (r + p * m)) for m in range(n)]
            numerator = (power * flint.fmpq_poly(terms[::-1])).right_shift(n)
            if numerator.is_zero():
                shares.append(flint.fmpq_poly([0]))
                continue
            k, rest = multiplicity(numerator)
            shares.append(rest % modulus if order - k == top else flint.fmpq_poly([0]))
        shares += [(Y * share) % modulus for share in shares]          # L_(r+p) = Lambda L_r
        period = math.lcm(period, min(d for d in range(1, p + 1) if p % d == 0
                                      and _repeats(shares, p, d, modulus, Y)))
    return period


def _repeats(shares: list[flint.fmpq_poly], p: int, d: int, modulus: flint.fmpq_poly,
             Y: flint.fmpq_poly) -> bool:
    """Whether L_(r+d) = c L_r for r < p with one c, c^(p/d) = Lambda (:func:`_exact_period`)."""
    ratio = None
    for r in range(p):
        now, later = shares[r], shares[r + d]
        if now.is_zero() or later.is_zero():
            if now != later:
                return False
            continue
        if ratio is None:
            _, inverse, _ = now.xgcd(modulus)
            ratio = (later * inverse) % modulus      # g = 1: M is irreducible
            power = flint.fmpq_poly([1])
            for _ in range(p // d):
                power = (power * ratio) % modulus
            if power != Y:
                return False
        elif later != (ratio * now) % modulus:
            return False
    return True


def _period_and_subclasses(members: list[int],
                           graph: list[list[int]]) -> tuple[int, np.ndarray]:
    """The period d of a communicating class (the gcd of the lengths of its cycles) and the cyclic
    subclass of each member, 0..d-1: a step from subclass s always leads to subclass s + 1."""
    inside = set(members)
    level = {members[0]: 0}
    todo = [members[0]]
    period = 0
    while todo:
        u = todo.pop()
        for v in graph[u]:
            if v not in inside:
                continue
            if v not in level:
                level[v] = level[u] + 1
                todo.append(v)
            else:
                period = math.gcd(period, level[u] + 1 - level[v])
    period = abs(period)
    return period, np.array([level[u] % period for u in members])


def _perron(block: Any, name: str, members: list[int] | None = None,
            exact: list[dict[int, Fraction]] | None = None) -> tuple[float, np.ndarray, np.ndarray]:
    r"""The Perron root and left and right Perron vectors of an irreducible non-negative block
    (dense or sparse), the vectors positive, the left one summing to 1 and ``left @ right == 1``.

    Inverse iteration whose shift follows the Collatz–Wielandt upper bound :math:`z` of the
    current vectors (:func:`_certified_bounds`), a relative ``_SHIFT`` above it, as in Noda's
    iteration (T. Noda, "Note on the computation of the maximal eigenvalue of a non-negative
    matrix", 1971): :math:`(zI - A)^{-1} = \sum_k A^k / z^{k+1}` has no negative entries, so the
    vectors stay positive, and each step shrinks the part along any other eigenvalue :math:`\mu`
    by :math:`(z - \rho) / |z - \mu|`, which goes to 0 as :math:`z` comes down to :math:`\rho`
    (even for :math:`\mu` within :math:`10^{-10}` of :math:`\rho`). A new shift means a new LU
    (dense LAPACK, or SuperLU for a sparse block). It stops when the vectors no longer change
    (or stop improving, rounding aside) and then checks the residuals
    :math:`\lVert Ar - \rho r \rVert` and :math:`\lVert \ell A - \rho \ell \rVert`: above
    a relative ``_RESIDUAL`` it raises ``ValueError`` naming the class (``name``) rather than
    return vectors that are not the Perron vectors.

    A small residual is not enough when another eigenvalue :math:`\mu` is very close to
    :math:`\rho` (two loops joined by a face of tiny weight): rounding then moves the vectors by
    about :math:`10^{-16}\rho / |\rho - \mu|`. So a dense block (given with ``members`` and the
    ``exact`` entries) whose nearest other eigenvalue is within a relative ``_GAP`` is done again
    in high precision (:func:`_perron_precise`); a sparse block whose vectors still move by more
    than ``_MOVING`` when the iteration stops raises ``ValueError`` naming the class."""
    size = block.shape[0]
    if size == 1:
        return float(block[0, 0]), np.ones(1), np.ones(1)
    sparse = sp.issparse(block)
    transposed = block.T.tocsr() if sparse else block.T
    right, left = np.ones(size), np.ones(size)

    def upper(v: np.ndarray, image: np.ndarray) -> float:
        return float((image / v).max()) if (v > 0).all() else math.inf

    def lower(v: np.ndarray, image: np.ndarray) -> float:
        return float((image / v).min()) if (v > 0).all() else 0.0

    shift = math.inf
    solve: Any = None
    change, best = math.inf, math.inf
    stalled = 0
    for _ in range(_STEPS):
        image_r, image_l = block @ right, transposed @ left
        high = min(upper(right, image_r), upper(left, image_l))
        low = max(lower(right, image_r), lower(left, image_l))
        if not math.isfinite(high):                      # rounding made an entry <= 0
            high = float(abs(block).sum(axis=1).max())   # the largest row sum bounds rho
        target = high * (1.0 + _SHIFT)
        if target - low < 0.5 * (shift - low):           # a much better shift: factor again
            shift = target
            solve = _shifted_solver(block, shift)
        new_r, new_l = solve(right, False), solve(left, True)
        new_r, new_l = new_r / np.abs(new_r).max(), new_l / np.abs(new_l).max()
        change = float(max(np.abs(new_r - right).max(), np.abs(new_l - left).max()))
        right, left = new_r, new_l
        if change <= 4 * np.finfo(float).eps:
            break
        if change < 0.99 * best:
            best, stalled = change, 0
        else:
            stalled += 1
            if stalled >= 10:                             # rounding noise: no better to be had
                break
    image_r, image_l = block @ right, transposed @ left
    # the two-sided Rayleigh quotient: its error is of the order of the product of the vectors'
    # errors (the Collatz-Wielandt bounds can stay apart where the vectors have tiny entries)
    rho = float(left @ image_r) / float(left @ right)
    residual = max(float(np.abs(image_r - rho * right).max() / np.abs(right).max()),
                   float(np.abs(image_l - rho * left).max() / np.abs(left).max()))
    if not rho > 0 or residual > _RESIDUAL * rho:
        raise ValueError(say("the long-game distribution could not be computed to full accuracy: "
                             "the Perron vectors of the group of {group} did not converge "
                             "(relative residual {residual})", group=name,
                             residual=f"{residual / max(rho, 1e-300):.1e}"))
    if sparse and change > _MOVING:
        raise ValueError(say("the long-game distribution could not be computed to full accuracy: "
                             "the Perron vectors of the group of {group} still move by "
                             "{change} (two eigenvalues of that group are nearly equal)",
                             group=name, change=f"{change:.1e}"))
    if not sparse and members is not None and exact is not None:
        values = np.linalg.eigvals(block)
        distance = np.sort(np.abs(values - rho))
        if distance[1] < _GAP * rho:
            left, right = _perron_precise(members, exact, distance[1] / rho)
    left, right = np.clip(left, 0.0, None), np.clip(right, 0.0, None)
    left /= left.sum()
    return rho, left, right / (left @ right)


def _perron_precise(members: list[int], exact: list[dict[int, Fraction]],
                    gap: float) -> tuple[np.ndarray, np.ndarray]:
    """The left and right Perron vectors of the class ``members`` (rounded to floats, not yet
    scaled), by the iteration of :func:`_perron` in python-flint's Arb with enough bits that a
    relative ``gap`` between the Perron root and the next eigenvalue costs no accuracy."""
    size = len(members)
    at = {u: i for i, u in enumerate(members)}
    # The shift ends a relative gap * 2^-30 above the root: each step shrinks the other
    # eigenvectors' parts by about 2^-30, and the solves lose about 30 + log2(1/gap) bits.
    bits = int(math.log2(1.0 / max(gap, 1e-300))) + 1
    prec = 160 + 2 * bits
    with flint.ctx.workprec(prec):
        A = flint.arb_mat(size, size)
        for u in members:
            for v, chance in exact[u].items():
                if v in at:
                    A[at[u], at[v]] = flint.arb(chance.numerator) / chance.denominator
        At = A.transpose()
        right = flint.arb_mat(size, 1, [1] * size)
        left = flint.arb_mat(size, 1, [1] * size)
        previous = (np.zeros(size), np.zeros(size))
        tiny = flint.arb(2) ** (-(bits + 30))
        for _ in range(_STEPS):
            image = A * right
            high = max((image[i, 0] / right[i, 0]).mid() for i in range(size))
            shift = high * (1 + tiny)
            eye = flint.arb_mat(size, size)
            for i in range(size):
                eye[i, i] = shift
            right = (eye - A).solve(right)
            left = (eye - At).solve(left)
            # keep the midpoints (the radii would only grow), scaled to a largest entry of 1
            right = _arb_unit(right, size)
            left = _arb_unit(left, size)
            now = (np.array([float(right[i, 0]) for i in range(size)]),
                   np.array([float(left[i, 0]) for i in range(size)]))
            if np.array_equal(now[0], previous[0]) and np.array_equal(now[1], previous[1]):
                break
            previous = now
    return previous[1], previous[0]


def _arb_unit(vector: Any, size: int) -> Any:
    """The midpoints of an Arb column vector, scaled to a largest entry of 1."""
    mids = [vector[i, 0].mid() for i in range(size)]
    top = max(mids, key=lambda x: float(x))
    return flint.arb_mat(size, 1, [x / top for x in mids])


def _shifted_solver(block: Any, shift: float) -> Any:
    """``solve(v, transposed)``: the solution of (shift I - block) x = v, or of its transpose, from
    one LU (SuperLU for a sparse block, LAPACK for a dense one)."""
    size = block.shape[0]
    if sp.issparse(block):
        identity: Any = sp.identity(size, format="csc")
        lu: Any = spla.splu((shift * identity - block).tocsc())
        return lambda v, transposed: lu.solve(v, trans="T" if transposed else "N")
    factors: Any = sla.lu_factor(shift * np.eye(size) - block)
    lu_solve: Any = sla.lu_solve
    return lambda v, transposed: lu_solve(factors, v, trans=1 if transposed else 0)


def _leading_term(blocks: list[Any], links: dict[tuple[int, int], Any],
                  preds: list[set[int]], local: list[list[int]], start: int, z: complex,
                  turning: dict[int, tuple[np.ndarray, np.ndarray]], order: int) -> np.ndarray:
    """The coefficient of (w - z)^-order in e_start (wI - Q0)^-1 near w = z, class by class in
    topological order (module docstring). ``blocks[c]`` is Q0 on class c, ``links[b, c]`` from
    class b to class c (b among ``preds[c]``), ``local[c]`` the class's indices in Q0;
    ``turning`` holds the classes with z as an eigenvalue, with their left and right eigenvectors
    (``left @ right == 1``). Zero where the pole at z is of lower order."""
    orders = [0] * len(blocks)
    parts: list[np.ndarray] = []
    for c, block in enumerate(blocks):
        size, flipped = block.shape[0], cast("Any", block.T)
        into = max((orders[b] for b in preds[c]), default=0)
        incoming = np.zeros(block.shape[0], dtype=complex)
        if not preds[c]:                                 # the start's class
            incoming[local[c].index(start)] = 1.0
        for b in preds[c]:
            if orders[b] == into:
                incoming += parts[b] @ links[b, c]
        if c in turning:
            left, right = turning[c]
            parts.append((incoming @ right) * left)
            orders[c] = into + 1
        elif block.shape[0] == 1:
            parts.append(incoming / (z - block[0, 0]))
            orders[c] = into
        elif sp.issparse(block):
            identity: Any = sp.identity(size, format="csc")
            system = (z * identity - flipped).tocsc()
            parts.append(spla.splu(system.astype(complex)).solve(incoming))
            orders[c] = into
        else:
            parts.append(np.linalg.solve(z * np.eye(block.shape[0]) - block.T, incoming))
            orders[c] = into
    term = np.zeros(sum(len(members) for members in local), dtype=complex)
    for c, members in enumerate(local):
        if orders[c] == order:
            term[members] = parts[c]
    return term


def _classes(nodes: list[int], graph: list[list[int]]) -> list[list[int]]:
    """Communicating classes (strongly connected components) of ``graph`` on ``nodes``, with each
    class before every class it leads to (Tarjan's algorithm, without recursion)."""
    allowed = set(nodes)
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            u, edges = work[-1]
            advanced = False
            for v in edges:
                if v not in allowed:
                    continue
                if v not in index:
                    index[v] = low[v] = counter
                    counter += 1
                    stack.append(v)
                    on_stack.add(v)
                    work.append((v, iter(graph[v])))
                    advanced = True
                    break
                if v in on_stack:
                    low[u] = min(low[u], index[v])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[u])
            if low[u] == index[u]:
                members = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    members.append(w)
                    if w == u:
                        break
                out.append(sorted(members))
    out.reverse()                                        # Tarjan finds the last classes first
    return out


def _longest_path(classes: list[list[int]], where: dict[int, int],
                  graph: list[list[int]]) -> int:
    """The most turns a game can take inside an acyclic reachable part, minus one."""
    longest = [0] * len(classes)
    for c in reversed(range(len(classes))):
        u = classes[c][0]
        longest[c] = max((1 + longest[where[v]] for v in graph[u] if v in where), default=0)
    return longest[0]


# --------------------------------------------------------------------------- rounds
def expected_rounds(board: Board, players: int, start: int = 0) -> float:
    r"""The expected number of rounds of a game of ``players`` players, all starting on ``start``.

    A round is one turn of each player; the game is over in the first round in which someone
    finishes, so :math:`\mathbb E[\text{rounds}] = \sum_{k \ge 0} \Pr(T > k)^m` with :math:`T`
    one player's game length (:func:`chutes_edu.turn_distribution`, whose left-out tail is below
    :math:`10^{-12}`). One player: the expected number of turns.

    Parameters
    ----------
    board : Board
        The board and its rules (no traps: whether a player in a trap is out is a house rule).
    players : int
        The number of players :math:`m \ge 1`.
    start : int, default 0
        The square every token starts on.

    Returns
    -------
    float
        :math:`\mathbb E[\min(T_1, \dots, T_m)]`.

    Raises
    ------
    ValueError
        For fewer than one player, a board with traps, or a start off the board.

    Examples
    --------
    >>> from chutes_edu import MILTON_BRADLEY_1943, expected_rounds
    >>> one, four = (expected_rounds(MILTON_BRADLEY_1943, m) for m in (1, 4))
    >>> round(one, 4), round(four, 2)
    (39.2251, 19.27)
    """
    players = _square(players, "players")
    if players < 1:
        raise ValueError(say("players must be at least 1, got {players}", players=players))
    if board.traps:
        raise ValueError(say("expected_rounds does not handle traps (this board has traps on "
                             "{squares}): whether a player in a trap is out is a house rule",
                             squares=_ranges(board.traps)))
    start = _on_board(board, start, "start")
    pmf = turn_distribution(board, start)
    survival = np.cumsum(pmf[::-1])[::-1] - pmf             # P(T > k), summed from the tail
    np.clip(survival, 0.0, 1.0, out=survival)
    return float(np.sum(survival ** players))

