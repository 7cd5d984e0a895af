"""Formgrader in the teacher's own JupyterLab (issue 48.1).

``make teacher`` builds ``.venv-teacher`` as the students' environment (binder/postBuild, whose
``binder/student_settings.py`` turns nbgrader's teacher views off) and then turns them on again
(``python -m chutes_teacher.nbgrader_setup``: formgrader, the course list and the course's guard
over formgrader, their Lab plugins unlocked). A teacher following TEACHING.md found no Formgrader
in the Nbgrader menu and ``GET /formgrader`` 404.

Building a real ``.venv-teacher`` takes minutes of pip; these tests take its two steps instead:

- the Makefile's ``$(TEACHER_STAMP)`` recipe runs exactly binder/postBuild (which runs the
  students' settings) and then ``chutes_teacher.nbgrader_setup`` in that environment
  (``make -n``, no install);
- the same two steps applied to a throwaway prefix, and JupyterLab from ``.venv`` started with
  that prefix's ``etc/jupyter`` on ``JUPYTER_CONFIG_PATH`` in a course folder made by ``python
  -m chutes_teacher.gradebook setup``: in Chromium, Nbgrader > Formgrader opens formgrader and
  its assignments page lists the course's sets.

The students' environments keep formgrader off: tests/test_binder.py checks a real ``make lab``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

from tests import browser
from tests.support import NBGRADER_BIN, ROOT
from tests.test_binder import _answer_lab_dialogs

SET = "01_exercises_waiting_for_heads"


def test_make_teacher_runs_the_students_settings_then_the_teachers(tmp_path: Path) -> None:
    venv = tmp_path / "teacher-venv"
    done = subprocess.run(["make", "--no-print-directory", "-n", f"{venv}/.installed",
                           f"TEACHER_VENV={venv}"], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    steps = [line.strip() for line in done.stdout.splitlines()]
    post = next(i for i, line in enumerate(steps) if line.endswith("bash binder/postBuild"))
    teacher = next(i for i, line in enumerate(steps)
                   if line.endswith(f"{venv}/bin/python -m chutes_teacher.nbgrader_setup"))
    assert post < teacher, steps
    assert f'PATH="{venv}/bin:' in steps[post]         # postBuild runs in that environment
    assert "python binder/student_settings.py" in (ROOT / "binder" / "postBuild").read_text()


def _settings(prefix: Path) -> Path:
    """The two steps of ``make teacher`` on ``prefix``: the students' settings, then the
    teacher's; its etc/jupyter."""
    for step in (["binder/student_settings.py"], ["-m", "chutes_teacher.nbgrader_setup"]):
        subprocess.run([sys.executable, *step, str(prefix)], cwd=ROOT, check=True,
                       capture_output=True, text=True)
    return prefix / "etc" / "jupyter"


def test_the_two_steps_leave_formgrader_on_and_unlocked(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "binder"))
    import student_settings

    etc = tmp_path / "prefix" / "etc" / "jupyter"
    subprocess.run([sys.executable, "binder/student_settings.py", str(tmp_path / "prefix")],
                   cwd=ROOT, check=True, capture_output=True)
    page = json.loads((etc / "labconfig" / "page_config.json").read_text())
    assert page["disabledExtensions"]["@jupyter/nbgrader:formgrader"] is True  # the students'
    _settings(tmp_path / "prefix")
    page = json.loads((etc / "labconfig" / "page_config.json").read_text())
    server = json.loads((etc / "jupyter_server_config.json").read_text())["ServerApp"]
    for plugin in student_settings.TEACHER_LAB_PLUGINS:
        assert page["disabledExtensions"][plugin] is False
        assert page["lockedExtensions"][plugin] is False
    for extension in student_settings.TEACHER_SERVER_EXTENSIONS:
        assert server["jpserver_extensions"][extension] is True
    # the students' own views stay
    for extension in student_settings.STUDENT_SERVER_EXTENSIONS:
        assert server["jpserver_extensions"][extension] is True


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as err:
        return int(err.code)
    except OSError:                  # not listening yet
        return 0


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(browser.missing(voila=False) is not None,
                    reason=str(browser.missing(voila=False)))
def test_formgrader_opens_from_the_nbgrader_menu_in_the_teachers_lab(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    etc = _settings(tmp_path / "prefix")
    course = tmp_path / "course"
    env = {**{k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")},
           "PATH": f"{NBGRADER_BIN}{os.pathsep}{os.environ['PATH']}",
           "JUPYTER_CONFIG_PATH": str(etc), "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
           "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"), "HOME": str(tmp_path)}
    subprocess.run([sys.executable, "-m", "chutes_teacher.gradebook", "setup", "--repo",
                    str(ROOT), "--course", str(course), "--no-generate"], env=env, check=True,
                   capture_output=True, timeout=600)
    port, token = browser.free_port(), uuid.uuid4().hex
    origin = f"http://127.0.0.1:{port}"
    log = tmp_path / "lab.log"
    with log.open("w") as out:
        lab = subprocess.Popen(
            [str(NBGRADER_BIN / "jupyter"), "lab", "--no-browser", "--allow-root",
             "--ip=127.0.0.1", f"--port={port}", f"--IdentityProvider.token={token}",
             f"--ServerApp.root_dir={course}", "--LanguageServerManager.autodetect=False"],
            cwd=course, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + browser.HANG_MS / 1000
        while _get(f"{origin}/api/status?token={token}") != 200:
            assert lab.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.5)
        assert _get(f"{origin}/formgrader?token={token}") == 200, log.read_text()[-3000:]
        with browser.chromium() as chromium:
            page = chromium.new_page(viewport={"width": 1300, "height": 900})
            page.set_default_timeout(browser.HANG_MS)
            dialogs = _answer_lab_dialogs(page)
            page.goto(f"{origin}/lab?reset&token={token}")
            page.click(".lm-MenuBar-itemLabel:text-is('Nbgrader')")
            menu = page.locator(".lm-Menu-itemLabel")
            expect(menu.filter(has_text=re.compile("^Formgrader$"))).to_have_count(1)
            menu.filter(has_text=re.compile("^Formgrader$")).click()
            frame = page.frame_locator("iframe[src*='formgrader']")
            expect(frame.locator("text=Manage Assignments").first).to_be_visible(
                timeout=browser.HANG_MS)
            expect(frame.locator(f"text={SET}").first).to_be_visible(timeout=browser.HANG_MS)
            assert not [d for d in dialogs if not d.startswith("Loading")], dialogs
    finally:
        os.killpg(lab.pid, signal.SIGTERM)
        try:
            lab.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(lab.pid, signal.SIGKILL)
            lab.wait()
