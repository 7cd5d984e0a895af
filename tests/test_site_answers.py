"""The exercises answered on the website (issue 28, part 4), on the site built once for the site's
tests (tests/conftest.py: worked solutions and launch links on), opened from disk.

- Every exercise whose check expects a value has its box on its exercise page, holding the
  expected value, tolerance and hint its check has now (chutes_edu.checks.answer_spec): a new value
  exercise without a box fails here. Every other exercise says it is answered in code, with the
  worked solution behind a "show the solution" control and the launch links.
- In Chromium, from the keyboard: a right answer and a wrong one typed into boxes of each kind
  (Enter, and the "check" button) read "right" and "not yet" with the check's hint, announced in
  a polite live region; axe-core finds nothing serious or critical on the page with its verdicts
  shown; the solution opens from the keyboard. What the page adds for a reader with no Python
  (issue 38): arithmetic is read where a number is (39.2251-35.8349, 1/3 + 2), a number read off
  an explorer is right to the digits it shows or told the digits it needs, a decimal is refused
  where an exact fraction is asked for, with a message.
- Each exercise page stands alone (issue 38): it shows its set's numbers (the course's, from
  chutes_edu/numbers) in a table and beside every name in its text, the picture 2.3's text points
  to, no teacher's grading cell, and under every code exercise how to open its notebook.
"""

from __future__ import annotations

import html
import json
import re
from fractions import Fraction
from pathlib import Path

import answers
import practice
import pytest

from chutes_edu.checks import HINT_POINTER, exercise_ids
from chutes_edu.course import course_lessons
from chutes_edu.variants import declared_numbers

from . import browser
from .conftest import site_missing

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(site_missing() is not None, reason=str(site_missing()))]

_BOX = re.compile(r'<div class="answer-box"(?P<attrs>[^>]*)>')
_CODE = re.compile(r'<div class="answer-code" data-exercise="(?P<ex>[\d.]+)">(?P<body>.*?)</div>',
                   re.S)
_ATTR = re.compile(r'data-(?P<name>[a-z]+)="(?P<value>[^"]*)"')


def _pages(site: Path) -> dict[str, str]:
    """Each exercise page's HTML, by lesson number."""
    out = {}
    for lesson in course_lessons(ROOT):
        page = site / lesson.exercises.with_suffix(".html")
        out[str(int(lesson.exercises.name[:2]))] = page.read_text(encoding="utf-8")
    return out


def _boxes(site: Path) -> dict[str, dict[str, str]]:
    boxes = {}
    for text in _pages(site).values():
        for match in _BOX.finditer(text):
            attrs = {m["name"]: html.unescape(m["value"]) for m in _ATTR.finditer(match["attrs"])}
            assert attrs["exercise"] not in boxes, f"two boxes for {attrs['exercise']}"
            boxes[attrs["exercise"]] = attrs
    return boxes


def test_every_value_exercise_has_its_box_with_its_checks_numbers(site):
    boxes = _boxes(site)
    values = {ex: spec for ex in exercise_ids() if (spec := answers.spec_for(ex)) is not None}
    assert sorted(boxes) == sorted(values), "boxes and value exercises differ"
    for ex, spec in values.items():
        box = boxes[ex]
        assert box["kind"] == spec.kind, ex
        assert "expected" not in box, f"{ex}: its answer in plain text"
        assert practice.decode(box["answer"], answers.answer_name(ex)) == spec.expected, ex
        assert (float(box["rel"]) if box["rel"] else None) == spec.rel, ex
        assert float(box["abs"]) == spec.abs_tol, ex
        assert box["hint"] == f"{answers.site_hint(spec)} {HINT_POINTER.format(exercise=ex)}", ex


_HINT = re.compile(r"<details>\s*<summary>Hint for exercise (?P<ex>\d+\.\d+)</summary>"
                   r"(?P<body>.*?)</details>", re.S)
_MATHS_SPAN = re.compile(r'<span class="math[^"]*">.*?</span>|<div class="math[^"]*">.*?</div>',
                         re.S)


def test_no_hint_beside_an_answer_box_speaks_python_on_the_pages(site):
    """The reader of the site has no kernel (issue 38): the box's hint after a "not yet" and the
    hint under each boxed exercise are in words, with no code (its maths left aside)."""
    boxes = _boxes(site)
    for ex, box in boxes.items():
        assert not answers.speaks_python(box["hint"]), (ex, answers.speaks_python(box["hint"]))
    seen = set()
    for text in _pages(site).values():
        for match in _HINT.finditer(text):
            if match["ex"] not in boxes:
                continue                   # a code exercise: its hint speaks the notebook's Python
            words = html.unescape(re.sub(r"<[^>]+>", " ", _MATHS_SPAN.sub(" ", match["body"])))
            assert "<code" not in match["body"], match["ex"]
            assert not answers.speaks_python(words), (match["ex"], answers.speaks_python(words))
            seen.add(match["ex"])
    assert seen == set(boxes)


def test_every_code_exercise_says_so_with_its_solution_and_links(site):
    notes = {}
    for text in _pages(site).values():
        for match in _CODE.finditer(text):
            notes[match["ex"]] = match["body"]
    boxes = _boxes(site)
    assert sorted(set(notes) | set(boxes)) == sorted(exercise_ids(), key=str)
    assert not set(notes) & set(boxes)
    for ex, body in notes.items():
        assert "answered in code" in body, ex
        assert f"show the solution to exercise {ex}" in body, ex
        assert "mybinder.org/v2/gh/example-org/chutes_edu" in body, ex
        assert "git-pull" in body and "github.com/example-org/chutes_edu/blob/main/" in body, ex


def test_every_code_exercise_says_how_to_open_its_notebook(site):
    """A way to a kernel from every code exercise: its notebook's path and how to open it, on
    paper too (the sentence is no link, and prints)."""
    opened = {}
    for lesson in course_lessons(ROOT):
        text = (site / lesson.exercises.with_suffix(".html")).read_text(encoding="utf-8")
        for match in re.finditer(r'<div class="answer-code" data-exercise="(?P<ex>[\d.]+)">'
                                 r'(?P<body>.*?)</div>', text, re.S):
            sentence = re.search(r'<p class="answer-open">(.*?)</p>', match["body"], re.S)
            assert sentence is not None, f"{match['ex']}: no way to open its notebook"
            opened[match["ex"]] = sentence[1]
            assert f"<code>{lesson.exercises.as_posix()}</code>" in sentence[1], match["ex"]
            assert "<code>make lab</code>" in sentence[1], match["ex"]
    assert sorted(opened) == sorted(ex for ex in exercise_ids() if answers.spec_for(ex) is None)
    assert ".answer-open" not in (ROOT / "book" / "static" / "answers.css").read_text(), \
        "the way to the notebook must print"


def _paragraphs(page: Path) -> list[str]:
    """The text of each paragraph and list item of a page's article, outside code cells and
    tables, with Sphinx's curly quotes made straight."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    article = soup.find("article") or soup
    out = []
    for node in article.find_all(["p", "li"]):
        if node.find_parent(class_="cell_input") or node.find_parent("table") or node.find("p"):
            continue
        text = re.sub(r"\s+", " ", node.get_text(" ")).replace("“", '"').replace("”", '"')
        out.append(text.replace("( ", "(").replace(" )", ")"))
    return out


def _shown(value) -> str:
    return json.dumps(value) if isinstance(value, str) else str(value)


def test_every_exercise_page_shows_its_numbers(site):
    """The table of the set's numbers, and each name in the text with its value beside it."""
    named = 0
    for number, text in _pages(site).items():
        numbers = {name: course for name, (course, _) in declared_numbers(int(number)).items()}
        assert numbers, f"set {number} declares no numbers"
        page = next(site.glob(f"exercises/{int(number):02d}_*.html"))
        rows = dict(re.findall(r'<span class="pre">n\.(\w+)</span></code></p></td>\s*'
                               r'<td class="text-right"><p><span class="chutes-n" '
                               r'data-n="\w+">([^<]*)</span></p>', text))
        assert {k: v.replace("“", '"').replace("”", '"') for k, v in rows.items()} == \
            {k: _shown(v) for k, v in numbers.items()}, f"set {number}: the table"
        for paragraph in _paragraphs(page):
            for match in re.finditer(r"\bn\.(\w+)\b", paragraph):
                name = match[1]
                if name not in numbers:
                    continue
                value = re.escape(_shown(numbers[name]))
                assert re.search(rf"\bn\.{name} (\({value}\)|= {value}\b)", paragraph), \
                    f"set {number}: n.{name} without its value in: {paragraph[:300]}"
                named += 1
    assert named > 100, named


def test_the_picture_exercise_2_3_points_to_is_on_its_page(site):
    page = (site / "exercises" / "02_exercises_board_as_equations.html").read_text(encoding="utf-8")
    text = page[page.index('<section id="exercise-2-3'):page.index('<section id="exercise-2-4')]
    assert re.search(r'<img alt="The 6-square board \'tiny board\'[^"]*"', text), \
        "2.3's board is not drawn"


_POINTS = re.compile(r"Points: \d+\W+\(\d+ checked automatically when your work is graded")


def test_no_teachers_grading_cell_is_on_the_site(site):
    """They stay in the notebooks (one per exercise), not on the website or in the PDF printed
    from it; so does each set's points line (tools/make_exercises.py's cell "points")."""
    notebooks = [p.read_text(encoding="utf-8") for p in (ROOT / "exercises").glob("*.ipynb")]
    in_notebooks = sum(text.count("For your teacher's grading") for text in notebooks)
    assert in_notebooks >= len(exercise_ids())
    assert sum(bool(_POINTS.search(text.replace("**", ""))) for text in notebooks) == \
        len(course_lessons(ROOT))
    pages = [*site.glob("exercises/*.html"), *site.glob("solutions/*.html")]
    assert len(pages) == 2 * len(course_lessons(ROOT))
    for page in pages:
        text = html.unescape(page.read_text(encoding="utf-8"))
        assert "For your teacher's grading" not in text, page.name
        assert "teacher's grading" not in text, page.name
        assert not re.search(r'<span class="n">graded</span>', text), page.name
        assert not _POINTS.search(re.sub(r"<[^>]+>", "", text)), page.name


def _right_and_wrong(spec) -> tuple[str, str]:
    """What a student types: a right answer and a wrong one."""
    e = spec.expected
    if spec.kind == "close":
        return f"{e:.12g}", f"{e * 1.01 + 0.01:.6g}"
    if spec.kind == "exactly":
        f = Fraction(e)
        return f"{f.numerator}/{f.denominator}", f"{f.numerator + 1}/{f.denominator}"
    if spec.kind == "whole_number":
        return str(e), str(e + 1)
    if spec.kind == "one_of":
        return f"({e})", "a" if e != "a" else "b"
    if spec.kind == "same_words":
        return ", ".join(e), ", ".join(e[::-1]) if e != e[::-1] else ", ".join([*e, e[0]])
    if spec.kind == "same_whole_numbers":
        return f"[{', '.join(map(str, e[::-1]))}]", ", ".join(map(str, e[:-1]))
    if spec.kind == "same_array":
        return f"({', '.join(f'{x:g}' for x in e)})", ", ".join(f"{x + 1:g}" for x in e)
    raise AssertionError(spec.kind)


# exercises of each kind: close (relative, absolute), exactly (small, huge), whole, letter, formula,
# words (5.6), a pair (9.3), a set of whole numbers (11.5)
TYPED = {"1.1": None, "1.7": None, "1.5": None, "1.6": None, "1.2": ("(1 + p)/p^2", "1/p")}
# What a reader with only the page types (issue 38): the typed text, and how the verdict starts
# and what it says. 2.5's answer is 3.39018389..., checked to a relative error of 1e-6; 1.1's is
# 18/5, an exact fraction.
READER = [("2.5", "39.2251-35.8349", "✔ 2.5 right", "to the digits you gave"),
          ("2.5", "3.3902", "✔ 2.5 right", "to the digits you gave"),
          ("2.5", "3.39", "✘ 2.5 not yet", "at least 4 decimals"),
          ("2.5", "3.3904", "✘ 2.5 not yet", "Hint:"),
          ("2.1", "43.32459744 + 0", "✔ 2.1 right", "right"),
          ("1.1", "3.6", "✘ 1.1 not yet", "a decimal number is not exact"),
          ("1.1", "3 + 3/5", "✔ 1.1 right", "right")]


def _answer(page, ex: str, text: str, *, button: bool = False) -> str:
    from playwright.sync_api import expect

    field = page.get_by_role("textbox", name=f"answer to exercise {ex}", exact=True)
    field.focus()
    page.keyboard.press("Control+A")
    page.keyboard.press("Backspace")
    page.keyboard.type(text)
    verdict = page.locator(f'.answer-box[data-exercise="{ex}"] [role="status"]')
    if button:
        page.keyboard.press("Tab")            # the "check" button, next in the Tab order
        assert page.evaluate("() => document.activeElement.textContent") == "check"
        page.keyboard.press("Enter")
    else:
        page.keyboard.press("Enter")
    expect(verdict).to_contain_text(ex)
    assert verdict.get_attribute("aria-live") == "polite"
    return verdict.inner_text()


def test_answers_typed_from_the_keyboard_read_right_and_not_yet(site):
    checked = []
    with browser.chromium() as chromium:
        errors: list[str] = []
        context, page, offsite = browser.open_from_disk(
            chromium, site / "exercises" / "02_exercises_board_as_equations.html",
            width=1280, height=900, errors=errors)
        for ex, text, start, words in READER:
            if ex.startswith("2."):
                said = _answer(page, ex, text)
                assert said.startswith(start) and words in said, (ex, text, said)
                checked.append(ex)
        for name, chosen in (("01_exercises_waiting_for_heads", TYPED),
                             ("07_exercises_simulation", {"7.7": None}),
                             ("05_exercises_exact_answers", {"5.1": None, "5.6": None}),
                             ("09_exercises_experiments", {"9.3": None}),
                             ("11_exercises_long_run", {"11.5": None})):
            page.goto((site / "exercises" / f"{name}.html").as_uri())
            for k, (ex, typed) in enumerate(chosen.items()):
                spec = answers.spec_for(ex)
                right, wrong = typed or _right_and_wrong(spec)
                said = _answer(page, ex, right, button=k % 2 == 1)
                assert said == f"✔ {ex} right", (ex, right, said)
                said = _answer(page, ex, wrong)
                assert said.startswith(f"✘ {ex} not yet"), (ex, wrong, said)
                assert said.endswith(f"Hint: {answers.site_hint(spec)} {HINT_POINTER.format(exercise=ex)}")
                checked.append(ex)
            if name.startswith("01"):
                said = _answer(page, "1.5", "206.5")
                assert "fractional part" in said, said
                for ex, text, start, words in READER:
                    if ex.startswith("1."):
                        said = _answer(page, ex, text)
                        assert said.startswith(start) and words in said, (ex, text, said)
                        checked.append(ex)
                violations = browser.axe_violations(page)
                assert not violations, browser.describe_violations(violations)
                # the worked solution of a code exercise opens from the keyboard
                summary = page.get_by_text("show the solution to exercise 1.3", exact=True)
                summary.focus()
                page.keyboard.press("Enter")
                assert page.locator("#solution-1-3").is_visible()
                assert "def my_waits" in page.locator("#solution-1-3").inner_text()
        page.close()
    assert not errors and not offsite, (errors, offsite)
    assert len(checked) == 10 + len(READER)


# ----------------------------------------------------------------------------- issue 50
# what the page keeps (answers.js's STORE), and whether answers.js ran
_KEPT = """() => ({stored: JSON.parse(localStorage.getItem("chutes-edu-answers-v1") || "{}"),
                   readyState: document.readyState, answers: typeof window.ChutesAnswers,
                   store: window.ChutesAnswers && window.ChutesAnswers.STORE})"""


def test_the_calculator_gives_what_a_box_needs_and_progress_survives_a_reload(site):
    """In Chromium, from disk, from the keyboard: exercise 6.1's calculator set to the house rule
    (its controls named, its tables in named regions), its P(T > n.long) typed into the box is
    right; after a reload the box shows that answer and its verdict again; the start page counts
    it; its button forgets it, and the box is empty after another reload. axe finds nothing on
    the page with the calculator open."""
    from playwright.sync_api import expect

    numbers = {name: course for name, (course, _) in declared_numbers(6).items()}
    page_file = site / "exercises" / "06_exercises_game_length.html"
    with browser.chromium() as chromium:
        errors: list[str] = []
        context, page, offsite = browser.open_from_disk(chromium, page_file, width=1280, height=900,
                                                        errors=errors)
        calc = page.locator('.chutes-calculator-mount[data-exercise="6.1"]')
        calc.get_by_role("combobox", name="rule past the last square").select_option("win")
        die = calc.get_by_role("spinbutton", name="die faces")
        die.fill(str(numbers["house_die"]))
        calc.get_by_role("button", name="compute").press("Enter")
        expect(calc.get_by_role("status").first).to_have_text("Computed.")
        table = calc.get_by_role("region", name="the distribution of the game's length")
        row = table.locator("tbody tr").nth(numbers["long"])
        assert row.locator("th").inner_text() == str(numbers["long"])
        over = row.locator("td").nth(2).inner_text()          # P(T > k)
        said = _answer(page, "6.1", over)
        assert said == "✔ 6.1 right", said
        violations = browser.axe_violations(page)
        assert not violations, browser.describe_violations(violations)

        # the page kept it (the store answers.js names), before the reload
        kept = page.evaluate(_KEPT)
        assert kept["store"] == "chutes-edu-answers-v1", kept
        assert kept["stored"].get("6.1") == {"text": over, "right": True}, kept
        page.reload()
        field = page.get_by_role("textbox", name="answer to exercise 6.1", exact=True)
        try:
            expect(field).to_have_value(over)
        except AssertionError as failed:  # say what the reloaded page had (CI saw this once)
            raise AssertionError(f"{failed}\nafter the reload: {page.evaluate(_KEPT)}; "
                                 f"page errors: {errors}") from None
        expect(page.locator('.answer-box[data-exercise="6.1"] [role="status"]')).to_have_text(
            "✔ 6.1 right")

        page.goto((site / "index.html").as_uri())
        progress = page.locator(".chutes-progress")
        boxes = sum(1 for ex in exercise_ids() if ex.startswith("6.") and answers.spec_for(ex))
        expect(progress.get_by_role("listitem").nth(5)).to_contain_text(
            f"1 of {boxes} answer boxes right")
        progress.get_by_role("button", name="forget my answers").press("Enter")
        expect(progress.get_by_role("status")).to_have_text("Your answers are forgotten.")
        expect(progress.get_by_role("listitem").nth(5)).to_contain_text(
            f"0 of {boxes} answer boxes right")
        page.goto(page_file.as_uri())
        expect(page.get_by_role("textbox", name="answer to exercise 6.1", exact=True)).to_have_value(
            "")
        page.close()
    assert not errors and not offsite, (errors, offsite)


def test_no_page_links_readme_as_a_web_address(site):
    """"README.md says how to get it" was a link to http://README.md on every exercise page."""
    for page in site.rglob("*.html"):
        assert "http://README.md" not in page.read_text(encoding="utf-8"), page
