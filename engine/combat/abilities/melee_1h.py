"""1H Melee (004 "Abilities": 1H Melee): "On a critical success, instead of gaining another
action, you can force your target to lose their next action." The bullet names no action, so
it holds for every attack roll made with a 1H melee weapon: Attack, Counterattack and
Intercept (each has a target). (Good and precise are modifier rows.)"""

from __future__ import annotations

from engine.catalog import Action
from engine.combat.abilities.rule import AbilityRule
from engine.combat.step_values import Weapon

__all__ = ["TARGET_LOSES_ACTION", "TargetLosesAction"]

#: The critical success option this ability adds (in place of the extra action).
TARGET_LOSES_ACTION = "target_loses_action"
_ATTACKS = (Action.ATTACK, Action.COUNTERATTACK, Action.INTERCEPT)


class TargetLosesAction(AbilityRule):
    id = "melee_1h.critical_lose_action"

    def critical_options(self, action: Action, weapon: Weapon) -> frozenset[str]:
        if action in _ATTACKS and weapon.kind == "melee_1h":
            return frozenset({TARGET_LOSES_ACTION})
        return frozenset()
