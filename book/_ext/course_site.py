"""Sphinx extension of the course website (book/build.py stages it as ``_ext/course_site.py``).

Alt text: a figure from ``chutes_edu.plots`` carries its description in the output's metadata,
``{"image/png": {"alt": "..."}}`` (the convention nbconvert and nbsphinx read). MyST-NB reads alt
text only from cell metadata, so the image renderer is wrapped to take it from the output too.
Every image left without alt text is reported as a build warning naming its page.

Link addresses: MyST (myst-parser 3) HTML-escapes a Markdown link's address and Sphinx's HTML
writer escapes it again, so an ``&`` in a link (the hub's launch links: ``?repo=...&urlpath=...``)
reached the page as ``&amp;amp;`` and the hub read a parameter ``amp;urlpath``. External addresses
are given back what the Markdown said before the page is written.

Words: the few this extension writes into pages ("this page", a toggle's name) in the site's
language, from the ``course_words`` the build gives it (book/build.py: ``book.po``'s translations).

The index: Sphinx names an entry's second and later pages "[1]", "[2]"; the site's genindex.html
(templates/) names each page by its title instead (:func:`index_places`).

Formulas: the site's math renderer ``course_prerendered`` writes each formula's TeX as Sphinx's
MathJax renderer does (``\\( \\)`` in ``span.math``, ``\\[ \\]`` in ``div.math``) but adds no
MathJax to any page: book/lean_pages.py draws them when the site is built.

Thebe: Jupyter Book always loads sphinx-thebe, which writes the address of thebe on a CDN into
every page (twice, a script error) although the course does not use it (a live kernel needs the
network anyway; the launch links open Binder or a hub instead). Its handlers are taken out.
"""

from __future__ import annotations

import html
from typing import Any

from docutils import nodes
from myst_nb.core.render import MimeData, NbElementRenderer
from sphinx.application import Sphinx
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)
_words: dict[str, str] = {}     # the site's translations of this module's words (config-inited)


def _(text: str) -> str:
    """``text`` in the site's language (``course_words``), or as written."""
    return _words.get(text, text)


def _read_words(app: Sphinx, config: Any) -> None:
    _words.clear()
    _words.update(config.course_words or {})
_render_image = NbElementRenderer.render_image


def _alt_from_output(data: MimeData) -> str:
    meta = data.output_metadata or {}
    per_type = meta.get(data.mime_type) or {}
    return str(per_type.get("alt") or meta.get("alt") or "").strip()


def render_image(self: NbElementRenderer, data: MimeData) -> list[nodes.Element]:
    result = _render_image(self, data)
    alt = _alt_from_output(data)
    for node in result:
        if isinstance(node, nodes.image) and alt and not node.get("alt"):
            node["alt"] = alt
    return result


def _report_missing_alt(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for node in doctree.findall(nodes.image):
        if not str(node.get("alt", "")).strip():
            LOGGER.warning("an image without alt text in %s (%s)", docname, node.get("uri"),
                           location=node, type="course", subtype="alt")


def _link_addresses_as_written(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for node in doctree.findall(nodes.reference):
        uri = str(node.get("refuri", ""))
        if "://" in uri and "&" in uri:
            node["refuri"] = html.unescape(uri)


def _without_thebe(app: Sphinx) -> None:
    for listeners in app.events.listeners.values():
        listeners[:] = [entry for entry in listeners
                        if not getattr(entry.handler, "__module__", "").startswith("sphinx_thebe")]
    app.registry.css_files = [entry for entry in app.registry.css_files
                              if "thebe" not in str(entry[0])]
    css_files = getattr(app.builder, "css_files", None)
    if css_files is not None:
        css_files[:] = [css for css in css_files
                        if "thebe" not in str(getattr(css, "filename", css))]


def _one_search_field(app: Sphinx, config: Any) -> None:
    """sphinx-book-theme 1.3 with pydata-sphinx-theme 0.17 puts a second search field in a bar
    above the page; the one in the sidebar (and Ctrl+K) is enough."""
    config.html_theme_options["navbar_persistent"] = []


def _own_templates(app: Sphinx, config: Any) -> None:
    """Our copies of two theme components (templates/), found before the theme's."""
    from pathlib import Path
    config.templates_path = [str(Path(__file__).parent / "templates"), *config.templates_path]


def index_places(links: list[tuple[Any, str]],
                 titles: dict[str, str]) -> list[tuple[Any, str, str]]:
    """``(main, link, place)`` for each of an index entry's ``(main, link)``: ``place`` is the title
    of the page the link opens (``titles``: by page name), numbered from its second link into the
    same page on ("Lesson 3 — Markov chains (2)"); a page with no title is named by its path."""
    seen: dict[str, int] = {}
    out = []
    for main, link in links:
        page = link.split("#", 1)[0]
        name = page[:-len(".html")] if page.endswith(".html") else page
        seen[name] = seen.get(name, 0) + 1
        place = titles.get(name) or name or _("this page")
        out.append((main, link, place if seen[name] == 1 else f"{place} ({seen[name]})"))
    return out


def _index_places(app: Sphinx, pagename: str, templatename: str, context: dict,
                  doctree: Any) -> None:
    """Give the index page (genindex.html) :func:`index_places` over the site's page titles."""
    if pagename != "genindex":
        return
    titles = {name: title.astext() for name, title in app.env.titles.items()}
    context["course_index_places"] = lambda links: index_places(links, titles)


def _name_toc_toggles(app: Sphinx, pagename: str, templatename: str, context: dict,
                      doctree: Any) -> None:
    """Every chevron <summary> of the navigation gets a name (axe: summary-name)."""
    original = context.get("generate_toctree_html")
    if original is None:
        return

    def generate_toctree_html(*args: Any, **kwargs: Any) -> Any:
        soup = original(*args, **kwargs)
        if isinstance(soup, str):
            return soup
        for summary in soup.find_all("summary"):
            item = summary.find_parent("li")
            link = item.find("a", recursive=False) if item else None
            title = link.get_text(" ", strip=True) if link else _("this part")
            summary["aria-label"] = _("{title}: show or hide its pages").format(title=title)
        return soup

    context["generate_toctree_html"] = generate_toctree_html


def lab_heading_id(title: str) -> str:
    """A heading's anchor as JupyterLab makes it (its text, spaces turned into hyphens): the site's
    ``myst_heading_slug_func``, so that ``toolbox.ipynb#Geometric-series`` resolves on a page as it
    does in JupyterLab (book/build.py, ``lab_anchor``)."""
    return title.strip().replace(" ", "-")


def setup(app: Sphinx) -> dict[str, Any]:
    from sphinx.ext.mathjax import html_visit_displaymath, html_visit_math

    app.add_html_math_renderer("course_prerendered", (html_visit_math, None),
                               (html_visit_displaymath, None))
    app.add_config_value("course_words", {}, "html", dict)
    app.connect("config-inited", _read_words)
    app.connect("config-inited", _one_search_field)
    app.connect("config-inited", _own_templates)
    app.connect("html-page-context", _name_toc_toggles, priority=900)
    app.connect("html-page-context", _index_places)
    NbElementRenderer.render_image = render_image  # type: ignore[method-assign]
    app.connect("doctree-resolved", _report_missing_alt)
    app.connect("doctree-resolved", _link_addresses_as_written)
    app.connect("builder-inited", _without_thebe)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
