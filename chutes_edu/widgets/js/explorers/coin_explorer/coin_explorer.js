// @ts-check
/**
 * The coin-flip explorer of `chutes_edu` (chutes_edu/widgets/coin_explorer.py, Lesson 1): flip a
 * coin until heads, many times, and watch the running average of the waits settle on 1/p. It
 * computes in the page (maths/coin_math.js, held equal to the library by tests), with no kernel.
 *
 * Two ways in, as the board editor has:
 *
 * - `export default { render }`: an anywidget front end. The model's traits are `p` (the chance
 *   of heads), `n_trials` (the number of waits) and `seed`; a control sets them and saves, and a
 *   change from Python redraws the page. `language` ("en", "es") says which words it shows
 *   (core/i18n.js: every word goes through `t`).
 * - `mount(el, {p, n_trials, seed, language})`: the same explorer on a page with no widget
 *   manager (the course website), on `createModel`'s stand-in for a model.
 *
 * On every change the page draws the waits (`createSampler`: only a pass of multiplications when
 * p moves), the running mean at the picture's points (`runningMeanAt`), then the picture with its
 * description, the readout, and a polite announcement. A value the explorer refuses (a number
 * box left empty, too many trials) leaves the last one and says why in the message line.
 *
 * @module coin_explorer
 */
import {
  checkProbability, checkSeed, checkTrials, createSampler, expectedFlips, logIndices, MAX_SEED,
  MAX_TRIALS, runningMeanAt,
} from "../../maths/coin_math.js";
import { createConvergenceChart } from "../../ui/convergence_chart.js";
import { h, panelRoot } from "../../ui/dom.js";
import { said, translator } from "../../core/i18n.js";
import { createModel } from "../../core/model.js";
import { errorWords, fixed, grouped, liveRegion, messageLine, numberBox, pageLanguage, slider, uniqueId } from "../../ui/controls.js";

export { describeConvergence } from "../../ui/convergence_chart.js";
export {
  checkProbability, checkSeed, checkTrials, createSampler, expectedFlips,
  flipsUntilHeads, logIndices, MAX_SEED, MAX_TRIALS, runningMean, runningMeanAt,
} from "../../maths/coin_math.js";
export { createRandom } from "../../core/random.js";

/** The refusals of the page's maths that the explorer says back in its language. */
export const SAID_BACK = Object.freeze([
  said("the random seed must be a whole number from 0 to {most}, not {value}"),
  said("the number of trials must be from 1 to {most}, not {value}"),
  said("n_trials must be a whole number, not {value}"),
]);

/** The traits the explorer shares with Python. */
export const TRAITS = ["p", "n_trials", "seed", "language"];

/**
 * The readout and the announcement for a drawn state (the library's words, as before), in the
 * language of `t` (default English).
 */
export function coinWords(/** @type {{n: number, mean: number, half: number, exact: number}} */
  { n, mean, half, exact }, t = translator("en")) {
  const band = Number.isFinite(half) ? ` ± ${fixed(half, 3)}` : "";
  return {
    readout: [t("average of {n} trials: ", { n: grouped(n) }), fixed(mean, 3),
      t("{band} flips (95%); first-step answer 1/p = ", { band }), fixed(exact, 4),
      t(" flips")],
    announcement: t("Average {mean} flips over {n} trials; 1/p = {exact} flips",
      { mean: fixed(mean, 2), n: grouped(n), exact: fixed(exact, 2) }),
  };
}

/** The explorer's elements, laid out. */
function layout(/** @type {any} */ parts) {
  const { p, n, seed, readout, message, chart, live, t } = parts;
  return panelRoot([
    h("p", { class: "chutes-panel-title" }, [h("b", { text: t("Waiting for heads") }),
      t(": flip a coin until it shows heads; how many flips does that take on average?")]),
    p.box,
    h("div", { class: "chutes-coin-row" }, [n.box, seed.box]),
    readout, message.el,
    h("div", { class: "chutes-picture chutes-coin-image" }, [chart.svg]),
    live.el,
  ]);
}

/**
 * Draw the explorer into `el` for `model`; returns a function that stops listening.
 * @param {any} model
 * @param {HTMLElement} el
 */
function render(model, el) {
  const id = uniqueId("chutes-coin");
  const t = translator(model.get("language") ?? pageLanguage());
  const sampler = createSampler();
  let drawn = "";
  const save = (/** @type {string} */ name, /** @type {number} */ value) => {
    model.set(name, value);
    model.save_changes();
  };
  const p = slider({ id: `${id}-p`, label: t("P(heads), the chance of heads p"), min: 0.01, max: 1,
    step: 0.01, decimals: 2, className: "chutes-p", onInput: (v) => save("p", v) });
  /** A typed value, checked; refused in words, the box showing the last value again. */
  const commit = (/** @type {string} */ name, /** @type {(v: number) => number} */ check) =>
    (/** @type {string} */ typed) => {
      try {
        const value = check(typed.trim() === "" ? NaN : Number(typed));
        if (value !== model.get(name)) save(name, value);
        message.say("");
      } catch (error) {
        message.say(errorWords(error));
        show();
      }
    };
  const n = numberBox({ id: `${id}-n`, label: t("trials (waits)"), min: 1, max: MAX_TRIALS,
    className: "chutes-n", onCommit: commit("n_trials", checkTrials) });
  const seed = numberBox({ id: `${id}-seed`, label: t("random seed"), min: 0, max: MAX_SEED,
    className: "chutes-seed", onCommit: commit("seed", checkSeed) });
  const readout = h("p", { class: "chutes-readout" });
  const message = messageLine(t);
  const live = liveRegion();
  const chart = createConvergenceChart({ id, title: t("Waiting for heads"), unit: t("flips"),
    what: t("trials"), exactLabel: t("1/p, the first-step answer"), t });

  function show() {
    const state = [model.get("p"), model.get("n_trials"), model.get("seed")];
    p.set(state[0]);
    n.set(state[1]);
    seed.set(state[2]);
    const key = state.join("|");
    if (key === drawn) return;
    try {
      const [chance, trials, s] = [checkProbability(state[0]), checkTrials(state[1]),
        checkSeed(state[2])];
      const flips = sampler.flips(chance, trials, s);
      const at = logIndices(trials);
      const { mean, half } = runningMeanAt(flips, at);
      const exact = expectedFlips(chance);
      chart.draw({ n: trials, at, mean, half, exact });
      const words = coinWords({ n: trials, mean: mean[mean.length - 1],
        half: half[half.length - 1], exact }, t);
      const [before, average, middle, first, after] = words.readout;
      readout.replaceChildren(before, h("b", { text: average }), middle, h("b", { text: first }),
        after);
      live.say(words.announcement);
      message.say("");
      drawn = key;
    } catch (error) {
      message.say(errorWords(error));
    }
  }

  el.classList.add("chutes-explorer", "chutes-panel", "chutes-coin-explorer");
  el.append(layout({ p, n, seed, readout, message, chart, live, t }));
  for (const name of TRAITS) model.on(`change:${name}`, show);
  show();
  return () => {
    for (const name of TRAITS) model.off(`change:${name}`, show);
  };
}

/**
 * The explorer on a page with no widget manager (the course website).
 * @param {HTMLElement} el
 * @param {{p?: number, n_trials?: number, seed?: number, language?: string}} [start]
 */
export function mount(el, { p = 0.5, n_trials = 1000, seed = 0, language = pageLanguage() } = {}) {
  const model = createModel({ p, n_trials, seed, language });
  const stop = render(model, el);
  return { model, stop };
}

export default {
  render(/** @type {{model: any, el: HTMLElement}} */ { model, el }) {
    return render(model, el);
  },
};
