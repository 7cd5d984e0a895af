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
 *   then at most one jump. The final square and the traps absorb.
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
 *
 * Invalid boards are refused with the message, word for word, that `Board(...)` raises as
 * ValueError for the same board. Values in messages are written as Python's repr writes them,
 * except that JSON cannot tell 2.0 from 2: whole numbers are written as ints.
 *
 * Cost (benchmarks/bench_board_math.mjs measures it): the solve is an elimination that follows
 * the board's near-banded structure, the pmf one pass over the squares per turn; both take
 * milliseconds on boards of a few hundred squares. The solve stores an n x n matrix, so boards of
 * thousands of squares take tens of MB and much longer: this module is for the boards an editor
 * shows, the Python library for big ones.
 *
 * @module board_math
 */

/** The overshoot rules, in the library's order. */
export const OVERSHOOT_RULES = Object.freeze(["stay", "win", "bounce", "stop_short"]);

/** The unfinished probability that `turnDistribution` may leave out by default (the library's). */
export const TAIL = 1e-12;

/** The longest pmf `turnDistribution` builds by default (the library's `MAX_TURNS`). */
export const MAX_TURNS = 10_000_000;

/** An invalid board or argument; `message` is the library's ValueError message. */
export class BoardError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
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

// --------------------------------------------------------------------------- Python's text
// The messages must be the library's word for word, so values are written as Python's repr
// writes them. JSON cannot tell 2 from 2.0, so whole numbers are written as ints.

/** Python's repr of a finite or infinite float. @param {number} x @returns {string} */
function pyFloat(x) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (Object.is(x, -0)) return "-0.0";
  // toExponential() gives the shortest digits that round-trip, like Python's repr.
  const [mantissa, exp] = x.toExponential().split("e");
  const e = Number(exp);
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (e < -4 || e >= 16) {
    const tail = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const power = Math.abs(e) < 10 ? `0${Math.abs(e)}` : `${Math.abs(e)}`;
    return `${sign}${tail}e${e < 0 ? "-" : "+"}${power}`;
  }
  if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
  const whole = digits.slice(0, e + 1).padEnd(e + 1, "0");
  const frac = digits.slice(e + 1);
  return `${sign}${whole}.${frac || "0"}`;
}

/** A JSON number as Python writes it (whole numbers as ints). @param {number} x */
function pyNumber(x) {
  if (Number.isInteger(x) && !Object.is(x, -0)) {
    return Math.abs(x) < 1e21 ? String(x) : BigInt(x).toString();
  }
  return pyFloat(x);
}

/** Python's repr of a string. @param {string} s @returns {string} */
function pyString(s) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

/** Python's repr of a JSON value (null is None, arrays are lists, objects dicts). */
function pyRepr(/** @type {unknown} */ value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return pyNumber(value);
  if (typeof value === "string") return pyString(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object") {
    const items = Object.entries(value).map(([k, v]) => `${pyString(k)}: ${pyRepr(v)}`);
    return `{${items.join(", ")}}`;
  }
  return String(value);
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

// --------------------------------------------------------------------------- checking a board
const isWhole = (/** @type {unknown} */ v) => typeof v === "number" && Number.isInteger(v);

/** The value as a whole number, or BoardError naming `what` (the library's `_square`). */
function square(/** @type {unknown} */ value, /** @type {string} */ what) {
  if (!isWhole(value)) {
    throw new BoardError(`${what} must be a whole number, not ${pyRepr(value)}`);
  }
  return /** @type {number} */ (value);
}

/**
 * What Python's `iter(value)` would give for a JSON value, or null if it is not iterable
 * (strings give their characters, objects their keys).
 * @param {unknown} value
 * @returns {unknown[] | null}
 */
function pyIter(value) {
  if (Array.isArray(value)) return value;
  if (typeof value === "string") return [...value];
  if (value !== null && typeof value === "object") return Object.keys(value);
  return null;
}

/**
 * @typedef {object} Model
 * @property {number} n The final square.
 * @property {number} m The number of faces.
 * @property {Float64Array} probs Face probabilities.
 * @property {boolean[]} positive Whether each face has weight.
 * @property {Int32Array} table table[s * m + r - 1] = l(s, r) (-1 for a face of weight zero
 *     that would leave the board).
 * @property {Uint8Array} end 1 on the absorbing squares.
 * @property {Uint8Array} source 1 on the jump sources.
 * @property {number[]} traps Sorted trap squares.
 * @property {number | null} bonus The bonus face or null.
 */

/** The die's weights (the library's `_parse_die`); throws BoardError. */
function parseDie(/** @type {unknown} */ die) {
  if (typeof die === "boolean") {
    throw new BoardError(
      `die must be a number of faces or a sequence of weights, not ${pyRepr(die)}`);
  }
  if (isWhole(die)) {
    const faces = /** @type {number} */ (die);
    if (faces < 1) throw new BoardError(`die must have at least 1 face, got ${faces}`);
    return new Array(faces).fill(1);
  }
  const weights = typeof die === "string" ? null : pyIter(die);
  if (weights === null) {
    throw new BoardError(
      `die must be a number of faces or a sequence of weights, not ${pyRepr(die)}`);
  }
  if (weights.length < 1) {
    throw new BoardError("die must have at least 1 face: the weight sequence is empty");
  }
  const bad = [];
  for (let i = 0; i < weights.length; i += 1) {
    const w = weights[i];
    const label = `face ${i + 1}: ${pyRepr(w)}`;
    if (typeof w !== "number") bad.push(`${label} is not a number`);
    else if (!Number.isFinite(w)) bad.push(`${label} is not finite`);
    else if (w < 0) bad.push(`${label} is negative`);
  }
  if (bad.length) throw new BoardError(`bad die weights (${bad.join("; ")})`);
  const numbers = /** @type {number[]} */ (weights);
  if (numbers.every((w) => w === 0)) {
    throw new BoardError(`die weights are all zero: ${pyRepr(numbers)}`);
  }
  return numbers;
}

/** The jumps as a Map (the library's `_check_jumps`); throws BoardError. */
function checkJumps(/** @type {unknown} */ jumps, /** @type {number} */ size) {
  /** @type {Map<number, number>} */
  const clean = new Map();
  if (jumps === null || jumps === undefined) return clean;
  let pairs;
  if (jumps !== null && typeof jumps === "object" && !Array.isArray(jumps)) {
    pairs = Object.entries(jumps);          // a mapping {source: destination}
  } else {
    pairs = pyIter(jumps);
    if (pairs === null) {                    // Python raises TypeError here, not ValueError
      throw new BoardError(`jumps must be a list of (source, destination) pairs, ` +
        `not ${pyRepr(jumps)}`);
    }
  }
  const problems = [];
  for (const pair of pairs) {
    const items = pyIter(pair);
    if (items === null || items.length !== 2) {
      throw new BoardError(`a jump must be a (source, destination) pair, not ${pyRepr(pair)}`);
    }
    const a = square(items[0], `jump source ${pyRepr(items[0])}`);
    const b = square(items[1], `jump destination ${pyRepr(items[1])} (from ${a})`);
    if (clean.has(a)) {
      problems.push(`square ${a} has two jumps (${a}->${clean.get(a)} and ${a}->${b})`);
    }
    clean.set(a, b);
  }
  const entries = [...clean.entries()];
  const off = entries.filter(([a, b]) => !(a >= 0 && a <= size && b >= 0 && b <= size));
  if (off.length) {
    problems.push(`jumps off the board (squares are 0..${size}): ` +
      off.map(([a, b]) => `${a}->${b}`).join(", "));
  }
  const ends = entries.filter(([a]) => a === 0 || a === size);
  if (ends.length) {
    problems.push(`jumps cannot start on square 0 or the final square ${size}: ` +
      ends.map(([a, b]) => `${a}->${b}`).join(", "));
  }
  const selfs = entries.filter(([a, b]) => a === b);
  if (selfs.length) {
    problems.push("jumps onto their own square: " + selfs.map(([a, b]) => `${a}->${b}`).join(", "));
  }
  const chains = entries.filter(([a, b]) => clean.has(b) && a !== b).map(([a, b]) =>
    `${a}->${b} lands on the source of ${b}->${clean.get(b)}` +
    (clean.get(b) === a ? " (a loop)" : ""));
  if (chains.length) problems.push("chained jumps: " + chains.join("; "));
  if (problems.length) throw new BoardError("invalid jumps: " + problems.join("; "));
  return clean;
}

/** The sorted traps (the library's `_check_traps`); throws BoardError. */
function checkTraps(/** @type {unknown} */ traps, /** @type {number} */ size,
  /** @type {Map<number, number>} */ jumps) {
  if (traps === undefined) return [];
  const items = typeof traps === "string" ? null : pyIter(traps);
  if (items === null) {
    throw new BoardError(`traps must be a collection of squares, e.g. traps=(5,), ` +
      `not ${pyRepr(traps)}`);
  }
  const squares = [...new Set(items.map((v) => square(v, `trap ${pyRepr(v)}`)))]
    .sort((a, b) => a - b);
  const problems = [];
  const off = squares.filter((v) => v < 0 || v > size);
  if (off.length) {
    problems.push(`traps off the board (squares are 0..${size}): ${off.join(", ")}`);
  }
  if (squares.includes(0)) {
    problems.push("square 0 (where every token starts) cannot be a trap");
  }
  if (squares.includes(size)) {
    problems.push(`the final square ${size} cannot be a trap (it ends the game anyway)`);
  }
  const sources = squares.filter((v) => jumps.has(v))
    .map((v) => `${v} (the jump ${v}->${jumps.get(v)})`);
  if (sources.length) problems.push("a trap cannot be a jump's source: " + sources.join(", "));
  if (problems.length) throw new BoardError("invalid traps: " + problems.join("; "));
  return squares;
}

/** table[s * m + r - 1]: where one roll of face r from s ends (the library's `_landings`). */
function rollTable(/** @type {number} */ n, /** @type {number} */ m,
  /** @type {string} */ overshoot, /** @type {Map<number, number>} */ jumps,
  /** @type {number[]} */ traps) {
  const jump = new Int32Array(n + 1);
  for (let s = 0; s <= n; s += 1) jump[s] = s;
  for (const [a, b] of jumps) jump[a] = b;
  const table = new Int32Array((n + 1) * m);
  for (let s = 0; s <= n; s += 1) {
    for (let r = 1; r <= m; r += 1) {
      const target = s + r;
      let to;
      if (target <= n) to = jump[target];
      else if (overshoot === "stay") to = s;          // a lost move fires no jump
      else if (overshoot === "win") to = n;
      else if (overshoot === "bounce") {
        const back = 2 * n - target;                  // only faces of weight zero walk past 0
        to = back >= 0 ? jump[back] : -1;
      } else to = jump[n - 1];                        // stop_short
      table[s * m + r - 1] = to;
    }
  }
  for (const v of [...traps, n]) table.fill(v, v * m, (v + 1) * m);
  return table;
}

/**
 * `ok[s]`: an absorbing square can be reached from s by rolls of faces with weight: one
 * breadth-first search backwards from the absorbing squares (the library's `_can_finish`).
 */
function canFinish(/** @type {Model} */ model) {
  const { n, m, table, positive, end } = model;
  const count = new Int32Array(n + 2);
  for (let s = 0; s <= n; s += 1) {
    for (let r = 0; r < m; r += 1) {
      const t = table[s * m + r];
      if (positive[r] && t !== s && t >= 0) count[t + 1] += 1;
    }
  }
  for (let t = 0; t <= n; t += 1) count[t + 1] += count[t];
  const into = new Int32Array(count[n + 1]);        // into[count[t]..]: squares moving to t
  const fill = count.slice(0, n + 1);
  for (let s = 0; s <= n; s += 1) {
    for (let r = 0; r < m; r += 1) {
      const t = table[s * m + r];
      if (positive[r] && t !== s && t >= 0) into[fill[t]++] = s;
    }
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
  }
  return ok;
}

/**
 * Check a board and build its model, in the order the `Board` constructor checks it.
 * @param {BoardJSON} board
 * @returns {Model}
 * @throws {BoardError} with the library's message.
 */
function compile(board) {
  if (board === null || typeof board !== "object" || Array.isArray(board)) {
    throw new BoardError(`a board must be an object with the fields size, die, overshoot, ` +
      `bonus_roll, jumps and traps, not ${pyRepr(board)}`);
  }
  const n = square(board.size === undefined ? 100 : board.size, "size");
  if (n < 2) throw new BoardError(`size must be at least 2 (squares 0..size), got ${n}`);
  const overshoot = board.overshoot === undefined ? "stay" : board.overshoot;
  if (typeof overshoot !== "string" || !OVERSHOOT_RULES.includes(overshoot)) {
    throw new BoardError(`unknown overshoot rule ${pyRepr(overshoot)}; choose one of ` +
      OVERSHOOT_RULES.map(pyString).join(", "));
  }
  const weights = parseDie(board.die === undefined ? 6 : board.die);
  const jumps = checkJumps(board.jumps, n);
  const traps = checkTraps(board.traps, n, jumps);
  const m = weights.length;
  const positive = weights.map((w) => w > 0);
  let bonus = board.bonus_roll === undefined ? null : board.bonus_roll;
  if (bonus !== null) {
    bonus = square(bonus, "bonus_roll");
    if (!(bonus >= 1 && bonus <= m) || !positive[bonus - 1]) {
      const withWeight = [];
      for (let r = 1; r <= m; r += 1) if (positive[r - 1]) withWeight.push(r);
      throw new BoardError(`bonus_roll=${bonus}: the die has no face ${bonus} ` +
        `(its faces with weight are ${ranges(withWeight)})`);
    }
    if (positive.filter(Boolean).length === 1) {
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
  const total = weights.reduce((sum, w) => sum + w, 0);
  const probs = Float64Array.from(weights, (w) => w / total);
  const end = new Uint8Array(n + 1);
  for (const v of traps) end[v] = 1;
  end[n] = 1;
  const table = rollTable(n, m, overshoot, jumps, traps);
  const source = new Uint8Array(n + 1);
  for (const a of jumps.keys()) source[a] = 1;
  /** @type {Model} */
  const model = { n, m, probs, positive, table, end, source, traps, bonus };
  const ok = canFinish(model);
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
 * Check a board with the library's rules.
 * @param {BoardJSON} board
 * @returns {string | null} null for a valid board, else the one-line message that `Board(...)`
 *     raises as ValueError for the same board, word for word.
 */
export function validate(board) {
  try {
    compile(board);
    return null;
  } catch (error) {
    if (error instanceof BoardError) return error.message;
    throw error;
  }
}

/** A square on the board, or BoardError naming `what` (the library's `_on_board`). */
function onBoard(/** @type {Model} */ model, /** @type {unknown} */ value,
  /** @type {string} */ what) {
  const s = square(value, what);
  if (s < 0 || s > model.n) {
    throw new BoardError(`${what} ${s} is off the board (squares 0..${model.n})`);
  }
  return s;
}

// --------------------------------------------------------------------------- expected turns
/** The elimination's matrix, kept between solves (an editor solves on every edit) up to
 * 1000 x 1000 entries (8 MB); bigger ones are let go. */
let matrix = new Float64Array(0);
const KEEP = 1_000_000;

/**
 * Solve (I - B_Q) t = c over the squares 0..n-1 (a trap's row is t_v = 0).
 *
 * I - B_Q is a nonsingular M-matrix, weakly diagonally dominant by rows, so Gaussian elimination
 * needs no pivoting and stays stable (growth factor at most 2). Without pivoting the elimination
 * keeps the board's structure: a roll moves at most `faces` squares forward, so the matrix is
 * banded apart from the few columns that jumps lead to. The rows are stored dense but every loop
 * runs over the nonzero span only (rowEnd, colEnd), so a board without chutes costs O(n faces)
 * and each chute adds work in proportion to its length.
 */
function solveExpected(/** @type {Model} */ model) {
  const { n, m, probs, positive, table, end, bonus } = model;
  const A = n * n <= matrix.length ? matrix : new Float64Array(n * n);
  if (A === matrix) A.fill(0, 0, n * n);
  else if (n * n <= KEEP) matrix = A;
  const rhs = new Float64Array(n);
  const rowEnd = new Int32Array(n);        // the last column with a nonzero entry in each row
  const colEnd = new Int32Array(n);        // the last row with a nonzero entry in each column
  for (let s = 0; s < n; s += 1) {
    A[s * n + s] = 1;
    rowEnd[s] = s;
    colEnd[s] = Math.max(colEnd[s], s);
    if (end[s]) continue;
    rhs[s] = 1;
    for (let r = 0; r < m; r += 1) {
      if (!positive[r]) continue;
      const t = table[s * m + r];
      if (end[t]) continue;
      A[s * n + t] -= probs[r];
      if (t > rowEnd[s]) rowEnd[s] = t;
      if (s > colEnd[t]) colEnd[t] = s;
    }
    if (bonus !== null && !end[table[s * m + bonus - 1]]) rhs[s] = 1 - probs[bonus - 1];
  }
  for (let k = 0; k < n; k += 1) {
    const pivotRow = k * n;
    const pivot = A[pivotRow + k];
    const last = rowEnd[k];
    const below = colEnd[k];
    for (let i = k + 1; i <= below; i += 1) {
      const row = i * n;
      const a = A[row + k];
      if (a === 0) continue;
      const l = a / pivot;
      A[row + k] = 0;
      for (let j = k + 1; j <= last; j += 1) A[row + j] -= l * A[pivotRow + j];
      rhs[i] -= l * rhs[k];
      if (last > rowEnd[i]) rowEnd[i] = last;
      for (let j = k + 1; j <= last; j += 1) if (i > colEnd[j]) colEnd[j] = i;
    }
  }
  const t = new Float64Array(n + 1);
  for (let k = n - 1; k >= 0; k -= 1) {
    const row = k * n;
    let sum = rhs[k];
    for (let j = k + 1; j <= rowEnd[k]; j += 1) sum -= A[row + j] * t[j];
    t[k] = sum / A[row + k];
  }
  for (const v of model.traps) t[v] = 0;   // exactly, as the library
  return t;
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
  return solveExpected(compile(board));
}

// --------------------------------------------------------------------------- game length
/**
 * @typedef {object} Stepper
 * @property {(v: Float64Array, next: Float64Array) => number} step next = v P over the
 *     transient squares (absorbing entries stay 0); returns the mass that ended the game.
 * @property {() => number} left The mass of the last `next`, the games still going on.
 */

/**
 * One turn, v -> v P with P = (I - F_on)^-1 (B_other + F_end), never forming P.
 *
 * F_on (a bonus face after which the game goes on) has at most one entry per row, s -> d(s), so
 * w = v (I - F_on)^-1 solves w_t = v_t + p_f sum_{d(s) = t} w_s: one pass over the squares in
 * topological order of that functional graph, then each of its cycles (a chute that a bonus
 * roll can climb back to, or a bonus face lost to "stay") in closed form,
 * w_c0 (1 - p_f^L) = sum_j p_f^j u_c(-j). That is the library's geometric series, summed exactly.
 * Then w (B_other + F_end): a band for the plain moves and a short list for the others.
 * @param {Model} model
 * @returns {Stepper}
 */
function stepper(model) {
  const { n, m, probs, positive, table, end, bonus } = model;
  const pf = bonus === null ? 0 : probs[bonus - 1];
  const on = new Int32Array(n + 1).fill(-1);        // d(s), or -1
  // Most moves are plain, s -> s + r with no jump and no overshoot: square t then gathers
  // sum_r p_r v[t - r] over the faces (the bonus face's chance set to 0: it is F_on or F_end), a
  // band read straight from v with no index arrays, about twice as fast as a general sparse
  // product. A mask zeroes it where no plain move can end (absorbing squares, jump sources), and
  // the other moves (jumps, overshoot) are a short list.
  const bandChance = new Float64Array(Math.max(m, 12));   // zero beyond the die: see band6
  let longest = 0;
  for (let r = 0; r < m; r += 1) {
    if (positive[r] && r !== (bonus ?? 0) - 1) { bandChance[r] = probs[r]; longest = r + 1; }
  }
  const reach = longest;                             // the longest plain move
  const mask = new Float64Array(n + 1);
  for (let t = 0; t <= n; t += 1) mask[t] = end[t] || model.source[t] ? 0 : 1;
  const finishFrom = [];
  const finishChance = [];
  const moveFrom = [];
  const moveTo = [];
  const moveChance = [];
  for (let s = 0; s <= n; s += 1) {
    let ends = 0;
    for (let r = 0; r < m; r += 1) {
      const t = table[s * m + r];
      if (end[s] || !positive[r]) continue;
      if (end[t]) ends += probs[r];
      else if (r === (bonus ?? 0) - 1) on[s] = t;
      else if (t !== s + r + 1) { moveFrom.push(s); moveTo.push(t); moveChance.push(probs[r]); }
    }
    if (ends > 0) { finishFrom.push(s); finishChance.push(ends); }
  }
  const endFrom = Int32Array.from(finishFrom);
  const endChance = Float64Array.from(finishChance);
  const from = Int32Array.from(moveFrom);
  const to = Int32Array.from(moveTo);
  const chance = Float64Array.from(moveChance);

  // Topological order of the bonus graph (Kahn), then its cycles.
  const indegree = new Int32Array(n + 1);
  for (let s = 0; s <= n; s += 1) if (on[s] >= 0) indegree[on[s]] += 1;
  const order = [];
  for (let s = 0; s <= n; s += 1) if (!end[s] && indegree[s] === 0) order.push(s);
  for (let i = 0; i < order.length; i += 1) {
    const t = on[order[i]];
    if (t >= 0 && --indegree[t] === 0) order.push(t);
  }
  /** @type {Int32Array[]} */
  const cycles = [];
  const seen = new Uint8Array(n + 1);
  for (const s of order) seen[s] = 1;
  for (let s = 0; s <= n; s += 1) {
    if (end[s] || seen[s]) continue;
    const cycle = [];
    for (let u = s; !seen[u]; u = on[u]) { seen[u] = 1; cycle.push(u); }
    cycles.push(Int32Array.from(cycle));
  }
  const flow = Int32Array.from(order.filter((s) => on[s] >= 0));
  const w = new Float64Array(n + 1);
  let left = 0;

  /** @type {Stepper["step"]} */
  function step(v, next) {
    let source = v;
    if (bonus !== null) {
      w.set(v);
      for (let i = 0; i < flow.length; i += 1) {
        const s = flow[i];
        w[on[s]] += pf * w[s];
      }
      for (const cycle of cycles) {
        const L = cycle.length;
        let sum = 0;
        let power = 1;
        for (let j = 0; j < L; j += 1) {           // u_c0 + pf u_c(L-1) + pf^2 u_c(L-2) ...
          sum += power * w[cycle[(L - j) % L]];
          power *= pf;
        }
        w[cycle[0]] = sum / (1 - power);
        for (let j = 1; j < L; j += 1) w[cycle[j]] += pf * w[cycle[j - 1]];
      }
      source = w;
    }
    let ended = 0;
    for (let i = 0; i < endFrom.length; i += 1) ended += source[endFrom[i]] * endChance[i];
    let total = reach <= 6 ? band6(source, next, bandChance, mask)
      : reach <= 12 ? band12(source, next, bandChance, mask)
        : band(source, next, bandChance, mask, reach);
    for (let i = 0; i < from.length; i += 1) {
      const x = source[from[i]] * chance[i];
      next[to[i]] += x;
      total += x;
    }
    left = total;
    return ended;
  }
  return { step, left: () => left };
}

/**
 * The plain moves of one turn: next[t] = mask[t] sum_{r=1..reach} chance[r-1] source[t - r], and
 * the total. The last `reach` entries of `source` ride in locals, so each square is read once:
 * three to four times faster than reading the window again for every square. `band6` and
 * `band12` serve dice of up to 6 and 12 faces (`chance` holds at least 12 entries, zero past the
 * die), `band` any die.
 * @param {Float64Array} source
 * @param {Float64Array} next
 * @param {Float64Array} chance
 * @param {Float64Array} mask
 * @returns {number}
 */
function band6(source, next, chance, mask) {
  const c0 = chance[0]; const c1 = chance[1]; const c2 = chance[2];
  const c3 = chance[3]; const c4 = chance[4]; const c5 = chance[5];
  let a0 = 0; let a1 = 0; let a2 = 0; let a3 = 0; let a4 = 0; let a5 = 0;
  let total = 0;
  for (let t = 0; t < source.length; t += 1) {
    const sum = (c0 * a0 + c1 * a1 + c2 * a2 + c3 * a3 + c4 * a4 + c5 * a5) * mask[t];
    a5 = a4; a4 = a3; a3 = a2; a2 = a1; a1 = a0; a0 = source[t];
    next[t] = sum;
    total += sum;
  }
  return total;
}

/** As `band6`, for dice of up to 12 faces. @type {typeof band6} */
function band12(source, next, chance, mask) {
  const c0 = chance[0]; const c1 = chance[1]; const c2 = chance[2];
  const c3 = chance[3]; const c4 = chance[4]; const c5 = chance[5];
  const c6 = chance[6]; const c7 = chance[7]; const c8 = chance[8];
  const c9 = chance[9]; const c10 = chance[10]; const c11 = chance[11];
  let a0 = 0; let a1 = 0; let a2 = 0; let a3 = 0; let a4 = 0; let a5 = 0;
  let a6 = 0; let a7 = 0; let a8 = 0; let a9 = 0; let a10 = 0; let a11 = 0;
  let total = 0;
  for (let t = 0; t < source.length; t += 1) {
    const sum = (c0 * a0 + c1 * a1 + c2 * a2 + c3 * a3 + c4 * a4 + c5 * a5 + c6 * a6 + c7 * a7
      + c8 * a8 + c9 * a9 + c10 * a10 + c11 * a11) * mask[t];
    a11 = a10; a10 = a9; a9 = a8; a8 = a7; a7 = a6; a6 = a5;
    a5 = a4; a4 = a3; a3 = a2; a2 = a1; a1 = a0; a0 = source[t];
    next[t] = sum;
    total += sum;
  }
  return total;
}

/** As `band6`, for any die (`reach` faces). */
function band(/** @type {Float64Array} */ source, /** @type {Float64Array} */ next,
  /** @type {Float64Array} */ chance, /** @type {Float64Array} */ mask,
  /** @type {number} */ reach) {
  let total = 0;
  for (let t = 0; t < source.length; t += 1) {
    let sum = 0;
    for (let j = 0; j < reach && j < t; j += 1) sum += source[t - 1 - j] * chance[j];
    sum *= mask[t];
    next[t] = sum;
    total += sum;
  }
  return total;
}

/** The pmf of the game length from `start` (the library's `_distribution`). */
function distribution(/** @type {Model} */ model, /** @type {number} */ start,
  /** @type {number} */ tail, /** @type {number} */ maxTurns) {
  if (model.end[start]) return Float64Array.of(1);
  const { step, left } = stepper(model);
  let v = new Float64Array(model.n + 1);
  let next = new Float64Array(model.n + 1);
  v[start] = 1;
  let pmf = new Float64Array(1024);
  let length = 1;                                     // pmf[0] = 0: the game has not ended
  let total = 0;                                      // the games finished so far
  for (;;) {
    const finish = step(v, next);
    const swap = v;
    v = next;
    next = swap;
    const after = left();                             // P(T > k + 1)
    total += finish;
    if (length === pmf.length) {
      const longer = new Float64Array(2 * pmf.length);
      longer.set(pmf);
      pmf = longer;
    }
    pmf[length++] = finish;
    // The library's rule: stop when both counts of what is left are below `tail` (they differ by
    // rounding); the second test alone ends it if rounding keeps 1 - total above `tail`.
    if ((after < tail && 1 - total < tail) || after < tail * 1e-3) break;
    if (length > maxTurns) {
      throw new BoardError(`the distribution needs more than max_turns=${maxTurns} terms`);
    }
  }
  return pmf.slice(0, length);
}

/**
 * The distribution of the game length, pmf[k] = P(T = k) (the library's `turn_distribution`).
 *
 * Built one turn at a time until the unfinished probability is below `tail`, with the library's
 * stopping rule, so the lengths agree or differ only in entries below `tail`.
 * @param {BoardJSON} board
 * @param {{start?: number, tail?: number, maxTurns?: number}} [options] The start square
 *     (default 0), the probability that may be left out (default 1e-12) and the longest pmf
 *     (default MAX_TURNS).
 * @returns {Float64Array} pmf with pmf[0] = 0 unless starting on an absorbing square ([1]).
 * @throws {BoardError} for an invalid board, start or tail, or a board too slow for maxTurns.
 */
export function turnDistribution(board, { start = 0, tail = TAIL, maxTurns = MAX_TURNS } = {}) {
  const model = compile(board);
  return distribution(model, checkStart(model, start), checkTail(tail), maxTurns);
}

function checkStart(/** @type {Model} */ model, /** @type {unknown} */ start) {
  return onBoard(model, start, "start");
}

function checkTail(/** @type {unknown} */ tail) {
  if (typeof tail !== "number" || !(tail > 0 && tail < 1)) {
    throw new BoardError(`tail must be between 0 and 1, got ${pyRepr(tail)}`);
  }
  return tail;
}

/**
 * The shortest game from `start` in turns, by exact reachability (never a float threshold):
 * a 0-1 breadth-first search over single rolls, where a bonus roll after which the game goes on
 * costs no turn and every other roll ends one.
 */
function shortest(/** @type {Model} */ model, /** @type {number} */ start) {
  const { n, m, positive, table, end, bonus } = model;
  if (end[start]) return 0;
  const turns = new Int32Array(n + 1).fill(-1);
  // A deque in one array: 0-cost moves go to the front, 1-cost moves to the back.
  const size = 2 * (n + 1) * (m + 1) + 2;
  const deque = new Int32Array(size);
  const cost = new Int32Array(size);
  let head = (n + 1) * (m + 1) + 1;
  let tail = head;
  deque[tail] = start; cost[tail++] = 0;
  while (head < tail) {
    const s = deque[head];
    const k = cost[head++];
    if (turns[s] >= 0) continue;
    turns[s] = k;
    if (end[s]) return k;                       // the first absorbing square popped is nearest
    for (let r = 0; r < m; r += 1) {
      if (!positive[r]) continue;
      const t = table[s * m + r];
      if (r === (bonus ?? 0) - 1 && !end[t]) {
        if (turns[t] < 0) { deque[--head] = t; cost[head] = k; }
      } else if (turns[t] < 0) { deque[tail] = t; cost[tail++] = k + 1; }
    }
  }
  return null;                                  // unreachable: validated boards always finish
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
  const model = compile(board);
  return /** @type {number} */ (shortest(model, checkStart(model, start)));
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
  }
  return { mean, median, mode, shortest: known ?? first, cdf };
}

/** 1/2 sum_k p_k^2: seat 1's win probability minus 1/2 when both start on square 0. */
function edgeOf(/** @type {ArrayLike<number>} */ pmf) {
  let sum = 0;
  for (let k = 0; k < pmf.length; k += 1) sum += pmf[k] * pmf[k];
  return sum / 2;
}

/**
 * The first mover's edge in a two-player race from square 0: seat 1's win probability minus
 * 1/2, which is (1/2) sum_k P(T = k)^2 (the first player wins every tie of lengths). Equal to
 * `win_probabilities(board, [0, 0])[0] - 0.5` in the library.
 * @param {BoardJSON} board
 * @returns {number | null} null for a board with traps (the library refuses races with traps).
 * @throws {BoardError} for an invalid board.
 */
export function firstMoverEdge(board) {
  const model = compile(board);
  if (model.traps.length) return null;
  return edgeOf(distribution(model, 0, TAIL, MAX_TURNS));
}

/**
 * Everything the editor shows, in one call: the board is checked and built once.
 * @param {BoardJSON} board
 * @returns {{error: string} | {expected: Float64Array, pmf: Float64Array,
 *     summary: LengthSummary, edge: number | null}}
 *     `{error}` (the `validate` message) for an invalid board.
 */
export function analyse(board) {
  let model;
  try {
    model = compile(board);
  } catch (error) {
    if (error instanceof BoardError) return { error: error.message };
    throw error;
  }
  const expected = solveExpected(model);
  let pmf;
  try {
    pmf = distribution(model, 0, TAIL, MAX_TURNS);
  } catch (error) {
    if (error instanceof BoardError) return { error: error.message };
    throw error;
  }
  const summary = lengthSummary(pmf, { shortest: /** @type {number} */ (shortest(model, 0)) });
  return { expected, pmf, summary, edge: model.traps.length ? null : edgeOf(pmf) };
}

// --------------------------------------------------------------------------- text forms
/** The jumps of a JSON board as [source, destination] number pairs; throws for other shapes. */
function jumpPairs(/** @type {BoardJSON} */ board) {
  const jumps = board.jumps ?? [];
  if (!Array.isArray(jumps)) throw new BoardError("jumps must be a list of [source, destination] pairs");
  return jumps.map((pair) => {
    if (!Array.isArray(pair) || pair.length !== 2 || !pair.every(isWhole)) {
      throw new BoardError(`a jump must be a pair of whole numbers, not ${pyRepr(pair)}`);
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
  if (!isWhole(size)) throw new BoardError(`size must be a whole number, not ${pyRepr(size)}`);
  if (!(isWhole(die) || (Array.isArray(die) && die.length > 0 &&
      die.every((w) => typeof w === "number" && Number.isFinite(w))))) {
    throw new BoardError(`die must be a whole number or a list of numbers, not ${pyRepr(die)}`);
  }
  if (typeof overshoot !== "string" || !OVERSHOOT_RULES.includes(overshoot)) {
    throw new BoardError(`overshoot must be one of ${OVERSHOOT_RULES.join(", ")}, ` +
      `not ${pyRepr(overshoot)}`);
  }
  if (bonus !== null && !isWhole(bonus)) {
    throw new BoardError(`bonus_roll must be a whole number or null, not ${pyRepr(bonus)}`);
  }
  if (!Array.isArray(traps) || !traps.every(isWhole)) {
    throw new BoardError(`traps must be a list of whole numbers, not ${pyRepr(traps)}`);
  }
  return { size, die, overshoot, bonus, traps, jumps: jumpPairs(board) };
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
  const tuple = (/** @type {number[]} */ xs) =>
    `(${xs.map(pyNumber).join(", ")}${xs.length === 1 ? "," : ""})`;
  // A dict literal would silently keep the last of two jumps from one square, which Board
  // refuses: such jumps are written as a list of pairs, so that Python says what is wrong.
  const twice = new Set(f.jumps.map(([a]) => a)).size < f.jumps.length;
  const jumps = twice ? `[${f.jumps.map(([a, b]) => `(${a}, ${b})`).join(", ")}]`
    : `{${f.jumps.map(([a, b]) => `${a}: ${b}`).join(", ")}}`;
  const die = Array.isArray(f.die) ? tuple(f.die) : `${f.die}`;
  let line = `Board(${jumps}, size=${f.size}, die=${die}, overshoot=${pyString(f.overshoot)}`;
  if (f.bonus !== null) line += `, bonus_roll=${f.bonus}`;
  if (f.traps.length) line += `, traps=${tuple(f.traps)}`;
  return line + ")";
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

/**
 * Read a board written by `encodeBoard` (also with a leading "#board=" or "board=", or
 * percent-encoded). A field left out takes the library's default (size 100, die 6, "stay", no
 * bonus roll, no jumps, no traps). The text is checked for its form only: call `validate` on
 * the result for the rules of the game.
 * @param {string} text
 * @returns {BoardJSON} with all six fields.
 * @throws {BoardError} naming what is malformed.
 */
export function decodeBoard(text) {
  if (typeof text !== "string") throw new BoardError(`board text must be a string, not ${pyRepr(text)}`);
  let body = text.trim().replace(/^#/, "").replace(/^board=/, "");
  if (body.includes("%")) {
    try {
      body = decodeURIComponent(body);
    } catch {
      throw new BoardError(`board text ${pyString(text)} has a bad percent-escape`);
    }
  }
  if (body === "") throw new BoardError("board text is empty");
  const bad = (/** @type {string} */ why) =>
    new BoardError(`malformed board text ${pyString(text)}: ${why}`);
  const ints = (/** @type {string} */ list, /** @type {string} */ what) => list.split(",")
    .map((x) => {
      if (!INT.test(x)) throw bad(`${what} ${pyString(x)} is not a whole number`);
      return Number(x);
    });
  const board = { size: 100, die: /** @type {number | number[]} */ (6), overshoot: "stay",
    bonus_roll: /** @type {number | null} */ (null),
    jumps: /** @type {Array<[number, number]>} */ ([]), traps: /** @type {number[]} */ ([]) };
  const done = new Set();
  // A "-" before a letter separates fields; one before a digit is a minus sign or an exponent's.
  for (const field of body.split(/-(?=[A-Za-z])/)) {
    const word = OVERSHOOT_RULES.includes(field);
    const tag = word ? "o" : field[0];
    const value = field.slice(1);
    if (done.has(tag === "w" ? "d" : tag)) throw bad(`the field ${pyString(field)} repeats an earlier one`);
    done.add(tag === "w" ? "d" : tag);
    if (word) board.overshoot = field;
    else if (tag === "s" || tag === "d" || tag === "b") {
      if (!INT.test(value)) throw bad(`${pyString(field)} needs a whole number after "${tag}"`);
      if (tag === "s") board.size = Number(value);
      else if (tag === "d") board.die = Number(value);
      else board.bonus_roll = Number(value);
    } else if (tag === "w") {
      board.die = value.split("_").map((x) => {
        if (!WEIGHT.test(x)) throw bad(`the weight ${pyString(x)} is not a number`);
        return Number(x);
      });
    } else if (tag === "j") {
      board.jumps = value.split(",").map((pair) => {
        const m = /^(-?\d+)\.(-?\d+)$/.exec(pair);
        if (!m) throw bad(`the jump ${pyString(pair)} is not source.destination`);
        return /** @type {[number, number]} */ ([Number(m[1]), Number(m[2])]);
      });
    } else if (tag === "t") board.traps = ints(value, "the trap");
    else {
      throw bad(`unknown field ${pyString(field)} (expected s, d, w, ` +
        `${OVERSHOOT_RULES.join(", ")}, b, j or t)`);
    }
  }
  return board;
}
