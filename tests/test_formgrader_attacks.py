"""A class attacks its teacher through formgrader: every payload stays inert (issue 47, 1 and 6).

One student of set 1 hands in a notebook carrying every way into the teacher's browser that an
outside tester found on nbgrader 0.9.6's formgrader: in the written answer and a markdown cell
``<script>``, ``<img onerror>``, ``<details ontoggle>``, ``<svg onload>``, a ``javascript:`` link,
a form, an ``srcdoc`` iframe, an object and a meta refresh; from a code cell (run in the grading
sandbox) HTML, JavaScript, SVG-with-script, markdown, widget-view and "isolated" outputs; a raw
HTML cell; besides the notebook ``evil.html`` and ``evil.svg``. What autograde lets through stays
in the autograded notebook, and two things a tampered autograded file can hold are added to it:
a ``grade_id`` with quotes and an ``autofocus onfocus`` handler, and saved widget state. Each
payload sets a global ``__pwned_<name>``, calls ``alert`` and POSTs ``/api/terminals`` with the
XSRF token read from the cookie: it opened a terminal on the teacher's server before.

Then a real Jupyter server (this environment's, on 127.0.0.1, with a token, nbgrader's formgrader
and ``chutes_teacher.server_extension``) and Debian's Chromium logged in as the teacher open the
manual-grading page: no dialog, no global, no terminal; the Content-Security-Policy is there; the
page still works (a score and a comment typed in are saved, read back through the API); neither
its HTML nor the API answers it or the submissions list fetch name the student (blind grading).
The submission's own files are sandboxed; the feedback file (``nbgrader generate_feedback`` with
the course's configuration) holds no script, handler or ``javascript:``
URL of the student's and runs nothing in Chromium.

``CHUTES_TEST_WITHOUT_INERT=1`` runs the same test with the extension and the inert lines left
out (nbgrader as shipped): it must fail, and says which payloads ran.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import pytest

from chutes_teacher.sandbox import sandbox_problem
from tests import browser
from tests.shared_course import released_course
from tests.support import NBGRADER_BIN, ROOT, nbgrader, released_name

pytestmark = pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")

SOLUTION = ROOT / "solutions" / "01_solutions_waiting_for_heads.ipynb"
SET = Path(released_name(SOLUTION)).stem
STUDENT, FIRST, LAST = "mallory7", "Malloryfirst", "Hackerlast"
WRITTEN = "ex1_6-written"           # the set's hand-graded written answer: a score box
WITHOUT_INERT = os.environ.get("CHUTES_TEST_WITHOUT_INERT") == "1"
# nbgrader as shipped, for CHUTES_TEST_WITHOUT_INERT=1: the course's inert settings
# (chutes_teacher.nbgrader_setup.configure) undone.
AS_SHIPPED = """
from nbconvert.exporters import HTMLExporter
c.GenerateFeedback.exporter_class = HTMLExporter
c.HTMLExporter.preprocessors = []
c.HTMLExporter.filters = {}
"""
HANG_S = 180.0                      # hang guards, never budgets


def _js(name: str, scope: str = "window") -> str:
    """A payload: a global, a dialog and a terminal on the teacher's server, if it runs."""
    return ("(function(w){w.__pwned_NAME=1;w.alert('NAME');w.fetch('/api/terminals',{method:"
            "'POST',headers:{'X-XSRFToken':w.document.cookie.split('_xsrf=')[1].split(';')[0]}})"
            "})(SCOPE)").replace("NAME", name).replace("SCOPE", scope)


MARKDOWN = "\n\n".join([
    "My answer: (b).",
    f"<script>{_js('md_script')}</script>",
    f'<img src="nowhere.png" onerror="{_js("md_onerror")}">',
    f'<details open ontoggle="{_js("md_ontoggle")}"><summary>more</summary>text</details>',
    f'<svg onload="{_js("md_svg")}"><circle r="3"></circle></svg>',
    f'<a href="javascript:{_js("md_link")}">CLICK-ME</a>',
    f'<form action="javascript:{_js("md_form")}"><button>CLICK-ME</button></form>',
    f'<iframe srcdoc="<script>{_js("md_iframe", "parent")}</script>"></iframe>',
    '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
    f'<meta http-equiv="refresh" content="0;url=javascript:{_js("md_meta")}">',
])
OUTPUTS = f'''# an attack: outputs that ran as script in the teacher's browser
from IPython.display import HTML, SVG, Javascript, Markdown, display
display(HTML({f'<img src="nowhere.png" onerror="{_js("out_html")}">'!r}))
display(HTML({f"<script>{_js('out_script')}</script>"!r}))
display(Javascript({_js("out_js")!r}))
display(SVG({f'<svg xmlns="http://www.w3.org/2000/svg"><script>{_js("out_svg")}</script></svg>'!r}))
display(HTML({f'<svg onload="{_js("out_svg_html")}"></svg>'!r}))
display(Markdown({f'<img src="nowhere.png" onerror="{_js("out_markdown")}">'!r}))
display({{"text/javascript": {_js("out_textjs")!r}}}, raw=True)
display({{"application/vnd.jupyter.widget-view+json": {{"model_id": "x", "version_major": 2,
         "version_minor": 0}}, "text/plain": "a widget"}}, raw=True)
display({{"text/html": {f"<script>{_js('out_isolated')}</script>"!r}}},
        metadata={{"text/html": {{"isolated": True}}}}, raw=True)
'''
RAW = f"<script>{_js('raw_cell')}</script><p>raw text</p>"
EVIL_HTML = f"<html><body><script>{_js('file_html')}</script>evil</body></html>"
EVIL_SVG = (f'<svg xmlns="http://www.w3.org/2000/svg" onload="{_js("file_svg")}">'
            f'<script>{_js("file_svg_script")}</script></svg>')
GRADE_ID = f'{WRITTEN}x" autofocus onfocus="{_js("grade_id")}" data-x="'
WIDGET_STATE = {"application/vnd.jupyter.widget-state+json": {
    "version_major": 2, "version_minor": 0,
    "state": {"x": {"bad": f"</script><script>{_js('widget_state')}</script>"}}}}


def _hostile_notebook() -> nbformat.NotebookNode:
    nb = nbformat.read(SOLUTION, as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == WRITTEN:
            cell.source = MARKDOWN
    first = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code")
    nb.cells[first + 1:first + 1] = [
        nbformat.v4.new_code_cell(OUTPUTS),
        nbformat.v4.new_markdown_cell(MARKDOWN.replace("md_", "md2_")),
        nbformat.v4.new_raw_cell(RAW, metadata={"raw_mimetype": "text/html"})]
    return nb


# ----------------------------------------------------------------- the sanitizer, no server

@pytest.mark.parametrize("fragment, kept", [
    (MARKDOWN, "My answer: (b)."), (RAW, "raw text"), (EVIL_HTML, "evil"),
    ('<a href=" java\tscript:alert(1)">x</a><a href="vbscript:alert(1)">y</a>', "y"),
    ('<img src="data:text/html;base64,PHNjcmlwdD4=" alt="a">', "alt"),
    ('<div style="background:url(javascript:alert(1))">s</div>', "s"),
    ('<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>', ""),
])
def test_the_sanitizer_leaves_nothing_that_runs(fragment: str, kept: str) -> None:
    from chutes_teacher.inert import clean_html

    clean = clean_html(fragment)
    assert kept in clean
    assert not re.search(r"<(script|iframe|object|embed|form|input|button|svg|meta|style|math)",
                         clean, flags=re.I), clean
    assert not re.search(r"\son[a-z]+=|javascript:|vbscript:|data:text|style=", clean, flags=re.I)


def test_the_sanitizer_keeps_what_the_course_writes() -> None:
    from chutes_teacher.inert import clean_html

    course = ('<details><summary>Hint</summary><p>See <code>x</code> and $p<1$</p></details>'
              '<table><thead><tr><th>a</th></tr></thead><tbody><tr><td colspan="2">1</td></tr>'
              '</tbody></table><img src="https://example.org/a.png" alt="a board">'
              '<img src="data:image/png;base64,iVBORw0KGgo=" alt="b"><a href="lesson.ipynb">l</a>'
              '<a href="mailto:t@example.edu">m</a><h2 id="Two">Two</h2><a href="#Two">up</a>')
    clean = clean_html(course)
    for part in ("<details><summary>Hint</summary>", "<code>x</code>", "$p", "<td colspan=\"2\">",
                 'src="https://example.org/a.png"', 'src="data:image/png;base64,iVBORw0KGgo="',
                 'href="lesson.ipynb"', 'href="mailto:t@example.edu"', 'id="student-Two"',
                 'href="#student-Two"'):
        assert part in clean, (part, clean)


def test_blind_api_answers_name_no_student() -> None:
    from chutes_teacher.inert import _pseudonymous

    listed = [{"id": "abc", "index": 2, "student": STUDENT, "first_name": FIRST,
               "last_name": LAST, "score": 3.0}]
    assert _pseudonymous(listed) == [{"id": "abc", "index": 2, "student": "Submission #3",
                                      "first_name": None, "last_name": None, "score": 3.0}]
    assert STUDENT not in json.dumps(_pseudonymous({"name": WRITTEN, "student": STUDENT}))


def _tampered(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """What a tampered autograded file can hold besides: a hostile grade_id, widget state."""
    nb.cells.insert(1, nbformat.v4.new_markdown_cell(MARKDOWN.replace("md_", "md3_"), metadata={
        "nbgrader": {"schema_version": 3, "grade": True, "solution": True, "locked": False,
                     "task": False, "points": 1, "grade_id": GRADE_ID}}))
    nb.metadata["widgets"] = WIDGET_STATE
    return nb


def test_the_manual_grading_page_renders_a_hostile_notebook_inert() -> None:
    """The exporter alone (no server): the outputs the sandbox would make, given directly."""
    from chutes_teacher.inert import formgrade_exporter

    nb = _tampered(_hostile_notebook())
    js = {"application/javascript": _js("out_js"), "text/plain": "js"}
    nb.cells[1].outputs = [
        nbformat.v4.new_output("display_data", data={"text/html": MARKDOWN}),
        nbformat.v4.new_output("display_data", data=js),
        nbformat.v4.new_output("display_data", data={"image/svg+xml": EVIL_SVG}),
        nbformat.v4.new_output("display_data", data={"text/markdown": MARKDOWN}),
        nbformat.v4.new_output("display_data", data={"text/html": RAW},
                               metadata={"text/html": {"isolated": True}})]
    resources = {"assignment_id": SET, "notebook_id": SET, "submission_id": "s1", "index": 0,
                 "total": 1, "base_url": "", "student": "Submission #1", "last_name": None,
                 "first_name": None, "notebook_path": "", "csp_nonce": "N0NCE"}
    html, _ = formgrade_exporter().from_notebook_node(nb, resources=resources)
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert all('nonce="N0NCE"' in s or "mathjax" in s.lower() for s in scripts), scripts
    shown = re.sub(r'<div class="highlight.*?</pre></div>', "", html, flags=re.S)  # source code
    assert "alert(" not in shown and "w.fetch(" not in shown       # no payload left but as text
    assert not re.search(r"<[a-z][^>]*\son[a-z]+\s*=", html, flags=re.I)
    assert "<details" in html and "My answer: (b)." in html       # the student's answer shows
    assert 'id="ex1_6-writtenx__autofocus_onfocus' in html         # the hostile id, plain


# ------------------------------------------------------------ a real server and a real browser

@dataclass
class Course:
    """The graded course folder and where the hostile student's files are."""

    root: Path
    autograded: Path
    feedback: Path


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Course:
    """Set 1 generated, the hostile notebook handed in by ``mallory7``, autograded in the
    sandbox, the tampered metadata added to the autograded file, the feedback generated."""
    problem = browser.missing(voila=False) or sandbox_problem("bwrap")
    if problem or not (NBGRADER_BIN / "nbgrader").exists():
        pytest.skip(problem or "nbgrader is not installed (pip install -e '.[teacher]')")
    root = released_course(tmp_path_factory, tmp_path_factory.mktemp("attacked") / "course", SET,
                           [SOLUTION], AS_SHIPPED if WITHOUT_INERT else "")
    submitted = root / "submitted" / STUDENT / SET
    submitted.mkdir(parents=True)
    nbformat.write(_hostile_notebook(), submitted / f"{SET}.ipynb")
    (submitted / "evil.html").write_text(EVIL_HTML)
    (submitted / "evil.svg").write_text(EVIL_SVG)
    done = nbgrader("autograde", SET, "--create", cwd=root)
    assert done.returncode == 0, done.stderr[-4000:]
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{root / 'gradebook.db'}", "chutes_edu") as gb:
        gb.update_or_create_student(STUDENT, first_name=FIRST, last_name=LAST,
                                    email="mallory@example.edu")
    done = nbgrader("generate_feedback", SET, "--force", cwd=root)
    assert done.returncode == 0, done.stderr[-4000:]
    # what a tampered autograded file can hold (nbgrader's feedback step would refuse it)
    autograded = root / "autograded" / STUDENT / SET
    path = autograded / f"{SET}.ipynb"
    nbformat.write(_tampered(nbformat.read(path, as_version=4)), path)
    return Course(root, autograded, root / "feedback" / STUDENT / SET / f"{SET}.html")


@dataclass
class Server:
    """A teacher's Jupyter server on 127.0.0.1."""

    url: str
    token: str

    def get(self, path: str) -> tuple[dict[str, str], str]:
        request = urllib.request.Request(self.url + path,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            return dict(answer.headers), answer.read().decode("utf-8", "replace")


@pytest.fixture(scope="module")
def server(course: Course, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``jupyter server`` in the course folder with formgrader and the course's extension (left
    out with ``CHUTES_TEST_WITHOUT_INERT=1``); stopped with every process it started."""
    home = tmp_path_factory.mktemp("jupyter")
    config = home / "jupyter_server_config.py"
    config.write_text("c.ServerApp.jpserver_extensions = {\n"
                      "    'nbgrader.server_extensions.formgrader': True,\n"
                      f"    'chutes_teacher.server_extension': {not WITHOUT_INERT}}}\n")
    port, token = browser.free_port(), "teacher-token-" + os.urandom(8).hex()
    env = {**os.environ, "PATH": f"{NBGRADER_BIN}{os.pathsep}{os.environ['PATH']}",
           "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_DATA_DIR": str(home / "data"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime"), "OPENBLAS_NUM_THREADS": "1"}
    log = (home / "server.log").open("w+b")
    process = subprocess.Popen(
        [sys.executable, "-m", "jupyter_server", "--no-browser", "--ip=127.0.0.1",
         f"--port={port}", "--ServerApp.port_retries=0", f"--ServerApp.root_dir={course.root}",
         f"--IdentityProvider.token={token}", f"--config={config}",
         *(["--allow-root"] if os.geteuid() == 0 else [])],
        cwd=course.root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    teacher = Server(f"http://127.0.0.1:{port}", token)
    try:
        start = time.monotonic()
        while True:
            try:
                teacher.get("/api/status")
                break
            except OSError:
                assert process.poll() is None and time.monotonic() - start < HANG_S, \
                    log.seek(0) or log.read().decode(errors="replace")[-4000:]
                time.sleep(0.5)
        yield teacher
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        log.seek(0)
        print(log.read().decode(errors="replace")[-3000:], file=sys.stderr)


def _submission_id(server: Server) -> str:
    _, body = server.get(f"/formgrader/api/submitted_notebooks/{SET}/{SET}")
    return str(json.loads(body)[0]["id"])


def _ran(page: Any) -> list[str]:
    return list(page.evaluate(
        "() => Object.keys(window).filter(k => k.startsWith('__pwned_')).sort()"))


@dataclass
class Visit:
    """What the teacher's browser saw on one page."""

    page: Any
    dialogs: list[str]
    api: dict[str, str]
    console: list[str]

    def refused(self) -> list[str]:
        """What the Content-Security-Policy refused on the page (formgrader's own code must
        never be refused: the student's is removed before it gets there)."""
        return [m for m in self.console if "Content Security Policy" in m]


@pytest.fixture
def teacher(server: Server) -> Iterator[Any]:
    """A Chromium context logged in as the teacher, through the server's login form (a token in
    the URL gives a session that may not open terminals: the attack needs the real one)."""
    with browser.chromium() as chromium:
        context = chromium.new_context()
        page = context.new_page()
        page.goto(f"{server.url}/login?next=/formgrader/gradebook", timeout=HANG_S * 1000)
        page.fill("input[name=password]", server.token)
        page.click("button[type=submit], input[type=submit]")
        page.wait_for_url("**/formgrader/gradebook", timeout=HANG_S * 1000)
        yield context


def _visit(context: Any, url: str) -> Visit:
    page = context.new_page()
    dialogs: list[str] = []
    api: dict[str, str] = {}
    console: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("console", lambda m: console.append(m.text))

    def keep(response: Any) -> None:
        if "/formgrader/api/" in response.url:
            try:
                api[response.url] = response.text()
            except Exception:  # noqa: BLE001 - a redirect or an aborted answer has no body
                api[response.url] = ""

    page.on("response", keep)
    page.goto(url, timeout=HANG_S * 1000)
    page.wait_for_load_state("networkidle", timeout=HANG_S * 1000)
    return Visit(page, dialogs, api, console)


def _no_names(text: str, where: str) -> None:
    for secret in (STUDENT, FIRST, LAST):
        assert secret not in text, f"{where} names the student ({secret!r}): blind grading is not"


@pytest.mark.slow
@pytest.mark.browser
def test_the_manual_grading_page_runs_no_student_script_and_still_grades(
        server: Server, teacher: Any) -> None:
    submission = _submission_id(server)
    url = f"{server.url}/formgrader/submissions/{submission}/"
    visit = _visit(teacher, url)
    page = visit.page
    for link in page.get_by_text("CLICK-ME").all():     # what a teacher might click
        try:
            link.click(timeout=5000, no_wait_after=True)
        except Exception:  # noqa: BLE001 - a sanitized link may be gone or hidden: nothing to run
            pass
    page.wait_for_load_state("networkidle", timeout=HANG_S * 1000)
    ran = _ran(page)
    _, terminals = server.get("/api/terminals")
    assert not ran and not visit.dialogs and terminals.strip() == "[]", \
        f"student scripts ran: {ran}, dialogs {visit.dialogs}, terminals opened: {terminals}"
    assert not visit.refused(), visit.refused()

    headers, html = server.get(f"/formgrader/submissions/{submission}/")
    policy = headers.get("Content-Security-Policy", "")
    for directive in ("script-src 'nonce-", "object-src 'none'", "base-uri 'self'",
                      "form-action 'self'", "frame-ancestors 'self'"):
        assert directive in policy, f"{directive} missing from {policy!r}"
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    handlers = page.evaluate("""() => [...document.querySelectorAll('*')].flatMap(e =>
        [...e.attributes].filter(a => a.name.startsWith('on') ||
            /^\\s*javascript:/i.test(a.value)).map(a => e.tagName + ' ' + a.name))""")
    assert not handlers, f"inline handlers or javascript: URLs on the page: {handlers}"
    _no_names(html, "the manual-grading page")
    _no_names(page.content(), "the manual-grading page")
    for address, body in visit.api.items():
        _no_names(body, address)

    # the page still works: a score and a comment typed in are saved
    score = page.locator(f"input#{WRITTEN}")
    with page.expect_response(lambda r: "/formgrader/api/grade/" in r.url
                              and r.request.method == "PUT", timeout=HANG_S * 1000) as saved:
        score.fill("1.5")
        page.locator(".panel-title").first.click()
    assert saved.value.ok
    comment = page.locator(f"textarea#{WRITTEN}-comment")
    with page.expect_response(lambda r: "/formgrader/api/comment/" in r.url
                              and r.request.method == "PUT", timeout=HANG_S * 1000) as said:
        comment.fill("Clear argument.")
        page.locator(".panel-title").first.click()
    assert said.value.ok

    _, grades = server.get(f"/formgrader/api/grades?submission_id={submission}")
    _, comments = server.get(f"/formgrader/api/comments?submission_id={submission}")
    assert {g["name"]: g["manual_score"] for g in json.loads(grades)}[WRITTEN] == 1.5
    assert {c["name"]: c["manual_comment"] for c in json.loads(comments)}[WRITTEN] \
        == "Clear argument."
    _no_names(grades + comments, "the grades and comments API")


@pytest.mark.slow
@pytest.mark.browser
def test_the_submissions_list_is_blind_and_formgraders_pages_work(server: Server,
                                                                  teacher: Any) -> None:
    visit = _visit(teacher, f"{server.url}/formgrader/gradebook/{SET}/{SET}")
    visit.page.get_by_text("Submission #1").first.wait_for(timeout=HANG_S * 1000)
    visit.page.locator("#toggle_names").click()          # its onclick, now a nonced script
    visit.page.get_by_text("Hide All Names").wait_for(timeout=HANG_S * 1000)
    _no_names(visit.page.content(), "the submissions list")
    assert not visit.refused(), visit.refused()
    assert visit.api, "the list fetched nothing"
    for address, body in visit.api.items():
        _no_names(body, address)
    assert not _ran(visit.page) and not visit.dialogs
    # the other pages' inline scripts carry the nonce too: Manage Assignments lists the set,
    # Manage Submissions keeps the names (it is where a teacher autogrades one student)
    for page, expected in (("manage_assignments", SET),
                           (f"manage_submissions/{SET}", f"{LAST}, {FIRST}"),
                           ("gradebook", SET), (f"gradebook/{SET}", SET),
                           ("manage_students", LAST), (f"manage_students/{STUDENT}", SET),
                           (f"manage_students/{STUDENT}/{SET}", SET)):
        other = _visit(teacher, f"{server.url}/formgrader/{page}")
        other.page.get_by_text(expected).first.wait_for(timeout=HANG_S * 1000)
        assert not other.refused(), (page, other.refused())


@pytest.mark.slow
@pytest.mark.browser
def test_the_submissions_own_files_are_sandboxed(server: Server, teacher: Any) -> None:
    submission = _submission_id(server)
    for name in ("evil.html", "evil.svg"):
        headers, _ = server.get(f"/formgrader/submissions/{submission}/{name}")
        policy = headers.get("Content-Security-Policy", "")
        assert policy.startswith("sandbox") and "allow-scripts" not in policy, policy
        assert headers.get("X-Content-Type-Options") == "nosniff"
        visit = _visit(teacher, f"{server.url}/formgrader/submissions/{submission}/{name}")
        assert not _ran(visit.page) and not visit.dialogs, name
    _, terminals = server.get("/api/terminals")
    assert terminals.strip() == "[]", terminals


@pytest.mark.slow
@pytest.mark.browser
def test_the_feedback_holds_and_runs_no_student_script(course: Course, teacher: Any) -> None:
    html = course.feedback.read_text(encoding="utf-8")
    scripts = re.findall(r"<script\b[^>]*>.*?</script>", html, flags=re.S | re.I)
    theirs = [s for s in scripts if "__pwned_" in s or "alert" in s]
    assert not theirs, f"the feedback carries the student's scripts: {theirs[:3]}"
    assert not re.search(r"<[a-z][^>]*\son[a-z]+\s*=", html, flags=re.I), "an event handler"
    assert not re.search(r"""(href|src|action|data|content)\s*=\s*["']?[^"'>]*javascript:""",
                         html, flags=re.I), "a javascript: URL"
    for tag in ("<iframe", "<object", "<embed", "<form", "<meta http-equiv"):
        assert tag not in html.lower(), tag
    visit = _visit(teacher, course.feedback.as_uri())
    assert not _ran(visit.page) and not visit.dialogs
    assert "My answer: (b)." in html and "<details" in html      # the answer itself is there
