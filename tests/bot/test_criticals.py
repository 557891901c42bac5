"""Abilities that change a critical success, the First Aid ability's sure success, and the one
modifier per roll, as the table meets them: the buttons appear for the player who decides, and
only when they apply; the channel says what happened."""

from __future__ import annotations

from testbed.harness import ALICE, BOB, GM, Table
from tests.bot.fights import add_character, begin_pcs_first, start_fight


async def _ability(table: Table, name: str, *abilities: str, user=ALICE) -> None:
    for ability in abilities:
        gained = await table.slash("character ability add", user=user, character=name,
                                   ability=ability)
        assert not gained.ephemeral, gained.content


async def _duel(table: Table, ana_weapon: tuple[str, str], *abilities: str,
                level: int = 40, vest: bool = False) -> None:
    """Ana (Alice's PC, with ``abilities``) and Goon (an NPC, 25, a knife; a vest on the torso
    with ``vest``) on the dance floor; Bram (Bob's PC) in the alley keeps the PCs' turn going;
    the PCs act first."""
    await add_character(table, "Ana", level=level, weapon=ana_weapon)
    await _ability(table, "Ana", *abilities)
    await add_character(table, "Bram", user=BOB, level=30, weapon=None)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    if vest:
        added = await table.slash("character item add", user=GM, character="Goon", name="Vest",
                                  kind="armor", location="torso")
        assert not added.ephemeral, added.content
    await start_fight(table, ("Ana", "Dance Floor"), ("Bram", "Alley"), ("Goon", "Dance Floor"),
                 user_of={"Ana": ALICE, "Bram": BOB})
    await begin_pcs_first(table)


async def test_a_1h_critical_offers_the_target_losing_its_action_to_the_roller(
        table: Table) -> None:
    await _duel(table, ("Knife", "melee_1h"), "melee_1h.critical_lose_action")
    declared = await table.slash("attack", target="Goon")
    table.dice(2, 2)  # 22 against 40: a critical success
    rolled = await table.click(declared.prompt, "Pass", user=GM)
    critical = rolled.prompt
    assert "Ana" in critical.content and ALICE.mention in critical.content
    assert critical.labels == ["Extra action", "Adjust", "Goon loses next action"]
    not_his = await table.click(critical, "Goon loses next action", user=BOB)
    assert not_his.ephemeral and "Only their player or a GM" in not_his.content
    chosen = await table.click(critical, "Goon loses next action", user=ALICE)
    text = chosen.answer.content
    assert "Ana's critical success: Goon loses the next action." in text, text
    assert "Goon takes 2 damage to the right leg: level 25 → 23." in text, text
    board = await table.slash("combat status")
    assert "Goon [NPCs] Dance Floor 23/25 a0" in board.content, board.content
    assert "Ana [PCs] Dance Floor 40/40 a0" in board.content, board.content


async def test_a_2h_critical_asks_the_attacker_which_item_to_destroy(table: Table) -> None:
    await _duel(table, ("Maul", "melee_2h"), "melee_2h.critical_destroy", vest=True)
    declared = await table.slash("attack", target="Goon")
    table.dice(3, 3)  # 33 against 40: a critical success
    rolled = await table.click(declared.prompt, "Pass", user=GM)
    assert rolled.prompt.labels == ["Extra action", "Adjust"]  # nothing in place of them
    chosen = await table.click(rolled.prompt, "Extra action", user=ALICE)
    destroy = chosen.prompt
    assert "Ana" in destroy.content and "destroy one of the target's items" in destroy.content
    assert destroy.labels == ["Destroy Knife", "Destroy Vest", "Destroy nothing"]
    not_his = await table.click(destroy, "Destroy Knife", user=BOB)
    assert not_his.ephemeral
    done = await table.click(destroy, "Destroy Knife", user=ALICE)
    text = done.answer.content
    assert not done.answer.ephemeral
    assert "Ana's critical success destroys Goon's Knife; it leaves Goon's hand." in text, text
    sheet = await table.slash("sheet", character="Goon")
    assert "Knife" in sheet.content and "destroyed" in sheet.content.lower(), sheet.content


async def _medic(table: Table, *abilities: str) -> None:
    """Ana (Alice, 40, a first aid kit in hand, ``abilities``) treats Bram (Bob): 2 \\ on the
    head and 1 on each arm (the book's example)."""
    await add_character(table, "Ana", level=60, weapon=("Kit", "first_aid"))
    await _ability(table, "Ana", *abilities)
    await add_character(table, "Bram", user=BOB, level=30, weapon=None)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Bram", "Dance Floor"), ("Goon", "Alley"),
                 user_of={"Ana": ALICE, "Bram": BOB})
    for location, marks in {"head": "\\\\", "right_arm": "\\", "left_arm": "\\"}.items():
        done = await table.slash("combat set", user=GM, character="Bram", location=location,
                                 marks=marks)
        assert not done.ephemeral, done.content
    table.dice(3, 4, 6, 2)
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], "PCs first", user=ALICE)


async def test_first_aid_asks_the_treater_sure_success_or_roll(table: Table) -> None:
    await _medic(table, "first_aid.sure")
    aided = await table.slash("firstaid", target="Bram")
    assert "Ana gives first aid to Bram with Kit (used up)." in aided.answer.content
    asked = aided.prompt
    assert "Ana" in asked.content and ALICE.mention in asked.content
    assert asked.labels == ["Roll", "Sure success"]
    not_his = await table.click(asked, "Sure success", user=BOB)
    assert not_his.ephemeral
    sure = await table.click(asked, "Sure success", user=ALICE)
    assert "Ana gives first aid to Bram: a sure success, no roll." in sure.answer.content
    boxes = sure.prompt
    assert "Ana" in boxes.content and ALICE.mention in boxes.content
    assert boxes.labels == ["Head", "Right arm", "Left arm"]  # exactly one: no Done
    not_his = await table.click(boxes, "Head", user=BOB)
    assert not_his.ephemeral  # the one giving first aid erases
    erased = await table.click(boxes, "Head", user=ALICE)
    text = erased.answer.content
    assert "Erased 1 on the head." in text, text
    status = await table.slash("combat status", character="Bram")
    assert "\\" not in status.content, status.content


async def test_first_aid_sure_from_the_slash_command(table: Table) -> None:
    await _medic(table, "first_aid.sure")
    aided = await table.slash("firstaid", target="Bram", sure=True)
    assert "a sure success, no roll" in aided.answer.content, aided.answer.content
    assert aided.prompt.labels == ["Head", "Right arm", "Left arm"]


async def test_first_aid_without_the_ability_rolls_and_refuses_sure(table: Table) -> None:
    await _medic(table, "first_aid.good")
    refused = await table.slash("firstaid", target="Bram", sure=True)
    assert refused.ephemeral and "does not have the First Aid ability's sure success" in (
        refused.content)
    table.dice(1, 4)
    aided = await table.slash("firstaid", target="Bram")
    assert "14 (1·4) vs 60" in aided.answer.content, aided.answer.content
    assert "Roll" not in aided.prompt.labels


async def test_no_precise_after_a_good_reroll(table: Table) -> None:
    await _duel(table, ("Knife", "melee_1h"), "melee_1h.good_attack",
                "melee_1h.precise_attack", level=60)
    declared = await table.slash("attack", target="Goon")
    table.dice(7, 2)  # 72 against 60: a failure, Ana may re-roll
    rolled = await table.click(declared.prompt, "Pass", user=GM)
    assert rolled.prompt.labels == ["Re-roll tens", "Re-roll ones", "Re-roll both", "Keep"]
    table.dice(3)  # 32
    rerolled = await table.click(rolled.prompt, "Re-roll tens", user=ALICE)
    assert rerolled.prompt.labels == ["3 damage · 2: right leg", "2 damage · 3: right leg"]
    hit = await table.click(rerolled.prompt, "3 damage · 2: right leg", user=ALICE)
    assert "Goon takes 3 damage to the right leg" in hit.answer.content, hit.answer.content
    assert not any("Precise" in label for m in hit.messages for label in m.labels)
    assert "modifier" not in hit.answer.content


async def test_precise_after_keep_for_the_roller_only(table: Table) -> None:
    await _duel(table, ("Knife", "melee_1h"), "melee_1h.good_attack",
                "melee_1h.precise_attack", level=60)
    declared = await table.slash("attack", target="Goon")
    table.dice(3, 2)
    rolled = await table.click(declared.prompt, "Pass", user=GM)
    kept = await table.click(rolled.prompt, "Keep", user=ALICE)
    chosen = await table.click(kept.prompt, "3 damage · 2: right leg", user=ALICE)
    precise = chosen.prompt
    assert precise.labels == ["Precise +1", "Precise −1", "No modifier"]
    assert ALICE.mention in precise.content and BOB.mention not in precise.content
    not_his = await table.click(precise, "Precise −1", user=BOB)
    assert not_his.ephemeral
    used = await table.click(precise, "Precise −1", user=ALICE)
    assert "Ana is precise: location 1 (left leg)." in used.answer.content


async def test_the_board_and_the_prompt_say_which_abilities_apply(table: Table) -> None:
    """Issue 13: the board and the question name what the decider's abilities give this roll;
    an ability about another weapon is not named."""
    await _duel(table, ("Knife", "melee_1h"), "melee_1h.good_attack",
                "melee_1h.precise_attack", "ranged_1h.good_attack", level=70)
    declared = await table.slash("attack", target="Goon")
    table.dice(7, 2)  # 72 against 70: a failure, Ana may re-roll
    rolled = await table.click(declared.prompt, "Pass", user=GM)
    question = rolled.prompt.content
    assert question.startswith("**Ana ("), question
    assert "applies: good, precise (1H melee attack)" in question, question
    board = rolled.posted("Waiting for: Ana (re-roll?)").content
    assert "\nAna: good, precise (1H melee attack)\n" in board, board
    assert "ranged" not in board
    assert all(len(line) <= 40 for line in board.splitlines()), board
    table.dice(3)  # 32
    rerolled = await table.click(rolled.prompt, "Re-roll tens", user=ALICE)
    assert "applies" not in rerolled.prompt.content  # the damage die: nothing applies now
