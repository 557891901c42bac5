"""Using and managing items (004 "Use or Manage Items"): the ``/item`` command. Using an item
in hand, or a thing noted on the area, takes an action and is for the GM to rule on; dropping
what is in hand is free (004 "Actions"), and a full arm drops what its hand holds (004 "Hit
Location"). Holding, picking up, stowing and rearranging are in
``engine.combat.actions.hands``."""

from __future__ import annotations

from typing import Literal, cast

from engine.catalog import Rules
from engine.character import HANDS, Character, status, stow, usable_hands
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
    ctx.emit(EventKind.ITEMS, f"{text} (one action)", f.key)
    return c.model_copy(update={"action_seq": c.action_seq + 1})


def _use_text(c: Combat, f: Fighter, name: str | None, rules: Rules) -> str:
    """What using an item in hand, or a thing noted on the area, says (the GM rules on it)."""
    ch = f.character
    if name is None:
        raise RuleError(f"Say what {f.name} uses: an item in hand or something in {f.area}.")
    key = name_key(name)
    for note in c.game_map().notes(f.area):
        if note.casefold() == key:
            return f"{f.name} uses {note} in {f.area}; the GM says what it does."
    index = find_item(f, name, rules)
    item = ch.items[index]
    hands = [h for h in HANDS if ch.held(h) == index]
    if not hands:
        notes = c.game_map().notes(f.area)
        where = f" or one of {f.area}'s: {', '.join(notes)}" if notes else ""
        raise RuleError(f"{item.name} is not in {f.name}'s hands; use an item in hand{where}.")
    kind = rules.items.kind(item.kind)
    if kind.id == "first_aid":
        raise RuleError(f"{item.name} is first aid: use /firstaid.")
    if kind.attack == "aoe":
        raise RuleError(f"{item.name} is an AoE weapon: use it on an area with /aoe area:.")
    usable = usable_hands(ch, rules=rules)
    if len(hands) < kind.hands or any(h not in usable for h in hands):
        raise RuleError(f"{f.name} cannot use {item.name}: it needs {kind.hands} usable hands.")
    return f"{f.name} uses {item.name}; the GM says what it does."


def _drop(c: Combat, cmd: ManageItems, ctx: Context) -> Combat:
    """Dropping what is in hand is free: it takes no action (004 "Actions")."""
    require_phase(c, Phase.TURN)
    f = c.fighter(cmd.fighter)
    require_control(ctx.actor, f)
    if not can_act(f, ctx.rules):  # free, but still something the fighter does
        raise RuleError(f"{f.name} is {status(f.character, rules=ctx.rules).value} and cannot "
                        "drop anything.")
    ch = f.character
    if cmd.item is not None:
        index = find_item(f, cmd.item, ctx.rules)
        held = [h for h in HANDS if ch.held(h) == index]
        if not held:
            raise RuleError(f"{ch.items[index].name} is not in {f.name}'s hands.")
        leaving = {index}
    else:
        hands = HANDS if cmd.hand in (None, "both") else (cast(Literal["right", "left"], cmd.hand),)
        leaving = {i for h in hands if (i := ch.held(h)) is not None}
        if not leaving:
            raise RuleError(f"{f.name} has nothing in that hand to drop.")
    text = f"{f.name} drops {_names(ch, leaving)} in {f.area} (no action)."
    ctx.emit(EventKind.ITEMS, text, f.key)
    return put(c, _let_fall(f, leaving, ctx.rules))


def _names(ch: Character, indices: set[int]) -> str:
    return " and ".join(ch.items[i].name for i in sorted(indices))


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
    ctx.emit(EventKind.ITEMS, f"{f.name} drops {_names(ch, falling)} in {f.area}.", f.key)
    return _let_fall(f, falling, rules)
