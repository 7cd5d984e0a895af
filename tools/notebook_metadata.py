"""Give every course notebook the metadata its kernel writes, so that opening it changes nothing.

JupyterLab rewrites a notebook's ``kernelspec`` and ``language_info`` with what the kernel reports
as soon as the kernel starts, and marks the notebook as changed unless they are already exactly
equal. So every notebook of the course is saved with

- ``kernelspec``: the course kernel's spec (``python3``, shown as "Python 3 (ipykernel)");
- ``language_info``: the kernel's ``kernel_info_reply`` (Python's version included: the pinned
  course environment, binder/runtime.txt, runs the same Python as the one that saved them);

and without nbclient's per-cell timing metadata (``metadata.execution``), which JupyterLab drops
on the first save and which only makes every run a diff.

Usage: ``python tools/notebook_metadata.py [--check] [NOTEBOOK ...]`` (default: the start page,
lessons, exercise sets, solutions and tests/notebooks). ``--check`` writes nothing and exits 1 if a
notebook would change.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parent.parent
KERNEL = "python3"


def course_notebooks() -> list[Path]:
    """The start page, lessons, exercise sets, solutions and the test notebooks."""
    return [ROOT / "start_here.ipynb",
            *(p for folder in ("lessons", "exercises", "solutions", "tests/notebooks")
              for p in sorted((ROOT / folder).glob("*.ipynb")))]


def kernel_metadata(kernel: str = KERNEL) -> dict[str, Any]:
    """``{"kernelspec": ..., "language_info": ...}`` as the kernel ``kernel`` reports them."""
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name=kernel)
    try:
        client.kernel_info()
        reply = client.get_shell_msg(timeout=60)["content"]
        spec = manager.kernel_spec
        assert spec is not None
        return {"kernelspec": {"display_name": spec.display_name, "language": spec.language,
                               "name": kernel},
                "language_info": reply["language_info"]}
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def normalised(nb: nbformat.NotebookNode, metadata: dict[str, Any]) -> nbformat.NotebookNode:
    """A copy of ``nb`` with the kernel's metadata and no per-cell timing."""
    out = nbformat.from_dict(json.loads(json.dumps(nb)))
    out.metadata.update(json.loads(json.dumps(metadata)))
    for cell in out.cells:
        cell.metadata.pop("execution", None)
    return out


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a notebook would change")
    parser.add_argument("notebooks", nargs="*", type=Path)
    args = parser.parse_args(argv)
    metadata = kernel_metadata()
    stale = []
    for path in args.notebooks or course_notebooks():
        text = path.read_text(encoding="utf-8")
        nb = nbformat.reads(text, as_version=4)
        new = nbformat.writes(normalised(nb, metadata)) + "\n"
        if new != text:
            stale.append(path)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    verb = "would change" if args.check else "updated"
    for path in stale:
        print(f"{verb}: {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
