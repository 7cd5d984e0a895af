"""Peak memory and CPU time of one kernel per notebook: the numbers behind hub/README.md's sizing.

Runs each notebook given (default: every lesson and every exercise set, unattempted) on a fresh
local python3 kernel, one after another, and prints the kernel's peak resident memory (VmHWM from
/proc, read just before the kernel is shut down) and its CPU time. Linux only.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python hub/measure_notebooks.py [NOTEBOOK ...] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent


def _status(pid: int) -> dict[str, str]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return fields


def measure(path: Path) -> dict[str, object]:
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    started = time.monotonic()
    error = ""
    with client.setup_kernel():
        pid = client.km.provisioner.process.pid  # type: ignore[union-attr]
        try:
            for index, cell in enumerate(nb.cells):
                client.execute_cell(cell, index)
        except Exception as e:  # a failing notebook is reported, not fatal
            error = f"{type(e).__name__}: {str(e)[-200:]}"
        status = _status(pid)
        ticks = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        hz = os.sysconf("SC_CLK_TCK")
        cpu = (int(ticks[11]) + int(ticks[12])) / hz
    return {"notebook": str(path.relative_to(ROOT)),
            "peak_rss_mib": round(int(status["VmHWM"].split()[0]) / 1024, 1),
            "cpu_s": round(cpu, 1), "wall_s": round(time.monotonic() - started, 1),
            "error": error}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    paths = [p.resolve() for p in args.notebooks] or sorted(
        [*(ROOT / "lessons").glob("*.ipynb"), *(ROOT / "exercises").glob("*.ipynb")])
    rows = []
    print(f"{'notebook':48} {'peak MiB':>9} {'CPU s':>7} {'wall s':>7}")
    for path in paths:
        row = measure(path)
        rows.append(row)
        print(f"{row['notebook']:48} {row['peak_rss_mib']:9} {row['cpu_s']:7} {row['wall_s']:7}"
              + (f"  {row['error']}" if row["error"] else ""), flush=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1))
    return 1 if any(r["error"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
