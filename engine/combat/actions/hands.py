"""What fighters hold (004 "Use or Manage Items": "Rearranging which items are in your hands,
including picking items up or stowing away items, takes a total of one action"): one item held,
picked up or stowed (``/item hold``, ``pickup``, ``stow``), or both hands set at once
(``Rearrange``), each for one action; and finding a fighter's items, in the pack, in hand or on
the floor."""

from __future__ import annotations

from typing import Literal, cast

from engine.catalog import Hand, Rules
from engine.character import HANDS, Character, hold, stow, usable_hands
from engine.combat.action_kinds import ActionKind
from engine.combat.commands import ManageItems, Rearrange
from engine.combat.context import Context
from engine.combat.fighters import acting_fighter, put, spend_action
from engine.combat.model import Combat, Dropped, EventKind, Fighter
from engine.errors import RuleError
from engine.names import name_key
from engine.phrases import english

__all__ = [
    "can_hold",
    "change_hands",
    "find_item",
    "hand_items",
    "hands_text",
    "on_floor",
    "rearrange",
]

_VERBS = {"hold": "hold", "pickup": "pick up"}


def on_floor(f: Fighter, index: int) -> Dropped | None:
    """Where item ``index`` lies on the floor, or None when ``f`` has it."""
    return next((d for d in f.dropped if d.index == index), None)


def find_item(f: Fighter, name: str, rules: Rules) -> int:
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


def _hold(c: Character, index: int, hand: Hand | None, rules: Rules) -> tuple[Character, str]:
    """``c`` holding item ``index``; with no hand named, the first hand that works (so a
    shield replaces the pistol it cannot be used with rather than being refused)."""
    if hand is not None:
        new, report = hold(c, index, hand, rules=rules)
        return new, english(report.summary)
    first: RuleError | None = None
    for choice in (None, *HANDS):
        try:
            new, report = hold(c, index, choice, rules=rules)
        except RuleError as error:
            first = first or error
            continue
        return new, english(report.summary)
    assert first is not None
    raise first


def can_hold(c: Character, index: int, rules: Rules) -> bool:
    """Whether ``c`` could take item ``index`` in a hand."""
    try:
        _hold(c, index, None, rules)
    except RuleError:
        return False
    return True


def _hand_arg(hand: str | None) -> Literal["right", "left"] | None:
    return None if hand in (None, "both") else cast(Literal["right", "left"], hand)


def change_hands(f: Fighter, cmd: ManageItems, rules: Rules) -> tuple[Fighter, str]:
    """``/item stow``, ``hold`` or ``pickup``: ``f`` with the item stowed, or taken in hand
    from the pack or the floor of its area, and what that says."""
    ch = f.character
    dropped = f.dropped
    if cmd.op == "stow":
        if ch.right_hand is None and ch.left_hand is None:
            raise RuleError(f"{f.name} has nothing in hand to stow.")
        hand = _hand_arg(cmd.hand)
        if hand is not None and ch.held(hand) is None:
            raise RuleError(f"{f.name}'s {hand} hand is empty.")
        ch, report = stow(ch, hand, rules=rules)
        text = f"{f.name} stows: {english(report.summary)}"
    else:
        if cmd.item is None:
            raise RuleError(f"Say which item {f.name} should {_VERBS[cmd.op]}.")
        index = find_item(f, cmd.item, rules)
        item = ch.items[index]
        floor = on_floor(f, index)
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
    return f.model_copy(update={"character": ch, "dropped": dropped}), text


# ---- Rearrange: both hands in one action ----------------------------------------------------


def hand_items(f: Fighter, hand: Hand, rules: Rules) -> tuple[int, ...]:
    """The items ``f`` could have in ``hand`` after one rearrangement: intact items that go
    in hands, whether in hand, in the pack or on the floor of the fighter's area; none for a
    hand that cannot be used, and two-handed items only when both hands can."""
    ch = f.character
    usable = usable_hands(ch, rules=rules)
    if hand not in usable:
        return ()
    found = []
    for i, item in enumerate(ch.items):
        floor = on_floor(f, i)
        kind = rules.items.kind(item.kind)
        if item.destroyed or not kind.held or (floor is not None and floor.area != f.area):
            continue
        if kind.hands == 2 and usable != HANDS:
            continue
        found.append(i)
    return tuple(found)


_KEEP = -1  # a hand left as it is, until the other hand's choice says what that means


def rearrange(c: Combat, cmd: Rearrange, ctx: Context) -> Combat:
    """Both hands set in one action: checked in full before anything changes."""
    rules = ctx.rules
    f = acting_fighter(c, cmd.fighter, ctx)
    ch = f.character
    wanted = _wanted(f, {"right": cmd.right, "left": cmd.left}, rules)
    before = {h: ch.held(h) for h in HANDS}
    if wanted == before:
        raise RuleError(f"Nothing to rearrange: {f.name} already has {_hands_text(ch)}.")
    new = ch
    for hand in HANDS:  # first empty the hands that change, so that only the result can clash
        if new.held(hand) is not None and new.held(hand) != wanted[hand]:
            new, _ = stow(new, hand, rules=rules)
    for hand in HANDS:
        index = wanted[hand]
        if index is not None and new.held(hand) != index:
            two = rules.items.kind(ch.items[index].kind).hands == 2
            new, _ = hold(new, index, None if two else hand, rules=rules)
    assert {h: new.held(h) for h in HANDS} == wanted
    picked = {i for i in wanted.values() if i is not None and on_floor(f, i) is not None}
    dropped = tuple(d for d in f.dropped if d.index not in picked)
    text = f"{f.name} {_changes(ch, before, wanted, picked)}: {_hands_text(new)} (one action)."
    c = put(c, spend_action(f.model_copy(update={"character": new, "dropped": dropped}), ctx,
                          ActionKind.ITEMS))
    ctx.emit(EventKind.ITEMS, text, f.key)
    return c.model_copy(update={"action_seq": c.action_seq + 1})


def _wanted(f: Fighter, specs: dict[Hand, str | None], rules: Rules) -> dict[Hand, int | None]:
    """What each hand is to hold (an item's index, or None for empty) after the rearrangement
    ``specs`` asks for; RuleError when it cannot be."""
    ch = f.character
    chosen: dict[Hand, int | None] = {}
    for hand in HANDS:
        spec = specs[hand]
        if spec is None:
            chosen[hand] = _KEEP
        elif spec == Rearrange.EMPTY:
            chosen[hand] = None
        else:
            other = _other(hand)
            taken = chosen.get(other)
            same_2h = (
                taken is not None
                and taken != _KEEP
                and rules.items.kind(ch.items[taken].kind).hands == 2
                and name_key(ch.items[taken].name) == name_key(spec)
            )
            chosen[hand] = taken if same_2h else _resolve(f, spec, hand, taken, rules)
    if all(chosen[h] == _KEEP for h in HANDS):
        raise RuleError(f"Nothing to rearrange: say what {f.name}'s right or left hand holds.")
    for hand in HANDS:
        index = chosen[hand]
        if index is None or index == _KEEP:
            continue
        item = ch.items[index]
        kind = rules.items.kind(item.kind)
        if not kind.held:
            raise RuleError(f"{item.name} ({kind.short}) is not held in a hand.")
        other = _other(hand)
        if kind.hands == 2:
            if chosen[other] not in (_KEEP, index):
                raise RuleError(
                    f"{item.name} needs both hands: leave the {other} hand as it is, or name "
                    f"{item.name} for it too."
                )
            chosen[other] = index
    for hand in HANDS:  # what a hand left as it is keeps, unless the other hand takes it
        if chosen[hand] != _KEEP:
            continue
        now, there = ch.held(hand), chosen[_other(hand)]
        leaves = now is not None and (now == there or now == ch.held(_other(hand)))
        chosen[hand] = None if leaves else now
    usable = usable_hands(ch, rules=rules)
    for hand in HANDS:
        index = chosen[hand]
        if index is None or hand in usable or ch.held(hand) == index:
            continue
        item = ch.items[index]
        if rules.items.kind(item.kind).hands == 2:
            raise RuleError(f"{item.name} needs both hands, and {ch.name} cannot use one of them.")
        raise RuleError(
            f"{ch.name}'s {hand} arm is full of wounds: that hand can't hold {item.name}."
        )
    return chosen


def _other(hand: Hand) -> Hand:
    return "left" if hand == "right" else "right"


def _resolve(f: Fighter, name: str, hand: Hand, taken: int | None, rules: Rules) -> int:
    """The fighter's intact item called ``name`` for ``hand``, not the one ``taken`` by the
    other hand: the one already in that hand first, then one in the pack, then one in the
    other hand, then one on the floor of the fighter's area (one on the floor elsewhere is
    refused)."""
    ch = f.character
    key = name_key(name)
    matches = [i for i, it in enumerate(ch.items) if name_key(it.name) == key]
    if not matches:
        raise RuleError(f"{ch.name} has no item called {name.strip()!r}.")
    intact = [i for i in matches if not ch.items[i].destroyed]
    if not intact:
        raise RuleError(f"{ch.items[matches[0]].name} is destroyed; recovery replaces it.")
    free = [i for i in intact if i != taken]
    if not free:
        raise RuleError(
            f"{f.name} has one {ch.items[intact[0]].name}: it cannot be in both hands."
        )

    def rank(i: int) -> int:
        floor = on_floor(f, i)
        if ch.held(hand) == i:
            return 0
        if floor is None:
            return 2 if ch.held(_other(hand)) == i else 1
        return 3 if floor.area == f.area else 4

    best = min(free, key=rank)
    floor = on_floor(f, best)
    if floor is not None and floor.area != f.area:
        raise RuleError(f"{ch.items[best].name} lies in {floor.area}; {f.name} is in {f.area}.")
    return best


def _hands_text(ch: Character) -> str:
    return hands_text(ch, ch.right_hand, ch.left_hand)


def hands_text(ch: Character, right: int | None, left: int | None) -> str:
    """What the hands hold (items by index): "Knife in the right hand, nothing in the left
    hand", or "Rifle in both hands"."""
    if right is not None and right == left:
        return f"{ch.items[right].name} in both hands"
    return ", ".join(
        f"{'nothing' if i is None else ch.items[i].name} in the {h} hand"
        for h, i in (("right", right), ("left", left))
    )


def _changes(
    ch: Character, before: dict[Hand, int | None], after: dict[Hand, int | None], picked: set[int]
) -> str:
    """What the fighter does: "takes Knife and Shield", "picks up Rifle and stows Pistol"."""
    held_before = {i for i in before.values() if i is not None}
    held_after = {i for i in after.values() if i is not None}
    new = sorted(held_after - held_before)
    phrases = [_phrase(ch, "takes", [i for i in new if i not in picked]),
               _phrase(ch, "picks up", [i for i in new if i in picked])]
    for hand in HANDS:  # a one-handed item that changes hands
        i = after[hand]
        if i is not None and i in held_before and before[hand] != i and after[_other(hand)] != i:
            phrases.append(f"moves {ch.items[i].name} to the {hand} hand")
    phrases.append(_phrase(ch, "stows", sorted(held_before - held_after)))
    said = [p for p in phrases if p]
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"


def _phrase(ch: Character, verb: str, indices: list[int]) -> str:
    return f"{verb} {' and '.join(ch.items[i].name for i in indices)}" if indices else ""
