"""The text a GM types for a map, read and written: the areas, their connections, positions and
notes, and nothing of what they mean in play (that is :mod:`engine.maps.game_map`).

A map is typed as text, one statement a line::

    Catwalk --| DJ Booth        # solid line: move and sight both ways
    DJ Booth |-- Dance Floor    # '|' next to an area = a cover mark at that area's end
    Catwalk .. Dance Floor      # dashed line: sight only
    Roof -> Alley               # arrow: move one way only (sight and range both ways)
    Alley <- Roof               # the same arrow written the other way round
    Hall -[]- Vault             # door, closed: blocks move, sight and range until opened
    Hall -[ ]- Study            # door, open: a solid line
    Bar .x. Alley               # not a connection: no line of sight between these two
    Kitchen                     # an area on its own: an area with no connection (yet)
    Kitchen: back door lever    # 'Area: text' attaches a note to the area
    Kitchen @ 2,3               # 'Area @ col,row' places the area on a grid (for drawing)

Rules of the format:

- ``#`` starts a comment (so names and notes cannot contain ``#``); blank lines are ignored.
- A connector stands between two area names with spaces around it. Cover marks (``|``) may
  stand at either end or both ends of every connector except ``.x.``: ``A |-> B``,
  ``A -[]-| B``, ``A |..| B``. A mark belongs to the area it touches.
- Area names are at most 40 characters, may contain spaces, and cannot contain
  ``| [ ] < > # : @`` nor a word that looks like a connector (only ``- . = ~ _ | < > [ ] x``,
  so ``A - B`` or ``A --> B`` is an error, not an area), nor a connector without its spaces
  (``Bar--Kitchen`` is an error, not one area). They are matched
  case-insensitively, runs of spaces count as one, and they are shown as first written;
  ``areas`` lists them in order of first appearance.
- One connection per pair of areas, whatever its kind (a ``.x.`` counts); no area connects to
  itself; one grid cell holds one area; col and row are 0-99, col counts from the left and row
  from the top. Notes (at most 200 characters) may hold anything but ``#``, connectors and
  ``:`` included; an area may have several, kept in order.

Every mistake raises :class:`MapError` naming the line. :func:`write_map` writes a canonical
text (areas with their positions and notes first, then the connections in the order given, each
arrow pointing right) that reads back to the same :class:`MapText`.

>>> parts = read_map("Bar --| Kitchen\\nKitchen: the back door\\nKitchen @ 2,1")
>>> parts.areas, parts.positions, parts.notes_by_area
(('Bar', 'Kitchen'), (None, (2, 1)), ((), ('the back door',)))
>>> parts.connections[0].token
'--|'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.maps.connection import Connection, Kind, area_key
from engine.maps.errors import MapError
from engine.phrases import Said, phrase

__all__ = ["MAX_GRID", "MAX_NAME", "MAX_NOTE", "MapText", "read_map", "write_map"]

MAX_NAME = 40
MAX_NOTE = 200
MAX_GRID = 99


@dataclass(frozen=True)
class MapText:
    """What a map's text says, as read: the fields a :class:`~engine.maps.GameMap` is built from.

    ``areas``: display names in order of first appearance. ``connections``: in the order
    written. ``positions`` and ``notes_by_area`` run parallel to ``areas``.
    """

    areas: tuple[str, ...]
    connections: tuple[Connection, ...]
    positions: tuple[tuple[int, int] | None, ...]
    notes_by_area: tuple[tuple[str, ...], ...]


def read_map(text: str | Iterable[str]) -> MapText:
    """Read a map written in the text format above; MapError with the line on any mistake.

    >>> read_map("Bar --| Kitchen\\nKitchen |-- Alley").areas
    ('Bar', 'Kitchen', 'Alley')
    >>> read_map("Bar --| Kitchen\\n\\nKitchen --> Alley")
    Traceback (most recent call last):
    ...
    engine.maps.errors.MapError: line 3: unknown connector '-->': use -- .. -> <- -[]- -[ ]- or \
.x. with spaces around it, a | at an end for cover (--| |--)
    """
    lines = text.splitlines() if isinstance(text, str) else list(text)
    builder = _Builder()
    for number, raw in enumerate(lines, start=1):
        statement = raw.split("#", 1)[0].strip()
        if statement:
            builder.statement(statement, number)
    if not builder.names:
        raise MapError(0, phrase("the map has no areas"))
    return MapText(
        areas=tuple(builder.names),
        connections=tuple(builder.connections),
        positions=tuple(builder.positions),
        notes_by_area=tuple(tuple(n) for n in builder.notes),
    )


def write_map(parts: MapText) -> str:
    """The canonical text of a map; ``read_map(write_map(parts)) == parts``.

    >>> print(write_map(read_map("Bar: taps\\nBar <-| Roof\\nRoof @ 1,0")), end="")
    # areas
    Bar
    Bar: taps
    Roof @ 1,0
    # connections
    Roof |-> Bar
    """
    lines = ["# areas"]
    for name, pos, notes in zip(parts.areas, parts.positions, parts.notes_by_area, strict=True):
        lines.append(name if pos is None else f"{name} @ {pos[0]},{pos[1]}")
        lines.extend(f"{name}: {note}" for note in notes)
    if parts.connections:
        lines.append("# connections")
        lines.extend(f"{c.a} {c.token} {c.b}" for c in parts.connections)
    return "\n".join(lines) + "\n"


# -- reading, one statement at a time --------------------------------------------------------

_CONNECTOR = re.compile(r"(?<!\S)(\|?)(-\[ \]-|-\[\]-|\.[xX]\.|--|\.\.|->|<-)(\|?)(?!\S)")
_POSITION = re.compile(r"^(?P<name>[^@]*)@\s*(?P<col>\d+)\s*,\s*(?P<row>\d+)$")
_FORBIDDEN = set("|[]<>#:@")
_DASHY = re.compile(r"^[-.=~_|<>\[\]xX]*[-.=~_|<>\[\]][-.=~_|<>\[\]xX]*$")
# A connector typed without spaces inside a name ("Bar--Kitchen", "Bar..Kitchen"): refused,
# not read as one area. (Other connectors hold | [ < > and are refused as characters.)
_GLUED = re.compile(r"(--|(?<=\w)\.\.(?=\w)|(?<=\w)\.[xX]\.(?=\w))")
_SYMBOLS = {
    "--": (Kind.LINE, False),
    "..": (Kind.SIGHT, False),
    "->": (Kind.ARROW, False),
    "<-": (Kind.ARROW, False),
    "-[]-": (Kind.DOOR, False),
    "-[ ]-": (Kind.DOOR, True),
    ".x.": (Kind.NO_SIGHT, False),
    ".X.": (Kind.NO_SIGHT, False),
}


class _Builder:
    def __init__(self) -> None:
        self.names: list[str] = []
        self.index: dict[str, int] = {}
        self.positions: list[tuple[int, int] | None] = []
        self.position_lines: dict[int, int] = {}
        self.cells: dict[tuple[int, int], int] = {}
        self.notes: list[list[str]] = []
        self.connections: list[Connection] = []
        self.pairs: dict[frozenset[int], int] = {}

    def name(self, raw: str, line: int, where: Said | None) -> str:
        name = " ".join(raw.split())
        if not name:
            raise MapError(line, phrase("expected an area name") if where is None
                           else phrase("expected an area name {where}", where=where))
        for word in name.split():
            if _DASHY.match(word):
                raise MapError(
                    line,
                    phrase("unknown connector {connector}: use -- .. -> <- -[]- -[ ]- or .x. "
                           "with spaces around it, a | at an end for cover (--| |--)",
                           connector=repr(word)),
                )
            glued = _GLUED.search(word)
            if glued:
                raise MapError(
                    line,
                    phrase("cannot read {word}: a connector like {connector} needs a space on "
                           "each side (e.g. 'Bar {bare} Kitchen')",
                           word=repr(word), connector=repr(glued[1]), bare=glued[1]),
                )
        bad = sorted(set(name) & _FORBIDDEN)
        if bad:
            raise MapError(line, phrase("cannot read {name}: area names cannot contain {bad}",
                                        name=repr(name), bad=" ".join(bad)))
        if len(name) > MAX_NAME:
            raise MapError(line, phrase("area names are at most {limit} characters ({start}…)",
                                        limit=MAX_NAME, start=name[:20]))
        return name

    def area(self, name: str) -> int:
        key = area_key(name)
        if key not in self.index:
            self.index[key] = len(self.names)
            self.names.append(name)
            self.positions.append(None)
            self.notes.append([])
        return self.index[key]

    def statement(self, text: str, line: int) -> None:
        left, colon, note = text.partition(":")
        matches = list(_CONNECTOR.finditer(text))
        if colon and not _CONNECTOR.search(left):  # a note may hold anything but '#'
            matches = []
        if len(matches) > 1:
            raise MapError(line, phrase(
                "one connection per line: found more than one connector"))
        if matches:
            self.connect(text, matches[0], line)
        elif colon:
            i = self.area(self.name(left, line, phrase("before ':' (a note is 'Area: text')")))
            note = " ".join(note.split())
            if not note:
                raise MapError(line, phrase("expected a note after ':'"))
            if len(note) > MAX_NOTE:
                raise MapError(line, phrase("notes are at most {limit} characters",
                                            limit=MAX_NOTE))
            self.notes[i].append(note)
        elif "@" in text:
            self.place(text, line)
        else:
            self.area(self.name(text, line, None))

    def place(self, text: str, line: int) -> None:
        found = _POSITION.match(text)
        if not found:
            raise MapError(line, phrase(
                "a grid position is 'Area @ col,row', e.g. 'Bar @ 2,1'"))
        i = self.area(self.name(found["name"], line, phrase("before '@'")))
        col, row = int(found["col"]), int(found["row"])
        if col > MAX_GRID or row > MAX_GRID:
            raise MapError(line, phrase("grid columns and rows go from 0 to {highest}",
                                        highest=MAX_GRID))
        if self.positions[i] is not None:
            first = self.position_lines[i]
            raise MapError(line, phrase("{area} already has a position (line {first})",
                                        area=self.names[i], first=first))
        holder = self.cells.get((col, row))
        if holder is not None:
            raise MapError(line, phrase("{area} is already at {col},{row}",
                                        area=self.names[holder], col=col, row=row))
        self.positions[i] = (col, row)
        self.position_lines[i] = line
        self.cells[(col, row)] = i

    def connect(self, text: str, match: re.Match[str], line: int) -> None:
        left_mark, symbol, right_mark = match.group(1, 2, 3)
        kind, is_open = _SYMBOLS[symbol]
        left = self.name(text[: match.start()], line,
                         phrase("before {connector}", connector=repr(match.group(0))))
        right = self.name(text[match.end() :], line,
                          phrase("after {connector}", connector=repr(match.group(0))))
        if kind is Kind.NO_SIGHT and (left_mark or right_mark):
            raise MapError(line, phrase(
                "a .x. line is no connection and cannot carry cover marks"))
        i, j = self.area(left), self.area(right)
        if i == j:
            raise MapError(line, phrase("an area cannot connect to itself ({area})",
                                        area=repr(self.names[i])))
        pair = frozenset((i, j))
        if pair in self.pairs:
            raise MapError(
                line,
                phrase("{first} and {second} are already connected (line {earlier}); one line "
                       "per pair of areas", first=self.names[i], second=self.names[j],
                       earlier=self.pairs[pair]),
            )
        self.pairs[pair] = line
        a, b, cover_a, cover_b = left, right, bool(left_mark), bool(right_mark)
        if symbol == "<-":
            a, b, cover_a, cover_b = b, a, cover_b, cover_a
        self.connections.append(
            Connection(
                self.names[self.index[area_key(a)]],
                self.names[self.index[area_key(b)]],
                kind,
                cover_a=cover_a,
                cover_b=cover_b,
                is_open=is_open,
            )
        )
