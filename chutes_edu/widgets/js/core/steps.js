// @ts-check
/**
 * Step-by-step computations, shared by the maths: a long computation is a generator that yields
 * after every slice of work, so that a page runs it a few milliseconds at a time (and drops it
 * when its input changes), and `run` drives one to its end in a single call (Node, the tests and
 * the small computations a page makes at once). The slice sizes count elementary operations: a
 * float multiply-add, a comparison, a table entry.
 *
 * @module steps
 */

/** Float operations between two yields (a fraction of a millisecond). */
export const SLICE = 25_000;

/** Operations on big integers between two yields: each costs tens of float operations. */
export const BIG_SLICE = 2_000;

/** Rolls of a simulated die between two yields: a roll is a uniform, a search of the square's
 * few moves and a count, so a slice of rolls takes about as long as a slice of operations. */
export const ROLL_SLICE = 50_000;

/**
 * Run a step-by-step computation to its end.
 * @template T
 * @param {Generator<unknown, T, void>} steps
 * @returns {T}
 */
export function run(steps) {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
