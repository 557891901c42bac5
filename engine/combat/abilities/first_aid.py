"""First Aid (004 "Abilities": First Aid; the second bullet as edition 000 has it): "Before
rolling for First Aid, you can instead choose to automatically succeed and erase only 1 \\
mark, replacing the rest with X." (Good First Aid is a modifier row.)"""

from __future__ import annotations

from engine.catalog import Action
from engine.combat.abilities.rule import AbilityRule

__all__ = ["SureSuccess"]


class SureSuccess(AbilityRule):
    id = "first_aid.sure"

    def sure_success(self, action: Action) -> bool:
        return action is Action.FIRST_AID
