"""Good, precise and powerful (004 "Combat abilities"; RULINGS 4): "You can use only one of
good, precise, or powerful for a given roll, after seeing the initial result." A roll re-rolled
thanks to good is not offered precise or powerful afterwards; a roll that used precise or
powerful can no longer be re-rolled; a good roller who keeps the roll may still use precise or
powerful. Each is offered only when it applies, and only to the roller."""

from __future__ import annotations

import pytest

from engine.character import Character, Item
from engine.combat import (
    Attack,
    ChooseDice,
    Combat,
    Modifier,
    PromptKind,
    React,
    Reroll,
)
from engine.dice import Modifier as DiceModifier
from engine.dice import Reroll as DiceReroll
from engine.dice import Roll, ScriptedDice
from engine.errors import RuleError
from engine.phrases import english
from tests.engine.combat.helpers import GM, P1, P2, begin, go, kinds, knife, refused, run, setup

GOOD_1H = "melee_1h.good_attack"
PRECISE_1H = "melee_1h.precise_attack"
GOOD_2H = "melee_2h.good_attack"
POWERFUL_2H = "melee_2h.powerful_attack"


def _maul(*abilities: str) -> Character:
    return Character(name="Ana", level=50, max_level=60, abilities=abilities,
                     items=(Item(name="Maul", kind="melee_2h"),), right_hand=0, left_hand=0)


def _attack(ana: Character, faces: tuple[int, ...], goon: Character | None = None) -> Combat:
    """Ana (Alice) attacks Goon in the entrance; Goon passes; Ana rolls ``faces``."""
    goon = goon or knife("Goon", npc=True)
    c = setup((ana, "Entrance", 100), (knife("Cy"), "Alley", 200), (goon, "Entrance", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    return go(c, React(fighter="Goon", reaction="pass"), faces)


def test_the_book_a_roll_rerolled_with_good_gets_no_precise() -> None:
    c = _attack(knife("Ana", max_level=60, abilities=(GOOD_1H, PRECISE_1H)), (7, 2))  # 72
    assert kinds(c) == [(PromptKind.REROLL, "ana")]
    c, events = run(c, Reroll(fighter="Ana", which="tens"), [3], actor=P1)  # 32
    assert "Ana re-rolls tens: 32 (3·2) vs 50 — SUCCESS." in [english(e.text) for e in events]
    assert c.attack is not None and c.attack.rolls[0].roll.modifier is DiceModifier.GOOD
    c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)
    assert PromptKind.MODIFIER not in [k for k, _ in kinds(c)]  # good was this roll's one
    refused(c, Modifier(fighter="Ana", use="precise+1"), "No attack is waiting for that now",
            actor=P1)
    assert c.fighter("goon").character.marks("right_leg") == "\\\\\\"  # 3 at 2: as rolled


def test_a_good_roller_who_keeps_the_roll_may_be_precise() -> None:
    c = _attack(knife("Ana", max_level=60, abilities=(GOOD_1H, PRECISE_1H)), (3, 2))
    c = go(c, Reroll(fighter="Ana", which="keep"), actor=P1)
    c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)  # 3 damage, location 2
    assert kinds(c) == [(PromptKind.MODIFIER, "ana")]
    asked = c.waiting_for()[0]
    assert asked.options == ("precise+1", "precise-1", "none") and asked.user_id == 100
    refused(c, Modifier(fighter="Ana", use="precise+1"), "Only their player", actor=P2)
    refused(c, Modifier(fighter="Ana", use="powerful"), "Choose one of", actor=P1)
    c, events = run(c, Modifier(fighter="Ana", use="precise-1"), actor=P1)
    assert "Ana is precise: location 1 (left leg)." in [english(e.text) for e in events]
    assert c.fighter("goon").character.marks("left_leg") == "\\\\\\"


def test_a_roll_that_was_not_good_may_be_powerful_up_to_9() -> None:
    c = _attack(_maul(GOOD_2H, POWERFUL_2H), (3, 9))  # 39: no re-roll wanted
    c = go(c, Reroll(fighter="Ana", which="keep"), actor=P1)
    c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)  # 3 damage at 9
    assert c.waiting_for()[0].options == ("powerful", "none")
    c = go(c, Modifier(fighter="Ana", use="powerful"), actor=P1)
    assert c.fighter("goon").character.marks("head") == "XXX"
    # a damage die of 9 cannot go higher: not offered
    c = _attack(_maul(POWERFUL_2H), (3, 9))
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # 9 damage at 3
    assert PromptKind.MODIFIER not in [k for k, _ in kinds(c)]


def test_a_powerful_roller_rerolled_with_good_is_not_offered_powerful() -> None:
    c = _attack(_maul(GOOD_2H, POWERFUL_2H), (8, 3))  # 83 fails
    c = go(c, Reroll(fighter="Ana", which="tens"), [2], actor=P1)  # 23
    c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)
    assert PromptKind.MODIFIER not in [k for k, _ in kinds(c)]


def test_the_modifier_is_asked_of_the_roller_even_when_the_target_chooses_the_die() -> None:
    shielded = Character(name="Goon", npc=True, level=50, max_level=50, right_hand=0,
                         items=(Item(name="Shield", kind="shield"),))
    c = _attack(knife("Ana", max_level=60, abilities=(PRECISE_1H,)), (3, 2), goon=shielded)
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "goon")]  # the shield: Goon chooses
    c = go(c, ChooseDice(fighter="Goon", damage="ones"), actor=GM)  # 2 damage at 3
    assert kinds(c) == [(PromptKind.MODIFIER, "ana")]  # Ana's roll, Ana's modifier
    refused(c, Modifier(fighter="Goon", use="none"), "Nothing is waiting for Goon")


def test_not_offered_without_the_ability_for_this_action_and_weapon() -> None:
    # precise 1H melee Attack: not for another weapon, nor without the ability
    for ana in (knife("Ana"), _maul(PRECISE_1H)):
        c = _attack(ana, (3, 2))
        c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)
        assert PromptKind.MODIFIER not in [k for k, _ in kinds(c)], ana.abilities


def test_a_reroll_and_a_modifier_never_share_a_roll() -> None:
    rolled = Roll.first(50, ScriptedDice([7, 2]))
    rerolled = rolled.reroll(DiceReroll.TENS, ScriptedDice([3]))
    for modifier in (DiceModifier.PRECISE, DiceModifier.POWERFUL):
        with pytest.raises(RuleError, match="already used good; only one modifier applies"):
            rerolled.use_modifier(modifier)
    kept = Roll.first(50, ScriptedDice([3, 2]))
    precise = kept.use_modifier(DiceModifier.PRECISE)
    assert not precise.can_reroll
    with pytest.raises(RuleError, match="already used precise; only one modifier applies"):
        precise.reroll(DiceReroll.ONES, ScriptedDice([1]))
    with pytest.raises(RuleError, match="already used precise"):
        precise.use_modifier(DiceModifier.POWERFUL)
