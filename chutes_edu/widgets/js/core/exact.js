// @ts-check
/**
 * Exact arithmetic, for the answers that must be exact (the library's `exact=True` solves) and
 * the ties that must be decided exactly:
 *
 * - Fractions p/q of BigInts in lowest terms with q > 0 (`ratio`: divided by gcd(p, q), the sign
 *   carried by p), compared by the sign of p_a q_b - p_b q_a (`cmp`).
 * - The decimal a JSON number is written as (`decimal`: Python's `Fraction(repr(float(x)))`, as
 *   the library reads a float die weight), and integer face weights proportional to a die's
 *   exact probabilities (`exactChances`: each weight over the least common denominator).
 * - Fraction-free (Bareiss) elimination of M x = r for an integer matrix with nonzero leading
 *   minors (no pivoting): after pivot k every entry below and right of it is a (k+1) x (k+1)
 *   minor of M, m_ij <- (m_kk m_ij - m_ik m_kj) / m_{k-1,k-1}, a division that is always exact,
 *   so the integers stay as short as the answer; the last pivot is det M, and back substitution
 *   gives the integral X = det M x (Cramer).
 *
 * No DOM, no dependencies but core.
 *
 * @module exact
 */
import { pyFloat } from "./format.js";
import { BIG_SLICE } from "./steps.js";

/** @typedef {{p: bigint, q: bigint}} Ratio  q > 0, in lowest terms */

/** The greatest common divisor of two integers (0 for two zeros). @param {bigint} a @param {bigint} b */
export function gcd(a, b) {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
}

/** p / q in lowest terms. @param {bigint} p @param {bigint} q @returns {Ratio} */
export function ratio(p, q) {
  if (q < 0n) { p = -p; q = -q; }
  const d = gcd(p, q) || 1n;
  return { p: p / d, q: q / d };
}

/** The decimal a number is written as (Python's `Fraction(repr(float(x)))`). @param {number} x */
export function decimal(x) {
  const text = Number.isInteger(x) && Math.abs(x) < 1e16 ? String(x) : pyFloat(x);
  const [mantissa, exp = "0"] = text.split("e");
  const [whole, frac = ""] = mantissa.split(".");
  let p = BigInt(whole + frac);
  let q = 10n ** BigInt(frac.length);
  const e = Number(exp);
  if (e >= 0) p *= 10n ** BigInt(e);
  else q *= 10n ** BigInt(-e);
  return ratio(p, q);
}

/** a - b. @param {Ratio} a @param {Ratio} b */
export const sub = (a, b) => ratio(a.p * b.q - b.p * a.q, a.q * b.q);
/** -1, 0 or 1 as a < b, a = b or a > b. @param {Ratio} a @param {Ratio} b */
export const cmp = (a, b) => { const d = a.p * b.q - b.p * a.q; return d < 0n ? -1 : d > 0n ? 1 : 0; };
/** |a|. @param {Ratio} a */
export const absR = (a) => (a.p < 0n ? { p: -a.p, q: a.q } : a);

/**
 * The exact chances of a die's faces as integers over a common total: face r has chance
 * weights[r - 1] / total. A checked JSON die: `m` fair faces unless `die` is a list of weights,
 * each read as the decimal it is written as.
 * @param {unknown} die @param {number} m
 * @returns {{weights: bigint[], total: bigint}}
 */
export function exactChances(die, m) {
  if (!Array.isArray(die)) return { weights: new Array(m).fill(1n), total: BigInt(m) };
  const fractions = die.map((/** @type {number} */ w) => decimal(w));
  let common = 1n;
  for (const f of fractions) common = (common / gcd(common, f.q)) * f.q;
  const weights = fractions.map((/** @type {Ratio} */ f) => f.p * (common / f.q));
  return { weights, total: weights.reduce((a, b) => a + b, 0n) };
}

/**
 * Solve M x = r exactly for an integer matrix M (n x n, every leading minor nonzero, e.g. an
 * M-matrix up to a positive factor, so no pivoting) by fraction-free (Bareiss) elimination:
 * returns X and det with x = X / det (Cramer: X is integral). A row with a zero below the pivot
 * is only rescaled (nothing to do when the pivot equals the previous one), and the back
 * substitution skips zeros: a board's matrix is sparse until the elimination fills it.
 * Yields every BIG_SLICE operations.
 * @param {bigint[][]} M rows, destroyed
 * @param {bigint[]} r destroyed
 * @returns {Generator<void, {X: bigint[], det: bigint}, void>}
 */
export function* bareissSteps(M, r) {
  const n = M.length;
  let prev = 1n;
  let work = 0;
  for (let k = 0; k < n; k += 1) {
    const pivotRow = M[k];
    const pivot = pivotRow[k];
    for (let i = k + 1; i < n; i += 1) {
      const row = M[i];
      const lead = row[k];
      if (lead === 0n) {
        if (pivot !== prev) {
          for (let j = k + 1; j < n; j += 1) if (row[j] !== 0n) row[j] = (pivot * row[j]) / prev;
          r[i] = (pivot * r[i]) / prev;
        }
      } else {
        for (let j = k + 1; j < n; j += 1) row[j] = (pivot * row[j] - lead * pivotRow[j]) / prev;
        r[i] = (pivot * r[i] - lead * r[k]) / prev;
      }
      row[k] = 0n;
      work += n - k;
      if (work >= BIG_SLICE) { work = 0; yield; }
    }
    prev = pivot;
  }
  const det = M[n - 1][n - 1];
  const X = new Array(n).fill(0n);
  for (let i = n - 1; i >= 0; i -= 1) {
    const row = M[i];
    let s = det * r[i];
    for (let j = i + 1; j < n; j += 1) if (row[j] !== 0n) s -= row[j] * X[j];
    X[i] = s / row[i];
    work += n - i;
    if (work >= BIG_SLICE) { work = 0; yield; }
  }
  return { X, det };
}
