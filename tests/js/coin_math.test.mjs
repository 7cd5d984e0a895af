// The coin-flip explorer's maths in the page against the Python library (node --test tests/js/).
//
// The library's answers come from tools/fixtures/coin_math.py; ./support.mjs loads them
// (tests/test_js_parity.py runs this file with them, and `node --test` alone makes them). Besides
// them: the simulation's own checks (the same seed gives the same waits; the mean of 10^5 waits is
// 1/p within 4 standard errors).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { BoardError } from "../../chutes_edu/widgets/js/maths/board_math.js";
import {
  checkProbability, checkSeed, checkTrials, createSampler, expectedFlips,
  flipsUntilHeads, logIndices, MAX_SEED, MAX_TRIALS, runningMean, runningMeanAt,
} from "../../chutes_edu/widgets/js/maths/coin_math.js";
import { createRandom } from "../../chutes_edu/widgets/js/core/random.js";
import { describeConvergence } from "../../chutes_edu/widgets/js/ui/convergence_chart.js";
import { coinWords } from "../../chutes_edu/widgets/js/explorers/coin_explorer/coin_explorer.js";
import { assertClose, loadFixtures } from "./support.mjs";

const { fixtures, skip } = loadFixtures("coin_math");

describe("the library's numbers", { skip }, () => {
  test("expected flips 1/p", () => {
    assert.ok(fixtures.expected.length >= 300);
    for (const { p, exact } of fixtures.expected) assertClose(expectedFlips(p), exact, `1/${p}`);
  });

  test("the running mean and its 95% half-width, at every index", () => {
    assert.ok(fixtures.running.length >= 300);
    for (const [i, { x, mean, half }] of fixtures.running.entries()) {
      const got = runningMean(x);
      assert.equal(got.mean.length, x.length);
      for (let k = 0; k < x.length; k += 1) {
        assertClose(got.mean[k], mean[k], `sample ${i}: mean[${k}]`);
        assertClose(got.half[k], half[k] ?? Infinity, `sample ${i}: half[${k}]`);
      }
    }
  });

  test("at chosen indices, the same numbers as at every index", () => {
    for (const { x } of fixtures.running.slice(0, 50)) {
      const all = runningMean(x);
      const at = logIndices(x.length, 5, 7);
      const some = runningMeanAt(x, at);
      at.forEach((i, j) => {
        assert.equal(some.mean[j], all.mean[i]);
        assert.equal(some.half[j], all.half[i]);
      });
    }
  });

  test("p refused in the library's words", () => {
    for (const { p, message } of fixtures.refusals) {
      assert.throws(() => expectedFlips(p), (error) => error instanceof BoardError &&
        error.message === message, `p = ${JSON.stringify(p)}`);
    }
  });

  test("the picture's description is the library's", () => {
    for (const { p, x, alt } of fixtures.descriptions) {
      const { mean } = runningMean(x);
      const words = describeConvergence({ title: "Waiting for heads", n: x.length,
        what: "trials", unit: "flips", last: mean[mean.length - 1], exact: expectedFlips(p) });
      assert.equal(words, alt);
    }
  });
});

describe("the page's simulation", () => {
  test("the same seed gives the same waits; another seed others", () => {
    assert.deepEqual(flipsUntilHeads(0.3, 1000, 7), flipsUntilHeads(0.3, 1000, 7));
    assert.notDeepEqual(flipsUntilHeads(0.3, 1000, 7), flipsUntilHeads(0.3, 1000, 8));
    const a = createRandom(MAX_SEED);
    const b = createRandom(MAX_SEED);
    for (let i = 0; i < 100; i += 1) {
      const u = a();
      assert.equal(u, b());
      assert.ok(u > 0 && u < 1);
    }
  });

  test("the mean of 10^5 waits is 1/p within 4 standard errors, P(F = 1) is p", () => {
    const n = 100_000;
    for (const [p, seed] of [[0.01, 1], [0.05, 2], [0.2, 3], [0.5, 4], [0.9, 5], [0.37, 6]]) {
      const flips = flipsUntilHeads(p, n, seed);
      let sum = 0;
      let ones = 0;
      for (const f of flips) {
        assert.ok(Number.isInteger(f) && f >= 1);
        sum += f;
        ones += f === 1 ? 1 : 0;
      }
      const standardError = Math.sqrt((1 - p) / (p * p) / n);
      assert.ok(Math.abs(sum / n - 1 / p) < 4 * standardError,
        `p = ${p}: mean ${sum / n} against ${1 / p} (standard error ${standardError})`);
      const share = Math.sqrt((p * (1 - p)) / n);
      assert.ok(Math.abs(ones / n - p) < 4 * share, `p = ${p}: P(F = 1) ${ones / n}`);
    }
    assert.deepEqual([...flipsUntilHeads(1, 50, 9)], Array(50).fill(1));
  });

  test("the sampler's reused draws equal fresh ones (new p, more and fewer trials, new seed)", () => {
    const sampler = createSampler();
    for (const [p, n, seed] of [[0.5, 1000, 0], [0.2, 1000, 0], [0.2, 5000, 0], [0.7, 10, 0],
      [0.7, 20_000, 3], [0.01, 20_000, 3], [1, 7, 3]]) {
      assert.deepEqual(sampler.flips(p, n, seed), flipsUntilHeads(p, n, seed), `${p} ${n} ${seed}`);
    }
  });

  test("trials, seeds and p out of range are refused, naming the value", () => {
    for (const bad of [0, -1, MAX_TRIALS + 1, 1.5, NaN, "10"]) {
      assert.throws(() => checkTrials(bad), BoardError, String(bad));
    }
    assert.throws(() => checkTrials(MAX_TRIALS + 1), /from 1 to 100,000, not 100001/);
    for (const bad of [-1, MAX_SEED + 1, 0.5, NaN]) assert.throws(() => checkSeed(bad), BoardError);
    assert.throws(() => checkProbability(NaN), /got nan/);
    assert.equal(checkTrials(MAX_TRIALS), MAX_TRIALS);
    assert.equal(checkSeed(0), 0);
  });

  test("the picture's points: all of the first, then log-spaced, ending at n - 1", () => {
    for (const n of [1, 2, 10, 799, 800, 801, 5000, MAX_TRIALS]) {
      const at = logIndices(n);
      assert.equal(at[0], 0);
      assert.equal(at[at.length - 1], n - 1);
      for (let j = 1; j < at.length; j += 1) assert.ok(at[j] > at[j - 1]);
      assert.ok(at.length <= 801);
    }
  });

  test("the readout and announcement say the numbers", () => {
    const words = coinWords({ n: 5000, mean: 4.98765, half: 0.1234, exact: 5 });
    assert.equal(words.readout.join(""),
      "average of 5,000 trials: 4.988 ± 0.123 flips (95%); first-step answer 1/p = 5.0000 flips");
    assert.equal(words.announcement, "Average 4.99 flips over 5,000 trials; 1/p = 5.00 flips");
    assert.ok(!coinWords({ n: 1, mean: 3, half: Infinity, exact: 2 }).readout.join("").includes("±"));
  });
});
