// What the Node suites that hold the front end's maths to the Python library share: the library's
// answers (loadFixtures) and one rule for "equal to the library" (assertClose).
//
// The answers come from tools/fixtures/<name>.py. tests/test_js_parity.py writes them all once
// into a folder and names it in CHUTES_FIXTURES; each suite reads <folder>/<name>.json. Without
// that variable a suite runs the fixture tool itself (the Python of CHUTES_PYTHON, else the repo's
// .venv, else python3: the first that imports chutes_edu) into a temporary folder, so that
// `node --test tests/js/` checks everything on its own. Only when no such Python is found do the
// suites' library parts skip, and say why.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The default band: 1e-9 relative, as every suite held the library's floats to before. */
export const REL = 1e-9;

/**
 * Equal to the library's number: exactly (0, whole numbers, infinities, and every non-finite
 * value, which only equals itself), or within max(rel * |expected|, abs). An expected null is
 * the library's inf (JSON has no infinity). Suites that need another band pass it and say why.
 * @param {number} actual
 * @param {number | null} expected
 * @param {string} what
 * @param {{rel?: number, abs?: number}} [band]
 */
export function assertClose(actual, expected, what, { rel = REL, abs = 0 } = {}) {
  const want = expected ?? Infinity;
  if (actual === want) return;
  const ok = Number.isFinite(actual) && Number.isFinite(want) &&
    Math.abs(actual - want) <= Math.max(rel * Math.abs(want), abs);
  assert.ok(ok, `${what}: ${actual} against the library's ${want}`);
}

/** assertClose entry by entry, after the same length. */
export function assertAllClose(actual, expected, what, band = {}) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i += 1) assertClose(actual[i], expected[i], `${what}[${i}]`, band);
}

/** Where to look for a Python: CHUTES_PYTHON, the repo's .venv, python3 on the PATH. */
export function pythons() {
  const venv = process.platform === "win32" ? join(ROOT, ".venv", "Scripts", "python.exe")
    : join(ROOT, ".venv", "bin", "python");
  return [process.env.CHUTES_PYTHON, existsSync(venv) ? venv : null, "python3"];
}

/**
 * The first of `candidates` that imports chutes_edu from the repo, or null.
 * @param {(string | null | undefined)[]} [candidates]
 */
export function findPython(candidates = pythons()) {
  for (const python of candidates) {
    if (!python) continue;
    const probe = spawnSync(python, ["-c", "import chutes_edu"], { cwd: ROOT, stdio: "ignore" });
    if (probe.status === 0) return python;
  }
  return null;
}

/**
 * The library's answers for one suite (tools/fixtures/<name>.py), and the reason to skip the
 * suite's library parts (false when there are answers).
 * @param {string} name
 * @returns {{fixtures: any, skip: string | false}}
 */
export function loadFixtures(name) {
  const folder = process.env.CHUTES_FIXTURES;
  if (folder) {
    // A folder was named: its file must be there (a missing one is an error, never a skip).
    return { fixtures: JSON.parse(readFileSync(join(folder, `${name}.json`), "utf8")), skip: false };
  }
  const python = findPython();
  if (python === null) {
    return { fixtures: null, skip: "no Python that imports chutes_edu (set CHUTES_PYTHON or make " +
      "the repo's .venv), so the library's answers for this suite cannot be made" };
  }
  const out = mkdtempSync(join(tmpdir(), `chutes-fixtures-${name}-`));
  try {
    const run = spawnSync(python, ["-m", "tools.fixtures", name, "--out-dir", out],
      { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 24 });
    if (run.status !== 0) {
      throw new Error(`${python} -m tools.fixtures ${name} failed (${run.status ?? run.signal}):\n` +
        `${run.stderr.slice(-3000)}`);
    }
    return { fixtures: JSON.parse(readFileSync(join(out, `${name}.json`), "utf8")), skip: false };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
