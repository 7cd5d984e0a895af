/**
 * Keys and the pointer, turned into the editor's actions (`update`'s), each marked with the way
 * it came (`way: "keyboard"` or `"mouse"`), so that the instructions that follow name the
 * student's own keys or clicks.
 *
 * The keyboard, on the board: arrows, Home and End move the cursor; Enter or Space picks a jump's
 * start, then its end; Escape cancels; Delete removes the jump from the cursor's square; M and
 * Shift+M move its end or its start; T toggles a trap; Ctrl+Z and Ctrl+Y (anywhere in the
 * editor) undo and redo.
 *
 * The pointer: a click anywhere in a square's cell picks that square (the square is computed
 * from the point, whatever is drawn on it); a click on a jump's handle selects the jump; a drag
 * from a handle moves that end of the jump (dropped on the square under the pointer; off the
 * board it is cancelled).
 *
 * @module editor_input
 */
import { squareAtPoint } from "../../core/geometry.js";

const MOVES = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];

/** The action for a key on the board, or null for a key the board leaves alone. */
export function keyAction(/** @type {string} */ key, /** @type {number} */ cursor) {
  if (MOVES.includes(key)) return { type: "key", key };
  if (key === "Enter" || key === " ") return { type: "pick" };
  if (key === "Escape") return { type: "cancel" };
  if (key === "Delete" || key === "Backspace") return { type: "remove" };
  if (key === "t" || key === "T") return { type: "trap" };
  if (key === "m" || key === "M") {
    return { type: "grab", source: cursor, end: key === "M" ? "source" : "destination" };
  }
  return null;
}

/**
 * Listen to the keyboard on the board and in the editor.
 * @param {{board: SVGSVGElement, root: HTMLElement, python: HTMLElement,
 *     state: () => any, dispatch: (action: any) => void, moved: () => void}} parts
 *     `moved` is told when the cursor moved (to say where it is).
 */
export function listenToKeys({ board, root, python, state, dispatch, moved }) {
  board.addEventListener("keydown", (event) => {
    const e = /** @type {KeyboardEvent} */ (event);
    if (e.ctrlKey || e.metaKey || e.altKey) return;        // undo and redo: below
    const action = keyAction(e.key, state().cursor);
    if (!action) return;
    e.preventDefault();
    const before = state();
    dispatch({ ...action, way: "keyboard" });
    if (action.type === "key" && state() !== before) moved();
  });
  root.addEventListener("keydown", (event) => {
    const e = /** @type {KeyboardEvent} */ (event);
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    if (e.target === python) return;
    const k = e.key.toLowerCase();
    if (k === "z" && !e.shiftKey) dispatch({ type: "undo", way: "keyboard" });
    else if (k === "y" || (k === "z" && e.shiftKey)) dispatch({ type: "redo", way: "keyboard" });
    else return;
    e.preventDefault();
  });
}

/**
 * Listen to the pointer on the board.
 * @param {{board: SVGSVGElement, state: () => any, dispatch: (action: any) => void,
 *     preview: (square: number) => void}} parts `preview` moves the cursor while an end is
 *     dragged (no edit until it is dropped).
 */
export function listenToPointer({ board, state, dispatch, preview }) {
  const squareOf = (/** @type {PointerEvent} */ e) => {
    const matrix = board.getScreenCTM();
    if (!matrix) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(matrix.inverse());
    return squareAtPoint(p.x, p.y, state().board.size);
  };
  let drag = /** @type {any} */ (null);
  board.addEventListener("pointerdown", (event) => {
    const e = /** @type {PointerEvent} */ (event);
    if (e.button !== 0) return;
    const handle = /** @type {Element} */ (e.target).closest(".handle");
    drag = { x: e.clientX, y: e.clientY, square: squareOf(e), moved: false,
      source: handle ? Number(handle.getAttribute("data-source")) : null,
      end: handle ? handle.getAttribute("data-end") : null };
    if (handle) {
      board.setPointerCapture(e.pointerId);
      e.preventDefault();
      board.focus();
    }
  });
  board.addEventListener("pointermove", (event) => {
    const e = /** @type {PointerEvent} */ (event);
    if (!drag || drag.source === null) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 4) return;
    if (!drag.moved) {
      drag.moved = true;
      dispatch({ type: "grab", source: drag.source, end: drag.end, way: "mouse" });
    }
    const sq = squareOf(e);
    if (sq !== null && sq !== state().cursor) preview(sq);
  });
  const end = (/** @type {PointerEvent} */ e, /** @type {boolean} */ cancelled) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (d.source !== null && d.moved) {
      const sq = cancelled ? null : squareOf(e);
      dispatch(sq === null ? { type: "cancel", way: "mouse" } : { type: "pick", square: sq, way: "mouse" });
      return;
    }
    if (cancelled) return;
    // A click on a handle selects its jump (unless a jump is being drawn: then the square).
    if (d.source !== null && !state().pick) {
      dispatch({ type: "select", source: d.source, way: "mouse" });
      return;
    }
    const sq = squareOf(e);
    if (sq !== null && sq === d.square) dispatch({ type: "pick", square: sq, way: "mouse" });
  };
  board.addEventListener("pointerup", (e) => end(/** @type {PointerEvent} */ (e), false));
  board.addEventListener("pointercancel", (e) => end(/** @type {PointerEvent} */ (e), true));
}
