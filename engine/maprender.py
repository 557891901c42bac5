"""Plain-text pictures of an Unhex map, for a Discord code block (the caller adds the fences).

Two views, both with their legend, both at most :data:`LIMIT` characters:

- the **list view**: each area, who is in it, its connections as seen from it, its notes;
- the **grid view**, when every area has a grid position (``Area @ col,row``): labelled boxes
  (a number for a name too long for its box, listed under the grid), a letter per occupant
  (who is who listed under the grid), connections between boxes in the same row or column
  drawn in box-drawing characters (when nothing stands between them), every other connection
  listed under the grid.

Text is measured in columns (:mod:`engine.textwidth`), so CJK and emoji names keep the grid
aligned.

:func:`render_map` draws the grid when it fits the width, else the list.

>>> from engine.maps import parse_map
>>> m = parse_map("Roof @ 0,0\\nAlley @ 1,0\\nRoof ->| Alley\\nAlley: a ladder")
>>> print(render_map(m, {"alley": ["Ann"]}, width=30))
┌─────┐   ┌─────┐
│Roof │─▶┤│Alley│
│     │   │  A  │
└─────┘   └─────┘
─ move+sight ┄ sight only ▶ one way
■ door shut □ door open ╳ no sight
├ ┤ ┬ ┴ cover mark at that end
* Alley: a ladder
Who is where:
Alley: A Ann
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

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine import textwidth as tw
from engine.copies import copy_number, group_names
from engine.maps import Connection, GameMap, Kind
from engine.phrases import Phrase, phrase

__all__ = ["GRID_LEGEND", "GRID_LEGEND_SAID", "LIMIT", "LIST_LEGEND", "LIST_LEGEND_SAID", "Say",
           "marker_letters", "render_grid", "render_list", "render_map"]

#: How the words a picture holds (its legend, its headings) are said: a phrase rendered in the
#: reader's language; English unless told (the engine never translates).
Say = Callable[[Phrase], str]

LIMIT = 1990
"""Longest text a renderer returns: a Discord message (2,000) less the code fences."""

_GAP_X = 3  # columns between two boxes
_GAP_Y = 3  # lines between two boxes
_MIN_INNER = 5  # narrowest box interior worth drawing
_LABEL_LINES = 2  # an area name taking more lines than this is shown as a number
_MARKER_ROWS = 2  # lines of occupant markers a box shows at most
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

# Translators: a legend line under a map drawn in a phone's code block: at most 40 columns,
# its symbols kept as they are.
LIST_LEGEND_SAID = (
    phrase("-- move+sight  .. sight only"),
    phrase("-> one way  -[]- door shut  -[ ]- open"),
    phrase(".x. no line of sight"),
    phrase("| cover mark at that area's end"),
)
GRID_LEGEND_SAID = (
    phrase("─ move+sight ┄ sight only ▶ one way"),
    phrase("■ door shut □ door open ╳ no sight"),
    phrase("├ ┤ ┬ ┴ cover mark at that end"),
)
LIST_LEGEND = tuple(line.english() for line in LIST_LEGEND_SAID)
GRID_LEGEND = tuple(line.english() for line in GRID_LEGEND_SAID)
#: The legend's lines never run wider than this (a phone's code block), whatever the language.
_LEGEND_COLUMNS = 40


def _english(said: Phrase) -> str:
    return said.english()


def _legend(lines: Sequence[Phrase], english: Sequence[str], say: Say) -> list[str]:
    """A legend's lines said, each within a phone's columns (``english``: the same lines
    made once, as the board draws its map at every step)."""
    if say is _english:
        return list(english)
    said = [say(line) for line in lines]
    return [wrapped for line in said
            for wrapped in ([line] if tw.width(line) <= _LEGEND_COLUMNS
                            else tw.wrap(line, _LEGEND_COLUMNS))]


def render_map(
    m: GameMap,
    occupants: Mapping[str, Sequence[str]] | None = None,
    width: int = 40,
    markers: Mapping[str, str] | None = None,
    say: Say = _english,
) -> str:
    """The grid view if the map has positions and it fits ``width``, else the list view."""
    grid = render_grid(m, occupants, width=width, markers=markers, say=say)
    return grid if grid is not None else render_list(m, occupants, width=width, say=say)


def marker_letters(names: Iterable[str]) -> dict[str, str]:
    """One letter per name, given in order, for the grid: numbered copies of one name ("Thug
    1", "Thug 2") share their name's letter; each other name takes its initial, else another
    word's, else another letter of it, when no earlier name took it; the names left take the
    free letters in order (A-Z, then a-z). Numbers are left to the areas.

    >>> marker_letters(["山田", "Ana", "Goon", "Guard 1", "Guard 2", "Big Bob", "Bo"])
    {'山田': 'C', 'Ana': 'A', 'Goon': 'G', 'Guard 1': 'U', 'Guard 2': 'U', 'Big Bob': 'B', \
'Bo': 'O'}
    """
    return dict(_letters_of(tuple(names)))


@lru_cache(maxsize=256)
def _letters_of(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The letters of :func:`marker_letters`, worked out once per list of names (a board is
    drawn at every step, most of them with the same fighters)."""
    keys = list(dict.fromkeys(" ".join(name.split()) for name in names))
    base = {key: (copy_number(key) or (key, 0))[0] for key in keys}
    found: dict[str, str] = {}  # by base name
    for pick in (_initials, _letters):  # first each name its initials, then its other letters
        for name in dict.fromkeys(base.values()):
            if name not in found:
                mark = next((c for c in pick(name) if c not in found.values()), None)
                if mark is not None:
                    found[name] = mark
    spare = [c for c in (*_LETTERS, *_LETTERS.lower()) if c not in found.values()]
    for name in dict.fromkeys(base.values()):  # then the others (a CJK name) from those left
        if name not in found:
            found[name] = spare.pop(0) if spare else "?"
    return tuple((key, found[base[key]]) for key in keys)


def _initials(name: str) -> list[str]:
    return [c for c in (w[0].upper() for w in name.split()) if _is_mark(c)]


def _letters(name: str) -> list[str]:
    return [c for c in name.upper() if _is_mark(c)]


def _is_mark(c: str) -> bool:
    """A letter that can mark a fighter: one column wide ("É" can, "山" cannot)."""
    return len(c) == 1 and c.isalpha() and tw.width(c) == 1


def _who(m: GameMap, occupants: Mapping[str, Sequence[str]] | None) -> dict[str, list[str]]:
    """Occupants keyed by display name, in map order; unknown areas raise UnknownAreaError."""
    found: dict[str, list[str]] = {}
    for area, names in (occupants or {}).items():
        found.setdefault(m.area(area), []).extend(" ".join(n.split()) for n in names)
    return {a: found[a] for a in m.areas if found.get(a)}


def _more_areas(left: int, say: Say) -> str:
    return say(phrase("… {count} more areas", count=left))


def _fit(blocks: list[list[str]], head: Sequence[str], limit: int, say: Say) -> str:
    """``head`` then as many whole blocks as fit in ``limit``, then '… N more areas'."""
    lines = list(head)
    for shown, block in enumerate(blocks):
        left = len(blocks) - shown - 1
        more = [_more_areas(left, say)] if left else []
        if len("\n".join(lines + block + more)) > limit:
            return "\n".join([*lines, _more_areas(left + 1, say)])[:limit]
        lines += block
    return "\n".join(lines)[:limit]


def render_list(
    m: GameMap,
    occupants: Mapping[str, Sequence[str]] | None = None,
    limit: int = LIMIT,
    width: int = 40,
    say: Say = _english,
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
        columns = max(width, 20)
        block = tw.wrap(head, columns)
        for c in m.connections_of(area):
            block += tw.wrap(f"  {c.token_from(area)} {c.other(area)}", columns, "    ")
        for note in m.notes(area):
            block += tw.wrap(f"  * {note}", columns, "    ")
        blocks.append(block)
    return _fit(blocks, _legend(LIST_LEGEND_SAID, LIST_LEGEND, say), limit, say)


# -- grid --------------------------------------------------------------------------------------


def _label(name: str, inner: int) -> list[str] | None:
    """``name`` in at most two lines of at most ``inner`` columns, broken at spaces; None
    when it does not fit whole (the box shows a number instead)."""
    out: list[str] = []
    for word in name.split():
        if tw.width(word) > inner:
            return None
        if out and tw.width(out[-1]) + 1 + tw.width(word) <= inner:
            out[-1] += " " + word
        else:
            out.append(word)
    return out if len(out) <= _LABEL_LINES else None


def _marker_rows(marks: Sequence[str], inner: int) -> list[str]:
    """The markers of a box's occupants in at most two rows of ``inner`` columns: spaced when
    they fit, else a letter that copies share once with their count ("G×12"), else side by
    side, else as many as fit and "+N" for the rest (the legend under the grid names
    everyone)."""
    for shown in (marks, _counted(marks)):
        spaced = tw.wrap(" ".join(shown), inner, indent="")
        if len(spaced) <= _MARKER_ROWS:
            return spaced
    room = inner * _MARKER_ROWS
    keep = len(marks)
    while keep + (len(f"+{len(marks) - keep}") if keep < len(marks) else 0) > room:
        keep -= 1
    joined = "".join(marks[:keep]) + (f"+{len(marks) - keep}" if keep < len(marks) else "")
    return [joined[i : i + inner] for i in range(0, len(joined), inner)]


def _counted(marks: Sequence[str]) -> list[str]:
    """Each marker once, with how many share it ("G×12") when more than one do."""
    return [m if n == 1 else f"{m}×{n}" for m, n in Counter(marks).items()]


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
    markers: Mapping[str, str] | None = None,
    say: Say = _english,
) -> str | None:
    """The map as boxes on its grid, or None when an area has no position or it won't fit.

    A box shows its area's name, or a number when the name does not fit (the numbers are
    listed under the grid), and with ``occupants`` a marker for each (``markers``, a letter per
    name, by default :func:`marker_letters` in the order given), named under the grid.

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
    positions = _grid_positions(m)
    if positions is None:
        return None
    cols = 1 + max(c for c, _ in positions)
    rows = 1 + max(r for _, r in positions)
    boxes = _box_labels(m, (width - _GAP_X * (cols - 1)) // cols - 2)
    if boxes is None:
        return None
    labels, numbered, inner, room = boxes
    label_lines = max(len(lines) for lines in labels.values())
    who = _who(m, occupants)
    if markers is None:
        markers = marker_letters(n for names in who.values() for n in names)
    inner, marks = _area_markers(who, markers, inner, room)
    marker_lines = 0 if occupants is None else max([1, *(len(r) for r in marks.values())])
    layout = _Layout(inner, 2 + label_lines + marker_lines, label_lines)
    canvas = [
        [" "] * (cols * (inner + 2) + (cols - 1) * _GAP_X)
        for _ in range(rows * layout.height + (rows - 1) * _GAP_Y)
    ]
    for (col, row), area in positions.items():
        _draw_box(canvas, layout, (col, row), labels[area], marks.get(area, []), marker_lines)
    drawn = _draw_connections(canvas, m, positions, layout)
    lines = ["".join(row).rstrip() for row in canvas]
    lines += _grid_notes(m, _Notes(numbered, drawn, who, markers), max(width, 20), say)
    text = "\n".join(lines)
    return None if len(text) > limit or len(canvas[0]) > width else text


_Cell = tuple[int, int]  # (column, row) on the map's grid


def _area_markers(who: Mapping[str, Sequence[str]], markers: Mapping[str, str], inner: int,
                  room: int) -> tuple[int, dict[str, list[str]]]:
    """The boxes' inner width, widened (within ``room``) to put an area's markers on one row,
    and each area's rows of markers."""
    crowd = max((tw.width(" ".join(_counted([markers.get(n, "?") for n in names])))
                 for names in who.values()), default=0)
    inner = max(inner, min(room, crowd))
    return inner, {a: _marker_rows([markers.get(n, "?") for n in names], inner)
                   for a, names in who.items()}


def _grid_positions(m: GameMap) -> dict[_Cell, str] | None:
    """Each grid cell's area, or None when an area has no position."""
    positions: dict[_Cell, str] = {}
    for area, pos in zip(m.areas, m.positions, strict=True):
        if pos is None:
            return None
        positions[pos] = area
    return positions


def _box_labels(
    m: GameMap, room: int
) -> tuple[dict[str, list[str]], dict[str, str], int, int] | None:
    """Each area's label lines in a box ``room`` wide at most, the areas shown by number, the
    interior width the labels need and ``room``; None when the boxes would be too narrow."""
    widest = max(tw.width(a) for a in m.areas)
    if room < min(_MIN_INNER, widest):
        return None
    fitted = {a: _label(a, min(room, widest)) for a in m.areas}
    numbered = {a: str(n) for n, a in enumerate((a for a in m.areas if fitted[a] is None), 1)}
    labels = {a: fitted[a] or [numbered[a]] for a in m.areas}
    inner = max(tw.width(line) for lines in labels.values() for line in lines)
    return labels, numbered, max(inner, min(room, widest, _MIN_INNER)), room


def _draw_box(
    canvas: list[list[str]],
    layout: _Layout,
    cell: _Cell,
    label: list[str],
    shown: list[str],
    marker_lines: int,
) -> None:
    """One area's box on the canvas: its label, then its occupants' markers."""
    inner = layout.inner
    x, y = layout.x(cell[0]), layout.y(cell[1])
    body = [tw.centre(line, inner) for line in label]
    body += [" " * inner] * (layout.label_lines - len(body))
    body += [tw.centre(r, inner) for r in shown]
    body += [" " * inner] * (marker_lines - len(shown))
    rows_text = ["┌" + "─" * inner + "┐", *("│" + b + "│" for b in body)]
    rows_text.append("└" + "─" * inner + "┘")
    for dy, text in enumerate(rows_text):
        canvas[y + dy][x : x + inner + 2] = tw.cells(text)


def _cell_of(m: GameMap, area: str) -> _Cell:
    pos = m.position(area)
    assert pos is not None
    return pos


def _free_between(positions: Mapping[_Cell, str], p: _Cell, q: _Cell) -> bool:
    """No box stands between two cells of one row or one column."""
    (c1, r1), (c2, r2) = p, q
    if r1 == r2:
        return all((c, r1) not in positions for c in range(min(c1, c2) + 1, max(c1, c2)))
    return all((c1, r) not in positions for r in range(min(r1, r2) + 1, max(r1, r2)))


def _draw_connections(
    canvas: list[list[str]], m: GameMap, positions: Mapping[_Cell, str], layout: _Layout
) -> set[int]:
    """The connections drawn straight between their boxes, neighbours first, where the way is
    clear; returns the ``id`` of each one drawn."""
    drawable = [
        c
        for c in m.connections
        if _in_line(p := _cell_of(m, c.a), q := _cell_of(m, c.b))
        and _free_between(positions, p, q)
    ]
    drawable.sort(key=lambda c: _spans(_cell_of(m, c.a), _cell_of(m, c.b)))  # neighbours first
    drawn: set[int] = set()
    for c in drawable:
        (c1, r1), (c2, r2) = _cell_of(m, c.a), _cell_of(m, c.b)
        first = c.a if (c1, r1) < (c2, r2) else c.b
        lo, hi = sorted([(c1, r1), (c2, r2)])
        if r1 == r2:
            y = layout.mid_y(r1)
            xs = range(layout.x(lo[0]) + layout.inner + 2, layout.x(hi[0]))
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
    return drawn


def _in_line(p: _Cell, q: _Cell) -> bool:
    """Two cells in one column or one row."""
    return p[0] == q[0] or p[1] == q[1]


def _spans(p: _Cell, q: _Cell) -> int:
    return abs(p[0] - q[0]) + abs(p[1] - q[1])


@dataclass(frozen=True)
class _Notes:
    """What the lines under a grid tell: the areas numbered for want of room, the connections
    drawn (their ids), who is in each area and their markers."""

    numbered: Mapping[str, str]
    drawn: set[int]
    who: Mapping[str, list[str]]
    markers: Mapping[str, str]


def _grid_notes(
    m: GameMap, drawn: _Notes, columns: int, say: Say) -> list[str]:
    """The lines under the grid: numbered areas, the legend, connections not drawn, notes and
    who is where, wrapped at ``columns``."""
    lines: list[str] = []
    for a, number in drawn.numbered.items():
        lines += tw.wrap(f"{number} {a}", columns)
    lines += _legend(GRID_LEGEND_SAID, GRID_LEGEND, say)
    others = [f"{c.a} {_glyph(c)} {c.b}" for c in m.connections if id(c) not in drawn.drawn]
    below = [say(phrase("Other lines:")), *others] if others else []
    below += [f"* {a}: {note}" for a in m.areas for note in m.notes(a)]
    for line in below:
        lines += tw.wrap(line, columns)
    who, markers = drawn.who, drawn.markers
    if who:
        lines.append(say(phrase("Who is where:")))
        for a, names in who.items():  # numbered copies share their letter: "T Thug 1-3"
            marked = group_names([f"{markers.get(n, '?')} {n}" for n in names])
            lines += tw.wrap_items(f"{a}:", marked, columns)
    return lines
