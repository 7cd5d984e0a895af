"""How long the course website's lesson pages hold the browser while they load (`make bench`).

Each lesson page of a built website is opened from disk in Debian's Chromium (as a reader opens
it: every request that is not a file refused), with a ``PerformanceObserver`` of type
``longtask`` registered before the page's first script, so that it records every task of the main
thread over 50 ms from the start. A page has loaded when it has not changed for a second (its
formulas come drawn: book/lean_pages.py draws them when the site is built; a site built before
that typeset them in the page, and MathJax's start-up promise is awaited if there is one).
Reported per page: the longest task, how many tasks were over 200 ms (the goal: none, on an idle
machine), the longest task that began while course.js typeset the maths (its performance marks;
0 on a site whose formulas come drawn) and the time to load. Lighthouse's view of every page, as a
phone on a slow network loads it, is ``benchmarks/bench_lighthouse.py``.

The website is reused when one is given (``--site``) or ``_build/html`` holds one
(``make site``); else it is built once into a temporary folder (a few minutes). ``make bench``
prints the table (``benchmarks/bench.py`` calls :func:`site_timings`);
``python benchmarks/bench_site.py`` runs it alone. Nothing here is asserted: timings on shared
machines are noisy (tests/test_site.py checks that the typesetting is batched instead).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))          # the browser harness the tests use: tests/browser.py
from chutes_edu.course import course_lessons  # noqa: E402
from tests import browser  # noqa: E402

GOAL_MS = 200.0           # no task longer while a lesson page loads
LOAD_TIMEOUT = 120_000    # ms for a page and its maths
VIEWPORT = {"width": 1280, "height": 800}

_OBSERVE = """
window.__longTasks = [];
try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.__longTasks.push([entry.startTime, entry.duration]);
    }
  }).observe({ type: "longtask", buffered: true });
} catch (error) { window.__longTasks = null; }
"""

_LOADED = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  return performance.now();
}"""


def _built_site(site: Path | None, folder: Path) -> Path:
    """The website to load: ``site``, ``_build/html`` if built, or one built into ``folder``."""
    for candidate in (site, ROOT / "_build" / "html"):
        if candidate is not None and (candidate / "index.html").exists():
            return candidate
    out = folder / "html"
    print(f"(building the website into {out}: a few minutes)", flush=True)
    subprocess.run([sys.executable, str(ROOT / "book" / "build.py"), "--out", str(out)],
                   cwd=ROOT, check=True, capture_output=True, text=True)
    return out


def lesson_pages(site: Path) -> list[Path]:
    """The lesson pages of ``site``, in the course's order."""
    pages = [site / lesson.lesson.with_suffix(".html") for lesson in course_lessons(ROOT)]
    return [page for page in pages if page.exists()]


def page_long_tasks(browser_: Any, page_path: Path) -> tuple[list[float], list[float], float]:
    """The durations (ms) of the main thread's long tasks while ``page_path`` loads, those of
    them that began while course.js typeset the maths (between its marks
    ``course-typeset-start`` and ``course-typeset-end``), and the milliseconds until its maths
    was typeset."""
    context = browser_.new_context(viewport=VIEWPORT)
    try:
        browser.refuse_network(context)
        page = context.new_page()
        page.add_init_script(_OBSERVE)
        page.goto(page_path.as_uri(), timeout=LOAD_TIMEOUT)
        loaded = float(page.evaluate(_LOADED))
        browser.settle(page, quiet=1000, limit=LOAD_TIMEOUT)
        tasks = page.evaluate("window.__longTasks")
        if tasks is None:
            raise RuntimeError("this Chromium records no long tasks (PerformanceObserver)")
        marks = dict(page.evaluate("performance.getEntriesByType('mark').map("
                                   "(m) => [m.name, m.startTime])"))
        start = marks.get("course-typeset-start", float("inf"))
        end = marks.get("course-typeset-end", float("inf"))
        typesetting = [float(d) for at, d in tasks if start <= at <= end]
        return [float(d) for _, d in tasks], typesetting, loaded
    finally:
        context.close()


def site_timings(site: Path | None = None) -> list[tuple[str, float, int, float, float]]:
    """Per lesson page: its name, its longest task (ms; 0 if none over 50 ms), how many tasks
    were over :data:`GOAL_MS`, the longest task while the maths was typeset, and the
    milliseconds until its maths was typeset."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-site-") as folder:
        built = _built_site(site, Path(folder))
        with browser.chromium() as chromium:
            for page_path in lesson_pages(built):
                tasks, typesetting, loaded = page_long_tasks(chromium, page_path)
                rows.append((page_path.stem, max(tasks, default=0.0),
                             sum(t > GOAL_MS for t in tasks), max(typesetting, default=0.0),
                             loaded))
    return rows


def print_table(rows: list[tuple[str, float, int, float, float]]) -> None:
    """One line per page: longest task, longest while typesetting, when typeset, verdict."""
    for name, longest, over, typesetting, loaded in rows:
        verdict = "ok" if over == 0 else f"{over} OVER {GOAL_MS:.0f} ms"
        print(f"{name:<24} longest task {longest:5.0f} ms (typesetting: {typesetting:5.0f} ms)"
              f"   maths typeset at {loaded:6.0f} ms   {verdict}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built website (default: _build/html)")
    args = parser.parse_args()
    why = browser.missing(voila=False)
    if why is not None:
        print(f"skipped: {why}")
        return 0
    print(f"website: each lesson page loaded in Chromium, its longest task "
          f"(goal: none over {GOAL_MS:.0f} ms)")
    print_table(site_timings(args.site))
    return 0


if __name__ == "__main__":
    sys.exit(main())
