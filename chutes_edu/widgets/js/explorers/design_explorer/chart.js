// @ts-check
/**
 * The game lengths before and after a design as an SVG chart in the page: what
 * chutes_edu.plot_design draws (the starting board's P(T = k) as a filled step curve, sky blue;
 * the designed board's as a thick dashed step line, vermillion; each mean as a vertical line of
 * the same colour; the legend names the added jumps and both means), up to the 99.9th percentile
 * of the longer game. Its text alternative is the library's sentence (the picture's
 * `aria-label`, renewed with every drawing). Before a design it shows the starting board alone.
 *
 * @module design_chart
 */
import { niceCeiling } from "../../maths/board_explorer_math.js";
import { pyFixed } from "../../core/format.js";
import { attr, s } from "../../ui/dom.js";
import { fixed } from "../../ui/controls.js";
import { translator } from "../../core/i18n.js";

const WIDTH = 544;
const HEIGHT = 336;
const BOX = { left: 62, right: 524, top: 34, bottom: 244 };
const BEFORE = "#56B4E9";
const AFTER = "#D55E00";
const BEFORE_MEAN = "#0072B2";

const ENGLISH = translator("en");

/** The added jumps as the library lists them ("none" for none, in the language of `t`).
 * @param {number[][]} jumps */
export const jumpList = (jumps, t = ENGLISH) =>
  jumps.map(([a, b]) => `${a}->${b}`).join(", ") || t("none");

/** The first k where P(T = k) is largest. @param {ArrayLike<number>} pmf */
function mode(pmf) {
  let best = 0;
  for (let k = 1; k < pmf.length; k += 1) if (pmf[k] > pmf[best]) best = k;
  return best;
}

/** The first k with P(T <= k) >= 0.999 (numpy's searchsorted on the cumulative sum). */
function reachOf(/** @type {ArrayLike<number>} */ pmf) {
  let sum = 0;
  for (let k = 0; k < pmf.length; k += 1) {
    sum += pmf[k];
    if (sum >= 0.999) return k;
  }
  return pmf.length;
}

/**
 * The library's sentence for the comparison (plot_design's alt text).
 * @param {{added: number[][], originalMean: number, mean: number}} design
 * @param {ArrayLike<number>} before @param {ArrayLike<number>} after
 * @param {import("../../core/i18n.js").Translate} [t] Its language (default English).
 */
export function describeDesign({ added, originalMean, mean }, before, after, t = ENGLISH) {
  return t("The distribution of the game length before and after adding {added}: the mean goes " +
    "from {was} to {now} turns, the most likely length from {modeWas} to {modeNow} turns.",
  { added: jumpList(added, t), was: pyFixed(originalMean, 1), now: pyFixed(mean, 1),
    modeWas: mode(before), modeNow: mode(after) });
}

/** The starting board alone, before a design. @param {ArrayLike<number>} pmf @param {number} mean */
export function describeStart(pmf, mean, t = ENGLISH) {
  return t("Before a design: the distribution of the game length on the starting board: mean " +
    "{mean} turns, the most likely length {mode} turns.", { mean: pyFixed(mean, 1),
    mode: mode(pmf) });
}

/** A step curve's path over k = 0..reach (each bar from k - 1/2 to k + 1/2). */
function steps(/** @type {ArrayLike<number>} */ pmf, /** @type {number} */ reach,
  /** @type {(k: number) => number} */ x, /** @type {(p: number) => number} */ y, closed = false) {
  const parts = [`M${x(-0.5).toFixed(1)} ${y(0).toFixed(1)}`];
  for (let k = 0; k <= reach; k += 1) {
    const p = y(k < pmf.length ? pmf[k] : 0).toFixed(1);
    parts.push(`V${p}H${x(k + 0.5).toFixed(1)}`);
  }
  parts.push(`V${y(0).toFixed(1)}`);
  return parts.join("") + (closed ? "Z" : "");
}

/**
 * The comparison chart: `draw({title, before, after, design})` shows it (no `after` before a
 * design) and returns its description; its words in the language of `t` (default English).
 * @param {{id: string, t?: import("../../core/i18n.js").Translate}} options
 */
export function createDesignChart({ id, t = ENGLISH }) {
  const svg = /** @type {SVGSVGElement} */ (s("svg", { class: "chutes-chart chutes-design-chart",
    role: "img", id: `${id}-comparison`, viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH,
    height: HEIGHT }));
  const title = s("text", { x: (BOX.left + BOX.right) / 2, y: 20, class: "chutes-chart-title",
    "text-anchor": "middle" });
  const ticks = s("g", { class: "chutes-chart-ticks" });
  const old = s("path", { fill: BEFORE, "fill-opacity": 0.6, stroke: BEFORE });
  const fresh = s("path", { fill: "none", stroke: AFTER, "stroke-width": 2.2, "stroke-dasharray": "8 4" });
  const oldMean = s("line", { stroke: BEFORE_MEAN, "stroke-width": 1.6 });
  const freshMean = s("line", { stroke: AFTER, "stroke-width": 1.6, "stroke-dasharray": "1.5 3" });
  const legend = s("g", { class: "chutes-design-legend" });
  svg.append(s("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, fill: "#ffffff" }), title,
    old, fresh, oldMean, freshMean,
    s("rect", { x: BOX.left, y: BOX.top, width: BOX.right - BOX.left, height: BOX.bottom - BOX.top,
      fill: "none", stroke: "#333333" }), ticks, legend,
    s("text", { x: (BOX.left + BOX.right) / 2, y: BOX.bottom + 34, "text-anchor": "middle",
      text: t("game length k (turns)") }),
    s("text", { transform: `translate(16 ${(BOX.top + BOX.bottom) / 2}) rotate(-90)`,
      "text-anchor": "middle", text: t("probability P(T = k)") }));

  /**
   * @param {{title: string, before: ArrayLike<number>, originalMean: number,
   *     after?: ArrayLike<number>, design?: {added: number[][], originalMean: number, mean: number}}} shown
   */
  const draw = ({ title: heading, before, originalMean, after, design }) => {
    const reach = Math.max(reachOf(before), after ? reachOf(after) : 0) + 2;
    let top = 0;
    for (const pmf of after ? [before, after] : [before]) {
      for (let k = 0; k <= reach && k < pmf.length; k += 1) top = Math.max(top, pmf[k]);
    }
    top = (top || 1) * 1.1;
    const x = (/** @type {number} */ k) => BOX.left + ((k + 0.5) / (reach + 1)) * (BOX.right - BOX.left);
    const y = (/** @type {number} */ p) => BOX.bottom - (p / top) * (BOX.bottom - BOX.top);
    title.textContent = heading;
    attr(old, "d", steps(before, reach, x, y, true));
    attr(fresh, "d", after ? steps(after, reach, x, y) : "");
    for (const [line, at, shown] of [[oldMean, originalMean, true],
      [freshMean, design?.mean ?? 0, Boolean(design)]]) {
      const px = x(/** @type {number} */ (at)).toFixed(1);
      attr(/** @type {Element} */ (line), "x1", px);
      attr(/** @type {Element} */ (line), "x2", px);
      attr(/** @type {Element} */ (line), "y1", String(BOX.top));
      attr(/** @type {Element} */ (line), "y2", String(BOX.bottom));
      attr(/** @type {Element} */ (line), "visibility", shown ? "visible" : "hidden");
    }
    const step = niceCeiling(reach / 6);
    const marks = [];
    for (let k = 0; k <= reach; k += step) {
      marks.push(s("text", { x: x(k).toFixed(1), y: BOX.bottom + 16, "text-anchor": "middle", text: String(k) }));
    }
    for (const p of [0, top / 2.2, top / 1.1]) {
      marks.push(s("text", { x: BOX.left - 6, y: (y(p) + 4).toFixed(1), "text-anchor": "end",
        text: fixed(p, 3) }));
    }
    ticks.replaceChildren(...marks);
    const entries = [[BEFORE, t("starting board (mean {mean})", { mean: pyFixed(originalMean, 2) })]];
    if (design) {
      entries.push([AFTER, t("with {added} (mean {mean})", { added: jumpList(design.added, t),
        mean: pyFixed(design.mean, 2) })]);
    }
    legend.replaceChildren(...entries.flatMap(([colour, words], i) => [
      s("rect", { x: BOX.left, y: BOX.bottom + 48 + 18 * i, width: 14, height: 10, fill: colour }),
      s("text", { x: BOX.left + 20, y: BOX.bottom + 57 + 18 * i, text: words })]));
    const words = design && after ? describeDesign(design, before, after, t)
      : describeStart(before, originalMean, t);
    attr(svg, "aria-label", words);
    return words;
  };
  return { svg, draw, describe: () => svg.getAttribute("aria-label") ?? "" };
}
