"""The course in Spanish (tools/translations.py, chutes_edu.i18n): catalogs, drift, generated pages.

The pages named in locale/es/COMPLETE must be fully translated, keep their formulas, code and
numbers, and read as Spanish; every generated page must be what the catalogs build. Pages not yet
translated are reported by `tools/translations.py check`, not failed here.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import nbformat
import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import translations as T  # noqa: E402

from chutes_edu import i18n  # noqa: E402

LESSON = "lessons/01_waiting_for_heads.ipynb"
SENTENCE = "Think only about the **first** flip:"


@pytest.fixture(scope="module")
def fresh() -> dict:
    return T.templates()


def _complete() -> list[str]:
    return T.complete_sources()


def test_the_pilot_is_listed_complete() -> None:
    assert {"start_here.ipynb", LESSON, "solutions/01_solutions_waiting_for_heads.ipynb"} <= set(
        _complete())


@pytest.mark.parametrize("source", T.sources(), ids=lambda s: s.path)
def test_extraction_round_trip(source: T.Source) -> None:
    """Every cell, with each unit "translated" as itself, is the English cell again; every unit
    has words; code cells still parse."""
    units = 0
    for kind, text in T._cells(source):
        found = T.units_of(kind, text)
        units += len(found)
        same = {u.text: u.text for u in found}
        assert T.translate_text(kind, text, same) == text
        for unit in found:
            assert T._has_words(unit.text) or unit.kind == "display formula with words", unit
            assert text[unit.start:unit.end] == unit.original
        if kind == "code" and found:
            marked = {u.text: "X " + u.text for u in found}
            T.translate_text(kind, text, marked)        # renders without error
    assert units > 0


def test_a_translated_code_cell_still_runs_the_same_code() -> None:
    import ast

    source = ('print(f"mean {x:.4f} of the waits")  # the mean of the waits\n'
              'ax.set_title("Waiting for a six")\nn = sp.symbols("p E")\n')
    out = T.translate_text("code", source, {"mean {x:.4f} of the waits": "media {x:.4f} de las esperas",
                                            "the mean of the waits": "la media de las esperas",
                                            "Waiting for a six": "Esperando un seis"})
    assert 'f"media {x:.4f} de las esperas"' in out and "# la media de las esperas" in out
    assert 'sp.symbols("p E")' in out                  # names are never units
    assert ast.dump(ast.parse(out)).count("Constant") == ast.dump(ast.parse(source)).count("Constant")


def _units(cell: str) -> set[str]:
    return {u.text for u in T.units_of("code", cell)}


def _runs_the_same(cell: str, units: set[str]) -> str:
    """The cell with every unit "translated" (a long Spanish-like translation), checked to
    parse to the same code apart from its strings; returned for more checks."""
    import ast

    said = {t: "en español, con bastantes palabras para que no quepa en una línea: " + t
            for t in units}
    out = T.translate_text("code", cell, said)

    def shape(source: str) -> str:
        # the code without its words: an f-string's placeholders stay, its text goes
        tree = ast.parse(source)
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                node.values = [v for v in node.values if not isinstance(v, ast.Constant)]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                node.value = ""
        return ast.dump(tree)

    assert shape(out) == shape(cell)
    return out


def test_a_for_over_a_literal_gives_its_shown_names_strings() -> None:
    """The items of a literal a `for` (or a comprehension, or `enumerate`) runs over: a unit
    for each name shown as it is; a name also used as a key, an index or an argument keeps
    its strings."""
    cell = ('for label, b, start in (("1943 board, from 0", board, 0), ("his board", other, 1)):\n'
            '    print(f"{label:28s} {expected_turns(b)[start]:.2f}")\n'
            'for kind, label2 in (("never ends", "from square 100"), ("start", "from square 0")):\n'
            '    print(f"{label2:34s} {kinds[kind]:5d}")\n'
            'for i, stat in enumerate(("shortest game", "std dev (from N)")):\n'
            '    print(f"{stat:18s}" + "".join(f"{c[i]:9.4g}" for c in columns))\n'
            'print("".join(f"{name:>20s}" for name in ("first board", "second board")))\n'
            'for col in ("mode", "median"):\n'
            '    print(col, table[col])\n'
            'for rule in ("stay", "bounce"):\n'
            '    print(f"{rule} rule: {expected_turns(board.replace(overshoot=rule))[0]:.2f}")\n')
    units = _units(cell)
    assert units == {"1943 board, from 0", "his board", "from square 100", "from square 0",
                     "shortest game", "std dev (from N)", "first board", "second board",
                     "{rule} rule: {expected_turns(board.replace(overshoot=rule))[0]:.2f}"}
    # never: "never ends", "start" (keys), "mode", "median" (keys too), "stay", "bounce" (argument)
    _runs_the_same(cell, units)


def test_a_literal_kept_in_a_name_only_run_over_gives_its_items() -> None:
    """A list, tuple or dict a cell keeps in a name and only runs a `for` over (`for k in d`,
    `d.items()`): its items (a dict's keys) for the names shown; a name also looked up,
    passed on or changed keeps its strings."""
    cell = ('rules = {"six again": dict(bonus_roll=6), "bounce back": dict(overshoot="bounce")}\n'
            'print("".join(f"{rule:>13s}" for rule in rules))\n'
            'lengths = [expected_turns(board.replace(**r))[0] for r in rules.values()]\n'
            'labels = ["first board", "second board"]\n'
            'for label in labels:\n'
            '    print(f"{label:20s}")\n'
            'pairs = {"solve": "39.2", "series": "39.1"}\n'
            'for method, printed in pairs.items():\n'
            '    print(f"{method:8s} {printed:20s}")\n'
            'kinds = {"never ends": 0, "start": 0}\n'
            'for kind in kinds:\n'
            '    print(kind)\n'
            'kinds["start"] += 1\n'
            'names = ["a chute", "a ladder"]\n'
            'for name in names:\n'
            '    print(name)\n'
            'draw(names)\n')
    units = _units(cell)
    assert units == {"six again", "bounce back", "first board", "second board", "solve",
                     "series"}
    # never: "bounce" (an argument), "39.2" (no words), "never ends" and "start" (also a key),
    # "a chute" and "a ladder" (the list is passed on)
    _runs_the_same(cell, units)


def test_a_function_that_only_says_its_return_values_gives_them() -> None:
    """The return values of a function of the cell whose every call is shown are units (and the
    names its return values show); one called anywhere else keeps its strings."""
    cell = ('def in_words(seconds):\n'
            '    """A duration in words."""\n'
            '    for unit, length in (("days", 86400), ("hours", 3600)):\n'
            '        if seconds >= 2 * length:\n'
            '            return f"about {seconds / length:.0f} {unit}"\n'
            '    return f"about {seconds:.1f} seconds"\n\n\n'
            'def kind(x):\n'
            '    return "big" if x > 9 else "small"\n\n\n'
            'print(f"one solve each: {in_words(3e6)}")\n'
            'if kind(3) == "small":\n'
            '    print(f"this one is {kind(3)}")\n')
    units = _units(cell)
    assert units == {"A duration in words.", "days", "hours", "about {seconds / length:.0f} {unit}",
                     "about {seconds:.1f} seconds", "one solve each: {in_words(3e6)}",
                     "this one is {kind(3)}"}
    _runs_the_same(cell, units)


def test_padded_literals_glued_f_strings_separators_and_or_are_read() -> None:
    """A literal an f-string's placeholder shows (padded, or after `or`) is translated in place
    (its code, quotes and format kept); an f-string glued to a plain string is one unit; a `.join`'s separator and
    the operands of `or` in what is shown are units."""
    cell = ('print(f"{\'largest eigenvalue of Q:\':64s} lambda = {lam:.6f}")\n'
            'print(f"difference of the means: {z:+.2f}"\n      " standard errors")\n'
            'print(f"{x:.2f}" "{not a placeholder}")\n'
            'steps = " then ".join(s.action for s in d.steps)\n'
            'print(f"steps: {steps}")\n'
            'print("odd cycles:", odd or "none, so its period is 2")\n'
            'print(f"{d[\'the key\']:5d} cases")\n')
    units = _units(cell)
    assert units == {"{'largest eigenvalue of Q:':64s} lambda = {lam:.6f}",
                     "difference of the means: {z:+.2f} standard errors", " then ",
                     "steps: {steps}", "odd cycles:", "none, so its period is 2",
                     "{d['the key']:5d} cases"}
    out = _runs_the_same(cell, units)
    assert "en español" in out.split("\n")[0].split(":64s}")[0]   # the words inside the braces
    glued = next(u for u in T.units_of("code", cell) if u.text.startswith("difference"))
    assert glued.string is not None and glued.string[0] == "f"
    # the padded words are words, their placeholder is kept as a placeholder
    assert T.verbatim_problem("{'largest eigenvalue:':64s} lambda",
                              "{'el mayor valor propio:':64s} lambda") == ""
    assert T.verbatim_problem("{'largest eigenvalue:':64s} lambda",
                              "{'el mayor valor propio:':60s} lambda")
    assert T.verbatim_problem("{d['the key']:5d} cases", "{d['la clave']:5d} casos")
    assert T.verbatim_problem("adds {added or 'no jump'}", "añade {added or 'ningún salto'}") == ""
    assert T.verbatim_problem("adds {added or 'no jump'}", "añade {otro or 'ningún salto'}")


def test_formulas_code_links_and_numbers_must_be_kept() -> None:
    msgid = "Flip it $k$ times (`flips(p)`, [Lesson 7](07_simulation.ipynb)): 20,000 waits."
    assert T.verbatim_problem(msgid, "Lánzala $k$ veces (`flips(p)`, [lección 7](07_simulation."
                                     "ipynb)): 20 000 esperas.") == ""
    for broken in ("Lánzala $n$ veces (`flips(p)`, [lección 7](07_simulation.ipynb)): 20,000.",
                   "Lánzala $k$ veces (`flips(q)`, [lección 7](07_simulation.ipynb)): 20,000.",
                   "Lánzala $k$ veces (`flips(p)`, [lección 7](07.ipynb)): 20,000 esperas.",
                   "Lánzala $k$ veces (`flips(p)`, [lección 7](07_simulation.ipynb)): 2,000."):
        assert T.verbatim_problem(msgid, broken), broken
    assert T.verbatim_problem("mean {x:.4f}", "media {x:.3f}")
    assert T.verbatim_problem(r"$\text{heads}$", r"$\text{cara}$") == ""


def test_complete_pages_have_no_drift(fresh: dict) -> None:
    complete = set(_complete())
    bad = [str(p) for p in T.problems(fresh=fresh) if T._origin(p) in complete]
    assert not bad, "\n".join(bad)


def test_generated_pages_are_what_the_catalogs_build() -> None:
    """Like exercises/ from solutions/: es/ and the library's catalogs are generated, never edited
    (sources compared; the outputs are nbval's to check)."""
    stale = [str(p) for p in T.stale_files()]
    assert not stale, "\n".join(stale)


def test_templates_are_the_english_units(fresh: dict) -> None:
    for name, template in fresh.items():
        assert (T.TEMPLATES / f"{name}.pot").read_text(encoding="utf-8") == T._pot(
            name, template).__unicode__(), name


@pytest.fixture()
def copy_of_the_course(tmp_path: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "static", "node_modules")
    shutil.copy(ROOT / "start_here.ipynb", tmp_path)
    for folder in ("lessons", "solutions", "chutes_edu", "locale", "book"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=ignore)
    return tmp_path


def _edit_lesson(root: Path, old: str, new: str) -> None:
    path = root / LESSON
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        cell.source = cell.source.replace(old, new)
    nbformat.write(nb, path)


def test_a_changed_sentence_is_drift_then_fuzzy(copy_of_the_course: Path) -> None:
    root = copy_of_the_course
    changed = "Think only about the **first** flip of the coin:"
    _edit_lesson(root, SENTENCE, changed)
    found = [p for p in T.problems(root) if p.page == LESSON]
    assert [(p.what, p.sentence) for p in found] == [("missing from the catalog", changed)]
    assert LESSON in str(found[0]) and changed in str(found[0])
    T.update(root)
    po = polib.pofile(str(root / "locale/es/LC_MESSAGES/lessons-01_waiting_for_heads.po"))
    entry = po.find(changed)
    assert entry is not None and entry.fuzzy and entry.previous_msgid == SENTENCE
    assert entry.msgstr == "Piensa solo en el **primer** lanzamiento:"     # the suggestion
    found = [p for p in T.problems(root) if p.page == LESSON]
    assert [p.what for p in found] == ["fuzzy (the English changed: check the suggestion)"]


def test_a_removed_sentence_becomes_obsolete(copy_of_the_course: Path) -> None:
    root = copy_of_the_course
    _edit_lesson(root, SENTENCE, "")
    T.update(root)
    po = polib.pofile(str(root / "locale/es/LC_MESSAGES/lessons-01_waiting_for_heads.po"))
    gone = [e for e in po.obsolete_entries() if e.msgid == SENTENCE]
    assert gone and gone[0].msgstr
    assert not [p for p in T.problems(root) if p.page == LESSON]


def test_a_new_sentence_is_untranslated_and_the_build_keeps_it_english(
        copy_of_the_course: Path) -> None:
    root = copy_of_the_course
    new = "A sentence that nobody has translated yet, about the coin."
    _edit_lesson(root, SENTENCE, SENTENCE + "\n\n" + new)
    T.update(root)
    assert [(p.what, p.sentence) for p in T.problems(root) if p.page == LESSON] == [
        ("untranslated", new)]
    page = T.translated_pages(root)[LESSON]
    text = "\n".join(c.source for c in page.cells)
    assert new in text and "Piensa solo en el **primer** lanzamiento:" in text


def test_the_websites_words_drift_like_a_page(copy_of_the_course: Path) -> None:
    """The sentences book/ writes into pages (its templates and its scripts' ``_("...")``) are
    the catalog book.po's units: a changed one is drift naming its file, then fuzzy."""
    root = copy_of_the_course
    assert not [p for p in T.problems(root) if p.page.startswith("book/")]
    front = root / "book" / "front.md"
    old = "## Finding your way"
    front.write_text(front.read_text(encoding="utf-8").replace(old, "## Finding your path"),
                     encoding="utf-8")
    build = root / "book" / "build.py"
    said = "_('Your progress')"
    text = build.read_text(encoding="utf-8")
    assert said in text
    build.write_text(text.replace(said, "_('Your own progress')"), encoding="utf-8")
    found = sorted((p.page, p.what, p.sentence) for p in T.problems(root)
                   if p.page.startswith("book/"))
    assert found == [("book/build.py", "missing from the catalog", "Your own progress"),
                     ("book/front.md", "missing from the catalog", "Finding your path")]
    T.update(root)
    po = polib.pofile(str(root / "locale/es/LC_MESSAGES/book.po"))
    entry = po.find("Finding your path")
    assert entry is not None and entry.fuzzy and entry.msgstr == "Cómo orientarte"


def _main_text(nb: nbformat.NotebookNode) -> str:
    """Markdown outside the References (citations keep their language)."""
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    return text.split("## Referencias")[0].split("## Fuentes")[0]


@pytest.mark.parametrize("page", [p for p in _complete() if p.endswith(".ipynb")])
def test_spanish_reads_as_spanish(page: str) -> None:
    spanish = nbformat.read(ROOT / T.LANGUAGE / page, as_version=4)
    english = nbformat.read(ROOT / page, as_version=4)
    assert T.english_share(_main_text(spanish)) < 0.03
    assert T.english_share(_main_text(english)) > 0.03     # the measure tells the two apart
    assert spanish.metadata["chutes_edu"]["language"] == "es"


def test_spanish_links_stay_in_spanish() -> None:
    nb = nbformat.read(ROOT / "es" / LESSON, as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "](../exercises/01_exercises_waiting_for_heads.ipynb)" in text
    assert (ROOT / "es/exercises/01_exercises_waiting_for_heads.ipynb").exists()
    start = nbformat.read(ROOT / "es/start_here.ipynb", as_version=4)
    assert "(lessons/01_waiting_for_heads.ipynb)" in "\n".join(c.source for c in start.cells)


def test_the_library_speaks_spanish(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from chutes_edu.checks import check

    monkeypatch.delenv("CHUTES_EDU_LANGUAGE", raising=False)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    try:
        assert repr(check("1.6", "b")) == "✔ 1.6 right"
        i18n.set_language("es")
        assert repr(check("1.6", "b")) == "✔ 1.6 correcto"
        said = repr(check("1.6", None))
        assert said.startswith("✘ 1.6 todavía no: falta la respuesta. Pista: Hazte dos preguntas")
        assert check("1.6", None).problem == "no answer given"    # the grader's words stay
        i18n.set_language(None)
        notebook = tmp_path / "mine.ipynb"
        notebook.write_text(json.dumps({"metadata": {"chutes_edu": {"language": "es"}},
                                        "cells": [], "nbformat": 4, "nbformat_minor": 5}))
        monkeypatch.setenv("JPY_SESSION_NAME", str(notebook))
        assert i18n.language() == "es"
        monkeypatch.setenv("CHUTES_EDU_LANGUAGE", "en")
        assert i18n.language() == "en"
    finally:
        i18n.set_language(None)


def test_the_coin_explorer_speaks_spanish() -> None:
    from chutes_edu.widgets.coin_explorer import CoinFlipExplorer

    try:
        i18n.set_language("es")
        explorer = CoinFlipExplorer()
        assert explorer.language == "es"
        assert explorer._repr_mimebundle_()[0]["text/plain"].startswith("Esperando una cara")
    finally:
        i18n.set_language(None)
    assert CoinFlipExplorer().language == "en"
    front = (ROOT / "chutes_edu/widgets/js/core/messages_es.js").read_text(encoding="utf-8")
    assert '"Waiting for heads": "Esperando una cara"' in front


def test_the_spanish_glossary_is_in_spanish_alphabetical_order() -> None:
    """Translated in place its entries would keep the English order ("cadena absorbente" under
    A): the build files each under the letter its Spanish term begins with, accents ignored and
    ñ after n, and keeps every entry."""
    text = (ROOT / T.LANGUAGE / T.GLOSSARY_PAGE).read_text(encoding="utf-8")
    terms, letters = [], []
    for line in text.splitlines():
        if line.startswith("### "):
            terms.append(line[4:])
            assert T._letter(line[4:]) == letters[-1], (line, letters[-1])
        elif line.startswith("## "):
            letters.append(line[3:])
    english = (ROOT / T.GLOSSARY_PAGE).read_text(encoding="utf-8").count("\n### ")
    assert len(terms) == english and terms == sorted(terms, key=T._collation_key), terms
    assert letters == sorted(set(letters), key=T._collation_key)
    assert terms.index("cadena absorbente") > terms.index("aritmética exacta")

    made = T.alphabetical_glossary("# G\n\nIntro.\n\n## A\n\n### ñandú\n\nUno.\n\n### árbol\n\n"
                                   "Dos.\n\n## B\n\n### nube\n\nTres.\n")
    assert made == ("# G\n\nIntro.\n\n## A\n\n### árbol\n\nDos.\n\n## N\n\n### nube\n\nTres.\n\n"
                    "## Ñ\n\n### ñandú\n\nUno.\n")
