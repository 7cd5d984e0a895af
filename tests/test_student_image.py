"""The students' hub image holds nothing of main (issue 47, part 7).

repo2docker builds the students' image from a repository: it clones the whole repository (``git
clone --no-checkout``: every branch and tag), checks out the ref (``git reset --hard``) and keeps
the ``.git`` in the image, where every student can read it. Built from the course's own
repository, even with ``--ref student``, that ``.git`` holds every commit of ``main``: the worked
solutions and the answer checks. The documented way (TEACHING.md, "For a graded class: the
student copy"; hub/README.md, section 1) publishes the student copy with ``tools/student_copy.py
--publish`` as the ``main`` of a repository of its own, and builds the image and the students'
link from that one.

These tests take the documented steps in a throwaway clone of this repository (never this
checkout's refs), clone what repo2docker would clone, and walk every object in that clone's
``.git``, reachable or not, looking for a solution notebook or an answer-check module by path, by
content (equal to any version in ``main``'s history) and by their marks; the old way (the branch
``student`` pushed to the course's repository) is walked the same way and leaks, so the walk can
fail.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import nbformat
import pytest

from tests.test_student_copy import _build, _clone, _git, _tool

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow          # git builds and walks of whole histories: about 30 s
_SOLUTIONS = re.compile(r"^solutions(/|$)")
_ANSWER_MODULE = re.compile(r"^chutes_edu/checks/lesson[^/]*\.py$")
_MARKS = (b"BEGIN SOLUTION", b'"""Self-checks for exercise set')
"""What every solution notebook and every answer module of main's history holds."""


def _bare(path: Path) -> str:
    """A new empty repository (as a git host makes one), as a ``file://`` URL: git then talks
    to it as to a server, sending only what a clone or a push asks for."""
    _git(path.parent, "init", "-q", "--bare", "-b", "main", str(path))
    return path.as_uri()


def _repo2docker_clone(url: str, ref: str, target: Path) -> Path:
    """What repo2docker's git content provider does with ``--ref``: a full clone, no checkout,
    then ``git reset --hard`` to the ref (a commit, or a branch of the remote), then submodules."""
    _git(target.parent, "clone", "-q", "--no-checkout", url, str(target))
    commit = next(filter(None, (subprocess.run(
        ["git", "rev-parse", "-q", "--verify", f"{name}^{{commit}}"], cwd=target,
        capture_output=True, text=True, check=False).stdout.strip()
        for name in (ref, f"origin/{ref}"))))
    _git(target, "reset", "-q", "--hard", commit)
    _git(target, "submodule", "update", "--init", "--recursive")
    return target


def _answers_of_main(course: Path) -> tuple[dict[str, str], set[str]]:
    """Every blob that was ever a solution or an answer module on main, and main's commits."""
    raw = _git(course, "log", "--format=", "--raw", "--no-abbrev", "--no-renames", "-m", "main",
               "--", "solutions", "chutes_edu/checks")
    blobs = {}
    for line in raw.splitlines():
        meta, _, path = line.partition("\t")
        if _SOLUTIONS.match(path) or _ANSWER_MODULE.match(path):
            blobs.update({sha: path for sha in meta.split()[2:4] if set(sha) != {"0"}})
    return blobs, set(_git(course, "rev-list", "main").split())


def _leaks(clone: Path, course: Path) -> list[str]:
    """Every object in ``clone``'s ``.git`` that holds something of main's answers."""
    blobs, commits = _answers_of_main(course)
    assert len({p for p in blobs.values() if p.startswith("solutions/")}) >= 12
    assert len({p for p in blobs.values() if p.startswith("chutes_edu/")}) >= 12
    found = []
    listed = _git(clone, "cat-file", "--batch-all-objects",
                  "--batch-check=%(objectname) %(objecttype)").splitlines()
    objects = dict(line.split() for line in listed)
    counts = dict(line.split(": ") for line in _git(clone, "count-objects", "-v").splitlines())
    # the walk saw every object the store holds, loose or packed, reachable or not
    assert int(counts["count"]) + int(counts["in-pack"]) == len(objects), counts
    assert counts["garbage"] == "0", counts
    found += [f"commit of main {sha}" for sha, kind in objects.items()
              if kind == "commit" and sha in commits]
    found += [f"blob {sha}: {blobs[sha]} of main" for sha in objects if sha in blobs]
    wanted = "".join(f"{sha}\n" for sha, kind in objects.items() if kind == "blob")
    contents = subprocess.run(["git", "cat-file", "--batch"], cwd=clone, input=wanted.encode(),
                              capture_output=True, check=True).stdout
    at = 0
    while at < len(contents):
        end = contents.index(b"\n", at)
        sha, _, size = contents[at:end].decode().split()
        at = end + 1 + int(size) + 1
        found += [f"blob {sha} holds {mark.decode()!r}" for mark in _MARKS
                  if contents.find(mark, end + 1, at - 1) >= 0]
    for line in _git(clone, "rev-list", "--objects", "--all").splitlines():
        sha, _, path = line.partition(" ")
        if _SOLUTIONS.match(path) or _ANSWER_MODULE.match(path):
            found.append(f"{path} ({sha}) reachable")
    if _git(clone, "rev-parse", "--is-bare-repository") == "false":
        found += [f"{p} in the working tree" for p in _git(clone, "ls-files").splitlines()
                  if _SOLUTIONS.match(p) or _ANSWER_MODULE.match(p)]
    return found


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The teacher's repository: a throwaway clone of this one, its main this HEAD."""
    return _clone(tmp_path_factory.mktemp("image") / "course")


def test_the_published_student_image_holds_nothing_of_main(course: Path, tmp_path: Path) -> None:
    """The documented way: `tools/student_copy.py --publish <student repository>`, then
    `repo2docker --ref <commit> <student repository>`."""
    url = _bare(tmp_path / "chutes-course-student.git")
    done = _tool(course, "--publish", url)
    assert done.returncode == 0, done.stdout + done.stderr
    published = _git(tmp_path / "chutes-course-student.git", "rev-parse", "main")
    assert published == _git(course, "rev-parse", "student")
    image = _repo2docker_clone(url, published, tmp_path / "srv-chutes-course")
    assert (image / "exercises").is_dir() and (image / "chutes_edu" / "checks").is_dir()
    assert not (image / "solutions").exists()
    assert _leaks(image, course) == []
    # the repository the students' link and image come from holds the student history only
    assert _git(tmp_path / "chutes-course-student.git", "for-each-ref",
                "--format=%(refname)") == "refs/heads/main"
    assert _leaks(tmp_path / "chutes-course-student.git", course) == []


def test_the_old_way_puts_main_in_the_image(course: Path, tmp_path: Path) -> None:
    """Today's way until now: `make student`, `git push origin student`, and `repo2docker --ref
    student <the course's repository>`. The walk above finds main's answers in that image."""
    origin = _bare(tmp_path / "course.git")
    _git(course, "push", "-q", origin, "main")
    _build(course)
    _git(course, "push", "-q", origin, "student")
    image = _repo2docker_clone(origin, "student", tmp_path / "srv-chutes-course")
    assert not (image / "solutions").exists()          # the checkout alone looks clean
    found = "\n".join(_leaks(image, course))
    assert "commit of main" in found
    assert "solutions/01_solutions_waiting_for_heads.ipynb" in found
    assert "chutes_edu/checks/lesson01.py" in found
    assert "holds 'BEGIN SOLUTION'" in found and "Self-checks for exercise set" in found


def test_a_rebuild_continues_the_published_history(course: Path, tmp_path: Path) -> None:
    """A publish from a fresh clone (no local student branch) after main changed: the next
    commit of the published history (nbgitpuller merges it into the students' folders), pushed
    without force; a student's clone pulls it as a fast-forward."""
    url = _bare(tmp_path / "student.git")
    assert _tool(course, "--publish", url).returncode == 0
    first = _git(tmp_path / "student.git", "rev-parse", "main")
    folder = tmp_path / "chutes-course"
    _git(tmp_path, "clone", "-q", "--depth", "1", "-b", "main", url, str(folder))

    again = _clone(tmp_path / "elsewhere")
    notebook = next((again / "exercises").glob("01_*.ipynb"))
    nb = nbformat.read(notebook, as_version=4)
    nb.cells[0].source += "\n\nOne more line."
    nbformat.write(nb, notebook)
    _git(again, "-c", "user.name=T", "-c", "user.email=t@example.edu", "commit", "-qam", "more")
    done = _tool(again, "--publish", url)
    assert done.returncode == 0, done.stdout + done.stderr
    second = _git(tmp_path / "student.git", "rev-parse", "main")
    assert second != first and _git(tmp_path / "student.git", "rev-parse", f"{second}^") == first
    _git(folder, "pull", "-q", "--ff-only", "origin", "main")
    assert "One more line." in (folder / "exercises" / notebook.name).read_text(encoding="utf-8")
    assert _leaks(_repo2docker_clone(url, second, tmp_path / "image"), again) == []


def test_publish_refuses_a_repository_or_a_branch_that_would_leak(course: Path,
                                                                  tmp_path: Path) -> None:
    """The course's own repository (main there, or any other branch or tag) is refused, and so
    is a student branch that reaches a commit of main (a merge by hand); nothing is pushed."""
    with_main = _bare(tmp_path / "course.git")
    _git(course, "push", "-q", with_main, "main")
    done = _tool(course, "--publish", with_main)
    assert done.returncode == 1 and "course's own history" in done.stderr, done.stderr
    _git(course, "tag", "-f", "v1", "main")
    _git(course, "push", "-q", with_main, "v1:refs/tags/v1")
    done = _tool(course, "--publish", with_main)
    assert done.returncode == 1 and "refs/tags/v1 besides main" in done.stderr, done.stderr
    assert _git(tmp_path / "course.git", "rev-parse", "main") == _git(course, "rev-parse", "main")

    empty = _bare(tmp_path / "student.git")
    _git(course, "branch", "-f", "merged", "main")
    done = _tool(course, "--branch", "merged", "--publish", empty)
    assert done.returncode == 1 and "reaches the course's answers" in done.stderr, done.stderr
    assert "solutions/" in done.stderr
    assert _git(tmp_path / "student.git", "for-each-ref") == ""


def _section(path: str, start: str, end: str) -> str:
    """The part of ``path`` from ``start`` to the next ``end`` (or to the end of the file)."""
    text = (ROOT / path).read_text(encoding="utf-8")
    at = text.index(start)
    stop = text.find(end, at + len(start))
    return text[at:stop if stop >= 0 else len(text)]


def test_the_docs_build_the_image_and_the_link_from_the_student_repository() -> None:
    """The steps the tests above take are the documented ones; the old steps are gone."""
    teaching = _section("TEACHING.md", "### For a graded class: the student copy", "\n## ")
    hub = _section("hub/README.md", "## 1. One environment", "## 2. ")
    config = (ROOT / "hub" / "config.yaml").read_text(encoding="utf-8")
    commands = "".join(re.findall(r"^```bash\n(.*?)^```", teaching + hub, re.M | re.S))
    assert "python3 tools/student_copy.py --publish" in commands
    assert "--ref <commit of the student repository>" in commands
    assert "https://github.com/<you>/<the student repository>" in commands
    assert "--publish" in hub and "student repository" in hub
    for text in (commands, config):
        assert "--ref student" not in text and "git push origin student" not in text
    assert "<the student repository's URL>" in config
