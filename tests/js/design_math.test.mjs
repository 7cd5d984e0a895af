// The design explorer's maths in the page against the Python library (node --test tests/js/).
//
// The library's answers come from tools/fixtures/design_math.py; ./support.mjs loads them
// (tests/test_js_parity.py runs this file with them, and `node --test` alone makes them).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { BoardError } from "../../chutes_edu/widgets/js/maths/board_math.js";
import { run } from "../../chutes_edu/widgets/js/core/steps.js";
import {
  checkGoal, designBoard, designSteps, describeGoal,
} from "../../chutes_edu/widgets/js/maths/design_math.js";
import { assertClose, loadFixtures } from "./support.mjs";

// Fewer only for a quick look at a small fixture file (tests/test_js_parity.py never sets it).
const AT_LEAST = Number(process.env.DESIGN_MATH_AT_LEAST ?? 300);
const GOALS = ["target", "short", "long", "spread", "race"];
const { fixtures, skip } = loadFixtures("design_math");
// Goal values sit near 0 (a spread, a race's edge, the distance to a target length): there 1e-9
// absolute, as differences of rounded numbers on both sides.
const BAND = { abs: 1e-9 };

const FUNNEL = { size: 9, die: 2, overshoot: "stay", bonus_roll: null, jumps: [[5, 3]], traps: [] };

/**
 * The library's lines with the same words and the same numbers to the last digit written, give
 * or take one: a value on a rounding tie (21.74375 to 4 decimals) falls either way with the last
 * bit of the solve.
 */
function sameWords(lines, expected, what) {
  const number = /-?\d+\.\d+/g;
  assert.deepEqual(lines.map((l) => l.replace(number, "#")), expected.map((l) => l.replace(number, "#")), what);
  lines.forEach((line, i) => {
    const mine = line.match(number) ?? [];
    const theirs = expected[i].match(number) ?? [];
    mine.forEach((x, k) => {
      const unit = 10 ** -(theirs[k].split(".")[1].length);
      assert.ok(Math.abs(Number(x) - Number(theirs[k])) <= unit * 1.001, `${what}: ${line} / ${expected[i]}`);
    });
  });
}

/**
 * One fixture's design by the page, checked against the library's. A race has no exact solver:
 * where two candidates' edges are equal (a tie in exact arithmetic), the library takes the one
 * whose float price came out lower by rounding, which no other code can repeat bit for bit. So
 * for a race a different choice passes only when every step has the library's kind of move and
 * its values to 1e-9: an equally good design along an equally good path. Returns whether the
 * jumps were the library's.
 */
function checkDesign(fixture, n) {
  const { board, goal, method, max_jumps: maxJumps } = fixture;
  const what = `design ${n} (${JSON.stringify(goal)}, ${method}, ${maxJumps} on ${JSON.stringify(board)})`;
  const got = designBoard(board, goal, { maxJumps, method });
  const same = JSON.stringify(got.added) === JSON.stringify(fixture.added)
    && JSON.stringify(got.steps.map((s) => s.action)) === JSON.stringify(fixture.steps.map((s) => s.action));
  if (same || goal.kind !== "race") {
    assert.deepEqual(got.added, fixture.added, `${what}: the jumps`);
    assert.deepEqual(got.steps.map((s) => [s.action, s.added]),
      fixture.steps.map((s) => [s.action, s.added]), `${what}: the steps`);
    sameWords(got.summary.split("\n").slice(0, -1), fixture.summary, `${what}: summary`);
  } else {
    const kind = (/** @type {string} */ action) => action.split(" ")[0];
    assert.deepEqual(got.steps.map((s) => kind(s.action)), fixture.steps.map((s) => kind(s.action)),
      `${what}: the steps`);
    assert.equal(got.added.length, fixture.added.length, `${what}: how many jumps`);
  }
  got.steps.forEach((s, i) => {
    assertClose(s.value, fixture.steps[i].value, `${what}: step ${i} value`, BAND);
    assertClose(s.mean, fixture.steps[i].mean, `${what}: step ${i} mean`, BAND);
  });
  for (const [mine, theirs] of [["value", "value"], ["mean", "mean"], ["exactMean", "exact_mean"],
    ["originalValue", "original_value"], ["originalMean", "original_mean"]]) {
    assertClose(got[mine], fixture[theirs], `${what}: ${theirs}`, BAND);
  }
  if (fixture.exact_value === null) assert.equal(got.exactValue, null, what);
  else assertClose(got.exactValue, fixture.exact_value, `${what}: exact value`, BAND);
  assert.equal(got.provenOptimal, fixture.proven_optimal, `${what}: proven`);
  if (same) assert.equal(got.priced, fixture.priced, `${what}: designs priced`);
  return same;
}

describe("the library's designs", { skip }, () => {
  for (const kind of GOALS) {
    test(`${kind}: the same jumps, steps and values on at least ${AT_LEAST} boards`, () => {
      const mine = fixtures.designs.filter((d) => d.goal.kind === kind);
      assert.ok(mine.length >= AT_LEAST, `${mine.length} designs`);
      assert.ok(new Set(mine.map((d) => d.method)).size === 2);
      const same = mine.filter((fixture, n) => checkDesign(fixture, n)).length;
      // Only a race may choose otherwise, at exact ties, and rarely.
      assert.ok(same >= (kind === "race" ? 0.85 : 1) * mine.length, `${same} of ${mine.length}`);
    });
  }

  test("designs with a candidate exactly on the band's edge: the library's, exactly", () => {
    assert.ok(fixtures.edges.length >= 41, `${fixtures.edges.length} designs on a band's edge`);
    assert.ok(fixtures.edges.some((d) => d.goal.mean === null), "with the board's own mean");
    assert.ok(fixtures.edges.some((d) => d.goal.mean !== null), "with a typed mean");
    fixtures.edges.forEach((fixture, n) => {
      assert.ok(checkDesign(fixture, `edge ${n}`));
    });
  });

  test("designs refused in the library's words", () => {
    assert.ok(fixtures.refusals.length >= 10);
    for (const { board, goal, max_jumps: maxJumps, method, message } of fixtures.refusals) {
      assert.throws(() => designBoard(board, goal, { maxJumps, method }), (error) =>
        error instanceof BoardError && error.message === message,
        `${JSON.stringify(goal)} ${maxJumps} ${method}: ${message}`);
    }
  });
});

describe("the design's own checks", () => {
  test("the library's docstring example: greedy on the funnel", () => {
    const d = designBoard(FUNNEL, { kind: "short" }, { maxJumps: 2, method: "greedy" });
    assert.deepEqual(d.added, [[1, 9], [4, 9]]);
    assert.equal(d.exactMean, 2);
  });

  test("local search improves on greedy where the lesson says it can", () => {
    const d = designBoard(FUNNEL, { kind: "short" }, { maxJumps: 2, method: "local search" });
    assert.deepEqual(d.added, [[1, 9], [2, 9]]);
    assert.equal(d.exactMean, 1);
    assert.match(d.steps.at(-2).action, /^swap 4->9 for 2->9$/);
  });

  test("a mean exactly on the band's edge is inside it (the library's answer on every machine)", () => {
    // Board({4: 5}, size=5, die=5, overshoot="stay"): its own mean is exactly 5/2 and the jump
    // 1->5 makes it exactly 2, on the edge of 2.5 ± 0.5. A float solve of the board's mean can
    // land a hair above 2.5 and leave 1->5 out of the band; the library adds it.
    const board = { size: 5, die: 5, overshoot: "stay", jumps: [[4, 5]] };
    const d = designBoard(board, { kind: "spread", mean: null, tolerance: 0.5 },
      { maxJumps: 3, method: "local search" });
    assert.deepEqual(d.added, [[1, 5]]);
    assert.equal(d.exactMean, 2);
    // a typed mean and tolerance are the decimals typed: 2 is on the edge of 2.1 ± 0.1, though
    // in floats |2 - 2.1| = 0.10000000000000009 > 0.1
    const typed = designBoard(board, { kind: "spread", mean: 2.1, tolerance: 0.1 },
      { maxJumps: 1, method: "greedy" });
    assert.deepEqual(typed.added, [[1, 5]]);
    assert.match(typed.summary, /2\.1 ± 0\.1/);
    // with a band a hair narrower, the same jump is outside it and is not taken (the test can
    // fail)
    const outside = designBoard(board, { kind: "spread", mean: null, tolerance: 0.4999 },
      { maxJumps: 3, method: "local search" });
    assert.ok(!outside.added.some(([a, b]) => a === 1 && b === 5), JSON.stringify(outside.added));
  });

  test("the search yields, and gives the same design run step by step", () => {
    const board = { size: 40, die: 6, jumps: [[3, 20], [30, 5]] };
    const steps = designSteps(board, { kind: "spread" }, { maxJumps: 2, method: "local search" });
    let yields = 0;
    let step = steps.next();
    while (!step.done) { yields += 1; step = steps.next(); }
    assert.ok(yields > 20, `${yields} yields`);
    assert.deepEqual(step.value.added, run(designSteps(board, { kind: "spread" },
      { maxJumps: 2, method: "local search" })).added);
  });

  test("a design never makes a goal worse than the starting board", () => {
    for (const goal of [{ kind: "target", turns: 4 }, { kind: "long" }, { kind: "race", seats: 3 }]) {
      const d = designBoard(FUNNEL, goal, { maxJumps: 1, method: "greedy" });
      const distance = (v) => (goal.kind === "target" ? Math.abs(v - 4)
        : goal.kind === "long" ? -v : Math.abs(v));
      assert.ok(distance(d.value) <= distance(d.originalValue) + 1e-12, JSON.stringify(goal));
    }
  });

  test("the page leaves the exhaustive search to Python, and names the goal as the library", () => {
    assert.throws(() => designBoard(FUNNEL, { kind: "short" }, { maxJumps: 2, method: "exhaustive" }),
      (error) => error instanceof BoardError && /runs in Python/.test(error.message));
    assert.equal(describeGoal(checkGoal({ kind: "spread", mean: 30, tolerance: 0.5 })),
      "the smallest variance for a mean of 30 ± 0.5 turns");
    assert.equal(describeGoal(checkGoal({ kind: "target", turns: 25 })),
      "an expected game of 25 turns");
  });
});
