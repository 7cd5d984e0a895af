/**
 * The board editor's geometry: where each square is drawn and where the keyboard's cursor goes.
 *
 * The picture is `draw_board`'s (chutes_edu/plots/board.py): c = ceil(sqrt(n)) columns and
 * ceil(n / c) rows, square 1 bottom left, rows alternating direction (a serpentine), square 0 just
 * left of square 1. `place` and `squareAt` are each other's inverse on the n + 1 squares; the
 * keyboard moves in the picture's directions. Pure functions: Node tests them.
 *
 * @module editor_geometry
 */

/** The largest r with r * r <= x. */
function isqrt(/** @type {number} */ x) {
  let r = Math.floor(Math.sqrt(x));
  while (r * r > x) r -= 1;
  while ((r + 1) * (r + 1) <= x) r += 1;
  return r;
}

/**
 * The grid a board of `size` squares is drawn on, as `board_grid` in chutes_edu/plots/board.py:
 * c = ceil(sqrt(n)) columns and ceil(n / c) rows.
 * @param {number} size
 * @returns {{rows: number, cols: number}}
 */
export function grid(size) {
  const cols = size > 1 ? isqrt(size - 1) + 1 : 1;
  return { rows: Math.ceil(size / cols), cols };
}

/**
 * Where a square is drawn: its row (0 at the bottom) and column (0 at the left), as
 * `square_center`: square 1 bottom left, rows alternate direction, square 0 just left of 1
 * (column -1 of row 0).
 * @param {number} square
 * @param {number} size
 * @returns {{row: number, col: number}}
 */
export function place(square, size) {
  if (square === 0) return { row: 0, col: -1 };
  const { cols } = grid(size);
  const row = Math.floor((square - 1) / cols);
  const k = (square - 1) % cols;
  return { row, col: row % 2 ? cols - 1 - k : k };
}

/**
 * The square drawn at a row and column, or null where there is none.
 * @param {number} row
 * @param {number} col
 * @param {number} size
 * @returns {number | null}
 */
export function squareAt(row, col, size) {
  if (row === 0 && col === -1) return 0;
  const { rows, cols } = grid(size);
  if (row < 0 || row >= rows || col < 0 || col >= cols) return null;
  const square = row * cols + (row % 2 ? cols - 1 - col : col) + 1;
  return square <= size ? square : null;
}

/**
 * The cursor after a key, in the picture's directions: left and right within a row, up and down
 * by rows (staying put at an edge), Home to square 0, End to the final square.
 * @param {number} square
 * @param {string} key A KeyboardEvent key.
 * @param {number} size
 * @returns {number}
 */
export function moveCursor(square, key, size) {
  if (key === "Home") return 0;
  if (key === "End") return size;
  const { row, col } = place(square, size);
  let next = null;
  if (key === "ArrowLeft") next = squareAt(row, col - 1, size);
  else if (key === "ArrowRight") next = squareAt(row, col + 1, size);
  else if (key === "ArrowUp") next = squareAt(row + 1, square === 0 ? 0 : col, size);
  else if (key === "ArrowDown") next = squareAt(row - 1, col, size);
  return next ?? square;
}

/** The width of square 0's cell (the start, left of square 1), in squares. */
export const START_WIDTH = 0.9;

/**
 * The centre of a square in the picture's coordinates: one unit a square, x to the right from
 * square 1's column, y downwards from the top row (an SVG's directions).
 * @param {number} square
 * @param {number} size
 * @returns {[number, number]}
 */
export function centre(square, size) {
  const { rows } = grid(size);
  if (square === 0) return [-0.75, rows - 0.5];
  const { row, col } = place(square, size);
  return [col + 0.5, rows - row - 0.5];
}

/**
 * The square whose cell holds a point of the picture (its coordinates as `centre`'s), or null
 * off the squares: every point of a cell picks its square, edges included.
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @returns {number | null}
 */
export function squareAtPoint(x, y, size) {
  const { rows } = grid(size);
  const row = rows - 1 - Math.floor(y);
  const [sx] = centre(0, size);
  if (row === 0 && x >= sx - START_WIDTH / 2 && x <= sx + START_WIDTH / 2) return 0;
  return squareAt(row, Math.floor(x), size);
}
