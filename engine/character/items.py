"""A character's combat items: rulebook 004, "Characters" › "Items" and "Items" › "Combat items".

"You start with 5 slots for combat related Items." "Unless otherwise specified, a combat related
item takes up one slot on your character sheet." Armor names its hit location ("Armor takes up
one slot per hit location"), an AoE weapon its ability; "Erase or otherwise note destroyed items."

>>> from data import load_rules
>>> ana, report = add_item(Character.new("Ana"), "Kit", "first_aid", rules=load_rules())
>>> report.summary.english()
'Ana carries Kit (first aid) in slot 1; 4 of 5 slots are free.'
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError

from engine.catalog import Ability, ItemKind, Rules
from engine.character.advancement import slots
from engine.character.model import Character, Item, trusted_copy, validated_copy
from engine.character.validation import check_character, check_item_fields
from engine.character.wording import with_article, with_capital_article
from engine.errors import RuleError
from engine.phrases import Said, phrase, plural_phrase
from engine.validation_said import validation_sentence
from engine.words import series_phrase

__all__ = [
    "ItemRef", "ItemReport", "abilities_to_carry", "add_item", "destroy_item", "item_index",
    "remove_item",
]


ItemRef = int | str
"""An item by its 0-based index in ``items`` (the sheet shows it 1-based) or by its name."""


@dataclass(frozen=True, slots=True)
class ItemReport:
    """What happened to one item; ``index`` is its place in ``items`` (0-based)."""

    index: int
    item: Item
    summary: Said


def item_index(c: Character, item: ItemRef, *, intact_first: bool = False) -> int:
    if isinstance(item, bool):
        raise TypeError("an item is an index or a name")
    if isinstance(item, int):
        if 0 <= item < len(c.items):
            return item
        raise RuleError(phrase("{name} has no item number {number}.", name=c.name,
                                   number=item + 1))
    wanted = item.strip().casefold()
    matches = [i for i, it in enumerate(c.items) if it.name.casefold() == wanted]
    if not matches:
        raise RuleError(phrase("{name} has no item called {item}.", name=c.name,
                               item=repr(item.strip())))
    if intact_first:
        intact = [i for i in matches if not c.items[i].destroyed]
        return (intact or matches)[0]
    return matches[0]


def add_item(
    c: Character,
    name: str,
    kind: str,
    *,
    rules: Rules,
    location: str | None = None,
    less_lethal: bool = False,
    ability: str | None = None,
) -> tuple[Character, ItemReport]:
    """The character with one more item, in the next slot.

    Armor names its ``location``; ammo may be ``less_lethal``; an AoE weapon names the AoE
    ``ability`` it is for (an id or a name; it may be left out when the character has just one).

    >>> from data import load_rules
    >>> rules = load_rules()
    >>> ana, _ = add_item(Character.new("Ana"), "Vest", "armor", location="torso", rules=rules)
    >>> ana, report = add_item(ana, "Riot shield", "shield", rules=rules)
    >>> report.summary.english()
    'Ana carries Riot shield (shield) in slot 2; 3 of 5 slots are free.'
    """
    item_kind = rules.items.kind(kind)
    if len(c.items) >= slots(c):
        raise RuleError(phrase("{name} has {slots} item slots and all are full.",
                               name=c.name, slots=slots(c)))
    if item_kind.requires_one_of:
        ability = _aoe_ability(c, item_kind, ability, rules)
    try:
        item = Item(
            name=name, kind=kind, location=location, less_lethal=less_lethal, ability=ability
        )
    except ValidationError as error:
        raise RuleError(phrase("That item won't do: {problem}.",
                               problem=validation_sentence(error))) from error
    check_item_fields(c, item, item_kind, rules)
    if item_kind.per_location and item_kind.max_per_location is not None:
        same = [
            it for it in c.items if it.kind == item_kind.id and it.location == item.location
        ]
        if len(same) >= item_kind.max_per_location:
            loc = rules.body.location(str(item.location))
            raise RuleError(phrase(
                "{name} already has {count} {kind} on the {location}; {most} is the most per "
                "location.", name=c.name, count=len(same), kind=item_kind.said_short,
                location=loc.said_lower, most=item_kind.max_per_location))
    new = check_character(validated_copy(c, items=(*c.items, item)), rules=rules)
    index = len(new.items) - 1
    free = slots(new) - len(new.items)
    return new, ItemReport(
        index,
        item,
        plural_phrase("{name} carries {item} ({kind}) in slot {slot}; {free} of {slots} slots "
                      "is free.",
                      "{name} carries {item} ({kind}) in slot {slot}; {free} of {slots} slots "
                      "are free.", "free", name=c.name, item=item.name,
                      kind=item_kind.said_short, slot=index + 1, free=free, slots=slots(new)),
    )


def abilities_to_carry(c: Character, kind: ItemKind, rules: Rules) -> tuple[Ability, ...]:
    """The abilities of ``c`` that let it carry an item of ``kind`` (004: an AoE weapon needs
    an AoE ability); empty when the kind needs none. Refuses when it needs one ``c`` lacks.

    >>> from data import load_rules
    >>> rules = load_rules()
    >>> from engine.character import add_ability
    >>> ana, _ = add_ability(Character.new("Ana"), "aoe.blast", rules=rules)
    >>> [a.title for a in abilities_to_carry(ana, rules.items.kind("aoe"), rules)]
    ['AoE: Blast']
    """
    options = [rules.abilities.ability(a) for a in kind.requires_one_of]
    held = tuple(a for a in options if a.id in c.abilities)
    if options and not held:
        raise RuleError(phrase("{name} needs an AoE ability ({titles}) to carry {kind}.",
                               name=c.name, titles=series_phrase([a.said_title for a in options]),
                               kind=with_article(kind)))
    return held


def _aoe_ability(c: Character, kind: ItemKind, ability: str | None, rules: Rules) -> str:
    if ability is None:
        held = abilities_to_carry(c, kind, rules)
        if len(held) == 1:
            return held[0].id
        raise RuleError(phrase("{name} has several AoE abilities: say which one this {kind} is "
                               "for.", name=c.name, kind=kind.said_short))
    options = [rules.abilities.ability(a) for a in kind.requires_one_of]
    wanted = ability.strip().casefold()
    for option in options:
        if wanted in (option.id, option.name.casefold(), option.title.casefold()):
            return option.id
    raise RuleError(phrase("{kind} is for one of {titles}, not {ability}.",
                           kind=with_capital_article(kind),
                           titles=series_phrase([a.said_title for a in options]),
                           ability=repr(ability)))


def remove_item(c: Character, item: ItemRef, *, rules: Rules) -> tuple[Character, ItemReport]:
    """The character without that item (dropped from its hand too); the slot frees up."""
    index = item_index(c, item)
    removed = c.items[index]

    def shifted(held: int | None) -> int | None:
        if held is None or held == index:
            return None
        return held - 1 if held > index else held

    new = check_character(
        validated_copy(
            c,
            items=c.items[:index] + c.items[index + 1 :],
            right_hand=shifted(c.right_hand),
            left_hand=shifted(c.left_hand),
        ),
        rules=rules,
    )
    free = slots(new) - len(new.items)
    return new, ItemReport(
        index, removed, plural_phrase("{name} no longer carries {item}; {free} slot is free.",
                                      "{name} no longer carries {item}; {free} slots are free.",
                                      "free", name=c.name, item=removed.name, free=free)
    )


def destroy_item(c: Character, item: ItemRef, *, rules: Rules) -> tuple[Character, ItemReport]:
    """The character with that item destroyed (and out of its hands) until recovery."""
    index = item_index(c, item, intact_first=True)
    target = c.items[index]
    if target.destroyed:
        raise RuleError(phrase("{name}'s {item} is already destroyed.", name=c.name,
                               item=target.name))
    items = list(c.items)
    items[index] = target.model_copy(update={"destroyed": True})
    # Marking an item destroyed and emptying the hands that held it keeps a valid character
    # valid: it is copied once, unvalidated (armor takes hits in a fight's hot path).
    new = check_character(
        trusted_copy(
            c,
            items=tuple(items),
            right_hand=None if c.right_hand == index else c.right_hand,
            left_hand=None if c.left_hand == index else c.left_hand,
        ),
        rules=rules,
    )
    return new, ItemReport(index, items[index], phrase("{name}'s {item} is destroyed.",
                                                       name=c.name, item=target.name))
