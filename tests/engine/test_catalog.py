"""engine.catalog and data/: the rulebook's item kinds, abilities and hit locations as data."""

from __future__ import annotations

import tomllib

import pytest
from pydantic import ValidationError

from data import load_rules, read_text
from engine.catalog import (
    Category,
    LessLethal,
    Penalty,
    RollModifier,
    Rules,
    parse_abilities,
    parse_body,
    parse_items,
    parse_rules,
)
from engine.errors import RuleError

RULES = load_rules()


# -- hit locations (004 "Hit Location", RULINGS 16) -------------------------------------------


@pytest.mark.parametrize(
    ("location", "boxes", "dice", "penalty"),
    [
        ("head", 3, (9,), Penalty.UNCONSCIOUS),
        ("right_arm", 3, (8,), Penalty.ARM),
        ("left_arm", 3, (7,), Penalty.ARM),
        ("torso", 9, (4, 5, 6), Penalty.UNCONSCIOUS),
        ("right_leg", 6, (2, 3), Penalty.LEG),
        ("left_leg", 6, (0, 1), Penalty.LEG),
    ],
)
def test_hit_locations_follow_rulings_16(
    location: str, boxes: int, dice: tuple[int, ...], penalty: Penalty
) -> None:
    loc = RULES.body.location(location)
    assert (loc.boxes, loc.dice, loc.penalty) == (boxes, dice, penalty)
    assert all(RULES.body.for_die(face).id == location for face in dice)


def test_body_plan_details() -> None:
    body = RULES.body
    assert body.ids == ("head", "right_arm", "left_arm", "torso", "right_leg", "left_leg")
    assert body.overflow == "torso"
    assert sum(loc.boxes for loc in body.locations) == 30
    assert body.arm_for("right") == body.location("right_arm")
    assert body.arm_for("left") == body.location("left_arm")
    assert [body.dice_label(i) for i in body.ids] == ["9", "8", "7", "4-6", "2-3", "0-1"]


def test_unknown_location_and_die_are_rule_errors() -> None:
    with pytest.raises(RuleError, match="no hit location called 'tail'"):
        RULES.body.location("tail")
    with pytest.raises(RuleError, match="0-9, not 10"):
        RULES.body.for_die(10)


# -- items (004 "Items") ----------------------------------------------------------------------


def test_every_combat_item_kind_of_the_book() -> None:
    assert set(RULES.items.ids) == {
        "armor",
        "shield",
        "first_aid",
        "melee_2h",
        "melee_1h",
        "ammo",
        "ranged_2h",
        "ranged_1h",
        "aoe",
    }


@pytest.mark.parametrize(
    ("kind_id", "hands", "min_range", "max_range"),
    [
        ("armor", 0, None, None),
        ("shield", 1, 0, 0),
        ("first_aid", 1, None, None),
        ("melee_2h", 2, 0, 0),
        ("melee_1h", 1, 0, 0),
        ("ammo", 0, None, None),
        ("ranged_2h", 2, 1, None),  # "a range of 1 or more, but not 0"
        ("ranged_1h", 1, 0, 1),  # "a range of 0 or 1"
        ("aoe", 2, 0, 1),  # "require both hands. They have a range of 0 or 1."
    ],
)
def test_hands_and_ranges(
    kind_id: str, hands: int, min_range: int | None, max_range: int | None
) -> None:
    kind = RULES.items.kind(kind_id)
    assert (kind.hands, kind.min_range, kind.max_range) == (hands, min_range, max_range)


def test_item_kind_rules() -> None:
    items = RULES.items
    armor = items.kind("armor")
    assert armor.per_location and armor.max_per_location == 2 and not armor.held
    assert items.kind("shield").defender_chooses_dice
    assert items.kind("shield").attack_requires == "shield.attack"
    assert not items.kind("shield").weapon
    assert items.kind("melee_2h").wound_mark == "X"
    assert items.kind("melee_1h").wound_mark == "\\"
    assert items.kind("first_aid").one_use and items.kind("aoe").one_use
    assert items.kind("ranged_2h").needs_ammo and items.kind("ranged_1h").needs_ammo
    assert items.kind("ammo").is_ammo
    assert items.kind("ammo").less_lethal is LessLethal.VARIANT
    assert items.kind("melee_2h").less_lethal is LessLethal.CHOICE
    assert items.kind("ranged_1h").less_lethal is LessLethal.AMMO
    assert items.kind("ranged_1h").not_held_with == ("shield",)
    assert set(items.kind("aoe").requires_one_of) == {
        "aoe.blast",
        "aoe.continuous",
        "aoe.cover",
        "aoe.demolish",
    }
    weapons = {kind.id for kind in items.kinds if kind.weapon}
    assert weapons == {"melee_2h", "melee_1h", "ranged_2h", "ranged_1h", "aoe"}


def test_ranges() -> None:
    assert RULES.items.kind("ranged_2h").in_range(7)
    assert not RULES.items.kind("ranged_2h").in_range(0)
    assert RULES.items.kind("ranged_1h").in_range(1)
    assert not RULES.items.kind("ranged_1h").in_range(2)
    assert not RULES.items.kind("armor").in_range(0)


def test_the_books_examples_are_quoted() -> None:
    examples = {kind.id: kind.examples for kind in RULES.items.kinds}
    assert "riot shield" in examples["shield"]
    assert "bulletproof vest" in examples["armor"]
    assert "greatsword" in examples["melee_2h"]
    assert "pistol" in examples["ranged_1h"]
    assert "grenade" in examples["aoe"]
    assert "nanomachines" in examples["first_aid"]
    assert "tranquilizer dart" in RULES.items.less_lethal.examples
    assert "separate ammo slot" in RULES.items.less_lethal.rule


def test_unknown_kind_names_the_valid_ones() -> None:
    with pytest.raises(RuleError, match="no item kind 'bazooka'; the kinds are armor, shield"):
        RULES.items.kind("bazooka")


# -- abilities (004 "Abilities") ---------------------------------------------------------------


def test_every_bullet_is_an_ability() -> None:
    per_group: dict[str, int] = {}
    for ability in RULES.abilities.abilities:
        per_group[ability.group] = per_group.get(ability.group, 0) + 1
    assert per_group == {
        "Non-combat": 1,
        "Shield": 4,
        "First Aid": 2,
        "2H Melee": 6,
        "1H Melee": 4,
        "2H Ranged": 5,
        "1H Ranged": 2,
        "AoE": 4,
        "Leader": 4,
        "Speed": 1,
        "Stealth": 1,
        "Unarmed Combat": 5,
    }


def test_prerequisites() -> None:
    requires = {a.id: a.requires for a in RULES.abilities.abilities if a.requires}
    assert requires == {
        "leader.initiative_direct": ("leader.direct",),  # "Requires the prior ability."
        "unarmed.good_attack": ("unarmed.fight",),
        "unarmed.good_reactions": ("unarmed.fight",),
        "unarmed.precise_attack": ("unarmed.fight",),
        "unarmed.stop_movement": ("unarmed.fight",),
    }


def test_modifiers_name_what_they_apply_to() -> None:
    ability = RULES.abilities.ability
    assert ability("melee_2h.powerful_attack").modifier is RollModifier.POWERFUL
    assert ability("melee_2h.powerful_attack").actions == ("attack",)
    assert ability("melee_2h.powerful_attack").item == "melee_2h"
    assert ability("ranged_1h.precise_attack").modifier is RollModifier.PRECISE
    assert ability("melee_1h.good_reactions").actions == ("intercept", "counterattack")
    assert ability("shield.good_defend").modifier is RollModifier.GOOD
    assert ability("leader.good_initiative").actions == ("initiative",)
    assert ability("first_aid.good").actions == ("first_aid",)
    assert ability("unarmed.good_attack").item == "unarmed"
    assert ability("leader.rally").modifier is None


def test_non_combat_ability_is_free_text() -> None:
    good_at = RULES.abilities.ability("good_at")
    assert good_at.category is Category.NON_COMBAT and good_at.free_text
    assert all(a.category is Category.COMBAT for a in RULES.abilities.combat)
    assert len(RULES.abilities.combat) == len(RULES.abilities.abilities) - 1


def test_texts_garbled_in_004_come_from_000() -> None:
    sure = RULES.abilities.ability("first_aid.sure")
    assert sure.text.endswith("erase only 1 \\ mark, replacing the rest with X.")
    assert RULES.abilities.ability("leader.direct").title == "Leader: Direct"


# -- parsing: catalogs are validated and frozen ------------------------------------------------


def test_catalogs_are_frozen() -> None:
    with pytest.raises(ValidationError):
        RULES.body.location("head").boxes = 4  # type: ignore[misc]
    assert isinstance(RULES.items.kinds, tuple)


def test_data_files_are_readable_text() -> None:
    for name in ("items.toml", "abilities.toml", "body.toml"):
        assert tomllib.loads(read_text(name))
    assert load_rules() is load_rules()  # parsed once


def test_parse_rules_round_trip() -> None:
    rules = parse_rules(
        items=read_text("items.toml"),
        abilities=read_text("abilities.toml"),
        body=read_text("body.toml"),
    )
    assert rules == RULES


BODY = read_text("body.toml")
ITEMS = read_text("items.toml")
ABILITIES = read_text("abilities.toml")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (BODY.replace("dice = [9]", "dice = [8]"), "cover 0-9"),
        (BODY.replace('overflow = "torso"', 'overflow = "tail"'), "overflow location"),
        (BODY.replace('id = "left_leg"', 'id = "right_leg"'), "unique"),
        (BODY.replace('hand = "left"', 'hand = "right"'), "one right arm"),
        (BODY.replace("boxes = 9", "boxes = 0"), "greater than or equal to 1"),
    ],
)
def test_broken_body_is_refused(text: str, problem: str) -> None:
    with pytest.raises(ValidationError, match=problem):
        parse_body(text)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (ITEMS.replace('id = "melee_1h"', 'id = "melee_2h"'), "unique"),
        (ITEMS.replace("max_range = 1\nneeds_ammo", "max_range = -1\nneeds_ammo"), "greater"),
        (ITEMS.replace('not_held_with = ["shield"]', 'not_held_with = ["tank"]'), "unknown"),
        (ITEMS.replace("hands = 2", "hands = 3", 1), "less than or equal to 2"),
        (ITEMS.replace('name = "Shield"', 'name = "Shield"\ncolour = "red"'), "Extra inputs"),
    ],
)
def test_broken_items_are_refused(text: str, problem: str) -> None:
    with pytest.raises(ValidationError, match=problem):
        parse_items(text)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (ABILITIES.replace('requires = ["leader.direct"]', 'requires = ["leader.x"]'), "unknown"),
        (
            ABILITIES.replace(
                'name = "Direct"\ncategory = "combat"',
                'name = "Direct"\ncategory = "combat"\nrequires = ["leader.initiative_direct"]',
            ),
            "requires itself",
        ),
        (ABILITIES.replace('id = "speed.move_twice"', 'id = "stealth.hide"'), "unique"),
        (ABILITIES.replace('modifier = "powerful"', 'modifier = "mighty"', 1), "modifier"),
    ],
)
def test_broken_abilities_are_refused(text: str, problem: str) -> None:
    with pytest.raises(ValidationError, match=problem):
        parse_abilities(text)


def test_rules_cross_check_items_against_abilities() -> None:
    items = parse_items(ITEMS.replace('"aoe.cover"', '"aoe.smoke"'))
    with pytest.raises(ValidationError, match="unknown abilities"):
        Rules(items=items, abilities=RULES.abilities, body=RULES.body)


def test_bad_toml_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_body("locations = [")
