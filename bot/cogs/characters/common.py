"""What every `/character` module shares: limits and option types, finding a character,
who may change it (:func:`require_change`), and saving a change."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.utils import escape_markdown

from bot.host import Host
from bot.options import OneOf, Text
from bot.permissions import is_gm, require_guild
from bot.store.interfaces import Characters
from bot.store.values import InFight, NameTaken, StoredCharacter
from bot.text import echo
from bot.user_error import UserError
from data import load_rules
from engine.catalog import Hand
from engine.character import HANDS, Character, still_to_choose
from engine.combat import Combat, Fighter
from engine.combat.hidden_npcs import figures_hidden, looks

RULES = load_rules()
MESSAGE_LIMIT = 2000  # Discord's longest message
PASTE_LIMIT = 4000  # Discord's longest modal text field
NAME_LIMIT = 32
ITEM_NAME_LIMIT = 40
#: The longest name or number typed to find something (Discord's longest choice value).
LOOKUP_LIMIT = 100
CHOICES_LIMIT = 25  # Discord's most autocomplete choices
PASTE_LABEL = "Character JSON (from /character export)"
GM_HINT = "GMs have Manage Server or the GM role (`/gm role`)."

KIND_CHOICES = [app_commands.Choice(name=k.name, value=k.id) for k in RULES.items.kinds]
LOCATION_CHOICES = [
    app_commands.Choice(name=loc.name, value=loc.id) for loc in RULES.body.locations
]
HAND_CHOICES = [app_commands.Choice(name=hand, value=hand) for hand in HANDS]

# String options, with the limits Discord's client enforces and the bot checks again.
CharacterOption = app_commands.Transform[str, Text(LOOKUP_LIMIT)]
ItemOption = app_commands.Transform[str, Text(LOOKUP_LIMIT)]
AbilityOption = app_commands.Transform[str, Text(LOOKUP_LIMIT)]
HandOption = app_commands.Transform[Hand, OneOf(HAND_CHOICES)]
#: The abilities an AoE weapon may be for.
AOE_ABILITIES: tuple[str, ...] = tuple(
    dict.fromkeys(a for kind in RULES.items.kinds for a in kind.requires_one_of)
)


def bold_name(name: str) -> str:
    """A character's name in bold, its own markdown escaped."""
    return f"**{escape_markdown(name)}**"


def escaped_summary(summary: str) -> str:
    """A rule's summary as a message shows it: names with * or _ stay as typed."""
    return escape_markdown(summary)


# -- finding characters and who may change them ---------------------------------------------


def characters_store(interaction: discord.Interaction[Any]) -> Characters:
    """The bot's store of characters."""
    bot: Host = interaction.client
    return bot.store.characters


async def find_character(interaction: discord.Interaction[Any], name: str) -> StoredCharacter:
    """The server's character called ``name`` (any case); a UserError if there is none."""
    guild_id = require_guild(interaction)
    stored = await characters_store(interaction).get(guild_id, name)
    if stored is None:
        shown = echo(name) or "(nothing)"
        raise UserError(
            f"There is no character called “{shown}” on this server. "
            "`/character list` shows them."
        )
    return stored


async def may_change(interaction: discord.Interaction[Any], stored: StoredCharacter) -> bool:
    """Whether the user may change the character: a GM always, the owner a PC."""
    if not stored.npc and stored.owner_id == interaction.user.id:
        return True
    return await is_gm(interaction)


async def require_change(
    interaction: discord.Interaction[Any], stored: StoredCharacter, doing: str = "change"
) -> None:
    """Refuse, saying why, unless the user may change the character now (not while a fight
    holds it: the fight's copy is the truth until it ends). ``doing``: "delete"."""
    if await may_change(interaction, stored):
        bot: Host = interaction.client
        fight = await bot.store.combats.fight_of(stored.id)
        if fight is not None:
            raise InFight(stored.name, fight[1])
        return
    if stored.npc:
        raise UserError(
            f"{bold_name(stored.name)} is an NPC: only a GM may {doing} it. {GM_HINT}"
        )
    raise UserError(
        f"{bold_name(stored.name)} belongs to <@{stored.owner_id}>: only they or a GM may "
        f"{doing} it. {GM_HINT}"
    )


def panel_hint(c: Character) -> str:
    """" Still to choose: 1 combat ability, 4 item slots free (`/character panel`).": the next
    step after a change that leaves a PC short of the book's start ("" when none, and for an
    NPC, whose sheet is the GM's to make as the scene needs)."""
    left = () if c.npc else still_to_choose(c)
    return f" Still to choose: {', '.join(left)} (`/character panel`)." if left else ""


def name_taken_text(name: str) -> str:
    """The answer when the server already has a character called ``name``."""
    return f"This server already has a character called {bold_name(name)}: pick another name."


async def save_change(
    interaction: discord.Interaction[Any], stored: StoredCharacter, new: Character
) -> StoredCharacter:
    """``stored`` saved as ``new``; a UserError when the name is taken or somebody changed or
    deleted it meanwhile."""
    try:
        saved = await characters_store(interaction).replace(stored, new)
    except NameTaken:
        taken = await characters_store(interaction).get(stored.guild_id, new.name)
        raise UserError(name_taken_text(new.name if taken is None else taken.name)) from None
    if saved is None:
        raise UserError(
            f"{bold_name(stored.name)} was changed or deleted a moment ago by somebody else; "
            "nothing changed. Try again."
        )
    return saved


async def in_fight(interaction: discord.Interaction[Any],
                   stored: StoredCharacter) -> tuple[Combat, Fighter, int] | None:
    """The fight holding the character, its copy there, and the fight's channel (None: no
    fight holds it)."""
    bot: Host = interaction.client
    fight = await bot.store.combats.fight_of(stored.id)
    if fight is None:
        return None
    combat = await bot.fights.fight(fight[1])
    fighter = None if combat is None else next(
        (f for f in combat.state.fighters if f.character_id == stored.id), None)
    if combat is None or fighter is None:
        return None
    return combat.state, fighter, fight[1]


async def as_it_stands(interaction: discord.Interaction[Any],
                       stored: StoredCharacter) -> tuple[Character, str]:
    """The character as it stands now: while a fight holds it, the fight's copy (with its live
    wounds) and a line saying where; else the sheet."""
    found = await in_fight(interaction, stored)
    if found is None:
        return stored.character, ""
    _, fighter, channel_id = found
    return fighter.character, f"-# In the fight in <#{channel_id}>: as it stands now.\n"


async def hidden_in_fight(interaction: discord.Interaction[Any],
                           stored: StoredCharacter) -> bool:
    """Whether a fight holds the character and hides its level and wounds from the players:
    then only a GM sees its sheet, just to them; a player is told how it looks instead."""
    found = await in_fight(interaction, stored)
    if found is None:
        return False
    state, fighter, channel_id = found
    if not figures_hidden(state, fighter):
        return False
    if not await is_gm(interaction):
        raise UserError(f"{bold_name(stored.name)} is in the fight in <#{channel_id}>, "
                        f"where the GM keeps its level and wounds hidden: it looks "
                        f"{looks(fighter, RULES)}.")
    return True
