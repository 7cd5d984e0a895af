// @ts-check
/* The exercise pages' answer boxes (book/static/answers.js; the boxes are written by book/answers.py).

   Each box carries, in data attributes, what the exercise's notebook check expects: the verifier
   helper (data-kind: close, exactly, whole_number, one_of, same_array, same_expression), its
   expected value and its tolerance, all computed by the course's library when the site was built,
   and the check's hint. Enter in the box (or its "check" button) checks the answer here, in the
   page, with no Python behind it, by the helper's own rule:

     close          |x - e| <= max(rel * max(|x|, |e|), abs)       (Python's math.isclose)
     exactly        x = e as fractions (exact arithmetic on integers of any size)
     whole_number   x is a whole number and x = e
     one_of         the letter, as "b", "(b)", "b)", "B" or "b."
     same_array     same shape, and |x - e| <= abs + rel * |e| entry by entry (numpy.allclose)
     same_whole_numbers  whole numbers that, as a set, are e (any order)
     same_words     the same words in the same order, without case
     same_expression  a formula in one symbol equal to e(v) at each of the check's values v:
                    exactly (rational arithmetic), or within rel when the check says so

   and says "right" or "not yet", with what is wrong with the answer's form and the check's hint,
   in the words of the notebook's check(). A typed fraction such as 7/3 is read exactly, and so is
   arithmetic where a number is wanted (39.2251 - 35.8349, 1/3 + 2), with this file's one rational
   arithmetic (the formulas' own).

   What a page adds to the notebook's rules, for a reader who has only the page:
     - a number read off an explorer, which shows 4 decimals, is judged at the precision typed:
       a "close" answer whose digits (4 decimals or more, carried through the arithmetic typed) hold
       the right value is right "to the digits you gave"; one with too few digits for the check
       is told how many it needs;
     - "exactly" wants a fraction: a decimal number is refused, with a message, even when its value
       is the fraction's (3.6 for 18/5), as the notebook's check refuses a float;
     - a number box ("close") also takes what people type for a number: sqrt(...), ^ or ** with
       any exponent (380^0.5), a decimal comma (19,4936) and a percent sign (2.22%), its digits
       counted as written;
     - "jumps" (exercises 12.6 and 12.7, whose answer is a set of jumps to add to a board): the
       jumps are added to the board and the goal is judged by the page's own board maths
       (window.ChutesMaths, which site.js publishes: the explorers' maths, held to the library).

   Progress is kept in the browser (localStorage, which works for pages opened from disk too):
   each box's last answer and whether it was right survive a reload, the start page's
   ".chutes-progress" shows per set how many boxes are right, and its button forgets them.

   New numbers to practise (book/practice.py): an exercise page's ".chutes-practice" panel holds
   the set's practice variants (their numbers, and what each box expects with them, computed by
   the library when the site was built). "New numbers" draws another of them: every number's value
   in the text and the numbers table (".chutes-n") changes, the note under each picture drawn with
   the course's numbers (".chutes-practice-note") shows, and every box judges against the numbers
   shown; "Course's numbers" goes back. The variant shown is kept per set, and answers are kept
   per exercise and numbers ("2.5" for the course's, "2.5#1234" for numbers #1234): an answer
   right for other numbers is no answer to these, so each set of numbers keeps its own, and going
   back to one shows its answers again; the start page counts an exercise right when it is right
   with some numbers. Answers (the course's in each box's data-answer, the variants' in the
   panel's data-variants) are held encoded (decode(): book/practice.py's encode), so that the
   page's source does not show them as readable numbers. */
(function () {
  "use strict";

  // ------------------------------------------------------------------ the page's words
  /** The boxes' words in the page's language: every sentence this file shows is English in
      a call of tr (placeholders {name} for numbers), and a page in another language holds the
      translations of those sentences as JSON in #chutes-answer-words (book/answers.py writes it
      from the course's catalog, chutes_edu.po); a page with none, or a sentence with no
      translation, stays English. Read once the page is parsed. @type {Record<string, string> | null} */
  var WORDS = null;

  /** ``english`` in the page's language, its {placeholders} filled from ``values``.
      @param {string} english @param {Record<string, string | number>} [values] @returns {string} */
  function tr(english, values) {
    if (WORDS === null && typeof document !== "undefined" && document.readyState !== "loading") {
      var held = document.getElementById("chutes-answer-words");
      try { WORDS = held ? JSON.parse(held.textContent || "{}") : {}; } catch (_err) { WORDS = {}; }
    }
    var said = WORDS && Object.hasOwn(WORDS, english) ? WORDS[english] : english;
    return said.replace(/\{(\w+)\}/g, function (whole, name) {
      return values && Object.hasOwn(values, name) ? String(values[name]) : whole;
    });
  }

  /** @typedef {{n: bigint, d: bigint}} Rational  a fraction n/d in lowest terms, d > 0 */

  /** @param {bigint} a @param {bigint} b @returns {bigint} */
  function gcd(a, b) {
    if (a < 0n) a = -a;
    if (b < 0n) b = -b;
    while (b) { var t = a % b; a = b; b = t; }
    return a;
  }

  /** @param {bigint} n @param {bigint} d @returns {Rational} */
  function rational(n, d) {
    if (d === 0n) throw new RangeError("division by zero");
    if (d < 0n) { n = -n; d = -d; }
    var g = gcd(n, d) || 1n;
    return { n: n / g, d: d / g };
  }

  /** @param {Rational} a @param {Rational} b */
  function add(a, b) { return rational(a.n * b.d + b.n * a.d, a.d * b.d); }
  /** @param {Rational} a @param {Rational} b */
  function sub(a, b) { return rational(a.n * b.d - b.n * a.d, a.d * b.d); }
  /** @param {Rational} a @param {Rational} b */
  function mul(a, b) { return rational(a.n * b.n, a.d * b.d); }
  /** @param {Rational} a @param {Rational} b */
  function div(a, b) { return rational(a.n * b.d, a.d * b.n); }
  /** @param {Rational} a @param {Rational} b */
  function same(a, b) { return a.n === b.n && a.d === b.d; }

  var MAX_POWER = 100000n;   // a larger whole-number exponent is refused, not computed

  /** @param {Rational} base @param {Rational} exponent @returns {Rational} */
  function power(base, exponent) {
    if (exponent.d !== 1n) throw new SyntaxError(tr("powers with a whole-number exponent only"));
    var e = exponent.n < 0n ? -exponent.n : exponent.n;
    if (e > MAX_POWER) throw new SyntaxError(tr("an exponent too large for the page"));
    var out = rational(1n, 1n);
    var b = base;
    while (e > 0n) {
      if (e & 1n) out = mul(out, b);
      b = mul(b, b);
      e >>= 1n;
    }
    return exponent.n < 0n ? div(rational(1n, 1n), out) : out;
  }

  /** A fraction as a float, even when its integers are larger than a double. @param {Rational} r */
  function toNumber(r) {
    var n = r.n < 0n ? -r.n : r.n, d = r.d;
    var sign = r.n < 0n ? -1 : 1;
    var extra = Math.max(n.toString().length, d.toString().length) - 300;
    if (extra > 0) {          // keep 300 digits of the longer one: a double holds 17
      var scale = 10n ** BigInt(extra);
      n = n / scale;
      d = d / scale;
      if (d === 0n) return sign * Infinity;
    }
    return sign * (Number(n) / Number(d));
  }

  var DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

  /** A decimal number, read exactly ("2.5", "-1e-3", ".5"); null if it is none.
      @param {string} text @returns {Rational | null} */
  function parseDecimal(text) {
    var m = DECIMAL.exec(text);
    if (!m || (m[2] === "" && (m[3] === undefined || m[3] === ""))) return null;
    var digits = (m[2] || "") + (m[3] || "");
    var exponent = (m[4] ? parseInt(m[4], 10) : 0) - (m[3] ? m[3].length : 0);
    if (Math.abs(exponent) > 1000) return null;
    var n = BigInt(digits || "0") * (m[1] === "-" ? -1n : 1n);
    return exponent >= 0 ? rational(n * 10n ** BigInt(exponent), 1n)
      : rational(n, 10n ** BigInt(-exponent));
  }

  /** Typed text in the form the page reads: minus signs and spaces made plain.
      @param {string} text */
  function tidy(text) {
    return text.replace(/[\u2212\u2013]/g, "-").replace(/\u00d7/g, "*").replace(/\s+/g, " ").trim();
  }

  var CALL = /^(?:(?:sympy|sp|fractions)\.)?(?:Fraction|Rational|S)\((.*)\)$/;

  /** A number as a student may type it: 12, 2.5, 1e-3, 7/3, -7/3, Fraction(7, 3),
      sympy.Rational(7, 3), 24_444_042, 24,444,042; exactly, or null if the text is no number.
      @param {string} text @returns {Rational | null} */
  function parseNumber(text) {
    var t = tidy(text).replace(/^['"]|['"]$/g, "");
    var call = CALL.exec(t);
    if (call) t = call[1].replace(",", "/");
    t = t.replace(/\s/g, "").replace(/(\d)_(?=\d)/g, "$1");      // 24_444_042, as Python writes it
    if (/^[+-]?\d{1,3}(,\d{3})+(\.\d*)?$/.test(t)) t = t.replace(/,/g, "");   // 24,444,042
    var parts = t.split("/");
    var top = parts.length <= 2 ? parseDecimal(parts[0]) : null;
    if (top !== null && parts.length === 1) return top;
    var bottom = top !== null ? parseDecimal(parts[1]) : null;
    if (top !== null && bottom !== null) return bottom.n === 0n ? null : div(top, bottom);
    return arithmetic(text);
  }

  /** Arithmetic on numbers (39.2251 - 35.8349, 1/3 + 2, 2^-3), exactly; null if the text is
      anything else (a symbol, a function, a division by zero, a syntax the page cannot read).
      @param {string} text @returns {Rational | null} */
  function arithmetic(text) {
    try {
      var formula = parseFormula(text);
      return formula.symbols.length ? null : evaluate(formula.tree, rational(0n, 1n));
    } catch (err) {
      if (err instanceof SyntaxError || err instanceof RangeError) return null;
      throw err;
    }
  }

  /** The value of arithmetic in a number box, as a float, where it is no fraction: roots
      (sqrt(380)) and powers with any exponent (380^0.5, 380**0.5). null if the text is no
      arithmetic the page reads, or has no real value. @param {string} text @returns {number | null} */
  function realValue(text) {
    var formula;
    try { formula = parseFormula(text, true); } catch (err) {
      if (err instanceof SyntaxError || err instanceof RangeError) return null;
      throw err;
    }
    if (formula.symbols.length) return null;
    /** @param {Node} node @returns {number} */
    function walk(node) {
      if (node.kind === "number") return toNumber(/** @type {Rational} */ (node.value));
      var args = /** @type {Node[]} */ (node.args).map(walk);
      if (node.kind === "neg") return -args[0];
      switch (node.op) {
        case "+": return args[0] + args[1];
        case "-": return args[0] - args[1];
        case "*": return args[0] * args[1];
        case "/": return args[0] / args[1];
        default: return args[0] ** args[1];
      }
    }
    var x = walk(formula.tree);
    return Number.isFinite(x) ? x : null;
  }

  /** A number box's text with what people type for a number made plain: a decimal comma
      (19,4936: 19.4936) and a percent sign (2.22%: 2.22/100, its digits as typed). Throws NotYet
      when a comma could be either (1,234: 1.234 or 1234?). @param {string} text @returns {string} */
  function numberText(text) {
    var t = tidy(text);
    if (!/[A-DF-Za-df-z_]/.test(t)) {      // no names (Fraction(7,3) keeps its comma)
      var commas = t.match(/\d,\d/g) || [];
      var grouped = /^[+-]?\d{1,3}(,\d{3})+(\.\d*)?$/.test(t);
      if (commas.length === 1 && grouped) {
        throw new NotYet(tr("the page cannot tell whether {typed} has a decimal comma or a "
          + "thousands separator: write a decimal point (such as 1.5) and no other comma",
        { typed: t }));
      }
      if (commas.length >= 1 && !grouped) {
        if (/\d,\d+,\d/.test(t) || /\d\.\d*,\d|\d,\d*\.\d/.test(t)) {
          throw new NotYet(tr("the page cannot read {typed}: write one number, with a decimal "
            + "point (such as 19.4936)", { typed: t }));
        }
        t = t.replace(/(\d),(\d)/g, "$1.$2");
      }
    }
    t = t.replace(/(\d*\.?\d+(?:[eE][+-]?\d+)?)\s*%/g, "($1/100)");
    if (t.indexOf("%") >= 0) {
      throw new NotYet(tr("the page reads a percent sign after a number only (2.22% for 0.0222)"));
    }
    return t;
  }

  /** Half a unit of the last digit of a typed decimal ("3.3902": 0.00005, "1.5e-3": 0.00005e-3);
      0 for a whole number, which is exact. @param {string} text */
  function halfUnit(text) {
    var m = DECIMAL.exec(text);
    if (!m?.[3]) return 0;
    return 0.5 * 10 ** ((m[4] ? parseInt(m[4], 10) : 0) - m[3].length);
  }

  /** How far a typed number (or arithmetic on typed numbers) may be from what its reader saw:
      half a unit of each decimal's last digit, carried through + - * / and whole powers (first
      order, as a bound). 0 for exact input (whole numbers, fractions), NaN if the text is no
      arithmetic the page reads. @param {string} text @returns {number} */
  function uncertainty(text) {
    var formula;
    try { formula = parseFormula(text, true); } catch (_err) { return NaN; }
    if (formula.symbols.length) return NaN;
    /** @param {Node} node @returns {[number, number]} value and uncertainty */
    function walk(node) {
      if (node.kind === "number") return [toNumber(/** @type {Rational} */ (node.value)), node.u || 0];
      var args = /** @type {Node[]} */ (node.args).map(walk);
      var a = args[0][0], ua = args[0][1];
      if (node.kind === "neg") return [-a, ua];
      var b = args[1][0], ub = args[1][1];
      switch (node.op) {
        case "+": return [a + b, ua + ub];
        case "-": return [a - b, ua + ub];
        case "*": return [a * b, Math.abs(a) * ub + Math.abs(b) * ua + ua * ub];
        case "/":
          if (Math.abs(b) <= ub) return [a / b, Infinity];
          return [a / b, (Math.abs(a) * ub + Math.abs(b) * ua) / (Math.abs(b) * (Math.abs(b) - ub))];
        default:
          if (ub > 0) return [a ** b, Infinity];
          if (!Number.isInteger(b)) {          // a root: monotone in a > 0
            if (a - ua <= 0) return [a ** b, Infinity];
            return [a ** b, Math.max(Math.abs((a + ua) ** b - a ** b),
              Math.abs(a ** b - (a - ua) ** b))];
          }
          var m = Math.abs(a);
          if (b >= 0) return [a ** b, (m + ua) ** b - m ** b];
          if (m <= ua) return [a ** b, Infinity];
          return [a ** b, (m - ua) ** b - m ** b];
      }
    }
    return walk(formula.tree)[1];
  }

  /** Does the text hold a decimal number (a point or an exponent: "3.6", "36e-1")?
      @param {string} text */
  function hasDecimal(text) {
    return /(^|[^A-Za-z_0-9.])(\d*\.\d|\d+\.(?!\d)|\d+[eE][+-]?\d)/.test(tidy(text));
  }

  /** Python's math.isclose. @param {number} a @param {number} b @param {number} rel
      @param {number} abs */
  function isClose(a, b, rel, abs) {
    if (a === b) return true;
    if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
    return Math.abs(a - b) <= Math.max(rel * Math.max(Math.abs(a), Math.abs(b)), abs);
  }

  // ------------------------------------------------------------------ formulas in one symbol
  /** @typedef {{type: string, text: string}} Token */

  /** @param {string} text @returns {Token[]} */
  function tokens(text) {
    var out = [];
    var re = /\s*(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z_0-9]*(?:\.[A-Za-z_][A-Za-z_0-9]*)*)|(\*\*|[-+*/^(),]))/y;
    var m;
    var at = 0;
    text = tidy(text);
    while (at < text.length) {
      re.lastIndex = at;
      m = re.exec(text);
      if (!m) throw new SyntaxError(tr("the page cannot read \u201c{typed}\u201d: it reads numbers, "
        + "one letter or name, + - * / ^ and brackets", { typed: text.slice(at).trim() }));
      at = re.lastIndex;
      if (m[1] !== undefined) out.push({ type: "number", text: m[1] });
      else if (m[2] !== undefined) out.push({ type: "name", text: m[2] });
      else out.push({ type: "op", text: m[3] === "**" ? "^" : m[3] });
    }
    return out;
  }

  var FUNCTIONS = /^(?:(?:sympy|sp|fractions)\.)?(?:Fraction|Rational|S)$/;
  // names a student may call; any other name before a bracket is a symbol times the bracket
  var NO_FUNCTIONS = /^(?:sqrt|exp|log|ln|sin|cos|tan|abs|sum|pow|float|int|simplify|factor)$/;

  /** @typedef {{kind: string, value?: Rational, u?: number, name?: string, op?: string,
                 args?: Node[]}} Node  u: half a unit of a typed decimal's last digit */

  var HALF = { n: 1n, d: 2n };

  /** Parse a formula: sums of products of powers, with implicit products ("2p", "(1-p)(1+p)");
      with ``roots``, sqrt(...) too, as a power 1/2 (a number box's: not a fraction's).
      @param {string} text @param {boolean} [roots] @returns {{tree: Node, symbols: string[]}} */
  function parseFormula(text, roots) {
    var list = tokens(text);
    var i = 0;
    /** @type {Set<string>} */
    var symbols = new Set();
    function peek() { return list[i]; }
    /** @param {string} op */
    function isOp(op) { return i < list.length && list[i].type === "op" && list[i].text === op; }
    /** @returns {Node} */
    function sum() {
      var node = product();
      while (isOp("+") || isOp("-")) {
        var op = list[i++].text;
        node = { kind: "op", op: op, args: [node, product()] };
      }
      return node;
    }
    function startsFactor() {
      var t = peek();
      return t !== undefined && (t.type !== "op" || t.text === "(");
    }
    /** @returns {Node} */
    function product() {
      var node = unary();
      for (;;) {
        if (isOp("*") || isOp("/")) {
          var op = list[i++].text;
          node = { kind: "op", op: op, args: [node, unary()] };
        } else if (startsFactor()) {
          node = { kind: "op", op: "*", args: [node, powerOf()] };
        } else {
          return node;
        }
      }
    }
    /** @returns {Node} */
    function unary() {
      if (isOp("-")) { i++; return { kind: "neg", args: [unary()] }; }
      if (isOp("+")) { i++; return unary(); }
      return powerOf();
    }
    /** @returns {Node} */
    function powerOf() {
      var base = atom();
      if (isOp("^")) { i++; return { kind: "op", op: "^", args: [base, unary()] }; }
      return base;
    }
    /** @returns {Node} */
    function atom() {
      var t = list[i++];
      if (t === undefined) throw new SyntaxError(tr("the formula ends too soon"));
      if (t.type === "number") {
        var value = parseDecimal(t.text);
        if (value === null) throw new SyntaxError(tr("the page cannot read the number {typed}", { typed: t.text }));
        return { kind: "number", value: value, u: halfUnit(t.text) };
      }
      if (t.type === "name") {
        if (FUNCTIONS.test(t.text) && isOp("(")) {
          i++;
          var top = sum();
          var node = top;
          if (isOp(",")) { i++; node = { kind: "op", op: "/", args: [top, sum()] }; }
          expect(")");
          return node;
        }
        if (roots && /^(?:(?:math|np|numpy)\.)?sqrt$/.test(t.text) && isOp("(")) {
          i++;
          var radicand = sum();
          expect(")");
          return { kind: "op", op: "^", args: [radicand, { kind: "number", value: HALF, u: 0 }] };
        }
        if (isOp("(") && (NO_FUNCTIONS.test(t.text) || t.text.indexOf(".") >= 0)) {
          throw new SyntaxError(tr("the page reads no functions such as {name}(...): only numbers, "
            + "one symbol, + - * / ^ and brackets", { name: t.text }));
        }
        symbols.add(t.text);
        return { kind: "symbol", name: t.text };
      }
      if (t.text === "(") {
        var inner = sum();
        expect(")");
        return inner;
      }
      throw new SyntaxError(tr("the page cannot read \u201c{typed}\u201d where it is", { typed: t.text }));
    }
    /** @param {string} op */
    function expect(op) {
      if (!isOp(op)) throw new SyntaxError(tr("a bracket is not closed"));
      i++;
    }
    var tree = sum();
    if (i < list.length) throw new SyntaxError(tr("the page cannot read \u201c{typed}\u201d where it is",
      { typed: list[i].text }));
    return { tree: tree, symbols: Array.from(symbols).sort() };
  }

  /** @param {Node} node @param {Rational} x @returns {Rational} */
  function evaluate(node, x) {
    if (node.kind === "number") return /** @type {Rational} */ (node.value);
    if (node.kind === "symbol") return x;
    var args = /** @type {Node[]} */ (node.args).map(function (a) { return evaluate(a, x); });
    if (node.kind === "neg") return rational(-args[0].n, args[0].d);
    switch (node.op) {
      case "+": return add(args[0], args[1]);
      case "-": return sub(args[0], args[1]);
      case "*": return mul(args[0], args[1]);
      case "/": return div(args[0], args[1]);
      default: return power(args[0], args[1]);
    }
  }

  // ------------------------------------------------------------------ lists of numbers
  /** "[[1, 2], [3, 4]]", "0.2, 0.3, 0.5" or "[1/3 2/3]": nested arrays of numbers, or null.
      @param {string} text @returns {any} */
  function parseArray(text) {
    var t = tidy(text).replace(/^(?:np\.|numpy\.)?array\((.*)\)$/, "$1");
    if (!/[A-Za-z]/.test(t)) t = t.replace(/\(/g, "[").replace(/\)/g, "]");   // a tuple
    if (t.charAt(0) !== "[") t = "[" + t + "]";
    var at = 0;
    /** @returns {any} */
    function value() {
      while (t.charAt(at) === " ") at++;
      if (t.charAt(at) === "[") {
        at++;
        var items = [];
        for (;;) {
          while (t.charAt(at) === " " || t.charAt(at) === ",") at++;
          if (t.charAt(at) === "]") { at++; return items; }
          if (at >= t.length) throw new SyntaxError(tr("a bracket is not closed"));
          items.push(value());
        }
      }
      var m = /^[^\s,[\]]+/.exec(t.slice(at));
      var number = m ? parseNumber(m[0]) : null;
      if (m === null || number === null) {
        throw new SyntaxError(tr("the page cannot read \u201c{typed}\u201d as a number",
          { typed: m ? m[0] : t.slice(at) }));
      }
      at += m[0].length;
      return toNumber(number);
    }
    var out = value();
    if (t.slice(at).trim()) throw new SyntaxError(tr("there is more after the last bracket"));
    return out;
  }

  /** The items of a typed list: "[1, 4, 7]", "(1, 4)", "{1, 4}", "1 4 7", '["first", "equal"]'.
      @param {string} text @returns {string[]} */
  function listItems(text) {
    var t = tidy(text).replace(/^[[({]\s*|\s*[\])}]$/g, "");
    return t.split(t.indexOf(",") >= 0 ? "," : " ").map(function (item) {
      return item.trim().replace(/^['"]|['"]$/g, "").trim();
    }).filter(function (item) { return item !== ""; });
  }

  /** @param {any} a @returns {number[]} */
  function shape(a) {
    var out = [];
    while (Array.isArray(a)) { out.push(a.length); a = a[0]; }
    return out;
  }

  /** @param {any} a @returns {number[]} */
  function flat(a) {
    return Array.isArray(a) ? a.reduce(function (acc, x) { return acc.concat(flat(x)); }, []) : [a];
  }

  /** @param {any} a @param {number[]} s @returns {boolean} */
  function regular(a, s) {
    if (s.length === 0) return !Array.isArray(a);
    return Array.isArray(a) && a.length === s[0]
      && a.every(function (x) { return regular(x, s.slice(1)); });
  }

  // ------------------------------------------------------------------ the verdict
  /** Thrown for an answer whose form is wrong: says what is wrong (never the expected value). */
  class NotYet extends Error {}

  var LETTER = /^[([]?\s*([a-z])\s*[)\].:]?$/;

  /** @typedef {{kind: string, expected: any, rel: number | null, abs: number}} Spec */

  /** Is the typed ``text`` right by the check ``spec``? Throws NotYet when its form is wrong.
      A string is a right answer with a note (judged at the precision typed: readOff).
      @param {Spec} spec @param {string} text @returns {boolean | string} */
  function isRight(spec, text) {
    var value;
    switch (spec.kind) {
      case "close":
        var typed = numberText(text);
        value = parseNumber(typed);
        var x = value !== null ? toNumber(value) : realValue(typed);
        if (x === null) throw new NotYet(tr("a number is wanted (such as 0.25, 1e-3, 7/3, "
          + "12.5 - 3.25 or sqrt(2)), and the page cannot read yours as one"));
        var expected = Number(spec.expected);
        if (!Number.isFinite(x)) return false;
        if (isClose(x, expected, spec.rel || 0, spec.abs)) return true;
        return readOff(x, uncertainty(typed), expected, spec);
      case "exactly":
        value = parseNumber(text);
        if (value === null) throw new NotYet(tr("an exact fraction is wanted (such as 7/3), and the "
          + "page cannot read yours as one"));
        var target = /** @type {Rational} */ (parseNumber(spec.expected));
        if (hasDecimal(text)) {
          throw new NotYet(same(value, target)
            || isClose(toNumber(value), toNumber(target), 1e-9, 1e-15)
            ? tr("right value, but a decimal number is not exact, and this exercise asks for the "
              + "exact fraction: give it as a fraction such as 7/3 (or a whole number), not as a decimal")
            : tr("a decimal number is not exact, and this exercise asks for the exact fraction: give "
              + "it as a fraction such as 7/3 (or a whole number), not as a decimal"));
        }
        return same(value, target);
      case "whole_number":
        value = parseNumber(text);
        if (value === null) throw new NotYet(tr("a whole number is wanted, and the page cannot read "
          + "yours as a number"));
        if (value.d !== 1n) throw new NotYet(tr("a whole number is wanted, and your answer has a "
          + "fractional part"));
        return value.n === BigInt(spec.expected);
      case "one_of":
        var m = LETTER.exec(tidy(text).replace(/^['"]|['"]$/g, "").toLowerCase());
        if (m === null) throw new NotYet(tr("the answer is one letter, like a"));
        return m[1] === spec.expected;
      case "same_array":
        var got;
        try { got = parseArray(text); } catch (err) {
          throw new NotYet(tr("numbers separated by commas are wanted, and {problem}",
            { problem: errorText(err) }));
        }
        var want = shape(spec.expected), mine = shape(got);
        if (!regular(got, mine) || mine.join() !== want.join()) {
          throw new NotYet(tr("an array of shape ({wanted}) is wanted, and yours has shape ({yours})",
            { wanted: want.join(", ") + (want.length === 1 ? "," : ""),
              yours: mine.join(", ") + (mine.length === 1 ? "," : "") }));
        }
        var e = flat(spec.expected);
        return flat(got).every(function (v, k) {
          return (Number.isNaN(v) && Number.isNaN(e[k]))
            || Math.abs(v - e[k]) <= spec.abs + (spec.rel || 0) * Math.abs(e[k]);
        });
      case "same_whole_numbers":
        var numbers = new Set();
        listItems(text).forEach(function (item) {
          var number = parseNumber(item);
          if (number === null) throw new NotYet(tr("the list should hold whole numbers, and the page "
            + "cannot read \u201c{item}\u201d as one", { item: item }));
          if (number.d !== 1n) throw new NotYet(tr("the list should hold whole numbers, and one of "
            + "its entries has a fractional part"));
          numbers.add(number.n.toString());
        });
        return numbers.size === spec.expected.length && spec.expected.every(
          function (/** @type {number} */ x) { return numbers.has(String(x)); });
      case "same_words":
        var words = listItems(text).map(function (w) { return w.toLowerCase(); });
        return words.length === spec.expected.length && words.every(
          function (w, k) { return w === spec.expected[k]; });
      case "same_expression":
        /** @type {any} */
        /** @type {ReturnType<typeof parseFormula>} */
        var formula;
        try { formula = parseFormula(text); } catch (err) { throw new NotYet(errorText(err)); }
        if (formula.symbols.length === 0) throw new NotYet(tr("an expression in one symbol is "
          + "wanted, and your answer is a plain number"));
        if (formula.symbols.length > 1) throw new NotYet(tr("an expression in one symbol is wanted, "
          + "and yours has {symbols}", { symbols: formula.symbols.join(", ") }));
        return spec.expected.every(function (/** @type {[string, any]} */ point) {
          var at;
          try {
            at = evaluate(formula.tree, /** @type {Rational} */ (parseNumber(point[0])));
          } catch (err) {
            if (err instanceof RangeError) return false;      // undefined there: not equal
            throw new NotYet(errorText(err));
          }
          if (spec.rel === null) return same(at, /** @type {Rational} */ (parseNumber(point[1])));
          return isClose(toNumber(at), Number(point[1]), spec.rel, 0);
        });
      case "jumps":
        return jumpsRight(spec.expected, text);
      default:
        throw new NotYet(tr("the page cannot check this kind of answer"));
    }
  }

  // ------------------------------------------------------------------ jumps added to a board
  /** @typedef {{board: any, most: number, from: number | null, goal: string, value: number,
                 band: number | null}} JumpGoal
      goal "edge_below": the first seat's edge in a two-player race below value; "length_near":
      the expected turns from square 0 within band of value. */

  /** How a list of jumps is typed, in the page's language. */
  function jumpForm() {
    return tr("a list of jumps (a, b) is wanted, such as (3, 9), or [(3, 9), (12, 40)]");
  }
  // A float this close to the goal's limit is left to the notebook's exact check.
  var TOO_CLOSE = 1e-9;

  /** The jumps typed: "(3, 9)", "[(3, 9), (12, 40)]", "3 -> 9, 12 -> 40". @param {string} text
      @returns {number[][]} */
  function parseJumps(text) {
    var t = tidy(text).replace(/->|\u2192|=>/g, ",").replace(/[[\](){}]/g, " ");
    var items = t.split(/[,\s]+/).filter(function (w) { return w !== ""; });
    if (items.length === 0 || items.length % 2) throw new NotYet(jumpForm());
    var squares = items.map(function (w) {
      var v = /^[+-]?\d+$/.test(w) ? Number(w) : NaN;
      if (!Number.isSafeInteger(v)) throw new NotYet(tr("each jump is a pair of whole numbers "
        + "(a, b), such as (3, 9)"));
      return v;
    });
    var out = [];
    for (var k = 0; k < squares.length; k += 2) out.push([squares[k], squares[k + 1]]);
    return out;
  }

  /** Is the typed set of jumps, added to the goal's board, right by the goal? As the notebook's
      check (chutes_edu/checks/lesson12.py), with the page's board maths.
      @param {JumpGoal} goal @param {string} text @returns {boolean} */
  function jumpsRight(goal, text) {
    var maths = api.maths || (typeof window !== "undefined" && /** @type {any} */ (window).ChutesMaths);
    if (!maths) throw new NotYet(tr("the page's board maths did not load: check this one in the "
      + "notebook"));
    var jumps = parseJumps(text);
    if (jumps.length > goal.most) {
      throw new NotYet(goal.most > 1
        ? tr("at most {most} jumps may be added, and you gave {given}", { most: goal.most, given: jumps.length })
        : tr("at most {most} jump may be added, and you gave {given}", { most: goal.most, given: jumps.length }));
    }
    var taken = new Set(goal.board.jumps.map(function (/** @type {number[]} */ j) { return j[0]; }));
    var sources = new Set();
    jumps.forEach(function (j) {
      if (taken.has(j[0]) || sources.has(j[0])) throw new NotYet(tr("each added jump needs a square "
        + "of its own: two of yours start on the same square, or one starts where the board "
        + "already has a jump"));
      sources.add(j[0]);
    });
    if (goal.from !== null && (jumps.length !== 1 || jumps[0][0] !== goal.from)) {
      throw new NotYet(tr("one jump that starts on your square {from} is wanted, ({from}, b)",
        { from: goal.from }));
    }
    var board = Object.assign({}, goal.board, { jumps: goal.board.jumps.concat(jumps) });
    var refused = maths.validate(board);
    if (refused) throw new NotYet(tr("the rules of the board do not allow these jumps ({why})", { why: refused }));
    var value, limit;
    if (goal.goal === "edge_below") {
      value = maths.firstMoverEdge(board);
      limit = goal.value;
    } else {
      value = Math.abs(maths.expectedTurns(board)[0] - goal.value);
      limit = /** @type {number} */ (goal.band);
    }
    if (Math.abs(value - limit) < TOO_CLOSE) throw new NotYet(tr("your board is too close to the "
      + "limit for the page's arithmetic to decide: check it in the notebook, which solves it "
      + "exactly"));
    return value < limit;
  }

  var SHOWN_DECIMALS = 4;                      // what the explorers show (editor_readout.js)
  var SHOWN_UNIT = 10 ** -SHOWN_DECIMALS;
  var FEWEST_SIGNIFICANT = 3;

  /** A "close" answer the check's tolerance refuses, judged at the precision it was typed with:
      right (a note saying so) when its digits hold the expected value and are at least the
      explorers' 4 decimals and 3 significant digits; false when they do not hold it; NotYet, with
      the digits needed, when too few digits were typed for the check to judge.
      @param {number} x the typed value @param {number} u its uncertainty (uncertainty())
      @param {number} expected @param {Spec} spec @returns {boolean | string} */
  function readOff(x, u, expected, spec) {
    if (!(u > 0)) return false;                            // exact input (or none we can judge)
    var precise = u <= SHOWN_UNIT * (1 + 1e-9)
      && u <= 0.5 * 10 ** (1 - FEWEST_SIGNIFICANT) * Math.abs(x);
    if (precise) {
      return Math.abs(x - expected) <= u * (1 + 1e-9)
        ? tr("to the digits you gave (the notebook's check, which gets its value from Python, "
          + "wants more digits)")
        : false;
    }
    if (u > Math.max((spec.rel || 0) * Math.abs(x), spec.abs)) {
      // say only what the digits typed lack, counted as written
      var lacking = [];
      if (u > SHOWN_UNIT * (1 + 1e-9)) {
        lacking.push(tr("at least {n} decimals (as the explorers show them)", { n: SHOWN_DECIMALS }));
      }
      if (u > 0.5 * 10 ** (1 - FEWEST_SIGNIFICANT) * Math.abs(x) * (1 + 1e-9)) {
        lacking.push(tr("at least {n} significant digits (zeros after the point before the first "
          + "other digit do not count: 0.0012 has 2)", { n: FEWEST_SIGNIFICANT }));
      }
      if (lacking.length === 0) lacking.push(tr("more decimals"));
      throw new NotYet(tr("your answer has too few digits for the page to judge it: give {what}, "
        + "or a fraction", { what: lacking.join(tr(" and ")) }));
    }
    return false;
  }

  /** @param {unknown} err */
  function errorText(err) {
    return err instanceof Error ? err.message : String(err);
  }

  /** The check's message, as the notebook's check() words it.
      @param {string} exercise @param {Spec} spec @param {string} text @param {string} hint */
  function verdict(exercise, spec, text, hint) {
    var problem = "";
    if (!tidy(text)) {
      problem = tr("no answer given");
    } else {
      try {
        var right = isRight(spec, text);
        if (right) {
          return { right: true, message: tr("\u2714 {exercise} right", { exercise: exercise })
            + (typeof right === "string" ? " " + right : "") };
        }
      } catch (err) {
        if (!(err instanceof NotYet)) throw err;
        problem = err.message;
      }
    }
    return { right: false, message: (problem
      ? tr("\u2718 {exercise} not yet: {problem}", { exercise: exercise, problem: problem })
      : tr("\u2718 {exercise} not yet", { exercise: exercise }))
      + tr(". Hint: {hint} ", { hint: hint }).trimEnd() };
  }

  // ------------------------------------------------------------------ progress, kept
  var STORE = "chutes-edu-answers-v1";      // {exercise[#seed]: {text, right}} in localStorage
  var NUMBERS_STORE = "chutes-edu-numbers-v1";   // {set: seed}: the numbers each page shows

  /** What this browser keeps, or null when it keeps nothing (storage off, or no window).
      @returns {Record<string, {text: string, right: boolean}> | null} */
  function loadProgress() {
    try {
      var saved = JSON.parse(window.localStorage.getItem(STORE) || "{}");
      return saved && typeof saved === "object" && !Array.isArray(saved) ? saved : {};
    } catch (_err) {
      return null;
    }
  }

  /** Keep (or, for an empty answer, forget) one exercise's answer and verdict.
      @param {string} exercise @param {string} text @param {boolean} right */
  function keep(exercise, text, right) {
    var saved = loadProgress();
    if (saved === null) return;
    if (tidy(text)) saved[exercise] = { text: text, right: right };
    else delete saved[exercise];
    try { window.localStorage.setItem(STORE, JSON.stringify(saved)); } catch (_err) { /* full */ }
  }

  /** Forget every kept answer, and the numbers each page shows. */
  function forget() {
    try {
      window.localStorage.removeItem(STORE);
      window.localStorage.removeItem(NUMBERS_STORE);
    } catch (_err) { /* nothing kept */ }
  }

  /** How many boxes of each set are right: {set: [right, boxes]}, from the start page's data
      ({set: {title, href, boxes: [exercise, ...]}}). A box is right when its answer is right with
      the course's numbers ("2.5") or with any drawn for practice ("2.5#1234").
      @param {Record<string, {boxes: string[]}>} sets
      @param {Record<string, {right: boolean}>} saved */
  function tally(sets, saved) {
    /** @type {Record<string, boolean>} */
    var right = {};
    Object.keys(saved).forEach(function (key) {
      if (saved[key]?.right === true) right[key.split("#")[0]] = true;
    });
    /** @type {Record<string, number[]>} */
    var out = {};
    Object.keys(sets).forEach(function (set) {
      var boxes = sets[set].boxes;
      out[set] = [boxes.filter(function (ex) { return right[ex] === true; }).length, boxes.length];
    });
    return out;
  }

  /** The start page's progress: per set, how many of its boxes are right, and a button that
      forgets every kept answer. @param {HTMLElement} place */
  function showProgress(place) {
    var sets = JSON.parse(place.dataset.sets || "{}");
    var list = document.createElement("ul");
    var status = document.createElement("p");
    status.setAttribute("role", "status");
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = tr("forget my answers");
    function draw() {
      var saved = loadProgress();
      var counts = tally(sets, saved || {});
      list.textContent = "";
      Object.keys(sets).forEach(function (set) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = sets[set].href;
        link.textContent = sets[set].title;
        item.append(link, tr(": {right} of {boxes} answer boxes right",
          { right: counts[set][0], boxes: counts[set][1] }));
        list.append(item);
      });
      button.disabled = saved === null;
      if (saved === null) status.textContent = tr("This browser keeps nothing for this page "
        + "(its storage is off), so answers are not kept.");
    }
    button.addEventListener("click", function () {
      forget();
      draw();
      status.textContent = "";
      window.setTimeout(function () { status.textContent = tr("Your answers are forgotten."); }, 50);
    });
    place.append(list, button, status);
    draw();
  }

  // ------------------------------------------------------------------ what the page holds, encoded
  /** ``length`` bytes of xorshift32 seeded by the FNV-1a hash of ``name`` (book/practice.py's
      keystream, the same bytes). @param {string} name @param {number} length */
  function keystream(name, length) {
    var state = 0x811c9dc5;
    new TextEncoder().encode(name).forEach(function (byte) {
      state = Math.imul(state ^ byte, 0x01000193) >>> 0;
    });
    if (state === 0) state = 0x9e3779b9;
    var out = new Uint8Array(length + 4);
    for (var at = 0; at < length; at += 4) {
      state = (state ^ (state << 13)) >>> 0;
      state = (state ^ (state >>> 17)) >>> 0;
      state = (state ^ (state << 5)) >>> 0;
      out[at] = state & 255;
      out[at + 1] = (state >>> 8) & 255;
      out[at + 2] = (state >>> 16) & 255;
      out[at + 3] = state >>> 24;
    }
    return out.subarray(0, length);
  }

  /** The data book/practice.py's encode() wrote under ``name``.
      @param {string} text @param {string} name @returns {any} */
  function decode(text, name) {
    var raw = atob(text);
    var key = keystream(name, raw.length);
    var bytes = new Uint8Array(raw.length);
    for (var k = 0; k < raw.length; k++) bytes[k] = raw.charCodeAt(k) ^ key[k];
    return JSON.parse(new TextDecoder().decode(bytes));
  }

  /** A variant's expected value: for a goal (an object), the course's with the variant's fields.
      @param {any} course @param {any} other */
  function withCourse(course, other) {
    var isGoal = function (/** @type {any} */ x) {
      return x !== null && typeof x === "object" && !Array.isArray(x);
    };
    return isGoal(course) && isGoal(other) ? Object.assign({}, course, other) : other;
  }

  /** @typedef {{course: any, show: (expected: any, seed: number) => void}} Box */

  /** Wire one box: Enter in its field and its button check; the verdict goes to its live region.
      Its kept answer for the numbers shown, if any, is put back and judged again.
      @param {HTMLElement} box @returns {Box} */
  function wire(box) {
    var data = box.dataset;
    var exercise = data.exercise || "";
    var course = decode(data.answer || "", "answer|" + exercise);
    var spec = { kind: data.kind || "", expected: course,
                 rel: data.rel === "" || data.rel === undefined ? null : Number(data.rel),
                 abs: Number(data.abs || 0) };
    var seed = 0;                     // the numbers judged against: 0, the course's
    var field = /** @type {HTMLInputElement} */ (box.querySelector("input"));
    var button = box.querySelector("button");
    var out = /** @type {HTMLElement} */ (box.querySelector(".answer-verdict"));
    var numbers = document.createElement("p");
    numbers.className = "answer-numbers";
    numbers.hidden = true;
    out.before(numbers);
    var key = function () { return seed ? exercise + "#" + seed : exercise; };
    /** @param {boolean} [restoring] a kept answer put back: shown, not kept again */
    function check(restoring) {
      var said = verdict(exercise, spec, field.value, data.hint || "");
      out.classList.toggle("answer-right", said.right);
      out.classList.toggle("answer-not-yet", !said.right);
      field.setAttribute("aria-invalid", said.right ? "false" : "true");
      if (restoring === true) {
        out.textContent = said.message;
        return;
      }
      keep(key(), field.value, said.right);
      // emptied first, so that the same verdict twice is announced twice
      out.textContent = "";
      window.setTimeout(function () { out.textContent = said.message; }, 50);
    }
    field.addEventListener("keydown", function (event) {
      if (event.key === "Enter") { event.preventDefault(); check(); }
    });
    if (button) button.addEventListener("click", function () { check(); });
    field.addEventListener("input", function () { field.removeAttribute("aria-invalid"); });
    /** Judge against ``expected``, the answer with numbers ``shown`` (0: the course's).
        @param {any} expected @param {number} shown */
    function show(expected, shown) {
      spec.expected = expected;
      seed = shown;
      numbers.hidden = !seed;
      numbers.textContent = seed ? tr("This box checks your answer with numbers #{seed}, drawn "
        + "for practice (the numbers table at the top of the page shows them).", { seed: seed }) : "";
      out.textContent = "";
      out.classList.remove("answer-right", "answer-not-yet");
      field.removeAttribute("aria-invalid");
      var kept = loadProgress()?.[key()];
      field.value = kept && typeof kept.text === "string" ? kept.text : "";
      if (field.value) check(true);
    }
    show(course, 0);
    return { course: course, show: show };
  }

  /** A number's value as the page's text shows it ("stay" in curly quotes, as Sphinx prints it).
      @param {string} text */
  function valueWords(text) {
    return text.replace(/^"(.*)"$/, "\u201c$1\u201d");
  }

  /** Load the variant kept for ``set``: its seed, 0 for the course's numbers. @param {string} set */
  function keptSeed(set) {
    try {
      var kept = JSON.parse(window.localStorage.getItem(NUMBERS_STORE) || "{}");
      return Number(kept?.[set]) || 0;
    } catch (_err) {
      return 0;
    }
  }

  /** Keep the variant ``seed`` (0: the course's numbers) as the one ``set``'s page shows.
      @param {string} set @param {number} seed */
  function keepSeed(set, seed) {
    try {
      var kept = JSON.parse(window.localStorage.getItem(NUMBERS_STORE) || "{}");
      if (!kept || typeof kept !== "object" || Array.isArray(kept)) kept = {};
      if (seed) kept[set] = seed;
      else delete kept[set];
      window.localStorage.setItem(NUMBERS_STORE, JSON.stringify(kept));
    } catch (_err) { /* storage off or full: the page still changes, nothing is kept */ }
  }

  /** @typedef {{seed: number, numbers: Record<string, string>, answers: Record<string, any>}}
      Variant  a practice variant: its numbers as the page shows them, each box's expected value */

  /** Draw a page's "New numbers" panel and wire it to the page's numbers and boxes.
      @param {HTMLElement} panel @param {Record<string, Box>} boxes */
  function practice(panel, boxes) {
    var set = panel.dataset.set || "";
    /** @type {Variant[]} */
    var variants = decode(panel.dataset.variants || "", "practice|" + set);
    if (!variants.length) return;
    var values = /** @type {HTMLElement[]} */ (Array.from(document.querySelectorAll(".chutes-n[data-n]")));
    /** @type {Record<string, string>} */
    var course = {};
    values.forEach(function (span) {
      var name = span.dataset.n || "";
      if (!(name in course)) course[name] = span.textContent || "";
    });
    var title = document.createElement("p");
    title.className = "chutes-practice-title";
    title.textContent = tr("Practise with other numbers: \u201c{draw}\u201d draws one of {count} "
      + "other sets of numbers for this page. The numbers table, the numbers in the text and "
      + "every answer box change with them; your answers are kept for each set of numbers.",
    { draw: tr("New numbers"), count: variants.length });
    var draw = document.createElement("button");
    draw.type = "button";
    draw.className = "chutes-practice-new";
    draw.textContent = tr("New numbers");
    var back = document.createElement("button");
    back.type = "button";
    back.className = "chutes-practice-course";
    back.textContent = tr("Course's numbers");
    var row = document.createElement("div");
    row.className = "chutes-practice-row";
    row.append(draw, back);
    var status = document.createElement("p");
    status.className = "chutes-practice-status";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    panel.append(title, row, status);
    var shown = 0;

    /** Show numbers ``seed`` (0: the course's) everywhere on the page.
        @param {number} seed @param {boolean} announce */
    function apply(seed, announce) {
      var variant = variants.find(function (v) { return v.seed === seed; });
      shown = variant ? seed : 0;
      values.forEach(function (span) {
        var name = span.dataset.n || "";
        var text = variant ? variant.numbers[name] : undefined;
        span.textContent = text === undefined ? course[name] : valueWords(text);
      });
      document.querySelectorAll(".chutes-practice-note").forEach(function (note) {
        /** @type {HTMLElement} */ (note).hidden = !shown;
      });
      Object.keys(boxes).forEach(function (exercise) {
        var box = boxes[exercise];
        var answer = variant ? variant.answers[exercise] : undefined;
        box.show(answer === undefined ? box.course : withCourse(box.course, answer),
                 answer === undefined ? 0 : shown);
      });
      back.hidden = !shown;
      keepSeed(set, shown);
      var words = shown
        ? tr("This page shows numbers #{seed}, drawn for practice.", { seed: shown })
        : tr("This page shows the course's numbers.");
      if (!announce) {
        status.textContent = words;
        return;
      }
      status.textContent = "";
      window.setTimeout(function () { status.textContent = words; }, 50);
    }
    draw.addEventListener("click", function () {
      var others = variants.filter(function (v) { return v.seed !== shown; });
      apply(others[Math.floor(Math.random() * others.length)].seed, true);
    });
    back.addEventListener("click", function () {
      apply(0, true);
      draw.focus();               // the button pressed is hidden now
    });
    apply(keptSeed(set), false);
  }

  /** @type {any} */
  var api = { parseNumber: parseNumber, parseFormula: parseFormula, evaluate: evaluate,
              uncertainty: uncertainty, hasDecimal: hasDecimal, realValue: realValue,
              numberText: numberText, parseJumps: parseJumps, tally: tally, STORE: STORE,
              parseArray: parseArray, isRight: isRight, verdict: verdict, toNumber: toNumber,
              decode: decode, withCourse: withCourse, NUMBERS_STORE: NUMBERS_STORE, maths: null };
  if (typeof window !== "undefined") {
    /** @type {any} */ (window).ChutesAnswers = api;
    var start = function () {
      /** @type {Record<string, Box>} */
      var boxes = {};
      document.querySelectorAll(".answer-box[data-kind]").forEach(function (box) {
        var element = /** @type {HTMLElement} */ (box);
        boxes[element.dataset.exercise || ""] = wire(element);
      });
      document.querySelectorAll(".chutes-practice[data-variants]").forEach(function (panel) {
        practice(/** @type {HTMLElement} */ (panel), boxes);
      });
      document.querySelectorAll(".chutes-progress[data-sets]").forEach(function (place) {
        showProgress(/** @type {HTMLElement} */ (place));
      });
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }
  if (typeof module !== "undefined" && module.exports) module.exports = api;
})();
