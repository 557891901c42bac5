"""Leader (004 "Abilities": Leader) at the table: who is asked whether a leader rolls
initiative, `/rally`, and `/direct` with the directed player's Refuse button."""

from __future__ import annotations

from testbed.harness import ALICE, BOB, GM, Table, User
from tests.bot.fights import add_character


async def _leader(table: Table, name: str, *abilities: str, user: User = BOB,
                  level: int = 50) -> None:
    await add_character(table, name, user=user, level=level)
    for ability in abilities:
        gained = await table.slash("character ability add", user=user, character=name,
                                   ability=ability)
        assert not gained.ephemeral, gained.content


async def _fight(table: Table, *placements: tuple[str, User]) -> None:
    await table.slash("combat start", user=GM, map="Nightclub")
    for name, user in placements:
        added = await table.slash("combat add", user=user, character=name, area="Dance Floor")
        assert not added.ephemeral, added.content


def _line(board: str, name: str) -> str:
    return next(ln for ln in board.splitlines() if ln.startswith(f"{name} ["))


async def test_the_highest_level_is_asked_whether_the_leader_rolls(table: Table) -> None:
    await add_character(table, "Ana", level=50)
    await _leader(table, "Kit", "leader.good_initiative", level=30)
    await add_character(table, "Goon", user=GM, level=40, npc=True)
    await _fight(table, ("Ana", ALICE), ("Kit", BOB), ("Goon", GM))

    begun = await table.slash("combat begin", user=GM)
    assert begun.answer.content == (
        "The fight begins.\nRound 1 begins.\n"
        "Ana has the highest level of PCs (50) and may let a leader roll initiative instead: "
        "Kit.")
    asked = begun.prompt
    assert asked.content == (f"**Ana ({ALICE.mention})** has the highest level: roll "
                             "initiative, or let a leader roll?")
    assert asked.labels == ["Ana rolls", "Kit rolls"]
    assert asked.allowed_mentions is not None
    assert [int(u) for u in asked.allowed_mentions["users"]] == [ALICE.id]  # not Kit's player
    board = await table.slash("combat status")
    assert "Waiting for: Ana (choose who rolls)" in board.content

    refused = await table.click(asked, "Kit rolls", user=BOB)
    assert refused.ephemeral
    assert refused.content == ("Ana has the highest level of PCs: only Ana's player (or a GM) "
                               "chooses whether a leader rolls initiative instead.")
    table.dice(2, 5, 6, 2)
    let = await table.click(asked, "Kit rolls", user=ALICE)
    assert let.said == (
        "Ana lets Kit roll initiative for PCs.\n"
        "Kit rolls initiative for PCs: 25 (2·5) vs 30 — SUCCESS.\n"
        "Goon rolls initiative for NPCs: 62 (6·2) vs 40 — FAILURE.")
    assert let.prompt.content == (f"**Kit ({BOB.mention})** is good at this: re-roll or keep?"
                                  " — applies: good (initiative)")


async def _pcs_first(table: Table, *dice: int) -> None:
    table.dice(*dice)
    begun = await table.slash("combat begin", user=GM)
    await table.click(begun.prompt, "PCs first", user=ALICE)


async def test_rally_raises_the_team_once_a_fight(table: Table) -> None:
    await _leader(table, "Kit", "leader.rally", level=50)
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=30, npc=True)
    await _fight(table, ("Kit", BOB), ("Ana", ALICE), ("Goon", GM))
    await _pcs_first(table, 3, 4, 6, 2)
    await table.slash("combat set", user=GM, character="Ana", level=20)

    refused = await table.slash("rally", user=ALICE)
    assert refused.ephemeral
    assert refused.content == "Ana cannot rally: that takes the Leader ability Rally."
    table.dice(4, 5)
    rallied = await table.slash("rally", user=BOB)
    assert rallied.answer.content == ("Kit rallies PCs: 45 (4·5) vs 50 — SUCCESS.\n"
                                      "Ana's level rises 20 → 40.")  # her max level
    board = (await table.slash("combat status")).content
    assert "40/40" in _line(board, "Ana") and _line(board, "Kit").endswith("50/50 a0")
    await table.slash("combat set", user=GM, character="Kit", actions=1)
    again = await table.slash("rally", user=BOB)
    assert again.ephemeral
    assert again.content == "Kit has already attempted a rally this fight (once per combat)."


async def test_a_leader_may_rally_when_the_fight_ends(table: Table) -> None:
    await _leader(table, "Kit", "leader.rally", level=50)
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=30, npc=True)
    await _fight(table, ("Kit", BOB), ("Ana", ALICE), ("Goon", GM))
    await _pcs_first(table, 3, 4, 6, 2)
    await table.slash("combat set", user=GM, character="Ana", level=20)
    knocked = await table.slash("combat set", user=GM, character="Goon", level=5)
    assert knocked.answer.content.endswith(
        "Only PCs are left standing. Before the fight ends, Kit may rally (once per fight).")
    offer = knocked.prompt
    assert offer.content == (f"**Kit ({BOB.mention})** may rally the team before the fight "
                             "ends (once per fight)")
    assert offer.labels == ["Rally", "End without rallying"]
    assert [int(u) for u in offer.allowed_mentions["users"]] == [BOB.id]
    board = (await table.slash("combat status")).content
    assert "Waiting for: Kit (rally before the end?)" in board
    refused = await table.slash("attack", user=ALICE, target="Goon")
    assert refused.ephemeral and "The fight is ending" in refused.content

    assert (await table.click(offer, "Rally", user=ALICE)).ephemeral
    table.dice(4, 5)
    rallied = await table.click(offer, "Rally", user=BOB)
    text = rallied.said
    assert text.startswith("Kit rallies PCs: 45 (4·5) vs 50 — SUCCESS.\n"
                           "Ana's level rises 20 → 40.\n"
                           "Only PCs are left standing. Combat over after round 1."), text
    sheet = await table.slash("sheet", character="Ana")
    assert "Level 40/40" in sheet.content, sheet.content


async def test_a_critical_rally_asks_the_leader(table: Table) -> None:
    await _leader(table, "Kit", "leader.rally", level=50)
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=30, npc=True)
    await _fight(table, ("Kit", BOB), ("Ana", ALICE), ("Goon", GM))
    await _pcs_first(table, 3, 4, 6, 2)
    await table.slash("combat set", user=GM, character="Ana", level=20)
    table.dice(3, 3)
    rallied = await table.slash("rally", user=BOB)
    choice = rallied.prompt
    assert choice.content == (f"**Kit ({BOB.mention})** rolled a critical success: extra "
                              "action or adjust?")
    assert (await table.click(choice, "Extra action", user=ALICE)).ephemeral
    took = await table.click(choice, "Extra action", user=BOB)
    assert took.said == ("Kit takes an extra action this round.\n"
                                   "Ana's level rises 20 → 33.")


async def test_direct_asks_the_directed_player_to_act_or_refuse(table: Table) -> None:
    await _leader(table, "Kit", "leader.direct", level=50)
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=30, npc=True)
    await _fight(table, ("Kit", BOB), ("Ana", ALICE), ("Goon", GM))
    await _pcs_first(table, 3, 4, 6, 2)

    assert await table.autocomplete("direct", "who", user=BOB) == ["Ana"]
    refused = await table.slash("direct", user=ALICE, who="Kit")
    assert refused.ephemeral
    assert refused.content == "Ana cannot direct: that takes the Leader ability Direct."
    directed = await table.slash("direct", user=BOB, who="Ana")
    assert directed.answer.content == ("Kit directs Ana: Ana may take an action without "
                                       "spending one of their own, or refuse.")
    asked = directed.prompt
    assert asked.content == (f"**Round 1, the PCs' turn:** Ana ({ALICE.mention})\n"
                             f"**Ana ({ALICE.mention})** was directed: act now with a slash "
                             "command, without spending your own action, or refuse")
    assert asked.labels == ["My options", "Done (PCs)", "Catch up",
                            "Refuse the direction"]
    assert [int(u) for u in asked.allowed_mentions["users"]] == [ALICE.id]
    board = (await table.slash("combat status")).content
    assert _line(board, "Ana").endswith("a1 directed") and _line(board, "Kit").endswith("a0")
    assert "Ana (directed: act or refuse)" in board

    not_hers = await table.click(asked, "Refuse the direction", user=BOB)
    assert not_hers.ephemeral
    assert not_hers.content == "Only their player or a GM can give orders to Ana."
    attacked = await table.slash("attack", user=ALICE, target="Goon")
    assert attacked.answer.content.startswith(
        "Ana acts on Kit's direction, keeping their own action.\nAna attacks Goon with Knife.")
    board = (await table.slash("combat status")).content
    assert _line(board, "Ana").endswith("a1")


async def test_refusing_a_direction_gives_the_leader_the_action_back(table: Table) -> None:
    await _leader(table, "Kit", "leader.direct", level=50)
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=30, npc=True)
    await _fight(table, ("Kit", BOB), ("Ana", ALICE), ("Goon", GM))
    await _pcs_first(table, 3, 4, 6, 2)
    directed = await table.slash("direct", user=BOB, who="Ana")
    refusal = await table.click(directed.prompt, "Refuse the direction", user=ALICE)
    assert refusal.said == "Ana refuses Kit's direction: Kit keeps the action."
    board = (await table.slash("combat status")).content
    assert _line(board, "Kit").endswith("a1") and _line(board, "Ana").endswith("a1")


async def test_a_directed_attack_stopped_by_a_surrender_leaves_the_direction(table: Table) -> None:
    await _leader(table, "Kit", "leader.direct", level=50)
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=30, npc=True)
    await add_character(table, "Rat", user=GM, level=20, npc=True)
    await _fight(table, ("Kit", BOB), ("Ana", ALICE), ("Goon", GM), ("Rat", GM))
    await _pcs_first(table, 3, 4, 6, 2)
    await table.slash("direct", user=BOB, who="Ana")
    attacked = await table.slash("attack", user=ALICE, target="Goon")
    assert attacked.answer.content.startswith(
        "Ana acts on Kit's direction, keeping their own action.")

    gave_up = await table.slash("surrender", user=GM, **{"as": "Goon"})
    assert gave_up.answer.content.startswith(
        "Ana's attack does not take effect; Kit's direction waits on Ana again.\n"
        "Goon surrenders"), gave_up.answer.content
    asked = gave_up.prompt
    assert f"**Ana ({ALICE.mention})** was directed" in asked.content
    assert "Refuse the direction" in asked.labels
    board = (await table.slash("combat status")).content
    assert _line(board, "Ana").endswith("a1 directed") and _line(board, "Kit").endswith("a0")

    # She acts on it again, and keeps her own action for later.
    table.dice(6, 6)
    again = await table.slash("attack", user=ALICE, target="Rat")
    assert again.answer.content.startswith(
        "Ana acts on Kit's direction, keeping their own action.\nAna attacks Rat with Knife.")
    board = (await table.slash("combat status")).content
    assert _line(board, "Ana").endswith("a1")
