"""The course's notebooks and their names: one place that knows which files belong together.

Lesson ``N`` is ``lessons/NN_slug.ipynb``; its exercise set is
``exercises/NN_exercises_slug.ipynb`` and the set with worked solutions (the single source of the
set) ``solutions/NN_solutions_slug.ipynb``.
The kind of notebook comes right after the number, so that a lesson, its set and its solutions
can be told apart in a narrow place (a JupyterLab tab shows the first 20-odd characters of a
name), and so that the names sort by lesson in each folder. nbgrader's assignment for lesson
``N`` is the exercise set's name, ``NN_exercises_slug``.

Besides the lessons, ``lessons/`` holds three reference pages (:data:`TOOLBOX`, :data:`GLOSSARY`,
:data:`SOURCES`). The generator of ``exercises/`` (``tools/make_exercises.py``), the website
builder (``book/build.py``), the start page and the tests all take the names from here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .i18n import say

__all__ = ["KINDS", "CourseLesson", "course_lessons", "set_stem", "lesson_stem", "TOOLBOX",
           "GLOSSARY", "SOURCES"]

KINDS: tuple[str, ...] = ("exercises", "solutions")
"""The kinds of exercise-set notebook, each in the folder of the same name."""

TOOLBOX = Path("lessons", "toolbox.ipynb")
"""The maths toolbox: a notebook of refreshers that the lessons' "What you need" link to. It sits
with the lessons but is no lesson (its name has no number, so :func:`course_lessons` skips it)."""
GLOSSARY = Path("lessons", "glossary.md")
"""The glossary: one ``### term`` heading per term, linked from the lessons as
``glossary.md#term-with-hyphens`` (the site turns it into Sphinx's glossary)."""
SOURCES = Path("lessons", "sources.md")
"""Every work the course cites, with a full reference and a link."""

_LESSON = re.compile(r"^(\d\d)_([a-z0-9]+(?:_[a-z0-9]+)*)$")
_SET = re.compile(r"^(\d\d)_(exercises|solutions)_([a-z0-9]+(?:_[a-z0-9]+)*)$")


def set_stem(lesson: str, kind: str) -> str:
    """The file name (without ``.ipynb``) of lesson ``lesson``'s exercise set of kind ``kind``.

    Parameters
    ----------
    lesson : str
        A lesson's name, ``NN_slug``, e.g. ``"02_board_as_equations"``.
    kind : {"exercises", "solutions"}
        The set for students, or the set with worked solutions.

    Returns
    -------
    str
        ``NN_kind_slug``, e.g. ``"02_exercises_board_as_equations"``.

    Examples
    --------
    >>> set_stem("02_board_as_equations", "solutions")
    '02_solutions_board_as_equations'
    """
    match = _LESSON.match(lesson)
    if match is None or _SET.match(lesson):
        raise ValueError(say("{lesson} is not a lesson's name (NN_slug, e.g. "
                             "02_board_as_equations)", lesson=repr(lesson)))
    if kind not in KINDS:
        raise ValueError(say("unknown kind {kind}; choose one of {kinds}", kind=repr(kind),
                             kinds=", ".join(KINDS)))
    number, slug = match.groups()
    return f"{number}_{kind}_{slug}"


def lesson_stem(name: str) -> str:
    """The lesson an exercise set belongs to: ``NN_kind_slug`` -> ``NN_slug``.

    Examples
    --------
    >>> lesson_stem("11_exercises_long_run")
    '11_long_run'
    """
    match = _SET.match(name)
    if match is None:
        raise ValueError(say("{name} is not an exercise set's name (NN_exercises_slug or "
                             "NN_solutions_slug)", name=repr(name)))
    number, _, slug = match.groups()
    return f"{number}_{slug}"


@dataclass(frozen=True)
class CourseLesson:
    """One lesson and its exercise set, as paths relative to the course's root folder."""

    number: int
    name: str
    lesson: Path
    exercises: Path
    solutions: Path


def course_lessons(root: Path) -> list[CourseLesson]:
    """Every lesson in ``root/lessons`` with the paths of its exercise set, in course order.

    Parameters
    ----------
    root : pathlib.Path
        The course's root folder (the repository).

    Returns
    -------
    list of CourseLesson
        The sets' paths are where they belong, whether or not those files exist.
    """
    out = []
    for path in sorted(Path(root, "lessons").glob("[0-9][0-9]_*.ipynb")):
        name = path.stem
        sets = {kind: Path(kind, f"{set_stem(name, kind)}.ipynb") for kind in KINDS}
        out.append(CourseLesson(number=int(name[:2]), name=name, lesson=Path("lessons", path.name),
                                exercises=sets["exercises"], solutions=sets["solutions"]))
    return out
