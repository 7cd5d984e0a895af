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
import { expectedTurns, firstMoverEdge, validate } from "../../chutes_edu/widgets/js/maths/board_math.js";

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
      assert.match(said.message, /too few digits .* at least 4 decimals/, text);
      // the message asks only for what the digits lack, counted as written: "3.4" has 2
      // significant digits, the others 3 or more
      if (text === "3.4") assert.match(said.message, /3 significant digits/, text);
      else assert.doesNotMatch(said.message, /significant/, text);
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

describe("a number box takes what people type for a number (issue 50)", () => {
  const root = Math.sqrt(380);
  test("sqrt, ^ and ** with any exponent", () => {
    for (const text of ["sqrt(380)", "380^0.5", "380**0.5", "380 ** (1/2)", "2*sqrt(95)",
      "math.sqrt(380)", "np.sqrt(380)"]) {
      assert.equal(say(close(root), text).right, true, text);
    }
    assert.equal(say(close(root), "sqrt(381)").right, false);
    assert.equal(api.realValue("sqrt(-1)"), null);
    assert.equal(api.parseNumber("sqrt(2)"), null);       // never an exact fraction
    assert.equal(say(exactly("18/5"), "sqrt(2)").right, false);
  });

  test("a decimal comma, counted as written", () => {
    const said = say(close(19.49359), "19,4936");
    assert.equal(said.right, true, said.message);
    assert.equal(say(close(19.49359), "19,4937").right, false);
    assert.equal(say(close(24444042), "24,444,042").right, true);    // digit groups still read
    assert.equal(say(close(0.5), "Fraction(1,2)").right, true);      // a call keeps its comma
    assert.match(say(close(1.234), "1,234").message, /decimal comma or a thousands separator/);
  });

  test("a percent sign is a hundredth, its digits as written", () => {
    assert.equal(say(close(0.0222), "2.22%").right, true);
    assert.equal(say(close(0.0222), "2.23%").right, false);
    assert.equal(api.numberText("2.22%"), "(2.22/100)");
    assert.ok(Math.abs(api.uncertainty(api.numberText("2.22%")) - 5e-5) < 1e-15);
    assert.match(say(close(0.0222), "%2").message, /percent sign after a number/);
  });

  test("0.0055 has its 4 decimals: the message asks for significant digits, not decimals", () => {
    const said = say(close(0.0055118, 1e-6), "0.0055");
    assert.equal(said.right, false);
    assert.match(said.message, /at least 3 significant digits/);
    assert.doesNotMatch(said.message, /4 decimals/);
    assert.equal(say(close(0.0055118, 1e-6), "0.005512").right, true);
  });
});

describe("jumps added to a board, judged by the page's maths (12.6, 12.7)", () => {
  const B1943 = {
    size: 100, die: 6, overshoot: "stay", bonus_roll: null, traps: [],
    jumps: [[1, 38], [4, 14], [9, 31], [16, 6], [21, 42], [28, 84], [36, 44], [47, 26], [49, 11],
      [51, 67], [56, 53], [62, 19], [64, 60], [71, 91], [80, 100], [87, 24], [93, 73], [95, 75],
      [98, 78]],
  };
  const edge = (jumps) => firstMoverEdge({ ...B1943, jumps: [...B1943.jumps, ...jumps] });
  const goal = (value) => ({ kind: "jumps", rel: null, abs: 0,
    expected: { board: B1943, most: 1, from: 94, goal: "edge_below", value, band: null } });
  const length = (target, band) => ({ kind: "jumps", rel: null, abs: 0,
    expected: { board: B1943, most: 2, from: null, goal: "length_near", value: target, band } });

  test("without the page's maths the box says so, and judges nothing", () => {
    api.maths = null;
    assert.match(say(goal(0.006), "(94, 10)").message, /maths did not load/);
  });

  test("the edge of the board with the jump, against the goal", () => {
    api.maths = { expectedTurns, firstMoverEdge, validate };
    const e = edge([[94, 10]]);
    assert.equal(say(goal(e + 1e-6), "(94, 10)").right, true);
    assert.equal(say(goal(e - 1e-6), "(94, 10)").right, false);
    assert.equal(say(goal(e + 1e-6), "94 -> 10").right, true);
    assert.equal(say(goal(e + 1e-6), "[(94, 10)]").right, true);
    assert.match(say(goal(e + 1e-6), "(95, 10)").message, /square of its own/);   // a chute's
    assert.match(say(goal(1), "(90, 10)").message, /starts on your square 94/);
    assert.match(say(goal(1), "(94, 10), (90, 3)").message, /at most 1 jump/);
    assert.match(say(goal(1), "94").message, /a list of jumps/);
    assert.match(say(goal(1), "(94, 1.5)").message, /whole numbers/);
    assert.match(say(goal(1), "(94, 200)").message, /rules of the board do not allow/);
  });

  test("the expected length with the jumps, within the band; too close to call is left", () => {
    api.maths = { expectedTurns, firstMoverEdge, validate };
    const board = { ...B1943, jumps: [...B1943.jumps, [3, 50], [40, 2]] };
    const mean = expectedTurns(board)[0];
    assert.equal(say(length(mean + 0.04, 0.05), "[(3, 50), (40, 2)]").right, true);
    assert.equal(say(length(mean + 0.06, 0.05), "[(3, 50), (40, 2)]").right, false);
    assert.match(say(length(mean + 0.05, 0.05), "(3, 50), (40, 2)").message, /too close/);
    assert.match(say(length(mean, 0.05), "(3, 50), (3, 60)").message, /square of its own/);
  });
});

describe("progress kept: the start page's tally", () => {
  test("counts the kept boxes that are right, per set", () => {
    const sets = { 1: { boxes: ["1.1", "1.2", "1.5"] }, 2: { boxes: ["2.5"] } };
    const saved = { "1.1": { text: "3", right: true }, "1.2": { text: "x", right: false },
      "2.5": { text: "3.3902", right: true }, "9.9": { text: "1", right: true } };
    assert.deepEqual(api.tally(sets, saved), { 1: [1, 3], 2: [1, 1] });
    assert.deepEqual(api.tally(sets, {}), { 1: [0, 3], 2: [0, 1] });
  });
});
