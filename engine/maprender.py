"""Plain-text pictures of an Unhex map, for a Discord code block (the caller adds the fences).

Two views, both with their legend, both at most :data:`LIMIT` characters:

- the **list view**: each area, who is in it, its connections as seen from it, its notes;
- the **grid view**, when every area has a grid position (``Area @ col,row``): labelled boxes,
  connections between boxes in the same row or column drawn in box-drawing characters (when
  nothing stands between them), every other connection listed under the grid.

:func:`render_map` draws the grid when it fits the width, else the list.

>>> from engine.maps import parse_map
>>> m = parse_map("Roof @ 0,0\\nAlley @ 1,0\\nRoof ->| Alley\\nAlley: a ladder")
>>> print(render_map(m, {"alley": ["Ann"]}, width=30))
┌─────┐   ┌─────┐
│Roof │─▶┤│Alley│
│     │   │ An  │
└─────┘   └─────┘
─ move+sight ┄ sight only ▶ one way
■ door shut □ door open ╳ no sight
├ ┤ ┬ ┴ cover mark at that end
* Alley: a ladder
Who is where:
Alley: Ann
>>> print(render_list(m))
-- move+sight  .. sight only
-> one way  -[]- door shut  -[ ]- open
.x. no line of sight
| cover mark at that area's end
Roof
  ->| Alley
Alley
  |<- Roof
  * a ladder
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.maps import Connection, GameMap, Kind

__all__ = ["LIMIT", "render_grid", "render_list", "render_map"]

LIMIT = 1990
"""Longest text a renderer returns: a Discord message (2,000) less the code fences."""

_GAP_X = 3  # columns between two boxes
_GAP_Y = 3  # lines between two boxes
_MIN_INNER = 5  # narrowest box interior worth drawing

LIST_LEGEND = (
    "-- move+sight  .. sight only",
    "-> one way  -[]- door shut  -[ ]- open",
    ".x. no line of sight",
    "| cover mark at that area's end",
)
GRID_LEGEND = (
    "─ move+sight ┄ sight only ▶ one way",
    "■ door shut □ door open ╳ no sight",
    "├ ┤ ┬ ┴ cover mark at that end",
)


def render_map(
    m: GameMap, occupants: Mapping[str, Sequence[str]] | None = None, width: int = 40
) -> str:
    """The grid view if the map has positions and it fits ``width``, else the list view."""
    grid = render_grid(m, occupants, width=width)
    return grid if grid is not None else render_list(m, occupants, width=width)


def _who(m: GameMap, occupants: Mapping[str, Sequence[str]] | None) -> dict[str, list[str]]:
    """Occupants keyed by display name, in map order; unknown areas raise UnknownAreaError."""
    found: dict[str, list[str]] = {}
    for area, names in (occupants or {}).items():
        found.setdefault(m.area(area), []).extend(" ".join(n.split()) for n in names)
    return {a: found[a] for a in m.areas if found.get(a)}


def _fit(blocks: list[list[str]], head: Sequence[str], limit: int) -> str:
    """``head`` then as many whole blocks as fit in ``limit``, then '… N more areas'."""
    lines = list(head)
    for shown, block in enumerate(blocks):
        left = len(blocks) - shown - 1
        more = [f"… {left} more areas"] if left else []
        if len("\n".join(lines + block + more)) > limit:
            return "\n".join([*lines, f"… {left + 1} more areas"])[:limit]
        lines += block
    return "\n".join(lines)[:limit]


def render_list(
    m: GameMap,
    occupants: Mapping[str, Sequence[str]] | None = None,
    limit: int = LIMIT,
    width: int = 40,
) -> str:
    """Each area (with who is in it), its connections as written from it, and its notes.

    >>> from engine.maps import parse_map
    >>> print(render_list(parse_map("Hall -[]- Vault\\nHall .x. Yard"), {"Hall": ["Ann", "Bo"]}))
    -- move+sight  .. sight only
    -> one way  -[]- door shut  -[ ]- open
    .x. no line of sight
    | cover mark at that area's end
    Hall [Ann, Bo]
      -[]- Vault
      .x. Yard
    Vault
      -[]- Hall
    Yard
      .x. Hall
    """
    who = _who(m, occupants)
    blocks: list[list[str]] = []
    for area in m.areas:
        head = f"{area} [{', '.join(who[area])}]" if area in who else area
        block = [head]
        block += [f"  {c.token_from(area)} {c.other(area)}" for c in m.connections_of(area)]
        for note in m.notes(area):
            block += textwrap.wrap(
                f"  * {note}", max(width, 20), initial_indent="", subsequent_indent="    "
            )
        blocks.append(block)
    return _fit(blocks, LIST_LEGEND, limit)


# -- grid --------------------------------------------------------------------------------------


def _wrap(name: str, width: int, lines: int = 2) -> list[str]:
    """``name`` in at most ``lines`` lines of at most ``width`` characters, cut with '…'."""
    out: list[str] = []
    for word in name.split():
        if len(word) > width:
            word = word[: width - 1] + "…"
        if out and len(out[-1]) + 1 + len(word) <= width:
            out[-1] += " " + word
        else:
            out.append(word)
    if len(out) > lines:
        last = " ".join(out[lines - 1 :])
        out = [*out[: lines - 1], last[: width - 1] + "…"]
    return out


def _centre(text: str, width: int) -> str:
    """``text`` centred in ``width``, any odd space on the right."""
    left = (width - len(text)) // 2
    return (" " * left + text).ljust(width)


def _initials(name: str) -> str:
    """Two letters for a character: 'Ann' → 'An', 'Guard 2' → 'G2', 'Big Bob' → 'BB'."""
    words = name.split()
    if len(words) > 1:
        return (words[0][0] + words[1][0]).upper()
    return name[:1].upper() + name[1:2].lower()


@dataclass(frozen=True)
class _Layout:
    inner: int  # box interior width
    height: int  # box height, borders included
    label_lines: int

    def x(self, col: int) -> int:
        return col * (self.inner + 2 + _GAP_X)

    def y(self, row: int) -> int:
        return row * (self.height + _GAP_Y)

    def mid_x(self, col: int) -> int:
        return self.x(col) + 1 + self.inner // 2

    def mid_y(self, row: int) -> int:
        return self.y(row) + (self.height - 1) // 2


def _line_chars(c: Connection, n: int, first: str, vertical: bool) -> list[str]:
    """``n`` characters of connection ``c`` drawn from area ``first``'s side."""
    dashed = c.kind in (Kind.SIGHT, Kind.NO_SIGHT)
    fill = ("┆" if dashed else "│") if vertical else ("┄" if dashed else "─")
    chars = [fill] * n
    if c.cover_at(first):
        chars[0] = "┬" if vertical else "├"
    if c.cover_at(c.other(first)):
        chars[-1] = "┴" if vertical else "┤"
    mid = n // 2
    if c.kind is Kind.ARROW:
        forward = c.a == first
        chars[mid] = ("▼" if forward else "▲") if vertical else ("▶" if forward else "◀")
    elif c.kind is Kind.DOOR:
        chars[mid] = "□" if c.is_open else "■"
    elif c.kind is Kind.NO_SIGHT:
        chars[mid] = "╳"
    return chars


def _glyph(c: Connection) -> str:
    """A connection as three grid characters, read from ``c.a`` to ``c.b``."""
    return "".join(_line_chars(c, 3, c.a, vertical=False))


def render_grid(
    m: GameMap,
    occupants: Mapping[str, Sequence[str]] | None = None,
    width: int = 40,
    limit: int = LIMIT,
) -> str | None:
    """The map as boxes on its grid, or None when an area has no position or it won't fit.

    >>> from engine.maps import parse_map
    >>> print(render_grid(parse_map("A @ 0,0\\nB @ 0,1\\nC @ 1,1\\nA |..| B\\nA -[ ]- C")))
    ┌─┐
    │A│
    └─┘
     ┬
     ┆
     ┴
    ┌─┐   ┌─┐
    │B│   │C│
    └─┘   └─┘
    ─ move+sight ┄ sight only ▶ one way
    ■ door shut □ door open ╳ no sight
    ├ ┤ ┬ ┴ cover mark at that end
    Other lines:
    A ─□─ C
    """
    positions: dict[tuple[int, int], str] = {}
    for area, pos in zip(m.areas, m.positions, strict=True):
        if pos is None:
            return None
        positions[pos] = area
    cols = 1 + max(c for c, _ in positions)
    rows = 1 + max(r for _, r in positions)
    room = (width - _GAP_X * (cols - 1)) // cols - 2
    inner = min(room, max(len(a) for a in m.areas))
    if inner < min(_MIN_INNER, max(len(a) for a in m.areas)):
        return None
    labels = {a: _wrap(a, inner) for a in m.areas}
    inner = max(len(line) for lines in labels.values() for line in lines)
    label_lines = max(len(lines) for lines in labels.values())
    who = _who(m, occupants)
    layout = _Layout(inner, 2 + label_lines + (occupants is not None), label_lines)
    canvas = [
        [" "] * (cols * (inner + 2) + (cols - 1) * _GAP_X)
        for _ in range(rows * layout.height + (rows - 1) * _GAP_Y)
    ]

    for (col, row), area in positions.items():
        x, y = layout.x(col), layout.y(row)
        body = [_centre(line, inner) for line in labels[area]]
        body += [" " * inner] * (label_lines - len(body))
        if occupants is not None:
            names = who.get(area, [])
            tag = " ".join(_initials(n) for n in names)
            if len(tag) > inner:
                tag = f"{len(names)} here"
            if len(tag) > inner:
                tag = str(len(names))
            body.append(_centre(tag, inner))
        rows_text = ["┌" + "─" * inner + "┐", *("│" + b + "│" for b in body)]
        rows_text.append("└" + "─" * inner + "┘")
        for dy, text in enumerate(rows_text):
            canvas[y + dy][x : x + inner + 2] = list(text)

    def cell(a: str) -> tuple[int, int]:
        pos = m.position(a)
        assert pos is not None
        return pos

    def free_between(p: tuple[int, int], q: tuple[int, int]) -> bool:
        (c1, r1), (c2, r2) = p, q
        if r1 == r2:
            return all((c, r1) not in positions for c in range(min(c1, c2) + 1, max(c1, c2)))
        return all((c1, r) not in positions for r in range(min(r1, r2) + 1, max(r1, r2)))

    def spans(p: tuple[int, int], q: tuple[int, int]) -> int:
        return abs(p[0] - q[0]) + abs(p[1] - q[1])

    drawable = [
        c
        for c in m.connections
        if (cell(c.a)[0] == cell(c.b)[0] or cell(c.a)[1] == cell(c.b)[1])
        and free_between(cell(c.a), cell(c.b))
    ]
    drawable.sort(key=lambda c: spans(cell(c.a), cell(c.b)))  # neighbours first
    drawn: set[int] = set()
    for c in drawable:
        (c1, r1), (c2, r2) = cell(c.a), cell(c.b)
        first = c.a if (c1, r1) < (c2, r2) else c.b
        lo, hi = sorted([(c1, r1), (c2, r2)])
        if r1 == r2:
            y = layout.mid_y(r1)
            xs = range(layout.x(lo[0]) + inner + 2, layout.x(hi[0]))
            points = [(x, y) for x in xs]
        else:
            x = layout.mid_x(c1)
            ys = range(layout.y(lo[1]) + layout.height, layout.y(hi[1]))
            points = [(x, y) for y in ys]
        if any(canvas[y][x] != " " for x, y in points):
            continue
        chars = _line_chars(c, len(points), first, vertical=r1 != r2)
        for (x, y), ch in zip(points, chars, strict=True):
            canvas[y][x] = ch
        drawn.add(id(c))

    lines = ["".join(row).rstrip() for row in canvas]
    lines += GRID_LEGEND
    others = [f"{c.a} {_glyph(c)} {c.b}" for c in m.connections if id(c) not in drawn]
    below = ["Other lines:", *others] if others else []
    below += [f"* {a}: {note}" for a in m.areas for note in m.notes(a)]
    if who:
        below.append("Who is where:")
        below += [f"{a}: {', '.join(names)}" for a, names in who.items()]
    for line in below:
        lines += textwrap.wrap(line, max(width, 20), subsequent_indent="  ")
    text = "\n".join(lines)
    return None if len(text) > limit or len(canvas[0]) > width else text
