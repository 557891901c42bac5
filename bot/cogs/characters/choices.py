"""Autocomplete for `/character …` and `/sheet`: characters, items and abilities."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.cogs.characters.common import AOE_ABILITIES, CHOICES_LIMIT, RULES, characters_store
from bot.i18n import person_language, render, translated
from bot.numbered import as_given, matching, natural_key
from bot.permissions import is_gm
from bot.text import echo, parse_number
from bot.user_error import UserError
from engine.catalog import Ability, Category
from engine.character import (
    HANDS,
    Character,
    ItemRef,
    abilities_open,
    has_room,
)
from engine.names import name_key
from engine.phrases import phrase
from engine.words import series_phrase

# -- autocomplete ---------------------------------------------------------------------------


def matching_choices(
    options: Sequence[tuple[str, str]], typed: str
) -> list[app_commands.Choice[str]]:
    """(label, value) pairs whose label starts with what was typed, then those containing it,
    each part in the order given (a sheet's items, the book's abilities)."""
    found = matching(options, typed, label=lambda option: option[0], rank=as_given)
    return [
        app_commands.Choice(name=label[:100], value=value[:100])
        for label, value in found[:CHOICES_LIMIT]
    ]


async def _character_choices(
    interaction: discord.Interaction[Any], current: str, *, changeable: bool
) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    entries = await characters_store(interaction).entries(interaction.guild_id)
    user_id = interaction.user.id
    if changeable and not await is_gm(interaction):
        entries = [e for e in entries if not e.npc and e.owner_id == user_id]
    # The user's own characters first, then the others, each part in natural order.
    language = await person_language(interaction)
    shown = [(render(phrase("{name} (NPC)", name=e.name), language) if e.npc else e.name, e)
             for e in entries]
    found = matching(shown, current, label=lambda pair: pair[0],
                     rank=lambda pair: (pair[1].npc or pair[1].owner_id != user_id,
                                        natural_key(pair[1].name)))
    return [app_commands.Choice(name=label[:100], value=e.name[:100])
            for label, e in found[:CHOICES_LIMIT]]


async def any_character(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Every character of the server: anyone may look at any of them."""
    return await _character_choices(interaction, current, changeable=False)


async def changeable_character(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The characters the user may change: their own PCs, or all of them for a GM."""
    return await _character_choices(interaction, current, changeable=True)


async def _chosen(interaction: discord.Interaction[Any]) -> Character | None:
    """The character named in the command's ``character`` option while typing another one."""
    name = getattr(interaction.namespace, "character", None)
    if not isinstance(name, str) or not name.strip() or interaction.guild_id is None:
        return None
    stored = await characters_store(interaction).get(interaction.guild_id, name)
    return None if stored is None else stored.character


def _item_label(c: Character, index: int, language: str) -> str:
    """"2. Vest (armor, torso) [right hand]": an item as the menu lists it, in ``language``."""
    item = c.items[index]
    kind = (render(RULES.items.kind(item.kind).said_short, language)
            if item.kind in RULES.items.ids else item.kind)
    details = [kind]
    if item.location is not None:
        known = item.location in RULES.body.ids
        details.append(render(RULES.body.location(item.location).said_lower, language) if known
                       else item.location.replace("_", " "))
    if item.less_lethal:
        details.append(translated("less-lethal", language))
    hands = [hand for hand in HANDS if c.held(hand) == index]
    held = (translated(" [both hands]", language) if len(hands) == 2
            else translated(" [right hand]", language) if hands == ["right"]
            else translated(" [left hand]", language) if hands else "")
    gone = translated(" DESTROYED", language) if item.destroyed else ""
    return f"{index + 1}. {item.name} ({', '.join(details)}){gone}{held}"


async def _item_choices(
    interaction: discord.Interaction[Any], current: str, *, holdable: bool
) -> list[app_commands.Choice[str]]:
    c = await _chosen(interaction)
    if c is None:
        return []
    indexes = [
        i for i, item in enumerate(c.items)
        if not holdable or (
            not item.destroyed and item.kind in RULES.items.ids
            and RULES.items.kind(item.kind).held
        )
    ]
    language = await person_language(interaction)
    return matching_choices([(_item_label(c, i, language), str(i + 1)) for i in indexes],
                            current)


async def any_item(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return await _item_choices(interaction, current, holdable=False)


async def holdable_item(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return await _item_choices(interaction, current, holdable=True)


async def carried_gear(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The character's non-combat items."""
    c = await _chosen(interaction)
    return [] if c is None else matching_choices([(g, g) for g in c.gear], current)


def activity_text(text: str) -> str:
    """A typed non-combat ability without a leading "good at", its spaces made single."""
    cleaned = " ".join(text.split())
    if cleaned.casefold().startswith("good at"):
        cleaned = cleaned[len("good at"):].strip()
    return cleaned


async def ability_to_add(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The combat abilities the character may take now (prerequisites and room), and
    "Good at <what was typed>" for a non-combat ability."""
    c = await _chosen(interaction)
    combat: Sequence[Ability] = (
        [a for a in RULES.abilities.combat if not a.free_text] if c is None
        else abilities_open(c, rules=RULES)
    )
    activity = activity_text(current)
    language = await person_language(interaction)
    good_at: list[app_commands.Choice[str]] = []
    if activity and (c is None or has_room(c, Category.NON_COMBAT)):
        good_at = [app_commands.Choice(
            name=render(phrase("Good at {activity}", activity=activity), language)[:100],
            value=f"good at {activity}"[:100])]
    typed_good_at = current.strip().casefold().startswith("good at")
    found = [] if typed_good_at else matching_choices(
        [(render(a.said_title, language), a.id) for a in combat], current)
    return found[: CHOICES_LIMIT - len(good_at)] + good_at


async def ability_to_remove(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The character's abilities, combat and non-combat."""
    c = await _chosen(interaction)
    if c is None:
        return []
    language = await person_language(interaction)
    options = [(render(RULES.abilities.ability(a).said_title, language), a) for a in c.abilities
               if a in RULES.abilities.ids]
    options += [(render(phrase("Good at {activity}", activity=activity), language),
                 f"good at {activity}") for activity in c.good_at]
    return matching_choices(options, current)


async def aoe_ability(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The AoE abilities the character has (an AoE weapon is for one of them)."""
    c = await _chosen(interaction)
    ids = [a for a in AOE_ABILITIES if c is None or a in c.abilities]
    language = await person_language(interaction)
    return matching_choices(
        [(render(RULES.abilities.ability(a).said_title, language), a) for a in ids], current)


# -- reading what was typed ---------------------------------------------------------------------


def item_ref(c: Character, text: str) -> ItemRef:
    """An item by its number on the sheet (1-based, ASCII digits) or its name."""
    typed = text.strip()
    if any(item.name.casefold() == typed.casefold() for item in c.items):
        return typed
    number = parse_number(typed)
    if number is not None:
        return number - 1
    if typed.isdigit():  # "²", "①": digits to Python, not a number to anyone at the table
        raise UserError(phrase(
            "“{typed}” is not an item number: type the number in plain digits "
            "(1, 2, 3 …) as on the sheet, or the item's name.", typed=echo(typed)))
    return typed


def combat_ability_named(text: str, among: Sequence[str] | None = None) -> Ability | None:
    """The combat ability meant by ``text``: its id, its title ("Leader: Rally") or, when only
    one has it, its name ("Rally"). ``among``: only these ids."""
    wanted = name_key(text)
    pool = [a for a in RULES.abilities.combat if not a.free_text
            and (among is None or a.id in among)]
    exact = [a for a in pool if wanted in (a.id, a.title.casefold())]
    if exact:
        return exact[0]
    named = [a for a in pool if a.name.casefold() == wanted]
    if len(named) > 1:
        raise UserError(phrase("Several abilities are called “{name}” ({titles}): pick one "
                               "from the list.", name=echo(text),
                               titles=series_phrase([a.said_title for a in named])))
    return named[0] if named else None
