"""Self-checks for exercise set 1 (lessons/01_waiting_for_heads.ipynb).

The set's numbers ``n`` (:mod:`chutes_edu.variants`) are declared at the top of the set: the dice
and the sum of 1.1, the side and length of the run of 1.2, the die and the cap of 1.4, the die of
the board and the bias of 1.5 and the coin of 1.7. (1.6 is a question of ideas, the same for
everyone.)
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np

from chutes_edu import MILTON_BRADLEY_1943, expected_flips
from chutes_edu._lazy import sympy
from chutes_edu.checks import (
    Numbers,
    close,
    exactly,
    one_of,
    register,
    same_expression,
    whole_number,
)
from chutes_edu.checks.exact import first_remainder_below


# --------------------------------------------------------------------------- 1.1
def _dice_wait(dice: int, sides: int, below: int) -> Fraction:
    """The expected number of rolls of ``dice`` fair dice with ``sides`` faces until their sum is
    at least the largest possible sum less ``below``."""
    at_least = dice * sides - below
    hits = sum(1 for roll in product(range(1, sides + 1), repeat=dice) if sum(roll) >= at_least)
    return 1 / Fraction(hits, sides ** dice)


@register("1.1", hint="Count how many of the n.sides ** n.dice equally likely outcomes of the dice "
                      "succeed; that gives p, and the first-step equation gives the expected wait "
                      "from p. Keep it exact: Fraction or sympy.Rational, not a float.")
def _ex_1_1(answer: Any, n: Numbers) -> bool:
    return exactly(_dice_wait(n.dice, n.sides, n.below))(answer)


# --------------------------------------------------------------------------- 1.2
def _run_wait(p: Any, side: str, run: int) -> Any:
    """Solve the first-step equations for 'run of side in a row' at a given p = P(heads)."""
    q = p if side == "heads" else 1 - p
    e = sympy.symbols(f"e0:{run}")
    longer = [*e[1:], 0]
    sol = sympy.solve([sympy.Eq(e[j], 1 + q * longer[j] + (1 - q) * e[0]) for j in range(run)],
                      e, dict=True)[0]
    return sol[e[0]]


@register("1.2", hint="Use one unknown per length of the run so far: the expected flips from "
                      "scratch, just after one flip of the run, just after two, ... Write one "
                      "first-step equation for each (what can the next flip do?), solve them with "
                      "sympy.solve, and give the answer as an expression in the symbol p, the "
                      "chance of heads.")
def _ex_1_2(answer: Any, n: Numbers) -> bool:
    values = (sympy.Rational(1, 2), sympy.Rational(1, 3), sympy.Rational(3, 4),
              sympy.Rational(1, 10))
    return same_expression(lambda p: _run_wait(p, n.side, n.run), values)(answer)


# --------------------------------------------------------------------------- 1.3
@register("1.3", hint="Use rng = np.random.default_rng(seed) once, then for each trial flip "
                      "(rng.random() < p) until heads, counting the flips; return an int array "
                      "of length n_trials. Do not stop a trial early: the check also tries a "
                      "coin with a small p, where a cap on the number of flips shows.",
          function=True)
def _ex_1_3(answer: Any) -> bool:
    sample = np.asarray(answer(0.5, 10, 3))
    if sample.shape != (10,) or not np.issubdtype(sample.dtype, np.integer) or sample.min() < 1:
        return False
    if not np.array_equal(sample, np.asarray(answer(0.5, 10, 3))):
        return False                                   # the same seed must give the same trials
    if not np.all(np.asarray(answer(1.0, 50, 0)) == 1):
        return False                                   # a coin that always lands heads
    for p, seed in ((0.5, 11), (0.2, 12)):
        n = 20_000
        waits = np.asarray(answer(p, n, seed), dtype=float)
        if waits.shape != (n,):
            return False
        exact = expected_flips(p)
        spread = np.sqrt(1 - p) / p                    # standard deviation of the wait
        if abs(waits.mean() - exact) > 5 * spread / np.sqrt(n):
            return False
        if abs((waits == 1).mean() - p) > 5 * np.sqrt(p * (1 - p) / n):
            return False                               # heads on the first flip: probability p
    return not _looks_capped(answer)


def _looks_capped(my_waits: Any, p: float = 0.01, n: int = 3000, seed: int = 13) -> bool:
    """True when a coin with small ``p`` shows a simulator that gives up after some flips.

    With p = 0.01 the waits often run into the hundreds, so a cap of tens or hundreds of flips
    changes the sample's mean and its tail. The tail is compared with P(N > k) = (1 - p)^k at every
    k by the largest gap between the two (a Kolmogorov-Smirnov distance; 1.95 / sqrt(n) is
    exceeded by an honest simulator with probability about 0.001).
    """
    waits = np.sort(np.asarray(my_waits(p, n, seed), dtype=float))
    if waits.shape != (n,):
        return True
    spread = np.sqrt(1 - p) / p
    if abs(waits.mean() - 1 / p) > 5 * spread / np.sqrt(n):
        return True
    below = np.arange(1, n + 1) / n                    # empirical P(N <= waits[i])
    exact = 1 - (1 - p) ** waits
    gap = np.max(np.maximum(np.abs(below - exact), np.abs(below - 1 / n - exact)))
    return bool(gap > 1.95 / np.sqrt(n))


# --------------------------------------------------------------------------- 1.4
def _coin_capped_mean(p: Fraction, cap: int) -> Fraction:
    """E[min(N, cap)] as the sum of P(N > j) = (1 - p)^j for j < cap."""
    return sum(((1 - p) ** j for j in range(cap)), Fraction(0))


@register("1.4", hint="A capped trial records min(N, cap). Its mean is a sum of tail "
                      "probabilities P(N > j); for a coin each of them is a power of (1 - p). "
                      "Keep the answer exact (Fraction or sympy).")
def _ex_1_4(answer: Any, n: Numbers) -> bool:
    return exactly(_coin_capped_mean(Fraction(1, n.faces), n.cap))(answer)


# --------------------------------------------------------------------------- 1.5
def _smallest_cap(board: Any, tolerance: float) -> int:
    """The smallest cap c >= 1 whose bias E[T] - E[min(T, c)] is below ``tolerance``, in exact
    arithmetic (float partial sums carry rounding of about 1e-13, too close to some thresholds)."""
    return first_remainder_below(board, Fraction(str(tolerance)), first=1)


@register("1.5", hint="The bias of a cap c is E[T] - E[min(T, c)], and E[min(T, c)] is the sum of "
                      "P(T > k) for k = 0, ..., c-1. Get P(T > k) exactly from turn_distribution "
                      "(1 minus a cumulative sum), then find the first cap that works.")
def _ex_1_5(answer: Any, n: Numbers) -> bool:
    return whole_number(_smallest_cap(MILTON_BRADLEY_1943.replace(die=n.die), n.bias))(answer)


# --------------------------------------------------------------------------- 1.6
@register("1.6", hint="Ask two separate questions: is there a longest possible game? And what is "
                      "the probability that a game never reaches square 100?")
def _ex_1_6(answer: Any) -> bool:
    return one_of("b")(answer)



# --------------------------------------------------------------------------- 1.7
def _geometric_sd(p: Any) -> float:
    """The standard deviation of the wait for heads, from sums over the geometric distribution."""
    k = sympy.symbols("k", integer=True, positive=True)
    pmf = (1 - p) ** (k - 1) * p
    mean = sympy.summation(k * pmf, (k, 1, sympy.oo))
    second = sympy.summation(k ** 2 * pmf, (k, 1, sympy.oo))
    return float(sympy.sqrt(second - mean ** 2))


@register("1.7", hint="E[N^2] is the sum of k^2 P(N = k) over k = 1, 2, ...; sympy.summation does "
                      "it with p = sympy.Rational(n.percent, 100). The variance is "
                      "E[N^2] - E[N]^2, and the answer is its square root (a number, not a "
                      "formula).")
def _ex_1_7(answer: Any, n: Numbers) -> bool:
    return close(_geometric_sd(sympy.Rational(n.percent, 100)), rel=1e-6)(answer)
