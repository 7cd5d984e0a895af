"""The saved notebooks stay light enough to diff and pull (issue 28): the 12 lessons together at
most 6 MB, each picture saved once as a palette PNG, and no explorer's program in a lesson.

``tools/slim_notebook.py`` (run by ``make resave``) is what keeps them so; these tests fail, and
say to run it, when a notebook is saved the plain way (``jupyter nbconvert --execute --inplace``
stores every figure twice and the board editor's whole ES module).
"""

from __future__ import annotations

import base64
import importlib.util
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
from PIL import Image

from chutes_edu.plots.alt_text import _img_tag, _read_img_tag
from chutes_edu.widgets.board_editor import FRONT_END

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))
SAVED = [*sorted((ROOT / "lessons").glob("*.ipynb")), *sorted((ROOT / "solutions").glob("*.ipynb"))]
BUDGET = 6_000_000
"""Bytes the 12 lessons may weigh together (16.5 MB before issue 28, 4.0 MB after)."""
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
FIX = "run `python tools/slim_notebook.py NOTEBOOK`, or save it with `make resave NB=NOTEBOOK`"


def _tool():
    spec = importlib.util.spec_from_file_location("slim_notebook", ROOT / "tools" / "slim_notebook.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("slim_notebook", module)
    spec.loader.exec_module(module)
    return module


slim_notebook = _tool()


def _ids(paths: list[Path]) -> list[str]:
    return [p.relative_to(ROOT).as_posix() for p in paths]


def _state(nb: nbformat.NotebookNode) -> dict:
    return nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})


def _pictures(nb: nbformat.NotebookNode) -> list[str]:
    """Every PNG a notebook stores (base64): figures' outputs, their <img>s, widget pictures."""
    found = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if "image/png" in data:
                found.append("".join(data["image/png"].split()))
            tag = _read_img_tag(data.get("text/html", ""))
            if tag is not None:
                found.append(tag[1])
    for model in _state(nb).values():
        found.extend("".join(b["data"].split()) for b in model.get("buffers", [])
                     if model["state"].get("_kind") == "picture")
    return found


def _png(colours: int = 2) -> bytes:
    """A small opaque RGBA picture: vertical stripes of ``colours`` colours."""
    image = Image.new("RGBA", (40, 30), (255, 255, 255, 255))
    for x in range(40):
        shade = (x % colours) * 40 % 256
        for y in range(30):
            image.putpixel((x, y), (shade, 255 - shade, shade * 7 % 256, 255))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


# ------------------------------------------------------------------------------ the saved course
def test_the_twelve_lessons_weigh_at_most_6_mb() -> None:
    sizes = {p.name: p.stat().st_size for p in LESSONS}
    assert len(sizes) == 12
    total = sum(sizes.values())
    assert total <= BUDGET, (f"the lessons weigh {total:,} bytes, over {BUDGET:,}: {FIX}\n"
                             + "\n".join(f"{k}: {v:,}" for k, v in sizes.items()))


@pytest.mark.parametrize("path", SAVED, ids=_ids(SAVED))
def test_a_saved_notebook_is_slim(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    assert slim_notebook.slim(nb) == nb, f"{path.name} is not saved slim: {FIX}"


@pytest.mark.parametrize("path", SAVED, ids=_ids(SAVED))
def test_each_picture_is_saved_once_with_a_palette(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            assert not ("image/png" in data and "<img" in data.get("text/html", "")), \
                f"{path.name}: a figure saved twice (PNG and <img>): {FIX}\n{cell.source}"
    pictures = _pictures(nb)
    assert len(pictures) == len(set(pictures)), f"{path.name}: a picture saved twice"
    for picture in pictures:
        assert Image.open(io.BytesIO(base64.b64decode(picture))).mode == "P", \
            f"{path.name}: a true-colour picture: {FIX}"


@pytest.mark.parametrize("path", LESSONS, ids=_ids(LESSONS))
def test_no_explorer_program_is_saved_in_a_lesson(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    # a line of the editor's bundle that no stub has
    assert json.dumps(FRONT_END.module_source()[-400:])[1:-1] not in text, f"{path.name}: {FIX}"
    for model_id, model in _state(nbformat.reads(text, as_version=4)).items():
        esm = model["state"].get("_esm", "")
        assert len(esm) <= slim_notebook.MODULE_LIMIT, f"{path.name}: {model_id}'s module: {FIX}"


def test_a_saved_board_editor_says_what_it_is_and_to_run_the_cell() -> None:
    """Lessons 2 and 12 show the editor: saved, it is a sentence (its program comes back when the
    cell runs, and the website draws it from the package)."""
    editors = []
    for path in LESSONS:
        nb = nbformat.read(path, as_version=4)
        editors += [(path.name, model["state"]) for model in _state(nb).values()
                    if str(model["state"].get("_anywidget_id", "")).endswith(".BoardEditor")]
    assert {name for name, _ in editors} >= {"02_board_as_equations.ipynb",
                                             "12_design_a_board.ipynb"}
    for name, state in editors:
        assert state["_esm"].startswith("// Saved without its program"), name
        assert "Board editor" in state["_esm"] and "run this cell" in state["_esm"], name
        assert state["_css"] == "" and state["board_json"]["size"] > 0, name


# ------------------------------------------------------------------------------ the tool
def _figure_output(png: bytes, alt: str) -> dict:
    data = base64.b64encode(png).decode("ascii")
    return nbformat.v4.new_output("display_data", data={
        "image/png": data, "text/html": _img_tag(data, None, alt),
        "text/plain": "<Figure size 400x300 with 1 Axes>"},
        metadata={"image/png": {"alt": alt}})


def _editor_notebook() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    view = nbformat.v4.new_output("execute_result", data={
        WIDGET_VIEW: {"model_id": "abc", "version_major": 2, "version_minor": 0},
        "text/plain": "Board editor: draw. This is an interactive explorer: run this cell to use it."
    }, execution_count=1)
    nb.cells.append(nbformat.v4.new_code_cell("BoardEditor()", outputs=[view]))
    big = "export default {};\n" + "//" + "x" * 200_000
    small = "export default { render() {} };\n"
    nb.metadata["widgets"] = {WIDGET_STATE: {"state": {
        "abc": {"model_name": "AnyModel", "state": {"_esm": big, "_css": "a {}", "board_json": {}}},
        "def": {"model_name": "AnyModel", "state": {"_esm": small, "_css": "b {}"}},
        "pic": {"model_name": "AnyModel", "state": {"_kind": "picture", "alt": "a picture"},
                "buffers": [{"path": ["value"], "encoding": "base64",
                             "data": base64.b64encode(_png()).decode("ascii")}]},
    }, "version_major": 2, "version_minor": 0}}
    return nb


def test_slim_keeps_a_figure_once_as_its_img_with_the_alt_text() -> None:
    nb = nbformat.v4.new_notebook()
    alt = 'Two "stripes" & <more>.'
    nb.cells.append(nbformat.v4.new_code_cell("plot()", outputs=[_figure_output(_png(), alt)]))
    out = slim_notebook.slim(nb).cells[0].outputs[0]
    assert set(out["data"]) == {"text/html", "text/plain"} and out["metadata"] == {}
    read_alt, png, _ = _read_img_tag(out["data"]["text/html"])
    assert read_alt == alt
    before = Image.open(io.BytesIO(_png())).convert("RGB")
    after = Image.open(io.BytesIO(base64.b64decode(png)))
    assert after.mode == "P"
    assert np.array_equal(np.asarray(after.convert("RGB")), np.asarray(before))
    assert nb.cells[0].outputs[0]["data"]["image/png"], "slim changed its argument"


def test_slim_saves_a_large_module_as_a_sentence_and_keeps_small_ones() -> None:
    nb = _editor_notebook()
    state = _state(slim_notebook.slim(nb))
    assert state["abc"]["state"]["_esm"] == slim_notebook.module_stub(
        "Board editor: draw. This is an interactive explorer: run this cell to use it.")
    assert state["abc"]["state"]["_css"] == ""
    assert state["def"]["state"] == _state(nb)["def"]["state"]
    assert Image.open(io.BytesIO(base64.b64decode(state["pic"]["buffers"][0]["data"]))).mode == "P"
    assert slim_notebook.slim(slim_notebook.slim(nb)) == slim_notebook.slim(nb)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
def test_the_saved_module_is_an_es_module_that_shows_its_sentence() -> None:
    stub = slim_notebook.module_stub('The "editor": run this cell.')
    script = (
        "const made = [];\n"
        "globalThis.document = { createElement: () => { const n = {}; made.push(n); return n; } };\n"
        f"const url = 'data:text/javascript,' + encodeURIComponent({json.dumps(stub)});\n"
        "const widget = (await import(url)).default;\n"
        "const el = { children: [], appendChild(n) { this.children.push(n); } };\n"
        "widget.render({ model: {}, el });\n"
        "console.log(el.children[0].textContent);\n")
    run = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == 'The "editor": run this cell.'


def test_a_palette_keeps_flat_colours_exactly() -> None:
    """More than 256 colours: the ones that cover many pixels stay exact, the rest are close."""
    image = Image.new("RGB", (300, 120), (255, 255, 255))
    for x in range(300):                    # a gradient of 300 colours, one pixel column each
        image.putpixel((x, 0), (x % 256, (x * 3) % 256, 128))
    flat = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40)]
    for i, colour in enumerate(flat):       # four bars of 60 x 100 pixels
        for x in range(60 * i, 60 * i + 60):
            for y in range(10, 110):
                image.putpixel((x, y), colour)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    out = Image.open(io.BytesIO(slim_notebook.palette_png(buffer.getvalue()))).convert("RGB")
    assert out.size == image.size
    for i, colour in enumerate(flat):
        assert out.getpixel((60 * i + 30, 50)) == colour
    assert out.getpixel((5, 115)) == (255, 255, 255)
    worst = max(max(abs(a - b) for a, b in zip(out.getpixel((x, 0)), image.getpixel((x, 0)),
                                                 strict=True)) for x in range(300))
    assert worst <= 48


def test_a_palette_png_refuses_what_it_would_spoil() -> None:
    with pytest.raises(ValueError, match="not a PNG"):
        slim_notebook.palette_png(b"GIF89a not a png")
    image = Image.new("RGBA", (7, 5), (255, 0, 0, 128))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    with pytest.raises(ValueError, match="7x5 picture with transparent pixels"):
        slim_notebook.palette_png(buffer.getvalue())
    once = slim_notebook.palette_png(_png(colours=3))
    assert slim_notebook.palette_png(once) == once


def test_the_command_line_checks_and_slims(tmp_path: Path) -> None:
    path = tmp_path / "n.ipynb"
    nbformat.write(_editor_notebook(), path)
    assert slim_notebook.main(["--check", str(path)]) == 1
    assert slim_notebook.main([str(path)]) == 0
    assert slim_notebook.main(["--check", str(path)]) == 0


# ------------------------------------------------------------------------------ the website
def test_the_website_gets_each_figure_back_as_a_png_with_its_alt_text(tmp_path: Path) -> None:
    """book/build.py stages a slim figure as the PNG (with its alt text) the page shows."""
    spec = importlib.util.spec_from_file_location("course_build", ROOT / "book" / "build.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    args = build.parse_args(["--out", str(tmp_path / "html")])
    source = ROOT / "lessons" / "01_waiting_for_heads.ipynb"
    build.stage_notebook(source, tmp_path / "staged.ipynb", args)
    saved = [o for c in nbformat.read(source, as_version=4).cells for o in c.get("outputs", [])
             if _read_img_tag(o.get("data", {}).get("text/html", ""))]
    staged = [o for c in nbformat.read(tmp_path / "staged.ipynb", as_version=4).cells
              for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
    assert len(saved) == len(staged) >= 3
    for before, after in zip(saved, staged, strict=True):
        alt, png, _ = _read_img_tag(before["data"]["text/html"])
        assert after["data"]["image/png"] == png
        assert after["metadata"]["image/png"]["alt"] == alt
