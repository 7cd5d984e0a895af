"""Build the course website with Jupyter Book 1.x: ``make site`` calls this script.

    python book/build.py [--out _build/html] [--solutions] [--binder-url URL] [--hub-url URL]
                         [--repo-url URL] [--branch NAME]

Every option can also come from the environment (``SOLUTIONS=1``, ``BINDER_URL``, ``HUB_URL``,
``REPO_URL``, ``BRANCH``), which is how ``make site SOLUTIONS=1 BINDER_URL=...`` passes them on.

What it does, and why:

1. **Stage** the sources in ``<out>/../site-src/``: the executed lessons and the exercise sets as
   they are now (never re-executed: the saved outputs and widget states are the pages' pictures),
   the worked solutions only with ``--solutions``, a front page made from ``start_here.ipynb`` and
   ``book/front.md``, the maths toolbox, the glossary and the sources (the three pages of
   ``lessons/`` that are no lesson: the glossary's links become Sphinx ``{term}`` roles and index
   entries), and the book's ``_config.yml`` and ``_toc.yml``. The repository's notebooks
   are only read. In the staged copies, nbval's cell tags are dropped, the solution markers
   (``### BEGIN SOLUTION`` ...) are taken out of the solutions and hidden tests removed. A saved
   explorer that computes in the page (the board editor, and those of :data:`LIVE_EXPLORERS`)
   becomes a live one, drawn by the page's own script from its saved state and the package's
   modules (a lesson saves none of a big module's program, ``tools/slim_notebook.py``); any other
   becomes a still picture (its words and its pictures, with their alt text, but no controls: they
   need Python behind the page), followed by a note on how to run it live. A figure saved once as
   its ``<img alt>`` is turned back into a PNG with its alt text. Under each exercise's
   ``check(...)`` cell, an answer box that checks a value answer in the page, or a note that the
   answer is code (``book/answers.py``).
2. **Build** with Jupyter Book's Sphinx entry point (``jupyter_book.sphinx.build_sphinx``) into
   ``--out`` (default ``_build/html``; ``index.html`` is the front page). No page asks a CDN for
   anything: the site works opened from disk, without internet.
3. **Lighten** every page (``book/lean_pages.py``, issue 52): its formulas drawn now by MathJax 3
   in Node (the ``mathjax`` package of ``book/package.json``, installed by ``npm ci`` into
   ``book/node_modules``) as SVG with MathML for screen readers, so the reader's browser loads no
   MathJax; the theme's icons inline, without Font Awesome's script; the search index only on the
   search page; every script deferred; an explorer's script only on a page that draws it.

The course in Spanish (issue 53): after the English, the same three steps build the Spanish site
into ``<out>/es/`` from the generated Spanish notebooks (``es/``, tools/translations.py), staged
alike, with Sphinx's ``language`` set (``<html lang="es">``, the theme's own words, the search
index's stemmer). The sentences this script writes into pages (notes, an exercise page's intro,
the numbers table, the progress block, the navigation's captions) are ``_("...")``, and the front
page and the playground are the templates ``book/front.md`` and ``book/playground.md``: the
Spanish site takes their translations from the catalog ``locale/es/LC_MESSAGES/book.po``
(``make translations`` keeps it in step with the English; a sentence not yet translated stays
English). Then every page of either site gets a link to the same page in the other language
(:func:`link_languages`).

Launch links (Binder, or a JupyterHub through nbgitpuller) appear on every notebook page, on the
front page, under every widget and every code exercise whenever the build knows the repository
(``--repo-url``, by default the ``origin`` remote when it is a public https address, never one with
a user name or token in it): Binder on mybinder.org unless ``--binder-url`` (``none``: no Binder)
or ``--hub-url`` says otherwise. Without a repository no page names or promises a link; every
exercise page and code exercise still says how to open its notebook (``make lab``, a Binder or
hub link from the teacher), with its path (README.md, "The course website").

Exercise pages stand alone (issue 38): the set's numbers (the course's own,
``chutes_edu/numbers/setNN.json``) as a table under the cell that makes them and beside each
``n.<name>`` the text names (:func:`show_numbers`), the pictures the text points to (borrowed from
the worked solutions, figures only), the first paragraph's "run the setup cell first" replaced by
what the page offers, and nbgrader's "For your teacher's grading" cells and the set's points line
left out (they stay in the notebooks; the PDF is printed from the site). Every exercise page can
draw other numbers to practise (issue 50, ``book/practice.py``): each value in the text and the
table is one the page's script changes, and a note under each picture or explorer that computed
with the numbers (:func:`numbers_flow`) says, once other numbers are drawn, that it shows the
course's.
"""

from __future__ import annotations

import argparse
import ast
import copy
import html
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

import nbformat

from chutes_edu.course import GLOSSARY, SOURCES, TOOLBOX, set_stem
from chutes_edu.grading import HIDDEN_TESTS
from chutes_edu.plots.alt_text import _read_img_tag
from chutes_edu.variants import declared_numbers
from chutes_edu.widgets._front_end import front_ends

BOOK = Path(__file__).resolve().parent
if str(BOOK) not in sys.path:     # book/answers.py, whether this runs as a script or is imported
    sys.path.insert(0, str(BOOK))
import answers  # noqa: E402
import lean_pages  # noqa: E402
import practice  # noqa: E402
import search_text  # noqa: E402

ROOT = BOOK.parent
sys.path.insert(0, str(ROOT / "tools"))
import translations  # noqa: E402  (tools/ is no package)

LESSONS, EXERCISES, SOLUTIONS = "lessons", "exercises", "solutions"
NODE_MODULES = BOOK / "node_modules"
ASSETS = "_assets"  # in the staged source; copied to _static/ of the site
FAVICON = "favicon.svg"  # book/static/
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
EDITOR_MOUNT = "chutes-board-editor-mount"   # drawn by _static/site.js (js/site/site.js)
EXPLORER_MOUNT = "chutes-explorer-mount"       # drawn by _static/site.js (js/site/site.js)
# The explorers that run in the page with no kernel, besides the board editor: the anywidget
# class (the end of its saved ``_anywidget_id``) -> the traits the page starts it from, from the
# front ends' one registry (chutes_edu/widgets/front_ends.json). The site's runtime
# (static/site.js, which esbuild builds from js/site/site.js) mounts each saved one with those
# traits, with the explorer's own script (static/site-<name>.js) that the page loads.
LIVE_EXPLORERS: dict[str, tuple[str, ...]] = {
    front.widget_class: front.page_traits for front in front_ends().values() if front.page_traits}

# Lines of nbgrader's markup that a reader of the worked solutions must not see.
SOLUTION_MARKERS = re.compile(
    r"^[ \t]*(### (BEGIN|END) SOLUTION|<!-- (BEGIN|END) SOLUTION -->)[ \t]*\n?", re.MULTILINE)
START_LINK = re.compile(r"\]\((?P<up>(?:\.\./)*)start_here\.ipynb(?P<anchor>#[^)]*)?\)")
# The cell after each check, for nbgrader (it prints nothing): in the notebooks, not on the site.
GRADING_CELL = re.compile(r"\A\s*# For your teacher's grading")
# The points line after an exercise set's title (tools/make_exercises.py writes it, cell id
# "points"): the teacher's grading too, so in the notebooks, not on the site or in the PDF.
POINTS_CELL_ID = "points"
# The exercise sets' first cell speaks to someone running the notebook; on the site these two
# sentences are replaced by what the page offers (:func:`_site_intro`).
SETUP_SENTENCE = re.compile(r"Run the setup cell first\.\s*(?:Each exercise ends)?")
GRADING_SENTENCE = re.compile(r"The cell after each check is for your teacher's grading:"
                              r"\s+running it\s+yourself does nothing\s+visible\.[ \t]*\n?")
# A set's numbers in the text: a code span (on one line or two) naming ``n.<name>``, outside fenced
# code; the cell that makes them calls ``my_numbers(``.
CODE_SPAN = re.compile(r"(?<!`)`(?P<code>(?:[^`\n]|\n(?!\s*\n))+)`(?!`)")
NUMBER_NAME = re.compile(r"\bn\.(?P<name>[A-Za-z_]\w*)\b")
FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
MAKES_NUMBERS = re.compile(r"^\s*n\s*=\s*my_numbers\(", re.MULTILINE)
DEFAULT_BINDER = "https://mybinder.org"   # launch links when the build knows a public repository
# The site's languages: English (the source, at the site's root) and each translation, built from
# its generated notebooks (``<language>/``, tools/translations.py) into ``<out>/<language>/``.
ENGLISH = "en"
TRANSLATIONS = ("es",)
LANGUAGE_NAMES = {"en": "English", "es": "Español"}
BOOK_CATALOG = "book"     # locale/<language>/LC_MESSAGES/book.po: the words this script writes
FRONT = "front.md"        # book/: the front page's template, translated unit by unit like a page
PLAYGROUND = "playground.md"   # book/: the playground's words (the editor goes in {{ editor }})
LANGUAGE_LINK = "course-language"     # the class of the link to the page in the other language
_words: dict[str, str] = {}   # the site being built: the catalog's translations (English: none)


def _(text: str) -> str:
    """``text`` (a sentence this script writes into pages) in the language of the site being
    built: its translation in ``book.po``, or the English as written (the English site, or a
    sentence not translated yet; tools/translations.py lists those)."""
    return _words.get(text, text)


def book_words(language: str) -> dict[str, str]:
    """The usable translations of ``book.po`` for ``language`` (none for English).

    Parameters
    ----------
    language : str
        ``"en"`` or one of :data:`TRANSLATIONS`.

    Returns
    -------
    dict
        English -> translation, for the entries translated and not fuzzy.
    """
    if language == ENGLISH:
        return {}
    path = ROOT / "locale" / language / "LC_MESSAGES" / f"{BOOK_CATALOG}.po"
    if not path.exists():
        raise SiteError(f"{path.relative_to(ROOT)} is missing: run `make translations`")
    return translations.usable_translations(path)


def _source_root(args: argparse.Namespace) -> Path:
    """Where the notebooks of the site being built are: the repository (English) or its
    generated translation (``es/``)."""
    return ROOT if args.language == ENGLISH else ROOT / args.language


def _repo_path(args: argparse.Namespace, path: str) -> str:
    """``path`` (relative to the language's notebooks) relative to the repository: what a
    launch link opens (``es/exercises/...`` for the Spanish)."""
    return path if args.language == ENGLISH else f"{args.language}/{path}"


class SiteError(RuntimeError):
    """A problem the builder can fix (missing tool, bad option), said in one sentence."""


# ------------------------------------------------------------------------------ options
def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "no", "false")


def _origin_url() -> str:
    try:
        url = subprocess.run(["git", "-C", str(ROOT), "remote", "get-url", "origin"],
                             capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return url.removesuffix(".git") if public_https(url) else ""


def public_https(url: str) -> bool:
    """Is ``url`` an https address a reader can open: no user name or token in it (a remote
    cloned with credentials must never reach a page), a host, a path?

    Parameters
    ----------
    url : str
        A repository's address.

    Returns
    -------
    bool
    """
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    return (parts.scheme == "https" and bool(parts.hostname) and "@" not in parts.netloc
            and parts.path.strip("/") != "" and not parts.query and not parts.fragment)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    env = os.environ.get
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "html",
                        help="where the website goes (default: _build/html)")
    parser.add_argument("--solutions", action="store_true", default=_env_flag("SOLUTIONS"),
                        help="include the worked solutions (default: left out; env SOLUTIONS=1)")
    parser.add_argument("--binder-url", default=env("BINDER_URL", ""),
                        help="a BinderHub (env BINDER_URL; default: https://mybinder.org when the "
                             "build knows the repository and no hub is given; 'none': no Binder)")
    parser.add_argument("--hub-url", default=env("HUB_URL", ""),
                        help="a JupyterHub with nbgitpuller, e.g. https://hub.example.edu "
                             "(env HUB_URL)")
    parser.add_argument("--repo-url", default=env("REPO_URL", "") or None,
                        help="the course's git repository "
                             "(env REPO_URL; default: the origin remote)")
    parser.add_argument("--branch", default=env("BRANCH", "") or "main",
                        help="the branch the launch links open (env BRANCH; default: main)")
    args = parser.parse_args(argv)
    args.binder_url = args.binder_url.strip().rstrip("/")
    args.hub_url = args.hub_url.strip().rstrip("/")
    if args.repo_url is None:
        args.repo_url = _origin_url()
    args.repo_url = args.repo_url.strip().removesuffix("/").removesuffix(".git")
    if args.repo_url and not public_https(args.repo_url):
        raise SiteError("the repository's address must be a public https URL, with no user name "
                        "or token in it: pass REPO_URL=https://...")
    args.language = ENGLISH      # build() builds each translation with its own copy of args
    if args.binder_url.lower() == "none":
        args.binder_url = ""
    elif not args.binder_url and not args.hub_url and args.repo_url:
        args.binder_url = DEFAULT_BINDER     # the repository is known: a way to a kernel
    if (args.binder_url or args.hub_url) and not args.repo_url:
        raise SiteError("launch links need the repository's https URL: pass REPO_URL=https://...")
    return args


# ------------------------------------------------------------------------------ launch links
def launch_links(args: argparse.Namespace, path: str) -> list[tuple[str, str]]:
    """(label, url) of every configured way to open ``path`` (relative to the repository) live.

    The same URLs as sphinx-book-theme's launch buttons: BinderHub's ``/v2/gh/...?urlpath=`` and
    nbgitpuller's ``/hub/user-redirect/git-pull?repo=...``.
    """
    links = []
    repo = args.repo_url
    if args.binder_url:
        match = re.fullmatch(r"https://(github|gitlab)\.com/([^/]+)/([^/]+)", repo)
        if match and match[1] == "github":
            spec = f"gh/{match[2]}/{match[3]}"
        elif match:
            spec = f"gl/{match[2]}%2F{match[3]}"
        else:
            spec = f"git/{quote(repo, safe='')}"
        links.append(("Binder", f"{args.binder_url}/v2/{spec}/{args.branch}"
                                f"?urlpath=lab/tree/{path}"))
    if args.hub_url:
        name = repo.rsplit("/", 1)[-1]
        query = urlencode({"repo": repo, "urlpath": f"lab/tree/{name}/{path}",
                           "branch": args.branch}, safe="/")
        links.append(("your JupyterHub", f"{args.hub_url}/hub/user-redirect/git-pull?{query}"))
    return links


def _on(label: str) -> str:
    """"on Binder", "on your JupyterHub": where a launch link opens, in the site's language."""
    names = {"Binder": _("Binder"), "your JupyterHub": _("your JupyterHub")}
    return _("on {label}").format(label=names.get(label, label))


def _run_live_sentence(args: argparse.Namespace, path: str) -> str:
    links = launch_links(args, path)
    laptop = _("on a laptop, run `make lab` in the course's folder and open this notebook")
    if not links:
        return _("To use it, run the notebook `{path}` live: {laptop}.").format(
            path=path, laptop=laptop)
    opened = _(" or ").join(f"[{_on(label)}]({url})" for label, url in links)
    return _("To use it, open this notebook live {opened}, or {laptop}.").format(
        opened=opened, laptop=laptop)


# ------------------------------------------------------------------------------ staging
def _clean_tags(cell: dict) -> None:
    tags = [t for t in cell.get("metadata", {}).get("tags", []) if not t.startswith("nbval")]
    if tags:
        cell["metadata"]["tags"] = tags
    else:
        cell.get("metadata", {}).pop("tags", None)


def _has_widget(cell: dict) -> bool:
    return any(WIDGET_VIEW in out.get("data", {}) for out in cell.get("outputs", []))


def _widget_state(nb: Any) -> dict[str, Any]:
    return dict(nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {}))


def _snapshot(state: dict[str, Any], root: str) -> str:
    """A saved explorer as a still picture: its text and its pictures (with their alt text).

    On a page with no Python behind it, an explorer's controls would change nothing; what it
    showed when the notebook was run is its words (the HTML widgets: title, readout, notes) and
    its pictures, drawn here without any control.
    """
    texts: list[str] = []
    pictures: list[str] = []

    def visit(model_id: str) -> None:
        model = state.get(model_id.removeprefix("IPY_MODEL_"))
        if model is None:
            return
        values = model.get("state", {})
        buffers = {".".join(map(str, b["path"])): b["data"] for b in model.get("buffers", [])}
        if values.get("_kind") == "picture" or model.get("model_name") == "ImageModel":
            alt = values.get("alt") or values.get("tooltip") or ""
            data = buffers.get("value") or values.get("value") or ""
            if data:
                size = "".join(f' {k}="{values[k]}"' for k in ("width", "height")
                               if str(values.get(k, "")).isdigit())
                pictures.append(f'<img alt="{html.escape(alt, quote=True)}"{size} '
                                f'src="data:image/png;base64,{data}">')
        elif model.get("model_name") == "HTMLModel":
            value = (values.get("value") or "").strip()
            if value and "chutes-message" not in values.get("_dom_classes", []):
                texts.append(f"<div>{value}</div>")
        for child in values.get("children", []):
            visit(child)

    visit(root)
    return ('<div class="explorer-snapshot">' + "".join(texts)
            + '<div class="explorer-snapshot-pictures">' + "".join(pictures) + "</div></div>")


def _editor_mount(board: Any, name: str) -> str:
    """Where the page's own script draws a live board editor (no kernel: it computes in the
    page), starting from ``board`` (the JSON form of a board) and keeping it in the address."""
    return (f'<div class="{EDITOR_MOUNT}" data-board="{html.escape(json.dumps(board), quote=True)}"'
            f' data-name="{html.escape(name, quote=True)}"></div>')


def _editor_state(state: dict[str, Any], model_id: str) -> dict[str, Any] | None:
    """The saved state of a board editor, or None if the widget is not one."""
    model = state.get(model_id.removeprefix("IPY_MODEL_"), {})
    values = model.get("state", {})
    return values if str(values.get("_anywidget_id", "")).endswith(".BoardEditor") else None


def _explorer_mount(name: str, values: dict[str, Any]) -> str:
    """Where the page's own script draws a live explorer (one of :data:`LIVE_EXPLORERS`, no
    kernel: it computes in the page), starting from its saved traits."""
    traits = {key: values[key] for key in LIVE_EXPLORERS[name] if key in values}
    return (f'<div class="{EXPLORER_MOUNT}" data-explorer="{html.escape(name, quote=True)}" '
            f'data-state="{html.escape(json.dumps(traits), quote=True)}"></div>')


def _live_explorer(state: dict[str, Any], model_id: str) -> str | None:
    """The page's live copy of a saved explorer that runs with no kernel, or None."""
    model = state.get(model_id.removeprefix("IPY_MODEL_"), {})
    values = model.get("state", {})
    name = str(values.get("_anywidget_id", "")).rpartition(".")[2]
    return _explorer_mount(name, values) if name in LIVE_EXPLORERS else None


def _still(cell: Any, state: dict[str, Any]) -> bool:
    """Replace a cell's saved widgets: a board editor or another explorer that runs in the page
    by a live one, any other explorer by its snapshot (see :func:`_snapshot`). True if the cell
    holds an explorer that needs Python."""
    needs_python = False
    for out in cell.get("outputs", []):
        view = out.get("data", {}).get(WIDGET_VIEW)
        if view is None:
            continue
        editor = _editor_state(state, view["model_id"])
        live = _live_explorer(state, view["model_id"])
        if editor is not None:
            shown = _editor_mount(editor["board_json"], editor.get("board_name", ""))
        elif live is not None:
            shown = live
        else:
            shown, needs_python = _snapshot(state, view["model_id"]), True
        out["data"] = {"text/html": shown, "text/plain": out["data"].get("text/plain", "")}
    return needs_python


def _figure_png(out: dict) -> None:
    """A figure saved once, as its ``<img>`` (``tools/slim_notebook.py``): its PNG and alt text
    back in the output, for the page to show as a file with its alt text (course_site.py)."""
    data = out.get("data", {})
    html_text = data.get("text/html", "")
    tag = None if "image/png" in data else _read_img_tag(
        "".join(html_text) if isinstance(html_text, list) else html_text)
    if tag is not None:
        alt, png, size = tag
        data["image/png"] = png
        out.setdefault("metadata", {})["image/png"] = {"alt": alt, **size}


def _pictures(cell: Any) -> list[Any]:
    """A code cell's figures: its outputs that show a PNG (or its ``<img>``), nothing else."""
    out = []
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        html_text = data.get("text/html", "")
        html_text = "".join(html_text) if isinstance(html_text, list) else html_text
        if output.get("output_type") in ("display_data", "execute_result") and (
                "image/png" in data or "<img" in html_text):
            out.append(output)
    return out


def _borrow_explorers(nb: Any, worked: Path) -> None:
    """Give an exercise set's explorer and picture cells what its worked solutions saved.

    An exercise set is saved without outputs (it is made from the worked solutions, which are
    run and saved); its explorer cells, and the cells that draw a picture the text points to
    (2.3's "the board below"), are the solutions' own, word for word. On the site they show the
    explorer the solutions saved, live, and the picture they drew (their figures only: no printed
    text, which could be an answer), with the solutions' numbers (the page's)."""
    if not worked.exists():
        return
    solved = nbformat.read(worked, as_version=4)
    shown = {cell.source: cell.outputs for cell in solved.cells
             if cell.cell_type == "code" and _has_widget(cell)}
    figures = {cell.source: _pictures(cell) for cell in solved.cells
               if cell.cell_type == "code" and not _has_widget(cell) and _pictures(cell)}
    borrowed = False
    for cell in nb.cells:
        if cell.cell_type != "code" or cell.get("outputs") or "YOUR CODE HERE" in cell.source:
            continue
        if cell.source in shown:
            cell.outputs = copy.deepcopy(shown[cell.source])
            borrowed = True
        elif cell.source in figures:
            cell.outputs = copy.deepcopy(figures[cell.source])
    if borrowed:
        widgets = nb.metadata.setdefault("widgets", {}).setdefault(
            WIDGET_STATE, {"version_major": 2, "version_minor": 0, "state": {}})
        widgets["state"] = {**_widget_state(solved), **widgets.get("state", {})}


def set_numbers(set_number: int) -> dict[str, Any]:
    """The course's own numbers of an exercise set (``chutes_edu/numbers/setNN.json``).

    Parameters
    ----------
    set_number : int
        The exercise set, 1 to 12.

    Returns
    -------
    dict
        ``{name: the course's value}``; empty for a set that declares none.
    """
    return {name: course for name, (course, _) in declared_numbers(set_number).items()}


def _value_text(value: Any) -> str:
    """A number of a set as the page shows it: ``6``, ``0.35``, ``"stay"``."""
    return practice.value_text(value)


def show_numbers(text: str, numbers: Mapping[str, Any]) -> str:
    """A markdown cell with each named number's value beside its name.

    A code span that is just ``n.size`` reads "``n.size`` (6)"; a longer one that names numbers,
    such as ``expected_turns(board)[n.start]``, is followed by them, "(``n.start`` = 0)". Fenced
    code and names the set does not declare are left alone. Each value is inline HTML
    (:func:`practice.value_span`), which the page's script changes when the learner draws other
    numbers to practise (``book/static/answers.js``).

    Parameters
    ----------
    text : str
        The cell's Markdown.
    numbers : mapping
        The set's numbers (:func:`set_numbers`).

    Returns
    -------
    str
    """
    if not numbers:
        return text

    def span(match: re.Match[str]) -> str:
        code = match["code"]
        names = [name for name in dict.fromkeys(m["name"] for m in NUMBER_NAME.finditer(code))
                 if name in numbers]
        if not names:
            return match[0]
        whole = NUMBER_NAME.fullmatch(code.strip())
        if whole is not None:
            return f"{match[0]} ({practice.value_span(whole['name'], numbers[whole['name']])})"
        values = ", ".join(f"`n.{name}` = {practice.value_span(name, numbers[name])}"
                           for name in names)
        return f"{match[0]} ({values})"

    out, at = [], 0
    for fence in FENCE.finditer(text):
        out += [CODE_SPAN.sub(span, text[at:fence.start()]), fence[0]]
        at = fence.end()
    out.append(CODE_SPAN.sub(span, text[at:]))
    return "".join(out)


def numbers_table(numbers: Mapping[str, Any]) -> str:
    """The markdown cell that shows a set's numbers under the cell that makes them.

    Parameters
    ----------
    numbers : mapping
        The set's numbers (:func:`set_numbers`).

    Returns
    -------
    str
    """
    rows = "\n".join(f"| `n.{name}` | {practice.value_span(name, value)} |"
                     for name, value in numbers.items())
    return (_("**The numbers on this page.** The cell above gives, in the notebook, the course's "
              "own numbers (or your own, if your teacher hands out a variant per student). This "
              "page and its answer boxes use the course's, or other numbers you draw below to "
              "practise:")
            + f"\n\n| {_('name')} | {_('value')} |\n|:--|--:|\n" + rows)


def numbers_flow(sources: list[str]) -> list[bool]:
    """Which of a notebook's code cells compute with the set's numbers: each cell that reads
    ``n`` or a name assigned by such a cell before it (the names it assigns then count too).

    A cell Python cannot parse (an exercise's blank, a magic) counts when it names ``n.<name>``.

    Parameters
    ----------
    sources : list of str
        The code cells' sources, in order.

    Returns
    -------
    list of bool
        One per cell.
    """
    tainted = {"n"}
    out = []
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            out.append(bool(NUMBER_NAME.search(source)))
            continue
        names = [node for node in ast.walk(tree) if isinstance(node, ast.Name)]
        uses = any(isinstance(node.ctx, ast.Load) and node.id in tainted for node in names)
        if uses:
            tainted |= {node.id for node in names if isinstance(node.ctx, ast.Store)}
        out.append(uses)
    return out


def _site_intro(args: argparse.Namespace, path: str) -> str:
    """What an exercise page offers, in place of the notebook's "run the setup cell first"."""
    links = launch_links(args, path)
    # `README.md` as code: bare, Markdown would link it as a web address (http://README.md)
    laptop = _("on a computer with Python 3.11, run `make lab` in the course's folder "
               "(its `README.md` says how to get it) and open `{path}`").format(path=path)
    if links:
        how = _("open it {links}, or {laptop}").format(
            links=_(" or ").join(f"[{_on(label)}]({url})" for label, url in links), laptop=laptop)
    else:
        how = _("{laptop}, or follow the Binder or JupyterHub link your teacher gives you").format(
            laptop=laptop)
    return _("On this page, which runs no Python: an exercise whose answer is a number, a "
             "fraction, a letter, a formula or a short list has an answer box under it that checks "
             "what you type; the names `n.…` stand for this set's numbers, whose values are shown "
             "beside them. The exercises answered in code are done in the notebook: {how}, then "
             "run its first cells (the set-up and the set's numbers).").format(how=how) + "\n\n"


def _words_pattern(text: str) -> str:
    """A regular expression for ``text`` as a markdown cell may wrap it."""
    return r"\s+".join(map(re.escape, text.split()))


def _setup_sentence() -> re.Pattern[str]:
    """:data:`SETUP_SENTENCE` in the language of the site being built."""
    return re.compile(_words_pattern(_("Run the setup cell first.")) + r"\s*(?:"
                      + _words_pattern(_("Each exercise ends")) + ")?")


def _grading_sentence() -> re.Pattern[str]:
    """:data:`GRADING_SENTENCE` in the language of the site being built."""
    return re.compile(_words_pattern(_("The cell after each check is for your teacher's grading: "
                                       "running it yourself does nothing visible."))
                      + r"[ \t]*\n?")


def _grading_cell(source: str) -> bool:
    """Is ``source`` the cell for nbgrader after a check (:data:`GRADING_CELL`)?"""
    return bool(GRADING_CELL.match(source)) or source.lstrip().startswith(
        _("# For your teacher's grading"))


def stage_notebook(source: Path, target: Path, args: argparse.Namespace, *,
                   strip_solutions: bool = False, explorers_from: Path | None = None,
                   numbers: Mapping[str, Any] | None = None) -> None:
    """Copy one notebook for the site: outputs kept, test plumbing and solution markers out;
    an exercise set's explorer and picture cells filled in as its worked solutions
    (``explorers_from``) saved them; the set's ``numbers`` (:func:`set_numbers`) shown under the
    cell that makes them and beside each name in the text; the cells for the teacher's grading
    left out."""
    nb = nbformat.read(source, as_version=4)
    rel = source.relative_to(_source_root(args)).as_posix()
    if explorers_from is not None:
        _borrow_explorers(nb, explorers_from)
    state = _widget_state(nb)
    nb.metadata.pop("widgets", None)           # snapshots instead: no widget manager on the page
    # An exercise page can show other numbers to practise (book/practice.py): what its pictures
    # and explorers computed with the course's numbers is said so under them, for then.
    practising = numbers is not None and bool(numbers) and rel.startswith(f"{EXERCISES}/")
    with_numbers = _computed_with_numbers(nb) if practising else set()
    if practising and explorers_from is not None and explorers_from.exists():
        # what a cell borrowed from the worked solutions computed, it computed there
        with_numbers |= _computed_with_numbers(nbformat.read(explorers_from, as_version=4))
    terms: dict[str, str] | None = None        # the glossary of the page's language, when needed
    cells: list[Any] = []
    for cell in nb.cells:
        note = practising and cell.cell_type == "code" and cell.source in with_numbers
        cell = copy.deepcopy(cell)
        _clean_tags(cell)
        if cell.cell_type == "code" and _grading_cell(cell.source):
            continue                          # nbgrader's: nothing for a reader of the site
        if cell.cell_type == "markdown" and cell.get("id") == POINTS_CELL_ID:
            continue                          # the grading's points: likewise
        if cell.cell_type == "markdown":
            # The start page is the site's front page.
            cell.source = START_LINK.sub(r"](\g<up>index.md\g<anchor>)", cell.source)
            if terms is None:
                terms = glossary_terms((_source_root(args) / GLOSSARY).read_text(encoding="utf-8"))
            cell.source = glossary_roles(cell.source, terms)
            # nbgrader's mark in a written answer's cell, which the notebooks keep in English
            cell.source = cell.source.replace("YOUR ANSWER HERE", _("YOUR ANSWER HERE"))
            if numbers is not None:
                cell.source = show_numbers(cell.source, numbers)
                if not cells and rel.startswith(f"{EXERCISES}/"):
                    intro = _site_intro(args, _repo_path(args, rel))
                    ends = _("Each exercise ends").split()[-1]
                    cell.source = _setup_sentence().sub(
                        lambda m, intro=intro, ends=ends: intro + (
                            _("In the notebook, each exercise ends") if m[0].endswith(ends)
                            else ""), cell.source, count=1)
                    cell.source = _grading_sentence().sub("", cell.source).rstrip()
        if strip_solutions:
            text = HIDDEN_TESTS.sub("", cell.source)
            cell.source = SOLUTION_MARKERS.sub("", text).rstrip("\n")
            if not cells and cell.cell_type == "markdown":
                # The page's title: "Solutions N — ...", not the exercise set's own title again.
                cell.source = re.sub(f"^# {re.escape(_('Exercises'))} ", f"# {_('Solutions')} ",
                                     cell.source, count=1)
        for out in cell.get("outputs", []):
            _figure_png(out)
        if cell.cell_type == "code" and _has_widget(cell):
            live = not _still(cell, state)
            cells += [cell, _practice_note_cell()] if note else [cell]
            if live:
                continue                    # live on the page: nothing to add
            still = (f"```{{admonition}} {_('A still picture of a live explorer')}\n"
                     ":class: tip widget-note\n"
                     + _("Above is what the explorer showed when the notebook was run: its words "
                         "and pictures, without its controls, which need Python running behind "
                         "the page.")
                     + f" {_run_live_sentence(args, _repo_path(args, rel))}\n```")
            cells.append(nbformat.v4.new_markdown_cell(still))
            continue
        cells.append(cell)
        if note and _pictures(cell):
            cells.append(_practice_note_cell())
        if (numbers and cell.cell_type == "code" and MAKES_NUMBERS.search(cell.source)
                and not cell.get("outputs")):
            table = nbformat.v4.new_markdown_cell(numbers_table(numbers))
            table.id = practice.NUMBERS_TABLE_ID          # the "New numbers" panel goes under it
            cells.append(table)
    nb.cells = cells
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target)


def _computed_with_numbers(nb: Any) -> set[str]:
    """The sources of a notebook's code cells that compute with the set's numbers
    (:func:`numbers_flow`)."""
    code = [cell.source for cell in nb.cells if cell.cell_type == "code"]
    return {source for source, uses in zip(code, numbers_flow(code), strict=True) if uses}


def _practice_note_cell() -> nbformat.NotebookNode:
    """The note that a picture or explorer shows the course's numbers (hidden until others are
    drawn: :func:`practice.practice_note`)."""
    return nbformat.v4.new_markdown_cell("```{raw} html\n" + practice.practice_note() + "\n```")


def _markdown_cells(notebook: Path, english: Path | None = None) -> dict[str, str]:
    """The markdown cells of a notebook by their first line (by the first line of the same cell
    of ``english``, when ``notebook`` is its translation)."""
    nb = nbformat.read(notebook, as_version=4)
    keys = nbformat.read(english, as_version=4) if english is not None else nb
    if len(keys.cells) != len(nb.cells):
        raise SiteError(f"{notebook.relative_to(ROOT)} does not have the cells of {english}: "
                        "run `make translations`")
    return {k.source.splitlines()[0].strip(): c.source
            for k, c in zip(keys.cells, nb.cells, strict=True)
            if c.cell_type == "markdown" and c.source.strip()}


def _drop_last_column(table: str) -> str:
    rows = []
    for line in table.splitlines():
        if line.startswith("|"):
            line = "|".join(line.rstrip().rstrip("|").split("|")[:-1]) + "|"
        rows.append(line)
    return "\n".join(rows)


def _template(name: str, args: argparse.Namespace) -> str:
    """A page's template in book/ (``front.md``, ``playground.md``) in the site's language: each
    unit (paragraph, heading, list item) as ``book.po`` translates it (tools/translations.py)."""
    text = (BOOK / name).read_text(encoding="utf-8")
    if args.language == ENGLISH:
        return text
    text = translations.translate_text("markdown", text, _words)
    # the accessibility statement is English only: the English site's page, as it is on disk
    return re.sub(r"\[([^\]]+)\]\(accessibility\.md\)",
                  r'<a href="../accessibility.html" hreflang="en">\1</a>', text)


def front_page(args: argparse.Namespace,
               progress: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """index.md: book/front.md with the start page's sections and the launch links filled in,
    and, when the sets have answer boxes (``progress``), the learner's progress
    (:func:`progress_block`), in the site's language (a translation's start page, and ``book.po``
    for the rest)."""
    english = ROOT / "start_here.ipynb"
    translated = _source_root(args) / "start_here.ipynb"
    cells = _markdown_cells(translated, english if translated != english else None)
    try:
        title = next(k for k in cells if k.startswith("# "))
        welcome = cells[title].split("\n\n")[1]
        before = next(v for k, v in cells.items() if k.startswith("## Before you start"))
        course = next(v for k, v in cells.items() if k.startswith("## The course"))
    except (StopIteration, IndexError) as exc:
        raise SiteError("start_here.ipynb has lost its title paragraph, '## Before you start' or "
                        "'## The course', which the front page reuses") from exc
    if not args.solutions:
        course = _drop_last_column(course)
    heading, sep, rest = course.partition("\n")
    course = f"## {_('The course map')}{sep}{rest}" if heading.startswith("## ") else course
    # Only the ways this build has an address for: no link to Binder's home page, no promise.
    links = dict(launch_links(args, _repo_path(args, "start_here.ipynb")))
    start = [
        *(["- " + _("**In the browser, nothing to install**: [open the course on Binder]({url}). "
                    "It takes a minute to start, and your changes are not kept.").format(
            url=links["Binder"])] if "Binder" in links else []),
        "- " + _("**On a laptop**: with Python 3.11 and `make`, {get} and run `make lab` in it; "
                 "JupyterLab opens on the start page.").format(
            get=_("clone [the course]({url})").format(url=args.repo_url) if args.repo_url else
            _("get the course's folder (a copy of its git repository: your teacher, or whoever "
              "sent you to this website, has its address)")),
        *(["- " + _("**On your university's JupyterHub**: [open the course on the hub]({url}); it "
                    "copies the course into your home folder and opens the start page.").format(
            url=links["your JupyterHub"])] if "your JupyterHub" in links else []),
    ]
    solutions = (_("Each exercise set is followed by its worked solutions: try first.")
                 if args.solutions else
                 _("The exercise sets are here without their solutions."))
    template = _template(FRONT, args)
    return (template.replace("{{ welcome }}", welcome)
            .replace("{{ how_to_start }}", "\n".join(start))
            .replace("{{ before_you_start }}", before)
            .replace("{{ course_map }}", course)
            .replace("{{ progress }}", progress_block(progress) if progress else "")
            .replace("{{ solutions }}", solutions))


def playground_page(args: argparse.Namespace | None = None) -> str:
    """playground.md: the board editor, live on the page (no kernel, no network), under
    book/playground.md's words in the site's language."""
    from chutes_edu import MILTON_BRADLEY_1943
    from chutes_edu.widgets.board_editor import board_to_json

    args = args if args is not None else parse_args([])
    editor = _editor_mount(board_to_json(MILTON_BRADLEY_1943), MILTON_BRADLEY_1943.name)
    return _template(PLAYGROUND, args).replace("{{ editor }}", editor)


def _toc(src: Path, names: list[str], language: str = ENGLISH) -> str:
    """Each lesson, then its exercise set (and its solutions): the order of previous/next. The
    front page's "next" is Lesson 1; the toolbox is reference, reached from each lesson's
    **What you need** (and the front page), so it comes after the course with the glossary."""
    lines = ["format: jb-book", "root: index", "parts:",
             f"  - caption: {_('The course')}", "    chapters:"]
    for name in names:
        lines.append(f"      - file: {LESSONS}/{name}")
        sections = [f"{folder}/{set_stem(name, folder)}" for folder in (EXERCISES, SOLUTIONS)
                    if (src / folder / f"{set_stem(name, folder)}.ipynb").exists()]
        if sections:
            lines.append("        sections:")
            lines.extend(f"          - file: {section}" for section in sections)
    lines += [f"  - caption: {_('Try it')}", "    chapters:", "      - file: playground",
              *_reference_toc(_("Reference"), TOOLBOX, GLOSSARY, SOURCES)]
    if language == ENGLISH:       # the accessibility statement: English only (the front page
        lines += [f"  - caption: {_('About the course')}", "    chapters:",   # links it)
                  "      - file: accessibility"]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ reference pages
# lessons/ holds, besides the lessons, three pages that are no lesson (chutes_edu.course): the maths
# toolbox (a notebook), the glossary and the list of sources (Markdown, readable in JupyterLab too).
# In lessons/glossary.md every term is a heading "### term" with its definition below it, so that
# JupyterLab shows it as a page and a link glossary.md#term-with-hyphens (JupyterLab's anchor of the
# heading) opens it at the term. On the site the same entries become Sphinx's glossary.
_TERM_HEADING = re.compile(r"^### (?P<term>\S.*?)[ \t]*$", re.MULTILINE)
_GLOSSARY_LINK = re.compile(
    r"\[(?P<text>[^\]`<>]+)\]\((?:\.\./lessons/)?glossary\.md#(?P<anchor>[^)\s]+)\)")
_SOURCE_LABEL = re.compile(r"^- \*\*(?P<label>[^*]+)\*\*", re.MULTILINE)


def lab_anchor(heading: str) -> str:
    """The anchor JupyterLab gives a Markdown heading: its text with spaces turned into hyphens.

    ``course_site.lab_heading_id`` gives MyST the same rule (``myst_heading_slug_func``), so that a
    link such as ``toolbox.ipynb#Geometric-series`` works in JupyterLab and on the site alike.
    """
    return heading.strip().replace(" ", "-")


def glossary_terms(text: str | None = None) -> dict[str, str]:
    """The glossary's terms (:data:`~chutes_edu.course.GLOSSARY`, or ``text``) by their
    JupyterLab anchor."""
    if text is None:
        text = (ROOT / GLOSSARY).read_text(encoding="utf-8")
    return {lab_anchor(m["term"]): m["term"] for m in _TERM_HEADING.finditer(text)}


def glossary_roles(source: str, terms: dict[str, str] | None = None) -> str:
    """A markdown cell for the site: every link ``[words](glossary.md#anchor)`` becomes the role
    ``{term}`words <term>``` (Sphinx links it to the glossary and warns about an unknown term),
    and an ``{index}`` directive files the cell under each term it links (the site's index)."""
    terms = glossary_terms() if terms is None else terms
    used: list[str] = []

    def role(match: re.Match[str]) -> str:
        term = terms.get(match["anchor"])
        if term is None:
            raise SiteError(f"a link to glossary.md#{match['anchor']}, a term that "
                            "lessons/glossary.md does not define")
        used.append(term)
        return f"{{term}}`{match['text']} <{term}>`"

    text = _GLOSSARY_LINK.sub(role, source)
    if not used:
        return source
    index = "```{index} " + ", ".join(dict.fromkeys(used)) + "\n```\n"
    if text.startswith("#"):      # after the heading: the entry then points into its section
        heading, _, rest = text.partition("\n")
        return f"{heading}\n\n{index}\n{rest.lstrip(chr(10))}"
    return f"{index}\n{text}"


def glossary_page(text: str) -> str:
    """The site's glossary page from ``lessons/glossary.md``: each letter's entries
    (``### term`` and its definition) as one ``{glossary}`` directive."""
    out: list[str] = []
    entries: list[tuple[str, list[str]]] = []

    def flush() -> None:
        if entries:
            out.append("```{glossary}")
            for term, body in entries:
                while body and not body[-1].strip():
                    body.pop()
                out.append(term)
                out.extend(f"  {line}" if line.strip() else "" for line in body)
                out.append("")
            out.extend(["```", ""])
            entries.clear()

    for line in text.splitlines():
        match = _TERM_HEADING.match(line)
        if match:
            entries.append((match["term"], []))
        elif line.startswith("#"):
            flush()
            out.append(line)
        elif entries:
            if line.strip() or entries[-1][1]:
                entries[-1][1].append(line)
        else:
            out.append(line)
    flush()
    return "\n".join(out).rstrip("\n") + "\n"


def sources_page(text: str) -> str:
    """The site's sources page from ``lessons/sources.md``: each work is filed in the index by
    its bold label (e.g. "Hochman (2014)")."""
    # a comma would split an entry of the {index} directive in two
    labels = list(dict.fromkeys(m["label"].strip().replace(",", "")
                                for m in _SOURCE_LABEL.finditer(text)))
    if not labels:
        return text
    title, _, rest = text.partition("\n")
    return f"{title}\n\n```{{index}} {', '.join(labels)}\n```\n{rest}"


def stage_reference_pages(src: Path, args: argparse.Namespace) -> None:
    """Stage the toolbox, the glossary and the sources into ``src/lessons``."""
    root = _source_root(args)
    stage_notebook(root / TOOLBOX, src / TOOLBOX, args)
    for path, page in ((GLOSSARY, glossary_page), (SOURCES, sources_page)):
        text = (root / path).read_text(encoding="utf-8")
        (src / path).write_text(page(text), encoding="utf-8")


def _reference_toc(caption: str, *pages: Path) -> list[str]:
    """A part of the TOC holding reference pages of lessons/ (the toolbox, the glossary and the
    sources, after the lessons)."""
    return [f"  - caption: {caption}", "    chapters:",
            *(f"      - file: {page.with_suffix('').as_posix()}" for page in pages)]


def _with_heading_anchors(config: dict) -> dict:
    """Heading anchors as JupyterLab makes them, so that ``page.ipynb#Some-heading`` links
    resolve on the site too (see :func:`lab_anchor`)."""
    config["sphinx"]["config"].update({"myst_heading_anchors": 3,
                                       "myst_heading_slug_func": "course_site.lab_heading_id"})
    return config


def _config(args: argparse.Namespace) -> dict:
    return {
        "title": _("Chutes and Ladders: a course in Markov chains"),
        "author": "the chutes_edu authors",
        "copyright": "the chutes_edu authors, BSD-3-Clause",
        "only_build_toc_files": True,
        "exclude_patterns": ["_build", "_ext", ASSETS],
        "execute": {"execute_notebooks": "off"},
        "repository": {"url": args.repo_url or "", "branch": args.branch, "path_to_book": ""},
        "launch_buttons": {"notebook_interface": "jupyterlab", "binderhub_url": args.binder_url,
                           "jupyterhub_url": args.hub_url, "thebe": False, "colab_url": ""},
        "html": {"use_repository_button": bool(args.repo_url), "use_issues_button": False,
                 "use_edit_page_button": False, "use_download_button": True,
                 "use_multitoc_numbering": False, "home_page_in_navbar": True,
                 "extra_footer": _("Every number on these pages was computed by the course's "
                                   "notebooks when they were last run.")},
        "sphinx": {
            "local_extensions": {"course_site": "_ext"},
            "config": {
                # the theme's own words (search, contents, next, "On this page"), <html lang>,
                # the search index's stemmer
                "language": args.language,
                # course_site.py's own words in the site's language (book.po)
                "course_words": dict(_words),
                # Formulas are drawn when the site is built (book/lean_pages.py): Sphinx writes
                # their TeX as MathJax would find it, and no page loads MathJax (course_site.py).
                "html_math_renderer": "course_prerendered",
                "html_favicon": f"{ASSETS}/{FAVICON}",
                # No widget manager: saved explorers become still pictures (stage_notebook).
                "nb_ipywidgets_js": {},
                # A figure's output holds a PNG and an HTML <img> of it (for JupyterLab): the
                # page takes the PNG, as a file, with its alt text (course_site.py).
                "nb_mime_priority_overrides": [["html", "image/png", 25]],
                # Not `_static`: Jupyter Book would load every .js and .css under it on every page.
                "html_static_path": [ASSETS],
                "html_css_files": ["course.css", "site.css", answers.STYLE],
                # course.js: boxes that scroll sideways become named Tab stops (book/static).
                # answers.js: the exercises' answer boxes (book/answers.py).
                "html_js_files": ["board_presets.js", "site.js", "course.js", answers.SCRIPT],
                "html_context": {"default_mode": "light"},
                "html_show_sourcelink": False,
                "suppress_warnings": ["myst.header"],
                "nb_merge_streams": True,
            },
        },
    }


def _front_end_assets(static: Path) -> None:
    """Every front end for pages opened from disk (which cannot import ES modules), as esbuild
    built them: a classic script per front end, ``site-<name>.js`` (the board editor, an explorer
    of :data:`LIVE_EXPLORERS`, the exercises' calculator; ``site-maths.js`` the board maths of the
    answer boxes), ``site.js``, the runtime that draws each ``.chutes-board-editor-mount`` and
    ``.chutes-explorer-mount`` with them (js/site/site.js), ``site.css`` their styles, and
    ``board_presets.js``, the named boards an editor can reset to, as data. A page names only
    the scripts of what it shows (book/lean_pages.py)."""
    from chutes_edu.widgets._front_end import STATIC, front_ends
    from chutes_edu.widgets.board_editor import presets_json

    needed = ["site.js", "site.css", "site-calculator.js", "site-maths.js",
              *(f"site-{name}.js" for name in front_ends())]
    missing = [name for name in needed if not (STATIC / name).is_file()]
    if missing:
        raise SiteError(f"{STATIC / missing[0]} is missing: build the front end (npm run build)")
    # with their source maps, which the bundles name (a browser's tools ask for them: no 404)
    for path in [*STATIC.glob("site*.js"), *STATIC.glob("site*.css"), *STATIC.glob("site*.map")]:
        shutil.copy2(path, static / path.name)
    (static / "board_presets.js").write_text(
        f"window.ChutesBoardPresets = {json.dumps(presets_json())};\n", encoding="utf-8")


def ensure_node_modules() -> None:
    """``npm ci`` in book/ when node_modules is missing or older than the lock file."""
    lock = BOOK / "package-lock.json"
    stamp = NODE_MODULES / ".package-lock.json"
    if stamp.exists() and stamp.stat().st_mtime >= lock.stat().st_mtime:
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SiteError("npm is needed once to fetch MathJax and PurgeCSS "
                        "(apt-get install npm), then `npm ci --prefix book`")
    subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline"],
                   cwd=BOOK, check=True)


def _repository_link(args: argparse.Namespace, path: str) -> list[tuple[str, str]]:
    """(label, url) of ``path`` in the repository's web view, when the build has its address."""
    if not args.repo_url.startswith("https://"):
        return []
    blob = "/-/blob/" if "gitlab" in args.repo_url else "/blob/"
    return [(_("in the course's repository"), f"{args.repo_url}{blob}{args.branch}/{path}")]


def _answer_boxes(args: argparse.Namespace, src: Path, name: str) -> dict[str, Any] | None:
    """The staged exercise set of lesson ``name`` with its answer boxes (book/answers.py).

    Returns the set's row of the start page's progress (:func:`progress_block`): its title, its
    page and its boxed exercises; None when the set has no page.
    """
    staged = src / EXERCISES / f"{set_stem(name, EXERCISES)}.ipynb"
    if not staged.exists():
        return None
    path = _repo_path(args, f"{EXERCISES}/{staged.name}")
    solutions = src / SOLUTIONS / f"{set_stem(name, SOLUTIONS)}.ipynb"
    links = [(_("live {on}").format(on=_on(label)), url) for label, url in launch_links(args, path)]
    boxes = answers.add_answers(staged, solutions=solutions if args.solutions else None,
                                links=links + _repository_link(args, path), path=path)
    title = nbformat.read(staged, as_version=4).cells[0].source.splitlines()[0].lstrip("# ")
    return {"title": title.strip(), "href": f"{EXERCISES}/{staged.stem}.html", "boxes": boxes}


PROGRESS_CLASS = "chutes-progress"    # filled by _static/answers.js from the browser's storage


def progress_block(sets: Mapping[str, Mapping[str, Any]]) -> str:
    """The start page's "Your progress" section: per exercise set, how many of its answer boxes
    the browser keeps as right (``book/static/answers.js`` fills it in), and a button that forgets
    them.

    Parameters
    ----------
    sets : mapping
        ``{set number: {"title", "href", "boxes"}}`` (what :func:`_answer_boxes` returns).

    Returns
    -------
    str
        Markdown: a heading, a sentence and a raw HTML block.
    """
    data = html.escape(json.dumps({k: dict(v) for k, v in sets.items()}), quote=True)
    return (f"## {_('Your progress')}\n\n"
            + _("Your answers in the exercise pages' boxes, and whether they were right, are kept "
                "in this browser (nowhere else; pages opened from disk keep them too), so a page "
                "you come back to shows them again. Here is how many boxes of each set are right.")
            + "\n\n"
            "```{raw} html\n"
            f'<div class="{PROGRESS_CLASS}" data-sets="{data}"></div>\n'
            f"{answers.words_script()}\n```\n")


def stage(args: argparse.Namespace, src: Path) -> None:
    """Write the Jupyter Book source folder ``src`` (wiped first)."""
    if src.exists():
        shutil.rmtree(src)
    (src / ASSETS).mkdir(parents=True)
    root = _source_root(args)
    names = sorted(p.stem for p in (root / LESSONS).glob("[0-9][0-9]_*.ipynb"))
    if not names:
        raise SiteError(f"no lessons found in {_repo_path(args, LESSONS)}/")
    progress: dict[str, dict[str, Any]] = {}
    for name in names:
        stage_notebook(root / LESSONS / f"{name}.ipynb", src / LESSONS / f"{name}.ipynb", args)
        for folder in (EXERCISES, SOLUTIONS) if args.solutions else (EXERCISES,):
            file = f"{set_stem(name, folder)}.ipynb"
            source = root / folder / file
            if source.exists():
                stage_notebook(source, src / folder / file, args,
                               strip_solutions=folder == SOLUTIONS,
                               explorers_from=(root / SOLUTIONS / f"{set_stem(name, SOLUTIONS)}"
                                               ".ipynb") if folder == EXERCISES else None,
                               numbers=set_numbers(int(name[:2])))
            else:
                print(f"book/build.py: warning: {_repo_path(args, folder)}/{file} does not exist "
                      "yet", file=sys.stderr)
        row = _answer_boxes(args, src, name)
        if row is not None and row["boxes"]:
            progress[str(int(name[:2]))] = row
    stage_reference_pages(src, args)
    (src / "index.md").write_text(front_page(args, progress), encoding="utf-8")
    if args.language == ENGLISH:       # the accessibility statement is English only
        (src / "accessibility.md").write_text(
            (ROOT / "ACCESSIBILITY.md").read_text(encoding="utf-8"), encoding="utf-8")
    (src / "playground.md").write_text(playground_page(args), encoding="utf-8")
    (src / "_toc.yml").write_text(_toc(src, names, args.language), encoding="utf-8")
    # JSON is YAML: no YAML writer needed.
    (src / "_config.yml").write_text(json.dumps(_with_heading_anchors(_config(args)), indent=1),
                                     encoding="utf-8")
    shutil.copytree(BOOK / "_ext", src / "_ext", ignore=shutil.ignore_patterns("__pycache__"))
    for asset in (BOOK / "static").iterdir():
        shutil.copy2(asset, src / ASSETS / asset.name)
    _front_end_assets(src / ASSETS)


def _build_site(args: argparse.Namespace, out: Path, src: Path, doctrees: Path) -> None:
    """Stage and build one language's site into ``out``, then lighten it (module docstring), with
    the sentences this script writes in its language."""
    from chutes_edu.i18n import set_language

    global _words
    _words = book_words(args.language)
    # book/answers.py and book/practice.py speak through the library's catalog (say())
    set_language(args.language)
    try:
        _stage_and_build(args, out, src, doctrees)
    finally:
        _words = {}
        set_language(None)


def _theme_words() -> dict[str, str]:
    """Words the theme writes into attributes untranslated (its templates, or a translation its
    catalog lacks), in the site's language: the navigation's and the contents' names, the
    search field's, the launch button's."""
    return {"Main": _("Main"), "Page": _("Page"), "Search this book...": _("Search this book..."),
            "Launch interactive content": _("Launch interactive content"),
            "Launch on Binder": _("Launch on Binder"),
            "Launch on JupyterHub": _("Launch on JupyterHub"),
            "Link to this heading": _("Link to this heading"),
            "Toggle primary sidebar": _("Toggle primary sidebar"),
            "Toggle secondary sidebar": _("Toggle secondary sidebar")}


def _translate_theme(out: Path) -> None:
    """Every ``="<English>"`` of :func:`_theme_words` in a translation's pages, translated."""
    words = {f'="{en}"': f'="{html.escape(said, quote=True)}"'
             for en, said in _theme_words().items() if said != en}
    if not words:
        return
    pattern = re.compile("|".join(map(re.escape, words)))
    for page in _pages(out):
        text = page.read_text(encoding="utf-8")
        new = pattern.sub(lambda m: words[m[0]], text)
        if new != text:
            page.write_text(new, encoding="utf-8")


def _stage_and_build(args: argparse.Namespace, out: Path, src: Path, doctrees: Path) -> None:
    from jupyter_book.sphinx import build_sphinx  # the ecosystem's builder (pip: jupyter-book)

    stage(args, src)
    if out.exists():
        shutil.rmtree(out)
    # The arguments `jupyter-book build` passes (jupyter_book/cli/main.py), with our own folders.
    overrides = {"external_toc_path": (src / "_toc.yml").as_posix(), "latex_individualpages": False}
    result = build_sphinx(src, out, noconfig=True, path_config=str(src / "_config.yml"),
                          confoverrides=overrides, doctreedir=doctrees,
                          freshenv=True, quiet=True)
    if result:
        raise SiteError(f"the Jupyter Book build failed ({result})")
    try:
        lean_pages.lean_site(out, NODE_MODULES)
        search_text.write_search_text(out)
    except lean_pages.LeanError as exc:
        raise SiteError(str(exc)) from exc
    except search_text.SearchTextError as exc:
        raise SiteError(str(exc)) from exc
    if args.language != ENGLISH:
        _translate_theme(out)


def build(args: argparse.Namespace) -> Path:
    """Build the English site into ``args.out`` and each translation into ``<out>/<language>``,
    then link every page to its counterpart in the other language (:func:`link_languages`)."""
    out = args.out.resolve()
    work = out.parent
    ensure_node_modules()
    for language in (ENGLISH, *TRANSLATIONS):
        site_args = copy.copy(args)
        site_args.language = language
        suffix = "" if language == ENGLISH else f"-{language}"
        # the English first: its build wipes ``out``, and its pages are lightened before the
        # translation's folder is in it
        _build_site(site_args, out if language == ENGLISH else out / language,
                    work / f"site-src{suffix}", work / f"site-doctrees{suffix}")
    for language in TRANSLATIONS:
        link_languages(out, language)
    return out


_HEAD_END = re.compile(r"</head>")
# Where the page's text begins, under the bar of buttons above it (a search page has no article):
# the language link goes there, in the text's flow (it wraps on a phone, where the bar is full).
_TEXT_START = re.compile(r'<div id="searchbox"></div>|<div class="bd-search-container">')


def _pages(site: Path, skip: str | None = None) -> list[Path]:
    """The HTML pages of a site (not its assets), leaving out the folder ``skip``."""
    return sorted(p for p in site.rglob("*.html")
                  if not {"_static", "_sources", "_images", "_print", skip} & set(
                      p.relative_to(site).parts))


def _language_link(page: Path, other: Path, language: str, exists: bool) -> tuple[str, str]:
    """(the ``<link rel="alternate">`` for ``<head>``, the visible link for the page's header) from
    ``page`` to ``other``, the same page in ``language`` (its front page if there is none)."""
    href = html.escape(os.path.relpath(other, page.parent).replace(os.sep, "/"), quote=True)
    name = LANGUAGE_NAMES[language]
    title = html.escape(_LINK_TITLES[language] if exists else _LINK_TITLES_FRONT[language],
                        quote=True)
    head = f'<link rel="alternate" hreflang="{language}" href="{href}">'
    # d-print-none (the theme's): the PDFs, printed from the pages, leave it out
    link = (f'<p class="{LANGUAGE_LINK}-line d-print-none" style="text-align: end; margin: 0">'
            f'<a class="{LANGUAGE_LINK}" href="{href}" hreflang="{language}" lang="{language}" '
            f'title="{title}">{name}</a></p>')
    return head, link


# The visible link's title, in the language it leads to (like its name): to the same page, or to
# the front page when the page has no counterpart.
_LINK_TITLES = {"en": "This page in English", "es": "Esta página en español"}
_LINK_TITLES_FRONT = {"en": "The course in English (this page has no English version)",
                      "es": "El curso en español (esta página no tiene versión en español)"}


def link_languages(out: Path, language: str) -> None:
    """Give every page of the English site (``out``) and of its translation (``out/<language>``)
    a link to the same page in the other language, in its header and as ``<link rel="alternate"
    hreflang>``: relative, so that it works from disk; a page with no counterpart (the English
    accessibility statement) links to the other language's front page.

    Parameters
    ----------
    out : Path
        The built English site.
    language : str
        One of :data:`TRANSLATIONS`, built into ``out/<language>``.
    """
    translated = out / language
    pairs = [(page, translated / page.relative_to(out), language, out)
             for page in _pages(out, skip=language)]
    pairs += [(page, out / page.relative_to(translated), ENGLISH, translated)
              for page in _pages(translated)]
    for page, other, other_language, site in pairs:
        exists = other.is_file()
        front = (out if other_language == ENGLISH else translated) / "index.html"
        head, link = _language_link(page, other if exists else front, other_language, exists)
        text = page.read_text(encoding="utf-8")
        if LANGUAGE_LINK in text:
            continue
        if not _TEXT_START.search(text):
            raise SiteError(f"{page.relative_to(site)}: no place found for the link to the page "
                            "in the other language (a new theme?)")
        text = _HEAD_END.sub(lambda m, head=head: f"{head}\n{m[0]}", text, count=1)
        text = _TEXT_START.sub(lambda m, link=link: f"{link}\n{m[0]}", text, count=1)
        page.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(argv)
        out = build(args)
    except SiteError as exc:
        print(f"book/build.py: {exc}", file=sys.stderr)
        return 1
    what = "with" if args.solutions else "without"
    print(f"The course website ({what} solutions) is in {out}; open {out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
