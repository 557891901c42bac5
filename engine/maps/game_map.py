"""The map in play: areas by name, the range, line of sight, cover and intercept questions
combat asks (004 "Maps" to "Intercept"; RULINGS 7-13), and the changes in play (doors, AoE
Cover, Demolish), each of which returns a new map.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from engine.maps.connection import Connection, Kind, area_key
from engine.maps.errors import MapError
from engine.maps.graph import AreaGraph
from engine.maps.text import MapText, read_map, write_map
from engine.phrases import phrase

__all__ = ["GameMap", "parse_map"]


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
    _graph: AreaGraph = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        n = len(self.areas)
        if not self.positions:
            object.__setattr__(self, "positions", (None,) * n)
        if not self.notes_by_area:
            object.__setattr__(self, "notes_by_area", ((),) * n)
        if len(self.positions) != n or len(self.notes_by_area) != n:
            raise MapError(0, "positions and notes must run parallel to the areas")
        object.__setattr__(self, "_graph", AreaGraph.build(self.areas, self.connections))

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
        return self._graph.number(name)

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

    def range(self, a: str, b: str) -> int | None:
        """The fewest connections from ``a`` to ``b``, None when no path (RULINGS 8).

        >>> m = parse_map("A -> B\\nB .. C\\nC -[]- D")
        >>> m.range("C", "A"), m.range("A", "A"), m.range("A", "D")
        (2, 0, None)
        """
        return self._graph.range(self._i(a), self._i(b))

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
        return self._graph.line_of_sight(
            self._i(a), self._i(b), marks_to_block=marks_to_block, hidden=hidden
        )

    def has_cover(self, a: str, b: str, *, hidden: bool = False) -> bool:
        """Whether a target in ``b`` has cover against an attack from ``a`` (RULINGS 10, 12).

        Never within one area; otherwise when some shortest path's last connection has a mark
        at ``b``'s end, or always when the target is ``hidden``.

        >>> m = parse_map("A --| B")
        >>> m.has_cover("A", "B"), m.has_cover("B", "A"), m.has_cover("B", "A", hidden=True)
        (True, False, True)
        """
        return self._graph.has_cover(self._i(a), self._i(b), hidden=hidden)

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
        either area is enough (RULINGS 11); ``hidden``: the mover is hidden (Stealth).

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
            raise MapError(0, phrase("there is no door between {first} and {second}",
                                     first=self.area(a), second=self.area(b)))
        new = replace(c, is_open=open)
        return replace(self, connections=tuple(new if x is c else x for x in self.connections))

    def with_area_cover(self, area: str) -> GameMap:
        """This map with a cover mark at ``area``'s end of each of its connections (AoE Cover,
        RULINGS 13; ``.x.`` lines are no connections and get none). An end holds one mark at
        most: where a terrain mark stands already, nothing changes.

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
        """The canonical text of this map (:func:`~engine.maps.text.write_map`);
        ``parse_map(m.to_text()) == m``.

        >>> print(parse_map("Bar: taps\\nBar <-| Roof\\nRoof @ 1,0").to_text(), end="")
        # areas
        Bar
        Bar: taps
        Roof @ 1,0
        # connections
        Roof |-> Bar
        """
        return write_map(MapText(self.areas, self.connections, self.positions, self.notes_by_area))


def parse_map(text: str | Iterable[str]) -> GameMap:
    """Read a map written in the text format (:mod:`engine.maps.text`); MapError with the line
    on any mistake.

    >>> parse_map("Bar --| Kitchen\\nKitchen |-- Alley").range("Bar", "Alley")
    2
    >>> parse_map("Bar --| Kitchen\\n\\nKitchen --> Alley")
    Traceback (most recent call last):
    ...
    engine.maps.errors.MapError: line 3: unknown connector '-->': use -- .. -> <- -[]- -[ ]- or \
.x. with spaces around it, a | at an end for cover (--| |--)
    """
    parts = read_map(text)
    return GameMap(parts.areas, parts.connections, parts.positions, parts.notes_by_area)
