/**
 * Small DOM helpers of the editor: build an HTML or SVG element with attributes and children,
 * and change an attribute or a text only when it differs (fewer DOM mutations on every edit: a
 * settled page is one that stops changing).
 *
 * @module editor_dom
 */

export const SVG = "http://www.w3.org/2000/svg";

/** An element with attributes and children. */
export function h(/** @type {string} */ tag, /** @type {Record<string, any>} */ attrs = {},
  /** @type {any[]} */ children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") el.textContent = v;
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children) el.append(child);
  return el;
}

/**
 * Keep JupyterLab's notebook shortcuts away from the keys pressed in `root`, and return it. Lumino
 * matches a notebook shortcut's selector (`.jp-Notebook.jp-mod-commandMode :focus`: an arrow,
 * Enter, a letter) from the key's target up, and stops at an element marked
 * `data-lm-suppress-shortcuts`; the focused control itself matches `:focus`, so the mark goes on
 * `root` and on each control in it as it takes the focus. Without it an arrow key on a slider
 * moves the notebook's active cell (and the slider stays put), and a letter on the board editor
 * adds or changes a notebook cell.
 * @template {HTMLElement} T
 * @param {T} root
 * @returns {T}
 */
export function keepKeysFromLab(root) {
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  root.addEventListener("focusin", (event) => {
    if (event.target instanceof Element) event.target.setAttribute("data-lm-suppress-shortcuts", "true");
  });
  return root;
}

/** The root of an explorer's panel: in JupyterLab a key pressed in it stays in it. */
export function panelRoot(/** @type {any[]} */ children) {
  return keepKeysFromLab(h("div", { class: "chutes-panel-root" }, children));
}

/** An SVG element with attributes. */
export function s(/** @type {string} */ tag, /** @type {Record<string, any>} */ attrs = {},
  /** @type {any[]} */ children = []) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined) continue;
    if (k === "text") el.textContent = v;
    else el.setAttribute(k, String(v));
  }
  for (const child of children) el.append(child);
  return el;
}

/** Set an attribute only when it changes (fewer DOM mutations on every edit). */
export function attr(/** @type {Element} */ el, /** @type {string} */ name, /** @type {string} */ value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/** Set a text only when it changes. */
export function text(/** @type {Element} */ el, /** @type {string} */ value) {
  if (el.textContent !== value) el.textContent = value;
}

