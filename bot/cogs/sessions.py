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

if TYPE_CHECKING:
    from bot.host import Host

GOAL_LIMIT = 200
NO_SESSION = "No session is open on this server: `/session start` opens one."
#: 004 "Advancement": the GM "cannot choose a goal for the players".
GM_CHOOSES_NO_GOAL = ("The goal is the players': a GM cannot choose it for them (004), only "
                      "warn that it looks out of reach (`/session warn`).")
SETS_THE_GOAL = "its players set it with `/session goal`"
NO_GOAL_YET = f"no goal yet: {SETS_THE_GOAL}"


def _goal_of(session: StoredSession) -> str:
    """"goal: **…**" or "no goal yet: …", to put in a sentence."""
    if not session.goal:
        return NO_GOAL_YET
    return f"goal: **{discord.utils.escape_markdown(session.goal)}**"


def _open_already(session: StoredSession) -> str:
    return (f"A session is open already ({_goal_of(session)}). `/session join character:` "
            "adds your PC to it, and a player with a PC in it sets or rewords the goal with "
            "`/session goal`. A GM ends it with `/session end`.")


def _outcome(session: StoredSession, achieved: bool) -> str:
    if not session.goal:
        return "It had no goal: nobody advances."
    head = "achieved" if achieved else "not achieved: nobody advances"
    return f"Goal {head}: **{discord.utils.escape_markdown(session.goal)}**"


def _pcs_of(session_fights: Any) -> set[int]:
    return {f.character_id for stored in session_fights for f in stored.state.fighters
            if f.character_id is not None and not f.character.npc}


def _brings(report: Any) -> str:
    if report.new_slot:
        return " — a new item slot: 🧭 below (or `/character panel`) fills it"
    if report.new_ability:
        return " — a new ability: 🧭 below (or `/character panel`) chooses it"
    return ""


def _panel_buttons(gains: list[tuple[StoredCharacter, Any]]) -> discord.ui.View | None:
    """A button per PC whose advance brought a slot or an ability: its panel, to its owner
    (or a GM). Discord holds 25 buttons; past that, `/character panel` (said in the text)."""
    buttons = [OpenPanelButton.of(stored, f"{stored.name}: new "
                                  f"{'slot' if report.new_slot else 'ability'}")
               for stored, report in gains if report.new_slot or report.new_ability]
    return button_row(*buttons[:25]) if buttons else None


@app_commands.guild_only()
class SessionCog(commands.GroupCog, group_name="session",
                 group_description="A play session and its goal"):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    async def _current(self, interaction: discord.Interaction[Any]) -> StoredSession:
        session = await self.bot.store.sessions.current(require_guild(interaction))
        if session is None:
            raise UserError(NO_SESSION)
        return session

    @app_commands.command(name="start", description="Open a session (players: with the "
                                                     "goal you agreed on).")
    @app_commands.describe(goal="Players: the one goal you agree on (up to 200 characters). "
                                "A GM leaves it out")
    async def start(self, interaction: discord.Interaction[Any],
                    goal: app_commands.Transform[str, Text(GOAL_LIMIT)] | None = None) -> None:
        guild_id = require_guild(interaction)
        already = await self.bot.store.sessions.current(guild_id)
        if already is not None:
            raise UserError(_open_already(already))
        if goal is not None and await is_gm(interaction):
            raise UserError(f"{GM_CHOOSES_NO_GOAL} Open it without `goal:`; the players set "
                            "it with `/session goal`. Nothing was opened.")
        cleaned = clean_name(goal or "")
        try:
            await self.bot.store.sessions.open(guild_id=guild_id, goal=cleaned,
                                               opened_by=interaction.user.id)
        except SessionOpen as open_one:
            raise UserError(_open_already(open_one.session)) from None
        said = (f"Goal: **{discord.utils.escape_markdown(cleaned)}**" if cleaned else
                "No goal yet: the players agree on one, and one of them sets it with "
                "`/session goal` once their PC is in (`/session join`).")
        await interaction.response.send_message(
            f"🎯 Session open. {said}\n"
            "Players: `/session join character:` adds your PC (fighting in a fight adds it "
            "too). A GM ends it with `/session end achieved:` (True: every PC of the session "
            "gains +1 max level).")

    @app_commands.command(name="join", description="Add your PC to the open session.")
    @app_commands.describe(character="Your PC (a GM may add any PC)")
    @app_commands.autocomplete(character=changeable_character)
    async def join(self, interaction: discord.Interaction[Any],
                   character: CharacterOption) -> None:
        session = await self._current(interaction)
        stored = await find_character(interaction, character)
        if stored.npc:
            raise UserError(f"{bold_name(stored.name)} is an NPC: sessions advance PCs.")
        if not await may_change(interaction, stored):
            raise UserError(f"{bold_name(stored.name)} belongs to <@{stored.owner_id}>: "
                            "only they or a GM may add them.")
        added = await self.bot.store.sessions.join(session, stored.id)
        said = "joins" if added else "is already in"
        await interaction.response.send_message(
            f"🎯 {bold_name(stored.name)} {said} the session ({_goal_of(session)}).",
            ephemeral=not added)

    @app_commands.command(name="goal", description="Reword the open session's goal (its "
                                                    "players).")
    @app_commands.describe(goal="The goal the players now agree on (up to 200 characters)")
    async def goal(self, interaction: discord.Interaction[Any],
                   goal: app_commands.Transform[str, Text(GOAL_LIMIT)]) -> None:
        session = await self._current(interaction)
        if await is_gm(interaction):
            raise UserError(f"{GM_CHOOSES_NO_GOAL} Nothing was changed.")
        pcs, _ = await self._members(session)
        user = interaction.user.id
        if user != session.opened_by and all(s.owner_id != user for s in pcs):
            raise UserError("The goal is the players': the one who opened the session or a "
                            "player with a PC in it rewords it (`/session join` first).")
        cleaned = clean_name(goal)
        if not await self.bot.store.sessions.set_goal(session, cleaned):
            raise UserError(NO_SESSION)
        was = (f" (was: {discord.utils.escape_markdown(session.goal)})" if session.goal
               else "")
        await interaction.response.send_message(
            f"🎯 New goal: **{discord.utils.escape_markdown(cleaned)}**{was}.")

    @app_commands.command(name="warn", description="GMs: warn the players that the goal "
                                                    "looks out of reach this session.")
    @app_commands.describe(why="What makes it unlikely (optional)")
    async def warn(self, interaction: discord.Interaction[Any],
                   why: app_commands.Transform[str, Text(GOAL_LIMIT)] | None = None) -> None:
        await require_gm(interaction, "warn about the goal")
        session = await self._current(interaction)
        if not session.goal:
            raise UserError(f"The session has {NO_GOAL_YET}; there is nothing to warn about "
                            "yet.")
        said = f" {discord.utils.escape_markdown(clean_name(why))}" if why else ""
        await interaction.response.send_message(
            f"⚠️ The GM warns that the goal **{discord.utils.escape_markdown(session.goal)}** "
            f"may be out of reach this session.{said}\nThe players choose: keep it, or "
            "`/session goal` rewords it.")

    async def _members(self, session: StoredSession
                       ) -> tuple[list[StoredCharacter], Sequence[StoredCombat]]:
        """The session's PCs as they are now (added, or who fought in it) and its fights."""
        fights = await self.bot.store.sessions.fights(session)
        ids = sorted(set(session.members) | _pcs_of(fights))
        found = [await self.bot.store.characters.get_by_id(i) for i in ids]
        pcs = [s for s in found if s is not None and s.guild_id == session.guild_id
               and not s.npc]
        return pcs, fights

    @app_commands.command(name="status", description="The open session: its goal, its PCs, "
                                                      "its fights.")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        session = await self._current(interaction)
        pcs, fights = await self._members(session)
        who = ", ".join(bold_name(s.name) for s in pcs) or "nobody yet (`/session join`)"
        fought = [f"• {discord.utils.escape_markdown(f.map_name)} in <#{f.channel_id}>: "
                  f"{outcome(f.state, RULES)}" for f in fights]
        await interaction.response.send_message(clip("\n".join([
            f"🎯 Goal: **{discord.utils.escape_markdown(session.goal)}**" if session.goal
            else f"🎯 No goal yet: {SETS_THE_GOAL}",
            f"Open since {session.opened_at[:16]} UTC · fights fought: {len(fights)}",
            f"PCs: {who}", *fought])), ephemeral=True)

    @app_commands.command(name="end", description="GMs: end the session, saying whether its "
                                                   "goal was achieved.")
    @app_commands.describe(achieved="True: the goal was achieved, every PC of the session "
                                    "gains +1 max level")
    async def end(self, interaction: discord.Interaction[Any], achieved: bool) -> None:
        await require_gm(interaction, "end the session")
        session = await self._current(interaction)
        if achieved and not session.goal:
            raise UserError(f"The session has {NO_GOAL_YET}, so none was achieved: nobody "
                            "advances without one. End it with `achieved:False`, or once the "
                            "players have set the goal they reached. Nothing was changed.")
        pcs, fights = await self._members(session)
        advanced: list[tuple[StoredCharacter, Character]] = []
        gains: list[tuple[StoredCharacter, Any]] = []
        lines = []
        for stored in pcs:
            new, report = advance(stored.character) if achieved else (stored.character, None)
            if report is not None and new != stored.character:
                advanced.append((stored, new))
                gains.append((stored, report))
                lines.append(f"⬆️ {bold_name(stored.name)}: max level {report.max_before} → "
                             f"{report.max_after}{_brings(report)}")
            elif report is not None:
                lines.append(f"{bold_name(stored.name)} stays at max level 99, the highest.")
        if not await self.bot.store.sessions.close(session, achieved=achieved,
                                                   advanced=advanced):
            raise UserError("The session or one of its PCs changed a moment ago; nothing was "
                            "done. Try again.")
        text = (f"🏁 Session over. {_outcome(session, achieved)}"
                f"\nFights fought: {len(fights)} · PCs: {len(pcs)}")
        await interaction.response.send_message(
            clip("\n".join([text, *lines])), view=_panel_buttons(gains) or discord.utils.MISSING)


async def setup(bot: Host) -> None:
    await bot.add_cog(SessionCog(bot))
