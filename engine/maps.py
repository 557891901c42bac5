"""Unhex maps: areas joined by connections, and the range, line of sight, cover and intercept
questions combat asks of them (004 "Maps" to "Intercept"; RULINGS 7-13).

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
  ``m.areas`` lists them in order of first appearance.
- One connection per pair of areas, whatever its kind (a ``.x.`` counts); no area connects to
  itself; one grid cell holds one area; col and row are 0-99, col counts from the left and row
  from the top. Notes (at most 200 characters) may hold anything but ``#``, connectors and
  ``:`` included; an area may have several, kept in order.

Every mistake raises :class:`MapError` naming the line. :meth:`GameMap.to_text` writes a
canonical text (areas with their positions and notes first, then the connections in the order
given, each arrow pointing right) that parses back to an equal map.

Readings of the rules this module makes (beyond RULINGS 7-13):

- Range, line of sight and cover all use one undirected graph: solid lines, dashed lines,
  arrows (either way) and open doors. Closed doors and ``.x.`` lines are not edges, so an area
  behind a closed door may be out of every range.
- Line of sight is mutual (RULINGS 9): the marks are counted from each end, each count
  leaving out that end's own marks, and if either count blocks, neither area sees the other.
  On the nightclub the kitchen counts one mark toward the dance floor (the bar's) but the dance
  floor counts two (the bar's and the kitchen's), so neither sees the other.
- One area end holds at most one mark: AoE Cover on an end that already has a terrain mark
  adds nothing, and Demolish removes it.
- Stealth (``hidden=True``) adds one mark at the target's end of every connection into its
  area: cover against any other area (even one it cannot reach), and +1 toward line of sight
  in the count from the viewer's end (the mark stands at the hidden one's own area, which its
  own count leaves out).
- An unknown area name raises :class:`UnknownAreaError`, which is both a :class:`MapError`
  (line 0) and a :class:`KeyError`.

>>> m = parse_map('''
... Catwalk --| DJ Booth
... DJ Booth |-- Dance Floor
... Catwalk .. Dance Floor
... Dance Floor --| Bar
... ''')
>>> m.areas
('Catwalk', 'DJ Booth', 'Dance Floor', 'Bar')
>>> m.range("catwalk", "BAR"), m.can_move("Catwalk", "Dance Floor")
(2, False)
>>> m.has_cover("Dance Floor", "Bar"), m.has_cover("Bar", "Dance Floor")
(True, False)
>>> m.line_of_sight("Catwalk", "Bar")
True
>>> parse_map("Bar -- Bar")
Traceback (most recent call last):
...
engine.maps.MapError: line 1: an area cannot connect to itself ('Bar')
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum

from engine.errors import RuleError

__all__ = [
    "MAX_GRID",
    "MAX_NAME",
    "MAX_NOTE",
    "Connection",
    "GameMap",
    "Kind",
    "MapError",
    "UnknownAreaError",
    "area_key",
    "parse_map",
]

MAX_NAME = 40
MAX_NOTE = 200
MAX_GRID = 99


class MapError(RuleError):
    """Bad map text, or a request naming something the map does not have.

    ``line`` is the 1-based line of the text at fault, or 0 when no line is (a query on a
    built map, or the text as a whole). ``str()`` is ``"line N: message"``, or just the
    message for line 0.

    >>> err = MapError(3, "expected an area name before '--'")
    >>> err.line, err.message, str(err)
    (3, "expected an area name before '--'", "line 3: expected an area name before '--'")
    """

    def __init__(self, line: int, message: str) -> None:
        super().__init__(line, message)
        self.line = line
        self.message = message

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


class UnknownAreaError(MapError, KeyError):
    """A name that is no area of the map (line 0); also a KeyError.

    >>> try:
    ...     parse_map("Bar").area("Roof")
    ... except KeyError as err:
    ...     print(err)
    no area called 'Roof' on this map
    """

    def __init__(self, name: str) -> None:
        super().__init__(0, f"no area called {name!r} on this map")
        self.name = name


class Kind(Enum):
    """The kinds of line a map draws between two areas (RULINGS 7)."""

    LINE = "--"  # solid: move and sight both ways
    SIGHT = ".."  # dashed: sight only
    ARROW = "->"  # one-way move from ``a`` to ``b``; sight and range both ways
    DOOR = "-[]-"  # a solid line while open; blocks move and sight while closed
    NO_SIGHT = ".x."  # not a connection: no line of sight between the two areas


@dataclass(frozen=True)
class Connection:
    """One line of the map between areas ``a`` and ``b`` (display names).

    ``cover_a`` / ``cover_b``: a cover mark at that area's end. ``is_open`` only matters for
    doors. Arrows always point from ``a`` to ``b``.

    >>> c = Connection("Dance Floor", "Bar", Kind.LINE, cover_b=True)
    >>> c.token, c.token_from("Bar"), c.gives_sight
    ('--|', '|--', True)
    """

    a: str
    b: str
    kind: Kind
    cover_a: bool = False
    cover_b: bool = False
    is_open: bool = False

    @property
    def gives_sight(self) -> bool:
        """An edge for range and line of sight: anything but a closed door or ``.x.``."""
        if self.kind is Kind.DOOR:
            return self.is_open
        return self.kind is not Kind.NO_SIGHT

    def allows_move(self, frm: str, to: str) -> bool:
        """Whether one Move step may go along this line from ``frm`` to ``to`` (keys or names)."""
        ka, kb, kf, kt = area_key(self.a), area_key(self.b), area_key(frm), area_key(to)
        if {kf, kt} != {ka, kb} or kf == kt:
            return False
        if self.kind is Kind.LINE:
            return True
        if self.kind is Kind.DOOR:
            return self.is_open
        if self.kind is Kind.ARROW:
            return kf == ka
        return False

    @property
    def symbol(self) -> str:
        """The connector without marks: ``--``, ``..``, ``->``, ``-[]-``, ``-[ ]-``, ``.x.``."""
        if self.kind is Kind.DOOR and self.is_open:
            return "-[ ]-"
        return self.kind.value

    @property
    def token(self) -> str:
        """The connector as written from ``a`` to ``b``, cover marks included."""
        return ("|" if self.cover_a else "") + self.symbol + ("|" if self.cover_b else "")

    def token_from(self, area: str) -> str:
        """The connector as written with ``area`` on the left (arrows may become ``<-``)."""
        if area_key(area) == area_key(self.a):
            return self.token
        symbol = "<-" if self.kind is Kind.ARROW else self.symbol
        return ("|" if self.cover_b else "") + symbol + ("|" if self.cover_a else "")

    def other(self, area: str) -> str:
        """The area at the other end from ``area``."""
        return self.b if area_key(area) == area_key(self.a) else self.a

    def cover_at(self, area: str) -> bool:
        """Whether this line has a cover mark at ``area``'s end."""
        return self.cover_a if area_key(area) == area_key(self.a) else self.cover_b

    def with_cover_at(self, area: str, cover: bool) -> Connection:
        """The same line with the mark at ``area``'s end set or removed."""
        if area_key(area) == area_key(self.a):
            return replace(self, cover_a=cover)
        return replace(self, cover_b=cover)


def area_key(name: str) -> str:
    """How names are compared: stripped, runs of spaces as one, case-folded.

    >>> area_key("  Dance   FLOOR ")
    'dance floor'
    """
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class _Tables:
    """Per-source answers, computed once by one breadth-first search."""

    dist: tuple[int, ...]  # -1: unreachable
    marks: tuple[int, ...]  # most marks on any shortest path, the source's own marks left out
    cover: tuple[bool, ...]  # some shortest path's last line has a mark at the target's end


@dataclass(frozen=True)
class _Graph:
    index: dict[str, int]
    sight: tuple[tuple[tuple[int, bool, bool], ...], ...]  # (other, mark here, mark there)
    moves: tuple[tuple[int, ...], ...]
    no_sight: frozenset[tuple[int, int]]


@dataclass(frozen=True)
class GameMap:
    """An immutable Unhex map. Build one with :func:`parse_map`; changes in play (doors, AoE
    Cover, Demolish) return new maps and leave this one as it was.

    ``areas``: display names in order of first appearance. ``connections``: in the order
    given. ``positions`` and ``notes`` run parallel to ``areas``.

    >>> m = parse_map("Hall -[]- Vault\\nHall -- Study")
    >>> m.range("Hall", "Vault") is None, m.doors_of("Vault")
    (True, (('Hall', False),))
    >>> opened = m.with_door("vault", "hall", True)
    >>> opened.range("Hall", "Vault"), opened.can_move("Vault", "Hall"), m == opened
    (1, True, False)
    """

    areas: tuple[str, ...]
    connections: tuple[Connection, ...] = ()
    positions: tuple[tuple[int, int] | None, ...] = ()
    notes_by_area: tuple[tuple[str, ...], ...] = ()
    _graph: _Graph = field(init=False, repr=False, compare=False, hash=False)
    _cache: dict[int, _Tables] = field(
        init=False, repr=False, compare=False, hash=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        n = len(self.areas)
        if not self.positions:
            object.__setattr__(self, "positions", (None,) * n)
        if not self.notes_by_area:
            object.__setattr__(self, "notes_by_area", ((),) * n)
        if len(self.positions) != n or len(self.notes_by_area) != n:
            raise MapError(0, "positions and notes must run parallel to the areas")
        index: dict[str, int] = {}
        for i, name in enumerate(self.areas):
            if area_key(name) in index:
                raise MapError(0, f"area {name!r} is listed twice")
            index[area_key(name)] = i
        sight: list[list[tuple[int, bool, bool]]] = [[] for _ in range(n)]
        moves: list[list[int]] = [[] for _ in range(n)]
        no_sight: set[tuple[int, int]] = set()
        for c in self.connections:
            if area_key(c.a) not in index:
                raise UnknownAreaError(c.a)
            if area_key(c.b) not in index:
                raise UnknownAreaError(c.b)
            i, j = index[area_key(c.a)], index[area_key(c.b)]
            if c.kind is Kind.NO_SIGHT:
                no_sight.update({(i, j), (j, i)})
            if c.gives_sight:
                sight[i].append((j, c.cover_a, c.cover_b))
                sight[j].append((i, c.cover_b, c.cover_a))
            if c.allows_move(c.a, c.b):
                moves[i].append(j)
            if c.allows_move(c.b, c.a):
                moves[j].append(i)
        graph = _Graph(
            index=index,
            sight=tuple(tuple(s) for s in sight),
            moves=tuple(tuple(sorted(mv)) for mv in moves),
            no_sight=frozenset(no_sight),
        )
        object.__setattr__(self, "_graph", graph)

    # -- names -------------------------------------------------------------------------------

    def area(self, name: str) -> str:
        """The display name of the area called ``name`` (any case); UnknownAreaError if none.

        >>> parse_map("Dance Floor -- Bar").area("  dance FLOOR")
        'Dance Floor'
        """
        return self.areas[self._i(name)]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and area_key(name) in self._graph.index

    def _i(self, name: str) -> int:
        try:
            return self._graph.index[area_key(name)]
        except KeyError:
            raise UnknownAreaError(name) from None

    def position(self, area: str) -> tuple[int, int] | None:
        """The ``(col, row)`` grid position given for ``area``, if any."""
        return self.positions[self._i(area)]

    def notes(self, area: str) -> tuple[str, ...]:
        """The notes attached to ``area``, in the order written.

        >>> parse_map("Vault: the loot\\nVault: an alarm").notes("vault")
        ('the loot', 'an alarm')
        """
        return self.notes_by_area[self._i(area)]

    def connections_of(self, area: str) -> tuple[Connection, ...]:
        """Every line touching ``area`` (``.x.`` included), in map order."""
        key = area_key(self.area(area))
        return tuple(c for c in self.connections if key in (area_key(c.a), area_key(c.b)))

    def connection(self, a: str, b: str) -> Connection | None:
        """The line between ``a`` and ``b``, if any (``.x.`` included)."""
        ka, kb = area_key(self.area(a)), area_key(self.area(b))
        for c in self.connections:
            if {area_key(c.a), area_key(c.b)} == {ka, kb}:
                return c
        return None

    def doors_of(self, area: str) -> tuple[tuple[str, bool], ...]:
        """``(other area, is open)`` for each door of ``area``, in map order."""
        return tuple(
            (c.other(area), c.is_open) for c in self.connections_of(area) if c.kind is Kind.DOOR
        )

    # -- movement ----------------------------------------------------------------------------

    def can_move(self, a: str, b: str) -> bool:
        """Whether one Move action takes a character from ``a`` to ``b``.

        >>> m = parse_map("Roof -> Alley\\nAlley -- Street")
        >>> m.can_move("Roof", "Alley"), m.can_move("Alley", "Roof"), m.can_move("Alley", "Alley")
        (True, False, False)
        """
        return self._i(b) in self._graph.moves[self._i(a)]

    def moves_from(self, a: str) -> tuple[str, ...]:
        """The areas one Move step away from ``a``, in map order (for autocomplete).

        >>> parse_map("Roof -> Alley\\nAlley -- Street\\nAlley .. Bar").moves_from("alley")
        ('Street',)
        """
        return tuple(self.areas[j] for j in self._graph.moves[self._i(a)])

    # -- range, sight, cover -----------------------------------------------------------------

    def _tables(self, source: int) -> _Tables:
        cached = self._cache.get(source)
        if cached is not None:
            return cached
        adj = self._graph.sight
        n = len(self.areas)
        dist = [-1] * n
        dist[source] = 0
        order = [source]
        queue = deque(order)
        while queue:
            v = queue.popleft()
            for u, _, _ in adj[v]:
                if dist[u] < 0:
                    dist[u] = dist[v] + 1
                    order.append(u)
                    queue.append(u)
        marks = [0] * n
        cover = [False] * n
        for v in order[1:]:
            best = -1
            for u, mark_v, mark_u in adj[v]:
                if dist[u] == dist[v] - 1:
                    count = marks[u] + mark_v + (mark_u and u != source)
                    best = max(best, count)
                    cover[v] = cover[v] or mark_v
            marks[v] = best
        tables = _Tables(tuple(dist), tuple(marks), tuple(cover))
        self._cache[source] = tables
        return tables

    def range(self, a: str, b: str) -> int | None:
        """The fewest connections from ``a`` to ``b``, None when no path (RULINGS 8).

        >>> m = parse_map("A -> B\\nB .. C\\nC -[]- D")
        >>> m.range("C", "A"), m.range("A", "A"), m.range("A", "D")
        (2, 0, None)
        """
        d = self._tables(self._i(a)).dist[self._i(b)]
        return None if d < 0 else d

    def line_of_sight(
        self, a: str, b: str, *, marks_to_block: int = 2, hidden: bool = False
    ) -> bool:
        """Whether characters in ``a`` and ``b`` see each other (RULINGS 9, 12); ``hidden``: the
        character in ``b`` is hidden (Stealth).

        Always within one area. Otherwise none if ``.x.`` joins them, if ``b`` cannot be
        reached, or if any shortest path crosses ``marks_to_block`` marks or more counted from
        either end, each count leaving out the marks at its own end. Sight is mutual: without
        ``hidden``, swapping ``a`` and ``b`` gives the same answer. Below, counted from ``A``
        two marks block (``B``'s and ``C``'s); counted from ``C`` only ``B``'s is crossed, yet
        ``C`` does not see ``A`` either:

        >>> m = parse_map("A --| B\\nB --| C")
        >>> m.line_of_sight("A", "C"), m.line_of_sight("C", "A")
        (False, False)
        >>> m.line_of_sight("A", "C", marks_to_block=3)
        True

        A hidden character's Stealth mark stands at its own area, so it counts only from the
        other end: hidden at ``C``, behind its area's mark, it is out of sight of ``A``; hidden
        at ``A``, it is still seen from ``C`` (one mark each way).

        >>> m = parse_map("A -- B\\nB --| C")
        >>> m.line_of_sight("A", "C"), m.line_of_sight("A", "C", hidden=True)
        (True, False)
        >>> m.line_of_sight("C", "A", hidden=True)
        True
        """
        if marks_to_block < 1:
            raise ValueError("marks_to_block must be at least 1")
        i, j = self._i(a), self._i(b)
        if i == j:
            return True
        if (i, j) in self._graph.no_sight:
            return False
        from_a = self._tables(i)
        if from_a.dist[j] < 0:
            return False
        # Shortest paths are the same both ways, so b's cached table counts them from b's end.
        from_b = self._tables(j)
        return max(from_a.marks[j] + hidden, from_b.marks[i]) < marks_to_block

    def has_cover(self, a: str, b: str, *, hidden: bool = False) -> bool:
        """Whether a target in ``b`` has cover against an attack from ``a`` (RULINGS 10, 12).

        Never within one area; otherwise when some shortest path's last connection has a mark
        at ``b``'s end, or always when the target is ``hidden``.

        >>> m = parse_map("A --| B")
        >>> m.has_cover("A", "B"), m.has_cover("B", "A"), m.has_cover("B", "A", hidden=True)
        (True, False, True)
        """
        i, j = self._i(a), self._i(b)
        if i == j:
            return False
        if hidden:
            return True
        return self._tables(i).cover[j]

    def intercept_range(self, watcher: str, frm: str, to: str) -> int | None:
        """Range from ``watcher`` to someone moving between ``frm`` and ``to``: the smaller of
        the two ranges, None when neither area is reachable (RULINGS 11).

        >>> parse_map("A -- B\\nB -- C").intercept_range("A", "C", "B")
        1
        """
        ranges = [r for r in (self.range(watcher, frm), self.range(watcher, to)) if r is not None]
        return min(ranges) if ranges else None

    def intercept_sight(
        self, watcher: str, frm: str, to: str, *, marks_to_block: int = 2, hidden: bool = False
    ) -> bool:
        """Whether ``watcher`` sees someone moving between ``frm`` and ``to``: line of sight to
        either area is enough (RULINGS 11).

        >>> parse_map("A --| B\\nB --| C\\nC -- D").intercept_sight("A", "B", "C")
        True
        """
        return any(
            self.line_of_sight(watcher, area, marks_to_block=marks_to_block, hidden=hidden)
            for area in (frm, to)
        )

    # -- changes in play ---------------------------------------------------------------------

    def with_door(self, a: str, b: str, open: bool) -> GameMap:
        """This map with the door between ``a`` and ``b`` opened or closed.

        >>> parse_map("Hall -[]- Vault").with_door("Hall", "Vault", True).to_text().splitlines()[-1]
        'Hall -[ ]- Vault'
        """
        c = self.connection(a, b)
        if c is None or c.kind is not Kind.DOOR:
            raise MapError(0, f"there is no door between {self.area(a)} and {self.area(b)}")
        new = replace(c, is_open=open)
        return replace(self, connections=tuple(new if x is c else x for x in self.connections))

    def with_area_cover(self, area: str) -> GameMap:
        """This map with a cover mark at ``area``'s end of each of its connections (AoE Cover,
        RULINGS 13; ``.x.`` lines are no connections and get none).

        >>> parse_map("A -- B").with_area_cover("b").to_text().splitlines()[-1]
        'A --| B'
        """
        return self._with_marks(area, True)

    def demolished(self, area: str) -> GameMap:
        """This map with every mark at ``area``'s ends removed (Demolish, RULINGS 13).

        >>> parse_map("A |--| B").demolished("A").to_text().splitlines()[-1]
        'A --| B'
        """
        return self._with_marks(area, False)

    def _with_marks(self, area: str, cover: bool) -> GameMap:
        name = self.area(area)
        touching = set(map(id, self.connections_of(name)))
        connections = tuple(
            c.with_cover_at(name, cover) if id(c) in touching and c.kind is not Kind.NO_SIGHT else c
            for c in self.connections
        )
        return replace(self, connections=connections)

    # -- text --------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The canonical text of this map; ``parse_map(m.to_text()) == m``.

        >>> print(parse_map("Bar: taps\\nBar <-| Roof\\nRoof @ 1,0").to_text(), end="")
        # areas
        Bar
        Bar: taps
        Roof @ 1,0
        # connections
        Roof |-> Bar
        """
        lines = ["# areas"]
        for name, pos, notes in zip(self.areas, self.positions, self.notes_by_area, strict=True):
            lines.append(name if pos is None else f"{name} @ {pos[0]},{pos[1]}")
            lines.extend(f"{name}: {note}" for note in notes)
        if self.connections:
            lines.append("# connections")
            lines.extend(f"{c.a} {c.token} {c.b}" for c in self.connections)
        return "\n".join(lines) + "\n"


# -- parsing ---------------------------------------------------------------------------------

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

    def name(self, raw: str, line: int, where: str) -> str:
        name = " ".join(raw.split())
        if not name:
            raise MapError(line, f"expected an area name {where}")
        for word in name.split():
            if _DASHY.match(word):
                raise MapError(
                    line,
                    f"unknown connector {word!r}: use -- .. -> <- -[]- -[ ]- or .x. "
                    "with spaces around it",
                )
            glued = _GLUED.search(word)
            if glued:
                raise MapError(
                    line,
                    f"cannot read {word!r}: a connector like {glued[1]!r} needs a space on "
                    f"each side (e.g. 'Bar {glued[1]} Kitchen')",
                )
        bad = sorted(set(name) & _FORBIDDEN)
        if bad:
            raise MapError(line, f"cannot read {name!r}: area names cannot contain {' '.join(bad)}")
        if len(name) > MAX_NAME:
            raise MapError(line, f"area names are at most {MAX_NAME} characters ({name[:20]}…)")
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
            raise MapError(line, "one connection per line: found more than one connector")
        if matches:
            self.connect(text, matches[0], line)
        elif colon:
            i = self.area(self.name(left, line, "before ':' (a note is 'Area: text')"))
            note = " ".join(note.split())
            if not note:
                raise MapError(line, "expected a note after ':'")
            if len(note) > MAX_NOTE:
                raise MapError(line, f"notes are at most {MAX_NOTE} characters")
            self.notes[i].append(note)
        elif "@" in text:
            self.place(text, line)
        else:
            self.area(self.name(text, line, ""))

    def place(self, text: str, line: int) -> None:
        found = _POSITION.match(text)
        if not found:
            raise MapError(line, "a grid position is 'Area @ col,row', e.g. 'Bar @ 2,1'")
        i = self.area(self.name(found["name"], line, "before '@'"))
        col, row = int(found["col"]), int(found["row"])
        if col > MAX_GRID or row > MAX_GRID:
            raise MapError(line, f"grid columns and rows go from 0 to {MAX_GRID}")
        if self.positions[i] is not None:
            first = self.position_lines[i]
            raise MapError(line, f"{self.names[i]} already has a position (line {first})")
        holder = self.cells.get((col, row))
        if holder is not None:
            raise MapError(line, f"{self.names[holder]} is already at {col},{row}")
        self.positions[i] = (col, row)
        self.position_lines[i] = line
        self.cells[(col, row)] = i

    def connect(self, text: str, match: re.Match[str], line: int) -> None:
        left_mark, symbol, right_mark = match.group(1, 2, 3)
        kind, is_open = _SYMBOLS[symbol]
        left = self.name(text[: match.start()], line, f"before {match.group(0)!r}")
        right = self.name(text[match.end() :], line, f"after {match.group(0)!r}")
        if kind is Kind.NO_SIGHT and (left_mark or right_mark):
            raise MapError(line, "a .x. line is no connection and cannot carry cover marks")
        i, j = self.area(left), self.area(right)
        if i == j:
            raise MapError(line, f"an area cannot connect to itself ({self.names[i]!r})")
        pair = frozenset((i, j))
        if pair in self.pairs:
            raise MapError(
                line,
                f"{self.names[i]} and {self.names[j]} are already connected "
                f"(line {self.pairs[pair]}); one line per pair of areas",
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


def parse_map(text: str | Iterable[str]) -> GameMap:
    """Read a map written in the text format above; MapError with the line on any mistake.

    >>> parse_map("Bar --| Kitchen\\nKitchen |-- Alley").range("Bar", "Alley")
    2
    >>> parse_map("Bar --| Kitchen\\n\\nKitchen --> Alley")
    Traceback (most recent call last):
    ...
    engine.maps.MapError: line 3: unknown connector '-->': use -- .. -> <- -[]- -[ ]- or .x. \
with spaces around it
    """
    lines = text.splitlines() if isinstance(text, str) else list(text)
    builder = _Builder()
    for number, raw in enumerate(lines, start=1):
        statement = raw.split("#", 1)[0].strip()
        if statement:
            builder.statement(statement, number)
    if not builder.names:
        raise MapError(0, "the map has no areas")
    return GameMap(
        areas=tuple(builder.names),
        connections=tuple(builder.connections),
        positions=tuple(builder.positions),
        notes_by_area=tuple(tuple(n) for n in builder.notes),
    )
