"""`/character …` and `/sheet`: the Unhex characters of a server, kept in the store.

Who may do what: anyone may look at any character (`/sheet`, `/character list`,
`/character export`); only its owner or a GM may change a PC, and only a GM an NPC
(:func:`require_change`). A refused request says why, ephemerally, and changes nothing.

What the table sees: every change that worked (create, rename, items, hands, abilities,
advance, recover, import, delete) is confirmed publicly with the engine report's sentence, and
`/sheet` is public, so everyone at the table sees the character. What is only useful to the
asker is ephemeral: `/character list`, `/character export`, every refusal, and a request that
changed nothing (advancing at max level 99, stowing empty hands).

Item numbers are 1-based here, as on the sheet; the engine counts from 0. Importing a character
whose name the server already has is refused: rename or delete the one that is there first, or
change ``"name"`` in the pasted text.
"""

from __future__ import annotations

import io
import json
import re
import secrets
import zlib
from collections.abc import Callable, Sequence
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from bot.client import UnhexBot
from bot.components import PersistentButton, answer_form, button_row
from bot.errors import UserError
from bot.options import OneOf, Text
from bot.permissions import is_gm, require_gm, require_guild
from bot.store.characters import InFight, NameTaken, StoredCharacter
from bot.store.interfaces import Characters
from bot.text import clip, echo, parse_number
from data import load_rules
from engine.catalog import Ability
from engine.character import (
    Character,
    ItemRef,
    ability_limit,
    add_ability,
    add_good_at,
    add_item,
    advance,
    character_from_json,
    hold,
    recover,
    remove_ability,
    remove_good_at,
    remove_item,
    rename,
    status,
    stow,
)
from engine.errors import RuleError
from engine.sheet import render_sheet

__all__ = ["export_text", "find_character", "may_change", "require_change"]

RULES = load_rules()
MESSAGE_LIMIT = 2000  # Discord's longest message
PASTE_LIMIT = 4000  # Discord's longest modal text field
NAME_LIMIT = 32
ITEM_NAME_LIMIT = 40
#: The longest name or number typed to find something (Discord's longest choice value).
LOOKUP_LIMIT = 100
CHOICES_LIMIT = 25  # Discord's most autocomplete choices
PASTE_LABEL = "Character JSON (from /character export)"
GM_HINT = "GMs have Manage Server or the GM role (`/gm role`)."

KIND_CHOICES = [app_commands.Choice(name=k.name, value=k.id) for k in RULES.items.kinds]
LOCATION_CHOICES = [
    app_commands.Choice(name=loc.name, value=loc.id) for loc in RULES.body.locations
]
HAND_CHOICES = [app_commands.Choice(name=hand, value=hand) for hand in ("right", "left")]
Hand = Literal["right", "left"]

# String options, with the limits Discord's client enforces and the bot checks again.
CharacterOption = app_commands.Transform[str, Text(LOOKUP_LIMIT, "character")]
ItemOption = app_commands.Transform[str, Text(LOOKUP_LIMIT, "item")]
AbilityOption = app_commands.Transform[str, Text(LOOKUP_LIMIT, "ability")]
HandOption = app_commands.Transform[Hand, OneOf("hand", HAND_CHOICES)]
#: The abilities an AoE weapon may be for.
AOE_ABILITIES: tuple[str, ...] = tuple(
    dict.fromkeys(a for kind in RULES.items.kinds for a in kind.requires_one_of)
)


def clean_name(name: str) -> str:
    """A name as it is kept: trimmed, each run of spaces made one space."""
    return " ".join(name.split())


def _bold(name: str) -> str:
    return f"**{escape_markdown(name)}**"


def _said(summary: str) -> str:
    return escape_markdown(summary)


# -- finding characters and who may change them ---------------------------------------------


def _characters(interaction: discord.Interaction[Any]) -> Characters:
    bot: UnhexBot = interaction.client
    return bot.store.characters


async def find_character(interaction: discord.Interaction[Any], name: str) -> StoredCharacter:
    """The server's character called ``name`` (any case); a UserError if there is none."""
    guild_id = require_guild(interaction)
    stored = await _characters(interaction).get(guild_id, name)
    if stored is None:
        shown = echo(name) or "(nothing)"
        raise UserError(
            f"There is no character called “{shown}” on this server. "
            "`/character list` shows them."
        )
    return stored


async def may_change(interaction: discord.Interaction[Any], stored: StoredCharacter) -> bool:
    """Whether the user may change the character: a GM always, the owner a PC."""
    if not stored.npc and stored.owner_id == interaction.user.id:
        return True
    return await is_gm(interaction)


async def require_change(
    interaction: discord.Interaction[Any], stored: StoredCharacter, doing: str = "change"
) -> None:
    """Refuse, saying why, unless the user may change the character now (not while a fight
    holds it: the fight's copy is the truth until it ends). ``doing``: "delete"."""
    if await may_change(interaction, stored):
        bot: UnhexBot = interaction.client
        fight = await bot.store.combats.fight_of(stored.id)
        if fight is not None:
            raise InFight(stored.name, fight[1])
        return
    if stored.npc:
        raise UserError(
            f"{_bold(stored.name)} is an NPC: only a GM may {doing} it. {GM_HINT}"
        )
    raise UserError(
        f"{_bold(stored.name)} belongs to <@{stored.owner_id}>: only they or a GM may "
        f"{doing} it. {GM_HINT}"
    )


def _taken(name: str) -> str:
    return f"This server already has a character called {_bold(name)}: pick another name."


async def _save(
    interaction: discord.Interaction[Any], stored: StoredCharacter, new: Character
) -> StoredCharacter:
    try:
        saved = await _characters(interaction).replace(stored, new)
    except NameTaken:
        taken = await _characters(interaction).get(stored.guild_id, new.name)
        raise UserError(_taken(new.name if taken is None else taken.name)) from None
    if saved is None:
        raise UserError(
            f"{_bold(stored.name)} was changed or deleted a moment ago by somebody else; "
            "nothing changed. Try again."
        )
    return saved


# -- autocomplete ---------------------------------------------------------------------------


def _choices(
    options: Sequence[tuple[str, str]], typed: str
) -> list[app_commands.Choice[str]]:
    """(label, value) pairs whose label starts with what was typed, then those containing it."""
    typed = " ".join(typed.split()).casefold()
    keys = [label.casefold() for label, _ in options]
    starting = [o for o, key in zip(options, keys, strict=True) if key.startswith(typed)]
    containing = [
        o for o, key in zip(options, keys, strict=True)
        if typed in key and not key.startswith(typed)
    ]
    return [
        app_commands.Choice(name=label[:100], value=value[:100])
        for label, value in (starting + containing)[:CHOICES_LIMIT]
    ]


async def _character_choices(
    interaction: discord.Interaction[Any], current: str, *, changeable: bool
) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    entries = await _characters(interaction).entries(interaction.guild_id)
    user_id = interaction.user.id
    if changeable and not await is_gm(interaction):
        entries = [e for e in entries if not e.npc and e.owner_id == user_id]
    # The user's own characters first, then the others, each by name.
    ordered = sorted(entries, key=lambda e: e.npc or e.owner_id != user_id)
    return _choices([(f"{e.name} (NPC)" if e.npc else e.name, e.name) for e in ordered], current)


async def any_character(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Every character of the server: anyone may look at any of them."""
    return await _character_choices(interaction, current, changeable=False)


async def changeable_character(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The characters the user may change: their own PCs, or all of them for a GM."""
    return await _character_choices(interaction, current, changeable=True)


async def _chosen(interaction: discord.Interaction[Any]) -> Character | None:
    """The character named in the command's ``character`` option while typing another one."""
    name = getattr(interaction.namespace, "character", None)
    if not isinstance(name, str) or not name.strip() or interaction.guild_id is None:
        return None
    stored = await _characters(interaction).get(interaction.guild_id, name)
    return None if stored is None else stored.character


def _item_label(c: Character, index: int) -> str:
    item = c.items[index]
    kind = RULES.items.kind(item.kind).short if item.kind in RULES.items.ids else item.kind
    details = [kind]
    if item.location is not None:
        details.append(item.location.replace("_", " "))
    if item.less_lethal:
        details.append("less-lethal")
    hands = [hand for hand in ("right", "left") if c.held(hand) == index]
    held = " [both hands]" if len(hands) == 2 else f" [{hands[0]} hand]" if hands else ""
    gone = " DESTROYED" if item.destroyed else ""
    return f"{index + 1}. {item.name} ({', '.join(details)}){gone}{held}"


async def _item_choices(
    interaction: discord.Interaction[Any], current: str, *, holdable: bool
) -> list[app_commands.Choice[str]]:
    c = await _chosen(interaction)
    if c is None:
        return []
    indexes = [
        i for i, item in enumerate(c.items)
        if not holdable or (
            not item.destroyed and item.kind in RULES.items.ids
            and RULES.items.kind(item.kind).held
        )
    ]
    return _choices([(_item_label(c, i), str(i + 1)) for i in indexes], current)


async def any_item(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return await _item_choices(interaction, current, holdable=False)


async def holdable_item(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return await _item_choices(interaction, current, holdable=True)


def _has_room(c: Character, *, combat: bool) -> bool:
    """Whether the character may take one more ability of that kind (the engine's limits)."""
    limit = ability_limit(c)
    same = len(c.abilities) if combat else len(c.good_at)
    return len(c.abilities) + len(c.good_at) < limit and same < limit - 1


def _activity(text: str) -> str:
    cleaned = " ".join(text.split())
    if cleaned.casefold().startswith("good at"):
        cleaned = cleaned[len("good at"):].strip()
    return cleaned


async def ability_to_add(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The combat abilities the character may take now (prerequisites and room), and
    "Good at <what was typed>" for a non-combat ability."""
    c = await _chosen(interaction)
    combat: list[Ability] = [a for a in RULES.abilities.combat if not a.free_text]
    if c is not None:
        combat = [
            a for a in combat
            if a.id not in c.abilities and all(r in c.abilities for r in a.requires)
        ] if _has_room(c, combat=True) else []
    activity = _activity(current)
    good_at: list[app_commands.Choice[str]] = []
    if activity and (c is None or _has_room(c, combat=False)):
        good_at = [app_commands.Choice(name=f"Good at {activity}"[:100],
                                       value=f"good at {activity}"[:100])]
    typed_good_at = current.strip().casefold().startswith("good at")
    found = [] if typed_good_at else _choices([(a.title, a.id) for a in combat], current)
    return found[: CHOICES_LIMIT - len(good_at)] + good_at


async def ability_to_remove(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The character's abilities, combat and non-combat."""
    c = await _chosen(interaction)
    if c is None:
        return []
    options = [(RULES.abilities.ability(a).title, a) for a in c.abilities
               if a in RULES.abilities.ids]
    options += [(f"Good at {activity}", f"good at {activity}") for activity in c.good_at]
    return _choices(options, current)


async def aoe_ability(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The AoE abilities the character has (an AoE weapon is for one of them)."""
    c = await _chosen(interaction)
    ids = [a for a in AOE_ABILITIES if c is None or a in c.abilities]
    return _choices([(RULES.abilities.ability(a).title, a) for a in ids], current)


# -- reading what was typed ---------------------------------------------------------------------


def _item_ref(c: Character, text: str) -> ItemRef:
    """An item by its number on the sheet (1-based, ASCII digits) or its name."""
    typed = text.strip()
    if any(item.name.casefold() == typed.casefold() for item in c.items):
        return typed
    number = parse_number(typed)
    if number is not None:
        return number - 1
    if typed.isdigit():  # "²", "①": digits to Python, not a number to anyone at the table
        raise UserError(
            f"“{echo(typed)}” is not an item number: type the number in plain digits "
            "(1, 2, 3 …) as on the sheet, or the item's name."
        )
    return typed


def _combat_ability(text: str, among: Sequence[str] | None = None) -> Ability | None:
    """The combat ability meant by ``text``: its id, its title ("Leader: Rally") or, when only
    one has it, its name ("Rally"). ``among``: only these ids."""
    wanted = " ".join(text.split()).casefold()
    pool = [a for a in RULES.abilities.combat if not a.free_text
            and (among is None or a.id in among)]
    exact = [a for a in pool if wanted in (a.id, a.title.casefold())]
    if exact:
        return exact[0]
    named = [a for a in pool if a.name.casefold() == wanted]
    if len(named) > 1:
        titles = ", ".join(a.title for a in named)
        raise UserError(f"Several abilities are called “{echo(text)}” "
                        f"({titles}): pick one from the list.")
    return named[0] if named else None


# -- the sheet and the export ---------------------------------------------------------------


def sheet_block(c: Character) -> str:
    return f"```\n{render_sheet(c, rules=RULES)}\n```"


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


def _describe(stored: StoredCharacter) -> str:
    c = stored.character
    who = "NPC" if c.npc else f"PC of <@{stored.owner_id}>"
    return f"{who}, level {c.level}/{c.max_level}"


def _made(stored: StoredCharacter) -> str:
    c = stored.character
    return f"{_bold(c.name)}: {'an NPC' if c.npc else 'a PC'} at level {c.level}/{c.max_level}"


# -- the import modal -----------------------------------------------------------------------


async def _give_back(interaction: discord.Interaction[Any], problem: str, text: str) -> None:
    """Refuse ephemerally with ``problem``; the paste comes back when it fits."""
    lead = f"{problem}\nNothing was saved."
    block = f"\nYour paste, to fix and try again:\n```\n{text}\n```"
    if text and "```" not in text and len(lead) + len(block) <= MESSAGE_LIMIT:
        lead += block
    await interaction.response.send_message(clip(lead), ephemeral=True)


IMPORT_MODAL_ID = re.compile(r"character-import:[0-9a-f]+")


class ImportModal(discord.ui.Modal, title="Import a character"):
    """The paragraph field a character's JSON is pasted into. Its submit is answered by
    :meth:`CharacterCog.on_interaction` from the payload alone, so a form left open across a
    restart still works."""

    def __init__(self) -> None:
        super().__init__(custom_id=f"character-import:{secrets.token_hex(8)}")
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
        stored = await _characters(interaction).add(
            guild_id=guild_id, owner_id=interaction.user.id, character=c
        )
    except NameTaken:
        taken = await _characters(interaction).get(guild_id, c.name)
        shown = _bold(c.name if taken is None else taken.name)
        raise UserError(
            f"This server already has a character called {shown}. To import this one, "
            f"change its \"name\" in the text, or rename or delete {shown} first."
        ) from None
    await interaction.response.send_message(
        f"📥 {interaction.user.mention} imported {_made(stored)}."
    )


# -- the delete confirmation ----------------------------------------------------------------


def _stamp(stored: StoredCharacter) -> str:
    """Which character a button means: a new one that reuses a deleted id has another stamp."""
    return f"{zlib.crc32(stored.created_at.encode()):08x}"


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
        characters = _characters(interaction)
        stored = await characters.get_by_id(self.character_id)
        if (stored is None or stored.guild_id != interaction.guild_id
                or _stamp(stored) != self.stamp):
            raise UserError("That character is already deleted; nothing changed.")
        await require_change(interaction, stored, "delete")
        who = interaction.user.mention
        if self.action == "keep":
            await interaction.response.edit_message(
                content=f"🧍 {who} kept {_bold(stored.name)}; nothing was deleted.", view=None
            )
            return
        if not await characters.delete(stored.id, stored.created_at):
            raise UserError("That character is already deleted; nothing changed.")
        await interaction.response.edit_message(
            content=f"🗑️ {who} deleted {_bold(stored.name)}.", view=None
        )


# -- the commands ---------------------------------------------------------------------------

Rule = Callable[[Character], tuple[Character, Any]]

CHARACTER_HELP = "The character (yours, or any for a GM)"


@app_commands.guild_only()
class CharacterCog(
    commands.GroupCog, group_name="character", group_description="Your Unhex characters"
):
    item = app_commands.Group(name="item", description="A character's combat items")
    ability = app_commands.Group(name="ability", description="A character's abilities")

    def __init__(self, bot: UnhexBot) -> None:
        self.bot = bot
        super().__init__()

    async def _change(
        self, interaction: discord.Interaction[Any], name: str, emoji: str, rule: Rule
    ) -> None:
        """The one path of every change: find, check who asks, apply the rule, save (committed),
        then tell the table. A change that changes nothing is only told to the asker."""
        stored = await find_character(interaction, name)
        await require_change(interaction, stored)
        new, report = rule(stored.character)
        if new == stored.character:
            await interaction.response.send_message(
                f"Nothing changed: {_said(report.summary)}", ephemeral=True
            )
            return
        await _save(interaction, stored, new)
        await interaction.response.send_message(f"{emoji} {_said(report.summary)}")

    # -- making, listing, renaming, deleting --------------------------------------------

    @app_commands.command(name="create", description="Make a character: your PC, or an NPC (GMs).")
    @app_commands.describe(
        name="The character's name (1-32 characters, unique on this server)",
        level="Level and max level (1-99; the book starts characters at 50)",
        npc="An NPC, run by the GMs (only GMs make NPCs)",
    )
    async def create(
        self, interaction: discord.Interaction[Any],
        name: app_commands.Transform[str, Text(NAME_LIMIT, "name")],
        level: app_commands.Range[int, 1, 99] = 50,
        npc: bool = False,
    ) -> None:
        guild_id = require_guild(interaction)
        if npc:
            await require_gm(interaction, "create an NPC")
        c = Character.new(clean_name(name), npc=npc, level=level)
        try:
            stored = await self.bot.store.characters.add(
                guild_id=guild_id, owner_id=interaction.user.id, character=c
            )
        except NameTaken:
            taken = await self.bot.store.characters.get(guild_id, c.name)
            raise UserError(_taken(c.name if taken is None else taken.name)) from None
        await interaction.response.send_message(
            f"🧍 {interaction.user.mention} created {_made(stored)}. "
            f"`/sheet character:{stored.name}` shows the sheet."
        )

    @app_commands.command(name="list", description="The characters of this server.")
    async def list_characters(self, interaction: discord.Interaction[Any]) -> None:
        guild_id = require_guild(interaction)
        stored = await self.bot.store.characters.list(guild_id)
        if not stored:
            await interaction.response.send_message(
                "This server has no characters yet: `/character create` makes one.",
                ephemeral=True,
            )
            return
        lines = [f"🧍 **Characters on this server** ({len(stored)}):"]
        for shown, s in enumerate(stored):
            line = (f"• {_bold(s.name)} · {_describe(s)} · "
                    f"{status(s.character, rules=RULES).value}")
            left = len(stored) - shown - 1
            more = [f"… and {left} more: type a name in `/sheet`."] if left else []
            if len("\n".join([*lines, line, *more])) > MESSAGE_LIMIT:
                lines.append(f"… and {left + 1} more: type a name in `/sheet`.")
                break
            lines.append(line)
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @app_commands.command(name="rename", description="Give a character a new name.")
    @app_commands.describe(character=CHARACTER_HELP, new_name="The new name (1-32 characters)")
    @app_commands.autocomplete(character=changeable_character)
    async def rename_character(
        self, interaction: discord.Interaction[Any], character: CharacterOption,
        new_name: app_commands.Transform[str, Text(NAME_LIMIT, "new_name")],
    ) -> None:
        stored = await find_character(interaction, character)
        await require_change(interaction, stored, "rename")
        new = rename(stored.character, clean_name(new_name))
        saved = await _save(interaction, stored, new)
        await interaction.response.send_message(
            f"✏️ {_bold(stored.name)} is now called {_bold(saved.name)}."
        )

    @app_commands.command(name="delete", description="Delete a character (asks to confirm).")
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=changeable_character)
    async def delete(
        self, interaction: discord.Interaction[Any], character: CharacterOption
    ) -> None:
        stored = await find_character(interaction, character)
        await require_change(interaction, stored, "delete")
        view = button_row(
            DeleteCharacterButton(stored.id, _stamp(stored), "delete"),
            DeleteCharacterButton(stored.id, _stamp(stored), "keep"),
        )
        who = "a GM" if stored.npc else "its owner or a GM"
        await interaction.response.send_message(
            f"🗑️ {interaction.user.mention} asks to delete {_bold(stored.name)} "
            f"({_describe(stored)}). It cannot be undone: {who} confirms with "
            "**Delete character**.",
            view=view,
        )

    # -- items and hands -----------------------------------------------------------------

    @item.command(name="add", description="Give a character a combat item, in its next slot.")
    @app_commands.describe(
        character=CHARACTER_HELP,
        name="What the item is, e.g. riot shield (1-40 characters)",
        kind="The item's kind in the rules",
        location="Armor only: the hit location it covers",
        less_lethal="Ammo only: less-lethal ammo",
        ability="AoE weapon only: the AoE ability it is for",
    )
    @app_commands.autocomplete(character=changeable_character, ability=aoe_ability)
    async def item_add(
        self, interaction: discord.Interaction[Any], character: CharacterOption,
        name: app_commands.Transform[str, Text(ITEM_NAME_LIMIT, "name")],
        kind: app_commands.Transform[str, OneOf("kind", KIND_CHOICES)],
        location: app_commands.Transform[str, OneOf("location", LOCATION_CHOICES)] | None = None,
        less_lethal: bool = False, ability: AbilityOption | None = None,
    ) -> None:
        await self._change(interaction, character, "🎒", lambda c: add_item(
            c, clean_name(name), kind, rules=RULES, location=location,
            less_lethal=less_lethal, ability=ability,
        ))

    @item.command(name="remove", description="Take an item off a character's sheet.")
    @app_commands.describe(character=CHARACTER_HELP, item="The item (its number or name)")
    @app_commands.autocomplete(character=changeable_character, item=any_item)
    async def item_remove(
        self, interaction: discord.Interaction[Any], character: CharacterOption, item: ItemOption
    ) -> None:
        await self._change(interaction, character, "🎒", lambda c: remove_item(
            c, _item_ref(c, item), rules=RULES
        ))

    @item.command(name="hold", description="Put an item in a character's hand (or both hands).")
    @app_commands.describe(
        character=CHARACTER_HELP, item="The item (its number or name)",
        hand="1H items: which hand (default: a free one)",
    )
    @app_commands.autocomplete(character=changeable_character, item=holdable_item)
    async def item_hold(
        self, interaction: discord.Interaction[Any], character: CharacterOption,
        item: ItemOption, hand: HandOption | None = None,
    ) -> None:
        await self._change(interaction, character, "✋", lambda c: hold(
            c, _item_ref(c, item), hand, rules=RULES
        ))

    @item.command(name="stow", description="Empty a character's hand (default: both).")
    @app_commands.describe(character=CHARACTER_HELP, hand="Which hand (default: both)")
    @app_commands.autocomplete(character=changeable_character)
    async def item_stow(
        self, interaction: discord.Interaction[Any], character: CharacterOption,
        hand: HandOption | None = None,
    ) -> None:
        await self._change(interaction, character, "✋", lambda c: stow(c, hand, rules=RULES))

    # -- abilities -----------------------------------------------------------------------

    @ability.command(name="add", description="Give a character an ability.")
    @app_commands.describe(
        character=CHARACTER_HELP,
        ability="A combat ability from the list, or “good at …” for a non-combat one",
    )
    @app_commands.autocomplete(character=changeable_character, ability=ability_to_add)
    async def ability_add(
        self, interaction: discord.Interaction[Any], character: CharacterOption,
        ability: AbilityOption,
    ) -> None:
        def rule(c: Character) -> tuple[Character, Any]:
            found = _combat_ability(ability)
            if found is not None:
                return add_ability(c, found.id, rules=RULES)
            if ability.strip().casefold().startswith("good at"):
                return add_good_at(c, ability, rules=RULES)
            raise UserError(
                f"There is no combat ability “{echo(ability)}”. Pick one "
                "from the list, or write “good at …” for a non-combat ability, as in "
                "“good at forensics”."
            )

        await self._change(interaction, character, "✨", rule)

    @ability.command(name="remove", description="Take an ability off a character.")
    @app_commands.describe(character=CHARACTER_HELP, ability="One of the character's abilities")
    @app_commands.autocomplete(character=changeable_character, ability=ability_to_remove)
    async def ability_remove(
        self, interaction: discord.Interaction[Any], character: CharacterOption,
        ability: AbilityOption,
    ) -> None:
        def rule(c: Character) -> tuple[Character, Any]:
            found = _combat_ability(ability, among=c.abilities)
            if found is not None:
                return remove_ability(c, found.id, rules=RULES)
            activity = _activity(ability)
            if activity.casefold() in {a.casefold() for a in c.good_at}:
                return remove_good_at(c, activity, rules=RULES)
            raise UserError(
                f"{_bold(c.name)} has no ability “{echo(ability)}”: "
                "pick one from the list."
            )

        await self._change(interaction, character, "✨", rule)

    # -- between sessions ----------------------------------------------------------------

    @app_commands.command(
        name="advance", description="A session's goal was met: max level +1 (up to 99)."
    )
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=changeable_character)
    async def advance_character(
        self, interaction: discord.Interaction[Any], character: CharacterOption
    ) -> None:
        await self._change(interaction, character, "⬆️", advance)

    @app_commands.command(
        name="recover", description="After a fight: level to max, wounds erased (■ stays)."
    )
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=changeable_character)
    async def recover_character(
        self, interaction: discord.Interaction[Any], character: CharacterOption
    ) -> None:
        await self._change(interaction, character, "❤️‍🩹",
                           lambda c: recover(c, rules=RULES))

    # -- moving characters between servers -----------------------------------------------

    @app_commands.command(name="export", description="A character as JSON, to import elsewhere.")
    @app_commands.describe(character="Any character of this server")
    @app_commands.autocomplete(character=any_character)
    async def export(
        self, interaction: discord.Interaction[Any], character: CharacterOption
    ) -> None:
        stored = await find_character(interaction, character)
        text = export_text(stored.character)
        message = (f"📤 {_bold(stored.name)} as JSON: copy it, then `/character import` and "
                   f"paste it.\n```json\n{text}\n```")
        if len(message) <= MESSAGE_LIMIT:
            await interaction.response.send_message(message, ephemeral=True)
            return
        # Only names full of characters JSON escapes (" and \) get here.
        slug = re.sub(r"[^A-Za-z0-9_-]+", "-", stored.name).strip("-") or "character"
        await interaction.response.send_message(
            f"📤 {_bold(stored.name)} as JSON is too long for one message, so it is attached: "
            "open it, copy it, then `/character import` and paste it.",
            file=discord.File(io.BytesIO(text.encode("utf-8")), filename=f"{slug}.json"),
            ephemeral=True,
        )

    @app_commands.command(name="import", description="Paste a character from /character export.")
    async def import_(self, interaction: discord.Interaction[Any]) -> None:
        require_guild(interaction)
        await interaction.response.send_modal(ImportModal())

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer the import modal's submit (see :class:`ImportModal`)."""
        await answer_form(interaction, IMPORT_MODAL_ID,
                          lambda _, text: submit_import(interaction, text))


async def _as_it_stands(interaction: discord.Interaction[Any],
                        stored: StoredCharacter) -> tuple[Character, str]:
    """The character as it stands now: while a fight holds it, the fight's copy (with its live
    wounds) and a line saying where; else the sheet."""
    bot: UnhexBot = interaction.client
    fight = await bot.store.combats.fight_of(stored.id)
    if fight is None:
        return stored.character, ""
    combat = await bot.fights.fight(fight[1])
    fighter = None if combat is None else next(
        (f for f in combat.state.fighters if f.character_id == stored.id), None)
    if fighter is None:
        return stored.character, ""
    return fighter.character, f"-# In the fight in <#{fight[1]}>: as it stands now.\n"


class SheetCog(commands.Cog):
    @app_commands.command(name="sheet", description="Show a character's sheet to the table.")
    @app_commands.describe(character="Whose sheet (default: your PC)")
    @app_commands.autocomplete(character=any_character)
    @app_commands.guild_only()
    async def sheet(
        self, interaction: discord.Interaction[Any], character: CharacterOption | None = None
    ) -> None:
        guild_id = require_guild(interaction)
        note = ""
        if character is not None and character.strip():
            stored = await find_character(interaction, character)
        else:
            bot: UnhexBot = interaction.client
            latest, count = await bot.store.characters.latest_pc(guild_id, interaction.user.id)
            if latest is None:
                raise UserError(
                    "You have no PC on this server: `/character create` makes one, or name "
                    "a character with `/sheet character:`."
                )
            stored = latest
            if count > 1:
                note = (f"-# Your most recently changed PC of {count}; name another with "
                        "`character:`.\n")
        shown, where = await _as_it_stands(interaction, stored)
        note = where + note
        block = sheet_block(shown)
        if len(note) + len(block) > MESSAGE_LIMIT:
            note = ""
        await interaction.response.send_message(note + block)


async def setup(bot: UnhexBot) -> None:
    bot.add_dynamic_items(DeleteCharacterButton)
    bot.answers(IMPORT_MODAL_ID)
    await bot.add_cog(CharacterCog(bot))
    await bot.add_cog(SheetCog())
