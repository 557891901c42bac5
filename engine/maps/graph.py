"""A map's areas as a graph of numbers, and the questions combat asks of it: range, line of
sight and cover (RULINGS 8-12). :class:`~engine.maps.GameMap` turns names into numbers and
asks here; its docstrings give the rules with examples.

Readings of the rules made here (beyond RULINGS 7-13):

- Range, line of sight and cover all use one undirected graph: solid lines, dashed lines,
  arrows (either way) and open doors. Closed doors and ``.x.`` lines are not edges, so an area
  behind a closed door may be out of every range.
- Line of sight is mutual (RULINGS 9): the marks are counted from each end, each count
  leaving out that end's own marks, and if either count blocks, neither area sees the other.
  On the nightclub the kitchen counts one mark toward the dance floor (the bar's) but the dance
  floor counts two (the bar's and the kitchen's), so neither sees the other.
- Stealth (``hidden=True``) adds one mark at the target's end of every connection into its
  area: cover against any other area (even one it cannot reach), and +1 toward line of sight
  in the count from the viewer's end (the mark stands at the hidden one's own area, which its
  own count leaves out).

One breadth-first search from an area answers every question asked from it, so its
:class:`PathTables` are kept: a fight asks about the same few areas over and over.

>>> from engine.maps import Connection, Kind
>>> lines = (Connection("A", "B", Kind.LINE, cover_b=True), Connection("B", "C", Kind.SIGHT))
>>> g = AreaGraph.build(("A", "B", "C"), lines)
>>> g.range(0, 2), g.has_cover(0, 1, hidden=False), g.has_cover(2, 1, hidden=False)
(2, True, False)
>>> g.moves
((1,), (0,), ())
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.maps.connection import Connection, Kind, area_key
from engine.maps.errors import MapError, UnknownAreaError
from engine.phrases import phrase

__all__ = ["AreaGraph", "PathTables"]


@dataclass(frozen=True)
class PathTables:
    """What one breadth-first search from a source area knows of every area, by number."""

    dist: tuple[int, ...]  # -1: unreachable
    marks: tuple[int, ...]  # most marks on any shortest path, the source's own marks left out
    cover: tuple[bool, ...]  # some shortest path's last line has a mark at the far end


@dataclass(frozen=True)
class AreaGraph:
    """Area ``i`` is the map's ``areas[i]``; ``index`` maps :func:`area_key` names to numbers.

    ``sight``: for each area, ``(other, mark here, mark there)`` for each connection that gives
    sight and range. ``moves``: for each area, the areas one Move step away, in map order.
    ``no_sight``: the pairs a ``.x.`` line joins, both ways round.
    """

    index: Mapping[str, int]
    sight: tuple[tuple[tuple[int, bool, bool], ...], ...]
    moves: tuple[tuple[int, ...], ...]
    no_sight: frozenset[tuple[int, int]]
    _tables: dict[int, PathTables] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    @classmethod
    def build(cls, areas: tuple[str, ...], connections: Iterable[Connection]) -> AreaGraph:
        """The graph of these areas and connections; MapError (line 0) if an area is listed
        twice, UnknownAreaError if a connection names one that is not listed."""
        index: dict[str, int] = {}
        for i, name in enumerate(areas):
            if area_key(name) in index:
                raise MapError(0, phrase("area {name} is listed twice", name=repr(name)))
            index[area_key(name)] = i
        sight: list[list[tuple[int, bool, bool]]] = [[] for _ in areas]
        moves: list[list[int]] = [[] for _ in areas]
        no_sight: set[tuple[int, int]] = set()
        for c in connections:
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
        return cls(
            index=index,
            sight=tuple(tuple(s) for s in sight),
            moves=tuple(tuple(sorted(mv)) for mv in moves),
            no_sight=frozenset(no_sight),
        )

    def number(self, name: str) -> int:
        """The number of the area called ``name`` (any case); UnknownAreaError if none."""
        try:
            return self.index[area_key(name)]
        except KeyError:
            raise UnknownAreaError(name) from None

    def tables(self, source: int) -> PathTables:
        """Range, marks and cover from ``source`` to every area, computed once."""
        cached = self._tables.get(source)
        if cached is not None:
            return cached
        adj = self.sight
        n = len(adj)
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
        tables = PathTables(tuple(dist), tuple(marks), tuple(cover))
        self._tables[source] = tables
        return tables

    def range(self, i: int, j: int) -> int | None:
        """:meth:`GameMap.range <engine.maps.GameMap.range>` on numbers."""
        d = self.tables(i).dist[j]
        return None if d < 0 else d

    def line_of_sight(self, i: int, j: int, *, marks_to_block: int, hidden: bool) -> bool:
        """:meth:`GameMap.line_of_sight <engine.maps.GameMap.line_of_sight>` on numbers.

        >>> from engine.maps import Connection, Kind
        >>> g = AreaGraph.build(("A", "B"), (Connection("A", "B", Kind.LINE, cover_b=True),))
        >>> g.line_of_sight(0, 1, marks_to_block=1, hidden=False)
        False
        >>> g.line_of_sight(1, 0, marks_to_block=1, hidden=False)
        False
        """
        if marks_to_block < 1:
            raise ValueError("marks_to_block must be at least 1")
        if i == j:
            return True
        if (i, j) in self.no_sight:
            return False
        from_i = self.tables(i)
        if from_i.dist[j] < 0:
            return False
        # Shortest paths are the same both ways, so j's table counts them from j's end. The
        # Stealth mark stands at j's own area: only the count from i meets it.
        from_j = self.tables(j)
        return max(from_i.marks[j] + hidden, from_j.marks[i]) < marks_to_block

    def has_cover(self, i: int, j: int, *, hidden: bool) -> bool:
        """:meth:`GameMap.has_cover <engine.maps.GameMap.has_cover>` on numbers."""
        if i == j:
            return False
        return hidden or self.tables(i).cover[j]
