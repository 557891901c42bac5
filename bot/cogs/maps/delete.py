"""The confirmation `/map delete` asks for: any GM answers it, after a restart too."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord.utils import escape_markdown

from bot.cogs.maps.finding import maps_store
from bot.confirm import ConfirmDelete, confirm_delete_id
from bot.custom_ids import digits
from bot.i18n import N_, SOURCE
from bot.permissions import is_gm, require_guild
from bot.store.values import StoredMap
from bot.user_error import UserError
from engine.phrases import Phrase, phrase

__all__ = ["DeleteMapButton"]


class DeleteMapButton(
    ConfirmDelete[StoredMap],
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=confirm_delete_id("map-delete", digits("by")),
):
    """Confirm (or call off) deleting a server map: any GM may press, the one who asked too
    while they are still a GM (checked at the press: a GM role may have been taken away)."""

    labels = (N_("Delete map"), N_("Keep map"))
    gone = N_("That map is already deleted; nothing changed.")

    def __init__(self, map_id: int, stamp: str, by: int, action: str,
                 language: str = SOURCE) -> None:
        super().__init__(self.button(action, language, id=map_id, stamp=stamp, by=by))
        self.record_id, self.stamp, self.by, self.action = map_id, stamp, by, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> DeleteMapButton:
        return cls(int(match["id"]), match["stamp"], int(match["by"]), match["action"])

    async def may_answer(self, interaction: discord.Interaction[Any]) -> None:
        require_guild(interaction)
        if not await is_gm(interaction):
            if interaction.user.id == self.by:
                raise UserError(phrase("You asked to delete this map, but you are no longer a "
                                       "GM: a GM must answer. GMs have Manage Server or the GM "
                                       "role (`/gm role`)."))
            raise UserError(phrase("Only a GM may answer this: {asker} asked, and any GM may. "
                                   "GMs have Manage Server or the GM role (`/gm role`).",
                                   asker=f"<@{self.by}>"))

    async def find(self, interaction: discord.Interaction[Any]) -> StoredMap | None:
        return await maps_store(interaction.client).get_by_id(self.record_id)

    async def delete(self, interaction: discord.Interaction[Any], stored: StoredMap) -> bool:
        return await maps_store(interaction.client).delete(stored.id, stored.created_at)

    def kept(self, who: str, stored: StoredMap) -> Phrase:
        return phrase("🗺️ {who} kept the map **{name}**; nothing was deleted.", who=who,
                      name=escape_markdown(stored.name))

    def deleted(self, who: str, stored: StoredMap) -> Phrase:
        return phrase("🗑️ {who} deleted the map **{name}**.", who=who,
                      name=escape_markdown(stored.name))
