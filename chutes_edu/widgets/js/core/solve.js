// @ts-check
/**
 * Float linear algebra for the maths, dense rows in a Float64Array (entry (i, j) at i n + j):
 *
 * - `bandedSolveSteps`: A x = b by Gaussian elimination with no pivoting, for the boards'
 *   I - B_Q (a nonsingular M-matrix, weakly diagonally dominant by rows, so no pivoting is needed
 *   and the growth factor is at most 2), over each row's nonzero span only; its factors A = LU
 *   are kept for later solves with A (`luSolveSteps`) and with A^T (`transposedSolve`), and its
 *   n x n matrix is lent by a pool of one (`takeMatrix`, `giveBack`: an editor solves on every
 *   edit).
 * - `gaussSolveSteps`: A x = b by Gaussian elimination with partial pivoting (any nonsingular A).
 * - `inverseSteps`: (I - B)^-1 by Gauss-Jordan elimination with no pivoting (the same M-matrices);
 *   `productSteps` and `times`: the products A B and M v.
 *
 * The step-by-step forms yield every SLICE operations (core/steps.js). No DOM.
 *
 * @module solve
 */
import { SLICE } from "./steps.js";

/** A matrix kept between solves (an editor solves on every edit), up to 1000 x 1000 entries
 * (8 MB). A solve takes it and gives it back when done, so two solves running side by side
 * (two generators) never share one. */
let spareMatrix = /** @type {Float64Array | null} */ (null);
const KEEP = 1000 * 1000;             // the page's largest board (LIMITS.size, 1,000 squares)

/** An n x n matrix of zeros, the kept one if it is free and big enough. */
export function takeMatrix(/** @type {number} */ n) {
  const spare = spareMatrix;
  if (spare !== null && spare.length >= n * n) {
    spareMatrix = null;
    spare.fill(0, 0, n * n);
    return spare;
  }
  return new Float64Array(n * n);
}

/** Give a matrix back for the next solve. */
export function giveBack(/** @type {Float64Array} */ matrix) {
  if (matrix.length <= KEEP && (spareMatrix === null || spareMatrix.length < matrix.length)) {
    spareMatrix = matrix;
  }
}

/**
 * @typedef {object} Factors
 * @property {number} n
 * @property {Float64Array} A U in and above the diagonal, the multipliers of L below it.
 * @property {Int32Array} rowEnd The last column of U with a nonzero entry in each row.
 * @property {Int32Array} below The last row of L with a nonzero entry in each column.
 */

/**
 * Solve A x = rhs by Gaussian elimination with no pivoting, for a matrix that needs none (e.g. a
 * nonsingular M-matrix, weakly diagonally dominant by rows: growth factor at most 2), keeping the
 * factors. The rows are stored dense but every loop runs over the nonzero span only (`rowEnd`,
 * `colEnd`, kept up to date as the elimination fills in): a banded matrix with a few long columns
 * costs O(n band) and each long column adds work in proportion to its length. The multipliers are
 * kept in place of the zeros they make, so later solves with the same matrix (`luSolveSteps`)
 * cost one pass each. Yields every SLICE operations.
 * @param {Float64Array} A n x n by rows; becomes the factors (U in and above the diagonal, the
 *     multipliers of L below it)
 * @param {Float64Array} rhs length n, destroyed
 * @param {Int32Array} rowEnd the last column with a nonzero entry in each row
 * @param {Int32Array} colEnd the last row with a nonzero entry in each column
 * @param {Float64Array} t where x goes: entries 0..n-1 (a longer array keeps the rest)
 * @param {number} [work] operations counted since the last yield
 * @returns {Generator<void, Factors, void>}
 */
export function* bandedSolveSteps(A, rhs, rowEnd, colEnd, t, work = 0) {
  const n = rhs.length;
  const below = new Int32Array(n);
  for (let k = 0; k < n; k += 1) {
    const pivotRow = k * n;
    const pivot = A[pivotRow + k];
    const last = rowEnd[k];
    const bottom = colEnd[k];
    below[k] = bottom;
    let lowest = -1;                       // the last row this pivot changed
    for (let i = k + 1; i <= bottom; i += 1) {
      const row = i * n;
      const a = A[row + k];
      if (a === 0) continue;
      const l = a / pivot;
      A[row + k] = l;                      // the multiplier, kept for later solves
      rowUpdate(A, row, pivotRow, l, k + 1, last);
      rhs[i] -= l * rhs[k];
      if (last > rowEnd[i]) rowEnd[i] = last;
      lowest = i;
      work += last - k + 1;
      if (work >= SLICE) { work = 0; yield; }
    }
    if (lowest > 0) for (let j = k + 1; j <= last; j += 1) if (colEnd[j] < lowest) colEnd[j] = lowest;
    work += bottom + last - 2 * k + 1;
    if (work >= SLICE) { work = 0; yield; }
  }
  t.set(rhs);
  const lu = { n, A, rowEnd, below };
  yield* upperSolveSteps(lu, t, work);
  return lu;
}

/**
 * A[row + j] -= l A[pivotRow + j] for j = first..last, four at a time (a quarter faster in V8,
 * the same arithmetic).
 */
function rowUpdate(/** @type {Float64Array} */ A, /** @type {number} */ row,
  /** @type {number} */ pivotRow, /** @type {number} */ l, /** @type {number} */ first,
  /** @type {number} */ last) {
  let j = first;
  for (const stop = last - 3; j <= stop; j += 4) {
    A[row + j] -= l * A[pivotRow + j];
    A[row + j + 1] -= l * A[pivotRow + j + 1];
    A[row + j + 2] -= l * A[pivotRow + j + 2];
    A[row + j + 3] -= l * A[pivotRow + j + 3];
  }
  for (; j <= last; j += 1) A[row + j] -= l * A[pivotRow + j];
}

/**
 * y <- A^-1 y in place, with the factors of `bandedSolveSteps`.
 * @param {Factors} lu
 * @param {Float64Array} y
 * @returns {Generator<void, number, void>} the work done.
 */
export function* luSolveSteps(lu, y) {
  const { n, A, below } = lu;
  let work = 0;
  let total = 0;
  for (let k = 0; k < n; k += 1) {
    const yk = y[k];
    if (yk !== 0) for (let i = k + 1; i <= below[k]; i += 1) y[i] -= A[i * n + k] * yk;
    work += below[k] - k + 1;
    if (work >= SLICE) { total += work; work = 0; yield; }
  }
  return total + (yield* upperSolveSteps(lu, y, work));
}

/**
 * y <- U^-1 y in place (back substitution with the factors' U, over each row's nonzero span),
 * counting on from `work` operations since the last yield.
 * @param {Factors} lu
 * @param {Float64Array} y
 * @param {number} work
 * @returns {Generator<void, number, void>} the operations counted, `work` included.
 */
function* upperSolveSteps(lu, y, work) {
  const { n, A, rowEnd } = lu;
  let total = 0;
  for (let k = n - 1; k >= 0; k -= 1) {
    const row = k * n;
    let sum = y[k];
    for (let j = k + 1; j <= rowEnd[k]; j += 1) sum -= A[row + j] * y[j];
    y[k] = sum / A[row + k];
    work += rowEnd[k] - k + 1;
    if (work >= SLICE) { total += work; work = 0; yield; }
  }
  return total + work;
}

/**
 * y <- (A^T)^-1 y in place, with the factors A = LU of `bandedSolveSteps`: U^T z = y row by row
 * of U, then L^T y = z (L unit lower triangular).
 * @param {Factors} lu
 * @param {Float64Array} y
 */
export function transposedSolve(lu, y) {
  const { n, A, rowEnd, below } = lu;
  // U^T z = y, row by row of U (U in and above the diagonal of A).
  for (let k = 0; k < n; k += 1) {
    const row = k * n;
    const zk = y[k] / A[row + k];
    y[k] = zk;
    if (zk !== 0) for (let j = k + 1; j <= rowEnd[k]; j += 1) y[j] -= A[row + j] * zk;
  }
  // L^T y = z, L unit lower triangular with its multipliers below the diagonal of A.
  for (let k = n - 1; k >= 0; k -= 1) {
    let sum = y[k];
    for (let i = k + 1; i <= below[k]; i += 1) sum -= A[i * n + k] * y[i];
    y[k] = sum;
  }
}

/**
 * Solve A x = b in place (x in b) by Gaussian elimination with partial pivoting; A is a dense
 * size x size matrix by rows. Yields every SLICE operations, counting on from `pending`
 * (operations since the caller's last yield).
 * @returns {Generator<void, number, void>} the operations since the last yield.
 */
export function* gaussSolveSteps(/** @type {Float64Array} */ A, /** @type {Float64Array} */ b,
  /** @type {number} */ size, pending = 0) {
  for (let col = 0; col < size; col += 1) {
    let pivot = col;
    for (let r = col + 1; r < size; r += 1) {
      if (Math.abs(A[r * size + col]) > Math.abs(A[pivot * size + col])) pivot = r;
    }
    if (pivot !== col) {
      for (let c = col; c < size; c += 1) {
        const t = A[col * size + c];
        A[col * size + c] = A[pivot * size + c];
        A[pivot * size + c] = t;
      }
      const t = b[col];
      b[col] = b[pivot];
      b[pivot] = t;
    }
    const p = A[col * size + col];
    for (let r = col + 1; r < size; r += 1) {
      const f = A[r * size + col] / p;
      if (f === 0) continue;
      A[r * size + col] = 0;
      for (let c = col + 1; c < size; c += 1) A[r * size + c] -= f * A[col * size + c];
      b[r] -= f * b[col];
      pending += size - col;
      if (pending >= SLICE) { pending = 0; yield; }
    }
  }
  for (let r = size - 1; r >= 0; r -= 1) {
    let v = b[r];
    for (let c = r + 1; c < size; c += 1) v -= A[r * size + c] * b[c];
    b[r] = v / A[r * size + r];
    pending += size - r;
    if (pending >= SLICE) { pending = 0; yield; }
  }
  return pending;
}

/**
 * The inverse of I - B_Q by Gauss-Jordan elimination with no pivoting (a nonsingular M-matrix,
 * weakly diagonally dominant by rows: stable). Yields every SLICE operations.
 * @param {Float64Array} BQ @param {number} n
 * @returns {Generator<void, Float64Array, void>}
 */
export function* inverseSteps(BQ, n) {
  const A = new Float64Array(n * n);
  const N = new Float64Array(n * n);
  for (let i = 0; i < n * n; i += 1) A[i] = -BQ[i];
  for (let i = 0; i < n; i += 1) { A[i * n + i] += 1; N[i * n + i] = 1; }
  let work = 0;
  for (let k = 0; k < n; k += 1) {
    const pivot = A[k * n + k];
    for (let j = 0; j < n; j += 1) { A[k * n + j] /= pivot; N[k * n + j] /= pivot; }
    for (let i = 0; i < n; i += 1) {
      const f = A[i * n + k];
      if (i === k || f === 0) continue;
      for (let j = 0; j < n; j += 1) {
        A[i * n + j] -= f * A[k * n + j];
        N[i * n + j] -= f * N[k * n + j];
      }
    }
    work += 2 * n * n;
    if (work >= SLICE) { work = 0; yield; }
  }
  return N;
}

/** The product A B of two n x n matrices; yields every SLICE operations.
 * @param {Float64Array} A @param {Float64Array} B @param {number} n
 * @returns {Generator<void, Float64Array, void>} */
export function* productSteps(A, B, n) {
  const C = new Float64Array(n * n);
  let work = 0;
  for (let i = 0; i < n; i += 1) {
    for (let k = 0; k < n; k += 1) {
      const f = A[i * n + k];
      if (f === 0) continue;
      for (let j = 0; j < n; j += 1) C[i * n + j] += f * B[k * n + j];
    }
    work += n * n;
    if (work >= SLICE) { work = 0; yield; }
  }
  return C;
}

/** M v for an n x n matrix. @param {Float64Array} M @param {Float64Array} v @param {number} n */
export function times(M, v, n) {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    let s = 0;
    for (let j = 0; j < n; j += 1) s += M[i * n + j] * v[j];
    out[i] = s;
  }
  return out;
}
