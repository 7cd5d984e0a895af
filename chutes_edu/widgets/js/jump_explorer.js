// @ts-check
/**
 * The jump explorer of `chutes_edu` (chutes_edu/widgets/jump_explorer.py, Lesson 9): add one
 * ladder or chute anywhere and see how the expected game length changes; the surprising jumps (a
 * ladder that lengthens the game, a chute that shortens it) are hatched. It computes in the page
 * (jump_math.js, held equal to the library's `jump_effects` by tests), with no kernel.
 *
 * Two ways in, as the race explorer has:
 *
 * - `export default { render }`: an anywidget front end. The model's traits are `board_json`
 *   (the board, in board_math.js's JSON form), `board_name`, `min_length` (the shortest jump
 *   offered) and `jump` ([a, b], the jump shown); a control sets `jump` and saves, and a change
 *   from Python redraws the page.
 * - `mount(el, {board_json, board_name, min_length, jump})`: the same explorer on a page with no
 *   widget manager (the course website), on `createModel`'s stand-in for a model.
 *
 * The sweep of every jump (about 5,000 on the 1943 board) runs once per board, a few
 * milliseconds at a time (editor_runner.js's runner over `jumpEffectsSteps`), so the page is never
 * held up; then a control change only reads the sweep: the readout, the outline on the heat map,
 * the picture's text alternative and a polite announcement. The two sliders offer only the jumps
 * the rules allow: the source slider the squares where some jump may start, the destination slider
 * the allowed destinations from the source (a new source keeps the destination when it can, else
 * takes the nearest). A board the explorer refuses says why in the message line.
 *
 * @module jump_explorer
 */
import { BoardError } from "./board_math.js";
import { createModel } from "./editor_model.js";
import { h, text } from "./editor_dom.js";
import { createRunner } from "./editor_runner.js";
import { errorWords, liveRegion, messageLine, uniqueId } from "./explorer_ui.js";
import { createJumpChart } from "./jump_chart.js";
import {
  describeJumpEffects, heatMapTitle, jumpDestinations, jumpEffectsSteps, jumpSources, jumpWords,
  nearestJump, noJumpWords, skippedWords,
} from "./jump_math.js";
import { pyFixed } from "./board_explorer_math.js";

export {
  describeExplorer, describeJumpEffects, heatMapTitle, isSurprise, jumpDestinations, jumpEffects,
  jumpEffectsSteps, jumpSources, jumpWords, nearestJump, skippedWords,
} from "./jump_math.js";

/** The traits the explorer shares with Python. */
export const TRAITS = ["board_json", "board_name", "min_length", "jump"];

/**
 * A labelled native slider over a list of squares: its value is a position in the list, its
 * `aria-valuetext` and the text beside it the square ("square 27"); the arrows step from one
 * square of the list to the next, Home and End go to the first and last.
 * @param {{id: string, label: string, className: string, onPick: (square: number) => void}} options
 */
function squareSlider({ id, label, className, onPick }) {
  const input = /** @type {HTMLInputElement} */ (h("input", { type: "range", id, min: 0, max: 0,
    step: 1 }));
  const shown = h("span", { class: "chutes-slider-value", "aria-hidden": "true" });
  const box = h("div", { class: `chutes-slider ${className}` },
    [h("label", { for: id, text: label }), input, shown]);
  /** @type {number[]} */
  let squares = [];
  const say = (/** @type {number} */ square) => {
    const words = `square ${square}`;
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
 * Draw the explorer into `el` for `model`; returns a function that stops listening.
 * @param {any} model
 * @param {HTMLElement} el
 */
function render(model, el) {
  const id = uniqueId("chutes-jump");
  const runner = createRunner({ steps: sweepSteps });
  /** @type {import("./jump_math.js").JumpEffects | null} */
  let sweep = null;
  let sweepKey = "";
  let wanted = "";
  let mapWords = "";
  /** @type {number[]} */
  let sources = [];
  /** @type {Map<number, number[]>} */
  const destinations = new Map();
  let drawn = "";
  const jumpNow = () => /** @type {number[]} */ ([...(model.get("jump") ?? [])]);
  const save = (/** @type {number[]} */ jump) => {
    model.set("jump", jump);
    model.save_changes();
  };
  const targets = (/** @type {number} */ a) => {
    let out = destinations.get(a);
    if (out === undefined && sweep) {
      out = jumpDestinations(sweep, a);
      destinations.set(a, out);
    }
    return out ?? [];
  };
  const from = squareSlider({ id: `${id}-from`, label: "new jump from square a",
    className: "chutes-jump-from", onPick: (a) => {
      if (!sweep) return;
      const [, b] = jumpNow();
      save(nearestJump(sweep, a, b));
    } });
  const to = squareSlider({ id: `${id}-to`, label: "to square b", className: "chutes-jump-to",
    onPick: (b) => save([jumpNow()[0], b]) });
  const heading = h("p", { class: "chutes-jump-title" });
  const note = h("p", { class: "chutes-note" });
  const readout = h("p", { class: "chutes-readout" });
  const message = messageLine();
  const live = liveRegion();
  const chart = createJumpChart({ id });

  /** The jump shown: the readout, the outline, the words. */
  function showJump() {
    if (!sweep) return;
    let [a, b] = jumpNow();
    const key = `${sweepKey}|${a},${b}`;
    if (key === drawn) return;
    if (!targets(a).includes(b)) [a, b] = nearestJump(sweep, a, b);   // not one of the sweep's
    from.set(sources, a);
    to.set(targets(a), b);
    const words = jumpWords(sweep, a, b);
    const parts = [words.head, h("b", { text: words.turns }), words.middle,
      h("b", { text: words.changeText }), " turns."];
    if (words.surprise) {
      parts.push(" ", h("span", { class: "chutes-surprise" },
        [h("b", { text: "Surprise!" }), ` ${words.surpriseText}`]));
    }
    readout.replaceChildren(...parts);
    chart.mark(a, b);
    const alt = `${mapWords} The square outlined in black is your jump ${a} -> ${b}: ` +
      `expected turns ${words.turns}.`;
    chart.svg.setAttribute("aria-label", alt);
    live.say(words.announcement);
    message.say("");
    drawn = key;
  }

  /** A new sweep: the sliders' squares, the heat map and its words. */
  function showSweep(/** @type {any} */ result, /** @type {string} */ key) {
    if (result.error) {
      message.say(result.error);
      return;
    }
    const found = /** @type {import("./jump_math.js").JumpEffects} */ (result);
    const name = model.get("board_name") ?? "";
    sources = jumpSources(found);
    if (!sources.length) {
      message.say(noJumpWords(found.minLength, name));
      return;
    }
    sweep = found;
    sweepKey = key;
    destinations.clear();
    drawn = "";
    const title = heatMapTitle(name);
    chart.draw(found, title);
    mapWords = describeJumpEffects(found, title);
    heading.replaceChildren(h("b", { text: "Add a ladder or chute" }),
      ": colour shows how the expected game length " +
      `(${pyFixed(found.baseline, 4)} turns now) changes; hatched squares are surprises.`);
    text(note, skippedWords(found.n, found.minLength));
    showJump();
  }

  function show() {
    const board = model.get("board_json");
    const minLength = model.get("min_length") ?? 1;
    const key = `${JSON.stringify(board)}|${model.get("board_name") ?? ""}|${minLength}`;
    if (key === sweepKey) {
      try {
        showJump();
      } catch (error) {
        message.say(errorWords(error));
      }
      return;
    }
    if (key === wanted) return;                    // being computed
    wanted = key;
    const result = runner.run({ board, minLength }, key, (/** @type {any} */ done) => {
      if (wanted === key) showSweep(done, key);
    });
    if (result !== null) showSweep(result, key);
    else text(readout, "Pricing every jump on this board\u2026");
  }

  el.classList.add("chutes-explorer", "chutes-jump-explorer");
  el.append(h("div", { class: "chutes-jump-root" }, [
    heading, from.box, to.box, note, readout, message.el,
    h("div", { class: "chutes-picture chutes-jump-image" }, [chart.svg]),
    live.el,
  ]));
  for (const name of TRAITS) model.on(`change:${name}`, show);
  show();
  return () => {
    runner.cancel();
    for (const name of TRAITS) model.off(`change:${name}`, show);
  };
}

/**
 * The explorer on a page with no widget manager (the course website).
 * @param {HTMLElement} el
 * @param {{board_json?: any, board_name?: string, min_length?: number, jump?: number[]}} [start]
 */
export function mount(el, { board_json = {}, board_name = "", min_length = 1,
  jump = [27, 29] } = {}) {
  const model = createModel({ board_json, board_name, min_length, jump });
  const stop = render(model, el);
  return { model, stop };
}

export default {
  render(/** @type {{model: any, el: HTMLElement}} */ { model, el }) {
    return render(model, el);
  },
};
