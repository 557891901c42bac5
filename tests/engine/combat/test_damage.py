"""004 "Damage" and "Hit Location": who chooses the dice, modifiers, armor, marks."""

from __future__ import annotations

import pytest

from engine.character import Character, Item
from engine.combat import (
    Armor,
    Attack,
    ChooseDice,
    Modifier,
    Move,
    PromptKind,
    React,
    StopArea,
)
from engine.phrases import english
from tests.engine.combat.helpers import (
    BULLETS,
    P1,
    begin,
    duel,
    go,
    kinds,
    knife,
    pistol,
    refused,
    rifle,
    run,
    setup,
    texts,
)


def test_rulebook_hit_location_example() -> None:
    # 004 "Hit Location": "You already had 3 boxes marked \ on your right leg. You move from
    # the dance floor to the bar. An opponent intercepts and hits you with an attack roll of 24.
    # They choose 4 damage to location 2 (right leg). You decrease your level by 4. You mark a
    # \ in the remaining 3 boxes in your right leg, and an additional 1 box on your torso. You
    # stop moving, and the opponent chooses the dance floor as the area you stop in."
    you = knife("Ana", 40, wounds={"right_leg": "\\" * 3})
    c = setup((you, "Dance Floor", 100), (knife("Cy"), "Alley", 200),
              (knife("Goon", 30, npc=True), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, Move(fighter="Ana", to="Bar"), actor=P1)
    c, events = run(c, React(fighter="Goon", reaction="intercept"), [2, 4])
    assert "Goon attacks Ana with Knife: 24 (2·4) vs 30 — SUCCESS." in texts(events)
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "goon")]
    c, events = run(c, ChooseDice(fighter="Goon", damage="ones"))
    assert texts(events) == [
        "Goon chooses 4 for damage and 2 for location (right leg).",
        "Ana takes 4 damage to the right leg: level 40 → 36. Marked 3 on the right leg and 1 on "
        "the torso. Ana must stop moving.",
        "Ana must stop moving; Goon chooses where: Dance Floor or Bar.",
    ]
    ana = c.fighter("ana").character
    assert ana.level == 36
    assert ana.marks("right_leg") == "\\" * 6 and ana.marks("torso") == "\\"
    assert kinds(c) == [(PromptKind.STOP_AREA, "goon")]
    assert c.waiting_for()[0].options == ("Dance Floor", "Bar")
    refused(c, StopArea(fighter="Goon", area="Bar"), "give orders to Goon", actor=P1)  # his call
    c, events = run(c, StopArea(fighter="Goon", area="dance floor"))
    assert texts(events) == ["Goon puts Ana in Dance Floor."]
    assert c.move is None and c.fighter("ana").area == "Dance Floor"


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


# ---- who chooses the dice: cover (004 "Cover") or a shield (004 "Shield") ---------------------


@pytest.mark.parametrize(
    ("target_area", "shooter_area", "cover"),
    [
        # "A character in the bar would have cover against a shot from the dance floor."
        ("Bar", "Dance Floor", True),
        # "That same character in the bar would not have cover against an attack from the
        # catwalk."
        ("Bar", "Catwalk", False),
        # "Don't consider the attacker's area when determining cover. A character on the dance
        # floor would not have cover against a shot from the bar."
        ("Dance Floor", "Bar", False),
        # "When checking for cover along multiple connections, if at least one of the shortest
        # paths has cover, the target benefits from cover. A character in the bar would have
        # cover against a shot from the DJ booth."
        ("Bar", "DJ Booth", True),
    ],
)
def test_rulebook_cover_examples(target_area: str, shooter_area: str, cover: bool) -> None:
    # 004 "Attack": "If the target benefits from Cover, they get to choose instead."
    c = setup((knife("Ana", 40), target_area, 100),
              (rifle("Shooter", 60, True, BULLETS), shooter_area, None))
    c = begin(c, [8, 0, 3, 4], "NPCs")  # Ana's 80 fails, the Shooter's 34 wins
    c = go(c, Attack(fighter="Shooter", target="Ana"))
    c, events = run(c, React(fighter="Ana", reaction="pass"), [2, 3], actor=P1)
    if cover:
        assert "Shooter hits Ana; Ana has cover and chooses which die is damage." in texts(events)
        assert kinds(c) == [(PromptKind.CHOOSE_DICE, "ana")]
    else:
        assert "Shooter hits Ana and chooses which die is damage." in texts(events)
        assert kinds(c) == [(PromptKind.CHOOSE_DICE, "shooter")]


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
    assert "Ana attacks Bob with Pistol: 34 (3·4) vs 50 — SUCCESS." in [
        english(e.text) for e in events]
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


# ---- the damage: a die of 0 (RULINGS 17), precise, armor (004 "Armor"), less-lethal --------------


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
