"""Using and managing items (004 "Use or Manage Items"): the ``/item`` command. Using an item
in hand, or a thing noted on the area, takes an action and is for the GM to rule on; dropping
what is in hand is free (004 "Actions"), and a full arm drops what its hand holds (004 "Hit
Location"). Holding, picking up, stowing and rearranging are in
``engine.combat.actions.hands``."""

from __future__ import annotations

from typing import Literal, cast

from engine.catalog import Rules
from engine.character import HANDS, Character, Status, status, stow, usable_hands
from engine.combat.action_kinds import ActionKind
from engine.combat.actions.hands import (
    can_hold,
    change_hands,
    find_item,
    hand_items,
    hands_text,
    on_floor,
    rearrange,
)
from engine.combat.commands import ManageItems
from engine.combat.context import Context, require_control
from engine.combat.fighters import acting_fighter, can_act, put, spend_action
from engine.combat.model import Combat, Dropped, EventKind, Fighter, Phase
from engine.combat.phase_guard import require_phase
from engine.errors import RuleError
from engine.names import name_key
from engine.phrases import Phrase, Said, phrase, plural_phrase
from engine.words import listed_phrase

__all__ = [
    "drop_from_useless_hands",
    "hand_items",
    "hands_text",
    "legal_items",
    "manage_items",
    "rearrange",
]


def legal_items(combat: Combat, fighter_key: str, rules: Rules, op: str) -> tuple[str, ...]:
    """What ``/item <op>`` could name for this fighter now: items to hold (not in hand nor on
    the floor), items on the floor of their area to pick up, items in hand to drop, and for
    ``use`` the items in hand and the things noted on their area of the map; for ``right``
    and ``left``, what ``Rearrange`` could put in that hand (see `hand_items`)."""
    f = combat.fighter(fighter_key)
    c = f.character
    if op in HANDS:
        return tuple(dict.fromkeys(c.items[i].name for i in hand_items(f, op, rules)))
    in_hand = tuple(dict.fromkeys(i for i in (c.right_hand, c.left_hand) if i is not None))
    if op == "hold":
        found = [
            it.name
            for i, it in enumerate(c.items)
            if on_floor(f, i) is None and i not in in_hand and can_hold(c, i, rules)
        ]
    elif op == "pickup":
        found = [
            c.items[d.index].name
            for d in f.dropped
            if d.area == f.area and can_hold(c, d.index, rules)
        ]
    elif op == "drop":
        found = [c.items[i].name for i in in_hand]
    elif op == "use":
        found = [c.items[i].name for i in in_hand]
        found += list(combat.game_map().notes(f.area))
    else:
        found = []
    return tuple(dict.fromkeys(found))


def manage_items(c: Combat, cmd: ManageItems, ctx: Context) -> Combat:
    if cmd.op == "drop":
        return _drop(c, cmd, ctx)
    rules = ctx.rules
    f = acting_fighter(c, cmd.fighter, ctx)
    if cmd.op == "use":
        text = _use_text(c, f, cmd.item, rules)
    else:
        f, text = change_hands(f, cmd, rules)
    c = put(c, spend_action(f, ctx, ActionKind.ITEMS))
    ctx.emit(EventKind.ITEMS, phrase("{what} (one action)", what=text), f.key)
    return c.model_copy(update={"action_seq": c.action_seq + 1})


def _use_text(c: Combat, f: Fighter, name: str | None, rules: Rules) -> Phrase:
    """What using an item in hand, or a thing noted on the area, says (the GM rules on it)."""
    ch = f.character
    if name is None:
        raise RuleError(phrase("Say what {fighter} uses: an item in hand or something in {area}.",
                               fighter=f.name, area=f.area))
    key = name_key(name)
    for note in c.game_map().notes(f.area):
        if note.casefold() == key:
            return phrase("{fighter} uses {thing} in {area}; the GM says what it does.",
                          fighter=f.name, thing=note, area=f.area)
    index = find_item(f, name, rules)
    item = ch.items[index]
    hands = [h for h in HANDS if ch.held(h) == index]
    if not hands:
        notes = c.game_map().notes(f.area)
        if notes:
            raise RuleError(phrase("{item} is not in {fighter}'s hands; use an item in hand or "
                                   "one of {area}'s: {notes}.", item=item.name, fighter=f.name,
                                   area=f.area, notes=", ".join(notes)))
        raise RuleError(phrase("{item} is not in {fighter}'s hands; use an item in hand.",
                               item=item.name, fighter=f.name))
    kind = rules.items.kind(item.kind)
    if kind.id == "first_aid":
        raise RuleError(phrase("{item} is first aid: use /firstaid.", item=item.name))
    if kind.attack == "aoe":
        raise RuleError(phrase("{item} is an AoE weapon: use it on an area with /aoe area:.",
                               item=item.name))
    usable = usable_hands(ch, rules=rules)
    if len(hands) < kind.hands or any(h not in usable for h in hands):
        # (English says "hands" for one hand too, as it always did)
        raise RuleError(plural_phrase("{fighter} cannot use {item}: it needs {count} usable hands.",
                                      "{fighter} cannot use {item}: it needs {count} usable hands.",
                                      "count", fighter=f.name, item=item.name, count=kind.hands))
    return phrase("{fighter} uses {item}; the GM says what it does.", fighter=f.name,
                  item=item.name)


def _drop(c: Combat, cmd: ManageItems, ctx: Context) -> Combat:
    """Dropping what is in hand is free: it takes no action (004 "Actions")."""
    require_phase(c, Phase.TURN)
    f = c.fighter(cmd.fighter)
    require_control(ctx.actor, f)
    if not can_act(f, ctx.rules):  # free, but still something the fighter does
        raise RuleError(_cannot_drop(f.name, status(f.character, rules=ctx.rules)))
    ch = f.character
    if cmd.item is not None:
        index = find_item(f, cmd.item, ctx.rules)
        held = [h for h in HANDS if ch.held(h) == index]
        if not held:
            raise RuleError(phrase("{item} is not in {fighter}'s hands.",
                                   item=ch.items[index].name, fighter=f.name))
        leaving = {index}
    else:
        hands = HANDS if cmd.hand in (None, "both") else (cast(Literal["right", "left"], cmd.hand),)
        leaving = {i for h in hands if (i := ch.held(h)) is not None}
        if not leaving:
            raise RuleError(phrase("{fighter} has nothing in that hand to drop.", fighter=f.name))
    text = phrase("{fighter} drops {items} in {area} (no action).", fighter=f.name,
                  items=_names(ch, leaving), area=f.area)
    ctx.emit(EventKind.ITEMS, text, f.key)
    return put(c, _let_fall(f, leaving, ctx.rules))


def _cannot_drop(name: str, now: Status) -> Phrase:
    """Why a fighter out of action (not fine) drops nothing: "Ana is unconscious and cannot
    drop anything."."""
    if now is Status.UNCONSCIOUS:
        return phrase("{fighter} is unconscious and cannot drop anything.", fighter=name)
    if now is Status.SURRENDERED:
        return phrase("{fighter} is surrendered and cannot drop anything.", fighter=name)
    return phrase("{fighter} is dead and cannot drop anything.", fighter=name)


def _names(ch: Character, indices: set[int]) -> Said:
    return listed_phrase([ch.items[i].name for i in sorted(indices)])


def _let_fall(f: Fighter, indices: set[int], rules: Rules) -> Fighter:
    """``f`` with those items out of its hands and on the floor of its area."""
    ch = f.character
    for hand in HANDS:
        if ch.held(hand) in indices:
            ch, _ = stow(ch, hand, rules=rules)
    fallen = tuple(Dropped(index=i, area=f.area) for i in sorted(indices))
    return f.model_copy(update={"character": ch, "dropped": (*f.dropped, *fallen)})


def drop_from_useless_hands(f: Fighter, rules: Rules, ctx: Context) -> Fighter:
    """A full arm drops what its hand holds (004 "Hit Location"), after a GM correction too."""
    ch = f.character
    usable = usable_hands(ch, rules=rules)
    falling = {i for h in HANDS if h not in usable and (i := ch.held(h)) is not None}
    if not falling:
        return f
    ctx.emit(EventKind.ITEMS, phrase("{fighter} drops {items} in {area}.", fighter=f.name,
                                     items=_names(ch, falling), area=f.area), f.key)
    return _let_fall(f, falling, rules)
