"""The library's layers, as CONTRIBUTING.md maps them: each imports only from the layers below it.

import-linter checks the contracts in pyproject.toml ([tool.importlinter]): course tooling >
explorers > pictures > mathematics > the game, with the game and the mathematics importing no
drawing or widget library, and the pictures no widget library. A second test breaks a copy of the
library on purpose, so that the check is seen to fail, and a third makes the library import the
teacher's package (chutes_teacher), which it must never do.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    command = [str(Path(sys.executable).parent / "lint-imports"), "--no-cache",
               "--config", str(root / "pyproject.toml")]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=300,
                          env={"PATH": str(Path(sys.executable).parent), "PYTHONPATH": str(root)},
                          check=False)


def test_every_layer_imports_only_from_the_layers_below() -> None:
    done = _lint_imports(ROOT)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "BROKEN" not in done.stdout


def test_a_mathematics_module_that_draws_breaks_the_contract(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "chutes_edu", tmp_path / "chutes_edu",
                    ignore=shutil.ignore_patterns("__pycache__", "js"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    markov = tmp_path / "chutes_edu" / "markov.py"
    markov.write_text(markov.read_text() + "\nfrom .plots import draw_board  # noqa\n")
    done = _lint_imports(tmp_path)
    assert done.returncode != 0
    assert "chutes_edu.markov is not allowed to import chutes_edu.plots" in done.stdout
    assert "chutes_edu.markov is not allowed to import matplotlib" in done.stdout


def test_the_library_importing_the_teachers_package_breaks_the_contract(tmp_path: Path) -> None:
    for package in ("chutes_edu", "chutes_teacher"):
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "js"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    course = tmp_path / "chutes_edu" / "course.py"
    course.write_text(course.read_text() + "\nimport chutes_teacher.autograde  # noqa\n")
    done = _lint_imports(tmp_path)
    assert done.returncode != 0
    assert "chutes_edu is not allowed to import chutes_teacher" in done.stdout, done.stdout
    assert "chutes_edu.course -> chutes_teacher.autograde" in done.stdout


def test_the_teachers_old_import_paths_work_for_one_release_with_a_warning() -> None:
    """gradebook and hub moved to chutes_teacher (the teacher's package); chutes_edu.gradebook and
    chutes_edu.hub still give the same objects, and say where they went."""
    import importlib

    import pytest

    for name in ("gradebook", "hub"):
        sys.modules.pop(f"chutes_edu.{name}", None)
        with pytest.warns(DeprecationWarning, match=f"chutes_teacher.{name}"):
            old = importlib.import_module(f"chutes_edu.{name}")
        new = importlib.import_module(f"chutes_teacher.{name}")
        assert new.__all__ and all(getattr(old, each) is getattr(new, each) for each in new.__all__)


def test_pictures_and_explorers_are_imported_at_their_first_use() -> None:
    """`import chutes_edu` leaves out matplotlib and the widget stack (chutes_edu/__init__.py's
    __getattr__) until a picture or an explorer is asked for, which is then the layer's own
    object; every public name resolves, and an unknown one is an AttributeError."""
    script = """
import sys, chutes_edu
heavy = ("matplotlib", "anywidget", "ipywidgets", "chutes_edu.plots", "chutes_edu.widgets")
print(sorted(m for m in heavy if m in sys.modules))
from chutes_edu import draw_board
print("matplotlib" in sys.modules, "anywidget" in sys.modules)
from chutes_edu import *
from chutes_edu import plots, widgets
assert draw_board is plots.draw_board and BoardExplorer is widgets.BoardExplorer
assert all(getattr(chutes_edu, name) is not None for name in chutes_edu.__all__)
assert set(chutes_edu.__all__) <= set(dir(chutes_edu))
try:
    chutes_edu.draw_boards
except AttributeError as error:
    print(error)
"""
    assert _fresh_python(script) == [
        "[]", "True False", "module 'chutes_edu' has no attribute 'draw_boards'"]


def test_an_explorer_brings_no_matplotlib() -> None:
    """Explorers draw in the page: a kernel that shows one (most exercise sets do) imports the
    widget stack and the mathematics, and matplotlib only when a picture is asked for."""
    script = """
import sys
from chutes_edu import BoardExplorer, JumpExplorer
print("anywidget" in sys.modules, "matplotlib" in sys.modules)
from chutes_edu import draw_board
print("matplotlib" in sys.modules)
"""
    assert _fresh_python(script) == ["True False", "True"]


def test_sympy_and_scipy_are_imported_by_the_first_function_that_needs_them() -> None:
    """`import chutes_edu` is quick (each kernel, nbgrader command and explorer pays for it): sympy
    and scipy, most of its import time, come when a function first needs them (chutes_edu/_lazy.py),
    and then work as before; nothing is a sympy matrix before sympy is imported. Loading every
    answer check (as nbgrader_config.py does) imports neither."""
    script = """
import sys
heavy = ("sympy", "scipy")
import chutes_edu
from chutes_edu.checks import exercise_ids
assert len(exercise_ids()) > 50            # what nbgrader_config.py asks of every nbgrader command
print(sorted(m for m in heavy if m in sys.modules))
board = chutes_edu.MILTON_BRADLEY_1943
print(round(float(chutes_edu.expected_turns(board)[0]), 4))
print(chutes_edu.absorption_probabilities([[1, 0], [0.5, 0.5]], absorbing=[0])[1, 0])
print(sorted(m for m in heavy if m in sys.modules))
print(chutes_edu.expected_turns(chutes_edu.Board({1: 3}, size=10, die=4), exact=True)[0])
print(sorted(m for m in heavy if m in sys.modules))
chutes_edu.Board({}, size=400)                 # big boards are checked with scipy's csgraph
print("scipy" in sys.modules, round(float(chutes_edu.expected_turns(chutes_edu.Board({}, size=400))[0]), 4))
"""
    assert _fresh_python(script) == ["[]", "39.2251", "1.0", "[]", "1685/256", "['sympy']",
                                     "True 119.0476"]


def _fresh_python(script: str) -> list[str]:
    """What ``script`` prints, line by line, run in a new interpreter (nothing imported yet)."""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT.parent, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()
