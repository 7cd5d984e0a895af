/**
 * The editor's controls: the named-board menu (with a "custom board" entry while the board is
 * the student's own), the die's faces, the board's size, the rule for a roll past the end, the
 * face that rolls again, and the trap, delete, undo and redo buttons. Each control turns into one
 * action for `update`; `draw` shows a state on them.
 *
 * @module editor_controls
 */
import { OVERSHOOT_RULES } from "../../maths/board_math.js";
import { DIE_MAX, DIE_MIN, faces, jumpFrom, MAX_SIZE, MIN_SIZE } from "../../maths/boards.js";
import { attr, h, text } from "../../ui/dom.js";
import { overshootHelp } from "../../ui/controls.js";
import { said, translator } from "../../core/i18n.js";
import { facesText } from "./words.js";

/** @typedef {import("../../core/i18n.js").Translate} Translate */

/** The menu's entry for a board that is none of the named ones. */
export const CUSTOM = "custom board (your edits)";
const CUSTOM_WORDS = said("custom board (your edits)");

/** The controls' elements, in the order a keyboard reaches them. */
function elements(/** @type {string} */ id, /** @type {Translate} */ t) {
  return {
    preset: /** @type {HTMLSelectElement} */ (h("select", { id: `${id}-preset` })),
    reset: /** @type {HTMLButtonElement} */ (h("button", { type: "button",
      text: t("reset to this board") })),
    die: /** @type {HTMLInputElement} */ (h("input", { type: "range", id: `${id}-die`, min: DIE_MIN,
      max: DIE_MAX, step: 1 })),
    dieShown: h("span", { class: "chutes-slider-value", "aria-hidden": "true" }),
    size: /** @type {HTMLInputElement} */ (h("input", { type: "number", id: `${id}-size`,
      min: MIN_SIZE, max: MAX_SIZE, step: 1, inputmode: "numeric", class: "chutes-editor-size-input" })),
    rules: OVERSHOOT_RULES.map((rule) => /** @type {HTMLInputElement} */ (h("input", {
      type: "radio", name: `${id}-rule`, id: `${id}-rule-${rule}`, value: rule }))),
    bonus: /** @type {HTMLSelectElement} */ (h("select", { id: `${id}-bonus` })),
    trap: /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "chutes-editor-trap" })),
    remove: /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "chutes-editor-delete" })),
    undo: /** @type {HTMLButtonElement} */ (h("button", { type: "button", text: t("undo"),
      "aria-keyshortcuts": "Control+Z" })),
    redo: /** @type {HTMLButtonElement} */ (h("button", { type: "button", text: t("redo"),
      "aria-keyshortcuts": "Control+Y" })),
  };
}

/**
 * The controls, laid out with their labels, and wired to `dispatch`.
 * @param {string} id A prefix for the ids.
 * @param {(action: any) => void} dispatch
 * @param {() => any} current The editor's state now.
 * @param {Translate} [t] The controls' language (default English).
 */
export function createControls(id, dispatch, current, t = translator("en")) {
  const el = elements(id, t);
  const help = overshootHelp(t);
  const rulesBox = h("fieldset", { class: "chutes-editor-rules" }, [
    h("legend", { text: t("a roll past the end") }),
    ...OVERSHOOT_RULES.map((rule, i) => h("label", { for: `${id}-rule-${rule}` },
      [el.rules[i], ` ${rule}: ${help[rule]}`]))]);
  const box = h("div", { class: "chutes-editor-controls" }, [
    h("div", { class: "chutes-editor-row" }, [
      h("label", { for: `${id}-preset`, text: t("named board") }), el.preset, el.reset]),
    h("div", { class: "chutes-slider chutes-editor-die" }, [
      h("label", { for: `${id}-die`, text: t("die faces") }), el.die, el.dieShown]),
    h("div", { class: "chutes-editor-row chutes-editor-size" }, [
      h("label", { for: `${id}-size`, text: t("squares on the board") }), el.size,
      h("span", { class: "chutes-editor-hint", id: `${id}-size-hint`,
        text: t("{low} to {high}; a smaller board drops the jumps and traps past its end",
          { low: MIN_SIZE, high: MAX_SIZE }) })]),
    rulesBox,
    h("div", { class: "chutes-editor-row" }, [
      h("label", { for: `${id}-bonus`, text: t("roll again on") }), el.bonus]),
    h("div", { class: "chutes-editor-row chutes-editor-buttons" }, [el.trap, el.remove, el.undo, el.redo]),
  ]);
  attr(el.size, "aria-describedby", `${id}-size-hint`);
  let shownBoard = /** @type {any} */ (null);

  /** Show a state on the controls. */
  function draw(/** @type {any} */ state) {
    const b = state.board;
    drawMenu(el, state, t);
    const m = faces(b.die);
    el.die.value = String(Math.max(DIE_MIN, Math.min(DIE_MAX, m)));
    const dieText = Array.isArray(b.die)
      ? t("a weighted die with {faces}", { faces: facesText(m, t) }) : facesText(m, t);
    attr(el.die, "aria-valuetext", dieText);
    text(el.dieShown, dieText);
    // The size box follows the board, not the student's typing (only when the board changed).
    if (shownBoard !== b || document.activeElement !== el.size) el.size.value = String(b.size);
    shownBoard = b;
    for (const input of el.rules) input.checked = input.value === b.overshoot;
    drawBonus(el.bonus, b, t);
    const c = state.cursor;
    text(el.trap, b.traps.includes(c) ? t("remove the trap on square {square}", { square: c })
      : t("make square {square} a trap", { square: c }));
    const target = jumpFrom(b, c) !== null ? c : state.selected;
    el.remove.disabled = target === null;
    text(el.remove, target === null ? t("delete jump")
      : t("delete jump {a} to {b}", { a: target, b: String(jumpFrom(b, target)) }));
    el.undo.disabled = state.past.length === 0;
    el.redo.disabled = state.future.length === 0;
  }

  wire(el, dispatch, current, draw);
  return { box, draw, elements: el };
}

/** The named-board menu: the named boards, and "custom board" while the board is none of them. */
function drawMenu(/** @type {any} */ el, /** @type {any} */ state, /** @type {Translate} */ t) {
  const names = state.presets.map((/** @type {any[]} */ [name]) => name);
  const named = names.includes(state.name);
  const options = named ? names : [CUSTOM, ...names];
  if (JSON.stringify(options) !== el.preset.dataset.options) {
    el.preset.dataset.options = JSON.stringify(options);
    el.preset.replaceChildren(...options.map((/** @type {string} */ name) => h("option",
      { value: name === CUSTOM ? "" : name, text: name === CUSTOM ? t(CUSTOM_WORDS) : name })));
  }
  // The menu shows the board's name after each edit; the student's own choice stays in between.
  const key = `${state.revision}|${state.name}`;
  if (el.preset.dataset.shown !== key) {
    el.preset.dataset.shown = key;
    el.preset.value = named ? state.name : "";
  }
  el.reset.disabled = el.preset.value === "";
}

/** The bonus face's menu: "none" and the faces with weight. */
function drawBonus(/** @type {HTMLSelectElement} */ bonus, /** @type {any} */ b,
  /** @type {Translate} */ t) {
  const m = faces(b.die);
  const weights = Array.isArray(b.die) ? b.die : new Array(m).fill(1);
  const options = ["none", ...weights.map((/** @type {number} */ w, /** @type {number} */ i) =>
    (w > 0 ? String(i + 1) : null)).filter((/** @type {any} */ x) => x !== null)];
  if (JSON.stringify(options) !== bonus.dataset.options) {
    bonus.dataset.options = JSON.stringify(options);
    bonus.replaceChildren(...options.map((v) => h("option", { value: v === "none" ? "" : v,
      text: v === "none" ? t("none") : v })));
  }
  bonus.value = b.bonus_roll === null ? "" : String(b.bonus_roll);
}

/** Each control's events, as actions. */
function wire(/** @type {any} */ el, /** @type {(action: any) => void} */ dispatch,
  /** @type {() => any} */ current, /** @type {(state: any) => void} */ draw) {
  el.preset.addEventListener("change", () => {
    el.reset.disabled = el.preset.value === "";
  });
  el.reset.addEventListener("click", () => {
    if (el.preset.value) dispatch({ type: "reset", name: el.preset.value });
  });
  el.die.addEventListener("input", () => {
    dispatch({ type: "die", faces: Number(el.die.value) });
    if (current().message) draw(current());             // a refused die: the slider goes back
  });
  el.size.addEventListener("change", () => {
    const wanted = el.size.value.trim() === "" ? NaN : Number(el.size.value);
    dispatch({ type: "size", size: wanted });
    el.size.value = String(current().board.size);      // a refused size: the box goes back
  });
  for (const input of el.rules) {
    input.addEventListener("change", () => {
      if (input.checked) dispatch({ type: "overshoot", rule: input.value });
      draw(current());
    });
  }
  el.bonus.addEventListener("change", () => {
    dispatch({ type: "bonus", face: el.bonus.value === "" ? null : Number(el.bonus.value) });
    draw(current());
  });
  el.trap.addEventListener("click", () => dispatch({ type: "trap" }));
  el.remove.addEventListener("click", () => dispatch({ type: "remove" }));
  el.undo.addEventListener("click", () => dispatch({ type: "undo" }));
  el.redo.addEventListener("click", () => dispatch({ type: "redo" }));
}
