"""A whole sheet checked against the rules data: rulebook 004, "Characters".

"Fill in your character sheet": what a filled-in sheet must keep, from the other headings —
the boxes of each hit location ("Hit Location"), the item slots ("Items", "Advancement"), one or
two hands per item ("Combat items"), at most 2 armor per hit location ("Armor"), and the
abilities with their prerequisites ("Abilities").

>>> from data import load_rules
>>> ana = Character(name="Ana", level=50, max_level=50, wounds={"head": "XXXX"})
>>> [problem.english() for problem in character_problems(ana, rules=load_rules())]
["Ana's head has 3 boxes, not 4."]
"""

from __future__ import annotations

from pydantic import ValidationError

from engine.catalog import ItemKind, LessLethal, Rules
from engine.character._index import rules_index
from engine.character.advancement import ability_limit, slots
from engine.character.body import usable_hands
from engine.character.model import HANDS, Character, Item, other_hand
from engine.character.wording import sentences_phrase, with_article, with_capital_article
from engine.errors import RuleError
from engine.phrases import Said, phrase
from engine.validation_said import validation_sentence
from engine.words import series_phrase

__all__ = [
    "character_from_json",
    "character_problems",
    "check_character",
    "check_item_fields",
]


def character_problems(c: Character, *, rules: Rules) -> tuple[Said, ...]:
    """Every way the character breaks the rules data, each a sentence; empty when valid.

    >>> from data import load_rules
    >>> ana = Character(name="Ana", level=50, max_level=50,
    ...                 abilities=("leader.initiative_direct",))
    >>> [problem.english() for problem in character_problems(ana, rules=load_rules())]
    ['Ana has Leader: Direct on initiative, which requires Leader: Direct.']
    """
    problems: list[Said] = []
    lookup = rules_index(rules)
    for location_id, marks in c.wounds.items():
        loc = lookup.locations.get(location_id)
        if loc is None:
            problems.append(phrase("{name} has wounds on {location}, which is not a hit location.",
                                   name=c.name, location=repr(location_id)))
        elif len(marks) > loc.boxes:
            problems.append(phrase("{name}'s {location} has {boxes} boxes, not {marks}.",
                                   name=c.name, location=loc.said_lower, boxes=loc.boxes,
                                   marks=len(marks)))
    capacity = slots(c)
    if len(c.items) > capacity:
        problems.append(phrase("{name} has {slots} item slots but carries {count} items.",
                               name=c.name, slots=capacity, count=len(c.items)))
    armor_count: dict[tuple[str, str], int] = {}
    for item in c.items:
        kind = lookup.kinds.get(item.kind)
        if kind is None:
            problems.append(phrase("{item} is of unknown kind {kind}.", item=item.name,
                                   kind=repr(item.kind)))
            continue
        try:
            check_item_fields(c, item, kind, rules)
        except RuleError as error:
            problems.append(error.said)
        if kind.per_location and item.location is not None:
            key = (kind.id, item.location)
            armor_count[key] = armor_count.get(key, 0) + 1
    for (kind_id, location_id), count in armor_count.items():
        kind = lookup.kinds[kind_id]
        if kind.max_per_location is not None and count > kind.max_per_location:
            known = lookup.locations.get(location_id)
            problems.append(phrase(
                "{name} has {count} {kind} on the {location}; {most} is the most per location.",
                name=c.name, count=count, kind=kind.said_lower, most=kind.max_per_location,
                location=location_id.replace("_", " ") if known is None else known.said_lower))
    problems.extend(_hand_problems(c, rules))
    problems.extend(_ability_problems(c, rules))
    return tuple(problems)


def check_character(c: Character, *, rules: Rules) -> Character:
    """The character itself if it keeps every rule; else a RuleError listing the problems.

    Each rule refuses a bad request with its own message first; this is the safety net.
    """
    problems = character_problems(c, rules=rules)
    if problems:
        raise RuleError(sentences_phrase(problems))
    return c


def character_from_json(text: str, *, rules: Rules) -> Character:
    """A character from the store's JSON (or a player's paste), fully checked.

    >>> from data import load_rules
    >>> character_from_json('{"name": "Ana", "level": 50}', rules=load_rules())
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: That character is not valid: `max_level`: Field required.
    """
    try:
        c = Character.model_validate_json(text)
    except ValidationError as error:
        raise RuleError(phrase("That character is not valid: {problem}.",
                               problem=validation_sentence(error))) from error
    return check_character(c, rules=rules)


def _hand_problems(c: Character, rules: Rules) -> list[Said]:
    problems: list[Said] = []
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
            problems.append(phrase("{item} ({kind}) is not held in a hand.", item=item.name,
                                   kind=kind.said_lower))
        elif kind.hands == 2 and other != index:
            problems.append(phrase("{item} needs both hands.", item=item.name))
        elif kind.hands == 1 and other == index:
            problems.append(phrase("{item} is held in one hand, not both.", item=item.name))
        if hand not in usable:
            problems.append(
                phrase("{name}'s right arm is full of wounds and cannot hold {item}.",
                       name=c.name, item=item.name) if hand == "right"
                else phrase("{name}'s left arm is full of wounds and cannot hold {item}.",
                            name=c.name, item=item.name))
    right, left = c.right_hand, c.left_hand
    if right is not None and left is not None and right != left:
        right_kind, left_kind = c.items[right].kind, c.items[left].kind
        known = right_kind in kinds and left_kind in kinds
        if known and (
            left_kind in kinds[right_kind].not_held_with
            or right_kind in kinds[left_kind].not_held_with
        ):
            problems.append(phrase("{name} cannot use {right} and {left} at the same time.",
                                   name=c.name, right=c.items[right].name,
                                   left=c.items[left].name))
    return problems


def _ability_problems(c: Character, rules: Rules) -> list[Said]:
    problems: list[Said] = []
    lookup = rules_index(rules)
    for ability_id in c.abilities:
        if ability_id not in lookup.ability_ids:
            problems.append(phrase("{name} has unknown ability {ability}.", name=c.name,
                                   ability=repr(ability_id)))
            continue
        ability = lookup.ability_ids[ability_id]
        if ability.free_text:
            problems.append(phrase("{ability} is written as 'good at ...', not as an id.",
                                   ability=ability.said_title))
        for needed in ability.requires:
            if needed not in c.abilities:
                problems.append(phrase("{name} has {ability}, which requires {needed}.",
                                       name=c.name, ability=ability.said_title,
                                       needed=lookup.ability(needed).said_title))
    limit = ability_limit(c)
    total = len(c.abilities) + len(c.good_at)
    if total > limit:
        problems.append(phrase("{name} has {count} abilities; max level {max_level} allows "
                               "{limit}.", name=c.name, count=total, max_level=c.max_level,
                               limit=limit))
        return problems
    if len(c.abilities) > limit - 1:
        problems.append(phrase(
            "{name} has {count} combat abilities; at max level {max_level} the most is "
            "{most}, since everyone starts with one of each kind.", name=c.name,
            count=len(c.abilities), max_level=c.max_level, most=limit - 1))
    if len(c.good_at) > limit - 1:
        problems.append(phrase(
            "{name} has {count} non-combat abilities; at max level {max_level} the most is "
            "{most}, since everyone starts with one of each kind.", name=c.name,
            count=len(c.good_at), max_level=c.max_level, most=limit - 1))
    return problems


def check_item_fields(c: Character, item: Item, kind: ItemKind, rules: Rules) -> None:
    """Refuse (RuleError) an item whose location, less-lethal flag or ability its kind forbids."""
    lookup = rules_index(rules)
    if kind.per_location:
        if item.location is None:
            raise RuleError(phrase("{kind} covers one hit location: say which ({locations}).",
                                   kind=kind.said_name, locations=rules.body.said_ids))
        lookup.location(item.location)
    elif item.location is not None:
        raise RuleError(phrase("Only armor names a hit location; {item} is {kind}.",
                               item=item.name, kind=with_article(kind)))
    if item.less_lethal and kind.less_lethal is not LessLethal.VARIANT:
        raise RuleError(phrase(
            "Only ammo comes in a less-lethal version; {item} is {kind}. Melee weapons deal "
            "less-lethal damage by choice.", item=item.name, kind=with_article(kind)))
    if kind.requires_one_of:
        titles = series_phrase([lookup.ability(a).said_title for a in kind.requires_one_of])
        if item.ability not in kind.requires_one_of:
            raise RuleError(phrase("{kind} is for one ability: say which ({titles}).",
                                   kind=with_capital_article(kind), titles=titles))
        if item.ability not in c.abilities:
            raise RuleError(phrase("{name} needs the ability {ability} to carry {item}.",
                                   name=c.name, ability=lookup.ability(item.ability).said_title,
                                   item=item.name))
    elif item.ability is not None:
        raise RuleError(phrase("{item} is {kind}, which is not tied to an ability.",
                               item=item.name, kind=with_article(kind)))
