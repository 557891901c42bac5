"""The local table's page as a newcomer found it, at a phone's width: the welcome card shown
to an empty table only, its example told as the bot answered it and changing nothing the
second time; whom the fight waits for marked in "Who you are"; an answer to what you did
brought into view; the pinned messages' panel kept live; a stopped server said so, with how to
start it again; the page's own icons drawn, not emoji."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.local_table import local_discord
from localdiscord import LocalDiscord
from localdiscord.model import Attachment, Channel, Message, snowflake
from testbed.postgres_server import free_port
from tests.localdiscord.browser import WAIT_MS, Page, need_browser, open_browser, open_phone

#: The page's own chrome, drawn with its icons (the bot's messages keep their emoji).
CHROME = ("#topbar", ".channel.thread .mark", ".message.system", ".pinned", ".only-you",
          ".attachment .file", ".notice", "#offline")
#: Whether ``node`` (a message) is in the channel's view: all of it, or its top when taller.
IN_VIEW = """node => {
  const box = document.querySelector('#messages').getBoundingClientRect();
  const at = node.getBoundingClientRect();
  const top = at.top >= box.top - 1 && at.top < box.bottom;
  return top && (at.bottom <= box.bottom + 1 || at.height > box.height);
}"""


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {"UNHEX_DICE_SEED": "12"}  # the PCs win initiative: alice chooses who acts first


async def _chrome_without_emoji(table: Page) -> None:
    """Each piece of the page's chrome shown has an icon and no emoji."""
    found = await table.page.evaluate("""selectors => selectors.flatMap(selector =>
        [...document.querySelectorAll(selector)].filter(n => n.getClientRects().length)
          .map(n => [selector, n.textContent, Boolean(n.querySelector('svg'))]))""",
                                      list(CHROME))
    for selector, text, drawn in found:
        assert drawn, selector
        assert not any(0x2190 <= ord(c) <= 0x2BFF or ord(c) >= 0x1F000 for c in text), \
            (selector, text)


async def _in_view(table: Page, message: Any) -> bool:
    return bool(await message.evaluate(IN_VIEW))


async def _welcome_example_twice(table: Page, discord: LocalDiscord) -> None:
    """The card on an empty table; the example told as the bot answered; again: nothing."""
    page, card = table.page, table.page.locator("#welcome")
    status = page.locator("#welcome-status")
    assert await card.is_visible()  # nothing was said at this table yet
    await page.get_by_role("button", name="Set up an example").click()
    await status.filter(has_text="The bot accepted 14 of 14 commands.").wait_for(timeout=60_000)
    await page.get_by_role("button", name="Start the example fight").click()
    await table.message("Rat joins the fight").wait_for(timeout=30_000)
    await card.wait_for(state="hidden")

    await page.get_by_role("button", name="Getting started").click()  # ? brings it back
    await page.get_by_role("button", name="Set up an example").click()
    await status.filter(has_text="Nothing to do").wait_for(timeout=WAIT_MS)
    assert "Ana, Bram, Goon and Rat" in await status.inner_text()
    await page.get_by_role("button", name="Start the example fight").click()
    await status.filter(has_text="the fight, Ana, Bram, Goon and Rat").wait_for(timeout=WAIT_MS)
    tavern = [m.content for m in discord.channel_messages("tavern")]
    assert sum("Knife" in text and "carries" in text for text in tavern) == 2  # Ana's, Goon's
    assert sum("A fight starts" in m.content for m in discord.channel_messages("fight")) == 1
    await page.get_by_role("button", name="Close — I'll type my own commands").click()
    await card.wait_for(state="hidden")


async def test_a_newcomer_plays_the_example_on_a_phone(discord: LocalDiscord,
                                                       bot: Path) -> None:
    need_browser()
    errors: list[str] = []
    async for browser in open_browser():
        table = await open_phone(browser, f"{discord.base}/", errors)
        await _chrome_without_emoji(table)
        await _welcome_example_twice(table, discord)
        later = await open_phone(browser, f"{discord.base}/", errors)  # another browser, mid-fight
        assert not await later.page.locator("#welcome").is_visible()

        page = table.page
        await table.slash("combat begin")
        asked = page.locator("#asked .member.asked")
        await asked.filter(has_text="alice").wait_for(timeout=WAIT_MS)  # won initiative
        assert await page.locator("#menu.asking").count() == 1  # not the GM: ☰ says so
        await page.get_by_role("button", name="Channels", exact=True).click()
        await asked.filter(has_text="alice").click()  # be the one asked
        await page.locator("#me", has_text="alice").wait_for()
        await table.press("PCs first", on="won initiative")
        await asked.filter(has_text="bob").wait_for(timeout=WAIT_MS)  # the PCs' turn
        assert sorted(t.strip() for t in await asked.all_inner_texts()) == ["alice", "bob"]
        assert await page.locator("#who option.asked").count() == 2

        # An answer to what you did is brought into view, even read from further up meanwhile.
        box = page.locator("#messages")
        pressed = box.get_by_role("button", name="My options").last
        await pressed.evaluate("button => { button.click(); "
                               "document.querySelector('#messages').scrollTop = 0; }")
        await page.wait_for_function("() => !document.querySelector('.button.busy')")
        options = page.locator("#messages .message.ephemeral").last
        await options.wait_for()
        assert await _in_view(table, options)
        await box.evaluate("box => { box.scrollTop = 0; }")
        await table.slash("sheet", character="Ana")
        sheet = table.message("Ana · PC")
        await sheet.wait_for()
        await page.wait_for_function(f"() => ({IN_VIEW})("
                                     "[...document.querySelectorAll('#messages .message')]"
                                     ".filter(m => m.innerText.includes('Ana · PC')).pop())",
                                     timeout=WAIT_MS)
    assert not errors, errors


async def _quiet(kept: Path, port: int) -> LocalDiscord:
    """The local table without the bot (its one command synced, as the bot would), a thread
    in #fight, started on ``port``."""
    server = local_discord(kept)
    fight = server.channel("fight")
    thread = Channel(snowflake(), fight.guild_id, "Round talk", kind=11, parent_id=fight.id)
    server.guild.channels[thread.id] = thread
    server.commands[None] = [{"id": "1", "name": "roll", "description": "Roll", "type": 1,
                              "options": []}]
    return await server.start(port)


@pytest.fixture
async def quiet_table(tmp_path: Path) -> AsyncIterator[tuple[LocalDiscord, int]]:
    """:func:`_quiet`, and its port to start it again there."""
    port = free_port()
    server = await _quiet(tmp_path / "db.sqlite3.discord.json", port)
    try:
        yield server, port
    finally:
        await server.stop()


def _say(server: LocalDiscord, text: str, **more: Any) -> Message:
    fight = server.channel("fight")
    return server.post(Message(snowflake(), fight.id, server.guild.id, server.bot_user,
                               content=text, **more))


PROMPT = {"type": 1, "components": [
    {"type": 2, "style": 1, "label": "Defend", "custom_id": "defend"}]}


async def test_the_page_keeps_up_and_says_when_the_table_stopped(
        quiet_table: tuple[LocalDiscord, int], tmp_path: Path) -> None:
    need_browser()
    server, port = quiet_table
    alice, gm = server.user("alice"), server.user("gamemaster")
    board = _say(server, "Round 1 board")
    for n in range(30):
        _say(server, f"line {n}\n" * 3)
    errors: list[str] = []
    async for browser in open_browser():
        table = await open_phone(browser, f"{server.base}/#{board.channel_id}", errors)
        page = table.page
        assert not await page.locator("#welcome").is_visible()  # the table has messages

        # Whom a live prompt asks: those it mentions, the GM for a GM's question.
        asking = _say(server, f"**Ana** (<@{alice.id}>) is attacked: defend?\n"
                              "**Goon (GM)** is attacked", components=[PROMPT])
        asked = page.locator("#asked .member.asked")
        await asked.filter(has_text="alice").wait_for()
        assert sorted(t.strip() for t in await asked.all_inner_texts()) == ["alice", "gamemaster"]
        asking.components = []  # answered: its buttons gone
        server.edited(asking, content_changed=False)
        await asked.first.wait_for(state="detached")

        # Another's message is followed only when the channel is read at its newest.
        box = page.locator("#messages")
        await box.evaluate("box => { box.scrollTop = 0; }")
        _say(server, "someone else's news")
        await table.message("someone else's news").wait_for(state="attached")
        assert await box.evaluate("box => box.scrollTop") == 0

        # The pinned messages' panel follows a pin, an edit and an unpin while open.
        pins = page.locator("#pins")
        await page.get_by_role("button", name="Pinned messages", exact=True).click()
        await pins.filter(has_text="any pinned messages").wait_for()
        server.set_pinned(board, True)
        await pins.filter(has_text="Round 1 board").wait_for()
        board.content = "Round 2 board"
        server.edited(board, content_changed=True)
        await pins.filter(has_text="Round 2 board").wait_for()
        server.set_pinned(board, False)
        await pins.filter(has_text="any pinned messages").wait_for()
        await page.get_by_role("button", name="Pinned messages", exact=True).click()
        server.set_pinned(board, True)  # for Discord's notice, with its pin icon

        _say(server, "a file", attachments=[Attachment(snowflake(), "log.txt", b"log")])
        _say(server, "only you", flags=64, visible_to=gm.id)
        await table.message("only you").wait_for()
        await page.get_by_role("button", name="Channels", exact=True).click()  # the thread's mark

        # Stopped: the page says so and how to start it; back, it reads the table again.
        await server.stop()
        offline = page.locator("#offline")
        await offline.wait_for(timeout=WAIT_MS)
        assert "make run" in await offline.inner_text()
        await page.locator("#messages").click(position={"x": 330, "y": 200})  # beside them
        await page.locator("input.prompt").fill("/roll")
        await page.locator(".palette li").first.click()
        await page.locator("form.command button.send").click()
        notice = page.locator(".notice[role=status]")
        await notice.wait_for()
        assert "Failed to fetch" not in await notice.inner_text()
        assert "make run" in await notice.inner_text()
        await page.get_by_role("button", name="Channels", exact=True).click()
        await _chrome_without_emoji(table)

        again = await _quiet(tmp_path / "db.sqlite3.discord.json", port)
        try:
            _say(again, "back again")
            await table.message("back again").wait_for(timeout=WAIT_MS)
            await offline.wait_for(state="hidden")
        finally:
            await again.stop()
    assert not errors, errors
