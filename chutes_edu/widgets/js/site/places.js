// @ts-check
/**
 * The names the course website's pages and scripts share (book/build.py and book/answers.py write
 * the places; book/lean_pages.py reads them to give each page the scripts its places need):
 *
 * - the class of each place the website's runtime (site/site.js) draws something into;
 * - the globals of the website's own two scripts besides the explorers (whose globals are in
 *   front_ends.json): the board calculator and the board maths of the answer boxes.
 *
 * @module site/places
 */

/** A board editor, from its board (`data-board`) and name (`data-name`). */
export const EDITOR_MOUNT = "chutes-board-editor-mount";
/** An explorer, by its anywidget class (`data-explorer`), from saved traits (`data-state`). */
export const EXPLORER_MOUNT = "chutes-explorer-mount";
/** The board calculator of an exercise (`data-open`, `data-exercise`). */
export const CALCULATOR_MOUNT = "chutes-calculator-mount";
/** site-calculator.js publishes the calculator's `mount` as `window[CALCULATOR_GLOBAL]`. */
export const CALCULATOR_GLOBAL = "ChutesCalculator";
/** site-maths.js publishes the board maths the answer boxes judge jumps with (answers.js). */
export const MATHS_GLOBAL = "ChutesMaths";
