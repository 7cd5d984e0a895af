"""The student's environment, built as a student builds it: `make lab` in a fresh virtual environment.

`make lab` installs binder/requirements.txt and runs binder/postBuild, exactly what mybinder.org (and
repo2docker, for a hub image) does with the repository, so one test covers all three. It checks that
the environment holds what a student needs and no test or grading tools, that pip prints no warning
caused by our metadata, that lesson 1 runs on its kernel, that JupyterLab, started by `make lab`,
serves the whole course and lands on the start page, and that in that JupyterLab (in Chromium)
keys pressed in an explorer reach the explorer, not Lab's notebook shortcuts. It needs PyPI (or
pip's cache): a minute or two.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from . import browser

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow
# Test runners and linters stay out of a student's Lab. (nbgrader is in it, for the Assignments tab;
# its teacher's views are turned off, see test_student_environment_has_no_test_or_grading_tools.)
NOT_FOR_STUDENTS = {"pytest", "nbval", "hypothesis", "playwright", "voila", "ruff", "mypy"}


@pytest.fixture(scope="module")
def lab_env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    env_dir = tmp_path_factory.mktemp("student") / "venv"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    done = subprocess.run(["make", "--no-print-directory", "lab-env", f"LAB_VENV={env_dir}",
                           f"PYTHON={sys.executable}"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=1800)
    assert done.returncode == 0, f"make lab-env failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return env_dir, done.stdout + done.stderr


def _ours(line: str) -> bool:
    """A pip/setuptools warning about this project (not about the machine's own pip configuration)."""
    return bool(re.search(r"warning|deprecat", line, re.I)) and "is ignored: it is neither" not in line


def test_pip_prints_no_warning_about_our_metadata(lab_env: tuple[Path, str]) -> None:
    _, log = lab_env
    assert not [line for line in log.splitlines() if _ours(line)], log[-3000:]


def test_student_environment_has_no_test_or_grading_tools(lab_env: tuple[Path, str]) -> None:
    env_dir, _ = lab_env
    listed = subprocess.run([str(env_dir / "bin" / "python"), "-m", "pip", "list", "--format=json"],
                            capture_output=True, text=True, check=True).stdout
    names = {p["name"].lower().replace("_", "-") for p in json.loads(listed)}
    assert not names & NOT_FOR_STUDENTS, sorted(names & NOT_FOR_STUDENTS)
    assert {"jupyterlab", "ipywidgets", "nbgitpuller", "chutes-edu", "nbgrader", "ngshare-exchange"} <= names
    # nbgrader's student view only (binder/student_settings.py, run by postBuild): the Assignments
    # tab and Validate stay; formgrader, create assignment and the course list are off and locked
    sys.path.insert(0, str(ROOT / "binder"))
    import student_settings

    etc = env_dir / "etc" / "jupyter"
    page = json.loads((etc / "labconfig" / "page_config.json").read_text())
    for plugin in student_settings.TEACHER_LAB_PLUGINS:
        assert page["disabledExtensions"][plugin] is page["lockedExtensions"][plugin] is True
    servers = subprocess.run([str(env_dir / "bin" / "jupyter"), "server", "extension", "list"],
                             capture_output=True, text=True)
    listed = re.sub(r"\x1b\[[0-9;]*m", "", servers.stdout + servers.stderr)
    for name in student_settings.TEACHER_SERVER_EXTENSIONS:
        assert re.search(rf"{re.escape(name)}\s+disabled", listed), listed[-3000:]
    for name in student_settings.STUDENT_SERVER_EXTENSIONS:
        assert re.search(rf"{re.escape(name)}\s+enabled", listed), listed[-3000:]


def test_library_comes_from_the_checkout_and_imports_anywhere(lab_env: tuple[Path, str],
                                                              tmp_path: Path) -> None:
    """Even in a home folder holding a course folder named `chutes_edu` (nbgitpuller's target)."""
    env_dir, _ = lab_env
    (tmp_path / "chutes_edu" / "lessons").mkdir(parents=True)
    where = subprocess.run([str(env_dir / "bin" / "python"), "-c",
                            "from chutes_edu import MILTON_BRADLEY_1943, check\n"
                            "import chutes_edu; print(chutes_edu.__file__)"],
                           cwd=tmp_path, capture_output=True, text=True)
    assert where.returncode == 0, where.stderr[-2000:]
    assert where.stdout.strip() == str(ROOT / "chutes_edu" / "__init__.py")


def test_lesson_one_runs_on_the_student_kernel(lab_env: tuple[Path, str]) -> None:
    env_dir, _ = lab_env
    lesson = sorted((ROOT / "lessons").glob("01_*.ipynb"))[0]
    subprocess.run([str(env_dir / "bin" / "python"), "-m", "ipykernel", "install", "--prefix",
                    str(env_dir), "--name", "student-env"], capture_output=True, check=True)
    # the student's environment has no nbclient: drive its kernel from ours
    code = ("import nbformat\n"
            "from nbclient import NotebookClient\n"
            f"nb = nbformat.read({str(lesson)!r}, as_version=4)\n"
            "NotebookClient(nb, timeout=120, kernel_name='student-env', resources="
            f"{{'metadata': {{'path': {str(lesson.parent)!r}}}}}).execute()\n"
            "print('ran', len(nb.cells), 'cells')\n")
    found = {**os.environ, "JUPYTER_PATH": str(env_dir / "share" / "jupyter")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                          env=found)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "ran" in done.stdout


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _lab_api(origin: str, token: str, path: str, method: str = "GET", timeout: float = 30) -> Any:
    """Jupyter Server's REST API at ``origin`` (``http://127.0.0.1:<port>``), as the owner of
    ``token``: the answer's JSON (None for an empty answer)."""
    request = urllib.request.Request(f"{origin}{path}", method=method,
                                     headers={"Authorization": f"token {token}"},
                                     data=b"{}" if method == "POST" else None)
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        body = answer.read()
    return json.loads(body) if body else None


@contextmanager
def _make_lab(env_dir: Path, tmp_path: Path) -> Iterator[tuple[str, str, str, Path]]:
    """``make lab`` on a free port with the student's environment ``env_dir``: yields the URL it
    printed, the server's origin, its token and its log once the server answers; stops it
    afterwards."""
    port = _free_port()
    origin = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["JUPYTER_RUNTIME_DIR"] = str(tmp_path / "runtime")
    env["JUPYTER_CONFIG_DIR"] = str(tmp_path / "config")
    log = tmp_path / "lab.log"
    with log.open("w") as out:
        lab = subprocess.Popen(["make", "--no-print-directory", "lab", f"LAB_VENV={env_dir}",
                                f"PORT={port}"], cwd=ROOT, env=env, stdout=out,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        url = None
        deadline = time.monotonic() + 120
        while url is None and time.monotonic() < deadline and lab.poll() is None:
            time.sleep(0.5)
            found = re.search(rf"http://127\.0\.0\.1:{port}/\S*token=(\w+)", log.read_text())
            url = found.group(0) if found else None
        assert url, f"make lab printed no URL:\n{log.read_text()[-3000:]}"
        token = re.search(r"token=(\w+)", url).group(1)  # type: ignore[union-attr]
        # The URL is printed as the server binds; on a loaded machine the first request can
        # still be refused for a moment, so wait until the server answers (or has died).
        ready = time.monotonic() + 60
        while True:
            try:
                _lab_api(origin, token, "/api/status")
                break
            except OSError:
                assert lab.poll() is None, f"make lab exited:\n{log.read_text()[-3000:]}"
                assert time.monotonic() < ready, f"no answer on {port}:\n{log.read_text()[-3000:]}"
                time.sleep(0.5)
        yield url, origin, token, log
    finally:
        os.killpg(lab.pid, signal.SIGTERM)
        try:
            lab.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(lab.pid, signal.SIGKILL)
            lab.wait()


def test_make_lab_serves_the_whole_course_from_the_start_page(lab_env: tuple[Path, str],
                                                              tmp_path: Path) -> None:
    env_dir, _ = lab_env
    with _make_lab(env_dir, tmp_path) as (url, origin, token, log):
        assert "/lab/tree/start_here.ipynb" in url       # the printed URL opens the start page

        def get(path: str) -> Any:
            return _lab_api(origin, token, path)

        for folder in ("lessons", "exercises", "solutions"):
            listed = {item["name"] for item in get(f"/api/contents/{folder}")["content"]}
            expected = {p.name for p in (ROOT / folder).glob("*.ipynb")}
            assert expected <= listed, (folder, sorted(expected - listed))
        assert get("/api/contents/start_here.ipynb")["type"] == "notebook"
        # build artefacts stay out of the student's file browser
        assert list(ROOT.glob("*.egg-info")), "the editable install left no egg-info to hide"
        top = {item["name"] for item in get("/api/contents/")["content"]}
        assert not [name for name in top if name.endswith(".egg-info")], sorted(top)

        # a kernel starts and stops (a student opens a notebook): the terminal stays quiet
        kernel = _lab_api(origin, token, "/api/kernels", "POST", timeout=60)["id"]
        time.sleep(8)
        _lab_api(origin, token, f"/api/kernels/{kernel}", "DELETE", timeout=60)
        time.sleep(1)
        printed = log.read_text()
        assert "Press Control-C here to stop" in printed
        noise = [line for line in printed.splitlines()
                 if re.search(r"\[W |WARNING|Traceback|\[E ", line)]
        assert not noise, "make lab printed what a student cannot act on:\n" + "\n".join(noise)


# Lab's notebook shortcuts in command mode: A and B add a cell, an arrow moves to another cell.
_PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"     # the notebook in view
_CELLS = f"() => document.querySelectorAll('{_PANEL} .jp-Cell').length"
_KERNEL = "Python 3 (ipykernel)"
_KERNEL_CHOICE = "Select Kernel"                     # the title of Lab's kernel choice
_BUSY_LAB_ASKS = (_KERNEL_CHOICE, "Loading… The loading screen is taking a long time.")


def _answer_lab_dialogs(page: Any) -> list[str]:
    """Answer JupyterLab's dialogs for the rest of the test as a student does: "Keep Waiting" when
    Lab says its loading screen takes long (a busy machine), Python 3 when it asks for a kernel;
    any other is closed. Returns the list (growing) of what the dialogs said."""
    from playwright.sync_api import Error

    said: list[str] = []

    def answer(dialogs: Any) -> None:
        dialog = dialogs.first
        try:            # a dialog may close itself meanwhile (the loading one, once Lab is up)
            text = " ".join(dialog.evaluate("e => e.getAttribute('aria-label') || e.innerText",
                                            timeout=5_000).split())
            said.append(text)
            if text.startswith(_KERNEL_CHOICE):
                dialog.locator("select").select_option(label=_KERNEL, timeout=5_000)
                dialog.locator(".jp-mod-accept").click(timeout=5_000)
            else:           # its Cancel where it has one ("Keep Waiting"; not, say, "Build")
                cancel = dialog.locator(".jp-Dialog-button.jp-mod-reject")
                (cancel if cancel.count() else dialog.locator(".jp-Dialog-button")
                 ).first.click(timeout=5_000)
        except Error:
            pass

    page.add_locator_handler(page.locator(".jp-Dialog"), answer)
    return said


def _run_in_lab(page: Any, origin: str, token: str, notebook: str) -> None:
    """Open ``notebook`` in a workspace of its own (?reset: nothing a student left open) and run
    it from Lab's Run menu, as a student does, once its kernel has started."""
    from playwright.sync_api import expect

    page.goto(f"{origin}/lab/workspaces/{Path(notebook).stem}/tree/{notebook}?reset&token={token}")
    # Not the toolbar's execution indicator: it says "idle" before any kernel exists, and a Run
    # All made then races Lab's own start of the kernel (on a busy machine Lab then asks which
    # kernel to start, or runs nothing). The status bar says when the kernel is up.
    expect(page.locator(".jp-StatusBar-TextItem", has_text=f"{_KERNEL} | Idle")
           ).to_be_visible(timeout=browser.HANG_MS)
    page.click(".lm-MenuBar-itemLabel:text-is('Run')")
    page.click(".lm-Menu-itemLabel:text-is('Run All Cells')")
    expect(page.locator(f"{_PANEL} .jp-CodeCell .jp-InputPrompt").first
           ).not_to_have_text("[ ]:", timeout=browser.HANG_MS)


@pytest.mark.browser
@pytest.mark.skipif(browser.missing(voila=False) is not None,
                    reason=str(browser.missing(voila=False)))
def test_in_jupyterlab_keys_pressed_in_an_explorer_stay_in_it(lab_env: tuple[Path, str],
                                                              tmp_path: Path) -> None:
    """Two explorers in the student's own JupyterLab (``make lab``), each run from Lab's Run menu:
    an arrow on the jump explorer's slider moves the slider, and letters on the board editor's
    board and an arrow on its list of boards reach the editor, not Lab's notebook shortcuts (which
    would add cells and move the focus to one)."""
    env_dir, _ = lab_env
    # the notebooks are the repository's: Lab must not save them back
    settings = tmp_path / "config" / "lab" / "user-settings" / "@jupyterlab" / "docmanager-extension"
    settings.mkdir(parents=True)
    (settings / "plugin.jupyterlab-settings").write_text('{"autosave": false}')
    with _make_lab(env_dir, tmp_path) as (_, origin, token, _), browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1300, "height": 1000})
        page.set_default_timeout(browser.HANG_MS)
        dialogs = _answer_lab_dialogs(page)
        try:
            _keys_stay_in_explorers(page, origin, token)
        except Exception as error:
            error.add_note(f"JupyterLab's dialogs: {dialogs}")
            raise
        # Lab's questions on a busy machine are a student's to answer; anything else is a fault
        assert not [said for said in dialogs if not said.startswith(_BUSY_LAB_ASKS)], dialogs


def _keys_stay_in_explorers(page: Any, origin: str, token: str) -> None:
    from playwright.sync_api import expect

    _run_in_lab(page, origin, token, "tests/notebooks/jump_explorer_demo.ipynb")
    slider = page.locator(".chutes-jump-to input[type=range]")
    expect(slider).to_have_count(1, timeout=browser.HANG_MS)
    cells = page.evaluate(_CELLS)
    value = int(slider.input_value())
    slider.focus()
    slider.press("ArrowRight")
    expect(slider).to_be_focused()
    expect(slider).to_have_value(str(value + 1))
    assert page.evaluate(_CELLS) == cells, "a key on the slider ran a notebook shortcut"

    _run_in_lab(page, origin, token, "tests/notebooks/board_editor_demo.ipynb")
    board = page.locator("svg.chutes-editor-board")
    expect(board).to_have_count(1, timeout=browser.HANG_MS)
    expect(page.locator(".chutes-editor-readout")).not_to_have_text("", timeout=browser.HANG_MS)
    cells = page.evaluate(_CELLS)
    board.focus()
    for key in ("a", "b"):
        board.press(key)
    expect(board).to_be_focused()
    boards = page.locator(".chutes-editor select").first
    first = boards.input_value()
    boards.focus()
    boards.press("ArrowDown")
    expect(boards).to_be_focused()
    expect(boards).not_to_have_value(first)
    assert page.evaluate(_CELLS) == cells, "a key in the editor ran a notebook shortcut"
