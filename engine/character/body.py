"""Hit locations on a character: rulebook 004, "Damage" › "Hit Location".

"When all of the boxes in a location are marked, apply the appropriate penalty for that type of
location": the arm's "You can't use that hand" and the legs' "You cannot move without using 2
empty hands" are read here from the body plan (``rules.body``), never from location names.

>>> from data import load_rules
>>> rules = load_rules()
>>> ana = Character(name="Ana", level=50, max_level=50, wounds={"right_arm": "XXX"})
>>> full_locations(ana, rules=rules), usable_hands(ana, rules=rules)
(('right_arm',), ('left',))
"""

from __future__ import annotations

from engine.catalog import Hand, HitLocation, Penalty, Rules
from engine.character.model import HANDS, Character

__all__ = ["full_locations", "leg_locations", "usable_hands"]


def _is_full(c: Character, loc: HitLocation) -> bool:
    return len(c.marks(loc.id)) >= loc.boxes


def full_locations(c: Character, *, rules: Rules) -> tuple[str, ...]:
    """Locations whose every box is marked (their penalty applies), head first."""
    return tuple(loc.id for loc in rules.body.locations if _is_full(c, loc))


def leg_locations(rules: Rules) -> tuple[HitLocation, ...]:
    """The body plan's legs (penalty LEG), head first: what "Leg" and "Both Legs" are about.

    >>> from data import load_rules
    >>> [loc.id for loc in leg_locations(load_rules())]
    ['right_leg', 'left_leg']
    """
    return tuple(loc for loc in rules.body.locations if loc.penalty is Penalty.LEG)


def usable_hands(c: Character, *, rules: Rules) -> tuple[Hand, ...]:
    """Hands whose arm still has an unmarked box ("You can't use that hand")."""
    usable: list[Hand] = []
    for hand in HANDS:
        arm = rules.body.arm_for(hand)
        if arm is None or not _is_full(c, arm):
            usable.append(hand)
    return tuple(usable)


def _location(location: int | str, rules: Rules) -> HitLocation:
    if isinstance(location, bool):
        raise TypeError("a location is a die face or a location id")
    if isinstance(location, int):
        return rules.body.for_die(location)
    return rules.body.location(location)
