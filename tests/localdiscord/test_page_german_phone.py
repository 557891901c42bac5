"""A German table on a phone, in a real browser with the bot: the GM makes the server's
channels German with `/settings language` typed in the composer, the newcomer's example makes
the characters and the fight, and at 390 px the fight's board reads German within a phone's 40
columns, the live prompts' German buttons (and a German player's My options) stay within the
screen, and a German button pressed is answered in German."""

from __future__ import annotations

from pathlib import Path

import pytest

from localdiscord import LocalDiscord
from tests.localdiscord.browser import PHONE, WAIT_MS, Page, need_browser, open_browser, open_phone

#: A phone's code block: the bot draws its boards and maps within these columns.
PHONE_COLUMNS = 40
#: The board's German (bot/locale/de): its round, the default teams, its legend, whom it waits for.
BOARD_GERMAN = ("Runde ", "[SC]", "[NSC]", "Aktionen übrig", "Warte auf")
#: The same in English: none of it on a German board (the map's own notes stay as written).
BOARD_ENGLISH = ("Round ", "[PCs]", "[NPCs]", "actions left", "Waiting for")
#: The channel's code blocks: their text, longest line, and the block's and its message's
#: widths (scrolled, shown).
BLOCKS = """() => [...document.querySelectorAll('#messages pre.codeblock')].map(pre => {
  const message = pre.closest('.message');
  return {text: pre.innerText,
          longest: Math.max(...pre.innerText.split('\\n').map(line => [...line].length)),
          block: [pre.scrollWidth, pre.clientWidth],
          message: [message.scrollWidth, message.clientWidth]};
})"""
#: The live buttons and menus of the channel's messages (``within`` narrows them): label,
#: right edge.
CONTROLS = """within => [...document.querySelectorAll(`#messages ${within} .button:not(:disabled),
                                                  #messages ${within} select.menu`)]
  .map(c => [c.tagName === 'SELECT' ? c.getAttribute('aria-label') : c.innerText.trim(),
             c.getBoundingClientRect().right])"""


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {"UNHEX_DICE_SEED": "12"}  # the PCs win initiative: alice chooses who acts first


async def _german_example(table: Page) -> None:
    """The GM says the channels are German, then the example's characters and fight."""
    page = table.page
    await table.slash("settings language", language="Deutsch")
    await table.message("Der Bot spricht").wait_for(timeout=WAIT_MS)
    status = page.locator("#welcome-status")
    await page.get_by_role("button", name="Set up an example").click()
    await status.filter(has_text="The bot accepted 14 of 14 commands.").wait_for(timeout=60_000)
    await page.get_by_role("button", name="Start the example fight").click()
    await table.message("Rat tritt dem Kampf für NSC").wait_for(timeout=30_000)
    await page.locator("#welcome").wait_for(state="hidden")  # and #fight drawn anew


async def _board_fits(table: Page) -> None:
    """The board is German, every code block within a phone's columns, nothing sideways."""
    blocks = await table.page.evaluate(BLOCKS)
    board = next(b["text"] for b in reversed(blocks) if "[SC]" in b["text"])
    for german, english in zip(BOARD_GERMAN, BOARD_ENGLISH, strict=True):
        assert german in board and english not in board, (german, board)
    for block in blocks:
        assert block["longest"] <= PHONE_COLUMNS, block["text"]
        for wide, shown in (block["block"], block["message"]):
            assert wide <= shown, block
    assert await table.page.evaluate("() => document.documentElement.scrollWidth") \
        <= PHONE["width"]


async def _controls_within(table: Page, within: str = ".message") -> list[str]:
    """The live buttons and menus (of the messages ``within`` selects), each wholly within
    the screen's width: their labels."""
    controls = await table.page.evaluate(CONTROLS, within)
    assert controls
    for label, right in controls:
        assert right <= PHONE["width"], (label, right)
    return [label for label, _ in controls]


async def _alice_in_german(table: Page) -> None:
    """Be alice, whom the fight asks, with her client in German (both from ☰)."""
    page = table.page
    await page.get_by_role("button", name="Channels", exact=True).click()
    await page.locator("#asked .member.asked").filter(has_text="alice").click()
    await page.locator("#me", has_text="alice").wait_for()
    await page.get_by_role("button", name="Channels", exact=True).click()
    await page.select_option("#language", label="Deutsch")
    await page.locator("body[data-locale=de]").wait_for(timeout=WAIT_MS)
    await page.locator("#topbar").click(position={"x": 330, "y": 20})  # beside the channels
    await page.locator("body.sidebar-open").wait_for(state="detached")


async def test_a_german_table_plays_on_a_phone(discord: LocalDiscord, bot: Path) -> None:
    need_browser()
    errors: list[str] = []
    async for browser in open_browser():
        table = await open_phone(browser, f"{discord.base}/#{discord.channel('fight').id}", errors)
        page = table.page
        await _german_example(table)
        await table.slash("combat begin")
        asked = page.locator("#asked .member.asked")
        await asked.filter(has_text="alice").wait_for(timeout=WAIT_MS)  # won initiative
        await table.message("Welches Team ist zuerst dran?").wait_for(timeout=WAIT_MS)
        await _board_fits(table)
        assert await _controls_within(table) == ["SC zuerst", "NSC zuerst"]

        await _alice_in_german(table)
        await table.press("SC zuerst")
        await table.message("SC wählen die Reihenfolge: SC, dann NSC.").wait_for(timeout=WAIT_MS)
        await asked.filter(has_text="bob").wait_for(timeout=WAIT_MS)  # the PCs' turn
        await table.message("Runde 1, Zug von SC").wait_for(timeout=WAIT_MS)
        await _board_fits(table)
        labels = await _controls_within(table)
        assert {"Meine Optionen", "Fertig (SC)"} <= set(labels), labels

        await table.press("Meine Optionen")  # alice's own answer: in her client's German
        await table.message("Was tut Ana?").wait_for(timeout=WAIT_MS)
        menus = await _controls_within(table, ".message.ephemeral")
        assert {"Angriff…", "Bewegung oder Tür…", "Gegenstände…"} <= set(menus), menus
        assert await page.evaluate("() => document.documentElement.scrollWidth") \
            <= PHONE["width"]
    assert not errors, errors
