"""No Markdown cell of the course renders as a numbered list its author did not mean.

JupyterLab renders Markdown with marked, which lets a wrapped line that begins with a number and
a dot ("  1960.") start a new numbered list inside a list item: a reference broke in two that way.
CommonMark parsers (markdown-it-py, the website's) do not, so this test asks marked itself, the
version pinned in tests/js/package.json, run by Node (tests/js/markdown_lists.mjs).
"""

from __future__ import annotations

import json
import subprocess

import nbformat
import pytest

from .support import ROOT, course_notebooks, node_tools


@pytest.fixture(scope="module")
def cells() -> list[dict[str, str]]:
    found = []
    for path in course_notebooks():
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                found.append({"where": f"{path.relative_to(ROOT)} cell {cell.get('id')}",
                              "source": cell.source})
    return found


def _unintended_lists(cells: list[dict[str, str]]) -> list[dict[str, str]]:
    node, tools = node_tools()
    done = subprocess.run([node, str(tools / "markdown_lists.mjs")], input=json.dumps(cells),
                          capture_output=True, text=True, cwd=tools, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_checker_finds_a_year_that_starts_a_list() -> None:
    broken = ("- **Kemeny & Snell (1960)** — J. G. Kemeny and J. L. Snell, *Finite Markov "
              "Chains*, Van Nostrand,\n  1960.\n  Taken here: the fundamental matrix.\n")
    fine = "1. first step\n2. second step\n\nA paragraph that\n2023. wraps like this.\n"
    found = _unintended_lists([{"where": "broken", "source": broken},
                               {"where": "fine", "source": fine}])
    assert [p["where"] for p in found] == ["broken"]
    assert found[0]["start"] == 1960


def test_no_markdown_cell_makes_an_unintended_numbered_list(cells) -> None:
    problems = _unintended_lists(cells)
    assert not problems, "\n".join(
        f"{p['where']}: the line {p['line']!r} starts a numbered list (from {p['start']}) in "
        "JupyterLab: rewrap the paragraph so that no line begins with a number and a dot"
        for p in problems)
