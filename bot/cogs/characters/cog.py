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
import re
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.characters.choices import (
    ability_to_add,
    ability_to_remove,
    activity_text,
    any_character,
    any_item,
    aoe_ability,
    carried_gear,
    changeable_character,
    combat_ability_named,
    holdable_item,
    item_ref,
)
from bot.cogs.characters.common import (
    ITEM_NAME_LIMIT,
    KIND_CHOICES,
    LOCATION_CHOICES,
    MESSAGE_LIMIT,
    NAME_LIMIT,
    RULES,
    AbilityOption,
    CharacterOption,
    HandOption,
    ItemOption,
    as_it_stands,
    bold_name,
    escaped_summary,
    find_character,
    hidden_in_fight,
    panel_hint,
    require_change,
    save_change,
)
from bot.cogs.characters.copies import COPY_LIMIT, copy_character
from bot.cogs.characters.creation import (
    CREATE_MODAL_ID,
    CreateModal,
    create_character,
    submit_create,
)
from bot.cogs.characters.delete import DeleteCharacterButton, delete_buttons
from bot.cogs.characters.listing import ListPageButton, list_page
from bot.cogs.characters.panel import (
    GOOD_AT_FORM,
    ITEM_FORM,
    GoodAtButton,
    OpenPanelButton,
    PanelMenu,
    panel_content,
    panel_view,
    send_panel,
    submit_good_at,
    submit_item,
)
from bot.cogs.characters.transfer import (
    IMPORT_MODAL_ID,
    ImportModal,
    export_text,
    sheet_messages,
    submit_import,
    who_and_level,
)
from bot.host import Host
from bot.i18n import channel_language, person_language, render, translated
from bot.options import OneOf, Text
from bot.permissions import require_gm, require_guild
from bot.store.values import StoredCharacter, clean_name
from bot.text import echo
from bot.user_error import UserError
from engine.character import (
    AdvanceReport,
    Character,
    add_ability,
    add_gear,
    add_good_at,
    add_item,
    advance,
    describe,
    hold,
    recover,
    remove_ability,
    remove_gear,
    remove_good_at,
    remove_item,
    rename,
    stow,
)
from engine.character.model import CONCEPT_LIMIT, DESCRIPTION_LIMIT
from engine.dice import MAX_LEVEL, MIN_LEVEL
from engine.phrases import phrase

# -- the commands ---------------------------------------------------------------------------

Rule = Callable[[Character], tuple[Character, Any]]

CHARACTER_HELP = "The character (yours, or any for a GM)"


def _cleared(text: str | None) -> str | None:
    """An option's text, with "-" meaning "clear it"."""
    return "" if text is not None and text.strip() == "-" else text


def _choose_hint(report: AdvanceReport, language: str) -> str:
    """After an advance that brings a slot or an ability: where it is filled (its author gets
    the panel at once)."""
    if report.new_ability or report.new_slot:
        return " " + translated("`/character panel` fills it.", language)
    return ""


@app_commands.guild_only()
class CharacterCog(
    commands.GroupCog, group_name="character", group_description="Your Unhex characters"
):
    item = app_commands.Group(name="item", description="A character's combat items")
    ability = app_commands.Group(name="ability", description="A character's abilities")
    gear = app_commands.Group(name="gear", description="A character's non-combat items (no slot)")

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    async def _change(
        self, interaction: discord.Interaction[Any], name: str, emoji: str, rule: Rule,
        hint: Callable[[Any, str], str] | None = None, still_to_choose: bool = False,
    ) -> tuple[StoredCharacter, Any] | None:
        """The one path of every change: find, check who asks, apply the rule, save (committed),
        then tell the table. A change that changes nothing is only told to the asker.
        ``hint``: what to do next, from the report, said after it; ``still_to_choose``: then
        what the character still lacks of the book's start, with the panel that chooses it.
        The character saved and the report (None: nothing changed)."""
        stored = await find_character(interaction, name)
        await require_change(interaction, stored)
        new, report = rule(stored.character)
        if new == stored.character:
            language = await person_language(interaction)
            summary = escaped_summary(render(report.summary, language))
            await interaction.response.send_message(
                render(phrase("Nothing changed: {summary}", summary=summary), language),
                ephemeral=True)
            return None
        saved = await save_change(interaction, stored, new)
        language = await channel_language(interaction)
        after = hint(report, language) if hint is not None else ""
        if still_to_choose:
            after += panel_hint(new, language)
        await interaction.response.send_message(
            f"{emoji} {escaped_summary(render(report.summary, language))}{after}")
        return saved, report

    # -- making, listing, renaming, deleting --------------------------------------------

    @app_commands.command(name="create", description="Make a character: your PC, or an NPC (GMs).")
    @app_commands.describe(
        name="The character's name (1-32 characters, unique on this server); leave it out "
             "for a form with the concept and description too",
        level="Level and max level (1-99; the book starts characters at 50)",
        npc="An NPC, run by the GMs (only GMs make NPCs)",
    )
    async def create(
        self, interaction: discord.Interaction[Any],
        name: app_commands.Transform[str, Text(NAME_LIMIT)] | None = None,
        level: app_commands.Range[int, MIN_LEVEL, MAX_LEVEL] = 50,
        npc: bool = False,
    ) -> None:
        require_guild(interaction)
        if npc:
            await require_gm(interaction, phrase("create an NPC"))
        if name is None:
            await interaction.response.send_modal(CreateModal(
                level=level, npc=npc, language=await person_language(interaction)))
            return
        await create_character(interaction, Character.new(clean_name(name), npc=npc,
                                                          level=level))

    @app_commands.command(name="copy", description="Numbered NPC copies of a character (GMs).")
    @app_commands.describe(
        character="The character to copy, with its items and abilities",
        count=f"How many copies (1-{COPY_LIMIT})",
        name="What the copies are called before their number (default: the character's name)",
    )
    @app_commands.autocomplete(character=any_character)
    async def copy(
        self, interaction: discord.Interaction[Any], character: CharacterOption,
        count: app_commands.Range[int, 1, COPY_LIMIT],
        name: app_commands.Transform[str, Text(NAME_LIMIT)] | None = None,
    ) -> None:
        text = await copy_character(interaction, character, count, name)
        await interaction.response.send_message(render(text, await channel_language(interaction)))

    @app_commands.command(name="list", description="The characters of this server.")
    async def list_characters(self, interaction: discord.Interaction[Any]) -> None:
        guild_id = require_guild(interaction)
        content, view = list_page(await self.bot.store.characters.list(guild_id), 0,
                                  await person_language(interaction))
        if view is None:
            await interaction.response.send_message(content, ephemeral=True)
        else:
            await interaction.response.send_message(content, view=view, ephemeral=True)

    @app_commands.command(name="rename", description="Give a character a new name.")
    @app_commands.describe(character=CHARACTER_HELP, new_name="The new name (1-32 characters)")
    @app_commands.autocomplete(character=changeable_character)
    async def rename_character(
        self, interaction: discord.Interaction[Any], character: CharacterOption,
        new_name: app_commands.Transform[str, Text(NAME_LIMIT)],
    ) -> None:
        stored = await find_character(interaction, character)
        await require_change(interaction, stored, "rename")
        new = rename(stored.character, clean_name(new_name))
        saved = await save_change(interaction, stored, new)
        await interaction.response.send_message(render(phrase(
            "✏️ {old} is now called {new}.", old=bold_name(stored.name),
            new=bold_name(saved.name)), await channel_language(interaction)))

    @app_commands.command(name="delete", description="Delete a character (asks to confirm).")
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=changeable_character)
    async def delete(
        self, interaction: discord.Interaction[Any], character: CharacterOption
    ) -> None:
        stored = await find_character(interaction, character)
        await require_change(interaction, stored, "delete")
        language = await channel_language(interaction)
        view = delete_buttons(stored, language)
        asked = {"user": interaction.user.mention, "name": bold_name(stored.name),
                 "who": who_and_level(stored, language)}
        await interaction.response.send_message(render(
            phrase("🗑️ {user} asks to delete {name} ({who}). It cannot be undone: a GM "
                   "confirms with **Delete character**.", **asked) if stored.npc else
            phrase("🗑️ {user} asks to delete {name} ({who}). It cannot be undone: its owner "
                   "or a GM confirms with **Delete character**.", **asked), language),
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
        name: app_commands.Transform[str, Text(ITEM_NAME_LIMIT)],
        kind: app_commands.Transform[str, OneOf(KIND_CHOICES)],
        location: app_commands.Transform[str, OneOf(LOCATION_CHOICES)] | None = None,
        less_lethal: bool = False, ability: AbilityOption | None = None,
    ) -> None:
        await self._change(interaction, character, "🎒", lambda c: add_item(
            c, clean_name(name), kind, rules=RULES, location=location,
            less_lethal=less_lethal, ability=ability,
        ), still_to_choose=True)

    @item.command(name="remove", description="Take an item off a character's sheet.")
    @app_commands.describe(character=CHARACTER_HELP, item="The item (its number or name)")
    @app_commands.autocomplete(character=changeable_character, item=any_item)
    async def item_remove(
        self, interaction: discord.Interaction[Any], character: CharacterOption, item: ItemOption
    ) -> None:
        await self._change(interaction, character, "🎒", lambda c: remove_item(
            c, item_ref(c, item), rules=RULES
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
            c, item_ref(c, item), hand, rules=RULES
        ), still_to_choose=True)

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
            found = combat_ability_named(ability)
            if found is not None:
                return add_ability(c, found.id, rules=RULES)
            if ability.strip().casefold().startswith("good at"):
                return add_good_at(c, ability, rules=RULES)
            raise UserError(phrase(
                "There is no combat ability “{ability}”. Pick one from the list, or write "
                "“good at …” for a non-combat ability, as in “good at forensics”.",
                ability=echo(ability)))

        await self._change(interaction, character, "✨", rule, still_to_choose=True)

    @ability.command(name="remove", description="Take an ability off a character.")
    @app_commands.describe(character=CHARACTER_HELP, ability="One of the character's abilities")
    @app_commands.autocomplete(character=changeable_character, ability=ability_to_remove)
    async def ability_remove(
        self, interaction: discord.Interaction[Any], character: CharacterOption,
        ability: AbilityOption,
    ) -> None:
        def rule(c: Character) -> tuple[Character, Any]:
            found = combat_ability_named(ability, among=c.abilities)
            if found is not None:
                return remove_ability(c, found.id, rules=RULES)
            activity = activity_text(ability)
            if activity.casefold() in {a.casefold() for a in c.good_at}:
                return remove_good_at(c, activity, rules=RULES)
            raise UserError(phrase("{name} has no ability “{ability}”: pick one from the list.",
                                   name=bold_name(c.name), ability=echo(ability)))

        await self._change(interaction, character, "✨", rule)

    # -- who they are, beyond the fight ----------------------------------------------------

    @app_commands.command(name="panel", description="Choose what a character still lacks: "
                                                     "abilities, items, the item in hand.")
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=changeable_character)
    async def panel(self, interaction: discord.Interaction[Any],
                    character: CharacterOption) -> None:
        stored = await find_character(interaction, character)
        await require_change(interaction, stored)
        language = await person_language(interaction)
        await interaction.response.send_message(
            panel_content(stored.character, language), view=panel_view(stored, language),
            ephemeral=True)

    @app_commands.command(name="describe", description="A character's concept and description.")
    @app_commands.describe(
        character=CHARACTER_HELP,
        concept=f"Who they are, in a few words (up to {CONCEPT_LIMIT} characters; - clears it)",
        description=f"How they look and come across (up to {DESCRIPTION_LIMIT}; - clears it)",
    )
    @app_commands.autocomplete(character=changeable_character)
    async def describe_character(
        self, interaction: discord.Interaction[Any], character: CharacterOption,
        concept: app_commands.Transform[str, Text(CONCEPT_LIMIT)] | None = None,
        description: app_commands.Transform[str, Text(DESCRIPTION_LIMIT)] | None = None,
    ) -> None:
        await self._change(interaction, character, "📝", lambda c: describe(
            c, concept=_cleared(concept), description=_cleared(description)))

    @gear.command(name="add", description="A non-combat item (takes no slot; the GM agrees).")
    @app_commands.describe(character=CHARACTER_HELP,
                           name="What it is, e.g. lock picks (1-40 characters)")
    @app_commands.autocomplete(character=changeable_character)
    async def gear_add(
        self, interaction: discord.Interaction[Any], character: CharacterOption,
        name: app_commands.Transform[str, Text(ITEM_NAME_LIMIT)],
    ) -> None:
        await self._change(interaction, character, "🧳", lambda c: add_gear(c, clean_name(name)))

    @gear.command(name="remove", description="Take a non-combat item off a character.")
    @app_commands.describe(character=CHARACTER_HELP, name="One of its non-combat items")
    @app_commands.autocomplete(character=changeable_character, name=carried_gear)
    async def gear_remove(
        self, interaction: discord.Interaction[Any], character: CharacterOption,
        name: app_commands.Transform[str, Text(ITEM_NAME_LIMIT)],
    ) -> None:
        await self._change(interaction, character, "🧳", lambda c: remove_gear(c, name))

    # -- between sessions ----------------------------------------------------------------

    @app_commands.command(
        name="advance", description="A session's goal was met: max level +1 (up to 99)."
    )
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=changeable_character)
    async def advance_character(
        self, interaction: discord.Interaction[Any], character: CharacterOption
    ) -> None:
        changed = await self._change(interaction, character, "⬆️", advance, _choose_hint)
        if changed is not None and (changed[1].new_slot or changed[1].new_ability):
            await send_panel(interaction, changed[0])  # to fill what the advance brought

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
        language = await person_language(interaction)
        message = render(phrase("📤 {name} as JSON: copy it, then `/character import` and "
                                "paste it.", name=bold_name(stored.name)),
                         language) + f"\n```json\n{text}\n```"
        if len(message) <= MESSAGE_LIMIT:
            await interaction.response.send_message(message, ephemeral=True)
            return
        # Only names full of characters JSON escapes (" and \) get here.
        slug = re.sub(r"[^A-Za-z0-9_-]+", "-", stored.name).strip("-") or "character"
        await interaction.response.send_message(
            render(phrase("📤 {name} as JSON is too long for one message, so it is attached: "
                          "open it, copy it, then `/character import` and paste it.",
                          name=bold_name(stored.name)), language),
            file=discord.File(io.BytesIO(text.encode("utf-8")), filename=f"{slug}.json"),
            ephemeral=True,
        )

    @app_commands.command(name="import", description="Paste a character from /character export.")
    async def import_(self, interaction: discord.Interaction[Any]) -> None:
        require_guild(interaction)
        await interaction.response.send_modal(ImportModal(await person_language(interaction)))



class SheetCog(commands.Cog):
    @app_commands.command(name="sheet", description="Show a character's sheet to the table.")
    @app_commands.describe(character="Whose sheet (default: your PC)")
    @app_commands.autocomplete(character=any_character)
    @app_commands.guild_only()
    async def sheet(
        self, interaction: discord.Interaction[Any], character: CharacterOption | None = None
    ) -> None:
        guild_id = require_guild(interaction)
        note, pcs = "", 0
        if character is not None and character.strip():
            stored = await find_character(interaction, character)
        else:
            bot: Host = interaction.client
            latest, count = await bot.store.characters.latest_pc(guild_id, interaction.user.id)
            if latest is None:
                raise UserError(phrase(
                    "You have no PC on this server: `/character create` makes one, or name "
                    "a character with `/sheet character:`."))
            stored, pcs = latest, count
        private = await hidden_in_fight(interaction, stored)
        # Shown to the table in the channel's language; a hidden figure to its GM alone.
        language = await (person_language if private else channel_language)(interaction)
        if pcs > 1:
            note = "-# " + render(phrase(
                "Your most recently changed PC of {count}; name another with `character:`.",
                count=pcs), language) + "\n"
        shown, where = await as_it_stands(interaction, stored, language)
        note = where + note
        first, *more = sheet_messages(shown, language)
        if len(note) + len(first) > MESSAGE_LIMIT:
            note = ""
        await interaction.response.send_message(note + first, ephemeral=private)
        for message in more:
            await interaction.followup.send(message, ephemeral=private)


async def setup(bot: Host) -> None:
    bot.add_dynamic_items(DeleteCharacterButton, PanelMenu, GoodAtButton, OpenPanelButton,
                          ListPageButton)
    # The import, creation, good-at and item forms' submits, answered from their custom ids
    # (see :class:`ImportModal`).
    bot.answers_form(IMPORT_MODAL_ID, lambda interaction, _, text: submit_import(interaction, text))
    bot.answers_form(CREATE_MODAL_ID,
                     lambda interaction, match, _: submit_create(interaction, match))
    bot.answers_form(GOOD_AT_FORM, lambda interaction, match, _: submit_good_at(interaction, match))
    bot.answers_form(ITEM_FORM, lambda interaction, match, _: submit_item(interaction, match))
    await bot.add_cog(CharacterCog(bot))
    await bot.add_cog(SheetCog())
