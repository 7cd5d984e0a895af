// Timings of the JavaScript board maths in Node: analyse() from a board edit to every answer.
//
// The board editor's budget from an edit to a settled page is one frame (16 ms) on a 100-square
// board and 100 ms on a 400-square one; the maths should take a fraction of it. Issue 27 adds
// an answer or a refusal within 1 s on any board of up to 1,000 squares (dice of 1,000 faces). This prints the
// median of many runs (after a warm-up, so the code is compiled) of analyse() and of its two
// costly parts, on the 1943 board and on random 400-square boards with 40 jumps (one plain, one
// with a bonus roll and traps), and the time of the first call (the code not yet compiled).
//
// Usage: node benchmarks/bench_board_math.mjs [runs]     (default 101 runs)
import { analyse, expectedTurns, turnDistribution, validate }
  from "../chutes_edu/widgets/js/maths/board_math.js";

const runs = Number(process.argv[2] ?? 101);

/** Milton Bradley's 1943 board (chutes_edu.MILTON_BRADLEY_1943). */
const MB1943 = {
  size: 100, die: 6, overshoot: "stay", bonus_roll: null, traps: [],
  jumps: [[1, 38], [4, 14], [9, 31], [16, 6], [21, 42], [28, 84], [36, 44], [47, 26], [49, 11],
    [51, 67], [56, 53], [62, 19], [64, 60], [71, 91], [80, 100], [87, 24], [93, 73], [95, 75],
    [98, 78]],
};

/** A seeded generator of floats in [0, 1) (mulberry32). */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random valid board with the recipe of chutes_edu.random_board: distinct sources in
 * 1..size-1, destinations drawn from the squares that are not sources. */
function randomBoard(size, jumps, seed, extra = {}) {
  const random = generator(seed);
  for (;;) {
    const squares = Array.from({ length: size - 1 }, (_, i) => i + 1);
    for (let i = squares.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [squares[i], squares[j]] = [squares[j], squares[i]];
    }
    const sources = new Set(squares.slice(0, jumps));
    const allowed = [];
    for (let s = 0; s <= size; s += 1) if (!sources.has(s)) allowed.push(s);
    const pairs = [...sources].sort((x, y) => x - y)
      .map((a) => [a, allowed[Math.floor(random() * allowed.length)]]);
    const board = { size, die: 6, overshoot: "stay", bonus_roll: null, jumps: pairs, traps: [],
      ...extra };
    if (validate(board) === null) return board;
  }
}

/** The median time in ms of `count` calls, after a warm-up. */
function median(f, count = runs) {
  for (let i = 0; i < Math.min(20, count); i += 1) f();
  const times = [];
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    f();
    times.push(performance.now() - start);
  }
  times.sort((x, y) => x - y);
  return times[Math.floor(times.length / 2)];
}

const plain400 = randomBoard(400, 40, 1);
// The audits' boards (issue 27) have the issue's budget: an answer or a refusal within 1 s.
const big = randomBoard(1000, 200, 2, { die: 1000 });
const boards = [
  ["1943 board (100 squares)", MB1943, 16],
  ["random, 400 squares, 40 jumps", plain400, 100],
  ["the same, bonus roll 6, traps", { ...plain400, bonus_roll: 6,
    traps: [150, 250, 350].filter((v) => !plain400.jumps.some(([a]) => a === v)) }, 100],
  ["100 squares, die 1000", { size: 100, die: 1000 }, 1000],
  ["1000 squares, die 1000", { size: 1000, die: 1000 }, 1000],
  ["1000 squares, die 1000, 200 jumps", big, 1000],
  ["die 2, chutes 3->0, ..., 41->0", { size: 100, die: 2,
    jumps: Array.from({ length: 20 }, (_, i) => [3 + 2 * i, 0]) }, 1000],
];
console.log(`node ${process.version}, median of ${runs} runs (ms; 5 runs on boards with a 1 s budget)`);
console.log("board                             first  analyse  solve   pmf  pmf length  budget");
for (const [name, board, budget] of boards) {
  if (validate(board) !== null) throw new Error(`${name}: ${validate(board)}`);
  const count = budget >= 1000 ? Math.min(runs, 5) : runs;
  const start = performance.now();
  const result = analyse(board);         // the first call compiles the code (cold on row one)
  const first = performance.now() - start;
  const all = median(() => analyse(board), count);
  const solve = median(() => expectedTurns(board), count);
  const refused = "lengthError" in result && result.lengthError !== null;
  const pmf = refused ? "-" : median(() => turnDistribution(board), count).toFixed(2);
  const length = refused ? "refused" : String(turnDistribution(board).length);
  console.log(`${name.padEnd(33)} ${first.toFixed(1).padStart(5)} ${all.toFixed(2).padStart(8)} ` +
    `${solve.toFixed(2).padStart(6)} ${pmf.padStart(5)} ${length.padStart(11)} ` +
    `${String(budget).padStart(7)}`);
}
