"""Unarmed Combat (004 "Abilities": Unarmed): fight with a hand or with two legs — an empty
usable hand, or both legs not full; and a successful unarmed Intercept with two empty hands
may stop the mover, who ends in the area the interceptor chooses. (Good and precise are
modifier rows.)"""

from __future__ import annotations

from engine.catalog import Action, Hand, Rules
from engine.character import HANDS, Character, usable_hands
from engine.combat.abilities.rule import AbilityRule
from engine.combat.step_values import UNARMED, Weapon

__all__ = ["Fight", "StopMovement"]


class Fight(AbilityRule):
    id = "unarmed.fight"

    def weapons(
        self, c: Character, rules: Rules, usable: tuple[Hand, ...], action: Action
    ) -> tuple[Weapon, ...]:
        # "Make Attack, Counterattack, or Intercept actions": every action.
        empty_hand = any(c.held(h) is None for h in usable)
        legs_ok = all(len(c.marks(loc.id)) < loc.boxes for loc in rules.body.legs)
        return (Weapon(name=UNARMED, kind=UNARMED),) if empty_hand or legs_ok else ()


class StopMovement(AbilityRule):
    """"When you successfully Intercept with two empty hands, in addition to damage you can
    stop the target's movement": bare hands, both hands usable and holding nothing."""

    id = "unarmed.stop_movement"

    def stops_mover(self, c: Character, weapon: Weapon, rules: Rules) -> bool:
        return (
            weapon.kind == UNARMED
            and usable_hands(c, rules=rules) == HANDS
            and all(c.held(h) is None for h in HANDS)
        )
