// @ts-check
/**
 * The board explorer's maths in the page (chutes_edu/widgets/board_explorer.py, Lessons 2, 4, 5,
 * 6 and 11): what the explorer shows beyond the board editor's `maths/board_math.js`, the same answers
 * as the Python library, computed with no kernel. No DOM: it runs in a browser and in Node 20.
 * Boards are `maths/board_math.js`'s JSON boards, checked by it (refused in the library's words).
 *
 * The maths (see `chutes_edu.markov` for the derivations):
 *
 * - Expected visits from the start (the library's `fundamental_matrix(board)[0]`): row 0 of
 *   N = (I - Q)^-1, Q the turn matrix over the squares 0..n-1, N_0j the expected number of turns
 *   begun on square j. With B_Q the one-roll matrix and F_on the bonus rolls after which the game
 *   goes on, I - Q = (I - F_on)^-1 (I - B_Q), so N = (I - B_Q)^-1 (I - F_on) and
 *   e_0 N = y (I - F_on) with y (I - B_Q) = e_0: one transposed solve with the LU factors of the
 *   expected-turns solve (`maths/board_math.js`'s `solveSteps`, banded), then
 *   x_t = y_t - p_f sum_{s: d(s) = t} y_s. A trap's entry is 0: no turn is begun there.
 * - Where the token is after k turns (the library's `square_distribution`): e_start P^k, P the
 *   turn matrix over all the squares 0..n, the final square and the traps absorbing (their
 *   entries collect the games ended there). One turn is v -> w (B_other + F_end) with
 *   w = v (I - F_on)^-1 (`bonusRolls`: the bonus rolls that keep the game going, summed exactly).
 * - The exact expected length from square 0 (the library's `expected_turns(board, exact=True)`):
 *   the roll-by-roll system (I - B_Q) t = c in integers, D (I - B_Q) t = D c with D the sum of
 *   integer face weights proportional to the probabilities (a float weight stands for the
 *   decimal it is written as, as in the library), solved by fraction-free (Bareiss) elimination
 *   (core/exact.js): every intermediate entry is a minor of the matrix, so the integers stay as
 *   short as the answer, and t_0 = y_0 / det with an exact back substitution; then reduced to
 *   lowest terms.
 * - The game-length picture's numbers (the library's `plot_distribution`): mean sum k p_k /
 *   sum p_k, median the first k with P(T <= k) >= half the total, mode the first k where p_k is
 *   largest, and the x-axis end just past the 99.9th percentile, `max(1.05 q + 1, 5)`, kept
 *   while the new end fits and fills half of it ("sticky", rounded up to 1, 1.2, 1.5, 2, 2.5, 3,
 *   4, 5, 6 or 8 times a power of ten); the picture's description in the library's words.
 * - The board picture's heat map (the explorer's three: expected turns to finish, expected visits
 *   from the start, where the token is after k turns with the finished games in the title) and
 *   its description, word for word the library's `draw_board`.
 *
 * @module board_explorer_math
 */
import {
  BoardError, bonusRolls, compileSteps, DENSE_MAX, DISTRIBUTION_WORK, expectedTurns, landing,
  onBoard, solveSteps, square, stepPlan,
} from "./board_math.js";
import { giveBack, transposedSolve } from "../core/solve.js";
import { bareissSteps, exactChances, ratio } from "../core/exact.js";
import { formatG, pyFixed } from "../core/format.js";
import { run } from "../core/steps.js";

/**
 * Expected visits from the start: entry j is the expected number of turns begun on square j in
 * a game from square 0, counting the start (the library's `fundamental_matrix(board)[0]`).
 * @param {object} board A JSON board (see maths/board_math.js).
 * @returns {Float64Array} length size; 0 on a trap.
 * @throws {BoardError} with the library's message for an invalid board.
 */
export function expectedVisits(board) {
  const model = run(compileSteps(board));
  const { n, onward, pf, end } = model;
  const { lu } = run(solveSteps(model));
  try {
    const y = new Float64Array(n);
    y[0] = end[0] ? 0 : 1;
    transposedSolve(lu, y);                       // y (I - B_Q) = e_0
    const visits = Float64Array.from(y);
    for (let s = 0; s < n; s += 1) if (onward[s] >= 0) visits[onward[s]] -= pf * y[s];
    for (let s = 0; s < n; s += 1) if (end[s]) visits[s] = 0;
    return visits;
  } finally {
    giveBack(lu.A);
  }
}

/**
 * Where the token is after `turns` turns from `start` (the library's `square_distribution`):
 * entry j the probability of being on square j; the final square's entry is the probability that
 * the game has ended there by then, a trap's that it has ended on the trap.
 * @param {object} board A JSON board.
 * @param {number} turns k >= 0.
 * @param {{start?: number}} [options] The start square (default 0).
 * @returns {Float64Array} length size + 1, summing to 1.
 * @throws {BoardError} in the library's words: an invalid board, a start off the board, turns
 *     that are not a whole number or negative, or too many turns on a big board.
 */
export function squareDistribution(board, turns, { start = 0 } = {}) {
  const model = run(compileSteps(board));
  const from = onBoard(model, start, "start");
  const k = square(turns, "turns");
  if (k < 0) throw new BoardError(`turns must be 0 or more, got ${k}`);
  const { n, end, rowStart, dest, moveChance, onward, bonusTo, pf } = model;
  if (n > DENSE_MAX && k * (n + 1) > DISTRIBUTION_WORK) {
    throw new BoardError(`${k} turns on a board of ${n} squares is too much work for sparse ` +
      `products (turns x squares > ${DISTRIBUTION_WORK.toExponential()}); ` +
      "the game is almost surely over long before: use turn_distribution or simulate");
  }
  const plan = stepPlan(model);
  const bonus = plan.flow.length > 0 || plan.cycles.length > 0;
  let v = new Float64Array(n + 1);
  let next = new Float64Array(n + 1);
  const w = new Float64Array(n + 1);
  v[from] = 1;
  for (let turn = 0; turn < k; turn += 1) {
    if (bonus) bonusRolls(v, w, onward, pf, plan.flow, plan.cycles);
    else w.set(v);
    next.fill(0);
    for (let s = 0; s <= n; s += 1) {
      const here = w[s];
      if (here === 0) continue;
      if (end[s]) { next[s] += here; continue; }
      for (let i = rowStart[s]; i < rowStart[s + 1]; i += 1) next[dest[i]] += here * moveChance[i];
      if (bonusTo[s] >= 0 && onward[s] < 0) next[bonusTo[s]] += here * pf;
    }
    [v, next] = [next, v];
  }
  return v;
}

/**
 * The exact expected length of a game from square 0 (the library's
 * `expected_turns(board, exact=True)[0]`), in lowest terms.
 * @param {object} board A JSON board.
 * @returns {{numerator: bigint, denominator: bigint}}
 * @throws {BoardError} with the library's message for an invalid board.
 */
export function exactExpectedTurns(board) {
  return run(exactExpectedSteps(board));
}

/**
 * `exactExpectedTurns` step by step: yields every slice of the elimination (core/exact.js's
 * `bareissSteps`), so that a page can run it a few milliseconds at a time.
 * @param {object} board
 * @returns {Generator<void, {numerator: bigint, denominator: bigint}, void>}
 */
export function* exactExpectedSteps(board) {
  const model = yield* compileSteps(board);
  const { n, end, jump, overshoot, bonus } = model;
  if (end[0]) return { numerator: 0n, denominator: 1n };
  const { weights, total: scale } = exactChances(/** @type {any} */ (board).die, model.probs.length);
  /** @type {bigint[][]} */
  const A = Array.from({ length: n }, () => new Array(n).fill(0n));
  const c = new Array(n).fill(0n);
  for (let s = 0; s < n; s += 1) {
    const row = A[s];
    row[s] += scale;
    if (end[s]) continue;
    c[s] = scale;
    for (let r = 1; r <= weights.length; r += 1) {
      const w = weights[r - 1];
      if (w === 0n) continue;
      const t = landing(n, overshoot, jump, s, r);
      if (!end[t]) row[t] -= w;
      if (r === bonus && !end[t]) c[s] -= w;              // D c_s = D (1 - p_f)
    }
  }
  // det * t is a vector of integers (core/exact.js's fraction-free elimination)
  const { X, det } = yield* bareissSteps(A, c);
  const { p, q } = ratio(X[0], det);
  return { numerator: p, denominator: q };
}

/** The smallest 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten that is >= x (the
 * library's `_nice_ceiling`). @param {number} x */
export function niceCeiling(x) {
  if (!Number.isFinite(x) || x <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(x));
  for (const step of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) {
    if (step * power >= x * (1 - 1e-12)) return step * power;
  }
  return 10 * power;
}

/** An axis end kept while `needed` fits and fills at least half of it (the library's
 * `_sticky`). @param {number | null} current @param {number} needed @param {boolean} sticky */
export function stickyEnd(current, needed, sticky) {
  if (sticky && current !== null && 0.5 * current <= needed && needed <= current) return current;
  return sticky ? niceCeiling(needed) : needed;
}

/** The first index where `cdf[i] >= value` (numpy's `searchsorted`, side "left"). */
function searchSorted(/** @type {ArrayLike<number>} */ cdf, /** @type {number} */ value) {
  let lo = 0;
  let hi = cdf.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cdf[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * @typedef {object} DistributionStats
 * @property {number} mean sum k p_k / sum p_k.
 * @property {number} median The first k with P(T <= k) >= half the total.
 * @property {number} mode The first k where p_k is largest.
 * @property {number} needed The x-axis end the data need, just past the 99.9th percentile.
 * @property {Float64Array} cdf P(T <= k).
 */

/**
 * The numbers of the game-length picture (the library's `plot_distribution`).
 * @param {ArrayLike<number>} pmf P(T = k), k = 0, 1, ...
 * @returns {DistributionStats}
 * @throws {BoardError} if the pmf is empty or not all finite and non-negative (the library's
 *     words).
 */
export function distributionStats(pmf) {
  const cdf = new Float64Array(pmf.length);
  let sum = 0;
  let moment = 0;
  let mode = 0;
  for (let k = 0; k < pmf.length; k += 1) {
    const p = pmf[k];
    if (!(p >= 0 && Number.isFinite(p))) sum = NaN;
    sum += p;
    moment += k * p;
    cdf[k] = sum;
    if (p > pmf[mode]) mode = k;
  }
  if (pmf.length === 0 || Number.isNaN(sum)) {
    throw new BoardError("pmf must be a non-empty array of probabilities");
  }
  const total = cdf[cdf.length - 1];
  return {
    mean: moment / total,
    median: searchSorted(cdf, 0.5 * total),
    mode,
    needed: Math.max(searchSorted(cdf, 0.999 * total) * 1.05 + 1, 5),
    cdf,
  };
}

/** "Title: sentence", or "Title? Sentence" (the library's `_titled`). */
function titled(/** @type {string} */ title, /** @type {string} */ sentence) {
  const upper = sentence.slice(0, 1).toUpperCase() + sentence.slice(1);
  if (!title) return upper;
  return "?!.".includes(title.trimEnd().slice(-1) || "x") ? `${title} ${upper}`
    : `${title}: ${sentence}`;
}

/**
 * The game-length picture's description, word for word the library's (`plot_distribution`
 * with the cumulative line, as the explorer draws it).
 * @param {DistributionStats} stats
 * @param {number} xmax The x-axis end shown.
 * @param {string} title
 * @returns {string}
 */
export function describeDistribution({ mean, median, mode }, xmax, title) {
  const text = titled(title || "Distribution of the game length T",
    "bars show the probability P(T = k) that a game takes k turns") +
    ", the dash-dotted line the cumulative probability P(T ≤ k)";
  return `${text}, for k up to ${pyFixed(xmax, 0)}; mean ${pyFixed(mean, 2)} turns (solid line), ` +
    `median ${median} turns (dashed), mode ${mode} turns (dotted).`;
}

/** The library's `_fmt`: 3 significant digits, or a whole number from 1000 on. */
function fmt(/** @type {number} */ x) {
  if (!Number.isFinite(x)) return "";
  return Math.abs(x) < 1000 ? formatG(x, 3) : pyFixed(x, 0);
}

/** "1 ladder", "3 ladders", "no ladders" (the library's `_count`). */
function count(/** @type {number} */ n, /** @type {string} */ thing) {
  return n === 1 ? `${n} ${thing}` : `${n || "no"} ${thing}s`;
}

/** " (solid blue arrows)" for n jumps drawn that way, nothing for none (`_kind`). */
function kind(/** @type {number} */ n, /** @type {string} */ style) {
  return n === 0 ? "" : ` (${style} arrow${n === 1 ? "" : "s"})`;
}

/** "square 5", "squares 5 and 8", "squares 5, 8 and 9" (`_squares`). */
function squaresWords(/** @type {number[]} */ squares) {
  if (squares.length === 1) return `square ${squares[0]}`;
  return `squares ${squares.slice(0, -1).join(", ")} and ${squares[squares.length - 1]}`;
}

/** What the explorer's heat map can show, with its colour bar's label. */
export const HEAT_LABELS = Object.freeze({
  turns: "expected turns to finish (turns)",
  visits: "expected visits from the start (turns begun there)",
  after: "probability of being on the square after k turns",
});

/**
 * The explorer's heat map of a board: the values per square 0..size (NaN for none), the colour
 * bar's label and the picture's title, as `BoardExplorer._draw_board` makes them.
 *
 * - "turns": the expected turns to finish from each square;
 * - "visits": the expected visits from the start (square `size` has none);
 * - "after": where the token is after `turns` turns; the final square, which collects the
 *   finished games and would swamp the colours, has none, and its probability goes in the title.
 * @param {object} board A JSON board.
 * @param {"turns" | "visits" | "after"} heat
 * @param {{turns?: number, title?: string}} [options] k for "after" (default 10); the title
 *     before what "after" adds (the board's name, or the preset's name and " (edited)").
 * @returns {{values: Float64Array, label: string, title: string}}
 * @throws {BoardError} for an invalid board or k (the library's words), or an unknown heat map.
 */
export function heatMap(board, heat, { turns = 10, title = "" } = {}) {
  if (heat === "turns") return { values: expectedTurns(board), label: HEAT_LABELS.turns, title };
  if (heat === "visits") {
    const visits = expectedVisits(board);
    const values = new Float64Array(visits.length + 1);
    values.set(visits);
    values[visits.length] = NaN;
    return { values, label: HEAT_LABELS.visits, title };
  }
  if (heat === "after") {
    const values = squareDistribution(board, turns);
    const n = values.length - 1;
    const finished = values[n];
    values[n] = NaN;
    return { values, label: HEAT_LABELS.after, title: `${title}\nafter ${turns} ` +
      `turn${turns === 1 ? "" : "s"}: ${pyFixed(finished, 3)} finished (square ${n}, grey)` };
  }
  throw new BoardError(`the heat map shows "turns", "visits" or "after", not ${String(heat)}`);
}

/**
 * The board picture's description, word for word the library's (`draw_board`'s text
 * alternative, as the explorer draws it: no tokens).
 * @param {{size: number, jumps?: number[][], traps?: number[]}} board A JSON board.
 * @param {{name?: string, title?: string, label?: string, values?: ArrayLike<number> | null}}
 *     shown The board's name ("" for none), the picture's title, the colour bar's label and the
 *     values per square 0..size.
 * @returns {string}
 */
export function describeBoard({ size, jumps = [], traps = [] },
  { name = "", title = "", label = "", values = null } = {}) {
  const what = name ? `the ${size}-square board '${name}'` : `a ${size}-square Chutes and Ladders board`;
  const shownTitle = title.replace(/\n/g, "; ");
  let text = titled(shownTitle === name ? "" : shownTitle, what);
  const ladders = jumps.filter(([a, b]) => b > a).length;
  const chutes = jumps.length - ladders;
  text += ` with ${count(ladders, "ladder")}${kind(ladders, "solid blue")} and ` +
    `${count(chutes, "chute")}${kind(chutes, "dashed orange")}`;
  if (traps.length) {
    text += `, and ${count(traps.length, "trap")} where the game ends on ` +
      `${squaresWords([...traps].sort((a, b) => a - b))} (dark red with white crosses)`;
  }
  if (values !== null) {
    const finite = Array.from(values).filter(Number.isFinite);
    if (finite.length) {
      text += `; colour shows ${label || "a value per square"}, from ` +
        `${fmt(Math.min(...finite))} to ${fmt(Math.max(...finite))}`;
      if (Number.isFinite(values[0])) text += `, ${fmt(values[0])} at the start`;
    }
    let grey = 0;
    for (let s = 1; s < values.length; s += 1) if (!Number.isFinite(values[s])) grey += 1;
    if (grey) text += ` (grey: ${count(grey, "square")} without a value)`;
  }
  return `${text}.`;
}
