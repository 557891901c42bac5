"""`/help [topic:]`: one page of :mod:`.pages` at a time, just for the asker, with buttons to
the previous and the next page (around from the last to the first). Each button's custom id
names the page it opens, so the buttons keep working after a restart; a press edits the
asker's own copy. It works in a direct message as well as in a server."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.help.pages import FOOTER, PAGES, HelpPage, page_named
from bot.components import PersistentButton, button_row
from bot.custom_ids import CustomId, choice
from bot.i18n import N_, SOURCE, person_language, translated
from bot.options import OneOf

__all__ = ["HelpCog", "HelpPageButton", "help_page"]

Topic = app_commands.Transform[str, OneOf([app_commands.Choice(name=page.name, value=page.key)
                                           for page in PAGES])]


def help_page(key: str, language: str = SOURCE) -> tuple[str, discord.ui.View]:
    """The page of ``key`` in ``language``, with where it is, and its buttons to the pages
    either side."""
    page = page_named(key)
    number = PAGES.index(page)
    before, after = PAGES[number - 1], PAGES[(number + 1) % len(PAGES)]
    footer = translated(FOOTER, language).format(number=number + 1, count=len(PAGES))
    content = f"{translated(page.text, language)}\n{footer}"
    view = button_row(HelpPageButton(before, "previous", language),
                      HelpPageButton(after, "next", language))
    view.stop()  # answered from the custom ids (the dynamic items), not kept in memory
    return content, view


class HelpPageButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=CustomId("help", choice("page", *(page.key for page in PAGES)),
                     choice("way", "previous", "next")),
):
    """A button under a `/help` page: the page it names, labelled with that page's name."""

    def __init__(self, page: HelpPage, way: str, language: str = SOURCE) -> None:
        name = translated(page.name, language)
        label = f"◀ {name}" if way == "previous" else f"{name} ▶"
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary,
            custom_id=self.id_spec.format(page=page.key, way=way)))
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> HelpPageButton:
        return cls(page_named(match["page"]), match["way"])

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        content, view = help_page(self.page.key, await person_language(interaction))
        await interaction.response.edit_message(content=content, view=view)


class HelpCog(commands.Cog, name="Help"):
    @app_commands.command(name="help", description=N_("Where to start, and how each part of "
                                                      "Unhex works, a page at a time."))
    @app_commands.describe(topic=N_("The page to open (default: where to start)"))
    async def help(self, interaction: discord.Interaction[Any],
                   topic: Topic | None = None) -> None:
        content, view = help_page(topic or PAGES[0].key, await person_language(interaction))
        await interaction.response.send_message(content, view=view, ephemeral=True)
