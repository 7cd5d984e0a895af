/**
 * The boards the editor keeps: one canonical form, a key equal for equal boards, and the check
 * that decides whether the editor takes a board at all.
 *
 * A board is taken when it is within the editor's limits (`LIMITS` of the maths module: at most
 * `LIMITS.size` squares and `LIMITS.faces` faces, checked first, before anything is built, so a
 * board from a crafted address costs nothing) and the library would build it (`validate`: the
 * words of `Board(...)`'s ValueError otherwise). Every refusal is one bounded line
 * (`refusalLine`).
 *
 * @module editor_boards
 */
import { LIMITS, refusalLine, validate } from "./board_math.js";
import { pyRepr } from "../core/format.js";

/** The die sizes the die control offers. */
export const DIE_MIN = 2;
export const DIE_MAX = 12;

/** Undo steps kept. */
export const HISTORY_LIMIT = 200;

/** The largest board the editor draws (the maths module's limit). */
export const MAX_SIZE = LIMITS.size;

/** The smallest board the library builds (squares 0..2). */
export const MIN_SIZE = 2;

/** The default board: 100 squares, a fair six-sided die, nothing on it. */
export const EMPTY_BOARD = Object.freeze({ size: 100, die: 6, overshoot: "stay", bonus_roll: null,
  jumps: [], traps: [] });

/** What each overshoot rule does, in the explorers' words. */
export const OVERSHOOT_HELP = Object.freeze({
  stay: "a roll past the last square is lost",
  win: "a roll past the last square wins",
  bounce: "walk back the excess from the last square",
  stop_short: "a roll past the last square stops one short",
});

/** "ladder" for a jump up, "chute" for one down. */
export const kindOf = (/** @type {number} */ a, /** @type {number} */ b) =>
  (b > a ? "ladder" : "chute");

/**
 * A valid board in the one form the editor keeps and sends: all six fields, jumps sorted by
 * source, traps sorted (the form `board_to_json` gives in Python).
 * @param {any} board
 */
export function canonical(board) {
  const die = Array.isArray(board.die) ? [...board.die] : (board.die ?? 6);
  const jumps = (Array.isArray(board.jumps) ? board.jumps : [])
    .map((/** @type {number[]} */ [a, b]) => [a, b]).sort((/** @type {number[]} */ p, /** @type {number[]} */ q) =>
      p[0] - q[0] || p[1] - q[1]);
  const traps = [...new Set(board.traps ?? [])].sort((a, b) => a - b);
  return { size: board.size ?? 100, die, overshoot: board.overshoot ?? "stay",
    bonus_roll: board.bonus_roll ?? null, jumps, traps };
}

/** A key equal for equal boards. */
export const boardKey = (/** @type {any} */ board) => JSON.stringify(canonical(board));

/** How many items a field holds, when it is a list (else 0). */
const count = (/** @type {unknown} */ value) => (Array.isArray(value) ? value.length : 0);

/**
 * Why the editor's limits refuse a board, or null: checked on the raw fields, before anything is
 * built or validated (a size of 10^9 must not allocate a thing).
 * @param {any} board An object.
 * @returns {string | null}
 */
export function beyondLimits(board) {
  const size = board.size ?? 100;
  if (typeof size === "number" && size > LIMITS.size) {
    return `the editor draws boards of up to ${LIMITS.size} squares, and this one has ` +
      `${pyRepr(size)}: use the library for it`;
  }
  const die = board.die ?? 6;
  const m = typeof die === "number" ? die : count(die);
  if (m > LIMITS.faces) {
    return `the editor takes dice of up to ${LIMITS.faces} faces, and this one has ` +
      `${pyRepr(m)}: use the library for it`;
  }
  for (const [field, most] of [["jumps", LIMITS.size], ["traps", LIMITS.size]]) {
    if (count(board[field]) > /** @type {number} */ (most)) {
      return `a board of up to ${LIMITS.size} squares has fewer than ${most} ${field}, and ` +
        `this one lists ${count(board[field])}`;
    }
  }
  return null;
}

/** Why the editor cannot take a board (its limits, or the library's message), or null. */
export function checkBoard(/** @type {any} */ board) {
  if (board === null || typeof board !== "object" || Array.isArray(board)) {
    return refusalLine("a board must be an object with size, die, overshoot, bonus_roll, jumps " +
      `and traps, not ${pyRepr(board)}`);
  }
  const problem = beyondLimits(board) ?? validate(board);
  return problem === null ? null : refusalLine(problem);
}

/** The jump that starts on `square`, or null. */
export function jumpFrom(/** @type {any} */ board, /** @type {number} */ square) {
  const pair = board.jumps.find((/** @type {number[]} */ [a]) => a === square);
  return pair ? pair[1] : null;
}

/** The number of faces of a die (a count or weights). */
export const faces = (/** @type {number | number[]} */ die) =>
  (Array.isArray(die) ? die.length : die);

/**
 * Presets as [name, canonical board] pairs, from an object (in its order) or such pairs; those
 * the editor cannot take are left out.
 * @param {any} presets
 * @returns {Array<[string, any]>}
 */
export function presetList(presets) {
  const pairs = Array.isArray(presets) ? presets : Object.entries(presets ?? {});
  return pairs.filter(([, board]) => checkBoard(board) === null)
    .map(([name, board]) => [String(name), canonical(board)]);
}
