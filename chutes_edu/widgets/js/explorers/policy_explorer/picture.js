// @ts-check
/**
 * The policy explorer's picture, drawn in the page as one SVG: what the Python explorer drew with
 * chutes_edu.plots.policy (`_PolicyPainter`). Left, the board as `draw_policy` draws it: each
 * square coloured by its discounted value (viridis; a jump's source grey, play never rests there),
 * its number, the target the policy aims at there in bold, the ladders (solid blue) and chutes
 * (dashed orange). Right, `plot_policy_profile`: the value of each square along the board (top)
 * and the target aimed at on each square (bottom, steps), with the fewest-turns policy's targets
 * as open circles.
 *
 * Its text alternative is the library's, word for word (the figure's `describe`: the board's
 * sentence, the targets' range, then the profile's), renewed with every drawing as the picture's
 * `aria-label`.
 *
 * @module policy_picture
 */
import { stickyEnd } from "../../maths/board_explorer_math.js";
import { describeBoardIn } from "../../ui/picture_words.js";
import { translator } from "../../core/i18n.js";
import { formatG } from "../../core/format.js";
import { CHUTE, hex, LADDER, SOURCE_GREY, textOn, viridis } from "../../core/colours.js";
import { attr, s, text } from "../../ui/dom.js";
import { centre, grid, START_WIDTH } from "../../core/geometry.js";
import { fixed } from "../../ui/controls.js";

const WIDTH = 960;
const HEIGHT = 448;
/** The board: pixels per square, and where square units start. */
const CELL = 34;
const BOARD = { left: 24 + 1.25 * CELL, top: 56 };
/** The colour bar, right of the board. */
const BAR = { left: 444, width: 14 };
/** The two panels along the board. */
const PANEL = { left: 600, right: 944 };
const TOP = { top: 56, bottom: 214 };
const BOTTOM = { top: 236, bottom: 380 };
/**
 * On a narrow page (a phone) the profile goes under the board, in a picture NARROW wide drawn
 * about twice the size the side-by-side one would be, its numbers larger (explorers/policy_explorer/policy_explorer.css):
 * the frame is narrow when under NARROW_BELOW pixels wide.
 */
const NARROW = { width: 520, height: 852, profileX: -540, profileY: 404 };
export const NARROW_BELOW = 640;
const ORANGE = "#D55E00";
const BLUE = "#0072B2";
const ENGLISH = translator("en");
/** @typedef {import("../../core/i18n.js").Translate} Translate */

/**
 * @typedef {object} PolicyPicture
 * @property {[number, number, number]} accuracy
 * @property {number} discount
 * @property {number} reward
 * @property {ArrayLike<number>} values Values of squares 0..n.
 * @property {ArrayLike<number>} policy Targets on squares 0..n-1 (value iteration's).
 * @property {ArrayLike<number>} best Targets of the fewest-turns policy on squares 0..n-1.
 */

/** "1 square", "2 squares". */
const squaresWord = (/** @type {number} */ n, t = ENGLISH) =>
  (n === 1 ? t("{n} square", { n }) : t("{n} squares", { n }));

/** The board panel's title (its axes title in the library), in the language of `t`. */
export const boardTitle = (/** @type {number} */ discount, t = ENGLISH) =>
  t("value map and targets (number = target), discount {discount}",
    { discount: fixed(discount, 2) });

/** The colour bar's label (`draw_policy`'s label in the explorer), in the language of `t`. */
export const barLabel = (/** @type {number} */ reward, t = ENGLISH) =>
  t("value of the square (reward {reward}, discounted)", { reward: formatG(reward) });

/**
 * The targets in words (the library's `_targets_alt`): their range where they are written.
 * @param {any} board
 * @param {ArrayLike<number>} policy
 */
export function describeTargets(board, policy, t = ENGLISH) {
  const feet = new Set((board.jumps ?? []).map((/** @type {number[]} */ j) => j[0]));
  const shown = Array.from(policy).filter((_, s) => !feet.has(s));
  if (!shown.length) return "";
  return ` ${t("The bold number on each square is the target the policy aims at there, from " +
    "{low} to {high} (none at the foot of a ladder or chute).",
  { low: Math.min(...shown), high: Math.max(...shown) })}`;
}

/**
 * The value and target profile in words (the library's `_profile_alt`).
 * @param {ArrayLike<number>} values
 * @param {ArrayLike<number>} policy
 * @param {ArrayLike<number>} best
 */
export function describeProfile(values, policy, best, t = ENGLISH) {
  const finite = Array.from(values).filter(Number.isFinite);
  const span = finite.length ? t(", from {low} to {high}", {
    low: formatG(Math.min(...finite), 3), high: formatG(Math.max(...finite), 3) }) : "";
  const targets = Array.from(policy);
  let differ = 0;
  for (let i = 0; i < targets.length; i += 1) if (targets[i] !== best[i]) differ += 1;
  return t("Along the board, squares 0 to {last}: the value of each square (top, solid " +
    "line{span}) and the target aimed at on each square (bottom, steps, from {low} to {high}); " +
    "open circles show the targets of the fewest turns policy, which differ on {differ}.",
  { last: values.length - 1, span, low: Math.min(...targets), high: Math.max(...targets),
    differ: squaresWord(differ, t) });
}

/**
 * The whole picture in words, as the library describes the explorer's figure.
 * @param {any} board A JSON board.
 * @param {string} name The board's name.
 * @param {PolicyPicture} shown
 * @param {Translate} [t] Its language (default English).
 */
export function describePolicy(board, name, shown, t = ENGLISH) {
  const boardWords = describeBoardIn(t, board, { name, title: boardTitle(shown.discount, t),
    label: barLabel(shown.reward, t), values: shown.values });
  return `${boardWords}${describeTargets(board, shown.policy, t)} ` +
    describeProfile(shown.values, shown.policy, shown.best, t);
}

/** Round ticks from 0 to `top`, at most about six. */
function ticks(/** @type {number} */ top) {
  if (!(top > 0)) return [0];
  const power = 10 ** Math.floor(Math.log10(top / 5));
  const step = [1, 2, 2.5, 5, 10].map((k) => k * power).find((k) => top / k <= 6) ?? 10 * power;
  const out = [];
  for (let v = 0; v <= top * (1 + 1e-9); v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** A board point (square units, y up) in the picture's pixels. */
function boardPoint(/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ rows) {
  return [BOARD.left + x * CELL, BOARD.top + (rows - y) * CELL];
}

/** A jump as draw_board draws it: a slightly arched arrow, ladders solid, chutes dashed. */
function jumpArrow(/** @type {string} */ id, /** @type {number} */ a, /** @type {number} */ b,
  /** @type {number} */ size, /** @type {number} */ rows) {
  const ladder = b > a;
  const [x1, y1] = boardPoint(...centre(a, size), rows);
  const [x2, y2] = boardPoint(...centre(b, size), rows);
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const gap = 0.12 * CELL;
  const [p, q, r, t] = [x1 + gap * ux, y1 + gap * uy, x2 - gap * ux, y2 - gap * uy];
  const rad = ladder ? -0.15 : 0.2;
  const cx = (p + r) / 2 + rad * (t - q);
  const cy = (q + t) / 2 - rad * (r - p);
  const d = `M${p.toFixed(1)},${q.toFixed(1)} Q${cx.toFixed(1)},${cy.toFixed(1)} ` +
    `${r.toFixed(1)},${t.toFixed(1)}`;
  return s("g", { class: ladder ? "ladder" : "chute" }, [
    s("path", { d, stroke: "#ffffff", "stroke-width": 4.5, "stroke-opacity": 0.85, fill: "none" }),
    s("path", { d, stroke: ladder ? LADDER : CHUTE, "stroke-width": 2.2, fill: "none",
      "stroke-dasharray": ladder ? null : "6 3",
      "marker-end": `url(#${id}-${ladder ? "ladder" : "chute"}-head)` }),
  ]);
}

/** The arrow heads of ladders and chutes, and the colour bar's viridis. */
function definitions(/** @type {string} */ id) {
  return s("defs", {}, [
    s("marker", { id: `${id}-ladder-head`, viewBox: "0 0 10 10", refX: 8, refY: 5,
      markerWidth: 5, markerHeight: 5, orient: "auto" },
    [s("path", { d: "M0,0 L10,5 L0,10 z", fill: LADDER })]),
    s("marker", { id: `${id}-chute-head`, viewBox: "0 0 10 10", refX: 8, refY: 5,
      markerWidth: 5, markerHeight: 5, orient: "auto" },
    [s("path", { d: "M1,1 L9,5 L1,9", fill: "none", stroke: CHUTE, "stroke-width": 1.8 })]),
    s("linearGradient", { id: `${id}-viridis`, x1: 0, y1: 1, x2: 0, y2: 0 },
      Array.from({ length: 9 }, (_, i) => s("stop", { offset: i / 8,
        "stop-color": hex(viridis(i / 8)) }))),
  ]);
}

/**
 * The board's part of the picture: a cell, a square number and (off the jumps' feet) a target
 * per square, the jumps, the title and the colour bar; `draw(shown)` colours and writes them.
 * @param {string} id
 * @param {any} board
 * @param {Translate} t
 */
function boardPanel(id, board, t) {
  const size = board.size ?? 100;
  const { rows } = grid(size);
  const feet = new Set((board.jumps ?? []).map((/** @type {number[]} */ j) => j[0]));
  /** @type {SVGElement[]} */
  const cells = [];
  /** @type {SVGElement[]} */
  const numbers = [];
  /** @type {(SVGElement | null)[]} */
  const targets = [];
  for (let sq = 0; sq <= size; sq += 1) {
    const [x, y] = centre(sq, size);
    const w = sq === 0 ? START_WIDTH : 1;
    const [px, py] = boardPoint(x - w / 2, y + 0.5, rows);
    cells.push(s("rect", { x: px.toFixed(1), y: py.toFixed(1), width: (w * CELL).toFixed(1),
      height: CELL, fill: "#f2f2f2", stroke: "#ffffff", "stroke-width": 0.8 }));
    const [nx, ny] = boardPoint(x - w / 2 + 0.06, y + 0.5 - 0.06, rows);
    numbers.push(s("text", { x: nx.toFixed(1), y: (ny + 10).toFixed(1),
      class: "chutes-policy-square", text: sq === 0 ? t("start") : String(sq) }));
    let target = null;
    if (sq < size && !feet.has(sq)) {
      const [tx, ty] = boardPoint(x + 0.12, y - 0.18, rows);
      target = s("text", { x: tx.toFixed(1), y: (ty + 5).toFixed(1), "text-anchor": "middle",
        class: "chutes-policy-target" });
    }
    targets.push(target);
  }
  const title = s("text", { x: 8, y: 24, class: "chutes-chart-title" });
  const barTop = BOARD.top;
  const barBottom = BOARD.top + rows * CELL;
  const barTicks = s("g", { class: "chutes-chart-ticks" });
  const barText = s("text", { transform: `translate(${BAR.left + BAR.width + 52} ` +
    `${(barTop + barBottom) / 2}) rotate(90)`, "text-anchor": "middle" });
  const parts = [
    title, s("g", { class: "chutes-policy-cells" }, cells),
    s("g", { class: "chutes-policy-jumps" }, (board.jumps ?? []).map(
      (/** @type {number[]} */ [a, b]) => jumpArrow(id, a, b, size, rows))),
    s("g", { class: "chutes-policy-numbers" }, numbers),
    s("g", { class: "chutes-policy-targets" },
      /** @type {SVGElement[]} */ (targets.filter((e) => e !== null))),
    s("rect", { x: BAR.left, y: barTop, width: BAR.width, height: barBottom - barTop,
      fill: `url(#${id}-viridis)`, stroke: "#333333", "stroke-width": 0.8 }),
    barTicks, barText,
  ];
  /** The colour scale's ends (renewed when the values leave them or fill under half). */
  let low = Infinity;
  let high = -Infinity;

  const draw = (/** @type {PolicyPicture} */ shown) => {
    const { values, policy } = shown;
    const finite = Array.from(values).filter(Number.isFinite);
    const vmin = finite.length ? Math.min(...finite) : 0;
    const vmax = finite.length ? Math.max(...finite) : 1;
    if (vmin < low || vmax > high || vmax - vmin < 0.5 * (high - low)) {
      low = vmin;
      high = vmax > vmin ? vmax : vmin + 1;
      barTicks.replaceChildren(...[0, 0.25, 0.5, 0.75, 1].map((f) => s("text", {
        x: BAR.left + BAR.width + 5, y: (barBottom - f * (barBottom - barTop) + 4).toFixed(1),
        text: formatG(low + f * (high - low), 3) })));
    }
    for (let sq = 0; sq <= size; sq += 1) {
      const v = values[sq];
      const rgb = feet.has(sq) || !Number.isFinite(v) ? SOURCE_GREY
        : viridis((v - low) / (high - low));
      attr(cells[sq], "fill", hex(rgb));
      attr(numbers[sq], "style", `fill: ${textOn(rgb)}`);
      const target = targets[sq];
      if (target !== null) text(target, String(policy[sq]));
    }
    text(title, boardTitle(shown.discount, t));
    text(barText, barLabel(shown.reward, t));
  };
  return { parts, draw };
}

/**
 * The profile's part of the picture: the value along the board (top), the targets (bottom,
 * steps) and the fewest-turns policy's targets (open circles); `draw(shown)` renews them.
 * @param {any} board
 * @param {Translate} t
 */
function profilePanel(board, t) {
  const size = board.size ?? 100;
  const die = board.die ?? 6;
  const faces = typeof die === "number" ? die : die.length;
  const valueLine = s("path", { fill: "none", stroke: BLUE, "stroke-width": 1.5 });
  const policyLine = s("path", { fill: "none", stroke: ORANGE, "stroke-width": 1.3 });
  const compare = s("g", { class: "chutes-policy-compare" });
  const valueTicks = s("g", { class: "chutes-chart-ticks", "text-anchor": "end" });
  const valueGrid = s("g", { class: "chutes-chart-grid" });
  const xOf = (/** @type {number} */ sq) => PANEL.left + (sq / size) * (PANEL.right - PANEL.left);
  const targetY = (/** @type {number} */ t) =>
    BOTTOM.bottom - ((t - 0.5) / faces) * (BOTTOM.bottom - BOTTOM.top);
  const frame = (/** @type {{top: number, bottom: number}} */ box) => s("rect", { x: PANEL.left,
    y: box.top, width: PANEL.right - PANEL.left, height: box.bottom - box.top, fill: "none",
    stroke: "#333333", "stroke-width": 1 });
  const yLabel = (/** @type {string} */ words, /** @type {{top: number, bottom: number}} */ box) =>
    s("text", { transform: `translate(${PANEL.left - 44} ${(box.top + box.bottom) / 2}) ` +
      "rotate(-90)", "text-anchor": "middle", text: words });
  const legendY = HEIGHT - 18;
  const parts = [
    s("text", { x: (PANEL.left + PANEL.right) / 2, y: 24, "text-anchor": "middle",
      class: "chutes-chart-title", text: t("along the board") }),
    valueGrid, valueLine, frame(TOP), valueTicks, yLabel(t("value"), TOP),
    policyLine, compare, frame(BOTTOM), yLabel(t("target"), BOTTOM),
    s("g", { class: "chutes-chart-ticks", "text-anchor": "end" },
      Array.from({ length: faces }, (_, i) => s("text", { x: PANEL.left - 6,
        y: (targetY(i + 1) + 4).toFixed(1), text: String(i + 1) }))),
    s("g", { class: "chutes-chart-ticks", "text-anchor": "middle" },
      ticks(size).filter(Number.isInteger).map((v) => s("text", { x: xOf(v).toFixed(1),
        y: BOTTOM.bottom + 16, text: String(v) }))),
    s("text", { x: (PANEL.left + PANEL.right) / 2, y: BOTTOM.bottom + 34, "text-anchor": "middle",
      text: t("square") }),
    s("line", { x1: PANEL.left + 40, x2: PANEL.left + 66, y1: legendY - 4, y2: legendY - 4,
      stroke: ORANGE, "stroke-width": 1.3 }),
    s("text", { x: PANEL.left + 72, y: legendY, text: t("this policy") }),
    s("circle", { cx: PANEL.left + 190, cy: legendY - 4, r: 3.5, fill: "none", stroke: "#333333" }),
    s("text", { x: PANEL.left + 200, y: legendY, text: t("fewest turns") }),
  ];
  /** The value axis's top (kept while the values fit and fill half of it, as the library). */
  let top = /** @type {number | null} */ (null);

  const draw = (/** @type {PolicyPicture} */ { values, policy, best }) => {
    const finite = Array.from(values).filter(Number.isFinite);
    const needed = stickyEnd(top, (finite.length ? Math.max(...finite) : 1) * 1.05, true);
    const yOf = (/** @type {number} */ v) => TOP.bottom - (v / needed) * (TOP.bottom - TOP.top);
    if (needed !== top) {
      top = needed;
      const marks = ticks(needed);
      valueGrid.replaceChildren(...marks.map((v) => s("line", { x1: PANEL.left, x2: PANEL.right,
        y1: yOf(v).toFixed(1), y2: yOf(v).toFixed(1), stroke: "#d9d9d9" })));
      valueTicks.replaceChildren(...marks.map((v) => s("text", { x: PANEL.left - 6,
        y: (yOf(v) + 4).toFixed(1), text: formatG(v) })));
    }
    const line = [];
    for (let sq = 0; sq < values.length; sq += 1) {
      line.push(`${sq ? "L" : "M"}${xOf(sq).toFixed(1)},${yOf(values[sq]).toFixed(1)}`);
    }
    attr(valueLine, "d", line.join(""));
    const steps = [];
    for (let sq = 0; sq < policy.length; sq += 1) {
      const y = targetY(policy[sq]).toFixed(1);
      const x0 = xOf(Math.max(0, sq - 0.5)).toFixed(1);
      const x1 = xOf(Math.min(policy.length - 1, sq + 0.5)).toFixed(1);
      steps.push(`${sq ? "L" : "M"}${x0},${y}L${x1},${y}`);
    }
    attr(policyLine, "d", steps.join(""));
    compare.replaceChildren(...Array.from(best, (t, sq) => s("circle", { cx: xOf(sq).toFixed(1),
      cy: targetY(t).toFixed(1), r: 3.5, fill: "none", stroke: "#333333" })));
  };
  return { parts, draw };
}

/**
 * The explorer's picture for `board`: `draw(shown)` renews it and returns its description; its
 * words in the language of `t` (default English).
 * @param {{id: string, board: any, name: string, t?: Translate}} options
 */
export function createPolicyPicture({ id, board, name, t = ENGLISH }) {
  const svg = /** @type {SVGSVGElement} */ (s("svg", { class: "chutes-chart chutes-policy-chart",
    role: "img", id: `${id}-picture`, viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH,
    height: HEIGHT }));
  const boardPart = boardPanel(id, board, t);
  const profilePart = profilePanel(board, t);
  const background = s("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, fill: "#ffffff" });
  const profile = s("g", { class: "chutes-policy-profile" }, profilePart.parts);
  svg.append(definitions(id), background, s("g", { class: "chutes-policy-board" },
    boardPart.parts), profile);
  let narrow = false;

  /**
   * Lay the picture out for a frame `width` pixels wide: side by side, or (under NARROW_BELOW)
   * the profile under the board. Returns whether it is the narrow layout.
   * @param {number} width
   */
  const fit = (width) => {
    const now = width > 0 && width < NARROW_BELOW;
    if (now === narrow) return narrow;
    narrow = now;
    const [w, ht] = narrow ? [NARROW.width, NARROW.height] : [WIDTH, HEIGHT];
    for (const el of [svg, background]) {
      attr(el, "width", String(w));
      attr(el, "height", String(ht));
    }
    attr(svg, "viewBox", `0 0 ${w} ${ht}`);
    svg.classList.toggle("chutes-policy-narrow", narrow);
    if (narrow) attr(profile, "transform", `translate(${NARROW.profileX} ${NARROW.profileY})`);
    else profile.removeAttribute("transform");
    return narrow;
  };

  /**
   * Draw `shown`; returns the picture's description (also its aria-label).
   * @param {PolicyPicture} shown
   */
  const draw = (shown) => {
    boardPart.draw(shown);
    profilePart.draw(shown);
    const words = describePolicy(board, name, shown, t);
    attr(svg, "aria-label", words);
    return words;
  };
  return { svg, draw, fit, describe: () => svg.getAttribute("aria-label") ?? "" };
}
