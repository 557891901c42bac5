"""A crowded board: numbered copies of an NPC that read the same shown as one line ("Goon 1-5
[NPCs] Dance Floor 25/25 a1"), and, when even that is too long, the fighters listed under
their team and area, so that a fight of 40 fighters keeps every one in a phone's message.

>>> rows = [Row(f"Goon {n}", "NPCs", "Bar", "25/25", "a1", npc=True) for n in (1, 2, 3, 5)]
>>> [row.name for row in group_copies([*rows, Row("Ana", "PCs", "Bar", "40/40", "a1")])]
['Goon 1-3,5', 'Ana']
>>> sectioned(group_copies(rows), 40)
['[NPCs] Bar:', '  Goon 1-3,5 25/25 a1']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from engine import textwidth as tw
from engine.copies import copy_number, group_alike, group_names, number_runs, numbers_text

__all__ = [
    "RUNS_WIDTH", "Row", "copy_number", "group_alike", "group_copies", "group_names",
    "group_waits", "number_runs", "numbers_text", "sectioned",
]


@dataclass(frozen=True)
class Row:
    """One line of the board's fighters as its reader sees it: ``level`` and ``state`` are
    the words shown (a hidden NPC's band, not its level). ``keep``: the fight acts or waits
    on this fighter, so it is never grouped away. ``count``: the fighters the row stands for."""

    name: str
    team: str
    area: str
    level: str
    state: str
    npc: bool = False
    keep: bool = False
    count: int = 1


#: The widest list of numbers one grouped line carries ("1-3,5,7-8"): more goes on a new line.
RUNS_WIDTH = 20


def _run_lists(numbers: Iterable[int]) -> list[tuple[str, int]]:
    """The runs of ``numbers`` in lists of at most RUNS_WIDTH characters, each with how many
    numbers it holds."""
    lists: list[tuple[str, int]] = []
    for run in number_runs(numbers):
        first, _, last = run.partition("-")
        count = int(last or first) - int(first) + 1
        if lists and len(lists[-1][0]) + 1 + len(run) <= RUNS_WIDTH:
            lists[-1] = (f"{lists[-1][0]},{run}", lists[-1][1] + count)
        else:
            lists.append((run, count))
    return lists


def group_copies(rows: Sequence[Row]) -> list[Row]:
    """``rows`` with the NPC copies of one base name, team and area whose level and state
    read the same as one row where the first of them stood ("Goon 1-3,5"; a longer list of
    numbers goes on over more rows). A fighter the fight acts or waits on keeps its own row;
    so does any PC."""
    out: list[list[Row]] = []
    groups: dict[tuple[str, str, str, str, str], tuple[int, list[int]]] = {}
    for row in rows:
        numbered = copy_number(row.name) if row.npc and not row.keep else None
        if numbered is None:
            out.append([row])
            continue
        base, number = numbered
        key = (base, row.team, row.area, row.level, row.state)
        if key in groups:
            groups[key][1].append(number)
        else:
            groups[key] = (len(out), [number])
            out.append([row])
    for (base, *_), (at, numbers) in groups.items():
        if len(numbers) > 1:
            out[at] = [replace(out[at][0], name=f"{base} {runs}", count=count)
                       for runs, count in _run_lists(numbers)]
    return [row for entry in out for row in entry]


def group_waits(waits: Sequence[tuple[str, str]]) -> list[str]:
    """What the fight waits for, ``(who, why)`` each, as entries: numbered copies waited on
    for the same reason share one where the first of them stood.

    >>> group_waits([("Goon 1", "act"), ("Ana", "react"), ("Goon 2", "act")])
    ['Goon 1-2 (act)', 'Ana (react)']
    """
    return [f"{name} ({why})" for name, why in group_alike(waits)]


def sectioned(rows: Sequence[Row], columns: int) -> list[str]:
    """``rows`` under a heading per team and area ("[NPCs] Bar:"), in the order they first
    come, each as ``  name level state`` (a name too long for that: the numbers on the next
    line), every line within ``columns``."""
    sections: dict[tuple[str, str], list[Row]] = {}
    for row in rows:
        sections.setdefault((row.team, row.area), []).append(row)
    lines: list[str] = []
    for (team, area), members in sections.items():
        lines += tw.wrap(f"[{team}] {area}:", columns)
        for row in members:
            whole = f"  {row.name} {row.level} {row.state}"
            if tw.width(whole) <= columns:
                lines.append(whole)
            else:
                lines += tw.wrap(f"  {row.name}", columns, indent="    ")
                lines += tw.wrap(f"    {row.level} {row.state}", columns, indent="    ")
    return lines
