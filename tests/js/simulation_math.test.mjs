// The page's simulation of the game against the Python library (node --test tests/js/).
//
// The library's answers come from tools/fixtures/simulation_math.py; ./support.mjs loads them
// (tests/test_js_parity.py runs this file with them, and `node --test` alone makes them).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { BoardError, expectedTurns } from "../../chutes_edu/widgets/js/maths/board_math.js";
import {
  cappedMean, checkGames, MAX_GAMES, simulateGames, simulateInSteps,
} from "../../chutes_edu/widgets/js/maths/simulation_math.js";
import { assertClose, loadFixtures } from "./support.mjs";

const GAMES = 100_000;
const { fixtures, skip } = loadFixtures("simulation_math");

const SMALL = { size: 10, die: 6, overshoot: "stay", bonus_roll: null, jumps: [[3, 7]], traps: [] };

/** The mean of the lengths and its standard error (sample standard deviation / sqrt(n)). */
function meanAndError(/** @type {Int32Array} */ turns) {
  let sum = 0;
  let squares = 0;
  for (const t of turns) {
    sum += t;
    squares += t * t;
  }
  const n = turns.length;
  const mean = sum / n;
  const variance = (squares - n * mean * mean) / (n - 1);
  return { mean, error: Math.sqrt(variance / n) };
}

describe("the library's numbers", { skip }, () => {
  test("the mean of 10^5 games is the exact expected turns within 4 standard errors", () => {
    assert.ok(fixtures.boards.length >= 20);
    for (const [i, { label, board, exact }] of fixtures.boards.entries()) {
      const { mean, error } = meanAndError(simulateGames(board, GAMES, 1000 + i));
      assert.ok(Math.abs(mean - exact) < 4 * error || (error === 0 && mean === exact),
        `board ${i} (${label}): mean ${mean} against ${exact} (standard error ${error})`);
    }
  });

  test("the capped mean is the library's", () => {
    assert.ok(fixtures.capped.length >= 300);
    for (const { turns, cap, mean } of fixtures.capped) {
      const got = cappedMean(turns, cap);
      assertClose(got, mean, "capped mean");
    }
  });

  test("caps refused in the library's words", () => {
    for (const { cap, message } of fixtures.refusals) {
      assert.throws(() => cappedMean([3, 4], cap), (error) => error instanceof BoardError &&
        error.message === message, JSON.stringify(cap));
    }
  });
});

describe("the page's simulation", () => {
  test("the same seed gives the same games; another seed others", () => {
    assert.deepEqual(simulateGames(SMALL, 1000, 7), simulateGames(SMALL, 1000, 7));
    assert.notDeepEqual(simulateGames(SMALL, 1000, 7), simulateGames(SMALL, 1000, 8));
  });

  test("in steps, the same games as in one call", () => {
    const steps = simulateInSteps(SMALL, 20_000, 3);
    let step = steps.next();
    let yields = 0;
    while (!step.done) {
      yields += 1;
      step = steps.next();
    }
    assert.ok(yields > 0);
    assert.deepEqual(step.value, simulateGames(SMALL, 20_000, 3));
  });

  test("a small board: the mean is the exact answer within 4 standard errors", () => {
    const exact = expectedTurns(SMALL)[0];
    const { mean, error } = meanAndError(simulateGames(SMALL, GAMES, 5));
    assert.ok(Math.abs(mean - exact) < 4 * error, `${mean} against ${exact}`);
    assert.ok(simulateGames(SMALL, 1000, 5).every((t) => t >= 2));   // at least two turns
  });

  test("numbers of games, seeds and boards out of range are refused", () => {
    for (const bad of [0, -1, MAX_GAMES + 1, 1.5, NaN, "10"]) {
      assert.throws(() => checkGames(bad), BoardError, String(bad));
    }
    assert.throws(() => simulateGames(SMALL, 10, -1), BoardError);
    assert.throws(() => simulateGames({ ...SMALL, jumps: [[3, 7], [7, 2]] }, 10, 0), BoardError);
    assert.equal(cappedMean([1, 5, 9], 4), 3);
  });
});
