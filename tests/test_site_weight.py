"""The website at phone speed (issue 52), checked without a clock: what each page of the built site
makes a browser fetch and run. Formulas come drawn (MathJax's SVG with its MathML, at build time:
book/lean_pages.py), no page loads MathJax or Font Awesome's script, the search index is loaded by
the search page only, no script in a page's head blocks it, every file a page names exists (no
404: source maps, a favicon) and a page with its scripts and stylesheets weighs at most
:data:`BUDGET_KIB` compressed. How fast the pages are is `make bench`'s (benchmarks/bench_lighthouse.py).
"""

from __future__ import annotations

import gzip
import re
import sys
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from .conftest import site_pages

BOOK = Path(__file__).resolve().parent.parent / "book"
sys.path.insert(0, str(BOOK))
import lean_pages  # noqa: E402

BUDGET_KIB = 600          # the goal for a page and everything it loads, compressed
_REF = re.compile(r'<(script|link|img)\b[^>]*?\b(?:src|href)="([^"]+)"[^>]*>', re.I)
_CSS_URL = re.compile(r'url\(\s*["\']?([^"\')]+)["\']?\s*\)')
_MAP = re.compile(r"[#@] sourceMappingURL=([^\s*]+)")


def _local(ref: str) -> str | None:
    parts = urlsplit(ref)
    if parts.scheme or ref.startswith(("//", "#", "data:")) or not parts.path:
        return None
    return unquote(parts.path)


def _page_refs(page: Path) -> list[tuple[str, Path]]:
    """(tag, file) of each local script, stylesheet, icon and picture ``page`` loads."""
    out = []
    for match in _REF.finditer(page.read_text(encoding="utf-8")):
        tag, path = match[1].lower(), _local(match[2])
        if path is None:
            continue
        if tag == "link" and not re.search(r'rel="(stylesheet|icon|preload)"', match[0]):
            continue
        out.append((tag, (page.parent / path).resolve()))
    return out


@cache
def _compressed(path: Path) -> int:
    data = path.read_bytes()
    if path.suffix in (".png", ".jpg", ".woff", ".woff2"):
        return len(data)
    return len(gzip.compress(data, compresslevel=6))


def _css_files(css: Path) -> list[Path]:
    found = []
    for ref in _CSS_URL.findall(css.read_text(encoding="utf-8", errors="replace")):
        path = _local(ref)
        if path is not None:
            found.append((css.parent / path).resolve())
    return found


# ------------------------------------------------------------------------------ no build needed
def test_formulas_are_found_in_prose_not_in_code() -> None:
    page = ('<html><head><title>\\(no\\)</title></head><body><p>Let \\(x^2 &amp; y\\) be'
            '</p><div class="math">\n\\[\\frac{1}{2}\\]</div><pre>print("\\(code\\)")</pre>'
            '<code>$$x$$</code><div class="chutes-math">$$\\left[1\\right]$$</div></body></html>')
    found = [(tex, display) for _, _, tex, display in lean_pages.page_formulas(page)]
    assert found == [("x^2 & y", False), ("\\frac{1}{2}", True), ("\\left[1\\right]", True)]


def test_an_icon_becomes_inline_svg_keeping_its_classes_and_attributes() -> None:
    icons = lean_pages.icon_paths(
        'var p={"chevron-down":[512,512,[],"f078","M1 2z"],bars:[448,512,[],"f0c9","M3 4z"]};'
        'd("fas",p)')
    assert icons == {("fas", "chevron-down"): (512, 512, "M1 2z"), ("fas", "bars"): (448, 512, "M3 4z")}
    page = ('<html><head><script defer src="x/fontawesome.js"></script></head><body>'
            '<i class="theme-switch fa-solid fa-bars fa-lg" data-mode="light"></i></body></html>')
    lean = lean_pages.lean_page(page, "index.html", icons)
    assert "fontawesome" not in lean and "<i " not in lean
    assert ('<svg class="svg-inline--fa theme-switch fa-solid fa-bars fa-lg" data-mode="light" '
            'aria-hidden="true"') in lean and 'viewBox="0 0 448 512"' in lean


# ------------------------------------------------------------------------------ the built site
@pytest.mark.slow
def test_no_page_loads_mathjax_font_awesome_or_the_search_index_but_search(site: Path) -> None:
    loaded: dict[str, list[str]] = {}
    for page in site_pages(site):
        names = [path.name for tag, path in _page_refs(page) if tag == "script"]
        bad = [n for n in names if "mathjax" in n.lower() or n in ("tex-chtml.js", "tex-svg.js",
                                                                   "fontawesome.js")]
        if page.name != "search.html":
            bad += [n for n in names if n in ("searchindex.js", "searchtools.js")]
        if bad:
            loaded[page.relative_to(site).as_posix()] = bad
    assert not loaded, loaded
    assert "searchindex.js" in (site / "search.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_no_script_in_a_head_blocks_the_page(site: Path) -> None:
    """Every script a page's head loads is deferred (or a module), but the theme's few hundred
    bytes of ``documentation_options.js``, which the page's inline scripts need at once."""
    blocking: dict[str, list[str]] = {}
    for page in site_pages(site):
        text = page.read_text(encoding="utf-8")
        head = text[:text.find("</head>")]
        tags = re.findall(r"<script\b[^>]*\bsrc=[^>]*>", head)
        bad = [t for t in tags if not re.search(r"\b(defer|async)\b|type=\"module\"", t)
               and "documentation_options.js" not in t]
        if bad:
            blocking[page.relative_to(site).as_posix()] = bad
    assert not blocking, blocking


@pytest.mark.slow
def test_every_formula_is_drawn_with_its_mathml_and_its_glyphs(site: Path) -> None:
    pages = site_pages(site)
    drawn = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(site).as_posix()
        assert not lean_pages.page_formulas(text), f"TeX left undrawn in {name}"
        containers = re.findall(r"<mjx-container\b.*?</mjx-container>", text, re.DOTALL)
        drawn += len(containers)
        assert len(re.findall(r'class="math notranslate', text)) <= len(containers), name
        for container in containers:
            assert "<mjx-assistive-mml" in container and "<math " in container, container[:200]
            assert 'aria-hidden="true"' in container.split("<mjx-assistive-mml")[0]
        glyphs = set(re.findall(r'<path id="([^"]+)"', text))
        used = set(re.findall(r'xlink:href="#([^"]+)"', text))
        assert used <= glyphs, (name, sorted(used - glyphs)[:5])
        if containers:
            assert "_static/math.css" in text, name
    assert drawn > 1000


@pytest.mark.slow
def test_every_file_a_page_names_exists(site: Path) -> None:
    """No 404: every script, stylesheet, icon and picture, the source maps those scripts and
    stylesheets name, the files their stylesheets name, and a favicon on every page."""
    missing: dict[str, set[str]] = {}
    for page in site_pages(site):
        text = page.read_text(encoding="utf-8")
        assert re.search(r'<link rel="icon" href="[^"]+"', text), page
        wanted = [path for _, path in _page_refs(page)]
        for path in list(wanted):
            if path.suffix in (".js", ".css") and path.exists():
                body = path.read_text(encoding="utf-8", errors="replace")
                wanted += [(path.parent / m).resolve() for m in _MAP.findall(body[-500:])]
                if path.suffix == ".css":
                    wanted += _css_files(path)
        gone = {str(p.relative_to(site)) if p.is_relative_to(site) else str(p)
                for p in wanted if not p.exists()}
        if gone:
            missing[page.relative_to(site).as_posix()] = gone
    assert not missing, missing


@pytest.mark.slow
def test_a_page_and_what_it_loads_weigh_at_most_the_budget(site: Path) -> None:
    """Compressed as a static host sends them (gzip), every page with its scripts and stylesheets
    weighs at most BUDGET_KIB (Font Awesome's script alone was 542 KB of it, MathJax's 262 KB).
    Its pictures (the lesson's content) and fonts (fetched only when a glyph of theirs is shown)
    are not counted here: Lighthouse (`make bench`) counts what a phone fetches, them included."""
    heavy = {}
    for page in site_pages(site):
        files = {path for tag, path in _page_refs(page)
                 if tag == "script" or path.suffix == ".css"}
        kib = (_compressed(page) + sum(_compressed(p) for p in files if p.exists())) / 1024
        if kib > BUDGET_KIB:
            heavy[page.relative_to(site).as_posix()] = round(kib)
    assert not heavy, heavy
