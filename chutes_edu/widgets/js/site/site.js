// @ts-check
/**
 * The course website's runtime (built by tools/build_front_end.mjs into static/site.js, a classic
 * script: pages opened from disk cannot import ES modules). It holds no explorer: each front end
 * is a script of its own, static/site-<name>.js, that publishes its `mount` as
 * `window[<global>]` (front_ends.json names the globals; site-calculator.js publishes the board
 * calculator's), and a page loads only the scripts of what it shows (book/lean_pages.py), so that
 * a phone fetches and compiles the code of one explorer, not of eight.
 *
 * The page names the front ends' scripts it needs in this script's `data-front-ends` (their
 * addresses, in order: book/lean_pages.py), and this script fetches them once it runs (deferred:
 * the page is parsed and on its way to the screen), not the page's head: a phone on a slow network
 * spent the bandwidth on them before the page's first words (issue 52).
 *
 * Once the page is parsed and those scripts have run, it draws:
 * - a board editor wherever a page has a `.chutes-board-editor-mount` (its board and name in
 *   `data-board` and `data-name`), with the named boards to reset to from
 *   `window.ChutesBoardPresets` (book/build.py writes them as data into board_presets.js);
 * - an explorer wherever a page has a `.chutes-explorer-mount`, by the anywidget class in
 *   `data-explorer`, from the traits the notebook saved (`data-state`);
 * - the board calculator (site/calculator.js) wherever an exercise page has a
 *   `.chutes-calculator-mount` (book/answers.py), opening the part named by `data-open`.
 *
 * Each is drawn when its place nears the screen (an IntersectionObserver that lasts, `NEAR`), in a
 * task of its own, one a task, in the page's order, so that a page draws what its reader reaches
 * and never holds up for all of them (each draw computes: the design explorer's search, a board's
 * expected turns, then lays the page out again): while a page loads, only those within a screen of
 * what the reader sees are drawn (issue 52). The page's one board editor (its skip link and `#board=` address are the
 * page's) is drawn after those near the screen, wherever it is.
 *
 * Until it is drawn, a place says what it is: it is a named group (`role="group"`, its
 * `aria-label`) holding one line of words, found by find-in-page and read by a screen reader, and a
 * Tab stop: a keyboard that reaches it draws it at once and lands on its first control (its last,
 * coming back with Shift+Tab), so that Tab from the text before an explorer lands in the
 * explorer. Before printing, every place still waiting is drawn at once; so does
 * `window.ChutesSite.drawAll()` (the tests that read every explorer of a page, the PDF), once the
 * front ends' scripts have run: a promise of how many it drew. A place whose front end is not on
 * the page (a class of no explorer of ours) is left as it is.
 *
 * @module site
 */
import { front_ends as FRONT_ENDS } from "../../front_ends.json";
import { CALCULATOR_GLOBAL, CALCULATOR_MOUNT, EDITOR_MOUNT, EXPLORER_MOUNT } from "./places.js";

export { CALCULATOR_MOUNT, EDITOR_MOUNT, EXPLORER_MOUNT };

/** How far off the screen a place still counts as near it: drawn as the reader nears it. */
export const NEAR = "100% 0px";
/** The class of a place still waiting to be drawn (it holds the line `WAITING_NOTE` then). */
export const WAITING = "chutes-waiting";
export const WAITING_NOTE = "chutes-waiting-note";

/**
 * What each place is, in the page's language, said by a place until it is drawn (the drawn
 * explorer says it in its own words). The key: the anywidget class, or "calculator". Here, not in
 * the front end's catalog (core/messages_<language>.js, 48 KB): this script is on every page.
 * @type {Record<string, Record<string, string>>}
 */
const NAMES = {
  en: {
    BoardEditor: "Board editor", CoinFlipExplorer: "Coin-flip explorer",
    BoardExplorer: "Board explorer", SimulationExplorer: "Simulation explorer",
    RaceExplorer: "Race explorer", JumpExplorer: "Jump explorer",
    PolicyExplorer: "Policy explorer", DesignExplorer: "Design explorer",
    calculator: "Board calculator",
    waiting: "{what}: it is drawn as you reach it.",
  },
  es: {
    BoardEditor: "Editor de tableros", CoinFlipExplorer: "Explorador de la moneda",
    BoardExplorer: "Explorador del tablero", SimulationExplorer: "Explorador de simulaciones",
    RaceExplorer: "Explorador de carreras", JumpExplorer: "Explorador de saltos",
    PolicyExplorer: "Explorador de políticas", DesignExplorer: "Explorador de diseños",
    calculator: "Calculadora del tablero",
    waiting: "{what}: se dibuja cuando llegas a él.",
  },
};

/** @typedef {{place: HTMLElement, kind: string, draw: () => void, first?: boolean}} Job */

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
const EDITOR_CLASS = FRONT_ENDS.board_editor.class;

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
    // one editor on the page: a link opens its board, and a skip link leads to it
    const sole = editors.length === 1;
    found.push({ place, kind: EDITOR_CLASS, first: sole, draw: () => mount(place, {
      board: JSON.parse(place.dataset.board || "{}"), name: place.dataset.name || "", presets,
      syncHash: sole, skipLink: sole,
    }) });
  });
  document.querySelectorAll(`.${EXPLORER_MOUNT}`).forEach((el) => {
    const place = /** @type {HTMLElement} */ (el);
    const kind = place.dataset.explorer || "";
    const global = GLOBALS[kind];
    const mount = global && global !== EDITOR_GLOBAL ? published(global) : undefined;
    if (mount) found.push({ place, kind, draw: () => mount(place, JSON.parse(place.dataset.state || "{}")) });
  });
  document.querySelectorAll(`.${CALCULATOR_MOUNT}`).forEach((el) => {
    const place = /** @type {HTMLElement} */ (el);
    const mount = published(CALCULATOR_GLOBAL);
    if (mount) found.push({ place, kind: "calculator", draw: () => mount(place, {
      presets, open: place.dataset.open || "", exercise: place.dataset.exercise || "" }) });
  });
  const order = (/** @type {Job} */ a, /** @type {Job} */ b) =>
    a.place.compareDocumentPosition(b.place) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  return found.sort(order);
}

/**
 * The words a waiting place says: what it is, in the page's language.
 * @param {Job} job
 */
export function waitingWords(job) {
  const lang = String(document.documentElement?.lang || "en").slice(0, 2).toLowerCase();
  const names = NAMES[lang] ?? NAMES.en;
  const what = names[job.kind] ?? NAMES.en[job.kind] ?? names.BoardExplorer;
  return names.waiting.replace("{what}", what);
}

const TABBABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

/**
 * The controls in `root` that Tab reaches, in order.
 * @param {HTMLElement} root
 * @returns {HTMLElement[]}
 */
function tabbable(root) {
  return /** @type {HTMLElement[]} */ ([...root.querySelectorAll(TABBABLE)]).filter((el) =>
    el.tabIndex >= 0 && !(/** @type {any} */ (el).disabled) && el.getClientRects().length > 0
    && (typeof el.checkVisibility !== "function" || el.checkVisibility({ visibilityProperty: true })));
}

/**
 * Make a place say what it is until it is drawn: a named group with its line of words, a Tab
 * stop that draws it (`onFocus`). Returns the way back to the empty place the front end draws in.
 * @param {Job} job
 * @param {(event: FocusEvent) => void} onFocus
 * @returns {() => void}
 */
function holdPlace(job, onFocus) {
  const { place } = job;
  const words = waitingWords(job);
  const note = document.createElement("p");
  note.className = WAITING_NOTE;
  note.textContent = words;
  place.classList.add(WAITING);
  place.setAttribute("role", "group");
  place.setAttribute("aria-label", words);
  place.setAttribute("tabindex", "0");
  place.append(note);
  place.addEventListener("focus", onFocus);
  return () => {
    place.removeEventListener("focus", onFocus);
    note.remove();
    for (const name of ["role", "aria-label", "tabindex"]) place.removeAttribute(name);
    place.classList.remove(WAITING);
  };
}

/**
 * Draw each job as its place nears the screen, one a task (without an IntersectionObserver, all
 * of them, one a task, in the page's order); the page's sole editor after those near the screen.
 * Returns the way to draw every job still waiting, at once.
 * @param {Job[]} all
 * @returns {() => number} draws every job still waiting; how many it drew
 */
export function drawAll(all) {
  /** @type {Map<Job, () => void>} the jobs waiting, each with the way back to its empty place */
  const waiting = new Map();
  /** @type {Set<Element>} the places near the screen */
  const near = new Set();
  /** @type {IntersectionObserver | null} */
  let seen = null;
  /** @param {Job} job */
  const draw = (job) => {
    const release = waiting.get(job);
    if (!release) return;
    waiting.delete(job);
    seen?.unobserve(job.place);
    release();
    job.draw();
  };
  const drawEvery = () => {
    const left = all.filter((job) => waiting.has(job));
    for (const job of left) {
      try {
        draw(job);
      } catch (error) {
        setTimeout(() => { throw error; }, 0);     // reported, and the others are drawn
      }
    }
    return left.length;
  };
  for (const job of all) {
    waiting.set(job, holdPlace(job, (event) => {
      // a keyboard reached the place: draw it now and go on to its first control (its last,
      // coming back from below)
      const from = /** @type {Node | null} */ (event.relatedTarget);
      draw(job);
      const controls = tabbable(job.place);
      const back = from && !job.place.contains(from)
        && job.place.compareDocumentPosition(from) & Node.DOCUMENT_POSITION_FOLLOWING;
      const to = back ? controls[controls.length - 1] : controls[0];
      if (to) {
        to.focus();
      } else {
        job.place.setAttribute("tabindex", "-1");
        job.place.focus();
      }
    }));
  }
  window.addEventListener("beforeprint", drawEvery);
  let planned = false;
  /** The next job to draw: the first near the screen, else the page's sole editor. */
  const next = () => all.find((job) => waiting.has(job) && (!seen || near.has(job.place)))
    ?? all.find((job) => waiting.has(job) && job.first);
  const plan = () => {
    if (planned || !next()) return;
    planned = true;
    setTimeout(() => {
      planned = false;
      const job = next();
      try {
        if (job) draw(job);
      } finally {
        plan();        // the others are drawn even if one of them fails
      }
    }, 0);
  };
  if (typeof IntersectionObserver === "function") {
    seen = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) near.add(entry.target);
        else near.delete(entry.target);
      }
      plan();
    }, { rootMargin: NEAR });
    for (const job of all) seen.observe(job.place);
  } else {
    plan();
  }
  return drawEvery;
}

/**
 * Fetch the scripts at `addresses` side by side and run them in their order (`async = false`, as
 * the browser runs the scripts a page names); resolves when all have run or failed (a place whose
 * script failed is left as it is).
 * @param {string[]} addresses
 * @returns {Promise<void>}
 */
export function runScripts(addresses) {
  return Promise.all(addresses.map((address) => new Promise((done) => {
    const script = document.createElement("script");
    script.async = false;
    script.src = address;
    script.onload = () => done(undefined);
    script.onerror = () => done(undefined);
    document.head.append(script);
  }))).then(() => undefined);
}

/** The front ends' scripts this page names (this script's `data-front-ends`), read as it runs. */
const FRONT_END_SCRIPTS = (document.currentScript?.getAttribute("data-front-ends") ?? "")
  .split(/\s+/).filter(Boolean);

/** @type {() => number} */
let drawEvery = () => 0;

function start() {
  const all = jobs();
  if (all.length) drawEvery = drawAll(all);
}

const parsed = new Promise((done) => {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", done);
  else done(undefined);
});
const started = Promise.all([parsed, runScripts(FRONT_END_SCRIPTS)]).then(start);
/** @type {any} */ (window).ChutesSite = Object.freeze({
  drawAll: () => started.then(() => drawEvery()),
});
