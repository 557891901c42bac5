"""Rearrange: both hands set in one action (004 "Use or manage items": "Rearranging which items
are in your hands, including picking items up or stowing away items, takes a total of one
action")."""

from __future__ import annotations

import pytest

from engine.character import Character, Item
from engine.combat import (
    Actor,
    Combat,
    GMSet,
    ManageItems,
    command_adapter,
    legal_items,
)
from engine.combat.commands import Rearrange
from tests.engine.combat.helpers import (
    P1,
    P2,
    RULES,
    begin,
    duel,
    go,
    knife,
    refused,
    run,
    setup,
)

EMPTY = Rearrange.EMPTY


def _kit(name: str = "Ana", **hands: int | None) -> Character:
    """Knife, Shield, Pistol, Rifle (two-handed), Bullets; hands as given (default empty)."""
    return Character(
        name=name,
        level=50,
        max_level=50,
        items=(
            Item(name="Knife", kind="melee_1h"),
            Item(name="Shield", kind="shield"),
            Item(name="Pistol", kind="ranged_1h"),
            Item(name="Rifle", kind="ranged_2h"),
            Item(name="Bullets", kind="ammo"),
        ),
        **hands,  # type: ignore[arg-type]
    )


KNIFE, SHIELD, PISTOL, RIFLE, BULLETS = range(5)


def _fight(ana: Character | None = None) -> Combat:
    """Ana (player 100) against Goon in the Entrance, PCs acting: Ana has one action."""
    c = duel(ana or _kit(), knife("Goon", npc=True))
    assert c.fighter("ana").actions == 1
    return c


def _hands(c: Combat, key: str = "ana") -> tuple[int | None, int | None]:
    ch = c.fighter(key).character
    return ch.right_hand, ch.left_hand


def test_a_knife_in_the_right_hand_and_a_shield_in_the_left_take_one_action() -> None:
    c = _fight()
    c, events = run(c, Rearrange(fighter="Ana", right="knife", left="Shield"), actor=P1)
    assert _hands(c) == (KNIFE, SHIELD)
    ana = c.fighter("ana")
    assert ana.actions == 0 and ana.spent == 1
    assert events[0].text == (
        "Ana takes Knife and Shield: Knife in the right hand, Shield in the left hand "
        "(one action).")


def test_the_same_done_with_hold_takes_two_actions() -> None:
    # Each ManageItems hold is a whole rearrangement of its own: two of them, two actions.
    c = go(_fight(), GMSet(fighter="Ana", actions=2))
    held = go(c, ManageItems(fighter="Ana", op="hold", item="Knife", hand="right"), actor=P1)
    held = go(held, ManageItems(fighter="Ana", op="hold", item="Shield", hand="left"), actor=P1)
    at_once = go(c, Rearrange(fighter="Ana", right="Knife", left="Shield"), actor=P1)
    assert _hands(held) == _hands(at_once) == (KNIFE, SHIELD)
    assert held.fighter("ana").actions == 0 and at_once.fighter("ana").actions == 1


def test_one_hand_named_leaves_the_other_as_it_is() -> None:
    c = _fight(_kit(right_hand=KNIFE))
    c, events = run(c, Rearrange(fighter="Ana", left="Shield"), actor=P1)
    assert _hands(c) == (KNIFE, SHIELD)
    assert events[0].text == (
        "Ana takes Shield: Knife in the right hand, Shield in the left hand (one action).")


def test_a_two_handed_item_takes_both_hands_and_stows_what_they_held() -> None:
    c = _fight(_kit(right_hand=KNIFE, left_hand=SHIELD))
    for cmd in (Rearrange(fighter="Ana", right="Rifle"), Rearrange(fighter="Ana", left="Rifle"),
                Rearrange(fighter="Ana", right="Rifle", left="rifle")):
        after, events = run(c, cmd, actor=P1)
        assert _hands(after) == (RIFLE, RIFLE)
        assert after.fighter("ana").actions == 0
        assert events[0].text == (
            "Ana takes Rifle and stows Knife and Shield: Rifle in both hands (one action).")
    refused(c, Rearrange(fighter="Ana", right="Rifle", left=EMPTY), "Rifle needs both hands", P1)
    refused(c, Rearrange(fighter="Ana", right="Knife", left="Rifle"), "Rifle needs both hands",
            P1)


def test_a_one_handed_item_in_place_of_a_two_handed_one_empties_the_other_hand() -> None:
    c = _fight(_kit(right_hand=RIFLE, left_hand=RIFLE))
    c, events = run(c, Rearrange(fighter="Ana", right="Knife"), actor=P1)
    assert _hands(c) == (KNIFE, None)
    assert events[0].text == (
        "Ana takes Knife and stows Rifle: Knife in the right hand, nothing in the left hand "
        "(one action).")


def test_picking_up_from_the_floor_and_holding_in_one_action() -> None:
    c = _fight(_kit(right_hand=PISTOL, left_hand=KNIFE))
    c = go(c, ManageItems(fighter="Ana", op="drop", item="Knife"), actor=P1)  # free
    assert c.fighter("ana").actions == 1
    assert "Knife" in legal_items(c, "ana", RULES, "right")
    c, events = run(c, Rearrange(fighter="Ana", right="Knife", left="Shield"), actor=P1)
    ana = c.fighter("ana")
    assert _hands(c) == (KNIFE, SHIELD) and ana.dropped == () and ana.actions == 0
    assert events[0].text == (
        "Ana takes Shield, picks up Knife and stows Pistol: Knife in the right hand, Shield in "
        "the left hand (one action).")


def test_an_item_on_the_floor_of_another_area_is_refused() -> None:
    c = go(_fight(_kit(right_hand=KNIFE)), ManageItems(fighter="Ana", op="drop"), actor=P1)
    c = go(c, GMSet(fighter="Ana", area="Dance Floor"))
    assert "Knife" not in legal_items(c, "ana", RULES, "right")
    refused(c, Rearrange(fighter="Ana", right="Knife", left="Shield"),
            "Knife lies in Entrance; Ana is in Dance Floor", P1)


def test_swapping_hands_is_one_action() -> None:
    c = _fight(_kit(right_hand=KNIFE, left_hand=SHIELD))
    c, events = run(c, Rearrange(fighter="Ana", right="Shield", left="Knife"), actor=P1)
    assert _hands(c) == (SHIELD, KNIFE)
    assert events[0].text == (
        "Ana moves Shield to the right hand and moves Knife to the left hand: Shield in the "
        "right hand, Knife in the left hand (one action).")


def test_emptying_both_hands_stows_everything() -> None:
    c = _fight(_kit(right_hand=KNIFE, left_hand=SHIELD))
    c, events = run(c, Rearrange(fighter="Ana", right=EMPTY, left=EMPTY), actor=P1)
    assert _hands(c) == (None, None)
    assert events[0].text == (
        "Ana stows Knife and Shield: nothing in the right hand, nothing in the left hand "
        "(one action).")


def test_two_items_of_the_same_name_go_one_in_each_hand() -> None:
    knives = (Item(name="Knife", kind="melee_1h"), Item(name="Knife", kind="melee_1h"))
    ana = Character(name="Ana", level=50, max_level=50, items=knives, right_hand=1)
    c, _ = run(_fight(ana), Rearrange(fighter="Ana", right="Knife", left="Knife"), actor=P1)
    assert _hands(c) == (1, 0)  # the knife already in the right hand stays there


@pytest.mark.parametrize(("cmd", "why"), [
    (Rearrange(fighter="Ana"), "Nothing to rearrange: say what Ana's right or left hand"),
    (Rearrange(fighter="Ana", right="Knife", left="Shield"),
     "Nothing to rearrange: Ana already has Knife in the right hand, Shield in the left hand"),
    (Rearrange(fighter="Ana", right="Knife"), "Nothing to rearrange"),
    (Rearrange(fighter="Ana", right="Banjo"), "Ana has no item called 'Banjo'"),
    (Rearrange(fighter="Ana", left=" "), "Ana has no item called ''"),  # blank is not empty
    (Rearrange(fighter="Ana", left="Bullets"), r"Bullets \(ammo\) is not held in a hand"),
    (Rearrange(fighter="Ana", right="Pistol"), "cannot use Pistol and Shield at the same time"),
    (Rearrange(fighter="Ana", right="Shield", left="Shield"), "Ana has one Shield: it cannot be"),
    (Rearrange(fighter="Ana", right="Rifle", left="Knife"), "Rifle needs both hands"),
])
def test_refusals_change_nothing(cmd: Rearrange, why: str) -> None:
    refused(_fight(_kit(right_hand=KNIFE, left_hand=SHIELD)), cmd, why, P1)


def test_a_destroyed_item_a_useless_arm_and_the_turn_are_refused() -> None:
    broken = _kit(right_hand=KNIFE).model_copy(update={"items": (
        *_kit().items[:2], Item(name="Pistol", kind="ranged_1h", destroyed=True),
        *_kit().items[3:])})
    c = _fight(broken)
    refused(c, Rearrange(fighter="Ana", left="Pistol"), "Pistol is destroyed", P1)
    hurt = go(c, GMSet(fighter="Ana", marks={"left_arm": "\\\\\\"}))
    assert legal_items(hurt, "ana", RULES, "left") == ()
    assert "Rifle" not in legal_items(hurt, "ana", RULES, "right")
    refused(hurt, Rearrange(fighter="Ana", left="Shield"), "left arm is full of wounds", P1)
    refused(hurt, Rearrange(fighter="Ana", right="Rifle"), "cannot use one of them", P1)
    refused(c, Rearrange(fighter="Ana", left="Shield"), "Only their player or a GM", P2)
    refused(c, Rearrange(fighter="Goon", left=EMPTY), "not Goon's turn", Actor(user_id=1, gm=True))
    spent = go(c, Rearrange(fighter="Ana", left="Shield"), actor=P1)
    refused(spent, Rearrange(fighter="Ana", left=EMPTY), "not Ana's turn: NPCs are acting", P1)
    pair = begin(setup((_kit(), "Entrance", 100), (knife("Cy"), "Entrance", 200),
                       (knife("Goon", npc=True), "Bar", None)), [3, 2, 6, 1], "PCs")
    pair = go(pair, Rearrange(fighter="Ana", left="Shield"), actor=P1)
    refused(pair, Rearrange(fighter="Ana", left=EMPTY), "Ana has no action left", P1)


def test_what_each_hand_could_hold_and_the_command_as_json() -> None:
    c = _fight(_kit(right_hand=KNIFE))
    assert legal_items(c, "ana", RULES, "right") == ("Knife", "Shield", "Pistol", "Rifle")
    cmd = Rearrange(fighter="Ana", right="Rifle", left=EMPTY)
    text = command_adapter.dump_json(cmd).decode()
    assert text == '{"kind":"rearrange","fighter":"Ana","right":"Rifle","left":""}'
    assert command_adapter.validate_json(text) == cmd
