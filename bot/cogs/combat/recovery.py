"""After a fight, each PC's owner is offered Recovery with a button (004 "Recovery")."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import discord

from bot.cogs.characters.common import require_change
from bot.components import PersistentButton, identity_stamp
from bot.custom_ids import CustomId, digits, eight_hex, optional
from bot.host import Host
from bot.i18n import SOURCE, channel_language, render, translated
from bot.store.values import StoredCharacter
from bot.text import clip
from bot.user_error import UserError
from data import load_rules
from engine.catalog import Rules
from engine.character import Character, Status, left_to_recover, recover, status
from engine.phrases import phrase

__all__ = ["RecoverButton", "has_to_recover"]


def has_to_recover(ch: Character, rules: Rules) -> bool:
    """Whether Recovery would change anything for ``ch``; never for the dead (004 "Death":
    they make a new character; recovery cannot bring them back)."""
    if status(ch, rules=rules) is Status.DEAD:
        return False
    marks = "".join(ch.wounds.values())
    return (ch.level < ch.max_level or "\\" in marks or "X" in marks or ch.surrendered
            or any(it.destroyed for it in ch.items))


def hurt_stamp(ch: Character) -> str:
    """Eight hex digits for what Recovery would restore on ``ch`` (its level, marks,
    surrender, destroyed items), to carry in a button's custom id."""
    return hashlib.sha256(repr(left_to_recover(ch)).encode()).hexdigest()[:8]


class RecoverButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=CustomId("recover", digits("character", 18), digits("version"),
                     optional(eight_hex("made")), optional(eight_hex("hurt"))),
):
    """Recover: level to max, \\ and X erased, items replaced. The id carries the character's
    id, creation time and version, and what the fight left to recover: the offer is for that
    very character (not another one that got its id after a delete), and for those wounds.
    It lapses once they change (recovered already, or hurt again in a later fight), not when
    something else does (the session's end raising the max level, an item added)."""

    def __init__(self, character_id: int, version: int, made: str | None,
                 hurt: str | None = None, name: str = "", language: str = SOURCE) -> None:
        custom_id = self.id_spec.format(character=character_id, version=version,
                                        made=made or None, hurt=(hurt or None) if made else None)
        super().__init__(discord.ui.Button(
            label=clip(render(phrase("Recover {name}", name=name), language), 80) if name
            else translated("Recover", language),
            style=discord.ButtonStyle.success, custom_id=custom_id,
        ))
        self.character_id, self.version, self.made, self.hurt = (
            character_id, version, made, hurt)

    @classmethod
    def for_character(cls, stored: StoredCharacter, language: str = SOURCE) -> RecoverButton:
        """The offer for ``stored``, its label in ``language`` (the channel's)."""
        return cls(stored.id, stored.version, identity_stamp(stored.created_at),
                   hurt_stamp(stored.character), stored.name, language)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> RecoverButton:
        return cls(int(match["character"]), int(match["version"]), match["made"],
                   match["hurt"])

    def still_offered(self, stored: StoredCharacter) -> bool:
        """Whether the offer still holds: the sheet as the fight left it, or changed since
        only where Recovery does not look (a button posted before the id carried the wounds:
        the same version only)."""
        if stored.version == self.version:
            return True
        return self.hurt is not None and self.hurt == hurt_stamp(stored.character)

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        bot: Host = interaction.client
        stored = await bot.store.characters.get_by_id(self.character_id)
        if (stored is None or stored.guild_id != interaction.guild_id
                or self.made != identity_stamp(stored.created_at)):
            raise UserError(phrase("That character no longer exists."))
        await require_change(interaction, stored, "recover")
        if not self.still_offered(stored):
            raise UserError(phrase("{name} has changed since the fight: recovered already, "
                                   "or hurt again since. Use `/character recover` if they "
                                   "still should recover.",
                                   name=discord.utils.escape_markdown(stored.name)))
        recovered, report = recover(stored.character, rules=load_rules())
        if await bot.store.characters.replace(stored, recovered) is None:
            raise UserError(phrase("{name} changed a moment ago; nothing was done.",
                                   name=discord.utils.escape_markdown(stored.name)))
        language = await channel_language(interaction)  # the message the table reads
        summary = discord.utils.escape_markdown(render(report.summary, language))
        await interaction.response.edit_message(content=render(phrase(
            "🩹 {summary} Time passes: the GM moves the story on.", summary=summary), language),
            view=None)
