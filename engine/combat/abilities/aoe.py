"""AoE (004 "Abilities": Area of Effect): each variety is an ability, and each AoE item names
the ability it is for. The attack itself is played by ``engine.combat.actions.aoe``; these
rules only say which variety an item for the ability makes."""

from __future__ import annotations

from engine.combat.abilities.rule import AbilityRule

__all__ = ["AreaCover", "Blast", "Continuous", "Demolish"]


class Blast(AbilityRule):
    id = "aoe.blast"

    def aoe_variety(self) -> str | None:
        return "blast"


class Continuous(AbilityRule):
    id = "aoe.continuous"

    def aoe_variety(self) -> str | None:
        return "continuous"


class AreaCover(AbilityRule):
    id = "aoe.cover"

    def aoe_variety(self) -> str | None:
        return "cover"


class Demolish(AbilityRule):
    id = "aoe.demolish"

    def aoe_variety(self) -> str | None:
        return "demolish"
