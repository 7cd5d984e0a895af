/**
 * The runner: the editor's maths without blocking the page.
 *
 * `analyseInSteps(board)` (the maths module) is a generator that does about 100,000 operations a
 * step. The runner takes steps for `budget` milliseconds (8: half a frame), then gives the page
 * back to the browser (`scheduler.yield` where there is one, else a MessageChannel message, else
 * a zero timeout) and goes on, so that keys, clicks and drawing are never held up for more than
 * one chunk. A board answered within the first chunk (the 1943 board takes about a millisecond)
 * is answered at once, in the edit's own task, so a small edit settles in one frame.
 *
 * A newer request drops the older one (its generator is closed: the next edit cancels the
 * work of the last). Answers are kept by board key, the most recent `cacheSize`, so undo and redo
 * answer at once. A generator that throws (a bug, or memory that cannot be had) gives a refusal
 * in words, never an exception.
 *
 * @module editor_runner
 */
import { analyseInSteps, refusalLine } from "../maths/board_math.js";

/** Milliseconds of maths in one go before the page gets the thread back. */
export const BUDGET_MS = 8;

/** Answers kept. */
export const CACHE_SIZE = 40;

/**
 * Give the thread back to the browser once: resolves in a later task.
 * @returns {Promise<void>}
 */
export function nextTask() {
  const scheduler = /** @type {any} */ (globalThis).scheduler;
  if (scheduler && typeof scheduler.yield === "function") return scheduler.yield();
  if (typeof MessageChannel === "function") {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A thrown error as a refusal in words. */
function failure(/** @type {unknown} */ error) {
  const why = error instanceof Error ? error.message : String(error);
  return { error: refusalLine(`the page could not compute this board: ${why}`) };
}

/**
 * A runner.
 * @param {{steps?: (board: any) => Iterator<any, any>, budget?: number, cacheSize?: number,
 *     now?: () => number, pause?: () => Promise<void>}} [options] The generator (default
 *     `analyseInSteps`), the chunk in milliseconds, the answers kept, a clock and the pause
 *     between chunks (for tests).
 */
export function createRunner({ steps = analyseInSteps, budget = BUDGET_MS, cacheSize = CACHE_SIZE,
  now = () => performance.now(), pause = nextTask } = {}) {
  /** @type {Map<string, any>} */
  const cache = new Map();
  /** @type {any} */
  let current = null;
  let chunks = 0;

  const remember = (/** @type {string} */ key, /** @type {any} */ result) => {
    cache.delete(key);
    cache.set(key, result);
    while (cache.size > cacheSize) cache.delete(/** @type {string} */ (cache.keys().next().value));
    return result;
  };

  /** Steps for one chunk: the answer, or undefined if there is more to do. */
  function advance(/** @type {any} */ job) {
    const start = now();
    chunks += 1;
    try {
      for (;;) {
        const step = job.gen.next();
        if (step.done) return remember(job.key, step.value ?? failure("no answer"));
        if (now() - start >= budget) return undefined;
      }
    } catch (error) {
      return remember(job.key, failure(error));
    }
  }

  function drop(/** @type {any} */ job) {
    try {
      job.gen.return?.(undefined);
    } catch {
      // a generator that fails to close has nothing left to say
    }
  }

  async function drive(/** @type {any} */ job) {
    for (;;) {
      await pause();
      if (job !== current) return drop(job);
      const result = advance(job);
      if (result !== undefined) {
        current = null;
        job.onDone(result);
        return undefined;
      }
    }
  }

  /**
   * The answer for a board: at once (returned) if it is known or quick, else null now and
   * `onDone(answer)` later, unless a newer request came first.
   * @param {any} board
   * @param {string} key Equal for equal boards.
   * @param {(result: any) => void} onDone
   * @param {{now?: boolean}} [options] `now: false`: no maths in this task (its first chunk
   *     waits for the next), for a task that had much to do already.
   * @returns {any} The answer, or null while it is being computed.
   */
  function run(board, key, onDone, { now: atOnce = true } = {}) {
    if (current) drop(current);
    current = null;
    if (cache.has(key)) return remember(key, cache.get(key));
    let gen;
    try {
      gen = steps(board);
    } catch (error) {
      return remember(key, failure(error));
    }
    const job = { key, gen, onDone };
    const result = atOnce ? advance(job) : undefined;
    if (result !== undefined) return result;
    current = job;
    drive(job);
    return null;
  }

  /** Drop the work under way, if any. */
  function cancel() {
    if (current) drop(current);
    current = null;
  }

  return {
    run, cancel,
    /** Whether an answer is being computed. */
    get busy() { return current !== null; },
    /** Chunks run so far (for tests). */
    get chunks() { return chunks; },
  };
}
