"""Answer boxes for the website's exercise pages (book/build.py calls :func:`add_answers`).

An exercise whose check expects a value (:func:`chutes_edu.checks.answer_spec`: a number within a
tolerance, an exact fraction, a whole number, a letter, an array, a set of whole numbers, a list of
words or a formula in one symbol) gets a
box under its ``check(...)`` cell: a field named "answer to exercise N.M", a "check" button and a
polite live region. The box holds what the check holds: the verifier helper, its expected value
and tolerance, computed here with the course's library and the course's own numbers (those the
exercise pages show, :func:`chutes_edu.variants.variant` with no student; each float rounded once
to its tolerance's digits, :func:`spec_for`), and the check's hint, in words (:data:`SITE_HINTS`:
the page runs no Python, so a hint that speaks it has a words version there, and so has the hint
cell under the exercise);
``book/static/answers.js`` checks a typed answer by the helper's rule, in the page, and words the
verdict as ``check()`` does. Nothing is typed in: a new value exercise gets its box by itself.
The expected value is held encoded (``book/practice.py``'s ``encode``), so that the page's source
does not show it as a readable number.

Every page with boxes also gets a "New numbers" panel under its numbers table
(``book/practice.py``): the set's practice variants, with what each box expects for each
(:func:`spec_with`, computed here), which the page draws from so that a learner can practise on
other numbers.

An exercise whose answer is code (a function, or anything its check computes with) says so, and
offers what the build has: the worked solution behind a "show the solution" control when the site
is built with the solutions, and links to open the exercise set live (Binder, a JupyterHub) or in
the repository when the build has their addresses. No address, no link.

An exercise whose answer is a set of jumps to add to a board (12.6, 12.7: :data:`JUMP_GOALS`)
gets a box too, of kind ``"jumps"``: its data hold the board and the goal, taken from the
exercise's check (``chutes_edu/checks/lesson12.py``), and the page judges the board with the jumps
added by the explorers' own maths (the board's rules, the race's edge, the expected turns).

An exercise that reasons from numbers no explorer shows to the digits its box needs (a game's
distribution, the expected turns from every square, the jumps that can be added:
:data:`CALCULATED`) gets the board calculator above its box (``chutes_edu/widgets/js/site/
calculator.js``): the learner sets the board the exercise names and reads what it reasons from;
the calculator never knows the exercise's numbers, so it prints no answer by itself.

A copy of the course without the answer checks (the student copy, ``tools/student_copy.py``) has
nothing to put in a page: its exercises get neither a box nor a note.

The words are said in the language of the site being built (:func:`chutes_edu.i18n.language`, which
the build sets for a translation): what this module writes goes through :func:`chutes_edu.i18n.say`
and the checks' hints through ``gettext``, and a page with boxes holds, as JSON in
``#chutes-answer-words`` (:func:`words_script`), the translations of the sentences
``book/static/answers.js`` shows (its ``tr("...")``), all from the code's catalog
``locale/<language>/LC_MESSAGES/chutes_edu.po``: the site has no other way to hand a plain script
the catalog (a page opened from disk can fetch nothing), and an English page holds none. The hints
in words (:data:`SITE_HINTS`) are website words the library never says: their translations are a
catalog of their own, ``locale/<language>/LC_MESSAGES/site_hints.po`` (one entry per hint, kept in
step with the file by tools/translations.py), read here when a translation's site is built.
"""

from __future__ import annotations

import dataclasses
import html
import math
import re
import sys
import tomllib
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import nbformat
import practice  # book/practice.py (book/ is on sys.path: book/build.py, the tests)

from chutes_edu.checks import (
    HINT_POINTER,
    AnswerSpec,
    answer_spec,
    has_answer_checks,
    is_function_exercise,
    tolerance_text,
)
from chutes_edu.i18n import SOURCE_LANGUAGE, gettext, language, messages, say
from chutes_edu.variants import Numbers, variant

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import translations  # tools/translations.py (tools/ is no package)

__all__ = ["CALCULATED", "CALCULATOR_MOUNT", "EXAMPLES", "JUMP_GOALS", "SCRIPT", "STYLE",
           "add_answers", "answer_box", "calculator", "code_answer", "jump_goal",
           "answer_name", "hint_message", "hint_translations", "rounding_margin", "site_digits",
           "site_hint", "site_hint_cell",
           "site_hints", "site_number", "speaks_python", "spec_for", "spec_with", "words_script",
           "WORDS_ID"]

SCRIPT, STYLE = "answers.js", "answers.css"      # in book/static/, loaded on every page
WORDS_ID = "chutes-answer-words"    # the JSON of answers.js's words in the page's language
_SCRIPT_PATH = Path(__file__).resolve().parent / "static" / SCRIPT
_LITERAL = r'"(?:[^"\\\n]|\\.)*"'
# answers.js's sentences: tr("...") with one literal or several joined by `+` over lines
_TR_CALL = re.compile(rf"\btr\(\s*({_LITERAL}(?:\s*\+\s*{_LITERAL})*)")
# The hints in words that the site shows beside an answer box where the notebook's hint speaks
# Python (the check's, after a "not yet", and the hint cell under the exercise): [exercise] check =
# ..., cell = ... (book/site_hints.toml). The notebooks keep theirs.
SITE_HINTS = Path(__file__).resolve().parent / "site_hints.toml"
# Their translations: one entry per hint, its words on one line (hint_message), in a catalog of
# their own (tools/translations.py's "site_hints"): website words the library never says.
HINTS_CATALOG = "site_hints"
_LOCALE = Path(__file__).resolve().parent.parent / "locale"
_HINT_CELL = re.compile(r"(?P<head>\A\s*<details>\s*<summary>[^<]*</summary>\s*\n)(?P<body>.*?)"
                        r"(?P<tail>\s*</details>\s*\Z)", re.S)
# What makes a hint Python rather than words, once its maths ($...$) is left out: code spans, a
# module's functions, a method or function call, a keyword argument, names with underscores,
# Python's types and operators, the notebook's set-up.
_MATHS = re.compile(r"\$\$.*?\$\$|\$[^$]*\$", re.S)
PYTHON_SIGNS = re.compile(
    r"`|\b(?:np|sp|numpy|sympy|math|flint)\.|\bsympy\b|\.[A-Za-z_]\w*\(|\b[A-Za-z]\w*\((?:\.\.\.)?\)"
    r"|\b[a-z]\w*=|\b[A-Za-z]+_[A-Za-z_]\w*|\bFraction\b|\bRational\b|\bTrue\b|\bNone\b|\*\*"
    r"|\b[a-z]+\[[^\]]*\]|setup cell|set-up cell|\bimport\b|\bn\.[a-z]")
_CHECK_CELL = re.compile(r'^\s*check\(\s*"(?P<exercise>\d+\.\d+)"', re.MULTILINE)
_HEADING = re.compile(r"^###\s+Exercise\s+(?P<exercise>\d+\.\d+)\b")
_HINT_ID = re.compile(r"\Ahint-(?P<set>\d+)-(?P<number>\d+)\Z")
BOX_CLASS, CODE_CLASS = "answer-box", "answer-code"
CALCULATOR_MOUNT = "chutes-calculator-mount"     # drawn by _static/site.js (js/site/calculator.js)

# The value exercises whose numbers no explorer shows to the digits their box needs, and what
# of the board calculator each reasons from: "squares" (expected turns from every square),
# "distribution" (the game's length: P(T = k), P(T <= k), P(T > k), E[min(T, k)], the chance of a
# tie), "jumps" (how many jumps of a least length can be added). The calculator shows them all;
# this says which of its folded tables it opens with (the jump count is never folded).
CALCULATED: dict[str, str] = {
    "1.5": "distribution", "2.6": "squares", "6.1": "distribution", "6.2": "distribution",
    "6.6": "distribution", "6.7": "distribution", "12.1": "jumps", "12.5": "distribution",
}


def _jump_goal_12_6(n: Numbers) -> dict[str, Any]:
    from chutes_edu import MILTON_BRADLEY_1943
    from chutes_edu.board import board_to_json
    from chutes_edu.checks.lesson12 import FAIR_EDGE
    return {"board": board_to_json(MILTON_BRADLEY_1943), "most": 1, "from": int(n.foot),
            "goal": "edge_below", "value": FAIR_EDGE, "band": None}


def _jump_goal_12_7(n: Numbers) -> dict[str, Any]:
    from chutes_edu.board import board_to_json
    from chutes_edu.checks.lesson12 import HOUSE_BAND, HOUSE_RULES
    return {"board": board_to_json(HOUSE_RULES), "most": 2, "from": None,
            "goal": "length_near", "value": float(n.target), "band": float(HOUSE_BAND)}


# Exercises whose answer is jumps added to a board, judged in the page (kind "jumps"): the goal
# of each, from its check's own constants and the set's numbers.
JUMP_GOALS = {"12.6": _jump_goal_12_6, "12.7": _jump_goal_12_7}


# Spare significant digits the site keeps beyond its tolerance: a value checked to a relative 1e-6
# is shown (in the page's data) to 6 + 2 significant digits, so that its last digits, which a
# float solve's BLAS kernel decides, never reach the page; rounding moves it by at most 5% of its
# tolerance.
SPARE_DIGITS = 2


def site_digits(value: float, rel: float | None, abs_tol: float) -> int:
    """The significant digits the site keeps of ``value`` checked to ``rel`` (or ``abs_tol``)."""
    tol = rel or (abs_tol / abs(value) if value else 0.0)
    if not tol:
        return 17
    return max(1, math.ceil(-math.log10(tol))) + SPARE_DIGITS


def _scaled(value: Fraction, digits: int) -> tuple[int, Fraction]:
    """(n, scale) with n = value * scale rounded (half to even) to ``digits`` significant digits."""
    e = math.floor(math.log10(abs(float(value))))
    scale = Fraction(10) ** (digits - 1 - e)
    if abs(value * scale) < 10 ** (digits - 1):      # float's log10 one too high
        scale *= 10
    return round(value * scale), scale


def site_number(value: float | Fraction, digits: int) -> float:
    """``value`` rounded once to ``digits`` significant digits: from the exact value (a Fraction)
    when the check computed one, else from the float the check computed."""
    exact = Fraction(value)
    if exact == 0:
        return 0.0
    n, scale = _scaled(exact, digits)
    return float(n / scale)


def rounding_margin(value: float | Fraction, digits: int) -> float:
    """How far ``value`` is from the nearest boundary of its rounding to ``digits`` significant
    digits, relative to ``value``: an error of the float below this cannot change what the site
    shows."""
    exact = Fraction(value)
    if exact == 0:
        return math.inf
    n, scale = _scaled(exact, digits)
    return float((Fraction(1, 2) - abs(exact * scale - n)) / scale / abs(exact))


def _site_floats(spec: AnswerSpec) -> AnswerSpec:
    """The spec with each float rounded to the digits its tolerance needs (:func:`site_number`),
    from the exact value where the check has it: the same on every machine."""
    def rounded(x: Any, exact: str = "") -> Any:
        if isinstance(x, list):
            return [rounded(v) for v in x]
        if isinstance(x, float) and math.isfinite(x):
            return site_number(Fraction(exact) if exact else x,
                               site_digits(x, spec.rel, spec.abs_tol))
        return x                        # ints, "p/q" strings, letters, words
    if spec.kind == "close":
        return dataclasses.replace(spec, expected=rounded(spec.expected, spec.exact))
    if spec.kind in {"same_array", "same_expression"} and spec.rel is not None:
        return dataclasses.replace(spec, expected=rounded(spec.expected))
    return spec


@cache
def spec_for(exercise: str) -> AnswerSpec | None:
    """The check's spec for ``exercise`` with the course's own numbers (the site's), or None.

    Its floats are rounded to the digits the check's tolerance needs (:func:`_site_floats`), once,
    from the exact value where the check computes one: what the page holds and checks against is
    the same on every machine (tests/test_answer_specs.py builds them under other BLAS kernels).

    Parameters
    ----------
    exercise : str
        The exercise number, e.g. ``"3.4"``.

    Returns
    -------
    AnswerSpec or None
        None when the answer is code.
    """
    return spec_with(exercise, variant(None, int(exercise.split(".")[0])))


def spec_with(exercise: str, numbers: Numbers) -> AnswerSpec | None:
    """The spec of ``exercise``'s box with the set's ``numbers``: as :func:`spec_for` has it for
    the course's numbers (what a practice variant's box checks against, ``book/practice.py``).

    Parameters
    ----------
    exercise : str
        The exercise number, e.g. ``"3.4"``.
    numbers : Numbers
        The set's numbers.

    Returns
    -------
    AnswerSpec or None
        None when the answer is code.
    """
    if exercise in JUMP_GOALS:
        return jump_goal(exercise, numbers)
    spec = answer_spec(exercise, numbers)
    return None if spec is None else _site_floats(spec)


def jump_goal(exercise: str, numbers: Numbers) -> AnswerSpec:
    """The box of an exercise of :data:`JUMP_GOALS`: kind ``"jumps"``, its goal as data.

    Parameters
    ----------
    exercise : str
        ``"12.6"`` or ``"12.7"``.
    numbers : Numbers
        The set's numbers (the page's).

    Returns
    -------
    AnswerSpec
        ``expected`` is ``{board, most, from, goal, value, band}`` (``book/static/answers.js``,
        ``jumpsRight``).
    """
    from chutes_edu.checks import _lookup
    return AnswerSpec(exercise=exercise, kind="jumps", expected=JUMP_GOALS[exercise](numbers),
                      rel=None, hint=_lookup(exercise).hint)


# The examples each kind of box shows, none of them the answer to any exercise (a test types each
# into every box: tests/test_site_answers_js.py). A letter box shows none: every letter is some
# exercise's answer.
EXAMPLES: dict[str, tuple[str, ...]] = {
    "close": ("0.25", "1e-3", "7/3", "12.5 - 3.25", "sqrt(2)"),
    "exactly": ("7/3", "1/4 + 2/9"),
    "whole_number": ("37",),
    "one_of": (),
    "same_array": ("12, 40", "0.1, 0.2, 0.7", "[[1, 2], [3, 4]]"),
    "same_whole_numbers": ("2, 5",),
    "same_words": ("second, first",),
    "same_expression": ("(2 + p)/(3p)", "q^2 - 1"),
    "jumps": ("(3, 9)", "[(3, 9), (12, 40)]"),
}


def _tolerance(rel: float, abs_tol: float) -> str:
    """:func:`chutes_edu.checks.tolerance_text` in the site's language (its English as it is)."""
    if language() == SOURCE_LANGUAGE:
        return tolerance_text(rel, abs_tol)
    parts = []
    if rel:
        parts.append(say("a relative error of {rel} ({percent}%)", rel=f"{rel:g}",
                         percent=f"{100 * rel:g}"))
    if abs_tol:
        parts.append(say("an absolute error of {tolerance}", tolerance=f"{abs_tol:g}"))
    return say("to within {parts}", parts=say(" or ").join(parts)) if parts else say("exactly")


def _form(spec: AnswerSpec) -> str:
    """What to type, in the words of the exercise's check, with :data:`EXAMPLES` of its kind."""
    ex = {f"e{k}": v for k, v in enumerate(EXAMPLES[spec.kind])}
    if spec.kind == "close":
        return say("A number, such as {e0}, {e1} or {e2}, or arithmetic on numbers, such as {e3} "
                   "or {e4} (a decimal comma and a percent sign are read too); checked "
                   "{tolerance}, or to the digits you give when they are fewer (at least 4 "
                   "decimals and 3 significant digits, as an explorer shows them).",
                   tolerance=_tolerance(spec.rel or 0.0, spec.abs_tol), **ex)
    if spec.kind == "exactly":
        return say("Exactly, as a fraction such as {e0} (or a whole number, or arithmetic on "
                   "fractions such as {e1}); a decimal number is not exact, and is refused.", **ex)
    if spec.kind == "whole_number":
        return say("A whole number, such as {e0}.", **ex)
    if spec.kind == "one_of":
        return say("One letter: the letter of the option you choose, alone or in brackets.")
    if spec.kind == "same_array":
        return say("Numbers separated by commas, such as {e0} or {e1} (rows in brackets: {e2}); "
                   "checked entry by entry, {tolerance}.",
                   tolerance=_tolerance(spec.rel or 0.0, spec.abs_tol), **ex)
    if spec.kind == "jumps":
        goal = spec.expected
        most = (say("one jump") if goal["most"] == 1
                else say("at most {most} jumps", most=goal["most"]))
        return say("The jumps to add ({most}), each as a pair of squares (a, b), such as {e0} or "
                   "{e1}; the page adds them to the exercise's board and judges it, as the "
                   "notebook's check does.", most=most, **ex)
    if spec.kind == "same_whole_numbers":
        return say("Whole numbers separated by commas, such as {e0}, in any order.", **ex)
    if spec.kind == "same_words":
        return say("Words separated by commas, in order, such as {e0}.", **ex)
    return say("A formula in one symbol, such as {e0} or {e1}: numbers, + - * /, ^ or ** for "
               "powers, and brackets.", **ex)


def _attr(value: object) -> str:
    return html.escape(str(value), quote=True)


def _text(words: str) -> str:
    """Words as an element's text in HTML (only ``&``, ``<`` and ``>`` escaped)."""
    return html.escape(words, quote=False)


def speaks_python(text: str) -> list[str]:
    """The signs of Python in a hint (:data:`PYTHON_SIGNS`), its maths left out; [] for words."""
    return [m[0] for m in PYTHON_SIGNS.finditer(_MATHS.sub(" ", text))]


@cache
def site_hints() -> dict[str, dict[str, str]]:
    """The hints in words of :data:`SITE_HINTS`: {exercise: {"check": ..., "cell": ...}}."""
    with SITE_HINTS.open("rb") as file:
        return tomllib.load(file)


def hint_message(words: str) -> str:
    """A hint of :data:`SITE_HINTS` as its catalog's entry: its words on one line (a re-wrapped
    hint is the same entry; its Markdown is one paragraph)."""
    return " ".join(words.split())


@cache
def hint_translations(code: str) -> dict[str, str]:
    """The usable translations of the hints' catalog ``locale/<code>/LC_MESSAGES/site_hints.po``;
    {} for English or a language without one."""
    path = _LOCALE / code / "LC_MESSAGES" / f"{HINTS_CATALOG}.po"
    if code == SOURCE_LANGUAGE or not path.is_file():
        return {}
    return translations.usable_translations(path)


def _said_hint(words: str) -> str | None:
    """The translation of a words hint in the site's language; None if it has none."""
    return hint_translations(language()).get(hint_message(words))


def site_hint(spec: AnswerSpec) -> str:
    """The hint the box gives after a "not yet": the check's, or its words version; in another
    language, the words version's translation, else the check's own hint in that language (a
    hint that may speak Python beats one in English)."""
    words = site_hints().get(spec.exercise, {}).get("check")
    if words is None:
        return gettext(spec.hint)
    if language() == SOURCE_LANGUAGE:
        return words
    said = _said_hint(words)
    return gettext(spec.hint) if said is None else said


@cache
def _script_sentences() -> tuple[str, ...]:
    """The English sentences ``book/static/answers.js`` shows (its ``tr("...")``)."""
    import json

    text = _SCRIPT_PATH.read_text(encoding="utf-8")
    return tuple(dict.fromkeys(
        "".join(json.loads(piece) for piece in re.findall(_LITERAL, m[1]))
        for m in _TR_CALL.finditer(text)))


def words_script(code: str | None = None) -> str:
    """The JSON that gives ``book/static/answers.js`` its words in the site's language.

    Parameters
    ----------
    code : str, optional
        A language; default :func:`chutes_edu.i18n.language`.

    Returns
    -------
    str
        A ``<script type="application/json" id="chutes-answer-words">`` holding the translations
        of the script's sentences; "" for English (the script's own words).
    """
    import json

    code = code or language()
    if code == SOURCE_LANGUAGE:
        return ""
    said = messages(code)
    words = {s: said[s] for s in _script_sentences() if said.get(s)}
    body = json.dumps(words, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")
    return f'<script type="application/json" id="{WORDS_ID}">{body}</script>'


def site_hint_cell(exercise: str, source: str) -> str:
    """The hint cell under a boxed exercise as the site shows it: its words version, if any."""
    words = site_hints().get(exercise, {}).get("cell")
    match = _HINT_CELL.match(source)
    if words is None or match is None:
        return source
    if language() != SOURCE_LANGUAGE:      # the translation, else the notebook's own (translated)
        said = _said_hint(words)
        if said is None:
            return source
        words = said
    return match["head"] + "\n" + words.strip() + match["tail"]


def answer_name(exercise: str) -> str:
    """What seeds the encoding of ``exercise``'s answers in its box (:func:`practice.encode`)."""
    return f"answer|{exercise}"


def answer_box(spec: AnswerSpec) -> str:
    """The HTML of one value exercise's box (``book/static/answers.js`` wires it).

    Parameters
    ----------
    spec : AnswerSpec
        What the exercise's check expects (:func:`spec_for`).

    Returns
    -------
    str
        A ``<div class="answer-box">`` whose data attributes hold the check; one line. Its
        expected value is encoded (``data-answer``: :func:`practice.encode`, named by
        :func:`answer_name`), so that the page's source does not show it as a number.
    """
    ex = spec.exercise
    slug = ex.replace(".", "-")
    hint = f"{site_hint(spec)} {say(HINT_POINTER, exercise=ex)}"
    rel = "" if spec.rel is None else repr(float(spec.rel))
    return (
        f'<div class="{BOX_CLASS}" data-exercise="{ex}" data-kind="{spec.kind}" '
        f'data-answer="{practice.encode(spec.expected, answer_name(ex))}" data-rel="{rel}" '
        f'data-abs="{spec.abs_tol!r}" data-hint="{_attr(hint)}">'
        f'<p class="answer-title">'
        + _text(say("Answer it here: type your answer and press Enter. The page checks it "
                          "as the notebook's check does, without showing the answer."))
        + f'</p><div class="answer-row"><label for="answer-{slug}" id="answer-{slug}-label">'
        + _text(say("answer to exercise {exercise}", exercise=ex)) + '</label>'
        f'<input id="answer-{slug}" type="text" autocomplete="off" autocapitalize="off" '
        f'spellcheck="false" aria-describedby="answer-{slug}-form">'
        f'<button type="button" aria-describedby="answer-{slug}-label">'
        + _text(say("check")) + '</button></div>'
        f'<p class="answer-form" id="answer-{slug}-form">{html.escape(_form(spec))}</p>'
        f'<p class="answer-verdict" role="status" aria-live="polite"></p></div>')


def calculator(exercise: str) -> str:
    """The HTML where the page's board calculator is drawn above ``exercise``'s box.

    Parameters
    ----------
    exercise : str
        An exercise of :data:`CALCULATED`.

    Returns
    -------
    str
        A ``<div class="chutes-calculator-mount">`` naming the exercise and the part to open.
    """
    return (f'<div class="{CALCULATOR_MOUNT}" data-exercise="{exercise}" '
            f'data-open="{CALCULATED[exercise]}"></div>')


def code_answer(exercise: str, *, solution: str | None = None,
                links: Sequence[tuple[str, str]] = (), notebook: str = "") -> str:
    """The HTML under an exercise whose answer is code: what to do, and what the build offers.

    Parameters
    ----------
    exercise : str
        The exercise number.
    solution : str, optional
        The worked solution's code (a build with the solutions); shown behind a "show the
        solution" control.
    links : sequence of (label, url)
        Where to open the exercise set (a build with addresses); none, no link.
    notebook : str
        The exercise set's path in the course's folder (``exercises/NN_....ipynb``), which the
        note names, with how to open it, links or not.

    Returns
    -------
    str
        A ``<div class="answer-code">``.
    """
    slug = exercise.replace(".", "-")
    what = (say("a function, which its check calls on test cases")
            if is_function_exercise(exercise)
            else say("something its check computes with in Python"))
    parts = [f'<div class="{CODE_CLASS}" data-exercise="{exercise}">',
             "<p>" + say("This one is answered in code, in Python: the answer to exercise "
                         "{exercise} is {what}. This page cannot run Python, so the exercise is "
                         "done and checked in the exercise set's notebook, where its "
                         "<code>check</code> cell says whether your code is right; its hint speaks "
                         "the notebook's Python.", exercise=exercise, what=what) + "</p>"]
    if links:
        opened = say(" or ").join(f'<a href="{_attr(url)}">{html.escape(label)}</a>'
                                  for label, url in links)
        parts.append('<p class="answer-links">' + say("Open the exercise set {links}.",
                                                      links=opened) + "</p>")
    if notebook:
        where = html.escape(notebook)
        parts.append(
            '<p class="answer-open">' + say(
                "To work on it, open the notebook <code>{notebook}</code> in JupyterLab: on a "
                "computer with Python 3.11, run <code>make lab</code> in the course's folder (its "
                "README says how to get it) and open that file; or, if your teacher gives you a "
                "Binder or JupyterHub link, follow it and open the same file. Run the notebook's "
                "first cells (they set up the exercise set and its numbers) before the exercise.",
                notebook=where) + "</p>")
    if solution is not None:
        shown = _text(say("show the solution to exercise {exercise}", exercise=exercise))
        named = _attr(say("the solution to exercise {exercise}", exercise=exercise))
        parts.append(
            f'<details class="answer-solution"><summary>{shown}'
            f'</summary><pre tabindex="0" role="region" aria-label="{named}'
            f'" id="solution-{slug}"><code>'
            # one line: a blank line would end the Markdown's HTML block
            + html.escape(solution).replace("\n", "&#10;") + "</code></pre></details>")
    parts.append("</div>")
    return "".join(parts)


def _raw_cell(markup: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_markdown_cell("```{raw} html\n" + markup + "\n```")


def _solutions(notebook: Path | None) -> dict[str, str]:
    """Each exercise's worked solution: the code cells between its heading and its check."""
    if notebook is None or not notebook.exists():
        return {}
    out: dict[str, list[str]] = {}
    current: str | None = None
    for cell in nbformat.read(notebook, as_version=4).cells:
        heading = _HEADING.match(cell.source) if cell.cell_type == "markdown" else None
        if heading:
            current = heading["exercise"]
            out[current] = []
        elif cell.cell_type == "code" and current is not None:
            if _CHECK_CELL.search(cell.source):
                current = None
            elif cell.source.strip():
                out[current].append(cell.source.strip("\n"))
    return {ex: "\n\n".join(code) for ex, code in out.items() if code}


def add_answers(notebook: Path, *, solutions: Path | None = None,
                links: Sequence[tuple[str, str]] = (), path: str = "",
                variants: int = practice.VARIANTS) -> list[str]:
    """Put a box (or the code note) under each ``check("N.M", ...)`` cell of a staged exercise set,
    and the "New numbers" panel (``book/practice.py``) under its numbers table.

    Parameters
    ----------
    notebook : Path
        The staged exercise set, rewritten in place.
    solutions : Path, optional
        The staged worked solutions (a build with the solutions), for the code exercises.
    links : sequence of (label, url)
        Where to open the exercise set live or in the repository.
    path : str
        The exercise set's path in the course's folder, named under each code exercise.
    variants : int
        How many practice variants the page can draw (:func:`practice.practice_variants`); 0, no
        panel. A page without boxes has none either.

    Returns
    -------
    list of str
        The exercises that got a value box.
    """
    nb = nbformat.read(notebook, as_version=4)
    worked = _solutions(solutions)
    boxed: list[str] = []
    specs: dict[str, AnswerSpec] = {}
    cells = []
    for cell in nb.cells:
        hint = _HINT_ID.match(cell.get("id", "")) if cell.cell_type == "markdown" else None
        if hint is not None:
            exercise = f"{hint['set']}.{hint['number']}"
            if has_answer_checks(exercise) and spec_for(exercise) is not None:
                cell.source = site_hint_cell(exercise, cell.source)
        cells.append(cell)
        match = _CHECK_CELL.search(cell.source) if cell.cell_type == "code" else None
        if match is None:
            continue
        exercise = match["exercise"]
        if not has_answer_checks(exercise):
            continue
        spec = spec_for(exercise)
        if spec is not None:
            if exercise in CALCULATED:
                cells.append(_raw_cell(calculator(exercise)))
            cells.append(_raw_cell(answer_box(spec)))
            boxed.append(exercise)
            specs[exercise] = spec
        else:
            cells.append(_raw_cell(code_answer(exercise, solution=worked.get(exercise),
                                               links=links, notebook=path)))
    set_number = int(notebook.name[:2]) if notebook.name[:2].isdigit() else 0
    drawn = practice.practice_variants(set_number, specs, spec_with, variants) if (
        specs and variants and set_number) else []
    if drawn:
        at = next((k + 1 for k, cell in enumerate(cells)
                   if cell.get("id") == practice.NUMBERS_TABLE_ID), 1)
        cells.insert(at, _raw_cell(practice.practice_block(set_number, drawn)))
    words = words_script() if boxed else ""
    if words:                                  # the boxes' words, in a language not English
        cells.append(_raw_cell(words))
    nb.cells = cells
    nbformat.write(nb, notebook)
    return boxed
