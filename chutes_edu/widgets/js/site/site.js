// @ts-check
/**
 * The course website's one classic script (built by tools/build_front_end.mjs into
 * static/site.js): every front end, each module once, for pages opened from disk, which cannot
 * import ES modules.
 *
 * - Publishes each front end's `mount` as `window[<global>]` (front_ends.json names the globals).
 * - Draws a board editor wherever a page has a `.chutes-board-editor-mount` (its board and name in
 *   `data-board` and `data-name`), with the named boards to reset to from
 *   `window.ChutesBoardPresets` (book/build.py writes them as data into board_presets.js).
 * - Draws an explorer wherever a page has a `.chutes-explorer-mount`, by the anywidget class in
 *   `data-explorer`, from the traits the notebook saved (`data-state`).
 * - Draws the board calculator (site/calculator.js) wherever an exercise page has a
 *   `.chutes-calculator-mount` (book/answers.py), opening the part named by `data-open`.
 * - Publishes the board maths the answer boxes judge jumps with (book/static/answers.js) as
 *   `window.ChutesMaths`: `validate`, `expectedTurns`, `firstMoverEdge`.
 *
 * @module site
 */
import { mount as boardEditor } from "../explorers/board_editor/board_editor.js";
import { mount as boardExplorer } from "../explorers/board_explorer/board_explorer.js";
import { mount as coinExplorer } from "../explorers/coin_explorer/coin_explorer.js";
import { mount as designExplorer } from "../explorers/design_explorer/design_explorer.js";
import { mount as jumpExplorer } from "../explorers/jump_explorer/jump_explorer.js";
import { mount as policyExplorer } from "../explorers/policy_explorer/policy_explorer.js";
import { mount as raceExplorer } from "../explorers/race_explorer/race_explorer.js";
import { mount as simulationExplorer } from "../explorers/simulation_explorer/simulation_explorer.js";
import registry from "../../front_ends.json";
import { expectedTurns, firstMoverEdge, validate } from "../maths/board_math.js";
import { CALCULATOR_MOUNT, mount as calculator } from "./calculator.js";

/** @type {Record<string, (el: HTMLElement, start: any) => unknown>} */
const MOUNTS = {
  board_editor: boardEditor, board_explorer: boardExplorer, coin_explorer: coinExplorer,
  design_explorer: designExplorer, jump_explorer: jumpExplorer, policy_explorer: policyExplorer,
  race_explorer: raceExplorer, simulation_explorer: simulationExplorer,
};
export const EDITOR_MOUNT = "chutes-board-editor-mount";
export const EXPLORER_MOUNT = "chutes-explorer-mount";

/** @type {Record<string, (el: HTMLElement, start: any) => unknown>} the mount of each class */
const KINDS = {};
for (const [name, spec] of Object.entries(registry.front_ends)) {
  const mount = MOUNTS[name];
  if (!mount) throw new Error(`front_ends.json names ${name}, which site/site.js does not import`);
  /** @type {any} */ (window)[spec.global] = { mount };
  KINDS[spec.class] = mount;
}

/** @type {any} */ (window).ChutesMaths = Object.freeze({ expectedTurns, firstMoverEdge, validate });

function start() {
  const presets = /** @type {any} */ (window).ChutesBoardPresets || {};
  const editors = document.querySelectorAll(`.${EDITOR_MOUNT}`);
  editors.forEach((el) => {
    const place = /** @type {HTMLElement} */ (el);
    boardEditor(place, {
      board: JSON.parse(place.dataset.board || "{}"), name: place.dataset.name || "", presets,
      // one editor on the page: a link opens its board, and a skip link leads to it
      syncHash: editors.length === 1, skipLink: editors.length === 1,
    });
  });
  document.querySelectorAll(`.${EXPLORER_MOUNT}`).forEach((el) => {
    const place = /** @type {HTMLElement} */ (el);
    const mount = KINDS[place.dataset.explorer || ""];
    if (mount && mount !== boardEditor) mount(place, JSON.parse(place.dataset.state || "{}"));
  });
  document.querySelectorAll(`.${CALCULATOR_MOUNT}`).forEach((el) => {
    const place = /** @type {HTMLElement} */ (el);
    calculator(place, { presets, open: place.dataset.open || "", exercise: place.dataset.exercise || "" });
  });
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
