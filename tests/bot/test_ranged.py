"""2H Ranged at the table: with "See past 2 cover marks", a target two marks away is offered
and can be shot; without it, it is neither offered nor allowed."""

from __future__ import annotations

from testbed.harness import ALICE, GM, Table
from tests.bot.fights import add_character, begin_pcs_first, give_ammo, start_fight


async def _sniper_in_the_kitchen(table: Table, *abilities: str) -> None:
    await add_character(table, "Ana", level=70, weapon=("Rifle", "ranged_2h"))
    await give_ammo(table, "Ana", user=ALICE)
    for ability in abilities:
        gained = await table.slash("character ability add", character="Ana", ability=ability)
        assert not gained.ephemeral, gained.content
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Kitchen"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    await begin_pcs_first(table)


async def test_long_sight_offers_and_shoots_a_target_two_marks_away(table: Table) -> None:
    await _sniper_in_the_kitchen(table, "ranged_2h.long_sight")
    assert await table.autocomplete("attack", "target") == ["Goon"]
    shot = await table.slash("attack", target="Goon")
    assert not shot.ephemeral and "Ana attacks Goon with Rifle" in shot.answer.content


async def test_without_it_the_same_target_is_out_of_sight(table: Table) -> None:
    await _sniper_in_the_kitchen(table)
    assert await table.autocomplete("attack", "target") == []
    refused = await table.slash("attack", target="Goon")
    assert refused.ephemeral and "no line of sight" in refused.content, refused.content
