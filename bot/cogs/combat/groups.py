"""Placing characters in a fight: one (`/combat add`) or several at once (`/combat addmany`,
"Goon 1-5, Boss"), each on the same terms: a player places only their own PC, a GM anyone,
and a character fights in one place at a time."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.utils import escape_markdown

from bot.i18n import render
from bot.numbered import RANGE_LIMIT, expand, matching, natural_key, ranges
from bot.options import Text
from bot.permissions import is_gm, require_guild
from bot.store.values import StoredCharacter
from bot.text import clip, echo
from bot.user_error import UserError
from engine.combat import AddFighter
from engine.combat.actions.setup import default_team
from engine.phrases import Phrase, phrase, plural_phrase

if TYPE_CHECKING:
    from bot.host import Host

__all__ = ["GROUP_LIMIT", "NameList", "find_group", "group_choices", "joining",
           "require_may_place"]

#: The most characters one `/combat addmany` places.
GROUP_LIMIT = RANGE_LIMIT
#: Names and ranges, by commas.
NameList = app_commands.Transform[str, Text(1000)]
#: Discord's longest autocomplete choice.
_CHOICE_LIMIT = 100


def _bot(interaction: discord.Interaction[Any]) -> Host:
    bot: Host = interaction.client
    return bot


async def require_may_place(interaction: discord.Interaction[Any],
                            record: StoredCharacter, *, gm: bool | None = None) -> None:
    """Refuse unless the user may put ``record`` into this channel's fight (``gm``: whether
    the user is a GM, when already known)."""
    theirs = not record.npc and record.owner_id == interaction.user.id
    if not theirs and not (await is_gm(interaction) if gm is None else gm):
        raise UserError(phrase("Players may add only their own PC; a GM places everyone "
                               "else."))
    elsewhere = await _bot(interaction).store.combats.fight_of(record.id)
    if elsewhere is not None and elsewhere[1] != interaction.channel_id:
        raise UserError(phrase("{name} is already in the fight in {channel}; a character "
                               "fights in one place at a time.",
                               name=escape_markdown(record.name), channel=f"<#{elsewhere[1]}>"))


def joining(record: StoredCharacter, area: str, team: str | None,
            language: str) -> AddFighter:
    """The engine's command that puts ``record`` into the fight: on ``team``, else on the
    default team ("PCs" or "NPCs") named in ``language``, the table's (a name the fight keeps,
    whatever language the server reads later)."""
    if team is not None and ":" in team:
        raise UserError(phrase("A team name cannot contain “:”."))
    return AddFighter(character=record.character, area=area,
                      team=team or render(default_team(record.npc), language),
                      owner_id=None if record.npc else record.owner_id, character_id=record.id)


async def find_group(interaction: discord.Interaction[Any], text: str) -> list[StoredCharacter]:
    """The server's characters ``text`` names ("Goon 1-5, Boss"), each checked by
    :func:`require_may_place`; a UserError naming what names nobody."""
    guild_id = require_guild(interaction)
    store = _bot(interaction).store.characters
    names, unknown = expand(text, [e.name for e in await store.entries(guild_id)])
    if unknown:
        raise UserError(_unknown(unknown))
    if not names:
        raise UserError(phrase("Name the characters, by commas: “Goon 1-5, Boss”."))
    if len(names) > GROUP_LIMIT:
        raise UserError(phrase("That is {count} characters; one command adds at most "
                               "{most}. Nobody was added.", count=len(names), most=GROUP_LIMIT))
    gm = await is_gm(interaction)
    records = []
    for name in names:
        record = await store.get(guild_id, name)
        if record is None:  # deleted a moment ago
            raise UserError(phrase("There is no character called “{name}” on this server.",
                                   name=echo(name)))
        await require_may_place(interaction, record, gm=gm)
        records.append(record)
    return records


def _unknown(unknown: list[str]) -> Phrase:
    """The refusal of names that name nobody (the first five quoted, then how many more)."""
    missing = ", ".join(f"“{echo(n)}”" for n in unknown[:5])
    if len(unknown) > 5:
        return plural_phrase(
            "This server has no character called {missing} and {count} more. Nobody was "
            "added; `/character list` shows the names.",
            "This server has no character called {missing} and {count} more. Nobody was "
            "added; `/character list` shows the names.", "count", missing=missing,
            count=len(unknown) - 5)
    return phrase("This server has no character called {missing}. Nobody was added; "
                  "`/character list` shows the names.", missing=missing)


async def group_choices(interaction: discord.Interaction[Any],
                        current: str) -> list[app_commands.Choice[str]]:
    """What to type next in a list of names: after the names already typed, a character the
    user may place, or a range of numbered ones ("Goon 1-5")."""
    guild_id = interaction.guild_id or 0
    gm = await is_gm(interaction)
    entries = await _bot(interaction).store.characters.entries(guild_id)
    names = [e.name for e in entries if gm or (not e.npc and e.owner_id == interaction.user.id)]
    head, _, typing = current.rpartition(",")
    lead = f"{head.strip()}, " if head.strip() else ""
    spans = ranges(names)
    # A range (it names many at once) before the names, each part in natural order.
    found = matching([*spans, *names], typing,
                     rank=lambda n: (n not in spans, natural_key(n)))
    values = [lead + n for n in found if len(lead + n) <= _CHOICE_LIMIT]
    return [app_commands.Choice(name=clip(v, _CHOICE_LIMIT), value=v) for v in values[:25]]
