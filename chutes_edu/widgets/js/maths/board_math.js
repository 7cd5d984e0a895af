/**
 * The board maths of `chutes_edu` in plain JavaScript, for the board editor: the same answers as
 * the Python library (`chutes_edu.board`, `chutes_edu.markov`), computed in the page with no
 * kernel. No dependencies, no DOM: it runs in a browser and in Node 20.
 *
 * The board is a plain object, the one JSON format shared by the widget state, the page address
 * and the test fixtures:
 *
 *     {"size": 100, "die": 6, "overshoot": "stay", "bonus_roll": null,
 *      "jumps": [[1, 38], [4, 14]], "traps": []}
 *
 * `die` is a number of faces m (a fair die with faces 1..m) or non-negative weights of faces
 * 1..len; `overshoot` is "stay" | "win" | "bounce" | "stop_short"; `bonus_roll` is null or a face
 * that rolls again in the same turn unless the game has ended; `jumps` are [source, destination]
 * pairs; `traps` are squares where the game also ends.
 *
 * The maths (see the Python modules' docstrings for the derivations):
 *
 * - One roll of face r from square s ends on l(s, r): the overshoot rule past the final square n,
 *   then at most one jump. The final square and the traps absorb. Face r has probability
 *   p_r = w_r / sum_k w_k; the weights are first scaled by one power of two (exact) so that the
 *   largest lies in [1, 2), so their sum never overflows (weights 1e308, 1e308 give 1/2 each).
 * - Expected turns t solve the roll-by-roll system (I - B_Q) t = c, where B is the one-roll matrix
 *   over the transient squares and c_s = 1 - p_f when the bonus face f leaves the game going on
 *   from s, else 1 (a roll ends its turn unless it is a bonus roll after which play goes on).
 *   Without a bonus face this is the first-step system (I - Q) t = 1 itself.
 * - One turn maps a distribution v over the squares to v P with
 *   P = (I - F_on)^-1 (B_other + F_end): the bonus rolls that keep the game going are summed as a
 *   geometric series, exactly, with no depth cut (F_on has at most one entry per row, so the
 *   solve is one pass over a functional graph, plus a closed form on each of its cycles).
 * - P(T = k) is the mass that reaches an absorbing square on turn k; the pmf grows until what is
 *   left is below `tail`, with the library's stopping rule.
 * - How long the pmf must be is known before a single turn is taken, as the library knows it:
 *   from any square P(T > 2 t_max) <= 1/2 (Markov), so 2 t_max ceil(log2(1/tail)) turns always
 *   suffice; when that bound is too long, the tail decays like rho^k, rho the spectral radius of
 *   the turn matrix Q over the transient squares, so about log(tail) / log(rho) terms are needed.
 *   Since I - Q = (I - F_on)^-1 (I - B_Q), N = (I - Q)^-1 = (I - B_Q)^-1 (I - F_on) is
 *   nonnegative with spectral radius 1 / (1 - rho): rho comes from power iteration on N, reusing
 *   the LU factors of the expected-turns solve (inverse iteration, fast exactly when rho is near
 *   1, which is when it is needed). A board whose pmf needs more than `MAX_TURNS` terms is
 *   refused in the library's words; one whose pmf would cost the page more than `LIMITS.work`
 *   steps is refused in the page's words (the expected turns are still given).
 *
 * Invalid boards are refused with the message, word for word, that `Board(...)` raises as
 * ValueError for the same board. Values in messages are written as Python's repr writes them
 * (`pyRepr`), except that JSON cannot tell 2.0 from 2: whole numbers are written as ints. Every
 * message is one line of at most `LIMITS.message` characters (`refusalLine`).
 *
 * Limits (`LIMITS`), all checked before any table is built: the page computes boards of up to
 * 1,000 squares and dice of up to 1,000 faces, and reads addresses of up to 100,000 characters.
 *
 * Cost and the page's thread: `analyseInSteps` is a generator that does all the work of
 * `analyse` and yields after every slice of about 25,000 elementary operations (a fraction of a
 * millisecond), inside every loop that can grow with the board or the die: checking and building
 * the board, the reachability check, the elimination and back substitution, the power iteration,
 * each turn of the pmf, the shortest game and the summaries. A page runs it a few milliseconds at
 * a time and drops it when the board changes. One turn costs O(n) for a fair die of any size
 * (the plain moves onto a square are a window of the distribution, read from prefix sums) and
 * O(n faces) for a weighted one; the overshoot of all faces past the final square is one move
 * per square. The solve stores an n x n matrix (8 MB at 1,000 squares, kept between solves).
 *
 * @module board_math
 */
import { formatG, pyFloat, pyNumber, pyRepr, pyString } from "../core/format.js";
import { bandedSolveSteps, giveBack, luSolveSteps, takeMatrix } from "../core/solve.js";
import { said } from "../core/i18n.js";
import { run, SLICE } from "../core/steps.js";

/** @typedef {import("../core/solve.js").Factors} Factors */

/** The overshoot rules, in the library's order. */
export const OVERSHOOT_RULES = Object.freeze(["stay", "win", "bounce", "stop_short"]);

/** The unfinished probability that `turnDistribution` may leave out by default (the library's). */
export const TAIL = 1e-12;

/** The longest pmf `turnDistribution` builds by default (the library's `MAX_TURNS`). */
export const MAX_TURNS = 10_000_000;

/** Boards up to this size take the library's dense path, above it its sparse one: their
 * refusals of a slow distribution are worded differently (the library's `DENSE_MAX`). */
export const DENSE_MAX = 200;

/** The most square-turns the library's sparse path steps (the library's `DISTRIBUTION_WORK`). */
export const DISTRIBUTION_WORK = 5e10;

/**
 * What the page computes, checked before anything is allocated (the library has no such limits;
 * a board beyond them is refused in the page's words, naming the library instead):
 *
 * - `size`: squares of a board (the editor's largest board, 1,000 squares: the solve stores an
 *   n x n matrix, 8 MB).
 * - `faces`: faces of a die. 1,000, as many as the largest board has squares: on the largest
 *   board every face still reaches a square of its own, a bigger die only repeats the overshoot
 *   of faces past the final square (one move per square), and the page's tables stay at
 *   (size + 1) x faces = 10^6 entries at most.
 * - `jumps`, `traps`: entries in the lists (a valid board has at most size - 1 of either).
 * - `address`: characters of a board address read by `decodeBoard` (a board of 1,000 squares
 *   with 999 jumps and 1,000 written weights takes about 30,000).
 * - `message`: characters of a refusal, which is always one line (`refusalLine`).
 * - `work`: the most steps (multiply-adds) that `analyse` spends on the pmf, about half a second
 *   in Node; a board that needs more has its distribution refused in words.
 */
export const LIMITS = Object.freeze({
  size: 1000,
  faces: 1000,
  jumps: 1000,
  traps: 1000,
  address: 100_000,
  message: 300,
  work: 3e8,
});

/** The longest repr put into a message: beyond it, refusalLine cuts the line anyway. */
const REPR_CAP = 2 * LIMITS.message;

/** An invalid board or argument; `message` is the library's ValueError message, as one line. */
export class BoardError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(refusalLine(message));
    this.name = "BoardError";
  }
}

/**
 * @typedef {object} BoardJSON
 * @property {number} [size] The final square n (default 100).
 * @property {number | number[]} [die] Faces of a fair die, or weights of faces 1..len (default 6).
 * @property {string} [overshoot] One of OVERSHOOT_RULES (default "stay").
 * @property {number | null} [bonus_roll] The face that rolls again, or null.
 * @property {Array<[number, number]>} [jumps] [source, destination] pairs.
 * @property {number[]} [traps] Squares where the game ends early.
 */

/**
 * @typedef {object} LengthSummary
 * @property {number} mean Sum of k P(T = k).
 * @property {number | null} median The first k with P(T <= k) >= 1/2.
 * @property {number} mode The first k where P(T = k) is largest.
 * @property {number | null} shortest The shortest game in turns.
 * @property {Float64Array} cdf P(T <= k) for each k.
 */

/**
 * @typedef {{error: string} | {expected: Float64Array, pmf: Float64Array | null,
 *     summary: LengthSummary | null, edge: number | null, lengthError: string | null}} Analysis
 *     What `analyse` gives: `{error}` for a refused board; else the expected turns from each
 *     square and, unless `lengthError` says why the distribution is refused, the pmf of the
 *     game length from square 0, its summary and the first mover's edge (null with traps).
 */

// --------------------------------------------------------------------------- Python's text
// The messages must be the library's word for word, so values are written as Python's repr
// writes them (core/format.js). JSON cannot tell 2 from 2.0, so whole numbers are written as ints.

/**
 * A die weight as Python writes it: as `pyNumber`, except that a whole number of 1e16 or more is
 * written as the float it almost surely was (JSON cannot tell; Python's json.dumps writes such
 * floats as 1e+16, and an int weight that big is rare): `w1e308_1e308` is `die=(1e+308, 1e+308)`.
 * @param {number} w
 */
function pyWeight(w) {
  return Number.isInteger(w) && Math.abs(w) >= 1e16 ? pyFloat(w) : pyNumber(w);
}

/** Python's str.splitlines boundaries. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: Python splits lines at these controls too
const LINE_BREAKS = /[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]+/g;

/**
 * A message as one line of at most `max` characters (code points): each run of line breaks
 * becomes a space, and a longer line is cut to `max - 1` characters and an ellipsis "…".
 * Every BoardError message goes through it, so an alert or a status line stays short.
 * @param {unknown} message
 * @param {number} [max]
 * @returns {string}
 */
export function refusalLine(message, max = LIMITS.message) {
  const most = Math.max(1, Math.floor(Number.isFinite(max) ? max : LIMITS.message));
  const text = String(message).replace(LINE_BREAKS, " ");
  if (text.length <= most) return text;             // code units >= code points
  let count = 0;                                     // code points before index i
  let cut = 0;                                       // code units of the first most - 1 points
  for (let i = 0; i < text.length; count += 1) {
    if (count === most - 1) cut = i;
    if (count === most) return `${text.slice(0, cut)}…`;
    i += /** @type {number} */ (text.codePointAt(i)) > 0xffff ? 2 : 1;
  }
  return text;
}

/**
 * Sorted squares written compactly, as the library's `_ranges`: "3, 5-9, 12".
 * @param {Iterable<number>} squares
 * @returns {string}
 */
export function ranges(squares) {
  const items = [...new Set(squares)].sort((a, b) => a - b);
  const parts = [];
  for (let i = 0; i < items.length;) {
    let j = i;
    while (j + 1 < items.length && items[j + 1] === items[j] + 1) j += 1;
    parts.push(i === j ? `${items[i]}` : `${items[i]}-${items[j]}`);
    i = j + 1;
  }
  return parts.join(", ");
}

// --------------------------------------------------------------------------- the page's limits
/** A count in the page's words: whole, or about so many when it is too big to write out. */
const count = (/** @type {number} */ x) => (x < 1e15 ? pyNumber(x) : `about ${formatG(x, 3)}`);
const sizeTooBig = (/** @type {number} */ size) =>
  `size ${count(size)} is too big for the page ` +
  `(it computes boards of up to ${LIMITS.size} squares); the library takes bigger boards`;
const dieTooBig = (/** @type {number} */ faces) =>
  `a die of ${count(faces)} faces is too big for the ` +
  `page (it computes dice of up to ${LIMITS.faces} faces); the library takes bigger dice`;
const tooMany = (/** @type {string} */ what, /** @type {number} */ count,
  /** @type {number} */ most) =>
  `${count} ${what} are too many for the page (it takes up to ${most}; a board of n squares ` +
  `has at most n - 1)`;

// --------------------------------------------------------------------------- checking a board
const isWhole = (/** @type {unknown} */ v) => typeof v === "number" && Number.isInteger(v);

/** The value as a whole number, or BoardError naming `what` (the library's `_square`). */
export function square(/** @type {unknown} */ value, /** @type {string} */ what) {
  if (!isWhole(value)) {
    throw new BoardError(`${what} must be a whole number, not ${pyRepr(value, REPR_CAP)}`);
  }
  return /** @type {number} */ (value);
}

/**
 * What Python's `iter(value)` would give for a JSON value, or null if it is not iterable
 * (strings give their characters, objects their keys): at most `most` + 1 items of a string,
 * which is all that its callers look at (they refuse more than `most`).
 * @param {unknown} value
 * @param {number} [most]
 * @returns {unknown[] | null}
 */
function pyIter(value, most = Infinity) {
  if (Array.isArray(value)) return value;
  if (typeof value === "string") {
    const items = [];
    for (const ch of value) {
      if (items.length > most) break;
      items.push(ch);
    }
    return items;
  }
  if (value !== null && typeof value === "object") return Object.keys(value);
  return null;
}

/** The number of characters (code points) of a string, with no array built. */
function codePoints(/** @type {string} */ text) {
  let count = text.length;
  for (let i = 0; i + 1 < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code < 0xdc00) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low < 0xe000) { count -= 1; i += 1; }
    }
  }
  return count;
}

/**
 * Face probabilities from weights: p_r = w_r / sum_k w_k, the weights first multiplied by the
 * power of two that puts the largest in [1, 2). That scaling is exact, so the probabilities are
 * those of w / sum w whenever that sum is finite, and the sum can no longer overflow (1e308 and
 * 1e308 give 1/2 and 1/2, as the library's exact fractions do).
 * @param {number[]} weights Finite, non-negative, not all zero.
 * @returns {Float64Array}
 */
function normalised(weights) {
  let largest = 0;
  for (const w of weights) if (w > largest) largest = w;
  const shift = -Math.floor(Math.log2(largest));
  const half = Math.trunc(shift / 2);               // 2^1074 itself would overflow
  const a = 2 ** half;
  const b = 2 ** (shift - half);
  const scaled = Float64Array.from(weights, (w) => (w * a) * b);
  let total = 0;
  for (const w of scaled) total += w;
  return scaled.map((w) => w / total);
}

/** The die's face probabilities (the library's `_parse_die`); throws BoardError. */
function parseDie(/** @type {unknown} */ die) {
  if (typeof die === "boolean") {
    throw new BoardError(
      `die must be a number of faces or a sequence of weights, not ${pyRepr(die)}`);
  }
  if (isWhole(die)) {
    const faces = /** @type {number} */ (die);
    if (faces < 1) throw new BoardError(`die must have at least 1 face, got ${pyNumber(faces)}`);
    if (faces > LIMITS.faces) throw new BoardError(dieTooBig(faces));
    return new Float64Array(faces).fill(1 / faces);
  }
  const weights = typeof die === "string" ? null : pyIter(die);
  if (weights === null) {
    throw new BoardError(
      `die must be a number of faces or a sequence of weights, not ${pyRepr(die, REPR_CAP)}`);
  }
  if (weights.length < 1) {
    throw new BoardError("die must have at least 1 face: the weight sequence is empty");
  }
  if (weights.length > LIMITS.faces) throw new BoardError(dieTooBig(weights.length));
  const bad = [];
  for (let i = 0; i < weights.length; i += 1) {
    const w = weights[i];
    const label = `face ${i + 1}: ${typeof w === "number" ? pyWeight(w) : pyRepr(w, REPR_CAP)}`;
    if (typeof w !== "number") bad.push(`${label} is not a number`);
    else if (!Number.isFinite(w)) bad.push(`${label} is not finite`);
    else if (w < 0) bad.push(`${label} is negative`);
  }
  if (bad.length) throw new BoardError(`bad die weights (${bad.join("; ")})`);
  const numbers = /** @type {number[]} */ (weights);
  if (numbers.every((w) => w === 0)) {
    throw new BoardError(`die weights are all zero: ${pyRepr(numbers, REPR_CAP)}`);
  }
  return normalised(numbers);
}

/** The jumps as a Map (the library's `_check_jumps`); throws BoardError. */
function checkJumps(/** @type {unknown} */ jumps, /** @type {number} */ size) {
  /** @type {Map<number, number>} */
  const clean = new Map();
  if (jumps === null || jumps === undefined) return clean;
  let pairs;
  if (typeof jumps === "object" && !Array.isArray(jumps)) {
    pairs = Object.entries(jumps);          // a mapping {source: destination}
  } else {
    pairs = pyIter(jumps, LIMITS.jumps);
    if (pairs === null) {                    // Python raises TypeError here, not ValueError
      throw new BoardError(`jumps must be a list of (source, destination) pairs, ` +
        `not ${pyRepr(jumps, REPR_CAP)}`);
    }
  }
  if (pairs.length > LIMITS.jumps) {
    throw new BoardError(tooMany("jumps", typeof jumps === "string" ? codePoints(jumps)
      : pairs.length, LIMITS.jumps));
  }
  const problems = [];
  for (const pair of pairs) {
    const items = pyIter(pair, 2);
    if (items === null || items.length !== 2) {
      throw new BoardError(`a jump must be a (source, destination) pair, ` +
        `not ${pyRepr(pair, REPR_CAP)}`);
    }
    const a = square(items[0], `jump source ${pyRepr(items[0], REPR_CAP)}`);
    const b = square(items[1], `jump destination ${pyRepr(items[1], REPR_CAP)} (from ${pyNumber(a)})`);
    if (clean.has(a)) {
      problems.push(`square ${pyNumber(a)} has two jumps (${pyNumber(a)}->` +
        `${pyNumber(/** @type {number} */ (clean.get(a)))} and ${pyNumber(a)}->${pyNumber(b)})`);
    }
    clean.set(a, b);
  }
  const entries = [...clean.entries()];
  const arrow = (/** @type {[number, number]} */ [a, b]) => `${pyNumber(a)}->${pyNumber(b)}`;
  const off = entries.filter(([a, b]) => !(a >= 0 && a <= size && b >= 0 && b <= size));
  if (off.length) {
    problems.push(`jumps off the board (squares are 0..${size}): ${off.map(arrow).join(", ")}`);
  }
  const ends = entries.filter(([a]) => a === 0 || a === size);
  if (ends.length) {
    problems.push(`jumps cannot start on square 0 or the final square ${size}: ` +
      ends.map(arrow).join(", "));
  }
  const selfs = entries.filter(([a, b]) => a === b);
  if (selfs.length) problems.push(`jumps onto their own square: ${selfs.map(arrow).join(", ")}`);
  const chains = entries.filter(([a, b]) => clean.has(b) && a !== b).map(([a, b]) =>
    `${arrow([a, b])} lands on the source of ${arrow([b, /** @type {number} */ (clean.get(b))])}` +
    (clean.get(b) === a ? " (a loop)" : ""));
  if (chains.length) problems.push(`chained jumps: ${chains.join("; ")}`);
  if (problems.length) throw new BoardError(`invalid jumps: ${problems.join("; ")}`);
  return clean;
}

/** The sorted traps (the library's `_check_traps`); throws BoardError. */
function checkTraps(/** @type {unknown} */ traps, /** @type {number} */ size,
  /** @type {Map<number, number>} */ jumps) {
  if (traps === undefined) return [];
  const items = typeof traps === "string" ? null : pyIter(traps);
  if (items === null) {
    throw new BoardError(`traps must be a collection of squares, e.g. traps=(5,), ` +
      `not ${pyRepr(traps, REPR_CAP)}`);
  }
  if (items.length > LIMITS.traps) throw new BoardError(tooMany("traps", items.length, LIMITS.traps));
  const squares = [...new Set(items.map((v) => square(v, `trap ${pyRepr(v, REPR_CAP)}`)))]
    .sort((a, b) => a - b);
  const problems = [];
  const off = squares.filter((v) => v < 0 || v > size);
  if (off.length) {
    problems.push(`traps off the board (squares are 0..${size}): ${off.map(pyNumber).join(", ")}`);
  }
  if (squares.includes(0)) {
    problems.push("square 0 (where every token starts) cannot be a trap");
  }
  if (squares.includes(size)) {
    problems.push(`the final square ${size} cannot be a trap (it ends the game anyway)`);
  }
  const sources = squares.filter((v) => jumps.has(v))
    .map((v) => `${v} (the jump ${v}->${jumps.get(v)})`);
  if (sources.length) problems.push(`a trap cannot be a jump's source: ${sources.join(", ")}`);
  if (problems.length) throw new BoardError(`invalid traps: ${problems.join("; ")}`);
  return squares;
}

/**
 * @typedef {object} Model
 * @property {number} n The final square.
 * @property {number} m The number of faces.
 * @property {string} overshoot The overshoot rule.
 * @property {Float64Array} probs Face probabilities, probs[r - 1] for face r.
 * @property {Uint8Array} positive 1 for each face with weight.
 * @property {number | null} bonus The bonus face or null.
 * @property {number} pf The bonus face's probability (0 without one).
 * @property {Float64Array} chance chance[r]: probability of face r if it has weight and is not
 *     the bonus face, else 0 (1-based, zero up to index 13 at least).
 * @property {Float64Array} over over[r] = sum of chance[k] for k >= r (zero past the die).
 * @property {Int32Array} jump jump[s]: where a move that ends on s goes (s itself if no jump).
 * @property {Uint8Array} end 1 on the absorbing squares.
 * @property {number[]} traps Sorted trap squares.
 * @property {Int32Array} rowStart The moves of square s are rowStart[s]..rowStart[s+1]-1 in
 *     `dest` and `moveChance`: every roll of a face with weight other than the bonus face,
 *     gathered by the square it ends on (none from an absorbing square).
 * @property {Int32Array} dest Where each gathered move ends.
 * @property {Float64Array} moveChance The probability of each gathered move.
 * @property {Int32Array} bonusTo Where the bonus face leads from s (-1 without a bonus face or
 *     on an absorbing square).
 * @property {Int32Array} onward bonusTo[s] where the game goes on after it (F_on), else -1.
 */

/**
 * Where one roll of face r from square s ends (the library's `_landings`), for a face that the
 * rules allow ("bounce" never meets a face larger than the board here).
 */
export function landing(/** @type {number} */ n, /** @type {string} */ overshoot,
  /** @type {Int32Array} */ jump, /** @type {number} */ s, /** @type {number} */ r) {
  const target = s + r;
  if (target <= n) return jump[target];
  if (overshoot === "stay") return s;                // a lost move fires no jump
  if (overshoot === "win") return n;
  if (overshoot === "bounce") return jump[2 * n - target];
  return jump[n - 1];                                // stop_short
}

/**
 * The moves of square s by the faces other than the bonus face, gathered by the square each
 * ends on: `gathered[t]` is the chance of ending on t, `reached[0..k-1]` those squares in the
 * order first reached; returns k. The faces past the final square are one move ("stay", "win",
 * "stop_short"), or one each ("bounce").
 */
function gatherMoves(/** @type {number} */ n, /** @type {number} */ m,
  /** @type {string} */ overshoot, /** @type {Int32Array} */ jump,
  /** @type {Float64Array} */ chance, /** @type {Float64Array} */ over, /** @type {number} */ s,
  /** @type {Float64Array} */ gathered, /** @type {Int32Array} */ reached) {
  let k = 0;
  const aimed = Math.min(m, n - s);                  // faces that stay on the board
  for (let r = 1; r <= aimed; r += 1) {
    const c = chance[r];
    if (c === 0) continue;
    const t = jump[s + r];
    if (gathered[t] === 0) reached[k++] = t;
    gathered[t] += c;
  }
  if (m <= n - s) return k;
  if (overshoot === "bounce") {                      // faces past the final square
    for (let r = n - s + 1; r <= m; r += 1) {
      const c = chance[r];
      if (c === 0) continue;
      const t = jump[2 * n - s - r];
      if (gathered[t] === 0) reached[k++] = t;
      gathered[t] += c;
    }
  } else if (over[n - s + 1] > 0) {
    const t = landing(n, overshoot, jump, s, n - s + 1);
    if (gathered[t] === 0) reached[k++] = t;
    gathered[t] += over[n - s + 1];
  }
  return k;
}

/**
 * @typedef {object} Checked
 * @property {number} n
 * @property {string} overshoot
 * @property {Float64Array} probs
 * @property {Uint8Array} positive
 * @property {Map<number, number>} jumps
 * @property {number[]} traps
 * @property {number | null} bonus
 */

/**
 * Check a board in the order the `Board` constructor checks it, every limit before anything is
 * built: a work of at most about LIMITS.faces + LIMITS.jumps + LIMITS.traps steps.
 * @param {BoardJSON} board
 * @returns {Checked}
 * @throws {BoardError} with the library's message (or the page's, beyond LIMITS).
 */
function checkBoard(board) {
  if (board === null || typeof board !== "object" || Array.isArray(board)) {
    throw new BoardError(`a board must be an object with the fields size, die, overshoot, ` +
      `bonus_roll, jumps and traps, not ${pyRepr(board, REPR_CAP)}`);
  }
  const n = square(board.size === undefined ? 100 : board.size, "size");
  if (n < 2) throw new BoardError(`size must be at least 2 (squares 0..size), got ${pyNumber(n)}`);
  if (n > LIMITS.size) throw new BoardError(sizeTooBig(n));
  const overshoot = board.overshoot === undefined ? "stay" : board.overshoot;
  if (typeof overshoot !== "string" || !OVERSHOOT_RULES.includes(overshoot)) {
    throw new BoardError(`unknown overshoot rule ${pyRepr(overshoot, REPR_CAP)}; choose one of ` +
      OVERSHOOT_RULES.map((rule) => pyString(rule)).join(", "));
  }
  const probs = parseDie(board.die === undefined ? 6 : board.die);
  const jumps = checkJumps(board.jumps, n);
  const traps = checkTraps(board.traps, n, jumps);
  const m = probs.length;
  const dieWeights = board.die === undefined || isWhole(board.die) ? null
    : /** @type {number[]} */ (board.die);
  // Whether a face has weight comes from its weight, not its float probability (which can
  // underflow to 0 where the library's exact fraction is positive).
  const positive = Uint8Array.from(probs, (p, i) => (dieWeights ? dieWeights[i] > 0 : p > 0) ? 1 : 0);
  let bonus = board.bonus_roll === undefined ? null : board.bonus_roll;
  if (bonus !== null) {
    bonus = square(bonus, "bonus_roll");
    if (!(bonus >= 1 && bonus <= m) || !positive[bonus - 1]) {
      const withWeight = [];
      for (let r = 1; r <= m; r += 1) if (positive[r - 1]) withWeight.push(r);
      throw new BoardError(`bonus_roll=${pyNumber(bonus)}: the die has no face ${pyNumber(bonus)} ` +
        `(its faces with weight are ${ranges(withWeight)})`);
    }
    if (positive.reduce((count, p) => count + p, 0) === 1) {
      throw new BoardError(`bonus_roll=${bonus}: every roll shows ${bonus}, ` +
        "so a turn would never end");
    }
  }
  if (overshoot === "bounce") {
    const tooBig = [];
    for (let r = n + 1; r <= m; r += 1) if (positive[r - 1]) tooBig.push(r);
    if (tooBig.length) {
      throw new BoardError(`overshoot='bounce' cannot walk back faces larger than the board ` +
        `(size ${n}): faces ${ranges(tooBig)}`);
    }
  }
  return { n, overshoot, probs, positive, jumps, traps, bonus };
}

/**
 * Check a board and build its model (`checkBoard`, then the tables, then the library's check
 * that every square can finish). Yields every SLICE operations.
 * @param {BoardJSON} board
 * @returns {Generator<void, Model, void>}
 * @throws {BoardError} with the library's message (or the page's, beyond LIMITS).
 */
export function* compileSteps(board) {
  const { n, overshoot, probs, positive, jumps, traps, bonus } = checkBoard(board);
  const m = probs.length;
  // The tables: at most (n + 1) x min(faces, n + 1) moves, all within LIMITS.
  const f = bonus ?? 0;
  const pf = f ? probs[f - 1] : 0;
  const end = new Uint8Array(n + 1);
  for (const v of traps) end[v] = 1;
  end[n] = 1;
  const jump = new Int32Array(n + 1);
  for (let s = 0; s <= n; s += 1) jump[s] = s;
  for (const [a, b] of jumps) jump[a] = b;
  const chance = new Float64Array(Math.max(m + 2, 14));
  for (let r = 1; r <= m; r += 1) chance[r] = positive[r - 1] && r !== f ? probs[r - 1] : 0;
  const over = new Float64Array(m + 2);
  for (let r = m; r >= 1; r -= 1) over[r] = over[r + 1] + chance[r];
  const bonusTo = new Int32Array(n + 1).fill(-1);
  const onward = new Int32Array(n + 1).fill(-1);
  for (let s = 0; s <= n; s += 1) {
    if (!f || end[s]) continue;
    bonusTo[s] = landing(n, overshoot, jump, s, f);
    if (!end[bonusTo[s]]) onward[s] = bonusTo[s];
  }
  const rowStart = new Int32Array(n + 2);
  let dest = new Int32Array((n + 1) * Math.min(m + 1, 8));
  let moveChance = new Float64Array(dest.length);
  let count = 0;
  const gathered = new Float64Array(n + 1);         // the chance of each square reached so far
  const reached = new Int32Array(n + 1);            // those squares, in the order first reached
  let work = 0;
  for (let s = 0; s <= n; s += 1) {
    rowStart[s] = count;
    if (end[s]) continue;
    const k = gatherMoves(n, m, overshoot, jump, chance, over, s, gathered, reached);
    if (count + k > dest.length) {
      const longer = new Int32Array(2 * (count + k));
      longer.set(dest);
      dest = longer;
      const chances = new Float64Array(longer.length);
      chances.set(moveChance);
      moveChance = chances;
    }
    for (let i = 0; i < k; i += 1) {
      const t = reached[i];
      dest[count] = t;
      moveChance[count++] = gathered[t];
      gathered[t] = 0;
    }
    work += Math.min(m, n - s + 1) + (overshoot === "bounce" ? m - (n - s) : 0) + k;
    if (work >= SLICE) { work = 0; yield; }
  }
  rowStart[n + 1] = count;
  /** @type {Model} */
  const model = { n, m, overshoot, probs, positive, bonus, pf, chance, over, jump, end, traps,
    rowStart, dest: dest.subarray(0, count), moveChance: moveChance.subarray(0, count),
    bonusTo, onward };
  const ok = yield* canFinishSteps(model);
  const stuck = [];
  for (let s = 0; s <= n; s += 1) if (!ok[s]) stuck.push(s);
  if (stuck.length) {
    const goal = traps.length ? `neither the final square ${n} nor a trap can ever`
      : `the final square ${n} can never`;
    throw new BoardError(`unfinishable board: ${goal} be reached from squares ${ranges(stuck)}`);
  }
  return model;
}

/**
 * `ok[s]`: an absorbing square can be reached from s by rolls of faces with weight: one
 * breadth-first search backwards from the absorbing squares (the library's `_can_finish`).
 * @param {Model} model
 * @returns {Generator<void, Uint8Array, void>}
 */
function* canFinishSteps(model) {
  const { n, rowStart, dest, bonusTo, end } = model;
  const count = new Int32Array(n + 2);
  let work = 0;
  for (let s = 0; s <= n; s += 1) {
    for (let i = rowStart[s]; i < rowStart[s + 1]; i += 1) if (dest[i] !== s) count[dest[i] + 1] += 1;
    if (bonusTo[s] >= 0 && bonusTo[s] !== s) count[bonusTo[s] + 1] += 1;
    work += rowStart[s + 1] - rowStart[s] + 1;
    if (work >= SLICE) { work = 0; yield; }
  }
  for (let t = 0; t <= n; t += 1) count[t + 1] += count[t];
  const into = new Int32Array(count[n + 1]);        // into[count[t]..]: squares moving to t
  const fill = count.slice(0, n + 1);
  for (let s = 0; s <= n; s += 1) {
    for (let i = rowStart[s]; i < rowStart[s + 1]; i += 1) if (dest[i] !== s) into[fill[dest[i]]++] = s;
    if (bonusTo[s] >= 0 && bonusTo[s] !== s) into[fill[bonusTo[s]]++] = s;
    work += rowStart[s + 1] - rowStart[s] + 1;
    if (work >= SLICE) { work = 0; yield; }
  }
  const ok = new Uint8Array(n + 1);
  const queue = new Int32Array(n + 1);
  let head = 0;
  let tail = 0;
  for (let s = 0; s <= n; s += 1) if (end[s]) { ok[s] = 1; queue[tail++] = s; }
  while (head < tail) {
    const t = queue[head++];
    for (let i = count[t]; i < count[t + 1]; i += 1) {
      const s = into[i];
      if (!ok[s]) { ok[s] = 1; queue[tail++] = s; }
    }
    work += count[t + 1] - count[t] + 1;
    if (work >= SLICE) { work = 0; yield; }
  }
  return ok;
}

/**
 * Check a board with the library's rules (and the page's LIMITS).
 * @param {BoardJSON} board
 * @returns {string | null} null for a valid board, else the one-line message that `Board(...)`
 *     raises as ValueError for the same board, word for word (cut by `refusalLine`), or the
 *     page's words for a board beyond LIMITS.
 */
export function validate(board) {
  try {
    run(compileSteps(board));
    return null;
  } catch (error) {
    if (error instanceof BoardError) return error.message;
    throw error;
  }
}

/** A square on the board, or BoardError naming `what` (the library's `_on_board`). */
export function onBoard(/** @type {Model} */ model, /** @type {unknown} */ value,
  /** @type {string} */ what) {
  const s = square(value, what);
  if (s < 0 || s > model.n) {
    throw new BoardError(`${what} ${pyNumber(s)} is off the board (squares 0..${model.n})`);
  }
  return s;
}

// --------------------------------------------------------------------------- expected turns
/**
 * Solve (I - B_Q) t = c over the squares 0..n-1 (a trap's row is t_v = 0), keeping the factors.
 *
 * I - B_Q is a nonsingular M-matrix, weakly diagonally dominant by rows, so Gaussian elimination
 * needs no pivoting and stays stable (growth factor at most 2). Without pivoting the elimination
 * keeps the board's structure: a roll moves at most `faces` squares forward, so the matrix is
 * banded apart from the few columns that jumps lead to. The rows are stored dense but every loop
 * runs over the nonzero span only (core/solve.js's `bandedSolveSteps`), so a board without
 * chutes costs O(n faces) and each chute adds work in proportion to its length. The multipliers
 * are kept in place of the zeros they make, so later solves with the same matrix
 * (`luSolveSteps`) cost one pass each.
 * @param {Model} model
 * @returns {Generator<void, {t: Float64Array, lu: Factors}, void>} t of length n + 1.
 */
export function* solveSteps(model) {
  const { n, end, rowStart, dest, moveChance, onward, bonusTo, pf } = model;
  const A = takeMatrix(n);
  const rhs = new Float64Array(n);
  const rowEnd = new Int32Array(n);        // the last column with a nonzero entry in each row
  const colEnd = new Int32Array(n);        // the last row with a nonzero entry in each column
  let work = 0;
  for (let s = 0; s < n; s += 1) {
    const row = s * n;
    A[row + s] = 1;
    rowEnd[s] = s;
    if (colEnd[s] < s) colEnd[s] = s;
    if (end[s]) continue;
    rhs[s] = 1;
    let leave = 0;                         // the chance of leaving s, for the diagonal
    let stays = false;
    for (let i = rowStart[s]; i < rowStart[s + 1]; i += 1) {
      const t = dest[i];
      if (t === s) stays = true;
      else leave += moveChance[i];
      if (end[t] || t === s) continue;
      A[row + t] -= moveChance[i];
      if (t > rowEnd[s]) rowEnd[s] = t;
      if (s > colEnd[t]) colEnd[t] = s;
    }
    const t = onward[s];
    if (t >= 0) {                          // a bonus roll after which the game goes on
      if (t === s) stays = true;
      else {
        A[row + t] -= pf;
        if (t > rowEnd[s]) rowEnd[s] = t;
        if (s > colEnd[t]) colEnd[t] = s;
      }
      rhs[s] = 1 - pf;
    }
    if (bonusTo[s] >= 0 && bonusTo[s] !== s) leave += pf;
    // 1 - P(s -> s) as the sum of the chances of leaving: no cancellation when staying is
    // nearly certain (a weight of 1e-7 for the one face that moves on).
    if (stays) A[row + s] = leave;
    work += rowStart[s + 1] - rowStart[s] + 1;
    if (work >= SLICE) { work = 0; yield; }
  }
  const t = new Float64Array(n + 1);
  const lu = yield* bandedSolveSteps(A, rhs, rowEnd, colEnd, t, work);
  for (const v of model.traps) t[v] = 0;   // exactly, as the library
  return { t, lu };
}

/**
 * The growth 1 / (1 - rho) of the slowest mode, rho the spectral radius of the turn matrix Q over
 * the transient squares: the spectral radius of N = (I - Q)^-1 = (I - B_Q)^-1 (I - F_on), by
 * power iteration from the vector of ones. N is nonnegative, so each step brackets it between
 * the average growth sum(Nx) / sum(x) and the largest growth max (Nx)_i / x_i (Collatz-Wielandt,
 * over the entries that carry weight); it stops when they agree to 1e-10 (the average is then
 * the answer), or after 200 steps or 5e7 operations (about 50 ms), giving the largest growth, an
 * overestimate: a slow board's pmf is then refused a little sooner than it must be).
 * @param {Model} model
 * @param {Factors} lu
 * @returns {Generator<void, number, void>}
 */
function* slowestGrowthSteps(model, lu) {
  const { n, end, onward, pf } = model;
  let x = new Float64Array(n);
  let z = new Float64Array(n);
  let live = 0;
  for (let s = 0; s < n; s += 1) if (!end[s]) { x[s] = 1; live += 1; }
  for (let s = 0; s < n; s += 1) x[s] /= live;
  let largest = Infinity;
  let spent = 0;                           // one solve costs about the factors' entries
  for (let step = 0; step < 200 && spent < 5e7; step += 1) {
    for (let s = 0; s < n; s += 1) z[s] = onward[s] >= 0 ? x[s] - pf * x[onward[s]] : x[s];
    spent += yield* luSolveSteps(lu, z);
    let sumX = 0;
    let sumZ = 0;
    let biggest = 0;
    for (let s = 0; s < n; s += 1) {
      sumX += x[s];
      sumZ += z[s];
      if (x[s] > biggest) biggest = x[s];
    }
    largest = 0;
    for (let s = 0; s < n; s += 1) {
      if (x[s] > 1e-6 * biggest && z[s] / x[s] > largest) largest = z[s] / x[s];
    }
    const average = sumZ / sumX;
    if (largest - average <= 1e-10 * average) return average;
    for (let s = 0; s < n; s += 1) z[s] = z[s] > 1e-250 * sumZ ? z[s] / sumZ : 0;   // no subnormals
    [x, z] = [z, x];
  }
  return largest;
}

/**
 * Expected number of turns to finish from each square (the library's `expected_turns`).
 *
 * At a jump source the value is for a token standing there, which rolls from that square; the
 * final square and the traps have 0.
 * @param {BoardJSON} board
 * @returns {Float64Array} length size + 1.
 * @throws {BoardError} with the `validate` message for an invalid board.
 */
export function expectedTurns(board) {
  const { t, lu } = solveExpected(run(compileSteps(board)));
  giveBack(lu.A);
  return t;
}

/** `solveSteps` in one call. @param {Model} model */
function solveExpected(model) {
  return run(solveSteps(model));
}

// --------------------------------------------------------------------------- game length
/**
 * @typedef {object} Plan
 * @property {number} reach The longest plain move: faces 1..reach that stay on the board.
 * @property {number} band The kind of the plain moves: 6 (a die of up to six faces, unrolled),
 *     -1 (more than 12 faces of one chance: a window of prefix sums) or 0 (any die, face by face).
 * @property {number} p The common chance of the faces when band is -1.
 * @property {number} hole The bonus face when it lies among 1..reach, else 0 (its moves are
 *     the bonus pass's, not the band's).
 * @property {Int32Array} endFrom Squares with a chance to end the game by a move that arrives
 *     on no square first: a bonus roll that ends it, or "win"'s overshoot.
 * @property {Float64Array} endChance That chance.
 * @property {Int32Array} overFrom Squares whose faces past the final square stay ("stay") or
 *     go to square n - 1 before its jump ("stop_short").
 * @property {Float64Array} overChance Their chance.
 * @property {Int32Array} flow The squares with a bonus move F_on, in topological order.
 * @property {Int32Array[]} cycles The cycles of the bonus moves.
 * @property {number} cost Steps (multiply-adds) of one turn.
 */

/**
 * How one turn is taken: v -> v P with P = (I - F_on)^-1 (B_other + F_end), never forming P.
 *
 * F_on (a bonus face after which the game goes on) has at most one entry per row, s -> d(s), so
 * w = v (I - F_on)^-1 solves w_t = v_t + p_f sum_{d(s) = t} w_s: one pass over the squares in
 * topological order of that functional graph, then each of its cycles (a chute that a bonus
 * roll can climb back to, or a bonus face lost to "stay") in closed form,
 * w_c0 (1 - p_f^L) = sum_j p_f^j u_c(-j). That is the library's geometric series, summed exactly.
 *
 * Then w (B_other + F_end), gathered by the square each move arrives on before its jump:
 * arrive[t] = sum_r p_r w[t - r] over the faces other than the bonus face (a band, or for a die
 * whose faces have one chance p, p times a window sum of w read from prefix sums: O(n) whatever
 * the die); the faces past the final square add one move per square ("stay": s itself, "win":
 * the end, "stop_short": square n - 1) or, for "bounce", arrive on 2n - s - r (again a window,
 * of suffix sums, for such a die). Each arrival then takes its jump, and what lands on an
 * absorbing square ends the game.
 * @param {Model} model
 * @returns {Plan}
 */
export function stepPlan(model) {
  const { n, m, chance, over, end, bonus, bonusTo, onward, overshoot } = model;
  const f = bonus ?? 0;
  let reach = 0;
  for (let r = 1; r <= Math.min(m, n); r += 1) if (chance[r] > 0) reach = r;
  const hole = f >= 1 && f <= reach ? f : 0;
  let p = 0;
  let same = true;
  for (let r = 1; r <= reach; r += 1) {
    if (r === hole) continue;
    if (p === 0) p = chance[r];
    if (chance[r] !== p) same = false;
  }
  const band = reach <= 6 ? 6 : reach > 12 && same ? -1 : 0;
  const endFrom = [];
  const endChance = [];
  const overFrom = [];
  const overChance = [];
  for (let s = 0; s < n; s += 1) {
    if (end[s]) continue;
    const past = n - s + 1 <= m ? over[n - s + 1] : 0;       // faces past the final square
    let ends = overshoot === "win" ? past : 0;
    if (bonusTo[s] >= 0 && end[bonusTo[s]]) ends += model.pf;
    if (ends > 0) { endFrom.push(s); endChance.push(ends); }
    if ((overshoot === "stay" || overshoot === "stop_short") && past > 0) {
      overFrom.push(s);
      overChance.push(past);
    }
  }
  // Topological order of the bonus graph (Kahn), then its cycles.
  const indegree = new Int32Array(n + 1);
  for (let s = 0; s <= n; s += 1) if (onward[s] >= 0) indegree[onward[s]] += 1;
  /** @type {number[]} */
  const order = [];
  for (let s = 0; s <= n; s += 1) if (!end[s] && indegree[s] === 0) order.push(s);
  for (let i = 0; i < order.length; i += 1) {
    const t = onward[order[i]];
    if (t >= 0 && --indegree[t] === 0) order.push(t);
  }
  /** @type {Int32Array[]} */
  const cycles = [];
  const seen = new Uint8Array(n + 1);
  for (const s of order) seen[s] = 1;
  for (let s = 0; s <= n; s += 1) {
    if (end[s] || seen[s] || !f) continue;
    const cycle = [];
    for (let u = s; !seen[u]; u = onward[u]) { seen[u] = 1; cycle.push(u); }
    cycles.push(Int32Array.from(cycle));
  }
  const flow = Int32Array.from(order.filter((s) => onward[s] >= 0));
  let bandCost = 0;
  if (band === -1) bandCost = 3 * (n + 1);
  else if (band === 6) bandCost = 6 * (n + 1);
  else for (let t = 0; t <= n; t += 1) bandCost += Math.min(reach, t) + 1;
  let bounceCost = 0;
  if (overshoot === "bounce") {
    if (band === -1) bounceCost = 3 * n;
    else for (let s = 0; s < n; s += 1) bounceCost += Math.max(0, reach - (n - s));
  }
  const cost = 20 + 4 * (n + 1) + bandCost + bounceCost + endFrom.length + overFrom.length +
    (f ? 2 * (n + 1) + flow.length : 0);
  return { reach, band, p, hole, endFrom: Int32Array.from(endFrom),
    endChance: Float64Array.from(endChance), overFrom: Int32Array.from(overFrom),
    overChance: Float64Array.from(overChance), flow, cycles, cost };
}

/**
 * One turn of the pmf (see `stepPlan`), in parts so that a long turn can be taken in slices:
 * `begin(v)` (the bonus rolls, the moves that end the game outright, the overshoot that arrives
 * before a jump), then `band` and `bounce` over ranges (for a die of 7 to 12 faces, or of more
 * faces of unequal chances: its plain moves and bounces face by face), then `end(next)`, which
 * writes v P into `next` in one pass (the plain moves of a die of up to six faces or of many
 * equal faces, the moves lost to "stay", each arrival's jump) and returns the mass that ended
 * the game; `going` is then the mass of `next`, the games still going on. The loops live in plain
 * functions, which V8 compiles better than a generator's body.
 * @param {Model} model
 * @param {Plan} plan
 */
function turnTaker(model, plan) {
  const { n, jump, end, chance, onward, pf, overshoot } = model;
  const { reach, band, p, hole, endFrom, endChance, overFrom, overChance, flow, cycles } = plan;
  const w = new Float64Array(n + 1);
  const extra = new Float64Array(n + 1);             // arrivals other than the band's
  const sums = new Float64Array(n + 2);
  const stay = new Float64Array(n + 1);              // the chance of a move lost to "stay"
  if (overshoot === "stay") for (let i = 0; i < overFrom.length; i += 1) stay[overFrom[i]] = overChance[i];
  let src = /** @type {Float64Array} */ (w);
  let ended = 0;
  const taker = {
    going: 0,
    /** @param {Float64Array} v */
    begin(v) {
      src = v;
      if (flow.length || cycles.length) {
        bonusRolls(v, w, onward, pf, flow, cycles);
        src = w;
      }
      ended = 0;
      for (let i = 0; i < endFrom.length; i += 1) ended += src[endFrom[i]] * endChance[i];
      if (overshoot === "stop_short") {
        let x = 0;
        for (let i = 0; i < overFrom.length; i += 1) x += src[overFrom[i]] * overChance[i];
        extra[n - 1] += x;
      } else if (overshoot === "bounce" && band === -1) bounceWindows(src, extra, sums, p, reach, hole);
    },
    /** The plain moves onto squares t0..t1-1, face by face. @param {number} t0 @param {number} t1 */
    band(t0, t1) {
      if (band === 0) bandAny(src, extra, chance, reach, t0, t1);
    },
    /** The bounces from squares s0..s1-1, face by face. @param {number} s0 @param {number} s1 */
    bounce(s0, s1) {
      if (overshoot === "bounce" && band !== -1) bounces(src, extra, chance, reach, s0, s1);
    },
    /** @param {Float64Array} next @returns {number} */
    end(next) {
      next.fill(0);
      if (band === 6) turn6(src, next, chance, extra, stay, jump, end);
      else if (band === -1) turnWindows(src, next, sums, p, reach, hole, extra, stay, jump, end);
      else turnRoute(src, next, extra, stay, jump, end);
      taker.going = routed.going;
      return ended + routed.ended;
    },
  };
  return taker;
}

/**
 * w = v (I - F_on)^-1: the bonus rolls after which the game goes on, along the bonus graph in
 * topological order, then each of its cycles in closed form.
 */
export function bonusRolls(/** @type {Float64Array} */ v, /** @type {Float64Array} */ w,
  /** @type {Int32Array} */ onward, /** @type {number} */ pf, /** @type {Int32Array} */ flow,
  /** @type {Int32Array[]} */ cycles) {
  w.set(v);
  for (let i = 0; i < flow.length; i += 1) w[onward[flow[i]]] += pf * w[flow[i]];
  for (const cycle of cycles) {
    const L = cycle.length;
    let sum = 0;
    let power = 1;
    for (let j = 0; j < L; j += 1) {               // u_c0 + pf u_c(L-1) + pf^2 u_c(L-2) ...
      sum += power * w[cycle[(L - j) % L]];
      power *= pf;
    }
    w[cycle[0]] = sum / (1 - power);
    for (let j = 1; j < L; j += 1) w[cycle[j]] += pf * w[cycle[j - 1]];
  }
}

/** What the last turn kernel sent on: the mass that ended the game and the mass going on. */
const routed = { ended: 0, going: 0 };

/**
 * Moves of less probability than this are dropped: the mass of a square that the game leaves
 * quickly decays geometrically through the subnormal floats (below 2.2e-308), where arithmetic
 * is about a hundred times slower, and nothing the page shows can see 1e-250.
 */
const TINY = 1e-250;

/**
 * The end of a turn, in one pass over the squares t: the moves lost to "stay" (next[t] +=
 * src[t] stay[t]), then the moves that arrive on t (`extra[t]`, which is cleared, and in the
 * kernels below the band's) take t's jump into `next`, or end the game; moves below TINY are
 * dropped.
 * `turn6` and `turnWindows` repeat this pass with their band inlined: one pass instead of
 * two, about 1.5 times faster on a board of 1,000 squares.
 */
function turnRoute(/** @type {Float64Array} */ src, /** @type {Float64Array} */ next,
  /** @type {Float64Array} */ extra, /** @type {Float64Array} */ stay,
  /** @type {Int32Array} */ jump, /** @type {Uint8Array} */ end) {
  let ended = 0;
  let going = 0;
  for (let t = 0; t < src.length; t += 1) {
    const kept = src[t] * stay[t];
    if (kept >= TINY) { next[t] += kept; going += kept; }
    const x = extra[t];
    extra[t] = 0;
    if (x < TINY) continue;
    const d = jump[t];
    if (end[d]) ended += x;
    else { next[d] += x; going += x; }
  }
  routed.ended = ended;
  routed.going = going;
}

/**
 * `turnRoute` with the plain moves of a die of up to six faces: arrivals on t are
 * sum_{r=1..6} c[r] src[t - r] (c is zero past the die and on the bonus face); the last six
 * entries of `src` ride in locals, so each square is read once.
 */
function turn6(/** @type {Float64Array} */ src, /** @type {Float64Array} */ next,
  /** @type {Float64Array} */ c, /** @type {Float64Array} */ extra,
  /** @type {Float64Array} */ stay, /** @type {Int32Array} */ jump,
  /** @type {Uint8Array} */ end) {
  const c0 = c[1]; const c1 = c[2]; const c2 = c[3]; const c3 = c[4]; const c4 = c[5];
  const c5 = c[6];
  let a0 = 0; let a1 = 0; let a2 = 0; let a3 = 0; let a4 = 0; let a5 = 0;
  let ended = 0;
  let going = 0;
  for (let t = 0; t < src.length; t += 1) {
    const x = c0 * a0 + c1 * a1 + c2 * a2 + c3 * a3 + c4 * a4 + c5 * a5 + extra[t];
    const here = src[t];
    a5 = a4; a4 = a3; a3 = a2; a2 = a1; a1 = a0; a0 = here;
    extra[t] = 0;
    const kept = here * stay[t];
    if (kept >= TINY) { next[t] += kept; going += kept; }
    if (x < TINY) continue;
    const d = jump[t];
    if (end[d]) ended += x;
    else { next[d] += x; going += x; }
  }
  routed.ended = ended;
  routed.going = going;
}

/**
 * `turn6` for a die whose faces 1..reach (but the bonus face `hole`) have one chance p: the
 * arrivals on t are p (src[t - reach] + ... + src[t - 1] - src[t - hole]), a window read from
 * compensated (Kahan) prefix sums, sums[i] = src[0] + ... + src[i - 1]. Each prefix sum is
 * within a few units in the last place of the mass, so a window is exact to about 1e-16 of the
 * mass (not of the window, however small), and never negative (it is clipped at 0).
 */
function turnWindows(/** @type {Float64Array} */ src, /** @type {Float64Array} */ next,
  /** @type {Float64Array} */ sums, /** @type {number} */ p, /** @type {number} */ reach,
  /** @type {number} */ hole, /** @type {Float64Array} */ extra,
  /** @type {Float64Array} */ stay, /** @type {Int32Array} */ jump,
  /** @type {Uint8Array} */ end) {
  let sum = 0;
  let lost = 0;
  sums[0] = 0;
  let ended = 0;
  let going = 0;
  for (let t = 0; t < src.length; t += 1) {
    let window = sum - sums[t > reach ? t - reach : 0];
    if (hole && t >= hole) window -= src[t - hole];
    const x = (window > 0 ? p * window : 0) + extra[t];
    const here = src[t];
    const y = here - lost;
    const more = sum + y;
    lost = (more - sum) - y;
    sum = more;
    sums[t + 1] = sum;
    extra[t] = 0;
    const kept = here * stay[t];
    if (kept >= TINY) { next[t] += kept; going += kept; }
    if (x < TINY) continue;
    const d = jump[t];
    if (end[d]) ended += x;
    else { next[d] += x; going += x; }
  }
  routed.ended = ended;
  routed.going = going;
}

/** The plain moves onto squares t0..t1-1 of any die (`reach` faces), added to `out`. */
function bandAny(/** @type {Float64Array} */ src, /** @type {Float64Array} */ out,
  /** @type {Float64Array} */ c, /** @type {number} */ reach, /** @type {number} */ t0,
  /** @type {number} */ t1) {
  for (let t = t0; t < t1; t += 1) {
    let sum = 0;
    const most = Math.min(reach, t);
    for (let r = 1; r <= most; r += 1) sum += c[r] * src[t - r];
    out[t] += sum;
  }
}

/** The bounces from squares s0..s1-1 of any die: s + r > n arrives on 2n - s - r. */
function bounces(/** @type {Float64Array} */ src, /** @type {Float64Array} */ arrive,
  /** @type {Float64Array} */ chance, /** @type {number} */ reach, /** @type {number} */ s0,
  /** @type {number} */ s1) {
  const n = src.length - 1;
  for (let s = Math.max(s0, n - reach + 1); s < s1; s += 1) {
    const x = src[s];
    if (x !== 0) for (let r = n - s + 1; r <= reach; r += 1) arrive[2 * n - s - r] += x * chance[r];
  }
}

/**
 * The bounces of a die whose faces have one chance p: s + r > n arrives on t = 2n - s - r, so
 * square t < n gathers p (src[max(0, 2n - t - reach)] + ... + src[n - 1]) (less the bonus
 * face's), from compensated suffix sums.
 */
function bounceWindows(/** @type {Float64Array} */ src, /** @type {Float64Array} */ arrive,
  /** @type {Float64Array} */ sums, /** @type {number} */ p, /** @type {number} */ reach,
  /** @type {number} */ hole) {
  const n = src.length - 1;
  let sum = 0;
  let lost = 0;
  sums[n] = 0;                                      // sums[s] = src[s] + ... + src[n - 1]
  for (let s = n - 1; s >= 0; s -= 1) {
    const y = src[s] - lost;
    const more = sum + y;
    lost = (more - sum) - y;
    sum = more;
    sums[s] = sum;
  }
  for (let t = Math.max(0, n - reach + 1); t < n; t += 1) {
    const lo = Math.max(0, 2 * n - t - reach);
    let window = sums[lo];
    const s = 2 * n - t - hole;
    if (hole && s >= lo && s <= n - 1) window -= src[s];
    if (window > 0) arrive[t] += p * window;
  }
}

/** `pattern` (a sentence named with `said`, so that a page says it back in its language) with
 * its `{name}`s filled from `values`: the English the library says, made from the pattern. */
export function sentence(/** @type {string} */ pattern, /** @type {Record<string, string | number>} */ values) {
  return pattern.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
}

/** The library's words for a distribution it will not build. */
function tooSlowForLibrary(/** @type {number} */ worst, /** @type {number} */ needed,
  /** @type {number} */ squares, /** @type {number} */ maxTurns) {
  const values = { worst: formatG(worst, 4), needed: formatG(needed, 3), squares, maxTurns,
    work: formatG(DISTRIBUTION_WORK) };
  return sentence(squares > DENSE_MAX + 1
    ? said("this board is too slow for an exact distribution: games take {worst} turns on " +
      "average from the slowest square, so about {needed} terms of {squares} squares each would " +
      "be needed (max_turns={maxTurns}, DISTRIBUTION_WORK={work}); use simulate() instead")
    : said("this board is too slow for an exact distribution: games take {worst} turns on " +
      "average from the slowest square, so about {needed} terms would be needed " +
      "(max_turns={maxTurns}); use simulate() instead"), values);
}

/** The page's words for a distribution that would cost more than its `budget`. */
function tooSlowForPage(/** @type {number} */ worst, /** @type {number} */ needed,
  /** @type {number} */ cost, /** @type {number} */ budget, /** @type {boolean} */ more) {
  const values = { worst: formatG(worst, 4), needed: formatG(needed, 3), cost: Math.round(cost),
    budget: formatG(budget) };
  return sentence(more
    ? said("this board is too slow for the page's distribution: games take {worst} turns on " +
      "average from the slowest square, so more than {needed} terms of {cost} steps each would " +
      "be needed (the page's limit is {budget} steps); turn_distribution() in the library " +
      "computes it")
    : said("this board is too slow for the page's distribution: games take {worst} turns on " +
      "average from the slowest square, so about {needed} terms of {cost} steps each would be " +
      "needed (the page's limit is {budget} steps); turn_distribution() in the library computes " +
      "it"), values);
}

/**
 * The pmf of the game length from `start` (the library's `_distribution`), refused before the
 * first turn when the library would refuse it (its estimate, its words) or when it would take
 * the page more than `budget` steps. Yields every SLICE steps, inside a turn if one is longer.
 * @param {Model} model
 * @param {number} start
 * @param {number} tail
 * @param {number} maxTurns
 * @param {{t: Float64Array, lu: Factors}} solved
 * @param {number} budget Steps the page may spend (Infinity: the library's limits only).
 * @returns {Generator<void, Float64Array, void>}
 */
function* distributionSteps(model, start, tail, maxTurns, solved, budget) {
  const { n, end, overshoot } = model;
  if (end[start]) return Float64Array.of(1);
  let worst = 0;
  for (let s = 0; s <= n; s += 1) if (solved.t[s] > worst) worst = solved.t[s];
  const squares = n + 1;
  const dense = n <= DENSE_MAX;
  const plan = stepPlan(model);
  const { reach, band, cost } = plan;
  // From any square P(T > 2 t_max) <= 1/2 (Markov), so P(T > 2 t_max j) <= 2^-j.
  const bound = 2 * worst * Math.ceil(Math.log2(1 / tail));
  let needed = null;
  const neededTerms = function* () {
    const radius = 1 - 1 / (yield* slowestGrowthSteps(model, solved.lu));
    return radius < 1 ? Math.log(tail) / Math.log(radius) : Infinity;
  };
  if (dense ? bound > maxTurns : bound > maxTurns || bound * squares > DISTRIBUTION_WORK) {
    needed = yield* neededTerms();
    if (needed > maxTurns || (!dense && needed * squares > DISTRIBUTION_WORK)) {
      throw new BoardError(tooSlowForLibrary(worst, needed, squares, maxTurns));
    }
  }
  // The tail decays like rho^k with 1 / (1 - rho) <= t_max, so about log(1/tail) t_max terms
  // at most: estimate rho only when even that would be too long for the page.
  if (needed === null && Math.log(1 / tail) * worst * cost > budget) needed = yield* neededTerms();
  if (needed !== null && needed * cost > budget) {
    throw new BoardError(tooSlowForPage(worst, needed, cost, budget, false));
  }
  const most = Math.floor(2 * budget / cost);       // a generous stop if the estimate was low

  const turn = turnTaker(model, plan);
  const chunked = band === 0 || (overshoot === "bounce" && band !== -1);
  const rows = Math.max(1, Math.floor(SLICE / Math.max(1, reach)));
  let v = new Float64Array(n + 1);
  let next = new Float64Array(n + 1);
  v[start] = 1;
  let pmf = new Float64Array(1024);
  let length = 1;                                   // pmf[0] = 0: the game has not ended
  let total = 0;                                    // the games finished so far
  let work = 0;
  for (;;) {
    turn.begin(v);
    if (chunked) {                                  // a long turn, in slices
      for (let t0 = 0; t0 <= n; t0 += rows) {
        turn.band(t0, Math.min(n + 1, t0 + rows));
        turn.bounce(t0, Math.min(n, t0 + rows));
        work += 2 * rows * reach;
        if (work >= SLICE) { work = 0; yield; }
      }
    }
    const ended = turn.end(next);
    const going = turn.going;
    const swap = v;
    v = next;
    next = swap;
    total += ended;
    if (length === pmf.length) {
      const longer = new Float64Array(2 * pmf.length);
      longer.set(pmf);
      pmf = longer;
    }
    // biome-ignore lint/complexity/useMathMinMax: a NaN or -0 mass must read 0, as Math.max would not
    pmf[length++] = ended > 0 ? ended : 0;
    // The library's rule: stop when both counts of what is left are below `tail` (they differ by
    // rounding); the second test alone ends it if rounding keeps 1 - total above `tail`.
    if ((going < tail && 1 - total < tail) || going < tail * 1e-3) break;
    if (length > maxTurns) {
      throw new BoardError(`the distribution needs more than max_turns=${maxTurns} terms`);
    }
    if (length > most) throw new BoardError(tooSlowForPage(worst, length, cost, budget, true));
    work += cost;
    if (work >= SLICE) { work = 0; yield; }
  }
  return pmf.slice(0, length);
}

function checkStart(/** @type {Model} */ model, /** @type {unknown} */ start) {
  return onBoard(model, start, "start");
}

function checkTail(/** @type {unknown} */ tail) {
  if (typeof tail !== "number" || !(tail > 0 && tail < 1)) {
    throw new BoardError(`tail must be between 0 and 1, got ${pyRepr(tail, REPR_CAP)}`);
  }
  return tail;
}

/**
 * The distribution of the game length, pmf[k] = P(T = k) (the library's `turn_distribution`).
 *
 * Built one turn at a time until the unfinished probability is below `tail`, with the library's
 * stopping rule, so the lengths agree or differ only in entries below `tail`. A board whose pmf
 * would need more than `maxTurns` terms is refused before the first turn, with the library's
 * estimate and words. There is no page budget here: within the library's limits a slow board
 * can take seconds (the page uses `analyseInSteps`, which has one).
 * @param {BoardJSON} board
 * @param {{start?: number, tail?: number, maxTurns?: number}} [options] The start square
 *     (default 0), the probability that may be left out (default 1e-12) and the longest pmf
 *     (default MAX_TURNS).
 * @returns {Float64Array} pmf with pmf[0] = 0 unless starting on an absorbing square ([1]).
 * @throws {BoardError} for an invalid board, start or tail, or a board too slow for maxTurns.
 */
export function turnDistribution(board, { start = 0, tail = TAIL, maxTurns = MAX_TURNS } = {}) {
  const model = run(compileSteps(board));
  const from = checkStart(model, start);
  const tailOk = checkTail(tail);
  const most = square(maxTurns, "max_turns");
  if (model.end[from]) return Float64Array.of(1);
  const solved = solveExpected(model);
  try {
    return run(distributionSteps(model, from, tailOk, most, solved, Infinity));
  } finally {
    giveBack(solved.lu.A);
  }
}

/**
 * The shortest game from `start` in turns, by exact reachability (never a float threshold):
 * a breadth-first search by turns, where a bonus roll after which the game goes on costs no turn
 * (it joins the turn's squares) and every other roll ends one.
 * @param {Model} model
 * @param {number} start
 * @returns {Generator<void, number | null, void>} null if no game ends (never, on a valid board).
 */
function* shortestSteps(model, start) {
  const { n, end, rowStart, dest, bonusTo, onward } = model;
  if (end[start]) return 0;
  const seen = new Uint8Array(n + 1);
  let level = [start];
  seen[start] = 1;
  let work = 0;
  for (let turns = 0; level.length; turns += 1) {
    for (let i = 0; i < level.length; i += 1) {    // the squares this turn's bonus rolls reach
      const t = onward[level[i]];
      if (t >= 0 && !seen[t]) { seen[t] = 1; level.push(t); }
    }
    const later = [];
    for (const s of level) {
      if (bonusTo[s] >= 0 && end[bonusTo[s]]) return turns + 1;
      for (let i = rowStart[s]; i < rowStart[s + 1]; i += 1) {
        const t = dest[i];
        if (end[t]) return turns + 1;
        if (!seen[t]) { seen[t] = 1; later.push(t); }
      }
      work += rowStart[s + 1] - rowStart[s] + 1;
      if (work >= SLICE) { work = 0; yield; }
    }
    level = later;
  }
  return null;
}

/**
 * The shortest game in turns, by exact reachability: the smallest k with P(T = k) > 0 in exact
 * arithmetic (lesson 6's "shortest game"), which a float pmf cannot always tell from rounding.
 * @param {BoardJSON} board
 * @param {{start?: number}} [options] The start square (default 0).
 * @returns {number}
 * @throws {BoardError} for an invalid board or start.
 */
export function shortestGame(board, { start = 0 } = {}) {
  const model = run(compileSteps(board));
  return /** @type {number} */ (run(shortestSteps(model, checkStart(model, start))));
}

/**
 * The summaries of a pmf (see `lengthSummary`), yielding every SLICE entries.
 * @param {ArrayLike<number>} pmf
 * @param {number | null | undefined} known
 * @returns {Generator<void, LengthSummary, void>}
 */
function* summarySteps(pmf, known) {
  const cdf = new Float64Array(pmf.length);
  let mean = 0;
  let sum = 0;
  let mode = 0;
  let median = null;
  let first = null;
  for (let k = 0; k < pmf.length; k += 1) {
    const p = pmf[k];
    mean += k * p;
    sum += p;
    cdf[k] = sum;
    if (p > pmf[mode]) mode = k;
    if (median === null && sum >= 0.5) median = k;
    if (first === null && p > 0) first = k;
    if (k % SLICE === SLICE - 1) yield;
  }
  return { mean, median, mode, shortest: known ?? first, cdf };
}

/**
 * The summaries of a game-length pmf, as lesson 6 and `plot_distribution` define them: mean
 * sum k p_k, median the first k with P(T <= k) >= 1/2, mode the first k where p_k is largest,
 * shortest the first k with p_k > 0 (pass the exact one from `shortestGame` to override).
 * @param {ArrayLike<number>} pmf
 * @param {{shortest?: number}} [options]
 * @returns {LengthSummary}
 */
export function lengthSummary(pmf, { shortest: known } = {}) {
  return run(summarySteps(pmf, known));
}

/**
 * 1/2 sum_k p_k^2: seat 1's win probability minus 1/2 when both start on square 0.
 * @param {ArrayLike<number>} pmf
 * @returns {Generator<void, number, void>}
 */
function* edgeSteps(pmf) {
  let sum = 0;
  for (let k = 0; k < pmf.length; k += 1) {
    sum += pmf[k] * pmf[k];
    if (k % SLICE === SLICE - 1) yield;
  }
  return sum / 2;
}

/**
 * The first mover's edge in a two-player race from square 0: seat 1's win probability minus
 * 1/2, which is (1/2) sum_k P(T = k)^2 (the first player wins every tie of lengths). Equal to
 * `win_probabilities(board, [0, 0])[0] - 0.5` in the library.
 * @param {BoardJSON} board
 * @returns {number | null} null for a board with traps (the library refuses races with traps).
 * @throws {BoardError} for an invalid board, or one too slow for the distribution.
 */
export function firstMoverEdge(board) {
  const model = run(compileSteps(board));
  if (model.traps.length) return null;
  const solved = solveExpected(model);
  try {
    return run(edgeSteps(run(distributionSteps(model, 0, TAIL, MAX_TURNS, solved, Infinity))));
  } finally {
    giveBack(solved.lu.A);
  }
}

/**
 * Everything the editor shows, step by step: a generator that does the work of `analyse` and
 * yields (no value) after every slice of about 25,000 operations, so that a page can run it a
 * few milliseconds at a time (`it.next()` until `done`) and drop it when the board changes. Its
 * return value is `analyse`'s result.
 *
 * The distribution is refused, with the expected turns still given, when the library refuses it
 * (`lengthError` in the library's words, known before the first turn) or when it would cost the
 * page more than `LIMITS.work` steps (in the page's words).
 * @param {BoardJSON} board
 * @returns {Generator<void, Analysis, void>}
 */
export function* analyseInSteps(board) {
  let model;
  try {
    model = yield* compileSteps(board);
  } catch (error) {
    if (error instanceof BoardError) return { error: error.message };
    throw error;
  }
  const solved = yield* solveSteps(model);
  const expected = solved.t;
  let pmf;
  try {
    pmf = yield* distributionSteps(model, 0, TAIL, MAX_TURNS, solved, LIMITS.work);
  } catch (error) {
    if (!(error instanceof BoardError)) throw error;
    return { expected, pmf: null, summary: null, edge: null, lengthError: error.message };
  } finally {
    giveBack(solved.lu.A);
  }
  const shortest = yield* shortestSteps(model, 0);
  const summary = yield* summarySteps(pmf, shortest);
  const edge = model.traps.length ? null : yield* edgeSteps(pmf);
  return { expected, pmf, summary, edge, lengthError: null };
}

/**
 * Everything the editor shows, in one call (`analyseInSteps` run to its end): the board is
 * checked and built once.
 * @param {BoardJSON} board
 * @returns {Analysis} `{error}` (the `validate` message) for an invalid board; else
 *     `{expected, pmf, summary, edge, lengthError}`, with pmf, summary and edge null and
 *     `lengthError` the refusal when the distribution is refused.
 */
export function analyse(board) {
  return run(analyseInSteps(board));
}

// --------------------------------------------------------------------------- text forms
/** The jumps of a JSON board as [source, destination] number pairs; throws for other shapes. */
function jumpPairs(/** @type {BoardJSON} */ board) {
  const jumps = board.jumps ?? [];
  if (!Array.isArray(jumps)) throw new BoardError("jumps must be a list of [source, destination] pairs");
  return jumps.map((pair) => {
    if (!Array.isArray(pair) || pair.length !== 2 || !pair.every(isWhole)) {
      throw new BoardError(`a jump must be a pair of whole numbers, not ${pyRepr(pair, REPR_CAP)}`);
    }
    return /** @type {[number, number]} */ (pair);
  });
}

/** The fields of a JSON board, with the library's defaults; throws for wrong types. */
function fields(/** @type {BoardJSON} */ board) {
  const or = (/** @type {unknown} */ value, /** @type {unknown} */ otherwise) =>
    value === undefined ? otherwise : value;
  const size = or(board.size, 100);
  const die = or(board.die, 6);
  const overshoot = or(board.overshoot, "stay");
  const bonus = or(board.bonus_roll, null);
  const traps = or(board.traps, []);
  if (!isWhole(size)) throw new BoardError(`size must be a whole number, not ${pyRepr(size, REPR_CAP)}`);
  if (!(isWhole(die) || (Array.isArray(die) && die.length > 0 &&
      die.every((w) => typeof w === "number" && Number.isFinite(w))))) {
    throw new BoardError(`die must be a whole number or a list of numbers, not ${pyRepr(die, REPR_CAP)}`);
  }
  if (typeof overshoot !== "string" || !OVERSHOOT_RULES.includes(overshoot)) {
    throw new BoardError(`overshoot must be one of ${OVERSHOOT_RULES.join(", ")}, ` +
      `not ${pyRepr(overshoot, REPR_CAP)}`);
  }
  if (bonus !== null && !isWhole(bonus)) {
    throw new BoardError(`bonus_roll must be a whole number or null, not ${pyRepr(bonus, REPR_CAP)}`);
  }
  if (!Array.isArray(traps) || !traps.every(isWhole)) {
    throw new BoardError(`traps must be a list of whole numbers, not ${pyRepr(traps, REPR_CAP)}`);
  }
  return { size: /** @type {number} */ (size), die: /** @type {number | number[]} */ (die),
    overshoot: /** @type {string} */ (overshoot), bonus: /** @type {number | null} */ (bonus),
    traps: /** @type {number[]} */ (traps), jumps: jumpPairs(board) };
}

/**
 * One line of Python that builds the board, e.g.
 * `Board({1: 38, 4: 14}, size=100, die=6, overshoot='stay')`, with `bonus_roll=6` and
 * `traps=(50,)` only when present. Run it after `from chutes_edu import Board`.
 * @param {BoardJSON} board A board with fields of the right types (valid or not).
 * @returns {string}
 */
export function boardToPython(board) {
  const f = fields(board);
  const tuple = (/** @type {number[]} */ xs, write = pyNumber) =>
    `(${xs.map((x) => write(x)).join(", ")}${xs.length === 1 ? "," : ""})`;
  // A dict literal would silently keep the last of two jumps from one square, which Board
  // refuses: such jumps are written as a list of pairs, so that Python says what is wrong.
  const twice = new Set(f.jumps.map(([a]) => a)).size < f.jumps.length;
  const jumps = twice
    ? `[${f.jumps.map(([a, b]) => `(${pyNumber(a)}, ${pyNumber(b)})`).join(", ")}]`
    : `{${f.jumps.map(([a, b]) => `${pyNumber(a)}: ${pyNumber(b)}`).join(", ")}}`;
  const die = Array.isArray(f.die) ? tuple(f.die, pyWeight) : pyNumber(f.die);
  let line = `Board(${jumps}, size=${pyNumber(f.size)}, die=${die}, ` +
    `overshoot=${pyString(f.overshoot)}`;
  if (f.bonus !== null) line += `, bonus_roll=${pyNumber(f.bonus)}`;
  if (f.traps.length) line += `, traps=${tuple(f.traps)}`;
  return `${line})`;
}

/** A weight for the address: JavaScript's shortest form, with no "+" (e.g. 1e21, 1e-7). */
const weightText = (/** @type {number} */ w) => String(w).replace("e+", "e");

/**
 * The board as compact, URL-safe, readable text for a page address (`#board=...`), e.g.
 * `s100-d6-stay-j1.38,4.14` or `s30-w1_2_0.5-bounce-b3-j5.12-t20,22`: fields joined by "-",
 * each a tag and a value: `s` size, `d` faces of a fair die or `w` weights joined by "_", the
 * overshoot rule as its word, `b` the bonus face, `j` jumps source.destination joined by ",",
 * `t` traps joined by ",". Absent bonus, jumps and traps are left out.
 * @param {BoardJSON} board A board with fields of the right types (valid or not).
 * @returns {string}
 */
export function encodeBoard(board) {
  const f = fields(board);
  const parts = [`s${f.size}`];
  parts.push(Array.isArray(f.die) ? `w${f.die.map(weightText).join("_")}` : `d${f.die}`);
  parts.push(f.overshoot);
  if (f.bonus !== null) parts.push(`b${f.bonus}`);
  if (f.jumps.length) parts.push(`j${f.jumps.map(([a, b]) => `${a}.${b}`).join(",")}`);
  if (f.traps.length) parts.push(`t${f.traps.join(",")}`);
  return parts.join("-");
}

const INT = /^-?\d+$/;
const WEIGHT = /^-?(\d+(\.\d*)?|\.\d+)(e-?\d+)?$/;

/** The most significant digits of a whole number in an address: beyond 15, a double may no
 * longer hold the number written. */
const DIGITS = 15;

/** A piece of an address for a message: its repr, cut to at most 80 characters (and an
 * ellipsis) so that the reason that follows it stays on the line. */
function quoted(/** @type {string} */ text) {
  const whole = pyString(text, 81);
  if (whole.length <= 80 && whole.endsWith(whole[0])) return whole;
  const points = [...text.slice(0, 80)];
  let keep = Math.min(points.length, 40);
  while (keep > 1 && pyString(points.slice(0, keep).join("")).length > 78) keep = Math.floor(keep / 2);
  return `${pyString(points.slice(0, keep).join(""))}…`;
}

/** A field that is a word (three letters or more) but no overshoot rule, e.g. "warp". */
const WORD = /^[A-Za-z]{3,}$/;

/**
 * Read a board written by `encodeBoard` (also with a leading "#board=" or "board=", or
 * percent-encoded). A field left out takes the library's default (size 100, die 6, "stay", no
 * bonus roll, no jumps, no traps). The text is checked for its form and for the page's LIMITS
 * (its length, the size, the faces, the number of jumps and traps, all before anything is built),
 * not for the rules of the game: call `validate` on the result for those.
 * @param {string} text
 * @returns {BoardJSON} with all six fields.
 * @throws {BoardError} naming what is malformed or beyond LIMITS, in one line.
 */
export function decodeBoard(text) {
  if (typeof text !== "string") {
    throw new BoardError(`board text must be a string, not ${pyRepr(text, REPR_CAP)}`);
  }
  if (text.length > LIMITS.address) {
    throw new BoardError(`board text of ${text.length} characters is too long for the page ` +
      `(it reads up to ${LIMITS.address})`);
  }
  let body = text.trim().replace(/^#/, "").replace(/^board=/, "");
  if (body.includes("%")) {
    try {
      body = decodeURIComponent(body);
    } catch {
      throw new BoardError(`board text ${quoted(text)} has a bad percent-escape`);
    }
  }
  if (body === "") throw new BoardError("board text is empty");
  const bad = (/** @type {string} */ why) =>
    new BoardError(`malformed board text ${quoted(text)}: ${why}`);
  /** A whole number of at most DIGITS significant digits (-0 is 0). */
  const whole = (/** @type {string} */ x, /** @type {() => string} */ why) => {
    if (!INT.test(x)) throw bad(why());
    if (x.replace(/^-?0*/, "").length > DIGITS) {
      throw bad(`the number ${quoted(x)} has more than ${DIGITS} digits`);
    }
    return Number(x) + 0;
  };
  /** The items of a list field, refused at once if there are more than `most`. */
  const items = (/** @type {string} */ list, /** @type {string} */ separator,
    /** @type {number} */ most, /** @type {(count: number) => string} */ tooLong) => {
    let count = 1;
    for (let i = list.indexOf(separator); i >= 0; i = list.indexOf(separator, i + 1)) {
      count += 1;
      if (count > most) throw new BoardError(tooLong(list.split(separator).length));
    }
    return list.split(separator);
  };
  const board = { size: 100, die: /** @type {number | number[]} */ (6), overshoot: "stay",
    bonus_roll: /** @type {number | null} */ (null),
    jumps: /** @type {Array<[number, number]>} */ ([]), traps: /** @type {number[]} */ ([]) };
  const done = new Set();
  // A "-" before a letter separates fields; one before a digit is a minus sign or an exponent's.
  for (const field of body.split(/-(?=[A-Za-z])/)) {
    const word = OVERSHOOT_RULES.includes(field);
    const tag = word ? "o" : field[0];
    const value = field.slice(1);
    const unknown = () => bad(`unknown field ${quoted(field)} (expected s, d, w, ` +
      `${OVERSHOOT_RULES.join(", ")}, b, j or t)`);
    // A word is an unknown field, not a malformed or repeated "w" (weights) field.
    if (!word && WORD.test(field)) throw unknown();
    if (done.has(tag === "w" ? "d" : tag)) {
      throw bad(`the field ${quoted(field)} repeats an earlier one`);
    }
    done.add(tag === "w" ? "d" : tag);
    if (word) board.overshoot = field;
    else if (tag === "s" || tag === "d" || tag === "b") {
      const number = whole(value,
        () => `${quoted(field)} needs a whole number after "${tag}"`);
      if (tag === "s") {
        if (number > LIMITS.size) throw new BoardError(sizeTooBig(number));
        board.size = number;
      } else if (tag === "d") {
        if (number > LIMITS.faces) throw new BoardError(dieTooBig(number));
        board.die = number;
      } else board.bonus_roll = number;
    } else if (tag === "w") {
      board.die = items(value, "_", LIMITS.faces, dieTooBig).map((x) => {
        if (!WEIGHT.test(x)) throw bad(`the weight ${quoted(x)} is not a number`);
        return Number(x) + 0;
      });
    } else if (tag === "j") {
      board.jumps = items(value, ",", LIMITS.jumps,
        (count) => tooMany("jumps", count, LIMITS.jumps)).map((pair) => {
        const why = () => `the jump ${quoted(pair)} is not source.destination`;
        const m = /^(-?\d+)\.(-?\d+)$/.exec(pair);
        if (!m) throw bad(why());
        return /** @type {[number, number]} */ ([whole(m[1], why), whole(m[2], why)]);
      });
    } else if (tag === "t") {
      board.traps = items(value, ",", LIMITS.traps,
        (count) => tooMany("traps", count, LIMITS.traps)).map((x) =>
        whole(x, () => `the trap ${quoted(x)} is not a whole number`));
    } else {
      throw unknown();
    }
  }
  return board;
}
