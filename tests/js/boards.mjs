// The audits' slow boards of 1,000 squares, shared by tests/js/board_math.test.mjs (each step of
// the page's analysis is short; no clock is asserted) and benchmarks/bench_board_steps.mjs (the
// longest step, timed).

/** `count` long chutes on a board of `size` squares: sources spread over the top half, each
 * back to one of the first tenth of the squares. */
export const longChutes = (/** @type {number} */ size, /** @type {number} */ count, extra = {}) => ({
  size, die: 6, overshoot: "stay", bonus_roll: null, traps: [], ...extra,
  jumps: Array.from({ length: count }, (_, i) => [
    Math.floor(size / 2) + Math.floor((i * (size / 2 - 1)) / count),
    (i * 37) % Math.floor(size / 10)]),
});

/** A weighted die of 1,000 faces (weights 1, 2, 3, 1, 2, 3, ...). */
export const weighted = Array.from({ length: 1000 }, (_, i) => 1 + (i % 3));

/** The slow boards, by name. */
export const SLOW_BOARDS = {
  "1000 squares, die 1000": { size: 1000, die: 1000 },
  "1000 squares, die 1000, bounce": { size: 1000, die: 1000, overshoot: "bounce" },
  "1000 squares, die 6, 200 long chutes": longChutes(1000, 200),
  "1000 squares, die 1000, 200 long chutes, bonus roll 7":
    longChutes(1000, 200, { die: 1000, bonus_roll: 7 }),
  "1000 squares, 1000 weighted faces, 200 long chutes": longChutes(1000, 200, { die: weighted }),
};
