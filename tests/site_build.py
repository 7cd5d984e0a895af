"""The course website the site's tests share, built once per test run: ``python -m tests.site_build
FOLDER``.

tests/test_site.py checks its pages, tests/test_site_wcag.py its reflow, focus and forced colours,
tests/test_pdf.py prints it: all of them take the ``site`` fixture (tests/conftest.py), the website
with the worked solutions and launch links on (``book/build.py``). The build (a minute of CPU, or
three on a busy machine) runs once for every pytest-xdist worker of a run: whoever comes first
builds it in ``FOLDER/html`` while holding its lock (``tests.support.folder_lock``), and everyone
else waits for the lock, then finds it built (``FOLDER/built``). So the tests that use it can run on
any worker, side by side.

`make test` removes the last run's site and runs this in the background while lint runs (on the
core that mypy leaves idle), then names the folder to pytest (``CHUTES_TEST_SITE``); a test that
needs the site before the build is done waits for it instead of building it again.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.support import folder_lock

ROOT = Path(__file__).resolve().parent.parent
BUILD_TIMEOUT = 600       # seconds: a hang guard
REPO_URL = "https://github.com/example-org/chutes_edu"
BINDER_URL = "https://mybinder.org"
HUB_URL = "https://hub.example.edu"
BUILD_LOG = "build-log.txt"       # the build's output and warnings, next to the site
BUILT = "built"                   # written last: the build in the folder is complete


def built_site(folder: Path) -> Path:
    """The website in ``folder/html`` (its ``index.html``), built unless already built there;
    one builder at a time (:func:`tests.support.folder_lock`)."""
    out = folder / "html"
    with folder_lock(folder):
        if (folder / BUILT).exists():
            return out
        folder.mkdir(exist_ok=True)
        command = [sys.executable, str(ROOT / "book" / "build.py"), "--out", str(out),
                   "--solutions", "--binder-url", BINDER_URL, "--hub-url", HUB_URL,
                   "--repo-url", REPO_URL]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                              timeout=BUILD_TIMEOUT)
        (folder / BUILD_LOG).write_text(done.stdout + done.stderr, encoding="utf-8")
        if done.returncode != 0 or not (out / "index.html").exists():
            raise RuntimeError(
                f"the site build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        (folder / BUILT).write_text("", encoding="utf-8")
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    out = built_site(Path(argv[0]).resolve())
    print(f"built {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
