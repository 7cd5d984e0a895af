// @ts-check
/**
 * The jump explorer of `chutes_edu` (chutes_edu/widgets/jump_explorer.py, Lesson 9): add one
 * ladder or chute anywhere and see how the expected game length changes; the surprising jumps (a
 * ladder that lengthens the game, a chute that shortens it) are hatched. It computes in the page
 * (maths/jump_math.js, held equal to the library's `jump_effects` by tests), with no kernel.
 *
 * Two ways in, as the race explorer has:
 *
 * - `export default { render }`: an anywidget front end. The model's traits are `board_json`
 *   (the board, in maths/board_math.js's JSON form), `board_name`, `min_length` (the shortest jump
 *   offered) and `jump` ([a, b], the jump shown); a control sets `jump` and saves, and a change
 *   from Python redraws the page.
 * - `mount(el, {board_json, board_name, min_length, jump})`: the same explorer on a page with no
 *   widget manager (the course website), on `createModel`'s stand-in for a model.
 *
 * The sweep of every jump (about 5,000 on the 1943 board) runs once per board, a few
 * milliseconds at a time (ui/runner.js's runner over `jumpEffectsSteps`), so the page is never
 * held up; then a control change only reads the sweep: the readout, the outline on the heat map,
 * the picture's text alternative and a polite announcement. The two sliders offer only the jumps
 * the rules allow: the source slider the squares where some jump may start, the destination slider
 * the allowed destinations from the source (a new source keeps the destination when it can, else
 * takes the nearest). A board the explorer refuses says why in the message line.
 *
 * @module jump_explorer
 */
import { BoardError } from "../../maths/board_math.js";
import { said, translator } from "../../core/i18n.js";
import { createModel } from "../../core/model.js";
import { h, panelRoot, text } from "../../ui/dom.js";
import { createRunner, nextTask } from "../../ui/runner.js";
import { errorWords, filled, liveRegion, messageLine, pageLanguage, uniqueId } from "../../ui/controls.js";
import { createJumpChart } from "./chart.js";
import {
  describeJumpEffects, heatMapTitle, jumpDestinations, jumpEffectsSteps, jumpSources, jumpWords,
  nearestJump, noJumpWords, skippedWords,
} from "../../maths/jump_math.js";
import { pyFixed } from "../../core/format.js";

export {
  describeExplorer, describeJumpEffects, heatMapTitle, isSurprise, jumpDestinations, jumpEffects,
  jumpEffectsSteps, jumpSources, jumpWords, nearestJump, skippedWords,
} from "../../maths/jump_math.js";

/** The sentences of the jump maths (maths/jump_math.js) that the page says back in its language. */
export const SAID_BACK = Object.freeze([
  said("Adding one jump a -> b to {name}"),
  said("the board"),
  said("this board"),
  said("no jump of at least min_length={length} squares can be added to {name}"),
  said("The sliders skip the jumps the rules refuse: none starts on 0, {size} or an end of a " +
    "jump already there, none ends where one starts."),
  said("The sliders skip the jumps the rules refuse: none starts on 0, {size} or an end of a " +
    "jump already there, none ends where one starts, none is shorter than {length} squares."),
  said("{title}: a heat map of the change in expected turns when one jump a -> b is added to a " +
    "board of squares 0 to {n} (source a up the side, destination b along the bottom, blank " +
    "where no jump may be added); from {low} turns ({best}) to {high} turns ({worst}); " +
    "{counted} mark surprises, a ladder that lengthens the game or a chute that shortens it."),
  said("the ladder {a} -> {b}"), said("the chute {a} -> {b}"), said("1 hatched square"),
  said("{count} hatched squares"), said("no hatched squares"),
]);

/** The traits the explorer shares with Python. */
export const TRAITS = ["board_json", "board_name", "min_length", "jump", "language"];

/**
 * A labelled native slider over a list of squares: its value is a position in the list, its
 * `aria-valuetext` and the text beside it the square ("square 27"); the arrows step from one
 * square of the list to the next, Home and End go to the first and last.
 * @param {{id: string, label: string, className: string, onPick: (square: number) => void,
 *     t: import("../../core/i18n.js").Translate}} options
 */
function squareSlider({ id, label, className, onPick, t }) {
  const input = /** @type {HTMLInputElement} */ (h("input", { type: "range", id, min: 0, max: 0,
    step: 1 }));
  const shown = h("span", { class: "chutes-slider-value", "aria-hidden": "true" });
  const box = h("div", { class: `chutes-slider ${className}` },
    [h("label", { for: id, text: label }), input, shown]);
  /** @type {number[]} */
  let squares = [];
  const say = (/** @type {number} */ square) => {
    const words = t("square {square}", { square });
    if (input.getAttribute("aria-valuetext") !== words) input.setAttribute("aria-valuetext", words);
    text(shown, words);
  };
  input.addEventListener("input", () => {
    const square = squares[Number(input.value)];
    if (square === undefined) return;
    say(square);
    onPick(square);
  });
  /** Offer `options` (when they change) and show `square`. */
  const set = (/** @type {number[]} */ options, /** @type {number} */ square) => {
    if (options !== squares) {
      squares = options;
      const max = String(Math.max(0, options.length - 1));
      if (input.max !== max) input.max = max;
    }
    const at = String(Math.max(0, squares.indexOf(square)));
    if (input.value !== at) input.value = at;
    say(square);
  };
  return { box, input, set };
}

/**
 * The sweep for the runner: a board or a min_length the library refuses gives its words.
 * @param {{board: any, minLength: unknown}} input
 */
function* sweepSteps({ board, minLength }) {
  try {
    return yield* jumpEffectsSteps(board, { minLength });
  } catch (error) {
    if (error instanceof BoardError) return { error: error.message };
    throw error;
  }
}

/**
 * The explorer's state: its model, controls and pictures, and the sweep shown.
 * @typedef {object} JumpView
 * @property {any} model
 * @property {import("../../core/i18n.js").Translate} t Its words in the page's language.
 * @property {ReturnType<typeof createRunner>} runner
 * @property {import("../../maths/jump_math.js").JumpEffects | null} sweep
 * @property {string} sweepKey The board and length of the sweep shown.
 * @property {string} wanted The board and length being priced.
 * @property {string} mapWords The heat map's description.
 * @property {number[]} sources
 * @property {Map<number, number[]>} destinations Each source's destinations, as asked for.
 * @property {string} drawn The sweep and jump last drawn.
 * @property {ReturnType<typeof squareSlider>} from
 * @property {ReturnType<typeof squareSlider>} to
 * @property {HTMLElement} heading
 * @property {HTMLElement} note
 * @property {HTMLElement} readout
 * @property {ReturnType<typeof messageLine>} message
 * @property {ReturnType<typeof liveRegion>} live
 * @property {ReturnType<typeof createJumpChart>} chart
 */

/** The jump the model holds. */
function jumpNow(/** @type {JumpView} */ x) {
  return /** @type {number[]} */ ([...(x.model.get("jump") ?? [])]);
}

function save(/** @type {JumpView} */ x, /** @type {number[]} */ jump) {
  x.model.set("jump", jump);
  x.model.save_changes();
}

/** The destinations of a jump from a (the sweep's, kept once asked for). */
function targets(/** @type {JumpView} */ x, /** @type {number} */ a) {
  let out = x.destinations.get(a);
  if (out === undefined && x.sweep) {
    out = jumpDestinations(x.sweep, a);
    x.destinations.set(a, out);
  }
  return out ?? [];
}

/** The explorer's parts, before any sweep. */
function createView(/** @type {any} */ model) {
  const id = uniqueId("chutes-jump");
  const t = translator(model.get("language") ?? pageLanguage());
  /** @type {JumpView} */
  const x = /** @type {any} */ ({ model, t, runner: createRunner({ steps: sweepSteps }), sweep: null,
    sweepKey: "", wanted: "", mapWords: "", sources: [], destinations: new Map(), drawn: "" });
  x.from = squareSlider({ id: `${id}-from`, label: t("new jump from square a"),
    className: "chutes-jump-from", t, onPick: (a) => {
      if (!x.sweep) return;
      const [, b] = jumpNow(x);
      save(x, nearestJump(x.sweep, a, b));
    } });
  x.to = squareSlider({ id: `${id}-to`, label: t("to square b"), className: "chutes-jump-to", t,
    onPick: (b) => save(x, [jumpNow(x)[0], b]) });
  x.heading = h("p", { class: "chutes-panel-title chutes-jump-title" });
  x.note = h("p", { class: "chutes-note" });
  x.readout = h("p", { class: "chutes-readout" });
  x.message = messageLine(t);
  x.live = liveRegion();
  x.chart = createJumpChart({ id, t });
  return x;
}

/** The jump shown: the readout, the outline, the words. */
function showJump(/** @type {JumpView} */ x) {
  const sweep = x.sweep;
  if (!sweep) return;
  let [a, b] = jumpNow(x);
  const key = `${x.sweepKey}|${a},${b}`;
  if (key === x.drawn) return;
  if (!targets(x, a).includes(b)) [a, b] = nearestJump(sweep, a, b);   // not one of the sweep's
  x.from.set(x.sources, a);
  x.to.set(targets(x, a), b);
  const words = jumpWords(sweep, a, b);
  const { t } = x;
  const ladder = words.kind === "ladder";
  const head = ladder
    ? t("Adding the ladder {a} → {b}: expected turns {turns} (board: {baseline}), change {change} turns.", { a, b, baseline: pyFixed(sweep.baseline, 4) })
    : t("Adding the chute {a} → {b}: expected turns {turns} (board: {baseline}), change {change} turns.", { a, b, baseline: pyFixed(sweep.baseline, 4) });
  const parts = filled(head, { turns: h("b", { text: words.turns }),
    change: h("b", { text: words.changeText }) });
  if (words.surprise) {
    parts.push(" ", h("span", { class: "chutes-surprise" }, [h("b", { text: t("Surprise!") }),
      ` ${ladder ? t("This ladder makes the game longer.") : t("This chute makes the game shorter.")}`]));
  }
  x.readout.replaceChildren(...parts);
  x.chart.mark(a, b);
  const alt = `${x.mapWords} ${t("The square outlined in black is your jump {a} -> {b}: " +
    "expected turns {turns}.", { a, b, turns: words.turns })}`;
  x.chart.svg.setAttribute("aria-label", alt);
  const size = pyFixed(Math.abs(words.change), 1);
  const than = size === "0.0" ? t("about as long as now")
    : words.change > 0 ? t("{size} more than now", { size }) : t("{size} fewer than now", { size });
  const length = pyFixed(words.value, 1);
  x.live.say((ladder ? t("The ladder {a} to {b}: expected length {length} turns, {than}",
    { a, b, length, than }) : t("The chute {a} to {b}: expected length {length} turns, {than}",
    { a, b, length, than })) + (words.surprise ? t(". A surprise.") : ""));
  x.message.say("");
  x.drawn = key;
}

/** A new sweep, taken as the one shown (the sliders' squares), or refused in words: the heat
 * map's title, or null if there is nothing to show. */
function takeSweep(/** @type {JumpView} */ x, /** @type {any} */ result, /** @type {string} */ key) {
  if (result.error) {
    x.message.say(result.error);
    return null;
  }
  const found = /** @type {import("../../maths/jump_math.js").JumpEffects} */ (result);
  const name = x.model.get("board_name") ?? "";
  x.sources = jumpSources(found);
  if (!x.sources.length) {
    x.message.say(noJumpWords(found.minLength, name));
    return null;
  }
  x.sweep = found;
  x.sweepKey = key;
  x.destinations.clear();
  x.drawn = "";
  return x.t(heatMapTitle(name));
}

/** The new sweep's words: the heat map's description, the heading, the note; then the jump. */
function describeSweep(/** @type {JumpView} */ x,
  /** @type {import("../../maths/jump_math.js").JumpEffects} */ found, /** @type {string} */ title) {
  const { t } = x;
  x.mapWords = t(describeJumpEffects(found, title));
  x.heading.replaceChildren(h("b", { text: t("Add a ladder or chute") }),
    t(": colour shows how the expected game length ({baseline} turns now) changes; hatched " +
      "squares are surprises.", { baseline: pyFixed(found.baseline, 4) }));
  text(x.note, t(skippedWords(found.n, found.minLength)));
  showJump(x);
}

/** A new sweep: the sliders' squares, the heat map and its words, at once. */
function showSweep(/** @type {JumpView} */ x, /** @type {any} */ result, /** @type {string} */ key) {
  const title = takeSweep(x, result, key);
  if (title === null || !x.sweep) return;
  x.chart.draw(x.sweep, title);
  describeSweep(x, x.sweep, title);
}

/** A sweep that took more than one slice: its picture drawn in a task of its own after the last
 * slice, and its words in the next, so that no task holds the page for long. */
async function showSweepLater(/** @type {JumpView} */ x, /** @type {any} */ result,
  /** @type {string} */ key) {
  await nextTask();
  if (x.wanted !== key) return;
  const title = takeSweep(x, result, key);
  const sweep = x.sweep;
  if (title === null || !sweep) return;
  x.chart.draw(sweep, title);
  await nextTask();
  if (x.sweepKey === key) describeSweep(x, sweep, title);
}

/** Follow the model: a new jump is drawn at once; a new board or length is priced first. */
function show(/** @type {JumpView} */ x) {
  const board = x.model.get("board_json");
  const minLength = x.model.get("min_length") ?? 1;
  const key = `${JSON.stringify(board)}|${x.model.get("board_name") ?? ""}|${minLength}`;
  if (key === x.sweepKey) {
    try {
      showJump(x);
    } catch (error) {
      x.message.say(errorWords(error));
    }
    return;
  }
  if (key === x.wanted) return;                    // being computed
  x.wanted = key;
  const result = x.runner.run({ board, minLength }, key, (/** @type {any} */ done) => {
    if (x.wanted === key) showSweepLater(x, done, key);
  });
  if (result !== null) showSweep(x, result, key);
  else text(x.readout, x.t("Pricing every jump on this board…"));
}

/**
 * Draw the explorer into `el` for `model`; returns a function that stops listening.
 * @param {any} model
 * @param {HTMLElement} el
 */
function render(model, el) {
  const x = createView(model);
  const follow = () => show(x);
  el.classList.add("chutes-explorer", "chutes-panel", "chutes-jump-explorer");
  el.append(panelRoot([
    x.heading, x.from.box, x.to.box, x.note, x.readout, x.message.el,
    h("div", { class: "chutes-picture chutes-jump-image" }, [x.chart.svg]),
    x.live.el,
  ]));
  for (const name of TRAITS) model.on(`change:${name}`, follow);
  nextTask().then(follow);          // the sweep starts after the page has drawn the explorer
  return () => {
    x.runner.cancel();
    for (const name of TRAITS) model.off(`change:${name}`, follow);
  };
}

/**
 * The explorer on a page with no widget manager (the course website).
 * @param {HTMLElement} el
 * @param {{board_json?: any, board_name?: string, min_length?: number, jump?: number[],
 *     language?: string}} [start]
 */
export function mount(el, { board_json = {}, board_name = "", min_length = 1,
  jump = [27, 29], language = pageLanguage() } = {}) {
  const model = createModel({ board_json, board_name, min_length, jump, language });
  const stop = render(model, el);
  return { model, stop };
}

export default {
  render(/** @type {{model: any, el: HTMLElement}} */ { model, el }) {
    return render(model, el);
  },
};
