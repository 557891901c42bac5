"""The form a GM types a map into (`/map new`, `/map edit`), answered from its custom id so
that a form left open across a restart still saves; a mistake hands the text back."""

from __future__ import annotations

import re
import zlib
from typing import Any

import discord
from discord.utils import escape_markdown

from bot.cogs.maps.drawing import areas_text, read_map, render_block, text_file
from bot.cogs.maps.finding import map_stamp, maps_store, new_map_name, taken_text
from bot.custom_ids import CustomId, IdField, any_text, digits, eight_hex, either
from bot.host import Host
from bot.i18n import N_, person_language, render, translated
from bot.permissions import require_gm, require_guild
from bot.store.values import StoredMap
from bot.text import FORM_TEXT_LIMIT, MESSAGE_LIMIT, SOURCE, clip
from bot.user_error import UserError
from engine.errors import RuleError
from engine.maps import GameMap
from engine.phrases import phrase

TEXT_LIMIT = 4000  # Discord's longest modal text field
TEXT_LABEL = N_("Map text (up to 4,000 characters)")
TEXT_PLACEHOLDER = N_("One line each, e.g. Bar --| Kitchen; Bar @ 0,0 positions draw a grid. "
                      "See /map export name:nightclub")

__all__ = [
    "EDIT_MAP_FORM_SPEC", "MAP_FORM_ID", "NEW_MAP_FORM_SPEC", "OLD_MAP_FORM_SPEC", "TEXT_LABEL",
    "TEXT_LIMIT", "MapTextModal", "submit_map_text",
]


async def _give_back(interaction: discord.Interaction[Any], problem: str, text: str,
                     language: str) -> None:
    """Refuse ephemerally with ``problem``, handing the GM's text back so nothing is lost."""
    problem = clip(problem, 1000)  # the engine's message may quote a long line of the map
    lead = render(phrase("{problem}\nNothing was saved. Your text, to fix and paste again:",
                         problem=problem), language)
    block = f"```{SOURCE}\n{text}\n```"
    if "```" not in text and len(lead) + 1 + len(block) <= MESSAGE_LIMIT:
        await interaction.response.send_message(f"{lead}\n{block}", ephemeral=True)
    else:
        await interaction.response.send_message(
            render(phrase("{problem}\nNothing was saved. Your text is attached, to fix and "
                          "paste again.", problem=problem), language),
            file=text_file("draft", text), ephemeral=True,
        )


#: A map form's custom id holds what its submit needs, so a form left open across a restart
#: still saves: a new map's name, or the edited map's id, which map that id was
#: (:func:`map_stamp`), which version of it the form started from (:func:`_version`) and its name.
#: At most 14 + 19 + 18 + 33 = 84 characters, as names are at most 32: none is ever cut.
#: ``old`` is the random id forms had before: they can no longer be saved.
NEW_MAP_FORM_SPEC = CustomId("map-text:new", any_text("name"))
EDIT_MAP_FORM_SPEC = CustomId("map-text:edit", digits("id"), eight_hex(), eight_hex("version"),
                              any_text("edited"))
OLD_MAP_FORM_SPEC = CustomId("map-text", IdField("old", "[0-9a-f]{16}", ("0123456789abcdef",)))
MAP_FORM_ID = either(NEW_MAP_FORM_SPEC, EDIT_MAP_FORM_SPEC, OLD_MAP_FORM_SPEC)


def _version(stored: StoredMap) -> str:
    """Which version of a map an edit started from: any save since changes it."""
    seen = f"{stored.updated_at}|{stored.text}"
    return f"{zlib.crc32(seen.encode()):08x}"


class MapTextModal(discord.ui.Modal):
    """The paragraph field a GM types a map into: a new map (``stored`` None) or an edit.

    Not kept in memory: the bot's forms (:mod:`bot.forms`) answer its submit from its custom id
    (:data:`MAP_FORM_ID`) and the text alone, so a form left open across a restart works."""

    def __init__(self, *, name: str, stored: StoredMap | None, language: str) -> None:
        if stored is None:
            title = render(phrase("New map: {name}", name=name), language)
            custom_id = NEW_MAP_FORM_SPEC.format(name=name)
        else:
            title = render(phrase("Edit map: {name}", name=name), language)
            custom_id = EDIT_MAP_FORM_SPEC.format(id=stored.id, stamp=map_stamp(stored),
                                                  version=_version(stored), edited=stored.name)
        super().__init__(title=clip(title, FORM_TEXT_LIMIT), custom_id=custom_id)
        self.text: discord.ui.TextInput[MapTextModal] = discord.ui.TextInput(
            label=clip(translated(TEXT_LABEL, language), FORM_TEXT_LIMIT),
            style=discord.TextStyle.paragraph, min_length=1, max_length=TEXT_LIMIT,
            placeholder=clip(translated(TEXT_PLACEHOLDER, language), 100),  # Discord's limits
            default=None if stored is None else stored.text,
        )
        self.add_item(self.text)
        self.stop()  # not kept in memory: see the class docstring


async def submit_map_text(
    interaction: discord.Interaction[Any], form: re.Match[str], typed: str
) -> None:
    """Save what a GM typed in a map form, or refuse and hand the text back."""
    text = typed.rstrip()
    language = await person_language(interaction)
    try:
        await _save_map_text(interaction, form, text, language)
    except (UserError, RuleError) as err:
        await _give_back(interaction, render(err.said, language), text, language)


async def _save_map_text(
    interaction: discord.Interaction[Any], form: re.Match[str], text: str, language: str
) -> None:
    bot: Host = interaction.client
    guild_id = require_guild(interaction)
    maps = maps_store(bot)
    if form["old"] is not None:
        raise UserError(phrase("This form was opened before the bot restarted and cannot be "
                               "saved: open `/map new` or `/map edit` again and paste your "
                               "text."))
    if len(text) > TEXT_LIMIT:  # the form says so, but Discord does not check it for us
        raise UserError(phrase("A map's text is at most {limit} characters; yours has "
                               "{length}.", limit=f"{TEXT_LIMIT:,}", length=f"{len(text):,}"))
    if form["name"] is not None:
        await require_gm(interaction, phrase("write a map"))
        name = new_map_name(form["name"])
        m = read_map(text, language)
        saved = await maps.add(
            guild_id=guild_id, name=name, text=text, author_id=interaction.user.id
        )
        if saved is None:
            taken = await maps.get(guild_id, name)
            raise UserError(taken_text(name if taken is None else taken.name))
        new = True
    else:
        await require_gm(interaction, phrase("edit a map"))
        name = escape_markdown(form["edited"])
        m = read_map(text, language)
        current = await maps.get_by_id(int(form["id"]))
        if current is None or current.guild_id != guild_id or map_stamp(current) != form["stamp"]:
            raise UserError(phrase("The map **{name}** was deleted while you edited it.",
                                   name=name))
        saved = None
        if _version(current) == form["version"]:
            saved = await maps.replace_text(current, text)
        if saved is None:
            raise UserError(phrase("Somebody saved **{name}** while you edited it; `/map edit` "
                                   "again to start from their version.", name=name))
        new = False
    said = {"name": escape_markdown(saved.name), "areas": areas_text(m, language),
            "start": _start_on(saved.name), "no_grid": _no_grid(m, language)}
    head = render(phrase("Saved the new map **{name}** · {areas}. Show it to the table with "
                         "`/map show`, or fight on it: {start}.{no_grid}", **said) if new else
                  phrase("Saved your changes to **{name}** · {areas}. Show it to the table "
                         "with `/map show`, or fight on it: {start}.{no_grid}", **said),
                  language)
    await interaction.response.send_message(render_block(head, m, language=language),
                                            ephemeral=True)


def _no_grid(m: GameMap, language: str) -> str:
    """For a map with an area placed nowhere, that positions would draw it as a grid (on
    the fight's board too); "" when every area has one."""
    unplaced = [area for area, at in zip(m.areas, m.positions, strict=True) if at is None]
    if not unplaced:
        return ""
    example = "Bar" if "`" in unplaced[0] else unplaced[0]  # a backtick would end the span
    return "\n" + render(phrase(
        "-# No grid: give each area a position, a line like `{example} @ 0,0` (column, row), "
        "and the map is drawn as a grid, on the fight's board too. Without one, the board "
        "says `/map show` for the map.", example=example), language)


def _start_on(name: str) -> str:
    """`/combat start map:<name>`, the command that starts a fight on a map (the name left
    for the user to pick when a backtick in it would break the code span)."""
    return f"`/combat start map:{'' if '`' in name else name}`"
