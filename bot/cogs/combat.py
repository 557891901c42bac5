"""Fights: `/combat …`, `/attack`, `/defend`, `/done`, `/surrender`, and the buttons that ask
the right person at the right moment.

Every command on a fight goes through :meth:`CombatCog.run`: under the channel's lock, load the
fight, let the engine apply the command, save the new state and its log entry (committed), and
only then show the result, refresh the board and post the buttons for what the fight waits for.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import UnhexBot
from bot.cogs.characters import require_change
from bot.cogs.maps import find_map, map_choices
from bot.components import PersistentButton, answer_form, button_row
from bot.errors import UserError
from bot.permissions import is_gm, require_gm, require_guild
from bot.store.characters import StoredCharacter
from bot.store.combats import StoredCombat
from data import load_rules
from engine.catalog import Rules
from engine.character import Character, recover
from engine.combat import (
    Actor,
    AddFighter,
    AidMark,
    Attack,
    Begin,
    ChooseDice,
    ChooseOrder,
    CloseWindow,
    Combat,
    Command,
    CriticalChoice,
    Done,
    Door,
    EndCombat,
    Event,
    Fighter,
    FirstAid,
    GMSet,
    ManageItems,
    Move,
    Phase,
    Prompt,
    PromptKind,
    React,
    RemoveFighter,
    Reroll,
    StopArea,
    Surrender,
    apply,
    command_adapter,
    legal_doors,
    legal_items,
    legal_moves,
    legal_targets,
    legal_weapons,
    new_combat,
    render_board,
)
from engine.combat import Armor as ArmorChoice
from engine.combat import Modifier as ModifierChoice
from engine.combat.aftermath import after_the_fight
from engine.errors import RuleError
from engine.sheet import render_wounds

log = logging.getLogger(__name__)

HELP = """**Running an Unhex fight**
1. GM: `/combat start map:` picks the map for this channel.
2. `/combat add character: area: [team:]` puts characters on the map (players add their own PC).
3. GM: `/combat begin` rolls initiative; the winner picks which team goes first.
4. On your team's turn, each character acts once: `/attack`, `/move`, `/door`, `/firstaid`,
   `/item hold|stow|pickup|use` (`/item drop` is free). `/done` ends your team's turn.
5. Attacks and moves open a reaction window: **Defend**, **Counterattack**, **Intercept** or
   **Pass** before the dice are rolled (or `/defend`, `/counterattack`, `/intercept`). Then
   whoever decides presses the buttons for re-rolls, criticals and which die is damage.
   `/surrender` any time before the dice are rolled.
6. `/combat status` shows everyone and their wounds; GMs can `/combat undo`, `/combat set` and
   `/combat end`. `/combat log` lists what happened."""

_LABELS = {
    "defend": "Defend", "counterattack": "Counterattack", "intercept": "Intercept",
    "pass": "Pass",
    "tens": "Re-roll tens", "ones": "Re-roll ones", "both": "Re-roll both", "keep": "Keep",
    "extra_action": "Extra action", "adjust": "Adjust",
    "precise+1": "Precise +1", "precise-1": "Precise −1", "powerful": "Powerful",
    "none": "No modifier",
}
_ARMOR_LABELS = {"use": "Destroy armor", "keep": "Take the damage"}
RESOLVE = "resolve"  # the GM's "Resolve now" on a reaction window
_DICE_LABELS = {"tens": "Damage: tens die", "ones": "Damage: ones die"}
_QUESTIONS = {
    PromptKind.CHOOSE_ORDER: "won initiative: which team goes first?",
    PromptKind.REACT: "may react before the dice are rolled",
    PromptKind.REROLL: "is good at this: re-roll or keep?",
    PromptKind.CRITICAL: "rolled a critical success: extra action or adjust?",
    PromptKind.CHOOSE_DICE: "chooses which die is damage (the other is hit location)",
    PromptKind.MODIFIER: "may use a modifier",
    PromptKind.ARMOR: "has armor there: destroy it instead of taking the damage?",
    PromptKind.STOP_AREA: "stopped the move: which area does the mover end in?",
    PromptKind.AID_DICE: "succeeded at first aid: which die is the number of boxes?",
    PromptKind.AID_BOXES: "chooses the \\ marks first aid erases, one per click",
    PromptKind.AID_PERMANENT: "chooses where an X becomes a permanent wound ■, one per click",
}


class CombatButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(r"cb:(?P<combat>\d+):(?P<version>\d+):(?P<kind>[a-z_]+):(?P<option>[^:]*)"
              r":(?P<fighter>.*)"),
):
    """One answer to what the fight waits for; the custom id says which fight (and which saved
    version of it), question and answer, and for whom. A button from an older version is
    refused, so a double click or a late click on an old message applies nothing."""

    def __init__(self, combat_id: int, version: int, kind: str, option: str, fighter: str,
                 label: str, style: discord.ButtonStyle = discord.ButtonStyle.primary) -> None:
        super().__init__(discord.ui.Button(
            label=label[:80], style=style,
            custom_id=f"cb:{combat_id}:{version}:{kind}:{option}:{fighter}"[:100],
        ))
        self.combat_id, self.version = combat_id, version
        self.kind, self.option, self.fighter = kind, option, fighter

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> CombatButton:
        return cls(int(match["combat"]), int(match["version"]), match["kind"], match["option"],
                   match["fighter"], "")

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        bot: UnhexBot = interaction.client
        cog = bot.get_cog("CombatCog")
        assert isinstance(cog, CombatCog)
        if self.kind == PromptKind.CRITICAL.value and self.option == "adjust":
            stored = await cog.active(interaction)
            _check_same_fight(stored, self.combat_id, self.version)
            fighter = stored.state.fighter(self.fighter)
            if fighter.owner_id != interaction.user.id and not await is_gm(interaction):
                who = "the GM" if fighter.owner_id is None else "their player"
                raise UserError(f"Only {who} or a GM decides for {fighter.name}.")
            await interaction.response.send_modal(AdjustModal(stored.id, fighter.key, fighter.name))
            return
        await cog.run(interaction, _command_for(self.kind, self.option, self.fighter),
                      combat_id=self.combat_id, version=self.version)


class RecoverButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"recover:(?P<character>\d+):(?P<version>\d+)",
):
    """After a fight, a PC's owner may recover: level to max, \\ and X erased, items replaced.
    The id carries the character's version, so the offer lapses once the character changes."""

    def __init__(self, character_id: int, version: int, name: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=f"Recover {name}"[:80] if name else "Recover",
            style=discord.ButtonStyle.success,
            custom_id=f"recover:{character_id}:{version}",
        ))
        self.character_id, self.version = character_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> RecoverButton:
        return cls(int(match["character"]), int(match["version"]))

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        bot: UnhexBot = interaction.client
        stored = await bot.store.characters.get_by_id(self.character_id)
        if stored is None:
            raise UserError("That character no longer exists.")
        await require_change(interaction, stored, "recover")
        if stored.version != self.version:
            raise UserError(f"{stored.name} has changed since the fight (or already "
                            "recovered); use `/character recover` if they still should.")
        recovered, report = recover(stored.character, rules=load_rules())
        if await bot.store.characters.replace(stored, recovered) is None:
            raise UserError(f"{stored.name} changed a moment ago; nothing was done.")
        await interaction.response.edit_message(
            content=f"🩹 {discord.utils.escape_markdown(report.summary)} Time passes: the GM "
                    "moves the story on.", view=None)


def _has_to_recover(ch: Character) -> bool:
    marks = "".join(ch.wounds.values())
    return (ch.level < ch.max_level or "\\" in marks or "X" in marks or ch.surrendered
            or any(it.destroyed for it in ch.items))


def _check_same_fight(stored: StoredCombat, combat_id: int, version: int | None = None) -> None:
    if stored.id != combat_id:
        raise UserError("That button belongs to a fight that is over.")
    if version is not None and stored.version != version:
        raise UserError("That button is out of date: the fight has moved on since. Use the "
                        "newest buttons.")


def _command_for(kind: str, option: str, fighter: str) -> Command:
    """The engine command a button stands for."""
    if kind == RESOLVE:
        return CloseWindow(by_timeout=False)
    match PromptKind(kind):
        case PromptKind.REACT:
            return React(fighter=fighter, reaction=option)
        case PromptKind.REROLL:
            return Reroll(fighter=fighter, which=option)
        case PromptKind.CRITICAL:
            return CriticalChoice(fighter=fighter, choice="extra_action", value=None)
        case PromptKind.CHOOSE_DICE:
            return ChooseDice(fighter=fighter, damage=option)
        case PromptKind.MODIFIER:
            return ModifierChoice(fighter=fighter, use=option)
        case PromptKind.ARMOR:
            return ArmorChoice(fighter=fighter, use=option == "use")
        case PromptKind.CHOOSE_ORDER:
            return ChooseOrder(first_team=option)
        case PromptKind.STOP_AREA:
            return StopArea(fighter=fighter, area=option)
        case PromptKind.AID_DICE | PromptKind.AID_BOXES | PromptKind.AID_PERMANENT:
            return AidMark(fighter=fighter, option=option)
    raise UserError("That button is not one this fight knows.")


ADJUST_MODAL_ID = re.compile(r"cb-adjust:(?P<combat>\d+):(?P<fighter>.+)")


class AdjustModal(discord.ui.Modal, title="Adjust the critical success"):
    """The form Adjust opens. It is not kept in memory: :meth:`CombatCog.on_interaction`
    answers its submit from the custom id, so a form left open across a restart still works."""

    def __init__(self, combat_id: int, fighter_key: str, fighter_name: str) -> None:
        super().__init__(custom_id=f"cb-adjust:{combat_id}:{fighter_key}"[:100])
        self.value: discord.ui.TextInput[AdjustModal] = discord.ui.TextInput(
            label=f"New value for {fighter_name}"[:45], min_length=1, max_length=2
        )
        self.add_item(self.value)
        self.stop()


def _code(text: str) -> str:
    return f"```text\n{text}\n```"


def _events_text(events: tuple[Event, ...] | list[Event], limit: int = 1900) -> str:
    lines = [discord.utils.escape_markdown(e.text) for e in events]
    text = "\n".join(lines)
    if len(text) > limit:
        text = text[: limit - 20].rsplit("\n", 1)[0] + "\n… (see /combat log)"
    return text or "Done."


class CombatCog(commands.Cog, name="CombatCog"):
    combat = app_commands.Group(
        name="combat", description="Run an Unhex fight in this channel.", guild_only=True
    )
    item = app_commands.Group(
        name="item", description="Use or manage items in this channel's fight.", guild_only=True
    )

    def __init__(self, bot: UnhexBot) -> None:
        self.bot = bot
        self.rules = load_rules()
        self.clock: Callable[[], float] = time.time
        self._locks: dict[int, asyncio.Lock] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}

    async def cog_load(self) -> None:
        # A restart continues every fight where it was, reaction windows and deadlines included.
        for stored in await self.bot.store.combats.all_active():
            self._schedule_window(stored)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """The Adjust form's submit: the new value for a critical success."""

        async def adjust(match: re.Match[str], text: str) -> None:
            if not text.strip().isdigit():
                raise UserError(f"“{discord.utils.escape_markdown(text.strip())}” is not a "
                                "number.")
            command = CriticalChoice(fighter=match["fighter"], choice="adjust",
                                     value=int(text.strip()))
            await self.run(interaction, command, combat_id=int(match["combat"]))

        await answer_form(interaction, ADJUST_MODAL_ID, adjust)

    async def cog_unload(self) -> None:
        for task in self._timers.values():
            task.cancel()

    # -- the one path every fight command takes -----------------------------------------

    def _lock(self, channel_id: int) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    async def active(self, interaction: discord.Interaction[Any]) -> StoredCombat:
        require_guild(interaction)
        stored = await self.bot.store.combats.active(interaction.channel_id or 0)
        if stored is None:
            raise UserError("There is no fight in this channel. A GM starts one with "
                            "`/combat start`.")
        return stored

    async def run(self, interaction: discord.Interaction[Any], command: Command, *,
                  combat_id: int | None = None, version: int | None = None) -> StoredCombat:
        """Apply ``command`` for the user, commit, then show the result to everyone.

        The channel's lock is held until the board and buttons are shown, so two commands
        close together are applied, and shown, one after the other."""
        actor = Actor(user_id=interaction.user.id, gm=await is_gm(interaction))
        channel_id = interaction.channel_id or 0
        async with self._lock(channel_id):
            stored = await self.active(interaction)
            if combat_id is not None:
                _check_same_fight(stored, combat_id, version)
            saved, events, recovering = await self._apply(stored, command, actor)
            await interaction.response.send_message(_events_text(events))
            await self._show(saved)
            await self._offer_recovery(saved.channel_id, recovering)
        return saved

    async def _apply(
        self, stored: StoredCombat, command: Command, actor: Actor
    ) -> tuple[StoredCombat, tuple[Event, ...], list[StoredCharacter]]:
        """Apply and commit; when the fight ends, its outcome is committed to the sheets too
        (the PCs who may recover come back, to be offered Recovery after the result)."""
        state, events = self._engine_apply(stored.state, command, actor)
        saved = await self.bot.store.combats.save(
            stored, state, user_id=actor.user_id,
            command=command_adapter.dump_json(command).decode(), events=events,
            active=state.phase is not Phase.ENDED,
        )
        if saved is None:
            raise UserError("The fight changed a moment ago; look again and retry.")
        recovering = await self._write_back(state) if state.phase is Phase.ENDED else []
        return saved, events, recovering

    def _engine_apply(self, state: Combat, command: Command,
                      actor: Actor) -> tuple[Combat, tuple[Event, ...]]:
        return apply(state, command, actor=actor, dice=self.bot.dice, rules=self.rules,
                     now=self.clock())

    async def _write_back(self, state: Combat) -> list[StoredCharacter]:
        """The fight is over: what it did to each character goes on its sheet. The PCs who
        have something to recover are returned."""
        recovering: list[StoredCharacter] = []
        for fighter in state.fighters:
            if fighter.character_id is None:
                continue
            sheet = await self.bot.store.characters.get_by_id(fighter.character_id)
            if sheet is None:
                continue
            outcome = after_the_fight(sheet.character, fighter.character)
            saved = await self.bot.store.characters.replace_character(sheet.id, outcome)
            if saved is not None and not saved.npc and _has_to_recover(saved.character):
                recovering.append(saved)
        return recovering

    async def _offer_recovery(self, channel_id: int, recovering: list[StoredCharacter]) -> None:
        """Each PC's owner is offered Recovery with a button (004 "Recovery")."""
        if not recovering:
            return
        channel = await self._channel(channel_id)
        for saved in recovering:
            ch = saved.character
            await channel.send(
                f"{discord.utils.escape_markdown(ch.name)} (<@{saved.owner_id}>) may recover: "
                f"level {ch.level} → {ch.max_level}, wounds \\ and X erased, destroyed items "
                "replaced. Time passes while they do.",
                view=button_row(RecoverButton(saved.id, saved.version, ch.name)),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(saved.owner_id)]),
            )

    # -- showing the fight -----------------------------------------------------------------

    async def _channel(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def _show(self, stored: StoredCombat) -> None:
        """Refresh the board, replace the buttons with those for what the fight waits for now,
        and (re)arm the reaction window's timer."""
        channel = await self._channel(stored.channel_id)
        board = _code(render_board(stored.state, rules=self.rules))
        board_id = stored.board_message_id
        if board_id is not None:
            try:
                await channel.get_partial_message(board_id).edit(content=board)  # type: ignore[attr-defined]
            except discord.NotFound:
                board_id = None
        if board_id is None:
            message = await channel.send(board)
            await self.bot.store.combats.set_messages(stored.id, board=message.id)
        if stored.prompt_message_id is not None:
            with contextlib.suppress(discord.NotFound):
                await channel.get_partial_message(  # type: ignore[attr-defined]
                    stored.prompt_message_id).edit(view=None)
        content, view, mentions = self.prompt_message(stored)
        if view is None:
            await self.bot.store.combats.set_messages(stored.id, clear_prompt=True)
        else:
            message = await channel.send(content, view=view, allowed_mentions=mentions)
            await self.bot.store.combats.set_messages(stored.id, prompt=message.id)
        self._schedule_window(stored)

    def prompt_message(
        self, stored: StoredCombat
    ) -> tuple[str, discord.ui.View | None, discord.AllowedMentions]:
        """Who must decide what, with their buttons (at most 25, in 5 rows), and the mentions
        that ping exactly the players asked to decide."""
        state = stored.state
        prompts = [p for p in state.waiting_for() if p.kind is not PromptKind.ACT]
        users = sorted({p.user_id for p in prompts if p.user_id is not None})
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in users])
        if not prompts:
            return "", None, mentions
        reacting = any(p.kind is PromptKind.REACT for p in prompts)
        resolve = [CombatButton(stored.id, stored.version, RESOLVE, "", "", "Resolve now (GM)",
                                discord.ButtonStyle.secondary)] if reacting else []
        lines: list[str] = []
        rows: list[list[CombatButton]] = []
        for prompt in prompts:
            who = self._who(state, prompt)
            question = _QUESTIONS.get(prompt.kind, "must decide")
            deadline = f" (closes <t:{int(prompt.deadline)}:R>)" if prompt.deadline else ""
            group = [
                CombatButton(stored.id, stored.version, prompt.kind.value, option,
                             prompt.fighter or "", self._button_label(state, prompt, option,
                                                                       len(prompts) > 1),
                             _style(option))
                for option in prompt.options
            ]
            packed = _pack_rows(rows, group)
            if len(_pack_rows(packed, resolve)) > 5:
                lines.append(f"**{who}** {question}{deadline}: no room for more buttons, use "
                             f"`/{_SLASH.get(prompt.kind, 'combat status')}`.")
                continue
            lines.append(f"**{who}** {question}{deadline}")
            rows = packed
        view = discord.ui.View(timeout=None)
        for index, row in enumerate(_pack_rows(rows, resolve)):
            for button in row:
                button.item.row = index
                view.add_item(button)
        return "\n".join(lines)[:1900], view, mentions

    @staticmethod
    def _button_label(state: Combat, prompt: Prompt, option: str, named: bool) -> str:
        label = _label(prompt.kind, option, _hit_dice(state, prompt)) or option
        if prompt.fighter and named:
            label = f"{state.fighter(prompt.fighter).name}: {label}"
        return label

    @staticmethod
    def _who(state: Combat, prompt: Prompt) -> str:
        name = state.fighter(prompt.fighter).name if prompt.fighter else (prompt.team or "GM")
        name = discord.utils.escape_markdown(name)
        return f"{name} (<@{prompt.user_id}>)" if prompt.user_id else f"{name} (GM)"

    # -- reaction windows that close by themselves ------------------------------------------

    def _schedule_window(self, stored: StoredCombat) -> None:
        old = self._timers.pop(stored.channel_id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        deadlines = [p.deadline for p in stored.state.waiting_for() if p.deadline is not None]
        if not deadlines or stored.state.phase is Phase.ENDED:
            return
        deadline = min(deadlines)
        self._timers[stored.channel_id] = asyncio.get_running_loop().create_task(
            self._close_at(stored.channel_id, deadline),
            name=f"unhex-background:window:{stored.channel_id}",
        )

    async def _close_at(self, channel_id: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - self.clock()))
        try:
            await self.close_expired_window(channel_id)
        except Exception:  # a timer has nobody to answer: log it
            log.exception("Could not close the reaction window in channel %s", channel_id)

    async def close_expired_window(self, channel_id: int) -> bool:
        """Close the channel's reaction window if its deadline has passed (the timer's job)."""
        async with self._lock(channel_id):
            stored = await self.bot.store.combats.active(channel_id)
            if stored is None:
                return False
            system = Actor(user_id=self.bot.user.id if self.bot.user else 0, gm=True)
            try:
                saved, events, recovering = await self._apply(
                    stored, CloseWindow(by_timeout=True), system)
            except (UserError, ValueError):
                return False
            channel = await self._channel(channel_id)
            await channel.send(f"⏱️ Time is up.\n{_events_text(events)}")
            await self._show(saved)
            await self._offer_recovery(channel_id, recovering)
        return True

    # -- autocomplete ---------------------------------------------------------------------

    async def _state_for(self, interaction: discord.Interaction[Any]) -> Combat | None:
        stored = await self.bot.store.combats.active(interaction.channel_id or 0)
        return None if stored is None else stored.state

    async def _mine(self, interaction: discord.Interaction[Any], state: Combat) -> list[Fighter]:
        if await is_gm(interaction):
            return list(state.fighters)
        return list(state.fighters_of(interaction.user.id))

    async def fighter_autocomplete(self, interaction: discord.Interaction[Any],
                                   current: str) -> list[app_commands.Choice[str]]:
        state = await self._state_for(interaction)
        if state is None:
            return []
        names = [f.name for f in await self._mine(interaction, state)]
        return _choices(names, current)

    async def any_fighter_autocomplete(self, interaction: discord.Interaction[Any],
                                       current: str) -> list[app_commands.Choice[str]]:
        state = await self._state_for(interaction)
        return [] if state is None else _choices([f.name for f in state.fighters], current)

    async def _options_for_actor(
        self, interaction: discord.Interaction[Any], current: str,
        legal: Callable[[Combat, str, Rules], tuple[str, ...]],
    ) -> list[app_commands.Choice[str]]:
        """Choices from ``legal`` for the fighter the user acts as (its `as:` or its only one)."""
        state = await self._state_for(interaction)
        if state is None:
            return []
        try:
            as_name = getattr(interaction.namespace, "as", None)
            fighter = await self._acting(interaction, state, as_name)
        except (UserError, RuleError):
            return []
        return _choices(list(legal(state, fighter.key, self.rules)), current)

    async def target_autocomplete(self, interaction: discord.Interaction[Any],
                                  current: str) -> list[app_commands.Choice[str]]:
        return await self._options_for_actor(interaction, current, legal_targets)

    async def weapon_autocomplete(self, interaction: discord.Interaction[Any],
                                  current: str) -> list[app_commands.Choice[str]]:
        return await self._options_for_actor(interaction, current, legal_weapons)

    async def move_autocomplete(self, interaction: discord.Interaction[Any],
                                current: str) -> list[app_commands.Choice[str]]:
        return await self._options_for_actor(interaction, current, legal_moves)

    async def door_autocomplete(self, interaction: discord.Interaction[Any],
                                current: str) -> list[app_commands.Choice[str]]:
        return await self._options_for_actor(interaction, current, legal_doors)

    async def location_autocomplete(self, interaction: discord.Interaction[Any],
                                    current: str) -> list[app_commands.Choice[str]]:
        return _choices([loc.id for loc in self.rules.body.locations], current)

    async def area_autocomplete(self, interaction: discord.Interaction[Any],
                                current: str) -> list[app_commands.Choice[str]]:
        state = await self._state_for(interaction)
        return [] if state is None else _choices(list(state.game_map().areas), current)

    async def map_autocomplete(self, interaction: discord.Interaction[Any],
                               current: str) -> list[app_commands.Choice[str]]:
        return await map_choices(self.bot, interaction.guild_id, current)

    async def character_autocomplete(self, interaction: discord.Interaction[Any],
                                     current: str) -> list[app_commands.Choice[str]]:
        guild_id = interaction.guild_id or 0
        gm = await is_gm(interaction)
        records = await self.bot.store.characters.list(guild_id)
        names = [r.name for r in records if gm or (not r.npc and r.owner_id == interaction.user.id)]
        return _choices(names, current)

    async def _acting(self, interaction: discord.Interaction[Any], state: Combat,
                      as_name: str | None) -> Fighter:
        """The fighter a user acts as: ``as`` if given, else their only fighter here."""
        if as_name:
            return state.fighter(as_name)
        mine = list(state.fighters_of(interaction.user.id))
        if len(mine) == 1:
            return mine[0]
        if not mine:
            if await is_gm(interaction):
                raise UserError("Say which character acts with `as:`.")
            raise UserError("You have no character in this fight. Add yours with "
                            "`/combat add`.")
        waiting = {p.fighter for p in state.waiting_for()}
        prompted = [f for f in mine if f.key in waiting]
        if len(prompted) == 1:
            return prompted[0]
        raise UserError("You have several characters here: pick one with `as:`.")

    # -- /combat ---------------------------------------------------------------------------

    @combat.command(name="start", description="Start a fight in this channel on a map (GMs).")
    @app_commands.describe(map="The map the fight happens on",
                           reaction_seconds="How long reaction buttons wait (default 45)")
    @app_commands.autocomplete(map=map_autocomplete)
    async def start(self, interaction: discord.Interaction[Any], map: str,
                    reaction_seconds: app_commands.Range[int, 5, 600] = 45) -> None:
        guild_id = require_guild(interaction)
        await require_gm(interaction, "start a fight")
        found = await find_map(self.bot, guild_id, map)
        name = found.name
        state = new_combat(found.text, reaction_seconds=reaction_seconds)
        stored = await self.bot.store.combats.start(
            guild_id=guild_id, channel_id=interaction.channel_id or 0, map_name=name, state=state
        )
        if stored is None:
            raise UserError("A fight is already running in this channel. End it with "
                            "`/combat end` first.")
        await interaction.response.send_message(
            f"⚔️ A fight starts on **{discord.utils.escape_markdown(name)}**. Add characters "
            "with `/combat add`, then a GM runs `/combat begin`.")
        await self._show(stored)

    @combat.command(name="add", description="Put a character into this fight.")
    @app_commands.describe(character="A character of this server", area="Where it starts",
                           team="Its team (default: PCs or NPCs)")
    @app_commands.autocomplete(character=character_autocomplete, area=area_autocomplete)
    async def add(self, interaction: discord.Interaction[Any], character: str, area: str,
                  team: app_commands.Range[str, 1, 20] | None = None) -> None:
        guild_id = require_guild(interaction)
        record = await self.bot.store.characters.get(guild_id, character)
        if record is None:
            raise UserError(f"There is no character called “{character}” on this server.")
        if (record.npc or record.owner_id != interaction.user.id) and not await is_gm(
            interaction
        ):
            raise UserError("Players may add only their own PC; a GM places everyone else.")
        if team is not None and ":" in team:
            raise UserError("A team name cannot contain “:”.")
        command = AddFighter(
            character=record.character, area=area, team=team,
            owner_id=None if record.npc else record.owner_id, character_id=record.id,
        )
        await self.run(interaction, command)

    @combat.command(name="remove", description="Take a character out of this fight (GMs).")
    @app_commands.autocomplete(character=any_fighter_autocomplete)
    async def remove(self, interaction: discord.Interaction[Any], character: str) -> None:
        await self.run(interaction, RemoveFighter(fighter=character))

    @combat.command(name="begin", description="Roll initiative and begin round 1 (GMs).")
    async def begin(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, Begin())

    @combat.command(name="status", description="Everyone in this fight, with their wounds.")
    @app_commands.autocomplete(character=any_fighter_autocomplete)
    async def status(self, interaction: discord.Interaction[Any],
                     character: str | None = None) -> None:
        stored = await self.active(interaction)
        state = stored.state
        if character is not None:
            fighter = state.fighter(character)
            text = render_wounds(fighter.character, rules=self.rules)
            await interaction.response.send_message(_code(text), ephemeral=True)
            return
        await interaction.response.send_message(
            _code(render_board(state, rules=self.rules)), ephemeral=True)

    @combat.command(name="end", description="End the fight in this channel (GMs).")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, EndCombat())

    @combat.command(name="undo", description="Take back the last command (GMs).")
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await require_gm(interaction, "undo")
        async with self._lock(interaction.channel_id or 0):
            stored = await self.active(interaction)
            result = await self.bot.store.combats.undo(stored)
            if result is None:
                raise UserError("There is nothing to undo in this fight.")
            restored, command = result
            kind = str(json.loads(command).get("kind", "command"))
            await interaction.response.send_message(
                f"↩️ Undid the last command ({kind.replace('_', ' ')}).")
            await self._show(restored)

    @combat.command(name="log", description="What happened in this fight so far.")
    async def log_(self, interaction: discord.Interaction[Any]) -> None:
        stored = await self.active(interaction)
        entries = await self.bot.store.combats.log(stored.id)
        lines = [("~~" + t + "~~") if e.undone else t for e in entries for t in e.events]
        text = "\n".join(discord.utils.escape_markdown(line) for line in lines)
        if len(text) > 1900:
            text = "…\n" + text[-1890:].split("\n", 1)[-1]
        await interaction.response.send_message(text or "Nothing has happened yet.",
                                                ephemeral=True)

    @combat.command(name="set", description="Correct a character in this fight (GMs).")
    @app_commands.describe(location="A hit location whose marks to set (with marks:)",
                           marks="Its marks, e.g. \\\\ or XX■ (\"none\" clears them)")
    @app_commands.autocomplete(character=any_fighter_autocomplete, area=area_autocomplete,
                               location=location_autocomplete)
    async def set_(self, interaction: discord.Interaction[Any], character: str,
                   level: app_commands.Range[int, -99, 99] | None = None,
                   area: str | None = None,
                   actions: app_commands.Range[int, 0, 9] | None = None,
                   location: str | None = None, marks: str | None = None) -> None:
        if (location is None) != (marks is None):
            raise UserError("Give both `location` and `marks` to correct wounds.")
        if level is None and area is None and actions is None and location is None:
            raise UserError("Say what to correct: `level`, `area`, `actions` or "
                            "`location` with `marks`.")
        wounds = None
        if location is not None and marks is not None:
            text = "" if marks.strip().casefold() == "none" else marks.strip()
            wounds = {location.strip(): text}
        await self.run(interaction, GMSet(fighter=character, level=level, area=area,
                                          actions=actions, marks=wounds))

    @combat.command(name="settings", description="Change how long reaction buttons wait (GMs).")
    async def settings(self, interaction: discord.Interaction[Any],
                       reaction_seconds: app_commands.Range[int, 5, 600]) -> None:
        await require_gm(interaction, "change the fight's settings")
        async with self._lock(interaction.channel_id or 0):
            stored = await self.active(interaction)
            state = stored.state.model_copy(update={"reaction_seconds": reaction_seconds})
            event = Event(kind="settings", text=f"Reactions now wait {reaction_seconds} s.",
                          fighter=None)
            saved = await self.bot.store.combats.save(
                stored, state, user_id=interaction.user.id,
                command='{"kind": "settings"}', events=[event])
            if saved is None:
                raise UserError("The fight changed a moment ago; try again.")
        await interaction.response.send_message(f"⚙️ {event.text}")

    # -- actions ---------------------------------------------------------------------------

    @app_commands.command(name="attack", description="Attack a character in range and sight.")
    @app_commands.describe(target="Who you attack", with_="The item in your hand to use",
                           lethal="False for less-lethal damage", as_="Which of your characters")
    @app_commands.rename(with_="with", as_="as")
    @app_commands.autocomplete(target=target_autocomplete, with_=weapon_autocomplete,
                               as_=fighter_autocomplete)
    @app_commands.guild_only()
    async def attack(self, interaction: discord.Interaction[Any], target: str,
                     with_: str | None = None, lethal: bool = True,
                     as_: str | None = None) -> None:
        stored = await self.active(interaction)
        fighter = await self._acting(interaction, stored.state, as_)
        await self.run(interaction, Attack(fighter=fighter.key, target=target, weapon=with_,
                                           lethal=lethal))

    @app_commands.command(name="move", description="Move to a connected area (one action).")
    @app_commands.describe(to="The area one step away", as_="Which of your characters")
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(to=move_autocomplete, as_=fighter_autocomplete)
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction[Any], to: str,
                   as_: str | None = None) -> None:
        stored = await self.active(interaction)
        fighter = await self._acting(interaction, stored.state, as_)
        await self.run(interaction, Move(fighter=fighter.key, to=to))

    @app_commands.command(name="door", description="Open or close a door of your area (one "
                                                   "action).")
    @app_commands.describe(area="The area on the other side of the door",
                           open="True to open it, false to close it",
                           as_="Which of your characters")
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(area=door_autocomplete, as_=fighter_autocomplete)
    @app_commands.guild_only()
    async def door(self, interaction: discord.Interaction[Any], area: str, open: bool,
                   as_: str | None = None) -> None:
        stored = await self.active(interaction)
        fighter = await self._acting(interaction, stored.state, as_)
        await self.run(interaction, Door(fighter=fighter.key, other=area, open=open))

    @app_commands.command(name="firstaid", description="First aid on someone in your area "
                                                       "(one action, uses the item).")
    @app_commands.describe(target="Who you treat (can be yourself)",
                           as_="Which of your characters")
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(target=any_fighter_autocomplete, as_=fighter_autocomplete)
    @app_commands.guild_only()
    async def firstaid(self, interaction: discord.Interaction[Any], target: str,
                       as_: str | None = None) -> None:
        stored = await self.active(interaction)
        fighter = await self._acting(interaction, stored.state, as_)
        await self.run(interaction, FirstAid(fighter=fighter.key, target=target))

    # -- /item: use or manage items (004 "Use or manage items") ---------------------------

    async def _items(self, interaction: discord.Interaction[Any], op: str, *,
                     item: str | None = None, hand: str | None = None,
                     as_: str | None = None) -> None:
        stored = await self.active(interaction)
        fighter = await self._acting(interaction, stored.state, as_)
        await self.run(interaction, ManageItems(fighter=fighter.key, op=op, item=item,
                                                hand=hand))

    async def hold_autocomplete(self, interaction: discord.Interaction[Any],
                                current: str) -> list[app_commands.Choice[str]]:
        return await self._options_for_actor(
            interaction, current, lambda c, key, rules: legal_items(c, key, rules, "hold"))

    async def pickup_autocomplete(self, interaction: discord.Interaction[Any],
                                  current: str) -> list[app_commands.Choice[str]]:
        return await self._options_for_actor(
            interaction, current, lambda c, key, rules: legal_items(c, key, rules, "pickup"))

    async def drop_autocomplete(self, interaction: discord.Interaction[Any],
                                current: str) -> list[app_commands.Choice[str]]:
        return await self._options_for_actor(
            interaction, current, lambda c, key, rules: legal_items(c, key, rules, "drop"))

    async def use_autocomplete(self, interaction: discord.Interaction[Any],
                               current: str) -> list[app_commands.Choice[str]]:
        return await self._options_for_actor(
            interaction, current, lambda c, key, rules: legal_items(c, key, rules, "use"))

    @item.command(name="hold", description="Take an item in hand; what is in the way is "
                                           "stowed (one action).")
    @app_commands.describe(item="One of your items", hand="Which hand (default: a free one)",
                           as_="Which of your characters")
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(item=hold_autocomplete, as_=fighter_autocomplete)
    async def item_hold(self, interaction: discord.Interaction[Any], item: str,
                        hand: Literal["right", "left", "both"] | None = None,
                        as_: str | None = None) -> None:
        await self._items(interaction, "hold", item=item, hand=hand, as_=as_)

    @item.command(name="stow", description="Put away what a hand holds (one action).")
    @app_commands.describe(hand="Which hand (default: both)", as_="Which of your characters")
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(as_=fighter_autocomplete)
    async def item_stow(self, interaction: discord.Interaction[Any],
                        hand: Literal["right", "left", "both"] | None = None,
                        as_: str | None = None) -> None:
        await self._items(interaction, "stow", hand=hand, as_=as_)

    @item.command(name="pickup", description="Pick up an item you dropped in your area "
                                             "(one action).")
    @app_commands.describe(item="An item of yours on the floor here", hand="Which hand",
                           as_="Which of your characters")
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(item=pickup_autocomplete, as_=fighter_autocomplete)
    async def item_pickup(self, interaction: discord.Interaction[Any], item: str,
                          hand: Literal["right", "left", "both"] | None = None,
                          as_: str | None = None) -> None:
        await self._items(interaction, "pickup", item=item, hand=hand, as_=as_)

    @item.command(name="drop", description="Drop what you hold (free: no action).")
    @app_commands.describe(item="The item to drop (default: what the hand holds)",
                           hand="Which hand (default: both)", as_="Which of your characters")
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(item=drop_autocomplete, as_=fighter_autocomplete)
    async def item_drop(self, interaction: discord.Interaction[Any], item: str | None = None,
                        hand: Literal["right", "left", "both"] | None = None,
                        as_: str | None = None) -> None:
        await self._items(interaction, "drop", item=item, hand=hand, as_=as_)

    @item.command(name="use", description="Use an item in hand, or something in your area, "
                                          "other than to attack (one action).")
    @app_commands.describe(what="An item in your hand, or a thing the map notes in your area",
                           as_="Which of your characters")
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(what=use_autocomplete, as_=fighter_autocomplete)
    async def item_use(self, interaction: discord.Interaction[Any], what: str,
                       as_: str | None = None) -> None:
        await self._items(interaction, "use", item=what, as_=as_)

    @app_commands.command(name="defend", description="Defend against the attack on you.")
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(as_=fighter_autocomplete)
    @app_commands.guild_only()
    async def defend(self, interaction: discord.Interaction[Any], as_: str | None = None) -> None:
        stored = await self.active(interaction)
        fighter = await self._acting(interaction, stored.state, as_)
        await self.run(interaction, React(fighter=fighter.key, reaction="defend"))

    @app_commands.command(name="counterattack",
                          description="Counterattack the attack on you from your area.")
    @app_commands.describe(with_="The item in your hand to use", as_="Which of your characters")
    @app_commands.rename(with_="with", as_="as")
    @app_commands.autocomplete(with_=weapon_autocomplete, as_=fighter_autocomplete)
    @app_commands.guild_only()
    async def counterattack(self, interaction: discord.Interaction[Any],
                            with_: str | None = None, as_: str | None = None) -> None:
        stored = await self.active(interaction)
        fighter = await self._acting(interaction, stored.state, as_)
        await self.run(interaction, React(fighter=fighter.key, reaction="counterattack",
                                          weapon=with_))

    @app_commands.command(name="intercept", description="Intercept the move in progress.")
    @app_commands.describe(with_="The item in your hand to use", as_="Which of your characters")
    @app_commands.rename(with_="with", as_="as")
    @app_commands.autocomplete(with_=weapon_autocomplete, as_=fighter_autocomplete)
    @app_commands.guild_only()
    async def intercept(self, interaction: discord.Interaction[Any],
                        with_: str | None = None, as_: str | None = None) -> None:
        stored = await self.active(interaction)
        fighter = await self._acting(interaction, stored.state, as_)
        await self.run(interaction, React(fighter=fighter.key, reaction="intercept",
                                          weapon=with_))

    @app_commands.command(name="done", description="End your team's turn.")
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(as_=fighter_autocomplete)
    @app_commands.guild_only()
    async def done(self, interaction: discord.Interaction[Any], as_: str | None = None) -> None:
        stored = await self.active(interaction)
        team = None
        if as_ is not None or stored.state.fighters_of(interaction.user.id):
            team = (await self._acting(interaction, stored.state, as_)).team
        await self.run(interaction, Done(team=team))

    @app_commands.command(name="surrender", description="Surrender before the dice are rolled.")
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(as_=fighter_autocomplete)
    @app_commands.guild_only()
    async def surrender(self, interaction: discord.Interaction[Any],
                        as_: str | None = None) -> None:
        stored = await self.active(interaction)
        fighter = await self._acting(interaction, stored.state, as_)
        await self.run(interaction, Surrender(fighter=fighter.key))

    @app_commands.command(name="help", description="How to run an Unhex fight with this bot.")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(HELP, ephemeral=True)


_SLASH = {PromptKind.REACT: "defend, /counterattack or /intercept"}


def _pack_rows(rows: list[list[CombatButton]],
               group: list[CombatButton]) -> list[list[CombatButton]]:
    """``rows`` with ``group`` added: in the last row when it fits there, else in new rows of at
    most five (Discord's limit per row)."""
    if not group:
        return rows
    if rows and len(rows[-1]) + len(group) <= 5:
        return [*rows[:-1], [*rows[-1], *group]]
    return [*rows, *(group[i:i + 5] for i in range(0, len(group), 5))]


def _hit_dice(state: Combat, prompt: Prompt) -> tuple[int, int] | None:
    """The tens and ones of the hit whose dice ``prompt`` asks about, to label the buttons."""
    if prompt.kind is PromptKind.AID_DICE and state.aid is not None:
        result = state.aid.roll.roll.result
        return result.tens, result.ones
    if prompt.kind is not PromptKind.CHOOSE_DICE or state.pending is None:
        return None
    for hit in state.pending.hits:
        if hit.chooser == prompt.fighter and hit.damage_die is None:
            return hit.tens, hit.ones
    return None


def _label(kind: PromptKind, option: str, dice: tuple[int, int] | None = None) -> str:
    if kind is PromptKind.CHOOSE_DICE:
        if dice is not None:
            damage, location = dice if option == "tens" else dice[::-1]
            return f"{damage} damage · location {location}"
        return _DICE_LABELS.get(option, option)
    if kind is PromptKind.CHOOSE_ORDER:
        return f"{option} first"
    if kind is PromptKind.ARMOR:
        return _ARMOR_LABELS.get(option, option)
    if kind is PromptKind.STOP_AREA:
        return f"Stop in {option}"
    if kind is PromptKind.AID_DICE and dice is not None:
        boxes, extra = dice if option == "tens" else dice[::-1]
        return f"{boxes} boxes · {extra} more location{'' if extra == 1 else 's'}"
    if kind in (PromptKind.AID_BOXES, PromptKind.AID_PERMANENT):
        return "Done" if option == "done" else option.replace("_", " ").capitalize()
    return _LABELS.get(option, option)


def _style(option: str) -> discord.ButtonStyle:
    if option in ("pass", "keep", "none"):
        return discord.ButtonStyle.secondary
    if option in ("defend", "counterattack", "intercept", "extra_action", "adjust"):
        return discord.ButtonStyle.success
    return discord.ButtonStyle.primary


def _choices(names: list[str], current: str) -> list[app_commands.Choice[str]]:
    typed = current.casefold().strip()
    found = [n for n in names if typed in n.casefold()]
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in found[:25]]


async def setup(bot: UnhexBot) -> None:
    bot.add_dynamic_items(CombatButton, RecoverButton)
    await bot.add_cog(CombatCog(bot))
