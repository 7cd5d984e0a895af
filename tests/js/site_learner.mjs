// A learner with only the website, in Node (tests/test_site_answers_js.py runs it): for each
// exercise whose box needs numbers no explorer shows (book/answers.py's CALCULATED) and each jump
// box, do what the page's text says with the page's board calculator
// (chutes_edu/widgets/js/site/calculator.js), type what it reads into the box's check
// (book/static/answers.js, with the page's board maths) and report the verdict.
//
// stdin: {presets, cases: [{exercise, numbers, spec, jumps?}]}; stdout: [{exercise, typed, verdict}].
// `jumps` (12.7): the pairs to type, found by the library's design search (the design explorer
// finds them in the page); 12.6's jump is found here by trying every square, with the page's maths.
import fs from "node:fs";
import { createRequire } from "node:module";
import { expectedTurns, firstMoverEdge, validate } from "../../chutes_edu/widgets/js/maths/board_math.js";
import { addableJumps, figure, lengthTable } from "../../chutes_edu/widgets/js/site/calculator.js";

const require = createRequire(import.meta.url);
const answers = require("../../book/static/answers.js");
answers.maths = { expectedTurns, firstMoverEdge, validate };

const { presets, cases } = JSON.parse(fs.readFileSync(0, "utf8"));
const B1943 = presets["Milton Bradley 1943"];
const B48 = presets["1943 board, chute 48->26"];
const on = (base, changes) => ({ ...base, bonus_roll: null, ...changes });

/** What the learner types for each exercise, read off the calculator. */
const LEARNER = {
  "1.5": (n) => {      // the first cap k with E[T] - E[min(T, k)] below n.bias
    const rows = lengthTable(on(B1943, { die: n.die }), 0).rows;
    return String(rows.find((r) => r.k > 0 && Number(figure(r.left)) < n.bias).k);
  },
  "2.6": (n) => {      // the largest expected turns among the squares a token rests on
    const board = on(B1943, { die: n.die, overshoot: n.rule });
    const sources = new Set(board.jumps.map((j) => j[0]));
    const t = Array.from(expectedTurns(board));
    return figure(Math.max(...t.filter((_, s) => s < board.size && !sources.has(s))));
  },
  "6.1": (n) => figure(lengthTable(on(B1943, { die: n.house_die, overshoot: "win" }), 0)
    .rows[n.long].over),
  "6.2": (n) => String(lengthTable(on(B48, { die: n.die }), n.start).rows
    .find((r) => Number(figure(r.cdf)) >= 0.95).k),
  "6.6": (n) => {
    const base = n.bounce_board === "1943" ? B1943 : B48;
    const rows = lengthTable(on(base, { die: n.bounce_die, overshoot: "bounce" }), 0).rows;
    return `${figure(rows[301].over)} / ${figure(rows[300].over)}`;
  },
  "6.7": (n) => {
    const tails = [];
    for (let die = 2; die <= 10; die += 1) {
      tails.push(lengthTable(on(B1943, { die, overshoot: n.tail_rule }), 0).rows[n.tail].over);
    }
    return figure(Math.max(...tails));
  },
  "12.1": (n) => {
    const c = addableJumps(B1943, n.min_length);
    return `1 + ${c} + ${c} * (${c} - 1) / 2`;
  },
  "12.5": (n) => `${figure(lengthTable(on(B1943, { die: n.die }), 0).tie)} / 2`,
  "12.6": (n, _jumps, spec) => {
    for (let b = 0; b <= 100; b += 1) {
      const board = { ...B1943, jumps: [...B1943.jumps, [n.foot, b]] };
      if (b !== n.foot && validate(board) === null && firstMoverEdge(board) < spec.expected.value) {
        return `(${n.foot}, ${b})`;
      }
    }
    return "(0, 0)";
  },
  "12.7": (_n, jumps) => JSON.stringify(jumps),
};

const out = cases.map((c) => {
  const typed = LEARNER[c.exercise](c.numbers, c.jumps, c.spec);
  return { exercise: c.exercise, typed, verdict: answers.verdict(c.exercise, c.spec, typed, "H") };
});
process.stdout.write(JSON.stringify(out));
