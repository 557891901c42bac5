"""2H Ranged (004 "Abilities": 2H Ranged; RULINGS 9): line of sight for a 2H ranged Attack is
prevented by 3 or more cover marks, not 2. (Good, powerful and precise are modifier rows.)"""

from __future__ import annotations

from engine.combat.abilities.rule import AbilityRule
from engine.combat.step_values import Weapon

__all__ = ["LongSight"]


class LongSight(AbilityRule):
    id = "ranged_2h.long_sight"

    def marks_to_block(self, weapon: Weapon) -> int | None:
        return 3 if weapon.kind == "ranged_2h" else None
