// @ts-check
/**
 * The simulation explorer of `chutes_edu` (chutes_edu/widgets/simulation_explorer.py, Lessons 1
 * and 7): play many games on a board and watch the running mean of their lengths settle on the
 * exact expected number of turns; a turn cap, which counts every game as at most `cap` turns,
 * shows its downward bias. It plays and computes in the page (maths/simulation_math.js, held to the
 * library by tests), with no kernel.
 *
 * The maths: after k games of lengths T_1..T_k the running mean is m_k = (T_1 + ... + T_k)/k with
 * the 95% band m_k ± 1.96 s_k/sqrt(k) (`runningMeanAt`, the library's running_mean); the exact
 * mean E[T] is the first entry of the solution of (I - Q) t = 1 (`solveSteps`, the library's
 * expected_turns). With a cap c the page also draws the running mean of min(T_i, c), which
 * settles on E[min(T, c)] < E[T], however many games are played (`cappedMean`).
 *
 * Two ways in, as the coin-flip and race explorers have:
 *
 * - `export default { render }`: an anywidget front end. The model's traits are `board_json`
 *   (the board, in maths/board_math.js's JSON form), `board_name`, `games` (how many to play),
 *   `random_seed` and `turn_cap` (0: no cap); a control sets them and saves, and a change from
 *   Python redraws the page.
 * - `mount(el, {board_json, board_name, games, random_seed, turn_cap})`: the same explorer on a
 *   page with no widget manager (the course website), on `createModel`'s stand-in for a model.
 *
 * The "run" button draws a new seed (`newSeed`: any seed but the one in use), shows it in the seed
 * box and saves it, so each press plays new games that the seed box can play again. A change of
 * the board, the number of games or the seed plays the games anew, a few milliseconds at a time (`simulateInSteps`, a slice of rolls per step, driven in
 * tasks of about `TASK_MS`, each the page's next task), so 10^5 games never hold the page; the
 * progress bar follows, and a newer run stops an older one. A change of the cap only redraws the
 * games already played. Each drawing renews the picture with its description, the readout, and a
 * polite announcement. A value the explorer refuses (a number box left empty, too many games)
 * leaves the last one and says why in the message line.
 *
 * @module simulation_explorer
 */
import { BoardError, compileSteps, solveSteps } from "../../maths/board_math.js";
import { giveBack } from "../../core/solve.js";
import { pyRepr } from "../../core/format.js";
import { checkSeed, logIndices, MAX_SEED, runningMeanAt } from "../../maths/coin_math.js";
import { createConvergenceChart } from "../../ui/convergence_chart.js";
import { h, panelRoot } from "../../ui/dom.js";
import { said, translator } from "../../core/i18n.js";
import { createModel } from "../../core/model.js";
import { errorWords, fixed, grouped, liveRegion, messageLine, numberBox, pageLanguage, slider, uniqueId } from "../../ui/controls.js";
import { cappedMean, checkGames, MAX_GAMES, simulateInSteps } from "../../maths/simulation_math.js";

export { describeConvergence } from "../../ui/convergence_chart.js";
export {
  cappedMean, checkGames, MAX_GAMES, simulateGames, simulateInSteps,
} from "../../maths/simulation_math.js";

/** The traits the explorer shares with Python. */
export const TRAITS = ["board_json", "board_name", "games", "random_seed", "turn_cap",
  "language"];

/** The longest cap the slider offers (turns); 0 is no cap. */
export const MAX_CAP = 300;

/**
 * A seed for the "run" button: drawn uniformly from 0..MAX_SEED leaving out `previous` (the seed
 * in use), so that each press plays games the page has not just shown.
 * @param {number} previous the seed in use (0..MAX_SEED)
 * @param {() => number} [random] a source of numbers in [0, 1)
 * @returns {number}
 */
export function newSeed(previous, random = Math.random) {
  const used = checkSeed(previous);
  const drawn = Math.min(Math.floor(random() * MAX_SEED), MAX_SEED - 1);   // MAX_SEED choices
  return drawn >= used ? drawn + 1 : drawn;
}

/** The longest stretch of playing in one task of the page (ms): well under a frame. */
const TASK_MS = 8;

/** The refusals of the page's maths that the explorer says back in its language. */
export const SAID_BACK = Object.freeze([
  said("the random seed must be a whole number from 0 to {most}, not {value}"),
  said("the number of games must be a whole number from 1 to {most}, not {value}"),
  said("the cap must be a whole number of turns from 0 (no cap) to {most}, not {value}"),
]);

/**
 * A cap from 0 (no cap) to MAX_CAP, or BoardError naming it.
 * @param {unknown} cap
 * @returns {number}
 */
export function checkCap(cap) {
  if (typeof cap !== "number" || !Number.isInteger(cap) || cap < 0 || cap > MAX_CAP) {
    throw new BoardError(`the cap must be a whole number of turns from 0 (no cap) to ` +
      `${MAX_CAP}, not ${pyRepr(cap)}`);
  }
  return cap;
}

/**
 * The readout and the announcement for games played (the words the explorer wrote before it
 * ran in the page), in the language of `t` (default English).
 * @param {{n: number, mean: number, half: number, exact: number, cap: number,
 *          capped?: number, cut?: number}} state
 */
export function simulationWords({ n, mean, half, exact, cap, capped = NaN, cut = 0 },
  t = translator("en")) {
  const band = Number.isFinite(half) ? ` ± ${fixed(half, 3)}` : "";
  /** A sentence said whole, its `{name}` placeholders of `bold` in bold. */
  const pieces = (/** @type {string} */ words, /** @type {Record<string, string>} */ bold) =>
    words.split(/(\{\w+\})/).filter(Boolean).map((piece) => {
      const name = /^\{(\w+)\}$/.exec(piece)?.[1];
      return name !== undefined && Object.hasOwn(bold, name) ? { bold: bold[name] } : piece;
    });
  /** @type {Array<string | {bold: string}>} */
  const readout = pieces(t("mean of {n} games: {mean}{band} turns (95%); exact: {exact} turns",
    { n: grouped(n), band }), { mean: fixed(mean, 4), exact: fixed(exact, 4) });
  let announcement = t("Mean of {n} games {mean} turns, exact {exact}",
    { n: grouped(n), mean: fixed(mean, 2), exact: fixed(exact, 2) });
  if (cap > 0) {
    const off = capped - exact;
    readout.push("\n", ...pieces(t("capped at {cap} turns: {capped} turns, off by {off} turns " +
      "({cut} games cut short)", { cap, cut: grouped(cut) }), { capped: fixed(capped, 4),
      off: `${off >= 0 ? "+" : "-"}${fixed(Math.abs(off), 4)}` }));
    announcement += t("; capped at {cap} turns {capped}", { cap, capped: fixed(capped, 2) });
  }
  return { readout, announcement };
}

/**
 * The running mean of the games with each counted as at most `cap` turns, at the samples `at`,
 * and how many games the cap cut short.
 * @param {Int32Array} turns
 * @param {ArrayLike<number>} at
 * @param {number} cap
 */
export function cappedRunning(turns, at, cap) {
  const capped = new Int32Array(turns.length);
  let cut = 0;
  for (let i = 0; i < turns.length; i += 1) {
    if (turns[i] > cap) {
      capped[i] = cap;
      cut += 1;
    } else {
      capped[i] = turns[i];
    }
  }
  return { mean: runningMeanAt(capped, at).mean, cut };
}

/**
 * The exact expected turns from square 0 and then the game lengths, step by step (each step a
 * slice of work; the simulation's steps say how many games are done).
 * @param {any} board
 * @param {number} n
 * @param {number} seed
 * @returns {Generator<number | void, {exact: number, turns: Int32Array}, void>}
 */
function* playSteps(board, n, seed) {
  const model = yield* compileSteps(board);
  const { t, lu } = yield* solveSteps(model);
  giveBack(lu.A);
  const turns = yield* simulateInSteps(board, n, seed);
  return { exact: t[0], turns };
}

/**
 * The next slices of a run, each as a new task of the page: a message to itself (nested timers
 * would wait 4 ms each), or a timer where there are no message channels. `later(slice)` asks
 * for one; `drop()` forgets the one asked for; `close()` lets the channel go.
 */
function createSlices() {
  const channel = typeof MessageChannel === "undefined" ? null : new MessageChannel();
  /** @type {(() => void) | null} */
  let nextSlice = null;
  if (channel) {
    channel.port1.onmessage = () => {
      const slice = nextSlice;
      nextSlice = null;
      slice?.();
    };
  }
  const later = (/** @type {() => void} */ slice) => {
    if (channel === null) {
      setTimeout(slice, 0);
    } else {
      nextSlice = slice;
      channel.port2.postMessage(0);
    }
  };
  return {
    later,
    drop: () => { nextSlice = null; },
    close: () => { channel?.port1.close(); },
  };
}

/**
 * One simulation explorer on the page: its model, its controls and picture, the games played
 * and the run under way.
 * @typedef {object} Simulation
 * @property {any} model The anywidget model, or `createModel`'s stand-in.
 * @property {string} id The explorer's id prefix.
 * @property {import("../../core/i18n.js").Translate} t Its words in the page's language.
 * @property {{key: string, turns: Int32Array, exact: number, at: Int32Array,
 *     mean: Float64Array, half: Float64Array} | null} games The games played: their key
 *     (board, number, seed), lengths, exact mean, running mean.
 * @property {string} drawn The key of the games and cap drawn.
 * @property {string} playing The key of the run under way, "" if none.
 * @property {number} job Bumped by every new run: an older one stops.
 * @property {ReturnType<typeof createSlices>} slices
 * @property {ReturnType<typeof messageLine>} message
 * @property {ReturnType<typeof liveRegion>} live
 * @property {ReturnType<typeof controls>} controls
 * @property {HTMLElement} readout
 * @property {ReturnType<typeof createConvergenceChart>} chart
 * @property {HTMLElement} title
 * @property {() => void} show Redraw from the model (the one listener of its changes).
 */

/** Set a trait and save it. */
function save(/** @type {Simulation} */ sim, /** @type {string} */ name,
  /** @type {number} */ value) {
  sim.model.set(name, value);
  sim.model.save_changes();
}

/** A typed value, checked; refused in words, the box showing the last value again. */
function commit(/** @type {Simulation} */ sim, /** @type {string} */ name,
  /** @type {(v: number) => number} */ check) {
  return (/** @type {string} */ typed) => {
    try {
      const value = check(typed.trim() === "" ? NaN : Number(typed));
      if (value !== sim.model.get(name)) save(sim, name, value);
      sim.message.say("");
      return true;
    } catch (error) {
      sim.message.say(errorWords(error));
      boxes(sim);
      return false;
    }
  };
}

/** The controls: the number of games, the seed, the run button, the progress bar, the cap. */
function controls(/** @type {Simulation} */ sim) {
  const { id, t } = sim;
  const commitGames = commit(sim, "games", checkGames);
  const commitSeed = commit(sim, "random_seed", checkSeed);
  const n = numberBox({ id: `${id}-n`, label: t("games to play"), min: 1, max: MAX_GAMES,
    className: "chutes-n-games", onCommit: commitGames });
  const seed = numberBox({ id: `${id}-seed`, label: t("random seed"), min: 0, max: MAX_SEED,
    className: "chutes-seed", onCommit: commitSeed });
  const runButton = /** @type {HTMLButtonElement} */ (h("button", { type: "button",
    class: "chutes-run", title: t("play new games (a new random seed)"), text: t("run") }));
  const progress = /** @type {HTMLProgressElement} */ (h("progress", { id: `${id}-progress`,
    max: 100, value: 0 }));
  const progressBox = h("div", { class: "chutes-progress" },
    [h("label", { for: `${id}-progress`, text: t("played") }), progress]);
  const cap = slider({ id: `${id}-cap`, label: t("cap on a game's length (0: no cap)"), min: 0,
    max: MAX_CAP, step: 1, decimals: 0, unit: (k) => (k === 1 ? t("turn") : t("turns")),
    className: "chutes-cap",
    onInput: (v) => save(sim, "turn_cap", v) });
  runButton.addEventListener("click", () => {
    if (!commitGames(n.input.value)) return;
    const fresh = newSeed(sim.model.get("random_seed"));
    seed.set(fresh);
    sim.message.say("");
    save(sim, "random_seed", fresh);
    play(sim);                         // no-op when the change of seed has started the run
  });
  return { n, seed, runButton, progress, progressBox, cap };
}

/** Show the model's number of games and seed in their boxes. */
function boxes(/** @type {Simulation} */ sim) {
  sim.controls.n.set(sim.model.get("games"));
  sim.controls.seed.set(sim.model.get("random_seed"));
}

/** The key of the games the state asks for. */
function gamesKey(/** @type {Simulation} */ { model }) {
  return `${JSON.stringify(model.get("board_json"))}|${model.get("games")}|` +
    model.get("random_seed");
}

/** Stop the run under way, if any. */
function stopRun(/** @type {Simulation} */ sim) {
  sim.job += 1;                        // a slice of an older run returns at once
  sim.slices.drop();
  sim.playing = "";
  sim.readout.removeAttribute("aria-busy");
}

/** Play the games the state asks for (again, with `force`), a task at a time. */
function play(/** @type {Simulation} */ sim, force = false) {
  const { model, controls: { progress } } = sim;
  const key = gamesKey(sim);
  if (!force && key === sim.playing) return;
  if (!force && sim.games !== null && sim.games.key === key) {   // back to the games played
    if (sim.playing) {
      stopRun(sim);
      progress.value = 100;
    }
    return;
  }
  stopRun(sim);
  /** @type {Generator<number | void, {exact: number, turns: Int32Array}, void>} */
  let steps;
  try {
    const count = checkGames(model.get("games"));
    steps = playSteps(model.get("board_json"), count, checkSeed(model.get("random_seed")));
  } catch (error) {
    sim.playing = "";
    sim.message.say(errorWords(error));
    return;
  }
  sim.playing = key;
  progress.value = 0;
  sim.readout.setAttribute("aria-busy", "true");
  sim.slices.later(slicer(sim, key, steps, model.get("games")));
}

/**
 * One slice of the run of `key` (of `total` games): steps for at most TASK_MS, the progress bar
 * following, then the next slice in a later task; the last step finishes the run.
 * @param {Simulation} sim
 * @param {string} key
 * @param {Generator<number | void, {exact: number, turns: Int32Array}, void>} steps
 * @param {number} total
 */
function slicer(sim, key, steps, total) {
  const mine = sim.job;
  const { progress } = sim.controls;
  const slice = () => {
    if (mine !== sim.job) return;
    const start = performance.now();
    try {
      for (;;) {
        const step = steps.next();
        if (step.done) {
          finish(sim, key, step.value);
          return;
        }
        if (typeof step.value === "number") progress.value = (100 * step.value) / total;
        if (performance.now() - start > TASK_MS) break;
      }
    } catch (error) {
      sim.playing = "";
      sim.readout.removeAttribute("aria-busy");
      sim.message.say(errorWords(error));
      return;
    }
    sim.slices.later(slice);
  };
  return slice;
}

/** The games of `key` are played: keep them and draw. */
function finish(/** @type {Simulation} */ sim, /** @type {string} */ key,
  /** @type {{exact: number, turns: Int32Array}} */ { exact, turns }) {
  sim.playing = "";
  sim.controls.progress.value = 100;
  sim.readout.removeAttribute("aria-busy");
  const at = logIndices(turns.length);
  const { mean, half } = runningMeanAt(turns, at);
  sim.games = { key, turns, exact, at, mean, half };
  sim.drawn = "";
  sim.message.say("");
  show(sim);
}

/** Draw the games played with the current cap. */
function show(/** @type {Simulation} */ sim) {
  const { model } = sim;
  boxes(sim);
  const name = model.get("board_name");
  sim.title.replaceChildren(h("b", { text: sim.t("Simulation") }),
    sim.t(" on {name}: play many games and watch the average settle on the exact answer.",
      { name: name || sim.t("the board") }));
  let c;
  try {
    c = checkCap(model.get("turn_cap"));
  } catch (error) {
    sim.message.say(errorWords(error));
    return;
  }
  sim.controls.cap.set(c);
  if (gamesKey(sim) !== sim.games?.key) play(sim);
  if (sim.games === null) return;
  const key = `${sim.games.key}|${c}`;
  if (key === sim.drawn) return;
  drawGames(sim, sim.games, c);
  sim.drawn = key;
}

/** The picture, the readout and the announcement for `games` with the cap `c` (0: none). */
function drawGames(/** @type {Simulation} */ sim,
  /** @type {NonNullable<Simulation["games"]>} */ { turns, exact, at, mean, half },
  /** @type {number} */ c) {
  const last = mean.length - 1;
  let words;
  if (c > 0) {
    const capped = cappedRunning(turns, at, c);
    sim.chart.draw({ n: turns.length, at, mean, half, exact, capped: capped.mean, cap: c });
    words = simulationWords({ n: turns.length, mean: mean[last], half: half[last], exact, cap: c,
      capped: cappedMean(turns, c), cut: capped.cut }, sim.t);
  } else {
    sim.chart.draw({ n: turns.length, at, mean, half, exact });
    words = simulationWords({ n: turns.length, mean: mean[last], half: half[last], exact,
      cap: 0 }, sim.t);
  }
  sim.readout.replaceChildren(...words.readout.map((part) => (part === "\n" ? h("br")
    : typeof part === "string" ? part : h("b", { text: part.bold }))));
  sim.live.say(words.announcement);
}

/** The explorer's page: the title, the controls, the readout, the message line, the picture. */
function layout(/** @type {Simulation} */ sim) {
  const c = sim.controls;
  return panelRoot([
    sim.title,
    h("div", { class: "chutes-simulation-row" }, [c.n.box, c.seed.box]),
    h("div", { class: "chutes-simulation-row" }, [c.runButton, c.progressBox]),
    c.cap.box, sim.readout, sim.message.el,
    h("div", { class: "chutes-picture chutes-simulation-image" }, [sim.chart.svg]),
    sim.live.el,
  ]);
}

/**
 * Draw the explorer into `el` for `model`; returns a function that stops listening.
 * @param {any} model
 * @param {HTMLElement} el
 */
function render(model, el) {
  const id = uniqueId("chutes-simulation");
  const t = translator(model.get("language") ?? pageLanguage());
  /** @type {Simulation} */
  const sim = {
    model, id, t, games: null, drawn: "", playing: "", job: 0,
    slices: createSlices(),
    message: messageLine(t),
    live: liveRegion(),
    controls: /** @type {any} */ (null),             // made next: their handlers need `sim`
    readout: h("p", { class: "chutes-readout" }),
    chart: createConvergenceChart({ id, title: t("Monte Carlo convergence"), unit: t("turns"),
      what: t("games"), exactLabel: t("exact value"), capLabel: t("mean with the turn cap"), t }),
    title: h("p", { class: "chutes-panel-title" }),
    show: () => show(sim),
  };
  sim.controls = controls(sim);
  el.classList.add("chutes-explorer", "chutes-panel", "chutes-simulation-explorer");
  el.append(layout(sim));
  for (const trait of TRAITS) model.on(`change:${trait}`, sim.show);
  sim.show();
  return () => {
    stopRun(sim);
    sim.slices.close();
    for (const trait of TRAITS) model.off(`change:${trait}`, sim.show);
  };
}

/**
 * The explorer on a page with no widget manager (the course website).
 * @param {HTMLElement} el
 * @param {{board_json?: any, board_name?: string, games?: number, random_seed?: number,
 *          turn_cap?: number, language?: string}} [start]
 */
export function mount(el, { board_json = {}, board_name = "", games = 10_000, random_seed = 0,
  turn_cap = 0, language = pageLanguage() } = {}) {
  const model = createModel({ board_json, board_name, games, random_seed, turn_cap, language });
  const stop = render(model, el);
  return { model, stop };
}

export default {
  render(/** @type {{model: any, el: HTMLElement}} */ { model, el }) {
    return render(model, el);
  },
};
