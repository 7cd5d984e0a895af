// The longest step of the page's board analysis in Node: the budget that tests/js/board_math.test.mjs
// no longer asserts (a test asserts no clock).
//
// The page runs analyseInSteps a step at a time (ui/runner.js); the budget is 50 ms
// for any task of the page, so one step must take well under it (goal: under 25 ms). For each of
// the audits' slow boards of 1,000 squares this prints the longest step (each step's shortest
// time over three runs: a pause of a busy machine is not a long step), the number of steps and
// the whole run's fastest time. Nothing is asserted: timings on shared machines are noisy.
//
// Usage: node benchmarks/bench_board_steps.mjs
import { analyseInSteps } from "../chutes_edu/widgets/js/maths/board_math.js";

const GOAL_MS = 25;

/** `count` long chutes on a board of `size` squares (as tests/js/board_math.test.mjs draws them). */
const longChutes = (size, count, extra = {}) => ({
  size, die: 6, overshoot: "stay", bonus_roll: null, traps: [], ...extra,
  jumps: Array.from({ length: count }, (_, i) => [
    Math.floor(size / 2) + Math.floor((i * (size / 2 - 1)) / count),
    (i * 37) % Math.floor(size / 10)]),
});
const weighted = Array.from({ length: 1000 }, (_, i) => 1 + (i % 3));
const boards = {
  "1000 squares, die 1000": { size: 1000, die: 1000 },
  "1000 squares, die 1000, bounce": { size: 1000, die: 1000, overshoot: "bounce" },
  "1000 squares, die 6, 200 long chutes": longChutes(1000, 200),
  "1000 squares, die 1000, 200 long chutes, bonus roll 7":
    longChutes(1000, 200, { die: 1000, bonus_roll: 7 }),
  "1000 squares, 1000 weighted faces, 200 long chutes": longChutes(1000, 200, { die: weighted }),
};

/** The time (ms) of each step of one run. */
function timed(board) {
  const steps = analyseInSteps(board);
  const times = [];
  for (;;) {
    const before = performance.now();
    const step = steps.next();
    times.push(performance.now() - before);
    if (step.done) return times;
  }
}

console.log(`board analysis in steps: the longest step (goal < ${GOAL_MS} ms), steps, whole run`);
for (const [name, board] of Object.entries(boards)) {
  let shortest = [];
  let fastest = Infinity;
  for (let run = 0; run < 3; run += 1) {
    const started = performance.now();
    const now = timed(board);
    fastest = Math.min(fastest, performance.now() - started);
    shortest = run ? shortest.map((t, i) => Math.min(t, now[i])) : now;
  }
  const longest = Math.max(...shortest);
  console.log(`${name.padEnd(56)} ${longest.toFixed(1).padStart(7)} ms ${String(shortest.length).padStart(6)} steps ` +
    `${fastest.toFixed(0).padStart(7)} ms  ${longest < GOAL_MS ? "ok" : "OVER"}`);
}
