// The jump explorer's maths in the page against the Python library (node --test tests/js/).
//
// The library's answers come from tools/fixtures/jump_math.py; ./support.mjs loads them
// (tests/test_js_parity.py runs this file with them, and `node --test` alone makes them).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { BoardError, expectedTurns } from "../../chutes_edu/widgets/js/maths/board_math.js";
import { run } from "../../chutes_edu/widgets/js/core/steps.js";
import {
  describeExplorer, describeJumpEffects, isSurprise, jumpDestinations, jumpEffects,
  jumpEffectsSteps, jumpSources, jumpWords, nearestJump, skippedWords,
} from "../../chutes_edu/widgets/js/maths/jump_math.js";
import { assertClose, loadFixtures } from "./support.mjs";

const { fixtures, skip } = loadFixtures("jump_math");

const MB1943 = {
  size: 100, die: 6, overshoot: "stay", bonus_roll: null, traps: [],
  jumps: [[1, 38], [4, 14], [9, 31], [16, 6], [21, 42], [28, 84], [36, 44], [47, 26], [49, 11],
    [51, 67], [56, 53], [62, 19], [64, 60], [71, 91], [80, 100], [87, 24], [93, 73], [95, 75],
    [98, 78]],
};

describe("the library's numbers", { skip }, () => {
  test("the add-a-jump sweep on at least 300 boards: the same candidates and prices", () => {
    assert.ok(fixtures.sweeps.length >= 300);
    let prices = 0;
    for (const [k, { board, min_length: minLength, baseline, allowed, prices: known }]
      of fixtures.sweeps.entries()) {
      const what = `board ${k} (size ${board.size}, min_length ${minLength})`;
      const sweep = jumpEffects(board, { minLength });
      assert.equal(sweep.n, board.size, what);
      assertClose(sweep.baseline, baseline, `${what}: baseline`);
      assert.equal(sweep.effects.length, allowed.length, what);
      for (let i = 0; i < allowed.length; i += 1) {
        if ((allowed[i] === "1") !== !Number.isNaN(sweep.effects[i])) {
          const a = Math.floor(i / (board.size + 1));
          assert.fail(`${what}: the jump ${a} -> ${i % (board.size + 1)} is ` +
            `${allowed[i] === "1" ? "priced" : "refused"} by the library, not by the page`);
        }
      }
      for (const [i, price] of known) {
        const a = Math.floor(i / (board.size + 1));
        assertClose(sweep.effects[i], price, `${what}: ${a} -> ${i % (board.size + 1)}`);
      }
      prices += known.length;
    }
    assert.ok(prices > 100_000, `only ${prices} prices compared`);
  });

  test("step by step, the sweep yields and gives the same numbers", () => {
    for (const { board, min_length: minLength } of fixtures.sweeps.slice(0, 40)) {
      const steps = jumpEffectsSteps(board, { minLength });
      let yields = 0;
      let step = steps.next();
      while (!step.done) { yields += 1; step = steps.next(); }
      const whole = jumpEffects(board, { minLength });
      assert.deepEqual(step.value.effects, whole.effects);
      assert.ok(yields >= 1 || board.size < 150, `${board.size} squares in one step`);
    }
    let yields = 0;
    for (const _ of jumpEffectsSteps(MB1943)) yields += 1;
    assert.ok(yields >= 10, `the 1943 sweep in only ${yields} steps`);
  });

  test("the explorer's words: description, sliders, nearest jump, readout, announcement", () => {
    assert.ok(fixtures.words.length >= 40);
    let ties = 0;
    for (const item of fixtures.words) {
      const what = `${JSON.stringify(item.board).slice(0, 80)} min_length ${item.min_length}`;
      const sweep = jumpEffects(item.board, { minLength: item.min_length });
      assert.deepEqual(jumpSources(sweep), item.sources, what);
      const [a, b] = nearestJump(sweep, item.asked[0], item.asked[1]);
      assert.deepEqual([a, b], item.jump, what);
      assert.deepEqual(jumpDestinations(sweep, a), item.destinations, what);
      const alt = describeJumpEffects(sweep, item.title);
      if (item.near_tie) {          // a rival within rounding may be named: the rest is the same
        const loose = (/** @type {string} */ words) => words.replace(/[+-](\d+\.\d\d) turns/g,
          "$1 turns").replace(/\(the (ladder|chute) \d+ -> \d+\)/g, "(a jump)");
        assert.equal(loose(alt), loose(item.alt), what);
        ties += 1;
      } else {
        assert.equal(alt, item.alt, what);
      }
      const words = jumpWords(sweep, a, b);
      assert.equal(words.readout, item.readout, what);
      assert.equal(words.announcement, item.announcement, what);
      assert.equal(skippedWords(item.board.size, item.min_length), item.skipped, what);
    }
    assert.ok(fixtures.words.length - ties >= 50, `${ties} near ties of ${fixtures.words.length}`);
  });

  test("the heat map's best and worst jump against a rival at the tie band's edges", () => {
    // The library names the first of the smallest float (nanargmin); the page counts rivals
    // within its band (1e-11 of the baseline) as equal. An exact float tie names the first on
    // both sides, a rival better by 3 bands or more the rival (tools/fixtures/jump_math.py).
    assert.ok(fixtures.tie_edges.length >= 40);
    for (const [i, item] of fixtures.tie_edges.entries()) {
      const effects = Float64Array.from(item.effects, (v) => v ?? Number.NaN);
      assert.equal(describeJumpEffects({ n: item.n, effects, baseline: item.baseline }, item.title),
        item.alt, `edge ${i}: ${item.kind}, rival ${item.gap} bands away, baseline ${item.baseline}`);
    }
    assert.deepEqual(new Set(fixtures.tie_edges.map((item) => item.gap)), new Set([0, -1, 3, 100, 1e6]));
  });

  test("min_length refused in the library's words", () => {
    assert.ok(fixtures.refusals.length >= 5);
    for (const { board, min_length: minLength, message } of fixtures.refusals) {
      assert.throws(() => jumpEffects(board, { minLength }), (error) =>
        error instanceof BoardError && error.message === message, JSON.stringify(minLength));
    }
  });
});

describe("the sweep's own checks", () => {
  test("Hochman's surprise on the 1943 board: the ladder 27 -> 29 lengthens the game", () => {
    const sweep = jumpEffects(MB1943);
    const at = (/** @type {number} */ a, /** @type {number} */ b) => sweep.effects[a * 101 + b];
    assert.equal(Number(at(27, 29).toFixed(2)), 40.2);
    assert.equal(Number(at(29, 27).toFixed(2)), 38.05);
    assert.ok(isSurprise(at(27, 29), sweep.baseline, 27, 29));
    let count = 0;
    for (const v of sweep.effects) if (!Number.isNaN(v)) count += 1;
    assert.equal(count, 5022);
    assert.deepEqual(nearestJump(sweep, 27, 29), [27, 29]);
  });

  test("a price is the expected turns of the board with that jump added", () => {
    const sweep = jumpEffects(MB1943, { minLength: 10 });
    for (const [a, b] of [[27, 29 + 10], [30, 2], [33, 100], [99, 50], [2, 90]]) {
      const withJump = { ...MB1943, jumps: [...MB1943.jumps, [a, b]] };
      assertClose(sweep.effects[a * 101 + b], expectedTurns(withJump)[0], `${a} -> ${b}`);
    }
    assert.ok(Number.isNaN(sweep.effects[30 * 101 + 35]));        // shorter than 10
  });

  test("a jump that would leave the board unfinishable is not priced", () => {
    // A die of one face walks 0, 1, 2, ...: a chute 3 -> 1 would loop 1 -> 2 -> 3 -> 1 forever.
    const board = { size: 6, die: 1, overshoot: "stay", bonus_roll: null, jumps: [], traps: [] };
    const sweep = jumpEffects(board);
    assert.ok(Number.isNaN(sweep.effects[3 * 7 + 1]));
    assert.ok(Number.isFinite(sweep.effects[3 * 7 + 5]));
    assert.equal(run(jumpEffectsSteps(board)).effects.length, 49);
  });

  test("the explorer's line of skipped squares and its picture's words", () => {
    assert.match(skippedWords(100, 1), /none ends where one starts\.$/);
    assert.match(skippedWords(100, 5), /none is shorter than 5 squares\.$/);
    const sweep = jumpEffects(MB1943);
    const words = describeExplorer(sweep, "Adding one jump a -> b to the board", 27, 29);
    assert.match(words, /The square outlined in black is your jump 27 -> 29: expected turns 40\.2021\.$/);
    assert.match(words, /; 392 hatched squares mark surprises/);
  });
});
