"""A GM answers every kind of prompt for an NPC with the prompt's own buttons: reactions,
re-rolls, criticals (Adjust's form included), damage dice, modifiers, armor, where a stopped
mover ends, first aid, AoE, All-Out Defend, and a leader's choices. Each press is the NPC's
answer, shown to the table; a player pressing it is refused."""

from __future__ import annotations

from testbed.harness import ALICE, BOB, GM, Message, Reply, Table
from tests.bot.fights import add_character, begin_pcs_first, start_fight


async def _gm_presses(table: Table, message: Message, label: str) -> Reply:
    """The GM presses ``label``: the table sees the answer."""
    pressed = await table.click(message, label, user=GM)
    assert pressed.messages and not pressed.answer.ephemeral, [
        m.content for m in pressed.messages]
    return pressed


async def _not_alices(table: Table, message: Message, label: str, npc: str) -> None:
    refused = await table.click(message, label, user=ALICE)
    assert refused.ephemeral and refused.content == f"Only a GM can give orders to {npc}.", (
        refused.content)


async def _learn(table: Table, name: str, *abilities: str) -> None:
    for ability in abilities:
        learnt = await table.slash("character ability add", user=GM, character=name,
                                   ability=ability)
        assert not learnt.ephemeral, learnt.content


async def _gear(table: Table, name: str, item: str, kind: str, **options: object) -> None:
    added = await table.slash("character item add", user=GM, character=name, name=item,
                              kind=kind, **options)
    assert not added.ephemeral, added.content


async def _npcs_first(table: Table) -> None:
    table.dice(8, 0, 2, 0)  # Ana 80 fails; the NPCs' 20 succeeds
    begun = await table.slash("combat begin", user=GM)
    await _gm_presses(table, begun.prompt, "NPCs first")


async def _goon_against_ana(table: Table, level: int = 60, *abilities: str,
                            weapon: tuple[str, str] = ("Knife", "melee_1h"),
                            goon_area: str = "Dance Floor", vest: bool = False) -> None:
    """Ana (Alice's PC, 40, a knife) and Goon (an NPC at ``level`` with ``weapon`` in hand,
    ``abilities``, and a vest on the torso with ``vest``), not begun."""
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=level, npc=True, weapon=weapon)
    await _learn(table, "Goon", *abilities)
    if vest:
        await _gear(table, "Goon", "Vest", "armor", location="torso")
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", goon_area),
                      user_of={"Ana": ALICE})


async def test_the_gm_answers_an_npcs_reroll_damage_die_and_modifier(table: Table) -> None:
    await _goon_against_ana(table, 60, "melee_1h.good_attack", "melee_1h.precise_attack")
    await _npcs_first(table)
    declared = await table.slash("attack", user=GM, target="Ana")
    table.dice(3, 2)  # 32 against 60: a hit Goon may still re-roll (good)
    rolled = await table.click(declared.prompt, "Pass", user=ALICE)
    reroll = rolled.prompt
    assert reroll.labels == ["Re-roll tens", "Re-roll ones", "Re-roll both", "Keep"]
    await _not_alices(table, reroll, "Keep", "Goon")
    kept = await _gm_presses(table, reroll, "Keep")  # precise may apply: no re-roll
    assert "Goon keeps the roll." in kept.answer.content, kept.answer.content
    dice = kept.prompt
    assert dice.labels == ["3 damage · 2: right leg", "2 damage · 3: right leg"]
    chosen = await _gm_presses(table, dice, "3 damage · 2: right leg")
    precise = chosen.prompt
    assert precise.labels == ["Precise +1", "Precise −1", "No modifier"]
    used = await _gm_presses(table, precise, "Precise +1")
    assert "Goon is precise: location 3 (right leg)." in used.answer.content, (
        used.answer.content)


async def test_the_gm_adjusts_an_npcs_critical_up_to_its_max_level(table: Table) -> None:
    """A roll of exactly the level adjusts up to the max level (RULINGS 5): the form says so."""
    await _goon_against_ana(table, 25)
    await _npcs_first(table)
    await table.slash("combat set", user=GM, character="Goon", level=23)
    declared = await table.slash("attack", user=GM, target="Ana")
    table.dice(2, 3)  # 23 against 23: a critical success
    rolled = await table.click(declared.prompt, "Pass", user=ALICE)
    critical = rolled.prompt
    assert critical.labels == ["Extra action", "Adjust"]
    refused = await table.click(critical, "Adjust", user=ALICE)
    assert refused.ephemeral and refused.content == "Only a GM decides for Goon."
    opened = await table.click(critical, "Adjust", user=GM)
    assert opened.modal is not None
    assert list(opened.modal.fields) == ["Set Goon's roll to (1-25)"]
    label = "Set Goon's roll to (1-25)"
    too_high = await table.submit(opened.modal, {label: "30"}, user=GM, message=critical)
    assert too_high.ephemeral
    assert too_high.content == "A critical success can be adjusted to 1-25, not 30."
    done = await table.submit(opened.modal, {label: "25"}, user=GM, message=critical)
    assert "Goon adjusts the roll to 25." in done.answer.content, done.answer.content


async def test_the_gm_answers_an_npcs_reaction_and_armor(table: Table) -> None:
    await _goon_against_ana(table, 25, vest=True)
    await begin_pcs_first(table)
    declared = await table.slash("attack", target="Goon")
    window = declared.prompt
    assert window.labels == ["Defend", "Counterattack", "Counterattack (less-lethal)", "Pass",
                             "Resolve now (GM)"]
    await _not_alices(table, window, "Counterattack", "Goon")
    table.dice(3, 4, 8, 7)  # Ana 34 hits; Goon's counterattack 87 misses
    countered = await _gm_presses(table, window, "Counterattack")
    assert "Goon counterattacks" in countered.answer.content, countered.answer.content
    hit = await table.click(countered.prompt, "3 damage · 4: torso", user=ALICE)
    armor = hit.prompt
    assert armor.labels == ["Destroy armor", "Take the damage"]
    await _not_alices(table, armor, "Destroy armor", "Goon")
    table.dice(3, 4, 6, 2)  # the round ends: round 2's initiative
    used = await _gm_presses(table, armor, "Destroy armor")
    assert "Goon's Vest is destroyed instead of taking 3 damage" in used.answer.content, (
        used.answer.content)


async def test_the_gm_takes_an_npcs_extra_action_and_destroys_an_item(table: Table) -> None:
    await _goon_against_ana(table, 25, "melee_2h.critical_destroy", weapon=("Maul", "melee_2h"))
    await _npcs_first(table)
    declared = await table.slash("attack", user=GM, target="Ana")
    table.dice(2, 2)  # 22 against 25: a critical success
    rolled = await table.click(declared.prompt, "Pass", user=ALICE)
    critical = rolled.prompt
    assert critical.labels == ["Extra action", "Adjust"]
    await _not_alices(table, critical, "Extra action", "Goon")
    extra = await _gm_presses(table, critical, "Extra action")
    assert "Goon takes an extra action this round." in extra.answer.content
    destroy = extra.prompt
    assert destroy.labels == ["Destroy Knife", "Destroy nothing"]
    await _not_alices(table, destroy, "Destroy Knife", "Goon")
    destroyed = await _gm_presses(table, destroy, "Destroy Knife")
    assert "Goon's critical success destroys Ana's Knife; it leaves Ana's hand." in (
        destroyed.answer.content), destroyed.answer.content


async def _medic(table: Table, wounds: dict[str, str]) -> None:
    """Goon (an NPC, 60, First Aid's sure success, a kit in hand and a spare one) and Rat (an
    NPC, 30, with ``wounds``) on the dance floor; Ana (Alice's PC) in the alley; the NPCs act
    first."""
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=60, npc=True, weapon=("Kit", "first_aid"))
    await _learn(table, "Goon", "first_aid.sure")
    await _gear(table, "Goon", "Spare kit", "first_aid")
    await add_character(table, "Rat", user=GM, level=30, npc=True, weapon=None)
    await start_fight(table, ("Ana", "Alley"), ("Goon", "Dance Floor"), ("Rat", "Dance Floor"),
                      user_of={"Ana": ALICE})
    for location, marks in wounds.items():
        await table.slash("combat set", user=GM, character="Rat", location=location,
                          marks=marks)
    await _npcs_first(table)


async def test_the_gm_answers_an_npcs_first_aid(table: Table) -> None:
    await _medic(table, {"head": "\\\\", "right_arm": "\\", "left_arm": "\\"})
    aided = await table.slash("firstaid", user=GM, target="Rat", **{"as": "Goon"})
    sure = aided.prompt
    assert sure.labels == ["Roll", "Sure success"]
    await _not_alices(table, sure, "Roll", "Goon")
    table.dice(1, 4)  # 14 against 60
    rolled = await _gm_presses(table, sure, "Roll")
    dice = rolled.prompt
    assert dice.labels == ["1 box · 4 more locations", "4 boxes · 1 more location"]
    chosen = await _gm_presses(table, dice, "1 box · 4 more locations")
    assert "Goon chooses 1 box and 4 additional locations." in chosen.answer.content, (
        chosen.answer.content)
    boxes = chosen.prompt
    assert boxes.labels == ["Head", "Right arm", "Left arm", "Done"]
    await _not_alices(table, boxes, "Head", "Goon")
    erased = await _gm_presses(table, boxes, "Head")
    assert "Erased 1 on the head." in erased.answer.content, erased.answer.content


async def test_the_gm_places_an_npcs_permanent_wounds(table: Table) -> None:
    # (and a \\ on the left leg: without one first aid has nothing to treat, rules notes 57)
    await _medic(table, {"head": "XXX", "torso": "XXXX", "left_leg": "\\"})
    await table.slash("combat set", user=GM, character="Goon", actions=2)
    await table.slash("item hold", user=GM, item="Spare kit", **{"as": "Goon"})
    aided = await table.slash("firstaid", user=GM, target="Rat", **{"as": "Goon"})
    table.dice(6, 6)  # 66 against 60: a critical failure, 6 of Rat's 7 X become ■
    failed = await _gm_presses(table, aided.prompt, "Roll")
    permanent = failed.prompt
    assert permanent.labels == ["Head", "Torso"], permanent.labels
    await _not_alices(table, permanent, "Torso", "Rat")
    placed = await _gm_presses(table, permanent, "Torso")
    assert placed.prompt.labels == ["Head", "Torso"], placed.prompt.labels


async def test_the_gm_picks_an_npcs_blast_die_and_target(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Bea", user=BOB, level=30)
    await add_character(table, "Goon", user=GM, level=50, npc=True, weapon=None)
    await _learn(table, "Goon", "aoe.blast")
    await _gear(table, "Goon", "Grenade", "aoe", ability="aoe.blast")
    await table.slash("character item hold", user=GM, character="Goon", item="Grenade")
    await start_fight(table, ("Ana", "Dance Floor"), ("Bea", "Dance Floor"),
                      ("Goon", "Entrance"), user_of={"Ana": ALICE, "Bea": BOB})
    await _npcs_first(table)
    table.dice(4, 0)
    thrown = await table.slash("aoe", user=GM, area="Dance Floor")
    dice = thrown.prompt
    assert dice.labels == ["Tens die: 4", "Ones die: 0"]
    await _not_alices(table, dice, "Tens die: 4", "Goon")
    chosen = await _gm_presses(table, dice, "Tens die: 4")  # 4 damage, one target of two
    target = chosen.prompt
    assert target.labels == ["Hit Ana", "Hit Bea"]
    await _not_alices(table, target, "Hit Ana", "Goon")
    hit = await _gm_presses(table, target, "Hit Ana")
    assert "The blast takes Ana." in hit.answer.content, hit.answer.content


async def test_the_gm_decides_an_npcs_armor_against_a_blast(table: Table) -> None:
    await add_character(table, "Ana", level=50, weapon=None)
    await table.slash("character ability add", character="Ana", ability="aoe.blast")
    await table.slash("character item add", character="Ana", name="Grenade", kind="aoe",
                      ability="aoe.blast")
    await table.slash("character item hold", character="Ana", item="Grenade")
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await _gear(table, "Goon", "Vest", "armor", location="torso")
    await start_fight(table, ("Ana", "Entrance"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    await begin_pcs_first(table)
    table.dice(4, 0)
    thrown = await table.slash("aoe", area="Dance Floor")
    chosen = await table.click(thrown.prompt, "Tens die: 4", user=ALICE)
    took = await _gm_presses(table, chosen.prompt, "Take the damage")
    place = took.prompt
    for _ in range(4):
        place = (await _gm_presses(table, place, "Torso")).prompt
    assert place.labels == ["Destroy armor", "Take the damage"]
    await _not_alices(table, place, "Destroy armor", "Goon")
    table.dice(3, 4, 6, 2)  # round 2's initiative once the blast is over
    used = await _gm_presses(table, place, "Destroy armor")
    assert "Vest" in used.answer.content, used.answer.content


async def test_the_gm_declares_an_npcs_all_out_defend(table: Table) -> None:
    await _goon_against_ana(table, 50, "shield.all_out_defend",
                            weapon=("Riot shield", "shield"))
    await begin_pcs_first(table)
    offer = table.channel_messages()[-1]
    assert offer.content.splitlines()[1].startswith(
        "**Goon (GM)** may declare All-Out Defend"), offer.content
    await _not_alices(table, offer, "All-Out Defend", "Goon")
    declared = await _gm_presses(table, offer, "All-Out Defend")
    assert "Goon declares All-Out Defend" in declared.answer.content


async def test_the_gm_answers_an_npc_leaders_choices(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=40, npc=True)
    await add_character(table, "Boss", user=GM, level=30, npc=True)
    await _learn(table, "Boss", "leader.good_initiative")
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      ("Boss", "Dance Floor"), user_of={"Ana": ALICE})
    begun = await table.slash("combat begin", user=GM)
    asked = begun.prompt
    assert asked.labels == ["Goon rolls", "Boss rolls"]
    refused = await table.click(asked, "Boss rolls", user=ALICE)
    assert refused.ephemeral and refused.content == (
        "Goon has the highest level of NPCs: only a GM chooses whether a leader rolls "
        "initiative instead.")
    table.dice(8, 0, 2, 0)  # Ana 80 fails; Boss 20 succeeds
    let = await _gm_presses(table, asked, "Boss rolls")
    assert "Goon lets Boss roll initiative for NPCs." in let.answer.content


async def test_the_gm_refuses_a_direction_for_an_npc_and_skips_the_end_rally(
        table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await add_character(table, "Boss", user=GM, level=60, npc=True)
    await _learn(table, "Boss", "leader.direct", "leader.rally")
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      ("Boss", "Dance Floor"), user_of={"Ana": ALICE})
    await _npcs_first(table)
    directed = await table.slash("direct", user=GM, who="Goon", **{"as": "Boss"})
    refuse = directed.prompt
    assert refuse.labels == ["My options", "Done (NPCs)", "Catch up",
                             "Refuse the direction"]
    await _not_alices(table, refuse, "Refuse the direction", "Goon")
    refused = await _gm_presses(table, refuse, "Refuse the direction")
    assert "Goon refuses Boss's direction: Boss keeps the action." in refused.answer.content
    knocked = await table.slash("combat set", user=GM, character="Ana", level=5)
    offer = knocked.prompt
    assert offer.labels == ["Rally", "End without rallying"]
    await _not_alices(table, offer, "End without rallying", "Boss")
    ended = await _gm_presses(table, offer, "End without rallying")
    assert "Combat over" in ended.answer.content, ended.answer.content
