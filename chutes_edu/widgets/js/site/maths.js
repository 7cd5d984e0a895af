// @ts-check
/**
 * The board maths of the exercise pages' answer boxes, built into static/site-maths.js: an
 * answer that is jumps to add to a board (exercises 12.6, 12.7) is judged by the explorers' own
 * maths (maths/board_math.js, held to the library by tests/js/), which book/static/answers.js
 * finds as `window.ChutesMaths`: `validate`, `expectedTurns`, `firstMoverEdge`. Only a page with
 * such a box loads it (book/lean_pages.py).
 *
 * @module site/maths
 */
import { expectedTurns, firstMoverEdge, validate } from "../maths/board_math.js";
import { MATHS_GLOBAL } from "./places.js";

/** @type {any} */ (window)[MATHS_GLOBAL] = Object.freeze({ expectedTurns, firstMoverEdge, validate });
