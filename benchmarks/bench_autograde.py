"""How long a class takes to autograde, each submission in its sandbox (`make bench`, or alone).

A course folder with set 1 (tests/support.make_course, the repository's nbgrader_config.py) gets
N submissions, alternately the worked solutions and the untouched release, and the batch command
``python -m chutes_teacher.autograde 01_exercises_waiting_for_heads --jobs J`` grades them. It
prints the wall-clock time, the time per submission, the CPU seconds per submission (user and
system time of every process the command started, sandboxes and kernels included: a number a busy
machine changes far less than the wall-clock one), the machine's load when it started, and what
the summary says (graded, failed, "database is locked" retries). A time, not a goal: nothing here
is asserted.

    make bench-autograde N=120 JOBS=2
    .venv/bin/python benchmarks/bench_autograde.py --submissions 120 --jobs 2
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.support import NBGRADER_BIN, make_course, released_name  # noqa: E402

SOLUTION = ROOT / "solutions" / "01_solutions_waiting_for_heads.ipynb"


def autograde_timing(submissions: int = 120, jobs: int = 2) -> list[tuple[str, float]]:
    """Autograde ``submissions`` of set 1, ``jobs`` at a time; (what, seconds) rows.

    Parameters
    ----------
    submissions : int
        How many students hand in (half the worked solutions, half the untouched release).
    jobs : int
        nbgrader processes at once.

    Returns
    -------
    list of (str, float)
        The whole class's time, the time per submission and the CPU seconds per submission.
    """
    set_name = Path(released_name(SOLUTION)).stem
    with tempfile.TemporaryDirectory(prefix="bench-autograde-") as tmp:
        course = make_course(Path(tmp) / "course", set_name, [SOLUTION])
        release = course / "release" / set_name / f"{set_name}.ipynb"
        for k in range(submissions):
            folder = course / "submitted" / f"student{k:03d}" / set_name
            folder.mkdir(parents=True)
            shutil.copy(SOLUTION if k % 2 == 0 else release, folder / f"{set_name}.ipynb")
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1",
               "PATH": f"{NBGRADER_BIN}{os.pathsep}{os.environ['PATH']}"}
        load = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "chutes_teacher.autograde", set_name,
                               "--jobs", str(jobs)], cwd=course, env=env, capture_output=True,
                              text=True, check=False)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
        retried = len(re.findall(r", \d+ runs$", done.stdout, flags=re.M))
        print(f"  {summary} ({retried} retried after 'database is locked'; load {load:.1f} "
              f"at the start on {os.cpu_count()} cores)", flush=True)
    return [(f"autograde set 1, {submissions} submissions, --jobs {jobs}", wall),
            ("  per submission", wall / submissions),
            ("  CPU seconds per submission", cpu / submissions)]


def main() -> int:
    """Run the timing from the command line; always exits 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=120)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    for name, seconds in autograde_timing(args.submissions, args.jobs):
        print(f"{name:<46} {seconds:10.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
