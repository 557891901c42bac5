"""Unhex maps: areas joined by connections, and the range, line of sight, cover and intercept
questions combat asks of them (004 "Maps" to "Intercept"; RULINGS 7-13).

Everything a caller needs is importable from here. One concern a module:

- :mod:`engine.maps.text`: the text a GM types, read and written (the format is described
  there).
- :mod:`engine.maps.game_map`: :class:`GameMap`, the map in play: areas by name, range, line
  of sight, cover, intercept, and the changes in play that return new maps; :func:`parse_map`.
- :mod:`engine.maps.graph`: the same questions answered on area numbers, with the readings of
  the rules they make (sight is mutual, Stealth, closed doors).
- :mod:`engine.maps.connection`: :class:`Kind`, :class:`Connection` and :func:`area_key`.
- :mod:`engine.maps.errors`: :class:`MapError` and :class:`UnknownAreaError`.

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
>>> m.line_of_sight("Catwalk", "Bar"), m.line_of_sight("Bar", "Catwalk")
(True, True)
>>> parse_map("Bar -- Bar")
Traceback (most recent call last):
...
engine.maps.errors.MapError: line 1: an area cannot connect to itself ('Bar')
"""

from engine.maps.connection import Connection, Kind, area_key
from engine.maps.errors import MapError, UnknownAreaError
from engine.maps.game_map import GameMap, parse_map
from engine.maps.text import MAX_GRID, MAX_NAME, MAX_NOTE

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
