"""Advancement and choosing abilities: rulebook 004, "Advancement" and "Abilities".

"When your level increases to a number ending in 0 you choose another ability. At level 60 you
can choose a second combat or non-combat ability, at level 70 another, etc." and "Some abilities
have explicit dependencies on another ability, but otherwise you can choose them in any order
during advancement."
"""

from __future__ import annotations

import pytest

from data import load_rules
from engine.catalog import Category
from engine.character import (
    Character,
    abilities_open,
    add_ability,
    add_good_at,
    advance,
    good_at_matching,
    has_room,
)
from engine.errors import RuleError

RULES = load_rules()


def started(level: int = 50) -> Character:
    """One combat and one non-combat ability, as everyone starts."""
    c, _ = add_ability(Character.new("Ana", level=level), "leader.direct", rules=RULES)
    c, _ = add_good_at(c, "good at lockpicking", rules=RULES)
    return c


def test_at_level_60_a_third_ability_of_either_kind() -> None:
    ana = started(59)
    assert abilities_open(ana, rules=RULES) == ()
    with pytest.raises(RuleError, match="has 2 of 2 abilities; the next comes at max level 60"):
        add_ability(ana, "leader.rally", rules=RULES)
    ana, report = advance(ana)
    assert report.new_ability and ana.max_level == 60
    assert has_room(ana, Category.COMBAT) and has_room(ana, Category.NON_COMBAT)
    assert "leader.rally" in {a.id for a in abilities_open(ana, rules=RULES)}
    ana, _ = add_good_at(ana, "forensic accounting", rules=RULES)  # either kind
    assert abilities_open(ana, rules=RULES) == ()


def test_levels_ending_in_0_from_60_bring_one_ability_each() -> None:
    ana = started(50)
    gained = []
    for _ in range(49):
        ana, report = advance(ana)
        if report.new_ability:
            gained.append(ana.max_level)
    assert gained == [60, 70, 80, 90] and ana.max_level == 99


def test_direct_on_initiative_only_after_direct() -> None:
    """Leader: "When you succeed at an initiative roll ... Requires the prior ability."."""
    bea, _ = add_good_at(Character.new("Bea", level=60), "running", rules=RULES)
    assert "leader.initiative_direct" not in {a.id for a in abilities_open(bea, rules=RULES)}
    with pytest.raises(RuleError, match="requires Leader: Direct, which Bea does not have"):
        add_ability(bea, "leader.initiative_direct", rules=RULES)
    bea, _ = add_ability(bea, "leader.direct", rules=RULES)
    assert "leader.initiative_direct" in {a.id for a in abilities_open(bea, rules=RULES)}


def test_unarmed_first_bullet_before_the_others() -> None:
    """Unarmed Combat's first bullet: "This is a prerequisite for any of the following
    abilities."."""
    cy = Character.new("Cy", level=70)
    unarmed = [a.id for a in abilities_open(cy, rules=RULES) if a.group == "Unarmed Combat"]
    assert unarmed == ["unarmed.fight"]
    cy, _ = add_ability(cy, "unarmed.fight", rules=RULES)
    unarmed = [a.id for a in abilities_open(cy, rules=RULES) if a.group == "Unarmed Combat"]
    assert unarmed == ["unarmed.good_attack", "unarmed.good_reactions", "unarmed.precise_attack",
                       "unarmed.stop_movement"]


def test_already_taken_is_not_open() -> None:
    ana = started(60)
    assert "leader.direct" not in {a.id for a in abilities_open(ana, rules=RULES)}
    with pytest.raises(RuleError, match="already has Leader: Direct"):
        add_ability(ana, "leader.direct", rules=RULES)


def test_a_good_at_ability_is_found_by_its_activity() -> None:
    ana = started()
    assert good_at_matching(ana, "Good at  LOCKPICKING") == "lockpicking"
    assert good_at_matching(ana, "lockpicking") == "lockpicking"
    assert good_at_matching(ana, "forensics") is None
