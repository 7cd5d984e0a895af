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
