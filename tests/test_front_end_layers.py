"""The front end's layers, as tests/test_layers.py checks the Python's: chutes_edu/widgets/js is
a tree whose folders are its layers, and each module imports only from its own layer or those
below it.

    core/       no DOM, importing only core: geometry, colours, the stand-in model, and the
                shared arithmetic the maths builds on
    maths/      the library's maths in JavaScript (held equal to it by tests/js), no DOM
    ui/         the page's parts: DOM helpers, controls, runner, board picture, shared charts
    explorers/  one folder per explorer (its entry module in front_ends.json, its stylesheet and
                its own parts), importing no other explorer's folder
    site/       the website's one script

Every module must sit in a layer's folder (a module anywhere else fails here), and a second test
shows the check bites on an import that goes up a layer or across explorers.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from chutes_edu.widgets._front_end import JS, front_ends

LAYERS = ("core", "maths", "ui", "explorers", "site")
IMPORT = re.compile(r'^\s*(?:import|export)\b[^;]*?\bfrom\s*"(\.{1,2}/[\w./-]+\.js)"', re.MULTILINE)
DOM = re.compile(r"\b(?:document|window)\.|\bHTML\w*Element\b|\bcreateElement\(")


def layer_of(module: str) -> str:
    """The layer of ``module`` (a path under js/): its first folder."""
    layer = module.split("/")[0]
    if layer not in LAYERS or "/" not in module:
        raise AssertionError(f"{module} is in no layer: put it in one of {LAYERS} ({__file__})")
    return layer


def _room(module: str) -> str:
    """An explorer's folder (``explorers/<name>``), or the layer for any other module."""
    parts = module.split("/")
    return "/".join(parts[:2]) if parts[0] == "explorers" else parts[0]


def violations(graph: dict[str, list[str]], sources: dict[str, str]) -> list[str]:
    """Every import that goes up a layer or across explorers' folders, and every DOM use below
    the page's parts."""
    found = []
    for module, imported in sorted(graph.items()):
        mine = LAYERS.index(layer_of(module))
        for other in imported:
            theirs = LAYERS.index(layer_of(other))
            if theirs > mine:
                found.append(f"{module} ({LAYERS[mine]}) imports {other} ({LAYERS[theirs]})")
            elif LAYERS[mine] == LAYERS[theirs] == "explorers" and _room(other) != _room(module):
                found.append(f"{module} imports another explorer's {other}")
        if mine <= LAYERS.index("maths") and DOM.search(sources[module]):
            found.append(f"{module} ({LAYERS[mine]}) uses the DOM")
    return found


def _read(folder: Path) -> tuple[dict[str, list[str]], dict[str, str]]:
    sources = {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
               for p in sorted(folder.rglob("*.js"))}
    graph = {name: [posixpath.normpath(posixpath.join(posixpath.dirname(name), spec))
                    for spec in IMPORT.findall(text)]
             for name, text in sources.items()}
    return graph, sources


def test_every_front_end_module_imports_only_from_its_layer_or_below() -> None:
    graph, sources = _read(JS)
    assert len(graph) > 35
    assert all(other in graph for imported in graph.values() for other in imported), \
        "an import names a module that is not there"
    assert violations(graph, sources) == []


def test_every_explorer_has_its_own_folder_and_its_entry_there() -> None:
    for name, front in front_ends().items():
        assert front.entry == f"explorers/{name}/{name}.js", front.entry
        assert (JS / front.entry).is_file()
    folders = {p.name for p in (JS / "explorers").iterdir() if p.is_dir()}
    assert folders == set(front_ends())


def test_a_module_outside_the_layers_folders_is_refused(tmp_path: Path) -> None:
    (tmp_path / "maths").mkdir()
    (tmp_path / "maths" / "a.js").write_text("export const a = 1;\n")
    (tmp_path / "loose.js").write_text('import { a } from "./maths/a.js";\n')
    graph, sources = _read(tmp_path)
    try:
        violations(graph, sources)
    except AssertionError as error:
        assert "loose.js is in no layer" in str(error)
    else:
        raise AssertionError("a module outside the layers' folders was let through")


def test_an_import_up_a_layer_or_between_explorers_breaks_the_check() -> None:
    graph, sources = _read(JS)
    graph["maths/board_math.js"] = [*graph["maths/board_math.js"], "ui/controls.js"]
    coin = "explorers/coin_explorer/coin_explorer.js"
    graph[coin] = [*graph[coin], "explorers/race_explorer/chart.js"]
    sources["maths/coin_math.js"] += "\ndocument.title = 'x';\n"
    graph["core/geometry.js"] = ["maths/board_math.js"]
    assert violations(graph, sources) == [
        "core/geometry.js (core) imports maths/board_math.js (maths)",
        f"{coin} imports another explorer's explorers/race_explorer/chart.js",
        "maths/board_math.js (maths) imports ui/controls.js (ui)",
        "maths/coin_math.js (maths) uses the DOM",
    ]
