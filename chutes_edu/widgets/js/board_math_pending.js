// STAND-IN (issue 27): delete this file when board_math.js exports analyseInSteps, LIMITS, pyRepr
// and refusalLine, and replace `"./board_math_pending.js"` by `"./board_math.js"` in the editor's
// modules (or leave this file as the one line `export * from "./board_math.js";`).
/**
 * A stand-in for the names board_math.js is to export (issue 27), so that the editor imports its
 * final names today. Every editor module takes its maths from here, and from nowhere else.
 *
 * - `analyseInSteps(board)`: a generator that yields (no value) every ~100,000 operations and
 *   returns `{error}` or `{expected, pmf, summary, edge, lengthError}`. Here: the expected turns,
 *   one yield, then the distribution in one piece (so a long one still blocks the page: only the
 *   real one keeps every step short).
 * - `LIMITS`: the editor's limits (`size`, `faces`).
 * - `pyRepr(value)`: Python's repr of a JSON value; `refusalLine(message, max)`: one line, cut
 *   with "…".
 * - `decodeBoard`: board_math.js's, except that a field with a known tag and a malformed value
 *   (`warp`) is called an unknown field, not a repeated one.
 *
 * @module board_math_pending
 */
import {
  BoardError, decodeBoard as decodeWhole, expectedTurns, firstMoverEdge, lengthSummary,
  shortestGame, turnDistribution, validate,
} from "./board_math.js";

export * from "./board_math.js";

/** The editor's limits (frozen). */
export const LIMITS = Object.freeze({ size: 1000, faces: 1000, address: 100_000 });

/** Python's repr of a string (the printable characters as they are, the others escaped). */
function pyString(/** @type {string} */ s) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === "\\" || ch === quote) out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

/** Python's repr of a JSON value. */
export function pyRepr(/** @type {unknown} */ value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : (value > 0 ? "inf" : "-inf");
  if (typeof value === "string") return pyString(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  return String(value);
}

/** A message as one line of at most `max` characters, cut with "…". */
export function refusalLine(/** @type {string} */ message, max = 300) {
  const line = String(message).replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

const TAGS = /^(s-?\d+|d-?\d+|b-?\d+|w.*\d.*|j.*\..*|t.*\d.*)$/;

/** board_math.js's decodeBoard, with a malformed field called unknown rather than repeated. */
export function decodeBoard(/** @type {string} */ text) {
  if (typeof text === "string") {
    const body = text.trim().replace(/^#/, "").replace(/^board=/, "");
    for (const field of body.split(/-(?=[A-Za-z])/)) {
      if (["stay", "win", "bounce", "stop_short"].includes(field) || TAGS.test(field)) continue;
      throw new BoardError(`malformed board text ${pyRepr(text)}: unknown field ${pyRepr(field)} ` +
        "(expected s, d, w, stay, win, bounce, stop_short, b, j or t)");
    }
  }
  return decodeWhole(text);
}

/**
 * The editor's answers for a board, in steps.
 * @param {any} board
 * @returns {Generator<undefined, any, unknown>}
 */
export function* analyseInSteps(board) {
  const problem = validate(board);
  if (problem) return { error: problem };
  const expected = expectedTurns(board);
  yield;
  let pmf = null;
  let lengthError = null;
  try {
    pmf = turnDistribution(board);
  } catch (error) {
    if (!(error instanceof BoardError)) throw error;
    lengthError = error.message;
  }
  if (pmf === null) return { expected, pmf, summary: null, edge: null, lengthError };
  const summary = lengthSummary(pmf, { shortest: shortestGame(board) ?? undefined });
  const edge = (board.traps ?? []).length ? null : firstMoverEdge(board);
  return { expected, pmf, summary, edge, lengthError };
}
