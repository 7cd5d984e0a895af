/**
 * The readout: the expected length of a one-player game and the change the last edit made, the
 * distribution of the game's length (a chart of P(T <= k) with the shortest and the median game,
 * and the same in words), and the first player's edge in a two-player race.
 *
 * The answers come from the runner, sometimes a little after the edit (a big board). Until they
 * come, the last numbers stay on the page marked as out of date, and a polite live region says
 * that the answer is being computed: the page is never blank. When the library refuses the
 * distribution (it would need more terms than it builds), the expected length is still shown,
 * and the refusal in its words takes the chart's place.
 *
 * @module editor_readout
 */
import { attr, h, s, text } from "../../ui/dom.js";
import { FOCUS } from "../../core/colours.js";
import { turns } from "./words.js";

/** Round numbers for axis ticks: at most `most` steps of 1, 2 or 5 times a power of ten. */
function ticks(/** @type {number} */ hi, /** @type {number} */ most = 7) {
  let step = 1;
  for (let p = 1; ; p *= 10) {
    const found = [1, 2, 5].map((m) => m * p).find((st) => hi / st <= most);
    if (found) { step = found; break; }
  }
  const out = [];
  for (let k = 0; k <= hi + 1e-9; k += step) out.push(k);
  return out;
}

/** The first k with P(T <= k) >= q. */
export function quantile(/** @type {ArrayLike<number>} */ cdf, /** @type {number} */ q) {
  for (let k = 0; k < cdf.length; k += 1) if (cdf[k] >= q) return k;
  return cdf.length - 1;
}

/** The chart in words (its accessible name). */
export function chartWords(/** @type {any} */ summary, /** @type {number} */ kmax) {
  const cdf = summary.cdf;
  const atEnd = cdf[Math.min(kmax, cdf.length - 1)];
  return `Chart of the chance that a one-player game is over within k turns, P(T ≤ k), for k ` +
    `from 0 to ${kmax}: it rises from 0 to ${atEnd.toFixed(3)}. The shortest game takes ` +
    `${turns(summary.shortest)}, the median game ${turns(summary.median)}, and 90% of games ` +
    `are over within ${turns(quantile(cdf, 0.9))}.`;
}

/** The chart's axes and grid lines. */
function axes(/** @type {(k: number) => number} */ X, /** @type {(p: number) => number} */ Y,
  /** @type {number} */ kmax, /** @type {number[]} */ [left, right, top, bottom]) {
  const parts = [];
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(s("line", { x1: left, x2: right, y1: Y(p), y2: Y(p), stroke: "#d0d0d0",
      "stroke-width": 1 }),
    s("text", { x: left - 6, y: Y(p) + 4, "text-anchor": "end", class: "tick",
      text: p.toFixed(2) }));
  }
  for (const k of ticks(kmax)) {
    parts.push(s("line", { x1: X(k), x2: X(k), y1: bottom, y2: bottom + 4, stroke: "#1a1a1a" }),
      s("text", { x: X(k), y: bottom + 17, "text-anchor": "middle", class: "tick",
        text: String(k) }));
  }
  parts.push(
    s("line", { x1: left, x2: right, y1: bottom, y2: bottom, stroke: "#1a1a1a" }),
    s("line", { x1: left, x2: left, y1: top, y2: bottom, stroke: "#1a1a1a" }),
    s("text", { x: (left + right) / 2, y: 244, "text-anchor": "middle", class: "axis",
      text: "k, turns" }),
    s("text", { x: 12, y: (top + bottom) / 2, "text-anchor": "middle", class: "axis",
      transform: `rotate(-90 12 ${(top + bottom) / 2})`, text: "P(T ≤ k)" }),
  );
  return parts;
}

/** The marks of the shortest and the median game. */
function marks(/** @type {any} */ summary, /** @type {(k: number) => number} */ X,
  /** @type {(p: number) => number} */ Y, /** @type {number[]} */ [left, , top, bottom]) {
  const parts = [];
  const dashed = { stroke: "#1a1a1a", "stroke-width": 1.4 };
  if (summary.shortest !== null) {
    const x = X(summary.shortest);
    parts.push(s("line", { x1: x, x2: x, y1: top, y2: bottom, ...dashed, "stroke-dasharray": "2 3" }),
      s("text", { x: x + 4, y: top + 12, class: "mark", text: `shortest ${summary.shortest}` }));
  }
  if (summary.median !== null) {
    const x = X(summary.median);
    parts.push(s("line", { x1: x, x2: x, y1: Y(0.5), y2: bottom, ...dashed, "stroke-dasharray": "7 3" }),
      s("line", { x1: left, x2: x, y1: Y(0.5), y2: Y(0.5), ...dashed, "stroke-dasharray": "7 3" }),
      s("circle", { cx: x, cy: Y(0.5), r: 3.5, fill: "#1a1a1a" }),
      s("text", { x: x + 6, y: Y(0.5) + 16, class: "mark", text: `median ${summary.median}` }));
  }
  return parts;
}

/** Draw P(T <= k) in `chart` (an SVG of 460 x 250). */
export function drawChart(/** @type {Element} */ chart, /** @type {any} */ summary) {
  const cdf = summary.cdf;
  let last = cdf.length - 1;
  for (let k = 0; k < cdf.length; k += 1) if (cdf[k] >= 0.995) { last = k; break; }
  const kmax = Math.max(10, last, (summary.shortest ?? 0) + 5);
  const box = [52, 444, 16, 204];
  const [left, right, top, bottom] = box;
  const X = (/** @type {number} */ k) => left + ((right - left) * k) / kmax;
  const Y = (/** @type {number} */ p) => bottom - (bottom - top) * p;
  let d = `M${X(0)},${Y(0)}`;
  for (let k = 1; k <= kmax; k += 1) {
    const p = k < cdf.length ? cdf[k] : cdf[cdf.length - 1];
    d += ` H${X(k).toFixed(2)} V${Y(p).toFixed(2)}`;
  }
  const words = chartWords(summary, kmax);
  chart.replaceChildren(s("title", { text: words }), ...axes(X, Y, kmax, box),
    s("path", { d, fill: "none", stroke: FOCUS, "stroke-width": 2.2, class: "cdf" }),
    ...marks(summary, X, Y, box));
  attr(chart, "aria-label", words);
}

/** The first player's edge in words. */
export function edgeWords(/** @type {number | null} */ edge, /** @type {boolean} */ traps) {
  if (edge !== null) {
    return `First player's edge in a two-player race from square 0: the first player wins ` +
      `${(100 * (0.5 + edge)).toFixed(2)}% of races, ` +
      `${(100 * edge).toFixed(2)} percentage points more than a fair half.`;
  }
  return traps ? "First player's edge in a two-player race: not computed on a board with traps " +
    "(a race there can end with nobody winning)."
    : "First player's edge in a two-player race: not computed (it needs the distribution of " +
      "the game's length).";
}

/** The expected length, with the change from the number shown before. */
export function readoutWords(/** @type {number} */ now, /** @type {number | null} */ was) {
  return `Expected length of a one-player game: ${now.toFixed(4)} turns` +
    (was === null || was === now ? "" : ` (was ${was.toFixed(4)}, ` +
      `change ${now - was > 0 ? "+" : "−"}${Math.abs(now - was).toFixed(4)})`);
}

/** The distribution's numbers in words, or why it is not shown. */
export function lengthWords(/** @type {any} */ result) {
  const now = result.expected[0];
  const sum = result.summary;
  if (!sum) {
    return `The distribution of the game's length is not shown: ${result.lengthError ??
      "it could not be computed"}. Mean: ${now.toFixed(2)} turns.`;
  }
  return `Shortest game: ${turns(sum.shortest)}. Median game: ${turns(sum.median)} (half the ` +
    `games are over by then). 90% of games are over within ${turns(quantile(sum.cdf, 0.9))}. ` +
    `Mean: ${now.toFixed(2)} turns.`;
}

/** The readout's elements: the summary (beside the controls) and the details (beside the board). */
export function createReadout() {
  const readout = h("p", { class: "chutes-editor-readout" });
  const change = h("p", { class: "chutes-editor-change" });
  // role "status" is a polite live region: the wait is said, never shouted
  const pending = h("p", { class: "chutes-editor-pending", role: "status" });
  const chart = s("svg", { class: "chutes-editor-chart", role: "img", viewBox: "0 0 460 250" });
  const lengths = h("p", { class: "chutes-editor-lengths" });
  const edge = h("p", { class: "chutes-editor-edge" });
  const summary = h("div", { class: "chutes-editor-summary" }, [readout, change, pending]);

  /** Mark the numbers on the page as those of an earlier board while the new ones are computed. */
  function setPending(/** @type {boolean} */ waiting) {
    for (const el of [readout, change, chart, lengths, edge]) {
      if (el.classList.contains("chutes-editor-stale") !== waiting) {
        el.classList.toggle("chutes-editor-stale", waiting);
      }
    }
    const earlier = readout.textContent !== "";
    text(pending, !waiting ? "" : `Computing the answers for this board…${earlier
      ? " The numbers shown are for the board before the last edit." : ""}`);
  }

  /** Show a result of the runner (`{expected, summary, edge, lengthError}`). */
  function show(/** @type {any} */ result, /** @type {number | null} */ was, /** @type {any} */ board) {
    text(readout, readoutWords(result.expected[0], was));
    if (result.summary) {
      if (chart.hasAttribute("hidden")) chart.removeAttribute("hidden");
      drawChart(chart, result.summary);
    } else {
      chart.replaceChildren();
      chart.setAttribute("hidden", "");
    }
    text(lengths, lengthWords(result));
    text(edge, edgeWords(result.edge, board.traps.length > 0));
    setPending(false);
  }

  return { summary, details: [chart, lengths, edge], readout, change, pending, show, setPending };
}
