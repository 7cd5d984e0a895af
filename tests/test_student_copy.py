"""The student copy (tools/student_copy.py, `make student`): a branch without solutions or answer
checks, built reproducibly with git plumbing; its self-checks are no oracle; its notebooks run.

Every build runs in a clone of this repository's last commit (commit your work before running
these tests): the clone's ``main`` is that commit; the tool that builds is this checkout's
(``--repo`` the clone). Publishing the copy to a repository of its own, and what the students'
image then holds, is tests/test_student_image.py.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from chutes_edu.checks import check, has_answer_checks

ROOT = Path(__file__).resolve().parent.parent
TOOL = Path("tools") / "student_copy.py"
_SOLUTION_LINE = re.compile(r"^[ \t]*### BEGIN SOLUTION", re.MULTILINE)
_HIDDEN = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS\n(.*?)^[ \t]*### END HIDDEN TESTS",
                     re.MULTILINE | re.DOTALL)
ANSWERED = ("✔ {} answered: your teacher grades it after you submit (this copy of the course has "
            "no answer checks)")


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout.strip()


def _clone(target: Path) -> Path:
    """A clone of this repository's HEAD in which ``main`` is that commit (and nothing else is)."""
    subprocess.run(["git", "clone", "-q", str(ROOT), str(target)], check=True)
    _git(target, "checkout", "-q", "-B", "main")
    return target


def _tool(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """This checkout's tools/student_copy.py, run on ``repo``."""
    return subprocess.run([sys.executable, str(ROOT / TOOL), "--repo", str(repo), *args],
                          cwd=repo, capture_output=True, text=True, check=False)


def _build(repo: Path) -> str:
    done = _tool(repo)
    assert done.returncode == 0, done.stdout + done.stderr
    return _git(repo, "rev-parse", "student")


def _checkout(repo: Path, target: Path) -> Path:
    """The student branch's files in ``target`` (git archive: no index, no branch switch)."""
    data = subprocess.run(["git", "archive", "student"], cwd=repo, capture_output=True,
                          check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(target, filter="data")
    return target


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clone with the student branch built from its main."""
    repo = _clone(tmp_path_factory.mktemp("student") / "repo")
    _build(repo)
    return repo


@pytest.fixture(scope="module")
def student_dir(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _checkout(built, tmp_path_factory.mktemp("student-files"))


def test_the_student_tree_holds_no_answers(built: Path) -> None:
    paths = _git(built, "ls-tree", "-r", "--name-only", "student").splitlines()
    assert "start_here.ipynb" in paths and "chutes_edu/checks/__init__.py" in paths
    assert not [p for p in paths if p.startswith("solutions/")]
    assert not [p for p in paths if re.match(r"chutes_edu/checks/lesson.*\.py$", p)]
    for left_out in ("tests/", "book/", "tools/", "hub/", "chutes_teacher/"):
        assert not [p for p in paths if p.startswith(left_out)], left_out
    assert "nbgrader_config.py" not in paths and "TEACHING.md" not in paths
    for path in paths:
        text = _git(built, "show", f"student:{path}")
        if path.endswith(".ipynb"):
            for cell in json.loads(text)["cells"]:
                source = "".join(cell["source"])
                assert "BEGIN SOLUTION" not in source and "HIDDEN TESTS" not in source, path
                assert "solutions/" not in source, (path, source[:200])
        else:
            assert not _SOLUTION_LINE.search(text), path
            # the one hidden-tests block outside a notebook is grading.py's example: a record
            for block in _HIDDEN.findall(text):
                assert all(line.strip().startswith(("from chutes_edu.grading import record",
                                                    "record("))
                           for line in block.strip().splitlines()), (path, block)
    # exercises/ is main's, to the byte (the same tree object)
    assert _git(built, "rev-parse", "student:exercises") == _git(built, "rev-parse",
                                                                 "main:exercises")
    assert _git(built, "rev-parse", "student:lessons") == _git(built, "rev-parse", "main:lessons")
    assert "solutions/" not in _git(built, "show", "student:README.md")


def test_the_build_is_reproducible_and_its_history_holds_no_commit_of_main(
        built: Path, tmp_path: Path) -> None:
    first = _git(built, "rev-parse", "student")
    main = _git(built, "rev-parse", "main")
    assert _build(_clone(tmp_path / "again")) == first            # another clone, the same hash
    again = _tool(built)                                          # a second build: nothing to do
    assert again.returncode == 0 and "already up to date" in again.stdout
    assert _git(built, "rev-parse", "student") == first
    assert _git(built, "show", "-s", "--format=%s", first) == f"Student copy of {main}"
    assert _git(built, "show", "-s", "--format=%an %ae %ad", first) == _git(
        built, "show", "-s", "--format=%an %ae %ad", main)
    assert not set(_git(built, "rev-list", "student").split()) & set(
        _git(built, "rev-list", "main").split())
    # the working tree and the current branch were not touched
    assert _git(built, "symbolic-ref", "HEAD") == "refs/heads/main"
    assert _git(built, "status", "--porcelain") == ""


def test_check_finds_drift_after_main_changes_exercises(tmp_path: Path) -> None:
    repo = _clone(tmp_path / "repo")
    missing = _tool(repo, "--check")
    assert missing.returncode == 1 and "there is no branch student" in missing.stderr
    first = _build(repo)
    assert _tool(repo, "--check").returncode == 0

    notebook = next((repo / "exercises").glob("01_*.ipynb"))
    nb = nbformat.read(notebook, as_version=4)
    nb.cells[0].source += "\n\nOne more line."
    nbformat.write(nb, notebook)
    _git(repo, "-c", "user.name=T", "-c", "user.email=t@example.edu", "commit", "-qam",
         "exercise 1: one more line")
    drift = _tool(repo, "--check")
    assert drift.returncode == 1
    assert "branch student is out of date" in drift.stderr
    assert f"M\texercises/{notebook.name}" in drift.stderr and "make student" in drift.stderr

    second = _build(repo)                     # the update continues the student branch's history
    assert second != first and _git(repo, "rev-parse", f"{second}^") == first
    assert _tool(repo, "--check").returncode == 0


def test_the_student_checks_are_no_oracle(student_dir: Path) -> None:
    """In the student copy, check() says only whether an answer is given; graded() never raises."""
    script = """
import json, os
import chutes_edu
from chutes_edu.checks import check, exercise_ids, graded
def stub(p, n_trials, seed):
    '''Simulate.'''
def written(p, n_trials, seed):
    return [1] * n_trials
os.environ["NBGRADER_EXECUTION"] = "validate"
print(json.dumps({
    "file": chutes_edu.__file__,
    "ids": exercise_ids(),
    "letters": [check("1.6", a).message for a in ("a", "b", "(c)", "d", "zz", 3, 2.5, [1])],
    "ok": [bool(check("1.6", a)) for a in ("a", "b", "c")],
    "none": check("1.6", None).message,
    "stub": check("1.3", stub).message,
    "function": check("1.3", written).message,
    "graded": [graded("1.6", a) for a in (None, "a", "b", stub)],
}))
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=student_dir / "exercises",
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(student_dir)})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert Path(out["file"]).is_relative_to(student_dir)
    assert out["ids"] == []
    assert set(out["letters"]) == {ANSWERED.format("1.6")}      # the same words for any answer
    assert out["ok"] == [False, False, False]
    assert out["none"] == "✘ 1.6 not yet: no answer given"
    assert out["stub"] == "✘ 1.3 not yet: no answer given"
    assert out["function"] == ANSWERED.format("1.3")
    assert out["graded"] == [None] * 4


def _stub(p: float, n_trials: int, seed: int) -> None:
    """An exercise's stub: a docstring, and # YOUR CODE HERE."""
    # YOUR CODE HERE


def _pass(p: float) -> None:
    pass


def _five(p: float) -> int:
    return 5


def _text(p: float) -> str:
    """A docstring, and a body."""
    return "x"


@pytest.mark.parametrize(("answer", "empty"), [
    (None, True), (..., True), (_stub, True), (_pass, True), (lambda p: None, True),
    (_five, False), (_text, False), (lambda p: 5, False), (lambda p: "x", False),
    (lambda p: p, False), (0, False), ("", False), ([], False)])
def test_no_answer_is_none_or_a_stub(answer: object, empty: bool) -> None:
    """What the student copy calls "no answer given": None, ..., or a function with no body."""
    from chutes_edu.checks import _is_empty

    assert _is_empty(answer) is empty


def test_main_keeps_its_full_self_checks() -> None:
    assert has_answer_checks("1.6")
    assert check("1.6", "b") and not check("1.6", "c")
    assert check("1.6", "b").checked


def test_an_exercise_set_runs_in_the_student_copy(student_dir: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    notebook = next((student_dir / "exercises").glob("01_*.ipynb"))
    nb = nbformat.read(notebook, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("import chutes_edu\nprint(chutes_edu.__file__)"))
    monkeypatch.setenv("PYTHONPATH", str(student_dir))
    NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(notebook.parent)}}).execute()
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", f"{out.get('ename')}: {out.get('evalue')}"
    assert nb.cells[-1].outputs[0]["text"].startswith(str(student_dir))
    checks = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith("check(")]
    assert checks
    for cell in checks:
        assert "not yet: no answer given" in cell.outputs[0]["data"]["text/plain"]


def test_nbgrader_config_refuses_to_grade_with_the_student_copy() -> None:
    """A grading Python whose library has no answer checks would give every answer 0: it stops."""
    pytest.importorskip("nbgrader")

    def load(setup: str) -> subprocess.CompletedProcess[str]:
        code = (f"{setup}\nfrom traitlets.config import Config\n"
                f"exec(open({str(ROOT / 'nbgrader_config.py')!r}).read(), "
                "{'get_config': Config})\nprint('loaded')")
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=120, check=False)

    # the student copy: no lesson modules to load
    done = load("import chutes_edu.checks as c; c._LOADED = True")
    assert done.returncode != 0 and "loaded" not in done.stdout
    assert "it is the student copy of the course" in done.stderr, done.stderr
    assert "loaded" in load("").stdout


def test_the_student_branch_is_up_to_date() -> None:
    """CI's drift check: a local branch `student` must be what `make student` would build now."""
    if subprocess.run(["git", "rev-parse", "-q", "--verify", "refs/heads/student"], cwd=ROOT,
                      capture_output=True, check=False).returncode != 0:
        pytest.skip("no local branch student (make student builds it)")
    done = _tool(ROOT, "--check")
    assert done.returncode == 0, done.stderr


def _nbgrader_lab_bundle(prefix: Path) -> Path:
    """A copy of the installed nbgrader Lab extension's bundles under ``prefix``."""
    import shutil

    static = Path("share", "jupyter", "labextensions", "@jupyter", "nbgrader", "static")
    if not (Path(sys.prefix) / static).is_dir():
        pytest.skip("nbgrader's Lab extension is not installed here")
    shutil.copytree(Path(sys.prefix) / static, prefix / static)
    return prefix / static


def _bundles(static: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(static.glob("*.js"))}


def test_validate_on_the_student_copy_says_it_checked_that_the_notebook_runs(
        student_dir: Path, tmp_path: Path) -> None:
    """The student copy's own binder/student_settings.py (what postBuild runs) on a copy of the
    installed nbgrader Lab extension: the Validate dialog no longer says "passes all the tests"
    (nothing checks answers there); main's says what nbgrader says (its self-checks do check)."""
    sys.path.insert(0, str(ROOT / "binder"))
    import student_settings as settings

    static = _nbgrader_lab_bundle(tmp_path / "student-env")
    before = _bundles(static)
    assert sum(settings.NBGRADER_SUCCESS in text for text in before.values()) == 1, (
        "nbgrader's Validate message moved: binder/student_settings.py needs its new place")
    for _ in range(2):                                       # a second run changes nothing
        done = subprocess.run([sys.executable, "binder/student_settings.py",
                               str(tmp_path / "student-env")], cwd=student_dir,
                              capture_output=True, text=True, check=True)
        assert "Validate's message" in done.stdout, done.stdout + done.stderr
        after = _bundles(static)
        assert not any(settings.NBGRADER_SUCCESS in text for text in after.values())
        assert {name: text.replace(settings.STUDENT_COPY_SUCCESS, settings.NBGRADER_SUCCESS)
                for name, text in after.items()} == before       # nothing else touched
    main_static = _nbgrader_lab_bundle(tmp_path / "main-env")
    subprocess.run([sys.executable, "binder/student_settings.py", str(tmp_path / "main-env")],
                   cwd=ROOT, capture_output=True, text=True, check=True)
    assert _bundles(main_static) == before
    # a bundle without nbgrader's words is reported and left alone
    for bundle in main_static.glob("*.js"):
        bundle.write_text(bundle.read_text(encoding="utf-8").replace(
            settings.NBGRADER_SUCCESS, "Fine."), encoding="utf-8")
    assert settings.validate_message(tmp_path / "main-env", False).startswith("warning:")


def test_the_student_copy_installs_without_the_teachers_package(student_dir: Path,
                                                                tmp_path: Path) -> None:
    """Binder and a hub image install the student copy (binder/postBuild: pip install -e .): its
    pyproject.toml must not name chutes_teacher, which the copy leaves out (setuptools refuses a
    missing package folder), nor keep the old import paths that would need it."""
    assert not (student_dir / "chutes_teacher").exists()
    assert not (student_dir / "chutes_edu" / "gradebook.py").exists()
    assert not (student_dir / "chutes_edu" / "hub.py").exists()
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "-q", "-w", str(tmp_path), str(student_dir)], capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    wheel = next(tmp_path.glob("chutes_edu-*.whl"))
    with zipfile.ZipFile(wheel) as zipped:
        names = zipped.namelist()
    assert "chutes_edu/widgets/static/site.js" in names
    assert not [n for n in names if n.startswith("chutes_teacher/")]
