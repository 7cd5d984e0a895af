// The board explorer's maths in the page against the Python library (node --test tests/js/).
//
// The library's answers come from tools/fixtures/board_explorer_math.py; ./support.mjs loads them
// (tests/test_js_parity.py runs this file with them, and `node --test` alone makes them). Besides
// them: known answers and properties (visits sum to the expected length; the distribution after k
// turns sums to 1 and its final entry is P(T <= k) from the pmf).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  BoardError, expectedTurns, turnDistribution,
} from "../../chutes_edu/widgets/js/maths/board_math.js";
import {
  describeBoard, describeDistribution, distributionStats, exactExpectedTurns, expectedVisits,
  heatMap, HEAT_LABELS, niceCeiling, squareDistribution, stickyEnd,
} from "../../chutes_edu/widgets/js/maths/board_explorer_math.js";
import { pyFixed } from "../../chutes_edu/widgets/js/core/format.js";
import { assertAllClose, assertClose, loadFixtures } from "./support.mjs";

const { fixtures, skip } = loadFixtures("board_explorer_math");

const JUMPS_1943 = [[1, 38], [4, 14], [9, 31], [16, 6], [21, 42], [28, 84], [36, 44], [47, 26],
  [49, 11], [51, 67], [56, 53], [62, 19], [64, 60], [71, 91], [80, 100], [87, 24], [93, 73],
  [95, 75], [98, 78]];
const BOARD_1943 = { size: 100, die: 6, overshoot: "stay", bonus_roll: null, jumps: JUMPS_1943,
  traps: [] };

/** Probabilities: to 1e-9 relative, or 1e-15 absolute where the library's is below 1e-6 (the
 * page steps turn by turn, the library multiplies matrix powers: the roundings differ). */
const PROBABILITIES = { abs: 1e-15 };

describe("the library's numbers", { skip }, () => {
  test("expected visits from the start: fundamental_matrix(board)[0]", () => {
    assert.ok(fixtures.boards.length >= 300);
    for (const [i, item] of fixtures.boards.entries()) {
      const visits = expectedVisits(item.board);
      // Visits near zero are differences of rounded numbers in the library too: relative to the
      // largest entry there.
      const scale = Math.max(...item.visits);
      assertAllClose(visits, item.visits, `board ${i}, visits`, { abs: 1e-9 * 1e-6 * scale });
      assert.equal(visits.length, item.board.size);
    }
  });

  test("where the token is after k turns: square_distribution(board, k)", () => {
    assert.ok(fixtures.boards.length >= 300);
    for (const [i, item] of fixtures.boards.entries()) {
      assertAllClose(squareDistribution(item.board, item.turns), item.after,
        `board ${i}, after ${item.turns} turns`, PROBABILITIES);
    }
  });

  test("the exact expected length from square 0: expected_turns(board, exact=True)[0]", () => {
    assert.ok(fixtures.exact.length >= 300);
    for (const [i, item] of fixtures.exact.entries()) {
      const { numerator, denominator } = exactExpectedTurns(item.board);
      assert.equal(`${numerator}/${denominator}`, `${item.numerator}/${item.denominator}`,
        `board ${i}`);
    }
  });

  test("the game-length picture: mean, median, mode, axis end (sticky) and description", () => {
    assert.ok(fixtures.pictures.length >= 20);
    let count = 0;
    for (const [i, run] of fixtures.pictures.entries()) {
      let shown = null;
      for (const [j, item] of run.entries()) {
        const stats = distributionStats(item.pmf);
        assertClose(stats.mean, item.mean, `run ${i}.${j} mean`);
        assert.equal(stats.median, item.median, `run ${i}.${j} median`);
        assert.equal(stats.mode, item.mode, `run ${i}.${j} mode`);
        shown = stickyEnd(shown, stats.needed, true);
        assert.equal(shown, item.xmax, `run ${i}.${j} axis end`);
        assert.equal(describeDistribution(stats, shown, fixtures.title), item.alt,
          `run ${i}.${j} description`);
        count += 1;
      }
    }
    assert.ok(count >= 80);
  });

  test("the board picture: heat map, title and description (draw_board's words)", () => {
    assert.ok(fixtures.heat_maps.length >= 80);
    const kinds = new Set();
    for (const [i, item] of fixtures.heat_maps.entries()) {
      const shown = heatMap(item.board, item.heat, { turns: item.turns, title: item.base_title });
      assert.equal(shown.title, item.title, `board ${i} title`);
      assert.equal(shown.label, HEAT_LABELS[item.heat]);
      assert.equal(describeBoard(item.board, { name: item.name, ...shown }), item.alt,
        `board ${i} (${item.heat})`);
      kinds.add(item.heat);
    }
    assert.equal(kinds.size, 3);
  });

  test("refusals in the library's words", () => {
    for (const { board, turns, start, message } of fixtures.refusals) {
      assert.throws(() => squareDistribution(board, turns, { start }),
        (error) => error instanceof BoardError && error.message === message,
        `turns=${turns}, start=${start}`);
    }
  });
});

describe("known answers and properties", () => {
  test("the visits from the start sum to the expected length (N 1 = t)", () => {
    const visits = expectedVisits(BOARD_1943);
    const total = visits.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(total - expectedTurns(BOARD_1943)[0]) < 1e-9 * total);
    assert.equal(visits[0], 1);            // the start: no jump leads back to square 0
  });

  test("after one turn of the 1943 board the token is on 2, 3, 5, 6, 14 or 38", () => {
    const after = squareDistribution(BOARD_1943, 1);
    const where = [...after.keys()].filter((s) => after[s] > 0);
    assert.deepEqual(where, [2, 3, 5, 6, 14, 38]);
    for (const s of where) assert.ok(Math.abs(after[s] - 1 / 6) < 1e-15);
    assert.deepEqual([...squareDistribution(BOARD_1943, 0)].indexOf(1), 0);
  });

  test("after k turns the final square holds P(T <= k), and the whole sums to 1", () => {
    const pmf = turnDistribution(BOARD_1943);
    let cdf = 0;
    for (let k = 0; k <= 100; k += 1) {
      cdf += k < pmf.length ? pmf[k] : 0;
      const after = squareDistribution(BOARD_1943, k);
      assert.ok(Math.abs(after[100] - cdf) < 1e-12, `k = ${k}`);
      assert.ok(Math.abs(after.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    }
  });

  test("a bonus roll and a trap: the trap collects its games, the visits stay 0 there", () => {
    const board = { size: 25, die: 5, overshoot: "stay", bonus_roll: 5, jumps: [[6, 14], [17, 3]],
      traps: [11, 20] };
    assert.equal(expectedVisits(board)[11], 0);
    const late = squareDistribution(board, 400);
    assert.ok(Math.abs(late[11] + late[20] + late[25] - 1) < 1e-12);
    assert.ok(late[11] > 0 && late[20] > 0);
  });

  test("the exact length: 49/36 by first steps on 3 squares, 2 with a coin", () => {
    // From 2 every roll wins (1 turn); from 1 all but a 1 (1 + 1/6); from 0 a 1 or a 2 moves on.
    const win = { size: 3, die: 6, overshoot: "win", bonus_roll: null, jumps: [], traps: [] };
    assert.deepEqual(exactExpectedTurns(win), { numerator: 49n, denominator: 36n });
    // A coin on two squares: E_1 = 2 (a 2 is lost to "stay"), E_0 = 1 + E_1 / 2.
    const coin = { size: 2, die: [1, 1], overshoot: "stay", bonus_roll: null, jumps: [],
      traps: [] };
    assert.deepEqual(exactExpectedTurns(coin), { numerator: 2n, denominator: 1n });
    const e = exactExpectedTurns(BOARD_1943);
    assert.ok(Math.abs(Number(e.numerator) / Number(e.denominator) -
      expectedTurns(BOARD_1943)[0]) < 1e-9);
    const weighted = { size: 15, die: [0.5, 1.25, 0.125], overshoot: "stay", bonus_roll: null,
      jumps: [[3, 11], [10, 1]], traps: [] };
    const w = exactExpectedTurns(weighted);
    assert.ok(Math.abs(Number(w.numerator) / Number(w.denominator) -
      expectedTurns(weighted)[0]) < 1e-9);
  });

  test("axis ends: nice ceilings, kept while the data fill half of them", () => {
    assert.deepEqual([0.7, 1, 1.1, 13, 26, 99, 101, 1e-3].map(niceCeiling),
      [0.8, 1, 1.2, 15, 30, 100, 120, 1e-3]);
    assert.equal(stickyEnd(100, 60, true), 100);
    assert.equal(stickyEnd(100, 40, true), 40);
    assert.equal(stickyEnd(100, 101, true), 120);
    assert.equal(stickyEnd(null, 33, false), 33);
  });

  test("numbers written as Python writes them: a tie to even", () => {
    const cases = [[0.0625, 3, "0.062"], [0.0635, 3, "0.064"], [2.5, 0, "2"], [3.5, 0, "4"],
      [0.125, 2, "0.12"], [-0.125, 2, "-0.12"], [0.375, 2, "0.38"], [1.0005, 3, "1.000"],
      [0.1, 3, "0.100"], [0.35, 1, "0.3"], [39.225, 4, "39.2250"]];
    for (const [x, digits, python] of cases) assert.equal(pyFixed(x, digits), python, `${x}`);
  });

  test("the 1943 board's picture after one turn", () => {
    const shown = heatMap(BOARD_1943, "after", { turns: 1, title: "Milton Bradley 1943" });
    assert.equal(shown.title, "Milton Bradley 1943\nafter 1 turn: 0.000 finished " +
      "(square 100, grey)");
    assert.ok(Number.isNaN(shown.values[100]));
    assert.match(describeBoard(BOARD_1943, { name: "Milton Bradley 1943", ...shown }),
      /with 9 ladders .* and 10 chutes .*from 0 to 0\.167, 0 at the start \(grey: 1 square without a value\)\.$/);
    assert.throws(() => heatMap(BOARD_1943, "colour"), BoardError);
  });

  test("refusals: an invalid board, a bad pmf", () => {
    assert.throws(() => expectedVisits({ ...BOARD_1943, jumps: [[100, 3]] }), BoardError);
    assert.throws(() => exactExpectedTurns({ ...BOARD_1943, size: 0 }), BoardError);
    assert.throws(() => distributionStats([]), /non-empty array of probabilities/);
    assert.throws(() => distributionStats([0.5, -0.1]), /non-empty array of probabilities/);
    assert.throws(() => distributionStats([0.5, NaN]), /non-empty array of probabilities/);
  });
});
