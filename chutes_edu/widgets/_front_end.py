"""The explorers' front ends as esbuild builds them: one registry, one built module per explorer.

Each explorer that runs in the page is a few ES modules in ``js/`` (each with one job, importing
one another, so that Node's tests and a browser load them as they are). anywidget loads a widget's
front end as one module, and a student's machine has no Node to bundle it, so the front end is
built ahead by esbuild (``npm run build``, ``tools/build_front_end.mjs``) into ``static/``, and the
built files ship with the package. ``front_ends.json`` is the one registry: for each front end,
the anywidget class, its entry module and stylesheets, and the global that publishes its
``mount`` on the course website; the build reads it and so does this module.

- ``static/<name>.js``: the explorer's ``_esm``, one ES module, minified with a source map;
- ``static/<name>.css``: its ``_css``, the shared ``ui/controls.css`` first;
- ``static/site-<name>.js``: each front end as a classic script of its own for the course website
  (pages opened from disk cannot import ES modules), ``static/site.js``, the website's runtime that
  draws what a page asks for, and ``static/site.css``.

An explorer class sets ``_esm = FRONT_END.module_path``: anywidget reads the file, and with
``ANYWIDGET_HMR=1`` (and ``npm run dev`` rebuilding on every save) follows its changes in a
running JupyterLab without a kernel restart.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

WIDGETS = Path(__file__).parent
JS = WIDGETS / "js"
"""The folder of the explorers' ES modules and stylesheets (the source)."""
STATIC = WIDGETS / "static"
"""The folder of the built front ends (``npm run build``)."""
REGISTRY = WIDGETS / "front_ends.json"


@dataclass(frozen=True)
class FrontEnd:
    """One explorer's front end: its registry entry and its built files.

    Attributes
    ----------
    name : str
        The front end's name, e.g. ``"coin_explorer"``: its built files are ``static/<name>.js``
        and ``static/<name>.css``.
    widget_class : str
        The anywidget class that loads it, e.g. ``"CoinFlipExplorer"``.
    entry : str
        Its entry module in ``js/``.
    global_name : str
        The global that publishes its ``mount`` on the course website.
    styles : tuple of str
        Its stylesheets in ``js/``, after the shared ``ui/controls.css``.
    page_traits : tuple of str
        The synced traits a page with no kernel starts it from (what a notebook saved); empty for
        the board editor, which the website mounts from its board.
    """

    name: str
    widget_class: str
    entry: str
    global_name: str
    styles: tuple[str, ...]
    page_traits: tuple[str, ...]

    @property
    def module_path(self) -> Path:
        """The built ES module (the explorer's ``_esm``)."""
        return STATIC / f"{self.name}.js"

    @property
    def style_path(self) -> Path:
        """The built stylesheet (the explorer's ``_css``)."""
        return STATIC / f"{self.name}.css"

    def module_source(self) -> str:
        """The built ES module's text."""
        return _read(self.module_path)

    def style_source(self) -> str:
        """The built stylesheet's text."""
        return _read(self.style_path)


def _read(path: Path) -> str:
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: build the front end with `npm run build` "
                                "(a copy of the course from its repository has it built)")
    return path.read_text(encoding="utf-8")


@cache
def front_ends() -> dict[str, FrontEnd]:
    """Every front end of the registry, by name.

    Returns
    -------
    dict of str to FrontEnd
        In the registry's order.
    """
    registry = json.loads(REGISTRY.read_text(encoding="utf-8"))["front_ends"]
    return {name: FrontEnd(name, spec["class"], spec["entry"], spec["global"],
                           tuple(spec["styles"]), tuple(spec["page_traits"]))
            for name, spec in registry.items()}


def front_end(name: str) -> FrontEnd:
    """The front end called ``name`` in the registry.

    Parameters
    ----------
    name : str
        e.g. ``"coin_explorer"``.

    Returns
    -------
    FrontEnd

    Raises
    ------
    KeyError
        If the registry has no such front end.
    """
    return front_ends()[name]


def site_script() -> str:
    """The course website's runtime (``static/site.js``), which draws each front end from its own
    classic script (``static/site-<name>.js``)."""
    return _read(STATIC / "site.js")


def site_styles() -> str:
    """Every front end's styles as the course website's one stylesheet (``static/site.css``)."""
    return _read(STATIC / "site.css")
