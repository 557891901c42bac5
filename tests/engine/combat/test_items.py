"""004 "Use or manage items": hold, stow, pick up, drop, use, or both hands at once."""

from __future__ import annotations

import pytest

from engine.character import Character, Item
from engine.combat import (
    Actor,
    AddFighter,
    Attack,
    ChooseDice,
    Combat,
    GMSet,
    ManageItems,
    React,
    Surrender,
    command_adapter,
    legal_items,
    new_combat,
)
from engine.combat.commands import Rearrange
from engine.phrases import english
from tests.engine.combat.helpers import (
    P1,
    P2,
    RULES,
    armed,
    begin,
    duel,
    go,
    knife,
    refused,
    run,
    setup,
)


def test_holding_an_item_takes_one_action_and_stows_what_is_in_the_way() -> None:
    c = duel(armed("Ana"), knife("Goon", npc=True))
    assert set(legal_items(c, "ana", RULES, "hold")) == {"Rifle", "Shield", "Kit"}
    c, events = run(c, ManageItems(fighter="Ana", op="hold", item="rifle"), actor=P1)
    ana = c.fighter("ana")
    assert ana.actions == 0 and ana.character.right_hand == ana.character.left_hand == 0
    assert english(events[0].text) == "Ana takes Rifle: Ana has Rifle in both hands. (one action)"


def test_hold_refusals_change_nothing() -> None:
    c = duel(armed("Ana"), knife("Goon", npc=True))
    refused(c, ManageItems(fighter="Ana", op="hold", item="Pistol"), "already holds Pistol", P1)
    refused(c, ManageItems(fighter="Ana", op="hold", item="Shield", hand="left"),
            "cannot use Shield and Pistol at the same time", P1)
    refused(c, ManageItems(fighter="Ana", op="hold", item="Rifle", hand="left"),
            "needs both hands", P1)
    refused(c, ManageItems(fighter="Ana", op="hold", item="Bullets"), "not held in a hand", P1)
    refused(c, ManageItems(fighter="Ana", op="hold", item="Sword"), "no item called", P1)
    hurt = go(c, GMSet(fighter="Ana", marks={"left_arm": "\\\\\\"}))
    refused(hurt, ManageItems(fighter="Ana", op="hold", item="Rifle"),
            "needs both hands, and Ana cannot use one of them", P1)


def test_dropping_is_free_and_picking_up_takes_an_action() -> None:
    c = duel(armed("Ana"), knife("Goon", npc=True))
    c, events = run(c, ManageItems(fighter="Ana", op="drop", hand="right"), actor=P1)
    assert english(events[0].text) == "Ana drops Pistol in Entrance (no action)."
    ana = c.fighter("ana")
    assert ana.actions == 1 and ana.character.right_hand is None
    assert "Pistol" not in legal_items(c, "ana", RULES, "hold")
    refused(c, ManageItems(fighter="Ana", op="hold", item="Pistol"), "pick it up first", P1)
    assert legal_items(c, "ana", RULES, "pickup") == ("Pistol",)
    c = go(c, ManageItems(fighter="Ana", op="pickup", item="Pistol"), actor=P1)
    ana = c.fighter("ana")
    assert ana.actions == 0 and ana.character.right_hand == 1 and ana.dropped == ()


def test_only_a_conscious_fighter_drops_an_item() -> None:
    c = setup((knife("Ana"), "Entrance", 100), (knife("Cy"), "Alley", 200),
              (knife("Goon", npc=True), "Bar", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    drop = ManageItems(fighter="Ana", op="drop")
    refused(go(c, GMSet(fighter="Ana", level=5)), drop, "Ana is unconscious and cannot drop", P1)
    refused(go(c, Surrender(fighter="Ana"), actor=P1), drop, "Ana is surrendered and cannot", P1)


def test_an_item_dropped_elsewhere_cannot_be_picked_up() -> None:
    c = duel(armed("Ana"), knife("Goon", npc=True))
    c = go(c, ManageItems(fighter="Ana", op="drop", item="Pistol"), actor=P1)
    c = go(c, GMSet(fighter="Ana", area="Dance Floor"))
    assert legal_items(c, "ana", RULES, "pickup") == ()
    refused(c, ManageItems(fighter="Ana", op="pickup", item="Pistol"), "lies in Entrance", P1)


def test_a_full_arm_drops_its_item_on_the_floor() -> None:
    c = duel(knife("Goon", npc=True), armed("Ana"), att_team_first="NPCs")
    c = go(c, GMSet(fighter="Ana", marks={"right_arm": "\\\\"}))
    c = go(c, Attack(fighter="Goon", target="Ana"))
    c = go(c, React(fighter="Ana", reaction="pass"), [1, 8], actor=P2)
    c = go(c, ChooseDice(fighter="Goon", damage="tens"))  # 1 damage to location 8: right arm
    ana = c.fighter("ana")
    assert ana.character.right_hand is None
    assert [(d.index, d.area) for d in ana.dropped] == [(1, "Entrance")]


def test_stow_and_use() -> None:
    c = duel(armed("Ana"), knife("Goon", npc=True))
    refused(c, ManageItems(fighter="Ana", op="use", item="Rifle"), "not in Ana's hands", P1)
    c, events = run(c, ManageItems(fighter="Ana", op="use", item="Pistol"), actor=P1)
    assert english(events[0].text) == "Ana uses Pistol; the GM says what it does. (one action)"
    assert c.fighter("ana").actions == 0


def test_using_a_thing_noted_on_the_area() -> None:
    c = new_combat("Vault -- Hall\nVault: the alarm lever")
    c = go(c, AddFighter(character=knife("Ana"), area="Vault", owner_id=100))
    c = go(c, AddFighter(character=knife("Goon", npc=True), area="Hall"))
    c = begin(c, [3, 2, 6, 1], "PCs")
    assert legal_items(c, "ana", RULES, "use") == ("Knife", "the alarm lever")
    c, events = run(c, ManageItems(fighter="Ana", op="use", item="The Alarm Lever"), actor=P1)
    assert english(events[0].text).startswith("Ana uses the alarm lever in Vault")


def test_stow_empties_hands_for_one_action() -> None:
    c = duel(armed("Ana"), knife("Goon", npc=True))
    c = go(c, ManageItems(fighter="Ana", op="stow"), actor=P1)
    ana = c.fighter("ana")
    assert ana.actions == 0 and ana.character.right_hand is None
    empty = duel(knife("Bob").model_copy(update={"right_hand": None}), knife("Goon", npc=True))
    refused(empty, ManageItems(fighter="Bob", op="stow"), "nothing in hand to stow", P1)


# ---- Rearrange: both hands set in one action ("Rearranging which items are in your hands,
# including picking items up or stowing away items, takes a total of one action") -----------

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
    assert english(events[0].text) == (
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
    assert english(events[0].text) == (
        "Ana takes Shield: Knife in the right hand, Shield in the left hand (one action).")


def test_a_two_handed_item_takes_both_hands_and_stows_what_they_held() -> None:
    c = _fight(_kit(right_hand=KNIFE, left_hand=SHIELD))
    for cmd in (Rearrange(fighter="Ana", right="Rifle"), Rearrange(fighter="Ana", left="Rifle"),
                Rearrange(fighter="Ana", right="Rifle", left="rifle")):
        after, events = run(c, cmd, actor=P1)
        assert _hands(after) == (RIFLE, RIFLE)
        assert after.fighter("ana").actions == 0
        assert english(events[0].text) == (
            "Ana takes Rifle and stows Knife and Shield: Rifle in both hands (one action).")
    refused(c, Rearrange(fighter="Ana", right="Rifle", left=EMPTY), "Rifle needs both hands", P1)
    refused(c, Rearrange(fighter="Ana", right="Knife", left="Rifle"), "Rifle needs both hands",
            P1)


def test_a_one_handed_item_in_place_of_a_two_handed_one_empties_the_other_hand() -> None:
    c = _fight(_kit(right_hand=RIFLE, left_hand=RIFLE))
    c, events = run(c, Rearrange(fighter="Ana", right="Knife"), actor=P1)
    assert _hands(c) == (KNIFE, None)
    assert english(events[0].text) == (
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
    assert english(events[0].text) == (
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
    assert english(events[0].text) == (
        "Ana moves Shield to the right hand and moves Knife to the left hand: Shield in the "
        "right hand, Knife in the left hand (one action).")


def test_emptying_both_hands_stows_everything() -> None:
    c = _fight(_kit(right_hand=KNIFE, left_hand=SHIELD))
    c, events = run(c, Rearrange(fighter="Ana", right=EMPTY, left=EMPTY), actor=P1)
    assert _hands(c) == (None, None)
    assert english(events[0].text) == (
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
