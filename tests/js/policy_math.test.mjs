// The aimed game's maths in the page against the Python library (node --test tests/js/).
//
// The library's answers come from tools/fixtures/policy_math.py; ./support.mjs loads them
// (tests/test_js_parity.py runs this file with them, and `node --test` alone makes them). Besides
// them: the known answers of LosAlfajores (2021), the step-by-step forms' slices and the properties
// of the fewest-turns policy.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { BoardError } from "../../chutes_edu/widgets/js/maths/board_math.js";
import {
  aimLandings, aimTable, checkAccuracy, DEFAULT_ACCURACY, firstBest, optimalPolicy,
  optimalPolicySteps, policyAnalysisSteps, policyExpectedTurns, sliderAccuracy, valueIteration,
} from "../../chutes_edu/widgets/js/maths/policy_math.js";
import { run } from "../../chutes_edu/widgets/js/core/steps.js";
import { assertAllClose, loadFixtures } from "./support.mjs";

const { fixtures, skip } = loadFixtures("policy_math");

/** The board of LosAlfajores (2021), as chutes_edu.AIMING_GAME_2021 writes it in JSON. */
const AIMING_GAME_2021 = {
  size: 100, die: 6, overshoot: "stop_short", bonus_roll: null, traps: [],
  jumps: [[1, 38], [4, 14], [9, 31], [21, 42], [28, 84], [36, 44], [48, 26], [49, 11], [51, 67],
    [56, 53], [62, 18], [64, 60], [71, 91], [80, 100], [87, 24], [93, 73], [95, 76], [98, 78]],
};

/** The 1943 board (chutes_edu.MILTON_BRADLEY_1943). */
const MILTON_BRADLEY_1943 = {
  size: 100, die: 6, overshoot: "stay", bonus_roll: null, traps: [],
  jumps: [[1, 38], [4, 14], [9, 31], [21, 42], [28, 84], [36, 44], [51, 67], [71, 91], [80, 100],
    [16, 6], [47, 26], [49, 11], [56, 53], [62, 19], [64, 60], [87, 24], [93, 73], [95, 75],
    [98, 78]],
};

describe("the library's numbers", { skip }, () => {
  test("where aimed moves land", () => {
    assert.ok(fixtures.landings.length >= 300);
    for (const { board, square, target, landings } of fixtures.landings) {
      assert.deepEqual(aimLandings(board, square, target), landings, `${square} aiming ${target}`);
    }
  });

  test("value iteration: the same values, policy and sweeps", () => {
    assert.ok(fixtures.value.length >= 300);
    for (const [i, { board, accuracy, discount, values, policy, iterations }] of
      fixtures.value.entries()) {
      const got = valueIteration(board, { accuracy, discount });
      assert.equal(got.iterations, iterations, `board ${i}: sweeps`);
      assertAllClose(got.values, values, `board ${i}: values`);
      assert.deepEqual(Array.from(got.policy), policy, `board ${i}: policy`);
    }
  });

  test("expected turns under a fixed way of aiming (Infinity where it may never finish)", () => {
    assert.ok(fixtures.expected.length >= 300);
    assert.ok(fixtures.expected.some(({ turns }) => turns.includes(null)));
    for (const [i, { board, accuracy, policy, turns }] of fixtures.expected.entries()) {
      assertAllClose(policyExpectedTurns(board, policy, accuracy), turns, `board ${i}`);
    }
  });

  test("the fewest-turns policy, its expected turns and rounds", () => {
    assert.ok(fixtures.optimal.length >= 300);
    for (const [i, { board, accuracy, policy, turns, iterations, message }] of
      fixtures.optimal.entries()) {
      if (message) {
        assert.throws(() => optimalPolicy(board, { accuracy }), { message });
        continue;
      }
      const got = optimalPolicy(board, { accuracy });
      assert.deepEqual(Array.from(got.policy), policy, `board ${i}: policy`);
      assertAllClose(got.expectedTurns, turns, `board ${i}: expected turns`);
      assert.equal(got.iterations, iterations, `board ${i}: rounds`);
    }
  });

  test("equally good targets: the library's tie band, decided the same way at its edge's last bit", () => {
    assert.ok(fixtures.ties.length >= 200);
    const picked = new Set();
    for (const [i, { q, largest, best }] of fixtures.ties.entries()) {
      assert.equal(firstBest(Float64Array.from(q), 0, q.length, largest), best, `row ${i}: ${q}`);
      picked.add(best);
    }
    assert.deepEqual([...picked].sort(), [0, 1, 2]);       // rivals inside and outside the band
  });

  test("refusals in the library's words", () => {
    assert.ok(fixtures.refusals.length >= 25);
    for (const { call, board, args, message } of fixtures.refusals) {
      const options = { ...args };
      if ("max_iter" in options) {
        options.maxIter = options.max_iter;
        delete options.max_iter;
      }
      const attempt = call === "value" ? () => valueIteration(board, options)
        : call === "optimal" ? () => optimalPolicy(board, options)
          : () => policyExpectedTurns(board, args.policy, args.accuracy);
      assert.throws(attempt, (error) => error instanceof BoardError && error.message === message,
        `${call} ${JSON.stringify(args).slice(0, 80)}: expected "${message}"`);
    }
  });
});

describe("known answers and properties", () => {
  test("LosAlfajores (2021): 35 sweeps, V(0) 34.8567, first target 1; fewest turns 10.6075", () => {
    const vi = valueIteration(AIMING_GAME_2021);
    assert.equal(vi.iterations, 35);
    assert.equal(Math.round(vi.values[0] * 1e4) / 1e4, 34.8567);
    assert.equal(vi.policy[0], 1);
    const best = optimalPolicy(AIMING_GAME_2021);
    assert.equal(Math.round(best.expectedTurns[0] * 1e4) / 1e4, 10.6075);
    assert.equal(best.iterations, 5);
    assert.deepEqual(aimLandings(AIMING_GAME_2021, 0, 1), [0, 38, 2]);
    assert.deepEqual(aimLandings(AIMING_GAME_2021, 14, 3), [16, 17, 18]);
    const always2 = policyExpectedTurns(AIMING_GAME_2021, 2);
    assert.equal(Math.round(always2[0] * 100) / 100, 67.18);
    assert.equal(policyExpectedTurns(AIMING_GAME_2021, 6)[0], Infinity);
  });

  test("no fixed target beats the fewest-turns policy, from any square", () => {
    for (const board of [AIMING_GAME_2021, MILTON_BRADLEY_1943]) {
      for (const accuracy of [DEFAULT_ACCURACY, [0.1, 0.8, 0.1], [0, 0.7, 0.3]]) {
        const best = optimalPolicy(board, { accuracy });
        for (let t = 1; t <= 6; t += 1) {
          const turns = policyExpectedTurns(board, t, accuracy);
          for (let s = 0; s <= 100; s += 1) {
            assert.ok(best.expectedTurns[s] <= turns[s] * (1 + 1e-12), `target ${t}, square ${s}`);
          }
        }
        assert.deepEqual(policyExpectedTurns(board, Array.from(best.policy), accuracy),
          best.expectedTurns);
      }
    }
  });

  test("the sliders' accuracy sums to 1 and an exact aim moves exactly", () => {
    for (const exact of [0, 0.05, 0.5, 0.95, 1]) {
      for (const lean of [0, 0.3, 0.5, 1]) {
        const acc = checkAccuracy(sliderAccuracy(exact, lean));
        assert.ok(Math.abs(acc[0] + acc[1] + acc[2] - 1) < 1e-15);
      }
    }
    const { table, m } = aimTable(MILTON_BRADLEY_1943);
    assert.equal(table[(10 * m + 2) * 3 + 1], 13);
  });

  test("a mixed policy is refused in words, not read as targets", () => {
    const mixed = Array.from({ length: 100 }, () => [0.5, 0.5, 0, 0, 0, 0]);
    assert.throws(() => policyExpectedTurns(MILTON_BRADLEY_1943, mixed),
      (error) => error instanceof BoardError && /one target per square/.test(error.message));
  });

  test("the step-by-step form yields often on the 1943 board and gives the same answer", () => {
    const steps = policyAnalysisSteps(MILTON_BRADLEY_1943, { exact: 0.5, lean: 0.5, discount: 0.99 });
    let yields = 0;
    let step = steps.next();
    while (!step.done) {
      yields += 1;
      step = steps.next();
    }
    const { result, best, turns, differ } = step.value;
    assert.ok(yields >= 5, `${yields} yields`);
    assert.deepEqual(best, run(optimalPolicySteps(MILTON_BRADLEY_1943,
      { accuracy: sliderAccuracy(0.5, 0.5) })));
    assert.ok(turns[0] >= best.expectedTurns[0]);
    assert.equal(differ, result.policy.reduce((c, t, s) => c + (t !== best.policy[s] ? 1 : 0), 0));
  });
});
