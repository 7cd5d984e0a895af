"""Install the hub tests' caches ahead of them: ``python -m tests.hub_caches``.

configurable-http-proxy (npm), ngshare's environment and ngshare's client (pip) go into cache
folders under the venv at the first hub test of a fresh clone (tests/test_hub.py,
tests/test_hub_grading.py): a minute or more of downloads and installs on the worker that runs it.
`make test` runs this in the background while lint runs, so that the hub tests find them ready; a
hub test that starts meanwhile waits for the install under way (``tests.support.folder_lock``)
instead of installing again. What cannot be installed here is left to the tests, which skip with the
reason.
"""

from __future__ import annotations

import time

import pytest

from tests.test_hub import _configurable_http_proxy
from tests.test_hub_grading import _ngshare_exchange, _ngshare_python


def main() -> int:
    for install in (_configurable_http_proxy, _ngshare_python, _ngshare_exchange):
        start = time.monotonic()
        try:
            where = install()
        except (Exception, pytest.skip.Exception) as problem:    # the tests will say it too
            print(f"{install.__name__}: not installed ({type(problem).__name__}: {problem})")
            continue
        print(f"{install.__name__}: {where} ({time.monotonic() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
