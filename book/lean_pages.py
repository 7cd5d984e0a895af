"""The built website's pages made light for a phone (issue 52): ``book/build.py`` runs
:func:`lean_site` over the HTML that Sphinx wrote.

What a page no longer makes its reader's browser fetch or do, and why:

- **Formulas drawn at build time.** Every formula (MyST's ``span.math`` / ``div.math`` and the TeX
  of HTML outputs such as ``chutes_edu.plots.matrices``' ``$$...$$``) is drawn once, here, by
  MathJax 3 in Node (``book/render_math.mjs``: TeX in, SVG out, with MathJax's assistive MathML
  beside each drawing for screen readers and for the PDF's tags). The page loads no MathJax (its
  1.2 MB script and fonts, and a typeset of up to 2 s on the reader's main thread). Each formula's
  SVG holds its own glyphs (it stands alone: book/pdf.py gathers chapters into one page, and an
  SVG whose glyphs are elsewhere is no Figure in Chromium's tagged PDF); MathJax's small
  stylesheet is ``_static/math.css``.
- **Icons inline.** The theme's icons (``<i class="fa-solid fa-...">``) become the inline SVG that
  Font Awesome's script would have made of them at load time, so its 1.5 MB script is not loaded.
- **The search index only where someone searches** (search.html): the theme loaded it on every
  page, render-blocking, although search-as-you-type is off.
- **No script blocks the page**: every script is deferred (in order), except
  ``documentation_options.js``, a few hundred bytes that the page's inline scripts need at once.
- **The explorers' script only on pages that draw one** (a board editor, an explorer, a
  calculator or answer boxes, which use its maths): a lesson without one does without it.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

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
# Pages that need the explorers' script (site.js: editors, explorers, calculators, and the maths
# that answers.js checks jumps with) and the named boards it resets to.
_NEEDS_SITE_JS = ("chutes-board-editor-mount", "chutes-explorer-mount", "chutes-calculator-mount",
                  "chutes-edu-check")
_SITE_SCRIPTS = re.compile(r'[ \t]*<script[^>]*src="[^"]*_static/(?:board_presets|site)\.js'
                           r'[^"]*"[^>]*></script>\n?')


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


def lean_page(page: str, name: str, icons: dict[tuple[str, str], tuple[int, int, str]]) -> str:
    """``page`` (HTML, its formulas drawn already) without what it does not use: see the module's
    docstring. ``name`` is its path in the site (``search.html`` keeps the search index)."""
    page = _MATHJAX_SCRIPT.sub("", page)
    page = _FONTAWESOME.sub("", page)
    if name != "search.html":
        page = _SEARCH_SCRIPTS.sub("", page)
    if not any(mount in page for mount in _NEEDS_SITE_JS):
        page = _SITE_SCRIPTS.sub("", page)
    page = _ICON.sub(lambda m: _inline_icon(m, icons), page)
    return _deferred(page)


def _with_formulas(page: str, formulas: list[tuple[int, int, str, bool]], drawn: list[str],
                   css_href: str) -> str:
    out = []
    at = 0
    for (start, end, _tex, _display), svg in zip(formulas, drawn, strict=True):
        out.append(page[at:start])
        out.append(svg)
        at = end
    out.append(page[at:])
    page = "".join(out)
    head_end = page.find("</head>")
    return (page[:head_end] + f'<link rel="stylesheet" type="text/css" href="{css_href}" />\n'
            + page[head_end:])


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
    for path, page in zip(files, pages, strict=True):
        name = path.relative_to(out).as_posix()
        path.write_text(lean_page(page, name, icons), encoding="utf-8")
