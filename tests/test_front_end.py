"""The explorers' front ends as esbuild builds them (chutes_edu/widgets/_front_end.py).

Each explorer's ``_esm`` is its built module in chutes_edu/widgets/static/, which holds every module
it imports once (its source map lists them) and no import left; the course website's classic
scripts are one per front end, each holding its modules and publishing its ``mount``, and a small
runtime draws with them what a page asks for, one place a task, what is on the screen first; the
built files are what the sources build to (`make lint` checks it too: ``node tools/build_front_end.mjs --check``),
and the check bites when a source changes; the registry, the Python classes and the JS agree.
"""

from __future__ import annotations

import json
import posixpath
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from chutes_edu import widgets
from chutes_edu.widgets._front_end import JS, STATIC, front_ends, site_script

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
ESBUILD = ROOT / "node_modules" / "esbuild"
needs_node = pytest.mark.skipif(NODE is None, reason="needs Node")
needs_esbuild = pytest.mark.skipif(NODE is None or not ESBUILD.is_dir(),
                                   reason="needs Node and esbuild (npm ci, as `make test` runs)")

# what each front end must hold (its maths and pictures), besides its entry module
HOLDS = {
    "board_editor": ("maths/board_math.js", "ui/runner.js", "ui/board_picture.js", "core/format.js",
                     "core/solve.js", "core/steps.js"),
    "coin_explorer": ("maths/coin_math.js", "ui/convergence_chart.js", "ui/controls.js", "maths/board_math.js",
                      "core/random.js"),
    "board_explorer": ("maths/board_math.js", "maths/board_explorer_math.js", "ui/heat_map_board.js",
                       "explorers/board_explorer/chart.js", "ui/board_picture.js", "ui/runner.js",
                       "ui/controls.js", "core/exact.js"),
    "simulation_explorer": ("maths/simulation_math.js", "maths/coin_math.js", "ui/convergence_chart.js",
                            "ui/controls.js", "maths/board_math.js", "core/random.js"),
    "race_explorer": ("maths/race_math.js", "explorers/race_explorer/chart.js", "ui/controls.js", "maths/board_math.js",
                      "explorers/race_explorer/board.js", "ui/board_picture.js"),
    "jump_explorer": ("maths/jump_math.js", "explorers/jump_explorer/chart.js", "ui/controls.js", "maths/board_math.js",
                      "ui/runner.js"),
    "policy_explorer": ("maths/policy_math.js", "explorers/policy_explorer/picture.js", "ui/controls.js", "maths/board_math.js",
                        "ui/runner.js", "core/solve.js"),
    "design_explorer": ("maths/design_math.js", "explorers/design_explorer/chart.js", "maths/board_math.js", "ui/controls.js",
                        "core/exact.js", "core/solve.js"),
}
FRONTS = list(front_ends().values())


def _sources(built: Path) -> list[str]:
    """The modules a built file holds, from its source map (relative to js/)."""
    sources = json.loads(built.with_name(built.name + ".map").read_text())["sources"]
    return [posixpath.relpath(s, "../js") for s in sources]


def test_the_registry_names_every_explorer_and_nothing_else() -> None:
    assert set(HOLDS) == {front.name for front in FRONTS}
    assert {front.widget_class for front in FRONTS} == set(widgets.__all__)
    for front in FRONTS:
        assert (JS / front.entry).is_file() and all((JS / s).is_file() for s in front.styles)


@pytest.mark.parametrize("front", FRONTS, ids=[f.name for f in FRONTS])
def test_each_explorer_loads_its_built_module_which_holds_each_module_once(front) -> None:
    widget = getattr(widgets, front.widget_class)
    source = front.module_source()
    assert str(widget._esm) == source and str(widget._css) == front.style_source()
    # anywidget reads the file (and, with ANYWIDGET_HMR=1, follows it): a path, not a copy
    assert Path(widget._esm._path) == STATIC / f"{front.name}.js"
    held = _sources(front.module_path)
    assert len(held) == len(set(held)), held
    assert {front.entry, *HOLDS[front.name]} <= set(held)
    assert not re.search(r'(?:^|[;}])\s*import\b[^;]*from\s*"', source)      # nothing left to load
    assert "ui/controls.css" in _sources(front.style_path)
    for trait in front.page_traits:
        assert widget.class_traits()[trait].metadata.get("sync"), trait


@needs_node
@pytest.mark.parametrize("front", FRONTS, ids=[f.name for f in FRONTS])
def test_each_built_module_imports_in_node_and_exports_what_anywidget_needs(front) -> None:
    script = (f"const m = await import({json.dumps(front.module_path.as_uri())});"
              "console.log(JSON.stringify({render: typeof m.default.render, "
              "mount: typeof m.mount, traits: m.TRAITS ?? null}));")
    done = subprocess.run([NODE or "node", "--input-type=module", "-e", script],
                          capture_output=True, text=True, timeout=60, check=False)
    # and silently: Node knows them for ES modules (chutes_edu/widgets/package.json), and does
    # not warn that it had to guess
    assert done.returncode == 0 and not done.stderr, done.stderr
    found = json.loads(done.stdout)
    assert found["render"] == "function" and found["mount"] == "function"
    if found["traits"] is not None:        # the page's traits are the explorer's own
        assert set(front.page_traits) <= set(found["traits"])


# The website's scripts (issue 52): one per front end, and the runtime that draws with them.
SITE_SCRIPTS = {f"site-{front.name}.js": (front.entry, front.global_name, HOLDS[front.name])
                for front in FRONTS}
SITE_SCRIPTS["site-calculator.js"] = ("site/calculator.js", "ChutesCalculator",
                                      ("maths/board_math.js", "maths/jump_math.js"))
# Node with a page's few globals: the script read from argv[1] runs as a browser would run it
# (a classic script, `new Function`), then what it published is printed
_RUN_SITE_SCRIPT = """
globalThis.window = globalThis;
const before = new Set(Object.keys(window));
const source = await (await import("node:fs/promises")).readFile(process.argv[1], "utf8");
new Function(source)();
const published = Object.keys(window).filter((k) => !before.has(k));
console.log(JSON.stringify(Object.fromEntries(published.map((k) => [k,
  Object.fromEntries(Object.entries(window[k]).map(([n, v]) => [n, typeof v]))]))));
"""


@needs_node
@pytest.mark.parametrize("name", sorted(SITE_SCRIPTS))
def test_each_site_script_holds_its_front_end_alone_and_publishes_its_mount(name: str) -> None:
    """site-<name>.js: the front end's modules, each once, none of another front end's, and,
    run as a page runs it, it publishes its mount under its global and nothing else."""
    entry, global_name, holds = SITE_SCRIPTS[name]
    held = _sources(STATIC / name)
    assert len(held) == len(set(held)), held
    assert {entry, *holds} <= set(held)
    # another explorer's folder, or the calculator's module
    own = entry if entry.startswith("site/") else entry.rpartition("/")[0] + "/"
    others = {e if e.startswith("site/") else e.rpartition("/")[0] + "/"
              for e, _, _ in SITE_SCRIPTS.values()} - {own}
    assert not [m for m in held if any(m.startswith(o) for o in others)], held
    done = subprocess.run([NODE or "node", "--input-type=module", "-e", _RUN_SITE_SCRIPT,
                           str(STATIC / name)], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == {global_name: {"mount": "function"}}


@needs_node
def test_the_site_maths_publishes_the_board_maths_of_the_answer_boxes() -> None:
    held = _sources(STATIC / "site-maths.js")
    assert "maths/board_math.js" in held and not [m for m in held if "explorers/" in m]
    done = subprocess.run([NODE or "node", "--input-type=module", "-e", _RUN_SITE_SCRIPT,
                           str(STATIC / "site-maths.js")], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == {"ChutesMaths": dict.fromkeys(
        ["expectedTurns", "firstMoverEdge", "validate"], "function")}


# A page, still loading, with (in its order) a board editor, an explorer of a class of no front
# end of ours, a coin explorer and a calculator; the scripts of the editor, the coin explorer and
# the calculator published, each mount recording what it was given. argv[2]: "observer" gives
# the page an IntersectionObserver that finds the calculator on the screen.
_RUN_RUNTIME = """
globalThis.window = globalThis;
globalThis.Node = {DOCUMENT_POSITION_FOLLOWING: 4};
const drawn = [];
const mount = (kind) => ({mount: (el, start) => { drawn.push([kind, el.at, start]); }});
window.ChutesBoardEditor = mount("editor");
window.ChutesCoinExplorer = mount("coin");
window.ChutesCalculator = mount("calculator");
window.ChutesBoardPresets = {"a board": {}};
// each place keeps what it says while it waits (its attributes, its line of words)
const place = (at, dataset) => ({at, dataset, attributes: {}, held: [], classes: new Set(),
  classList: {add(c) { this.owner.classes.add(c); }, remove(c) { this.owner.classes.delete(c); }},
  setAttribute(name, value) { this.attributes[name] = value; },
  removeAttribute(name) { delete this.attributes[name]; },
  append(note) { this.held.push(note); note.remove = () => { this.held.splice(this.held.indexOf(note), 1); }; },
  addEventListener() {}, removeEventListener() {},
  compareDocumentPosition: (other) => (other.at > at ? 4 : 2)});
const said = (p) => ({label: p.attributes["aria-label"] ?? null, role: p.attributes.role ?? null,
  tab: p.attributes.tabindex ?? null, words: p.held.map((n) => n.textContent)});
const places = {
  ".chutes-board-editor-mount": [place(0, {board: '{"size": 30}', name: "mine"})],
  ".chutes-explorer-mount": [place(1, {explorer: "NoSuchExplorer", state: "{}"}),
                             place(2, {explorer: "CoinFlipExplorer", state: '{"p": 0.25}'})],
  ".chutes-calculator-mount": [place(3, {open: "length", exercise: "6.1"})],
};
let start = null;
const listeners = {};
globalThis.addEventListener = (name, f) => { listeners[name] = f; };
// "fetching": the page names the front ends' scripts (the runtime's data-front-ends), which
// publish their mounts only once fetched and run
const fetching = process.argv[2] === "fetching";
const fetched = [];
if (fetching) for (const name of ["ChutesBoardEditor", "ChutesCoinExplorer", "ChutesCalculator"]) {
  delete window[name];
}
const publishes = {"editor.js": ["ChutesBoardEditor", "editor"],
                   "coin.js": ["ChutesCoinExplorer", "coin"],
                   "calculator.js": ["ChutesCalculator", "calculator"]};
globalThis.document = {
  readyState: "loading",
  addEventListener: (name, f) => { if (name === "DOMContentLoaded") start = f; },
  querySelectorAll: (selector) => places[selector] ?? [],
  createElement: () => ({}),
  documentElement: {lang: process.argv[3] ?? "en"},
  currentScript: fetching ? {getAttribute: () => "../_static/editor.js coin.js  calculator.js"}
    : null,
  head: {append(script) {
    fetched.push([script.src, fetched.map(([src]) => src), drawn.length]);
    setTimeout(() => {
      const [name, kind] = publishes[script.src.split("/").pop()];
      window[name] = mount(kind);
      script.onload();
    }, 0);
  }},
};
for (const list of Object.values(places)) for (const p of list) p.classList.owner = p;
if (process.argv[2] === "observer") {
  globalThis.IntersectionObserver = class {
    constructor(callback) { this.callback = callback; this.seen = []; }
    observe(el) {
      this.seen.push(el);
      if (this.seen.length === 1) setTimeout(() => this.callback(
        this.seen.map((target) => ({target, isIntersecting: target.at === 3}))), 0);
    }
    unobserve() {}
    disconnect() {}
  };
}
const source = await (await import("node:fs/promises")).readFile(process.argv[1], "utf8");
new Function(source)();
const waited = start !== null;
start();
const atOnce = drawn.length;
const perTask = [];
for (let task = 0; task < 8; task++) {
  await new Promise((resolve) => setTimeout(resolve, 0));
  perTask.push(drawn.length);
}
const waiting = Object.values(places).flat().map(said);
const idle = drawn.length;
const all = await window.ChutesSite.drawAll();
console.log(JSON.stringify({waited, atOnce, perTask, drawn, waiting, idle, all,
  printing: typeof listeners.beforeprint, left: Object.values(places).flat().map(said),
  fetched}));
"""


def _run_runtime(*args: str) -> dict:
    done = subprocess.run([NODE or "node", "--input-type=module", "-e", _RUN_RUNTIME,
                           str(STATIC / "site.js"), *args], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@needs_node
def test_the_site_runtime_holds_no_explorer_and_draws_each_place_in_a_task_of_its_own() -> None:
    """site.js holds none of the front ends (a page loads the scripts of what it shows); once
    the page is parsed it draws each place with the mount its script published, one a task, in
    the page's order; a place of a class of no front end is left alone."""
    held = _sources(STATIC / "site.js")
    assert "site/site.js" in held and not [m for m in held if "explorers/" in m or "maths/" in m]
    assert site_script().startswith("(()=>{")
    found = _run_runtime()
    assert found["waited"] and found["atOnce"] == 0 and found["printing"] == "function"
    # one a task (the first once the front ends' scripts have run: a task or so after parsing)
    drawing = [n for n in found["perTask"] if n]
    assert drawing[:4] == [1, 2, 3, 3] and found["perTask"][:2] != [0, 0]
    presets = {"a board": {}}
    assert found["drawn"] == [
        ["editor", 0, {"board": {"size": 30}, "name": "mine", "presets": presets,
                       "syncHash": True, "skipLink": True}],
        ["coin", 2, {"p": 0.25}],
        ["calculator", 3, {"presets": presets, "open": "length", "exercise": "6.1"}]]


@needs_node
def test_the_site_runtime_fetches_the_front_ends_scripts_in_order_then_draws() -> None:
    """The front ends' scripts a page names (the runtime's ``data-front-ends``) are fetched by
    the runtime, in their order (run in it: ``async = false``), and nothing is drawn before they
    have all run; then every place is drawn as before."""
    found = _run_runtime("fetching")
    assert found["fetched"] == [["../_static/editor.js", [], 0],
                                ["coin.js", ["../_static/editor.js"], 0],
                                ["calculator.js", ["../_static/editor.js", "coin.js"], 0]]
    assert [kind for kind, _, _ in found["drawn"]] == ["editor", "coin", "calculator"]
    assert found["all"] == 0


@needs_node
def test_the_site_runtime_draws_only_what_nears_the_screen_and_the_rest_when_asked() -> None:
    """With an IntersectionObserver (a browser), a place is drawn as it nears the screen (issue
    52): the calculator on the screen, then the page's one editor (its skip link and address are
    the page's); the coin explorer off the screen waits, saying what it is (a named group, a Tab
    stop, a line of words) until ``ChutesSite.drawAll()`` (or printing) draws it; drawn, a place
    is left as the front end found it."""
    found = _run_runtime("observer")
    assert [kind for kind, _, _ in found["drawn"]][:found["idle"]] == ["calculator", "editor"]
    words = "Coin-flip explorer: it is drawn as you reach it."
    coin = {"label": words, "role": "group", "tab": "0", "words": [words]}
    assert found["waiting"][2] == coin
    assert found["all"] == 1 and [kind for kind, _, _ in found["drawn"]][2:] == ["coin"]
    assert found["left"][2] == {"label": None, "role": None, "tab": None, "words": []}
    assert found["left"][0] == found["left"][3] == found["left"][2]
    assert found["waiting"][1] == {"label": None, "role": None, "tab": None, "words": []}
    spanish = _run_runtime("observer", "es")
    assert spanish["waiting"][2]["label"] == "Explorador de la moneda: se dibuja cuando llegas a él."


@needs_node
def test_node_reads_the_commonjs_of_a_python_environment_inside_the_repository_as_commonjs() -> None:
    """`make lab` runs JupyterLab's build check, which runs its CommonJS scripts with Node; the
    student's environment is inside the repository (.venv-lab), as this one (.venv) is. A
    ``"type": "module"`` in the repository's package.json made Node read them as ES modules, and
    a student saw their stack traces at every ``make lab``. The front end says it is ES modules
    in its own folder (chutes_edu/widgets/package.json; the built modules' test above holds that
    Node need not guess)."""
    import jupyterlab

    lab = Path(jupyterlab.__file__).resolve().parent
    if not lab.is_relative_to(ROOT):
        pytest.skip(f"this Python environment is not inside the repository ({lab})")
    done = subprocess.run([NODE or "node", "node-version-check.js"], cwd=lab, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads((ROOT / "package.json").read_text()).get("type", "commonjs") == "commonjs"


@needs_esbuild
def test_the_built_files_are_what_the_sources_build_to_and_the_check_bites(tmp_path) -> None:
    check = [NODE or "node", str(ROOT / "tools" / "build_front_end.mjs"), "--check"]
    done = subprocess.run(check, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    # a copy of the front end with one changed constant: the check names what went stale
    copy = tmp_path / "repo"
    (copy / "tools").mkdir(parents=True)
    shutil.copy(ROOT / "tools" / "build_front_end.mjs", copy / "tools")
    (copy / "node_modules").symlink_to(ROOT / "node_modules")
    shutil.copytree(ROOT / "chutes_edu" / "widgets", copy / "chutes_edu" / "widgets",
                    ignore=shutil.ignore_patterns("__pycache__"))
    maths = copy / "chutes_edu" / "widgets" / "js" / "maths/coin_math.js"
    maths.write_text(maths.read_text().replace("MAX_TRIALS = 100_000", "MAX_TRIALS = 99_999"))
    copied_check = [NODE or "node", str(copy / "tools" / "build_front_end.mjs"), "--check"]
    stale = subprocess.run(copied_check, cwd=copy, capture_output=True, text=True, timeout=300,
                           check=False)
    assert stale.returncode == 1 and "coin_explorer.js" in stale.stderr, stale.stderr
    assert "npm run build" in stale.stderr


@needs_esbuild
def test_the_front_ends_type_check_and_linter_bite(tmp_path) -> None:
    """`make lint` runs tsc (checkJs over every front-end file) and Biome with the repository's
    settings; each fails on a file that breaks its rules (here a copy of the settings beside it)."""
    bad = tmp_path / "bad.js"
    bad.write_text('// a number where a string belongs, and a loose comparison\n'
                   'export const width = /** @type {string} */ (40);\n'
                   'export function same(a, b) { return a == b; }\n')
    config = json.loads((ROOT / "tsconfig.json").read_text())
    config["include"] = [str(bad)]
    (tmp_path / "tsconfig.json").write_text(json.dumps(config))
    tsc = subprocess.run([str(ROOT / "node_modules" / ".bin" / "tsc"), "-p",
                          str(tmp_path / "tsconfig.json")], capture_output=True, text=True,
                         timeout=300, check=False)
    assert tsc.returncode != 0 and "bad.js" in tsc.stdout and "TS2352" in tsc.stdout, tsc.stdout
    biome_config = json.loads((ROOT / "biome.json").read_text())
    biome_config.pop("$schema")
    biome_config.pop("vcs")  # (it reads the repository's .gitignore; there is none here)
    biome_config["files"]["includes"] = ["*.js"]
    (tmp_path / "biome.json").write_text(json.dumps(biome_config))
    biome = subprocess.run([str(ROOT / "node_modules" / ".bin" / "biome"), "lint",
                            "--error-on-warnings", "."], cwd=tmp_path, capture_output=True,
                           text=True, timeout=300, check=False)
    assert biome.returncode != 0 and "noDoubleEquals" in biome.stdout + biome.stderr, biome.stderr


@needs_esbuild
def test_biome_leaves_the_folders_the_tests_write_to_alone(tmp_path) -> None:
    """`make test` lints while the hub caches install into .venv and the website builds into
    _build, in the background. Biome must not walk those folders (biome.json has it read
    .gitignore), or a file that comes and goes there fails lint: a CI run failed so, on a folder of
    ngshare's half-done install. A broken link stands for it here: Biome, run as `make lint` runs
    it, passes with the repository's settings, and fails on the link without the .gitignore."""
    shutil.copy(ROOT / ".gitignore", tmp_path)
    source = tmp_path / "chutes_edu" / "widgets" / "js" / "core" / "one.js"
    source.parent.mkdir(parents=True)
    source.write_text("export const one = 1;\n")
    for folder in (".venv/share/chutes-hub-test/ngshare.partial", "_build/test-site"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "gone").symlink_to(tmp_path / "nowhere")
    config = json.loads((ROOT / "biome.json").read_text())
    config.pop("$schema")

    def lint() -> subprocess.CompletedProcess[str]:
        (tmp_path / "biome.json").write_text(json.dumps(config))
        return subprocess.run([str(ROOT / "node_modules" / ".bin" / "biome"), "lint",
                               "--error-on-warnings", "."], cwd=tmp_path, capture_output=True,
                              text=True, timeout=300, check=False)

    done = lint()
    assert done.returncode == 0, done.stdout + done.stderr
    del config["vcs"]
    bitten = lint()
    assert bitten.returncode != 0 and "dereferencedSymlink" in bitten.stdout + bitten.stderr, (
        bitten.stdout + bitten.stderr)
