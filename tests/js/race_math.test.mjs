// The race explorer's maths in the page against the Python library (node --test tests/js/).
//
// The library's answers come from tools/fixtures/race_math.py; ./support.mjs loads them
// (tests/test_js_parity.py runs this file with them, and `node --test` alone makes them).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { BoardError } from "../../chutes_edu/widgets/js/maths/board_math.js";
import {
  checkPositions, createRace, winProbabilities, winsFromDistributions,
} from "../../chutes_edu/widgets/js/maths/race_math.js";
import { raceWords } from "../../chutes_edu/widgets/js/explorers/race_explorer/race_explorer.js";
import { assertClose, loadFixtures } from "./support.mjs";

const { fixtures, skip } = loadFixtures("race_math");

const SMALL = { size: 10, die: 6, overshoot: "stay", bonus_roll: null, jumps: [[3, 7]], traps: [] };

describe("the library's numbers", { skip }, () => {
  test("each seat's chance of winning, on at least 300 races", () => {
    assert.ok(fixtures.races.length >= 300);
    for (const [n, { label, board, positions, wins }] of fixtures.races.entries()) {
      const got = winProbabilities(board, positions);
      assert.equal(got.length, wins.length);
      wins.forEach((w, i) => {
        assertClose(got[i], w, `race ${n} (${label}) ${positions}: seat ${i}`);
      });
    }
  });

  test("a race that keeps its distributions gives the same numbers", () => {
    const byBoard = new Map();
    for (const { board, positions, wins } of fixtures.races.slice(0, 60)) {
      const key = JSON.stringify(board);
      if (!byBoard.has(key)) byBoard.set(key, createRace(board));
      const got = byBoard.get(key).wins(positions);
      wins.forEach((w, i) => {
        assertClose(got[i], w, `${positions}: seat ${i}`);
      });
    }
  });

  test("races refused in the library's words", () => {
    assert.ok(fixtures.refusals.length >= 10);
    for (const { board, positions, message } of fixtures.refusals) {
      assert.throws(() => winProbabilities(board, positions), (error) =>
        error instanceof BoardError && error.message === message, JSON.stringify(positions));
    }
  });
});

describe("the race's own checks", () => {
  test("the chances sum to 1; the first mover is ahead on a tie", () => {
    for (const positions of [[0, 0], [0, 0, 0, 0, 0, 0], [5, 0, 9], [10, 0]]) {
      const wins = winProbabilities(SMALL, positions);
      assert.ok(Math.abs(wins.reduce((a, b) => a + b, 0) - 1) < 1e-10, String(positions));
    }
    const [first, second] = winProbabilities(SMALL, [0, 0]);
    assert.ok(first > second);
    assert.deepEqual([...winProbabilities(SMALL, [10, 10])], [1, 0]);   // seat 0 has finished
  });

  test("two players: seat 0's edge is half the sum of the squared pmf", () => {
    const pmf = createRace(SMALL).pmf(0);
    let edge = 0;
    for (const p of pmf) edge += (p * p) / 2;
    assertClose(winsFromDistributions([pmf, pmf])[0] - 0.5, edge, "edge");
  });

  test("positions are checked before anything is computed", () => {
    assert.throws(() => checkPositions(SMALL, [0, 11]), /player 1 11 is off the board \(squares 0..10\)/);
    assert.throws(() => checkPositions(SMALL, "0"), BoardError);
    assert.throws(() => createRace({ ...SMALL, traps: [4] }), /does not handle traps/);
    assert.throws(() => createRace({ ...SMALL, jumps: [[3, 7], [7, 2]] }), BoardError);
  });

  test("the readout and the announcement say the numbers", () => {
    const words = raceWords([0, 0, 12], Float64Array.of(0.35, 0.33, 0.32));
    assert.equal(words.rows.join("; "),
      "seat 1 (square 0): 0.3500; seat 2 (square 0): 0.3300; seat 3 (square 12): 0.3200");
    assert.equal(words.favourite, "favourite: seat 1");
    assert.equal(words.announcement, "Chance to win: seat 1 35.0%, seat 2 33.0%, seat 3 32.0%");
  });
});
