"""Every module states its maths in a docstring, every public name is documented, and every
example in a docstring runs."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
import pydoc
import re
import warnings

import pytest

import chutes_edu

with warnings.catch_warnings():  # the old paths of gradebook and hub say they moved (test_layers)
    warnings.simplefilter("ignore", DeprecationWarning)
    MODULES = [importlib.import_module(f"chutes_edu.{m.name}")
               for m in pkgutil.walk_packages(chutes_edu.__path__)
               if not m.name.startswith("checks.lesson")]


@pytest.mark.parametrize("module", MODULES, ids=[m.__name__ for m in MODULES])
def test_help_cites_the_sources_by_author(module: object) -> None:
    """What `help()` shows a student names a source by its author, never our file name for it
    (CONTRIBUTING.md, "Citing the sources")."""
    with warnings.catch_warnings():  # pydoc reads ipywidgets' deprecated class attributes
        warnings.simplefilter("ignore", DeprecationWarning)
        text = pydoc.render_doc(module, renderer=pydoc.plaintext)
    assert not re.findall(r"\bseeds? 00\d", text, flags=re.IGNORECASE)


@pytest.mark.parametrize("module", MODULES, ids=[m.__name__ for m in MODULES])
def test_module_docstring_and_examples(module: object) -> None:
    assert (module.__doc__ or "").strip(), f"{module.__name__} has no module docstring"
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


PUBLIC = sorted({(name, getattr(chutes_edu, name)) for name in chutes_edu.__all__
                 if inspect.isfunction(getattr(chutes_edu, name))
                 or inspect.isclass(getattr(chutes_edu, name))}
                | {(f"control.{name}", getattr(chutes_edu.control, name))
                   for name in chutes_edu.control.__all__
                   if inspect.isfunction(getattr(chutes_edu.control, name))},
                key=lambda pair: pair[0])


@pytest.mark.parametrize("name, obj", PUBLIC, ids=[p[0] for p in PUBLIC])
def test_public_names_have_numpydoc_docstrings(name: str, obj: object) -> None:
    doc = inspect.getdoc(obj) or ""
    assert doc.strip(), f"{name} has no docstring"
    if inspect.isfunction(obj) and inspect.signature(obj).parameters:
        assert "Parameters" in doc, f"{name}'s docstring has no Parameters section"
