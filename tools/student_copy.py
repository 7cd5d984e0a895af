"""Build the student copy of the course, a ``student`` branch with no answers in it, and publish
it as a repository of its own.

Students get the course with an nbgitpuller link, which clones a repository into their home, and
run it in a hub image that repo2docker builds from a repository. ``main`` holds the worked
solutions (``solutions/``) and the modules that compute every expected answer
(``chutes_edu/checks/lessonNN.py``), so a graded class gets the ``student`` branch instead, built
from ``main`` by this script (``make student``), and published with ``--publish <repository>`` as
the ``main`` of a **repository of its own**. repo2docker clones the whole repository it is given
(every branch, with ``--ref``) and keeps its ``.git`` in the image, where every student can read
it: built from the course's own repository, even with ``--ref student``, the image would hold
every commit of ``main``. The student repository holds the student history and nothing else.

The student tree keeps what a student needs, taken from an allow-list of top-level entries
(:data:`KEEP`), so that a new folder on ``main`` stays out until someone decides it belongs in:

- ``lessons/``, ``exercises/`` (unchanged), ``binder/``, ``chutes_edu/`` without the lesson modules
  of ``chutes_edu/checks/``, ``Makefile`` (``make lab``), ``pyproject.toml``, ``LICENSE``,
  ``ACCESSIBILITY.md``, ``.gitignore``;
- ``start_here.ipynb`` without its column of links to the worked solutions, and saying what the
  self-checks do in this copy;
- ``README.md``: a short student README (:data:`STUDENT_README`) instead of the full one.

Left out, with the reason:

- ``solutions/``: the worked solutions, rubrics and hidden tests;
- ``chutes_edu/checks/lesson*.py``: they compute every expected answer. Without them the
  self-checks of the sets stop being an oracle (:func:`chutes_edu.checks.check` then says only
  whether an answer is given) and ``graded`` does nothing;
- ``tests/`` (they state answers, e.g. the right letter of a multiple-choice exercise), ``book/``
  (builds the website, with solution pages when asked), ``tools/`` (``make_exercises.py`` works
  from ``solutions/``), ``nbgrader_config.py``, ``chutes_teacher/`` (the grading tools),
  ``TEACHING.md``, ``CONTRIBUTING.md``, ``hub/``,
  ``benchmarks/``, ``conftest.py``, ``.ci/``, ``.pre-commit-config.yaml``: the developers' and
  teachers' material.

The build uses git plumbing only: the tree is written from the source commit's objects through a
temporary index (``GIT_INDEX_FILE``), committed with ``git commit-tree`` and the branch moved with
``git update-ref``; the working tree, the index and the current branch are never touched. It is
deterministic: the author, committer and dates of the student commit are those of the source
commit, and its message names the source commit, so the same source commit on top of the same
``student`` branch gives the same commit hash. A new student commit has the previous one as its
parent (and never a commit of ``main``: the branch's history holds no solutions), so that
nbgitpuller can merge the teacher's updates into a student's folder. When the tree would not change
no commit is made.

``--publish <repository>`` builds the branch, then pushes it to that repository as its ``main``
(``student:main``, never forced). It first fetches the repository's ``main`` and continues from it
(so a build in a fresh clone, without the local ``student`` branch, still makes the next commit of
the students' history rather than an unrelated one), and it refuses when that repository holds any
other branch or tag (a clone would fetch them too: the course's own repository is refused), when
its ``main`` is not the student history, or when the student history reaches an object of
``main``'s solutions or answer modules (:func:`leaks`: a commit of ``main``, a path under
``solutions/``, an answer module, or a blob equal to any version of those in ``main``'s history).

Usage: ``python tools/student_copy.py [--source main] [--branch student] [--check | --print-tree
| --publish REPOSITORY]``. ``--check`` writes no branch and exits 1, saying why, when the branch is
missing or holds another tree than a build would make now (the drift check). ``--print-tree``
lists the student tree and what is left out, and changes nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEEP = ("lessons", "exercises", "start_here.ipynb", "binder", "chutes_edu", "README.md", "LICENSE",
        "ACCESSIBILITY.md", "Makefile", "pyproject.toml", ".gitignore")
"""The top-level entries of ``main`` that the student tree keeps; everything else is left out."""
ANSWER_MODULE = re.compile(r"^chutes_edu/checks/lesson[^/]*\.py$")
"""The modules that compute the expected answers of a graded set."""
TEACHER_SHIMS = ("chutes_edu/gradebook.py", "chutes_edu/hub.py")
"""The old import paths of the teacher's modules (``chutes_teacher``, left out): left out too."""
_PACKAGES = re.compile(r"^packages = \[[^\]]*\]", re.MULTILINE)
_SOLUTION_LINE = re.compile(r"^[ \t]*(### BEGIN SOLUTION|<!-- BEGIN SOLUTION -->)", re.MULTILINE)
_NOTEBOOK_MARKERS = ("### BEGIN SOLUTION", "### BEGIN HIDDEN TESTS", "<!-- BEGIN SOLUTION")
_ZERO = "0" * 40
_SOLUTIONS = re.compile(r"^solutions(/|$)")
_PUBLISHED = "refs/heads/main"
_PUBLISH_HINT = "`python3 tools/student_copy.py --publish <the student repository>`"

STUDENT_README = """\
# Chutes and Ladders: a course in Markov chains

This is the **student copy** of the course: the lessons, the exercise sets and the small Python
library `chutes_edu` they run on. It teaches absorbing Markov chains, exact linear algebra,
simulation and optimal control through the board game *Chutes and Ladders*. Every number is
computed live, and every idea has a slider.

## Start here

- **On your university's JupyterHub**: follow the link your teacher gives you. It copies the
  course into a folder `chutes-course` in your home and opens the start page. Following it again
  later brings your teacher's updates and keeps your work.
- **On Binder** (nothing to install): open this repository on
  [mybinder.org](https://mybinder.org) with the path `lab/tree/start_here.ipynb`.
- **On a laptop** (Python 3.11 or newer and `make`): run `make lab` in this folder and open the
  `http://127.0.0.1:8888/lab/tree/start_here.ipynb?token=...` address it prints.

Open **`start_here.ipynb`**: it lists every lesson (`lessons/`) and its exercise set
(`exercises/`). Work through the lessons in order; each ends with a link to its exercises.

## Exercises and self-checks

Put each answer in the variable the exercise names (such as `answer_3_4`). Your teacher hands out,
collects and grades the exercise sets. In this copy of the course the `check(...)` cell after an
exercise says only whether you have given an answer:

- `✘ 3.4 not yet: no answer given` while the variable still holds `None`;
- `✔ 3.4 answered: your teacher grades it after you submit (this copy of the course has no answer
  checks)` for any answer, in the same words whatever the answer is.

It does not say whether the answer is right (the text of an exercise set says it does: that is
true only of the full course). The cell after each check is for your teacher's grading; running it
yourself does nothing visible.

## The library and accessibility

`help(chutes_edu)` and the docstring of every function say what it computes and how. The course
aims at WCAG 2.1 AA; `ACCESSIBILITY.md` says how to report a barrier.

## License

See `LICENSE`.
"""

_START_PAGE_EDITS = (
    # (what main's start page says, what the student copy says instead)
    ("2. Then open the lesson's exercise set. Each exercise ends with a `check(...)` cell that "
     "says *right*\n   or *not yet* with a hint; it never shows the answer.\n"
     "3. Stuck for good? The worked solutions are in `solutions/`. Try first: the struggle is "
     "where the\n   learning happens.\n",
     "2. Then open the lesson's exercise set. In this copy of the course the `check(...)` cell "
     "after each\n   exercise says only whether you have given an answer, not whether it is "
     "right: your teacher\n   grades the sets after you submit them.\n"
     "3. Stuck? Go back to the lesson the set names at its top, then ask your teacher.\n"),
    ("| # | lesson | exercise set | worked solutions |\n|---|---|---|---|\n",
     "| # | lesson | exercise set |\n|---|---|---|\n"),
    ("\n- `TEACHING.md`: the teacher's guide (assigning and grading the exercise sets, handing the "
     "course out\n  on a hub).", ""),
)
_SOLUTION_LINK = re.compile(r" \[solutions\]\(solutions/[^)]*\) \|$", re.MULTILINE)


class StudentCopyError(RuntimeError):
    """The student copy cannot be built (the message says why and what to do)."""


@dataclass
class StudentTree:
    """A built student tree: its hash and what went into it."""

    source: str
    tree: str
    kept: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)


def git(repo: Path, *args: str, stdin: bytes | None = None,
        env: dict[str, str] | None = None) -> bytes:
    """Run ``git args`` in ``repo`` and return its standard output.

    Parameters
    ----------
    repo : Path
        The repository (any of its worktrees).
    *args : str
        The git command and its arguments.
    stdin : bytes, optional
        What to write to git's standard input.
    env : dict, optional
        Variables added to the environment.

    Returns
    -------
    bytes
        Standard output.
    """
    done = subprocess.run(["git", *args], cwd=repo, input=stdin, capture_output=True,
                          env={**os.environ, **(env or {})}, check=False)
    if done.returncode != 0:
        raise StudentCopyError(f"git {' '.join(args)} failed: "
                               f"{done.stderr.decode(errors='replace').strip()}")
    return done.stdout


def _resolve(repo: Path, ref: str) -> str | None:
    done = subprocess.run(["git", "rev-parse", "-q", "--verify", f"{ref}^{{commit}}"], cwd=repo,
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else None


def keeps(path: str) -> bool:
    """Whether the student tree keeps the file ``path`` of ``main``.

    Parameters
    ----------
    path : str
        A path in the source tree, relative to its root, with ``/``.

    Returns
    -------
    bool
        True for a file a student needs; False for solutions, answer modules and the developers'
        and teachers' material.
    """
    return (path.split("/")[0] in KEEP and not ANSWER_MODULE.match(path)
            and path not in TEACHER_SHIMS)


def student_pyproject(text: str) -> str:
    """``pyproject.toml`` for the student copy: the package list without ``chutes_teacher``,
    which the copy leaves out (setuptools refuses to build a package list naming a missing
    folder, and Binder and a hub image install the copy).

    Parameters
    ----------
    text : str
        The ``pyproject.toml`` of ``main``.

    Returns
    -------
    str
        The same, its ``packages`` list without ``"chutes_teacher"`` (the developers' settings
        that name it, for mypy and import-linter, are not run in the copy).
    """
    found = _PACKAGES.search(text)
    if found is None or '"chutes_teacher"' not in found[0]:
        raise StudentCopyError("pyproject.toml's packages list no longer names chutes_teacher as "
                               "tools/student_copy.py expects: update student_pyproject")
    kept = re.sub(r',\s*"chutes_teacher"|"chutes_teacher",\s*', "", found[0])
    return text[:found.start()] + kept + text[found.end():]


def student_start_page(text: str) -> str:
    """``start_here.ipynb`` for the student copy: no links to solutions, no teacher's guide.

    Parameters
    ----------
    text : str
        The start page of ``main`` (the notebook's JSON).

    Returns
    -------
    str
        The student copy's start page (JSON, written as nbformat writes it).
    """
    nb = json.loads(text)
    sources = ["".join(cell["source"]) for cell in nb["cells"]]
    for old, new in _START_PAGE_EDITS:
        hits = [i for i, source in enumerate(sources) if old in source]
        if len(hits) != 1:
            raise StudentCopyError(f"start_here.ipynb no longer says {old[:60]!r}...: update "
                                   "_START_PAGE_EDITS in tools/student_copy.py")
        sources[hits[0]] = sources[hits[0]].replace(old, new)
    sources = [_SOLUTION_LINK.sub("", source) for source in sources]
    for cell, source in zip(nb["cells"], sources, strict=True):
        cell["source"] = source.splitlines(keepends=True)
    out = json.dumps(nb, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    if "solutions" in out or "TEACHING" in out:
        raise StudentCopyError("start_here.ipynb still mentions solutions/ or TEACHING.md after "
                               "the student copy's edits: update tools/student_copy.py")
    return out


def _no_answers_in(path: str, data: bytes) -> None:
    """Refuse a kept file that holds a solution block or hidden tests."""
    text = data.decode("utf-8", errors="replace")
    if path.endswith(".ipynb"):
        for cell in json.loads(text).get("cells", []):
            source = "".join(cell.get("source", ""))
            for marker in _NOTEBOOK_MARKERS:
                if marker in source:
                    raise StudentCopyError(f"{path} holds {marker!r}: the student copy would "
                                           "show answers; fix the notebook (make exercises)")
    elif _SOLUTION_LINE.search(text):
        raise StudentCopyError(f"{path} holds a solution block: the student copy would show it")


def build_tree(repo: Path, source: str) -> StudentTree:
    """Write the student tree of commit ``source`` into ``repo``'s object store.

    Parameters
    ----------
    repo : Path
        The repository.
    source : str
        The source commit (a full hash).

    Returns
    -------
    StudentTree
        The tree's hash, the paths kept, replaced and left out.
    """
    listing = git(repo, "ls-tree", "-r", "-z", "--full-tree", source).split(b"\0")
    built = StudentTree(source, "")
    lines = []
    for entry in filter(None, listing):
        meta, raw_path = entry.split(b"\t", 1)
        mode, kind, sha = meta.decode().split()
        path = raw_path.decode()
        if not keeps(path):
            built.left_out.append(path)
            continue
        if kind == "blob" and path in ("README.md", "start_here.ipynb", "pyproject.toml"):
            original = git(repo, "cat-file", "blob", sha).decode()
            text = (STUDENT_README if path == "README.md" else
                    student_pyproject(original) if path == "pyproject.toml" else
                    student_start_page(original))
            sha = git(repo, "hash-object", "-w", "--stdin", stdin=text.encode()).decode().strip()
            built.replaced.append(path)
        if kind == "blob" and mode != "120000":
            _no_answers_in(path, git(repo, "cat-file", "blob", sha))
        built.kept.append(path)
        lines.append(f"{mode} {sha}\t".encode() + raw_path + b"\0")
    with tempfile.TemporaryDirectory(prefix="student-index-") as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        git(repo, "update-index", "-z", "--index-info", stdin=b"".join(lines), env=env)
        built.tree = git(repo, "write-tree", env=env).decode().strip()
    return built


def commit_env(repo: Path, source: str) -> dict[str, str]:
    """The author, committer and dates of ``source``, as ``git commit-tree`` reads them.

    Parameters
    ----------
    repo : Path
        The repository.
    source : str
        The source commit.

    Returns
    -------
    dict
        ``GIT_AUTHOR_NAME`` ... ``GIT_COMMITTER_DATE``.
    """
    fields = git(repo, "show", "-s", "--date=raw",
                 "--format=%an%x00%ae%x00%ad%x00%cn%x00%ce%x00%cd", source).decode().rstrip("\n")
    names = ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME",
             "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE")
    return dict(zip(names, fields.split("\0"), strict=True))


def message(repo: Path, built: StudentTree) -> str:
    """The student commit's message: it names the source commit and what was left out.

    Parameters
    ----------
    repo : Path
        The repository.
    built : StudentTree
        The student tree.

    Returns
    -------
    str
        The message.
    """
    subject = git(repo, "show", "-s", "--format=%s", built.source).decode().strip()
    tops = sorted({p.split("/")[0] + ("/" if "/" in p else "") for p in built.left_out
                   if not ANSWER_MODULE.match(p)})
    return (f"Student copy of {built.source}\n\n"
            f"Built by tools/student_copy.py from {built.source[:12]} ({subject}).\n"
            f"Left out: chutes_edu/checks/lesson*.py (the answer checks), {', '.join(tops)}.\n"
            f"Replaced: {', '.join(built.replaced)} (the student versions).\n")


def _checked_out_in(repo: Path, branch: str) -> str | None:
    text = git(repo, "worktree", "list", "--porcelain").decode()
    worktree = None
    for line in text.splitlines():
        if line.startswith("worktree "):
            worktree = line.removeprefix("worktree ")
        elif line == f"branch refs/heads/{branch}":
            return worktree
    return None


def _source_of(repo: Path, commit: str) -> str:
    first = git(repo, "show", "-s", "--format=%s", commit).decode().strip()
    return first.removeprefix("Student copy of ")[:12] if first.startswith("Student copy") else "?"


def build(repo: Path, source_ref: str = "main", branch: str = "student") -> tuple[str, bool]:
    """Build (or bring up to date) ``branch`` from ``source_ref``.

    Parameters
    ----------
    repo : Path
        The repository.
    source_ref : str
        The commit to build from (default ``main``).
    branch : str
        The branch to write (default ``student``).

    Returns
    -------
    (str, bool)
        The branch's commit, and whether this call made it (False when it was up to date).
    """
    source = _resolve(repo, source_ref)
    if source is None:
        raise StudentCopyError(f"there is no commit {source_ref!r} to build from (in a clone "
                               f"without a local main, try --source origin/main)")
    where = _checked_out_in(repo, branch)
    if where is not None:
        raise StudentCopyError(f"branch {branch} is checked out in {where}: moving it would leave "
                               "that working tree behind; check out another branch there first")
    built = build_tree(repo, source)
    tip = _resolve(repo, f"refs/heads/{branch}")
    if tip is not None and git(repo, "rev-parse", f"{tip}^{{tree}}").decode().strip() == built.tree:
        return tip, False
    args = ["commit-tree", built.tree, *(["-p", tip] if tip else []), "-F", "-"]
    commit = git(repo, *args, stdin=message(repo, built).encode(),
                 env=commit_env(repo, source)).decode().strip()
    git(repo, "update-ref", "-m", f"student_copy: from {source[:12]}", f"refs/heads/{branch}",
        commit, tip or _ZERO)
    return commit, True


def check(repo: Path, source_ref: str = "main", branch: str = "student") -> str | None:
    """The drift check: why ``branch`` is not what a build from ``source_ref`` makes now, if so.

    Parameters
    ----------
    repo : Path
        The repository.
    source_ref : str
        The commit a build would start from.
    branch : str
        The student branch.

    Returns
    -------
    str or None
        None when the branch is up to date; otherwise what is wrong and what to do.
    """
    source = _resolve(repo, source_ref)
    if source is None:
        return f"there is no commit {source_ref!r} to compare {branch} with"
    tip = _resolve(repo, f"refs/heads/{branch}")
    if tip is None:
        return (f"there is no branch {branch}: run `make student` (tools/student_copy.py), or "
                f"publish it: {_PUBLISH_HINT}")
    built = build_tree(repo, source)
    have = git(repo, "rev-parse", f"{tip}^{{tree}}").decode().strip()
    if have == built.tree:
        return None
    changed = git(repo, "diff-tree", "-r", "--name-status", have, built.tree).decode().strip()
    shown = changed.splitlines()
    more = f"\n  ... and {len(shown) - 20} more" if len(shown) > 20 else ""
    return (f"branch {branch} is out of date: it was built from {_source_of(repo, tip)}, and "
            f"{source_ref} ({source[:12]}) would change these files:\n  "
            + "\n  ".join(shown[:20]) + more
            + f"\nRun `make student`, or publish it again: {_PUBLISH_HINT}.")


def answer_blobs(repo: Path, source: str) -> dict[str, str]:
    """Every version of a solution or an answer module in the history of ``source``.

    Parameters
    ----------
    repo : Path
        The repository.
    source : str
        The commit whose history is read (``main``).

    Returns
    -------
    dict
        Blob hash to a path it had: each blob that was ever a file under ``solutions/`` or an
        answer module (``chutes_edu/checks/lesson*.py``), in any commit reachable from ``source``.
    """
    raw = git(repo, "log", "--format=", "--raw", "--no-abbrev", "--no-renames", "-m", "-z",
              source, "--", "solutions", "chutes_edu/checks").split(b"\0")
    found: dict[str, str] = {}
    # each change is ":<modes> <old blob> <new blob> <status>" NUL <path> NUL (git log -z also
    # puts separators between commits: read by the leading colon, not by position)
    for meta, path in pairwise(raw):
        name = path.decode(errors="replace")
        if not meta.startswith(b":") or not (_SOLUTIONS.match(name) or ANSWER_MODULE.match(name)):
            continue
        for sha in meta.decode().split()[2:4]:
            if sha != _ZERO:
                found.setdefault(sha, name)
    return found


def leaks(repo: Path, branch: str, source: str) -> list[str]:
    """What the history of ``branch`` holds of ``source``'s solutions and answer modules.

    Parameters
    ----------
    repo : Path
        The repository.
    branch : str
        The student branch (or any commit).
    source : str
        The commit of ``main`` whose history must stay out.

    Returns
    -------
    list of str
        One line per leak: a commit of ``source``'s history reachable from ``branch``, an object
        at a path under ``solutions/`` or at an answer module's path, or a blob equal to any
        version of a solution or an answer module (whatever its path). Empty when none.
    """
    found = []
    forbidden = answer_blobs(repo, source)
    for line in git(repo, "rev-list", "--objects", branch).decode().splitlines():
        sha, _, path = line.partition(" ")
        if _SOLUTIONS.match(path) or ANSWER_MODULE.match(path):
            found.append(f"{path} ({sha})")
        elif sha in forbidden:
            found.append(f"{path or sha}: the same content as {forbidden[sha]} ({sha})")
    shared = set(git(repo, "rev-list", branch).decode().split()) & set(
        git(repo, "rev-list", source).decode().split())
    return found + [f"commit {sha} of {source[:12]}'s history" for sha in sorted(shared)]


def _remote_refs(repo: Path, url: str) -> dict[str, str]:
    refs = {}
    for line in git(repo, "ls-remote", url).decode().splitlines():
        sha, _, name = line.partition("\t")
        refs[name] = sha
    return refs


def _is_ancestor(repo: Path, old: str, new: str) -> bool:
    return subprocess.run(["git", "merge-base", "--is-ancestor", old, new], cwd=repo,
                          capture_output=True, check=False).returncode == 0


def _continue_published(repo: Path, url: str, source: str, branch: str) -> None:
    """Bring ``branch`` up to the student repository's ``main`` (or refuse when they differ)."""
    refs = _remote_refs(repo, url)
    # refs/pull/* are a host's pull requests: a clone does not fetch them
    others = sorted(r for r in refs if r not in ("HEAD", _PUBLISHED)
                    and not r.startswith("refs/pull/"))
    if others:
        raise StudentCopyError(
            f"{url} holds {', '.join(others[:5])}{' ...' if len(others) > 5 else ''} besides "
            "main: a clone of it (repo2docker's, a student's) fetches every branch and tag. "
            "Publish to a repository that holds only the student copy (a new one, not a fork "
            "of the course's)")
    published = refs.get(_PUBLISHED)
    if published is None:
        return
    git(repo, "fetch", "-q", "--no-tags", url, _PUBLISHED)
    if _is_ancestor(repo, published, source):
        raise StudentCopyError(f"{url}'s main ({published[:12]}) is a commit of the course's "
                               f"own history: that is the course's repository, not the students'")
    tip = _resolve(repo, f"refs/heads/{branch}")
    if tip is None or (tip != published and _is_ancestor(repo, tip, published)):
        git(repo, "update-ref", "-m", f"student_copy: {url}'s main", f"refs/heads/{branch}",
            published, tip or _ZERO)
    elif not _is_ancestor(repo, published, tip):
        raise StudentCopyError(
            f"branch {branch} ({tip[:12]}) and {url}'s main ({published[:12]}) have gone apart: "
            f"the students' folders follow {url}. Delete the local branch (git branch -D "
            f"{branch}) to build on the published history")


def publish(repo: Path, url: str, source_ref: str = "main",
            branch: str = "student") -> tuple[str, bool]:
    """Build ``branch`` and push it to the student repository ``url`` as its ``main``.

    Parameters
    ----------
    repo : Path
        The course's repository.
    url : str
        The student repository (any URL or path ``git push`` takes); it holds the student copy
        and nothing else.
    source_ref : str
        The commit to build from (default ``main``).
    branch : str
        The local student branch (default ``student``).

    Returns
    -------
    (str, bool)
        The published commit, and whether this call made a new student commit.
    """
    source = _resolve(repo, source_ref)
    if source is None:
        raise StudentCopyError(f"there is no commit {source_ref!r} to build from")
    where = _checked_out_in(repo, branch)
    if where is not None:
        raise StudentCopyError(f"branch {branch} is checked out in {where}: check out another "
                               "branch there first")
    _continue_published(repo, url, source, branch)
    commit, made = build(repo, source, branch)
    found = leaks(repo, commit, source)
    if found:
        raise StudentCopyError(
            f"branch {branch} reaches the course's answers, so it is not published:\n  "
            + "\n  ".join(found[:20]) + (f"\n  ... and {len(found) - 20} more"
                                         if len(found) > 20 else "")
            + f"\nDelete it (git branch -D {branch}) and build again")
    git(repo, "push", "-q", "--no-follow-tags", url, f"{commit}:{_PUBLISHED}")
    return commit, made


def main(argv: list[str] | None = None) -> int:
    """Build the student branch, check it (``--check``) or list its tree (``--print-tree``).

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0, or 1 when the check fails or the build is refused.
    """
    parser = argparse.ArgumentParser(description="Build the student copy of the course (a branch "
                                     "without solutions or answer checks) and publish it.")
    parser.add_argument("--source", default="main", help="the commit to build from (main)")
    parser.add_argument("--branch", default="student", help="the branch to write (student)")
    parser.add_argument("--repo", type=Path, default=ROOT, help="the repository (this one)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="write nothing; exit 1 if the branch is missing or out of date")
    mode.add_argument("--print-tree", action="store_true",
                      help="list the student tree and what it leaves out; write no branch")
    mode.add_argument("--publish", metavar="REPOSITORY",
                      help="build the branch, then push it as the main of REPOSITORY, a "
                      "repository that holds only the student copy (never the course's own)")
    args = parser.parse_args(argv)
    try:
        if args.publish:
            commit, made = publish(args.repo, args.publish, args.source, args.branch)
            print(f"{args.publish} main is now {commit[:12]} (student copy of {args.source}"
                  f"{'' if made else ', already up to date'}). Build the students' image and "
                  f"make their link from {args.publish}, never from the course's repository")
        elif args.check:
            problem = check(args.repo, args.source, args.branch)
            if problem:
                print(f"student_copy --check: {problem}", file=sys.stderr)
                return 1
            print(f"{args.branch} is up to date with {args.source}")
        elif args.print_tree:
            source = _resolve(args.repo, args.source)
            if source is None:
                raise StudentCopyError(f"there is no commit {args.source!r}")
            built = build_tree(args.repo, source)
            for path in built.kept:
                print(f"  {path}{'  (student version)' if path in built.replaced else ''}")
            print(f"tree {built.tree}; left out {len(built.left_out)} files:")
            for path in built.left_out:
                print(f"- {path}")
        else:
            commit, made = build(args.repo, args.source, args.branch)
            if made:
                print(f"{args.branch} is now {commit[:12]} (student copy of {args.source}). "
                      f"Publish it to the student repository (never to this one): "
                      f"{_PUBLISH_HINT}")
            else:
                print(f"{args.branch} ({commit[:12]}) is already up to date with {args.source}")
    except StudentCopyError as err:
        print(f"student_copy: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
