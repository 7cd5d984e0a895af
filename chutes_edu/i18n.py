"""The library's words in the student's language: English, the source, or Spanish.

What a student reads from the library (the self-checks' verdicts and hints, the explorers' words,
the library's messages) is written in English in the code and looked up here at the moment it is
shown: ``gettext("✔ {exercise} right")`` returns the Spanish sentence in a Spanish notebook and the
English one elsewhere. The translations are the catalog ``locale/es/LC_MESSAGES/chutes_edu.po``
(gettext's format, kept by translators); ``tools/translations.py build`` writes its translated
entries as a plain JSON object into ``chutes_edu/locale/<language>.json`` (package data: a
student's environment needs neither gettext tools nor polib, and the same JSON, cut to what the
front end uses, is bundled into the explorers' scripts). A message with no translation, or a
language with no catalog, falls back to the English words: a missing translation is a drift the
translation tests report, never a failure in a student's notebook.

Which language? The first of

1. :func:`set_language` called in this kernel: every generated Spanish notebook's set-up cell says
   ``set_language("es")``, so that every way of running it speaks Spanish, JupyterLab, Voila,
   nbval, nbclient and nbgrader's graders alike (only JupyterLab tells a kernel which notebook
   started it);
2. the environment variable ``CHUTES_EDU_LANGUAGE`` (a teacher's hub may set it for a whole class);
3. the language in the metadata of the notebook that started the kernel
   (``metadata.chutes_edu.language``), found through ``JPY_SESSION_NAME``, the notebook's path
   that jupyter_server gives the kernels it starts: a new notebook a student makes beside the
   Spanish ones has no such metadata and stays English until it calls :func:`set_language`;
4. English.

A refusal is made in English and said in the student's language in one of two equal ways:
:func:`say` fills a translated template (``say("{what} must be a whole number, not {value}",
what=..., value=...)``, what ``chutes_edu.board`` raises), and :func:`say_back` takes a finished
English sentence and matches it against the catalog's templates (what the explorers' page does
with the board maths' messages, ``js/core/i18n.js``: the same English, so the same Spanish). Both
say each filled-in value back too, so a refusal that quotes another one is translated throughout.

This module is the lowest layer of the library: it imports nothing of ``chutes_edu``, so that the
game, the mathematics, the checks and the explorers may all use it.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["LANGUAGES", "SOURCE_LANGUAGE", "set_language", "language", "gettext", "messages",
           "say", "say_back"]

SOURCE_LANGUAGE = "en"
"""The language the code and the notebooks are written in."""

LANGUAGES: tuple[str, ...] = ("en", "es")
"""The languages the course speaks: the source, then each language with a catalog."""

_LOCALE = Path(__file__).resolve().parent / "locale"
_ENVIRONMENT = "CHUTES_EDU_LANGUAGE"
_chosen: str | None = None


def _short(code: str) -> str | None:
    """``code`` as one of :data:`LANGUAGES` ("es_ES.UTF-8" and "ES" are "es"), or None."""
    short = code.strip().replace("-", "_").split("_")[0].split(".")[0].lower()
    return short if short in LANGUAGES else None


def _known(code: str) -> str:
    """``code`` as one of :data:`LANGUAGES`, or ValueError (said in the language chosen so far:
    :func:`language` never asks this, so saying it cannot come back here)."""
    short = _short(code)
    if short is None:
        raise ValueError(say("unknown language {code}; the course speaks {languages}",
                             code=repr(code), languages=", ".join(LANGUAGES)))
    return short


def set_language(code: str | None) -> None:
    """Make the library speak ``code`` in this kernel (None: back to the automatic choice).

    Parameters
    ----------
    code : str or None
        ``"en"`` or ``"es"`` (``"es_ES"`` and the like are read as ``"es"``).

    Raises
    ------
    ValueError
        If the course has no such language.

    Examples
    --------
    >>> set_language("es"); language()
    'es'
    >>> set_language(None)
    """
    global _chosen
    _chosen = None if code is None else _known(code)


@cache
def _session_language(session: str) -> str | None:
    """The language in the metadata of the notebook at ``session`` (a path), if it says one."""
    path = Path(session)
    if path.suffix != ".ipynb" or not path.is_file():
        return None
    try:
        with path.open(encoding="utf-8") as f:
            metadata = json.load(f).get("metadata", {})
        code = metadata.get("chutes_edu", {}).get("language")
        return _short(code) if isinstance(code, str) else None
    except (OSError, ValueError, AttributeError):
        return None


def language() -> str:
    """The language the library speaks now (see the module's docstring for how it is chosen).

    Returns
    -------
    str
        One of :data:`LANGUAGES`.
    """
    if _chosen is not None:
        return _chosen
    from_environment = os.environ.get(_ENVIRONMENT, "")
    if from_environment and (found := _short(from_environment)) is not None:
        return found
    session = os.environ.get("JPY_SESSION_NAME", "")
    if session:
        said = _session_language(session)
        if said is not None:
            return said
    return SOURCE_LANGUAGE


@cache
def messages(code: str) -> dict[str, str]:
    """The translated messages of language ``code``: English text -> its translation.

    Parameters
    ----------
    code : str
        One of :data:`LANGUAGES`; the source language has no messages.

    Returns
    -------
    dict
        Empty for English, or for a language whose catalog is not built.
    """
    path = _LOCALE / f"{_known(code)}.json"
    if code == SOURCE_LANGUAGE or not path.is_file():
        return {}
    data: Any = json.loads(path.read_text(encoding="utf-8"))
    return dict(data.get("messages", {}))


def gettext(message: str, code: str | None = None) -> str:
    """``message`` in the current language (or ``code``), English when it has no translation.

    Parameters
    ----------
    message : str
        The English text, word for word as the catalog holds it; ``{name}`` placeholders stay,
        for ``.format(...)`` after the translation.
    code : str, optional
        A language; default :func:`language`.

    Returns
    -------
    str
        The translation, or ``message`` itself.

    Examples
    --------
    >>> gettext("✔ {exercise} right", "es").format(exercise="1.1")
    '✔ 1.1 correcto'
    """
    return messages(code or language()).get(message) or message


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def _patterns(code: str) -> list[tuple[re.Pattern[str], list[str], str]]:
    """The catalog's templates as whole-sentence patterns, longest template first (as
    js/core/i18n.js orders them)."""
    found: list[tuple[re.Pattern[str], list[str], str, int]] = []
    for english, said in messages(code).items():
        names = _PLACEHOLDER.findall(english)
        if not names:
            continue
        source = "([\\s\\S]+?)".join(re.escape(piece) for piece in re.split(r"\{\w+\}", english))
        found.append((re.compile(f"^{source}$"), names, said, len(english)))
    found.sort(key=lambda item: -item[3])          # stable: the catalog's order among equals
    return [(pattern, names, said) for pattern, names, said, _ in found]


def _fill(words: str, values: dict[str, str]) -> str:
    return _PLACEHOLDER.sub(lambda m: values.get(m[1], m[0]), words)


def say_back(sentence: str, code: str | None = None, _depth: int = 0) -> str:
    """A finished English sentence in the current language (or ``code``), as the page says it.

    Parameters
    ----------
    sentence : str
        English, its placeholders already filled in (``"die must have at least 1 face, got 0"``).
    code : str, optional
        A language; default :func:`language`.

    Returns
    -------
    str
        The translation of the entry that is ``sentence``, or of the first template (longest
        first) that matches all of it, with the matched pieces said back in their turn;
        ``sentence`` itself when nothing matches.
    """
    code = code or language()
    said = messages(code)
    if sentence in said:
        return said[sentence]
    if _depth > 3 or not sentence or not said:
        return sentence
    for pattern, names, words in _patterns(code):
        m = pattern.match(sentence)
        if m is not None:
            return _fill(words, {name: say_back(m[i + 1], code, _depth + 1)
                                 for i, name in enumerate(names)})
    return sentence


def say(template: str, **values: object) -> str:
    """``template`` in the current language, its ``{placeholders}`` filled with ``values``.

    Each value is said back (:func:`say_back`), as the page does with the pieces it matches, so
    that the library and the explorers' page say a refusal in the same words.

    Parameters
    ----------
    template : str
        The English, with ``{name}`` placeholders (a catalog entry).
    **values
        The placeholders' values (shown with ``str``).

    Returns
    -------
    str

    Examples
    --------
    >>> say("{what} must be a whole number, not {value}", what="die", value="'six'", )
    "die must be a whole number, not 'six'"
    """
    code = language()
    if code == SOURCE_LANGUAGE:
        return _fill(template, {k: str(v) for k, v in values.items()})
    return _fill(gettext(template, code),
                 {k: say_back(str(v), code, 1) for k, v in values.items()})
