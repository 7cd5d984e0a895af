// @ts-check
/**
 * The race explorer of `chutes_edu` (chutes_edu/widgets/race_explorer.py, Lesson 8): put 2 to 6
 * players on any squares and see each seat's chance of finishing first, seat 1 moving first. It
 * computes in the page (maths/race_math.js, held equal to the library's `win_probabilities` by tests),
 * with no kernel.
 *
 * Two ways in, as the coin-flip explorer has:
 *
 * - `export default { render }`: an anywidget front end. The model's traits are `board_json`
 *   (the board, in maths/board_math.js's JSON form), `board_name` and `positions` (the players'
 *   squares in seat order); a control sets `positions` and saves, and a change from Python
 *   redraws the page.
 * - `mount(el, {board_json, board_name, positions})`: the same explorer on a page with no widget
 *   manager (the course website), on `createModel`'s stand-in for a model.
 *
 * On every change the page takes the game-length distribution from each player's square (kept
 * per square, so moving one player costs one distribution), combines them, and renews the bars
 * and the board with the seats' tokens (explorers/race_explorer/board.js), each with its description, the readout,
 * and a polite announcement. A value the explorer refuses
 * (a board with traps, a square off the board) leaves the last answer and says why in the
 * message line.
 *
 * @module race_explorer
 */
import { translator } from "../../core/i18n.js";
import { createModel } from "../../core/model.js";
import { h, panelRoot } from "../../ui/dom.js";
import { errorWords, fixed, liveRegion, messageLine, pageLanguage, slider, uniqueId } from "../../ui/controls.js";
import { createRaceBoard } from "./board.js";
import { createRaceChart } from "./chart.js";
import { createRace, MAX_PLAYERS, MIN_PLAYERS } from "../../maths/race_math.js";

export { describeRaceBoard, tokenPlaces } from "./board.js";
export { describeRace } from "./chart.js";
export {
  checkPositions, checkRaceBoard, createRace, MAX_PLAYERS, MIN_PLAYERS, winProbabilities,
  winsFromDistributions,
} from "../../maths/race_math.js";

/** The traits the explorer shares with Python. */
export const TRAITS = ["board_json", "board_name", "positions", "language"];

/**
 * The readout's rows, the favourite and the announcement for a race (the library's words, as
 * the explorer wrote them before it ran in the page), in the language of `t` (default English).
 * @param {number[]} positions
 * @param {ArrayLike<number>} wins
 */
export function raceWords(positions, wins, t = translator("en")) {
  let best = 0;
  for (let i = 1; i < wins.length; i += 1) if (wins[i] > wins[best]) best = i;
  return {
    rows: positions.map((square, i) => t("seat {seat} (square {square}): {p}",
      { seat: i + 1, square, p: fixed(wins[i], 4) })),
    favourite: t("favourite: seat {seat}", { seat: best + 1 }),
    announcement: t("Chance to win: {seats}", { seats: Array.from(wins, (p, i) =>
      t("seat {seat} {percent}%", { seat: i + 1, percent: fixed(100 * p, 1) })).join(", ") }),
  };
}

/**
 * Draw the explorer into `el` for `model`; returns a function that stops listening.
 * @param {any} model
 * @param {HTMLElement} el
 */
function render(model, el) {
  const id = uniqueId("chutes-race");
  const t = translator(model.get("language") ?? pageLanguage());
  /** @type {ReturnType<typeof createRace> | null} */
  let race = null;
  let raceBoard = "";
  let drawn = "";
  const pool = [0, 0, 0, 0, 0, 0];              // the squares of seats not playing, kept
  const positions = () => /** @type {number[]} */ ([...(model.get("positions") ?? [])]);
  const save = (/** @type {number[]} */ squares) => {
    model.set("positions", squares);
    model.save_changes();
  };
  const players = slider({ id: `${id}-players`, label: t("players"), min: MIN_PLAYERS,
    max: MAX_PLAYERS, step: 1, decimals: 0, unit: t("players"), className: "chutes-players",
    onInput: (k) => {
      const now = positions();
      now.forEach((square, i) => { pool[i] = square; });
      save(pool.slice(0, k));
    } });
  const seats = pool.map((_, i) => slider({ id: `${id}-seat-${i + 1}`,
    label: t("seat {seat} starts on square", { seat: i + 1 }), min: 0, max: 100, step: 1, decimals: 0,
    className: `chutes-player-${i + 1}`, onInput: (square) => {
      const now = positions();
      now[i] = square;
      save(now);
    } }));
  const readout = h("p", { class: "chutes-readout" });
  const message = messageLine(t);
  const live = liveRegion();
  const chart = createRaceChart({ id, t });
  const boardPicture = createRaceBoard({ id, t });

  function show() {
    const board = model.get("board_json");
    const squares = positions();
    const boardKey = JSON.stringify(board);
    const key = `${boardKey}|${model.get("board_name")}|${squares.join(",")}`;
    if (key === drawn) return;
    try {
      if (race === null || boardKey !== raceBoard) {
        race = null;
        race = createRace(board);
        raceBoard = boardKey;
      }
      const size = board.size ?? 100;
      players.set(squares.length);
      seats.forEach((seat, i) => {
        seat.input.max = String(size);
        seat.box.hidden = i >= squares.length;
        if (i < squares.length) {
          pool[i] = squares[i];
          seat.set(squares[i]);
        }
      });
      const wins = race.wins(squares);
      chart.draw(wins);
      boardPicture.draw(board, { name: model.get("board_name") ?? "", tokens: squares });
      const words = raceWords(squares, wins, t);
      readout.replaceChildren(...words.rows.flatMap((row, i) => {
        const [head, value] = row.split(": ");
        return [...(i ? [h("br")] : []), `${head}: `, h("b", { text: value })];
      }), h("br"), words.favourite);
      live.say(words.announcement);
      message.say("");
      drawn = key;
    } catch (error) {
      message.say(errorWords(error));
    }
  }

  el.classList.add("chutes-explorer", "chutes-panel", "chutes-race-explorer");
  el.append(panelRoot([
    h("p", { class: "chutes-panel-title" }, [h("b", { text: t("Race") }),
      t(": put the players anywhere; who is most likely to win? Seat 1 moves first.")]),
    players.box,
    h("div", { class: "chutes-race-seats" }, seats.map((seat) => seat.box)),
    readout, message.el,
    h("div", { class: "chutes-race-pictures" }, [
      h("div", { class: "chutes-picture chutes-race-image" }, [chart.svg]), boardPicture.el]),
    live.el,
  ]));
  for (const name of TRAITS) model.on(`change:${name}`, show);
  show();
  // the square numbers only where they are 10 px or more high (a narrow page shrinks the board)
  const watch = typeof ResizeObserver === "function"
    ? new ResizeObserver(() => boardPicture.fitNumbers()) : null;
  watch?.observe(boardPicture.svg);
  return () => {
    watch?.disconnect();
    for (const name of TRAITS) model.off(`change:${name}`, show);
  };
}

/**
 * The explorer on a page with no widget manager (the course website).
 * @param {HTMLElement} el
 * @param {{board_json?: any, board_name?: string, positions?: number[], language?: string}} [start]
 */
export function mount(el, { board_json = {}, board_name = "", positions = [0, 0],
  language = pageLanguage() } = {}) {
  const model = createModel({ board_json, board_name, positions, language });
  const stop = render(model, el);
  return { model, stop };
}

export default {
  render(/** @type {{model: any, el: HTMLElement}} */ { model, el }) {
    return render(model, el);
  },
};
