"""Hit locations on a character: rulebook 004, "Damage" › "Hit Location".

"When all of the boxes in a location are marked, apply the appropriate penalty for that type of
location": the arm's "You can't use that hand" is read here from the body plan (``rules.body``),
never from location names, as the legs are (``rules.body.legs``).

>>> from data import load_rules
>>> rules = load_rules()
>>> ana = Character(name="Ana", level=50, max_level=50, wounds={"right_arm": "XXX"})
>>> full_locations(ana, rules=rules), usable_hands(ana, rules=rules)
(('right_arm',), ('left',))
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.catalog import Hand, HitLocation, Rules
from engine.character._index import rules_index
from engine.character.model import HANDS, Character

__all__ = ["full_in_wounds", "full_locations", "hit_location", "is_full", "usable_hands"]


def is_full(c: Character, loc: HitLocation) -> bool:
    return len(c.marks(loc.id)) >= loc.boxes


def full_locations(c: Character, *, rules: Rules) -> tuple[str, ...]:
    """Locations whose every box is marked (their penalty applies), head first."""
    return full_in_wounds(c.wounds, rules)


def full_in_wounds(wounds: Mapping[str, str], rules: Rules) -> tuple[str, ...]:
    # Wounds not yet made a Character: a hit asks before it builds the hurt character.
    return tuple(
        loc.id for loc in rules.body.locations if len(wounds.get(loc.id, "")) >= loc.boxes
    )


def usable_hands(c: Character, *, rules: Rules) -> tuple[Hand, ...]:
    """Hands whose arm still has an unmarked box ("You can't use that hand")."""
    arms = rules_index(rules).arms
    usable: list[Hand] = []
    for hand in HANDS:
        arm = arms.get(hand)
        if arm is None or not is_full(c, arm):
            usable.append(hand)
    return tuple(usable)


def hit_location(location: int | str, rules: Rules) -> HitLocation:
    if isinstance(location, bool):
        raise TypeError("a location is a die face or a location id")
    if isinstance(location, int):
        return rules_index(rules).for_die(location)
    if isinstance(location, str):
        return rules_index(rules).location(location)
    return rules.body.location(location)  # not an id at all: the body plan says so
