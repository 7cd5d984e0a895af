"""Generate exercises/ from solutions/ (the single source), nbgrader style.

``solutions/NN_solutions_slug.ipynb`` becomes ``exercises/NN_exercises_slug.ipynb``
(:mod:`chutes_edu.course` names the files). In every solution notebook:

- code between ``### BEGIN SOLUTION`` and ``### END SOLUTION`` becomes :data:`STUB`, the comment
  ``# YOUR CODE HERE`` indented like the marker. A stub never raises, so "Run All" on an untouched
  exercise set runs to the end: at the top level the solution cell sets the answer to ``None``
  before the block (``answer_3_6 = None``), and a function keeps its docstring, so that its stub
  is a function that returns None (the check says "no answer given"). nbgrader_config.py gives
  nbgrader the same stub. An exercise cell that would not parse with its stub is an error;
- in markdown cells the same markers enclose a written answer, which becomes ``YOUR ANSWER HERE``;
- ``### BEGIN HIDDEN TESTS`` ... ``### END HIDDEN TESTS`` blocks are removed, markers and all;
- cells tagged ``solution-only`` are left out; nbval's cell tags (``nbval-...``) are dropped;
- outputs, execution counts, execution metadata and saved widget state are cleared;
- the link to the lesson, written in solutions/ as the code span ```lessons/NN_slug.ipynb```
  (an nbgrader release has no lessons/ folder beside it, so it carries no link), becomes a
  relative link ``../lessons/NN_slug.ipynb`` in exercises/.

The generator also keeps the nbgrader metadata of solutions/ up to date: every cell with a solution
block gets ``solution: true`` and a ``grade_id`` named after its exercise (``ex3_6-code``,
``ex3_6-written``); a written answer is a hand-graded cell and a cell with hidden tests an
autograded test cell (both keep the ``points`` an author gave them, 1 by default). A markdown cell
after the title, written by the generator, lists the points of every exercise.

A generated notebook records a hash of its content: sources, cell types and the cells' tags and
nbgrader metadata. Running a notebook does not change that content (outputs, execution counts,
execution and widget metadata do not count); editing a cell does. The generator leaves an edited
exercise alone and says so; ``--force`` overwrites it and keeps the old file as
``NN_exercises_slug.ipynb.bak`` (``.bak1``, ``.bak2`` ... if that exists). ``--check`` writes
nothing, tells an out-of-date exercise (solutions/ changed) from an edited one (someone worked in
it), says what to do about each, and exits 1 if there is either.

A set's numbers (the ``my_numbers(N, name=(value, values), ...)`` call at its top, see
:mod:`chutes_edu.variants`) are copied into ``chutes_edu/numbers/setNN.json``, which the checks and
the graders read: change a number in the solutions, run ``make exercises``, and the expected answers
follow it. ``--verify`` (what ``make exercises`` runs) first executes every solution notebook in a
fresh kernel with the course's own numbers and stops, naming the exercise, when a worked solution
is not right by its own check; it writes nothing then.

The points and size of every set, as a markdown table, are written into TEACHING.md between its
markers ``<!-- points table`` and ``<!-- end of points table -->`` (from every set in solutions/,
whichever notebooks were named), so that a changed set needs no hand paste; ``--check`` says when
the table there is not the notebooks'. ``--points`` prints the table and writes nothing.

Usage: ``python tools/make_exercises.py [--check] [--verify] [--force] [--points] [NOTEBOOK ...]``
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import re
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from chutes_edu.course import lesson_stem, set_stem
from chutes_edu.variants import SECRET_VARIABLE, STUDENT_ID_VARIABLES, declarations_in

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions"
EXERCISES = ROOT / "exercises"
NUMBERS = ROOT / "chutes_edu" / "numbers"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
HIDDEN_BEGIN, HIDDEN_END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
# nbgrader_config.py sets ClearSolutions.code_stub to the same lines (a test keeps them equal).
STUB = ("# YOUR CODE HERE",)
ANSWER_STUB = "YOUR ANSWER HERE"
# nbval's cell tags: test plumbing for the solutions, meaningless in a student's notebook
_TEST_TAGS = {"nbval-check-output", "nbval-ignore-output", "nbval-skip", "raises-exception"}
_HEADER = re.compile(r"^### Exercise (\d+\.\d+)")
_LESSON_SPAN = re.compile(r"`(lessons/[\w-]+\.ipynb)`")
POINTS_CELL_ID = "points"
_MINUTES = {"code": 10, "function": 20, "written": 10}


def _strip_blocks(source: str, markdown: bool) -> str:
    """Solution blocks become stubs; hidden-test blocks disappear."""
    out: list[str] = []
    inside: str | None = None
    for line in source.split("\n"):
        stripped = line.strip()
        for begin, end in ((BEGIN, END), (HIDDEN_BEGIN, HIDDEN_END)):
            if stripped.startswith(begin):
                if inside:
                    raise ValueError(f"{begin!r} inside {inside!r}")
                inside = begin
                if begin == BEGIN:
                    indent = line[: len(line) - len(line.lstrip())]
                    out.extend([ANSWER_STUB] if markdown else [indent + s for s in STUB])
                break
            if stripped.startswith(end):
                if inside != begin:
                    raise ValueError(f"{end!r} without {begin!r}")
                inside = None
                break
        else:
            if not inside:
                out.append(line)
    if inside:
        raise ValueError(f"{inside!r} without its END marker")
    return "\n".join(out)


def _strip_solutions(source: str, markdown: bool) -> str:
    """Kept for callers of the old name: see :func:`_strip_blocks`."""
    return _strip_blocks(source, markdown)


def solution_names(nb: Any) -> set[str]:
    """Names bound at the top level of the solution blocks (a stub leaves them unbound)."""
    import ast

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
                    if isinstance(node, ast.FunctionDef | ast.ClassDef):
                        names.add(node.name)
                        continue
                    for sub in ast.walk(node):
                        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                            names.add(sub.id)
                block = None
            elif block is not None:
                block.append(line)
    return names


# --------------------------------------------------------------------------- exercises and points
@dataclass
class Exercise:
    """One exercise of a set: its number, its graded cells and their points."""

    number: str
    auto: int = 0                 # autograded points (hidden tests)
    manual: int = 0               # points for written answers, graded by hand
    kinds: set[str] = field(default_factory=set)

    @property
    def points(self) -> int:
        return self.auto + self.manual

    @property
    def minutes(self) -> int:
        """A rough time estimate: 10 min per exercise, 20 with a function to write, +10 written."""
        return (_MINUTES["function"] if "function" in self.kinds else _MINUTES["code"]) + (
            _MINUTES["written"] if "written" in self.kinds else 0)


def _exercise_of_cells(nb: Any) -> list[str | None]:
    """The exercise number each cell belongs to (None before the first exercise)."""
    current: str | None = None
    out: list[str | None] = []
    for cell in nb.cells:
        m = _HEADER.match(cell.source) if cell.cell_type == "markdown" else None
        if m:
            current = m.group(1)
        out.append(current)
    return out


def _is_function_cell(source: str) -> bool:
    return any(line.startswith(" ") and line.strip().startswith(BEGIN)
               for line in source.split("\n"))


def exercises_of(nb: Any) -> list[Exercise]:
    """The exercises of a solution notebook with the points of their graded cells."""
    found: dict[str, Exercise] = {}
    for number, cell in zip(_exercise_of_cells(nb), nb.cells, strict=True):
        if number is None:
            continue
        ex = found.setdefault(number, Exercise(number))
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and BEGIN in cell.source:
            ex.kinds.add("function" if _is_function_cell(cell.source) else "code")
        if meta.get("grade"):
            if cell.cell_type == "markdown":
                ex.manual += int(meta.get("points", 0))
                ex.kinds.add("written")
            else:
                ex.auto += int(meta.get("points", 0))
    return list(found.values())


def points_text(nb: Any) -> str:
    """The markdown of the points cell: totals, then every exercise's points."""
    exercises = exercises_of(nb)
    auto = sum(e.auto for e in exercises)
    manual = sum(e.manual for e in exercises)
    parts = []
    for e in exercises:
        detail = " + ".join(f"{p} {what}" for p, what in ((e.auto, "checked"),
                                                          (e.manual, "written")) if p)
        parts.append(f"{e.number}: {detail or '0'}")
    return (f"**Points: {auto + manual}** ({auto} checked automatically when your work is graded, "
            f"{manual} for written answers, graded by hand). By exercise: " + "; ".join(parts)
            + ".")


def _mark_cells(nb: Any) -> None:
    """Give graded and solution cells nbgrader's metadata, and keep the points cell (idempotent)."""
    counts: dict[tuple[str, str], int] = {}
    for cell in nb.cells:
        # The set's numbers: read-only, and restored from the release when a submission is graded.
        if cell.cell_type == "code" and "my_numbers(" in cell.source:
            numbers_meta = {"grade": False, "solution": False, "locked": True, "task": False,
                            "schema_version": 3, "grade_id": "numbers"}
            if cell.metadata.get("nbgrader") != numbers_meta:
                cell.metadata["nbgrader"] = numbers_meta
    for number, cell in zip(_exercise_of_cells(nb), nb.cells, strict=True):
        hidden = cell.cell_type == "code" and HIDDEN_BEGIN in cell.source
        if BEGIN not in cell.source and not hidden:
            continue
        if number is None:
            raise ValueError(f"a solution or test block before the first exercise:\n{cell.source}")
        kind = "tests" if hidden else "written" if cell.cell_type == "markdown" else "code"
        counts[(number, kind)] = counts.get((number, kind), 0) + 1
        n = counts[(number, kind)]
        grade_id = f"ex{number.replace('.', '_')}-{kind}" + (str(n) if n > 1 else "")
        meta = cell.metadata.setdefault("nbgrader", {})
        wanted: dict[str, Any] = {"solution": not hidden, "grade": kind != "code",
                                  "locked": hidden, "task": False, "schema_version": 3,
                                  "grade_id": grade_id}
        for key, value in wanted.items():
            if meta.get(key) != value:
                meta[key] = value
        if kind == "code":
            meta.pop("points", None)
        elif not isinstance(meta.get("points"), int) or meta["points"] < 1:
            meta["points"] = 1
    text = points_text(nb)
    cells = [c for c in nb.cells if c.get("id") == POINTS_CELL_ID]
    if not cells:
        cell = nbformat.v4.new_markdown_cell(text)
        cell.id = POINTS_CELL_ID
        nb.cells.insert(1, cell)
    elif cells[0].source != text:
        cells[0].source = text


# --------------------------------------------------------------------------- a set's numbers
def numbers_text(nb: Any, stem: str) -> tuple[str, str | None]:
    """The file name and JSON of a set's declared numbers (None when the set declares none)."""
    set_number = int(lesson_stem(stem).split("_")[0])
    name = f"set{set_number:02d}.json"
    found = []
    for cell in nb.cells:
        if cell.cell_type != "code" or "my_numbers" not in cell.source:
            continue
        try:
            declared = declarations_in(cell.source)
        except (ValueError, SyntaxError) as err:
            raise ValueError(f"solutions/{stem}.ipynb: {err}") from None
        if declared is not None:
            found.append(declared)
    if not found:
        return name, None
    if len(found) > 1 or found[0][0] != set_number:
        raise ValueError(f"solutions/{stem}.ipynb: one my_numbers({set_number}, ...) call is "
                         f"expected, found {[n for n, _ in found]}")
    numbers = {key: {"course": value, "values": list(values)}
               for key, (value, values) in found[0][1].items()}
    data = {"set": set_number, "generated_from": f"solutions/{stem}.ipynb",
            "do_not_edit": "run `make exercises` to regenerate", "numbers": numbers}
    lines = ",\n".join(f"  {json.dumps(key)}: {json.dumps(value)}"
                        for key, value in numbers.items())
    head = json.dumps({k: v for k, v in data.items() if k != "numbers"}, indent=1)[:-2]
    return name, f'{head},\n "numbers": {{\n{lines}\n }}\n}}\n'



def run_notebook(nb: Any, folder: Path, **environment: str | None) -> Any:
    """Execute ``nb`` (in place) in a fresh kernel started in ``folder``.

    ``environment`` changes the kernel's environment only (None leaves a variable out); this
    Python's own is not touched. Returns ``nb``; a failing cell raises nbclient's
    ``CellExecutionError``.
    """
    import os

    from nbclient import NotebookClient

    env = {k: v for k, v in os.environ.items() if k not in environment}
    env.update({k: v for k, v in environment.items() if v is not None})
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(folder)}}).execute(env=env)
    return nb


def verify_solutions(paths: list[Path], workers: int = 2) -> list[str]:
    """Run each solution notebook in a fresh kernel; the self-checks its worked answers fail.

    Returns one line per exercise whose worked solution its check does not call right (or per
    notebook that does not run), naming the exercise. The course's own numbers are used: no
    student id, no course secret.
    """
    from concurrent.futures import ThreadPoolExecutor

    from nbclient.exceptions import CellExecutionError

    course_numbers = dict.fromkeys((*STUDENT_ID_VARIABLES, SECRET_VARIABLE))
    check_call = re.compile(r'^check\("(\d+\.\d+)"', re.MULTILINE)

    def run(path: Path) -> list[str]:
        nb = nbformat.read(path, as_version=4)
        try:
            run_notebook(nb, path.parent, **course_numbers)
        except CellExecutionError as err:
            return [f"solutions/{path.name}: does not run: {str(err).strip().splitlines()[-1]}"]
        wrong = []
        for cell in nb.cells:
            m = check_call.search(cell.source) if cell.cell_type == "code" else None
            if m is None:
                continue
            text = "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "")
                           for o in cell.outputs)
            if "✔" not in text:
                wrong.append(f"solutions/{path.name}: exercise {m[1]}: the worked solution is "
                             f"not right by its check: {text.strip()[:300]}")
        return wrong

    with ThreadPoolExecutor(workers) as pool:
        return [line for lines in pool.map(run, paths) for line in lines]


# --------------------------------------------------------------------------- building exercises
def _must_parse(source: str, stem: str) -> None:
    """An exercise cell must be valid Python with its stubs (IPython's % and ! lines aside)."""
    import ast

    code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                     for line in source.split("\n"))
    try:
        ast.parse(code)
    except SyntaxError as err:
        raise ValueError(f"solutions/{stem}.ipynb: this cell is not valid Python once its solution "
                         f"is replaced by {STUB[0]!r} ({err.msg}, line {err.lineno}); a function "
                         f"whose whole body is a solution needs a docstring before the "
                         f"marker:\n{source}") from None


def build_exercise(solution: Any, stem: str) -> Any:
    """The exercise notebook for a solution notebook (pure: the input is not changed)."""
    nb = copy.deepcopy(solution)
    cells = []
    for cell in nb.cells:
        if "solution-only" in cell.metadata.get("tags", []):
            continue
        cell.source = _strip_blocks(cell.source, markdown=cell.cell_type == "markdown")
        if cell.cell_type == "code":
            _must_parse(cell.source, stem)
            cell.outputs = []
            cell.execution_count = None
        else:
            cell.source = _LESSON_SPAN.sub(r"[\1](../\1)", cell.source)
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
                                 "do_not_edit": "run `make exercises` to regenerate",
                                 "content_hash": content_hash(nb)}
    return nb


def content_hash(nb: Any) -> str:
    """A hash of what a person writes in a notebook: cell types, sources, tags, nbgrader metadata.

    Outputs, execution counts, execution and widget metadata and the notebook's own metadata
    (kernel, language version) are left out: running a notebook is not an edit.
    """
    body = [[cell.cell_type, cell.source, cell.metadata.get("tags", []),
             cell.metadata.get("nbgrader", {})] for cell in nb.cells]
    text = json.dumps(body, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _has_outputs(nb: Any) -> bool:
    return any(c.get("outputs") or c.get("execution_count") for c in nb.cells
               if c.cell_type == "code")


def _text(nb: Any) -> str:
    return nbformat.writes(nb) + "\n"


def _backup(target: Path) -> Path:
    """Copy ``target`` to the first free ``target.bak``, ``.bak1``, ... and return that path."""
    n = 0
    while True:
        backup = target.with_name(target.name + (".bak" if n == 0 else f".bak{n}"))
        if not backup.exists():
            backup.write_bytes(target.read_bytes())
            return backup
        n += 1


@dataclass
class _State:
    """How an existing exercise notebook compares with what the generator would write."""

    exists: bool
    identical: bool = False
    run_only: bool = False      # same content, but it has been run (outputs)
    edited: bool = False        # someone changed its content since it was generated
    stale: bool = False         # solutions/ changed since it was generated


def _compare(old_text: str | None, new: Any, new_text: str) -> _State:
    if old_text is None:
        return _State(exists=False)
    if old_text == new_text:
        return _State(exists=True, identical=True)
    old = nbformat.reads(old_text, as_version=4)
    now, wanted = content_hash(old), new.metadata["chutes_edu"]["content_hash"]
    recorded = old.metadata.get("chutes_edu", {}).get("content_hash")
    if now == wanted:
        return _State(exists=True, run_only=True)
    return _State(exists=True, edited=recorded != now, stale=recorded != wanted,
                  run_only=_has_outputs(old))


def _advice(rel: str, stem: str, state: _State) -> str:
    force = f"python tools/make_exercises.py --force solutions/{stem}.ipynb"
    if state.edited and state.stale:
        return (f"{rel} has edits of its own (someone worked in it) and solutions/{stem}.ipynb "
                f"changed since it was generated: `make exercises` leaves it alone. To replace "
                f"it with the new version, run `{force}` (it keeps your version as "
                f"{rel}.bak).")
    if state.edited:
        return (f"{rel} has edits of its own (someone worked in it); solutions/{stem}.ipynb did "
                f"not change, so there is nothing new to generate. Exercises are generated, "
                f"never edited by hand: to change the exercise, edit solutions/{stem}.ipynb and "
                f"run `make exercises`; to get a fresh copy, run `{force}` (it keeps your "
                f"version as {rel}.bak).")
    return f"{rel} is out of date (solutions/{stem}.ipynb changed): run `make exercises`."


def points_table(paths: list[Path]) -> str:
    """A markdown table of every set: exercises, points (checked + written), a time estimate."""
    rows = ["| set | exercises | points | checked automatically | written (by hand) "
            "| time (estimate) |", "|---|---|---|---|---|---|"]
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        exercises = exercises_of(nb)
        auto = sum(e.auto for e in exercises)
        manual = sum(e.manual for e in exercises)
        minutes = sum(e.minutes for e in exercises)
        name = set_stem(lesson_stem(path.stem), "exercises")
        rows.append(f"| `{name}` | {len(exercises)} | {auto + manual} | {auto} | {manual} "
                    f"| {round(minutes / 15) * 15} min |")
    return "\n".join(rows)


TABLE_START = "<!-- points table"
TABLE_END = "<!-- end of points table -->"


def with_points_table(guide: str, table: str) -> str:
    """``guide`` (TEACHING.md's text) with ``table`` between its points table's markers.

    Parameters
    ----------
    guide : str
        The text, holding a line that starts with :data:`TABLE_START` and, after it,
        :data:`TABLE_END`.
    table : str
        The table (:func:`points_table`).

    Returns
    -------
    str
        The text with the lines between the two markers replaced by ``table``.

    Raises
    ------
    ValueError
        If a marker is missing.
    """
    start = guide.find(TABLE_START)
    end = guide.find(TABLE_END, start)
    if start < 0 or end < 0:
        raise ValueError(f"no lines {TABLE_START!r} ... {TABLE_END!r} for the points table")
    head = guide.index("\n", start) + 1
    return f"{guide[:head]}{table}\n{guide[end:]}"


def _teaching_table(check: bool) -> str | None:
    """Bring TEACHING.md's points table in step with solutions/ (``check``: only say whether it
    is); a problem's words, or None. A tree with no TEACHING.md beside solutions/ has no table."""
    guide_path = SOLUTIONS.parent / "TEACHING.md"
    if not guide_path.exists():
        return None
    guide = guide_path.read_text(encoding="utf-8")
    new = with_points_table(guide, points_table(sorted(SOLUTIONS.glob("*.ipynb"))))
    if new == guide:
        return None
    if check:
        return "TEACHING.md's points table is not the sets' points: run `make exercises`."
    guide_path.write_text(new, encoding="utf-8")
    print("wrote the points table in TEACHING.md")
    return None


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0, or 1 when ``--check`` finds exercises to regenerate or edited, or
        TEACHING.md's points table out of step.
    """
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if an exercise is out of date or edited")
    parser.add_argument("--force", action="store_true",
                        help="overwrite edited exercises too (keeping a .bak copy)")
    parser.add_argument("--verify", action="store_true",
                        help="first run every solution; stop if a worked answer fails its check")
    parser.add_argument("--points", action="store_true",
                        help="print the points table of the sets (markdown) and exit")
    parser.add_argument("notebooks", nargs="*", type=Path, help="solution notebooks (default: all)")
    args = parser.parse_args(argv)

    sources = [Path(p).resolve() for p in args.notebooks] or sorted(SOLUTIONS.glob("*.ipynb"))
    if args.points:
        print(points_table(sources))
        return 0
    problems: list[str] = []
    if args.verify and not args.check:
        wrong = verify_solutions(sources)
        if wrong:
            print("\n".join(wrong) + "\nNothing was written: fix the solution or its check.")
            return 1
    if not args.check:
        EXERCISES.mkdir(exist_ok=True)
    for path in sources:
        stem = path.stem
        exercises = set_stem(lesson_stem(stem), "exercises")
        rel = f"exercises/{exercises}.ipynb"
        solution_text = path.read_text()
        solution = nbformat.reads(solution_text, as_version=4)
        _mark_cells(solution)
        new_solution_text = _text(solution)
        target = EXERCISES / f"{exercises}.ipynb"
        exercise = build_exercise(solution, stem)
        exercise_text = _text(exercise)
        state = _compare(target.read_text() if target.exists() else None, exercise, exercise_text)

        numbers_name, numbers = numbers_text(solution, stem)
        numbers_path = NUMBERS / numbers_name
        numbers_now = numbers_path.read_text() if numbers_path.exists() else None
        if args.check:
            if numbers_now != numbers:
                problems.append(f"chutes_edu/numbers/{numbers_name} does not hold the numbers "
                                f"declared in solutions/{stem}.ipynb: run `make exercises`.")
            if new_solution_text != solution_text:
                problems.append(f"solutions/{stem}.ipynb lacks its nbgrader metadata or points "
                                "cell: run `make exercises`.")
            if not state.exists:
                problems.append(f"{rel} is missing: run `make exercises`.")
            elif not (state.identical or (state.run_only and not state.edited)):
                problems.append(_advice(rel, stem, state))
            continue
        if numbers_now != numbers:
            if numbers is None:
                numbers_path.unlink()
            else:
                NUMBERS.mkdir(exist_ok=True)
                numbers_path.write_text(numbers)
            print(f"wrote chutes_edu/numbers/{numbers_name}")
        if new_solution_text != solution_text:
            path.write_text(new_solution_text)
            print(f"updated the nbgrader metadata and points of solutions/{stem}.ipynb")
        if state.identical or (state.run_only and not state.edited and not state.stale):
            continue                   # up to date (perhaps run: outputs are not edits)
        if state.edited and not args.force:
            print(_advice(rel, stem, state))
            continue
        if state.edited or state.run_only:
            print(f"kept the old {rel} as {_backup(target).name}")
        target.write_text(exercise_text)
        print(f"wrote {rel}")
    table = _teaching_table(check=args.check)
    if table:
        problems.append(table)

    if problems:
        print("\n".join(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
