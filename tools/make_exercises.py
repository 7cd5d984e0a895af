"""Generate exercises/ from solutions/ (the single source), nbgrader style.

In every solution notebook:

- code between ``### BEGIN SOLUTION`` and ``### END SOLUTION`` becomes ``# YOUR CODE HERE`` and
  ``raise NotImplementedError()`` (indented like the marker);
- in markdown cells the same markers enclose a written answer, which becomes ``YOUR ANSWER HERE``;
- cells tagged ``solution-only`` are left out; nbval's cell tags (``nbval-...``) are dropped;
- outputs, execution counts and saved widget state are cleared.

Solution cells get nbgrader metadata in solutions/ (``solution: true``, a ``grade_id``, and for a
written answer ``grade: true`` with one point, graded by hand), so a teacher can also run nbgrader's
``generate_assignment`` on them.

Each generated notebook records a hash of its own content. A student's edits change that content,
so the generator leaves an edited exercise alone (and says so) unless ``--force`` is given.
``--check`` writes nothing and exits 1 if regenerating would change exercises/ or solutions/.

Usage: ``python tools/make_exercises.py [--check] [--force] [NOTEBOOK ...]``
"""

from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions"
EXERCISES = ROOT / "exercises"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
STUB = ("# YOUR CODE HERE", "raise NotImplementedError()")
ANSWER_STUB = "YOUR ANSWER HERE"
# nbval's cell tags: test plumbing for the solutions, meaningless in a student's notebook
_TEST_TAGS = {"nbval-check-output", "nbval-ignore-output", "nbval-skip", "raises-exception"}


def _strip_solutions(source: str, markdown: bool) -> str:
    out: list[str] = []
    inside = False
    for line in source.split("\n"):
        stripped = line.strip()
        if stripped.startswith(BEGIN):
            if inside:
                raise ValueError(f"nested {BEGIN!r}")
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            out.extend([ANSWER_STUB] if markdown else [indent + STUB[0], indent + STUB[1]])
        elif stripped.startswith(END):
            if not inside:
                raise ValueError(f"{END!r} without {BEGIN!r}")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise ValueError(f"{BEGIN!r} without {END!r}")
    return "\n".join(out)


def solution_names(nb: Any) -> set[str]:
    """Names bound at the top level of the solution blocks (an exercise may miss them)."""
    names: set[str] = set()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        block: list[str] | None = None
        for line in cell.source.split("\n"):
            if line.strip().startswith(BEGIN):
                block = []
            elif line.strip().startswith(END) and block is not None:
                try:
                    tree = ast.parse(textwrap.dedent("\n".join(block)))
                except SyntaxError:
                    tree = ast.Module(body=[], type_ignores=[])
                for node in tree.body:
                    for sub in ast.walk(node) if not isinstance(
                            node, (ast.FunctionDef, ast.ClassDef)) else [node]:
                        if isinstance(sub, (ast.FunctionDef, ast.ClassDef)):
                            names.add(sub.name)
                        elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                            names.add(sub.id)
                block = None
            elif block is not None:
                block.append(line)
    return names


def _content_hash(nb: Any) -> str:
    body = copy.deepcopy(nb)
    body.metadata.pop("chutes_edu", None)
    text = json.dumps(body, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _mark_solution_cells(nb: Any, stem: str) -> None:
    """Give every cell with a solution block nbgrader's solution metadata (idempotent)."""
    count = 0
    for cell in nb.cells:
        if BEGIN in cell.source:
            count += 1
            meta = cell.metadata.setdefault("nbgrader", {})
            wanted = {"solution": True, "grade": False, "locked": False, "task": False,
                      "schema_version": 3, "grade_id": f"{stem}-{count}"}
            if cell.cell_type == "markdown":     # nbgrader: a written answer is graded by hand
                wanted.update(grade=True, points=1)
            for key, value in wanted.items():
                if meta.get(key) != value:
                    meta[key] = value


def build_exercise(solution: Any, stem: str) -> Any:
    """The exercise notebook for a solution notebook (pure: the input is not changed)."""
    nb = copy.deepcopy(solution)
    cells = []
    for cell in nb.cells:
        if "solution-only" in cell.metadata.get("tags", []):
            continue
        cell.source = _strip_solutions(cell.source, markdown=cell.cell_type == "markdown")
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        cell.metadata.pop("execution", None)
        tags = [t for t in cell.metadata.get("tags", []) if t not in _TEST_TAGS]
        if tags:
            cell.metadata["tags"] = tags
        else:
            cell.metadata.pop("tags", None)
        cells.append(cell)
    nb.cells = cells
    nb.metadata.pop("widgets", None)          # saved widget state is output too
    nb.metadata["chutes_edu"] = {"generated_from": f"solutions/{stem}.ipynb",
                                 "do_not_edit": "run `make exercises` to regenerate"}
    nb.metadata["chutes_edu"]["content_hash"] = _content_hash(nb)
    return nb


def _text(nb: Any) -> str:
    return nbformat.writes(nb) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on drift")
    parser.add_argument("--force", action="store_true", help="overwrite edited exercises too")
    parser.add_argument("notebooks", nargs="*", type=Path, help="solution notebooks (default: all)")
    args = parser.parse_args(argv)

    sources = args.notebooks or sorted(SOLUTIONS.glob("*.ipynb"))
    drift: list[str] = []
    EXERCISES.mkdir(exist_ok=True)
    for path in sources:
        path = Path(path).resolve()
        stem = path.stem
        solution_text = path.read_text()
        solution = nbformat.reads(solution_text, as_version=4)
        _mark_solution_cells(solution, stem)
        new_solution_text = _text(solution)
        target = EXERCISES / f"{stem}.ipynb"
        exercise_text = _text(build_exercise(solution, stem))
        old = target.read_text() if target.exists() else None

        if args.check:
            if new_solution_text != solution_text:
                drift.append(f"solutions/{stem}.ipynb lacks nbgrader metadata")
            if old != exercise_text:
                drift.append(f"exercises/{stem}.ipynb")
            continue
        if new_solution_text != solution_text:
            path.write_text(new_solution_text)
            print(f"marked solution cells in solutions/{stem}.ipynb")
        if old == exercise_text:
            continue
        if old is not None and not args.force:
            current = nbformat.reads(old, as_version=4)
            recorded = current.metadata.get("chutes_edu", {}).get("content_hash")
            if recorded != _content_hash(current):
                print(f"exercises/{stem}.ipynb was edited since it was generated: left as it is "
                      "(use --force to overwrite it)")
                continue
        target.write_text(exercise_text)
        print(f"wrote exercises/{stem}.ipynb")

    if args.check and drift:
        print("exercises are out of date; run `make exercises`:\n  " + "\n  ".join(drift))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
