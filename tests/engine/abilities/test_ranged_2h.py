"""004 "Abilities": 2H Ranged. Good attack and intercept, powerful and precise are rows of the
data (tests/engine/abilities/test_modifiers.py); this file plays the rule of its own: "Line of
sight for 2H ranged Attack is prevented by 3 or more cover marks, not 2" (RULINGS 9: sight is
mutual, so it holds from either end)."""

from __future__ import annotations

from engine.character import Character, Item
from engine.combat import Attack, Phase, legal_targets
from tests.engine.combat.helpers import BULLETS, P1, RULES, begin, go, knife, refused, setup

LONG_SIGHT = "ranged_2h.long_sight"


def _sniper(*abilities: str, weapon: str = "ranged_2h") -> Character:
    return Character(
        name="Ana", level=50, max_level=70, abilities=abilities,
        items=(Item(name="Gun", kind=weapon), BULLETS),
        right_hand=0, left_hand=0 if weapon == "ranged_2h" else None,
    )


def test_the_book_3_marks_not_2_block_a_2h_ranged_attack() -> None:
    # Kitchen and Dance Floor: 2 marks on the shortest path counted from the dance floor
    # (the bar's and the kitchen's, RULINGS 9), so no line of sight for anyone else.
    for mine, theirs in (("Kitchen", "Dance Floor"), ("Dance Floor", "Kitchen")):
        c = setup((_sniper(LONG_SIGHT), mine, 100), (knife("Goon", npc=True), theirs, None))
        c = begin(c, [3, 2, 6, 1], "PCs")
        assert legal_targets(c, "ana", RULES) == ("Goon",)
        assert go(c, Attack(fighter="Ana", target="Goon"), actor=P1).phase is Phase.REACTION


def test_without_the_ability_two_marks_block_it() -> None:
    c = setup((_sniper(), "Kitchen", 100), (knife("Goon", npc=True), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    assert legal_targets(c, "ana", RULES) == ()
    refused(c, Attack(fighter="Ana", target="Goon"), "no line of sight", P1)


def test_any_pair_two_marks_apart_alley_and_bar() -> None:
    # Alley and Bar: range 2, 2 marks. Only the weapon kind counts: the hook gives 3 marks to
    # a 2H ranged weapon only (tests/engine/combat/test_abilities.py checks a pistol gets 2).
    for mine, theirs in (("Alley", "Bar"), ("Bar", "Alley")):
        c = setup((_sniper(LONG_SIGHT), mine, 100), (knife("Goon", npc=True), theirs, None))
        c = begin(c, [3, 2, 6, 1], "PCs")
        assert legal_targets(c, "ana", RULES) == ("Goon",)
        plain = setup((_sniper(), mine, 100), (knife("Goon", npc=True), theirs, None))
        assert legal_targets(begin(plain, [3, 2, 6, 1], "PCs"), "ana", RULES) == ()
