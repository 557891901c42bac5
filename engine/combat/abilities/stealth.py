"""Stealth (004 "Abilities": Stealth; RULINGS 9, 12): while no enemy is in the character's
area, one more cover mark at that area against every other area, which counts toward line of
sight too. Lost on starting a Move, Attack or Intercept, regained after a Move into an area
without enemies. The fight keeps who is hidden (``engine.combat.stealth``); this rule only
says who can be."""

from __future__ import annotations

from engine.combat.abilities.rule import AbilityRule

__all__ = ["Hide"]


class Hide(AbilityRule):
    id = "stealth.hide"

    def hides(self) -> bool:
        return True
