"""2H Melee (004 "Abilities": 2H Melee): "On a critical success, in addition to one of the
standard effects, you can destroy 1 slot worth of items on your target, even items in their
hands." After the critical choice, the roller is asked which of the target's intact items to
destroy (or none); the channel is told what was destroyed."""

from __future__ import annotations

from engine.catalog import Action
from engine.character import Character, Item
from engine.combat import (
    Attack,
    ChooseDice,
    Combat,
    CriticalChoice,
    DestroyItem,
    Dropped,
    ManageItems,
    PromptKind,
    React,
    command_adapter,
)
from engine.combat.abilities.hooks import critical_extras
from engine.combat.prompts import SPECS, option_label
from engine.combat.step_values import Weapon
from engine.phrases import english
from tests.engine.combat.helpers import GM, P1, P2, begin, go, kinds, knife, refused, run, setup

DESTROY = "melee_2h.critical_destroy"
MAUL = Weapon(name="Maul", kind="melee_2h")


def _maul(name: str, level: int = 50, npc: bool = False, **kw: object) -> Character:
    return Character(
        name=name, npc=npc, level=level, max_level=50, right_hand=0, left_hand=0,
        items=(Item(name="Maul", kind="melee_2h"),), **kw,  # type: ignore[arg-type]
    )


def _guard(**kw: object) -> Character:
    """Goon: a knife in the right hand, a shield in the left, a vest on the torso."""
    return Character(
        name="Goon", npc=True, level=50, max_level=50, right_hand=0, left_hand=1,
        items=(Item(name="Knife", kind="melee_1h"), Item(name="Shield", kind="shield"),
               Item(name="Vest", kind="armor", location="torso")),
        **kw,  # type: ignore[arg-type]
    )


def _fight(ana: Character, goon: Character) -> Combat:
    c = setup((ana, "Entrance", 100), (knife("Cy"), "Alley", 200), (goon, "Entrance", None))
    return begin(c, [3, 2, 6, 1], "PCs")


def _critical(ana: Character, goon: Character, faces: tuple[int, ...] = (3, 7)) -> Combat:
    """Ana (level 37) attacks Goon, who passes; Ana rolls exactly her level: a critical."""
    c = go(_fight(ana, goon), Attack(fighter="Ana", target="Goon"), actor=P1)
    return go(c, React(fighter="Goon", reaction="pass"), faces)


def test_the_book_a_critical_destroys_an_item_even_in_the_targets_hand() -> None:
    c = _critical(_maul("Ana", 37, abilities=(DESTROY,)), _guard())
    assert c.waiting_for()[0].options == ("extra_action", "adjust")  # one of the standard
    c = go(c, CriticalChoice(fighter="Ana", choice="extra_action"), actor=P1)
    assert c.fighter("ana").actions == 1  # the standard effect stands
    assert kinds(c) == [(PromptKind.DESTROY, "ana")]  # and, in addition, the item
    asked = c.waiting_for()[0]
    assert asked.options == ("1", "2", "3", "none") and asked.user_id == 100
    assert [english(option_label(c, asked, o)) for o in asked.options] == [
        "Destroy Knife", "Destroy Shield", "Destroy Vest", "Destroy nothing"]
    assert SPECS[PromptKind.DESTROY].command("2", "ana") == DestroyItem(fighter="ana", item="2")
    refused(c, DestroyItem(fighter="Ana", item="2"), "Only their player or a GM", actor=P2)
    refused(c, DestroyItem(fighter="Ana", item="4"),
            r"Name one of Goon's items by its number on the sheet \(1, 2, 3\) or none", actor=P1)
    c, events = run(c, DestroyItem(fighter="Ana", item="2"), actor=P1)
    assert "Ana's critical success destroys Goon's Shield; it leaves Goon's hand." in [
        english(e.text) for e in events]
    goon = c.fighter("goon").character
    assert goon.items[1].destroyed and goon.left_hand is None and goon.right_hand == 0
    # without the shield in hand, Ana chooses the damage die (37: 3 and 7)
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "ana")]
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # 7 at 3: the right leg
    assert c.fighter("goon").character.marks("right_leg") == "XXXXXX"


def test_adjusting_is_a_standard_effect_too() -> None:
    c = _critical(_maul("Ana", 37, abilities=(DESTROY,)), _guard())
    c = go(c, CriticalChoice(fighter="Ana", choice="adjust", value=19), actor=P1)
    assert kinds(c) == [(PromptKind.DESTROY, "ana")]
    c, events = run(c, DestroyItem(fighter="Ana", item="3"), actor=P1)
    assert "Ana's critical success destroys Goon's Vest." in [english(e.text) for e in events]
    assert c.fighter("goon").character.items[2].destroyed


def test_the_roller_may_destroy_nothing() -> None:
    c = _critical(_maul("Ana", 37, abilities=(DESTROY,)), _guard())
    c = go(c, CriticalChoice(fighter="Ana", choice="extra_action"), actor=P1)
    c, events = run(c, DestroyItem(fighter="Ana", item="none"), actor=P1)
    assert "Ana destroys none of Goon's items." in [english(e.text) for e in events]
    assert not any(it.destroyed for it in c.fighter("goon").character.items)
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "goon")]  # Goon still holds the shield


def test_a_two_handed_item_leaves_both_hands() -> None:
    c = _critical(_maul("Ana", 37, abilities=(DESTROY,)), _maul("Goon", npc=True))
    c = go(c, CriticalChoice(fighter="Ana", choice="extra_action"), actor=P1)
    c, events = run(c, DestroyItem(fighter="Ana", item="1"), actor=P1)
    assert "Ana's critical success destroys Goon's Maul; it leaves Goon's hands." in [
        english(e.text) for e in events]
    goon = c.fighter("goon").character
    assert goon.right_hand is None and goon.left_hand is None


def test_only_intact_items_on_the_target_are_offered() -> None:
    goon = _guard()
    items = (goon.items[0], goon.items[1].model_copy(update={"destroyed": True}), goon.items[2])
    goon = goon.model_copy(update={"items": items, "left_hand": None})
    c = _fight(_maul("Ana", 37, abilities=(DESTROY,)), goon)
    c = go(c, ManageItems(fighter="Goon", op="drop", item="Knife"))  # free: on the floor
    assert c.fighter("goon").dropped == (Dropped(index=0, area="Entrance"),)
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [3, 7])
    c = go(c, CriticalChoice(fighter="Ana", choice="extra_action"), actor=P1)
    assert c.waiting_for()[0].options == ("3", "none")


def test_a_target_with_nothing_left_is_not_asked_about() -> None:
    bare = Character(name="Goon", npc=True, level=50, max_level=50)
    c = _critical(_maul("Ana", 37, abilities=(DESTROY,)), bare)
    c, events = run(c, CriticalChoice(fighter="Ana", choice="extra_action"), actor=P1)
    assert "Goon has no item left to destroy." in [english(e.text) for e in events]
    assert PromptKind.DESTROY not in [k for k, _ in kinds(c)]


def test_without_the_ability_or_with_another_weapon_nothing_more_is_asked() -> None:
    for ana in (_maul("Ana", 37), knife("Ana", 37, abilities=(DESTROY,))):
        c = _critical(ana, _guard())
        c = go(c, CriticalChoice(fighter="Ana", choice="extra_action"), actor=P1)
        assert kinds(c) == [(PromptKind.CHOOSE_DICE, "goon")], ana.items
        refused(c, DestroyItem(fighter="Ana", item="1"),
                "Nothing is waiting for Ana to destroy an item now", actor=P1)


def test_a_counterattack_with_a_maul_destroys_an_item_of_the_attacker() -> None:
    c = go(_fight(knife("Ana"), _maul("Goon", npc=True, abilities=(DESTROY,))),
           Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="counterattack"), [6, 1, 4, 4])  # 61; Goon 44
    c = go(c, CriticalChoice(fighter="Goon", choice="extra_action"))
    asked = c.waiting_for()[0]
    assert (asked.kind, asked.fighter, asked.user_id) == (PromptKind.DESTROY, "goon", None)
    assert [english(option_label(c, asked, o)) for o in asked.options] == ["Destroy Knife",
                                                                   "Destroy nothing"]
    c, events = run(c, DestroyItem(fighter="Goon", item="1"), actor=GM)
    assert "Goon's critical success destroys Ana's Knife; it leaves Ana's hand." in [
        english(e.text) for e in events]


def test_a_defended_critical_still_destroys() -> None:
    # 004 "Opposed rolls": the loser's critical success keeps the effects that need no degree
    # of success; destroying an item needs none.
    c = go(_fight(_maul("Ana", 37, abilities=(DESTROY,)), _guard()),
           Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="defend"), [3, 7, 4, 5])  # 37 against 45
    c = go(c, CriticalChoice(fighter="Ana", choice="extra_action"), actor=P1)
    c, events = run(c, DestroyItem(fighter="Ana", item="1"), actor=P1)
    texts = [english(e.text) for e in events]
    assert "Ana's critical success destroys Goon's Knife; it leaves Goon's hand." in texts
    assert "Goon's Defend (45) beats 37: the attack misses." in texts


def test_the_command_and_the_hook() -> None:
    cmd = command_adapter.validate_json('{"kind": "destroy_item", "fighter": "Ana", "item": "2"}')
    assert cmd == DestroyItem(fighter="Ana", item="2")
    ana = _maul("Ana", abilities=(DESTROY,))
    for action in (Action.ATTACK, Action.COUNTERATTACK, Action.INTERCEPT):
        assert critical_extras(ana, action, MAUL) == {"destroy_item"}
    assert critical_extras(ana, Action.DEFEND, MAUL) == frozenset()
    assert critical_extras(ana, Action.ATTACK, Weapon(name="Knife", kind="melee_1h")) == set()
    assert critical_extras(_maul("Bo"), Action.ATTACK, MAUL) == frozenset()
