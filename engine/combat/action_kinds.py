"""What a fighter spends an action on (``ActionKind``), and the records of an action starting
(``ActionStart``, kept on the ``Context`` until the machine runs its hooks) and ending
(``ActionEnd``): what the hooks of ``engine.combat.lifecycle`` are given."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.combat.step_values import AnyStep

__all__ = ["STEPLESS", "ActionEnd", "ActionKind", "ActionStart"]


class ActionKind(StrEnum):
    """What a fighter spends an action on: an act in their team's turn, or a reaction."""

    ATTACK = "attack"
    AOE = "aoe"  # an Attack action with an AoE item
    MOVE = "move"
    DOOR = "door"
    FIRST_AID = "first_aid"
    ITEMS = "items"
    RALLY = "rally"
    DIRECT = "direct"
    DEFEND = "defend"
    COUNTERATTACK = "counterattack"
    INTERCEPT = "intercept"


#: Acts that leave no step on the stack: they end as soon as they start.
STEPLESS: frozenset[ActionKind] = frozenset({ActionKind.DOOR, ActionKind.ITEMS,
                                             ActionKind.DIRECT})


@dataclass
class ActionStart:
    """``fighter`` starts an action of ``kind``. ``at``: how many events had been said when it
    was spent; the next one is the action's declaration ("Ana attacks Goon with Pistol.").
    ``said``: how many lines hooks have said with that declaration so far."""

    fighter: str
    kind: ActionKind
    at: int
    said: int = 0


@dataclass(frozen=True)
class ActionEnd:
    """``fighter``'s action of ``kind`` is over; ``step`` is its step that left the stack, as
    it stood when the machine last advanced it (None for an action that had none)."""

    fighter: str
    kind: ActionKind
    step: AnyStep | None = None
