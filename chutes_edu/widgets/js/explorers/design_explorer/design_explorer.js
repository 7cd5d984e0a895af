// @ts-check
/**
 * The design explorer of `chutes_edu` (chutes_edu/widgets/design_explorer.py, Lesson 12): choose
 * a goal (a target length, the shortest or longest game, the smallest spread for a mean, the
 * fairest race), the most jumps to add and the search (greedy, or local search), press Design,
 * and see the jumps found, the search's steps, the designed board and the game lengths before
 * and after. It searches in the page (maths/design_math.js, held equal to the library's
 * `design_board` by tests), with no kernel; the exhaustive search stays in Python.
 *
 * Two ways in, as the race explorer has:
 *
 * - `export default { render }`: an anywidget front end. The model's traits are `board_json`,
 *   `board_name`, `goal_kind`, `goal_parameter`, `goal_tolerance`, `most_jumps`,
 *   `search_method` and `runs` (how many times Design was pressed); a control sets its trait and saves, and a change from Python
 *   redraws the page; a new count of `runs` starts a search.
 * - `mount(el, {...the traits})`: the same explorer on a page with no widget manager (the course
 *   website), on `createModel`'s stand-in for a model.
 *
 * A control change only sets the settings (at once); the search runs in slices (the editor's
 * runner: 8 ms at most at a time, the page's thread given back between slices), then renews the
 * readout, the steps, both pictures with their descriptions, and a polite announcement. A goal
 * the library refuses (a negative target, seven seats) leaves the last design and says why in
 * the message line, in the library's words.
 *
 * @module design_explorer
 */
import { analyseInSteps, BoardError } from "../../maths/board_math.js";
import { formatG } from "../../core/format.js";
import { createBoardPicture } from "../../ui/heat_map_board.js";
import { createDesignChart, jumpList } from "./chart.js";
import { checkGoal, describeGoal, designSteps, PAGE_METHODS, quantity } from "../../maths/design_math.js";
import { said, translator } from "../../core/i18n.js";
import { createModel } from "../../core/model.js";
import { h, panelRoot } from "../../ui/dom.js";
import { createRunner } from "../../ui/runner.js";
import { errorWords, filled, fixed, liveRegion, messageLine, numberBox, pageLanguage, slider,
  uniqueId } from "../../ui/controls.js";

export { describeDesign, describeStart } from "./chart.js";
export { designBoard, designSteps, PAGE_METHODS } from "../../maths/design_math.js";

/** The traits the explorer shares with Python. */
export const TRAITS = ["board_json", "board_name", "goal_kind", "goal_parameter", "goal_tolerance",
  "most_jumps", "search_method", "runs", "language"];

/** The sentences of the design maths (maths/design_math.js: the goal, the quantity, a step)
 * that the page says back in its language. */
export const SAID_BACK = Object.freeze([
  said("an expected game of {turns} turns"), said("the shortest expected game"),
  said("the longest expected game"), said("the smallest variance for {where} ± {tolerance} turns"),
  said("the board's own mean"), said("a mean of {mean}"), said("the fairest race of {seats} players"),
  said("variance (turns²)"), said("first seat's edge"), said("expected turns"), said("start"),
  said("stop: no added jump improves the design"), said("add {jump}"),
  said("stop: a local optimum (no add, drop or swap improves it)"),
]);

/** The goals: value, words (design_explorer.py's GOALS). */
export const GOALS = Object.freeze([["target", "a target length"], ["short", "the shortest game"],
  ["long", "the longest game"], ["spread", "the smallest spread"], ["race", "the fairest race"]]);

/** The parameter's label per goal, and its value when the goal is chosen (null: the board's
 * own mean, for the smallest spread; absent: no parameter). */
export const PARAMETER = Object.freeze({ target: ["target turns", 25], spread: ["mean (turns)", null],
  race: ["seats", 2] });

/** The goals' words and the parameter's labels (GOALS, PARAMETER) in the language of `t`. */
function goalWords(/** @type {import("../../core/i18n.js").Translate} */ t) {
  return [["target", t("a target length")], ["short", t("the shortest game")],
    ["long", t("the longest game")], ["spread", t("the smallest spread")],
    ["race", t("the fairest race")]];
}

/** @returns {Record<string, string>} */
function parameterLabel(/** @type {import("../../core/i18n.js").Translate} */ t) {
  return { target: t("target turns"), spread: t("mean (turns)"), race: t("seats") };
}

/** The most jumps the explorer adds. */
export const MOST_JUMPS = 4;

/**
 * The library's goal for the explorer's settings (design_explorer.py's `_make_goal`).
 * @param {string} kind @param {number} parameter @param {number} tolerance
 */
export function goalOf(kind, parameter, tolerance) {
  if (kind === "target") return { kind, turns: parameter };
  if (kind === "spread") return { kind, mean: parameter, tolerance };
  if (kind === "race") return { kind, seats: parameter };
  return { kind };
}

/**
 * What pressing Design will do, in words (the plan line, renewed with every control change).
 * @param {string} kind @param {number} parameter @param {number} tolerance
 * @param {number} maxJumps @param {string} method
 */
export function planWords(kind, parameter, tolerance, maxJumps, method, t = translator("en")) {
  try {
    const goal = t(describeGoal(checkGoal(goalOf(kind, parameter, tolerance))));
    const by = method === "greedy" ? t("greedy") : method === "local search"
      ? t("local search") : method;
    return maxJumps === 1 ? t("Design will look for {goal}, adding at most {n} jump, by {method}.",
      { goal, n: maxJumps, method: by }) : t("Design will look for {goal}, adding at most {n} " +
      "jumps, by {method}.", { goal, n: maxJumps, method: by });
  } catch (error) {
    return t("Design will refuse this goal: {why}", { why: t(errorWords(error)) });
  }
}

/**
 * The readout's lines, the steps and the announcement for a design (the Python explorer's
 * words: the library's summary, its steps, "Designed: adds ...").
 * @param {import("../../maths/design_math.js").Design} design
 * @param {import("../../core/i18n.js").Translate} [t] Its language (default English).
 */
export function designWords(design, t = translator("en")) {
  const english = quantity(design.goal);
  const q = t(english);
  const added = design.added.map(([a, b]) => t("{a} to {b}", { a, b })).join(", ") ||
    t("no jumps");
  return {
    lines: design.summary.split("\n").map((line) => t(line)),
    steps: design.steps.map((step) => `${t(step.action)}: ${q} ${fixed(step.value, 4)}` +
      (english === "expected turns" ? ""
        : t(", expected turns {mean}", { mean: fixed(step.mean, 4) }))),
    announcement: t("Designed: adds {added}; {quantity} {was} to {now}", { added, quantity: q,
      was: formatG(design.originalValue, 4), now: formatG(design.value, 4) }) +
      (design.provenOptimal ? t("; proven best") : ""),
  };
}

/** The design and both boards' analyses, or `{error}` in the library's words.
 * @param {{board: any, goal: any, maxJumps: number, method: string}} request */
function* search({ board, goal, maxJumps, method }) {
  try {
    const design = yield* designSteps(board, goal, { maxJumps, method });
    const before = yield* analyseInSteps(board);
    const after = yield* analyseInSteps(design.board);
    return { design, before, after };
  } catch (error) {
    if (error instanceof BoardError) return { error: error.message };
    throw error;
  }
}

/** The starting board's analysis. @param {any} board */
function* start(board) {
  return { before: yield* analyseInSteps(board) };
}

/**
 * The controls: the goal, its parameter, the tolerance, the most jumps, the search, the button.
 * @param {string} id @param {any} model @param {() => number} ownMean
 * @param {import("../../core/i18n.js").Translate} t
 */
function controls(id, model, ownMean, t) {
  const save = (/** @type {Record<string, any>} */ values) => {
    for (const [name, value] of Object.entries(values)) model.set(name, value);
    model.save_changes();
  };
  const goal = /** @type {HTMLSelectElement} */ (h("select", { id: `${id}-goal` },
    goalWords(t).map(([value, words]) => h("option", { value, text: words }))));
  goal.addEventListener("change", () => {
    const spec = /** @type {any} */ (PARAMETER)[goal.value];
    const values = /** @type {Record<string, any>} */ ({ goal_kind: goal.value });
    if (spec) values.goal_parameter = spec[1] ?? Math.round(100 * ownMean()) / 100;
    save(values);
  });
  /** A typed number saved; an empty or unreadable box keeps the last value. */
  const number = (/** @type {string} */ name, /** @type {string} */ typed,
    /** @type {{set: (value: number) => void}} */ box) => {
    const value = typed.trim() === "" ? NaN : Number(typed);
    if (Number.isFinite(value)) save({ [name]: value });
    else box.set(Number(model.get(name)));
  };
  const parameter = numberBox({ id: `${id}-parameter`, label: t("target turns"), min: 0, max: 1e6,
    step: /** @type {any} */ ("any"), className: "chutes-design-parameter",
    onCommit: (typed) => number("goal_parameter", typed, parameter) });
  const tolerance = numberBox({ id: `${id}-tolerance`, label: t("± turns"), min: 0, max: 1e6,
    step: /** @type {any} */ ("any"), className: "chutes-design-tolerance",
    onCommit: (typed) => number("goal_tolerance", typed, tolerance) });
  const jumps = slider({ id: `${id}-jumps`, label: t("most jumps to add"), min: 1, max: MOST_JUMPS,
    step: 1, decimals: 0, unit: (k) => (k === 1 ? t("jump") : t("jumps")),
    className: "chutes-design-jumps",
    onInput: (k) => save({ most_jumps: k }) });
  const radios = PAGE_METHODS.map((method) => {
    const input = /** @type {HTMLInputElement} */ (h("input", { type: "radio",
      name: `${id}-method`, id: `${id}-method-${method.replace(" ", "-")}`, value: method }));
    input.addEventListener("change", () => { if (input.checked) save({ search_method: method }); });
    return input;
  });
  const method = h("fieldset", { class: "chutes-design-method" }, [h("legend", { text: t("search") }),
    ...radios.flatMap((input) => [input, h("label", { for: input.id,
      text: input.value === "greedy" ? t("greedy") : t("local search") })])]);
  const run = /** @type {HTMLButtonElement} */ (h("button", { type: "button",
    class: "chutes-design-run", text: t("Design") }));
  run.addEventListener("click", () => save({ runs: Number(model.get("runs") ?? 0) + 1 }));
  return { goal, parameter, tolerance, jumps, radios, method, run };
}

/**
 * What the explorer shows: the plan line, the result, the steps, the message, the live region
 * and both pictures, with `drawStart` (the starting board, before a design) and `drawDesign`.
 * @param {string} id
 */
function createViews(id, /** @type {import("../../core/i18n.js").Translate} */ t) {
  const plan = h("p", { class: "chutes-readout chutes-design-plan" });
  const readout = h("p", { class: "chutes-design-result" });
  const steps = h("ol", { class: "chutes-design-steps" });
  const stepsBox = h("div", { class: "chutes-design-steps-box" }, [h("b", { text: t("Steps") }),
    steps]);
  stepsBox.hidden = true;
  const message = messageLine(t);
  const live = liveRegion();
  const board = createBoardPicture({ id, t });
  const chart = createDesignChart({ id, t });
  const label = t("expected turns to finish (turns)");

  /** The starting board, its heat map and its game length; returns its expected turns. */
  function drawStart(/** @type {any} */ before, /** @type {any} */ json, /** @type {string} */ name) {
    if (before.error !== undefined) {
      message.say(before.error);
      return null;
    }
    board.draw(json, { name, title: name || t("the board"), label,
      values: before.expected });
    chart.draw({ title: t("Before a design: the starting board"), before: before.pmf ?? [1],
      originalMean: before.expected[0] });
    return /** @type {Float64Array} */ (before.expected);
  }

  /** A design found: the readout, the steps, both pictures and the announcement. */
  function drawDesign(/** @type {any} */ answer, /** @type {string} */ name) {
    if (answer.error !== undefined) {
      message.say(answer.error);
      return;
    }
    const { design, before, after } = answer;
    const words = designWords(design, t);
    readout.replaceChildren(...words.lines.flatMap((line, i) => [...(i ? [h("br")] : []), line]));
    steps.replaceChildren(...words.steps.map((line) => h("li", { text: line })));
    stepsBox.hidden = false;
    board.draw(design.board, { name, title: t("Designed: added {added}",
      { added: jumpList(design.added, t) }), label, values: after.expected });
    chart.draw({ title: t("Designed for {goal}", { goal: t(describeGoal(design.goal)) }),
      before: before.pmf ?? [1],
      originalMean: design.originalMean, after: after.pmf ?? [1], design });
    live.say(words.announcement);
    message.say("");
  }
  return { plan, readout, stepsBox, message, live, board, chart, drawStart, drawDesign };
}

/**
 * Draw the explorer into `el` for `model`; returns a function that stops listening.
 * @param {any} model
 * @param {HTMLElement} el
 */
function render(model, el) {
  const id = uniqueId("chutes-design");
  const searches = createRunner({ steps: search, cacheSize: 12 });
  const starts = createRunner({ steps: start, cacheSize: 4 });
  /** @type {Float64Array | null} */
  let startExpected = null;
  let startKey = "";
  let ran = Number(model.get("runs") ?? 0);
  let asked = "";
  const t = translator(model.get("language") ?? pageLanguage());
  const ui = controls(id, model, () => (startExpected ? startExpected[0] : NaN), t);
  const views = createViews(id, t);
  const { plan, message } = views;
  const name = () => String(model.get("board_name") ?? "");
  const settings = () => ({ kind: String(model.get("goal_kind")),
    parameter: Number(model.get("goal_parameter")), tolerance: Number(model.get("goal_tolerance")),
    maxJumps: Number(model.get("most_jumps")), method: String(model.get("search_method")) });
  const drawStart = (/** @type {any} */ answer, /** @type {any} */ json) => {
    startExpected = views.drawStart(answer.before, json, name()) ?? startExpected;
  };

  /** Press Design: run the search for the settings now. */
  function design() {
    const json = model.get("board_json");
    const { kind, parameter, tolerance, maxJumps, method } = settings();
    const request = { board: json, goal: goalOf(kind, parameter, tolerance), maxJumps, method };
    const key = JSON.stringify(request);
    asked = key;
    const answer = searches.run(request, key, (/** @type {any} */ later) => {
      if (asked === key) paint(later);
    });
    if (answer !== null) paint(answer);
    else root.setAttribute("aria-busy", "true");
  }

  function paint(/** @type {any} */ answer) {
    root.removeAttribute("aria-busy");
    try {
      views.drawDesign(answer, name());
    } catch (error) {            // a picture that cannot be drawn says why, never a stack trace
      message.say(errorWords(error));
    }
  }

  function show() {
    const json = model.get("board_json");
    const { kind, parameter, tolerance, maxJumps, method } = settings();
    ui.goal.value = kind;
    const spec = /** @type {any} */ (PARAMETER)[kind];
    /** @type {HTMLLabelElement} */ (ui.parameter.box.querySelector("label")).textContent =
      spec ? parameterLabel(t)[kind] ?? spec[0] : t("(no parameter)");
    ui.parameter.input.disabled = !spec;
    ui.parameter.set(parameter);
    ui.tolerance.input.disabled = kind !== "spread";
    ui.tolerance.set(tolerance);
    ui.jumps.set(maxJumps);
    ui.radios.forEach((input) => { input.checked = input.value === method; });
    plan.textContent = planWords(kind, parameter, tolerance, maxJumps, method, t);
    const boardKey = JSON.stringify(json);
    if (boardKey !== startKey) {
      startKey = boardKey;
      const answer = starts.run(json, boardKey, (/** @type {any} */ later) => {
        if (startKey === boardKey) drawStart(later, json);
      });
      if (answer !== null) drawStart(answer, json);
    }
    const runs = Number(model.get("runs") ?? 0);
    if (runs !== ran) {
      ran = runs;
      design();
    }
  }

  el.classList.add("chutes-explorer", "chutes-panel", "chutes-design-explorer");
  const root = panelRoot([
    h("p", { class: "chutes-panel-title" }, [h("b", { text: t("Design a board") }),
      ...filled(t(": choose a goal and press {Design}. The search adds ladders and chutes; " +
        "greedy and local search are quick but can miss the best design (the exhaustive " +
        "search, in Python, proves its answer best)."), { Design: h("i", { text: t("Design") }) })]),
    h("div", { class: "chutes-select" }, [h("label", { for: ui.goal.id, text: t("goal") }),
      ui.goal]),
    h("div", { class: "chutes-design-numbers" }, [ui.parameter.box, ui.tolerance.box]),
    ui.jumps.box, ui.method, plan, ui.run, message.el, views.readout, views.stepsBox,
    h("div", { class: "chutes-design-pictures" }, [views.board.el,
      h("div", { class: "chutes-picture chutes-design-image" }, [views.chart.svg])]),
    views.live.el,
  ]);
  el.append(root);
  for (const name of TRAITS) model.on(`change:${name}`, show);
  show();
  return () => {
    searches.cancel();
    starts.cancel();
    for (const name of TRAITS) model.off(`change:${name}`, show);
  };
}

/**
 * The explorer on a page with no widget manager (the course website).
 * @param {HTMLElement} el
 * @param {{board_json?: any, board_name?: string, goal_kind?: string, goal_parameter?: number,
 *     goal_tolerance?: number, most_jumps?: number, search_method?: string, runs?: number,
 *     language?: string}} [start]
 */
export function mount(el, { board_json = {}, board_name = "", goal_kind = "target",
  goal_parameter = 25, goal_tolerance = 1, most_jumps = 2, search_method = "local search",
  runs = 0, language = pageLanguage() } = {}) {
  const model = createModel({ board_json, board_name, goal_kind, goal_parameter, goal_tolerance,
    most_jumps, search_method, runs, language });
  const stop = render(model, el);
  return { model, stop };
}

export default {
  render(/** @type {{model: any, el: HTMLElement}} */ { model, el }) {
    return render(model, el);
  },
};
