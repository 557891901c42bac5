r"""Recovering after a fight: rulebook 004, "Damage" › "Recovery".

"Recovery allows you to restore your level to max, erase any \ or X wounds, and acquire or
replace any items up to your maximum slots."
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.catalog import Rules
from engine.character.condition import Status, status
from engine.character.model import Character, frozen_counts, validated_copy
from engine.character.validation import check_character
from engine.errors import RuleError
from engine.phrases import Phrase, phrase, plural_phrase

__all__ = ["RecoveryReport", "left_to_recover", "recover"]


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    """What recovery restored: level, erased marks per location, items made whole again."""

    level_before: int
    level_after: int
    erased: Mapping[str, int]
    restored: tuple[int, ...]
    summary: Phrase


def left_to_recover(c: Character) -> tuple[object, ...]:
    """What Recovery restores, as ``c`` has it: level, marks, surrender, destroyed items. Two
    sheets alike in these need the same Recovery, whatever else differs (a max level raised
    by advancement, an ability or an item added since).

    >>> ana = Character(name="Ana", level=12, max_level=50, wounds={"head": "X"})
    >>> left_to_recover(ana) == left_to_recover(ana.model_copy(update={"max_level": 51}))
    True
    """
    destroyed = tuple(sorted(it.name for it in c.items if it.destroyed))
    return c.level, tuple(sorted(c.wounds.items())), c.surrendered, destroyed


def recover(c: Character, *, rules: Rules) -> tuple[Character, RecoveryReport]:
    """The character after recovery: level back to max, ``\\`` and X erased (■ stays),
    surrender over, and every destroyed item replaced (its slot refilled).

    >>> from data import load_rules
    >>> rules = load_rules()
    >>> ana = Character(name="Ana", level=12, max_level=50, wounds={"head": "■X\\\\"})
    >>> ana, report = recover(ana, rules=rules)
    >>> ana.level, dict(ana.wounds), report.erased["head"]
    (50, {'head': '■'}, 2)
    """
    if status(c, rules=rules) is Status.DEAD:
        raise RuleError(phrase("{name} is dead: recovery cannot bring them back.",
                               name=c.name))
    wounds = {loc: marks.replace("\\", "").replace("X", "") for loc, marks in c.wounds.items()}
    erased = {loc: len(c.wounds[loc]) - len(wounds[loc]) for loc in c.wounds}
    restored = tuple(i for i, it in enumerate(c.items) if it.destroyed)
    items = tuple(it.model_copy(update={"destroyed": False}) for it in c.items)
    new = check_character(
        validated_copy(c, level=c.max_level, wounds=wounds, items=items, surrendered=False),
        rules=rules,
    )
    summary = _summary(c.name, c.level, new.level, sum(erased.values()),
                       ", ".join(c.items[i].name for i in restored))
    return new, RecoveryReport(c.level, new.level, frozen_counts(erased), restored, summary)


def _summary(name: str, before: int, after: int, wounds: int, items: str) -> Phrase:
    """What a recovery restored, as the table reads it (``items``: the replaced items' names,
    by commas)."""
    if wounds and items:
        return plural_phrase(
            "{name} recovers: level {before} → {after}, {count} wound erased, {items} replaced.",
            "{name} recovers: level {before} → {after}, {count} wounds erased, {items} "
            "replaced.", "count", name=name, before=before, after=after, count=wounds,
            items=items)
    if wounds:
        return plural_phrase("{name} recovers: level {before} → {after}, {count} wound erased.",
                             "{name} recovers: level {before} → {after}, {count} wounds "
                             "erased.", "count", name=name, before=before, after=after,
                             count=wounds)
    if items:
        return phrase("{name} recovers: level {before} → {after}, {items} replaced.",
                      name=name, before=before, after=after, items=items)
    return phrase("{name} recovers: level {before} → {after}.", name=name, before=before,
                  after=after)
