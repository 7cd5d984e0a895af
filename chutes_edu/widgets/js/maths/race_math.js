// @ts-check
/**
 * A race of several players, in the page: each seat's chance of finishing first (the library's
 * `chutes_edu.win_probabilities`, held equal to it by tests/js/race_math.test.mjs).
 *
 * Players move in seat order, seat 0 first, one turn each per round; tokens do not interact, so
 * the turns T_i that player i needs from their square are independent, each with the game-length
 * distribution from that square (`turnDistribution` of maths/board_math.js). Player i wins if they
 * finish on some turn k while every earlier seat still needs more than k turns and every later
 * seat at least k (Noordenbos):
 *
 *     P(i wins) = sum_k P(T_i = k) prod_{j < i} P(T_j > k) prod_{j > i} P(T_j >= k).
 *
 * P(T >= k) is summed from the tail, as the library sums it (small probabilities keep their
 * digits), and P(T > k) = P(T >= k) - P(T = k).
 *
 * A board with traps is refused, in the library's words: whether a player in a trap is out, or
 * loses at once, is a house rule the race does not model. A position off the board, or not a
 * whole number, is refused naming the player (0-based, as the library names them).
 *
 * Cost: one distribution per distinct square (`createRace` keeps them, so a change of one
 * player's square costs one distribution and one combination of O(players^2 x turns)).
 *
 * @module race_math
 */
import { BoardError, ranges, turnDistribution, validate } from "./board_math.js";
import { pyRepr } from "../core/format.js";

/** The fewest and the most players of the explorer (the library takes any number from one). */
export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = 6;

/**
 * The board checked for a race: the library's words for an invalid board or one with traps.
 * @param {any} board A board in maths/board_math.js's JSON form.
 * @returns {any} the same board.
 */
export function checkRaceBoard(board) {
  const problem = validate(board);
  if (problem !== null) throw new BoardError(problem);
  const traps = board.traps ?? [];
  if (traps.length) {
    throw new BoardError(`win_probabilities does not handle traps (this board has traps on ` +
      `${ranges(traps)}): what a trap does to a race is a house rule`);
  }
  return board;
}

/**
 * The players' squares checked on the board (the library's words), as numbers.
 * @param {any} board A valid board in JSON form.
 * @param {unknown} positions
 * @returns {number[]}
 */
export function checkPositions(board, positions) {
  if (!Array.isArray(positions)) {
    throw new BoardError(`positions must be a list of squares, not ${pyRepr(positions, 200)}`);
  }
  const size = board.size ?? 100;
  const squares = positions.map((value, i) => {
    const what = `position of player ${i}`;
    if (typeof value !== "number" || !Number.isInteger(value)) {
      throw new BoardError(`${what} must be a whole number, not ${pyRepr(value, 200)}`);
    }
    if (value < 0 || value > size) {
      throw new BoardError(`${what} ${value} is off the board (squares 0..${size})`);
    }
    return value;
  });
  if (!squares.length) throw new BoardError("win_probabilities needs at least one player");
  return squares;
}

/**
 * Each seat's chance of winning from the players' game-length distributions (the library's
 * combination, step for step).
 * @param {ArrayLike<number>[]} pmfs pmfs[i][k] = P(T_i = k), in seat order.
 * @returns {Float64Array}
 */
export function winsFromDistributions(pmfs) {
  const players = pmfs.length;
  let length = 0;
  for (const pmf of pmfs) length = Math.max(length, pmf.length);
  const later = pmfs.map((pmf) => {            // P(T >= k), summed from the tail
    const out = new Float64Array(length);
    let sum = 0;
    for (let k = length - 1; k >= 0; k -= 1) {
      sum += k < pmf.length ? pmf[k] : 0;
      out[k] = sum;
    }
    return out;
  });
  const after = later.map((tail, i) => {      // P(T > k)
    const out = new Float64Array(length);
    const pmf = pmfs[i];
    for (let k = 0; k < length; k += 1) out[k] = tail[k] - (k < pmf.length ? pmf[k] : 0);
    return out;
  });
  const wins = new Float64Array(players);
  const factor = new Float64Array(length);
  for (let i = 0; i < players; i += 1) {
    const pmf = pmfs[i];
    for (let k = 0; k < length; k += 1) factor[k] = k < pmf.length ? pmf[k] : 0;
    for (let j = 0; j < players; j += 1) {
      if (j === i) continue;
      const other = j < i ? after[j] : later[j];
      for (let k = 0; k < length; k += 1) factor[k] *= other[k];
    }
    let sum = 0;
    for (let k = 0; k < length; k += 1) sum += factor[k];
    wins[i] = sum;
  }
  return wins;
}

/**
 * Each seat's chance of finishing first, seat 0 moving first (chutes_edu.win_probabilities).
 * @param {any} board A board in JSON form, with no traps.
 * @param {unknown} positions The square of each player, in seat order (at least one).
 * @returns {Float64Array} one probability per player; they sum to 1 (within 1e-10).
 * @throws {BoardError} for an invalid board, one with traps, or a position off the board.
 */
export function winProbabilities(board, positions) {
  return createRace(board).wins(positions);
}

/**
 * A race on one board that keeps the distribution from every square it has needed, so that a
 * change of one player's square costs one new distribution at most.
 * @param {any} board A board in JSON form, with no traps.
 * @throws {BoardError} for an invalid board or one with traps.
 */
export function createRace(board) {
  checkRaceBoard(board);
  /** @type {Map<number, Float64Array>} */
  const pmfs = new Map();
  const pmf = (/** @type {number} */ square) => {
    let out = pmfs.get(square);
    if (out === undefined) {
      out = turnDistribution(board, { start: square });
      pmfs.set(square, out);
    }
    return out;
  };
  return {
    board,
    /** The game-length distribution from `square` (kept). @param {number} square */
    pmf,
    /** Whether the distribution from `square` is already kept. @param {number} square */
    has: (/** @type {number} */ square) => pmfs.has(square),
    /**
     * Each seat's chance of winning from `positions`.
     * @param {unknown} positions
     * @returns {Float64Array}
     */
    wins(positions) {
      const squares = checkPositions(board, positions);
      return winsFromDistributions(squares.map(pmf));
    },
  };
}
