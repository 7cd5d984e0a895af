// The answer boxes' checking (book/static/answers.js) in Node (node --test tests/js/; run by
// tests/test_site_answers_js.py, which also types every box's examples into every exercise).
//
// Known answers and properties of what the page adds to the notebook's check for a reader with
// only the page: arithmetic where a number is wanted (exact, by the file's own rational
// arithmetic), a number read off an explorer judged at the precision typed, and an exact fraction
// that refuses a decimal number with a message.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, test } from "node:test";

const require = createRequire(import.meta.url);
const api = require("../../book/static/answers.js");

/** A tiny seeded generator (mulberry32): the same cases on every run. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const frac = (r) => `${r.n}/${r.d}`;
const close = (expected, rel = 1e-6) => ({ kind: "close", expected, rel, abs: 0 });
const exactly = (expected) => ({ kind: "exactly", expected, rel: 0, abs: 0 });
const say = (spec, text) => api.verdict("9.9", spec, text, "HINT");

describe("arithmetic where a number is wanted", () => {
  test("known answers, exactly", () => {
    assert.equal(frac(api.parseNumber("39.2251-35.8349")), "16951/5000");   // 3.3902
    assert.equal(frac(api.parseNumber("1/3 + 2")), "7/3");
    assert.equal(frac(api.parseNumber("2^-3")), "1/8");
    assert.equal(frac(api.parseNumber("(1/2 + 1/3) * 6")), "5/1");
    assert.equal(frac(api.parseNumber("\u22121/3 \u00d7 3")), "-1/1");     // a typed minus and times
    assert.equal(frac(api.parseNumber("24,444,042")), "24444042/1");      // digit groups still read
    assert.equal(frac(api.parseNumber("Fraction(7, 3)")), "7/3");
  });

  test("what is no number is refused, never evaluated", () => {
    for (const text of ["p + 1", "1/0", "2/(1 - 1)", "sqrt(2)", "1 +", "(1 + 2", "x", ""]) {
      assert.equal(api.parseNumber(text), null, text);
    }
  });

  test("sums of random fractions equal the exact sum", () => {
    const next = random(38);
    for (let k = 0; k < 300; k++) {
      const a = 1 + Math.floor(next() * 999), b = 1 + Math.floor(next() * 999);
      const c = Math.floor(next() * 2000) - 1000, d = 1 + Math.floor(next() * 999);
      const got = api.parseNumber(`${a}/${b} + ${c}/${d}`);
      // a/b + c/d = (ad + cb)/(bd), compared as cross products
      assert.equal(got.n * BigInt(b * d), BigInt(a * d + c * b) * got.d, `${a}/${b} + ${c}/${d}`);
    }
  });

  test("a close box takes arithmetic, an exact box takes arithmetic on fractions", () => {
    assert.equal(say(close(7 / 3), "1/3 + 2").right, true);
    assert.equal(say(exactly("18/5"), "1/5 + 17/5").right, true);
    assert.equal(say(exactly("18/5"), "3 + 3/5").right, true);
    assert.equal(say(exactly("18/5"), "3 + 2/5").right, false);
  });
});

describe("a number read off an explorer is judged at the precision typed", () => {
  const e = 3.39018389453949;     // exercise 2.5's answer, checked to a relative error of 1e-6
  test("known answers", () => {
    const off = say(close(e), "3.3902");
    assert.equal(off.right, true);
    assert.match(off.message, /right to the digits you gave/);
    const difference = say(close(e), "39.2251-35.8349");
    assert.equal(difference.right, true, difference.message);
    assert.equal(say(close(e), "3.390184").message, "\u2714 9.9 right");     // the check's own
    assert.equal(say(close(e), "3.3901").right, false);
    assert.equal(say(close(e), "3.3904").right, false);
    assert.equal(say(close(e), "39.2251-35.8346").right, false);
  });

  test("too few digits: the message says how many are needed", () => {
    for (const text of ["3.39", "3.4", "3.390", "39.23 - 35.84"]) {
      const said = say(close(e), text);
      assert.equal(said.right, false, text);
      assert.match(said.message, /too few digits .* at least 4 decimals .* 3 significant digits/,
        text);
    }
    // ... and not when the tolerance is wider than the digits typed: a plain "not yet"
    assert.doesNotMatch(say(close(5, 0.05), "3.4").message, /digits/);
    // a whole number or a fraction is exact: judged by the check's tolerance, no digits asked
    assert.doesNotMatch(say(close(e), "3").message, /digits/);
    assert.doesNotMatch(say(close(e), "339/100").message, /digits/);
  });

  test("4 decimals are not enough for a tiny number (3 significant digits)", () => {
    const said = say(close(0.00012), "0.0001");
    assert.equal(said.right, false);
    assert.match(said.message, /too few digits/);
    assert.equal(say(close(0.004534357071379214, 1e-7), "0.0045").right, false);
  });

  test("property: any value rounded to 4 decimals, or a difference of two, is right", () => {
    const next = random(2025);
    for (let k = 0; k < 500; k++) {
      const x = 1 + next() * 99, y = next() * x;
      const spec = close(x - y);
      if (Math.abs(x - y) < 0.1) continue;            // fewer than 3 significant digits
      const typed = `${x.toFixed(4)} - ${y.toFixed(4)}`;
      assert.equal(say(spec, typed).right, true, `${typed} for ${x - y}`);
      assert.equal(say(close(x), x.toFixed(4)).right, true, `${x.toFixed(4)} for ${x}`);
      // two units of the last digit away: refused
      const wrong = (Number(x.toFixed(4)) + 2e-4 * (next() < 0.5 ? 1 : -1)).toFixed(4);
      assert.equal(say(close(x), wrong).right, false, `${wrong} for ${x}`);
    }
  });

  test("uncertainty: half a unit of each typed decimal, carried through the arithmetic", () => {
    assert.ok(Math.abs(api.uncertainty("3.3902") - 5e-5) < 1e-12);
    assert.ok(Math.abs(api.uncertainty("39.2251-35.8349") - 1e-4) < 1e-12);
    assert.equal(api.uncertainty("7/3"), 0);
    assert.equal(api.uncertainty("12"), 0);
    assert.ok(Math.abs(api.uncertainty("2.5e-3") - 5e-5) < 1e-15);     // 0.0025
    assert.ok(api.uncertainty("1.0 * 2.0") > 0.1);
  });
});

describe("an exact fraction is not satisfied by a decimal", () => {
  test("the right value as a decimal is refused, and the message says why", () => {
    for (const text of ["3.6", "3.60", "36e-1", "3.6 + 0"]) {
      const said = say(exactly("18/5"), text);
      assert.equal(said.right, false, text);
      assert.match(said.message, /right value, but a decimal number is not exact/, text);
      assert.match(said.message, /as a fraction such as 7\/3/, text);
    }
  });

  test("a wrong decimal is refused with the same advice, without 'right value'", () => {
    const said = say(exactly("18/5"), "3.7");
    assert.equal(said.right, false);
    assert.doesNotMatch(said.message, /right value/);
    assert.match(said.message, /a decimal number is not exact/);
  });

  test("fractions, whole numbers and sympy's spellings are exact", () => {
    for (const text of ["18/5", "36/10", "Fraction(18, 5)", "sympy.Rational(18, 5)"]) {
      assert.equal(say(exactly("18/5"), text).right, true, text);
    }
    assert.equal(say(exactly("24/1"), "24").right, true);
    assert.equal(api.hasDecimal("sympy.Rational(18, 5)"), false);
    assert.equal(api.hasDecimal("3.6"), true);
    assert.equal(api.hasDecimal("1e3"), true);
  });
});
