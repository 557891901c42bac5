"""004 "Damage" and "Hit Location": who chooses the dice, modifiers, armor, marks."""

from __future__ import annotations

from engine.character import Character, Item
from engine.combat import (
    Armor,
    Attack,
    ChooseDice,
    Modifier,
    PromptKind,
    React,
)
from tests.engine.combat.helpers import (
    P1,
    begin,
    duel,
    go,
    kinds,
    knife,
    pistol,
    refused,
    run,
    setup,
)


def test_book_damage_example_through_an_attack() -> None:
    hurt = knife("Bob", npc=True).model_copy(update={"wounds": {"right_leg": "\\\\\\"}})
    hurt = Character.model_validate(hurt.model_dump())
    c = duel(knife("Ana"), hurt)
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c = go(c, React(fighter="Bob", reaction="pass"), [2, 4])  # 24
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # 4 damage, location 2
    bob = c.fighter("bob").character
    assert bob.level == 46
    assert bob.marks("right_leg") == "\\" * 6 and bob.marks("torso") == "\\"


def test_cover_bar_against_dance_floor_target_chooses() -> None:
    c = setup((pistol("Ana"), "Bar", 100), (pistol("Bob", npc=True), "Dance Floor", None))
    c = begin(c, [6, 1, 3, 2], "NPCs")  # NPCs win (32 vs fail)
    c = go(c, Attack(fighter="Bob", target="Ana"))
    assert kinds(c) == [(PromptKind.REACT, "ana")]
    assert c.waiting_for()[0].options == ("defend", "pass")
    c = go(c, React(fighter="Ana", reaction="pass"), [3, 4], actor=P1)
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "ana")]
    refused(c, ChooseDice(fighter="Bob", damage="tens"), "Nothing is waiting for Bob")
    c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)
    ana = c.fighter("Ana").character
    assert ana.level == 47 and ana.marks("torso") == "\\" * 3


def test_cover_dance_floor_against_bar_attacker_chooses() -> None:
    c = setup((pistol("Ana"), "Bar", 100), (pistol("Bob", npc=True), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c, events = run(c, React(fighter="Bob", reaction="pass"), [3, 4])
    assert "Ana attacks Bob with Pistol: 34 (3·4) vs 50 — SUCCESS." in [e.text for e in events]
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "ana")]
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # 4 damage at 3: right leg
    bob = c.fighter("bob").character
    assert bob.level == 46 and bob.marks("right_leg") == "\\" * 4


def test_shield_holder_chooses_dice() -> None:
    guard = Character(
        name="Bob",
        npc=True,
        level=50,
        max_level=50,
        items=(Item(name="Riot shield", kind="shield"),),
        left_hand=0,
    )
    c = duel(knife("Ana"), guard)
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c = go(c, React(fighter="Bob", reaction="pass"), [4, 6])
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "bob")]


def test_damage_die_zero_does_nothing() -> None:
    c = duel(knife("Ana"), knife("Bob", npc=True))
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c = go(c, React(fighter="Bob", reaction="pass"), [0, 5])
    c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)
    assert c.fighter("bob").character.level == 50 and not c.fighter("bob").character.wounds


def test_precise_modifier() -> None:
    sharp = pistol("Ana", max_level=60, abilities=("ranged_1h.precise_attack",))
    c = duel(sharp, pistol("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [3, 8])
    c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)  # 3 at 8
    assert c.waiting_for()[0].kind is PromptKind.MODIFIER
    assert c.waiting_for()[0].options == ("precise+1", "precise-1", "none")
    c = go(c, Modifier(fighter="Ana", use="precise+1"), actor=P1)
    assert c.fighter("goon").character.marks("head") == "\\\\\\"


def test_armor_choice() -> None:
    vest = Character(
        name="Bob",
        npc=True,
        level=50,
        max_level=50,
        items=(Item(name="Vest", kind="armor", location="torso"),),
    )
    c = duel(knife("Ana"), vest)
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c = go(c, React(fighter="Bob", reaction="pass"), [4, 6])
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # 6 at 4: torso
    assert kinds(c) == [(PromptKind.ARMOR, "bob")]
    c = go(c, Armor(fighter="Bob", use=True))
    bob = c.fighter("bob").character
    assert bob.level == 50 and bob.items[0].destroyed


def test_less_lethal_lowers_level_only() -> None:
    c = duel(knife("Ana"), knife("Bob", npc=True))
    c = go(c, Attack(fighter="Ana", target="Bob", lethal=False), actor=P1)
    c = go(c, React(fighter="Bob", reaction="pass"), [4, 6])
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)
    bob = c.fighter("bob").character
    assert bob.level == 44 and not bob.wounds
