"""What several test modules share, built once per test run.

``site``: the course website (``book/build.py``) with the worked solutions and launch links on.
tests/test_site.py checks its pages, tests/test_site_wcag.py its reflow, focus and forced colours,
tests/test_pdf.py prints it. It is built once for all pytest-xdist workers (tests/site_build.py: the
first to need it builds it, the others wait for it), or ahead of the tests by `make test`, which
names its folder in ``CHUTES_TEST_SITE``; so the tests that use it run on either worker.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.site_build import BINDER_URL, BUILD_LOG, HUB_URL, REPO_URL, built_site

__all__ = ["BINDER_URL", "BUILD_LOG", "HUB_URL", "REPO_URL", "site_pages"]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The website, worked solutions and launch links included: its folder (``index.html``)."""
    ahead = os.environ.get("CHUTES_TEST_SITE")
    if ahead:
        return built_site(Path(ahead))
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):    # this run's folder, which every worker shares
        base = base.parent
    return built_site(base / "site")


def site_pages(site: Path) -> list[Path]:
    """Every HTML page of a built website (not its assets' folders)."""
    return sorted(p for p in site.rglob("*.html")
                  if not {"_static", "_sources", "_images", "_print"} & set(p.relative_to(site).parts))
