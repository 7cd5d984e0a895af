"""New numbers to practise on an exercise page (issue 50, item 2): the variants a page can draw.

Every exercise set declares, for each of its numbers, the course's value and the values a
student's variant is drawn from (``my_numbers(...)``, ``chutes_edu/numbers/setNN.json``). A page
cannot run the library, so the build computes, for a fixed list of :data:`VARIANTS` practice
variants of each set, what every answer box of the page expects with those numbers, and writes
them into the page; ``book/static/answers.js`` draws one of them when the learner asks for new
numbers, and shows it everywhere the page shows the set's numbers.

The maths of a practice variant. Variant number ``s`` ("numbers #s", ``s`` a 4-digit number) of a
set is the variant :func:`chutes_edu.variants.variant` gives the student id ``str(s)`` under the
practice key :data:`PRACTICE_KEY`: each number is drawn independently and uniformly from its
declared values by HMAC-SHA256, exactly as a student's numbers are drawn from the course secret.
So a variant is derived from the declarations alone (nothing typed per set), is the same on every
build, and is the variant a notebook gets with ``CHUTES_COURSE_SECRET`` set to that key and
``CHUTES_STUDENT_ID`` to ``s``. The seeds ``s`` are taken in a fixed order
(:func:`candidate_seeds`); a variant is kept when it differs from the course's numbers and from
every variant kept before it, and when every box of the page has an answer for it of the course's
kind and tolerance (:func:`practice_variants`).

Computing the answers. A box's expected value is the exercise's check run on the variant's
numbers (:func:`answers.spec_with`, rounded as the course's are). A check reads only some of the
set's numbers, and its answer is a function of the values it read: the values read for one
variant, when another variant has the same values of them, give the same answer
(:class:`_Reads`), so each check runs once per distinct combination of what it reads, not once
per variant (a build computes each set's variants in about a second, not 20).

What the page holds. The course's answer of each box and the set's variants are written in an
encoded form (:func:`encode`: the JSON, its bytes XORed with a keystream of xorshift32 seeded by
a name, in base64), so that reading the page's source does not hand out the answers as readable
numbers. It is not secrecy (the page's script decodes it: a page that judges answers with no
server must hold them), only what keeps a glance at the source from giving the answer away.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from chutes_edu.checks import AnswerSpec
from chutes_edu.i18n import say
from chutes_edu.variants import Numbers, declared_numbers, variant

__all__ = ["NUMBERS_TABLE_ID", "PRACTICE_CLASS", "PRACTICE_KEY", "PRACTICE_NOTE_CLASS",
           "VALUE_CLASS", "VARIANTS", "candidate_seeds", "decode", "encode", "keystream",
           "practice_block", "practice_note", "practice_numbers", "practice_variants",
           "value_span", "value_text"]

# How many variants each page can draw: enough that a learner rarely meets one twice in a
# session (24 draws), few enough that a page stays light (about 10-25 KB of data a page).
VARIANTS = 24
# The key the practice variants are drawn under (the course secret's place in variants.py).
PRACTICE_KEY = "chutes_edu practice numbers"
PRACTICE_CLASS = "chutes-practice"           # the page's "New numbers" panel (answers.js draws it)
PRACTICE_NOTE_CLASS = "chutes-practice-note"  # under a picture drawn with the course's numbers
VALUE_CLASS = "chutes-n"                     # a number's value in the text and the numbers table
NUMBERS_TABLE_ID = "numbers-table"           # the cell id of the table (book/build.py)
_TRIES = 8          # candidate seeds looked at per variant kept, at most


def value_text(value: Any) -> str:
    """A number of a set as the page shows it: ``6``, ``0.35``, ``"stay"``."""
    return json.dumps(value) if isinstance(value, str) else str(value)


def value_span(name: str, value: Any) -> str:
    """The value of the set's number ``name`` as inline HTML the page's script can change."""
    return (f'<span class="{VALUE_CLASS}" data-n="{html.escape(name, quote=True)}">'
            f"{html.escape(value_text(value), quote=False)}</span>")


def candidate_seeds(set_number: int) -> Iterator[int]:
    """The seeds a set's practice variants are looked for at, in a fixed order: 4-digit numbers
    from SHA-256 of the set and a counter (no repeats)."""
    seen: set[int] = set()
    k = 0
    while True:
        digest = hashlib.sha256(f"{PRACTICE_KEY}|{set_number}|{k}".encode()).digest()
        seed = 1000 + int.from_bytes(digest[:8], "big") % 9000
        k += 1
        if seed not in seen:
            seen.add(seed)
            yield seed


def practice_numbers(set_number: int, seed: int) -> Numbers:
    """The numbers of practice variant ``seed`` of a set ("numbers #seed").

    Parameters
    ----------
    set_number : int
        The exercise set.
    seed : int
        The variant's number.

    Returns
    -------
    Numbers
        ``variant(str(seed), set_number, secret=PRACTICE_KEY)``.
    """
    return variant(str(seed), set_number, secret=PRACTICE_KEY)


class _Reads(Numbers):
    """A set's numbers that remember which of them a check read."""

    def __init__(self, numbers: Numbers) -> None:
        super().__init__(numbers.set_number, dict(numbers), numbers.student)
        object.__setattr__(self, "read", {})

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name == "read":
            raise AttributeError(name)
        value = super().__getattr__(name)
        self.read[name] = value
        return value

    def __getitem__(self, name: str) -> Any:
        value = super().__getitem__(name)
        self.read[name] = value
        return value


def _memoised(compute: Any) -> Any:
    """``compute(exercise, numbers)`` run once per exercise and values of the numbers it reads."""
    seen: dict[str, list[tuple[dict[str, Any], Any]]] = {}

    def run(exercise: str, numbers: Numbers) -> Any:
        for read, result in seen.get(exercise, []):
            if all(numbers[name] == value for name, value in read.items()):
                return result
        recording = _Reads(numbers)
        result = compute(exercise, recording)
        seen.setdefault(exercise, []).append((dict(recording.read), result))
        return result
    return run


def _same_form(a: AnswerSpec, b: AnswerSpec) -> bool:
    return (a.kind, a.rel, a.abs_tol) == (b.kind, b.rel, b.abs_tol)


def _difference(course: Any, other: Any) -> Any:
    """What a variant's expected value adds to the course's: for a goal (a dict, 12.6's board and
    square), only its fields that differ; anything else whole."""
    if isinstance(course, dict) and isinstance(other, dict):
        return {key: value for key, value in other.items() if course.get(key) != value}
    return other


def practice_variants(set_number: int, boxes: Mapping[str, AnswerSpec], compute: Any,
                      count: int = VARIANTS) -> list[dict[str, Any]]:
    """A set's practice variants, with what each box expects for each.

    Parameters
    ----------
    set_number : int
        The exercise set.
    boxes : mapping
        ``{exercise: the course's spec}`` of the page's boxes.
    compute : callable
        ``compute(exercise, numbers) -> AnswerSpec | None``, the spec a box has with other
        numbers (``answers.spec_with``).
    count : int
        How many variants to keep (fewer when the set has fewer distinct ones).

    Returns
    -------
    list of dict
        ``{"seed", "numbers": {name: value}, "answers": {exercise: expected}}``; for a goal, the
        expected value holds only its fields that differ from the course's.
    """
    declared = declared_numbers(set_number)
    if not declared:
        return []
    course = {name: d for name, (d, _) in declared.items()}
    run = _memoised(compute)
    kept: list[dict[str, Any]] = []
    shown = [course]
    for tried, seed in enumerate(candidate_seeds(set_number)):
        if len(kept) >= count or tried >= _TRIES * count:
            break
        numbers = practice_numbers(set_number, seed)
        if dict(numbers) in shown:
            continue
        expected = {}
        for exercise, spec in boxes.items():
            other = run(exercise, numbers)
            if other is None or not _same_form(spec, other):
                break
            expected[exercise] = _difference(spec.expected, other.expected)
        else:
            shown.append(dict(numbers))
            kept.append({"seed": seed, "numbers": dict(numbers), "answers": expected})
    return kept


# ------------------------------------------------------------------ what the page holds, encoded
_MASK = 0xFFFFFFFF


def keystream(name: str, length: int) -> bytes:
    """``length`` bytes of xorshift32 seeded by the FNV-1a hash of ``name`` (answers.js's
    ``keystream``, the same bytes)."""
    state = 0x811C9DC5
    for byte in name.encode():
        state = ((state ^ byte) * 0x01000193) & _MASK
    state = state or 0x9E3779B9
    out = bytearray()
    while len(out) < length:
        state ^= (state << 13) & _MASK
        state ^= state >> 17
        state ^= (state << 5) & _MASK
        out += state.to_bytes(4, "little")
    return bytes(out[:length])


def encode(value: Any, name: str) -> str:
    """``value`` as the page holds it: its JSON's UTF-8 bytes XORed with :func:`keystream`
    (``name``), in base64.

    Parameters
    ----------
    value : any
        JSON-ready data.
    name : str
        What seeds the keystream (a box's ``"answer|N.M"``, a panel's ``"practice|N"``).

    Returns
    -------
    str
        ASCII: base64.
    """
    data = json.dumps(value, separators=(",", ":")).encode()
    return base64.b64encode(bytes(a ^ b for a, b in zip(data, keystream(name, len(data)),
                                                         strict=True))).decode("ascii")


def decode(text: str, name: str) -> Any:
    """The data :func:`encode` wrote (what a test reads back)."""
    data = base64.b64decode(text)
    return json.loads(bytes(a ^ b for a, b in zip(data, keystream(name, len(data)), strict=True)))


def practice_block(set_number: int, variants: Sequence[Mapping[str, Any]]) -> str:
    """The HTML where a page's "New numbers" panel is drawn (``book/static/answers.js``).

    Parameters
    ----------
    set_number : int
        The exercise set.
    variants : sequence
        :func:`practice_variants`; each variant's numbers as the page shows them.

    Returns
    -------
    str
        A ``<div class="chutes-practice">`` holding the variants, encoded (:func:`encode`).
    """
    data = [{"seed": v["seed"], "numbers": {k: value_text(x) for k, x in v["numbers"].items()},
             "answers": v["answers"]} for v in variants]
    return (f'<div class="{PRACTICE_CLASS}" data-set="{set_number}" '
            f'data-variants="{encode(data, f"practice|{set_number}")}"></div>')


def practice_note() -> str:
    """The HTML under a picture or explorer drawn with the course's numbers: hidden until the
    page shows other numbers (answers.js shows it then)."""
    words = say("The picture above is drawn with the course's numbers, not with the numbers "
                "drawn for practice: the course's values are those of the numbers table when you "
                "go back to the course's numbers.")
    return f'<p class="{PRACTICE_NOTE_CLASS}" hidden>{html.escape(words, quote=False)}</p>'
