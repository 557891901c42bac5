"""Speed (004 "Abilities": Speed): roll for a Move; on a success move twice, each step open
to Intercept; on a failure stay, though it still counts as a move attempt for Intercept. The
Move itself plays it (``engine.combat.actions.move``); this rule only says who may."""

from __future__ import annotations

from engine.combat.abilities.rule import AbilityRule

__all__ = ["MoveTwice"]


class MoveTwice(AbilityRule):
    id = "speed.move_twice"

    def moves_twice(self) -> bool:
        return True
