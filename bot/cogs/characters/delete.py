"""The delete confirmation: a button only the owner or a GM may press, checked at the press."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.cogs.characters.common import bold_name, characters_store, require_change
from bot.components import PersistentButton, identity_stamp
from bot.errors import UserError
from bot.store.values import StoredCharacter

# -- the delete confirmation ----------------------------------------------------------------


def character_stamp(stored: StoredCharacter) -> str:
    """Which character a button means: a new one that reuses a deleted id has another stamp."""
    return identity_stamp(stored.created_at)


class DeleteCharacterButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"character-delete:(?P<id>[0-9]{1,18}):(?P<stamp>[0-9a-f]{8}):(?P<action>delete|keep)",
):
    """Confirm (or call off) deleting a character; only who may change it may press."""

    def __init__(self, character_id: int, stamp: str, action: str) -> None:
        label, style = (
            ("Delete character", discord.ButtonStyle.danger) if action == "delete"
            else ("Keep character", discord.ButtonStyle.secondary)
        )
        super().__init__(discord.ui.Button(
            label=label, style=style,
            custom_id=f"character-delete:{character_id}:{stamp}:{action}",
        ))
        self.character_id = character_id
        self.stamp = stamp
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> DeleteCharacterButton:
        return cls(int(match["id"]), match["stamp"], match["action"])

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        characters = characters_store(interaction)
        stored = await characters.get_by_id(self.character_id)
        if (stored is None or stored.guild_id != interaction.guild_id
                or character_stamp(stored) != self.stamp):
            raise UserError("That character is already deleted; nothing changed.")
        await require_change(interaction, stored, "delete")
        who = interaction.user.mention
        if self.action == "keep":
            await interaction.response.edit_message(
                content=f"🧍 {who} kept {bold_name(stored.name)}; nothing was deleted.", view=None
            )
            return
        if not await characters.delete(stored.id, stored.created_at):
            raise UserError("That character is already deleted; nothing changed.")
        # A PC gone (dead, often): its player's next step is a new one.
        after = "" if stored.npc else " `/character create` makes a new PC."
        await interaction.response.edit_message(
            content=f"🗑️ {who} deleted {bold_name(stored.name)}.{after}", view=None
        )
