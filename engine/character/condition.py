"""Whether a character can still act and move: rulebook 004, "Unconsciousness" and "Death".

"If your level is below 10 or all of your head or torso boxes are marked, you are unconscious."
"If your level is below 0 or all of your head or torso boxes are marked with permanent wounds,
you are dead." RULINGS 14 orders them with surrender ("effectively unconscious"); moving also
needs the legs of "Hit Location".

>>> from data import load_rules
>>> status(Character.new("Ana", level=9), rules=load_rules())
<Status.UNCONSCIOUS: 'unconscious'>
"""

from __future__ import annotations

from enum import StrEnum

from engine.catalog import Rules
from engine.character._index import rules_index
from engine.character.body import is_full, usable_hands
from engine.character.model import HANDS, Character, Mark

__all__ = ["Status", "can_act", "can_move", "status"]


UNCONSCIOUS_BELOW = 10  # "If your level is below 10 [...] you are unconscious."


class Status(StrEnum):
    """How a character stands (RULINGS 14). Anything but FINE is out of action."""

    FINE = "fine"
    UNCONSCIOUS = "unconscious"
    SURRENDERED = "surrendered"  # level 0, out of the fight: "effectively unconscious"
    DEAD = "dead"


def status(c: Character, *, rules: Rules) -> Status:
    """Dead, surrendered, unconscious or fine (RULINGS 14), in that order of precedence.

    Unconscious: level below 10, or every head or every torso box marked. Dead: level below 0,
    or every head or every torso box a permanent wound.
    """
    level, wounds = c.level, c.wounds
    dead, unconscious = level < 0, level < UNCONSCIOUS_BELOW
    if wounds:  # (every location has a box at least: an unhurt character has none full)
        for loc in rules_index(rules).vital:
            marks = wounds.get(loc.id, "")
            dead = dead or marks.count(Mark.PERMANENT) >= loc.boxes
            unconscious = unconscious or len(marks) >= loc.boxes
    if dead:
        return Status.DEAD
    if c.surrendered:
        return Status.SURRENDERED
    return Status.UNCONSCIOUS if unconscious else Status.FINE


def can_act(c: Character, *, rules: Rules) -> bool:
    """Whether the character may spend actions (unconscious, surrendered and dead may not)."""
    return status(c, rules=rules) is Status.FINE


def can_move(c: Character, *, rules: Rules) -> bool:
    """Whether the character may Move.

    One full leg: only "using 2 empty hands" (both usable and empty). Every leg full: never.
    """
    if not can_act(c, rules=rules):
        return False
    legs = rules.body.legs
    full_legs = [loc for loc in legs if is_full(c, loc)]
    if not full_legs:
        return True
    if len(full_legs) == len(legs):
        return False
    return (
        usable_hands(c, rules=rules) == HANDS and c.right_hand is None and c.left_hand is None
    )
