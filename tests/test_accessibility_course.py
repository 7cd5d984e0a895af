"""The course as a student meets it, audited by axe-core: the start page, the maths toolbox, every
lesson and every exercise set rendered live by Voila (JupyterLab's own output renderers and widget
manager), with their explorers drawn.

One Voila serves the repository on 127.0.0.1; Debian's Chromium opens each notebook, which Voila
runs on a fresh kernel, waits until the widgets are drawn and the maths typeset, and runs the
pinned axe-core (tests/js/package.json) with the WCAG 2.1 A and AA rules. A notebook passes with
no serious or critical violation, no picture without alt text and no script error. Voila's own
page adds no violation of its own (ACCESSIBILITY.md lists what JupyterLab's interface adds).

Each page's kernel is stopped before the next page opens. The whole audit takes a few minutes:
it runs every notebook once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chutes_edu.course import TOOLBOX, course_lessons

from . import browser

ROOT = Path(__file__).resolve().parent.parent
PAGE_TIMEOUT = 300_000
NOTEBOOKS = ["start_here.ipynb", TOOLBOX.as_posix(),
             *(path.as_posix() for lesson in course_lessons(ROOT)
               for path in (lesson.lesson, lesson.exercises))]

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))]


@pytest.fixture(scope="module")
def open_notebook():
    """Open a notebook in Voila (a fresh kernel, stopped afterwards); yield the page."""
    with browser.voila(ROOT) as url, browser.chromium() as chromium:
        context = chromium.new_context(viewport={"width": 1280, "height": 900})

        def visit(name: str):
            page = context.new_page()
            page.set_default_timeout(PAGE_TIMEOUT)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{url}voila/render/{name}", timeout=PAGE_TIMEOUT)
            browser.settle(page)
            return page, errors, url.stop_kernels

        yield visit


# anywidget's front end gives each model two seconds to load its ES module (anywidget
# widget.js, `AbortSignal.timeout(2000)`), then reports this error. On a machine busy with other
# work (CI runs a hub and nbgrader beside this audit) the limit is sometimes missed by a page that
# is otherwise fine; the page is then opened once more, on a fresh kernel, and judged on that.
SLOW_MODEL = "[anywidget] Failed to initialize model."


def _audit(open_notebook, name: str) -> tuple[list, list, int, list[str]]:
    page, errors, stop_kernels = open_notebook(name)
    try:
        violations = browser.axe_violations(page)
        pictures = page.evaluate("() => [...document.images].map(i => ["
                                 "(i.getAttribute('alt') || '').trim(), i.src.slice(0, 60)])")
        outputs = page.locator(".jp-OutputArea-output").count()
    finally:
        page.close()
        stop_kernels()
    return violations, pictures, outputs, errors


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_a_student_page_passes_axe(open_notebook, name: str) -> None:
    violations, pictures, outputs, errors = _audit(open_notebook, name)
    if errors and set(errors) == {SLOW_MODEL}:
        print(f"{name}: anywidget missed its two seconds ({len(errors)} models); opened again")
        violations, pictures, outputs, errors = _audit(open_notebook, name)
    assert outputs > 0 or name == "start_here.ipynb", "the notebook did not render"
    assert not violations, f"{name}:\n" + browser.describe_violations(violations)
    assert all(alt for alt, _ in pictures), [src for alt, src in pictures if not alt]
    assert not errors, errors
