"""Matrices in a notebook: typeset maths that the keyboard can reach and a screen reader can read.

sympy shows a matrix as LaTeX, which JupyterLab and Voila put in a box that scrolls when the
typeset matrix is a hair taller or wider than its room; a box that scrolls must be reachable by the
keyboard (WCAG 2.1.1; axe-core's ``scrollable-region-focusable``), and JupyterLab's is not. So a
notebook shows a sympy matrix as HTML instead: the same LaTeX, typeset by the page's MathJax, in a
region that Tab reaches, named with the matrix's size and entries ("a 4 by 4 matrix; its rows:
1/3, 0, 1/3, 1/3; ..."). The class ``mathjax_process`` lets the course website's MathJax typeset it
too. The LaTeX and the plain text stay in the output for other readers.
"""

from __future__ import annotations

import html
from typing import Any

from ..i18n import say
from .alt_text import _shell

__all__ = ["matrix_html", "register_matrix_display"]

_SPOKEN_ENTRIES = 64      # larger matrices are named by their size alone


def matrix_html(matrix: Any) -> str:
    """The HTML a notebook shows for a sympy matrix (see the module docstring).

    Parameters
    ----------
    matrix : sympy.MatrixBase

    Returns
    -------
    str
        ``<div class="chutes-math mathjax_process" role="region" tabindex="0" aria-label=...>``
        around ``$$...$$``.
    """
    import sympy

    rows, cols = matrix.shape
    if rows * cols <= _SPOKEN_ENTRIES:
        entries = "; ".join(", ".join(str(matrix[i, j]) for j in range(cols)) for i in range(rows))
        label = say("a {rows} by {cols} matrix; its rows: {entries}", rows=rows, cols=cols,
                    entries=entries)
    else:
        label = say("a {rows} by {cols} matrix", rows=rows, cols=cols)
    return (f'<div class="chutes-math mathjax_process" role="region" tabindex="0" '
            f'aria-label="{html.escape(label, quote=True)}" style="overflow-x: auto">'
            f"$${html.escape(sympy.latex(matrix))}$$</div>")


def register_matrix_display(shell: Any = None) -> bool:
    """Show sympy matrices in a notebook as :func:`matrix_html` (done on import).

    Parameters
    ----------
    shell : IPython.core.interactiveshell.InteractiveShell, optional
        The shell to register with; default the running one (none outside IPython).

    Returns
    -------
    bool
        True if a shell was found and the formatter registered.
    """
    shell = _shell(shell)
    if shell is None:
        return False
    from sympy.matrices import MatrixBase

    shell.display_formatter.formatters["text/html"].for_type(MatrixBase, matrix_html)
    return True
