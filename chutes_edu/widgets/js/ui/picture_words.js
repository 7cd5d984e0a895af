// @ts-check
/**
 * The board pictures' text alternatives in the page's language.
 *
 * In English they are the library's words, made by maths/board_explorer_math.js
 * (`describeBoard`, `describeDistribution`, held equal to `draw_board` and `plot_distribution` by
 * the parity tests), and this module returns them untouched. In another language the same facts
 * are said in whole templates of the catalog (core/i18n.js's `t`), one per part of the
 * description, each with its numbers as placeholders, so that a translation may put them in its
 * own order: the board, its ladders and chutes, its traps, what the colours show.
 *
 * @module picture_words
 */
import { describeBoard, describeDistribution } from "../maths/board_explorer_math.js";
import { formatG, pyFixed } from "../core/format.js";

/** @typedef {import("../core/i18n.js").Translate} Translate */

/** Whether `t` speaks English (no translation of the board's own template). */
function english(/** @type {Translate} */ t) {
  const probe = "a {size}-square Chutes and Ladders board";
  return t(probe) === probe;
}

/** "1 ladder", "3 ladders", "no ladders" in the language of `t`. */
function count(/** @type {Translate} */ t, /** @type {number} */ n, /** @type {string} */ thing) {
  /** @type {Record<string, [string, string, string]>} */
  const words = {
    ladder: [t("no ladders"), t("{n} ladder"), t("{n} ladders")],
    chute: [t("no chutes"), t("{n} chute"), t("{n} chutes")],
    trap: [t("no traps"), t("{n} trap"), t("{n} traps")],
    square: [t("no squares"), t("{n} square"), t("{n} squares")],
  };
  const [none, one, many] = words[thing];
  return (n === 0 ? none : n === 1 ? one : many).replace("{n}", String(n));
}

/** The library's `_fmt`: 3 significant digits, or a whole number from 1000 on. */
function fmt(/** @type {number} */ x) {
  if (!Number.isFinite(x)) return "";
  return Math.abs(x) < 1000 ? formatG(x, 3) : pyFixed(x, 0);
}

/** "Title: sentence", or "Title? Sentence" (the library's `_titled`). */
function titled(/** @type {string} */ title, /** @type {string} */ sentence) {
  const upper = sentence.slice(0, 1).toUpperCase() + sentence.slice(1);
  if (!title) return upper;
  return "?!.".includes(title.trimEnd().slice(-1) || "x") ? `${title} ${upper}`
    : `${title}: ${sentence}`;
}

/**
 * The board picture's description (`describeBoard`'s facts) in the language of `t`.
 * @param {Translate} t
 * @param {{size: number, jumps?: number[][], traps?: number[]}} board A JSON board.
 * @param {{name?: string, title?: string, label?: string, values?: ArrayLike<number> | null}}
 *     shown
 * @returns {string}
 */
export function describeBoardIn(t, board, shown = {}) {
  if (english(t)) return describeBoard(board, shown);
  const { size, jumps = [], traps = [] } = board;
  const { name = "", title = "", label = "", values = null } = shown;
  const what = name ? t("the {size}-square board '{name}'", { size, name })
    : t("a {size}-square Chutes and Ladders board", { size });
  const shownTitle = title.replace(/\n/g, "; ");
  const ladders = jumps.filter(([a, b]) => b > a).length;
  const chutes = jumps.length - ladders;
  const ladderKind = ladders === 0 ? "" : ladders === 1 ? t(" (solid blue arrow)")
    : t(" (solid blue arrows)");
  const chuteKind = chutes === 0 ? "" : chutes === 1 ? t(" (dashed orange arrow)")
    : t(" (dashed orange arrows)");
  let text = titled(shownTitle === name ? "" : shownTitle, what) +
    t(" with {ladders} and {chutes}", { ladders: count(t, ladders, "ladder") + ladderKind,
      chutes: count(t, chutes, "chute") + chuteKind });
  if (traps.length) {
    const sorted = [...traps].sort((a, b) => a - b);
    const squares = sorted.length === 1 ? t("square {square}", { square: sorted[0] })
      : t("squares {first} and {last}", { first: sorted.slice(0, -1).join(", "),
        last: sorted[sorted.length - 1] });
    text += t(", and {traps} where the game ends on {squares} (dark red with white crosses)",
      { traps: count(t, traps.length, "trap"), squares });
  }
  if (values !== null) {
    const finite = Array.from(values).filter(Number.isFinite);
    if (finite.length) {
      text += t("; colour shows {label}, from {low} to {high}", {
        label: label || t("a value per square"), low: fmt(Math.min(...finite)),
        high: fmt(Math.max(...finite)) });
      if (Number.isFinite(values[0])) text += t(", {value} at the start", { value: fmt(values[0]) });
    }
    let grey = 0;
    for (let s = 1; s < values.length; s += 1) if (!Number.isFinite(values[s])) grey += 1;
    if (grey) text += t(" (grey: {squares} without a value)", { squares: count(t, grey, "square") });
  }
  return `${text}.`;
}

/**
 * The game-length picture's description (`describeDistribution`'s facts) in the language of `t`.
 * @param {Translate} t
 * @param {import("../maths/board_explorer_math.js").DistributionStats} stats
 * @param {number} xmax The x-axis end shown.
 * @param {string} title The picture's title, said.
 * @returns {string}
 */
export function describeDistributionIn(t, stats, xmax, title) {
  if (english(t)) return describeDistribution(stats, xmax, title);
  const values = { title, xmax: pyFixed(xmax, 0), mean: pyFixed(stats.mean, 2),
    median: stats.median, mode: stats.mode };
  return t("{title} Bars show the probability P(T = k) that a game takes k turns, the " +
    "dash-dotted line the cumulative probability P(T ≤ k), for k up to {xmax}; mean {mean} " +
    "turns (solid line), median {median} turns (dashed), mode {mode} turns (dotted).", values);
}
