"""Print the course website as tagged PDFs: ``make pdf`` calls this script after ``make site``.

    python book/pdf.py [--site _build/html] [--out _build/pdf] [--solutions] [--paper a4|letter]
                       [--only PAGE ...] [--no-course] [--language all|en|es]

What it writes, into ``--out`` (default ``_build/pdf``):

- ``course.pdf``, the whole course: the start page, then each lesson followed by its exercise set
  (and, with ``--solutions`` or ``SOLUTIONS=1``, its worked solutions with their rubrics: a
  teacher's copy), in the order of the website, then the maths toolbox, the glossary, the sources
  and the index, with the page number of every place an index entry names; each chapter begins on
  a new page;
- one PDF per lesson, exercise set (and solutions), named like its page:
  ``lessons/01_waiting_for_heads.pdf``, ``exercises/01_exercises_waiting_for_heads.pdf``, ...
  (the start page and the reference pages only when ``--only`` names them, e.g.
  ``--only lessons/glossary``).

How: the pages of the offline website (``make site``), as they are, are put together in one HTML
page (``<site>/_print/course.html``, or one per chapter, removed when done: the site is left as it
was), which Debian's Chromium opens from disk
and prints (Playwright's ``page.pdf`` with ``tagged=True`` and ``outline=True``). One HTML page per
PDF keeps one structure tree and one outline, which merging PDFs would not. Each chapter's ids are
given the chapter's name as a prefix, so that a link from one chapter to another (a lesson's link
to the toolbox or to a term of the glossary) becomes a link inside the PDF; a link to a page the
PDF leaves out becomes plain text. Every hint (``<details>``) is printed open. Before printing, the
page waits until the board editor has drawn its board and every picture has loaded, and each
explorer becomes a still of its state: its pictures (described by their alt text) and readouts as
drawn, each control replaced by its value in words (a list printed whole), its buttons left out,
and a line that says where it is live. The site's print stylesheet (``book/static/course.css``)
hides the navigation, wraps code and its output at the margin, keeps a code cell with its output
(the line that makes an explorer with the explorer), and starts each chapter on a new page; a
display formula wider than the page is scaled down to fit (CSS ``zoom``) rather than cut, and the
printing stops if anything would still reach past the margin. The site's formulas are MathJax's SVG
output, drawn when the site was built (book/lean_pages.py; each formula's SVG holds its glyphs,
whose ids get the chapter's prefix like every other id): an SVG formula labelled with
its words (written out from its MathML:
``G(z) = E[z^T]``) becomes a ``Figure`` with that ``/Alt``. The same words are drawn over the
formula as transparent text, squeezed to its width and ``aria-hidden`` (Chromium leaves them out
of the structure tree: a screen reader reads the ``/Alt`` once), so that the text layer holds them
too: ``pdftotext``, a search or a copy finds "with probability p (a fair coin has p = 1/2)".

The index's page numbers: each place an entry links to is first moved to where its section says the
entry's words (the site links to the paragraph the entry was filed on, or for a source to the top of
the sources page, which on paper often starts a page earlier than the words). Chromium has no CSS
``target-counter()``, so ``course.pdf`` is printed twice. Chromium writes a named destination
(``/Dests``) for every target of a link inside the PDF; the first print's destinations give each
place the index links to its page, the numbers are written into the page already open (after each
place, "p. 123", a link too), and it is printed again, until the numbers read back are those written
(:data:`MAX_INDEX_PRINTS`; the index is the last chapter, so its numbers move no page before it and
the second print settles them). The second print costs one more ``page.pdf`` of the open page, not
another load and typesetting.

The translations: ``make site`` builds each translation's site into ``<site>/<language>/``
(book/build.py); its PDFs, printed the same way from that site, go to ``<out>/<language>/``
(``_build/pdf/es/course.pdf``, ``_build/pdf/es/lessons/...``), with the language's ``/Lang`` and
title, and the words this script adds (the title's "with the worked solutions", an explorer's
note on paper) from the website's catalog ``locale/<language>/LC_MESSAGES/book.po``.

After printing, pikepdf sets what a reader's software shows and reads: the title (the document's
title, shown as the window's title: ``/ViewerPreferences /DisplayDocTitle``), the language
(``/Lang``) and XMP metadata, and the bookmarks, rebuilt from the page's headings (Chromium's own
titles lose the spaces where a heading wraps and the words of a formula); each bookmark keeps the
place Chromium gave it.
"""

from __future__ import annotations

import argparse
import copy
import html
import os
import posixpath
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

BOOK = Path(__file__).resolve().parent
ROOT = BOOK.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
import translations  # noqa: E402  (tools/ is no package)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PRINT_DIR = "_print"            # under the site: one folder down, like lessons/ and exercises/
PAGE_TIMEOUT = 180_000          # ms for a page to load, typeset and draw
INDEX = "genindex"              # the site's index (Sphinx's page), course.pdf's last chapter
MAX_INDEX_PRINTS = 3            # prints of course.pdf at most to settle the index's numbers (2 do)

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}          # mm
MARGIN = {"top": 18.0, "bottom": 18.0, "left": 16.0, "right": 16.0}  # mm
AUTHOR = "the chutes_edu authors"
COURSE_TITLE = "Chutes and Ladders: a course in Markov chains"
ENGLISH = "en"
TRANSLATIONS = ("es",)          # book/build.py's: each built into <site>/<language>/
_words: dict[str, str] = {}     # the language being printed: book.po's translations


def _(text: str) -> str:
    """``text`` in the language being printed (``book.po``), or as written."""
    return _words.get(text, text)


def _read_words(language: str) -> dict[str, str]:
    """The usable translations of ``locale/<language>/LC_MESSAGES/book.po`` (none for English)."""
    if language == ENGLISH:
        return {}
    path = ROOT / "locale" / language / "LC_MESSAGES" / "book.po"
    if not path.exists():
        raise PdfError(f"{path.relative_to(ROOT)} is missing: run `make translations`")
    return translations.usable_translations(path)


# The header and footer Chromium draws on every page: the document's title, and the page number.
# (Their text is not part of the structure tree: Chromium draws them outside the page's content.)
HEADER = ('<div style="font: 9px sans-serif; color: #333; width: 100%; margin: 0 16mm; '
          'text-align: right"><span class="title"></span></div>')
FOOTER = ('<div style="font: 9px sans-serif; color: #333; width: 100%; text-align: center">'
          'page <span class="pageNumber"></span> of <span class="totalPages"></span></div>')


def _footer() -> str:
    """:data:`FOOTER` in the language being printed."""
    page, of = _("page"), _("of")
    return FOOTER.replace(">page <", f">{page} <").replace("</span> of <", f"</span> {of} <")


class PdfError(RuntimeError):
    """A problem the builder can fix (no site, no Chromium, a page that never settles)."""


@dataclass(frozen=True)
class Chapter:
    """One page of the website printed as a chapter: its path under the site, without .html."""

    page: str

    @property
    def key(self) -> str:
        """The prefix of the chapter's ids in a combined page (an id of its own)."""
        return "chapter-" + re.sub(r"[^A-Za-z0-9_-]", "-", self.page)


# ------------------------------------------------------------------------------ options
def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "no", "false")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "_build" / "html",
                        help="the website built by `make site` (default: _build/html)")
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "pdf",
                        help="where the PDFs go (default: _build/pdf)")
    parser.add_argument("--solutions", action="store_true", default=_env_flag("SOLUTIONS"),
                        help="add the worked solutions (the site must have been built with them; "
                             "env SOLUTIONS=1)")
    parser.add_argument("--paper", choices=sorted(PAPERS), default=os.environ.get("PAPER", "a4"),
                        help="the paper size (default: a4; env PAPER)")
    parser.add_argument("--only", nargs="+", metavar="PAGE", default=None,
                        help="print only these chapters' PDFs, e.g. lessons/01_waiting_for_heads")
    parser.add_argument("--no-course", dest="course", action="store_false",
                        help="leave course.pdf out")
    parser.add_argument("--language", choices=["all", ENGLISH, *TRANSLATIONS], default="all",
                        help="print only this language's PDFs (default: every language the site "
                             "was built in; a translation's go to <out>/<language>/)")
    return parser.parse_args(argv)


def reference_pages() -> list[str]:
    """course.pdf's last chapters: the maths toolbox, the glossary, the sources and the index.
    Like the start page, they are no handout of their own unless ``--only`` names them (the index's
    page numbers are course.pdf's)."""
    from chutes_edu.course import GLOSSARY, SOURCES, TOOLBOX

    return [*(path.with_suffix("").as_posix() for path in (TOOLBOX, GLOSSARY, SOURCES)), INDEX]


def chapters(site: Path, *, solutions: bool) -> list[Chapter]:
    """The start page, then each lesson, its exercise set and (``solutions``) its solutions, then
    the reference pages (:func:`reference_pages`), the index last."""
    from chutes_edu.course import course_lessons

    found = [Chapter("index")]
    for lesson in course_lessons(ROOT):
        paths = [lesson.lesson, lesson.exercises] + ([lesson.solutions] if solutions else [])
        for path in paths:
            page = path.with_suffix("").as_posix()
            if (site / f"{page}.html").exists():
                found.append(Chapter(page))
            elif path.parent.name == "solutions":
                raise PdfError(f"the website has no {page}.html: build it with the worked "
                               "solutions (SOLUTIONS=1 make site) to print them")
            elif (ROOT / path).exists():
                raise PdfError(f"the website has no {page}.html: run `make site` again")
    for page in reference_pages():
        if not (site / f"{page}.html").exists():
            raise PdfError(f"the website has no {page}.html: run `make site` again")
        found.append(Chapter(page))
    return found


# ------------------------------------------------------------------------------ the HTML to print
def _article(soup: Any) -> Any:
    article = soup.find("article", class_="bd-article")
    if article is None:
        raise PdfError("a page of the website has no <article class='bd-article'>: "
                       "was it built by book/build.py?")
    return article


_ID_ATTRS = ("aria-labelledby", "aria-describedby", "aria-controls", "aria-owns", "headers",
             "aria-activedescendant", "aria-details", "aria-errormessage")


def _prefixed(chapter: Chapter, fragment: str) -> str:
    return f"{chapter.key}--{fragment}"


def _rewrite_chapter(article: Any, chapter: Chapter, site: Path, included: dict[str, Chapter],
                     print_dir: Path) -> None:
    """Make one chapter's article fit in a page of several chapters, in ``print_dir``."""
    here = (site / chapter.page).parent
    for tag in article.find_all(True):
        if tag.get("id"):
            tag["id"] = _prefixed(chapter, tag["id"])
        if tag.name == "label" and tag.get("for"):
            tag["for"] = _prefixed(chapter, tag["for"])
        if tag.name == "use" and str(tag.get("xlink:href", "")).startswith("#"):   # a glyph
            tag["xlink:href"] = "#" + _prefixed(chapter, str(tag["xlink:href"])[1:])
        for attr in _ID_ATTRS:
            if tag.get(attr):
                value = tag[attr] if isinstance(tag[attr], str) else " ".join(tag[attr])
                tag[attr] = " ".join(_prefixed(chapter, v) for v in value.split())
        for attr in ("src", "href"):
            ref = tag.get(attr)
            if not ref or ref.startswith(("data:", "mailto:")):
                continue
            parts = urlsplit(ref)
            if parts.scheme or ref.startswith("//"):
                continue                       # a link off the site (Binder, a hub, a paper)
            if attr == "href" and tag.name == "a":
                if not parts.path:             # a place in the same page
                    tag["href"] = "#" + _prefixed(chapter, unquote(parts.fragment))
                    continue
                try:
                    target = (here / unquote(parts.path)).resolve().relative_to(site.resolve())
                except ValueError:             # outside the site: nothing to link to on paper
                    tag.unwrap()
                    continue
                page = posixpath.normpath(target.as_posix()).removesuffix(".html")
                other = included.get(page)
                if other is not None:
                    tag["href"] = "#" + (_prefixed(other, unquote(parts.fragment))
                                         if parts.fragment else other.key)
                else:
                    tag.unwrap()               # a page this PDF leaves out: its words stay
                continue
            # a picture, a stylesheet, a download: the same file, seen from the print folder
            target_path = (here / unquote(parts.path)).resolve()
            tag[attr] = os.path.relpath(target_path, print_dir).replace(os.sep, "/")


FRONT_ENDS = "data-front-ends"   # the website's runtime fetches these scripts (book/lean_pages.py)


def _head_assets(soup: Any, source: Any, here: Path, print_dir: Path) -> None:
    """Add to ``soup``'s head each script and stylesheet of ``source``'s head (a page in folder
    ``here``) that it lacks: a page loads only what it uses (book/lean_pages.py), and the print
    page holds the chapters of several. Each is put before the first of ``source``'s that
    follow it which the head has already, so that their order holds; the front ends' scripts
    that the runtime (``site.js``) fetches (its ``data-front-ends``) are those of every page."""
    def key(ref: str, folder: Path) -> str:
        target = (folder / unquote(urlsplit(ref).path)).resolve()
        return os.path.relpath(target, print_dir).replace(os.sep, "/")

    def ref_of(tag: Any) -> str | None:
        ref = tag.get("src") if tag.name == "script" else (
            tag.get("href") if "stylesheet" in (tag.get("rel") or []) else None)
        return str(ref) if ref and not urlsplit(str(ref)).scheme else None

    head, theirs = soup.find("head"), source.find("head")
    if head is None or theirs is None:
        return
    have = {key(str(t.get("src") or t.get("href")), print_dir): t
            for t in head.find_all(["script", "link"]) if t.get("src") or t.get("href")}
    tags = [(tag, key(ref, here)) for tag in theirs.find_all(["script", "link"])
            if (ref := ref_of(tag)) is not None]
    def front_ends(tag: Any) -> list[str]:    # the scripts the runtime fetches, from here
        return [key(ref, here) for ref in str(tag.get(FRONT_ENDS) or "").split()]

    for i, (tag, where) in enumerate(tags):
        if where in have:
            if tag.get(FRONT_ENDS) is not None:      # the runtime: its scripts and this page's
                kept = str(have[where].get(FRONT_ENDS) or "").split()
                have[where][FRONT_ENDS] = " ".join(dict.fromkeys([*kept, *front_ends(tag)]))
            continue
        clone = copy.copy(tag)
        clone["src" if tag.name == "script" else "href"] = where
        if tag.get(FRONT_ENDS) is not None:
            clone[FRONT_ENDS] = " ".join(front_ends(tag))
        later = next((have[w] for t, w in tags[i + 1:] if w in have and t.name == tag.name),
                     None)
        if later is not None:
            later.insert_before(clone)
        else:
            head.append(clone)
        have[where] = clone


def print_page(site: Path, parts: list[Chapter], title: str, name: str) -> Path:
    """Write ``<site>/_print/<name>.html``: the chapters ``parts`` in one page, titled ``title``.

    The first lesson's page is the template (its head loads the site's styles, MathJax and the
    board editor; its header and sidebars are left out of print by the print stylesheet), and
    its article is replaced by each chapter's article in turn. Links between these chapters stay
    links; links to other pages become plain text.
    """
    from bs4 import BeautifulSoup

    print_dir = site / PRINT_DIR
    print_dir.mkdir(exist_ok=True)
    by_page = {c.page: c for c in parts}
    lessons = sorted(site.glob("lessons/*.html"))
    if not lessons:
        raise PdfError(f"no lessons in {site}: run `make site` again")
    # The template sits one folder down, like the print page: its own links need no rewriting.
    soup = BeautifulSoup(lessons[0].read_text(encoding="utf-8"), "lxml")
    if soup.title is not None:
        soup.title.string = title
    # Out: the template's title and contents list for print (the bookmarks are the contents) and
    # its own contents sidebar (its links point at its own sections, which the theme's script
    # would look for).
    for element in soup.select("#jb-print-docs-body, .bd-sidebar-secondary"):
        element.decompose()
    target = _article(soup)
    target.clear()
    for chapter in parts:
        source = BeautifulSoup((site / f"{chapter.page}.html").read_text(encoding="utf-8"),
                               "lxml")
        _head_assets(soup, source, (site / chapter.page).parent, print_dir)
        article = _article(source)
        _rewrite_chapter(article, chapter, site, by_page, print_dir)
        for hint in article.find_all("details"):      # a hint is printed open
            hint["open"] = ""
        wrapper = soup.new_tag("div", attrs={"class": "course-chapter", "id": chapter.key})
        for child in list(article.contents):
            wrapper.append(child.extract())
        target.append(wrapper)
    html_tag = soup.find("html")
    if html_tag is not None and not html_tag.get("lang"):
        html_tag["lang"] = "en"
    path = print_dir / f"{name}.html"
    path.write_text(str(soup), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------ printing
# Everything drawn: MathJax's typesetting and fonts, the board editors' boards, every explorer
# (the site draws each as the reader nears it, js/site/site.js: all of them are drawn here at once,
# as printing from the browser does; a long print page had some still undrawn when it was turned
# into stills, and drawn later with their controls), every picture (the site's load as the reader
# nears them: all of them now).
_SETTLED = """async () => {
  if (window.ChutesSite) await window.ChutesSite.drawAll();
  for (const picture of document.querySelectorAll('img[loading="lazy"]')) picture.loading = 'eager';
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  if (document.fonts && document.fonts.ready) await document.fonts.ready;
  const deadline = Date.now() + 120000;
  const drawn = () => [...document.images].every(i => i.complete)
    && !document.querySelector('.chutes-explorer-mount:not(.chutes-explorer)')
    && [...document.querySelectorAll('.chutes-board-editor-mount')].every(
         m => m.querySelector('.chutes-editor-readout') &&
              m.querySelector('.chutes-editor-readout').textContent.trim());
  while (!drawn() && Date.now() < deadline) await new Promise(r => setTimeout(r, 100));
  return drawn();
}"""

# A formula in words, from its MathML: G(z)=E[z^T], (1/6)...
_LINEAR = """
  const linear = (node) => {
    const kids = [...node.children].map(linear);
    if (node.children.length && node.children[0].localName === 'mo') {
      kids[0] = kids[0].trim();                    // a sign, not an operation: −1
    }
    const group = (t) => (t.trim().length > 1 ? `(${t.trim()})` : t.trim());
    switch (node.localName) {
      case 'msup': return `${kids[0]}^${group(kids[1])}`;
      case 'msub': return `${kids[0]}_${group(kids[1])}`;
      case 'msubsup': return `${kids[0]}_${group(kids[1])}^${group(kids[2])}`;
      case 'munderover': return `${kids[0]}_${group(kids[1])}^${group(kids[2])}`;
      case 'munder': return `${kids[0]}_${group(kids[1])}`;
      case 'mover': return `${kids[0]}^${group(kids[1])}`;
      case 'mfrac': return `${group(kids[0])}/${group(kids[1])}`;
      case 'msqrt': return `√(${kids.join('')})`;
      case 'mtable': return `[${kids.join('; ')}]`;
      case 'mtr': return kids.join(', ');
      case 'mi': case 'mn': return node.textContent.trim();
      case 'mo': {
        const op = node.textContent.trim();
        return /^[=<>≤≥≠→←+−×÷≈∼∈⊂⊆∣]$/.test(op) ? ` ${op} ` : op;
      }
      case 'mtext': return ` ${node.textContent.trim()} `;
      default: return node.children.length ? kids.join('') : node.textContent.trim();
    }
  };
  const words = (container) => {
    const math = container.querySelector('mjx-assistive-mml math');
    return math ? linear(math).replace(/\\s+/g, ' ').trim() : '';
  };
"""

# On paper an explorer is a still of its state, not a form: each setting's control becomes its
# value in words beside its label (a slider's value as shown, a menu's choice, a list's items: the
# board explorer's jumps, all of them, where its list box showed seven; the board in Python, whole),
# a choice of several keeps the chosen one's words (a radio button's label, a pressed button's),
# and other buttons and check boxes (actions, not state) go; its pictures keep their alt text
# (Figures with /Alt) and its readouts their words. A line under it says where it is live. Nothing
# is left that Chromium would tag as a Form field (the answer boxes and the board calculator are
# not printed: answers.css). Returns how many settings were written out.
_EXPLORERS_FOR_PAPER = """([noteWords, noneWords]) => {
  const value = (words, tag = 'span') => {
    const el = document.createElement(tag);
    el.className = 'course-print-value';
    el.textContent = words;
    return el;
  };
  const drop = (control) => {
    for (const label of control.labels || []) if (!label.contains(control)) label.remove();
    (control.closest('label') || control).remove();
  };
  let settings = 0;
  for (const root of document.querySelectorAll(
    '.chutes-explorer-mount, .chutes-board-editor-mount')) {
    for (const control of root.querySelectorAll('button, input, select, textarea')) {
      const kind = control.localName === 'input' ? control.type : control.localName;
      if (control.getAttribute('aria-pressed') === 'true') {
        control.replaceWith(value(control.textContent.trim()));  // the chosen one of a few
      } else if (kind === 'button' || kind === 'submit' || kind === 'reset' ||
                 kind === 'checkbox') {
        drop(control);
      } else if (kind === 'radio') {
        if (control.checked) control.remove(); else drop(control);
      } else if (kind === 'select') {
        const list = control.multiple || control.size > 1;
        const words = [...control.options].filter((o) => list || o.selected)
          .map((o) => o.textContent.trim()).filter(Boolean);
        control.replaceWith(value(words.join(', ') || noneWords));
      } else if (kind === 'textarea') {
        control.replaceWith(value(control.value, 'pre'));
      } else {
        const shown = control.parentElement &&
          control.parentElement.querySelector(':scope > .chutes-slider-value');
        if (shown) {
          shown.removeAttribute('aria-hidden');
          shown.classList.add('course-print-value');
          control.remove();
        } else {
          control.replaceWith(value(control.getAttribute('aria-valuetext') || control.value));
        }
      }
      settings += 1;
    }
    for (const el of root.querySelectorAll('[tabindex]')) el.removeAttribute('tabindex');
    for (const el of root.querySelectorAll('[role="application"]')) el.setAttribute('role', 'img');
    const note = document.createElement('p');
    note.className = 'course-print-note';
    note.textContent = noteWords;
    root.append(note);
  }
  return settings;
}"""

# On paper: the board editor is a picture (no controls; its board described by its label); each
# formula a picture described in words; a display formula, a matrix or a table wider than its
# column is scaled down to fit; then whatever would still be cut at the margin is reported.
_FOR_PAPER = """() => {""" + _LINEAR + """
  for (const board of document.querySelectorAll('.chutes-editor svg.chutes-editor-board')) {
    board.setAttribute('role', 'img');
    board.removeAttribute('tabindex');
    board.removeAttribute('aria-roledescription');
    board.removeAttribute('aria-describedby');
  }
  let formulas = 0;
  for (const container of document.querySelectorAll('mjx-container')) {
    const svg = container.querySelector(':scope > svg');
    const said = words(container);
    if (!svg || !said) continue;
    svg.removeAttribute('aria-hidden');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', said);
    formulas += 1;
  }
  const wide = document.querySelectorAll(
    'mjx-container[display="true"], .chutes-math mjx-container, .bd-article table');
  let fitted = 0;
  for (const el of wide) {
    const room = el.parentElement.clientWidth;
    const need = el.scrollWidth;
    if (room > 0 && need > room + 1) {
      el.style.zoom = String(Math.max(0.3, (room - 2) / need));
      fitted += 1;
    }
  }
  // Each formula's words in the text layer too (what pdftotext, a search or a copy finds): drawn
  // transparent from the formula's start, squeezed to its width so that they never run over the
  // words after it, and hidden from screen readers, which read the Figure's /Alt (the same words).
  for (const container of document.querySelectorAll('mjx-container')) {
    const svg = container.querySelector(':scope > svg');
    const said = svg && svg.getAttribute('aria-label');
    if (!said) continue;
    const text = document.createElement('span');
    text.className = 'course-formula-words';
    text.setAttribute('aria-hidden', 'true');
    text.textContent = said;
    container.prepend(text);
    const room = svg.getBoundingClientRect().width;
    const need = text.getBoundingClientRect().width;
    if (room > 0 && need > room) text.style.transform = `scaleX(${room / need})`;
  }
  // What would still be cut at the margin: anything reaching past the text column (a formula's
  // or a picture's insides are measured as a whole).
  const article = document.querySelector('article.bd-article');
  const edge = article.getBoundingClientRect().right + 1;
  const cut = [];
  const walk = document.createTreeWalker(article, NodeFilter.SHOW_ELEMENT, {acceptNode: n =>
    (n.parentElement && n.parentElement.closest('mjx-container, svg'))
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
  for (let el = walk.nextNode(); el; el = walk.nextNode()) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.right > edge && cut.length < 10) {
      cut.push(`${el.localName}.${el.getAttribute('class') || ''} ` +
               `(${Math.round(box.right - edge)} px): ${(el.textContent || '').slice(0, 60)}`);
    }
  }
  return {fitted, formulas, cut};
}"""

# The headings Chromium makes bookmarks of, in order: level and words. A formula is written out
# from its MathML (G(z)=E[z^T]), the heading's "#" link left out.
_HEADINGS = """() => {""" + _LINEAR + """
  return [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
    .filter(h => h.checkVisibility())
    .map(h => {
      const copy = h.cloneNode(true);
      copy.querySelectorAll('.headerlink').forEach(a => a.remove());
      const originals = [...h.querySelectorAll('mjx-container')];
      copy.querySelectorAll('mjx-container').forEach((m, i) => {
        m.replaceWith(document.createTextNode(originals[i] ? words(originals[i]) : ''));
      });
      return [Number(h.tagName[1]), copy.textContent.replace(/\\s+/g, ' ').trim()];
    });
}"""


# The index's places on paper: the first mention of each entry's words at or after the place the
# site links to, within that place's section. The site links to the paragraph an index entry was
# filed on (or, for a source, to the top of the sources page), and on paper that paragraph often
# starts at the foot of a page whose next page holds the words: the number read one page early.
# Each mention found becomes a target of its own (its place's id and the words'), and the
# entry's links point at it; a place whose section never says the words keeps its paragraph.
# Returns how many links were moved and the entries left at their paragraph.
_INDEX_TARGETS = """(id) => {
  const index = document.getElementById(id);
  const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  const skip = 'mjx-container, svg, script, style, .headerlink, .course-formula-words';
  const made = new Map();
  let moved = 0;
  const kept = [];
  const mention = (target, term) => {
    const words = term.toLowerCase().match(/[a-z0-9]+/g);
    if (!words) return null;
    // the words with any spaces or signs between them, the last one perhaps plural
    // (probability, probabilities; state, states)
    const last = words.length - 1;
    words[last] = /y$/.test(words[last]) ? words[last].slice(0, -1) + '(?:y|ies)'
      : words[last] + '(?:s|es)?';
    const pattern = new RegExp(
      '(^|[^a-z0-9])(' + words.join('[^a-z0-9]+') + ')(?![a-z0-9])', 'i');
    const section = target.closest('section') || target.closest('.course-chapter');
    const walk = document.createTreeWalker(section, NodeFilter.SHOW_TEXT, {acceptNode: (n) =>
      n.parentElement.closest(skip) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
    walk.currentNode = target;
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      const found = pattern.exec(node.data);
      if (!found) continue;
      const start = found.index + found[1].length;
      const rest = node.splitText(start);
      rest.splitText(found[2].length);
      const span = document.createElement('span');
      span.className = 'course-index-term';
      rest.replaceWith(span);
      span.append(rest);
      return span;
    }
    return null;
  };
  for (const entry of index ? index.querySelectorAll('.genindextable li') : []) {
    const links = [...entry.children].filter(
      (e) => e.localName === 'a' && (e.getAttribute('href') || '').startsWith('#'));
    if (!links.length) continue;
    const term = links[0].textContent.trim();
    for (const link of links) {
      const place = link.getAttribute('href').slice(1);
      const key = `${place}--${slug(term)}`;
      if (!made.has(key)) {
        const target = document.getElementById(place);
        const span = target && mention(target, term);
        if (span) span.id = key;
        made.set(key, span ? key : null);
      }
      if (made.get(key)) {
        link.setAttribute('href', '#' + made.get(key));
        moved += 1;
      } else {
        kept.push(`${term} (${place})`);
      }
    }
  }
  return {moved, kept};
}"""


# The index on paper: after each place an entry links to, the page number it is on in course.pdf
# (``places``: a target's id to its page, read from the printed PDF; ``id``: the index chapter's).
# Chromium has no CSS target-counter(), hence two prints (Printer.pdf). The number is a link to the
# place too. Returns how many numbers were written anew or changed, and the targets the PDF has no
# place for.
_PAGE_NUMBERS = """([id, places]) => {
  const index = document.getElementById(id);
  let changed = 0;
  const missing = [];
  for (const entry of index ? index.querySelectorAll('.genindextable li') : []) {
    const links = [...entry.children].filter(
      e => e.localName === 'a' && (e.getAttribute('href') || '').startsWith('#'));
    const named = links.filter(a => a.classList.contains('course-index-place'));
    for (const link of named.length ? named : links.slice(0, 1)) {
      const target = link.getAttribute('href').slice(1);
      const page = places[target];
      if (!page) { missing.push(target); continue; }
      const words = `p.\u00a0${page}`;
      let after = link.nextElementSibling;
      if (after && after.matches('span.course-index-place')) after = after.nextElementSibling;
      if (after && after.matches('a.course-index-page')) {
        if (after.textContent !== words) { after.textContent = words; changed += 1; }
        continue;
      }
      const number = document.createElement('a');
      number.className = 'course-index-page';
      number.setAttribute('href', '#' + target);
      number.textContent = words;
      const before = (link.nextElementSibling && link.nextElementSibling.matches(
        'span.course-index-place')) ? link.nextElementSibling : link;
      before.after(' ', number);
      changed += 1;
    }
  }
  return {changed, missing};
}"""


def destinations(path: Path) -> dict[str, int]:
    """The named destinations of a PDF Chromium printed (one per target of a link inside it: an
    element's id): each name's page number, from 1."""
    import pikepdf

    found: dict[str, int] = {}
    with pikepdf.open(path) as pdf:
        number = {page.objgen: i for i, page in enumerate(pdf.pages, start=1)}
        named: list[tuple[str, Any]] = []
        if "/Dests" in pdf.Root:
            named += [(str(name)[1:], dest) for name, dest in pdf.Root.Dests.items()]
        if "/Names" in pdf.Root and "/Dests" in pdf.Root.Names:
            named += [(str(name), dest) for name, dest in
                      pikepdf.NameTree(pdf.Root.Names.Dests).items()]
        for name, dest in named:
            if isinstance(dest, pikepdf.Dictionary):
                dest = dest.get("/D")
            if isinstance(dest, pikepdf.Array) and len(dest) and dest[0].objgen in number:
                found[name] = number[dest[0].objgen]
    return found


def _mm_to_px(mm: float) -> float:
    return mm / 25.4 * 96


@dataclass
class Printer:
    """Debian's Chromium under Playwright, printing pages of the site to PDF."""

    paper: str = "a4"
    browser: Any = None
    language: str = ENGLISH

    def pdf(self, html_path: Path, out: Path, *, title: str) -> list[tuple[int, str]]:
        """Print one page; the headings (level, words) its bookmarks are made from."""
        width, _height = PAPERS[self.paper]
        content = _mm_to_px(width - MARGIN["left"] - MARGIN["right"])
        context = self.browser.new_context(viewport={"width": int(content), "height": 1000})
        try:
            page = context.new_page()
            page.set_default_timeout(PAGE_TIMEOUT)
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(html_path.as_uri(), wait_until="load")
            if not page.evaluate(_SETTLED):
                raise PdfError(f"{html_path.name}: a picture, an explorer or a board editor never "
                               "finished drawing")
            page.emulate_media(media="print")
            page.evaluate(_EXPLORERS_FOR_PAPER, [
                _("On paper, the explorer as the website first draws it, its settings in bold; on "
                  "the website or in the notebook it is live."), _("none")])
            paper = page.evaluate(_FOR_PAPER)
            if paper["cut"]:
                raise PdfError(f"{html_path.name}: cut at the margin on paper: "
                               + "; ".join(paper["cut"]))
            headings = [(int(level), str(words)) for level, words in page.evaluate(_HEADINGS)]
            out.parent.mkdir(parents=True, exist_ok=True)

            def print_it() -> None:
                page.pdf(path=str(out),
                         format=self.paper.upper() if self.paper == "a4" else "Letter",
                         tagged=True, outline=True, print_background=True,
                         display_header_footer=True, header_template=HEADER,
                         footer_template=_footer(),
                         margin={k: f"{v}mm" for k, v in MARGIN.items()})

            has_index = page.evaluate(f"() => !!document.getElementById('{Chapter(INDEX).key}')")
            if has_index:
                page.evaluate(_INDEX_TARGETS, Chapter(INDEX).key)
            print_it()
            if has_index:
                self._number_the_index(page, out, print_it)
            if errors:
                raise PdfError(f"{html_path.name}: a script failed: {errors[0]}")
        finally:
            context.close()
        finish(out, title=title, headings=headings, lang=self.language)
        return headings


    @staticmethod
    def _number_the_index(page: Any, out: Path, print_it: Callable[[], None]) -> None:
        """Write into the index the page number of each place it links to, as the PDF just
        printed has it, and print again, until the numbers are those of the PDF (the index is
        the last chapter: its numbers move no page before it, so a second print settles them)."""
        prints = 1
        while True:
            numbers = page.evaluate(_PAGE_NUMBERS, [Chapter(INDEX).key, destinations(out)])
            if numbers["missing"]:
                raise PdfError(f"{out.name}: the index links to places the PDF has no "
                               f"destination for: {', '.join(numbers['missing'][:5])}")
            if not numbers["changed"]:
                return
            if prints == MAX_INDEX_PRINTS:
                raise PdfError(f"{out.name}: the index's page numbers still moved after "
                               f"{prints} prints")
            print_it()
            prints += 1


def finish(path: Path, *, title: str, headings: list[tuple[int, str]], lang: str = "en") -> None:
    """What a reader's software shows and reads, set with pikepdf: the title (shown as the window's
    title), the language, XMP metadata, and bookmarks with the headings' own words."""
    import pikepdf

    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        root = pdf.Root
        if "/Lang" not in root:
            root.Lang = pikepdf.String(lang)
        prefs = root.get("/ViewerPreferences", pikepdf.Dictionary())
        prefs.DisplayDocTitle = True
        root.ViewerPreferences = prefs
        pdf.docinfo["/Title"] = pikepdf.String(title)
        pdf.docinfo["/Author"] = pikepdf.String(AUTHOR)
        with pdf.open_metadata(set_pikepdf_as_editor=False) as meta:
            meta["dc:title"] = title
            meta["dc:creator"] = [AUTHOR]
            meta["dc:language"] = [lang]
        _bookmarks(pdf, headings, path.name)
        pdf.save(path)


def _bookmarks(pdf: Any, headings: list[tuple[int, str]], name: str) -> None:
    """Chromium's bookmarks, one per heading in order, with the headings' words and nesting."""
    import pikepdf

    with pdf.open_outline() as outline:
        places = []

        def walk(items: list[Any]) -> None:
            for item in items:
                places.append(item.destination)
                walk(item.children)

        walk(outline.root)
        if len(places) != len(headings):
            raise PdfError(f"{name}: Chromium made {len(places)} bookmarks for {len(headings)} "
                           "headings; cannot give them their words")
        tree: list[Any] = []
        stack: list[tuple[int, Any]] = []
        for (level, words), place in zip(headings, places, strict=True):
            item = pikepdf.OutlineItem(words or "(untitled)", place)
            while stack and stack[-1][0] >= level:
                stack.pop()
            (stack[-1][1].children if stack else tree).append(item)
            stack.append((level, item))
        for item in tree:                 # chapters open, their sections' subsections closed
            for section in item.children:
                section.is_closed = bool(section.children)
        outline.root.clear()
        outline.root.extend(tree)


def _chapter_title(site: Path, chapter: Chapter) -> str:
    text = (site / f"{chapter.page}.html").read_text(encoding="utf-8")
    found = re.search(r"<title>(.*?)</title>", text, re.S)
    words = html.unescape(found[1]).strip() if found else chapter.page
    course = _(COURSE_TITLE)
    return words.removesuffix(f" — {course}").strip() or course


def print_pdfs(site: Path, out: Path, *, solutions: bool = False, course: bool = True,
               only: list[str] | None = None, paper: str = "a4",
               language: str = ENGLISH) -> list[Path]:
    """Print the course (``course.pdf``) and its chapters' PDFs from the website ``site``.

    Parameters
    ----------
    site : pathlib.Path
        The website built by ``make site`` (``book/build.py``).
    out : pathlib.Path
        Where the PDFs go: ``course.pdf`` and ``<folder>/<page>.pdf`` per chapter.
    solutions : bool
        Add the worked solutions (the site must hold them: ``make site SOLUTIONS=1``).
    course : bool
        Print ``course.pdf``.
    only : list of str, optional
        Print only these chapters' own PDFs (``lessons/01_waiting_for_heads``, ...); by default
        every chapter's.
    paper : str
        ``"a4"`` or ``"letter"``.
    language : str
        The site's language (``"es"`` for ``<site>/es``): the PDFs' ``/Lang`` and the words this
        script adds.

    Returns
    -------
    list of pathlib.Path
        The PDFs written.
    """
    from playwright.sync_api import sync_playwright

    site = site.resolve()
    if not (site / "index.html").exists():
        raise PdfError(f"no website in {site}: run `make site` first (make pdf does)")
    if not Path(CHROMIUM).exists():
        raise PdfError(f"{CHROMIUM} not found (apt-get install chromium)")
    if paper not in PAPERS:
        raise PdfError(f"paper {paper!r}: choose one of {', '.join(sorted(PAPERS))}")
    every = chapters(site, solutions=solutions)
    # the start page and the reference pages are course.pdf's, not handouts (unless asked for)
    reference = {"index", *reference_pages()}
    wanted = ([c for c in every if c.page not in reference] if only is None
              else [c for c in every if c.page in only])
    if only is not None and len(wanted) != len(set(only)):
        known = ", ".join(c.page for c in every)
        raise PdfError(f"--only names a page that is not a chapter; the chapters: {known}")
    out = out.resolve()
    if only is None and course:
        # A full print replaces the last one: no answer keys left over from a SOLUTIONS=1 print
        # beside a class's handouts.
        for folder in ("lessons", "exercises", "solutions"):
            for stale in (out / folder).glob("*.pdf"):
                stale.unlink()
        (out / "course.pdf").unlink(missing_ok=True)
    written: list[Path] = []
    global _words
    _words = _read_words(language)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=CHROMIUM_ARGS, timeout=60_000)
            try:
                printer = Printer(paper=paper, browser=browser, language=language)
                if course:
                    title = _(COURSE_TITLE) + (_(", with the worked solutions") if solutions
                                               else "")
                    printer.pdf(print_page(site, every, title, "course"), out / "course.pdf",
                                title=title)
                    written.append(out / "course.pdf")
                for chapter in wanted:
                    words = _chapter_title(site, chapter)
                    title = words if words == _(COURSE_TITLE) else f"{words} — {_(COURSE_TITLE)}"
                    target = out / f"{chapter.page}.pdf"
                    printer.pdf(print_page(site, [chapter], title, chapter.key), target,
                                title=title)
                    written.append(target)
            finally:
                browser.close()
    finally:
        _words = {}
        shutil.rmtree(site / PRINT_DIR, ignore_errors=True)   # the site as make site left it
    return written


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(argv)
        written = [] if args.language not in ("all", ENGLISH) else print_pdfs(
            args.site, args.out, solutions=args.solutions, course=args.course, only=args.only,
            paper=args.paper)
        for language in TRANSLATIONS:       # each translation's site, when make site built it
            built = (args.site / language / "index.html").exists()
            if args.language == language and not built:
                raise PdfError(f"no {language} website in {args.site / language}: run `make site`")
            if args.language in ("all", language) and built:
                written += print_pdfs(args.site / language, args.out / language,
                                      solutions=args.solutions, course=args.course,
                                      only=args.only, paper=args.paper, language=language)
    except PdfError as exc:
        print(f"book/pdf.py: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(f"book/pdf.py: wrote {path.relative_to(args.out.resolve())}")
    print(f"{len(written)} PDFs in {args.out}"
          + (", the worked solutions included" if args.solutions else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
