"""What a character holds: rulebook 004, "Actions" › "Use or manage items".

"Rearranging which items are in your hands, including picking items up or stowing away items,
takes a total of one action." Items "specify whether they require one or two hands" (Characters ›
Items); a full arm's hand can't be used ("Hit Location").

>>> from data import load_rules
>>> from engine.character import add_item
>>> rules = load_rules()
>>> ana, _ = add_item(Character.new("Ana"), "Pistol", "ranged_1h", rules=rules)
>>> ana, report = hold(ana, "pistol", "left", rules=rules)
>>> report.summary.english()
'Ana has Pistol in the left hand.'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.catalog import Hand, ItemKind, Rules
from engine.character.body import usable_hands
from engine.character.items import ItemRef, item_index
from engine.character.model import HANDS, Character, validated_copy
from engine.character.validation import check_character
from engine.errors import RuleError
from engine.phrases import Phrase, Said, phrase

__all__ = ["HandsReport", "hold", "hold_only", "stow", "usable_held"]


@dataclass(frozen=True, slots=True)
class HandsReport:
    """What each hand holds now, and which items left the hands."""

    right: int | None
    left: int | None
    stowed: tuple[int, ...]
    summary: Said


def usable_held(c: Character, *, rules: Rules) -> tuple[int, ...]:
    """The items held in a usable hand (indices into ``c.items``, each once, right first):
    what the character can use now.

    >>> from data import load_rules
    >>> from engine.character import add_item
    >>> rules = load_rules()
    >>> ana, _ = add_item(Character.new("Ana"), "Riot shield", "shield", rules=rules)
    >>> held, _ = hold(ana, 0, "left", rules=rules)
    >>> usable_held(ana, rules=rules), usable_held(held, rules=rules)
    ((), (0,))
    """
    hands = usable_hands(c, rules=rules)
    found: list[int] = []
    for hand in HANDS:
        index = c.held(hand)
        if index is not None and hand in hands and index not in found:
            found.append(index)
    return tuple(found)


def _hands_said(c: Character) -> Phrase:
    """"Ana has Knife in the right hand and Pistol in the left hand.", said whole."""
    name = c.name
    if c.right_hand is not None and c.right_hand == c.left_hand:
        return phrase("{name} has {item} in both hands.", name=name,
                      item=c.items[c.right_hand].name)
    right, left = c.held("right"), c.held("left")
    if right is not None and left is not None:
        return phrase("{name} has {right} in the right hand and {left} in the left hand.",
                      name=name, right=c.items[right].name, left=c.items[left].name)
    if right is not None:
        return phrase("{name} has {item} in the right hand.", name=name,
                      item=c.items[right].name)
    if left is not None:
        return phrase("{name} has {item} in the left hand.", name=name, item=c.items[left].name)
    return phrase("{name} has nothing in hand.", name=name)


def hold(
    c: Character, item: ItemRef, hand: Hand | None = None, *, rules: Rules
) -> tuple[Character, HandsReport]:
    """The character holding that item; whatever was in the way is stowed.

    A 2H item takes both hands. A 1H item goes in ``hand``, or else in an empty usable hand
    (right first), or else in the right hand. Out of combat this is free; in combat,
    rearranging hands takes an action (the combat engine counts it).

    >>> from data import load_rules
    >>> from engine.character import add_item
    >>> rules = load_rules()
    >>> ana, _ = add_item(Character.new("Ana"), "Greatsword", "melee_2h", rules=rules)
    >>> ana, report = hold(ana, "greatsword", rules=rules)
    >>> ana.right_hand, ana.left_hand, report.summary.english()
    (0, 0, 'Ana has Greatsword in both hands.')
    """
    index = item_index(c, item, intact_first=True)
    target = c.items[index]
    kind = rules.items.kind(target.kind)
    if target.destroyed:
        raise RuleError(phrase("{name}'s {item} is destroyed; recovery replaces it.",
                                name=c.name, item=target.name))
    if not kind.held:
        raise RuleError(phrase("{item} ({kind}) is not held in a hand.", item=target.name,
                                kind=kind.said_short))
    usable = usable_hands(c, rules=rules)
    if kind.hands == 2:
        if usable != HANDS:
            raise RuleError(phrase("{item} needs both hands, and {name} cannot use one of them.",
                                    item=target.name, name=c.name))
        right: int | None = index
        left: int | None = index
    else:
        right, left = _one_hand_holding(c, index, hand, usable)
    other = left if right == index else right
    if other is not None and other != index:
        _refuse_clash(c, index, other, kind, rules)
    new = check_character(validated_copy(c, right_hand=right, left_hand=left), rules=rules)
    stowed = tuple(
        sorted({i for i in (c.right_hand, c.left_hand) if i is not None} - {right, left})
    )
    return new, HandsReport(right, left, stowed, _hands_said(new))


def _one_hand_holding(
    c: Character, index: int, hand: Hand | None, usable: tuple[Hand, ...]
) -> tuple[int | None, int | None]:
    """The right and left hands' items once the 1H item ``index`` is in ``hand`` (or the hand
    `hold` picks); a 2H item in the way leaves both hands, this item leaves the other."""
    if not usable:
        raise RuleError(phrase("{name}'s arms are full of wounds: neither hand can be used.",
                                name=c.name))
    if hand is None:
        # Keep it where it is, else take an empty hand, else free the first usable one.
        already = [h for h in usable if c.held(h) == index]
        empty = [h for h in usable if c.held(h) is None]
        chosen = [*already, *empty, *usable][0]
    else:
        chosen = hand
    if chosen not in usable:
        raise RuleError(
            phrase("{name}'s right arm is full of wounds: that hand can't be used.", name=c.name)
            if chosen == "right" else
            phrase("{name}'s left arm is full of wounds: that hand can't be used.", name=c.name))
    holding = {h: c.held(h) for h in HANDS}
    for h in HANDS:
        if holding[h] == index or (
            holding[h] is not None and holding[h] == holding[chosen] and h != chosen
        ):
            holding[h] = None
    holding[chosen] = index
    return holding["right"], holding["left"]


def _refuse_clash(c: Character, index: int, other: int, kind: ItemKind, rules: Rules) -> None:
    """RuleError when the item ``index`` (of ``kind``) may not be held with item ``other``."""
    other_kind = c.items[other].kind
    clash = kind.not_held_with + rules.items.kind(other_kind).not_held_with
    if other_kind in clash or kind.id in clash:
        raise RuleError(phrase("{name} cannot use {item} and {other} at the same time.",
                               name=c.name, item=c.items[index].name,
                               other=c.items[other].name))


def stow(c: Character, hand: Hand | None = None, *, rules: Rules) -> tuple[Character, HandsReport]:
    """The character with that hand (or both) empty; a 2H item leaves both hands."""
    hands = HANDS if hand is None else (hand,)
    leaving = {c.held(h) for h in hands} - {None}
    right = None if c.right_hand in leaving else c.right_hand
    left = None if c.left_hand in leaving else c.left_hand
    new = check_character(validated_copy(c, right_hand=right, left_hand=left), rules=rules)
    stowed = tuple(sorted(i for i in leaving if i is not None))
    return new, HandsReport(right, left, stowed, _hands_said(new))


def hold_only(
    c: Character, items: Sequence[ItemRef], *, rules: Rules
) -> tuple[Character, HandsReport]:
    """The character holding exactly ``items``, the rest stowed: what is in hand when a fight
    starts (004 "Items": "the top slot(s) on the sheet for the items you typically want in
    your hands"). Two hands: one 2H item, or a 1H item in each. An item already in a hand
    stays in it; the others take the empty usable hands, right first.

    >>> from data import load_rules
    >>> from engine.character import add_item
    >>> rules = load_rules()
    >>> ana, _ = add_item(Character.new("Ana"), "Pistol", "ranged_1h", rules=rules)
    >>> ana, _ = add_item(ana, "Knife", "melee_1h", rules=rules)
    >>> ana, _ = add_item(ana, "Rifle", "ranged_2h", rules=rules)
    >>> hold_only(ana, ["knife", "pistol"], rules=rules)[1].summary.english()
    'Ana has Knife in the right hand and Pistol in the left hand.'
    >>> hold_only(ana, ["rifle", "knife"], rules=rules)
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: Rifle needs both hands: hold it alone.
    """
    indices = list(dict.fromkeys(item_index(c, item, intact_first=True) for item in items))
    if len(indices) > len(HANDS):
        raise RuleError(phrase("{name} has two hands: at most two items in hand.", name=c.name))
    if len(indices) > 1:
        both = [c.items[i].name for i in indices
                if rules.items.kind(c.items[i].kind).hands == 2]
        if both:
            raise RuleError(phrase("{item} needs both hands: hold it alone.", item=both[0]))
        if len(usable_hands(c, rules=rules)) < len(indices):
            raise RuleError(phrase("{name} has only one usable hand: hold one item.",
                                   name=c.name))
    kept = {index: hand for hand in HANDS if (index := c.held(hand)) in indices}
    new, _ = stow(c, rules=rules)
    for index in sorted(indices, key=lambda i: i not in kept):
        new, _ = hold(new, index, kept.get(index), rules=rules)
    held = {i for i in (new.right_hand, new.left_hand) if i is not None}
    stowed = tuple(sorted({i for i in (c.right_hand, c.left_hand) if i is not None} - held))
    return new, HandsReport(new.right_hand, new.left_hand, stowed,
                            _hands_said(new))
