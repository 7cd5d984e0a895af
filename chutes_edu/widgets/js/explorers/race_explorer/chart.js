// @ts-check
/**
 * Each seat's chance of winning a race as an SVG bar chart in the page: what
 * chutes_edu.plot_win_probabilities draws (one bar per seat in the seats' token colours and
 * hatches, its value above it, the fair share 1/k as a dashed line named in the legend below the
 * axes, where no bar's value can cover it), with its text alternative in the library's words
 * (the picture's `aria-label`, renewed with every drawing).
 *
 * @module race_chart
 */
import { attr, s } from "../../ui/dom.js";
import { legendEntry } from "../../ui/legend.js";
import { fixed } from "../../ui/controls.js";
import { translator } from "../../core/i18n.js";

const WIDTH = 448;
const HEIGHT = 336;
const BOX = { left: 60, right: 432, top: 34, bottom: 250 };
/** The seats' colours (the library's TOKEN_COLORS, Okabe and Ito). */
export const SEAT_COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#F0E442", "#999999"];
/** The fair share's dashed line, in the axes and in the legend. */
const FAIR_LINE = { stroke: "#4d4d4d", "stroke-width": 1.2, "stroke-dasharray": "6 4" };
const ENGLISH = translator("en");

/** The library's sentence for the picture (plot_win_probabilities' alt text), in the language
 * of `t` (default English). */
export function describeRace(/** @type {ArrayLike<number>} */ wins, t = ENGLISH) {
  const seats = Array.from(wins, (p, i) => t("seat {seat} {p}", { seat: i + 1, p: fixed(p, 3) }))
    .join(", ");
  return t("{title}: bars show each seat's probability of winning, {seats}; the dashed line " +
    "is the fair share 1/{k}.", { title: t("Who wins? (seat 1 moves first)"), seats,
    k: wins.length });
}

/** A round top for the probability axis: the largest chance with room for its label. */
function axisTop(/** @type {ArrayLike<number>} */ wins) {
  let top = 1 / wins.length;
  for (const p of Array.from(wins)) top = Math.max(top, p);
  return Math.min(1, Math.ceil((top * 1.15) / 0.1) * 0.1);
}

/**
 * A bar chart of the seats' chances: `draw(wins)` shows them and returns the description; its
 * words in the language of `t` (default English).
 * @param {{id: string, t?: import("../../core/i18n.js").Translate}} options
 */
export function createRaceChart({ id, t = ENGLISH }) {
  const svg = /** @type {SVGSVGElement} */ (s("svg", { class: "chutes-chart chutes-race-chart",
    role: "img", id: `${id}-chart`, viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH,
    height: HEIGHT }));
  const grid = s("g", { class: "chutes-chart-grid" });
  const yTicks = s("g", { class: "chutes-chart-ticks", "text-anchor": "end" });
  const bars = s("g", { class: "chutes-race-bars" });
  const fair = s("line", { x1: BOX.left, x2: BOX.right, ...FAIR_LINE });
  const legendY = BOX.bottom + 62;
  const [fairSample, fairLabel] = legendEntry({ x: 70, y: legendY, line: FAIR_LINE,
    wordsAttributes: { class: "chutes-race-fair" } });
  const legend = s("g", { class: "chutes-chart-legend" }, [fairSample, fairLabel]);
  svg.append(
    s("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, fill: "#ffffff" }),
    s("text", { x: (BOX.left + BOX.right) / 2, y: 20, class: "chutes-chart-title",
      "text-anchor": "middle", text: t("Who wins? (seat 1 moves first)") }),
    grid, bars, fair,
    s("rect", { x: BOX.left, y: BOX.top, width: BOX.right - BOX.left,
      height: BOX.bottom - BOX.top, fill: "none", stroke: "#333333", "stroke-width": 1 }),
    yTicks,
    s("text", { x: (BOX.left + BOX.right) / 2, y: BOX.bottom + 40, "text-anchor": "middle",
      text: t("seat (order of play)") }),
    s("text", { transform: `translate(16 ${(BOX.top + BOX.bottom) / 2}) rotate(-90)`,
      "text-anchor": "middle", text: t("probability of winning") }),
    legend,
  );
  let topKey = -1;

  /**
   * Draw the seats' chances; returns the picture's description (also its aria-label).
   * @param {ArrayLike<number>} wins
   */
  const draw = (wins) => {
    const k = wins.length;
    const top = axisTop(wins);
    const yOf = (/** @type {number} */ v) => BOX.bottom - (v / top) * (BOX.bottom - BOX.top);
    if (top !== topKey) {
      topKey = top;
      const values = [];
      for (let v = 0; v <= top + 1e-9; v += top > 0.5 ? 0.2 : 0.1) values.push(v);
      grid.replaceChildren(...values.map((v) => s("line", { x1: BOX.left, x2: BOX.right,
        y1: yOf(v).toFixed(1), y2: yOf(v).toFixed(1), stroke: "#d9d9d9" })));
      yTicks.replaceChildren(...values.map((v) => s("text", { x: BOX.left - 6,
        y: (yOf(v) + 4).toFixed(1), text: fixed(v, 1) })));
    }
    const slot = (BOX.right - BOX.left) / k;
    const width = 0.7 * slot;
    const shapes = [];
    for (let i = 0; i < k; i += 1) {
      const x = BOX.left + i * slot + (slot - width) / 2;
      const y = yOf(wins[i]);
      shapes.push(s("rect", { x: x.toFixed(1), y: y.toFixed(1), width: width.toFixed(1),
        height: (BOX.bottom - y).toFixed(1), fill: SEAT_COLOURS[i % 6], stroke: "#000000",
        "stroke-width": 1 }));
      shapes.push(s("text", { x: (x + width / 2).toFixed(1), y: (y - 4).toFixed(1),
        "text-anchor": "middle", text: fixed(wins[i], 3) }));
      shapes.push(s("text", { x: (x + width / 2).toFixed(1), y: BOX.bottom + 16,
        "text-anchor": "middle", text: t("seat {seat}", { seat: i + 1 }) }));
    }
    bars.replaceChildren(...shapes);
    const fy = yOf(1 / k).toFixed(1);
    attr(fair, "y1", fy);
    attr(fair, "y2", fy);
    fairLabel.textContent = t("fair share 1/{k}", { k });
    const words = describeRace(wins, t);
    attr(svg, "aria-label", words);
    return words;
  };
  return { svg, draw, describe: () => svg.getAttribute("aria-label") ?? "" };
}
