"""Making a character as the book tells it: a name, a concept and a description (a form, or
the name alone as a slash option), then what is still to choose, with the commands that
choose it. The form is answered from its payload alone, so one left open across a restart
still works."""

from __future__ import annotations

import re
import secrets
from typing import Any

import discord

from bot.cogs.characters.common import NAME_LIMIT, characters_store, name_taken_text
from bot.cogs.characters.panel import send_panel
from bot.cogs.characters.transfer import made_line
from bot.components import submitted_fields
from bot.custom_ids import CustomId, choice, digits, hex_token
from bot.i18n import channel_language, render, translated
from bot.permissions import require_gm, require_guild
from bot.store.values import NameTaken, clean_name
from bot.text import FORM_TEXT_LIMIT, clip
from bot.user_error import UserError
from engine.character import Character, describe, still_to_choose
from engine.character.model import CONCEPT_LIMIT, DESCRIPTION_LIMIT
from engine.phrases import Phrase, phrase

#: The form's id carries what the slash command said: NPC or not, and the level.
CREATE_FORM_SPEC = CustomId("character-create", choice("npc", "0", "1"), digits("level", 2),
                            hex_token())
CREATE_MODAL_ID = CREATE_FORM_SPEC.template

class CreateModal(discord.ui.Modal):
    def __init__(self, *, level: int, npc: bool, language: str) -> None:
        super().__init__(
            title=clip(translated("A new character", language), FORM_TEXT_LIMIT),
            custom_id=CREATE_FORM_SPEC.format(npc=int(npc), level=level,
                                              nonce=secrets.token_hex(4)))
        # Translators: an example of a character's name (one usual in your language).
        example_name = translated("Ana", language)
        for field_id, label, style, limit, required, hint in (
            ("name", translated("Name", language), discord.TextStyle.short, NAME_LIMIT, True,
             example_name),
            ("concept", translated("Concept", language), discord.TextStyle.short, CONCEPT_LIMIT,
             False, translated("Ex-cop turned bouncer", language)),
            ("description", translated("Description", language), discord.TextStyle.paragraph,
             DESCRIPTION_LIMIT, False, translated("How they look and come across", language)),
        ):
            self.add_item(discord.ui.TextInput(
                label=clip(label, FORM_TEXT_LIMIT), custom_id=field_id, style=style,
                max_length=limit, required=required, placeholder=hint))
        self.stop()  # not kept in memory: answered from the payload


#: Where each missing part is chosen by typing (`/character panel` chooses them all), by a
#: word of the part's English.
_CHOOSE_WITH = {"ability": "`/character ability add`", "slot": "`/character item add`",
                "hand": "`/character item hold`"}


def _choose_with(part: Phrase) -> str:
    said = part.english()
    return next((cmd for key, cmd in _CHOOSE_WITH.items() if key in said), "")


def next_steps(c: Character, language: str) -> str:
    """ "Still to choose: …", each part with the command that chooses it ("" when none)."""
    parts = [f"{render(part, language)} ({_choose_with(part)})" if _choose_with(part)
             else render(part, language) for part in still_to_choose(c)]
    if not parts:
        return ""
    return " " + render(phrase("Still to choose: {parts}, or all at once with "
                               "`/character panel`.", parts="; ".join(parts)), language)


async def create_character(interaction: discord.Interaction[Any], c: Character, *,
                           panel: bool = False) -> None:
    """Save ``c`` as the user's new character (committed) and tell the table; with
    ``panel``, then give its author the panel that walks through what is left."""
    guild_id = require_guild(interaction)
    store = characters_store(interaction)
    try:
        stored = await store.add(guild_id=guild_id, owner_id=interaction.user.id, character=c)
    except NameTaken:
        taken = await store.get(guild_id, c.name)
        raise UserError(name_taken_text(c.name if taken is None else taken.name)) from None
    language = await channel_language(interaction)
    await interaction.response.send_message(render(phrase(
        "🧍 {user} created {made}.{steps} {sheet} shows the sheet.",
        user=interaction.user.mention, made=made_line(stored, language),
        steps=next_steps(c, language), sheet=f"`/sheet character:{stored.name}`"), language))
    if panel:
        await send_panel(interaction, stored)


async def submit_create(interaction: discord.Interaction[Any], match: re.Match[str]) -> None:
    npc = match["npc"] == "1"
    if npc:
        await require_gm(interaction, phrase("create an NPC"))
    fields = submitted_fields(dict(interaction.data or {}).get("components"))
    c = Character.new(clean_name(fields.get("name", "")), npc=npc, level=int(match["level"]))
    concept, description = fields.get("concept", ""), fields.get("description", "")
    if concept.strip() or description.strip():
        c, _ = describe(c, concept=concept, description=description)
    await create_character(interaction, c, panel=True)
