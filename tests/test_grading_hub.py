"""The nbgitpuller link maker: URL-encoding, targetpath, urlpath to start_here.ipynb inside it."""

from __future__ import annotations

import subprocess
import sys
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from chutes_teacher.hub import DEFAULT_TARGETPATH, nbgitpuller_link


def _query(link: str) -> dict[str, str]:
    parts = urlsplit(link)
    assert parts.path.endswith("/hub/user-redirect/git-pull")
    query = parse_qs(parts.query, strict_parsing=True)
    assert all(len(v) == 1 for v in query.values())
    return {k: v[0] for k, v in query.items()}


@pytest.mark.parametrize("repo", ["https://github.com/you/markov-fun.git",
                                  "https://github.com/owner/chutes_edu"])
def test_a_fork_with_any_name_lands_in_the_course_folder_and_opens_the_start_page(repo: str) -> None:
    link = nbgitpuller_link("https://hub.example.edu", repo)
    assert link == ("https://hub.example.edu/hub/user-redirect/git-pull?"
                    f"repo={quote(repo, safe='')}&branch=main&"
                    "targetpath=chutes-course&urlpath=lab%2Ftree%2Fchutes-course%2Fstart_here.ipynb")
    q = _query(link)
    assert q["urlpath"] == f"lab/tree/{q['targetpath']}/start_here.ipynb"
    assert q["targetpath"] == DEFAULT_TARGETPATH != "chutes_edu"   # never the library's name


def test_everything_is_url_encoded_and_round_trips() -> None:
    repo = "https://git.example.edu/a b/c&d?x=1#frag"
    link = nbgitpuller_link("https://hub.example.edu/prefix/", repo, branch="fall/2026 & co",
                            targetpath="Markov course", path="exercises/01_exercises_waiting_for_heads.ipynb",
                            app="notebook")
    assert link.startswith("https://hub.example.edu/prefix/hub/user-redirect/git-pull?")
    assert " " not in link and link.count("?") == 1 and "#" not in link
    q = _query(link)
    assert q == {"repo": repo, "branch": "fall/2026 & co", "targetpath": "Markov course",
                 "urlpath": "tree/Markov course/exercises/01_exercises_waiting_for_heads.ipynb"}


@pytest.mark.parametrize("kwargs, words", [
    ({"hub": "hub.example.edu"}, "hub.example.edu"),
    ({"hub": "ftp://hub.example.edu"}, "ftp://"),
    ({"repo": ""}, "repo=''"),
    ({"targetpath": "../elsewhere"}, "../elsewhere"),
    ({"targetpath": "chutes_edu"}, "library's name"),
    ({"app": "emacs"}, "emacs"),
])
def test_bad_input_is_named(kwargs: dict[str, str], words: str) -> None:
    args = {"hub": "https://hub.example.edu", "repo": "https://github.com/o/r", **kwargs}
    with pytest.raises(ValueError, match=words.replace("?", r"\?").replace(".", r"\.")):
        nbgitpuller_link(**args)


def test_command_line() -> None:
    done = subprocess.run([sys.executable, "-m", "chutes_teacher.hub", "--hub",
                           "https://hub.example.edu", "--repo", "https://github.com/you/fork"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == nbgitpuller_link("https://hub.example.edu",
                                                   "https://github.com/you/fork")
