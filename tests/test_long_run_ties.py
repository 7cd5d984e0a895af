"""Issue 49's sweep: boards with two or three chutes of one length (100-400 squares), every
overshoot rule, long games of period 1, 2 and 3, against a reference of this file's own.

Equal chutes make loops with the same block, so their Perron roots tie exactly and long games end
up on the last loop and the squares after it. The reference does not use the library's code path
(no Collatz-Wielandt bounds, no characteristic polynomial, no resolvent): it reads the board's
rules itself, finds the loop's Perron root by shooting at 50 digits (mpmath) and q from the last
loop's left Perron vector and a solve on the squares after it, and takes the period from the
loop's cycle lengths."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from chutes_edu import OVERSHOOT_RULES, Board, quasi_stationary_distribution

DIGITS = 50

DICE = {1: (1, 1, 1, 1, 1, 1), 2: (1, 0, 1), 3: (1, 0, 0, 1)}
"""Period d of the loops: a fair die; faces 1 and 3 (every move odd); faces 1 and 4 (every move
1 mod 3). The chutes' lengths are multiples of d, so each turn below the last chute's top adds 1
to the square mod d."""


def _rows(board: Board, faces: tuple[int, ...], rule: str) -> list[dict[int, Fraction]]:
    """The exact one-turn chances from each square 0..size-1, from the rules (board module
    docstring), written here: overshoot rule first, then one jump; a move lost to "stay" fires
    none."""
    n, total = board.size, sum(faces)
    rows: list[dict[int, Fraction]] = []
    for s in range(n):
        row: dict[int, Fraction] = {}
        for face, weight in enumerate(faces, start=1):
            if not weight:
                continue
            t = s + face
            if t > n:
                t = {"stay": s, "win": n, "bounce": 2 * n - t, "stop_short": n - 1}[rule]
            if not (t == s and s + face > n):
                t = board.jumps.get(t, t)
            row[t] = row.get(t, Fraction(0)) + Fraction(weight, total)
        rows.append(row)
    return rows


def _cycle_gcd(rows: list[dict[int, Fraction]], loop: range) -> int:
    """The gcd of the lengths of the cycles inside ``loop`` (levels of a search from its bottom)."""
    level = {loop[0]: 0}
    todo = [loop[0]]
    g = 0
    while todo:
        u = todo.pop()
        for v in rows[u]:
            if v in loop:
                if v not in level:
                    level[v] = level[u] + 1
                    todo.append(v)
                else:
                    g = math.gcd(g, level[u] + 1 - level[v])
    return g


def _reference(board: Board, faces: tuple[int, ...], rule: str,
               loops: list[range]) -> tuple[mpmath.mpf, list[mpmath.mpf], int]:
    """lambda, q (squares 0..size) and the period. Inside a loop every move goes up except the
    chute's slide to the bottom b, so its left Perron vector solves l_j lambda = sum_(i<j) l_i Q_ij
    from l_b = 1, and lambda is the root of lambda - sum_i l_i Q_ib = 0 (found from numpy's
    guess). q is that vector on the last loop, and on the squares D after it
    q_D = q_L Q_LD (lambda I - Q_DD)^-1."""
    mpmath.mp.dps = DIGITS
    rows = _rows(board, faces, rule)
    n = board.size
    loop = loops[-1]
    for u in loop:                                     # the structure the shooting relies on
        assert all(v > u or v == loop[0] for v in rows[u] if v in loop)
    exact = [[mpmath.mpf(p.numerator) / p.denominator for p in row.values()] for row in rows]
    targets = [list(row) for row in rows]

    def shoot(lam: mpmath.mpf) -> tuple[mpmath.mpf, dict[int, mpmath.mpf]]:
        left = {u: mpmath.mpf(0) for u in loop}
        left[loop[0]] = mpmath.mpf(1)
        back = mpmath.mpf(0)
        for u in loop:
            if u != loop[0]:
                left[u] /= lam
            for v, p in zip(targets[u], exact[u], strict=True):
                if v == loop[0]:
                    back += left[u] * p
                elif v in loop:
                    left[v] += left[u] * p
        return lam - back, left

    block = np.zeros((len(loop), len(loop)))
    for u in loop:
        for v, p in rows[u].items():
            if v in loop:
                block[u - loop[0], v - loop[0]] += float(p)
    guess = float(np.abs(np.linalg.eigvals(block)).max())
    lam = mpmath.findroot(lambda x: shoot(x)[0], (mpmath.mpf(guess), mpmath.mpf(guess) * (1 - 1e-9)),
                          solver="secant", tol=mpmath.mpf(10) ** (8 - DIGITS))
    left = shoot(lam)[1]
    after = [s for s in range(loop[-1] + 1, n) if s not in board.jumps]
    at = {s: i for i, s in enumerate(after)}
    A = mpmath.matrix(len(after), len(after))
    b = mpmath.matrix(len(after), 1)
    for i in range(len(after)):
        A[i, i] += lam
    for s in after:
        for v, p in rows[s].items():
            if v in at:
                A[at[v], at[s]] -= mpmath.mpf(p.numerator) / p.denominator
    for u in loop:
        for v, p in rows[u].items():
            if v in at:
                b[at[v]] += left[u] * mpmath.mpf(p.numerator) / p.denominator
    tail = mpmath.lu_solve(A, b) if after else []
    q = [mpmath.mpf(0)] * (n + 1)
    for u in loop:
        q[u] = left[u]
    for s in after:
        q[s] = tail[at[s]]
    total = sum(q)
    # below the last loop's top every turn adds 1 (mod the loops' period), so the conditioned
    # distribution on the last loop moves from one cyclic subclass to the next at every turn
    period = _cycle_gcd(rows, loop)
    assert all((v - u - 1) % period == 0 for u in range(loop[-1]) for v in rows[u] if v <= loop[-1])
    return lam, [x / total for x in q], period


def _boards() -> list[tuple[Board, tuple[int, ...], str, list[range], int]]:
    """Two or three chutes of one length (100-400 squares, a multiple of the period), every
    overshoot rule, periods 1-3: 18 boards."""
    out = []
    rng = np.random.default_rng(49)
    for d, faces in DICE.items():
        for rule in OVERSHOOT_RULES:
            for count in ((2, 3) if rule in ("stay", "bounce") else ((2,) if d != 2 else (3,))):
                length = d * int(rng.integers(-(-100 // d), 400 // d + 1))
                jumps, bottom = {}, 5
                for _ in range(count):
                    jumps[bottom + length] = bottom
                    bottom += length + 3 * d + 1
                size = bottom + 12
                board = Board(jumps, size=size, die=faces, overshoot=rule)
                loops = [range(b, a) for a, b in sorted(jumps.items())]
                out.append((board, faces, rule, loops, d))
    return out


BOARDS = _boards()


@pytest.mark.parametrize(("board", "faces", "rule", "loops", "d"), BOARDS,
                         ids=[f"{len(b[3])}x{len(b[3][0])}-{b[2]}-d{b[4]}" for b in BOARDS])
def test_equal_chutes_agree_with_the_reference(board: Board, faces: tuple[int, ...], rule: str,
                                               loops: list[range], d: int) -> None:
    lam, q, period = _reference(board, faces, rule, loops)
    assert period == d
    found = quasi_stationary_distribution(board)
    assert found.decay_rate == pytest.approx(float(lam), rel=4e-16, abs=0)
    assert found.period == period
    expected = np.array([float(x) for x in q])
    assert np.abs(found.distribution - expected).max() < 1e-14
    assert np.array_equal(found.distribution > 0, expected > 0)
