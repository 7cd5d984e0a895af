// @ts-check
/**
 * The board explorer's heat map of the board, drawn in the page: the board editor's SVG board
 * (ui/board_picture.js: the cells, the square numbers, the jumps as draw_board draws them, the
 * traps), each cell coloured by its value on the viridis scale from 0 to the top of a colour
 * bar, as the library's `draw_board` colours them (a jump's source too: the editor greys it, the
 * library does not); a square without a value (NaN) grey. Its title above it, its colour bar and
 * the bar's label below.
 *
 * The top of the colour bar stays put while the values fit it and fill half of it (`stickyEnd`,
 * as the library's painter keeps its scale), so that most changes recolour the cells only and
 * pictures are easy to compare; it starts anew when the heat map changes what it shows.
 *
 * The picture's text alternative is the library's (`describeBoard` of maths/board_explorer_math.js,
 * draw_board's words, with the values shown), its `aria-label`, renewed with every drawing.
 *
 * @module board_explorer_board
 */
import { stickyEnd } from "../maths/board_explorer_math.js";
import { describeBoardIn } from "./picture_words.js";
import { hex, SOURCE_GREY, textOn, viridis } from "../core/colours.js";
import { attr, h, s } from "./dom.js";
import { createPicture } from "./board_picture.js";
import { formatG } from "../core/format.js";
import { translator } from "../core/i18n.js";

const BAR_WIDTH = 300;

/**
 * The heat-mapped board: `draw(board, {name, title, label, values})` colours it and returns the
 * picture's description; its words in the language of `t` (default English).
 * @param {{id: string, t?: import("../core/i18n.js").Translate}} options
 */
export function createBoardPicture({ id, t = translator("en") }) {
  const svg = /** @type {SVGSVGElement} */ (s("svg", { class: "chutes-board-heat-board",
    role: "img", id: `${id}-board` }));
  const picture = createPicture(svg, `${id}-board`, t);
  const title = h("p", { class: "chutes-board-heat-title", "aria-hidden": "true" });
  const stops = [];
  for (let i = 0; i <= 8; i += 1) {
    stops.push(s("stop", { offset: `${i * 12.5}%`, "stop-color": hex(viridis(i / 8)) }));
  }
  const topText = s("text", { x: BAR_WIDTH + 8, y: 26, class: "legend-text" });
  const barLabel = s("text", { x: 0, y: 12, class: "legend-text" });
  const bar = s("svg", { class: "chutes-board-heat-bar", viewBox: `0 0 ${BAR_WIDTH + 60} 48`,
    width: BAR_WIDTH + 60, height: 48, "aria-hidden": "true" }, [
    s("defs", {}, [s("linearGradient", { id: `${id}-heat-scale` }, stops)]),
    barLabel,
    s("rect", { x: 0, y: 16, width: BAR_WIDTH, height: 14, fill: `url(#${id}-heat-scale)`,
      stroke: "#595959" }),
    s("text", { x: 0, y: 44, class: "legend-text", text: "0" }),
    topText,
    s("rect", { x: BAR_WIDTH - 64, y: 34, width: 12, height: 12, fill: hex(SOURCE_GREY),
      stroke: "#595959" }),
    s("text", { x: BAR_WIDTH - 48, y: 44, class: "legend-text", text: t("no value") }),
  ]);
  const el = h("div", { class: "chutes-picture chutes-board-heat" }, [title, svg, bar]);
  let size = -1;
  let kind = "";
  /** @type {number | null} */
  let top = null;

  /**
   * Draw the board coloured by `values` (per square 0..size, NaN for none); returns the
   * picture's description (also its aria-label).
   * @param {any} board A valid JSON board (maths/board_math.js's form, all fields).
   * @param {{name: string, title: string, label: string, values: ArrayLike<number>}} shown
   */
  const draw = (board, { name, title: heading, label, values }) => {
    if (board.size !== size) {
      size = board.size;
      picture.build(size);
    }
    if (label !== kind) {
      kind = label;
      top = null;
    }
    picture.drawJumps(board, null);
    picture.drawTraps(board);
    let most = 0;
    for (let sq = 0; sq < values.length; sq += 1) {
      if (Number.isFinite(values[sq])) most = Math.max(most, values[sq]);
    }
    top = stickyEnd(top, most > 0 ? most : 1, true);
    const traps = new Set(board.traps);
    const { cells, numbers } = picture.layer;
    for (let sq = 0; sq <= size; sq += 1) {
      const v = values[sq];
      let rgb = !Number.isFinite(v) ? SOURCE_GREY
        : viridis(Math.min(1, Math.max(0, v / /** @type {number} */ (top))));
      if (traps.has(sq)) rgb = [139, 0, 0];
      const fill = hex(rgb);
      if (cells[sq].getAttribute("fill") !== fill) {
        attr(cells[sq], "fill", fill);
        if (numbers[sq]) {
          const ink = textOn(rgb);
          attr(numbers[sq], "fill", ink);
          attr(numbers[sq], "stroke", ink === "#000000" ? "#ffffff" : "#000000");
        }
      }
    }
    title.textContent = heading.replace(/\n/g, "; ");
    barLabel.textContent = label;
    topText.textContent = formatG(/** @type {number} */ (top), 3);
    const words = describeBoardIn(t, board, { name, title: heading, label, values });
    attr(svg, "aria-label", words);
    return words;
  };
  return { el, svg, draw, fitNumbers: picture.fitNumbers,
    describe: () => svg.getAttribute("aria-label") ?? "" };
}
