"""Answer boxes for the website's exercise pages (book/build.py calls :func:`add_answers`).

An exercise whose check expects a value (:func:`chutes_edu.checks.answer_spec`: a number within a
tolerance, an exact fraction, a whole number, a letter, an array, a set of whole numbers, a list of
words or a formula in one symbol) gets a
box under its ``check(...)`` cell: a field named "answer to exercise N.M", a "check" button and a
polite live region. The box holds what the check holds: the verifier helper, its expected value
and tolerance, computed here with the course's library and the course's own numbers (those the
exercise pages show, :func:`chutes_edu.variants.variant` with no student), and the check's hint;
``book/static/answers.js`` checks a typed answer by the helper's rule, in the page, and words the
verdict as ``check()`` does. Nothing is typed in: a new value exercise gets its box by itself.

An exercise whose answer is code (a function, or anything its check computes with) says so, and
offers what the build has: the worked solution behind a "show the solution" control when the site
is built with the solutions, and links to open the exercise set live (Binder, a JupyterHub) or in
the repository when the build has their addresses. No address, no link.

A copy of the course without the answer checks (the student copy, ``tools/student_copy.py``) has
nothing to put in a page: its exercises get neither a box nor a note.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import nbformat

from chutes_edu.checks import (
    HINT_POINTER,
    AnswerSpec,
    answer_spec,
    has_answer_checks,
    is_function_exercise,
    tolerance_text,
)
from chutes_edu.variants import variant

__all__ = ["SCRIPT", "STYLE", "add_answers", "answer_box", "code_answer", "spec_for"]

SCRIPT, STYLE = "answers.js", "answers.css"      # in book/static/, loaded on every page
_CHECK_CELL = re.compile(r'^\s*check\(\s*"(?P<exercise>\d+\.\d+)"', re.MULTILINE)
_HEADING = re.compile(r"^###\s+Exercise\s+(?P<exercise>\d+\.\d+)\b")
BOX_CLASS, CODE_CLASS = "answer-box", "answer-code"


@cache
def spec_for(exercise: str) -> AnswerSpec | None:
    """The check's spec for ``exercise`` with the course's own numbers (the site's), or None.

    Parameters
    ----------
    exercise : str
        The exercise number, e.g. ``"3.4"``.

    Returns
    -------
    AnswerSpec or None
        None when the answer is code.
    """
    return answer_spec(exercise, variant(None, int(exercise.split(".")[0])))


def _form(spec: AnswerSpec) -> str:
    """What to type, in the words of the exercise's check."""
    if spec.kind == "close":
        return (f"A number, such as 0.25, 1e-3 or 7/3; checked "
                f"{tolerance_text(spec.rel or 0.0, spec.abs_tol)}.")
    if spec.kind == "exactly":
        return "Exactly, as a fraction such as 7/3 (or a whole number)."
    if spec.kind == "whole_number":
        return "A whole number."
    if spec.kind == "one_of":
        return "One letter, such as a."
    if spec.kind == "same_array":
        checked = f"checked entry by entry, {tolerance_text(spec.rel or 0.0, spec.abs_tol)}"
        return ("Numbers separated by commas, such as 12, 40 or 0.1, 0.2, 0.7 (rows in brackets: "
                f"[[1, 2], [3, 4]]); {checked}.")
    if spec.kind == "same_whole_numbers":
        return "Whole numbers separated by commas, such as 2, 5, in any order."
    if spec.kind == "same_words":
        return "Words separated by commas, in order, such as first, equal."
    return ("A formula in one symbol, such as (1 + p)/p^2: numbers, + - * /, ^ or ** for powers, "
            "and brackets.")


def _attr(value: object) -> str:
    return html.escape(str(value), quote=True)


def answer_box(spec: AnswerSpec) -> str:
    """The HTML of one value exercise's box (``book/static/answers.js`` wires it).

    Parameters
    ----------
    spec : AnswerSpec
        What the exercise's check expects (:func:`spec_for`).

    Returns
    -------
    str
        A ``<div class="answer-box">`` whose data attributes hold the check; one line.
    """
    ex = spec.exercise
    slug = ex.replace(".", "-")
    hint = f"{spec.hint} {HINT_POINTER.format(exercise=ex)}"
    rel = "" if spec.rel is None else repr(float(spec.rel))
    return (
        f'<div class="{BOX_CLASS}" data-exercise="{ex}" data-kind="{spec.kind}" '
        f'data-expected="{_attr(json.dumps(spec.expected))}" data-rel="{rel}" '
        f'data-abs="{spec.abs_tol!r}" data-hint="{_attr(hint)}">'
        f'<p class="answer-title">Answer it here: type your answer and press Enter. The page '
        f"checks it as the notebook's check does, without showing the answer.</p>"
        f'<div class="answer-row"><label for="answer-{slug}" id="answer-{slug}-label">answer to '
        f'exercise {ex}</label>'
        f'<input id="answer-{slug}" type="text" autocomplete="off" autocapitalize="off" '
        f'spellcheck="false" aria-describedby="answer-{slug}-form">'
        f'<button type="button" aria-describedby="answer-{slug}-label">check</button></div>'
        f'<p class="answer-form" id="answer-{slug}-form">{html.escape(_form(spec))}</p>'
        f'<p class="answer-verdict" role="status" aria-live="polite"></p></div>')


def code_answer(exercise: str, *, solution: str | None = None,
                links: Sequence[tuple[str, str]] = ()) -> str:
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

    Returns
    -------
    str
        A ``<div class="answer-code">``.
    """
    slug = exercise.replace(".", "-")
    what = ("a function, which its check calls on test cases" if is_function_exercise(exercise)
            else "something its check computes with in Python")
    parts = [f'<div class="{CODE_CLASS}" data-exercise="{exercise}">',
             f"<p>This one is answered in code: the answer to exercise {exercise} is {what}, so "
             "it is checked in the notebook, by running its <code>check</code> cell; this page "
             "has no Python behind it.</p>"]
    if links:
        opened = " or ".join(f'<a href="{_attr(url)}">{html.escape(label)}</a>'
                             for label, url in links)
        parts.append(f'<p class="answer-links">Open the exercise set {opened}.</p>')
    if solution is not None:
        parts.append(
            f'<details class="answer-solution"><summary>show the solution to exercise {exercise}'
            f'</summary><pre tabindex="0" role="region" aria-label="the solution to exercise '
            f'{exercise}" id="solution-{slug}"><code>'
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
                links: Sequence[tuple[str, str]] = ()) -> list[str]:
    """Put a box (or the code note) under each ``check("N.M", ...)`` cell of a staged exercise set.

    Parameters
    ----------
    notebook : Path
        The staged exercise set, rewritten in place.
    solutions : Path, optional
        The staged worked solutions (a build with the solutions), for the code exercises.
    links : sequence of (label, url)
        Where to open the exercise set live or in the repository.

    Returns
    -------
    list of str
        The exercises that got a value box.
    """
    nb = nbformat.read(notebook, as_version=4)
    worked = _solutions(solutions)
    boxed: list[str] = []
    cells = []
    for cell in nb.cells:
        cells.append(cell)
        match = _CHECK_CELL.search(cell.source) if cell.cell_type == "code" else None
        if match is None:
            continue
        exercise = match["exercise"]
        if not has_answer_checks(exercise):
            continue
        spec = spec_for(exercise)
        if spec is not None:
            cells.append(_raw_cell(answer_box(spec)))
            boxed.append(exercise)
        else:
            cells.append(_raw_cell(code_answer(exercise, solution=worked.get(exercise),
                                               links=links)))
    nb.cells = cells
    nbformat.write(nb, notebook)
    return boxed
