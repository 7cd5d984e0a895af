"""Student content made inert wherever the teacher looks at it; blind grading that is blind.

A submission is HTML in the teacher's logged-in browser: formgrader's manual-grading page
(``/formgrader/submissions/<id>/``) renders it with nbconvert on the teacher's own origin, and
every feedback file holds it too. As shipped (nbgrader 0.9.6), a ``<script>`` or an
``<img onerror=...>`` in a written answer, an HTML or JavaScript output, an SVG with a script,
a ``javascript:`` link or a ``grade_id`` with quotes in it ran there, read the XSRF cookie and
opened a terminal on the teacher's server. This module closes that in two layers:

1. **The content is cleaned** (:class:`InertHTMLExporter`, :class:`InertStudentContent`,
   :func:`clean_html`, :func:`markdown2html`): rendered markdown, raw cells and HTML outputs pass
   an allowlist sanitizer (headings, lists, tables, code, ``details``/``summary``, images with
   http(s), relative or ``data:image`` URLs, links with http(s), mailto or relative URLs; the
   MathJax text ``$...$`` is text and stays); JavaScript, widget views and saved widget state are
   dropped; an SVG becomes an ``<img>`` with a ``data:`` URL (a picture, never a document);
   nbgrader metadata that reaches an HTML attribute (``grade_id``), cell ids and tags become
   plain ids. The sanitizer is **nh3** (Rust's ammonia, an HTML5 parser's view of the fragment,
   maintained) rather than nbconvert's ``SanitizeHTML`` preprocessor: that one is built on bleach,
   which is deprecated, and it cleans markdown *source*, so it escapes the course's own
   ``<details>`` answers and tables and can be fooled by what markdown makes of the source
   afterwards; here the *rendered* HTML is cleaned, what the browser actually receives.
2. **The browser runs nothing it was not given by the server** (:func:`protect_formgrader`):
   every formgrader page carries a Content-Security-Policy whose ``script-src`` is a fresh nonce
   per response (formgrader's own template scripts carry it: their ``<script`` tags are given it
   as the templates are loaded, so a script that arrives in a value never has it) plus MathJax's
   folder on cdnjs; no ``'self'``, because a submission's own files are served from the server
   too. Submission files served by formgrader get ``Content-Security-Policy: sandbox`` (no
   script, an opaque origin). Blind grading (:class:`InertFormgrader`, on unless a teacher turns
   it off) takes the student's id and name out of the manual-grading pages' HTML and out of the
   API answers those pages fetch: "Submission #3" instead.

The nonce, not hashes: formgrader's head scripts hold the submission's id and the base URL, so
their hashes change with every page; a template override would copy nbgrader's templates. The
nonce is put into nbgrader's own templates as they load (and an inline ``onclick`` becomes a
nonced script that adds the same handler), so nbgrader's pages stay nbgrader's.
"""

from __future__ import annotations

import base64
import inspect
import json
import re
import secrets
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, cast

import nh3
from jinja2 import BaseLoader, Environment, TemplateNotFound, pass_context
from jupyter_server.utils import url_path_join
from nbconvert.exporters import HTMLExporter
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
from nbconvert.preprocessors import Preprocessor
from traitlets import Bool
from traitlets.config import Configurable

__all__ = ["ALLOWED_TAGS", "FILE_POLICY", "MATHJAX_SOURCE", "InertFormgrader",
           "InertHTMLExporter", "InertStudentContent", "clean_html", "formgrade_exporter",
           "markdown2html", "page_policy", "protect_formgrader", "safe_id"]

ALLOWED_TAGS = frozenset({
    "a", "abbr", "b", "blockquote", "br", "caption", "cite", "code", "col", "colgroup", "dd",
    "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3",
    "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s",
    "samp", "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot",
    "th", "thead", "tr", "u", "ul", "var"})
"""What student HTML may keep: text, structure, tables, code, pictures and links. Everything else
(script, style, iframe, object, embed, form, input, button, svg, math, meta, link, base ...) goes,
scripts and styles with their content."""

_ATTRIBUTES: dict[str, set[str]] = {
    "*": {"class", "id", "title", "lang", "dir", "align"},
    "a": {"href", "name"},
    "img": {"src", "alt", "width", "height"},
    "td": {"colspan", "rowspan", "headers"},
    "th": {"colspan", "rowspan", "headers", "scope"},
    "col": {"span"}, "colgroup": {"span"},
    "ol": {"start", "type"},
    "details": {"open"},
}
_URL_ATTRIBUTES = {"href", "src", "cite"}
_IMAGE_DATA_URL = re.compile(r"data:image/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/=]*\Z",
                             re.IGNORECASE)
_SCHEME = re.compile(r"([a-zA-Z][a-zA-Z0-9+.-]*):")
# The classes formgrader's own scripts find things by: a student's element with one of them could
# take the place of a score box or a comment.
_FORMGRADER_CLASSES = frozenset({
    "nbgrader_cell", "score", "extra-credit", "comment", "tabbable", "save-icon", "score-saved",
    "comment-saved", "mark-graded", "full-credit", "no-credit", "name-shown", "name-hidden",
    "live-notebook", "help", "navbar", "navbar-fixed-top"})
_ID_PREFIX = "student-"

MATHJAX_SOURCE = "https://cdnjs.cloudflare.com/ajax/libs/mathjax/"
"""Where nbconvert's templates load MathJax from (``latest.js`` then loads a newer 2.x from the same
folder): the one place besides the server's nonced scripts that formgrader pages may run code from.
"""

_SHOWN_MIMETYPES = ("text/html", "text/latex", "image/png", "image/jpeg", "image/gif",
                    "text/plain")
_BASE64 = re.compile(r"[A-Za-z0-9+/=\s]*\Z")
_SAFE_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}\Z")
_CELL_ID = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")


# ------------------------------------------------------------------------------- the sanitizer

def _url_allowed(tag: str, attribute: str, value: str) -> bool:
    """Whether a URL may stay: http(s), mailto or relative links; http(s), relative or
    ``data:image/...`` pictures; nothing that a browser would run (``javascript:``, ``vbscript:``,
    ``data:text/html`` ...), whatever whitespace or case it hides behind."""
    squeezed = re.sub(r"[\x00-\x20\x7f]+", "", value)
    scheme = _SCHEME.match(squeezed)
    if scheme is None:
        return not squeezed.startswith("\\")      # relative (a backslash may act as a slash)
    name = scheme.group(1).lower()
    if name in ("http", "https"):
        return True
    if name == "mailto":
        return tag == "a" and attribute == "href"
    if name == "data":
        return tag == "img" and attribute == "src" and bool(_IMAGE_DATA_URL.match(squeezed))
    return False


def _attribute_filter(tag: str, attribute: str, value: str) -> str | None:
    if attribute in _URL_ATTRIBUTES:
        if attribute == "href" and value.startswith("#"):
            return "#" + _ID_PREFIX + value[1:]     # in-page links follow the prefixed ids
        return value if _url_allowed(tag, attribute, value) else None
    if attribute == "class":
        kept = [name for name in value.split() if name not in _FORMGRADER_CLASSES]
        return " ".join(kept) or None
    return value


def clean_html(html: Any) -> str:
    """Student HTML with nothing left that runs: the allowlist sanitizer of this module.

    Parameters
    ----------
    html : str or bytes
        An HTML fragment (rendered markdown, an output's ``text/html``, a raw cell).

    Returns
    -------
    str
        The fragment with only :data:`ALLOWED_TAGS` and their plain attributes, safe URLs and
        ids prefixed ``student-`` (so none can stand in for formgrader's own elements).
    """
    text = html.decode("utf-8", "replace") if isinstance(html, bytes) else str(html)
    return nh3.clean(text, tags=set(ALLOWED_TAGS), attributes=_ATTRIBUTES,
                     attribute_filter=_attribute_filter,
                     url_schemes={"http", "https", "mailto", "data"},
                     link_rel="noopener noreferrer nofollow", strip_comments=True,
                     id_prefix=_ID_PREFIX)


@pass_context
def markdown2html(context: Any, source: str) -> str:
    """A ``markdown2html`` filter for nbconvert's templates whose HTML is cleaned.

    Parameters
    ----------
    context : jinja2.runtime.Context
        The template's context (the cell's attachments and the notebook's folder come from it).
    source : str
        A markdown cell's source, an output's ``text/markdown`` or a comment.

    Returns
    -------
    str
        nbconvert's rendering (mistune with maths kept as text) passed through :func:`clean_html`.
    """
    cell = context.get("cell", {}) or {}
    path = context.get("resources", {}).get("metadata", {}).get("path", "")
    return clean_html(_render_markdown(source, cell.get("attachments", {}), path))


def _render_markdown(source: str, attachments: Any, path: str) -> str:
    renderer = IPythonRenderer(escape=False, attachments=attachments or {}, embed_images=False,
                               path=path, anchor_link_text="¶", exclude_anchor_links=False)
    return str(MarkdownWithMath(renderer=renderer).render(source))


def safe_id(value: Any) -> str:
    """An nbgrader ``grade_id`` (or any id that reaches an HTML attribute) as a plain id.

    Parameters
    ----------
    value : object
        What the notebook's metadata holds.

    Returns
    -------
    str
        ``value`` unchanged when it is letters, digits, ``_``, ``.`` and ``-`` (every id nbgrader
        or the course makes), else with every other character replaced by ``_`` (at most 64).
    """
    text = str(value)
    if _SAFE_ID.match(text):
        return text
    return re.sub(r"[^A-Za-z0-9_.-]", "_", text)[:64] or "_"


# --------------------------------------------------------------------- the notebook, made inert

def _text(value: Any) -> str:
    if isinstance(value, list):
        return "".join(str(part) for part in value)
    return str(value)


def _dimension(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float) and 0 < value < 100_000:
        return int(value)
    return None


class InertStudentContent(Preprocessor):
    """Make a notebook's student content inert for an HTML export.

    What the templates would write as HTML from the notebook is reduced to what cannot run:
    ``text/html`` outputs cleaned (:func:`clean_html`), ``text/markdown`` outputs rendered and
    cleaned, SVG outputs turned into ``<img>`` pictures, pictures checked to be base64, every other
    output type (JavaScript, widget views, unknown types) dropped with a note, saved widget state
    dropped, raw HTML cells cleaned, ids, tags, execution counts and image sizes made plain values,
    and nbgrader's ``grade_id`` made a plain id. Markdown cells are cleaned after rendering, by the
    exporter's ``markdown2html`` (:func:`markdown2html`, :class:`InertHTMLExporter`): cleaning the
    markdown source would escape the course's own HTML.
    """

    def preprocess(self, nb: Any, resources: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """Clean every cell of ``nb`` in place; see the class's description."""
        metadata = nb.get("metadata", {})
        metadata.pop("widgets", None)
        for cell in nb.cells:
            self._cell(cell)
        return nb, resources

    def _cell(self, cell: Any) -> None:
        if "id" in cell and not (isinstance(cell.id, str) and _CELL_ID.match(cell.id)):
            cell.id = secrets.token_hex(8)
        metadata = cell.setdefault("metadata", {})
        tags = metadata.get("tags")
        if tags is not None:
            metadata["tags"] = [t for t in tags if isinstance(t, str) and _CELL_ID.match(t)] \
                if isinstance(tags, list) else []
        nbgrader = metadata.get("nbgrader")
        if isinstance(nbgrader, dict):
            if "grade_id" in nbgrader:
                nbgrader["grade_id"] = safe_id(nbgrader["grade_id"])
            for flag in ("grade", "solution", "locked", "task"):
                if flag in nbgrader:
                    nbgrader[flag] = bool(nbgrader[flag])
            if "points" in nbgrader and not isinstance(nbgrader["points"], int | float):
                nbgrader["points"] = 0
        elif nbgrader is not None:
            metadata.pop("nbgrader")
        if cell.get("cell_type") == "raw":
            mimetype = str(metadata.get("raw_mimetype", "") or metadata.get("format", ""))
            if mimetype.lower() in ("", "text/html"):
                cell.source = clean_html(_text(cell.source))
        if cell.get("cell_type") == "code":
            count = cell.get("execution_count")
            if not isinstance(count, int) or isinstance(count, bool):
                cell.execution_count = None
            cell.outputs = [out for out in (self._output(o) for o in cell.get("outputs", []))
                            if out is not None]

    def _output(self, output: Any) -> Any:
        kind = output.get("output_type")
        if kind == "stream":
            output["name"] = "stderr" if output.get("name") == "stderr" else "stdout"
            output["text"] = _text(output.get("text", ""))
            return output
        if kind == "error":
            output["ename"] = _text(output.get("ename", ""))
            output["evalue"] = _text(output.get("evalue", ""))
            output["traceback"] = [_text(line) for line in output.get("traceback", [])]
            return output
        if kind not in ("display_data", "execute_result"):
            return None
        if kind == "execute_result":
            count = output.get("execution_count")
            if not isinstance(count, int) or isinstance(count, bool):
                output["execution_count"] = None
        data, shown = output.get("data", {}), {}
        for mimetype in ("text/plain", "text/latex"):
            if mimetype in data:
                shown[mimetype] = _text(data[mimetype])
        for mimetype in ("image/png", "image/jpeg", "image/gif"):
            if mimetype in data and _BASE64.match(_text(data[mimetype])):
                shown[mimetype] = re.sub(r"\s", "", _text(data[mimetype]))
        if "text/html" in data:
            shown["text/html"] = clean_html(_text(data["text/html"]))
        elif "text/markdown" in data:
            shown["text/html"] = clean_html(_render_markdown(_text(data["text/markdown"]), {}, ""))
        elif "image/svg+xml" in data:
            picture = base64.b64encode(_text(data["image/svg+xml"]).encode()).decode()
            shown["text/html"] = clean_html(
                f'<img src="data:image/svg+xml;base64,{picture}" alt="an SVG picture">')
        dropped = sorted(set(data) - set(shown) - {"text/markdown", "image/svg+xml"})
        if dropped and not shown:
            shown["text/plain"] = (f"[not shown: {', '.join(dropped)}; student scripts and "
                                   "widgets do not run where the teacher grades]")
        output["data"] = shown
        sizes: dict[str, Any] = {}
        for mimetype in ("image/png", "image/jpeg", "image/gif"):
            given = output.get("metadata", {}).get(mimetype)
            if mimetype in shown and isinstance(given, dict):
                size = {k: _dimension(given.get(k)) for k in ("width", "height")}
                sizes[mimetype] = {k: v for k, v in size.items() if v is not None}
        output["metadata"] = sizes
        return output


class InertHTMLExporter(HTMLExporter):
    """nbconvert's HTML exporter with student content made inert, whatever else is configured.

    Its ``markdown2html`` cleans what it renders, its ``clean_html`` is :func:`clean_html`,
    :class:`InertStudentContent` runs after every other preprocessor (nbgrader's ``GetGrades``
    included), SVG outputs stay pictures, no local file is embedded, and the templates' own
    "sanitize" switch is on (no JavaScript or widget blocks). Used for formgrader's pages
    (:func:`protect_formgrader`) and for feedback (``c.GenerateFeedback.exporter_class``).
    """

    @pass_context
    def markdown2html(self, context: Any, source: str) -> str:
        """nbconvert's rendering (its anchor-link and lexer settings kept, never an embedded local
        file) passed through :func:`clean_html`."""
        cell = context.get("cell", {}) or {}
        path = context.get("resources", {}).get("metadata", {}).get("path", "")
        renderer = IPythonRenderer(escape=False, attachments=cell.get("attachments", {}) or {},
                                   embed_images=False, path=path,
                                   anchor_link_text=self.anchor_link_text,
                                   exclude_anchor_links=self.exclude_anchor_links,
                                   **self.lexer_options)
        return clean_html(MarkdownWithMath(renderer=renderer).render(source))

    def default_filters(self) -> Iterable[tuple[str, Any]]:
        """nbconvert's filters, with the cleaning ``clean_html``."""
        for name, value in super().default_filters():
            yield name, (clean_html if name == "clean_html" else value)

    def _preprocess(self, nb: Any, resources: Any) -> tuple[Any, Any]:
        nb, resources = super()._preprocess(nb, resources)
        return InertStudentContent(parent=self).preprocess(nb, resources)

    def _init_resources(self, resources: Any) -> Any:
        resources = super()._init_resources(resources)
        resources["should_sanitize_html"] = True
        resources["should_not_encode_svg"] = False
        return resources


# ----------------------------------------------------------------------------------- formgrader

class InertFormgrader(Configurable):
    """How :func:`protect_formgrader` shows formgrader's manual-grading pages."""

    blind_grading = Bool(
        True,
        help="Hide who wrote a submission while grading it by hand: formgrader's manual-grading "
             "pages and the API answers they fetch carry 'Submission #n' instead of the student's "
             "id and name, and no link to the student's folder. Manage Submissions and Manage "
             "Students keep the names. Set False to grade with names.").tag(config=True)


_NONCE = "_chutes_csp_nonce"
_NONCE_ATTRIBUTE = re.compile(r"<script\b", re.IGNORECASE)
_INLINE_HANDLER = re.compile(
    r"""(<[a-zA-Z][^<>]*?)\s+on([a-zA-Z]+)="([^"]*)"([^<>]*>)""")


def _with_nonces(source: str, nonce: str) -> str:
    """A template's source whose every ``<script`` carries the nonce expression ``nonce`` and
    whose inline ``on...="..."`` handlers become nonced scripts, just before their element, that
    add the same handler to it."""
    tag = f'<script nonce="{{{{ {nonce} }}}}"'

    def handler(match: re.Match[str]) -> str:
        start, event, code, end = match.groups()
        # before the element, bound once the page is parsed: inside it, the script would change
        # the element's content (formgrader's scripts compare a button's innerHTML)
        return (f"{tag}>(function (script) {{ document.addEventListener('DOMContentLoaded', "
                f"function () {{ script.nextElementSibling.addEventListener('{event.lower()}', "
                f"function (event) {{ {code} }}); }}); }})(document.currentScript);</script>"
                f"{start}{end}")

    return _INLINE_HANDLER.sub(handler, _NONCE_ATTRIBUTE.sub(tag, source))


class _NonceLoader(BaseLoader):
    """Templates of ``folder`` (those in ``names``, or all) with nonces on their scripts."""

    def __init__(self, folder: Path, nonce: str, names: set[str] | None = None) -> None:
        self.folder, self.nonce, self.names = folder, nonce, names

    def get_source(self, environment: Environment,
                   template: str) -> tuple[str, str, Callable[[], bool]]:
        path = self.folder / template
        if (self.names is not None and template not in self.names) or ".." in Path(
                template).parts or not path.is_file():
            raise TemplateNotFound(template)
        return _with_nonces(path.read_text(encoding="utf-8"), self.nonce), str(path), lambda: True


def _nonce(handler: Any) -> str:
    value = getattr(handler, _NONCE, None)
    if value is None:
        value = secrets.token_hex(16)
        setattr(handler, _NONCE, value)
    return str(value)


def _kept_directives(policy: str, base_url: str = "/") -> list[str]:
    """The directives of the server's own policy that stay (where a page may be framed), and
    reports sent to the server's report handler (nbgrader's handlers have a base URL without its
    slash, so the server's own ``report-uri`` would point into ``/formgrader/``)."""
    kept = [d.strip() for d in policy.split(";")
            if d.strip().split(" ")[0] in ("frame-ancestors", "report-to")]
    if not any(d.startswith("frame-ancestors") for d in kept):
        kept.insert(0, "frame-ancestors 'self'")
    kept.append("report-uri " + url_path_join(base_url or "/", "api/security/csp-report"))
    return kept


def page_policy(nonce: str, server_policy: str = "", base_url: str = "/") -> str:
    """The Content-Security-Policy of a formgrader page.

    Parameters
    ----------
    nonce : str
        This response's nonce: only scripts that carry it run (and MathJax from cdnjs).
    server_policy : str
        The server's own policy (its ``frame-ancestors`` is kept).
    base_url : str
        The server's base URL (violations are reported to its ``api/security/csp-report``).

    Returns
    -------
    str
        No inline script or handler, no ``javascript:`` URL, no eval, no plugin, no frame, no
        ``<base>`` or form pointing elsewhere; pictures from the server or ``data:``.
    """
    return "; ".join([
        "default-src 'none'",
        f"script-src 'nonce-{nonce}' {MATHJAX_SOURCE}",
        f"style-src 'self' 'unsafe-inline' {MATHJAX_SOURCE}",
        f"font-src 'self' data: {MATHJAX_SOURCE}",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "frame-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        *_kept_directives(server_policy, base_url)])


FILE_POLICY = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'"
"""The Content-Security-Policy of a submission's own file served by formgrader: no script at all,
an opaque origin (no cookie, no XSRF token, no same-origin request), pictures and styles only."""

_PSEUDONYM_KEYS = ("student", "student_id")
_NAME_KEYS = ("first_name", "last_name", "email", "lms_user_id")


def _blind(handler: Any) -> bool:
    settings = handler.settings.get("chutes_inert")
    formgrader = handler.settings.get("nbgrader_formgrader")
    config = getattr(formgrader, "config", None)
    if config is not None and "InertFormgrader" in config:
        return bool(InertFormgrader(config=config).blind_grading)
    return bool(settings.blind_grading) if settings is not None else True


def _pseudonymous(value: Any) -> Any:
    """API data with no student id or name: a submission's pseudonym is "Submission #<index+1>",
    as formgrader numbers them; elsewhere the id is left empty."""
    if isinstance(value, list):
        return [_pseudonymous(item) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: _pseudonymous(item) for key, item in value.items()}
    index = value.get("index")
    pseudonym = f"Submission #{index + 1}" if isinstance(index, int) else ""
    for key in _PSEUDONYM_KEYS:
        if key in out:
            out[key] = pseudonym
    for key in _NAME_KEYS:
        if key in out:
            out[key] = None
    return out


def _patch_api_writes(classes: Iterable[type]) -> None:
    """Make the manual-grading pages' API answers pseudonymous when grading is blind."""
    for cls in classes:
        original = cls.write  # type: ignore[attr-defined]
        if getattr(original, "chutes_teacher", False):
            continue

        def write(self: Any, chunk: Any, _original: Any = original) -> None:
            if _blind(self):
                try:
                    data = json.loads(chunk) if isinstance(chunk, str | bytes) else chunk
                except ValueError:
                    data = None
                if isinstance(data, dict | list):
                    chunk = json.dumps(_pseudonymous(data))
            _original(self, chunk)

        write.chutes_teacher = True  # type: ignore[attr-defined]
        cls.write = write  # type: ignore[attr-defined]


def formgrade_exporter(config: Any = None) -> InertHTMLExporter:
    """The exporter of formgrader's manual-grading page: nbgrader's ``formgrade`` template, its
    scripts carrying ``resources["csp_nonce"]``, student content inert (:class:`InertHTMLExporter`).

    Parameters
    ----------
    config : traitlets.config.Config, optional
        formgrader's configuration (the template settings are this function's own).

    Returns
    -------
    InertHTMLExporter
    """
    from nbgrader.server_extensions.formgrader import handlers  # type: ignore[import-untyped]

    template_path = handlers.template_path
    loaders = [_NonceLoader(Path(template_path) / "formgrade", "resources.csp_nonce",
                            {"formgrade_macros.html.j2"})]
    return InertHTMLExporter(config=config, template_name="formgrade",
                             extra_template_basedirs=[template_path], extra_loaders=loaders)


def _exporter(handler: Any) -> InertHTMLExporter:
    """formgrader's exporter, inert whatever the config says; made at the first page."""
    exporter = handler.settings.get("chutes_inert_exporter")
    if exporter is None:
        exporter = formgrade_exporter(handler.settings["nbgrader_formgrader"].config)
        handler.settings["chutes_inert_exporter"] = exporter
    return exporter


def _submission_page() -> Callable[..., Any]:
    """nbgrader's ``SubmissionHandler.get`` (0.9.6), inert and, when grading is blind, blind."""
    import os

    from nbgrader.api import MissingEntry  # type: ignore[import-untyped]
    from nbgrader.server_extensions.formgrader.base import (  # type: ignore[import-untyped]
        check_notebook_dir,
        check_xsrf,
    )
    from tornado import web

    @web.authenticated
    @check_xsrf
    @check_notebook_dir
    def get(self: Any, submission_id: str) -> Any:
        try:
            submission = self.gradebook.find_submission_notebook_by_id(submission_id)
            assignment_id = submission.assignment.assignment.name
            notebook_id = submission.notebook.name
            student_id = submission.student.id
        except MissingEntry as err:
            raise web.HTTPError(404, "Invalid submission") from err
        if os.path.split(self.request.path)[1] == submission_id:
            url = self.request.path + "/"
            if self.request.query:
                url += "?" + self.request.query
            return self.redirect(url, permanent=True)
        folder = os.path.abspath(self.coursedir.format_path(
            self.coursedir.autograded_directory, student_id, assignment_id))
        filename = os.path.join(folder, f"{notebook_id}.ipynb")
        indices = self.api.get_notebook_submission_indices(assignment_id, notebook_id)
        index = indices.get(submission.id, -2)
        resources = {
            "assignment_id": assignment_id, "notebook_id": notebook_id,
            "submission_id": submission.id, "index": index, "total": len(indices),
            "base_url": self.base_url, "student": student_id,
            "last_name": submission.student.last_name,
            "first_name": submission.student.first_name,
            "notebook_path": self.url_prefix + "/" + os.path.relpath(filename,
                                                                     self.coursedir.root),
            "csp_nonce": _nonce(self)}
        if _blind(self):
            resources.update(student=f"Submission #{index + 1}", last_name=None,
                             first_name=None, notebook_path="")
        if not os.path.exists(filename):
            raise web.HTTPError(404, f"The autograded notebook of submission #{index + 1} "
                                     "is missing: autograde it again")
        html, _ = _exporter(self).from_filename(filename, resources=resources)
        self.write(html)
        return None

    get.chutes_teacher = True  # type: ignore[attr-defined]
    return get


def protect_formgrader(serverapp: Any) -> None:
    """Make nbgrader's formgrader safe to grade a hostile class with, in this server.

    Called once at server start by :mod:`chutes_teacher.server_extension`. It patches formgrader's
    handler classes (not the router), so it works whether nbgrader's extension loads before or
    after it, and a second call changes nothing. Afterwards:

    - every ``/formgrader/`` page sends a Content-Security-Policy allowing only the scripts that
      carry the response's nonce (formgrader's own, nonced as its templates load) and MathJax from
      :data:`MATHJAX_SOURCE`; ``object-src 'none'``, ``base-uri 'self'``, ``form-action 'self'``,
      the server's ``frame-ancestors`` kept (:func:`page_policy`);
    - formgrader's other templates render with HTML escaping on;
    - a submission's files served by formgrader carry :data:`FILE_POLICY` (``sandbox``) and
      ``X-Content-Type-Options: nosniff``;
    - the manual-grading page renders with :class:`InertHTMLExporter`, whatever the config says;
    - with ``InertFormgrader.blind_grading`` (the default) that page and the API answers it and
      the submissions list fetch hold no student id or name.

    Parameters
    ----------
    serverapp : jupyter_server.serverapp.ServerApp
        The teacher's server.
    """
    try:
        from nbgrader.server_extensions.formgrader import (
            apihandlers,
            base,
            handlers,
        )
    except ImportError:
        serverapp.log.info("chutes_teacher.inert: nbgrader is not installed, nothing to protect")
        return
    from jupyter_server.base.handlers import JupyterHandler

    serverapp.web_app.settings["chutes_inert"] = InertFormgrader(parent=serverapp)
    if getattr(handlers.SubmissionHandler.get, "chutes_teacher", False):
        return
    template_path = handlers.template_path
    server_policy = cast(Callable[[Any], str],
                         inspect.getattr_static(JupyterHandler, "content_security_policy").fget)

    def content_security_policy(self: Any) -> str:
        base_url = self.settings.get("base_url", "/")
        if isinstance(self, handlers.SubmissionFilesHandler):
            return "; ".join([FILE_POLICY, *_kept_directives(server_policy(self), base_url)])
        return page_policy(_nonce(self), server_policy(self), base_url)

    base.BaseHandler.content_security_policy = property(content_security_policy)

    environment = Environment(loader=_NonceLoader(Path(template_path), "csp_nonce"),
                              autoescape=True)

    def render(self: Any, name: str, **namespace: Any) -> str:
        return str(environment.get_template(name).render(csp_nonce=_nonce(self), **namespace))

    base.BaseHandler.render = render

    def set_extra_headers(self: Any, path: str) -> None:
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Content-Security-Policy", content_security_policy(self))

    handlers.SubmissionFilesHandler.set_extra_headers = set_extra_headers
    handlers.SubmissionHandler.get = _submission_page()
    _patch_api_writes([apihandlers.SubmittedNotebookCollectionHandler,
                       apihandlers.GradeCollectionHandler, apihandlers.CommentCollectionHandler,
                       apihandlers.GradeHandler, apihandlers.CommentHandler,
                       apihandlers.FlagSubmissionHandler])
