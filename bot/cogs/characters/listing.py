"""`/character list`: the server's characters in natural order (Goon 2 before Goon 10), the NPC
copies that read the same on one line as the board folds them ("Thug 1-30 · NPC, level 20/20 ·
fine"), a page at a time with **Previous** and **Next**.

The list is only useful to the asker, so it is ephemeral: paging it edits their copy alone,
and nobody else can press its buttons. Each button's custom id carries the page it shows;
a press reads the server's characters as they are then (a page past the end shows the last).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.cogs.characters.common import MESSAGE_LIMIT, RULES, bold_name, characters_store
from bot.cogs.characters.transfer import who_and_level
from bot.components import PersistentButton, button_row
from bot.custom_ids import CustomId, choice, digits
from bot.i18n import N_, person_language, render, translated
from bot.numbered import natural_key
from bot.permissions import require_guild
from bot.store.values import StoredCharacter
from engine.character import status
from engine.combat.crowd import Row, group_copies
from engine.phrases import phrase
from engine.sheet import STATUS_WORDS

__all__ = ["ListPageButton", "list_page"]

#: The most lines a page lists: about a phone's screenful.
PAGE_LINES = 20
#: Pages beyond this are not offered (a forged custom id's page is read as the last).
_PAGE_DIGITS = 4
NO_CHARACTERS = N_("This server has no characters yet: `/character create` makes one.")


def list_lines(stored: Sequence[StoredCharacter], language: str) -> list[str]:
    """One line per character, in natural order, NPC copies that read the same folded into
    one ("Thug 1-30"), as the board folds them."""
    rows = [Row(name=s.name, team=who_and_level(s, language), area="", level="",
                state=render(STATUS_WORDS[status(s.character, rules=RULES)], language),
                npc=s.npc)
            for s in sorted(stored, key=lambda s: natural_key(s.name))]
    return [f"• {bold_name(row.name)} · {row.team} · {row.state}" for row in group_copies(rows)]


def _header(count: int, page: int, pages: int, language: str) -> str:
    if pages > 1:
        return render(phrase("🧍 **Characters on this server** ({count}), page {page} of "
                             "{pages}:", count=count, page=page + 1, pages=pages), language)
    return render(phrase("🧍 **Characters on this server** ({count}):", count=count), language)


def _pages(lines: list[str], count: int, language: str) -> list[list[str]]:
    """``lines`` in pages of at most PAGE_LINES lines that fit a message with their header."""
    room = MESSAGE_LIMIT - len(_header(count, 10 ** _PAGE_DIGITS, 10 ** _PAGE_DIGITS,
                                       language)) - 1
    pages: list[list[str]] = [[]]
    for line in lines:
        page = pages[-1]
        if page and (len(page) == PAGE_LINES or len("\n".join([*page, line])) > room):
            pages.append(page := [])
        page.append(line)
    return pages


def list_page(stored: Sequence[StoredCharacter], page: int,
              language: str) -> tuple[str, discord.ui.View | None]:
    """Page ``page`` (0-based; past the end: the last) of the list in ``language``, and its
    paging buttons (None when everything fits one page)."""
    if not stored:
        return render(NO_CHARACTERS, language), None
    pages = _pages(list_lines(stored, language), len(stored), language)
    page = max(0, min(page, len(pages) - 1))
    content = "\n".join([_header(len(stored), page, len(pages), language), *pages[page]])
    if len(pages) == 1:
        return content, None
    view = button_row(ListPageButton(page - 1, "previous", disabled=page == 0,
                                     language=language),
                      ListPageButton(page + 1, "next", disabled=page == len(pages) - 1,
                                     language=language))
    view.stop()  # answered from the custom ids (the dynamic items), not kept in memory
    return content, view


class ListPageButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=CustomId("character-list", digits("page", _PAGE_DIGITS, signed=True),
                     choice("way", "previous", "next")),
):
    """**Previous** or **Next** under `/character list`: the page it names, as the server's
    characters are now."""

    def __init__(self, page: int, way: str, *, disabled: bool = False,
                 language: str = "en") -> None:
        super().__init__(discord.ui.Button(
            label=(translated("Previous", language) if way == "previous"
                   else translated("Next", language)),
            style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=self.id_spec.format(page=page, way=way),
        ))
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> ListPageButton:
        return cls(int(match["page"]), match["way"])

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        guild_id = require_guild(interaction)
        stored = await characters_store(interaction).list(guild_id)
        content, view = list_page(stored, self.page, await person_language(interaction))
        await interaction.response.edit_message(content=content, view=view)
