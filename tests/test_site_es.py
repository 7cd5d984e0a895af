"""The Spanish website (issue 53, item 3): ``make site`` builds it into ``es/`` beside the English
from the generated Spanish notebooks (book/build.py), and ``make pdf`` prints it (book/pdf.py).

- every Spanish page is ``<html lang="es">`` (the theme's own words Spanish too: Sphinx's
  ``language``), every English page ``lang="en"``;
- every page of either language links to the same page in the other language (a link named
  "English" / "Español" in that language, and ``<link rel="alternate" hreflang>``), relative so
  that it works from disk; a page with no counterpart links to the other front page;
- the main text of every Spanish page reads as Spanish: English function words under 3%
  (tools/translations.py ``english_share``), code and formulas aside;
- the sentences the build writes into pages (notes, intros, tables' headings, the front page and
  the playground) come from ``book.po`` (tests/test_translations.py checks the catalog's drift);
- (tests/test_site.py's audit opens every page of both languages: axe-core, the second auditor's
  sample, missing files, script errors, headings, alt texts, the visible link to the other language)
- a Spanish PDF is tagged, in Spanish (``/Lang es``), with a Spanish title and bookmarks.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from .conftest import site_missing, site_pages

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow      # every test reads the website built for the tests
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "book"))

import build  # noqa: E402
import translations  # noqa: E402

ES = "es"
MAX_ENGLISH = 0.03          # the bound on English function words in a Spanish page
PDF_PAGE = "lessons/01_waiting_for_heads"
# The main text of a page: its article, without what is code or maths (or a still of an
# explorer's program output) and without the heading links' "#".
_NOT_TEXT = "pre, code, script, style, mjx-container, math, .headerlink"
_HTML_LANG = re.compile(r"<html\b[^>]*\blang=\"([^\"]*)\"")


def _soup(path: Path):
    from bs4 import BeautifulSoup

    return BeautifulSoup(path.read_text(encoding="utf-8"), "lxml")


def _spanish_pages(site: Path) -> list[Path]:
    return site_pages(site / ES)


def _english_pages(site: Path) -> list[Path]:
    return [p for p in site_pages(site) if p.relative_to(site).parts[0] != ES]


def _main_text(path: Path) -> str:
    soup = _soup(path)
    main = soup.select_one("article.bd-article") or soup.body
    # the sources page: the titles of the works (emphasised) stay in their language, as the
    # catalog's header says of every citation
    citations = ", em" if path.name == "sources.html" else ""
    for element in main.select(_NOT_TEXT + citations):
        element.decompose()
    return main.get_text(" ")


def test_both_sites_are_built_and_every_page_says_its_language(site: Path) -> None:
    spanish, english = _spanish_pages(site), _english_pages(site)
    assert spanish, "no Spanish site in es/"
    # every page of the course has its Spanish page (the accessibility statement is English only)
    missing = sorted(p.relative_to(site).as_posix() for p in english
                     if not (site / ES / p.relative_to(site)).exists())
    assert missing == ["accessibility.html"], missing
    wrong = {p.relative_to(site).as_posix(): lang for pages, want in ((spanish, ES), (english, "en"))
             for p in pages if (lang := _HTML_LANG.search(p.read_text(encoding="utf-8"))) is None
             or lang[1] != want}
    assert not wrong, f"pages whose <html lang> is not their language: {wrong}"


def _language_links(path: Path) -> tuple[list[dict], list[dict]]:
    soup = _soup(path)
    links = [dict(a.attrs, text=a.get_text(strip=True))
             for a in soup.select(f"a.{build.LANGUAGE_LINK}")]
    alternates = [dict(link.attrs) for link in soup.select('head link[rel="alternate"]')]
    return links, alternates


def _target(path: Path, href: str) -> Path:
    return (path.parent / unquote(urlsplit(href).path)).resolve()


def test_every_page_links_to_itself_in_the_other_language(site: Path) -> None:
    site = site.resolve()
    problems: list[str] = []
    for pages, other, name in ((_english_pages(site), ES, "Español"),
                               (_spanish_pages(site), "en", "English")):
        for path in pages:
            rel = path.relative_to(site)
            counterpart = (site / ES / rel if other == ES else site / rel.relative_to(ES))
            if not counterpart.exists():      # no such page: the other language's front page
                counterpart = (site / ES if other == ES else site) / "index.html"
            links, alternates = _language_links(path)
            if len(links) != 1 or len(alternates) != 1:
                problems.append(f"{rel}: {len(links)} language links, {len(alternates)} alternates")
                continue
            link, alternate = links[0], alternates[0]
            if (link["text"], link.get("lang"), link.get("hreflang")) != (name, other, other):
                problems.append(f"{rel}: the link reads {link['text']!r} lang={link.get('lang')}")
            if alternate.get("hreflang") != other or alternate.get("href") != link["href"]:
                problems.append(f"{rel}: <link rel=alternate> {alternate}")
            if urlsplit(link["href"]).scheme or link["href"].startswith("/"):
                problems.append(f"{rel}: not a relative link: {link['href']}")
            elif _target(path, link["href"]) != counterpart.resolve():
                problems.append(f"{rel}: links to {link['href']}, not to "
                                f"{counterpart.relative_to(site)}")
    assert not problems, "\n".join(problems[:20])


def test_spanish_pages_read_as_spanish(site: Path) -> None:
    shares = {p.relative_to(site).as_posix(): translations.english_share(_main_text(p))
              for p in _spanish_pages(site)}
    assert shares
    english = {page: round(share, 3) for page, share in shares.items() if share >= MAX_ENGLISH}
    assert not english, f"Spanish pages with {MAX_ENGLISH:.0%} English or more: {english}"


def test_the_builds_sentences_are_spanish_on_spanish_pages(site: Path) -> None:
    """The front page, the playground, an exercise page's intro and numbers table, a still's
    note and the navigation's captions are the catalog's Spanish, not the English of book/."""
    words = build.book_words(ES)
    front = (site / ES / "index.html").read_text(encoding="utf-8")
    assert "Cómo empezar" in front and "How to start" not in front
    assert "Toboganes y escaleras" in _soup(site / ES / "index.html").title.get_text()
    playground = _main_text(site / ES / "playground.html")
    assert "Taller: dibuja tu propio tablero" in playground and "Draw ladders" not in playground
    exercise = _main_text(next((site / ES / "exercises").glob("02_*.html")))
    assert words["Each exercise ends"] not in exercise      # replaced by the page's intro
    assert "En esta página, que no ejecuta Python" in exercise
    assert "Los números de esta página." in exercise
    assert "The numbers on this page" not in exercise and "Run the setup cell" not in exercise
    assert words["The course"] in front and words["Reference"] in front
    # a still of an explorer that needs Python: its note in Spanish wherever the English has one
    for english in _english_pages(site):
        if "widget-note" in english.read_text(encoding="utf-8"):
            spanish = site / ES / english.relative_to(site)
            assert words["A still picture of a live explorer"] in spanish.read_text(
                encoding="utf-8"), spanish


def test_the_theme_speaks_spanish_and_the_search_has_its_own_index(site: Path) -> None:
    lesson = (site / ES / "lessons" / "03_markov_chains.html").read_text(encoding="utf-8")
    # the search button, the contents' heading, the arrows at the page's foot, the landmarks
    for words in ("Búsqueda", "Contenido", "siguiente", "anterior", 'aria-label="Principal"',
                  'placeholder="Buscar en el curso..."'):
        assert words in lesson, words
    for words in ('aria-label="Main"', "Search this book", "Launch interactive content",
                  "Toggle primary sidebar", "Link to this heading", ">Contents<", ">next<",
                  ">previous<"):
        assert words not in lesson, words
    index = (site / ES / "searchindex.js").read_text(encoding="utf-8")
    assert index != (site / "searchindex.js").read_text(encoding="utf-8")
    assert '"lessons/03_markov_chains"' in index and "fundamental" in index


# ------------------------------------------------------------------------------ the PDF
@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(site_missing() is not None or shutil.which("pdftotext") is None
                    or importlib.util.find_spec("pikepdf") is None,
                    reason="Chromium, pikepdf and pdftotext are needed")
def test_a_spanish_pdf_is_tagged_titled_and_bookmarked_in_spanish(
        site: Path, tmp_path: Path) -> None:
    import pikepdf

    done = subprocess.run([sys.executable, str(ROOT / "book" / "pdf.py"), "--site", str(site),
                           "--out", str(tmp_path), "--language", ES, "--no-course",
                           "--only", PDF_PAGE], cwd=ROOT, capture_output=True, text=True,
                          timeout=900, env={**os.environ, "SOLUTIONS": ""})
    assert done.returncode == 0, done.stderr[-3000:]
    path = tmp_path / ES / f"{PDF_PAGE}.pdf"
    assert path.exists() and not (tmp_path / f"{PDF_PAGE}.pdf").exists()
    with pikepdf.open(path) as pdf:
        root = pdf.Root
        assert bool(root.MarkInfo.Marked) and "/StructTreeRoot" in root, "not a tagged PDF"
        assert str(root.Lang) == ES
        title = str(pdf.docinfo["/Title"])
        assert title.endswith("— Toboganes y escaleras: un curso de cadenas de Markov"), title
        with pdf.open_metadata() as meta:
            assert meta.get("dc:language") == [ES] or ES in str(meta.get("dc:language"))
        with pdf.open_outline() as outline:
            bookmarks = [item.title for item in outline.root]
    heading = _soup(site / ES / f"{PDF_PAGE}.html").select_one("article h1").get_text(" ")
    assert bookmarks and bookmarks[0].split()[:3] == heading.replace("#", "").split()[:3]
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert translations.english_share(text) < MAX_ENGLISH
