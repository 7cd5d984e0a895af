// @ts-check
/**
 * Design a board to a goal, in the page: the library's greedy and local search
 * (`chutes_edu.design.design_board` with method "greedy" or "local search", no seed), held equal
 * to it by tests/js/design_math.test.mjs. The exhaustive search stays in the library.
 *
 * The maths (the library's module docstrings of `chutes_edu.design` and `chutes_edu.moments`):
 *
 * - A design adds a set S of at most k candidate jumps a -> b to a board; the board of S must be
 *   chain-free and finishable. A goal scores a board by (penalty, objective), smallest first:
 *   target length L: (0, |E T - L|); shortest game: (0, E T); longest game: (0, -E T); smallest
 *   spread for a mean m +- tol: (max(|E T - m| - tol, 0), Var T); fairest race of s seats:
 *   (0, |P(seat 1 wins) - 1/s|).
 * - Every one-jump extension of a board is priced from one inverse N = (I - B_Q)^-1 by
 *   Sherman-Morrison: with Y = N - I, t = N c, D = 1 + Y_aa - Y_ba,
 *   E T' = t_0 - Y_0a (t_a - t_b) / D (b where play goes on), and the second moment by the same
 *   algebra with Z = N F, H = (Z - N) Y + Z, W = (N - Z) Z, g = N (t - F t). A denominator below
 *   1e-9 (1 + Y_aa) is settled by a graph search (can the new board be finished?).
 * - A race has no rank-one update: the 24 most spread-out candidates (by the rank-one variance)
 *   are solved in full with maths/race_math.js's `winProbabilities`.
 * - Greedy adds the best single jump until none improves; local search then takes the best
 *   improving add, drop or swap of one jump, at most 30 rounds. Finally, jumps that no game from
 *   square 0 ever lands on are dropped (the same game, the same score).
 * - Near-ties: a float price is trusted to 1e-9 relative; designs whose (penalty, objective)
 *   intervals overlap are decided by exact rational solves (BigInt, fraction-free elimination of
 *   (I - B_Q) t = c and (I - B_Q) g = t - F t, the same numbers as the library's flint solves),
 *   then by the tie rule: no useless jump, fewer jumps, the first in sorted order. A race has no
 *   exact solver: its near-ties go by the tie rule, then the float price.
 *
 * Cost: each pricing is one O(n^3) inverse (and, for a spread or a race, a few O(n^3) products);
 * `designSteps` is a generator that yields every slice of about 25,000 operations so that a page
 * can run it a few milliseconds at a time.
 *
 * @module design_math
 */
import { BoardError, compileSteps, landing, sentence } from "./board_math.js";
import { formatG, pyFixed, pyFloat } from "../core/format.js";
import { said } from "../core/i18n.js";
import { absR, bareissSteps, cmp, decimal, exactChances, ratio, sub } from "../core/exact.js";
import { inverseSteps, productSteps, times } from "../core/solve.js";
import { run, SLICE } from "../core/steps.js";
import { winProbabilities } from "./race_math.js";

/** The searches the page runs (the library's `design_board` methods without "exhaustive"). */
export const PAGE_METHODS = Object.freeze(["greedy", "local search"]);
/** The library's methods, for its refusal. */
const METHODS = ["auto", "exhaustive", "greedy", "local search"];
/** The library's MAX_ROUNDS, SCREEN and its relative thresholds. */
export const MAX_ROUNDS = 30;
export const SCREEN = 24;
const TIE = 1e-9;
const MAX_TIES = 32;
const SUSPECT = 1e-9;

/**
 * @typedef {{kind: "target", turns: number} | {kind: "short"} | {kind: "long"} |
 *   {kind: "spread", mean: number | null, tolerance: number, exactMean?: Ratio} |
 *   {kind: "race", seats: number}} Goal  (a spread's `exactMean`: the board's own mean solved
 *   exactly, when the goal took it from the board)
 * @typedef {[number, number]} Jump
 * @typedef {{action: string, added: Jump[], value: number, mean: number}} Step
 * @typedef {{added: Jump[], value: number, mean: number}} Option
 */
/** @typedef {import("../core/exact.js").Ratio} Ratio  q > 0, in lowest terms */

// --------------------------------------------------------------------------- the goals
/**
 * A goal checked as the library's goal classes check it (their ValueError messages).
 * @param {any} goal
 * @returns {Goal}
 */
export function checkGoal(goal) {
  const kind = goal?.kind;
  const number = (/** @type {unknown} */ x, /** @type {string} */ what) => {
    if (typeof x !== "number") throw new BoardError(`${what} must be a number, not ${x}`);
    if (!Number.isFinite(x)) throw new BoardError(`${what} must be finite, not ${pyFloat(x)}`);
    return x;
  };
  const words = (/** @type {number} */ x) => (Number.isInteger(x) ? String(x) : pyFloat(x));
  if (kind === "target") {
    if (number(goal.turns, "target length") <= 0) {
      throw new BoardError(sentence(said("the target length must be positive, got {value} turns"),
        { value: words(goal.turns) }));
    }
    return { kind, turns: goal.turns };
  }
  if (kind === "short" || kind === "long") return { kind };
  if (kind === "spread") {
    const mean = goal.mean ?? null;
    if (mean !== null && number(mean, "mean") <= 0) {
      throw new BoardError(sentence(said("the mean must be positive, got {value} turns"),
        { value: words(mean) }));
    }
    const tolerance = goal.tolerance ?? 1;
    if (number(tolerance, "tolerance") < 0) {
      throw new BoardError(sentence(said("the tolerance must be 0 or more, got {value} turns"),
        { value: words(tolerance) }));
    }
    return { kind, mean, tolerance };
  }
  if (kind === "race") {
    const seats = goal.seats ?? 2;
    // said back by the library's "{what} must be a whole number, not {value}"
    if (!Number.isInteger(seats)) throw new BoardError(`seats must be a whole number, not ${words(seats)}`);
    if (seats < 2 || seats > 6) {
      throw new BoardError(sentence(said("a race needs 2 to 6 seats, got {value}"), { value: seats }));
    }
    return { kind, seats };
  }
  throw new BoardError("goal must be TargetLength, ShortestGame, LongestGame, SmallestSpread " +
    `or FairestRace, not ${JSON.stringify(goal)}`);
}

/** What a goal's value is (the library's `Goal.quantity`). @param {Goal} goal */
export function quantity(goal) {
  return goal.kind === "spread" ? "variance (turns²)"
    : goal.kind === "race" ? "first seat's edge" : "expected turns";
}

/** The library's `Goal.describe()`. @param {Goal} goal */
export function describeGoal(goal) {
  const g = (/** @type {number} */ x) => formatG(x);
  if (goal.kind === "target") return `an expected game of ${g(goal.turns)} turns`;
  if (goal.kind === "short") return "the shortest expected game";
  if (goal.kind === "long") return "the longest expected game";
  if (goal.kind === "spread") {
    const where = goal.mean === null ? "the board's own mean" : `a mean of ${g(goal.mean)}`;
    return `the smallest variance for ${where} ± ${g(goal.tolerance)} turns`;
  }
  return `the fairest race of ${goal.seats} players`;
}

/**
 * (penalty, objective) of a float price (the library's `Goal.score`).
 * @param {Goal} goal @param {number} value @param {number} mean
 * @returns {[number, number]}
 */
function score(goal, value, mean) {
  if (goal.kind === "target") return [0, Math.abs(value - goal.turns)];
  if (goal.kind === "short") return [0, value];
  if (goal.kind === "long") return [0, -value];
  if (goal.kind === "spread") {
    return [Math.max(Math.abs(mean - /** @type {number} */ (goal.mean)) - goal.tolerance, 0), value];
  }
  return [0, Math.abs(value)];
}

/**
 * (penalty low, penalty high, objective low, objective high) that the exact score of a design
 * priced (value, mean) lies in (the library's `_Search.bounds`).
 * @param {Goal} goal @param {number} value @param {number} mean
 */
function bounds(goal, value, mean) {
  if (goal.kind === "target" || goal.kind === "short" || goal.kind === "long") {
    const objective = goal.kind === "target" ? Math.abs(mean - goal.turns)
      : goal.kind === "short" ? mean : -mean;
    const err = TIE * Math.max(1, Math.abs(mean));
    return [0, 0, objective - err, objective + err];
  }
  if (goal.kind === "spread") {
    const middle = /** @type {number} */ (goal.mean);
    const err = TIE * Math.max(Math.abs(mean), Math.max(1, Math.abs(middle), goal.tolerance));
    const miss = Math.abs(mean - middle) - goal.tolerance;
    const spread = TIE * Math.max(1, Math.abs(value) + mean ** 2);
    return [Math.max(miss - err, 0), Math.max(miss + err, 0), value - spread, value + spread];
  }
  const objective = Math.abs(value);
  const err = TIE * Math.max(1, objective);
  return [0, 0, objective - err, objective + err];
}

/**
 * Which of these bounds may be the best (the library's `maybe` with the `levels` of them all).
 * @param {number[][]} all
 */
function contenders(all) {
  let bestPenalty = Infinity;
  let bestZero = Infinity;
  for (const [, pHi, , oHi] of all) {
    bestPenalty = Math.min(bestPenalty, pHi);
    if (pHi === 0) bestZero = Math.min(bestZero, oHi);
  }
  return all.map(([pLo, , oLo]) => pLo <= bestPenalty
    && (bestZero === Infinity || (pLo <= 0 && oLo <= bestZero)));
}

/**
 * The exact (penalty, objective) from exact (value, mean) (the library's `exact_score`).
 * @param {Goal} goal @param {Ratio} value @param {Ratio} mean
 * @returns {[Ratio, Ratio]}
 */
function exactScore(goal, value, mean) {
  const zero = { p: 0n, q: 1n };
  if (goal.kind === "target") return [zero, absR(sub(value, decimal(goal.turns)))];
  if (goal.kind === "short") return [zero, value];
  if (goal.kind === "long") return [zero, { p: -value.p, q: value.q }];
  return [goal.kind === "spread" ? bandMiss(mean, goal) : zero, value];
}

/**
 * How far an exact mean lies outside a spread goal's band, exactly: max(|mean - m| - tol, 0),
 * with m the board's own mean solved exactly (`exactMean`) or the decimal typed, and tol the
 * decimal typed (the library's `SmallestSpread.score` on Fractions). On the band's edge the miss
 * is exactly 0, on every machine.
 * @param {Ratio} mean @param {{mean: number | null, tolerance: number, exactMean?: Ratio}} goal
 * @returns {Ratio}
 */
export function bandMiss(mean, goal) {
  const middle = goal.exactMean ?? decimal(/** @type {number} */ (goal.mean));
  const miss = sub(absR(sub(mean, middle)), decimal(goal.tolerance));
  return miss.p > 0n ? miss : { p: 0n, q: 1n };
}


// --------------------------------------------------------------------------- the board's rules
/**
 * @typedef {object} Rules
 * @property {any} board The starting board in JSON form.
 * @property {number} n
 * @property {string} overshoot
 * @property {number[]} faces The faces with weight (1-based).
 * @property {Float64Array} probs probs[r - 1] for face r.
 * @property {bigint[]} weights Face r has the exact chance weights[r - 1] / total.
 * @property {bigint} total
 * @property {number | null} bonus
 * @property {Uint8Array} ends 1 on the absorbing squares.
 * @property {Int32Array} jump The starting board's jumps: jump[s] = where a move onto s goes.
 * @property {Map<number, number>} jumps The starting board's jumps.
 */

/** The starting board checked and read. @param {any} board @returns {Rules} */
function rulesOf(board) {
  const model = run(compileSteps(board));
  const { n, overshoot, probs, positive, bonus, end, jump } = model;
  const faces = [];
  for (let r = 1; r <= probs.length; r += 1) if (positive[r - 1]) faces.push(r);
  const jumps = new Map();
  for (let s = 0; s <= n; s += 1) if (jump[s] !== s) jumps.set(s, jump[s]);
  const floats = Float64Array.from(probs);
  return { board, n, overshoot, faces, probs: floats, ...exactChances(board.die, probs.length),
    bonus, ends: end, jump, jumps };
}

/**
 * The roll table of the starting board with `added` (chain-free: not checked):
 * table[s * faces + i] is where face faces[i] leads from s (an absorbing square keeps its token).
 * @param {Rules} rules @param {Jump[]} added
 */
function tableOf(rules, added) {
  const { n, overshoot, faces, ends } = rules;
  const jump = Int32Array.from(rules.jump);
  for (const [a, b] of added) jump[a] = b;
  const k = faces.length;
  const table = new Int32Array((n + 1) * k);
  for (let s = 0; s <= n; s += 1) {
    for (let i = 0; i < k; i += 1) table[s * k + i] = ends[s] ? s : landing(n, overshoot, jump, s, faces[i]);
  }
  return table;
}

/** ok[s]: an absorbing square can be reached from s (the library's `_can_finish`). */
function canFinish(/** @type {Rules} */ rules, /** @type {Int32Array} */ table) {
  const { n, ends, faces } = rules;
  const k = faces.length;
  const ok = Uint8Array.from(ends);
  for (let changed = true; changed;) {
    changed = false;
    for (let s = 0; s <= n; s += 1) {
      if (ok[s]) continue;
      for (let i = 0; i < k; i += 1) {
        if (ok[table[s * k + i]]) { ok[s] = 1; changed = true; break; }
      }
    }
  }
  return ok;
}

/** Can the game be finished from every square? @param {Rules} rules @param {Int32Array} table */
const finishable = (rules, table) => canFinish(rules, table).every((x) => x === 1);

// --------------------------------------------------------------------------- linear algebra
/**
 * (B_Q, F, c) of a roll table (the library's `_system`): the one-roll matrix over the squares
 * 0..n-1 (absorbing rows and columns zero), the bonus face's moves that keep the game going
 * (null without a bonus face), and the turns each roll ends.
 * @param {Rules} rules @param {Int32Array} table
 */
function systemOf(rules, table) {
  const { n, faces, probs, ends, bonus } = rules;
  const k = faces.length;
  const BQ = new Float64Array(n * n);
  const costs = new Float64Array(n);
  const F = bonus === null ? null : new Float64Array(n * n);
  for (let s = 0; s < n; s += 1) {
    if (ends[s]) continue;
    costs[s] = 1;
    for (let i = 0; i < k; i += 1) {
      const to = table[s * k + i];
      if (!ends[to]) BQ[s * n + to] += probs[faces[i] - 1];
    }
    if (F !== null && bonus !== null) {
      const to = table[s * k + faces.indexOf(bonus)];
      if (!ends[to]) {
        F[s * n + to] = probs[bonus - 1];
        costs[s] = 1 - probs[bonus - 1];
      }
    }
  }
  return { BQ, F, costs };
}

/**
 * @typedef {object} Parts
 * @property {Float64Array} N @property {Float64Array} t @property {Float64Array | null} Z
 * @property {Float64Array} [Y] @property {Float64Array} [g] @property {Float64Array} [H]
 * @property {Float64Array} [W]
 */

/**
 * N = (I - B_Q)^-1 of a roll table, t = N c and Z = N F; with `moments` also Y = N - I,
 * g = N (t - F t), H = (Z - N) Y + Z and W = (N - Z) Z (the library's `_parts`).
 * @param {Rules} rules @param {Int32Array} table @param {boolean} moments
 * @returns {Generator<void, Parts, void>}
 */
function* partsSteps(rules, table, moments) {
  const n = rules.n;
  const { BQ, F, costs } = systemOf(rules, table);
  const N = yield* inverseSteps(BQ, n);
  const t = times(N, costs, n);
  const Z = F === null ? null : yield* productSteps(N, F, n);
  /** @type {Parts} */
  const parts = { N, t, Z };
  if (!moments) return parts;
  const Y = Float64Array.from(N);
  for (let i = 0; i < n; i += 1) Y[i * n + i] -= 1;
  const Zm = Z ?? new Float64Array(n * n);
  const Ft = F === null ? new Float64Array(n) : times(F, t, n);
  const g = times(N, t.map((x, i) => x - Ft[i]), n);
  const H = yield* productSteps(Zm.map((z, i) => z - N[i]), Y, n);
  for (let i = 0; i < n * n; i += 1) H[i] += Zm[i];
  const W = F === null ? Zm : yield* productSteps(N.map((x, i) => x - Zm[i]), Zm, n);
  return { ...parts, Z: Zm, Y, g, H, W };
}

/**
 * (value, mean) of a finishable roll table by full float solves (not a race).
 * @param {Rules} rules @param {Int32Array} table @param {boolean} moments
 * @returns {Generator<void, [number, number], void>}
 */
function* solveSteps(rules, table, moments) {
  const parts = yield* partsSteps(rules, table, moments);
  const t0 = parts.t[0];
  if (!moments) return [t0, t0];
  const g0 = /** @type {Float64Array} */ (parts.g)[0];
  return [2 * g0 - t0 - t0 * t0, t0];
}

/**
 * The exact (E T, Var T) from square 0 of a finishable roll table: (I - B_Q) t = c and
 * (I - B_Q) g = t - F t over the integers (everything times the dice's common total), by
 * core/exact.js's `bareissSteps`; E T^2 = 2 g_0 - t_0.
 * @param {Rules} rules @param {Int32Array} table @param {boolean} variance
 * @returns {Generator<void, {mean: Ratio, variance: Ratio | null}, void>}
 */
function* exactMomentsSteps(rules, table, variance) {
  const { n, faces, weights, total, ends, bonus } = rules;
  const k = faces.length;
  const fb = bonus === null ? 0n : weights[bonus - 1];
  /** @type {number[]} */
  const onward = new Array(n).fill(-1);
  const matrix = () => {
    const M = Array.from({ length: n }, () => new Array(n).fill(0n));
    for (let s = 0; s < n; s += 1) {
      M[s][s] = total;
      if (ends[s]) continue;
      for (let i = 0; i < k; i += 1) {
        const to = table[s * k + i];
        if (!ends[to]) M[s][to] -= weights[faces[i] - 1];
      }
      if (bonus !== null) {
        const to = table[s * k + faces.indexOf(bonus)];
        if (!ends[to]) onward[s] = to;
      }
    }
    return M;
  };
  const costs = onward.map(() => 0n);
  const M = matrix();
  for (let s = 0; s < n; s += 1) if (!ends[s]) costs[s] = onward[s] >= 0 ? total - fb : total;
  const { X, det } = yield* bareissSteps(M, costs);
  const mean = ratio(X[0], det);
  if (!variance) return { mean, variance: null };
  const rhs = X.map((x, s) => total * x - (onward[s] >= 0 ? fb * X[onward[s]] : 0n));
  const second = yield* bareissSteps(matrix(), rhs);          // g = X2 / det^2
  const g0 = ratio(second.X[0], det * second.det);
  const m0 = sub(ratio(2n * g0.p, g0.q), mean);
  return { mean, variance: sub(m0, ratio(mean.p * mean.p, mean.q * mean.q)) };
}

// --------------------------------------------------------------------------- every added jump
/**
 * E T' (and E T'^2 with `moments`) from square 0 after each jump a -> b added to the board of
 * `jumps` (its own and the added ones), by rank-one updates of its N (the library's
 * `jump_effects` and `_moment_effects`); NaN where the jump is refused or not `allowed`.
 * A denominator near 0 is settled by a graph search.
 * @param {Rules} rules @param {Jump[]} added @param {Uint8Array} allowed (n+1)^2, row a
 * @param {boolean} moments
 * @returns {Generator<void, {mean: Float64Array, second: Float64Array | null}, void>}
 */
function* effectsSteps(rules, added, allowed, moments) {
  const { n, ends } = rules;
  const table = tableOf(rules, added);
  const P = yield* partsSteps(rules, table, moments);
  const { N, t } = P;
  const Z = P.Z;
  const jumps = new Map([...rules.jumps, ...added]);
  const sources = new Set(jumps.keys());
  const banned = new Set([...jumps.keys(), ...jumps.values()]);
  const mean = new Float64Array((n + 1) * (n + 1)).fill(NaN);
  const second = moments ? new Float64Array((n + 1) * (n + 1)).fill(NaN) : null;
  let work = 0;
  for (let a = 1; a < n; a += 1) {
    if (banned.has(a) || ends[a]) continue;
    const ya = N[a * n + a] - 1;
    const y0a = N[a];                                 // Y_0a = N_0a (a is never 0)
    const z0a = Z === null ? 0 : Z[a];
    const endMean = t[0] + z0a - y0a * (t[a] + (Z === null ? 0 : Z[a * n + a])) / (1 + ya);
    const endSecond = moments ? secondToEnd(P, n, a) : NaN;
    for (let b = 0; b <= n; b += 1) {
      const cell = a * (n + 1) + b;
      if (b === a || sources.has(b) || !allowed[cell]) continue;
      if (ends[b]) {
        mean[cell] = endMean;
        if (second) second[cell] = endSecond;
        continue;
      }
      const D = 1 + ya - (N[b * n + a] - (a === b ? 1 : 0));
      if (Math.abs(D) < SUSPECT * Math.max(1, ya + 1)
        && !finishable(rules, tableOf(rules, [...added, [a, b]]))) continue;
      const delta = (t[a] - t[b]) / D;
      mean[cell] = t[0] - y0a * delta;
      if (second) second[cell] = secondInside(P, n, a, b, D, delta, mean[cell]);
    }
    work += 4 * n;
    if (work >= SLICE) { work = 0; yield; }
  }
  return { mean, second };
}

/** E T'^2 after a -> b with b where play goes on (the library's `_moment_effects`).
 * @param {Parts} P @param {number} n @param {number} a @param {number} b @param {number} D
 * @param {number} delta @param {number} t0 */
function secondInside(P, n, a, b, D, delta, t0) {
  const Y = /** @type {Float64Array} */ (P.Y);
  const H = /** @type {Float64Array} */ (P.H);
  const g = /** @type {Float64Array} */ (P.g);
  const x0 = g[0] + delta * H[a];
  const xab = g[a] - g[b] + delta * (H[a * n + a] - H[b * n + a]);
  return 2 * (x0 - Y[a] * xab / D) - t0;
}

/** E T'^2 after a -> an absorbing square (the library's `_moment_effects`).
 * @param {Parts} P @param {number} n @param {number} a */
function secondToEnd(P, n, a) {
  const Y = /** @type {Float64Array} */ (P.Y);
  const H = /** @type {Float64Array} */ (P.H);
  const W = /** @type {Float64Array} */ (P.W);
  const Z = /** @type {Float64Array} */ (P.Z);
  const g = /** @type {Float64Array} */ (P.g);
  const { t } = P;
  const ya = Y[a * n + a];
  const sa = (t[a] + Z[a * n + a]) / (1 + ya);
  const t0 = t[0] + Z[a] - Y[a] * sa;
  const x0 = g[0] + W[a] + H[a] * sa;
  const xa = g[a] + W[a * n + a] + H[a * n + a] * sa;
  return 2 * (x0 - Y[a] * xa / (1 + ya)) - t0;
}

// --------------------------------------------------------------------------- one search
/**
 * @typedef {object} Search
 * @property {Rules} rules
 * @property {Goal} goal
 * @property {Uint8Array} pool The candidates: (n+1)^2, row a.
 * @property {number} priced How many designs were priced.
 * @property {Map<string, [Ratio, Ratio]>} exact Exact scores of the sets decided so far.
 */

/** The board of `added` in JSON form. @param {Rules} rules @param {Jump[]} added */
function boardOf(rules, added) {
  const jumps = new Map([...rules.jumps, ...added]);
  return { ...rules.board, jumps: [...jumps].sort((x, y) => x[0] - y[0]) };
}

/** (value, mean) of one valid set by full float solves; counts a pricing.
 * @param {Search} S @param {Jump[]} added
 * @returns {Generator<void, [number, number], void>} */
function* evaluateSteps(S, added) {
  S.priced += 1;
  return yield* valueSteps(S, added);
}

/** (value, mean) of one valid set by full float solves (the library's `goal.value`).
 * @param {Search} S @param {Jump[]} added
 * @returns {Generator<void, [number, number], void>} */
function* valueSteps(S, added) {
  const { goal, rules } = S;
  const table = tableOf(rules, added);
  if (goal.kind !== "race") return yield* solveSteps(rules, table, goal.kind === "spread");
  const [, mean] = yield* solveSteps(rules, table, false);
  yield;
  const wins = winProbabilities(boardOf(rules, added), new Array(goal.seats).fill(0));
  return [wins[0] - 1 / goal.seats, mean];
}

/** Priced arrays (value, mean) of every allowed jump added to `added` (the library's `price`).
 * @param {Search} S @param {Jump[]} added @param {Uint8Array} allowed
 * @returns {Generator<void, [Float64Array, Float64Array], void>} */
function* priceSteps(S, added, allowed) {
  const kind = S.goal.kind;
  const { mean, second } = yield* effectsSteps(S.rules, added, allowed, kind !== "target"
    && kind !== "short" && kind !== "long");
  const ok = [];
  for (let i = 0; i < mean.length; i += 1) if (Number.isFinite(mean[i])) ok.push(i);
  if (second === null || !ok.length) {
    S.priced += ok.length;
    return [mean, mean];
  }
  const variance = mean.map((m, i) => second[i] - m * m);
  if (kind === "spread") {
    S.priced += ok.length;
    return [variance, mean];
  }
  // a race: rank by spread, solve the SCREEN most spread-out in full
  const order = ok.slice().sort((i, j) => variance[j] - variance[i] || i - j).slice(0, SCREEN);
  const value = new Float64Array(mean.length).fill(NaN);
  const means = new Float64Array(mean.length).fill(NaN);
  const size = S.rules.n + 1;
  for (const cell of order) {
    [value[cell], means[cell]] = yield* evaluateSteps(S, [...added,
      [Math.floor(cell / size), cell % size]]);
  }
  return [value, means];
}

/** The key a set is cached by. @param {Jump[]} jumps */
const keyOf = (jumps) => sorted(jumps).map(([a, b]) => `${a}-${b}`).join(",");

/** Jumps sorted as Python sorts tuples. @param {Jump[]} jumps @returns {Jump[]} */
function sorted(jumps) {
  return jumps.slice().sort((x, y) => x[0] - y[0] || x[1] - y[1]);
}

/** Python's comparison of two sorted lists of jumps. @param {Jump[]} x @param {Jump[]} y */
function compareJumps(x, y) {
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    const d = x[i][0] - y[i][0] || x[i][1] - y[i][1];
    if (d) return d;
  }
  return x.length - y.length;
}

/** Python's comparison of two tuples of numbers. @param {number[]} x @param {number[]} y */
function compareNumbers(x, y) {
  for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

/** The exact (penalty, objective) of a set (not a race). @param {Search} S @param {Jump[]} added
 * @returns {Generator<void, [Ratio, Ratio], void>} */
function* exactKeySteps(S, added) {
  const key = keyOf(added);
  let known = S.exact.get(key);
  if (!known) {
    const spread = S.goal.kind === "spread";
    const { mean, variance } = yield* exactMomentsSteps(S.rules, tableOf(S.rules, added), spread);
    known = exactScore(S.goal, spread ? /** @type {Ratio} */ (variance) : mean, mean);
    S.exact.set(key, known);
  }
  return known;
}

/** @param {[Ratio, Ratio]} x @param {[Ratio, Ratio]} y */
const compareExact = (x, y) => cmp(x[0], y[0]) || cmp(x[1], y[1]);

/** Is `fresh` better than `old`? Near-ties decided exactly (a race counts them as no better).
 * @param {Search} S @param {Option} fresh @param {Option} old
 * @returns {Generator<void, boolean, void>} */
function* improvesSteps(S, fresh, old) {
  const [npLo, npHi, noLo, noHi] = bounds(S.goal, fresh.value, fresh.mean);
  const [opLo, opHi, ooLo, ooHi] = bounds(S.goal, old.value, old.mean);
  if (npHi < opLo) return true;
  if (npLo > opHi) return false;
  if (npHi === 0 && opHi === 0) {
    if (noHi < ooLo) return true;
    if (noLo > ooHi) return false;
  }
  if (S.goal.kind === "race") return false;
  return compareExact(yield* exactKeySteps(S, fresh.added), yield* exactKeySteps(S, old.added)) < 0;
}

/**
 * The best of `options` and whether every near-tie was decided exactly (the library's
 * `choose`): the contenders by exact score (at most MAX_TIES), then no useless jump, fewer
 * jumps, sorted order; a race by the tie rule, then its float price.
 * @param {Search} S @param {Option[]} options
 * @returns {Generator<void, {index: number, decided: boolean}, void>}
 */
function* chooseSteps(S, options) {
  if (options.length === 1) return { index: 0, decided: true };
  const keep = contenders(options.map((o) => bounds(S.goal, o.value, o.mean)));
  const key = (/** @type {Option} */ o) => score(S.goal, o.value, o.mean);
  const ties = options.map((_, i) => i).filter((i) => keep[i]).sort((i, j) =>
    compareNumbers(key(options[i]), key(options[j]))
    || options[i].added.length - options[j].added.length
    || compareJumps(sorted(options[i].added), sorted(options[j].added)));
  const useless = (/** @type {number} */ i) => (uselessJumps(S.rules, options[i].added).length ? 1 : 0);
  const rest = (/** @type {number} */ i, /** @type {number} */ j) =>
    options[i].added.length - options[j].added.length
    || compareJumps(sorted(options[i].added), sorted(options[j].added));
  if (S.goal.kind === "race") {
    const best = minimum(ties, (i, j) => useless(i) - useless(j)
      || compareNumbers(key(options[i]), key(options[j])) || rest(i, j));
    return { index: best, decided: true };
  }
  const decided = ties.slice(0, MAX_TIES);
  /** @type {Map<number, [Ratio, Ratio]>} */
  const exact = new Map();
  for (const i of decided) exact.set(i, yield* exactKeySteps(S, options[i].added));
  const best = minimum(decided, (i, j) => compareExact(/** @type {[Ratio, Ratio]} */ (exact.get(i)),
    /** @type {[Ratio, Ratio]} */ (exact.get(j))) || useless(i) - useless(j) || rest(i, j));
  return { index: best, decided: ties.length <= MAX_TIES };
}

/** The first smallest item (Python's `min`). @param {number[]} items
 * @param {(i: number, j: number) => number} compare */
function minimum(items, compare) {
  let best = items[0];
  for (const i of items.slice(1)) if (compare(i, best) < 0) best = i;
  return best;
}

// --------------------------------------------------------------------------- useless jumps
/** landed[s]: some move of a game from square 0 ends on s before any jump (the library's
 * `landed`). @param {Rules} rules @param {Int32Array} table */
function landed(rules, table) {
  const { n, faces, ends, overshoot } = rules;
  const k = faces.length;
  const seen = new Uint8Array(n + 1);
  seen[0] = 1;
  let frontier = [0];
  while (frontier.length) {
    const next = [];
    for (const s of frontier) {
      for (let i = 0; i < k; i += 1) {
        const to = table[s * k + i];
        if (!seen[to]) { seen[to] = 1; if (!ends[to]) next.push(to); }
      }
    }
    frontier = next;
  }
  const plain = new Int32Array(n + 1).map((_, s) => s);
  const out = new Uint8Array(n + 1);
  for (let s = 0; s <= n; s += 1) {
    if (seen[s] && !ends[s]) for (const r of faces) out[landing(n, overshoot, plain, s, r)] = 1;
  }
  return out;
}

/** The added jumps whose source no game from square 0 lands on. @param {Rules} rules
 * @param {Jump[]} added @returns {Jump[]} */
function uselessJumps(rules, added) {
  const jumps = sorted(added);
  if (!jumps.length) return [];
  const on = landed(rules, tableOf(rules, jumps));
  return jumps.filter(([a]) => !on[a]);
}

/** `added` without its useless jumps, each unless the board could not be finished without it.
 * @param {Rules} rules @param {Jump[]} added */
function canonical(rules, added) {
  let keep = sorted(added);
  for (const jump of uselessJumps(rules, keep)) {
    const rest = keep.filter(([a, b]) => a !== jump[0] || b !== jump[1]);
    if (finishable(rules, tableOf(rules, rest))) keep = rest;
  }
  return keep;
}

// --------------------------------------------------------------------------- moves
/**
 * The best one-jump extension of `added` in priced arrays (the library's `best`), or null.
 * @param {Search} S @param {Jump[]} added @param {Float64Array} value @param {Float64Array} mean
 * @returns {Generator<void, {jump: Jump, option: Option} | null, void>}
 */
function* bestSteps(S, added, value, mean) {
  const size = S.rules.n + 1;
  const cells = [];
  for (let i = 0; i < value.length; i += 1) if (Number.isFinite(value[i])) cells.push(i);
  if (!cells.length) return null;
  const keep = contenders(cells.map((c) => bounds(S.goal, value[c], mean[c])));
  const kept = cells.filter((_, i) => keep[i]);
  const jumps = kept.map((c) => /** @type {Jump} */ ([Math.floor(c / size), c % size]));
  const options = kept.map((c, i) => ({ added: sorted([...added, jumps[i]]), value: value[c],
    mean: mean[c] }));
  const { index } = yield* chooseSteps(S, options);
  return { jump: jumps[index], option: options[index] };
}

/**
 * The best swap of `old` in `added` for another candidate, and the drop of `old` (null when it
 * leaves a board that cannot be finished; the swaps from there are priced by full solves).
 * @param {Search} S @param {Jump[]} added @param {Jump} old
 * @returns {Generator<void, [{jump: Jump, option: Option} | null, Option | null], void>}
 */
function* bestWithoutSteps(S, added, old) {
  const { rules } = S;
  const size = rules.n + 1;
  const rest = added.filter((j) => j !== old);
  const table = tableOf(rules, rest);
  const allowed = Uint8Array.from(S.pool);
  allowed[old[0] * size + old[1]] = 0;
  if (finishable(rules, table)) {
    const [v, m] = yield* evaluateSteps(S, rest);
    const found = yield* bestSteps(S, rest, ...(yield* priceSteps(S, rest, allowed)));
    return [found, { added: rest, value: v, mean: m }];
  }
  const ok = canFinish(rules, table);
  const k = rules.faces.length;
  const freeing = new Uint8Array(size);             // squares the stuck squares move onto
  for (let s = 0; s < size; s += 1) {
    if (!ok[s]) for (let i = 0; i < k; i += 1) freeing[table[s * k + i]] = 1;
  }
  const values = new Float64Array(size * size).fill(NaN);
  const means = new Float64Array(size * size).fill(NaN);
  for (let cell = 0; cell < size * size; cell += 1) {
    const a = Math.floor(cell / size);
    const b = cell % size;
    if (!allowed[cell] || !freeing[a] || !compatible(rest, a, b)) continue;
    const jumps = [...rest, /** @type {Jump} */ ([a, b])];
    if (!finishable(rules, tableOf(rules, jumps))) continue;
    [values[cell], means[cell]] = yield* evaluateSteps(S, jumps);
  }
  return [yield* bestSteps(S, rest, values, means), null];
}

/** Can a -> b join `added` with no chain? @param {Jump[]} added @param {number} a @param {number} b */
function compatible(added, a, b) {
  return added.every(([s, d]) => a !== s && a !== d && b !== s);
}

/** @param {Jump[]} jumps */
const label = (jumps) => jumps.map(([a, b]) => `${a}->${b}`).join(", ") || "none";

/**
 * Greedy: add the best single jump until none improves (the library's `_greedy`).
 * @param {Search} S @param {number} maxJumps @param {Step[]} steps
 * @returns {Generator<void, Option, void>}
 */
function* greedySteps(S, maxJumps, steps) {
  /** @type {Jump[]} */
  let added = [];
  let [value, mean] = yield* evaluateSteps(S, added);
  steps.push({ action: "start", added, value, mean });
  while (added.length < maxJumps) {
    const found = yield* bestSteps(S, added, ...(yield* priceSteps(S, added, S.pool)));
    if (found === null || !(yield* improvesSteps(S, found.option, { added, value, mean }))) {
      steps.push({ action: "stop: no added jump improves the design", added, value, mean });
      break;
    }
    ({ added, value, mean } = found.option);
    steps.push({ action: `add ${found.jump[0]}->${found.jump[1]}`, added, value, mean });
  }
  return { added, value, mean };
}

/**
 * Best-improvement local search over add, drop and swap one jump (the library's `_local`).
 * @param {Search} S @param {Option} start @param {number} maxJumps @param {Step[]} steps
 * @returns {Generator<void, Option, void>}
 */
function* localSteps(S, start, maxJumps, steps) {
  let here = start;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const { added } = here;
    /** @type {Array<[string, Option]>} */
    const moves = [];
    if (added.length < maxJumps) {
      const found = yield* bestSteps(S, added, ...(yield* priceSteps(S, added, S.pool)));
      if (found) moves.push([`add ${label([found.jump])}`, found.option]);
    }
    for (const old of added) {
      const [found, dropped] = yield* bestWithoutSteps(S, added, old);
      if (dropped) moves.push([`drop ${label([old])}`, dropped]);
      if (found) moves.push([`swap ${label([old])} for ${label([found.jump])}`, found.option]);
    }
    const improving = [];
    for (const move of moves) if (yield* improvesSteps(S, move[1], here)) improving.push(move);
    if (!improving.length) {
      steps.push({ action: "stop: a local optimum (no add, drop or swap improves it)", ...here });
      break;
    }
    const { index } = yield* chooseSteps(S, improving.map(([, option]) => option));
    const [action, option] = improving[index];
    here = option;
    steps.push({ action, ...here });
  }
  return here;
}

// --------------------------------------------------------------------------- the design
/**
 * @typedef {object} Design
 * @property {Goal} goal The goal, its defaults taken from the starting board.
 * @property {any} board The designed board in JSON form.
 * @property {Jump[]} added The added jumps, sorted.
 * @property {number} value The goal's value on the designed board (a full float solve).
 * @property {number} mean Its expected game length.
 * @property {number | null} exactValue The value solved exactly, as the nearest float (null for
 *     a race).
 * @property {number} exactMean The expected game length solved exactly, as the nearest float.
 * @property {number} originalValue @property {number} originalMean The starting board's.
 * @property {string} method @property {boolean} provenOptimal
 * @property {Step[]} steps @property {number} priced @property {string} confirmation
 * @property {string} summary The library's `Design.summary()` in the page's words.
 */

/** A Ratio as the nearest float (well within display precision). @param {Ratio} x */
function toNumber(x) {
  const shift = BigInt(Math.max(0, x.q.toString(2).length - x.p.toString(2).length + 60));
  return Number((x.p << shift) / x.q) / 2 ** Number(shift);
}

/**
 * Check the arguments as `design_board` does, in its words.
 * @param {any} board @param {any} goal @param {unknown} maxJumps @param {unknown} method
 */
function checkArguments(board, goal, maxJumps, method) {
  const rules = rulesOf(board);
  const checked = checkGoal(goal);
  if (typeof maxJumps !== "number" || !Number.isInteger(maxJumps) || maxJumps < 1 || maxJumps > 6) {
    throw new BoardError(`max_jumps must be a whole number from 1 to 6, not ${typeof maxJumps ===
      "number" ? (Number.isInteger(maxJumps) ? maxJumps : pyFloat(maxJumps)) : JSON.stringify(maxJumps)}`);
  }
  if (typeof method !== "string" || !METHODS.includes(method)) {
    throw new BoardError(`unknown method ${JSON.stringify(method)?.replaceAll('"', "'")}; ` +
      `choose one of ${METHODS.map((m) => `'${m}'`).join(", ")}`);
  }
  if (!PAGE_METHODS.includes(method)) {
    throw new BoardError(`the page searches by greedy or local search; the ${method} search ` +
      "runs in Python (design_board)");
  }
  const traps = board.traps ?? [];
  if (checked.kind === "race" && traps.length) {
    throw new BoardError(sentence(said("a race is not defined on a board with traps (traps on " +
      "{traps}): what a trap does to a race is a house rule"),
      { traps: sorted(traps.map((/** @type {number} */ t) => [t, 0])).map(([t]) => t).join(", ") }));
  }
  return { rules, checked };
}

/**
 * Add at most `maxJumps` jumps to `board` to reach `goal` by greedy or local search (the
 * library's `design_board` with that method and no seed), and confirm the result; a generator
 * that yields every slice of work.
 * @param {any} board A board in maths/board_math.js's JSON form.
 * @param {any} goal {kind: "target", turns} | {kind: "short"} | {kind: "long"} |
 *     {kind: "spread", mean?, tolerance?} | {kind: "race", seats?}
 * @param {{maxJumps?: number, method?: string}} [options]
 * @returns {Generator<void, Design, void>}
 * @throws {BoardError} for a bad board, goal, max_jumps or method, a race on a board with
 *     traps, or no candidate: the library's words.
 */
export function* designSteps(board, goal, { maxJumps = 3, method = "local search" } = {}) {
  const { rules, checked } = checkArguments(board, goal, maxJumps, method);
  const n = rules.n;
  const all = new Uint8Array((n + 1) * (n + 1)).fill(1);
  const start = yield* effectsSteps(rules, [], all, false);
  const pool = Uint8Array.from(start.mean, (m) => (Number.isFinite(m) ? 1 : 0));
  if (!pool.some((x) => x)) throw new BoardError(said("no candidate jump can be added to this board"));
  // The board's own mean is solved exactly, so that a design on the band's edge is decided the
  // same way on every machine (a float solve can land a hair either side of it).
  let resolved = checked;
  if (checked.kind === "spread" && checked.mean === null) {
    const { mean } = yield* exactMomentsSteps(rules, tableOf(rules, []), false);
    resolved = { ...checked, mean: toNumber(mean), exactMean: mean };
  }
  /** @type {Search} */
  const S = { rules, goal: resolved, pool, priced: 0, exact: new Map() };
  /** @type {Step[]} */
  const steps = [];
  let found = yield* greedySteps(S, maxJumps, steps);
  if (method === "local search") found = yield* localSteps(S, found, maxJumps, steps);
  const canon = canonical(rules, found.added);
  if (canon.length < found.added.length) {
    const dropped = found.added.filter(([a, b]) => !canon.some(([c, d]) => a === c && b === d));
    steps.push({ action: `drop ${label(dropped)}: no game reaches ` +
      `${dropped.length === 1 ? "square" : "squares"} ${dropped.map(([a]) => a).join(", ")} ` +
      "(the same score)", added: canon, value: found.value, mean: found.mean });
  }
  return yield* confirmSteps(S, sorted(canon), method, steps);
}

/**
 * Solve the designed board again from scratch: exactly for the mean and the variance.
 * @param {Search} S @param {Jump[]} added @param {string} method @param {Step[]} steps
 * @returns {Generator<void, Design, void>}
 */
function* confirmSteps(S, added, method, steps) {
  const { rules, goal } = S;
  const spread = goal.kind === "spread";
  const exact = yield* exactMomentsSteps(rules, tableOf(rules, added), true);
  const exactValue = goal.kind === "race" ? null : spread ? exact.variance : exact.mean;
  const [value, mean] = yield* valueSteps(S, added);
  const [originalValue, originalMean] = yield* valueSteps(S, []);
  const proven = goal.kind === "target" && exactValue !== null
    && cmp(exactValue, decimal(goal.turns)) === 0;
  const confirmation = goal.kind === "race"
    ? said("a full float solve with win_probabilities (no exact race solver)")
    : spread ? said("exact rational solves of the mean and second moment (in the page, BigInt)")
      : said("an exact rational solve of the expected turns (in the page, BigInt)");
  /** @type {Design} */
  const design = { goal, board: boardOf(rules, added), added, value, mean,
    exactValue: exactValue === null ? null : toNumber(exactValue), exactMean: toNumber(exact.mean),
    originalValue, originalMean, method, provenOptimal: proven, steps, priced: S.priced,
    confirmation, summary: "" };
  design.summary = summary(design);
  return design;
}

/** The library's `Design.summary()`. @param {Design} d */
export function summary(d) {
  // each line made from a pattern named with `said`, so that the page says it in its language
  const q = quantity(d.goal);
  const change = (/** @type {string} */ what, /** @type {number} */ before,
    /** @type {number} */ after) => ({ quantity: what, before: pyFixed(before, 4),
    after: pyFixed(after, 4) });
  const lines = [sentence(said("goal: {goal}"), { goal: describeGoal(d.goal) }),
    sentence(said("added jumps: {jumps}"),
      { jumps: d.added.map(([a, b]) => `${a}->${b}`).join(", ") || said("none") }),
    d.exactValue === null
      ? sentence(said("{quantity}: {before} -> {after}"), change(q, d.originalValue, d.value))
      : sentence(said("{quantity}: {before} -> {after} (exactly {exact})"),
        { ...change(q, d.originalValue, d.value), exact: pyFixed(d.exactValue, 6) })];
  if (q !== "expected turns") {
    lines.push(sentence(said("{quantity}: {before} -> {after}"),
      change("expected turns", d.originalMean, d.mean)));
  }
  const proof = d.provenOptimal ? said("proven optimal among the candidates")
    : said("a heuristic: not proven optimal");
  lines.push(sentence(said("search: {method}, {priced} designs priced, {proof}"),
    { method: d.method, priced: d.priced, proof }),
  sentence(said("confirmed by {confirmation}"), { confirmation: d.confirmation }));
  return lines.join("\n");
}

/**
 * `designSteps` run to its end.
 * @param {any} board @param {any} goal @param {{maxJumps?: number, method?: string}} [options]
 * @returns {Design}
 */
export function designBoard(board, goal, options) {
  return run(designSteps(board, goal, options));
}
