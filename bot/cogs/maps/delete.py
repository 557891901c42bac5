"""The confirmation `/map delete` asks for: any GM answers it, after a restart too."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord.utils import escape_markdown

from bot.cogs.maps.finding import map_stamp, maps_store
from bot.components import PersistentButton
from bot.errors import UserError
from bot.host import Host
from bot.permissions import is_gm, require_guild

GM_HINT = "GMs have Manage Server or the GM role (`/gm role`)."

__all__ = ["DeleteMapButton"]


class DeleteMapButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(r"map-delete:(?P<id>[0-9]{1,18}):(?P<stamp>[0-9a-f]{8}):(?P<by>\d+)"
              r":(?P<action>delete|keep)"),
):
    """Confirm (or call off) deleting a server map: any GM may press, the one who asked too
    while they are still a GM (checked at the press: a GM role may have been taken away)."""

    def __init__(self, map_id: int, stamp: str, by: int, action: str) -> None:
        label, style = (
            ("Delete map", discord.ButtonStyle.danger) if action == "delete"
            else ("Keep map", discord.ButtonStyle.secondary)
        )
        super().__init__(discord.ui.Button(
            label=label, style=style, custom_id=f"map-delete:{map_id}:{stamp}:{by}:{action}",
        ))
        self.map_id = map_id
        self.stamp = stamp
        self.by = by
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> DeleteMapButton:
        return cls(int(match["id"]), match["stamp"], int(match["by"]), match["action"])

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        bot: Host = interaction.client
        require_guild(interaction)
        if not await is_gm(interaction):
            if interaction.user.id == self.by:
                raise UserError("You asked to delete this map, but you are no longer a GM: a GM "
                                f"must answer. {GM_HINT}")
            raise UserError(f"Only a GM may answer this: <@{self.by}> asked, and any GM may. "
                            f"{GM_HINT}")
        maps = maps_store(bot)
        stored = await maps.get_by_id(self.map_id)
        gone = "That map is already deleted; nothing changed."
        mine = stored is not None and stored.guild_id == interaction.guild_id
        if stored is None or not mine or map_stamp(stored) != self.stamp:
            raise UserError(gone)
        name = escape_markdown(stored.name)
        who = interaction.user.mention
        if self.action == "keep":
            await interaction.response.edit_message(
                content=f"🗺️ {who} kept the map **{name}**; nothing was deleted.", view=None
            )
            return
        if not await maps.delete(stored.id, stored.created_at):
            raise UserError(gone)
        await interaction.response.edit_message(
            content=f"🗑️ {who} deleted the map **{name}**.", view=None
        )
