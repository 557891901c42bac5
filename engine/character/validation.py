"""A whole sheet checked against the rules data: rulebook 004, "Characters".

"Fill in your character sheet": what a filled-in sheet must keep, from the other headings —
the boxes of each hit location ("Hit Location"), the item slots ("Items", "Advancement"), one or
two hands per item ("Combat items"), at most 2 armor per hit location ("Armor"), and the
abilities with their prerequisites ("Abilities").

>>> from data import load_rules
>>> ana = Character(name="Ana", level=50, max_level=50, wounds={"head": "XXXX"})
>>> character_problems(ana, rules=load_rules())
("Ana's head has 3 boxes, not 4.",)
"""

from __future__ import annotations

from pydantic import ValidationError

from engine.catalog import ItemKind, LessLethal, Rules
from engine.character._index import rules_index
from engine.character.advancement import ability_limit, slots
from engine.character.body import usable_hands
from engine.character.model import HANDS, Character, Item, other_hand, validation_sentence
from engine.character.wording import location_name, with_article
from engine.errors import RuleError

__all__ = [
    "character_from_json",
    "character_problems",
    "check_character",
    "check_item_fields",
]


def character_problems(c: Character, *, rules: Rules) -> tuple[str, ...]:
    """Every way the character breaks the rules data, each a sentence; empty when valid.

    >>> from data import load_rules
    >>> ana = Character(name="Ana", level=50, max_level=50,
    ...                 abilities=("leader.initiative_direct",))
    >>> character_problems(ana, rules=load_rules())
    ('Ana has Leader: Direct on initiative, which requires Leader: Direct.',)
    """
    problems: list[str] = []
    lookup = rules_index(rules)
    for location_id, marks in c.wounds.items():
        loc = lookup.locations.get(location_id)
        if loc is None:
            problems.append(f"{c.name} has wounds on {location_id!r}, which is not a hit location.")
        elif len(marks) > loc.boxes:
            problems.append(
                f"{c.name}'s {location_name(loc)} has {loc.boxes} boxes, not {len(marks)}."
            )
    capacity = slots(c)
    if len(c.items) > capacity:
        problems.append(f"{c.name} has {capacity} item slots but carries {len(c.items)} items.")
    armor_count: dict[tuple[str, str], int] = {}
    for item in c.items:
        kind = lookup.kinds.get(item.kind)
        if kind is None:
            problems.append(f"{item.name} is of unknown kind {item.kind!r}.")
            continue
        try:
            check_item_fields(c, item, kind, rules)
        except RuleError as error:
            problems.append(str(error))
        if kind.per_location and item.location is not None:
            key = (kind.id, item.location)
            armor_count[key] = armor_count.get(key, 0) + 1
    for (kind_id, location_id), count in armor_count.items():
        kind = lookup.kinds[kind_id]
        if kind.max_per_location is not None and count > kind.max_per_location:
            problems.append(
                f"{c.name} has {count} {kind.name.lower()} on the {location_id.replace('_', ' ')}; "
                f"{kind.max_per_location} is the most per location."
            )
    problems.extend(_hand_problems(c, rules))
    problems.extend(_ability_problems(c, rules))
    return tuple(problems)


def check_character(c: Character, *, rules: Rules) -> Character:
    """The character itself if it keeps every rule; else a RuleError listing the problems.

    Each rule refuses a bad request with its own message first; this is the safety net.
    """
    problems = character_problems(c, rules=rules)
    if problems:
        raise RuleError(" ".join(problems))
    return c


def character_from_json(text: str, *, rules: Rules) -> Character:
    """A character from the store's JSON (or a player's paste), fully checked.

    >>> from data import load_rules
    >>> character_from_json('{"name": "Ana", "level": 50}', rules=load_rules())
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: That character is not valid: max_level: Field required.
    """
    try:
        c = Character.model_validate_json(text)
    except ValidationError as error:
        raise RuleError(f"That character is not valid: {validation_sentence(error)}.") from error
    return check_character(c, rules=rules)


def _hand_problems(c: Character, rules: Rules) -> list[str]:
    problems: list[str] = []
    kinds = rules_index(rules).kinds
    usable = usable_hands(c, rules=rules)
    for hand in HANDS:
        index = c.held(hand)
        if index is None:
            continue
        item = c.items[index]
        if item.kind not in kinds:
            continue
        kind = kinds[item.kind]
        other = c.held(other_hand(hand))
        if not kind.held:
            problems.append(f"{item.name} ({kind.name.lower()}) is not held in a hand.")
        elif kind.hands == 2 and other != index:
            problems.append(f"{item.name} needs both hands.")
        elif kind.hands == 1 and other == index:
            problems.append(f"{item.name} is held in one hand, not both.")
        if hand not in usable:
            problems.append(f"{c.name}'s {hand} arm is full of wounds and cannot hold {item.name}.")
    right, left = c.right_hand, c.left_hand
    if right is not None and left is not None and right != left:
        right_kind, left_kind = c.items[right].kind, c.items[left].kind
        known = right_kind in kinds and left_kind in kinds
        if known and (
            left_kind in kinds[right_kind].not_held_with
            or right_kind in kinds[left_kind].not_held_with
        ):
            problems.append(
                f"{c.name} cannot use {c.items[right].name} and {c.items[left].name} "
                "at the same time."
            )
    return problems


def _ability_problems(c: Character, rules: Rules) -> list[str]:
    problems: list[str] = []
    lookup = rules_index(rules)
    for ability_id in c.abilities:
        if ability_id not in lookup.ability_ids:
            problems.append(f"{c.name} has unknown ability {ability_id!r}.")
            continue
        ability = lookup.ability_ids[ability_id]
        if ability.free_text:
            problems.append(f"{ability.title} is written as 'good at ...', not as an id.")
        for needed in ability.requires:
            if needed not in c.abilities:
                problems.append(
                    f"{c.name} has {ability.title}, which requires "
                    f"{lookup.ability(needed).title}."
                )
    limit = ability_limit(c)
    total = len(c.abilities) + len(c.good_at)
    if total > limit:
        problems.append(f"{c.name} has {total} abilities; max level {c.max_level} allows {limit}.")
    else:
        for category, count in (("combat", len(c.abilities)), ("non-combat", len(c.good_at))):
            if count > limit - 1:
                problems.append(
                    f"{c.name} has {count} {category} abilities; at max level {c.max_level} the "
                    f"most is {limit - 1}, since everyone starts with one of each kind."
                )
    return problems


def check_item_fields(c: Character, item: Item, kind: ItemKind, rules: Rules) -> None:
    """Refuse (RuleError) an item whose location, less-lethal flag or ability its kind forbids."""
    lookup = rules_index(rules)
    if kind.per_location:
        if item.location is None:
            raise RuleError(
                f"{kind.name} covers one hit location: say which "
                f"({', '.join(rules.body.ids)})."
            )
        lookup.location(item.location)
    elif item.location is not None:
        raise RuleError(f"Only armor names a hit location; {item.name} is {with_article(kind)}.")
    if item.less_lethal and kind.less_lethal is not LessLethal.VARIANT:
        raise RuleError(
            f"Only ammo comes in a less-lethal version; {item.name} is {with_article(kind)}. "
            "Melee weapons deal less-lethal damage by choice."
        )
    if kind.requires_one_of:
        titles = ", ".join(lookup.ability(a).title for a in kind.requires_one_of)
        if item.ability not in kind.requires_one_of:
            raise RuleError(
                f"{with_article(kind).capitalize()} is for one ability: say which ({titles})."
            )
        if item.ability not in c.abilities:
            needed = lookup.ability(item.ability).title
            raise RuleError(f"{c.name} needs the ability {needed} to carry {item.name}.")
    elif item.ability is not None:
        raise RuleError(f"{item.name} is {with_article(kind)}, which is not tied to an ability.")
