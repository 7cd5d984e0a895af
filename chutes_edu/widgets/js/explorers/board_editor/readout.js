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
import { translator } from "../../core/i18n.js";

/** @typedef {import("../../core/i18n.js").Translate} Translate */
const ENGLISH = translator("en");

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

/** The chart in words (its accessible name), in the language of `t` (default English). */
export function chartWords(/** @type {any} */ summary, /** @type {number} */ kmax, t = ENGLISH) {
  const cdf = summary.cdf;
  const atEnd = cdf[Math.min(kmax, cdf.length - 1)];
  return t("Chart of the chance that a one-player game is over within k turns, P(T ≤ k), for k " +
    "from 0 to {kmax}: it rises from 0 to {end}. The shortest game takes {shortest}, the median " +
    "game {median}, and 90% of games are over within {most}.", { kmax, end: atEnd.toFixed(3),
    shortest: turns(summary.shortest, t), median: turns(summary.median, t),
    most: turns(quantile(cdf, 0.9), t) });
}

/** The chart's axes and grid lines. */
function axes(/** @type {(k: number) => number} */ X, /** @type {(p: number) => number} */ Y,
  /** @type {number} */ kmax, /** @type {number[]} */ [left, right, top, bottom],
  /** @type {Translate} */ t) {
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
      text: t("k, turns") }),
    s("text", { x: 12, y: (top + bottom) / 2, "text-anchor": "middle", class: "axis",
      transform: `rotate(-90 12 ${(top + bottom) / 2})`, text: "P(T ≤ k)" }),
  );
  return parts;
}

/** The marks of the shortest and the median game. */
function marks(/** @type {any} */ summary, /** @type {(k: number) => number} */ X,
  /** @type {(p: number) => number} */ Y, /** @type {number[]} */ [left, , top, bottom],
  /** @type {Translate} */ t) {
  const parts = [];
  const dashed = { stroke: "#1a1a1a", "stroke-width": 1.4 };
  if (summary.shortest !== null) {
    const x = X(summary.shortest);
    parts.push(s("line", { x1: x, x2: x, y1: top, y2: bottom, ...dashed, "stroke-dasharray": "2 3" }),
      s("text", { x: x + 4, y: top + 12, class: "mark",
        text: t("shortest {k}", { k: summary.shortest }) }));
  }
  if (summary.median !== null) {
    const x = X(summary.median);
    parts.push(s("line", { x1: x, x2: x, y1: Y(0.5), y2: bottom, ...dashed, "stroke-dasharray": "7 3" }),
      s("line", { x1: left, x2: x, y1: Y(0.5), y2: Y(0.5), ...dashed, "stroke-dasharray": "7 3" }),
      s("circle", { cx: x, cy: Y(0.5), r: 3.5, fill: "#1a1a1a" }),
      s("text", { x: x + 6, y: Y(0.5) + 16, class: "mark",
        text: t("median {k}", { k: summary.median }) }));
  }
  return parts;
}

/** Draw P(T <= k) in `chart` (an SVG of 460 x 250), its words in the language of `t`. */
export function drawChart(/** @type {Element} */ chart, /** @type {any} */ summary, t = ENGLISH) {
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
  const words = chartWords(summary, kmax, t);
  chart.replaceChildren(s("title", { text: words }), ...axes(X, Y, kmax, box, t),
    s("path", { d, fill: "none", stroke: FOCUS, "stroke-width": 2.2, class: "cdf" }),
    ...marks(summary, X, Y, box, t));
  attr(chart, "aria-label", words);
}

/** The first player's edge in words, in the language of `t` (default English). */
export function edgeWords(/** @type {number | null} */ edge, /** @type {boolean} */ traps,
  t = ENGLISH) {
  if (edge !== null) {
    return t("First player's edge in a two-player race from square 0: the first player wins " +
      "{wins}% of races, {points} percentage points more than a fair half.",
    { wins: (100 * (0.5 + edge)).toFixed(2), points: (100 * edge).toFixed(2) });
  }
  return traps ? t("First player's edge in a two-player race: not computed on a board with " +
    "traps (a race there can end with nobody winning).")
    : t("First player's edge in a two-player race: not computed (it needs the distribution of " +
      "the game's length).");
}

/** The expected length, with the change from the number shown before (in `t`'s language). */
export function readoutWords(/** @type {number} */ now, /** @type {number | null} */ was,
  t = ENGLISH) {
  if (was === null || was === now) {
    return t("Expected length of a one-player game: {now} turns", { now: now.toFixed(4) });
  }
  return t("Expected length of a one-player game: {now} turns (was {was}, change {change})",
    { now: now.toFixed(4), was: was.toFixed(4),
      change: `${now - was > 0 ? "+" : "−"}${Math.abs(now - was).toFixed(4)}` });
}

/** The distribution's numbers in words, or why it is not shown (in `t`'s language). */
export function lengthWords(/** @type {any} */ result, t = ENGLISH) {
  const now = result.expected[0];
  const sum = result.summary;
  if (!sum) {
    return t("The distribution of the game's length is not shown: {why}. Mean: {mean} turns.",
      { why: t(result.lengthError ?? "it could not be computed"), mean: now.toFixed(2) });
  }
  return t("Shortest game: {shortest}. Median game: {median} (half the games are over by then). " +
    "90% of games are over within {most}. Mean: {mean} turns.", {
    shortest: turns(sum.shortest, t), median: turns(sum.median, t),
    most: turns(quantile(sum.cdf, 0.9), t), mean: now.toFixed(2) });
}

/** The readout's elements: the summary (beside the controls) and the details (beside the
 * board), their words in the language of `t` (default English). */
export function createReadout(t = ENGLISH) {
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
    text(pending, !waiting ? "" : earlier ? t("Computing the answers for this board… The " +
      "numbers shown are for the board before the last edit.")
      : t("Computing the answers for this board…"));
  }

  /** Show a result of the runner (`{expected, summary, edge, lengthError}`). */
  function show(/** @type {any} */ result, /** @type {number | null} */ was, /** @type {any} */ board) {
    text(readout, readoutWords(result.expected[0], was, t));
    if (result.summary) {
      if (chart.hasAttribute("hidden")) chart.removeAttribute("hidden");
      drawChart(chart, result.summary, t);
    } else {
      chart.replaceChildren();
      chart.setAttribute("hidden", "");
    }
    text(lengths, lengthWords(result, t));
    text(edge, edgeWords(result.edge, board.traps.length > 0, t));
    setPending(false);
  }

  return { summary, details: [chart, lengths, edge], readout, change, pending, show, setPending };
}
