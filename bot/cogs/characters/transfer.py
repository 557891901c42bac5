"""A character as text: the sheet block, `/character export`, and the import form
(answered from its id, so a form left open across a restart still works)."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable
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
from bot.i18n import channel_language, person_language, render, translated
from bot.permissions import require_gm, require_guild
from bot.store.values import NameTaken, StoredCharacter, clean_name
from bot.text import FORM_TEXT_LIMIT, SOURCE, clip
from bot.user_error import UserError
from engine.character import (
    Character,
    character_from_json,
)
from engine.errors import RuleError
from engine.phrases import Said, phrase
from engine.sheet import render_sheet, render_story

# -- the sheet and the export ---------------------------------------------------------------


def _sayer(language: str) -> Callable[[Said], str]:
    return lambda said: render(said, language)


def sheet_block(c: Character, language: str) -> str:
    return f"```\n{render_sheet(c, rules=RULES, say=_sayer(language))}\n```"


def sheet_messages(c: Character, language: str) -> list[str]:
    """The whole sheet in ``language``, nothing cut: who the character is (when the sheet
    says) above the rules sheet, in one message when both fit, else in two."""
    sheet = sheet_block(c, language)
    story = render_story(c, say=_sayer(language))
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


def who_and_level(stored: StoredCharacter, language: str) -> str:
    """"NPC" or whose PC it is, and its level: "PC of @Ana, level 50/50"."""
    c = stored.character
    if c.npc:
        return render(phrase("NPC, level {level}/{max_level}", level=c.level,
                             max_level=c.max_level), language)
    return render(phrase("PC of {owner}, level {level}/{max_level}", owner=f"<@{stored.owner_id}>",
                         level=c.level, max_level=c.max_level), language)


def made_line(stored: StoredCharacter, language: str) -> str:
    """The line that tells a character was made: "**Ana**: a PC at level 50/50"."""
    c = stored.character
    made = (phrase("{name}: an NPC at level {level}/{max_level}", name=bold_name(c.name),
                   level=c.level, max_level=c.max_level) if c.npc else
            phrase("{name}: a PC at level {level}/{max_level}", name=bold_name(c.name),
                   level=c.level, max_level=c.max_level))
    return render(made, language)


# -- the import modal -----------------------------------------------------------------------


async def _give_back(interaction: discord.Interaction[Any], problem: Said, text: str) -> None:
    """Refuse ephemerally with ``problem``; the paste comes back when it fits."""
    language = await person_language(interaction)
    # (said apart from the f-strings: pybabel reads no call inside one)
    nothing_saved = translated("Nothing was saved.", language)
    fix_it = translated("Your paste, to fix and try again:", language)
    lead = f"{render(problem, language)}\n{nothing_saved}"
    block = f"\n{fix_it}\n```{SOURCE}\n{text}\n```"
    if text and "```" not in text and len(lead) + len(block) <= MESSAGE_LIMIT:
        lead += block
    await interaction.response.send_message(clip(lead), ephemeral=True)


IMPORT_FORM_SPEC = CustomId("character-import", hex_token())
IMPORT_MODAL_ID = IMPORT_FORM_SPEC.template


class ImportModal(discord.ui.Modal):
    """The paragraph field a character's JSON is pasted into. Its submit is answered by
    the bot's forms (:mod:`bot.forms`) from the payload alone, so a form left open across a
    restart still works."""

    def __init__(self, language: str) -> None:
        super().__init__(title=clip(translated("Import a character", language),
                                    FORM_TEXT_LIMIT),
                         custom_id=IMPORT_FORM_SPEC.format(nonce=secrets.token_hex(8)))
        self.paste: discord.ui.TextInput[ImportModal] = discord.ui.TextInput(
            label=clip(render(PASTE_LABEL, language), FORM_TEXT_LIMIT),
            style=discord.TextStyle.paragraph, min_length=1, max_length=PASTE_LIMIT,
            # Translators: an example of a character's name (one usual in your language).
            placeholder='{"schema_version": 1, "name": "' + translated("Ana", language) + '", ...}',
        )
        self.add_item(self.paste)
        self.stop()  # not kept in memory: see the class docstring


async def submit_import(interaction: discord.Interaction[Any], pasted: str) -> None:
    text = _unfence(pasted)
    try:
        await _import(interaction, text)
    except (UserError, RuleError) as err:
        await _give_back(interaction, err.said, text)


async def _import(interaction: discord.Interaction[Any], text: str) -> None:
    guild_id = require_guild(interaction)
    c = character_from_json(text, rules=RULES)
    if c.npc:
        await require_gm(interaction, phrase("import an NPC"))
    c = c.model_copy(update={"name": clean_name(c.name)})
    try:
        stored = await characters_store(interaction).add(
            guild_id=guild_id, owner_id=interaction.user.id, character=c
        )
    except NameTaken:
        taken = await characters_store(interaction).get(guild_id, c.name)
        shown = bold_name(c.name if taken is None else taken.name)
        raise UserError(phrase(
            "This server already has a character called {name}. To import this one, change "
            "its \"name\" in the text, or rename or delete {name} first.", name=shown)) from None
    language = await channel_language(interaction)
    await interaction.response.send_message(render(phrase(
        "📥 {user} imported {made}.{hint} {sheet} shows the sheet.",
        user=interaction.user.mention, made=made_line(stored, language),
        hint=panel_hint(c, language), sheet=f"`/sheet character:{stored.name}`"), language))
