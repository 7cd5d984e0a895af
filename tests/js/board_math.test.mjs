// The JavaScript board maths against the Python library (node --test tests/js/).
//
// The fixtures come from tools/board_math_fixtures.py (their path is in BOARD_MATH_FIXTURES;
// tests/test_board_math_js.py writes them and runs this file). Without that variable only the
// tests that need no library answers run.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import {
  analyse,
  BoardError,
  boardToPython,
  decodeBoard,
  encodeBoard,
  expectedTurns,
  firstMoverEdge,
  lengthSummary,
  ranges,
  shortestGame,
  turnDistribution,
  validate,
} from "../../chutes_edu/widgets/js/board_math.js";

const TOLERANCE = 1e-9;
const path = process.env.BOARD_MATH_FIXTURES;
const fixtures = path ? JSON.parse(readFileSync(path, "utf8")) : null;
const skip = fixtures ? false : "BOARD_MATH_FIXTURES is not set (tests/test_board_math_js.py sets it)";

/** Relative closeness for expected turns (exact 0 on the absorbing squares). */
function assertRelative(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i += 1) {
    const err = Math.abs(actual[i] - expected[i]);
    assert.ok(err <= TOLERANCE * Math.abs(expected[i]) || actual[i] === expected[i],
      `${what}[${i}]: ${actual[i]} against the library's ${expected[i]}`);
  }
}

/** pmfs equal to 1e-9 at every k (missing entries are 0), in total mass, and in length up to
 * entries below the tail. */
function assertPmf(actual, expected, tail, what) {
  const length = Math.max(actual.length, expected.length);
  let sumA = 0;
  let sumE = 0;
  for (let k = 0; k < length; k += 1) {
    const a = actual[k] ?? 0;
    const e = expected[k] ?? 0;
    sumA += a;
    sumE += e;
    assert.ok(Math.abs(a - e) <= TOLERANCE, `${what}: P(T = ${k}) = ${a} against ${e}`);
    if (k >= Math.min(actual.length, expected.length)) {
      assert.ok(a < tail && e < tail, `${what}: the lengths ${actual.length} and ` +
        `${expected.length} differ by an entry above the tail at k = ${k}`);
    }
  }
  assert.ok(Math.abs(sumA - sumE) <= TOLERANCE, `${what}: total mass ${sumA} against ${sumE}`);
  assert.ok(1 - sumA < TOLERANCE, `${what}: total mass ${sumA}`);
}

/** The mode, allowing a float tie: the library's mode and ours must be equally likely. */
function assertMode(mode, item) {
  if (mode === item.mode) return;
  assert.ok(Math.abs(item.pmf[mode] - item.pmf[item.mode]) <= 1e-15,
    `mode ${mode} against the library's ${item.mode}`);
}

describe("valid boards match the library", { skip }, () => {
  for (const item of fixtures?.valid ?? []) {
    test(`${item.label}: ${item.repr}`, () => {
      const board = item.board;
      assert.equal(validate(board), null);
      assertRelative(expectedTurns(board), item.expected, "expected turns");
      const pmf = turnDistribution(board);
      assertPmf(pmf, item.pmf, fixtures.tail, "pmf");

      const summary = lengthSummary(pmf, { shortest: shortestGame(board) });
      assert.ok(Math.abs(summary.mean - item.mean) <= TOLERANCE * item.mean, "mean");
      assert.equal(summary.median, item.median, "median");
      assertMode(summary.mode, item);
      assert.equal(summary.shortest, item.shortest, "shortest game");
      assert.equal(summary.cdf.length, pmf.length);
      assert.ok(Math.abs(summary.cdf.at(-1) - pmf.reduce((s, p) => s + p, 0)) < 1e-15);

      const edge = firstMoverEdge(board);
      if (item.edge === null) assert.equal(edge, null, "no race with traps");
      else assert.ok(Math.abs(edge - item.edge) <= TOLERANCE, `edge ${edge} against ${item.edge}`);

      if (item.other_start) {
        const { start } = item.other_start;
        assertPmf(turnDistribution(board, { start }), item.other_start.pmf, fixtures.tail,
          `pmf from ${start}`);
        assert.equal(shortestGame(board, { start }), item.other_start.shortest);
      }

      const all = analyse(board);
      assert.deepEqual(all.expected, expectedTurns(board));
      assert.deepEqual(all.pmf, pmf);
      assert.deepEqual(all.summary, summary);
      assert.equal(all.edge, edge);

      const text = encodeBoard(board);
      assert.match(text, /^[A-Za-z0-9._,~-]+$/, "URL-safe");
      assert.deepEqual(decodeBoard(text), board);
      assert.deepEqual(decodeBoard(`#board=${text}`), board);
      assert.deepEqual(decodeBoard(encodeURIComponent(text)), board);
    });
  }
});

describe("invalid boards give the library's message", { skip }, () => {
  for (const item of fixtures?.invalid ?? []) {
    test(`${item.label}: ${item.message}`, () => {
      assert.equal(validate(item.board), item.message);
      assert.throws(() => expectedTurns(item.board),
        (error) => error instanceof BoardError && error.message === item.message);
      assert.throws(() => turnDistribution(item.board), { message: item.message });
      assert.deepEqual(analyse(item.board), { error: item.message });
      let text = null;
      try {
        text = encodeBoard(item.board);     // only boards whose fields have the right types
      } catch (error) {
        assert.ok(error instanceof BoardError);
      }
      if (text !== null) {
        assert.deepEqual(decodeBoard(text), { ...item.board, jumps: item.board.jumps });
        assert.equal(validate(decodeBoard(text)), item.message);
      }
    });
  }
});

describe("bad arguments give the library's message", { skip }, () => {
  for (const item of fixtures?.argument_errors ?? []) {
    const options = "start" in item ? { start: item.start } : { tail: item.tail };
    test(`turnDistribution(${JSON.stringify(options)})`, () => {
      assert.throws(() => turnDistribution(item.board, options), { message: item.message });
    });
  }
});

describe("the fixtures cover what they should", { skip }, () => {
  test("every rule, dice, bonus rolls, traps, weights, sizes", () => {
    const boards = fixtures.valid.map((item) => item.board);
    for (const rule of ["stay", "win", "bounce", "stop_short"]) {
      assert.ok(boards.filter((b) => b.overshoot === rule).length >= 20, rule);
    }
    for (let faces = 2; faces <= 12; faces += 1) {
      assert.ok(boards.some((b) => b.die === faces), `a die of ${faces} faces`);
    }
    assert.ok(boards.filter((b) => Array.isArray(b.die)).length >= 5, "weighted dice");
    assert.ok(boards.filter((b) => b.bonus_roll !== null).length >= 20, "bonus rolls");
    assert.ok(boards.filter((b) => b.traps.length).length >= 20, "traps");
    assert.ok(boards.some((b) => b.size === 2) && boards.some((b) => b.size > 300), "sizes");
    assert.ok(fixtures.valid.length >= 200 && fixtures.invalid.length >= 70);
  });
});

describe("without the library", () => {
  const plain = { size: 10, die: 3, overshoot: "stay", bonus_roll: null,
    jumps: [[3, 7], [8, 2]], traps: [] };

  test("ranges are written like the library's", () => {
    assert.equal(ranges([12, 3, 5, 6, 7, 8, 9, 5]), "3, 5-9, 12");
    assert.equal(ranges([]), "");
  });

  test("a pmf's summaries", () => {
    const s = lengthSummary([0, 0, 0.25, 0.25, 0.5]);
    assert.deepEqual([s.mean, s.median, s.mode, s.shortest], [3.25, 3, 4, 2]);
    assert.deepEqual([...s.cdf], [0, 0, 0.25, 0.5, 1]);
    assert.equal(lengthSummary([0, 0.5, 0.5], { shortest: 2 }).shortest, 2);
    assert.equal(lengthSummary([0, 0.4, 0.4, 0.2]).mode, 1, "the first of equal values");
  });

  test("a start on an absorbing square", () => {
    assert.deepEqual([...turnDistribution(plain, { start: 10 })], [1]);
    assert.equal(shortestGame(plain, { start: 10 }), 0);
  });

  test("defaults and readable text", () => {
    assert.equal(encodeBoard(plain), "s10-d3-stay-j3.7,8.2");
    assert.equal(encodeBoard({ ...plain, die: [1, 0.5, 1e-7, 2e21], bonus_roll: 2, traps: [4, 6] }),
      "s10-w1_0.5_1e-7_2e21-stay-b2-j3.7,8.2-t4,6");
    assert.deepEqual(decodeBoard("s100"), { size: 100, die: 6, overshoot: "stay",
      bonus_roll: null, jumps: [], traps: [] });
    assert.deepEqual(decodeBoard("bounce-j5.1-s8"), { size: 8, die: 6, overshoot: "bounce",
      bonus_roll: null, jumps: [[5, 1]], traps: [] });
    assert.equal(boardToPython({ ...plain, die: [1, 0.5], bonus_roll: 2, traps: [4] }),
      "Board({3: 7, 8: 2}, size=10, die=(1, 0.5), overshoot='stay', bonus_roll=2, traps=(4,))");
  });

  test("malformed text is refused with a clear message", () => {
    const cases = {
      "": /empty/,
      "s": /needs a whole number after "s"/,
      "s1.5": /needs a whole number/,
      "s10-s12": /repeats an earlier one/,
      "d6-w1_2": /repeats/,
      "stay-win": /repeats/,
      "s10-x3": /unknown field 'x3'/,
      "s10-j3": /the jump '3' is not source.destination/,
      "s10-j3.4,": /the jump '' is not/,
      "s10-wa_1": /the weight 'a' is not a number/,
      "s10-t1,b": /the trap 'b' is not a whole number/,
      "s10-bx": /needs a whole number after "b"/,
      "s10-STAY": /unknown field 'STAY'/,
      "%E0%A4%A": /bad percent-escape/,
    };
    for (const [text, message] of Object.entries(cases)) {
      assert.throws(() => decodeBoard(text), (error) =>
        error instanceof BoardError && message.test(error.message), JSON.stringify(text));
    }
  });

  test("text with the wrong types is refused, not written", () => {
    for (const board of [{ size: "ten" }, { die: [] }, { jumps: [[1]] }, { traps: "5" },
      { overshoot: 3 }, { bonus_roll: 2.5 }]) {
      assert.throws(() => encodeBoard(board), BoardError);
      assert.throws(() => boardToPython(board), BoardError);
    }
  });

  test("a board that is not an object", () => {
    for (const board of [null, 5, "s10", [1, 2]]) {
      assert.match(validate(board), /a board must be an object/);
    }
  });
});
