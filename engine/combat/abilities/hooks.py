"""The hook points: where the engine asks what a fighter's abilities say, each folded one way.

| hook | fold | asked by |
|---|---|---|
| ``roll_modifiers`` | union of the data's modifier rows | every roll, damage |
| ``marks_to_block`` | max, default 2 | line of sight of an Attack |
| ``counterable`` | all | the Counterattack offer |
| ``extra_weapons`` | union | the weapons a fighter has |
"""

from __future__ import annotations

from engine.catalog import Action, Hand, RollModifier, Rules
from engine.character import Character
from engine.combat.abilities import REGISTRY, AbilityRule
from engine.combat.model import Weapon
from engine.errors import RuleError

__all__ = ["counterable", "extra_weapons", "has_modifier", "marks_to_block", "roll_modifiers"]

MARKS_TO_BLOCK = 2  # RULINGS 9


def _rules(c: Character) -> list[AbilityRule]:
    return [REGISTRY[a] for a in c.abilities if a in REGISTRY]


def roll_modifiers(
    c: Character, rules: Rules, action: Action, item: str | None
) -> frozenset[RollModifier]:
    """What the character's abilities give a roll for ``action`` with an item of kind ``item``
    (the good / precise / powerful rows of ``data/abilities.toml``)."""
    found: set[RollModifier] = set()
    for ability_id in c.abilities:
        try:
            ability = rules.abilities.ability(ability_id)
        except RuleError:
            continue
        if ability.modifier is not None and action in ability.actions and ability.item == item:
            found.add(ability.modifier)
    return frozenset(found)


def has_modifier(
    c: Character, rules: Rules, modifier: RollModifier, action: Action, item: str | None
) -> bool:
    return modifier in roll_modifiers(c, rules, action, item)


def marks_to_block(c: Character, weapon: Weapon) -> int:
    """Cover marks that block line of sight for ``c``'s Attack with ``weapon``."""
    return max(
        [MARKS_TO_BLOCK, *(m for r in _rules(c) if (m := r.marks_to_block(weapon)) is not None)]
    )


def counterable(c: Character, weapon: Weapon) -> bool:
    """Whether ``c``'s Attack with ``weapon`` may be counterattacked."""
    return all(r.counterable(weapon) for r in _rules(c))


def extra_weapons(c: Character, rules: Rules, usable: tuple[Hand, ...]) -> tuple[Weapon, ...]:
    """Weapons ``c``'s abilities give besides the items in hand."""
    return tuple(w for r in _rules(c) for w in r.weapons(c, rules, usable))
