"""Numbered copies of one name ("Goon 1", "Goon 2", …, as a GM adds NPCs by the dozen) told as
one ("Goon 1-2"), wherever the fight lists fighters: the board, its map, what it waits for,
its end.

>>> group_names(["Goon 1", "Ana", "Goon 2", "Goon 3", "Goon 7"])
['Goon 1-3,7', 'Ana']
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

__all__ = ["copy_number", "group_alike", "group_names", "number_runs", "numbers_text"]

# A copy's number has no leading zero, so that "Goon 01" and "Goon 1" never share a line.
#: What is said of a name: alike when equal.
SaidOf = TypeVar("SaidOf", bound=Hashable)

_NUMBERED = re.compile(r"^(.*\S) ([1-9][0-9]{0,3})$")


def copy_number(name: str) -> tuple[str, int] | None:
    """A numbered copy's base name and number ("Goon 12" → ("Goon", 12)); None otherwise."""
    found = _NUMBERED.match(name)
    return None if found is None else (found.group(1), int(found.group(2)))


def number_runs(numbers: Iterable[int]) -> list[str]:
    """Numbers as runs: 1, 2, 3, 5, 7, 8 → ["1-3", "5", "7-8"]."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return [str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs]


def numbers_text(numbers: Iterable[int]) -> str:
    """Numbers as runs: 1, 2, 3, 5, 7, 8 → "1-3,5,7-8"."""
    return ",".join(number_runs(numbers))


def group_names(names: Sequence[str]) -> list[str]:
    """Names, numbered copies sharing one entry where the first of them stood."""
    return [name for name, _ in group_alike([(name, "") for name in names])]


def group_alike(entries: Sequence[tuple[str, SaidOf]]) -> list[tuple[str, SaidOf]]:
    """``(name, said)`` entries, the numbered copies of one name for which the same is said
    sharing one entry where the first of them stood.

    >>> group_alike([("Goon 1", "fine"), ("Ana", "KO"), ("Goon 2", "fine"), ("Goon 3", "KO")])
    [('Goon 1-2', 'fine'), ('Ana', 'KO'), ('Goon 3', 'KO')]
    """
    grouped: list[tuple[str, SaidOf, list[int]]] = []  # name or base, said, numbers
    at: dict[tuple[str, SaidOf], int] = {}
    for name, said in entries:
        numbered = copy_number(name)
        if numbered is None:
            grouped.append((name, said, []))
        elif (numbered[0], said) in at:
            grouped[at[numbered[0], said]][2].append(numbered[1])
        else:
            at[numbered[0], said] = len(grouped)
            grouped.append((numbered[0], said, [numbered[1]]))
    return [(f"{name} {numbers_text(numbers)}" if numbers else name, said)
            for name, said, numbers in grouped]
