"""New numbers to practise on the exercise pages (issue 50, item 2): book/practice.py, the panel
and boxes of book/static/answers.js.

Without a site (fast):

- the encoding the pages hold their answers in reads back the same in Python and in the page's
  script (Node), for known data and for random data;
- a practice variant is the library's variant of its seed under the practice key (known answer);
  a set's variants are distinct, differ from the course's numbers, take declared values only, and
  each box's answer in each is what the library computes for those numbers, although each check
  ran once per values of the numbers it reads (the memo), not once per variant;
- which code cells compute with the set's numbers (book/build.py's numbers_flow): known answers.

On the site the tests build (tests/conftest.py's ``site``; slow):

- every exercise page holds a panel with variants for every one of its boxes, every number's value
  in the text and the table is one the script can change, a note under each picture that computed
  with the numbers, and no answer (the course's or a variant's) in the page's source as the digits
  a check holds; the variants add less than :data:`PANEL_BUDGET` bytes to a page;
- in Chromium, from disk, from the keyboard: "New numbers" shows its seed and changes the table and
  a number in the text; the drawn variant's answer (computed here by the library) is right and the
  course's is not; a reload keeps the variant and its answer; "Course's numbers" goes back, and the
  course's answer is right again; no answer is in the page's visible text; axe finds nothing.
"""

from __future__ import annotations

import html
import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import answers
import build
import practice
import pytest

from chutes_edu.course import course_lessons
from chutes_edu.variants import declared_numbers, variant

from . import browser
from .conftest import site_missing

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
SCRIPT = BOOK / "static" / "answers.js"

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")
needs_browser = [pytest.mark.browser, pytest.mark.slow,
                 pytest.mark.skipif(site_missing() is not None, reason=str(site_missing()))]
# What the panel's data may add to a page (issue 52 wants each page under 600 KiB transferred).
PANEL_BUDGET = 40_000


def _node_decode(cases: list[tuple[str, str]]) -> list:
    program = f"""
const api = require({json.dumps(str(SCRIPT))});
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map(([text, name]) => api.decode(text, name))));
"""
    assert NODE is not None
    done = subprocess.run([NODE, "-e", program], input=json.dumps(cases), capture_output=True,
                          text=True, timeout=120, check=True)
    return json.loads(done.stdout)


# ------------------------------------------------------------------------------ without a site
def test_an_encoded_answer_hides_its_digits_and_reads_back():
    text = practice.encode(3.39018389, "answer|2.5")
    assert "3.39" not in text and "39018389" not in text
    assert practice.decode(text, "answer|2.5") == 3.39018389
    # another name, another keystream: the same answer in two boxes does not look the same
    assert practice.encode(3.39018389, "answer|2.6") != text
    assert practice.keystream("", 8) == practice.keystream("", 8)


@needs_node
def test_the_page_reads_back_what_the_build_encoded():
    rng = random.Random(50)
    data = [3.39018389, "18/5", "b", [[0.25, 0.75], [1, 0]], ["first", "equal"], "é“stay”",
            {"board": {"size": 100, "jumps": [[1, 38]]}, "from": 5, "band": None}]
    for _ in range(40):
        data.append([rng.random() * 10 ** rng.randint(-8, 8) for _ in range(rng.randint(0, 9))])
    names = ["answer|1.1", "", "practice|12", *(f"answer|{rng.randint(1, 12)}.{k}" for k in
                                               range(len(data) - 3))]
    cases = [(practice.encode(value, name), name) for value, name in zip(data, names,
                                                                          strict=True)]
    assert _node_decode(cases) == data


def test_a_practice_variant_is_the_librarys_variant_of_its_seed():
    assert practice.practice_numbers(3, 1234) == variant("1234", 3, secret=practice.PRACTICE_KEY)
    seeds = [seed for _, seed in zip(range(50), practice.candidate_seeds(3), strict=False)]
    assert len(set(seeds)) == 50 and all(1000 <= s <= 9999 for s in seeds)
    assert seeds == [s for _, s in zip(range(50), practice.candidate_seeds(3), strict=False)]


def test_a_sets_variants_and_their_answers_are_the_librarys():
    """Set 12 (quick to compute): every box's answer in every variant is what the library gives
    for those numbers, though each check ran once per values of the numbers it reads."""
    s = 12
    boxes = {ex: spec for ex in (f"{s}.{k}" for k in range(1, 12))
             if ex in set(_exercises(s)) and (spec := answers.spec_for(ex)) is not None}
    assert boxes
    calls: list[str] = []

    def compute(exercise, numbers):
        calls.append(exercise)
        return answers.spec_with(exercise, numbers)

    drawn = practice.practice_variants(s, boxes, compute)
    declared = declared_numbers(s)
    course = {name: d for name, (d, _) in declared.items()}
    assert len(drawn) == practice.VARIANTS
    assert len(calls) < len(drawn) * len(boxes), "each check ran once per variant: no memo"
    seen = [course]
    for v in drawn:
        numbers = practice.practice_numbers(s, v["seed"])
        assert v["numbers"] == dict(numbers)
        assert all(value in declared[name][1] for name, value in numbers.items())
        assert dict(numbers) not in seen
        seen.append(dict(numbers))
        assert sorted(v["answers"]) == sorted(boxes)
        for ex, course_spec in boxes.items():
            spec = answers.spec_with(ex, numbers)
            want = spec.expected
            if isinstance(want, dict):          # a goal: the fields that differ from the course's
                want = {k: x for k, x in want.items() if course_spec.expected.get(k) != x}
            assert v["answers"][ex] == want, (v["seed"], ex)


def test_the_memo_reruns_a_check_only_for_new_values_of_what_it_reads():
    """A stub check that reads n.a only when n.b is odd: the memo keys on what was read."""
    runs = []

    def check(exercise, n):
        runs.append(exercise)
        return (n.b, n.a) if n.b % 2 else (n.b, None)

    memo = practice._memoised(check)
    from chutes_edu.variants import Numbers
    for a, b, want in [(1, 2, (2, None)), (5, 2, (2, None)), (1, 3, (3, 1)), (5, 3, (3, 5)),
                       (1, 3, (3, 1)), (9, 2, (2, None))]:
        assert memo("x", Numbers(1, {"a": a, "b": b, "c": 0})) == want, (a, b)
    assert len(runs) == 3, runs


def test_which_code_cells_compute_with_the_numbers():
    sources = ["from chutes_edu import *", "n = my_numbers(1, a=(1, [1, 2]))",
               "board = Board({}, size=n.size)", "other = Board({}, size=10)",
               "draw_board(board)", "draw_board(other)", "shifted = board.replace(die=4)",
               "BoardExplorer(shifted)", "# YOUR CODE HERE\nraise NotImplementedError()",
               "%timeit n.size", "%timeit other"]
    assert build.numbers_flow(sources) == [False, False, True, False, True, False, True, True,
                                           False, True, False]


def _exercises(s: int) -> list[str]:
    from chutes_edu.checks import exercise_ids
    return [ex for ex in exercise_ids() if ex.startswith(f"{s}.")]


# ------------------------------------------------------------------------------ on the site
_BOX = re.compile(r'<div class="answer-box"(?P<attrs>[^>]*)>')
_ATTR = re.compile(r'data-(?P<name>[a-z]+)="(?P<value>[^"]*)"')
_PANEL = re.compile(r'<div class="chutes-practice" data-set="(?P<set>\d+)" '
                    r'data-variants="(?P<data>[^"]*)"></div>')
_VALUE = re.compile(r'<span class="chutes-n" data-n="(?P<name>\w+)">(?P<value>[^<]*)</span>')


def _page(site: Path, s: int) -> Path:
    return next(site.glob(f"exercises/{s:02d}_*.html"))


def _boxes(text: str) -> dict[str, dict[str, str]]:
    out = {}
    for match in _BOX.finditer(text):
        attrs = {m["name"]: html.unescape(m["value"]) for m in _ATTR.finditer(match["attrs"])}
        out[attrs["exercise"]] = attrs
    return out


def _floats(value) -> list[float]:
    if isinstance(value, float):
        return [value]
    if isinstance(value, list):
        return [x for item in value for x in _floats(item)]
    if isinstance(value, dict):
        return [x for item in value.values() for x in _floats(item)]
    return []


def _digits(x: float) -> list[str]:
    """How a float answer would be read in a page's source: its repr and its first 8 digits,
    those of 6 significant digits or more (fewer could be any number on the page)."""
    def significant(text: str) -> int:
        return len(re.sub(r"e.*", "", text).replace(".", "").lstrip("0-"))
    return [t for t in dict.fromkeys((repr(x), f"{x:.8g}")) if significant(t) >= 6]


@pytest.mark.slow
def test_every_exercise_page_has_its_variants_and_no_readable_answer(site):
    for lesson in course_lessons(ROOT):
        s = int(lesson.exercises.name[:2])
        text = _page(site, s).read_text(encoding="utf-8")
        boxes = _boxes(text)
        panels = list(_PANEL.finditer(text))
        assert len(panels) == 1 and int(panels[0]["set"]) == s, f"set {s}: one panel"
        assert len(panels[0][0]) < PANEL_BUDGET, (s, len(panels[0][0]))
        drawn = practice.decode(panels[0]["data"], f"practice|{s}")
        assert len(drawn) == practice.VARIANTS, s
        course = {name: d for name, (d, _) in declared_numbers(s).items()}
        values = _VALUE.findall(text)
        assert {name for name, _ in values} <= set(course), s
        for name, shown in values:
            assert html.unescape(shown).replace("“", '"').replace("”", '"') == \
                practice.value_text(course[name]), (s, name)
        hidden = []
        for ex, box in boxes.items():
            assert "expected" not in box, f"{ex}: a plain answer in the page"
            hidden.append(practice.decode(box["answer"], answers.answer_name(ex)))
            for v in drawn:
                assert ex in v["answers"], (s, v["seed"], ex)
                hidden.append(v["answers"][ex])
        readable = [d for value in hidden for x in _floats(value) for d in _digits(x) if d in text]
        assert not readable, f"set {s}: answers readable in the page's source: {readable[:5]}"


@pytest.mark.slow
def test_the_pictures_drawn_with_the_numbers_say_so(site):
    """2.3's tiny board is drawn from the set's numbers: its note is there, hidden until others
    are drawn."""
    two = _page(site, 2).read_text(encoding="utf-8")
    text = two[two.index('<section id="exercise-2-3'):two.index('<section id="exercise-2-4')]
    assert re.search(r"<img alt=\"The 6-square board 'tiny board'.*?"
                     r'<p class="chutes-practice-note" hidden>', text, re.S)


def _typed(spec) -> str:
    """A right answer to ``spec``, as a learner types it."""
    from fractions import Fraction
    e = spec.expected
    if spec.kind == "close":
        return f"{e:.12g}"
    if spec.kind == "exactly":
        f = Fraction(e)
        return f"{f.numerator}/{f.denominator}"
    if spec.kind == "whole_number":
        return str(e)
    raise AssertionError(spec.kind)


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(site_missing() is not None, reason=str(site_missing()))
def test_new_numbers_from_the_keyboard_change_the_page_and_its_boxes(site):
    from playwright.sync_api import expect

    s = 2
    page_file = _page(site, s)
    course = {name: d for name, (d, _) in declared_numbers(s).items()}
    numbers_boxes = [ex for ex in _exercises(s) if (spec := answers.spec_for(ex)) is not None
                     and spec.kind in {"close", "exactly", "whole_number"}]
    with browser.chromium() as chromium:
        errors: list[str] = []
        context, page, offsite = browser.open_from_disk(chromium, page_file, width=1280, height=900,
                                                        errors=errors)
        panel = page.locator(".chutes-practice")
        status = panel.get_by_role("status")
        expect(status).to_have_text("This page shows the course's numbers.")
        back = panel.get_by_role("button", name="Course's numbers")
        expect(back).to_be_hidden()
        draw = panel.get_by_role("button", name="New numbers")
        # a variant whose answer to some box differs from the course's
        for _ in range(20):
            draw.focus()
            page.keyboard.press("Enter")
            expect(status).to_contain_text("#")
            seed = int(re.search(r"numbers #(\d+)", status.inner_text())[1])
            numbers = practice.practice_numbers(s, seed)
            moved = [ex for ex in numbers_boxes
                     if answers.spec_with(ex, numbers).expected != answers.spec_for(ex).expected]
            if moved:
                break
        assert moved, "no drawn variant changes a number box"
        expect(status).to_have_text(f"This page shows numbers #{seed}, drawn for practice.")
        expect(back).to_be_visible()
        # the table and the text follow
        for name, value in numbers.items():
            shown = practice.value_text(value).replace('"', "")
            cells = page.locator(f'.chutes-n[data-n="{name}"]')
            assert cells.count() >= 1, name
            for k in range(cells.count()):
                assert cells.nth(k).inner_text().strip("“”") == shown, (name, k)
        changed = [name for name in course if numbers[name] != course[name]
                   and page.locator(f'p .chutes-n[data-n="{name}"]').count()]
        assert changed, "no number in the text changed"
        assert page.locator(".chutes-practice-note").first.is_visible()
        # the boxes judge against the numbers shown
        ex = moved[0]
        right = _typed(answers.spec_with(ex, numbers))
        was = _typed(answers.spec_for(ex))
        box = page.locator(f'.answer-box[data-exercise="{ex}"]')
        expect(box.locator(".answer-numbers")).to_contain_text(f"numbers #{seed}")
        said = _answer(page, ex, was)
        assert said.startswith(f"✘ {ex} not yet"), said
        said = _answer(page, ex, right)
        assert said == f"✔ {ex} right", said
        # the page's visible text, without the calculator, which shows what an exercise reasons
        # from (2.6: every square's expected turns, among them the largest) and knows no answer
        body = page.evaluate("""() => {
          const copy = document.body.cloneNode(true);
          copy.querySelectorAll('.chutes-calculator-mount').forEach(c => c.remove());
          document.body.append(copy);
          const text = copy.innerText;
          copy.remove();
          return text;
        }""")
        for other in numbers_boxes:
            for value in (answers.spec_with(other, numbers).expected,
                          answers.spec_for(other).expected):
                for digits in _digits(value) if isinstance(value, float) else []:
                    assert digits not in body.replace(right, ""), (other, digits)
        violations = browser.axe_violations(page)
        assert not violations, browser.describe_violations(violations)

        page.reload()
        expect(status).to_have_text(f"This page shows numbers #{seed}, drawn for practice.")
        field = page.get_by_role("textbox", name=f"answer to exercise {ex}", exact=True)
        expect(field).to_have_value(right)
        expect(box.get_by_role("status")).to_have_text(f"✔ {ex} right")

        back.focus()
        page.keyboard.press("Enter")
        expect(status).to_have_text("This page shows the course's numbers.")
        expect(back).to_be_hidden()
        assert page.evaluate("() => document.activeElement.textContent") == "New numbers"
        for name, value in course.items():
            cells = page.locator(f'.chutes-n[data-n="{name}"]')
            for k in range(cells.count()):
                assert cells.nth(k).inner_text().strip("“”") == \
                    practice.value_text(value).replace('"', ""), (name, k)
        expect(field).to_have_value("")       # nothing typed yet with the course's numbers
        expect(box.locator(".answer-numbers")).to_be_hidden()
        assert not page.locator(".chutes-practice-note").first.is_visible()
        said = _answer(page, ex, was)
        assert said == f"✔ {ex} right", said
        said = _answer(page, ex, right)
        assert said.startswith(f"✘ {ex} not yet"), said
        page.close()
    assert not errors and not offsite, (errors, offsite)


def _answer(page, ex: str, text: str) -> str:
    from playwright.sync_api import expect

    field = page.get_by_role("textbox", name=f"answer to exercise {ex}", exact=True)
    field.focus()
    page.keyboard.press("Control+A")
    page.keyboard.press("Backspace")
    page.keyboard.type(text)
    verdict = page.locator(f'.answer-box[data-exercise="{ex}"] .answer-verdict')
    verdict.evaluate("v => { v.textContent = ''; }")
    page.keyboard.press("Enter")
    expect(verdict).to_contain_text(ex)
    return verdict.inner_text()
