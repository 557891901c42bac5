"""Play sessions with a goal (004 "Advancement"): "All players' max level increases by 1 at
the end of a session if they achieved their goal … the players should agree on a single goal
collectively."

One open session per server. Players add their PCs (`/session join`), or join by fighting in
it; a GM ends it saying whether the goal was achieved, and then every PC of the session gains
+1 max level (up to 99), all in one transaction, and each is told what that brings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.characters.choices import changeable_character
from bot.cogs.characters.common import RULES, CharacterOption, bold_name, find_character, may_change
from bot.cogs.characters.panel import OpenPanelButton
from bot.components import button_row
from bot.i18n import N_, channel_language, person_language, render, translated
from bot.options import Text
from bot.permissions import is_gm, require_gm, require_guild
from bot.store.values import (
    SessionOpen,
    StoredCharacter,
    StoredCombat,
    StoredSession,
    clean_name,
)
from bot.text import clip
from bot.user_error import UserError
from engine.character import Character, advance
from engine.combat.recap import outcome
from engine.phrases import Argument, Phrase, phrase

if TYPE_CHECKING:
    from bot.host import Host

GOAL_LIMIT = 200
NO_SESSION = N_("No session is open on this server: `/session start` opens one.")
#: 004 "Advancement": the GM "cannot choose a goal for the players".
GM_CHOOSES_NO_GOAL = N_("The goal is the players': a GM cannot choose it for them (004), "
                        "only warn that it looks out of reach (`/session warn`).")


def _goal_of(session: StoredSession) -> Phrase:
    """"goal: **…**" or "no goal yet: …", to put in a sentence."""
    if not session.goal:
        return phrase("no goal yet: its players set it with `/session goal`")
    return phrase("goal: **{goal}**", goal=discord.utils.escape_markdown(session.goal))


def _open_already(session: StoredSession) -> Phrase:
    return phrase("A session is open already ({goal}). `/session join character:` adds your "
                  "PC to it, and a player with a PC in it sets or rewords the goal with "
                  "`/session goal`. A GM ends it with `/session end`.", goal=_goal_of(session))


def _outcome(session: StoredSession, achieved: bool) -> Phrase:
    if not session.goal:
        return phrase("It had no goal: nobody advances.")
    goal = discord.utils.escape_markdown(session.goal)
    if achieved:
        return phrase("Goal achieved: **{goal}**", goal=goal)
    return phrase("Goal not achieved: nobody advances: **{goal}**", goal=goal)


def _pcs_of(session_fights: Any) -> set[int]:
    return {f.character_id for stored in session_fights for f in stored.state.fighters
            if f.character_id is not None and not f.character.npc}


def _advanced(name: str, report: Any) -> Phrase:
    """"⬆️ **Ana**: max level 40 → 41", and what that brings."""
    said: dict[str, Argument] = {"name": name, "before": report.max_before,
                                 "after": report.max_after}
    if report.new_slot:
        return phrase("⬆️ {name}: max level {before} → {after} — a new item slot: 🧭 below (or "
                      "`/character panel`) fills it", **said)
    if report.new_ability:
        return phrase("⬆️ {name}: max level {before} → {after} — a new ability: 🧭 below (or "
                      "`/character panel`) chooses it", **said)
    return phrase("⬆️ {name}: max level {before} → {after}", **said)


def _panel_buttons(gains: list[tuple[StoredCharacter, Any]],
                   language: str) -> discord.ui.View | None:
    """A button per PC whose advance brought a slot or an ability: its panel, to its owner
    (or a GM). Discord holds 25 buttons; past that, `/character panel` (said in the text)."""
    buttons = [OpenPanelButton.of(stored, render(
                   phrase("{name}: new slot", name=stored.name) if report.new_slot
                   else phrase("{name}: new ability", name=stored.name), language))
               for stored, report in gains if report.new_slot or report.new_ability]
    return button_row(*buttons[:25]) if buttons else None


@app_commands.guild_only()
class SessionCog(commands.GroupCog, group_name="session",
                 group_description=N_("A play session and its goal")):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    async def _current(self, interaction: discord.Interaction[Any]) -> StoredSession:
        session = await self.bot.store.sessions.current(require_guild(interaction))
        if session is None:
            raise UserError(NO_SESSION)
        return session

    @app_commands.command(name="start", description=N_("Open a session (players: with the "
                                                       "goal you agreed on)."))
    @app_commands.describe(goal=N_("Players: the one goal you agree on (up to 200 "
                                   "characters). A GM leaves it out"))
    async def start(self, interaction: discord.Interaction[Any],
                    goal: app_commands.Transform[str, Text(GOAL_LIMIT)] | None = None) -> None:
        guild_id = require_guild(interaction)
        already = await self.bot.store.sessions.current(guild_id)
        if already is not None:
            raise UserError(_open_already(already))
        if goal is not None and await is_gm(interaction):
            raise UserError(phrase("{why} Open it without `goal:`; the players set it with "
                                   "`/session goal`. Nothing was opened.",
                                   why=phrase(GM_CHOOSES_NO_GOAL)))
        cleaned = clean_name(goal or "")
        try:
            await self.bot.store.sessions.open(guild_id=guild_id, goal=cleaned,
                                               opened_by=interaction.user.id)
        except SessionOpen as open_one:
            raise UserError(_open_already(open_one.session)) from None
        said = (phrase("Goal: **{goal}**", goal=discord.utils.escape_markdown(cleaned))
                if cleaned else
                phrase("No goal yet: the players agree on one, and one of them sets it with "
                       "`/session goal` once their PC is in (`/session join`)."))
        await interaction.response.send_message(render(phrase(
            "🎯 Session open. {goal}\n"
            "Players: `/session join character:` adds your PC (fighting in a fight adds it "
            "too). A GM ends it with `/session end achieved:` (True: every PC of the session "
            "gains +1 max level).", goal=said), await channel_language(interaction)))

    @app_commands.command(name="join", description=N_("Add your PC to the open session."))
    @app_commands.describe(character=N_("Your PC (a GM may add any PC)"))
    @app_commands.autocomplete(character=changeable_character)
    async def join(self, interaction: discord.Interaction[Any],
                   character: CharacterOption) -> None:
        session = await self._current(interaction)
        stored = await find_character(interaction, character)
        if stored.npc:
            raise UserError(phrase("{name} is an NPC: sessions advance PCs.",
                                   name=bold_name(stored.name)))
        if not await may_change(interaction, stored):
            raise UserError(phrase("{name} belongs to {owner}: only they or a GM may add them.",
                                   name=bold_name(stored.name), owner=f"<@{stored.owner_id}>"))
        added = await self.bot.store.sessions.join(session, stored.id)
        said: dict[str, Argument] = {"name": bold_name(stored.name), "goal": _goal_of(session)}
        await interaction.response.send_message(render(
            phrase("🎯 {name} joins the session ({goal}).", **said) if added else
            phrase("🎯 {name} is already in the session ({goal}).", **said),
            await channel_language(interaction) if added else await person_language(interaction)),
            ephemeral=not added)

    @app_commands.command(name="goal", description=N_("Reword the open session's goal (its "
                                                      "players)."))
    @app_commands.describe(goal=N_("The goal the players now agree on (up to 200 "
                                   "characters)"))
    async def goal(self, interaction: discord.Interaction[Any],
                   goal: app_commands.Transform[str, Text(GOAL_LIMIT)]) -> None:
        session = await self._current(interaction)
        if await is_gm(interaction):
            raise UserError(phrase("{why} Nothing was changed.", why=phrase(GM_CHOOSES_NO_GOAL)))
        pcs, _ = await self._members(session)
        user = interaction.user.id
        if user != session.opened_by and all(s.owner_id != user for s in pcs):
            raise UserError(phrase("The goal is the players': the one who opened the session or "
                                   "a player with a PC in it rewords it (`/session join` "
                                   "first)."))
        cleaned = clean_name(goal)
        if not await self.bot.store.sessions.set_goal(session, cleaned):
            raise UserError(NO_SESSION)
        new = discord.utils.escape_markdown(cleaned)
        await interaction.response.send_message(render(
            phrase("🎯 New goal: **{goal}** (was: {was}).", goal=new,
                   was=discord.utils.escape_markdown(session.goal)) if session.goal else
            phrase("🎯 New goal: **{goal}**.", goal=new), await channel_language(interaction)))

    @app_commands.command(name="warn", description=N_("GMs: warn the players that the goal "
                                                      "looks out of reach this session."))
    @app_commands.describe(why=N_("What makes it unlikely (optional)"))
    async def warn(self, interaction: discord.Interaction[Any],
                   why: app_commands.Transform[str, Text(GOAL_LIMIT)] | None = None) -> None:
        await require_gm(interaction, phrase("warn about the goal"))
        session = await self._current(interaction)
        if not session.goal:
            raise UserError(phrase("The session has no goal yet: its players set it with "
                                   "`/session goal`; there is nothing to warn about yet."))
        said = f" {discord.utils.escape_markdown(clean_name(why))}" if why else ""
        await interaction.response.send_message(render(phrase(
            "⚠️ The GM warns that the goal **{goal}** may be out of reach this session.{why}\n"
            "The players choose: keep it, or `/session goal` rewords it.",
            goal=discord.utils.escape_markdown(session.goal), why=said),
            await channel_language(interaction)))

    async def _members(self, session: StoredSession
                       ) -> tuple[list[StoredCharacter], Sequence[StoredCombat]]:
        """The session's PCs as they are now (added, or who fought in it) and its fights."""
        fights = await self.bot.store.sessions.fights(session)
        ids = sorted(set(session.members) | _pcs_of(fights))
        found = [await self.bot.store.characters.get_by_id(i) for i in ids]
        pcs = [s for s in found if s is not None and s.guild_id == session.guild_id
               and not s.npc]
        return pcs, fights

    @app_commands.command(name="status", description=N_("The open session: its goal, its "
                                                        "PCs, its fights."))
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        session = await self._current(interaction)
        pcs, fights = await self._members(session)
        language = await person_language(interaction)
        who = (", ".join(bold_name(s.name) for s in pcs)
               or translated("nobody yet (`/session join`)", language))
        fought = [render(phrase("• {map} in {channel}: {outcome}",
                                map=discord.utils.escape_markdown(f.map_name),
                                channel=f"<#{f.channel_id}>", outcome=outcome(f.state, RULES)),
                         language) for f in fights]
        goal = (phrase("🎯 Goal: **{goal}**", goal=discord.utils.escape_markdown(session.goal))
                if session.goal else
                phrase("🎯 No goal yet: its players set it with `/session goal`"))
        await interaction.response.send_message(clip("\n".join([
            render(goal, language),
            render(phrase("Open since {since} UTC · fights fought: {count}",
                          since=session.opened_at[:16], count=len(fights)), language),
            render(phrase("PCs: {who}", who=who), language), *fought])), ephemeral=True)

    @app_commands.command(name="end", description=N_("GMs: end the session, saying whether "
                                                     "its goal was achieved."))
    @app_commands.describe(achieved=N_("True: the goal was achieved, every PC of the session "
                                       "gains +1 max level"))
    async def end(self, interaction: discord.Interaction[Any], achieved: bool) -> None:
        await require_gm(interaction, phrase("end the session"))
        session = await self._current(interaction)
        if achieved and not session.goal:
            raise UserError(phrase("The session has no goal yet: its players set it with "
                                   "`/session goal`, so none was achieved: nobody advances "
                                   "without one. End it with `achieved:False`, or once the "
                                   "players have set the goal they reached. Nothing was "
                                   "changed."))
        pcs, fights = await self._members(session)
        advanced: list[tuple[StoredCharacter, Character]] = []
        gains: list[tuple[StoredCharacter, Any]] = []
        lines: list[Phrase] = []
        for stored in pcs:
            new, report = advance(stored.character) if achieved else (stored.character, None)
            if report is not None and new != stored.character:
                advanced.append((stored, new))
                gains.append((stored, report))
                lines.append(_advanced(bold_name(stored.name), report))
            elif report is not None:
                lines.append(phrase("{name} stays at max level 99, the highest.",
                                    name=bold_name(stored.name)))
        if not await self.bot.store.sessions.close(session, achieved=achieved,
                                                   advanced=advanced):
            raise UserError(phrase("The session or one of its PCs changed a moment ago; "
                                   "nothing was done. Try again."))
        language = await channel_language(interaction)
        text = phrase("🏁 Session over. {outcome}\nFights fought: {fights} · PCs: {pcs}",
                      outcome=_outcome(session, achieved), fights=len(fights), pcs=len(pcs))
        await interaction.response.send_message(
            clip("\n".join(render(line, language) for line in [text, *lines])),
            view=_panel_buttons(gains, language) or discord.utils.MISSING)


async def setup(bot: Host) -> None:
    await bot.add_cog(SessionCog(bot))
