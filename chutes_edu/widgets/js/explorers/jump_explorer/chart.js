// @ts-check
/**
 * The heat map of added jumps in the page: what chutes_edu.plot_jump_effects draws (the change
 * in expected turns for each jump a -> b, source a up the side and destination b along the
 * bottom, blank where no jump may be added, on the diverging PuOr_r colours centred at 0: orange a
 * longer game, purple a shorter one; the surprises hatched; the diagonal a = b dotted; a colour
 * bar in turns), with the explorer's jump outlined in black. The cells are one pixel each of a
 * canvas, scaled up without smoothing; the hatching a canvas of the picture's own pixels, masked
 * by the surprises (one pixel each, scaled up the same way); the rest is SVG. The text alternative is the explorer's
 * (`describeExplorer` of maths/jump_math.js): the picture's `aria-label`, renewed by the explorer.
 *
 * Drawing the map costs one pass over the (n + 1)^2 jumps (a colour from a table of 256, as
 * matplotlib's) and is done once per sweep; moving the outline is a few attributes.
 *
 * @module jump_chart
 */
import { attr, h, s } from "../../ui/dom.js";
import { fixed } from "../../ui/controls.js";
import { translator } from "../../core/i18n.js";
import { isSurprise } from "../../maths/jump_math.js";

const WIDTH = 544;
const HEIGHT = 512;
const BOX = { left: 64, top: 36, size: 360 };
const BAR = { left: 444, width: 14 };
/** matplotlib's PuOr (ColorBrewer's 11 classes), low to high; PuOr_r reads it backwards. */
const PU_OR = ["#7f3b08", "#b35806", "#e08214", "#fdb863", "#fee0b6", "#f7f7f7", "#d8daeb",
  "#b2abd2", "#8073ac", "#542788", "#2d004b"];
const PU_OR_R = [...PU_OR].reverse();
const RGB = PU_OR_R.map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));

/**
 * The colour of x in [0, 1] on PuOr_r (linear between the 11 colours, as matplotlib's map).
 * @param {number} x
 * @returns {number[]} red, green, blue in 0..255.
 */
export function puOrR(x) {
  const t = Math.min(1, Math.max(0, x)) * (RGB.length - 1);
  const i = Math.min(RGB.length - 2, Math.floor(t));
  const f = t - i;
  return RGB[i].map((c, k) => Math.round(c + f * (RGB[i + 1][k] - c)));
}

/** PuOr_r in 256 steps, red, green, blue each (matplotlib's map is a table of 256 too). */
const TABLE = new Uint8Array(256 * 3);
for (let k = 0; k < 256; k += 1) TABLE.set(puOrR(k / 255), 3 * k);

/** Ticks for squares 0..n: a round step giving at most about six. */
function squareTicks(/** @type {number} */ n) {
  const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500].find((k) => n / k <= 6) ?? 1000;
  const out = [];
  for (let v = 0; v <= n; v += step) out.push(v);
  return out;
}

/**
 * The picture's elements: an SVG holding a canvas of the cells and one of the hatching, the
 * title, the outline of the explorer's jump, the ticks, the colour bar and the key (in the
 * language of `t`).
 */
function chartParts(/** @type {string} */ id,
  /** @type {import("../../core/i18n.js").Translate} */ t) {
  const hatch = `${id}-hatch`;
  const gradient = `${id}-bar`;
  const svg = /** @type {SVGSVGElement} */ (s("svg", { class: "chutes-chart chutes-jump-chart",
    role: "img", id: `${id}-chart`, viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH,
    height: HEIGHT }));
  const canvas = /** @type {HTMLCanvasElement} */ (h("canvas", { class: "chutes-jump-cells",
    "aria-hidden": "true" }));
  // The surprises: a mask of one pixel per jump, scaled up onto a canvas of the picture's own
  // pixels and hatched there (an SVG shape per surprise would be hundreds of thousands on a big
  // board).
  const mask = /** @type {HTMLCanvasElement} */ (h("canvas"));
  const hatching = /** @type {HTMLCanvasElement} */ (h("canvas", { class: "chutes-jump-hatch",
    width: 2 * BOX.size, height: 2 * BOX.size, "aria-hidden": "true" }));
  const cells = s("foreignObject", { x: BOX.left, y: BOX.top, width: BOX.size,
    height: BOX.size }, [h("div", { class: "chutes-jump-layers" }, [canvas, hatching])]);
  const title = s("text", { x: BOX.left + BOX.size / 2, y: 20, class: "chutes-chart-title",
    "text-anchor": "middle" });
  const diagonal = s("line", { x1: BOX.left, y1: BOX.top + BOX.size, x2: BOX.left + BOX.size,
    y2: BOX.top, stroke: "#666666", "stroke-width": 0.8, "stroke-dasharray": "1 2" });
  const halo = s("rect", { fill: "none", stroke: "#ffffff", "stroke-width": 4 });
  const marker = s("rect", { fill: "none", stroke: "#000000", "stroke-width": 2 });
  const xTicks = s("g", { "text-anchor": "middle" });
  const yTicks = s("g", { "text-anchor": "end" });
  const barTicks = s("g", { "text-anchor": "start" });
  const stops = PU_OR_R.map((colour, i) => s("stop", { offset: `${(100 * i) / 10}%`,
    "stop-color": colour }));
  const legendY = BOX.top + BOX.size + 48;
  svg.append(
    s("defs", {}, [
      s("pattern", { id: hatch, patternUnits: "userSpaceOnUse", width: 4, height: 4 },
        [s("path", { d: "M-1,1 l2,-2 M0,4 l4,-4 M3,5 l2,-2", stroke: "#000000",
          "stroke-width": 0.7 })]),
      s("linearGradient", { id: gradient, x1: 0, y1: 1, x2: 0, y2: 0 }, stops),
    ]),
    s("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, fill: "#ffffff" }),
    title, cells, diagonal, halo, marker,
    s("rect", { x: BOX.left, y: BOX.top, width: BOX.size, height: BOX.size, fill: "none",
      stroke: "#333333", "stroke-width": 1 }),
    xTicks, yTicks,
    s("text", { x: BOX.left + BOX.size / 2, y: BOX.top + BOX.size + 32, "text-anchor": "middle",
      text: t("destination square b") }),
    s("text", { transform: `translate(18 ${BOX.top + BOX.size / 2}) rotate(-90)`,
      "text-anchor": "middle", text: t("source square a") }),
    s("rect", { x: BAR.left, y: BOX.top, width: BAR.width, height: BOX.size,
      fill: `url(#${gradient})`, stroke: "#333333", "stroke-width": 1 }),
    barTicks,
    s("text", { transform: `translate(${WIDTH - 14} ${BOX.top + BOX.size / 2}) rotate(-90)`,
      "text-anchor": "middle", text: t("change in expected turns (turns)") }),
    s("line", { x1: BOX.left, x2: BOX.left + 24, y1: legendY, y2: legendY, stroke: "#666666",
      "stroke-width": 1, "stroke-dasharray": "1 2" }),
    s("text", { x: BOX.left + 32, y: legendY + 4,
      text: t("diagonal a = b: ladders (b > a) lie below it, chutes (b < a) above") }),
    s("rect", { x: BOX.left + 4, y: legendY + 12, width: 16, height: 12, fill: `url(#${hatch})`,
      stroke: "#000000", "stroke-width": 1 }),
    s("text", { x: BOX.left + 32, y: legendY + 22,
      text: t("surprise: ladder lengthens / chute shortens") }),
  );
  return { svg, canvas, mask, hatching, title, halo, marker, xTicks, yTicks, barTicks };
}

/** @typedef {ReturnType<typeof chartParts>} ChartParts */

/**
 * The largest change from the baseline over the jumps that may be added (1 if none changes).
 * @param {import("../../maths/jump_math.js").JumpEffects} sweep
 */
function spread({ effects, baseline }) {
  let lim = 0;
  for (const v of effects) if (!Number.isNaN(v)) lim = Math.max(lim, Math.abs(v - baseline));
  return lim || 1;
}

/**
 * Paint each jump's cell its colour, and each surprise's pixel in the mask.
 * @param {ChartParts} parts
 * @param {import("../../maths/jump_math.js").JumpEffects} sweep
 * @param {number} lim
 */
function paintCells({ canvas, mask }, sweep, lim) {
  const { effects, baseline, n } = sweep;
  const width = n + 1;
  canvas.width = width;
  canvas.height = width;
  mask.width = width;
  mask.height = width;
  const context = canvas.getContext("2d");
  const masking = mask.getContext("2d");
  const image = context?.createImageData(width, width);
  const marks = masking?.createImageData(width, width);
  if (image && marks) {
    const pixels = image.data;
    const surprise = marks.data;
    const scale = 255 / (2 * lim);
    for (let a = 0; a <= n; a += 1) {
      const row = (n - a) * width;                  // the source a up the side: row n - a
      for (let b = 0; b <= n; b += 1) {
        const value = effects[a * width + b];
        if (Number.isNaN(value)) continue;
        const at = (row + b) * 4;
        const k = 3 * Math.min(255, Math.max(0, Math.round((value - baseline + lim) * scale)));
        pixels[at] = TABLE[k];
        pixels[at + 1] = TABLE[k + 1];
        pixels[at + 2] = TABLE[k + 2];
        pixels[at + 3] = 255;
        if (isSurprise(value, baseline, a, b)) surprise[at + 3] = 255;
      }
    }
    context?.putImageData(image, 0, 0);
    masking?.putImageData(marks, 0, 0);
  }
}

/**
 * Hatch the surprises: the mask scaled up onto the picture's own pixels, lines kept only there.
 * @param {ChartParts} parts
 */
function paintHatching({ mask, hatching }) {
  const drawing = hatching.getContext("2d");
  if (drawing) {
    const side = hatching.width;
    drawing.globalCompositeOperation = "source-over";
    drawing.clearRect(0, 0, side, side);
    drawing.imageSmoothingEnabled = false;
    drawing.drawImage(mask, 0, 0, side, side);
    drawing.globalCompositeOperation = "source-in";  // hatch lines only where the mask is
    drawing.strokeStyle = "#000000";
    drawing.lineWidth = 1.4;
    drawing.beginPath();
    for (let d = -side; d < side; d += 8) {
      drawing.moveTo(d, side);
      drawing.lineTo(d + side, 0);
    }
    drawing.stroke();
  }
}

/**
 * The squares' ticks along both sides and the colour bar's, for a board of n squares.
 * @param {ChartParts} parts
 * @param {number} n
 * @param {number} cell
 * @param {number} lim
 */
function drawTicks({ xTicks, yTicks, barTicks }, n, cell, lim) {
  const ticks = squareTicks(n);
  xTicks.replaceChildren(...ticks.map((v) => s("text", {
    x: (BOX.left + (v + 0.5) * cell).toFixed(1), y: BOX.top + BOX.size + 16, text: String(v) })));
  yTicks.replaceChildren(...ticks.map((v) => s("text", { x: BOX.left - 6,
    y: (BOX.top + (n - v + 0.5) * cell + 4).toFixed(1), text: String(v) })));
  barTicks.replaceChildren(...[-1, -0.5, 0, 0.5, 1].map((k) => s("text", {
    x: BAR.left + BAR.width + 4, y: (BOX.top + BOX.size * (1 - (k + 1) / 2) + 4).toFixed(1),
    text: fixed(k * lim, 1) })));
}

/**
 * The heat map: `draw(sweep, title)` paints a sweep, `mark(a, b)` outlines a jump; its words
 * in the language of `t` (default English).
 * @param {{id: string, t?: import("../../core/i18n.js").Translate}} options
 */
export function createJumpChart({ id, t = translator("en") }) {
  const parts = chartParts(id, t);
  const { svg, title, halo, marker } = parts;
  let n = 100;
  let cell = BOX.size / 101;

  /**
   * Paint a sweep.
   * @param {import("../../maths/jump_math.js").JumpEffects} sweep
   * @param {string} heading The picture's title.
   */
  const draw = (sweep, heading) => {
    n = sweep.n;
    cell = BOX.size / (n + 1);
    title.textContent = heading;
    const lim = spread(sweep);
    paintCells(parts, sweep, lim);
    paintHatching(parts);
    drawTicks(parts, n, cell, lim);
  };

  /** Outline the jump a -> b. */
  const mark = (/** @type {number} */ a, /** @type {number} */ b) => {
    const x = (BOX.left + b * cell).toFixed(2);
    const y = (BOX.top + (n - a) * cell).toFixed(2);
    const side = Math.max(cell, 6).toFixed(2);
    const shift = ((Math.max(cell, 6) - cell) / 2).toFixed(2);
    for (const rect of [halo, marker]) {
      attr(rect, "x", (Number(x) - Number(shift)).toFixed(2));
      attr(rect, "y", (Number(y) - Number(shift)).toFixed(2));
      attr(rect, "width", side);
      attr(rect, "height", side);
    }
  };

  return { svg, draw, mark, describe: () => svg.getAttribute("aria-label") ?? "" };
}
