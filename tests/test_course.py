"""The course as a student meets it: a start page, links that work in the repository layout (JupyterLab,
Binder, a hub via nbgitpuller), and no test plumbing in the code students read."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from chutes_edu.checks import exercise_ids
from chutes_edu.course import GLOSSARY, SOURCES, TOOLBOX, CourseLesson, course_lessons

ROOT = Path(__file__).resolve().parent.parent
START = ROOT / "start_here.ipynb"
LESSONS = sorted((ROOT / "lessons").glob("*.ipynb"))
NOTEBOOKS = sorted(p for folder in ("lessons", "solutions", "exercises")
                   for p in (ROOT / folder).glob("*.ipynb"))
# a markdown link or image: [text](target) or ![alt](target), with an optional "title"
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def _ids(paths: list[Path]) -> list[str]:
    return [f"{p.parent.name}/{p.stem}" for p in paths]


def _links(path: Path) -> list[str]:
    nb = nbformat.read(path, as_version=4)
    return [m.group(1) for cell in nb.cells if cell.cell_type == "markdown"
            for m in LINK.finditer(cell.source)]


def _local(target: str) -> str | None:
    """The file part of a link into the repository, or None for a web link or an anchor."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
        return None
    return target.split("#")[0].split("?")[0]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_no_nbval_markers_in_code(path: Path) -> None:
    """nbval's markers live in cell tags, not in comments that students read."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        assert "NBVAL_" not in cell.source, f"{path.name}: {cell.source[:200]}"


@pytest.mark.parametrize("path", [START, *NOTEBOOKS], ids=["start_here", *_ids(NOTEBOOKS)])
def test_links_resolve_in_the_repository_layout(path: Path) -> None:
    for target in _links(path):
        local = _local(target)
        if local:
            assert (path.parent / local).resolve().exists(), f"{path.name}: broken link {target}"


def test_start_page_maps_every_lesson_to_its_exercises() -> None:
    targets = {_local(t) for t in _links(START)}
    for lesson in course_lessons(ROOT):
        for path in (lesson.lesson, lesson.exercises, lesson.solutions):
            assert path.as_posix() in targets, f"start page does not link {path}"
    text = "\n".join(c.source for c in nbformat.read(START, as_version=4).cells)
    for lesson in LESSONS:        # each row names the lesson by its own title
        title = nbformat.read(lesson, as_version=4).cells[0].source.split("\n")[0]
        assert title.split(" — ", 1)[1] in text, f"start page lacks the title of {lesson.name}"


@pytest.mark.parametrize("lesson", course_lessons(ROOT), ids=lambda lesson: lesson.name)
def test_lesson_and_exercise_set_link_to_each_other(lesson: CourseLesson) -> None:
    assert f"../{lesson.exercises.as_posix()}" in map(_local, _links(ROOT / lesson.lesson)), \
        f"{lesson.lesson} does not link to its exercise set"
    assert f"../{lesson.lesson.as_posix()}" in map(_local, _links(ROOT / lesson.exercises)), \
        f"{lesson.exercises} does not link back to its lesson"


# How much of a file name a JupyterLab tab shows before its ellipsis (216 px, icon and close
# button included), counted generously short.
TAB_CHARACTERS = 18


def test_a_lesson_its_set_and_its_solutions_are_told_apart_in_a_tab() -> None:
    lessons = course_lessons(ROOT)
    assert [lesson.number for lesson in lessons] == \
        sorted({int(n.split(".")[0]) for n in exercise_ids()}), "a lesson without exercises"
    for lesson in lessons:
        paths = (lesson.lesson, lesson.exercises, lesson.solutions)
        for path in paths:
            assert (ROOT / path).exists(), f"{path} is missing"
        shown = {path.name[:TAB_CHARACTERS] for path in paths}
        assert len(shown) == 3, f"{[p.name for p in paths]} look alike in a tab"
    on_disk = {p.relative_to(ROOT) for folder in ("lessons", "exercises", "solutions")
               for p in (ROOT / folder).glob("*.ipynb")}
    expected = {TOOLBOX, *(path for lesson in lessons
                           for path in (lesson.lesson, lesson.exercises, lesson.solutions))}
    assert on_disk == expected, f"old or stray notebooks: {sorted(map(str, on_disk - expected))}"


def test_the_lab_opens_on_the_start_page() -> None:
    """`make lab` serves the whole repository (lessons and exercises) and lands on the start page."""
    makefile = (ROOT / "Makefile").read_text()
    assert '--ServerApp.root_dir="$(CURDIR)"' in makefile
    assert f"--LabApp.default_url=/lab/tree/{START.name}" in makefile


EXECUTED = sorted(p for folder in ("lessons", "solutions") for p in (ROOT / folder).glob("*.ipynb"))


@pytest.mark.parametrize("path", EXECUTED, ids=_ids(EXECUTED))
def test_every_saved_picture_has_alt_text(path: Path) -> None:
    """Set where the figure is made (chutes_edu's plots, or describe()), so the site gets it too.

    A figure is saved once, as the ``<img alt>`` JupyterLab and Voila show (they ignore a PNG's
    metadata; tools/slim_notebook.py), which the site turns back into a PNG with its alt text."""
    from chutes_edu.plots.alt_text import _read_img_tag

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            tag = _read_img_tag(data.get("text/html", ""))
            if tag is not None:
                assert tag[0].strip(), f"{path.name}: a picture without alt text:\n{cell.source}"
            assert "image/png" not in data, \
                f"{path.name}: a picture JupyterLab shows without alt text:\n{cell.source}"
    # the saved pictures of the widgets: their tooltip becomes the <img>'s title and alt on the site
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
    for model in state.get("state", {}).values():
        assert model.get("model_name") != "ImageModel", f"{path.name}: a picture without alt"
        if model["state"].get("_kind") == "picture":
            assert (model["state"].get("alt") or "").strip(), \
                f"{path.name}: a saved widget picture without a description"


# ------------------------------------------------------------------------------ opening a notebook
@pytest.fixture(scope="module")
def kernel_metadata() -> dict:
    """What the course's kernel writes into a notebook's metadata when JupyterLab opens it."""
    import sys
    sys.path.insert(0, str(ROOT / "tools"))
    import notebook_metadata
    return notebook_metadata.kernel_metadata()


@pytest.mark.parametrize("path", [START, *NOTEBOOKS], ids=["start_here", *_ids(NOTEBOOKS)])
def test_opening_a_notebook_changes_nothing(path: Path, kernel_metadata: dict) -> None:
    """JupyterLab rewrites kernelspec and language_info with the kernel's own and marks the
    notebook as changed unless they are exactly equal (run tools/notebook_metadata.py)."""
    nb = nbformat.read(path, as_version=4)
    assert nb.metadata.get("kernelspec") == kernel_metadata["kernelspec"], path.name
    assert nb.metadata.get("language_info") == kernel_metadata["language_info"], path.name
    assert not [c.id for c in nb.cells if "execution" in c.metadata], \
        f"{path.name}: per-cell timing metadata (run tools/notebook_metadata.py)"


# ------------------------------------------------------------------------------ the self-learner's way
# The toolbox's sections, each a refresher with a worked example (issue 30), in their order.
TOOLBOX_SECTIONS = ["Sums and expectation", "Matrices and the inverse",
                    "Determinants and Cramer's rule", "Eigenvalues and the Perron-Frobenius theorem",
                    "Geometric series", "The normal approximation", "The Sherman-Morrison formula",
                    "The Bellman equation"]
# a link to a heading of a notebook or a Markdown page, by JupyterLab's anchor (text, spaces -> -)
ANCHORED = re.compile(r"\]\((?P<file>[\w./-]*?)(?P<path>toolbox\.ipynb|glossary\.md)#(?P<anchor>[^)\s]+)\)")
LESSON_LINK = re.compile(r"\]\((?:\.\./lessons/)?(?P<number>\d\d)_[a-z0-9_]+\.ipynb\)")
URL = re.compile(r"\]\((?:https?://[^)\s]+)\)")


def _lab_anchor(heading: str) -> str:
    """The anchor JupyterLab gives a heading (book/build.py's ``lab_anchor``)."""
    return heading.strip().replace(" ", "-")


def _headings(sources: list[str], level: str) -> list[str]:
    return [m.group(1) for text in sources
            for m in re.finditer(rf"^{level} (.+?)\s*$", text, re.MULTILINE)]


def _markdown(path: Path) -> list[str]:
    if path.suffix == ".md":
        return [path.read_text(encoding="utf-8")]
    return [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown"]


def _anchors() -> dict[str, set[str]]:
    """The anchors a link can name: the toolbox's sections and the glossary's terms."""
    return {"toolbox.ipynb": {_lab_anchor(h) for h in _headings(_markdown(ROOT / TOOLBOX), "##")},
            "glossary.md": {_lab_anchor(h) for h in _headings(_markdown(ROOT / GLOSSARY), "###")}}


def test_the_toolbox_has_its_sections_each_with_a_checked_worked_example() -> None:
    nb = nbformat.read(ROOT / TOOLBOX, as_version=4)
    assert nb.cells[0].source.startswith("# Toolbox — ")
    found = _headings(_markdown(ROOT / TOOLBOX), "##")
    assert [h for h in found if h != "References"] == TOOLBOX_SECTIONS
    section = None
    examples: dict[str, int] = {}
    for cell in nb.cells:
        heading = re.match(r"^## (.+)$", cell.source, re.MULTILINE) if cell.cell_type == "markdown" else None
        if heading:
            section = heading.group(1)
        elif cell.cell_type == "code" and section and "nbval-check-output" in cell.metadata.get("tags", []):
            assert cell.outputs, f"the toolbox's example under {section!r} was not run"
            examples[section] = examples.get(section, 0) + 1
    assert set(examples) == set(TOOLBOX_SECTIONS), f"sections without a checked example: " \
        f"{set(TOOLBOX_SECTIONS) - set(examples)}"


@pytest.mark.parametrize("lesson", course_lessons(ROOT), ids=lambda lesson: lesson.name)
def test_every_lesson_opens_with_what_it_needs(lesson: CourseLesson) -> None:
    """The title cell says what the lesson needs: toolbox sections and the lessons it builds on,
    as links that resolve (anchors included)."""
    first = nbformat.read(ROOT / lesson.lesson, as_version=4).cells[0].source
    start = first.find("**What you need")
    assert start > 0, f"{lesson.name} does not open with 'What you need'"
    need = first[start:].split("\n\n", 1)[0]
    anchors = _anchors()
    sections = [m["anchor"] for m in ANCHORED.finditer(need) if m["path"] == "toolbox.ipynb"]
    assert sections, f"{lesson.name}: 'What you need' links no toolbox section"
    assert set(sections) <= anchors["toolbox.ipynb"], f"{lesson.name}: no such toolbox section"
    earlier = {int(m["number"]) for m in LESSON_LINK.finditer(need)}
    assert all(n < lesson.number for n in earlier), f"{lesson.name} needs a later lesson"
    assert earlier or lesson.number == 1, f"{lesson.name}: 'What you need' links no lesson"


def test_the_glossary_defines_enough_terms_and_every_link_to_it_resolves() -> None:
    text = (ROOT / GLOSSARY).read_text(encoding="utf-8")
    terms = _headings([text], "###")
    assert len(terms) >= 30 and len(set(map(str.lower, terms))) == len(terms), terms
    for term in terms:         # each term has a definition, with the lesson or toolbox section
        body = text.split(f"### {term}\n", 1)[1].split("\n#", 1)[0]
        assert len(body.split()) >= 12 and re.search(r"\]\((\d\d_|toolbox)", body), term
    anchors = _anchors()
    links = 0
    for path in [START, ROOT / TOOLBOX, ROOT / GLOSSARY, *NOTEBOOKS]:
        for source in _markdown(path):
            for m in ANCHORED.finditer(source):
                links += 1
                assert m["anchor"] in anchors[m["path"]], f"{path.name}: no anchor {m.group(0)}"
            for m in re.finditer(r"\[([^\]]*)\]\((?:\.\./lessons/)?glossary\.md#", source):
                # the site turns these links into {term} roles: plain words only
                assert not re.search(r"[`$<>]", m.group(1)), f"{path.name}: {m.group(0)}"
    assert links >= 100, f"only {links} links to the toolbox's sections and the glossary"
    used = {m["anchor"] for lesson in LESSONS for source in _markdown(lesson)
            for m in ANCHORED.finditer(source) if m["path"] == "glossary.md"}
    assert len(used) >= 30, f"the lessons link only {len(used)} glossary terms"


def _reference_lists() -> dict[str, str]:
    """Every list of works cited: each lesson's References, the start page's and the toolbox's
    lists, and the sources page."""
    found = {}
    for path in [START, *LESSONS]:
        for source in _markdown(path):
            for title in ("## References\n", "## Sources\n"):
                if title in source:
                    found[f"{path.name} {title.strip()}"] = source.split(title, 1)[1]
    found[SOURCES.name] = (ROOT / SOURCES).read_text(encoding="utf-8")
    return found


def test_every_cited_work_has_a_full_reference_and_a_link() -> None:
    lists = _reference_lists()
    assert len(lists) == len(LESSONS) + 2, sorted(lists)
    links: dict[str, set[str]] = {}
    for where, text in lists.items():
        assert not re.search(r"not given|undated|author and date|seed 00\d", text, re.I), where
        items = re.split(r"\n(?=- )", text[text.index("\n- ") + 1:] if not text.startswith("- ")
                         else text)
        for item in items:
            label = re.match(r"- \*\*(?P<label>.+?)\*\* — ", item)
            assert label, f"{where}: a reference without its label: {item[:80]}"
            urls = re.findall(r"\]\((https?://[^)\s]+)\)", item)
            assert urls, f"{where}: no link in the reference {label['label']!r}"
            links.setdefault(re.sub(r" \(\d{4}\)$", "", label["label"]), set()).update(urls)
    sources = (ROOT / SOURCES).read_text(encoding="utf-8")
    for label, urls in links.items():
        assert f"**{label}" in sources, f"{label} is cited but not on the sources page"
        assert all(url in sources for url in urls), f"{label}: a link that the sources page lacks"
