"""004 "Counterattack": an attack of one's own, rolled with the attack."""

from __future__ import annotations

from engine.character import Character, Item
from engine.combat import (
    Attack,
    ChooseDice,
    PromptKind,
    React,
)
from engine.combat.prompts import SPECS
from engine.phrases import english
from tests.engine.combat.helpers import (
    BULLETS,
    DARTS,
    P1,
    duel,
    go,
    kinds,
    knife,
    pistol_with,
    run,
)


def test_counterattack_is_simultaneous() -> None:
    c = duel(knife("Ana"), knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="counterattack"), [2, 5, 1, 6])
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "ana")]
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # 5 at 2
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "goon")]
    c = go(c, ChooseDice(fighter="Goon", damage="ones"), [6, 1, 3, 2])  # 6 at 1; round 2
    assert c.fighter("goon").character.level == 45
    assert c.fighter("ana").character.level == 44
    assert c.fighter("ana").character.marks("left_leg") == "\\" * 6


def test_two_handed_melee_cannot_be_counterattacked_and_marks_x() -> None:
    axe = Character(
        name="Ana",
        level=50,
        max_level=50,
        items=(Item(name="Axe", kind="melee_2h"),),
        right_hand=0,
        left_hand=0,
        abilities=("melee_2h.no_counterattack",),
    )
    c = duel(axe, knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    assert c.waiting_for()[0].options == ("defend", "pass")
    c = go(c, React(fighter="Goon", reaction="pass"), [2, 5])
    c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)
    assert c.fighter("goon").character.marks("torso") == "XX"


def test_a_less_lethal_counterattack_with_a_knife_marks_no_wounds() -> None:
    c = duel(knife("Ana"), knife("Goon", npc=True))
    c, events = run(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    # the window says the counterattack may be less-lethal, as its buttons offer
    assert ("Goon may defend or counterattack (lethal or less-lethal) or pass (within 45 "
            "seconds).") in [english(e.text) for e in events]
    options = c.waiting_for()[0].options
    assert options == ("defend", "counterattack", "counterattack_less_lethal", "pass")
    button = SPECS[PromptKind.REACT].command("counterattack_less_lethal", "goon")
    assert button == React(fighter="goon", reaction="counterattack", lethal=False)
    assert english(SPECS[PromptKind.REACT].label("counterattack_less_lethal")) == (
        "Counterattack (less-lethal)")
    c, events = run(c, button, [2, 5, 1, 6])
    assert "Goon counterattacks with Knife (less-lethal)." in [english(e.text) for e in events]
    a = c.attack
    assert a is not None and a.reactors[0].lethal is False  # the choice, kept on the reactor
    assert [h.lethal for h in a.hits] == [True, False]  # Ana's hit, then Goon's
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # Ana's lethal 5 at 2
    c, events = run(c, ChooseDice(fighter="Goon", damage="ones"), [6, 1, 3, 2])  # 6 at 1
    ana, goon = c.fighter("ana").character, c.fighter("goon").character
    assert ana.level == 44 and not ana.wounds  # less-lethal: the level only
    assert goon.level == 45 and goon.marks("right_leg") == "\\" * 5
    assert ("Ana takes 6 less-lethal damage on the left leg: level 50 → 44, no wounds marked."
            in [english(e.text) for e in events])


def test_a_ranged_less_lethal_counterattack_fumble_destroys_the_darts() -> None:
    c = duel(knife("Ana"), pistol_with("Goon", BULLETS, DARTS))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c, events = run(c, React(fighter="Goon", reaction="counterattack", weapon="pistol",
                             lethal=False), [9, 1, 8, 8, 6, 1, 3, 2])  # both miss: round 2
    texts = [english(e.text) for e in events]
    assert "Goon counterattacks with Pistol (less-lethal)." in texts
    assert "Goon's Darts is destroyed (a ranged critical failure)." in texts
