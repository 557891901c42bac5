"""`/character copy`: numbered NPC copies of a character, as a GM makes goons by the dozen.

Each copy is the sheet as it stands (level, max level, wounds, items, which are in hand,
abilities), under the name "Goon 1", "Goon 2", … numbered on after the highest such name the
server has. Copies are NPCs, run by the GMs, whatever the original is (a PC copied makes NPCs),
so they count toward no player's characters. All are saved in one transaction, or none.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.cogs.characters.common import NAME_LIMIT, bold_name, characters_store, find_character
from bot.numbered import base_of, next_names
from bot.permissions import require_gm, require_guild
from bot.store.values import NameTaken
from bot.user_error import UserError
from engine.character import Character
from engine.character.model import validated_copy
from engine.phrases import Phrase, phrase, plural_phrase

__all__ = ["COPY_LIMIT", "copy_character"]

#: The most copies one command makes.
COPY_LIMIT = 25


def _what_each_has(c: Character) -> Phrase:
    """"level 40/40, 2 items, 1 ability": what every copy takes from the original."""
    return phrase("level {level}/{max_level}, {items}, {abilities}", level=c.level,
                  max_level=c.max_level,
                  items=plural_phrase("{count} item", "{count} items", "count",
                                      count=len(c.items)),
                  abilities=plural_phrase("{count} ability", "{count} abilities", "count",
                                          count=len(c.abilities) + len(c.good_at)))


def _copy_names(base: str, taken: list[str], count: int) -> list[str]:
    """The copies' names; a UserError when the last would be longer than a name may be."""
    names = next_names(base, taken, count)
    if len(names[-1]) > NAME_LIMIT:
        raise UserError(phrase(
            "“{name}” would be {count} characters; a name has at most {limit}. Give the "
            "copies a shorter name with `name:`. Nothing was made.",
            name=discord.utils.escape_markdown(names[-1]), count=len(names[-1]),
            limit=NAME_LIMIT))
    return names


async def copy_character(interaction: discord.Interaction[Any], character: str, count: int,
                         name: str | None) -> Phrase:
    """Make ``count`` NPC copies of ``character`` called ``name`` (default: its name without
    a number at its end) and a number; the sentence that tells the table."""
    guild_id = require_guild(interaction)
    await require_gm(interaction, phrase("copy characters"))
    original = await find_character(interaction, character)
    base = " ".join((name or base_of(original.name)).split())
    store = characters_store(interaction)
    taken = [e.name for e in await store.entries(guild_id)]
    names = _copy_names(base, taken, count)
    copies = [validated_copy(original.character, name=n, npc=True) for n in names]
    try:
        await store.add_many(guild_id=guild_id, owner_id=interaction.user.id,
                             characters=copies)
    except NameTaken as taken_name:
        raise UserError(phrase(
            "This server already has a character called {name} (made a moment ago): nothing "
            "was made. Try again.", name=bold_name(taken_name.name))) from None
    who, has = interaction.user.mention, _what_each_has(original.character)
    if count == 1:
        return phrase("👥 {who} made 1 NPC copy of {name} ({has}): {made}. `/combat addmany "
                      "characters:{group}` puts them in a fight.", who=who,
                      name=bold_name(original.name), has=has, made=bold_name(names[0]),
                      group=names[0])
    first, last = names[0].rsplit(" ", 1)[1], names[-1].rsplit(" ", 1)[1]
    return plural_phrase(
        "👥 {who} made {count} NPC copy of {name} ({has} each): {first} to {last}. "
        "`/combat addmany characters:{group}` puts them in a fight.",
        "👥 {who} made {count} NPC copies of {name} ({has} each): {first} to {last}. "
        "`/combat addmany characters:{group}` puts them in a fight.", "count", who=who,
        count=count, name=bold_name(original.name), has=has, first=bold_name(names[0]),
        last=bold_name(names[-1]), group=f"{base} {first}-{last}")
