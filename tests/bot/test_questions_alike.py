"""The same question to many, through the real dispatch path: ten numbered goons caught in one
blast are asked whether they Defend, and then where the damage goes; their buttons would not
fit one message, so the GM answers them all at once ("All 10: Torso"), in one step, with the
same refusals as one answer (a player who may not answer, an older version)."""

from __future__ import annotations

from bot.cogs.combat.views import OUT_OF_DATE
from testbed.harness import ALICE, CHANNEL_ID, GM, Message, Table
from tests.bot.fights import add_character, arm_with_grenade, begin_pcs_first, start_fight


async def ten_goons_caught(table: Table) -> Message:
    """Ana throws a grenade at ten goons on the Dance Floor (the boss watches from the Bar):
    4 damage to each; the prompt asking whether they Defend."""
    await add_character(table, "Ana", level=50, weapon=None)
    await arm_with_grenade(table, "Ana", user=ALICE)
    await add_character(table, "Boss", user=GM, level=30, npc=True)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    copied = await table.slash("character copy", user=GM, character="Goon", count=10)
    assert not copied.ephemeral, copied.content
    await start_fight(table, ("Ana", "Entrance"), ("Boss", "Bar"), user_of={"Ana": ALICE})
    added = await table.slash("combat addmany", user=GM, area="Dance Floor",
                              characters="Goon 1-10")
    assert not added.ephemeral, added.content
    await begin_pcs_first(table)
    table.dice(4, 9)
    thrown = await table.slash("aoe", user=ALICE, area="Dance Floor")
    chose = await table.click(thrown.prompt, "Tens die: 4", user=ALICE)
    assert "4 damage and 9 additional targets" in chose.answer.content, chose.answer.content
    return chose.prompt


async def _version(table: Table) -> int:
    fight = await table.bot.fights.fight(CHANNEL_ID)
    assert fight is not None
    return fight.version


async def test_the_gm_answersten_goons_caught_in_a_blast_at_once(table: Table) -> None:
    defend = await ten_goons_caught(table)
    assert defend.labels == ["All 10: Defend", "All 10: Take the damage", "Resolve now (GM)"]
    assert defend.content.startswith("**Goon 1-10 (GM)** is caught in a blast"), defend.content
    before = await _version(table)
    refused = await table.click(defend, "All 10: Take the damage", user=ALICE)
    assert refused.ephemeral and await _version(table) == before
    took = await table.click(defend, "All 10: Take the damage", user=GM)
    assert await _version(table) == before + 1  # one step for the ten answers
    said = took.answer.content
    assert "Goon 1-10 do not defend." in said and "does not defend" not in said, said
    place = took.prompt
    assert place.labels[:6] == ["All 10: Head", "All 10: Right arm", "All 10: Left arm",
                                "All 10: Torso", "All 10: Right leg", "All 10: Left leg"]
    stale = await table.click_stale(defend, "All 10: Defend", user=GM)
    assert stale.ephemeral and stale.content == OUT_OF_DATE
    placed = await table.click(place, "All 10: Torso", user=GM)
    one_line = "Goon 1-10 each: 1 point to the torso (3 left to place)."
    assert placed.said == one_line, placed.answer.content
    for _ in range(3):
        placed = await table.click(placed.prompt, "All 10: Torso", user=GM)
    said = placed.answer.content
    assert "Goon 1-10 each: 1 point to the torso (all 4 placed)." in said, said
    assert "Goon 1-10 take 4 damage to the torso: level 25 → 21." in said, said
    assert "Goon 2" not in said, said
    for n in (1, 7, 10):
        status = await table.slash("combat status", character=f"Goon {n}")
        assert "21/25" in status.content, status.content
    log = (await table.slash("combat log")).content
    assert "Goon 1-10 do not defend." in log and one_line in log, log
    assert "Goon 5:" not in log and "Goon 5 " not in log, log


async def test_a_hidden_npcs_lines_told_once_keep_where_the_points_went_from_the_players(
        table: Table) -> None:
    """The GM hides the NPCs' figures: the players read one line per answer for the ten
    goons without where the points went or their levels; the GM's log reads the same line
    with them."""
    await ten_goons_caught(table)
    hidden = await table.slash("combat settings", user=GM, hide_npcs=True)
    assert not hidden.ephemeral, hidden.content
    defend = next(m for m in reversed(table.channel_messages()) if "caught in a blast" in m.content)
    place = (await table.click(defend, "All 10: Take the damage", user=GM)).prompt
    placed = await table.click(place, "All 10: Torso", user=GM)
    assert placed.said == "Goon 1-10 each: 1 point placed (3 left to place).", (
        placed.answer.content)
    for _ in range(3):
        placed = await table.click(placed.prompt, "All 10: Torso", user=GM)
    said = placed.answer.content
    assert "Goon 1-10 take 4 damage to the torso." in said and "21" not in said, said
    log = (await table.slash("combat log")).content
    assert "Goon 1-10 each: 1 point placed (1 left to place)." in log, log
    assert "torso (" not in log and "level 25" not in log, log
    gm_log = (await table.slash("combat log", user=GM)).content
    assert "Goon 1-10 each: 1 point to the torso (1 left to place)." in gm_log, gm_log
    assert "Goon 1-10 take 4 damage to the torso: level 25 → 21." in gm_log, gm_log


async def test_a_few_questions_alike_keep_a_button_each(table: Table) -> None:
    """Where every question's buttons fit, each goon keeps his own (no "All")."""
    await add_character(table, "Ana", level=50, weapon=None)
    await arm_with_grenade(table, "Ana", user=ALICE)
    await add_character(table, "Boss", user=GM, level=30, npc=True)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await table.slash("character copy", user=GM, character="Goon", count=2)
    await start_fight(table, ("Ana", "Entrance"), ("Boss", "Bar"), user_of={"Ana": ALICE})
    await table.slash("combat addmany", user=GM, area="Dance Floor", characters="Goon 1-2")
    await begin_pcs_first(table)
    table.dice(4, 1)
    thrown = await table.slash("aoe", user=ALICE, area="Dance Floor")
    defend = (await table.click(thrown.prompt, "Tens die: 4", user=ALICE)).prompt
    assert defend.labels == ["Goon 1: Defend", "Goon 1: Take the damage", "Goon 2: Defend",
                             "Goon 2: Take the damage", "Resolve now (GM)"]
