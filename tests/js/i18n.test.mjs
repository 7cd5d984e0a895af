// The explorers' and the answer boxes' words in the student's language (issue 53): core/i18n.js's
// translator and its patterns, the explorers' sentences in Spanish and English, and the answer
// boxes' words read from the page (book/static/answers.js). Run by tests/test_js_parity.py.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, test } from "node:test";
import es from "../../chutes_edu/widgets/js/core/messages_es.js";
import { said, translator } from "../../chutes_edu/widgets/js/core/i18n.js";
import { filled } from "../../chutes_edu/widgets/js/ui/controls.js";
import { describeConvergence } from "../../chutes_edu/widgets/js/ui/convergence_chart.js";
import { lengthWords } from "../../chutes_edu/widgets/js/explorers/board_explorer/board_explorer.js";
import { raceWords } from "../../chutes_edu/widgets/js/explorers/race_explorer/race_explorer.js";
import { describeRaceBoard } from "../../chutes_edu/widgets/js/explorers/race_explorer/board.js";
import { announcement, describeSquare } from "../../chutes_edu/widgets/js/explorers/board_editor/words.js";
import { skippedWords } from "../../chutes_edu/widgets/js/maths/jump_math.js";

const spanish = translator("es");
const english = translator("en");
const BOARD = { size: 10, die: 6, overshoot: "stay", bonus_roll: null, jumps: [[2, 8], [9, 3]],
  traps: [] };

describe("the translator", () => {
  test("a message with placeholders, in Spanish and in English", () => {
    assert.equal(spanish("square {square}", { square: 27 }), "casilla 27");
    assert.equal(english("square {square}", { square: 27 }), "square 27");
    assert.equal(translator("fr")("square {square}", { square: 27 }), "square 27");
  });

  test("a translation may put the placeholders in its own order", () => {
    const words = spanish("{jump} added", { jump: "X" });
    assert.equal(words, "añadido: X");
    assert.ok(es.messages["{jump} added"].indexOf("{jump}") > 0);
  });

  test("a sentence the maths makes is said back by a said() pattern", () => {
    assert.equal(said("no jumps"), "no jumps");
    const sentence = skippedWords(100, 5);
    assert.equal(spanish(sentence), "Los deslizadores se saltan los saltos que las reglas " +
      "rechazan: ninguno empieza en 0, en 100 ni en un extremo de un salto que ya está, ninguno " +
      "acaba donde empieza otro, ninguno mide menos de 5 casillas.");
    assert.equal(english(sentence), sentence);
  });

  test("a template of t alone is no pattern: it never garbles a sentence it happens to fit", () => {
    assert.ok(Object.hasOwn(es.messages, "{a} to {b}"));
    assert.ok(!es.patterns.includes("{a} to {b}"));
    const sentence = "a heat map added to a board of squares";
    assert.equal(spanish(sentence), sentence);
  });

  test("every pattern is a message with a placeholder", () => {
    assert.ok(es.patterns.length > 0);
    for (const pattern of es.patterns) {
      assert.ok(Object.hasOwn(es.messages, pattern), pattern);
      assert.match(pattern, /\{\w+\}/);
    }
  });

  test("filled() keeps a bold part where the translation puts it", () => {
    const words = spanish("Expected turns from the start: {turns} turns");
    const parts = filled(words, { turns: "<b>" });
    assert.deepEqual(parts, ["Turnos esperados desde la salida: ", "<b>", " turnos"]);
    assert.deepEqual(filled("a {x} b {y}", { x: "X" }), ["a ", "X", " b ", "{y}"]);
  });
});

describe("the explorers' sentences", () => {
  test("English is the library's words, unchanged", () => {
    assert.deepEqual(lengthWords(39.2251, 40), { value: "39.2251",
      announcement: "Expected length 39.2 turns, was 40.0" });
    assert.equal(raceWords([0, 12], [0.6, 0.4]).favourite, "favourite: seat 1");
    assert.equal(describeConvergence({ title: "T", n: 1000, what: "games", unit: "turns",
      last: 2, exact: 2 }), "T: the running mean of 1,000 games (log x-axis, solid line) with its " +
      "95% confidence band ends at 2.000 turns; the dashed line is the exact value 2.0000 turns.");
    assert.equal(announcement({ kind: "add", a: 2, b: 8 }, 3.21, 4),
      "ladder 2 to 8 added: expected length 3.2 turns, was 4.0");
  });

  test("Spanish, the same numbers", () => {
    assert.deepEqual(lengthWords(39.2251, 40, spanish), { value: "39.2251",
      announcement: "Duración esperada 39.2 turnos, antes 40.0" });
    assert.deepEqual(raceWords([0, 12], [0.6, 0.4], spanish).rows,
      ["jugador 1 (casilla 0): 0.6000", "jugador 2 (casilla 12): 0.4000"]);
    assert.equal(announcement({ kind: "add", a: 2, b: 8 }, 3.21, 4, spanish),
      "añadido: escalera 2 a 8: duración esperada 3.2 turnos, antes 4.0");
    assert.equal(describeSquare(BOARD, 8, null, null, "keyboard", spanish),
      "casilla 8, final de la escalera desde 2");
    assert.equal(describeRaceBoard(BOARD, { name: "", tokens: [0, 5] }, spanish),
      "Tablero de Toboganes y escaleras: un tablero de Toboganes y escaleras de 10 casillas con " +
      "1 escalera (flecha azul continua) y 1 tobogán (flecha naranja discontinua); jugador 1 en " +
      "la casilla 0, jugador 2 en la casilla 5.");
  });
});

describe("the answer boxes' words", () => {
  test("read from the page's #chutes-answer-words, English without it", () => {
    const words = { "✔ {exercise} right": "✔ {exercise} correcto",
      "no answer given": "falta la respuesta",
      "✘ {exercise} not yet: {problem}": "✘ {exercise} todavía no: {problem}",
      ". Hint: {hint} ": ". Pista: {hint} " };
    const held = { textContent: JSON.stringify(words) };
    globalThis.document = { readyState: "complete",
      getElementById: (id) => (id === "chutes-answer-words" ? held : null) };
    try {
      const require = createRequire(import.meta.url);
      const api = require("../../book/static/answers.js");
      const spec = { kind: "whole_number", expected: 37, rel: 0, abs: 0 };
      assert.equal(api.verdict("9.9", spec, "37", "H").message, "✔ 9.9 correcto");
      assert.equal(api.verdict("9.9", spec, "", "H").message,
        "✘ 9.9 todavía no: falta la respuesta. Pista: H");
    } finally {
      delete globalThis.document;
    }
  });
});
