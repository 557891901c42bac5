"""The `/map` commands: list, show, new, edit, delete and export."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from bot.cogs.maps.delete import DeleteMapButton
from bot.cogs.maps.drawing import (
    areas_text,
    map_title,
    render_block,
    text_file,
    who_is_where,
)
from bot.cogs.maps.finding import (
    LOOKUP_LIMIT,
    NAME_LIMIT,
    FoundMap,
    builtin_map,
    find_map,
    map_choices,
    map_stamp,
    maps_store,
    new_map_name,
    taken_text,
)
from bot.cogs.maps.form import MAP_FORM_ID, TEXT_LIMIT, MapTextModal, submit_map_text
from bot.components import button_row
from bot.host import Host
from bot.i18n import N_, channel_language, person_language, render, translated
from bot.options import OneOf, Text
from bot.permissions import require_gm, require_guild
from bot.text import MESSAGE_LIMIT, SOURCE, clip
from bot.user_error import UserError
from data import builtin_maps
from engine.combat import Combat
from engine.combat.actions.aoe_effects import effect_text
from engine.maps import MapError, parse_map
from engine.names import name_key
from engine.phrases import phrase

# String options, with the limits Discord's client enforces and the bot checks again.
MapOption = app_commands.Transform[str, Text(LOOKUP_LIMIT)]
# Translators: the `view` option's choices as listed (the values stay `grid` and `list`).
_VIEWS = {"grid": N_("grid"), "list": N_("list")}
ViewOption = app_commands.Transform[
    Literal["grid", "list"],
    OneOf([app_commands.Choice(name=name, value=value) for value, name in _VIEWS.items()]),
]


class MapCog(commands.GroupCog, group_name="map", group_description=N_("Maps to fight on")):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="list", description=N_("The built-in maps and this server's "
                                                      "maps."))
    async def list_maps(self, interaction: discord.Interaction[Any]) -> None:
        language = await person_language(interaction)
        lines = [translated("🗺️ **Built-in maps** (to start from one, `/map export` it and "
                            "paste the text into `/map new` under a new name):", language)]
        lines += [f"• {name} · {areas_text(builtin_map(name), language)}"
                  for name in builtin_maps()]
        stored = [] if interaction.guild_id is None else await maps_store(self.bot).in_guild(
            interaction.guild_id
        )
        if not stored:
            lines.append(translated("This server has no maps of its own yet: a GM writes one with "
                           "`/map new`.", language))
        else:
            lines.append(translated("**This server's maps:**", language))
        for shown, s in enumerate(stored):
            try:
                size = areas_text(parse_map(s.text), language)
            except MapError:
                size = translated("cannot be read: a GM can fix it with `/map edit`", language)
            line = render(phrase("• {name} · {size} · by {author}", name=escape_markdown(s.name),
                                 size=size, author=f"<@{s.author_id}>"), language)
            left = len(stored) - shown - 1
            more = [_more_maps(left, language)] if left else []
            if len("\n".join([*lines, line, *more])) > MESSAGE_LIMIT:
                lines.append(_more_maps(left + 1, language))
                break
            lines.append(line)
        text = "\n".join(lines)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="show", description=N_("Show a map to the table, as text (in "
                                                      "a fight's channel: as the fight has "
                                                      "it)."))
    @app_commands.describe(
        name=N_("The map (built-in or this server's)"),
        view=N_("grid: boxes on a grid (when the map has positions); list: each area's lines"),
    )
    async def show(
        self, interaction: discord.Interaction[Any], name: MapOption,
        view: ViewOption | None = None,
    ) -> None:
        found = await find_map(self.bot, interaction.guild_id, name)
        fight = await self._fight_on(interaction, found)
        language = await channel_language(interaction)  # shown to the table
        if fight is None:
            m = found.game_map(await person_language(interaction))
            await interaction.response.send_message(
                render_block(map_title(found, m, language), m, view, language))
            return
        # The fight's own map: its doors as they stand, AoE Cover and Demolish applied.
        m = fight.game_map()
        head = render(phrase("{title} · as this channel's fight has it (round {round})",
                             title=map_title(found, m, language), round=fight.round), language)
        lines = [render(effect_text(e), language) for e in fight.effects]
        tail = "\n".join([*who_is_where(fight, m, language),
                          *([translated("**Effects in play:**", language),
                             *(f"• {line}" for line in lines)]
                            if lines else [translated("No AoE effects in play.", language)])])
        block = render_block(head, m, view, language)
        if len(block) + 1 + len(tail) <= MESSAGE_LIMIT:
            await interaction.response.send_message(f"{block}\n{tail}")
            return
        # A big map leaves no room: who is where and the effects follow in a message of their own.
        await interaction.response.send_message(block)
        await interaction.followup.send(clip(tail))

    async def _fight_on(
        self, interaction: discord.Interaction[Any], found: FoundMap
    ) -> Combat | None:
        """The fight in this channel when it is played on ``found`` (None: no such fight)."""
        if interaction.channel_id is None or interaction.guild_id is None:
            return None
        stored = await self.bot.store.combats.active(interaction.channel_id)
        if stored is None or stored.guild_id != interaction.guild_id:
            return None
        if stored.map_identity is not None:
            return stored.state if stored.map_identity == found.identity else None
        # A built-in map (their names are theirs alone), or a fight kept before maps' ids were.
        if name_key(stored.map_name) != name_key(found.name):
            return None
        return stored.state

    @app_commands.command(name="new", description=N_("Write a new map for this server (GMs)."))
    @app_commands.describe(name=N_("The new map's name (1-32 characters)"))
    async def new(
        self, interaction: discord.Interaction[Any],
        name: app_commands.Transform[str, Text(NAME_LIMIT)],
    ) -> None:
        guild_id = require_guild(interaction)
        await require_gm(interaction, phrase("write a map"))
        name = new_map_name(name)
        taken = await maps_store(self.bot).get(guild_id, name)
        if taken is not None:
            raise UserError(taken_text(taken.name))
        await interaction.response.send_modal(MapTextModal(
            name=name, stored=None, language=await person_language(interaction)))

    @app_commands.command(name="edit", description=N_("Change one of this server's maps "
                                                      "(GMs)."))
    @app_commands.describe(name=N_("The map to change (built-in maps cannot be changed)"))
    async def edit(self, interaction: discord.Interaction[Any], name: MapOption) -> None:
        guild_id = require_guild(interaction)
        await require_gm(interaction, phrase("edit a map"))
        found = await find_map(self.bot, guild_id, name)
        if found.stored is None:
            raise UserError(phrase(
                "Built-in maps cannot be edited. To change **{name}**, copy it: "
                "`/map export name:{name}`, then `/map new` with a name of your own and paste "
                "the text.", name=found.name))
        if len(found.text) > TEXT_LIMIT:
            raise UserError(phrase("**{name}** is longer than a Discord form holds ({limit} "
                                   "characters); it cannot be edited here.",
                                   name=escape_markdown(found.name), limit=f"{TEXT_LIMIT:,}"))
        await interaction.response.send_modal(MapTextModal(
            name=found.name, stored=found.stored, language=await person_language(interaction)))

    @app_commands.command(name="delete", description=N_("Delete one of this server's maps "
                                                        "(GMs)."))
    @app_commands.describe(name=N_("The map to delete (built-in maps cannot be deleted)"))
    async def delete(self, interaction: discord.Interaction[Any], name: MapOption) -> None:
        guild_id = require_guild(interaction)
        await require_gm(interaction, phrase("delete a map"))
        found = await find_map(self.bot, guild_id, name)
        if found.stored is None:
            raise UserError(phrase("Built-in maps cannot be deleted (**{name}** is one).",
                                   name=found.name))
        stored = found.stored
        language = await channel_language(interaction)  # asked before the table
        view = button_row(
            DeleteMapButton(stored.id, map_stamp(stored), interaction.user.id, "delete",
                            language),
            DeleteMapButton(stored.id, map_stamp(stored), interaction.user.id, "keep",
                            language),
        )
        await interaction.response.send_message(render(phrase(
            "🗑️ {who} asks to delete the map **{name}**. It cannot be undone: a GM confirms "
            "with **Delete map**.", who=interaction.user.mention,
            name=escape_markdown(stored.name)), language), view=view)

    @app_commands.command(name="export", description=N_("A map's text, to copy or change."))
    @app_commands.describe(name=N_("The map (built-in or this server's)"))
    async def export(self, interaction: discord.Interaction[Any], name: MapOption) -> None:
        found = await find_map(self.bot, interaction.guild_id, name)
        language = await person_language(interaction)
        text = found.text.strip("\n")
        map_name = escape_markdown(found.name)
        head = render(phrase(
            "🗺️ **{name}** as text. To make a map of your own from it, paste it into "
            "`/map new` under a new name.", name=map_name) if found.builtin else phrase(
            "🗺️ **{name}** as text. Paste it into `/map new` to make a copy, or change the "
            "map with `/map edit`.", name=map_name), language)
        block = f"```{SOURCE}\n{text}\n```"
        if "```" not in text and len(head) + 1 + len(block) <= MESSAGE_LIMIT:
            await interaction.response.send_message(f"{head}\n{block}", ephemeral=True)
        else:
            why = (translated("It is too long for one message, so it is attached as a file.",
                              language)
                   if "```" not in text else
                   translated("It holds three backticks in a row, which would break a code "
                              "block, so it is attached as a file.", language))
            await interaction.response.send_message(
                f"{head}\n{why}",
                file=text_file(found.name, text + "\n"), ephemeral=True,
            )

    @show.autocomplete("name")
    @export.autocomplete("name")
    async def _any_map(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await map_choices(self.bot, interaction.guild_id, current,
                                 language=await person_language(interaction))

    @edit.autocomplete("name")
    @delete.autocomplete("name")
    async def _server_map(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await map_choices(self.bot, interaction.guild_id, current, builtins=False)


def _more_maps(left: int, language: str) -> str:
    return render(phrase("… and {count} more: type a name in `/map show`.", count=left),
                  language)


async def setup(bot: Host) -> None:
    bot.add_dynamic_items(DeleteMapButton)
    # A map form's submit, answered from its custom id (see :class:`MapTextModal`).
    bot.answers_form(MAP_FORM_ID, submit_map_text)
    await bot.add_cog(MapCog(bot))
