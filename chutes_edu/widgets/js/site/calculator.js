// @ts-check
/**
 * The board calculator of the exercise pages: what an exercise reasons from, to the digits its
 * answer box needs, where no explorer shows it (issue 50). book/answers.py puts a
 * `.chutes-calculator-mount` above the box of each exercise that needs one (its `CALCULATED`);
 * site/site.js draws one there with `mount` (the website loads this module as site-calculator.js).
 *
 * The learner sets the board the exercise names (a named board, the die, the rule past the last
 * square, a face that rolls again, the start square) and reads, computed in the page by the
 * explorers' maths (maths/board_math.js, maths/jump_math.js, held to the library by tests/js/):
 *
 * - the expected number of turns from every square, jump sources marked (no token rests there);
 * - the distribution of the game's length, row by row: P(T = k), P(T <= k), P(T > k),
 *   E[min(T, k)], E[T] - E[min(T, k)] and P(T > k) / P(T > k - 1), and the chance of a tie
 *   between two players, the sum of P(T = k)^2;
 * - how many jumps of a least length can be added to the board, one at a time.
 *
 * Every word is in the page's language (`<html lang>`: `translator(pageLanguage())`), the rules'
 * names and the board's names kept as the library spells them; a refusal of the board maths is said
 * back by `t` like the explorers'. Every figure is shown to DIGITS significant digits. The calculator is never told the exercise's
 * numbers: it starts on the 1943 board and shows what the learner asks for.
 *
 * @module site/calculator
 */
import { BoardError, expectedTurns, OVERSHOOT_RULES, turnDistribution } from "../maths/board_math.js";
import { jumpEffects } from "../maths/jump_math.js";
import { said, translator } from "../core/i18n.js";
import { pageLanguage } from "../ui/controls.js";

export { CALCULATOR_MOUNT } from "./places.js";
/** Significant digits of every figure shown: more than any box's tolerance needs (1e-6 and 2). */
export const DIGITS = 10;
/** The distribution is computed until less than this is left (far below any figure shown)... */
export const DEEP_TAIL = 1e-20;
/** ...and shown while P(T > k - 1) is at least this. */
export const SHOWN_TAIL = 1e-15;
/** The refusal of a start off the board (a pattern that `t` says back). */
const OFF_BOARD = said("start {start} is off the board");

/**
 * @typedef {object} LengthRow
 * @property {number} k
 * @property {number} p P(T = k)
 * @property {number} cdf P(T <= k)
 * @property {number} over P(T > k), summed from the far end (exact to the last digits shown)
 * @property {number} capped E[min(T, k)] = sum_{j < k} P(T > j)
 * @property {number} left E[T] - E[min(T, k)]
 * @property {number} ratio P(T > k) / P(T > k - 1) (NaN for k = 0)
 */

/**
 * The game's length from `start` on `board`, row by row (see LengthRow), its mean from the
 * expected turns (a solve, not the truncated sum) and the chance of a tie of two players' games.
 * @param {any} board A JSON board (maths/board_math.js).
 * @param {number} start
 * @returns {{mean: number, tie: number, rows: LengthRow[]}}
 * @throws {BoardError} for an invalid board or start.
 */
export function lengthTable(board, start) {
  const mean = expectedTurns(board)[start];
  if (mean === undefined) throw new BoardError(OFF_BOARD.replace("{start}", String(start)));
  const pmf = turnDistribution(board, { start, tail: DEEP_TAIL });
  const over = new Float64Array(pmf.length);
  let rest = 0;
  for (let k = pmf.length - 1; k >= 0; k -= 1) {
    over[k] = rest;
    rest += pmf[k];
  }
  /** @type {LengthRow[]} */
  const rows = [];
  let cdf = 0;
  let capped = 0;
  let tie = 0;
  for (let k = 0; k < pmf.length; k += 1) {
    cdf += pmf[k];
    tie += pmf[k] * pmf[k];
    if (k === 0 || over[k - 1] >= SHOWN_TAIL) {
      rows.push({ k, p: pmf[k], cdf, over: over[k], capped, left: mean - capped,
        ratio: k === 0 ? NaN : over[k] / over[k - 1] });
    }
    capped += over[k];
  }
  return { mean, tie, rows };
}

/**
 * How many jumps a -> b with |a - b| >= minLength can be added to the board one at a time (the
 * finite entries of the library's `jump_effects(board, min_length)`).
 * @param {any} board
 * @param {number} minLength
 * @returns {number}
 */
export function addableJumps(board, minLength) {
  const { effects } = jumpEffects(board, { minLength });
  let count = 0;
  for (const value of effects) if (Number.isFinite(value)) count += 1;
  return count;
}

/**
 * A figure as the calculator shows it: DIGITS significant digits ("0.02219322236",
 * "3.139465121e-7"), 0 as "0", no figure as "–".
 * @param {number} x
 */
export function figure(x) {
  if (!Number.isFinite(x)) return "\u2013";
  if (x === 0) return "0";
  return x.toPrecision(DIGITS);
}

let made = 0;

/**
 * @param {string} tag
 * @param {Record<string, string>} [attributes]
 * @param {string} [text]
 */
function element(tag, attributes = {}, text = "") {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  if (text) el.textContent = text;
  return el;
}

/**
 * A labelled control in a row of the form.
 * @param {HTMLElement} form
 * @param {string} id
 * @param {string} label
 * @param {HTMLElement} control
 */
function row(form, id, label, control) {
  const line = element("div", { class: "chutes-calculator-row" });
  control.id = id;
  line.append(element("label", { for: id }, label), control);
  form.append(line);
  return control;
}

/**
 * @param {string} caption
 * @param {string[]} head
 * @param {string[][]} body
 */
function tableHtml(caption, head, body) {
  const esc = (/** @type {string} */ s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  return `<table><caption>${esc(caption)}</caption><thead><tr>${
    head.map((h) => `<th scope="col">${esc(h)}</th>`).join("")}</tr></thead><tbody>${
    body.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${esc(c)}</th>`
      : `<td>${esc(c)}</td>`)).join("")}</tr>`).join("")}</tbody></table>`;
}

/**
 * A closed part of the results, its table in a named region that scrolls (a Tab stop).
 * @param {string} name
 * @param {string} summary
 */
function part(name, summary) {
  const details = element("details", { class: `chutes-calculator-${name}` });
  details.append(element("summary", {}, summary));
  const region = element("div", { class: "chutes-calculator-table", tabindex: "0", role: "region",
    "aria-label": summary });
  details.append(region);
  return { details, region };
}

/**
 * Draw a calculator in `el`.
 * @param {HTMLElement} el
 * @param {{presets?: Record<string, any>, open?: string, exercise?: string}} [options]
 *     `presets`: the named boards (window.ChutesBoardPresets); `open`: the table shown open
 *     ("squares" or "distribution"; the jump count is always shown).
 */
export function mount(el, { presets = {}, open = "", exercise = "" } = {}) {
  const t = translator(pageLanguage());
  made += 1;
  const id = `chutes-calc-${made}`;
  const names = Object.keys(presets);
  const box = element("section", { class: "chutes-calculator", "aria-labelledby": `${id}-title` });
  box.append(element("p", { class: "chutes-calculator-title", id: `${id}-title` },
    exercise ? t("Board calculator for exercise {exercise}", { exercise }) : t("Board calculator")));
  box.append(element("p", {}, t("Set the board the exercise names and press \u201c{compute}\u201d: "
    + "the page computes, with no Python, the expected turns from every square and the "
    + "distribution of the game's length, each figure to {digits} significant digits, and "
    + "counts the jumps that can be added. What the exercise asks of them is yours to work out.",
  { compute: t("compute"), digits: DIGITS })));
  const form = element("div", { class: "chutes-calculator-form" });
  const pick = /** @type {HTMLSelectElement} */ (row(form, `${id}-board`, t("board"), element("select")));
  for (const name of names) pick.append(element("option", { value: name }, name));
  const die = /** @type {HTMLInputElement} */ (row(form, `${id}-die`, t("die faces"),
    element("input", { type: "number", min: "2", max: "12", step: "1", value: "6" })));
  const rule = /** @type {HTMLSelectElement} */ (row(form, `${id}-rule`,
    t("rule past the last square"), element("select")));
  for (const name of OVERSHOOT_RULES) rule.append(element("option", { value: name }, name));
  const bonus = /** @type {HTMLSelectElement} */ (row(form, `${id}-bonus`,
    t("a roll of this face rolls again"), element("select")));
  bonus.append(element("option", { value: "" }, t("none")));
  for (let f = 1; f <= 12; f += 1) bonus.append(element("option", { value: String(f) }, String(f)));
  const start = /** @type {HTMLInputElement} */ (row(form, `${id}-start`, t("start square"),
    element("input", { type: "number", min: "0", step: "1", value: "0" })));
  const compute = element("button", { type: "button" }, t("compute"));
  form.append(compute);
  box.append(form);
  const status = element("p", { class: "chutes-calculator-status", role: "status" });
  box.append(status);
  const summary = element("p", { class: "chutes-calculator-summary" });
  box.append(summary);
  const squares = part("squares", t("expected turns from every square"));
  const lengths = part("distribution", t("the distribution of the game's length"));
  box.append(squares.details, lengths.details);

  // Not folded away like the tables: a control in a closed part is one an auditor (and a reader
  // moving by form fields) does not find with its label.
  const jumps = element("div", { class: "chutes-calculator-jumps" });
  jumps.append(element("p", { class: "chutes-calculator-title" }, t("Jumps that can be added")));
  const jumpForm = element("div", { class: "chutes-calculator-form" });
  const least = /** @type {HTMLInputElement} */ (row(jumpForm, `${id}-least`,
    t("shortest jump counted, |a \u2212 b| at least"), element("input",
      { type: "number", min: "1", step: "1", value: "1" })));
  const count = element("button", { type: "button" }, t("count jumps"));
  jumpForm.append(count);
  const counted = element("p", { role: "status" });
  jumps.append(element("p", {}, t("How many jumps a \u2192 b of that length or more can be added "
    + "to the board above one at a time (the jump explorer's finite entries): not from the first "
    + "or the last square, nor from or onto a square that has a jump, nor one that would make "
    + "the board unfinishable.")), jumpForm, counted);
  box.append(jumps);
  for (const p of [squares.details, lengths.details]) {
    if (p.className.endsWith(`-${open}`)) /** @type {HTMLDetailsElement} */ (p).open = true;
  }
  el.append(box);

  const preset = (/** @type {string} */ name) => presets[name] ?? presets[names[0]];
  function board() {
    const base = preset(pick.value);
    const bonusFace = bonus.value === "" ? null : Number(bonus.value);
    return { ...base, die: Number(die.value), overshoot: rule.value, bonus_roll: bonusFace };
  }
  function fill() {
    const base = preset(pick.value);
    if (!base) return;
    die.value = String(Array.isArray(base.die) ? base.die.length : base.die);
    rule.value = base.overshoot;
    bonus.value = base.bonus_roll === null || base.bonus_roll === undefined ? ""
      : String(base.bonus_roll);
  }
  /** @param {unknown} error */
  function refused(error) {
    if (!(error instanceof BoardError)) throw error;
    return t("The page cannot compute this board: {reason}", { reason: t(error.message) });
  }
  function run() {
    /** @type {any} */
    let b;
    try {
      b = board();
      const from = Number(start.value);
      const turns = expectedTurns(b);
      const table = lengthTable(b, from);
      const rests = new Set((b.jumps ?? []).map((/** @type {number[]} */ j) => j[0]));
      squares.region.innerHTML = tableHtml(t("Expected turns to finish, by square"),
        [t("square"), t("expected turns"), t("note")],
        Array.from(turns, (v, s) => [String(s), figure(v), s === b.size ? t("the last square")
          : rests.has(s) ? t("a jump starts here: no token rests here") : ""]));
      lengths.region.innerHTML = tableHtml(t("The game's length T from square {from}", { from }),
        ["k", "P(T = k)", "P(T \u2264 k)", "P(T > k)", "E[min(T, k)]", "E[T] \u2212 E[min(T, k)]",
          "P(T > k) / P(T > k \u2212 1)"],
        table.rows.map((r) => [String(r.k), figure(r.p), figure(r.cdf), figure(r.over),
          figure(r.capped), figure(r.left), figure(r.ratio)]));
      summary.textContent = t("From square {from}: E[T] = {mean} turns. Two players who both "
        + "start there finish on the same turn with chance \u2211 P(T = k)\u00b2 = {tie}. The "
        + "tables below hold the rest.", { from, mean: figure(table.mean), tie: figure(table.tie) });
      status.textContent = t("Computed.");
    } catch (error) {
      status.textContent = refused(error);
      summary.textContent = "";
      squares.region.textContent = "";
      lengths.region.textContent = "";
    }
  }
  pick.addEventListener("change", fill);
  compute.addEventListener("click", run);
  count.addEventListener("click", () => {
    try {
      const c = addableJumps(board(), Number(least.value));
      const values = { count: c, least: least.value };
      counted.textContent = c === 1
        ? t("{count} jump of length {least} or more can be added to this board.", values)
        : t("{count} jumps of length {least} or more can be added to this board.", values);
    } catch (error) {
      counted.textContent = refused(error);
    }
  });
  fill();
  // The first tables in a task of their own: the calculator is drawn first, then computed and
  // its tables laid out (a thousand rows: drawing both in one task was a task of a second on a
  // phone; issue 52).
  setTimeout(run, 0);
  return { run, element: box };
}
