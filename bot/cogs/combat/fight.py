"""The `/combat` group: a fight's set-up and the GM's tools (start, add, addmany, remove, begin,
order, status, end, undo, log, set, settings), a fighter's standing orders (orders, in
:mod:`.orders`), and the fight's Adjust form."""

from __future__ import annotations

import json
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import bot.cogs.combat.acting as acting
import bot.cogs.combat.orders as standing_orders
from bot.cogs.combat.acting import Name, Short, TeamName
from bot.cogs.combat.fight_permissions import (
    require_channel_permissions,
    require_start_permissions,
)
from bot.cogs.combat.groups import NameList, find_group, group_choices, joining, require_may_place
from bot.cogs.combat.pace import PaceChoice, Reaction, Turn, TurnEndChoice, paced
from bot.cogs.combat.pace import news as pace_changes
from bot.cogs.combat.recap import send_log_file, struck_log
from bot.cogs.combat.remind_setting import REMIND_HELP, Remind, reminding
from bot.cogs.combat.remind_setting import news as remind_changes
from bot.cogs.combat.session import FightSession
from bot.cogs.combat.step_messages import struck
from bot.cogs.combat.views import code, fighter_at
from bot.cogs.maps.finding import find_map, map_choices
from bot.i18n import N_, channel_language, person_language, render, translated
from bot.numbered import natural_key
from bot.options import Text
from bot.permissions import is_gm, require_gm, require_guild
from bot.store.values import Undone
from bot.text import MESSAGE_LIMIT, echo, parse_number
from bot.user_error import UserError
from engine.combat import (
    AddFighters,
    Begin,
    ChooseOrder,
    Combat,
    Command,
    CriticalChoice,
    EndCombat,
    Event,
    EventKind,
    GMSet,
    Phase,
    RemoveFighter,
    new_combat,
    render_board,
)
from engine.combat.actions.gm import MAX_ACTIONS
from engine.combat.choices import adjust_limit
from engine.combat.hidden_npcs import figures_hidden, looks_phrase
from engine.phrases import Phrase, Said, phrase
from engine.sheet import render_wounds

#: Team names, first to last, separated by commas (a team name has at most 32 characters).
TeamList = app_commands.Transform[str, Text(300)]

HIDE_NPCS_HELP = N_("Players see how hurt NPCs look, not their level and wounds")
REACTION_HELP = N_("How long reaction buttons wait: 45s, 10m, 12h, 2d")
TURN_HELP = N_("How long a team's turn lasts: 12h, 2d, 1h30m, or none")
PACE_HELP = N_("live (reactions 45s, no turn deadline) or by post (24h and 48h)")
TURN_END_HELP = N_("At a turn's deadline: ask the GM (default), or end the turn by itself")
#: The same, as `/combat start` gives them: each says what it is when not given.
START_HIDE_NPCS_HELP = N_("Players see how hurt NPCs look, not their level and wounds "
                          "(default: no)")
START_REACTION_HELP = N_("How long reaction buttons wait: 45s, 10m, 12h, 2d (default: the "
                         "pace's)")
START_TURN_HELP = N_("How long a team's turn lasts: 12h, 2d, 1h30m, or none (default: the "
                     "pace's)")
#: What the table is told when the GM hides the NPCs' figures, or shows them again.
HIDDEN_NEWS = {
    True: phrase("The players now see how hurt each NPC looks, not its level and wounds."),
    False: phrase("Everyone now sees the NPCs' levels and wounds."),
}


#: What `/combat undo` calls each kind of command it takes back (by the kind its log keeps).
COMMAND_KINDS: dict[str, Phrase] = {
    "add_fighter": phrase("add fighter"), "add_fighters": phrase("add fighters"),
    "remove_fighter": phrase("remove fighter"), "begin": phrase("begin"),
    "choose_order": phrase("choose order"), "choose_roller": phrase("choose roller"),
    "attack": phrase("attack"), "aoe": phrase("aoe"), "aoe_choice": phrase("aoe choice"),
    "move": phrase("move"), "stop_area": phrase("stop area"), "door": phrase("door"),
    "first_aid": phrase("first aid"), "aid_mark": phrase("aid mark"),
    "items": phrase("items"), "rearrange": phrase("rearrange"), "rally": phrase("rally"),
    "direct": phrase("direct"), "refuse_direction": phrase("refuse direction"),
    "done": phrase("done"), "react": phrase("react"),
    "all_out_defend": phrase("all out defend"), "close_window": phrase("close window"),
    "turn_deadline": phrase("turn deadline"),
    "between_turns_deadline": phrase("between turns deadline"),
    "extend_turn": phrase("extend turn"), "reroll": phrase("reroll"),
    "critical_choice": phrase("critical choice"), "destroy_item": phrase("destroy item"),
    "choose_dice": phrase("choose dice"), "modifier": phrase("modifier"),
    "armor": phrase("armor"), "surrender": phrase("surrender"),
    "end_combat": phrase("end combat"), "gm_set": phrase("gm set"),
    "set_order": phrase("set order"), "answers": phrase("answers"),
    "settings": phrase("settings"),
}


def setup_hint(state: Combat) -> Said:
    """After characters join a fight not begun yet, how it goes on, on a line of its own: the
    other side joins while there is one team, then a GM begins it ("" once the fight has
    begun)."""
    if state.phase is not Phase.SETUP:
        return ""
    if len(state.teams) < 2:
        return phrase("\n-# Next: `/combat add` the other side (a fight needs two teams), then "
                      "a GM runs `/combat begin`.")
    return phrase("\n-# Next: add more with `/combat add`, or a GM runs `/combat begin`.")


class FightCog(commands.Cog, name="Fights"):
    combat = app_commands.Group(
        name="combat", description=N_("Run an Unhex fight in this channel."), guild_only=True
    )

    def __init__(self, session: FightSession) -> None:
        self.session = session
        self.bot = session.bot

    async def cog_load(self) -> None:
        # A restart continues every fight where it was, reaction windows and prompts included.
        await self.session.restore()

    async def cog_unload(self) -> None:
        await self.session.close()

    @commands.Cog.listener()
    async def on_guild_channel_update(self, _: Any, after: discord.abc.GuildChannel) -> None:
        """A channel's permissions may be back: show what a missing one held back."""
        self.session.presenter.permissions_changed(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, _: discord.Role, after: discord.Role) -> None:
        """A role's permissions may be back (the bot's own role): likewise."""
        self.session.presenter.permissions_changed(after.guild.id)

    async def adjust_submitted(self, interaction: discord.Interaction[Any],
                               match: re.Match[str], text: str) -> None:
        """The Adjust form's submit: the new value for a critical success."""
        value = parse_number(text)

        def command(state: Combat) -> Command:
            fighter = fighter_at(state, match["fighter"])
            if fighter is None:
                raise UserError(phrase("That form is out of date: the fight has moved on "
                                       "since."))
            if value is None:  # out of range, the engine says the range
                limit = adjust_limit(state, fighter.key)
                typed = echo(text.strip())
                raise UserError(
                    phrase("“{typed}” is not a number.", typed=typed) if limit is None else
                    phrase("“{typed}” is not a number; a critical success can be adjusted to "
                           "1-{limit}.", typed=typed, limit=limit))
            return CriticalChoice(fighter=fighter.key, choice="adjust", value=value)

        await self.session.run(interaction, command, combat_id=int(match["combat"]),
                               version=int(match["version"]))

    # -- setting up -------------------------------------------------------------------------

    async def map_autocomplete(self, interaction: discord.Interaction[Any],
                               current: str) -> list[app_commands.Choice[str]]:
        return await map_choices(self.bot, interaction.guild_id, current,
                                 language=await person_language(interaction))

    async def character_autocomplete(self, interaction: discord.Interaction[Any],
                                     current: str) -> list[app_commands.Choice[str]]:
        guild_id = interaction.guild_id or 0
        gm = await is_gm(interaction)
        entries = await self.bot.store.characters.entries(guild_id)
        names = [e.name for e in entries
                 if gm or (not e.npc and e.owner_id == interaction.user.id)]
        return acting.choices(names, current, rank=natural_key)

    @combat.command(name="start",
                    description=N_("Start a fight in this channel on a map (GMs)."))
    @app_commands.describe(map=N_("The map the fight happens on"),
                           reaction=START_REACTION_HELP, turn=START_TURN_HELP,
                           pace=PACE_HELP, turn_end=TURN_END_HELP,
                           hide_npcs=START_HIDE_NPCS_HELP,
                           pin=N_("Pin the board while the fight lasts (default: yes, when I "
                                  "may)"),
                           thread=N_("Run the whole fight in a thread of its own; its result "
                                     "is posted here"))
    @app_commands.autocomplete(map=map_autocomplete)
    async def start(self, interaction: discord.Interaction[Any], map: Name,
                    reaction: Reaction | None = None, turn: Turn | None = None,
                    pace: PaceChoice | None = None, turn_end: TurnEndChoice | None = None,
                    hide_npcs: bool = False, pin: bool | None = None,
                    thread: bool = False) -> None:
        guild_id = require_guild(interaction)
        await require_gm(interaction, phrase("start a fight"))
        require_channel_permissions(interaction)
        # Asked for, a pin the bot may not make refuses the start; by default the board is
        # pinned when the bot may, and the answer says why it is not otherwise.
        require_start_permissions(interaction, pin=bool(pin), thread=thread)
        may_pin = interaction.app_permissions.pin_messages
        pinned = may_pin if pin is None else pin
        here = interaction.channel_id or 0
        if thread and isinstance(interaction.channel, discord.Thread):
            raise UserError(phrase("This is a thread already: start the fight without "
                                   "`thread:` to run it here."))
        found = await find_map(self.bot, guild_id, map)
        state = paced(new_combat(found.text, hide_npcs=hide_npcs), reaction=reaction,
                      turn=turn, pace=pace or "live", turn_end=turn_end, now=self.session.clock())
        if thread:
            await interaction.response.defer(thinking=True)
            channel_id = await self._open_thread(interaction, found.name)
        else:
            channel_id = here
        stored = await self.bot.store.combats.start(
            guild_id=guild_id, channel_id=channel_id, map_name=found.name, state=state,
            pin=pinned, report_channel_id=here if thread else None, map_identity=found.identity)
        if stored is None:
            raise UserError(phrase("A fight is already running in this channel. End it with "
                                   "`/combat end` first."))
        language = await channel_language(interaction)
        name = discord.utils.escape_markdown(found.name)
        text = render(phrase(
            "⚔️ A fight starts on **{map}** in {channel}. Add characters with `/combat add` "
            "(several: `/combat addmany`) there, then a GM runs `/combat begin`.",
            map=name, channel=f"<#{channel_id}>") if thread else phrase(
            "⚔️ A fight starts on **{map}**. Add characters with `/combat add` (several: "
            "`/combat addmany`), then a GM runs `/combat begin`.", map=name), language)
        pace_news = pace_changes(new_combat(found.text), state)
        if pace_news:
            text += " " + " ".join(render(news, language) for news in pace_news)
        if hide_npcs:
            text += " " + render(HIDDEN_NEWS[True], language)
        if pin is None and not may_pin:
            text += "\n" + translated("-# The board is not pinned: I lack the **Pin Messages** "
                             "permission here.", language)
        await self.session.answer(interaction, text, here)
        self.session.presenter.refresh(stored)

    async def _open_thread(self, interaction: discord.Interaction[Any], map_name: str) -> int:
        """A public thread off the channel for the whole fight, named in the channel's
        language; its id."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise UserError(phrase("A fight gets a thread of its own only in a text channel."))
        try:
            made = await channel.create_thread(
                name=render(phrase("Fight on {map}", map=map_name),
                            await channel_language(interaction))[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=1440, reason="A fight in a thread of its own")
        except discord.HTTPException as error:
            raise UserError(phrase("Discord refused to open a thread for the fight ({status}). "
                                   "Nothing was changed.", status=error.status)) from None
        return made.id

    @combat.command(name="add", description=N_("Put a character into this fight."))
    @app_commands.describe(character=N_("A character of this server"),
                           area=N_("Where it starts"),
                           team=N_("Its team (default: PCs or NPCs)"))
    @app_commands.autocomplete(character=character_autocomplete, area=acting.areas)
    async def add(self, interaction: discord.Interaction[Any], character: Name, area: Name,
                  team: TeamName | None = None) -> None:
        guild_id = require_guild(interaction)
        record = await self.bot.store.characters.get(guild_id, character)
        if record is None:
            raise UserError(phrase("There is no character called “{name}” on this server.",
                                   name=echo(character)))
        await require_may_place(interaction, record)
        language = await channel_language(interaction)
        await self.session.run(interaction, joining(record, area, team, language),
                               hint=setup_hint)

    @combat.command(name="addmany",
                    description=N_("Put several characters into this fight at once."))
    @app_commands.describe(characters=N_("Names by commas; “Goon 1-5” is Goon 1 to Goon 5"),
                           area=N_("Where they start"),
                           team=N_("Their team (default: PCs or NPCs)"))
    @app_commands.autocomplete(characters=group_choices, area=acting.areas)
    async def add_many(self, interaction: discord.Interaction[Any], characters: NameList,
                       area: Name, team: TeamName | None = None) -> None:
        records = await find_group(interaction, characters)
        language = await channel_language(interaction)
        await self.session.run(interaction, AddFighters(
            fighters=tuple(joining(record, area, team, language) for record in records)),
            hint=setup_hint)

    @combat.command(name="remove", description=N_("Take a character out of this fight (GMs)."))
    @app_commands.autocomplete(character=acting.any_fighter)
    async def remove(self, interaction: discord.Interaction[Any], character: Name) -> None:
        await self.session.run(interaction, RemoveFighter(fighter=character))

    @combat.command(name="begin", description=N_("Roll initiative and begin round 1 (GMs)."))
    async def begin(self, interaction: discord.Interaction[Any]) -> None:
        await self.session.run(interaction, Begin())

    @combat.command(name="order",
                    description=N_("Give the order all teams act in this round (initiative "
                                   "winner or GMs)."))
    @app_commands.describe(teams=N_("The teams, first to last, separated by commas"))
    async def order(self, interaction: discord.Interaction[Any], teams: TeamList) -> None:
        names = tuple(name.strip() for name in teams.split(",") if name.strip())
        if not names:
            raise UserError(phrase("Name the teams in the order they act, separated by "
                                   "commas."))
        await self.session.run(interaction, ChooseOrder(order=names))

    # -- looking ----------------------------------------------------------------------------

    @combat.command(name="status",
                    description=N_("Everyone in this fight, with their wounds."))
    @app_commands.autocomplete(character=acting.any_fighter)
    async def status(self, interaction: discord.Interaction[Any],
                     character: Name | None = None) -> None:
        state = (await self.session.require_fight(interaction)).state
        rules = self.session.rules
        gm = await is_gm(interaction)  # a GM sees the figures hidden from the players
        language = await person_language(interaction)

        def say(text: Said) -> str:
            return render(text, language)

        if character is None:
            text = render_board(state, rules=rules, gm=gm, say=say)
        else:
            fighter = state.fighter(character)
            if figures_hidden(state, fighter) and not gm:
                # Translators: a code block on a phone: at most 40 characters a line.
                text = say(phrase("{name} · NPC\nLooks {looks}\n(the GM keeps its level\n"
                                  "and wounds hidden)", name=fighter.name,
                                  looks=looks_phrase(fighter, rules)))
            else:
                text = render_wounds(fighter.character, rules=rules, say=say)
        await interaction.response.send_message(code(text), ephemeral=True)

    @combat.command(name="log", description=N_("What happened in this fight so far."))
    @app_commands.describe(file=N_("The whole log as a text file (default: the last lines)"))
    async def log_(self, interaction: discord.Interaction[Any], file: bool = False) -> None:
        stored = await self.session.require_fight(interaction)
        if file:
            await send_log_file(interaction, stored)
            return
        entries = await self.bot.store.combats.log(stored.id)
        gm = await is_gm(interaction)  # a GM reads the figures hidden from the players
        language = await person_language(interaction)
        text = struck_log(entries, language, gm=gm)
        if len(text) > 1900:
            text = "…\n" + text[-1890:].split("\n", 1)[-1]
        await interaction.response.send_message(
            text or translated("Nothing has happened yet.", language), ephemeral=True)

    @combat.command(name="orders",
                    description=N_("Standing orders: what your character does when asked to "
                                   "react and you are away."))
    @app_commands.describe(character=N_("Whose orders (default: your first character here)"))
    @app_commands.autocomplete(character=acting.any_fighter)
    async def orders(self, interaction: discord.Interaction[Any],
                     character: Name | None = None) -> None:
        await standing_orders.show_panel(interaction, self.session, character)

    # -- the GM's tools -----------------------------------------------------------------------

    @combat.command(name="end", description=N_("End the fight in this channel (GMs)."))
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await self.session.run(interaction, EndCombat())

    @combat.command(name="undo", description=N_("Take back the last command (GMs)."))
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await require_gm(interaction, phrase("undo"))
        require_channel_permissions(interaction)
        undone, taken = await self.session.undo(interaction)
        restored = undone.combat
        language = await channel_language(interaction)
        await self.session.answer(interaction, undid_text(undone, language,
                                                          known=taken is not None),
                                  restored.channel_id)
        self.session.presenter.refresh(restored, undone=True)
        await self.session.mark_taken_back(taken)  # where the table read what it took back

    @combat.command(name="set", description=N_("Correct a character in this fight (GMs)."))
    @app_commands.describe(location=N_("A hit location whose marks to set (with marks:)"),
                           marks=N_("Its marks, e.g. \\\\ or XX■ (\"none\" clears them)"),
                           hidden=N_("Stealth: whether the character is hidden"))
    @app_commands.autocomplete(character=acting.any_fighter, area=acting.areas,
                               location=acting.locations)
    async def set_(self, interaction: discord.Interaction[Any], character: Name,
                   level: app_commands.Range[int, -99, 99] | None = None,
                   area: Name | None = None,
                   actions: app_commands.Range[int, 0, MAX_ACTIONS] | None = None,
                   location: Name | None = None,
                   marks: Short | None = None, hidden: bool | None = None) -> None:
        if (location is None) != (marks is None):
            raise UserError(phrase("Give both `location` and `marks` to correct wounds."))
        if (level is None and area is None and actions is None and location is None
                and hidden is None):
            raise UserError(phrase("Say what to correct: `level`, `area`, `actions`, "
                                   "`location` with `marks`, or `hidden`."))
        wounds = None
        if location is not None and marks is not None:
            text = "" if marks.strip().casefold() == "none" else marks.strip()
            wounds = {location.strip(): text}
        await self.session.run(interaction, GMSet(fighter=character, level=level, area=area,
                                                  actions=actions, marks=wounds, hidden=hidden))

    @combat.command(name="settings",
                    description=N_("Change the fight's pace, its reminders, or whether NPCs' "
                                   "figures are hidden (GMs)."))
    @app_commands.describe(reaction=REACTION_HELP, turn=TURN_HELP, pace=PACE_HELP,
                           turn_end=TURN_END_HELP, remind=REMIND_HELP,
                           hide_npcs=HIDE_NPCS_HELP)
    async def settings(self, interaction: discord.Interaction[Any],
                       reaction: Reaction | None = None, turn: Turn | None = None,
                       pace: PaceChoice | None = None, turn_end: TurnEndChoice | None = None,
                       remind: Remind | None = None,
                       hide_npcs: bool | None = None) -> None:
        await require_gm(interaction, phrase("change the fight's settings"))
        if reaction is None and turn is None and pace is None and turn_end is None and (
                remind is None and hide_npcs is None):
            raise UserError(phrase("Say what to change: `reaction`, `turn`, `pace`, "
                                   "`turn_end`, `remind` or `hide_npcs`."))
        session = self.session
        async with session.lock(interaction.channel_id or 0):
            stored = await session.require_fight(interaction)
            state = paced(stored.state, reaction=reaction, turn=turn, pace=pace,
                          turn_end=turn_end, now=session.clock())
            news: list[Said] = [*pace_changes(stored.state, state)]
            reminded = reminding(state, remind)
            news += remind_changes(state, reminded)
            state = reminded
            if hide_npcs is not None:
                state = state.model_copy(update={"hide_npcs": hide_npcs})
                news.append(HIDDEN_NEWS[hide_npcs])
            event = Event(kind=EventKind.SETTINGS, text=_settings_news(news), fighter=None)
            saved, _events = await session.commit(stored, state, (event,),
                                                  user_id=interaction.user.id,
                                                  command='{"kind": "settings"}')
        language = await channel_language(interaction)
        await session.shown(saved, await session.tell(
            interaction, f"⚙️ {render(event.text, language)}", saved.channel_id, language))
        session.presenter.refresh(saved)  # the board shows, or stops showing, NPCs' levels


def _settings_news(news: list[Said]) -> Said:
    """What the settings changed, one sentence after another, as one value the log keeps."""
    if not news:
        return phrase("Nothing changes.")
    said = news[0]
    for more in news[1:]:
        # Translators: one sentence of news, then the next (most languages keep the space).
        said = phrase("{said} {more}", said=said, more=more)
    return said


def undid_text(undone: Undone, language: str, *, known: bool) -> str:
    """The answer to `/combat undo` in ``language``: what was taken back. When the message
    that told the step is not known here (a restart since, another process's step), what it
    said is struck in the answer itself, so the table still sees which rolls no longer
    count."""
    kind = str(json.loads(undone.command).get("kind", "command"))
    named = COMMAND_KINDS.get(kind, kind.replace("_", " "))
    text = render(phrase("↩️ Undid the last command ({kind}).", kind=named), language)
    hint = render(setup_hint(undone.combat.state), language)
    if not known and undone.said:
        said = "\n".join(render(told, language) for told in undone.said)
        text += "\n" + struck(said, MESSAGE_LIMIT - len(text) - len(hint) - 1)
    return text + hint
