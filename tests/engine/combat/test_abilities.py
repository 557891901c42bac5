"""004 "Combat abilities": each is a modifier row, a rule at a hook point, or not yet in play."""

from __future__ import annotations

from engine.catalog import Action, Category, RollModifier
from engine.character import Character, Item
from engine.combat.abilities import NOT_YET_IN_PLAY, REGISTRY
from engine.combat.abilities.hooks import (
    counterable,
    extra_weapons,
    marks_to_block,
    roll_modifiers,
)
from engine.combat.step_values import UNARMED, Weapon
from tests.engine.combat.helpers import RULES

RIFLE = Weapon(name="Rifle", kind="ranged_2h")
MAUL = Weapon(name="Maul", kind="melee_2h")


def _with(*abilities: str, **kw: object) -> Character:
    return Character(
        name="Ana", level=50, max_level=50, abilities=abilities, **kw  # type: ignore[arg-type]
    )


def test_every_combat_ability_is_data_a_rule_or_listed_as_not_yet_in_play() -> None:
    # A modifier row may also have a rule, for the rest of its bullet (Leader's good
    # initiative: a higher teammate may let the leader roll); nothing in play is "not yet".
    combat = [a for a in RULES.abilities.abilities if a.category is Category.COMBAT]
    for ability in combat:
        in_play = ability.modifier is not None or ability.id in REGISTRY
        assert in_play != (ability.id in NOT_YET_IN_PLAY), (
            f"{ability.id}: in play {in_play}, listed as not yet {ability.id in NOT_YET_IN_PLAY}")
    ids = {a.id for a in combat}
    assert set(REGISTRY) <= ids and ids >= NOT_YET_IN_PLAY


def test_roll_modifiers_come_from_the_data_rows() -> None:
    ana = _with("ranged_2h.good_attack", "ranged_2h.precise_attack", "ranged_2h.good_intercept")
    assert roll_modifiers(ana, RULES, Action.ATTACK, "ranged_2h") == {
        RollModifier.GOOD, RollModifier.PRECISE}
    assert roll_modifiers(ana, RULES, Action.INTERCEPT, "ranged_2h") == {RollModifier.GOOD}
    assert roll_modifiers(ana, RULES, Action.ATTACK, "ranged_1h") == frozenset()


def test_long_sight_sees_past_two_marks_with_a_2h_ranged_weapon_only() -> None:
    ana = _with("ranged_2h.long_sight")
    assert marks_to_block(ana, RIFLE) == 3
    assert marks_to_block(ana, Weapon(name="Pistol", kind="ranged_1h")) == 2
    assert marks_to_block(_with(), RIFLE) == 2


def test_a_2h_melee_attack_by_someone_with_the_ability_cannot_be_counterattacked() -> None:
    assert not counterable(_with("melee_2h.no_counterattack"), MAUL)
    assert counterable(_with("melee_2h.no_counterattack"), Weapon(name="Knife", kind="melee_1h"))
    assert counterable(_with(), MAUL)


def test_unarmed_fighting_needs_an_empty_usable_hand_or_two_sound_legs() -> None:
    fists = (Weapon(name=UNARMED, kind=UNARMED),)
    assert extra_weapons(_with("unarmed.fight"), RULES, ("right", "left")) == fists
    assert extra_weapons(_with(), RULES, ("right", "left")) == ()
    kicker = _with("unarmed.fight", items=(Item(name="Rifle", kind="ranged_2h"),),
                   right_hand=0, left_hand=0)
    assert extra_weapons(kicker, RULES, ("right", "left")) == fists  # two legs
    full = {leg.id: "\\" * leg.boxes for leg in RULES.body.legs}
    lame = kicker.model_copy(update={"wounds": full})
    assert extra_weapons(lame, RULES, ("right", "left")) == ()
