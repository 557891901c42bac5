"""Using and managing items (004 "Use or Manage Items"): holding, picking up and stowing take
an action; dropping what is in hand is free; using an item in hand, or a thing noted on the
area, is for the GM to rule on."""

from __future__ import annotations

from typing import Literal, cast

from engine.catalog import Hand, Rules
from engine.character import HANDS, Character, hold, stow, usable_hands
from engine.combat.commands import ManageItems
from engine.combat.context import Context, require_control, require_phase
from engine.combat.fighters import acting_fighter, put, spend_action
from engine.combat.model import Combat, Dropped, EventKind, Fighter, Phase
from engine.errors import RuleError
from engine.names import name_key

__all__ = ["drop_from_useless_hands", "legal_items", "manage_items"]

_VERBS = {"hold": "hold", "pickup": "pick up"}


def _on_floor(f: Fighter, index: int) -> Dropped | None:
    return next((d for d in f.dropped if d.index == index), None)


def _find_item(f: Fighter, name: str, rules: Rules) -> int:
    """The index of the fighter's intact item called ``name`` (RuleError when there is none)."""
    c = f.character
    key = name_key(name)
    matches = [i for i, it in enumerate(c.items) if it.name.casefold() == key]
    intact = [i for i in matches if not c.items[i].destroyed]
    if intact:
        return intact[0]
    if matches:
        raise RuleError(f"{c.items[matches[0]].name} is destroyed; recovery replaces it.")
    raise RuleError(f"{c.name} has no item called {name.strip()!r}.")


def legal_items(combat: Combat, fighter_key: str, rules: Rules, op: str) -> tuple[str, ...]:
    """What ``/item <op>`` could name for this fighter now: items to hold (not in hand nor on
    the floor), items on the floor of their area to pick up, items in hand to drop, and for
    ``use`` the items in hand and the things noted on their area of the map."""
    f = combat.fighter(fighter_key)
    c = f.character
    in_hand = tuple(dict.fromkeys(i for i in (c.right_hand, c.left_hand) if i is not None))
    if op == "hold":
        found = [
            it.name
            for i, it in enumerate(c.items)
            if _on_floor(f, i) is None and i not in in_hand and _can_hold(c, i, rules)
        ]
    elif op == "pickup":
        found = [
            c.items[d.index].name
            for d in f.dropped
            if d.area == f.area and _can_hold(c, d.index, rules)
        ]
    elif op == "drop":
        found = [c.items[i].name for i in in_hand]
    elif op == "use":
        found = [c.items[i].name for i in in_hand]
        found += list(combat.game_map().notes(f.area))
    else:
        found = []
    return tuple(dict.fromkeys(found))


def _hold(c: Character, index: int, hand: Hand | None, rules: Rules) -> tuple[Character, str]:
    """``c`` holding item ``index``; with no hand named, the first hand that works (so a
    shield replaces the pistol it cannot be used with rather than being refused)."""
    if hand is not None:
        new, report = hold(c, index, hand, rules=rules)
        return new, report.summary
    first: RuleError | None = None
    for choice in (None, *HANDS):
        try:
            new, report = hold(c, index, choice, rules=rules)
        except RuleError as error:
            first = first or error
            continue
        return new, report.summary
    assert first is not None
    raise first


def _can_hold(c: Character, index: int, rules: Rules) -> bool:
    try:
        _hold(c, index, None, rules)
    except RuleError:
        return False
    return True


def _hand_arg(hand: str | None) -> Literal["right", "left"] | None:
    return None if hand in (None, "both") else cast(Literal["right", "left"], hand)


def manage_items(c: Combat, cmd: ManageItems, ctx: Context) -> Combat:
    if cmd.op == "drop":
        return _drop(c, cmd, ctx)
    rules = ctx.rules
    f = acting_fighter(c, cmd.fighter, ctx)
    ch = f.character
    dropped = f.dropped
    if cmd.op == "use":
        text = _use_text(c, f, cmd.item, rules)
    elif cmd.op == "stow":
        if ch.right_hand is None and ch.left_hand is None:
            raise RuleError(f"{f.name} has nothing in hand to stow.")
        hand = _hand_arg(cmd.hand)
        if hand is not None and ch.held(hand) is None:
            raise RuleError(f"{f.name}'s {hand} hand is empty.")
        ch, report = stow(ch, hand, rules=rules)
        text = f"{f.name} stows: {report.summary}"
    else:
        if cmd.item is None:
            raise RuleError(f"Say which item {f.name} should {_VERBS[cmd.op]}.")
        index = _find_item(f, cmd.item, rules)
        item = ch.items[index]
        floor = _on_floor(f, index)
        if cmd.op == "pickup":
            if floor is None:
                raise RuleError(f"{item.name} is not on the floor: use /item hold.")
            if floor.area != f.area:
                raise RuleError(
                    f"{item.name} lies in {floor.area}; {f.name} is in {f.area}."
                )
            dropped = tuple(d for d in dropped if d.index != index)
        elif floor is not None:
            raise RuleError(
                f"{item.name} lies on the floor of {floor.area}: pick it up first (/item pickup)."
            )
        kind = rules.items.kind(item.kind)
        hand = _hand_arg(cmd.hand)
        if kind.hands == 2 and cmd.hand in ("right", "left"):
            raise RuleError(f"{item.name} needs both hands.")
        if kind.hands == 1 and cmd.hand == "both":
            raise RuleError(f"{item.name} needs one hand: say right or left.")
        if (
            cmd.op == "hold"
            and (ch.right_hand == index or ch.left_hand == index)
            and (hand is None or ch.held(hand) == index)
        ):
            raise RuleError(f"{f.name} already holds {item.name}.")
        ch, summary = _hold(ch, index, hand, rules)
        verb = "picks up" if cmd.op == "pickup" else "takes"
        text = f"{f.name} {verb} {item.name}: {summary}"
    c = put(c, spend_action(f.model_copy(update={"character": ch, "dropped": dropped})))
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
    index = _find_item(f, name, rules)
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
        raise RuleError(f"{item.name} is an AoE weapon: AoE attacks are resolved by the GM.")
    usable = usable_hands(ch, rules=rules)
    if len(hands) < kind.hands or any(h not in usable for h in hands):
        raise RuleError(f"{f.name} cannot use {item.name}: it needs {kind.hands} usable hands.")
    return f"{f.name} uses {item.name}; the GM says what it does."


def _drop(c: Combat, cmd: ManageItems, ctx: Context) -> Combat:
    """Dropping what is in hand is free: it takes no action (004 "Actions")."""
    require_phase(c, Phase.TURN)
    f = c.fighter(cmd.fighter)
    require_control(ctx.actor, f)
    ch = f.character
    if cmd.item is not None:
        index = _find_item(f, cmd.item, ctx.rules)
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
