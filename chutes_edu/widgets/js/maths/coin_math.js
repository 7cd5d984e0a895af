// @ts-check
/**
 * The coin-flip warm-up's maths, in the page (chutes_edu/coin.py and chutes_edu.simulation
 * .running_mean in JavaScript, held equal to them by tests/js/coin_math.test.mjs).
 *
 * Flip a coin that shows heads with probability p until it does; F is the number of flips, the
 * last one included. F is geometric, P(F = k) = (1 - p)^(k - 1) p, and first-step analysis gives
 * its mean: E = 1 + (1 - p) E, so E = 1/p (`expectedFlips`).
 *
 * A simulation draws F by inversion: with U uniform on (0, 1), F = max(1, ceil(ln U / ln(1 - p)))
 * is geometric with parameter p, since P(F > k) = P(ln U < k ln(1 - p)) = (1 - p)^k. The uniforms
 * come from a seeded generator (core/random.js's `createRandom`: xoshiro128** started by
 * splitmix32 from the seed; its own stream, not numpy's, so the page's flips are not the
 * library's for the same seed, but the same seed always gives the same flips). The uniforms do not depend on p, so moving p with
 * the same seed moves every wait smoothly (a coupling), and more trials extend the same sequence.
 *
 * After k waits x_1..x_k the running mean is m_k = (x_1 + ... + x_k)/k, and the 95% band is
 * m_k ± z sqrt(v_k / k), where v_k = max(q_k - m_k², 0) k/(k - 1) is the sample variance, q_k the
 * mean of the squares and z = 1.96 (`runningMean`, step for step as the library computes it);
 * one wait says nothing of the spread, so the first half-width is infinite.
 *
 * @module coin_math
 */
import { BoardError } from "./board_math.js";
import { pyRepr } from "../core/format.js";
import { createRandom } from "../core/random.js";

/**
 * The most trials the page draws: 10^5 waits take a few milliseconds per change of p on a busy
 * machine, so a change stays within a frame; 10^6 took 40 to 70 ms, over the budget (issue 28).
 */
export const MAX_TRIALS = 100_000;

/** The largest seed: seeds are whole numbers from 0 to 2^32 - 1. */
export const MAX_SEED = 4_294_967_295;

/** The normal quantile of a 95% band. */
export const Z95 = 1.96;

/**
 * p as a probability in (0, 1], or BoardError with the library's words (chutes_edu.coin).
 * @param {unknown} p
 * @returns {number}
 */
export function checkProbability(p) {
  if (typeof p !== "number") throw new BoardError(`p must be a probability, not ${pyRepr(p)}`);
  if (!(p > 0 && p <= 1)) {
    throw new BoardError("p must satisfy 0 < p <= 1 (with p = 0 heads never comes), got " +
      pyRepr(p));
  }
  return p;
}

/**
 * A number of trials from 1 to MAX_TRIALS, or BoardError naming it.
 * @param {unknown} n
 * @returns {number}
 */
export function checkTrials(n) {
  if (typeof n !== "number" || !Number.isInteger(n)) {
    throw new BoardError(`n_trials must be a whole number, not ${pyRepr(n)}`);
  }
  if (n < 1 || n > MAX_TRIALS) {
    throw new BoardError(`the number of trials must be from 1 to ${MAX_TRIALS.toLocaleString(
      "en-US")}, not ${n}`);
  }
  return n;
}

/**
 * A seed from 0 to MAX_SEED, or BoardError naming it.
 * @param {unknown} seed
 * @returns {number}
 */
export function checkSeed(seed) {
  if (typeof seed !== "number" || !Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
    throw new BoardError(`the random seed must be a whole number from 0 to ${MAX_SEED}, not ` +
      pyRepr(seed));
  }
  return seed;
}

/**
 * The expected number of flips until the first heads, 1/p (chutes_edu.expected_flips).
 * @param {number} p
 * @returns {number}
 */
export function expectedFlips(p) {
  return 1 / checkProbability(p);
}

/**
 * The wait for heads that the uniform u gives (inversion, see the module's maths).
 * @param {number} logU ln u, for u in (0, 1)
 * @param {number} perLog 1 / ln(1 - p) (-0 for p = 1)
 */
function waitFrom(logU, perLog) {
  return Math.max(1, Math.ceil(logU * perLog));
}

/**
 * `n` waits for heads with probability `p` from the seed's stream (chutes_edu.flips_until_heads,
 * with the page's generator).
 * @param {number} p
 * @param {number} n
 * @param {number} seed
 * @returns {Int32Array}
 */
export function flipsUntilHeads(p, n, seed) {
  return createSampler().flips(p, n, seed).slice();
}

/**
 * Draws waits for heads and keeps the logarithms of the seed's uniforms, so that a new p (or
 * fewer trials) with the same seed costs one pass of multiplications, and more trials only the
 * new draws.
 */
export function createSampler() {
  let seed = -1;
  let next = () => 0.5;
  let logs = new Float64Array(0);
  let drawn = 0;
  let flips = new Int32Array(0);
  return {
    /**
     * The first `n` waits for heads of the seed's stream with probability `p` (a view, valid
     * until the next call).
     * @param {number} p @param {number} n @param {number} s
     * @returns {Int32Array}
     */
    flips(p, n, s) {
      checkProbability(p);
      checkTrials(n);
      if (s !== seed) {
        next = createRandom(checkSeed(s));
        seed = s;
        drawn = 0;
      }
      if (logs.length < n) {
        const grown = new Float64Array(Math.max(n, Math.min(2 * logs.length, MAX_TRIALS)));
        grown.set(logs.subarray(0, drawn));
        logs = grown;
        flips = new Int32Array(logs.length);
      }
      for (; drawn < n; drawn += 1) logs[drawn] = Math.log(next());
      const perLog = 1 / Math.log1p(-p);
      for (let i = 0; i < n; i += 1) flips[i] = waitFrom(logs[i], perLog);
      return flips.subarray(0, n);
    },
  };
}

/**
 * The running mean and its half-width at the given indices (0-based, increasing), computed
 * as `runningMean` computes them at every index.
 * @param {ArrayLike<number>} x
 * @param {ArrayLike<number>} at
 * @param {number} [z]
 * @returns {{mean: Float64Array, half: Float64Array}}
 */
export function runningMeanAt(x, at, z = Z95) {
  const mean = new Float64Array(at.length);
  const half = new Float64Array(at.length);
  let sum = 0;
  let squares = 0;
  let j = 0;
  for (let i = 0; i < x.length && j < at.length; i += 1) {
    const v = Number(x[i]);
    sum += v;
    squares += v * v;
    if (i !== at[j]) continue;
    const k = i + 1;
    const m = sum / k;
    mean[j] = m;
    if (k === 1) {
      half[j] = Infinity;
    } else {
      const variance = (Math.max(squares / k - m * m, 0) * k) / (k - 1);
      half[j] = z * Math.sqrt(variance / k);
    }
    j += 1;
  }
  if (j < at.length) throw new BoardError(`running mean at index ${at[j]} of ${x.length} values`);
  return { mean, half };
}

/**
 * The running mean of `x` and its confidence half-width (chutes_edu.running_mean): both as long
 * as `x`, the first half-width infinite.
 * @param {ArrayLike<number>} x
 * @param {number} [z]
 * @returns {{mean: Float64Array, half: Float64Array}}
 */
export function runningMean(x, z = Z95) {
  const at = new Float64Array(x.length);
  for (let i = 0; i < x.length; i += 1) at[i] = i;
  return runningMeanAt(x, at, z);
}

/**
 * Indices 0..n-1 for a log x-axis: all of the first `dense`, then about `spread` log-spaced
 * ones, and n - 1 (as the library's pictures do: on a log axis they look like all of them).
 * @param {number} n
 * @param {number} [dense]
 * @param {number} [spread]
 * @returns {Int32Array}
 */
export function logIndices(n, dense = 300, spread = 500) {
  if (n <= dense + spread) return Int32Array.from({ length: n }, (_, i) => i);
  const out = [];
  for (let i = 0; i < dense; i += 1) out.push(i);
  const ratio = Math.log((n - 1) / dense) / (spread - 1);
  for (let j = 0; j < spread; j += 1) {
    const i = Math.floor(dense * Math.exp(ratio * j));
    if (i > out[out.length - 1] && i < n - 1) out.push(i);
  }
  out.push(n - 1);
  return Int32Array.from(out);
}
