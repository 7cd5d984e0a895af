"""The answer boxes' examples and checking rules (book/answers.py, book/static/answers.js), in Node,
without building the site.

- Every example a box shows ("such as ...") is typed into every exercise's box: none is right
  (issue 38: the formula box's example was exercise 1.2's answer). The old example is typed too,
  to show that the test sees an example that is an answer.
- Each box's form text shows the examples of its kind.
- tests/js/answers.test.mjs (Node's runner; tests/test_js_parity.py runs it with every suite):
  arithmetic where a number is wanted, a number read off an explorer judged at the precision
  typed (or told the digits it needs), an exact fraction refusing a decimal with a message.
"""

from __future__ import annotations

import html
import json
import shutil
import subprocess
from pathlib import Path

import answers
import pytest

from chutes_edu.checks import exercise_ids

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
SCRIPT = BOOK / "static" / "answers.js"

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _verdicts(cases: list[dict]) -> list[dict]:
    """answers.js's verdict on each {exercise, spec, text}."""
    program = f"""
const api = require({json.dumps(str(SCRIPT))});
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map(c => api.verdict(c.exercise, c.spec, c.text, "H"))));
"""
    assert NODE is not None
    done = subprocess.run([NODE, "-e", program], input=json.dumps(cases), capture_output=True,
                          text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def _specs() -> dict[str, dict]:
    out = {}
    for ex in exercise_ids():
        spec = answers.spec_for(ex)
        if spec is not None:
            out[ex] = {"kind": spec.kind, "expected": spec.expected, "rel": spec.rel,
                       "abs": spec.abs_tol}
    return out


def _typed_everywhere(examples: list[str]) -> list[tuple[str, str, dict]]:
    specs = _specs()
    cases = [{"exercise": ex, "spec": spec, "text": text}
             for text in examples for ex, spec in specs.items()]
    return [(c["exercise"], c["text"], said) for c, said in zip(cases, _verdicts(cases),
                                                                 strict=True)]


def test_no_example_a_box_shows_is_the_answer_to_any_exercise():
    examples = [text for kind in answers.EXAMPLES.values() for text in kind]
    assert len(examples) >= 10
    said = _typed_everywhere(examples)
    assert len(said) == len(examples) * len(_specs())
    right = [(ex, text) for ex, text, verdict in said if verdict["right"]]
    assert not right, f"examples that are answers: {right}"


def test_the_test_sees_an_example_that_is_an_answer():
    """The formula box's old example, "(1 + p)/p^2", is exercise 1.2's answer (issue 38)."""
    said = _typed_everywhere(["(1 + p)/p^2"])
    assert [ex for ex, _, verdict in said if verdict["right"]] == ["1.2"]


def test_each_box_shows_the_examples_of_its_kind():
    seen = set()
    for ex in exercise_ids():
        spec = answers.spec_for(ex)
        if spec is None:
            continue
        box = html.unescape(answers.answer_box(spec))
        for example in answers.EXAMPLES[spec.kind]:
            assert example in box, (ex, example)
        seen.add(spec.kind)
        assert "(1 + p)/p^2" not in box, ex
    assert seen == set(answers.EXAMPLES), "an example list for no box, or a box without one"


def test_a_code_exercise_names_its_notebook_and_how_to_open_it():
    note = answers.code_answer("2.4", notebook="exercises/02_exercises_board_as_equations.ipynb")
    assert "<code>exercises/02_exercises_board_as_equations.ipynb</code>" in note
    assert "<code>make lab</code>" in note and "Binder" in note and "JupyterHub" in note
    assert "<a " not in note               # no address given: no link, only how to open it



# ----------------------------------------------------------------------------- issue 50
LEARNER = ROOT / "tests" / "js" / "site_learner.mjs"
# Students whose own numbers the learner's procedure is tried on too, beside the course's: the
# page's calculator knows no numbers, so it must serve any variant (a fixed secret, not the
# machine's).
_STUDENTS = ("ada", "grace", "alan")
_SECRET = "issue 50"


def _box_spec(spec) -> dict:
    return {"kind": spec.kind, "expected": spec.expected, "rel": spec.rel, "abs": spec.abs_tol}


def _learner_cases(numbers_of) -> list[dict]:
    from chutes_edu import TargetLength, design_board
    from chutes_edu.checks import answer_spec
    from chutes_edu.checks.lesson12 import HOUSE_RULES

    cases = []
    for ex in sorted(set(answers.CALCULATED) | set(answers.JUMP_GOALS)):
        numbers = numbers_of(int(ex.split(".")[0]))
        if ex in answers.JUMP_GOALS:
            spec = answers.jump_goal(ex, numbers)
        else:
            spec = answers._site_floats(answer_spec(ex, numbers))
        case = {"exercise": ex, "numbers": dict(numbers), "spec": _box_spec(spec)}
        if ex == "12.7":        # what the design explorer finds in the page
            found = design_board(HOUSE_RULES, TargetLength(numbers.target), max_jumps=2,
                                 method="greedy")
            case["jumps"] = [list(j) for j in found.added]
        cases.append(case)
    return cases


def _learn(cases: list[dict]) -> list[dict]:
    from chutes_edu.widgets.board_editor import presets_json

    assert NODE is not None
    done = subprocess.run([NODE, str(LEARNER)], input=json.dumps(
        {"presets": presets_json(), "cases": cases}), capture_output=True, text=True,
        timeout=600, check=True, cwd=ROOT)
    return json.loads(done.stdout)


def test_the_boxes_that_need_a_calculator_are_every_box_no_explorer_answers():
    """Issue 50's eight boxes (1.5, 2.6, 6.1, 6.2, 6.6, 6.7, 12.1, 12.5) have the calculator, and
    12.6 and 12.7 a box that judges jumps."""
    assert set(answers.CALCULATED) == {"1.5", "2.6", "6.1", "6.2", "6.6", "6.7", "12.1", "12.5"}
    for ex in answers.CALCULATED:
        assert answers.spec_for(ex) is not None, ex
    assert {ex: answers.spec_for(ex).kind for ex in ("12.6", "12.7")} == {
        "12.6": "jumps", "12.7": "jumps"}


@pytest.mark.parametrize("student", [None, *_STUDENTS])
def test_every_box_is_answered_from_the_page_alone(student):
    """A learner with only the page does what each exercise says with the board calculator (or,
    for jumps, the page's maths), types what it shows into the box, and is told "right", with the
    course's numbers and with students' own."""
    from chutes_edu.variants import variant

    cases = _learner_cases(lambda s: variant(student, s, secret=_SECRET))
    said = _learn(cases)
    wrong = [(s["exercise"], s["typed"], s["verdict"]["message"]) for s in said
             if not s["verdict"]["right"]]
    assert not wrong, wrong
    assert len(said) == len(answers.CALCULATED) + len(answers.JUMP_GOALS)


def test_the_learner_test_sees_a_wrong_reading():
    """The same procedure with another board's numbers (a die one face larger) is refused: the
    test would see a calculator that shows the wrong thing."""
    from chutes_edu.variants import variant

    def shifted(s):
        n = variant(None, s)
        changed = {k: (v + 1 if k in {"die", "house_die", "bounce_die"} else v)
                   for k, v in dict(n).items()}
        return type(n)(s, changed)

    read_wrong = {c["exercise"]: c["numbers"] for c in _learner_cases(shifted)}
    cases = [dict(c, numbers=read_wrong[c["exercise"]])
             for c in _learner_cases(lambda s: variant(None, s))
             if c["exercise"] in {"2.6", "6.1", "6.6", "12.5"}]
    said = _learn(cases)
    assert said and not any(s["verdict"]["right"] for s in said), said


def test_the_jump_boxes_say_right_exactly_when_the_checks_do():
    """12.6: every jump from n.foot typed into the page's box; 12.7: the design search's pair and
    a hundred random pairs. The page's verdict (its board maths) is the check's (the library's,
    exact for 12.7), or says the board is too close to the limit for the page to decide."""
    import random

    from chutes_edu import TargetLength, design_board
    from chutes_edu.checks import check
    from chutes_edu.checks.lesson12 import HOUSE_RULES
    from chutes_edu.variants import variant

    n = variant(None, 12)
    typed: list[tuple[str, object]] = [("12.6", (n.foot, b)) for b in range(101) if b != n.foot]
    rng = random.Random(50)
    pairs = [list(design_board(HOUSE_RULES, TargetLength(n.target), max_jumps=2,
                               method="greedy").added)]
    pairs += [[(rng.randrange(2, 99), rng.randrange(0, 101)) for _ in range(rng.choice((1, 2)))]
              for _ in range(100)]
    typed += [("12.7", p) for p in pairs]
    cases = [{"exercise": ex, "spec": _box_spec(answers.spec_for(ex)), "text": str(value)}
             for ex, value in typed]
    program = f"""
import fs from "node:fs";
import {{ createRequire }} from "node:module";
import {{ expectedTurns, firstMoverEdge, validate }} from
  {json.dumps(str(ROOT / "chutes_edu/widgets/js/maths/board_math.js"))};
const api = createRequire(import.meta.url)({json.dumps(str(SCRIPT))});
api.maths = {{ expectedTurns, firstMoverEdge, validate }};
const cases = JSON.parse(fs.readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map(c => api.verdict(c.exercise, c.spec, c.text, "H"))));
"""
    assert NODE is not None
    done = subprocess.run([NODE, "--input-type=module", "-e", program], input=json.dumps(cases),
                          capture_output=True, text=True, timeout=600, check=True)
    said = json.loads(done.stdout)
    disagree = []
    for (ex, value), verdict in zip(typed, said, strict=True):
        if "too close to the limit" in verdict["message"]:
            continue
        if verdict["right"] != bool(check(ex, value)):
            disagree.append((ex, value, verdict["message"]))
    assert not disagree, disagree[:5]
    assert sum(v["right"] for v in said) >= 2           # the test sees right answers too
    assert sum(not v["right"] for v in said) >= 50
