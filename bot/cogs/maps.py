"""`/map`: list, show, write, edit, delete and export the maps fights are played on.

Built-in maps ship in ``data/maps/``; each server's GMs write their own (the `maps` table).
A map is typed in a modal in the engine's text format (``engine.maps``); a mistake comes back
with its line number and the text as typed, so nothing the GM wrote is lost. Other cogs find
a map by name with :func:`find_map` and offer names with :func:`map_choices`.
"""

from __future__ import annotations

import io
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from bot.client import UnhexBot
from bot.components import PersistentButton, answer_form, button_row, identity_stamp
from bot.errors import UserError
from bot.options import OneOf, Text
from bot.permissions import is_gm, require_gm, require_guild
from bot.store.interfaces import Maps
from bot.store.values import StoredMap, clean_name
from bot.text import SOURCE, clip, echo
from data import builtin_maps
from engine.combat import Combat
from engine.combat.actions.aoe_effects import effect_text
from engine.combat.crowd import Row, group_copies
from engine.errors import RuleError
from engine.maprender import render_grid, render_list
from engine.maps import GameMap, MapError, parse_map
from engine.names import name_key

MESSAGE_LIMIT = 2000  # Discord's longest message
TEXT_LIMIT = 4000  # Discord's longest modal text field
NAME_LIMIT = 32
GRID_WIDTH = 40  # columns a phone shows in a code block
TEXT_LABEL = "Map text (up to 4,000 characters)"
TEXT_PLACEHOLDER = "One line each, e.g. Bar --| Kitchen — see /map export name:nightclub"
CHOICES_LIMIT = 25  # Discord's most autocomplete choices
GM_HINT = "GMs have Manage Server or the GM role (`/gm role`)."
LOOKUP_LIMIT = 100  # the longest map name typed to find a map (Discord's longest choice value)

# String options, with the limits Discord's client enforces and the bot checks again.
MapOption = app_commands.Transform[str, Text(LOOKUP_LIMIT)]
ViewOption = app_commands.Transform[
    Literal["grid", "list"],
    OneOf([app_commands.Choice(name=v, value=v) for v in ("grid", "list")]),
]

__all__ = ["FoundMap", "find_map", "map_choices", "render_block", "who_is_where"]


# -- finding maps --------------------------------------------------------------------------------


def _maps(bot: UnhexBot) -> Maps:
    return bot.store.maps


@cache  # built-in maps never change while the bot runs
def _builtin_keys() -> dict[str, str]:
    return {name_key(name): name for name in builtin_maps()}


@cache
def _builtin_map(name: str) -> GameMap:
    return parse_map(builtin_maps()[name])


@dataclass(frozen=True)
class FoundMap:
    """A map found by name: a built-in one (``stored`` is None) or one of the server's."""

    name: str
    text: str
    stored: StoredMap | None = None

    @property
    def builtin(self) -> bool:
        return self.stored is None

    @property
    def identity(self) -> tuple[int, str] | None:
        """Which server map this is, for good (a fight keeps it: a name may pass to another
        map, and an id to a map made after this one is deleted); None: a built-in map."""
        return None if self.stored is None else (self.stored.id, self.stored.created_at)

    def game_map(self) -> GameMap:
        """The map, read; a stored map the engine can no longer read is a UserError."""
        if self.stored is None:
            return _builtin_map(self.name)
        try:
            return parse_map(self.text)
        except MapError as err:
            raise UserError(
                f"The map **{escape_markdown(self.name)}** cannot be read "
                f"({escape_markdown(clip(str(err), 300))}). "
                "A GM can fix it with `/map edit`."
            ) from err


async def find_map(bot: UnhexBot, guild_id: int | None, name: str) -> FoundMap:
    """The built-in or server map called ``name`` (any case); a UserError if there is none."""
    builtin = _builtin_keys().get(name_key(name))
    if builtin is not None:
        return FoundMap(builtin, builtin_maps()[builtin])
    stored = None if guild_id is None else await _maps(bot).get(guild_id, name)
    if stored is None:
        raise UserError(
            f"There is no map called “{echo(name)}”. "
            "`/map list` shows the maps."
        )
    return FoundMap(stored.name, stored.text, stored)


async def map_choices(
    bot: UnhexBot, guild_id: int | None, typed: str, *, builtins: bool = True
) -> list[app_commands.Choice[str]]:
    """Map names for autocomplete: built-ins (if ``builtins``) then the server's maps, those
    starting with what was typed first, then those containing it; at most 25."""
    names: list[tuple[str, str]] = []
    if builtins:
        names += [(f"{name} (built-in)", name) for name in builtin_maps()]
    if guild_id is not None:
        names += [(name, name) for name in await _maps(bot).names(guild_id)]
    typed = name_key(typed)
    keys = [name_key(value) for _, value in names]
    starting = [n for n, key in zip(names, keys, strict=True) if key.startswith(typed)]
    containing = [
        n for n, key in zip(names, keys, strict=True) if typed in key and not key.startswith(typed)
    ]
    return [
        app_commands.Choice(name=label, value=value)
        for label, value in (starting + containing)[:CHOICES_LIMIT]
    ]


# -- rendering -------------------------------------------------------------------------------


def _areas(m: GameMap) -> str:
    n = len(m.areas)
    return f"{n} area" if n == 1 else f"{n} areas"


def _defuse(text: str) -> str:
    """``text`` safe inside a code block: no two backticks side by side (a zero-width space
    between them), so a note holding ``` cannot end the block early."""
    return re.sub(r"`(?=`)", "`\u200b", text)


def _fenced(head: str, draw: Callable[[int], str | None]) -> str | None:
    """``head`` and ``draw(limit)`` in a code block, all in one message; None if ``draw``
    returns None (the grid does not fit)."""
    room = MESSAGE_LIMIT - len(head) - len("\n```\n\n```")
    limit = room
    while limit > 0:
        body = draw(limit)
        if body is None:
            return None
        safe = _defuse(body)
        if len(safe) <= room:
            return f"{head}\n```\n{safe}\n```"
        limit -= len(safe) - room
    return None


def render_block(head: str, m: GameMap, view: str | None = None) -> str:
    """One message: ``head``, then the map in a code block (legend included). ``view`` is
    "grid", "list" or None (the grid when every area has a position and it fits 40 columns,
    else the list); a grid that cannot be drawn is explained, then the list is shown."""
    if view != "list":
        grid = _fenced(head, lambda limit: render_grid(m, width=GRID_WIDTH, limit=limit))
        if grid is not None:
            return grid
        if view == "grid":
            if any(p is None for p in m.positions):
                head += ("\n-# No grid: not every area has a position (`Area @ col,row`), "
                         "so here is the list.")
            else:
                head += (f"\n-# The grid is wider than {GRID_WIDTH} columns or too long for "
                         "one message, so here is the list.")
    listed = _fenced(head, lambda limit: render_list(m, limit=limit, width=GRID_WIDTH))
    assert listed is not None
    return listed


def who_is_where(fight: Combat, m: GameMap) -> list[str]:
    """"**Who is where:**" and a line per area that holds fighters, in the map's order
    ("• Dance Floor: Ana, Goon 1-12"): numbered NPC copies of one team in one area share an
    entry (:func:`~engine.combat.crowd.group_copies`), so that 40 fighters take a few lines.
    Empty when nobody has joined the fight yet."""
    rows = [Row(f.name, f.team, f.area, "", "", npc=f.character.npc) for f in fight.fighters]
    by_area: dict[str, list[str]] = {}
    for row in group_copies(rows):
        by_area.setdefault(row.area, []).append(escape_markdown(row.name))
    areas = [a for a in m.areas if a in by_area] + [a for a in by_area if a not in m.areas]
    return ["**Who is where:**", *(f"• {escape_markdown(area)}: {', '.join(by_area[area])}"
                                   for area in areas)] if areas else []


def _title(found: FoundMap, m: GameMap) -> str:
    kind = " (built-in)" if found.builtin else ""
    return f"🗺️ **{escape_markdown(found.name)}**{kind} · {_areas(m)}"


def _text_file(name: str, text: str) -> discord.File:
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") or "map"
    return discord.File(io.BytesIO(text.encode("utf-8")), filename=f"{slug}.map")


def _quote(line: str) -> str:
    line = clip(line.strip(), 100)
    return f"`{line}`" if "`" not in line else escape_markdown(line)


def _read(text: str) -> GameMap:
    """Parse a GM's text; a mistake becomes a UserError with its line number and the line."""
    try:
        return parse_map(text)
    except MapError as err:
        if err.line <= 0:
            raise UserError(f"That map cannot be read: {err.message.rstrip('.')}.") from err
        lines = text.splitlines()
        shown = lines[err.line - 1] if err.line <= len(lines) else ""
        quote = f"\n> {_quote(shown)}" if shown.strip() else ""
        raise UserError(
            f"Line {err.line} has a mistake: {err.message.rstrip('.')}.{quote}"
        ) from err


# -- the text modal --------------------------------------------------------------------------


async def _give_back(interaction: discord.Interaction[Any], problem: str, text: str) -> None:
    """Refuse ephemerally with ``problem``, handing the GM's text back so nothing is lost."""
    problem = clip(problem, 1000)  # the engine's message may quote a long line of the map
    lead = f"{problem}\nNothing was saved. Your text, to fix and paste again:"
    block = f"```{SOURCE}\n{text}\n```"
    if "```" not in text and len(lead) + 1 + len(block) <= MESSAGE_LIMIT:
        await interaction.response.send_message(f"{lead}\n{block}", ephemeral=True)
    else:
        await interaction.response.send_message(
            f"{problem}\nNothing was saved. Your text is attached, to fix and paste again.",
            file=_text_file("draft", text), ephemeral=True,
        )


#: A map form's custom id holds what its submit needs, so a form left open across a restart
#: still saves: a new map's name, or the edited map's id, which map that id was
#: (:func:`_stamp`), which version of it the form started from (:func:`_version`) and its name.
#: At most 14 + 19 + 18 + 33 = 84 characters, as names are at most 32: none is ever cut.
#: ``old`` is the random id forms had before: they can no longer be saved.
MAP_FORM_ID = re.compile(
    r"map-text:(?:new:(?P<name>.*)"
    r"|edit:(?P<id>\d+):(?P<stamp>[0-9a-f]{8}):(?P<version>[0-9a-f]{8}):(?P<edited>.*)"
    r"|(?P<old>[0-9a-f]{16}))",
    re.S,
)


def _version(stored: StoredMap) -> str:
    """Which version of a map an edit started from: any save since changes it."""
    seen = f"{stored.updated_at}|{stored.text}"
    return f"{zlib.crc32(seen.encode()):08x}"


class MapTextModal(discord.ui.Modal):
    """The paragraph field a GM types a map into: a new map (``stored`` None) or an edit.

    Not kept in memory: :meth:`MapCog.on_interaction` answers its submit from its custom id
    (:data:`MAP_FORM_ID`) and the text alone, so a form left open across a restart works."""

    def __init__(self, *, name: str, stored: StoredMap | None) -> None:
        if stored is None:
            title, custom_id = f"New map: {name}", f"map-text:new:{name}"
        else:
            title = f"Edit map: {name}"
            custom_id = (f"map-text:edit:{stored.id}:{_stamp(stored)}:{_version(stored)}:"
                         f"{stored.name}")
        assert len(custom_id) <= 100, custom_id  # Discord's limit; names are at most 32
        super().__init__(title=title[:45], custom_id=custom_id)
        self.text: discord.ui.TextInput[MapTextModal] = discord.ui.TextInput(
            label=TEXT_LABEL, style=discord.TextStyle.paragraph, min_length=1,
            max_length=TEXT_LIMIT, placeholder=TEXT_PLACEHOLDER,
            default=None if stored is None else stored.text,
        )
        self.add_item(self.text)
        self.stop()  # not kept in memory: see the class docstring


async def submit_map_text(
    interaction: discord.Interaction[Any], form: re.Match[str], typed: str
) -> None:
    """Save what a GM typed in a map form, or refuse and hand the text back."""
    text = typed.rstrip()
    try:
        await _save_map_text(interaction, form, text)
    except (UserError, RuleError) as err:
        await _give_back(interaction, str(err), text)


async def _save_map_text(
    interaction: discord.Interaction[Any], form: re.Match[str], text: str
) -> None:
    bot: UnhexBot = interaction.client
    guild_id = require_guild(interaction)
    maps = _maps(bot)
    if form["old"] is not None:
        raise UserError("This form was opened before the bot restarted and cannot be saved: "
                        "open `/map new` or `/map edit` again and paste your text.")
    if len(text) > TEXT_LIMIT:  # the form says so, but Discord does not check it for us
        raise UserError(f"A map's text is at most {TEXT_LIMIT:,} characters; yours has "
                        f"{len(text):,}.")
    if form["name"] is not None:
        await require_gm(interaction, "write a map")
        name = _new_name(form["name"])
        m = _read(text)
        saved = await maps.add(
            guild_id=guild_id, name=name, text=text, author_id=interaction.user.id
        )
        if saved is None:
            taken = await maps.get(guild_id, name)
            raise UserError(_taken(name if taken is None else taken.name))
        done = "Saved the new map"
    else:
        await require_gm(interaction, "edit a map")
        name = escape_markdown(form["edited"])
        m = _read(text)
        current = await maps.get_by_id(int(form["id"]))
        if current is None or current.guild_id != guild_id or _stamp(current) != form["stamp"]:
            raise UserError(f"The map **{name}** was deleted while you edited it.")
        saved = None
        if _version(current) == form["version"]:
            saved = await maps.replace_text(current, text)
        if saved is None:
            raise UserError(f"Somebody saved **{name}** while you edited it; `/map edit` again "
                            "to start from their version.")
        done = "Saved your changes to"
    head = (f"{done} **{escape_markdown(saved.name)}** · {_areas(m)}. Show it to the table "
            f"with `/map show`, or fight on it: {_start_on(saved.name)}.")
    await interaction.response.send_message(render_block(head, m), ephemeral=True)


def _start_on(name: str) -> str:
    """`/combat start map:<name>`, the command that starts a fight on a map (the name left
    for the user to pick when a backtick in it would break the code span)."""
    return f"`/combat start map:{'' if '`' in name else name}`"


def _new_name(typed: str) -> str:
    """A new map's name as it is kept; a UserError if it is no name for a new map."""
    name = clean_name(typed)
    if not name or len(name) > NAME_LIMIT:
        raise UserError(f"A map's name is 1-{NAME_LIMIT} characters.")
    builtin = _builtin_keys().get(name_key(name))
    if builtin is not None:
        raise UserError(
            f"**{builtin}** is a built-in map's name; pick another. To start from it, "
            f"`/map export name:{builtin}` and paste its text into `/map new`."
        )
    return name


def _taken(name: str) -> str:
    return (f"This server already has a map called **{escape_markdown(name)}**: pick another "
            "name, or change that one with `/map edit`.")


# -- the delete confirmation ---------------------------------------------------------------------


def _stamp(stored: StoredMap) -> str:
    """Which map a button means: a new map that reuses a deleted map's id has another stamp."""
    return identity_stamp(stored.created_at)


class DeleteMapButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(r"map-delete:(?P<id>[0-9]{1,18}):(?P<stamp>[0-9a-f]{8}):(?P<by>\d+)"
              r":(?P<action>delete|keep)"),
):
    """Confirm (or call off) deleting a server map: any GM may press, the one who asked too
    while they are still a GM (checked at the press: a GM role may have been taken away)."""

    def __init__(self, map_id: int, stamp: str, by: int, action: str) -> None:
        label, style = (
            ("Delete map", discord.ButtonStyle.danger) if action == "delete"
            else ("Keep map", discord.ButtonStyle.secondary)
        )
        super().__init__(discord.ui.Button(
            label=label, style=style, custom_id=f"map-delete:{map_id}:{stamp}:{by}:{action}",
        ))
        self.map_id = map_id
        self.stamp = stamp
        self.by = by
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> DeleteMapButton:
        return cls(int(match["id"]), match["stamp"], int(match["by"]), match["action"])

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        bot: UnhexBot = interaction.client
        require_guild(interaction)
        if not await is_gm(interaction):
            if interaction.user.id == self.by:
                raise UserError("You asked to delete this map, but you are no longer a GM: a GM "
                                f"must answer. {GM_HINT}")
            raise UserError(f"Only a GM may answer this: <@{self.by}> asked, and any GM may. "
                            f"{GM_HINT}")
        maps = _maps(bot)
        stored = await maps.get_by_id(self.map_id)
        gone = "That map is already deleted; nothing changed."
        mine = stored is not None and stored.guild_id == interaction.guild_id
        if stored is None or not mine or _stamp(stored) != self.stamp:
            raise UserError(gone)
        name = escape_markdown(stored.name)
        who = interaction.user.mention
        if self.action == "keep":
            await interaction.response.edit_message(
                content=f"🗺️ {who} kept the map **{name}**; nothing was deleted.", view=None
            )
            return
        if not await maps.delete(stored.id, stored.created_at):
            raise UserError(gone)
        await interaction.response.edit_message(
            content=f"🗑️ {who} deleted the map **{name}**.", view=None
        )


# -- the commands --------------------------------------------------------------------------------


class MapCog(commands.GroupCog, group_name="map", group_description="Maps to fight on"):
    def __init__(self, bot: UnhexBot) -> None:
        self.bot = bot
        super().__init__()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a map form's submit from its custom id (see :class:`MapTextModal`)."""
        await answer_form(interaction, MAP_FORM_ID,
                          lambda form, text: submit_map_text(interaction, form, text))

    @app_commands.command(name="list", description="The built-in maps and this server's maps.")
    async def list_maps(self, interaction: discord.Interaction[UnhexBot]) -> None:
        lines = ["🗺️ **Built-in maps** (to start from one, `/map export` it and paste the text "
                 "into `/map new` under a new name):"]
        lines += [f"• {name} · {_areas(_builtin_map(name))}" for name in builtin_maps()]
        stored = [] if interaction.guild_id is None else await _maps(self.bot).in_guild(
            interaction.guild_id
        )
        if not stored:
            lines.append("This server has no maps of its own yet: a GM writes one with "
                         "`/map new`.")
        else:
            lines.append("**This server's maps:**")
        for shown, s in enumerate(stored):
            try:
                size = _areas(parse_map(s.text))
            except MapError:
                size = "cannot be read: a GM can fix it with `/map edit`"
            line = f"• {escape_markdown(s.name)} · {size} · by <@{s.author_id}>"
            left = len(stored) - shown - 1
            more = [f"… and {left} more: type a name in `/map show`."] if left else []
            if len("\n".join([*lines, line, *more])) > MESSAGE_LIMIT:
                lines.append(f"… and {left + 1} more: type a name in `/map show`.")
                break
            lines.append(line)
        text = "\n".join(lines)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="show", description="Show a map to the table, as text (in a fight's "
                                                 "channel: as the fight has it).")
    @app_commands.describe(
        name="The map (built-in or this server's)",
        view="grid: boxes on a grid (when the map has positions); list: each area's lines",
    )
    async def show(
        self, interaction: discord.Interaction[UnhexBot], name: MapOption,
        view: ViewOption | None = None,
    ) -> None:
        found = await find_map(self.bot, interaction.guild_id, name)
        fight = await self._fight_on(interaction, found)
        if fight is None:
            m = found.game_map()
            await interaction.response.send_message(render_block(_title(found, m), m, view))
            return
        # The fight's own map: its doors as they stand, AoE Cover and Demolish applied.
        m = fight.game_map()
        head = f"{_title(found, m)} · as this channel's fight has it (round {fight.round})"
        lines = [effect_text(e) for e in fight.effects]
        tail = "\n".join([*who_is_where(fight, m),
                          *(["**Effects in play:**", *(f"• {line}" for line in lines)]
                            if lines else ["No AoE effects in play."])])
        block = render_block(head, m, view)
        if len(block) + 1 + len(tail) <= MESSAGE_LIMIT:
            await interaction.response.send_message(f"{block}\n{tail}")
            return
        # A big map leaves no room: who is where and the effects follow in a message of their own.
        await interaction.response.send_message(block)
        await interaction.followup.send(clip(tail))

    async def _fight_on(
        self, interaction: discord.Interaction[UnhexBot], found: FoundMap
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

    @app_commands.command(name="new", description="Write a new map for this server (GMs).")
    @app_commands.describe(name="The new map's name (1-32 characters)")
    async def new(
        self, interaction: discord.Interaction[UnhexBot],
        name: app_commands.Transform[str, Text(NAME_LIMIT)],
    ) -> None:
        guild_id = require_guild(interaction)
        await require_gm(interaction, "write a map")
        name = _new_name(name)
        taken = await _maps(self.bot).get(guild_id, name)
        if taken is not None:
            raise UserError(_taken(taken.name))
        await interaction.response.send_modal(MapTextModal(name=name, stored=None))

    @app_commands.command(name="edit", description="Change one of this server's maps (GMs).")
    @app_commands.describe(name="The map to change (built-in maps cannot be changed)")
    async def edit(self, interaction: discord.Interaction[UnhexBot], name: MapOption) -> None:
        guild_id = require_guild(interaction)
        await require_gm(interaction, "edit a map")
        found = await find_map(self.bot, guild_id, name)
        if found.stored is None:
            raise UserError(
                f"Built-in maps cannot be edited. To change **{found.name}**, copy it: "
                f"`/map export name:{found.name}`, then `/map new` with a name of your own "
                "and paste the text."
            )
        if len(found.text) > TEXT_LIMIT:
            raise UserError(f"**{escape_markdown(found.name)}** is longer than a Discord form "
                            f"holds ({TEXT_LIMIT:,} characters); it cannot be edited here.")
        await interaction.response.send_modal(MapTextModal(name=found.name, stored=found.stored))

    @app_commands.command(name="delete", description="Delete one of this server's maps (GMs).")
    @app_commands.describe(name="The map to delete (built-in maps cannot be deleted)")
    async def delete(self, interaction: discord.Interaction[UnhexBot], name: MapOption) -> None:
        guild_id = require_guild(interaction)
        await require_gm(interaction, "delete a map")
        found = await find_map(self.bot, guild_id, name)
        if found.stored is None:
            raise UserError(f"Built-in maps cannot be deleted (**{found.name}** is one).")
        stored = found.stored
        view = button_row(
            DeleteMapButton(stored.id, _stamp(stored), interaction.user.id, "delete"),
            DeleteMapButton(stored.id, _stamp(stored), interaction.user.id, "keep"),
        )
        await interaction.response.send_message(
            f"🗑️ {interaction.user.mention} asks to delete the map "
            f"**{escape_markdown(stored.name)}**. It cannot be undone: a GM confirms with "
            "**Delete map**.",
            view=view,
        )

    @app_commands.command(name="export", description="A map's text, to copy or change.")
    @app_commands.describe(name="The map (built-in or this server's)")
    async def export(self, interaction: discord.Interaction[UnhexBot], name: MapOption) -> None:
        found = await find_map(self.bot, interaction.guild_id, name)
        text = found.text.strip("\n")
        head = f"🗺️ **{escape_markdown(found.name)}** as text. " + (
            "To make a map of your own from it, paste it into `/map new` under a new name."
            if found.builtin else
            "Paste it into `/map new` to make a copy, or change the map with `/map edit`."
        )
        block = f"```{SOURCE}\n{text}\n```"
        if "```" not in text and len(head) + 1 + len(block) <= MESSAGE_LIMIT:
            await interaction.response.send_message(f"{head}\n{block}", ephemeral=True)
        else:
            why = ("It is too long for one message" if "```" not in text
                   else "It holds three backticks in a row, which would break a code block")
            await interaction.response.send_message(
                f"{head}\n{why}, so it is attached as a file.",
                file=_text_file(found.name, text + "\n"), ephemeral=True,
            )

    @show.autocomplete("name")
    @export.autocomplete("name")
    async def _any_map(
        self, interaction: discord.Interaction[UnhexBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await map_choices(self.bot, interaction.guild_id, current)

    @edit.autocomplete("name")
    @delete.autocomplete("name")
    async def _server_map(
        self, interaction: discord.Interaction[UnhexBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await map_choices(self.bot, interaction.guild_id, current, builtins=False)


async def setup(bot: UnhexBot) -> None:
    bot.add_dynamic_items(DeleteMapButton)
    bot.answers(MAP_FORM_ID)
    await bot.add_cog(MapCog(bot))
