// @ts-check
/**
 * The policy explorer of `chutes_edu` (chutes_edu/widgets/policy_explorer.py, Lesson 10): aim each
 * move instead of rolling; sliders for the aim (the chance of an exact move, and the share of the
 * misses that go one too far) and the discount factor. It computes in the page (maths/policy_math.js,
 * held equal to the library's `chutes_edu.control` by tests), with no kernel: value iteration, the
 * expected turns of its policy and the fewest possible, by policy iteration.
 *
 * Two ways in, as the race explorer has:
 *
 * - `export default { render }`: an anywidget front end. The model's traits are `board_json`
 *   (the board, in maths/board_math.js's JSON form), `board_name`, `aim_exact`, `aim_lean` and
 *   `discount_factor`; a slider sets its trait and saves, and a change from Python redraws the
 *   page.
 * - `mount(el, {board_json, board_name, aim_exact, aim_lean, discount_factor})`: the same explorer
 *   on a page with no widget manager (the course website), on `createModel`'s stand-in for a
 *   model.
 *
 * On every change the page runs the maths in slices (`policyAnalysisSteps`, driven by the
 * editor's runner: 8 ms at most at a time, the page's thread given back between slices; a newer
 * change drops the older one, and answers are kept, so going back is at once), then renews the
 * picture with its description, the readout, and a polite announcement. Settings the library
 * cannot solve (an aim from which no way of aiming finishes) leave the last picture, clear the
 * readout and say why in the message line, in the library's words.
 *
 * @module policy_explorer
 */
import { BoardError } from "../../maths/board_math.js";
import { formatG } from "../../core/format.js";
import { translator } from "../../core/i18n.js";
import { createModel } from "../../core/model.js";
import { h, panelRoot } from "../../ui/dom.js";
import { createRunner } from "../../ui/runner.js";
import { errorWords, fixed, liveRegion, messageLine, pageLanguage, slider, uniqueId } from "../../ui/controls.js";
import { policyAnalysisSteps, VALUE_DEFAULTS } from "../../maths/policy_math.js";
import { createPolicyPicture } from "./picture.js";

export {
  describePolicy, describeProfile, describeTargets,
} from "./picture.js";
export {
  optimalPolicy, policyAnalysisSteps, policyExpectedTurns, sliderAccuracy, valueIteration,
} from "../../maths/policy_math.js";

/** The traits the explorer shares with Python. */
export const TRAITS = ["board_json", "board_name", "aim_exact", "aim_lean", "discount_factor",
  "language"];

/** Each slider: its trait, label, class, range and step (policy_explorer.py's SLIDERS). */
export const SLIDERS = Object.freeze([
  { trait: "aim_exact", label: "P(exact move), the chance of moving exactly the target",
    className: "chutes-exact", min: 0, max: 1, step: 0.05 },
  { trait: "aim_lean", label: "share of misses that go too far", className: "chutes-lean",
    min: 0, max: 1, step: 0.05 },
  { trait: "discount_factor", label: "discount factor γ", className: "chutes-discount",
    min: 0.1, max: 0.99, step: 0.01 },
]);

/** Expected turns as the library's explorer wrote them, in the language of `t`. */
export const turnsWords = (/** @type {number} */ x, t = translator("en")) =>
  (Number.isFinite(x) ? fixed(x, 3) : t("never finishes"));

/** A sentence said whole, as the readout's pieces: `{name}` placeholders of `parts` become them. */
function pieces(/** @type {string} */ words, /** @type {Record<string, any>} */ parts) {
  return words.split(/(\{\w+\})/).filter(Boolean).map((piece) => {
    const name = /^\{(\w+)\}$/.exec(piece)?.[1];
    return name !== undefined && Object.hasOwn(parts, name) ? parts[name] : piece;
  });
}

/**
 * The readout's lines and the announcement for an analysis (the Python explorer's words), in
 * the language of `t` (default English).
 * @param {import("../../maths/policy_math.js").PolicyAnalysis} analysis
 * @param {number} reward
 */
export function policyWords({ accuracy, result, turns, best, differ }, reward,
  t = translator("en")) {
  const [under, exact, over] = accuracy;
  const now = turnsWords(turns[0], t);
  const fewest = turnsWords(best.expectedTurns[0], t);
  return {
    lines: [
      [t("aim: one short {under}, exact {exact}, one too far {over}",
        { under: fixed(under, 3), exact: fixed(exact, 3), over: fixed(over, 3) })],
      pieces(t("value iteration: {sweeps} sweeps; value of square 0: {value} (≈ {reward} × " +
        "E[γ{T}], T = turns to finish)", { reward: formatG(reward) }),
      { sweeps: { b: String(result.iterations) }, value: { b: formatG(result.values[0], 4) },
        T: { sup: "T" } }),
      pieces(t("this policy takes {turns} turns on average from square 0; the fewest possible " +
        "is {fewest} (targets differ on {differ} squares)", { differ }),
      { turns: { b: now }, fewest: { b: fewest } }),
    ],
    announcement: t("This policy takes {turns} turns on average; the fewest possible is " +
      "{fewest}; targets differ on {differ} squares", { turns: now, fewest, differ }),
  };
}

/** The readout's pieces as nodes. */
const nodes = (/** @type {any[]} */ line) => line.map((part) => (typeof part === "string" ? part
  : part.b !== undefined ? h("b", { text: part.b }) : h("sup", { text: part.sup })));

/**
 * The analysis for a request, or `{error}` with the library's words for settings it refuses.
 * @param {{board: any, exact: number, lean: number, discount: number}} request
 */
function* analysis({ board, exact, lean, discount }) {
  try {
    return { analysis: yield* policyAnalysisSteps(board, { exact, lean, discount }) };
  } catch (error) {
    if (error instanceof BoardError) return { error: error.message };
    throw error;
  }
}

/** The explorer's title, then `parts`, in `el`; returns the explorer's root. */
function layOut(/** @type {HTMLElement} */ el, /** @type {Node[]} */ parts,
  /** @type {import("../../core/i18n.js").Translate} */ t) {
  el.classList.add("chutes-explorer", "chutes-panel", "chutes-policy-explorer");
  const root = panelRoot([
    h("p", { class: "chutes-panel-title" }, [h("b", { text: t("Aiming") }),
      t(": choose how accurately the token moves and the discount; the value of each square " +
        "and the best target from it follow.")]),
    ...parts,
  ]);
  el.append(root);
  return root;
}

/**
 * Draw the explorer into `el` for `model`; returns a function that stops listening.
 * @param {any} model
 * @param {HTMLElement} el
 */
function render(model, el) {
  const id = uniqueId("chutes-policy");
  const t = translator(model.get("language") ?? pageLanguage());
  /** @type {Record<string, string>} */
  const labels = { aim_exact: t("P(exact move), the chance of moving exactly the target"),
    aim_lean: t("share of misses that go too far"), discount_factor: t("discount factor γ") };
  const runner = createRunner({ steps: analysis });
  /** @type {ReturnType<typeof createPolicyPicture> | null} */
  let picture = null;
  let pictureBoard = "";
  let drawn = "";
  let asked = "";
  const controls = SLIDERS.map((spec) => slider({ id: `${id}-${spec.className.slice(7)}`,
    label: labels[spec.trait] ?? spec.label, min: spec.min, max: spec.max, step: spec.step, decimals: 2,
    className: spec.className, onInput: (value) => {
      model.set(spec.trait, value);
      model.save_changes();
    } }));
  const readout = h("p", { class: "chutes-readout" });
  const message = messageLine(t);
  const live = liveRegion();
  const frame = h("div", { class: "chutes-picture chutes-policy-image" });

  /** Show an answer (the analysis, or why there is none) for the settings `key`; the picture
   * is made for a board when its first answer comes (one the library refuses draws none). */
  function paint(/** @type {any} */ answer, /** @type {string} */ key,
    /** @type {{board: any, name: string, boardKey: string, discount: number}} */ shown) {
    root.removeAttribute("aria-busy");
    try {
      drawAnswer(answer, key, shown);
    } catch (error) {            // a picture that cannot be drawn says why, never a stack trace
      message.say(errorWords(error));
      drawn = key;
    }
  }

  /** Draw an answer: the message and the readout, or the picture, readout and announcement. */
  function drawAnswer(/** @type {any} */ answer, /** @type {string} */ key,
    /** @type {{board: any, name: string, boardKey: string, discount: number}} */
    { board, name, boardKey, discount }) {
    if (answer.error !== undefined) {
      message.say(answer.error);
      readout.replaceChildren();
      drawn = key;
      return;
    }
    const { analysis: found } = answer;
    if (picture === null || boardKey !== pictureBoard) {      // a new board: a new picture
      picture = createPolicyPicture({ id, board, name, t });
      frame.replaceChildren(picture.svg);
      picture.fit(frame.clientWidth);
      pictureBoard = boardKey;
    }
    const reward = VALUE_DEFAULTS.reward;
    picture.draw({ accuracy: found.accuracy, discount, reward,
      values: found.result.values, policy: found.result.policy, best: found.best.policy });
    const words = policyWords(found, reward, t);
    readout.replaceChildren(...words.lines.flatMap((line, i) => [...(i ? [h("br")] : []),
      ...nodes(line)]));
    live.say(words.announcement);
    message.say("");
    drawn = key;
  }

  function show() {
    const board = model.get("board_json");
    const name = model.get("board_name") ?? "";
    const [exact, lean, discount] = SLIDERS.map((spec) => Number(model.get(spec.trait)));
    const boardKey = JSON.stringify(board);
    const key = `${boardKey}|${exact}|${lean}|${discount}`;
    controls.forEach((control, i) => {
      control.set([exact, lean, discount][i]);
    });
    if (key === drawn) {                     // back to what is shown: drop the work under way
      runner.cancel();
      asked = key;
      root.removeAttribute("aria-busy");
      return;
    }
    if (key === asked) return;
    asked = key;
    const shown = { board, name, boardKey, discount };
    const answer = runner.run({ board, exact, lean, discount }, key, (/** @type {any} */ later) => {
      if (asked === key) paint(later, key, shown);
    });
    if (answer !== null) paint(answer, key, shown);
    else root.setAttribute("aria-busy", "true");
  }

  const root = layOut(el, [...controls.map((control) => control.box), readout, message.el, frame,
    live.el], t);
  // A phone's narrow page: the picture lays itself out again when its frame's width changes.
  const resize = typeof ResizeObserver === "function"
    ? new ResizeObserver(() => picture?.fit(frame.clientWidth)) : null;
  resize?.observe(frame);
  for (const name of TRAITS) model.on(`change:${name}`, show);
  show();
  return () => {
    resize?.disconnect();
    runner.cancel();
    for (const name of TRAITS) model.off(`change:${name}`, show);
  };
}

/**
 * The explorer on a page with no widget manager (the course website).
 * @param {HTMLElement} el
 * @param {{board_json?: any, board_name?: string, aim_exact?: number, aim_lean?: number,
 *     discount_factor?: number, language?: string}} [start]
 */
export function mount(el, { board_json = {}, board_name = "", aim_exact = 0.5, aim_lean = 0.5,
  discount_factor = 0.9, language = pageLanguage() } = {}) {
  const model = createModel({ board_json, board_name, aim_exact, aim_lean, discount_factor,
    language });
  const stop = render(model, el);
  return { model, stop };
}

export default {
  render(/** @type {{model: any, el: HTMLElement}} */ { model, el }) {
    return render(model, el);
  },
};
