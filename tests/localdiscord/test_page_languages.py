"""The local table's language switches in a real browser, with the bot: a player whose
client is set to Deutsch reads the bot's answers to them and the commands' descriptions in
German while another reads English; the GM sets the server's preferred language, and
`/settings language: server default` follows it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from localdiscord import LocalDiscord
from tests.localdiscord.browser import WAIT_MS, Page, need_browser, open_browser, open_page

HELP_DE = "Wo man anfängt und wie jeder Teil von Unhex funktioniert"
HELP_EN = "Where to start, and how each part of Unhex works"


@pytest.fixture
async def page(discord: LocalDiscord, bot: Path) -> AsyncIterator[Page]:
    need_browser()
    errors: list[str] = []
    async for browser in open_browser():
        yield await open_page(browser, f"{discord.base}/#{discord.channel('tavern').id}",
                              errors, welcomed=True)
    assert not errors, errors


async def _described(table: Page, command: str, description: str) -> None:
    """The composer lists ``/command`` with ``description``."""
    await table.page.locator("input.prompt").fill(f"/{command}")
    entry = table.page.locator(".palette li").filter(
        has=table.page.locator("strong", has_text=f"/{command}")).first
    await entry.locator(".hint", has_text=description).wait_for(timeout=WAIT_MS)


async def _speak(table: Page, select: str, language: str, marked: str) -> None:
    await table.page.select_option(select, label=language)
    await table.page.locator(f"body[{marked}]").wait_for(timeout=WAIT_MS)


async def test_each_person_reads_the_bot_in_their_own_language(
        page: Page, discord: LocalDiscord) -> None:
    table = page
    await table.be("alice")
    offered = await table.page.locator("#language option").all_inner_texts()
    assert "Deutsch" in offered and "English, US" in offered
    assert await table.page.locator("#server-language-box").is_hidden()  # a player's page
    await _speak(table, "#language", "Deutsch", "data-locale=de")
    assert discord.locale_of(discord.user("alice").id) == "de"
    await _described(table, "help", HELP_DE)
    await table.slash("help")
    await table.message("Neu hier?").wait_for(timeout=WAIT_MS)

    await table.be("bob")
    assert await table.page.locator("#language").input_value() == "en-US"
    await _described(table, "help", HELP_EN)
    await table.slash("help")
    await table.message("New here?").wait_for(timeout=WAIT_MS)
    assert not await table.message("Neu hier?").count()  # alice's answer: hers alone

    await table.be("gamemaster")
    await _speak(table, "#server-language", "Deutsch", "data-guild-locale=de")
    assert discord.guild.preferred_locale == "de"
    await table.slash("settings language", language="server default")
    said: Any = table.message("Der Bot spricht")
    await said.wait_for(timeout=WAIT_MS)
    assert "Deutsch" in await said.inner_text()
    await _described(table, "help", HELP_EN)  # the GM's own client is still in English
