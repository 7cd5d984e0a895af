"""The answer boxes' specs (chutes_edu.checks.answer_spec, book/answers.py) and their checker in
the page (book/static/answers.js, run in Node) against the notebook checks themselves.

- Every value exercise's spec, fed back to its check as a student's answer, is right, and a value
  just outside its tolerance (or another letter, another whole number) is not: the spec is what
  the check expects.
- The page's verdict on typed text agrees with ``check()`` on the value the text stands for, at
  and around each tolerance's edge, for every value exercise.
- The page's formula reader evaluates random formulas in one symbol exactly as sympy does.
- The code exercises' note promises nothing the build does not have.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import answers
import nbformat
import pytest
import sympy

from chutes_edu import checks
from chutes_edu.checks import answer_spec, check, close, exercise_ids, is_function_exercise

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
SCRIPT = BOOK / "static" / "answers.js"

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


@pytest.fixture(scope="module")
def specs():
    return {ex: answers.spec_for(ex) for ex in exercise_ids()}


def _node(cases: list[dict]) -> list[dict]:
    """Run answers.js in Node on ``cases`` ({spec, text} or {formula, at}); its results."""
    program = f"""
const api = require({json.dumps(str(SCRIPT))});
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = cases.map(c => {{
  if (c.formula !== undefined) {{
    try {{
      const f = api.parseFormula(c.formula);
      return c.at.map(x => {{
        try {{ const v = api.evaluate(f.tree, api.parseNumber(x)); return v.n + "/" + v.d; }}
        catch (e) {{ return "undefined"; }}
      }});
    }} catch (e) {{ return "unreadable: " + e.message; }}
  }}
  return api.verdict(c.exercise, c.spec, c.text, "HINT");
}});
process.stdout.write(JSON.stringify(out));
"""
    done = subprocess.run(["node", "-e", program], input=json.dumps(cases), capture_output=True,
                          text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def _page_spec(spec) -> dict:
    return {"kind": spec.kind, "expected": spec.expected, "rel": spec.rel, "abs": spec.abs_tol}


# ------------------------------------------------------------------------------ specs
def test_value_and_code_exercises_are_told_apart_by_the_checks(specs):
    values = [ex for ex, spec in specs.items() if spec is not None]
    assert len(values) >= 55, values
    assert all(specs[ex] is None for ex in exercise_ids() if is_function_exercise(ex))
    kinds = {spec.kind for spec in specs.values() if spec is not None}
    assert {"close", "exactly", "whole_number", "one_of", "same_expression", "same_array",
            "same_whole_numbers", "same_words"} <= kinds
    # a matrix of fractions (4.4): a check that computes with the answer. Jumps to add to a board
    # (12.6, 12.7) are computed with too, but the page has the maths: a box of their own (issue
    # 50; tests/test_site_answers_js.py holds the page's verdicts to the checks')
    assert specs["4.4"] is None
    assert {specs["12.6"].kind, specs["12.7"].kind} == {"jumps"}


def test_each_spec_is_what_its_check_expects(specs):
    for ex, spec in specs.items():
        if spec is None or spec.kind in {"same_expression", "jumps"}:
            continue
        e = spec.expected
        if spec.kind == "close":
            right, wrong = e, e + 3 * max(spec.rel * abs(e), spec.abs_tol) + 1e-300
        elif spec.kind == "exactly":
            right, wrong = Fraction(e), Fraction(e) + Fraction(1, 10**9)
        elif spec.kind == "whole_number":
            right, wrong = e, e + 1
        elif spec.kind == "one_of":
            right, wrong = e, "a" if e != "a" else "b"
        elif spec.kind == "same_whole_numbers":
            right, wrong = e[::-1], [*e, max(e) + 1]
        elif spec.kind == "same_words":
            right, wrong = [w.upper() for w in e], e[::-1] if e != e[::-1] else [*e, e[0]]
        else:
            right, wrong = e, [[x + 1 for x in row] if isinstance(row, list) else row + 1
                               for row in e]
        assert check(ex, right), f"{ex}: the spec's value is not right for its check"
        assert not check(ex, wrong), f"{ex}: a value outside the spec is right for its check"
        assert spec.hint and spec.hint in check(ex, wrong).message


def test_a_verifier_that_uses_two_helpers_or_the_answer_has_no_spec(monkeypatch):
    def two(answer):
        return close(1.0)(answer) and close(2.0)(answer)

    def reads(answer):
        return close(float(answer[0]))(answer[1])

    def one(answer, n):
        return close(2.5, rel=1e-3)(answer)

    for name, verify in (("98.1", two), ("98.2", reads), ("98.3", one)):
        monkeypatch.setitem(checks._REGISTRY, name,
                            checks._Exercise(name, "a hint", verify, False, name == "98.3"))
    assert answer_spec("98.1") is None and answer_spec("98.2") is None
    spec = answer_spec("98.3")
    assert (spec.kind, spec.expected, spec.rel, spec.hint) == ("close", 2.5, 1e-3, "a hint")
    assert check("98.3", 2.5)       # probing left the helpers verifying as before


# ------------------------------------------------------------------------------ the page
def _typed(spec) -> list[tuple[str, object]]:
    """(typed text, the Python value it stands for) around the spec's edge."""
    e = spec.expected
    if spec.kind == "close":
        width = max(spec.rel * abs(e), spec.abs_tol)
        out = [(repr(e), e)]
        for k in (-1.5, -0.5, 0.5, 1.5):
            x = e + k * width
            out.append((repr(x), x))
        f = Fraction(e).limit_denominator(1000)
        out += [(f"{f.numerator}/{f.denominator}", f), ("", None)]
        return out
    if spec.kind == "exactly":
        f = Fraction(e)
        return [(f"{f.numerator}/{f.denominator}", f), (f"{f.numerator + 1}/{f.denominator}",
                                                         Fraction(f.numerator + 1, f.denominator)),
                # a decimal typed stands for a float, which the check refuses (as the page does)
                (f"{float(f):.3f}", float(f"{float(f):.3f}")),
                (f"Fraction({f.numerator}, {f.denominator})", f)]
    if spec.kind == "whole_number":
        return [(str(e), e), (str(e + 1), e + 1), (f"{e}.0", float(e)), (f"{e}.5", e + 0.5),
                (f"{e:,}", e), (f"{e:_}", e), (f"{e + 1000:,}", e + 1000)]
    if spec.kind == "one_of":
        other = "a" if e != "a" else "b"
        return [(e, e), (f"({e.upper()})", f"({e.upper()})"), (other, other), ("x y", "x y")]
    if spec.kind == "same_array":          # a pair of squares
        whole = [int(x) for x in e]
        return [(", ".join(map(str, whole)), whole), (f"({whole[0]}, {whole[1]})", whole),
                (", ".join(map(str, whole[::-1])), whole[::-1]),
                (", ".join(map(str, [*whole, 1])), [*whole, 1])]
    if spec.kind == "same_whole_numbers":
        return [(", ".join(map(str, e[::-1])), e[::-1]), (f"[{', '.join(map(str, e))}]", e),
                (", ".join(map(str, e[:-1])), e[:-1]), ("1, 4.5", [1, 4.5]), ("[]", [])]
    if spec.kind == "same_words":
        return [(", ".join(e), e), (f'["{e[0].upper()}", ' + ", ".join(f'"{w}"' for w in e[1:])
                                    + "]", [e[0].upper(), *e[1:]]),
                (" ".join(e[::-1]), e[::-1]), (", ".join(e[:-1]), e[:-1])]
    return []


@needs_node
def test_the_page_says_right_exactly_when_the_check_does(specs):
    cases, truth = [], []
    for ex, spec in specs.items():
        if spec is None or spec.kind == "jumps":     # judged with the board maths: elsewhere
            continue
        for text, value in _typed(spec):
            cases.append({"exercise": ex, "spec": _page_spec(spec), "text": text})
            truth.append((ex, text, bool(check(ex, value))))
    assert len(cases) > 200
    said = _node(cases)
    wrong = [(ex, text, want, got["message"]) for (ex, text, want), got in zip(truth, said, strict=True)
             if got["right"] != want]
    assert not wrong, wrong[:5]
    messages = [got["message"] for got in said]
    assert all(m.endswith("Hint: HINT") for m, got in zip(messages, said, strict=True) if not got["right"])
    assert any("no answer given" in m for m in messages)
    assert any("fractional part" in m for m in messages)


def _random_formula(rng: random.Random, depth: int = 0) -> str:
    if depth > 3 or rng.random() < 0.3:
        return rng.choice(["p", "p", "2", "1/3", "0.5", "7"])
    a, b = _random_formula(rng, depth + 1), _random_formula(rng, depth + 1)
    op = rng.choice(["+", "-", "*", "/", "^", "**", " "])
    if op in ("^", "**"):
        return f"({a}){op}{rng.choice(['2', '3', '-1', '(-2)'])}"
    if op == " ":
        return f"({a})({b})"            # an implicit product
    return f"({a}) {op} ({b})"


@needs_node
def test_the_formula_reader_agrees_with_sympy():
    rng = random.Random(28)
    # not 0: sympy cancels p/p to 1 before any value is put in, the page divides by zero there
    # (the checks' values of a formula's symbol avoid such points too)
    points = ["1/2", "1/3", "3/4", "-5/7", "7"]
    formulas = [_random_formula(rng) for _ in range(300)] + ["2p(1-p)", "-p^2", "2^3^2",
                                                             "sp.Rational(1, 3)*p"]
    said = _node([{"formula": f, "at": points} for f in formulas])
    p = sympy.Symbol("p")
    undefined = 0
    for formula, got in zip(formulas, said, strict=True):
        text = formula.replace("^", "**").replace(")(", ")*(").replace("2p", "2*p").replace("p(", "p*(")
        # rational=True: the page reads a typed decimal exactly, as a fraction
        expr = sympy.sympify(text.replace("sp.", ""), locals={"p": p}, rational=True)
        want = []
        for x in points:
            value = expr.subs(p, sympy.Rational(x))
            want.append("undefined" if not value.is_finite else
                        f"{sympy.fraction(value)[0]}/{sympy.fraction(value)[1]}")
        # Where the page divides by zero (the formula is undefined there) sympy may still give a
        # number: its zoo (complex infinity) arithmetic, e.g. 1 / (1 / 0) = 0. Elsewhere: equal.
        undefined += got.count("undefined")
        assert all(g in (w, "undefined") for g, w in zip(got, want, strict=True)), (formula, got, want)
    assert undefined < 0.05 * len(formulas) * len(points)


# ------------------------------------------------------------------------------ the code note
def test_a_code_exercise_promises_only_what_the_build_has():
    bare = answers.code_answer("1.3")
    assert "answered in code" in bare and "<a " not in bare and "<details" not in bare
    full = answers.code_answer("1.3", solution="def f():\n\n    return 1",
                               links=[("live on Binder", "https://b.example/x")])
    assert 'href="https://b.example/x"' in full and "show the solution to exercise 1.3" in full
    assert "\n" not in full          # one line: the Markdown's HTML block would end at a blank line


def test_staged_set_without_solutions_or_addresses(tmp_path):
    source = ROOT / "exercises" / "01_exercises_waiting_for_heads.ipynb"
    staged = tmp_path / source.name
    shutil.copy(source, staged)
    boxed = answers.add_answers(staged)
    text = "\n".join(c.source for c in nbformat.read(staged, as_version=4).cells)
    want = [ex for ex in exercise_ids() if ex.startswith("1.") and answers.spec_for(ex)]
    assert boxed == want
    assert text.count('class="answer-box"') == len(want)
    assert text.count('class="answer-code"') == sum(1 for ex in exercise_ids()
                                                   if ex.startswith("1.") and ex not in want)
    assert "<a " not in text and "show the solution" not in text


def test_a_copy_without_answer_checks_gets_no_boxes(tmp_path, monkeypatch):
    """The student copy has no checks: no box, and no note that would call a value answer code."""
    source = ROOT / "exercises" / "02_exercises_board_as_equations.ipynb"
    staged = tmp_path / source.name
    shutil.copy(source, staged)
    monkeypatch.setattr(answers, "has_answer_checks", lambda exercise: False)
    assert answers.add_answers(staged) == []
    text = "\n".join(c.source for c in nbformat.read(staged, as_version=4).cells)
    assert "answer-box" not in text and "answer-code" not in text


# ------------------------------------------------------------ the site's numbers, on every machine
# A float a check computes with numpy is off in its last digits by what the machine's BLAS kernel
# does (2.6 read ...097 on one build and ...096 on another). The site keeps a value's digits to its
# tolerance plus two (book/answers.py, site_digits): rounded once from the exact value where the
# check computes one, else rounded from a float that must sit far enough from a boundary of that
# rounding that its last digits cannot move it. Measured: between this machine's kernel, Haswell
# and Prescott, the floats the checks compute differ by about 1e-13 relative at most (7.3).
ROUNDING_MARGIN = 1e-12          # relative: 10 times the largest difference between kernels
# The exercises whose value the check computes exactly (checks/lesson02, 04, 07): their number on
# the site is the exact value rounded once.
EXACT_FLOATS = {"2.1", "2.5", "2.6", "4.6"}


def _site_floats(ex: str):
    """(value the check computes, what the site holds, exact "p/q" or "") of each float of ``ex``."""
    from chutes_edu.variants import variant
    raw = answer_spec(ex, variant(None, int(ex.split(".")[0])))
    site = answers.spec_for(ex)
    if raw is None or raw.kind not in {"close", "same_array", "same_expression"}:
        return []
    if not (raw.rel or raw.abs_tol):
        return []                       # an exact comparison (whole entries): nothing rounded
    if raw.kind == "close":
        return [(raw.expected, site.expected, raw.exact, raw)]

    def flat(x):
        return [v for row in x for v in (flat(row) if isinstance(row, list) else [row])
                if isinstance(v, float)] if isinstance(x, list) else [x]
    return [(r, s, "", raw) for r, s in zip(flat(raw.expected), flat(site.expected), strict=True)]


def test_each_number_on_the_site_is_rounded_once_far_from_its_last_digits(specs):
    seen = 0
    for ex in exercise_ids():
        for value, shown, exact, raw in _site_floats(ex):
            digits = answers.site_digits(value, raw.rel, raw.abs_tol)
            if exact:
                assert value == float(Fraction(exact)), ex
                assert shown == answers.site_number(Fraction(exact), digits), ex
            else:
                assert shown == answers.site_number(value, digits), ex
                margin = answers.rounding_margin(value, digits)
                assert margin >= ROUNDING_MARGIN, \
                    f"{ex}: {value} is {margin:.1e} from a rounding boundary at {digits} digits"
            # the rounding moves it by at most 5% of the tolerance
            assert abs(shown - value) <= 0.05 * max((raw.rel or 0) * abs(value), raw.abs_tol), ex
            seen += 1
    assert seen >= 30, seen
    assert {ex for ex in exercise_ids() for *_, exact, _ in _site_floats(ex) if exact} \
        >= EXACT_FLOATS


def test_a_float_near_a_boundary_is_caught():
    """The margin test bites: a value that sits within its last digits of a boundary."""
    near = 39.6964065 + 1e-15 * 39.7       # rounds at 8 digits on a half
    assert answers.rounding_margin(near, 8) < ROUNDING_MARGIN
    assert answers.rounding_margin(39.696406120380956, 8) > ROUNDING_MARGIN
    assert answers.site_number(Fraction(79, 2), 8) == 39.5
    assert answers.site_number(Fraction(2, 3), 3) == 0.667
    assert answers.site_number(Fraction(-999999, 10**6), 3) == -1.0


_SPECS_PROGRAM = """
import json, sys
sys.path.insert(0, {book!r})
import answers
from chutes_edu.checks import exercise_ids
out = {{}}
for ex in exercise_ids():
    spec = answers.spec_for(ex)
    if spec is not None:
        out[ex] = [spec.kind, spec.expected, spec.rel, spec.abs_tol]
print(json.dumps(out, sort_keys=True))
"""


@pytest.mark.slow
@pytest.mark.parametrize("coretype", ["Haswell", "Prescott"])
def test_the_site_specs_are_the_same_under_other_blas_kernels(specs, coretype):
    """Every spec the site holds, built in a Python whose OpenBLAS uses another kernel (about 30 s
    each), equals the one built here."""
    import os
    env = {**os.environ, "OPENBLAS_CORETYPE": coretype,
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", _SPECS_PROGRAM.format(book=str(BOOK))],
                          env=env, capture_output=True, text=True, timeout=600, check=True)
    there = json.loads(done.stdout)
    here = {ex: [s.kind, s.expected, s.rel, s.abs_tol] for ex, s in specs.items() if s is not None}
    assert json.loads(json.dumps(here, sort_keys=True)) == there


# ------------------------------------------------------------ hints beside a box speak words
def _hint_cells() -> dict[str, str]:
    """The hint cell under each exercise of the exercise sets, by exercise."""
    out = {}
    for path in sorted((ROOT / "exercises").glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown" and cell.get("id", "").startswith("hint-"):
                out[cell.id.removeprefix("hint-").replace("-", ".")] = cell.source
    return out


def test_no_hint_beside_an_answer_box_speaks_python(specs):
    """The site's reader has no kernel: the hint a box gives after a "not yet" and the hint under
    the exercise are in words (book/site_hints.toml where the notebook's speak Python)."""
    cells = _hint_cells()
    boxed = [ex for ex, spec in specs.items() if spec is not None]
    assert len(boxed) > 60
    for ex in boxed:
        shown = answers.site_hint_cell(ex, cells[ex])
        assert shown.lstrip().startswith("<details>") and shown.rstrip().endswith("</details>"), ex
        assert f"Hint for exercise {ex}" in shown, ex
        assert not answers.speaks_python(shown), (ex, answers.speaks_python(shown))
        hint = answers.site_hint(specs[ex])
        assert hint and not answers.speaks_python(hint), (ex, answers.speaks_python(hint))
        box = answers.answer_box(specs[ex])
        assert 'data-hint="' + answers._attr(hint) in box, ex
    # every words version is for a boxed exercise, and replaces a hint that speaks Python
    for ex, words in answers.site_hints().items():
        assert ex in boxed, ex
        assert set(words) <= {"check", "cell"}, ex
        if "check" in words:
            assert answers.speaks_python(specs[ex].hint), f"{ex}: its check's hint is words already"
        if "cell" in words:
            assert answers.speaks_python(cells[ex]), f"{ex}: its hint cell is words already"


def test_the_python_detector_bites():
    """What the notebooks' hints say, and the issue's examples, read as Python; words do not."""
    cells = _hint_cells()
    spoken = [ex for ex in exercise_ids() if answers.speaks_python(cells.get(ex, ""))]
    assert len(spoken) > 30
    for text in ("Change the rule with .replace(...) and ask expected_turns.",
                 "np.nanargmin and np.unravel_index find the smallest.",
                 "Run the setup cell first.", "call value_iteration()", "exact=True",
                 "`landing`", "sympy.solve does it", "weight pmf[k]", "give it as a Fraction",
                 "k**2", "your square n.start"):
        assert answers.speaks_python(text), text
    for text in ("The bias of a cap c is E[T] - E[min(T, c)], a sum of P(T > k).",
                 "Keep $p$ a fraction: $\\Pr(T = k)$ and $\\sum_k k^2 \\Pr(T = k)$.",
                 "Solve 1.96 sigma / (square root of n) <= your width; G(z) = z (I - zQ)^-1 R."):
        assert not answers.speaks_python(text), (text, answers.speaks_python(text))


# ------------------------------------------------------------ the hints in words, in Spanish
def _hints_catalog():
    """tools/translations.py (tools/ is on pytest's pythonpath), imported when a test needs it."""
    import translations

    return translations


def test_a_spanish_page_gives_every_hint_in_words_in_spanish(specs):
    """On the Spanish site (chutes_edu.i18n's language "es", as the build sets it) each hint in
    words is its translation in locale/es/LC_MESSAGES/site_hints.po: Spanish (English function
    words under the issue's 3%), still free of Python, and in the box and under the exercise."""
    from chutes_edu import i18n

    T = _hints_catalog()
    cells = {}
    for path in sorted((ROOT / T.LANGUAGE / "exercises").glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown" and cell.get("id", "").startswith("hint-"):
                cells[cell.id.removeprefix("hint-").replace("-", ".")] = cell.source
    i18n.set_language(T.LANGUAGE)
    try:
        for ex, words in answers.site_hints().items():
            said = answers.hint_translations(T.LANGUAGE)
            if "check" in words:
                hint = answers.site_hint(specs[ex])
                assert hint == said.get(answers.hint_message(words["check"])), ex
                assert T.english_share(hint) < 0.03 and not answers.speaks_python(hint), (ex, hint)
                assert 'data-hint="' + answers._attr(hint) in answers.answer_box(specs[ex]), ex
            if "cell" in words:
                shown = answers.site_hint_cell(ex, cells[ex])
                spanish = said.get(answers.hint_message(words["cell"]))
                assert spanish and spanish in shown and "Hint for" not in shown, ex
                assert T.english_share(spanish) < 0.03 and not answers.speaks_python(shown), ex
    finally:
        i18n.set_language(None)
    assert answers.site_hint(specs["2.1"]) == answers.site_hints()["2.1"]["check"]   # English


def test_a_changed_hint_is_drift_naming_it_then_fuzzy(tmp_path):
    """The hints' catalog follows book/site_hints.toml as the pages' catalogs follow their pages:
    clean now; a changed hint is "missing from the catalog" naming the file and the hint, then,
    after the merge, fuzzy with the old translation as its suggestion; a re-wrapped one is the
    same entry."""
    T = _hints_catalog()
    assert T.HINTS_CATALOG in T.templates()     # `make translations` and `check` see them
    (tmp_path / "book").mkdir()
    shutil.copytree(T.CATALOGS, tmp_path / T.CATALOGS.relative_to(T.ROOT))

    def template():
        found = T._Template()
        for text, where, kind in T._hint_messages(tmp_path):
            found.add(text, where, kind)
        return found

    def drift() -> list:
        return [(p.page, p.what, p.sentence)
                for p in T.problems(tmp_path, fresh={T.HINTS_CATALOG: template()})]

    source = answers.SITE_HINTS.read_text(encoding="utf-8")
    target = tmp_path / T.SITE_HINTS
    target.write_text(source, encoding="utf-8")
    assert drift() == []
    old = "Keep it exact: a fraction, not a decimal."
    assert source.count(old) == 1
    new = "Keep it exact, a fraction: not a decimal."
    target.write_text(source.replace(old, new), encoding="utf-8")
    changed = answers.site_hints()["1.1"]["check"].replace(old, new)
    assert drift() == [(T.SITE_HINTS, "missing from the catalog", changed)]
    po = T.merge(T.catalog(T.HINTS_CATALOG, tmp_path), T._pot(T.HINTS_CATALOG, template()))
    entry = po.find(changed)
    assert entry is not None and entry.fuzzy and entry.msgstr.startswith("Cuenta cuántos")
    wrapped = source.replace("Two steps. First the chance", "Two steps.\n  First the chance")
    assert wrapped != source
    target.write_text(wrapped, encoding="utf-8")
    assert drift() == []                        # re-wrapped: the same words
