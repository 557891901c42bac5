"""Sessions with a goal (004 "Advancement"), through the real slash commands: one open per
server, PCs added or joining by fighting, and the end that advances exactly its PCs, in one
transaction."""

from __future__ import annotations

import pytest

from testbed.harness import ALICE, BOB, GM, GUILD_ID, Message, Table
from tests.bot.fights import start_fight

pytestmark = pytest.mark.both_engines


async def _max_level(table: Table, name: str) -> int:
    found = await table.bot.store.characters.get(GUILD_ID, name)
    assert found is not None
    return found.character.max_level


async def _table_of_four(table: Table) -> None:
    for user, name, level in ((ALICE, "Ana", 54), (BOB, "Bo", 59), (ALICE, "Cy", 99),
                              (BOB, "Dee", 50)):
        made = await table.slash("character create", user=user, name=name, level=level)
        assert not made.ephemeral, made.content
    await table.slash("character create", user=GM, name="Goon", npc=True)


async def test_an_achieved_goal_advances_exactly_the_session_s_pcs(table: Table) -> None:
    await _table_of_four(table)
    opened = await table.slash("session start", goal="Find who set the warehouse fire")
    assert not opened.ephemeral and "Find who set the warehouse fire" in opened.content
    for user, name in ((ALICE, "Ana"), (ALICE, "Cy")):
        joined = await table.slash("session join", user=user, character=name)
        assert not joined.ephemeral, joined.content
    # Bo joins by fighting: in a fight during the session (the Goon too, an NPC).
    await start_fight(table, ("Bo", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Bo": BOB})
    await table.slash("combat end", user=GM)
    status = await table.slash("session status")
    assert "fights fought: 1" in status.content
    assert "• nightclub in <#" in status.content
    assert "The GM ended the fight before it began." in status.content
    assert all(name in status.content for name in ("Ana", "Bo", "Cy"))
    assert "Dee" not in status.content

    ended = await table.slash("session end", user=GM, achieved=True)

    assert not ended.ephemeral
    assert "max level 54 → 55 — a new item slot: 🧭 below" in ended.content
    assert "max level 59 → 60 — a new ability: 🧭 below" in ended.content
    assert "**Cy** stays at max level 99" in ended.content
    assert [await _max_level(table, n) for n in ("Ana", "Bo", "Cy", "Dee", "Goon")] == [
        55, 60, 99, 50, 50]
    assert ended.message.labels == ["Ana: new slot", "Bo: new ability"]
    await _each_fills_what_they_gained(table, ended.message)


async def _each_fills_what_they_gained(table: Table, recap: Message) -> None:
    """The recap's buttons give each PC's panel to its owner alone, after a restart too."""
    refused = await table.click(recap, "Bo: new ability", user=ALICE)
    assert refused.ephemeral and "only" in refused.content and not refused.message.selects()
    await table.restart()
    panel = (await table.click(recap, "Bo: new ability", user=BOB)).message
    assert panel.ephemeral and "still to choose" in panel.content
    picked = await table.choose(panel, ["melee_1h.good_attack"], user=BOB)
    assert picked.messages[-1].content.startswith("✨")
    found = await table.bot.store.characters.get(GUILD_ID, "Bo")
    assert found is not None and found.character.abilities == ("melee_1h.good_attack",)
    again = await table.slash("session status")
    assert again.ephemeral and "No session is open" in again.content


async def test_a_goal_not_achieved_advances_nobody(table: Table) -> None:
    await _table_of_four(table)
    await table.slash("session start", goal="Get out alive")
    await table.slash("session join", character="Ana")
    ended = await table.slash("session end", user=GM, achieved=False)
    assert "not achieved: nobody advances" in ended.content
    assert await _max_level(table, "Ana") == 54


async def test_one_session_at_a_time_and_only_a_gm_ends_it(table: Table) -> None:
    await _table_of_four(table)
    await table.slash("session start", goal="Get out alive")
    second = await table.slash("session start", user=BOB, goal="Something else")
    assert second.ephemeral and "open already (goal: **Get out alive**)" in second.content
    assert "`/session join character:` adds your PC" in second.content
    assert "`/session goal`" in second.content
    from_a_gm = await table.slash("session start", user=GM, goal="Something else")
    assert from_a_gm.ephemeral and from_a_gm.content == second.content
    refused = await table.slash("session end", user=BOB, achieved=True)
    assert refused.ephemeral
    others = await table.slash("session join", user=BOB, character="Ana")
    assert others.ephemeral and "belongs to" in others.content
    still = await table.slash("session status")
    assert "Get out alive" in still.content


async def test_the_end_waits_for_a_fight_its_pcs_are_in(table: Table) -> None:
    await _table_of_four(table)
    await table.slash("session start", goal="Get out alive")
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    refused = await table.slash("session end", user=GM, achieved=True)
    assert refused.ephemeral and "is in the fight" in refused.content
    assert await _max_level(table, "Ana") == 54
    await table.slash("combat end", user=GM)
    ended = await table.slash("session end", user=GM, achieved=True)
    assert not ended.ephemeral and await _max_level(table, "Ana") == 55


async def test_the_players_reword_the_goal_after_the_gm_warns(table: Table) -> None:
    """004: the GM "can warn players when a goal isn't likely to be achievable … but cannot
    choose a goal for the players"."""
    await _table_of_four(table)
    await table.slash("session start", goal="Burn the <@&1> warehouse")
    not_gm = await table.slash("session warn", user=BOB)
    assert not_gm.ephemeral
    warned = await table.slash("session warn", user=GM, why="The fire brigade is @everyone")
    assert not warned.ephemeral and "may be out of reach" in warned.content
    assert "`/session goal`" in warned.content
    assert (warned.message.allowed_mentions or {}).get("parse") == []
    outsider = await table.slash("session goal", user=BOB, goal="Something else")
    assert outsider.ephemeral and "`/session join`" in outsider.content
    await table.slash("session join", user=BOB, character="Bo")
    reworded = await table.slash("session goal", user=BOB, goal="Find  the   arsonist")
    assert not reworded.ephemeral and "New goal: **Find the arsonist**" in reworded.content
    status = await table.slash("session status")
    assert "Find the arsonist" in status.content
    await table.slash("session end", user=GM, achieved=False)
    after = await table.slash("session goal", user=BOB, goal="Too late")
    assert after.ephemeral and "No session is open" in after.content


async def test_a_gm_opens_a_session_without_a_goal_and_the_players_set_it(
        table: Table) -> None:
    """004: the GM "cannot choose a goal for the players"."""
    await _table_of_four(table)
    chosen = await table.slash("session start", user=GM, goal="Kill the players")
    assert chosen.ephemeral and "a GM cannot choose it" in chosen.content
    assert "Open it without `goal:`" in chosen.content
    assert "No session is open" in (await table.slash("session status")).content

    opened = await table.slash("session start", user=GM)
    assert not opened.ephemeral and "No goal yet" in opened.content
    status = await table.slash("session status")
    assert "No goal yet: its players set it with `/session goal`" in status.content
    assert (await table.slash("session warn", user=GM)).ephemeral
    nothing = await table.slash("session end", user=GM, achieved=True)
    assert nothing.ephemeral and "`achieved:False`" in nothing.content
    not_in = await table.slash("session goal", user=BOB, goal="Find the arsonist")
    assert not_in.ephemeral and "`/session join` first" in not_in.content
    joined = await table.slash("session join", user=BOB, character="Bo")
    assert "(no goal yet: its players set it with `/session goal`)" in joined.content

    set_goal = await table.slash("session goal", user=BOB, goal="Find the arsonist")
    assert not set_goal.ephemeral and set_goal.content == "🎯 New goal: **Find the arsonist**."
    refused = await table.slash("session goal", user=GM, goal="Kill the players")
    assert refused.ephemeral and "a GM cannot choose it" in refused.content
    assert "Find the arsonist" in (await table.slash("session status")).content
    ended = await table.slash("session end", user=GM, achieved=True)
    assert "Goal achieved: **Find the arsonist**" in ended.content
    assert await _max_level(table, "Bo") == 60


async def test_a_session_with_no_goal_ends_with_nobody_advancing(table: Table) -> None:
    await _table_of_four(table)
    await table.slash("session start", user=GM)
    await table.slash("session join", character="Ana")
    ended = await table.slash("session end", user=GM, achieved=False)
    assert not ended.ephemeral and "It had no goal: nobody advances." in ended.content
    assert await _max_level(table, "Ana") == 54


async def _hurt_in_a_fight(table: Table, level: int) -> Message:
    """Ana and the Goon fight; Ana ends it at ``level``: the Recover offer posted."""
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    hurt = await table.slash("combat set", user=GM, character="Ana", level=level)
    assert not hurt.ephemeral, hurt.content
    return (await table.slash("combat end", user=GM)).posted("may recover")


async def test_the_recover_button_still_works_after_the_session_ends(table: Table) -> None:
    """The usual order: the last fight (its Recover offer), then the session's end, whose
    advancement changes the sheet but not what Recovery restores."""
    await _table_of_four(table)
    await table.slash("session start", goal="Get out alive")
    offer = await _hurt_in_a_fight(table, 30)
    await table.slash("session end", user=GM, achieved=True)
    assert await _max_level(table, "Ana") == 55

    recovered = await table.click(offer, "Recover Ana", user=ALICE)

    assert not recovered.ephemeral and "Ana recovers: level 30 → 55" in recovered.content
    assert "Level 55/55" in (await table.slash("sheet", character="Ana")).content


async def test_an_old_recover_button_lapses_once_the_wounds_change(table: Table) -> None:
    """What "changed since the fight" protects against: recovering twice, or recovering
    from a later fight's wounds with an earlier fight's offer."""
    await _table_of_four(table)
    first = await _hurt_in_a_fight(table, 30)
    await table.slash("character recover", character="Ana")
    second = await _hurt_in_a_fight(table, 20)
    stale = await table.click(first, "Recover Ana", user=ALICE)
    assert stale.ephemeral and "has changed since the fight" in stale.content
    assert "Level 20/54" in (await table.slash("sheet", character="Ana")).content
    recovered = await table.click(second, "Recover Ana", user=ALICE)
    assert "Ana recovers: level 20 → 54" in recovered.content
