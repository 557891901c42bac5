"""A GM may press a player's decision for them (a GM may decide for anyone); the table and the
fight's log then say it was the GM's ("(by the GM)"), through the real dispatch path: Ana's
damage die, her Destroy armor, her reaction and her AoE damage pressed by the GM, and the same
choices by Alice read as before."""

from __future__ import annotations

from testbed.harness import ALICE, GM, Message, Table
from tests.bot.fights import add_character, arm_with_grenade, begin_pcs_first, start_fight


async def _ana_in_a_vest_against_goon(table: Table) -> None:
    """Ana (Alice's, 40, a knife and a vest on the torso) and Goon (an NPC at 60, a knife) on
    the Dance Floor; round 1 begun, the PCs first."""
    await add_character(table, "Ana", level=40)
    vest = await table.slash("character item add", user=ALICE, character="Ana", name="Vest",
                             kind="armor", location="torso")
    assert not vest.ephemeral, vest.content
    await add_character(table, "Goon", user=GM, level=60, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    await begin_pcs_first(table)


async def test_the_gm_pressing_a_players_damage_die_and_armor_is_recorded(
        table: Table) -> None:
    await _ana_in_a_vest_against_goon(table)
    declared = await table.slash("attack", target="Goon")
    table.dice(3, 4)  # 34 against 40: Ana hits
    rolled = await table.click(declared.prompt, "Pass", user=GM)
    dice = rolled.prompt
    assert f"**Ana ({ALICE.mention})** chooses which die is damage" in dice.content
    chosen = await table.click(dice, "3 damage · 4: torso", user=GM)  # Alice's to decide
    assert not chosen.answer.ephemeral
    assert ("Ana chooses 3 for damage and 4 for location (torso) (by the GM)."
            in chosen.answer.content), chosen.answer.content

    # The NPCs' turn: Goon hits Ana's torso, where her vest is; the GM presses her armor.
    table.dice(3, 4)  # 34 against 60: Goon hits (Ana has no action left to react with)
    declared = await table.slash("attack", user=GM, target="Ana")
    hit = await table.click(declared.prompt, "3 damage · 4: torso", user=GM)  # Goon's own
    assert "(by the GM)" not in hit.answer.content, hit.answer.content  # an NPC's: the GM's
    armor = hit.prompt
    assert armor.labels == ["Destroy armor", "Take the damage"]
    table.dice(3, 4, 6, 2)  # the round ends: round 2's initiative
    used = await table.click(armor, "Destroy armor", user=GM)
    text = used.answer.content
    assert "Ana chooses to destroy armor (by the GM).\nAna's Vest is destroyed" in text, text

    log = await table.slash("combat log", user=ALICE)
    assert "Ana chooses 3 for damage and 4 for location (torso) (by the GM)." in log.content
    assert "Ana chooses to destroy armor (by the GM)." in log.content, log.content


async def test_a_players_own_choices_read_as_before(table: Table) -> None:
    await _ana_in_a_vest_against_goon(table)
    declared = await table.slash("attack", target="Goon")
    table.dice(3, 4)
    rolled = await table.click(declared.prompt, "Pass", user=GM)
    chosen = await table.click(rolled.prompt, "3 damage · 4: torso", user=ALICE)
    assert "Ana chooses 3 for damage and 4 for location (torso)." in chosen.answer.content
    table.dice(3, 4)
    declared = await table.slash("attack", user=GM, target="Ana")
    hit = await table.click(declared.prompt, "3 damage · 4: torso", user=GM)
    table.dice(3, 4, 6, 2)
    used = await table.click(hit.prompt, "Destroy armor", user=ALICE)
    assert "(by the GM)" not in used.answer.content
    assert "chooses to destroy armor" not in used.answer.content  # told by the damage line
    assert "Ana's Vest is destroyed" in used.answer.content, used.answer.content


async def test_the_gm_answering_a_players_reaction_is_recorded(table: Table) -> None:
    """Ana passes her turn; Goon attacks her and the GM answers her reaction window."""
    await _ana_in_a_vest_against_goon(table)
    passed = await table.slash("done", user=ALICE)
    assert not passed.ephemeral, passed.content
    declared = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    window = declared.posted("may react")
    assert "Counterattack" in window.labels, window.labels
    table.dice(9, 9, 9, 9, 3, 4, 6, 2)  # both miss; the round ends: round 2's initiative
    answered = await table.click(window, "Counterattack", user=GM)
    text = "\n".join(m.content for m in answered.messages)
    assert "Ana counterattacks with Knife (by the GM)." in text, text
    log = await table.slash("combat log", user=ALICE)
    assert "Ana counterattacks with Knife (by the GM)." in log.content, log.content


async def test_a_players_own_reaction_reads_as_before(table: Table) -> None:
    await _ana_in_a_vest_against_goon(table)
    await table.slash("done", user=ALICE)
    declared = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    table.dice(9, 9, 3, 4, 6, 2)
    answered = await table.click(declared.posted("may react"), "Pass", user=ALICE)
    text = "\n".join(m.content for m in answered.messages)
    assert "Ana does not react." in text and "(by the GM)" not in text, text


async def _goon_throws_a_grenade_at_ana(table: Table) -> Message:
    """Ana in her vest on the Dance Floor; Goon, the GM's, throws a grenade there from the
    Bar on the NPCs' turn: 4 damage to Ana; the prompt asking whether she Defends."""
    await add_character(table, "Ana", level=40)
    vest = await table.slash("character item add", user=ALICE, character="Ana", name="Vest",
                             kind="armor", location="torso")
    assert not vest.ephemeral, vest.content
    await add_character(table, "Goon", user=GM, level=60, npc=True, weapon=None)
    await arm_with_grenade(table, "Goon", user=GM)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Bar"), user_of={"Ana": ALICE})
    table.dice(6, 1, 2, 0)  # the NPCs win initiative with 20
    begun = await table.slash("combat begin", user=GM)
    await table.click(begun.prompt, "NPCs first", user=GM)
    table.dice(4, 0)
    thrown = await table.slash("aoe", user=GM, area="Dance Floor", **{"as": "Goon"})
    chose = await table.click(thrown.prompt, "Tens die: 4", user=GM)
    return chose.prompt


async def test_the_gm_placing_a_players_aoe_damage_and_armor_is_recorded(table: Table) -> None:
    defend = await _goon_throws_a_grenade_at_ana(table)
    took = await table.click(defend, "Take the damage", user=GM)
    assert "Ana does not defend (by the GM)." in took.answer.content, took.answer.content
    placed = await table.click(took.prompt, "Torso", user=GM)
    assert placed.said == "Ana: 1 point to the torso (by the GM) (3 left to place)."
    for _ in range(3):
        placed = await table.click(placed.prompt, "Torso", user=GM)
    armor = placed.prompt
    used = await table.click(armor, "Destroy armor", user=GM)
    text = used.answer.content
    assert "Ana chooses to destroy armor on the torso (by the GM).\n" in text, text
    log = (await table.slash("combat log", user=ALICE)).content
    assert "Ana: 1 point to the torso (by the GM) (all 4 placed)." in log, log


async def test_a_gm_correction_to_level_0_lets_a_waiting_attack_lapse_unrolled(
        table: Table) -> None:
    """Rules note 56: Goon attacks Ana; while her reaction window is open the GM sets Goon's
    level to 0 (`/combat set`). The attack lapses there and then, no die rolled for a fighter
    who cannot act (the dice once raised "A level is between 1 and 99, not 0" when the window
    closed, and the table read an error reference); the GM's "Resolve now" on the old window
    is told that the fight has moved on."""
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await add_character(table, "Rat", user=GM, level=20, npc=True)  # the NPCs still stand
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"), ("Rat", "Bar"),
                      user_of={"Ana": ALICE})
    await begin_pcs_first(table)
    passed = await table.slash("done", user=ALICE)
    assert not passed.ephemeral, passed.content
    declared = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    window = declared.posted("may react")
    table.dice()  # no die may be rolled from here on
    corrected = await table.slash("combat set", user=GM, character="Goon", level=0)
    said = "\n".join(m.content for m in corrected.messages)
    assert not corrected.answer.ephemeral, said
    assert "GM correction to Goon: level 25 → 0." in said, said
    assert "Goon can no longer act: the attack on Ana lapses, unrolled." in said, said
    assert "ref `" not in said
    closed = await table.click_stale(window, "Resolve now (GM)", user=GM)
    assert closed.ephemeral and "ref `" not in closed.content, closed.content
    assert "the fight has moved on" in closed.content, closed.content
