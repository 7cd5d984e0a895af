"""The words of the website's pages for the search page's excerpts, so that they show from disk.

Sphinx's search page (``_static/searchtools.js``) shows under each result an excerpt of the page
around the words searched for, which it fetches from the page itself. A website opened from disk
(``file://``) may fetch nothing: every excerpt failed, with an error in the console for each
result. :func:`write_search_text` (``book/build.py`` runs it after ``lean_pages.lean_site``)
writes the words of every page the search index names, beside the index, into
``_static/search_text.js``, and gives ``search.html``, and no other page, that file and
``_static/search_offline.js`` (book/static/), which answers the search page's fetch of a page from
those words: the same excerpts from disk as over HTTP, and no request for a page at all.

A page's words are its article's, as a reader sees them: its headings, text, code and hints, each
formula as its words (MathJax's assistive MathML), without the code cells' outputs (long tables of
numbers, up to a third of the words of a lesson and seldom what is searched for) or the
headings' "#" links. They are kept in order with the sections and the places an index entry
names (``[id, [words, [id, [...]], words, ...]]``), because Sphinx cuts the excerpt of a result
that names one from that place: ``[role="main"] #<id>``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

DATA = "search_text.js"                 # under _static/
SCRIPT = "search_offline.js"            # book/static/, copied into _static/ with the others
GLOBAL = "CourseSearchText"             # the data's name in the page (search_offline.js reads it)
_DROP = ".headerlink, script, style, div.cell_output, mjx-container > svg"
_INDEX_SCRIPT = re.compile(r'[ \t]*<script[^>]*src="[^"]*searchtools\.js[^"]*"[^>]*></script>')


class SearchTextError(RuntimeError):
    """The website lacks what the search page's words come from (its search index or pages)."""


def _index(out: Path) -> dict[str, Any]:
    """The search index (``searchindex.js``: ``Search.setIndex({...})``)."""
    index = out / "searchindex.js"
    if not index.exists():
        raise SearchTextError(f"no search index in {out}: was the site built by book/build.py?")
    text = index.read_text(encoding="utf-8")
    return dict(json.loads(text[text.index("(") + 1:text.rindex(")")]))


def anchors(index: dict[str, Any]) -> dict[str, set[str]]:
    """The places in each page that a result can name (a section's title, an index entry's
    target: ``#index-2``, ``#term-seed``), by page."""
    names = index["docnames"]
    found: dict[str, set[str]] = {name: set() for name in names}
    for places in [*index.get("alltitles", {}).values(), *index.get("indexentries", {}).values()]:
        for place in places:
            if place[1]:
                found[names[place[0]]].add(str(place[1]))
    return found


def _node(element: Any, places: set[str]) -> list[Any]:
    """``[id, content]`` of ``element``: its words in order, a run of text as one string, each
    section or named place inside it as a node of its own."""
    from bs4.element import NavigableString, Tag

    content: list[Any] = []

    def add(words: str) -> None:
        if not words:
            return
        if content and isinstance(content[-1], str):
            content[-1] += " " + words
        else:
            content.append(words)

    def walk(node: Any) -> None:
        for child in node.children:
            if isinstance(child, Tag):
                if child.name == "section" or child.get("id") in places:
                    content.append(_node(child, places))
                else:
                    walk(child)
            elif isinstance(child, NavigableString):
                add(" ".join(str(child).split()))

    walk(element)
    return [str(element.get("id") or "") if element.name != "article" else "", content]


def page_words(html_text: str, places: set[str] | frozenset[str] = frozenset()) -> list[Any]:
    """The words of a built page's article, by section (the module's docstring).

    Parameters
    ----------
    html_text : str
        A page of the website, as book/build.py left it.
    places : set of str
        The ids of the elements a search result may name besides sections (:func:`anchors`).

    Returns
    -------
    list
        ``["", content]``: the article's words in order, a run of text a string, each section
        or named place a node ``[id, content]`` of its own.
    """
    from bs4 import BeautifulSoup
    from bs4.element import Comment

    article = BeautifulSoup(html_text, "lxml").select_one("article.bd-article")
    if article is None:
        return ["", []]
    for element in article.select(_DROP):
        element.decompose()
    for comment in article.find_all(string=lambda s: isinstance(s, Comment)):
        comment.extract()
    return _node(article, set(places))


def write_search_text(out: Path) -> Path:
    """Write ``_static/search_text.js`` for the website in ``out`` and load it, with
    ``search_offline.js``, on its search page only.

    Parameters
    ----------
    out : pathlib.Path
        The built website (``search.html``, ``searchindex.js``, ``_static/``).

    Returns
    -------
    pathlib.Path
        The data file written.
    """
    places = anchors(_index(out))
    words = {name: page_words((out / f"{name}.html").read_text(encoding="utf-8"), found)
             for name, found in places.items() if (out / f"{name}.html").exists()}
    data = out / "_static" / DATA
    data.write_text(f"window.{GLOBAL} = "
                    + json.dumps(words, ensure_ascii=False, separators=(",", ":")) + ";\n",
                    encoding="utf-8")
    search = out / "search.html"
    page = search.read_text(encoding="utf-8")
    if f"_static/{SCRIPT}" not in page:
        found = _INDEX_SCRIPT.search(page)
        if found is None:
            raise SearchTextError("search.html loads no searchtools.js: cannot add the excerpts' "
                                  "words before it")
        tags = (f'<script defer src="_static/{DATA}"></script>\n'
                f'<script defer src="_static/{SCRIPT}"></script>\n')
        page = page[:found.start()] + tags + page[found.start():]
        search.write_text(page, encoding="utf-8")
    return data
