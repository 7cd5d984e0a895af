/**
 * The board editor of `chutes_edu` (chutes_edu/widgets/board_editor.py): draw ladders, chutes and
 * traps on a board and see the absorbing-chain answers change, computed in the page by the maths
 * module (maths/board_math.js, held equal to the Python library by tests), with no kernel and no
 * network.
 *
 * This module puts the editor's rooms together; each does one job:
 *
 * - maths/boards.js: the canonical board, its key, the editor's limits; explorers/board_editor/state.js: the
 *   state and its undo history, changed only by `update(state, action)`, a pure function;
 * - explorers/board_editor/words.js: what the editor says; core/geometry.js: where squares are drawn;
 * - ui/board_picture.js: drawing the board; explorers/board_editor/readout.js: the numbers and the chart;
 * - explorers/board_editor/controls.js: the controls; explorers/board_editor/input.js: keys and the pointer;
 * - maths/address.js: the board in the page's address; ui/runner.js: the maths in chunks
 *   that never hold the page for long, cancelled by the next edit.
 *
 * Two ways in:
 *
 * - `export default { render }`: an anywidget front end. The model's traits are `board_json`
 *   (the board, in maths/board_math.js's JSON format), `board_name`, `presets` (name -> board JSON)
 *   and `message` (a refusal from Python, which should never happen: the maths is shared).
 *   anywidget loads a widget's module from one string: the Python class bundles these modules
 *   into one (`module_source`).
 * - `mount(el, {board, presets, name, syncHash, skipLink})`: the same editor on a page with no
 *   widget manager (the course website), on a tiny in-page model with the same get/set/on/
 *   save_changes. With `syncHash` the board is kept in the page's address (`#board=...`), so a
 *   link opens that board; with `skipLink` the page gets a "skip to the board editor" link
 *   first in its tab order.
 *
 * An edit that the library would refuse leaves the board as it was, and the message is
 * `validate`'s: the words of `Board(...)`'s ValueError for the same board, in one line.
 *
 * @module board_editor
 */
import { boardToPython, decodeBoard, refusalLine } from "../../maths/board_math.js";
import { addressOf, openAddress } from "../../maths/address.js";
import { boardKey, EMPTY_BOARD } from "../../maths/boards.js";
import { createControls } from "./controls.js";
import { attr, h, keepKeysFromLab, s, text } from "../../ui/dom.js";
import { listenToKeys, listenToPointer } from "./input.js";
import { createModel } from "../../core/model.js";
import { createPicture, drawLegend } from "../../ui/board_picture.js";
import { createReadout } from "./readout.js";
import { createRunner } from "../../ui/runner.js";
import { createState, update } from "./state.js";
import { announcement, describeSquare } from "./words.js";
import { said, translator } from "../../core/i18n.js";
import { pageLanguage } from "../../ui/controls.js";

/** @typedef {import("../../core/i18n.js").Translate} Translate */

/** What the editor's state (explorers/board_editor/state.js) says in English, as patterns the
 * page says back in its language (core/i18n.js), with the library's refusals. */
export const SAID_BACK = Object.freeze([
  said("jump left as it was"), said("nothing to undo"), said("nothing to redo"),
  said("jump cancelled"), said("nothing selected"), said("no named board {name}"),
  said("the board's size must be a whole number of squares from {low} to {high}, not {value}"),
  said("jump from square {at}: {how}"),
  said("click the square where it ends (a click on {at} again cancels)"),
  said("go to where it ends and press Enter (Escape cancels)"),
  said("moving the start of the ladder {source} to {to}: {how}"),
  said("moving the end of the ladder {source} to {to}: {how}"),
  said("moving the start of the chute {source} to {to}: {how}"),
  said("moving the end of the chute {source} to {to}: {how}"),
  said("drop it on its new square"), said("go to its new square and press Enter (Escape cancels)"),
  said("ladder {source} to {to} selected: Delete removes it"),
  said("chute {source} to {to} selected: Delete removes it"),
]);

export {
  boardKey, canonical, checkBoard, DIE_MAX, DIE_MIN, faces, HISTORY_LIMIT, jumpFrom, MAX_SIZE,
  MIN_SIZE, OVERSHOOT_HELP,
} from "../../maths/boards.js";
export { luminance, textOn, viridis } from "../../core/colours.js";
export { centre, grid, moveCursor, place, squareAt, squareAtPoint } from "../../core/geometry.js";
export { createModel } from "../../core/model.js";
export { createRunner } from "../../ui/runner.js";
export { createState, pythonLine, update } from "./state.js";
export { announcement, describeEdit, describeSquare, turnsText } from "./words.js";

/** How long the copy confirmation stays on the page, in milliseconds. */
const COPIED_MS = 6000;

let instances = 0;

/** The instructions, one paragraph for each way of editing. */
function helpParagraphs(/** @type {string} */ id, /** @type {Translate} */ t) {
  return [
    h("p", { class: "chutes-editor-help", id: `${id}-help-keys`,
      text: t("With the keyboard, on the board: the arrow keys move over the squares, Home and " +
        "End go to the first and last square. Enter or Space picks a jump's start, then its " +
        "end; Escape cancels. Delete removes the jump that starts on the square, M moves that " +
        "jump's end (Shift+M its start), T makes the square a trap or not. Ctrl+Z undoes, " +
        "Ctrl+Y redoes.") }),
    h("p", { class: "chutes-editor-help", id: `${id}-help-mouse`,
      text: t("With a mouse: click a square, then another, to add a jump (click the first " +
        "square again to cancel). Drag the dot at either end of a jump to move that end; click " +
        "the dot to select the jump, then use the delete button.") }),
  ];
}

/** A link that moves the focus to the board (and does not touch the page's address). */
function skipTo(/** @type {() => Element} */ target, /** @type {string} */ words,
  /** @type {string} */ extra = "") {
  const link = h("a", { class: `chutes-editor-skip${extra}`, href: "#", text: words });
  link.addEventListener("click", (event) => {
    event.preventDefault();
    const board = /** @type {HTMLElement} */ (target());
    board.scrollIntoView({ block: "center" });
    board.focus({ preventScroll: true });
  });
  return link;
}

/** The editor's page: every element, laid out. */
function layout(/** @type {string} */ id, /** @type {any} */ controls, /** @type {any} */ readout,
  /** @type {boolean} */ syncHash, /** @type {Translate} */ t) {
  const board = /** @type {SVGSVGElement} */ (s("svg", { class: "chutes-editor-board",
    id: `${id}-board`, tabindex: 0, role: "application", "aria-roledescription": t("board editor"),
    "aria-describedby": `${id}-help-keys` }));
  const ui = {
    board,
    // JupyterLab's command-mode shortcuts (M: markdown cell, Y: code cell, arrows: other cells)
    // must not fire while a key is meant for the editor (ui/dom.js keepKeysFromLab says how).
    root: keepKeysFromLab(h("div", { class: "chutes-editor-root" })),
    title: h("p", { class: "chutes-editor-title" }),
    cursorLine: h("p", { class: "chutes-editor-cursor", "aria-hidden": "true" }),
    message: h("p", { class: "chutes-editor-message", role: "alert" }),
    legend: /** @type {SVGSVGElement} */ (s("svg", { class: "chutes-editor-legend", role: "img" })),
    python: /** @type {HTMLTextAreaElement} */ (h("textarea", { id: `${id}-python`, readonly: true,
      class: "chutes-editor-python", spellcheck: "false", rows: 2 })),
    copy: h("button", { type: "button", text: t("copy the line") }),
    copyLink: h("button", { type: "button", text: t("copy a link to this board") }),
    copied: h("p", { class: "chutes-editor-copied", role: "status" }),
    live: h("div", { class: "chutes-visually-hidden", role: "status", "aria-live": "polite",
      "aria-atomic": "true" }),
  };
  ui.root.append(
    skipTo(() => board, t("skip to the board")),
    ui.title,
    h("div", { class: "chutes-editor-top" }, [controls.box, readout.summary]),
    h("div", { class: "chutes-editor-main" }, [
      h("div", { class: "chutes-editor-left" },
        [...helpParagraphs(id, t), board, ui.cursorLine, ui.message, ui.legend]),
      h("div", { class: "chutes-editor-results" }, [
        ...readout.details,
        h("div", { class: "chutes-editor-share" }, [
          h("label", { for: `${id}-python`, text: t("the board as a line of Python") }), ui.python,
          h("div", { class: "chutes-editor-row" }, [ui.copy, ...(syncHash ? [ui.copyLink] : [])]),
          ui.copied]),
      ]),
    ]),
    ui.live,
  );
  return ui;
}

/** The state to start from: the model's board, the address's, or the default with the reason. */
function startState(/** @type {any} */ model, /** @type {boolean} */ syncHash) {
  const presets = model.get("presets") ?? {};
  let state;
  try {
    state = createState(model.get("board_json"), { name: model.get("board_name") ?? "", presets });
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    state = update(createState(EMPTY_BOARD, { presets }), { type: "refuse", message: problem });
  }
  if (syncHash && typeof location !== "undefined") state = openAddress(state, location.hash, update);
  return state;
}

/** Copy a text: the clipboard, or the selected line and Ctrl+C; the result on the page. */
async function copyText(/** @type {HTMLTextAreaElement} */ python, /** @type {string} */ value) {
  try {
    await navigator.clipboard.writeText(value);
    return true;
  } catch {
    python.select();
    try {
      return document.execCommand?.("copy") === true;
    } catch {
      return false;
    }
  }
}

/** The expected turns of the board on the page, if its answer is in. */
const expectedNow = (/** @type {any} */ ed) =>
  (ed.answer.key === boardKey(ed.state.board) ? ed.answer.result.expected : null);

/** Show an answer of the runner for the state's board. */
function showAnswer(/** @type {any} */ ed, /** @type {any} */ result, /** @type {string} */ key) {
  const { ui, readout, state } = ed;
  if ("error" in result) {                            // never for a board the editor took
    text(ui.message, ed.t(result.error));
    ui.message.classList.add("chutes-editor-message-shown");
    readout.setPending(false);
    return;
  }
  ed.answer = { key, result };
  drawLegend(ui.legend, ed.id, ed.picture.drawCells(state.board, result.expected), ed.t);
  const now = result.expected[0];
  const was = ed.shown;
  ed.shown = now;
  readout.show(result, was, state.board);
  if (state.edit && state.revision > 0) {
    const words = announcement(state.edit, now, was, ed.t);
    text(readout.change, ed.t("Last change: {words}.", { words }));
    text(ui.live, words);
  } else if (!readout.change.textContent) {
    text(readout.change, ed.t("Last change: none yet."));
  }
  drawWords(ed);
}

/** Ask the runner for the board's answers: shown now if known or quick (when `now`), else
 * when they come. */
function ask(/** @type {any} */ ed, /** @type {boolean} */ now) {
  const key = boardKey(ed.state.board);
  const result = ed.runner.run(ed.state.board, key, (/** @type {any} */ late) => {
    if (boardKey(ed.state.board) === key) showAnswer(ed, late, key);
  }, { now });
  if (result) showAnswer(ed, result, key);
  else ed.readout.setPending(true);
}

/** What follows a new board at once, answers or not: its Python, its name and the address. */
function drawBoardFacts(/** @type {any} */ ed) {
  const { ui, state: { board: b } } = ed;
  ui.python.value = boardToPython(b);
  attr(ui.python, "rows", String(Math.min(6, Math.max(2, Math.ceil(ui.python.value.length / 60)))));
  const ladders = b.jumps.filter((/** @type {number[]} */ [a, d]) => d > a).length;
  attr(ui.board, "aria-label", ed.t("Board, {size} squares with {ladders} ladders, {chutes} " +
    "chutes and {traps} traps", { size: b.size, ladders, chutes: b.jumps.length - ladders,
    traps: b.traps.length }));
  const first = ed.drawnRevision < 0;
  ed.drawnRevision = ed.state.revision;
  // The address follows the edits (not the first drawing: opening a page changes nothing).
  if (ed.syncHash && !first && typeof history !== "undefined") {
    const hash = addressOf(b);
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }
}

/** The words under the board: the cursor, the refusal, the notice. */
function drawWords(/** @type {any} */ ed) {
  const { ui, state } = ed;
  const where = describeSquare(state.board, state.cursor, expectedNow(ed), state.pick, state.way,
    ed.t);
  text(ui.cursorLine, ed.t("Cursor: {where}.", { where }));
  const refusal = state.message || refusalLine(ed.model.get("message") || "");
  text(ui.message, refusal && ed.t(refusal));
  ui.message.classList.toggle("chutes-editor-message-shown", Boolean(ui.message.textContent));
  if (state.notices !== ed.saidNotice) {
    ed.saidNotice = state.notices;
    text(ui.live, state.notice ? ed.t(state.notice) : "");
  }
}

/** Draw the state: what it changed at once, the answers as soon as they come. */
function draw(/** @type {any} */ ed) {
  const { picture, state } = ed;
  const b = state.board;
  const rebuilt = picture.layer.size !== b.size;
  if (rebuilt) picture.build(b.size);
  text(ed.ui.title, ed.t("Board editor: {name}", { name: state.name || ed.t("your board") }));
  picture.drawJumps(b, state.selected);
  picture.drawTraps(b);
  picture.drawCursor(state);
  ed.controls.draw(state);
  if (state.revision !== ed.drawnRevision) {
    drawBoardFacts(ed);
    ask(ed, !rebuilt);           // a new picture was work enough for this task: answers after
  }
  drawWords(ed);
}

/** Send the board to the model (Python, or the page's owner). */
function push(/** @type {any} */ ed) {
  const { model } = ed;
  ed.pushing = true;                                  // our own model.set calls: not news
  try {
    model.set("board_json", ed.state.board);
    model.set("board_name", ed.state.name);
    if (model.get("message")) model.set("message", "");
    model.save_changes();
  } finally {
    ed.pushing = false;
  }
}

/** One action: the new state, sent on and drawn. */
function dispatch(/** @type {any} */ ed, /** @type {any} */ action) {
  const before = ed.state;
  ed.state = update(ed.state, action);
  if (ed.state.revision !== before.revision) push(ed);
  if (ed.state !== before) draw(ed);
}

/** A board set on the model by Python (or the page's owner). */
function fromModel(/** @type {any} */ ed) {
  const { model } = ed;
  if (ed.pushing) return;
  const incoming = model.get("board_json");
  if (!incoming || typeof incoming !== "object") return;
  if (boardKey(incoming) === boardKey(ed.state.board) &&
    (model.get("board_name") ?? "") === ed.state.name) return;
  ed.state = update(ed.state, { type: "load", board: incoming, name: model.get("board_name") ?? "",
    origin: "python" });
  draw(ed);
}

/** Follow the page's address (a link pasted in, the back button). */
function listenToAddress(/** @type {any} */ ed) {
  const onHash = () => {
    if (location.hash === addressOf(ed.state.board)) return;
    const before = ed.state;
    ed.state = openAddress(ed.state, location.hash, update);
    if (ed.state.revision !== before.revision) push(ed);
    draw(ed);
  };
  window.addEventListener("hashchange", onHash);
  ed.cleanups.push(() => window.removeEventListener("hashchange", onHash));
}

/** Every listener of the editor. */
function listen(/** @type {any} */ ed) {
  const { ui, cleanups } = ed;
  const act = (/** @type {any} */ action) => dispatch(ed, action);
  listenToModel(ed.model, cleanups, {
    board: () => fromModel(ed),
    presets: () => act({ type: "presets", presets: ed.model.get("presets") ?? {} }),
    message: () => draw(ed),
  });
  if (ed.syncHash) listenToAddress(ed);
  listenToKeys({ board: ui.board, root: ui.root, python: ui.python, state: () => ed.state,
    dispatch: act, moved: () => text(ui.live, describeSquare(ed.state.board, ed.state.cursor,
      expectedNow(ed), ed.state.pick, "keyboard", ed.t)) });
  listenToPointer({ board: ui.board, state: () => ed.state, dispatch: act, preview: (square) => {
    ed.state = update(ed.state, { type: "goto", square });
    draw(ed);
  } });
  listenToCopies(ui, cleanups, ed.t);
  if (typeof ResizeObserver === "function") {
    const watch = new ResizeObserver(() => ed.picture.fitNumbers());
    watch.observe(ui.board);
    cleanups.push(() => watch.disconnect());
  }
  cleanups.push(() => ed.runner.cancel());
}

/**
 * Draw the editor for `model` in `el`; return the clean-up function.
 * @param {any} model
 * @param {HTMLElement} el
 * @param {{syncHash?: boolean}} [options]
 */
function view(model, el, { syncHash = false } = {}) {
  instances += 1;
  const id = `chutes-editor-${instances}-${Math.random().toString(36).slice(2, 7)}`;
  /** The editor: its state, its parts and what is on the page. */
  const t = translator(model.get("language") ?? pageLanguage());
  const ed = /** @type {any} */ ({
    id, model, syncHash, t, state: startState(model, syncHash), runner: createRunner(),
    readout: createReadout(t), cleanups: [], shown: null, drawnRevision: -1, saidNotice: 0,
    answer: { key: "", result: null }, pushing: false,
  });
  ed.controls = createControls(id, (/** @type {any} */ action) => dispatch(ed, action),
    () => ed.state, t);
  ed.ui = layout(id, ed.controls, ed.readout, syncHash, t);
  ed.picture = createPicture(ed.ui.board, id, t);
  el.classList.add("chutes-editor", "chutes-explorer");
  el.append(ed.ui.root);
  listen(ed);
  draw(ed);
  if (syncHash && ed.state.revision > 0) push(ed);       // the board came from the address
  return () => {
    for (const f of ed.cleanups) f();
    ed.ui.root.remove();
  };
}

/** Redraw when Python (or the page's owner) sets the board, the presets or a message. */
function listenToModel(/** @type {any} */ model, /** @type {Array<() => void>} */ cleanups,
  /** @type {{board: () => void, presets: () => void, message: () => void}} */ on) {
  for (const [event, f] of [["change:board_json", on.board], ["change:board_name", on.board],
    ["change:presets", on.presets], ["change:message", on.message]]) {
    model.on(event, f);
    cleanups.push(() => model.off(event, f));
  }
}

/** The copy buttons, with a confirmation on the page (and to a screen reader: a status). */
function listenToCopies(/** @type {any} */ ui, /** @type {Array<() => void>} */ cleanups,
  /** @type {Translate} */ t) {
  let timer = /** @type {any} */ (null);
  const confirm = async (/** @type {string} */ value, /** @type {string} */ what) => {
    const done = await copyText(ui.python, value);
    text(ui.copied, done ? t("Copied {what}.", { what }) : t("Could not reach the clipboard: " +
      "{what} is selected, press Ctrl+C to copy it.", { what }));
    clearTimeout(timer);
    timer = setTimeout(() => text(ui.copied, ""), COPIED_MS);
  };
  ui.copy.addEventListener("click", () => confirm(ui.python.value, t("the line of Python")));
  ui.copyLink.addEventListener("click", () => confirm(location.href, t("the link to this board")));
  cleanups.push(() => clearTimeout(timer));
}

/**
 * Run the editor on a page with no widget manager (the course website).
 * @param {HTMLElement} el Where to draw it.
 * @param {{board?: any, presets?: any, name?: string, syncHash?: boolean, skipLink?: boolean,
 *     language?: string}}
 *     [options] `board`: a board as JSON or as `encodeBoard` text (default: the first preset,
 *     else an empty 100-square board); `presets`: name -> board JSON (or [name, board] pairs) for
 *     the "named board" menu; `name`: the board's name; `syncHash`: keep the board in the page's
 *     address (`#board=...`) and open the board an address holds; `skipLink`: put a "skip to the
 * *     board editor" link first on the page; `language`: its words' language (default the page's).
 * @returns {{model: any, board: () => any, destroy: () => void}} The in-page model (listen with
 *     `model.on("change:board_json", f)`), the current board as JSON, and a way to take it away.
 */
export function mount(el, { board, presets = {}, name = "", syncHash = false, skipLink = false,
  language = pageLanguage() } = {}) {
  const list = Array.isArray(presets) ? presets : Object.entries(presets);
  let start = board;
  if (typeof board === "string") {
    try {
      start = decodeBoard(board);
    } catch {
      start = null;
    }
  }
  let startName = name;
  if (start === undefined || start === null) {
    [startName, start] = list.length ? [name || list[0][0], list[0][1]] : [name, EMPTY_BOARD];
  }
  const model = createModel({ board_json: start, board_name: startName, presets, message: "",
    language });
  const destroy = view(model, el, { syncHash });
  let link = /** @type {HTMLElement | null} */ (null);
  if (skipLink && typeof document !== "undefined") {
    link = skipTo(() => /** @type {Element} */ (el.querySelector(".chutes-editor-board")),
      translator(language)("skip to the board editor"), " chutes-editor-page-skip");
    // right after the page's own skip link (to its main text), else first on the page
    const own = document.querySelector("a.skip-link, a[href='#main-content']");
    if (own) own.after(link);
    else document.body.prepend(link);
  }
  return { model, board: () => model.get("board_json"), destroy: () => {
    link?.remove();
    destroy();
  } };
}

export default {
  render(/** @type {{model: any, el: HTMLElement}} */ { model, el }) {
    return view(model, el);
  },
};
