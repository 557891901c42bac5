"""A character as text: the sheet block, `/character export`, and the import form
(answered from its id, so a form left open across a restart still works)."""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

import discord

from bot.cogs.characters.common import (
    MESSAGE_LIMIT,
    PASTE_LABEL,
    PASTE_LIMIT,
    RULES,
    bold_name,
    characters_store,
    panel_hint,
)
from bot.custom_ids import CustomId, hex_token
from bot.permissions import require_gm, require_guild
from bot.store.values import NameTaken, StoredCharacter, clean_name
from bot.text import SOURCE, clip
from bot.user_error import UserError
from engine.character import (
    Character,
    character_from_json,
)
from engine.errors import RuleError
from engine.sheet import render_sheet, render_story

# -- the sheet and the export ---------------------------------------------------------------


def sheet_block(c: Character) -> str:
    return f"```\n{render_sheet(c, rules=RULES)}\n```"


def sheet_messages(c: Character) -> list[str]:
    """The whole sheet, nothing cut: who the character is (when the sheet says) above the
    rules sheet, in one message when both fit, else in two."""
    sheet = sheet_block(c)
    story = render_story(c)
    if not story:
        return [sheet]
    told = f"```\n{story}\n```"
    both = f"{told}\n{sheet}"
    return [both] if len(both) <= MESSAGE_LIMIT else [told, sheet]


def export_text(c: Character) -> str:
    """The character as JSON for `/character import`: fields left at their defaults are left
    out (so it fits one message), the schema version always stays."""
    data = {"schema_version": c.schema_version,
            **c.model_dump(mode="json", exclude_defaults=True)}
    for name, field in Character.model_fields.items():  # exclude_defaults skips factories
        factory = field.default_factory
        if factory is not None and getattr(c, name) == factory():  # type: ignore[call-arg]
            data.pop(name, None)
    pretty = json.dumps(data, ensure_ascii=False, indent=1)
    if len(pretty) <= MESSAGE_LIMIT - 200:
        return pretty
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _unfence(text: str) -> str:
    """A paste without the code fence it may have been copied with."""
    text = text.strip()
    fenced = re.fullmatch(r"```[a-zA-Z]*\s*\n?(.*?)\n?```", text, re.S)
    return (fenced.group(1) if fenced else text).strip()


def who_and_level(stored: StoredCharacter) -> str:
    """"NPC" or whose PC it is, and its level: "PC of @Ana, level 50/50"."""
    c = stored.character
    who = "NPC" if c.npc else f"PC of <@{stored.owner_id}>"
    return f"{who}, level {c.level}/{c.max_level}"


def made_line(stored: StoredCharacter) -> str:
    """The line that tells a character was made: "**Ana**: a PC at level 50/50"."""
    c = stored.character
    return f"{bold_name(c.name)}: {'an NPC' if c.npc else 'a PC'} at level {c.level}/{c.max_level}"


# -- the import modal -----------------------------------------------------------------------


async def _give_back(interaction: discord.Interaction[Any], problem: str, text: str) -> None:
    """Refuse ephemerally with ``problem``; the paste comes back when it fits."""
    lead = f"{problem}\nNothing was saved."
    block = f"\nYour paste, to fix and try again:\n```{SOURCE}\n{text}\n```"
    if text and "```" not in text and len(lead) + len(block) <= MESSAGE_LIMIT:
        lead += block
    await interaction.response.send_message(clip(lead), ephemeral=True)


IMPORT_FORM_SPEC = CustomId("character-import", hex_token())
IMPORT_MODAL_ID = IMPORT_FORM_SPEC.template


class ImportModal(discord.ui.Modal, title="Import a character"):
    """The paragraph field a character's JSON is pasted into. Its submit is answered by
    the bot's forms (:mod:`bot.forms`) from the payload alone, so a form left open across a
    restart still works."""

    def __init__(self) -> None:
        super().__init__(custom_id=IMPORT_FORM_SPEC.format(nonce=secrets.token_hex(8)))
        self.paste: discord.ui.TextInput[ImportModal] = discord.ui.TextInput(
            label=PASTE_LABEL, style=discord.TextStyle.paragraph, min_length=1,
            max_length=PASTE_LIMIT, placeholder='{"schema_version": 1, "name": "Ana", ...}',
        )
        self.add_item(self.paste)
        self.stop()  # not kept in memory: see the class docstring


async def submit_import(interaction: discord.Interaction[Any], pasted: str) -> None:
    text = _unfence(pasted)
    try:
        await _import(interaction, text)
    except (UserError, RuleError) as err:
        await _give_back(interaction, str(err), text)


async def _import(interaction: discord.Interaction[Any], text: str) -> None:
    guild_id = require_guild(interaction)
    c = character_from_json(text, rules=RULES)
    if c.npc:
        await require_gm(interaction, "import an NPC")
    c = c.model_copy(update={"name": clean_name(c.name)})
    try:
        stored = await characters_store(interaction).add(
            guild_id=guild_id, owner_id=interaction.user.id, character=c
        )
    except NameTaken:
        taken = await characters_store(interaction).get(guild_id, c.name)
        shown = bold_name(c.name if taken is None else taken.name)
        raise UserError(
            f"This server already has a character called {shown}. To import this one, "
            f"change its \"name\" in the text, or rename or delete {shown} first."
        ) from None
    await interaction.response.send_message(
        f"📥 {interaction.user.mention} imported {made_line(stored)}.{panel_hint(c)} "
        f"`/sheet character:{stored.name}` shows the sheet."
    )
