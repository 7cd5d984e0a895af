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
import sys
from pathlib import Path

import pytest

from chutes_edu.checks import exercise_ids

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
SCRIPT = BOOK / "static" / "answers.js"
if str(BOOK) not in sys.path:
    sys.path.insert(0, str(BOOK))
import answers  # noqa: E402

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

