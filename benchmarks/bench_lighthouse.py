"""The course website at phone speed (issue 52): Lighthouse on every page, as a phone would load it.

Each page of a built website is served by a small local server on 127.0.0.1 (no network), which
compresses what it sends as a static host does (gzip), and measured by Lighthouse (npm, pinned in
``benchmarks/lighthouse/package.json``, installed there by ``npm ci`` on first use) on its mobile
preset (a phone's screen, simulated slow 4G) with Debian's Chromium. Per page: performance, Largest
Contentful Paint, Total Blocking Time, Cumulative Layout Shift, the bytes transferred, the longest
main-thread task, the console's errors and the accessibility score, each held to the issue's goal
(:data:`GOALS`: on an idle machine). Nothing here is asserted: timings on a shared machine are
noisy; tests/test_site_weight.py and tests/test_site_speed.py check, without a clock, what a page
loads and the work it does while loading.

``--tasks`` measures instead the main thread's long tasks (over 50 ms) of each page in Chromium
itself, with no CPU or network throttling (a phone's screen, served compressed): the longest, the
sum of their time over 50 ms (a blocking time, not Lighthouse's simulated one) and the console's
errors, since Lighthouse's own long-task figures are its simulation's.

``python benchmarks/bench_lighthouse.py [--site _build/html] [--pages index lessons/01_...]
[--tasks]`` (default: every page); ``make bench`` runs it after the other benchmarks
(``benchmarks/bench.py`` calls :func:`lighthouse_rows` and :func:`print_rows`).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "benchmarks" / "lighthouse"
CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = "--headless --no-sandbox --disable-gpu"
# The goals, on an idle machine: (column, worst allowed, larger is better).
GOALS: dict[str, tuple[float, bool]] = {
    "performance": (90, True), "lcp_ms": (2500, False), "tbt_ms": (200, False),
    "cls": (0.1, False), "kib": (600, False), "longest_task_ms": (200, False),
    "console_errors": (0, False), "accessibility": (100, True),
}
_COMPRESSIBLE = (".html", ".js", ".css", ".json", ".svg", ".map", ".txt", ".inv", ".xml")
PAGE_TIMEOUT = 300  # seconds for one Lighthouse run: a hang guard


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Files of the site, gzip-compressed when the browser accepts it (as a static host)."""

    def log_message(self, format: str, *args: Any) -> None:
        return

    def send_head(self) -> Any:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.is_file() and path.suffix in _COMPRESSIBLE):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


@contextmanager
def serve(site: Path) -> Iterator[str]:
    """The website ``site`` served, compressed, on 127.0.0.1: yields its base address."""
    handler = functools.partial(_Handler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def lighthouse() -> Path:
    """Lighthouse's command, installed into benchmarks/lighthouse by ``npm ci`` when missing."""
    command = TOOL / "node_modules" / ".bin" / "lighthouse"
    if not command.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("npm is needed once to install Lighthouse (apt-get install npm)")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts",
                        "--prefer-offline"], cwd=TOOL, check=True)
    return command


def site_pages(site: Path) -> list[str]:
    """Every page of ``site`` (its path, e.g. ``lessons/01_waiting_for_heads.html``), in order:
    the front page first; not the print pages of ``make pdf`` (``_print/``) nor the theme's
    templates among its files (``_static/webpack-macros.html``, in a translation's too)."""
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                   if not any(part.startswith("_") for part in p.relative_to(site).parts))
    return sorted(pages, key=lambda p: (p != "index.html", p))


def measure(url: str, command: Path) -> dict[str, float]:
    """One Lighthouse run (mobile preset) on ``url``: the row of :data:`GOALS`' columns."""
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as profile:
        done = subprocess.run(
            [str(command), url, "--output=json", "--output-path=stdout", "--quiet",
             "--only-categories=performance,accessibility,best-practices",
             f"--chrome-flags={CHROME_FLAGS} --user-data-dir={profile}"],
            capture_output=True, text=True, timeout=PAGE_TIMEOUT, check=False,
            env={**os.environ, "CHROME_PATH": CHROMIUM, "TMPDIR": profile})
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}: {done.stderr[-1500:]}")
    report = json.loads(done.stdout)
    audits = report["audits"]

    def value(name: str) -> float:
        return float(audits[name].get("numericValue") or 0.0)

    tasks = (audits.get("long-tasks", {}).get("details") or {}).get("items", [])
    errors = (audits.get("errors-in-console", {}).get("details") or {}).get("items", [])
    return {
        "performance": round(100 * (report["categories"]["performance"]["score"] or 0)),
        "lcp_ms": value("largest-contentful-paint"), "tbt_ms": value("total-blocking-time"),
        "cls": value("cumulative-layout-shift"), "kib": value("total-byte-weight") / 1024,
        "longest_task_ms": max((float(t.get("duration", 0)) for t in tasks), default=0.0),
        "console_errors": len(errors),
        "accessibility": round(100 * (report["categories"]["accessibility"]["score"] or 0)),
    }


def misses(row: dict[str, float]) -> list[str]:
    """The columns of ``row`` that miss their goal."""
    out = []
    for column, (goal, larger) in GOALS.items():
        if (row[column] < goal) if larger else (row[column] > goal):
            out.append(column)
    return out


def lighthouse_rows(site: Path, pages: list[str] | None = None,
                    each: Callable[[str, dict | None], None] | None = None
                    ) -> list[tuple[str, dict | None]]:
    """(page, its row) for each page of ``site`` (default: every page); a page Lighthouse could
    not measure (a busy machine can time it out) has None, said on stderr. ``each`` is called
    with each row as it comes."""
    command = lighthouse()
    rows: list[tuple[str, dict | None]] = []
    with serve(site) as base:
        for page in pages or site_pages(site):
            try:
                row: dict | None = measure(base + page, command)
            except (RuntimeError, subprocess.TimeoutExpired, json.JSONDecodeError) as exc:
                print(f"{page}: not measured: {str(exc)[:300]}", file=sys.stderr, flush=True)
                row = None
            rows.append((page, row))
            if each is not None:
                each(page, row)
    return rows


HEADER = ("| page | performance | LCP | TBT | CLS | KiB | longest task | console errors "
          "| accessibility | misses |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")


def print_row(page: str, row: dict | None) -> None:
    """One line of the table (:data:`HEADER`): the page's columns and the goals it misses."""
    if row is None:
        print(f"| {page} | | | | | | | | | not measured |", flush=True)
        return
    print(f"| {page} | {row['performance']:.0f} | {row['lcp_ms'] / 1000:.1f} s "
          f"| {row['tbt_ms']:.0f} ms | {row['cls']:.3f} | {row['kib']:,.0f} "
          f"| {row['longest_task_ms']:.0f} ms | {row['console_errors']:.0f} "
          f"| {row['accessibility']:.0f} | {', '.join(misses(row)) or 'ok'} |", flush=True)


def print_rows(rows: list[tuple[str, dict | None]]) -> None:
    """A Markdown table, one line per page, with the goals each page misses."""
    print(HEADER)
    for page, row in rows:
        print_row(page, row)


# Each long task of the page from its start, noted by the page itself (Chromium's Long Tasks API).
_LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longTasks.push(e.duration);
}).observe({type: 'longtask', buffered: true});
"""
TASKS_QUIET_MS = 4000      # how long after its load event a page is watched
TASKS_HEADER = ("| page | longest task | blocking (sum over 50 ms) | long tasks | console errors |"
                "\n|---|---:|---:|---:|---:|")


def _page_tasks(chromium: Any, url: str) -> dict:
    context = chromium.new_context(viewport={"width": 412, "height": 823}, is_mobile=True,
                                   has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(_LONG_TASKS)
    page.goto(url, wait_until="load")
    page.wait_for_timeout(TASKS_QUIET_MS)
    tasks = [float(t) for t in page.evaluate("window.__longTasks")]
    context.close()
    return {"longest_ms": max(tasks, default=0.0), "blocking_ms": sum(t - 50 for t in tasks),
            "tasks": len(tasks), "console_errors": len(errors)}


def long_tasks(site: Path, pages: list[str] | None = None,
               each: Callable[[str, dict], None] | None = None) -> list[tuple[str, dict]]:
    """(page, its long tasks) for each page of ``site``: Chromium (Playwright) with no
    throttling, a phone's window (412 x 823), the site served compressed; each page watched
    from its start until :data:`TASKS_QUIET_MS` after its load event."""
    from playwright.sync_api import sync_playwright

    rows: list[tuple[str, dict]] = []
    with serve(site) as base, sync_playwright() as play:
        chromium = play.chromium.launch(executable_path=CHROMIUM, args=CHROME_FLAGS.split())
        try:
            for page_name in pages or site_pages(site):
                row = _page_tasks(chromium, base + page_name)
                rows.append((page_name, row))
                if each is not None:
                    each(page_name, row)
        finally:
            chromium.close()
    return rows


def print_tasks_row(page: str, row: dict) -> None:
    """One line of the long tasks' table (:data:`TASKS_HEADER`)."""
    print(f"| {page} | {row['longest_ms']:.0f} ms | {row['blocking_ms']:.0f} ms | {row['tasks']} "
          f"| {row['console_errors']} |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "_build" / "html",
                        help="a built website (default: _build/html, `make site`)")
    parser.add_argument("--pages", nargs="*", help="pages to measure (default: every page), "
                        "e.g. index.html lessons/11_long_run.html")
    parser.add_argument("--tasks", action="store_true", help="the long tasks of each page in "
                        "Chromium with no throttling, instead of Lighthouse")
    args = parser.parse_args()
    if not (args.site / "index.html").exists():
        print(f"skipped: no website in {args.site} (make site)")
        return 0
    if not Path(CHROMIUM).exists() or shutil.which("node") is None:
        print(f"skipped: Lighthouse needs Node.js and Chromium ({CHROMIUM})")
        return 0
    pages = [p if p.endswith(".html") else f"{p}.html" for p in args.pages or []]
    if args.tasks:
        print(TASKS_HEADER, flush=True)
        long_tasks(args.site, pages or None, each=print_tasks_row)
        return 0
    print(HEADER, flush=True)
    lighthouse_rows(args.site, pages or None, each=print_row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
