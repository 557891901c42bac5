"""Speed, Stealth and the Unarmed stop as the table meets them: `/move then:` and its
autocomplete, the hidden marker on the board and a hidden target missing from `/attack`'s
choices, and the interceptor's buttons to stop a mover."""

from __future__ import annotations

from testbed.harness import ALICE, BOB, GM, Table
from tests.bot.fights import add_character, begin_pcs_first, give_ammo, start_fight


async def _ability(table: Table, name: str, ability: str, user=ALICE) -> None:
    gained = await table.slash("character ability add", user=user, character=name,
                               ability=ability)
    assert not gained.ephemeral, gained.content


async def test_speed_moves_twice_with_a_window_for_each_step(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await _ability(table, "Ana", "speed.move_twice")
    await add_character(table, "Goon", user=GM, level=30, npc=True)
    await start_fight(table, ("Ana", "Alley"), ("Goon", "Kitchen"), user_of={"Ana": ALICE})
    await begin_pcs_first(table)
    assert await table.autocomplete("move", "then", to="Kitchen") == ["Bar", "Alley"]
    assert await table.autocomplete("move", "then", to="Bar") == []  # not a first step
    assert await table.autocomplete("move", "then", user=GM, to="Bar",
                                    **{"as": "Goon"}) == []  # Goon has no Speed
    declared = await table.slash("move", to="Kitchen", then="Bar")
    assert ("Ana moves from Alley to Kitchen, then on to Bar (Speed: a roll after the "
            "Intercept window; on a failure they stay).") in declared.answer.content
    window = declared.posted("may react")
    assert window.labels == ["Intercept", "Intercept (less-lethal)", "Pass", "Resolve now (GM)"]
    table.dice(3, 4)
    first = await table.click(window, "Pass", user=GM)
    text = first.answer.content
    assert "Ana rolls for Speed: 34 (3·4) vs 40 — SUCCESS." in text, text
    assert "Ana is now in Kitchen.\nAna moves on from Kitchen to Bar." in text, text
    second = first.prompt
    assert "Goon" in second.content and second.labels[-2:] == ["Pass", "Resolve now (GM)"]
    table.dice(3, 4, 6, 2)  # both actions are spent: round 2's initiative
    done = await table.click(second, "Pass", user=GM)
    assert "Ana is now in Bar." in done.answer.content
    board = await table.slash("combat status")
    assert "Ana [PCs] Bar 40/40" in board.content, board.content


async def test_moving_twice_without_speed_is_refused(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=30, npc=True)
    await start_fight(table, ("Ana", "Alley"), ("Goon", "Dance Floor"), user_of={"Ana": ALICE})
    await begin_pcs_first(table)
    assert await table.autocomplete("move", "then", to="Kitchen") == []
    refused = await table.slash("move", to="Kitchen", then="Bar")
    assert refused.ephemeral
    assert "needs the Speed ability, which Ana does not have" in refused.content


async def test_a_hidden_character_is_marked_on_the_board_and_not_offered_as_a_target(
        table: Table) -> None:
    await add_character(table, "Ana", level=40, weapon=("Pistol", "ranged_1h"))
    await _ability(table, "Ana", "stealth.hide")
    await add_character(table, "Cy", user=BOB, level=30)
    await add_character(table, "Goon", user=GM, level=30, npc=True, weapon=("Pistol", "ranged_1h"))
    await give_ammo(table, "Goon")
    await start_fight(table, ("Ana", "Bar"), ("Cy", "Entrance"), ("Goon", "Dance Floor"),
                 user_of={"Ana": ALICE, "Cy": BOB})
    board = await table.slash("combat status")
    assert "Ana [PCs] Bar 40/40 a0 hidden" in board.content, board.content
    assert "Cy [PCs] Entrance 30/30 a0\n" in board.content, board.content
    table.dice(6, 1, 2, 0)  # the NPCs win initiative with 20
    begun = await table.slash("combat begin", user=GM)
    await table.click(begun.prompt, "NPCs first", user=GM)
    # From the dance floor the bar's own mark and Ana's Stealth mark make two: no sight.
    assert await table.autocomplete("attack", "target", user=GM, **{"as": "Goon"}) == ["Cy"]
    refused = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    assert refused.ephemeral
    assert "Ana is hidden (Stealth)" in refused.content, refused.content
    unhidden = await table.slash("combat set", user=GM, character="Ana", hidden=False)
    assert "GM correction to Ana: hidden yes → no." in unhidden.answer.content
    assert await table.autocomplete("attack", "target", user=GM, **{"as": "Goon"}) == [
        "Ana", "Cy"]


async def test_an_unarmed_interceptor_with_empty_hands_chooses_where_the_mover_stops(
        table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=60, npc=True, weapon=None)
    await _ability(table, "Goon", "unarmed.fight", user=GM)
    await _ability(table, "Goon", "unarmed.stop_movement", user=GM)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    await begin_pcs_first(table)
    window = (await table.slash("move", to="Bar")).posted("may react")
    table.dice(2, 3)
    intercepted = await table.click(window, "Intercept", user=GM)
    assert "Goon intercepts with bare hands." in intercepted.answer.content
    table.dice(3, 4, 6, 2)  # both actions are spent: round 2's initiative, once Ana stops
    hit = await table.click(intercepted.prompt, "3 damage · 2: right leg", user=GM)
    assert ("Goon grabs Ana with two empty hands and may stop the move: Goon chooses where "
            "Ana ends, Dance Floor or Bar.") in hit.answer.content, hit.answer.content
    stop = hit.prompt
    assert stop.labels == ["Stop in Dance Floor", "Stop in Bar"]
    assert "Goon (GM)" in stop.content
    refused = await table.click(stop, "Stop in Dance Floor", user=ALICE)
    assert refused.ephemeral  # the interceptor decides
    stopped = await table.click(stop, "Stop in Dance Floor", user=GM)
    assert "Goon puts Ana in Dance Floor." in stopped.answer.content
    board = await table.slash("combat status")
    assert "Ana [PCs] Dance Floor" in board.content, board.content
