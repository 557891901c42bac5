"""Giving up a fight: rulebook 004, "Damage" › "Surrender".

"Reduce your level to zero, you are out of the fight and effectively unconscious."

>>> from data import load_rules
>>> ana, report = surrender(Character.new("Ana"), rules=load_rules())
>>> ana.level, report.summary.english()
(0, 'Ana surrenders: level 50 → 0, out of the fight.')
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.catalog import Rules
from engine.character.condition import Status, status
from engine.character.model import Character, validated_copy
from engine.character.validation import check_character
from engine.errors import RuleError
from engine.phrases import Phrase, phrase

__all__ = ["SurrenderReport", "surrender"]


@dataclass(frozen=True, slots=True)
class SurrenderReport:
    """The level given up by surrendering."""

    level_before: int
    summary: Phrase


def surrender(c: Character, *, rules: Rules) -> tuple[Character, SurrenderReport]:
    """The character out of the fight: level 0, effectively unconscious."""
    current = status(c, rules=rules)
    if current is Status.DEAD:
        raise RuleError(phrase("{name} is dead and cannot surrender.", name=c.name))
    if current is Status.SURRENDERED:
        raise RuleError(phrase("{name} has already surrendered.", name=c.name))
    new = check_character(validated_copy(c, level=0, surrendered=True), rules=rules)
    text = phrase("{name} surrenders: level {before} → 0, out of the fight.", name=c.name,
                  before=c.level)
    return new, SurrenderReport(c.level, text)
