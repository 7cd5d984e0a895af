"""nbgitpuller links: hand the course out on a JupyterHub with one link.

A student who follows the link logs in to the hub; nbgitpuller clones the course repository into
their home (or pulls the teacher's new commits into it, keeping the student's own edits) and opens
the start page. The link names the folder the course lands in (``targetpath``, ``chutes-course``
for every fork) and the page to open inside it (``urlpath``), so it works for a fork with any name::

    python -m chutes_teacher.hub --hub https://hub.example.edu --repo https://github.com/you/fork

prints ::

    https://hub.example.edu/hub/user-redirect/git-pull?repo=https%3A%2F%2Fgithub.com%2Fyou%2Ffork&branch=main&targetpath=chutes-course&urlpath=lab%2Ftree%2Fchutes-course%2Fstart_here.ipynb

(nbgitpuller's own link generator is a web page; this is the same link, made offline.)
"""

from __future__ import annotations

import argparse
import sys
from urllib.parse import quote, urlsplit

__all__ = ["DEFAULT_TARGETPATH", "nbgitpuller_link"]

DEFAULT_TARGETPATH = "chutes-course"
"""The folder the course lands in, for every fork: one name the teacher's instructions can use, and
not the package's name (a folder ``chutes_edu`` in a student's home, where kernels start, could
shadow the library as a namespace package)."""

_APPS = {"lab": "lab/tree", "notebook": "tree", "voila": "voila/render"}


def nbgitpuller_link(hub: str, repo: str, branch: str = "main",
                     targetpath: str = DEFAULT_TARGETPATH,
                     path: str = "start_here.ipynb", app: str = "lab") -> str:
    """The nbgitpuller link that clones ``repo`` into ``targetpath`` and opens ``path`` in it.

    Parameters
    ----------
    hub : str
        The hub's address, e.g. ``https://hub.example.edu`` (with any prefix the hub lives under).
    repo : str
        The course repository's URL (the one ``git clone`` takes).
    branch : str
        The branch to hand out.
    targetpath : str
        The folder in each student's home the course goes to (default ``"chutes-course"``, the same
        for every fork). It may not be named ``chutes_edu``, the library's name.
    path : str
        The page to open, relative to the course folder (default: the start page).
    app : str
        ``"lab"`` (JupyterLab), ``"notebook"`` (the classic interface) or ``"voila"``.

    Returns
    -------
    str
        The link, with every parameter URL-encoded.
    """
    parts = urlsplit(hub)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"the hub must be an http(s) address like https://hub.example.edu, "
                         f"not {hub!r}")
    if not repo or not branch:
        raise ValueError(f"repo and branch must not be empty (got repo={repo!r}, "
                         f"branch={branch!r})")
    if app not in _APPS:
        raise ValueError(f"app must be one of {sorted(_APPS)}, not {app!r}")
    folder = targetpath.strip("/")
    if not folder or ".." in folder.split("/"):
        raise ValueError(f"targetpath must be a folder inside the student's home, not "
                         f"{targetpath!r}")
    if folder.split("/")[0] == "chutes_edu":
        raise ValueError(f"targetpath {targetpath!r} is the library's name: a folder of that "
                         f"name in a student's home can shadow the library; keep the default "
                         f"{DEFAULT_TARGETPATH!r} or choose another name")
    urlpath = f"{_APPS[app]}/{folder}/{path.lstrip('/')}"
    query = "&".join(f"{key}={quote(value, safe='')}" for key, value in (
        ("repo", repo), ("branch", branch), ("targetpath", folder), ("urlpath", urlpath)))
    return f"{hub.rstrip('/')}/hub/user-redirect/git-pull?{query}"


def main(argv: list[str] | None = None) -> int:
    """Print the link (``python -m chutes_teacher.hub --help``).

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status.
    """
    parser = argparse.ArgumentParser(prog="python -m chutes_teacher.hub",
                                     description="Print an nbgitpuller link for the course.")
    parser.add_argument("--hub", required=True, help="the hub, e.g. https://hub.example.edu")
    parser.add_argument("--repo", required=True, help="the course repository's clone URL")
    parser.add_argument("--branch", default="main",
                        help="the branch to hand out (default: main; for a graded class the "
                             "student copy, built by `make student`: student)")
    parser.add_argument("--targetpath", default=DEFAULT_TARGETPATH,
                        help=f"folder in the students' homes (default: {DEFAULT_TARGETPATH})")
    parser.add_argument("--path", default="start_here.ipynb",
                        help="page to open inside the course (default: start_here.ipynb)")
    parser.add_argument("--app", default="lab", choices=sorted(_APPS))
    args = parser.parse_args(argv)
    try:
        print(nbgitpuller_link(args.hub, args.repo, args.branch, args.targetpath, args.path,
                               args.app))
    except ValueError as err:
        parser.error(str(err))
    return 0


if __name__ == "__main__":
    sys.exit(main())
