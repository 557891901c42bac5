"""A fighter's standing orders: what it answers, when asked and not there, in each situation a
reaction window asks it about (an attack on it, a move past it, a Blast it is caught in). The
fight keeps them (``Combat.standing_orders``); ``engine.combat.actions.orders`` sets them and
says what each one answers."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from engine.frozen import FrozenModel

__all__ = ["OrderedReaction", "Situation", "StandingOrder"]

#: What an order may answer: a reaction, or "pass" (let it happen).
OrderedReaction = Literal["defend", "counterattack", "intercept", "pass"]


class Situation(StrEnum):
    """When a standing order is followed."""

    ATTACKED = "attacked"  # an Attack (an Intercept included) on the fighter
    MOVED_PAST = "moved_past"  # an enemy's Move the fighter may Intercept
    BLAST = "blast"  # a Blast that chose the fighter as a target


class StandingOrder(FrozenModel):
    """``fighter``'s answer in ``situation``; ``item``: for a Defend, the shield it is made
    with (followed only while that shield is in a usable hand)."""

    fighter: str  # the fighter's key
    situation: Situation
    reaction: OrderedReaction
    item: str | None = None
