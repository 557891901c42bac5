"""After a fight, each PC's owner is offered Recovery with a button (004 "Recovery")."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.cogs.characters import require_change
from bot.components import PersistentButton, identity_stamp
from bot.errors import UserError
from bot.store.values import StoredCharacter
from bot.text import clip
from data import load_rules
from engine.catalog import Rules
from engine.character import Character, Status, recover, status

__all__ = ["RecoverButton", "has_to_recover"]


def has_to_recover(ch: Character, rules: Rules) -> bool:
    """Whether Recovery would change anything for ``ch``; never for the dead (004 "Death":
    they make a new character; recovery cannot bring them back)."""
    if status(ch, rules=rules) is Status.DEAD:
        return False
    marks = "".join(ch.wounds.values())
    return (ch.level < ch.max_level or "\\" in marks or "X" in marks or ch.surrendered
            or any(it.destroyed for it in ch.items))


class RecoverButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"recover:(?P<character>[0-9]{1,18}):(?P<version>\d+)(?::(?P<made>[0-9a-f]{8}))?",
):
    """Recover: level to max, \\ and X erased, items replaced. The id carries the character's
    id, creation time and version: the offer is for that very character (not another one that
    got its id after a delete), and it lapses once the character changes."""

    def __init__(self, character_id: int, version: int, made: str | None,
                 name: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=clip(f"Recover {name}", 80) if name else "Recover",
            style=discord.ButtonStyle.success,
            custom_id=f"recover:{character_id}:{version}" + (f":{made}" if made else ""),
        ))
        self.character_id, self.version, self.made = character_id, version, made

    @classmethod
    def for_character(cls, stored: StoredCharacter) -> RecoverButton:
        return cls(stored.id, stored.version, identity_stamp(stored.created_at), stored.name)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> RecoverButton:
        return cls(int(match["character"]), int(match["version"]), match["made"])

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        bot = interaction.client
        stored = await bot.store.characters.get_by_id(self.character_id)
        if (stored is None or stored.guild_id != interaction.guild_id
                or self.made != identity_stamp(stored.created_at)):
            raise UserError("That character no longer exists.")
        await require_change(interaction, stored, "recover")
        if stored.version != self.version:
            raise UserError(f"{discord.utils.escape_markdown(stored.name)} has changed since "
                            "the fight (or already recovered); use `/character recover` if "
                            "they still should.")
        recovered, report = recover(stored.character, rules=load_rules())
        if await bot.store.characters.replace(stored, recovered) is None:
            raise UserError(f"{discord.utils.escape_markdown(stored.name)} changed a moment "
                            "ago; nothing was done.")
        await interaction.response.edit_message(
            content=f"🩹 {discord.utils.escape_markdown(report.summary)} Time passes: the GM "
                    "moves the story on.", view=None)
