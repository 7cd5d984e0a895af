// The parity suites' shared rules (./support.mjs) under attack: assertClose refuses what is not
// the library's number, and the fixture loader neither skips nor guesses where it must not.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";

import { assertAllClose, assertClose, findPython, loadFixtures } from "./support.mjs";

const refused = (fn) => assert.throws(fn, assert.AssertionError);

describe("assertClose", () => {
  test("takes the library's number, and one within 1e-9 relative", () => {
    assertClose(1, 1, "same");
    assertClose(0, 0, "zero");
    assertClose(1e6 * (1 + 0.9e-9), 1e6, "inside the band");
    assertClose(Infinity, Infinity, "inf");
    assertClose(Infinity, null, "JSON's null is the library's inf");
  });

  test("refuses a number outside the band, on either side", () => {
    refused(() => assertClose(1e6 * (1 + 1.1e-9), 1e6, "above"));
    refused(() => assertClose(1e6 * (1 - 1.1e-9), 1e6, "below"));
    refused(() => assertClose(1e-300, 0, "0 is exact unless a band says otherwise"));
  });

  test("refuses a finite number for an infinite one, and NaN for anything", () => {
    // |x - inf| <= 1e-9 * inf holds in floats: the old copies took any finite x for inf.
    refused(() => assertClose(1e308, Infinity, "finite for inf"));
    refused(() => assertClose(5, null, "finite for the library's inf"));
    refused(() => assertClose(Infinity, 1e308, "inf for finite"));
    refused(() => assertClose(Number.NaN, Number.NaN, "NaN"));
    refused(() => assertClose(Number.NaN, 1, "NaN for 1"));
    refused(() => assertClose(-Infinity, Infinity, "the other infinity"));
  });

  test("a band passed in is the larger of rel * |expected| and abs", () => {
    assertClose(1e-10, 0, "abs", { abs: 1e-9 });
    refused(() => assertClose(2e-9, 0, "beyond abs", { abs: 1e-9 }));
    assertClose(1.05, 1, "rel", { rel: 0.1 });
    refused(() => assertClose(1.05, 1, "rel 0", { rel: 0, abs: 0.01 }));
  });

  test("assertAllClose checks the length, then every entry", () => {
    assertAllClose([1, 2], [1, 2], "same");
    refused(() => assertAllClose([1, 2], [1, 2, 3], "shorter"));
    refused(() => assertAllClose([1, 2.1], [1, 2], "second entry"));
  });
});

describe("the fixture loader", () => {
  test("reads <CHUTES_FIXTURES>/<name>.json", () => {
    const folder = mkdtempSync(join(tmpdir(), "support-test-"));
    const before = process.env.CHUTES_FIXTURES;
    try {
      writeFileSync(join(folder, "mine.json"), JSON.stringify({ answer: 42 }));
      process.env.CHUTES_FIXTURES = folder;
      assert.deepEqual(loadFixtures("mine"), { fixtures: { answer: 42 }, skip: false });
    } finally {
      if (before === undefined) delete process.env.CHUTES_FIXTURES;
      else process.env.CHUTES_FIXTURES = before;
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("a named folder without the suite's file is an error, not a skip", () => {
    const folder = mkdtempSync(join(tmpdir(), "support-test-"));
    const before = process.env.CHUTES_FIXTURES;
    try {
      process.env.CHUTES_FIXTURES = folder;
      assert.throws(() => loadFixtures("missing"), { code: "ENOENT" });
    } finally {
      if (before === undefined) delete process.env.CHUTES_FIXTURES;
      else process.env.CHUTES_FIXTURES = before;
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("a Python that is not there, or cannot import chutes_edu, is passed over", () => {
    assert.equal(findPython(["/no/such/python", null, undefined]), null);
    assert.equal(findPython(["node"]), null);       // runs, but "-c import chutes_edu" fails
  });
});
