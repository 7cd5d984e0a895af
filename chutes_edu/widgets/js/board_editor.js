import { analyse, boardToPython, BoardError, decodeBoard, encodeBoard, OVERSHOOT_RULES, ranges, validate } from "./board_math.js";
/**
 * The board editor of `chutes_edu` (chutes_edu/widgets/board_editor.py): draw ladders, chutes and
 * traps on a board and see the absorbing-chain answers change at once, computed in the page by
 * `board_math.js` (held equal to the Python library by tests), with no kernel and no network.
 *
 * One ES module, two ways in:
 *
 * - `export default { render }`: an anywidget front end. The model's traits are `board_json`
 *   (the board, in board_math.js's JSON format), `board_name`, `presets` (name -> board JSON)
 *   and `message` (a refusal from Python, which should never happen: the maths is shared).
 *   anywidget loads a widget's module from one string, where a relative import cannot be
 *   resolved: the Python class puts board_math.js in place of the import line above.
 * - `mount(el, {board, presets, name, syncHash})`: the same editor on a page with no widget
 *   manager (the course website), on a tiny in-page model with the same get/set/on/save_changes.
 *   With `syncHash` the board is kept in the page's address (`#board=...`, board_math.js's
 *   `encodeBoard`), so a link opens that board.
 *
 * The editor's state (the board, the cursor, the jump being drawn, the undo history, the last
 * edit or refusal) is plain data changed only by `update(state, action)`, a pure function; the
 * words it says (`describeEdit`, `announcement`, `describeSquare`) and the serpentine geometry
 * (`grid`, `place`, `squareAt`, `moveCursor`) are pure too: Node's test runner tests them
 * (tests/js/board_editor.test.mjs). The DOM code below them only draws a state and turns
 * keys, clicks and drags into actions.
 *
 * An edit that the library would refuse (a jump from or onto another jump's source, from square
 * 0 or the final square, a board no game can finish, ...) leaves the board as it was, and the
 * message is `validate`'s: the words of `Board(...)`'s ValueError for the same board.
 *
 * @module board_editor
 */

/** The die sizes the die control offers. */
export const DIE_MIN = 2;
export const DIE_MAX = 12;

/** Undo steps kept. */
export const HISTORY_LIMIT = 200;

/** The largest board the editor draws (the page solves an n x n system on every edit). */
export const MAX_SIZE = 1000;

/** What each overshoot rule does, in the explorers' words. */
export const OVERSHOOT_HELP = Object.freeze({
  stay: "a roll past the last square is lost",
  win: "a roll past the last square wins",
  bounce: "walk back the excess from the last square",
  stop_short: "a roll past the last square stops one short",
});

// =========================================================================== geometry
/** The largest r with r * r <= x. */
function isqrt(/** @type {number} */ x) {
  let r = Math.floor(Math.sqrt(x));
  while (r * r > x) r -= 1;
  while ((r + 1) * (r + 1) <= x) r += 1;
  return r;
}

/**
 * The grid a board of `size` squares is drawn on, as `board_grid` in chutes_edu/plots/board.py:
 * c = ceil(sqrt(n)) columns and ceil(n / c) rows.
 * @param {number} size
 * @returns {{rows: number, cols: number}}
 */
export function grid(size) {
  const cols = size > 1 ? isqrt(size - 1) + 1 : 1;
  return { rows: Math.ceil(size / cols), cols };
}

/**
 * Where a square is drawn: its row (0 at the bottom) and column (0 at the left), as
 * `square_center`: square 1 bottom left, rows alternate direction, square 0 just left of 1
 * (column -1 of row 0).
 * @param {number} square
 * @param {number} size
 * @returns {{row: number, col: number}}
 */
export function place(square, size) {
  if (square === 0) return { row: 0, col: -1 };
  const { cols } = grid(size);
  const row = Math.floor((square - 1) / cols);
  const k = (square - 1) % cols;
  return { row, col: row % 2 ? cols - 1 - k : k };
}

/**
 * The square drawn at a row and column, or null where there is none.
 * @param {number} row
 * @param {number} col
 * @param {number} size
 * @returns {number | null}
 */
export function squareAt(row, col, size) {
  if (row === 0 && col === -1) return 0;
  const { rows, cols } = grid(size);
  if (row < 0 || row >= rows || col < 0 || col >= cols) return null;
  const square = row * cols + (row % 2 ? cols - 1 - col : col) + 1;
  return square <= size ? square : null;
}

/**
 * The cursor after a key, in the picture's directions: left and right within a row, up and down
 * by rows (staying put at an edge), Home to square 0, End to the final square.
 * @param {number} square
 * @param {string} key A KeyboardEvent key.
 * @param {number} size
 * @returns {number}
 */
export function moveCursor(square, key, size) {
  if (key === "Home") return 0;
  if (key === "End") return size;
  const { row, col } = place(square, size);
  let next = null;
  if (key === "ArrowLeft") next = squareAt(row, col - 1, size);
  else if (key === "ArrowRight") next = squareAt(row, col + 1, size);
  else if (key === "ArrowUp") next = squareAt(row + 1, square === 0 ? 0 : col, size);
  else if (key === "ArrowDown") next = squareAt(row - 1, col, size);
  return next ?? square;
}

// =========================================================================== boards
/**
 * A valid board in the one form the editor keeps and sends: all six fields, jumps sorted by
 * source, traps sorted (the form `board_to_json` gives in Python).
 * @param {import("./board_math.js").BoardJSON} board
 */
export function canonical(board) {
  const die = Array.isArray(board.die) ? [...board.die] : (board.die ?? 6);
  const jumps = (Array.isArray(board.jumps) ? board.jumps : [])
    .map(([a, b]) => [a, b]).sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  const traps = [...new Set(board.traps ?? [])].sort((a, b) => a - b);
  return { size: board.size ?? 100, die, overshoot: board.overshoot ?? "stay",
    bonus_roll: board.bonus_roll ?? null, jumps, traps };
}

/** A key equal for equal boards. */
export const boardKey = (/** @type {any} */ board) => JSON.stringify(canonical(board));

/** Why the editor cannot take a board (the library's message, or its size), or null. */
export function checkBoard(/** @type {any} */ board) {
  if (board === null || typeof board !== "object" || Array.isArray(board)) {
    return `a board must be an object with size, die, overshoot, bonus_roll, jumps and traps, ` +
      `not ${JSON.stringify(board)}`;
  }
  const problem = validate(board);
  if (problem) return problem;
  if ((board.size ?? 100) > MAX_SIZE) {
    return `the editor draws boards of up to ${MAX_SIZE} squares, and this one has ` +
      `${board.size}: use the library for it`;
  }
  return null;
}

/** The jump that starts on `square`, or null. */
export function jumpFrom(/** @type {any} */ board, /** @type {number} */ square) {
  const pair = board.jumps.find(([a]) => a === square);
  return pair ? pair[1] : null;
}

/** The number of faces of a die (a count or weights). */
export const faces = (/** @type {number | number[]} */ die) =>
  (Array.isArray(die) ? die.length : die);

/** Presets as [name, canonical board] pairs, from an object (in its order) or such pairs. */
function presetList(/** @type {any} */ presets) {
  const pairs = Array.isArray(presets) ? presets : Object.entries(presets ?? {});
  return pairs.filter(([, board]) => checkBoard(board) === null)
    .map(([name, board]) => [String(name), canonical(board)]);
}

// =========================================================================== words
const kindOf = (/** @type {number} */ a, /** @type {number} */ b) => (b > a ? "ladder" : "chute");

/** A whole number of turns in words: "1 turn", "7 turns". */
const turns = (/** @type {number | null} */ k) => `${k} turn${k === 1 ? "" : "s"}`;

/**
 * A number of turns with one decimal, or as many more (up to 6) as it takes to tell it from
 * `other` when they differ.
 */
export function turnsText(/** @type {number} */ value, /** @type {number | null} */ other = null) {
  let digits = 1;
  if (other !== null && other !== value) {
    while (digits < 6 && value.toFixed(digits) === other.toFixed(digits)) digits += 1;
  }
  return value.toFixed(digits);
}

/**
 * An edit in words, e.g. "ladder 12 to 44 added".
 * @param {any} edit One of the `edit` objects `update` records.
 * @returns {string}
 */
export function describeEdit(edit) {
  switch (edit.kind) {
    case "add": return `${kindOf(edit.a, edit.b)} ${edit.a} to ${edit.b} added`;
    case "remove": return `${kindOf(edit.a, edit.b)} ${edit.a} to ${edit.b} removed`;
    case "move": {
      const [a, b] = edit.from;
      const [c, d] = edit.to;
      const now = kindOf(c, d);
      return `${kindOf(a, b)} ${a} to ${b} moved to ${c} to ${d}` +
        (now !== kindOf(a, b) ? ` (now a ${now})` : "");
    }
    case "trap": return `trap on square ${edit.square} ${edit.on ? "added" : "removed"}`;
    case "die": return `die set to ${edit.faces} faces`;
    case "overshoot": return `a roll past the end: ${edit.rule} (${OVERSHOOT_HELP[edit.rule]})`;
    case "bonus": return edit.face === null ? "no roll again" : `roll again on a ${edit.face}`;
    case "reset": return `board reset to ${edit.name}`;
    case "load":
      return edit.origin === "address" ? "board opened from the page address"
        : edit.origin === "python" ? "board set from Python" : "board loaded";
    case "undo": return `undone: ${describeEdit(edit.edit)}`;
    case "redo": return `redone: ${describeEdit(edit.edit)}`;
    default: return "board changed";
  }
}

/**
 * What the live region says after an edit, e.g.
 * "ladder 12 to 44 added: expected length 31.7 turns, was 39.2".
 * @param {any} edit
 * @param {number} now Expected turns from square 0 after the edit.
 * @param {number | null} was Before it (null if unknown).
 */
export function announcement(edit, now, was) {
  const head = `${describeEdit(edit)}: expected length ${turnsText(now, was)} turns`;
  if (was === null) return head;
  return was === now ? `${head}, unchanged` : `${head}, was ${turnsText(was, now)}`;
}

/**
 * The cursor's square in words, e.g. "square 12, ladder to 44, expected 31.2 turns from here".
 * From a jump's source the expected turns are those from where the jump lands (a token never
 * stays on a source).
 * @param {any} board A canonical board.
 * @param {number} square
 * @param {ArrayLike<number> | null} expected Expected turns per square (null if not known).
 * @param {any} [pick] The jump being drawn (`state.pick`), if any.
 */
export function describeSquare(board, square, expected, pick = null) {
  const n = board.size;
  const parts = [`square ${square}`];
  if (square === 0) parts[0] += " (the start, off the board)";
  if (square === n) parts[0] += " (the final square)";
  const to = jumpFrom(board, square);
  const trap = board.traps.includes(square);
  if (to !== null) parts.push(`${kindOf(square, to)} to ${to}`);
  if (trap) parts.push("a trap: the game ends here");
  const into = board.jumps.filter(([, b]) => b === square).map(([a, b]) => `${kindOf(a, b)} from ${a}`);
  if (into.length) parts.push(`end of the ${into.join(" and the ")}`);
  if (expected && !trap && square !== n) {
    parts.push(`expected ${turnsText(expected[to ?? square])} turns from here`);
  }
  let text = parts.join(", ");
  if (pick && pick.from !== undefined) {
    text += square === pick.from ? "; Enter here cancels the jump"
      : `; Enter ends the jump from ${pick.from} here`;
  } else if (pick && pick.move) {
    text += `; Enter moves the ${pick.move.end === "source" ? "start" : "end"} of the jump from ` +
      `${pick.move.source} here`;
  }
  return text;
}

// =========================================================================== state
/**
 * The editor's state for a board.
 * @param {any} board A valid board (BoardJSON).
 * @param {{name?: string, presets?: any}} [options] Its name; the named boards (an object
 *     name -> board, or [name, board] pairs).
 * @throws {BoardError} for a board the editor cannot take.
 */
export function createState(board, { name = "", presets = {} } = {}) {
  const problem = checkBoard(board);
  if (problem) throw new BoardError(problem);
  const list = presetList(presets);
  const names = new Map(list.map(([n, b]) => [boardKey(b), n]));
  const clean = canonical(board);
  if (name) names.set(boardKey(clean), name);
  return {
    board: clean, name: name || names.get(boardKey(clean)) || "", names, presets: list,
    cursor: 0, pick: null, selected: null, past: [], future: [],
    message: "", edit: null, revision: 0, notice: null, notices: 0,
  };
}

/** The state with a notice to announce (a counter makes a repeated notice new). */
function say(/** @type {any} */ state, /** @type {string} */ text) {
  return { ...state, notice: text, notices: state.notices + 1 };
}

/** The state after a refused edit: the board unchanged, the library's words as the message. */
function refuse(/** @type {any} */ state, /** @type {string} */ message) {
  return { ...state, message, pick: null, edit: null };
}

/** The state with a new (valid, canonical) board; the old one goes to the undo history. */
function commit(/** @type {any} */ state, /** @type {any} */ board, /** @type {any} */ edit,
  /** @type {string | null} */ name = null) {
  const past = [...state.past, { board: state.board, name: state.name, edit }]
    .slice(-HISTORY_LIMIT);
  return settle(state, board, edit, name, past, []);
}

function settle(/** @type {any} */ state, /** @type {any} */ board, /** @type {any} */ edit,
  /** @type {string | null} */ name, /** @type {any[]} */ past, /** @type {any[]} */ future) {
  const key = boardKey(board);
  let names = state.names;
  if (name) {
    names = new Map(names);
    names.set(key, name);
  }
  const selected = state.selected !== null && jumpFrom(board, state.selected) !== null
    ? state.selected : null;
  return {
    ...state, board, name: name || names.get(key) || "", names, past, future, edit,
    message: "", pick: null, selected, cursor: Math.min(state.cursor, board.size),
    revision: state.revision + 1,
  };
}

/** Try a new board: commit it if valid, else refuse with the library's message. */
function attempt(/** @type {any} */ state, /** @type {any} */ candidate, /** @type {any} */ edit) {
  const problem = validate(candidate);
  return problem ? refuse(state, problem) : commit(state, canonical(candidate), edit);
}

function addJump(/** @type {any} */ state, /** @type {number} */ a, /** @type {number} */ b) {
  const board = state.board;
  // The new jump goes last, as Board.with_jump adds it, so a refusal lists problems in its order.
  const candidate = { ...board, jumps: [...board.jumps, [a, b]] };
  const next = attempt(state, candidate, { kind: "add", a, b });
  return next.revision !== state.revision ? { ...next, cursor: b } : next;
}

/** The words of `Board.without_jump` when no jump starts on `square`. */
function noJump(/** @type {any} */ board, /** @type {number} */ square) {
  return `no jump starts on square ${square}; the sources are ` +
    `${ranges(board.jumps.map(([a]) => a)) || "none"}`;
}

function removeJump(/** @type {any} */ state, /** @type {number} */ source) {
  const board = state.board;
  const b = jumpFrom(board, source);
  if (b === null) return refuse(state, noJump(board, source));
  const candidate = { ...board, jumps: board.jumps.filter(([a]) => a !== source) };
  const next = attempt(state, candidate, { kind: "remove", a: source, b });
  return { ...next, selected: null };
}

function moveJump(/** @type {any} */ state, /** @type {number} */ source,
  /** @type {string} */ end, /** @type {number} */ to) {
  const board = state.board;
  const b = jumpFrom(board, source);
  if (b === null) return refuse(state, noJump(board, source));
  const pair = end === "source" ? [to, b] : [source, to];
  if (pair[0] === source && pair[1] === b) return say({ ...state, pick: null }, "jump left as it was");
  // As board.without_jump(source).with_jump(...): the moved jump goes last.
  const candidate = { ...board, jumps: [...board.jumps.filter(([a]) => a !== source), pair] };
  const next = attempt(state, candidate, { kind: "move", from: [source, b], to: pair });
  return next.revision !== state.revision ? { ...next, selected: pair[0], cursor: to } : next;
}

function toggleTrap(/** @type {any} */ state, /** @type {number} */ square) {
  const board = state.board;
  const on = !board.traps.includes(square);
  const traps = on ? [...board.traps, square] : board.traps.filter((/** @type {number} */ t) => t !== square);
  return attempt(state, { ...board, traps }, { kind: "trap", square, on });
}

function load(/** @type {any} */ state, /** @type {any} */ board, /** @type {string} */ name,
  /** @type {any} */ edit) {
  const problem = checkBoard(board);
  if (problem) return refuse(state, problem);
  const clean = canonical(board);
  if (boardKey(clean) === boardKey(state.board)) {       // the same board: at most a new name
    if (!name || name === state.name) return state;
    const names = new Map(state.names);
    names.set(boardKey(clean), name);
    return { ...state, name, names };
  }
  return commit(state, clean, edit, name || null);
}

/**
 * The editor's one state change: a new state for an action, never an exception.
 *
 * Actions: `{type: "key", key}` (arrows, Home, End: the cursor), `{type: "goto", square}`,
 * `{type: "pick", square?}` (Enter, Space or a click: a jump's start, then its end; the same
 * square again cancels), `{type: "cancel"}` (Escape), `{type: "grab", source, end?}` (start
 * moving a jump's "destination" (default) or "source" end; the next pick drops it),
 * `{type: "move", source, end, square}` (a drag), `{type: "select", source}` (null clears),
 * `{type: "remove", source?}` (Delete: the jump that starts on the cursor's square, or the
 * selected one), `{type: "trap", square?}`, `{type: "die", faces}`,
 * `{type: "overshoot", rule}`, `{type: "bonus", face}` (null for none), `{type: "undo"}`,
 * `{type: "redo"}`, `{type: "reset", name}` (a preset), `{type: "load", board, name?, origin?}`
 * (a board from Python or the page address), `{type: "presets", presets}`.
 *
 * A state's `board` is always valid; `revision` counts its changes; `edit` is the edit that made
 * it (for `announcement`); `message` is the last refusal, in the library's words, "" after a
 * successful edit; `notice` is something else to tell a screen reader.
 * @param {any} state
 * @param {any} action
 * @returns {any}
 */
export function update(state, action) {
  const { board } = state;
  const at = action.square ?? state.cursor;
  switch (action.type) {
    case "key": {
      const cursor = moveCursor(state.cursor, action.key, board.size);
      return cursor === state.cursor ? state : { ...state, cursor, selected: null };
    }
    case "goto":
      return { ...state, cursor: Math.max(0, Math.min(board.size, action.square)) };
    case "pick": {
      const here = { ...state, cursor: at };
      if (state.pick && state.pick.move) {
        return moveJump(here, state.pick.move.source, state.pick.move.end, at);
      }
      if (state.pick) {
        if (state.pick.from === at) return say({ ...here, pick: null }, "jump cancelled");
        return addJump(here, state.pick.from, at);
      }
      return say({ ...here, pick: { from: at }, selected: null, message: "" },
        `jump from square ${at}: go to where it ends and press Enter (Escape cancels)`);
    }
    case "cancel":
      if (!state.pick && state.selected === null) return state;
      return say({ ...state, pick: null, selected: null },
        state.pick ? "jump cancelled" : "nothing selected");
    case "grab": {
      const to = jumpFrom(board, action.source);
      if (to === null) return refuse(state, noJump(board, action.source));
      const end = action.end === "source" ? "source" : "destination";
      return say({ ...state, pick: { move: { source: action.source, end } }, selected: action.source,
        cursor: end === "source" ? action.source : to, message: "" },
      `moving the ${end === "source" ? "start" : "end"} of the ${kindOf(action.source, to)} ` +
        `${action.source} to ${to}: go to its new square and press Enter (Escape cancels)`);
    }
    case "move":
      return moveJump(state, action.source, action.end, action.square);
    case "select": {
      if (action.source === null) return { ...state, selected: null };
      const to = jumpFrom(board, action.source);
      if (to === null) return state;
      return say({ ...state, selected: action.source, cursor: action.source, pick: null },
        `${kindOf(action.source, to)} ${action.source} to ${to} selected: Delete removes it`);
    }
    case "remove": {
      const source = action.source ?? (jumpFrom(board, state.cursor) !== null ? state.cursor
        : (state.selected ?? state.cursor));
      return removeJump({ ...state, pick: null }, source);
    }
    case "trap":
      return toggleTrap({ ...state, pick: null }, at);
    case "die":
      if (action.faces === board.die) return state;
      return attempt(state, { ...board, die: action.faces }, { kind: "die", faces: action.faces });
    case "overshoot":
      if (action.rule === board.overshoot) return state;
      return attempt(state, { ...board, overshoot: action.rule },
        { kind: "overshoot", rule: action.rule });
    case "bonus": {
      const face = action.face ?? null;
      if (face === board.bonus_roll) return state;
      return attempt(state, { ...board, bonus_roll: face }, { kind: "bonus", face });
    }
    case "undo": {
      if (!state.past.length) return say(state, "nothing to undo");
      const last = state.past[state.past.length - 1];
      const future = [...state.future, { board: state.board, name: state.name, edit: last.edit }];
      return settle(state, last.board, { kind: "undo", edit: last.edit }, last.name,
        state.past.slice(0, -1), future);
    }
    case "redo": {
      if (!state.future.length) return say(state, "nothing to redo");
      const next = state.future[state.future.length - 1];
      const past = [...state.past, { board: state.board, name: state.name, edit: next.edit }];
      return settle(state, next.board, { kind: "redo", edit: next.edit }, next.name, past,
        state.future.slice(0, -1));
    }
    case "reset": {
      const preset = state.presets.find(([name]) => name === action.name);
      if (!preset) return refuse(state, `no named board ${JSON.stringify(action.name)}`);
      return load(state, preset[1], preset[0], { kind: "reset", name: preset[0] });
    }
    case "load":
      return load(state, action.board, action.name ?? "",
        { kind: "load", origin: action.origin ?? "python" });
    case "presets": {
      const presets = presetList(action.presets);
      const names = new Map(state.names);
      for (const [name, b] of presets) names.set(boardKey(b), name);
      return { ...state, presets, names };
    }
    default:
      return state;
  }
}

/** The board as one line of Python (board_math.js's `boardToPython`). */
export const pythonLine = (/** @type {any} */ state) => boardToPython(state.board);

// =========================================================================== colours
// Viridis at 9 even stops (matplotlib's), interpolated linearly.
const VIRIDIS = ["#440154", "#472d7b", "#3b528b", "#2c728e", "#21918c", "#28ae80", "#5ec962",
  "#addc30", "#fde725"].map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));

/** A viridis colour for t in [0, 1], as [r, g, b]. */
export function viridis(/** @type {number} */ t) {
  const x = Math.max(0, Math.min(1, Number.isFinite(t) ? t : 0)) * (VIRIDIS.length - 1);
  const i = Math.min(Math.floor(x), VIRIDIS.length - 2);
  const f = x - i;
  return VIRIDIS[i].map((c, k) => Math.round(c + f * (VIRIDIS[i + 1][k] - c)));
}

/** WCAG relative luminance of [r, g, b]. */
export function luminance(/** @type {number[]} */ rgb) {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Black or white text, whichever contrasts more with [r, g, b] (at least 4.58:1 always). */
export function textOn(/** @type {number[]} */ rgb) {
  const l = luminance(rgb);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#ffffff";
}

const hex = (/** @type {number[]} */ rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, "0")).join("")}`;

const LADDER = "#0072B2";
const CHUTE = "#D55E00";
const TRAP = "#8B0000";
const SOURCE_GREY = [217, 217, 217];    // draw_board's grey for squares without a value ("0.85")
const FOCUS = "#1a4e8a";

// =========================================================================== in-page model
/**
 * A tiny stand-in for a widget model, for a page with no widget manager: `get`, `set`, `on`,
 * `off`, `save_changes` (which tells the `change:<name>` listeners), `send` (ignored).
 * @param {Record<string, any>} values
 */
export function createModel(values) {
  const data = { ...values };
  /** @type {Map<string, Set<Function>>} */
  const listeners = new Map();
  let changed = new Set();
  const fire = (/** @type {string} */ name) => {
    for (const f of [...(listeners.get(`change:${name}`) ?? [])]) f();
  };
  return {
    get: (/** @type {string} */ name) => data[name],
    set(/** @type {string} */ name, /** @type {any} */ value) {
      if (data[name] !== value) changed.add(name);
      data[name] = value;
    },
    save_changes() {
      const names = changed;
      changed = new Set();
      for (const name of names) fire(name);
    },
    on(/** @type {string} */ event, /** @type {Function} */ f) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)?.add(f);
    },
    off(/** @type {string} */ event, /** @type {Function} */ f) {
      listeners.get(event)?.delete(f);
    },
    send() {},
  };
}

// =========================================================================== the view
const SVG = "http://www.w3.org/2000/svg";
let instances = 0;

/** An element with attributes and children. */
function h(/** @type {string} */ tag, /** @type {Record<string, any>} */ attrs = {},
  /** @type {any[]} */ children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") el.textContent = v;
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children) el.append(child);
  return el;
}

/** An SVG element with attributes. */
function s(/** @type {string} */ tag, /** @type {Record<string, any>} */ attrs = {},
  /** @type {any[]} */ children = []) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined) continue;
    if (k === "text") el.textContent = v;
    else el.setAttribute(k, String(v));
  }
  for (const child of children) el.append(child);
  return el;
}

/** Set an attribute only when it changes (fewer DOM mutations on every edit). */
function attr(/** @type {Element} */ el, /** @type {string} */ name, /** @type {string} */ value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

function text(/** @type {Element} */ el, /** @type {string} */ value) {
  if (el.textContent !== value) el.textContent = value;
}

/** Round numbers for axis ticks: at most `most` steps of 1, 2 or 5 times a power of ten. */
function ticks(/** @type {number} */ hi, /** @type {number} */ most = 7) {
  let step = 1;
  for (let p = 1; ; p *= 10) {
    const found = [1, 2, 5].map((m) => m * p).find((st) => hi / st <= most);
    if (found) { step = found; break; }
  }
  const out = [];
  for (let k = 0; k <= hi + 1e-9; k += step) out.push(k);
  return out;
}

/**
 * Draw the editor for `model` in `el`; return the clean-up function.
 * @param {any} model
 * @param {HTMLElement} el
 * @param {{syncHash?: boolean}} [options]
 */
function view(model, el, { syncHash = false } = {}) {
  const id = `chutes-editor-${(instances += 1)}-${Math.random().toString(36).slice(2, 7)}`;
  const cleanups = [];
  /** @type {Map<string, any>} */
  const cache = new Map();                       // analyses by board key, most recent last
  const analysis = (/** @type {any} */ board) => {
    const key = boardKey(board);
    let result = cache.get(key);
    if (result) cache.delete(key);
    else result = analyse(board);
    cache.set(key, result);
    while (cache.size > 40) cache.delete(cache.keys().next().value);
    return result;
  };

  // ---------------------------------------------------------------- the state
  let state;
  let startProblem = "";
  try {
    state = createState(model.get("board_json"), { name: model.get("board_name") ?? "",
      presets: model.get("presets") ?? {} });
  } catch (error) {
    startProblem = error instanceof Error ? error.message : String(error);
    state = createState({ size: 100, die: 6, overshoot: "stay", bonus_roll: null, jumps: [],
      traps: [] }, { presets: model.get("presets") ?? {} });
  }
  if (syncHash && typeof location !== "undefined" && /board=/.test(location.hash)) {
    state = fromAddress(state);
  }

  // ---------------------------------------------------------------- the page
  el.classList.add("chutes-editor", "chutes-explorer");
  // JupyterLab's command-mode shortcuts (M: markdown cell, Y: code cell, arrows: other cells, ...)
  // must not fire while a key is meant for the editor: Lumino skips what is inside this mark.
  const root = h("div", { class: "chutes-editor-root", "data-lm-suppress-shortcuts": "true" });
  el.append(root);
  const title = h("p", { class: "chutes-editor-title" });
  const preset = h("select", { id: `${id}-preset` });
  const reset = h("button", { type: "button", text: "reset to this board" });
  const die = h("input", { type: "range", id: `${id}-die`, min: DIE_MIN, max: DIE_MAX, step: 1 });
  const dieShown = h("span", { class: "chutes-slider-value", "aria-hidden": "true" });
  const rules = OVERSHOOT_RULES.map((rule) => h("input", { type: "radio", name: `${id}-rule`,
    id: `${id}-rule-${rule}`, value: rule }));
  const bonus = h("select", { id: `${id}-bonus` });
  const trap = h("button", { type: "button", class: "chutes-editor-trap" });
  const remove = h("button", { type: "button", class: "chutes-editor-delete" });
  const undo = h("button", { type: "button", text: "undo", "aria-keyshortcuts": "Control+Z" });
  const redo = h("button", { type: "button", text: "redo", "aria-keyshortcuts": "Control+Y" });
  const keysHelp = h("p", { class: "chutes-editor-help", id: `${id}-help`,
    text: "On the board: the arrow keys move over the squares, Home and End go to the first and " +
      "last square. Enter or Space picks a jump's start, then its end; Escape cancels. Delete " +
      "removes the jump that starts on the square, M moves that jump's end (Shift+M its start), " +
      "T makes the square " +
      "a trap or not. Ctrl+Z undoes, Ctrl+Y redoes. With a mouse: click a square, then another, " +
      "to add a jump; drag a jump's end to move it; click a jump to select it." });
  const board = s("svg", { class: "chutes-editor-board", tabindex: 0, role: "application",
    "aria-roledescription": "board editor", "aria-describedby": `${id}-help` });
  const cursorLine = h("p", { class: "chutes-editor-cursor", "aria-hidden": "true" });
  const message = h("p", { class: "chutes-editor-message", role: "alert" });
  const legend = s("svg", { class: "chutes-editor-legend", role: "img" });
  const readout = h("p", { class: "chutes-editor-readout" });
  const change = h("p", { class: "chutes-editor-change" });
  const chart = s("svg", { class: "chutes-editor-chart", role: "img", viewBox: "0 0 460 250" });
  const lengths = h("p", { class: "chutes-editor-lengths" });
  const edge = h("p", { class: "chutes-editor-edge" });
  const python = h("input", { type: "text", id: `${id}-python`, readonly: true,
    class: "chutes-editor-python", spellcheck: "false" });
  const copy = h("button", { type: "button", text: "copy the line" });
  const copyLink = h("button", { type: "button", text: "copy a link to this board" });
  const live = h("div", { class: "chutes-visually-hidden", role: "status", "aria-live": "polite",
    "aria-atomic": "true" });

  const rulesBox = h("fieldset", { class: "chutes-editor-rules" }, [
    h("legend", { text: "a roll past the end" }),
    ...OVERSHOOT_RULES.map((rule, i) => h("label", { for: `${id}-rule-${rule}` },
      [rules[i], ` ${rule}: ${OVERSHOOT_HELP[rule]}`]))]);
  root.append(
    title,
    h("div", { class: "chutes-editor-controls" }, [
      h("div", { class: "chutes-editor-row" }, [
        h("label", { for: `${id}-preset`, text: "named board" }), preset, reset]),
      h("div", { class: "chutes-slider chutes-editor-die" }, [
        h("label", { for: `${id}-die`, text: "die faces" }), die, dieShown]),
      rulesBox,
      h("div", { class: "chutes-editor-row" }, [
        h("label", { for: `${id}-bonus`, text: "roll again on" }), bonus]),
      h("div", { class: "chutes-editor-row chutes-editor-buttons" }, [trap, remove, undo, redo]),
    ]),
    h("div", { class: "chutes-editor-main" }, [
      h("div", { class: "chutes-editor-left" }, [keysHelp, board, cursorLine, message, legend]),
      h("div", { class: "chutes-editor-results" }, [
      readout, change, chart, lengths, edge,
      h("div", { class: "chutes-editor-row chutes-editor-share" }, [
        h("label", { for: `${id}-python`, text: "the board as a line of Python" }), python, copy,
        ...(syncHash ? [copyLink] : [])]),
      ]),
    ]),
    live,
  );

  // ---------------------------------------------------------------- the board picture
  const layer = {
    size: -1, cells: /** @type {SVGRectElement[]} */ ([]), numbers: /** @type {SVGTextElement[]} */ ([]),
    traps: s("g", { class: "traps" }), arrows: s("g", { class: "jumps" }),
    handles: s("g", { class: "handles" }),
    cursor: s("g", { class: "cursor" }, [s("rect", { class: "outer" }), s("rect", { class: "inner" })]),
    pickRing: s("rect", { class: "pick" }), ghost: s("path", { class: "ghost" }),
    jumpsKey: "", trapsKey: "",
  };
  const markers = s("defs", {}, [
    s("marker", { id: `${id}-ladder-head`, viewBox: "0 0 10 10", refX: 8, refY: 5,
      markerWidth: 0.42, markerHeight: 0.36, markerUnits: "userSpaceOnUse", orient: "auto" },
    [s("path", { d: "M0,0 L10,5 L0,10 z", fill: LADDER })]),
    s("marker", { id: `${id}-chute-head`, viewBox: "0 0 10 10", refX: 8, refY: 5,
      markerWidth: 0.42, markerHeight: 0.42, markerUnits: "userSpaceOnUse", orient: "auto" },
    [s("path", { d: "M1,1 L9,5 L1,9", fill: "none", stroke: CHUTE, "stroke-width": 1.8 })]),
  ]);

  /** The centre of a square in the picture (y grows downwards, row 0 at the bottom). */
  const centre = (/** @type {number} */ square) => {
    const { rows } = grid(state.board.size);
    const { row, col } = place(square, state.board.size);
    return square === 0 ? [-0.75, rows - 0.5] : [col + 0.5, rows - row - 0.5];
  };

  function buildBoard() {
    const n = state.board.size;
    const { rows, cols } = grid(n);
    layer.size = n;
    layer.jumpsKey = "";
    layer.trapsKey = "";
    board.replaceChildren();
    const pad = 0.06;
    attr(board, "viewBox", `${-1.3 - pad} ${-pad} ${cols + 1.3 + 2 * pad} ${rows + 0.45 + 2 * pad}`);
    // about 48 px a square on 100 squares, 40 on 400 (numbers of 13 px or more), never wider
    // than its column
    const px = Math.round(Math.max(480, Math.min(880, 40 * (cols + 1.4), 48 * (cols + 1.4))));
    board.style.width = `${px}px`;
    const cells = s("g", { class: "cells" });
    const numbers = s("g", { class: "numbers" });
    layer.cells = [];
    layer.numbers = [];
    const font = String(n).length > 3 ? 0.27 : 0.34;
    for (let sq = 0; sq <= n; sq += 1) {
      const [x, y] = centre(sq);
      const w = sq === 0 ? 0.9 : 1;
      const cell = s("rect", { x: x - w / 2, y: y - 0.5, width: w, height: 1, "data-square": sq,
        class: "cell" });
      cells.append(cell);
      layer.cells.push(cell);
      const number = s("text", { x: x - w / 2 + 0.06, y: y - 0.5 + 0.06 + font * 0.8,
        "font-size": font, class: "number", text: String(sq) });
      numbers.append(number);
      layer.numbers.push(number);
    }
    const [sx, sy] = centre(0);
    const startLabel = s("text", { x: sx, y: sy + 0.5 + 0.36, "font-size": 0.3,
      "text-anchor": "middle", class: "start-label", text: "start" });
    // The numbers lie above the arrows and the cursor on a halo of the opposite shade, as in
    // draw_board, so nothing hides one; the handles lie above them (numbers take no clicks).
    board.append(markers, cells, layer.traps, layer.arrows, layer.ghost, layer.pickRing,
      layer.cursor, numbers, layer.handles, startLabel);
    for (const g of [cells, numbers, layer.traps, layer.arrows, layer.handles]) {
      g.setAttribute("aria-hidden", "true");
    }
  }

  function drawJumps() {
    const { jumps } = state.board;
    const key = JSON.stringify([jumps, state.selected]);
    if (key === layer.jumpsKey) return;
    layer.jumpsKey = key;
    const arrows = [];
    const handles = [];
    for (const [a, b] of jumps) {
      const ladder = b > a;
      const [x1, y1] = centre(a);
      const [x2, y2] = centre(b);
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const gx = (0.12 * (x2 - x1)) / len;
      const gy = (0.12 * (y2 - y1)) / len;
      const [p, q, r, t] = [x1 + gx, y1 + gy, x2 - gx, y2 - gy];
      const rad = ladder ? 0.15 : -0.2;               // draw_board's arcs
      const cx = (p + r) / 2 + rad * (t - q);
      const cy = (q + t) / 2 - rad * (r - p);
      const d = `M${p.toFixed(3)},${q.toFixed(3)} Q${cx.toFixed(3)},${cy.toFixed(3)} ` +
        `${r.toFixed(3)},${t.toFixed(3)}`;
      const chosen = state.selected === a;
      const colour = ladder ? LADDER : CHUTE;
      const g = s("g", { class: `jump ${ladder ? "ladder" : "chute"}${chosen ? " selected" : ""}`,
        "data-source": a, "data-destination": b });
      g.append(
        s("path", { d, class: "halo", stroke: "#ffffff", "stroke-width": chosen ? 0.26 : 0.16,
          "stroke-opacity": 0.85, fill: "none" }),
        s("path", { d, class: "line", stroke: colour, "stroke-width": chosen ? 0.12 : 0.07,
          fill: "none", "stroke-dasharray": ladder ? null : "0.18 0.09",
          "marker-end": `url(#${id}-${ladder ? "ladder" : "chute"}-head)` }),
        s("path", { d, class: "hit", stroke: "transparent", "stroke-width": 0.16, fill: "none" }),
      );
      arrows.push(g);
      handles.push(
        s("circle", { cx: p, cy: q, r: chosen ? 0.13 : 0.09, class: "handle source",
          fill: chosen ? "#ffffff" : colour, stroke: colour, "stroke-width": 0.05,
          "data-source": a, "data-end": "source" }),
        s("circle", { cx: r, cy: t, r: chosen ? 0.13 : 0.22, class: "handle destination",
          fill: chosen ? "#ffffff" : "transparent", stroke: chosen ? colour : "none",
          "stroke-width": 0.05, "data-source": a, "data-end": "destination" }),
      );
    }
    layer.arrows.replaceChildren(...arrows);
    layer.handles.replaceChildren(...handles);
  }

  function drawTraps() {
    const key = JSON.stringify(state.board.traps);
    if (key === layer.trapsKey) return;
    layer.trapsKey = key;
    const marks = [];
    for (const t of state.board.traps) {
      const [x, y] = centre(t);
      marks.push(s("rect", { x: x - 0.5, y: y - 0.5, width: 1, height: 1, fill: TRAP,
        stroke: "#595959", "stroke-width": 0.02 }),
      s("path", { d: `M${x - 0.3},${y - 0.3} L${x + 0.3},${y + 0.3} M${x + 0.3},${y - 0.3} ` +
        `L${x - 0.3},${y + 0.3}`, stroke: "#ffffff", "stroke-width": 0.08 }));
    }
    layer.traps.replaceChildren(...marks);
  }

  function drawCells(/** @type {Float64Array} */ expected) {
    const { board: b } = state;
    const sources = new Set(b.jumps.map(([a]) => a));
    const traps = new Set(b.traps);
    let top = 0;
    for (let sq = 0; sq <= b.size; sq += 1) if (!sources.has(sq)) top = Math.max(top, expected[sq]);
    for (let sq = 0; sq <= b.size; sq += 1) {
      let rgb = sources.has(sq) ? SOURCE_GREY : viridis(top > 0 ? expected[sq] / top : 0);
      if (traps.has(sq)) rgb = [139, 0, 0];
      const ink = textOn(rgb);
      attr(layer.cells[sq], "fill", hex(rgb));
      attr(layer.numbers[sq], "fill", ink);
      attr(layer.numbers[sq], "stroke", ink === "#000000" ? "#ffffff" : "#000000");
    }
    return top;
  }

  function drawCursor() {
    const sq = state.cursor;
    const [x, y] = centre(sq);
    const w = sq === 0 ? 0.9 : 1;
    // a dark blue frame with a white line inside it: 3:1 or more against any cell colour
    const [outer, inner] = layer.cursor.children;
    for (const [frame, inset] of [[outer, 0.06], [inner, 0.13]]) {
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
    const [fx, fy] = centre(from);
    const fw = from === 0 ? 0.9 : 1;
    for (const [k, v] of Object.entries({ x: fx - fw / 2 + 0.03, y: fy - 0.47, width: fw - 0.06,
      height: 0.94 })) attr(layer.pickRing, k, v.toFixed(3));
    attr(layer.pickRing, "visibility", "visible");
    attr(layer.ghost, "d", `M${fx},${fy} L${x},${y}`);
    attr(layer.ghost, "visibility", from === sq ? "hidden" : "visible");
  }

  // ---------------------------------------------------------------- the chart
  function drawChart(/** @type {any} */ result) {
    const { summary } = result;
    const cdf = summary.cdf;
    let last = cdf.length - 1;
    for (let k = 0; k < cdf.length; k += 1) if (cdf[k] >= 0.995) { last = k; break; }
    const kmax = Math.max(10, last, (summary.shortest ?? 0) + 5);
    const [left, right, top, bottom] = [52, 444, 16, 204];
    const X = (/** @type {number} */ k) => left + ((right - left) * k) / kmax;
    const Y = (/** @type {number} */ p) => bottom - (bottom - top) * p;
    let d = `M${X(0)},${Y(0)}`;
    for (let k = 1; k <= kmax; k += 1) {
      const p = k < cdf.length ? cdf[k] : cdf[cdf.length - 1];
      d += ` H${X(k).toFixed(2)} V${Y(p).toFixed(2)}`;
    }
    const parts = [s("title", { text: chartWords(result, kmax) })];
    for (const p of [0, 0.25, 0.5, 0.75, 1]) {
      parts.push(s("line", { x1: left, x2: right, y1: Y(p), y2: Y(p), stroke: "#d0d0d0",
        "stroke-width": 1 }),
      s("text", { x: left - 6, y: Y(p) + 4, "text-anchor": "end", class: "tick",
        text: p.toFixed(2) }));
    }
    for (const k of ticks(kmax)) {
      parts.push(s("line", { x1: X(k), x2: X(k), y1: bottom, y2: bottom + 4, stroke: "#1a1a1a" }),
        s("text", { x: X(k), y: bottom + 17, "text-anchor": "middle", class: "tick",
          text: String(k) }));
    }
    parts.push(
      s("line", { x1: left, x2: right, y1: bottom, y2: bottom, stroke: "#1a1a1a" }),
      s("line", { x1: left, x2: left, y1: top, y2: bottom, stroke: "#1a1a1a" }),
      s("text", { x: (left + right) / 2, y: 244, "text-anchor": "middle", class: "axis",
        text: "k, turns" }),
      s("text", { x: 12, y: (top + bottom) / 2, "text-anchor": "middle", class: "axis",
        transform: `rotate(-90 12 ${(top + bottom) / 2})`, text: "P(T ≤ k)" }),
      s("path", { d, fill: "none", stroke: FOCUS, "stroke-width": 2.2, class: "cdf" }),
    );
    if (summary.shortest !== null) {
      const x = X(summary.shortest);
      parts.push(s("line", { x1: x, x2: x, y1: top, y2: bottom, stroke: "#1a1a1a",
        "stroke-dasharray": "2 3", "stroke-width": 1.4 }),
      s("text", { x: x + 4, y: top + 12, class: "mark", text: `shortest ${summary.shortest}` }));
    }
    if (summary.median !== null) {
      const x = X(summary.median);
      parts.push(s("line", { x1: x, x2: x, y1: Y(0.5), y2: bottom, stroke: "#1a1a1a",
        "stroke-dasharray": "7 3", "stroke-width": 1.4 }),
      s("line", { x1: left, x2: x, y1: Y(0.5), y2: Y(0.5), stroke: "#1a1a1a",
        "stroke-dasharray": "7 3", "stroke-width": 1.4 }),
      s("circle", { cx: x, cy: Y(0.5), r: 3.5, fill: "#1a1a1a" }),
      s("text", { x: x + 6, y: Y(0.5) + 16, class: "mark", text: `median ${summary.median}` }));
    }
    chart.replaceChildren(...parts);
    attr(chart, "aria-label", chartWords(result, kmax));
  }

  /** The first k with P(T <= k) >= q. */
  const quantile = (/** @type {ArrayLike<number>} */ cdf, /** @type {number} */ q) => {
    for (let k = 0; k < cdf.length; k += 1) if (cdf[k] >= q) return k;
    return cdf.length - 1;
  };

  function chartWords(/** @type {any} */ result, /** @type {number} */ kmax) {
    const { summary } = result;
    const cdf = summary.cdf;
    const atEnd = cdf[Math.min(kmax, cdf.length - 1)];
    return `Chart of the chance that a one-player game is over within k turns, P(T ≤ k), for k ` +
      `from 0 to ${kmax}: it rises from 0 to ${atEnd.toFixed(3)}. The shortest game takes ` +
      `${turns(summary.shortest)}, the median game ${turns(summary.median)}, and 90% of games ` +
      `are over within ${turns(quantile(cdf, 0.9))}.`;
  }

  // ---------------------------------------------------------------- controls
  function drawControls() {
    const b = state.board;
    const options = state.presets.map(([name]) => name);
    if (JSON.stringify(options) !== preset.dataset.options) {
      preset.dataset.options = JSON.stringify(options);
      preset.replaceChildren(...options.map((name) => h("option", { value: name, text: name })));
    }
    if (state.name && options.includes(state.name)) preset.value = state.name;
    reset.disabled = options.length === 0;
    const m = faces(b.die);
    const fair = !Array.isArray(b.die);
    die.value = String(Math.max(DIE_MIN, Math.min(DIE_MAX, m)));
    const dieText = fair ? `${m} faces` : `a weighted die with ${m} faces`;
    attr(die, "aria-valuetext", dieText);
    text(dieShown, dieText);
    for (const input of rules) input.checked = input.value === b.overshoot;
    const weights = Array.isArray(b.die) ? b.die : new Array(m).fill(1);
    const bonusOptions = ["none", ...weights.map((w, i) => (w > 0 ? String(i + 1) : null))
      .filter((x) => x !== null)];
    if (JSON.stringify(bonusOptions) !== bonus.dataset.options) {
      bonus.dataset.options = JSON.stringify(bonusOptions);
      bonus.replaceChildren(...bonusOptions.map((v) => h("option", { value: v === "none" ? "" : v,
        text: v })));
    }
    bonus.value = b.bonus_roll === null ? "" : String(b.bonus_roll);
    const c = state.cursor;
    text(trap, b.traps.includes(c) ? `remove the trap on square ${c}` : `make square ${c} a trap`);
    const target = jumpFrom(b, c) !== null ? c : state.selected;
    remove.disabled = target === null;
    text(remove, target === null ? "delete jump" :
      `delete jump ${target} to ${jumpFrom(b, target)}`);
    undo.disabled = state.past.length === 0;
    redo.disabled = state.future.length === 0;
  }

  // ---------------------------------------------------------------- drawing a state
  let shown = /** @type {number | null} */ (null);   // expected turns from 0 on the page
  let drawnRevision = -1;
  let saidNotice = 0;
  let lastResult = null;

  function draw() {
    const b = state.board;
    if (layer.size !== b.size) buildBoard();
    const boardChanged = state.revision !== drawnRevision;
    let result = lastResult;
    if (boardChanged || !result) {
      result = analysis(b);
      if ("error" in result) {                       // never: states hold valid boards only
        text(message, result.error);
        return;
      }
      lastResult = result;
      const top = drawCells(result.expected);
      drawTraps();
      drawLegend(top);
      drawChart(result);
      const now = result.expected[0];
      const was = shown;
      shown = now;
      text(readout, `Expected length of a one-player game: ${now.toFixed(4)} turns` +
        (was === null || was === now ? "" : ` (was ${was.toFixed(4)}, ` +
          `change ${now - was > 0 ? "+" : "−"}${Math.abs(now - was).toFixed(4)})`));
      if (state.edit && drawnRevision >= 0) {
        const words = announcement(state.edit, now, was);
        text(change, `Last change: ${words}.`);
        text(live, words);
      } else if (!change.textContent) {
        text(change, "Last change: none yet.");
      }
      const { summary } = result;
      text(lengths, `Shortest game: ${turns(summary.shortest)}. Median game: ` +
        `${turns(summary.median)} (half the games are over by then). 90% of games are over ` +
        `within ${turns(quantile(summary.cdf, 0.9))}. Mean: ${now.toFixed(2)} turns.`);
      text(edge, result.edge === null
        ? "First player's edge in a two-player race: not computed on a board with traps (a " +
          "race there can end with nobody winning)."
        : `First player's edge in a two-player race from square 0: the first player wins ` +
          `${(100 * (0.5 + result.edge)).toFixed(2)}% of races, ` +
          `${(100 * result.edge).toFixed(2)} percentage points more than a fair half.`);
      python.value = boardToPython(b);
      const ladders = b.jumps.filter(([a, d]) => d > a).length;
      attr(board, "aria-label", `Board, ${b.size} squares with ${ladders} ladders, ` +
        `${b.jumps.length - ladders} chutes and ${b.traps.length} traps`);
      const first = drawnRevision < 0;
      drawnRevision = state.revision;
      // The address follows the edits (not the first drawing: opening a page changes nothing).
      if (syncHash && !first && typeof history !== "undefined") {
        const hash = `#board=${encodeBoard(b)}`;
        if (location.hash !== hash) history.replaceState(null, "", hash);
      }
    }
    text(title, `Board editor: ${state.name || "your board"}`);
    drawJumps();
    drawCursor();
    drawControls();
    const where = describeSquare(b, state.cursor, result.expected, state.pick);
    text(cursorLine, `Cursor: ${where}.`);
    text(message, state.message || model.get("message") || startProblem);
    message.classList.toggle("chutes-editor-message-shown", Boolean(message.textContent));
    if (state.notices !== saidNotice) {
      saidNotice = state.notices;
      text(live, state.notice ?? "");
    }
    return where;
  }

  function drawLegend(/** @type {number} */ top) {
    const stops = [];
    for (let i = 0; i <= 8; i += 1) {
      stops.push(s("stop", { offset: `${i * 12.5}%`, "stop-color": hex(viridis(i / 8)) }));
    }
    const gid = `${id}-scale`;
    const words = `Key: colour shows the expected turns to finish from each square, from 0 ` +
      `(dark purple) to ${top.toFixed(1)} (yellow); grey squares are the start of a jump (a ` +
      `token never stops there); a dark red square with a white cross is a trap; a solid blue ` +
      `arrow with a filled head is a ladder, a dashed orange arrow with an open head a chute.`;
    legend.replaceChildren(
      s("title", { text: words }),
      s("defs", {}, [s("linearGradient", { id: gid }, stops)]),
      s("text", { x: 0, y: 13, class: "legend-text", text: "expected turns to finish" }),
      s("rect", { x: 0, y: 20, width: 200, height: 14, fill: `url(#${gid})`, stroke: "#595959" }),
      s("text", { x: 0, y: 48, class: "legend-text", text: "0" }),
      s("text", { x: 200, y: 48, "text-anchor": "end", class: "legend-text", text: top.toFixed(1) }),
      s("rect", { x: 230, y: 20, width: 14, height: 14, fill: hex(SOURCE_GREY), stroke: "#595959" }),
      s("text", { x: 250, y: 32, class: "legend-text", text: "jump start" }),
      s("rect", { x: 330, y: 20, width: 14, height: 14, fill: TRAP, stroke: "#595959" }),
      s("path", { d: "M333,23 L341,31 M341,23 L333,31", stroke: "#ffffff", "stroke-width": 1.6 }),
      s("text", { x: 350, y: 32, class: "legend-text", text: "trap" }),
      s("line", { x1: 230, x2: 262, y1: 44, y2: 44, stroke: LADDER, "stroke-width": 2.5 }),
      s("path", { d: "M262,39 L270,44 L262,49 z", fill: LADDER }),
      s("text", { x: 276, y: 48, class: "legend-text", text: "ladder" }),
      s("line", { x1: 330, x2: 362, y1: 44, y2: 44, stroke: CHUTE, "stroke-width": 2.5,
        "stroke-dasharray": "6 3" }),
      s("path", { d: "M362,39 L370,44 L362,49", fill: "none", stroke: CHUTE, "stroke-width": 2 }),
      s("text", { x: 376, y: 48, class: "legend-text", text: "chute" }),
    );
    attr(legend, "viewBox", "0 0 430 54");
    attr(legend, "aria-label", words);
  }

  // ---------------------------------------------------------------- actions
  let pushing = false;           // our own model.set calls: not news from Python
  function push() {
    pushing = true;
    try {
      model.set("board_json", state.board);
      model.set("board_name", state.name);
      if (model.get("message")) model.set("message", "");
      model.save_changes();
    } finally {
      pushing = false;
    }
  }

  function dispatch(/** @type {any} */ action) {
    const before = state;
    state = update(state, action);
    if (state.revision !== before.revision) push();
    if (state !== before) draw();
  }

  // Python (or the page's owner) set the board, the presets or a message.
  const fromModel = () => {
    if (pushing) return;
    const incoming = model.get("board_json");
    if (!incoming || typeof incoming !== "object") return;
    if (boardKey(incoming) === boardKey(state.board) && (model.get("board_name") ?? "") === state.name) {
      return;
    }
    state = update(state, { type: "load", board: incoming, name: model.get("board_name") ?? "",
      origin: "python" });
    draw();
  };
  const fromPresets = () => {
    state = update(state, { type: "presets", presets: model.get("presets") ?? {} });
    draw();
  };
  const fromMessage = () => draw();
  for (const [event, f] of [["change:board_json", fromModel], ["change:board_name", fromModel],
    ["change:presets", fromPresets], ["change:message", fromMessage]]) {
    model.on(event, f);
    cleanups.push(() => model.off(event, f));
  }

  function fromAddress(/** @type {any} */ current) {
    const found = /board=([^&]*)/.exec(location.hash);
    if (!found) return current;
    let decoded;
    try {
      decoded = decodeBoard(found[1]);
    } catch (error) {
      return { ...current, message: `the page address holds no board the editor can read: ` +
        `${error instanceof Error ? error.message : String(error)}` };
    }
    const next = update(current, { type: "load", board: decoded, origin: "address" });
    if (next.message && next.revision === current.revision) {
      return { ...next, message: `the page address holds a board the library refuses: ${next.message}` };
    }
    return next;
  }
  if (syncHash) {
    const onHash = () => {
      if (location.hash === `#board=${encodeBoard(state.board)}`) return;
      const before = state;
      state = fromAddress(state);
      if (state.revision !== before.revision) push();
      draw();
    };
    window.addEventListener("hashchange", onHash);
    cleanups.push(() => window.removeEventListener("hashchange", onHash));
  }

  // keys on the board
  board.addEventListener("keydown", (event) => {
    const e = /** @type {KeyboardEvent} */ (event);
    if (e.ctrlKey || e.metaKey || e.altKey) return;        // undo and redo: below
    const key = e.key;
    let action = null;
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(key)) {
      action = { type: "key", key };
    } else if (key === "Enter" || key === " ") action = { type: "pick" };
    else if (key === "Escape") action = { type: "cancel" };
    else if (key === "Delete" || key === "Backspace") action = { type: "remove" };
    else if (key === "t" || key === "T") action = { type: "trap" };
    else if (key === "m" || key === "M") {
      action = { type: "grab", source: state.cursor, end: key === "M" ? "source" : "destination" };
    }
    if (!action) return;
    e.preventDefault();
    const before = state;
    dispatch(action);
    if (action.type === "key" && state !== before) text(live, `${describeSquare(state.board, state.cursor,
      lastResult?.expected ?? null, state.pick)}`);
  });
  root.addEventListener("keydown", (event) => {
    const e = /** @type {KeyboardEvent} */ (event);
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    const target = /** @type {HTMLElement} */ (e.target);
    if (target === python) return;
    const k = e.key.toLowerCase();
    if (k === "z" && !e.shiftKey) dispatch({ type: "undo" });
    else if (k === "y" || (k === "z" && e.shiftKey)) dispatch({ type: "redo" });
    else return;
    e.preventDefault();
  });

  // the mouse on the board
  const squareAtPoint = (/** @type {PointerEvent} */ e) => {
    const matrix = board.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(e.clientX, e.clientY).matrixTransform(matrix.inverse());
    const { rows } = grid(state.board.size);
    const row = rows - 1 - Math.floor(point.y);
    if (row === 0 && point.x >= -1.2 && point.x < -0.3) return 0;
    return squareAt(row, Math.floor(point.x), state.board.size);
  };
  let drag = /** @type {any} */ (null);
  board.addEventListener("pointerdown", (event) => {
    const e = /** @type {PointerEvent} */ (event);
    if (e.button !== 0) return;
    const target = /** @type {Element} */ (e.target);
    const handle = target.closest(".handle");
    const jump = target.closest(".jump");
    drag = { x: e.clientX, y: e.clientY, square: squareAtPoint(e), moved: false,
      source: handle ? Number(handle.getAttribute("data-source")) : null,
      end: handle ? handle.getAttribute("data-end") : null,
      jump: jump ? Number(jump.getAttribute("data-source")) : null };
    if (handle) {
      board.setPointerCapture(e.pointerId);
      e.preventDefault();
      board.focus();
    }
  });
  board.addEventListener("pointermove", (event) => {
    const e = /** @type {PointerEvent} */ (event);
    if (!drag || drag.source === null) return;
    if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 4 && !drag.moved) return;
    const sq = squareAtPoint(e);
    if (!drag.moved) {
      drag.moved = true;
      state = update(state, { type: "grab", source: drag.source, end: drag.end });
    }
    if (sq !== null && sq !== state.cursor) {
      state = update(state, { type: "goto", square: sq });
      draw();
    }
  });
  const endDrag = (/** @type {PointerEvent} */ e, /** @type {boolean} */ cancelled) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (d.source !== null && d.moved) {
      const sq = cancelled ? null : squareAtPoint(e);
      if (sq === null) dispatch({ type: "cancel" });
      else dispatch({ type: "pick", square: sq });       // drops the grabbed end (or refuses)
      return;
    }
    if (cancelled) return;
    // A click: on a jump's line it selects the jump; anywhere else (a handle included: handles
    // are for dragging) it picks the square under the pointer.
    if (d.jump !== null && d.source === null) {
      dispatch({ type: "select", source: d.jump });
      return;
    }
    const sq = squareAtPoint(e);
    if (sq !== null && sq === d.square) dispatch({ type: "pick", square: sq });
  };
  board.addEventListener("pointerup", (e) => endDrag(/** @type {PointerEvent} */ (e), false));
  board.addEventListener("pointercancel", (e) => endDrag(/** @type {PointerEvent} */ (e), true));

  // the controls
  reset.addEventListener("click", () => dispatch({ type: "reset", name: preset.value }));
  die.addEventListener("input", () => {
    dispatch({ type: "die", faces: Number(die.value) });
    if (state.message) drawControls();                 // a refused die: the slider goes back
  });
  for (const input of rules) {
    input.addEventListener("change", () => {
      if (input.checked) dispatch({ type: "overshoot", rule: input.value });
      drawControls();
    });
  }
  bonus.addEventListener("change", () => {
    dispatch({ type: "bonus", face: bonus.value === "" ? null : Number(bonus.value) });
    drawControls();
  });
  trap.addEventListener("click", () => dispatch({ type: "trap" }));
  remove.addEventListener("click", () => dispatch({ type: "remove" }));
  undo.addEventListener("click", () => dispatch({ type: "undo" }));
  redo.addEventListener("click", () => dispatch({ type: "redo" }));
  const copyText = async (/** @type {string} */ value, /** @type {string} */ done) => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      python.select();
      document.execCommand?.("copy");
    }
    text(live, done);
  };
  copy.addEventListener("click", () => copyText(python.value, "the line of Python is copied"));
  copyLink.addEventListener("click", () => copyText(location.href, "the link to this board is copied"));

  draw();
  if (syncHash && state.revision > 0) push();            // the board came from the address
  return () => {
    for (const f of cleanups) f();
    root.remove();
  };
}

/**
 * Run the editor on a page with no widget manager (the course website).
 * @param {HTMLElement} el Where to draw it.
 * @param {{board?: any, presets?: any, name?: string, syncHash?: boolean}} [options]
 *     `board`: a board as JSON or as `encodeBoard` text (default: the first preset, else an
 *     empty 100-square board); `presets`: name -> board JSON (or [name, board] pairs) for the
 *     "named board" menu; `name`: the board's name; `syncHash`: keep the board in the page's
 *     address (`#board=...`) and open the board an address holds.
 * @returns {{model: any, board: () => any, destroy: () => void}} The in-page model (listen with
 *     `model.on("change:board_json", f)`), the current board as JSON, and a way to take it away.
 */
export function mount(el, { board, presets = {}, name = "", syncHash = false } = {}) {
  const list = Array.isArray(presets) ? presets : Object.entries(presets);
  let start = typeof board === "string" ? decodeBoard(board) : board;
  let startName = name;
  if (start === undefined || start === null) {
    [startName, start] = list.length ? [name || list[0][0], list[0][1]]
      : [name, { size: 100, die: 6, overshoot: "stay", bonus_roll: null, jumps: [], traps: [] }];
  }
  const model = createModel({ board_json: start, board_name: startName, presets, message: "" });
  const destroy = view(model, el, { syncHash });
  return { model, board: () => model.get("board_json"), destroy };
}

export default {
  render({ model, el }) {
    return view(model, el);
  },
};
