// @ts-check
/**
 * The course website's runtime (built by tools/build_front_end.mjs into static/site.js, a classic
 * script: pages opened from disk cannot import ES modules). It holds no explorer: each front end
 * is a script of its own, static/site-<name>.js, that publishes its `mount` as
 * `window[<global>]` (front_ends.json names the globals; site-calculator.js publishes the board
 * calculator's), and a page loads only the scripts of what it shows (book/lean_pages.py), so that
 * a phone fetches and compiles the code of one explorer, not of eight.
 *
 * Once the page is parsed (the deferred scripts have run), it draws:
 * - a board editor wherever a page has a `.chutes-board-editor-mount` (its board and name in
 *   `data-board` and `data-name`), with the named boards to reset to from
 *   `window.ChutesBoardPresets` (book/build.py writes them as data into board_presets.js);
 * - an explorer wherever a page has a `.chutes-explorer-mount`, by the anywidget class in
 *   `data-explorer`, from the traits the notebook saved (`data-state`);
 * - the board calculator (site/calculator.js) wherever an exercise page has a
 *   `.chutes-calculator-mount` (book/answers.py), opening the part named by `data-open`.
 *
 * Each is drawn in a task of its own, those on the screen or near it first, then the others in
 * the page's order, so that drawing them (some compute at once: the design explorer's search, a
 * board's expected turns) never holds the page up for all of them together, and what the reader
 * sees is drawn first. Before printing, any still waiting is drawn at once. A place whose front
 * end is not on the page (a class of no explorer of ours) is left as it is.
 *
 * @module site
 */
import { front_ends as FRONT_ENDS } from "../../front_ends.json";
import { CALCULATOR_GLOBAL, CALCULATOR_MOUNT, EDITOR_MOUNT, EXPLORER_MOUNT } from "./places.js";

export { CALCULATOR_MOUNT, EDITOR_MOUNT, EXPLORER_MOUNT };

/** How far off the screen a place still counts as near it (drawn before the others). */
export const NEAR = "100% 0px";

/** @typedef {{place: HTMLElement, draw: () => void}} Job */

/**
 * The `mount` a page's scripts published under `name`, if any.
 * @param {string} name
 * @returns {((el: HTMLElement, start: any) => unknown) | undefined}
 */
function published(name) {
  const found = /** @type {any} */ (window)[name];
  return found && typeof found.mount === "function" ? found.mount : undefined;
}

/** @type {Record<string, string>} the global of each anywidget class */
const GLOBALS = {};
for (const spec of Object.values(FRONT_ENDS)) GLOBALS[spec.class] = spec.global;
const EDITOR_GLOBAL = FRONT_ENDS.board_editor.global;

/**
 * What the page asks to be drawn, in the page's order.
 * @returns {Job[]}
 */
export function jobs() {
  const presets = /** @type {any} */ (window).ChutesBoardPresets || {};
  /** @type {Job[]} */
  const found = [];
  const editors = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(`.${EDITOR_MOUNT}`));
  editors.forEach((place) => {
    const mount = published(EDITOR_GLOBAL);
    if (!mount) return;
    found.push({ place, draw: () => mount(place, {
      board: JSON.parse(place.dataset.board || "{}"), name: place.dataset.name || "", presets,
      // one editor on the page: a link opens its board, and a skip link leads to it
      syncHash: editors.length === 1, skipLink: editors.length === 1,
    }) });
  });
  document.querySelectorAll(`.${EXPLORER_MOUNT}`).forEach((el) => {
    const place = /** @type {HTMLElement} */ (el);
    const global = GLOBALS[place.dataset.explorer || ""];
    const mount = global && global !== EDITOR_GLOBAL ? published(global) : undefined;
    if (mount) found.push({ place, draw: () => mount(place, JSON.parse(place.dataset.state || "{}")) });
  });
  document.querySelectorAll(`.${CALCULATOR_MOUNT}`).forEach((el) => {
    const place = /** @type {HTMLElement} */ (el);
    const mount = published(CALCULATOR_GLOBAL);
    if (mount) found.push({ place, draw: () => mount(place, {
      presets, open: place.dataset.open || "", exercise: place.dataset.exercise || "" }) });
  });
  const order = (/** @type {Job} */ a, /** @type {Job} */ b) =>
    a.place.compareDocumentPosition(b.place) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  return found.sort(order);
}

/**
 * Draw every job, each in a task of its own: those near the screen first (as the browser's next
 * look at the layout finds them: no layout is forced here), then the rest in order.
 * @param {Job[]} all
 */
export function drawAll(all) {
  const waiting = new Set(all);
  /** @param {Job} job */
  const draw = (job) => {
    if (waiting.delete(job)) job.draw();
  };
  window.addEventListener("beforeprint", () => all.forEach(draw));
  /** @param {Job[]} queue */
  const drawInTurn = (queue) => {
    const next = queue.find((job) => waiting.has(job));
    if (!next) return;
    setTimeout(() => {
      try {
        draw(next);
      } finally {
        drawInTurn(queue);      // the others are drawn even if one of them fails
      }
    }, 0);
  };
  if (typeof IntersectionObserver !== "function") {
    drawInTurn(all);
    return;
  }
  const seen = new IntersectionObserver((entries) => {
    seen.disconnect();
    const near = new Set(entries.filter((e) => e.isIntersecting).map((e) => e.target));
    drawInTurn([...all.filter((job) => near.has(job.place)), ...all]);
  }, { rootMargin: NEAR });
  for (const job of all) seen.observe(job.place);
}

function start() {
  const all = jobs();
  if (all.length) drawAll(all);
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
