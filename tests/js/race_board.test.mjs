// The race explorer's board picture in the page against the Python library (node --test
// tests/js/): its text alternative is draw_board's description with the tokens.
//
// The library's answers come from tools/fixtures/race_board.py; ./support.mjs loads them
// (tests/test_js_parity.py runs this file with them, and `node --test` alone makes them). Besides
// them: known answers and properties of where the tokens sit.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { centre, START_WIDTH } from "../../chutes_edu/widgets/js/core/geometry.js";
import { describeRaceBoard, sharedOffsets, tokenPlaces } from
  "../../chutes_edu/widgets/js/explorers/race_explorer/board.js";
import { loadFixtures } from "./support.mjs";

const { fixtures, skip } = loadFixtures("race_board");

const JUMPS_1943 = [[1, 38], [4, 14], [9, 31], [16, 6], [21, 42], [28, 84], [36, 44], [47, 26],
  [49, 11], [51, 67], [56, 53], [62, 19], [64, 60], [71, 91], [80, 100], [87, 24], [93, 73],
  [95, 75], [98, 78]];
const BOARD_1943 = { size: 100, die: 6, overshoot: "stay", bonus_roll: null, jumps: JUMPS_1943,
  traps: [] };

describe("the library's words", { skip }, () => {
  test("draw_board's description of the board with its tokens", () => {
    assert.ok(fixtures.pictures.length >= 40);
    const counts = new Set();
    for (const [i, item] of fixtures.pictures.entries()) {
      assert.equal(describeRaceBoard(item.board, { name: item.name, tokens: item.tokens }),
        item.alt, `picture ${i} (${item.name || "no name"}, tokens ${item.tokens})`);
      counts.add(item.tokens.length);
    }
    assert.deepEqual([...counts].sort(), [0, 1, 2, 3, 4, 5, 6]);
  });
});

describe("draw_board's places", { skip }, () => {
  test("tokens that share a numbered square sit where draw_board puts them", () => {
    assert.deepEqual(Object.keys(fixtures.shared), ["2", "3", "4", "5", "6"]);
    for (const [k, places] of Object.entries(fixtures.shared)) {
      const page = sharedOffsets(Number(k));
      assert.equal(page.length, places.length);
      for (const [i, [dx, dy]] of places.entries()) {     // the library's y is upwards
        assert.ok(Math.abs(page[i][0] - dx) < 1e-12 && Math.abs(page[i][1] + dy) < 1e-12,
          `k=${k}, seat ${i + 1}: page ${page[i]}, library ${[dx, dy]}`);
      }
    }
  });
});

describe("known answers and properties", () => {
  test("the 1943 board with two players on the start", () => {
    assert.equal(describeRaceBoard(BOARD_1943, { name: "Milton Bradley 1943", tokens: [0, 0] }),
      "The 100-square board 'Milton Bradley 1943' with 9 ladders (solid blue arrows) and " +
      "10 chutes (dashed orange arrows); player 1 on square 0, player 2 on square 0.");
  });

  test("a token alone sits in its square's cell, below and right of its number", () => {
    for (const size of [10, 100, 400]) {
      const squares = [0, 1, 5, size];
      for (const [i, { x, y, r }] of tokenPlaces(squares, size).entries()) {
        const [cx, cy] = centre(squares[i], size);
        const half = squares[i] === 0 ? START_WIDTH / 2 : 0.5;
        assert.ok(Math.abs(x - cx) + r <= half && Math.abs(y - cy) + r <= 0.5, `${squares[i]}`);
        assert.ok(y - r > cy - 0.5 + 0.34, `the token on ${squares[i]} covers its number`);
      }
    }
  });

  test("tokens sharing a square are apart and inside its cell, seat 1 first", () => {
    for (const size of [10, 100, 400]) {
      for (let k = 2; k <= 6; k += 1) {
        for (const square of [0, 1, size]) {
          const places = tokenPlaces(Array(k).fill(square), size);
          const [cx, cy] = centre(square, size);
          const half = square === 0 ? START_WIDTH / 2 : 0.5;
          for (const [i, { x, y, r }] of places.entries()) {     // the start is numbered 0
            assert.ok(Math.abs(x - cx) + r <= half && Math.abs(y - cy) + r <= 0.5,
              `k=${k} on ${square}: a token outside its cell`);
            assert.ok(y - r > cy - 0.5 + 0.34, `k=${k} on ${square}: seat ${i + 1} covers its number`);
            for (let b = i + 1; b < k; b += 1) {
              const gap = Math.hypot(x - places[b].x, y - places[b].y);
              assert.ok(gap >= 0.25, `k=${k}: seats ${i + 1} and ${b + 1} ${gap} apart`);
              assert.ok(gap > r + places[b].r, `k=${k}: seats ${i + 1} and ${b + 1} touch`);
            }
          }
          const reading = places.map(({ x, y }, i) => ({ x, y, i }))
            .sort((p, q) => p.y - q.y || p.x - q.x).map(({ i }) => i);
          assert.deepEqual(reading, [...places.keys()], `k=${k}: not in reading order`);
        }
      }
    }
  });
});
