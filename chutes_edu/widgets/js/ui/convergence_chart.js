// @ts-check
/**
 * The running mean of simulated waits converging to the exact value, as an SVG picture in the
 * page: what chutes_edu.plot_convergence draws (a log x-axis of the number of samples, the
 * running mean as a solid line in its 95% band, the exact value as a dashed line, the legend
 * below the axes), with its text alternative in the library's words (the picture's
 * `aria-label`, renewed with every drawing).
 *
 * The y range is the library's: the curve after the first ten samples, the exact value, and the
 * band once it has settled (after max(10, n/50) samples), padded by 8%; it is kept while a new
 * curve fits it and fills at least half of it, so that a slider's small steps do not make the
 * axis jump.
 *
 * A chart made with a `capLabel` can also draw, as plot_convergence(..., cap=c) does, the running
 * mean that a turn cap would report (each sample counted as min(x, c)) as a dash-dotted line,
 * with its legend entry; its values count in the y range like the mean's.
 *
 * Its words (legend, axes, description) are said through the `t` of the options (core/i18n.js;
 * English by default, the library's words); the title, unit and sample's name come said.
 *
 * @module convergence_chart
 */
import { attr, s } from "./dom.js";
import { legendEntry } from "./legend.js";
import { fixed, grouped } from "./controls.js";
import { translator } from "../core/i18n.js";

const ENGLISH = translator("en");

const WIDTH = 512;
const HEIGHT = 320;
const BOX = { left: 64, right: 484, top: 34, bottom: 214 };
const COLOURS = { mean: "#0072B2", band: "#56B4E9", exact: "#000000", grid: "#d9d9d9",
  capped: "#D55E00" };

/** Up to about `count` round tick values covering [lo, hi]. */
function niceTicks(/** @type {number} */ lo, /** @type {number} */ hi, count = 5) {
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((v) => v >= raw) ?? 10 * power;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9 * step; v += step) {
    out.push(Math.abs(v) < 1e-12 * step ? 0 : v);
  }
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  return { values: out, decimals };
}

/** The library's sentence for the picture (plot_convergence's alt text); with a `cap`, the
 * capped mean's too; in the language of `t` (default English). */
export function describeConvergence(/** @type {{title: string, n: number, what: string,
  unit: string, last: number, exact: number, cap?: number, cappedLast?: number}} */
  { title, n, what, unit, last, exact, cap, cappedLast }, t = ENGLISH) {
  const capped = cap === undefined || cappedLast === undefined ? "" : t("; with each capped at " +
    "{cap} {unit} (dash-dotted line) the mean ends at {last} {unit}",
  { cap, unit, last: fixed(cappedLast, 3) });
  return t("{title}: the running mean of {n} {what} (log x-axis, solid line) with its 95% " +
    "confidence band ends at {last} {unit}; the dashed line is the exact value {exact} " +
    "{unit}{capped}.", { title, n: grouped(n), what, last: fixed(last, 3), unit,
    exact: fixed(exact, 4), capped });
}

/**
 * The y range the library's picture uses (see the module's notes), kept from `frame` when the
 * new curve fits it.
 * @param {{n: number, at: ArrayLike<number>, mean: ArrayLike<number>, half: ArrayLike<number>,
 *          exact: number, capped?: ArrayLike<number>}} data
 * @param {{lo: number, hi: number, n: number} | null} frame
 */
export function yRange({ n, at, mean, half, exact, capped }, frame) {
  const first = Math.min(n, 10) - 1;
  const settled = Math.min(n, Math.max(10, Math.floor(n / 50))) - 1;
  let lo = exact;
  let hi = exact;
  for (let j = 0; j < at.length; j += 1) {
    if (at[j] >= first) {
      lo = Math.min(lo, mean[j]);
      hi = Math.max(hi, mean[j]);
      if (capped) {
        lo = Math.min(lo, capped[j]);
        hi = Math.max(hi, capped[j]);
      }
    }
    if (at[j] >= settled && Number.isFinite(half[j])) {
      lo = Math.min(lo, mean[j] - half[j]);
      hi = Math.max(hi, mean[j] + half[j]);
    }
  }
  const pad = 0.08 * (hi - lo) || 0.5;
  lo -= pad;
  hi += pad;
  if (frame && frame.n === n && frame.lo <= lo && hi <= frame.hi &&
      hi - lo >= 0.5 * (frame.hi - frame.lo)) return frame;
  return { lo, hi, n };
}

/**
 * The picture's options: its id prefix, title, unit, what a sample is, the exact line's legend
 * entry and, for a chart that can show a turn cap, the capped mean's; `t` says its own words.
 * @typedef {{id: string, title: string, unit: string, what: string, exactLabel: string,
 *          capLabel?: string, t?: import("../core/i18n.js").Translate}} ChartOptions
 */

/** The legend below the axes, and the capped mean's entry (in it only with a `capLabel`). */
function legendParts(/** @type {ChartOptions} */ { exactLabel, capLabel, t = ENGLISH }) {
  const legendY = BOX.bottom + 58;
  const legend = s("g", { class: "chutes-chart-legend" }, [
    ...legendEntry({ x: 70, y: legendY, words: t("running mean"),
      line: { stroke: COLOURS.mean, "stroke-width": 1.6 } }),
    ...legendEntry({ x: 270, y: legendY, words: t("95% confidence band"),
      fill: { fill: COLOURS.band, "fill-opacity": 0.35 } }),
    ...legendEntry({ x: 70, y: legendY + 22, words: exactLabel,
      line: { stroke: COLOURS.exact, "stroke-width": 1.4, "stroke-dasharray": "6 4" } }),
  ]);
  const cappedKey = s("g", {}, legendEntry({ x: 270, y: legendY + 22, words: capLabel ?? "",
    line: { stroke: COLOURS.capped, "stroke-width": 1.6, "stroke-dasharray": "8 3 2 3" } }));
  if (capLabel) legend.append(cappedKey);
  return { legend, cappedKey };
}

/**
 * The picture's SVG: the frame, the titles and the legend, drawn once, and the parts each
 * drawing renews.
 * @param {ChartOptions} options
 */
function chartParts(options) {
  const { id, title, unit, what, capLabel, t = ENGLISH } = options;
  const clip = `${id}-clip`;
  const svg = /** @type {SVGSVGElement} */ (s("svg", { class: "chutes-chart", role: "img",
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT }));
  const plot = s("g", { "clip-path": `url(#${clip})` });
  const band = s("path", { fill: COLOURS.band, "fill-opacity": 0.35, stroke: "none" });
  const line = s("path", { fill: "none", stroke: COLOURS.mean, "stroke-width": 1.6 });
  const exactLine = s("line", { x1: BOX.left, x2: BOX.right, stroke: COLOURS.exact,
    "stroke-width": 1.4, "stroke-dasharray": "6 4" });
  const grid = s("g", { class: "chutes-chart-grid" });
  const xTicks = s("g", { class: "chutes-chart-ticks", "text-anchor": "middle" });
  const yTicks = s("g", { class: "chutes-chart-ticks", "text-anchor": "end" });
  const cappedLine = s("path", { fill: "none", stroke: COLOURS.capped, "stroke-width": 1.6,
    "stroke-dasharray": "8 3 2 3" });
  plot.append(band, line, exactLine);
  if (capLabel) plot.insertBefore(cappedLine, exactLine);
  const { legend, cappedKey } = legendParts(options);
  svg.append(
    s("defs", {}, [s("clipPath", { id: clip }, [s("rect", { x: BOX.left, y: BOX.top,
      width: BOX.right - BOX.left, height: BOX.bottom - BOX.top })])]),
    s("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, fill: "#ffffff" }),
    s("text", { x: (BOX.left + BOX.right) / 2, y: 20, class: "chutes-chart-title",
      "text-anchor": "middle", text: title }),
    grid, plot,
    s("rect", { x: BOX.left, y: BOX.top, width: BOX.right - BOX.left,
      height: BOX.bottom - BOX.top, fill: "none", stroke: "#333333", "stroke-width": 1 }),
    xTicks, yTicks,
    s("text", { x: (BOX.left + BOX.right) / 2, y: BOX.bottom + 34, "text-anchor": "middle",
      text: t("number of {what} (log scale)", { what }) }),
    s("text", { transform: `translate(16 ${(BOX.top + BOX.bottom) / 2}) rotate(-90)`,
      "text-anchor": "middle", text: t("mean so far ({unit})", { unit }) }),
    legend,
  );
  return { svg, band, line, exactLine, grid, xTicks, yTicks, cappedLine, cappedKey };
}

/** The grid and the ticks for `n` samples (a log x-axis) and the y range `y`. */
function drawAxes(/** @type {ReturnType<typeof chartParts>} */ parts, /** @type {number} */ n,
  /** @type {{lo: number, hi: number}} */ y) {
  const xs = [];
  const top = Math.log10(Math.max(10, n));
  const xOf = (/** @type {number} */ k) => BOX.left + (Math.log10(k) / top) * (BOX.right - BOX.left);
  for (let p = 0; p <= top + 1e-9; p += 1) xs.push(10 ** p);
  const ys = niceTicks(y.lo, y.hi);
  const yOf = (/** @type {number} */ v) => BOX.bottom - ((v - y.lo) / (y.hi - y.lo)) * (BOX.bottom - BOX.top);
  parts.grid.replaceChildren(
    ...xs.map((k) => s("line", { x1: xOf(k), x2: xOf(k), y1: BOX.top, y2: BOX.bottom,
      stroke: COLOURS.grid })),
    ...ys.values.map((v) => s("line", { x1: BOX.left, x2: BOX.right, y1: yOf(v), y2: yOf(v),
      stroke: COLOURS.grid })));
  parts.xTicks.replaceChildren(...xs.map((k) => s("text", { x: xOf(k), y: BOX.bottom + 16,
    text: grouped(k) })));
  parts.yTicks.replaceChildren(...ys.values.map((v) => s("text", { x: BOX.left - 6, y: yOf(v) + 4,
    text: fixed(v, ys.decimals) })));
}

/**
 * The running mean, its band, the exact line and (with a `capLabel`) the capped mean, in the
 * y range `frame`; returns whether the capped mean is shown.
 * @param {ReturnType<typeof chartParts>} parts
 * @param {{n: number, at: ArrayLike<number>, mean: ArrayLike<number>,
 *          half: ArrayLike<number>, exact: number, capped?: ArrayLike<number>,
 *          cap?: number}} data
 * @param {{lo: number, hi: number}} frame
 * @param {string | undefined} capLabel
 */
function drawCurves(parts, { n, at, mean, half, exact, capped, cap }, frame, capLabel) {
  const top = Math.log10(Math.max(10, n));
  const sx = (BOX.right - BOX.left) / top;
  const sy = (BOX.bottom - BOX.top) / (frame.hi - frame.lo);
  const lo = frame.lo;
  const px = (/** @type {number} */ j) => (BOX.left + Math.log10(at[j] + 1) * sx).toFixed(1);
  const py = (/** @type {number} */ v) => (BOX.bottom - (v - lo) * sy).toFixed(1);
  const points = [];
  for (let j = 0; j < at.length; j += 1) points.push(`${px(j)},${py(mean[j])}`);
  attr(parts.line, "d", `M${points.join("L")}`);
  const upper = [];
  const lower = [];
  for (let j = 0; j < at.length; j += 1) {
    if (!Number.isFinite(half[j])) continue;
    upper.push(`${px(j)},${py(mean[j] + half[j])}`);
    lower.push(`${px(j)},${py(mean[j] - half[j])}`);
  }
  attr(parts.band, "d", upper.length ? `M${upper.join("L")}L${lower.reverse().join("L")}Z` : "");
  const ey = py(exact);
  attr(parts.exactLine, "y1", ey);
  attr(parts.exactLine, "y2", ey);
  const showCap = Boolean(capLabel && capped && cap !== undefined);
  if (capLabel) {
    const cappedPoints = [];
    if (showCap && capped) {
      for (let j = 0; j < at.length; j += 1) cappedPoints.push(`${px(j)},${py(capped[j])}`);
    }
    attr(parts.cappedLine, "d", cappedPoints.length ? `M${cappedPoints.join("L")}` : "");
    attr(parts.cappedKey, "visibility", showCap ? "visible" : "hidden");
  }
  return showCap;
}

/**
 * A convergence picture: `draw(data)` shows a new curve and returns its description. With a
 * `capLabel`, `draw` also takes the capped running mean (`capped`, at the same samples) and its
 * `cap`, and shows it while given.
 * @param {ChartOptions} options
 */
export function createConvergenceChart(options) {
  const { title, unit, what, capLabel, t = ENGLISH } = options;
  const parts = chartParts(options);
  const { svg } = parts;
  /** @type {{lo: number, hi: number, n: number} | null} */
  let frame = null;
  let axesKey = "";

  const axes = (/** @type {number} */ n, /** @type {{lo: number, hi: number}} */ y) => {
    const key = `${n}|${y.lo}|${y.hi}`;
    if (key === axesKey) return;
    axesKey = key;
    drawAxes(parts, n, y);
  };

  /**
   * Draw the running mean `mean ± half` at the samples `at` (0-based) of `n`, and the exact
   * value; returns the picture's description (also its aria-label).
   * @param {{n: number, at: ArrayLike<number>, mean: ArrayLike<number>,
   *          half: ArrayLike<number>, exact: number, capped?: ArrayLike<number>,
   *          cap?: number}} data
   */
  const draw = (data) => {
    const { n, mean, exact, capped, cap } = data;
    frame = yRange(data, frame);
    axes(n, frame);
    const showCap = drawCurves(parts, data, frame, capLabel);
    const words = describeConvergence({ title, n, what, unit, last: mean[mean.length - 1], exact,
      ...(showCap && capped ? { cap, cappedLast: capped[capped.length - 1] } : {}) }, t);
    attr(svg, "aria-label", words);
    return words;
  };
  return { svg, draw, describe: () => svg.getAttribute("aria-label") ?? "" };
}
