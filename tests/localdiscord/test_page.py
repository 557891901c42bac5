"""The local table through its page alone, in a real browser: a character made with the
form and given an ability and an item through its panel, a map saved, the example fight
started, an attack with its reaction window and damage, undone, the fight ended; a player
refused a GM's button, shown only to them; a page open while the table restarts."""

from __future__ import annotations

import os
import statistics
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.local_table import local_discord
from localdiscord import LocalDiscord
from localdiscord.model import Message, snowflake
from testbed.postgres_server import free_port
from tests.localdiscord.browser import Page, need_browser, open_browser, open_page

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT = ROOT / "docs" / "local-table.png"


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {"UNHEX_DICE_SEED": "12"}  # Bram's rifle hits Goon


@pytest.fixture
async def page(discord: LocalDiscord, bot: Path) -> AsyncIterator[Page]:
    need_browser()
    errors: list[str] = []
    async for browser in open_browser():
        yield await open_page(browser, f"{discord.base}/", errors)
        assert not errors, errors


async def _example_fight(table: Page) -> None:
    await table.page.get_by_role("button", name="Set up an example").click()
    await table.page.get_by_role("button", name="Start the example fight").click(timeout=30_000)
    await table.message("Rat joins the fight").wait_for(timeout=30_000)
    await table.page.locator("#welcome").wait_for(state="hidden")  # the page opened #fight


async def _choose_with_the_panel(table: Page) -> None:
    """Cleo's panel from ``/character panel``, to its player alone: a combat ability from its
    menu, then a knife through its item form (the kind from a menu), held from the menu that
    lists it; the panel redrawn in place after each, and the table told in the channel."""
    panels = table.page.locator("#messages .message.ephemeral", has_text="🧭")
    await panels.first.wait_for()  # the creation form's own panel (it may follow the news)
    before = await panels.count()
    await table.slash("character panel", character="Cleo")
    await panels.nth(before).wait_for()
    panel = table.page.locator(f"#m{await panels.nth(before).get_attribute('data-id')}")
    assert "1 combat ability" in await panel.inner_text()
    told = table.page.locator("#messages .message:not(.ephemeral)")

    await table.pick("Choose a combat ability", "1H Melee…", on=panel)  # its kind first
    await table.pick("Choose a combat ability", "1H Melee: Good Attack", on=panel)
    await told.filter(has_text="✨ Cleo gains 1H Melee: Good Attack.").wait_for()
    await panel.filter(has_not_text="1 combat ability").wait_for()
    await table.pick("Add an item: its kind", "1H melee weapon", on=panel)
    await table.fill_form({"Name": "Knife"})
    await told.filter(has_text="🎒 Cleo carries Knife (1H melee) in slot 1").wait_for()
    await panel.filter(has_text="what to hold when a fight starts").wait_for()
    hold = "In hand when a fight starts (a 1H item per hand, or one 2H)"
    await table.pick(hold, "1. Knife", on=panel)  # the item, listed in the panel's menu
    await told.filter(has_text="✋ Cleo has Knife in the right hand.").wait_for()
    await panel.filter(has_not_text="what to hold").wait_for()
    held = panel.get_by_role("combobox", name=hold)
    assert await held.evaluate("menu => menu.selectedOptions[0].text") == "1. Knife"
    assert await panels.count() == before + 1  # the same panel, redrawn


async def test_a_fight_through_the_page(page: Page, discord: LocalDiscord) -> None:
    await page.be("alice")
    await page.channel("tavern")
    await page.slash("character create")
    await page.fill_form({"Name": "Cleo"})
    await page.message("created **Cleo**".replace("**", "")).wait_for()
    await _choose_with_the_panel(page)
    await page.be("gamemaster")
    await page.slash("map new", name="Club")
    source = (ROOT / "data" / "maps" / "nightclub.map").read_text()
    await page.fill_form({"": source})
    await page.message("Club").wait_for()
    await _example_fight(page)
    await page.slash("combat begin")
    await page.be("alice")
    await page.board_after("PCs first", on="won initiative")
    await page.be("bob")
    await page.slash("attack", target="Goon")
    window = "may react before the dice are rolled"
    await page.message(window).wait_for()
    await page.be("gamemaster")
    await page.press("Pass", on=window)
    await page.be("bob")
    damage = page.page.locator("#messages .message button", has_text=" damage · ")
    await damage.first.wait_for(timeout=20_000)
    label = (await damage.first.inner_text()).strip()
    await page.board_after(label)
    board = page.message("Round 1")
    assert "Goon [NPCs] Dance Floor 15/15" not in await board.inner_text()  # hurt
    # The pins panel shows the board beside the channel (and the README's screenshot); the
    # channel's own board still follows the fight once the panel was open (the undo below).
    await page.page.click("#show-pins")
    assert "Goon [NPCs] Dance Floor 13/15" in await page.page.inner_text("#pins")
    if os.environ.get("UNHEX_SCREENSHOT"):
        await page.page.screenshot(path=str(SCREENSHOT))
    await page.page.click("#show-pins")

    await page.be("gamemaster")
    await page.slash("combat undo")
    await page.page.wait_for_function(
        "() => [...document.querySelectorAll('#messages .message')].some(m => "
        "m.innerText.includes('Goon [NPCs] Dance Floor 15/15'))", timeout=20_000)
    await page.slash("combat end")
    await page.message("The fight").last.wait_for()
    seconds = sorted(page.timings)
    print(f"click to board updated: median {statistics.median(seconds):.3f} s, "
          f"worst {seconds[-1]:.3f} s over {len(seconds)} clicks")


async def test_a_player_is_refused_the_gms_button_and_only_they_see_why(page: Page) -> None:
    await _example_fight(page)
    await page.slash("combat begin")
    await page.be("alice")
    await page.press("PCs first", on="won initiative")
    await page.be("bob")
    await page.slash("attack", target="Goon")
    window = "may react before the dice are rolled"
    await page.message(window).wait_for()

    await page.press("Resolve now (GM)", on=window)

    refusal = page.page.locator("#messages .message.ephemeral").last
    await refusal.wait_for()
    assert "Only you can see this" in await refusal.inner_text()
    said = (await refusal.inner_text()).split("\n")[3]  # after the author, APP and time
    assert "GM" in said, said
    await page.be("alice")  # the refusal is bob's alone
    assert await page.page.locator("#messages .message.ephemeral").count() == 0
    await page.page.reload()
    await page.page.locator("body[data-ready=true]").wait_for()
    assert await page.page.locator("#channel-name").inner_text() == "fight"  # the same
    assert await page.message(window).count() == 1
    assert await page.message(said).count() == 0  # nor after a reload


async def test_a_page_open_across_a_restart_shows_what_comes_after(tmp_path: Path) -> None:
    need_browser()
    kept, port = tmp_path / "db.sqlite3.discord.json", free_port()
    server = await _synced(local_discord(kept), port)
    tavern = server.channel("tavern").id

    def say(on: LocalDiscord, text: str) -> None:
        on.post(Message(snowflake(), tavern, on.guild.id, on.bot_user, content=text))

    for text in ("one", "two", "three"):
        say(server, text)
    async for browser in open_browser():
        made = await browser.new_page()
        await made.goto(f"{server.base}/#{tavern}")
        table = Page(made)
        await table.message("three").wait_for()
        await server.stop()
        server = await _synced(local_discord(kept), port)  # its feed begins anew
        try:
            say(server, "after the restart")  # (the feed's first change)
            await table.message("after the restart").wait_for(timeout=5_000)
            assert await made.locator("#messages .message").count() == 4
        finally:
            await server.stop()


async def _synced(server: LocalDiscord, port: int) -> LocalDiscord:
    """``server`` started with a command as the bot would sync it (else the page, waiting
    for the bot's commands, reads the table again every second)."""
    server.commands[None] = [{"id": "1", "name": "roll", "description": "Roll", "type": 1,
                              "options": []}]
    return await server.start(port)
