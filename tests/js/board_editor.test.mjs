// The board editor's state logic, words and geometry (chutes_edu/widgets/js/explorers/board_editor/board_editor.js), with
// no DOM: node --test tests/js/ (tests/test_js_parity.py runs it). What needs the Python library
// (the refusals' words against Board's, the geometry against square_center) is in
// tests/test_board_editor.py, which drives this module through Node.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { analyse, validate } from "../../chutes_edu/widgets/js/maths/board_math.js";
import { LIMITS } from "../../chutes_edu/widgets/js/maths/board_math.js";
import { openAddress, readAddress } from "../../chutes_edu/widgets/js/maths/address.js";
import { CUSTOM } from "../../chutes_edu/widgets/js/explorers/board_editor/controls.js";
import {
  announcement,
  boardKey,
  canonical,
  checkBoard,
  createModel,
  createState,
  describeEdit,
  describeSquare,
  DIE_MAX,
  grid,
  HISTORY_LIMIT,
  jumpFrom,
  luminance,
  MAX_SIZE,
  moveCursor,
  place,
  pythonLine,
  squareAt,
  squareAtPoint,
  centre,
  createRunner,
  MIN_SIZE,
  textOn,
  turnsText,
  update,
  viridis,
} from "../../chutes_edu/widgets/js/explorers/board_editor/board_editor.js";

const LADDERS = [[1, 38], [4, 14], [9, 31], [21, 42], [28, 84], [36, 44], [51, 67], [71, 91], [80, 100]];
const CHUTES = [[16, 6], [47, 26], [49, 11], [56, 53], [62, 19], [64, 60], [87, 24], [93, 73], [95, 75], [98, 78]];
const MB1943 = { size: 100, die: 6, overshoot: "stay", bonus_roll: null,
  jumps: [...LADDERS, ...CHUTES], traps: [] };
const SMALL = { size: 10, die: 2, overshoot: "stay", bonus_roll: null, jumps: [[3, 7]], traps: [] };

/** Apply actions in turn. */
const run = (state, ...actions) => actions.reduce(update, state);
const expected0 = (board) => analyse(board).expected[0];

describe("geometry", () => {
  test("the grid has ceil(sqrt(n)) columns, as board_grid", () => {
    for (const [n, rows, cols] of [[100, 10, 10], [400, 20, 20], [10, 3, 4], [2, 1, 2], [30, 5, 6],
      [101, 10, 11], [121, 11, 11], [122, 11, 12]]) {
      assert.deepEqual(grid(n), { rows, cols }, `size ${n}`);
    }
  });

  test("place and squareAt are inverse, rows alternate, square 0 left of square 1", () => {
    for (const n of [2, 3, 7, 10, 30, 99, 100, 101, 400]) {
      const seen = new Set();
      for (let sq = 0; sq <= n; sq += 1) {
        const { row, col } = place(sq, n);
        assert.equal(squareAt(row, col, n), sq, `size ${n}, square ${sq}`);
        seen.add(`${row},${col}`);
      }
      assert.equal(seen.size, n + 1);
      assert.deepEqual(place(0, n), { row: 0, col: -1 });
      assert.deepEqual(place(1, n), { row: 0, col: 0 });
    }
    assert.deepEqual(place(100, 100), { row: 9, col: 0 });      // top left, as on the printed board
    assert.deepEqual(place(11, 100), { row: 1, col: 9 });
    assert.equal(squareAt(5, 20, 100), null);
  });

  test("arrows move in the picture's directions and every square is reachable", () => {
    assert.equal(moveCursor(1, "ArrowLeft", 100), 0);
    assert.equal(moveCursor(0, "ArrowRight", 100), 1);
    assert.equal(moveCursor(0, "ArrowLeft", 100), 0);
    assert.equal(moveCursor(1, "ArrowUp", 100), 20);
    assert.equal(moveCursor(0, "ArrowUp", 100), 20);
    assert.equal(moveCursor(20, "ArrowDown", 100), 1);
    assert.equal(moveCursor(11, "ArrowRight", 100), 11);          // the right edge of row 1
    assert.equal(moveCursor(12, "ArrowRight", 100), 11);
    assert.equal(moveCursor(100, "ArrowUp", 100), 100);
    assert.equal(moveCursor(42, "Home", 100), 0);
    assert.equal(moveCursor(42, "End", 100), 100);
    assert.equal(moveCursor(42, "x", 100), 42);
    for (const n of [2, 10, 30, 100, 101]) {
      const reached = new Set([0]);
      const todo = [0];
      while (todo.length) {
        const sq = todo.pop();
        for (const key of ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"]) {
          const next = moveCursor(sq, key, n);
          const a = place(sq, n);
          const b = place(next, n);
          if (next !== sq && sq !== 0 && next !== 0) {          // one step, in that direction
            const step = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [1, 0],
              ArrowDown: [-1, 0] }[key];
            assert.deepEqual([b.row - a.row, b.col - a.col], step, `size ${n}: ${sq} ${key}`);
          }
          if (!reached.has(next)) { reached.add(next); todo.push(next); }
        }
      }
      assert.equal(reached.size, n + 1, `size ${n}`);
    }
  });
});

describe("boards", () => {
  test("canonical sorts jumps and traps and fills the defaults", () => {
    assert.deepEqual(canonical({ jumps: [[9, 2], [3, 7]], traps: [8, 5, 8] }),
      { size: 100, die: 6, overshoot: "stay", bonus_roll: null, jumps: [[3, 7], [9, 2]], traps: [5, 8] });
    assert.equal(boardKey({ size: 10, jumps: [[3, 7]] }), boardKey(canonical({ size: 10, jumps: [[3, 7]] })));
  });

  test("checkBoard is validate, plus the editor's size limit", () => {
    assert.equal(checkBoard(MB1943), null);
    assert.equal(checkBoard({ ...SMALL, jumps: [[3, 7], [7, 2]] }), validate({ ...SMALL, jumps: [[3, 7], [7, 2]] }));
    assert.match(checkBoard({ size: MAX_SIZE + 1 }), /up to 1000 squares/);
    assert.match(checkBoard(null), /must be an object/);
  });

  test("createState refuses an invalid board with the library's words", () => {
    assert.throws(() => createState({ ...SMALL, jumps: [[0, 4]] }),
      { message: validate({ ...SMALL, jumps: [[0, 4]] }) });
  });
});

describe("edits", () => {
  const start = () => createState(MB1943, { name: "Milton Bradley 1943",
    presets: { "Milton Bradley 1943": MB1943, small: SMALL } });

  test("picking two squares adds a jump; the cursor ends on its destination", () => {
    const s = run(start(), { type: "pick", square: 30 }, { type: "pick", square: 35 });
    assert.deepEqual(s.board, canonical({ ...MB1943, jumps: [...MB1943.jumps, [30, 35]] }));
    assert.deepEqual(s.edit, { kind: "add", a: 30, b: 35 });
    assert.equal(s.message, "");
    assert.equal(s.revision, 1);
    assert.equal(s.cursor, 35);
    assert.equal(s.name, "");                                    // no longer the named board
    assert.equal(s.pick, null);
  });

  test("the same square twice cancels; Escape cancels", () => {
    let s = run(start(), { type: "pick", square: 30 });
    assert.deepEqual(s.pick, { from: 30 });
    assert.match(s.notice, /jump from square 30/);
    s = update(s, { type: "pick", square: 30 });
    assert.equal(s.pick, null);
    assert.equal(s.revision, 0);
    s = run(s, { type: "pick", square: 30 }, { type: "cancel" });
    assert.equal(s.pick, null);
    assert.equal(s.notice, "jump cancelled");
  });

  test("keys move the cursor and pick at it", () => {
    const s = run(start(), { type: "key", key: "ArrowRight" }, { type: "key", key: "ArrowRight" },
      { type: "pick" }, { type: "key", key: "ArrowUp" }, { type: "pick" });
    assert.ok(s.board.jumps.some(([a, b]) => a === 2 && b === 19), JSON.stringify(s.board.jumps));
  });

  for (const [label, a, b] of [["onto another jump's source", 3, 4], ["from another jump's source", 4, 20],
    ["from square 0", 0, 20], ["from the final square", 100, 20], ["onto its own square", 30, 30]]) {
    test(`a jump ${label} is refused with validate's words, the board unchanged`, () => {
      const before = start();
      const s = update({ ...before, pick: { from: a } }, { type: "pick", square: b });
      if (a === b) {                                             // the same square: a cancel
        assert.equal(s.revision, 0);
        return;
      }
      assert.equal(s.message, validate({ ...MB1943, jumps: [...canonical(MB1943).jumps, [a, b]] }));
      assert.ok(s.message.length > 10);
      assert.equal(s.board, before.board);
      assert.equal(s.revision, 0);
      assert.equal(s.edit, null);
      assert.equal(s.past.length, 0);
    });
  }

  test("a board no game can finish is refused", () => {
    const small = createState({ size: 10, die: 2, overshoot: "stay", bonus_roll: null, jumps: [[9, 1]], traps: [] });
    const s = run(small, { type: "pick", square: 8 }, { type: "pick", square: 1 });
    assert.match(s.message, /^unfinishable board/);
    assert.equal(s.message, validate({ ...small.board, jumps: [[9, 1], [8, 1]] }));
    assert.equal(s.revision, 0);
  });

  test("Delete removes the jump at the cursor, or says there is none in without_jump's words", () => {
    let s = run(start(), { type: "goto", square: 28 }, { type: "remove" });
    assert.equal(jumpFrom(s.board, 28), null);
    assert.deepEqual(s.edit, { kind: "remove", a: 28, b: 84 });
    s = run(s, { type: "goto", square: 30 }, { type: "remove" });
    assert.equal(s.message, "no jump starts on square 30; the sources are 1, 4, 9, 16, 21, 36, " +
      "47, 49, 51, 56, 62, 64, 71, 80, 87, 93, 95, 98");
    const none = run(createState({ size: 10 }), { type: "remove" });
    assert.equal(none.message, "no jump starts on square 0; the sources are none");
  });

  test("a selected jump is deleted; selecting moves the cursor to its source", () => {
    const s = run(start(), { type: "select", source: 47 });
    assert.equal(s.selected, 47);
    assert.equal(s.cursor, 47);
    const t = update(s, { type: "remove" });
    assert.equal(jumpFrom(t.board, 47), null);
    assert.equal(t.selected, null);
  });

  test("moving either end of a jump, and a refused move snaps back", () => {
    let s = update(start(), { type: "move", source: 28, end: "destination", square: 76 });
    assert.equal(jumpFrom(s.board, 28), 76);
    assert.deepEqual(s.edit, { kind: "move", from: [28, 84], to: [28, 76] });
    s = update(s, { type: "move", source: 28, end: "source", square: 29 });
    assert.equal(jumpFrom(s.board, 28), null);
    assert.equal(jumpFrom(s.board, 29), 76);
    const refused = update(s, { type: "move", source: 29, end: "destination", square: 80 });
    assert.equal(refused.board, s.board);
    assert.equal(refused.message, validate({ ...s.board,
      jumps: [...s.board.jumps.filter(([a]) => a !== 29), [29, 80]] }));
    // with the keyboard: M picks up the end, Enter drops it
    const k = run(start(), { type: "goto", square: 28 }, { type: "grab", source: 28 },
      { type: "key", key: "ArrowDown" }, { type: "pick" });
    assert.equal(jumpFrom(k.board, 28), moveCursor(84, "ArrowDown", 100));
  });

  test("traps toggle; a trap on a jump's source is refused", () => {
    let s = run(start(), { type: "goto", square: 50 }, { type: "trap" });
    assert.deepEqual(s.board.traps, [50]);
    assert.deepEqual(s.edit, { kind: "trap", square: 50, on: true });
    s = update(s, { type: "trap" });
    assert.deepEqual(s.board.traps, []);
    const refused = update(s, { type: "trap", square: 47 });
    assert.equal(refused.message, validate({ ...MB1943, traps: [47] }));
    assert.equal(refused.message,
      "invalid traps: a trap cannot be a jump's source: 47 (the jump 47->26)");
  });

  test("die, overshoot and bonus roll; an impossible bonus face is refused", () => {
    let s = run(start(), { type: "die", faces: 7 }, { type: "overshoot", rule: "bounce" },
      { type: "bonus", face: 7 });
    assert.equal(s.board.die, 7);
    assert.equal(s.board.overshoot, "bounce");
    assert.equal(s.board.bonus_roll, 7);
    assert.equal(s.revision, 3);
    const refused = update(s, { type: "die", faces: 5 });
    assert.equal(refused.message, validate({ ...s.board, die: 5 }));
    assert.match(refused.message, /bonus_roll=7/);
    s = update(s, { type: "bonus", face: null });
    assert.equal(s.board.bonus_roll, null);
    assert.equal(update(s, { type: "die", faces: 7 }), s);      // no change, no edit
  });

  test("undo and redo walk the history and say what they undo", () => {
    const s0 = start();
    const s = run(s0, { type: "die", faces: 8 }, { type: "trap", square: 50 },
      { type: "pick", square: 30 }, { type: "pick", square: 35 });
    const u1 = update(s, { type: "undo" });
    assert.deepEqual(u1.edit, { kind: "undo", edit: { kind: "add", a: 30, b: 35 } });
    const u3 = run(u1, { type: "undo" }, { type: "undo" });
    assert.deepEqual(u3.board, s0.board);
    assert.equal(u3.name, "Milton Bradley 1943");                 // its name comes back
    assert.equal(update(u3, { type: "undo" }).notice, "nothing to undo");
    const r = run(u3, { type: "redo" }, { type: "redo" }, { type: "redo" });
    assert.deepEqual(r.board, s.board);
    assert.equal(update(r, { type: "redo" }).notice, "nothing to redo");
    const branch = run(u1, { type: "die", faces: 4 });
    assert.equal(branch.future.length, 0);                       // a new edit drops the redo
    let long = s0;
    for (let i = 0; i < HISTORY_LIMIT + 20; i += 1) long = update(long, { type: "die", faces: 2 + (i % (DIE_MAX - 1)) });
    assert.equal(long.past.length, HISTORY_LIMIT);
  });

  test("reset to a named board, load a board from outside", () => {
    let s = run(start(), { type: "trap", square: 50 }, { type: "reset", name: "small" });
    assert.deepEqual(s.board, canonical(SMALL));
    assert.equal(s.name, "small");
    assert.equal(s.cursor, 0);
    assert.deepEqual(s.edit, { kind: "reset", name: "small" });
    s = update(s, { type: "load", board: MB1943, name: "", origin: "python" });
    assert.equal(s.name, "Milton Bradley 1943");                 // known by its contents
    const refused = update(s, { type: "load", board: { ...SMALL, traps: [10] } });
    assert.equal(refused.message, validate({ ...SMALL, traps: [10] }));
    assert.equal(refused.board, s.board);
    const same = update(s, { type: "load", board: MB1943, name: "the 1943 board" });
    assert.equal(same.revision, s.revision);                     // a new name, not an edit
    assert.equal(same.name, "the 1943 board");
    assert.match(update(s, { type: "reset", name: "nope" }).message, /no named board/);
  });

  test("the Python line is board_math's", () => {
    assert.equal(pythonLine(createState(SMALL)), "Board({3: 7}, size=10, die=2, overshoot='stay')");
  });
});

describe("words", () => {
  test("edits in words", () => {
    assert.equal(describeEdit({ kind: "add", a: 12, b: 44 }), "ladder 12 to 44 added");
    assert.equal(describeEdit({ kind: "remove", a: 47, b: 26 }), "chute 47 to 26 removed");
    assert.equal(describeEdit({ kind: "move", from: [28, 84], to: [28, 10] }),
      "ladder 28 to 84 moved to 28 to 10 (now a chute)");
    assert.equal(describeEdit({ kind: "trap", square: 5, on: true }), "trap on square 5 added");
    assert.equal(describeEdit({ kind: "die", faces: 7 }), "die set to 7 faces");
    assert.equal(describeEdit({ kind: "undo", edit: { kind: "die", faces: 7 } }),
      "undone: die set to 7 faces");
    assert.equal(describeEdit({ kind: "bonus", face: null }), "no roll again");
  });

  test("the announcement says the new length and the old one, told apart", () => {
    assert.equal(announcement({ kind: "add", a: 12, b: 44 }, 31.7421, 39.2251),
      "ladder 12 to 44 added: expected length 31.7 turns, was 39.2");
    assert.equal(announcement({ kind: "die", faces: 6 }, 39.2251, 39.2251),
      "die set to 6 faces: expected length 39.2 turns, unchanged");
    assert.equal(announcement({ kind: "die", faces: 6 }, 39.2251, 39.2262),
      "die set to 6 faces: expected length 39.225 turns, was 39.226");
    assert.equal(turnsText(10.04), "10.0");
  });

  test("the cursor's square in words", () => {
    const state = createState(MB1943);
    const t = analyse(state.board).expected;
    assert.equal(describeSquare(state.board, 28, t),
      `square 28, ladder to 84, expected ${t[84].toFixed(1)} turns from here`);
    assert.equal(describeSquare(state.board, 26, t),
      `square 26, end of the chute from 47, expected ${t[26].toFixed(1)} turns from here`);
    assert.equal(describeSquare(state.board, 100, t), "square 100 (the final square), end of the ladder from 80");
    assert.match(describeSquare(state.board, 0, t), /^square 0 \(the start, off the board\), expected 39\.2 turns/);
    assert.match(describeSquare(state.board, 30, t, { from: 12 }), /Enter ends the jump from 12 here$/);
    const trapped = update(state, { type: "trap", square: 50 });
    assert.equal(describeSquare(trapped.board, 50, null), "square 50, a trap: the game ends here");
  });

  test("an edit's announcement uses the page's own numbers", () => {
    const s = run(createState(MB1943), { type: "pick", square: 30 }, { type: "pick", square: 35 });
    const words = announcement(s.edit, expected0(s.board), expected0(MB1943));
    assert.match(words, /^ladder 30 to 35 added: expected length \d+\.\d turns, was 39\.2$/);
  });
});

describe("colours and the in-page model", () => {
  test("viridis ends, and text on every heat colour reaches 4.5:1", () => {
    assert.deepEqual(viridis(0), [0x44, 0x01, 0x54]);
    assert.deepEqual(viridis(1), [0xfd, 0xe7, 0x25]);
    for (let i = 0; i <= 200; i += 1) {
      const rgb = viridis(i / 200);
      const l = luminance(rgb);
      const ratio = textOn(rgb) === "#000000" ? (l + 0.05) / 0.05 : 1.05 / (l + 0.05);
      assert.ok(ratio >= 4.5, `t = ${i / 200}: ${ratio}`);
    }
    assert.equal(textOn([217, 217, 217]), "#000000");
    assert.equal(textOn([139, 0, 0]), "#ffffff");
  });

  test("createModel: set, then save_changes tells the listeners once", () => {
    const model = createModel({ a: 1 });
    const heard = [];
    const f = () => heard.push(model.get("a"));
    model.on("change:a", f);
    model.set("a", 2);
    assert.deepEqual(heard, []);
    model.save_changes();
    model.save_changes();
    assert.deepEqual(heard, [2]);
    model.off("change:a", f);
    model.set("a", 3);
    model.save_changes();
    assert.deepEqual(heard, [2]);
  });
});

describe("the mouse's geometry", () => {
  test("every point of a square's cell picks that square", () => {
    for (const n of [10, 100, 101, 1000]) {
      for (let sq = 0; sq <= n; sq += 1) {
        const [x, y] = centre(sq, n);
        const half = sq === 0 ? 0.44 : 0.49;
        for (const [dx, dy] of [[0, 0], [-half, -0.49], [half, 0.49], [half, -0.49], [-half, 0.49]]) {
          assert.equal(squareAtPoint(x + dx, y + dy, n), sq, `size ${n}, square ${sq}, ${dx}, ${dy}`);
        }
      }
    }
    assert.equal(squareAtPoint(-5, 0.5, 100), null);
  });
});

describe("the runner", () => {
  /** A fake generator of `steps` steps, each `cost` ms on a fake clock. */
  const fake = (clock, steps, cost, answer) => function* gen() {
    for (let i = 0; i < steps; i += 1) { clock.t += cost; yield; }
    return answer;
  };
  const pauses = () => {
    const waiting = [];
    return { waiting, pause: () => new Promise((resolve) => waiting.push(resolve)),
      async release() { const r = waiting.shift(); r(); await new Promise((ok) => setImmediate(ok)); } };
  };

  test("a quick answer comes at once; a slow one in chunks of the budget", async () => {
    const clock = { t: 0 };
    const gate = pauses();
    const runner = createRunner({ steps: fake(clock, 40, 1, { expected: [7] }), budget: 8,
      now: () => clock.t, pause: gate.pause });
    const heard = [];
    assert.equal(runner.run({}, "a", (r) => heard.push(r)), null);   // 40 ms: not at once
    assert.equal(clock.t, 8);                                        // one chunk of 8 ms
    assert.ok(runner.busy);
    for (let i = 0; i < 4; i += 1) await gate.release();
    assert.deepEqual(heard, []);                                     // 40 ms of steps so far
    await gate.release();                                            // the last step ends it
    assert.deepEqual(heard, [{ expected: [7] }]);
    assert.equal(clock.t, 40);
    assert.equal(runner.chunks, 6);
    assert.ok(!runner.busy);
    assert.deepEqual(runner.run({}, "a", () => assert.fail("cached")), { expected: [7] });
    const quick = createRunner({ steps: fake(clock, 3, 1, { expected: [1] }), now: () => clock.t });
    assert.deepEqual(quick.run({}, "b", () => assert.fail("at once")), { expected: [1] });
  });

  test("a newer request drops the older one's work", async () => {
    const clock = { t: 0 };
    const gate = pauses();
    let closed = 0;
    const steps = (board) => (function* gen() {
      try {
        for (let i = 0; i < 100; i += 1) { clock.t += 1; yield; }
        return { expected: [board.n] };
      } finally { closed += 1; }
    })();
    const runner = createRunner({ steps, budget: 8, now: () => clock.t, pause: gate.pause });
    const heard = [];
    runner.run({ n: 1 }, "one", (r) => heard.push(r));
    runner.run({ n: 2 }, "two", (r) => heard.push(r));
    assert.equal(closed, 1);                                         // the first one is closed
    while (gate.waiting.length) await gate.release();
    assert.deepEqual(heard, [{ expected: [2] }]);
  });

  test("a generator that throws gives one line of words, not an exception", () => {
    // biome-ignore lint/correctness/useYield: a computation that fails before its first step
    const runner = createRunner({ steps: function* gen() { throw new RangeError("Array buffer allocation failed"); } });
    const result = runner.run({}, "x", () => assert.fail("at once"));
    assert.match(result.error, /^the page could not compute this board: Array buffer allocation failed$/);
  });
});

describe("addresses, however they come", () => {
  const start = () => createState(MB1943, { name: "Milton Bradley 1943" });
  const open = (hash) => {
    const before = start();
    const after = openAddress(before, hash, update);
    return { before, after };
  };
  const junk = [
    "#board=s1000000000-d6-stay", "#board=s100000000-d6-stay", "#board=s1001-d6-stay",
    `#board=s100-d6-stay-j${"1.2,".repeat(250000)}1.2`, `#board=${"x".repeat(1 << 20)}`,
    "#board=%E0%A4%A", "#board=s100-d6-stay-s50", "#board=s100-d6-warp", "#board=💥🎲\u0000\u202e",
    "#board=s100-d1000000-stay", `#board=s100-w${"1_".repeat(5000)}1-stay`, "#board=-", "#board=",
    "#board=s100-d6-stay-j5.5", "#board=s100-d6-stay-t0",
  ];
  for (const hash of junk) {
    test(`${JSON.stringify(hash.slice(0, 40))}${hash.length > 40 ? "…" : ""}: the board stays, one line of words`, () => {
      const { before, after } = open(hash);
      assert.equal(after.board, before.board);
      assert.ok(after.message.length > 0 && after.message.length <= 400, after.message.slice(0, 500));
      assert.ok(!after.message.includes("\n"));
      assert.match(after.message, /^the page address holds/);
    });
  }

  test("a size past the limits is refused in words before anything is built", () => {
    const { after } = open("#board=s1000000000-d6-stay");
    assert.match(after.message, /1000000000/);
    assert.match(after.message, new RegExp(`${LIMITS.size} squares`));
  });

  test("an unknown field is called unknown, not repeated", () => {
    const { after } = open("#board=s100-d6-warp");
    assert.match(after.message, /unknown field 'warp'/);
    assert.doesNotMatch(after.message, /repeat/);
    assert.match(open("#board=s100-d6-stay-s50").after.message, /repeats an earlier one/);
  });

  test("a good address opens its board; none leaves the state alone", () => {
    const { after } = open("#board=s30-d6-stay-j5.12,14.3");
    assert.deepEqual(after.board.jumps, [[5, 12], [14, 3]]);
    assert.equal(after.message, "");
    const { before, after: same } = open("#section-2");
    assert.equal(same, before);
    assert.equal(readAddress("#intro"), null);
  });
});

describe("size, names and ways", () => {
  const start = () => createState(MB1943, { name: "Milton Bradley 1943",
    presets: { "Milton Bradley 1943": MB1943 } });

  test("a smaller board drops what no longer fits, says so, and undo brings it back", () => {
    const s = run(start(), { type: "trap", square: 70 }, { type: "size", size: 60 });
    assert.equal(s.board.size, 60);
    assert.equal(s.message, "");
    assert.ok(s.board.jumps.every(([a, b]) => a < 60 && b <= 60));
    assert.deepEqual(s.board.traps, []);
    assert.match(describeEdit(s.edit), /^board size set to 60 squares \(taken off with the squares past 60: .*ladder 71 to 91.*trap 70\)$/);
    assert.equal(validate(s.board), null);
    const back = update(s, { type: "undo" });
    assert.equal(back.board.size, 100);
    assert.deepEqual(back.board.traps, [70]);
    const bigger = update(start(), { type: "size", size: 144 });
    assert.deepEqual(bigger.board.jumps, canonical(MB1943).jumps);
  });

  test("a size out of range is refused in words, the board unchanged", () => {
    for (const size of [1, 0, -3, LIMITS.size + 1, 1e9, 2.5, Number.NaN]) {
      const s = update(start(), { type: "size", size });
      assert.equal(s.board.size, 100);
      assert.match(s.message, new RegExp(`from ${MIN_SIZE} to ${MAX_SIZE}`));
    }
  });

  test("the name follows the board: a named board's, none after an edit, back on undo", () => {
    const s0 = start();
    assert.equal(s0.name, "Milton Bradley 1943");
    const s1 = update(s0, { type: "trap", square: 50 });
    assert.equal(s1.name, "");
    assert.equal(update(s1, { type: "undo" }).name, "Milton Bradley 1943");
    assert.match(CUSTOM, /^custom board/);
  });

  test("one face is one face", () => {
    assert.equal(describeEdit({ kind: "die", faces: 1 }), "die set to 1 face");
  });

  test("mouse users are told about clicks, keyboard users about keys", () => {
    const board = canonical(MB1943);
    const mouse = describeSquare(board, 30, null, { from: 30 }, "mouse");
    assert.doesNotMatch(mouse, /Enter|Escape/);
    assert.match(mouse, /a click here cancels the jump/);
    assert.match(describeSquare(board, 30, null, { from: 30 }, "keyboard"), /Enter here cancels the jump/);
    const picked = update({ ...createState(MB1943), way: "mouse" }, { type: "pick", square: 30, way: "mouse" });
    assert.doesNotMatch(picked.notice, /Enter|Escape/);
    const keyed = update(createState(MB1943), { type: "pick", square: 30, way: "keyboard" });
    assert.match(keyed.notice, /press Enter \(Escape cancels\)/);
  });
});

test("a megabyte of address is refused unread", () => {
  const state = createState(MB1943);
  const after = openAddress(state, `#board=s100-d6-stay-j${"1.2,".repeat(250000)}1.2`, update);
  assert.match(after.message, /^the page address holds 1000017 characters of board text, more than any board the editor takes \(at most \d+\): it is left unread$/);
  assert.equal(after.board, state.board);
});

test("every refusal is one line of at most 300 characters", () => {
  const many = { size: 1000, die: 6, overshoot: "stay", bonus_roll: null,
    jumps: Array.from({ length: 300 }, (_, i) => [3 * i + 2, 3 * i + 3]), traps: [] };
  const s = update(createState(many), { type: "remove", source: 1 });
  assert.ok(s.message.length <= 300 && !s.message.includes("\n"), s.message);
  assert.match(s.message, /^no jump starts on square 1; the sources are 2, 5, 8, .*…$/);
});
