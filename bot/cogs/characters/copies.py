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
from engine.words import counted

__all__ = ["COPY_LIMIT", "copy_character"]

#: The most copies one command makes.
COPY_LIMIT = 25


def _what_each_has(c: Character) -> str:
    """"level 40/40, 2 items, 1 ability": what every copy takes from the original."""
    abilities = len(c.abilities) + len(c.good_at)
    return (f"level {c.level}/{c.max_level}, {counted(len(c.items), 'item')}, "
            f"{counted(abilities, 'ability')}")


def _copy_names(base: str, taken: list[str], count: int) -> list[str]:
    """The copies' names; a UserError when the last would be longer than a name may be."""
    names = next_names(base, taken, count)
    if len(names[-1]) > NAME_LIMIT:
        raise UserError(
            f"“{discord.utils.escape_markdown(names[-1])}” would be {len(names[-1])} "
            f"characters; a name has at most {NAME_LIMIT}. Give the copies a shorter name "
            "with `name:`. Nothing was made.")
    return names


async def copy_character(interaction: discord.Interaction[Any], character: str, count: int,
                         name: str | None) -> str:
    """Make ``count`` NPC copies of ``character`` called ``name`` (default: its name without
    a number at its end) and a number; the sentence that tells the table."""
    guild_id = require_guild(interaction)
    await require_gm(interaction, "copy characters")
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
        raise UserError(
            f"This server already has a character called {bold_name(taken_name.name)} (made "
            "a moment ago): nothing was made. Try again.") from None
    made = bold_name(names[0]) if count == 1 else (
        f"{bold_name(names[0])} to {bold_name(names[-1])}")
    first, last = names[0].rsplit(" ", 1)[1], names[-1].rsplit(" ", 1)[1]
    group = names[0] if count == 1 else f"{base} {first}-{last}"
    each = " each" if count > 1 else ""
    return (f"👥 {interaction.user.mention} made {counted(count, 'NPC copy')} of "
            f"{bold_name(original.name)} ({_what_each_has(original.character)}{each}): "
            f"{made}. `/combat addmany characters:{group}` puts them in a fight.")
