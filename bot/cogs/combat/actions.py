"""The players' fight commands: `/attack`, `/aoe`, `/move`, `/door`, `/firstaid`, `/item …`
(with the hands panel of :mod:`.hands`), a leader's `/rally` and `/direct`, the
reactions `/defend`, `/counterattack`, `/intercept`, `/alloutdefend` (Shield), and `/done`,
`/surrender`.

Each handler only says which engine command it stands for; the session applies it for the
fighter who acts, under the channel's lock (004 "Actions").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import bot.cogs.combat.acting as acting
import bot.cogs.combat.hands as hands
from bot.cogs.combat.acting import (
    ACTING,
    ALL_OUT,
    RALLYING,
    REACTING,
    WAITED,
    As,
    AsReacting,
    HandOption,
    Kinds,
    Name,
    Pick,
)
from bot.cogs.combat.session import FightSession
from bot.i18n import N_, person_language
from engine.combat import (
    AllOutDefend,
    AoE,
    Attack,
    Combat,
    Command,
    Direct,
    Done,
    Door,
    FirstAid,
    Move,
    Rally,
    React,
    Surrender,
)
from engine.combat import ManageItems as Items
from engine.combat.commands import Rearrange

#: The ``as:`` option's description, the same in every command.
WHICH = N_("Which of your characters")


class ActionsCog(commands.Cog, name="Fight actions"):
    item = app_commands.Group(
        name="item", description=N_("Use or manage items in this channel's fight."),
        guild_only=True
    )

    def __init__(self, session: FightSession) -> None:
        self.session = session

    async def cog_load(self) -> None:
        self.session.bot.add_dynamic_items(hands.HandsMenu, hands.HandsApply)

    async def act(self, interaction: discord.Interaction[Any], as_: str | None,
                  make: Callable[[str], Command], kinds: Kinds = ACTING) -> None:
        """Apply ``make(the acting fighter's key)`` as the fighter the user acts as (without
        ``as:``, the one a prompt of ``kinds`` waits on: see :func:`acting.acting`)."""

        async def command(state: Combat) -> Command:
            return make((await acting.acting(interaction, state, as_, kinds)).key)

        await self.session.run(interaction, command)

    @app_commands.command(name="attack", description=N_("Attack a character in range and sight."))
    @app_commands.describe(target=N_("Who you attack"), with_=N_("The item in your hand to use"),
                           lethal=N_("False for less-lethal damage"), as_=WHICH)
    @app_commands.rename(with_="with", as_="as")
    @app_commands.autocomplete(target=acting.targets, with_=acting.weapons)
    @app_commands.guild_only()
    async def attack(self, interaction: discord.Interaction[Any], target: Pick,
                     with_: Pick | None = None, lethal: bool = True,
                     as_: As | None = None) -> None:
        await self.act(interaction, as_, lambda key: Attack(
            fighter=key, target=target, weapon=with_, lethal=lethal))

    @app_commands.command(name="aoe", description=N_("Use the AoE weapon in your hands on an area "
                                                  "(one action; the item is spent)."))
    @app_commands.describe(area=N_("The area: yours or one step away, in sight"),
                           with_=N_("The AoE item in your hands (default: the one held)"),
                           as_=WHICH)
    @app_commands.rename(with_="with", as_="as")
    @app_commands.autocomplete(area=acting.areas)
    @app_commands.guild_only()
    async def aoe(self, interaction: discord.Interaction[Any], area: Name,
                  with_: Name | None = None, as_: As | None = None) -> None:
        await self.act(interaction, as_, lambda key: AoE(fighter=key, area=area, item=with_))

    @app_commands.command(name="move", description=N_("Move to a connected area (one action)."))
    @app_commands.describe(to=N_("The area one step away"),
                           then=N_("Speed: a second area one step beyond (a roll decides)"),
                           as_=WHICH)
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(to=acting.moves, then=acting.second_moves)
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction[Any], to: Pick,
                   then: Pick | None = None, as_: As | None = None) -> None:
        await self.act(interaction, as_, lambda key: Move(fighter=key, to=to, then=then))

    @app_commands.command(name="door", description=N_("Open or close a door of your area (one "
                                                   "action)."))
    @app_commands.describe(area=N_("The area on the other side of the door"),
                           open=N_("True to open it, false to close it"),
                           as_=WHICH)
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(area=acting.doors)
    @app_commands.guild_only()
    async def door(self, interaction: discord.Interaction[Any], area: Pick, open: bool,
                   as_: As | None = None) -> None:
        await self.act(interaction, as_, lambda key: Door(fighter=key, other=area, open=open))

    @app_commands.command(name="firstaid", description=N_("First aid on someone in your area "
                                                       "(one action, uses the item)."))
    @app_commands.describe(target=N_("Who you treat (can be yourself)"),
                           sure=N_("First Aid ability: True for a sure success (no roll, one \\ "
                                "erased), False to roll"),
                           as_=WHICH)
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(target=acting.aid_targets)
    @app_commands.guild_only()
    async def firstaid(self, interaction: discord.Interaction[Any], target: Pick,
                       sure: bool | None = None, as_: As | None = None) -> None:
        await self.act(interaction, as_, lambda key: FirstAid(fighter=key, target=target,
                                                              sure=sure))

    # -- a leader's actions (004 "Abilities": Leader) -------------------------------------

    @app_commands.command(name="rally", description=N_("Leader: rally your team, once a fight "
                                                    "(one action, a roll)."))
    @app_commands.describe(as_=WHICH)
    @app_commands.rename(as_="as")
    @app_commands.guild_only()
    async def rally(self, interaction: discord.Interaction[Any], as_: As | None = None) -> None:
        await self.act(interaction, as_, lambda key: Rally(fighter=key), RALLYING)

    @app_commands.command(name="direct", description=N_("Leader: direct a teammate to act without "
                                                     "spending their own action (one action)."))
    @app_commands.describe(who=N_("The teammate you direct"), as_=WHICH)
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(who=acting.directable)
    @app_commands.guild_only()
    async def direct(self, interaction: discord.Interaction[Any], who: Pick,
                     as_: As | None = None) -> None:
        await self.act(interaction, as_, lambda key: Direct(fighter=key, target=who))

    # -- /item: use or manage items (004 "Use or manage items") ---------------------------

    async def _items(self, interaction: discord.Interaction[Any], op: str, *,
                     item: str | None = None, hand: str | None = None,
                     as_: str | None = None) -> None:
        await self.act(interaction, as_, lambda key: Items(fighter=key, op=op, item=item,
                                                           hand=hand))

    @item.command(name="hold", description=N_("Take an item in hand; what is in the way is "
                                           "stowed (one action)."))
    @app_commands.describe(item=N_("One of your items"),
                           hand=N_("Which hand (default: a free one)"), as_=WHICH)
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(item=acting.items("hold"))
    async def item_hold(self, interaction: discord.Interaction[Any], item: Pick,
                        hand: HandOption | None = None, as_: As | None = None) -> None:
        await self._items(interaction, "hold", item=item, hand=hand, as_=as_)

    @item.command(name="stow", description=N_("Put away what a hand holds (one action)."))
    @app_commands.describe(hand=N_("Which hand (default: both)"), as_=WHICH)
    @app_commands.rename(as_="as")
    async def item_stow(self, interaction: discord.Interaction[Any], hand: HandOption | None = None,
                        as_: As | None = None) -> None:
        await self._items(interaction, "stow", hand=hand, as_=as_)

    @item.command(name="pickup", description=N_("Pick up an item you dropped in your area "
                                             "(one action)."))
    @app_commands.describe(item=N_("An item of yours on the floor here"), hand=N_("Which hand"),
                           as_=WHICH)
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(item=acting.items("pickup"))
    async def item_pickup(self, interaction: discord.Interaction[Any], item: Pick,
                          hand: HandOption | None = None, as_: As | None = None) -> None:
        await self._items(interaction, "pickup", item=item, hand=hand, as_=as_)

    @item.command(name="hands", description=N_("Set both hands in one action; without options, "
                                            "menus to pick with."))
    @app_commands.describe(right=N_("What the right hand holds: an item (in the pack or on the "
                                 "floor here), or empty"),
                           left=N_("What the left hand holds: an item, or empty"),
                           as_=WHICH)
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(right=hands.hand_choices("right"),
                               left=hands.hand_choices("left"))
    async def item_hands(self, interaction: discord.Interaction[Any], right: Pick | None = None,
                         left: Pick | None = None, as_: As | None = None) -> None:
        if right is None and left is None:
            await hands.show_panel(interaction, self.session, as_)
            return

        language = await person_language(interaction)  # ("empty" as the player may type it)

        async def command(state: Combat) -> Command:
            f = await acting.acting(interaction, state, as_, ACTING)
            return Rearrange(fighter=f.key, right=hands.hand_spec(f, right, language),
                             left=hands.hand_spec(f, left, language))

        await self.session.run(interaction, command)

    @item.command(name="drop", description=N_("Drop what you hold (free: no action)."))
    @app_commands.describe(item=N_("The item to drop (default: what the hand holds)"),
                           hand=N_("Which hand (default: both)"), as_=WHICH)
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(item=acting.items("drop"))
    async def item_drop(self, interaction: discord.Interaction[Any], item: Pick | None = None,
                        hand: HandOption | None = None, as_: As | None = None) -> None:
        await self._items(interaction, "drop", item=item, hand=hand, as_=as_)

    @item.command(name="use", description=N_("Use an item in hand, or something in your area, "
                                          "other than to attack (one action)."))
    @app_commands.describe(what=N_("An item in your hand, or a thing the map notes in your area"),
                           as_=WHICH)
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(what=acting.items("use"))
    async def item_use(self, interaction: discord.Interaction[Any], what: Pick,
                       as_: As | None = None) -> None:
        await self._items(interaction, "use", item=what, as_=as_)

    # -- reactions (004 "Reactions") --------------------------------------------------------

    @app_commands.command(name="defend", description=N_("Defend against the attack on you, or "
                                                     "(Shield) on someone in your area."))
    @app_commands.describe(for_=N_("Whom you defend (default: the one attacked; Shield lets you "
                                "defend another)"), as_=WHICH)
    @app_commands.rename(for_="for", as_="as")
    @app_commands.autocomplete(for_=acting.any_fighter)
    @app_commands.guild_only()
    async def defend(self, interaction: discord.Interaction[Any], for_: Name | None = None,
                     as_: AsReacting | None = None) -> None:
        await self.act(interaction, as_, lambda key: React(fighter=key, reaction="defend",
                                                           target=for_), REACTING)

    @app_commands.command(name="alloutdefend",
                          description=N_("Shield: All-Out Defend this round (after initiative, "
                                      "before anyone acts)."))
    @app_commands.describe(as_=WHICH)
    @app_commands.rename(as_="as")
    @app_commands.guild_only()
    async def alloutdefend(self, interaction: discord.Interaction[Any],
                           as_: As | None = None) -> None:
        await self.act(interaction, as_, lambda key: AllOutDefend(fighter=key), ALL_OUT)

    @app_commands.command(name="counterattack",
                          description=N_("Counterattack the attack on you from your area."))
    @app_commands.describe(with_=N_("The item in your hand to use"),
                           lethal=N_("False for less-lethal damage (melee, or less-lethal ammo)"),
                           as_=WHICH)
    @app_commands.rename(with_="with", as_="as")
    @app_commands.autocomplete(with_=acting.counter_weapons)
    @app_commands.guild_only()
    async def counterattack(self, interaction: discord.Interaction[Any],
                            with_: Pick | None = None, lethal: bool = True,
                            as_: AsReacting | None = None) -> None:
        await self.act(interaction, as_, lambda key: React(
            fighter=key, reaction="counterattack", weapon=with_, lethal=lethal), REACTING)

    @app_commands.command(name="intercept", description=N_("Intercept the move in progress."))
    @app_commands.describe(with_=N_("The item in your hand to use"),
                           lethal=N_("False for less-lethal damage (melee, or less-lethal ammo)"),
                           as_=WHICH)
    @app_commands.rename(with_="with", as_="as")
    @app_commands.autocomplete(with_=acting.intercept_weapons)
    @app_commands.guild_only()
    async def intercept(self, interaction: discord.Interaction[Any],
                        with_: Pick | None = None, lethal: bool = True,
                        as_: AsReacting | None = None) -> None:
        await self.act(interaction, as_, lambda key: React(
            fighter=key, reaction="intercept", weapon=with_, lethal=lethal), REACTING)

    # -- the turn ------------------------------------------------------------------------

    @app_commands.command(name="done", description=N_("End your team's turn."))
    @app_commands.rename(as_="as")
    @app_commands.guild_only()
    async def done(self, interaction: discord.Interaction[Any], as_: As | None = None) -> None:
        async def command(state: Combat) -> Command:
            if as_ is None and not state.fighters_of(interaction.user.id):
                return Done(team=None)  # a GM ending whichever team's turn it is
            return Done(team=(await acting.acting(interaction, state, as_)).team)

        await self.session.run(interaction, command)

    @app_commands.command(name="surrender", description=N_("Surrender before the dice are rolled."))
    @app_commands.rename(as_="as")
    @app_commands.guild_only()
    async def surrender(self, interaction: discord.Interaction[Any],
                        as_: As | None = None) -> None:
        await self.act(interaction, as_, lambda key: Surrender(fighter=key), WAITED)
