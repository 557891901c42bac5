"""The delete confirmation: a button only the owner or a GM may press, checked at the press."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.cogs.characters.common import bold_name, characters_store, require_change
from bot.components import button_row, identity_stamp
from bot.confirm import ConfirmDelete, confirm_delete_id
from bot.i18n import N_, SOURCE
from bot.store.values import StoredCharacter
from engine.phrases import Phrase, phrase

# -- the delete confirmation ----------------------------------------------------------------


def character_stamp(stored: StoredCharacter) -> str:
    """Which character a button means: a new one that reuses a deleted id has another stamp."""
    return identity_stamp(stored.created_at)


def delete_buttons(stored: StoredCharacter, language: str) -> discord.ui.View:
    """**Delete character** and **Keep character**, labelled in ``language``."""
    delete = DeleteCharacterButton(stored.id, character_stamp(stored), "delete", language)
    keep = DeleteCharacterButton(stored.id, character_stamp(stored), "keep", language)
    return button_row(delete, keep)


class DeleteCharacterButton(
    ConfirmDelete[StoredCharacter],
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=confirm_delete_id("character-delete"),
):
    """Confirm (or call off) deleting a character; only who may change it may press."""

    labels = (N_("Delete character"), N_("Keep character"))
    gone = N_("That character is already deleted; nothing changed.")

    def __init__(self, character_id: int, stamp: str, action: str,
                 language: str = SOURCE) -> None:
        super().__init__(self.button(action, language, id=character_id, stamp=stamp))
        self.record_id, self.stamp, self.action = character_id, stamp, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> DeleteCharacterButton:
        return cls(int(match["id"]), match["stamp"], match["action"])

    async def find(self, interaction: discord.Interaction[Any]) -> StoredCharacter | None:
        return await characters_store(interaction).get_by_id(self.record_id)

    async def may_delete(self, interaction: discord.Interaction[Any],
                         stored: StoredCharacter) -> None:
        await require_change(interaction, stored, "delete")

    async def delete(self, interaction: discord.Interaction[Any],
                     stored: StoredCharacter) -> bool:
        return await characters_store(interaction).delete(stored.id, stored.created_at)

    def kept(self, who: str, stored: StoredCharacter) -> Phrase:
        return phrase("🧍 {who} kept {name}; nothing was deleted.", who=who,
                      name=bold_name(stored.name))

    def deleted(self, who: str, stored: StoredCharacter) -> Phrase:
        if stored.npc:
            return phrase("🗑️ {who} deleted {name}.", who=who, name=bold_name(stored.name))
        # A PC gone (dead, often): its player's next step is a new one.
        return phrase("🗑️ {who} deleted {name}. `/character create` makes a new PC.", who=who,
                      name=bold_name(stored.name))
