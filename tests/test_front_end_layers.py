"""The front end's layers, as tests/test_layers.py checks the Python's: each module of
chutes_edu/widgets/js imports only from its own layer or those below it.

    core       no imports, no DOM: geometry, colours, the stand-in model
    maths      the library's maths in JavaScript (held equal to it by tests/js), no DOM
    ui         the page's parts: DOM helpers, controls, runner, words, pictures and charts
    explorers  one entry module per explorer (front_ends.json), importing no other explorer
    site       the website's one script (js/site.js)

Every module must be placed (a new one fails here until it is), and a second test shows the
check bites on an import that goes up a layer.
"""

from __future__ import annotations

import re
from fnmatch import fnmatch
from pathlib import Path

from chutes_edu.widgets._front_end import JS, front_ends

LAYERS = ("core", "maths", "ui", "explorers", "site")
PLACES: dict[str, tuple[str, ...]] = {
    "core": ("editor_geometry.js", "editor_colours.js", "editor_model.js"),
    "maths": ("*_math.js", "editor_boards.js", "editor_address.js", "editor_state.js"),
    "ui": ("editor_dom.js", "explorer_ui.js", "editor_words.js", "editor_controls.js",
           "editor_picture.js", "editor_readout.js", "editor_input.js", "editor_runner.js",
           "*_chart.js", "*_picture.js", "race_board.js", "board_explorer_board.js"),
    "explorers": tuple(front.entry for front in front_ends().values()),
    "site": ("site.js",),
}
IMPORT = re.compile(r'^\s*(?:import|export)\b[^;]*?\bfrom\s*"\./([\w.-]+\.js)"', re.MULTILINE)
DOM = re.compile(r"\b(?:document|window)\.|\bHTML\w*Element\b|\bcreateElement\(")


def layer_of(name: str) -> str:
    """The layer of the module ``name`` (the most specific match: an explorer's entry is an
    explorer, not maths, whatever its name)."""
    for layer in reversed(LAYERS):
        if any(fnmatch(name, pattern) for pattern in PLACES[layer]):
            return layer
    raise AssertionError(f"{name} is in no layer: place it in PLACES ({__file__})")


def violations(graph: dict[str, list[str]], sources: dict[str, str]) -> list[str]:
    """Every import that goes up a layer or sideways between explorers, and every DOM use below
    the page's parts."""
    found = []
    for module, imported in sorted(graph.items()):
        mine = LAYERS.index(layer_of(module))
        for other in imported:
            theirs = LAYERS.index(layer_of(other))
            if theirs > mine or (theirs == mine and LAYERS[mine] == "explorers"):
                found.append(f"{module} ({LAYERS[mine]}) imports {other} ({LAYERS[theirs]})")
        if mine <= LAYERS.index("maths") and DOM.search(sources[module]):
            found.append(f"{module} ({LAYERS[mine]}) uses the DOM")
        if LAYERS[mine] == "core" and imported:
            found.append(f"{module} (core) imports {', '.join(imported)}")
    return found


def _read(folder: Path) -> tuple[dict[str, list[str]], dict[str, str]]:
    sources = {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.js"))}
    return {name: IMPORT.findall(text) for name, text in sources.items()}, sources


def test_every_front_end_module_imports_only_from_its_layer_or_below() -> None:
    graph, sources = _read(JS)
    assert len(graph) > 30
    assert violations(graph, sources) == []


def test_an_import_up_a_layer_or_between_explorers_breaks_the_check() -> None:
    graph, sources = _read(JS)
    graph["board_math.js"] = [*graph["board_math.js"], "explorer_ui.js"]
    graph["coin_explorer.js"] = [*graph["coin_explorer.js"], "race_explorer.js"]
    sources["coin_math.js"] += "\ndocument.title = 'x';\n"
    graph["editor_geometry.js"] = ["board_math.js"]
    assert violations(graph, sources) == [
        "board_math.js (maths) imports explorer_ui.js (ui)",
        "coin_explorer.js (explorers) imports race_explorer.js (explorers)",
        "coin_math.js (maths) uses the DOM",
        "editor_geometry.js (core) imports board_math.js (maths)",
        "editor_geometry.js (core) imports board_math.js",
    ]
