"""The local table's composer in a real browser, as a newcomer types in it: the best match
first and sent or opened by Enter, the arrow keys and Tab; options typed on the line and
checked as Discord's client checks them; an unknown command or a missing required option
said at the composer, nothing sent; plain text a message in the channel, as the person."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from localdiscord import LocalDiscord
from localdiscord.gateway import Session
from tests.localdiscord.browser import WAIT_MS, Page, need_browser, open_browser, open_page


@pytest.fixture
async def page(discord: LocalDiscord) -> AsyncIterator[Page]:
    """The page, opened once the bot's commands are there (the test's own, or the bot's)."""
    need_browser()
    errors: list[str] = []
    async for browser in open_browser():
        yield await open_page(browser, f"{discord.base}/#{discord.channel('tavern').id}",
                              errors, welcomed=True)
    assert not errors, errors


def _sent(discord: LocalDiscord) -> list[dict[str, Any]]:
    """The data of every command sent to the bot so far."""
    return [e["d"]["data"] for e in discord.gateway.sessions[0].events
            if e["t"] == "INTERACTION_CREATE" and e["d"]["type"] == 2]


async def _until_sent(discord: LocalDiscord, count: int) -> dict[str, Any]:
    """The ``count``-th command sent, once the page has sent it."""
    for _ in range(WAIT_MS // 50):
        if len(_sent(discord)) >= count:
            return _sent(discord)[count - 1]
        await asyncio.sleep(0.05)
    raise AssertionError(f"the page sent {len(_sent(discord))} commands, not {count}")


async def _type(table: Page, line: str, key: str = "Enter") -> None:
    prompt = table.page.locator("input.prompt")
    await prompt.fill(line)
    await prompt.press(key)


async def _told(table: Page, text: str) -> None:
    """The composer says ``text`` (and the typed line stays, to be put right)."""
    await table.page.locator("#composer [role=alert]", has_text=text).wait_for()


async def _opened(table: Page, command: str) -> Any:
    form = table.page.locator(f'form.command[data-command="{command}"]')
    await form.wait_for()
    return form


async def _focused(table: Page) -> str:
    return str(await table.page.evaluate("document.activeElement.name"))


async def _best_match_first(table: Page) -> None:
    """Enter takes the best match: the name itself before names that contain it."""
    for typed in ("move", "defend", "item hold"):
        await _type(table, f"/{typed}")
        await (await _opened(table, typed)).get_by_role("button", name="Close").click()
    await table.page.locator("input.prompt").fill("/end")  # no /end: words starting with it
    first = table.page.locator(".palette li[aria-selected=true] strong")
    assert await first.inner_text() == "/combat end"

    await table.page.locator("input.prompt").fill("/character")
    entries = await table.page.locator(".palette li strong").all_inner_texts()
    await table.page.locator("input.prompt").press("ArrowDown")
    await table.page.locator("input.prompt").press("ArrowDown")
    await table.page.locator("input.prompt").press("ArrowUp")
    assert await first.inner_text() == entries[1]
    await table.page.locator("input.prompt").press("Enter")
    await (await _opened(table, entries[1][1:])).get_by_role("button", name="Close").click()

    await _type(table, "/hel", "Tab")
    assert await table.page.locator("input.prompt").input_value() == "/help "
    await table.page.locator("input.prompt").press("Enter")  # its options left out: its form
    await (await _opened(table, "help")).get_by_role("button", name="Send").click()
    await table.message("New here?").wait_for(timeout=WAIT_MS)


async def _options_on_the_line(table: Page, discord: LocalDiscord) -> None:
    """``name:value`` options read and typed as the command declares them; a quoted value
    may hold what looks like another option."""
    await _type(table, '/roll level:50 good:1 note:"the door: level:7"')
    await table.message("the door: level:7").wait_for(timeout=WAIT_MS)
    leaf = _sent(discord)[-1]["options"]
    assert leaf == [{"name": "level", "type": 4, "value": 50},
                    {"name": "good", "type": 5, "value": True},
                    {"name": "note", "type": 3, "value": "the door: level:7"}]
    await _type(table, "/map show name:Club view:Grid")  # a choice by its name
    await table.page.locator(".sending").wait_for(state="detached", timeout=WAIT_MS)
    assert _sent(discord)[-1]["options"][0]["options"][1] == {
        "name": "view", "type": 3, "value": "grid"}


async def _refused_at_the_page(table: Page, discord: LocalDiscord) -> None:
    """What Discord's client would not send is said at the composer, and not sent."""
    before = len(_sent(discord))
    for line, said in (
            ("/roll level:500", "level takes a whole number from 1 to 99; “500” is not one"),
            ("/roll level:fifty", "level takes a whole number from 1 to 99"),
            ("/roll good:maybe", "good takes true or false; “maybe” is not one"),
            ("/map show name:Club view:sideways", "view takes one of: grid, list"),
            ("/roll levle:5", "/roll has no option levle; its options: level, good"),
            ("/nosuch", "No command /nosuch — type / to see the bot's commands")):
        await _type(table, line)
        await _told(table, said)
        assert await table.page.locator("input.prompt").input_value() == line

    await _type(table, "/map new")  # a required option: its fields open
    form = await _opened(table, "map new")
    await form.get_by_role("button", name="Send").click()
    await _told(table, "/map new needs name")
    assert await _focused(table) == "name"
    await table.page.keyboard.press("Escape")  # back to the line
    await _type(table, "/map show view:list")  # what was typed kept, the missing one asked
    form = await _opened(table, "map show")
    await _told(table, "/map show needs name")
    assert await form.locator('[name="view"]').input_value() == "list"
    assert await _focused(table) == "name"
    assert len(_sent(discord)) == before


async def _plain_text_is_a_message(table: Page, discord: LocalDiscord) -> None:
    await table.be("alice")
    await _type(table, "hello table @everyone")
    said = table.message("hello table")
    await said.wait_for()
    assert "alice" in await said.locator(".author").inner_text()
    assert await table.page.locator("input.prompt").input_value() == ""
    await table.be("bob")  # in the channel for everyone
    assert "alice" in await table.message("hello table").locator(".author").inner_text()
    made = discord.channel_messages("tavern")[-1]
    assert (made.author.name, made.content) == ("alice", "hello table @everyone")
    told = [e["d"] for e in discord.gateway.sessions[0].events
            if e["t"] == "MESSAGE_CREATE" and e["d"]["id"] == str(made.id)]
    assert [(d["mention_everyone"], d["mentions"]) for d in told] == [(False, [])]


async def test_the_composer_as_a_newcomer_types_in_it(bot: Path, page: Page,
                                                      discord: LocalDiscord) -> None:
    await page.be("gamemaster")
    await _best_match_first(page)
    await _options_on_the_line(page, discord)
    await _refused_at_the_page(page, discord)
    await _plain_text_is_a_message(page, discord)


GIVE = {"id": "7", "name": "give", "description": "Give something", "type": 1, "options": [
    {"name": "who", "type": 6, "description": "Who", "required": True},
    {"name": "where", "type": 7, "description": "Where"},
    {"name": "amount", "type": 10, "description": "How much", "min_value": 0.5},
    {"name": "role", "type": 8, "description": "As which role"}]}


@pytest.fixture
async def synced(discord: LocalDiscord) -> Session:
    """A command with a member, a channel, a number and a role, synced; the bot's session
    (nobody answers)."""
    discord.commands[None] = [GIVE]
    return discord.gateway.sessions.setdefault(0, Session((0, 1)))


async def test_members_channels_roles_and_numbers_typed_by_name(
        synced: Session, page: Page, discord: LocalDiscord) -> None:
    for line, said in (("/give who:zed", "who takes a member: gamemaster, alice, bob, carol"),
                       ("/give who:bob where:#nowhere", "where takes a channel: #"),
                       ("/give who:bob amount:0.25", "amount takes a number of at least 0.5"),
                       ("/give who:bob role:Kings", "role takes a role: @everyone, GM")):
        await _type(page, line)
        await _told(page, said)
    assert not _sent(discord)
    await _type(page, "/give who:@Bob where:#fight amount:2.5 role:gm")
    data = await _until_sent(discord, 1)
    bob, fight = discord.user("bob").id, discord.channel("fight").id
    assert data["options"] == [
        {"name": "who", "type": 6, "value": str(bob)},
        {"name": "where", "type": 7, "value": str(fight)},
        {"name": "amount", "type": 10, "value": 2.5},
        {"name": "role", "type": 8, "value": str(discord.guild.id + 1)}]
    assert set(data["resolved"]) == {"users", "members", "channels", "roles"}
