"""Initiative through the real dispatch path: three teams ordered by the winner one button at a
time (or by `/combat order`), and a team with a tie for its highest level choosing who rolls."""

from __future__ import annotations

from testbed.harness import ALICE, BOB, GM, Table
from tests.bot.fights import add_character


async def _three_teams(table: Table) -> None:
    """Ana (Alice's, 40) for the PCs, Goon (the GM's NPC, 25), Bea (Bob's, 30) for the Rivals;
    round 1 rolled: Ana 34 wins, Goon 62 and Bea 71 fail."""
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await add_character(table, "Bea", user=BOB, level=30)
    started = await table.slash("combat start", user=GM, map="Nightclub")
    assert not started.ephemeral, started.content
    for name, area, user, team in (("Ana", "Dance Floor", ALICE, None), ("Goon", "Bar", GM, None),
                                   ("Bea", "Kitchen", BOB, "Rivals")):
        options = {} if team is None else {"team": team}
        added = await table.slash("combat add", user=user, character=name, area=area, **options)
        assert not added.ephemeral, added.content
    table.dice(3, 4, 6, 2, 7, 1)


async def test_the_winner_orders_three_teams_one_button_at_a_time(table: Table) -> None:
    await _three_teams(table)
    begun = await table.slash("combat begin", user=GM)
    text = begun.answer.content
    assert "Bea rolls initiative for Rivals: 71 (7·1) vs 30 — FAILURE." in text, text
    assert "PCs win initiative and choose the order all teams act in." in text, text
    first = begun.prompt
    assert first.content == f"**Ana ({ALICE.mention})** won initiative: which team goes first?"
    assert first.labels == ["PCs first", "NPCs first", "Rivals first"]

    refused = await table.click(first, "Rivals first", user=BOB)
    assert refused.ephemeral
    assert refused.content == "PCs won initiative: only they (or a GM) choose the order."

    chosen = await table.click(first, "Rivals first", user=ALICE)
    assert chosen.said == "PCs choose Rivals to go first."
    after = chosen.prompt
    assert after.content == f"**Ana ({ALICE.mention})** won initiative: which team goes next?"
    assert after.labels == ["PCs next", "NPCs next"]
    assert after.id != first.id and table.message(first.id).buttons == []  # a new prompt
    board = await table.slash("combat status")
    assert "Round 1 · initiative" in board.content
    assert "Waiting for: Ana (choose the order)" in board.content

    late = await table.click_stale(first, "NPCs first", user=ALICE)  # an old button
    assert late.ephemeral and "out of date" in late.content
    done = await table.click(after, "NPCs next", user=ALICE)
    assert done.said == ("PCs choose the order: Rivals, then NPCs, then PCs.\n"
                                   "Turn: Rivals.")
    board = await table.slash("combat status")
    assert board.content.startswith("```text\nRound 1 · turn · Rivals acting"), board.content
    assert "Waiting for: Bea (act)" in board.content
    passed = await table.slash("done", user=BOB)
    assert "Turn: NPCs." in passed.answer.content


async def test_the_gm_gives_the_whole_order_with_a_command(table: Table) -> None:
    await _three_teams(table)
    await table.slash("combat begin", user=GM)
    refused = await table.slash("combat order", user=BOB, teams="Rivals, NPCs, PCs")
    assert refused.ephemeral
    assert refused.content == "PCs won initiative: only they (or a GM) choose the order."
    wrong = await table.slash("combat order", user=GM, teams="Rivals, Rivals, PCs")
    assert wrong.ephemeral
    assert wrong.content == "Choose the team to go next among: PCs, NPCs."
    empty = await table.slash("combat order", user=GM, teams=" , ")
    assert empty.ephemeral and "separated by commas" in empty.content
    ordered = await table.slash("combat order", user=GM, teams="npcs, Rivals, PCs")
    assert not ordered.ephemeral
    assert ordered.answer.content == ("PCs choose the order (by the GM): NPCs, then Rivals, "
                                      "then PCs.\n"
                                      "Turn: NPCs.")
    late = await table.slash("combat order", user=GM, teams="PCs, NPCs, Rivals")
    assert late.ephemeral and "order is set" in late.content


async def test_a_tie_for_the_highest_level_lets_that_team_choose_who_rolls(table: Table) -> None:
    # PCs: Ana (Alice's) and Bea (Bob's) share level 40. NPCs: Goon and Rat share 25.
    await add_character(table, "Ana", level=40)
    await add_character(table, "Bea", user=BOB, level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await add_character(table, "Rat", user=GM, level=25, npc=True)
    await table.slash("combat start", user=GM, map="Nightclub")
    for name, area, user in (("Ana", "Dance Floor", ALICE), ("Bea", "Bar", BOB),
                             ("Goon", "Bar", GM), ("Rat", "Kitchen", GM)):
        added = await table.slash("combat add", user=user, character=name, area=area)
        assert not added.ephemeral, added.content

    begun = await table.slash("combat begin", user=GM)
    assert begun.answer.content == (
        "The fight begins.\nRound 1 begins.\n"
        "Ana and Bea share the highest level of PCs (40): PCs choose who rolls initiative.\n"
        "Goon and Rat share the highest level of NPCs (25): NPCs choose who rolls initiative.")
    pcs = begun.prompt
    assert pcs.content == (f"**PCs ({ALICE.mention}, {BOB.mention})** have more than one "
                           "fighter at their highest level: who rolls initiative?")
    assert pcs.labels == ["Ana rolls", "Bea rolls"]
    assert pcs.allowed_mentions is not None
    assert sorted(int(u) for u in pcs.allowed_mentions["users"]) == [ALICE.id, BOB.id]
    board = await table.slash("combat status")
    assert "Round 1 · initiative" in board.content
    assert "Waiting for: PCs (choose who rolls)" in board.content

    chosen = await table.click(pcs, "Bea rolls", user=BOB)  # any of the team's players
    # answered on the question itself: what it asked (quoted), what happened, no buttons
    assert chosen.kind == "update" and chosen.answer.id == pcs.id
    assert chosen.answer.content == "> " + pcs.content + "\nPCs choose Bea to roll initiative."
    assert not chosen.answer.buttons and table.message(pcs.id).buttons == []
    assert chosen.said == "PCs choose Bea to roll initiative."
    npcs = chosen.prompt
    assert npcs.content == ("**NPCs (GM)** have more than one fighter at their highest level: "
                            "who rolls initiative?")
    assert npcs.labels == ["Goon rolls", "Rat rolls"]

    refused = await table.click(npcs, "Goon rolls", user=ALICE)  # a player of the other team
    assert refused.ephemeral
    assert refused.content == "NPCs choose who rolls initiative for them: only a GM can."
    # The dice roll once every team has its roller: the PCs' tens and ones, then the NPCs'.
    table.dice(3, 4, 2, 0)
    rolled = await table.click(npcs, "Rat rolls", user=GM)
    assert rolled.said == (
        "NPCs choose Rat to roll initiative.\n"
        "Bea rolls initiative for PCs: 34 (3·4) vs 40 — SUCCESS.\n"
        "Rat rolls initiative for NPCs: 20 (2·0) vs 25 — SUCCESS.\n"
        "PCs win initiative and choose which team goes first.")
    order = rolled.prompt
    assert order.content == f"**Bea ({BOB.mention})** won initiative: which team goes first?"
    assert order.labels == ["PCs first", "NPCs first"]
    turn = await table.click(order, "PCs first", user=ALICE)  # a player of the winning team
    assert "Turn: PCs." in turn.answer.content


async def test_without_a_tie_the_highest_rolls_at_once(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Bea", user=BOB, level=39)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await table.slash("combat start", user=GM, map="Nightclub")
    for name, area, user in (("Ana", "Dance Floor", ALICE), ("Bea", "Bar", BOB),
                             ("Goon", "Bar", GM)):
        await table.slash("combat add", user=user, character=name, area=area)
    table.dice(3, 4, 6, 2)
    begun = await table.slash("combat begin", user=GM)
    assert "Ana rolls initiative for PCs: 34 (3·4) vs 40 — SUCCESS." in begun.answer.content
    assert "choose who rolls" not in begun.answer.content
    assert begun.prompt.labels == ["PCs first", "NPCs first"]


async def test_a_choice_of_roller_survives_a_restart(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Cal", level=40)  # Alice's second PC, as high as Ana
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await table.slash("combat start", user=GM, map="Nightclub")
    for name, area, user in (("Ana", "Dance Floor", ALICE), ("Cal", "Bar", ALICE),
                             ("Goon", "Bar", GM)):
        await table.slash("combat add", user=user, character=name, area=area)
    begun = await table.slash("combat begin", user=GM)
    asked = begun.prompt
    assert asked.content.startswith(f"**PCs ({ALICE.mention})** have more than one fighter")
    await table.restart(dice=(3, 4, 6, 2))
    chosen = await table.click(asked, "Cal rolls", user=ALICE)
    assert "Cal rolls initiative for PCs: 34 (3·4) vs 40 — SUCCESS." in chosen.answer.content
    assert chosen.prompt.labels == ["PCs first", "NPCs first"]
