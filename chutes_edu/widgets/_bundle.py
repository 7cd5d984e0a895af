"""The explorers' front ends as one script: a small bundler for our own ES modules.

Each explorer with a front end in the page (the board editor, the coin-flip explorer, ...) is a
few ES modules in ``js/``, each with one job, importing one another by relative paths, so that
Node's tests and a browser load them as they are. anywidget, though, loads a widget's module from
one string (a blob or data URL), where a relative import cannot be resolved, and a notebook may
have no server path to the package's files at all; and a student's machine has no npm and no
bundler to run. So we bundle ourselves, with the little that our own modules use: named
``import {a, b as c} from "./x.js"``, ``export`` of declarations, ``export {...}`` (also ``from
"./x.js"``), ``export * from "./x.js"`` and one ``export default``. Each module becomes a function
scope (its private names cannot clash with another's) that returns its exports, placed after the
modules it imports, once each however many import it.

:func:`bundle` gives either one ES module (what anywidget loads) or a classic script that publishes
the entry module's ``mount`` as a global (what the course website loads: a page opened from disk
cannot import ES modules). :func:`styles` joins stylesheets, the explorers' shared
``controls.css`` first.
"""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).parent / "js"
"""The folder of the explorers' ES modules and stylesheets."""

_SPEC = r'"(?P<path>\./[A-Za-z0-9_.-]+\.js)"'
_IMPORT = re.compile(r"^import\s*\{(?P<names>[^}]*)\}\s*from\s*" + _SPEC + r";[ \t]*$",
                     re.MULTILINE)
_EXPORT_FROM = re.compile(r"^export\s*\{(?P<names>[^}]*)\}\s*from\s*" + _SPEC + r";[ \t]*$",
                          re.MULTILINE)
_EXPORT_STAR = re.compile(r"^export\s*\*\s*from\s*" + _SPEC + r";[ \t]*$", re.MULTILINE)
_EXPORT_LIST = re.compile(r"^export\s*\{(?P<names>[^}]*)\}\s*;[ \t]*$", re.MULTILINE)
_EXPORT_DECL = re.compile(r"^export\s+(?=(?:async\s+)?(?:function|const|let|class)\b)"
                          r"(?P<head>(?:async\s+)?(?:function\s*\*?|const|let|class)\s*)"
                          r"(?P<name>[A-Za-z_$][\w$]*)", re.MULTILINE)
_EXPORT_DEFAULT = re.compile(r"^export\s+default\s+", re.MULTILINE)
_LEFT = re.compile(r"^[ \t]*(?:import|export)\b.*$", re.MULTILINE)


def _names(text: str) -> list[tuple[str, str]]:
    """``a, b as c`` as ``[("a", "a"), ("b", "c")]``: (name in the other module, local name)."""
    pairs = []
    for item in (part.strip() for part in text.split(",")):
        if item:
            name, _, alias = (w.strip() for w in item.partition(" as "))
            pairs.append((name, alias or name))
    return pairs


def _variable(path: str) -> str:
    """The bundle's variable holding a module's exports."""
    return "__chutes_" + re.sub(r"\W", "_", Path(path).stem)


class _Module:
    """One of our ES modules, read for bundling: what it imports and exports, and its body."""

    def __init__(self, path: str, source: str) -> None:
        self.path = path
        self.imports = [(m["path"], _names(m["names"])) for m in _IMPORT.finditer(source)]
        self.reexports = [(m["path"], _names(m["names"])) for m in _EXPORT_FROM.finditer(source)]
        self.stars = [m["path"] for m in _EXPORT_STAR.finditer(source)]
        self.own = [m["name"] for m in _EXPORT_DECL.finditer(source)]
        self.own += [alias for m in _EXPORT_LIST.finditer(source)
                     for _, alias in _names(m["names"])]
        self.default = _EXPORT_DEFAULT.search(source) is not None
        body = source
        for pattern in (_IMPORT, _EXPORT_FROM, _EXPORT_STAR, _EXPORT_LIST):
            body = pattern.sub("", body)
        body = _EXPORT_DECL.sub(lambda m: m["head"] + m["name"], body)
        body, defaults = _EXPORT_DEFAULT.subn("const __default = ", body)
        left = _LEFT.search(body)
        if defaults > 1 or left is not None:
            what = "two default exports" if defaults > 1 else repr(left[0].strip())  # type: ignore[index]
            raise ValueError(f"{path}: an import or export the bundler does not read: {what}")
        self.body = body

    def dependencies(self) -> list[str]:
        return [p for p, _ in self.imports] + [p for p, _ in self.reexports] + self.stars


def _read_modules(entry: str | list[str], folder: Path, what: str) -> list[_Module]:
    """The modules ``entry`` (or each of a list of entries) needs, each once, every module after
    the ones it imports."""
    order: list[_Module] = []
    done: dict[str, _Module] = {}
    path_of: list[str] = []            # the import chain being followed (to name a cycle)

    def visit(path: str) -> None:
        if path in done:
            return
        if path in path_of:
            cycle = " -> ".join([*path_of[path_of.index(path):], path])
            raise ValueError(f"the {what}'s modules import each other in a cycle: {cycle}")
        file = folder / path
        if not file.is_file():
            importer = path_of[-1] if path_of else "the bundle"
            raise ValueError(f"{importer} imports {path}, which is not in {folder}")
        module = _Module(path, file.read_text(encoding="utf-8"))
        path_of.append(path)
        for dependency in module.dependencies():
            visit(dependency.removeprefix("./"))
        path_of.pop()
        done[path] = module
        order.append(module)

    for each in [entry] if isinstance(entry, str) else entry:
        visit(each)
    return order


def _exports(module: _Module, modules: dict[str, _Module]) -> dict[str, str]:
    """A module's export names -> the expression that holds each in the bundle."""
    out: dict[str, str] = {}
    for path in module.stars:                    # `export *` leaves out the default export
        star = modules[path.removeprefix("./")]
        out.update({name: f"{_variable(star.path)}.{name}"
                    for name in _exports(star, modules) if name != "default"})
    for path, pairs in module.reexports:
        source = _exports(modules[path.removeprefix("./")], modules)
        for name, alias in pairs:
            _check_export(module, path, name, source)
            out[alias] = f"{_variable(path)}.{name}"
    out.update({name: name for name in module.own})
    if module.default:
        out["default"] = "__default"
    return out


def _check_export(module: _Module, path: str, name: str, exports: dict[str, str]) -> None:
    if name not in exports:
        raise ValueError(f"{module.path} imports {name} from {path}, which does not export it")


def bundle(entry: str, *, classic: bool, folder: Path = JS, global_name: str,
           what: str, origin: str) -> str:
    """Our ES modules from ``entry`` on, as one script (see the module docstring).

    Parameters
    ----------
    entry : str
        The entry module's file name in ``folder``, e.g. ``"coin_explorer.js"``.
    classic : bool
        False: one ES module, exporting what ``entry`` exports (its ``default`` too). True: a
        classic script (for a page opened from disk) that publishes ``entry``'s ``mount`` as
        ``window[global_name].mount``.
    folder : pathlib.Path
        Where the modules are (default: the explorers' ``js`` folder).
    global_name : str
        The global of the classic script, e.g. ``"ChutesCoinExplorer"``.
    what : str
        The front end in words, for the comments and messages ("coin-flip explorer").
    origin : str
        The Python module that bundles it, named in the bundle's comments.

    Returns
    -------
    str
        JavaScript source.

    Raises
    ------
    ValueError
        If the modules import each other in a cycle, import a module that is missing or a name
        that a module does not export, or use an import or export form the bundler does not read.
    """
    order = _read_modules(entry, folder, what)
    modules = {m.path: m for m in order}
    parts = _parts(order, modules, origin)
    top = _variable(entry)
    exported_names = [n for n in _exports(modules[entry], modules) if n != "default"]
    if classic:
        return (f"// chutes_edu's {what} as a classic script: {origin}.script_source\n"
                "(function () {\n\"use strict\";\n" + "".join(parts) +
                f"window.{global_name} = {{ mount: {top}.mount }};\n}})();\n")
    return (f"// chutes_edu's {what} as one ES module: {origin}.module_source\n"
            + "".join(parts) + f"export default {top}.default;\n"
            f"export const {{ {', '.join(exported_names)} }} = {top};\n")




def site_script(fronts: list[tuple[str, str]], *, folder: Path = JS, origin: str) -> str:
    """Several front ends as ONE classic script, for the course website: a module that several
    of them import (``board_math.js``) is in it once, not once per front end.

    Parameters
    ----------
    fronts : list of (str, str)
        Each front end's entry module in ``folder`` and the global that publishes its ``mount``,
        e.g. ``("coin_explorer.js", "ChutesCoinExplorer")``.
    folder : pathlib.Path
        Where the modules are (default: the explorers' ``js`` folder).
    origin : str
        What makes the script, named in its comments.

    Returns
    -------
    str
        JavaScript source that sets ``window[<global>] = {mount}`` for each front end.
    """
    order = _read_modules([entry for entry, _ in fronts], folder, "website's front ends")
    parts = _parts(order, {m.path: m for m in order}, origin)
    published = "".join(f"window.{name} = {{ mount: {_variable(entry)}.mount }};\n"
                        for entry, name in fronts)
    return (f"// chutes_edu's front ends for the course website, one classic script: {origin}\n"
            "(function () {\n\"use strict\";\n" + "".join(parts) + published + "})();\n")


def _parts(order: list[_Module], modules: dict[str, _Module], origin: str) -> list[str]:
    """Each module of ``order`` as a function scope that returns its exports."""
    parts = []
    for module in order:
        lines = []
        for path, pairs in module.imports:
            exports = _exports(modules[path.removeprefix("./")], modules)
            for name, _ in pairs:
                _check_export(module, path, name, exports)
            names = ", ".join(name if name == alias else f"{name}: {alias}"
                              for name, alias in pairs)
            lines.append(f"const {{ {names} }} = {_variable(path)};")
        exported = _exports(module, modules)
        table = ", ".join(name if name == value else f"{name}: {value}"
                          for name, value in exported.items())
        parts.append(f"// {module.path}, bundled by {origin}\n"
                     f"const {_variable(module.path)} = (() => {{\n" + "\n".join(lines) +
                     f"\n{module.body}\nreturn {{ {table} }};\n}})();\n")
    return parts


def styles(*names: str, folder: Path = JS) -> str:
    """The stylesheets ``names`` of ``folder``, after the explorers' shared ``controls.css``."""
    return "\n".join((folder / name).read_text(encoding="utf-8")
                      for name in ("controls.css", *names))
