// @ts-check
/**
 * The game-length distribution as an SVG chart in the page: what chutes_edu.plot_distribution
 * draws for the board explorer (bars P(T = k), the cumulative P(T <= k) as a dash-dotted line on
 * a right-hand axis from 0 to 1, the mean as a solid line, the median dashed and the mode dotted,
 * their values in a box), with its text alternative in the library's words (the picture's
 * `aria-label`, renewed with every drawing: `describeDistribution` of maths/board_explorer_math.js).
 *
 * The x-axis ends just past the 99.9th percentile and stays put while the new end fits and fills
 * half of it (`stickyEnd`, the library's "sticky" axes), so that pictures are easy to compare.
 *
 * @module board_explorer_chart
 */
import { distributionStats, niceCeiling, stickyEnd } from "../../maths/board_explorer_math.js";
import { describeDistributionIn } from "../../ui/picture_words.js";
import { translator } from "../../core/i18n.js";
import { pyFixed } from "../../core/format.js";
import { attr, s } from "../../ui/dom.js";
import { fixed } from "../../ui/controls.js";

const WIDTH = 544;
const HEIGHT = 304;
const BOX = { left: 62, right: 484, top: 34, bottom: 244 };
const BAR = "#56B4E9";
const LINE = "#1a1a1a";
/** The picture's title (the explorer's, as BoardExplorer gives it to plot_distribution). */
export const DISTRIBUTION_TITLE = "How long is a one-player game?";

/** Round tick values from 0 to `top` (about five of them). */
function ticks(/** @type {number} */ top) {
  const step = niceCeiling(top / 5);
  const out = [];
  for (let v = 0; v <= top * (1 + 1e-9); v += step) out.push(v);
  return out;
}

/** A tick's words: as few decimals as its step needs. */
function tickText(/** @type {number} */ v, /** @type {number} */ step) {
  const decimals = step >= 1 ? 0 : Math.min(6, Math.ceil(-Math.log10(step) - 1e-9));
  return fixed(v, decimals);
}

/**
 * The chart's SVG: the frame, the titles and the right-hand axis, drawn once, and the parts
 * each drawing renews.
 * @param {string} id
 * @param {import("../../core/i18n.js").Translate} t
 */
function chartParts(id, t) {
  const svg = /** @type {SVGSVGElement} */ (s("svg", {
    class: "chutes-chart chutes-distribution-chart", role: "img", id: `${id}-distribution`,
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT }));
  const grid = s("g", { class: "chutes-chart-grid" });
  const xTicks = s("g", { class: "chutes-chart-ticks", "text-anchor": "middle" });
  const yTicks = s("g", { class: "chutes-chart-ticks", "text-anchor": "end" });
  const rightTicks = s("g", { class: "chutes-chart-ticks", "text-anchor": "start" });
  const bars = s("path", { fill: BAR, stroke: "#1f5f8b", "stroke-width": 0.5 });
  const cumulative = s("path", { fill: "none", stroke: "#D55E00", "stroke-width": 1.6,
    "stroke-dasharray": "7 3 2 3" });
  const marks = {
    mean: s("line", { stroke: LINE, "stroke-width": 1.6 }),
    median: s("line", { stroke: LINE, "stroke-width": 1.4, "stroke-dasharray": "6 4" }),
    mode: s("line", { stroke: LINE, "stroke-width": 1.4, "stroke-dasharray": "1.5 3" }),
  };
  const summary = s("text", { x: BOX.right - 8, y: BOX.top + 18, "text-anchor": "end",
    class: "chutes-distribution-summary" });
  const summaryBox = s("rect", { y: BOX.top + 4, height: 20, fill: "#ffffff",
    "fill-opacity": 0.9, stroke: "#8c8c8c" });
  svg.append(
    s("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, fill: "#ffffff" }),
    s("text", { x: (BOX.left + BOX.right) / 2, y: 20, class: "chutes-chart-title",
      "text-anchor": "middle", text: t("How long is a one-player game?") }),
    grid, bars, cumulative, marks.mean, marks.median, marks.mode,
    s("rect", { x: BOX.left, y: BOX.top, width: BOX.right - BOX.left,
      height: BOX.bottom - BOX.top, fill: "none", stroke: "#333333", "stroke-width": 1 }),
    xTicks, yTicks, rightTicks, summaryBox, summary,
    s("text", { x: (BOX.left + BOX.right) / 2, y: BOX.bottom + 38, "text-anchor": "middle",
      text: t("game length k (turns)") }),
    s("text", { transform: `translate(16 ${(BOX.top + BOX.bottom) / 2}) rotate(-90)`,
      "text-anchor": "middle", text: t("probability P(T = k)") }),
    s("text", { transform: `translate(${WIDTH - 10} ${(BOX.top + BOX.bottom) / 2}) rotate(90)`,
      "text-anchor": "middle", text: t("P(T ≤ k), dash-dotted") }),
  );
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    const y = BOX.bottom - v * (BOX.bottom - BOX.top);
    rightTicks.append(s("text", { x: BOX.right + 6, y: (y + 4).toFixed(1), text: fixed(v, 2) }));
  }
  return { svg, grid, xTicks, yTicks, bars, cumulative, marks, summary, summaryBox };
}

/**
 * One drawing's scales: the x-axis's end, the last bar drawn, the y-axis's top, and where k
 * and p are on the page.
 * @typedef {{end: number, last: number, top: number, xOf: (k: number) => number,
 *     yOf: (p: number) => number}} Scales
 */

/** The grid and the ticks of both axes, renewed only when the axes change. */
function drawAxes(/** @type {ReturnType<typeof chartParts>} */ parts,
  /** @type {Scales} */ { end, top, xOf, yOf }) {
  const ys = ticks(top);
  const yStep = ys.length > 1 ? ys[1] - ys[0] : top;
  parts.grid.replaceChildren(...ys.map((v) => s("line", { x1: BOX.left, x2: BOX.right,
    y1: yOf(v).toFixed(1), y2: yOf(v).toFixed(1), stroke: "#e0e0e0" })));
  parts.yTicks.replaceChildren(...ys.map((v) => s("text", { x: BOX.left - 6,
    y: (yOf(v) + 4).toFixed(1), text: tickText(v, yStep) })));
  const xs = ticks(end);
  parts.xTicks.replaceChildren(...xs.map((v) => s("text", { x: xOf(v).toFixed(1),
    y: BOX.bottom + 16, text: tickText(v, xs.length > 1 ? xs[1] - xs[0] : end) })));
}

/** The bars P(T = k) and the cumulative line P(T <= k) on its axis from 0 to 1. */
function drawCurves(/** @type {ReturnType<typeof chartParts>} */ parts,
  /** @type {ArrayLike<number>} */ pmf, /** @type {ArrayLike<number>} */ cdf,
  /** @type {Scales} */ { end, last, xOf, yOf }) {
  const width = 0.8 * (BOX.right - BOX.left) / end;
  const bars = [];
  for (let k = 0; k <= last; k += 1) {
    if (!(pmf[k] > 0)) continue;
    const y = yOf(pmf[k]);
    bars.push(`M${(xOf(k) - width / 2).toFixed(2)},${BOX.bottom}V${y.toFixed(2)}` +
      `h${width.toFixed(2)}V${BOX.bottom}z`);
  }
  attr(parts.bars, "d", bars.join(""));
  const total = cdf[cdf.length - 1] || 1;
  const line = [];
  for (let k = 0; k <= last; k += 1) {
    const y = BOX.bottom - (cdf[k] / total) * (BOX.bottom - BOX.top);
    line.push(`${k ? "L" : "M"}${xOf(k).toFixed(2)},${y.toFixed(2)}`);
  }
  if (last < end) {
    line.push(`L${xOf(end).toFixed(2)},${(BOX.bottom - (cdf[last] / total) *
      (BOX.bottom - BOX.top)).toFixed(2)}`);
  }
  attr(parts.cumulative, "d", line.join(""));
}

/** The mean, median and mode as lines, and their values in the box. */
function drawMarks(/** @type {ReturnType<typeof chartParts>} */ parts,
  /** @type {ReturnType<typeof distributionStats>} */ stats, /** @type {Scales} */ { xOf },
  /** @type {import("../../core/i18n.js").Translate} */ t) {
  const { marks, summary, summaryBox } = parts;
  for (const [name, k] of /** @type {Array<[keyof typeof marks, number]>} */ (
    [["mean", stats.mean], ["median", stats.median], ["mode", stats.mode]])) {
    const x = Math.min(BOX.right, xOf(k)).toFixed(2);
    attr(marks[name], "x1", x);
    attr(marks[name], "x2", x);
    attr(marks[name], "y1", String(BOX.top));
    attr(marks[name], "y2", String(BOX.bottom));
  }
  summary.textContent = t("mean {mean} (solid), median {median} (dashed), mode {mode} (dotted)",
    { mean: pyFixed(stats.mean, 2), median: stats.median, mode: stats.mode });
  const boxWidth = 10 + 6.9 * summary.textContent.length;
  attr(summaryBox, "x", (BOX.right - 4 - boxWidth).toFixed(1));
  attr(summaryBox, "width", boxWidth.toFixed(1));
}

/**
 * A chart of a game-length distribution: `draw(pmf)` shows it and returns its description;
 * its words in the language of `t` (default English).
 * @param {{id: string, t?: import("../../core/i18n.js").Translate}} options
 */
export function createDistributionChart({ id, t = translator("en") }) {
  const parts = chartParts(id, t);
  /** @type {number | null} */
  let xmax = null;
  let axesKey = "";

  /**
   * Draw a distribution; returns the picture's description (also its aria-label).
   * @param {ArrayLike<number>} pmf P(T = k), k = 0, 1, ...
   */
  const draw = (pmf) => {
    const stats = distributionStats(pmf);
    xmax = stickyEnd(xmax, stats.needed, true);
    const end = xmax;
    const last = Math.min(pmf.length - 1, Math.floor(end));
    let peak = 0;
    for (let k = 0; k <= last; k += 1) peak = Math.max(peak, pmf[k]);
    const top = niceCeiling(peak * 1.15 || 1);
    const xOf = (/** @type {number} */ k) => BOX.left + (k / end) * (BOX.right - BOX.left);
    const yOf = (/** @type {number} */ p) => BOX.bottom - (p / top) * (BOX.bottom - BOX.top);
    const scales = { end, last, top, xOf, yOf };
    const key = `${end}|${top}`;
    if (key !== axesKey) {
      axesKey = key;
      drawAxes(parts, scales);
    }
    drawCurves(parts, pmf, stats.cdf, scales);
    drawMarks(parts, stats, scales, t);
    const words = describeDistributionIn(t, stats, end, t("How long is a one-player game?"));
    attr(parts.svg, "aria-label", words);
    return words;
  };
  return { svg: parts.svg, draw, describe: () => parts.svg.getAttribute("aria-label") ?? "" };
}
