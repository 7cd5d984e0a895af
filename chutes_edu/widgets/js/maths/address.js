/**
 * The board in the page's address (`#board=s30-d6-stay-j5.12`, the maths module's
 * `encodeBoard`): a link opens its board, and each edit is written back.
 *
 * An address is whatever a link gives: malformed, huge (a size of 10^9, a megabyte of text),
 * junk or any unicode. None of it may cost the page more than reading it: the text is read
 * (`decodeBoard`), the board checked against the editor's limits before anything is built
 * (`checkBoard`), and a refusal is one line in words (`refusalLine`, values as Python's repr
 * writes them). The editor then keeps the board it had and says why; it is never left blank.
 *
 * @module editor_address
 */
import { decodeBoard, encodeBoard, LIMITS, refusalLine } from "./board_math.js";
import { pyRepr } from "../core/format.js";

/** The longest board text read from an address (a 1,000-square board with every jump and
 * written weights takes about 30,000 characters); a longer one is refused unread. */
export const MAX_ADDRESS = /** @type {any} */ (LIMITS).address ?? 100_000;

/** The board's text in an address, or null if there is none. */
export function boardText(/** @type {string} */ hash) {
  const found = /(?:^#|&)board=([^&]*)/.exec(hash);
  return found ? found[1] : null;
}

/** The address of a board. */
export const addressOf = (/** @type {any} */ board) => `#board=${encodeBoard(board)}`;

/**
 * Read a board from an address.
 * @param {string} hash `location.hash`.
 * @returns {{board: any} | {problem: string} | null} null when the address holds no board.
 */
export function readAddress(hash) {
  const found = boardText(hash);
  if (found === null) return null;
  if (found.length > MAX_ADDRESS) {
    return { problem: `the page address holds ${found.length} characters of board text, more ` +
      `than any board the editor takes (at most ${MAX_ADDRESS}): it is left unread` };
  }
  try {
    return { board: decodeBoard(found) };
  } catch (error) {
    const why = error instanceof Error ? error.message : `unreadable text ${pyRepr(String(found))}`;
    return { problem: refusalLine(`the page address holds no board the editor can read: ${why}`) };
  }
}

/**
 * The state after opening the board in an address: the address's board, or the state's own
 * board with the refusal as its message.
 * @param {any} state
 * @param {string} hash
 * @param {(state: any, action: any) => any} update The editor's `update`.
 * @returns {any}
 */
export function openAddress(state, hash, update) {
  const read = readAddress(hash);
  if (read === null) return state;
  if ("problem" in read) return update(state, { type: "refuse", message: read.problem });
  const next = update(state, { type: "load", board: read.board, origin: "address" });
  if (next.message && next.revision === state.revision) {
    return { ...next, message: refusalLine("the page address holds a board the editor cannot " +
      `take: ${next.message}`) };
  }
  return next;
}
