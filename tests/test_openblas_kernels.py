"""The checked notebooks really run under each OpenBLAS kernel ``make test`` names.

``conftest.py`` collects every notebook once more per kernel (``--openblas-kernels``) and starts
that copy's Jupyter kernel with ``OPENBLAS_CORETYPE`` set. These tests show that the variable is
what OpenBLAS obeys here (threadpoolctl reads the kernel OpenBLAS chose), and that a copy's checked
output is compared under its own kernel: a notebook whose saved output is the name of one kernel
passes under that kernel and fails under the machine's own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from conftest import openblas_architecture

ROOT = Path(__file__).resolve().parent.parent
# OpenBLAS names the kernel it runs; for OPENBLAS_CORETYPE=Prescott it says "Katmai", the name of
# the SSE kernel family that Prescott's kernels belong to.
NAMES = {"Haswell": {"Haswell"}, "Prescott": {"Prescott", "Katmai"}}


def _architecture(coretype: str | None) -> str:
    found = openblas_architecture(coretype)
    assert found is not None, "numpy loads no OpenBLAS here"
    return found


@pytest.mark.parametrize("coretype", sorted(NAMES))
def test_openblas_obeys_the_coretype(coretype: str) -> None:
    assert _architecture(coretype) in NAMES[coretype]


def test_a_notebook_copy_runs_and_is_checked_under_its_own_kernel(tmp_path: Path) -> None:
    # the kernel a plain run gets: the machine's own, or the one its environment already names
    # (some machines here set OPENBLAS_CORETYPE for every process)
    native = _architecture(os.environ.get("OPENBLAS_CORETYPE"))
    coretype = next((k for k in sorted(NAMES) if native not in NAMES[k]), None)
    if coretype is None:
        pytest.skip(f"this machine's own OpenBLAS kernel is {native}")
    under = _architecture(coretype)
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(
        "import numpy, threadpoolctl\n"
        "print([i.get('architecture') for i in threadpoolctl.threadpool_info()\n"
        "       if i.get('internal_api') == 'openblas'][0])")
    cell.metadata["tags"] = ["nbval-check-output"]
    cell.execution_count = 1
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=under + "\n")]
    nb.cells = [cell]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, tmp_path / "which_kernel.ipynb")
    shutil.copy(ROOT / "conftest.py", tmp_path)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-rA",
         "--nbval-lax", "--nbval-current-env", "--openblas-kernels", coretype,
         "which_kernel.ipynb"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={k: v for k, v in os.environ.items() if k != "STAGE_LOG"})   # not make test's table
    out = done.stdout
    assert f"PASSED which_kernel.ipynb[{coretype}]::Cell 0" in out, out[-3000:]
    assert "FAILED which_kernel.ipynb::Cell 0" in out, out[-3000:]
    assert "1 failed, 1 passed" in out, out[-3000:]


def test_a_copy_under_the_kernel_the_own_run_already_uses_is_not_run_twice(
        tmp_path: Path) -> None:
    """A machine may name a kernel in OPENBLAS_CORETYPE for every process (this one does): a copy
    under that kernel would run the same OpenBLAS code again. It is left out, and said."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)")])
    nb.cells[0].execution_count = 1
    nb.cells[0].outputs = [nbformat.v4.new_output("stream", name="stdout", text="1\n")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, tmp_path / "once.ipynb")
    shutil.copy(ROOT / "conftest.py", tmp_path)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    env = {k: v for k, v in os.environ.items() if k != "STAGE_LOG"}
    env["OPENBLAS_CORETYPE"] = "Prescott"            # every process runs Prescott's kernel
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-rA",
         "--nbval", "--nbval-current-env", "--openblas-kernels", "Prescott Haswell",
         "once.ipynb"], cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    out = done.stdout
    assert "PASSED once.ipynb::Cell 0" in out and "PASSED once.ipynb[Haswell]::Cell 0" in out, out
    assert "once.ipynb[Prescott]" not in out, out[-3000:]
    assert "OPENBLAS_CORETYPE=Prescott: their own run above" in out, out[-3000:]

