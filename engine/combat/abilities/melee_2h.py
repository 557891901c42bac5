"""2H Melee (004 "Abilities": 2H Melee): a 2H melee Attack cannot be counterattacked; and "On a
critical success, in addition to one of the standard effects, you can destroy 1 slot worth of
items on your target, even items in their hands" (like 1H Melee's critical, for every attack
roll with a 2H melee weapon: Attack, Counterattack, Intercept). (Good, powerful and precise
are modifier rows.)"""

from __future__ import annotations

from engine.catalog import Action
from engine.combat.abilities.rule import AbilityRule
from engine.combat.step_values import Weapon

__all__ = ["DESTROY_ITEM", "CriticalDestroy", "NoCounterattack"]

#: What a critical success gives besides its choice, with this ability.
DESTROY_ITEM = "destroy_item"
_ATTACKS = (Action.ATTACK, Action.COUNTERATTACK, Action.INTERCEPT)


class NoCounterattack(AbilityRule):
    id = "melee_2h.no_counterattack"

    def counterable(self, weapon: Weapon) -> bool:
        return weapon.kind != "melee_2h"


class CriticalDestroy(AbilityRule):
    id = "melee_2h.critical_destroy"

    def critical_extras(self, action: Action, weapon: Weapon) -> frozenset[str]:
        if action in _ATTACKS and weapon.kind == "melee_2h":
            return frozenset({DESTROY_ITEM})
        return frozenset()
