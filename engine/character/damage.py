r"""A hit on a character: rulebook 004, "Damage" (with "Hit Location", "Armor", "Less-lethal").

"When you are damaged by an attack, reduce your level by the amount of damage and mark the
corresponding number of boxes on the hit location section of your character sheet." Boxes fill
at the hit location, then on the torso; armor there may be destroyed instead; less-lethal damage
"only reduces level, it does not mark wounds."

>>> from data import load_rules
>>> ana, report = take_damage(Character.new("Ana"), 3, 8, mark="X", rules=load_rules())
>>> ana.marks("right_arm"), report.newly_full
('XXX', ('right_arm',))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, NamedTuple

from engine.catalog import HitLocation, Rules
from engine.character._index import RulesIndex, rules_index
from engine.character.body import full_in_wounds, hit_location, is_full
from engine.character.condition import Status, status
from engine.character.items import destroy_item, item_index
from engine.character.model import (
    Character,
    Mark,
    frozen_counts,
    frozen_wounds,
    trusted_copy,
    validated_copy,
)
from engine.character.wording import counts_phrase, sentences_phrase, status_sentence
from engine.errors import RuleError
from engine.phrases import COPIES, Said, phrase, plural_phrase

__all__ = ["DamageReport", "armor_covering", "take_damage"]


_NONE_MARKED: Mapping[str, int] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class DamageReport:
    """What a hit did. ``marked`` counts new marks per location; ``unmarked`` had nowhere to go.

    ``newly_full`` lists locations whose penalty starts now; ``dropped`` the items that fell from
    a disabled arm; ``stop_moving`` is true when a leg filled up, ``cannot_move`` when the last one
    did. ``public_summary`` tells the hit without the level and the marks (what the players
    read of an NPC whose figures the GM hides).
    """

    damage: int
    location: str
    less_lethal: bool
    level_before: int
    level_after: int
    marked: Mapping[str, int]
    unmarked: int
    armor_destroyed: int | None
    newly_full: tuple[str, ...]
    dropped: tuple[int, ...]
    stop_moving: bool
    cannot_move: bool
    status_before: Status
    status_after: Status
    summary: Said
    public_summary: Said

    @property
    def became_unconscious(self) -> bool:
        """Fine before the hit, unconscious (not dead) after it."""
        return self.status_before is Status.FINE and self.status_after is Status.UNCONSCIOUS

    @property
    def became_dead(self) -> bool:
        """Alive before the hit, dead after it."""
        return self.status_before is not Status.DEAD and self.status_after is Status.DEAD


def take_damage(
    c: Character,
    amount: int,
    location_die: int | str,
    *,
    rules: Rules,
    mark: Mark | Literal["\\", "X"] = Mark.SLASH,
    less_lethal: bool = False,
    use_armor: bool | int = False,
    moving: bool = False,
) -> tuple[Character, DamageReport]:
    """The character after a hit for ``amount`` at ``location_die``.

    ``location_die`` is the hit-location die (0-9), or a location id for damage the target
    places itself (AoE). The level drops by ``amount``; that many boxes are marked with ``mark``
    (X for a 2H melee weapon) at the location, overflowing to the torso; past a full torso
    nothing is left to mark but the level still drops (RULINGS 16). A damage die of 0 is a hit
    that does nothing (RULINGS 17). Less-lethal damage lowers the level only.

    ``c`` is taken as checked against the rules data (`check_character`, or joining a fight):
    a hit keeps a valid character valid, so the result is not checked again.

    ``use_armor`` (True, or the index of a particular armor item) destroys armor on the hit
    location instead of losing level and marking boxes; when the hit location was already full,
    armor on the torso, where the damage goes, may be used instead.

    ``moving``: the character is in the middle of a Move (an Intercept hit it), so a leg that
    fills stops it; otherwise the report says what a full leg means for moving later.

    The book's example: three ``\\`` on the right leg, hit for 4 at location 2:

    >>> from data import load_rules
    >>> rules = load_rules()
    >>> you = Character(name="You", level=50, max_level=50, wounds={"right_leg": "\\\\" * 3})
    >>> you, report = take_damage(you, 4, 2, rules=rules)
    >>> you.level, you.marks("right_leg"), you.marks("torso"), report.stop_moving
    (46, '\\\\\\\\\\\\\\\\\\\\\\\\', '\\\\', True)
    """
    if amount < 0:
        raise RuleError(phrase("Damage is 0 or more, not {amount}.", amount=amount))
    loc = hit_location(location_die, rules)
    wound_mark = Mark(mark)
    if wound_mark is Mark.PERMANENT:
        raise RuleError(phrase("Damage marks boxes with \\ or X; only first aid makes ■."))
    hit = _Hit(c, amount, loc, less_lethal, status(c, rules=rules))
    if amount == 0:
        return hit.report(c, hit.status_before, phrase(
            "{name} is hit on the {location} for no damage.", name=c.name,
            location=loc.said_lower))
    if use_armor is not False:
        return _armor_takes_it(hit, use_armor, rules)
    if less_lethal:
        return _lowers_level_only(hit, rules)
    return _marks_wounds(hit, wound_mark, moving, rules)


class _Hit(NamedTuple):
    """One hit as `take_damage` asked for it, and the character as it was before.

    A named tuple: it is made on every hit, and a tuple is the cheapest to make."""

    before: Character
    amount: int
    loc: HitLocation
    less_lethal: bool
    status_before: Status

    @property
    def level(self) -> int:
        """The level after the hit."""
        return self.before.level - self.amount

    def copy(self, *, wounds: Mapping[str, str] | None = None, **changes: object) -> Character:
        """The character before the hit with ``changes`` (a level among them). Dice give plain
        ints, which keep a valid character valid, so it is copied unvalidated; any other level
        (a float, a numpy integer) goes through validation, which converts or refuses it as it
        always has."""
        trusted = type(changes["level"]) is int
        if wounds is not None:
            changes["wounds"] = frozen_wounds(wounds) if trusted else wounds
        if trusted:
            return trusted_copy(self.before, **changes)
        return validated_copy(self.before, **changes)

    def report(
        self,
        new: Character,
        status_after: Status,
        summary: Said,
        *,
        public: Said | None = None,
        marked: Mapping[str, int] = _NONE_MARKED,
        unmarked: int = 0,
        armor_destroyed: int | None = None,
        newly_full: tuple[str, ...] = (),
        dropped: tuple[int, ...] = (),
        stop_moving: bool = False,
        cannot_move: bool = False,
    ) -> tuple[Character, DamageReport]:
        """``new`` with the report of this hit; the public summary is ``summary`` unless
        ``public`` says otherwise."""
        return new, DamageReport(
            damage=self.amount,
            location=self.loc.id,
            less_lethal=self.less_lethal,
            level_before=self.before.level,
            level_after=new.level,
            marked=marked,
            unmarked=unmarked,
            armor_destroyed=armor_destroyed,
            newly_full=newly_full,
            dropped=dropped,
            stop_moving=stop_moving,
            cannot_move=cannot_move,
            status_before=self.status_before,
            status_after=status_after,
            summary=summary,
            public_summary=summary if public is None else public,
        )


def _armor_takes_it(
    hit: _Hit, use_armor: bool | int, rules: Rules
) -> tuple[Character, DamageReport]:
    c = hit.before
    armor_index = _armor_for(c, hit.loc, use_armor, rules)
    new, _ = destroy_item(c, armor_index, rules=rules)
    armor = c.items[armor_index]
    return hit.report(
        new,
        status(new, rules=rules),
        phrase("{name}'s {armor} is destroyed instead of taking {amount} damage on the "
               "{location}.", name=c.name, armor=armor.name, amount=hit.amount,
               location=hit.loc.said_lower),
        armor_destroyed=armor_index,
    )


def _lowers_level_only(hit: _Hit, rules: Rules) -> tuple[Character, DamageReport]:
    c, level = hit.before, hit.level
    new = hit.copy(level=level)
    status_after = status(new, rules=rules)
    news = _status_news(hit.status_before, status_after, c.name)
    where = hit.loc.said_lower
    return hit.report(
        new,
        status_after,
        sentences_phrase([plural_phrase(
            "{name} takes {amount} less-lethal damage on the {location}: level {before} → "
            "{after}, no wounds marked.",
            "{name} take {amount} less-lethal damage on the {location}: level {before} → "
            "{after}, no wounds marked.", COPIES, copies=1, name=c.name, amount=hit.amount,
            location=where, before=c.level, after=level), *news]),
        public=sentences_phrase([plural_phrase(
            "{name} takes {amount} less-lethal damage on the {location}.",
            "{name} take {amount} less-lethal damage on the {location}.", COPIES, copies=1,
            name=c.name, amount=hit.amount, location=where), *news]),
    )


def _marks_wounds(
    hit: _Hit, wound_mark: Mark, moving: bool, rules: Rules
) -> tuple[Character, DamageReport]:
    c, level = hit.before, hit.level
    lookup = rules_index(rules)
    wounds, marked, remaining = _placed_marks(c, hit.loc, hit.amount, wound_mark, lookup)
    full_before = set(full_in_wounds(c.wounds, rules))
    full_after = full_in_wounds(wounds, rules)
    newly_full = tuple(loc_id for loc_id in full_after if loc_id not in full_before)
    dropped = _dropped_from(c, newly_full, lookup)
    # Not checked against the rules data again: a hit keeps a valid character valid (it marks
    # only free boxes and empties the hands of a disabled arm), and a character is checked once,
    # when it comes in (an import, each rule's change, joining a fight).
    new = hit.copy(
        wounds=wounds,
        level=level,
        right_hand=None if c.right_hand in dropped else c.right_hand,
        left_hand=None if c.left_hand in dropped else c.left_hand,
    )
    legs = [leg.id for leg in lookup.legs]
    leg_filled = any(loc_id in legs for loc_id in newly_full)
    all_legs_full = all(leg in full_after for leg in legs)
    status_after = status(new, rules=rules)
    where = hit.loc.said_lower
    figures: list[Said] = [plural_phrase(
        "{name} takes {amount} damage to the {location}: level {before} → {after}.",
        "{name} take {amount} damage to the {location}: level {before} → {after}.",
        COPIES, copies=1, name=c.name, amount=hit.amount, location=where, before=c.level,
        after=level)]
    if marked:
        figures.append(phrase("Marked {counts}.", counts=counts_phrase(marked, rules)))
    if remaining:
        figures.append(phrase("No box is left for {count} more.", count=remaining))
    news: list[Said] = [phrase("{name} drops {item}.", name=c.name, item=c.items[index].name)
                        for index in sorted(dropped)]
    news += _moving_news(c.name, leg_filled, all_legs_full, moving, status_after)
    news += _status_news(hit.status_before, status_after, c.name)
    head = plural_phrase("{name} takes {amount} damage to the {location}.",
                         "{name} take {amount} damage to the {location}.", COPIES, copies=1,
                         name=c.name,
                  amount=hit.amount, location=where)
    return hit.report(
        new,
        status_after,
        sentences_phrase(figures + news),
        public=sentences_phrase([head, *news]),
        marked=frozen_counts(marked),
        unmarked=remaining,
        newly_full=newly_full,
        dropped=tuple(sorted(dropped)),
        stop_moving=leg_filled,
        cannot_move=leg_filled and all_legs_full,
    )


def _placed_marks(
    c: Character, loc: HitLocation, amount: int, wound_mark: Mark, lookup: RulesIndex
) -> tuple[dict[str, str], dict[str, int], int]:
    """The wounds after marking ``amount`` boxes at ``loc``, then on the torso; the marks made
    per location; and how many found no box."""
    wounds = dict(c.wounds)
    marked: dict[str, int] = {}
    remaining = amount
    overflow = lookup.overflow
    for target in (loc, overflow) if loc.id != overflow.id else (loc,):
        room = target.boxes - len(wounds.get(target.id, ""))
        placed = min(room, remaining)
        if placed > 0:
            wounds[target.id] = wounds.get(target.id, "") + wound_mark.value * placed
            marked[target.id] = placed
            remaining -= placed
    return wounds, marked, remaining


def _dropped_from(c: Character, newly_full: tuple[str, ...], lookup: RulesIndex) -> set[int]:
    """The items a newly disabled arm drops; a 2H item then leaves both hands."""
    dropped: set[int] = set()
    for loc_id in newly_full:
        hand = lookup.location(loc_id).hand
        held = c.held(hand) if hand is not None else None
        if held is not None:
            dropped.add(held)
    return dropped


def _moving_news(
    name: str, leg_filled: bool, all_legs_full: bool, moving: bool, status_after: Status
) -> list[Said]:
    """What a leg filled by this hit means for moving, as everyone at the table sees it."""
    if leg_filled and all_legs_full and (moving or status_after is Status.FINE):
        return [phrase("{name} cannot move.", name=name)]
    if leg_filled and moving:
        return [phrase("{name} must stop moving.", name=name)]
    if leg_filled and status_after is Status.FINE:
        return [phrase("{name} can move only with two empty hands.", name=name)]
    return []


def _status_news(before: Status, after: Status, name: str) -> list[Said]:
    if after is before or after is Status.FINE:
        return []
    return [status_sentence(name, after)]


def armor_covering(c: Character, location: str, rules: Rules) -> list[int]:
    """The items of ``c`` (indexes) that are intact armor able to take damage at
    ``location``: armor there, and the torso's when the location is full (the damage goes
    on to the torso)."""
    lookup = rules_index(rules)
    loc = lookup.location(location)
    eligible = {loc.id}
    if is_full(c, loc):
        eligible.add(lookup.overflow.id)
    return [
        i
        for i, it in enumerate(c.items)
        if lookup.kind(it.kind).per_location and not it.destroyed and it.location in eligible
    ]


def _armor_for(c: Character, loc: HitLocation, use_armor: bool | int, rules: Rules) -> int:
    candidates = armor_covering(c, loc.id, rules)
    if use_armor is True:
        if not candidates:
            raise RuleError(phrase("{name} has no intact armor on the {location}.",
                                   name=c.name, location=loc.said_lower))
        # Armor on the hit location itself first.
        return min(candidates, key=lambda i: (c.items[i].location != loc.id, i))
    index = item_index(c, int(use_armor))
    if index not in candidates:
        raise RuleError(phrase("{item} is not intact armor on the {location}.",
                               item=c.items[index].name, location=loc.said_lower))
    return index
