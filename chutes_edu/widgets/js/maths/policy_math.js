// @ts-check
/**
 * The aimed game's maths, in the page (chutes_edu/control.py in JavaScript, held equal to it by
 * tests/js/policy_math.test.mjs), for the policy explorer (Lesson 10).
 *
 * The aimed move (LosAlfajores, 2021). Instead of rolling, the player picks a target t in 1..m
 * (m = the board's number of die faces) and moves t - 1, t or t + 1 squares with the chances
 * accuracy = (a-, a0, a+). A move of d > 0 from square s follows the board's rules: its overshoot
 * rule past the final square n, then one jump; a move of 0 stays on s and, on the foot of a jump,
 * takes it (`aimTable`: l(s, t, k) for every square, target and outcome). Boards with traps are
 * refused, as the library refuses them.
 *
 * Discounted value iteration (`valueIteration`, the aiming article's method): V_0 = 0; each sweep
 * sets V(s) = gamma max_t sum_k a_k V(l(s, t, k)) on the squares 0..n-1 from the previous sweep,
 * then the reward R on the final square and on every square whose jump leads to it; it stops
 * after the first sweep whose total change sum_s |V_new(s) - V(s)| is at most `tol`. The policy
 * is the last sweep's best target, the smallest among those within a relative 1e-12 of the best.
 *
 * Fewest expected turns (`optimalPolicy`): E(n) = 0, E(s) = 1 + min_t sum_k a_k E(l(s, t, k)),
 * solved by policy iteration from a policy that surely finishes (squares joined backwards from
 * the final square), evaluating each policy exactly by (I - Q^pi) E = 1 (`policyExpectedTurns`:
 * Gaussian elimination with partial pivoting over the squares from which the policy surely
 * finishes; the others get Infinity) and improving each square only when that shortens its game
 * by more than a relative 1e-12; last, each square takes the smallest optimal target.
 *
 * Every operation is the library's, in the library's order, so value iteration gives the same
 * doubles and the same sweeps; the linear solves agree to rounding.
 *
 * Cost and the page's thread: the `...Steps` forms are generators that yield after every slice
 * of about 25,000 elementary operations, inside every loop that grows with the board (a sweep,
 * the elimination, the reachability), so a page runs them a few milliseconds at a time.
 *
 * Not here (the explorer does not show them): mixed policies (a matrix of target chances), the
 * game-length distribution under a policy, its simulation, and the two-player race.
 *
 * @module policy_math
 */
import { BoardError, ranges, validate } from "./board_math.js";
import { formatG, pyFloat, pyRepr } from "../core/format.js";
import { gaussSolveSteps } from "../core/solve.js";
import { run, SLICE } from "../core/steps.js";

/** The aiming article's aim: one short, on target, one too far with chances 1/4, 1/2, 1/4. */
export const DEFAULT_ACCURACY = Object.freeze([0.25, 0.5, 0.25]);

/** The library's value-iteration defaults (`chutes_edu.control.value_iteration`). */
export const VALUE_DEFAULTS = Object.freeze({ discount: 0.9, reward: 100, tol: 1e-3,
  maxIter: 10_000 });

/** Relative gap below which two targets count as equally good (ties go to the smallest). */
const TIE = 1e-12;

/** Operations since the last yield, counted across the step-by-step forms (one runs at a time in
 * a page; sharing the count keeps many small sweeps from running long without a yield). */
let pending = 0;

/**
 * @typedef {object} AimTable
 * @property {number} n The final square.
 * @property {number} m The number of targets (die faces).
 * @property {Int32Array} table `table[(s * m + t - 1) * 3 + k]` = l(s, t, k), squares 0..n.
 * @property {number[]} goal The final square and the squares whose jump leads to it.
 */

/**
 * @typedef {object} ValueIterationResult
 * @property {Float64Array} values The value of each square 0..n.
 * @property {Int32Array} policy The target 1..m chosen on each square 0..n-1.
 * @property {number} iterations The number of sweeps made.
 */

/**
 * @typedef {object} OptimalPolicyResult
 * @property {Int32Array} policy The target on each square 0..n-1 with the fewest expected turns.
 * @property {Float64Array} expectedTurns Expected turns from each square 0..n under it.
 * @property {number} iterations The number of improvement rounds.
 */

/** A Python tuple of JSON values as Python writes it. */
const tupleRepr = (/** @type {unknown[]} */ values) =>
  `(${values.map((v) => pyRepr(v)).join(", ")}${values.length === 1 ? "," : ""})`;

/**
 * The accuracy as three chances (under, exact, over) summing to 1, normalised as the library
 * normalises them, or BoardError with the library's words (`control._accuracy`).
 * @param {unknown} accuracy
 * @returns {Float64Array}
 */
export function checkAccuracy(accuracy) {
  if (!Array.isArray(accuracy) && !ArrayBuffer.isView(accuracy)) {
    throw new BoardError("accuracy must be three probabilities (under, exact, over), not " +
      pyRepr(accuracy));
  }
  const values = Array.from(/** @type {ArrayLike<unknown>} */ (accuracy));
  if (values.length !== 3) {
    throw new BoardError("accuracy must be three probabilities (under, exact, over), got " +
      `${values.length} values: ${pyRepr(values)}`);
  }
  const bad = [];
  for (const [i, name] of ["under", "exact", "over"].entries()) {
    const w = values[i];
    if (typeof w !== "number") bad.push(`${name}=${pyRepr(w)} is not a number`);
    else if (!Number.isFinite(w)) bad.push(`${name}=${pyRepr(w)} is not finite`);
    else if (w < 0) bad.push(`${name}=${pyRepr(w)} is negative`);
  }
  if (bad.length) throw new BoardError(`bad accuracy (${bad.join("; ")})`);
  const acc = Float64Array.from(/** @type {number[]} */ (values));
  const total = acc[0] + acc[1] + acc[2];
  if (Math.abs(total - 1) > 1e-9) {
    throw new BoardError(`accuracy ${tupleRepr(values)} must sum to 1, but sums to ` +
      formatG(total, 12));
  }
  for (let k = 0; k < 3; k += 1) acc[k] /= total;
  return acc;
}

/**
 * The accuracy of the explorer's two sliders: `exact` is the chance of moving exactly the
 * target, and `lean` is the share of the misses that go one too far (the Python explorer's).
 * @param {number} exact
 * @param {number} lean
 * @returns {[number, number, number]}
 */
export function sliderAccuracy(exact, lean) {
  const miss = 1.0 - exact;
  return [miss * (1.0 - lean), exact, miss * lean];
}

/** A number as Python's `_real` reads it, or BoardError naming `what`. */
function real(/** @type {unknown} */ value, /** @type {string} */ what) {
  if (typeof value !== "number") throw new BoardError(`${what} must be a number, not ${pyRepr(value)}`);
  if (!Number.isFinite(value)) throw new BoardError(`${what} must be finite, got ${pyFloat(value)}`);
  return value;
}

/** A whole number, or BoardError naming `what` (the library's `_square`). */
function whole(/** @type {unknown} */ value, /** @type {string} */ what) {
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new BoardError(`${what} must be a whole number, not ${pyRepr(value)}`);
  }
  return value;
}

/**
 * Where every aimed move ends (the library's `_aim_table`): the board is checked with the
 * library's words (`validate`), then boards with traps and "bounce" boards too small to walk
 * back a move of m + 1 squares are refused as the library refuses them.
 * @param {import("./board_math.js").BoardJSON} board
 * @returns {AimTable}
 * @throws {BoardError}
 */
export function aimTable(board) {
  const problem = validate(board);
  if (problem !== null) throw new BoardError(problem);
  const n = board.size === undefined ? 100 : board.size;
  const die = board.die === undefined ? 6 : board.die;
  const m = typeof die === "number" ? die : die.length;
  const overshoot = board.overshoot === undefined ? "stay" : board.overshoot;
  const traps = board.traps ?? [];
  if (traps.length) {
    throw new BoardError("aimed moves (chutes_edu.control) do not handle traps (this board has " +
      `traps on ${ranges(traps)}): remove them with replace(traps=())`);
  }
  if (overshoot === "bounce" && m + 1 > n) {
    throw new BoardError(`overshoot='bounce' cannot walk back an aimed move of up to ${m + 1} ` +
      `squares on a board of size ${n}`);
  }
  const jump = new Int32Array(n + 1);
  for (let s = 0; s <= n; s += 1) jump[s] = s;
  for (const [a, b] of board.jumps ?? []) jump[a] = b;
  const table = new Int32Array((n + 1) * m * 3);
  for (let s = 0; s <= n; s += 1) {
    for (let t = 1; t <= m; t += 1) {
      for (let k = 0; k < 3; k += 1) {
        const target = s + t + k - 1;
        let to;
        if (s === n) to = n;
        else if (target <= n) to = jump[target];
        else if (overshoot === "stay") to = s;                 // a lost move fires no jump
        else if (overshoot === "win") to = n;
        else if (overshoot === "bounce") to = jump[2 * n - target];
        else to = jump[n - 1];                                 // stop_short
        table[(s * m + t - 1) * 3 + k] = to;
      }
    }
  }
  const goal = [n];
  for (const [a, b] of board.jumps ?? []) if (b === n) goal.push(a);
  return { n, m, table, goal };
}

/**
 * Where aiming at `target` from `square` ends: (under, exact, over), as `aim_landings`.
 * @param {import("./board_math.js").BoardJSON} board
 * @param {number} square
 * @param {number} target
 * @returns {[number, number, number]}
 */
export function aimLandings(board, square, target) {
  const { n, m, table } = aimTable(board);
  const s = whole(square, "square");
  if (!(s >= 0 && s <= n)) throw new BoardError(`square ${s} is off the board (squares 0..${n})`);
  const t = whole(target, "target");
  if (!(t >= 1 && t <= m)) throw new BoardError(`target ${t} is not one of 1..${m}`);
  const i = (s * m + t - 1) * 3;
  return [table[i], table[i + 1], table[i + 2]];
}

/**
 * The best target (0-based) of square s from q[s * m ..], the smallest among near ties (the
 * library's `_first_best`: the same relative 1e-12 band, computed in the same float operations,
 * so both sides decide a rival on the band's edge the same way; tests/js/policy_math.test.mjs
 * holds them to it at the edge's last bit).
 */
export function firstBest(/** @type {Float64Array} */ q, /** @type {number} */ s, /** @type {number} */ m,
  /** @type {boolean} */ largest) {
  let best = q[s * m];
  for (let t = 1; t < m; t += 1) {
    const v = q[s * m + t];
    if (largest ? v > best : v < best) best = v;
  }
  const slack = TIE * Math.max(1.0, Math.abs(best));
  for (let t = 0; t < m; t += 1) {
    const v = q[s * m + t];
    if (largest ? v >= best - slack : v <= best + slack) return t;
  }
  return 0;
}

/**
 * q[s * m + t - 1] = sum_k a_k values[l(s, t, k)] on the squares 0..n-1 (`_action_values`, in its
 * order), `add` added after. Yields every SLICE operations.
 */
function* actionValuesSteps(/** @type {AimTable} */ aim, /** @type {Float64Array} */ acc,
  /** @type {Float64Array} */ values, /** @type {Float64Array} */ q, add = 0) {
  const { n, m, table } = aim;
  for (let i = 0; i < n * m; i += 1) {
    const j = 3 * i;
    const v = acc[0] * values[table[j]] + acc[1] * values[table[j + 1]] +
      acc[2] * values[table[j + 2]];
    q[i] = add === 0 ? v : add + v;
    pending += 3;
    if (pending >= SLICE) { pending = 0; yield; }
  }
}

/**
 * The aiming article's discounted value iteration, step by step (see `valueIteration`).
 * @param {import("./board_math.js").BoardJSON} board
 * @param {{accuracy?: unknown, discount?: unknown, reward?: unknown, tol?: unknown,
 *     maxIter?: unknown}} [options]
 * @returns {Generator<void, ValueIterationResult, void>}
 */
export function* valueIterationSteps(board, { accuracy = DEFAULT_ACCURACY,
  discount = VALUE_DEFAULTS.discount, reward = VALUE_DEFAULTS.reward, tol = VALUE_DEFAULTS.tol,
  maxIter = VALUE_DEFAULTS.maxIter } = {}) {
  const acc = checkAccuracy(accuracy);
  const gamma = real(discount, "discount");
  if (!(gamma > 0 && gamma <= 1)) throw new BoardError(`discount must be in (0, 1], got ${pyFloat(gamma)}`);
  const prize = real(reward, "reward");
  const stop = real(tol, "tol");
  if (!(stop > 0)) throw new BoardError(`tol must be positive, got ${pyFloat(stop)}`);
  const most = whole(maxIter, "max_iter");
  if (most < 1) throw new BoardError(`max_iter must be at least 1, got ${most}`);
  const aim = aimTable(board);
  const { n, m, goal } = aim;
  let values = new Float64Array(n + 1);
  let next = new Float64Array(n + 1);
  const q = new Float64Array(n * m);
  let change = Infinity;
  for (let sweep = 1; sweep <= most; sweep += 1) {
    yield* actionValuesSteps(aim, acc, values, q);
    for (let s = 0; s < n; s += 1) {
      let best = q[s * m];
      for (let t = 1; t < m; t += 1) if (q[s * m + t] > best) best = q[s * m + t];
      next[s] = gamma * best;
    }
    for (const g of goal) next[g] = prize;
    change = 0;
    for (let s = 0; s <= n; s += 1) change += Math.abs(next[s] - values[s]);
    pending += n * m + n;
    [values, next] = [next, values];
    if (change <= stop) {
      const policy = new Int32Array(n);
      for (let s = 0; s < n; s += 1) policy[s] = firstBest(q, s, m, true) + 1;
      return { values, policy, iterations: sweep };
    }
  }
  throw new BoardError(`value iteration did not settle in ${most} sweeps (last total change ` +
    `${formatG(change, 3)} > tol=${pyFloat(stop)})`);
}

/**
 * The aiming article's discounted value iteration for the aimed game
 * (`chutes_edu.control.value_iteration`, see the module's description).
 * @param {import("./board_math.js").BoardJSON} board
 * @param {{accuracy?: unknown, discount?: unknown, reward?: unknown, tol?: unknown,
 *     maxIter?: unknown}} [options]
 * @returns {ValueIterationResult}
 * @throws {BoardError} with the library's words.
 */
export function valueIteration(board, options = {}) {
  return run(valueIterationSteps(board, options));
}

/**
 * A policy as one target per square 0..n-1 (a single target for all of them, or a list), or
 * BoardError with the library's words (`control._policy_matrix`; mixed policies are not read).
 * @param {unknown} policy
 * @param {number} n
 * @param {number} m
 * @returns {Int32Array} 0-based targets.
 */
function checkPolicy(policy, n, m) {
  if (typeof policy === "number" && Number.isInteger(policy)) {
    if (!(policy >= 1 && policy <= m)) throw new BoardError(`target ${policy} is not one of 1..${m}`);
    return new Int32Array(n).fill(policy - 1);
  }
  if (!Array.isArray(policy) && !ArrayBuffer.isView(policy)) {
    throw new BoardError("policy must be a target, one target per square, or a matrix of " +
      "probabilities; got an array of shape ()");
  }
  const targets = Array.from(/** @type {ArrayLike<unknown>} */ (policy));
  if (targets.some((t) => Array.isArray(t))) {
    throw new BoardError("a mixed policy (a matrix of probabilities) is not computed in the " +
      "page: give one target per square (chutes_edu.control.policy_expected_turns takes both)");
  }
  if (targets.length !== n) {
    throw new BoardError(`a policy needs one target for each square 0..${n - 1} (${n} targets), ` +
      `got ${targets.length}`);
  }
  if (!targets.every((t) => typeof t === "number" && Number.isInteger(t))) {
    throw new BoardError(`policy targets must be whole numbers 1..${m}`);
  }
  const numbers = /** @type {number[]} */ (targets);
  const off = [];
  const aims = new Set();
  for (let s = 0; s < n; s += 1) {
    if (numbers[s] < 1 || numbers[s] > m) { off.push(s); aims.add(numbers[s]); }
  }
  if (off.length) {
    throw new BoardError(`policy targets must be 1..${m}: squares ${ranges(off)} aim at ` +
      pyRepr([...aims].sort((a, b) => a - b)));
  }
  return Int32Array.from(numbers, (t) => t - 1);
}

/**
 * Mark, until nothing changes, every square 0..n-1 with a move of positive chance onto a marked
 * square (the row s of the one-turn matrix is `count[s]` squares `to[3 s + i]`, chances
 * `chance[3 s + i]`). Yields every SLICE operations.
 * @returns {Generator<void, void, void>}
 */
function* spreadSteps(/** @type {Uint8Array} */ marked, /** @type {Int32Array} */ to,
  /** @type {Float64Array} */ chance, /** @type {Int32Array} */ count) {
  const n = count.length;
  for (let grew = true; grew;) {
    grew = false;
    for (let s = 0; s < n; s += 1) {
      if (marked[s]) continue;
      for (let i = 0; i < count[s]; i += 1) {
        if (chance[3 * s + i] > 0 && marked[to[3 * s + i]]) { marked[s] = 1; grew = true; break; }
      }
    }
    pending += 3 * n;
    if (pending >= SLICE) { pending = 0; yield; }
  }
}

/**
 * Expected turns to finish from each square 0..n when square s aims at `targets[s]` (0-based),
 * Infinity where finishing is not certain (the library's `_transition` then `_expected`).
 * Yields every SLICE operations.
 * @returns {Generator<void, Float64Array, void>}
 */
function* expectedSteps(/** @type {AimTable} */ aim, /** @type {Float64Array} */ acc,
  /** @type {Int32Array} */ targets) {
  const { n, m, table } = aim;
  // Row s of the one-turn matrix: at most three squares, with the chances added in the order
  // k = 0, 1, 2 (as numpy's add.at adds them).
  const to = new Int32Array(3 * n);
  const chance = new Float64Array(3 * n);
  const count = new Int32Array(n);
  for (let s = 0; s < n; s += 1) {
    const j = (s * m + targets[s]) * 3;
    for (let k = 0; k < 3; k += 1) {
      const u = table[j + k];
      let i = 0;
      while (i < count[s] && to[3 * s + i] !== u) i += 1;
      if (i === count[s]) { to[3 * s + i] = u; chance[3 * s + i] = 0; count[s] += 1; }
      chance[3 * s + i] += acc[k];
    }
  }
  // reach: squares with some chance of finishing; doomed: the others and those that may lead
  // to them (fixed points over the edges, as the library finds them).
  const reach = new Uint8Array(n + 1);
  reach[n] = 1;
  yield* spreadSteps(reach, to, chance, count);
  const doomed = new Uint8Array(n + 1);
  for (let s = 0; s < n; s += 1) doomed[s] = reach[s] ? 0 : 1;
  yield* spreadSteps(doomed, to, chance, count);
  const out = new Float64Array(n + 1).fill(Infinity);
  out[n] = 0;
  const ok = [];
  const index = new Int32Array(n + 1).fill(-1);
  for (let s = 0; s < n; s += 1) if (!doomed[s]) { index[s] = ok.length; ok.push(s); }
  const size = ok.length;
  if (!size) return out;
  // (I - Q) E = 1 over the squares `ok`, dense, by Gaussian elimination with partial pivoting.
  const A = new Float64Array(size * size);
  const b = new Float64Array(size).fill(1);
  for (let r = 0; r < size; r += 1) {
    const s = ok[r];
    A[r * size + r] = 1;
    for (let i = 0; i < count[s]; i += 1) {
      const c = index[to[3 * s + i]];
      if (c >= 0) A[r * size + c] -= chance[3 * s + i];
    }
  }
  pending = yield* gaussSolveSteps(A, b, size, pending);
  for (let r = 0; r < size; r += 1) out[ok[r]] = b[r];
  return out;
}

/**
 * Expected turns from each square under a fixed way of aiming, step by step.
 * @param {import("./board_math.js").BoardJSON} board
 * @param {unknown} policy A target 1..m, or one target per square 0..n-1.
 * @param {unknown} [accuracy]
 * @returns {Generator<void, Float64Array, void>}
 */
export function* policyExpectedTurnsSteps(board, policy, accuracy = DEFAULT_ACCURACY) {
  const acc = checkAccuracy(accuracy);
  const aim = aimTable(board);
  const targets = checkPolicy(policy, aim.n, aim.m);
  return yield* expectedSteps(aim, acc, targets);
}

/**
 * Expected number of turns to finish from each square under a fixed way of aiming
 * (`chutes_edu.control.policy_expected_turns`, for a target or one target per square).
 * @param {import("./board_math.js").BoardJSON} board
 * @param {unknown} policy A target 1..m, or one target per square 0..n-1.
 * @param {unknown} [accuracy]
 * @returns {Float64Array} Squares 0..n; entry n is 0, Infinity where the game may never end.
 * @throws {BoardError} with the library's words.
 */
export function policyExpectedTurns(board, policy, accuracy = DEFAULT_ACCURACY) {
  return run(policyExpectedTurnsSteps(board, policy, accuracy));
}

/**
 * A policy (0-based targets) that finishes with probability 1 (the library's `_sure_policy`),
 * or BoardError naming the squares from which no way of aiming finishes.
 * @returns {Generator<void, Int32Array, void>}
 */
function* surePolicySteps(/** @type {AimTable} */ aim, /** @type {Float64Array} */ acc) {
  const { n, m, table } = aim;
  const joined = new Uint8Array(n + 1);
  joined[n] = 1;
  const policy = new Int32Array(n);
  const fresh = new Uint8Array(n);
  for (;;) {
    let any = false;
    fresh.fill(0);
    for (let s = 0; s < n; s += 1) {
      if (joined[s]) continue;
      for (let t = 0; t < m && !fresh[s]; t += 1) {
        for (let k = 0; k < 3; k += 1) {
          if (acc[k] > 0 && joined[table[(s * m + t) * 3 + k]]) {
            policy[s] = t;
            fresh[s] = 1;
            any = true;
            break;
          }
        }
      }
    }
    pending += 3 * n * m;
    if (pending >= SLICE) { pending = 0; yield; }
    if (!any) break;
    for (let s = 0; s < n; s += 1) if (fresh[s]) joined[s] = 1;
  }
  const stuck = [];
  for (let s = 0; s < n; s += 1) if (!joined[s]) stuck.push(s);
  if (stuck.length) {
    throw new BoardError(`no way of aiming can finish the game from squares ${ranges(stuck)} ` +
      `with accuracy (${Array.from(acc, pyFloat).join(", ")})`);
  }
  return policy;
}

/**
 * The way of aiming with the fewest expected turns, by policy iteration, step by step.
 * @param {import("./board_math.js").BoardJSON} board
 * @param {{accuracy?: unknown, maxRounds?: number}} [options]
 * @returns {Generator<void, OptimalPolicyResult, void>}
 */
export function* optimalPolicySteps(board, { accuracy = DEFAULT_ACCURACY, maxRounds = 1000 } = {}) {
  const acc = checkAccuracy(accuracy);
  const aim = aimTable(board);
  const { n, m } = aim;
  let policy = yield* surePolicySteps(aim, acc);
  const q = new Float64Array(n * m);
  const best = new Int32Array(n);
  let turns = /** @type {Float64Array} */ (new Float64Array(0));
  let rounds = 0;
  for (;;) {
    rounds += 1;
    if (rounds > maxRounds) {
      throw new BoardError(`policy iteration did not settle in ${maxRounds} rounds`);
    }
    turns = yield* expectedSteps(aim, acc, policy);
    if (!turns.every(Number.isFinite)) {
      throw new BoardError("policy iteration reached a policy that may never finish");
    }
    yield* actionValuesSteps(aim, acc, turns, q, 1.0);
    let better = false;
    const next = policy.slice();
    for (let s = 0; s < n; s += 1) {
      best[s] = firstBest(q, s, m, false);
      const current = q[s * m + policy[s]];
      if (q[s * m + best[s]] < current - TIE * Math.max(1.0, current)) {
        next[s] = best[s];
        better = true;
      }
    }
    if (!better) break;
    policy = next;
  }
  if (best.some((t, s) => t !== policy[s])) {              // the smallest optimal target
    const again = yield* expectedSteps(aim, acc, best);
    if (again.every((v, s) => v <= turns[s] + 1e-9 * Math.max(1.0, turns[s]))) {
      policy = best;
      turns = again;
    }
  }
  return { policy: Int32Array.from(policy, (t) => t + 1), expectedTurns: turns,
    iterations: rounds };
}

/**
 * The way of aiming that finishes in the fewest turns on average
 * (`chutes_edu.control.optimal_policy`, see the module's description).
 * @param {import("./board_math.js").BoardJSON} board
 * @param {{accuracy?: unknown, maxRounds?: number}} [options]
 * @returns {OptimalPolicyResult}
 * @throws {BoardError} with the library's words.
 */
export function optimalPolicy(board, options = {}) {
  return run(optimalPolicySteps(board, options));
}

/**
 * @typedef {object} PolicyAnalysis
 * @property {[number, number, number]} accuracy (under, exact, over).
 * @property {ValueIterationResult} result Value iteration's values, policy and sweeps.
 * @property {Float64Array} turns Expected turns from each square under value iteration's policy.
 * @property {OptimalPolicyResult} best The fewest-turns policy and its expected turns.
 * @property {number} differ The squares where the two policies aim differently.
 */

/**
 * What the policy explorer shows for its sliders, step by step: value iteration, its policy's
 * expected turns and the fewest-turns policy (as the Python explorer computes them).
 * @param {import("./board_math.js").BoardJSON} board
 * @param {{exact: number, lean: number, discount: number}} sliders
 * @returns {Generator<void, PolicyAnalysis, void>}
 */
export function* policyAnalysisSteps(board, { exact, lean, discount }) {
  const accuracy = sliderAccuracy(exact, lean);
  const result = yield* valueIterationSteps(board, { accuracy, discount });
  const turns = yield* policyExpectedTurnsSteps(board, Array.from(result.policy), accuracy);
  const best = yield* optimalPolicySteps(board, { accuracy });
  let differ = 0;
  for (let s = 0; s < result.policy.length; s += 1) if (result.policy[s] !== best.policy[s]) differ += 1;
  return { accuracy, result, turns, best, differ };
}
