"""What every `/character` module shares: limits and option types, finding a character,
who may change it (:func:`require_change`), and saving a change."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.utils import escape_markdown

from bot.host import Host
from bot.i18n import N_, SOURCE, render
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
from engine.combat.hidden_npcs import figures_hidden, looks_phrase
from engine.phrases import Phrase, phrase

RULES = load_rules()
MESSAGE_LIMIT = 2000  # Discord's longest message
PASTE_LIMIT = 4000  # Discord's longest modal text field
NAME_LIMIT = 32
ITEM_NAME_LIMIT = 40
#: The longest name or number typed to find something (Discord's longest choice value).
LOOKUP_LIMIT = 100
CHOICES_LIMIT = 25  # Discord's most autocomplete choices
# Translators: a form's field label (at most 45 characters).
PASTE_LABEL = N_("Character JSON (from /character export)")

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
        if not echo(name):
            raise UserError(phrase("There is no character called “(nothing)” on this server. "
                                   "`/character list` shows them."))
        raise UserError(phrase("There is no character called “{name}” on this server. "
                               "`/character list` shows them.", name=echo(name)))
    return stored


async def may_change(interaction: discord.Interaction[Any], stored: StoredCharacter) -> bool:
    """Whether the user may change the character: a GM always, the owner a PC."""
    if not stored.npc and stored.owner_id == interaction.user.id:
        return True
    return await is_gm(interaction)


def _refusal(doing: str, stored: StoredCharacter) -> Phrase:
    """Who may do what to a character, said whole per deed: an NPC's (a GM's only), a PC's
    (its owner's or a GM's)."""
    name, owner = bold_name(stored.name), f"<@{stored.owner_id}>"
    if stored.npc:
        if doing == "rename":
            return phrase("{name} is an NPC: only a GM may rename it. GMs have Manage Server or "
                          "the GM role (`/gm role`).", name=name)
        if doing == "delete":
            return phrase("{name} is an NPC: only a GM may delete it. GMs have Manage Server or "
                          "the GM role (`/gm role`).", name=name)
        return phrase("{name} is an NPC: only a GM may change it. GMs have Manage Server or the "
                      "GM role (`/gm role`).", name=name)
    if doing == "rename":
        return phrase("{name} belongs to {owner}: only they or a GM may rename it. GMs have "
                      "Manage Server or the GM role (`/gm role`).", name=name, owner=owner)
    if doing == "delete":
        return phrase("{name} belongs to {owner}: only they or a GM may delete it. GMs have "
                      "Manage Server or the GM role (`/gm role`).", name=name, owner=owner)
    return phrase("{name} belongs to {owner}: only they or a GM may change it. GMs have Manage "
                  "Server or the GM role (`/gm role`).", name=name, owner=owner)


async def require_change(
    interaction: discord.Interaction[Any], stored: StoredCharacter, doing: str = "change"
) -> None:
    """Refuse, saying why, unless the user may change the character now (not while a fight
    holds it: the fight's copy is the truth until it ends). ``doing``: "rename", "delete"."""
    if await may_change(interaction, stored):
        bot: Host = interaction.client
        fight = await bot.store.combats.fight_of(stored.id)
        if fight is not None:
            raise InFight(stored.name, fight[1])
        return
    raise UserError(_refusal(doing, stored))


def said_list(parts: tuple[Phrase, ...] | list[Phrase], language: str,
              separator: str = ", ") -> str:
    """Parts said in ``language``, joined as a list."""
    return separator.join(render(part, language) for part in parts)


def panel_hint(c: Character, language: str) -> str:
    """" Still to choose: 1 combat ability, 4 item slots free (`/character panel`).": the next
    step after a change that leaves a PC short of the book's start ("" when none, and for an
    NPC, whose sheet is the GM's to make as the scene needs)."""
    left = () if c.npc else still_to_choose(c)
    if not left:
        return ""
    return " " + render(phrase("Still to choose: {parts} (`/character panel`).",
                               parts=said_list(left, language)), language)


def name_taken_text(name: str) -> Phrase:
    """The answer when the server already has a character called ``name``."""
    return phrase("This server already has a character called {name}: pick another name.",
                  name=bold_name(name))


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
        raise UserError(phrase("{name} was changed or deleted a moment ago by somebody else; "
                               "nothing changed. Try again.", name=bold_name(stored.name)))
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


async def as_it_stands(interaction: discord.Interaction[Any], stored: StoredCharacter,
                      language: str = SOURCE) -> tuple[Character, str]:
    """The character as it stands now: while a fight holds it, the fight's copy (with its live
    wounds) and a line saying where; else the sheet."""
    found = await in_fight(interaction, stored)
    if found is None:
        return stored.character, ""
    _, fighter, channel_id = found
    return fighter.character, "-# " + render(phrase(
        "In the fight in {channel}: as it stands now.", channel=f"<#{channel_id}>"),
        language) + "\n"


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
        raise UserError(phrase("{name} is in the fight in {channel}, where the GM keeps its "
                               "level and wounds hidden: it looks {looks}.",
                               name=bold_name(stored.name), channel=f"<#{channel_id}>",
                               looks=looks_phrase(fighter, RULES)))
    return True
