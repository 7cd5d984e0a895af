/**
 * Drawing the board: the cells coloured by the expected turns to finish from each square (a
 * jump's source grey: a token never stops there), the square numbers, the traps, the jumps as
 * draw_board draws them (ladders solid blue with filled heads, chutes dashed vermillion with open
 * heads, both slightly arched), the keyboard's cursor and the jump being drawn.
 *
 * What takes the mouse: every cell (a click anywhere in a square's cell picks that square; the
 * square is found from the point, by `squareAtPoint`), and each jump's two handles, small dots
 * near its ends that never cover a square's centre. The jump's line takes no clicks: on a board
 * of crossing jumps it would cover other squares.
 *
 * Square numbers are drawn at least `MIN_NUMBER_PX` pixels high, or not at all (a big board on a
 * narrow screen): then each cell's title and the cursor's words still give its number.
 *
 * @module editor_picture
 */
import { CHUTE, hex, LADDER, SOURCE_GREY, TRAP, textOn, viridis } from "../core/colours.js";
import { attr, s } from "./dom.js";
import { centre, grid, START_WIDTH } from "../core/geometry.js";
import { jumpFrom } from "../maths/boards.js";
import { translator } from "../core/i18n.js";

/** The smallest square number drawn, in CSS pixels. */
export const MIN_NUMBER_PX = 10;

/** A handle's radius and its distance from its square's centre, in squares. */
export const HANDLE_RADIUS = 0.1;
export const HANDLE_OFFSET = 0.24;

/** The numbers' font size, in squares: smaller for four digits. */
const fontOf = (/** @type {number} */ size) => (String(size).length > 3 ? 0.3 : 0.34);

/** The arrow markers of ladders and chutes. */
function markers(/** @type {string} */ id) {
  return s("defs", {}, [
    s("marker", { id: `${id}-ladder-head`, viewBox: "0 0 10 10", refX: 8, refY: 5,
      markerWidth: 0.42, markerHeight: 0.36, markerUnits: "userSpaceOnUse", orient: "auto" },
    [s("path", { d: "M0,0 L10,5 L0,10 z", fill: LADDER })]),
    s("marker", { id: `${id}-chute-head`, viewBox: "0 0 10 10", refX: 8, refY: 5,
      markerWidth: 0.42, markerHeight: 0.42, markerUnits: "userSpaceOnUse", orient: "auto" },
    [s("path", { d: "M1,1 L9,5 L1,9", fill: "none", stroke: CHUTE, "stroke-width": 1.8 })]),
  ]);
}

/**
 * A jump's arrow (as draw_board's arcs) and its two handles.
 * @param {string} id
 * @param {number} a The source.
 * @param {number} b The destination.
 * @param {number} size
 * @param {boolean} chosen Whether the jump is selected.
 */
function jumpShapes(id, a, b, size, chosen) {
  const ladder = b > a;
  const [x1, y1] = centre(a, size);
  const [x2, y2] = centre(b, size);
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const [p, q, r, t] = [x1 + 0.12 * ux, y1 + 0.12 * uy, x2 - 0.12 * ux, y2 - 0.12 * uy];
  const rad = ladder ? 0.15 : -0.2;
  const cx = (p + r) / 2 + rad * (t - q);
  const cy = (q + t) / 2 - rad * (r - p);
  const d = `M${p.toFixed(3)},${q.toFixed(3)} Q${cx.toFixed(3)},${cy.toFixed(3)} ` +
    `${r.toFixed(3)},${t.toFixed(3)}`;
  const colour = ladder ? LADDER : CHUTE;
  const g = s("g", { class: `jump ${ladder ? "ladder" : "chute"}${chosen ? " selected" : ""}`,
    "data-source": a, "data-destination": b }, [
    s("path", { d, class: "halo", stroke: "#ffffff", "stroke-width": chosen ? 0.26 : 0.16,
      "stroke-opacity": 0.85, fill: "none" }),
    s("path", { d, class: "line", stroke: colour, "stroke-width": chosen ? 0.12 : 0.07,
      fill: "none", "stroke-dasharray": ladder ? null : "0.18 0.09",
      "marker-end": `url(#${id}-${ladder ? "ladder" : "chute"}-head)` }),
  ]);
  // The handles sit on the line, HANDLE_OFFSET from each end's centre: inside the end's own
  // cell, clear of its centre (a click there picks the square).
  const [hx1, hy1] = [x1 + HANDLE_OFFSET * ux, y1 + HANDLE_OFFSET * uy];
  const [hx2, hy2] = [x2 - HANDLE_OFFSET * ux, y2 - HANDLE_OFFSET * uy];
  const handle = (/** @type {number} */ x, /** @type {number} */ y, /** @type {string} */ end) =>
    s("circle", { cx: x.toFixed(3), cy: y.toFixed(3), r: chosen ? HANDLE_RADIUS * 1.3 : HANDLE_RADIUS,
      class: `handle ${end}`, fill: chosen || end === "source" ? "#ffffff" : colour,
      stroke: colour, "stroke-width": 0.04, "data-source": a, "data-end": end });
  return { arrow: g, handles: [handle(hx1, hy1, "source"), handle(hx2, hy2, "destination")] };
}

/** Whether square numbers of `font` squares high are at least MIN_NUMBER_PX on a picture of
 * `width` pixels showing `units` squares across. */
const numbersFit = (/** @type {number} */ width, /** @type {number} */ units,
  /** @type {number} */ font) => (width / units) * font >= MIN_NUMBER_PX;

/**
 * Lay out the cells (and the numbers, where they will be 10 px or more) of a board of `n`
 * squares, only when the size changes. The width the picture will have is read before anything
 * changes (a layout of the page as it is, which costs nothing): a big board on a narrow page
 * gets no numbers at all, rather than a thousand texts laid out and then hidden.
 */
function build(/** @type {any} */ pic, /** @type {number} */ n) {
  const { board, layer, t } = pic;
  const { rows, cols } = grid(n);
  const pad = 0.06;
  const units = cols + 1.3 + 2 * pad;
  // about 48 px a square on 100 squares, 40 on 400, never wider than its column
  const px = Math.round(Math.max(480, Math.min(880, 40 * (cols + 1.4), 48 * (cols + 1.4))));
  const room = board.closest(".chutes-editor-root")?.clientWidth || px;   // the widest it can be
  Object.assign(layer, { size: n, jumpsKey: "", trapsKey: "", cells: [], numbers: [],
    font: fontOf(n), units });
  const numbered = numbersFit(Math.min(px, room), units, layer.font);
  board.replaceChildren();
  attr(board, "viewBox", `${-1.3 - pad} ${-pad} ${units} ${rows + 0.45 + 2 * pad}`);
  board.style.width = `${px}px`;
  const cells = s("g", { class: "cells" });
  // One parse of the cells' markup (numbers only: nothing to escape) costs a fraction of a
  // thousand createElementNS and setAttribute calls, on the edit's own task.
  const markup = [];
  for (let sq = 0; sq <= n; sq += 1) {
    const [x, y] = centre(sq, n);
    const w = sq === 0 ? START_WIDTH : 1;
    // light grey until the answers colour it (a big board's may take a moment): never black;
    // with no number drawn, the cell's title gives it to the mouse
    markup.push(`<rect x="${x - w / 2}" y="${y - 0.5}" width="${w}" height="1" ` +
      `data-square="${sq}" class="cell" fill="#f2f2f2">` +
      `${numbered ? "" : `<title>${t("square {square}", { square: sq })}</title>`}</rect>`);
  }
  cells.innerHTML = markup.join("");
  layer.cells = Array.from(cells.children);
  const [sx, sy] = centre(0, n);
  const startLabel = s("text", { x: sx, y: sy + 0.5 + 0.36, "font-size": 0.3,
    "text-anchor": "middle", class: "start-label", text: t("start") });
  layer.numbersGroup = s("g", { class: "numbers", "aria-hidden": "true" });
  if (numbered) addNumbers(pic);
  // The numbers lie above the arrows and the cursor on a halo of the opposite shade, as in
  // draw_board, so nothing hides one; the handles lie above them (numbers take no clicks).
  board.append(pic.defs, cells, layer.traps, layer.arrows, layer.ghost, layer.pickRing,
    layer.cursor, layer.numbersGroup, layer.handles, startLabel);
  for (const g of [cells, layer.traps, layer.arrows, layer.handles]) {
    g.setAttribute("aria-hidden", "true");
  }
  board.classList.toggle("chutes-editor-no-numbers", !numbered);
}

/** The square numbers (drawn once the picture is wide enough for them). */
function addNumbers(/** @type {any} */ pic) {
  const { layer } = pic;
  const n = layer.size;
  const font = layer.font;
  const markup = [];
  for (let sq = 0; sq <= n; sq += 1) {
    const [x, y] = centre(sq, n);
    const w = sq === 0 ? START_WIDTH : 1;
    markup.push(`<text x="${x - w / 2 + 0.06}" y="${y - 0.5 + 0.06 + font * 0.8}" ` +
      `font-size="${font}" class="number" fill="#000000" stroke="#ffffff">${sq}</text>`);
  }
  layer.numbersGroup.innerHTML = markup.join("");
  layer.numbers = Array.from(layer.numbersGroup.children);
  for (let sq = 0; sq <= n; sq += 1) {
    const fill = layer.cells[sq].getAttribute("fill");
    if (fill !== "#f2f2f2" && fill) colourNumber(layer, sq, hexToRgb(fill));
  }
}

const hexToRgb = (/** @type {string} */ text) =>
  [1, 3, 5].map((i) => parseInt(text.slice(i, i + 2), 16));

/** A number's ink and halo on its cell's colour. */
function colourNumber(/** @type {any} */ layer, /** @type {number} */ sq, /** @type {number[]} */ rgb) {
  const number = layer.numbers[sq];
  if (!number) return;
  const ink = textOn(rgb);
  attr(number, "fill", ink);
  attr(number, "stroke", ink === "#000000" ? "#ffffff" : "#000000");
}

/**
 * Show the numbers only where they are at least MIN_NUMBER_PX high on the page (called when the
 * picture's size changes: a window made narrower or wider); returns whether they are shown.
 */
function fitNumbers(/** @type {any} */ pic) {
  const { board, layer } = pic;
  const width = board.getBoundingClientRect().width;
  if (!width || layer.size < 0) return true;
  const shown = numbersFit(width, layer.units, layer.font);
  if (shown && !layer.numbers.length) addNumbers(pic);
  if (board.classList.contains("chutes-editor-no-numbers") === shown) {
    board.classList.toggle("chutes-editor-no-numbers", !shown);
  }
  return shown;
}

/** The jumps and their handles (redrawn when they or the selection change). */
function drawJumps(/** @type {any} */ pic, /** @type {any} */ b, /** @type {number | null} */ selected) {
  const { id, layer } = pic;
  const key = JSON.stringify([b.jumps, selected]);
  if (key === layer.jumpsKey) return;
  layer.jumpsKey = key;
  const arrows = [];
  const handles = [];
  for (const [a, d] of b.jumps) {
    const shapes = jumpShapes(id, a, d, b.size, selected === a);
    arrows.push(shapes.arrow);
    handles.push(...shapes.handles);
  }
  layer.arrows.replaceChildren(...arrows);
  layer.handles.replaceChildren(...handles);
}

/** The traps: a dark red square with a white cross. */
function drawTraps(/** @type {any} */ pic, /** @type {any} */ b) {
  const { layer } = pic;
  const key = JSON.stringify(b.traps);
  if (key === layer.trapsKey) return;
  layer.trapsKey = key;
  const marks = [];
  for (const t of b.traps) {
    const [x, y] = centre(t, b.size);
    marks.push(s("rect", { x: x - 0.5, y: y - 0.5, width: 1, height: 1, fill: TRAP,
      stroke: "#595959", "stroke-width": 0.02 }),
    s("path", { d: `M${x - 0.3},${y - 0.3} L${x + 0.3},${y + 0.3} M${x + 0.3},${y - 0.3} ` +
      `L${x - 0.3},${y + 0.3}`, stroke: "#ffffff", "stroke-width": 0.08 }));
  }
  layer.traps.replaceChildren(...marks);
}

/** The heat map of the expected turns; returns its top value (for the key). */
function drawCells(/** @type {any} */ pic, /** @type {any} */ b,
  /** @type {ArrayLike<number>} */ expected) {
  const { layer } = pic;
  const sources = new Set(b.jumps.map((/** @type {number[]} */ [a]) => a));
  const traps = new Set(b.traps);
  let top = 0;
  for (let sq = 0; sq <= b.size; sq += 1) if (!sources.has(sq)) top = Math.max(top, expected[sq]);
  for (let sq = 0; sq <= b.size; sq += 1) {
    let rgb = sources.has(sq) ? SOURCE_GREY : viridis(top > 0 ? expected[sq] / top : 0);
    if (traps.has(sq)) rgb = [139, 0, 0];
    attr(layer.cells[sq], "fill", hex(rgb));
    colourNumber(layer, sq, rgb);
  }
  return top;
}

/** The keyboard's cursor, and the start of a jump being drawn with a line to the cursor. */
function drawCursor(/** @type {any} */ pic, /** @type {any} */ state) {
  const { layer } = pic;
  const n = state.board.size;
  const sq = state.cursor;
  const [x, y] = centre(sq, n);
  const w = sq === 0 ? START_WIDTH : 1;
  // a dark blue frame with a white line inside it: 3:1 or more against any cell colour
  const [outer, inner] = layer.cursor.children;
  for (const [frame, inset] of /** @type {Array<[Element, number]>} */ ([[outer, 0.06], [inner, 0.13]])) {
    for (const [k, v] of Object.entries({ x: x - w / 2 + inset, y: y - 0.5 + inset,
      width: w - 2 * inset, height: 1 - 2 * inset })) attr(frame, k, v.toFixed(3));
  }
  const pick = state.pick;
  const from = pick ? (pick.from ?? (pick.move.end === "source"
    ? jumpFrom(state.board, pick.move.source) : pick.move.source)) : null;
  if (from === null || from === undefined) {
    attr(layer.pickRing, "visibility", "hidden");
    attr(layer.ghost, "visibility", "hidden");
    return;
  }
  const [fx, fy] = centre(from, n);
  const fw = from === 0 ? START_WIDTH : 1;
  for (const [k, v] of Object.entries({ x: fx - fw / 2 + 0.03, y: fy - 0.47, width: fw - 0.06,
    height: 0.94 })) attr(layer.pickRing, k, v.toFixed(3));
  attr(layer.pickRing, "visibility", "visible");
  attr(layer.ghost, "d", `M${fx},${fy} L${x},${y}`);
  attr(layer.ghost, "visibility", from === sq ? "hidden" : "visible");
}

/**
 * The board's picture in an SVG element, drawn in layers that change apart.
 * @param {SVGSVGElement} board
 * @param {string} id A prefix for the picture's ids.
 * @param {import("../core/i18n.js").Translate} [t] Its words' language (default English).
 */
export function createPicture(board, id, t = translator("en")) {
  const layer = {
    size: -1, cells: /** @type {Element[]} */ ([]), numbers: /** @type {Element[]} */ ([]),
    traps: s("g", { class: "traps" }), arrows: s("g", { class: "jumps" }),
    handles: s("g", { class: "handles" }),
    cursor: s("g", { class: "cursor" }, [s("rect", { class: "outer" }), s("rect", { class: "inner" })]),
    pickRing: s("rect", { class: "pick" }), ghost: s("path", { class: "ghost" }),
    numbersGroup: s("g"), jumpsKey: "", trapsKey: "", font: 0.34, units: 1,
  };
  const pic = { board, id, layer, defs: markers(id), t };
  return {
    layer,
    build: (/** @type {number} */ n) => build(pic, n),
    fitNumbers: () => fitNumbers(pic),
    drawJumps: (/** @type {any} */ b, /** @type {number | null} */ selected) => drawJumps(pic, b, selected),
    drawTraps: (/** @type {any} */ b) => drawTraps(pic, b),
    drawCells: (/** @type {any} */ b, /** @type {ArrayLike<number>} */ expected) => drawCells(pic, b, expected),
    drawCursor: (/** @type {any} */ state) => drawCursor(pic, state),
  };
}

/**
 * The key of the heat map and the jump marks, with its words as its accessible name.
 * @param {SVGSVGElement} legend
 * @param {string} id
 * @param {number} top The largest expected turns on the board.
 * @param {import("../core/i18n.js").Translate} [t] Its words' language (default English).
 */
export function drawLegend(legend, id, top, t = translator("en")) {
  const stops = [];
  for (let i = 0; i <= 8; i += 1) {
    stops.push(s("stop", { offset: `${i * 12.5}%`, "stop-color": hex(viridis(i / 8)) }));
  }
  const gid = `${id}-scale`;
  const words = t("Key: colour shows the expected turns to finish from each square, from 0 " +
    "(dark purple) to {top} (yellow); grey squares are the start of a jump (a token never stops " +
    "there); a dark red square with a white cross is a trap; a solid blue arrow with a filled " +
    "head is a ladder, a dashed orange arrow with an open head a chute.", { top: top.toFixed(1) });
  legend.replaceChildren(
    s("title", { text: words }),
    s("defs", {}, [s("linearGradient", { id: gid }, stops)]),
    s("text", { x: 0, y: 13, class: "legend-text", text: t("expected turns to finish") }),
    s("rect", { x: 0, y: 20, width: 200, height: 14, fill: `url(#${gid})`, stroke: "#595959" }),
    s("text", { x: 0, y: 48, class: "legend-text", text: "0" }),
    s("text", { x: 200, y: 48, "text-anchor": "end", class: "legend-text", text: top.toFixed(1) }),
    s("rect", { x: 230, y: 20, width: 14, height: 14, fill: hex(SOURCE_GREY), stroke: "#595959" }),
    s("text", { x: 250, y: 32, class: "legend-text", text: t("jump start") }),
    s("rect", { x: 330, y: 20, width: 14, height: 14, fill: TRAP, stroke: "#595959" }),
    s("path", { d: "M333,23 L341,31 M341,23 L333,31", stroke: "#ffffff", "stroke-width": 1.6 }),
    s("text", { x: 350, y: 32, class: "legend-text", text: t("trap") }),
    s("line", { x1: 230, x2: 262, y1: 44, y2: 44, stroke: LADDER, "stroke-width": 2.5 }),
    s("path", { d: "M262,39 L270,44 L262,49 z", fill: LADDER }),
    s("text", { x: 276, y: 48, class: "legend-text", text: t("ladder") }),
    s("line", { x1: 330, x2: 362, y1: 44, y2: 44, stroke: CHUTE, "stroke-width": 2.5,
      "stroke-dasharray": "6 3" }),
    s("path", { d: "M362,39 L370,44 L362,49", fill: "none", stroke: CHUTE, "stroke-width": 2 }),
    s("text", { x: 376, y: 48, class: "legend-text", text: t("chute") }),
  );
  attr(legend, "viewBox", "0 0 430 54");
  attr(legend, "aria-label", words);
}
