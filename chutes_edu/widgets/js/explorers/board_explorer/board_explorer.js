// @ts-check
/**
 * The board explorer of `chutes_edu` (chutes_edu/widgets/board_explorer.py, Lessons 2, 4, 5, 6
 * and 11): change the board and its rules (a preset, the die, the overshoot rule, the face that
 * rolls again, the jumps) and watch the expected length of a game, the distribution of game
 * lengths and a heat map of the board. It computes in the page, with no kernel:
 * maths/board_math.js's `analyseInSteps` (the expected turns from every square and the game-length
 * distribution, the library's `expected_turns` and `turn_distribution`) and
 * maths/board_explorer_math.js (the expected visits, where the token is after k turns, the exact
 * expected length as a fraction, the pictures' words), both held equal to the library by Node
 * tests.
 *
 * Two ways in, as the race explorer has:
 *
 * - `export default { render }`: an anywidget front end. The model's traits are `board_json`
 *   (the board, in maths/board_math.js's JSON form), `board_name` (its name, "" once edited),
 *   `preset_name` (the preset chosen last), `presets_json` (the boards the preset list offers,
 *   by name), `heat_map` ("turns", "visits" or "after"), `turns_played` (k, for "after") and
 *   `exact_shown` (whether the readout gives the exact fraction too); a control sets them and
 *   saves, and a change from Python redraws the page.
 * - `mount(el, traits)`: the same explorer on a page with no widget manager (the course
 *   website), on `createModel`'s stand-in for a model.
 *
 * An edit is checked before it counts (the library's rules, `validate`, and `Board.with_jump`'s
 * and `without_jump`'s refusals, in the library's words): a refused edit leaves the board and
 * says why in the message line, and the controls go back to the board shown. The maths runs in
 * slices of a few milliseconds (ui/runner.js), so a slow board never holds the page; the
 * 1943 board is answered within the key press's own task. After each change the pictures'
 * descriptions are renewed with their numbers and a polite announcement says the new expected
 * length (and what it was) or what the heat map now shows.
 *
 * @module board_explorer
 */
import {
  analyseInSteps, BoardError, OVERSHOOT_RULES, ranges, square, validate,
} from "../../maths/board_math.js";
import { exactExpectedSteps, HEAT_LABELS, heatMap } from "../../maths/board_explorer_math.js";
import { pyFixed } from "../../core/format.js";
import { createBoardPicture } from "../../ui/heat_map_board.js";
import { createDistributionChart } from "./chart.js";
import { boardKey, canonical, faces } from "../../maths/boards.js";
import { h, panelRoot } from "../../ui/dom.js";
import { said, translator } from "../../core/i18n.js";
import { createModel } from "../../core/model.js";
import { createRunner } from "../../ui/runner.js";
import { errorWords, liveRegion, messageLine, numberBox, overshootHelp, pageLanguage, slider,
  uniqueId } from "../../ui/controls.js";

export { createBoardPicture } from "../../ui/heat_map_board.js";
export { createDistributionChart, DISTRIBUTION_TITLE } from "./chart.js";

/** The traits the explorer shares with Python. */
export const TRAITS = ["board_json", "board_name", "preset_name", "presets_json", "heat_map",
  "turns_played", "exact_shown", "language"];

/** The die slider's ends (BoardExplorer's `die`). */
export const DIE_MIN = 2;
export const DIE_MAX = 20;

/** The ends of the slider for k, the turns played (BoardExplorer's `after_turns`). */
export const AFTER_MAX = 100;

/** What the heat map can show, in the explorer's words (BoardExplorer's `heat` options). */
export const HEAT_CHOICES = Object.freeze([
  ["turns", "expected turns to finish"],
  ["visits", "expected visits from the start"],
  ["after", "where the token is after k turns"],
]);

/** The sentences of the maths' pictures' titles that the page says back in its language. */
export const SAID_BACK = Object.freeze([
  said("after {turns} turns: {p} finished (square {n}, grey)"),
  said("after {turns} turn: {p} finished (square {n}, grey)"),
]);

/** The heat map's choices and the colour bar's labels (maths' `HEAT_LABELS`) in `t`'s language. */
function heatWords(/** @type {import("../../core/i18n.js").Translate} */ t) {
  return {
    choices: /** @type {Array<[string, string]>} */ ([
      ["turns", t("expected turns to finish")],
      ["visits", t("expected visits from the start")],
      ["after", t("where the token is after k turns")]]),
    /** @type {Record<string, string>} */
    labels: { turns: t("expected turns to finish (turns)"),
      visits: t("expected visits from the start (turns begun there)"),
      after: t("probability of being on the square after k turns") },
  };
}

/**
 * The board with the jump `source -> destination` added, refused in `Board.with_jump`'s words
 * when the source already has a jump (the new board itself is checked by `validate`).
 * @param {any} board A canonical JSON board.
 * @param {unknown} source
 * @param {unknown} destination
 */
export function withJump(board, source, destination) {
  const from = square(source, "jump source");
  const old = board.jumps.find((/** @type {number[]} */ [a]) => a === from);
  if (old) {
    throw new BoardError(`square ${from} already has the jump ${from}->${old[1]}; remove it first ` +
      "with without_jump");
  }
  return canonical({ ...board, jumps: [...board.jumps, [from, destination]] });
}

/**
 * The board without the jump that starts on `source`, refused in `Board.without_jump`'s words
 * when none does.
 * @param {any} board A canonical JSON board.
 * @param {unknown} source
 */
export function withoutJump(board, source) {
  const from = square(source, "jump source");
  if (!board.jumps.some((/** @type {number[]} */ [a]) => a === from)) {
    throw new BoardError(`no jump starts on square ${from}; the sources are ` +
      `${ranges(board.jumps.map((/** @type {number[]} */ [a]) => a)) || "none"}`);
  }
  return canonical({ ...board, jumps: board.jumps.filter((/** @type {number[]} */ [a]) =>
    a !== from) });
}

/**
 * The readout's words and the announcement for an expected length `now` (the one before,
 * `was`, or null), as BoardExplorer wrote them, in the language of `t` (default English).
 * @param {number} now
 * @param {number | null} was
 */
export function lengthWords(now, was, t = translator("en")) {
  const same = was === null || (pyFixed(was, 1) === pyFixed(now, 1) && was === now);
  return {
    value: pyFixed(now, 4),
    announcement: same ? t("Expected length {now} turns", { now: pyFixed(now, 1) })
      : t("Expected length {now} turns, was {was}", { now: pyFixed(now, 1),
        was: pyFixed(/** @type {number} */ (was), 1) }),
  };
}

/** A labelled `<select>`; `onChange(value)` when the choice changes. */
function choice(/** @type {{id: string, label: string, className: string,
  onChange: (value: string) => void, size?: number}} */ { id, label, className, onChange,
  size }) {
  const select = /** @type {HTMLSelectElement} */ (h("select", { id, size }));
  const box = h("div", { class: `chutes-choice ${className}` },
    [h("label", { for: id, text: label }), select]);
  select.addEventListener("change", () => onChange(select.value));
  /** Set the options ([value, words] pairs) when they differ from those shown. */
  const options = (/** @type {Array<[string, string]>} */ pairs) => {
    const key = JSON.stringify(pairs);
    if (select.dataset.options === key) return;
    select.dataset.options = key;
    select.replaceChildren(...pairs.map(([value, words]) =>
      h("option", { value, text: words })));
  };
  const set = (/** @type {string} */ value) => {
    if (select.value !== value) select.value = value;
  };
  return { box, select, options, set };
}

/**
 * One board explorer on the page: its model, its maths, its controls and pictures, and what is
 * drawn (so that a redraw touches only what changed).
 * @typedef {object} Explorer
 * @property {any} model The anywidget model, or `createModel`'s stand-in.
 * @property {string} id The explorer's id prefix.
 * @property {import("../../core/i18n.js").Translate} t Its words in the page's language.
 * @property {ReturnType<typeof createRunner>} runner The board's analysis, in slices.
 * @property {ReturnType<typeof createRunner>} exactRunner The exact fraction, in slices.
 * @property {Map<string, any>} answers The analyses by board key (the 40 most recent).
 * @property {{board: string, distribution: string, readout: string, heat: string,
 *     announced: string}} drawn The keys of what is on the page.
 * @property {number | null} shown The expected length last announced.
 * @property {ReturnType<typeof messageLine>} message
 * @property {ReturnType<typeof liveRegion>} live
 * @property {Controls} controls
 * @property {HTMLElement} readout
 * @property {ReturnType<typeof createBoardPicture>} boardPicture
 * @property {ReturnType<typeof createDistributionChart>} chart
 * @property {() => void} show Redraw from the model (the one listener of its changes).
 */

/**
 * The explorer's controls.
 * @typedef {ReturnType<typeof ruleControls> & ReturnType<typeof jumpControls>
 *     & ReturnType<typeof viewControls>} Controls
 */

/** The board shown (the model's, canonical). */
function currentBoard(/** @type {Explorer} */ ex) {
  return canonical(ex.model.get("board_json") ?? {});
}

/** Set traits and save them. */
function save(/** @type {Explorer} */ ex, /** @type {Record<string, any>} */ values) {
  for (const [name, value] of Object.entries(values)) ex.model.set(name, value);
  ex.model.save_changes();
}

/** Apply one edit; a refusal keeps the board and says why in the library's words. */
function edit(/** @type {Explorer} */ ex, /** @type {(b: any) => any} */ change) {
  let next;
  try {
    next = canonical(change(currentBoard(ex)));
  } catch (error) {
    refuse(ex, errorWords(error));
    return;
  }
  const why = validate(next);
  if (why !== null) {
    refuse(ex, why);
    return;
  }
  ex.message.say("");
  save(ex, { board_json: next, board_name: "" });
}

/** Say why an edit is refused; the controls go back to the board shown. */
function refuse(/** @type {Explorer} */ ex, /** @type {string} */ why) {
  ex.message.say(why);
  syncControls(ex, currentBoard(ex));
}

/** Show the preset `name` (a board the preset list offers). */
function choosePreset(/** @type {Explorer} */ ex, /** @type {string} */ name) {
  const presets = ex.model.get("presets_json") ?? {};
  if (!(name in presets)) return;
  const next = canonical(presets[name]);
  const why = validate(next);
  if (why !== null) {
    refuse(ex, why);
    return;
  }
  ex.message.say("");
  save(ex, { board_json: next, board_name: name, preset_name: name });
}

/** The rules' controls: the preset, the face that rolls again, the die, the overshoot rule. */
function ruleControls(/** @type {Explorer} */ ex) {
  const { id, t } = ex;
  const help = overshootHelp(t);
  const presetChoice = choice({ id: `${id}-preset`, label: t("board"), className: "chutes-preset",
    onChange: (name) => choosePreset(ex, name) });
  const bonusChoice = choice({ id: `${id}-bonus`, label: t("roll again on"),
    className: "chutes-bonus", onChange: (value) =>
      edit(ex, (b) => ({ ...b, bonus_roll: value === "none" ? null : Number(value) })) });
  const die = slider({ id: `${id}-die`, label: t("die faces"), min: DIE_MIN, max: DIE_MAX, step: 1,
    decimals: 0, unit: t("faces"), className: "chutes-die",
    onInput: (k) => edit(ex, (b) => ({ ...b, die: k })) });
  const overshootLabel = `${id}-overshoot-label`;
  const overshoot = OVERSHOOT_RULES.map((rule) => {
    const button = h("button", { type: "button", class: "chutes-toggle", "data-rule": rule,
      "aria-pressed": "false", title: help[rule] ?? rule, text: rule });
    button.addEventListener("click", () => edit(ex, (b) => ({ ...b, overshoot: rule })));
    return button;
  });
  const overshootBox = h("div", { class: "chutes-overshoot", role: "group",
    "aria-labelledby": overshootLabel }, [
    h("span", { id: overshootLabel, class: "chutes-group-label", text: t("a roll past the end") }),
    ...overshoot]);
  return { presetChoice, bonusChoice, die, overshoot, overshootBox };
}

/** What was typed in a number box: a number, or the text when it is blank (for the refusal). */
function typed(/** @type {HTMLInputElement} */ input) {
  return input.value.trim() === "" ? input.value : Number(input.value);
}

/** The jumps' controls: from and to, the add and remove buttons, the list of jumps. */
function jumpControls(/** @type {Explorer} */ ex) {
  const { id, t } = ex;
  const jumpFrom = numberBox({ id: `${id}-jump-from`, label: t("jump from square"), min: 1,
    max: 99, className: "chutes-jump-from", onCommit: () => {} });
  const jumpTo = numberBox({ id: `${id}-jump-to`, label: t("to square"), min: 0, max: 100,
    className: "chutes-jump-to", onCommit: () => {} });
  jumpFrom.set(2);
  jumpTo.set(12);
  const addJump = h("button", { type: "button", class: "chutes-add-jump",
    title: t("add the jump from -> to"), text: t("add jump") });
  addJump.addEventListener("click", () =>
    edit(ex, (b) => withJump(b, typed(jumpFrom.input), typed(jumpTo.input))));
  const removeJump = h("button", { type: "button", class: "chutes-remove-jump",
    title: t("remove the jump that starts on 'from'"), text: t("remove jump") });
  removeJump.addEventListener("click", () =>
    edit(ex, (b) => withoutJump(b, typed(jumpFrom.input))));
  const jumpList = choice({ id: `${id}-jumps`, label: t("jumps"), className: "chutes-jump-list",
    size: 7, onChange: (value) => {
      const source = Number(value);
      const jump = currentBoard(ex).jumps.find((/** @type {number[]} */ [a]) => a === source);
      if (jump) {
        jumpFrom.set(jump[0]);
        jumpTo.set(jump[1]);
      }
    } });
  return { jumpFrom, jumpTo, addJump, removeJump, jumpList };
}

/** The view's controls: the exact fraction, the heat map and k, the turns played. */
function viewControls(/** @type {Explorer} */ ex) {
  const { id, t } = ex;
  const exactId = `${id}-exact`;
  const exact = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id: exactId }));
  exact.addEventListener("change", () => save(ex, { exact_shown: exact.checked }));
  const exactBox = h("div", { class: "chutes-checkbox" },
    [exact, h("label", { for: exactId, text: ` ${t("show the exact fraction")}` })]);
  const heatChoice = choice({ id: `${id}-heat`, label: t("heat map"), className: "chutes-heat",
    onChange: (value) => save(ex, { heat_map: value }) });
  heatChoice.options(heatWords(t).choices);
  const after = slider({ id: `${id}-after`, label: t("k, the turns played"), min: 0,
    max: AFTER_MAX, step: 1, decimals: 0, unit: (k) => (k === 1 ? t("turn") : t("turns")),
    className: "chutes-after",
    onInput: (k) => save(ex, { turns_played: k }) });
  return { exact, exactBox, heatChoice, after };
}

/** Show the board in the controls (their handlers do not fire). */
function syncControls(/** @type {Explorer} */ ex, /** @type {any} */ b) {
  const { model, controls: c } = ex;
  const presets = model.get("presets_json") ?? {};
  const preset = model.get("preset_name") ?? "";
  const names = Object.keys(presets);
  if (preset && !names.includes(preset)) names.unshift(preset);
  c.presetChoice.options(names.map((name) => [name, name]));
  c.presetChoice.set(preset);
  const m = faces(b.die);
  const shownFaces = Math.min(Math.max(m, DIE_MIN), DIE_MAX);
  c.die.set(shownFaces);
  for (const button of c.overshoot) {
    const pressed = String(button.dataset.rule === b.overshoot);
    if (button.getAttribute("aria-pressed") !== pressed) button.setAttribute("aria-pressed", pressed);
  }
  const most = Math.max(m, shownFaces);
  c.bonusChoice.options([["none", ex.t("none")], ...Array.from({ length: most }, (_, i) =>
    /** @type {[string, string]} */ ([String(i + 1), String(i + 1)]))]);
  c.bonusChoice.set(b.bonus_roll === null ? "none" : String(b.bonus_roll));
  c.jumpFrom.input.max = String(b.size - 1);
  c.jumpTo.input.max = String(b.size);
  c.jumpList.options(b.jumps.map((/** @type {number[]} */ [a, d]) =>
    [String(a), `${a} → ${d}  ${d > a ? ex.t("ladder") : ex.t("chute")}`]));
  c.jumpList.select.selectedIndex = -1;
  const heat = model.get("heat_map") ?? "turns";
  c.heatChoice.set(heat);
  c.after.box.hidden = heat !== "after";
  c.after.set(model.get("turns_played") ?? 10);
  c.exact.checked = Boolean(model.get("exact_shown"));
}

/** The board's answers: at once if known or quick, else null now and a redraw later. */
function analysis(/** @type {Explorer} */ ex, /** @type {any} */ b, /** @type {string} */ key) {
  const { answers } = ex;
  if (answers.has(key)) return answers.get(key);
  const result = ex.runner.run(b, key, (/** @type {any} */ later) => {
    answers.set(key, later);
    ex.show();
  });
  if (result !== null) answers.set(key, result);
  while (answers.size > 40) answers.delete(/** @type {string} */ (answers.keys().next().value));
  return result;
}

/** Redraw from the model: the controls, then the pictures and the readout once answered. */
function show(/** @type {Explorer} */ ex) {
  const { drawn, message } = ex;
  const b = currentBoard(ex);
  syncControls(ex, b);
  const key = boardKey(b);
  const result = analysis(ex, b, key);
  if (result === null) {
    if (drawn.readout !== `${key}|busy`) {
      drawn.readout = `${key}|busy`;
      ex.readout.replaceChildren(ex.t("Expected turns from the start: computing…"));
    }
    return;
  }
  if (result.error) {
    message.say(result.error);
    return;
  }
  try {
    drawBoard(ex, b, key, result);
    if (drawn.distribution !== key) {
      if (result.pmf) ex.chart.draw(result.pmf);
      else message.say(result.lengthError ?? "");
      drawn.distribution = key;
    }
    drawReadout(ex, b, key, result);
  } catch (error) {
    message.say(errorWords(error));
  }
}

/** Draw the board's heat map; announce a new kind of map on a board already announced. */
function drawBoard(/** @type {Explorer} */ ex, /** @type {any} */ b, /** @type {string} */ key,
  /** @type {any} */ result) {
  const { model, drawn } = ex;
  const heat = model.get("heat_map") ?? "turns";
  const k = model.get("turns_played") ?? 10;
  const name = model.get("board_name") ?? "";
  const title = name || ex.t("{preset} (edited)", { preset: model.get("preset_name") ?? "" });
  const pictureKey = `${key}|${heat}|${heat === "after" ? k : ""}|${title}`;
  if (pictureKey === drawn.board) return;
  const found = heat === "turns"
    ? { values: result.expected, label: HEAT_LABELS.turns, title }
    : heatMap(b, heat, { turns: k, title });
  const map = { ...found, label: heatWords(ex.t).labels[heat] ?? ex.t(found.label),
    title: found.title.split("\n").map((/** @type {string} */ line) => ex.t(line)).join("\n") };
  ex.boardPicture.draw(b, { name, ...map });
  drawn.board = pictureKey;
  const what = `${heat}|${heat === "after" ? k : ""}`;
  if (drawn.heat && drawn.heat !== what && drawn.announced === key) {
    const extra = heat === "after" ? `; ${map.title.split("\n").slice(1).join("; ")}` : "";
    ex.live.say(ex.t("Heat map: {label}{extra}", { label: map.label, extra }));
  }
  drawn.heat = what;
}

/** Write the expected length (and the exact fraction when asked); announce a new board's. */
function drawReadout(/** @type {Explorer} */ ex, /** @type {any} */ b, /** @type {string} */ key,
  /** @type {any} */ result) {
  const { drawn } = ex;
  const wantExact = Boolean(ex.model.get("exact_shown"));
  const now = result.expected[0];
  const readoutKey = `${key}|${wantExact}`;
  if (readoutKey === drawn.readout) return;
  const words = lengthWords(now, ex.shown, ex.t);
  const [before, after] = ex.t("Expected turns from the start: {turns} turns").split("{turns}");
  const parts = [/** @type {string | Node} */ (before), h("b", { text: words.value }), after];
  if (wantExact) {
    const fraction = ex.exactRunner.run(b, key, (/** @type {any} */ answer) => {
      if (drawn.readout === readoutKey) exactLine.replaceChildren(...exactWords(answer, ex.t));
    });
    const exactLine = h("span", { class: "chutes-exact" },
      fraction === null ? [ex.t("exactly: computing…")] : exactWords(fraction, ex.t));
    parts.push(h("br"), exactLine);
  } else {
    ex.exactRunner.cancel();
  }
  ex.readout.replaceChildren(...parts);
  if (drawn.announced !== key) {
    ex.live.say(words.announcement);
    ex.shown = now;
    drawn.announced = key;
  }
  drawn.readout = readoutKey;
}

/** The exact fraction's words, or the refusal. */
function exactWords(/** @type {any} */ answer,
  /** @type {import("../../core/i18n.js").Translate} */ t) {
  if (answer.error) return [t(answer.error)];
  return [`${t("exactly")} `, h("code", { text: `${answer.numerator}/${answer.denominator}` })];
}

/** The explorer's page: the controls, the readout, the message line, the pictures. */
function layout(/** @type {Explorer} */ ex) {
  const c = ex.controls;
  return panelRoot([
    h("p", { class: "chutes-panel-title" }, [h("b", { text: ex.t("Board explorer") }),
      ex.t(": change the board and its rules.")]),
    h("div", { class: "chutes-row" }, [c.presetChoice.box, c.bonusChoice.box]),
    c.die.box, c.overshootBox,
    h("div", { class: "chutes-row chutes-jump-editor" }, [
      h("div", { class: "chutes-column" }, [c.jumpFrom.box, c.jumpTo.box,
        h("div", { class: "chutes-row" }, [c.addJump, c.removeJump])]),
      c.jumpList.box]),
    h("div", { class: "chutes-row chutes-readout-row" }, [ex.readout, c.exactBox]),
    ex.message.el,
    h("div", { class: "chutes-row chutes-board-explorer-pictures" }, [
      ex.boardPicture.el,
      h("div", { class: "chutes-column" }, [
        h("div", { class: "chutes-picture chutes-distribution-image" }, [ex.chart.svg]),
        c.heatChoice.box, c.after.box]),
    ]),
    ex.live.el,
  ]);
}

/**
 * Draw the explorer into `el` for `model`; returns a function that stops listening.
 * @param {any} model
 * @param {HTMLElement} el
 */
function render(model, el) {
  const id = uniqueId("chutes-board-explorer");
  const t = translator(model.get("language") ?? pageLanguage());
  /** @type {Explorer} */
  const ex = {
    model, id, t,
    runner: createRunner({ steps: analyseInSteps }),
    exactRunner: createRunner({ steps: exactExpectedSteps }),
    answers: new Map(),
    drawn: { board: "", distribution: "", readout: "", heat: "", announced: "" },
    shown: null,
    message: messageLine(t),
    live: liveRegion(),
    controls: /** @type {any} */ (null),             // made next: their handlers need `ex`
    readout: h("p", { class: "chutes-readout" }),
    boardPicture: createBoardPicture({ id, t }),
    chart: createDistributionChart({ id, t }),
    show: () => show(ex),
  };
  ex.controls = { ...ruleControls(ex), ...jumpControls(ex), ...viewControls(ex) };
  el.classList.add("chutes-explorer", "chutes-panel", "chutes-board-explorer");
  el.append(layout(ex));
  for (const name of TRAITS) model.on(`change:${name}`, ex.show);
  ex.show();
  return () => {
    ex.runner.cancel();
    ex.exactRunner.cancel();
    for (const name of TRAITS) model.off(`change:${name}`, ex.show);
  };
}

/**
 * The explorer on a page with no widget manager (the course website).
 * @param {HTMLElement} el
 * @param {{board_json?: any, board_name?: string, preset_name?: string, presets_json?: any,
 *     heat_map?: string, turns_played?: number, exact_shown?: boolean,
 *     language?: string}} [start]
 */
export function mount(el, { board_json = {}, board_name = "", preset_name = "",
  presets_json = {}, heat_map = "turns", turns_played = 10, exact_shown = false,
  language = pageLanguage() } = {}) {
  const model = createModel({ board_json, board_name, preset_name: preset_name || board_name,
    presets_json, heat_map, turns_played, exact_shown, language });
  const stop = render(model, el);
  return { model, stop };
}

export default {
  render(/** @type {{model: any, el: HTMLElement}} */ { model, el }) {
    return render(model, el);
  },
};
