"""Leader (004 "Abilities": Leader), one rule per bullet:

- good at initiative (a modifier row), and a teammate of higher level may let the leader roll
  initiative (``LetLeaderRoll``);
- rally the team, once per combat (``Rally``);
- direct a teammate, whose next action then costs none of their own (``Direct``);
- on a successful initiative roll, an extra action that can only direct (``InitiativeDirect``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.combat.abilities.rule import AbilityRule
from engine.combat.model import EventKind, Fighter
from engine.phrases import phrase

if TYPE_CHECKING:
    from engine.combat.context import Context

__all__ = ["Direct", "InitiativeDirect", "LetLeaderRoll", "Rally"]


class LetLeaderRoll(AbilityRule):
    id = "leader.good_initiative"

    def rolls_initiative_for_higher(self) -> bool:
        return True


class Rally(AbilityRule):
    id = "leader.rally"

    def rallies(self) -> bool:
        return True


class Direct(AbilityRule):
    id = "leader.direct"

    def directs(self) -> bool:
        return True

    def action_cost(self, f: Fighter) -> int | None:
        # A direction waiting on ``f`` (only a leader with this ability gives one): the
        # action it stands for is the leader's, not ``f``'s.
        return 0 if f.directed is not None else None

    def pay_instead(self, f: Fighter, ctx: Context) -> Fighter | None:
        direction = f.directed
        if direction is None:
            return None
        said = (phrase("{name} acts on {leader}'s direction, keeping their own action.",
                       name=f.name, leader=direction.leader) if direction.leader else
                phrase("{name} acts on a leader's direction, keeping their own action.",
                       name=f.name))
        ctx.emit(EventKind.DIRECT_USED, said, f.key)
        return f.model_copy(update={"directed": None, "directed_by": direction.by})


class InitiativeDirect(AbilityRule):
    id = "leader.initiative_direct"

    def initiative_direct_actions(self) -> int:
        return 1
