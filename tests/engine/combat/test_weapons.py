"""004 "Range", "Line of Sight" and "Ranged weapons": reach, sight and ammo."""

from __future__ import annotations

from engine.character import Character, Item
from engine.combat import (
    Attack,
    Phase,
    React,
    legal_targets,
    legal_weapons,
)
from engine.phrases import english
from tests.engine.combat.helpers import (
    BULLETS,
    DARTS,
    P1,
    P2,
    RULES,
    begin,
    duel,
    go,
    knife,
    pistol,
    refused,
    rifle,
    run,
    setup,
)


def test_rulebook_range_examples() -> None:
    # 004 "Range": "The range from the entrance to the dance floor is one. The range from the
    # entrance to the catwalk is two." Ana's pistol ("a range of 0 or 1") reaches the dance
    # floor, not the catwalk; Cy's rifle ("a range of 1 or more") reaches both.
    c = setup(
        (pistol("Ana"), "Entrance", 100),
        (rifle("Cy", 50, False, BULLETS), "Entrance", 200),
        (knife("Goon", npc=True), "Dance Floor", None),
        (knife("Rat", npc=True), "Catwalk", None),
    )
    c = begin(c, [3, 2, 6, 1], "PCs")
    assert legal_targets(c, "ana", RULES) == ("Goon", "Cy")  # Cy, beside her: range 0
    refused(c, Attack(fighter="Ana", target="Rat"), "out of range for Pistol: range 2", P1)
    assert legal_targets(c, "cy", RULES) == ("Goon", "Rat")
    assert go(c, Attack(fighter="Ana", target="Goon"), actor=P1).phase is Phase.REACTION
    assert go(c, Attack(fighter="Cy", target="Rat"), actor=P2).phase is Phase.REACTION


def test_rulebook_line_of_sight_examples() -> None:
    # 004 "Line of Sight": "A character in the alley has line of sight to the kitchen, but not
    # the bar. A character in the pool tables has line of sight to the bar, but not the
    # kitchen." Ana's rifle reaches every range from 1 up, so only sight decides.
    for area, seen, unseen in (("Alley", "Kitchen", "Bar"), ("Pool Tables", "Bar", "Kitchen")):
        c = setup((rifle("Ana", 50, False, BULLETS), area, 100),
                  (knife("Goon", npc=True), seen, None), (knife("Rat", npc=True), unseen, None))
        c = begin(c, [3, 2, 6, 1], "PCs")
        assert legal_targets(c, "ana", RULES) == ("Goon",)
        refused(c, Attack(fighter="Ana", target="Rat"),
                f"Ana has no line of sight from {area} to {unseen}", P1)
        assert go(c, Attack(fighter="Ana", target="Goon"), actor=P1).phase is Phase.REACTION
    # "A character in the DJ booth has line of sight to another character in the DJ booth"
    # (although the booth has cover in every direction).
    c = setup((pistol("Ana"), "DJ Booth", 100), (knife("Goon", npc=True), "DJ Booth", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    assert legal_targets(c, "ana", RULES) == ("Goon",)
    assert go(c, Attack(fighter="Ana", target="Goon"), actor=P1).phase is Phase.REACTION


def test_no_line_of_sight() -> None:
    # Pool Tables to Kitchen: no line of sight (book); a 2H rifle reaches any range >= 1.
    rifle = Character(
        name="Ana",
        level=50,
        max_level=50,
        items=(Item(name="Rifle", kind="ranged_2h"), Item(name="Rounds", kind="ammo")),
        right_hand=0,
        left_hand=0,
    )
    c = setup((rifle, "Pool Tables", 100), (knife("Bob", npc=True), "Kitchen", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    refused(c, Attack(fighter="Ana", target="Bob"), "no line of sight", actor=P1)
    assert legal_targets(c, "ana", RULES) == ()
    assert legal_weapons(c, "ana", RULES) == ("Rifle",)


def test_a_2h_ranged_weapon_cannot_shoot_at_range_0() -> None:
    c = duel(rifle("Ana", 50, False, BULLETS), knife("Goon", npc=True))
    refused(c, Attack(fighter="Ana", target="Goon"), "out of range for Rifle: range 0", P1)
    assert legal_targets(c, "ana", RULES) == ()


def test_ranged_attacks_need_ammo_of_the_right_sort() -> None:
    goon = knife("Goon", npc=True)
    c = setup((rifle("Ana", 50, False, DARTS), "Bar", 100), (goon, "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    refused(c, Attack(fighter="Ana", target="Goon"), "no ammo left for a 2H ranged attack", P1)
    assert legal_targets(c, "ana", RULES) == ()
    c = go(c, Attack(fighter="Ana", target="Goon", lethal=False), actor=P1)  # the darts
    assert c.phase is Phase.REACTION

    c = setup((rifle("Ana", 50, False, BULLETS), "Bar", 100), (goon, "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    refused(c, Attack(fighter="Ana", target="Goon", lethal=False), "no less-lethal ammo", P1)


def test_a_ranged_critical_failure_destroys_one_slot_of_ammo() -> None:
    ana = rifle("Ana", 50, False, BULLETS, BULLETS)
    c = setup((ana, "Bar", 100), (knife("Goon", npc=True), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c, events = run(c, React(fighter="Goon", reaction="pass"), [8, 8])
    texts = [english(e.text) for e in events]
    assert "Ana rolled a critical failure and loses the next action." in texts
    assert "Ana's Bullets is destroyed (a ranged critical failure)." in texts
    items = c.fighter("ana").character.items
    assert [it.destroyed for it in items if it.kind == "ammo"] == [True, False]


def test_a_melee_critical_failure_costs_no_ammo() -> None:
    c = duel(knife("Ana"), knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c, events = run(c, React(fighter="Goon", reaction="pass"), [9, 9])
    assert not any(e.kind == "ammo" for e in events)
