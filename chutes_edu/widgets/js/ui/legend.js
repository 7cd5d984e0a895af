// @ts-check
/**
 * A chart's legend below its axes, laid out alike in every chart of the page: each entry is a
 * 28 px sample (a stretch of the line, or a swatch of the fill) with its words 6 px to its right,
 * as the library's matplotlib legends show them.
 *
 * @module legend
 */
import { s } from "./dom.js";

/** The sample's width, and the gap from the sample to its words. */
const SAMPLE = 28;
const GAP = 6;

/**
 * One legend entry at (x, y), the middle of its sample's left edge: the sample's element (an SVG
 * `line` with `line` attributes, or a `rect` swatch with `fill` ones) and its words' `text`.
 * @param {{x: number, y: number, words?: string, line?: Record<string, any>,
 *          fill?: Record<string, any>, wordsAttributes?: Record<string, any>}} entry
 * @returns {[SVGElement, SVGElement]}
 */
export function legendEntry({ x, y, words, line, fill, wordsAttributes = {} }) {
  const sample = fill
    ? s("rect", { x, y: y - 6, width: SAMPLE, height: 12, ...fill })
    : s("line", { x1: x, x2: x + SAMPLE, y1: y, y2: y, ...line });
  return [sample, s("text", { x: x + SAMPLE + GAP, y: y + 4, text: words, ...wordsAttributes })];
}
