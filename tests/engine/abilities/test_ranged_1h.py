"""004 "Abilities": 1H Ranged: "Good 1H ranged Attack." and "Precise 1H ranged Attack." — rows
of the data, played here through a fight: the re-roll is offered on the attack roll, and the
precise choice after the damage die."""

from __future__ import annotations

from engine.character import Character, Item
from engine.combat import Attack, ChooseDice, Combat, PromptKind, React, Reroll
from tests.engine.combat.helpers import BULLETS, GM, P1, begin, go, kinds, knife, setup


def _gunner(*abilities: str) -> Character:
    return Character(
        name="Ana", level=50, max_level=70, abilities=abilities,
        items=(Item(name="Pistol", kind="ranged_1h"), BULLETS), right_hand=0,
    )


def _shot(*abilities: str, dice: list[int]) -> Combat:
    c = setup((_gunner(*abilities), "Bar", 100), (knife("Goon", npc=True), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    return go(c, React(fighter="Goon", reaction="pass"), dice, actor=GM)


def test_good_1h_ranged_attack_offers_the_re_roll() -> None:
    c = _shot("ranged_1h.good_attack", dice=[7, 2])  # 72 fails against 50
    assert kinds(c) == [(PromptKind.REROLL, "ana")]
    c = go(c, Reroll(fighter="Ana", which="tens"), [3], actor=P1)  # 32 succeeds
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "ana")]
    assert kinds(_shot(dice=[7, 2])) != [(PromptKind.REROLL, "ana")]  # without the ability


def test_precise_1h_ranged_attack_offers_to_move_the_location_die() -> None:
    c = _shot("ranged_1h.precise_attack", dice=[2, 4])  # 24 hits
    c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)  # 2 damage, location 4
    assert kinds(c) == [(PromptKind.MODIFIER, "ana")]
    assert c.waiting_for()[0].options == ("precise+1", "precise-1", "none")
