"""`/combat orders`: a fighter's standing orders (rules note 60), set from a panel just for the
user: what the fighter answers when a reaction window's time runs out without its player's
answer, one menu per situation (attacked, an enemy moves past, caught in a blast) offering what
makes sense for that fighter (Defend with each of its shields, Defend, Counterattack or
Intercept when it has something to attack with, pass) and "no order", the current order
picked. A pick is one step of the fight, committed like any other but told only to the user
(the panel is redrawn saying so): an order is the player's plan until it is followed. A player
sets their own fighters' orders; a GM also the NPCs' (the engine's permission check decides).
Registered by the `/combat` group (:mod:`.fight`) and the package's set-up.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.cogs.combat.acting import actor_of
from bot.cogs.combat.fights import Fights, fights_of
from bot.cogs.combat.turn import whose_choices
from bot.cogs.combat.views import MENU_LABEL, fighter_at, fighter_index, panel_fighter
from bot.components import PersistentButton, identity_stamp, picked_values
from bot.custom_ids import CustomId, choice, digits, eight_hex
from bot.deferral import update_pressed
from bot.i18n import N_, person_language, render, translated
from bot.store.values import StoredCombat
from bot.text import clip
from bot.user_error import UserError
from engine.catalog import Rules
from engine.combat import Actor, Combat, Event, Fighter, SetOrder
from engine.combat.actions.orders import (
    SITUATION_WORDS,
    order_choices,
    order_of,
    order_words,
    orders_text,
)
from engine.combat.context import require_control
from engine.combat.order_values import Situation, StandingOrder
from engine.names import name_key
from engine.phrases import Phrase, phrase

__all__ = ["OrdersFighterMenu", "OrdersMenu", "show_panel", "your_fighters"]

STALE = N_("That panel is out of date: use `/combat orders` again. Nothing was changed.")
#: A situation as a custom id carries it.
_CODES = {Situation.ATTACKED: "a", Situation.MOVED_PAST: "m", Situation.BLAST: "b"}
_NO_ORDER = "none"


def your_fighters(state: Combat, actor: Actor) -> list[Fighter]:
    """The fighters whose orders ``actor`` sets from the panel: their own, and for a GM every
    NPC too, in the fight's order."""
    return [f for f in state.fighters
            if f.owner_id == actor.user_id or (actor.gm and f.owner_id is None)]


def _value(f: Fighter, order: StandingOrder) -> str:
    """An order as a menu's value: its reaction, and for a Defend with a shield the shield's
    place on the sheet (the first intact item of that name)."""
    if order.item is None:
        return order.reaction
    key = name_key(order.item)
    index = next(i for i, it in enumerate(f.character.items)
                 if name_key(it.name) == key and not it.destroyed)
    return f"{order.reaction}:{index}"


def _menu(stored: StoredCombat, f: Fighter, situation: Situation, rules: Rules,
          language: str) -> OrdersMenu:
    when = phrase("When {situation}", situation=SITUATION_WORDS[situation])
    current = order_of(stored.state, f.key, situation)
    entries = [discord.SelectOption(
        label=render(phrase("{when}: no standing order", when=when), language), value=_NO_ORDER,
        description=translated("Asked and not there: no reaction", language),
        default=current is None)]
    for order in order_choices(f, situation, rules):
        label = phrase("{when}: {order}", when=when, order=order_words(order))
        entries.append(discord.SelectOption(
            label=clip(render(label, language), MENU_LABEL), value=_value(f, order),
            default=order == current))
    index, stamp = fighter_index(stored.state, f.key), identity_stamp(f.key)
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=OrdersMenu.id_spec.format(combat=stored.id, fighter=index, stamp=stamp,
                                            situation=_CODES[situation]),
        placeholder=render(when, language) + "…", options=entries, min_values=1, max_values=1)
    return OrdersMenu(select, stored.id, index, stamp, situation)


def panel(stored: StoredCombat, f: Fighter, mine: list[Fighter], rules: Rules, language: str,
          said: Phrase | None = None) -> tuple[str, discord.ui.View]:
    """The panel for ``f`` (and, above it, a menu to switch to another of ``mine``) in
    ``language`` (the user's own); ``said``: what a pick just saved, first."""
    name = discord.utils.escape_markdown(f.name)
    now = render(orders_text(stored.state, f.key), language)
    lines = [] if said is None else [discord.utils.escape_markdown(render(said, language))]
    lines += [
        render(phrase("**{name}'s standing orders**: what {name} does when asked to react and "
                      "the time runs out without an answer. An answer given in time always "
                      "counts; an order that cannot be followed then is skipped, and the table "
                      "is told.", name=name), language),
        render(phrase("Now: {orders}.", orders=discord.utils.escape_markdown(now)), language)
        if now else translated("Now: no standing orders.", language),
    ]
    view = discord.ui.View(timeout=None)
    if len(mine) > 1:
        view.add_item(OrdersFighterMenu.make(stored, f, mine, language))
    for situation in Situation:
        view.add_item(_menu(stored, f, situation, rules, language))
    view.stop()  # answered from the custom ids (the dynamic items), not kept in memory
    return clip("\n".join(lines), 1900), view


async def show_panel(interaction: discord.Interaction[Any], session: Fights,
                     character: str | None) -> None:
    """`/combat orders`: the panel, just for the user, for ``character`` (default: the first
    of the user's fighters in the fight)."""
    stored = await session.require_fight(interaction)
    actor = await actor_of(interaction)
    mine = your_fighters(stored.state, actor)
    if character is not None:
        f = stored.state.fighter(character)
        require_control(actor, f)
    elif mine:
        f = mine[0]
    else:
        raise UserError(phrase("You have no character in this fight: a standing order is given "
                               "to one of your own."))
    content, view = panel(stored, f, mine if f in mine else [f, *mine], session.rules,
                          await person_language(interaction))
    await interaction.response.send_message(content, view=view, ephemeral=True)


def _command(f: Fighter, situation: Situation, value: str, rules: Rules) -> SetOrder:
    """The order a menu's value names for ``f`` now (STALE when it names none it offers)."""
    if value == _NO_ORDER:
        return SetOrder(fighter=f.key, situation=situation)
    for order in order_choices(f, situation, rules):
        if _value(f, order) == value:
            return SetOrder(fighter=f.key, situation=situation, reaction=order.reaction,
                            item=order.item)
    raise UserError(STALE)


def _saved_text(f: Fighter, situation: Situation, state: Combat) -> Phrase:
    order = order_of(state, f.key, situation)
    when = SITUATION_WORDS[situation]
    if order is None:
        return phrase("Saved: {name} has no standing order when {situation}.", name=f.name,
                      situation=when)
    return phrase("Saved: when {situation}, {name} will {order}.", situation=when, name=f.name,
                  order=order_words(order))


class OrdersMenu(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    id_spec=CustomId("ord", digits("combat"), digits("fighter", 3), eight_hex(),
                     choice("situation", *_CODES.values())),
):
    """One situation's menu: a pick saves that order (one step) and redraws the panel."""

    def __init__(self, select: discord.ui.Select[Any], combat_id: int, fighter: str,
                 stamp: str, situation: Situation) -> None:
        super().__init__(select)
        self.combat_id, self.fighter, self.stamp = combat_id, fighter, stamp
        self.situation = situation

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> OrdersMenu:
        situation = next(s for s, code in _CODES.items() if code == match["situation"])
        return cls(discord.ui.Select(custom_id=match.string), int(match["combat"]),
                   match["fighter"], match["stamp"], situation)

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        session = fights_of(interaction)
        picked = next(iter(picked_values(interaction)), "")

        def command(state: Combat) -> SetOrder:
            f = panel_fighter(state, self.fighter, self.stamp, STALE)
            return _command(f, self.situation, picked, session.rules)

        async def redraw(saved: StoredCombat, events: tuple[Event, ...]) -> None:
            f = panel_fighter(saved.state, self.fighter, self.stamp, STALE)
            mine = your_fighters(saved.state, await actor_of(interaction))
            content, view = panel(saved, f, mine if f in mine else [f, *mine], session.rules,
                                  await person_language(interaction),
                                  _saved_text(f, self.situation, saved.state))
            await update_pressed(interaction, content=content, view=view)

        await session.run_quietly(interaction, command, combat_id=self.combat_id,
                                  update=redraw)


class OrdersFighterMenu(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    id_spec=CustomId("ord-who", digits("combat")),
):
    """Above the panel, for a user with several fighters: whose orders to show."""

    def __init__(self, select: discord.ui.Select[Any], combat_id: int) -> None:
        super().__init__(select)
        self.combat_id = combat_id

    @classmethod
    def make(cls, stored: StoredCombat, shown: Fighter, mine: list[Fighter], language: str
             ) -> OrdersFighterMenu:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=cls.id_spec.format(combat=stored.id),
            placeholder=translated("Whose orders?", language),
            options=whose_choices(stored.state, shown, mine, language))
        return cls(select, stored.id)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> OrdersFighterMenu:
        return cls(discord.ui.Select(custom_id=match.string), int(match["combat"]))

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        session = fights_of(interaction)
        stored = await session.require_fight(interaction, self.combat_id)
        actor = await actor_of(interaction)
        mine = your_fighters(stored.state, actor)
        f = fighter_at(stored.state, next(iter(picked_values(interaction)), ""))
        if f is None:
            raise UserError(STALE)
        require_control(actor, f)
        content, view = panel(stored, f, mine if f in mine else [f, *mine], session.rules,
                              await person_language(interaction))
        await interaction.response.edit_message(content=content, view=view)
