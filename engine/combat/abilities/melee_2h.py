"""2H Melee (004 "Abilities": 2H Melee): a 2H melee Attack cannot be counterattacked.
(Good, powerful and precise are modifier rows.)"""

from __future__ import annotations

from engine.combat.abilities.rule import AbilityRule
from engine.combat.model import Weapon

__all__ = ["NoCounterattack"]


class NoCounterattack(AbilityRule):
    id = "melee_2h.no_counterattack"

    def counterable(self, weapon: Weapon) -> bool:
        return weapon.kind != "melee_2h"
