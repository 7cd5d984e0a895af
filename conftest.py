"""How the whole suite runs in one pytest session (``make test``), over every core.

Three things, each measured before it was chosen (CONTRIBUTING.md, "Running the tests"):

1. **Every checked notebook under every OpenBLAS kernel, in one session.** ``--openblas-kernels
   "Haswell Prescott"`` collects each notebook nbval collects once more per named kernel (but a
   kernel the notebooks' own run already uses: some machines name one in ``OPENBLAS_CORETYPE``
   for every process, and OpenBLAS, asked through threadpoolctl, says which it runs), as
   ``lessons/05_exact_answers.ipynb[Haswell]::Cell 33``. OpenBLAS picks its kernel when the
   library loads, from ``OPENBLAS_CORETYPE``, so each copy starts its own Jupyter kernel with the
   variable set (the pytest process itself keeps the machine's own). The cells and the checked
   outputs are the same as in a separate ``OPENBLAS_CORETYPE=Haswell pytest`` run: a printed
   float-rounding accident still fails, but the copies share the workers with everything else
   instead of waiting in line.
2. **Work that shares a costly set-up stays on one worker** (pytest-xdist's ``--dist loadgroup``):
   every test that uses a module- or class-scoped fixture (a running Voila, JupyterHub or
   Chromium, an nbgrader course) is grouped with its module, and the cells of one notebook copy
   with each other (they share a kernel). The rest goes wherever a core is free: the built website
   too, which the workers share (tests/site_build.py builds it once for them all), as they share
   each nbgrader course generated for the grading tests (tests/shared_course.py).
3. **The long groups start first**: the suite is ordered by what each group costs (``_COST``,
   seconds measured with ``--durations``), so no worker is left with a long group at the end.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from nbval.plugin import IPyNbFile

from tests import kernel_ports

# As in the Makefile: small matrices run faster on one BLAS thread, and with a worker per core (and
# one more) every further thread only fights the other workers for a core. Set before any kernel or
# server starts.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

# What a group (or a test, by the start of its node id) costs in seconds, measured on 2 cores
# (``pytest --durations=0``; the costliest groups re-measured in a fresh clone's `make test`, the
# costliest-files table it prints): the costly ones start first. Anything not named here counts as
# cheap; a wrong figure only makes the order worse, never a result.
_COST = {
    "tests/test_nbgrader.py": 350,
    "tests/test_grading_sandbox.py": 290,
    "tests/test_accessibility_course.py": 310,
    "tests/test_hub_grading.py": 370,
    # the hostile class: a teacher's server and formgrader, Chromium, bombs, the judge's bounds
    "tests/test_formgrader_server.py": 145,
    "tests/test_judge_bounds.py::test_every_record": 110,
    "tests/test_grading_bombs.py": 90,
    "tests/test_formgrader_attacks.py": 75,
    "tests/test_lms_class.py": 90,
    "tests/test_export_resilience.py::test_a_class": 35,
    "tests/test_student_image.py": 35,
    "tests/test_teacher_lab.py": 30,
    "tests/test_formgrader_scores.py": 20,
    # the website's pages, reflow and focus, and its PDFs (the site is built once for all workers)
    "tests/test_site.py": 650,
    "tests/test_site_wcag.py": 110,
    "tests/test_pdf.py": 210,
    "tests/test_site_es.py": 45,
    "tests/test_explorers_es.py": 30,
    "tests/test_hub.py": 105,
    "tests/test_binder.py": 135,
    "tests/test_gradebook.py::test_roster_due_date": 60,
    "tests/test_gradebook.py::test_make_teacher": 40,
    "tests/test_variants.py::test_a_students": 9,
    "tests/test_browser.py": 30,
    "tests/test_accessibility.py": 25,
    "tests/test_board_editor_browser.py": 20,
    "tests/test_race_explorer_browser.py": 18,
    "tests/test_jump_explorer_browser.py": 18,
    "tests/test_coin_explorer_browser.py": 16,
    "tests/test_policy_explorer_browser.py": 17,
    "tests/test_simulation_explorer_browser.py": 35,
    "tests/test_board_explorer_browser.py": 30,
    "tests/test_design_explorer_browser.py": 20,
    # the Node suites against the library: each with its fixtures (one group a suite)
    "tests/test_js_parity.py::test_node_suite[design_math]": 40,
    "tests/test_js_parity.py::test_node_suite[jump_math]": 20,
    "tests/test_js_parity.py::test_node_suite[board_explorer_math]": 15,
    "tests/test_js_parity.py::test_node_suite[board_math]": 7,
    "tests/test_js_parity.py::test_node_suite[race_board]": 5,
    "lessons/": 8,
    "solutions/": 6,
    "tests/notebooks/": 6,
    "es/": 6,
    "tests/test_exercises.py::test_untouched": 2.5,
    "tests/test_openblas_kernels.py": 2,
}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--openblas-kernels", default="", metavar="NAMES",
        help="also run every collected notebook under each of these OpenBLAS kernels "
             "(OPENBLAS_CORETYPE), space- or comma-separated, e.g. 'Haswell Prescott'")


def _kernels(config: pytest.Config) -> list[str]:
    return config.getoption("openblas_kernels").replace(",", " ").split()


_ARCHITECTURE = ("import json, numpy, threadpoolctl; print(json.dumps([i.get('architecture') for i "
                 "in threadpoolctl.threadpool_info() if i.get('internal_api') == 'openblas']))")


def openblas_architecture(coretype: str | None) -> str | None:
    """The kernel OpenBLAS runs in a Python started with ``OPENBLAS_CORETYPE=coretype`` (None:
    with this process's environment, as a notebook's own kernel starts), as threadpoolctl reads
    it (``Prescott`` runs ``Katmai``); None when numpy loads no OpenBLAS."""
    import json
    import subprocess

    env = dict(os.environ)
    if coretype is not None:
        env["OPENBLAS_CORETYPE"] = coretype
    done = subprocess.run([sys.executable, "-c", _ARCHITECTURE], env=env, capture_output=True,
                          text=True, timeout=120, check=True)
    found = json.loads(done.stdout)
    return str(found[0]) if found else None


def _copies(kernels: list[str]) -> tuple[list[str], list[str]]:
    """The kernels to run the notebooks under once more, and those the notebooks' own run
    already uses (a machine may name one in OPENBLAS_CORETYPE for every process): the same
    OpenBLAS code, so the same outputs; they are not run twice."""
    if not kernels:
        return [], []
    own = openblas_architecture(None)
    same = [k for k in kernels if own is not None and openblas_architecture(k) == own]
    return [k for k in kernels if k not in same], same


def pytest_configure(config: pytest.Config) -> None:
    # the kernels this process starts (nbval's, nbclient's) take ports no other process takes
    first = kernel_ports.WORKER_KERNELS_FROM + 1000 * kernel_ports.worker_index()
    kernel_ports.use_port_block(first, 1000)
    config.pluginmanager.register(_GroupsArrived(), "xdist-groups-arrived")
    worker = getattr(config, "workerinput", None)
    if worker is not None and _COPIES in worker:   # the controller asked OpenBLAS once for all
        copies = list(worker[_COPIES])
    else:                                      # the controller (or a run without xdist)
        copies, same = _copies(_kernels(config))
        config.pluginmanager.register(_TimeByPart(copies, same), "time-by-part")
        config.pluginmanager.register(_HandCopies(copies), "openblas-copies-to-workers")
    for kernel in copies:
        config.pluginmanager.register(_KernelCopies(kernel), f"openblas-kernel-{kernel}")


_COPIES = "chutes_openblas_copies"


class _HandCopies:
    """Hands the controller's answer of :func:`_copies` to each xdist worker (each would
    otherwise start two Pythons of its own to ask OpenBLAS again)."""

    def __init__(self, copies: list[str]) -> None:
        self.copies = copies

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[_COPIES] = list(self.copies)


class _UnderKernel(IPyNbFile):
    """nbval's notebook, run in a Jupyter kernel started under one OpenBLAS kernel."""

    coretype = ""

    def setup(self) -> None:
        # The Jupyter kernel is a child process: it takes the environment as it is now.
        before = os.environ.get("OPENBLAS_CORETYPE")
        os.environ["OPENBLAS_CORETYPE"] = self.coretype
        try:
            super().setup()
            _assert_kernel_environment(self.kernel, self.coretype)
        finally:
            if before is None:
                del os.environ["OPENBLAS_CORETYPE"]
            else:
                os.environ["OPENBLAS_CORETYPE"] = before


class _KernelCopies:
    """Collects a second copy of each notebook nbval collects, run under one OpenBLAS kernel."""

    def __init__(self, coretype: str) -> None:
        self.coretype = coretype

    def pytest_collect_file(self, file_path: Path, parent: pytest.Collector) -> pytest.File | None:
        option = parent.config.option
        if file_path.suffix != ".ipynb" or not (option.nbval or option.nbval_lax):
            return None
        rel = file_path.relative_to(parent.config.rootpath).as_posix()
        if rel.startswith("es/"):
            # The Spanish notebooks run the English code with other words (tools/translations.py):
            # a rounding accident of another kernel shows in the English copy; they run once.
            return None
        copy = _UnderKernel.from_parent(parent, path=file_path,
                                        name=f"{file_path.name}[{self.coretype}]",
                                        nodeid=f"{rel}[{self.coretype}]")
        copy.coretype = self.coretype
        return copy


def _assert_kernel_environment(kernel: object, coretype: str) -> None:
    """The notebook's Jupyter kernel really started with OPENBLAS_CORETYPE set (read from /proc)."""
    import psutil

    pid = kernel.km.provisioner.pid  # type: ignore[attr-defined]
    seen = psutil.Process(pid).environ().get("OPENBLAS_CORETYPE")
    assert seen == coretype, f"the kernel runs with OPENBLAS_CORETYPE={seen!r}, not {coretype!r}"


def _group(item: pytest.Item) -> str | None:
    """The xdist group an item must share a worker with, or None if it can go anywhere."""
    parent = item.parent
    if isinstance(parent, IPyNbFile):
        # the cells of one notebook share a kernel (no "]" in a group name: xdist reads it as a
        # parameter's end)
        return parent.nodeid.replace("[", ":").replace("]", "")
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    for name in info.names_closure:
        for fixturedef in info.name2fixturedefs.get(name, ()):
            if fixturedef.scope in ("module", "class", "package"):
                return item.nodeid.split("::", 1)[0]
    return None


def _cost(nodeid: str) -> float:
    return max((cost for prefix, cost in _COST.items() if nodeid.startswith(prefix)), default=0.0)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The Spanish notebooks (es/) run under nbval only once their page is fully translated: those
    listed in locale/es/COMPLETE (tools/translations.py); es/exercises, like exercises/, never."""
    es = Path(__file__).parent / "es"
    if collection_path.suffix != ".ipynb" or es not in collection_path.parents:
        return None
    lines = (es.parent / "locale" / "es" / "COMPLETE").read_text(encoding="utf-8").splitlines()
    listed = {line.split("#")[0].strip() for line in lines}
    return collection_path.relative_to(es).as_posix() not in listed


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each item's xdist group and put the costly groups first (a stable sort)."""
    for item in items:
        group = _group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    items.sort(key=lambda item: -_cost(item.nodeid))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop the Chromium this process shares among its browser tests (tests/browser.py), if any."""
    shared = sys.modules.get("tests.browser")
    if shared is not None:
        shared.close_chromium()


class _GroupsArrived:
    """Stops the run if xdist did not take the groups (pytest-xdist 3.8 puts them in ``_nodeid``,
    which pytest 9 no longer reads): costly set-ups would then run once per worker."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        if not getattr(config.option, "loadgroup", False):
            return
        for item in items:
            mark = item.get_closest_marker("xdist_group")
            if mark is not None and not item.nodeid.endswith(f"@{mark.args[0]}"):
                raise pytest.UsageError(
                    f"pytest-xdist did not group {item.nodeid}: this pytest and pytest-xdist do "
                    "not work together (see pyproject.toml, where pytest is pinned)")


class _TimeByPart:
    """The closing table of ``pytest``: what each part of the suite cost and how many passed.

    Seconds are the tests' own (set-up, call and tear-down), added over all workers: the parts ran
    side by side, so they add up to more than the run's wall time, which pytest prints last.
    """

    def __init__(self, kernels: list[str], own: list[str] | None = None) -> None:
        self.kernels = kernels
        self.own = own or []
        self.seconds: dict[str, float] = {}
        self.by_file: dict[str, float] = {}
        self.passed: dict[str, int] = {}
        self.failed: dict[str, int] = {}

    def _part(self, report: pytest.TestReport) -> str:
        path = report.nodeid.split("::", 1)[0]
        if path.endswith(".ipynb"):
            return "notebooks, the machine's own OpenBLAS kernel"
        for kernel in self.kernels:
            if path.endswith(f".ipynb[{kernel}]"):
                return f"notebooks, OPENBLAS_CORETYPE={kernel}"
        if "browser" in report.keywords:
            return "browser tests (Chromium)"
        if "slow" in report.keywords:
            return "other slow tests: hub, nbgrader, sweeps, ..."
        return "everything else"

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        part = self._part(report)
        self.seconds[part] = self.seconds.get(part, 0.0) + report.duration
        path = report.nodeid.split("::", 1)[0].split("@", 1)[0]
        self.by_file[path] = self.by_file.get(path, 0.0) + report.duration
        if report.when == "call" and report.passed:
            self.passed[part] = self.passed.get(part, 0) + 1
        elif report.failed:
            self.failed[part] = self.failed.get(part, 0) + 1

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.seconds:
            return
        terminalreporter.section("time by part of the suite (test seconds, all workers together)")
        lines = []
        for part, seconds in sorted(self.seconds.items(), key=lambda kv: -kv[1]):
            failed = f", {self.failed[part]} failed" if self.failed.get(part) else ""
            passed = self.passed.get(part, 0)
            lines.append(f"{part:<48} {seconds:7.1f} s   {passed:5d} passed{failed}")
        lines += [f"(notebooks under OPENBLAS_CORETYPE={kernel}: their own run above, which "
                  "OpenBLAS already runs with that kernel)" for kernel in self.own]
        for line in lines:
            terminalreporter.write_line(line)
        # where to look first when the suite is too slow: the costliest files (a notebook's
        # copies under other OpenBLAS kernels are files of their own)
        terminalreporter.section("the costliest test files (test seconds)")
        for path, seconds in sorted(self.by_file.items(), key=lambda kv: -kv[1])[:15]:
            terminalreporter.write_line(f"{path:<60} {seconds:7.1f} s")
        log = os.environ.get("STAGE_LOG")     # `make test`'s table of stages (tools/stage.sh)
        if log:
            with open(log, "a", encoding="utf-8") as table:
                table.write("  inside the tests (test seconds, all workers together):\n"
                            + "".join(f"    {line}\n" for line in lines))
