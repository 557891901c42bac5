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
from engine.phrases import Phrase, Said, phrase
from engine.words import listed_phrase

__all__ = [
    "can_hold",
    "change_hands",
    "find_item",
    "hand_items",
    "hands_text",
    "on_floor",
    "rearrange",
]

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
        raise RuleError(_destroyed(c.items[matches[0]].name))
    raise RuleError(_no_item(c.name, name))


def _destroyed(item: str) -> Phrase:
    return phrase("{item} is destroyed; recovery replaces it.", item=item)


def _no_item(fighter: str, name: str) -> Phrase:
    return phrase("{fighter} has no item called {name}.", fighter=fighter, name=repr(name.strip()))


def _hold(c: Character, index: int, hand: Hand | None, rules: Rules) -> tuple[Character, Said]:
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


def can_hold(c: Character, index: int, rules: Rules) -> bool:
    """Whether ``c`` could take item ``index`` in a hand."""
    try:
        _hold(c, index, None, rules)
    except RuleError:
        return False
    return True


def _hand_arg(hand: str | None) -> Literal["right", "left"] | None:
    return None if hand in (None, "both") else cast(Literal["right", "left"], hand)


def change_hands(f: Fighter, cmd: ManageItems, rules: Rules) -> tuple[Fighter, Phrase]:
    """``/item stow``, ``hold`` or ``pickup``: ``f`` with the item stowed, or taken in hand
    from the pack or the floor of its area, and what that says."""
    ch = f.character
    dropped = f.dropped
    if cmd.op == "stow":
        if ch.right_hand is None and ch.left_hand is None:
            raise RuleError(phrase("{fighter} has nothing in hand to stow.", fighter=f.name))
        hand = _hand_arg(cmd.hand)
        if hand is not None and ch.held(hand) is None:
            raise RuleError(phrase("{fighter}'s right hand is empty.", fighter=f.name)
                            if hand == "right" else
                            phrase("{fighter}'s left hand is empty.", fighter=f.name))
        ch, report = stow(ch, hand, rules=rules)
        text = phrase("{fighter} stows: {summary}", fighter=f.name, summary=report.summary)
    else:
        if cmd.item is None:
            raise RuleError(phrase("Say which item {fighter} should pick up.", fighter=f.name)
                            if cmd.op == "pickup" else
                            phrase("Say which item {fighter} should hold.", fighter=f.name))
        index = find_item(f, cmd.item, rules)
        item = ch.items[index]
        floor = on_floor(f, index)
        if cmd.op == "pickup":
            if floor is None:
                raise RuleError(phrase("{item} is not on the floor: use /item hold.",
                                       item=item.name))
            if floor.area != f.area:
                raise RuleError(_lies_elsewhere(item.name, floor.area, f))
            dropped = tuple(d for d in dropped if d.index != index)
        elif floor is not None:
            raise RuleError(phrase(
                "{item} lies on the floor of {area}: pick it up first (/item pickup).",
                item=item.name, area=floor.area))
        kind = rules.items.kind(item.kind)
        hand = _hand_arg(cmd.hand)
        if kind.hands == 2 and cmd.hand in ("right", "left"):
            raise RuleError(phrase("{item} needs both hands.", item=item.name))
        if kind.hands == 1 and cmd.hand == "both":
            raise RuleError(phrase("{item} needs one hand: say right or left.", item=item.name))
        if (
            cmd.op == "hold"
            and (ch.right_hand == index or ch.left_hand == index)
            and (hand is None or ch.held(hand) == index)
        ):
            raise RuleError(phrase("{fighter} already holds {item}.", fighter=f.name,
                                   item=item.name))
        ch, summary = _hold(ch, index, hand, rules)
        if cmd.op == "pickup":
            text = phrase("{fighter} picks up {item}: {summary}", fighter=f.name, item=item.name,
                          summary=summary)
        else:
            text = phrase("{fighter} takes {item}: {summary}", fighter=f.name, item=item.name,
                          summary=summary)
    return f.model_copy(update={"character": ch, "dropped": dropped}), text


def _lies_elsewhere(item: str, area: str, f: Fighter) -> Phrase:
    return phrase("{item} lies in {area}; {fighter} is in {fighter_area}.", item=item,
                  area=area, fighter=f.name, fighter_area=f.area)


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
        raise RuleError(phrase("Nothing to rearrange: {fighter} already has {hands}.",
                               fighter=f.name, hands=_hands_text(ch)))
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
    text = phrase("{fighter} {changes}: {hands} (one action).", fighter=f.name,
                  changes=_changes(ch, before, wanted, picked), hands=_hands_text(new))
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
        raise RuleError(phrase("Nothing to rearrange: say what {fighter}'s right or left hand "
                               "holds.", fighter=f.name))
    for hand in HANDS:
        index = chosen[hand]
        if index is None or index == _KEEP:
            continue
        item = ch.items[index]
        kind = rules.items.kind(item.kind)
        if not kind.held:
            raise RuleError(phrase("{item} ({kind}) is not held in a hand.", item=item.name,
                                   kind=kind.short))
        other = _other(hand)
        if kind.hands == 2:
            if chosen[other] not in (_KEEP, index):
                raise RuleError(_leave_other_hand(item.name, other))
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
            raise RuleError(phrase("{item} needs both hands, and {fighter} cannot use one of them.",
                                   item=item.name, fighter=ch.name))
        raise RuleError(_arm_full(ch.name, hand, item.name))
    return chosen


def _leave_other_hand(item: str, other: Hand) -> Phrase:
    if other == "right":
        return phrase("{item} needs both hands: leave the right hand as it is, or name {item} "
                      "for it too.", item=item)
    return phrase("{item} needs both hands: leave the left hand as it is, or name {item} for "
                  "it too.", item=item)


def _arm_full(fighter: str, hand: Hand, item: str) -> Phrase:
    if hand == "right":
        return phrase("{fighter}'s right arm is full of wounds: that hand can't hold {item}.",
                      fighter=fighter, item=item)
    return phrase("{fighter}'s left arm is full of wounds: that hand can't hold {item}.",
                  fighter=fighter, item=item)


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
        raise RuleError(_no_item(ch.name, name))
    intact = [i for i in matches if not ch.items[i].destroyed]
    if not intact:
        raise RuleError(_destroyed(ch.items[matches[0]].name))
    free = [i for i in intact if i != taken]
    if not free:
        raise RuleError(phrase("{fighter} has one {item}: it cannot be in both hands.",
                               fighter=f.name, item=ch.items[intact[0]].name))

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
        raise RuleError(_lies_elsewhere(ch.items[best].name, floor.area, f))
    return best


def _hands_text(ch: Character) -> Phrase:
    return hands_text(ch, ch.right_hand, ch.left_hand)


def hands_text(ch: Character, right: int | None, left: int | None) -> Phrase:
    """What the hands hold (items by index): "Knife in the right hand, nothing in the left
    hand", or "Rifle in both hands"."""
    if right is not None and right == left:
        return phrase("{item} in both hands", item=ch.items[right].name)
    in_right = (phrase("nothing in the right hand") if right is None
                else phrase("{item} in the right hand", item=ch.items[right].name))
    in_left = (phrase("nothing in the left hand") if left is None
               else phrase("{item} in the left hand", item=ch.items[left].name))
    return phrase("{right}, {left}", right=in_right, left=in_left)


def _changes(
    ch: Character, before: dict[Hand, int | None], after: dict[Hand, int | None], picked: set[int]
) -> Said:
    """What the fighter does: "takes Knife and Shield", "picks up Rifle and stows Pistol"."""
    held_before = {i for i in before.values() if i is not None}
    held_after = {i for i in after.values() if i is not None}
    new = sorted(held_after - held_before)
    said: list[Said] = []
    if taken := [ch.items[i].name for i in new if i not in picked]:
        said.append(phrase("takes {items}", items=listed_phrase(taken)))
    if picked_up := [ch.items[i].name for i in new if i in picked]:
        said.append(phrase("picks up {items}", items=listed_phrase(picked_up)))
    for hand in HANDS:  # a one-handed item that changes hands
        i = after[hand]
        if i is not None and i in held_before and before[hand] != i and after[_other(hand)] != i:
            said.append(phrase("moves {item} to the right hand", item=ch.items[i].name)
                        if hand == "right" else
                        phrase("moves {item} to the left hand", item=ch.items[i].name))
    if stowed := [ch.items[i].name for i in sorted(held_before - held_after)]:
        said.append(phrase("stows {items}", items=listed_phrase(stowed)))
    return listed_phrase(said)

