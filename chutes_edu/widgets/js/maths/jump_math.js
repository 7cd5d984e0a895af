// @ts-check
/**
 * Adding one jump, in the page: the jump explorer's maths (chutes_edu/widgets/jump_explorer.py,
 * Lesson 9), the library's `chutes_edu.jump_effects` and the explorer's words, held equal to
 * them by tests/js/jump_math.test.mjs. No DOM: it runs in a browser and in Node 20. Boards are
 * maths/board_math.js's JSON boards, checked by it (refused in the library's words).
 *
 * The maths (see `chutes_edu.markov` for the derivation). Expected turns solve the roll-by-roll
 * system (I - B_Q) t = c (maths/board_math.js's `solveSteps`). Adding a jump a -> b moves column a of
 * the one-roll matrix B to column b: a rank-one change I - B'_Q = (I - B_Q) + k u^T with
 * k = B_Q e_a and u = e_a - e_b. With N_B = (I - B_Q)^-1 and y = N_B k = N_B e_a - e_a,
 * Sherman-Morrison gives the new expected turns from square 0 for every b at once:
 *
 *     t'_0 = t_0 - y_0 (t_a - t_b) / (1 + y_a - y_b),   1 + y_a - y_b = N_B[a, a] - N_B[b, a],
 *
 * for b < n not a trap, and, when b ends the game (the final square n or a trap: column a leaves
 * the chain), t'_0 = t_0 - y_0 t_a / N_B[a, a]. With a bonus face f of chance p_f, the rolls of f
 * that land on a now end the game, so their turn is counted: c' = c + p_f w_a with
 * w_a[s] = [l(s, f) = a], and t'_0 = (t_0 + p_f z_0) - y_0 (t_a + p_f z_a) / N_B[a, a] with
 * z = N_B w_a. So each source a costs one solve for column a of N_B (two with a bonus face),
 * with the LU factors of the expected-turns solve: the library's sparse path, step for step.
 *
 * The candidates, as the library's: no jump starts on 0, the final square, a trap, or an end of
 * a jump already there; none ends where a jump starts, on its own source, or closer than
 * `min_length` squares; and a jump after which the board could never be finished is left out
 * (then the denominator is 0: the near-zero ones are settled by the board's own check, as the
 * library settles them). Left-out entries are NaN.
 *
 * The explorer's choices and words (the Python explorer's, as it wrote them before it ran in the
 * page): the squares where some jump may start, the destinations from each, the allowed jump
 * nearest to one asked for, the surprises (a ladder that lengthens the game or a chute that
 * shortens it, by more than 1e-9 turns: `surprising_jumps`), the readout and the announcement,
 * and the heat map's description (`plot_jump_effects`'s).
 *
 * Cost and the page's thread: `jumpEffectsSteps` is a generator that yields after every slice of
 * about 25,000 operations (inside the compile, the solve, each column solve and each row of
 * prices), so a page runs it a few milliseconds at a time. On the 1943 board (100 squares, about
 * 5,000 candidates) the whole sweep is about 85 banded solves.
 *
 * Not here: the library's `sources=` / `destinations=` (the explorer prices every jump) and its
 * `JUMP_EFFECTS_MAX` refusal (the page's boards have at most 1,000 squares, 10^6 prices).
 *
 * @module jump_math
 */
import { pyFixed } from "../core/format.js";
import {
  BoardError, compileSteps, solveSteps, square,
} from "./board_math.js";
import { giveBack, luSolveSteps } from "../core/solve.js";
import { run, SLICE } from "../core/steps.js";

/** Two changes closer than this (times the baseline, at least 1) name the same jump as the
 * heat map's best or worst: the first (see `describeJumpEffects`). */
const TIE = 1e-11;

/** A change in expected turns smaller than this is no surprise (the library's 1e-9). */
export const SURPRISE = 1e-9;

/**
 * @typedef {object} JumpEffects
 * @property {number} n The final square.
 * @property {number} minLength The shortest jump priced.
 * @property {number} baseline The board's own expected turns from square 0.
 * @property {Float64Array} effects `effects[a * (n + 1) + b]`: expected turns from square 0 with
 *     the jump a -> b added, NaN where it may not be added.
 */

/**
 * The board with one more jump, in JSON form.
 * @param {any} board
 * @param {number} a
 * @param {number} b
 */
function withJump(board, a, b) {
  return { ...board, jumps: [...(board.jumps ?? []), [a, b]] };
}

/**
 * Expected turns from square 0 after adding each possible jump a -> b (the library's
 * `jump_effects(board, min_length)`), step by step.
 * @param {any} board A JSON board (see maths/board_math.js).
 * @param {{minLength?: unknown}} [options] Only jumps with |a - b| >= minLength (default 1).
 * @returns {Generator<void, JumpEffects, void>}
 * @throws {BoardError} in the library's words: an invalid board, or a min_length that is not a
 *     whole number.
 */
export function* jumpEffectsSteps(board, { minLength = 1 } = {}) {
  const shortestAsked = square(minLength, "min_length");
  const model = yield* compileSteps(board);
  const { n, end, onward, pf } = model;
  const { t, lu } = yield* solveSteps(model);
  const width = n + 1;
  const effects = new Float64Array(width * width).fill(NaN);
  const baseline = t[0];
  try {
    const badSource = new Uint8Array(width);
    const badDestination = new Uint8Array(width);
    badSource[0] = 1;
    badSource[n] = 1;
    for (const [a, b] of board.jumps ?? []) {
      badSource[a] = 1;
      badSource[b] = 1;
      badDestination[a] = 1;
    }
    for (const v of model.traps) badSource[v] = 1;
    const shortest = Math.max(shortestAsked, 1);   // a -> a is never a jump
    const bonus = model.bonus !== null;
    const x = new Float64Array(n);
    const z = new Float64Array(n);
    let work = 0;
    for (let a = 1; a < n; a += 1) {
      if (badSource[a]) continue;
      x.fill(0);
      x[a] = 1;
      work += yield* luSolveSteps(lu, x);          // x = N_B e_a, column a of N_B
      const naa = x[a];                            // N_B[a, a] = 1 + y_a
      const y0 = x[0];                             // y_0 = N_B[0, a] (a is never 0)
      let finished;
      if (!bonus) {
        finished = t[0] - y0 * t[a] / naa;
      } else {                                     // c' = c + p_f w_a: N c' = t + p_f N w_a
        z.fill(0);
        for (let s = 0; s < n; s += 1) if (onward[s] === a) z[s] = 1;
        work += yield* luSolveSteps(lu, z);
        finished = (t[0] + pf * z[0]) - y0 * (t[a] + pf * z[a]) / naa;
      }
      const row = a * width;
      /** @type {number[]} */
      const suspects = [];
      for (let b = 0; b <= n; b += 1) {
        if (badDestination[b] || Math.abs(a - b) < shortest) continue;
        if (end[b]) {
          effects[row + b] = finished;
          continue;
        }
        const denom = naa - x[b];                  // 1 + y_a - y_b
        effects[row + b] = t[0] - y0 * (t[a] - t[b]) / denom;
        if (Math.abs(denom) < 1e-9 * Math.max(1, naa)) suspects.push(b);
      }
      work += 4 * width + suspects.length * 10 * width;
      // A jump a -> b (b < n) makes the board unfinishable exactly when every way from b to
      // the end passes a; then the denominator is 0. Rounding blurs 0: the near-zero ones are
      // settled by the board's own check.
      for (const b of suspects) {
        try {
          yield* compileSteps(withJump(board, a, b));
        } catch (error) {
          if (!(error instanceof BoardError)) throw error;
          effects[row + b] = NaN;
        }
      }
      if (work >= SLICE) { work = 0; yield; }
    }
  } finally {
    giveBack(lu.A);
  }
  return { n, minLength: shortestAsked, baseline, effects };
}

/**
 * `jumpEffectsSteps` in one call (the library's `jump_effects(board, min_length)`).
 * @param {any} board
 * @param {{minLength?: unknown}} [options]
 * @returns {JumpEffects}
 */
export function jumpEffects(board, options = {}) {
  return run(jumpEffectsSteps(board, options));
}

/**
 * Whether the jump a -> b works against its kind: a ladder (b > a) that lengthens the game or a
 * chute (b < a) that shortens it, by more than 1e-9 turns (the library's `surprising_jumps`).
 * @param {number} value Expected turns with the jump (NaN: no surprise).
 * @param {number} baseline
 * @param {number} a
 * @param {number} b
 */
export function isSurprise(value, baseline, a, b) {
  const change = value - baseline;
  return (b > a && change > SURPRISE) || (b < a && change < -SURPRISE);
}

/**
 * The squares where some jump may start (the rows with a priced jump), in order.
 * @param {JumpEffects} sweep
 * @returns {number[]}
 */
export function jumpSources(sweep) {
  const { n, effects } = sweep;
  const out = [];
  for (let a = 0; a <= n; a += 1) {
    for (let b = 0; b <= n; b += 1) {
      if (!Number.isNaN(effects[a * (n + 1) + b])) { out.push(a); break; }
    }
  }
  return out;
}

/**
 * The destinations of a priced jump from square a, in order.
 * @param {JumpEffects} sweep
 * @param {number} a
 * @returns {number[]}
 */
export function jumpDestinations(sweep, a) {
  const { n, effects } = sweep;
  const out = [];
  for (let b = 0; b <= n; b += 1) if (!Number.isNaN(effects[a * (n + 1) + b])) out.push(b);
  return out;
}

/** The first of `squares` nearest to `want`, a square above it winning a tie. */
function nearest(/** @type {number[]} */ squares, /** @type {number} */ want) {
  let best = squares[0];
  let bestScore = Infinity;
  for (const s of squares) {
    const score = Math.abs(s - want) + (s < want ? 0.5 : 0);
    if (score < bestScore) { best = s; bestScore = score; }
  }
  return best;
}

/**
 * The priced jump nearest to a -> b: first the source, then the destination from it (the
 * explorer's choice when its source moves, keeping b when it is allowed).
 * @param {JumpEffects} sweep
 * @param {number} a
 * @param {number} b
 * @returns {[number, number]}
 * @throws {BoardError} when no jump can be added at all.
 */
export function nearestJump(sweep, a, b) {
  const sources = jumpSources(sweep);
  if (!sources.length) throw new BoardError(noJumpWords(sweep.minLength, ""));
  const from = nearest(sources, a);
  return [from, nearest(jumpDestinations(sweep, from), b)];
}

/**
 * The explorer's refusal of a board where no jump can be added.
 * @param {number} minLength
 * @param {string} name The board's name ("" for none).
 */
export function noJumpWords(minLength, name) {
  return `no jump of at least min_length=${minLength} squares can be added to ` +
    `${name || "this board"}`;
}

/**
 * The line under the sliders: which jumps they skip, and why.
 * @param {number} size The final square.
 * @param {number} minLength
 */
export function skippedWords(size, minLength) {
  let text = "The sliders skip the jumps the rules refuse: none starts on 0, " +
    `${size} or an end of a jump already there, none ends where one starts`;
  if (minLength > 1) text += `, none is shorter than ${minLength} squares`;
  return `${text}.`;
}

/**
 * The explorer's words for the jump a -> b: the readout (whole, and in parts: `head`, `turns`,
 * `middle`, `changeText`, `surpriseText`, for a page that sets some in bold) and the announcement.
 * @param {JumpEffects} sweep
 * @param {number} a
 * @param {number} b
 */
export function jumpWords(sweep, a, b) {
  const { n, effects, baseline } = sweep;
  const value = effects[a * (n + 1) + b];
  const kind = b > a ? "ladder" : "chute";
  const change = value - baseline;
  const surprise = isSurprise(value, baseline, a, b);
  const head = `Adding the ${kind} ${a} \u2192 ${b}: expected turns `;
  const turns = pyFixed(value, 4);
  const middle = ` (board: ${pyFixed(baseline, 4)}), change `;
  // A change that rounds to nothing is said so, never with the sign of its rounding noise.
  const changeText = signed(change, 4).replace("-0.0000", "+0.0000");
  const size = pyFixed(Math.abs(change), 1);
  const than = size === "0.0" ? "about as long as now"
    : `${size} ${change > 0 ? "more" : "fewer"} than now`;
  const surpriseText = surprise
    ? `This ${kind} makes the game ${kind === "ladder" ? "longer" : "shorter"}.` : "";
  return {
    kind, value, change, surprise, head, turns, middle, changeText, surpriseText,
    readout: `${head}${turns}${middle}${changeText} turns.` +
      (surprise ? ` Surprise! ${surpriseText}` : ""),
    announcement: `The ${kind} ${a} to ${b}: expected length ${pyFixed(value, 1)} turns, ` +
      than + (surprise ? ". A surprise." : ""),
  };
}

/** Python's f"{x:+.{digits}f}". */
function signed(/** @type {number} */ x, digits = 2) {
  const text = pyFixed(x, digits);
  if (text.startsWith("-")) return text;
  return (x < 0 || Object.is(x, -0) ? "-" : "+") + text;
}

/** A picture's title, then what it shows (the library's `_titled`). */
function titled(/** @type {string} */ title, /** @type {string} */ sentence) {
  if (!title) return sentence.slice(0, 1).toUpperCase() + sentence.slice(1);
  if ("?!.".includes(title.trimEnd().slice(-1))) {
    return `${title} ${sentence.slice(0, 1).toUpperCase()}${sentence.slice(1)}`;
  }
  return `${title}: ${sentence}`;
}

/**
 * The heat map's title in the explorer.
 * @param {string} name The board's name ("" for none).
 */
export function heatMapTitle(name) {
  return `Adding one jump a -> b to ${name || "the board"}`;
}

/**
 * The heat map in words, as the library's `plot_jump_effects` describes it (with its surprises
 * hatched): its axes, the range of changes with the best and worst jump, and the surprises.
 * @param {JumpEffects} sweep
 * @param {string} title
 */
export function describeJumpEffects(sweep, title) {
  const { n, effects, baseline } = sweep;
  let text = titled(title, "a heat map of the change in expected turns when one jump a -> b is " +
    `added to a board of squares 0 to ${n} (source a up the side, destination b along the ` +
    "bottom, blank where no jump may be added)");
  // The first smallest and largest change, as numpy's nanargmin and nanargmax find them; the
  // page's prices differ from the library's in the last bits, so two changes within TIE of each
  // other count as equal (the first is named), as they are when the library's are equal.
  const tie = TIE * Math.max(1, Math.abs(baseline));
  let best = -1;
  let worst = -1;
  let surprises = 0;
  for (let i = 0; i < effects.length; i += 1) {
    const value = effects[i];
    if (Number.isNaN(value)) continue;
    if (best < 0 || value - baseline < effects[best] - baseline - tie) best = i;
    if (worst < 0 || value - baseline > effects[worst] - baseline + tie) worst = i;
    if (isSurprise(value, baseline, Math.floor(i / (n + 1)), i % (n + 1))) surprises += 1;
  }
  const jump = (/** @type {number} */ i) => {
    const a = Math.floor(i / (n + 1));
    const b = i % (n + 1);
    return `the ${b > a ? "ladder" : "chute"} ${a} -> ${b}`;
  };
  if (best >= 0) {
    text += `; from ${signed(effects[best] - baseline)} turns (${jump(best)}) to ` +
      `${signed(effects[worst] - baseline)} turns (${jump(worst)})`;
  }
  const counted = surprises === 1 ? "1 hatched square" : `${surprises || "no"} hatched squares`;
  text += `; ${counted} mark surprises, a ladder that lengthens the game or a chute that ` +
    "shortens it";
  return `${text}.`;
}

/**
 * The explorer's picture in words: the heat map's description, then the jump outlined on it.
 * @param {JumpEffects} sweep
 * @param {string} title
 * @param {number} a
 * @param {number} b
 */
export function describeExplorer(sweep, title, a, b) {
  const value = sweep.effects[a * (sweep.n + 1) + b];
  return `${describeJumpEffects(sweep, title)} The square outlined in black is your jump ` +
    `${a} -> ${b}: expected turns ${pyFixed(value, 4)}.`;
}
