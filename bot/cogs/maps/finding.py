"""Finding a map by name: a built-in one (``data/maps/``) or one of the server's, the names
autocomplete offers, and what makes a name a new map's."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from discord import app_commands
from discord.utils import escape_markdown

from bot.components import identity_stamp
from bot.host import Host
from bot.i18n import SOURCE, render
from bot.store.interfaces import Maps
from bot.store.values import StoredMap, clean_name
from bot.text import clip, echo
from bot.user_error import UserError
from data import builtin_maps
from engine.maps import GameMap, MapError, parse_map
from engine.names import name_key
from engine.phrases import Phrase, phrase

NAME_LIMIT = 32
CHOICES_LIMIT = 25  # Discord's most autocomplete choices
LOOKUP_LIMIT = 100  # the longest map name typed to find a map (Discord's longest choice value)

__all__ = [
    "LOOKUP_LIMIT", "NAME_LIMIT", "FoundMap", "builtin_keys", "builtin_map", "find_map",
    "map_choices", "map_stamp", "maps_store", "new_map_name", "taken_text",
]


def maps_store(bot: Host) -> Maps:
    return bot.store.maps


@cache  # built-in maps never change while the bot runs
def builtin_keys() -> dict[str, str]:
    return {name_key(name): name for name in builtin_maps()}


@cache
def builtin_map(name: str) -> GameMap:
    return parse_map(builtin_maps()[name])


@dataclass(frozen=True)
class FoundMap:
    """A map found by name: a built-in one (``stored`` is None) or one of the server's."""

    name: str
    text: str
    stored: StoredMap | None = None

    @property
    def builtin(self) -> bool:
        return self.stored is None

    @property
    def identity(self) -> tuple[int, str] | None:
        """Which server map this is, for good (a fight keeps it: a name may pass to another
        map, and an id to a map made after this one is deleted); None: a built-in map."""
        return None if self.stored is None else (self.stored.id, self.stored.created_at)

    def game_map(self, language: str = SOURCE) -> GameMap:
        """The map, read; a stored map the engine can no longer read is a UserError (saying
        the mistake in ``language``, its reader's)."""
        if self.stored is None:
            return builtin_map(self.name)
        try:
            return parse_map(self.text)
        except MapError as err:
            raise UserError(phrase(
                "The map **{name}** cannot be read ({mistake}). A GM can fix it with "
                "`/map edit`.", name=escape_markdown(self.name),
                mistake=escape_markdown(clip(render(err.said, language), 300)))) from err


async def find_map(bot: Host, guild_id: int | None, name: str) -> FoundMap:
    """The built-in or server map called ``name`` (any case); a UserError if there is none."""
    builtin = builtin_keys().get(name_key(name))
    if builtin is not None:
        return FoundMap(builtin, builtin_maps()[builtin])
    stored = None if guild_id is None else await maps_store(bot).get(guild_id, name)
    if stored is None:
        raise UserError(phrase("There is no map called “{typed}”. `/map list` shows the maps.",
                               typed=echo(name)))
    return FoundMap(stored.name, stored.text, stored)


async def map_choices(
    bot: Host, guild_id: int | None, typed: str, *, builtins: bool = True,
    language: str = SOURCE,
) -> list[app_commands.Choice[str]]:
    """Map names for autocomplete: built-ins (if ``builtins``; "(built-in)" said in
    ``language``) then the server's maps, those starting with what was typed first, then those
    containing it; at most 25."""
    names: list[tuple[str, str]] = []
    if builtins:
        names += [(render(phrase("{name} (built-in)", name=name), language), name)
                  for name in builtin_maps()]
    if guild_id is not None:
        names += [(name, name) for name in await maps_store(bot).names(guild_id)]
    typed = name_key(typed)
    keys = [name_key(value) for _, value in names]
    starting = [n for n, key in zip(names, keys, strict=True) if key.startswith(typed)]
    containing = [
        n for n, key in zip(names, keys, strict=True) if typed in key and not key.startswith(typed)
    ]
    return [
        app_commands.Choice(name=label, value=value)
        for label, value in (starting + containing)[:CHOICES_LIMIT]
    ]



def new_map_name(typed: str) -> str:
    """A new map's name as it is kept; a UserError if it is no name for a new map."""
    name = clean_name(typed)
    if not name or len(name) > NAME_LIMIT:
        raise UserError(phrase("A map's name is 1-{limit} characters.", limit=NAME_LIMIT))
    builtin = builtin_keys().get(name_key(name))
    if builtin is not None:
        raise UserError(phrase(
            "**{name}** is a built-in map's name; pick another. To start from it, "
            "`/map export name:{name}` and paste its text into `/map new`.", name=builtin))
    return name


def taken_text(name: str) -> Phrase:
    return phrase("This server already has a map called **{name}**: pick another name, or "
                  "change that one with `/map edit`.", name=escape_markdown(name))



def map_stamp(stored: StoredMap) -> str:
    """Which map a button means: a new map that reuses a deleted map's id has another stamp."""
    return identity_stamp(stored.created_at)
