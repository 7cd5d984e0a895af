"""One way to put the course in a real browser: Voila on 127.0.0.1 and Debian's Chromium.

Shared by the browser tests (tests/test_browser.py, tests/test_accessibility.py, ...) and the
widget benchmark (benchmarks/bench_widgets.py), so that they start, drive and stop things alike:

- :func:`missing` says why a browser run cannot happen here (no Chromium, Playwright or Voila), so
  that a test can skip with the reason and a benchmark can say so;
- :func:`voila` serves a notebook (at ``/``) or a folder (``/voila/render/<path>``) on a free port
  of 127.0.0.1 and stops Voila and every kernel it started, whatever happens;
- :func:`chromium` launches Debian's Chromium (``/usr/bin/chromium``, never ``playwright
  install``) with the flags this closed network needs, once per process: every use shares it, with
  browser contexts of its own, closed after the use (:func:`close_chromium` stops it);
- :func:`settle` waits until a page has finished drawing (widgets, maths, pictures);
- :func:`draw_every_explorer` draws every explorer, editor and calculator of a course website's
  page at once (the page draws each as its reader nears it), for a test that reads them all;
- :func:`axe_violations` runs the pinned axe-core (tests/js/package.json) on a page, and
  :func:`ace_violations` the second auditor, IBM's Equal Access engine (pinned there too);
- :class:`Explorer` serves an explorer's front end on a page with no kernel (what the course
  website does) and opens it;
- :func:`follow_key_presses` presses keys on a control and waits until each has changed what it
  should (a readout, a picture's description): no clock, so a loaded machine only makes it slower;
- :func:`hold_slices` and :func:`release_slices` hold a page's sliced computations between two
  slices (the runners give the thread back with ``scheduler.yield``), so that a test can show the
  page answering an input while a long computation is under way, whatever the machine's speed.

Nothing here asserts a time: the budgets (16 ms median per control change, no task over 50 ms)
are measured by ``make bench`` (benchmarks/bench_widgets.py, with :func:`time_key_presses`);
the timeouts here are hang guards only.
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import kernel_ports
from .support import ROOT, node_tools

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps calling Google's hosts, and this
# machine's closed network refuses each call.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
START_TIMEOUT = 120.0     # seconds for Voila to listen
EXPECT_MS = 60_000        # Playwright's expect: a hang guard (ms), not a budget
# The focusable elements of an explorer (``root``) that JupyterLab would not leave a key to: Lumino
# matches a notebook shortcut's selector, which ends in ":focus", from a key's target up, and the
# focused control itself matches it unless it carries data-lm-suppress-shortcuts (ui/dom.js
# keepKeysFromLab). Each is focused in turn; the list must be empty.
OUTSIDE_LAB_KEYS = """root => [...root.querySelectorAll(
  'input, button, select, textarea, [tabindex], [contenteditable]')].filter(e => {
    e.focus();
    const focused = document.activeElement;
    return focused === e && !focused.hasAttribute('data-lm-suppress-shortcuts');
  }).map(e => e.outerHTML.slice(0, 100))"""
# The WCAG 2.1 A and AA rules: the standard the course meets (ACCESSIBILITY.md).
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def voila_command() -> str | None:
    """The ``voila`` of this interpreter's environment, else one on PATH, else None."""
    here = Path(sys.executable).parent / "voila"
    return str(here) if here.exists() else shutil.which("voila")


def missing(*, voila: bool = True) -> str | None:
    """Why a browser run cannot happen here, or None."""
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} not found (install Debian's chromium: apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright for Python is not installed (pip install -e '.[test]')"
    if voila and voila_command() is None:
        return "voila is not installed (pip install -e '.[test]')"
    return None


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class VoilaURL(str):
    """The base URL of a running Voila (a ``str``), which can also stop the kernels it started.

    Voila's own kernel shutdown when a page closes fails here (its request lacks the ``_xsrf``
    token), so a test that visits many notebooks stops each page's kernel itself.
    """

    pid: int

    def kernels(self) -> list[int]:
        """The process ids of the kernels this Voila started and that still run."""
        found = []
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
                command = (proc / "cmdline").read_bytes()
            except (OSError, ValueError, IndexError):
                continue
            if parent == self.pid and b"ipykernel" in command:
                found.append(int(proc.name))
        return found

    def stop_kernels(self) -> int:
        """End every kernel this Voila started; how many."""
        stopped = 0
        for pid in self.kernels():
            try:
                os.kill(pid, signal.SIGTERM)
                stopped += 1
            except ProcessLookupError:
                pass
        return stopped


def _stop(process: subprocess.Popen[bytes]) -> None:
    # The server and the kernels it started share the session we gave it: end that group only.
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            continue
    try:
        os.killpg(process.pid, signal.SIGKILL)      # a kernel left behind, if any
    except ProcessLookupError:
        pass
    process.wait()


# `voila`, its kernels taking their ports from a block (its first two arguments: first, count)
_VOILA_IN_BLOCK = """import sys
from tests.kernel_ports import use_port_block
use_port_block(int(sys.argv.pop(1)), int(sys.argv.pop(1)))
sys.argv[0] = "voila"
from voila.app import main
sys.exit(main())
"""


@contextmanager
def voila(target: Path, *, timeout: float = START_TIMEOUT,
          extra: tuple[str, ...] = ()) -> Iterator[VoilaURL]:
    """Serve ``target`` with Voila on 127.0.0.1; yield its base URL; stop it and its kernels.
    Voila listens on, and its kernels take their ports from, a block of this worker's that no
    other process takes (:func:`tests.kernel_ports.voila_block`).

    Parameters
    ----------
    target : pathlib.Path
        A notebook (rendered at the base URL) or a folder (its notebooks at
        ``<base URL>voila/render/<path relative to the folder>``).
    timeout : float
        Seconds to wait for Voila to listen.
    extra : tuple of str
        More command-line options for Voila.
    """
    command = voila_command()
    if command is None:
        raise RuntimeError("voila is not installed")
    target = Path(target).resolve()
    cwd = target if target.is_dir() else target.parent
    paths = [str(ROOT), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p),
           "OPENBLAS_NUM_THREADS": "1"}
    block = kernel_ports.voila_block() if Path(command).parent == Path(sys.executable).parent else None
    if block is None:
        port, start = free_port(), [command]
    else:   # Voila on the block's first port, its kernels on the rest (tests/kernel_ports.py)
        port = block[0]
        start = [sys.executable, "-c", _VOILA_IN_BLOCK, str(block[0] + 1), str(block[1] - 1)]
    # A kernel that a test stops (VoilaURL.stop_kernels) stays stopped: no restart.
    args = [*start, "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
            "--KernelManager.autorestart=False", *extra]
    if target.is_file():
        args.append(target.name)
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(args, cwd=cwd, stdout=log, stderr=subprocess.STDOUT, env=env,
                                   start_new_session=True)
        try:
            deadline = time.monotonic() + timeout
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"voila exited early with code {process.returncode}")
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"voila did not listen within {timeout} s") from None
                    time.sleep(0.25)
            url = VoilaURL(f"http://127.0.0.1:{port}/")
            url.pid = process.pid
            yield url
        except BaseException:
            log.seek(0)
            print(log.read().decode(errors="replace")[-5000:], file=sys.stderr)
            raise
        finally:
            _stop(process)


# One Playwright and one Chromium per process (each pytest-xdist worker, each benchmark), started
# at the first use and stopped when the process ends: a launch costs Playwright's driver and
# Chromium's browser and GPU processes about 1.5 s of CPU here, and the browser tests opened
# about eighty, one per test or fixture. Each use gets its own browser contexts (as private as a
# fresh browser's: no cookies, storage or cache are shared), closed when it ends.
_SHARED: dict[str, Any] = {}


def _shared_chromium() -> Any:
    browser = _SHARED.get("browser")
    if browser is not None and browser.is_connected():
        return browser
    if "playwright" not in _SHARED:
        from playwright.sync_api import sync_playwright

        _SHARED["playwright"] = sync_playwright().start()
        atexit.register(close_chromium)
    _SHARED["browser"] = _SHARED["playwright"].chromium.launch(
        executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, timeout=60_000)
    return _SHARED["browser"]


def close_chromium() -> None:
    """Stop this process's Chromium and Playwright, if :func:`chromium` started them."""
    browser, playwright = _SHARED.pop("browser", None), _SHARED.pop("playwright", None)
    try:
        if browser is not None and browser.is_connected():
            browser.close()
    finally:
        if playwright is not None:
            playwright.stop()


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium under Playwright: yield the browser, shared by every use in this process;
    afterwards close every browser context (and so every page) opened meanwhile.

    Playwright's ``expect`` waits up to :data:`EXPECT_MS` from here on (its default, 5 s, is a
    wall-clock budget that a loaded machine can miss): a hang guard, not a budget."""
    from playwright.sync_api import expect

    expect.set_options(timeout=EXPECT_MS)
    browser = _shared_chromium()
    before = list(browser.contexts)
    try:
        yield browser
    finally:
        if browser.is_connected():
            for context in browser.contexts:
                if not any(context is kept for kept in before):
                    context.close()


# After Voila has sent the executed notebook, the widget manager draws the widgets and MathJax
# typesets: the page has settled when the DOM has not changed for `quiet` ms, every <img> has
# loaded and no spinner is left.
_SETTLE = """async ([quiet, limit]) => {
  let last = Date.now();
  const watch = new MutationObserver(() => { last = Date.now(); });
  watch.observe(document.body, {childList: true, subtree: true, attributes: true,
                                characterData: true});
  const start = Date.now();
  while (Date.now() - start < limit) {
    await new Promise(r => setTimeout(r, 100));
    const loaded = [...document.images].every(i => i.complete);
    const busy = document.querySelector('#loading, .voila-spinner-color1');
    if (loaded && !busy && Date.now() - last > quiet) { break; }
  }
  watch.disconnect();
  return Date.now() - start;
}"""


def settle(page: Any, *, quiet: int = 1500, limit: int = 90_000) -> int:
    """Wait until ``page`` has finished drawing (see above); the milliseconds it took."""
    return int(page.evaluate(_SETTLE, [quiet, limit]))


# The course website draws an explorer, editor or calculator as its place nears the screen (js/site/
# site.js, issue 52); this draws every one still waiting, at once: how many it drew (None: the
# page has no site runtime).
_DRAW_EVERY = "() => window.ChutesSite ? window.ChutesSite.drawAll() : null"
# Its pictures too: the site fetches each as the reader nears it (loading="lazy").
_EVERY_PICTURE = """async () => {
  const lazy = [...document.querySelectorAll('img[loading="lazy"]')];
  lazy.forEach((picture) => { picture.loading = 'eager'; });
  await Promise.all(lazy.map((picture) => picture.complete ? null : new Promise((done) => {
    picture.addEventListener('load', done, {once: true});
    picture.addEventListener('error', done, {once: true});
  })));
}"""


def draw_every_explorer(page: Any) -> int | None:
    """Draw every explorer, board editor and calculator of a course website's page that waits to
    be drawn (the page draws each as the reader nears it), at once, and fetch every picture it
    fetches as the reader nears it, as printing does; for a test that audits or reads every one
    of them. How many it drew (None: not a page of the site)."""
    page.wait_for_function("() => document.readyState !== 'loading'")
    page.evaluate(_EVERY_PICTURE)
    return page.evaluate(_DRAW_EVERY)


def refuse_network(context: Any) -> list[str]:
    """Let ``context`` (a Playwright browser context) load only files, data and blobs: every
    other request is refused and its URL appended to the list returned."""
    refused: list[str] = []

    def route(r: Any) -> None:
        if r.request.url.startswith(("file:", "data:", "blob:")):
            r.continue_()
        else:
            refused.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    return refused



def open_from_disk(chromium: Any, path: Path, *, width: int, height: int,
                   timeout: float | None = None, errors: list[str] | None = None,
                   draw_all: bool = True) -> tuple[Any, Any, list[str]]:
    """A page of a built website opened from disk (``file://``, as a reader who downloaded it)
    in a new context of that window size, every request off the disk refused:
    ``(context, page, refused)``; ``timeout`` (ms) for each of the page's waits; the page's
    uncaught script errors, from its first load on, appended to ``errors`` when given. With
    ``draw_all`` (the default) every explorer, editor and calculator of the page is drawn once it
    has loaded (:func:`draw_every_explorer`), else only those the page draws itself (near the
    screen)."""
    context = chromium.new_context(viewport={"width": width, "height": height})
    refused = refuse_network(context)
    page = context.new_page()
    if errors is not None:
        page.on("pageerror", lambda error: errors.append(str(error)))
    if timeout is not None:
        page.set_default_timeout(timeout)
    page.goto(path.as_uri())
    if draw_all:
        draw_every_explorer(page)
    return context, page, refused

def serve_files(page: Any, host: str, files: dict[str, tuple[str, str]],
                refused: list[str]) -> None:
    """Serve ``files`` (path -> (body, content type)) at ``http://<host>/`` to ``page`` (a
    Playwright page), as a site with no kernel; refuse every other URL and note it in
    ``refused``. The address's fragment is not part of the path."""

    def serve(route: Any) -> None:
        url = route.request.url
        path = url.split(host, 1)[1].split("#")[0] if host in url else None
        if path in files:
            body, kind = files[path]
            route.fulfill(status=200, body=body, content_type=kind)
        else:
            refused.append(url)
            route.abort()

    page.route("**/*", serve)


# The board editor: a point inside a square's cell where the cell itself takes a click (not a
# jump's arrow drawn over it), scrolled into view.
_CELL_POINT = """sq => {
  const cell = document.querySelector(`.chutes-editor rect.cell[data-square="${sq}"]`);
  cell.scrollIntoView({block: "center"});
  const r = cell.getBoundingClientRect();
  for (const fy of [0.5, 0.75, 0.25, 0.85, 0.15]) for (const fx of [0.5, 0.25, 0.75, 0.15, 0.85]) {
    const x = r.left + fx * r.width, y = r.top + fy * r.height;
    if (document.elementFromPoint(x, y) === cell) return [x, y];
  }
  return null;
}"""


def square_point(page: Any, square: int) -> tuple[float, float]:
    """Where to click (or drop) on ``square`` of the board editor on ``page``."""
    point = page.evaluate(_CELL_POINT, square)
    if point is None:
        raise AssertionError(f"no free point on square {square}")
    return float(point[0]), float(point[1])


# For timing an interaction (make bench): watch one widget's DOM; note the key press (on the
# widget, or on ``keys`` if given) and every mutation's time. The interaction has changed the page
# when a picture's src or the readout (an explorer's .chutes-readout, the editor's
# .chutes-editor-readout) has changed; it has settled when no mutation came for QUIET_MS after that.
QUIET_MS = 250
WATCH = """(root, keys) => {
  const s = {t0: null, last: null, changed: false};
  new MutationObserver(records => {
    const now = performance.now();
    for (const r of records) {
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      if ((r.type === 'attributes' && r.attributeName === 'src' && el.tagName === 'IMG')
          || (el && el.closest('.chutes-readout, .chutes-editor-readout'))) { s.changed = true; }
    }
    s.last = now;
  }).observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
  (keys || root).addEventListener('keydown', () => {
    s.t0 = performance.now(); s.changed = false; }, true);
  window.__chutes = s;
}"""
SETTLED = f"""() => {{ const s = window.__chutes;
  return s.t0 !== null && s.changed && s.last > s.t0
         && performance.now() - s.last > {QUIET_MS}; }}"""


COURSE_MEASURED = """() => !document.querySelector('script[src*="_static/course.js"]')
  || document.documentElement.hasAttribute('data-course-measured')"""


def axe_violations(page: Any, *, context: str = "document",
                   impacts: tuple[str, ...] = ("serious", "critical")) -> list[dict[str, Any]]:
    """The axe-core violations of WCAG 2.1 A and AA on ``page`` with the given impacts.

    Parameters
    ----------
    page : playwright Page
        A page that has finished drawing.
    context : str
        A JavaScript expression for what to audit (``document``, or an element).
    impacts : tuple of str
        Keep the violations with these impacts.

    Returns
    -------
    list of dict
        ``{"id", "impact", "help", "nodes": [{"target", "html", "summary"}]}`` per rule.
    """
    _, tools = node_tools()
    # On the course's website, course.js makes each box that scrolls a named Tab stop, those far
    # off the screen once the page is idle: audit the page it leaves, not one it is still marking.
    page.wait_for_function(COURSE_MEASURED)
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(tools / "node_modules" / "axe-core" / "axe.min.js"))
    found = page.evaluate(
        """async ([context, tags]) => {
             // preload: false: axe would fetch every stylesheet again, which a page opened
             // from disk refuses (file://), to check one rule (css-orientation-lock)
             const result = await axe.run(eval(context), {runOnly: {type: 'tag', values: tags},
                                                          resultTypes: ['violations'],
                                                          preload: false});
             return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
               nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html,
                                          summary: n.failureSummary}))}));
           }""", [context, WCAG_TAGS])
    return [v for v in found if v["impact"] in impacts]


# IBM's Equal Access rule set for WCAG 2.1 A and AA (accessibility-checker-engine's policy id).
ACE_POLICY = "WCAG_2_1"


def ace_violations(page: Any) -> list[dict[str, Any]]:
    """The violations of WCAG 2.1 A and AA that IBM's Equal Access engine finds on ``page``.

    The second auditor beside axe-core (``accessibility-checker-engine``, pinned in
    tests/js/package.json; its ``ace.js`` injected as axe's script is). Only its definite failures
    count (``["VIOLATION", "FAIL"]``): its "potential" violations and recommendations ask a person
    to look (is this text a heading? is colour the only cue?) and are not failures.

    Returns
    -------
    list of dict
        In the shape of :func:`axe_violations` (``id`` is the engine's rule id, ``impact``
        "violation"), so that :func:`describe_violations` reads both.
    """
    _, tools = node_tools()
    if not page.evaluate("() => typeof window.ace !== 'undefined'"):
        page.add_script_tag(path=str(tools / "node_modules" / "accessibility-checker-engine"
                                     / "ace.js"))
    found = page.evaluate(
        """async (policy) => {
             const report = await new ace.Checker().check(document, [policy]);
             const failed = report.results.filter(
               r => r.value[0] === 'VIOLATION' && r.value[1] === 'FAIL');
             const rules = new Map();
             for (const r of failed) {
               if (!rules.has(r.ruleId)) {
                 rules.set(r.ruleId, {id: r.ruleId, impact: 'violation', help: r.message,
                                      nodes: []});
               }
               rules.get(r.ruleId).nodes.push({target: r.path.dom, html: r.snippet || '',
                                               summary: r.message});
             }
             return [...rules.values()];
           }""", ACE_POLICY)
    return list(found)


def describe_violations(violations: list[dict[str, Any]], limit: int = 3) -> str:
    """A readable summary of :func:`axe_violations`, for an assertion message."""
    lines = []
    for v in violations:
        lines.append(f"{v['impact']} {v['id']} ({len(v['nodes'])}): {v['help']}")
        for node in v["nodes"][:limit]:
            lines.append(f"    {node['target']}: {node['html'][:160]}")
    return "\n".join(lines)


# An explorer's speed in the page (tests/test_*_explorer_browser.py): from each key press on one
# of its inputs to the change of its readout, and the page's tasks over 50 ms meanwhile.
_WATCH_KEYS = """root => {
  window.__long = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push(Math.round(e.duration));
  }).observe({type: "longtask", buffered: false});
  const explorer = document.querySelector(root);
  const readout = explorer.querySelector(".chutes-readout");
  window.__times = [];
  let t0 = null;
  for (const input of explorer.querySelectorAll("input")) {
    input.addEventListener("keydown", () => { t0 = performance.now(); }, true);
  }
  new MutationObserver(() => {
    if (t0 !== null) { window.__times.push(performance.now() - t0); t0 = null; }
  }).observe(readout, {childList: true, subtree: true, characterData: true});
}"""


def watch_key_presses(page: Any, root: str) -> None:
    """Start timing, on ``page``, each key press in the explorer ``root`` (a CSS selector) to the
    change of its ``.chutes-readout``, and noting the tasks over 50 ms."""
    page.evaluate(_WATCH_KEYS, root)


def time_key_presses(page: Any, control: str, keys: list[str]) -> tuple[list[float], list[int]]:
    """Press ``keys`` on ``control`` (a selector) at a student's pace, after
    :func:`watch_key_presses`: the milliseconds from each press to the readout's change and the
    durations of the tasks over 50 ms meanwhile (for ``make bench``: a test asserts no time, and
    checks that every press is answered with :func:`follow_key_presses`)."""
    page.evaluate("window.__times = []; window.__long = []")
    locator = page.locator(control)
    locator.focus()
    for key in keys:
        locator.press(key)
        page.wait_for_timeout(40)              # a student's pace, well over a frame
    times = page.evaluate("window.__times")
    return [float(t) for t in times], [int(t) for t in page.evaluate("window.__long")]


_EXPLORER_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>%(title)s, no kernel</title>
<link rel="stylesheet" href="/explorer.css"></head>
<body><main><h1>%(heading)s</h1><div id="explorer"></div></main>
<script type="module">
import { mount } from "/%(entry)s";
window.explorer = mount(document.getElementById("explorer"), %(start)s);
</script></body></html>"""


def serve_explorer(page: Any, host: str, refused: list[str], *, entry: str, css: str,
                   start: dict[str, Any], title: str, heading: str) -> None:
    """Serve, at ``http://<host>/``, a page with no kernel that mounts an explorer's front end:
    ``mount(el, start)`` of ``entry`` (a module of chutes_edu/widgets/js, each module served as
    its own file, as a browser imports them), its styles ``css`` and the heading ``heading``;
    every other URL refused and noted (:func:`serve_files`). The page keeps ``mount``'s answer
    as ``window.explorer``."""
    import json

    serve_page(page, host, refused, css=css,
               html=_EXPLORER_PAGE % {"title": title, "heading": heading, "entry": entry,
                                      "start": json.dumps(start)})


def serve_page(page: Any, host: str, refused: list[str], *, html: str, css: str) -> None:
    """Serve, at ``http://<host>/``, the page ``html`` with no kernel, every module of
    chutes_edu/widgets/js as its own file (as a browser imports them) and the styles ``css`` at
    ``/explorer.css``; every other URL refused and noted (:func:`serve_files`)."""
    folder = ROOT / "chutes_edu" / "widgets" / "js"
    files = {f"/{path.relative_to(folder).as_posix()}": (path.read_text(encoding="utf-8"),
                                                         "text/javascript")
             for path in folder.rglob("*.js")}
    files["/"] = (html, "text/html")
    files["/explorer.css"] = (css, "text/css")
    serve_files(page, host, files, refused)


@dataclass(frozen=True)
class Explorer:
    """An explorer's front end on a page with no kernel, as the course website serves it.

    Parameters
    ----------
    host : str
        The made-up host the page is served at (``http://<host>/``).
    entry : str
        Its module in chutes_edu/widgets/js (``mount(el, start)`` is called).
    css : str
        Its styles.
    title, heading : str
        The page's title (", no kernel" is added) and its ``<h1>``.
    root : str
        The CSS selector of the explorer's root element.
    """

    host: str
    entry: str
    css: str
    title: str
    heading: str
    root: str

    @property
    def url(self) -> str:
        return f"http://{self.host}/"

    def serve(self, page: Any, refused: list[str], start: dict[str, Any]) -> None:
        """Serve the explorer mounted with ``start`` to ``page`` (:func:`serve_explorer`)."""
        serve_explorer(page, self.host, refused, entry=self.entry, css=self.css, start=start,
                       title=self.title, heading=self.heading)

    def open(self, chromium: Any, start: dict[str, Any], *, refused: list[str],
             errors: list[str] | None = None, viewport: tuple[int, int] = (1100, 900),
             hold: bool | None = None, ready: str = ".chutes-readout") -> Any:
        """A new page of ``chromium`` with the explorer mounted with ``start``: the URLs it
        asked for and was refused are appended to ``refused``, its errors to ``errors``; with
        ``hold``, its sliced computations are held (:func:`hold_slices`). Returns the page once
        ``ready`` (a selector inside the explorer) is there. ``hold=False`` counts the pauses
        without holding them."""
        page = chromium.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        if errors is not None:
            page.on("pageerror", lambda error: errors.append(str(error)))
        if hold is not None:
            hold_slices(page, hold=hold)
        self.serve(page, refused, start)
        page.goto(self.url, timeout=HANG_MS)
        page.locator(f"{self.root} {ready}").first.wait_for(state="attached", timeout=HANG_MS)
        return page


# Each explorer's page with no kernel: (title, heading).
EXPLORERS = {"board": ("Board explorer", "Boards"), "coin": ("Coin-flip explorer", "Waiting for heads"),
             "simulation": ("Simulation explorer", "Simulation"),
             "jump": ("Jump explorer", "Adding a jump"), "race": ("Race explorer", "Races"),
             "policy": ("Policy explorer", "Aiming"), "design": ("Design explorer", "Design a board")}


def explorer(name: str) -> Explorer:
    """The explorer ``name`` (a key of :data:`EXPLORERS`: chutes_edu.widgets.<name>_explorer, its
    front end's entry in front_ends.json) on a page with no kernel at ``http://<name>.test/``."""
    import importlib

    title, heading = EXPLORERS[name]
    module = importlib.import_module(f"chutes_edu.widgets.{name}_explorer")
    return Explorer(host=f"{name}.test", entry=module.FRONT_END.entry,
                    css=module.FRONT_END.style_source(),
                    title=title, heading=heading, root=f".chutes-{name}-explorer")


HANG_MS = 180_000
"""A hang guard for the browser tests, in ms: fails only when a page never answers."""

# Counts the key presses on an explorer's inputs and the answers: a press is answered when the
# watched element (a readout, or one attribute of a picture) has changed after it.
_FOLLOW = """([root, target, attribute]) => {
  const explorer = document.querySelector(root);
  const s = window.__follow = {pressed: 0, answered: 0};
  for (const el of explorer.querySelectorAll("input, select, button")) {
    el.addEventListener("keydown", () => { s.pressed += 1; }, true);
  }
  new MutationObserver(() => { s.answered = s.pressed; }).observe(
    explorer.querySelector(target), attribute
      ? {attributes: true, attributeFilter: [attribute]}
      : {childList: true, subtree: true, characterData: true});
}"""


def follow_key_presses(page: Any, root: str, control: str, keys: list[str], *,
                       target: str = ".chutes-readout", attribute: str | None = None) -> None:
    """Press ``keys`` one at a time on ``control`` (a selector inside the explorer ``root``),
    each once the last has been answered: ``target`` (inside ``root``; its text, or its
    ``attribute``) must change after every press. Fails (after :data:`HANG_MS`) on a press that
    is never answered; asserts no time."""
    page.evaluate(_FOLLOW, [root, target, attribute])
    locator = page.locator(f"{root} {control}")
    locator.focus()
    for n, key in enumerate(keys, start=1):
        locator.press(key)
        try:
            page.wait_for_function(f"window.__follow.answered === {n}", timeout=HANG_MS)
        except Exception as error:
            raise AssertionError(f"{control}: press {n} of {keys} ({key}) never changed "
                                 f"{target} {attribute or ''}") from error


# Between two slices a runner gives the thread back with `scheduler.yield()` (ui/runner.js
# `nextTask`). Held, each such pause waits until the test lets it go: the page is then between
# two slices of its computation for as long as the test wants, on any machine.
_HOLD = """(() => {
  const gate = {allowed: 0, waiting: [], pauses: 0};
  const pass = () => new Promise((resolve) => setTimeout(resolve, 0));
  gate.let = (n) => {
    gate.allowed += n;
    while (gate.allowed > 0 && gate.waiting.length) { gate.allowed -= 1; gate.waiting.shift()(); }
  };
  window.__slices = gate;
  Object.defineProperty(window, "scheduler", {configurable: true, value: {yield: () => {
    gate.pauses += 1;
    const go = pass();
    if (gate.allowed > 0) { gate.allowed -= 1; return go; }
    return new Promise((resolve) => gate.waiting.push(() => go.then(resolve)));
  }}});
})();"""


def hold_slices(page: Any, *, hold: bool = True) -> None:
    """Before ``page`` loads: hold every pause of its sliced computations (see above) until
    :func:`release_slices`; with ``hold=False``, only count them (:func:`pauses`). Call before
    ``goto``."""
    page.add_init_script(_HOLD + ("" if hold else "window.__slices.let(Infinity);"))


def pauses(page: Any) -> int:
    """How many times the page's sliced computations have given the thread back so far."""
    return int(page.evaluate("window.__slices.pauses"))


def release_slices(page: Any, count: int | None = None) -> None:
    """Let ``count`` held pauses go on (all, and every later one, when None)."""
    page.evaluate("n => window.__slices.let(n === null ? Infinity : n)", count)


def held(page: Any) -> int:
    """How many of the page's computations wait between two slices now."""
    return int(page.evaluate("window.__slices.waiting.length"))


def voila_fixture(notebook: Path) -> Any:
    """A module-scoped pytest fixture that serves ``notebook`` with :func:`voila` and gives its
    URL (in a test module: ``voila_url = browser.voila_fixture(NOTEBOOK)``); its tests are
    skipped where Voila is missing (a module whose other tests need only Chromium runs those)."""
    import pytest

    @pytest.fixture(scope="module")
    def voila_url() -> Iterator[VoilaURL]:
        if missing() is not None:
            pytest.skip(str(missing()))
        with voila(notebook) as url:
            yield url

    return voila_url


def open_voila(chromium: Any, url: str, errors: list[str], *,
               viewport: tuple[int, int] = (1200, 1000)) -> Any:
    """A new page of ``chromium`` at ``url`` (a Voila page), its errors appended to ``errors``;
    it and its actions wait up to :data:`HANG_MS` (a kernel to start, a hang guard)."""
    page = chromium.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(HANG_MS)
    page.goto(url, timeout=HANG_MS)
    return page


def check_voila_page(page: Any, root: str, errors: list[str], screenshot: Path) -> None:
    """The end of a Voila test: axe-core finds no serious or critical WCAG 2.1 A/AA violation in
    the explorer ``root`` (a selector), its picture is kept as ``screenshot``, and the page shows
    no traceback and raised no error."""
    violations = axe_violations(page, context=f"document.querySelector('{root}')")
    assert not violations, describe_violations(violations)
    page.locator(root).first.screenshot(path=str(screenshot))
    assert "Traceback" not in page.content()
    assert not errors, errors
