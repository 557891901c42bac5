"""`/gm role`: which role makes its members GMs on this server.

GMs are members with Manage Server, and members with the server's GM role
(:func:`bot.permissions.is_gm`). Only members with Manage Server may set or clear the role, so
the role cannot hand itself on. `/gm role role:<role>` sets it; `/gm role` without a role
clears it. The change is confirmed publicly, so the table knows who runs the game.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import Host
from bot.i18n import N_, channel_language, person_language, render, translated
from bot.permissions import require_guild
from bot.user_error import UserError
from engine.phrases import phrase

#: What a new GM does next: the GMs' path of `/help`, in one clause.
GM_NEXT = N_("A GM's first fight: a map from `/map list`, then `/combat start map:` "
             "(`/help` says more).")


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class GMCog(commands.GroupCog, group_name="gm",
            group_description=N_("Who runs the game here")):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="role", description=N_("Set the role whose members are GMs; without a role, "
                                    "clear it.")
    )
    @app_commands.describe(role=N_("Members with this role are GMs (leave it out to clear)"))
    async def role(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        guild_id = require_guild(interaction)
        # Server admins may let anyone see the command; setting the role still needs this.
        if not interaction.permissions.manage_guild:
            raise UserError(phrase("Only members with Manage Server may set the GM role."))
        guilds = self.bot.store.guilds
        previous = await guilds.gm_role(guild_id)
        if role is None:
            if previous is None:
                await interaction.response.send_message(translated(
                    "No GM role is set: GMs are the members with Manage Server. Set one with "
                    "`/gm role role:`.", await person_language(interaction)), ephemeral=True,
                )
                return
            await guilds.set_gm_role(guild_id, None)
            await interaction.response.send_message(render(phrase(
                "🎲 {role} is no longer the GM role: GMs are the members with Manage Server.",
                role=f"<@&{previous}>"), await channel_language(interaction)))
            return
        if not isinstance(role, discord.Role):  # Discord sends the role with its id
            raise UserError(phrase("Pick the role from the list Discord offers."))
        await guilds.set_gm_role(guild_id, role.id)
        language = await channel_language(interaction)
        await interaction.response.send_message(render(phrase(
            "🎲 Members with {role} are GMs now, as are members with Manage Server. {next}",
            role=role.mention, next=translated(GM_NEXT, language)), language))


async def setup(bot: Host) -> None:
    await bot.add_cog(GMCog(bot))
