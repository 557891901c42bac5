"""First Aid (004 "Abilities": First Aid; its second bullet as edition 000 prints it): "Before
rolling for First Aid, you can instead choose to automatically succeed and erase only 1 \\
mark, replacing the rest with X." Chosen when declaring (``sure``), or asked of the treater
before the roll; no roll, exactly one \\ erased (the treated player picks where), the rest X."""

from __future__ import annotations

import re

from engine.catalog import Action
from engine.character import Character, Item
from engine.combat import (
    AidMark,
    Combat,
    FirstAid,
    PromptKind,
    Reroll,
    command_adapter,
)
from engine.combat.abilities.hooks import sure_success
from engine.combat.prompts import SPECS
from engine.phrases import english
from tests.engine.combat.helpers import P1, P2, begin, go, kinds, knife, refused, run, setup

SURE = "first_aid.sure"
GOOD = "first_aid.good"


def _medic(*abilities: str, level: int = 40) -> Character:
    return Character(name="Ana", level=level, max_level=60, abilities=abilities,
                     items=(Item(name="Kit", kind="first_aid"),), right_hand=0)


def _ward(medic: Character, wounds: dict[str, str]) -> Combat:
    """Ana (Alice) treats Bram (Bob) on the dance floor; Goon waits in the alley."""
    bram = Character(name="Bram", level=30, max_level=50, wounds=wounds)
    c = setup((medic, "Dance Floor", 100), (bram, "Dance Floor", 200),
              (knife("Goon", 25, npc=True), "Alley", None))
    return begin(c, [3, 4, 6, 2], "PCs")


# The book's success example: 2 \ on the head and 1 on each arm.
BOOK = {"head": "\\\\", "right_arm": "\\", "left_arm": "\\"}


def test_the_book_a_sure_success_erases_one_mark_and_crosses_the_rest() -> None:
    c = _ward(_medic(SURE), BOOK)
    c, events = run(c, FirstAid(fighter="Ana", target="Bram", sure=True), actor=P1)
    assert "Ana gives first aid to Bram with Kit (used up): a sure success, no roll." in [
        english(e.text) for e in events]
    assert c.fighter("ana").character.items[0].destroyed  # the item is used up all the same
    assert c.fighter("ana").actions == 0
    # the one giving first aid says where the one \ is erased: no "Done", exactly one
    assert kinds(c) == [(PromptKind.AID_BOXES, "ana")]
    assert c.waiting_for()[0].options == ("head", "right_arm", "left_arm")
    refused(c, AidMark(fighter="Ana", option="done"), "Choose one of", actor=P1)
    refused(c, AidMark(fighter="Ana", option="head"), "Only their player", actor=P2)
    c, events = run(c, AidMark(fighter="Ana", option="head"), actor=P1)
    assert ("First aid on Bram: Erased 1 on the head. \\ became X: 1 on the head and 1 on the "
            "right arm and 1 on the left arm.") in [english(e.text) for e in events]
    bram = c.fighter("bram").character
    assert dict(bram.wounds) == {"head": "X", "right_arm": "X", "left_arm": "X"}
    assert bram.level == 30  # "Do not increase level"
    assert c.aid is None


def test_one_place_to_erase_needs_no_question() -> None:
    c = _ward(_medic(SURE), {"torso": "X\\\\"})
    c, events = run(c, FirstAid(fighter="Ana", target="Bram", sure=True), actor=P1)
    assert "First aid on Bram: Erased 1 on the torso. \\ became X: 1 on the torso." in [
        english(e.text) for e in events]
    assert c.fighter("bram").character.marks("torso") == "XX"
    assert c.aid is None


def test_nothing_to_erase_is_refused_before_the_kit_is_spent() -> None:
    """Only \\ marks are treatable (004 "Damage": X "cannot be treated by first aid"): with
    none, a sure success would change nothing, so it is refused and nothing is spent."""
    c = _ward(_medic(SURE), {"torso": "X"})
    refused(c, FirstAid(fighter="Ana", target="Bram", sure=True),
            re.escape("Bram has no \\ mark for first aid to treat"), actor=P1)


def test_the_treater_is_asked_before_the_roll_when_the_command_does_not_say() -> None:
    c = _ward(_medic(SURE), BOOK)
    c, events = run(c, FirstAid(fighter="Ana", target="Bram"), actor=P1)
    assert "Ana gives first aid to Bram with Kit (used up)." in [english(e.text) for e in events]
    assert kinds(c) == [(PromptKind.AID_SURE, "ana")]
    asked = c.waiting_for()[0]
    assert asked.options == ("roll", "sure") and asked.user_id == 100
    assert [english(SPECS[PromptKind.AID_SURE].label(o)) for o in asked.options] == [
        "Roll", "Sure success"]
    refused(c, AidMark(fighter="Ana", option="sure"), "Only their player", actor=P2)
    c, events = run(c, AidMark(fighter="Ana", option="sure"), actor=P1)
    told = [english(e.text) for e in events]
    assert "Ana gives first aid to Bram: a sure success, no roll." in told
    assert kinds(c) == [(PromptKind.AID_BOXES, "ana")]


def test_asked_the_treater_may_roll_instead_and_good_still_applies() -> None:
    c = _ward(_medic(SURE, GOOD), BOOK)
    c = go(c, FirstAid(fighter="Ana", target="Bram"), actor=P1)
    c, events = run(c, AidMark(fighter="Ana", option="roll"), [7, 4], actor=P1)
    told = [english(e.text) for e in events]
    assert "Ana gives first aid to Bram: 74 (7·4) vs 40 — FAILURE." in told
    assert kinds(c) == [(PromptKind.REROLL, "ana")]
    c = go(c, Reroll(fighter="Ana", which="tens"), [1], actor=P1)  # 14, the book's roll
    assert kinds(c) == [(PromptKind.AID_DICE, "ana")]


def test_sure_false_rolls_at_once() -> None:
    c = _ward(_medic(SURE), BOOK)
    c, events = run(c, FirstAid(fighter="Ana", target="Bram", sure=False), [1, 4], actor=P1)
    assert "Ana gives first aid to Bram with Kit (used up): 14 (1·4) vs 40 — SUCCESS." in [
        english(e.text) for e in events]
    assert kinds(c) == [(PromptKind.AID_DICE, "ana")]


def test_without_the_ability_there_is_no_sure_success() -> None:
    c = _ward(_medic(), BOOK)
    refused(c, FirstAid(fighter="Ana", target="Bram", sure=True),
            "Ana does not have the First Aid ability's sure success; roll instead.", actor=P1)
    c = go(c, FirstAid(fighter="Ana", target="Bram"), [1, 4], actor=P1)  # rolls, unasked
    assert kinds(c) == [(PromptKind.AID_DICE, "ana")]


def test_a_sure_success_is_not_a_roll() -> None:
    # no roll: no critical, no good re-roll, and nothing for "done" to stop early
    c = _ward(_medic(SURE, GOOD, level=11), BOOK)
    c = go(c, FirstAid(fighter="Ana", target="Bram", sure=True), actor=P1)
    assert c.aid is not None and c.aid.roll is None and c.aid.sure
    assert (c.aid.boxes, c.aid.extra_locations) == (1, 0)


def test_the_command_and_the_hook() -> None:
    cmd = command_adapter.validate_json(
        '{"kind": "first_aid", "fighter": "Ana", "target": "Bram", "sure": true}')
    assert cmd == FirstAid(fighter="Ana", target="Bram", sure=True)
    assert FirstAid(fighter="Ana", target="Bram").sure is None  # stored commands still load
    assert sure_success(_medic(SURE), Action.FIRST_AID)
    assert not sure_success(_medic(SURE), Action.ATTACK)
    assert not sure_success(_medic(GOOD), Action.FIRST_AID)
