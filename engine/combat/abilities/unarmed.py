"""Unarmed Combat (004 "Abilities": Unarmed): fight with a hand or with two legs — an empty
usable hand, or both legs not full. (Good and precise are modifier rows.)"""

from __future__ import annotations

from engine.catalog import Action, Hand, Rules
from engine.character import Character
from engine.combat.abilities.rule import AbilityRule
from engine.combat.model import Weapon

__all__ = ["UNARMED", "Fight"]

UNARMED = "unarmed"  # the weapon's name and kind


class Fight(AbilityRule):
    id = "unarmed.fight"

    def weapons(
        self, c: Character, rules: Rules, usable: tuple[Hand, ...], action: Action
    ) -> tuple[Weapon, ...]:
        # "Make Attack, Counterattack, or Intercept actions": every action.
        empty_hand = any(c.held(h) is None for h in usable)
        legs_ok = all(len(c.marks(loc.id)) < loc.boxes for loc in rules.body.legs)
        return (Weapon(name=UNARMED, kind=UNARMED),) if empty_hand or legs_ok else ()
