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
import { SLOW_BOARDS as boards } from "../tests/js/boards.mjs";

const GOAL_MS = 25;

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
