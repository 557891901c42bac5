"""Item slots, the ability limit and advancing: rulebook 004, "Advancement".

"All players' max level increases by 1 at the end of a session if they achieved their goal for
that session." A max level ending in 5 brings an item slot (Characters › Items: "You start with
5 slots"), one ending in 0 from 60 on another ability (Characters › Abilities: "You start with one
non-combat ability and one combat ability"), and "Your max level cannot increase beyond 99."

>>> ana, report = advance(Character.new("Ana", level=59))
>>> report.summary.english()
'Ana advances to max level 60 and may choose another ability (3 now).'
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.character.model import START_LEVEL, Character, validated_copy
from engine.dice import MAX_LEVEL
from engine.phrases import Argument, Phrase, phrase

__all__ = ["AdvanceReport", "ability_limit", "advance", "next_ability_level", "slots"]


BASE_SLOTS = 5  # "You start with 5 slots for combat related Items."
BASE_ABILITIES = 2  # "You start with one non-combat ability and one combat ability."
FIRST_NEW_ABILITY = 60  # "At level 60 you can choose a second combat or non-combat ability"


def slots(c: Character) -> int:
    """Item slots: 5, and one more at each max level ending in 5 above 50 (55, 65, ... 95).

    >>> slots(Character.new("A")), slots(Character.new("B", level=55)), slots(Character.new("C", level=99))
    (5, 6, 10)
    """  # noqa: E501
    above_start = range(START_LEVEL + 1, c.max_level + 1)
    return BASE_SLOTS + sum(1 for level in above_start if level % 10 == 5)


def ability_limit(c: Character) -> int:
    """Abilities: 2 (one combat, one non-combat), and one more at max level 60, 70, 80 and 90.

    >>> ability_limit(Character.new("A", level=59)), ability_limit(Character.new("B", level=60))
    (2, 3)
    """
    above = range(FIRST_NEW_ABILITY, c.max_level + 1)
    return BASE_ABILITIES + sum(1 for level in above if level % 10 == 0)


def next_ability_level(c: Character) -> int | None:
    later = range(max(FIRST_NEW_ABILITY, c.max_level + 1), MAX_LEVEL + 1)
    return next((level for level in later if level % 10 == 0), None)


@dataclass(frozen=True, slots=True)
class AdvanceReport:
    """Max level before and after (equal at the cap), and what the new level unlocked."""

    max_before: int
    max_after: int
    new_slot: bool
    new_ability: bool
    summary: Phrase


def advance(c: Character) -> tuple[Character, AdvanceReport]:
    """The character after a session whose goal was met: max level +1, never above 99.

    >>> ana, report = advance(Character.new("Ana", level=54))
    >>> ana.max_level, ana.level, report.new_slot, report.summary.english()
    (55, 54, True, 'Ana advances to max level 55 and gains an item slot (6 now).')
    """
    if c.max_level >= MAX_LEVEL:
        capped = phrase("{name} is at max level {level}, the highest there is.", name=c.name,
                        level=MAX_LEVEL)
        return c, AdvanceReport(c.max_level, c.max_level, False, False, capped)
    new = validated_copy(c, max_level=c.max_level + 1)
    new_slot = slots(new) > slots(c)
    new_ability = ability_limit(new) > ability_limit(c)
    said: dict[str, Argument] = {"name": c.name, "level": new.max_level, "slots": slots(new),
                                 "abilities": ability_limit(new)}
    if new_slot and new_ability:
        text = phrase("{name} advances to max level {level} and gains an item slot ({slots} now) "
                      "and may choose another ability ({abilities} now).", **said)
    elif new_slot:
        text = phrase("{name} advances to max level {level} and gains an item slot "
                      "({slots} now).", **said)
    elif new_ability:
        text = phrase("{name} advances to max level {level} and may choose another ability "
                      "({abilities} now).", **said)
    else:
        text = phrase("{name} advances to max level {level}.", **said)
    return new, AdvanceReport(c.max_level, new.max_level, new_slot, new_ability, text)
