"""One line of a map between two areas, and how area names are compared (RULINGS 7).

A connection is a value: which two areas, what kind of line, and whether a cover mark stands at
each end. Each end holds at most one mark, so AoE Cover on an end that already has a terrain mark
adds nothing, and Demolish removes it (RULINGS 13).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from engine.names import name_key

__all__ = ["Connection", "Kind", "area_key"]


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


#: How area names are compared: stripped, runs of spaces as one, case-folded.
area_key = name_key
