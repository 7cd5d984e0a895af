"""Libraries imported on first use, so that ``import chutes_edu`` stays quick.

sympy and scipy are most of the library's import time (about half a CPU-second each), and many
lessons, every explorer and every nbgrader command use neither: a module that needs them names
them from here (``from ._lazy import sympy``), and they are imported by the first function that
uses them. mypy sees the real modules.
(The standard library's ``importlib.util.LazyLoader`` would put a lazy module into
``sys.modules`` for everyone, a student's own ``import sympy`` included; this stays ours.)
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any


class LazyModule:
    """A module imported when one of its attributes is first read.

    Parameters
    ----------
    name : str
        The module's full name, e.g. ``"scipy.sparse.linalg"``.
    """

    __slots__ = ("_module", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self._name)
        return getattr(module, attribute)

    def __repr__(self) -> str:
        return f"<module {self._name!r}, imported on first use>"


def loaded(name: str) -> ModuleType | None:
    """The module ``name`` if it has been imported already (by anyone), else None: an object
    cannot be one of its types before it is imported."""
    return sys.modules.get(name)


if TYPE_CHECKING:
    import scipy.linalg as sla
    import scipy.sparse as sp
    import scipy.sparse.linalg as spla
    import sympy as sympy
else:
    sla = LazyModule("scipy.linalg")
    sp = LazyModule("scipy.sparse")
    spla = LazyModule("scipy.sparse.linalg")
    sympy = LazyModule("sympy")
