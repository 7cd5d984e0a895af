// @ts-check
/**
 * The race explorer's board with each seat's token on it, drawn in the page: what the library's
 * `draw_board(board, tokens=positions)` draws beside the bars (chutes_edu/plots/board.py). The
 * board is the board editor's SVG board (ui/board_picture.js: the cells, the square numbers, the
 * jumps as draw_board draws them, the traps), its cells in draw_board's two light shades; each
 * token a disc in its seat's colour (the library's TOKEN_COLORS, as the bars) with the seat's
 * number on it, so the tokens differ without colour. Tokens that share a square (the start
 * among them) sit in rows below its number, seat 1 first, as draw_board places them.
 *
 * The picture's text alternative is the library's (draw_board's description: the board, its
 * jumps, then "player i on square s" for each token), its `aria-label`, renewed with every
 * drawing. Only the tokens change when a seat moves; the board is laid out once per board.
 *
 * @module race_board
 */
import { describeBoardIn } from "../../ui/picture_words.js";
import { translator } from "../../core/i18n.js";
import { attr, h, s } from "../../ui/dom.js";
import { START_WIDTH, centre, place } from "../../core/geometry.js";
import { createPicture } from "../../ui/board_picture.js";
import { SEAT_COLOURS } from "./chart.js";

/** draw_board's two light shades of the cells when it shows no values. */
const CELL_SHADES = ["#f4f1e8", "#e6e0cc"];
/** A token's radius, alone on its square or sharing it, in squares (its number is 1.3 times
 * as high). */
const ALONE_RADIUS = 0.22;
const SHARED_RADIUS = 0.16;
/** How far down its cell a square's number reaches, in squares (ui/board_picture.js draws it at
 * most 0.34 high, at the top): tokens that share the square stay below it. */
const NUMBER_BAND = 0.34;

/**
 * The library's words for a board with tokens on it (draw_board's description with
 * `title=board.name or None`, as the race explorer drew it), in the language of `t` (default
 * English).
 * @param {{size: number, jumps?: number[][], traps?: number[]}} board
 * @param {{name?: string, tokens?: number[]}} [shown]
 * @returns {string}
 */
export function describeRaceBoard(board, { name = "", tokens = [] } = {}, t = translator("en")) {
  const words = describeBoardIn(t, board, { name, title: name || t("Chutes and Ladders board") });
  if (!tokens.length) return words;
  const players = tokens.map((square, i) =>
    t("player {player} on square {square}", { player: i + 1, square })).join(", ");
  return `${words.slice(0, -1)}; ${players}.`;
}

/**
 * Where each token is drawn, in the editor picture's coordinates (core/geometry.js `centre`),
 * and its radius: alone, a little below and right of its square's centre (clear of the square's
 * number, top left); when k tokens share a square, in reading order in the cell below the
 * number (`sharedOffsets`: where draw_board's `set_tokens` puts them, with the picture's y
 * downwards; tests/js/race_board.test.mjs holds them equal), closer and smaller in the start's
 * narrower cell.
 * @param {number[]} tokens The seats' squares, in seat order.
 * @param {number} size The board's final square.
 * @returns {Array<{x: number, y: number, r: number}>}
 */
export function tokenPlaces(tokens, size) {
  /** @type {Map<number, number>} */
  const counts = new Map();
  for (const square of tokens) counts.set(square, (counts.get(square) ?? 0) + 1);
  /** @type {Map<number, number>} */
  const seen = new Map();
  return tokens.map((square) => {
    const k = counts.get(square) ?? 1;
    const j = seen.get(square) ?? 0;
    seen.set(square, j + 1);
    const [x, y] = centre(square, size);
    if (k === 1) return { x: x + 0.05, y: y + 0.1, r: ALONE_RADIUS };
    const width = square === 0 ? START_WIDTH : 1;
    const [dx, dy] = sharedOffsets(k, width)[j];
    return { x: x + dx, y: y + dy, r: SHARED_RADIUS * width };
  });
}

/**
 * Where k tokens that share a square sit, from its centre, in reading order, y downwards: in
 * the part of the cell below the number (NUMBER_BAND), in one row of up to three, else in two
 * rows (the second centred under the first), no two touching (tokens SHARED_RADIUS * width).
 * @param {number} k How many tokens share the square (2 or more).
 * @param {number} [width] The cell's width, in squares (the start's is START_WIDTH).
 * @returns {Array<[number, number]>}
 */
export function sharedOffsets(k, width = 1) {
  const columns = k <= 3 ? k : Math.ceil(k / 2);
  const step = (columns === 2 ? 0.44 : 0.33) * width;
  const middle = NUMBER_BAND / 2;     // of the cell below the number: (-0.5 + NUMBER_BAND + 0.5) / 2
  const rows = k <= 3 ? [middle] : [middle - 0.165, middle + 0.165];
  return Array.from({ length: k }, (_, i) => {
    const row = Math.floor(i / columns);
    const inRow = row === 0 ? Math.min(k, columns) : k - columns;
    return [(i - row * columns - (inRow - 1) / 2) * step, rows[row]];
  });
}

/** draw_board's shade of each cell: alternating like a chequerboard by row and column. */
function shadeCells(/** @type {Element[]} */ cells, /** @type {number} */ size) {
  for (let sq = 0; sq <= size; sq += 1) {
    const { row, col } = place(sq, size);
    const shade = sq === 0 ? CELL_SHADES[0] : CELL_SHADES[(row + col) % 2];
    attr(cells[sq], "fill", shade);
  }
}

/**
 * The board with the seats' tokens: `draw(board, {name, tokens})` draws them and returns the
 * picture's description; its words in the language of `t` (default English).
 * @param {{id: string, t?: import("../../core/i18n.js").Translate}} options
 */
export function createRaceBoard({ id, t = translator("en") }) {
  const svg = /** @type {SVGSVGElement} */ (s("svg", { class: "chutes-race-board",
    role: "img", id: `${id}-board` }));
  const picture = createPicture(svg, `${id}-board`, t);
  const title = h("p", { class: "chutes-race-board-title", "aria-hidden": "true" });
  const tokensGroup = s("g", { class: "tokens", "aria-hidden": "true" });
  const el = h("div", { class: "chutes-picture chutes-race-board-image" }, [title, svg]);
  let size = -1;

  /**
   * Draw `board` with a token per seat; returns the picture's description (its aria-label).
   * @param {any} board A valid JSON board (maths/board_math.js's form).
   * @param {{name: string, tokens: number[]}} shown
   */
  const draw = (board, { name, tokens }) => {
    if (board.size !== size) {
      size = board.size;
      picture.build(size);
      shadeCells(picture.layer.cells, size);
      svg.append(tokensGroup);                     // above the numbers, as draw_board's tokens
    }
    picture.drawJumps(board, null);
    picture.drawTraps(board);
    const places = tokenPlaces(tokens, size);
    tokensGroup.replaceChildren(...places.map(({ x, y, r }, i) => s("g", { class: "token",
      "data-seat": i + 1, "data-square": tokens[i] }, [
      s("circle", { cx: x.toFixed(3), cy: y.toFixed(3), r,
        fill: SEAT_COLOURS[i % SEAT_COLOURS.length], stroke: "#000000", "stroke-width": 0.035 }),
      s("text", { x: x.toFixed(3), y: (y + 0.47 * r).toFixed(3), "font-size": (1.3 * r).toFixed(3),
        "text-anchor": "middle", fill: "#000000", text: String(i + 1) }),
    ])));
    title.textContent = name || t("Chutes and Ladders board");
    const words = describeRaceBoard(board, { name, tokens }, t);
    attr(svg, "aria-label", words);
    return words;
  };
  return { el, svg, draw, fitNumbers: picture.fitNumbers,
    describe: () => svg.getAttribute("aria-label") ?? "" };
}
