"""`/map`: list, show, write, edit, delete and export the maps fights are played on.

Built-in maps ship in ``data/maps/``; each server's GMs write their own (the `maps` table).
A map is typed in a modal in the engine's text format (``engine.maps``); a mistake comes back
with its line number and the text as typed, so nothing the GM wrote is lost. Other cogs find
a map by name with :func:`find_map` and offer names with :func:`map_choices`.

As a package: :mod:`.finding` (a map by name, autocomplete, a new map's name),
:mod:`.drawing` (a map as a message), :mod:`.form` (the text form and its save),
:mod:`.delete` (the delete confirmation) and :mod:`.cog` (the commands).
"""

from bot.cogs.maps.cog import setup
from bot.cogs.maps.drawing import render_block, who_is_where
from bot.cogs.maps.finding import FoundMap, find_map, map_choices
from bot.cogs.maps.form import MAP_FORM_ID, TEXT_LABEL

__all__ = ["MAP_FORM_ID", "TEXT_LABEL", "FoundMap", "find_map", "map_choices", "render_block",
           "setup", "who_is_where"]
