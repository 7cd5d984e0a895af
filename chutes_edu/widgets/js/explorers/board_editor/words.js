/**
 * What the editor says: an edit in words, the announcement after it (the new expected length and
 * the old one, with as many decimals as it takes to tell them apart), and the cursor's square in
 * words. The instructions name the way the student is using: keys for the keyboard ("Enter here
 * cancels the jump"), clicks for a mouse ("click here again to cancel the jump"). Pure functions:
 * Node tests them.
 *
 * @module editor_words
 */
import { jumpFrom, kindOf, OVERSHOOT_HELP } from "../../maths/boards.js";

/** A whole number of turns in words: "1 turn", "7 turns". */
export const turns = (/** @type {number | null} */ k) => `${k} turn${k === 1 ? "" : "s"}`;

/** A number of faces in words: "1 face", "6 faces". */
export const facesText = (/** @type {number} */ m) => `${m} face${m === 1 ? "" : "s"}`;

/**
 * A number of turns with one decimal, or as many more (up to 6) as it takes to tell it from
 * `other` when they differ.
 */
export function turnsText(/** @type {number} */ value, /** @type {number | null} */ other = null) {
  let digits = 1;
  if (other !== null && other !== value) {
    while (digits < 6 && value.toFixed(digits) === other.toFixed(digits)) digits += 1;
  }
  return value.toFixed(digits);
}

/**
 * An edit in words, e.g. "ladder 12 to 44 added".
 * @param {any} edit One of the `edit` objects `update` records.
 * @returns {string}
 */
export function describeEdit(edit) {
  switch (edit.kind) {
    case "add": return `${kindOf(edit.a, edit.b)} ${edit.a} to ${edit.b} added`;
    case "remove": return `${kindOf(edit.a, edit.b)} ${edit.a} to ${edit.b} removed`;
    case "move": {
      const [a, b] = edit.from;
      const [c, d] = edit.to;
      const now = kindOf(c, d);
      return `${kindOf(a, b)} ${a} to ${b} moved to ${c} to ${d}` +
        (now !== kindOf(a, b) ? ` (now a ${now})` : "");
    }
    case "trap": return `trap on square ${edit.square} ${edit.on ? "added" : "removed"}`;
    case "die": return `die set to ${facesText(edit.faces)}`;
    case "size": return `board size set to ${edit.size} squares${edit.dropped.length
      ? ` (taken off with the squares past ${edit.size}: ${edit.dropped.join(", ")})` : ""}`;
    case "overshoot": return `a roll past the end: ${edit.rule} (${OVERSHOOT_HELP[/** @type {keyof typeof OVERSHOOT_HELP} */ (edit.rule)]})`;
    case "bonus": return edit.face === null ? "no roll again" : `roll again on a ${edit.face}`;
    case "reset": return `board reset to ${edit.name}`;
    case "load":
      return edit.origin === "address" ? "board opened from the page address"
        : edit.origin === "python" ? "board set from Python" : "board loaded";
    case "undo": return `undone: ${describeEdit(edit.edit)}`;
    case "redo": return `redone: ${describeEdit(edit.edit)}`;
    default: return "board changed";
  }
}

/**
 * What the live region says after an edit, e.g.
 * "ladder 12 to 44 added: expected length 31.7 turns, was 39.2".
 * @param {any} edit
 * @param {number} now Expected turns from square 0 after the edit.
 * @param {number | null} was Before it (null if unknown).
 */
export function announcement(edit, now, was) {
  const head = `${describeEdit(edit)}: expected length ${turnsText(now, was)} turns`;
  if (was === null) return head;
  return was === now ? `${head}, unchanged` : `${head}, was ${turnsText(was, now)}`;
}

/**
 * The cursor's square in words, e.g. "square 12, ladder to 44, expected 31.2 turns from here".
 * From a jump's source the expected turns are those from where the jump lands (a token never
 * stays on a source).
 * @param {any} board A canonical board.
 * @param {number} square
 * @param {ArrayLike<number> | null} expected Expected turns per square (null if not known).
 * @param {any} [pick] The jump being drawn (`state.pick`), if any.
 * @param {"keyboard" | "mouse"} [way] How the student is editing: the hint names its key or click.
 */
export function describeSquare(board, square, expected, pick = null, way = "keyboard") {
  const n = board.size;
  const parts = [`square ${square}`];
  if (square === 0) parts[0] += " (the start, off the board)";
  if (square === n) parts[0] += " (the final square)";
  const to = jumpFrom(board, square);
  const trap = board.traps.includes(square);
  if (to !== null) parts.push(`${kindOf(square, to)} to ${to}`);
  if (trap) parts.push("a trap: the game ends here");
  const into = board.jumps.filter((/** @type {number[]} */ [, b]) => b === square).map((/** @type {number[]} */ [a, b]) => `${kindOf(a, b)} from ${a}`);
  if (into.length) parts.push(`end of the ${into.join(" and the ")}`);
  if (expected && !trap && square !== n) {
    parts.push(`expected ${turnsText(expected[to ?? square])} turns from here`);
  }
  return parts.join(", ") + pickHint(square, pick, way);
}

/**
 * What finishing the jump being drawn on `square` does, in the student's own way: keys for the
 * keyboard, clicks for a mouse ("" when no jump is being drawn).
 * @param {number} square
 * @param {any} pick `state.pick`.
 * @param {"keyboard" | "mouse"} way
 */
export function pickHint(square, pick, way = "keyboard") {
  const act = way === "mouse" ? "a click" : "Enter";
  if (pick && pick.from !== undefined) {
    if (square === pick.from) {
      return way === "mouse" ? "; a click here cancels the jump" : "; Enter here cancels the jump";
    }
    return `; ${act} ends the jump from ${pick.from} here`;
  }
  if (pick?.move) {
    return `; ${act} moves the ${pick.move.end === "source" ? "start" : "end"} of the jump ` +
      `from ${pick.move.source} here`;
  }
  return "";
}
