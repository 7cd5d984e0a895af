"""The website at phone speed (issue 52), checked without a clock: what each page of the built site
makes a browser fetch and run. Formulas come drawn (MathJax's SVG with its MathML, at build time:
book/lean_pages.py), no page loads MathJax or Font Awesome's script, the search index is loaded by
the search page only, no script in a page's head blocks it, a page loads the code of the explorers
it shows and no other (one script per front end, book/lean_pages.py's ``site_scripts``), every file
a page names exists (no 404: source maps, a favicon) and a page with its scripts and stylesheets
weighs at most
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


_FRONT_ENDS = re.compile(r'\bdata-front-ends="([^"]*)"')


def _page_refs(page: Path) -> list[tuple[str, Path]]:
    """(tag, file) of each local script, stylesheet, icon and picture ``page`` loads, the scripts
    that the website's runtime fetches (its ``data-front-ends``) just after the runtime."""
    out = []
    for match in _REF.finditer(page.read_text(encoding="utf-8")):
        tag, path = match[1].lower(), _local(match[2])
        if path is None:
            continue
        if tag == "link" and not re.search(r'rel="(stylesheet|icon|preload)"', match[0]):
            continue
        out.append((tag, (page.parent / path).resolve()))
        for fetched in (_FRONT_ENDS.search(match[0]) or [None, ""])[1].split():
            if (local := _local(fetched)) is not None:
                out.append(("script", (page.parent / local).resolve()))
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


def test_the_icon_fonts_keep_the_characters_the_stylesheets_draw_with_them() -> None:
    """The theme's own icons (custom properties, content strings, escaped or not) are kept; the
    rules that give each icon class its character count only for a class a page still uses."""
    css = (':root{--pst-icon-bell:"\uf0f3";--pst-breadcrumb-divider:"\\f105"}'
           '.fa-bell:before{content:"\\f0f3"}.fa-bars:before,.fa-navicon:before{content:"\\f0c9"}'
           '.fa-a:before{content:"A"}a.github:before{content:var(--pst-icon-github)}'
           '.x:after{content:"— "}')
    assert lean_pages.font_characters([css], set()) == {0xF0F3, 0xF105}
    assert lean_pages.font_characters([css], {"fa-navicon"}) == {0xF0F3, 0xF105, 0xF0C9}


_SITE_PAGE = ('<html><head><link rel="stylesheet" type="text/css" href="../_static/site.css?v=1" />\n'
              '<script src="../_static/board_presets.js?v=2"></script>\n'
              '<script src="../_static/site.js?v=3"></script>\n'
              '<script src="../_static/course.js?v=4"></script>\n</head><body>{}</body></html>')


def _explorer_place(widget_class: str) -> str:
    return f'<div class="chutes-explorer-mount" data-explorer="{widget_class}" data-state="{{}}"></div>'


def test_a_page_is_given_the_scripts_of_the_places_it_has_and_no_other() -> None:
    """An explorer's code comes with the explorer: each kind of place its script, once, the
    runtime last; a page with none of them (a check's printed output is no place) loads none."""
    coin = _explorer_place("CoinFlipExplorer")
    assert lean_pages.site_scripts(coin + coin) == ["site-coin_explorer.js", "site.js"]
    assert lean_pages.site_scripts(_explorer_place("NoSuchExplorer")) == []
    assert lean_pages.site_scripts('<div class="chutes-edu-check">right</div>') == []
    page = ('<div class="chutes-board-editor-mount" data-board="{}"></div>'
            + _explorer_place("DesignExplorer")
            + '<div class="chutes-calculator-mount" data-open="x"></div>'
            + '<div class="chutes-edu-answer" data-kind="jumps"></div>')
    assert lean_pages.site_scripts(page) == [
        "board_presets.js", "site-board_editor.js", "site-design_explorer.js",
        "site-calculator.js", "site-maths.js", "site.js"]
    # the board maths alone, for a box whose answer is jumps: no runtime, nothing drawn
    assert lean_pages.site_scripts('<div data-kind="jumps"></div>') == ["site-maths.js"]


def test_a_lean_page_loads_its_scripts_deferred_where_the_theme_named_the_runtime() -> None:
    lean = lean_pages.lean_page(_SITE_PAGE.format(_explorer_place("RaceExplorer")),
                                "lessons/08_races.html", {}, {"site-race_explorer.js": "abc"})
    head = lean[:lean.index("</head>")]
    assert re.findall(r'<script[^>]*src="([^"]+)"', head) == [
        "../_static/site.js", "../_static/course.js?v=4"]
    assert all(" defer " in tag for tag in re.findall(r"<script[^>]*>", head))
    # the runtime fetches the explorer's script when it runs, not the page's head
    assert re.findall(r'<script[^>]*data-front-ends="([^"]+)"', head) == [
        "../_static/site-race_explorer.js?v=abc"]
    assert "site.css" in head
    bare = lean_pages.lean_page(_SITE_PAGE.format("<p>no explorer</p>"), "index.html", {})
    assert "_static/site" not in bare and "board_presets" not in bare


def test_a_plots_picture_is_fetched_as_the_reader_nears_it_and_a_logo_with_the_page() -> None:
    page = _SITE_PAGE.format('<img alt="A plot" src="../_images/ab12.png" />'
                             '<img alt="Binder logo" src="../_static/images/logo_binder.svg">'
                             '<img loading="eager" alt="Kept" src="../_images/cd34.png" />')
    lean = lean_pages.lean_page(page, "lessons/01_waiting_for_heads.html", {})
    assert re.findall(r"<img[^>]*>", lean) == [
        '<img alt="A plot" src="../_images/ab12.png" loading="lazy" decoding="async" />',
        '<img alt="Binder logo" src="../_static/images/logo_binder.svg">',
        '<img loading="eager" alt="Kept" src="../_images/cd34.png" />']


# ------------------------------------------------------------------------------ the built site
@pytest.mark.slow
def test_every_plot_on_a_page_is_fetched_as_the_reader_nears_it(site: Path) -> None:
    eager = {page.relative_to(site).as_posix(): tags for page in site_pages(site)
             if (tags := [t for t in re.findall(r"<img\b[^>]*>", page.read_text(encoding="utf-8"))
                          if "_images/" in t and 'loading="lazy"' not in t])}
    assert not eager, eager


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
        if containers:      # MathJax's stylesheet, in the page's one bundle of stylesheets
            bundle = re.search(r'href="([^"]*_static/styles-[0-9a-f]+\.css)"', text)
            assert bundle, name
            assert "mjx-assistive-mml" in (page.parent / bundle[1]).read_text(encoding="utf-8")
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


@pytest.mark.slow
def test_each_page_loads_the_code_of_the_explorers_it_shows_and_no_other(site: Path) -> None:
    """Read from each built page: the explorers it shows (their places), the scripts it loads.
    Each shown front end's script is loaded, once, by the runtime (its ``data-front-ends``); no
    script of a front end it does not show; a page that shows none loads no explorer code and no
    explorer styles (the index, the glossary, a solutions page)."""
    from chutes_edu.widgets._front_end import front_ends

    scripts = {front.widget_class: f"site-{front.name}.js" for front in front_ends().values()}
    wrong: dict[str, object] = {}
    shown_somewhere = set()
    for page in site_pages(site):
        text = page.read_text(encoding="utf-8")
        loaded = [path.name for tag, path in _page_refs(page) if tag == "script"]
        site_js = [n for n in loaded if n.startswith("site")]
        shown = {scripts[c] for c in re.findall(r'data-explorer="([^"]+)"', text)}
        if "chutes-board-editor-mount" in text:
            shown.add(scripts["BoardEditor"])
        if "chutes-calculator-mount" in text:
            shown.add("site-calculator.js")
        shown_somewhere |= shown
        drawn = [n for n in site_js if n not in ("site.js", "site-maths.js")]
        runtime = ["site.js"] if shown else []
        if sorted(drawn) != sorted(shown) or len(set(site_js)) != len(site_js) or \
                [n for n in site_js if n == "site.js"] != runtime or \
                (shown and [n for n in site_js if n != "site-maths.js"][0] != "site.js") or \
                (not shown and "site.css" in {p.name for _, p in _page_refs(page)}):
            wrong[page.relative_to(site).as_posix()] = (sorted(shown), site_js)
    assert not wrong, wrong
    assert len(shown_somewhere) > 1
    index = [p.name for _, p in _page_refs(site / "index.html")]
    assert not [n for n in index if n.startswith("site")]


@pytest.mark.slow
def test_the_icon_fonts_are_cut_to_the_icons_the_site_draws_with_them(site: Path) -> None:
    """Font Awesome's solid font was 156 KB for the few icons the theme's stylesheets draw: each
    font is now a few KB and still has those (an admonition's bell, a breadcrumb's chevron)."""
    from fontTools.ttLib import TTFont

    fonts = sorted((site / "_static" / lean_pages.FONTS).glob("*.woff2"))
    assert fonts
    for font in fonts:
        assert font.stat().st_size < 10 * 1024, font
    solid = TTFont(site / "_static" / lean_pages.FONTS / "fa-solid-900.woff2").getBestCmap()
    assert {0xF0F3, 0xF105, 0xF05A} <= set(solid)


def test_the_benchmark_measures_the_pages_not_the_themes_templates(tmp_path: Path) -> None:
    """benchmarks/bench_lighthouse.py measures every page of both languages, the front page
    first, and neither the print pages nor the theme's templates in a translation's _static/."""
    sys.path.insert(0, str(BOOK.parent / "benchmarks"))
    import bench_lighthouse

    for name in ("index.html", "lessons/a.html", "es/index.html", "_print/course.html",
                 "_static/webpack-macros.html", "es/_static/webpack-macros.html"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("<html></html>")
    assert bench_lighthouse.site_pages(tmp_path) == ["index.html", "es/index.html",
                                                     "lessons/a.html"]
