"""Who acts, and what the options of a fight command may be: the ``as:`` transformer with its
autocomplete, and autocomplete of targets, weapons, areas and items for the fighter who acts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.errors import UserError
from bot.options import OneOf, Text
from bot.permissions import is_gm
from engine.catalog import Action, Rules
from engine.combat import (
    Combat,
    Fighter,
    legal_directs,
    legal_doors,
    legal_items,
    legal_moves,
    legal_second_moves,
    legal_targets,
    legal_weapons,
)
from engine.combat.actions.setup import TEAM_NAME_MAX
from engine.errors import RuleError

if TYPE_CHECKING:
    from bot.cogs.combat.session import FightSession

__all__ = ["ActingAs", "acting", "choices"]

#: The longest name a fight option looks up (characters have at most 32 characters; areas and
#: items a little more); longer values are refused on receipt, before the fight is touched.
LOOKUP = 100


#: A name a fight option looks up (a character, an area, an item, a map, a location).
Name = app_commands.Transform[str, Text(LOOKUP)]
#: A team's name, as long as the engine allows one.
TeamName = app_commands.Transform[str, Text(TEAM_NAME_MAX)]
#: A short text: a location's marks.
Short = app_commands.Transform[str, Text(20)]
HandOption = app_commands.Transform[str, OneOf([
    app_commands.Choice(name=hand, value=hand) for hand in ("right", "left", "both")])]


def _session(interaction: discord.Interaction[Any]) -> FightSession:
    return interaction.client.fights  # type: ignore[no-any-return]


def choices(names: list[str], current: str) -> list[app_commands.Choice[str]]:
    """At most 25 of ``names`` containing what the user typed so far."""
    typed = current.casefold().strip()
    found = [n for n in names if typed in n.casefold()]
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in found[:25]]


async def acting(interaction: discord.Interaction[Any], state: Combat,
                 as_name: str | None) -> Fighter:
    """The fighter a user acts as: ``as`` if given, else their only fighter here (or the only
    one of theirs the fight waits for)."""
    if as_name:
        return state.fighter(as_name)
    mine = list(state.fighters_of(interaction.user.id))
    if len(mine) == 1:
        return mine[0]
    if not mine:
        if await is_gm(interaction):
            raise UserError("Say which character acts with `as:`.")
        raise UserError("You have no character in this fight. Add yours with `/combat add`.")
    waiting = {p.fighter for p in state.waiting_for()}
    prompted = [f for f in mine if f.key in waiting]
    if len(prompted) == 1:
        return prompted[0]
    raise UserError("You have several characters here: pick one with `as:`.")


async def _state(interaction: discord.Interaction[Any]) -> Combat | None:
    if interaction.guild_id is None:
        return None
    stored = await _session(interaction).fight(interaction.channel_id or 0)
    return None if stored is None else stored.state


class ActingAs(Text):
    """The ``as:`` option: which of your characters acts (GMs: any character in the fight)."""

    def __init__(self) -> None:
        super().__init__(LOOKUP)

    async def autocomplete(self, interaction: discord.Interaction[Any],  # type: ignore[override]
                           value: str, /) -> list[app_commands.Choice[str]]:
        state = await _state(interaction)
        if state is None:
            return []
        mine = (state.fighters if await is_gm(interaction)
                else state.fighters_of(interaction.user.id))
        return choices([f.name for f in mine], value)


As = app_commands.Transform[str, ActingAs]


async def any_fighter(interaction: discord.Interaction[Any],
                      current: str) -> list[app_commands.Choice[str]]:
    state = await _state(interaction)
    return [] if state is None else choices([f.name for f in state.fighters], current)


async def _for_actor(interaction: discord.Interaction[Any], current: str,
                     legal: Callable[[Combat, str, Rules], tuple[str, ...]],
                     ) -> list[app_commands.Choice[str]]:
    """Choices from ``legal`` for the fighter the user acts as (its `as:` or its only one)."""
    state = await _state(interaction)
    if state is None:
        return []
    try:
        fighter = await acting(interaction, state, getattr(interaction.namespace, "as", None))
    except (UserError, RuleError):
        return []
    return choices(list(legal(state, fighter.key, _session(interaction).rules)), current)


def legal_choices(
    legal: Callable[[Combat, str, Rules], tuple[str, ...]],
) -> Callable[[discord.Interaction[Any], str], Any]:
    """An autocomplete callback offering what ``legal`` allows the acting fighter."""

    async def complete(interaction: discord.Interaction[Any],
                       current: str) -> list[app_commands.Choice[str]]:
        return await _for_actor(interaction, current, legal)

    return complete


targets = legal_choices(legal_targets)
weapons = legal_choices(legal_weapons)
counter_weapons = legal_choices(
    lambda c, key, rules: legal_weapons(c, key, rules, Action.COUNTERATTACK))
intercept_weapons = legal_choices(
    lambda c, key, rules: legal_weapons(c, key, rules, Action.INTERCEPT))
moves = legal_choices(legal_moves)
doors = legal_choices(legal_doors)
directable = legal_choices(legal_directs)


async def second_moves(interaction: discord.Interaction[Any],
                       current: str) -> list[app_commands.Choice[str]]:
    """A Speed move's second area: one step beyond the ``to:`` typed so far (nothing offered
    to a fighter without Speed)."""
    to = str(getattr(interaction.namespace, "to", None) or "")
    return await _for_actor(
        interaction, current, lambda c, key, rules: legal_second_moves(c, key, rules, to))


def items(op: str) -> Callable[[discord.Interaction[Any], str], Any]:
    return legal_choices(lambda c, key, rules: legal_items(c, key, rules, op))


async def areas(interaction: discord.Interaction[Any],
                current: str) -> list[app_commands.Choice[str]]:
    state = await _state(interaction)
    return [] if state is None else choices(list(state.game_map().areas), current)


async def locations(interaction: discord.Interaction[Any],
                    current: str) -> list[app_commands.Choice[str]]:
    return choices([loc.id for loc in _session(interaction).rules.body.locations], current)
