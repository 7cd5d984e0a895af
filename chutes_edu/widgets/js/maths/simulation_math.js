// @ts-check
/**
 * A seeded simulation of the game in the page (chutes_edu.simulate and chutes_edu.capped_mean in
 * JavaScript): many games played roll by roll, their lengths in turns, and the mean a turn cap
 * would report.
 *
 * One roll from square s: the bonus face (probability p_f, when the board has one) leads to
 * bonusTo[s] and, unless the game has ended there, rolls again in the same turn; any other face r
 * with weight ends the turn on l(s, r) (the overshoot rule past the final square, then at most
 * one jump), the moves maths/board_math.js gathers by the square they end on. A game ends on the final
 * square or a trap; its length is the number of turns taken. Each roll takes one uniform u from
 * the seed's stream (core/random.js's `createRandom`): u < p_f is the bonus face, otherwise the
 * move whose cumulative chance first exceeds u - p_f. The games are the library's in law, not
 * draw for draw (numpy's stream is another), so a mean of N games lies within a few standard
 * errors sigma / sqrt(N) of the exact expected turns (tests/js/simulation_math.test.mjs).
 *
 * A turn cap counts a game longer than `cap` turns as `cap` turns: the capped mean
 * mean(min(T, cap)) is biased down (`cappedMean`, the library's).
 *
 * Cost: about one uniform per turn; `simulateInSteps` yields after every slice of rolls, so a
 * page plays 10^5 games a few milliseconds at a time.
 *
 * @module simulation_math
 */
import { BoardError, compileSteps } from "./board_math.js";
import { pyRepr } from "../core/format.js";
import { ROLL_SLICE, run } from "../core/steps.js";
import { checkSeed } from "./coin_math.js";
import { createRandom } from "../core/random.js";

/** The most games the page plays. */
export const MAX_GAMES = 1_000_000;

/**
 * A number of games from 1 to MAX_GAMES, or BoardError naming it.
 * @param {unknown} n
 * @returns {number}
 */
export function checkGames(n) {
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > MAX_GAMES) {
    throw new BoardError(`the number of games must be a whole number from 1 to ` +
      `${MAX_GAMES.toLocaleString("en-US")}, not ${pyRepr(n)}`);
  }
  return n;
}

/**
 * `n` game lengths from square 0, played a slice of rolls at a time (a generator that yields
 * after every slice, the number of games finished so far, and returns the lengths).
 * @param {any} board A board in maths/board_math.js's JSON form.
 * @param {number} n The number of games.
 * @param {number} seed The random seed (0 to 2^32 - 1).
 * @returns {Generator<number | void, Int32Array, void>} (compiling the board yields nothing)
 * @throws {BoardError} for an invalid board, number of games or seed.
 */
export function* simulateInSteps(board, n, seed) {
  checkGames(n);
  const next = createRandom(checkSeed(seed));
  const model = yield* compileSteps(board);
  const { end, rowStart, dest, moveChance, bonusTo, pf } = model;
  const turns = new Int32Array(n);
  let rolls = 0;
  for (let game = 0; game < n; game += 1) {
    let s = 0;
    let count = 0;
    while (!end[s]) {
      const u = next();
      rolls += 1;
      if (u < pf) {                                  // the bonus face: again, same turn
        s = bonusTo[s];
        if (end[s]) count += 1;                      // ... unless the game has ended
        continue;
      }
      let left = u - pf;
      const last = rowStart[s + 1] - 1;
      let i = rowStart[s];
      for (; i < last && left >= moveChance[i]; i += 1) left -= moveChance[i];
      s = dest[i];
      count += 1;
      if (rolls >= ROLL_SLICE) { rolls = 0; yield game; }
    }
    turns[game] = count;
  }
  return turns;
}

/**
 * `n` game lengths from square 0 with the seed's stream (chutes_edu.simulate, with the page's
 * generator: the same seed always gives the same games).
 * @param {any} board
 * @param {number} n
 * @param {number} seed
 * @returns {Int32Array}
 */
export function simulateGames(board, n, seed) {
  return run(simulateInSteps(board, n, seed));
}

/**
 * The mean game length a simulation with a turn cap would report, mean(min(T, cap))
 * (chutes_edu.capped_mean).
 * @param {ArrayLike<number>} turns
 * @param {unknown} cap A whole number, at least 1.
 * @returns {number}
 */
export function cappedMean(turns, cap) {
  if (typeof cap !== "number" || !Number.isInteger(cap)) {
    throw new BoardError(`cap must be a whole number, not ${pyRepr(cap)}`);
  }
  if (cap < 1) throw new BoardError(`cap must be at least 1, got ${cap}`);
  let sum = 0;
  for (let i = 0; i < turns.length; i += 1) sum += Math.min(turns[i], cap);
  return sum / turns.length;
}
