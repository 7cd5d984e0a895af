/**
 * The editor's state and its undo history: plain data changed only by `update(state, action)`, a
 * pure function that never throws.
 *
 * A state's `board` is always one the editor takes (`checkBoard`); `revision` counts its changes;
 * `edit` is the edit that made it (for the announcement); `message` is the last refusal, one line
 * in the library's words ("" after an edit that was taken); `notice` is something else to tell a
 * screen reader; `way` is how the student last edited ("keyboard" or "mouse"), so that the
 * instructions name their keys or their clicks. Undo and redo walk `past` and `future`
 * (`HISTORY_LIMIT` steps); the board's name follows it (a named board's name while the board
 * equals it, "" for a board of the student's own).
 *
 * @module editor_state
 */
import { boardToPython, BoardError, ranges, refusalLine } from "../../maths/board_math.js";
import {
  boardKey, canonical, checkBoard, HISTORY_LIMIT, jumpFrom, kindOf, MAX_SIZE, MIN_SIZE, presetList,
} from "../../maths/boards.js";
import { moveCursor } from "../../core/geometry.js";

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
    message: "", edit: null, revision: 0, notice: null, notices: 0, way: "keyboard",
  };
}

/** The state with a notice to announce (a counter makes a repeated notice new). */
function say(/** @type {any} */ state, /** @type {string} */ text) {
  return { ...state, notice: text, notices: state.notices + 1 };
}

/** The state after a refused edit: the board unchanged, the library's words as the message. */
function refuse(/** @type {any} */ state, /** @type {string} */ message) {
  return { ...state, message: refusalLine(message), pick: null, edit: null };
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
  const problem = checkBoard(candidate);
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
    `${ranges(board.jumps.map((/** @type {number[]} */ [a]) => a)) || "none"}`;
}

function removeJump(/** @type {any} */ state, /** @type {number} */ source) {
  const board = state.board;
  const b = jumpFrom(board, source);
  if (b === null) return refuse(state, noJump(board, source));
  const candidate = { ...board, jumps: board.jumps.filter((/** @type {number[]} */ [a]) => a !== source) };
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
  const candidate = { ...board, jumps: [...board.jumps.filter((/** @type {number[]} */ [a]) => a !== source), pair] };
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

/**
 * The board with `size` squares: a bigger board keeps everything; a smaller one loses the jumps
 * and traps that no longer fit (a jump from or onto a square past the new final square, or
 * starting on it; a trap past it or on it), and the edit names them, so the student sees what
 * went and can undo it. A size out of the editor's range, or a board the library then refuses,
 * is refused in words.
 */
function resize(/** @type {any} */ state, /** @type {unknown} */ size) {
  const board = state.board;
  if (typeof size !== "number" || !Number.isInteger(size) || size < MIN_SIZE || size > MAX_SIZE) {
    return refuse(state, `the board's size must be a whole number of squares from ${MIN_SIZE} ` +
      `to ${MAX_SIZE}, not ${Number.isFinite(size) ? size : String(size)}`);
  }
  if (size === board.size) return state;
  const fits = (/** @type {number} */ v) => v >= 0 && v < size;
  const jumps = board.jumps.filter((/** @type {number[]} */ [a, b]) => fits(a) && (fits(b) || b === size));
  const traps = board.traps.filter(fits);
  const dropped = [
    ...board.jumps.filter((/** @type {any} */ j) => !jumps.includes(j))
      .map((/** @type {number[]} */ [a, b]) => `${kindOf(a, b)} ${a} to ${b}`),
    ...board.traps.filter((/** @type {number} */ t) => !fits(t)).map((/** @type {number} */ t) => `trap ${t}`),
  ];
  return attempt(state, { ...board, size, jumps, traps }, { kind: "size", size, dropped });
}

/** Undo (`from` "past") or redo (`from` "future"): the board moves between the two histories. */
function travel(/** @type {any} */ state, /** @type {"past" | "future"} */ from) {
  const back = from === "past";
  const source = state[from];
  if (!source.length) return say(state, back ? "nothing to undo" : "nothing to redo");
  const step = source[source.length - 1];
  const other = [...state[back ? "future" : "past"],
    { board: state.board, name: state.name, edit: step.edit }];
  const edit = { kind: back ? "undo" : "redo", edit: step.edit };
  return back ? settle(state, step.board, edit, step.name, source.slice(0, -1), other)
    : settle(state, step.board, edit, step.name, other, source.slice(0, -1));
}

/** Enter, Space or a click on a square: a jump's start, then its end; the start again cancels. */
function pick(/** @type {any} */ state, /** @type {number} */ at) {
  const here = { ...state, cursor: at };
  if (state.pick?.move) {
    return moveJump(here, state.pick.move.source, state.pick.move.end, at);
  }
  if (state.pick) {
    if (state.pick.from === at) return say({ ...here, pick: null }, "jump cancelled");
    return addJump(here, state.pick.from, at);
  }
  const how = state.way === "mouse"
    ? `click the square where it ends (a click on ${at} again cancels)`
    : "go to where it ends and press Enter (Escape cancels)";
  return say({ ...here, pick: { from: at }, selected: null, message: "" },
    `jump from square ${at}: ${how}`);
}

/** Start moving one end of the jump from `source`. */
function grab(/** @type {any} */ state, /** @type {number} */ source, /** @type {string} */ which) {
  const to = jumpFrom(state.board, source);
  if (to === null) return refuse(state, noJump(state.board, source));
  const end = which === "source" ? "source" : "destination";
  const how = state.way === "mouse" ? "drop it on its new square"
    : "go to its new square and press Enter (Escape cancels)";
  return say({ ...state, pick: { move: { source, end } }, selected: source,
    cursor: end === "source" ? source : to, message: "" },
  `moving the ${end === "source" ? "start" : "end"} of the ${kindOf(source, to)} ${source} to ` +
    `${to}: ${how}`);
}

/** Select the jump from `source` (null clears the selection). */
function select(/** @type {any} */ state, /** @type {number | null} */ source) {
  if (source === null) return { ...state, selected: null };
  const to = jumpFrom(state.board, source);
  if (to === null) return state;
  return say({ ...state, selected: source, cursor: source, pick: null },
    `${kindOf(source, to)} ${source} to ${to} selected: Delete removes it`);
}

/** A field of the board set to a value ("die", "overshoot", "bonus_roll"). */
function setField(/** @type {any} */ state, /** @type {string} */ field, /** @type {any} */ value,
  /** @type {any} */ edit) {
  if (value === state.board[field]) return state;
  return attempt(state, { ...state.board, [field]: value }, edit);
}

/** The named boards change (the menu's entries). */
function setPresets(/** @type {any} */ state, /** @type {any} */ given) {
  const presets = presetList(given);
  const names = new Map(state.names);
  for (const [name, b] of presets) names.set(boardKey(b), name);
  return { ...state, presets, names, name: state.name || names.get(boardKey(state.board)) || "" };
}

/** @type {Record<string, (state: any, action: any, at: number) => any>} */
const ACTIONS = {
  key(state, action) {
    const cursor = moveCursor(state.cursor, action.key, state.board.size);
    return cursor === state.cursor ? state : { ...state, cursor, selected: null };
  },
  goto: (state, action) => ({ ...state, cursor: Math.max(0, Math.min(state.board.size, action.square)) }),
  pick: (state, _action, at) => pick(state, at),
  cancel(state) {
    if (!state.pick && state.selected === null) return state;
    return say({ ...state, pick: null, selected: null },
      state.pick ? "jump cancelled" : "nothing selected");
  },
  grab: (state, action) => grab(state, action.source, action.end),
  move: (state, action) => moveJump(state, action.source, action.end, action.square),
  select: (state, action) => select(state, action.source),
  remove(state, action) {
    const { board } = state;
    const source = action.source ?? (jumpFrom(board, state.cursor) !== null ? state.cursor
      : (state.selected ?? state.cursor));
    return removeJump({ ...state, pick: null }, source);
  },
  trap: (state, _action, at) => toggleTrap({ ...state, pick: null }, at),
  die: (state, action) => setField(state, "die", action.faces, { kind: "die", faces: action.faces }),
  overshoot: (state, action) => setField(state, "overshoot", action.rule,
    { kind: "overshoot", rule: action.rule }),
  bonus: (state, action) => setField(state, "bonus_roll", action.face ?? null,
    { kind: "bonus", face: action.face ?? null }),
  size: (state, action) => resize(state, action.size),
  undo: (state) => travel(state, "past"),
  redo: (state) => travel(state, "future"),
  reset(state, action) {
    const preset = state.presets.find((/** @type {[string, any]} */ [name]) => name === action.name);
    if (!preset) return refuse(state, `no named board ${JSON.stringify(action.name)}`);
    return load(state, preset[1], preset[0], { kind: "reset", name: preset[0] });
  },
  load: (state, action) => load(state, action.board, action.name ?? "",
    { kind: "load", origin: action.origin ?? "python" }),
  presets: (state, action) => setPresets(state, action.presets),
  refuse: (state, action) => refuse(state, action.message),
};

/**
 * The editor's one state change: a new state for an action, never an exception.
 *
 * Actions: `{type: "key", key}` (arrows, Home, End: the cursor), `{type: "goto", square}`,
 * `{type: "pick", square?}` (Enter, Space or a click: a jump's start, then its end; the same
 * square again cancels), `{type: "cancel"}` (Escape), `{type: "grab", source, end?}` (start
 * moving a jump's "destination" (default) or "source" end; the next pick drops it),
 * `{type: "move", source, end, square}` (a drag), `{type: "select", source}` (null clears),
 * `{type: "remove", source?}` (Delete: the jump that starts on the cursor's square, or the
 * selected one), `{type: "trap", square?}`, `{type: "die", faces}`, `{type: "size", size}`,
 * `{type: "overshoot", rule}`, `{type: "bonus", face}` (null for none), `{type: "undo"}`,
 * `{type: "redo"}`, `{type: "reset", name}` (a preset), `{type: "load", board, name?, origin?}`
 * (a board from Python or the page address), `{type: "presets", presets}`,
 * `{type: "refuse", message}` (a refusal from outside: the board stays). Any action may carry
 * `way: "mouse" | "keyboard"`: how the student made it.
 * @param {any} state
 * @param {any} action
 * @returns {any}
 */
export function update(state, action) {
  const handler = Object.hasOwn(ACTIONS, action?.type) ? ACTIONS[action.type] : null;
  if (!handler) return state;
  const way = action.way === "mouse" || action.way === "keyboard" ? action.way : state.way;
  const current = way === state.way ? state : { ...state, way };
  const next = handler(current, action, action.square ?? current.cursor);
  return next === current ? state : next;
}

/** The board as one line of Python (maths/board_math.js's `boardToPython`). */
export const pythonLine = (/** @type {any} */ state) => boardToPython(state.board);
