"""The course on paper (``make pdf``, book/pdf.py): tagged PDFs printed by Chromium from the website.

The website built once for the site's tests (tests/conftest.py) is printed as ``make pdf`` prints
it: ``course.pdf`` (the start page, every lesson and exercise set, the toolbox, the glossary, the
sources and the index) and, through the same command
line, two chapters' own PDFs (a lesson with a live board editor, and a set's worked solutions as
``SOLUTIONS=1`` prints them), not all thirty-seven: the loop is the same for each. Then, read back
with pikepdf and Poppler's pdftotext:

- tagged: ``/MarkInfo /Marked true`` and a structure tree, in which every ``Figure`` has its
  ``/Alt`` text (a picture's alt text from the website, a formula's words from its MathML);
- a language (``/Lang``), the title in the document information and XMP, shown as the window's
  title (``/ViewerPreferences /DisplayDocTitle``);
- bookmarks: one per chapter, in the course's order, with each chapter's sections under it, in
  the headings' own words; each chapter begins on a new page;
- the text holds the numbers the library computes (the 1943 board's expected length), the page
  numbers, the solutions' rubrics, and no raw TeX, test or solution plumbing, or "Loading widget";
- the whole course (course.pdf read once, in pdftotext's layout mode): the reference pages are
  chapters, every link of a lesson or exercise set to the toolbox or the glossary is a link inside
  the PDF to a page of that chapter, the text holds a formula's words, a hint's text and a glossary
  term's definition, every page number of the index is the page its place is on and says the
  entry's words, no page is empty and none ends with the code of an explorer printed on the next
  page; each explorer is printed as a still of its state (no form control in the structure tree,
  the board explorer's list of jumps whole). Each ``check_*`` below takes
  a :class:`Course`, so that it can be run on any PDF printed like course.pdf: on the course.pdf
  printed before these were built, each of them fails.

What this does not check (ACCESSIBILITY.md): conformance to PDF/UA, for which no validator is
available here, and the reading order of every page.
"""

from __future__ import annotations

import functools
import html
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from chutes_edu import MILTON_BRADLEY_1943, expected_turns
from chutes_edu.course import GLOSSARY, SOURCES, TOOLBOX, course_lessons

from .conftest import site_missing

ROOT = Path(__file__).resolve().parent.parent
PRINT_TIMEOUT = 900       # seconds for course.pdf and a chapter on a busy machine
COURSE_TITLE = "Chutes and Ladders: a course in Markov chains"
LESSON = "lessons/02_board_as_equations"          # a live board editor, maths, pictures
INDEX = "genindex"                                 # the site's index: course.pdf's last chapter
SOLUTIONS = "solutions/02_solutions_board_as_equations"
# What a reader must never see in print.
RAW_TEX = re.compile(r"\$\$|\\frac|\\begin\{|\\\(|\\\[|\\mathbb|\\sum")
PLUMBING = re.compile(r"Loading widget|BEGIN SOLUTION|END SOLUTION|HIDDEN TESTS|nbval")


def _requirements() -> str | None:
    why = site_missing()
    if why is not None:
        return why
    if importlib.util.find_spec("pikepdf") is None:
        return "pikepdf is not installed (pip install -e '.[test]')"
    if shutil.which("pdftotext") is None:
        return "Poppler's pdftotext is missing (apt-get install poppler-utils)"
    return None


pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(_requirements() is not None, reason=str(_requirements()))]


def _make_pdf(site: Path, out: Path, *args: str, solutions: bool = False) -> str:
    """book/pdf.py as `make pdf` runs it (SOLUTIONS in the environment), the English only (the
    Spanish is printed by tests/test_site_es.py); its output."""
    env = {**os.environ, "SOLUTIONS": "1" if solutions else ""}
    done = subprocess.run([sys.executable, str(ROOT / "book" / "pdf.py"), "--site", str(site),
                           "--out", str(out), "--language", "en", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=PRINT_TIMEOUT)
    assert done.returncode == 0, f"book/pdf.py failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def printed(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """course.pdf and the lesson's PDF, then the worked solutions' PDF (SOLUTIONS=1)."""
    out = tmp_path_factory.mktemp("pdf")
    _make_pdf(site, out, "--only", LESSON)
    _make_pdf(site, out, "--no-course", "--only", SOLUTIONS, solutions=True)
    return out


def _chapters() -> list[str]:
    """The pages of course.pdf, in order: the start page, each lesson and its exercise set, the
    toolbox, the glossary, the sources and the index."""
    return ["index", *(path.with_suffix("").as_posix() for lesson in course_lessons(ROOT)
                       for path in (lesson.lesson, lesson.exercises) if (ROOT / path).exists()),
            *(path.with_suffix("").as_posix() for path in (TOOLBOX, GLOSSARY, SOURCES)), INDEX]


class _Headings(HTMLParser):
    """The h1 and h2 of an article, in words (a formula's TeX and the "#" links left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[tuple[int, str]] = []
        self._level = 0
        self._skip = 0
        self._words: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag in ("h1", "h2"):
            self._level, self._words = int(tag[1]), []
        elif self._skip or (self._level and ("headerlink" in classes or "math" in classes)):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if self._skip:
            self._skip -= 1
        elif tag in ("h1", "h2") and self._level:
            self.headings.append((self._level, " ".join("".join(self._words).split())))
            self._level = 0

    def handle_data(self, data: str) -> None:
        if self._level and not self._skip:
            self._words.append(data)


def _page_headings(site: Path, page: str) -> list[tuple[int, str]]:
    """The headings of a page's article (what the PDF prints of it)."""
    text = (site / f"{page}.html").read_text(encoding="utf-8")
    article = re.search(r"<article class=\"bd-article\">(.*?)</article>", text, re.S)
    assert article, f"{page}: no article"
    parser = _Headings()
    parser.feed(article[1])
    return parser.headings


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z]+|\d+", text)


def _in_order(wanted: list[str], text: str) -> bool:
    """Every word of ``wanted`` appears in ``text``'s words, in order."""
    words = iter(_words(text))
    return all(any(w == x for x in words) for w in wanted)


def _outline(pdf: Any) -> list[tuple[str, list[str], Any]]:
    """(title, its children's titles, its destination) of each top-level bookmark."""
    with pdf.open_outline() as outline:
        return [(str(item.title), [str(c.title) for c in item.children], item.destination)
                for item in outline.root]


def _struct_nodes(pdf: Any) -> Iterator[Any]:
    """Every element of the PDF's structure tree (each a pikepdf Dictionary)."""
    import pikepdf

    stack: list[Any] = [pdf.Root.StructTreeRoot]
    while stack:
        node = stack.pop()
        if not isinstance(node, pikepdf.Dictionary):
            continue
        yield node
        kids = node.get("/K")
        if isinstance(kids, pikepdf.Array):
            stack.extend(kids)
        elif isinstance(kids, pikepdf.Dictionary):
            stack.append(kids)


def _figures(pdf: Any) -> list[str]:
    """The /Alt of every Figure of the structure tree ("" if it has none)."""
    return [str(node.get("/Alt", "")).strip() for node in _struct_nodes(pdf)
            if node.get("/S") == "/Figure"]


def _text(path: Path, pages: range | None = None, *, layout: bool = False) -> list[str]:
    """The text of each page (of ``pages``), as Poppler's pdftotext reads it (``layout``: in its
    layout mode, each line where it is on the page). pdftotext reads the 400 pages of course.pdf
    in about 3 CPU-seconds; pypdf, which these checks used first, took about 45."""
    command = ["pdftotext", "-q", "-enc", "UTF-8", *(["-layout"] if layout else [])]
    if pages is not None:
        command += ["-f", str(pages.start + 1), "-l", str(pages.stop)]
    done = subprocess.run([*command, str(path), "-"], capture_output=True, text=True, check=True,
                          timeout=PRINT_TIMEOUT)
    return done.stdout.split("\f")[:-1]   # a form feed ends each page


def _assert_accessible(path: Path, title: str) -> Any:
    """Tagged, a language, the title shown, every figure described: the PDF, open."""
    import pikepdf

    pdf = pikepdf.open(path)
    root = pdf.Root
    assert bool(root.MarkInfo.Marked), "not a tagged PDF"
    assert "/StructTreeRoot" in root and "/K" in root.StructTreeRoot, "no structure tree"
    assert str(root.Lang) == "en"
    assert bool(root.ViewerPreferences.DisplayDocTitle), "the title is not the window's title"
    assert str(pdf.docinfo["/Title"]) == title
    with pdf.open_metadata() as meta:
        assert meta.get("dc:title") == title
    figures = _figures(pdf)
    assert figures, f"{path.name}: no Figure in the structure tree"
    assert all(figures), f"{path.name}: {figures.count('')} figures without alt text"
    return pdf


# ------------------------------------------------------------------------------ course.pdf
def test_course_pdf_is_tagged_titled_and_described(printed: Path) -> None:
    pdf = _assert_accessible(printed / "course.pdf", COURSE_TITLE)
    assert len(pdf.pages) > 100
    figures = _figures(pdf)
    # every picture of the course is a Figure described by its alt text: the board pictures, the
    # charts, the live editor's board, key and chart
    assert sum(len(alt) > 40 for alt in figures) >= 60
    # and every formula, by its words (MathJax's SVG output, labelled from its MathML)
    assert sum(len(alt) <= 40 for alt in figures) > 1000
    assert "G(z) = E[z^T]" in figures and "N = (I − Q)^(−1)" in figures


def test_course_pdf_bookmarks_every_chapter_and_its_sections(printed: Path, site: Path) -> None:
    import pikepdf

    pdf = pikepdf.open(printed / "course.pdf")
    outline = _outline(pdf)
    chapters = _chapters()
    assert len(outline) == len(chapters), [title for title, _, _ in outline]
    pages = {page.objgen: number for number, page in enumerate(pdf.pages)}
    starts = []
    for (title, children, place), chapter in zip(outline, chapters, strict=True):
        headings = _page_headings(site, chapter)
        h1 = [words for level, words in headings if level == 1]
        sections = [words for level, words in headings if level == 2]
        assert len(h1) == 1 and _in_order(_words(h1[0]), title), (chapter, title, h1)
        assert len(children) == len(sections), (chapter, children, sections)
        for words, child in zip(sections, children, strict=True):
            assert _in_order(_words(words), child), (chapter, child, words)
        starts.append(pages[place[0].objgen])
        # each chapter begins at the top of its page (its bookmark's place: /XYZ left top zoom)
        height = float(place[0].MediaBox[3])
        assert float(place[3]) > height * 0.85, (chapter, float(place[3]), height)
    assert starts == sorted(set(starts)), f"two chapters share a page: {starts}"
    assert any("^" in child for _, children, _ in outline for child in children), \
        "a formula in a heading lost its exponent (G(z)=E[z^T])"


def test_course_pdf_text_holds_the_computed_numbers_and_no_raw_tex(printed: Path) -> None:
    import pikepdf

    pdf = pikepdf.open(printed / "course.pdf")
    pages = {page.objgen: number for number, page in enumerate(pdf.pages)}
    outline = _outline(pdf)
    # the start page, Lesson 1 and its exercises, and Lesson 2 (whose board editor reads out the
    # 1943 board's expected length)
    lesson2 = next(pages[place[0].objgen] for title, _, place in outline
                   if title.startswith("Lesson 2 "))
    end = next(pages[place[0].objgen] for title, _, place in outline
               if title.startswith("Exercises 2 "))
    pages_text = _text(printed / "course.pdf", range(end))
    text = "\n".join(pages_text)
    figure = f"{float(expected_turns(MILTON_BRADLEY_1943)[0]):.4f}"
    assert figure in "\n".join(pages_text[lesson2:]), figure
    assert f"page 1 of {len(pdf.pages)}" in pages_text[0], "no page numbers"
    assert not RAW_TEX.findall(text), sorted(set(RAW_TEX.findall(text)))
    assert not PLUMBING.findall(text), sorted(set(PLUMBING.findall(text)))


# ------------------------------------------------------------------------------ the whole course
# What Chromium draws on every page besides the page's own text: the title above, the number below.
FURNITURE = re.compile(r"^\s*Chutes and Ladders: a course in Markov chains[^\n]*|page \d+ of \d+\s*$")


@dataclass
class Course:
    """course.pdf read once: each page's text in the order of the page (pdftotext's layout mode,
    which keeps a code box and a formula's words on their lines), the header and
    footer left out, ligatures and curly apostrophes undone, white space made single spaces;
    each chapter's pages (from its bookmark to the next one's), the pages of its
    link annotations' named destinations, and the links (page, destination's name) by page."""

    text: list[str]
    pages: dict[str, range]
    places: dict[str, int]
    links: list[tuple[int, str]]

    def of(self, chapter: str) -> str:
        return " ".join(self.text[i] for i in self.pages[chapter])


def read_course(path: Path) -> Course:
    """course.pdf (or any PDF printed like it), read for the checks below."""
    import pikepdf

    pdf = pikepdf.open(path)
    number = {page.objgen: i for i, page in enumerate(pdf.pages)}
    starts = [number[place[0].objgen] for _, _, place in _outline(pdf)]
    names = _chapters()
    pages = {name: range(start, end) for name, start, end in
             zip(names, starts, [*starts[1:], len(pdf.pages)], strict=False)}
    dests = pdf.Root.get("/Dests", {})
    places = {str(name)[1:]: number[dest[0].objgen] for name, dest in dests.items()}
    links = [(i, str(annot.Dest)[1:]) for i, page in enumerate(pdf.pages)
             for annot in page.get("/Annots", []) if "/Dest" in annot]
    text = [" ".join(FURNITURE.sub("", unicodedata.normalize("NFKC", page)).replace("\u2019", "'")
                     .split()) for page in _text(path, layout=True)]
    return Course(text, pages, places, links)


@pytest.fixture(scope="module")
def course(printed: Path) -> Course:
    return read_course(printed / "course.pdf")


@functools.cache     # read once: the index's checks look into the same pages hundreds of times
def _chapter_soup(site: Path, page: str) -> Any:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((site / f"{page}.html").read_text(encoding="utf-8"), "lxml")
    return soup.find("article", class_="bd-article")


def check_reference_pages_and_links(course: Course, site: Path) -> None:
    """The toolbox, the glossary, the sources and the index are chapters of course.pdf, and every
    link of a lesson or an exercise set to the toolbox or the glossary is a link inside the PDF to
    a page of that chapter (the site's links counted on its pages)."""
    for page in ("lessons/toolbox", "lessons/glossary", "lessons/sources", INDEX):
        assert page in course.pages and len(course.pages[page]) >= 1, (page, list(course.pages))
    lessons = {i for page, pages in course.pages.items()
               if page.startswith(("lessons/0", "lessons/1", "exercises/")) for i in pages}
    for target in ("lessons/toolbox", "lessons/glossary"):
        key = "chapter-" + target.replace("/", "-")
        on_site = sum(len(_chapter_soup(site, page).find_all(
            "a", href=re.compile(rf"(^|/){Path(target).name}\.html"))) for page in _chapters()
            if page.startswith(("lessons/0", "lessons/1", "exercises/")))
        internal = [(i, name) for i, name in course.links if i in lessons
                    and (name == key or name.startswith(key + "--"))]
        # a link that wraps is two annotations: at least as many as the site has
        assert on_site > 10 and len(internal) >= on_site, (target, on_site, len(internal))
        for _, name in internal:
            assert course.places.get(name) in course.pages[target], (name, target)


def check_formulas_hints_and_glossary(course: Course, site: Path) -> None:
    """A formula's words, a hint's text and a glossary term's definition are in the text."""
    lesson1 = course.of(_chapters()[1])
    assert "with probability p (a fair coin has p = 1/2" in lesson1, \
        "Lesson 1's first formulas are not in the text layer"
    hint = _chapter_soup(site, _chapters()[2]).find("details")
    summary = hint.find("summary").get_text(" ", strip=True)
    first = hint.find("p").get_text(" ", strip=True).split(".")[0]
    assert _in_order(_words(f"{summary} {first}"), course.of(_chapters()[2])), \
        f"the hint {summary!r} is not printed with its text"
    term = re.search(r"^### (.+)\n\n([^$*(]+)", (ROOT / GLOSSARY).read_text(encoding="utf-8"),
                     re.M)
    assert term is not None
    assert _in_order(_words(f"{term[1]} {term[2]}"), course.of("lessons/glossary")), term[0]


# An index entry's places and their page numbers: "absorbing state: Glossary p. 395, Lesson 3 —
# Markov chains p. 60, ..." or "Hochman (2014) (Sources) p. 404".
_PLACE = re.compile(r"(?P<place>Glossary|Sources|Toolbox|(?:Lesson|Exercises) \d+)\b"
                    r"(?:(?! p\. \d)[^:])*? p\. (?P<page>\d+)")


def check_index_page_numbers(course: Course) -> None:
    """Every page number of the index is the page its place is on: a glossary term's number is
    the glossary's page that holds the term, a lesson's a page of that lesson, a source's a page
    of the sources."""
    index = course.of(INDEX)
    by_name = {"Glossary": "lessons/glossary", "Sources": "lessons/sources",
               "Toolbox": "lessons/toolbox"}
    by_name.update({f"{kind} {int(Path(page).name[:2])}": page for page in _chapters()
                    for kind, folder in (("Lesson", "lessons"), ("Exercises", "exercises"))
                    if page.startswith(folder + "/") and Path(page).name[:2].isdigit()})
    found = list(_PLACE.finditer(index))
    assert len(found) > 100, f"the index shows {len(found)} page numbers"
    for match in found:
        page = int(match["page"]) - 1
        assert page in course.pages[by_name[match["place"]]], match[0]
    terms = re.findall(r"^### (.+?)\s*$", (ROOT / GLOSSARY).read_text(encoding="utf-8"), re.M)
    checked = 0
    for term in terms:
        entry = re.search(rf"(?<![\w-]){re.escape(term)}(?::| \(Glossary\)) ?(?:Glossary)? "
                          rf"p\. (\d+)", index)
        if entry is not None:
            assert term.lower() in course.text[int(entry[1]) - 1].lower(), (term, entry[0])
            checked += 1
    assert checked > len(terms) / 2, f"{checked} of {len(terms)} glossary terms in the index"


def _mention(term: str) -> re.Pattern[str]:
    """An index entry's words as a text says them: any spaces or signs between them, the last
    word perhaps plural (probability, probabilities)."""
    words = [w.lower() for w in re.findall(r"[A-Za-z0-9]+", term)]
    last = words[-1]
    words[-1] = last[:-1] + "(?:y|ies)" if last.endswith("y") else last + "(?:s|es)?"
    return re.compile(r"(?<![a-z0-9])" + "[^a-z0-9]+".join(words) + r"(?![a-z0-9])", re.I)


def _index_references(site: Path) -> list[tuple[str, str, str]]:
    """(words, page, id) of each place the site's index links an entry to, in the index's order
    (an entry's named places, else its one link)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((site / f"{INDEX}.html").read_text(encoding="utf-8"), "lxml")
    found = []
    for entry in soup.select(".genindextable li"):
        links = [a for a in entry.find_all("a", recursive=False) if "#" in a.get("href", "")]
        if not links:
            continue
        named = [a for a in links if "course-index-place" in (a.get("class") or [])]
        for link in named or links[:1]:
            page, _, anchor = str(link["href"]).partition("#")
            found.append((links[0].get_text(" ", strip=True), page.removesuffix(".html"), anchor))
    return found


def _said_in_its_section(site: Path, page: str, anchor: str, words: re.Pattern[str]) -> bool:
    """Does the section of ``page`` that holds ``anchor`` say ``words`` from the anchor on?"""
    article = _chapter_soup(site, page)
    target = article.find(id=anchor)
    section = target.find_parent("section") or article
    html_text = str(section)
    start = html_text.find(f'id="{anchor}"')
    text = re.sub(r"<[^>]+>", " ", html_text[html_text.rfind("<", 0, start):])
    return bool(words.search(" ".join(html.unescape(text).split())))


def check_index_places_hold_their_words(course: Course, site: Path) -> None:
    """Each page number of the index is the page that says the entry's words: a source's label
    in the list of sources (not the page above it where the list starts), a term where the
    lesson's section first says it (not the page before, where the paragraph it was filed on
    starts); a place whose section never says the words as such keeps its paragraph's page."""
    words = _words(course.of(INDEX))
    references = _index_references(site)
    cursor, checked, wrong = 0, 0, []
    by_entry: dict[str, list[tuple[str, str]]] = {}
    for term, page, anchor in references:
        by_entry.setdefault(term, []).append((page, anchor))
    for term, places in by_entry.items():
        wanted = _words(term)
        while words[cursor:cursor + len(wanted)] != wanted:
            cursor += 1
            assert cursor < len(words), f"{term!r} is not in the printed index"
        numbers = []
        while len(numbers) < len(places):
            if words[cursor] == "p" and words[cursor + 1].isdigit():
                numbers.append(int(words[cursor + 1]))
                cursor += 1
            cursor += 1
        for (page, anchor), number in zip(places, numbers, strict=True):
            said = _mention(term)
            if not _said_in_its_section(site, page, anchor, said):
                continue
            checked += 1
            if not said.search(course.text[number - 1]):
                wrong.append(f"{term} ({page}) p. {number}")
    assert checked > len(references) * 0.8, f"{checked} of {len(references)} places checked"
    assert not wrong, f"{len(wrong)} index numbers where the page does not say the words: {wrong}"


def check_no_empty_page_and_code_with_its_explorer(course: Course, site: Path) -> None:
    """No page is empty (an empty code box), and no page ends with the line of code that makes
    an explorer while the explorer is on the next page."""
    empty = [i + 1 for i, text in enumerate(course.text) if not text]
    assert not empty, f"pages with nothing on them but the header and footer: {empty}"
    codes = set()
    for page in _chapters():
        for cell in _chapter_soup(site, page).select("div.cell"):
            code, output = cell.select_one("div.cell_input pre"), cell.select_one("div.cell_output")
            if code and output and output.select_one(".chutes-explorer-mount, .explorer-snapshot"):
                codes.add("".join(code.get_text().split()))
    assert len(codes) > 10, codes
    alone = [(i + 1, code) for i, text in enumerate(course.text) for code in codes
             if "".join(text.split()).endswith(code)]
    assert not alone, f"code on one page, the explorer it makes on the next: {alone}"


def _forms(pdf: Any) -> int:
    """How many Form elements (a control: a slider, a menu, a button) the structure tree has."""
    return sum(node.get("/S") == "/Form" for node in _struct_nodes(pdf))


def check_explorers_print_as_stills(course: Course, site: Path, path: Path) -> None:
    """Each explorer prints as a still of its state with its words, not as controls: no Form in
    the structure tree (Chromium tags a slider, a menu or a button so), the board explorer's
    list of jumps whole (all 19 of the 1943 board, where its list box showed 7), no button's
    words, and under each explorer the line that says where it is live."""
    import pikepdf

    with pikepdf.open(path) as pdf:
        assert _forms(pdf) == 0, f"{path.name}: {_forms(pdf)} form controls printed"
    lesson = course.of(LESSON)
    jumps = [f"{a} → {b}" for a, b in MILTON_BRADLEY_1943.jumps.items()]
    assert all(jump in lesson for jump in jumps), [j for j in jumps if j not in lesson]
    assert "add jump" not in lesson and "remove jump" not in lesson
    explorers = sum(len(_chapter_soup(site, page).select(
        ".chutes-explorer-mount, .chutes-board-editor-mount")) for page in _chapters())
    said = " ".join(course.text).count("On paper, the explorer as the website first draws it")
    assert explorers > 5 and said == explorers, (said, explorers)


def test_course_pdf_has_the_toolbox_glossary_sources_and_index_linked(
        course: Course, site: Path) -> None:
    check_reference_pages_and_links(course, site)


def test_course_pdf_text_holds_formulas_open_hints_and_definitions(
        course: Course, site: Path) -> None:
    check_formulas_hints_and_glossary(course, site)


def test_course_index_page_numbers_are_where_the_places_are(course: Course) -> None:
    check_index_page_numbers(course)


def test_course_index_page_numbers_are_where_the_words_are(course: Course, site: Path) -> None:
    check_index_places_hold_their_words(course, site)


def test_course_pdf_has_no_empty_page_nor_code_apart_from_its_explorer(
        course: Course, site: Path) -> None:
    check_no_empty_page_and_code_with_its_explorer(course, site)


def test_course_pdf_prints_explorers_as_stills_of_their_state(
        course: Course, site: Path, printed: Path) -> None:
    check_explorers_print_as_stills(course, site, printed / "course.pdf")


# ------------------------------------------------------------------------------ a chapter's own PDF
def test_a_lessons_pdf_is_its_own_document(printed: Path, site: Path) -> None:
    path = printed / f"{LESSON}.pdf"
    title = _page_headings(site, LESSON)[0][1]
    pdf = _assert_accessible(path, f"{title} — {COURSE_TITLE}")
    outline = _outline(pdf)
    assert len(outline) == 1 and outline[0][0] == title
    sections = [words for level, words in _page_headings(site, LESSON) if level == 2]
    assert len(outline[0][1]) == len(sections)
    text = "\n".join(_text(path))
    assert f"{float(expected_turns(MILTON_BRADLEY_1943)[0]):.4f}" in text
    assert not RAW_TEX.findall(text) and not PLUMBING.findall(text)
    # the live editor is a described picture on paper: its board, key and chart
    alts = _figures(pdf)
    assert any(alt.startswith("Board, 100 squares") for alt in alts), alts
    assert any(alt.startswith("Chart of the chance") for alt in alts), alts


def test_solutions_pdf_holds_the_answer_keys_and_rubrics(printed: Path, site: Path) -> None:
    path = printed / f"{SOLUTIONS}.pdf"
    title = _page_headings(site, SOLUTIONS)[0][1]
    assert title.startswith("Solutions ")
    _assert_accessible(path, f"{title} — {COURSE_TITLE}")
    text = "\n".join(_text(path))
    assert "Rubric" in text, "the worked solutions' rubrics are missing"
    assert not RAW_TEX.findall(text) and not PLUMBING.findall(text)
    assert sorted(p.name for p in (printed / "solutions").iterdir()) == [f"{Path(SOLUTIONS).name}.pdf"]


def test_make_pdf_builds_the_site_then_prints_it() -> None:
    """`make pdf` is `make site` (with the same SOLUTIONS), then book/pdf.py (make -n: nothing
    runs)."""
    done = subprocess.run(["make", "-n", "pdf", "SOLUTIONS=1"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.replace("\\\n", " ").splitlines()
    build = next(i for i, line in enumerate(lines) if "book/build.py" in line)
    printing = next(i for i, line in enumerate(lines) if "book/pdf.py" in line)
    assert build < printing, lines
    assert 'SOLUTIONS="1"' in lines[build] and 'SOLUTIONS="1"' in lines[printing], lines
