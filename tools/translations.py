"""The course in Spanish: gettext catalogs of the English, and Spanish notebooks built from them.

The English notebooks stay the only source. Their text is cut into *units*, one sentence-sized
piece each, that a translator translates one by one in gettext catalogs (``.po`` files, read and
written with polib), and the Spanish notebooks are generated from the English ones and the
catalogs, never edited by hand, as ``exercises/`` is from ``solutions/``:

- ``extract``: the units of every source, as templates ``locale/templates/<catalog>.pot``;
- ``update``: ``extract``, then each catalog ``locale/es/LC_MESSAGES/<catalog>.po`` brought in
  step with its template the way gettext's ``msgmerge`` does it (our merge, on polib: polib's own
  ``merge`` knows no fuzzy matching): a new unit is added untranslated, a changed one is matched
  to the old unit it most resembles (difflib's ratio at least :data:`FUZZY_RATIO`) and marked
  fuzzy with the old translation kept as the suggestion and the old English as ``#| msgid``, a
  removed one becomes obsolete (``#~``);
- ``build``: the Spanish notebooks ``es/start_here.ipynb``, ``es/lessons/``, ``es/solutions/``
  and ``es/exercises/`` (the exercises from the Spanish solutions by
  ``tools/make_exercises.py``'s own :func:`build_exercise`), the reference pages, and the
  library's catalogs (``chutes_edu/locale/es.json``,
  ``chutes_edu/widgets/js/core/messages_es.js``). A notebook whose translated source changed is
  executed again in a fresh kernel (as
  ``make resave`` does: the kernel's metadata, each picture once), so that its outputs are what
  its Spanish code prints; one whose source is unchanged keeps its outputs. A unit with no
  translation stays English: every notebook is generated, and ``check`` lists what is missing;
- ``check``: drift. A unit whose entry is missing, fuzzy or untranslated, or whose translation
  does not keep its formulas, code spans, link targets, placeholders and numbers, is reported
  with its notebook and its English sentence; so are generated files that are not what ``build``
  makes. The sources named in ``locale/es/COMPLETE`` must be clean (exit 1 otherwise); the others
  are listed as work to do (``--all`` makes them count too).

Catalogs: one per notebook (``lessons-01_waiting_for_heads.po``, ``solutions-01_...po``,
``start_here.po``), one for the reference pages (``lessons-reference.po``: toolbox, glossary,
sources) and ``chutes_edu.po``, the code's words: the texts that ``chutes_edu`` passes to
``gettext``, ``say`` and ``_say`` (and ``chutes_edu.board``'s ``_english``, the pieces of a
refusal), the checks' hints (``register(..., hint=...)``), the explorers' ``offline_summary``
and every ``t("...")`` of the front end; and ``book.po``, the website's own words: the units of its
page templates (``book/front.md``, ``book/playground.md``) and every ``_("...")`` of
``book/build.py``, its Sphinx extension and ``book/pdf.py`` (book/build.py reads it when it builds
the Spanish site); and ``site_hints.po``, the website's hints in words (``book/site_hints.toml``,
one entry per hint, its words on one line, read by book/answers.py): website words the library
never says, so kept out of ``chutes_edu.po`` and the package's ``es.json``. The entries from
``chutes_edu/board.py`` go to the front
end's catalog too (its board maths says the same refusals). An entry's ``#:`` lines say where its
unit is (``lessons/01_waiting_for_heads.ipynb:3`` is cell 3, ``book/site_hints.toml:1.1-check``
the hint of exercise 1.1's box), its ``#.`` line what kind it is.

What is a unit:

- markdown: each paragraph, heading, list item (with its continuation lines), table cell and
  ``<summary>``; a display formula ``$$...$$`` only when it has ``\\text{...}`` words. Formulas
  ``$...$``, code spans and links' targets stay verbatim inside their unit; a link's text and an
  image's alt text are translated with their paragraph. Solution markers, fences and HTML tags are
  never units;
- code cells: comments (consecutive full-line comments as one unit, re-wrapped to the line
  length), and the string literals students read: the positional strings of ``print``,
  ``describe``, ``set_title``, ``set_xlabel``, ``set_ylabel``, ``suptitle`` and ``Markdown``, and
  the strings given as ``label=``, ``title=``, ``xlabel=``, ``ylabel=``, ``unit=`` and ``what=``;
  inside those, the strings joined with ``+``, ``.join``, ``.format``, ``%``, ``... if ... else``
  or ``or``; and the rule for a string kept in a name first (``note = f"  (top of the chute to
  {j})"``, ``lines.append(f"...")``, ``note += "..."``, the items of a literal list or tuple a
  ``for`` or a comprehension runs over, directly or through ``enumerate``: ``for label, b in
  (("1943 board", board), ...)``, or kept in a name that is given it once and only ever run over,
  a dict by its keys, values or items (``for rule in plain_rules``), and the ``return`` values of
  a function the cell defines, its name standing for them): its strings are units when *every*
  use of the name in the same cell is where such a call shows it as it is (a piece of what it
  shows, or a placeholder's whole expression: ``f"{label:28s}"``; directly, or through another
  such name), so a name also used as a key, an index, an argument or an operand keeps its
  strings (the one exception, a dict only run over: its keys change together, and a translation
  must keep them apart). An f-string glued to plain strings
  (``f"... {x:+.2f}" " standard errors"``) is one unit. The docstrings of the functions and
  classes a cell defines are units too (re-wrapped like comments).
  Never a name, a number or a formula; a literal's ``{...}`` placeholders stay as they are, except
  the words of a literal a placeholder shows, padded or after ``or``
  (``f"{'largest eigenvalue:':64s} ..."``, ``f"{added or 'no jump'}"``), translated in place.

A piece of text is a unit only if it has a word: two letters or more, outside code, formulas,
links' targets and placeholders.

Usage: ``python tools/translations.py {extract,update,build,check} [--all] [--no-execute]``
"""

from __future__ import annotations

import argparse
import ast
import copy
import difflib
import io
import json
import os
import re
import sys
import textwrap
import tokenize
import tomllib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
import polib

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import make_exercises  # noqa: E402  (tools/ is no package)
import slim_notebook  # noqa: E402

LANGUAGE = "es"
LOCALE = ROOT / "locale"
TEMPLATES = LOCALE / "templates"
CATALOGS = LOCALE / LANGUAGE / "LC_MESSAGES"
COMPLETE = LOCALE / LANGUAGE / "COMPLETE"
OUT = ROOT / LANGUAGE
CODE_CATALOG = "chutes_edu"
# The website's own words (book/build.py reads book.po): its page templates, its scripts' _("...")
BOOK_CATALOG = "book"
BOOK_PAGES = ("book/front.md", "book/playground.md")
BOOK_SCRIPTS = ("book/build.py", "book/_ext/course_site.py", "book/pdf.py")
REFERENCE_CATALOG = "lessons-reference"
PY_MESSAGES = ROOT / "chutes_edu" / "locale" / f"{LANGUAGE}.json"
JS_MESSAGES = ROOT / "chutes_edu" / "widgets" / "js" / "core" / f"messages_{LANGUAGE}.js"
FUZZY_RATIO = 0.6
SETUP_LINES = (f'from chutes_edu.i18n import set_language\n\nset_language("{LANGUAGE}")  '
               "# el curso en español: las comprobaciones y los exploradores también\n\n")
DO_NOT_EDIT = "run `make translations` to regenerate (tools/translations.py)"

HEADER = """\
The course "Chutes and Ladders: a course in Markov chains" in Spanish.
This catalog is kept by tools/translations.py (`make translations`): translate the msgstr
entries; never edit the generated notebooks in es/. CONTRIBUTING.md, "Translations", says how.

Choices made once for the whole course:
- The student is addressed as "tú" (tienes, calcula, fíjate), never "usted".
- Decimal numbers keep the point of the code (0.5, 39.2251): the code prints them so.
- Formulas $...$, code spans `...`, links' targets (...), {placeholders} and numbers stay as
  they are (`check` compares them); link texts and alt texts are translated.
- Citations (titles of books, papers and posts) stay in their language.

Glossary (English -> the Spanish of probability textbooks):
  Chutes and Ladders       -> Toboganes y escaleras (the game; "Serpientes y escaleras" elsewhere)
  absorbing Markov chain   -> cadena de Markov absorbente
  absorbing state          -> estado absorbente
  transient state          -> estado transitorio
  transition matrix        -> matriz de transición
  fundamental matrix       -> matriz fundamental
  expected value, E[...]   -> esperanza, valor esperado
  mean / average           -> media / promedio
  variance                 -> varianza
  standard deviation       -> desviación típica
  quasi-stationary distr.  -> distribución cuasiestacionaria
  stationary distribution  -> distribución estacionaria
  first-step equation      -> ecuación de primer paso
  geometric distribution   -> distribución geométrica
  square (of the board)    -> casilla
  board                    -> tablero
  token                    -> ficha
  turn                     -> turno
  roll (of the die)        -> tirada
  die / dice               -> dado / dados
  ladder                   -> escalera
  chute                    -> tobogán
  coin flip, heads, tails  -> lanzamiento de moneda, cara, cruz
  seed                     -> semilla
  turn cap                 -> tope de turnos
  simulation, Monte Carlo  -> simulación, Monte Carlo
  exercise set             -> hoja de ejercicios
  worked solutions         -> soluciones resueltas
  hint                     -> pista
  explorer (widget)        -> explorador
  overshoot rule           -> regla de exceso ("overshoot wins" -> "pasarse gana")
  house rule               -> regla de la casa
  top of a chute           -> boca del tobogán
  foot of a ladder         -> pie de la escalera
  heat map                 -> mapa de calor
  solver                   -> resolvedor
  exact rational arithmetic -> aritmética racional exacta
  first player's edge      -> ventaja del primer jugador
  k-step probabilities     -> probabilidades a k pasos
"""

_MARKERS = (make_exercises.BEGIN, make_exercises.END, make_exercises.HIDDEN_BEGIN,
            make_exercises.HIDDEN_END)
_WORD = re.compile(r"[A-Za-z_\u00c0-\u024f][A-Za-z0-9_\u00c0-\u024f]*")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_DISPLAY_MATH = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\$)(.+?)(?<![\\$])\$", re.DOTALL)
_LINK_TARGET = re.compile(r"\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)\)")
_PLACEHOLDER = re.compile(r"\{[^{}\n]*\}")
# a placeholder that shows a literal (f"{'largest eigenvalue:':64s} ...", f"{added or 'none'}"):
# its words are read
_PADDED = re.compile(r"""\{([^{}'"\n]* or )?(['"])([^'"{}\n]*)\2((?:![rsa])?(?::[^'"{}\n]*)?)\}""")
_TEXT_IN_MATH = re.compile(r"\\text\{[^{}]*\}")
_NUMBER = re.compile(r"\d+")
_HTML_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])(\s+)")
_HEADING = re.compile(r"^(\s*#{1,6}\s+)(.*?)(\s*)$")
_SUMMARY = re.compile(r"^(\s*<summary>)(.*?)(</summary>\s*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TABLE_RULE = re.compile(r"^\s*\|[\s:|-]+\|\s*$")
_STRING_CALLS = {"print", "describe", "set_title", "set_xlabel", "set_ylabel", "suptitle",
                 "Markdown"}
_STRING_KEYWORDS = {"label", "title", "xlabel", "ylabel", "unit", "what"}
_CODE_CALLS = {"gettext", "_say", "_", "say", "_english"}
# the library's refusals that the board maths in the page says too (in the same English)
_SHARED_WITH_JS = frozenset({"chutes_edu/board.py"})
_COMMENT_SKIP = re.compile(r"^(noqa|type:|pragma|fmt:|isort:)")
# the front end's `t("...")` and `said("...")` (a pattern for a sentence the page's maths makes,
# said back by `t`), and the answer boxes' `tr("...")` (book/static/answers.js): its message one
# literal, or several joined by `+` over lines
_JS_LITERAL = r"\"(?:[^\"\\\n]|\\.)*\""
_JS_SAID = re.compile(rf"\bsaid\(\s*({_JS_LITERAL}(?:\s*\+\s*{_JS_LITERAL})*)")
_JS_MESSAGE = re.compile(rf"\b(?:t|tr|said)\(\s*({_JS_LITERAL}(?:\s*\+\s*{_JS_LITERAL})*)")
_JS_STRING = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"")
# English function words that Spanish does not have: their share of a Spanish page's words
_FUNCTION_WORDS = ("the of and to is are was were be been that this these those with for from by "
                   "it its which what when where how you your we our an on at if then than there "
                   "their they will would can not but or into does do have")
_ENGLISH_WORDS = frozenset(_FUNCTION_WORDS.split())


# --------------------------------------------------------------------------- units
@dataclass(frozen=True)
class Unit:
    """One piece of English text to translate: where it is in its cell and what it says."""

    text: str
    """The English, whitespace-normalised: the msgid."""
    start: int
    end: int
    """The span of the cell's source it replaces."""
    kind: str
    original: str
    """The source text of the span, as it is (a translation equal to ``text`` gives it back)."""
    indent: int = 0
    string: tuple[str, str, int] | None = None
    """For a string literal: its prefix, its quote and the column of its continuation lines."""
    bare: bool = False
    """For a string literal in no brackets: a translation over several lines gets parentheses."""


def _plain(text: str) -> str:
    """The words of ``text``: no code, formulas, link targets, placeholders or HTML tags."""
    text = _CODE_SPAN.sub(" ", text)
    text = _DISPLAY_MATH.sub(" ", text)
    text = _INLINE_MATH.sub(" ", text)
    text = _LINK_TARGET.sub("] ", text)
    text = _PADDED.sub(lambda m: f" {m[3]} ", text)
    text = _PLACEHOLDER.sub(" ", text)
    return _HTML_TAG.sub(" ", text)


def _has_words(text: str) -> bool:
    return any(len(w) >= 2 and w.replace("_", "").isalpha() and "_" not in w
               for w in _WORD.findall(_plain(text)))


def _normalise(text: str) -> str:
    return " ".join(text.split())


def _markdown_units(source: str) -> list[Unit]:
    """The units of a markdown cell (see the module's docstring)."""
    lines = source.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    units: list[Unit] = []

    def add(first: int, last: int, lead: int, trail: int, kind: str, words: bool = False) -> None:
        """Lines first..last (inclusive), without ``lead`` characters of the first and ``trail``
        of the last, as one unit."""
        begin = starts[first] + lead
        end = starts[last] + len(lines[last]) - trail
        original = source[begin:end]
        if original.strip() and (words or _has_words(original)):
            stripped = original.strip()
            begin += len(original) - len(original.lstrip())
            end -= len(original) - len(original.rstrip())
            units.append(Unit(_normalise(stripped), begin, end, kind, stripped))

    def starts_block(line: str) -> bool:
        stripped = line.strip()
        return (not stripped or bool(_LIST_ITEM.match(line)) or bool(_HEADING.match(line))
                or bool(_FENCE.match(line)) or stripped.startswith(("|", "$$", "<"))
                or stripped.startswith(_MARKERS))

    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        stripped = line.strip()
        if _FENCE.match(line):
            i += 1
            while i < n and not _FENCE.match(lines[i]):
                i += 1
            i += 1
        elif not stripped or stripped.startswith(_MARKERS):
            i += 1
        elif m := _SUMMARY.match(line):
            add(i, i, len(m[1]), len(m[3]), "summary")
            i += 1
        elif stripped.startswith("<") and _HTML_TAG.fullmatch(stripped):
            i += 1
        elif stripped.startswith("$$"):
            last = i
            if not (stripped.endswith("$$") and len(stripped) >= 4):
                last = i + 1
                while last < n and "$$" not in lines[last]:
                    last += 1
            last = min(last, n - 1)
            block = "\n".join(lines[i:last + 1])
            if _TEXT_IN_MATH.search(block) and any(
                    _has_words(t[6:-1]) for t in _TEXT_IN_MATH.findall(block)):
                add(i, last, 0, 0, "display formula with words", words=True)
            i = last + 1
        elif m := _HEADING.match(line):
            add(i, i, len(m[1]), len(m[3]), "heading")
            i += 1
        elif stripped.startswith("|"):
            if not _TABLE_RULE.match(line):
                column = starts[i]
                for cell in re.finditer(r"(?<!\\)\|([^|]*(?:\\\|[^|]*)*)(?=(?<!\\)\|)", line):
                    text = cell[1]
                    if text.strip() and _has_words(text):
                        lead = len(text) - len(text.lstrip())
                        begin = column + cell.start(1) + lead
                        units.append(Unit(_normalise(text), begin, begin + len(text.strip()),
                                          "table cell", text.strip()))
            i += 1
        else:
            m = _LIST_ITEM.match(line)
            last = i
            while last + 1 < n and not starts_block(lines[last + 1]):
                last += 1
            add(i, last, len(m[0]) if m else 0, 0, "list item" if m else "paragraph")
            i = last + 1
    return units


def _char_offsets(source: str) -> list[int]:
    starts = [0]
    for line in source.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    return starts


def _code_units(source: str) -> list[Unit]:
    """The comments and the read strings of a code cell (see the module's docstring)."""
    # IPython's % and ! lines are blanked (same length) so that Python parses the cell
    parsable = "\n".join(" " * len(line) if line.lstrip().startswith(("%", "!")) else line
                         for line in source.split("\n"))
    starts = _char_offsets(source)
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(parsable).readline))
        tree = ast.parse(parsable)
    except (SyntaxError, tokenize.TokenError):
        return []
    units: list[Unit] = []
    lines = source.split("\n")
    # comments: a run of full-line comments at one column is one unit
    run: list[tokenize.TokenInfo] = []

    def flush() -> None:
        if not run:
            return
        texts = [t.string.lstrip("#").strip() for t in run]
        text = " ".join(texts)
        if _has_words(text) and not _COMMENT_SKIP.match(text):
            first, last = run[0], run[-1]
            begin = starts[first.start[0] - 1] + first.start[1]
            end = starts[last.end[0] - 1] + last.end[1]
            units.append(Unit(_normalise(text), begin, end, "code comment", source[begin:end],
                              indent=first.start[1]))
        run.clear()

    for tok in tokens:
        if tok.type != tokenize.COMMENT:
            if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                flush()
            continue
        text = tok.string.lstrip("#").strip()
        if tok.string.strip().startswith(_MARKERS) or not text:
            flush()
            continue
        full_line = not lines[tok.start[0] - 1][:tok.start[1]].strip()
        if not full_line:
            flush()
            begin = starts[tok.start[0] - 1] + tok.start[1]
            end = starts[tok.end[0] - 1] + tok.end[1]
            if _has_words(text) and not _COMMENT_SKIP.match(text):
                units.append(Unit(_normalise(text), begin, end, "code comment",
                                  source[begin:end], indent=-1))
            continue
        if run and (tok.start[1] != run[-1].start[1] or tok.start[0] != run[-1].start[0] + 1):
            flush()
        run.append(tok)
    flush()
    # strings students read
    strings = [t for t in tokens if t.type == tokenize.STRING]
    byte_starts = [0]
    for line in parsable.split("\n"):
        byte_starts.append(byte_starts[-1] + len(line.encode()) + 1)

    def char_pos(lineno: int, col_bytes: int) -> int:
        line = parsable.split("\n")[lineno - 1]
        return starts[lineno - 1] + len(line.encode()[:col_bytes].decode())

    def unit_of(arg: ast.expr, kind: str = "string") -> Unit | None:
        assert arg.end_lineno is not None and arg.end_col_offset is not None
        begin = char_pos(arg.lineno, arg.col_offset)
        end = char_pos(arg.end_lineno, arg.end_col_offset)
        parts = [t for t in strings if begin <= starts[t.start[0] - 1] + t.start[1] < end]
        if kind == "docstring":
            return _docstring_unit(source, parts, begin, end)
        return _string_unit(source, parts, starts, begin, end, bare=_depth(tokens, parts) == 0)

    found: dict[int, Unit] = {}
    for literal in _read_strings(tree):
        unit = unit_of(literal)
        if unit is not None:
            found.setdefault(unit.start, unit)
    for literal in _docstrings(tree):
        unit = unit_of(literal, "docstring")
        if unit is not None:
            found.setdefault(unit.start, unit)
    units.extend(found.values())
    return sorted(units, key=lambda u: u.start)


_STRING_TOKEN = re.compile(r"^([A-Za-z]*)('''|\"\"\"|'|\")(.*)\2$", re.DOTALL)


def _shown(node: ast.expr, names: dict[str, list[ast.expr]] | None = None) -> list[ast.expr]:
    """The string literals whose words ``node`` shows: itself, the parts of a ``+``, the pieces
    given to ``.join`` and its separator (``" then ".join(...)``), both branches of ``... if ...
    else ...``, every operand of ``or`` and ``and``, the receiver of ``.format`` and of ``%``, the
    items of a list, tuple or comprehension, and (with ``names``) the strings given to a name it
    reads or returned by a function of the cell it calls. Never a string that is only a key, a
    name or an argument."""
    if isinstance(node, ast.Constant):
        return [node] if isinstance(node.value, str) else []
    if isinstance(node, ast.JoinedStr):
        return [node]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _shown(node.left, names) + _shown(node.right, names)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _shown(node.left, names)
    if isinstance(node, ast.IfExp):
        return _shown(node.body, names) + _shown(node.orelse, names)
    if isinstance(node, ast.BoolOp):
        return [s for value in node.values for s in _shown(value, names)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and names is not None:
        return [s for value in names.get(node.func.id, []) for s in _shown(value, names)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "join":
            return [s for arg in [node.func.value, *node.args] for s in _shown(arg, names)]
        if node.func.attr == "format":
            return _shown(node.func.value, names)
    if isinstance(node, ast.List | ast.Tuple):
        return [s for item in node.elts for s in _shown(item, names)]
    if isinstance(node, ast.ListComp | ast.GeneratorExp):
        return _shown(node.elt, names)
    if isinstance(node, ast.Name) and names is not None:
        return [s for value in names.get(node.id, []) for s in _shown(value, names)]
    return []


def _call_name(node: ast.Call) -> str:
    return (node.func.id if isinstance(node.func, ast.Name)
            else node.func.attr if isinstance(node.func, ast.Attribute) else "")


def _shown_names(node: ast.expr) -> list[ast.Name]:
    """The names whose values ``node`` shows as they are: where :func:`_shown` finds strings,
    and a placeholder's whole expression (``f"{label:28s}"``); a function of the cell it calls
    counts as its name. Never a name that is a key, an index, an argument or an operand."""
    if isinstance(node, ast.Name):
        return [node]
    if isinstance(node, ast.JoinedStr):
        return [n for v in node.values if isinstance(v, ast.FormattedValue)
                for n in _shown_names(v.value)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
        return _shown_names(node.left) + _shown_names(node.right)
    if isinstance(node, ast.IfExp):
        return _shown_names(node.body) + _shown_names(node.orelse)
    if isinstance(node, ast.BoolOp):
        return [n for value in node.values for n in _shown_names(value)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return [node.func]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "join":
            return [n for arg in [node.func.value, *node.args] for n in _shown_names(arg)]
        if node.func.attr == "format":
            return [n for arg in [node.func.value, *node.args] for n in _shown_names(arg)]
    if isinstance(node, ast.List | ast.Tuple):
        return [n for item in node.elts for n in _shown_names(item)]
    if isinstance(node, ast.ListComp | ast.GeneratorExp):
        return _shown_names(node.elt)
    return []


def _given(tree: ast.AST) -> dict[str, list[ast.expr]]:
    """What each name of a cell is given: its assignments (``note = ...``, ``note += ...``,
    ``lines.append(...)``), the items of a literal list or tuple a ``for`` (or a comprehension)
    runs over, directly or through ``enumerate`` (``for label, b in (("...", board), ...)``: each
    item's part for each name), or over such a literal kept in a name that is only ever run over
    (:func:`_kept_literals`: ``for rule in plain_rules``, ``plain_rules.items()``, a dict's
    keys), and for a function the cell defines, what its ``return`` statements return."""
    given: dict[str, list[ast.expr]] = {}
    kept = _kept_literals(tree)

    def loop(target: ast.expr, over: ast.expr) -> None:
        over = _literal_items(over, kept)
        if not isinstance(over, ast.List | ast.Tuple | ast.Set):
            return
        for item in over.elts:
            if isinstance(target, ast.Name):
                given.setdefault(target.id, []).append(item)
            elif (isinstance(target, ast.Tuple | ast.List)
                  and isinstance(item, ast.Tuple | ast.List)
                  and len(item.elts) == len(target.elts)):
                for name, part in zip(target.elts, item.elts, strict=True):
                    if isinstance(name, ast.Name):
                        given.setdefault(name.id, []).append(part)

    def returns(body: list[ast.stmt]) -> Iterator[ast.expr]:
        for statement in body:
            for node in _walk_function(statement):
                if isinstance(node, ast.Return) and node.value is not None:
                    yield node.value

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    given.setdefault(target.id, []).append(node.value)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign) and isinstance(
                node.target, ast.Name) and node.value is not None:
            given.setdefault(node.target.id, []).append(node.value)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "append" and isinstance(node.func.value, ast.Name)
              and len(node.args) == 1):
            given.setdefault(node.func.value.id, []).append(node.args[0])
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            loop(node.target, node.iter)
            # for i, label in enumerate(("...", ...)): the items go to the second name
            if (isinstance(node.iter, ast.Call) and _call_name(node.iter) == "enumerate"
                    and len(node.iter.args) == 1 and isinstance(node.target, ast.Tuple)
                    and len(node.target.elts) == 2):
                loop(node.target.elts[1], node.iter.args[0])
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            given.setdefault(node.name, []).extend(returns(node.body))
    return given


_LOOPED = ("keys", "values", "items")


def _kept_literals(tree: ast.AST) -> dict[str, ast.List | ast.Tuple | ast.Dict]:
    """The names a cell gives one literal list, tuple or dict, once, and uses only to run a
    ``for`` or a comprehension over (``for k in d``, ``d.keys()``, ``d.values()``,
    ``d.items()``): never looked up, passed on or changed, so their items read the same
    translated (a translation must keep a dict's keys apart)."""
    stores: Counter[str] = Counter()
    literal: dict[str, ast.List | ast.Tuple | ast.Dict] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] += 1
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.List | ast.Tuple | ast.Dict)):
            literal[node.targets[0].id] = node.value
    iterated: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            over = node.iter
            if (isinstance(over, ast.Call) and isinstance(over.func, ast.Attribute)
                    and over.func.attr in _LOOPED and not over.args and not over.keywords):
                over = over.func.value
            if isinstance(over, ast.Name):
                iterated.add(id(over))
    loads: dict[str, list[ast.Name]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            loads.setdefault(node.id, []).append(node)
    return {name: value for name, value in literal.items() if stores[name] == 1
            and loads.get(name) and all(id(n) in iterated for n in loads[name])}


def _literal_items(over: ast.expr, kept: dict[str, ast.List | ast.Tuple | ast.Dict]) -> ast.expr:
    """What a ``for`` runs over, a kept literal (:func:`_kept_literals`) read through its name:
    a list's or tuple's items, a dict's keys, values or (key, value) pairs."""
    how = "keys"
    if (isinstance(over, ast.Call) and isinstance(over.func, ast.Attribute)
            and over.func.attr in _LOOPED and not over.args and not over.keywords):
        how, over = over.func.attr, over.func.value
    if not isinstance(over, ast.Name) or over.id not in kept:
        return over
    value = kept[over.id]
    if not isinstance(value, ast.Dict):
        return value if how == "keys" else over
    keys = [k for k in value.keys if k is not None]
    if len(keys) != len(value.keys):                # a ** in the dict: nothing is known
        return over
    if how == "keys":
        return ast.List(elts=keys, ctx=ast.Load())
    if how == "values":
        return ast.List(elts=value.values, ctx=ast.Load())
    return ast.List(elts=[ast.Tuple(elts=[k, v], ctx=ast.Load())
                          for k, v in zip(keys, value.values, strict=True)], ctx=ast.Load())


def _walk_function(node: ast.AST) -> Iterator[ast.AST]:
    """``ast.walk`` of one statement of a function, not into the functions and lambdas it
    defines (their ``return`` is theirs)."""
    yield node
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
                          | ast.ClassDef):
            yield from _walk_function(child)


def _read_strings(tree: ast.AST) -> list[ast.expr]:
    """The string literals a cell shows a student (see the module's docstring).

    What ``print`` and its kin are given, through :func:`_shown`; and what a name is given
    (:func:`_given`: ``note = f"..."``, ``lines.append(f"...")``, ``note += "..."``, the items of
    a literal list a ``for`` runs over, a cell's function's ``return`` values) when every use of
    the name in the cell is where such a call shows it as it is (:func:`_shown_names`), directly
    or through other such names: a name used anywhere else (a key, an index, an argument, a
    comparison) may not change, so its strings are never units.
    """
    given = _given(tree)
    shown_args: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if _call_name(node) in _STRING_CALLS:
                shown_args += node.args
            shown_args += [k.value for k in node.keywords if k.arg in _STRING_KEYWORDS]
    # a name is read when every load of it is shown by a shown argument or a read name's value
    loads: dict[str, list[ast.Name]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            loads.setdefault(node.id, []).append(node)
    appended = {id(n.func.value) for n in ast.walk(tree) if isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute) and n.func.attr == "append"
                and isinstance(n.func.value, ast.Name)}
    read: set[str] = set()
    while True:
        inside = {id(n) for arg in shown_args for n in _shown_names(arg)}
        inside |= {id(n) for name in read for value in given[name] for n in _shown_names(value)}
        more = {name for name in given if name not in read and loads.get(name)
                and all(id(n) in inside or id(n) in appended for n in loads[name])
                and any(id(n) in inside for n in loads[name])}
        if not more:
            break
        read |= more
    chosen = {name: given[name] for name in read}
    out = [s for arg in shown_args for s in _shown(arg, chosen)]
    out += [s for name in sorted(read) for value in given[name] for s in _shown(value, chosen)]
    return list({id(s): s for s in out}.values())


def _docstrings(tree: ast.AST) -> list[ast.expr]:
    """The docstrings of the functions and classes a cell defines."""
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                found.append(first.value)
    return found


def _depth(tokens: list[tokenize.TokenInfo], parts: list[tokenize.TokenInfo]) -> int:
    """How many brackets are open where ``parts`` begin (0: a split string needs its own)."""
    if not parts:
        return 0
    depth = 0
    for tok in tokens:
        if tok.start >= parts[0].start:
            break
        if tok.type == tokenize.OP:
            depth += (tok.string in "([{") - (tok.string in ")]}")
    return depth


def _docstring_unit(source: str, parts: list[tokenize.TokenInfo], begin: int,
                    end: int) -> Unit | None:
    """A docstring as a unit: its words, whitespace-normalised like a comment's."""
    if len(parts) != 1 or (m := _STRING_TOKEN.match(parts[0].string)) is None:
        return None
    if not _has_words(m[3]):
        return None
    return Unit(_normalise(m[3]), begin, end, "docstring", source[begin:end],
                string=(m[1], m[2], parts[0].start[1]))


def _string_unit(source: str, parts: list[tokenize.TokenInfo], starts: list[int], begin: int,
                 end: int, bare: bool = False) -> Unit | None:
    """A string literal (one or more adjacent tokens) as a unit, if it can be one (``bare``: it
    is in no brackets, so a translation split over lines is put in parentheses)."""
    pieces = []
    prefixes = []
    for tok in parts:
        m = _STRING_TOKEN.match(tok.string)
        if m is None or len(m[2]) == 3:
            return None
        pieces.append((m[1].lower(), m[2], m[3]))
        prefixes.append(m[1])
    # an f-string glued to plain strings without braces (f"... {x:+.2f}" " standard errors")
    # is one f-string: the plain pieces read the same in it
    if {p[0] for p in pieces} == {"f", ""} and not any("{" in p[2] or "}" in p[2]
                                                       for p in pieces if not p[0]):
        pieces = [("f", quote, body) for _, quote, body in pieces]
        prefixes = [next(p for p in prefixes if p)] * len(prefixes)
    if not pieces or len({p[0] for p in pieces}) != 1 or len({p[1] for p in pieces}) != 1:
        return None
    text = "".join(p[2] for p in pieces)
    if not _has_words(text):
        return None
    prefix = prefixes[0]
    column = parts[1].start[1] if len(parts) > 1 else parts[0].start[1]
    return Unit(text, begin, end, "string", source[begin:end],
                string=(prefix, pieces[0][1], column), bare=bare)


# --------------------------------------------------------------------------- sources
@dataclass(frozen=True)
class Source:
    """An English page that is translated: its path under the repository and its catalog."""

    path: str
    catalog: str

    @property
    def notebook(self) -> bool:
        return self.path.endswith(".ipynb")


def sources() -> list[Source]:
    """Every translated English page, in the course's order."""
    found = [Source("start_here.ipynb", "start_here")]
    for folder in ("lessons", "solutions"):
        for path in sorted((ROOT / folder).glob("[0-9][0-9]_*.ipynb")):
            found.append(Source(f"{folder}/{path.name}", f"{folder}-{path.stem}"))
    for page in ("lessons/toolbox.ipynb", "lessons/glossary.md", "lessons/sources.md"):
        found.append(Source(page, REFERENCE_CATALOG))
    return found


def _cells(source: Source, root: Path = ROOT) -> list[tuple[str, str]]:
    """``(cell type, source)`` of each cell of a page (a markdown page is one markdown cell)."""
    path = root / source.path
    if not source.notebook:
        return [("markdown", path.read_text(encoding="utf-8"))]
    nb = nbformat.read(path, as_version=4)
    return [(c.cell_type, c.source) for c in nb.cells]


def units_of(cell_type: str, text: str) -> list[Unit]:
    """The units of one cell."""
    if cell_type == "markdown":
        return _markdown_units(text)
    if cell_type == "code":
        return _code_units(text)
    return []


@dataclass
class _Template:
    """A catalog's units in order: msgid -> occurrences and kind."""

    entries: dict[str, tuple[list[tuple[str, str]], str]] = field(default_factory=dict)

    def add(self, text: str, where: tuple[str, str], kind: str) -> None:
        places, _kind = self.entries.setdefault(text, ([], kind))
        if where not in places:
            places.append(where)


def _note(kind: str) -> str:
    if kind == "string":
        return "a string the code prints or draws: keep its {placeholders}, quotes escaped"
    if kind == "code comment":
        return "a comment in a code cell"
    if kind == "docstring":
        return "the docstring of a function in a code cell"
    return kind


def _code_messages(root: Path = ROOT) -> Iterator[tuple[str, str, int]]:
    """``(message, file, line)`` of every text the library says through its catalog."""
    package = root / "chutes_edu"
    # the website's answer boxes say their words through chutes_edu.i18n too
    book = [root / "book" / "answers.py", root / "book" / "practice.py"]
    for path in sorted(package.rglob("*.py")) + [p for p in book if p.is_file()]:
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign)
                     for t in n.targets if isinstance(t, ast.Name)
                     and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)}

        def texts(node: ast.AST, constants: dict[str, str] = constants) -> list[str]:
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                return [node.value]
            if isinstance(node, ast.IfExp):
                return texts(node.body, constants) + texts(node.orelse, constants)
            if isinstance(node, ast.Name) and node.id in constants:
                return [constants[node.id]]
            return []

        for node in ast.walk(tree):
            found: list[str] = []
            if isinstance(node, ast.Call):
                name = (node.func.id if isinstance(node.func, ast.Name)
                        else node.func.attr if isinstance(node.func, ast.Attribute) else "")
                if name in _CODE_CALLS and node.args:
                    found = texts(node.args[0])
                elif name == "register":
                    found = [t for k in node.keywords if k.arg == "hint" for t in texts(k.value)]
            elif isinstance(node, ast.ClassDef):
                found = [t for n in node.body if isinstance(n, ast.Assign)
                         for target in n.targets if isinstance(target, ast.Name)
                         and target.id == "offline_summary" for t in texts(n.value)]
            for text in found:
                yield text, rel, getattr(node, "lineno", 0)
    answers = root / "book" / "static" / "answers.js"
    front = sorted((package / "widgets" / "js").rglob("*.js")) + [answers] * answers.is_file()
    for path in front:
        rel = path.relative_to(root).as_posix()
        if path.name.startswith("messages_") or path.name == "i18n.js":
            continue
        text = path.read_text(encoding="utf-8")
        for m in _JS_MESSAGE.finditer(text):
            words = _js_literals(m)    # a long message: literals joined by `+` over lines
            if words:
                yield words, rel, text.count("\n", 0, m.start()) + 1


def templates(root: Path = ROOT) -> dict[str, _Template]:
    """Every catalog's units, fresh from the English (what ``extract`` writes)."""
    found: dict[str, _Template] = {}
    for source in sources():
        template = found.setdefault(source.catalog, _Template())
        for index, (cell_type, text) in enumerate(_cells(source, root)):
            for unit in units_of(cell_type, text):
                template.add(unit.text, (source.path, str(index)), unit.kind)
    code = found.setdefault(CODE_CATALOG, _Template())
    # the code's words by file, not line: an edit elsewhere in a module moves its lines, and
    # would otherwise make every catalog stale without a word changed
    for text, rel, _line in _code_messages(root):
        code.add(text, (rel, ""), "code")
    book = found.setdefault(BOOK_CATALOG, _Template())
    for text, rel, kind in _book_messages(root):
        book.add(text, (rel, ""), kind)
    hints = found.setdefault(HINTS_CATALOG, _Template())
    for text, where, kind in _hint_messages(root):
        hints.add(text, where, kind)
    return found


def _book_messages(root: Path = ROOT) -> Iterator[tuple[str, str, str]]:
    """``(message, file, kind)`` of every word the website's build writes into pages: the units
    of its page templates (:data:`BOOK_PAGES`) and the ``_("...")`` of its scripts
    (:data:`BOOK_SCRIPTS`), read by book/build.py from ``book.po`` when it builds a translation's
    site."""
    for page in BOOK_PAGES:
        for unit in _markdown_units((root / page).read_text(encoding="utf-8")):
            yield unit.text, page, unit.kind
    for script in BOOK_SCRIPTS:
        tree = ast.parse((root / script).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "_" and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                yield node.args[0].value, script, "a sentence the website's build writes"


# The website's hints in words (book/site_hints.toml, read by book/answers.py): a catalog of their
# own, as the library never says them (chutes_edu/locale/es.json stays the library's words)
HINTS_CATALOG = "site_hints"
SITE_HINTS = "book/site_hints.toml"
_HINT_KINDS = {"check": "the hint a website's answer box gives after a \"not yet\" (plain text)",
               "cell": "the hint under an exercise on the website (Markdown, $...$ maths)"}


def _hint_messages(root: Path = ROOT) -> Iterator[tuple[str, tuple[str, str], str]]:
    """``(message, (file, "<exercise>-<check|cell>"), kind)`` of every hint in words of the
    website: one entry per hint, its words on one line, as book/answers.py's ``hint_message``
    looks it up (a re-wrapped hint is the same entry; a changed one is drift naming it)."""
    path = root / SITE_HINTS
    if not path.is_file():
        return
    with path.open("rb") as file:
        hints = tomllib.load(file)
    for exercise, fields in hints.items():
        for name in ("check", "cell"):
            if isinstance(fields.get(name), str):
                yield (" ".join(fields[name].split()), (SITE_HINTS, f"{exercise}-{name}"),
                       _HINT_KINDS[name])


def _new_catalog(name: str) -> polib.POFile:
    po = polib.POFile(wrapwidth=100)
    po.header = HEADER
    po.metadata = {"Project-Id-Version": f"chutes_edu {name}", "Language": LANGUAGE,
                   "MIME-Version": "1.0", "Content-Type": "text/plain; charset=UTF-8",
                   "Content-Transfer-Encoding": "8bit",
                   "Plural-Forms": "nplurals=2; plural=(n != 1);"}
    return po


def _pot(name: str, template: _Template) -> polib.POFile:
    pot = _new_catalog(name)
    pot.header = f"The English units of {name} (tools/translations.py extract): do not edit."
    pot.metadata["Language"] = ""
    for text, (places, kind) in template.entries.items():
        pot.append(polib.POEntry(msgid=text, msgstr="", occurrences=list(places),
                                 comment=_note(kind)))
    return pot


def extract(root: Path = ROOT) -> dict[str, polib.POFile]:
    """Write ``locale/templates/<catalog>.pot`` for every catalog; return them."""
    out = {name: _pot(name, t) for name, t in templates(root).items()}
    (root / TEMPLATES.relative_to(ROOT)).mkdir(parents=True, exist_ok=True)
    for name, pot in out.items():
        pot.save(str(root / TEMPLATES.relative_to(ROOT) / f"{name}.pot"))
    return out


def merge(po: polib.POFile, pot: polib.POFile) -> polib.POFile:
    """``po`` brought in step with ``pot``, as msgmerge does (see the module's docstring).

    Parameters
    ----------
    po : polib.POFile
        The catalog as translators left it.
    pot : polib.POFile
        The fresh template.

    Returns
    -------
    polib.POFile
        A new catalog: ``pot``'s entries in ``pot``'s order, each with its translation, a fuzzy
        suggestion or nothing; then the obsolete ones.
    """
    out = _new_catalog(pot.metadata["Project-Id-Version"].split(" ", 1)[-1])
    out.header = po.header or HEADER
    live = {e.msgid: e for e in po if not e.obsolete}
    dead = {e.msgid: e for e in po.obsolete_entries()}
    wanted = {e.msgid for e in pot}
    unused = [e for e in live.values() if e.msgid not in wanted and e.msgstr]
    used: set[str] = set()
    for fresh in pot:
        entry = polib.POEntry(msgid=fresh.msgid, occurrences=fresh.occurrences,
                              comment=fresh.comment)
        old = live.get(fresh.msgid) or dead.get(fresh.msgid)
        if old is not None:
            entry.msgstr = old.msgstr
            entry.flags = [f for f in old.flags if f == "fuzzy"]
            entry.previous_msgid = old.previous_msgid if entry.flags else None
            entry.tcomment = old.tcomment
        else:
            best, ratio = None, FUZZY_RATIO
            for candidate in unused:
                score = difflib.SequenceMatcher(None, candidate.msgid, fresh.msgid).ratio()
                if score >= ratio:
                    best, ratio = candidate, score
            if best is not None:
                entry.msgstr = best.msgstr
                entry.flags = ["fuzzy"]
                entry.previous_msgid = best.msgid
                used.add(best.msgid)
        out.append(entry)
    for old in [*unused, *dead.values()]:
        if old.msgid in used or old.msgid in wanted or not old.msgstr:
            continue
        gone = polib.POEntry(msgid=old.msgid, msgstr=old.msgstr, obsolete=True)
        out.append(gone)
    return out


def update(root: Path = ROOT) -> list[str]:
    """``extract``, then merge every catalog with its template; the catalogs' names."""
    pots = extract(root)
    folder = root / CATALOGS.relative_to(ROOT)
    folder.mkdir(parents=True, exist_ok=True)
    for name, pot in pots.items():
        path = folder / f"{name}.po"
        po = polib.pofile(str(path), wrapwidth=100) if path.exists() else _new_catalog(name)
        merged = merge(po, pot)
        merged.save(str(path))
    return sorted(pots)


def catalog(name: str, root: Path = ROOT) -> polib.POFile:
    """The Spanish catalog ``name`` (an empty one if it does not exist yet)."""
    path = root / CATALOGS.relative_to(ROOT) / f"{name}.po"
    return polib.pofile(str(path), wrapwidth=100) if path.exists() else _new_catalog(name)


def usable_translations(po: polib.POFile | Path) -> dict[str, str]:
    """English -> translation of a catalog (or of the catalog at a path): its entries translated,
    neither fuzzy nor obsolete. What the builds say (the website's, the PDF's, the notebooks'); the
    rest stays English, and ``check`` reports it."""
    entries = polib.pofile(str(po)) if isinstance(po, Path) else po
    return {e.msgid: e.msgstr for e in entries if e.msgstr and not e.fuzzy and not e.obsolete}


# --------------------------------------------------------------------------- verbatim parts
def verbatim(text: str) -> Counter[str]:
    """What a translation must keep: formulas (their ``\\text{}`` words aside), code spans,
    links' targets, placeholders and numbers, each as many times. A placeholder that shows a
    literal keeps its code, quotes and format, not its words (``{'...':64s}``,
    ``{added or '...'}``)."""
    kept: Counter[str] = Counter()
    rest = text
    for m in _PADDED.finditer(rest):
        kept[f"placeholder {{{m[1] or ''}{m[2]}...{m[2]}{m[4]}}}"] += 1
    rest = _PADDED.sub(lambda m: f" {m[3]} ", rest)
    for pattern, tag in ((_CODE_SPAN, "code"), (_DISPLAY_MATH, "math"), (_INLINE_MATH, "math"),
                         (_LINK_TARGET, "link"), (_PLACEHOLDER, "placeholder")):
        for m in pattern.finditer(rest):
            body = m[2] if tag == "code" else m[1] if tag != "placeholder" else m[0]
            if tag == "math":
                body = _TEXT_IN_MATH.sub(r"\\text{}", " ".join(body.split()))
            kept[f"{tag} {body}"] += 1
        rest = pattern.sub(" ", rest)
    for number in _NUMBER.findall(rest):
        kept[f"number {number}"] += 1
    return kept


def verbatim_problem(msgid: str, msgstr: str) -> str:
    """What a translation changed that it must keep ("" if nothing)."""
    before, after = verbatim(msgid), verbatim(msgstr)
    if before == after:
        return ""
    lost = sorted((before - after).elements())
    added = sorted((after - before).elements())
    words = []
    if lost:
        words.append("lost " + ", ".join(lost))
    if added:
        words.append("added " + ", ".join(added))
    return "; ".join(words)


# --------------------------------------------------------------------------- building
def _split_string(text: str, width: int) -> list[str]:
    """``text`` in chunks of about ``width`` characters, cut after spaces outside ``{...}``."""
    chunks, current, depth, last_space = [], "", 0, -1
    for ch in text:
        current += ch
        depth += (ch == "{") - (ch == "}")
        if ch == " " and depth == 0:
            last_space = len(current)
        if len(current) > width and last_space > 0:
            chunks.append(current[:last_space])
            current, last_space = current[last_space:], -1
    chunks.append(current)
    return [c for c in chunks if c]


def _render(unit: Unit, said: str) -> str:
    """The source text that replaces ``unit`` when it is translated as ``said``."""
    if said == unit.text:
        return unit.original
    if unit.kind == "code comment":
        if unit.indent < 0:
            return "# " + said
        width = max(40, 100 - unit.indent - 2)
        pad = " " * unit.indent
        return ("\n" + pad).join("# " + line for line in textwrap.wrap(said, width))
    if unit.string is not None:
        prefix, quote, column = unit.string
        if quote in said.replace("\\" + quote, ""):
            raise ValueError(f"the translation of {unit.text!r} has a bare {quote}: "
                             f"write \\{quote}")
        if unit.kind == "docstring":
            if said.endswith(quote[0]):
                raise ValueError(f"the translation of {unit.text!r} ends in {quote[0]}")
            lines = textwrap.wrap(said, max(40, 100 - column - len(prefix) - 6))
            return prefix + quote + ("\n" + " " * column).join(lines) + quote
        if unit.bare:
            column += 1
        chunks = _split_string(said, max(30, 100 - column - len(prefix) - 3))
        joined = ("\n" + " " * column).join(f"{prefix}{quote}{c}{quote}" for c in chunks)
        return f"({joined})" if unit.bare and len(chunks) > 1 else joined
    return said


def translate_text(cell_type: str, text: str, said: dict[str, str]) -> str:
    """A cell's source with every unit that ``said`` translates replaced."""
    out = text
    for unit in sorted(units_of(cell_type, text), key=lambda u: u.start, reverse=True):
        if unit.text in said:
            out = out[:unit.start] + _render(unit, said[unit.text]) + out[unit.end:]
    return out


def _lab_anchor(heading: str) -> str:
    return heading.strip().replace(" ", "-")


def _github_anchor(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _heading_texts(text: str) -> list[str]:
    found, fenced = [], False
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := _HEADING.match(line)):
            found.append(re.sub(r"[*_`]", "", m[2]))
    return found


def _anchors(english: list[str], spanish: list[str]) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for en, es in zip(english, spanish, strict=False):
        pairs.setdefault(_lab_anchor(en), _lab_anchor(es))
        pairs.setdefault(_github_anchor(en), _github_anchor(es))
    return pairs


def _relink(text: str, page: str, generated: set[str], anchors: dict[str, dict[str, str]]) -> str:
    """Relative links of a Spanish page: to a Spanish page when there is one (its anchor too),
    else back to the English page."""
    here = Path(page).parent

    def fix(m: re.Match[str]) -> str:
        target = m[1]
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
            return m[0]
        path, _, fragment = target.partition("#")
        resolved = os.path.normpath(here / path).replace(os.sep, "/") if path else page
        if resolved in generated:
            if fragment:
                fragment = anchors.get(resolved, {}).get(fragment, fragment)
            return f"]({path}{'#' + fragment if fragment else ''})"
        back = os.path.relpath(ROOT / resolved, ROOT / LANGUAGE / here).replace(os.sep, "/")
        return f"]({back}{'#' + fragment if fragment else ''})"

    return _LINK_TARGET.sub(fix, text)


def _set_up(nb: Any) -> None:
    """The language line at the top of the first code cell."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.source = SETUP_LINES + cell.source
            return


def _page_sources(root: Path = ROOT) -> dict[str, tuple[Source, list[tuple[str, str]]]]:
    return {s.path: (s, _cells(s, root)) for s in sources()}


def translated_pages(root: Path = ROOT) -> dict[str, Any]:
    """Every Spanish page, sources only: ``es/...`` path -> notebook (or markdown text).

    Exercise sets come from the Spanish solutions (``make_exercises.build_exercise``); nothing
    is executed.
    """
    pages = _page_sources(root)
    said = {name: usable_translations(catalog(name, root)) for name in {s.catalog for s, _ in
                                                                 pages.values()}}
    generated = set(pages) | {_exercise_of(p) for p in pages if p.startswith("solutions/")}
    texts: dict[str, list[tuple[str, str]]] = {}
    anchors: dict[str, dict[str, str]] = {}
    for path, (source, cells) in pages.items():
        words = said[source.catalog]
        texts[path] = [(kind, translate_text(kind, text, words)) for kind, text in cells]
        english = [h for kind, text in cells if kind == "markdown" for h in _heading_texts(text)]
        spanish = [h for kind, text in texts[path] if kind == "markdown"
                   for h in _heading_texts(text)]
        anchors[path] = _anchors(english, spanish)
    out: dict[str, Any] = {}
    for path, (source, _) in pages.items():
        cells = [(kind, _relink(text, path, generated, anchors) if kind == "markdown" else text)
                 for kind, text in texts[path]]
        if not source.notebook:
            out[path] = cells[0][1] if path != GLOSSARY_PAGE else alphabetical_glossary(cells[0][1])
            continue
        nb = nbformat.read(root / path, as_version=4)
        for cell, (_, text) in zip(nb.cells, cells, strict=True):
            cell.source = text
            if cell.cell_type == "code":
                cell.outputs = []
                cell.execution_count = None
            cell.metadata.pop("execution", None)
        nb.metadata.pop("widgets", None)
        _set_up(nb)
        nb.metadata["chutes_edu"] = {"language": LANGUAGE, "generated_from": path,
                                     "do_not_edit": DO_NOT_EDIT}
        out[path] = nb
        if path.startswith("solutions/"):
            stem = Path(path).stem
            exercise = make_exercises.build_exercise(nb, stem)
            target = _exercise_of(path)
            exercise.metadata["chutes_edu"] = {
                "language": LANGUAGE, "generated_from": f"{LANGUAGE}/{path}",
                "do_not_edit": DO_NOT_EDIT,
                "content_hash": exercise.metadata["chutes_edu"]["content_hash"]}
            out[target] = exercise
    return out


GLOSSARY_PAGE = "lessons/glossary.md"
_LETTER = re.compile(r"^## \S+$")
_TERM = re.compile(r"^### (?P<term>.+)$")


def _collation_key(term: str) -> tuple[str, str]:
    """A term's place in a Spanish dictionary: accents ignored (but ``ñ`` after ``n``), case
    ignored, then the term itself to break ties."""
    import unicodedata

    folded = term.casefold().replace("ñ", "n\uffff")
    plain = "".join(c for c in unicodedata.normalize("NFD", folded)
                    if unicodedata.category(c) != "Mn")
    return plain, term


def _letter(term: str) -> str:
    first = term.strip()[0]
    return "Ñ" if first in "ñÑ" else _collation_key(first)[0][0].upper()


def alphabetical_glossary(text: str) -> str:
    """The translated glossary with its entries (``### term`` and its definition) in the
    alphabetical order of the translated terms, under the letters they begin with (translated
    in place, they keep the English order: "cadena absorbente" under A).

    The text before the first letter heading stays first; a letter with no entry is left out.
    """
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if _LETTER.match(line)), None)
    if first is None:
        return text
    head, entries = lines[:first], []
    for line in lines[first:]:
        if (match := _TERM.match(line)) is not None:
            entries.append((match["term"], [line]))
        elif entries and not _LETTER.match(line):
            entries[-1][1].append(line)
    entries.sort(key=lambda entry: _collation_key(entry[0]))
    out, letter = [*head], None
    while out and not out[-1].strip():
        out.pop()
    for term, body in entries:
        while body and not body[-1].strip():
            body.pop()
        if _letter(term) != letter:
            letter = _letter(term)
            out.extend(["", f"## {letter}"])
        out.extend(["", *body])
    return "\n".join(out) + "\n"


def _exercise_of(solution: str) -> str:
    """``solutions/NN_solutions_slug.ipynb`` -> ``exercises/NN_exercises_slug.ipynb``."""
    return "exercises/" + Path(solution).name.replace("_solutions_", "_exercises_")


def same_source(a: Any, b: Any) -> bool:
    """Whether two notebooks have the same cells as a person writes them (outputs aside)."""
    return bool(make_exercises.content_hash(a) == make_exercises.content_hash(b)
                and a.metadata.get("chutes_edu") == b.metadata.get("chutes_edu"))


def _executed(nb: Any, path: str, english: Any) -> Any:
    """``nb`` run in a fresh kernel in its folder, saved the course's way."""
    from chutes_edu.variants import SECRET_VARIABLE, STUDENT_ID_VARIABLES

    folder = OUT / Path(path).parent
    folder.mkdir(parents=True, exist_ok=True)
    make_exercises.run_notebook(nb, folder,
                                **dict.fromkeys((*STUDENT_ID_VARIABLES, SECRET_VARIABLE)))
    for key in ("kernelspec", "language_info"):
        if key in english.metadata:
            nb.metadata[key] = copy.deepcopy(english.metadata[key])
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    return slim_notebook.slim(nb)


def _js_literals(match: re.Match[str]) -> str:
    """The words of a matched ``t(...)`` or ``said(...)``: its literals joined."""
    return "".join(json.loads(f'"{piece}"') for piece in _JS_STRING.findall(match[1]))


def _said_back(root: Path = ROOT) -> set[str]:
    """The front end's patterns: the messages of its ``said("...")`` calls (sentences its maths
    makes, said back by pattern: js/core/i18n.js)."""
    found: set[str] = set()
    for path in sorted((root / "chutes_edu" / "widgets" / "js").rglob("*.js")):
        found.update(_js_literals(m) for m in _JS_SAID.finditer(path.read_text(encoding="utf-8")))
    return found


def _message_files(root: Path = ROOT) -> dict[Path, str]:
    """The library's catalogs for Python and the front end, as ``build`` writes them.

    The front end's holds the entries it uses, and, as ``patterns``, those it may say back by
    pattern (js/core/i18n.js): the library's refusals its board maths makes too, and its own
    ``said(...)``; never a template of its own ``t(...)`` such as ``"{a} to {b}"``, which would
    match, and garble, any sentence with a " to " in it.
    """
    po = catalog(CODE_CATALOG, root)
    said = dict(sorted(usable_translations(po).items()))
    # the explorers' words (book/static/answers.js gets its own from the page: book/answers.py)
    js = {e.msgid for e in po if any((f.startswith("chutes_edu/") and f.endswith(".js"))
                                     or f in _SHARED_WITH_JS for f, _ in e.occurrences)}
    shared = {e.msgid for e in po if any(f in _SHARED_WITH_JS for f, _ in e.occurrences)}
    data = {"language": LANGUAGE, "generated_from": f"locale/{LANGUAGE}/LC_MESSAGES/"
            f"{CODE_CATALOG}.po", "do_not_edit": DO_NOT_EDIT, "messages": said}
    front = {k: v for k, v in said.items() if k in js}
    patterns = sorted(k for k in front if "{" in k and (k in shared or k in _said_back(root)))
    body = json.dumps({"language": LANGUAGE, "messages": front, "patterns": patterns},
                      ensure_ascii=False, indent=1)
    return {root / PY_MESSAGES.relative_to(ROOT): json.dumps(data, ensure_ascii=False, indent=1)
            + "\n",
            root / JS_MESSAGES.relative_to(ROOT):
                f"// Generated by `tools/translations.py build` from locale/{LANGUAGE}/"
                f"LC_MESSAGES/{CODE_CATALOG}.po: do not edit.\n"
                f"export default {body};\n"}


def build(execute: bool = True, only: Iterable[str] = ()) -> list[str]:
    """Write the Spanish pages and the library's catalogs; the paths written.

    Parameters
    ----------
    execute : bool
        Run the notebooks whose source changed (else they are saved without outputs).
    only : iterable of str
        English paths (``lessons/01_waiting_for_heads.ipynb``) to limit the build to; exercise
        sets follow their solutions.
    """
    wanted = set(only)
    written = []
    for file, text in _message_files().items():
        if not file.exists() or file.read_text(encoding="utf-8") != text:
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(text, encoding="utf-8")
            written.append(file.relative_to(ROOT).as_posix())
    pages = translated_pages()
    executed: dict[str, Any] = {}
    for path in sorted(pages, key=lambda p: p.startswith("exercises/")):
        origin = path.replace("exercises/", "solutions/").replace("_exercises_", "_solutions_")
        if wanted and path not in wanted and origin not in wanted:
            continue
        target = OUT / path
        page = pages[path]
        if isinstance(page, str):
            if not target.exists() or target.read_text(encoding="utf-8") != page:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(page, encoding="utf-8")
                written.append(f"{LANGUAGE}/{path}")
            continue
        old = nbformat.read(target, as_version=4) if target.exists() else None
        # an unchanged source keeps its outputs (one saved without them is run now)
        ran = old is not None and (not execute or path.startswith("exercises/")
                                   or make_exercises._has_outputs(old))
        if old is not None and ran and same_source(old, page):
            continue
        if path.startswith("exercises/"):
            nb = page
        elif execute:
            print(f"executing {LANGUAGE}/{path}", flush=True)
            nb = _executed(page, path, nbformat.read(ROOT / path, as_version=4))
            executed[path] = nb
        else:
            nb = page
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target)
        written.append(f"{LANGUAGE}/{path}")
    return written


# --------------------------------------------------------------------------- checking
def complete_sources(root: Path = ROOT) -> list[str]:
    """The English paths that must be fully translated (``locale/es/COMPLETE``)."""
    path = root / COMPLETE.relative_to(ROOT)
    if not path.exists():
        return []
    return [line.split("#")[0].strip() for line in path.read_text(encoding="utf-8").split("\n")
            if line.split("#")[0].strip()]


@dataclass(frozen=True)
class Problem:
    """A unit that the catalogs do not translate well, or a generated file out of date."""

    page: str
    what: str
    sentence: str = ""

    def __str__(self) -> str:
        shown = self.sentence if len(self.sentence) <= 120 else self.sentence[:117] + "..."
        return f"{self.page}: {self.what}" + (f": “{shown}”" if shown else "")


def problems(root: Path = ROOT, fresh: dict[str, _Template] | None = None) -> list[Problem]:
    """Every unit that is missing, fuzzy, untranslated or changes what it must keep, by page."""
    found: list[Problem] = []
    fresh = templates(root) if fresh is None else fresh
    for name, template in fresh.items():
        po = catalog(name, root)
        entries = {e.msgid: e for e in po if not e.obsolete}
        for text, (places, _kind) in template.entries.items():
            pages = sorted({page for page, _ in places})
            entry = entries.get(text)
            what = ("missing from the catalog" if entry is None else
                    "fuzzy (the English changed: check the suggestion)" if entry.fuzzy else
                    "untranslated" if not entry.msgstr else "")
            if not what and entry is not None:
                change = verbatim_problem(text, entry.msgstr)
                what = f"the translation changes what it must keep ({change})" if change else ""
            if what:
                found.extend(Problem(page, what, text) for page in pages)
    return found


def stale_files(root: Path = ROOT) -> list[Problem]:
    """Generated files that are not what ``build`` (sources only) makes."""
    found: list[Problem] = []
    for file, text in _message_files(root).items():
        if not file.exists() or file.read_text(encoding="utf-8") != text:
            found.append(Problem(file.relative_to(root).as_posix(),
                                 "not what the catalog builds: run `make translations`"))
    for path, page in translated_pages(root).items():
        target = root / LANGUAGE / path
        label = f"{LANGUAGE}/{path}"
        if not target.exists():
            found.append(Problem(label, "not generated yet: run `make translations`"))
        elif isinstance(page, str):
            if target.read_text(encoding="utf-8") != page:
                found.append(Problem(label, "not what the catalogs build: run `make translations`"))
        elif not same_source(nbformat.read(target, as_version=4), page):
            found.append(Problem(label, "not what the catalogs build: run `make translations`"))
    return found


def _origin(problem: Problem) -> str:
    """The English source a problem belongs to (an es/ file's English page)."""
    page = problem.page
    if page.startswith(f"{LANGUAGE}/"):
        page = page[len(LANGUAGE) + 1:]
        if page.startswith("exercises/"):
            page = page.replace("exercises/", "solutions/").replace("_exercises_", "_solutions_")
    return page


def check(everything: bool = False) -> int:
    """Print the drift; 1 if a page that must be complete has any (every page with ``--all``)."""
    complete = set(complete_sources())
    fresh = templates()
    listed = problems(fresh=fresh) + stale_files()
    for name, template in fresh.items():
        pot = TEMPLATES / f"{name}.pot"
        wanted = _pot(name, template).__unicode__()
        if not pot.exists() or pot.read_text(encoding="utf-8") != wanted:
            listed.append(Problem(pot.relative_to(ROOT).as_posix(),
                                  "not the English's units: run `make translations`"))
    # a generated file out of date fails whatever the page: `make translations` mends it
    failing = [p for p in listed if everything or _origin(p) in complete
               or "make translations" in p.what]
    todo = Counter(_origin(p) for p in listed if p not in failing)
    for problem in failing:
        print(problem)
    if todo:
        print(f"not yet translated (not in {COMPLETE.relative_to(ROOT)}): "
              + ", ".join(f"{page} ({n})" for page, n in sorted(todo.items())))
    return 1 if failing else 0


def english_share(text: str) -> float:
    """The share of English function words among the words of ``text`` (code and maths aside)."""
    words = [w.lower() for w in _WORD.findall(_plain(text)) if w.isalpha()]
    return sum(w in _ENGLISH_WORDS for w in words) / len(words) if words else 0.0


def sentences(texts: Iterable[str]) -> set[str]:
    """The pieces of ``texts`` between ``{placeholders}`` that are sentences (three words or more):
    what a page in another language must not show (the tests look for them there)."""
    return {piece.strip() for text in texts for piece in re.split(r"\{\w+\}", text)
            if len(re.findall(r"[^\W\d_]{2,}", piece)) >= 3}


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("extract", "update", "build", "check"))
    parser.add_argument("--all", action="store_true", help="check: every page must be complete")
    parser.add_argument("--no-execute", action="store_true",
                        help="build: save changed notebooks without running them")
    parser.add_argument("pages", nargs="*", help="build: only these English pages")
    args = parser.parse_args(argv)
    if args.command == "extract":
        print(f"wrote {len(extract())} templates into {TEMPLATES.relative_to(ROOT)}")
    elif args.command == "update":
        names = update()
        print(f"updated {len(names)} catalogs in {CATALOGS.relative_to(ROOT)}")
    elif args.command == "build":
        for path in build(execute=not args.no_execute, only=args.pages):
            print(f"wrote {path}")
    else:
        return check(args.all)
    return 0


if __name__ == "__main__":
    sys.exit(main())
