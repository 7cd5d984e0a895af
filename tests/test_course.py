"""The course as a student meets it: notebooks carry no test plumbing in the code they read."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(p for folder in ("lessons", "solutions", "exercises")
                   for p in (ROOT / folder).glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[f"{p.parent.name}/{p.stem}" for p in NOTEBOOKS])
def test_no_nbval_markers_in_code(path: Path) -> None:
    """nbval's markers live in cell tags, not in comments that students read."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        assert "NBVAL_" not in cell.source, f"{path.name}: {cell.source[:200]}"
