"""Numbered names, as a GM makes and places NPCs by the dozen: "Goon 1" … "Goon 5", and the
range "Goon 1-5" that names them all at once.

>>> next_names("Goon", ["Goon 1", "goon 2", "Boss", "Goon"], 3)
['Goon 3', 'Goon 4', 'Goon 5']
>>> base_of("Goon 12"), base_of("Goon")
('Goon', 'Goon')
>>> expand("Goon 1-3, Boss, boss", ["Goon 1", "Goon 2", "Goon 3", "Boss"])
(['Goon 1', 'Goon 2', 'Goon 3', 'Boss'], [])
>>> expand("Goon 2-4, Bos", ["Goon 1", "Goon 2", "Goon 3", "Boss"])
(['Goon 2', 'Goon 3'], ['Goon 4', 'Bos'])
>>> ranges(["Goon 1", "Goon 2", "Goon 3", "Goon 5", "Goon 6", "Boss", "Ana 1"])
['Goon 1-3', 'Goon 5-6']
>>> sorted(["Goon 10", "goon 2", "Goon 1", "Boss"], key=natural_key)
['Boss', 'Goon 1', 'goon 2', 'Goon 10']
>>> matching(["Big Thug", "Thug 10", "Thug 2", "Boss"], "thug")
['Thug 2', 'Thug 10', 'Big Thug']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from engine.names import name_key

__all__ = ["RANGE_LIMIT", "as_given", "base_of", "expand", "matching", "natural_key",
           "next_names", "ranges"]

_T = TypeVar("_T")

#: The most names one command copies or places.
RANGE_LIMIT = 25
#: The longest range read as a range (longer: too many for any command, named as typed).
_LONGEST_RANGE = 1000

_NUMBERED = re.compile(r"^(?P<base>.*\S)\s+(?P<number>\d{1,9})$")
_RANGE = re.compile(r"^(?P<base>.*\S)\s+(?P<first>\d{1,9})\s*-\s*(?P<last>\d{1,9})$")
_DIGITS = re.compile(r"([0-9]+)")


def natural_key(name: str) -> tuple[str | int, ...]:
    """How names sort for a reader, as the board numbers copies: numbers by their value
    ("Goon 2" before "Goon 10"), case and spacing aside."""
    parts = _DIGITS.split(name_key(name))  # text, number, text, number, …, text
    return tuple(int(part) if i % 2 else part for i, part in enumerate(parts))


def as_given(_: object) -> int:
    """For :func:`matching`'s ``rank``: keep the options in the order given (a fight's order,
    the engine's order of targets)."""
    return 0


def matching(options: Iterable[_T], typed: str, *, label: Callable[[_T], str] = str,
             rank: Callable[[_T], Any] | None = None) -> list[_T]:
    """What every autocomplete offers: the options whose ``label`` holds what was typed (case
    and spacing aside), those it starts first, then the others; each part in natural order
    of the labels (Thug 1, 2, 3 … 10), or by ``rank`` (a sort key) where the order means
    something (your own characters first, enemies first)."""
    wanted = name_key(typed)
    keyed = [(name_key(label(option)), option) for option in options]
    found = [(not key.startswith(wanted), option) for key, option in keyed if wanted in key]
    order = rank or (lambda option: natural_key(label(option)))
    return [option for _, option in sorted(found, key=lambda pair: (pair[0], order(pair[1])))]


def base_of(name: str) -> str:
    """``name`` without a number at its end ("Goon 3" → "Goon"): what its copies are called."""
    found = _NUMBERED.match(name.strip())
    return found["base"] if found else name.strip()


def _numbers(base: str, names: Iterable[str]) -> list[int]:
    """The numbers of the names that are ``base`` and a number (any case and spacing)."""
    key = name_key(base)
    found = (_NUMBERED.match(name.strip()) for name in names)
    return [int(m["number"]) for m in found if m and name_key(m["base"]) == key]


def next_names(base: str, names: Iterable[str], count: int) -> list[str]:
    """``count`` names "``base`` n", numbered on from the highest such name in ``names``."""
    highest = max(_numbers(base, names), default=0)
    return [f"{base} {n}" for n in range(highest + 1, highest + count + 1)]


def expand(text: str, names: Iterable[str]) -> tuple[list[str], list[str]]:
    """The names a comma-separated list stands for, as ``names`` spells them, each once, in
    the order given; a part "Goon 1-5" stands for Goon 1 to Goon 5 (unless a name is spelled
    so). Second: what was typed that names nobody (each name missing from a range)."""
    known = {name_key(n): n for n in names}
    found: dict[str, str] = {}
    unknown: list[str] = []
    for part in (" ".join(p.split()) for p in text.split(",")):
        if not part:
            continue
        wanted = [part]
        span = _RANGE.match(part)
        if name_key(part) not in known and span:
            first, last = int(span["first"]), int(span["last"])
            if first <= last and last - first < _LONGEST_RANGE:
                wanted = [f"{span['base']} {n}" for n in range(first, last + 1)]
        for name in wanted:
            if name_key(name) in known:
                found.setdefault(name_key(name), known[name_key(name)])
            else:
                unknown.append(name)
    return list(found.values()), unknown


def ranges(names: Iterable[str]) -> list[str]:
    """"Goon 1-3" for each run of two or more numbered names in ``names`` (of one base, as
    the first of them spells it)."""
    listed = list(names)
    bases: dict[str, str] = {}
    for name in listed:
        found = _NUMBERED.match(name.strip())
        if found:
            bases.setdefault(name_key(found["base"]), found["base"])
    spans: list[str] = []
    for base in bases.values():
        numbers = sorted(set(_numbers(base, listed)))
        start = 0
        for i in range(1, len(numbers) + 1):
            if i == len(numbers) or numbers[i] != numbers[i - 1] + 1:
                if i - start >= 2:
                    spans.append(f"{base} {numbers[start]}-{numbers[i - 1]}")
                start = i
    return spans
