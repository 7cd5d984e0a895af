"""The built website's pages made light for a phone (issue 52): ``book/build.py`` runs
:func:`lean_site` over the HTML that Sphinx wrote.

What a page no longer makes its reader's browser fetch or do, and why:

- **Formulas drawn at build time.** Every formula (MyST's ``span.math`` / ``div.math`` and the TeX
  of HTML outputs such as ``chutes_edu.plots.matrices``' ``$$...$$``) is drawn once, here, by
  MathJax 3 in Node (``book/render_math.mjs``: TeX in, SVG out, with MathJax's assistive MathML
  beside each drawing for screen readers and for the PDF's tags). The page loads no MathJax (its
  1.2 MB script and fonts, and a typeset of up to 2 s on the reader's main thread). MathJax draws
  each formula with its own glyphs; a page then keeps each glyph once, in a hidden SVG at the top
  of its article (:func:`shared_glyphs`: Lesson 11 went from 1.26 MB to 0.70 MB; book/pdf.py
  carries the article, glyphs included, into the printed page, where each formula is still a
  Figure with its words). A display formula is fitted to a phone's screen by its style
  (:func:`fitted`), not by a script measuring it. MathJax's small stylesheet is
  ``_static/math.css``, bundled with the others (below).
- **One stylesheet a page.** The theme's dozen stylesheets (and MathJax's) are one file, the same
  on every page (:func:`bundle_stylesheets`): each was one more round trip before a phone could
  show the page's first words. The explorers' own stays apart, loaded only where one is drawn.
- **Only the rules a page can use.** That one stylesheet is cut (:func:`pruned_css`: PurgeCSS,
  npm) to the rules whose classes, ids and elements occur in a page or a script of the site: the
  theme's bundle was 565 KB (95 KB compressed, all of it fetched before a page shows a word), most
  of it Font Awesome's classes for 2,000 icons the site does not draw with them and Bootstrap
  components the theme never shows. The course's own stylesheets are kept whole.
- **No measuring of every box at load.** The theme's script measured every code box, output and
  table while the page loaded and after each explorer was drawn, to make those that scroll Tab
  stops; ``course.js`` does it, as each box nears the screen (:func:`without_theme_scroll_stops`).
- **Icons inline.** The theme's icons (``<i class="fa-solid fa-...">``) become the inline SVG that
  Font Awesome's script would have made of them at load time, so its 1.5 MB script is not loaded.
- **The search index only where someone searches** (search.html): the theme loaded it on every
  page, render-blocking, although search-as-you-type is off.
- **No script blocks the page**: every script is deferred (in order), except
  ``documentation_options.js``, a few hundred bytes that the page's inline scripts need at once.
- **Icon fonts cut to the icons shown.** The theme draws a few icons from CSS with Font Awesome's
  web fonts (an admonition's bell, a breadcrumb's chevron, a link's arrow: ``--pst-icon-*``), and
  a page that shows one fetched the whole font (the solid one: 156 KB). Each font is cut down
  (fontTools' subsetter) to the characters the site's stylesheets draw with it
  (:func:`font_characters`), the same file names kept, so that no stylesheet changes.
- **Pictures as the reader nears them**: a plot's ``<img>`` is ``loading="lazy"`` (a lesson's
  plots were most of its bytes, fetched before its first words on a phone's network).
- **An explorer's code only with the explorer**: each front end is a script of its own
  (``site-<name>.js``, built by tools/build_front_end.mjs), and a page loads those of the places
  it has (:func:`site_scripts`: its explorers, board editor, calculator, and the board maths of a
  box whose answer is jumps), with the small runtime ``site.js`` that draws them, and the
  explorers' stylesheet only where one is drawn. A page that shows none loads none of them. The
  runtime fetches the front ends' scripts (its ``data-front-ends``) once it runs, when the page
  is parsed: in the page's head, they took a slow network's bandwidth before the first words.
"""

from __future__ import annotations

import html
import json
import logging
import os
import re
import shutil
import subprocess
import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from chutes_edu.widgets._front_end import front_ends

MATH_CSS = "math.css"   # under _static/
# A page's TeX as MathJax found it in the browser: inline \( \), display \[ \] and $$ $$, in text
# outside code. (MathJax's default delimiters, the ones the site's configuration left on.)
TEX = re.compile(r"\\\((?P<inline>.+?)\\\)|\\\[(?P<display>.+?)\\\]|\$\$(?P<dollars>.+?)\$\$",
                 re.DOTALL)
_TAG = re.compile(r"<!--.*?-->|<(/?)([a-zA-Z][\w-]*)[^>]*>", re.DOTALL)
_RAW = {"pre", "code", "script", "style", "textarea", "kbd", "samp", "svg", "math", "title"}
_MATHJAX_SCRIPT = re.compile(r'[ \t]*<script>window\.MathJax = .*?</script>\n?'
                             r'|[ \t]*<script[^>]*src="[^"]*mathjax[^"]*"[^>]*></script>\n?',
                             re.IGNORECASE)
_FONTAWESOME = re.compile(r'[ \t]*<script[^>]*src="[^"]*fontawesome\.js[^"]*"[^>]*></script>\n?')
_SEARCH_SCRIPTS = re.compile(r'[ \t]*<script src="[^"]*(?:searchtools\.js|language_data\.js|'
                             r'searchindex\.js)[^"]*"></script>\n?')
_SCRIPT_SRC = re.compile(r'<script(?P<attrs>[^>]*?)\ssrc="(?P<src>[^"]+)"(?P<rest>[^>]*)>')
_ICON = re.compile(r'<(?P<tag>i|span)\s(?P<attrs>[^>]*\bclass="(?P<cls>[^"]*\bfa-[^"]*)"[^>]*)>'
                   r'\s*</(?P=tag)>')
_PACKS = {"fa-solid": "fas", "fas": "fas", "fa-brands": "fab", "fab": "fab",
          "fa-regular": "far", "far": "far"}
# The places a page's scripts draw into (book/build.py, book/answers.py; js/site/places.js), and
# the scripts of the website (tools/build_front_end.mjs builds them into chutes_edu/widgets/static).
EDITOR_MOUNT = "chutes-board-editor-mount"
_EXPLORER = re.compile(r'class="chutes-explorer-mount"[^>]*\bdata-explorer="([^"]+)"')
CALCULATOR_MOUNT = "chutes-calculator-mount"
_JUMPS_BOX = 'data-kind="jumps"'        # answers.js judges it with window.ChutesMaths
RUNTIME = "site.js"                     # draws each place with the scripts below
PRESETS = "board_presets.js"            # the named boards an editor or a calculator resets to
MATHS = "site-maths.js"
_SITE_SCRIPTS = re.compile(r'[ \t]*<script[^>]*src="[^"]*_static/(?:board_presets|site[\w-]*)\.js'
                           r'[^"]*"[^>]*></script>\n?')
_SITE_CSS = re.compile(r'[ \t]*<link[^>]*href="[^"]*_static/site\.css[^"]*"[^>]*>\n?')


class LeanError(RuntimeError):
    """A formula MathJax could not read, or a tool missing: the build stops, saying which."""


# ------------------------------------------------------------------------------ formulas
def _text_spans(page: str) -> list[tuple[int, int]]:
    """(start, end) of each stretch of ``page``'s body text outside tags, comments and the
    elements whose text is no prose (code, scripts, SVG, MathML)."""
    start = page.find("<body")
    spans: list[tuple[int, int]] = []
    raw: list[str] = []
    at = start
    for match in _TAG.finditer(page, start):
        if not raw and match.start() > at:
            spans.append((at, match.start()))
        at = match.end()
        name = (match[2] or "").lower()
        if name in _RAW and not match[0].endswith("/>"):
            if match[1]:
                if raw and raw[-1] == name:
                    raw.pop()
            else:
                raw.append(name)
    return spans


def page_formulas(page: str) -> list[tuple[int, int, str, bool]]:
    """Each formula of ``page``: (start, end, its TeX, whether it is displayed)."""
    found = []
    for begin, end in _text_spans(page):
        text = page[begin:end]
        if "\\(" not in text and "\\[" not in text and "$$" not in text:
            continue
        for match in TEX.finditer(text):
            tex = match["inline"] if match["inline"] is not None else (
                match["display"] if match["display"] is not None else match["dollars"])
            found.append((begin + match.start(), begin + match.end(), html.unescape(tex),
                          match["inline"] is None))
    return found


def render_formulas(pages: list[list[tuple[str, bool]]], node_modules: Path
                    ) -> tuple[str, list[list[str]]]:
    """MathJax's stylesheet, and per page its formulas drawn (``book/render_math.mjs``, one Node
    process for the whole site)."""
    node = shutil.which("node")
    if node is None:
        raise LeanError("Node.js is needed to draw the formulas (apt-get install nodejs)")
    request = json.dumps({"pages": [[[tex, display] for tex, display in formulas]
                                    for formulas in pages]})
    done = subprocess.run([node, str(Path(__file__).with_name("render_math.mjs"))],
                          input=request, capture_output=True, text=True, check=False,
                          cwd=node_modules.parent)
    if done.returncode != 0:
        raise LeanError(f"drawing the formulas failed: {done.stderr[-2000:]}")
    answer = json.loads(done.stdout)
    errors = [tex for page in answer["pages"] for tex in page["errors"]]
    if errors:
        raise LeanError(f"MathJax could not read {len(errors)} formula(s), the first: {errors[0]}")
    return answer["css"], [page["formulas"] for page in answer["pages"]]


# ------------------------------------------------------------------------------ icons
def icon_paths(fontawesome_js: str) -> dict[tuple[str, str], tuple[int, int, str]]:
    """Every icon of Font Awesome's script: (pack, name) -> (width, height, SVG path)."""
    icons: dict[tuple[str, str], tuple[int, int, str]] = {}
    entry = re.compile(r'(?:"(?P<q>[a-z0-9-]+)"|(?<![\w"])(?P<u>[a-z0-9]+)):\[(?P<w>\d+),'
                       r'(?P<h>\d+),\[[^\]]*\],"[^"]*","(?P<d>[^"]+)"\]')
    at = 0
    for marker in re.finditer(r'\bd\("(fa[bsr])",p\)', fontawesome_js):
        for match in entry.finditer(fontawesome_js, at, marker.start()):
            icons[(marker[1], match["q"] or match["u"])] = (int(match["w"]), int(match["h"]),
                                                            match["d"])
        at = marker.end()
    return icons


def _inline_icon(match: re.Match[str], icons: dict[tuple[str, str], tuple[int, int, str]]
                 ) -> str:
    classes = match["cls"].split()
    pack = next((_PACKS[c] for c in classes if c in _PACKS), "fas")
    names = [c[3:] for c in classes if c.startswith("fa-") and c not in _PACKS
             and c[3:] not in ("lg", "fw", "sm", "xs", "2x")]
    icon = next((icons[(pack, n)] for n in names if (pack, n) in icons), None)
    if icon is None:
        return match[0]
    width, height, path = icon
    attrs = match["attrs"].replace(f'class="{match["cls"]}"',
                                   f'class="svg-inline--fa {" ".join(classes)}"')
    if "aria-hidden" not in attrs:
        attrs += ' aria-hidden="true"'
    return (f'<svg {attrs} focusable="false" role="img" xmlns="http://www.w3.org/2000/svg" '
            f'viewBox="0 0 {width} {height}"><path fill="currentColor" d="{path}"></path></svg>')


# ------------------------------------------------------------------------------ fonts
FONTS = "vendor/fontawesome/webfonts"  # under _static/: the theme's Font Awesome fonts
_CSS_RULE = re.compile(r"([^{}]*)\{([^{}]*)\}")
_CSS_STRING = re.compile(r'(?:content|--[\w-]+)\s*:\s*"([^"]*)"')
_ICON_RULE = re.compile(r"\.fa-[\w-]+::?(?:before|after)")
_PRIVATE = range(0xE000, 0xF900)     # Unicode's private use area, where Font Awesome's icons are


def _css_characters(text: str) -> set[int]:
    out = set()
    for value in re.findall(r"\\([0-9a-fA-F]{1,6})\s?|(.)", text, re.DOTALL):
        out.add(int(value[0], 16) if value[0] else ord(value[1]))
    return out


def font_characters(stylesheets: list[str], page_classes: set[str]) -> set[int]:
    """The icons (private-use characters) the site draws with Font Awesome's fonts: those of the
    stylesheets' strings (``content: "..."`` and custom properties such as the theme's
    ``--pst-icon-bell``), but not of the rules that give each icon class its character
    (``.fa-bell:before``), which count only for a class in ``page_classes`` (an icon left as a
    ``<i class="fa-...">`` in a page; the others are inline SVG).

    Parameters
    ----------
    stylesheets : list of str
        The text of each stylesheet of the site.
    page_classes : set of str
        The ``fa-...`` classes of the elements left for the fonts to draw.

    Returns
    -------
    set of int
        Code points.
    """
    found: set[int] = set()
    for css in stylesheets:
        for selectors, body in _CSS_RULE.findall(css):
            names = [s.strip() for s in selectors.split(",")]
            if all(_ICON_RULE.fullmatch(n) for n in names) and not any(
                    n.split(":")[0][1:] in page_classes for n in names):
                continue
            for value in _CSS_STRING.findall(body):
                found |= {c for c in _css_characters(value) if c in _PRIVATE}
    return found


def subset_fonts(static: Path, characters: set[int]) -> None:
    """Cut each of Font Awesome's fonts under ``static`` (:data:`FONTS`) down to ``characters``,
    in place (WOFF2 needs the ``brotli`` package: fontTools' ``woff`` extra)."""
    try:
        from fontTools import subset  # type: ignore[import-untyped]
        from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
    except ImportError as exc:
        raise LeanError("fontTools is needed to cut the icon fonts down "
                        "(pip install 'fonttools[woff]')") from exc
    logging.getLogger("fontTools").setLevel(logging.WARNING)   # not a line per table it cuts
    for path in sorted((static / FONTS).glob("*")):
        if path.suffix not in (".woff2", ".woff", ".ttf"):
            continue
        font = TTFont(path)
        options = subset.Options()
        options.flavor = None if path.suffix == ".ttf" else path.suffix[1:]
        options.layout_features = ["*"]
        options.name_IDs = ["*"]       # the font's names and its licence, as they were
        options.notdef_outline = True
        keep = characters & set(font.getBestCmap())
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=sorted(keep))
        subsetter.subset(font)
        try:
            font.flavor = options.flavor
            font.save(path)
        except ImportError as exc:
            raise LeanError("the brotli package is needed to write WOFF2 fonts "
                            "(pip install 'fonttools[woff]')") from exc


# ------------------------------------------------------------------------------ scripts
def _deferred(page: str) -> str:
    def defer(match: re.Match[str]) -> str:
        tag = match[0]
        if ("defer" in tag or "async" in tag or 'type="module"' in tag
                or "documentation_options.js" in match["src"]):
            return tag
        return f'<script defer{match["attrs"]} src="{match["src"]}"{match["rest"]}>'

    head_end = page.find("</head>")
    return _SCRIPT_SRC.sub(defer, page[:head_end]) + page[head_end:]


@cache
def _explorer_scripts() -> dict[str, str]:
    """The script of each anywidget class that runs in a page (front_ends.json)."""
    return {front.widget_class: f"site-{front.name}.js" for front in front_ends().values()}


def site_scripts(page: str) -> list[str]:
    """The website's scripts (under ``_static/``) that ``page`` needs, in the order it loads them:
    the named boards, the script of each kind of place it has (an explorer by its class, the board
    editor, the calculator; the board maths for a box whose answer is jumps), and the runtime that
    draws them (:data:`RUNTIME`), last; none for a page without such a place.

    Parameters
    ----------
    page : str
        The page's HTML.

    Returns
    -------
    list of str
        File names under ``_static/``.
    """
    explorers = _explorer_scripts()
    drawn = [explorers[cls] for cls in dict.fromkeys(_EXPLORER.findall(page)) if cls in explorers]
    if EDITOR_MOUNT in page:
        drawn.insert(0, f"site-{front_ends()['board_editor'].name}.js")
    if CALCULATOR_MOUNT in page:
        drawn.append("site-calculator.js")
    drawn = list(dict.fromkeys(drawn))
    maths = [MATHS] if _JUMPS_BOX in page else []
    if not drawn:
        return maths
    presets = [PRESETS] if EDITOR_MOUNT in page or CALCULATOR_MOUNT in page else []
    return [*presets, *drawn, *maths, RUNTIME]


def _with_site_scripts(page: str, name: str, versions: dict[str, str]) -> str:
    """``page`` with the scripts of :func:`site_scripts` (deferred, in their order, where the
    theme's list of scripts named ``site.js``) and the explorers' stylesheet only if it draws
    one."""
    wanted = site_scripts(page)
    found = _SITE_SCRIPTS.search(page)
    at = found.start() if found else page.find("</head>")
    page = page[:at] + _SITE_SCRIPTS.sub("", page[at:])
    up = "../" * name.count("/")

    def address(file: str) -> str:
        return f'{up}_static/{file}{"?v=" + versions[file] if file in versions else ""}'

    # the front ends' scripts, fetched by the runtime once it runs (not by the page's head)
    fetched = [file for file in wanted if file not in (RUNTIME, MATHS)]
    tags = "".join(
        f'<script defer src="{address(file)}"'
        + (f' data-front-ends="{" ".join(address(f) for f in fetched)}"' if file == RUNTIME
           else "") + "></script>\n"
        for file in wanted if file not in fetched)
    page = page[:at] + tags + page[at:]
    if RUNTIME not in wanted:
        page = _SITE_CSS.sub("", page)
    return page


def lean_page(page: str, name: str, icons: dict[tuple[str, str], tuple[int, int, str]],
              versions: dict[str, str] | None = None) -> str:
    """``page`` (HTML, its formulas drawn already) without what it does not use: see the module's
    docstring. ``name`` is its path in the site (``search.html`` keeps the search index);
    ``versions`` the checksum of each script of the site's (``?v=`` of its address, as Sphinx
    gives the theme's, so that a browser does not keep an old copy)."""
    page = _MATHJAX_SCRIPT.sub("", page)
    page = _FONTAWESOME.sub("", page)
    if name != "search.html":
        page = _SEARCH_SCRIPTS.sub("", page)
    page = _with_site_scripts(page, name, versions or {})
    page = _ICON.sub(lambda m: _inline_icon(m, icons), page)
    return _lazy_pictures(_deferred(page))


# A picture of the page's content (a plot a notebook drew: Sphinx's _images/), not a logo.
_PICTURE = re.compile(r'(?P<tag><img\b(?![^>]*\bloading=)(?=[^>]*\bsrc="[^"]*_images/)[^>]*?)'
                      r'(?P<end>\s*/?>)')


def _lazy_pictures(page: str) -> str:
    """Every picture of the page's content fetched as the reader nears it (``loading="lazy"``),
    not with the page: a lesson's plots were most of its bytes, fetched before a phone showed its
    first words. (Printing fetches them all first: the browser's own print, and book/pdf.py.)"""
    return _PICTURE.sub(r'\g<tag> loading="lazy" decoding="async"\g<end>', page)


MIN_SCALE = 0.7   # a display formula's letters at least this size of the text's (a phone)
_SVG_OPEN = re.compile(r'<svg style="(?P<style>[^"]*)"(?P<attrs>[^>]*?\swidth="(?P<width>[\d.]+)ex"'
                       r'[^>]*?\sviewBox="[-\d.]+ [-\d.]+ (?P<box>[\d.]+) [-\d.]+")')


def fitted(container: str) -> str:
    """A display formula (MathJax's SVG) that a narrow screen draws smaller rather than cut, by
    its style alone: no wider than its box (course.css: ``max-width: 100%``), down to letters of
    :data:`MIN_SCALE` of the text's (a TeX em, 1000 units of its viewBox, against the font size:
    ``min-width``), past which it scrolls in its box. (MathJax 3 cannot break a formula across
    lines; measuring each formula in the reader's browser to shrink it was a long task.)

    Parameters
    ----------
    container : str
        The formula's ``<mjx-container>``, as MathJax drew it.

    Returns
    -------
    str
        The same, its SVG given its least width.
    """
    def least(match: re.Match[str]) -> str:
        ems = float(match["box"]) / 1000
        style = match["style"].rstrip("; ")
        return (f'<svg style="{style}; min-width: min({MIN_SCALE * ems:.3f}em, '
                f'{match["width"]}ex);"{match["attrs"]}')

    return _SVG_OPEN.sub(least, container, count=1)


_GLYPH = re.compile(r'<path id="MJX-\d+-(?P<name>TEX-[\w-]+)" d="(?P<d>[^"]*)"></path>')
_GLYPH_DEFS = re.compile(r'<defs>(?:<path id="MJX-\d+-TEX-[\w-]+" d="[^"]*"></path>)+</defs>')
_GLYPH_USE = re.compile(r'(?<=xlink:href="#)MJX-\d+-(?=TEX-[\w-]+")')
_ARTICLE = re.compile(r'<article\b[^>]*\bclass="[^"]*\bbd-article\b[^>]*>')
_BODY = re.compile(r"<body\b[^>]*>")
GLYPHS_CLASS = "course-glyphs"


def shared_glyphs(page: str) -> str:
    """``page`` with each glyph of its formulas defined once, in one hidden SVG at the top of its
    article, and every formula's ``<use>`` of it pointing there. MathJax's local font cache (what
    :func:`render_formulas` asks for: each formula stands alone) repeats a glyph in every formula
    that has it: Lesson 11's 300 formulas held 580 KB of the same few dozen letters, which a phone
    fetched and parsed. (In the PDF the article, and so the glyphs, are carried into the printed
    page with the chapter's id prefix, book/pdf.py; a formula of shared glyphs is still a
    ``Figure`` with its words.) A page where one glyph's name has two shapes is left as it is.

    Parameters
    ----------
    page : str
        The page's HTML, its formulas drawn.

    Returns
    -------
    str
        The same page.
    """
    shapes: dict[str, set[str]] = {}
    for match in _GLYPH.finditer(page):
        shapes.setdefault(match["name"], set()).add(match["d"])
    if not shapes or any(len(d) > 1 for d in shapes.values()):
        return page
    page = _GLYPH_USE.sub("MJX-", _GLYPH_DEFS.sub("", page))
    place = _ARTICLE.search(page) or _BODY.search(page)     # a formula may come before it
    if place is None:
        raise LeanError("a page with formulas has no <body>")
    defs = "".join(f'<path id="MJX-{name}" d="{next(iter(d))}"></path>'
                   for name, d in sorted(shapes.items()))
    hidden = (f'<svg class="{GLYPHS_CLASS}" style="display: none;" aria-hidden="true" '
              f'xmlns="http://www.w3.org/2000/svg"><defs>{defs}</defs></svg>')
    return page[:place.end()] + hidden + page[place.end():]


def _with_formulas(page: str, formulas: list[tuple[int, int, str, bool]], drawn: list[str],
                   css_href: str) -> str:
    out = []
    at = 0
    for (start, end, _tex, display), svg in zip(formulas, drawn, strict=True):
        out.append(page[at:start])
        out.append(fitted(svg) if display else svg)
        at = end
    out.append(page[at:])
    page = shared_glyphs("".join(out))
    head_end = page.find("</head>")
    return (page[:head_end] + f'<link rel="stylesheet" type="text/css" href="{css_href}" />\n'
            + page[head_end:])


# ------------------------------------------------------------------------------ stylesheets
KEEP_APART = {"site.css"}    # the explorers' stylesheet: only on a page that draws one
_STYLESHEET = re.compile(r'[ \t]*<link\b(?=[^>]*\brel="stylesheet")[^>]*\bhref="(?P<href>[^"]+)"'
                         r'[^>]*>\n?')
_URL = re.compile(r'url\(\s*(?:"(?P<dq>[^"]*)"|\'(?P<sq>[^\']*)\'|(?P<bare>[^)\'"\s]+))\s*\)')
_IMPORT = re.compile(r'@import\s+(?:url\(\s*)?["\']?(?P<href>[^"\')\s;]+)["\']?\s*\)?\s*;')
_IMPORT_OR_URL = re.compile(f"{_IMPORT.pattern}|{_URL.pattern}")
_SOURCE_MAP = re.compile(r"/\*[#@]\s*sourceMappingURL=[^*]*\*/")
_CHARSET = re.compile(r'@charset\s+"[^"]*"\s*;')


def _local_file(ref: str, folder: Path) -> Path | None:
    parts = urlsplit(ref)
    if parts.scheme or parts.netloc or ref.startswith(("#", "data:")) or not parts.path:
        return None
    return (folder / unquote(parts.path)).resolve()


def stylesheet_text(sheet: Path, static: Path) -> str:
    """The text of ``sheet`` (a stylesheet under ``static``) as if it were in ``static`` itself:
    each ``@import`` of a local sheet replaced by that sheet's text, each local ``url()``
    rewritten to be relative to ``static``, no source map or ``@charset`` (the bundle's own).

    Parameters
    ----------
    sheet : Path
        The stylesheet.
    static : Path
        The site's ``_static`` folder, where the bundle that holds this text is.

    Returns
    -------
    str
        CSS.
    """
    css = sheet.read_text(encoding="utf-8", errors="replace")

    def imported(match: re.Match[str]) -> str:
        target = _local_file(match["href"], sheet.parent)
        return stylesheet_text(target, static) if target and target.exists() else match[0]

    def moved(match: re.Match[str]) -> str:
        ref = match["dq"] if match["dq"] is not None else (
            match["sq"] if match["sq"] is not None else match["bare"])
        target = _local_file(ref, sheet.parent)
        if target is None:
            return match[0]
        fragment = ref[len(ref.split("#")[0]):]
        return f'url("{Path(os.path.relpath(target, static)).as_posix()}{fragment}")'

    def either(match: re.Match[str]) -> str:      # one pass: an imported text is not moved again
        return imported(match) if match["href"] is not None else moved(match)

    return _IMPORT_OR_URL.sub(either, _CHARSET.sub("", _SOURCE_MAP.sub("", css)))


def bundle_stylesheets(pages: dict[str, str], static: Path,
                       prune: Callable[[list[str]], list[str]] | None = None) -> dict[str, str]:
    """Each page's local stylesheets (but :data:`KEEP_APART`'s) as one stylesheet in ``static``,
    in their order, and MathJax's (:data:`MATH_CSS`) with them on every page, so that every page
    loads the same one (a browser fetches it once for the site). The theme gives a page a dozen
    stylesheets, each one more round trip before the page can show anything: on a phone's slow
    network that was most of the 3 s before its first words. The bundle's first line names the
    stylesheets it holds; the course's own (:data:`OWN_STYLESHEETS`) are marked to be kept whole
    by ``prune``.

    Parameters
    ----------
    pages : dict of str to str
        Each page's path in the site (``lessons/01_....html``) and HTML.
    static : Path
        The site's ``_static`` folder; the bundles are written there
        (``styles-<checksum>.css``).
    prune : callable, optional
        Given the bundles' texts, the same without the rules no page uses (:func:`pruned_css`).

    Returns
    -------
    dict of str to str
        The same pages, each linking its bundle where its first stylesheet was.
    """
    site = static.parent.resolve()
    found: dict[str, tuple[list[tuple[re.Match[str], Path]], tuple[Path, ...]]] = {}
    bundles: dict[tuple[Path, ...], str] = {}      # each bundle's stylesheets and its text
    for name, page in pages.items():
        head_end = page.find("</head>")
        folder = (site / name).parent
        sheets = [(m, _local_file(m["href"], folder)) for m in _STYLESHEET.finditer(page, 0,
                                                                                   head_end)]
        bundled = [(m, path) for m, path in sheets
                   if path is not None and path.exists() and path.name not in KEEP_APART]
        files = _bundled_files(bundled, static)
        found[name] = (bundled, files)
        if files and files not in bundles:
            bundles[files] = _bundle_text(files, static)
    texts = list(bundles.values())
    if prune is not None and texts:
        texts = prune(texts)
    made = {}
    for files, text in zip(bundles, texts, strict=True):
        made[files] = f"styles-{zlib.crc32(text.encode()):08x}.css"
        (static / made[files]).write_text(text, encoding="utf-8")
    out = {}
    for name, page in pages.items():
        bundled, files = found[name]
        if not bundled:
            out[name] = page
            continue
        up = "../" * name.count("/")
        first = bundled[0][0]
        tag = f'<link rel="stylesheet" type="text/css" href="{up}_static/{made[files]}" />\n'
        pieces, at = [], 0
        for match, _ in bundled:
            pieces += [page[at:match.start()], tag if match is first else ""]
            at = match.end()
        out[name] = "".join(pieces) + page[at:]
    return out


OWN_STYLESHEETS = {"course.css", "answers.css", MATH_CSS}   # the course's: kept whole
_KEEP_WHOLE = ("/* purgecss start ignore */", "/* purgecss end ignore */")


def _bundled_files(bundled: list[tuple[re.Match[str], Path]], static: Path) -> tuple[Path, ...]:
    files = tuple(path for _, path in bundled)
    math = (static / MATH_CSS).resolve()
    if files and math.exists() and math not in files:
        files = (*files, math)
    return files


def _bundle_text(files: tuple[Path, ...], static: Path) -> str:
    names = ", ".join(Path(os.path.relpath(path, static)).as_posix() for path in files)
    texts = [f"{_KEEP_WHOLE[0]}\n{stylesheet_text(path, static)}\n{_KEEP_WHOLE[1]}"
             if path.name in OWN_STYLESHEETS else stylesheet_text(path, static) for path in files]
    return "\n".join([f"/* {BUNDLE_NOTE}: {names} */", *texts])


BUNDLE_NOTE = "one stylesheet for every page, made of"


def pruned_css(stylesheets: list[str], content: list[tuple[str, str]], node_modules: Path
               ) -> list[str]:
    """Each of ``stylesheets`` without the rules that no page or script of the site can use
    (``book/prune_css.mjs``: PurgeCSS, one Node process for them all).

    A rule is kept when every class, id and element its selector names occurs in ``content``
    (the site's pages and the scripts it serves: a script may add a class), and so is every rule
    between PurgeCSS's ``start ignore`` and ``end ignore`` comments (the course's own
    stylesheets, :func:`bundle_stylesheets`). The bundled theme was 565 KB (95 KB compressed,
    every byte of it fetched before a page shows anything), most of it Font Awesome's icon classes
    (the icons are inline SVG) and Bootstrap components the theme never shows.

    Parameters
    ----------
    stylesheets : list of str
        CSS texts.
    content : list of (str, str)
        Each page's or script's text and its kind (``"html"`` or ``"js"``).
    node_modules : Path
        ``book/node_modules``, holding the ``purgecss`` package.

    Returns
    -------
    list of str
        The stylesheets pruned, in order.
    """
    node = shutil.which("node")
    if node is None:
        raise LeanError("Node.js is needed to prune the stylesheet (apt-get install nodejs)")
    request = json.dumps({"content": [{"raw": text, "extension": kind} for text, kind in content],
                          "css": stylesheets})
    done = subprocess.run([node, str(Path(__file__).with_name("prune_css.mjs"))],
                          input=request, capture_output=True, text=True, check=False,
                          cwd=node_modules.parent)
    if done.returncode != 0:
        raise LeanError(f"pruning the stylesheet failed: {done.stderr[-2000:]}")
    pruned: list[str] = json.loads(done.stdout)["css"]
    return pruned


_THEME_SCRIPT = "pydata-sphinx-theme.js"
# The theme's function that makes each scrolling box a Tab stop (pydata-sphinx-theme 0.15-0.16,
# minified): it measures every <pre>, output and table at load, at each resize, and 300 ms after
# any change inside the page's main content.
_THEME_SCROLL_STOPS = re.compile(
    r'function (?P<name>\w+)\(\)\{const (?P<f>\w+)=\(\)=>\{document\.querySelectorAll\(\["pre",'
    r'[^\]]*\]\.join\(", "\)\)\.forEach\(\w+=>\{\w+\.tabIndex=[^}]*\}\)\},(?P<d>\w+)=\w+\((?P=f),'
    r'\d+\);window\.addEventListener\("resize",(?P=d)\),new MutationObserver\((?P=d)\)\.observe\('
    r'document\.getElementById\("main-content"\),\{subtree:!0,childList:!0\}\),(?P=f)\(\)\}')


def without_theme_scroll_stops(script: str) -> str:
    """The theme's script (``pydata-sphinx-theme.js``) without its own marking of scrolling
    boxes as Tab stops, which ``course.js`` does (named, and lazily): the theme's measured every
    code box, output and table of the page while it loaded (a layout of the whole page in the
    middle of its loading) and again after every explorer was drawn. Unchanged if the theme's
    script is not the one this was written for.

    Parameters
    ----------
    script : str
        The theme's minified script.

    Returns
    -------
    str
        The same script, that function made empty.
    """
    return _THEME_SCROLL_STOPS.sub(lambda m: f"function {m['name']}(){{}}", script, count=1)


def lean_site(out: Path, node_modules: Path) -> None:
    """Make every page of the website in ``out`` lean (the module's docstring), in place.

    Parameters
    ----------
    out : Path
        The built website (its ``index.html``, ``_static/``).
    node_modules : Path
        ``book/node_modules``, holding the ``mathjax`` package.
    """
    static = out / "_static"
    fontawesome = static / "scripts" / "fontawesome.js"
    icons = icon_paths(fontawesome.read_text(encoding="utf-8")) if fontawesome.exists() else {}
    files = sorted(out.rglob("*.html"))
    pages = [path.read_text(encoding="utf-8") for path in files]
    found = [page_formulas(page) for page in pages]
    with_maths = [i for i, formulas in enumerate(found) if formulas]
    css, drawn = render_formulas([[(tex, display) for _, _, tex, display in found[i]]
                                  for i in with_maths], node_modules)
    (static / MATH_CSS).write_text(css, encoding="utf-8")
    for i, svgs in zip(with_maths, drawn, strict=True):
        up = "../" * (len(files[i].relative_to(out).parts) - 1)
        pages[i] = _with_formulas(pages[i], found[i], svgs, f"{up}_static/{MATH_CSS}")
    versions = {path.name: f"{zlib.crc32(path.read_bytes()):08x}"
                for path in [*static.glob("site*.js"), static / PRESETS] if path.exists()}
    names = [path.relative_to(out).as_posix() for path in files]
    leaned = [lean_page(page, name, icons, versions)
              for name, page in zip(names, pages, strict=True)]
    scripts = [(path.read_text(encoding="utf-8", errors="replace"), "js")
               for path in sorted(static.rglob("*.js"))]
    content = [*((page, "html") for page in leaned), *scripts]
    bundled = bundle_stylesheets(dict(zip(names, leaned, strict=True)), static,
                                 lambda sheets: pruned_css(sheets, content, node_modules))
    for path, name in zip(files, names, strict=True):
        path.write_text(bundled[name], encoding="utf-8")
    # the icons still drawn by the fonts: an <i class="fa-..."> that had no SVG
    classes = {c for page in leaned for m in _ICON.finditer(page) for c in m["cls"].split()
               if c.startswith("fa-")}
    stylesheets = [sheet.read_text(encoding="utf-8", errors="replace")
                   for sheet in static.rglob("*.css")]
    subset_fonts(static, font_characters(stylesheets, classes))
    for theme in out.rglob(f"scripts/{_THEME_SCRIPT}"):
        script = theme.read_text(encoding="utf-8")
        theme.write_text(without_theme_scroll_stops(script), encoding="utf-8")
