"""A character's sheet reads the fight that holds the character whether or not the fight
commands are loaded: until they load, the bot's fights are read from the store; once loaded,
through their session. A process running every command family but the fights shows a fighter
as it stands in its fight, and hides what the fight hides, word for word as the full bot."""

from __future__ import annotations

import pytest

import bot.client
from bot.client import EXTENSIONS
from testbed.harness import ALICE, CHANNEL_ID, GM, Table
from tests.bot.fights import add_character, begin_pcs_first

WITHOUT_FIGHTS = tuple(e for e in EXTENSIONS if e != "bot.cogs.combat")
IN_THE_FIGHT = f"-# In the fight in <#{CHANNEL_ID}>: as it stands now."


async def _goon_hurt_in_a_hidden_fight(table: Table) -> None:
    """Ana (Alice's PC, 40) hits Goon (an NPC at 25) for 3, in a fight that hides the NPCs'
    levels and wounds from the players."""
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    started = await table.slash("combat start", user=GM, map="Nightclub", hide_npcs=True)
    assert not started.ephemeral, started.content
    for name, user in (("Ana", ALICE), ("Goon", GM)):
        added = await table.slash("combat add", user=user, character=name, area="Dance Floor")
        assert not added.ephemeral, added.content
    await begin_pcs_first(table)
    declared = await table.slash("attack", target="Goon")
    table.dice(3, 5)  # Ana rolls 35 against 40: a hit
    passed = await table.click(declared.posted("may react"), "Pass", user=GM)
    hit = await table.click(passed.prompt, "3 damage · 5: torso")
    assert "Goon takes 3 damage" in hit.answer.content, hit.answer.content


async def _sheets(table: Table) -> list[str]:
    """Goon's sheet as the GM and as Alice (a player) ask for it, then Ana's."""
    gm_sheet = await table.slash("sheet", user=GM, character="Goon")
    assert gm_sheet.ephemeral and IN_THE_FIGHT in gm_sheet.content, gm_sheet.content
    assert "22/25" in gm_sheet.content, gm_sheet.content  # the fight's copy, not the sheet's
    looks = await table.slash("sheet", character="Goon")
    assert looks.ephemeral and "GM keeps its level and wounds hidden: it looks" in (
        looks.content), looks.content
    assert "22" not in looks.content
    ana = await table.slash("sheet", character="Ana")
    assert IN_THE_FIGHT in ana.content, ana.content
    return [gm_sheet.content, looks.content, ana.content]


async def test_a_sheet_shows_the_fight_s_copy_with_or_without_the_fight_commands(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _goon_hurt_in_a_hidden_fight(table)
    with_fights = await _sheets(table)

    monkeypatch.setattr(bot.client, "EXTENSIONS", WITHOUT_FIGHTS)
    await table.restart()
    assert "bot.cogs.combat" not in table.bot.extensions
    assert table.bot.get_cog("Fights") is None
    assert await _sheets(table) == with_fights


async def test_without_the_fight_commands_a_sheet_out_of_any_fight_is_the_sheet(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _goon_hurt_in_a_hidden_fight(table)
    ended = await table.slash("combat end", user=GM)
    assert not ended.ephemeral, ended.content

    monkeypatch.setattr(bot.client, "EXTENSIONS", WITHOUT_FIGHTS)
    await table.restart()
    sheet = await table.slash("sheet", character="Goon")  # no fight hides it any more
    assert "Level 22/25" in sheet.content and "In the fight" not in sheet.content, sheet.content
