"""What several test modules share, built once per test session.

``site``: the course website (``book/build.py``) with the worked solutions and launch links on,
built into a temporary folder. tests/test_site.py checks its pages, tests/test_site_wcag.py its
reflow, focus and forced colours, tests/test_pdf.py prints it. The root conftest.py keeps every
test that uses a session fixture of this folder on one pytest-xdist worker (one group per fixture),
so that the build (about a minute, or three on a busy machine) runs once.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUILD_TIMEOUT = 600       # seconds
REPO_URL = "https://github.com/example-org/chutes_edu"
BINDER_URL = "https://mybinder.org"
HUB_URL = "https://hub.example.edu"
BUILD_LOG = "build-log.txt"       # the build's output and warnings, next to the site


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The website, worked solutions and launch links included: its folder (``index.html``)."""
    out = tmp_path_factory.mktemp("site") / "html"
    command = [sys.executable, str(ROOT / "book" / "build.py"), "--out", str(out), "--solutions",
               "--binder-url", BINDER_URL, "--hub-url", HUB_URL, "--repo-url", REPO_URL]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                          timeout=BUILD_TIMEOUT)
    assert done.returncode == 0, \
        f"the site build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert (out / "index.html").exists()
    (out.parent / BUILD_LOG).write_text(done.stdout + done.stderr, encoding="utf-8")
    return out


def site_pages(site: Path) -> list[Path]:
    """Every HTML page of a built website (not its assets' folders)."""
    return sorted(p for p in site.rglob("*.html")
                  if not {"_static", "_sources", "_images", "_print"} & set(p.relative_to(site).parts))
