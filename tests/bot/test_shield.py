"""The Shield abilities at the table (004 "Abilities": Shield): the Defend button for whoever may
defend the one attacked, and the All-Out Defend offer after initiative, each for the right
player; the board shows who is all-out defending."""

from __future__ import annotations

from testbed.harness import ALICE, BOB, GM, Message, Table, User


async def _character(table: Table, name: str, *, user: User, level: int = 50, npc: bool = False,
                     items: tuple[tuple[str, str, str], ...] = (),
                     abilities: tuple[str, ...] = ()) -> None:
    options: dict[str, object] = {"level": level, **({"npc": True} if npc else {})}
    created = await table.slash("character create", user=user, name=name, **options)
    assert not created.ephemeral, created.content
    for item, kind, hand in items:
        for command, extra in (("character item add", {"name": item, "kind": kind}),
                               ("character item hold", {"item": item, "hand": hand})):
            reply = await table.slash(command, user=user, character=name, **extra)
            assert not reply.ephemeral, reply.content
    for ability in abilities:
        reply = await table.slash("character ability add", user=user, character=name,
                                  ability=ability)
        assert not reply.ephemeral, reply.content


KNIFE = ("Knife", "melee_1h", "right")
SHIELD = ("Riot shield", "shield", "left")


async def _fight(table: Table, bea_area: str = "Entrance", *bea_abilities: str) -> None:
    """Ana (Alice's, a knife), Bea (Bob's, 60, a riot shield and ``bea_abilities``), Goon (an
    NPC, 25, a knife); round 1, the PCs won initiative and let the NPCs go first."""
    await _character(table, "Ana", user=ALICE, items=(KNIFE,))
    await _character(table, "Bea", user=BOB, level=60, items=(SHIELD,), abilities=bea_abilities)
    await _character(table, "Goon", user=GM, level=25, npc=True, items=(KNIFE,))
    await table.slash("combat start", user=GM, map="Nightclub")
    await table.slash("combat add", user=ALICE, character="Ana", area="Entrance")
    await table.slash("combat add", user=BOB, character="Bea", area=bea_area)
    await table.slash("combat add", user=GM, character="Goon", area="Entrance")
    table.dice(3, 4, 6, 2)  # Bea rolls 34 for the PCs; Goon 62 fails
    begun = await table.slash("combat begin", user=GM)
    await table.click(begun.prompt, "NPCs first", user=BOB)


async def test_the_defend_button_for_another_character_is_the_shield_bearers(
        table: Table) -> None:
    await _fight(table, "Entrance", "shield.defend_others", "shield.good_defend")
    declared = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    window = declared.prompt
    assert window.labels == ["Ana: Defend", "Ana: Counterattack",
                             "Ana: Counterattack (less-lethal)", "Ana: Pass", "Bea: Defend Ana",
                             "Bea: Pass", "Resolve now (GM)"]
    assert ALICE.mention in window.content and BOB.mention in window.content
    refused = await table.click(window, "Bea: Defend Ana", user=ALICE)
    assert refused.ephemeral and "Only their player" in refused.content
    defended = await table.click(window, "Bea: Defend Ana", user=BOB)
    assert "Bea defends Ana." in defended.answer.content
    # One Defend per attack: Ana may still counterattack, or pass.
    assert defended.prompt.labels == ["Counterattack", "Counterattack (less-lethal)", "Pass",
                                      "Resolve now (GM)"]
    table.dice(2, 1, 4, 1)  # Goon 21 (a hit, undefended); Bea 41
    passed = await table.click(defended.prompt, "Pass", user=ALICE)
    assert passed.prompt.labels == ["Re-roll tens", "Re-roll ones", "Re-roll both", "Keep"]
    kept = await table.click(passed.prompt, "Keep", user=BOB)  # good Defend, with the shield
    assert "Bea's Defend (41) beats 21: the attack misses." in kept.answer.content


async def test_no_defend_button_for_a_shield_bearer_elsewhere(table: Table) -> None:
    await _fight(table, "Dance Floor", "shield.defend_others")
    declared = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    assert BOB.mention not in declared.prompt.content
    assert "Bea: Defend Ana" not in declared.prompt.labels
    refused = await table.slash("defend", user=BOB, **{"for": "Ana"})
    assert refused.ephemeral and "being in Ana's area" in refused.content


async def test_defend_for_by_slash_command(table: Table) -> None:
    await _fight(table, "Entrance", "shield.defend_others")
    await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    defended = await table.slash("defend", user=BOB, **{"for": "Ana"})
    assert "Bea defends Ana." in defended.answer.content


async def test_all_out_defend_is_offered_to_its_player_and_shown_on_the_board(
        table: Table) -> None:
    await _fight(table, "Entrance", "shield.all_out_defend")
    offer = table.channel_messages()[-1]
    assert offer.content.splitlines()[1].startswith(
        f"**Bea ({BOB.mention})** may declare All-Out Defend"), offer.content
    assert offer.labels == ["My options", "Done (NPCs)", "Catch up", "All-Out Defend"]
    refused = await table.click(offer, "All-Out Defend", user=ALICE)
    assert refused.ephemeral
    declared = await table.click(offer, "All-Out Defend", user=BOB)
    assert "Bea declares All-Out Defend" in declared.answer.content
    board = await table.slash("combat status")
    assert "Bea [PCs] Entrance 60/60 a0 all-out" in board.content, board.content
    attacked = await table.slash("attack", user=GM, target="Bea", **{"as": "Goon"})
    assert attacked.prompt.labels == ["Defend", "Pass", "Resolve now (GM)"]
    refused = await table.slash("attack", user=BOB, target="Goon")
    assert refused.ephemeral


async def test_alloutdefend_by_slash_command_and_too_late(table: Table) -> None:
    await _fight(table, "Entrance", "shield.all_out_defend")
    declared = await table.slash("alloutdefend", user=BOB)
    assert "Bea declares All-Out Defend" in declared.answer.content
    again = await table.slash("alloutdefend", user=BOB)
    assert again.ephemeral and "already all-out defending" in again.content


async def test_a_shield_is_offered_to_attack_with_but_not_to_counterattack_with(
        table: Table) -> None:
    # "Can Attack using a shield": the Attack action only (rules notes, Combat 19).
    await _fight(table, "Entrance", "shield.attack")
    attack = await table.autocomplete("attack", "with", user=BOB)
    counter = await table.autocomplete("counterattack", "with", user=BOB)
    assert "Riot shield" in attack and "Riot shield" not in counter, (attack, counter)


GRENADE = ("Grenade", "aoe", "right")


async def _blast_on_bea(table: Table, *bea_abilities: str, all_out: bool) -> Message:
    """Bea (Bob's, 60, a riot shield and ``bea_abilities``) at the Dance Floor; Gren (an NPC,
    50, a Blast grenade) at the Entrance throws it there after the PCs let the NPCs go first
    (Bea declared All-Out Defend when ``all_out``): 40, the tens for 4 damage and one target.
    The prompt asking Bea to Defend against it."""
    await _character(table, "Bea", user=BOB, level=60, items=(SHIELD,), abilities=bea_abilities)
    await _character(table, "Gren", user=GM, level=50, npc=True, abilities=("aoe.blast",))
    for command, extra in (
        ("character item add", {"name": "Grenade", "kind": "aoe", "ability": "aoe.blast"}),
        ("character item hold", {"item": "Grenade"}),
    ):
        reply = await table.slash(command, user=GM, character="Gren", **extra)
        assert not reply.ephemeral, reply.content
    await table.slash("combat start", user=GM, map="Nightclub")
    await table.slash("combat add", user=BOB, character="Bea", area="Dance Floor")
    await table.slash("combat add", user=GM, character="Gren", area="Entrance")
    table.dice(3, 4, 6, 2)  # Bea rolls 34 for the PCs; Gren 62 fails
    begun = await table.slash("combat begin", user=GM)
    await table.click(begun.prompt, "NPCs first", user=BOB)
    if all_out:
        declared = await table.click(table.channel_messages()[-1], "All-Out Defend", user=BOB)
        assert "Bea declares All-Out Defend" in declared.answer.content
    table.dice(4, 0)
    thrown = await table.slash("aoe", user=GM, area="Dance Floor", **{"as": "Gren"})
    assert not thrown.ephemeral, thrown.content
    chose = await table.click(thrown.prompt, "Tens die: 4", user=GM)
    return chose.prompt


async def test_an_all_out_defend_against_a_blast_is_never_critical(table: Table) -> None:
    # RULINGS 22: "that roll, like every All-Out Defend roll, is neither good nor critical".
    asked = await _blast_on_bea(table, "shield.good_defend", "shield.all_out_defend",
                                all_out=True)
    question = asked.content
    table.dice(4, 4, 3, 4, 6, 2)  # Bea's Defend 44; the round ends: round 2's initiative
    defended = await table.click(asked, "Defend", user=BOB)
    text = defended.answer.content
    assert "44 (4·4) vs 60 — SUCCESS" in text and "CRITICAL" not in text, text
    assert "Bea's Defend (44) beats 40: no damage." in text, text
    labels = [m.labels for m in table.channel_messages()[-3:]]
    assert not any("Extra action" in ls or "Re-roll tens" in ls for ls in labels), labels
    assert "applies:" not in question and "spend an action to Defend" not in question, question
    assert "none in All-Out Defend" in question, question


async def test_a_shields_good_defend_does_not_apply_against_a_blast(table: Table) -> None:
    # RULINGS 22: "Neither cover nor shields apply to AoEs": no good (shield defend) re-roll.
    asked = await _blast_on_bea(table, "shield.good_defend", all_out=False)
    assert "applies:" not in asked.content, asked.content
    table.dice(1, 2)
    defended = await table.click(asked, "Defend", user=BOB)
    assert "12 (1·2) vs 60 — SUCCESS" in defended.answer.content, defended.answer.content
    assert "Re-roll" not in " ".join(defended.prompt.labels), defended.prompt.labels
