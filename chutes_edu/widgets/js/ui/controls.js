// @ts-check
/**
 * What every explorer's front end in the page shares (issue 28): named native controls, the
 * message line, the polite live region, and numbers written as the library writes them.
 *
 * - `slider`: an `<input type="range">` with a `<label>` (its accessible name) and
 *   `aria-valuetext` (the value as shown beside it); the arrows, Page Up/Down, Home and End move
 *   it, as the browser's own range input does.
 * - `numberBox`: an `<input type="number">` with a `<label>`; a value counts when it is
 *   committed (Enter, or leaving the box), so typing "1000" is one change, not four.
 * - `messageLine`: a refusal in words (`role="alert"`), empty when all is well.
 * - `liveRegion`: a polite status a screen reader reads once after a change (visually hidden).
 *
 * Explorers build their page from these and a `model` (an anywidget model, or `createModel`'s
 * stand-in on a page with no widget manager): a control sets the model's trait and saves it;
 * the explorer redraws on the model's `change:<trait>` events, whoever made the change.
 *
 * @module explorer_ui
 */
import { h, text } from "./dom.js";

let instances = 0;

/** A fresh id prefix for one explorer on the page. */
export function uniqueId(/** @type {string} */ prefix) {
  instances += 1;
  return `${prefix}-${instances}`;
}

/** A whole number with thousands separators, as Python's f"{n:,}". */
export function grouped(/** @type {number} */ n) {
  return Math.round(n).toLocaleString("en-US");
}

/** A number with `digits` decimals, as Python's f"{x:.{digits}f}" (ties aside). */
export function fixed(/** @type {number} */ x, /** @type {number} */ digits) {
  const out = x.toFixed(digits);
  return /^-0\.?0*$/.test(out) ? out.slice(1) : out;
}

/**
 * A labelled native slider. `onInput(value)` is called as it moves. Its value is shown, and said
 * (`aria-valuetext`), with its `unit`: a word, or a function of the value for a word that
 * changes with it (`(k) => (k === 1 ? one : many)`, for "1 jump" and "2 jumps", not "1 jumps").
 * @param {{id: string, label: string, min: number, max: number, step: number,
 *          decimals: number, unit?: string | ((value: number) => string), className?: string,
 *          onInput: (value: number) => void}} options
 */
export function slider({ id, label, min, max, step, decimals, unit = "", className = "",
  onInput }) {
  const input = /** @type {HTMLInputElement} */ (h("input", { type: "range", id, min, max, step }));
  const shown = h("span", { class: "chutes-slider-value", "aria-hidden": "true" });
  const box = h("div", { class: `chutes-slider ${className}`.trim() },
    [h("label", { for: id, text: label }), input, shown]);
  const words = (/** @type {number} */ v) => {
    const word = typeof unit === "function" ? unit(v) : unit;
    return word ? `${fixed(v, decimals)} ${word}` : fixed(v, decimals);
  };
  const set = (/** @type {number} */ value) => {
    if (Number(input.value) !== value) input.value = String(value);
    const said = words(value);
    if (input.getAttribute("aria-valuetext") !== said) input.setAttribute("aria-valuetext", said);
    text(shown, said);
  };
  input.addEventListener("input", () => {
    const value = Number(input.value);
    set(value);
    onInput(value);
  });
  return { box, input, set };
}

/**
 * A labelled native number box. `onCommit(text)` gets what was typed when it is committed.
 * @param {{id: string, label: string, min: number, max: number, step?: number,
 *          className?: string, onCommit: (typed: string) => void}} options
 */
export function numberBox({ id, label, min, max, step = 1, className = "", onCommit }) {
  const input = /** @type {HTMLInputElement} */ (h("input", { type: "number", id, min, max, step,
    inputmode: "numeric" }));
  const box = h("div", { class: `chutes-number ${className}`.trim() },
    [h("label", { for: id, text: label }), input]);
  input.addEventListener("change", () => onCommit(input.value));
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") onCommit(input.value);
  });
  const set = (/** @type {number} */ value) => {
    if (input.value !== String(value)) input.value = String(value);
  };
  return { box, input, set };
}

/**
 * The message line: a refusal in words, read out at once; `say("")` clears it. With `t`
 * (core/i18n.js), the words are said in its language: a refusal made in English elsewhere (the
 * board maths, in the library's words) is said back through the catalog.
 * @param {(message: string) => string} [t]
 */
export function messageLine(t) {
  const el = h("p", { class: "chutes-message", role: "alert" });
  return { el, say: (/** @type {string} */ words) => text(el, t && words ? t(words) : words) };
}

/** A polite live region, visually hidden: `say(words)` after a change. */
export function liveRegion() {
  const el = h("div", { class: "chutes-live chutes-visually-hidden", role: "status",
    "aria-live": "polite", "aria-atomic": "true" });
  return { el, say: (/** @type {string} */ words) => text(el, words) };
}

/** The words of an error (a BoardError's message is already one short line). */
export function errorWords(/** @type {unknown} */ error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A sentence said whole (a catalog entry, its placeholders in the translation's order) as the
 * page's pieces: `filled("expected {turns} turns", {turns: h("b", ...)})` gives the text and the
 * element in the sentence's order, so that a number shown in bold keeps its place in any language.
 * @param {string} words The sentence, said, with `{name}` placeholders left in.
 * @param {Record<string, string | Node>} parts
 * @returns {Array<string | Node>}
 */
export function filled(words, parts) {
  return words.split(/(\{\w+\})/).filter(Boolean).map((piece) => {
    const name = /^\{(\w+)\}$/.exec(piece)?.[1];
    return name !== undefined && Object.hasOwn(parts, name) ? parts[name] : piece;
  });
}

/**
 * What each overshoot rule does (maths/boards.js's `OVERSHOOT_HELP`), in the language of `t`.
 * @param {(message: string) => string} t
 * @returns {Record<string, string>}
 */
export function overshootHelp(t) {
  return { stay: t("a roll past the last square is lost"),
    win: t("a roll past the last square wins"),
    bounce: t("walk back the excess from the last square"),
    stop_short: t("a roll past the last square stops one short") };
}

/** The language of the page an explorer is drawn on (its `<html lang>`), "en" if none. */
export function pageLanguage() {
  const lang = typeof document === "undefined" ? "" : document.documentElement?.lang ?? "";
  return lang || "en";
}
