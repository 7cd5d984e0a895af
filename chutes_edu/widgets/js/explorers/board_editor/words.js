/**
 * What the editor says: an edit in words, the announcement after it (the new expected length and
 * the old one, with as many decimals as it takes to tell them apart), and the cursor's square in
 * words. The instructions name the way the student is using: keys for the keyboard ("Enter here
 * cancels the jump"), clicks for a mouse ("click here again to cancel the jump"). Pure functions:
 * Node tests them. Each says its words in the language of its last argument `t` (core/i18n.js;
 * English by default), a whole sentence per case, so that a translation orders it its own way.
 *
 * @module editor_words
 */
import { jumpFrom, kindOf } from "../../maths/boards.js";
import { translator } from "../../core/i18n.js";
import { overshootHelp } from "../../ui/controls.js";

/** @typedef {import("../../core/i18n.js").Translate} Translate */
const ENGLISH = translator("en");

/** A whole number of turns in words: "1 turn", "7 turns". */
export const turns = (/** @type {number | null} */ k, t = ENGLISH) =>
  (k === 1 ? t("{k} turn", { k }) : t("{k} turns", { k: String(k) }));

/** A number of faces in words: "1 face", "6 faces". */
export const facesText = (/** @type {number} */ m, t = ENGLISH) =>
  (m === 1 ? t("{m} face", { m }) : t("{m} faces", { m }));

/** "ladder 12 to 44", "chute 40 to 3" in the language of `t`. */
const jumpWords = (/** @type {number} */ a, /** @type {number} */ b, t = ENGLISH) =>
  (kindOf(a, b) === "ladder" ? t("ladder {a} to {b}", { a, b }) : t("chute {a} to {b}", { a, b }));

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
export function describeEdit(edit, t = ENGLISH) {
  switch (edit.kind) {
    case "add": return t("{jump} added", { jump: jumpWords(edit.a, edit.b, t) });
    case "remove": return t("{jump} removed", { jump: jumpWords(edit.a, edit.b, t) });
    case "move": {
      const [a, b] = edit.from;
      const [c, d] = edit.to;
      const now = kindOf(c, d);
      const moved = t("{jump} moved to {c} to {d}", { jump: jumpWords(a, b, t), c, d });
      if (now === kindOf(a, b)) return moved;
      return moved + (now === "ladder" ? t(" (now a ladder)") : t(" (now a chute)"));
    }
    case "trap": return edit.on ? t("trap on square {square} added", { square: edit.square })
      : t("trap on square {square} removed", { square: edit.square });
    case "die": return t("die set to {faces}", { faces: facesText(edit.faces, t) });
    case "size": return edit.dropped.length
      ? t("board size set to {size} squares (taken off with the squares past {size}: {dropped})",
        { size: edit.size, dropped: edit.dropped.join(", ") })
      : t("board size set to {size} squares", { size: edit.size });
    case "overshoot": return t("a roll past the end: {rule} ({help})",
      { rule: edit.rule, help: overshootHelp(t)[edit.rule] ?? "" });
    case "bonus": return edit.face === null ? t("no roll again")
      : t("roll again on a {face}", { face: edit.face });
    case "reset": return t("board reset to {name}", { name: edit.name });
    case "load":
      return edit.origin === "address" ? t("board opened from the page address")
        : edit.origin === "python" ? t("board set from Python") : t("board loaded");
    case "undo": return t("undone: {edit}", { edit: describeEdit(edit.edit, t) });
    case "redo": return t("redone: {edit}", { edit: describeEdit(edit.edit, t) });
    default: return t("board changed");
  }
}

/**
 * What the live region says after an edit, e.g.
 * "ladder 12 to 44 added: expected length 31.7 turns, was 39.2".
 * @param {any} edit
 * @param {number} now Expected turns from square 0 after the edit.
 * @param {number | null} was Before it (null if unknown).
 * @param {Translate} [t] Its language (default English).
 */
export function announcement(edit, now, was, t = ENGLISH) {
  const values = { edit: describeEdit(edit, t), now: turnsText(now, was) };
  if (was === null) return t("{edit}: expected length {now} turns", values);
  return was === now ? t("{edit}: expected length {now} turns, unchanged", values)
    : t("{edit}: expected length {now} turns, was {was}", { ...values, was: turnsText(was, now) });
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
 * @param {Translate} [t] Its language (default English).
 */
export function describeSquare(board, square, expected, pick = null, way = "keyboard",
  t = ENGLISH) {
  const n = board.size;
  const parts = [square === 0 ? t("square 0 (the start, off the board)")
    : square === n ? t("square {square} (the final square)", { square })
      : t("square {square}", { square })];
  const to = jumpFrom(board, square);
  const trap = board.traps.includes(square);
  if (to !== null) {
    parts.push(kindOf(square, to) === "ladder" ? t("ladder to {to}", { to })
      : t("chute to {to}", { to }));
  }
  if (trap) parts.push(t("a trap: the game ends here"));
  const into = board.jumps.filter((/** @type {number[]} */ [, b]) => b === square)
    .map((/** @type {number[]} */ [a, b]) => (kindOf(a, b) === "ladder"
      ? t("the ladder from {a}", { a }) : t("the chute from {a}", { a })));
  if (into.length) {
    parts.push(t("end of {jumps}", { jumps: into.join(t(" and ")) }));
  }
  if (expected && !trap && square !== n) {
    parts.push(t("expected {turns} turns from here", { turns: turnsText(expected[to ?? square]) }));
  }
  return parts.join(", ") + pickHint(square, pick, way, t);
}

/**
 * What finishing the jump being drawn on `square` does, in the student's own way: keys for the
 * keyboard, clicks for a mouse ("" when no jump is being drawn).
 * @param {number} square
 * @param {any} pick `state.pick`.
 * @param {"keyboard" | "mouse"} way
 * @param {Translate} [t] Its language (default English).
 */
export function pickHint(square, pick, way = "keyboard", t = ENGLISH) {
  const mouse = way === "mouse";
  if (pick && pick.from !== undefined) {
    if (square === pick.from) {
      return mouse ? t("; a click here cancels the jump") : t("; Enter here cancels the jump");
    }
    const from = { from: pick.from };
    return mouse ? t("; a click ends the jump from {from} here", from)
      : t("; Enter ends the jump from {from} here", from);
  }
  if (pick?.move) {
    const from = { from: pick.move.source };
    const start = pick.move.end === "source";
    if (mouse) {
      return start ? t("; a click moves the start of the jump from {from} here", from)
        : t("; a click moves the end of the jump from {from} here", from);
    }
    return start ? t("; Enter moves the start of the jump from {from} here", from)
      : t("; Enter moves the end of the jump from {from} here", from);
  }
  return "";
}
