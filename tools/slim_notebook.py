"""Save an executed notebook light: each picture once, in a small PNG, and no explorer's program.

An executed lesson weighs what its pictures weigh. Left as the kernel sends them:

- a figure comes twice (:mod:`chutes_edu.plots.alt_text`): as ``image/png`` with its alt text in
  the output's metadata, and again inside ``text/html`` as ``<img alt=... src="data:...">``,
  which is what JupyterLab and Voila show (they ignore a PNG's metadata);
- a figure's PNG and a widget's picture (the ``value`` of a picture control in the saved widget
  state, as the explorers had before they drew in the page) are true-colour PNGs,
  although a chart has a few hundred colours that matter;
- the saved widget state of a board editor holds its whole front end (``_esm``, about 195 kB of
  JavaScript, and its ``_css``), once in every notebook that shows one.

:func:`slim` keeps one copy of each figure, the ``<img>`` with its alt text (so JupyterLab and Voila
show exactly what they showed; the course website turns it back into a PNG with its alt text when
it stages a page, ``book/build.py``), and stores every picture as a palette PNG of at most 256
colours (:func:`palette_png`). An anywidget module longer than :data:`MODULE_LIMIT` characters (the
board editor's) is saved as a few lines that say in the page what the explorer is and that running
the cell starts it; with a kernel, running the cell creates the widget again with its full
module from the package, and the website draws the editor from the package too. The small
modules of the explorers' controls stay, so a saved explorer is still drawn without a kernel.

The palette (what is lost, and what is not): every colour that covers at least :data:`FLAT_PIXELS`
pixels of the picture (a square of a heat map, a bar, the background, a line's colour), up to
:data:`EXACT_COLOURS` of them, is kept exactly; the remaining entries are an octree palette of
the picture, and every other pixel (the anti-aliased edge of a letter or a line, a colour bar's
gradient) takes the nearest entry. A picture with at most 256 colours is stored losslessly. A PNG
that already has a palette is left as it is, so slimming twice changes nothing.

Usage: ``python tools/slim_notebook.py [--check] [NOTEBOOK ...]`` (default: the lessons and the
worked solutions, the notebooks saved with their outputs). ``--check`` writes nothing and exits 1
if a notebook would change. ``make resave NB=lessons/05_exact_answers.ipynb`` executes a notebook
and runs this and ``tools/notebook_metadata.py`` on it.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import copy
import io
import json
import sys
from pathlib import Path
from typing import Any

import nbformat
from PIL import Image

from chutes_edu.plots.alt_text import _img_tag, _read_img_tag

ROOT = Path(__file__).resolve().parent.parent
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

MODULE_LIMIT = 16_000
"""An anywidget ES module longer than this (characters) is not saved: the board editor's bundle is
about 195,000, the explorers' shared controls module about 5,000."""

FLAT_PIXELS = 48
"""A colour covering at least this many pixels is a flat area of the picture: kept exactly."""

EXACT_COLOURS = 160
"""At most this many of the palette's 256 entries are exact flat colours; the rest are an octree
palette of the whole picture."""



# ------------------------------------------------------------------------------ pictures
def palette_png(png: bytes) -> bytes:
    """A PNG as a palette PNG of at most 256 colours (see the module docstring).

    Parameters
    ----------
    png : bytes
        A PNG file (true colour, with or without an opaque alpha channel, or already a palette).

    Returns
    -------
    bytes
        The same picture with a palette; ``png`` itself if it already has one (so a second pass
        changes nothing).

    Raises
    ------
    ValueError
        If ``png`` is not a PNG file, or has transparent pixels (a palette would lose them).
    """
    try:
        image = Image.open(io.BytesIO(png))
        image.load()
    except (OSError, SyntaxError) as error:
        raise ValueError(f"not a PNG picture: {error}") from error
    if image.format != "PNG":
        raise ValueError(f"not a PNG picture but {image.format}")
    if image.mode == "P":
        return png
    lowest_alpha = image.getchannel("A").getextrema()[0] if "A" in image.getbands() else 255
    if not isinstance(lowest_alpha, int) or lowest_alpha < 255:
        raise ValueError(f"a {image.size[0]}x{image.size[1]} picture with transparent pixels: "
                         "a palette would lose them")
    rgb = image.convert("RGB")
    colours = rgb.getcolors(256)
    entries: list[tuple[int, int, int]]
    if colours is not None:
        entries = sorted(_rgb(colour) for _, colour in colours)
    else:
        counted = sorted(rgb.getcolors(rgb.width * rgb.height) or [],
                         key=lambda pair: (-pair[0], _rgb(pair[1])))
        entries = [_rgb(colour) for count, colour in counted[:EXACT_COLOURS]
                   if count >= FLAT_PIXELS]
        rest = rgb.quantize(256 - len(entries), method=Image.Quantize.FASTOCTREE,
                            dither=Image.Dither.NONE)
        values = (rest.getpalette() or [])[:3 * (256 - len(entries))]
        entries += [(values[i], values[i + 1], values[i + 2]) for i in range(0, len(values), 3)]
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for colour in entries for value in colour])
    out = io.BytesIO()
    rgb.quantize(palette=palette, dither=Image.Dither.NONE).save(out, format="PNG", optimize=True)
    return out.getvalue()


def _rgb(colour: Any) -> tuple[int, int, int]:
    """A pixel of an RGB picture (Pillow types it loosely) as three ints."""
    red, green, blue = colour
    return int(red), int(green), int(blue)


def _palette_base64(data: str) -> str:
    try:
        png = base64.b64decode("".join(data.split()), validate=True)
    except binascii.Error as error:
        raise ValueError(f"a picture that is not base64: {error}") from error
    return base64.b64encode(palette_png(png)).decode("ascii")


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def _slim_output(out: dict[str, Any]) -> None:
    """One output in place: a figure's ``<img>`` kept (its PNG with a palette), its PNG copy
    dropped; a PNG without an ``<img>`` kept once, with a palette."""
    data = out.get("data")
    if not isinstance(data, dict):
        return
    tag = _read_img_tag(_text(data.get("text/html", "")))
    if tag is not None:
        alt, png, size = tag
        data["text/html"] = _img_tag(_palette_base64(png), size, alt)
        data.pop("image/png", None)
        metadata = out.get("metadata", {})
        metadata.pop("image/png", None)
        if not metadata:
            out["metadata"] = {}
    elif "image/png" in data:
        data["image/png"] = _palette_base64(_text(data["image/png"]))


# ------------------------------------------------------------------------------ widget state
def module_stub(sentence: str) -> str:
    """The ES module saved instead of a large one: it shows ``sentence`` where the widget was.

    Parameters
    ----------
    sentence : str
        What the explorer is and how to start it (the widget output's ``text/plain``).

    Returns
    -------
    str
        JavaScript source of an ES module exporting ``default`` (``{render}``), as anywidget
        expects.
    """
    return ("// Saved without its program (tools/slim_notebook.py): running the cell starts it.\n"
            "export default {\n  render({ el }) {\n"
            "    const note = document.createElement(\"p\");\n"
            "    note.className = \"chutes-saved-explorer\";\n"
            f"    note.textContent = {json.dumps(sentence, ensure_ascii=False)};\n"
            "    el.appendChild(note);\n  },\n};\n")


def _sentences(nb: nbformat.NotebookNode) -> dict[str, str]:
    """The ``text/plain`` of every widget output (the explorer's offline sentence), by model id."""
    found = {}
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(WIDGET_VIEW)
            if view is not None:
                found[view.get("model_id", "")] = _text(out["data"].get("text/plain", ""))
    return found


def _slim_widgets(nb: nbformat.NotebookNode) -> None:
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    sentences = _sentences(nb)
    for model_id, model in state.items():
        values = model.get("state", {})
        esm = values.get("_esm")
        if isinstance(esm, str) and len(esm) > MODULE_LIMIT:
            sentence = sentences.get(model_id) or ("An interactive explorer, saved without its "
                                                   "program: run this cell to use it.")
            values["_esm"] = module_stub(sentence)
            values["_css"] = ""
        if values.get("_kind") == "picture":
            for buffer in model.get("buffers", []):
                if buffer.get("path") == ["value"] and buffer.get("encoding") == "base64":
                    buffer["data"] = _palette_base64(buffer["data"])


def slim(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of ``nb`` with each picture once, as a palette PNG, and no large widget module.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        An executed notebook (version 4).

    Returns
    -------
    nbformat.NotebookNode
        The slimmed copy; ``slim(slim(nb)) == slim(nb)``.

    Raises
    ------
    ValueError
        If a saved picture is not a PNG (or not base64), or has transparent pixels.
    """
    out = copy.deepcopy(nb)
    for cell in out.cells:
        for output in cell.get("outputs", []):
            _slim_output(output)
    _slim_widgets(out)
    return out


# ------------------------------------------------------------------------------ command line
def saved_notebooks() -> list[Path]:
    """The notebooks saved with their outputs: the lessons (and the toolbox) and the solutions."""
    return [path for folder in ("lessons", "solutions")
            for path in sorted((ROOT / folder).glob("*.ipynb"))]


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a notebook would change")
    parser.add_argument("notebooks", nargs="*", type=Path)
    args = parser.parse_args(argv)
    stale = []
    for path in args.notebooks or saved_notebooks():
        text = path.read_text(encoding="utf-8")
        nb = nbformat.reads(text, as_version=4)
        try:
            new = nbformat.writes(slim(nb)) + "\n"
        except ValueError as error:
            print(f"{path}: {error}", file=sys.stderr)
            return 2
        if new != text:
            stale.append((path, len(text.encode()), len(new.encode())))
            if not args.check:
                path.write_text(new, encoding="utf-8")
    verb = "would change" if args.check else "slimmed"
    for path, before, after in stale:
        name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{verb}: {name} ({before:,} -> {after:,} bytes)")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
