// @ts-check
/**
 * Numbers and values written as Python writes them, so that the page's words are the library's
 * word for word: Python's repr of a float (`pyFloat`: the shortest digits that round-trip, which
 * JavaScript's toExponential also gives, laid out by Python's rule: exponent form below 1e-4 and
 * from 1e16), of a JSON value (`pyRepr`: None, True, ints for whole numbers since JSON cannot
 * tell 2 from 2.0, strings escaped by Python 3.11's str.isprintable, lists and dicts), and
 * Python's `format(x, ".{p}g")` (`formatG`) and `f"{x:.{d}f}"` (`pyFixed`), both rounding the
 * exact binary value half to even as Python does (JavaScript's toFixed rounds a tie up).
 * No DOM, no dependencies.
 *
 * @module format
 */

/** Python's repr of a finite or infinite float. @param {number} x @returns {string} */
export function pyFloat(x) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (Object.is(x, -0)) return "-0.0";
  // toExponential() gives the shortest digits that round-trip, like Python's repr.
  const [mantissa, exp] = x.toExponential().split("e");
  const e = Number(exp);
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (e < -4 || e >= 16) {
    const tail = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const power = Math.abs(e) < 10 ? `0${Math.abs(e)}` : `${Math.abs(e)}`;
    return `${sign}${tail}e${e < 0 ? "-" : "+"}${power}`;
  }
  if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
  const whole = digits.slice(0, e + 1).padEnd(e + 1, "0");
  const frac = digits.slice(e + 1);
  return `${sign}${whole}.${frac || "0"}`;
}

/** A JSON number as Python writes it (whole numbers as ints). @param {number} x */
export function pyNumber(x) {
  if (Number.isInteger(x) && !Object.is(x, -0)) {
    return Math.abs(x) < 1e21 ? String(x) : BigInt(x).toString();
  }
  return pyFloat(x);
}

/**
 * The exact decimal digits of a positive finite double x = digits * 10^(point - digits.length).
 * @param {number} x
 * @returns {{digits: string, point: number}}
 */
function exactDecimal(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const high = view.getUint32(0);
  const biased = (high >>> 20) & 0x7ff;
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  let exponent = -1074;
  if (biased > 0) {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  if (exponent >= 0) {
    const digits = (mantissa << BigInt(exponent)).toString();
    return { digits, point: digits.length };
  }
  // mantissa / 2^k = mantissa 5^k / 10^k
  const digits = (mantissa * 5n ** BigInt(-exponent)).toString();
  return { digits, point: digits.length + exponent };
}

/**
 * Python's `format(x, f".{precision}g")`: `precision` significant digits, rounded half to even
 * on the exact binary value as Python does, fixed or exponent form by Python's rule, trailing
 * zeros dropped.
 * @param {number} x
 * @param {number} [precision]
 * @returns {string}
 */
export function formatG(x, precision = 6) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const sign = x < 0 ? "-" : "";
  const exact = exactDecimal(Math.abs(x));
  let digits = exact.digits.replace(/0+$/, "");
  let point = exact.point;                  // value = 0.digits * 10^point
  if (digits.length > precision) {
    const head = digits.slice(0, precision);
    const rest = digits.slice(precision);
    const up = rest[0] > "5" || (rest[0] === "5" && (/[1-9]/.test(rest.slice(1)) ||
      Number(head[head.length - 1]) % 2 === 1));
    let rounded = up ? (BigInt(head) + 1n).toString() : head;
    if (rounded.length > precision) {        // 999 -> 1000
      rounded = rounded.slice(0, precision);
      point += 1;
    }
    digits = rounded;
  }
  digits = digits.padEnd(precision, "0");
  const e = point - 1;                      // value = d.ddd * 10^e
  if (e >= -4 && e < precision) {
    const whole = e >= 0 ? digits.slice(0, e + 1) : "0";
    const frac = (e >= 0 ? digits.slice(e + 1) : "0".repeat(-e - 1) + digits).replace(/0+$/, "");
    return `${sign}${whole}${frac ? `.${frac}` : ""}`;
  }
  const rest = digits.slice(1).replace(/0+$/, "");
  const power = `${Math.abs(e)}`.padStart(2, "0");
  return `${sign}${digits[0]}${rest ? `.${rest}` : ""}e${e < 0 ? "-" : "+"}${power}`;
}

/**
 * Code points that Unicode 14.0 (Python 3.11's `unicodedata`) leaves unassigned but Unicode
 * 15.0 to 17.0 assign, as hex ranges. Python 3.11 escapes them (category Cn) where a JavaScript
 * engine with newer Unicode data (Node 20.20: ICU 78, Unicode 17.0) reads them as printable;
 * with older data the engine escapes them too. Found by comparing Python 3.11's
 * `str.isprintable` with Node's `\p{...}` classes on every code point (no code point differs the
 * other way); `tests/test_js_parity.py` repeats that comparison on the whole of Unicode.
 */
const NEWER_THAN_UNICODE_14 = (
  "88f 897 c5c cdc cf3 ece 1acf-1add 1ae0-1aeb 1b4e-1b4f 1b7f 1c89-1c8a 20c1 2427-2429 2b96 " +
  "2ffc-2fff 31e4-31e5 31ef a7cb-a7cf a7d2 a7d4 a7da-a7dc a7f1 fbc3-fbd2 fd90-fd91 fdc8-fdce " +
  "105c0-105f3 10940-10959 10d40-10d65 10d69-10d85 10d8e-10d8f 10ec2-10ec7 10ed0-10ed8 " +
  "10efa-10eff 1123f-11241 11380-11389 1138b 1138e 11390-113b5 113b7-113c0 113c2 113c5 " +
  "113c7-113ca 113cc-113d5 113d7-113d8 113e1-113e2 116d0-116e3 11b00-11b09 11b60-11b67 " +
  "11bc0-11be1 11bf0-11bf9 11db0-11ddb 11de0-11de9 11f00-11f10 11f12-11f3a 11f3e-11f5a 1342f " +
  "13440-13455 13460-143fa 16100-16139 16d40-16d79 16ea0-16eb8 16ebb-16ed3 16ff2-16ff6 " +
  "187f8-187ff 18cff 18d09-18d1e 18d80-18df2 1b132 1b155 1cc00-1ccfc 1cd00-1ceb3 1ceba-1ced0 " +
  "1cee0-1cef0 1d2c0-1d2d3 1df25-1df2a 1e030-1e06d 1e08f 1e4d0-1e4f9 1e5d0-1e5fa 1e5ff " +
  "1e6c0-1e6de 1e6e0-1e6f5 1e6fe-1e6ff 1f6d8 1f6dc 1f774-1f77f 1f7d9 1f8b2-1f8bb 1f8c0-1f8c1 " +
  "1f8d0-1f8d8 1fa54-1fa57 1fa75-1fa77 1fa87-1fa8a 1fa8e-1fa8f 1faad-1faaf 1fabb-1fabf 1fac6 " +
  "1fac8 1facd-1facf 1fada-1fadc 1fadf 1fae8-1faea 1faef 1faf7-1faf8 1fbcb-1fbef 1fbfa " +
  "2b739-2b73f 2cea2-2cead 2ebf0-2ee5d 31350-33479"
).split(" ").map((range) => {
  const [lo, hi = lo] = range.split("-");
  return [parseInt(lo, 16), parseInt(hi, 16)];
});

/** The characters Python's str.isprintable refuses: categories Cc, Cf, Cs, Co, Cn, Zl, Zp, Zs. */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Whether Python 3.11's repr writes a non-ASCII character as it is (str.isprintable). */
function printable(/** @type {string} */ ch, /** @type {number} */ code) {
  if (NOT_PRINTABLE.test(ch)) return false;
  let lo = 0;
  let hi = NEWER_THAN_UNICODE_14.length - 1;
  while (lo <= hi) {                                  // a binary search of the ranges
    const mid = (lo + hi) >> 1;
    const [first, last] = NEWER_THAN_UNICODE_14[mid];
    if (code < first) hi = mid - 1;
    else if (code > last) lo = mid + 1;
    else return false;
  }
  return true;
}

/**
 * Python's repr of a string (CPython's unicode_repr): single quotes unless the text holds a
 * single quote and no double one; backslash, the quote, \t, \n and \r escaped; other control
 * characters and every non-printable character (Python 3.11's str.isprintable, Unicode 14.0) as
 * \xNN, \uNNNN or \UNNNNNNNN; a lone surrogate as \udNNN.
 * @param {string} s
 * @param {number} [max] Stop once the repr is this long (a message shows its start only).
 * @returns {string}
 */
export function pyString(s, max = Infinity) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (out.length >= max) return out;
    const code = /** @type {number} */ (ch.codePointAt(0));
    if (ch === "\\" || ch === quote) out += `\\${ch}`;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (code < 0x7f || printable(ch, code)) out += ch;
    else if (code <= 0xff) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += `\\U${code.toString(16).padStart(8, "0")}`;
  }
  return out + quote;
}

/**
 * Python's repr of a JSON value: null (and undefined) is None, booleans True and False, whole
 * numbers ints, other numbers floats, strings as Python writes them (every non-printable
 * character escaped by Python 3.11's rules), arrays lists and objects dicts (a value that holds
 * itself is written [...] or {...}, as Python does).
 * @param {unknown} value
 * @param {number} [max] Stop once the text is at least this long (for messages, which show the
 *     start of a long value only): the text is then cut, so only its first `max` characters
 *     are Python's.
 * @returns {string}
 */
export function pyRepr(value, max = Infinity) {
  let text = "";
  /** @type {Set<object>} */
  const open = new Set();
  /** @type {Array<{value: unknown} | {text: string} | {leave: object}>} */
  const todo = [{ value }];
  while (todo.length && text.length < max) {
    const item = /** @type {any} */ (todo.pop());
    if ("text" in item) { text += item.text; continue; }
    if ("leave" in item) { open.delete(item.leave); continue; }
    const v = item.value;
    if (v === null || v === undefined) text += "None";
    else if (v === true) text += "True";
    else if (v === false) text += "False";
    else if (typeof v === "number") text += pyNumber(v);
    else if (typeof v === "string") text += pyString(v, max - text.length);
    else if (typeof v === "object") {
      const list = Array.isArray(v);
      if (open.has(v)) { text += list ? "[...]" : "{...}"; continue; }
      open.add(v);
      text += list ? "[" : "{";
      const items = list ? v : Object.entries(v);
      // Each item takes at least one character, so no more than `max` of them can be shown.
      const shown = Math.min(items.length, max - text.length);
      todo.push({ leave: v }, { text: shown < items.length ? ", ..." : list ? "]" : "}" });
      for (let i = shown - 1; i >= 0; i -= 1) {
        if (list) todo.push({ value: items[i] });
        else todo.push({ value: items[i][1] }, { text: `${pyString(items[i][0], max)}: ` });
        if (i > 0) todo.push({ text: ", " });
      }
    } else text += String(v);
  }
  return text;
}

/**
 * x with `digits` decimals as Python's f"{x:.{digits}f}" writes it: the exact value of the
 * double rounded, a tie to even (JavaScript's `toFixed` rounds a tie up: 0.0625 -> "0.063",
 * Python "0.062"). A tie needs a short exact decimal, which `toFixed(60)` writes in full.
 * @param {number} x
 * @param {number} digits
 */
export function pyFixed(x, digits) {
  const out = x.toFixed(digits);
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21) return out;
  const long = Math.abs(x).toFixed(Math.min(100, digits + 60));
  const point = long.indexOf(".");
  const kept = digits === 0 ? long.slice(0, point) : long.slice(0, point + 1 + digits);
  const rest = long.slice(point + 1 + digits);
  // No tie, or a tie that toFixed rounded up to an even digit: its answer is Python's.
  if (!/^50*$/.test(rest) || Number(kept.slice(-1)) % 2 === 1) return out;
  return (x < 0 ? "-" : "") + kept;
}
